"""Effect primitives: each one does what its words promise, and the loader refuses what does nothing."""
from __future__ import annotations

import pytest

from engine.effects import Field, Primitive, Registry, amount, one_of
from rulesets.tes.battle import harm, track
from rulesets.tes.battle.effects import REGISTRY, Use, describe, run_effects

from battle_helpers import ctx, jailbreak, party, run


def effect(raw: dict, *, die: bool = False) -> dict:
    """An effect as the content loader reads it (defaults filled in)."""
    full, problems = REGISTRY.validate(raw, defaults={"amount": "value"} if die else None)
    assert not problems, problems
    return full


@pytest.fixture
def battle():
    """Jailbreak with Shannon (S) on -2,2 next to Ryan (R) on -2,1; High Elf Bandit is e1."""
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    return s


def _near(c, uid: str, to: str) -> None:
    """Put unit ``uid`` next to unit ``to``."""
    t = c.unit(to)
    c.unit(uid)["q"], c.unit(uid)["r"] = t["q"] + 1, t["r"]


def test_every_primitive_has_a_test_here():
    tested = {"damage", "prevent", "heal", "bonus-hp", "tenacity", "status", "move", "recover", "fatigue", "pierce",
              "add-dice", "reroll", "companion", "manual", "engage", "draw-item", "defense", "immune", "challenge",
              "revive", "form", "lockpick-free", "lockpick-set", "hex-die"}
    tested |= {"dodge", "survive", "combat-dice", "raise-dead", "health"}  # tests/test_battle_enemy_skills.py
    tested |= {"drain", "either"}  # tests/test_delve_cards.py
    assert set(REGISTRY) == tested


def test_damage_deals_what_it_says(battle):
    c = ctx(battle)
    eff = effect({"type": "damage", "amount": 2, "true": True})
    assert describe(eff) == "deal 2 true damage to the target"
    before = c.hp(c.unit("e1"))
    run_effects(Use(c, c.unit("a:S"), "Test", target="e1"), [eff])
    assert c.hp(c.unit("e1")) == before - 2


def test_damage_to_adjacent_enemies_hits_each_of_them(battle):
    c = ctx(battle)
    _near(c, "e1", "a:S")
    eff = effect({"type": "damage", "amount": 1, "true": True, "target": "adjacent-enemies"})
    assert describe(eff) == "deal 1 true damage to each adjacent enemy"
    before = c.hp(c.unit("e1")), c.hp(c.unit("e2"))
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert (c.hp(c.unit("e1")), c.hp(c.unit("e2"))) == (before[0] - 1, before[1])  # e2 is far away


def test_prevent_in_the_cooldown_track_stops_damage(battle):
    c = ctx(battle)
    eff = c.pack.lines["heavy-armor"].abilities["resolve"].effects[0]
    assert describe(eff) == "prevent the rolled value of damage to you while this die is in the cooldown track"
    adv = c.adv("S")
    adv.dice["dx"] = {"type": "resolve", "line": "heavy-armor", "level": 1}
    adv.cooldown.append({"die": "dx", "icon": "resolve", "value": 2})
    hp = adv.hp
    harm.damage_adventurer(c, "S", 3, source=c.unit("e1"))
    assert adv.hp == hp - 1  # 2 of the 3 prevented
    assert adv.cooldown[-1]["die"] == "dx"  # spend = "stay": the die stays


def test_prevent_for_an_ally_is_a_die_in_their_slot_or_a_guard_interrupt():
    full, problems = REGISTRY.validate({"type": "prevent", "while": "cooldown", "amount": 2, "target": "ally"})
    assert full is None and any('works with while = "active"' in p for p in problems)
    assert REGISTRY.validate({"type": "prevent", "while": "active", "target": "ally"})[1] == []
    guard, problems = REGISTRY.validate({"type": "prevent", "while": "now", "amount": 3, "target": "ally",
                                         "within": 1})
    assert problems == [] and describe(guard) == "prevent 3 damage to an ally within 1 hex now"
    assert REGISTRY.validate({"type": "prevent", "while": "now", "within": 2})[1] == [
        '(prevent): within (how far the ally may be) needs target = "ally"']
    every, problems = REGISTRY.validate({"type": "prevent", "while": "now", "all": True})
    assert problems == [] and describe(every) == "prevent all of the damage damage to you now".replace(
        "damage damage", "damage")


