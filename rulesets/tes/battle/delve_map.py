"""A delve's map questions (rulebook pp.75-78): explorable hexes, where a revealed tile may connect, and the
farthest hexes of a new tile.  Geometry only: rulesets.tes.battle.delve plays the exploration.

* A door hex (a tile's connection hex, ``d`` on a delve tile) is **explored** when it is next to a door hex of
  another tile.  It is **explorable** when it is on the map's edge (at least one of its edges borders no tile),
  not explored, and not every skyshard of the delve has been drawn yet.
* A revealed tile **connects** with one of its door hexes next to the explored hex (both doors touch along an
  edge), covering no hex of the map; the first delve tile's door must be next to both of the entrance's door
  hexes.  Of those placements, only the ones that leave at least one of the new tile's door hexes explorable are
  legal, if there are any.  Placements that put the same tile on the same hexes with the same marks are one.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.hexes import Hex, distance, neighbours, place_hex
from rulesets.tes.battle.model import Ctx, MapInfo, map_range


@dataclass(frozen=True)
class Placement:
    """Where a revealed tile may go: its offset and rotation (60° steps), and what that gives the map."""

    offset: Hex
    rotation: int
    door: Hex  # the tile's door hex next to the explored hex, in map coordinates
    hexes: frozenset[Hex]
    doors: frozenset[Hex]
    open_doors: int  # the new tile's door hexes left explorable
    explorable: int  # explorable door hexes on the whole map afterwards

    def spot(self) -> list[int]:
        return [self.offset.q, self.offset.r, self.rotation]


def tile_hexes(tile, offset: Hex, rotation: int) -> dict[str, list[Hex]]:
    """A tile's hexes and marks placed at ``offset`` turned ``rotation`` steps."""
    def put(hs) -> list[Hex]:
        return [place_hex(Hex(*h), offset, rotation) for h in hs]

    return {"hexes": put(tile.hexes), "doors": put(tile.doors), "caches": put(tile.cache_spots),
            "enemies": put(tile.enemy_spots), "impassable": put(tile.impassable)}


def explored(h: Hex, tile_of: dict[Hex, str], doors) -> bool:
    """A door hex next to a door hex of another tile is explored."""
    mine = tile_of.get(h)
    return any(n in doors and tile_of.get(n) != mine for n in neighbours(h))


def edge(h: Hex, tile_of: dict[Hex, str]) -> bool:
    return any(n not in tile_of for n in neighbours(h))


def open_doors(tile_of: dict[Hex, str], doors) -> list[Hex]:
    """Door hexes on the map's edge that are not explored (before the skyshard rule)."""
    return sorted((h for h in doors if edge(h, tile_of) and not explored(h, tile_of, doors)), key=lambda h: (h.q, h.r))


def explorable(c: Ctx) -> list[Hex]:
    """The delve's explorable hexes now, by (q, r); none once every skyshard has been drawn."""
    return explorable_on(c.b.delve, c.map)


def explorable_on(d, m: MapInfo) -> list[Hex]:
    """The explorable hexes of delve ``d`` (a ``Battle.delve``) on its map ``m``."""
    if d is None or d.drawn >= d.required:
        return []
    return open_doors(m.tile_of, m.doors)


def placements(c: Ctx, tile_id: str, at: Hex) -> list[Placement]:
    """Every legal placement of the tile ``tile_id`` revealed by exploring ``at``, in a fixed order (the tile's
    door hexes in order, then the rotations, then the free hexes around ``at`` from east counter-clockwise)."""
    m = c.map
    tile = c.pack.tiles[tile_id]
    first = not (c.b.delve and c.b.delve.numbers)
    entrance_doors = [h for h in m.entrance if h in m.doors]
    free = [n for n in neighbours(at) if n not in m.tile_of]
    if first and len(entrance_doors) == 2:
        free = [n for n in free if all(distance(n, e) == 1 for e in entrance_doors)]
    seen: set = set()
    found: list[Placement] = []
    for door in tile.doors:
        for rot in range(6):
            turned = place_hex(Hex(*door), Hex(0, 0), rot)
            for n in free:
                off = n - turned
                placed = tile_hexes(tile, off, rot)
                hexes = placed["hexes"]
                if any(h in m.tile_of for h in hexes):
                    continue
                key = (frozenset(hexes), frozenset(placed["doors"]), frozenset(placed["caches"]),
                       frozenset(placed["enemies"]), frozenset(placed["impassable"]))
                if key in seen:
                    continue
                seen.add(key)
                tile_of = dict(m.tile_of)
                tile_of.update({h: tile_id for h in hexes})
                doors = set(m.doors) | set(placed["doors"])
                now_open = open_doors(tile_of, doors)
                mine = sum(1 for h in placed["doors"] if h in now_open)
                found.append(Placement(off, rot, n, frozenset(hexes), frozenset(placed["doors"]), mine,
                                       len(now_open)))
    if any(p.open_doors for p in found):  # "at least 1 of its door hexes remains explorable, if able"
        found = [p for p in found if p.open_doors]
    return found


def best(options: list[Placement]) -> int:
    """The placement used when the party does not choose (numbered from 1): the one that leaves the most
    explorable door hexes on the map (the delve stays open), the first of those."""
    if not options:
        return 0
    top = max(p.explorable for p in options)
    return next(i for i, p in enumerate(options, 1) if p.explorable == top)


def farthest_first(m: MapInfo, origin: Hex, spots) -> list[Hex]:
    """Hexes farthest from ``origin`` first, by range (the route around impassable hexes); ties by (q, r)."""
    def far(h: Hex) -> int:
        r = map_range(m, origin, h)
        return -(r if r is not None else distance(origin, h))

    return sorted(spots, key=lambda h: (far(h), h.q, h.r))


__all__ = ["Placement", "best", "edge", "explorable", "explorable_on", "explored", "farthest_first", "open_doors", "placements",
           "tile_hexes"]
