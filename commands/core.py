"""The one command layer behind both front doors (Discord cogs and the local table).

Commands are declared once with ``kernel.commands.command`` (here and in each
ruleset's package).  ``Table.run`` coerces and checks the options, calls the
handler and turns rule errors into ephemeral replies that name the fix.
"""
from __future__ import annotations

import logging
import traceback
from typing import Any

from kernel.commands import (  # noqa: F401 - re-exported for the front doors
    COMMANDS, Command, Invocation, Opt, OptionError, clip_echo, coerce, command,
)
from kernel.core import RuleError
from kernel.reply import Reply
from kernel.service import CampaignService

log = logging.getLogger("hexpost.commands")


def load_commands() -> None:
    """Import every command module so its ``@command`` declarations register (idempotent)."""
    import rulesets

    rulesets.load_all()
    import commands.campaign  # noqa: F401
    import commands.transfer  # noqa: F401


class Table:
    """The command layer: owns the service and runs commands for either front door."""

    def __init__(self, service: CampaignService):
        self.service = service
        self.names: dict[str, str] = {}
        load_commands()

    def invocation(self, user_id: str, channel_id: str, guild_id: str | None = None, user_name: str = "") -> Invocation:
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
            if cmd.ruleset:
                await self._check_ruleset(inv, cmd)
            return await cmd.handler(inv, **kwargs)
        except RuleError as exc:
            if inv.saved:  # refused after an action of this command was saved: say so
                done = ", ".join(f"#{seq} `{kind}`" for seq, kind in inv.saved)
                return Reply.fail(f"{exc.message}\n(Saved before that: log entry {done}.)")
            return Reply.fail(exc.message)
        except Exception:  # noqa: BLE001 - the player gets a polite answer, the host gets the trace
            log.error("command /%s failed for %s in %s with %r\n%s", name, inv.user_id, inv.channel_id, options,
                      traceback.format_exc())
            if inv.saved:
                return Reply.fail(saved_but_failed(inv))
            return Reply.fail("Something went wrong on our side and nothing was changed. "
                              "The bot's host can find the details in its log.")

    async def _check_ruleset(self, inv: Invocation, cmd) -> None:
        """A ruleset's command in a channel whose campaign plays another ruleset gets a clear refusal."""
        from kernel.rulesets import REGISTRY

        state = await inv.service.campaign(inv.channel_id)
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
        from kernel.components import handle_click

        try:
            return await handle_click(inv, custom_id, values or [])
        except RuleError as exc:
            return Reply.fail(exc.message)
        except Exception:  # noqa: BLE001
            log.error("click %s by %s failed\n%s", custom_id, inv.user_id, traceback.format_exc())
            if inv.saved:
                return Reply.fail(saved_but_failed(inv))
            return Reply.fail("Something went wrong on our side and nothing was changed.")


def saved_but_failed(inv) -> str:
    """The answer when showing a result failed after its action was saved: say what was saved."""
    done = ", ".join(f"#{seq} `{kind}`" for seq, kind in inv.saved)
    return (f"Your action was saved (log entry {done}), but showing its result failed on our side. "
            "Do not repeat it: see `/campaign status` or `/campaign log`. The bot's host can find the details "
            "in its log.")
