"""The rulebook's delve examples with forced draws and dice, on the starter pack's analogues (docs/rules-notes.md,
"Delve: the worked examples"): the Delve Setup Example, the Exploration Example and the Legendary Item Lockpick
Example in its delve setting."""
from __future__ import annotations

from battle_helpers import run, said, texts
from delve_helpers import chip_roll, delve, on_top, open_hexes, tiles_first

from engine.hexes import Hex
from rulesets.tes.battle_state import ItemDeck


def setup_example():
    """Ryan takes the first player token: he deploys to the top hex of the entrance's right column, Shannon to
    its bottom hex (both are the entrance's door hexes).  Ryan is a Sorcerer in magic form with 4 tenacity."""
    from battle_helpers import party

    s = party()
    s.xp_dial = 4
    ryan = s.adventurers["R"]
    ryan.class_id, ryan.battle_form, ryan.tenacity = "sorcerer", "magic", 4
    s.adventurers["S"].tenacity = 3
    s.adventurers["S"].ready.append("spiced-mead")
    return run(s, "battle.start", "S", {"encounter": "brinehollow-caves", "first": "R",
                                        "hexes": {"R": "1,0", "S": "1,1"}})


def test_delve_setup_example():
    s, ev = setup_example()
    b = s.battle
    t = texts(ev)
    # the entrance tile only; no cache chips, no enemies
    assert [x.tile for x in b.tiles] in ([], ["delve-entrance"]) and b.map_version == 0
    assert b.caches == {} and not [u for u in b.units.values() if u.side == "enemy"]
    assert "only the entrance tile is on the map" in t and "No caches or enemies yet" in t
    # Ryan first in the top hex of the right column, Shannon in its bottom hex: the two door hexes
    assert b.order == ["R", "S"]
    assert (b.units["a:R"].q, b.units["a:R"].r) == (1, 0) and (b.units["a:S"].q, b.units["a:S"].r) == (1, 1)
    assert set(open_hexes(s)) == {Hex(1, 0), Hex(1, 1)}
    assert b.round == 1 and "The round counter is set to 1" in t
    assert b.delve.required == 3 and len(b.delve.deck) == 27
    assert sorted(b.delve.stacks) == ["19", "3", "6", "7"] and [len(v) for v in b.delve.stacks.values()] == [3, 3, 3, 1]
    # Ryan is in magic form; Shannon is in light form already (her first turn she eats to 5 tenacity: our
    # Spiced Mead gives 2, the book's melon salad 3, so she starts with 3)
    assert s.adventurers["R"].battle_form == "magic" and s.adventurers["S"].battle_form == "light"


def test_exploration_example():
    s, ev = setup_example()
    t = texts(ev)
    # start of Ryan's turn: his Sorcerer innate (magic form) gives 1 tenacity, to 5; he stands in an explorable hex
    assert s.adventurers["R"].tenacity == 5
    assert "Ryan starts the turn in explorable hex 1,0" in t
    on_top(s, "mildew-hollow")
    tiles_first(s, 3, "alcove-3a")
    # 1. he explores the hex he started in (not an action): the card shows a 3-hex tile
    s, ev = run(s, "battle.explore", "R", {})
    t = texts(ev)
    assert "Ryan explores hex 1,0 and draws {*Mildew Hollow*} (SM-01): a 3-hex tile" in t
    assert not s.battle.turn.explored  # occupying the hex is not the explore action
    # 2a. When Revealed: each adventurer drains a Combat die or gains bane — Ryan first, then Shannon
    assert [c.owner for c in s.battle.choices] == ["R", "S"]
    combat = [d for d, v in s.adventurers["R"].dice.items() if v["line"] == "combat"]
    s, ev = run(s, "battle.choose", "R", {"option": 1})
    assert s.adventurers["R"].drained == combat[:1] and "Ryan drains" in texts(ev)
    s, ev = run(s, "battle.choose", "S", {"option": 2})
    assert [e for e in s.adventurers["S"].cooldown if e.get("status")] == [{"status": "bane"}]
    # 3. the tile connects so that one of its door hexes is next to both of the entrance's door hexes
    ex = s.battle.delve.exploring
    assert ex.stage == "place" and len(ex.options) >= 2
    s, ev = run(s, "battle.place", "R", {"place": 1}, forced=[chip_roll(s, "spriggan")])
    t = texts(ev)
    b = s.battle
    assert b.map_version == 1 and b.delve.numbers == {"alcove-3a": 1}
    door = Hex(2, 0)  # the only hex next to both entrance doors (1,0 and 1,1) off the entrance
    from battle_helpers import ctx
    c = ctx(s)
    assert c.map.tile_of[door] == "alcove-3a" and door in c.map.doors
    # 4. no caches on the card; 5. EP 8, but the 2-adventurer row of the scale is one level 1 enemy:
    # a Spriggan goes to the tile's hex with both the cache and the enemy icon
    assert b.caches == {}
    foes = [u for u in b.units.values() if u.side == "enemy"]
    assert [(u.enemy, u.level) for u in foes] == [("spriggan", 1)]
    spot = Hex(foes[0].q, foes[0].r)
    assert spot in c.map.enemy_spots and spot in c.map.cache_spots
    assert "enemy pool 8, scale 1" in t
    # 6. the card stays beside the tile: its skyshard is unclaimed
    assert b.delve.cards["alcove-3a"].shards == 1 and b.delve.drawn == 1 and b.delve.gained == 0
    # the exploration is over; the Spore Chamber's analogue has an explorable door hex Ryan may explore next
    assert b.delve.exploring is None
    new = [h for h in open_hexes(s) if c.map.tile_of[h] == "alcove-3a"]
    assert len(new) == 1
    assert set(open_hexes(s)) == set(new)  # the entrance's doors are explored now
    s, ev = run(s, "battle.explore", "R", {"at": [new[0].q, new[0].r]})
    assert "takes the explore action on" in texts(ev) and s.battle.turn.explored


