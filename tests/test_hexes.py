"""Unit tests for engine.hexes: geometry, tiles, sight and movement searches."""
from __future__ import annotations

import ast
import pathlib

import pytest

from engine.hexes import (
    DIRECTIONS,
    FLAT,
    Hex,
    Layout,
    Point,
    closest,
    distance,
    farthest,
    hex_corners,
    hex_to_pixel,
    hexes_within,
    in_sight,
    label,
    line,
    line_clear,
    neighbours,
    parse_label,
    path_is_legal,
    pixel_to_hex,
    place_tile,
    reachable,
    ring,
    rotate,
    route_distance,
    shortest_path,
    spiral,
    tiles_adjacent,
    adjacent_tiles,
    toward,
    translate,
)

O = Hex(0, 0)


def H(text: str) -> Hex:
    return Hex.parse(text)


def board(radius: int = 4) -> set[Hex]:
    return hexes_within(O, radius)


# --------------------------------------------------------------------------- text


def test_str_and_parse_round_trip():
    h = Hex(2, -1)
    assert str(h) == "2,-1"
    assert Hex.parse("2,-1") == h
    assert Hex.parse(str(Hex(-13, 7))) == Hex(-13, 7)
    assert h.s == -1


@pytest.mark.parametrize("text", ["2,-1", "2, -1", " 2 -1 ", "(2, -1)", "(2,-1)", "+2,-1"])
def test_parse_label_accepts_forms(text):
    assert parse_label(text) == Hex(2, -1)
    assert label(Hex(2, -1)) == "2,-1"


@pytest.mark.parametrize("text", ["", "B3", "2", "2,", "1,2,3", "a,b", "2.5,1", "((1,2))", "1;2"])
def test_parse_label_rejects_junk_with_expected_form(text):
    with pytest.raises(ValueError) as err:
        parse_label(text)
    assert '"q,r"' in str(err.value)


def test_hex_is_hashable_and_ordered():
    assert len({Hex(1, 2), Hex(1, 2), Hex(2, 1)}) == 2
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]
    assert Hex(1, 2) + Hex(3, -1) == Hex(4, 1)
    assert Hex(1, 2) - Hex(3, -1) == Hex(-2, 3)
    assert Hex(1, -2) * 3 == Hex(3, -6)


# --------------------------------------------------------------------------- geometry


def test_distance_examples():
    assert distance(O, O) == 0
    assert distance(O, Hex(3, 0)) == 3
    assert distance(O, Hex(2, -1)) == 2
    assert distance(Hex(-1, 2), Hex(2, -2)) == 4
    assert distance(Hex(1, 1), Hex(-1, -1)) == 4


def test_neighbour_order_is_e_ne_nw_w_sw_se():
    assert neighbours(O) == [Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)]
    assert list(DIRECTIONS) == neighbours(O)
    assert all(distance(Hex(3, -2), n) == 1 for n in neighbours(Hex(3, -2)))


@pytest.mark.parametrize("radius", range(0, 6))
def test_ring_sizes_and_distances(radius):
    c = Hex(2, -3)
    hexes = ring(c, radius)
    assert len(hexes) == (1 if radius == 0 else 6 * radius)
    assert len(set(hexes)) == len(hexes)
    assert all(distance(c, h) == radius for h in hexes)
    # consecutive ring hexes are adjacent (walking around the ring)
    if radius:
        for a, b in zip(hexes, hexes[1:] + hexes[:1]):
            assert distance(a, b) == 1


def test_spiral_and_within_agree():
    for n in range(5):
        sp = spiral(O, n)
        assert len(sp) == 1 + 3 * n * (n + 1)
        assert set(sp) == hexes_within(O, n)
        assert sp[0] == O


def test_rotation_clockwise_and_six_is_identity():
    assert rotate(Hex(1, 0), 1) == Hex(0, 1)  # E -> SE
    assert rotate(Hex(0, 1), 1) == Hex(-1, 1)  # SE -> SW
    assert rotate(Hex(1, 0), -1) == Hex(1, -1)  # E -> NE counter-clockwise
    h = Hex(3, -1)
    assert rotate(h, 6) == h
    r = h
    for _ in range(6):
        r = rotate(r, 1)
    assert r == h
    assert rotate(h, 3) == Hex(-3, 1)


