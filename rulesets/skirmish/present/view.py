"""View models of the skirmish pictures (plain dicts the renderer draws; ``render/skirmish.py``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


def map_view(state, pack, name_of: Callable[[str], str], title: str = "") -> dict[str, Any]:
    fight = state.fight
    sides = {o: w.side for o, w in state.warbands.items()}
    zones = {}
    for w in state.warbands.values():
        for h in zone(w.side, pack.width, pack.height):
            zones[h] = w.side
    hexes = [{"q": h.q, "r": h.r, "zone": zones.get(h)} for h in sorted(field_hexes(pack.width, pack.height),
                                                                     key=lambda h: (h.r, h.q))]
    active = fight.active.fighter if fight and fight.active else None
    fighters = []
    for f in state.fighters.values():
        t = pack.fighter(f.type)
        fighters.append({"id": f.id, "name": f.name, "short": short(f.name), "side": sides.get(f.owner, 0),
                         "q": f.hex[0] if f.hex else None, "r": f.hex[1] if f.hex else None,
                         "damage": f.damage, "wounds": t.wounds, "wizard": t.wizard, "out": f.out,
                         "waiting": f.waiting, "activated": f.activated and not f.waiting, "active": f.id == active})
    bands = []
    for o in state.owners():
        w = state.warbands[o]
        bands.append({"name": w.name, "player": player_name(o, name_of), "side": w.side,
                      "colour": PALETTE[w.side], "dice": dice_list(state, o),
                      "turn": bool(fight and state.phase == "battle" and
                                   (fight.active.player if fight.active else fight.turn) == o)})
    if not title:
        if state.phase == "muster":
            title = f"{state.name}: deployment"
        elif state.phase == "over":
            title = f"{state.name}: battle over"
        else:
            title = f"{state.name}: round {fight.round}"
    return {"mode": "map", "title": title, "width": pack.width, "height": pack.height, "hexes": hexes,
            "palette": PALETTE, "fighters": fighters, "trail": list(fight.trail) if fight else [],
            "warbands": bands}


def initiative_view(state, name_of: Callable[[str], str]) -> dict[str, Any]:
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
    first = player_name(fight.order[0], name_of) if fight.order else ""
    return {"mode": "initiative", "title": f"Round {fight.round}: initiative", "rows": rows,
            "first": first}


def hex_of(f) -> Hex | None:
    return Hex(*f.hex) if f.hex else None
