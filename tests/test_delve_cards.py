"""Every delve card text is a promise: each When Revealed effect, trap, skyshard effect and environment of the
starter pack is played here and changes the state as its words say; and the two primitives delve cards brought
(``drain``, ``either``)."""
from __future__ import annotations

import pytest
from battle_helpers import ctx, run, texts
from delve_helpers import PACK, delve, on_top, tiles_first

from engine.hexes import Hex
from rulesets.tes.battle import delve as dv
from rulesets.tes.battle.effects import REGISTRY, Use, describe, run_effects
from rulesets.tes.battle_state import LockpickCheck

SHAPE_TILE = {3: "alcove-3a", 6: "den-6c", 7: "chamber-7a", 19: "cistern-19"}


def revealed(card_id: str, *, xp=1, choose=1, prepare=None):
    """Shannon (1,0) explores with ``card_id`` on top; choices take option ``choose``; the default placement."""
    s, _ = delve(xp=xp, hexes={"S": "1,0", "R": "1,1"})
    card = PACK.delve_cards[card_id]
    tile = SHAPE_TILE[card.shape]
    on_top(s, card_id)
    tiles_first(s, card.shape, tile)
    if prepare:
        prepare(s)
    s, ev = run(s, "battle.explore", "S", {})
    evs = list(ev)
    while s.battle.choices:
        s, ev = run(s, "battle.choose", s.battle.choices[0].owner, {"option": choose})
        evs += ev
    ex = s.battle.delve.exploring
    if ex is not None:
        s, ev = run(s, "battle.place", "S", {"place": ex.default}, forced=[1] * 6)
        evs += ev
    return s, evs, tile


def light(adv) -> int:
    return sum(1 for e in adv.cooldown if e.get("fatigue") == "light")


def statuses(adv) -> list[str]:
    return [e["status"] for e in adv.cooldown if "status" in e]


def stand_on(s, owner: str, tile: str) -> Hex:
    c = ctx(s)
    spot = min((h for h in c.map.passable if c.map.tile_of[h] == tile and c.occupant(h) is None),
               key=lambda h: (h.q, h.r))
    s.battle.units[f"a:{owner}"].q, s.battle.units[f"a:{owner}"].r = spot.q, spot.r
    return spot


# ---------------------------------------------------------- When Revealed --
def test_forgotten_storeroom_gives_the_explorer_1_tenacity():
    s, ev, _ = revealed("forgotten-storeroom", prepare=lambda s: setattr(s.adventurers["S"], "tenacity", 1))
    assert s.adventurers["S"].tenacity == 2 and s.adventurers["R"].tenacity == 0


def test_abandoned_camp_heals_each_adventurer_1():
    def hurt(s):
        s.adventurers["S"].hp -= 2
        s.adventurers["R"].hp -= 2
    s, ev, _ = revealed("abandoned-camp", prepare=hurt)
    assert s.adventurers["S"].hp == s.adventurers["S"].max_hp - 1
    assert s.adventurers["R"].hp == s.adventurers["R"].max_hp - 1


def test_cracked_seal_raises_the_health_of_each_enemy_on_its_tile_once_populated():
    s, ev, tile = revealed("cracked-seal", xp=3)  # 2 adventurers: one enemy of at most level 5
    foes = [u for u in s.battle.units.values() if u.side == "enemy"]
    assert foes and all(u.max_hp == PACK.enemies[u.enemy].health + 1 and u.hp == u.max_hp for u in foes)
    t = texts(ev)
    assert t.index("👹 Cracked Seal") < t.index("Cracked Seal, when revealed")  # after the tile is populated


def test_drowned_armory_gives_the_explorer_1_light_fatigue():
    s, ev, _ = revealed("drowned-armory")
    assert light(s.adventurers["S"]) == 1 and light(s.adventurers["R"]) == 0


def test_flooded_stair_deals_the_explorer_1_true_damage():
    s, ev, _ = revealed("flooded-stair", prepare=lambda s: setattr(s.adventurers["S"], "bonus_hp", 0))
    assert s.adventurers["S"].hp == s.adventurers["S"].max_hp - 1


def test_crab_midden_gives_each_enemy_on_its_tile_stealth():
    s, ev, tile = revealed("crab-midden", xp=2)
    foes = [u for u in s.battle.units.values() if u.side == "enemy"]
    assert foes and all("stealth" in u.statuses for u in foes)


