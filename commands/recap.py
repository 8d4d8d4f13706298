"""What a member missed and where they are awaited: `/campaign recap`, the recap a member gets by themselves when they
act for the first time after others played, and `/mine` (every campaign of the server that waits for them, engine/digests.py) and `/me digest when:`.
"""
from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any

from engine import rulesets
from engine.commands import Invocation, Opt, command
from engine.core import RuleError
from engine.digests import DAY, listing, mine_lines
from engine.present import mention
from engine.recap import recap_groups, since_last
from engine.reply import COLOR_INFO, Embed, Reply, clip
from engine.text import count

log = logging.getLogger("hexpost.recap")

NO_CAMPAIGN = "This channel has no campaign yet. Start one with `/campaign new`."
RECAP_ENTRIES = 60  # at most this many entries in a recap (the older ones: `/campaign log`)
PRELUDE = 20  # the entries before a recap read for the day and round it begins in
# A member who acts for the first time after others played, and whose last action is at least this old, gets the
# recap of what they missed with their answer (a table playing quickly gets none: they saw it happen).
RECAP_AFTER_SECONDS = 3600


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
    prelude = await store.log_events(cid, limit=PRELUDE, before_seq=entries[0].seq)  # where the first group is
    groups = recap_groups(entries, game, mention, prelude=prelude)
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
    """The picture that matters most now: the presenter's ``recap_picture`` (the battle map, the overland map), else
    the first picture of the campaign's status post (the field), if it has one."""
    present = game.present
    if present is not None and hasattr(present, "recap_picture"):
        return present.recap_picture(state)
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
@command("mine", "Every campaign on this server that waits for you, the longest waiting first (only you see it).",
         private=True)
async def mine(inv: Invocation) -> Reply:
    if not inv.guild_id:
        raise RuleError("`/mine` lists the campaigns of a server: use it in one of the server's channels.")
    lines = await mine_lines(inv.service.store, inv.guild_id, inv.user_id)
    if not lines:
        return Reply(content="No campaign on this server waits for you right now.", ephemeral=True)
    return Reply(embeds=[Embed(title="Waiting for you", description=listing(lines), color=COLOR_INFO)],
                 ephemeral=True)


@command("me digest", "A daily private digest of the campaigns on this server that wait for you.",
         Opt("when", str, "daily: a private message each day listing the campaigns that wait for you; off: none",
             choices=("daily", "off"), arg="digest"), private=True)
async def me(inv: Invocation, digest=None) -> Reply:
    if not inv.guild_id:
        raise RuleError("`/me digest` keeps your digest for a server: use it in one of the server's channels.")
    store = inv.service.store
    if digest is not None:
        next_at = inv.service.clock() + DAY if digest == "daily" else None
        await store.set_digest(inv.guild_id, inv.user_id, digest, next_at)
    setting, next_at = await store.digest_of(inv.guild_id, inv.user_id)
    if setting == "daily" and next_at:
        when = datetime.fromtimestamp(next_at, timezone.utc).strftime("%Y-%m-%d %H:%M")
        said = (f"Your daily digest is on: the next one comes as a private message at {when} UTC (when a campaign "
                "waits for you). `/me digest when:off` stops it.")
    else:
        said = "Your daily digest is off. `/me digest when:daily` sends you one each day."
    lines = await mine_lines(store, inv.guild_id, inv.user_id)
    now = ("Waiting for you now:\n" + listing(lines)) if lines else "No campaign on this server waits for you right now."
    return Reply(content=clip(said + "\n" + now, 2000), ephemeral=True)
