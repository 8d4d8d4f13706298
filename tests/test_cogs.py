"""The cogs mirror the command layer exactly, and their real callbacks drive it."""
from __future__ import annotations

import discord
from discord.ext import commands

from commands.core import COMMANDS, load_commands

load_commands()  # registers every command module, as the bot does at start


async def loaded_bot():
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for ext in ("cogs.campaign", "cogs.adventurer", "cogs.misc"):
        await bot.load_extension(ext)
    await bot.load_extension("cogs.lockpick")
    await bot.load_extension("cogs.skirmish")
    try:
        await bot.load_extension("cogs.battle")
    except commands.ExtensionNotFound:
        pass
    return bot


def walk(cmds, prefix=""):
    for c in cmds:
        if isinstance(c, discord.app_commands.Group):
            yield from walk(c.commands, prefix + c.name + " ")
        else:
            yield prefix + c.name, c


async def test_every_command_is_a_slash_command_with_the_same_options():
    bot = await loaded_bot()
    slash = dict(walk(bot.tree.get_commands()))
    declared = {n: c for n, c in COMMANDS.items() if not c.local_only}
    assert set(slash) == set(declared), (set(slash) ^ set(declared))
    for name, cmd in declared.items():
        params = {p.display_name: p for p in slash[name].parameters}
        options = [o for o in cmd.options if not o.local_only]
        assert set(params) == {o.name for o in options}, name
        for opt in options:
            p = params[opt.name]
            assert p.required == opt.required, (name, opt.name)
            assert p.description and p.description != "…", (name, opt.name)
            if opt.autocomplete:
                assert p.autocomplete, (name, opt.name)
            if opt.user:
                assert p.type == discord.AppCommandOptionType.user, (name, opt.name)
    await bot.close()


async def test_no_slash_command_has_more_than_25_options_or_long_descriptions():
    bot = await loaded_bot()
    for name, c in walk(bot.tree.get_commands()):
        assert len(c.parameters) <= 25
        assert 1 <= len(c.description) <= 100, name
        for p in c.parameters:
            assert len(p.description) <= 100, (name, p.name)
    await bot.close()
