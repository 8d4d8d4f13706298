"""What battle prompts need from the rules: which roll or question a prompt is about, and the time-out.

A prompt's buttons carry a *key* naming the exact roll (``roll_key``) or
prevention question (``ask_key``) they answer; a click whose key no longer
matches the campaign is refused as out of date.  ``battle.prevent-timeout`` is
what the bot does when a player in ``ask`` mode does not answer within the
campaign's ``prevent_timeout_minutes``: the automatic choice applies.  It checks
the key itself, so it can only ever answer the question it was scheduled for
(a late or repeated firing changes nothing).
"""
from __future__ import annotations

import re

from rulesets.tes.battle import flow
from rulesets.tes.battle.model import Ctx, require_battle
from kernel.core import RuleError
from rulesets.tes.rules import Handler, action

#: minutes a player in ``ask`` mode has to choose prevention (``/campaign settings prevent_timeout_minutes:``)
DEFAULT_PREVENT_TIMEOUT_MINUTES = 60
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def roll_key(state) -> str | None:
    """The rolled engage waiting to be resolved, e.g. ``b1.r2.t0.e1`` (battle, round, turn, engage)."""
    b = state.battle if state is not None else None
    if not b or not b.pending:
        return None
    return f"b{b.no}.r{b.round}.t{b.turn_index}.e{b.turn.engages}"


def ask_key(state) -> str | None:
    """The prevention question waiting for an answer, e.g. ``b1.r2.e1.h0`` (battle, round, enemy, its hit)."""
    b = state.battle if state is not None else None
    aw = b.asking if b else None
    if not aw:
        return None
    cur = b.enemy_phase.current if b.enemy_phase else None
    hit = next((i for i, h in enumerate(cur.hits if cur else []) if not h.done), 0)
    return f"b{b.no}.r{b.round}.{_UNSAFE.sub('_', str(aw.enemy))}.h{hit}"


def prevent_timeout_minutes(state) -> int:
    """0 means: wait for the player without a time-out."""
    return int(state.settings.get("prevent_timeout_minutes", DEFAULT_PREVENT_TIMEOUT_MINUTES) or 0)


@action
class PreventTimeout(Handler):
    type = "battle.prevent-timeout"
    leader_only = True  # the bot fires it in the leader's name; it shows in the log as a time-out
    summary = "Nobody chose prevention in time: the automatic choice applies."

    def apply(self, state, action, ctx):
        b = require_battle(state)
        key = str(action.args.get("ask") or "")
        if not b.asking or ask_key(state) != key:
            raise RuleError("That prevention question was already answered; nothing timed out.")
        owner = b.asking.owner
        adv = state.adventurers.get(owner)
        minutes = int(action.args.get("minutes") or prevent_timeout_minutes(state))
        c = Ctx(state, ctx.pack_for(state), ctx.dice)
        c.say("timeout", f"⏰ {adv.name if adv else 'The adventurer'} got no prevention choice within {minutes} "
                         "minutes, so the automatic choice applies.", player=owner, ask=key)
        flow.answer_prevention(c, owner, "auto")
        return state, c.events
