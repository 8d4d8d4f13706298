"""The Saltmire at full scale: its decks, its enemy chips, and what tests/test_day_cards.py does not play.

tests/test_day_cards.py plays every choice of every overland card with a success.  Here: the decks' sizes and
icons, the Saltmire's enemy bags (province codes, p.15), the card battles' setups (named enemies, bags, escape
hexes, triggers, 3/4-adventurer challenges), battles lost (a card's ``failed`` effects), the gauge and closed
towns a card leaves for the next days, social checks that fail, unmet requirements and unstable landmarks.
"""
from __future__ import annotations

import dataclasses

import pytest

from battle_helpers import party, run as battle_run, texts
from day_helpers import (LANDMARK_HEX, RYAN, SHANNON, UNSTABLE_DIE, at_card, day_two, deck_stack, refused, run, said,
                         stack, train)
from rulesets.tes.battle import pool
from rulesets.tes.content import load_pack
from rulesets.tes.content.tiles import encounter_map

PACK = load_pack("starter")
PROV = PACK.provinces["saltmire"]
SM_CHIPS = ("argonian-bandit", "mudcrab", "slaughterfish", "salt-wretch", "salt-smuggler", "dreugh", "hagraven")


def speech(state):
    """Shannon trains Speech (two Stern Presence dice: faces 1, 1, 2 sway, 1 rally, tenacity, blank)."""
    train(state, SHANNON, "speech", ["stern-presence", "stern-presence"])


def finish_day(s, events=None):
    """Everyone done with the reward and the rest (defaults), until the next day's route (``events`` collects
    what was said)."""
    for _ in range(8):
        ask = s.days.ask
        if ask is None or ask.kind == "route":
            break
        s, ev = run(s, {"reward": "reward.done", "rest": "day.rest", "town": "town.done"}[ask.kind], ask.owners[0])
        if events is not None:
            events += ev
    return s


def arrive(card: str, landmark: str | None = None, prepare=None):
    """Like ``at_card``, but ``prepare`` changes the party on the morning of day 2 (after the first night's rest)."""
    kind = PACK.overland_cards[card].kind
    landmark = landmark or kind
    s = day_two(general=deck_stack(card))
    if prepare is not None:
        prepare(s)
    s = stack(s, card)
    s, ev = run(s, "day.route", RYAN, {"to": LANDMARK_HEX[landmark]})
    if s.days.ask is not None and s.days.ask.kind == "vote":
        s, more = run(s, "day.vote", SHANNON, {}, forced=[UNSTABLE_DIE[kind]] if landmark == "unstable" else None)
        ev += more
    return s, said(ev)


def lose_by_retreat(s):
    """The party retreats in round 1; the enemies roll blanks.  Returns the state and the last events."""
    s, ev = run(s, "battle.retreat", s.battle.turn.owner)
    while s.battle is not None:
        s, more = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
        ev += more
    assert s.last_battle.outcome == "retreat"
    return s, ev


def enemies(s):
    return [u for u in s.battle.units.values() if u.side == "enemy"]


# ---------------------------------------------------------------- the decks --
def test_the_decks_hold_10_general_and_8_saltmire_cards_of_each_type_and_a_session_takes_4_and_8():
    for kind in ("peaceful", "conflict"):
        general = sorted(c.number for c in PACK.overland_cards.values() if c.code == "GE" and c.kind == kind)
        own = sorted(PACK.overland_cards[i].number for i in PROV.cards[kind])
        assert general == list(range(1, 11)) and own == list(range(1, 9)), kind
        assert all(PACK.overland_cards[i].code == "SM" for i in PROV.cards[kind])
    s = day_two()
    assert {k: len(d.pool) + len(d.bottom) + len(d.discard) for k, d in s.days.decks.items()
            if k in ("peaceful", "conflict")} == {"peaceful": 12, "conflict": 12}


def test_peaceful_cards_carry_every_icon_the_tide_reads_and_some_carry_none():
    peaceful = [c for c in PACK.overland_cards.values() if c.kind == "peaceful"]
    for deck in (("GE",), ("SM",)):
        shown = {i for c in peaceful if c.code in deck for i in c.icons}
        assert shown == set(PROV.effect.icons), deck  # sun, rain, storm and moon each move the tide or lantern
        assert any(not c.icons for c in peaceful if c.code in deck)


