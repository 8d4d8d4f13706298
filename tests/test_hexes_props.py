"""Property tests for engine.hexes."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hexes import (
    Hex,
    Layout,
    Point,
    distance,
    hexes_within,
    line,
    neighbours,
    parse_label,
    pixel_to_hex,
    hex_to_pixel,
    reachable,
    ring,
    rotate,
    shortest_path,
    toward,
)

coord = st.integers(min_value=-30, max_value=30)
hexes = st.builds(Hex, coord, coord)
small = st.builds(Hex, st.integers(-4, 4), st.integers(-4, 4)).filter(lambda h: distance(h, Hex(0, 0)) <= 4)
BOARD = hexes_within(Hex(0, 0), 4)


@given(hexes, hexes)
def test_distance_symmetric_and_zero_iff_equal(a, b):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) >= 0


@given(hexes, hexes, hexes)
def test_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbours_at_distance_one(h):
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)


@given(hexes)
def test_label_round_trip(h):
    assert parse_label(str(h)) == h
    assert parse_label(f"({h.q}, {h.r})") == h
    assert parse_label(f"{h.q} {h.r}") == h


@given(hexes, st.integers(-12, 12))
def test_rotate_preserves_distance_from_origin(h, k):
    o = Hex(0, 0)
    assert distance(o, rotate(h, k)) == distance(o, h)
    assert rotate(rotate(h, k), -k) == h
    assert rotate(h, 6) == h


@given(hexes, hexes, st.integers(-6, 6))
def test_rotate_preserves_distance_between_hexes(a, b, k):
    assert distance(rotate(a, k), rotate(b, k)) == distance(a, b)


@given(hexes, hexes)
def test_line_length_and_adjacency(a, b):
    l = line(a, b)
    assert len(l) == distance(a, b) + 1
    assert l[0] == a and l[-1] == b
    assert all(distance(x, y) == 1 for x, y in zip(l, l[1:]))


@given(hexes, st.integers(0, 6))
def test_ring_size(c, r):
    rg = ring(c, r)
    assert len(rg) == (6 * r if r else 1)
    assert all(distance(c, h) == r for h in rg)


@given(hexes, st.floats(1, 100), st.floats(1, 100), st.floats(-500, 500), st.floats(-500, 500))
def test_pixel_round_trip(h, sx, sy, ox, oy):
    lay = Layout(size=Point(sx, sy), origin=Point(ox, oy))
    assert pixel_to_hex(lay, hex_to_pixel(lay, h)) == h


walls = st.sets(small, max_size=25)


@settings(max_examples=150)
@given(small, small, walls, walls)
def test_shortest_path_matches_bfs_and_avoids_blocked(start, goal, impassable, units):
    passable = BOARD - impassable
    blocked = units - {start}
    path = shortest_path(start, goal, passable, blocked)
    costs = reachable(start, 100, passable, blocked)
    if start == goal:
        assert path == []
        return
    if path is None:
        assert goal not in costs
        return
    assert len(path) == costs[goal]
    assert path[-1] == goal
    assert not set(path) & blocked
    assert set(path) <= passable
    assert all(distance(x, y) == 1 for x, y in zip([start] + path, path))


@settings(max_examples=100)
@given(small, small, walls, walls, st.integers(0, 6))
def test_toward_is_a_legal_move(start, target, impassable, units, steps):
    passable = BOARD - impassable
    blocked = units - {start}
    path = toward(start, target, steps, passable, blocked)
    assert len(path) <= steps
    assert not set(path) & blocked
    assert set(path) <= passable
    assert all(distance(x, y) == 1 for x, y in zip([start] + path, path))
    assert len(set(path)) == len(path)
