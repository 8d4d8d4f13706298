"""Class innates, enduring abilities and race abilities at the moment their card names (issue 9, items 1-4)."""
from __future__ import annotations

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from engine.core import RuleError
from rulesets.tes.battle import harm, track


def _classed(klass, *, side="novice", form=None, tenacity=0, who="S", hexes=None, forced=(2, 1)):
    s = party()
    adv = s.adventurers[who]
    adv.class_id, adv.class_side, adv.tenacity = klass, side, tenacity
    if form:
        adv.battle_form = form
    s, ev = jailbreak(s, hexes or {"S": "-2,2", "R": "-2,1"}, forced=forced)
    return s, ev


# ------------------------------------------------------------- item 1 --
def test_exploration_example_sorcerer_gains_tenacity_at_start_of_turn_in_magic_form():
    """p.79: Ryan, in magic form, starts his turn and his Sorcerer innate brings him to 5 tenacity."""
    s = party()
    ryan = s.adventurers["R"]
    ryan.class_id, ryan.tenacity, ryan.battle_form = "sorcerer", 4, "magic"
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    assert s.battle.turn.owner == "S" and ryan.tenacity == 4  # not his turn yet
    s, ev = run(s, "battle.endturn", "S")
    assert s.battle.turn.owner == "R"
    assert s.adventurers["R"].tenacity == 5
    assert "Ryan's innate Crackling Focus" in texts(ev) and "gains 1 tenacity (5/5)" in texts(ev)


def test_sorcerer_out_of_magic_form_gains_nothing_and_master_gains_two():
    s, ev = _classed("sorcerer", form="light", tenacity=1)
    assert s.adventurers["S"].tenacity == 1 and "Crackling Focus" not in texts(ev)
    s, ev = _classed("sorcerer", side="master", form="magic", tenacity=1)
    assert s.adventurers["S"].tenacity == 3


def test_acrobat_light_feet_gives_a_free_move_at_start_of_turn_both_sides():
    s, _ = _classed("acrobat")
    assert s.battle.turn.free_move == 1
    s, _ = run(s, "battle.move", "S", {"to": "-1,2", "free": True})
    assert (s.battle.units["a:S"].q, s.battle.units["a:S"].r) == (-1, 2)
    s, _ = _classed("acrobat", side="master")
    assert s.battle.turn.free_move == 2


def test_acrobat_poise_enduring_reduces_the_first_damage_each_round_at_5_tenacity():
    s, _ = _classed("acrobat", tenacity=5)
    adv = s.adventurers["S"]
    adv.active, adv.hp = [], 5
    c = ctx(s)
    taken = harm.damage_adventurer(c, "S", 3, label="Hit")
    assert taken == 2 and adv.hp == 3 and "Poise (enduring) reduces it by 1" in texts(c.events)
    harm.damage_adventurer(c, "S", 1, label="Hit")  # not the first damage this round
    assert adv.hp == 2
    c.b.round += 1
    harm.damage_adventurer(c, "S", 1, label="Hit")  # a new round: reduced to 0
    assert adv.hp == 2
    # below 3 tenacity, no reduction
    s, _ = _classed("acrobat", tenacity=2)
    adv = s.adventurers["S"]
    adv.active, adv.hp = [], 5
    c = ctx(s)
    harm.damage_adventurer(c, "S", 3, label="Hit")
    assert adv.hp == 2


def test_enduring_ability_cannot_be_spent():
    s, _ = _classed("acrobat", tenacity=5)
    with pytest.raises(RuleError, match="enduring"):
        run(s, "battle.ability", "S", {"name": "poise"})


def test_scout_keen_eye_moves_on_the_first_turn_and_master_gains_tenacity():
    s, ev = _classed("scout")
    assert s.battle.turn.free_move == 1 and "Keen Eye" in texts(ev)
    s, _ = _classed("scout", side="master")
    assert s.battle.turn.free_move == 2 and s.adventurers["S"].tenacity == 1


