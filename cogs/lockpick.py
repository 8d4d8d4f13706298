"""/lockpick (thin: the command layer does the rest)."""
from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import respond

PLAYER = "Act for this player's adventurer (party leader only)"


class LockpickCog(commands.Cog):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="lockpick",
                          description="Pick the lock of a cache you just moved onto: adjust dice, keep dice, or stop.")
    @app_commands.describe(adjust="Change dice for light fatigue, e.g. 3=2 (die 3 becomes a 2; 1 fatigue per step)",
                           keep="Dice to keep for the next attempt, e.g. 1,2 (default: the ones that match)",
                           stop="Give up the check (the cache chip is discarded)",
                           take="Where a won item goes: ready, pack or leave (default: ready, else pack)",
                           swap="An item of yours to discard to make room for the new one", player=PLAYER)
    async def lockpick(self, interaction: discord.Interaction, adjust: str | None = None, keep: str | None = None,
                       stop: bool | None = None, take: Literal["ready", "pack", "leave"] | None = None,
                       swap: str | None = None, player: discord.Member | None = None):
        await respond(interaction, "lockpick", adjust=adjust, keep=keep, stop=stop, take=take, swap=swap,
                      player=player)


async def setup(bot: commands.Bot):
    await bot.add_cog(LockpickCog(bot))
