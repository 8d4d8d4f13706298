"""Town encounters (pp.38-41): every town feature and town effect of the Saltmire's gazetteer, played, and the
traveling caravan.  The party is Ryan and Shannon (the rulebook's examples); day 2 takes them from Brinehold."""
from __future__ import annotations

from day_helpers import RYAN, SHANNON, day_two, refused, run, said, stack


def at_town(hex_, setup=None, start=None, stack_cards=(), difficulty="adept"):
    s = day_two(difficulty=difficulty, setup=setup)
    if start is not None:
        s.days.party = list(start)
    if stack_cards:
        s = stack(s, *stack_cards)
    s, ev = run(s, "day.route", RYAN, {"to": list(hex_)})
    s, ev2 = run(s, "day.vote", SHANNON)
    return s, said(ev + ev2)


REEDWICK, OSSMERE, HESK, CAIRN = (3, 2), (0, 5), (6, 3), (1, 1)


def test_the_shop_takes_one_card_a_shop_action_and_discards_the_rest_at_the_end():
    s, text = at_town(REEDWICK, stack_cards=["iron-sword", "travel-bread", "leather-cap"])
    assert "The shop reveals 3 cards: Iron Sword, Travel Bread, Leather Cap" in text
    assert "takes 1 card" in refused(s, "town.visit", RYAN, {"feature": "shop", "item": "Iron Sword, Travel Bread"})
    assert "The shop has no `Ebony Greaves`" in refused(s, "town.visit", RYAN, {"feature": "shop",
                                                                               "item": "Ebony Greaves"})
    s, ev = run(s, "town.visit", RYAN, {"feature": "shop", "item": "Iron Sword"})
    assert s.adventurers[RYAN].ready == ["iron-sword"] and s.days.town.shop == ["travel-bread", "leather-cap"]
    s, ev = run(s, "town.visit", RYAN, {"feature": "shop", "item": "Leather Cap"})  # the same feature twice
    s, _ = run(s, "town.done", SHANNON)
    assert s.days.town is None
    assert "travel-bread" in s.item_decks["common"].discard


def test_a_full_inventory_waits_for_its_owner_to_make_room():
    def full(state):
        state.adventurers[RYAN].pack = ["spiced-mead", "lockpick-set", "rune-of-warding", "stamina-tonic",
                                        "healing-draught", "travellers-cloak", "chainmail-shirt", "battle-axe"]
    s, _ = at_town(REEDWICK, setup=full, stack_cards=["iron-sword"])
    s, ev = run(s, "town.visit", RYAN, {"feature": "shop", "item": "Iron Sword"})
    assert "inventory spaces are full" in said(ev) and s.adventurers[RYAN].holding == "iron-sword"


def test_the_trainer_sets_aside_a_faded_constellation_and_teaches_a_line():
    # Reedwick's trainer has Warrior faded out: Heavy Armor (warrior) is set aside and another token drawn
    s, text = at_town(REEDWICK, stack_cards=["heavy-armor", "bow", "shadow", "speech"])
    assert "Heavy Armor (warrior) is a faded constellation here: it is set aside" in text
    assert s.days.town.trainer == ["bow", "shadow", "speech"]
    assert s.days.trainer_bag.count("heavy-armor") == 2  # set aside, then back in the bag
    assert "already trained" in refused(s, "town.visit", RYAN, {"feature": "trainer", "line": "destruction-staff"}) \
        or "does not offer" in refused(s, "town.visit", RYAN, {"feature": "trainer", "line": "destruction-staff"})
    s, ev = run(s, "town.visit", SHANNON, {"feature": "trainer", "line": "Speech"})
    assert s.adventurers[SHANNON].rows[0].right.id == "speech"  # the first open circular slot
    assert "Shannon trains Speech (slot 1R)" in said(ev)
    assert "speech" not in s.days.town.trainer


