"""How the front doors show people and rule texts: the presentation vocabulary every presenter shares.

Rule code writes a player as ``{@key}`` in an event's or error's text; here it
becomes a Discord mention, the form both front doors read (the local table
turns ``<@id>`` into ``@name``; the picture log uses names).
"""
from __future__ import annotations

from kernel.core import Event, RuleError, word


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def say(event: Event, person=mention) -> str:
    return word(event.text, event.data, person)


def error_text(exc: RuleError, person=mention) -> str:
    return word(exc.template, exc.people, person)


def reminder_line(user_id: str, campaign: str) -> str:
    return f"{mention(user_id)}, it's your move in **{campaign}**."
