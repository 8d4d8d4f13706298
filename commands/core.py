"""The one command layer behind both front doors (Discord cogs and the local table).

A command is declared once with ``@command`` — its name, description, typed
options and handler.  ``Table.run`` coerces and checks the options, calls the
handler and turns rule errors into ephemeral replies that name the fix.  The
cogs mirror these declarations as slash commands (a test checks they match).
"""
from __future__ import annotations

import logging
import re
import traceback
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from commands.reply import Reply
from engine.core import Action, RuleError
from engine.service import CampaignService

log = logging.getLogger("hexpost.commands")

MAX_OPTION_TEXT = 200


@dataclass
class Opt:
    name: str
    type: type = str  # str | int | bool; "user" options are str ids
    description: str = ""
    required: bool = False
    choices: tuple[str, ...] = ()
    autocomplete: str | None = None  # "races" | "lines" | "classes" | "packs" | "adventurers" | "forms" ...
    min: int | None = None
    max: int | None = None
    user: bool = False  # a Discord member (the local table takes a name)
    local_only: bool = False  # only at the local table (e.g. confirm:yes; Discord confirms with a button)
    arg: str | None = None  # the handler's parameter name when the option's name is a Python keyword ("class")

    @property
    def key(self) -> str:
        return self.arg or self.name


@dataclass
class Command:
    name: str  # "campaign new"
    description: str
    options: list[Opt]
    handler: Callable[..., Awaitable[Reply]]
    renders: bool = False  # may draw pictures: the cog defers first
    local_only: bool = False  # not offered as a slash command


COMMANDS: dict[str, Command] = {}


def command(name: str, description: str, *options: Opt, renders: bool = False, local_only: bool = False):
    def deco(fn):
        if name in COMMANDS:
            raise RuntimeError(f"command {name} declared twice")
        COMMANDS[name] = Command(name, description, list(options), fn, renders, local_only)
        return fn

    return deco


@dataclass
class Invocation:
    """Who asks, where, and how to reach the campaign."""

    table: "Table"
    user_id: str
    channel_id: str
    guild_id: str | None = None
    user_name: str = ""
    names: dict[str, str] = field(default_factory=dict)  # user id -> display name, when the front door knows it
    local: bool = False  # typed at the offline local table (trusted: may name a pack folder by path)

    @property
    def service(self) -> CampaignService:
        return self.table.service

    def action(self, type_: str, args: dict[str, Any] | None = None, *, player: str | None = None) -> Action:
        on_behalf = str(player) if player and str(player) != self.user_id else None
        return Action(type=type_, actor=self.user_id, args=args or {}, on_behalf=on_behalf)

    async def do(self, type_: str, args: dict[str, Any] | None = None, *, player: str | None = None):
        return await self.service.execute(self.channel_id, self.action(type_, args, player=player))

    def name_of(self, user_id: str) -> str:
        return self.names.get(str(user_id)) or self.table.names.get(str(user_id)) or f"player {user_id}"


class OptionError(RuleError):
    pass


def coerce(opt: Opt, value: Any) -> Any:
    if value is None or value == "":
        if opt.required:
            raise OptionError(f"`{opt.name}` is required: {opt.description}")
        return None
    if opt.type is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("yes", "true", "1", "y", "on"):
            return True
        if text in ("no", "false", "0", "n", "off"):
            return False
        raise OptionError(f"`{opt.name}` must be yes or no.")
    if opt.type is int:
        try:
            number = int(str(value).strip())
        except ValueError:
            raise OptionError(f"`{opt.name}` must be a whole number (you gave `{clip_echo(value)}`).") from None
        if opt.min is not None and number < opt.min or opt.max is not None and number > opt.max:
            raise OptionError(f"`{opt.name}` must be from {opt.min} to {opt.max} (you gave {number}).")
        return number
    text = str(value)
    if opt.user:
        # A Discord member arrives as its id; at the local table a plain name.  "<@123>" is accepted too.
        m = re.fullmatch(r"\s*<@!?(\d{1,20})>\s*|\s*@?([A-Za-z0-9_.-]{1,32})\s*", text)
        if not m:
            raise OptionError(f"`{opt.name}` must be a member of this server: pick one from the list "
                              "(at the local table, type their name).")
        return m.group(1) or m.group(2)
    if len(text) > MAX_OPTION_TEXT:
        raise OptionError(f"`{opt.name}` is too long ({len(text)} characters); keep it under {MAX_OPTION_TEXT}.")
    if opt.choices and text.strip().lower() not in opt.choices:
        raise OptionError(f"`{opt.name}` must be one of: {', '.join(opt.choices)} (you gave `{clip_echo(text)}`).")
    return text.strip().lower() if opt.choices else text


def clip_echo(value: Any) -> str:
    """Echo a bad value back safely: short, no backticks or mentions."""
    text = str(value).replace("`", "'").replace("@", "@\u200b")
    return text if len(text) <= 40 else text[:39] + "…"



def load_commands() -> None:
    """Import every command module so its ``@command`` declarations register (idempotent)."""
    import commands.handlers  # noqa: F401
    import commands.guide  # noqa: F401
    import commands.battle  # noqa: F401
    import commands.transfer  # noqa: F401
    import commands.lockpick  # noqa: F401
    import commands.battle_prompts  # noqa: F401


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
            return await cmd.handler(inv, **kwargs)
        except RuleError as exc:
            return Reply.fail(exc.message)
        except Exception:  # noqa: BLE001 - the player gets a polite answer, the host gets the trace
            log.error("command /%s failed for %s in %s with %r\n%s", name, inv.user_id, inv.channel_id, options,
                      traceback.format_exc())
            return Reply.fail("Something went wrong on our side and nothing was changed. "
                              "The bot's host can find the details in its log.")

    async def autocomplete(self, inv: Invocation, name: str, option: str, current: str) -> list[tuple[str, str]]:
        from commands.handlers import autocomplete as ac

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
        from commands.components import handle_click

        try:
            return await handle_click(inv, custom_id, values or [])
        except RuleError as exc:
            return Reply.fail(exc.message)
        except Exception:  # noqa: BLE001
            log.error("click %s by %s failed\n%s", custom_id, inv.user_id, traceback.format_exc())
            return Reply.fail("Something went wrong on our side and nothing was changed.")
