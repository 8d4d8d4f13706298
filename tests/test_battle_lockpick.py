"""Caches and lockpicking (rulebook pages 68-70), with forced dice."""
from __future__ import annotations

from rulesets.tes.battle_state import ItemDeck

import pytest
from battle_helpers import jailbreak, party, run, said, texts

from rulesets.tes.battle import inventory
from rulesets.tes.battle import lockpick as lp
from engine.core import RuleError

COMMON = ["iron-sword", "healing-draught", "leather-cap"]


def _at_cache(decks=None):
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.item_decks = decks or {"common": ItemDeck(draw=list(COMMON))}
    s, ev = run(s, "battle.move", "S", {"path": "-1,2 -1,3 0,3"})
    return s, ev


def test_match_rules():
    # common 5-2-2: any order
    r = lp.match([5, 2, 2], [], [], [1, 2, 2])
    assert not r["success"] and sorted(r["matched"]) == [1, 2]
    assert lp.default_keep([5, 2, 2], [], r) == [1, 2]
    assert lp.match([5, 2, 2], [], [], [2, 5, 2])["success"]
    # legendary 6*-5-2-3: the key digit comes first and stays matched
    r = lp.match([6, 5, 2, 3], [0], [], [4, 2, 2])
    assert not r["keys_done"] and r["matched"] == {} and lp.default_keep([6, 5, 2, 3], [0], r) == []
    r = lp.match([6, 5, 2, 3], [0], [], [6, 2, 2])
    assert r["locked"] == [0] and r["keys_done"] and 2 in r["matched"]
    assert lp.default_keep([6, 5, 2, 3], [0], r) == [1]  # one 2 kept, the 6 may be rolled again
    assert lp.match([6, 5, 2, 3], [0], [0], [5, 2, 3])["success"]


def test_common_item_lockpick_example():
    """Code 5-2-2, 3 attempts: roll 1 2 3, turn the 3 into a 2, keep the 2s, reroll a 3, turn it into a 5."""
    s, ev = _at_cache()
    assert "cache" in texts(ev) and "/lockpick" in texts(ev)
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    t = said(ev)
    assert "5-2-2" in t and "3 attempts" in t and "1: **1**, 2: **2**, 3: **3**" in t
    with pytest.raises(RuleError, match="lockpick"):
        run(s, "battle.endturn", "S")
    with pytest.raises(RuleError, match="only they"):
        run(s, "battle.lockpick", "R", {"adjust": "1=5"})
    light = sum(1 for e in s.adventurers["S"].cooldown if e.get("fatigue") == "light")
    s, ev = run(s, "battle.lockpick", "S", {"adjust": "3=2", "keep": "2,3"}, forced=[3])
    t = said(ev)
    assert "1 light fatigue" in t and "Attempt 2 of 3" in t and "1: **3**, 2: **2**, 3: **2**" in t
    s, ev = run(s, "battle.lockpick", "S", {"adjust": "1=5"})
    t = texts(ev)
    adv = s.adventurers["S"]
    assert "2 light fatigue" in t and "opens the lock" in t
    assert sum(1 for e in adv.cooldown if e.get("fatigue") == "light") == light + 3
    assert adv.ready == ["iron-sword"]
    assert s.battle["achievements"]["cache-lockpick"] == "S"
    assert s.battle["caches"] == {} and s.battle["lockpick"] is None
    assert s.item_decks["common"].draw == COMMON[1:]
    # she moved 3 of her 3 hexes: nothing of the move is left
    assert not s.battle["turn"].get("free_move")


def test_failed_check_discards_the_chip_and_cycles_the_card():
    s, _ = _at_cache()
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    assert "Attempt 3 of 3" in texts(ev)
    s, ev = run(s, "battle.lockpick", "S", {})
    assert "lock holds" in texts(ev)
    assert s.item_decks["common"].draw == COMMON[1:] + COMMON[:1]
    assert s.battle["caches"] == {} and "cache-lockpick" not in s.battle["achievements"]
    with pytest.raises(RuleError, match="not on a cache"):
        run(s, "battle.lockpick", "S", {})


