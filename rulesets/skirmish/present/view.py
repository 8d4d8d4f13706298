"""View models of the skirmish pictures (plain dicts the renderer draws; ``render/skirmish.py``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import word
from engine.hexes import Hex
from rulesets.skirmish.board import field_hexes, zone
from rulesets.skirmish.rules.engine import read_roll
from rulesets.skirmish.state import BOT

# one colour per deployment zone (west, east, north, south)
PALETTE = ["#2f7fbf", "#c0482a", "#3c9d5d", "#8e5cb8"]


def short(name: str) -> str:
    parts = name.replace("-", " ").split()
    if len(parts) >= 2:
        tail = parts[-1] if parts[-1].isdigit() else parts[1][:1]
        return (parts[0][:1] + tail).upper()[:3]
    return name[:2].upper()


def player_name(owner: str, name_of: Callable[[str], str]) -> str:
    return "Bot" if owner == BOT else name_of(owner)


def dice_list(state, owner: str) -> list[dict[str, Any]]:
    fight = state.fight
    if fight is None:
        return []
    out = []
    for n, d in enumerate(fight.dice.get(owner, []), 1):
        wiz = state.fighters.get(d.wizard) if d.wizard else None
        out.append({"n": n, "kind": d.kind, "value": d.value, "channelled": d.channelled,
                    "wizard": wiz.name if wiz else None})
    return out


def map_view(state, pack, name_of: Callable[[str], str], title: str = "", events=None) -> dict[str, Any]:
    """The battlefield picture's view; ``events`` (the action's) say what just happened, in words."""
    from rulesets.skirmish.rules.engine import points_left

    fight = state.fight
    sides = {o: w.side for o, w in state.warbands.items()}
    zones = {}
    for w in state.warbands.values():
        for h in zone(w.side, pack.width, pack.height):
            zones[h] = w.side
    hexes = [{"q": h.q, "r": h.r, "zone": zones.get(h)} for h in sorted(field_hexes(pack.width, pack.height),
                                                                     key=lambda h: (h.r, h.q))]
    active = fight.active.fighter if fight and fight.active else None
    over = state.phase == "over"
    fighters = []
    for f in state.fighters.values():
        t = pack.fighter(f.type)
        fighters.append({"id": f.id, "name": f.name, "short": short(f.name), "side": sides.get(f.owner, 0),
                         "q": f.hex[0] if f.hex else None, "r": f.hex[1] if f.hex else None,
                         "damage": f.damage, "wounds": t.wounds, "wizard": t.wizard, "out": f.out,
                         "waiting": f.waiting and not over, "activated": f.activated and not f.waiting and not over,
                         "active": f.id == active})
    winner = (state.result or {}).get("winner") if over else None
    bands = []
    for o in state.owners():
        w = state.warbands[o]
        band = {"name": w.name, "player": player_name(o, name_of), "side": w.side, "colour": PALETTE[w.side],
                "dice": [] if over else dice_list(state, o),
                "turn": bool(fight and state.phase == "battle" and
                             (fight.active.player if fight.active else fight.turn) == o),
                "fighters": [{"short": short(f.name), "name": f.name, "wounds": pack.fighter(f.type).wounds,
                              "damage": f.damage, "out": f.out} for f in state.fighters_of(o)]}
        if state.phase != "muster":
            band["points"] = points_left(state, pack, o)
        if over:
            band["winner"] = o == winner
        bands.append(band)
    if not title:
        if state.phase == "muster":
            title = f"{state.name}: deployment"
        elif over:
            title = (f"{state.name}: {state.warbands[winner].name} wins" if winner in state.warbands
                     else f"{state.name}: a draw")
        else:
            title = f"{state.name}: round {fight.round}"
    view = {"mode": "map", "title": title, "width": pack.width, "height": pack.height, "hexes": hexes,
            "palette": PALETTE, "fighters": fighters, "trail": list(fight.trail) if fight else [],
            "warbands": bands, "log": happened(events or [], name_of, quiet=QUIET | ({"victory", "draw"} if over
                                                                                       else set()))}
    if over:
        view["result"] = {"winner": state.warbands[winner].name if winner in state.warbands else "",
                          "reason": str((state.result or {}).get("reason") or "")}
    return view


#: what the map's "what just happened" leaves out (the initiative picture and the turn line say those)
QUIET = frozenset({"initiative", "roll-off", "order"})


def happened(events, name_of: Callable[[str], str], keep: int = 3, quiet=QUIET) -> list[str]:
    """The newest of the action's events in plain words (names, no Markdown), for the picture."""
    out = [word(e.text, e.data, lambda uid: player_name(uid, name_of)) for e in events if e.kind not in quiet]
    return [x for x in out if x.strip()][-keep:]


def initiative_view(state, name_of: Callable[[str], str], events=None) -> dict[str, Any]:
    """Each warband's initiative roll, what it makes, and the tie roll-off (from the round's events)."""
    fight = state.fight
    rows = []
    for o in fight.order or list(fight.rolls):
        w = state.warbands.get(o)
        if w is None or o not in fight.rolls:
            continue
        roll = fight.rolls[o]
        singles = [v for v in roll if roll.count(v) == 1]
        rows.append({"player": player_name(o, name_of), "warband": w.name, "colour": PALETTE[w.side],
                     "roll": list(roll), "singles": len(singles),
                     "dice": [{"kind": d.kind, "value": d.value, "channelled": False} for d in read_roll(roll)[1]]})
    rolloffs = []
    for e in events or []:
        if e.kind == "roll-off":
            rolls = e.data.get("rolls")
            if isinstance(rolls, list):  # [[player, value], ...]
                rolloffs.append([[player_name(str(p), name_of), int(v)] for p, v in rolls])
            else:  # an event written before roll-offs recorded their dice: its words
                rolloffs.append(word(e.text, e.data, lambda uid: player_name(uid, name_of)))
    first = player_name(fight.order[0], name_of) if fight.order else ""
    return {"mode": "initiative", "title": f"Round {fight.round}: initiative", "rows": rows,
            "first": first, "rolloffs": rolloffs}


def hex_of(f) -> Hex | None:
    return Hex(*f.hex) if f.hex else None
