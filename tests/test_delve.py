"""Delve battles (rulebook pp.74-80, 86): exploring, placing tiles, the enemy pool per tile, caches, skyshards,
traps, Survey and Uncover, the cleanup, refusals, the prompts and their time-outs, and replays."""
from __future__ import annotations

import pytest
from battle_helpers import ctx, run, texts
from delve_helpers import PACK, chip_roll, delve, on_top, open_hexes, tiles_first

from engine.core import RuleError
from engine.hexes import Hex, neighbours
from rulesets.tes.battle.delve_map import explorable, placements
from rulesets.tes.rules.battle_prompts import open_prompt


def explored_first(s, card="mildew-hollow", tile="alcove-3a", pick=None, who="S", **kw):
    """Shannon (on 1,0) explores the entrance: ``card`` reveals ``tile``; choices take their defaults."""
    on_top(s, card)
    tiles_first(s, PACK.tiles[tile].shape, tile)
    s, ev = run(s, "battle.explore", who, kw.get("args", {}))
    evs = list(ev)
    while s.battle.choices:
        s, ev = run(s, "battle.choose", s.battle.choices[0].owner, {"option": 1})
        evs += ev
    ex = s.battle.delve.exploring
    if ex is not None and ex.stage == "place":
        s, ev = run(s, "battle.place", who, {"place": pick or ex.default}, forced=kw.get("forced"))
        evs += ev
    return s, evs


def clear_enemies(s):
    for u in s.battle.units.values():
        if u.side == "enemy":
            u.defeated, u.q, u.r = True, None, None


# ------------------------------------------------------------------ explore --
def test_explore_action_reaches_an_explorable_hex_in_sight_within_stamina_once_per_turn():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    s, _ = explored_first(s, forced=[1])
    clear_enemies(s)
    far = [h for h in open_hexes(s)]
    assert len(far) == 1
    target = far[0]
    s, _ = run(s, "battle.endturn", "S")  # Ryan's turn: he stands on the entrance, the new door is 2 away
    dist = ctx(s).range_to(Hex(1, 1), target)
    assert dist <= s.adventurers["R"].stat("stamina")
    on_top(s, "forgotten-storeroom")
    s, ev = run(s, "battle.explore", "R", {"at": [target.q, target.r]})
    assert "Ryan takes the explore action on hex" in texts(ev)
    assert s.battle.turn.explored
    if s.battle.delve.exploring is not None:
        s, _ = run(s, "battle.place", "R", {"place": 1}, forced=[1] * 8)
    # the explore action rules out a move action this turn (free movement still works)
    with pytest.raises(RuleError, match="took the explore action this turn"):
        run(s, "battle.move", "R", {"to": [0, 1]})
    # and it is once per turn
    open_ = open_hexes(s)
    if open_:
        with pytest.raises(RuleError, match="once per turn"):
            run(s, "battle.explore", "R", {"at": [open_[0].q, open_[0].r]})


def test_no_explore_action_after_a_move_action_and_only_explorable_hexes():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    s, _ = run(s, "battle.move", "S", {"to": [0, 0]})
    with pytest.raises(RuleError, match="move action this turn"):
        run(s, "battle.explore", "S", {"at": [1, 1]})
    with pytest.raises(RuleError, match="not explorable. Explorable hexes: 1,0, 1,1"):
        run(s, "battle.explore", "S", {"at": [0, 2]})
    with pytest.raises(RuleError, match="does not stand on an explorable hex"):
        run(s, "battle.explore", "S", {})


def test_explore_action_out_of_reach_is_refused_with_the_distance():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    s, _ = explored_first(s, forced=[1])
    clear_enemies(s)
    target = open_hexes(s)[0]
    s.battle.units["a:R"].q, s.battle.units["a:R"].r = 0, 2
    s.adventurers["R"].rows[1].squares = [None] * 6  # no stamina tokens beyond the circle
    s, _ = run(s, "battle.endturn", "S")
    stamina = s.adventurers["R"].stat("stamina")
    dist = ctx(s).range_to(Hex(0, 2), target)
    if dist > stamina:
        with pytest.raises(RuleError, match="reaches as far as your Stamina"):
            run(s, "battle.explore", "R", {"at": [target.q, target.r]})