def test_defense_prevents_some_of_every_blow_while_the_enduring_ability_holds(battle):
    eff = effect({"type": "defense", "amount": 1})
    assert describe(eff) == "you have 1 defense"
    c = ctx(battle)
    assert run_effects(Use(c, c.unit("a:S"), "Test"), [eff]) is None  # read when damage is dealt, not run


def test_immune_names_the_statuses(battle):
    eff = effect({"type": "immune", "statuses": "daze"})
    assert eff["statuses"] == ["daze"] and describe(eff) == "you cannot gain daze"
    assert REGISTRY.validate({"type": "immune", "statuses": ["sleepy"]})[0] is None


def test_challenge_marks_the_enemies_within_reach(battle):
    c = ctx(battle)
    eff = effect({"type": "challenge", "within": 3})
    assert describe(eff) == "each enemy within 3 hexes must target you if able until your next turn"
    c.unit("e1").q, c.unit("e1").r = 0, 2  # 2 hexes from Shannon
    c.unit("e2").q, c.unit("e2").r = 4, 2  # 6 hexes away
    run_effects(Use(c, c.unit("a:S"), "Challenge"), [eff])
    assert c.b.more["challenges"] == {"e1": "a:S"}
    assert "High Elf Bandit must target Shannon" in c.events[-1].text


def test_revive_brings_a_defeated_ally_back_next_to_you(battle):
    c = ctx(battle)
    harm.defeat_adventurer(c, "R")
    eff = effect({"type": "revive", "amount": 3})
    assert describe(eff) == "a defeated ally returns with 3 HP in a hex next to you"
    run_effects(Use(c, c.unit("a:S"), "Revive", ally="a:R"), [eff])
    ryan = c.unit("a:R")
    assert not ryan.defeated and c.adv("R").hp == 3
    from engine.hexes import Hex, distance
    assert distance(Hex(ryan.q, ryan.r), Hex(-2, 2)) == 1
    run_effects(Use(c, c.unit("a:S"), "Revive"), [eff])  # nobody named: nothing happens, and it says so
    assert "nobody returns" in c.events[-1].text


def test_form_changes_the_battle_form_without_fatigue(battle):
    c = ctx(battle)
    eff = effect({"type": "form"})
    assert describe(eff) == "change battle form without gaining fatigue"
    before = len(c.adv("S").cooldown)
    run_effects(Use(c, c.unit("a:S"), "Form Shift", new_form="magic"), [eff])
    assert c.adv("S").battle_form == "magic" and len(c.adv("S").cooldown) == before


def test_conditions_and_counts_on_effects(battle):
    c = ctx(battle)
    eff = effect({"type": "tenacity", "amount": 1, "per": "adjacent-enemy", "most": 2})
    run_effects(Use(c, c.unit("a:S"), "Ember Heart"), [eff])
    assert c.adv("S").tenacity == 0  # no adjacent enemy: 0
    _near(c, "e1", "a:S")
    c.unit("e2").q, c.unit("e2").r = -2, 3
    run_effects(Use(c, c.unit("a:S"), "Ember Heart"), [eff])
    assert c.adv("S").tenacity == 2
    cond = effect({"type": "bonus-hp", "amount": 1, "if": "rolled-magicka"})
    run_effects(Use(c, c.unit("a:S"), "Test"), [cond])
    assert c.adv("S").bonus_hp == 0
    c.b.turn.more["rolled_magicka"] = ["S"]
    run_effects(Use(c, c.unit("a:S"), "Test"), [cond])
    assert c.adv("S").bonus_hp == 1
    assert REGISTRY.validate({"type": "tenacity", "if": "raining"})[0] is None


def test_heal_an_ally_up_to_their_maximum(battle):
    c = ctx(battle)
    ryan = c.adv("R")
    ryan.hp = ryan.max_hp - 3
    eff = effect({"type": "heal", "amount": 2, "target": "ally"})
    assert describe(eff) == "heal 2 HP on an ally (or you)"
    run_effects(Use(c, c.unit("a:S"), "Test", ally="a:R"), [eff])
    assert ryan.hp == ryan.max_hp - 1
    run_effects(Use(c, c.unit("a:S"), "Test", ally="a:R"), [eff])
    assert ryan.hp == ryan.max_hp


def test_bonus_hp(battle):
    c = ctx(battle)
    eff = effect({"type": "bonus-hp", "amount": 2})
    assert describe(eff) == "you gain 2 bonus HP"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert c.adv("S").bonus_hp == 2


