"""Reactions during another unit's turn and the class cards that needed them (issue 9, items 1 and 12).

* An interrupt's free move during an enemy's turn is made: the player is asked where (Backflip, Slip Away,
  Fall Back), with a menu of hexes, ``/move`` or ``/battle stay``, and a time-out that keeps them in place.
* Prevention questions come for damage on your own turn too (an enemy's Riposte), never for no damage.
* An ally's guard interrupt (Glacial Shield, Shield Wall) answers damage to an ally: by itself, or asked.
* Challenge, Scaled Armor, Steadfast, Ember Heart, Revive, Form Shift, Dragon Leap, moves through units.
* A campaign begun before these rules (rules revision 1) keeps the old behaviour, so its log replays.
"""
from __future__ import annotations

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from engine.core import RuleError
from engine.prompts import open_prompt
from rulesets.tes.battle import harm, track
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle_state import EnemyTurn, Hit


def _battle(klass=None, *, side="novice", tenacity=0, who="S", ryan=None, ryan_tenacity=0, form=None):
    """A Jailbreak with Shannon (S, -2,2) and Ryan (R, -2,1); the second bandit (e2) is taken off the map."""
    s = party()
    adv = s.adventurers[who]
    adv.class_id, adv.class_side, adv.tenacity = klass, side, tenacity
    if form:
        adv.battle_form = form
    if ryan:
        s.adventurers["R"].class_id, s.adventurers["R"].tenacity = ryan, ryan_tenacity
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    e2 = s.battle.units["e2"]
    e2.q = e2.r = None
    e2.defeated = True
    for a in s.adventurers.values():
        a.active, a.away = [], []
    return s


def _bandit_next_to(s, q=-1, r=2):
    e1 = s.battle.units["e1"]
    e1.q, e1.r = q, r
    return e1


def _to_enemies(s, forced):
    """Both adventurers end their turns; the enemies act with these dice (the bandit goes for the weakest:
    Shannon, at 3 HP)."""
    s.adventurers["S"].hp = 3
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R", forced=forced)
    return s, ev


# ------------------------------------------------------------ free moves during an enemy's turn --
def test_backflip_prevents_then_asks_where_to_move_and_the_enemy_phase_waits():
    s = _battle("acrobat", tenacity=3)
    _bandit_next_to(s)
    s, ev = _to_enemies(s, forced=[5])  # the bandit rolls 2 damage against Shannon
    words = texts(ev)
    adv = s.adventurers["S"]
    # Poise (3 tenacity, enduring) takes the first 1, Backflip the other
    assert "Backflip (1 tenacity, interrupt) prevents 1" in words and adv.tenacity == 2 and adv.hp == 3
    o = s.battle.offers[0]
    assert (o.owner, o.amount, o.source) == ("S", 1, "Backflip")
    assert "Backflip lets Shannon move up to 1 hex for free now" in words
    assert s.battle.enemy_phase is not None  # the enemies wait for Shannon
    prompt = open_prompt(s)
    assert prompt.kind == "move" and prompt.owner == "S" and prompt.default == "stay"
    from rulesets.tes.present.battle import map_view

    shown = map_view(s, ctx(s).pack)["choices"]  # the map numbers the hexes as the menu does
    assert [f"{c['n']}. Move to {c['q']},{c['r']}" for c in shown] == [o.label for o in prompt.options]
    assert [o.label for o in prompt.options] == ["1. Move to -3,3", "2. Move to -2,3", "3. Move to -1,1"]
    with pytest.raises(RuleError, match="waits for Shannon"):
        run(s, "battle.move", "R", {"to": [-2, 0]})
    with pytest.raises(RuleError, match="up to 1"):
        run(s, "battle.move", "S", {"to": [0, 2]})
    s, ev = run(s, "battle.move", "S", {"to": [-3, 3]})
    me = s.battle.units["a:S"]
    assert (me.q, me.r) == (-3, 3) and not s.battle.offers
    assert "makes a free move (Backflip): -2,2 → -3,3" in texts(ev)
    assert s.battle.turn.owner == "S" and s.battle.round == 2  # the enemy phase went on and ended
    assert s.adventurers["S"].tenacity == 2  # the move costs nothing more


def test_backflip_offer_answered_from_the_menu_or_declined():
    s = _battle("acrobat", tenacity=3)
    _bandit_next_to(s)
    s, _ = _to_enemies(s, forced=[5])
    prompt = open_prompt(s)
    first = prompt.options[0]
    s2, ev = run(s, "battle.react", "S", {"pick": [1]})
    me = s2.battle.units["a:S"]
    assert f"Move to {me.q},{me.r}" in first.label
    s3, ev = run(s, "battle.stay", "S")
    assert (s3.battle.units["a:S"].q, s3.battle.units["a:S"].r) == (-2, 2) and "stays in place" in texts(ev)
    with pytest.raises(RuleError, match="No free move is waiting"):
        run(s3, "battle.stay", "S")