def test_every_new_conflict_card_has_a_battle_of_its_own_with_a_setup_and_an_objective():
    new = [f"ge-c{n:02}" for n in range(6, 11)] + [f"sm-c{n:02}" for n in range(5, 9)]
    named = [PACK.overland_cards[c].encounter for c in new]
    assert len(set(named)) == len(named)
    for card_id, enc_id in zip(new, named):
        enc = PACK.encounters[enc_id]
        kinds = {PACK.tiles[p.tile].kind for p in enc.tiles}
        assert enc.mode == "clash" and kinds == {"clash", "entrance"}, card_id
        bm = encounter_map(PACK, enc_id)
        assert len(bm.enemy_slots) >= 4 and enc.objective in ("conquer", "eliminate", "escape-or-eliminate-all")
        for eid in (*enc.bag, *enc.named_enemies, *enc.required_enemies):
            assert PACK.enemies[eid].province in (None, "SM"), (card_id, eid)
        if card_id.startswith("ge-"):  # a general card plays in any province: no Saltmire enemy by name
            assert all(PACK.enemies[e].province is None
                       for e in (*enc.bag, *enc.named_enemies, *enc.required_enemies)), card_id


# ------------------------------------------------------------ the enemy bags --
def test_the_saltmire_chips_have_two_sides_tagged_sm():
    for chip in SM_CHIPS:
        sides = sorted((e for e in PACK.enemies.values() if e.chip == chip), key=lambda e: e.level)
        assert [e.level for e in sides] in ([1, 5], [10, 20]), chip
        assert all(e.province == "SM" for e in sides), chip
    tagged = {e.chip for e in PACK.enemies.values() if e.province and not e.quest_unit}
    assert set(SM_CHIPS) <= tagged  # the delves' and the dungeon's Saltmire chips are tagged too
    for chip in tagged:
        sides = [e for e in PACK.enemies.values() if e.chip == chip]
        assert len(sides) == 2 and len({e.province for e in sides}) == 1, chip  # both sides of one code (SM, IP)


def test_a_session_in_the_saltmire_fills_its_bags_with_general_and_saltmire_chips():
    from day_helpers import examples_party

    s, ev = run(examples_party(), "day.start", RYAN, {"province": "saltmire"})
    assert "Enemy bags for SM: 18 chips in the level 1/5 bag, 14 in the level 10/20 bag" in said(ev)


def test_a_chip_of_another_province_stays_out_of_the_saltmire_bags(monkeypatch):
    pack = load_pack("starter")
    for eid in ("wolf", "dire-wolf"):  # as if the wolves belonged to another province
        monkeypatch.setitem(pack.enemies, eid, dataclasses.replace(pack.enemies[eid], province="BM"))
    from engine.core import Dice

    seen: set[str] = set()
    for face in range(1, 9):
        seen |= set(pool.draw(pack, [1, 1, 1, 1, 5, 10], Dice(0, 0, [face] * 6), province="SM"))
    assert "wolf" not in seen and "dire-wolf" not in seen
    assert seen & {"mudcrab", "salt-wretch", "argonian-bandit", "slaughterfish"}
    assert all(pack.enemies[e].province in (None, "SM") for e in seen)
    outside = set()
    for face in range(1, 10):  # a battle outside a session draws only chips without a province code
        outside |= set(pool.draw(pack, [1], Dice(0, 0, [face])))
    assert outside and all(pack.enemies[e].province is None for e in outside)


def test_crab_season_deploys_a_mudcrab_and_only_general_or_saltmire_enemies():
    s, _ = at_card("sm-c05")
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    foes = enemies(s)
    assert "mudcrab" in [u.enemy for u in foes]
    assert all(PACK.enemies[u.enemy].province in (None, "SM") for u in foes)
    assert s.battle.encounter == "sm-crab-flats"