@pytest.mark.parametrize("choose", [1, 2])
def test_mildew_hollow_each_adventurer_drains_a_combat_die_or_gains_bane(choose):
    s, ev, _ = revealed("mildew-hollow", choose=choose)
    for o in ("S", "R"):
        adv = s.adventurers[o]
        if choose == 1:
            assert len(adv.drained) == 1 and adv.dice[adv.drained[0]]["line"] == "combat"
        else:
            assert statuses(adv) == ["bane"] and adv.drained == []


@pytest.mark.parametrize("choose", [1, 2])
def test_collapsed_well_the_explorer_drains_a_combat_die_or_takes_2_damage(choose):
    s, ev, _ = revealed("collapsed-well", choose=choose)
    adv = s.adventurers["S"]
    if choose == 1:
        assert len(adv.drained) == 1 and adv.hp == adv.max_hp
    else:
        assert adv.drained == [] and adv.hp == adv.max_hp - 2
    assert s.adventurers["R"].drained == []  # only the explorer


def test_a_choice_with_one_possible_option_applies_it_at_once():
    def no_combat(s):
        adv = s.adventurers["R"]
        adv.drained = [d for d, v in adv.dice.items() if v["line"] == "combat"]
    s, ev, _ = revealed("mildew-hollow", prepare=no_combat)
    assert "Ryan cannot drain a combat die, so: Gain bane." in texts(ev)
    assert statuses(s.adventurers["R"]) == ["bane"]


def test_a_choice_waits_for_its_player_and_its_time_out_takes_the_default():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    on_top(s, "mildew-hollow")
    s, ev = run(s, "battle.explore", "S", {})
    from rulesets.tes.rules.battle_prompts import open_prompt

    p = open_prompt(s)
    assert p.kind == "choice" and p.owner == "S" and p.default == "1" and p.timeout_action == "battle.choose-timeout"
    with pytest.raises(Exception, match="choose for Mildew Hollow"):
        run(s, "battle.endturn", "S")
    with pytest.raises(Exception, match="or the party leader"):
        run(s, "battle.choose", "R", {"option": 1})
    s, ev = run(s, "battle.choose-timeout", "S", {"ask": p.id})
    assert "made no choice within" in texts(ev) and "takes the default: Drain a Combat die" in texts(ev)
    assert s.battle.choices[0].owner == "R"


# ------------------------------------------------------------------- traps --
def trap(card_id: str, success: bool, *, ryan_on_tile=False):
    s, _, tile = revealed(card_id)
    for u in s.battle.units.values():
        if u.side == "enemy":
            u.defeated, u.q, u.r = True, None, None
    h = stand_on(s, "S", tile)
    if ryan_on_tile:
        stand_on(s, "R", tile)
    c = ctx(s)
    before = {o: (a.hp, a.tenacity, light(a), list(statuses(a))) for o, a in s.adventurers.items()}
    dv.trap_ended(c, LockpickCheck(owner="S", hex=[h.q, h.r], kind="trap", ref=tile), success)
    return s, c, before


def test_tripwire_deals_2_damage_on_a_failed_check():
    s, c, before = trap("tripwire-corridor", False)
    assert s.adventurers["S"].hp == before["S"][0] - 2 and s.adventurers["R"].hp == before["R"][0]


def test_sinking_floor_dazes_and_gives_1_light_fatigue():
    s, c, before = trap("sinking-floor", False)
    assert "daze" in statuses(s.adventurers["S"]) and light(s.adventurers["S"]) == before["S"][2] + 1


def test_leech_swarm_gives_bane():
    s, c, before = trap("leech-nest", False)
    assert statuses(s.adventurers["S"]) == ["bane"] and statuses(s.adventurers["R"]) == []


def test_snapping_eels_deal_1_damage_to_each_adventurer_on_the_tile():
    s, c, before = trap("eel-channel", False, ryan_on_tile=True)
    assert s.adventurers["S"].hp == before["S"][0] - 1 and s.adventurers["R"].hp == before["R"][0] - 1


def test_spore_vent_blinds_each_adventurer_on_the_tile():
    s, c, before = trap("spore-vent", False, ryan_on_tile=True)
    assert "blind" in statuses(s.adventurers["S"]) and "blind" in statuses(s.adventurers["R"])


