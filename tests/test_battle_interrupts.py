"""Interrupt class abilities (rulebook page 25) against an enemy's engage, in automatic and asked prevention."""
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


def test_runic_ward_is_used_automatically_only_when_hp_would_be_lost():
    s = _spellsworn()
    c = ctx(s)
    bandit = c.unit("e1")
    taken = harm.damage_adventurer(c, "S", 3, source=bandit, label="Bandit")
    adv = s.adventurers["S"]
    assert taken == 0 and adv.hp == 5 and adv.tenacity == 0
    t = texts(c.events)
    assert "Interrupt" in t and "Runic Ward" in t and t.index("Interrupt") < t.index("is dealt 3")
    # once per turn: the next hit in the same turn finds no interrupt
    adv.tenacity = 3
    harm.damage_adventurer(c, "S", 2, source=bandit)
    assert adv.hp == 3 and adv.tenacity == 3


def test_no_interrupt_when_active_dice_cover_the_damage_or_tenacity_is_short():
    s = _spellsworn()
    adv = s.adventurers["S"]
    adv.active = [{"die": "d3", "owner": "S", "icon": "block", "value": 3, "label": "Shield", "line":
                   "one-hand-and-shield", "prevent": True, "spend": "remove"}]
    adv.away = ["d3"]
    c = ctx(s)
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"))
    assert adv.tenacity == 3 and adv.hp == 5 and "Interrupt" not in texts(c.events)
    s = _spellsworn(tenacity=2)
    c = ctx(s)
    harm.damage_adventurer(c, "S", 2, source=c.unit("e1"))
    assert s.adventurers["S"].hp == 3  # 2 tenacity cannot pay for Runic Ward (3)
    # damage that is not an enemy's (bane, fatigue) never triggers it
    s = _spellsworn()
    c = ctx(s)
    harm.damage_adventurer(c, "S", 2, label="Bane")
    assert s.adventurers["S"].tenacity == 3


def test_interrupt_is_offered_when_asked():
    s = _spellsworn()
    s.settings["prevention"] = {"S": "ask"}
    c = ctx(s)
    sources = harm.prevention_sources(c, "S", enemy_engage=True)
    assert [x["key"] for x in sources] == ["interrupt:runic-ward"]
    assert "tenacity, interrupt" in sources[0]["label"]


def test_an_enemy_turn_uses_the_interrupt():
    s = _spellsworn()
    s.battle["units"]["e1"].update(q=-1, r=2)  # next to Shannon
    s.adventurers["S"].hp = 2  # the weakest: the bandit's priority
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R", forced=[6, 6, 6, 6, 6, 6])
    t = texts(ev)
    assert "Interrupt: Shannon spends 3 tenacity on Runic Ward" in t
    assert s.adventurers["S"].tenacity == 0
