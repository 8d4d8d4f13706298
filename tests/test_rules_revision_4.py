"""Rules revision 4 of The Elder Scrolls (issue 26, items 3 and 9; rule faults 13 to 16).

Each behaviour is checked as a player sees it (the words, the state) with forced dice; where a campaign on an
older revision must replay as it played, on that revision too.
"""
from __future__ import annotations

import pytest
from battle_helpers import jailbreak, party, run as brun, texts
from day_helpers import LANDMARK_HEX, RYAN, SHANNON, at_card, refused, run, said, stack, train

from engine.core import RuleError
from helpers.table import play


def _refused(state, type_, actor, args=None, forced=None) -> str:
    try:
        brun(state, type_, actor, args, forced=forced)
    except RuleError as exc:
        return exc.message
    raise AssertionError(f"{type_} was not refused")


# ------------------------------------------------------------------ item 3: dice lists and `all` --
def test_an_engage_refusal_names_the_dice_available_now_in_the_options_syntax():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, _ = brun(s, "battle.move", "S", {"to": "0,2"})
    before = s.to_dict()
    words = _refused(s, "battle.engage", "S", {"target": "HEB1", "dice": [["combat", 2]]})
    assert "You have only 1 Combat die available, not 2" in words
    assert "Name your dice from those available now in Light Weapon form: `dice:combat, 2 shield-discipline`" \
        in words
    assert "at most your Stamina (3) in Stamina dice and your Magicka (2) in Magicka dice" in words
    assert "available now in Light Weapon form: `dice:combat, 2 shield-discipline`" in \
        _refused(s, "battle.engage", "S", {"target": "HEB1", "dice": [["fireball", 1]]})
    # in Magic form nothing of Shannon's can be rolled, and the refusal says so
    assert "No die of yours can be rolled in Magic form now: choose another form" in \
        _refused(s, "battle.engage", "S", {"target": "HEB1", "form": "magic", "dice": [["combat", 1]]})
    assert s.to_dict() == before  # a refusal changes nothing


def test_engage_dice_all_rolls_every_die_the_form_and_stats_allow():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, _ = brun(s, "battle.move", "S", {"to": "0,2"})
    s, ev = brun(s, "battle.engage", "S", {"target": "HEB1", "dice": [["all", 1]]}, forced=[5, 6, 1])
    assert ("Shannon engages in Light Weapon form targeting High Elf Bandit: 1. Combat 🎲5 → {*tenacity*}, "
            "2. Shield Discipline 🎲6 → {*blank*}, 3. Shield Discipline 🎲1 → {*1 damage*}.") in texts(ev)
    assert len(s.battle.pending.dice) == 3
    # with Stamina 2, `all` takes as many Stamina dice as that allows, in the order of the rows
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s.adventurers["S"].rows[1].squares[2] = None  # Shannon's third Stamina token is gone: Stamina 2
    assert s.adventurers["S"].stat("stamina") == 2
    s, _ = brun(s, "battle.move", "S", {"to": "0,2"})
    s, ev = brun(s, "battle.engage", "S", {"target": "HEB1", "dice": "all"}, forced=[5, 6])
    assert [d["label"] for d in s.battle.pending.dice] == ["Combat", "Shield Discipline"]


def test_reroll_all_and_its_refusals_name_the_dice_that_may_be_rerolled():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s.adventurers["S"].ready = ["battle-axe"]
    s, _ = brun(s, "battle.engage", "S", {"form": "heavy", "dice": "combat", "item": "battle-axe"}, forced=[1])
    words = _refused(s, "battle.reroll", "S", {"dice": [1, 2]})
    assert "Dice you may reroll now: `dice:1`" in words and "`dice:all`" in words
    s, ev = brun(s, "battle.reroll", "S", {"dice": "all"}, forced=[5])
    assert s.battle.pending.dice[0]["roll"] == 5 and "rerolls: 1. Combat" in texts(ev)