def test_rigged_lid_gives_1_tenacity_on_success_only():
    s, c, before = trap("smugglers-nook", True)
    assert s.adventurers["S"].tenacity == before["S"][1] + 1
    s, c, before = trap("smugglers-nook", False)
    assert s.adventurers["S"].tenacity == before["S"][1]


def test_tide_gate_deals_2_damage_and_1_light_fatigue():
    s, c, before = trap("tidewater-gate", False)
    adv = s.adventurers["S"]
    assert adv.hp == before["S"][0] - 2 and light(adv) == before["S"][2] + 1


def test_a_trap_that_succeeds_against_a_fail_effect_does_nothing():
    s, c, before = trap("leech-nest", True)
    assert statuses(s.adventurers["S"]) == []


# -------------------------------------------------------------- skyshards --
def _tired(adv, n=2):
    adv.cooldown += [{"fatigue": "light"}] * n


def _skill_in_track(adv):
    die = next(d for d in adv.dice if d not in [e.get("die") for e in adv.cooldown])
    adv.cooldown.append({"die": die})
    return die


SHARD_CHECKS = {
    # card: {k: (prepare(s), check(s, before))}
    "skyshard-grotto": {
        1: (None, lambda s, b: s.adventurers["S"].tenacity == b["S"]["ten"] + 1),
        2: (lambda s: _tired(s.adventurers["S"]), lambda s, b: light(s.adventurers["S"]) == b["S"]["light"] - 2),
        3: ("hurt", lambda s, b: s.adventurers["S"].hp == b["S"]["hp"] + 2)},
    "echoing-vault": {
        1: (None, lambda s, b: all(s.adventurers[o].tenacity == b[o]["ten"] + 1 for o in "SR")),
        2: ("hurt", lambda s, b: all(s.adventurers[o].hp == b[o]["hp"] + 2 for o in "SR")),
        3: (lambda s: [_skill_in_track(s.adventurers[o]) for o in "SR"],
            lambda s, b: all(len(s.adventurers[o].cooldown) == b[o]["track"] - 1 for o in "SR"))},
    "cracked-seal": {
        1: (None, lambda s, b: "stealth" in statuses(s.adventurers["S"])),
        2: (None, lambda s, b: s.adventurers["S"].bonus_hp == b["S"]["bonus"] + 2),
        3: (None, lambda s, b: s.adventurers["S"].tenacity == b["S"]["ten"] + 2)},
    "mildew-hollow": {
        1: (lambda s: s.adventurers["S"].cooldown.append({"status": "bane"}),
            lambda s, b: "bane" not in statuses(s.adventurers["S"])),
        2: ("hurt", lambda s, b: s.adventurers["S"].hp == b["S"]["hp"] + 2),
        3: (None, lambda s, b: s.adventurers["S"].tenacity == b["S"]["ten"] + 2)},
    "salt-shrine": {
        1: (None, lambda s, b: s.adventurers["S"].tenacity == b["S"]["ten"] + 2),
        2: ("hurt", lambda s, b: s.adventurers["S"].hp == min(s.adventurers["S"].max_hp, b["S"]["hp"] + 3)),
        3: (lambda s: _tired(s.adventurers["S"], 3), lambda s, b: len(s.adventurers["S"].cooldown) == b["S"]["track"] - 2)},
    "skyshard-cairn": {
        1: ("hurt", lambda s, b: s.adventurers["S"].hp == b["S"]["hp"] + 1),
        2: ("hurt", lambda s, b: s.adventurers["S"].hp == b["S"]["hp"] + 1
            and s.adventurers["S"].tenacity == b["S"]["ten"] + 1),
        3: (None, lambda s, b: all(s.adventurers[o].tenacity == b[o]["ten"] + 1 for o in "SR"))},
    "bog-lantern-hall": {
        1: (None, lambda s, b: s.adventurers["S"].bonus_hp == b["S"]["bonus"] + 2),
        2: ("hurt", lambda s, b: all(s.adventurers[o].hp == b[o]["hp"] + 1 for o in "SR")),
        3: (lambda s: [_tired(s.adventurers[o], 1) for o in "SR"],
            lambda s, b: all(light(s.adventurers[o]) == b[o]["light"] - 1 for o in "SR"))},
    "sunken-reliquary": {
        1: (None, lambda s, b: s.adventurers["S"].tenacity == b["S"]["ten"] + 1),
        2: (None, lambda s, b: s.adventurers["S"].tenacity == b["S"]["ten"] + 2),
        3: ("hurt", lambda s, b: s.adventurers["S"].hp == min(s.adventurers["S"].max_hp, b["S"]["hp"] + 3))},
    "collapsed-well": {
        1: (None, lambda s, b: s.adventurers["S"].bonus_hp == b["S"]["bonus"] + 1),
        2: (lambda s: _skill_in_track(s.adventurers["S"]),
            lambda s, b: len(s.adventurers["S"].cooldown) == b["S"]["track"] - 1),
        3: ("hurt", lambda s, b: s.adventurers["S"].hp == b["S"]["hp"] + 2)},
    "heron-roost": {
        1: (lambda s: _tired(s.adventurers["S"], 1), lambda s, b: light(s.adventurers["S"]) == b["S"]["light"] - 1),
        2: (None, lambda s, b: "stealth" in statuses(s.adventurers["S"])),
        3: (None, lambda s, b: s.adventurers["S"].bonus_hp == b["S"]["bonus"] + 2)},
}


