"""What a member missed and where they are awaited: `/campaign recap`, the recap a member gets by themselves when they
act for the first time after others played, and `/mine` (every campaign of the server that waits for them).
"""
from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any

from engine import rulesets
from engine.commands import Invocation, command
from engine.core import RuleError
from engine.present import mention
from engine.recap import recap_groups, since_last
from engine.reply import COLOR_INFO, Embed, Reply, clip
from engine.text import count

log = logging.getLogger("hexpost.recap")

NO_CAMPAIGN = "This channel has no campaign yet. Start one with `/campaign new`."
RECAP_ENTRIES = 60  # at most this many entries in a recap (the older ones: `/campaign log`)
# A member who acts for the first time after others played, and whose last action is at least this old, gets the
# recap of what they missed with their answer (a table playing quickly gets none: they saw it happen).
RECAP_AFTER_SECONDS = 3600


def channel_link(guild_id: str | None, channel_id: str, message_id: str | None = None) -> str:
    """Where `/mine` sends a member: the campaign's dashboard message when the campaign has one, else its channel."""
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


# ------------------------------------------------------------------ recap --
async def recap_reply(inv: Invocation, member: str, *, before_seq: int | None = None, auto: bool = False) -> Reply | None:
    """The recap of what ``member`` missed in this channel's campaign (private), or None when there is nothing
    (``auto``: the recap a member gets with their action; ``before_seq``: the first entry of that action)."""
    cid, state = await inv.service.current(inv.channel_id)
    if cid is None:
        raise RuleError(NO_CAMPAIGN)
    store = inv.service.store
    last = await store.last_seq_of(cid, member, before_seq=before_seq)
    if auto:
        if last is None:
            return None
        mine = await store.log_events(cid, limit=1, before_seq=last + 1)
        if not mine or inv.service.clock() - mine[-1].at < RECAP_AFTER_SECONDS:
            return None
    entries = await store.log_events(cid, limit=RECAP_ENTRIES, before_seq=before_seq, after_seq=last)
    entries = since_last(entries, member)
    if not entries:
        if auto:
            return None
        return Reply(content=f"Nothing happened in **{state.name}** since your last action: you missed nothing.",
                     ephemeral=True)
    game = rulesets.named(getattr(state, "ruleset", None))
    groups = recap_groups(entries, game, mention)
    text = "\n".join(f"**{g.title}**\n" + "\n".join(g.lines) for g in groups)
    if len(text) > 3900:  # keep the newest: the older ones are a page of `/campaign log` away
        text = "…\n" + text[-3880:].split("\n", 1)[-1]
    since = ("since your last action" + (f" (#{last})" if last else "")) if last else "since the campaign began"
    when = datetime.fromtimestamp(entries[0].at, timezone.utc).strftime("%Y-%m-%d %H:%M")
    emb = Embed(title=clip(f"What you missed in {state.name}", 256), description=text, color=COLOR_INFO,
                footer=f"{count(len(entries), 'action')} {since}, from {when} UTC. The whole history: /campaign log")
    reply = Reply(embeds=[emb], ephemeral=True)
    picture = await _picture(inv, state, game)
    if picture is not None:
        emb.image = picture.filename
        reply.pictures = [picture]
    return reply


async def _picture(inv: Invocation, state, game) -> Any:
    """The picture that matters most now: the first picture of the campaign's status post (the battle map, the
    overland map, the field), if it has one."""
    present = game.present
    if present is None or not hasattr(present, "status"):
        return None
    try:
        status = await present.status(inv, state)
    except RuleError:
        return None
    return status.pictures[0] if status.pictures else None


async def recap_after(inv: Invocation, reply: Reply) -> None:
    """Add the private recap to a command's answer when its action is the member's first after others played."""
    if not inv.done or reply.error:
        return
    try:
        extra = await recap_reply(inv, inv.user_id, before_seq=inv.done[0].seq, auto=True)
    except RuleError:
        return
    except Exception:  # noqa: BLE001 - the action is saved; a recap that fails must not hide its answer
        log.warning("recap for %s in %s failed", inv.user_id, inv.channel_id, exc_info=True)
        return
    if extra is not None:
        reply.followups.append(extra)


@command("campaign recap", "What happened since your last action, in words (only you see it).", private=True)
async def campaign_recap(inv: Invocation) -> Reply:
    reply = await recap_reply(inv, inv.user_id)
    assert reply is not None
    return reply


# ------------------------------------------------------------------- mine --
def awaited(game, state, member: str) -> str | None:
    """Why the campaign waits for ``member`` (their turn, a question, its deadline), or None."""
    prompt = game.open_prompt(state) if game.open_prompt is not None else None
    if prompt is not None:
        owners = {str(o) for o in (getattr(prompt, "owners", ()) or ())} | {str(prompt.owner)}
        if member in owners:
            due = ""
            if prompt.deadline:
                due = " (answer by " + datetime.fromtimestamp(prompt.deadline, timezone.utc).strftime(
                    "%Y-%m-%d %H:%M") + " UTC, or the default applies)"
            return f"a question waits for your answer{due}"
    move = game.whose_move(state)
    if move and str(move[0]) == member:
        return "it is your move"
    return None


async def mine_lines(service, guild_id: str, member: str) -> list[str]:
    """A line per active campaign of the server that waits for ``member``, the longest waiting first."""
    out = []
    for _cid, channel_id, updated, raw in await service.store.active_in_guild(guild_id):
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
        since = datetime.fromtimestamp(updated, timezone.utc).strftime("%Y-%m-%d %H:%M")
        link = channel_link(guild_id, channel_id)  # the dashboard's message id goes here once campaigns keep one
        out.append(f"**{clip(state.name, 80)}** ({game.title}) in <#{channel_id}>: {why}, since {since} UTC. "
                   f"[Open it]({link})")
    return out


@command("mine", "Every campaign on this server that waits for you, the longest waiting first (only you see it).",
         private=True)
async def mine(inv: Invocation) -> Reply:
    if not inv.guild_id:
        raise RuleError("`/mine` lists the campaigns of a server: use it in one of the server's channels.")
    lines = await mine_lines(inv.service, inv.guild_id, inv.user_id)
    if not lines:
        return Reply(content="No campaign on this server waits for you right now.", ephemeral=True)
    emb = Embed(title="Waiting for you", description=clip("\n".join(f"{i}. {t}" for i, t in enumerate(lines, 1)),
                                                           4000), color=COLOR_INFO)
    return Reply(embeds=[emb], ephemeral=True)
