"""The session's days (rulebook pp.12-14 and 34-46): the actions of the day packages, registered on this
ruleset's action table, and the seams between the day and the rest of the rules.

Each day package owns its actions (``rulesets.tes.day``, ``cards``, ``town``, ``reward``); this module puts them
on the table (which lives here in the rules layer, above them), and:

* ``after_battle``: a battle action that ended a battle a card started hands the result back to the day;
* ``open_prompt``: the question the campaign waits on: the battle's, else the day's;
* ``whose_turn``: reminders follow the first player the day's question waits for.
"""
from __future__ import annotations

from rulesets.tes.cards import actions as _cards
from rulesets.tes.day import actions as _day
from rulesets.tes.day import flow as day_flow
from rulesets.tes.day.prompts import open_prompt as day_prompt
from rulesets.tes.day.prompts import prompt_id
from rulesets.tes.outcomes.context import DayCtx
from rulesets.tes.outcomes.handlers import AFTER_BATTLE
from rulesets.tes.quest import actions as _quest
from rulesets.tes.session import actions as _session
from rulesets.tes.session.prompts import open_prompt as assist_prompt
from rulesets.tes.reward import actions as _reward
from rulesets.tes.rules.battle_prompts import open_prompt as battle_prompt
from rulesets.tes.rules.table import TURN_HOOKS, action
from rulesets.tes.town import actions as _town

for _cls in _day.ACTIONS + _cards.ACTIONS + _town.ACTIONS + _reward.ACTIONS + _quest.ACTIONS + _session.ACTIONS:
    action(_cls)


def after_battle(c) -> None:
    """Called by the battle actions after they ran: if that ended a battle a card started, the day goes on."""
    state = c.state
    s = state.days
    if s is None or state.battle is not None or s.phase != "encounter" or s.encounter is None:
        return
    enc = s.encounter
    if enc.battle is None or enc.result or state.last_battle is None or state.last_battle.no != enc.battle:
        return
    dc = DayCtx(state, c.pack, c.dice, c.events, now=c.now)
    day_flow.after_battle(dc)


AFTER_BATTLE.append(after_battle)


def open_prompt(state):
    """The question the campaign waits on now: the guild assist's after a full party defeat, the battle's, else
    the day's."""
    return assist_prompt(state) or battle_prompt(state) or day_prompt(state)


def whose_turn(state):
    s = state.days
    if s is None or s.ask is None or state.battle is not None or s.phase == "over":
        return None
    owners = [o for o in s.ask.owners if o in state.members]
    if not owners:
        return None
    return owners[0], f"{prompt_id(s)}-{owners[0]}"


TURN_HOOKS.append(whose_turn)
