"""The frame around the Engage phase: fielding units, the turn's phases, Move (ladders, ledges, Jump Down),
Shoot, every spell of the pack, the Melee, the end of the battle; refusals name the fix and change nothing."""
from __future__ import annotations

import pytest

from engage_helpers import BOB, LENA, PACK, battle, refused, run, where
from rulesets.engage.state import Game


def muster() -> Game:
    g = battle({}, spare=False)
    g.phase, g.sides, g.units, g.order, g.members = "muster", {}, {}, [], [LENA]
    g.turn.number = 0
    return g


# ------------------------------------------------------------ fielding --
def test_fielding_units_within_the_points_and_the_zone():
    g = muster()
    out = run(g, "mini.field", {"unit": "mire-hulk", "at": "3,1"}, by=LENA)
    assert "@lena fields side A, deploying on the north edge." in out.text
    assert "@lena fields Mire Hulk (a1) on 3,1: 18 of 200 points." in out.text
    g = out.state
    assert "outside your deployment zone (the north edge)" in refused(g, "mini.field", {"unit": "reed-spear",
                                                                                       "at": "3,5"}, by=LENA)
    assert "taken by Mire Hulk (a1)" in refused(g, "mini.field", {"unit": "reed-spear", "at": "3,1"}, by=LENA)
    assert "There is no unit type 'dragon'" in refused(g, "mini.field", {"unit": "dragon"}, by=LENA)
    g = run(g, "mini.field", {"unit": "reed-spear", "name": "Old Tom"}, by=LENA).state  # the first free hex
    assert where(g, "a2") == "0,0" and g.units["a2"].name == "Old Tom"
    out = run(g, "mini.field", {"unit": "gallows-wraith", "at": "0,9"}, by=BOB)
    assert "@bob joins the game." in out.text and out.state.sides[BOB].letter == "b"
    g = out.state
    g.settings["points"] = 30
    assert "A Drowned Knight costs 17 points; you have fielded 16 of 30" in refused(
        g, "mini.field", {"unit": "drowned-knight"}, by=BOB)
    assert "Two players already field units" in refused(g, "mini.field", {"unit": "reed-spear"}, by="cara")
    g = run(g, "mini.remove", {"unit": "a2"}, by=LENA).state
    assert "a2" not in g.units and g.sides[LENA].units == ["a1"]


def test_start_needs_two_sides_and_the_leader():
    g = muster()
    assert "needs two sides" in refused(g, "mini.start", by=LENA)
    g = run(g, "mini.field", {"unit": "reed-spear"}, by=LENA).state
    g = run(g, "mini.field", {"unit": "reed-spear"}, by=BOB).state
    assert "Only the party leader" in refused(g, "mini.start", by=BOB)
    g = run(g, "mini.start", by=LENA, dice=[3, 17]).state
    assert g.phase == "battle" and g.order == [BOB, LENA] and g.turn.phase == "move"
    assert "already begun" in refused(g, "mini.field", {"unit": "reed-spear"}, by=LENA)


# ------------------------------------------------------------ phases --
def test_a_later_phase_is_reached_only_when_nothing_is_left_in_the_earlier_ones():
    g = battle({"a1": ("reed-spear", "4,1"), "a2": ("lantern-bow", "2,1"), "b1": ("reed-spear", "4,5")})
    text = refused(g, "mini.move", {"unit": "a1", "to": "4,2"})
    assert "It is the Engage phase and" in text and "may still act in the Engage phase" in text
    assert "/mini next" in text
    out = run(g, "mini.next")
    assert "@lena ends the Engage phase (" in out.text and out.state.turn.phase == "move"
    g = run(out.state, "mini.move", {"unit": "a1", "to": "4,2"}).state
    assert "The Engage phase of this turn is over" in refused(g, "mini.engage", {"unit": "a2", "target": "b1"})


def test_end_turn_says_what_was_not_used():
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,7")})
    out = run(g, "mini.end")
    assert "@lena ends the turn: not used: Reed Spear (a1) (Engage), Drowned Knight (a9) (Engage)" in out.text
    assert out.state.turn.player == BOB and out.state.turn.number == 4
    assert "It is @bob's turn; wait for yours." in refused(out.state, "mini.end", by=LENA)


