"""/me: each member's nudge settings, whatever the channel: a time zone, quiet hours, an away date; and the
Snooze buttons of a turn reminder.  The rules of when a nudge may reach someone are ``engine.reminders``."""
from __future__ import annotations

from datetime import datetime

from engine import rulesets
from engine.commands import Invocation, Opt, command, group
from engine.components import on_click
from engine.core import RuleError
from engine.reminders import (
    SNOOZES, is_away, parse_quiet, parse_timezone, parse_until, snooze_until, turn_mark, zone,
)
from engine.reply import Embed, Reply

group("me", "Your reminders: time zone, quiet hours, away")


def _clock(inv: Invocation) -> float:
    return inv.service.clock()


def _quiet_words(prefs) -> str:
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return "none (reminders may reach you at any hour)"
    return (f"{prefs.quiet_start:02d}:00 to {prefs.quiet_end:02d}:00 your time: a reminder due then waits until "
            "they end")


def _settings_embed(prefs, now: float) -> Embed:
    local = datetime.fromtimestamp(now, zone(prefs))
    e = Embed(title="Your reminders")
    e.add("Time zone", f"{prefs.timezone or 'UTC (not set)'} · your clock now: {local:%H:%M}")
    e.add("Quiet hours", _quiet_words(prefs))
    e.add("Away", f"until <t:{int(prefs.away_until)}:f>: no reminders for you until then"
          if is_away(prefs, now) else "no")
    e.footer = "Change with /me settings timezone: quiet: and /me away until:"
    return e


@command("me settings", "Your time zone and quiet hours: reminders wait until your quiet hours end.",
         Opt("timezone", str, "Your time zone, e.g. Europe/Berlin or America/New_York"),
         Opt("quiet", str, "Hours no reminder reaches you, your time, e.g. 22-07; off for none"),
         private=True)
async def me_settings(inv: Invocation, timezone=None, quiet=None) -> Reply:
    store = inv.service.store
    prefs = await store.member_prefs(inv.user_id)
    now = _clock(inv)
    if timezone is None and quiet is None:
        return Reply(embeds=[_settings_embed(prefs, now)], ephemeral=True)
    tz = parse_timezone(timezone) if timezone is not None else prefs.timezone
    hours = parse_quiet(quiet) if quiet is not None else (prefs.quiet_start, prefs.quiet_end)
    prefs.timezone = tz
    prefs.quiet_start, prefs.quiet_end = hours if hours else (None, None)
    await store.set_member_prefs(prefs, now)
    return Reply(content="Saved.", embeds=[_settings_embed(prefs, now)], ephemeral=True)


@command("me away", "Away until a date: the bot skips your reminders; the leader may act for you.",
         Opt("until", str, "The day you are back, e.g. 2026-12-24 (your time zone); off when you are back",
             required=True),
         private=True)
async def me_away(inv: Invocation, until=None) -> Reply:
    store = inv.service.store
    prefs = await store.member_prefs(inv.user_id)
    now = _clock(inv)
    back = parse_until(until, prefs, now)
    if back is None:
        was = is_away(prefs, now)
        prefs.away_until = None
        await store.set_member_prefs(prefs, now)
        return Reply(content="Welcome back: your reminders reach you again." if was
                     else "You were not away; nothing was changed.", ephemeral=True)
    prefs.away_until = back
    await store.set_member_prefs(prefs, now)
    return Reply(content=f"You are away until <t:{int(back)}:f> (<t:{int(back)}:R>). Until then the bot skips your "
                         "reminders, `/campaign status` says you are away, and the party leader may act for you "
                         "with `player:`. Back earlier? `/me away until:off`.", ephemeral=True)


@on_click("snooze", campaign=True)
async def _snooze(inv, arg, values) -> Reply:
    arg, _, mark = arg.partition(".")
    if arg not in SNOOZES or not mark:
        raise RuleError("This button is out of date; nothing was changed.")
    stored = await inv.service.store.load_active(inv.channel_id)
    if stored is None:
        raise RuleError("This campaign has ended; there is nothing to snooze.")
    game = rulesets.of_state(stored.state)
    waiting = game.whose_move(game.load(stored.state))
    if waiting is not None and turn_mark(waiting[1]) != mark:
        raise RuleError("This button is out of date: the turn it reminded of has passed. Nothing was changed.")
    if waiting is None or waiting[0] != inv.user_id:
        if waiting is None:
            raise RuleError("This button is out of date: the table waits for nobody now, so there is nothing to "
                            "snooze. Nothing was changed.")
        raise RuleError("Only {@player}, whose move it is, can snooze this reminder. Nothing was changed.",
                        player=waiting[0])
    now = _clock(inv)
    until = snooze_until(await inv.service.store.member_prefs(inv.user_id), arg, now)
    if not await inv.service.store.snooze_reminder(stored.id, waiting[1], inv.user_id, until):
        raise RuleError("This reminder is out of date (reminders are off or the turn moved on); nothing was "
                        "changed.")
    return Reply(content=f"Snoozed: the next reminder comes <t:{int(until)}:f> (<t:{int(until)}:R>), unless you "
                         "move before then.", ephemeral=True)
