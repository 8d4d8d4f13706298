"""Side quests 18 to 30, each played by its card's text (rulebook pp.40 and 48).

Every card is taken at Brinehold's quest board on day 1 (the board's two draws stacked), then triggered as its
text says: an encounter side quest by moving into its landmark or by being in a town on a later day, a tally
side quest by succeeding at the encounters it counts and then reaching a town.  Each choice is played on a fresh
campaign (social checks passed or failed with forced dice, battles won as tests/test_day_cards.py wins them), and
the party's state and the words posted are checked against the text.
"""
from __future__ import annotations

import pytest

from day_helpers import BRINEHOLD_SHOP, DECK_STACK, RYAN, SHANNON, examples_party, run, said, stack, train
from rulesets.tes.battle.model import map_info
from rulesets.tes.content import load_pack
from test_day_cards import win_battle

PACK = load_pack("starter")
SIDES = PACK.campaign.side_quests
OURS = {18: "sq-surveyors-ledger", 19: "sq-runaway-swarm", 20: "sq-card-sharp", 21: "sq-veterans-wager",
        22: "sq-bone-pickers", 23: "sq-risen-standard", 24: "sq-weather-witness", 25: "sq-voice-in-the-rift",
        26: "sq-cellar-thief", 27: "sq-two-errands", 28: "sq-dark-beacon", 29: "sq-gate-sellswords",
        30: "sq-players-posters"}
BRINEHOLD, REEDWICK, CAIRN = (3, 6), (3, 2), (1, 1)
PEACEFUL, CONFLICT, UNSTABLE = (3, 7), (4, 5), (3, 3)  # from Brinehold at Low Tide (tests/day_helpers.py)


def test_numbers_18_to_30_are_these_cards():
    assert {n: sq.id for sq in SIDES.values() for n in [sq.number] if 18 <= n <= 30} == OURS
    for sq in (SIDES[x] for x in OURS.values()):
        assert sq.label == f"SQ {sq.number}" and sq.id not in PACK.overland_cards


# ------------------------------------------------------------------------------------------------ helpers --
def speech(state):
    """Shannon trains Speech: two Stern Presence dice (faces 1, 1, 2 sway, 1 rally, tenacity, blank)."""
    train(state, SHANNON, "speech", ["stern-presence", "stern-presence"])


def holding(side: str, setup=None, more=()):
    """Day 1 at Brinehold: Shannon reads the quest board (``side`` and The Missing Courier drawn) and accepts
    ``side`` for the party; the day ends.  Returns (state at day 2's route, the words of day 1 from the board)."""
    s = examples_party()
    if setup is not None:
        setup(s)
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP + [
        "sm-p01", side, "sq-missing-courier", *more]})
    s, ev = run(s, "town.visit", SHANNON, {"feature": "board"})
    s, ev2 = run(s, "quest.accept", SHANNON, {"pick": "1"})
    sq = SIDES[side]
    text = said(ev + ev2)
    assert f"the party gains the side quest **{sq.name}** (SQ {sq.number}): {sq.story} {sq.text}" in text
    assert [x.id for x in s.quests.sides] == [side]
    s, more_text = finish_day(s)
    return s, text + "\n" + more_text


def finish_day(s):
    """Everyone done in town, with the reward and the rest (the defaults), until the next day's route (a card's
    reward for one adventurer goes to Shannon)."""
    words = []
    for _ in range(12):
        ask = s.days.ask
        if ask is None or ask.kind == "route":
            break
        if ask.kind == "chosen":  # a card's reward for one adventurer: the party chooses Shannon
            s, ev = run(s, "day.pick", RYAN, {"pick": "Shannon"})
        else:
            who = ask.owners[0]
            s, ev = run(s, {"reward": "reward.done", "rest": "day.rest", "town": "town.done"}[ask.kind], who)
        words.append(said(ev))
    assert s.days.ask is not None and s.days.ask.kind == "route", s.days.ask
    return s, "\n".join(words)