def test_warden_frost_cloak_bonus_hp_at_start_of_battle():
    s, _ = _classed("warden")
    assert s.adventurers["S"].bonus_hp == 1 and s.adventurers["R"].bonus_hp == 0
    s, _ = _classed("warden", side="master")  # Ryan stands next to Shannon
    assert s.adventurers["S"].bonus_hp == 1 and s.adventurers["R"].bonus_hp == 1


def test_bard_innate_gives_allies_in_range_tenacity():
    s, _ = _classed("bard")
    assert s.adventurers["S"].tenacity == 1 and s.adventurers["R"].tenacity == 1
    s, _ = _classed("bard", side="master")
    assert s.adventurers["R"].tenacity == 1 and s.adventurers["R"].bonus_hp == 1


def test_pilgrim_road_worn_discards_light_fatigue_at_start_of_turn():
    def light_after_first_turn(klass):
        s = party()
        adv = s.adventurers["S"]
        adv.class_id = klass
        c = ctx(s)
        track.gain_fatigue(adv, "light", 4, c.track_size, party=s.adventurers.values(), supply=c.pack.supply)
        s, ev = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
        return track.count(s.adventurers["S"], fatigue="light"), texts(ev)

    plain, _ = light_after_first_turn(None)
    pilgrim, words = light_after_first_turn("pilgrim")
    assert pilgrim == plain - 1 and "Road-Worn" in words


def test_healer_innate_heals_the_lowest_ally_in_range_at_end_of_turn():
    s, _ = _classed("healer")
    s.adventurers["R"].hp = 1
    s, ev = run(s, "battle.endturn", "S")
    assert s.adventurers["R"].hp == 2 and "Ryan heals 1 HP" in texts(ev)


def test_nightblade_siphon_heals_when_it_defeats_an_enemy():
    s, _ = _classed("nightblade")
    s.adventurers["S"].hp = 2
    c = ctx(s)
    harm.damage_enemy(c, "e1", 20, true=True, by="S", label="Blow")
    assert s.adventurers["S"].hp == 3 and "Siphon" in texts(c.events)


def test_necromancer_and_templar_innates_when_they_defeat_an_enemy():
    s, _ = _classed("necromancer")
    c = ctx(s)
    harm.damage_enemy(c, "e1", 20, true=True, by="S")  # it fell 4 hexes away: out of reach
    assert s.adventurers["S"].bonus_hp == 0
    s, _ = _classed("necromancer")
    s.battle.units["e1"].q, s.battle.units["e1"].r = 0, 2
    c = ctx(s)
    harm.damage_enemy(c, "e1", 20, true=True, by="R")  # defeated within 2 hexes, by an ally
    assert s.adventurers["S"].bonus_hp == 1 and "Grave Harvest" in texts(c.events)
    s, _ = _classed("templar")
    s.adventurers["R"].hp = 1
    c = ctx(s)
    harm.damage_enemy(c, "e1", 20, true=True, by="S")
    assert s.adventurers["R"].hp == 2


def test_knight_innate_gains_tenacity_when_an_enemy_engages_it():
    s, _ = _classed("knight")
    c = ctx(s)
    from rulesets.tes.battle_state import EnemyTurn, Hit
    from rulesets.tes.battle import enemy

    enemy.hit(c, EnemyTurn(uid="e1"), Hit(target="a:S", amount=1))
    assert s.adventurers["S"].tenacity == 1


def test_dragonknight_innate_needs_an_adjacent_enemy():
    s, ev = _classed("dragonknight")
    assert s.adventurers["S"].tenacity == 0
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})  # next to the High Elf Bandit
    s, _ = run(s, "battle.endturn", "S")
    s.adventurers["S"].tenacity = 0
    c = ctx(s)
    from rulesets.tes.battle import abilities

    assert abilities.innate(c, "S", "start of your turn") and s.adventurers["S"].tenacity == 1


def test_archer_innate_offers_a_blank_reroll_after_a_ranged_engage():
    s, _ = _classed("archer", form="ranged")
    c = ctx(s)
    from rulesets.tes.battle import abilities
    from rulesets.tes.battle_state import PendingRoll

    c.b.pending = PendingRoll(owner="S", form="ranged", dice=[])
    assert abilities.innate(c, "S", "after you engage")
    assert c.b.pending.rerolls and c.b.pending.rerolls[0]["blank_only"]


