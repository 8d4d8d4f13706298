"""Buttons and menus that keep working after a restart and days later.

Everything a click needs is in its ``custom_id``: ``hx:<kind>:<channel>:<arg>``.
Nothing is kept in memory; the campaign is loaded when the click arrives, and a
click on a prompt that is out of date gets a clear answer.  The cogs register
one ``DynamicItem`` per kind with a pattern matching these ids.
"""
from __future__ import annotations

import re

from engine.reply import Button, Reply
from engine.core import RuleError

PREFIX = "hx"
ID_RE = re.compile(r"^hx:(?P<kind>[a-z][a-z0-9.-]{0,20}):(?P<channel>[A-Za-z0-9_-]{1,30}):(?P<arg>[A-Za-z0-9_.:,-]{0,70})$")

# kind -> async handler(inv, arg, values) -> Reply.  Modules register their own kinds with ``@on_click``.
CLICKS: dict = {}


def on_click(kind: str):
    def deco(fn):
        if kind in CLICKS:
            raise RuntimeError(f"click kind {kind} registered twice")
        CLICKS[kind] = fn
        return fn

    return deco


def make_id(kind: str, channel_id: str, arg: str = "") -> str:
    cid = f"{PREFIX}:{kind}:{channel_id}:{arg}"
    if not ID_RE.match(cid) or len(cid) > 100:
        raise ValueError(f"bad component id {cid!r}")
    return cid


def confirm_buttons(kind: str, channel_id: str, arg: str, label: str) -> list[Button]:
    return [
        Button(make_id(kind, channel_id, arg), label, "danger"),
        Button(make_id("cancel", channel_id, kind), "Cancel", "secondary"),
    ]


async def handle_click(inv, custom_id: str, values: list[str]) -> Reply:
    m = ID_RE.match(custom_id or "")
    if not m:
        return Reply.fail("This button is from an older version of the bot and no longer works. "
                          "Run the command again for a fresh one.")
    kind, channel, arg = m.group("kind"), m.group("channel"), m.group("arg")
    if channel != inv.channel_id:
        return Reply.fail("This button belongs to a campaign in another channel.")
    handler = CLICKS.get(kind)
    if handler is None:
        raise RuleError("This button no longer does anything. Run the command again.")
    return await handler(inv, arg, values)


@on_click("cancel")
async def _cancel(inv, arg, values) -> Reply:
    return Reply(content="Cancelled; nothing was changed.", update=True)
