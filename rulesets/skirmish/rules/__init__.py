"""The skirmish rules in code: every action type, checked then applied.

Each action is a small ``Handler`` registered in this ruleset's
``ActionTable`` (``rulesets.skirmish.rules.table``); ``engine`` holds the shared
steps (initiative, activations, attacks, the bot's warband).  Importing this
package registers every action module.
"""
from __future__ import annotations

from rulesets.skirmish.rules.table import TABLE, Ctx, Handler, action, dice_for, subject  # noqa: F401

from rulesets.skirmish.rules import battle as _battle  # noqa: E402
from rulesets.skirmish.rules import muster as _muster  # noqa: F401
from rulesets.skirmish.rules import party as _party  # noqa: F401

TABLE.turn_hooks.append(_battle.whose_move)
