"""The Engage phase (file 003 of the rule texts), sentence by sentence, with forced dice, on the standard map.

Each test names the sentence (or the row of the out-of-sight table) it plays.  The map: docs/rules-notes.md
("Engage: the battlefield"); the units: content/engage/units.toml (Reed Spear: Move 5, Run 7.5, Morale 10,
Fight 11; Mire Hulk: Fear; Gallows Wraith: Fear, Jump Down; Roof Cutter: Jump Down, Agility 15; ...).
"""
from __future__ import annotations

import pytest

from engine.prompts import open_prompt
from engage_helpers import BOB, BOARD, LENA, T0, battle, refused, run, where
from rulesets.engage.rules.battle import whose_move
from engine.hexes import Hex

HIDDEN = "-1,6"  # inside the ruined chapel: seen from none of the hexes used below


def engage(state, unit, target, *, dice=(), jump=False, path=None, by=None):
    args = {"unit": unit, "target": target, "jump": jump}
    if path:
        args["path"] = path
    return run(state, "mini.engage", args, by=by, dice=list(dice))


# ------------------------------------------------------------ who may engage --
def test_the_engage_phase_is_skipped_in_the_first_players_first_turn():
    """"This Phase is skipped during the first player's first turn of the game." """
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,4")}, number=1, phase="move")
    text = refused(g, "mini.engage", {"unit": "a1", "target": "b1"})
    assert "no Engage phase in the first player's first turn" in text
    # the second player's first turn has one, right after Upkeep
    out = run(g, "mini.end")
    assert out.state.turn.number == 2 and out.state.turn.player == BOB and out.state.turn.phase == "engage"
    assert "Turn 2 (round 1): @bob's turn. Upkeep.\nEngage phase" in out.text
    # and so does the first player's second turn
    out = run(out.state, "mini.end", by=BOB)
    assert out.state.turn.number == 3 and out.state.turn.phase == "engage"


def test_start_rolls_off_and_the_first_turn_opens_in_the_move_phase():
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,9")})
    g.phase, g.turn.number, g.order = "muster", 0, []
    out = run(g, "mini.start", dice=[7, 7, 4, 12])  # a tie rolls again
    s = out.state
    assert s.order == [BOB, LENA] and s.turn.player == BOB and s.turn.number == 1 and s.turn.phase == "move"
    assert "No Engage phase: this is the first player's first turn of the game." in out.text
    assert out.text.count("Roll-off") == 2


def test_engaging_happens_right_after_upkeep():
    """"Engaging happen immediately after the Upkeep phase." """
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,4")}, player=BOB, number=2, phase="cast")
    out = run(g, "mini.end", by=BOB)
    kinds = out.kinds()
    assert kinds[kinds.index("turn") + 1] == "phase" and out.state.turn.phase == "engage"
    assert out.events[kinds.index("turn") + 1].data["phase"] == "engage"


def test_each_unit_makes_one_attempt():
    """"All units can make one attempt to Engage during this phase" """
    g = battle({"a1": ("reed-spear", "4,1"), "a2": ("reed-spear", "5,1"), "b1": ("reed-spear", "8,0"),
                "b2": ("reed-spear", "2,0")})
    out = engage(g, "a1", "b1")
    assert out.state.units["a1"].tried and out.state.turn.phase == "engage"
    text = refused(out.state, "mini.engage", {"unit": "a1", "target": "b2"})
    assert "already made its Engage attempt this turn" in text
    out = engage(out.state, "a2", "b2")  # another unit still may
    assert out.state.units["a2"].tried


@pytest.mark.parametrize("condition", ["stunned", "dazed"])
def test_a_stunned_or_dazed_unit_cannot_engage(condition):
    """"unless they are: - Stunned - Dazed" """
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,4")}, conditions={"a1": {condition: 4}})
    text = refused(g, "mini.engage", {"unit": "a1", "target": "b1"})
    assert f"is {condition.title()}, so it can't attempt an Engage" in text


def test_a_unit_engaged_with_an_active_enemy_cannot_engage():
    """"- Already Engaged with an enemy unit that is not Stunned or Dazed" """
    g = battle({"a1": ("reed-spear", "4,2"), "b1": ("reed-spear", "4,3"), "b2": ("reed-spear", "8,0")})
    text = refused(g, "mini.engage", {"unit": "a1", "target": "b2"})
    assert "already engaged with Reed Spear 2 (b1), who is neither Stunned nor Dazed" in text


