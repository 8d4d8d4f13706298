"""Status effects as dice (rulebook pages 60 and 67): S-code dice on chips, no duplicates, quest units."""
from __future__ import annotations

from battle_helpers import ctx, jailbreak, party, run, texts

from rulesets.tes.battle import status


def _ryan_burns(forced_face=4):
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.adventurers["R"].dice["d99"] = {"type": "ember-rune", "line": "destruction-staff", "level": 2}
    s, _ = run(s, "battle.endturn", "S")
    s.battle["units"]["a:R"].update(q=0, r=2)
    s, _ = run(s, "battle.engage", "R", {"dice": "d99", "target": "e1", "form": "magic"}, forced=[forced_face])
    s, ev = run(s, "battle.resolve", "R", {})
    return s, ev


def test_status_code_die_is_placed_on_the_enemy_and_returns_when_it_is_defeated():
    s, ev = _ryan_burns()
    e1, ryan = s.battle["units"]["e1"], s.adventurers["R"]
    assert "die is placed on High Elf Bandit" in texts(ev)
    assert e1["statuses"] == ["bane"] and e1["status_dice"] == {"bane": {"owner": "R", "die": "d99"}}
    assert "d99" in ryan.placed and "d99" not in ryan.available_dice()
    assert ryan.die_location("d99") == "placed"
    assert not any(e.get("die") == "d99" for e in ryan.cooldown)
    c = ctx(s)
    from rulesets.tes.battle import harm
    harm.damage_enemy(c, "e1", 10, true=True)
    assert e1["defeated"] and ryan.placed == [] and {"die": "d99"} in ryan.cooldown
    assert "returns to Ryan's cooldown track" in texts(c.events)


def test_no_duplicates_on_a_chip_and_the_second_die_is_exhausted():
    s, _ = _ryan_burns()
    c = ctx(s)
    e1 = c.unit("e1")
    assert not status.give(c, e1, "bane", "Venom")  # a supply die: already has bane
    assert e1["statuses"] == ["bane"]
    assert status.give(c, e1, "daze", "Stagger") and e1["statuses"] == ["bane", "daze"]
    s.adventurers["R"].dice["d98"] = {"type": "ember-rune", "line": "destruction-staff", "level": 2}
    assert not status.give(c, e1, "bane", "Burn", die=("R", "d98"))
    assert "d98" not in s.adventurers["R"].placed
    # removing the S die's status sends the die back; a supply die just goes
    assert status.remove(c, e1, "bane", "Purge") and {"die": "d99"} in s.adventurers["R"].cooldown
    assert status.remove(c, e1, "daze") and e1["statuses"] == [] and e1["status_dice"] == {}


def test_quest_units_gain_no_status():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    c = ctx(s)
    warden = c.unit("e1")
    warden["quest"] = True  # the starter pack has no quest unit; treat the bandit as one
    assert not status.give(c, warden, "bane", "Burn", die=("R", "d3"))
    assert warden["statuses"] == [] and "quest unit" in texts(c.events)


def test_cloak_on_yourself_and_stealth_ends_after_dealing_damage():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    c = ctx(s)
    me = c.unit("a:S")
    s.adventurers["S"].dice["d90"] = {"type": "shadow-cloak", "line": "shadow", "level": 1}
    assert status.give(c, me, "stealth", "Shadow: cloak", die=("S", "d90"))
    assert c.has(me, "stealth") and "d90" in s.adventurers["S"].placed
    assert not status.give(c, me, "stealth", "Lurk")  # already on the chip
    from rulesets.tes.battle.engage import after_engage
    after_engage(c, me, {"engage": {"dealt": {"e1": 1}}, "target": None})
    assert not c.has(me, "stealth") and {"die": "d90"} in s.adventurers["S"].cooldown


def test_end_of_battle_returns_status_dice():
    s, _ = _ryan_burns()
    c = ctx(s)
    from rulesets.tes.battle import flow
    flow.cleanup(c)
    assert s.adventurers["R"].placed == [] and {"die": "d99"} in s.adventurers["R"].cooldown
