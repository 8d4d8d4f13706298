"""The Ironpine Highlands' delves: the Cinder Deeps (Survey) and the Thane's Barrow (Uncover), and the Ironpine's
four delve cards (IP-01 to IP-04).

Each Ironpine delve card is drawn in an Ironpine delve and its text is played through the actions (explore, place,
move, the trap's lockpick check, the round's end): the state changes as its words say.  Each delve is started from
its overland card's delve choice in an Ironpine session (Something in the Deep Shaft, The Barrow Opens): its delve
deck holds the general cards and the Ironpine's, never the Saltmire's, its enemy chips come from the Ironpine's
bag, and it is won by its objective and lost.  A Saltmire session's delve never draws an Ironpine card.
"""
from __future__ import annotations

import pytest
from battle_helpers import ctx, run as battle_run
from delve_helpers import chip_roll, delve, on_top, tiles_first

import day_helpers
from day_helpers import RYAN, SHANNON, run, said
from engine.hexes import Hex
from rulesets.tes.content import load_pack
from rulesets.tes.session import setup as session_setup
from test_day_cards import in_its_delve

PACK = load_pack("starter")
IP_CARDS = ("caved-in-drift", "rotten-pit-props", "rimeglass-hollow", "icicle-gallery")
SM_CARDS = {k for k, c in PACK.delve_cards.items() if c.province == "SM"}
GENERAL = {k for k, c in PACK.delve_cards.items() if c.province is None}
# what each part of the Ironpine's cards is played by here (tests/test_delve_cards.py's sweep reads these)
PLAYED = {"revealed": {"caved-in-drift"}, "trap": {"rotten-pit-props"}, "environment": {"icicle-gallery"},
          "skyshard": {"rimeglass-hollow": [1, 2, 3]}}


@pytest.fixture(autouse=True)
def no_guild_draw(monkeypatch):
    """Sessions here are played without a guild quest, as in tests/test_ironpine.py."""
    monkeypatch.setattr(session_setup, "draw_guilds", lambda c: None)


def light(adv) -> int:
    return sum(1 for e in adv.cooldown if e.get("fatigue") == "light")


def statuses(adv) -> list[str]:
    return [e["status"] for e in adv.cooldown if "status" in e]


def clear_enemies(s) -> None:
    for u in s.battle.units.values():
        if u.side == "enemy":
            u.defeated, u.q, u.r = True, None, None


def first_hex(s, tile: str, start=Hex(1, 0)) -> Hex:
    """The free hex of ``tile`` nearest the entrance's door hex."""
    c = ctx(s)
    return min((h for h in c.map.passable if c.map.tile_of[h] == tile and c.occupant(h) is None),
               key=lambda h: (c.range_to(start, h), h.q, h.r))


def explored(s, card: str, tile: str, who: str = "S", forced=(1,)):
    """``who`` (on the entrance's door hex 1,0) explores it with ``card`` on top and ``tile`` first in its stack;
    the tile goes where the party is offered first.  Returns the state and the words."""
    on_top(s, card)
    tiles_first(s, PACK.delve_cards[card].shape, tile)
    s, ev = battle_run(s, "battle.explore", who, {}, forced=list(forced))
    words = [said(ev)]
    ex = s.battle.delve.exploring
    if ex is not None:
        s, ev = battle_run(s, "battle.place", who, {"place": ex.default}, forced=list(forced))
        words.append(said(ev))
    return s, "\n".join(words)


def ironpine_delve(encounter: str = "cinder-deeps", xp: int = 1):
    s, ev = delve(encounter, xp=xp, hexes={"S": "1,0", "R": "1,1"})
    assert s.battle.delve.province == "IP"
    return s, said(ev)


# ------------------------------------------------------------------ the pack --
def test_the_ironpine_has_two_delves_and_four_delve_cards_of_its_own():
    deeps, barrow = PACK.encounters["cinder-deeps"], PACK.encounters["thanes-barrow"]
    assert (deeps.mode, deeps.province, deeps.objective, deeps.skyshards) == ("delve", "IP", "survey", 3)
    assert (barrow.mode, barrow.province, barrow.objective, barrow.skyshards) == ("delve", "IP", "uncover", 3)
    cards = [PACK.delve_cards[k] for k in IP_CARDS]
    assert [(c.province, c.number) for c in cards] == [("IP", n) for n in (1, 2, 3, 4)]
    assert {k for k, c in PACK.delve_cards.items() if c.province == "IP"} == set(IP_CARDS)
    for c in cards:  # a When Revealed effect and at most one other box, every text played by the bot
        parts = [p for p in (c.revealed, c.environment, c.trap and c.trap.part, *c.skyshard.values()) if p]
        assert parts and not any(p.manual for p in parts), c.id
        assert sorted(c.scale) == [1, 2, 3, 4], c.id


