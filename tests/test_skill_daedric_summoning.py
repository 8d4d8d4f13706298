"""The Daedric Summoning skill line, every icon played as its text says (forced dice)."""
from __future__ import annotations

from battle_helpers import ctx, jailbreak, run, texts

from engine.hexes import Hex, distance
from rulesets.tes.battle import harm
from rulesets.tes.content import load_pack
from rulesets.tes.state import RULES


def _summoner(extra=()):
    """Shannon (One Hand and Shield) and Ryan, a Dark Elf who started on Daedric Summoning; Ryan's turn."""
    s, _ = run(None, "campaign.new", "S", {"name": "Pacts", "difficulty": "adept", "pack": "starter",
                                           "channel_id": "c", "guild_id": "g", "seed": 7,
                                           "pack_version": load_pack("starter").content_hash, "rules": RULES})
    s, _ = run(s, "adventurer.create", "S", {"name": "Shannon", "race": "argonian", "line": "one-hand-and-shield"})
    s, _ = run(s, "campaign.join", "R")
    s, _ = run(s, "adventurer.create", "R", {"name": "Ryan", "race": "dark-elf", "line": "daedric-summoning",
                                             "form": "magic"})
    for n, die in enumerate(extra, start=90):
        s.adventurers["R"].dice[f"d{n}"] = {"type": die, "line": "daedric-summoning", "level": 2}
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.battle["units"]["e1"].update(q=0, r=2, enemy="argonian-bandit", name="Argonian Bandit", hp=5, max_hp=5)
    s, _ = run(s, "battle.endturn", "S")
    return s


def _roll(s, dice, forced):
    s, ev = run(s, "battle.engage", "R", {"form": "magic", "dice": dice, "target": "e1"}, forced=forced)
    s, ev2 = run(s, "battle.resolve", "R", {})
    return s, texts(ev) + "\n" + texts(ev2)


def _lesser(s):
    return [d for d, v in s.adventurers["R"].dice.items() if v["type"] == "lesser-calling"]


def test_a_starting_summoner_has_two_lesser_calling_dice():
    s = _summoner()
    assert len(_lesser(s)) == 2


def test_conjure_a_scamp_next_to_you():
    s = _summoner()
    s, words = _roll(s, "lesser-calling", [1])  # face 1: conjure
    scamp = next(u for u in s.battle["units"].values() if u.get("companion") == "summoned-scamp")
    me = s.battle["units"]["a:R"]
    assert scamp["controller"] == "R" and not scamp["keep"]
    assert distance(Hex(scamp["q"], scamp["r"]), Hex(me["q"], me["r"])) == 1  # beside its summoner
    assert "Summoned Scamp joins" in words


def test_scorch_deals_its_number():
    s = _summoner()
    s, words = _roll(s, "lesser-calling", [2])  # face 2: 1 scorch
    assert s.battle["units"]["e1"]["hp"] == 4 and "is dealt 1 damage" in words


def test_pact_waits_in_the_cooldown_track_and_prevents_once():
    s = _summoner()
    s, _ = _roll(s, "lesser-calling", [4])  # face 4: 1 pact
    ryan = s.adventurers["R"]
    entry = next(e for e in ryan.cooldown if e.get("icon") == "pact")
    assert entry["value"] == 1
    c = ctx(s)
    hp = ryan.hp
    taken = harm.damage_adventurer(c, "R", 2, source=c.unit("e2"), label="Bandit")
    assert taken == 1 and s.adventurers["R"].hp == hp - 1  # the pact's 1 prevented
    assert "the die is spent" in texts(c.events) and "icon" not in entry  # it stays exhausted, its effect gone
    taken = harm.damage_adventurer(c, "R", 1, source=c.unit("e2"), label="Bandit")
    assert taken == 1


def test_dread_places_the_die_on_the_target_as_fear():
    s = _summoner(extra=["binding-sigil"])
    s, words = _roll(s, "binding-sigil", [1])  # face 1: dread
    e1 = s.battle["units"]["e1"]
    assert "fear" in e1["statuses"] and e1["status_dice"]["fear"]["owner"] == "R"
    assert "d90" in s.adventurers["R"].placed


def test_call_brings_a_clannfear_and_drains_the_die():
    s = _summoner(extra=["greater-calling"])
    s, words = _roll(s, "greater-calling", [1])  # face 1: call
    fear = next(u for u in s.battle["units"].values() if u.get("companion") == "summoned-clannfear")
    assert fear["controller"] == "R" and fear["hp"] == 4
    assert "d90" in s.adventurers["R"].drained


def test_summons_leave_with_the_battle():
    s = _summoner()
    s, _ = _roll(s, "lesser-calling", [1])
    assert not s.companions  # a summoned daedra never stays with the party
