"""Companions (rulebook pages 90-91): party units that are not adventurers.

A companion unit (``Battle.units``) has side "companion", no owner (it is nobody's
adventurer), ``companion`` (its stat block id), ``controller`` (the player who
decides for it) and ``keep`` (it stays with the party after the battle).
Companions that stay are listed in ``Campaign.companions``; a defeated one is
struck from that list for good.

Where companions come from: the party's lasting companions, a ``companions``
list on the encounter (they join for that battle, controlled by the party
leader), and ``{ type = "companion" }`` effects (an item in a ready slot with
timing "start of battle", an encounter trigger), controlled by that adventurer.

Companion turns come right after every adventurer's turn and before the
enemies.  The engine plays them for their controller by a fixed plan (the
rules let the controller choose; these are the choices it makes):

* Move up to 2 hexes, only if it has no target where it stands: to the closest
  hex from which it has one, else toward the closest enemy (like enemy movement).
* Engage the targets in range, weakest (lowest HP) first, as many as its target
  count; roll its enemy Combat dice once and deal the total to each.
* Its skills trigger at their timings; statuses work as on enemies.
"""
from __future__ import annotations

from typing import Any

from rulesets.tes.battle import enemy as enemy_ai
from rulesets.tes.battle import harm
from rulesets.tes.battle.model import Ctx, on_map, pos, short_label
from rulesets.tes.battle.state import CompanionEntry, EnemyTurn, EngageRecord, Turn, Unit
from kernel.core import RuleError


def _controller_name(c: Ctx, controller: str | None) -> str:
    adv = c.state.adventurers.get(controller or "")
    return adv.name if adv else "the party"


def join(c: Ctx, companion_id: str, controller: str | None, *, keep: bool = False, source: str = "") -> Unit:
    """A companion joins the battle (and, with ``keep``, the party); deployed right away if it can be."""
    comp = c.pack.companions.get(companion_id)
    if comp is None:
        raise RuleError(f"There is no companion `{companion_id}` in this pack.")
    units = c.b.units
    n = 1 + sum(1 for u in units.values() if u.side == "companion")
    uid = f"c{n}"
    ctrl = controller if controller in c.state.adventurers else c.state.leader
    u = Unit(id=uid, side="companion", name=comp.name, short=f"{short_label(comp.name)}{n}", companion=comp.id,
             controller=ctrl, keep=keep, hp=comp.health, max_hp=comp.health,
             party=controller not in c.state.adventurers)
    units[uid] = u
    if keep:
        c.state.companions.append(CompanionEntry(id=comp.id, controller=ctrl))
    where = deploy(c, u)
    c.say("companion", f"🐾 {comp.name} joins the party" + (f" ({source})" if source else "")
          + (f", controlled by the party ({_controller_name(c, ctrl)}, the leader, decides for it)" if u.party
             else f", controlled by {_controller_name(c, ctrl)}")
          + (f", in hex {where}." if where else "; the entrance is full, so it waits beside it."),
          unit=uid, companion=comp.id)
    return u


def deploy(c: Ctx, u: Unit) -> str | None:
    """Put an undeployed companion on the first free entrance hex; the hex as text, or None."""
    taken = c.occupied()
    for h in c.map.entrance:
        if h not in taken:
            u.q, u.r = h.q, h.r
            return str(h)
    return None


def setup(c: Ctx, enc: Any) -> None:
    """Deploy Companions (battle setup step 5): lasting ones, ready items' companions, the encounter's."""
    for entry in list(c.state.companions):
        if entry.id in c.pack.companions:
            u = join(c, entry.id, entry.controller, source="a party companion")
            u.keep = True
    from rulesets.tes.battle.effects import Use, run_effects

    for owner in c.b.order:
        adv = c.adv(owner)
        for item_id in list(adv.ready):
            it = c.pack.items.get(item_id)
            if it and it.timing == "start of battle" and any(e.get("type") == "companion" for e in it.effects):
                run_effects(Use(c, c.unit(f"a:{owner}"), it.name), [e for e in it.effects
                                                                      if e.get("type") == "companion"])
        for item_id in list(adv.enchants):  # enchantments tucked under the mat (rulesets.tes.battle.items)
            it = c.pack.items.get(item_id)
            if it and it.timing == "start of battle" and not it.manual:
                run_effects(Use(c, c.unit(f"a:{owner}"), it.name), it.effects)
    for cid in getattr(enc, "companions", ()):
        join(c, cid, None, source=enc.name)


