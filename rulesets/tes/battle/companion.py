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
enemies (rulesets.tes.battle.enemy plays them).  The engine plays them for their controller by a fixed plan (the
rules let the controller choose; these are the choices it makes):

* Move up to 2 hexes, only if it has no target where it stands: to the closest
  hex from which it has one, else toward the closest enemy (like enemy movement).
* Engage the targets in range, weakest (lowest HP) first, as many as its target
  count; roll its enemy Combat dice once and deal the total to each.
* Its skills trigger at their timings; statuses work as on enemies.
"""
from __future__ import annotations

from typing import Any

from rulesets.tes.battle.model import Ctx, short_label
from rulesets.tes.battle_state import CompanionEntry, Unit
from engine.core import RuleError
from rulesets.tes.battle.effects import Use, run_effects


def controller_name(c: Ctx, controller: str | None) -> str:
    adv = c.state.adventurers.get(controller or "")
    return adv.name if adv else "the party"


def join(c: Ctx, companion_id: str, controller: str | None, *, keep: bool = False, source: str = "",
         at: Any = None) -> Unit:
    """A companion joins the battle (and, with ``keep``, the party); deployed right away if it can be: in the
    hex ``at`` when one is given (a summoning places it beside its summoner), else on a free entrance hex."""
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
    if at is not None:
        u.q, u.r = at.q, at.r
        where: str | None = str(at)
    else:
        where = deploy(c, u)
    c.say("companion", f"🐾 {comp.name} joins the party" + (f" ({source})" if source else "")
          + (f", controlled by the party ({controller_name(c, ctrl)}, the leader, decides for it)" if u.party
             else f", controlled by {controller_name(c, ctrl)}")
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


