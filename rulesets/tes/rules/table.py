"""This ruleset's action table: every action module registers its handlers here with ``@action``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import ActionTable, Applied, Handler, check_permission, dice_for, subject  # noqa: F401
from engine.actions import Ctx as BaseCtx
from rulesets.tes.state import Campaign


@dataclass
class Ctx(BaseCtx):
    """What an action may use besides the state: its dice, the clock, the content pack."""

    _pack: Any = None

    def pack_for(self, state: Campaign):
        if self._pack is None:
            from rulesets.tes.content import load_pack

            self._pack = load_pack(state.pack, version=state.pack_version)
        return self._pack


TABLE = ActionTable(Ctx)
HANDLERS = TABLE.handlers
action = TABLE.action
execute = TABLE.execute
whose_move = TABLE.whose_move
TURN_HOOKS = TABLE.turn_hooks