def test_stop_and_leaving_the_cache_behind():
    s, _ = _at_cache()
    s2, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
    s2, ev = run(s2, "battle.lockpick", "S", {"stop": True})
    assert "gives up" in texts(ev) and s2.battle["caches"] == {}
    # another action first forfeits the check
    s3, _ = run(s, "battle.engage", "S", {"form": "defensive", "dice": "combat"}, forced=[6])
    s3, _ = run(s3, "battle.resolve", "S", {})
    with pytest.raises(RuleError, match="right after moving"):
        run(s3, "battle.lockpick", "S", {})


def test_remaining_movement_and_inventory_options():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.battle["units"]["a:S"].update(q=-1, r=2)
    s.item_decks = {"common": ItemDeck(draw=list(COMMON))}
    s.adventurers["S"].ready = ["leather-cap", "chainmail-shirt", "spiced-mead", "travel-bread"]
    s.adventurers["S"].pack = ["stamina-tonic"] * 3 + ["rune-of-warding"]
    s, _ = run(s, "battle.move", "S", {"path": "-1,3 0,3"})
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[5, 2, 2])
    s_full, ev = run(s, "battle.lockpick", "S", {})
    assert "inventory is full" in texts(ev) and "iron-sword" in s_full.item_decks["common"].discard
    assert s_full.battle["turn"]["free_move"] == 1  # 2 of 3 hexes moved; the move goes on after the check
    s_swap, ev = run(s, "battle.lockpick", "S", {"swap": "Spiced Mead"})
    adv = s_swap.adventurers["S"]
    assert "iron-sword" in adv.ready and "spiced-mead" not in adv.ready
    assert s_swap.item_decks["common"].discard == ["spiced-mead"]


def test_decks_shuffle_with_campaign_dice_and_reshuffle_discards():
    s = party()
    from rulesets.tes.content import load_pack
    from engine.core import Dice
    pack = load_pack("starter")
    s.adventurers["S"].ready = ["iron-sword"]
    d = inventory.deck(s, pack, "common", Dice(1, 0))
    assert "iron-sword" not in d["draw"]
    assert sorted(d["draw"]) == sorted(k for k, i in pack.items.items() if i.rarity == "common" and k != "iron-sword")
    again = s.clone()
    assert inventory.deck(again, pack, "common", Dice(99, 0))["draw"] == d["draw"]  # stored, not reshuffled
    n = len(d["draw"])
    d["discard"], d["draw"] = list(d["draw"]), []
    d2 = inventory.deck(s, pack, "common", Dice(1, 5))
    assert d2["discard"] == [] and len(d2["draw"]) == n


def test_legendary_item_lockpick_example():
    """Code 6*-5-2-3, 4 attempts: 4 2 2, the 4 turned to the key 6; keep one 2; reroll 5 and 4; 4 turned to 3."""
    s = party()
    s, _ = run(s, "battle.start", "S", {"encounter": "crypt-of-bones", "ep": 0,
                                        "hexes": {"S": "-2,2", "R": "-2,1"}})
    s.item_decks = {"legendary": ItemDeck(draw=["stormcaller-staff", "ebony-greaves"])}
    s.battle["caches"] = {"-1,2": "legendary"}
    s, _ = run(s, "battle.move", "S", {"path": "-1,2"})
    s, ev = run(s, "battle.lockpick", "S", {}, forced=[4, 2, 2])
    assert "[6]-5-2-3" in texts(ev) and "4 attempts" in texts(ev)
    with pytest.raises(RuleError, match="key digit"):
        run(s, "battle.lockpick", "S", {"keep": "2"})
    s, ev = run(s, "battle.lockpick", "S", {"adjust": "1=6", "keep": "2"}, forced=[5, 4])
    assert s.battle["lockpick"]["locked"] == [0] and s.battle["lockpick"]["dice"] == [5, 2, 4]
    s, ev = run(s, "battle.lockpick", "S", {"adjust": "3=3"})
    assert "opens the lock" in texts(ev) and s.adventurers["S"].ready == ["stormcaller-staff"]
    assert s.battle["turn"]["free_move"] == 2  # moved 1 hex of 3
