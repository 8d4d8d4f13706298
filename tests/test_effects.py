"""Effect primitives: each one does what its words promise, and the loader refuses what does nothing."""
from __future__ import annotations

import pytest

from kernel.effects import Field, Primitive, Registry, amount, one_of
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
              "add-dice", "reroll", "companion", "manual", "engage", "draw-item", "hex-die"}
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


def test_prevent_now_only_guards_yourself():
    full, problems = REGISTRY.validate({"type": "prevent", "while": "now", "amount": 2, "target": "ally"})
    assert full is None and any("works only with while" in p for p in problems)
    assert REGISTRY.validate({"type": "prevent", "while": "active", "target": "ally"})[1] == []


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
    from rulesets.tes.battle.state import ItemDeck

    battle.item_decks = {"legendary": ItemDeck(draw=["loyal-hound"])}
    c = ctx(battle)
    eff = effect({"type": "draw-item", "rarity": "legendary"})
    assert describe(eff) == "draw 1 legendary item"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert "loyal-hound" in c.adv("S").ready and battle.item_decks["legendary"].draw == []


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
    """The Dragonknight's Dragon Leap: the free move is applied; the damage after it is the party's to apply."""
    c = ctx(battle)
    leap = next(a for a in c.pack.classes["dragonknight"].novice.abilities if a.id == "dragon-leap")
    assert [e["type"] for e in leap.effects] == ["move", "manual"]
    run_effects(Use(c, c.unit("a:S"), "Dragon Leap"), leap.effects, manual=leap.manual, text=leap.text)
    assert c.b["turn"]["free_move"] == 3 and c.b["turn"]["free_through"] is True
    assert c.events[-1].kind == "manual" and "1 damage to each adjacent enemy" in c.events[-1].text


def test_engage_grants_an_engage_without_fatigue(battle):
    c = ctx(battle)
    eff = effect({"type": "engage"})
    assert describe(eff) == "you may engage once without gaining fatigue for it"
    assert describe(effect({"type": "engage", "target": "ally", "dice": 2})) == \
        "an ally (or you) may engage once without gaining fatigue for it, rolling up to 2 skill dice"
    run_effects(Use(c, c.unit("a:S"), "Test"), [eff])
    assert c.b.turn.more["granted"]["S"]["source"] == "Test"