def test_spellsworn_spellblade_hits_the_target_after_a_light_engage_once_magicka_was_rolled():
    """Spellblade: after an engage in light or heavy form, 1 damage (master: 2) to the target, if the
    adventurer rolled at least one Magicka die this turn."""
    s, _ = _classed("spellsworn", form="light")
    s.adventurers["S"].hp = 5
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})  # next to the High Elf Bandit (3 HP)
    s, ev = run(s, "battle.engage", "S", {"target": "HEB1", "dice": [["combat", 1]]}, forced=[6])
    s, ev = run(s, "battle.resolve", "S", {})
    assert "Spellblade" not in texts(ev)  # no Magicka die rolled this turn yet
    s, _ = _classed("spellsworn", form="light")
    c = ctx(s)
    c.b.turn.more["rolled_magicka"] = ["S"]
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s.battle.turn.more["rolled_magicka"] = ["S"]
    hp = s.battle.units["e1"].hp
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": [["combat", 1]]}, forced=[2])
    s, ev = run(s, "battle.resolve", "S", {})
    words = texts(ev)
    assert "Shannon's innate Spellblade (after your engage is resolved)" in words
    assert s.battle.units["e1"].hp == hp - 2  # 1 from the Combat die, 1 from Spellblade
    s, _ = _classed("spellsworn", side="master", form="heavy")
    s.battle.turn.more["rolled_magicka"] = ["S"]
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, ev = run(s, "battle.engage", "S", {"target": "HEB1", "dice": [["combat", 1]]}, forced=[5])
    s, ev = run(s, "battle.resolve", "S", {})
    # tenacity rolled, then 2 from Spellblade, part of the same engage: the Bandit's Dodge counts the idle die
    assert "Spellblade: High Elf Bandit is dealt 2 damage (Dodge prevents 1)" in texts(ev)
    assert s.battle.units["e1"].hp == 2


def test_spellblade_counts_a_magicka_die_rolled_earlier_in_the_turn():
    s = party()
    ryan = s.adventurers["R"]  # Dark Elf, Destruction Staff: Magicka dice
    ryan.class_id, ryan.battle_form = "spellsworn", "magic"
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.endturn", "S")
    assert s.battle.turn.owner == "R"
    s, _ = run(s, "battle.engage", "R", {"dice": [["force-shock", 1]]}, forced=[6])  # a blank, no target
    s, _ = run(s, "battle.resolve", "R", {})
    assert s.battle.turn.more["rolled_magicka"] == ["R"]


# ------------------------------------------------------------- item 2 --
def test_damaging_ability_needs_a_target_in_range_and_deals_its_damage():
    s, _ = _classed("nightblade", tenacity=5)
    with pytest.raises(RuleError, match="needs a target"):
        run(s, "battle.ability", "S", {"name": "assassinate"})
    with pytest.raises(RuleError, match="reaches adjacent units"):
        run(s, "battle.ability", "S", {"name": "assassinate", "target": "HEB1"})
    assert s.adventurers["S"].tenacity == 5  # a refusal spends nothing
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    hp = s.battle.units["e1"].hp
    s, ev = run(s, "battle.ability", "S", {"name": "assassinate", "target": "HEB1"})
    assert s.adventurers["S"].tenacity == 2
    assert s.battle.units["e1"].hp < hp and "is dealt 3 damage" in texts(ev)


def test_ranged_ability_checks_sight_and_the_cards_reach():
    s, _ = _classed("warden", tenacity=5)
    s.battle.units["e1"].q, s.battle.units["e1"].r = 0, 1  # 2 hexes from Shannon at -2,2
    s, ev = run(s, "battle.ability", "S", {"name": "bear-swipe", "target": "0,1"})
    assert "is dealt 2 damage" in texts(ev)


def test_lightning_lash_reaches_the_target_and_its_neighbours():
    s, _ = _classed("sorcerer", form="magic", tenacity=5)
    with pytest.raises(RuleError, match="Magic form reaches 2 hexes"):
        run(s, "battle.ability", "S", {"name": "lightning-lash", "target": "HEB1"})
    s.battle.units["e1"].q, s.battle.units["e1"].r = 0, 1
    s, ev = run(s, "battle.ability", "S", {"name": "lightning-lash", "target": "HEB1"})
    assert "High Elf Bandit is dealt 2 damage" in texts(ev)


