"""Tiles on the map: reading a tile's drawing, placing tiles and putting an encounter's map together.

All geometry is kernel.hexes; this module only knows what a tile's marks mean.
"""
from __future__ import annotations

from typing import Iterable

from kernel import hexes
from kernel.hexes import Hex as AxialHex
from rulesets.tes.content.records import BattleMap, Hex, Tile, TilePlacement

#: How many hexes of the battlefield an entrance tile must touch, so that one adventurer
#: standing at the entrance never blocks the way for the rest.
ENTRANCE_MIN_CONTACT = 1


def place_hex(h: Hex, placement: TilePlacement) -> Hex:
    """Where a tile's hex lands on the map (rotated about the tile's 0,0, then moved)."""
    return hexes.place_hex(AxialHex(*h), AxialHex(*placement.offset), placement.rotation)


def assemble_map(tiles: dict[str, Tile], placements: Iterable[TilePlacement]) -> BattleMap:
    """An encounter's tiles put together, in map (axial) coordinates."""
    cells: dict[Hex, str] = {}
    impassable: set[Hex] = set()
    slots: dict[int, Hex] = {}
    caches: dict[Hex, str] = {}
    escape: set[Hex] = set()
    entrance: set[Hex] = set()
    labels: dict[str, Hex] = {}
    for p in placements:
        t = tiles[p.tile]
        for h in t.hexes:
            cells[place_hex(h, p)] = t.id
            if t.kind == "entrance":
                entrance.add(place_hex(h, p))
        impassable.update(place_hex(h, p) for h in t.impassable)
        for n, h in t.enemy_slots.items():
            slots[n] = place_hex(h, p)
        for h, kind in t.caches.items():
            caches[place_hex(h, p)] = kind
        escape.update(place_hex(h, p) for h in t.escape)
        for name, h in t.labels.items():
            labels[name] = place_hex(h, p)
    return BattleMap(cells, frozenset(impassable), dict(sorted(slots.items())), caches,
                     frozenset(escape), frozenset(entrance), labels)


def entrance_problem(bm: BattleMap) -> str | None:
    """Why the entrance tile would bottle the party up, or None.

    The party deploys on the entrance tile and walks onto the battlefield: the
    passable battlefield hexes next to the entrance are its ways out.  With fewer
    than two, one adventurer standing in the way blocks everyone behind.
    """
    if not bm.entrance:
        return None
    ways_out = {n for h in bm.entrance for n in hexes.neighbours(AxialHex(*h))
                if n in bm.hexes and n not in bm.entrance and n not in bm.impassable}
    doors = {h for h in bm.entrance if h not in bm.impassable
             and any(n in ways_out for n in hexes.neighbours(AxialHex(*h)))}
    if not ways_out:
        return "the entrance tile does not touch the other tiles; check offset and rotation"
    if len(ways_out) < ENTRANCE_MIN_CONTACT or len(doors) < ENTRANCE_MIN_CONTACT:
        return (f"the entrance tile touches the battlefield through {min(len(ways_out), len(doors))} hex, so one "
                f"adventurer standing there blocks the rest; place it so that at least {ENTRANCE_MIN_CONTACT} of "
                "its hexes lead onto open battlefield hexes")
    return None


def parse_hex_map(text: str) -> dict[Hex, str]:
    """Read a tile drawing: one row per line, cells separated by spaces.

    Row ``r`` is the line number (first non-empty line is row 0); within a row,
    cell ``col`` is the token number.  Odd rows are drawn shifted half a hex to
    the right ("odd-r" offset layout, kernel.hexes.from_odd_r).  A cell of ``_``
    is not part of the tile.
    """
    lines = [ln.rstrip() for ln in text.splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    cells: dict[Hex, str] = {}
    for r, line in enumerate(lines):
        for col, tok in enumerate(line.split()):
            if tok == "_":
                continue
            h = hexes.from_odd_r(col, r)
            cells[(h.q, h.r)] = tok
    return cells