def test_a_unit_engaged_only_with_stunned_and_dazed_enemies_may_leave_to_engage_another():
    """"If a unit is only Engaged with Stunned and Dazed enemy units, they may voluntarily leave the Melee to try
    to Engage with another enemy instead." """
    g = battle({"a1": ("reed-spear", "4,2"), "b1": ("reed-spear", "4,3"), "b2": ("reed-spear", "5,2"),
                "b3": ("reed-spear", "8,0")}, conditions={"b1": {"stunned": 4}, "b2": {"dazed": 4}})
    text = refused(g, "mini.engage", {"unit": "a1", "target": "b1"})
    assert "already in base contact with Reed Spear 2 (b1): an engage is made against another enemy" in text
    out = engage(g, "a1", "b3")  # leaves the melee: ends in contact with b3 alone
    s = out.state
    assert out.state.last["result"] == "success" and BOARD.contact(Hex(*s.units["a1"].hex), Hex(8, 0))
    assert not BOARD.contact(Hex(*s.units["a1"].hex), Hex(4, 3))


# ------------------------------------------------------------ distance --
def test_in_sight_the_distance_is_the_run_speed():
    """"If your unit can see the target, the distance is equal to the unit's Run speed (ie. 1.5x the base Move
    of the unit)" -- and engaging follows the rules of Running: 7 in reached with Run 7.5, no dice rolled."""
    g = battle({"a1": ("reed-spear", "8,0"), "b1": ("reed-spear", "0,0")})
    out = engage(g, "a1", "b1")
    assert "It can see its target: the engage distance is its Run speed, 7.5 in (1.5 x Move 5)." in out.text
    assert "Path: 7,0 6,0 5,0 4,0 3,0 2,0 1,0, 7 in." in out.text
    assert where(out.state, "a1") == "1,0" and out.state.last["result"] == "success"


def test_in_sight_out_of_reach_moves_the_base_move():
    """A failed engage in sight moves only the base Move (5 in of a path of 8)."""
    g = battle({"a1": ("reed-spear", "8,1"), "b1": ("reed-spear", "0,0")})
    out = engage(g, "a1", "b1")
    assert "7.5 in is short of 8 in: the engage fails" in out.text and "its base Move, 5 in" in out.text
    assert where(out.state, "a1") == "4,0" and out.state.last["result"] == "failed"
    assert "moves 5 in to 4,0; it can't Move or Shoot this turn" in out.text


@pytest.mark.parametrize("roll,start,reach,end", [
    (1, "2,4", "2.5", "0,5"), (5, "2,4", "2.5", "0,5"),      # 1-5: 0.5 x Move reaches a 2 in path
    (6, "4,1", "5", "0,5"), (15, "4,1", "5", "0,5"),         # 6-15: 1 x Move reaches a 5 in path
    (16, "2,0", "7.5", "0,5"), (20, "2,0", "7.5", "0,5"),    # 16-20: 1.5 x Move reaches a 7 in path
])
def test_out_of_sight_table_distances(roll, start, reach, end):
    """"If your unit cannot see the target, the distance is determined by an Out-of-Sight Roll" -- each row of the
    table: the engage distance."""
    g = battle({"a1": ("reed-spear", start), "b1": ("reed-spear", HIDDEN)})
    assert not BOARD.sees(Hex(*g.units["a1"].hex), Hex(-1, 6))
    out = engage(g, "a1", "b1", dice=[roll])
    band = "1-5" if roll <= 5 else "6-15" if roll <= 15 else "16-20"
    assert f"out-of-sight roll d20 {roll} ({band}): engage distance {reach} in" in out.text
    assert out.state.last["result"] == "success" and where(out.state, "a1") in ("0,5", "0,6")