def test_commands_in_the_other_players_turn_or_after_the_end_are_refused():
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,7")})
    assert "It is @lena's turn; wait for yours." in refused(g, "mini.move", {"unit": "b1", "to": "4,6"}, by=BOB)
    assert "No unit of yours called 'b1'" in refused(g, "mini.engage", {"unit": "b1", "target": "a1"})
    assert "is on your side" in refused(g, "mini.engage", {"unit": "a1", "target": "a9"})
    # a member who fields no units is told so; someone outside the game is told to join first
    g.members.append("cara")
    assert "You field no units in this game." in refused(g, "mini.next", by="cara")
    assert "You are not in this party" in refused(g, "mini.next", by="dan")
    g.phase = "over"
    assert "This game is over" in refused(g, "mini.engage", {"unit": "a1", "target": "b1"})


# ------------------------------------------------------------ move --
def test_move_climbs_ladders_at_their_height_and_never_up_a_ledge():
    g = battle({"a1": ("reed-spear", "7,0"), "b1": ("reed-spear", "0,9")}, phase="move")
    out = run(g, "mini.move", {"unit": "a1", "to": "6,3"})  # 7,1 (1) + ladder to 6,2 (1 + 2) + 6,3 (1) = 5
    assert "Reed Spear (a1) moves 5 in to 6,3." in out.text
    g = battle({"a1": ("reed-spear", "5,3"), "b1": ("reed-spear", "0,9")}, phase="move")
    text = refused(g, "mini.move", {"unit": "a1", "to": "5,4"})  # one step up a ledge, no ladder
    assert "moves at most 5 in and can't reach 5,4" in text


def test_move_with_a_jump_down_rolls_agility():
    g = battle({"a1": ("bog-strider", "5,4"), "b1": ("reed-spear", "0,9")}, phase="move")
    assert "With a Jump Down it could: add jump:yes" in refused(g, "mini.move", {"unit": "a1", "to": "5,3"})
    out = run(g, "mini.move", {"unit": "a1", "to": "4,3", "jump": True}, dice=[14])
    assert "Jump Down from 5,4 to 5,3 (2 in): Agility check d20 14 against 14: it lands well." in out.text
    assert where(out.state, "a1") == "4,3" and out.state.units["a1"].moved
    assert "already moved this turn" in refused(out.state, "mini.move", {"unit": "a1", "to": "3,3"})


def test_a_move_never_ends_in_base_contact():
    g = battle({"a1": ("reed-spear", "4,1"), "b1": ("reed-spear", "4,4")}, phase="move")
    text = refused(g, "mini.move", {"unit": "a1", "to": "4,3"})
    assert "in base contact with Reed Spear 2 (b1): a unit comes into contact only by an Engage" in text
    g = battle({"a1": ("reed-spear", "4,3"), "b1": ("reed-spear", "4,4")}, phase="move")
    text = refused(g, "mini.move", {"unit": "a1", "to": "4,2"})
    assert "is in melee with Reed Spear 2 (b1), so it can't move" in text


# ------------------------------------------------------------ shoot --
def test_shooting_in_sight_and_range_not_into_melee():
    g = battle({"a1": ("lantern-bow", "4,1"), "b1": ("reed-spear", "4,6"), "b2": ("reed-spear", HIDE := "-1,6"),
                "b3": ("bog-strider", "2,2"), "a2": ("reed-spear", "3,1")}, phase="shoot")
    assert "can't see Reed Spear 2 (b2)" in refused(g, "mini.shoot", {"unit": "a1", "target": "b2"})
    assert "nobody shoots into a melee" in refused(g, "mini.shoot", {"unit": "a1", "target": "b3"})
    assert "has no ranged attack" in refused(g, "mini.shoot", {"unit": "a2", "target": "b1"})
    # Shoot 12 - armour 1: 11 or less; then nothing is left to do, and the Melee of a2 and b3 is fought
    out = run(g, "mini.shoot", {"unit": "a1", "target": "b1"}, dice=[11, 10, 18])
    assert "Lantern Bow (a1) shoots at Reed Spear (b1): d20 11, needs 11 or less: a hit." in out.text
    assert "Reed Spear (b1) loses 1 wound (a shot by Lantern Bow): 1 of 2 left." in out.text
    assert "Melee phase." in out.text and out.state.turn.player == BOB
    assert HIDE == "-1,6"