# ------------------------------------------------------------- the battles --
def test_smoke_over_hesk_is_won_by_defeating_the_captain_at_the_end_of_the_jetty():
    s, _ = at_card("sm-c07")
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "Smuggler Captain (level 5) in hex A (5,2), free of the pool" in said(ev)
    captain = next(u for u in enemies(s) if u.enemy == "smuggler-captain")
    assert (captain.q, captain.r) == (5, 2) and len(enemies(s)) == 5  # the captain and 4 from the pool of 4
    captain.hp, captain.defeated, captain.fell_at, captain.q, captain.r = 0, True, [5, 2], None, None
    while s.battle is not None:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
    assert s.last_battle.outcome == "victory"  # the others still stand: the objective is the captain
    if s.days.ask is not None and s.days.ask.kind == "chosen":
        s, ev = run(s, "day.pick", RYAN, {"pick": "Shannon"})
    assert s.days.encounter.result == "success" and "hesk" not in s.days.closed


def test_smoke_over_hesk_lost_or_left_alone_closes_hesk():
    s, _ = at_card("sm-c07")
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    s, ev = lose_by_retreat(s)
    assert "Smoke over Hesk: Defend Hesk: Hesk is closed; the party cannot enter it." in said(ev)
    assert s.days.encounter.result == "failed" and s.days.closed == ["hesk"]
    s, _ = at_card("sm-c07")
    s, ev = run(s, "day.choose", RYAN, {"choice": 3})  # Stay out of it
    assert s.days.closed == ["hesk"]
    s = finish_day(s)
    assert "Hesk is closed" in refused(s, "day.route", RYAN, {"to": [6, 3]})


def test_cut_off_by_the_tide_the_party_escapes_over_the_causeway_and_the_tide_rises_each_round():
    s, _ = at_card("sm-c06")
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    text = said(ev)
    assert "1 level 1 enemy per adventurer" in text
    bag = set(PACK.encounters["sm-rising-tide"].bag)
    assert len(enemies(s)) == 2 and all(u.enemy in bag for u in enemies(s))
    b = s.battle
    first, second = b.order
    # Shannon (second) is on an escape hex when her turn starts; Ryan gets there for round 2
    for owner, h in ((first, (5, 2)), (second, (5, 3))):
        u = b.units[f"a:{owner}"]
        u.q, u.r = h
    s, ev = run(s, "battle.endturn", first, forced=[1] * 40)
    assert s.battle.turn.owner == second
    light = s.adventurers[second].cooldown.count({"fatigue": "light"})
    s, ev = run(s, "battle.escape", second, forced=[1] * 40)
    text = said(ev)
    assert "Round 2 begins" in text
    assert f"Cut Off by the Tide: {s.adventurers[first].name} gains 1 light fatigue" in text  # the tide rises
    assert s.adventurers[second].cooldown.count({"fatigue": "light"}) == light  # escaped: not on the map
    s, ev = run(s, "battle.escape", first, forced=[1] * 40)
    while s.battle is not None:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
    assert s.last_battle.outcome == "victory"
    assert s.days.encounter.result == "success" and s.days.extra_move == 1


@pytest.mark.parametrize("card,choice,check", [
    ("sm-c06", 1, "over"),  # Cut Off by the Tide: 1 overfatigue each
    ("ge-c07", 1, "over"),  # The Felled Oak: 1 overfatigue each
    ("ge-c08", 1, "tenacity"),  # The Oathsworn Legionary: 2 tenacity lost each
    ("sm-c08", 1, "fear"),  # The Chapel Under the Tide: fear each
])
def test_a_lost_card_battle_does_what_its_text_says_about_losing(card, choice, check):
    def ready(state):
        for a in state.adventurers.values():
            a.tenacity = 3
    s, _ = at_card(card, setup=ready)
    s, _ = run(s, "day.choose", RYAN, {"choice": choice})
    before = {o: (a.cooldown.count({"fatigue": "over"}), a.tenacity) for o, a in s.adventurers.items()}
    s, ev = lose_by_retreat(s)
    assert s.days.encounter.result == "failed" and "no rewards" in said(ev)
    for o, a in s.adventurers.items():
        if check == "over":
            assert a.cooldown.count({"fatigue": "over"}) == before[o][0] + 1, o
        elif check == "tenacity":
            assert a.tenacity == max(0, before[o][1] - 2), o
        else:
            assert {"status": "fear"} in a.cooldown, o


def test_the_restless_graveyard_blesses_each_adventurer_with_bonus_hp():
    s, _ = at_card("ge-c09")
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "The Restless Graveyard: Ryan gains 1 bonus HP" in said(ev)
    assert all(a.bonus_hp == 1 for a in s.adventurers.values())
    assert "skeleton" in [u.enemy for u in enemies(s)]


