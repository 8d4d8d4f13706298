"""Side quests 1-17 played by their texts (pp.40 and 48): each card is taken at Brinehold's quest board (stacked),
triggered where its text says (its landmark, a town, or the encounters it counts and then a town encounter), and
every choice is made: the party changes as the text says, and the words posted say so.

The side quests not tied to the Saltmire's own landmarks name them by kind (the northernmost peaceful landmark,
the easternmost landmark...): the party is set down next to that landmark and moves into it.  Battles are won as
tests/test_day_cards.py wins them (every enemy falls); social checks are passed or failed with tenacity.
"""
from __future__ import annotations

import pytest

from day_helpers import BRINEHOLD_SHOP, DECK_STACK, LANDMARK_HEX, RYAN, SHANNON, examples_party, run, said, stack
from engine.hexes import Hex, neighbours
from rulesets.tes.content import load_pack
from rulesets.tes.quest.guild import extreme_landmark
from test_day_cards import win_battle

PACK = load_pack("starter")
SIDES = PACK.campaign.side_quests
PROV = PACK.provinces["saltmire"]
BRINEHOLD = list(PROV.hex_of_town("brinehold"))
SOUTH_CONFLICT = [1, 7]  # three hexes from Brinehold and from Smugglers' Steps (4,5)
WEST_PEACEFUL = [-1, 6]  # four hexes from the peaceful landmark at 3,7; next to Ossmere
OSSMERE = list(PROV.hex_of_town("ossmere"))


# ------------------------------------------------------------------ helpers --
def take(side_id: str, setup=None):
    """Day 1 at Brinehold: Shannon reads the quest board (two side quests stacked) and accepts ``side_id`` for the
    party; the day ends (Low Tide kept: the Tide's card of the night is the sunny SM 1); ``setup`` changes the
    party on the morning of day 2.  Returns the state waiting for day 2's route, and the words of day 1."""
    s = examples_party()
    other = next(x for x in sorted(SIDES) if x != side_id)
    s, ev = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP + [
        "sm-p01", side_id, other]})
    s, more = run(s, "town.visit", SHANNON, {"feature": "board"})
    ev += more
    s, more = run(s, "quest.accept", SHANNON, {"pick": SIDES[side_id].name})
    ev += more
    assert [x.id for x in s.quests.sides] == [side_id]
    for who in (RYAN, SHANNON):
        s, more = run(s, "town.done", who)
        ev += more
    s, more = finish_day(s)
    ev += more
    assert s.days.ask.kind == "route" and s.day_dial == 2 and s.days.gauge == "low"
    if setup is not None:  # the morning of day 2
        setup(s)
    return s, said(ev)


def finish_day(s):
    """Everyone done with the reward and the rest (defaults), until the next day's route."""
    ev = []
    for _ in range(8):
        ask = s.days.ask
        if ask is None or ask.kind == "route":
            break
        s, more = run(s, {"reward": "reward.done", "rest": "day.rest", "town": "town.done"}[ask.kind],
                      ask.owners[0])
        ev += more
    return s, ev


def go(s, to, forced=None):
    """The leader's route to ``to`` (or staying), Shannon agrees: the party moves and what it triggers begins."""
    args = {"stay": True} if to is None else {"to": list(to)}
    s, ev = run(s, "day.route", RYAN, args)
    if s.days.ask is not None and s.days.ask.kind == "vote":
        s, more = run(s, "day.vote", SHANNON, {}, forced=forced)
        ev += more
    return s, said(ev)


def set_down_by(s, target) -> None:
    """The party token is set down on an empty hex next to ``target`` (a landmark far from Brinehold)."""
    chime = tuple(PACK.campaign.quests["sm-sunken-chime"].steps[0].trigger.hex)  # the guild quest's step A
    spot = next(h for h in neighbours(Hex(*target)) if h in PROV.hexes and h not in PROV.features
                and tuple(h) != chime)
    s.days.party = [spot.q, spot.r]


def worn(s) -> None:
    """Something for each reward to change: HP 2 below the top, 1 tenacity, a light fatigue die on the track."""
    for adv in s.adventurers.values():
        adv.hp = adv.max_hp - 2
        adv.tenacity = 1
        adv.cooldown = [{"fatigue": "light"}]


