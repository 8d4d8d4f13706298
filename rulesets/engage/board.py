"""The battlefield's geometry: heights, ledges and ladders, line of sight, base contact and routes.

One hex is one inch.  Hex arithmetic, lines and neighbours come from ``engine.hexes``; what is this game's own
is here:

* **Steps.** A step to a neighbouring hex of the same height costs 1 inch.  Across a ladder it costs 1 inch plus
  the height climbed or descended.  Down a ledge without a ladder is a Jump Down (1 inch, an Agility check, only
  for a unit that can Jump Down and only when the Jump Down checks were declared; at most the pack's
  ``max_drop`` inches, onto a free hex).  Up a ledge without a ladder is not possible.  Walls are never entered.
* **Units.** Enemies block.  Allies may be moved through but not stopped on.
* **Sight** is a straight line (``engine.hexes.line_clear``): walls block it, and so does ground higher than
  both ends.  Units never block sight.
* **Base contact**: two units on neighbouring hexes of the same height.  A ledge between them keeps them apart.
* **Routes** are the cheapest in inches; among equally short routes the one through the fewest allies, then with
  the fewest Jump Downs, then the first found (neighbours in the engine's E, NE, NW, W, SW, SE order).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Iterable

from engine.hexes import DIRECTIONS, Hex, line_clear, neighbours

WALK, LADDER, JUMP = "walk", "ladder", "jump"


class Board:
    """The map of a pack, with the questions the rules ask of it."""

    def __init__(self, battle_map, max_drop: int):
        self.map = battle_map
        self.heights: dict[Hex, int] = battle_map.heights
        self.walls = battle_map.walls
        self.ladders = battle_map.ladders
        self.max_drop = max_drop

    # ------------------------------------------------------------ places --
    def on_map(self, h: Hex) -> bool:
        return h in self.heights or h in self.walls

    def open(self, h: Hex) -> bool:
        """A hex a unit may stand in (on the map, not a wall)."""
        return h in self.heights

    def height(self, h: Hex) -> int:
        return self.heights.get(h, 0)

    def ladder(self, a: Hex, b: Hex) -> bool:
        return frozenset((a, b)) in self.ladders

    def step(self, a: Hex, b: Hex, *, jump: bool) -> tuple[int, str] | None:
        """(inches, kind) of a step from ``a`` to its neighbour ``b``, or None when it can't be made."""
        if b not in self.heights:
            return None
        ha, hb = self.heights[a], self.heights[b]
        if ha == hb:
            return 1, WALK
        if self.ladder(a, b):
            return 1 + abs(ha - hb), LADDER
        if hb < ha and jump and ha - hb <= self.max_drop:
            return 1, JUMP
        return None

    def contact(self, a: Hex, b: Hex) -> bool:
        """Base contact: neighbours on the same height."""
        return b in neighbours(a) and a in self.heights and b in self.heights and self.heights[a] == self.heights[b]

    # ------------------------------------------------------------- sight --
    def sees(self, a: Hex, b: Hex) -> bool:
        """Line of sight from ``a`` to ``b``: no wall, and no ground higher than both ends, on the line."""
        top = max(self.height(a), self.height(b))
        heights, walls = self.heights, self.walls

        class _Blocking:
            def __contains__(self, h: Hex) -> bool:
                return h in walls or heights.get(h, 0) > top

        return line_clear(a, b, _Blocking(), self)

    def __contains__(self, h: Hex) -> bool:  # the map's hexes, for engine.hexes.line_clear
        return self.on_map(h)

    # ------------------------------------------------------------ routes --
    def straight(self, start: Hex, steps: int) -> list[tuple[Hex, list[Hex]]]:
        """Where a unit in ``start`` gets moving 1 to ``steps`` hexes in a straight line on its own level:
        (the hex, the hexes entered)."""
        out = []
        for d in DIRECTIONS:
            line: list[Hex] = []
            here = start
            for _ in range(steps):
                here = Hex(here.q + d.q, here.r + d.r)
                if here not in self.heights or self.heights[here] != self.heights.get(start):
                    break
                line.append(here)
                out.append((here, list(line)))
        return out


@dataclass
class Route:
    """A route: the hexes entered (the start left out), the kind of each step, its cost."""

    start: Hex
    hexes: list[Hex]
    kinds: list[str]
    inches: int
    allies: int = 0  # allies moved through
    room: bool = False  # ends on the target's own hex, which makes room for it (see rules.engage)
    costs: list[int] = field(default_factory=list)  # inches of each step

    @property
    def end(self) -> Hex:
        return self.hexes[-1] if self.hexes else self.start

    @property
    def jumps(self) -> list[int]:
        return [i for i, k in enumerate(self.kinds) if k == JUMP]

    def text(self) -> str:
        return " ".join(str(h) for h in self.hexes)


