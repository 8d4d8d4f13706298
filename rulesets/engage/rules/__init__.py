"""The engage rules in code: every action type, checked then applied.

Each action is a small ``Handler`` registered in this ruleset's ``ActionTable`` (``rules.table``); ``core`` holds
the shared steps (conditions, checks, attacks, the turn's phases) and ``engage`` the Engage phase itself.
Importing this package registers every action module.
"""
from __future__ import annotations

from rulesets.engage.rules.table import TABLE, Ctx, Handler, action  # noqa: F401

from rulesets.engage.rules import battle as _battle  # noqa: E402
from rulesets.engage.rules import muster as _muster  # noqa: F401,E402
from rulesets.engage.rules import party as _party  # noqa: F401,E402

TABLE.turn_hooks.append(_battle.whose_move)
open_prompt = _battle.open_prompt
