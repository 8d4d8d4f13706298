"""The day's flow beyond the worked examples: the route and its vote, fatigue movement's limits, NPC tokens,
the Adventurers Rest by difficulty with its choices, trading, full party defeat, the day limit, the time-outs."""
from __future__ import annotations

from day_helpers import RYAN, SHANNON, at_card, day_two, examples_party, refused, run, said, stack

from rulesets.tes.day_state import DAY_LIMIT


# ------------------------------------------------------------------- route --
def test_the_leader_proposes_and_an_objection_sends_the_route_back():
    s = day_two()
    assert "Only the party leader" in refused(s, "day.route", SHANNON, {"to": [3, 7]})
    s, ev = run(s, "day.route", RYAN, {"to": [3, 7]})
    assert s.days.ask.kind == "vote" and s.days.proposal.path == [[3, 6], [3, 7]]
    s, ev = run(s, "day.vote", SHANNON, {"object": True, "reason": "too wet"})
    assert "Shannon objects to the route: too wet" in said(ev)
    assert s.days.proposal is None and s.days.ask.kind == "route" and s.days.party == [3, 6]


def test_the_proposed_route_stands_at_its_deadline():
    s = day_two()
    s = stack(s, "sm-p01")
    s, _ = run(s, "day.route", RYAN, {"to": [3, 7]})
    pid = f"d{s.days.serial}-vote"
    s, ev = run(s, "day.timeout", RYAN, {"ask": pid})
    assert "No answer from Shannon in time" in said(ev) and s.days.party == [3, 7]
    assert "already answered" in refused(s, "day.timeout", RYAN, {"ask": pid})


def test_a_route_too_long_or_not_adjacent_is_refused():
    s = day_two()
    msg = refused(s, "day.route", RYAN, {"path": [[3, 5], [3, 4], [3, 3], [3, 2], [3, 1], [3, 0], [4, 0]]})
    assert "7 hexes long" in msg and "at most 3 more with fatigue movement" in msg
    assert "not next to" in refused(s, "day.route", RYAN, {"path": [[3, 4]]})
    assert "not a hex" in refused(s, "day.route", RYAN, {"to": "nowhere"})
    # the path's other forms its bounds let through (one hex, the text as typed) are read the same way
    assert "not next to" in refused(s, "day.route", RYAN, {"path": [3, 4]})
    assert "not next to" in refused(s, "day.route", RYAN, {"path": "3,4"})
    assert "Write hexes as `q,r`" in refused(s, "day.route", RYAN, {"path": "3,4 north"})
    proposed, _ = run(s, "day.route", RYAN, {"path": "3,5 3,4"})
    assert proposed.days.proposal.path == run(s, "day.route", RYAN, {"path": [[3, 5], [3, 4]]})[0].days.proposal.path


def test_fatigue_movement_never_more_hexes_than_the_base_movement():
    s = day_two()
    s.days.gauge = "flood"  # base movement 1: at most 1 more hex with fatigue
    assert "at most 1 more" in refused(s, "day.route", RYAN, {"path": [[3, 5], [3, 4], [3, 3]]})
    s, ev = run(s, "day.route", RYAN, {"path": [[3, 5], [3, 4]]})
    s, ev = run(s, "day.vote", SHANNON)
    assert all(a.cooldown.count({"fatigue": "light"}) == 1 for a in s.adventurers.values())


def test_the_party_stops_when_a_cooldown_track_is_full():
    s = day_two()
    s.adventurers[SHANNON].cooldown = [{"fatigue": "light"}] * 13
    # rules revision 4: refused to the leader when proposed, saying why (issue 26 item 7)
    why = refused(s, "day.route", RYAN, {"path": [[3, 5], [3, 4], [3, 3], [3, 2]]})
    assert "can't be finished today" in why and "must stop after 3 hexes" in why and "Shannon" in why
    assert s.days.proposal is None
    s.rules = 3  # before: the proposal stood and the first player to agree was refused
    s, _ = run(s, "day.route", RYAN, {"path": [[3, 5], [3, 4], [3, 3], [3, 2]]})
    assert "must stop after 3 hexes" in refused(s, "day.vote", SHANNON)


def test_a_defeated_adventurer_gains_no_fatigue_moving():
    s = day_two()
    s.adventurers[RYAN].hp = 0
    s, _ = run(s, "day.route", RYAN, {"path": [[3, 5], [3, 4], [3, 3], [3, 2]]})
    s, _ = run(s, "day.vote", SHANNON)
    assert s.adventurers[RYAN].cooldown == [] and s.adventurers[SHANNON].cooldown == [{"fatigue": "light"}]


