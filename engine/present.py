"""How the front doors show people and rule texts: the presentation vocabulary every presenter shares.

Rule code writes a player as ``{@key}`` in an event's or error's text; here it
becomes a Discord mention, the form both front doors read (the local table
turns ``<@id>`` into ``@name``; the picture log uses names).  ``{*words*}``
(``engine.core.strong``) becomes bold.
"""
from __future__ import annotations

from typing import Any

from engine.core import Event, RuleError, word
from engine.text import plain

#: an event's ``data[MEMBER_TEXT]`` lists the texts in its line that a member wrote (a reason): shown as plain text
MEMBER_TEXT = "member_text"


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def bold(text: str) -> str:
    """Emphasis as Discord (and the local table) shows it."""
    return f"**{text}**"


def say(event: Event, person=mention) -> str:
    return as_plain(word(event.text, event.data, person, bold), event.data)


def line(event: dict[str, Any], person=mention) -> str:
    """A stored event (a log entry's) in words, as a post shows it."""
    data = event.get("data") or {}
    return as_plain(word(str(event.get("text") or ""), data, person), data)


def as_plain(text: str, data: dict[str, Any]) -> str:
    """``text`` with every member-written part of it (``data[MEMBER_TEXT]``) made plain text (engine.text.plain)."""
    for part in data.get(MEMBER_TEXT) or ():
        if isinstance(part, str) and part:
            text = text.replace(part, plain(part))
    return text


def error_text(exc: RuleError, person=mention) -> str:
    return word(exc.template, exc.people, person, bold)


def reminder_line(user_id: str, campaign: str) -> str:
    return f"{mention(user_id)}, it's your move in **{campaign}**."