def snap(s) -> dict:
    out = {}
    for o, a in s.adventurers.items():
        out[o] = {"hp": a.hp, "tenacity": a.tenacity, "xp": a.saved_xp,
                  "light": sum(1 for e in a.cooldown if e.get("fatigue") == "light"),
                  "over": sum(1 for e in a.cooldown if e.get("fatigue") == "over"),
                  "items": list(a.ready) + list(a.pack)}
    out["keywords"] = [m["keyword"] for m in s.journal.minor]
    out["xp_dial"] = s.xp_dial
    return out


def pass_check(s, tenacity: dict):
    """The social check with tenacity alone: each commits what ``tenacity`` says (nobody has Speech dice)."""
    assert s.days.ask.kind == "check-tenacity", s.days.ask
    ev = []
    for o in list(s.days.ask.owners):
        s, more = run(s, "day.check", o, {"tenacity": tenacity.get(o, 0)})
        ev += more
    return s, said(ev)


def pick(s, who: str, forced=None):
    """The party chooses ``who`` for an effect on one adventurer."""
    assert s.days.ask.kind == "chosen", s.days.ask
    s, ev = run(s, "day.pick", RYAN, {"pick": s.adventurers[who].name}, forced=forced)
    return s, said(ev)


def done(text: str, side_id: str) -> None:
    sq = SIDES[side_id]
    assert f"The side quest {sq.name} ({sq.label}) is completed" in text


def reward_xp(s, text: str, xp: int) -> None:
    """The choice's XP is the party's in the Reward Phase: on the XP Dial and each adventurer's to spend."""
    assert s.days.phase == "reward" and s.days.encounter.xp == xp
    assert f"The party gains {xp} XP" in text


def keyword(s, text: str, kid: str) -> None:
    name = PACK.campaign.keywords[kid].name
    assert f"the party gains the keyword **{name}**; it is written in the campaign journal" in text
    assert kid in [m["keyword"] for m in s.journal.minor] and kid in s.journal.keywords()


def in_town_next(s, to, side_id: str, forced=None):
    """A tally side quest's count is reached: the party ends its next Overland Phase in a town, and step 3 of
    the town encounter completes the quest.  Returns the state in the town, before and the words."""
    before = snap(s)
    s, text = go(s, to, forced=forced)
    assert s.days.town is not None and side_id not in [x.id for x in s.quests.sides]
    done(text, side_id)
    return s, before, text


# ---------------------------------------------------- the pack's first four --
def test_sq1_the_greedy_conjurer_handed_to_the_watch():
    s, text = take("sq-greedy-conjurer")
    s, text = go(s, SOUTH_CONFLICT)
    assert "First the battle: The Conjurer's Guards" in text and s.battle.encounter == "sq-conjurer-guards"
    s, _ = win_battle(s)
    before = snap(s)
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    text = said(ev)
    keyword(s, text, "conjurer-caught")
    assert "Conjurer Caught" in text
    done(text, "sq-greedy-conjurer")
    reward_xp(s, text, 2)
    assert snap(s)["xp_dial"] == before["xp_dial"] + 2
    assert s.quests.sides == [] and "sq-greedy-conjurer" in s.journal.current.sides_done


@pytest.mark.parametrize("choice", [1, 2])
def test_sq2_the_missing_courier(choice):
    s, _ = take("sq-missing-courier", setup=worn)
    s, text = go(s, LANDMARK_HEX["peaceful"])
    assert "The side quest The Missing Courier (SQ 2) triggers its encounter here" in text
    before = snap(s)
    s, ev = run(s, "day.choose", RYAN, {"choice": choice})
    text = said(ev)
    if choice == 1:  # one adventurer the party chooses draws 1 common item
        s, more = pick(s, SHANNON, forced=[1] * 10)
        text += "\n" + more
        got = snap(s)[SHANNON]["items"]
        assert len(got) == len(before[SHANNON]["items"]) + 1
        assert f"Shannon draws {PACK.items[got[-1]].name}" in text
        assert snap(s)[RYAN]["items"] == before[RYAN]["items"]
        xp = 1
    else:  # each adventurer gains 1 light fatigue and 1 tenacity
        after = snap(s)
        for o in (RYAN, SHANNON):
            assert after[o]["light"] == before[o]["light"] + 1
            assert after[o]["tenacity"] == before[o]["tenacity"] + 1
        assert "Ryan gains 1 light fatigue" in text and "Shannon gains 1 tenacity" in text
        xp = 2
    done(text, "sq-missing-courier")
    reward_xp(s, text, xp)