def test_moving_into_an_explorable_hex_lets_you_explore_and_the_move_goes_on():
    s, _ = delve(hexes={"S": "0,0", "R": "0,2"})
    assert "explorable" not in texts([]) and s.battle.turn.explore_here is None
    s, ev = run(s, "battle.move", "S", {"to": [1, 0]})
    assert "Shannon moves into explorable hex 1,0" in texts(ev)
    assert s.battle.turn.explore_here == [1, 0] and s.battle.turn.explore_left == 2
    s, ev = explored_first(s, forced=[1])
    t = texts(ev)
    assert "Shannon explores hex 1,0" in t and "may still move 2 hexes of it" in t
    assert s.battle.turn.free_move == 2 and not s.battle.turn.explored


def test_another_action_gives_up_exploring_the_hex_you_moved_into():
    s, _ = delve(hexes={"S": "0,0", "R": "0,2"})
    s, _ = run(s, "battle.move", "S", {"to": [1, 0]})
    s, _ = run(s, "battle.engage", "S", {"dice": [["combat", 1]]}, forced=[1])
    s, _ = run(s, "battle.resolve", "S", {})
    assert s.battle.turn.explore_here is None
    # the explore action is still there, but not after the move action
    with pytest.raises(RuleError, match="move action this turn"):
        run(s, "battle.explore", "S", {})


def test_no_tile_of_the_shape_left_turns_the_card_into_a_skyshard():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    s.battle.delve.stacks["19"] = []
    on_top(s, "echoing-vault")
    s, ev = run(s, "battle.explore", "S", {})
    t = texts(ev)
    d = s.battle.delve
    assert "No 19-hex tile is left" in t and "counts as a skyshard: 1/3" in t
    assert d.facedown == ["echoing-vault"] and d.gained == 1 and d.drawn == 1
    assert s.battle.map_version == 0 and Hex(1, 0) in open_hexes(s)
    assert s.battle.turn.explore_here is None  # to explore it again by standing there: out and back in
    # another exploration of it now is her explore action (distance 0), once this turn
    on_top(s, "stale-air")
    s, ev = run(s, "battle.explore", "S", {})
    assert "Shannon takes the explore action on hex 1,0" in texts(ev) and s.battle.turn.explored


def test_a_tile_that_cannot_connect_is_discarded_and_goes_under_its_stack():
    """The first tile must connect next to both entrance doors: with that hex already covered, nothing fits."""
    from rulesets.tes.battle.model import place_tile

    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    c = ctx(s)
    doors = {Hex(1, 0), Hex(1, 1)}
    done = False
    for rot in range(6):  # a tile over hex 2,0 whose door is next to neither entrance door
        for q in range(-1, 4):
            for r in range(-2, 3):
                try:
                    c = ctx(s)
                    from rulesets.tes.battle.delve_map import tile_hexes
                    placed = tile_hexes(PACK.tiles["niche-3b"], Hex(q, r), rot)
                    if Hex(2, 0) not in placed["hexes"] or any(h in c.map.tile_of for h in placed["hexes"]):
                        continue
                    if any(any(n in doors for n in neighbours(d)) for d in placed["doors"]):
                        continue
                    place_tile(c, "niche-3b", (q, r), rot)
                    done = True
                    break
                except RuleError:
                    continue
            if done:
                break
        if done:
            break
    assert done
    s.battle.delve.stacks["3"].remove("niche-3b")
    assert Hex(1, 0) in open_hexes(s)
    on_top(s, "stale-air")
    stack = list(s.battle.delve.stacks["3"])
    s, ev = run(s, "battle.explore", "S", {})
    t = texts(ev)
    d = s.battle.delve
    assert "cannot be connected at hex 1,0" in t and "discarded unresolved" in t
    assert "stale-air" in d.discard and d.stacks["3"] == stack[1:] + stack[:1] and d.exploring is None
    assert Hex(1, 0) in open_hexes(s) and s.battle.turn.explore_here is None
    assert s.battle.map_version == 1  # only the test's tile