def test_the_oathsworn_legionary_stands_in_the_last_numbered_hex_and_is_the_objective():
    s, _ = at_card("ge-c08")
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    legionary = next(u for u in enemies(s) if u.enemy == "imperial-marauder")
    assert legionary.slot == 6 and s.battle.objective == "eliminate"
    assert s.battle.objective_units == ["imperial-marauder"]


def three():
    s = party()
    s, _ = battle_run(s, "campaign.join", "T")
    s, _ = battle_run(s, "adventurer.create", "T", {"name": "Tova", "race": "nord", "line": "one-hand-and-shield"})
    return s


@pytest.mark.parametrize("enc,extra_hp,hidden", [
    ("ge-burning-farm", 1, False), ("ge-mine-mouth", 2, False), ("sm-crab-flats", 1, False),
    ("ge-felled-oak", 0, True), ("sm-hesk-raid", 0, True),
])
def test_the_challenge_modifiers_with_three_adventurers(enc, extra_hp, hidden):
    s, ev = battle_run(three(), "battle.start", "S", {"encounter": enc, "ep": 3})
    assert "3/4-adventurer challenge (in play)" in texts(ev) and "The bot applies it" in texts(ev)
    for u in [x for x in s.battle.units.values() if x.side == "enemy"]:
        assert u.max_hp == PACK.enemies[u.enemy].health + extra_hp, (enc, u.enemy)
        assert ("stealth" in u.statuses) == (hidden or "lurk" in [k.id for k in PACK.enemies[u.enemy].skills])
    s, ev = battle_run(party(), "battle.start", "S", {"encounter": enc, "ep": 2})
    assert "challenge (not in play with 2 adventurers)" in texts(ev)
    assert all(u.max_hp == PACK.enemies[u.enemy].health for u in s.battle.units.values() if u.side == "enemy")


@pytest.mark.parametrize("enc", ["sm-drowned-chapel", "ge-graveyard"])
def test_enemies_heal_at_the_start_of_each_round_with_three_adventurers(enc):
    s, _ = battle_run(three(), "battle.start", "S", {"encounter": enc, "ep": 3})
    foe = next(u for u in s.battle.units.values() if u.side == "enemy"
               and not any(k.id == "regenerate" for k in PACK.enemies[u.enemy].skills))
    foe.hp = foe.max_hp - 2
    no = s.battle.round
    while s.battle is not None and s.battle.round == no:
        s, ev = battle_run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
    assert s.battle.units[foe.id].hp == foe.max_hp - 1
    assert f"(3/4-adventurer challenge): {foe.name} heals 1 HP" in texts(ev)


# ------------------------------------------------- the gauge and closed towns --
def test_the_rakers_bell_sets_the_tide_and_its_blank_card_leaves_it_there():
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.overland.travel import allowance

    s, _ = at_card("sm-p06")
    s.days.gauge = "high"
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    s, ev = run(s, "day.pick", RYAN, {"pick": "Shannon"})
    text = said(ev)
    assert "the Tide gauge moves to Low Tide" in text and s.days.gauge == "low"
    assert s.adventurers[SHANNON].cooldown.count({"fatigue": "light"}) == 2
    assert s.adventurers[RYAN].cooldown.count({"fatigue": "light"}) == 0
    ev = []
    s = finish_day(s, ev)
    assert "The Rakers' Bell shows no icon. The tide holds: nothing changes." in said(ev)
    assert s.days.gauge == "low" and allowance(DayCtx(s, PACK, None))[0] == 3


def test_the_rakers_bell_at_an_unstable_landmark_floods_the_marsh():
    def tenacious(state):
        for a in state.adventurers.values():
            a.tenacity = 2
    s, text = at_card("sm-p06", landmark="unstable", setup=tenacious)
    assert "Only one way is open: **Run for the dunes**" in text
    assert s.days.gauge == "flood" and "shows no icon" not in text
    s, ev = run(s, "reward.done", s.days.ask.owners[0]) if s.days.ask.kind == "reward" else (s, [])
    s = finish_day(s)
    assert s.days.gauge == "flood"  # The Rakers' Bell shows no icon: the tide holds
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.overland.travel import allowance

    assert allowance(DayCtx(s, PACK, None))[0] == 1  # Spring Flood: base movement 1
    # 2 tenacity, 1 lost to the card, 2 gained at the unstable landmark
    assert all(a.tenacity == 3 for a in s.adventurers.values())