def test_piercing_ability_ignores_defense():
    s, _ = _classed("templar", tenacity=5)
    s.battle.units["e1"].q, s.battle.units["e1"].r = 0, 2
    hp = s.battle.units["e1"].hp
    s, ev = run(s, "battle.ability", "S", {"name": "piercing-javelin", "target": "HEB1"})
    c = ctx(s)
    defense = __import__("rulesets.tes.battle.model", fromlist=["stats_of"]).stats_of(c, s.battle.units["e1"]).defense
    assert hp - s.battle.units["e1"].hp == min(2, 2 - max(0, defense - 1))


def test_healing_ability_heals_the_chosen_ally_in_range():
    s, _ = _classed("healer", tenacity=5)
    s.adventurers["R"].hp, s.adventurers["S"].hp = 1, 2
    s, ev = run(s, "battle.ability", "S", {"name": "mend-wounds", "target": "Ryan"})
    assert s.adventurers["R"].hp == 4 and s.adventurers["S"].hp == 2
    s, _ = _classed("pilgrim", tenacity=5)
    s.adventurers["R"].hp = 1
    s, _ = run(s, "battle.ability", "S", {"name": "blessing", "target": "Ryan"})
    assert s.adventurers["R"].hp == 3 and s.adventurers["R"].tenacity == 1
    s, _ = _classed("healer", tenacity=5, hexes={"S": "-2,2", "R": "-2,1"})
    s.battle.units["a:R"].q, s.battle.units["a:R"].r = 2, -2
    with pytest.raises(RuleError, match="out of range"):
        run(s, "battle.ability", "S", {"name": "mend-wounds", "target": "Ryan"})
    with pytest.raises(RuleError, match="not an adventurer"):
        run(s, "battle.ability", "S", {"name": "mend-wounds", "target": "HEB1"})


def test_status_ability_lands_on_the_target():
    s, _ = _classed("bard", tenacity=5)
    s.battle.units["e1"].q, s.battle.units["e1"].r = 0, 2
    s, ev = run(s, "battle.ability", "S", {"name": "dirge", "target": "HEB1"})
    c = ctx(s)
    assert c.has(s.battle.units["e1"], "fear")


# ------------------------------------------------------------- item 3 --
def _raced(race, who="S", **kw):
    s = party()
    s.adventurers[who].race = race
    for k, v in kw.items():
        setattr(s.adventurers[who], k, v)
    return s


def test_nord_grit_prevents_2_when_hit_once_per_battle_on_any_turn():
    s = _raced("nord")
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    adv = s.adventurers["S"]
    adv.active, adv.hp = [], 5
    with pytest.raises(RuleError, match="works by itself"):
        run(s, "battle.ability", "S", {"name": "race"})
    c = ctx(s)
    harm.damage_adventurer(c, "S", 3, true=False, label="Bane on its own turn")
    assert adv.hp == 4 and adv.race_ability_used and "Frost-Born Grit prevents 2" in texts(c.events)
    from rulesets.tes.battle import enemy
    from rulesets.tes.battle_state import EnemyTurn, Hit

    enemy.hit(c, EnemyTurn(uid="e1"), Hit(target="a:S", amount=2))  # once per battle: no more
    assert adv.hp == 2


def test_nord_grit_when_an_enemy_hits():
    s = _raced("nord")
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    adv = s.adventurers["S"]
    adv.active, adv.hp = [], 5
    c = ctx(s)
    from rulesets.tes.battle import enemy
    from rulesets.tes.battle_state import EnemyTurn, Hit

    enemy.hit(c, EnemyTurn(uid="e1"), Hit(target="a:S", amount=3))
    assert adv.hp == 4 and adv.race_ability_used