def test_placement_prompt_and_its_time_out_use_the_suggested_placement():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    on_top(s, "forgotten-storeroom")
    tiles_first(s, 6, "shrine-6b")
    s, ev = run(s, "battle.explore", "S", {})
    ex = s.battle.delve.exploring
    p = open_prompt(s)
    assert p.kind == "place" and p.owner == "S" and p.default == str(ex.default)
    assert len(p.options) == len(ex.options) and p.timeout_action == "battle.place-timeout"
    # nothing else happens while the tile waits
    with pytest.raises(RuleError, match="where the new tile goes"):
        run(s, "battle.endturn", "S")
    with pytest.raises(RuleError, match="from 1 to"):
        run(s, "battle.place", "S", {"place": 99})
    with pytest.raises(RuleError, match="or the party leader"):
        run(s, "battle.place", "R", {"place": 1})
    s, ev = run(s, "battle.place-timeout", "S", {"ask": p.id}, forced=[1] * 6)
    t = texts(ev)
    assert "Nobody chose where the tile goes" in t and f"placement {ex.default} of" in t
    assert s.battle.delve.exploring is None and s.battle.map_version == 1
    with pytest.raises(RuleError, match="already placed"):
        run(s, "battle.place-timeout", "S", {"ask": p.id})


def test_the_leader_may_place_for_the_explorer():
    s, _ = delve(first="R", hexes={"R": "1,0", "S": "1,1"})
    on_top(s, "forgotten-storeroom")
    s, _ = run(s, "battle.explore", "R", {})
    s, ev = run(s, "battle.place", "S", {"place": 2}, forced=[1] * 6)
    assert "placement 2 of" in texts(ev)


# ------------------------------------------------------------- populating --
def test_enemies_by_the_challenge_scale_within_the_tile_pool_farthest_first():
    # 2 adventurers, XP dial 3: EP 6; Forgotten Storeroom's 2-adventurer row is [1, 1]
    s, _ = delve(xp=3, hexes={"S": "1,0", "R": "1,1"})
    s, ev = explored_first(s, card="forgotten-storeroom", tile="passage-6a", forced=[1, 1])
    t = texts(ev)
    b = s.battle
    foes = [u for u in b.units.values() if u.side == "enemy"]
    assert [u.level for u in foes] == [1, 1] and "enemy pool 6, scale 1, 1" in t
    c = ctx(s)
    at = Hex(1, 0)
    spots = [h for h in c.map.enemy_spots if c.map.tile_of[h] == "passage-6a"]
    dist = sorted((c.range_to(at, h) for h in spots), reverse=True)
    assert [c.range_to(at, Hex(u.q, u.r)) for u in foes] == dist[:2]  # the farthest enemy hexes first
    # its common cache goes on the tile's cache hex
    assert list(b.caches.values()) == ["common"]


def test_a_printed_level_above_the_pool_becomes_the_highest_level_that_fits():
    # Drowned Armory: 2 adventurers draw one enemy of at most level 5; XP dial 2: EP 4 -> level 1
    s, _ = delve(xp=2, hexes={"S": "1,0", "R": "1,1"})
    s, ev = explored_first(s, card="drowned-armory", tile="chamber-7a", forced=[1])
    assert [u.level for u in s.battle.units.values() if u.side == "enemy"] == [1]
    assert "level 1, up to 5" in texts(ev)
    # XP dial 3: EP 6 -> level 5
    s, _ = delve(xp=3, hexes={"S": "1,0", "R": "1,1"})
    s, ev = explored_first(s, card="drowned-armory", tile="chamber-7a", forced=[1])
    assert [u.level for u in s.battle.units.values() if u.side == "enemy"] == [5]


def test_enemies_stop_when_the_tile_has_no_enemy_hex_left_and_caches_when_it_has_no_cache_hex():
    # Smuggler's Nook: 4 adventurers draw [1, 1] and 2 common caches; the Collapsed Alcove has one hex that is
    # both its only enemy hex and its only cache hex
    s, _ = delve(xp=20, hexes={"S": "1,0", "R": "1,1"})
    s.battle.order = ["S", "R"]
    on_top(s, "crab-midden")
    s.battle.delve.stacks["6"] = []
    s.battle.delve.deck.remove("smugglers-nook")
    s.battle.delve.deck.insert(0, "smugglers-nook")
    tiles_first(s, 3, "alcove-3a")
    s, ev = run(s, "battle.explore", "S", {})
    ex = s.battle.delve.exploring
    if ex is not None:
        s, ev = run(s, "battle.place", "S", {"place": ex.default}, forced=[1])
    t = texts(ev)
    assert len(s.battle.caches) == 1 and "1 more on the card find no cache hex" in t
    assert len([u for u in s.battle.units.values() if u.side == "enemy"]) == 1


