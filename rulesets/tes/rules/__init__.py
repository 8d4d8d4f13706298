"""The Elder Scrolls rule book in code: every action type, checked then applied.

Each action type is a small class registered with ``@action`` in this
ruleset's ``ActionTable`` (``rulesets.tes.rules.table``): ``check`` reads the
state and raises ``RuleError`` with a message naming the fix; ``apply`` changes
the (copied) state and returns events.  Importing this package registers every
action module.
"""
from __future__ import annotations

from rulesets.tes.rules.table import (HANDLERS, TABLE, TURN_HOOKS, Ctx, Handler, action, dice_for,  # noqa: F401
                                      execute, subject, whose_move)

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
from rulesets.tes.rules import days as _days  # noqa: E402,F401
from rulesets.tes.rules import delve as _delve  # noqa: E402,F401