@pytest.mark.parametrize("roll,start,path,moved,end", [
    (3, "3,4", 3, 2, "1,4"),     # 1-5: fails; moves 0.5 x Move (2.5 in, so 2 hexes)
    (15, "2,1", 6, 5, None),     # 6-15: fails; moves 1 x Move
    (20, "1,0", 8, 5, None),     # 16-20: fails; moves 1 x Move, not 1.5
])
def test_out_of_sight_table_failed_engage_moves(roll, start, path, moved, end):
    """The table's 'Failed Engage Move' column, and "If the distance in Step 3 is not enough, the Engage fails.
    Move the unit toward the target via the chosen path, but only as far as the unit's base Move attribute (or
    only half of the unit's base Move attribute if a 1-5 was rolled on an Out-of-Sight Roll)." """
    g = battle({"a1": ("reed-spear", start), "b1": ("reed-spear", HIDDEN)})
    out = engage(g, "a1", "b1", dice=[roll])
    rec = out.state.last
    assert rec["inches"] == path and rec["result"] == "failed"
    assert sum(rec["costs"][:len(rec["walked"])]) == moved
    assert out.state.units["a1"].hex == tuple(rec["walked"][-1])
    if end:
        assert where(out.state, "a1") == end
    fail = "2.5" if roll <= 5 else "5"
    assert f"failed-engage move {fail} in" in out.text
    if roll <= 5:
        assert "half its base Move after a 1-5 out-of-sight roll, 2.5 in" in out.text


def test_a_failed_engage_after_a_1_to_5_roll_leaves_the_unit_exposed_and_unable_to_move_or_shoot():
    """"there is the risk that your unit may fail an Engage, moving itself only part of the way to the target" and
    "If a unit attempts to Engage, it cannot Move or Shoot, but may still Cast Spells ... regardless of whether
    the Engage is a success or failure." """
    g = battle({"a1": ("lantern-bow", "3,4"), "a2": ("hedge-witch", "3,2"), "b1": ("reed-spear", HIDDEN)})
    out = engage(g, "a1", "b1", dice=[2])
    s = out.state
    assert s.last["result"] == "failed" and where(s, "a1") == "1,4" and s.units["a1"].tried
    assert not s.units["a1"].strike_first
    s.turn.phase = "move"
    assert "can't Move or Shoot" in refused(s, "mini.move", {"unit": "a1", "to": "2,4"})
    s.turn.phase = "shoot"
    assert "can't Move or Shoot" in refused(s, "mini.shoot", {"unit": "a1", "target": "b1"})


def test_an_engager_may_still_cast():
    g = battle({"a1": ("hedge-witch", "3,4"), "b1": ("reed-spear", HIDDEN), "b2": ("bog-strider", "5,2")})
    out = engage(g, "a1", "b1", dice=[2])  # fails: moves 2 in to 1,4
    s = out.state
    s.turn.phase = "cast"
    out = run(s, "mini.cast", {"unit": "a1", "spell": "thorn-lash", "target": "b2"}, dice=[4])
    assert "Hedge Witch (a1) casts Thorn Lash on Bog Strider (b2): d20 4, needs 13 or less: it works." in out.text


# ------------------------------------------------------------ paths --
def test_the_path_moves_through_an_ally_when_that_is_shortest():
    """"if moving through an ally would be the shortest path for the chosen method of Engaging, you must move
    through that ally." """
    g = battle({"a1": ("reed-spear", "8,0"), "a2": ("reed-spear", "4,0"), "b1": ("reed-spear", "0,0")})
    out = engage(g, "a1", "b1")
    assert "Path: 7,0 6,0 5,0 4,0 3,0 2,0 1,0, 7 in, through Reed Spear 2 (a2)." in out.text
    assert where(out.state, "a1") == "1,0" and where(out.state, "a2") == "4,0"
    # going round the ally is longer: refused, naming the shortest path through it
    text = refused(g, "mini.engage", {"unit": "a1", "target": "b1",
                                      "path": "7,0 6,0 5,0 4,1 3,1 2,1 1,1 1,0"})
    assert "That path is 8 in, but the shortest is 7 in" in text and "moving through Reed Spear 2 (a2)" in text


def test_a_declared_exact_path_is_taken():
    """"declare the exact path that the unit will take" -- any shortest path the player names."""
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "3,4")})
    assert engage(g, "a1", "b1").state.last["path"] == [[3, 2], [3, 3]]  # the bot's pick of three
    out = engage(g, "a1", "b1", path="4,2 4,3")  # the player's pick
    assert out.state.last["path"] == [[4, 2], [4, 3]] and where(out.state, "a1") == "4,3"
    assert "not next to" in refused(g, "mini.engage", {"unit": "a1", "target": "b1", "path": "3,3"})
    assert "doesn't end in base contact" in refused(g, "mini.engage", {"unit": "a1", "target": "b1", "path": "4,2"})