def search(board: Board, start: Hex, goals: Iterable[Hex], *, enemies: set[Hex], allies: set[Hex], jump: bool,
           room: Iterable[Hex] = ()) -> Route | None:
    """The cheapest route from ``start`` to a free hex of ``goals``, or into a hex of ``room`` (a target's own hex,
    entered only by a ladder or a Jump Down).  None when there is none."""
    goals = set(goals)
    room = set(room)
    best: dict[Hex, tuple] = {start: (0, 0, 0)}
    parent: dict[Hex, tuple[Hex, str, int] | None] = {start: None}
    heap: list[tuple] = [((0, 0, 0), 0, start)]
    seq = 0
    found: list[tuple] = []  # (cost, order, hex, room?)
    done: set[Hex] = set()
    while heap:
        cost, _, here = heapq.heappop(heap)
        if here in done or cost != best.get(here):
            continue
        done.add(here)
        if here != start and here in goals and here not in allies:
            found.append((cost, 0, seq, here, False))
            break
        for n in neighbours(here):
            st = board.step(here, n, jump=jump)
            if st is None:
                continue
            inches, kind = st
            if n in room and kind in (LADDER, JUMP):
                c = (cost[0] + inches, cost[1], cost[2] + (kind == JUMP))
                seq += 1
                found.append((c, 1, seq, n, True, here, kind, inches))
                continue
            if n in enemies:
                continue
            if kind == JUMP and n in allies:
                continue  # a Jump Down lands on a free hex
            c = (cost[0] + inches, cost[1] + (n in allies), cost[2] + (kind == JUMP))
            if n not in best or c < best[n]:
                best[n] = c
                parent[n] = (here, kind, inches)
                seq += 1
                heapq.heappush(heap, (c, seq, n))
    if not found:
        return None
    pick = min(found, key=lambda f: (f[0], f[1], f[2]))
    if pick[4]:  # into the target's hex
        c, _o, _s, target, _r, prev, kind, inches = pick
        route = _walk_back(start, prev, parent)
        route.hexes.append(target)
        route.kinds.append(kind)
        route.costs.append(inches)
        route.inches = c[0]
        route.allies = c[1]
        route.room = True
        return route
    c, _o, _s, goal, _r = pick
    route = _walk_back(start, goal, parent)
    route.inches, route.allies = c[0], c[1]
    return route


def _walk_back(start: Hex, goal: Hex, parent) -> Route:
    hexes, kinds, costs = [], [], []
    h = goal
    while parent[h] is not None:
        prev, kind, inches = parent[h]
        hexes.append(h)
        kinds.append(kind)
        costs.append(inches)
        h = prev
    hexes.reverse()
    kinds.reverse()
    costs.reverse()
    return Route(start, hexes, kinds, sum(costs), costs=costs)


def measure(board: Board, start: Hex, hexes: list[Hex], *, enemies: set[Hex], allies: set[Hex], jump: bool,
            room: Iterable[Hex] = ()) -> tuple[Route | None, str]:
    """A route a player wrote hex by hex: the Route, or None and the reason it can't be taken."""
    room = set(room)
    kinds, costs = [], []
    prev = start
    passed = 0
    for i, h in enumerate(hexes):
        if h not in neighbours(prev):
            return None, f"{h} is not next to {prev}."
        if not board.on_map(h):
            return None, f"{h} is off the map."
        if h in board.walls:
            return None, f"{h} is a wall."
        st = board.step(prev, h, jump=jump)
        last = i == len(hexes) - 1
        if st is None:
            if board.height(h) > board.height(prev):
                return None, f"from {prev} up to {h} is a ledge with no ladder."
            if not jump and board.height(h) < board.height(prev):
                return None, f"from {prev} down to {h} is a Jump Down, and none was declared (jump:yes)."
            return None, f"from {prev} down to {h} is a drop of more than {board.max_drop} in."
        inches, kind = st
        if h in room and last:
            if kind not in (LADDER, JUMP):
                return None, f"{h} is the target's own hex."
        elif h in enemies:
            return None, f"{h} holds an enemy."
        elif kind == JUMP and h in allies:
            return None, f"a Jump Down can't land on an ally ({h})."
        if h in allies:
            passed += 1
        kinds.append(kind)
        costs.append(inches)
        prev = h
    return Route(start, list(hexes), kinds, sum(costs), passed, bool(hexes) and hexes[-1] in room, costs), ""


_BOARDS: dict[int, tuple[object, Board]] = {}


def board_of(pack) -> Board:
    """The Board of a loaded pack (kept while the pack object lives)."""
    kept = _BOARDS.get(id(pack))
    if kept is None or kept[0] is not pack:
        kept = (pack, Board(pack.map, pack.max_drop))
        _BOARDS[id(pack)] = kept
        if len(_BOARDS) > 16:
            _BOARDS.pop(next(iter(_BOARDS)))
    return kept[1]
