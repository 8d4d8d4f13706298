"""The cooldown track: placing dice (with the full-track rule), fatigue, status dice, recovery.

Track entries, left to right: ``{"die": id}`` (optionally ``"icon"``/``"value"``
for a die working from the track), ``{"fatigue": "light" | "over"}`` or
``{"status": name}``.
"""
from __future__ import annotations

from typing import Iterable

from rulesets.tes.state import Adventurer


def die_label(pack, adv: Adventurer, die_id: str) -> str:
    d = adv.dice.get(die_id)
    if not d:
        return die_id
    try:
        return pack.die(d["type"]).name
    except KeyError:
        return d["type"]


def _drop(adv: Adventurer, entry: dict) -> str:
    """A die that finds no room: a skill die is drained, fatigue and status dice go back to the supply."""
    if "die" in entry:
        if entry["die"] not in adv.drained:
            adv.drained.append(entry["die"])
        return "drained"
    return "returned to the supply"


def place(adv: Adventurer, entry: dict, size: int, notes: list[str] | None = None) -> None:
    """Put one die in the leftmost open position; apply the full-track rule when there is none."""
    entry = dict(entry)
    if "die" in entry and entry["die"] in adv.away:
        adv.away.remove(entry["die"])
    if len(adv.cooldown) < size:
        adv.cooldown.append(entry)
        return
    fate = _drop(adv, entry)
    if notes is not None:
        notes.append(f"{adv.name}'s cooldown track is full: the new die is {fate}")
    for i in range(len(adv.cooldown) - 1, -1, -1):
        old = adv.cooldown[i]
        if old.get("fatigue") != "over":
            adv.cooldown[i] = {"fatigue": "over"}
            fate = _drop(adv, old)
            if notes is not None:
                notes.append(f"the rightmost die that was not overfatigue becomes overfatigue (the old die is {fate})")
            return


def exhaust(adv: Adventurer, die_id: str, size: int, notes: list[str] | None = None, **face) -> None:
    """An exhausted skill die goes to the track (``face`` keeps a cooldown-working result)."""
    place(adv, {"die": die_id, **face}, size, notes)


# Component limits (rulebook: Component Limits).  The supply counts come from the pack
# (``pack.supply``: 20 light fatigue and 12 overfatigue dice in the rulebook's component list);
# these are used when no supply is given.  The dice are shared by the whole party.
LIGHT_FATIGUE_DICE = 20
OVERFATIGUE_DICE = 12


def fatigue_in_use(party: Iterable[Adventurer], kind: str) -> int:
    return sum(1 for a in party for e in list(a.cooldown) + list(a.active) if e.get("fatigue") == kind)


def gain_fatigue(adv: Adventurer, kind: str, n: int, size: int, notes: list[str] | None = None,
                 party: Iterable[Adventurer] | None = None, supply=None) -> None:
    """Gain ``n`` fatigue dice.  With ``party`` the supply is counted: when no light fatigue die is
    left an overfatigue die is placed instead, and when none of those is left either, nothing.
    ``supply`` (the pack's) gives the counts."""
    members = list(party) if party is not None else None
    light_max = getattr(supply, "light_fatigue", LIGHT_FATIGUE_DICE)
    over_max = getattr(supply, "overfatigue", OVERFATIGUE_DICE)
    for _ in range(max(0, int(n))):
        k = kind
        if members is not None:
            if k == "light" and fatigue_in_use(members, "light") >= light_max:
                k = "over"
                if notes is not None:
                    notes.append("no light fatigue dice are left in the supply, so overfatigue is gained instead")
            if k == "over" and fatigue_in_use(members, "over") >= over_max:
                if notes is not None:
                    notes.append("no fatigue dice of either kind are left in the supply, so none is placed")
                continue
        place(adv, {"fatigue": k}, size, notes)


def gain_status(adv: Adventurer, status: str, size: int, notes: list[str] | None = None) -> None:
    """A status already in the track moves to the leftmost open position instead of doubling."""
    for i, e in enumerate(adv.cooldown):
        if e.get("status") == status:
            adv.cooldown.pop(i)
            adv.cooldown.append({"status": status})
            return
    place(adv, {"status": status}, size, notes)


def remove_status(adv: Adventurer, status: str) -> bool:
    for i, e in enumerate(adv.cooldown):
        if e.get("status") == status:
            adv.cooldown.pop(i)
            return True
    return False


def count(adv: Adventurer, **match) -> int:
    return sum(1 for e in adv.cooldown if all(e.get(k) == v for k, v in match.items()))


def recovery(adv: Adventurer, pack) -> list[str]:
    """The Recovery step: the leftmost dice, as many as the Cooldown stat; returns what happened."""
    n = max(0, adv.cooldown_stat)
    head, rest = adv.cooldown[:n], adv.cooldown[n:]
    back_over = [e for e in head if e.get("fatigue") == "over"]
    adv.cooldown = rest + back_over
    out = []
    for e in head:
        if "die" in e:
            out.append(f"{die_label(pack, adv, e['die'])} back to its row")
        elif e.get("fatigue") == "light":
            out.append("light fatigue discarded")
        elif e.get("fatigue") == "over":
            out.append("overfatigue moved to the back of the track")
        elif "status" in e:
            out.append(f"{e['status']} discarded")
    return out


def _fits(e: dict, what: str) -> bool:
    """Whether a cooldown-track entry is of the kind an effect's "recover" names."""
    if what == "skill":
        return "die" in e
    if what == "fatigue":
        return "fatigue" in e
    if what == "light-fatigue":
        return e.get("fatigue") == "light"
    if what == "overfatigue":
        return e.get("fatigue") == "over"
    if what == "status":
        return "status" in e
    return what == "any"


def recoverable(adv: Adventurer, what: str) -> int:
    """How many entries of one kind the track holds (what a "recover" could take; drained dice for "drained")."""
    if what == "drained":
        return len(adv.drained)
    return sum(1 for e in adv.cooldown if _fits(e, what))


def recover(adv: Adventurer, what: str, n: int) -> list[dict]:
    """Take up to ``n`` entries of one kind off the track, leftmost first (an effect's "recover")."""
    taken = []
    for e in list(adv.cooldown):
        if len(taken) >= n:
            break
        if _fits(e, what):
            adv.cooldown.remove(e)
            taken.append(e)
    return taken
