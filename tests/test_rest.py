"""The Adventurers Rest between battles (rules revisions 1 and 2): a defeated adventurer is never stuck.

On rules revision 3 the rest is the End of Day Phase's (tests/test_day_rest.py)."""
from __future__ import annotations

from battle_helpers import party, run
from engine.core import RuleError

import pytest


def test_rest_heals_and_clears_the_track_by_difficulty():
    for difficulty, healed, cleared in (("apprentice", 2, 2), ("adept", 1, 1), ("expert", 1, 1)):
        state = party(difficulty=difficulty, rules_revision=2)
        owner, adv = next(iter(state.adventurers.items()))
        adv.hp = 0
        adv.cooldown = [{"fatigue": "light"}, {"fatigue": "light"}, {"fatigue": "over"}]
        state, events = run(state, "party.rest", state.leader)
        adv = state.adventurers[owner]
        assert adv.hp == healed
        assert len(adv.cooldown) == 3 - cleared
        assert any(f"heals {healed} HP" in e.words() for e in events)


def test_rest_is_the_leaders_and_not_in_battle():
    state = party(rules_revision=2)
    member = next(m for m in state.members if m != state.leader)
    with pytest.raises(RuleError, match="party leader"):
        run(state, "party.rest", member)


def test_a_defeated_adventurer_is_told_how_to_get_back_in(tmp_path):
    from battle_helpers import jailbreak

    state = party(rules_revision=2)
    for adv in state.adventurers.values():
        adv.hp = 0
    with pytest.raises(RuleError, match="/adventurer rest"):
        jailbreak(state)
    state, _ = run(state, "party.rest", state.leader)
    state, _ = jailbreak(state)
    assert state.battle is not None