def test_the_agility_checks_declared_are_used_to_measure():
    """"Declare what Agility Checks the unit will be making" and "Measure ... using the Agility Checks declared in
    Step 2": without Jump Down the roof is left by its ladder (5 in), with it the unit drops (1 in)."""
    g = battle({"a1": ("roof-cutter", "6,4"), "b1": ("reed-spear", "5,5")}, intercept_minutes=0)
    g.turn.phase = "engage"
    out = engage(g, "a1", "b1")
    assert "declaring no Agility checks" in out.text and "Path: 7,3 6,3 5,4, 5 in." in out.text
    out = engage(g, "a1", "b1", jump=True, dice=[9])
    assert "declaring Jump Down checks" in out.text and "Path: 5,4, 1 in, 1 Jump Down check." in out.text
    text = refused(battle({"a1": ("reed-spear", "6,4"), "b1": ("reed-spear", "5,5")}), "mini.engage",
                   {"unit": "a1", "target": "b1", "jump": True})
    assert "can't Jump Down, so it can't declare Jump Down checks" in text


def test_no_route_is_refused_with_the_reason():
    g = battle({"a1": ("reed-spear", "6,4"), "b1": ("reed-spear", "5,5"), "b2": ("reed-spear", "6,3"),
                "b3": ("reed-spear", "5,4")})
    text = refused(g, "mini.engage", {"unit": "a1", "target": "b1"})
    assert "No route leads Reed Spear (a1) into base contact with Reed Spear 2 (b1)" in text


# ------------------------------------------------------------ intercept --
def intercept_setup(**kw):
    return battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,4"),
                   "b2": kw.get("b2", ("bog-strider", "6,1"))})


def test_the_other_player_is_asked_to_intercept_with_a_deadline():
    """"The other player can now decide if they want to Intercept the Engage with one of their units" and "If an
    enemy's unit could move 2" in a straight line so that they could, at least partially, block the path" """
    g = intercept_setup()
    out = engage(g, "a1", "b1")
    s = out.state
    assert s.last["result"] == "pending" and where(s, "a1") == "4,1"
    assert "@bob may intercept: 1. Bog Strider (b2) moves 2 in to 4,3." in out.text
    p = open_prompt(s)
    assert (p.owner, p.kind, p.default, p.deadline, p.timeout_action) == (BOB, "intercept", "none", T0 + 3600,
                                                                          "mini.intercept-timeout")
    assert [o.label for o in p.options] == ["1. Bog Strider (b2) moves 2 in to 4,3"]
    assert whose_move(s) == (BOB, "mini:icp1")
    # while the question is open nobody else acts
    assert "waits for @bob to answer" in refused(s, "mini.move", {"unit": "a1", "to": "3,2"})
    assert "@bob's to answer" in refused(s, "mini.intercept", {"unit": "none"}, by=LENA)
    # the engaging player, even as the party leader, can't answer for the other
    assert "you can't answer the other player's intercept question" in refused(
        s, "mini.intercept", {"unit": "none"}, by=LENA, on_behalf=BOB)


def test_an_intercept_moves_the_interceptor_and_the_engager_ends_in_contact_with_it():
    """"If they do so, move them to this position and move the Engaging unit in base contact with the
    Interceptor" """
    s = engage(intercept_setup(), "a1", "b1").state
    out = run(s, "mini.intercept", {"unit": "b2", "prompt": "icp1"}, by=BOB)
    s = out.state
    assert where(s, "b2") == "4,3" and where(s, "a1") == "4,2" and s.pending is None
    assert "@bob intercepts: Bog Strider (b2) moves 2 in to 4,3, onto the path." in out.text
    assert "in base contact with Bog Strider (b2): the engage is intercepted, so it does not strike first" in out.text
    assert s.last["result"] == "intercepted" and not s.units["a1"].strike_first
    assert s.last["interceptor"] == {"unit": "b2", "from": [6, 1], "to": [4, 3], "line": [[5, 2], [4, 3]]}
    assert open_prompt(s) is None and whose_move(s)[0] == LENA


def test_no_intercept_and_the_engage_succeeds_in_contact_where_the_path_ends():
    """"If no one Intercepts the unit, the Engage succeeds! Move them in base-to-base contact with the target at a
    point that makes sense given the path of the Engage" """
    s = engage(intercept_setup(), "a1", "b1").state
    out = run(s, "mini.intercept", {"choice": "none", "prompt": "icp1"}, by=BOB)
    s = out.state
    assert "@bob does not intercept." in out.text
    assert where(s, "a1") == "4,3" and s.last["result"] == "success" and s.units["a1"].strike_first
    assert "The engage succeeds: Reed Spear (a1) is in base contact with Reed Spear 2 (b1) at 4,3" in out.text