def finish_day(s):
    """Everyone done with the reward and the rest (defaults), until the next day's route."""
    for _ in range(8):
        ask = s.days.ask
        if ask is None or ask.kind == "route":
            break
        who = ask.owners[0]
        s, _ = run(s, {"reward": "reward.done", "rest": "day.rest", "town": "town.done"}[ask.kind], who)
    return s


def test_extra_hexes_from_a_card_come_the_next_day():
    from rulesets.tes.content import load_pack
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.overland.travel import allowance

    s, _ = at_card("sm-p01")
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})  # Go round by the dunes: 3 extra hexes tomorrow
    assert s.days.extra_move == 3
    s = finish_day(s)
    assert s.day_dial == 3 and s.days.move_today == 3 and s.days.extra_move == 0
    assert allowance(DayCtx(s, load_pack("starter"), None)) == (6, 3)  # low tide 3 + 3; fatigue up to 3


# ------------------------------------------------------------------ tokens --
def test_the_moon_moves_the_lantern_toward_the_party_and_its_reach():
    s, _ = at_card("sm-p03")  # The Drowned Chapel shows the moon
    s.days.tokens[0].q, s.days.tokens[0].r = 3, 5  # two hexes from the party at 3,7
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    while s.days.ask is not None and s.days.ask.kind == "reward":
        s, more = run(s, "reward.done", s.days.ask.owners[0])
        ev += more
    text = said(ev)
    assert "The Marsh Lantern moves 2 hexes: 3,5 → 3,6 → 3,7" in text
    assert "The Marsh Lantern reaches the party" in text
    assert all({"fatigue": "light"} in a.cooldown for a in s.adventurers.values())


def test_a_token_moves_its_full_movement_unless_it_arrives_and_stops_at_the_edge():
    from engine.core import Dice
    from rulesets.tes.content import load_pack
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.overland.tokens import move_token

    s = day_two()
    c = DayCtx(s, load_pack("starter"), Dice(0, 0, [1]))
    tok = s.days.tokens[0]
    tok.q, tok.r = 3, 4
    assert [tuple(h) for h in move_token(c, tok, 5, "party")] == [(3, 5), (3, 6)]  # arrives after 2
    tok.q, tok.r = 6, 0  # face 1 on the compass: NE, off the map at once
    assert move_token(c, tok, 2, "compass") == [] and (tok.q, tok.r) == (6, 0)
    assert "nowhere to move" in said(c.events)


# -------------------------------------------------------------------- rest --
def rest_day(difficulty="adept", setup=None):
    """Day 2 at the peaceful landmark 3,7 (Wayside Camp: rest by the fire), reward done: the rest is asked."""
    s, _ = at_card("ge-p01", difficulty=difficulty, setup=setup)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})  # share the fire: 1 tenacity each
    while s.days.ask is not None and s.days.ask.kind == "reward":
        s, _ = run(s, "reward.done", s.days.ask.owners[0])
    assert s.days.ask.kind == "rest"
    return s


def tracks(state):
    for adv in state.adventurers.values():
        adv.hp = 1
        die = next(iter(adv.dice))
        adv.cooldown = [{"fatigue": "light"}, {"status": "daze"}, {"die": die}, {"fatigue": "over"}]


def test_the_rest_by_difficulty_each_player_chooses_the_dice():
    s = rest_day("apprentice")
    s.adventurers[RYAN].hp = 1
    die = next(iter(s.adventurers[RYAN].dice))
    s.adventurers[RYAN].cooldown = [{"fatigue": "light"}, {"status": "daze"}, {"die": die}, {"fatigue": "over"}]
    assert "removes 2 dice" in refused(s, "day.rest", RYAN, {"dice": [1, 2, 3]})
    assert "places 1 to 4" in refused(s, "day.rest", RYAN, {"dice": [9]})
    s, ev = run(s, "day.rest", RYAN, {"dice": [3, 4]})  # any position: not a Recovery step
    adv = s.adventurers[RYAN]
    assert adv.hp == 3 and adv.cooldown == [{"fatigue": "light"}, {"status": "daze"}]
    assert "heals 2 HP (3/4)" in said(ev) and "(recovered)" in said(ev) and "1 overfatigue" in said(ev)
    assert "already rested" in refused(s, "day.rest", RYAN)


def test_adept_rests_1_die_and_1_hp_the_default_takes_the_leftmost():
    s = rest_day("adept")
    s.adventurers[SHANNON].cooldown = [{"fatigue": "over"}, {"fatigue": "light"}]
    s.adventurers[SHANNON].hp = 2
    s, _ = run(s, "day.rest", SHANNON)
    assert s.adventurers[SHANNON].cooldown == [{"fatigue": "light"}] and s.adventurers[SHANNON].hp == 3


