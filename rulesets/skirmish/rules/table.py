"""The skirmish's action table: every action module registers its handlers here with ``@action``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import ActionTable, Handler, dice_for, subject  # noqa: F401
from engine.actions import Ctx as BaseCtx


@dataclass
class Ctx(BaseCtx):
    """Dice, clock and the campaign's content pack."""

    _pack: Any = None

    def pack_for(self, state):
        if self._pack is None:
            from rulesets.skirmish.content import pack_of

            self._pack = pack_of(state)
        return self._pack


TABLE = ActionTable(Ctx)
action = TABLE.action
