"""How the front doors show people and rule texts: the presentation vocabulary every presenter shares.

Rule code writes a player as ``{@key}`` in an event's or error's text; here it
becomes a Discord mention, the form both front doors read (the local table
turns ``<@id>`` into ``@name``; the picture log uses names).  ``{*words*}``
(``engine.core.strong``) becomes bold.
"""
from __future__ import annotations

from engine.core import Event, RuleError, word


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def bold(text: str) -> str:
    """Emphasis as Discord (and the local table) shows it."""
    return f"**{text}**"


def say(event: Event, person=mention) -> str:
    return word(event.text, event.data, person, bold)


def error_text(exc: RuleError, person=mention) -> str:
    return word(exc.template, exc.people, person, bold)


def reminder_line(user_id: str, campaign: str) -> str:
    return f"{mention(user_id)}, it's your move in **{campaign}**."