def test_out_of_range_shot_is_refused():
    g = battle({"a1": ("lantern-bow", "8,0"), "b1": ("reed-spear", "-5,10")}, phase="shoot", spare=False)
    assert "is 13 in away; Lantern Bow (a1) shoots up to 12 in" in refused(g, "mini.shoot", {"unit": "a1",
                                                                                           "target": "b1"})


# ------------------------------------------------------------ spells --
@pytest.mark.parametrize("spell,target,roll,words,check", [
    ("thorn-lash", "b1", 13, "Reed Spear 2 (b1) loses 1 wound (Thorn Lash): 1 of 2 left.",
     lambda s: s.units["b1"].damage == 1),
    ("mire-grip", "b1", 12, "Reed Spear 2 (b1) is Dazed until the end of its player's next turn (Mire Grip).",
     lambda s: s.units["b1"].conditions == {"dazed": 4}),
    ("steady-nerve", "a2", 2, "Reed Spear (a2) is no longer Staggered.",
     lambda s: not s.units["a2"].has("staggered")),
])
def test_hedge_witch_spells(spell, target, roll, words, check):
    g = battle({"a1": ("hedge-witch", "4,1"), "a2": ("reed-spear", "3,2"), "b1": ("reed-spear", "4,5")},
               phase="cast", conditions={"a2": {"staggered": 3}})
    out = run(g, "mini.cast", {"unit": "a1", "spell": spell, "target": target}, dice=[roll])
    assert "it works." in out.text and words in out.text and check(out.state)


@pytest.mark.parametrize("spell,target,roll,words,check", [
    ("thunder-peal", "b1", 9, "Reed Spear 2 (b1) is Stunned until the end of its player's next turn (Thunder Peal).",
     lambda s: s.units["b1"].conditions == {"stunned": 4}),
    ("mend-flesh", "a2", 12, "Reed Spear (a2) gets back 1 wound: 2 of 2.", lambda s: s.units["a2"].damage == 0),
])
def test_bell_chanter_spells(spell, target, roll, words, check):
    g = battle({"a1": ("bell-chanter", "4,1"), "a2": ("reed-spear", "3,2"), "b1": ("reed-spear", "4,5")},
               phase="cast")
    g.units["a2"].damage = 1
    out = run(g, "mini.cast", {"unit": "a1", "spell": spell, "target": target}, dice=[roll])
    assert "it works." in out.text and words in out.text and check(out.state)


def test_a_spell_fizzles_on_a_failed_cast_check_and_useless_casts_are_refused():
    g = battle({"a1": ("bell-chanter", "4,1"), "a2": ("reed-spear", "3,2"), "b1": ("reed-spear", "4,5")},
               phase="cast")
    out = run(g, "mini.cast", {"unit": "a1", "spell": "thunder-peal", "target": "b1"}, dice=[10])  # 12 - 3 = 9
    assert "d20 10, needs 9 or less: it fizzles." in out.text and out.state.units["b1"].conditions == {}
    assert "has lost no wounds: Mend Flesh would do nothing" in refused(g, "mini.cast", {"unit": "a1",
                                                                                        "spell": "mend-flesh",
                                                                                        "target": "a2"})
    assert "knows no spell 'mire-grip'" in refused(g, "mini.cast", {"unit": "a1", "spell": "mire-grip",
                                                                      "target": "b1"})
    assert "is cast on an enemy" in refused(g, "mini.cast", {"unit": "a1", "spell": "thunder-peal",
                                                               "target": "a2"})
    g.units["a1"].conditions = {"dazed": 4}
    assert "is Dazed, so it can't cast" in refused(g, "mini.cast", {"unit": "a1", "spell": "thunder-peal",
                                                                      "target": "b1"})


def test_every_spell_of_the_pack_is_played_above():
    played = {"thorn-lash", "mire-grip", "steady-nerve", "thunder-peal", "mend-flesh"}
    assert set(PACK.spells) == played


# ------------------------------------------------------------ the end --
def test_the_battle_ends_after_its_rounds_on_points_standing():
    g = battle({"a1": ("mire-hulk", "4,1"), "b1": ("reed-spear", "4,7")}, player=BOB, number=12, phase="cast",
               spare=False)
    out = run(g, "mini.end", by=BOB)
    assert out.state.phase == "over" and out.state.result["winner"] == LENA
    assert "@lena wins: after 6 rounds it keeps the most points of units standing (@lena 18, @bob 8)." in out.text
    assert "This game is over" in refused(out.state, "mini.next", by=LENA)
