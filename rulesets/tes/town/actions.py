"""The town actions: use a feature (``town.visit``), or end your town actions (``town.done``)."""
from __future__ import annotations

from engine.bounds import Text, Words
from rulesets.tes.outcomes.asks import close
from rulesets.tes.outcomes.handlers import DayHandler
from rulesets.tes.town import features
from rulesets.tes.town.visit import still_acting


class _TownAction(DayHandler):
    kinds = ("town",)
    when = "Town actions are taken during a town encounter."

    def not_yours(self, c, owner):
        return f"{c.adv(owner).name} has no town actions left here."

    def after(self, c):
        if c.s.ask is None or c.s.ask.kind != "town":
            return  # another question came first (a quest board's side quests): the visit waits for it
        acting = still_acting(c, c.s.town)
        if acting:
            c.s.ask.owners = acting
        else:
            close(c)


class Visit(_TownAction):
    type = "town.visit"
    summary = "Use one of your 2 town actions at a feature: shop, trainer, inn, alchemy, square."
    # item: the shop's cards to take (a menu's picks, or names separated by commas) or the potion to refresh
    args = {"feature": Text(), "item": Words(25), "line": Text(), "slot": Text()}

    def step(self, c, owner, args):
        features.act(c, owner, args.get("feature"), args)
        self.after(c)


class Done(_TownAction):
    type = "town.done"
    summary = "End your town actions (the ones left are not used)."
    args: dict = {}

    def step(self, c, owner, args):
        features.done(c, owner)
        self.after(c)


ACTIONS = [Visit, Done]
