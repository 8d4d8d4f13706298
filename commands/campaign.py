"""The commands every campaign has, whatever its ruleset: open, join, leave, status, log, settings, lead,
end, undo, roll, help, force.

What differs by game is asked of the campaign's ruleset presenter (``engine.rulesets.RulesetPresenter``):
its packs, its status post, what leaving costs, the post after an undo, its part of /help.
"""
from __future__ import annotations

import random
import re
from datetime import datetime, timezone
from typing import Any

from engine import rulesets
from engine.commands import Invocation, Opt, command, group
from engine.components import confirm_buttons, make_id, on_click
from engine.core import RuleError, word
from engine.present import line, mention, say
from engine.recap import summary
from engine.service import entry_line, people
from engine.text import count
from engine.reply import COLOR_OK, Button, Embed, Reply, clip

PLAYER = Opt("player", str, "Act for this player (party leader only)", user=True)
NO_CAMPAIGN = "This channel has no campaign yet. Start one with `/campaign new`."
group("campaign", "Open, join and run a campaign")


def events_text(events, limit: int = 1900) -> str:
    return clip("\n".join(say(e) for e in events), limit)


def _present(ruleset) -> Any:
    return ruleset.present if ruleset is not None and ruleset.present is not None else object()


def _ruleset_of(state) -> rulesets.Ruleset:
    return rulesets.named(getattr(state, "ruleset", None))


async def _state(inv: Invocation):
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError(NO_CAMPAIGN)
    return state


def _ruleset_choices() -> tuple[str, ...]:
    rulesets_loaded = tuple(sorted(rulesets.REGISTRY))
    return rulesets_loaded or ("tes",)


# ---------------------------------------------------------------- campaign --
@command(
    "campaign new", "Open a campaign in this channel; you become the party leader.",
    Opt("name", str, "The campaign's name", required=True),
    Opt("ruleset", str, "Which game: tes (The Elder Scrolls, the default) or another installed ruleset",
        autocomplete="rulesets"),
    Opt("difficulty", str, "Apprentice, Adept or Expert (default Adept; The Elder Scrolls)",
        choices=("apprentice", "adept", "expert")),
    Opt("pack", str, "Content pack (default: the ruleset's starter pack)", autocomplete="packs"),
)
async def campaign_new(inv: Invocation, name, ruleset=None, difficulty=None, pack=None) -> Reply:
    chosen = rulesets.named(None) if not ruleset else None
    if ruleset:
        key = str(ruleset).strip().lower()
        chosen = rulesets.REGISTRY.get(key) or next(
            (r for r in rulesets.REGISTRY.values() if r.title.lower() == key), None)
        if chosen is None:
            raise RuleError(f"There is no ruleset `{clip(str(ruleset), 40)}` on this bot. "
                            f"Rulesets: {', '.join(sorted(rulesets.REGISTRY))}.")
    present = _present(chosen)
    packs = present.packs() if hasattr(present, "packs") else []
    pack_id = pack or getattr(present, "default_pack", None) or "starter"
    if difficulty and not getattr(present, "difficulties", ()):
        raise RuleError(f"{chosen.title} has no difficulty levels: leave `difficulty:` out. "
                        + (present.settings_hint() if hasattr(present, "settings_hint") else ""))
    if pack and pack not in packs:
        other = next((r for r in rulesets.REGISTRY.values() if r is not chosen
                      and pack in (_present(r).packs() if hasattr(_present(r), "packs") else [])), None)
        if other is not None:
            raise RuleError(f"`{clip(str(pack), 40)}` is a content pack of {other.title}, not of {chosen.title}. "
                            f"Leave `pack:` out to play {chosen.title} with its own pack"
                            f" ({getattr(present, 'default_pack', None) or 'the default'}), or open "
                            f"{other.title} with `ruleset:{other.name}`.")
    if pack and not inv.local and pack not in packs:
        raise RuleError(f"There is no content pack called `{clip(str(pack), 40)}` on this bot. "
                        f"Packs: {', '.join(packs) or 'none'}. The bot's host adds a pack by putting its folder "
                        f"in `content/` ({chosen.title} packs).")
    version = ""
    if hasattr(present, "pack_version"):
        try:
            version = present.pack_version(pack_id)
        except Exception:  # noqa: BLE001 - the rules refuse a missing or broken pack with a clear message
            version = ""
    seed = random.SystemRandom().randrange(1, 2**53)
    out = await inv.do("campaign.new", {
        "name": name, "ruleset": chosen.name, "difficulty": difficulty or "adept", "pack": pack_id,
        "pack_version": version, "rules": chosen.rules, "channel_id": inv.channel_id, "guild_id": inv.guild_id,
        "seed": seed,
    })
    e = Embed(title=f"Campaign opened: {out.state.name}", color=COLOR_OK, description=events_text(out.events))
    nxt = present.new_campaign_next() if hasattr(present, "new_campaign_next") else "Players join with `/campaign join`."
    e.add("Next", nxt + "\nSee the party any time with `/campaign status`.")
    return Reply(embeds=[e])