def test_an_unanswered_free_move_times_out_and_the_adventurer_stays():
    s = _battle("acrobat", tenacity=3)
    _bandit_next_to(s)
    s, _ = _to_enemies(s, forced=[5])
    key = open_prompt(s).id
    with pytest.raises(RuleError, match="already made"):
        run(s, "battle.offer-timeout", "S", {"ask": "b1.r1.m99"})
    s, ev = run(s, "battle.offer-timeout", "S", {"ask": key})
    assert "stay where they are" in texts(ev) and not s.battle.offers and s.battle.round == 2


def test_slip_away_is_offered_after_the_engage_and_costs_tenacity_only_if_used():
    s = _battle("rogue", tenacity=2)
    _bandit_next_to(s)
    s, ev = _to_enemies(s, forced=[2])  # 1 damage
    assert s.adventurers["S"].hp == 2
    o = s.battle.offers[0]
    assert (o.source, o.ability, o.cost, o.amount) == ("Slip Away", "slip-away", 1, 2)
    assert "Slip Away for 1 tenacity lets Shannon move up to 2 hexes" in texts(ev)
    declined, _ = run(s, "battle.stay", "S")
    assert declined.adventurers["S"].tenacity == 2
    moved, ev = run(s, "battle.move", "S", {"to": [-3, 3]})
    assert moved.adventurers["S"].tenacity == 1 and "spends 1 tenacity on Slip Away" in texts(ev)


def test_fall_back_needs_the_tenacity_and_is_not_offered_without_it():
    s = _battle("archer", tenacity=0, form="ranged")
    _bandit_next_to(s)
    s, _ = _to_enemies(s, forced=[2])
    assert not s.battle.offers and s.battle.round == 2
    s = _battle("archer", tenacity=1, form="ranged")
    _bandit_next_to(s)
    s, _ = _to_enemies(s, forced=[2])
    assert s.battle.offers[0].source == "Fall Back"


def test_interrupts_are_not_used_with_ability():
    s = _battle("acrobat", tenacity=3)
    with pytest.raises(RuleError, match="is an interrupt"):
        run(s, "battle.ability", "S", {"name": "backflip"})


def test_a_campaign_on_the_first_rules_keeps_skipping_the_free_move():
    s = _battle("acrobat", tenacity=3)
    s.rules = 1
    _bandit_next_to(s)
    s, ev = _to_enemies(s, forced=[5])
    assert "the free move cannot be made during an enemy's turn here; it is skipped" in texts(ev)
    assert not s.battle.offers and s.battle.round == 2


# --------------------------------------------------------------------- prevention questions --
def test_riposte_on_your_own_turn_asks_a_player_in_ask_mode():
    s = _battle()
    s.settings["prevention"] = {"S": "ask"}
    e1 = _bandit_next_to(s)
    e1.enemy = "skeleton-warden"  # Reassemble, Riposte 1
    e1.hp = e1.max_hp = 20
    adv = s.adventurers["S"]
    adv.active = [{"die": "d3", "owner": "S", "icon": "damage", "value": 2, "label": "Shield Discipline",
                   "line": "one-hand-and-shield", "prevent": True, "spend": "remove"}]
    adv.away = ["d3"]
    s, _ = run(s, "battle.engage", "S", {"target": "e1", "dice": [["combat", 1]]}, forced=[1])
    s, ev = run(s, "battle.resolve", "S", {})
    words = texts(ev)
    aw = s.battle.asking
    assert aw is not None and aw.owner == "S" and aw.queued and aw.amount == 1
    assert "High Elf Bandit (Riposte 1) deals 1 damage to Shannon. Choose prevention" in words
    with pytest.raises(RuleError, match="prevention question"):
        run(s, "battle.endturn", "S")
    assert open_prompt(s).kind == "prevent"
    s, ev = run(s, "battle.prevent", "S", {"use": []})  # take it
    assert s.adventurers["S"].hp == 4 and s.battle.asking is None and not s.battle.harms
    assert "Riposte 1: Shannon is dealt 1 damage" in texts(ev)
    assert s.battle.turn.owner == "S"  # still Shannon's turn


