"""Turn reminders: the loop's logic, without Discord.

The service schedules a reminder in the same transaction that changes whose
move it is (``CampaignService._commit``): the ``reminders`` table holds one
unsent row per campaign, keyed by the turn (the ruleset's ``whose_move``), due
``reminder_hours`` after the turn began.  A new turn replaces it; the end of
the campaign, a turn with nobody to wait for, or ``reminder_hours`` 0 cancels it.

``run_due`` sends what is due.  Each reminder is first *claimed* in the
database (``Store.claim_reminder`` marks it sent only if nobody has), then
sent: two loops, in one process or two, never send the same reminder twice.
A send that fails after the claim is logged and not retried (at most once:
a missed nudge is better than a doubled one).
"""
from __future__ import annotations

import logging
import time
from typing import Awaitable, Callable

from engine.store import Reminder, Store

log = logging.getLogger("hexpost.reminders")

POLL_SECONDS = 60


async def run_due(store: Store, send: Callable[[Reminder], Awaitable[object]], now: float | None = None) -> int:
    """Claim and send every reminder due at ``now``; returns how many this call sent."""
    now = time.time() if now is None else now
    sent = 0
    for reminder in await store.due_reminders(now):
        if not await store.claim_reminder(reminder.campaign_id, reminder.turn_key, now):
            continue  # another loop claimed it, or the turn moved on
        try:
            await send(reminder)
        except Exception:  # noqa: BLE001 - one failed post must not stop the others
            log.exception("reminder for campaign %s (turn %s) could not be sent",
                          reminder.campaign_id, reminder.turn_key)
            continue
        sent += 1
    return sent


async def reminder_text(store: Store, reminder: Reminder) -> str | None:
    """What to post for a claimed reminder, or None when it no longer applies.

    Checked against the campaign as it is now: if it ended, or the player the
    table waits for changed since the claim, nothing is posted.
    """
    from engine import rulesets

    stored = await store.load_active(reminder.channel_id)
    if stored is None or stored.id != reminder.campaign_id:
        return None
    game = rulesets.of_state(stored.state)
    state = game.load(stored.state)
    from engine.actions import stand_in

    now = game.whose_move(state)
    if now is None or (stand_in(state, now[0]), now[1]) != (reminder.user_id, reminder.turn_key):
        return None
    from engine.present import reminder_line

    return reminder_line(reminder.user_id, state.name)