def test_a_defeated_adventurer_rests_is_revived_and_fights_the_next_battle():
    s = rest_day("adept")
    s.adventurers[SHANNON].hp = 0
    s, _ = run(s, "day.rest", RYAN)
    s, ev = run(s, "day.rest", SHANNON)
    assert "heals 1 HP (1/5) and is revived" in said(ev)
    # the next day, a conflict card's clash: Shannon deploys with the party
    s = stack(s, "ge-c01")
    s, _ = run(s, "day.route", RYAN, {"to": [4, 5]})
    s, ev = run(s, "day.vote", SHANNON)
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert s.battle is not None and set(s.battle.order) == {RYAN, SHANNON}


def test_expert_discards_an_item_to_rest_and_a_consumable_may_resolve():
    def items(state):
        state.adventurers[RYAN].pack = ["travel-bread"]
        state.adventurers[SHANNON].pack = ["iron-sword"]
    s = rest_day("expert", setup=items)
    s.adventurers[RYAN].hp = 1
    s.adventurers[SHANNON].hp = 1
    assert "must discard an item" in refused(s, "day.rest", RYAN)
    assert "Only a consumable resolves" in refused(s, "day.rest", SHANNON, {"item": "Iron Sword", "use": True})
    s, ev = run(s, "day.rest", RYAN, {"item": "Travel Bread", "use": True})
    assert "discards Travel Bread to rest and resolves it" in said(ev)
    assert s.adventurers[RYAN].pack == [] and s.adventurers[RYAN].hp >= 2
    s, ev = run(s, "day.rest", SHANNON, {"item": "Iron Sword"})
    assert s.adventurers[SHANNON].hp == 2 and s.adventurers[SHANNON].pack == []


def test_expert_without_an_item_cannot_rest():
    s = rest_day("expert")
    s.adventurers[RYAN].hp = 1
    s, ev = run(s, "day.rest", RYAN)
    assert "has no item to discard, so cannot rest" in said(ev) and s.adventurers[RYAN].hp == 1


def test_trading_during_the_rest_and_never_after_a_skipped_rest():
    def items(state):
        state.adventurers[RYAN].pack = ["travel-bread"]
    s = rest_day("adept", setup=items)
    assert "another adventurer" in refused(s, "day.trade", RYAN, {"item": "Travel Bread", "to": "Ryan"})
    s, ev = run(s, "day.trade", RYAN, {"item": "Travel Bread", "to": "Shannon"})
    assert s.adventurers[SHANNON].pack == ["travel-bread"] and "gives Travel Bread to Shannon" in said(ev)
    # The Broken Weir's unstable choice skips the rest: no trading that night
    s2, _ = at_card("sm-p01", landmark="unstable", setup=items)
    s2, _ = run(s2, "reward.done", RYAN)
    s2, ev = run(s2, "reward.done", SHANNON)
    assert "skips the Adventurers Rest tonight: nobody heals or clears dice, and no items are traded" in said(ev)
    assert "during the End of Day" in refused(s2, "day.trade", RYAN, {"item": "Travel Bread", "to": "Shannon"})


def test_the_old_rest_is_refused_on_the_new_rules_and_kept_for_old_campaigns():
    new = examples_party()
    assert "End of Day" in refused(new, "party.rest", RYAN)
    old = examples_party(rules_revision=2)
    old.adventurers[RYAN].hp = 0
    old, ev = run(old, "party.rest", RYAN)
    assert old.adventurers[RYAN].hp == 1


# ------------------------------------------------------------ party defeat --
def test_a_fully_defeated_party_wakes_in_the_closest_town():
    s, _ = at_card("ge-c01")  # Bandits on the Road at 4,5
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    assert s.battle is not None
    for u in s.battle.units.values():  # the whole party falls
        if u.side == "adventurer":
            s.adventurers[u.owner].hp = 0
            u.defeated, u.q, u.r = True, None, None
    s, ev = run(s, "battle.endturn", s.battle.turn.owner)
    # the whole party is down: the battle asks about the guild assist first; the leader lets it end
    assert "calls the guild assist now" in said(ev) and s.quests.assist == "asked"
    s, ev2 = run(s, "quest.assist", RYAN, {"use": False})
    text = said(ev + ev2)
    assert s.battle is None and s.last_battle.outcome == "defeat"
    assert "wakes in Brinehold (3,6), the closest town" in text and s.days.party == [3, 6]
    assert s.days.encounter.result == "failed" and "no rewards" in text
    assert s.days.phase == "end-of-day" and s.days.ask.kind == "rest"  # the Reward Phase, then the rest
    s, ev = run(s, "day.rest", RYAN)
    assert s.adventurers[RYAN].hp == 1


