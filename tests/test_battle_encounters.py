"""Encounter rules: end-of-round triggers, challenge modifiers, special rules, lettered hexes."""
from __future__ import annotations

import dataclasses

from battle_helpers import party, run, texts
from rulesets.tes.battle.model import map_info
from rulesets.tes.content import load_pack
from rulesets.tes.content.records import Trigger


def three():
    s = party()
    s, _ = run(s, "campaign.join", "T")
    s, _ = run(s, "adventurer.create", "T", {"name": "Tova", "race": "nord", "line": "one-hand-and-shield"})
    return s


def end_round(s):
    """Every adventurer still in the battle ends the turn; returns the events of the last one."""
    ev = []
    no = s.battle.round
    while s.battle is not None and s.battle.round == no and not s.battle.asking:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner)
    return s, ev


def test_end_of_round_trigger_fires_every_round(monkeypatch):
    pack = load_pack("starter")
    enc = pack.encounters["crypt-of-bones"]
    tr = Trigger("end of round", "Each adventurer gains 1 tenacity.",
                 ({"type": "tenacity", "amount": 1, "target": "self"},))
    monkeypatch.setitem(pack.encounters, "crypt-of-bones", dataclasses.replace(enc, triggers=(tr,)))
    s = party()
    s, _ = run(s, "battle.start", "S", {"encounter": "crypt-of-bones", "ep": 0, "hexes": {"S": "-2,2", "R": "-2,1"}})
    for rnd in (1, 2):
        s, ev = end_round(s)
        said = texts(ev)
        assert "Crypt of Bones: Shannon gains 1 tenacity" in said, (rnd, said)
        assert "Crypt of Bones: Ryan gains 1 tenacity" in said
        assert s.battle.round == rnd + 1


def test_challenge_shown_and_applied_with_three():
    s = three()
    s, ev = run(s, "battle.start", "S", {"encounter": "spriggan-grove", "ep": 3})
    said = texts(ev)
    assert "3/4-adventurer challenge (in play)" in said and "heal 1 HP" in said and "The bot applies it" in said
    b = s.battle
    foe = next(u for u in b.units.values() if u.side == "enemy" and u.enemy != "spriggan")  # no regeneration
    foe.hp = foe.max_hp - 2
    s, ev = end_round(s)
    foe = s.battle.units[foe.id]
    assert foe.hp == foe.max_hp - 1
    assert f"(3/4-adventurer challenge): {foe.name} heals 1 HP" in texts(ev)


def test_challenge_not_in_play_with_two_and_manual_one_is_listed():
    s = party()
    s, ev = run(s, "battle.start", "S", {"encounter": "spriggan-grove", "ep": 2})
    assert "challenge (not in play with 2 adventurers)" in texts(ev)
    foe = next(u for u in s.battle.units.values() if u.side == "enemy" and u.enemy != "spriggan")
    foe.hp = foe.max_hp - 2
    s, ev = end_round(s)
    assert s.battle.units[foe.id].hp == foe.max_hp - 2
    s = three()
    s.pack_version = "82fc84b4cf862aa3"  # a campaign on the kept pack, where the Ambush challenge is text only
    s, ev = run(s, "battle.start", "S", {"encounter": "bandit-ambush", "ep": 3})
    assert "every enemy starts with 1 extra HP. The party applies it." in texts(ev)


def test_special_rules_shown_at_start():
    s = party()
    s, ev = run(s, "battle.start", "S", {"encounter": "sellsword-contract", "ep": 2})
    assert "Special rules: A Hired Sellsword joins the party" in texts(ev)


def test_named_enemy_takes_lettered_hex_for_free():
    s = party()
    s, ev = run(s, "battle.start", "S", {"encounter": "crypt-of-bones", "ep": 2}, forced=[1, 1, 1, 1])
    pack = load_pack("starter")
    m = map_info(pack, s.battle)
    foes = [u for u in s.battle.units.values() if u.side == "enemy"]
    warden = next(u for u in foes if u.enemy == "skeleton-warden")
    assert (warden.q, warden.r) == (m.labels["A"].q, m.labels["A"].r)
    others = sorted((u for u in foes if u is not warden), key=lambda u: u.slot)
    # the pool of 2 pays for two level 1 enemies in numbered hexes 1 and 2: the warden cost nothing
    assert [u.level for u in others] == [1, 1]
    assert [(u.q, u.r) for u in others] == [(m.slots[1].q, m.slots[1].r), (m.slots[2].q, m.slots[2].r)]
    assert "in hex A" in texts(ev) and "free of the pool" in texts(ev)
