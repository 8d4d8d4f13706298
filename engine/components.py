"""Buttons and menus that keep working after a restart and days later.

Everything a click needs is in its ``custom_id``: ``hx:<kind>:<channel>:<arg>``.
Nothing is kept in memory; the campaign is loaded when the click arrives, and a
click on a prompt that is out of date gets a clear answer.  The cogs register
one ``DynamicItem`` matching every ``hx:`` id (``ANY_ID``), so even a button
an earlier version posted is answered.

A button that acts on a campaign carries that campaign's id (``campaign=`` in
``make_id``: the arg starts with ``c<campaign id>.``) and, in its arg, the
identity of what it acts on (a member, an adventurer, a log entry).  Its kind
is registered with ``on_click(kind, campaign=True)``; ``handle_click`` answers
a click of an ended or replaced campaign, or without a campaign id (an earlier
version's button), as out of date before the handler runs, so it changes nothing.
A kind registered with ``ruleset=`` is refused clearly in a channel whose
campaign plays another game.  Every kind is also bound to the question it
answers (a prompt's id, a battle's number, a turn's mark, the newest log entry
when it was asked), which its handler checks, so an answered question's button
changes nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from engine.reply import Button, Reply

PREFIX = "hx"
ID_RE = re.compile(r"^hx:(?P<kind>[a-z][a-z0-9.-]{0,20}):(?P<channel>[A-Za-z0-9_-]{1,30}):(?P<arg>[A-Za-z0-9_.:,-]{0,70})$")
#: every id this bot ever posted starts with this: the front door answers all of them, even a malformed one
ANY_ID = r"hx:[^\s]{0,97}"
CAMPAIGN_ARG = re.compile(r"^c(?P<campaign>\d{1,12})\.(?P<rest>.*)$")

OLD_BUTTON = ("This button is out of date: it comes from an earlier version of the bot and no longer acts. "
              "Nothing was changed; run the command again for a fresh one.")
STALE_CAMPAIGN = ("This button is out of date: its campaign has ended or been replaced in this channel, so it no "
                  "longer acts. Nothing was changed; run the command again for a fresh one.")


@dataclass(frozen=True)
class Click:
    """A registered kind of click: its handler, whether its ids carry the campaign, which game it belongs to."""

    handler: Callable[..., Any]
    campaign: bool = False
    ruleset: str | None = None


# kind -> Click.  Modules register their own kinds with ``@on_click``.
CLICKS: dict[str, Click] = {}


def on_click(kind: str, *, campaign: bool = False, ruleset: str | None = None):
    """Register ``handler(inv, arg, values) -> Reply`` for ``kind``.  With ``campaign`` the handler gets the arg
    after its ``c<id>.`` prefix, only for a click of the channel's current campaign."""

    def deco(fn):
        if kind in CLICKS:
            raise RuntimeError(f"click kind {kind} registered twice")
        CLICKS[kind] = Click(fn, campaign, ruleset)
        return fn

    return deco


def make_id(kind: str, channel_id: str, arg: str = "", *, campaign: int | None = None) -> str:
    if campaign is not None:
        arg = f"c{int(campaign)}.{arg}"
    cid = f"{PREFIX}:{kind}:{channel_id}:{arg}"
    if not ID_RE.match(cid) or len(cid) > 100:
        raise ValueError(f"bad component id {cid!r}")
    return cid


def confirm_buttons(kind: str, channel_id: str, arg: str, label: str, *, campaign: int | None = None) -> list[Button]:
    return [
        Button(make_id(kind, channel_id, arg, campaign=campaign), label, "danger"),
        Button(make_id("cancel", channel_id, kind, campaign=campaign), "Cancel", "secondary"),
    ]


async def handle_click(inv, custom_id: str, values: list[str]) -> Reply:
    m = ID_RE.match(custom_id or "")
    if not m:
        return Reply.fail(OLD_BUTTON)
    kind, channel, arg = m.group("kind"), m.group("channel"), m.group("arg")
    if channel != inv.channel_id:
        return Reply.fail("This button belongs to a campaign in another channel.")
    click = CLICKS.get(kind)
    if click is None:
        return Reply.fail(OLD_BUTTON)
    if click.ruleset is not None:
        playing = getattr(inv, "ruleset", None)
        if playing is not None and playing != click.ruleset:
            return Reply.fail("This button is out of date: it belongs to another game than the one this channel's "
                              "campaign plays now, so it no longer acts. Nothing was changed; see /help for this "
                              "campaign's commands.")
    if click.campaign:
        bound = CAMPAIGN_ARG.match(arg)
        if bound is None:
            return Reply.fail(OLD_BUTTON)
        if getattr(inv, "campaign_id", None) != int(bound.group("campaign")):
            return Reply.fail(STALE_CAMPAIGN)
        arg = bound.group("rest")
        inv.expected_campaign = int(bound.group("campaign"))  # checked again under the channel's lock
    return await click.handler(inv, arg, values)


@on_click("cancel", campaign=True)
async def _cancel(inv, arg, values) -> Reply:
    return Reply(content="Cancelled; nothing was changed.", update=True)
