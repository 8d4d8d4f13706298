"""Every sentence of the social check rules (p.42), played through the actions with forced dice.

(The rulebook's Social Check Example needs a side quest: it comes with the quests.)  The cards used:
Find a Guide (GE 4, gated, 2 × the party size), Talk Them Down (GE 3, gated, the party size + 2) and
Swap Stories over Supper (SM 2, a bonus: one adventurer draws a common item on a success).
"""
from __future__ import annotations

import pytest

from day_helpers import RYAN, SHANNON, at_card, refused, run, said, train


def speech(state):
    """Shannon trains Speech (two Stern Presence dice: faces 1, 1, 2 sway, 1 rally, tenacity, blank)."""
    train(state, SHANNON, "speech", ["stern-presence", "stern-presence"])


def test_a_check_is_made_only_when_an_encounter_offers_one():
    s, _ = at_card("sm-p01", setup=speech)  # The Broken Weir has no social check
    assert "not waiting for that" in refused(s, "day.check", SHANNON, {"dice": []})


def test_difficulty_is_a_fixed_value_added_to_or_multiplied_by_the_party_size():
    s, _ = at_card("ge-c03", setup=speech)  # Talk them down: the party size + 2
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    assert "difficulty the party size + 2 = 4 (party of 2)" in said(ev) and s.days.encounter.check.difficulty == 4
    s, _ = at_card("ge-p04", setup=speech)  # Find a guide: 2 × the party size
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    assert "difficulty 2 × the party size = 4 (party of 2)" in said(ev)


def test_the_party_size_counts_defeated_adventurers():
    def down(state):
        speech(state)
        state.adventurers[RYAN].hp = 0
    s, _ = at_card("ge-c03", setup=down)
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    assert s.days.encounter.check.difficulty == 4
    # a defeated adventurer neither rolls nor spends
    assert s.days.ask.kind == "check-dice" and s.days.ask.owners == [SHANNON]


def test_dice_first_only_adventurers_with_available_dice_of_the_line_and_they_may_roll_none():
    def rich(state):
        speech(state)
        state.adventurers[RYAN].tenacity = 1
    s, _ = at_card("ge-c03", setup=rich)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    assert s.days.ask.kind == "check-dice" and s.days.ask.owners == [SHANNON]  # Ryan has no Speech dice
    assert "First the dice" in refused(s, "day.check", SHANNON, {"tenacity": 1})
    assert "not one of Shannon's available dice" in refused(s, "day.check", SHANNON, {"dice": ["tumble"]})
    s, ev = run(s, "day.check", SHANNON, {"dice": []})
    assert "Shannon rolls no dice." in said(ev)
    assert s.days.ask.kind == "check-tenacity"


def test_exhausted_dice_cannot_be_rolled():
    def tired(state):
        speech(state)
        adv = state.adventurers[SHANNON]
        first = next(d for d, x in adv.dice.items() if x["type"] == "stern-presence")
        adv.cooldown += [{"fatigue": "light"}, {"die": first}]  # day 1's rest clears the fatigue only
    s, _ = at_card("ge-c03", setup=tired)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    adv = s.adventurers[SHANNON]
    first = next(e["die"] for e in adv.cooldown if "die" in e)
    assert "not one of Shannon's available dice" in refused(s, "day.check", SHANNON, {"dice": [first]})


def test_tenacity_after_the_dice_each_commits_their_own_and_it_is_spent_either_way():
    def rich(state):
        speech(state)
        state.adventurers[RYAN].tenacity = 1
        state.adventurers[SHANNON].tenacity = 1
    s, _ = at_card("ge-c03", setup=rich)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, ev = run(s, "day.check", SHANNON, {"dice": ["Stern Presence"]}, forced=[3])  # face 3: 2 sway
    assert "Stern Presence: 2 sway (+2)" in said(ev)
    assert s.days.ask.kind == "check-tenacity" and s.days.ask.owners == [RYAN, SHANNON]
    assert "from 0 to 1 tenacity" in refused(s, "day.check", RYAN, {"tenacity": 2})
    s, ev = run(s, "day.check", RYAN, {"tenacity": 1})
    s, ev2 = run(s, "day.check", SHANNON, {"tenacity": 0})
    text = said(ev + ev2)
    assert "The social check fails: dice 2 + tenacity 1 = 3 against 4" in text
    assert "Ryan commits 1 tenacity (0 left)" in text  # committed tenacity is spent even on a failure


def test_equal_or_more_succeeds_and_the_rolled_dice_are_exhausted_either_way():
    def rich(state):
        speech(state)
        state.adventurers[RYAN].tenacity = 2
    s, _ = at_card("ge-c03", setup=rich)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, _ = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[3, 4])  # 2 sway, 1 rally
    s, ev = run(s, "day.check", RYAN, {"tenacity": 1})
    text = said(ev)
    assert "succeeds: dice 3 + tenacity 1 = 4 against 4" in text  # equals the difficulty: a success
    shannon = s.adventurers[SHANNON]
    assert sum(1 for e in shannon.cooldown if "die" in e) == 2  # both rolled dice exhausted
    # a gated choice opened by the check: it is taken, and the party earns its XP
    assert "Deserters is resolved" in text and s.days.encounter.xp == 3


def test_a_failed_gate_means_the_choice_cannot_be_selected_and_the_check_is_attempted_once():
    s, _ = at_card("ge-c03", setup=speech)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, _ = run(s, "day.check", SHANNON, {"dice": ["Stern Presence"]}, forced=[6])  # blank: 0
    # nobody has tenacity: the check fails at once; the gated choice is gone, and the only way left (the
    # clash) is taken
    assert s.days.encounter.tried == [2]
    assert s.battle is not None and s.battle.encounter == "ge-deserters"


def test_a_gate_failed_once_is_not_offered_again():
    def three(state):
        speech(state)
    s, _ = at_card("ge-p04", setup=three)  # Find a guide, or Carry them home
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, ev = run(s, "day.check", SHANNON, {"dice": ["Stern Presence"]}, forced=[6])
    assert "Only one way is open: **Carry them home**" in said(ev)
    assert s.days.encounter.tried == [2] and s.days.encounter.choice == 1


def test_a_failed_bonus_check_still_resolves_the_choice_without_the_reward():
    s, _ = at_card("sm-p02", setup=speech)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, ev = run(s, "day.check", SHANNON, {"dice": []})
    text = said(ev)
    assert "The social check fails" in text and "Salt Rakers is resolved" in text
    assert all(len(a.ready) + len(a.pack) == 0 for a in s.adventurers.values())  # no item gained
    assert s.days.encounter.xp == 1


def test_a_successful_bonus_check_adds_its_benefit():
    def rich(state):
        speech(state)
        state.adventurers[RYAN].tenacity = 4
    s, _ = at_card("sm-p02", setup=rich)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, _ = run(s, "day.check", SHANNON, {"dice": []})
    s, ev = run(s, "day.check", RYAN, {"tenacity": 4})
    assert "succeeds" in said(ev)
    assert s.days.ask.kind == "chosen"  # one adventurer the party chooses draws the item
    s, ev = run(s, "day.pick", RYAN, {"pick": "Shannon"}, forced=[1] * 20)
    assert "Shannon draws" in said(ev)
    assert len(s.adventurers[SHANNON].ready) == 1