def defeated(c: Ctx, u: Unit) -> None:
    """A defeated companion leaves the party for good."""
    c.say("defeated", f"☠️ {u.name} falls and leaves the party for good.", unit=u.id)
    if u.keep:
        lasting = c.state.companions
        for i, x in enumerate(lasting):
            if x.id == u.companion:
                del lasting[i]
                break


def companions(c: Ctx) -> list[Unit]:
    """Companion units still in the battle, in the order they joined (the party's turn order for them)."""
    return [u for u in c.b.units.values() if u.side == "companion" and not u.defeated]


def run_turns(c: Ctx) -> None:
    """Every companion's turn, after the adventurers'."""
    for u in companions(c):
        if c.b.outcome:
            return
        if not on_map(u):
            where = deploy(c, u)
            if where is None:
                continue
            c.say("companion", f"{u.name} enters the map at hex {where}.", unit=u.id)
        take_turn(c, u)
    c.b.turn = Turn()


def take_turn(c: Ctx, u: Unit) -> None:
    c.say("turn", f"▶️ {u.name}'s turn (companion of {_controller_name(c, u.get('controller'))}).",
          unit=u.id)
    enemy_ai.start_turn(c, u)
    if not on_map(u):
        return
    comp = c.pack.companions[u.companion]
    moved = enemy_ai.walk(c, u, enemy_ai.plan_move(c, u), "companion-move")
    if not on_map(u):  # defeated on its way (a die in a hex)
        return
    cur = EnemyTurn(uid=u.id)
    targets = enemy_ai.targetable_from(c, u, pos(u))
    if moved and c.has(u, "daze"):
        c.say("status", f"{u.name} is dazed and moved, so it cannot roll this turn.", unit=u.id)
        targets = []
    if targets:
        targets = enemy_ai.by_priority(c, targets, "weakest")
        if comp.targets is not None:
            targets = targets[:comp.targets]
        total, rolled = enemy_ai.roll_combat(c, u, targets[0])
        idle = sum(1 for r in rolled if not any(ic == "damage" and v for ic, v in r["results"]))
        dice_txt = ", ".join(f"🎲{r['roll']} → **{r['face']}**" for r in rolled) or "no dice"
        c.say("enemy-roll", f"🐾 {u.name} engages " + " and ".join(t.name for t in targets)
              + f": {dice_txt} = {total} damage each.", unit=u.id, dice=rolled,
              targets=[t.id for t in targets], total=total)
        c.b.turn.engage_line = [[u.q, u.r], [targets[0].q, targets[0].r]]
        engage = EngageRecord(attacker=u.id, idle_dice=idle)
        for t in targets:
            cur.engaged.append(t.id)
            if not on_map(t) or total <= 0:
                continue
            if t.owner:  # a blind companion may strike a party member
                harm.damage_adventurer(c, t.owner, total, source=u, label=u.name)
            else:
                harm.damage_enemy(c, t.id, total, engage=engage, label=u.name)
            cur.damaged.append(t.id)
        for t in targets:
            if t.side == "enemy" and on_map(t):
                enemy_ai.enemy_skills_at(c, t, "after it is engaged", attacker=u, engage=engage)
    elif not moved or not c.has(u, "daze"):
        c.say("companion", f"{u.name} has nobody to engage.", unit=u.id)
    enemy_ai.finish_turn(c, cur)
