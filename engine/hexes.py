"""Hex geometry and pathfinding for the battle and overland maps.

Conventions used everywhere in Hexpost:

* **Pointy-top hexes** in **axial coordinates** ``(q, r)``; the third cube
  coordinate is ``s = -q - r``.  ``q`` grows to the east, ``r`` grows to the
  south-east/south-west (downwards on the map picture), so the picture's
  ``y`` axis points down.
* A hex is written ``"q,r"`` (for example ``"2,-1"``) in messages, commands and
  on the map picture.  :func:`parse_label` also accepts ``"2 -1"`` and
  ``"(2, -1)"``.
* Neighbours always come in the order **E, NE, NW, W, SW, SE** (see
  :data:`DIRECTIONS`).  Every search expands neighbours in this order, which is
  what makes routes and tie-breaks deterministic.

Map words used by the rules, and how this module reads them:

* *passable*: the hexes a unit may stand in or move through when nobody is
  there -- the hexes of the map minus impassable hexes.  Given as a set (or any
  container) or as a predicate ``hex -> bool``.  Hexes off the map are simply
  not passable.
* *blocked*: occupied hexes (other units).  They cannot be moved through or
  ended in.  The moving unit's own starting hex is never treated as blocked, so
  callers may pass the full set of occupied hexes.
* *range / distance*: counted along a route that avoids impassable and off-map
  hexes but ignores units (:func:`route_distance`).
* *closest / farthest*: by default the number of hexes in the route
  (:func:`closest`, :func:`farthest`), not the straight-line count.
* *sight*: by tiles, not by lines (:func:`in_sight`).

Pure Python; no third-party imports.
"""
from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass
from typing import Callable, Container, Hashable, Iterable, Mapping, NamedTuple, Union

__all__ = [
    "Hex",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "direction",
    "neighbour",
    "neighbours",
    "distance",
    "ring",
    "spiral",
    "hexes_within",
    "rotate",
    "translate",
    "place_hex",
    "place_tile",
    "from_odd_r",
    "to_odd_r",
    "hex_round",
    "line",
    "line_clear",
    "tiles_adjacent",
    "adjacent_tiles",
    "in_sight",
    "reachable",
    "route_distance",
    "shortest_path",
    "path_is_legal",
    "closest",
    "farthest",
    "toward",
    "label",
    "parse_label",
    "Point",
    "Orientation",
    "POINTY",
    "FLAT",
    "Layout",
    "hex_to_pixel",
    "pixel_to_hex",
    "hex_corners",
]


# --------------------------------------------------------------------------- #
# The hex type and its text form
# --------------------------------------------------------------------------- #

_LABEL_FORM = 'a hex written as "q,r" (for example "2,-1"; "2 -1" and "(2, -1)" also work)'
_LABEL_RE = re.compile(r"^\(?\s*([+-]?\d+)\s*(?:,\s*|\s+)([+-]?\d+)\s*\)?$")


class Hex(NamedTuple):
    """One hex in axial coordinates.  Hashable, ordered by ``(q, r)``.

    A named tuple, so hashing and comparing cost no Python code: path searches
    hash hexes millions of times.

    ``str(Hex(2, -1)) == "2,-1"`` and ``Hex.parse("2,-1") == Hex(2, -1)``.
    Supports ``a + b``, ``a - b`` and ``h * k`` (k an int) as vector operations.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    def __add__(self, other: "Hex") -> "Hex":
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: "Hex") -> "Hex":
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q - other.q, self.r - other.r)

    def __mul__(self, k: int) -> "Hex":
        if not isinstance(k, int):
            return NotImplemented
        return Hex(self.q * k, self.r * k)

    __rmul__ = __mul__

    @classmethod
    def parse(cls, text: str) -> "Hex":
        """Read ``"q,r"``, ``"q r"`` or ``"(q, r)"``; raise ``ValueError`` otherwise."""
        if not isinstance(text, str):
            raise ValueError(f"Expected {_LABEL_FORM}.")
        m = _LABEL_RE.match(text.strip())
        if not m:
            shown = text.strip()[:20]
            raise ValueError(f'"{shown}" is not a hex. Expected {_LABEL_FORM}.')
        return cls(int(m.group(1)), int(m.group(2)))


def label(h: Hex) -> str:
    """The label players see and type for a hex: ``"q,r"``.

    Letters-for-columns labels do not fit an axial map (columns slant), so the
    coordinates themselves are the label.
    """
    return str(h)


def parse_label(text: str) -> Hex:
    """Inverse of :func:`label`; also accepts ``"q r"`` and ``"(q, r)"``.

    Raises ``ValueError`` whose message states the expected form.
    """
    return Hex.parse(text)


# --------------------------------------------------------------------------- #
# Directions, neighbours, distance
# --------------------------------------------------------------------------- #

#: Unit vectors in the fixed order E, NE, NW, W, SW, SE (counter-clockwise on
#: the map picture, starting east).
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),  # E
    Hex(1, -1),  # NE
    Hex(0, -1),  # NW
    Hex(-1, 0),  # W
    Hex(-1, 1),  # SW
    Hex(0, 1),  # SE
)
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")


def direction(i: int) -> Hex:
    """Unit vector number ``i`` (taken mod 6) in the order of :data:`DIRECTIONS`."""
    return DIRECTIONS[i % 6]


def neighbour(h: Hex, i: int) -> Hex:
    """The hex next to ``h`` in direction ``i`` (see :data:`DIRECTIONS`)."""
    d = DIRECTIONS[i % 6]
    return Hex(h.q + d.q, h.r + d.r)


def neighbours(h: Hex) -> list[Hex]:
    """The six adjacent hexes (sharing an edge), in the order E, NE, NW, W, SW, SE."""
    return [Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Straight hex count from ``a`` to ``b``: ``(|dq| + |dr| + |ds|) / 2``.

    This ignores obstacles; for rule range use :func:`route_distance`.
    """
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# --------------------------------------------------------------------------- #
# Rings, spirals, areas
# --------------------------------------------------------------------------- #


