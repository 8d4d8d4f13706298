"""The duel rules in code: every action type, checked then applied.

``model`` (the fight as an action sees it) ← ``dice`` (pools, bonuses, Accuracy) ← ``harm`` (effects,
Ailments, Grit, Recall, the end, the Priority token) ← ``flow`` (joining, rounds, the reveal, the monster's
procedure, the track, Fame rerolls) ← ``prompts`` (the question the fight waits on) ← ``actions``,
``characters``, ``party`` (the handlers).  Importing this package registers every action.
"""
from __future__ import annotations

from rulesets.duel.rules.table import TABLE, Ctx, Handler, action, dice_for, subject  # noqa: F401

from rulesets.duel.rules import actions as _actions  # noqa: E402,F401
from rulesets.duel.rules import characters as _characters  # noqa: E402,F401
from rulesets.duel.rules import party as _party  # noqa: E402,F401
from rulesets.duel.rules.prompts import open_prompt, whose_move  # noqa: E402

TABLE.turn_hooks.append(whose_move)

__all__ = ["TABLE", "open_prompt"]