def test_riposte_in_auto_mode_is_prevented_at_once():
    s = _battle()
    e1 = _bandit_next_to(s)
    e1.enemy = "skeleton-warden"
    e1.hp = e1.max_hp = 20
    s, _ = run(s, "battle.engage", "S", {"target": "e1", "dice": [["combat", 1]]}, forced=[1])
    s, ev = run(s, "battle.resolve", "S", {})
    assert s.battle.asking is None and s.adventurers["S"].hp == 4


def test_no_question_about_no_damage_and_the_knight_still_counts_the_engage():
    s = _battle("knight")
    s.settings["prevention"] = {"S": "ask"}
    s.adventurers["S"].active = [{"die": "d3", "owner": "S", "icon": "damage", "value": 2, "label": "Shield",
                                  "line": "one-hand-and-shield", "prevent": True, "spend": "remove"}]
    _bandit_next_to(s)
    s, ev = _to_enemies(s, forced=[1])  # a blank: 0 damage
    assert s.battle.asking is None and s.battle.round == 2
    assert s.adventurers["S"].tenacity == 1 and "Oathbound" in texts(ev)  # engaged, though for no damage
    old = _battle("knight")
    old.rules = 1
    old.settings["prevention"] = {"S": "ask"}
    old.adventurers["S"].active = list(s.adventurers["S"].active)
    _bandit_next_to(old)
    old, _ = _to_enemies(old, forced=[1])
    assert old.battle.asking is not None and old.battle.asking.amount == 0  # the first rules asked anyway


# ------------------------------------------------------------------------------- guards --
def test_glacial_shield_guards_an_ally_by_itself_only_when_hp_would_be_lost():
    s = _battle(ryan="warden", ryan_tenacity=3)
    c = ctx(s)
    bandit = c.unit("e1")
    s.adventurers["S"].hp = 5
    harm.damage_adventurer(c, "S", 3, source=bandit, label="Bandit")
    words = texts(c.events)
    assert s.adventurers["R"].tenacity == 1 and s.adventurers["S"].hp == 4
    assert "Ryan spends 2 tenacity on Glacial Shield to guard Shannon" in words
    assert "Ryan's Glacial Shield prevents 2 (tenacity 3 → 1)" in words
    s = _battle(ryan="warden", ryan_tenacity=3)
    s.adventurers["S"].bonus_hp = 3
    c = ctx(s)
    harm.damage_adventurer(c, "S", 3, source=c.unit("e1"))
    assert s.adventurers["R"].tenacity == 3  # bonus HP took it: no tenacity spent


def test_a_guard_is_used_once_a_turn_and_never_on_true_damage():
    s = _battle(ryan="warden", ryan_tenacity=5)
    c = ctx(s)
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"))
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"))
    assert s.adventurers["R"].tenacity == 3 and s.adventurers["S"].hp == 3
    harm.damage_adventurer(c, "S", 1, true=True, label="Bane")
    assert s.adventurers["R"].tenacity == 3


def test_shield_wall_reaches_an_adjacent_ally_and_the_master_two_hexes():
    s = _battle(ryan="knight", ryan_tenacity=3)
    c = ctx(s)
    harm.damage_adventurer(c, "S", 3, source=c.unit("e1"))
    assert s.adventurers["S"].hp == 5 and s.adventurers["R"].tenacity == 0  # adjacent: 3 prevented
    s = _battle(ryan="knight", ryan_tenacity=3)
    s.battle.units["a:R"].q, s.battle.units["a:R"].r = -1, 0  # 2 hexes from Shannon
    c = ctx(s)
    harm.damage_adventurer(c, "S", 3, source=c.unit("e1"))
    assert s.adventurers["S"].hp == 2 and s.adventurers["R"].tenacity == 3  # novice: too far
    s.adventurers["R"].class_side = "master"
    s.adventurers["S"].hp = 5
    c = ctx(s)
    harm.damage_adventurer(c, "S", 5, source=c.unit("e1"))
    assert s.adventurers["S"].hp == 4 and s.adventurers["R"].tenacity == 0  # master: within 2, prevents 4


def test_a_guard_owner_in_ask_mode_is_asked_before_the_enemy_hit_lands():
    s = _battle(ryan="warden", ryan_tenacity=3)
    s.settings["prevention"] = {"R": "ask"}
    _bandit_next_to(s)
    s, ev = _to_enemies(s, forced=[5])
    aw = s.battle.asking
    assert (aw.owner, aw.target, aw.guard) == ("R", "S", "R:glacial-shield")
    assert "Guard them with Ryan's Glacial Shield (2 tenacity, interrupt)?" in texts(ev)
    prompt = open_prompt(s)
    assert prompt.owner == "R" and prompt.id.endswith(".gR_glacial-shield")
    used, ev = run(s, "battle.prevent", "R", {"use": [1]})
    assert used.adventurers["S"].hp == 3 and used.adventurers["R"].tenacity == 1
    declined, ev = run(s, "battle.prevent", "R", {"use": []})
    assert declined.adventurers["S"].hp == 1 and declined.adventurers["R"].tenacity == 3
    timed, ev = run(s, "battle.prevent-timeout", "S", {"ask": prompt.id})  # fired in the leader's name
    assert timed.adventurers["R"].tenacity == 1  # the automatic choice: HP would be lost, so it guards