def test_the_trainer_gives_back_an_untrained_magicka_stat():
    def no_magicka(state):
        adv = state.adventurers[SHANNON]
        from rulesets.tes.outcomes import mat
        from rulesets.tes.content import load_pack
        mat.untrain(adv, load_pack("starter"), "line:magicka")
    s, _ = at_town(REEDWICK, setup=no_magicka, stack_cards=["bow", "shadow", "speech"])
    s, ev = run(s, "town.visit", SHANNON, {"feature": "trainer", "line": "magicka", "slot": "5L"})
    assert s.adventurers[SHANNON].rows[4].left.id == "magicka" and s.adventurers[SHANNON].stat("magicka") == 0


def test_no_open_circular_slot_spends_no_action():
    def crowded(state):
        adv = state.adventurers[RYAN]
        from rulesets.tes.state import Slot
        adv.rows[0].right = Slot("line", "bow")
        adv.rows[2].right = Slot("line", "acrobatics")
        adv.rows[3].right = Slot("line", "two-handed")
        adv.rows[4].left = Slot("line", "shadow")
        adv.rows[4].right = Slot("line", "heavy-armor")
    s, _ = at_town(REEDWICK, setup=crowded, stack_cards=["speech", "bow", "restoring-light"])
    assert "no open circular slot" in refused(s, "town.visit", RYAN, {"feature": "trainer", "line": "speech"})
    assert s.days.town.actions[RYAN] == 2


def test_the_inn_heals_fully_and_clears_the_cooldown_track_and_drained_dice():
    def hurt(state):
        adv = state.adventurers[RYAN]
        adv.hp = 1
        die = next(iter(adv.dice))
        adv.cooldown = [{"fatigue": "light"}, {"fatigue": "over"}, {"status": "bane"}, {"die": die},
                        {"fatigue": "over"}]
        adv.drained = [list(adv.dice)[1]]
    s, _ = at_town(REEDWICK, setup=hurt)
    s, ev = run(s, "town.visit", RYAN, {"feature": "inn"})
    adv = s.adventurers[RYAN]
    assert adv.hp == adv.max_hp and adv.cooldown == [] and adv.drained == []
    assert "heals 2 HP (4/4)" in said(ev)  # 1 HP, and 1 more from day 1's rest


def test_the_alchemy_station_refreshes_an_expended_potion():
    def potion(state):
        adv = state.adventurers[SHANNON]
        adv.pack = ["healing-draught"]
        adv.expended = ["healing-draught"]
    s, _ = at_town(OSSMERE, setup=potion)
    assert "no expended potion" in refused(s, "town.visit", RYAN, {"feature": "alchemy"})
    s, ev = run(s, "town.visit", SHANNON, {"feature": "alchemy"})
    assert s.adventurers[SHANNON].expended == [] and "refreshes Healing Draught" in said(ev)


def test_a_faded_feature_is_not_there():
    s, _ = at_town(REEDWICK)
    assert "Reedwick has no alchemy station" in refused(s, "town.visit", RYAN, {"feature": "alchemy"})


def test_the_town_square_once_per_visit():
    s, _ = at_town(REEDWICK)
    t = s.adventurers[RYAN].tenacity
    s, ev = run(s, "town.visit", RYAN, {"feature": "square"})
    assert s.adventurers[RYAN].tenacity == t + 1 and "The Heron Shrine" in said(ev)
    assert "once per visit" in refused(s, "town.visit", RYAN, {"feature": "square"})


def test_a_group_square_needs_an_action_from_every_adventurer():
    s, _ = at_town(OSSMERE)
    s, ev = run(s, "town.visit", RYAN, {"feature": "square"})
    assert "waiting for Shannon" in said(ev) and s.adventurers[RYAN].tenacity == 0
    s, ev = run(s, "town.visit", SHANNON, {"feature": "square"})
    assert s.adventurers[RYAN].tenacity == 2 and s.adventurers[SHANNON].tenacity == 2


def test_hesks_smokehouse_heals_2():
    def hurt(state):
        state.adventurers[SHANNON].hp = 1
    s, _ = at_town(HESK, setup=hurt)
    s, _ = run(s, "town.visit", SHANNON, {"feature": "square"})
    assert s.adventurers[SHANNON].hp == 4  # 1 HP, 1 from day 1's rest, 2 from the smokehouse