def test_an_ironpine_delve_on_its_own_deals_the_general_and_ironpine_cards():
    s, text = ironpine_delve("thanes-barrow")
    assert "The delve deck holds 11 cards (general and IP)" in text
    assert set(s.battle.delve.deck) == GENERAL | set(IP_CARDS)


# ----------------------------------------------------------- the cards' texts --
def test_caved_in_drift_gives_each_adventurer_1_light_fatigue_and_a_common_cache():
    s, _ = ironpine_delve()
    s, text = explored(s, "caved-in-drift", "den-6c")
    assert "draws **Caved-In Drift** (IP-01): a 6-hex tile" in text
    assert "Caved-In Drift, when revealed: Loose stone rattles down as the party squeezes past the fall: each " \
           "adventurer gains 1 light fatigue." in text
    assert "Caved-In Drift: Shannon gains 1 light fatigue." in text and "Caved-In Drift: Ryan gains 1 light fatigue." \
        in text
    assert light(s.adventurers["S"]) == 1 and light(s.adventurers["R"]) == 1
    assert list(s.battle.caches.values()) == ["common"] and "📦 Caved-In Drift: a common cache in hex" in text
    assert "caved-in-drift" in s.battle.delve.discard  # nothing else on it: discarded once resolved


def trapped():
    s, _ = ironpine_delve()
    s, text = explored(s, "rotten-pit-props", "chamber-7a")
    assert "draws **Rotten Pit Props** (IP-02): a 7-hex tile" in text
    assert s.battle.delve.cards["chamber-7a"].trap
    clear_enemies(s)
    s.adventurers["S"].bonus_hp = 0
    return s


def test_rotten_props_failed_deal_2_damage_and_daze_the_one_who_set_them_off():
    s = trapped()
    into = first_hex(s, "chamber-7a")
    hp, rhp = s.adventurers["S"].hp, s.adventurers["R"].hp
    s, ev = battle_run(s, "battle.move", "S", {"to": [into.q, into.r]}, forced=[1, 1, 1])
    text = said(ev)
    assert "triggers the trap **Rotten Props**" in text and "Code **3-6-2** with 2 attempts" in text
    s, ev = battle_run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s, more = battle_run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    text = said(ev + more)
    assert "fails to disarm the trap" in text
    assert "Rotten Props: A prop snaps and the roof comes down on you: take 2 damage and gain daze." in text
    assert s.adventurers["S"].hp == hp - 2 and statuses(s.adventurers["S"]) == ["daze"]
    assert s.adventurers["R"].hp == rhp and statuses(s.adventurers["R"]) == []
    assert "chamber-7a" not in s.battle.delve.cards or not s.battle.delve.cards["chamber-7a"].trap


def test_rotten_props_disarmed_do_nothing():
    s = trapped()
    into = first_hex(s, "chamber-7a")
    hp = s.adventurers["S"].hp
    s, _ = battle_run(s, "battle.move", "S", {"to": [into.q, into.r]}, forced=[3, 6, 2])
    s, ev = battle_run(s, "battle.lockpick", "S", {})
    assert "disarms the trap" in said(ev) and "inactive now; its effect does not work" in said(ev)
    assert s.adventurers["S"].hp == hp and statuses(s.adventurers["S"]) == []


@pytest.mark.parametrize("k", [1, 2, 3])
def test_rimeglass_hollow_works_for_the_partys_new_skyshard_total(k):
    s, _ = ironpine_delve()
    s, text = explored(s, "rimeglass-hollow", "alcove-3a")
    assert "draws **Rimeglass Hollow** (IP-03): a 3-hex tile" in text
    clear_enemies(s)
    s.battle.delve.gained = k - 1
    for a in s.adventurers.values():
        a.bonus_hp, a.tenacity = 0, 0
        a.cooldown = [{"fatigue": "light"}] * 3
    into = first_hex(s, "alcove-3a")
    s, ev = battle_run(s, "battle.move", "S", {"to": [into.q, into.r]})
    text = said(ev)
    assert f"Shannon gains the skyshard of Rimeglass Hollow: {k}/3 skyshards" in text
    assert s.battle is None or s.battle.delve.gained == k
    shannon, ryan = s.adventurers["S"], s.adventurers["R"]
    if k == 1:
        assert "Rimeglass Hollow (skyshard 1): Gain 2 bonus HP." in text
        assert shannon.bonus_hp == 2 and ryan.bonus_hp == 0
    elif k == 2:
        assert "Rimeglass Hollow (skyshard 2): Recover 2 light fatigue." in text
        assert light(shannon) == 1 and light(ryan) == 3
    else:
        assert "Rimeglass Hollow (skyshard 3): Each adventurer gains 1 tenacity." in text
        assert shannon.tenacity == 1 and ryan.tenacity == 1


