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
from rulesets.tes.outcomes.context import DayCtx
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
    party; the day ends (Low Tide kept: the Tide's card of the night is the sunny SM 1).  Returns the state
    waiting for day 2's route, and the words of day 1."""
    s = examples_party()
    if setup is not None:
        setup(s)
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
    spot = next(h for h in neighbours(Hex(*target)) if h in PROV.hexes and h not in PROV.features
                and list(h) != [2, 4])  # not the Sunken Chime's first step
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
    assert f"the party gains the keyword *{name}*" in text or f"the party gains the keyword {{*{name}*}}" in text \
        or name in text
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
