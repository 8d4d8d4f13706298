"""A miniatures game's Engage phase, as a Hexpost ruleset (``ruleset:engage``; commands under ``/mini``).

state.py (typed state), content.py (the pack's schema and loader), board.py (heights, ledges, ladders, sight,
routes), rules/ (actions: the turn's phases, the Engage phase in rules/engage.py), present/ (commands, prompts
and the presenter).  Importing the package registers it with the engine.  It imports no other ruleset.
"""
from __future__ import annotations

from engine.rulesets import Ruleset, register
from rulesets.engage import rules
from rulesets.engage.rules.engage import revealed
from rulesets.engage.rules.party import check_pack, check_state
from rulesets.engage.state import NAME, RULES, SCHEMA, Game

RULESET = register(Ruleset(
    # the events a log line and a recap name, the weightiest first (engine.recap)
    outcomes=("out", "victory", "draw", "wound", "heal", "stunned", "condition", "side-left", "fear"),
    name=NAME,
    title="Engage (miniatures)",
    load=Game.from_dict,
    actions=rules.TABLE,
    schema=SCHEMA,
    rules=RULES,
    check_state=check_state,
    check_pack=check_pack,
    open_prompt=rules.open_prompt,
    revealed=revealed,
    rivals=True,
    undo_checked_from=2,  # rules revision 2 (state.RULES)
    description="A miniatures battle's Engage phase: run distance, the out-of-sight roll, intercepts, Jump "
                "Attacks and Fear, on a hex map with walls, ledges and ladders.",
))

from rulesets.engage.present import commands as _commands  # noqa: E402,F401
from rulesets.engage.present import prompts as _prompts  # noqa: E402,F401
from rulesets.engage.present.presenter import EngagePresenter  # noqa: E402

RULESET.present = EngagePresenter()
