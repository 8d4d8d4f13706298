"""The card actions: the party leader's choice, and each adventurer's part in a social check."""
from __future__ import annotations

from engine.bounds import Flag, Int, Words
from engine.core import RuleError
from rulesets.tes.cards import resolve, social
from rulesets.tes.outcomes.handlers import DayHandler


class Choose(DayHandler):
    type = "day.choose"
    when = "The leader chooses when an overland card waits for a choice."
    kinds = ("card",)
    summary = "Leader: take one of the overland card's choices."
    args = {"choice": Int(1, 9)}  # a card's choice by its number (a card has at most a few)

    def step(self, c, owner, args):
        resolve.take(c, c.s.encounter, args.get("choice"))


class Check(DayHandler):
    type = "day.check"
    when = "Dice and tenacity go into a social check while one is under way."
    kinds = ("check-dice", "check-tenacity")
    summary = "A social check: roll your dice of its lines (first), then commit tenacity."
    # dice: the player's dice by name or id ("all" or "none" as a word); tenacity: what they commit
    args = {"dice": Words(30), "all": Flag(), "tenacity": Int(0, 20)}

    def step(self, c, owner, args):
        enc = c.s.encounter
        if c.s.ask.kind == "check-dice":
            if "tenacity" in args and "dice" not in args:
                raise RuleError("First the dice: roll your dice for the check (`dice:` their names, or `dice:none`);"
                                " tenacity is spent after everyone has rolled.")
            dice = args.get("dice")
            if isinstance(dice, str):
                dice = [] if dice.strip().lower() in ("", "none", "no") else [d for d in dice.split(",") if d.strip()]
            if dice == "all" or args.get("all"):
                dice = social.all_dice(c, owner, enc.check.lines)
            social.roll(c, enc, owner, dice or [])
            return
        if "dice" in args and "tenacity" not in args:
            raise RuleError("The dice are rolled: now commit tenacity with `tenacity:` (0 to keep it).")
        social.spend(c, enc, owner, args.get("tenacity", 0))


ACTIONS = [Choose, Check]
