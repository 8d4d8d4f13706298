"""Skirmish battles between warbands, as a Hexpost ruleset.

state.py (typed state), board.py (the hex battlefield), content.py (the
content pack schema and loader), rules/ (actions), present/ (commands and the
presenter).  Importing the package registers it with the engine.
"""
from __future__ import annotations

from engine.rulesets import Ruleset, register
from rulesets.skirmish import rules
from rulesets.skirmish.rules.party import check_pack, check_state
from rulesets.skirmish.state import NAME, RULES, SCHEMA, Skirmish

RULESET = register(Ruleset(
    # the events a log line and a recap name, the weightiest first (engine.recap)
    outcomes=("out-of-action", "victory", "draw", "attack", "bolt", "calamity", "retreat", "mend", "dismiss",
              "warband-left"),
    name=NAME,
    title="Skirmish",
    load=Skirmish.from_dict,
    actions=rules.TABLE,
    schema=SCHEMA,
    rules=RULES,
    check_state=check_state,
    check_pack=check_pack,
    rivals=True,  # nothing is hidden or measured in secret: dice are the only thing an action reveals
    undo_checked_from=3,  # rules revision 3 (state.RULES)
    description="Warband skirmishes on a hex field: initiative and ability dice, alternating activations, "
                "Channel Magic, Retreat and Wait.",
))

from rulesets.skirmish.present import commands as _commands  # noqa: F401
from rulesets.skirmish.present.presenter import SkirmishPresenter

RULESET.present = SkirmishPresenter()
