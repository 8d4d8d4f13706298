"""Dungeon battles (rulebook pp.80-85): the Dungeon Setup Example on the starter pack's Drowned Gaol, cages and
their locks, enemy chips fighting as companions, never a chip twice, and the dungeon's special rules."""
from __future__ import annotations

import pytest
from battle_helpers import ctx, party, run, texts

from engine.core import RuleError
from engine.hexes import Hex, distance
from rulesets.tes.battle import pool
from rulesets.tes.battle.model import CAPTIVE
from rulesets.tes.content import load_pack

PACK = load_pack("starter")


def rolls(wanted: list[str], taken: set[str]) -> list[int]:
    """Forced dice that draw these enemies one after another (each from its bag sorted by chip id)."""
    out = []
    taken = set(taken)
    for eid in wanted:
        e = PACK.enemies[eid]
        bag = sorted({x.chip for x in PACK.enemies.values() if not x.quest_unit and x.level == e.level
                      and x.province in (None, "SM") and x.chip not in taken})
        out.append(bag.index(e.chip) + 1)
        taken.add(e.chip)
    return out


NUMBERED = ["argonian-behemoth", "marsh-ogre", "redguard-bandit", "hackwing"]
FREE = ["imperial-bandit", "mudcrab"]
STARS = ["breton-archmage", "wamasu", "wood-elf-bandit", "orc-bandit"]


def setup_example():
    """Josh and Melonie's party at the Drowned Gaol (our Blackrose Prison): 2 adventurers, Adept, the first
    session's end-of-session pool (32)."""
    s = party(difficulty="adept")
    taken = {PACK.enemies[x].chip for x in ("high-elf-necromancer", "high-elf-marauder", "nord-marauder")}
    forced = rolls(NUMBERED + FREE + STARS, taken)
    return run(s, "battle.start", "S", {"encounter": "gaol-riot", "session": 1, "hexes": {"S": "-4,0", "R": "-4,1"}},
               forced=forced)


def test_dungeon_setup_example():
    s, ev = setup_example()
    b = s.battle
    t = texts(ev)
    d = PACK.dungeons["drowned-gaol"]
    c = ctx(s)
    # 1. every tile placed as the diagram shows; the dungeon's own marks (not the tiles' icons)
    assert b.dungeon == "drowned-gaol" and b.mode == "dungeon"
    assert set(c.map.tile_of.values()) == {p.tile for p in d.tiles}
    assert c.map.doors == frozenset() and c.map.stars == frozenset(Hex(*h) for h in d.stars)
    assert Hex(0, 0) in c.map.impassable  # the well
    # 2. the cache chips in the diagram's cache hexes (3 common)
    from rulesets.tes.battle.lockpick import caches_left
    assert sorted(caches_left(c).values()) == ["common"] * 3
    units = {u.id: u for u in b.units.values()}
    by_enemy = {u.enemy: u for u in units.values()}
    # 3. the quest unit in hex A with no HP chips, the named level 10 in hex B with its full HP; neither costs pool
    zirik = by_enemy["saltmire-informant"]
    assert (zirik.q, zirik.r) == d.labels["A"] and zirik.side == CAPTIVE and zirik.hp == 0
    necro = by_enemy["high-elf-necromancer"]
    assert (necro.q, necro.r) == d.labels["B"] and necro.hp == necro.max_hp == 11 and necro.side == "enemy"
    # 4. the end-of-session pool 32 fills the numbered hexes: 20 + 10 + 1 + 1, then free level 1 draws until 6
    assert "Enemy pool 32 for the numbered hexes (32 spent)" in t
    for n, eid in enumerate(NUMBERED + FREE, 1):
        u = by_enemy[eid]
        assert (u.q, u.r) == d.slots[n] and u.side == "enemy" and u.hp == u.max_hp, (n, eid)
    assert "Free level 1 draws until 6 numbered hexes are filled" in t
    # 5. a second pool of 32 for the star hexes, one per cell before a second, deployed without HP chips
    cells = {}
    for eid in STARS:
        u = by_enemy[eid]
        assert Hex(u.q, u.r) in c.map.stars and u.side == CAPTIVE and u.hp == 0
        cells[c.map.tile_of[Hex(u.q, u.r)]] = eid
    assert cells == {"shrine-6b": "breton-archmage", "alcove-3a": "wamasu", "niche-3b": "wood-elf-bandit",
                     "hollow-3c": "orc-bandit"}
    assert (by_enemy["breton-archmage"].q, by_enemy["breton-archmage"].r) == (0, -5)  # the 6-hex cell's first star
    # 6. the adventurers on the entrance tile; 7. the two sellswords (enemy chips) as companions, after them
    assert (units["a:S"].q, units["a:S"].r) == (-4, 0) and (units["a:R"].q, units["a:R"].r) == (-4, 1)
    allies = [u for u in units.values() if u.side == "companion"]
    assert sorted(u.enemy for u in allies) == ["high-elf-marauder", "nord-marauder"]
    assert all(c.map.tile_of[Hex(u.q, u.r)] == "delve-entrance" for u in allies)
    assert t.index("Turn order") > t.index("fights for the party")
    # 8. round 1; never one chip twice
    assert b.round == 1
    chips = [PACK.enemies[u.enemy].chip for u in units.values() if u.enemy]
    assert len(chips) == len(set(chips))
    assert "🏰 The Drowned Gaol:" in t