def test_legendary_caches_go_first_to_the_farthest_cache_hex():
    s, _ = delve(xp=1, hexes={"S": "1,0", "R": "1,1"})
    s.battle.delve.stacks["19"] = ["cistern-19"]
    s, _ = explored_first(s, card="echoing-vault", tile="cistern-19", forced=[1, 1, 1])
    c = ctx(s)
    at = Hex(1, 0)
    kinds = {Hex(*map(int, k.split(","))): v for k, v in s.battle.caches.items()}
    assert sorted(kinds.values()) == ["common", "legendary"]
    leg = next(h for h, v in kinds.items() if v == "legendary")
    com = next(h for h, v in kinds.items() if v == "common")
    assert c.range_to(at, leg) >= c.range_to(at, com)
    spots = [h for h in c.map.cache_spots if c.map.tile_of[h] == "cistern-19"]
    assert c.range_to(at, leg) == max(c.range_to(at, h) for h in spots)


# ---------------------------------------------------------------- skyshards --
def test_skyshards_are_gained_by_moving_onto_the_tile_with_the_numbered_effect():
    s, _ = delve(xp=1, hexes={"S": "1,0", "R": "1,1"})
    s, _ = explored_first(s, card="skyshard-grotto", tile="pool-7c", forced=[1])
    clear_enemies(s)
    b = s.battle
    assert b.delve.cards["pool-7c"].shards == 1 and b.delve.gained == 0
    c = ctx(s)
    into = min((h for h in c.map.passable if c.map.tile_of[h] == "pool-7c" and c.occupant(h) is None),
               key=lambda h: (c.range_to(Hex(1, 0), h), h.q, h.r))
    before = s.adventurers["S"].tenacity
    s, ev = run(s, "battle.move", "S", {"to": [into.q, into.r]})
    t = texts(ev)
    assert "Shannon gains the skyshard of Skyshard Grotto: 1/3 skyshards" in t
    assert "Skyshard Grotto (skyshard 1): Gain 1 tenacity." in t
    assert s.adventurers["S"].tenacity == before + 1 and s.battle.delve.gained == 1
    assert s.battle.delve.cards["pool-7c"].shards == 0


def test_skyshards_beyond_the_requirement_are_ignored():
    s, _ = delve(xp=1, hexes={"S": "1,0", "R": "1,1"})
    s.battle.delve.gained = 2
    s.battle.delve.stacks["19"] = ["cistern-19"]
    s, _ = explored_first(s, card="echoing-vault", tile="cistern-19", forced=[1, 1, 1])
    clear_enemies(s)
    c = ctx(s)
    into = min((h for h in c.map.passable if c.map.tile_of[h] == "cistern-19" and c.occupant(h) is None),
               key=lambda h: (c.range_to(Hex(1, 0), h), h.q, h.r))
    s, ev = run(s, "battle.move", "S", {"to": [into.q, into.r]})
    t = texts(ev)
    assert "3/3 skyshards (1 more than needed, ignored)" in t and s.battle.delve.gained == 3
    assert "Echoing Vault (skyshard 3)" in t  # the effect for the party's new total


def test_all_skyshards_drawn_leaves_no_hex_explorable():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    s.battle.delve.drawn = 2
    s, ev = explored_first(s, forced=[1])
    assert "Every skyshard of the delve has been drawn (3)" in texts(ev)
    assert open_hexes(s) == []
    s, _ = run(s, "battle.endturn", "S")
    with pytest.raises(RuleError, match="fully explored"):
        run(s, "battle.explore", "R", {"at": [3, 0]})


# --------------------------------------------------------------------- traps --
def trapped(card="tidewater-gate", tile="den-6c"):
    s, _ = delve(xp=1, hexes={"S": "1,0", "R": "1,1"})
    s, _ = explored_first(s, card=card, tile=tile, forced=[1])
    clear_enemies(s)
    return s