def go(s, to=None, *, start=None, cards=(), forced=None):
    """The party sets out (from ``start`` if given; the tide kept low) to ``to``, or stays where it is."""
    if start is not None:
        s.days.party = list(start)
    s.days.gauge = "low"
    if cards:
        s = stack(s, *cards)
    s, ev = run(s, "day.route", RYAN, {"to": list(to)} if to is not None else {"stay": True})
    if s.days.ask is not None and s.days.ask.kind == "vote":
        s, ev2 = run(s, "day.vote", SHANNON, {}, forced=forced)
        ev = ev + ev2
    return s, said(ev)


def triggered(text: str, side: str) -> None:
    sq = SIDES[side]
    assert f"The side quest {sq.name} (SQ {sq.number}) triggers its encounter here" in text
    assert f"**{sq.name}** (SQ {sq.number}): {sq.story}" in text
    for ch in sq.choices:
        assert f"**{ch.title}** (☼ {ch.xp} XP): {ch.text}" in text


def choose(s, number: int):
    s, ev = run(s, "day.choose", RYAN, {"choice": number})
    return s, said(ev)


def check(s, succeed: bool):
    """Shannon rolls both Speech dice (2 + 2 sway) for a success, or none; nobody spends tenacity."""
    if succeed:
        s, ev = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[3, 3])
    else:
        s, ev = run(s, "day.check", SHANNON, {"dice": []})
    words = [said(ev)]
    while s.days.ask is not None and s.days.ask.kind == "check-tenacity":
        s, ev = run(s, "day.check", s.days.ask.owners[0], {"tenacity": 0})
        words.append(said(ev))
    return s, "\n".join(words)


def pick(s, who: str = "Shannon"):
    """The party chooses the adventurer a 'one adventurer the party chooses' effect names."""
    assert s.days.ask is not None and s.days.ask.kind == "chosen", s.days.ask
    s, ev = run(s, "day.pick", RYAN, {"pick": who})
    return s, said(ev)


def done(text: str, side: str) -> None:
    sq = SIDES[side]
    assert f"✅ The side quest {sq.name} (SQ {sq.number}) is completed" in text


def items(adv) -> list[str]:
    return adv.ready + adv.pack + ([adv.holding] if adv.holding else [])


def fatigue(adv, kind: str = "light") -> int:
    return sum(1 for e in adv.cooldown if e.get("fatigue") == kind)


def keywords(s) -> list[str]:
    return [m["keyword"] for m in s.journal.minor]


def xp_gained(text: str, xp: int) -> None:
    assert f"The party gains {xp} XP" in text


BOTH = (RYAN, SHANNON)


# ------------------------------------------------------------------------ SQ 19: The Runaway Swarm --
def swarm(setup=speech, hurt=3):
    s, _ = holding("sq-runaway-swarm", setup=setup)
    s, text = go(s, PEACEFUL)
    triggered(text, "sq-runaway-swarm")
    assert s.days.ask.kind == "card" and s.days.ask.data["card"] == "sq-runaway-swarm"
    for adv in s.adventurers.values():
        adv.hp = adv.max_hp - hurt
    return s


@pytest.mark.parametrize("succeed", [True, False])
def test_runaway_swarm_coaxed_heals_2_on_a_successful_check(succeed):
    s = swarm()
    s, text = choose(s, 1)
    assert "difficulty the party size + 2 = 4 (party of 2)" in text
    s, words = check(s, succeed)
    for o in BOTH:
        a = s.adventurers[o]
        assert a.hp == a.max_hp - (1 if succeed else 3)
    if succeed:
        assert "The social check succeeds" in words and "Ryan heals 2 HP" in words
    else:
        assert "The social check fails" in words and "heals" not in words
    done(words, "sq-runaway-swarm")
    xp_gained(words, 1)
    assert s.quests.sides == []


