"""Every class and race ability of the starter pack, played: each one's effects change the state as its
card says, or (manual) the bot shows its text for the party to apply.  An ability without a test fails."""
from __future__ import annotations

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from rulesets.tes.battle import enemy, harm, track
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle_state import EnemyTurn, Hit
from rulesets.tes.content import load_pack
from engine.core import RuleError

PACK = load_pack("starter")
OWN_TURN = ("your turn", "start of your turn", "end of your turn", "any time", "when you defeat an enemy")
INTERRUPTS = ("when an enemy engages you",)
#: Tested one by one in test_battle_abilities.py (innates, enduring, race abilities, granted engages).
PLAYED_ELSEWHERE = {
    "class:acrobat:poise", "class:pilgrim:steadfast", "class:dragonknight:scaled-armor",
    "race:high-elf", "race:breton", "race:nord", "race:wood-elf", "race:argonian", "race:khajiit",
    "race:dark-elf", "class:scout:quick-shot", "class:scout:mark-target",
    # guards of an ally and free moves during an enemy's turn: test_battle_reactions.py
    "class:warden:glacial-shield", "class:knight:shield-wall",
    "class:rogue:slip-away", "class:archer:fall-back",
}
for k in PACK.classes.values():
    PLAYED_ELSEWHERE.add(f"innate:{k.id}")  # every innate: test_battle_abilities.py (timing tests)


def class_cards():
    out = []
    for k in PACK.classes.values():
        for side_name in ("novice", "master"):
            side = getattr(k, side_name)
            for ab in side.abilities:
                out.append(pytest.param(k.id, side_name, ab, id=f"{k.id}-{side_name}-{ab.id}"))
    return out


def _prepare(klass, side, ab):
    s = party()
    adv = s.adventurers["S"]
    adv.class_id, adv.class_side, adv.tenacity = klass, side, 5
    adv.battle_form = ab.form or ("magic" if "in range" in ab.text else "light")
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    adv = s.adventurers["S"]
    c = ctx(s)
    e1 = s.battle.units["e1"]
    e1.q, e1.r = (0, 2) if adv.battle_form == "ranged" else (-1, 2)
    e1.hp = e1.max_hp = 30  # it outlives the damage, so a status it gains can be seen
    adv.hp, s.adventurers["R"].hp = 2, 2
    notes: list[str] = []
    track.exhaust(adv, "d2", c.track_size, notes)
    track.gain_fatigue(adv, "light", 1, c.track_size, party=s.adventurers.values(), supply=c.pack.supply)
    status_rules.give(c, s.battle.units["a:S"], "bane", "Test")
    status_rules.give(c, s.battle.units["a:R"], "bane", "Test")
    s.battle.turn.free_move = 0
    return s


def _snapshot(s):
    adv, ryan, e1 = s.adventurers["S"], s.adventurers["R"], s.battle.units["e1"]
    return {"hp": adv.hp, "r_hp": ryan.hp, "bonus": adv.bonus_hp, "r_ten": ryan.tenacity, "e_hp": e1.hp,
            "track": len(adv.cooldown), "light": track.count(adv, fatigue="light"),
            "items": len(adv.ready) + len(adv.pack),
            "free": s.battle.turn.free_move}