def test_a_trap_stops_the_move_in_the_first_hex_of_its_tile_and_its_check_comes_first():
    s = trapped()
    assert s.battle.delve.cards["den-6c"].trap
    c = ctx(s)
    inside = sorted((h for h in c.map.passable if c.map.tile_of[h] == "den-6c"),
                    key=lambda h: (-c.range_to(Hex(1, 0), h), h.q, h.r))
    far = inside[0]
    path = [h for h in __import__("engine.hexes", fromlist=["shortest_path"]).shortest_path(
        Hex(1, 0), far, c.map.passable, c.occupied("a:S"))]
    first = next(h for h in path if c.map.tile_of[h] == "den-6c")
    s, ev = run(s, "battle.move", "S", {"path": [[h.q, h.r] for h in path]}, forced=[1, 1, 1])
    t = texts(ev)
    u = s.battle.units["a:S"]
    assert (u.q, u.r) == (first.q, first.r)  # stopped where the trap triggered
    assert "triggers the trap {*Tide Gate*}" in t and "Code {*4-5-2*} with 2 attempts" in t
    lp = s.battle.lockpick
    assert lp.kind == "trap" and lp.code == [4, 5, 2] and lp.attempts == 2
    with pytest.raises(RuleError, match="lockpick"):
        run(s, "battle.endturn", "S")
    # fail both attempts: the trap's effect (2 damage and 1 light fatigue) on Shannon only
    hp, rhp = s.adventurers["S"].hp, s.adventurers["R"].hp
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s, ev = run(s, "battle.lockpick", "S", {})
    t = texts(ev)
    assert "fails to disarm the trap" in t and "Tide Gate: The gate floods the room" in t
    assert s.adventurers["S"].hp == hp - 2 and s.adventurers["R"].hp == rhp
    assert s.battle.delve.cards.get("den-6c") is None or not s.battle.delve.cards["den-6c"].trap
    left = len(path) - path.index(first) - 1
    assert s.battle.turn.free_move == 3 - (path.index(first) + 1)
    # inactive now: walking on does not trigger it again
    s, ev = run(s, "battle.move", "S", {"free": True, "to": [path[path.index(first) + 1].q,
                                                                path[path.index(first) + 1].r]})
    assert "trap" not in texts(ev).lower() and left >= 1


def test_a_disarmed_trap_with_a_fail_effect_does_nothing_and_a_success_effect_works():
    s = trapped()
    c = ctx(s)
    first = min((h for h in c.map.passable if c.map.tile_of[h] == "den-6c"), key=lambda h: c.range_to(Hex(1, 0), h))
    s, _ = run(s, "battle.move", "S", {"to": [first.q, first.r]}, forced=[4, 5, 2])
    s, ev = run(s, "battle.lockpick", "S", {})
    t = texts(ev)
    assert "disarms the trap" in t and "inactive now; its effect does not work" in t
    # Smuggler's Nook works on success
    s = trapped(card="smugglers-nook", tile="niche-3b")
    c = ctx(s)
    first = min((h for h in c.map.passable if c.map.tile_of[h] == "niche-3b"), key=lambda h: c.range_to(Hex(1, 0), h))
    before = s.adventurers["S"].tenacity
    s, _ = run(s, "battle.move", "S", {"to": [first.q, first.r]}, forced=[4, 4, 6])
    s, ev = run(s, "battle.lockpick", "S", {})
    assert "Rigged Lid: You disarm" in texts(ev) and s.adventurers["S"].tenacity == before + 1


def test_enemies_and_companions_never_trigger_traps():
    s = trapped()
    c = ctx(s)
    hexes = [h for h in c.map.passable if c.map.tile_of[h] == "den-6c"]
    foe = next(u for u in s.battle.units.values() if u.side == "enemy")
    from rulesets.tes.battle import moves
    assert not any(f(c, c.unit(foe.id), hexes[0]) for f in moves.STOP)


# ------------------------------------------------------------ environments --
def test_environment_at_the_end_of_your_turn_on_its_tile():
    s, _ = delve(xp=1, hexes={"S": "1,0", "R": "1,1"})
    s, _ = explored_first(s, card="stale-air", tile="hollow-3c", forced=[1])
    clear_enemies(s)
    c = ctx(s)
    into = min((h for h in c.map.passable if c.map.tile_of[h] == "hollow-3c" and c.occupant(h) is None),
               key=lambda h: c.range_to(Hex(1, 0), h))
    s, _ = run(s, "battle.move", "S", {"to": [into.q, into.r]})
    light = sum(1 for e in s.adventurers["S"].cooldown if e.get("fatigue") == "light")
    s, ev = run(s, "battle.endturn", "S")
    assert "Stale Air: The air here is thin" in texts(ev)
    assert sum(1 for e in s.adventurers["S"].cooldown if e.get("fatigue") == "light") == light + 1