def test_the_guild_kiosk_and_the_quest_board_are_town_actions():
    s = day_two()
    s = stack(s, "sm-p01")
    # Brinehold has both: on day 2 the party stays in town (a town encounter again)
    s, ev = run(s, "day.route", RYAN, {"stay": True})
    assert s.days.encounter.kind == "town"
    before = s.adventurers[RYAN].tenacity
    s, ev = run(s, "town.visit", RYAN, {"feature": "kiosk"})  # the Mages Guild's Reading Room
    assert "Reading Room" in said(ev) and s.adventurers[RYAN].tenacity == before + 1
    s, ev = run(s, "town.visit", RYAN, {"feature": "board"})  # two side quests drawn, one may be accepted
    assert s.days.town.actions[RYAN] == 0 and s.days.ask.kind == "side-quest" and len(s.quests.offer) == 2


def test_two_actions_then_no_more():
    s, _ = at_town(REEDWICK)
    s, _ = run(s, "town.visit", RYAN, {"feature": "inn"})
    s, _ = run(s, "town.visit", RYAN, {"feature": "square"})
    assert "not you" in refused(s, "town.visit", RYAN, {"feature": "inn"}) or \
        "no town actions left" in refused(s, "town.visit", RYAN, {"feature": "inn"})


def test_a_town_effect_with_a_choice_once_a_session():
    s, text = at_town(CAIRN, start=(2, 2))
    assert "Town effect — The Cairn Toll" in text and s.days.ask.kind == "town-effect"
    assert "not waiting" in refused(s, "town.visit", RYAN, {"feature": "inn"})
    s, ev = run(s, "day.pick", RYAN, {"pick": "1"})
    assert "The party chooses: Carry stones" in said(ev)
    assert all({"fatigue": "light"} in a.cooldown for a in s.adventurers.values())
    assert "cairn-tollan" in s.days.once and s.days.ask.kind == "town"


def test_a_closed_town_cannot_be_entered():
    s = day_two()
    s.days.closed.append("reedwick")
    msg = refused(s, "day.route", RYAN, {"to": [3, 2]})
    assert "Reedwick is closed" in msg


def test_the_caravan_at_an_unstable_landmark_is_a_town_encounter_and_gives_tenacity():
    s = day_two()
    s = stack(s, "iron-sword", "travel-bread", "leather-cap", "stormcaller-staff", "bow", "speech")
    s, _ = run(s, "day.route", RYAN, {"to": [3, 3]})
    s, ev = run(s, "day.vote", SHANNON, forced=[3])
    text = said(ev)
    assert "rolls the unstable die: 3, a traveling caravan" in text
    assert "Town encounter: The Salt Wagons" in text
    assert "The shop reveals 4 cards: Iron Sword, Travel Bread, Leather Cap, Stormcaller Staff" in text
    s, _ = run(s, "town.done", RYAN)
    s, ev = run(s, "town.done", SHANNON)
    assert "each adventurer gains 2 tenacity" in said(ev)
    assert all(a.tenacity == 2 for a in s.adventurers.values())


def test_the_cairn_toll_paid_with_luck():
    def lucky(state):
        for a in state.adventurers.values():
            a.tenacity = 2
    s, _ = at_town(CAIRN, start=(2, 2), setup=lucky)
    s, ev = run(s, "day.pick", RYAN, {"pick": "2"})
    assert "The party chooses: Pay with luck" in said(ev)
    assert all(a.tenacity == 1 for a in s.adventurers.values())


# ---- rules revision 4: a town action that would gain nothing is refused and spends nothing (issue 26, item 4)
def test_the_inn_at_full_hp_with_nothing_to_recover_spends_no_action():
    s, _ = at_town(REEDWICK)
    s, _ = run(s, "town.visit", RYAN, {"feature": "inn"})  # day 1's hurt is healed
    adv = s.adventurers[RYAN]
    assert adv.hp == adv.max_hp and not adv.cooldown and not adv.drained and s.days.town.actions[RYAN] == 1
    why = refused(s, "town.visit", RYAN, {"feature": "inn"})
    assert "Ryan is at full HP (4/4) with an empty cooldown track and no drained dice: the inn would give " \
           "nothing. No town action was spent" in why