def test_sq3_marsh_patrol_two_conflict_encounters_then_a_town():
    s, _ = take("sq-marsh-patrol")
    s = stack(s, "ge-c02")  # Wolves in the Pass: climb and wait (1 light fatigue each)
    s, text = go(s, LANDMARK_HEX["conflict"])
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    s, more = finish_day(s)
    text = said(ev + more)
    assert "Marsh Patrol (SQ 3): 1 of 2." in text
    s = stack(s, "sm-c02", "sm-p01")  # the reed ambush: scatter and run; the night's Tide card is sunny
    s, text = go(s, SOUTH_CONFLICT)
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    s, more = finish_day(s)
    text = said(ev + more)
    assert "Marsh Patrol (SQ 3): 2 of 2 — done. Its rewards come at the next town encounter." in text
    assert s.quests.sides[0].ready
    s, before, text = in_town_next(s, BRINEHOLD, "sq-marsh-patrol")
    after = snap(s)
    for o in (RYAN, SHANNON):
        assert after[o]["tenacity"] == min(5, before[o]["tenacity"] + 1)
    keyword(s, text, "warden-friend")
    assert "☼ 2 XP in the Reward Phase" in text
    s, more = run(s, "town.done", RYAN)
    s, more2 = run(s, "town.done", SHANNON)
    text = said(more + more2)
    assert "The party gains 2 XP" in text and s.xp_dial == before["xp_dial"] + 2


def test_sq4_oil_for_the_lanterns_one_town_encounter_then_the_next():
    s, text = take("sq-lantern-oil", setup=worn)
    # day 1's town encounter, where the card was taken, is the one it counts
    assert "Oil for the Lanterns (SQ 4): 1 of 1 — done" in text
    s, before, text = in_town_next(s, None, "sq-lantern-oil")  # day 2: the party stays in Brinehold
    assert "☼ 1 XP in the Reward Phase" in text
    after = snap(s)
    for o in (RYAN, SHANNON):
        assert after[o]["hp"] == before[o]["hp"] + 1
    assert "Ryan heals 1 HP" in text and "Shannon heals 1 HP" in text
    s, more = run(s, "town.done", RYAN)
    s, more2 = run(s, "town.done", SHANNON)
    assert "The party gains 1 XP" in said(more + more2) and s.xp_dial == before["xp_dial"] + 1


# ------------------------------------------------------------ tallies 5-17 --
def test_sq5_wayside_candles_two_peaceful_encounters_then_a_town():
    s, _ = take("sq-wayside-candles", setup=worn)
    s = stack(s, "sm-p01")  # The Broken Weir: go round by the dunes (3 extra hexes tomorrow; the sun keeps Low Tide)
    s, _ = go(s, LANDMARK_HEX["peaceful"])
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    s, more = finish_day(s)
    assert "Candles for the Wayside Shrines (SQ 5): 1 of 2." in said(ev + more)
    s = stack(s, "ge-p01")  # a campfire: share the fire with strangers (1 tenacity each; sunny)
    s, _ = go(s, WEST_PEACEFUL)
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    s, more = finish_day(s)
    assert "Candles for the Wayside Shrines (SQ 5): 2 of 2 — done" in said(ev + more)
    for adv in s.adventurers.values():
        adv.cooldown = [{"fatigue": "over"}, {"fatigue": "light"}]
    s, before, text = in_town_next(s, OSSMERE, "sq-wayside-candles")
    after = snap(s)
    for o in (RYAN, SHANNON):  # the leftmost fatigue die comes off the track
        assert (after[o]["over"], after[o]["light"]) == (before[o]["over"] - 1, before[o]["light"])
    assert "Ryan recovers 1 fatigue die" in text and "Shannon recovers 1 fatigue die" in text
    assert "☼ 1 XP in the Reward Phase" in text
    s, more = finish_town(s)
    assert "The party gains 1 XP" in more and s.xp_dial == before["xp_dial"] + 1


