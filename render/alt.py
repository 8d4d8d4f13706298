"""Every picture in words: its alt text (Discord shows it as the attachment's description, and reads it aloud).

``describe(kind, view)`` says what the picture of ``kind`` drawn from ``view`` shows: whose turn it is, who stands
where, their HP (or wounds, Grit), and what just happened, from the same view model the picture is drawn from.
At most ``MAX_ALT`` characters (Discord's limit for a description).
"""
from __future__ import annotations

from typing import Any, Callable

from engine.text import count

MAX_ALT = 1024


def _clip(text: str, limit: int = MAX_ALT) -> str:
    text = " ".join(str(text).replace("`", "").replace("**", "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _at(item: dict[str, Any]) -> str:
    q, r = item.get("q"), item.get("r")
    return f" at {q},{r}" if q is not None and r is not None else ""


def _happened(view: dict[str, Any], key: str = "log") -> str:
    lines = [str(x) for x in (view.get(key) or []) if isinstance(x, str) and x.strip()]
    return ("Just happened: " + " ".join(line if line.rstrip()[-1:] in ".!?" else line + "." for line in lines[-3:])
            if lines else "")


def _join(parts: list[str]) -> str:
    return _clip(" ".join(p.strip() for p in parts if p and p.strip()))


def battle_map(view: dict[str, Any]) -> str:
    """A battle map (a clash, a delve, a dungeon) or the battle's end."""
    head = f"Battle map: {view.get('title') or 'the battle'}"
    if view.get("round") and "round" not in head:
        head += f", round {view['round']}" + (" (fatigue round)" if view.get("fatigue_round") else "")
    parts = [head + "."]
    if view.get("result"):
        parts.append(f"Result: {view['result']}.")
    units = [u for u in view.get("units") or [] if isinstance(u, dict)]
    acting = [u for u in units if u.get("acting")]
    if acting:
        parts.append("Acting now: " + ", ".join(str(u.get("label")) for u in acting) + ".")
    heroes, others = [], []
    for u in units:
        hp = f" {u.get('hp')}/{u.get('max_hp')} HP" if u.get("hp") is not None else ""
        bonus = f" +{u['bonus_hp']}" if u.get("bonus_hp") else ""
        state = " defeated" if u.get("defeated") else ""
        statuses = f" ({', '.join(map(str, u['statuses']))})" if u.get("statuses") else ""
        words = f"{u.get('label')}{_at(u)}{hp}{bonus}{statuses}{state}"
        (heroes if u.get("side") == "adventurer" else others).append(words)
    if heroes:
        parts.append("Adventurers: " + "; ".join(heroes) + ".")
    if others:
        parts.append("Others: " + "; ".join(others) + ".")
    parts.append(_happened(view))
    return _join(parts)


def mat(view: dict[str, Any]) -> str:
    race = (view.get("race") or {}).get("name", "")
    klass = (view.get("class") or {}).get("name", "no class yet")
    bits = [f"{view.get('name')}'s mat" + (f" ({view['player']})" if view.get("player") else "")
            + f": {race} {klass}.",
            f"HP {view.get('hp')}/{view.get('max_hp')}" + (f" +{view['bonus_hp']} bonus" if view.get("bonus_hp") else "")
            + f", tenacity {view.get('tenacity')}, saved XP {view.get('saved_xp')}.",
            "Stats: " + ", ".join(f"{k} {v}" for k, v in (view.get("stats") or {}).items()) + "."]
    cooldown = (view.get("cooldown") or {}).get("dice") or []
    if cooldown:
        bits.append(f"{len(cooldown)} on the cooldown track.")
    if view.get("active"):
        bits.append("Active: " + ", ".join(str(a.get("label")) for a in view["active"]) + ".")
    if view.get("ready"):
        bits.append("Ready items: " + ", ".join(str(i.get("name")) for i in view["ready"]) + ".")
    if view.get("battle_status"):
        bits.append(f"Now {view['battle_status']}.")
    return _join(bits)


def sheet(view: dict[str, Any]) -> str:
    race = view.get("race") or {}
    klass = view.get("class") or {}
    bits = [f"{view.get('name')}'s sheet: {race.get('name', '')} race ability {race.get('ability_name', '')}"
            + (" (used)" if race.get("used") else "") + "."]
    if klass:
        bits.append(f"Class {klass.get('name')} ({klass.get('side')} side): "
                    + ", ".join(str(a.get("name")) for a in klass.get("abilities") or []) + ".")
    items = [str(i.get("name")) for i in (view.get("ready") or []) + (view.get("pack") or [])]
    if items:
        bits.append("Items: " + ", ".join(items) + ".")
    return _join(bits)


def roll(view: dict[str, Any]) -> str:
    dice = []
    for d in view.get("dice") or []:
        faces = ", ".join(f"{r.get('value')} {r.get('icon')}".strip() if r.get("value") not in (None, "")
                          else str(r.get("icon")) for r in d.get("results") or [])
        dice.append(f"{d.get('label')}: {faces or 'blank'}" + (" (resolved)" if d.get("resolved") else ""))
    return _join([f"Dice roll: {view.get('title') or ''}.", "; ".join(dice) + "." if dice else ""])


def lockpick(view: dict[str, Any]) -> str:
    return _join([f"Lockpick check: {view.get('title') or ''}.",
                  f"Attempt {view.get('attempt')} of {view.get('attempts')};",
                  f"the dice show {', '.join(map(str, view.get('dice') or []))};",
                  f"{len(view.get('matched') or {})} of {len(view.get('code') or [])} code digits matched."])


def skirmish(view: dict[str, Any]) -> str:
    if view.get("mode") == "initiative":
        rows = [f"{r.get('warband')} ({r.get('player')}) rolled {', '.join(map(str, r.get('roll') or []))}"
                for r in view.get("rows") or []]
        return _join([f"{view.get('title')}.", "; ".join(rows) + ".", f"{view.get('first')} goes first."])
    parts = [f"Skirmish map: {view.get('title')}."]
    turn = [b for b in view.get("warbands") or [] if b.get("turn")]
    if turn:
        parts.append(f"{turn[0].get('player')}'s turn ({turn[0].get('name')}).")
    active = [f for f in view.get("fighters") or [] if f.get("active")]
    if active:
        parts.append(f"Activating: {active[0].get('name')}.")
    sides = {b.get("side"): b.get("name") for b in view.get("warbands") or []}
    by_side: dict[Any, list[str]] = {}
    for f in view.get("fighters") or []:
        where = " out of action" if f.get("out") else (_at(f) or " not deployed")
        left = (f.get("wounds") or 0) - (f.get("damage") or 0)
        by_side.setdefault(f.get("side"), []).append(f"{f.get('name')}{where}, wounds left: {left} of "
                                                     f"{f.get('wounds')}")
    for side, fighters in by_side.items():
        parts.append(f"{sides.get(side, 'Warband')}: " + "; ".join(fighters) + ".")
    if view.get("result"):
        res = view["result"]
        parts.append(f"Winner: {res.get('winner') or 'none'} ({res.get('reason')}).")
    parts.append(_happened(view))
    return _join(parts)


def engage(view: dict[str, Any]) -> str:
    parts = [f"Battlefield: {view.get('title')}."]
    turn = [s for s in view.get("sides") or [] if s.get("turn")]
    if turn:
        parts.append(f"{turn[0].get('player')}'s turn (side {str(turn[0].get('letter', '')).upper()}).")
    players = {s.get("letter"): s.get("player") for s in view.get("sides") or []}
    by_side: dict[Any, list[str]] = {}
    for u in view.get("units") or []:
        where = " out of the fight" if u.get("out") else _at(u)
        states = f" ({', '.join(map(str, u['states']))})" if u.get("states") else ""
        by_side.setdefault(u.get("side"), []).append(
            f"{u.get('id')} {u.get('name')}{where}, wounds left: {u.get('left')} of {u.get('wounds')}{states}")
    for side, units in by_side.items():
        parts.append(f"Side {str(side).upper()} ({players.get(side, '')}): " + "; ".join(units) + ".")
    parts.append(_happened(view, "lines"))
    return _join(parts)


def duel(view: dict[str, Any]) -> str:
    parts = [f"Duel: {view.get('title')}", f"round {view.get('round')}, {view.get('step')}." if view.get("round")
             else "."]
    if view.get("caption"):
        parts.append(f"{view['caption']}.")
    fighters = []
    for f in view.get("fighters") or []:
        bits = [f"Grit {f.get('grit')}/{f.get('max')}", f"Fame {f.get('fame')}"]
        if f.get("token"):
            bits.append("holds the Priority token")
        for a in f.get("ailments") or []:
            bits.append(f"{a.get('name')} {a.get('amount')}" if isinstance(a, dict) else str(a))
        fighters.append(f"{f.get('name')}" + (f" ({f['player']})" if f.get("player") else "") + ": " + ", ".join(bits))
    if fighters:
        parts.append("; ".join(fighters) + ".")
    track = [f"{t.get('priority')} {t.get('who')} {t.get('label')}" for t in view.get("track") or []]
    if track:
        parts.append("Priority track: " + ", ".join(track) + ".")
    r = view.get("roll") or {}
    if r.get("head"):
        dice = ", ".join(str(d.get("value")) for d in r.get("dice") or [] if isinstance(d, dict))
        parts.append(f"Last roll: {r['head']}" + (f": {dice}" if dice else "") + (f", {r['result']}" if r.get("result")
                                                                                 else "") + ".")
    return _join(parts)


def overland(view: dict[str, Any]) -> str:
    party = view.get("party") or {}
    parts = [f"Overland map: {view.get('title')}, day {view.get('day')} of {view.get('day_limit')}.",
             f"{view.get('status')}." if view.get("status") else "",
             f"The party{_at(party)}." if party else ""]
    if view.get("proposal"):
        parts.append(f"Proposed route: {count(len(view['proposal']), 'hex')}.")
    tokens = [f"{t.get('name')}{_at(t)}" for t in view.get("tokens") or []]
    if tokens:
        parts.append("Tokens: " + ", ".join(tokens) + ".")
    gauge = view.get("gauge") or {}
    if gauge.get("name"):
        parts.append(f"{gauge['name']}: {gauge.get('at')}.")
    parts.append(_happened(view))
    return _join(parts)


def placements(view: dict[str, Any]) -> str:
    options = view.get("options") or []
    default = next((o.get("n") for o in options if o.get("default")), None)
    return _join([f"{view.get('title')}", f"{len(options)} numbered places for the revealed tile"
                  + (f"; place {default} is the default." if default else ".")])


def journal(view: dict[str, Any]) -> str:
    party = ", ".join(f"{p.get('adventurer')} ({p.get('player')})" for p in view.get("party") or [])
    sessions = [f"session {s.get('number')} in {s.get('province')}: {s.get('quest')}, {s.get('result') or 'under way'}"
                for s in view.get("sessions") or []]
    return _join([f"Campaign journal of {view.get('campaign')} ({view.get('difficulty')}).",
                  f"Party: {party}." if party else "", f"Guild: {view.get('guild')}." if view.get("guild") else "",
                  "; ".join(sessions) + "." if sessions else "",
                  "Keywords: " + ", ".join(view.get("keywords") or []) + "." if view.get("keywords") else ""])


DESCRIBE: dict[str, Callable[[dict[str, Any]], str]] = {
    "mat": mat, "sheet": sheet, "map": battle_map, "result": battle_map, "delvemap": battle_map, "roll": roll,
    "lockpick": lockpick, "skirmish": skirmish, "engage": engage, "duel": duel, "overland": overland,
    "placements": placements, "journal": journal,
}


def describe(kind: str, view: dict[str, Any]) -> str:
    """The picture in words (never empty, at most ``MAX_ALT`` characters); a view it can't read gets its title."""
    fn = DESCRIBE.get(kind)
    try:
        text = fn(view) if fn is not None else ""
    except (AttributeError, TypeError, KeyError, ValueError):
        text = ""
    title = str(view.get("title") or view.get("name") or "")
    return _clip(text or (kind.title() + " picture" + (": " + title if title else "")))
