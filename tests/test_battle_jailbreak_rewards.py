"""Jailbreak class rewards: only for adventurers without a class; a class the achievements did not
earn costs the tenacity and items gained in the battle (Choosing a Non-Achievement Class)."""
from __future__ import annotations

import pytest

from battle_helpers import jailbreak, party, run, texts
from engine.core import RuleError


def finish_by_retreat(s):
    s, _ = run(s, "battle.retreat", "S")
    ev = []
    while s.battle is not None:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner)
    return s, ev


def test_rewards_only_for_adventurers_without_a_class():
    s = party()
    s.adventurers["R"].class_id = "knight"
    s, _ = jailbreak(s)
    s, ev = finish_by_retreat(s)
    assert list(s.class_rewards) == ["S"]
    line = next(e.text for e in ev if e.kind == "rewards")
    assert "Shannon:" in line and "Ryan" not in line
    assert s.adventurers["R"].class_id == "knight"


def test_non_achievement_class_gives_up_what_the_battle_gave():
    s = party()
    s.adventurers["R"].class_id = "knight"
    s.adventurers["S"].tenacity = 1
    s, _ = jailbreak(s)
    # in the battle Shannon gains 2 tenacity and an item from a cache
    s.adventurers["S"].tenacity += 2
    s.adventurers["S"].ready.append("iron-sword")
    s, _ = finish_by_retreat(s)
    offered = s.class_rewards["S"]
    assert "dragonknight" in offered  # Shannon took the first turn
    other = next(k for k in ("healer", "bard", "archer", "templar") if k not in offered)
    s, ev = run(s, "battle.class", "S", {"klass": other})
    a = s.adventurers["S"]
    assert a.class_id == other
    assert a.tenacity == 1 and "iron-sword" not in a.ready + a.pack
    assert "gives up what the battle gave: 2 tenacity, Iron Sword" in texts(ev)


def test_earned_class_keeps_what_the_battle_gave():
    s = party()
    s.adventurers["R"].class_id = "knight"
    s, _ = jailbreak(s)
    s.adventurers["S"].tenacity += 2
    s, _ = finish_by_retreat(s)
    s, ev = run(s, "battle.class", "S", {"klass": "dragonknight"})
    assert s.adventurers["S"].tenacity == 2 and "gives up" not in texts(ev)


def test_non_achievement_class_waits_for_the_others():
    s = party()
    s, _ = jailbreak(s)
    s, _ = finish_by_retreat(s)
    other = next(k for k in ("healer", "bard", "archer", "templar")
                 if k not in s.class_rewards["S"] and k not in s.class_rewards["R"])
    with pytest.raises(RuleError, match="only after Ryan has chosen"):
        run(s, "battle.class", "S", {"klass": other})


def test_open_class_choice_points_to_waiting_rewards():
    s = party()
    s, _ = jailbreak(s)
    s, _ = finish_by_retreat(s)
    with pytest.raises(RuleError, match="class rewards are waiting"):
        run(s, "adventurer.class", "S", {"klass": "healer"})
