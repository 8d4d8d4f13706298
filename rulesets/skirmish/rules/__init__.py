"""The skirmish rules in code: every action type, checked then applied.

Each action is a small ``Handler`` registered in this ruleset's
``ActionTable``; ``engine`` holds the shared steps (initiative, activations,
attacks, the bot's warband).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kernel.actions import ActionTable, Handler, dice_for, subject  # noqa: F401
from kernel.actions import Ctx as BaseCtx


@dataclass
class Ctx(BaseCtx):
    """Dice, clock and the campaign's content pack."""

    _pack: Any = None

    def pack_for(self, state):
        if self._pack is None:
            from rulesets.skirmish.content import load_pack

            self._pack = load_pack(state.pack)
        return self._pack


TABLE = ActionTable(Ctx)
action = TABLE.action

from rulesets.skirmish.rules import battle as _battle
from rulesets.skirmish.rules import muster as _muster  # noqa: F401
from rulesets.skirmish.rules import party as _party  # noqa: F401

TABLE.turn_hooks.append(_battle.whose_move)
