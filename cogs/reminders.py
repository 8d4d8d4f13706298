"""The Discord side of turn reminders: a task that polls the database every minute.

``bot.py`` calls ``start_reminders(bot)`` from its setup hook and cancels the
task on close.  The logic (claim once, then send) is ``engine.reminders``; the same sweep sends the members' daily digests
(``engine.digests``) as private messages.
"""
from __future__ import annotations

import asyncio
import logging

import discord

from engine.digests import run_due_digests
from engine.reminders import POLL_SECONDS, reminder_reply, run_due
from engine.store import Reminder

log = logging.getLogger("hexpost.reminders")


def start_reminders(bot, *, interval: float = POLL_SECONDS) -> asyncio.Task:
    return asyncio.get_running_loop().create_task(reminder_loop(bot, interval), name="hexpost-reminders")


async def reminder_loop(bot, interval: float = POLL_SECONDS) -> None:
    await bot.wait_until_ready()
    while not bot.is_closed():
        try:
            await remind_round(bot)
            if bot.store is not None:
                await run_due_digests(bot.store, lambda _guild, user, text: send_digest(bot, user, text))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - keep polling; the next round may work
            log.exception("reminder round failed")
        await asyncio.sleep(interval)


async def remind_round(bot, now: float | None = None) -> int:
    """One round of the loop: post every reminder due at ``now`` (the bot's clock when None)."""
    if bot.store is None:
        return 0
    if now is None:
        table = getattr(bot, "table", None)
        now = table.service.clock() if table is not None else None
    return await run_due(bot.store, lambda r: post_reminder(bot, r), now)


async def post_reminder(bot, reminder: Reminder) -> None:
    if not str(reminder.user_id).isdigit() or not str(reminder.channel_id).isdigit():
        return  # not a Discord campaign (e.g. made at the local table)
    reply = await reminder_reply(bot.store, reminder)
    if reply is None:
        return
    stored = await bot.store.load_active(reminder.channel_id)
    members = (stored.state.get("members") or []) if stored is not None else []
    if str(reminder.user_id) not in [str(m) for m in members]:
        return  # the bot never pings anyone outside the party
    channel = bot.get_channel(int(reminder.channel_id))
    if channel is None:
        try:
            channel = await bot.fetch_channel(int(reminder.channel_id))
        except (discord.NotFound, discord.Forbidden):
            log.info("reminder channel %s is gone or hidden; skipped", reminder.channel_id)
            return
    from cogs.common import build_view

    view = build_view(reply)  # the Snooze buttons
    await channel.send(reply.content, allowed_mentions=allowed_for(reminder.user_id),
                       **({"view": view} if view is not None else {}))


async def send_digest(bot, user_id: str, text: str) -> None:
    """A member's daily digest, as a private message (a member of the local table has none)."""
    if not str(user_id).isdigit():
        return
    user = bot.get_user(int(user_id)) or await bot.fetch_user(int(user_id))
    await user.send(text, allowed_mentions=discord.AllowedMentions.none())


def allowed_for(user_id: str) -> discord.AllowedMentions:
    """Only the player whose move it is may be pinged."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(user_id))],
                                   replied_user=False)
