"""The Elder Scrolls rule book in code: every action type, checked then applied.

Each action type is a small class registered with ``@action`` in this
ruleset's ``ActionTable`` (kernel.actions): ``check`` reads the state and
raises ``RuleError`` with a message naming the fix; ``apply`` changes the
(copied) state and returns events.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kernel.actions import ActionTable, Applied, Handler, check_permission, dice_for, subject  # noqa: F401
from kernel.actions import Ctx as BaseCtx
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


# Register the action modules (import for their side effect of registering).
from rulesets.tes.rules import campaign as _campaign  # noqa: E402,F401
from rulesets.tes.rules import adventurer as _adventurer  # noqa: E402,F401
from rulesets.tes.rules import transfer as _transfer  # noqa: E402,F401
from rulesets.tes.rules import battle as _battle  # noqa: E402,F401
from rulesets.tes.rules import guide as _guide  # noqa: E402,F401
from rulesets.tes.rules import lockpick as _lockpick  # noqa: E402,F401
from rulesets.tes.rules import battle_prompts as _battle_prompts  # noqa: E402,F401
from rulesets.tes.rules import adjust as _adjust  # noqa: E402,F401
from rulesets.tes.rules import rest as _rest  # noqa: E402,F401
from rulesets.tes.rules import items as _items  # noqa: E402,F401
from rulesets.tes.rules import update as _update  # noqa: E402,F401
