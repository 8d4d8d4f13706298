"""Property tests over random explorations of a delve: tiles never overlap, every placed tile connects door to
door, the explorable hexes are exactly those the rules define, caches and enemies stand only on their hexes, and
no tile's enemy pool is overspent."""
from __future__ import annotations

from battle_helpers import party, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Dice
from engine.hexes import Hex, neighbours
from rulesets.tes.battle import delve as dv
from rulesets.tes.battle.model import Ctx, adv_uid
from rulesets.tes.content import load_pack
from rulesets.tes.content.tiles import place_hex

PACK = load_pack("starter")


def fresh(xp: int, n_adv: int, seed: int):
    s = party()
    s.xp_dial = xp
    s.seed = seed
    s, _ = run(s, "battle.start", "S", {"encounter": "brinehollow-caves", "hexes": {"S": "1,0", "R": "1,1"}})
    if n_adv != 2:
        s.battle.order = s.battle.order[:n_adv] if n_adv < 2 else s.battle.order + ["S"] * 0
    return s


def rule_explorable(s) -> set[Hex]:
    """The rulebook's definition, written out again: a door hex on an edge, not next to another tile's door hex,
    while not every skyshard has been drawn."""
    d = s.battle.delve
    if d.drawn >= d.required:
        return set()
    tile_of: dict[Hex, str] = {}
    doors: set[Hex] = set()
    for t in s.battle.tiles or [type("T", (), {"tile": "delve-entrance", "offset": [0, 0], "rotation": 0})]:
        from rulesets.tes.content import TilePlacement
        spot = TilePlacement(t.tile, (t.offset[0], t.offset[1]), t.rotation)
        tile = PACK.tiles[t.tile]
        for h in tile.hexes:
            tile_of[Hex(*place_hex(h, spot))] = t.tile
        doors |= {Hex(*place_hex(h, spot)) for h in tile.doors}
    out = set()
    for h in doors:
        edge = any(n not in tile_of for n in neighbours(h))
        explored = any(n in doors and tile_of[n] != tile_of[h] for n in neighbours(h))
        if edge and not explored:
            out.add(h)
    return out


def check(s, log) -> None:
    b = s.battle
    c = Ctx(s, PACK, None)
    m = c.map
    # no overlap: every tile's hexes are its own
    total = sum(len(PACK.tiles[t.tile].hexes) for t in b.tiles) if b.tiles else 5
    assert len(m.tile_of) == total
    # door to door: each delve tile has a door hex next to a door hex of a tile placed before it
    order = [t.tile for t in b.tiles]
    for i, t in enumerate(order[1:], 1):
        mine = {h for h in m.doors if m.tile_of[h] == t}
        earlier = {h for h in m.doors if m.tile_of[h] in order[:i]}
        assert any(n in earlier for h in mine for n in neighbours(h)), f"{t} does not connect door to door"
    # the first delve tile: its connecting door is next to both of the entrance's door hexes
    if len(order) > 1:
        ent = [h for h in m.doors if m.tile_of[h] == "delve-entrance"]
        first = {h for h in m.doors if m.tile_of[h] == order[1]}
        assert any(all(n in neighbours(h) for n in ent) for h in first)
    # explorable hexes, exactly
    assert set(dv.explorable(c)) == rule_explorable(s)
    # caches and enemies only on their hexes (nobody has moved: this stays one adventurer's turn)
    for k in b.caches:
        assert Hex(*map(int, k.split(","))) in m.cache_spots
    for u in b.units.values():
        if u.side == "enemy":
            assert Hex(u.q, u.r) in m.enemy_spots
    # each tile's enemies: within its pool, and each within its printed level
    for tile, spent, printed in log:
        assert sum(spent) <= dv.tile_pool(c), (tile, spent)
        assert all(lv <= p for lv, p in zip(spent, printed))


@settings(max_examples=35, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10 ** 9), xp=st.integers(1, 12), picks=st.lists(st.integers(0, 50), min_size=14,
                                                                           max_size=14))
def test_random_explorations_keep_the_delve_rules(seed, xp, picks):
    s = fresh(xp, 2, seed)
    b = s.battle
    dice = Dice(seed=seed)
    c = Ctx(s, PACK, dice)
    log = []
    for n in picks:
        open_ = dv.explorable(c)
        if not open_:
            break
        at = open_[n % len(open_)]
        u = c.unit(adv_uid("S"))
        if c.occupant(at) is None or c.occupant(at).id == u.id:
            u.q, u.r = at.q, at.r
        before = {x.id for x in b.units.values()}
        dv.start_exploration(c, "S", at, "explores", 0, False)
        while b.choices:
            dv.choose(c, b.choices[0].owner, 1 + n % len(b.choices[0].options))
        ex = b.delve.exploring
        card = PACK.delve_cards[ex.card] if ex else None
        if ex is not None:
            assert ex.stage == "place" and 1 <= ex.default <= len(ex.options)
            dv.choose_place(c, "S", 1 + n % len(ex.options))
            new = [x for x in b.units.values() if x.id not in before and x.side == "enemy"]
            log.append((ex.tile, [x.level for x in new], list(card.scale[2])))
        check(s, log)


def test_a_long_random_delve_places_every_tile_it_can():
    """With more skyshards to find than the deck holds, the delve grows until its tiles or its doors run out."""
    s = fresh(4, 2, 12345)
    b = s.battle
    b.delve.required = 9
    c = Ctx(s, PACK, Dice(seed=99))
    for i in range(40):
        open_ = dv.explorable(c)
        if not open_:
            break
        at = open_[i % len(open_)]
        c.unit(adv_uid("S")).q, c.unit(adv_uid("S")).r = at.q, at.r
        dv.start_exploration(c, "S", at, "explores", 0, False)
        while b.choices:
            dv.choose(c, b.choices[0].owner, 1)
        if b.delve.exploring is not None:
            dv.choose_place(c, "S", None)
        check(s, [])
    placed = len(b.delve.numbers)
    stacks_left = sum(len(v) for v in b.delve.stacks.values())
    assert placed + stacks_left == 10  # every delve tile is on the map or still in its stack
    assert placed >= 8 and (stacks_left == 0 or not dv.explorable(c) or b.delve.drawn >= 9)