def test_on_expert_a_defeated_party_heals_1_even_without_an_item():
    s, _ = at_card("ge-c01", difficulty="expert")
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    for u in s.battle.units.values():
        if u.side == "adventurer":
            s.adventurers[u.owner].hp = 0
            u.defeated, u.q, u.r = True, None, None
    s, _ = run(s, "battle.endturn", s.battle.turn.owner)
    s, _ = run(s, "quest.assist", RYAN, {"use": False})  # the guild assist is not called: the battle ends
    assert s.battle is None and s.days.ask.kind == "rest"
    s, ev = run(s, "day.rest", RYAN, {"skip": True})
    assert "heals 1 HP" in said(ev) and s.adventurers[RYAN].hp == 1


# --------------------------------------------------------------- day limit --
def test_day_12_is_the_last_day_of_the_session():
    s = day_two()
    s.day_dial = DAY_LIMIT - 1  # this is day 11: staying in Brinehold, then day 12
    events = []
    for _ in range(2):
        s, ev = run(s, "day.route", RYAN, {"stay": True})  # staying in town: a town encounter
        events += ev
        for _ in range(8):
            if s.days.ask is None or s.days.ask.kind == "route":
                break
            kind = s.days.ask.kind
            s, ev = run(s, {"reward": "reward.done", "rest": "day.rest", "town": "town.done"}[kind],
                        s.days.ask.owners[0])
            events += ev
    text = said(events)
    assert f"Day {DAY_LIMIT}: no quest can go beyond day {DAY_LIMIT}; this is the last day" in text
    assert s.days.phase == "over" and s.days.result == "day-limit" and s.day_dial == DAY_LIMIT
    assert f"{DAY_LIMIT}-day limit" in text
    assert "The session is over" in refused(s, "day.route", RYAN, {"stay": True})
    # the guild quest was not completed in time: it fails, and the campaign is lost (p.46)
    assert "The Sunken Chime is not completed, so it fails" in text and s.journal.result == "lost"
    assert "This campaign is lost" in refused(s, "day.start", RYAN, {})


# --------------------------------------------------------------- time-outs --
def test_a_town_visit_times_out_and_the_day_goes_on():
    s = examples_party()
    s, _ = run(s, "day.start", RYAN, {})
    pid = f"d{s.days.serial}-town"
    s, ev = run(s, "day.timeout", RYAN, {"ask": pid})
    assert "No answer from Ryan, Shannon in time" in said(ev)
    assert s.days.phase == "end-of-day"


def test_a_player_the_day_waits_for_cannot_leave_until_they_answer():
    s = examples_party()
    s, _ = run(s, "day.start", RYAN, {})
    assert "waiting for" in refused(s, "campaign.leave", SHANNON)
    s, _ = run(s, "town.done", SHANNON)
    s, ev = run(s, "campaign.leave", SHANNON)
    assert SHANNON not in s.adventurers
    s, _ = run(s, "town.done", RYAN)  # the day goes on without her
    assert s.days.ask.kind == "rest" and s.days.ask.owners == [RYAN]


# ------------------------------------------------------------ province effect --
def end_of_day_with(card: str, setup=None):
    """Day 2 stays in Brinehold (a town encounter); ``card`` is the peaceful card drawn at the End of Day."""
    s = day_two(setup=setup)
    s, _ = run(s, "day.route", RYAN, {"stay": True})
    s = stack(s, card)
    s, _ = run(s, "town.done", RYAN)
    s, ev = run(s, "town.done", SHANNON)
    return s, said(ev)


def test_the_storm_raises_the_spring_flood():
    s, text = end_of_day_with("ge-p04")  # A Lost Child shows the storm
    assert "The Tide gauge moves to Spring Flood" in text and s.days.gauge == "flood"
    assert "base movement is 1" in text


def test_a_card_without_icons_changes_nothing():
    s, text = end_of_day_with("sm-p04")  # Fog on the Causeway has no icon
    assert "Fog on the Causeway shows no icon. The tide holds: nothing changes." in text
    assert s.days.gauge == "low"


def test_icons_are_read_left_to_right():
    s, text = end_of_day_with("ge-p03")  # The Old Milestone: moon, then sun
    assert text.index("shows Moon") < text.index("shows Clear Sky")
    assert "The Marsh Lantern moves 2 hexes" in text and s.days.gauge == "low"
