"""Where a member is awaited across a server's campaigns (`/mine`) and their daily digest of it (`/me digest when:`).

A member's digest setting lives in ``member_settings`` (migration 006): ``daily`` with the time the next one is
due, or ``off``.  The reminder sweep (the same task and the same minute as turn reminders) calls ``run_due_digests``:
each due digest is first claimed in the database (its due time moved on by a day, only if nobody did it first),
then sent privately to the member; a digest with nothing waiting for them is claimed and not sent.
"""
from __future__ import annotations

import logging
import time
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable

from engine import rulesets
from engine.reply import clip
from engine.reminders import hold_until

log = logging.getLogger("hexpost.digests")

DAY = 24 * 3600


def channel_link(guild_id: str | None, channel_id: str, message_id: str | None = None) -> str:
    """Where `/mine` sends a member: the campaign's dashboard message when the campaign has one, else its channel."""
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def _utc(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M")


def awaited(game, state, member: str) -> str | None:
    """Why the campaign waits for ``member`` (their turn, a question, its deadline), or None."""
    prompt = game.open_prompt(state) if game.open_prompt is not None else None
    if prompt is not None:
        owners = {str(o) for o in (getattr(prompt, "owners", ()) or ())} | {str(prompt.owner)}
        if member in owners:
            due = f" (answer by {_utc(prompt.deadline)} UTC, or the default applies)" if prompt.deadline else ""
            return f"a question waits for your answer{due}"
    move = game.whose_move(state)
    if move and str(move[0]) == member:
        return "it is your move"
    return None


async def mine_lines(store, guild_id: str, member: str) -> list[str]:
    """A line per active campaign of the server that waits for ``member``, the longest waiting first."""
    out = []
    for _cid, channel_id, updated, raw in await store.active_in_guild(guild_id):
        try:
            game = rulesets.of_state(raw)
            state = game.load(raw)
        except Exception:  # noqa: BLE001 - a campaign this bot can't read is left out, not the whole list
            log.warning("campaign in %s could not be read for /mine", channel_id, exc_info=True)
            continue
        if member not in [str(m) for m in state.members]:
            continue
        why = awaited(game, state, member)
        if why is None:
            continue
        link = channel_link(guild_id, channel_id)  # the dashboard's message id goes here once campaigns keep one
        out.append(f"**{clip(state.name, 80)}** ({game.title}) in <#{channel_id}>: {why}, since "
                   f"{_utc(updated)} UTC. [Open it]({link})")
    return out


def listing(lines: list[str]) -> str:
    return clip("\n".join(f"{i}. {t}" for i, t in enumerate(lines, 1)), 1900)


async def run_due_digests(store, send: Callable[[str, str, str], Awaitable[Any]], now: float | None = None) -> int:
    """Claim and send every daily digest due at ``now`` (``send(guild id, user id, text)``); how many were sent."""
    now = time.time() if now is None else now
    sent = 0
    for guild_id, user_id, due in await store.due_digests(now):
        held = hold_until(await store.member_prefs(user_id), now)
        if held is not None:  # in the member's quiet hours or away: it waits (moved, not sent) until then
            await store.claim_digest(guild_id, user_id, due, held)
            continue
        following = due + DAY * max(1, int((now - due) // DAY) + 1)  # the next one a day on, never in the past
        if not await store.claim_digest(guild_id, user_id, due, following):
            continue
        lines = await mine_lines(store, guild_id, user_id)
        if not lines:
            continue
        try:
            await send(guild_id, user_id, "Your daily digest: the campaigns waiting for you.\n" + listing(lines))
        except Exception:  # noqa: BLE001 - one failed message must not stop the others
            log.warning("digest for %s could not be sent", user_id, exc_info=True)
            continue
        sent += 1
    return sent
