"""Delve and dungeon actions (rulebook pp.74-86): explore, place a revealed tile, answer a card's choice, free a
caged unit, and the time-outs of the two questions.

The rules live in ``rulesets.tes.battle.delve`` and ``rulesets.tes.battle.dungeon``; these handlers check who
may act and call them.  The time-outs check their question's key themselves (``_Timeout``), so a late or
repeated firing changes nothing.
"""
from __future__ import annotations

from engine.text import count
from rulesets.tes.battle import delve, dungeon, flow
from rulesets.tes.rules.battle import TurnAction
from rulesets.tes.rules.battle_prompts import _Timeout, choice_key, place_key
from rulesets.tes.rules.table import action


@action
class Explore(TurnAction):
    type = "battle.explore"
    summary = "Explore a delve's hex: the one you stand in, or one in sight within your Stamina (the explore action)."

    def step(self, c, owner, args):
        delve.explore(c, owner, args.get("at"))


@action
class Place(TurnAction):
    type = "battle.place"
    summary = "Choose where a delve's revealed tile connects (one of the numbered placements)."
    answers = True

    def step(self, c, owner, args):
        delve.choose_place(c, owner, args.get("place"))


@action
class Choose(TurnAction):
    type = "battle.choose"
    summary = "Answer a card's choice (e.g. drain a Combat die or gain bane)."
    answers = True

    def step(self, c, owner, args):
        delve.choose(c, owner, args.get("option"))


@action
class Free(TurnAction):
    type = "battle.free"
    summary = "Pick the lock of a caged unit's cage next to you (a dungeon with cages)."

    def step(self, c, owner, args):
        dungeon.free(c, owner, args.get("unit"))


@action
class PlaceTimeout(_Timeout):
    type = "battle.place-timeout"
    summary = "Nobody chose where the revealed tile goes in time: the placement that keeps the most hexes explorable."
    stale = "That tile was already placed; nothing timed out."
    off = "The party leader turned the time-out off; the placement waits."

    def key(self, state):
        return place_key(state)

    def fire(self, c, minutes, key):
        ex = c.b.delve.exploring
        c.say("timeout", f"⏰ Nobody chose where the tile goes within {count(minutes, 'minute')}.", player=ex.owner)
        delve.choose_place(c, ex.owner, None, timeout=True)
        flow.proceed(c)


@action
class ChooseTimeout(_Timeout):
    type = "battle.choose-timeout"
    summary = "Nobody answered a card's choice in time: its default applies."
    stale = "That choice was already made; nothing timed out."
    off = "The party leader turned the time-out off; the choice waits."

    def key(self, state):
        return choice_key(state)

    def fire(self, c, minutes, key):
        owner = c.b.choices[0].owner
        c.say("timeout", f"⏰ {c.adv(owner).name}'s player made no choice within {count(minutes, 'minute')}.",
              player=owner)
        delve.choose(c, owner, None, timeout=True)
        flow.proceed(c)