def test_high_elf_rerolls_while_its_roll_waits():
    s = _raced("high-elf")
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    with pytest.raises(RuleError, match="while the roll waits"):
        run(s, "battle.ability", "S", {"name": "race"})
    assert not s.adventurers["S"].race_ability_used
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[6])
    s, ev = run(s, "battle.ability", "S", {"name": "race"})
    assert s.adventurers["S"].race_ability_used and s.adventurers["S"].tenacity == 1
    assert s.battle.pending.rerolls[0]["left"] == 2
    s, ev = run(s, "battle.reroll", "S", {"dice": [1]}, forced=[1])
    assert "🎲1" in texts(ev) or "1" in texts(ev)


def test_wood_elf_free_move_goes_through_units():
    s = _raced("wood-elf")
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.battle.units["e1"].q, s.battle.units["e1"].r = -1, 2
    with pytest.raises(RuleError):
        run(s, "battle.move", "S", {"path": "-1,2 0,2"})  # a normal move cannot pass the bandit
    s, _ = run(s, "battle.ability", "S", {"name": "race"})
    s, _ = run(s, "battle.move", "S", {"path": "-1,2 0,2", "free": True})
    u = s.battle.units["a:S"]
    assert (u.q, u.r) == (0, 2) and s.battle.turn.free_move == 0


def test_springboard_moves_through_units():
    s, _ = _classed("acrobat", tenacity=5)
    s.battle.units["e1"].q, s.battle.units["e1"].r = -1, 2
    s.battle.turn.free_move = 0
    s, _ = run(s, "battle.ability", "S", {"name": "springboard"})
    s, _ = run(s, "battle.move", "S", {"path": "-1,2 0,2", "free": True})
    assert (s.battle.units["a:S"].q, s.battle.units["a:S"].r) == (0, 2)


def test_breton_ward_is_automatic_at_start_of_battle_only():
    s = _raced("breton")
    s, ev = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    adv = s.adventurers["S"]
    assert adv.bonus_hp == 3 and adv.race_ability_used and "Spell Ward" in texts(ev)
    with pytest.raises(RuleError, match="once per battle|start of battle"):
        run(s, "battle.ability", "S", {"name": "race"})
    adv.race_ability_used = False
    with pytest.raises(RuleError, match="start of battle"):
        run(s, "battle.ability", "S", {"name": "race"})


def test_other_race_abilities_at_their_timing():
    s = _raced("argonian", hp=2)  # Scaled Recovery, start of your turn
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.ability", "S", {"name": "race"})
    assert s.adventurers["S"].hp == 4
    s = _raced("khajiit")
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.move", "S", {"to": "-1,2"})
    with pytest.raises(RuleError, match="start of your turn"):
        run(s, "battle.ability", "S", {"name": "race"})
    s = _raced("dark-elf")
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.endturn", "S")
    with pytest.raises(RuleError, match="own turn"):
        run(s, "battle.ability", "S", {"name": "race"})


# ------------------------------------------------------------- item 4 --
def test_quick_shot_engage_charges_no_extra_engage_fatigue_and_adds_a_free_die():
    s, _ = _classed("scout", form="ranged", tenacity=3)
    adv = s.adventurers["S"]
    adv.dice["d9"] = {"type": "combat", "line": "combat", "level": 1}
    s.battle.units["e1"].q, s.battle.units["e1"].r = 0, 2  # 2 hexes away: in ranged reach
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[5])
    s, _ = run(s, "battle.resolve", "S", {})
    light = track.count(s.adventurers["S"], fatigue="light")
    s, ev = run(s, "battle.ability", "S", {"name": "quick-shot"})
    assert "may engage once now without gaining fatigue" in texts(ev)
    s, ev = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[5, 1])
    assert track.count(s.adventurers["S"], fatigue="light") == light
    assert "no fatigue for this engage" in texts(ev) and "gains 1 light fatigue" not in texts(ev)
    assert len(s.battle.pending.dice) == 2 and s.battle.pending.dice[1]["free"]
    s, _ = run(s, "battle.resolve", "S", {})
    # the grant is spent: a third engage pays the extra-engage fatigue again
    s.adventurers["S"].dice["d10"] = {"type": "combat", "line": "combat", "level": 1}
    s, ev = run(s, "battle.engage", "S", {"dice": "combat"}, forced=[5])
    assert "gains 1 light fatigue" in texts(ev)


