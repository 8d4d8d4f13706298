"""Enemy skills the battle reads at their moment, as effect primitives (docs/content-format.md).

* ``dodge`` is read when the enemy is dealt damage (:func:`dodge`, from harm.damage_enemy);
* ``survive`` when it is defeated (:func:`survive`, from harm.defeat_enemy);
* ``combat-dice`` when it rolls (:func:`extra_dice`, from enemy.roll_combat);
* ``raise-dead`` and ``health`` run at their skill's or trigger's timing like any effect.

Packs written before these primitives existed (the kept starter pack versions) have
Dodge, Reassemble and Pack Hunter as text only (manual, no effects).  For them the
skill id still decides, exactly as the bot always played them: :func:`legacy` and
:data:`LEGACY` (Mend Allies: rulesets.tes.battle.enemy.enemy_skills_at).  A skill with
effects is read by its effects alone; fear stops it like every other enemy skill.
"""
from __future__ import annotations

from typing import Any

from engine.effects import Field, Primitive, amount, boolean, one_of
from engine.hexes import Hex, reachable
from rulesets.tes.battle.effects import REGISTRY, WHO_WORDS, Passive, Use, amount_of, amount_words, applies, units_for
from rulesets.tes.battle.model import Ctx, on_map, pos, stats_of, turn_key
from rulesets.tes.battle_state import EngageRecord, Unit
from rulesets.tes.content.schema import ENEMY_LEVELS, TARGETS

register = REGISTRY.register

#: Skills an old pack wrote as text only, which the bot applied by their id: id -> the effect it meant.
LEGACY: dict[str, dict[str, Any]] = {
    "dodge": {"type": "dodge", "amount": 1},
    "reassemble": {"type": "survive", "hp": 1, "roll": True},
    "pack-hunter": {"type": "combat-dice", "amount": 1, "if": "ally-next-to-target"},
    "mend-allies": {"type": "heal", "amount": "value", "target": "other-allies-in-range"},  # in enemy_skills_at
}


def legacy(skill) -> bool:
    """A skill of an old pack that the bot applies by its id (text only, no effects)."""
    return skill.id in LEGACY and not skill.effects


def skill_with(c: Ctx, u: Unit, kind: str):
    """The unit's first skill with an effect of this type: (skill, effect, is_legacy), or None."""
    for s in stats_of(c, u).skills:
        if legacy(s):
            if LEGACY[s.id]["type"] == kind:
                return s, LEGACY[s.id], True
            continue
        if s.manual:
            continue
        for eff in s.effects:
            if eff.get("type") == kind:
                return s, eff, False
    return None


def _afraid(c: Ctx, u: Unit, skill) -> bool:
    if c.has(u, "fear"):
        c.say("status", f"{u.name} is afraid: {skill.label} does nothing.", unit=u.id)
        return True
    return False


def _whole(least: int):
    def check(v: Any) -> str | None:
        ok = isinstance(v, int) and not isinstance(v, bool) and v >= least
        return None if ok else f"must be a whole number of at least {least}"

    return check


def _level(v: Any) -> str | None:
    ok = isinstance(v, int) and not isinstance(v, bool) and v in ENEMY_LEVELS
    return None if ok else "must be one of " + ", ".join(map(str, ENEMY_LEVELS))


# ------------------------------------------------------------------ dodge --
@register
class Dodge(Passive):
    type = "dodge"
    summary = ("prevent that much of the damage for each die of the engage's roll that dealt none "
               "(once per engage; read when the unit is dealt damage)")
    fields = {"amount": Field(amount, default=1)}

    read_by = "the unit dealt damage (harm.damage_enemy)"

    def describe(self, eff: dict) -> str:
        per = eff.get("amount", 1)
        return f"reduce the damage of an engage by {per} for each die of its roll that dealt no damage"


def dodge(c: Ctx, u: Unit, left: int, engage: EngageRecord) -> tuple[int, str]:
    """What the unit's dodge prevents of ``left`` damage in this engage: (prevented, note)."""
    found = skill_with(c, u, "dodge")
    if found is None or engage.dodged.get(u.id):
        return 0, ""
    s, eff, old = found
    engage.dodged[u.id] = True
    if not old and _afraid(c, u, s):
        return 0, ""
    per = int(eff.get("amount", 1)) if old else amount_of(Use(c, u, s.label, value=s.value or 0), eff)
    n = min(left, int(engage.idle_dice) * per)
    return n, (f"{s.label} prevents {n}" if n else "")


