"""View models of the engage pictures (plain dicts ``render/engage.py`` draws)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.hexes import Hex
from rulesets.engage.board import board_of
from rulesets.engage.content import half_inches
from rulesets.engage.rules.core import PHASE_NAMES, in_contact
from rulesets.engage.state import Game

PALETTE = {"a": "#2f6fb8", "b": "#c0482a"}
CONDITION_WORDS = {"stunned": "Stunned", "dazed": "Dazed", "staggered": "Staggered"}


def player_name(owner: str, name_of: Callable[[str], str]) -> str:
    return name_of(owner)


def unit_states(state: Game, pack, u) -> list[str]:
    """Every state a player needs to know of a unit, in words."""
    if u.out:
        return ["out of the fight"]
    if u.hex is None:
        return []
    out = []
    board = board_of(pack)
    foes = in_contact(state, board, u)
    if foes:
        out.append("Engaged with " + ", ".join(f.id for f in foes))
    out += [CONDITION_WORDS[c] for c in ("stunned", "dazed", "staggered") if u.has(c)]
    if state.phase == "battle":
        if u.strike_first and not u.has("staggered"):
            out.append("strikes first")
        if u.jump_attack:
            out.append("Jump Attack")
        if u.tried and u.owner == state.turn.player and not u.strike_first:
            out.append("tried to engage")
    return out


def engage_lines(state: Game, pack, rec: dict[str, Any] | None) -> list[str]:
    """The latest engage in a few short lines: who, the distance found, the path, how it ended."""
    if not rec:
        return []
    u = state.units.get(rec["unit"])
    if u is None:
        return []
    t = pack.unit(u.type)
    targets = " + ".join(rec["targets"])
    if rec.get("sight"):
        dist = f"sees it: Run {half_inches(rec['distance'])} in"
    else:
        dist = f"out of sight: d20 {rec['roll']} ({rec['band']}) = {half_inches(rec['distance'])} in"
    lines = [f"{u.id} {t.name} engages {targets}" + (" (Jump Down)" if rec.get("jump") else ""),
             f"{dist}; path {rec['inches']} in"]
    result = rec.get("result")
    end = rec.get("end")
    where = f" at {end[0]},{end[1]}" if end else ""
    if result == "pending":
        lines.append("In reach: the other player may intercept")
    elif result == "success":
        lines.append(f"Engage succeeds{where}: strikes first")
    elif result == "intercepted":
        i = rec.get("interceptor") or {}
        lines.append(f"Intercepted by {i.get('unit', '?')}: stops{where}")
    elif result == "failed":
        moved = sum((rec.get("costs") or [])[:len(rec.get("walked") or [])])
        lines.append(f"Engage fails: moves {moved} in (of {half_inches(rec['fail'])}){where}")
    elif result == "fell":
        lines.append(f"Fell on a Jump Down{where}: no engage")
    if rec.get("jump_attack"):
        lines.append("Jump Attack: Advantage this turn")
    if rec.get("shuffle"):
        s = rec["shuffle"]
        lines.append(f"{s['unit']} makes room: {s['from'][0]},{s['from'][1]} to {s['to'][0]},{s['to'][1]}")
    return lines


def map_view(state: Game, pack, name_of: Callable[[str], str], title: str = "") -> dict[str, Any]:
    m = pack.map
    zones = {h: side for side, hexes in m.zones.items() for h in hexes}
    cells = [{"q": h.q, "r": h.r, "col": c, "row": r, "height": m.heights.get(h, 0), "wall": h in m.walls,
              "zone": zones.get(h) if state.phase == "muster" else None} for c, r, h in m.cells]
    ladders = [sorted([list(h) for h in pair]) for pair in sorted(m.ladders, key=lambda p: sorted(p))]
    letters = {o: s.letter for o, s in state.sides.items()}
    units = []
    for u in state.units.values():
        t = pack.unit(u.type)
        units.append({"id": u.id, "name": u.name, "side": letters.get(u.owner, "a"),
                      "q": u.hex[0] if u.hex else None, "r": u.hex[1] if u.hex else None,
                      "left": t.wounds - u.damage, "wounds": t.wounds, "out": u.out,
                      "conditions": sorted(u.conditions), "fear": t.fear, "jump": t.jump_down,
                      "states": unit_states(state, pack, u), "type": t.name})
    units.sort(key=lambda x: (x["side"], int(x["id"][1:]) if x["id"][1:].isdigit() else 0))
    sides = []
    for o in state.owners():
        s = state.sides[o]
        turn = state.phase == "battle" and (state.pending["owner"] if state.pending else state.turn.player) == o
        sides.append({"letter": s.letter, "player": player_name(o, name_of), "colour": PALETTE[s.letter],
                      "turn": turn})
    if not title:
        if state.phase == "muster":
            title = f"{state.name}: deployment"
        elif state.phase == "over":
            title = f"{state.name}: the battle is over"
        else:
            t = state.turn
            title = (f"Turn {t.number} · {player_name(t.player, name_of)} · "
                     f"{PHASE_NAMES[t.phase]}")
    engage = None
    if state.last:
        rec = state.last
        engage = {k: rec.get(k) for k in ("unit", "targets", "start", "path", "walked", "interceptor", "shuffle",
                                          "result", "end")}
    return {"mode": "map", "title": title, "width": m.width, "height": m.height, "cells": cells,
            "ladders": ladders, "units": units, "sides": sides, "palette": PALETTE,
            "engage": engage, "lines": engage_lines(state, pack, state.last),
            "trail": list(state.trail), "pending": bool(state.pending),
            "offers": [{"n": i, "unit": o["unit"], "from": o["from"], "to": o["to"]}
                       for i, o in enumerate((state.pending or {}).get("candidates") or [], 1)]}


def hex_of(u) -> Hex | None:
    return Hex(*u.hex) if u.hex else None
