"""The engage ruleset's action table: every action module registers its handlers here with ``@action``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import ActionTable, Handler, dice_for, subject  # noqa: F401
from engine.actions import Ctx as BaseCtx


@dataclass
class Ctx(BaseCtx):
    """Dice, clock, and the game's content pack with its battlefield."""

    _pack: Any = None
    _board: Any = None

    def pack_for(self, state):
        if self._pack is None:
            from rulesets.engage.content import pack_of

            self._pack = pack_of(state)
        return self._pack

    def board_for(self, state):
        if self._board is None:
            from rulesets.engage.board import board_of

            self._board = board_of(self.pack_for(state))
        return self._board


TABLE = ActionTable(Ctx)
action = TABLE.action