def test_runaway_swarm_smoked_out_deals_1_damage_and_gives_the_honey_cakes():
    s = swarm(setup=None, hurt=0)
    s, text = choose(s, 2)
    s, words = pick(s, "Shannon")
    text += "\n" + words
    for o in BOTH:
        a = s.adventurers[o]
        assert a.hp == a.max_hp - 1
    assert "Ryan is dealt 1 damage (3/4 HP)" in text and "Shannon is dealt 1 damage (4/5 HP)" in text
    assert "honey-cakes" in items(s.adventurers[SHANNON]) and "honey-cakes" not in items(s.adventurers[RYAN])
    assert "Shannon gains Honey Cakes" in text
    done(text, "sq-runaway-swarm")
    xp_gained(text, 2)


# ---------------------------------------------------------------------------- SQ 20: The Card Sharp --
def card_sharp():
    s, _ = holding("sq-card-sharp", setup=speech)
    s, text = go(s)  # day 2: the party stays in Brinehold, a town: the quest encounter in place of the town's
    triggered(text, "sq-card-sharp")
    assert "a town encounter" not in text and s.days.town is None
    for adv in s.adventurers.values():
        adv.tenacity = 0  # nothing but the dice in the social check
    return s


def test_card_sharp_called_out_after_a_successful_check():
    s = card_sharp()
    s, text = choose(s, 1)
    assert "difficulty the party size + 2 = 4 (party of 2)" in text
    s, words = check(s, True)
    assert "The social check succeeds" in words
    for o in BOTH:  # 1 XP of their own, then the choice's 2 XP in the Reward Phase (the XP Dial: 2 only)
        assert s.adventurers[o].saved_xp == 3
    assert s.xp_dial == 4
    assert keywords(s) == ["card-sharp-exposed"]
    assert "the party gains the keyword **Card Sharp Exposed**" in words
    assert "Ryan gains 1 bonus XP" in words and "Shannon gains 1 bonus XP" in words
    done(words, "sq-card-sharp")
    xp_gained(words, 2)


def test_card_sharp_a_failed_check_leaves_winning_it_back_which_costs_1_tenacity():
    s = card_sharp()
    for adv in s.adventurers.values():
        adv.tenacity = 1
    s, _ = choose(s, 1)
    s, words = check(s, False)  # no dice, and each keeps their 1 tenacity: 0 against 4
    assert "The social check fails" in words
    assert "Only one way is open: **Win it back at his own game**" in words
    assert [s.adventurers[o].tenacity for o in BOTH] == [0, 0]
    assert keywords(s) == [] and all(s.adventurers[o].saved_xp == 1 for o in BOTH)
    done(words, "sq-card-sharp")
    xp_gained(words, 1)


def test_card_sharp_won_back_at_cards_costs_each_adventurer_1_tenacity():
    s = card_sharp()
    for adv in s.adventurers.values():
        adv.tenacity = 2
    s, text = choose(s, 2)
    assert [s.adventurers[o].tenacity for o in BOTH] == [1, 1]
    assert "Ryan loses 1 tenacity" in text
    assert keywords(s) == []
    done(text, "sq-card-sharp")
    xp_gained(text, 1)


# -------------------------------------------------------------------------- SQ 22: The Bone-Pickers --
EAST_CONFLICT = (5, 3)  # the easternmost conflict landmark of the Saltmire


def bone_pickers():
    s, _ = holding("sq-bone-pickers")
    s, text = go(s, EAST_CONFLICT)
    triggered(text, "sq-bone-pickers")
    return s


def test_bone_pickers_camp_raided_a_won_battle_gives_one_adventurer_a_legendary_item():
    s = bone_pickers()
    s, text = choose(s, 1)
    assert s.battle is not None and s.battle.encounter == "sq-bone-pickers"
    assert any(u.enemy == "skeleton" for u in s.battle.units.values() if u.side == "enemy")
    s, _ = win_battle(s)
    before = {o: list(items(s.adventurers[o])) for o in BOTH}
    s, words = pick(s, "Shannon")
    got = [x for x in items(s.adventurers[SHANNON]) if x not in before[SHANNON]]
    assert len(got) == 1 and PACK.items[got[0]].rarity == "legendary"
    assert items(s.adventurers[RYAN]) == before[RYAN]
    assert PACK.items[got[0]].name in words
    done(words, "sq-bone-pickers")
    xp_gained(words, 3)