def test_the_intercept_time_out_lets_the_engage_go_on():
    s = engage(intercept_setup(), "a1", "b1").state
    assert "already answered" in refused(s, "mini.intercept-timeout", {"ask": "icp9"}, by=LENA)
    out = run(s, "mini.intercept-timeout", {"ask": "icp1"}, by=LENA)
    assert "⏰ @bob did not answer within 60 minutes: no unit intercepts." in out.text
    assert out.state.last["result"] == "success"


def test_a_unit_that_cannot_reach_the_path_in_a_straight_line_is_not_offered():
    # from 7,1 no straight line of 2 in touches 4,2 or 4,3; a Stunned unit can't intercept at all
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,4"), "b2": ("reed-spear", "7,1"),
                "b3": ("reed-spear", "6,1")}, conditions={"b3": {"stunned": 4}})
    out = engage(g, "a1", "b1")
    assert out.state.pending is None and out.state.last["result"] == "success"


def test_an_interceptor_can_be_chosen_by_menu_number():
    s = engage(intercept_setup(), "a1", "b1").state
    assert "Pick 1 to 1" in refused(s, "mini.intercept", {"choice": "3"}, by=BOB)
    out = run(s, "mini.intercept", {"choice": ["1"], "prompt": "icp1"}, by=BOB)
    assert where(out.state, "b2") == "4,3"
    assert "was already answered" in refused(out.state, "mini.intercept", {"choice": "1", "prompt": "icp1"}, by=BOB) \
        or "No engage is waiting" in refused(out.state, "mini.intercept", {"choice": "1", "prompt": "icp1"}, by=BOB)


# ------------------------------------------------------------ several targets --
def test_two_targets_engaged_at_once_by_the_shortest_path():
    """"If it is possible to Engage in such a way that you are in base contact with multiple enemies, you may do
    so. Declare the multiple targets ... Choose the shortest path that allows you to reach this position." """
    g = battle({"a1": ("reed-spear", "3,1"), "b1": ("reed-spear", "4,3"), "b2": ("reed-spear", "3,4")})
    out = engage(g, "a1", "b1 b2")
    s = out.state
    assert "engages Reed Spear 2 (b1) and Reed Spear 3 (b2)" in out.text and "It can see them" in out.text
    assert s.last["path"] == [[3, 2], [3, 3]] and where(s, "a1") == "3,3"
    assert all(BOARD.contact(Hex(3, 3), Hex(*s.units[b].hex)) for b in ("b1", "b2"))
    assert s.last["result"] == "success" and s.units["a1"].strike_first


def test_two_targets_no_hex_touches_both():
    g = battle({"a1": ("reed-spear", "3,1"), "b1": ("reed-spear", "4,3"), "b2": ("reed-spear", "0,9")})
    assert "No hex is in base contact with" in refused(g, "mini.engage", {"unit": "a1", "target": "b1,b2"})


def test_the_end_hex_touches_no_enemy_that_was_not_declared():
    # 3,3 touches b1 and b2; engaging b1 alone ends on a hex next to b1 only
    g = battle({"a1": ("reed-spear", "3,1"), "b1": ("reed-spear", "4,3"), "b2": ("reed-spear", "3,4")})
    s = engage(g, "a1", "b1").state
    assert where(s, "a1") == "4,2" and not BOARD.contact(Hex(4, 2), Hex(3, 4))