@pytest.mark.parametrize("card_id,k", [(c, k) for c, v in SHARD_CHECKS.items() for k in v])
def test_each_skyshard_effect_works_for_the_partys_new_total(card_id, k):
    card = PACK.delve_cards[card_id]
    choose = 2 if card_id in ("mildew-hollow", "collapsed-well") else 1  # keep the Combat dice on the mat
    s, _, tile = revealed(card_id, choose=choose)
    for u in s.battle.units.values():
        if u.side == "enemy":
            u.defeated, u.q, u.r = True, None, None
    prepare, check = SHARD_CHECKS[card_id][k]
    for o in "SR":
        a = s.adventurers[o]
        a.cooldown = [e for e in a.cooldown if e.get("status") != "bane"]
        a.hp, a.tenacity, a.bonus_hp = a.max_hp, 0, 0
        if prepare == "hurt":
            a.hp = a.max_hp - 3
    if callable(prepare):
        prepare(s)
    d = s.battle.delve
    d.gained = k - card.skyshards
    before = {o: {"hp": a.hp, "ten": a.tenacity, "bonus": a.bonus_hp, "light": light(a), "track": len(a.cooldown)}
              for o, a in s.adventurers.items()}
    c = ctx(s)
    spot = d.cards[tile]
    dv.gain_skyshards(c, c.unit("a:S"), spot, card)
    assert d.gained == k
    assert f"{card.name} (skyshard {k}): {card.skyshard[k].text}" in texts(c.events)
    assert check(s, before), (card_id, k, texts(c.events))


# ------------------------------------------------------------ environments --
def env(card_id: str):
    s, _, tile = revealed(card_id, xp=2)
    return s, tile


def test_brine_pool_gives_1_light_fatigue_on_entering_its_tile_during_your_turn():
    s, tile = env("brine-pool")
    for u in s.battle.units.values():
        if u.side == "enemy":
            u.defeated, u.q, u.r = True, None, None
    c = ctx(s)
    into = min((h for h in c.map.passable if c.map.tile_of[h] == tile and c.occupant(h) is None),
               key=lambda h: c.range_to(Hex(1, 0), h))
    before = light(s.adventurers["S"])
    s, ev = run(s, "battle.move", "S", {"to": [into.q, into.r]})
    assert "Brine Pool: Thick brine clings" in texts(ev) and light(s.adventurers["S"]) == before + 1


def test_mangrove_tangle_heals_each_enemy_on_its_tile_at_the_start_of_each_round():
    s, tile = env("mangrove-tangle")
    foes = [u for u in s.battle.units.values() if u.side == "enemy"]
    assert foes
    for u in foes:
        u.hp = u.max_hp - 1
    c = ctx(s)
    dv.start_of_round(c)
    assert all(u.hp == u.max_hp for u in foes)


def test_quiet_cistern_gives_1_tenacity_to_an_adventurer_who_starts_the_turn_on_it():
    s, tile = env("quiet-cistern")
    stand_on(s, "R", tile)
    s.adventurers["R"].tenacity = 0
    c = ctx(s)
    dv.start_of_turn(c, "R")
    assert s.adventurers["R"].tenacity == 1 and "Quiet Cistern" in texts(c.events)


