"""Deadlines of prompts: when a question waits too long, its default applies by itself.

A prompt (``engine.prompts.Prompt``) may carry a deadline and a ``timeout_action``; the commit that opens it
writes the deadline to the database (``deadlines`` table) in the same transaction.  Here is what the bot does
with them, for every ruleset alike (each campaign's own ruleset is found in the registry, as for any action):

* ``sweep`` at start-up: schedules the deadline of an open prompt saved before deadlines were committed with the
  state (a question without a recorded time gets one from now, by its ruleset's ``prompt_minutes``);
* ``run_due_deadlines`` every minute: fires each due deadline once, through the service, and posts what it did
  (the ruleset's presenter words it: ``prompt_reply``, else ``after``, else the events).

One campaign that fails (a broken state, a post that can't be made) is logged and skipped; the others go on.
The front door passes its command layer (``commands.core.Table``) as ``table`` and a ``send(channel, reply)``.
"""
from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

from engine import rulesets
from engine.core import Action, RuleError
from engine.present import error_text, say
from engine.prompts import open_prompt
from engine.reply import Reply

log = logging.getLogger("hexpost.deadlines")
POLL_SECONDS = 60


async def sweep(table: Any, now: float | None = None) -> int:
    """At start-up: schedule the deadline of any open prompt that has none in the database; returns how many.

    Every active campaign is looked at with its own ruleset; one that can't be read is logged and skipped.
    """
    store = table.service.store
    now = table.service.clock() if now is None else now
    added = 0
    for cid, channel in await store.active_campaigns():
        try:
            added += await _sweep_one(store, cid, channel, now)
        except Exception:  # noqa: BLE001 - one campaign must not stop the others
            log.exception("deadline sweep: campaign %s in %s skipped", cid, channel)
    return added


async def _sweep_one(store: Any, cid: int, channel: str, now: float) -> int:
    stored = await store.load_active(channel)
    if stored is None or stored.id != cid:
        return 0
    game = rulesets.of_state(stored.state)
    state = game.load(stored.state)
    prompt = open_prompt(state)
    if prompt is None or not prompt.timeout_action:
        return 0
    if any(d.key == prompt.deadline_key for d in await store.pending_deadlines(cid)):
        return 0
    due = prompt.deadline
    if due is None:
        minutes = game.prompt_minutes(state) if game.prompt_minutes is not None else 0
        if minutes <= 0:
            return 0
        due = now + minutes * 60
    return int(await store.add_deadline(cid, prompt.deadline_key, prompt.kind, channel, prompt.owner, due, now))


async def fire_deadline(table: Any, deadline: Any) -> Reply | None:
    """Apply one due deadline through the service; the post to make, or None when it no longer applies."""
    if await table.service.campaign_id(deadline.channel_id) != deadline.campaign_id:
        return None

    def build(state: Any) -> Action:  # under the channel's lock: only the prompt the deadline was set for
        prompt = open_prompt(state)
        if prompt is None or prompt.deadline_key != deadline.key or not prompt.timeout_action:
            raise RuleError("That question was already answered; nothing timed out.")
        return Action(prompt.timeout_action, state.leader, {"ask": prompt.id})

    try:
        out = await table.service.execute(deadline.channel_id, build, campaign=deadline.campaign_id)
    except RuleError as exc:  # answered meanwhile, or the time-out was turned off
        log.info("deadline %s of campaign %s: %s", deadline.key, deadline.campaign_id, error_text(exc))
        return None
    inv = table.invocation(out.action.actor, deadline.channel_id)
    inv.campaign_id, inv.ruleset = out.campaign_id, getattr(out.state, "ruleset", None)
    present = rulesets.named(getattr(out.state, "ruleset", None)).present
    for method in ("prompt_reply", "after"):
        if hasattr(present, method):
            reply = await getattr(present, method)(inv, out)
            if reply is not None:
                return reply
    return Reply(content="\n".join(say(e) for e in out.events)[:1990])


async def run_due_deadlines(table: Any, send: Callable[[str, Reply], Awaitable[object]],
                            now: float | None = None) -> int:
    """Fire every deadline due at ``now`` and post what it did; returns how many posts were made.

    Exactly once: the time-out action itself refuses unless its question is still the one waiting, so of
    two loops (or a retry after a crash) only one changes the campaign and posts; the row is then marked
    fired.  A post that fails is logged, not retried (the campaign has moved on; its status shows it).
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
