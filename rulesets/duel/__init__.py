"""Duels: fights on twelve-sided dice played with hidden action cards and a Priority track, as a Hexpost ruleset.

state.py (typed state), effects.py (the effect primitives), content.py (the content pack schema and loader),
rules/ (actions: characters, fights, rounds, the track, Fame rerolls), present/ (commands, the presenter,
buttons and private menus).  Importing the package registers it with the engine.  It imports nothing from the
other rulesets.
"""
from __future__ import annotations

from engine.rulesets import Ruleset, register
from rulesets.duel import rules
from rulesets.duel.rules.flow import revealed
from rulesets.duel.rules.party import check_pack, check_state, export_refusal
from rulesets.duel.state import NAME, RULES, SCHEMA, Duel

RULESET = register(Ruleset(
    # the events a log line and a recap name, the weightiest first (engine.recap)
    outcomes=("recalled", "fight-end", "injury", "hit", "heal", "fame", "reveal", "ailment", "monster-heals",
              "fight-off", "ally-gone"),
    name=NAME,
    title="Duel",
    load=Duel.from_dict,
    actions=rules.TABLE,
    schema=SCHEMA,
    rules=RULES,
    check_state=check_state,
    check_pack=check_pack,
    open_prompt=rules.open_prompt,
    export_refusal=export_refusal,
    revealed=revealed,
    rivals=True,
    undo_checked_from=2,  # rules revision 2 (state.RULES)
    description="Fights on twelve-sided dice: hidden action cards, a Priority track, Fame rerolls, monsters "
                "from a bestiary or rival characters.",
))

from rulesets.duel.present import commands as _commands  # noqa: E402,F401
from rulesets.duel.present import buttons as _buttons  # noqa: E402,F401
from rulesets.duel.present.presenter import DuelPresenter  # noqa: E402

RULESET.present = DuelPresenter()