@command("campaign join", "Join the party in this channel.")
async def campaign_join(inv: Invocation) -> Reply:
    out = await inv.do("campaign.join")
    present = _present(_ruleset_of(out.state))
    after = present.join_next() if hasattr(present, "join_next") else ""
    return Reply(content=events_text(out.events) + (" " + after if after else ""))


@command("campaign leave", "Leave the party (your adventurer retires).", PLAYER,
         Opt("confirm", bool, "yes to leave without the button (scripts)", local_only=True))
async def campaign_leave(inv: Invocation, player=None, confirm=None) -> Reply:
    who = str(player) if player else inv.user_id
    if not confirm:
        # Leaving can cost something (an adventurer retires), and removing someone else can't be taken back:
        # confirm first, and only offer the button when the leave would be allowed.
        state = await _state(inv)
        game = _ruleset_of(state)
        note = _present(game).leave_note(state, who) if hasattr(_present(game), "leave_note") else ""
        if who != inv.user_id or note:
            await inv.service.check(inv.channel_id, inv.action("campaign.leave", player=player))
            what = ("Leave the party" if who == inv.user_id else f"Remove <@{who}> from the party") + (
                f"? {note}" if note else "?")
            return Reply(content=what, ephemeral=True,
                         buttons=confirm_buttons("leave", inv.channel_id, who,
                                                 "Leave the party" if who == inv.user_id else "Remove them",
                                                 campaign=inv.campaign_id))
    out = await inv.do("campaign.leave", player=player)
    return Reply(content=events_text(out.events))


@command("campaign status", "Show the party, dials, session and whose move it is.")
async def campaign_status(inv: Invocation) -> Reply:
    state = await _state(inv)
    present = _present(_ruleset_of(state))
    if hasattr(present, "status"):
        reply = await present.status(inv, state)
    else:
        members = ", ".join(f"<@{m}>" for m in state.members)
        reply = Reply(embeds=[Embed(title=state.name, description=f"Party: {members}")])
    await add_away_notes(inv, state, reply)
    return reply


async def add_away_notes(inv: Invocation, state, reply: Reply) -> None:
    """The status says who is away (``/me away``): on its whose-move line, or a line of its own."""
    from engine.reminders import away_note

    now = inv.service.clock()
    waiting = _ruleset_of(state).whose_move(state)
    order = ([waiting[0]] if waiting else []) + [m for m in state.members if not waiting or m != waiting[0]]
    notes = [n for n in [await away_note(inv.service.store, m, now) for m in order] if n]
    if not notes:
        return
    if not reply.embeds:
        reply.embeds.append(Embed(title=state.name))
    embed = reply.embeds[0]
    for i, (name, value, inline) in enumerate(embed.fields):
        if name == "Whose move":
            embed.fields[i] = (name, clip(value + "\n" + "\n".join(notes), 1024), inline)
            return
    embed.add("Away", "\n".join(notes))


@command("campaign end", "End this campaign (party leader; asks for confirmation).",
         Opt("confirm", bool, "yes to end without the button (scripts)", local_only=True))
async def campaign_end(inv: Invocation, confirm=None) -> Reply:
    state = await _state(inv)
    if inv.user_id != state.leader:
        raise RuleError("Only the party leader ({@leader}) can end the campaign.", leader=state.leader)
    if not confirm:
        return Reply(
            content=f"End **{state.name}** for good? The log is kept, but nobody can play it any more.",
            buttons=confirm_buttons("end", inv.channel_id, "", "End the campaign", campaign=inv.campaign_id),
            ephemeral=True)
    out = await inv.do("campaign.end", {"confirm": True})
    return Reply(content=events_text(out.events))


@command("campaign log", "Show the campaign's latest actions.",
         Opt("page", int, "1 = the newest actions, 2 = the ones before, ...", min=1, max=10000))