# ------------------------------------------------------------ objectives --
def end_round(s):
    no = s.battle.round
    ev = []
    while s.battle is not None and s.battle.round == no:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner)
    return s, ev


def test_survey_is_won_at_the_end_of_the_round_the_skyshards_are_gained():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    s.battle.delve.gained = 3
    s, ev = end_round(s)
    assert s.battle is None and s.last_battle.outcome == "victory"
    assert s.last_battle.skyshards == 3 and s.last_battle.skyshard_xp is None and s.last_battle.mode == "delve"
    assert "The delve is taken apart" in texts(ev)


@pytest.mark.parametrize("gained,outcome,xp", [(3, "victory", 3), (1, "retreat", 1)])
def test_uncover_is_won_by_retreating_with_every_skyshard_and_pays_skyshard_xp(gained, outcome, xp):
    s, _ = delve("sunken-vaults", hexes={"S": "1,0", "R": "1,1"})
    s.battle.delve.gained = gained
    s, _ = run(s, "battle.retreat", "S")
    s, ev = end_round(s)
    assert s.last_battle.outcome == outcome and s.last_battle.skyshard_xp == xp
    assert f"They are worth {xp} XP in the Reward Phase" in texts(ev)
    if outcome == "victory":
        assert "retreats with every skyshard" in texts(ev)


def test_uncover_without_retreat_goes_on_and_a_full_defeat_pays_no_xp():
    s, _ = delve("sunken-vaults", hexes={"S": "1,0", "R": "1,1"})
    s.battle.delve.gained = 3
    s, _ = end_round(s)
    assert s.battle is not None  # Uncover: the party must retreat once it has the skyshards
    s.battle.delve.gained = 2
    for o in ("S", "R"):
        s.battle.units[f"a:{o}"].defeated = True
    s, ev = end_round(s)
    assert s.last_battle.outcome == "defeat" and s.last_battle.skyshard_xp == 0


# --------------------------------------------------------------- refusals --
def test_explore_outside_a_delve_is_refused_plainly():
    from battle_helpers import jailbreak, party
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    with pytest.raises(RuleError, match="Only a delve has hexes to explore"):
        run(s, "battle.explore", "S", {})
    with pytest.raises(RuleError, match="No tile is waiting"):
        run(s, "battle.place", "S", {"place": 1})
    with pytest.raises(RuleError, match="No choice is waiting"):
        run(s, "battle.choose", "S", {"option": 1})


def test_only_the_acting_adventurer_explores():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    with pytest.raises(RuleError, match="Shannon's turn"):
        run(s, "battle.explore", "R", {})


# ---------------------------------------------------------------- replay --
async def test_a_delve_played_through_the_service_replays_to_its_state(tmp_path):
    from commands.core import Table
    from commands.local import LocalTable
    from engine.service import CampaignService, replay
    from engine.store import Store

    store = await Store.open(tmp_path / "d.db")
    out: list[str] = []
    local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "out", echo=out.append, user="sam")
    try:
        lines = ["/campaign new name:Delve", "@ryan /campaign join",
                 "/adventurer create name:Shannon race:argonian line:one-hand-and-shield",
                 "@ryan /adventurer create name:Ryan race:dark-elf line:destruction-staff",
                 "/battle start encounter:brinehollow-caves deploy:\"1,0 1,1\"",
                 "/explore"]
        assert await local.run_script(lines) == 0, "\n".join(out)
        state = await local.table.service.campaign("local")
        b = state.battle
        more = []
        while b.choices:
            more.append(f"@{'sam' if b.choices[0].owner == 'sam' else 'ryan'} /battle choose option:1")
            break
        if more:
            assert await local.run_script(more) == 0, "\n".join(out)
        state = await local.table.service.campaign("local")
        if state.battle.choices:
            owner = state.battle.choices[0].owner
            assert await local.run_script([f"/as {owner}", "/battle choose option:1", "/as sam"]) == 0
        state = await local.table.service.campaign("local")
        if state.battle.delve.exploring is not None:
            assert await local.run_script(["/explore place:1"]) == 0, "\n".join(out)
        state = await local.table.service.campaign("local")
        assert state.battle.map_version == 1
        cid = await local.table.service.campaign_id("local")
        assert replay(await store.log(cid)).to_dict() == state.to_dict()
        assert any("placements" in p.name for p in local.images) or state.battle.delve.numbers
    finally:
        await store.close()
