"""The rulebook's worked examples of the day (pp.35-45), on the Saltmire's analogues with forced dice and draws.

Ryan and Shannon are the Adventurer Creation Examples' adventurers (Dark Elf Sorcerer with Destruction Staff,
Argonian Acrobat with One Hand and Shield), on Adept.  Lilmoth is Brinehold, the weather gauge is the Tide
(Sunny = Low Tide, move 3; Rainy = High Tide, move 2), Mending Fences is The Broken Weir (SM 1), the
unstable landmark southeast of Dead-Water Village is The Weir Stones (3,3), southeast of Reedwick.  The
adaptations are written in docs/rules-notes.md ("The day's worked examples").
"""
from __future__ import annotations

from day_helpers import RYAN, SHANNON, examples_party, run, said, stack

from engine.service import replay

# the general cards taken into the decks, then Brinehold's six shop cards, then the trainer's five tokens
START_STACK = ["ge-p01", "ge-p02", "ge-p03", "ge-p04", "ge-c01", "ge-c02", "ge-c03", "ge-c04",
               "iron-sword", "hunting-bow", "battle-axe", "travel-bread", "spiced-mead", "leather-cap",
               "acrobatics", "heavy-armor", "restoring-light", "shadow", "speech"]


def day_one():
    """New Day and Overland Phases Example (Day 1): the dial set to 1, the gauge token placed, the party in town."""
    s = examples_party()
    s, ev = run(s, "day.start", RYAN, {"province": "saltmire", "stack": START_STACK})
    return s, said(ev)


def test_day_one_new_day_and_overland():
    s, text = day_one()
    assert s.day_dial == 1
    assert s.days.gauge == "low"
    assert "placed on Low Tide" in text and "base movement is 3" in text
    assert "Day 1: the party stays in its starting town" in text
    assert s.days.encounter.kind == "town" and s.days.encounter.town == "brinehold"
    assert s.days.route == [[3, 6]] and s.days.party == [3, 6]
    assert s.days.phase == "encounter" and s.days.ask.kind == "town"


def town_example(s):
    """Town Encounter Example at Brinehold: the trainer twice, the shop's pair, the quest board not yet."""
    s, e1 = run(s, "town.visit", RYAN, {"feature": "trainer", "line": "restoring-light", "slot": "4R"})
    s, e2 = run(s, "town.visit", SHANNON, {"feature": "trainer", "line": "shadow", "slot": "3R"})
    s, e3 = run(s, "town.visit", RYAN, {"feature": "shop", "item": "Hunting Bow, Travel Bread"})
    return s, said(e1 + e2 + e3)


def test_town_encounter_example():
    s, text = day_one()
    assert "The shop reveals 6 cards: Iron Sword, Hunting Bow, Notched Battle Axe, Travel Bread, Spiced Mead, " \
           "Leather Cap" in text  # 6 common and no legendary
    assert "The trainer offers: Acrobatics, Heavy Armor, Restoring Light, Shadow, Speech" in text  # 5 lines
    s, text = town_example(s)
    ryan, shannon = s.adventurers[RYAN], s.adventurers[SHANNON]
    assert ryan.rows[3].right.id == "restoring-light" and shannon.rows[2].right.id == "shadow"
    assert ryan.ready == ["hunting-bow", "travel-bread"]  # the Tide Market: 2 cards for one shop action
    assert s.days.town.actions == {RYAN: 0, SHANNON: 1}
    assert "restoring-light" not in s.days.town.trainer and "shadow" not in s.days.town.trainer
    # Shannon's second action: the quest board draws 2 side quests (The Dark Forces of Greed and The Prodigal
    # Bandit are The Greedy Conjurer and The Missing Courier); she accepts the first for the party
    s = stack(s, "sq-greedy-conjurer", "sq-missing-courier", "sm-p02")
    s, ev = run(s, "town.visit", SHANNON, {"feature": "board"})
    assert "draws 2 side quests" in said(ev) and "The Greedy Conjurer" in said(ev) and "The Missing Courier" in said(ev)
    s, ev2 = run(s, "quest.accept", SHANNON, {"pick": "1"})
    text = said(ev + ev2)
    assert [x.id for x in s.quests.sides] == ["sq-greedy-conjurer"]
    assert "sq-missing-courier" in s.days.decks["side-quest"].discard
    assert "The shop's remaining cards are discarded: Iron Sword, Notched Battle Axe, Spiced Mead, Leather Cap" in text
    assert s.days.trainer_bag.count("acrobatics") == 2  # the tokens nobody took go back to the bag
    assert s.days.phase == "end-of-day"


def day_two():
    s, _ = day_one()
    s, _ = town_example(s)
    s = stack(s, "sm-p02")  # End of Day 1: no peaceful card was drawn, so Salt Rakers (rain) is drawn
    s, e1 = run(s, "town.done", SHANNON)
    s, e2 = run(s, "day.rest", RYAN)
    s, e3 = run(s, "day.rest", SHANNON)
    return s, said(e1 + e2 + e3)


def test_end_of_day_one_draws_a_peaceful_card_for_its_icon_and_cycles_it():
    s, text = day_two()
    assert "no peaceful card was drawn today, so one is drawn for its icons: **Salt Rakers**" in text
    assert "The Tide gauge moves to High Tide" in text
    assert s.days.decks["peaceful"].bottom == ["sm-p02"]  # cycled to the bottom, not discarded
    assert s.day_dial == 2 and s.days.ask.kind == "route"


