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

Nudges respect sleep.  A reminder scheduled with an interval (``every``, the
campaign's ``reminder_hours``) repeats at that interval until the turn moves on:
claiming it moves its time forward (``Store.claim_repeat``), so two loops still
post each repeat once.  Each member may set (``/me``) a time zone, quiet hours
in it and an away date (``Store.member_prefs``): a reminder due in their quiet
hours is held to the end of them, and one due while they are away waits until
they are back (``hold_until``; anything else the bot posts to a member on its
own, such as a digest, asks it too).  The Snooze buttons on every reminder
(``snooze_buttons``) move it to later.
"""
from __future__ import annotations

import logging
import re
import time
from datetime import date, datetime, timedelta, timezone
from typing import Awaitable, Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.core import RuleError
from engine.store import MemberPrefs, Reminder, Store

log = logging.getLogger("hexpost.reminders")

POLL_SECONDS = 60


async def run_due(store: Store, send: Callable[[Reminder], Awaitable[object]], now: float | None = None) -> int:
    """Claim and send every reminder due at ``now``; returns how many this call sent."""
    now = time.time() if now is None else now
    sent = 0
    for reminder in await store.due_reminders(now):
        held = hold_until(await store.member_prefs(reminder.user_id), now)
        if held is not None:  # quiet hours or away: it waits, unsent
            await store.postpone_reminder(reminder.campaign_id, reminder.turn_key, reminder.due_at, held)
            continue
        if reminder.every:
            claimed = await store.claim_repeat(reminder.campaign_id, reminder.turn_key, reminder.due_at,
                                               now + reminder.every)
        else:
            claimed = await store.claim_reminder(reminder.campaign_id, reminder.turn_key, now)
        if not claimed:
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


# ---------------------------------------------------------------- member settings --
TZ_EXAMPLE = "`Europe/Berlin` or `America/New_York`"
SNOOZES = {"1h": "1 hour", "8h": "8 hours", "tomorrow": "Until tomorrow"}


def zone(prefs: MemberPrefs) -> ZoneInfo | timezone:
    try:
        return ZoneInfo(prefs.timezone) if prefs.timezone else timezone.utc
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.utc


def parse_timezone(text: str) -> str:
    """An IANA time zone name, checked; refused with the format otherwise."""
    name = text.strip()
    try:
        if not re.fullmatch(r"[A-Za-z0-9_+\-/]{1,60}", name) or name.startswith("/"):
            raise ValueError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        from engine.commands import clip_echo

        raise RuleError(f"`timezone` must be a time zone name like {TZ_EXAMPLE} (you gave `{clip_echo(text)}`). "
                        "Nothing was changed.") from None
    return name


def parse_quiet(text: str) -> tuple[int, int] | None:
    """Quiet hours like `22-07` (from 22:00 to 07:00 your time); `off` for none."""
    t = text.strip().lower()
    if t in ("off", "none", "no"):
        return None
    m = re.fullmatch(r"(\d{1,2})(?::00)?\s*-\s*(\d{1,2})(?::00)?", t)
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 23 or m.group(1) == m.group(2):
        from engine.commands import clip_echo

        raise RuleError(f"`quiet` must be two whole hours of your clock, from-to, like `22-07` (22:00 to 07:00), "
                        f"or `off` (you gave `{clip_echo(text)}`). Nothing was changed.")
    return int(m.group(1)), int(m.group(2))


def parse_until(text: str, prefs: MemberPrefs, now: float) -> float | None:
    """The day a member is back, `YYYY-MM-DD` (from its start, their time); `off` when they are back now."""
    t = text.strip().lower()
    if t in ("off", "back", "none", "no"):
        return None
    from engine.commands import clip_echo

    try:
        day = date.fromisoformat(t)
    except ValueError:
        raise RuleError(f"`until` must be the date you are back, like `2026-12-24` (year-month-day), or `off` "
                        f"(you gave `{clip_echo(text)}`). Nothing was changed.") from None
    tz = zone(prefs)
    back = datetime(day.year, day.month, day.day, tzinfo=tz).timestamp()
    today = datetime.fromtimestamp(now, tz).date()
    if back <= now:
        raise RuleError(f"`until` must be a day after today ({today.isoformat()} on your clock); to end an "
                        "absence say `until:off`. Nothing was changed.")
    if day > today + timedelta(days=366):
        raise RuleError("`until` may be at most a year ahead. Nothing was changed.")
    return back


def in_quiet(prefs: MemberPrefs, now: float) -> bool:
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return False
    hour = datetime.fromtimestamp(now, zone(prefs)).hour
    start, end = prefs.quiet_start, prefs.quiet_end
    return start <= hour < end if start < end else (hour >= start or hour < end)


def quiet_ends(prefs: MemberPrefs, now: float) -> float:
    """The first moment after ``now`` at the end of the member's quiet hours (their clock)."""
    tz = zone(prefs)
    local = datetime.fromtimestamp(now, tz)
    for days in range(0, 3):
        day = (local + timedelta(days=days)).date()
        end = datetime(day.year, day.month, day.day, prefs.quiet_end or 0, tzinfo=tz).timestamp()
        if end > now:
            return end
    return now + 3600  # not reached: a day has quiet hours' end in it


def hold_until(prefs: MemberPrefs, now: float) -> float | None:
    """When a nudge due at ``now`` may reach this member (None: now): after their absence, out of quiet hours."""
    when = now
    if prefs.away_until is not None and prefs.away_until > when:
        when = prefs.away_until
    if in_quiet(prefs, when):
        when = quiet_ends(prefs, when)
    return None if when == now else when


def is_away(prefs: MemberPrefs, now: float) -> bool:
    return prefs.away_until is not None and prefs.away_until > now


async def away_note(store: Store, member: str, now: float | None = None) -> str | None:
    """The words that say a member is away (for a status, the dashboard, an answer), or None when they are not."""
    now = time.time() if now is None else now
    prefs = await store.member_prefs(member)
    if not is_away(prefs, now):
        return None
    from engine.present import mention

    back = int(prefs.away_until)
    return (f"{mention(member)} is away until <t:{back}:f> (<t:{back}:R>): no reminders for them until then; "
            "the party leader may act for them with `player:`.")


def snooze_until(prefs: MemberPrefs, choice: str, now: float) -> float:
    """When a snoozed reminder comes back: in 1 or 8 hours, or tomorrow at the end of quiet hours (09:00 without
    them), on the member's clock."""
    if choice == "1h":
        return now + 3600
    if choice == "8h":
        return now + 8 * 3600
    tz = zone(prefs)
    day = datetime.fromtimestamp(now, tz).date() + timedelta(days=1)
    hour = prefs.quiet_end if prefs.quiet_end is not None else 9
    return datetime(day.year, day.month, day.day, hour, tzinfo=tz).timestamp()


def turn_mark(turn_key: str) -> str:
    """A short, id-safe mark of the turn a reminder is about (a Snooze button names it: a later turn's reminder
    is never snoozed by an old button)."""
    import hashlib

    return hashlib.sha256(str(turn_key).encode()).hexdigest()[:10]


def snooze_buttons(channel_id: str, campaign_id: int, turn_key: str = ""):
    from engine.components import make_id
    from engine.reply import Button

    return [Button(make_id("snooze", channel_id, f"{choice}.{turn_mark(turn_key)}", campaign=campaign_id),
                   f"Snooze: {label}") for choice, label in SNOOZES.items()]


async def reminder_reply(store: Store, reminder: Reminder):
    """The reminder's post (its words and Snooze buttons), or None when it no longer applies."""
    text = await reminder_text(store, reminder)
    if text is None:
        return None
    from engine.reply import Reply

    return Reply(content=text, buttons=snooze_buttons(reminder.channel_id, reminder.campaign_id, reminder.turn_key))