def finish_town(s):
    ev = []
    for who in (RYAN, SHANNON):
        s, e = run(s, "town.done", who)
        ev += e
    return s, said(ev)


def battle_day(s, to, card: str):
    """A conflict landmark, its card's clash choice won (the night's Tide card is the sunny SM 1)."""
    s = stack(s, card, "sm-p01")
    s, _ = go(s, to)
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert s.battle is not None
    s, _ = win_battle(s)
    for _ in range(4):
        if s.days.ask is None or s.days.ask.kind != "chosen":
            break
        s, _ = pick(s, SHANNON, forced=[1] * 10)
    s, more = finish_day(s)
    return s, said(more)


def test_sq8_road_bounties_two_battles_won_then_a_town():
    s, _ = take("sq-road-bounties")
    s, text = battle_day(s, LANDMARK_HEX["conflict"], "ge-c01")  # Fight through the road bandits
    assert "Bounties on the Roads (SQ 8): 1 of 2." in text
    s, text = battle_day(s, SOUTH_CONFLICT, "ge-c02")  # Stand and fight the wolves
    assert "Bounties on the Roads (SQ 8): 2 of 2 — done" in text
    s, before, text = in_town_next(s, BRINEHOLD, "sq-road-bounties")
    keyword(s, text, "bounty-hunters")
    assert "Bounty Hunters" in text and "☼ 2 XP in the Reward Phase" in text
    s, more = finish_town(s)
    assert "The party gains 2 XP" in more and s.xp_dial == before["xp_dial"] + 2


def test_sq8_a_conflict_encounter_without_a_battle_is_not_counted():
    s, _ = take("sq-road-bounties")
    s = stack(s, "ge-c02")  # climb and wait: a success, but no battle
    s, _ = go(s, LANDMARK_HEX["conflict"])
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    s, more = finish_day(s)
    assert "Bounties on the Roads" not in said(ev + more) and s.quests.sides[0].count == 0


def test_sq11_wild_charts_one_unstable_encounter_then_a_town():
    s, _ = take("sq-wild-charts")
    s = stack(s, "sm-p01")
    s, text = go(s, LANDMARK_HEX["unstable"], forced=[6])  # the unstable die: a peaceful card
    if s.days.ask is not None and s.days.ask.kind == "card":
        s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    else:
        ev = []
    s, more = finish_day(s)
    assert "Charting the Wild Places (SQ 11): 1 of 1 — done" in said(ev + more)
    for adv in s.adventurers.values():
        adv.tenacity = 1
    s, before, text = in_town_next(s, list(PROV.hex_of_town("reedwick")), "sq-wild-charts")
    after = snap(s)
    for o in (RYAN, SHANNON):
        assert after[o]["tenacity"] == before[o]["tenacity"] + 2
    assert "Ryan gains 2 tenacity" in text and "Shannon gains 2 tenacity" in text
    assert "☼ 2 XP in the Reward Phase" in text
    s, more = finish_town(s)
    assert "The party gains 2 XP" in more and s.xp_dial == before["xp_dial"] + 2


def test_sq14_balladeer_three_encounters_of_any_kind_then_a_town():
    s, text = take("sq-balladeer-verses")
    assert "Three Verses for a Balladeer (SQ 14): 1 of 3." in text  # day 1's town encounter counts
    s = stack(s, "sm-p01")
    s, _ = go(s, LANDMARK_HEX["peaceful"])
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    s, more = finish_day(s)
    assert "Three Verses for a Balladeer (SQ 14): 2 of 3." in said(ev + more)
    s = stack(s, "ge-c02", "sm-p01")  # wolves: climb and wait
    s, _ = go(s, LANDMARK_HEX["conflict"])
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    s, more = finish_day(s)
    assert "Three Verses for a Balladeer (SQ 14): 3 of 3 — done" in said(ev + more)
    s, before, text = in_town_next(s, BRINEHOLD, "sq-balladeer-verses")
    after = snap(s)
    for o in (RYAN, SHANNON):  # each adventurer draws 1 common item
        assert len(after[o]["items"]) == len(before[o]["items"]) + 1
        new = after[o]["items"][-1]
        assert PACK.items[new].rarity == "common"
        assert f"{s.adventurers[o].name} draws {PACK.items[new].name}" in text
    assert "☼ 1 XP in the Reward Phase" in text
    s, more = finish_town(s)
    assert "The party gains 1 XP" in more and s.xp_dial == before["xp_dial"] + 1