def test_riposte_asks_the_guard_owner_on_the_attackers_own_turn():
    s = _battle(ryan="warden", ryan_tenacity=3)
    s.settings["prevention"] = {"R": "ask"}
    e1 = _bandit_next_to(s)
    e1.enemy = "skeleton-warden"
    e1.hp = e1.max_hp = 20
    s, _ = run(s, "battle.engage", "S", {"target": "e1", "dice": [["combat", 1]]}, forced=[1])
    s, _ = run(s, "battle.resolve", "S", {})
    assert s.battle.asking.owner == "R" and s.battle.asking.queued
    s, ev = run(s, "battle.prevent", "R", {"use": [1]})
    assert s.adventurers["S"].hp == 5 and s.adventurers["R"].tenacity == 1


# -------------------------------------------------------------------------- class cards --
def test_knights_challenge_makes_enemies_target_the_knight_until_the_knights_next_turn():
    s = _battle(ryan="knight", ryan_tenacity=2)
    _bandit_next_to(s)  # next to Shannon (weakest priority would pick her: 5 HP vs Ryan's 4)
    s.adventurers["S"].hp = 2
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.ability", "R", {"name": "challenge"})
    assert s.battle.more["challenges"] == {"e1": "a:R"}
    s, ev = run(s, "battle.endturn", "R", forced=[2])
    words = texts(ev)
    assert "High Elf Bandit is challenged by Ryan and must target them" in words
    assert "High Elf Bandit engages Ryan" in words
    assert s.battle.more["challenges"] == {"e1": "a:R"}  # until Ryan's next turn
    s, _ = run(s, "battle.endturn", "S")
    assert s.battle.turn.owner == "R" and not s.battle.more["challenges"]


def test_scaled_armor_gives_one_defense_while_tenacity_is_three():
    s = _battle("dragonknight", tenacity=3)
    c = ctx(s)
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"))
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"))
    assert s.adventurers["S"].hp == 3 and "Scaled Armor (enduring, 1 defense) prevents 1" in texts(c.events)
    s.adventurers["S"].tenacity = 2
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"))
    assert s.adventurers["S"].hp == 1
    s.adventurers["S"].tenacity, s.adventurers["S"].hp = 3, 5
    harm.damage_adventurer(c, "S", 2, true=True)
    assert s.adventurers["S"].hp == 3  # true damage ignores it


def test_steadfast_keeps_daze_and_fear_away_while_tenacity_is_three():
    s = _battle("pilgrim", tenacity=3)
    c = ctx(s)
    me = c.unit("a:S")
    assert not status_rules.give(c, me, "daze", "Stagger")
    assert not status_rules.give(c, me, "fear", "Terrify")
    assert "cannot gain daze (Steadfast)" in texts(c.events)
    assert status_rules.give(c, me, "bane", "Venomous")
    s.adventurers["S"].tenacity = 2
    assert status_rules.give(c, me, "daze", "Stagger") and track.count(s.adventurers["S"], status="daze") == 1


def test_ember_heart_counts_adjacent_enemies():
    from rulesets.tes.battle import abilities

    s = _battle("dragonknight")
    c = ctx(s)
    assert not abilities.innate(c, "S", "start of your turn")  # no enemy next to Shannon
    _bandit_next_to(s)
    assert abilities.innate(c, "S", "start of your turn") and s.adventurers["S"].tenacity == 1
    s = _battle("dragonknight", side="master")
    _bandit_next_to(s)
    e2 = s.battle.units["e2"]
    e2.defeated, e2.q, e2.r = False, -2, 3
    c = ctx(s)
    abilities.innate(c, "S", "start of your turn")
    assert s.adventurers["S"].tenacity == 2 and "gains 2 tenacity" in texts(c.events)


