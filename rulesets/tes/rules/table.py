"""This ruleset's action table: every action module registers its handlers here with ``@action``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import ActionTable, Applied, Handler, check_permission, dice_for, subject  # noqa: F401
from engine.actions import Ctx as BaseCtx
from engine.bounds import Numbers, OneHex, OneOf, Text

#: the options this game's actions share (engine.bounds): a unit named by its hex, its label or its name;
#: numbers as a player counts them in a roll, a menu or a list of sources (a roll has at most 60 dice)
UNIT = OneOf((OneHex(), Text()))
PICKS = Numbers(0, 60, 60)
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