# --------------------------------------------------------------- survive --
@register
class Survive(Passive):
    type = "survive"
    summary = ("the first time the unit is defeated in a battle it stays on the map with hp HP instead "
               "(roll = true: only if an enemy Combat die rolled for it shows damage; read at defeat)")
    fields = {"hp": Field(_whole(1), default=1), "roll": Field(boolean, default=False)}

    read_by = "the unit defeated (harm.defeat_enemy)"

    def describe(self, eff: dict) -> str:
        roll = "roll an enemy Combat die: on any damage result " if eff.get("roll") else ""
        return f"the first time it is defeated in a battle, {roll}it stays on the map with {eff.get('hp', 1)} HP instead"


def survive(c: Ctx, u: Unit) -> bool:
    """Whether the unit's skill keeps it on the map as it would be defeated (only the first time)."""
    found = skill_with(c, u, "survive")
    if found is None or u.reassembled:
        return False
    s, eff, old = found
    u.reassembled = True
    if not old and _afraid(c, u, s):
        return False
    hp = int(eff.get("hp", 1))
    if eff.get("roll"):
        roll = c.dice.roll(6)
        face = c.pack.enemy_combat_die[roll - 1]
        if not any(r.icon == "damage" for r in face.results):
            c.say("skill", f"{s.label}: {u.name} rolls {face} ({roll}) and stays down.", unit=u.id, roll=roll)
            return False
        u.hp = hp
        c.say("skill", f"{s.label}: {u.name} rolls {face} ({roll}) and pulls itself together with {hp} HP.",
              unit=u.id, roll=roll)
        return True
    u.hp = hp
    c.say("skill", f"{s.label}: {u.name} pulls itself together with {hp} HP.", unit=u.id)
    return True


# ----------------------------------------------------------- combat dice --
@register
class CombatDice(Passive):
    type = "combat-dice"
    summary = ("the unit rolls that many more enemy Combat dice when it engages (with a condition such as "
               "if = \"ally-next-to-target\": only then; read at the roll)")
    fields = {"amount": Field(amount, default=1)}

    read_by = "the unit rolling (enemy.roll_combat)"

    def describe(self, eff: dict) -> str:
        n = eff.get("amount", 1)
        dice = f"{n} enemy Combat {'die' if n == 1 else 'dice'}" if isinstance(n, int) else \
            "as many enemy Combat dice as the number"
        cond = " if another enemy is next to its target" if eff.get("if") == "ally-next-to-target" else ""
        return f"add {dice} to its roll{cond}"


def extra_dice(c: Ctx, u: Unit, first_target: Unit) -> int:
    """Enemy Combat dice the unit's skills add to this roll (its first target named)."""
    found = skill_with(c, u, "combat-dice")
    if found is None:
        return 0
    s, eff, old = found
    use = Use(c, u, s.label, value=s.value or 0, target=first_target.id)
    if c.has(u, "fear") if old else _afraid(c, u, s):  # (a pack written before these effects: Pack Hunter by its id)
        return 0
    if not applies(use, eff):
        return 0
    n = amount_of(use, eff)
    if n <= 0:
        return 0
    why = f"another enemy is next to {first_target['name']}, so " if eff.get("if") == "ally-next-to-target" else ""
    more = "1 more die" if n == 1 else f"{n} more dice"
    c.say("skill", f"{s.label}: {why}{u.name} rolls {more}.", unit=u.id)
    return n


# ------------------------------------------------------------- raise dead --
@register
class RaiseDead(Primitive):
    type = "raise-dead"
    summary = ("put the topmost enemy of that level from the defeated enemy stack back on the map with full HP, "
               "in the unoccupied hex closest to the unit")
    fields = {"level": Field(_level, default=1)}

    def apply(self, use: Use, eff: dict) -> int:
        return raise_dead(use.c, use.source, use.label, int(eff.get("level", 1)))

    def describe(self, eff: dict) -> str:
        return (f"put the topmost level {eff.get('level', 1)} enemy of the defeated enemy stack back on the map "
                "with full HP in the unoccupied hex closest to it")