def test_engage_with_no_options_asks_what_to_roll_and_spends_nothing():
    """Rules revision 2 refused a bare engage (revision 3 asks first: tests/test_rules_revision_3.py)."""
    s, _ = _classed("scout")
    s.rules = 2
    with pytest.raises(RuleError, match="Say what to roll.*dice:.*item:"):
        run(s, "battle.engage", "S", {})
    with pytest.raises(RuleError, match="Say what to roll"):
        run(s, "battle.engage", "S", {"form": "defensive"})
    assert s.battle.turn.engages == 0 and s.battle.pending is None


def test_gaining_tenacity_and_ability_example():
    """p.89: on Logan's turn an ability lets Bree engage with up to 2 skill dice; she rolls tenacity on her
    Combat die and 2 damage on her other die: the damage is dealt and Bree, not Logan, gains the tenacity."""
    from rulesets.tes.battle.effects import Use, run_effects

    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})  # Shannon plays Bree, Ryan plays Logan
    s.adventurers["S"].battle_form = "light"
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})  # next to the High Elf Bandit
    s, _ = run(s, "battle.endturn", "S")
    assert s.battle.turn.owner == "R"
    bree, logan = s.adventurers["S"], s.adventurers["R"]
    bree.tenacity = logan.tenacity = 0
    c = ctx(s)
    run_effects(Use(c, c.unit("a:R"), "Bound Armaments", ally="a:S"),
                [{"type": "engage", "target": "ally", "dice": 2}])
    s = c.state
    with pytest.raises(RuleError, match="up to 2 skill dice"):
        s.adventurers["S"].dice["d9"] = {"type": "combat", "line": "combat", "level": 1}
        run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat, 2 shield-discipline"})
    del s.adventurers["S"].dice["d9"]
    hp = s.battle.units["e1"].hp
    s, ev = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat, shield-discipline"}, forced=[5, 3])
    assert "tenacity" in texts(ev) and "2 damage" in texts(ev)
    s, ev = run(s, "battle.resolve", "S", {})
    assert s.adventurers["S"].tenacity == 1 and s.adventurers["R"].tenacity == 0
    assert "High Elf Bandit is dealt 2 damage" in texts(ev) and s.battle.units["e1"].hp <= hp
    assert s.battle.turn.owner == "R"  # still Logan's turn
    with pytest.raises(RuleError, match="turn"):
        run(s, "battle.move", "S", {"to": "-1,2"})


def test_knight_master_innate_also_prevents_1_of_the_engage():
    s, _ = _classed("knight", side="master")
    adv = s.adventurers["S"]
    adv.active, adv.hp = [], 5
    c = ctx(s)
    from rulesets.tes.battle import enemy
    from rulesets.tes.battle_state import EnemyTurn, Hit

    enemy.hit(c, EnemyTurn(uid="e1"), Hit(target="a:S", amount=3))
    assert adv.tenacity == 1 and adv.hp == 3 and "Oathbound prevents 1" in texts(c.events)


def test_mark_target_pierces_every_engage_against_it_this_turn():
    s, _ = _classed("scout", side="master", tenacity=5)
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    with pytest.raises(RuleError, match="needs a target"):
        run(s, "battle.ability", "S", {"name": "mark-target"})
    s, ev = run(s, "battle.ability", "S", {"name": "mark-target", "target": "HEB1"})
    assert "ignores 2 of its Defense" in texts(ev)
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[1])
    assert s.battle.pending.engage.pierce == 2


def test_rogue_innate_nimble_fingers_gives_a_free_step_when_a_lockpick_check_starts():
    from rulesets.tes.state import ItemDeck
    from test_battle_lockpick import COMMON

    s = party()
    s.adventurers["S"].class_id = "rogue"
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.item_decks = {"common": ItemDeck(draw=list(COMMON))}
    s, _ = run(s, "battle.move", "S", {"path": "-1,2 -1,3 0,3"})
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    assert "Nimble Fingers" in texts(ev) and "1 die result may still turn 1 step for free" in texts(ev)
    assert s.battle.lockpick.free == 1  # played in full in test_battle_lockpick_cards.py