def test_bone_pickers_bones_reburied_light_fatigue_and_the_keyword():
    s = bone_pickers()
    s, text = choose(s, 2)
    assert s.battle is None
    assert [fatigue(s.adventurers[o]) for o in BOTH] == [1, 1]
    assert keywords(s) == ["bones-reburied"] and "the party gains the keyword **Bones Reburied**" in text
    done(text, "sq-bone-pickers")
    xp_gained(text, 1)


# ------------------------------------------------------------------------- SQ 23: The Risen Standard --
WEST_CONFLICT = (1, 2)  # the westernmost conflict landmark, next to Cairn Tollan


def risen_standard():
    s, _ = holding("sq-risen-standard")
    s, text = go(s, WEST_CONFLICT, start=CAIRN)
    triggered(text, "sq-risen-standard")
    assert "First the battle: The Risen Company" in text
    assert s.battle is not None and s.battle.encounter == "sq-risen-company"
    # its special rule: the Skeleton Warden stands in hex A, free of the pool (XP Dial 2 x 2 adventurers = 4)
    foes = [u for u in s.battle.units.values() if u.side == "enemy"]
    warden = next(u for u in foes if u.enemy == "skeleton-warden")
    hex_a = map_info(PACK, s.battle).labels["A"]
    assert (warden.q, warden.r) == (hex_a.q, hex_a.r)
    assert sum(u.level for u in foes if u is not warden) == 4
    assert "in hex A" in text and "free of the pool" in text
    s, _ = win_battle(s)
    assert s.days.ask.kind == "card" and s.days.ask.data["card"] == "sq-risen-standard"
    return s


def test_risen_standard_burned_each_adventurer_recovers_1_fatigue_die():
    s = risen_standard()
    for adv in s.adventurers.values():
        adv.cooldown = [{"fatigue": "light"}, {"status": "daze"}, {"fatigue": "over"}]
    s, text = choose(s, 1)
    for o in BOTH:
        assert s.adventurers[o].cooldown == [{"status": "daze"}, {"fatigue": "over"}]
    assert "Ryan recovers 1 fatigue die" in text and "Shannon recovers 1 fatigue die" in text
    done(text, "sq-risen-standard")
    xp_gained(text, 2)


def test_risen_standard_carried_to_the_garrison_gives_the_oak_buckler():
    s = risen_standard()
    s, text = choose(s, 2)
    s, words = pick(s, "Ryan")
    assert "oak-buckler" in items(s.adventurers[RYAN]) and "oak-buckler" not in items(s.adventurers[SHANNON])
    assert "Ryan gains Oak Buckler" in words
    done(words, "sq-risen-standard")
    xp_gained(words, 2)


# --------------------------------------------------------------------- SQ 29: Sellswords at the Gate --
def gate_sellswords():
    s, _ = holding("sq-gate-sellswords")
    s, text = go(s)  # day 2 in Brinehold: the battle first, in place of the town encounter
    triggered(text, "sq-gate-sellswords")
    assert "First the battle: Sellswords at the Gate" in text and s.days.town is None
    assert s.battle is not None and s.battle.encounter == "sq-gate-sellswords"
    enemies = [u.enemy for u in s.battle.units.values() if u.side == "enemy"]
    assert len(enemies) == 2 and all(k.endswith("-bandit") for k in enemies)  # 1 bandit per adventurer
    s, _ = win_battle(s)
    return s


def test_gate_sellswords_toll_box_each_adventurer_draws_a_common_item():
    s = gate_sellswords()
    before = {o: list(items(s.adventurers[o])) for o in BOTH}
    s, text = choose(s, 1)
    for o in BOTH:
        got = [x for x in items(s.adventurers[o]) if x not in before[o]]
        assert len(got) == 1 and PACK.items[got[0]].rarity == "common"
        assert PACK.items[got[0]].name in text
    done(text, "sq-gate-sellswords")
    xp_gained(text, 2)