# ------------------------------------------------------------ jump attack --
def test_a_jump_attack_gives_advantage_this_turn():
    """"A unit may perform a Jump Attack under all of the following conditions: As part of your Engage you make a
    successful Jump Down check; Where you land after your Jump Down check directly engaged with a unit. If you
    successfully perform a Jump Attack you roll your attacks with Advantage for the current turn." """
    g = battle({"a1": ("roof-cutter", "6,4"), "b1": ("reed-spear", "5,5")})
    out = engage(g, "a1", "b1", jump=True, dice=[15])
    s = out.state
    assert "Jump Down from 6,4 to 5,4 (2 in): Agility check d20 15 against 15: it lands well." in out.text
    assert "Jump Attack: Roof Cutter (a1) landed from its Jump Down straight into base contact" in out.text
    assert s.units["a1"].jump_attack and s.units["a1"].strike_first
    # the Melee: it strikes first with Advantage (two d20, the lower kept): 18 and 3 -> 3, a hit (needs 11)
    out = run(s, "mini.end", dice=[18, 3, 9])
    assert "Roof Cutter (a1) strikes first at Reed Spear (b1) (Jump Attack): d20 18 and 3 with Advantage: 3, " \
           "needs 11 or less: a hit." in out.text
    assert "Reed Spear (b1) strikes at Roof Cutter (a1): d20 9, needs 11 or less: a hit." in out.text
    # next turn the Advantage is gone
    assert not out.state.units["a1"].jump_attack


def test_a_jump_down_then_a_walk_is_no_jump_attack():
    g = battle({"a1": ("roof-cutter", "5,4"), "b1": ("reed-spear", "3,3")})
    out = engage(g, "a1", "b1", jump=True, dice=[2])
    s = out.state
    assert s.last["kinds"] == ["jump", "walk"] and s.last["result"] == "success"
    assert not s.units["a1"].jump_attack and "Jump Attack" not in out.text


def test_a_failed_jump_down_falls_hurt_and_is_no_jump_attack():
    g = battle({"a1": ("roof-cutter", "6,4"), "b1": ("reed-spear", "5,5")})
    out = engage(g, "a1", "b1", jump=True, dice=[18])
    s = out.state
    assert "Agility check d20 18 against 15: it falls." in out.text
    assert "Roof Cutter (a1) loses 1 wound (a fall): 1 of 2 left." in out.text
    assert where(s, "a1") == "5,4" and s.last["result"] == "success" and not s.units["a1"].jump_attack


def test_a_fall_part_way_ends_the_engage_short():
    g = battle({"a1": ("roof-cutter", "5,4"), "b1": ("reed-spear", "3,3")})
    out = engage(g, "a1", "b1", jump=True, dice=[20])
    s = out.state
    assert where(s, "a1") == "5,3" and s.last["result"] == "fell" and not s.units["a1"].strike_first
    assert "fell at 5,3, short of Reed Spear (b1): the engage fails" in out.text


# ------------------------------------------------------------ making room --
def test_making_room_at_the_top_of_a_ladder():
    """"If a unit is on the edge of a ledge or top of a ladder you may still Engage them. If there is not enough
    room for your unit to be placed next to the unit Engaged then shuffle it back to make room." """
    g = battle({"a1": ("reed-spear", "7,0"), "b1": ("reed-spear", "6,2")})
    out = engage(g, "a1", "b1")
    s = out.state
    assert "Path: 7,1 6,2, 4 in, onto Reed Spear 2's place on the edge (it makes room)." in out.text
    assert "No room next to Reed Spear 2 (b1): it is shuffled back from 6,2 to 6,3 to make room." in out.text
    assert where(s, "a1") == "6,2" and where(s, "b1") == "6,3" and s.last["result"] == "success"
    assert s.last["shuffle"] == {"unit": "b1", "from": [6, 2], "to": [6, 3]}


def test_making_room_on_the_edge_of_a_ledge_with_a_jump_attack():
    g = battle({"a1": ("roof-cutter", "6,4"), "a2": ("reed-spear", "5,4"), "b1": ("reed-spear", "6,3")})
    out = engage(g, "a1", "b1", jump=True, dice=[4])
    s = out.state
    assert where(s, "a1") == "6,3" and where(s, "b1") == "6,2" and s.units["a1"].jump_attack
    assert "shuffled back from 6,3 to 6,2" in out.text


def test_making_room_for_two_targets_at_once():
    """Making room with "Engaging multiple enemies": two targets on the watch walk, one at the top of the bell-tower
    roof's ladder.  No free hex touches both, so the engager comes down the ladder onto that target's place, which
    is shuffled back; from there it touches both."""
    g = battle({"a1": ("reed-spear", "7,3"), "b1": ("reed-spear", "6,3"), "b2": ("reed-spear", "5,4")})
    out = engage(g, "a1", "b1 b2")
    s = out.state
    assert "Path: 6,3, 3 in, onto Reed Spear 2's place on the edge (it makes room)." in out.text
    assert "No room next to Reed Spear 2 (b1): it is shuffled back from 6,3 to 6,2 to make room." in out.text
    assert "The engage succeeds: Reed Spear (a1) is in base contact with Reed Spear 2 (b1) and Reed Spear 3 (b2) at " \
           "6,3" in out.text
    assert where(s, "a1") == "6,3" and where(s, "b1") == "6,2" and where(s, "b2") == "5,4"
    assert s.last["shuffle"] == {"unit": "b1", "from": [6, 3], "to": [6, 2]} and s.units["a1"].strike_first