def test_revive_names_a_defeated_ally_and_puts_them_next_to_the_healer():
    s = _battle("healer", tenacity=5)
    with pytest.raises(RuleError, match="no ally of Shannon is defeated"):
        run(s, "battle.ability", "S", {"name": "revive"})
    harm.defeat_adventurer(ctx(s), "R")
    with pytest.raises(RuleError, match="not a defeated ally"):
        run(s, "battle.ability", "S", {"name": "revive", "target": "HEB1"})
    s, ev = run(s, "battle.ability", "S", {"name": "revive"})  # the only one: no name needed
    ryan = s.battle.units["a:R"]
    assert not ryan.defeated and s.adventurers["R"].hp == 3 and "Ryan is revived with 3 HP" in texts(ev)
    s, _ = run(s, "battle.endturn", "S")
    assert s.battle.turn.owner == "R"  # back in the turn order


def test_form_shift_while_the_roll_waits_changes_form_free_and_rerolls_a_die():
    s = _battle("spellsworn", tenacity=1)
    _bandit_next_to(s)
    s, _ = run(s, "battle.engage", "S", {"target": "e1", "dice": [["combat", 1]]}, forced=[5])
    light = track.count(s.adventurers["S"], fatigue="light")
    with pytest.raises(RuleError, match="name the new one with `form:`"):
        run(s, "battle.ability", "S", {"name": "form-shift"})
    s, ev = run(s, "battle.ability", "S", {"name": "form-shift", "form": "heavy"})
    assert s.adventurers["S"].battle_form == "heavy" and track.count(s.adventurers["S"], fatigue="light") == light
    assert s.battle.pending.rerolls[0]["left"] == 1
    s, ev = run(s, "battle.reroll", "S", {"dice": [1]}, forced=[4])
    assert s.battle.pending.dice[0]["face"] == "2 damage"


def test_dragon_leap_jumps_over_a_unit_then_burns_the_adjacent_enemies():
    s = _battle("dragonknight", tenacity=2)
    e1 = _bandit_next_to(s)
    hp = e1.hp
    with pytest.raises(RuleError, match="name where you land with `to:q,r`"):
        run(s, "battle.ability", "S", {"name": "dragon-leap"})
    with pytest.raises(RuleError, match="occupied by High Elf Bandit"):
        run(s, "battle.ability", "S", {"name": "dragon-leap", "to": [-1, 2]})
    s, ev = run(s, "battle.ability", "S", {"name": "dragon-leap", "to": [0, 2]})
    me = s.battle.units["a:S"]
    assert (me.q, me.r) == (0, 2) and s.battle.units["e1"].hp == hp - 1
    assert "moves -2,2 → -1,2 → 0,2 (through units)" in texts(ev)


def test_move_through_units_with_free_movement_ends_in_an_empty_hex():
    s = _battle("acrobat", tenacity=2)
    _bandit_next_to(s)
    s, _ = run(s, "battle.ability", "S", {"name": "springboard"})
    assert s.battle.turn.free_move == 4  # Light Feet's 1 and Springboard's 3
    with pytest.raises(RuleError, match="occupied by High Elf Bandit"):
        run(s, "battle.move", "S", {"path": [[-1, 2]], "free": True})
    s, ev = run(s, "battle.move", "S", {"path": [[-1, 2], [0, 2]], "free": True})
    me = s.battle.units["a:S"]
    assert (me.q, me.r) == (0, 2) and s.battle.turn.free_move == 2
    with pytest.raises(RuleError, match="occupied"):  # a normal move never passes a unit
        run(s, "battle.move", "S", {"path": [[-1, 2], [-2, 2]]})


# --------------------------------------------------------------------------------- picture --
def free_move_picture_view() -> dict:
    """The battle drawn in docs/images/map-free-move.png (``python tests/picture_views.py`` writes it):
    Ryan, a Rogue, engaged by the High Elf Bandit, is offered Slip Away; the hexes of the menu are numbered."""
    from rulesets.tes.present.battle import map_view

    s = _battle(ryan="rogue", ryan_tenacity=2)
    _bandit_next_to(s)  # 2 hexes from Ryan
    e2 = s.battle.units["e2"]
    e2.defeated, e2.q, e2.r = False, 4, 2  # the Argonian Bandit, far off (out of sight)
    s.adventurers["R"].hp = 2  # the weakest: the bandit goes for him
    s, _ = run(s, "battle.endturn", "S")
    s, _ = run(s, "battle.endturn", "R", forced=[2])
    assert s.battle.offers and s.battle.offers[0].owner == "R"
    return map_view(s, ctx(s).pack)


def test_the_free_move_picture_in_the_docs_renders():
    import io
    import os

    from PIL import Image

    import render

    view = free_move_picture_view()
    assert [c["n"] for c in view["choices"]] == list(range(1, len(view["choices"]) + 1))
    img = Image.open(io.BytesIO(render.render("map", view)))
    shipped = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "images",
                           "map-free-move.png")
    assert Image.open(shipped).size == img.size
