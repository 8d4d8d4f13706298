"""Every slash command, generated from its one declaration (``engine.commands.COMMANDS``).

Nothing here names a command: ``build(declarations)`` turns each declaration into a
``discord.app_commands`` command (a one-word name is a top-level command; "campaign new"
is the ``new`` subcommand of the ``/campaign`` group; three words nest a subgroup), with
its description, typed options (text, whole numbers with their range, yes/no, members,
attachments), choices, required flags and autocomplete.  Commands and options declared
``local_only`` are not published.  A ruleset that declares new commands (``@command`` in
its package) gets them published with no change here.

Every generated callback goes through ``cogs.common.respond``, the one path to the
command layer.
"""
from __future__ import annotations

import inspect
import keyword
import logging
from typing import Any, Iterable, Literal, Optional

import discord
from discord import app_commands

from cogs.common import completer, respond
from engine.commands import COMMANDS, MAX_OPTION_TEXT, Command, Opt, group_description

log = logging.getLogger("hexpost.discord")

DESCRIPTION_MAX = 100  # Discord's limit for command and option descriptions
NAME_MAX = 32


def clip_description(text: str, fallback: str) -> str:
    text = " ".join(str(text or "").split()) or fallback
    return text if len(text) <= DESCRIPTION_MAX else text[: DESCRIPTION_MAX - 1] + "…"


def annotation(opt: Opt) -> Any:
    """The Python annotation discord.py turns into this option's Discord type."""
    if opt.attachment:
        return discord.Attachment
    if opt.user:
        return discord.Member
    if opt.type is bool:
        return bool
    if opt.type is int:
        if opt.min is None and opt.max is None:
            return int
        return app_commands.Range[int, opt.min, opt.max]
    if opt.choices:
        return Literal[tuple(opt.choices)]  # type: ignore[valid-type]
    return app_commands.Range[str, None, MAX_OPTION_TEXT]


def param_name(opt: Opt, taken: set[str]) -> str:
    """A Python parameter name for the option (the option's own name is shown to players)."""
    name = opt.key
    if not name.isidentifier() or keyword.iskeyword(name) or name == "interaction" or name in taken:
        name = f"opt_{len(taken)}"
    taken.add(name)
    return name


def make_command(cmd: Command, leaf: str) -> app_commands.Command:
    options = cmd.published_options
    taken: set[str] = set()
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    to_key: dict[str, str] = {}
    describe: dict[str, str] = {}
    rename: dict[str, str] = {}
    complete: dict[str, Any] = {}
    for opt in sorted(options, key=lambda o: not o.required):  # Discord lists required options first
        pname = param_name(opt, taken)
        to_key[pname] = opt.key
        ann = annotation(opt)
        params.append(inspect.Parameter(
            pname, inspect.Parameter.KEYWORD_ONLY,
            annotation=ann if opt.required else Optional[ann],
            default=inspect.Parameter.empty if opt.required else None))
        describe[pname] = clip_description(opt.description, opt.name)
        if pname != opt.name:
            rename[pname] = opt.name
        if opt.autocomplete:
            complete[pname] = completer(cmd.name, opt.key)

    name = cmd.name

    async def callback(interaction: discord.Interaction, **given: Any) -> None:
        await respond(interaction, name, **{to_key[k]: v for k, v in given.items()})

    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = "slash_" + "_".join(cmd.name.split())
    callback.__annotations__ = {}
    fn: Any = callback
    if describe:
        fn = app_commands.describe(**describe)(fn)
    if rename:
        fn = app_commands.rename(**rename)(fn)
    if complete:
        fn = app_commands.autocomplete(**complete)(fn)
    return app_commands.Command(name=leaf, description=clip_description(cmd.description, cmd.name), callback=fn)


def build(declarations: Iterable[Command] | None = None) -> list[app_commands.Command | app_commands.Group]:
    """The published commands for these declarations (default: every declared command)."""
    top: dict[str, app_commands.Command | app_commands.Group] = {}
    for cmd in declarations if declarations is not None else list(COMMANDS.values()):
        if cmd.local_only:
            continue
        parts = cmd.name.split()
        if not 1 <= len(parts) <= 3:
            raise ValueError(f"command {cmd.name!r}: a name has one to three words")
        parent: app_commands.Group | None = None
        for depth, word in enumerate(parts[:-1]):
            path = " ".join(parts[: depth + 1])
            siblings = top if parent is None else {c.name: c for c in parent.commands}
            node = siblings.get(word)
            if node is None:
                node = app_commands.Group(name=word, description=clip_description(group_description(path), word),
                                          parent=parent)
                if parent is None:
                    top[word] = node
                else:
                    parent.add_command(node)
            elif not isinstance(node, app_commands.Group):
                raise ValueError(f"command {cmd.name!r}: /{path} is already a command, not a group")
            parent = node
        leaf = parts[-1]
        command = make_command(cmd, leaf)
        if parent is None:
            if leaf in top:
                raise ValueError(f"command {cmd.name!r} is declared twice or clashes with a group")
            top[leaf] = command
        else:
            parent.add_command(command)
    return list(top.values())


def install(tree: app_commands.CommandTree, declarations: Iterable[Command] | None = None) -> int:
    """Add the generated commands to the bot's tree (replacing any of the same name); how many top-level."""
    built = build(declarations)
    for node in built:
        tree.add_command(node, override=True)
    return len(built)


async def setup(bot) -> None:
    """The extension entry point (``bot.load_extension("cogs.slash")``)."""
    from commands.core import load_commands

    load_commands()
    count = install(bot.tree)
    log.info("%d slash commands generated from the declarations", count)