# ----------------------------------------------------- encounters 5-17 --
def where_it_triggers(side_id: str):
    """The hex the side quest's text sends the party to (None: stay in Brinehold, a town)."""
    trig = SIDES[side_id].trigger
    if trig.town:
        return None
    if trig.where:
        return list(extreme_landmark(PROV, trig.landmark, trig.where))
    return LANDMARK_HEX[trig.landmark]


def reach(side_id: str, setup=worn):
    """Take the side quest, go where it triggers (a battle first is won), and stop at its choices.  Returns the
    state, the party before the choice and the words of the day so far."""
    s, _ = take(side_id, setup=setup)
    target = where_it_triggers(side_id)
    if target is not None and target not in LANDMARK_HEX.values():  # a landmark far from Brinehold
        set_down_by(s, target)
    s, text = go(s, target)
    sq = SIDES[side_id]
    assert f"The side quest {sq.name} ({sq.label}) triggers its encounter here" in text
    assert f"**{sq.name}** ({sq.label}): {sq.story}" in text
    for ch in sq.choices:
        assert ch.text in text  # every choice is read to the party
    if sq.battle_first:
        assert f"First the battle: {PACK.encounters[sq.encounter].name}" in text
        assert s.battle is not None and s.battle.encounter == sq.encounter
        foes = [u.enemy for u in s.battle.units.values() if u.side == "enemy"]
        assert set(PACK.encounters[sq.encounter].required_enemies) <= set(foes)
        assert all(PACK.enemies[f].province is None for f in PACK.encounters[sq.encounter].required_enemies)
        s, _ = win_battle(s)
    assert s.days.ask.kind == "card" and s.days.ask.data["card"] == side_id
    return s, snap(s), text


def choose(s, n: int):
    s, ev = run(s, "day.choose", RYAN, {"choice": n})
    return s, said(ev)


def test_the_extreme_landmarks_the_texts_name():
    def marks(kind):
        return [Hex(*h) for h, f in PROV.features.items() if f[0] != "town" and kind in ("any", f[0])]

    north = where_it_triggers("sq-lost-pilgrim")  # the northernmost peaceful landmark
    assert PROV.landmark(tuple(north))[0] == "peaceful" and all(h.r >= north[1] for h in marks("peaceful"))
    north = where_it_triggers("sq-barrow-watch")  # the northernmost conflict landmark
    assert PROV.landmark(tuple(north))[0] == "conflict" and all(h.r >= north[1] for h in marks("conflict"))
    east = where_it_triggers("sq-hermits-riddle")  # the easternmost landmark of any kind (half hexes: 2q + r)
    assert all(2 * h.q + h.r <= 2 * east[0] + east[1] for h in marks("any"))
    assert (north, east) == ([3, 1], [6, 2])


def test_sq6_lost_pilgrim_walk_her_to_the_shrine_with_the_blessing():
    s, before, _ = reach("sq-lost-pilgrim")
    s, text = choose(s, 1)
    assert "difficulty the party size + 1 = 3 (party of 2)" in text
    s, more = pass_check(s, {RYAN: 1, SHANNON: 1})  # 1 + 1 = 2 against 3: no blessing
    assert "The social check fails" in more
    after = snap(s)
    for o in (RYAN, SHANNON):  # 1 light fatigue and 2 tenacity each, the check's 1 tenacity spent first
        assert after[o]["light"] == before[o]["light"] + 1
        assert after[o]["tenacity"] == before[o]["tenacity"] - 1 + 2
    assert "pilgrims-blessing" not in after["keywords"]
    done(more, "sq-lost-pilgrim")
    reward_xp(s, text + more, 2)