def end_round(s):
    no = s.battle.round
    words = []
    while s.battle is not None and s.battle.round == no:
        s, ev = battle_run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
        words.append(said(ev))
    return s, "\n".join(words)


def test_icicle_gallery_deals_1_damage_to_each_adventurer_on_it_at_the_start_of_each_round():
    s, _ = ironpine_delve()
    s, text = explored(s, "icicle-gallery", "hall-7b")
    assert "draws **Icicle Gallery** (IP-04): a 7-hex tile" in text
    clear_enemies(s)
    into = first_hex(s, "hall-7b")
    s.battle.units["a:S"].q, s.battle.units["a:S"].r = into.q, into.r  # Shannon stands on it, Ryan at the door
    for a in s.adventurers.values():
        a.bonus_hp = 0
    hp, rhp = s.adventurers["S"].hp, s.adventurers["R"].hp
    s, text = end_round(s)
    assert "Icicle Gallery: Icicles break from the roof as the cold shifts: at the start of each round, each " \
           "adventurer on this tile takes 1 damage." in text
    assert s.adventurers["S"].hp == hp - 1 and s.adventurers["R"].hp == rhp
    s.battle.units["a:R"].q, s.battle.units["a:R"].r = first_hex(s, "hall-7b").q, first_hex(s, "hall-7b").r
    s, text = end_round(s)  # the next round: both stand on it now
    assert s.adventurers["S"].hp == hp - 2 and s.adventurers["R"].hp == rhp - 1


# --------------------------------------------------------------- the day's delves --
IP_LANDMARKS = {"peaceful": [1, 6], "conflict": [3, 6], "unstable": [3, 5]}  # tests/test_ironpine.py's


def ironpine_day_two():
    """Day 1 at Stonemere spent; the state waits for day 2's route (tests/test_ironpine.py's day two)."""
    s = day_helpers.examples_party()
    s, _ = run(s, "day.start", RYAN, {"province": "ironpine", "stack": day_helpers.DECK_STACK
                                      + day_helpers.BRINEHOLD_SHOP[:5] + ["ip-p01"]}, guild=None)
    for who in (RYAN, SHANNON):
        s, _ = run(s, "town.done", who)
    for who in (RYAN, SHANNON):
        s, _ = run(s, "day.rest", who)
    return s


def at_ironpine_card(card: str):
    return day_helpers.at_card(card, day=ironpine_day_two, hexes=IP_LANDMARKS)


def delve_from(card_id: str):
    """Day 2 in the Ironpine: the party meets ``card_id`` and takes its delve choice."""
    card = PACK.overland_cards[card_id]
    number = next(ch.number for ch in card.choices if ch.outcome == "delve")
    s, text = at_ironpine_card(card_id)
    assert s.days.code == "IP"
    s, ev = run(s, "day.choose", RYAN, {"choice": number})
    return s, text + "\n" + said(ev), card


DELVE_CARDS = [("ip-c07", "cinder-deeps", "survey", 3), ("ip-c03", "thanes-barrow", "uncover", 4)]


@pytest.mark.parametrize("card_id,encounter,objective,xp", DELVE_CARDS)
def test_the_cards_delve_choice_starts_its_ironpine_delve_with_the_ironpine_deck(card_id, encounter, objective, xp):
    s, text, card = delve_from(card_id)
    ch = next(c for c in card.choices if c.outcome == "delve")
    assert card.delve == encounter and ch.xp == xp
    assert f"🔦 **{ch.title}** (☼ {xp} XP): {ch.text}" in text  # the party reads it as a delve
    assert f"⚔️ Battle 1: **{PACK.encounters[encounter].name}**." in text
    assert "The delve deck holds 11 cards (general and IP)" in text
    in_its_delve(s, card)
    b = s.battle
    assert b.delve.province == "IP" and PACK.encounters[b.encounter].objective == objective
    deck = set(b.delve.deck)
    assert deck == GENERAL | set(IP_CARDS) and not deck & SM_CARDS
    # the other choices are as they were: the clash first, the way round last
    assert [c.outcome for c in card.choices] == ["clash", "delve", "peaceful"]


