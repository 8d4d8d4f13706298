"""The Elder Scrolls: Betrayal of the Second Era, as a Hexpost ruleset.

state.py (typed campaign state), rules/ (actions), battle/ (the battle engine),
content/ (the content pack schema, loader and versions), present/ (commands and the
presenter).  Importing the package registers it with the engine.
"""
from __future__ import annotations

from engine.rulesets import Ruleset, register
from rulesets.tes import rules
from rulesets.tes.rules.days import open_prompt
from rulesets.tes.rules.transfer import check_pack, check_state, hide_draws, host_waiting, redraw
from rulesets.tes.rules.undo import revealed
from rulesets.tes.state import RULES, SCHEMA, Campaign

NAME = "tes"

RULESET = register(Ruleset(
    # the events a log line and a recap name, the weightiest first (engine.recap)
    outcomes=("defeated", "battle-end", "session-end", "damage", "heal", "bonus-hp", "xp", "xp-cap", "tenacity",
              "fatigue", "fatigue-move", "objective", "retreat", "quest-step", "quest-done", "quest-linked",
              "quest-ongoing", "keyword", "endgame-keyword", "endgame-done", "epilogue", "explore", "revealed",
              "tile", "card", "card-done", "shop", "class-chosen", "promoted", "advance", "untrain",
              "lockpick-end", "achievement", "check-result", "interrupt"),
    name=NAME,
    title="The Elder Scrolls: Betrayal of the Second Era",
    load=Campaign.from_dict,
    actions=rules.TABLE,
    schema=SCHEMA,
    reads_unlabelled=True,
    check_state=check_state,
    check_pack=check_pack,
    host_waiting=host_waiting,
    hide_draws=hide_draws,
    redraw=redraw,
    open_prompt=open_prompt,
    rules=RULES,
    revealed=revealed,
    undo_checked_from=4,  # rules revision 4 (state.RULES)
    description="Co-op adventurers on a hex map: creation, mats, sessions of days in a province, clash, delve and "
                "dungeon battles with enemy AI, lockpicking.",
))

# The command layer and presenter register their commands and buttons when imported.
from rulesets.tes.present import handlers as _handlers  # noqa: E402,F401
from rulesets.tes.present import guide as _guide  # noqa: E402,F401
from rulesets.tes.present import battle as _battle  # noqa: E402,F401
from rulesets.tes.present import lockpick as _lockpick  # noqa: E402,F401
from rulesets.tes.present import battle_prompts as _battle_prompts  # noqa: E402,F401
from rulesets.tes.present import answers as _answers  # noqa: E402,F401
from rulesets.tes.present import items as _items  # noqa: E402,F401
from rulesets.tes.present import day as _day  # noqa: E402,F401
from rulesets.tes.present import delve as _delve  # noqa: E402,F401
from rulesets.tes.present import quest as _quest  # noqa: E402,F401
from rulesets.tes.present import catalogue as _catalogue  # noqa: E402,F401
from rulesets.tes.present.handlers import TesPresenter  # noqa: E402

RULESET.present = TesPresenter()  # what the shared commands ask of this game

# Its own commands belong to this game: in another game's channel they are refused with a clear message.
from engine.commands import COMMANDS as _COMMANDS  # noqa: E402

for _declared in _COMMANDS.values():
    if _declared.ruleset is None and _declared.handler.__module__.startswith("rulesets.tes."):
        _declared.ruleset = NAME