def test_place_tile_rotates_then_translates():
    tile = {O, Hex(1, 0), Hex(0, 1)}
    placed = place_tile(tile, Hex(5, -2), 1)
    assert placed == {Hex(5, -2), Hex(5, -1), Hex(4, -1)}
    assert place_tile(tile, O, 0) == tile
    printed = {O: "entrance", Hex(1, 0): "enemy 1"}
    assert place_tile(printed, Hex(1, 1), 3) == {Hex(1, 1): "entrance", Hex(0, 1): "enemy 1"}
    assert translate(Hex(1, 2), Hex(-3, 1)) == Hex(-2, 3)


def test_line_examples():
    assert line(O, O) == [O]
    assert line(O, Hex(3, 0)) == [O, Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    # along an edge: the nudge picks the same side every time
    assert line(O, Hex(2, -1)) == [O, Hex(1, 0), Hex(2, -1)]
    assert line(O, Hex(2, -1)) == line(O, Hex(2, -1))
    l = line(Hex(-2, 3), Hex(3, -1))
    assert len(l) == distance(Hex(-2, 3), Hex(3, -1)) + 1


def test_line_clear_blocked_in_middle_and_generous_on_edges():
    m = board()
    assert line_clear(O, Hex(3, 0), set(), m)
    assert not line_clear(O, Hex(3, 0), {Hex(1, 0)}, m)
    assert line_clear(O, Hex(3, 0), {Hex(3, 0), O}, m)  # end hexes never block
    # the 0,0 -> 2,-1 line runs along the edge between 1,0 and 1,-1
    assert line_clear(O, Hex(2, -1), {Hex(1, 0)}, m)
    assert line_clear(O, Hex(2, -1), {Hex(1, -1)}, m)
    assert not line_clear(O, Hex(2, -1), {Hex(1, 0), Hex(1, -1)}, m)
    # off the map in between blocks
    assert not line_clear(O, Hex(3, 0), set(), m - {Hex(2, 0)})


# --------------------------------------------------------------------------- sight (tiles)


def two_tiles_and_a_far_one():
    a = {h: "entrance" for h in hexes_within(O, 1)}
    b = {h: "clash" for h in place_tile(hexes_within(O, 1), Hex(3, -1))}
    c = {h: "far" for h in place_tile(hexes_within(O, 1), Hex(9, 0))}
    return {**a, **b, **c}


def test_in_sight_same_or_adjacent_tile():
    tiles = two_tiles_and_a_far_one()
    assert tiles_adjacent("entrance", "clash", tiles)
    assert not tiles_adjacent("entrance", "far", tiles)
    assert adjacent_tiles(tiles) == {"entrance": {"clash"}, "clash": {"entrance"}, "far": set()}
    assert in_sight(Hex(-1, 0), Hex(1, -1), tiles)  # same tile
    assert in_sight(Hex(-1, 0), Hex(4, -1), tiles)  # adjacent tile, far end
    assert not in_sight(O, Hex(9, 0), tiles)
    assert in_sight(Hex(9, 0), Hex(9, 0), tiles)  # always sees itself
    assert not in_sight(O, Hex(20, 0), tiles)  # off the map


def test_units_between_do_not_block_sight():
    tiles = two_tiles_and_a_far_one()
    # nothing about the hexes in between is an input: a wall of units is irrelevant
    assert in_sight(Hex(-1, 0), Hex(4, -1), tiles)


# --------------------------------------------------------------------------- movement

def test_reachable_costs_and_budget():
    m = board(3)
    r = reachable(O, 1, m)
    assert set(r) == {O, *neighbours(O)}
    assert r[O] == 0 and all(r[n] == 1 for n in neighbours(O))
    r2 = reachable(O, 2, m, blocked={Hex(1, 0)})
    assert Hex(1, 0) not in r2
    assert Hex(2, 0) not in r2  # would need 3 moves around the blocker
    assert r2[Hex(2, -1)] == 2


def test_reachable_start_in_blocked_is_fine_and_off_map_not_passable():
    m = {O, Hex(1, 0)}
    assert reachable(O, 5, m, blocked={O}) == {O: 0, Hex(1, 0): 1}
    assert reachable(O, 5, lambda h: h in m) == {O: 0, Hex(1, 0): 1}


def test_shortest_path_around_wall():
    m = board(4)
    impassable = {Hex(1, r) for r in range(-4, 3)}  # column q=1 from the top down to r=2
    passable = m - impassable
    goal = Hex(2, 0)
    path = shortest_path(O, goal, passable)
    assert path is not None
    assert path[-1] == goal
    assert not set(path) & impassable
    assert all(distance(a, b) == 1 for a, b in zip([O] + path, path))
    # the only way is round the bottom end of the wall at 1,3 / 0,3
    assert Hex(1, 3) in path or Hex(0, 3) in path
    assert len(path) == reachable(O, 20, passable)[goal]


def test_shortest_path_around_units_and_unreachable():
    m = board(2)
    blocked = set(neighbours(Hex(2, -1))) & m  # ring the goal with units
    assert shortest_path(O, Hex(2, -1), m, blocked) is None
    assert shortest_path(O, Hex(1, 0), m, blocked) is None  # goal itself occupied
    assert shortest_path(O, Hex(1, 0), m, blocked, allow_blocked_goal=True) == [Hex(1, 0)]
    assert shortest_path(O, O, m) == []
    assert shortest_path(O, Hex(9, 9), m) is None  # off the map


def test_shortest_path_tie_break_is_neighbour_order():
    m = board(3)
    # 0,0 -> 1,1 has two routes: via 1,0 (E first) or via 0,1 (SE); E comes first
    assert shortest_path(O, Hex(1, 1), m) == [Hex(1, 0), Hex(1, 1)]


def test_route_distance_ignores_units_but_not_impassable():
    m = board(3)
    assert route_distance(O, Hex(2, 0), m, ()) == 2
    wall = {Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(0, -1)}
    assert route_distance(O, Hex(2, 0), m - wall) > 2
    assert route_distance(O, Hex(2, 0), m, blocked=wall) > 2
    assert route_distance(O, Hex(1, 0), m, blocked=wall) == 1  # measured to an occupied hex
    assert route_distance(O, Hex(1, 0), m - {Hex(1, 0)}) is None


# --------------------------------------------------------------------------- legality


def test_path_is_legal_messages():
    m = board(3)
    units = {Hex(1, 0): "Skeleton", Hex(0, 1): None}
    blocked = set(units)
    name = units.get
    imp = {Hex(-1, 0)}
    passable = m - imp

    def check(path, steps=3):
        return path_is_legal(O, path, passable, blocked, steps, occupant_name=name, impassable=imp)

    assert check([Hex(1, -1), Hex(2, -1)]) == (True, "")
    assert check([]) == (True, "")
    assert check([Hex(1, 0)]) == (False, "Hex 1,0 is occupied by Skeleton.")
    assert check([Hex(0, 1)]) == (False, "Hex 0,1 is occupied.")
    assert check([Hex(-1, 0)]) == (False, "Hex -1,0 is impassable.")
    assert check([Hex(2, -1)]) == (False, "Hex 2,-1 is not next to 0,0.")
    assert check([Hex(0, -1), Hex(0, -2), Hex(0, -3), Hex(0, -4)], steps=9) == (False, "Hex 0,-4 is off the map.")
    ok, why = check([Hex(1, -1), Hex(2, -1), Hex(3, -1), Hex(3, -2)])
    assert not ok and why == "That move is 4 hexes long but only 3 are allowed."
    assert path_is_legal(O, [Hex(1, 0), Hex(2, 0)], m, set(), 1)[1] == "That move is 2 hexes long but only 1 is allowed."
    # without names or impassable set the messages still read well
    assert path_is_legal(O, [Hex(1, 0)], m, {Hex(1, 0)}) == (False, "Hex 1,0 is occupied.")
    assert path_is_legal(O, [Hex(-1, 0)], passable) == (False, "Hex -1,0 is off the map.")


# --------------------------------------------------------------------------- closest / farthest / toward


def test_closest_uses_route_not_straight_line():
    m = board(4)
    wall = {Hex(1, r) for r in range(-4, 3)}
    passable = m - wall
    near_but_walled = Hex(2, 0)  # straight distance 2, route much longer
    open_side = Hex(-3, 0)  # straight distance 3, route 3
    assert closest(O, [near_but_walled, open_side], passable) == [open_side]
    assert closest(O, [near_but_walled, open_side], passable, by="distance") == [near_but_walled]
    assert farthest(O, [near_but_walled, open_side], passable) == [near_but_walled]


def test_closest_returns_all_ties_sorted_and_skips_unreachable():
    m = board(3)
    c = [Hex(0, 2), Hex(2, 0), Hex(-2, 0), Hex(1, 1)]
    assert closest(O, c, m) == [Hex(-2, 0), Hex(0, 2), Hex(1, 1), Hex(2, 0)]
    assert closest(O, [Hex(9, 9)], m) == []
    assert farthest(O, [], m) == []
    with pytest.raises(ValueError):
        closest(O, c, m, by="smell")


def test_closest_candidate_may_be_occupied_but_route_may_not():
    m = board(3)
    units = {Hex(2, 0), Hex(1, 0)}
    # 2,0 is the unit measured to; 1,0 in front of it forces a detour
    assert route_distance(O, Hex(2, 0), m, units) == 3
    assert closest(O, [Hex(2, 0), Hex(-2, 0)], m, units) == [Hex(-2, 0)]
    assert closest(O, [Hex(2, 0), Hex(-2, 0)], m, ()) == [Hex(-2, 0), Hex(2, 0)]


def test_toward_stops_next_to_an_occupied_target():
    m = board(4)
    target = Hex(3, 0)
    path = toward(O, target, 5, m, blocked={target})
    assert path == [Hex(1, 0), Hex(2, 0)]
    assert toward(O, target, 1, m, blocked={target}) == [Hex(1, 0)]
    assert toward(O, Hex(3, 0), 5, m) == [Hex(1, 0), Hex(2, 0), Hex(3, 0)]  # free hex: enter it
    assert toward(O, O, 3, m) == []
    assert toward(O, target, 0, m) == []


def test_toward_goes_round_a_wall_and_never_backwards():
    m = board(4)
    wall = {Hex(1, r) for r in range(-4, 3)}
    passable = m - wall
    target = Hex(3, 0)
    path = toward(O, target, 2, passable)
    full = shortest_path(O, target, passable)
    assert path == full[:2]
    # boxed in by units: nothing closer is reachable, so it stays put
    blocked = set(neighbours(O))
    assert toward(O, target, 3, m, blocked) == []


def test_toward_unreachable_target_gets_as_close_as_possible():
    m = board(4)
    fence = set(ring(Hex(3, 0), 1)) & m  # target fenced in by units
    path = toward(O, Hex(3, 0), 10, m, blocked=fence)
    end = path[-1]
    assert distance(end, Hex(3, 0)) == 2
    assert not set(path) & fence


# --------------------------------------------------------------------------- layout


def test_layout_pointy_centres_and_corners():
    lay = Layout(size=Point(10, 10), origin=Point(100, 50))
    assert hex_to_pixel(lay, O) == Point(100, 50)
    p = hex_to_pixel(lay, Hex(1, 0))
    assert p.x == pytest.approx(100 + 10 * 3 ** 0.5) and p.y == pytest.approx(50)
    p = hex_to_pixel(lay, Hex(0, 1))
    assert p.x == pytest.approx(100 + 5 * 3 ** 0.5) and p.y == pytest.approx(65)
    corners = hex_corners(lay, O)
    assert len(corners) == 6
    assert corners[1].x == pytest.approx(100) and corners[1].y == pytest.approx(60)  # bottom point
    assert corners[4].x == pytest.approx(100) and corners[4].y == pytest.approx(40)  # top point
    for c in corners:
        assert ((c.x - 100) ** 2 + (c.y - 50) ** 2) ** 0.5 == pytest.approx(10)


def test_pixel_to_hex_rounds_inside_the_hex():
    lay = Layout(size=Point(20, 20), origin=Point(0, 0))
    for h in spiral(O, 3):
        c = hex_to_pixel(lay, h)
        assert pixel_to_hex(lay, c) == h
        assert pixel_to_hex(lay, (c.x + 7, c.y - 6)) == h
    flat = Layout(FLAT, Point(10, 10), Point(0, 0))
    assert flat.pixel_to_hex(flat.hex_to_pixel(Hex(2, -3))) == Hex(2, -3)


def test_module_is_pure_python():
    src = pathlib.Path(__file__).resolve().parents[1] / "engine" / "hexes.py"
    tree = ast.parse(src.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    assert names <= {"__future__", "math", "re", "collections", "dataclasses", "typing"}


def test_odd_r_drawings_convert_both_ways():
    from engine.hexes import Hex, from_odd_r, to_odd_r

    # a tile drawing's rows: odd rows sit half a hex to the right
    assert [from_odd_r(c, 0) for c in range(3)] == [Hex(0, 0), Hex(1, 0), Hex(2, 0)]
    assert [from_odd_r(c, 1) for c in range(3)] == [Hex(0, 1), Hex(1, 1), Hex(2, 1)]
    assert [from_odd_r(c, 2) for c in range(3)] == [Hex(-1, 2), Hex(0, 2), Hex(1, 2)]
    for r in range(-5, 6):
        for c in range(-5, 6):
            assert to_odd_r(from_odd_r(c, r)) == (c, r)
    # the first hex of an odd row touches the first two of the row above
    assert {from_odd_r(0, 0), from_odd_r(1, 0)} <= set(neighbours(from_odd_r(0, 1)))