def test_gate_sellswords_takings_given_back_each_adventurer_heals_1():
    s = gate_sellswords()
    for adv in s.adventurers.values():
        adv.hp = adv.max_hp - 2
    s, text = choose(s, 2)
    for o in BOTH:
        assert s.adventurers[o].hp == s.adventurers[o].max_hp - 1
    assert "Ryan heals 1 HP" in text and "Shannon heals 1 HP" in text
    done(text, "sq-gate-sellswords")
    xp_gained(text, 3)


# ----------------------------------------------------------------------- SQ 25: A Voice in the Rift --
def voice_in_the_rift():
    s, _ = holding("sq-voice-in-the-rift")
    s, text = go(s, UNSTABLE)
    triggered(text, "sq-voice-in-the-rift")
    assert "rolls the unstable die" not in text  # the quest encounter comes in place of the unstable die
    return s


def test_voice_in_the_rift_followed_light_fatigue_and_the_stray_dog():
    s = voice_in_the_rift()
    s, text = choose(s, 1)
    s, words = pick(s, "Shannon")
    text += "\n" + words
    assert [fatigue(s.adventurers[o]) for o in BOTH] == [1, 1]
    assert "stray-dog" in items(s.adventurers[SHANNON]) and "stray-dog" not in items(s.adventurers[RYAN])
    assert "Shannon gains Stray Dog" in text
    done(text, "sq-voice-in-the-rift")
    xp_gained(text, 2)


def test_voice_in_the_rift_marked_each_adventurer_chooses_tenacity_or_healing():
    s = voice_in_the_rift()
    for adv in s.adventurers.values():
        adv.hp, adv.tenacity = adv.max_hp - 2, 1
    s, text = choose(s, 2)
    assert s.days.ask.kind == "either" and sorted(s.days.ask.owners) == sorted(BOTH)
    assert s.days.ask.data["options"] == ["Gain 1 tenacity", "Heal 1 HP"]
    s, ev = run(s, "day.pick", RYAN, {"pick": 1})
    s, ev2 = run(s, "day.pick", SHANNON, {"pick": 2})
    text = said(ev + ev2)
    ryan, shannon = s.adventurers[RYAN], s.adventurers[SHANNON]
    assert (ryan.tenacity, ryan.hp) == (2, ryan.max_hp - 2)
    assert (shannon.tenacity, shannon.hp) == (1, shannon.max_hp - 1)
    done(text, "sq-voice-in-the-rift")
    xp_gained(text, 1)


# --------------------------------------------------------------------------- SQ 26: The Cellar Thief --
def cellar_thief():
    s, _ = holding("sq-cellar-thief", more=["sq-lantern-oil"])
    s, text = go(s)  # day 2 in Brinehold: the quest encounter in place of the town encounter
    triggered(text, "sq-cellar-thief")
    assert s.days.town is None
    return s


def test_cellar_thief_waited_out_1_damage_and_the_top_side_quest():
    s = cellar_thief()
    s, text = choose(s, 1)
    for o in BOTH:
        assert s.adventurers[o].hp == s.adventurers[o].max_hp - 1
    lantern = SIDES["sq-lantern-oil"]
    assert [x.id for x in s.quests.sides] == ["sq-lantern-oil"]  # the new card; the cellar's is completed
    assert f"the party gains the side quest **{lantern.name}** (SQ 4)" in text
    done(text, "sq-cellar-thief")
    xp_gained(text, 1)


def test_cellar_thief_rat_catcher_1_extra_hex_tomorrow():
    s = cellar_thief()
    s, text = choose(s, 2)
    assert s.days.extra_move == 1 and "tomorrow the party may move 1 extra hex" in text
    done(text, "sq-cellar-thief")
    xp_gained(text, 1)
    s = stack(s, "sm-p01")  # the End of Day's peaceful card: Clear Sky, the tide stays low
    s, words = finish_day(s)
    assert "Today the party moves up to 4 hexes" in words
    s, _ = run(s, "day.route", RYAN, {"path": [[3, 5], [3, 4], [3, 3], [3, 2]]})  # 4 hexes, no fatigue
    s, _ = run(s, "day.vote", SHANNON, {})
    assert all(fatigue(s.adventurers[o]) == 0 for o in BOTH)