def test_legendary_item_lockpick_example_in_a_delve():
    """Shannon moves into a hex with a legendary cache chip a delve card placed: code 6*-5-2-3, 4 attempts: 4 2 2,
    the 4 turned to the key 6 (2 fatigue); keep one 2; reroll the 6 and the other 2: 5 and 4; turn the 4 into a
    3 (1 fatigue): the Stormcaller Staff.  She moved 2 hexes of 3 and may move 1 more."""
    s, _ = delve(xp=2, hexes={"S": "1,0", "R": "1,1"})
    on_top(s, "sunken-reliquary")  # a 7-hex tile with a legendary cache
    tiles_first(s, 7, "chamber-7a")
    s, _ = run(s, "battle.explore", "S", {})
    ex = s.battle.delve.exploring
    if ex is not None:
        s, _ = run(s, "battle.place", "S", {"place": ex.default}, forced=[chip_roll(s, "wolf")])
    b = s.battle
    cache = [k for k, v in b.caches.items() if v == "legendary"]
    assert len(cache) == 1
    # a cache chip in a hex 2 moves away (the test clears the way)
    for u in list(b.units.values()):
        if u.side == "enemy":
            u.q = u.r = None
            u.defeated = True
    q, r = map(int, cache[0].split(","))
    from battle_helpers import ctx
    c = ctx(s)
    from engine.hexes import neighbours
    step = next(h for h in neighbours(Hex(q, r)) if h in c.map.passable and c.range_to(Hex(1, 0), h) == 1)
    s.item_decks = {"legendary": ItemDeck(draw=["stormcaller-staff", "ebony-greaves"])}
    s, ev = run(s, "battle.move", "S", {"path": [[step.q, step.r], [q, r]]})
    assert "legendary cache" in texts(ev)
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[4, 2, 2])
    assert "[6]-5-2-3" in texts(ev) and "4 attempts" in texts(ev)
    s, ev = run(s, "battle.lockpick", "S", {"adjust": "1=6", "keep": "2"}, forced=[5, 4])
    assert s.battle.lockpick.locked == [0] and s.battle.lockpick.dice == [5, 2, 4]
    s, ev = run(s, "battle.lockpick", "S", {"adjust": "3=3"})
    t = said(ev)
    assert "opens the lock" in t and "Stormcaller Staff" in t and s.adventurers["S"].ready[-1] == "stormcaller-staff"
    light = sum(1 for e in s.adventurers["S"].cooldown if e.get("fatigue") == "light")
    assert light == 3
    assert s.battle.turn.free_move == 1  # moved 2 hexes of 3
    assert cache[0] not in s.battle.caches