async def test_at_the_local_table_dice_all_works_for_engage_reroll_and_rest(tmp_path):
    from engine.store import Store

    store = await Store.open(tmp_path / "t.db")
    try:
        errors, text, local = await play(store, tmp_path, "jail", """
/campaign new name:"Jail" difficulty:adept
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
/force 2
/battle start encounter:jailbreak deploy:-2,2
/move to:0,2
/engage target:HEB1 dice:"2 combat"
""")
        assert errors == 1 and "available now in Light Weapon form: `dice:combat, 2 shield-discipline`" in text, text
        errors, text, local = await play(store, tmp_path, "jail", "/force 3 4 1\n/engage target:HEB1 dice:all")
        assert errors == 0 and "1. Combat 🎲3" in text and "3. Shield Discipline 🎲1" in text, text
    finally:
        await store.close()


# ------------------------------------------------------------------------ rule fault 14: social checks --
def _three_speech(state):
    """Shannon (Magicka 2) trains Speech with three Stern Presence dice."""
    train(state, SHANNON, "speech", ["stern-presence", "stern-presence", "stern-presence"])


def test_a_social_check_rolls_no_more_dice_than_stamina_and_magicka_allow():
    s, _ = at_card("ge-c03", setup=_three_speech)  # Talk Them Down: a gated check
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    assert s.adventurers[SHANNON].stat("magicka") == 2
    words = refused(s, "day.check", SHANNON, {"dice": ["Stern Presence"] * 3})
    assert "Shannon may roll dice of Magicka lines in a check up to their Magicka, 2" in words and "not 3" in words
    assert ("available now: `dice:Stern Presence, Stern Presence, Stern Presence` (Magicka lines: at most your "
            "Magicka, 2)") in words
    s, ev = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[3, 3])
    assert said(ev).count("Stern Presence: 2 sway (+2)") == 2 and "Dice total so far: 4" in said(ev)
    assert sum(1 for e in s.adventurers[SHANNON].cooldown if "die" in e) == 2  # the third stays available


def test_a_social_check_on_an_older_revision_rolls_every_die_as_before():
    s, _ = at_card("ge-c03", setup=_three_speech)
    s.rules = 3
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, ev = run(s, "day.check", SHANNON, {"dice": ["Stern Presence"] * 3}, forced=[3, 3, 3])
    assert "Dice total so far: 6" in said(ev)


# ------------------------------------------------------------------ rule fault 15: pack and ready slots --
def test_items_move_between_pack_and_ready_only_in_the_rest_during_a_session():
    def kit(state):
        state.adventurers[RYAN].pack = ["travel-bread"]
    from day_helpers import BRINEHOLD_SHOP, DECK_STACK, examples_party

    s = examples_party()
    kit(s)
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP + ["sm-p01"]})
    assert s.days.ask.kind == "town"  # day 1's town encounter
    words = refused(s, "item.ready", RYAN, {"item": "Travel Bread"})
    assert "only in the End of Day's Adventurers Rest" in words and s.adventurers[RYAN].pack == ["travel-bread"]
    for who in (RYAN, SHANNON):
        s, _ = run(s, "town.done", who)
    assert s.days.ask.kind == "rest"
    s, ev = run(s, "item.ready", RYAN, {"item": "Travel Bread"})
    assert s.adventurers[RYAN].ready == ["travel-bread"] and "Ryan readies Travel Bread." in said(ev)
    # a campaign on revision 3 moves them in town as it did
    old = examples_party(rules_revision=3)
    kit(old)
    old, _ = run(old, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP + ["sm-p01"]})
    old, _ = run(old, "item.ready", RYAN, {"item": "Travel Bread"})
    assert old.adventurers[RYAN].ready == ["travel-bread"]


# ---------------------------------------------------------- rule fault 13 and item 9: the Adventurers Rest --
def _rest_day(setup=None, *, assist_used=True, rules=None):
    """Day 2 at the peaceful landmark 3,7 (Wayside Camp), reward done; the guild assist already used (so the
    leader has nothing of it to choose) unless ``assist_used`` is False."""
    def prepare(state):
        if setup is not None:
            setup(state)
    s, _ = at_card("ge-p01", setup=prepare)
    if assist_used:
        s.journal.assist = 1
    if rules is not None:
        s.rules = rules
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})  # share the fire: 1 tenacity each
    while s.days.ask is not None and s.days.ask.kind == "reward":
        s, _ = run(s, "reward.done", s.days.ask.owners[0])
    return s


