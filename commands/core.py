"""The one command layer behind both front doors (Discord cogs and the local table).

Commands are declared once with ``engine.commands.command`` (here and in each
ruleset's package).  ``Table.run`` coerces and checks the options, calls the
handler and turns rule errors into ephemeral replies that name the fix.
"""
from __future__ import annotations

import logging
import re
import traceback
from typing import Any

from engine.commands import (  # noqa: F401 - re-exported for the front doors
    COMMANDS, Command, Invocation, Opt, OptionError, clip_echo, coerce, command,
)
from engine.core import RuleError
from engine.reply import Reply
from engine.service import BUSY, CampaignService
from engine.store import is_busy
from engine.present import error_text

log = logging.getLogger("hexpost.commands")
USER_MENTION = re.compile(r"<@!?(\d{1,20})>")


async def recap_after(inv: Invocation, reply: Reply) -> None:
    from commands.recap import recap_after as add_recap

    await add_recap(inv, reply)


def load_commands() -> None:
    """Import every command module so its ``@command`` declarations register (idempotent)."""
    import rulesets

    rulesets.load_all()
    import commands.campaign  # noqa: F401
    import commands.me  # noqa: F401
    import commands.transfer  # noqa: F401
    import commands.recap  # noqa: F401


class Table:
    """The command layer: owns the service and runs commands for either front door."""

    def __init__(self, service: CampaignService):
        self.service = service
        self.names: dict[str, str] = {}
        load_commands()

    def invocation(self, user_id: str, channel_id: str, guild_id: str | None = None, user_name: str = "") -> Invocation:
        # A member is always a bare id (Discord) or a plain name (the local table), never mention syntax.
        user_id = USER_MENTION.sub(r"\1", str(user_id)).strip()
        if user_name:
            self.names[str(user_id)] = user_name
        return Invocation(self, str(user_id), str(channel_id), str(guild_id) if guild_id else None, user_name)

    async def run(self, inv: Invocation, name: str, options: dict[str, Any] | None = None) -> Reply:
        cmd = COMMANDS.get(name)
        if cmd is None:
            close = [c for c in COMMANDS if c.split()[0] == name.split()[0]] if name and name.split() else []
            hint = f" Try: {', '.join('/' + c for c in close)}." if close else " See `/help`."
            return Reply.fail(f"There is no command `/{clip_echo(name)}`.{hint}")
        by_name = {o.name: o for o in cmd.options} | {o.key: o for o in cmd.options}
        options = {by_name[k].name if k in by_name else k: v for k, v in (options or {}).items()}
        unknown = [k for k in options if k not in by_name]
        if unknown:
            allowed = ", ".join(o.name for o in cmd.options) or "none"
            return Reply.fail(f"`/{name}` has no option `{clip_echo(unknown[0])}`. Its options: {allowed}.")
        try:
            kwargs = {o.key: coerce(o, options.get(o.name)) for o in cmd.options}
            state = await self._know_names(inv)
            self._check_members(state, cmd, kwargs)
            if cmd.ruleset:
                self._check_ruleset(state, cmd)
            reply = await cmd.handler(inv, **kwargs)
        except RuleError as exc:
            if inv.done:  # refused after an earlier step of this command was saved: say so
                return Reply.fail(f"{error_text(exc)}\n{saved_note(inv)}")
            return Reply.fail(error_text(exc))
        except Exception as exc:  # noqa: BLE001 - the player gets a polite answer, the host gets the trace
            if is_busy(exc) and not inv.done:  # not a fault: the database stayed busy past the retries
                log.warning("command /%s in %s: the database was busy", name, inv.channel_id)
                return Reply.fail(BUSY)
            log.error("command /%s failed for %s in %s with %r\n%s", name, inv.user_id, inv.channel_id, options,
                      traceback.format_exc())
            return Reply.fail(failure_text(inv))
        if cmd.private:
            reply.ephemeral = True
        if inv.done and not reply.error:
            await note_away(inv, reply)
        await recap_after(inv, reply)
        keep_ping_in_party(reply, inv.done[-1].state if inv.done else state)
        return reply

    @staticmethod
    async def _know_names(inv: Invocation):
        """Load the channel's campaign (or None); hand its id, game and kept display names to the invocation."""
        inv.campaign_id, state = await inv.service.current(inv.channel_id)
        inv.ruleset = getattr(state, "ruleset", None) if state is not None else None
        kept = getattr(state, "names", None)
        if isinstance(kept, dict):
            inv.known = dict(kept)
        return state

    @staticmethod
    def _check_members(state, cmd: Command, kwargs: dict[str, Any]) -> None:
        """A ``player:`` (member) option names a current member of this channel's party, or is refused.

        Typed at the local table, a name is not case sensitive (`Shannon` is `shannon`) and may be the name of the
        member's character (their adventurer, their warband), as the ruleset's presenter knows them."""
        if state is None:
            return
        members = [str(m) for m in getattr(state, "members", [])]
        present = _presenter_of(state)
        named = present.members_by_name(state) if hasattr(present, "members_by_name") else {}
        for opt in cmd.options:
            value = kwargs.get(opt.key)
            if not opt.user or value is None or str(value) in members:
                continue
            text = str(value).casefold()
            found = next((m for m in members if m.casefold() == text), None) or next(
                (owner for name, owner in named.items() if name.casefold() == text and owner in members), None)
            if found is None:
                raise not_a_member(opt.name, str(value), members, named, getattr(present, "character", "character"))
            kwargs[opt.key] = found

    @staticmethod
    def _check_ruleset(state, cmd) -> None:
        """A ruleset's command in a channel whose campaign plays another ruleset gets a clear refusal."""
        from engine.rulesets import REGISTRY

        playing = getattr(state, "ruleset", None) if state is not None else None
        if playing is not None and playing != cmd.ruleset:
            mine = REGISTRY[cmd.ruleset].title if cmd.ruleset in REGISTRY else cmd.ruleset
            theirs = REGISTRY[playing].title if playing in REGISTRY else playing
            raise RuleError(f"/{cmd.name} belongs to {mine}, but this channel's campaign plays {theirs}. "
                            "See /help for this campaign's commands.")

    async def autocomplete(self, inv: Invocation, name: str, option: str, current: str) -> list[tuple[str, str]]:
        from commands.campaign import autocomplete as ac

        cmd = COMMANDS.get(name)
        opt = next((o for o in (cmd.options if cmd else []) if option in (o.name, o.key)), None)
        if opt is None or not opt.autocomplete:
            return []
        try:
            return (await ac(inv, opt.autocomplete, current or ""))[:25]
        except Exception:  # noqa: BLE001 - autocomplete must never break typing
            log.exception("autocomplete %s/%s failed", name, option)
            return []

    async def click(self, inv: Invocation, custom_id: str, values: list[str] | None = None) -> Reply:
        from engine.components import handle_click

        try:
            state = await self._know_names(inv)
            reply = await handle_click(inv, custom_id, values or [])
            await recap_after(inv, reply)
            keep_ping_in_party(reply, inv.done[-1].state if inv.done else state)
            return reply
        except RuleError as exc:
            if inv.done:
                return Reply.fail(f"{error_text(exc)}\n{saved_note(inv)}")
            return Reply.fail(error_text(exc))
        except Exception as exc:  # noqa: BLE001
            if is_busy(exc) and not inv.done:
                log.warning("click %s in %s: the database was busy", custom_id, inv.channel_id)
                return Reply.fail(BUSY)
            log.error("click %s by %s failed\n%s", custom_id, inv.user_id, traceback.format_exc())
            return Reply.fail(failure_text(inv))