def test_marsh_gas_deals_1_true_damage_to_an_adventurer_who_ends_the_turn_on_it():
    s, tile = env("marsh-gas-chamber")
    stand_on(s, "S", tile)
    hp = s.adventurers["S"].hp
    c = ctx(s)
    dv.end_of_turn(c, "S")
    assert s.adventurers["S"].hp == hp - 1


def test_stale_air_gives_1_light_fatigue_at_the_end_of_your_turn_on_it():
    s, tile = env("stale-air")
    stand_on(s, "S", tile)
    before = light(s.adventurers["S"])
    c = ctx(s)
    dv.end_of_turn(c, "S")
    assert light(s.adventurers["S"]) == before + 1


# ----------------------------------------------------------- every card --
TESTED_REVEALED = {"forgotten-storeroom", "abandoned-camp", "cracked-seal", "drowned-armory", "flooded-stair",
                   "crab-midden", "mildew-hollow", "collapsed-well"}
TESTED_TRAPS = {"tripwire-corridor", "sinking-floor", "leech-nest", "eel-channel", "spore-vent", "smugglers-nook",
                "tidewater-gate"}
TESTED_ENV = {"brine-pool", "mangrove-tangle", "quiet-cistern", "marsh-gas-chamber", "stale-air"}


def test_every_card_part_of_the_pack_is_played_here():
    """Here, or (the Ironpine's cards) in tests/test_ironpine_delves.py."""
    from test_ironpine_delves import PLAYED as IP

    cards = PACK.delve_cards.values()
    assert {c.id for c in cards if c.revealed} == TESTED_REVEALED | IP["revealed"]
    assert {c.id for c in cards if c.trap} == TESTED_TRAPS | IP["trap"]
    assert {c.id for c in cards if c.environment} == TESTED_ENV | IP["environment"]
    assert {c.id: sorted(c.skyshard) for c in cards if c.skyshard} == {k: sorted(v) for k, v in SHARD_CHECKS.items()} \
        | IP["skyshard"]
    assert not [c.id for c in cards if any(p and p.manual for p in (c.revealed, c.environment)) or
                (c.trap and c.trap.part.manual) or any(x.manual for x in c.skyshard.values())]
    # the pack's sets: 7 general cards, 20 of The Saltmire and 4 of The Ironpine Highlands
    assert sum(1 for c in cards if c.province is None) == 7 and sum(1 for c in cards if c.province == "SM") == 20
    assert sum(1 for c in cards if c.province == "IP") == 4


# -------------------------------------------------------------- primitives --
def test_drain_takes_a_die_from_the_rows_first_then_from_the_track():
    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    c = ctx(s)
    eff, problems = REGISTRY.validate({"type": "drain", "what": "combat", "amount": 2})
    assert not problems and describe(eff) == "you drain 2 Combat dice"
    adv = s.adventurers["S"]
    combat = [d for d, v in adv.dice.items() if v["line"] == "combat"]
    adv.cooldown.append({"die": combat[0]})
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert sorted(adv.drained) == sorted(combat[:2]) and combat[0] not in [e.get("die") for e in adv.cooldown]
    assert combat[0] in adv.drained  # the one in the track went too, after the one in the row
    assert "no Combat die left" not in texts(c.events)


def test_either_needs_two_options_with_good_effects():
    full, problems = REGISTRY.validate({"type": "either", "options": [{"label": "x", "effects": [{"type": "heal"}]}]})
    assert full is None and "at least 2 options" in problems[0]
    full, problems = REGISTRY.validate({"type": "either", "options": [
        {"label": "a", "effects": [{"type": "heal", "amount": 1}]}, {"label": "b", "effects": [{"type": "nope"}]}]})
    assert full is None and "option 2 effect 1" in problems[0]
    full, problems = REGISTRY.validate({"type": "either", "default": 3, "options": [
        {"label": "a", "effects": [{"type": "heal", "amount": 1}]}, {"label": "b", "effects": [{"type": "heal"}]}]})
    assert full is None and "default must be one of the option numbers 1 to 2" in problems[0]
    full, _ = REGISTRY.validate({"type": "either", "target": "adventurers", "options": [
        {"label": "Drain a Combat die", "effects": [{"type": "drain"}]}, {"label": "Gain bane",
                                                                         "effects": [{"type": "status", "status": "bane", "target": "self"}]}]})
    assert describe(full) == "each adventurer chooses: drain a combat die or gain bane"