def test_sq6_the_blessing_on_a_successful_check():
    def rich(state):
        worn(state)
        state.adventurers[RYAN].tenacity = 3
    s, before, _ = reach("sq-lost-pilgrim", setup=rich)
    s, text = choose(s, 1)
    s, more = pass_check(s, {RYAN: 3})
    assert "The social check succeeds: dice 0 + tenacity 3 = 3 against 3" in more
    keyword(s, more, "pilgrims-blessing")
    after = snap(s)
    assert after[RYAN]["tenacity"] == 2 and after[SHANNON]["tenacity"] == before[SHANNON]["tenacity"] + 2
    assert "Ryan gains 1 light fatigue" in more and "Shannon gains 2 tenacity" in more
    done(more, "sq-lost-pilgrim")
    reward_xp(s, text + more, 2)


def test_sq6_point_her_the_way():
    s, before, _ = reach("sq-lost-pilgrim")
    s, text = choose(s, 2)
    after = snap(s)
    for o in (RYAN, SHANNON):
        assert after[o]["hp"] == before[o]["hp"] + 1
    assert "Ryan heals 1 HP" in text and "Shannon heals 1 HP" in text
    done(text, "sq-lost-pilgrim")
    reward_xp(s, text, 1)


@pytest.mark.parametrize("choice", [1, 2])
def test_sq7_granary_skeevers_a_battle_in_town_then_the_millers_thanks(choice):
    s, before, text = reach("sq-granary-skeevers")
    assert s.days.town is None  # the quest encounter replaced the town encounter
    s, text = choose(s, choice)
    if choice == 1:
        after = snap(s)
        for o in (RYAN, SHANNON):
            assert after[o]["hp"] == min(s.adventurers[o].max_hp, before[o]["hp"] + 2)
        assert "Ryan heals 2 HP" in text
    else:
        s, more = pick(s, SHANNON)
        text += "\n" + more
        assert "Shannon gains Reed Shortbow" in text
        assert "reed-shortbow" in snap(s)[SHANNON]["items"] and "reed-shortbow" not in snap(s)[RYAN]["items"]
    done(text, "sq-granary-skeevers")
    reward_xp(s, text, 1)


def test_sq7_the_granary_battle_lost_fails_the_side_quest():
    s, _ = take("sq-granary-skeevers")
    s, _ = go(s, None)
    s, ev = run(s, "battle.retreat", s.battle.turn.owner)
    while s.battle is not None:
        s, more = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
        ev += more
    s, more = finish_day(s)
    text = said(ev + more)
    assert "The side quest Skeevers in the Granary (SQ 7) is failed and discarded" in text
    assert s.quests.sides == [] and "sq-granary-skeevers" in s.journal.current.sides_failed


@pytest.mark.parametrize("choice", [1, 2])
def test_sq9_voices_under_the_stones(choice):
    s, before, text = reach("sq-stone-voices")
    s, text = choose(s, choice)
    after = snap(s)
    if choice == 1:
        for o in (RYAN, SHANNON):
            assert after[o]["over"] == before[o]["over"] + 1
        assert "Ryan gains 1 overfatigue" in text and "Shannon gains 1 overfatigue" in text
        keyword(s, text, "stone-speakers")
    else:
        for o in (RYAN, SHANNON):
            assert after[o]["tenacity"] == before[o]["tenacity"] + 1
        assert "Ryan gains 1 tenacity" in text and after["keywords"] == []
    done(text, "sq-stone-voices")
    reward_xp(s, text, 2 if choice == 1 else 1)


def test_sq10_sealed_letter_handed_over_unopened():
    s, before, _ = reach("sq-sealed-letter")
    s, text = choose(s, 1)
    after = snap(s)
    for o in (RYAN, SHANNON):
        assert after[o]["hp"] == min(s.adventurers[o].max_hp, before[o]["hp"] + 2)
    assert "Shannon heals 2 HP" in text
    done(text, "sq-sealed-letter")
    reward_xp(s, text, 1)