def test_day_two_new_day_and_overland():
    s, _ = day_two()
    s = stack(s, "sm-p01")
    s, e1 = run(s, "day.route", RYAN, {"to": [3, 3]})
    assert "3,6 → 3,5 → 3,4 → 3,3 (3 hexes, 1 of them with fatigue movement)" in said(e1)
    s, e2 = run(s, "day.vote", SHANNON, {}, forced=[6])
    text = said(e2)
    assert "Fatigue movement to 3,3: each adventurer gains 1 light fatigue." in text
    assert s.days.route == [[3, 6], [3, 5], [3, 4], [3, 3]]
    for who in (RYAN, SHANNON):
        assert {"fatigue": "light"} in s.adventurers[who].cooldown
    assert "rolls the unstable die: 6, peaceful" in text
    assert "draws a peaceful card: **The Broken Weir** (SM 1)" in text


def test_overland_encounter_reward_and_end_of_day_examples():
    s, _ = day_two()
    s = stack(s, "sm-p01")
    s, _ = run(s, "day.route", RYAN, {"to": [3, 3]})
    s, ev = run(s, "day.vote", SHANNON, {}, forced=[6])
    text = said(ev)
    # Overland Encounter Example: the unstable choice is compulsory; each takes 2 true damage; rest skipped
    assert "not open: at an unstable landmark the unstable choice must be resolved" in text
    assert "Only one way is open: **Wade in and help**" in text
    assert s.adventurers[RYAN].hp == 2 and s.adventurers[SHANNON].hp == 3
    assert s.days.skip_rest
    # Reward Phase Example: the XP Dial 2 -> 4, 2 XP each, 2 tenacity each for the unstable landmark
    assert "the XP Dial turns from 2 to 4" in text and s.xp_dial == 4
    assert "each adventurer gains 2 tenacity" in text
    for who in (RYAN, SHANNON):
        assert s.adventurers[who].saved_xp == 2 and s.adventurers[who].tenacity == 2
    s, e1 = run(s, "reward.buy", RYAN, {"what": "die:purge"})
    s, e2 = run(s, "reward.buy", RYAN, {"what": "die:hasty-prayer"})
    assert "Ryan spends 1 XP and adds a Purge die" in said(e1) and "(0 XP left)" in said(e2)
    ryan = s.adventurers[RYAN]
    assert [sq and ryan.dice[sq["die"]]["type"] for sq in ryan.rows[3].squares][-2:] == ["hasty-prayer", "purge"]
    s, _ = run(s, "reward.done", RYAN)
    s, _ = run(s, "reward.buy", SHANNON, {"what": "die:shadow-cloak"})
    s, _ = run(s, "reward.buy", SHANNON, {"what": "die:refreshing-shadows"})
    s, ev = run(s, "reward.done", SHANNON)
    text = said(ev)
    shannon = s.adventurers[SHANNON]
    assert [sq and shannon.dice[sq["die"]]["type"] for sq in shannon.rows[2].squares][-2:] == \
        ["refreshing-shadows", "shadow-cloak"]
    # End of Day Phase Example: the card's sun sets Low Tide (move 3); the card is discarded; no rest, no trade
    assert "The Broken Weir shows Clear Sky. The Tide gauge moves to Low Tide" in text
    assert "sm-p01" in s.days.decks["peaceful"].discard
    assert "skips the Adventurers Rest tonight" in text
    assert ryan.hp == 2 and shannon.hp == 3
    assert s.adventurers[RYAN].cooldown == [{"fatigue": "light"}]
    assert s.adventurers[SHANNON].cooldown == [{"fatigue": "light"}]
    assert s.day_dial == 3 and s.days.gauge == "low"


def test_the_examples_replay_exactly():
    """Every step is an action in the log: replaying it rebuilds the same campaign."""
    from engine.actions import dice_for
    from engine.core import Action
    from engine import rulesets

    log = []
    state = None

    def do(type_, actor, args=None, forced=None):
        nonlocal state
        game = rulesets.named("tes")
        dice = dice_for(state, forced)
        a = Action(type_, actor, args or {})
        applied = game.execute(state, a, dice, 1_700_000_000.0 + len(log))
        log.append({"seq": len(log) + 1, "at": 1_700_000_000.0 + len(log), "actor": actor, "on_behalf": None,
                    "type": type_, "action": a.to_dict(), "dice": applied.dice, "events": []})
        state = applied.state

    from rulesets.tes.content import load_pack
    from rulesets.tes.state import RULES
    do("campaign.new", RYAN, {"name": "W", "difficulty": "adept", "channel_id": "c", "guild_id": "g", "seed": 3,
                              "pack_version": load_pack("starter").content_hash, "rules": RULES})
    do("adventurer.create", RYAN, {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
    do("campaign.join", SHANNON)
    do("adventurer.create", SHANNON, {"name": "Shannon", "race": "argonian", "line": "one-hand-and-shield"})
    # the guild draw stacked; the Mages Guild's quest starts in Brinehold
    do("day.start", RYAN, {"stack": ["mages-guild", "fighters-guild", "thieves-guild"]})
    do("quest.guild", RYAN, {"pick": "1"})
    do("town.done", RYAN)
    do("town.done", SHANNON)
    do("day.rest", RYAN)
    do("day.rest", SHANNON)
    do("day.route", RYAN, {"to": [3, 3]})
    do("day.vote", SHANNON)
    assert replay(log).to_dict() == state.to_dict()