# ---------------------------------------------------------------------------- SQ 28: The Dark Beacon --
NORTH = (4, 0)  # the northernmost landmark of the Saltmire (an unstable one)


def dark_beacon(setup=speech):
    s, _ = holding("sq-dark-beacon", setup=setup)
    s, text = go(s, NORTH, start=REEDWICK)
    triggered(text, "sq-dark-beacon")
    return s


def test_dark_beacon_kept_all_night_light_fatigue_and_the_keyword():
    s = dark_beacon()
    s, text = choose(s, 1)
    assert [fatigue(s.adventurers[o]) for o in BOTH] == [1, 1]
    assert keywords(s) == ["beacon-keeper"] and "the party gains the keyword **Beacon Keeper**" in text
    done(text, "sq-dark-beacon")
    xp_gained(text, 2)


@pytest.mark.parametrize("succeed", [True, False])
def test_dark_beacon_shepherds_taught_2_tenacity_on_a_successful_check(succeed):
    s = dark_beacon()
    s, text = choose(s, 2)
    assert "difficulty the party size + 1 = 3 (party of 2)" in text
    s, words = check(s, succeed)
    assert [s.adventurers[o].tenacity for o in BOTH] == ([2, 2] if succeed else [0, 0])
    assert ("The social check succeeds" if succeed else "The social check fails") in words
    done(words, "sq-dark-beacon")
    xp_gained(words, 1)


# ------------------------------------------------------------------------------------------- tallies --
def encounter_day(s, to, card, choice, *, start=None, forced=None):
    """A day at a landmark: ``card`` drawn there and its ``choice`` taken (a clash won); the day finished."""
    s, text = go(s, to, start=start, cards=[card], forced=forced)
    assert s.days.encounter.card == card, s.days.encounter
    if s.days.ask is not None and s.days.ask.kind == "card":
        s, words = choose(s, choice)
        text += "\n" + words
    if s.battle is not None:
        s, _ = win_battle(s)
    s, words = finish_day(s)
    return s, text + "\n" + words


def tally_line(side: str, n: int) -> str:
    sq = SIDES[side]
    line = f"🗒️ {sq.name} (SQ {sq.number}): {n} of {sq.trigger.count}"
    return line + (" — done. Its rewards come at the next town encounter." if n == sq.trigger.count else ".")


def completed_in_town(text: str, side: str) -> None:
    sq = SIDES[side]
    assert f"✅ The side quest {sq.name} (SQ {sq.number}) is completed here: ☼ {sq.xp} XP in the Reward Phase." \
        in text


def test_surveyors_ledger_2_peaceful_encounters_then_a_town_2_xp_and_1_extra_hex_the_next_day():
    side = "sq-surveyors-ledger"
    s, text = holding(side)
    assert tally_line(side, 1) not in text  # day 1's town encounter is not a peaceful one
    s, text = encounter_day(s, PEACEFUL, "ge-p01", 1)
    assert tally_line(side, 1) in text and s.quests.sides[0].count == 1
    s, text = encounter_day(s, PEACEFUL, "sm-p02", 1, start=BRINEHOLD)
    assert tally_line(side, 2) in text and s.quests.sides[0].ready
    xp_before = [s.adventurers[o].saved_xp for o in BOTH]
    s, text = go(s, BRINEHOLD)  # day 4: into Brinehold, a town encounter
    assert "a town encounter" in text
    completed_in_town(text, side)
    assert s.days.extra_move == 1 and "The Surveyor's Ledger: tomorrow the party may move 1 extra hex" in text
    assert s.quests.sides == [] and side in s.journal.sessions[-1].sides_done
    s = stack(s, "sm-p01")  # the End of Day's peaceful card: Clear Sky, the tide stays low
    s, words = finish_day(s)
    xp_gained(words, 2)
    assert [s.adventurers[o].saved_xp for o in BOTH] == [min(3, x + 2) for x in xp_before]
    assert "Today the party moves up to 4 hexes" in words