async def note_away(inv: Invocation, reply: Reply) -> None:
    """The leader acted for a player who is away (``/me away``): the answer says so."""
    from engine.present import mention
    from engine.reminders import is_away

    now = inv.service.clock()
    for who in dict.fromkeys(o.action.on_behalf for o in inv.done if o.action.on_behalf):
        prefs = await inv.service.store.member_prefs(who)
        if is_away(prefs, now):
            back = int(prefs.away_until)
            note = f"{mention(who)} is away until <t:{back}:f>; you acted for them (the log says so)."
            reply.content = f"{reply.content}\n{note}" if reply.content else note


def _presenter_of(state):
    from engine.rulesets import REGISTRY

    game = REGISTRY.get(getattr(state, "ruleset", None) or "") or next(
        (r for r in REGISTRY.values() if r.reads_unlabelled), None)
    return game.present if game is not None and game.present is not None else object()


def not_a_member(option: str, value: str, members: list[str], named: dict[str, str],
                 character: str = "character") -> RuleError:
    """The refusal of a ``player:`` option naming nobody of the party, with the party to choose from."""
    chars = {}
    for name, owner in named.items():
        chars.setdefault(owner, name)
    party = ", ".join(f"{{@m{i}}}" + (f" ({chars[m]})" if m in chars else "") for i, m in enumerate(members))
    people = {f"m{i}": m for i, m in enumerate(members)}
    if value.isdecimal():  # a Discord member picked from the list
        return OptionError(f"`{option}` must name a member of this party: {{@named}} is not in this party. "
                           f"The party: {party}. Someone new joins with `/campaign join`.", named=value, **people)
    return OptionError(f"`{option}` must name a member of this party, by their name"
                       + (f" or their {character}'s" if named else "") + f": `{clip_echo(value)}` is neither. "
                       f"The party: {party}. Someone new joins with `/campaign join`.", **people)


def saved_note(inv: Invocation) -> str:
    """What this command saved before its answer failed: the action and its log number, so nobody repeats it."""
    saved = ", ".join(f"#{out.seq} ({out.action.type.replace('.', ' ')})" for out in inv.done)
    return (f"Saved: {saved} is in the campaign log. Do not repeat it: "
            "see it with `/campaign log` (and `/battle status` in a battle).")


def failure_text(inv: Invocation) -> str:
    if inv.done:
        return ("Your action was saved, but its answer could not be shown because of a fault on our side. "
                + saved_note(inv))
    return "Something went wrong on our side and nothing was changed. The bot's host can find the details in its log."


def keep_ping_in_party(reply: Reply, state) -> None:
    """The bot pings only a current member of the channel's party (and never from a state it cannot read); in
    place of a seat an import gave that waits to be accepted (or a member leaving after a battle), the leader,
    who acts for them."""
    from engine.actions import absent_seats, stand_in

    members = {str(m) for m in getattr(state, "members", [])} if state is not None else set()
    absent = absent_seats(state)
    stood_in = [str(p) for p in [reply.ping, *reply.also_ping] if p is not None and str(p) in absent]
    if reply.ping is not None and str(reply.ping) in absent:
        reply.ping = stand_in(state, str(reply.ping))
    if reply.ping is not None and str(reply.ping) not in members:
        reply.ping = None
    also = [stand_in(state, str(p)) for p in reply.also_ping]
    reply.also_ping = [p for p in dict.fromkeys(also) if p is not None and str(p) in members]
    if stood_in and state.leader in members:  # a ping reaches only whom the post mentions: say who acts for them
        waiting = set(getattr(state, "unaccepted", None) or ())
        for who in dict.fromkeys(stood_in):
            why = "whose seat waits to be accepted" if who in waiting else "who has left the party"
            reply.content = f"{reply.content}\n<@{state.leader}> acts for <@{who}>, {why}."
    for extra in reply.followups:
        keep_ping_in_party(extra, state)