def test_sq10_sealed_letter_opened_after_a_successful_check():
    def rich(state):
        worn(state)
        state.adventurers[RYAN].tenacity = 3
    s, before, _ = reach("sq-sealed-letter", setup=rich)
    s, text = choose(s, 2)
    assert "difficulty the party size + 2 = 4 (party of 2)" in text
    s, more = pass_check(s, {RYAN: 3, SHANNON: 1})
    text += "\n" + more
    assert "The social check succeeds: dice 0 + tenacity 4 = 4 against 4" in text
    s, more = pick(s, RYAN, forced=[1] * 10)
    text += "\n" + more
    keyword(s, text, "seal-keepers")
    got = snap(s)[RYAN]["items"]
    assert len(got) == len(before[RYAN]["items"]) + 1 and PACK.items[got[-1]].rarity == "common"
    assert f"Ryan draws {PACK.items[got[-1]].name}" in text
    done(text, "sq-sealed-letter")
    reward_xp(s, text, 2)


def test_sq10_a_failed_check_closes_the_seal_and_the_letter_is_handed_over():
    s, before, _ = reach("sq-sealed-letter")
    s, text = choose(s, 2)
    s, more = pass_check(s, {RYAN: 1, SHANNON: 1})  # 2 against 4
    text += "\n" + more
    assert "The social check fails" in text and "Only one way is open: **Hand it over unopened**" in text
    assert "seal-keepers" not in snap(s)["keywords"]
    done(text, "sq-sealed-letter")
    reward_xp(s, text, 1)


@pytest.mark.parametrize("choice", [1, 2])
def test_sq12_poachers_snares(choice):
    s, before, _ = reach("sq-poachers-snares")
    s, text = choose(s, choice)
    if choice == 1:
        assert s.battle is not None and s.battle.encounter == "sq-poachers-camp"
        s, _ = win_battle(s)
        s, more = pick(s, SHANNON)
        text = more
        assert "Shannon gains Oak Longbow" in text and "oak-longbow" in snap(s)[SHANNON]["items"]
    else:
        after = snap(s)
        for o in (RYAN, SHANNON):
            assert after[o]["light"] == before[o]["light"] + 1
        assert "Shannon gains 1 light fatigue" in text
    done(text, "sq-poachers-snares")
    reward_xp(s, text, 3 if choice == 1 else 1)


@pytest.mark.parametrize("choice", [1, 2])
def test_sq13_healers_errand(choice):
    s, before, _ = reach("sq-healers-errand")
    s, text = choose(s, choice)
    if choice == 1:
        after = snap(s)
        for o in (RYAN, SHANNON):
            assert after[o]["light"] == before[o]["light"] + 1
            assert after[o]["hp"] == min(s.adventurers[o].max_hp, before[o]["hp"] + 2)
        assert "Ryan gains 1 light fatigue" in text and "Ryan heals 2 HP" in text
    else:
        s, more = pick(s, RYAN)
        text += "\n" + more
        assert s.days.skip_rest and "tonight the party skips the Adventurers Rest" in text
        assert "Ryan gains Glyph of Mending" in text and "glyph-of-mending" in snap(s)[RYAN]["items"]
    done(text, "sq-healers-errand")
    reward_xp(s, text, 2 if choice == 1 else 1)
    if choice == 2:
        s, more = finish_day(s)
        assert "The party skips the Adventurers Rest tonight" in said(more)


@pytest.mark.parametrize("choice", [1, 2])
def test_sq15_barrow_watch(choice):
    s, before, _ = reach("sq-barrow-watch")
    s, text = choose(s, choice)
    if choice == 1:
        after = snap(s)
        for o in (RYAN, SHANNON):
            assert after[o]["tenacity"] == before[o]["tenacity"] + 1
        assert "Shannon gains 1 tenacity" in text
        keyword(s, text, "barrow-sealed")
    else:
        s, more = pick(s, SHANNON, forced=[1] * 10)
        text += "\n" + more
        after = snap(s)
        got = after[SHANNON]["items"]
        assert len(got) == len(before[SHANNON]["items"]) + 1 and PACK.items[got[-1]].rarity == "legendary"
        assert f"Shannon draws {PACK.items[got[-1]].name}" in text
        for o in (RYAN, SHANNON):
            assert after[o]["over"] == before[o]["over"] + 1
        assert "Ryan gains 1 overfatigue" in text
    done(text, "sq-barrow-watch")
    reward_xp(s, text, 2)