def test_the_rest_recovers_drained_dice():
    def drained(state):
        state.adventurers[SHANNON].pack = ["travel-bread"]  # something to choose: the rest is asked
    s = _rest_day(drained)
    adv = s.adventurers[SHANNON]
    die = next(d for d, x in adv.dice.items() if x["type"] == "shield-discipline")
    adv.drained = [die]
    assert s.days.ask.kind == "rest" and die not in adv.available_dice()
    s, ev = run(s, "day.rest", SHANNON)
    assert "recovers the drained Shield Discipline" in said(ev)
    assert s.adventurers[SHANNON].drained == [] and die in s.adventurers[SHANNON].available_dice()


def test_the_rest_on_an_older_revision_keeps_drained_dice():
    def kit(state):
        state.adventurers[SHANNON].pack = ["travel-bread"]
    s = _rest_day(kit, rules=3)
    adv = s.adventurers[SHANNON]
    die = next(d for d, x in adv.dice.items() if x["type"] == "shield-discipline")
    adv.drained = [die]
    s, ev = run(s, "day.rest", SHANNON)
    assert s.adventurers[SHANNON].drained == [die] and "drained" not in said(ev)


def test_a_rest_with_nothing_to_choose_says_it_and_everyone_rests():
    s, _ = at_card("ge-p01")
    s.journal.assist = 1
    s.adventurers[RYAN].hp = 1
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    while s.days.ask is not None and s.days.ask.kind == "reward":
        s, more = run(s, "reward.done", s.days.ask.owners[0])
        ev = ev + more
    words = said(ev)
    assert "nobody has anything to choose" in words and "so everyone rests at once" in words
    assert "🛏️ Ryan rests: heals 1 HP (2/4)" in words and "🛏️ Shannon rests" in words
    assert "Day 2 ends." in words and s.days.ask.kind == "route"  # straight on to day 3's route


def test_the_rest_waits_when_someone_has_a_choice():
    # the guild assist can still be called: the leader has a choice
    s = _rest_day(assist_used=False)
    assert s.days.ask.kind == "rest"
    # more dice on a track than the rest removes: which ones is a choice
    s = _rest_day()
    assert s.days.ask is None or s.days.ask.kind != "rest"

    def dice(state):
        state.adventurers[SHANNON].cooldown = [{"fatigue": "light"}] * 3  # day 1's rest takes one
    s = _rest_day(dice)
    assert s.days.ask.kind == "rest"


def test_a_rest_with_dice_named_and_an_empty_track_heals_all_the_same():
    def kit(state):
        state.adventurers[SHANNON].pack = ["travel-bread"]
    s = _rest_day(kit)
    s.adventurers[RYAN].hp = 1
    assert s.adventurers[RYAN].cooldown == []
    s, ev = run(s, "day.rest", RYAN, {"dice": [1]})
    assert "🛏️ Ryan rests: heals 1 HP (2/4); removes nothing (the track is empty)." in said(ev)
    # a place that is not on the track is refused naming what is there
    s.adventurers[SHANNON].cooldown = [{"fatigue": "light"}, {"status": "daze"}]
    words = refused(s, "day.rest", SHANNON, {"dice": [5]})
    assert "choose places 1 to 2" in words and "`dice:1` 1 light fatigue, `dice:2` daze status" in words
    s, ev = run(s, "day.rest", SHANNON, {"dice": "all"})
    assert s.adventurers[SHANNON].cooldown == [{"status": "daze"}]


def test_an_older_revision_asks_for_every_rest():
    s = _rest_day(rules=3)
    assert s.days.ask.kind == "rest"


# -------------------------------------------------------------- item 9: Reward Phases that wait for nothing --
def _reward_with_nothing_to_buy(rules=None):
    """Wayside Camp's first choice gives 1 XP each.  Ryan's tenacity is at its maximum and his Health row is
    full, so his 1 XP buys nothing (his other advancements cost 2); Shannon's buys a Combat die."""
    def ryan(state):
        adv = state.adventurers[RYAN]
        adv.tenacity = 5  # Tenacity +1 is not on offer
        adv.rows[0].squares = [{"stat": "health"}] * len(adv.rows[0].squares)
    s, _ = at_card("ge-p01", setup=ryan)
    if rules is not None:
        s.rules = rules
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    return s, said(ev)