async def campaign_log(inv: Invocation, page=None) -> Reply:
    page = page or 1
    per_page = 10
    if await inv.service.campaign_id(inv.channel_id) is None:
        raise RuleError(NO_CAMPAIGN)
    total = await inv.service.log_count(inv.channel_id)
    pages = max(1, -(-total // per_page))
    if page > pages:
        raise RuleError(f"The log has {count(pages, 'page')} ({count(total, 'action')}); "
                        + ("there is only page 1." if pages == 1 else f"choose a page from 1 to {pages}."))
    before = total - (page - 1) * per_page + 1
    cid = await inv.service.campaign_id(inv.channel_id)
    entries = await inv.service.store.log_events(cid, limit=per_page, before_seq=before)
    lines = []
    game = _ruleset_of(await inv.service.campaign(inv.channel_id))
    for e in entries:
        when = datetime.fromtimestamp(e.at, timezone.utc).strftime("%Y-%m-%d %H:%M")
        who = f"<@{e.actor}>" + (f" for <@{e.on_behalf}>" if e.on_behalf else "")
        # what it did and every outcome it had, in words (never its internal type, its dice, a deck's order)
        said = summary(e.events, game, mention, fallback=word(*entry_line(e, game), mention), limit=360)
        undone = " ~~undone~~" if e.undone_by else ""
        lines.append(f"`#{e.seq}` {when} {who}{undone}\n  {said}")
    emb = Embed(title=f"Campaign log — page {page} of {pages}", description=clip("\n".join(lines), 4000))
    buttons = []
    cid = inv.campaign_id
    if page < pages:
        buttons.append(Button(make_id("log", inv.channel_id, str(page + 1), campaign=cid), "Older"))
    if page > 1:
        buttons.append(Button(make_id("log", inv.channel_id, str(page - 1), campaign=cid), "Newer"))
    return Reply(embeds=[emb], buttons=buttons, ephemeral=True)


@command("campaign settings", "Change campaign settings (party leader).",
         Opt("reminder_hours", int, "Remind the player whose move it is after this many hours (0 = off)",
             min=0, max=24 * 14),
         Opt("prevent_timeout_minutes", int, "Minutes to answer a prevention question before the automatic "
             "choice (0 = wait; The Elder Scrolls)", min=0, max=7 * 24 * 60))
async def campaign_settings(inv: Invocation, reminder_hours=None, prevent_timeout_minutes=None) -> Reply:
    args = {k: v for k, v in {"reminder_hours": reminder_hours,
                              "prevent_timeout_minutes": prevent_timeout_minutes}.items() if v is not None}
    if not args:
        state = await _state(inv)
        present = _present(_ruleset_of(state))
        e = Embed(title="Settings")
        e.add("reminder_hours", f"{state.settings.get('reminder_hours', 24)} (0 = no reminders)")
        for name, text in (present.settings_lines(state) if hasattr(present, "settings_lines") else []):
            e.add(name, text)
        return Reply(embeds=[e], ephemeral=True)
    out = await inv.do("campaign.settings", args)
    return Reply(content=events_text(out.events))


@command("campaign leader", "Hand the party lead to another member (party leader).",
         Opt("player", str, "The new leader", required=True, user=True))
async def campaign_leader(inv: Invocation, player) -> Reply:
    out = await inv.do("campaign.leader", {"player": str(player)})
    return Reply(content=events_text(out.events))


# -------------------------------------------------------------------- misc --
@command("roll", "Roll dice for table talk: 3d6+2, 2d12, 4d6kh3, d6 ...",
         Opt("dice", str, "Dice notation, e.g. 3d6+2 or 4d6kh3", required=True))
async def roll(inv: Invocation, dice) -> Reply:
    from engine.notation import named_die, roll_notation

    state = await inv.service.campaign(inv.channel_id)
    game = _ruleset_of(state) if state is not None else rulesets.named(None)
    named = _named_dice(game)
    if named_die(dice, named) is None:
        for other in rulesets.REGISTRY.values():
            word = named_die(dice, _named_dice(other)) if other is not game else None
            if word:
                raise RuleError(f"The {word} die belongs to {other.title}; this channel plays {game.title}, "
                                "which has no such die. Roll dice notation like `3d6+2`, `2d12`, `4d6kh3` (keep highest 3) "
                                "or `d6`.")
    result = roll_notation(dice, named=named)
    return Reply(content=f"<@{inv.user_id}> rolls `{result.notation}`: {result.breakdown} = **{result.total}**")


def _named_dice(game) -> dict[str, dict[int, str]]:
    present = _present(game)
    return present.named_dice() if hasattr(present, "named_dice") else {}


@command("undo", "Take back the last action if it rolled no dice and revealed nothing (asks for confirmation).",
         Opt("confirm", bool, "yes to undo without the button (scripts)", local_only=True))
async def undo(inv: Invocation, confirm=None, expected: str | None = None) -> Reply:
    state = await _state(inv)
    last = await inv.service.last_entry(inv.channel_id)
    if expected and last and str(last.seq) != expected:
        raise RuleError("This undo prompt is out of date: more has happened since. Run `/undo` again.")
    if not confirm:
        # who may take it back and whether it may be (no dice, nothing revealed): the service says why not
        last = await inv.service.undo_check(inv.channel_id, inv.user_id)
        text, data = entry_line(last, _ruleset_of(state))
        first = word(text, data, mention)
        return Reply(content=f"Undo action #{last.seq}: {clip(first, 300)}", ephemeral=True,
                     buttons=confirm_buttons("undo", inv.channel_id, str(last.seq), "Undo it",
                                             campaign=inv.campaign_id))
    out = await inv.do("undo", {"confirm": True})
    present = _present(_ruleset_of(out.state))
    if hasattr(present, "after"):
        reply = await present.after(inv, out)
        if reply is not None:
            return reply
    return Reply(content=events_text(out.events))


@command("help", "What this bot does and how to start.")
async def help_(inv: Invocation) -> Reply:
    e = Embed(title="Hexpost — play-by-post board game campaigns", color=COLOR_OK)
    parts = ["Run a campaign in this channel, a few moves a day. The bot keeps the rules, rolls the dice and "
             "draws the pictures.\n\n**Start**: `/campaign new` (you lead; `ruleset:` picks the game) → friends "
             "`/campaign join`."]
    for r in sorted(rulesets.REGISTRY.values(), key=lambda r: (not r.reads_unlabelled, r.name)):
        present = _present(r)
        if hasattr(present, "help_lines"):
            parts.append(f"__{r.title}__ (`ruleset:{r.name}`)\n{present.help_lines()}")
    parts.append("**Anytime**: `/campaign status`, `/campaign log`, `/roll 2d6`.\n"
                 "**Reminders**: `/me settings timezone: quiet:` (no pings in your quiet hours), `/me away until:`; "
                 "each reminder has Snooze buttons.\n"
                 "**Leader**: `/campaign settings`, `/undo`, `/campaign end`, `/campaign export`; "
                 "add `player:` to act for an absent player. In skirmish, engage and duel `/undo` takes back "
                 "only your own action.")
    e.description = clip("\n\n".join(parts), 4000)
    return Reply(embeds=[e], ephemeral=True)


@command("force", "Force the next die results (local table; party leader).",
         Opt("values", str, "Results in order, e.g. 3 5 1", required=True), local_only=True)
async def force(inv: Invocation, values) -> Reply:
    try:
        numbers = [int(v) for v in re.split(r"[\s,]+", values.strip()) if v]
    except ValueError:
        raise RuleError("Force whole numbers, e.g. `/force 3 5 1`.") from None
    out = await inv.do("dice.force", {"values": numbers})
    return Reply(content=events_text(out.events))


# ------------------------------------------------------------ autocomplete --
async def autocomplete(inv: Invocation, source: str, current: str) -> list[tuple[str, str]]:
    cur = (current or "").lower()
    if source == "rulesets":
        return [(f"{r.title} ({r.name})"[:100], r.name) for r in rulesets.REGISTRY.values()
                if cur in (r.name + r.title).lower()]
    state = await inv.service.campaign(inv.channel_id)
    game = _ruleset_of(state) if state is not None else rulesets.named(None)
    present = _present(game)
    if source == "packs":
        return [(p, p) for p in (present.packs() if hasattr(present, "packs") else []) if cur in p.lower()]
    if hasattr(present, "autocomplete"):
        return await present.autocomplete(inv, source, current)
    return []


# ----------------------------------------------------------------- buttons --
@on_click("end", campaign=True)
async def _end(inv, arg, values) -> Reply:
    reply = await campaign_end(inv, confirm=True)
    reply.update = not reply.error
    return reply


@on_click("undo", campaign=True)
async def _undo(inv, arg, values) -> Reply:
    reply = await undo(inv, confirm=True, expected=arg)
    reply.update = not reply.error and not reply.pictures  # in battle: a new post with the map for the party
    return reply


@on_click("leave", campaign=True)
async def _leave(inv, arg, values) -> Reply:
    state = await _state(inv)
    if arg and arg not in state.members:  # the question is answered: they left already
        return Reply.fail(f"This question is out of date: {mention(arg)} is no longer in the party. Nothing was "
                          "changed; see /campaign status.")
    reply = await campaign_leave(inv, player=arg or None, confirm=True)
    reply.update = not reply.error
    return reply


@on_click("log", campaign=True)
async def _log(inv, arg, values) -> Reply:
    return await campaign_log(inv, page=int(arg) if arg.isdecimal() else 1)
