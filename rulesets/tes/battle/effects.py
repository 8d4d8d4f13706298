"""The one registry of effect functions, keyed by effect type (docs/content-format.md).

Every skill icon, item, race, class and enemy skill effect goes through
``run_effects``.  An effect marked manual, or of a type with no function here,
is shown and logged for the party to apply themselves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulesets.tes.battle import harm, track
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle.model import Ctx, on_map, pos
from kernel.hexes import distance


@dataclass
class Use:
    """Who uses an effect, on whom, and with what number."""

    c: Ctx
    source: dict  # the acting unit
    label: str  # what is resolving ("Shield Discipline: damage", "Enfeeble 1", ...)
    value: int = 0  # the ability's total value (the "value" amount)
    target: str | None = None  # the engage's target unit id
    engage: dict | None = None  # the engage record (damage dealt, pierce, dodge)
    form: str | None = None
    ally: str | None = None  # unit id chosen for "ally" effects (default: yourself)
    engaged: list[str] = field(default_factory=list)  # units an enemy engaged
    damaged: list[str] = field(default_factory=list)  # units an enemy dealt damage to
    previous: int = 0
    free_move: int = 0
    status_die: tuple[str, str] | None = None  # (owner, die id) of an S-code die being resolved
    status_die_placed: bool = False


def amount_of(use: Use, eff: dict) -> int:
    a = eff.get("amount", "value")
    if a == "value":
        return int(use.value or 0)
    if a == "previous":
        return int(use.previous or 0)
    return int(a)


def units_for(use: Use, who: str) -> list[dict]:
    c, me = use.c, use.source
    here = pos(me)
    if who == "self":
        return [me]
    if who == "target":
        if use.engaged:
            return [c.unit(u) for u in use.engaged if on_map(c.unit(u))]
        return [c.unit(use.target)] if use.target and on_map(c.unit(use.target)) else []
    if who == "attacker":
        return [c.unit(use.target)] if use.target and on_map(c.unit(use.target)) else []
    if who == "ally":
        return [c.unit(use.ally)] if use.ally and on_map(c.unit(use.ally)) else [me]
    if who == "near-target":
        if not use.target or not on_map(c.unit(use.target)):
            return []
        t = c.unit(use.target)
        return [t] + [u for u in c.units() if u["id"] != t["id"] and c.opposing(me, u)
                      and distance(pos(u), pos(t)) == 1]
    if who == "adjacent-enemies":
        return [u for u in c.units() if here and c.opposing(me, u) and distance(pos(u), here) == 1
                and u["id"] not in use.engaged]
    if who in ("allies-in-range", "all-in-range"):
        return [u for u in c.units() if here and (who == "all-in-range" or not c.opposing(me, u))
                and distance(pos(u), here) <= 2]
    return []


# ---------------------------------------------------------------- effects --
def _damage(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    total = 0
    by = use.source.get("owner")
    for u in units_for(use, eff.get("target", "target")):
        if not u.get("owner"):  # an enemy or a companion
            total += harm.damage_enemy(use.c, u["id"], n, true=bool(eff.get("true")), engage=use.engage, by=by,
                                       label=use.label)
        else:
            total += harm.damage_adventurer(use.c, u["owner"], n, true=bool(eff.get("true")), source=use.source,
                                            label=use.label)
    return total


def _heal(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    got = 0
    for u in units_for(use, eff.get("target", "self")):
        h = harm.heal(use.c, u, n)
        got += h
        use.c.say("heal", f"{use.label}: {u['name']} heals {h} HP.", unit=u["id"], amount=h)
    return got


def _bonus_hp(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    for u in units_for(use, eff.get("target", "self")):
        adv = use.c.adv_of(u)
        if adv is not None:
            adv.bonus_hp += n
            use.c.say("bonus-hp", f"{use.label}: {adv.name} gains {n} bonus HP.", unit=u["id"], amount=n)
    return n


def _tenacity(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    cap = use.c.pack.mat.tenacity_max
    for u in units_for(use, eff.get("target", "self")):
        adv = use.c.adv_of(u)
        if adv is not None:
            before = adv.tenacity
            adv.tenacity = min(cap, adv.tenacity + n)
            use.c.say("tenacity", f"{use.label}: {adv.name} gains {adv.tenacity - before} tenacity "
                                  f"({adv.tenacity}/{cap}).", unit=u["id"])
    return n


def give_status(c: Ctx, u: dict, status: str, label: str) -> bool:
    return status_rules.give(c, u, status, label)


def _status(use: Use, eff: dict) -> int:
    n = 0
    for u in units_for(use, eff.get("target", "target")):
        if eff.get("remove"):
            if status_rules.remove(use.c, u, eff["status"], use.label):
                n += 1
            continue
        die = None
        if use.status_die and not use.status_die_placed:
            die = use.status_die  # a status-code (S) skill die becomes the status die itself
        if status_rules.give(use.c, u, eff["status"], use.label, die=die):
            n += 1
            if die is not None:
                use.status_die_placed = True
    return n


def _fatigue(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    for u in units_for(use, eff.get("target", "self")):
        adv = use.c.adv_of(u)
        if adv is None or u.get("defeated") or n <= 0:
            continue
        track.gain_fatigue(adv, eff.get("kind", "light"), n, use.c.track_size, party=use.c.state.adventurers.values())
        kind = "overfatigue" if eff.get("kind") == "over" else "light fatigue"
        use.c.say("fatigue", f"{use.label}: {adv.name} gains {n} {kind}.", unit=u["id"], amount=n)
    return n


def _recover(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    got = 0
    for u in units_for(use, eff.get("target", "self")):
        adv = use.c.adv_of(u)
        if adv is None:
            continue
        if eff["what"] == "drained":
            back, adv.drained = adv.drained[:n], adv.drained[n:]
            taken = [{"die": d} for d in back]
        else:
            taken = track.recover(adv, eff["what"], n)
        got += len(taken)
        if taken:
            use.c.say("recover", f"{use.label}: {adv.name} recovers {len(taken)} "
                                 f"{eff['what'].replace('-', ' ')} dice.", unit=u["id"], amount=len(taken))
    return got


def _move(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    turn = use.c.b.get("turn") or {}
    if use.source.get("side") == "adventurer" and turn.get("unit") == use.source["id"]:
        turn["free_move"] = turn.get("free_move", 0) + n
        use.c.say("move", f"{use.label}: {use.source['name']} may move {n} more hex(es) for free "
                          f"(`/move ... free:yes`).", unit=use.source["id"], amount=n)
    return n


def _pierce(use: Use, eff: dict) -> int:
    n = amount_of(use, eff)
    if use.engage is not None:
        use.engage["pierce"] = use.engage.get("pierce", 0) + n
    return n


def _companion(use: Use, eff: dict) -> int:
    """A companion joins: controlled by the adventurer whose effect it is (else the party leader)."""
    from rulesets.tes.battle.companion import join

    join(use.c, eff["companion"], use.source.get("owner"), keep=bool(eff.get("keep")), source=use.label)
    return 1


def _reroll(use: Use, eff: dict) -> int:
    """Rerolls for the roll waiting to be resolved (step 5a: before any result is resolved)."""
    p = use.c.b.get("pending") if use.c.state.battle else None
    if not p or p.get("owner") != use.source.get("owner"):
        use.c.say("reroll", f"{use.label}: there is no roll of yours waiting to be resolved, so no reroll.",
                  unit=use.source.get("id"))
        return 0
    n = amount_of(use, eff)
    p.setdefault("rerolls", []).append({"source": use.label, "left": n,
                                        "blank_only": bool(eff.get("blank_only"))})
    use.c.say("reroll", f"🎲 {use.label}: you may reroll up to {n} of these dice with `/reroll dice:` "
                        "before resolving.", unit=use.source.get("id"))
    return n


def _nothing(use: Use, eff: dict) -> int:
    """Effects handled where dice are placed (prevent) or before the roll (add-dice)."""
    return 0


REGISTRY: dict[str, Callable[[Use, dict], int]] = {
    "damage": _damage,
    "heal": _heal,
    "bonus-hp": _bonus_hp,
    "tenacity": _tenacity,
    "status": _status,
    "fatigue": _fatigue,
    "recover": _recover,
    "move": _move,
    "pierce": _pierce,
    "prevent": _nothing,
    "add-dice": _nothing,
    "companion": _companion,
    "reroll": _reroll,
}


def run_effects(use: Use, effects: tuple[dict, ...] | list[dict], *, manual: bool = False, text: str = "") -> None:
    """Apply effects in order; anything without a function is logged for the party."""
    if manual or not effects:
        if text:
            use.c.say("manual", f"📝 {use.label}: {text} (apply this yourselves)", manual=True)
        return
    for eff in effects:
        forms = eff.get("forms")
        if forms and use.form not in forms:
            continue
        fn = REGISTRY.get(eff.get("type", ""))
        if fn is None or eff.get("type") == "manual":
            note = eff.get("text") or text or eff.get("type")
            use.c.say("manual", f"📝 {use.label}: {note} (apply this yourselves)", manual=True)
            continue
        use.previous = fn(use, eff)


def describe(pack: Any, eff: dict) -> str:
    return eff.get("type", "?")