def test_tenacity_stops_at_the_mat_maximum(battle):
    c = ctx(battle)
    eff = effect({"type": "tenacity", "amount": 2, "target": "allies-in-range"})
    assert describe(eff) == "you and each ally within 2 hexes gain 2 tenacity"
    c.adv("S").tenacity = c.pack.mat.tenacity_max - 1
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert c.adv("S").tenacity == c.pack.mat.tenacity_max
    assert c.adv("R").tenacity == 2  # Ryan stands next to Shannon


def test_status_given_and_removed(battle):
    c = ctx(battle)
    give = effect({"type": "status", "status": "daze"})
    take = effect({"type": "status", "status": "daze", "remove": True})
    assert describe(give) == "the target gains daze" and describe(take) == "remove daze from the target"
    run_effects(Use(c, c.unit("a:S"), "Test", target="e1"), [give])
    assert c.has(c.unit("e1"), "daze")
    run_effects(Use(c, c.unit("a:S"), "Test", target="e1"), [take])
    assert not c.has(c.unit("e1"), "daze")


def test_hex_die_places_the_die_being_resolved_in_a_hex(battle):
    c = ctx(battle)
    eff = effect({"type": "hex-die"}, die=True)
    assert describe(eff) == ("place this die in a hex in range and sight; an enemy that moves into it or starts "
                             "its turn there is dealt the rolled value of damage, then the die is exhausted")
    die = next(iter(c.adv("R").dice))
    use = Use(c, c.unit("a:R"), "Test", value=2, form="magic", status_die=("R", die), hexes=[[0, 1]])
    run_effects(use, [eff])
    assert use.status_die_placed and die in c.adv("R").placed
    assert [(d.hex, d.damage) for d in c.b.hex_dice] == [([0, 1], 2)]  # more in test_battle_hex_dice.py
    run_effects(Use(c, c.unit("a:S"), "Test", value=2, form="magic"), [eff])  # no S die: nothing to place
    assert len(c.b.hex_dice) == 1 and "no skill die to place in a hex" in c.events[-1].text


def test_move_grants_free_movement_that_move_can_spend(battle):
    c = ctx(battle)
    eff = effect({"type": "move", "amount": 2})
    assert describe(eff) == "move up to 2 hexes for free"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert c.b["turn"]["free_move"] == 2
    s, _ = run(c.state, "battle.move", "S", {"to": "-1,2", "free": True})
    assert s.battle["turn"]["free_move"] == 1 and s.battle["turn"]["moves"] == 0


def test_move_refuses_fields_without_behaviour():
    full, problems = REGISTRY.validate({"type": "move", "amount": 2, "who": "ally"})
    assert full is None and "unknown key" in problems[0]
    full, problems = REGISTRY.validate({"type": "move", "amount": 2, "through": True})
    assert problems == [] and describe(full) == "move up to 2 hexes for free, through hexes that hold units"


def test_recover_light_fatigue(battle):
    c = ctx(battle)
    adv = c.adv("S")
    adv.cooldown[:] = [{"fatigue": "light"}, {"fatigue": "over"}, {"fatigue": "light"}]
    eff = effect({"type": "recover", "what": "light-fatigue", "amount": 2})
    assert describe(eff) == "you recover 2 light fatigue dice"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert adv.cooldown == [{"fatigue": "over"}]


def test_recover_drained_dice(battle):
    c = ctx(battle)
    adv = c.adv("S")
    adv.drained[:] = ["d2", "d3"]
    run_effects(Use(c, c.unit("a:S"), "Test"), [effect({"type": "recover", "what": "drained"})])
    assert adv.drained == ["d3"]


def test_fatigue_goes_to_the_track(battle):
    c = ctx(battle)
    eff = effect({"type": "fatigue", "kind": "over", "amount": 2, "target": "target"})
    assert describe(eff) == "the target gains 2 overfatigue"
    run_effects(Use(c, c.unit("e1"), "Enfeeble", target="a:S"), [eff])
    assert track.count(c.adv("S"), fatigue="over") == 2


def test_pierce_marks_the_engage(battle):
    c = ctx(battle)
    eff = effect({"type": "pierce"}, die=True)
    assert describe(eff) == "pierce the rolled value of Defense"
    engage = {"dealt": {}, "pierce": 0}
    run_effects(Use(c, c.unit("a:S"), "Test", value=2, engage=engage), [eff])
    assert engage["pierce"] == 2