@pytest.mark.parametrize("card_id", ["ip-c07", "ip-c03"])
def test_a_tile_of_the_cards_delve_draws_its_enemies_from_the_ironpine_bag(card_id):
    s, _text, _card = delve_from(card_id)
    b = s.battle
    assert b.turn.owner == RYAN and (b.units["a:ryan"].q, b.units["a:ryan"].r) == (1, 0)
    on_top(s, "caved-in-drift")
    tiles_first(s, 6, "den-6c")
    wolf = chip_roll(s, "snow-wolf")  # the die that draws the Snow Wolf from the Ironpine's level 1 bag
    s, ev = run(s, "battle.explore", RYAN, {}, forced=[wolf, wolf])
    words = said(ev)
    s, ev = run(s, "battle.place", RYAN, {"place": s.battle.delve.exploring.default}, forced=[wolf, wolf])
    words += "\n" + said(ev)
    foes = [u for u in s.battle.units.values() if u.side == "enemy"]
    assert "Snow Wolf (level 1, up to 1) in hex" in words and "snow-wolf" in [u.enemy for u in foes]
    assert len(foes) == 2 and all(PACK.enemies[u.enemy].province in (None, "IP") for u in foes)
    assert "Caved-In Drift: Ryan gains 1 light fatigue." in words  # its card is played in the day's delve too


def explore_the_hollow(s):
    """Ryan (on the entrance's door hex 1,0) explores it with Rimeglass Hollow and walks onto its skyshard."""
    on_top(s, "rimeglass-hollow")
    tiles_first(s, 3, "alcove-3a")
    s, ev = run(s, "battle.explore", RYAN, {}, forced=[1])
    words = said(ev)
    if s.battle.delve.exploring is not None:
        s, ev = run(s, "battle.place", RYAN, {"place": s.battle.delve.exploring.default}, forced=[1])
        words += "\n" + said(ev)
    into = first_hex(s, "alcove-3a")
    bonus = s.adventurers[RYAN].bonus_hp
    s, ev = run(s, "battle.move", RYAN, {"to": [into.q, into.r]})
    words += "\n" + said(ev)
    assert "Ryan explores hex 1,0 and draws **Rimeglass Hollow** (IP-03)" in words
    assert "Ryan gains the skyshard of Rimeglass Hollow: 1/3 skyshards" in words
    assert "Rimeglass Hollow (skyshard 1): Gain 2 bonus HP." in words
    assert s.battle.delve.gained == 1 and s.adventurers[RYAN].bonus_hp == bonus + 2
    return s


def day_end_round(s):
    no = s.battle.round
    words = []
    while s.battle is not None and s.battle.round == no:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
        words.append(said(ev))
    return s, "\n".join(words)


def test_the_cinder_deeps_won_by_surveying_its_skyshards_resolve_the_deep_shaft():
    s, _text, card = delve_from("ip-c07")
    xp_dial = s.xp_dial
    s = explore_the_hollow(s)
    s.battle.delve.gained = 3  # the other two skyshards (the delve's own tests play finding them)
    s, text = day_end_round(s)
    assert "🏆 Victory!" in text and "The delve is taken apart" in text
    assert s.battle is None and s.last_battle.mode == "delve" and s.last_battle.outcome == "victory"
    assert s.last_battle.encounter == "cinder-deeps" and s.last_battle.skyshard_xp is None
    enc = s.days.encounter
    assert enc.result == "success" and enc.xp == 3
    assert "Something in the Deep Shaft is resolved: ☼ 3 XP in the Reward Phase." in text
    assert f"The party gains 3 XP: the XP Dial turns from {xp_dial} to {xp_dial + 3}" in text
    assert "skyshard" not in text.split("☼ Reward Phase.")[1]  # a Survey's skyshards are not worth XP
    assert "overfatigue" not in text  # the clash's loss is not the delve's


def test_the_cinder_deeps_left_early_fails_the_deep_shaft_with_no_xp():
    s, _text, card = delve_from("ip-c07")
    xp_dial = s.xp_dial
    over = {o: a.cooldown.count({"fatigue": "over"}) for o, a in s.adventurers.items()}
    s = explore_the_hollow(s)
    s, _ = run(s, "battle.retreat", RYAN)
    s, text = day_end_round(s)
    assert s.last_battle.outcome == "retreat" and s.last_battle.skyshard_xp is None
    enc = s.days.encounter
    assert enc.result == "failed" and enc.xp == 0
    assert "Something in the Deep Shaft is failed." in text
    assert s.xp_dial == xp_dial  # a Survey left early is worth nothing
    # the delve choice promises nothing for a loss: the clash's overfatigue is not given
    assert {o: a.cooldown.count({"fatigue": "over"}) for o, a in s.adventurers.items()} == over


