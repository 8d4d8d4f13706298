"""Helpers for the tests of the campaign's day: the rulebook's two adventurers, actions with forced dice."""
from __future__ import annotations

from engine.core import Action, RuleError
from rulesets.tes import rules
from rulesets.tes.content import load_pack
from rulesets.tes.state import RULES

RYAN, SHANNON = "ryan", "shannon"


def run(state, type_, actor, args=None, forced=None, on_behalf=None, now=1_700_000_000.0):
    dice = rules.dice_for(state, forced) if forced is not None else rules.dice_for(state)
    applied = rules.execute(state, Action(type_, actor, args or {}, on_behalf=on_behalf), dice, now)
    return applied.state, applied.events


def said(events) -> str:
    from engine.present import say

    return "\n".join(say(e) for e in events)


def examples_party(difficulty: str = "adept", *, rules_revision: int = RULES):
    """Ryan (Dark Elf, Destruction Staff, the leader) and Shannon (Argonian, One Hand and Shield), placed as in
    the rulebook's Adventurer Creation Examples (examples/creation.txt)."""
    s, _ = run(None, "campaign.new", RYAN, {"name": "Outer Watch", "difficulty": difficulty, "pack": "starter",
                                            "channel_id": "c", "guild_id": "g", "seed": 11,
                                            "pack_version": load_pack("starter").content_hash,
                                            "rules": rules_revision})
    s, _ = run(s, "adventurer.create", RYAN, {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff",
                                              "klass": "sorcerer", "health": "1L", "stamina": "2L", "combat": "2R",
                                              "magicka": "3L", "skill": "4L"})
    s, _ = run(s, "campaign.join", SHANNON)
    s, _ = run(s, "adventurer.create", SHANNON, {"name": "Shannon", "race": "argonian",
                                                 "line": "one-hand-and-shield", "klass": "acrobat", "health": "1L",
                                                 "stamina": "2L", "combat": "3L", "magicka": "4L", "skill": "4R"})
    return s


def stack(state, *cards):
    state, _ = run(state, "day.stack", state.leader, {"cards": list(cards)})
    return state


def refused(state, type_, actor, args=None, **kw) -> str:
    try:
        run(state, type_, actor, args, **kw)
    except RuleError as exc:
        return exc.message
    raise AssertionError(f"{type_} was not refused")
