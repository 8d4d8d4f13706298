"""The slash commands are generated from the declarations: the published schema is the declaration."""
from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from cogs.slash import DESCRIPTION_MAX, build
from commands.core import COMMANDS, load_commands
from engine.commands import GROUPS, MAX_OPTION_TEXT, Opt, command, group
from engine.reply import Reply

load_commands()  # registers every command module, as the bot does at start

TYPES = {"str": 3, "int": 4, "bool": 5, "user": 6, "attachment": 11}


async def loaded_bot():
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await bot.load_extension("cogs.slash")
    return bot


def published(bot) -> dict[str, dict]:
    """Every published leaf command as Discord receives it: "group sub" -> its schema (``to_dict``)."""
    out: dict[str, dict] = {}

    def walk(node: dict, prefix: str) -> None:
        subs = [o for o in node.get("options", []) if o["type"] in (1, 2)]
        if subs:
            for sub in subs:
                walk(sub, prefix + node["name"] + " ")
        else:
            out[prefix + node["name"]] = node

    for c in bot.tree.get_commands():
        walk(c.to_dict(bot.tree), "")
    return out


def expected_type(opt: Opt) -> int:
    if opt.attachment:
        return TYPES["attachment"]
    if opt.user:
        return TYPES["user"]
    return TYPES[opt.type.__name__]


def assert_matches(schema: dict, cmd) -> None:
    name = cmd.name
    assert schema["description"] == cmd.description, name
    options = cmd.published_options
    got = {o["name"]: o for o in schema.get("options", [])}
    assert list(got) == [o.name for o in sorted(options, key=lambda o: not o.required)], name
    for opt in options:
        o = got[opt.name]
        assert o["type"] == expected_type(opt), (name, opt.name)
        assert o["description"] == opt.description, (name, opt.name)
        assert bool(o.get("required")) == opt.required, (name, opt.name)
        assert [c["value"] for c in o.get("choices", [])] == list(opt.choices), (name, opt.name)
        assert bool(o.get("autocomplete")) == bool(opt.autocomplete), (name, opt.name)
        if opt.type is int and not opt.attachment:
            assert o.get("min_value") == opt.min and o.get("max_value") == opt.max, (name, opt.name)
        if expected_type(opt) == 3 and not opt.choices:
            assert o.get("max_length") == MAX_OPTION_TEXT, (name, opt.name)


async def test_the_published_schema_is_the_declaration():
    bot = await loaded_bot()
    slash = published(bot)
    declared = {n: c for n, c in COMMANDS.items() if not c.local_only}
    assert set(slash) == set(declared), set(slash) ^ set(declared)
    for name, cmd in declared.items():
        assert_matches(slash[name], cmd)
    # groups: one per first word, described
    for c in bot.tree.get_commands():
        if isinstance(c, app_commands.Group):
            assert c.description == GROUPS.get(c.name, c.description) and c.description, c.name
    # local-only commands and options are left off
    assert "force" not in slash and "confirm" not in {o["name"] for o in slash["campaign end"].get("options", [])}
    # /campaign import takes an attachment, /battle start first: a member, ranges come through
    assert slash["campaign import"]["options"][0]["type"] == TYPES["attachment"]
    first = {o["name"]: o for o in slash["battle start"]["options"]}
    assert first["first"]["type"] == TYPES["user"] and first["session"]["max_value"] == 3
    await bot.close()


async def test_no_slash_command_breaks_discord_limits():
    bot = await loaded_bot()
    for c in bot.tree.get_commands():
        d = c.to_dict(bot.tree)

        def walk(node, path):
            assert 1 <= len(node["name"]) <= 32 and node["name"] == node["name"].lower(), path
            assert 1 <= len(node.get("description", "")) <= DESCRIPTION_MAX, path
            assert len(node.get("options", [])) <= 25, path
            for o in node.get("options", []):
                walk(o, path + [o["name"]])

        walk(d, [d["name"]])
    await bot.close()


@pytest.fixture
def skirmish_commands():
    """A ruleset declared after the bot was written: its commands are declared, nothing else."""
    names = ["drill muster", "drill volley", "parley"]

    @command("drill muster", "Muster a warband for a skirmish.",
             Opt("size", int, "How many models", required=True, min=3, max=12),
             Opt("side", str, "Which side", choices=("north", "south")),
             Opt("rival", str, "The opposing player", user=True),
             Opt("debug", bool, "Local table only", local_only=True),
             ruleset="skirmish")
    async def muster(inv, size, side=None, rival=None, debug=None):
        return Reply(content=f"mustered {size} {side or 'north'}")

    @command("drill volley", "Loose a volley.", Opt("at", str, "Target", autocomplete="units"), ruleset="skirmish")
    async def volley(inv, at=None):
        return Reply(content="volley")

    @command("parley", "Ask for a parley.", ruleset="skirmish", local_only=True)
    async def parley(inv):
        return Reply(content="parley")

    group("drill", "Drills for a made-up ruleset")
    yield names
    for n in names:
        COMMANDS.pop(n, None)
    GROUPS.pop("drill", None)


async def test_a_new_rulesets_commands_are_published_with_no_cog_change(skirmish_commands):
    bot = await loaded_bot()
    slash = published(bot)
    assert "drill muster" in slash and "drill volley" in slash and "parley" not in slash
    assert_matches(slash["drill muster"], COMMANDS["drill muster"])
    assert_matches(slash["drill volley"], COMMANDS["drill volley"])
    top = next(c for c in bot.tree.get_commands() if c.name == "drill")
    assert top.description == "Drills for a made-up ruleset"
    # the tes commands are all still there
    assert {n for n, c in COMMANDS.items() if not c.local_only} == set(slash)
    await bot.close()


async def test_generated_callbacks_reach_the_command_layer_with_the_declared_names(monkeypatch):
    """The callback hands respond() the handler's keys ("class" arrives as klass) and the command's name."""
    import cogs.slash as slash_mod

    seen = []

    async def fake_respond(interaction, name, /, **options):
        seen.append((name, options))

    monkeypatch.setattr(slash_mod, "respond", fake_respond)
    nodes = {n.name: n for n in slash_mod.build()}
    choose = next(c for c in nodes["adventurer"].commands if c.name == "class")
    await choose.callback(object(), klass="knight", player=None)
    roll = nodes["roll"]
    await roll.callback(object(), dice="2d6")
    assert seen == [("adventurer class", {"klass": "knight", "player": None}), ("roll", {"dice": "2d6"})]
    assert [p.display_name for p in choose.parameters] == ["class", "player"]