def ring(center: Hex, radius: int) -> list[Hex]:
    """All hexes exactly ``radius`` away from ``center`` (``6 * radius`` of them).

    Radius 0 gives ``[center]``.  Order: start at the corner ``radius`` steps
    south-west of the centre, then walk the six sides going E, NE, NW, W, SW, SE.
    """
    if radius < 0:
        raise ValueError("radius must be 0 or more")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = center + direction(4) * radius
    for i in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, i)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` of ``center``: the centre, then ring 1, ring 2, ...

    There are ``1 + 3 * radius * (radius + 1)`` of them.
    """
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


def hexes_within(center: Hex, radius: int) -> set[Hex]:
    """The set of hexes at straight distance ``<= radius`` from ``center``."""
    out: set[Hex] = set()
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.add(Hex(center.q + dq, center.r + dr))
    return out


# --------------------------------------------------------------------------- #
# Rotation, translation, tiles
# --------------------------------------------------------------------------- #


def rotate(h: Hex, steps: int) -> Hex:
    """Rotate ``h`` about the origin ``0,0`` by ``steps`` x 60 degrees **clockwise**.

    Clockwise as seen on the map picture (y grows downward): one step turns
    E into SE, SE into SW, and so on.  Negative steps turn counter-clockwise;
    six steps are the identity.
    """
    q, r, s = h.q, h.r, h.s
    for _ in range(steps % 6):
        q, r, s = -r, -s, -q
    return Hex(q, r)


def translate(h: Hex, offset: Hex) -> Hex:
    """Move ``h`` by the vector ``offset``."""
    return Hex(h.q + offset.q, h.r + offset.r)


def place_hex(h: Hex, offset: Hex, rotation: int = 0) -> Hex:
    """Where a tile's hex ``h`` lands: rotate about the tile origin, then translate."""
    return translate(rotate(h, rotation), offset)


def place_tile(hexes: Iterable[Hex] | Mapping[Hex, object], offset: Hex, rotation: int = 0):
    """Place a tile drawn around its own ``0,0`` onto the map.

    Each hex is first rotated ``rotation`` x 60 degrees clockwise about the
    tile's ``0,0`` (see :func:`rotate`), then moved by ``offset``.  A mapping
    (hex -> whatever is printed on it) gives back a dict with moved keys; any
    other iterable gives back a set.
    """
    if isinstance(hexes, Mapping):
        return {place_hex(h, offset, rotation): v for h, v in hexes.items()}
    return {place_hex(h, offset, rotation) for h in hexes}


def from_odd_r(col: int, row: int) -> Hex:
    """The axial hex drawn in column ``col`` of row ``row`` of an "odd-r" offset drawing.

    Odd rows are drawn shifted half a hex to the right, as in a tile's text map
    (one line per row, one token per hex).
    """
    return Hex(col - (row - (row & 1)) // 2, row)


def to_odd_r(h: Hex) -> tuple[int, int]:
    """Inverse of :func:`from_odd_r`: ``(col, row)``."""
    return h.q + (h.r - (h.r & 1)) // 2, h.r


# --------------------------------------------------------------------------- #
# Lines
# --------------------------------------------------------------------------- #

_EPS = (1e-6, 2e-6, -3e-6)  # sums to zero, so the nudged point stays on the plane


def hex_round(fq: float, fr: float) -> Hex:
    """Round fractional axial coordinates to the hex that contains the point."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def _nudged_line(a: Hex, b: Hex, sign: int) -> list[Hex]:
    n = distance(a, b)
    if n == 0:
        return [a]
    eq, er = _EPS[0] * sign, _EPS[1] * sign
    aq, ar = a.q + eq, a.r + er
    bq, br = b.q + eq, b.r + er
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(hex_round(aq + (bq - aq) * t, ar + (br - ar) * t))
    return out


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` crosses.

    ``distance(a, b) + 1`` hexes from ``a`` to ``b`` inclusive, each adjacent to
    the next.  When the line runs exactly along an edge between two hexes, both
    ends are nudged by the same tiny amount (``+1e-6, +2e-6, -3e-6`` in cube
    terms) so the same side is always chosen.
    """
    return _nudged_line(a, b, +1)


def line_clear(a: Hex, b: Hex, blocking: Container[Hex], map_hexes: Container[Hex]) -> bool:
    """Geometric line of sight between ``a`` and ``b`` (NOT the game's Sight rule).

    The game decides sight by tiles (see :func:`in_sight`); this helper exists
    for effects or variants that want a drawn line.  The hexes strictly between
    ``a`` and ``b`` must be on the map and not in ``blocking``; the end hexes
    never block.  When the line runs exactly along an edge, it is traced twice,
    nudged to either side; the line counts as clear if **either** trace is clear
    (the generous reading).
    """
    if a == b:
        return True
    for sign in (+1, -1):
        hexes = _nudged_line(a, b, sign)[1:-1]
        if all(h in map_hexes and h not in blocking for h in hexes):
            return True
    return False


# --------------------------------------------------------------------------- #
# Sight (by tiles)
# --------------------------------------------------------------------------- #

TileOf = Mapping[Hex, Hashable]


def _tile_hexes(tile_of: TileOf) -> dict[Hashable, set[Hex]]:
    by_tile: dict[Hashable, set[Hex]] = {}
    for h, t in tile_of.items():
        by_tile.setdefault(t, set()).add(h)
    return by_tile


def tiles_adjacent(tile_a: Hashable, tile_b: Hashable, tile_of: TileOf) -> bool:
    """True when some hex of ``tile_a`` shares an edge with some hex of ``tile_b``.

    ``tile_of`` maps every map hex to the id of the tile it belongs to.  A tile
    is not adjacent to itself.
    """
    if tile_a == tile_b:
        return False
    for h, t in tile_of.items():
        if t != tile_a:
            continue
        for n in neighbours(h):
            if tile_of.get(n) == tile_b:
                return True
    return False


def adjacent_tiles(tile_of: TileOf) -> dict[Hashable, set[Hashable]]:
    """For every tile id, the set of other tile ids adjacent to it."""
    out: dict[Hashable, set[Hashable]] = {t: set() for t in tile_of.values()}
    for h, t in tile_of.items():
        for n in neighbours(h):
            u = tile_of.get(n)
            if u is not None and u != t:
                out[t].add(u)
    return out


def in_sight(a: Hex, b: Hex, tile_of: TileOf) -> bool:
    """Whether a unit in ``a`` has sight to ``b`` under the game's Sight rule.

    Sight goes by tiles, not by drawn lines: ``b`` is in sight from ``a`` when
    both hexes lie on the same map tile, or on two tiles that are adjacent
    (see :func:`tiles_adjacent`).  A hex is always in sight of itself.

    Decisions where the rule is silent:

    * Units, impassable hexes and obstacle tiles never block sight; nothing
      between the two hexes matters.
    * Impassable hexes still belong to the tile they are printed on, so they
      count when deciding whether two tiles are adjacent.  (Whether an
      impassable hex may be *targeted* is a separate rule the caller checks.)
    * A hex that is on no map tile (off the map, or not in ``tile_of``) has
      sight to nothing but itself.
    """
    if a == b:
        return True
    ta = tile_of.get(a)
    tb = tile_of.get(b)
    if ta is None or tb is None:
        return False
    if ta == tb:
        return True
    return tiles_adjacent(ta, tb, tile_of)


# --------------------------------------------------------------------------- #
# Searches
# --------------------------------------------------------------------------- #

Passable = Union[Container[Hex], Callable[[Hex], bool]]


def _as_predicate(passable: Passable) -> Callable[[Hex], bool]:
    if callable(passable) and not isinstance(passable, (set, frozenset, dict, list, tuple)):
        return passable  # type: ignore[return-value]
    return lambda h: h in passable  # type: ignore[operator]


def _bfs(
    start: Hex,
    passable: Passable,
    blocked: Container[Hex] = frozenset(),
    max_cost: int | None = None,
    *,
    enter_blocked: bool = False,
    stop_at: Hex | None = None,
) -> tuple[dict[Hex, int], dict[Hex, Hex | None]]:
    """Breadth-first search from ``start``.

    Neighbours are expanded in :data:`DIRECTIONS` order and the first parent to
    reach a hex is kept, so results are deterministic.  Blocked hexes are never
    expanded; with ``enter_blocked`` they still get a cost (they can be measured
    *to*, not moved *through*).
    """
    ok = _as_predicate(passable)
    cost: dict[Hex, int] = {start: 0}
    parent: dict[Hex, Hex | None] = {start: None}
    frontier: deque[Hex] = deque([start])
    while frontier:
        cur = frontier.popleft()
        if cur == stop_at:
            break
        c = cost[cur]
        if max_cost is not None and c >= max_cost:
            continue
        if cur != start and cur in blocked:
            continue  # reached only as an end point
        for n in neighbours(cur):
            if n in cost or not ok(n):
                continue
            if n in blocked and not enter_blocked:
                continue
            cost[n] = c + 1
            parent[n] = cur
            frontier.append(n)
    return cost, parent


def _walk_back(parent: Mapping[Hex, Hex | None], goal: Hex) -> list[Hex]:
    path: list[Hex] = []
    h: Hex | None = goal
    while h is not None and parent[h] is not None:
        path.append(h)
        h = parent[h]
    path.reverse()
    return path


def reachable(start: Hex, steps: int, passable: Passable, blocked: Container[Hex] = frozenset()) -> dict[Hex, int]:
    """Every hex a unit in ``start`` can move to with at most ``steps`` moves.

    Returns ``{hex: fewest moves}`` including ``start`` at 0.  A move goes to an
    adjacent hex that is passable and not blocked; off-map hexes are not
    passable.  The starting hex itself is never treated as blocked.
    """
    cost, _ = _bfs(start, passable, blocked, max_cost=steps)
    return cost


def route_distance(a: Hex, b: Hex, passable: Passable, blocked: Container[Hex] = frozenset()) -> int | None:
    """Hexes counted along the shortest route from ``a`` to ``b``, or ``None``.

    The route avoids hexes that are not passable (impassable or off the map)
    and hexes in ``blocked``, except that ``b`` itself may be blocked (it is
    what is measured to).  With the default empty ``blocked`` this is the
    game's range/distance: units do not matter but impassable hexes do.
    ``b`` must be passable (impassable hexes cannot be measured to).
    """
    if a == b:
        return 0
    if not _as_predicate(passable)(b):
        return None
    cost, _ = _bfs(a, passable, blocked, enter_blocked=True, stop_at=b)
    return cost.get(b)


def shortest_path(
    start: Hex,
    goal: Hex,
    passable: Passable,
    blocked: Container[Hex] = frozenset(),
    *,
    allow_blocked_goal: bool = False,
) -> list[Hex] | None:
    """Fewest-moves route from ``start`` to ``goal``, or ``None`` if there is none.

    The list excludes ``start`` and includes ``goal`` (``[]`` when they are the
    same hex).  Every hex on it is passable and not blocked; with
    ``allow_blocked_goal`` the goal alone may be blocked (useful to trace a
    route up to an occupied target).

    Tie-break: breadth-first search expanding neighbours in the order E, NE,
    NW, W, SW, SE and keeping the first way found into each hex.  Among equal
    routes this prefers, at each step from the start, the earliest direction in
    that order that still leads to a shortest route.
    """
    if start == goal:
        return []
    cost, parent = _bfs(start, passable, blocked, enter_blocked=allow_blocked_goal, stop_at=goal)
    if goal not in cost:
        return None
    if goal in blocked and not allow_blocked_goal:
        return None
    return _walk_back(parent, goal)


def path_is_legal(
    start: Hex,
    path: Iterable[Hex],
    passable: Passable,
    blocked: Container[Hex] = frozenset(),
    max_steps: int | None = None,
    *,
    occupant_name: Callable[[Hex], str | None] | None = None,
    impassable: Container[Hex] | None = None,
) -> tuple[bool, str]:
    """Check a move hex by hex.  Returns ``(True, "")`` or ``(False, reason)``.

    ``path`` lists the hexes entered, not including ``start``.  Each must be
    adjacent to the one before, passable (on the map, not impassable) and not
    blocked, and the path may be at most ``max_steps`` long.  Reasons are
    sentences a player can read, naming hexes as ``q,r``:

    * ``"That move is 4 hexes long but only 3 are allowed."``
    * ``"Hex 3,1 is not next to 2,-1."``
    * ``"Hex 3,1 is occupied by Skeleton."`` (name from ``occupant_name``,
      otherwise ``"Hex 3,1 is occupied."``)
    * ``"Hex 3,1 is impassable."`` (when ``impassable`` contains it)
    * ``"Hex 3,1 is off the map."`` (any other hex that is not passable)
    """
    steps = list(path)
    if max_steps is not None and len(steps) > max_steps:
        allowed = f"{max_steps} is" if max_steps == 1 else f"{max_steps} are"
        n = len(steps)  # (this module imports only the standard library, so it words the count itself)
        return False, f"That move is {n} {'hex' if n == 1 else 'hexes'} long but only {allowed} allowed."
    ok = _as_predicate(passable)
    prev = start
    for h in steps:
        if distance(prev, h) != 1:
            return False, f"Hex {h} is not next to {prev}."
        if not ok(h):
            if impassable is not None and h in impassable:
                return False, f"Hex {h} is impassable."
            return False, f"Hex {h} is off the map."
        if h in blocked and h != start:
            who = occupant_name(h) if occupant_name is not None else None
            if who:
                return False, f"Hex {h} is occupied by {who}."
            return False, f"Hex {h} is occupied."
        prev = h
    return True, ""


def _measure(
    origin: Hex,
    candidates: Iterable[Hex],
    passable: Passable,
    blocked: Container[Hex],
    by: str,
) -> dict[Hex, int]:
    cands = list(dict.fromkeys(candidates))
    if by == "distance":
        return {c: distance(origin, c) for c in cands}
    if by != "path":
        raise ValueError('by must be "path" or "distance"')
    cost, _ = _bfs(origin, passable, blocked, enter_blocked=True)
    return {c: cost[c] for c in cands if c in cost}


def closest(
    origin: Hex,
    candidates: Iterable[Hex],
    passable: Passable,
    blocked: Container[Hex] = frozenset(),
    by: str = "path",
) -> list[Hex]:
    """The candidates nearest to ``origin``, all ties returned, sorted by ``(q, r)``.

    ``by="path"`` (the game's meaning of closest) counts the hexes of the
    shortest route: the route avoids non-passable hexes and ``blocked`` hexes,
    but a candidate may itself be blocked (a unit's own hex can be measured
    to).  Unreachable candidates are left out; if none is reachable the result
    is empty.  Pass ``blocked=()`` to measure range-style, ignoring units.
    ``by="distance"`` uses the straight hex count instead.

    The rules let the party break ties; the caller chooses from the list (the
    sorted order gives a deterministic default: the first item).
    """
    d = _measure(origin, candidates, passable, blocked, by)
    if not d:
        return []
    best = min(d.values())
    return sorted(h for h, v in d.items() if v == best)


def farthest(
    origin: Hex,
    candidates: Iterable[Hex],
    passable: Passable,
    blocked: Container[Hex] = frozenset(),
    by: str = "path",
) -> list[Hex]:
    """Like :func:`closest` but the candidates with the longest route (or distance).

    Unreachable candidates are left out rather than counted as infinitely far.
    """
    d = _measure(origin, candidates, passable, blocked, by)
    if not d:
        return []
    worst = max(d.values())
    return sorted(h for h, v in d.items() if v == worst)


def toward(
    start: Hex,
    target: Hex,
    steps: int,
    passable: Passable,
    blocked: Container[Hex] = frozenset(),
) -> list[Hex]:
    """The hexes a unit in ``start`` enters when told to move ``steps`` toward ``target``.

    The unit heads for the hex it can get to (through passable, unblocked
    hexes) that is closest to ``target``, closeness being :func:`route_distance`
    to the target (units ignored, impassable hexes avoided).  If the target
    hex is free that is the target itself; if it holds a unit, a hex next to
    it.  Among equally close hexes the one with the fewest moves wins, then the
    one found first by the search (E, NE, NW, W, SW, SE order).  The unit then
    follows :func:`shortest_path` to it, stopping after ``steps`` moves or on
    arrival.  It never moves away: if no reachable hex is closer than
    ``start``, the result is ``[]``.  If the target cannot be reached even
    ignoring units, closeness falls back to straight distance.

    The rules let the party pick among equal routes; this is the default pick.
    """
    if steps <= 0 or start == target:
        return []
    ok = _as_predicate(passable)
    # closeness of every hex to the target: route ignoring units, impassable avoided
    from_target, _ = _bfs(target, ok, frozenset())
    use_route = start in from_target

    def closeness(h: Hex) -> int:
        if use_route:
            return from_target.get(h, 1 << 30)
        return distance(h, target)

    cost, parent = _bfs(start, ok, blocked)
    best = start
    best_key = (closeness(start), 0)
    for h, c in cost.items():  # insertion order = search order, so ties keep the first
        key = (closeness(h), c)
        if key < best_key:
            best, best_key = h, key
    if best == start:
        return []
    return _walk_back(parent, best)[:steps]


# --------------------------------------------------------------------------- #
# Layout: hexes <-> pixels
# --------------------------------------------------------------------------- #


class Point(NamedTuple):
    """A position on the picture, in pixels (x right, y down)."""

    x: float
    y: float


@dataclass(frozen=True)
class Orientation:
    """Forward (``f``) and inverse (``b``) matrices plus the first corner's angle."""

    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float  # in multiples of 60 degrees


_R3 = math.sqrt(3.0)
#: Pointy-top hexes (the Hexpost convention).
POINTY = Orientation(_R3, _R3 / 2.0, 0.0, 3.0 / 2.0, _R3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5)
#: Flat-top hexes (provided for completeness; Hexpost maps are pointy-top).
FLAT = Orientation(3.0 / 2.0, 0.0, _R3 / 2.0, _R3, 2.0 / 3.0, 0.0, -1.0 / 3.0, _R3 / 3.0, 0.0)


@dataclass(frozen=True)
class Layout:
    """How hexes are drawn: orientation, hex size (centre to corner, x and y) and
    the pixel position of hex ``0,0``'s centre."""

    orientation: Orientation = POINTY
    size: Point = Point(32.0, 32.0)
    origin: Point = Point(0.0, 0.0)

    def hex_to_pixel(self, h: Hex) -> Point:
        """Centre of ``h`` in pixels."""
        m = self.orientation
        x = (m.f0 * h.q + m.f1 * h.r) * self.size.x
        y = (m.f2 * h.q + m.f3 * h.r) * self.size.y
        return Point(x + self.origin.x, y + self.origin.y)

    def pixel_to_fractional(self, p: Point | tuple[float, float]) -> tuple[float, float]:
        """Fractional axial ``(q, r)`` under pixel ``p``."""
        m = self.orientation
        px = (p[0] - self.origin.x) / self.size.x
        py = (p[1] - self.origin.y) / self.size.y
        return m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py

    def pixel_to_hex(self, p: Point | tuple[float, float]) -> Hex:
        """The hex containing pixel ``p`` (rounded to the nearest hex)."""
        return hex_round(*self.pixel_to_fractional(p))

    def corner_offset(self, corner: int) -> Point:
        """Offset of corner ``corner`` (0..5) from a hex centre."""
        angle = 2.0 * math.pi * (self.orientation.start_angle + corner) / 6.0
        return Point(self.size.x * math.cos(angle), self.size.y * math.sin(angle))

    def hex_corners(self, h: Hex) -> list[Point]:
        """The six corners of ``h`` in pixels, going clockwise on the picture.

        For pointy-top hexes corner 0 is the lower-right one (30 degrees below
        east), followed by the bottom corner.
        """
        c = self.hex_to_pixel(h)
        out = []
        for i in range(6):
            o = self.corner_offset(i)
            out.append(Point(c.x + o.x, c.y + o.y))
        return out


def hex_to_pixel(layout: Layout, h: Hex) -> Point:
    """Centre of ``h`` in pixels under ``layout``."""
    return layout.hex_to_pixel(h)


def pixel_to_hex(layout: Layout, p: Point | tuple[float, float]) -> Hex:
    """The hex containing pixel ``p`` under ``layout``."""
    return layout.pixel_to_hex(p)


def hex_corners(layout: Layout, h: Hex) -> list[Point]:
    """The six corners of ``h`` in pixels under ``layout``."""
    return layout.hex_corners(h)