def test_add_dice_rolls_an_extra_die(battle):
    iron = battle
    eff = effect({"type": "add-dice", "amount": 1})
    assert describe(eff) == "roll 1 more die in this engage"
    s, _ = run(iron, "battle.move", "S", {"to": "0,2"})
    s.adventurers["S"].ready.append("iron-sword")
    s2, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat", "item": "iron-sword"}, forced=[5, 5])
    without, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[5, 5])
    assert len(s2.battle["pending"]["dice"]) == len(without.battle["pending"]["dice"]) + 1


def test_reroll_waits_for_a_roll(battle):
    c = ctx(battle)
    eff = effect({"type": "reroll", "amount": 1, "blank_only": True})
    assert describe(eff) == "reroll up to 1 blank die"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert "no roll of yours" in c.events[-1].text
    c.b["pending"] = {"owner": "S"}
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert c.b["pending"]["rerolls"] == [{"source": "Test", "left": 1, "blank_only": True}]


def test_companion_joins(battle):
    c = ctx(battle)
    eff = effect({"type": "companion", "companion": "war-hound"})
    assert describe(eff) == "war-hound joins this battle"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    hounds = [u for u in c.b["units"].values() if u["side"] == "companion"]
    assert len(hounds) == 1 and hounds[0]["controller"] == "S"


def test_manual_shows_its_text_for_the_party(battle):
    c = ctx(battle)
    eff = effect({"type": "manual", "text": "Swap places with an ally."})
    assert describe(eff) == "Swap places with an ally."
    before = battle.to_dict()
    run_effects(Use(c, c.unit("a:S"), "Lark"), [eff])
    ev = c.events[-1]
    assert ev.kind == "manual" and "Swap places with an ally." in ev.text and "apply this yourselves" in ev.text
    after = c.state.to_dict()
    before["battle"].pop("log"), after["battle"].pop("log")
    assert before == after  # nothing changed but the log


def test_a_manual_card_is_shown_not_applied(battle):
    c = ctx(battle)
    run_effects(Use(c, c.unit("a:S"), "Nimble Fingers"), [], text="Change two die results.")
    assert c.events[-1].kind == "manual" and "Change two die results." in c.events[-1].text


def test_draw_item_draws_from_the_campaign_deck(battle):
    from rulesets.tes.battle_state import ItemDeck

    battle.item_decks = {"legendary": ItemDeck(draw=["loyal-hound"])}
    c = ctx(battle)
    eff = effect({"type": "draw-item", "rarity": "legendary"})
    assert describe(eff) == "draw 1 legendary item"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert "loyal-hound" in c.adv("S").ready and battle.item_decks["legendary"].draw == []


