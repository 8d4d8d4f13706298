"""Issue 26 item 7 (part): a route's destination may be named by part of a town's or landmark's name when that
names one place, and a route barred by a closed town names the town."""
from __future__ import annotations

import pytest

from engine.core import RuleError
from rulesets.tes.content import load_pack
from rulesets.tes.overland import geo


def test_a_part_of_a_name_that_names_one_place_is_taken_and_one_that_names_two_is_refused():
    prov = load_pack("starter").provinces["saltmire"]
    tollan = geo.Hex(*prov.hex_of_town(next(t for t, town in prov.towns.items() if town.name == "Cairn Tollan")))
    assert geo.find_place(prov, "tollan") == tollan  # a part of "Cairn Tollan"
    heron = next(geo.Hex(*hx) for hx, f in prov.features.items() if f[1] == "The Heron Pools")
    assert geo.find_place(prov, "Heron") == heron  # a part of a named landmark
    with pytest.raises(RuleError, match="more than one place.*The Heron Pools.*The Weir Stones"):
        geo.find_place(prov, "the")  # "The Heron Pools", "The Weir Stones": name one in full
    with pytest.raises(RuleError, match="is not a hex"):
        geo.find_place(prov, "zzqq")


def test_a_route_barred_by_a_closed_town_names_it():
    from types import SimpleNamespace

    prov = load_pack("starter").provinces["saltmire"]
    tid, town = next(iter(prov.towns.items()))
    s = SimpleNamespace(closed=[tid])
    hexes = [geo.Hex(q, r) for (q, r) in prov.hexes]
    orig_path = geo.shortest_path
    try:
        geo.shortest_path = lambda *a, **k: None  # nothing gets through (the closed town stands in the way)
        orig_here = geo.here
        geo.here = lambda _s: hexes[0]
        goal = next(h for h in hexes if prov.town_at((h.q, h.r)) is None)
        with pytest.raises(RuleError, match=f"{town.name} is closed and the way through it is barred"):
            geo.route_to(prov, s, goal)
    finally:
        geo.shortest_path = orig_path
        geo.here = orig_here
