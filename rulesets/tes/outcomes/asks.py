"""What the day waits for (``Session.ask``): opening and closing the one question of the moment.

Its deadline is written by the action that opens it (``day_hours`` from now; ``/day settings``), so the
service keeps it in the deadlines table with the state; at the deadline the bot runs ``day.timeout``, which
applies the question's default.
"""
from __future__ import annotations

from rulesets.tes.day_state import Ask
from rulesets.tes.outcomes.context import DayCtx

DEFAULT_DAY_HOURS = 12
MAX_DAY_HOURS = 7 * 24


def day_hours(state) -> int:
    """Hours a question of the day waits before its default applies (0: it waits for the answer)."""
    try:
        return max(0, min(MAX_DAY_HOURS, int(state.settings.get("day_hours", DEFAULT_DAY_HOURS))))
    except (TypeError, ValueError):
        return DEFAULT_DAY_HOURS


def open_ask(c: DayCtx, kind: str, owners: list[str], **data) -> Ask:
    s = c.s
    s.serial += 1
    hours = day_hours(c.state)
    deadline = c.now + hours * 3600 if hours > 0 and c.now else None
    s.ask = Ask(kind, list(dict.fromkeys(owners)), s.serial, deadline, dict(data))
    return s.ask


def close(c: DayCtx) -> None:
    c.s.ask = None


def answered(c: DayCtx, owner: str) -> bool:
    """``owner`` has answered; True when nobody is left to answer."""
    ask = c.s.ask
    if ask is not None and owner in ask.owners:
        ask.owners.remove(owner)
    return ask is None or not ask.owners