def test_a_square_that_would_give_nothing_spends_no_action():
    def whole(state):
        state.adventurers[SHANNON].hp = state.adventurers[SHANNON].max_hp
    s, _ = at_town(HESK, setup=whole)
    why = refused(s, "town.visit", SHANNON, {"feature": "square"})
    assert "The Eel Smokehouse would give Shannon nothing now (Eat your fill: heal 2 HP.). No town action was " \
           "spent" in why


def test_a_kiosk_that_would_give_nothing_spends_no_action():
    s = day_two()
    s = stack(s, "sm-p01")
    s, _ = run(s, "day.route", RYAN, {"stay": True})
    adv = s.adventurers[RYAN]
    adv.tenacity, adv.cooldown = 5, []  # the Mages Guild's Reading Room: recover 1 die and gain 1 tenacity
    assert "The kiosk's Reading Room would give Ryan nothing now" in refused(s, "town.visit", RYAN,
                                                                            {"feature": "kiosk"})
    assert s.days.town.actions[RYAN] == 2


def test_a_group_square_is_refused_when_another_adventurer_has_no_action_left():
    s, _ = at_town(OSSMERE)
    s, _ = run(s, "town.visit", SHANNON, {"feature": "inn"})
    s, _ = run(s, "town.done", SHANNON)
    why = refused(s, "town.visit", RYAN, {"feature": "square"})
    assert "The Lantern Vigil is a group action: every adventurer puts one of their own town actions into it " \
           "(p.39), and Shannon has none left. No town action was spent." in why
    assert s.days.town.actions[RYAN] == 2 and s.days.town.group == []


def test_the_group_waits_for_a_last_action_and_gives_it_back_when_given_up():
    s, _ = at_town(OSSMERE)
    s, ev = run(s, "town.visit", RYAN, {"feature": "square"})
    s, _ = run(s, "town.visit", SHANNON, {"feature": "inn"})  # Shannon's first action: her last is the group's
    why = refused(s, "town.visit", SHANNON, {"feature": "inn"})
    assert "The Lantern Vigil is a group action: Ryan put a town action into it and it waits for Shannon's last " \
           "town action." in why
    s, ev = run(s, "town.done", SHANNON)
    assert "The Lantern Vigil cannot be done without Shannon: Ryan gets back the town action put into it." \
        in said(ev)
    assert s.days.town.actions[RYAN] == 2 and s.days.ask.owners == [RYAN]


def test_revision_3_keeps_spending_town_actions_on_nothing():
    def old(state):
        state.rules = 3
    s, _ = at_town(OSSMERE, setup=old)
    s, _ = run(s, "town.visit", SHANNON, {"feature": "inn"})
    s, _ = run(s, "town.visit", SHANNON, {"feature": "inn"})  # at full HP: spent, as it was
    s, ev = run(s, "town.visit", RYAN, {"feature": "square"})  # Shannon cannot join: accepted, as it was
    assert s.days.town.actions[SHANNON] == 0 and s.days.town.group == [RYAN] and "waiting for Shannon" in said(ev)


def test_a_town_visit_timed_out_with_a_group_action_given_up_ends_the_visit():
    def hurt(state):
        state.adventurers[RYAN].hp = 1
    s, _ = at_town(OSSMERE, setup=hurt)
    s, _ = run(s, "town.visit", RYAN, {"feature": "inn"})
    s, _ = run(s, "town.visit", RYAN, {"feature": "square"})  # Ryan's last action, waiting for Shannon's
    assert s.days.ask.owners == [SHANNON]
    s, ev = run(s, "day.timeout", RYAN, {"ask": f"d{s.days.serial}-town"})
    text = said(ev)
    assert "The Lantern Vigil cannot be done without Shannon: Ryan gets back the town action put into it." in text
    assert "Ryan is done in town (1 town action unused)." in text  # the deadline ends the visit for everyone
    assert s.days.town is None and "The town encounter at Ossmere is over." in text
