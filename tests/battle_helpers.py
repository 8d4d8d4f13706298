"""Helpers for the battle tests: a two-adventurer campaign and running actions with forced dice."""
from __future__ import annotations

from rulesets.tes import rules
from rulesets.tes.battle.model import Ctx
from rulesets.tes.content import load_pack
from engine.core import Action
from rulesets.tes.state import RULES


def run(state, type_, actor, args=None, forced=None):
    dice = rules.dice_for(state, forced) if forced is not None else rules.dice_for(state)
    applied = rules.execute(state, Action(type_, actor, args or {}), dice)
    return applied.state, applied.events


def party(*, difficulty="adept", ryan=True, rules_revision=RULES):
    """Shannon (Argonian, One Hand and Shield, player S) and Ryan (Dark Elf, Destruction Staff, player R)."""
    s, _ = run(None, "campaign.new", "S", {"name": "Test", "difficulty": difficulty, "pack": "starter",
                                           "channel_id": "c", "guild_id": "g", "seed": 7,
                                           "pack_version": load_pack("starter").content_hash,
                                           "rules": rules_revision})
    s, _ = run(s, "adventurer.create", "S", {"name": "Shannon", "race": "argonian", "line": "one-hand-and-shield"})
    if ryan:
        s, _ = run(s, "campaign.join", "R")
        s, _ = run(s, "adventurer.create", "R", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
    return s


def jailbreak(state, hexes=None, forced=(2, 1)):
    """The Clash Setup Example's draws: High Elf Bandit to hex 1, then Argonian Bandit to hex 2."""
    args = {"encounter": "jailbreak"}
    if hexes:
        args["hexes"] = hexes
    return run(state, "battle.start", "S", args, forced=list(forced))


def ctx(state):
    return Ctx(state, load_pack(state.pack, version=state.pack_version), rules.dice_for(state))


def texts(events):
    return "\n".join(e.text for e in events)


def said(events):
    """The events in words, as the bot posts them (people as mentions, emphasis in bold)."""
    from engine.present import say

    return "\n".join(say(e) for e in events)