@pytest.mark.parametrize("tenacity,bonus", [({RYAN: 3, SHANNON: 1}, 1), ({RYAN: 1}, 0)])
def test_sq16_hermits_riddle_answered(tenacity, bonus):
    def rich(state):
        worn(state)
        state.adventurers[RYAN].tenacity = 3
    s, before, _ = reach("sq-hermits-riddle", setup=rich)
    s, text = choose(s, 1)
    assert "difficulty the party size + 2 = 4 (party of 2)" in text
    s, more = pass_check(s, tenacity)
    text += "\n" + more
    assert ("The social check succeeds" if bonus else "The social check fails") in text
    done(text, "sq-hermits-riddle")
    after = snap(s)  # the Reward Phase has begun: 2 XP each, and the bonus XP of their own on a success
    for o in (RYAN, SHANNON):
        assert after[o]["xp"] == before[o]["xp"] + 2 + bonus
    assert after["xp_dial"] == before["xp_dial"] + 2
    assert ("Ryan gains 1 bonus XP" in text) == bool(bonus)
    reward_xp(s, text, 2)


def test_sq16_wade_round_her():
    s, before, _ = reach("sq-hermits-riddle")
    s, text = choose(s, 2)
    after = snap(s)
    for o in (RYAN, SHANNON):
        assert after[o]["hp"] == before[o]["hp"] - 1
    assert "Ryan is dealt 1 damage" in text
    done(text, "sq-hermits-riddle")
    reward_xp(s, text, 1)


def test_sq17_a_failed_check_closes_catching_the_cheat():
    s, before, _ = reach("sq-loaded-bones")
    s, text = choose(s, 1)
    assert "difficulty the party size + 1 = 3 (party of 2)" in text
    s, more = run(s, "day.check", RYAN, {"tenacity": 1}, forced=[1] * 10)
    s, more2 = run(s, "day.check", SHANNON, {"tenacity": 1}, forced=[1] * 10)
    text += "\n" + said(more + more2)
    assert "The social check fails" in text and "Only one way is open: **Buy a round and let it be**" in text
    after = snap(s)
    for o in (RYAN, SHANNON):  # the tenacity committed is spent; the round bought gives 1 back
        assert after[o]["tenacity"] == before[o]["tenacity"] - 1 + 1
        assert after[o]["items"] == before[o]["items"]
    done(text, "sq-loaded-bones")
    reward_xp(s, text, 1)


def test_sq17_loaded_bones_caught_after_a_successful_check():
    def rich(state):
        worn(state)
        state.adventurers[RYAN].tenacity = 3
    s, before, _ = reach("sq-loaded-bones", setup=rich)
    s, text = choose(s, 1)
    s, more = run(s, "day.check", RYAN, {"tenacity": 3}, forced=[1] * 10)
    s, more2 = run(s, "day.check", SHANNON, {"tenacity": 0}, forced=[1] * 10)
    text += "\n" + said(more + more2)
    assert "The social check succeeds: dice 0 + tenacity 3 = 3 against 3" in text
    after = snap(s)
    for o in (RYAN, SHANNON):  # each adventurer draws 1 common item
        assert len(after[o]["items"]) == len(before[o]["items"]) + 1
        new = after[o]["items"][-1]
        assert PACK.items[new].rarity == "common" and f"{s.adventurers[o].name} draws {PACK.items[new].name}" in text
    done(text, "sq-loaded-bones")
    reward_xp(s, text, 2)


def test_sq17_buy_a_round():
    s, before, _ = reach("sq-loaded-bones")
    s, text = choose(s, 2)
    after = snap(s)
    for o in (RYAN, SHANNON):
        assert after[o]["tenacity"] == before[o]["tenacity"] + 1
    assert "Shannon gains 1 tenacity" in text
    done(text, "sq-loaded-bones")
    reward_xp(s, text, 1)
