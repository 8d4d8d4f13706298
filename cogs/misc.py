"""Top-level slash commands: /roll, /help, /undo."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import respond


class MiscCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice for table talk: 3d6+2, 2d12, 4d6kh3, d6, unstable")
    @app_commands.describe(dice="Dice notation, e.g. 3d6+2 or 4d6kh3, or 'unstable'")
    async def roll(self, interaction: discord.Interaction, dice: str):
        await respond(interaction, "roll", dice=dice)

    @app_commands.command(name="help", description="What this bot does and how to start.")
    async def help(self, interaction: discord.Interaction):
        await respond(interaction, "help")

    @app_commands.command(name="undo", description="Take back the last action if it rolled no dice (party leader).")
    async def undo(self, interaction: discord.Interaction):
        await respond(interaction, "undo")


async def setup(bot: commands.Bot):
    await bot.add_cog(MiscCog(bot))