def test_a_player_who_can_buy_nothing_is_not_waited_for_in_the_reward_phase():
    s, words = _reward_with_nothing_to_buy()
    assert "The party gains 1 XP" in words
    assert "Ryan (1 XP) can buy nothing with that XP now and keeps it for a later Reward Phase." in words
    assert s.days.ask.kind == "reward" and s.days.ask.owners == [SHANNON]
    assert "Untrain and spend XP: Shannon has 1 XP." in words
    s, ev = run(s, "reward.done", SHANNON)
    assert s.adventurers[RYAN].saved_xp == 1 and s.days.phase == "end-of-day"
    old, _ = _reward_with_nothing_to_buy(rules=3)
    assert old.days.ask.kind == "reward" and old.days.ask.owners == [RYAN, SHANNON]  # as before


# ---------------------------------------------------------- item 9: a retreat does not wait for a free move --
def _rogue_battle():
    from test_battle_reactions import _bandit_next_to, _battle

    s = _battle("rogue", tenacity=2)
    _bandit_next_to(s)
    s.adventurers["S"].hp = 3
    return s


def test_with_a_retreat_called_no_free_move_is_asked_and_the_round_ends():
    s = _rogue_battle()
    s, _ = brun(s, "battle.endturn", "S")
    s, _ = brun(s, "battle.retreat", "S")
    s, ev = brun(s, "battle.endturn", "R", forced=[2])  # the bandit deals 1 damage: Slip Away would be offered
    words = texts(ev)
    assert "but the party is retreating: the round ends without waiting for a move" in words
    assert s.battle is None and s.last_battle.outcome == "retreat"
    assert s.adventurers["S"].tenacity == 2  # Slip Away was not paid for


def test_a_retreat_called_while_a_free_move_waits_ends_the_round():
    s = _rogue_battle()
    s, _ = brun(s, "battle.endturn", "S")
    s, _ = brun(s, "battle.endturn", "R", forced=[2])
    assert s.battle.offers  # Slip Away waits for Shannon
    s, ev = brun(s, "battle.retreat", "S")
    assert "Shannon stays in place: the party is retreating (no tenacity spent on Slip Away)." in texts(ev)
    assert s.battle is None and s.last_battle.outcome == "retreat"


def test_an_older_revision_still_asks_about_the_free_move_while_retreating():
    s = _rogue_battle()
    s.rules = 3
    s, _ = brun(s, "battle.endturn", "S")
    s, _ = brun(s, "battle.retreat", "S")
    s, _ = brun(s, "battle.endturn", "R", forced=[2])
    assert s.battle is not None and s.battle.offers


# -------------------------------------------------- rule fault 16: a full party defeat at an unstable landmark --
def _defeated_at(landmark: str, rules=None):
    s, _ = at_card("ge-c01", landmark=landmark)
    if rules is not None:
        s.rules = rules
    for o in (RYAN, SHANNON):
        s.adventurers[o].tenacity = 0
    assert s.days.encounter.landmark == landmark
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    for u in s.battle.units.values():  # the whole party falls
        if u.side == "adventurer":
            s.adventurers[u.owner].hp = 0
            u.defeated, u.q, u.r = True, None, None
    s, ev = run(s, "battle.endturn", s.battle.turn.owner)
    s, ev2 = run(s, "quest.assist", RYAN, {"use": False})
    return s, said(ev + ev2)


def test_a_party_defeated_at_an_unstable_landmark_wakes_in_town_without_its_tenacity():
    s, words = _defeated_at("unstable")
    old, old_words = _defeated_at("unstable", rules=3)
    assert "the party wakes in Reedwick (3,2), the closest town" in words
    assert "The party was defeated and woke in the closest town: the unstable landmark's 2 tenacity is not gained." \
        in words and "each adventurer gains 2 tenacity" not in words
    # a campaign on revision 3 gains it as before, and that is the only difference
    assert "each adventurer gains 2 tenacity (Ryan +2" in old_words
    for o in (RYAN, SHANNON):
        assert s.adventurers[o].tenacity == old.adventurers[o].tenacity - 2
