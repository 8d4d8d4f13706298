"""/adventurer ... and /content ... slash commands."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import completer, respond

SLOT = "Circular slot: row 1-5 and side, e.g. 2L or 4R"


class AdventurerCog(commands.GroupCog, group_name="adventurer", group_description="Your adventurer and its mat"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="create", description="Create your adventurer (race, skill line, token placement, class).")
    @app_commands.describe(
        name="Your adventurer's name", race="Race", line="Starting skill line (2 level-1 dice)",
        klass="Class by open choice; leave empty to choose after the Jailbreak Introduction",
        form="Battle form, only for a starting line without one",
        health=f"Health token. {SLOT} (default 1L)", stamina=f"Stamina token. {SLOT} (default 2L)",
        magicka=f"Magicka token. {SLOT} (default 3L)", combat=f"Combat token. {SLOT} (default 4L)",
        skill=f"Starting skill line token. {SLOT} (default 5L)", player="Create for this player (party leader only)",
    )
    @app_commands.rename(klass="class")
    @app_commands.autocomplete(race=completer("adventurer create", "race"),
                               line=completer("adventurer create", "line"),
                               klass=completer("adventurer create", "klass"),
                               form=completer("adventurer create", "form"))
    async def create(self, interaction: discord.Interaction, name: str, race: str, line: str,
                     klass: str | None = None, form: str | None = None, health: str | None = None,
                     stamina: str | None = None, magicka: str | None = None, combat: str | None = None,
                     skill: str | None = None, player: discord.Member | None = None):
        await respond(interaction, "adventurer create", name=name, race=race, line=line, klass=klass, form=form,
                      health=health, stamina=stamina, magicka=magicka, combat=combat, skill=skill, player=player)

    @app_commands.command(name="guide",
                          description="Create your adventurer step by step with menus (race, line, placement, class).")
    @app_commands.describe(name="Your adventurer's name", player="Act for this player's adventurer (party leader only)")
    async def guide(self, interaction: discord.Interaction, name: str, player: discord.Member | None = None):
        await respond(interaction, "adventurer guide", name=name, player=player)

    @app_commands.command(name="show", description="Show an adventurer's mat as a picture.")
    @app_commands.describe(player="Whose adventurer (default: yours)")
    async def show(self, interaction: discord.Interaction, player: discord.Member | None = None):
        await respond(interaction, "adventurer show", player=player)

    @app_commands.command(name="class", description="Choose your class by open choice (if you have none yet).")
    @app_commands.describe(klass="Class", player="Choose for this player (party leader only)")
    @app_commands.rename(klass="class")
    @app_commands.autocomplete(klass=completer("adventurer class", "klass"))
    async def choose_class(self, interaction: discord.Interaction, klass: str, player: discord.Member | None = None):
        await respond(interaction, "adventurer class", klass=klass, player=player)

    @app_commands.command(name="retire", description="Retire your adventurer to create another (asks first).")
    @app_commands.describe(player="Retire this player's adventurer (party leader only)")
    async def retire(self, interaction: discord.Interaction, player: discord.Member | None = None):
        await respond(interaction, "adventurer retire", player=player)

    @app_commands.command(name="rest", description="Leader: the Adventurers Rest between battles — heal and clear "
                                                   "cooldown dice by difficulty.")
    async def rest(self, interaction: discord.Interaction):
        await respond(interaction, "adventurer rest")


class ContentCog(commands.GroupCog, group_name="content", group_description="Browse the campaign's content pack"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="races", description="List the races of this campaign's content pack.")
    async def races(self, interaction: discord.Interaction):
        await respond(interaction, "content races")

    @app_commands.command(name="lines", description="List the skill lines of this campaign's content pack.")
    async def lines(self, interaction: discord.Interaction):
        await respond(interaction, "content lines")

    @app_commands.command(name="classes", description="List the classes of this campaign's content pack.")
    async def classes(self, interaction: discord.Interaction):
        await respond(interaction, "content classes")


async def setup(bot: commands.Bot):
    await bot.add_cog(AdventurerCog(bot))
    await bot.add_cog(ContentCog(bot))
