"""The rulebook's worked battle examples, reproduced with forced dice (see docs/rules-notes.md)."""
from __future__ import annotations

from battle_helpers import ctx, jailbreak, party, run, texts

from rulesets.tes.battle import harm, pool
from engine.hexes import Hex


def test_enemy_pool_ep8_draws_one_level5_and_three_level1():
    assert pool.enemy_pool(4, 2) == 8
    assert pool.plan_levels(8, 10) == [5, 1, 1, 1]
    assert pool.plan_levels(8, 2) == [5, 1]  # unused points are lost when the hexes run out
    assert pool.plan_levels(31, 10) == [20, 10, 1]


def test_session_two_table_lookup():
    assert pool.session_pool(2, "adept", 2) == 58
    assert pool.session_pool(1, "apprentice", 3) == 42
    assert pool.session_pool(3, "expert", 4) == 152


def test_clash_setup_example():
    s = party()
    s, _ = jailbreak(s)
    b = s.battle
    assert b["round"] == 1 and b["order"] == ["S", "R"]
    e1, e2 = b["units"]["e1"], b["units"]["e2"]
    assert (e1["enemy"], e1["slot"], e1["level"]) == ("high-elf-bandit", 1, 1)
    assert (e2["enemy"], e2["slot"]) == ("argonian-bandit", 2)
    assert e1["hp"] == 3 and e2["hp"] == 3
    assert len([u for u in b["units"].values() if u["side"] == "enemy"]) == 2  # EP 1 x 2 adventurers
    ent = sorted(ctx(s).map.entrance)
    sh, ry = b["units"]["a:S"], b["units"]["a:R"]
    assert Hex(sh["q"], sh["r"]) in ent and Hex(ry["q"], ry["r"]) in ent
    assert s.adventurers["S"].battle_form == "light" and s.adventurers["R"].battle_form == "magic"
    assert b["turn"]["owner"] == "S" and b["achievements"]["first-turn"] == "S"


def test_adventurer_turn_example():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, ev = run(s, "battle.move", "S", {"to": "0,2"})
    assert (s.battle["units"]["a:S"]["q"], s.battle["units"]["a:S"]["r"]) == (0, 2)
    # two Shield Discipline "1 damage" results and a tenacity result on the Combat die
    s, ev = run(s, "battle.engage", "S", {"target": "High Elf Bandit", "dice": "2 shield-discipline, combat"},
                forced=[1, 2, 5])
    assert s.battle["pending"]
    s, ev = run(s, "battle.resolve", "S", {})
    t = texts(ev)
    assert "Dodge prevents 1" in t
    assert s.battle["units"]["e1"]["hp"] == 2  # 2 damage dealt, Dodge removes 1
    sh = s.adventurers["S"]
    assert [e["label"] for e in sh.active] == ["Shield Discipline", "Shield Discipline"]
    assert all(e["value"] == 1 for e in sh.active)
    assert sh.tenacity == 1
    assert len(sh.cooldown) == 1
    assert sh.dice[sh.cooldown[0]["die"]]["line"] == "combat"
    s, _ = run(s, "battle.endturn", "S")
    assert s.battle["turn"]["owner"] == "R"


def _enemy_turn_setup():
    """Both adventurers end their turns with the Argonian Bandit alone and out of range."""
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "High Elf Bandit", "dice": "2 shield-discipline, combat"},
               forced=[1, 2, 5])
    s, _ = run(s, "battle.resolve", "S", {})
    s, _ = run(s, "battle.endturn", "S")
    # Ryan braces with two Combat dice in defensive form
    s, _ = run(s, "battle.engage", "R", {"form": "defensive", "dice": "2 combat"}, forced=[1, 2])
    s, _ = run(s, "battle.resolve", "R", {})
    # the High Elf Bandit is gone in the book's example; take it off the map
    e1 = s.battle["units"]["e1"]
    e1.update(defeated=True, q=None, r=None, hp=0)
    ryan = s.battle["units"]["a:R"]
    ryan["q"], ryan["r"] = 1, 1
    return s


def test_enemy_turn_example():
    s = _enemy_turn_setup()
    s.adventurers["R"].hp = 4
    s.adventurers["S"].hp = 4  # both adventurers at 4 HP as in the book
    s, _ = run(s, "battle.prevention", "S", {"mode": "ask"})
    s, ev = run(s, "battle.endturn", "R", forced=[5])  # the Bandit's one Combat die rolls 2 damage
    t = texts(ev)
    bandit = s.battle["units"]["e2"]
    assert "Argonian Bandit moves 4,1 → 3,1" in t  # one hex, then it stops: targets in range
    assert "engages Shannon and Ryan" in t  # two targets, tied on HP: earlier in turn order first
    # Shannon is asked; she spends one Shield Discipline die and takes 1
    assert s.battle["await"]["owner"] == "S"
    s, ev = run(s, "battle.prevent", "S", {"use": "1"})
    t = texts(ev)
    sh, ry = s.adventurers["S"], s.adventurers["R"]
    assert sh.hp == 3 and len(sh.active) == 1
    assert ry.hp == 4 and ry.active == []  # both Combat dice spent to prevent 2
    assert sum(1 for e in ry.cooldown if e.get("die")) == 2
    # Enfeeble 1: each engaged adventurer gains light fatigue
    assert sum(1 for e in sh.cooldown if e.get("fatigue") == "light") == 1
    assert sum(1 for e in ry.cooldown if e.get("fatigue") == "light") == 1
    assert s.battle["round"] == 2 and s.battle["turn"]["owner"] == "S"
    assert bandit["q"] == 3


def test_preventing_damage_example():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    sh = s.adventurers["S"]
    # Shield Discipline showing 2 in an active slot, Resolve showing 2 in the cooldown track
    sd = next(d for d, v in sh.dice.items() if v["type"] == "shield-discipline")
    sh.dice["d90"] = {"type": "resolve", "line": "heavy-armor", "level": 1}
    sh.active.append({"die": sd, "owner": "S", "icon": "damage", "value": 2, "label": "Shield Discipline",
                      "line": "one-hand-and-shield", "prevent": True, "spend": "remove"})
    sh.away.append(sd)
    sh.cooldown.append({"die": "d90", "icon": "resolve", "value": 2})
    c = ctx(s)
    enemy = c.unit("e1")
    taken = harm.damage_adventurer(c, "S", 3, source=enemy, label="Enemy")
    assert taken == 0 and sh.hp == 5
    assert sh.active == [] and sd not in sh.away
    assert [e.get("die") for e in sh.cooldown] == ["d90", sd]  # Resolve stays, Shield Discipline exhausted
    t = texts(c.events)
    assert t.index("Resolve 2") < t.index("Shield Discipline 2")
