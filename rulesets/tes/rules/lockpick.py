"""The lockpick action (rulebook pages 68-70): open a cache chip on the battle map.

``battle.lockpick`` starts a check when the adventurer has just moved onto a
cache, and answers the check in progress (adjust the dice, set one with a
Lockpick Set, keep some for the next attempt, or stop).  The rules live in
``rulesets.tes.battle.lockpick``.
"""
from __future__ import annotations

from rulesets.tes.battle import lockpick as lp
from rulesets.tes.battle.checks import my_turn
from rulesets.tes.battle.model import require_battle
from engine.bounds import Flag, Numbers, Pairs, Text
from engine.core import RuleError
from rulesets.tes.rules.table import action
from rulesets.tes.rules.battle import TurnAction


@action
class Lockpick(TurnAction):
    type = "battle.lockpick"
    undoable = False
    args = {"adjust": Pairs(0, 9, 10), "keep": Numbers(0, 9, 10), "set": Pairs(0, 9, 10), "stop": Flag(),
            "take": Text(20), "swap": Text()}
    summary = "Pick the lock of a cache you just moved onto (adjust, keep, stop)."

    def step(self, c, owner, args):
        b = require_battle(c.state)
        if b.lockpick:
            lp.answer(c, owner, args)
            return
        my_turn(c, owner)
        if b.pending:
            raise RuleError("Resolve your roll first (`/resolve`); then move onto the cache to pick its lock.")
        if args.get("adjust") or args.get("keep") or args.get("stop") or args.get("set"):
            raise RuleError("No lockpick check is going on. Move onto a cache and use `/lockpick` to start one.")
        lp.start(c, owner, args)
