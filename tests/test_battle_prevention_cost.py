"""Automatic prevention spends the cheapest prevention first and says what it spent."""
from __future__ import annotations

from battle_helpers import ctx, jailbreak, party, run, texts

from rulesets.tes.battle import harm


def _spellsworn(tenacity=3):
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    adv = s.adventurers["S"]
    adv.class_id, adv.tenacity, adv.hp = "spellsworn", tenacity, 5
    adv.active = []
    return s


def _shield(adv, value=1):
    adv.active = [{"die": "d3", "owner": "S", "icon": "block", "value": value, "label": "Shield", "line":
                   "one-hand-and-shield", "prevent": True, "spend": "remove"}]
    adv.away = ["d3"]


def test_a_die_stops_one_damage_and_the_tenacity_stays():
    s = _spellsworn()
    adv = s.adventurers["S"]
    _shield(adv, 1)
    c = ctx(s)
    harm.damage_adventurer(c, "S", 1, source=c.unit("e1"), label="Bandit")
    assert adv.tenacity == 3 and adv.hp == 5
    assert "Shield 1 (active) prevents 1 (the die is spent)" in texts(c.events)


def test_bonus_hp_takes_the_blow_before_tenacity_is_spent():
    """An enemy turn with forced dice: 2 damage, 2 bonus HP: Runic Ward (3 tenacity) is kept."""
    s = _spellsworn()
    s.battle["units"]["e1"].update(q=-1, r=2)  # next to Shannon
    s.adventurers["S"].hp = 2  # the weakest: the bandit's priority
    s.adventurers["S"].bonus_hp = 2
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R", forced=[6, 6, 6, 6, 6, 6])
    adv = s.adventurers["S"]
    assert "Interrupt" not in texts(ev)
    assert adv.tenacity == 3 and adv.hp == 2 and adv.bonus_hp == 0
    assert "2 bonus HP lost" in texts(ev)


def test_interrupt_says_what_it_spent():
    s = _spellsworn()
    c = ctx(s)
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"), label="Bandit")
    assert "Runic Ward (3 tenacity, interrupt) prevents 2 (tenacity 3 → 0)" in texts(c.events)


def test_cheapest_interrupt_that_covers_the_rest():
    sources = [
        {"kind": "interrupt", "key": "interrupt:big", "cost": 3, "value": 3, "prevent": 3},
        {"kind": "interrupt", "key": "interrupt:small", "cost": 1, "value": 1, "prevent": 1},
    ]
    assert harm.auto_choice(sources, 1, tenacity=3) == ["interrupt:small"]
    assert harm.auto_choice(sources, 3, tenacity=3) == ["interrupt:big"]
    # never more tenacity than there is: 3 damage with 3 tenacity takes the big one only
    assert harm.auto_choice(sources, 4, tenacity=3) == ["interrupt:big"]
    assert harm.auto_choice(sources, 1, cushion=1, tenacity=3) == []
