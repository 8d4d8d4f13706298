"""The lockpick action (rulebook pages 68-70): open a cache chip on the battle map.

``battle.lockpick`` starts a check when the adventurer has just moved onto a
cache, and answers the check in progress (adjust the dice, keep some for the
next attempt, or stop).  The rules live in ``engine.battle.lockpick``.
"""
from __future__ import annotations

from engine.battle import lockpick as lp
from engine.battle.engage import my_turn
from engine.battle.model import Ctx, require_battle
from engine.core import RuleError
from engine.rules import Handler, action, subject


@action
class Lockpick(Handler):
    type = "battle.lockpick"
    undoable = False
    summary = "Pick the lock of a cache you just moved onto (adjust, keep, stop)."

    def apply(self, state, action, ctx):
        b = require_battle(state)
        owner = subject(state, action)
        if owner not in b["order"]:
            raise RuleError("Your adventurer is not in this battle.")
        c = Ctx(state, ctx.pack_for(state), ctx.dice)
        if b.get("lockpick"):
            lp.answer(c, owner, action.args)
            return state, c.events
        my_turn(c, owner)
        if b.get("pending"):
            raise RuleError("Resolve your roll first (`/resolve`); then move onto the cache to pick its lock.")
        if action.args.get("adjust") or action.args.get("keep") or action.args.get("stop"):
            raise RuleError("No lockpick check is going on. Move onto a cache and use `/lockpick` to start one.")
        lp.start(c, owner, action.args)
        return state, c.events
