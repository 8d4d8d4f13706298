"""How a fight's posts look: the pictures of each resolved moment, what happened in words split into messages,
and the question the fight waits on (``rulesets.duel.present.prompts.attach``)."""
from __future__ import annotations

from engine.commands import Invocation
from engine.present import say
from engine.reply import Picture, Reply, clip, split_text
from rulesets.duel.content import pack_of
from rulesets.duel.present.prompts import attach
from rulesets.duel.present.view import picture_view
from rulesets.duel.rules.flow import frame_now

MAX_PICTURES = 10  # Discord's limit of attachments on one message


def _pack(state):
    return pack_of(state)


def names_of(state, inv: Invocation):
    def name(uid: str) -> str:
        return state.names.get(uid) or inv.name_of(uid)

    return name


def pictures(inv: Invocation, state, out=None, fresh: bool = False) -> list[Picture]:
    """One picture of each moment the action kept (one per resolved action), or of the fight as it stands."""
    if state.fight is None:
        return []
    pack = _pack(state)
    frames = list(state.fight.frames) if out is not None and not fresh else []
    if not frames:
        frames = [frame_now(state, pack)]
    seq = out.seq if out is not None else 0
    return [Picture("duel", picture_view(state, fr, names_of(state, inv)), f"duel-{seq}-{k}.png")
            for k, fr in enumerate(frames, 1)]


def chunks(lines: list[str], limit: int) -> list[str]:
    """Lines in messages of at most ``limit`` characters, split at a line's end and none lost (the splitter every
    game's posts use: ``engine.reply.split_text``)."""
    return split_text("\n".join(lines), limit, limit)


def fight_reply(inv: Invocation, out, fresh: bool = False) -> Reply:
    """The public post after a fight action: what happened, the pictures, and the question the fight waits on.
    A long round is split into several messages; the last one carries the pictures, the question and the ping.
    ``fresh``: picture the fight as it stands (after an undo, the kept moments are the undone action's)."""
    state = out.state
    parts = chunks([say(e) for e in out.events], 1500)
    pics = pictures(inv, state, out, fresh)
    last = Reply(content=parts[-1], pictures=pics[:MAX_PICTURES])
    attach(inv, out.campaign_id, state, last)
    more = [Reply(content="(more pictures of this round)", pictures=pics[k:k + MAX_PICTURES])
            for k in range(MAX_PICTURES, len(pics), MAX_PICTURES)]
    if len(parts) == 1:
        last.followups = more
        return last
    first = Reply(content=parts[0])
    first.followups = [Reply(content=p) for p in parts[1:-1]] + [last] + more
    return first


def plain_reply(out) -> Reply:
    return Reply(content=clip("\n".join(say(e) for e in out.events), 1990))


def placed_reply(inv: Invocation, out, picks: list[str], pack) -> Reply:
    """The private note to the player who placed (which cards), with the public post as its follow-up."""
    what = ", ".join(pack.cards[c].name for c in picks) or "no card"
    note = Reply(content=f"You placed {what} face-down; they stay hidden from the others until the reveal.",
                 ephemeral=True)
    note.followups.append(fight_reply(inv, out))
    return note