def _picking(battle):
    from rulesets.tes.battle_state import ItemDeck

    battle.item_decks = {"common": ItemDeck(draw=["iron-sword"])}
    battle, _ = run(battle, "battle.move", "S", {"path": "-1,2 -1,3 0,3"})
    battle, _ = run(battle, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    return battle


def test_lockpick_free_gives_the_check_free_steps(battle):
    eff = effect({"type": "lockpick-free", "amount": 2})
    assert describe(eff) == "during each lockpick check, change up to 2 die results by 1 each without gaining fatigue"
    c = ctx(battle)
    assert run_effects(Use(c, c.unit("a:S"), "Test"), [eff]) is None and c.events == []  # no check: nothing
    c = ctx(_picking(battle))
    run_effects(Use(c, c.unit("a:R"), "Test"), [eff])  # Ryan is not picking the lock
    assert c.b.lockpick.free == 0
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert c.b.lockpick.free == 2 and c.b.lockpick.free_by == "Test" and "2 die results may each turn" in c.events[-1].text


def test_lockpick_set_turns_a_die_and_discards_the_card(battle):
    from engine.core import RuleError
    from rulesets.tes.battle.lockpick_cards import SetUse

    eff = effect({"type": "lockpick-set"})
    assert eff == {"type": "lockpick-set", "amount": 1, "discard": True}
    assert describe(eff) == "during a lockpick check, turn one die to any number, then discard this card"
    battle = _picking(battle)
    battle.adventurers["S"].ready = ["lockpick-set"]
    c = ctx(battle)
    with pytest.raises(RuleError, match="/lockpick set:3=5"):
        run_effects(Use(c, c.unit("a:S"), "Lockpick Set"), [eff])
    run_effects(SetUse(c, c.unit("a:S"), "Lockpick Set", item="lockpick-set", setting=[(2, 6)]), [eff])
    assert c.b.lockpick.dice == [1, 2, 6] and c.adv("S").ready == [] and c.b.lockpick.used == ["lockpick-set"]
    keep = effect({"type": "lockpick-set", "discard": False})
    assert describe(keep).endswith("(once per check)")


def test_effects_only_in_their_forms(battle):
    c = ctx(battle)
    eff = effect({"type": "bonus-hp", "amount": 1, "forms": "defensive"})
    assert eff["forms"] == ["defensive"]
    run_effects(Use(c, c.unit("a:S"), "Test", form="light"), [eff])
    assert c.adv("S").bonus_hp == 0
    run_effects(Use(c, c.unit("a:S"), "Test", form="defensive"), [eff])
    assert c.adv("S").bonus_hp == 1


def test_loader_refuses_a_type_or_field_without_behaviour():
    assert REGISTRY.validate({"type": "teleport", "deck": "common"})[1] == [
        'has type "teleport", which is not one of ' + ", ".join(f'"{t}"' for t in REGISTRY)]
    full, problems = REGISTRY.validate({"type": "prevent", "while": "now", "true": True})
    assert full is None and 'unknown key "true"' in problems[0]
    full, problems = REGISTRY.validate({"type": "fatigue"})
    assert full is None and problems == ['(fatigue) is missing "kind"']
    full, problems = REGISTRY.validate({"type": "heal", "amount": -1})
    assert problems == ["(heal): amount must not be negative, got -1"]


def test_kernel_registry_refuses_a_primitive_without_behaviour():
    reg = Registry()

    class Nothing(Primitive):
        type = "nothing"
        fields = {"amount": Field(amount, default=1)}

        def describe(self, eff):
            return "nothing"

    with pytest.raises(TypeError, match="no apply"):
        reg.register(Nothing)

    @reg.register
    class Rest(Primitive):
        type = "rest"
        fields = {"amount": Field(amount, default=1), "where": Field(one_of("inn", "camp"), required=True)}

        def apply(self, use, eff):
            use["hp"] += eff["amount"]
            return eff["amount"]

        def describe(self, eff):
            return f"rest at the {eff['where']}: heal {eff['amount']}"

    full, problems = reg.validate({"type": "rest", "where": "inn"})
    assert problems == [] and full == {"type": "rest", "where": "inn", "amount": 1}
    body = {"hp": 1}
    assert reg.apply(body, full) == 1 and body == {"hp": 2}
    assert reg.describe(full) == "rest at the inn: heal 1"


def test_a_card_part_without_behaviour_is_shown_and_the_rest_applied(battle):
    """A card with a part the bot cannot apply: the free move is applied; the rest is the party's to apply."""
    c = ctx(battle)
    effects = [effect({"type": "move", "amount": 3, "through": True}),
               effect({"type": "manual", "text": "Then shout a battle cry."})]
    run_effects(Use(c, c.unit("a:S"), "Leap"), effects)
    assert c.b["turn"]["free_move"] == 3 and c.b["turn"]["free_through"] is True
    assert c.events[-1].kind == "manual" and "battle cry" in c.events[-1].text


def test_engage_grants_an_engage_without_fatigue(battle):
    c = ctx(battle)
    eff = effect({"type": "engage"})
    assert describe(eff) == "you may engage once without gaining fatigue for it"
    assert describe(effect({"type": "engage", "target": "ally", "dice": 2})) == \
        "an ally (or you) may engage once without gaining fatigue for it, rolling up to 2 skill dice"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert c.b.turn.more["granted"]["S"]["source"] == "Test"


def test_rule_texts_mark_emphasis_and_presenters_decide_how_it_looks():
    from engine.core import strong, word
    from engine.present import bold, mention, say
    from engine.core import Event

    e = Event("roll", f"{{@player}} rolls {strong('2 damage')}.", {"player": "7"})
    assert say(e) == "<@7> rolls **2 damage**."  # Discord and the local table
    assert e.words() == "@7 rolls 2 damage."  # plain words
    assert word(e.text, e.data, mention, bold) == say(e)
    assert "**" not in e.text  # rule code writes no Markdown