def test_the_thanes_barrow_won_by_retreating_with_every_skyshard_pays_the_card_and_its_skyshards():
    s, _text, card = delve_from("ip-c03")
    xp_dial = s.xp_dial
    s = explore_the_hollow(s)
    s.battle.delve.gained = 3
    s, ev = run(s, "battle.retreat", RYAN)
    s, text = day_end_round(s)
    text = said(ev) + "\n" + text
    assert s.last_battle.outcome == "victory" and s.last_battle.skyshard_xp == 3
    assert "retreats with every skyshard" in text
    enc = s.days.encounter
    assert enc.result == "success" and enc.xp == 4
    assert "The Barrow Opens is resolved: ☼ 4 XP in the Reward Phase." in text
    assert "💎 Skyshards gained: 3/3. They are worth 3 XP in the Reward Phase." in text
    reward = text.split("☼ Reward Phase.")[1]
    assert f"The party gains 4 XP: the XP Dial turns from {xp_dial} to {xp_dial + 4}" in reward
    assert f"3 skyshards gained in the Uncover delve, 1 XP each. The party gains 3 XP: the XP Dial turns from " \
           f"{xp_dial + 4} to {xp_dial + 7}" in reward
    assert s.xp_dial == xp_dial + 4 + 3  # the card's 4 XP and 1 XP for each skyshard
    assert not any({"status": "fear"} in a.cooldown for a in s.adventurers.values())  # the clash's loss only


def test_the_thanes_barrow_left_early_fails_the_card_and_its_skyshard_still_gives_xp():
    s, _text, card = delve_from("ip-c03")
    xp_dial = s.xp_dial
    s = explore_the_hollow(s)
    s, _ = run(s, "battle.retreat", RYAN)
    s, text = day_end_round(s)
    assert s.last_battle.outcome == "retreat" and s.last_battle.skyshard_xp == 1
    assert "Skyshards gained: 1/3. They are worth 1 XP in the Reward Phase." in text
    enc = s.days.encounter
    assert enc.result == "failed" and enc.xp == 0 and "The Barrow Opens is failed." in text
    reward = text.split("☼ Reward Phase.")[1]
    assert "The encounter was failed: no rewards for it, but an Uncover delve's skyshards count." in reward
    assert f"The party gains 1 XP: the XP Dial turns from {xp_dial} to {xp_dial + 1}" in reward
    assert s.xp_dial == xp_dial + 1
    assert not any({"status": "fear"} in a.cooldown for a in s.adventurers.values())


# ------------------------------------------------------- the Saltmire's delves --
@pytest.mark.parametrize("card_id,number", [("sm-c03", 2), ("sm-c08", 2), ("ge-c04", 1)])
def test_a_saltmire_sessions_delve_never_deals_an_ironpine_card(card_id, number):
    card = PACK.overland_cards[card_id]
    assert card.choices[number - 1].outcome == "delve"
    s, _text = day_helpers.at_card(card_id)
    assert s.days.code == "SM"
    s, ev = run(s, "day.choose", RYAN, {"choice": number})
    assert "The delve deck holds 27 cards (general and SM)" in said(ev)
    in_its_delve(s, card)
    deck = set(s.battle.delve.deck)
    assert deck == GENERAL | SM_CARDS and not deck & set(IP_CARDS)


def test_a_general_cards_delve_in_the_ironpine_deals_the_ironpine_cards():
    """Tomb Robbers names the Brinehollow Caves (a Saltmire delve); in an Ironpine session it is played there."""
    card = PACK.overland_cards["ge-c04"]
    s, _text = at_ironpine_card("ge-c04")
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "The delve deck holds 11 cards (general and IP)" in said(ev)
    in_its_delve(s, card)
    assert s.battle.delve.province == "IP" and not set(s.battle.delve.deck) & SM_CARDS


def test_a_saltmire_delve_on_its_own_never_deals_an_ironpine_card():
    for enc in ("brinehollow-caves", "sunken-vaults"):
        s, _ = delve(enc, hexes={"S": "1,0", "R": "1,1"})
        assert s.battle.delve.province == "SM" and not set(s.battle.delve.deck) & set(IP_CARDS), enc
