"""The Discord side of the dashboard: one post per campaign, edited in place after every action.

``Dashboards.request(channel, campaign)`` is called after an action's reply has been sent (a command, a click, a
time-out); it never waits for the edit.  Requests that come while an update is waiting or running are coalesced:
two quick actions make one edit, of the latest content.  The post's id is kept in the database
(``Store.save_dashboard``), so after a restart the same post is edited; a post that was deleted (NotFound on
the edit) is posted again once and its new id kept.  The bot pins a new post where it may (Manage Messages);
without that permission it is simply not pinned.
"""
from __future__ import annotations

import asyncio
import io
import logging

import discord

from commands.dashboard import build
from engine.dashboard import FILENAME

log = logging.getLogger("hexpost.dashboard")

#: seconds an update waits for more actions before it edits (two quick actions make one edit)
SETTLE = 0.5


class Dashboards:
    def __init__(self, bot, settle: float = SETTLE):
        self.bot = bot
        self.settle = settle
        self._tasks: dict[str, asyncio.Task] = {}
        self._again: dict[str, int | None] = {}  # channels asked again while their update waited or ran
        self._campaign: dict[str, int | None] = {}
        self.edits = 0  # how many posts and edits were made (the bench and the tests read it)
        self._open = asyncio.Event()  # cleared: updates wait (``pause``), as if Discord were slow
        self._open.set()

    def pause(self) -> None:
        """Hold every update back until ``resume`` (requests meanwhile are coalesced as usual)."""
        self._open.clear()

    def resume(self) -> None:
        self._open.set()

    def request(self, channel_id: str, campaign_id: int | None = None) -> None:
        """Bring the channel's dashboard up to date soon (never waits; coalesced with other requests)."""
        channel_id = str(channel_id)
        if not channel_id.isdigit():
            return  # not a Discord channel (a campaign of the local table)
        self._campaign[channel_id] = campaign_id  # the newest request's campaign (None: the channel's active one)
        task = self._tasks.get(channel_id)
        if task is not None and not task.done():
            self._again[channel_id] = campaign_id
            return
        self._tasks[channel_id] = asyncio.get_running_loop().create_task(self._run(channel_id),
                                                                         name=f"hexpost-dashboard-{channel_id}")

    async def _run(self, channel_id: str) -> None:
        while True:
            await asyncio.sleep(self.settle)
            await self._open.wait()
            self._again.pop(channel_id, None)
            try:
                await self.update(channel_id, self._campaign.get(channel_id))
            except asyncio.CancelledError:
                raise
            except discord.HTTPException as exc:
                log.warning("the dashboard of %s could not be posted: %s", channel_id, exc)
            except Exception:  # noqa: BLE001 - the game goes on without its dashboard; the host sees why
                log.exception("the dashboard of %s failed", channel_id)
            if channel_id not in self._again:
                return

    async def idle(self) -> None:
        """Wait until every requested update is done (tests, and a clean stop)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*[t for t in self._tasks.values() if not t.done()], return_exceptions=True)

    async def close(self, timeout: float = 5.0) -> None:
        """Finish the updates under way (at most ``timeout`` seconds), then stop."""
        pending = [t for t in self._tasks.values() if not t.done()]
        if pending:
            _done, late = await asyncio.wait(pending, timeout=timeout)
            for t in late:
                t.cancel()

    async def update(self, channel_id: str, campaign_id: int | None = None) -> None:
        """Edit the dashboard post to the campaign as it stands (post it if there is none, or it was deleted)."""
        from cogs.common import drawn, to_embed

        store = self.bot.store
        if store is None:
            return
        built = await build(self.bot.table, channel_id, campaign_id)
        if built is None:
            return
        board = built.board
        embed = to_embed(board.embed())
        picture: tuple[bytes, str] | None = None
        if board.picture is not None:
            data, shows = await asyncio.to_thread(drawn, board.picture)
            picture = (data, board.alt(built.inv.name_of, shows))

        def files() -> list[discord.File]:
            return [] if picture is None else [discord.File(io.BytesIO(picture[0]), filename=FILENAME,
                                                            description=picture[1])]

        channel = self.bot.get_partial_messageable(int(channel_id))
        none = discord.AllowedMentions.none()
        if built.message_id:
            message = channel.get_partial_message(int(built.message_id))
            try:
                await message.edit(content=None, embed=embed, attachments=files(), allowed_mentions=none)
                self.edits += 1
                return
            except discord.NotFound:  # deleted: posted again, once, below
                log.info("the dashboard of %s was deleted; posting it again", channel_id)
        if board.ended:
            return  # a campaign that ended before its dashboard was posted gets none
        posted = await channel.send(embed=embed, files=files(), allowed_mentions=none)
        self.edits += 1
        await store.dashboard_posted(built.campaign_id, str(posted.id))
        try:
            await posted.pin(reason="The campaign's dashboard")
        except (discord.Forbidden, discord.NotFound):
            pass  # the bot may not pin here (Manage Messages is optional): the post stays unpinned
        except discord.HTTPException as exc:
            log.info("the dashboard of %s was not pinned: %s", channel_id, exc)
