"""The Discord side of deadlines (a prompt's time-out, in any ruleset): a task that polls the database every minute.

``bot.py`` calls ``start_deadlines(bot)`` from its setup hook and cancels the task on close.  The logic
(which deadlines are due, firing each exactly once, the post) is ``engine.deadlines``.
"""
from __future__ import annotations

import asyncio
import logging

import discord

from engine.deadlines import POLL_SECONDS, run_due_deadlines, sweep
from engine.reply import Reply

log = logging.getLogger("hexpost.deadlines")


def start_deadlines(bot, *, interval: float = POLL_SECONDS) -> asyncio.Task:
    return asyncio.get_running_loop().create_task(deadline_loop(bot, interval), name="hexpost-deadlines")


async def deadline_loop(bot, interval: float = POLL_SECONDS) -> None:
    await bot.wait_until_ready()
    try:
        await sweep(bot.table)
    except Exception:  # noqa: BLE001
        log.exception("deadline sweep at start failed")
    while not bot.is_closed():
        try:
            await run_due_deadlines(bot.table, lambda channel_id, reply: post_reply(bot, channel_id, reply))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - keep polling; the next round may work
            log.exception("deadline round failed")
        await asyncio.sleep(interval)


async def post_reply(bot, channel_id: str, reply: Reply) -> None:
    """Post a reply the bot makes by itself (no interaction) in the campaign's channel."""
    from cogs.common import message_kwargs, render_files

    if not str(channel_id).isdigit():
        return  # not a Discord campaign (e.g. made at the local table)
    channel = bot.get_channel(int(channel_id))
    if channel is None:
        try:
            channel = await bot.fetch_channel(int(channel_id))
        except (discord.NotFound, discord.Forbidden):
            log.info("deadline channel %s is gone or hidden; skipped", channel_id)
            return
    files = await render_files(reply)
    await channel.send(**message_kwargs(reply, files))
    for extra in reply.followups:
        await post_reply(bot, channel_id, extra)
    dashboards = getattr(bot, "dashboards", None)
    if dashboards is not None:  # the time-out was an action: the dashboard follows it
        dashboards.request(str(channel_id))
