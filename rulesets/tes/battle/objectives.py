"""Battle objectives, the end-of-round check, and the Jailbreak class rewards."""
from __future__ import annotations

from rulesets.tes.battle.model import Ctx, on_map
from rulesets.tes.battle_state import Unit
from engine.core import Dice
from rulesets.tes.state import encounter_rules


def adventurers(c: Ctx) -> list[Unit]:
    return [u for u in c.b.units.values() if u.side == "adventurer"]


def party_defeated(c: Ctx) -> bool:
    advs = adventurers(c)
    return bool(advs) and all(u.defeated for u in advs)


def objective_met(c: Ctx) -> bool:
    b = c.b
    kind = b.objective
    enemies = [u for u in b.units.values() if u.side == "enemy"]
    all_down = all(not on_map(u) for u in enemies)
    if kind == "conquer":
        return all_down
    if kind == "eliminate":
        wanted = set(b.objective_units or [])
        return all(not on_map(u) for u in enemies if u.enemy in wanted)
    if kind == "escape-or-eliminate-all":
        standing = [u for u in adventurers(c) if not u.defeated]
        return all_down or (bool(standing) and all(u.escaped for u in standing))
    if kind == "survive":
        return b.round >= int(b.objective_rounds or 5)
    if kind in ("survey", "uncover"):  # a delve (p.86): every required skyshard gained; Uncover: then retreat
        d = b.delve
        full = d is not None and d.gained >= d.required
        return full and (kind == "survey" or b.retreat)
    return all_down


def end_check(c: Ctx) -> str | None:
    """At the end of a round: "victory", "defeat", "retreat" or None (the battle goes on)."""
    if party_defeated(c):
        return "defeat"
    if objective_met(c):
        return "victory"
    if c.b.retreat:
        return "retreat"
    return None


def class_rewards(c: Ctx, outcome: str, dice: Dice) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each adventurer's class choices from their achievements (Jailbreak).

    Classes needing an expansion are left out.  Anyone with fewer than two
    choices gets random classes added (not already chosen by someone else's
    rewards list first) until they have two; after a full party defeat
    everyone gets two random classes.  Returns (the choices, the classes earned by achievements).
    Adventurers who already have a class get none, from the encounter rules on (rules revision 0 before its last
    build offered every adventurer classes, so its logs hold those draws: ``encounter_rules``).
    """
    enc = c.pack.encounters[c.b.encounter]
    pool = sorted(k for k, v in c.pack.classes.items() if not v.expansion_only)
    taken = {a.class_id for a in c.state.adventurers.values() if a.class_id}
    pool = [k for k in pool if k not in taken]
    out: dict[str, list[str]] = {}
    only_unclassed = encounter_rules(c.state)
    for owner in c.b.order:
        if only_unclassed and c.state.adventurers[owner].class_id:  # the rewards are for adventurers without a class
            continue
        got: list[str] = []
        if outcome != "defeat":
            # achievements in a fixed order (by id), never the mapping's: a replay must give the same rewards
            for ach, who in sorted(c.b.achievements.items()):
                if who != owner:
                    continue
                for r in enc.class_rewards.get(ach, ()):
                    if r.class_id and r.class_id in pool and r.class_id not in got:
                        got.append(r.class_id)
        out[owner] = got
    earned = {k: list(v) for k, v in out.items()}
    for owner in out:
        got = out[owner]
        others = [k for k in pool if k not in got]
        while len(got) < 2 and others:
            got.append(others.pop(dice.choice_index(len(others))))
    return out, earned


def gained(c: Ctx) -> dict[str, dict]:
    """The tenacity and items each adventurer gained in this battle (against what they brought)."""
    out: dict[str, dict] = {}
    for owner in c.b.order:
        adv = c.state.adventurers[owner]
        had = c.b.brought.get(owner) or {}
        items = list(had.get("items") or [])
        new = []
        for i in list(adv.ready) + list(adv.pack):
            if i in items:
                items.remove(i)
            else:
                new.append(i)
        out[owner] = {"tenacity": max(0, adv.tenacity - int(had.get("tenacity") or 0)), "items": new}
    return out