def _stacked_unit(c: Ctx, enemy_id: str) -> Unit | None:
    """The defeated chip a stack entry stands for (of two with the same face, the one deployed later)."""
    b = c.b
    if b.objective == "eliminate" and enemy_id in (b.objective_units or []):
        return None  # an objective unit is set aside, not stacked (rulebook, Defeated Enemies)
    found = [u for u in b.units.values() if u.side == "enemy" and u.enemy == enemy_id and u.defeated
             and not u.quest and not u.escaped]
    return found[-1] if found else None


def closest_free_hex(c: Ctx, here: Hex, near: Hex | None) -> Hex | None:
    """The unoccupied hex closest to ``here`` by route; ties: closest to ``near``, then the first by (q, r)."""
    dist = reachable(here, 10_000, c.map.passable)
    taken = c.occupied()
    free = [h for h in dist if h != here and h not in taken]
    if not free:
        return None

    def key(h: Hex):
        tie = (c.range_to(near, h) if near is not None else None)
        return dist[h], 10_000 if tie is None else tie, h.q, h.r

    return min(free, key=key)


def raise_dead(c: Ctx, me: Unit, label: str, level: int) -> int:
    b = c.b
    here = pos(me) if isinstance(me, Unit) else None
    if b is None or here is None:
        return 0
    for i in range(len(b.defeated_stack) - 1, -1, -1):
        eid = b.defeated_stack[i]
        e = c.pack.enemies.get(eid)
        if e is None or e.level != level:
            continue
        dead = _stacked_unit(c, eid)
        if dead is not None:
            break
    else:
        c.say("skill", f"{label}: the defeated enemy stack holds no level {level} enemy, so nothing rises.",
              unit=me.id)
        return 0
    fell = Hex(*dead.fell_at) if dead.fell_at else None
    h = closest_free_hex(c, here, fell)
    if h is None:
        c.say("skill", f"{label}: no hex is free, so nothing rises.", unit=me.id)
        return 0
    del b.defeated_stack[i]
    dead.defeated = False
    dead.q, dead.r = h.q, h.r
    dead.hp = dead.max_hp
    dead.fell_at = None
    c.say("skill", f"💀 {label}: {me.name} raises the {dead.name} ({dead.short}) from the defeated enemy stack "
                   f"into hex {h} with full HP ({dead.hp}/{dead.max_hp}).", unit=dead.id, raised_by=me.id,
          hex=[h.q, h.r])
    _join_enemy_phase(c, me, dead)
    return 1


def _join_enemy_phase(c: Ctx, me: Unit, dead: Unit) -> None:
    """A raised enemy takes its turn this round if its place in the enemy turn order is still to come."""

    phase = c.b.enemy_phase
    if phase is None or dead.id in phase.queue:
        return
    cur = phase.current.uid if phase.current is not None else c.b.turn.unit
    if cur != me.id or turn_key(dead) <= turn_key(me):
        return
    at = next((n for n, uid in enumerate(phase.queue) if turn_key(c.unit(uid)) > turn_key(dead)), len(phase.queue))
    phase.queue.insert(at, dead.id)
    c.say("skill", f"The {dead.name} takes its turn later this round, in level order.", unit=dead.id)


# ---------------------------------------------------------------- health --
@register
class Health(Primitive):
    type = "health"
    summary = "raise an enemy's or companion's Health for this battle: its HP and its maximum go up by the amount"
    fields = {"amount": Field(amount, default=1), "target": Field(one_of(*TARGETS), default="self")}

    def apply(self, use: Use, eff: dict) -> int:
        n = amount_of(use, eff)
        done = 0
        for u in units_for(use, eff.get("target", "self")):
            if u.get("owner") or not on_map(u):
                use.c.say("manual", f"📝 {use.label}: {u['name']}'s Health goes up by {n} for this battle "
                                    "(apply this yourselves)", manual=True)
                continue
            u.max_hp = int(u.max_hp or 0) + n
            u.hp = int(u.hp or 0) + n
            done += 1
            use.c.say("health", f"{use.label}: {u.name} has {n} extra HP ({u.hp}/{u.max_hp} HP).", unit=u.id,
                      amount=n)
        return done

    def describe(self, eff: dict) -> str:
        who = eff.get("target", "self")
        whose = "its Health" if who == "self" else f"the Health of {WHO_WORDS.get(who, who)}"
        return f"raise {whose} by {amount_words(eff)} for this battle, and its HP with it"


__all__ = ["LEGACY", "legacy", "skill_with", "dodge", "survive", "extra_dice", "raise_dead", "closest_free_hex"]