def test_caged_units_take_no_turn_and_nobody_targets_them():
    s, _ = setup_example()
    c = ctx(s)
    caged = [u for u in s.battle.units.values() if u.side == CAPTIVE]
    assert caged and all(u not in c.units() for u in caged)
    assert c.occupant(Hex(caged[0].q, caged[0].r)).id == caged[0].id  # it fills its hex
    from rulesets.tes.battle.enemy import turn_order
    assert not set(turn_order(c)) & {u.id for u in caged}
    with pytest.raises(RuleError, match="is caged: it has no HP chips and nobody may target it"):
        run(s, "battle.engage", "S", {"dice": [["combat", 1]], "target": [caged[0].q, caged[0].r]})


def test_an_adventurer_next_to_a_cage_picks_its_lock_and_the_prisoner_fights_for_them():
    s, _ = setup_example()
    b = s.battle
    wamasu = next(u for u in b.units.values() if u.enemy == "wamasu")  # the western cell, at -2,-2
    c = ctx(s)
    spot = next(h for h in c.map.passable if distance(h, Hex(wamasu.q, wamasu.r)) == 1 and c.occupant(h) is None
                and distance(h, Hex(0, -3)) > 1)
    b.units["a:S"].q, b.units["a:S"].r = spot.q, spot.r
    with pytest.raises(RuleError, match="Saltmire Informant's cage is in hex 0,-3; move next to it first"):
        run(s, "battle.free", "S", {"unit": "Saltmire Informant"})
    s, ev = run(s, "battle.free", "S", {"unit": "Wamasu"}, forced=[4, 4, 2])
    t = texts(ev)
    assert "picks the lock of Wamasu's cage" in t and "Code {*4-4-2*} with 3 attempts" in t
    s, ev = run(s, "battle.lockpick", "S", {})
    t = texts(ev)
    w = s.battle.units[wamasu.id]
    assert "opens the cage" in t and w.side == "companion" and w.hp == w.max_hp == 12 and w.controller == "S"
    with pytest.raises(RuleError, match="once per turn"):
        run(s, "battle.free", "S", {})
    # it takes its turn with the companions, after the adventurers
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R")
    assert "Wamasu's turn (companion of Shannon)" in texts(ev)


def test_a_cage_that_holds_keeps_its_prisoner():
    s, _ = setup_example()
    b = s.battle
    orc = next(u for u in b.units.values() if u.enemy == "orc-bandit")
    c = ctx(s)
    spot = next(h for h in c.map.passable if distance(h, Hex(orc.q, orc.r)) == 1 and c.occupant(h) is None)
    b.units["a:S"].q, b.units["a:S"].r = spot.q, spot.r
    s, _ = run(s, "battle.free", "S", {}, forced=[1, 1, 1])
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s, ev = run(s, "battle.lockpick", "S", {})
    assert "The cage holds" in texts(ev) and s.battle.units[orc.id].side == CAPTIVE


def test_no_cages_outside_a_caged_dungeon():
    s = party()
    s, _ = run(s, "battle.start", "S", {"encounter": "brinehollow-caves"})
    with pytest.raises(RuleError, match="no cages in this battle"):
        run(s, "battle.free", "S", {})


def test_an_ally_chip_is_never_drawn_into_the_pools():
    for seed in range(1, 25):
        s = party(difficulty="expert")
        s.seed = seed
        s, _ = run(s, "battle.start", "S", {"encounter": "gaol-riot", "session": 3})
        chips = [PACK.enemies[u.enemy].chip for u in s.battle.units.values() if u.enemy]
        assert len(chips) == len(set(chips)), seed


def test_the_chips_suffice_for_the_biggest_pools():
    """The biggest pool (session 3, expert, 4 adventurers: 152) for 6 numbered hexes and again for 5 star hexes,
    with the named units and the allies, never runs a bag dry."""
    levels = pool.plan_levels(152, 6) + pool.plan_levels(152, 5)
    need = {"1/5": 2 + 2, "10/20": 1}  # fill draws, the allies; the named Necromancer
    for lv in levels:
        need[pool.BAG_OF_LEVEL[lv] if hasattr(pool, "BAG_OF_LEVEL") else ("1/5" if lv < 10 else "10/20")] += 1
    for bag, n in need.items():
        chips = {e.chip for e in PACK.enemies.values() if e.bag == bag and e.province in (None, "SM")}
        assert len(chips) >= n, (bag, len(chips), n)
