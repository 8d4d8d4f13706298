"""Prompt deadlines for every ruleset: when a question waits too long, its default is applied, once.

A ruleset's open prompt (``engine.prompts.Prompt``) may carry a deadline and a ``timeout_action``; the service
writes the deadline into the database with the action that opened the prompt.  The front door's loop calls
``run_due_deadlines`` every minute: each due deadline runs the prompt's time-out action through the service (in
the party leader's name, with ``{"ask": prompt id}``), refused unless that prompt is still the open one, so of
two loops (or a retry after a crash) only one changes the campaign; the post is the ruleset presenter's
``timeout_reply(inv, outcome)`` (or its ``after``).  ``sweep`` at start-up gives a deadline to an open prompt
saved without one (a ruleset's presenter says how many minutes with ``prompt_minutes(state)``).

Nothing here knows a ruleset: the registry finds the campaign's.
"""
from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

from engine import rulesets
from engine.core import Action, RuleError
from engine.present import error_text
from engine.prompts import open_prompt
from engine.reply import Reply

log = logging.getLogger("hexpost.prompts")
POLL_SECONDS = 60


def _present(state: Any) -> Any:
    try:
        game = rulesets.named(getattr(state, "ruleset", None))
    except RuleError:
        return None
    return game.present


async def sweep(table, now: float | None = None) -> int:
    """At start-up: schedule the deadline of any open prompt that has none in the database.

    The commit that opens a prompt writes its deadline, so this only finds prompts saved before deadlines
    were committed with the state (a question without a recorded time gets one from ``now``).
    """
    store = table.service.store
    now = table.service.clock() if now is None else now
    added = 0
    for cid, channel in await store.active_campaigns():
        stored = await store.load_active(channel)
        if stored is None or stored.id != cid:
            continue
        try:
            state = rulesets.load(stored.state)
        except Exception:  # noqa: BLE001 - one unreadable campaign must not stop the others
            log.exception("sweep: campaign %s could not be read", cid)
            continue
        prompt = open_prompt(state)
        if prompt is None or not prompt.timeout_action:
            continue
        if any(d.key == prompt.deadline_key for d in await store.pending_deadlines(cid)):
            continue
        due = prompt.deadline
        if due is None:
            present = _present(state)
            minutes = present.prompt_minutes(state) if hasattr(present, "prompt_minutes") else 0
            if minutes <= 0:
                continue
            due = now + minutes * 60
        added += await store.add_deadline(cid, prompt.deadline_key, prompt.kind, channel, prompt.owner, due, now)
    return added


async def fire_deadline(table, deadline) -> Reply | None:
    """Apply one due deadline through the service; the post to make, or None when it no longer applies."""

    if await table.service.campaign_id(deadline.channel_id) != deadline.campaign_id:
        return None

    def build(state) -> Action:  # under the channel's lock: only the prompt the deadline was set for
        prompt = open_prompt(state)
        if prompt is None or prompt.deadline_key != deadline.key or not prompt.timeout_action:
            raise RuleError("That question was already answered; nothing timed out.")
        return Action(prompt.timeout_action, state.leader, {"ask": prompt.id})

    try:
        out = await table.service.execute(deadline.channel_id, build)
    except RuleError as exc:  # answered meanwhile, or the time-out was turned off
        log.info("deadline %s of campaign %s: %s", deadline.key, deadline.campaign_id, error_text(exc))
        return None
    inv = table.invocation(out.action.actor, deadline.channel_id)
    present = _present(out.state)
    if hasattr(present, "timeout_reply"):
        return await present.timeout_reply(inv, out)
    if hasattr(present, "after"):
        return await present.after(inv, out)
    return None


async def run_due_deadlines(table, send: Callable[[str, Reply], Awaitable[object]],
                            now: float | None = None) -> int:
    """Fire every deadline due at ``now`` and post what it did; returns how many posts were made.

    Exactly once: the time-out action itself refuses unless its question is still the one waiting, so of
    two loops (or a retry after a crash) only one changes the campaign and posts; the row is then marked
    fired.  A post that fails is logged, not retried (the campaign has moved on; its status command shows it).
    """
    store = table.service.store
    now = table.service.clock() if now is None else now
    posted = 0
    for d in await store.due_deadlines(now):
        reply = None
        try:
            reply = await fire_deadline(table, d)
        except Exception:  # noqa: BLE001 - one broken deadline must not stop the others
            log.exception("deadline %s of campaign %s failed", d.key, d.campaign_id)
        finally:
            await store.claim_deadline(d.campaign_id, d.key, now)
        if reply is None:
            continue
        try:
            await send(d.channel_id, reply)
            posted += 1
        except Exception:  # noqa: BLE001
            log.exception("the time-out post for campaign %s could not be sent", d.campaign_id)
    return posted
