"""The command declaration: every command is declared once with ``@command``.

A declaration names the command, its description and its typed options.  The
front doors (the Discord cogs, generated from these declarations, and the
offline local table) both run it through ``commands.core.Table``.  Rulesets
declare their own commands with the same decorator.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from engine.bounds import whole
from engine.core import Action, RuleError
from engine.reply import Reply
from engine.text import display_name

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
    # a file the player uploads (Discord: an attachment whose bytes reach the handler through
    # ``Invocation.uploads``; the option's value is the file's name; at the local table: a path); ``max``
    # is then the largest file accepted, in bytes
    attachment: bool = False

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
    ruleset: str | None = None  # only in a channel whose campaign plays this ruleset (None: any channel)
    private: bool = False  # the answer concerns only the asker: always shown to them alone

    @property
    def published_options(self) -> list[Opt]:
        return [o for o in self.options if not o.local_only]


COMMANDS: dict[str, Command] = {}
# Descriptions of command groups ("campaign" for "campaign new", ...): group name -> description.
GROUPS: dict[str, str] = {}


def command(name: str, description: str, *options: Opt, renders: bool = False, local_only: bool = False,
            ruleset: str | None = None, private: bool = False):
    def deco(fn):
        if name in COMMANDS:
            raise RuntimeError(f"command {name} declared twice")
        COMMANDS[name] = Command(name, description, list(options), fn, renders, local_only, ruleset, private)
        return fn

    return deco


def group(name: str, description: str) -> None:
    """Describe a command group (its subcommands are the declarations whose names start with ``name``)."""
    GROUPS[name] = description


def group_description(name: str) -> str:
    return GROUPS.get(name) or f"The /{name} commands"


@dataclass
class Invocation:
    """Who asks, where, and how to reach the campaign."""

    table: Any  # the command layer (commands.core.Table): has .service and .names
    user_id: str
    channel_id: str
    guild_id: str | None = None
    user_name: str = ""
    names: dict[str, str] = field(default_factory=dict)  # user id -> display name, when the front door knows it
    local: bool = False  # typed at the offline local table (trusted: may name a pack folder by path)
    saved: list = field(default_factory=list)  # (log seq, action type) of each action this command committed
    known: dict[str, str] = field(default_factory=dict)  # the display names the campaign keeps (state.names)
    done: list[Any] = field(default_factory=list)  # the outcomes this command committed, in order
    uploads: dict[str, bytes] = field(default_factory=dict)  # attachment option -> the uploaded bytes
    campaign_id: int | None = None  # the channel's campaign when the command or click arrived (None: none)
    ruleset: str | None = None  # the game it plays
    # a click of a button bound to a campaign: its actions run only while that campaign is the channel's
    expected_campaign: int | None = None

    @property
    def service(self):
        return self.table.service

    def attach(self, option: str, data: bytes) -> None:
        """An uploaded file for an attachment option (the Discord front door calls this)."""
        self.uploads[option] = bytes(data)
        self.__dict__["upload"] = self.uploads[option]  # read by ``commands.transfer.uploaded``

    def action(self, type_: str, args: dict[str, Any] | None = None, *, player: str | None = None) -> Action:
        on_behalf = str(player) if player and str(player) != self.user_id else None
        return Action(type=type_, actor=self.user_id, args=args or {}, on_behalf=on_behalf,
                      names=self.fresh_names(self.user_id, on_behalf))

    def fresh_names(self, *user_ids: str | None) -> dict[str, str]:
        """The display names of these people that the campaign does not keep yet (or keeps an older one of)."""
        out = {}
        for uid in user_ids:
            if not uid:
                continue
            live = display_name(self.user_name if uid == self.user_id else self.names.get(str(uid), ""))
            if live and live != str(uid) and self.known.get(str(uid)) != live:
                out[str(uid)] = live
        return out

    async def do(self, type_: str, args: dict[str, Any] | None = None, *, player: str | None = None):
        out = await self.service.execute(self.channel_id, self.action(type_, args, player=player),
                                         campaign=self.expected_campaign)
        self.saved.append((out.seq, type_))  # committed: whatever fails later, this action stands
        self.done.append(out)
        self.campaign_id = out.campaign_id
        kept = getattr(out.state, "names", None)
        if isinstance(kept, dict):
            self.known = dict(kept)
        return out

    def name_of(self, user_id: str) -> str:
        """A member's display name as posts and pictures show it: plain words (engine.text.display_name), never
        a mention, a link or Markdown, whatever the member called themselves."""
        uid = str(user_id)
        for name in (self.names.get(uid), self.known.get(uid), self.table.names.get(uid),
                     self.user_name if uid == self.user_id else ""):
            shown = display_name(name or "")
            if shown:
                return shown
        return f"player {uid}"


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
        number = value if isinstance(value, int) and not isinstance(value, bool) else whole(str(value))
        if number is None:  # a word, a full-width digit (U+FF11), a fraction: refused here, naming the option
            like = opt.min if opt.min is not None and opt.min > 12 else min(12, opt.max if opt.max is not None else 12)
            raise OptionError(f"`{opt.name}:` takes a whole number, like {like} (you gave `{clip_echo(value)}`).")
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