def test_the_fever_flag_closes_reedwick_and_the_grounded_barge_opens_it_again():
    s, text = at_card("sm-p05")  # nobody is trained in Speech: the party keeps its distance
    assert "Only one way is open: **Keep your distance**" in text
    assert "Reedwick is closed; the party cannot enter it." in text and s.days.closed == ["reedwick"]
    assert s.days.extra_move == 1
    s = finish_day(s)
    assert "Reedwick is closed" in refused(s, "day.route", RYAN, {"to": [3, 2]})
    s, _ = at_card("sm-p08")
    s.days.closed = ["reedwick"]
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "Reedwick is open again." in said(ev) and s.days.closed == []


# ------------------------------------------------------------ social checks --
def test_a_failed_bonus_check_still_resolves_the_choice_without_the_bonus():
    s, _ = at_card("ge-p08", setup=speech)  # Argue with her theories: social check (4), 2 bonus XP each
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    assert "difficulty 4" in said(ev)
    s, ev = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[6, 6])  # two blanks
    assert "Shannon rolls" in said(ev) and s.days.ask.kind != "check-tenacity"  # nobody has tenacity to spend
    assert s.days.encounter.check.result == "failure" and s.days.encounter.result == "success"
    assert all(a.saved_xp == 1 for a in s.adventurers.values())  # the choice's 1 XP, no bonus


@pytest.mark.parametrize("card,choice", [("ge-p10", 2), ("ge-c07", 2), ("sm-p07", 2)])
def test_a_failed_gate_check_closes_its_choice_and_the_party_chooses_again(card, choice):
    s, _ = at_card(card, setup=speech)
    s, _ = run(s, "day.choose", RYAN, {"choice": choice})
    s, ev = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[6, 6])  # two blanks, no tenacity
    text = said(ev)
    assert "cannot be chosen after the failed check: the party chooses again" in text
    other = PACK.overland_cards[card].choices[0]  # the one choice left is taken
    assert f"Only one way is open: **{other.title}**" in text and s.days.encounter.choice == other.number
    assert s.days.encounter.tried == [choice]


# ------------------------------------------------------------- requirements --
def test_choices_the_party_does_not_meet_cannot_be_chosen():
    s, text = at_card("ge-p09")  # nobody carries a weapon: the tents are searched
    assert "not open: needs an adventurer carrying a weapon item" in text
    assert "Only one way is open: **Search the tents**" in text
    s, text = at_card("sm-p05")  # nobody is trained in Speech
    assert "not open: needs an adventurer trained in Speech" in text
    s, text = at_card("sm-c07")  # the party has no tenacity
    assert "needs 3 tenacity in the party (it has 0)" in refused(s, "day.choose", RYAN, {"choice": 2})


# ---------------------------------------------------------- unstable landmarks --
def test_the_ferry_at_an_unstable_landmark_makes_each_swim_unless_it_would_defeat_them():
    def low(state):
        state.adventurers[RYAN].hp = 1
    s, text = arrive("ge-p06", landmark="unstable", prepare=low)
    assert "Only one way is open: **Take the ferry yourselves**" in text
    assert "Ryan: Work the pole: gain 2 light fatigue" in text and "Shannon: Swim beside the raft" in text
    assert s.adventurers[RYAN].hp == 1 and s.adventurers[RYAN].cooldown.count({"fatigue": "light"}) == 2
    assert s.adventurers[SHANNON].hp == 4 and s.days.extra_move == 2


def test_the_empty_camp_at_an_unstable_landmark_springs_its_snares():
    s, text = at_card("ge-p09", landmark="unstable")
    assert "Only one way is open: **Search the tents**" in text
    s, ev = run(s, "day.pick", RYAN, {"pick": "Ryan"})
    assert all({"status": "maim"} in a.cooldown for a in s.adventurers.values())
    held = s.adventurers[RYAN].ready + s.adventurers[RYAN].pack
    assert len(held) == 1 and PACK.items[held[0]].rarity == "legendary"
