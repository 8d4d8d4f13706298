"""Item actions: use a ready card, ready or stow one, drop one (rulesets.tes.battle.items).

They work in battle and between battles; in battle the adventurer must be in it.
"""
from __future__ import annotations

from engine.bounds import Flag, Text
from engine.core import RuleError
from rulesets.tes.battle import items
from rulesets.tes.battle.model import Ctx
from rulesets.tes.rules.table import UNIT, Handler, action, subject


class ItemAction(Handler):
    def check(self, state, action, ctx):
        owner = subject(state, action)
        if owner not in state.adventurers:
            raise RuleError("You have no adventurer yet. Create one with `/adventurer create` first.")
        if state.battle and owner not in state.battle.order:
            raise RuleError("Your adventurer is not in this battle; use items once it is over.")

    def apply(self, state, action, ctx):
        c = Ctx(state, ctx.pack_for(state), ctx.dice, now=ctx.now)
        self.step(c, subject(state, action), action.args)
        return state, c.events

    def step(self, c, owner, args):
        raise NotImplementedError


@action
class UseItem(ItemAction):
    type = "item.use"
    summary = "Use a ready item card as its subtype says."
    args = {"item": Text(), "target": UNIT, "overtax": Flag()}

    def step(self, c, owner, args):
        items.use(c, owner, args.get("item"), args.get("target"), overtax=bool(args.get("overtax")))


@action
class ReadyItem(ItemAction):
    type = "item.ready"
    summary = "Move an item from the pack to a ready slot."
    args = {"item": Text(), "swap": Text()}

    def step(self, c, owner, args):
        items.ready(c, owner, args.get("item"), args.get("swap"))


@action
class StowItem(ItemAction):
    type = "item.stow"
    summary = "Move a ready item to the pack."
    args = {"item": Text()}

    def step(self, c, owner, args):
        items.stow(c, owner, args.get("item"))


@action
class DropItem(ItemAction):
    type = "item.drop"
    summary = "Discard an item card (or the card waiting for room)."
    args = {"item": Text()}

    def step(self, c, owner, args):
        items.drop(c, owner, args.get("item"))