def test_making_room_for_two_targets_is_refused_on_the_first_engage_rules():
    g = battle({"a1": ("reed-spear", "7,3"), "b1": ("reed-spear", "6,3"), "b2": ("reed-spear", "5,4")})
    g.rules = 1
    assert "No hex is in base contact with Reed Spear 2 (b1) and Reed Spear 3 (b2) at once" in \
        refused(g, "mini.engage", {"unit": "a1", "target": "b1 b2"})


def test_making_room_for_two_targets_needs_a_place_touching_both():
    # b2 at the walk's south end: from b1's place the engager would touch b1 only
    g = battle({"a1": ("reed-spear", "7,3"), "b1": ("reed-spear", "6,3"), "b2": ("reed-spear", "4,6")})
    assert "No hex is in base contact with" in refused(g, "mini.engage", {"unit": "a1", "target": "b1 b2"})


# ------------------------------------------------------------ strike first --
def test_a_successful_engager_strikes_first_in_that_turns_melee():
    """"if it successfully Engages, the unit will be able to Strike First in the first turn of melee (ie. the Melee
    Phase of the turn they Engaged)." """
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,4")}, spare=False)
    g.units["b1"].damage = 1  # one wound left
    # nothing else is left to do this turn: the Melee is fought at once; a1 strikes first and takes b1 out, so b1
    # never strikes back
    out = engage(g, "a1", "b1", dice=[5])
    assert "Nothing more to do in the Engage, Move, Shoot and Cast phases." in out.text
    assert "Reed Spear (a1) strikes first at Reed Spear 2 (b1)" in out.text and "taken out of the fight" in out.text
    assert "strikes at Reed Spear (a1)" not in out.text
    assert out.state.phase == "over" and out.state.result["winner"] == LENA


def test_without_an_engage_melee_is_simultaneous():
    g = battle({"a1": ("reed-spear", "4,2"), "b1": ("reed-spear", "4,3")}, phase="cast", spare=False)
    g.units["a1"].damage = g.units["b1"].damage = 1
    out = run(g, "mini.end", dice=[5, 5])  # both roll, then both blows land: both go down
    assert out.text.count("taken out of the fight") == 2
    assert out.state.result["winner"] is None


# ------------------------------------------------------------ fear --
def test_fear_engaging_a_fearsome_unit_forces_a_morale_check():
    """"Whenever you first Engage ... a unit that causes Fear and your unit does not also cause Fear, you must make
    a Morale check. On a failure, the unit is Staggered for the remainder of the turn." """
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("mire-hulk", "4,4")})
    out = engage(g, "a1", "b1", dice=[14])
    s = out.state
    assert "Fear: Reed Spear (a1) makes a Morale check against Mire Hulk (b1): d20 14 against Morale 10, it fails." \
        in out.text
    assert "Reed Spear (a1) is Staggered for the rest of the turn" in out.text and s.units["a1"].has("staggered")
    # Staggered: it does not strike first, and strikes with Disadvantage; it ends with the turn
    out = run(s, "mini.end", dice=[3, 12, 7, 20])
    assert "Reed Spear (a1) is Staggered: it does not strike first." in out.text
    assert "Reed Spear (a1) strikes at Mire Hulk (b1) (Staggered): d20 3 and 12 with Disadvantage: 12" in out.text
    assert "Reed Spear (a1) is no longer Staggered." in out.text
    assert not out.state.units["a1"].has("staggered")


def test_fear_being_engaged_by_a_fearsome_unit_forces_a_morale_check():
    g = battle({"a1": ("gallows-wraith", "4,1"), "b1": ("reed-spear", "4,4")})
    out = engage(g, "a1", "b1", dice=[9])
    assert "Fear: Reed Spear (b1) makes a Morale check against Gallows Wraith (a1): d20 9 against Morale 10, " \
           "it holds its nerve." in out.text
    assert not out.state.units["b1"].has("staggered")


