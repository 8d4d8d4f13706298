"""Tiles on the map: reading a tile's drawing, placing tiles and putting an encounter's map together.

All geometry is engine.hexes; this module only knows what a tile's marks mean.
"""
from __future__ import annotations

from typing import Iterable

from engine import hexes
from engine.hexes import Hex as AxialHex
from rulesets.tes.content.records import BattleMap, Dungeon, Hex, Tile, TilePlacement

#: Hexes on the entrance tile (the rulebook's entrance tile, setup step 4).
ENTRANCE_HEXES = 5


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
    doors: set[Hex] = set()
    cache_spots: set[Hex] = set()
    enemy_spots: set[Hex] = set()
    for p in placements:
        t = tiles[p.tile]
        for h in t.hexes:
            cells[place_hex(h, p)] = t.id
            if t.kind == "entrance":
                entrance.add(place_hex(h, p))
        doors.update(place_hex(h, p) for h in t.doors)
        cache_spots.update(place_hex(h, p) for h in t.cache_spots)
        enemy_spots.update(place_hex(h, p) for h in t.enemy_spots)
        impassable.update(place_hex(h, p) for h in t.impassable)
        for n, h in t.enemy_slots.items():
            slots[n] = place_hex(h, p)
        for h, kind in t.caches.items():
            caches[place_hex(h, p)] = kind
        escape.update(place_hex(h, p) for h in t.escape)
        for name, h in t.labels.items():
            labels[name] = place_hex(h, p)
    return BattleMap(cells, frozenset(impassable), dict(sorted(slots.items())), caches,
                     frozenset(escape), frozenset(entrance), labels, frozenset(doors), frozenset(cache_spots),
                     frozenset(enemy_spots))


def dungeon_map(tiles: dict[str, Tile], dungeon: Dungeon) -> BattleMap:
    """A dungeon's map: its tiles placed as its setup diagram shows them, with the diagram's marks (numbered,
    lettered, star and cache hexes; red hexes impassable) instead of the icons printed on the tiles."""
    base = assemble_map(tiles, dungeon.tiles)
    return BattleMap(base.hexes, frozenset(dungeon.impassable), dict(dungeon.slots), dict(dungeon.caches),
                     frozenset(), base.entrance, dict(dungeon.labels), stars=frozenset(dungeon.stars))


def encounter_map(pack, encounter_id: str) -> BattleMap:
    """The map an encounter sets up: its tiles placed as the encounter says."""
    return assemble_map(pack.tiles, pack.encounters[encounter_id].tiles)


def entrance_problem(bm: BattleMap, *, touch_only: bool = False) -> str | None:
    """Why the entrance would bottle the party up, or None.

    The party deploys on the entrance tile and walks onto the battlefield.  One
    adventurer standing anywhere on the entrance, or on a battlefield hex next to
    it, must never shut the others in: from every other entrance hex there must
    still be a way round that unit to the battlefield beyond the entrance.
    """
    if not bm.entrance:
        return None
    open_ = {h for h in bm.hexes if h not in bm.impassable}
    doorstep = {n for h in bm.entrance for n in _around(h) if n in open_ and n not in bm.entrance}
    if not doorstep:
        return "the entrance tile does not touch the other tiles; check offset and rotation"
    if touch_only:  # an earlier pack version, checked as it was then
        return None
    beyond = {h for h in open_ if h not in bm.entrance and h not in doorstep} or doorstep
    for blocker in sorted(set(bm.entrance) | doorstep):
        for start in sorted(bm.entrance):
            if start == blocker or start not in open_:
                continue
            if not _reaches(start, beyond - {blocker}, open_ - {blocker}):
                return (f"one adventurer standing on hex {blocker[0]},{blocker[1]} shuts the party in: from entrance "
                        f"hex {start[0]},{start[1]} there is no other way onto the battlefield. Place the entrance "
                        "so that it touches the battlefield through more hexes")
    return None


def _around(h: Hex) -> list[Hex]:
    return [(n.q, n.r) for n in hexes.neighbours(AxialHex(*h))]


def _reaches(start: Hex, goals: set[Hex], passable: set[Hex]) -> bool:
    return not goals.isdisjoint(hexes.reachable(AxialHex(*start), len(passable), passable))


def parse_hex_map(text: str) -> dict[Hex, str]:
    """Read a tile drawing: one row per line, cells separated by spaces.

    Row ``r`` is the line number (first non-empty line is row 0); within a row,
    cell ``col`` is the token number.  Odd rows are drawn shifted half a hex to
    the right ("odd-r" offset layout, engine.hexes.from_odd_r).  A cell of ``_``
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