@pytest.mark.parametrize("klass,side,ab", class_cards())
def test_class_ability_card(klass, side, ab):
    key = f"class:{klass}:{ab.id}"
    if ab.keyword == "enduring" or key in PLAYED_ELSEWHERE:
        assert key in PLAYED_ELSEWHERE or ab.manual
        return
    s = _prepare(klass, side, ab)
    before = _snapshot(s)
    if ab.timing in INTERRUPTS:
        c = ctx(s)
        adv = s.adventurers["S"]
        adv.active = []
        enemy.hit(c, EnemyTurn(uid="e1"), Hit(target="a:S", amount=3))
        assert adv.tenacity == 5 - ab.cost, f"{ab.name}: the interrupt was not used"
        assert adv.hp + adv.bonus_hp > before["hp"] - 3 + before["bonus"] or adv.hp == before["hp"]
        return
    args = {"name": ab.id}
    from rulesets.tes.battle.abilities import needs_ally, needs_target

    if needs_target(ab):
        args["target"] = "HEB1"
    elif needs_ally(ab):
        args["target"] = "Ryan"
    types = [e["type"] for e in ab.effects]
    if ab.timing == "when you defeat an enemy":  # it is used on the turn you defeat one
        with pytest.raises(RuleError, match="when you defeat an enemy"):
            run(s, "battle.ability", "S", dict(args))
        harm.damage_enemy(ctx(s), "e2", 20, true=True, by="S")
        before = _snapshot(s)
    if "form" in types:
        args["form"] = "magic"
    if "move" in types and types.index("move") < len(types) - 1:  # it moves you, then does more: to: is needed
        with pytest.raises(RuleError, match="to:"):
            run(s, "battle.ability", "S", dict(args))
        args["to"] = [0, 2]  # through the High Elf Bandit at -1,2
    if "revive" in types:
        harm.defeat_adventurer(ctx(s), "R")
        args["target"] = "Ryan"
    s, ev = run(s, "battle.ability", "S", args)
    words = texts(ev)
    after = _snapshot(s)
    assert s.adventurers["S"].tenacity == 5 - ab.cost
    if ab.manual:
        assert ab.text in words and "apply this yourselves" in words
        return
    for eff in ab.effects:
        t, who = eff["type"], eff.get("target")
        if t == "damage" and who == "self":
            assert after["hp"] < before["hp"] or "is dealt" in words
        elif t == "damage":
            assert "is dealt" in words and after["e_hp"] <= before["e_hp"]
        elif t == "heal":
            assert (after["r_hp"] > before["r_hp"]) if who in ("ally", "allies-in-range") else after["hp"] > before["hp"]
        elif t == "bonus-hp":
            assert after["bonus"] > before["bonus"]
        elif t == "tenacity":
            assert after["r_ten"] > before["r_ten"]
        elif t == "status":
            unit = s.battle.units["a:S"] if who == "self" else s.battle.units["e1"]
            assert ctx(s).has(unit, eff["status"]), f"{ab.name}: no {eff['status']}"
        elif t == "move" and "to" in args:
            me = s.battle.units["a:S"]
            assert [me.q, me.r] == args["to"] and "(through units)" in words
        elif t == "move":
            assert after["free"] >= eff["amount"]
        elif t == "form":
            assert s.adventurers["S"].battle_form == "magic" and after["light"] == before["light"]
        elif t == "reroll":
            assert "no roll of yours waiting" in words
        elif t == "revive":
            ryan = s.battle.units["a:R"]
            assert not ryan.defeated and s.adventurers["R"].hp == eff["amount"] and ryan.q is not None
        elif t == "challenge":
            assert s.battle.more["challenges"] == {"e1": "a:S", "e2": "a:S"} or \
                s.battle.more["challenges"].get("e1") == "a:S"
        elif t == "recover":
            assert "recovers" in words
        elif t == "fatigue":
            assert after["light"] > before["light"] or "gains 1 light fatigue" in words
        elif t == "pierce":
            assert "ignoring" in ab.text or "defense" in ab.text.lower()
        elif t == "add-dice":
            assert s.battle.turn.more["extra_dice"]["S"] == eff["amount"]
        elif t == "manual":
            assert eff["text"] in words
        elif t == "draw-item":  # the card is drawn from the item decks into the inventory
            assert after["items"] == before["items"] + eff.get("amount", 1), f"{ab.name}: no item drawn"
        else:
            pytest.fail(f"{ab.name}: no check for a {t} effect")


@pytest.mark.parametrize("race", [r for r in PACK.races if f"race:{r}" not in PLAYED_ELSEWHERE])
def test_race_ability_card(race):
    s = party()
    s.adventurers["S"].race = race
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    adv = s.adventurers["S"]
    c = ctx(s)
    track.gain_fatigue(adv, "light", 3, c.track_size, party=s.adventurers.values(), supply=c.pack.supply)
    ab = PACK.races[race].ability
    before = (adv.tenacity, track.count(adv, fatigue="light"))
    s, ev = run(s, "battle.ability", "S", {"name": "race"})
    adv = s.adventurers["S"]
    assert adv.race_ability_used
    for eff in ab.effects:
        t = eff["type"]
        if t == "tenacity":
            assert adv.tenacity == before[0] + eff["amount"]
        elif t == "recover":
            assert track.count(adv, fatigue="light") < before[1]
        elif t == "move":
            assert s.battle.turn.free_move == eff["amount"]
        elif t == "add-dice":
            assert s.battle.turn.more["extra_dice"]["S"] == eff["amount"]
        else:
            pytest.fail(f"{ab.name}: no check for a {t} effect")
    with pytest.raises(Exception, match="once per battle"):
        run(s, "battle.ability", "S", {"name": "race"})


def test_every_ability_of_the_pack_has_a_test():
    """Lists any class or race ability (or innate) this file or test_battle_abilities.py does not play."""
    import inspect
    import test_battle_abilities as played
    import test_battle_reactions as reactions

    source = inspect.getsource(played) + inspect.getsource(reactions)
    missing = []
    for k in PACK.classes.values():
        if k.novice.innate.name not in source and f'"{k.id}"' not in source:
            missing.append(f"{k.name}'s innate {k.novice.innate.name}")
    for r in PACK.races.values():
        key = f"race:{r.id}"
        if key in PLAYED_ELSEWHERE and f'"{r.id}"' not in source:
            missing.append(f"{r.name}'s {r.ability.name}")
    assert not missing, "abilities without a test: " + ", ".join(missing)