def test_fear_both_cause_fear_and_nobody_checks():
    """"If both units cause Fear, this negates Fear's effect and neither must make any Morale Checks." """
    g = battle({"a1": ("gallows-wraith", "4,1"), "b1": ("mire-hulk", "4,4")})
    out = engage(g, "a1", "b1", dice=[])
    assert "both cause Fear: it cancels out, and neither makes a Morale check" in out.text
    assert out.dice == [] and "Morale check against" not in out.text


def test_fear_an_interceptor_with_fear_makes_the_engager_check():
    """"If a unit with Fear Intercepts an enemy unit that is trying to Engage another unit, that enemy unit must
    make a Fear Check as if it was trying to Engage the unit with Fear." """
    s = engage(intercept_setup(b2=("mire-hulk", "6,1")), "a1", "b1").state
    out = run(s, "mini.intercept", {"unit": "b2"}, by=BOB, dice=[16])
    assert "Fear: Reed Spear (a1) makes a Morale check against Mire Hulk (b2): d20 16 against Morale 10, it fails." \
        in out.text
    assert out.state.units["a1"].has("staggered")


def test_fear_is_checked_once_against_several_fearsome_targets():
    g = battle({"a1": ("reed-spear", "3,1"), "b1": ("mire-hulk", "4,3"), "b2": ("drowned-knight", "3,4")})
    out = engage(g, "a1", "b1 b2", dice=[10])
    assert "against Mire Hulk (b1) and Drowned Knight (b2): d20 10 against Morale 10, it holds its nerve" in out.text


# ------------------------------------------------------------ conditions --
def test_stunned_and_dazed_last_until_the_end_of_their_players_next_turn():
    g = battle({"a1": ("hedge-witch", "4,1"), "b1": ("reed-spear", "4,5"), "b2": ("reed-spear", "8,9")},
               phase="cast")
    out = run(g, "mini.cast", {"unit": "a1", "spell": "mire-grip", "target": "b1"}, dice=[6])
    s = out.state
    assert "Reed Spear (b1) is Dazed until the end of its player's next turn (Mire Grip)." in out.text
    assert s.units["b1"].conditions == {"dazed": 4}  # cast in turn 3: Bob's next turn is 4
    # nothing is left for Lena: the turn passes, and Bob's Upkeep names the Dazed unit
    assert s.turn.player == BOB and "Turn 4 (round 2): @bob's turn. Upkeep. Reed Spear (b1) is Dazed." in out.text
    assert "is Dazed, so it can't attempt an Engage" in refused(s, "mini.engage", {"unit": "b1", "target": "a1"},
                                                                 by=BOB)
    out = run(s, "mini.end", by=BOB)
    assert "Reed Spear (b1) is no longer Dazed." in out.text and out.state.units["b1"].conditions == {}


def test_a_stunned_unit_does_not_strike_and_is_struck_with_advantage():
    g = battle({"a1": ("reed-spear", "4,2"), "b1": ("reed-spear", "4,3")}, phase="cast",
               conditions={"b1": {"stunned": 4}})
    out = run(g, "mini.end", dice=[19, 4])
    assert "Reed Spear (a1) strikes at Reed Spear 2 (b1) (Reed Spear 2 is Stunned): d20 19 and 4 with Advantage: 4" \
        in out.text
    assert "Reed Spear 2 (b1) is Stunned and does not strike." in out.text


def test_a_critical_hit_stuns():
    g = battle({"a1": ("reed-spear", "4,2"), "b1": ("mire-hulk", "4,3")}, phase="cast")
    out = run(g, "mini.end", dice=[1, 20, 20])
    assert "d20 1, needs 9 or less: a critical hit" in out.text
    assert "Mire Hulk (b1) is Stunned until the end of its player's next turn (a critical hit)." in out.text


@pytest.mark.parametrize("named", ["b1 b2", "b1,b2", "b1 and b2", "4,3 3,4", "Reed Spear 2, Reed Spear 3"])
def test_targets_are_named_by_id_name_or_hex(named):
    g = battle({"a1": ("reed-spear", "3,1"), "b1": ("reed-spear", "4,3"), "b2": ("reed-spear", "3,4")})
    out = engage(g, "a1", named)
    assert out.state.last["targets"] == ["b1", "b2"]
    assert engage(g, "a1", "Reed Spear 2").state.last["targets"] == ["b1"]
