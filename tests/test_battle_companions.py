"""Companions (rulebook pages 90-91): joining, deployment, their turns, being hit and defeated, statuses."""
from __future__ import annotations

from rulesets.tes.battle_state import CompanionEntry

from battle_helpers import ctx, party, run, texts

from rulesets.tes.battle import harm, status
from rulesets.tes.battle.model import on_map

HEXES = {"S": "-2,2", "R": "-2,1"}


def _draws(*enemy_ids: str) -> list[int]:
    """The bag rolls that draw these level 1 enemies in order (the bag of a battle outside a session: every
    level 1 chip without a province code, sorted)."""
    from rulesets.tes.content import load_pack

    pack = load_pack("starter")
    chips = sorted({e.chip for e in pack.enemies.values() if e.level == 1 and not e.quest_unit and e.province is None})
    rolls = []
    for eid in enemy_ids:
        chip = pack.enemies[eid].chip
        rolls.append(chips.index(chip) + 1)
        chips.remove(chip)
    return rolls


def _contract(ep=2):
    """The Sellsword's Contract with a Redguard Bandit in hex 1 (4,1) and a Spriggan in hex 2."""
    s = party()
    return run(s, "battle.start", "S", {"encounter": "sellsword-contract", "ep": ep, "hexes": HEXES},
               forced=_draws("redguard-bandit", "spriggan"))


def test_the_encounter_companion_joins_on_the_entrance_for_the_party():
    s, ev = _contract()
    c1 = s.battle["units"]["c1"]
    assert c1["side"] == "companion" and c1["owner"] is None and c1["controller"] == "S" and c1["party"]
    assert (c1["q"], c1["r"]) == (-3, 3) and c1["hp"] == c1["max_hp"] == 5
    assert "Hired Sellsword joins the party" in texts(ev) and "controlled by the party" in texts(ev)
    assert s.companions == []  # only for this battle


def test_companion_turns_come_after_the_adventurers_and_before_the_enemies():
    s, _ = _contract()
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R")
    t = texts(ev)
    assert t.index("Ryan ends the turn") < t.index("Hired Sellsword's turn") < t.index("Redguard Bandit")


def test_companion_engages_the_weakest_target_and_defense_applies():
    s, _ = _contract()
    e1 = s.battle["units"]["e1"]
    c1 = s.battle["units"]["c1"]
    c1.update(q=3, r=2)  # next to the bandit in 4,1
    e1["hp"] = 2
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R", forced=[6, 6] + [1] * 10)  # 2 + 2 damage
    t = texts(ev)
    assert "Hired Sellsword engages Redguard Bandit" in t and "= 4 damage each" in t
    assert s.battle["units"]["e1"]["defeated"]
    assert not any(k.startswith("defeat-") for k in s.battle["achievements"])  # companions earn no achievements


def test_enemies_target_companions_and_a_defeated_lasting_companion_leaves_the_party():
    s = party()
    s.companions = [CompanionEntry(id="war-hound", controller="R")]
    s, ev = run(s, "battle.start", "S", {"encounter": "sellsword-contract", "ep": 2, "hexes": HEXES})
    hound = next(u for u in s.battle["units"].values() if u.get("companion") == "war-hound")
    assert hound["keep"] and hound["controller"] == "R"
    c = ctx(s)
    harm.damage_enemy(c, hound["id"], 3, label="Bandit")
    assert hound["defeated"] and not on_map(hound)
    assert s.companions == [] and "leaves the party for good" in texts(c.events)
    assert "war-hound" not in s.battle.get("defeated_stack", [])


def test_an_enemy_engage_can_hit_a_companion():
    s, _ = _contract()
    units = s.battle["units"]
    e1, c1 = units["e1"], units["c1"]
    c1.update(q=3, r=2)  # next to the bandit in 4,1
    c1["hp"] = 1
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R", forced=[1, 1] + [6] * 10)
    t = texts(ev)
    assert "Redguard Bandit engages Hired Sellsword" in t
    assert s.battle["units"]["c1"]["defeated"] and "leaves the party for good" in t


def test_item_brings_a_companion_for_its_holder_and_statuses_do_not_stack():
    s = party()
    s.adventurers["R"].ready = ["war-hound-lead"]
    s, ev = run(s, "battle.start", "S", {"encounter": "sellsword-contract", "ep": 2, "hexes": HEXES})
    hound = next(u for u in s.battle["units"].values() if u.get("companion") == "war-hound")
    assert hound["controller"] == "R" and not hound["party"] and not hound["keep"]
    assert "controlled by Ryan" in texts(ev)
    c = ctx(s)
    assert status.give(c, hound, "bane", "Venomous")
    assert not status.give(c, hound, "bane", "Venomous")
    assert hound["statuses"] == ["bane"]


def test_a_companion_waits_beside_a_full_entrance_and_enters_later():
    s = party()
    s, _ = run(s, "battle.start", "S", {"encounter": "sellsword-contract", "ep": 2, "hexes": HEXES})
    c = ctx(s)
    from rulesets.tes.battle import companion
    for i in range(6):
        companion.join(c, "war-hound", "S")
    waiting = [u for u in c.b["units"].values() if u["side"] == "companion" and u["q"] is None]
    assert waiting and "waits beside it" in texts(c.events)