def test_veterans_wager_a_won_battle_then_a_town_tenacity_and_the_keyword():
    side = "sq-veterans-wager"
    s, _ = holding(side)
    s, text = encounter_day(s, CONFLICT, "ge-c01", 1)  # Bandits on the Road: Fight through, won
    assert tally_line(side, 1) in text and s.quests.sides[0].ready
    tenacity = [s.adventurers[o].tenacity for o in BOTH]
    s, text = go(s, BRINEHOLD)
    completed_in_town(text, side)
    assert [s.adventurers[o].tenacity for o in BOTH] == [min(5, t + 1) for t in tenacity]
    assert "Ryan gains 1 tenacity" in text and "Shannon gains 1 tenacity" in text
    assert keywords(s) == ["wager-won"] and "the party gains the keyword **Wager Won**" in text
    assert s.quests.sides == []
    s, words = finish_day(s)
    xp_gained(words, 1)


def test_veterans_wager_a_peaceful_way_out_of_a_conflict_does_not_count():
    side = "sq-veterans-wager"
    s, _ = holding(side, setup=lambda st: setattr(st.adventurers[RYAN], "tenacity", 1))
    s, text = encounter_day(s, CONFLICT, "ge-c01", 2)  # Bandits on the Road: Pay them off
    assert tally_line(side, 1) not in text and s.quests.sides[0].count == 0


def test_weather_witness_an_unstable_landmark_then_a_town_2_xp_and_1_xp_of_their_own():
    side = "sq-weather-witness"
    s, _ = holding(side)
    s, text = encounter_day(s, UNSTABLE, "ge-p01", 1, forced=[6])  # the unstable die: 6, a peaceful card
    assert "rolls the unstable die: 6, peaceful" in text
    assert tally_line(side, 1) in text and s.quests.sides[0].ready
    xp = [s.adventurers[o].saved_xp for o in BOTH]
    s, text = go(s, REEDWICK)  # day 3: into Reedwick
    completed_in_town(text, side)
    assert [s.adventurers[o].saved_xp for o in BOTH] == [x + 1 for x in xp]
    assert "Ryan gains 1 bonus XP" in text and "Shannon gains 1 bonus XP" in text
    dial = s.xp_dial
    s, words = finish_day(s)
    xp_gained(words, 2)
    assert s.xp_dial == dial + 2  # the bonus XP is not on the dial


def test_two_errands_any_2_encounters_then_a_town_1_xp_and_tenacity():
    side = "sq-two-errands"
    s, text = holding(side)
    assert tally_line(side, 1) in text  # day 1's town encounter, where the card was taken, counts
    s, text = encounter_day(s, PEACEFUL, "ge-p01", 1)
    assert tally_line(side, 2) in text and s.quests.sides[0].ready
    tenacity = [s.adventurers[o].tenacity for o in BOTH]
    s, text = go(s, BRINEHOLD)
    completed_in_town(text, side)
    assert [s.adventurers[o].tenacity for o in BOTH] == [min(5, t + 1) for t in tenacity]
    assert "Two Errands for the Widow: Ryan gains 1 tenacity" in text
    s, words = finish_day(s)
    xp_gained(words, 1)


def test_players_posters_2_town_encounters_then_a_town_recovers_2_fatigue_dice():
    side = "sq-players-posters"
    s, text = holding(side)
    assert tally_line(side, 1) in text  # day 1's town encounter at Brinehold
    s, text = go(s)  # day 2: the party stays in Brinehold, another town encounter
    s, words = finish_day(s)
    assert tally_line(side, 2) in words and s.quests.sides[0].ready
    for adv in s.adventurers.values():
        adv.cooldown = [{"status": "daze"}, {"fatigue": "light"}, {"fatigue": "over"}, {"fatigue": "light"}]
    s, text = go(s)  # day 3: still in Brinehold: completed here
    completed_in_town(text, side)
    for o in BOTH:
        assert s.adventurers[o].cooldown == [{"status": "daze"}, {"fatigue": "light"}]
    assert "Ryan recovers 2 fatigue dice" in text and "Shannon recovers 2 fatigue dice" in text
    s, words = finish_day(s)
    xp_gained(words, 1)
