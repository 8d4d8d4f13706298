"""/skirmish ...: warband skirmishes (thin: the command layer does the rest)."""
from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import completer, respond

PLAYER = "Act for this player (party leader only)"
FIGHTER = "The fighter: its id (a1), name or hex"


class SkirmishCog(commands.GroupCog, group_name="skirmish", group_description="Warband skirmishes on a hex field"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="settings", description="The skirmish's points limit and number of battle rounds (leader).")
    @app_commands.describe(points="Points each warband may spend",
                           rounds="Battle rounds before the points on the field decide")
    async def settings(self, interaction: discord.Interaction, points: app_commands.Range[int, 100, 3000] | None = None,
                       rounds: app_commands.Range[int, 1, 12] | None = None):
        await respond(interaction, "skirmish settings", points=points, rounds=rounds)

    @app_commands.command(name="fighters", description="List the warbands, fighter types and abilities of this skirmish's pack.")
    async def fighters(self, interaction: discord.Interaction):
        await respond(interaction, "skirmish fighters")

    @app_commands.command(name="warband", description="Pick your warband (and name it).")
    @app_commands.autocomplete(faction=completer("skirmish warband", "faction"))
    @app_commands.describe(faction="The warband, e.g. wardens or reavers (see /skirmish fighters)",
                           name="Your warband's name", player=PLAYER)
    async def warband(self, interaction: discord.Interaction, faction: str, name: str | None = None,
                      player: discord.Member | None = None):
        await respond(interaction, "skirmish warband", faction=faction, name=name, player=player)

    @app_commands.command(name="recruit", description="Add a fighter to your warband (within the points limit).")
    @app_commands.autocomplete(fighter=completer("skirmish recruit", "fighter"))
    @app_commands.describe(fighter="The fighter type, e.g. mossling (see /skirmish fighters)",
                           name="The fighter's own name", player=PLAYER)
    async def recruit(self, interaction: discord.Interaction, fighter: str, name: str | None = None,
                      player: discord.Member | None = None):
        await respond(interaction, "skirmish recruit", fighter=fighter, name=name, player=player)

    @app_commands.command(name="dismiss", description="Remove a fighter from your warband before the battle.")
    @app_commands.describe(fighter=FIGHTER, player=PLAYER)
    async def dismiss(self, interaction: discord.Interaction, fighter: str, player: discord.Member | None = None):
        await respond(interaction, "skirmish dismiss", fighter=fighter, player=player)

    @app_commands.command(name="bot", description="Field the bot's warband against the players (leader).")
    @app_commands.autocomplete(faction=completer("skirmish bot", "faction"))
    @app_commands.describe(faction="The bot's warband, e.g. reavers")
    async def field_bot(self, interaction: discord.Interaction, faction: str):
        await respond(interaction, "skirmish bot", faction=faction)

    @app_commands.command(name="deploy", description="Place a fighter in your deployment zone (no fighter: place all the rest).")
    @app_commands.describe(fighter="The fighter: its id (a1) or name", at="The hex q,r in your zone, e.g. 0,4",
                           player=PLAYER)
    async def deploy(self, interaction: discord.Interaction, fighter: str | None = None, at: str | None = None,
                     player: discord.Member | None = None):
        await respond(interaction, "skirmish deploy", fighter=fighter, at=at, player=player)

    @app_commands.command(name="start", description="Begin the battle: the first initiative roll (leader).")
    async def start(self, interaction: discord.Interaction):
        await respond(interaction, "skirmish start")

    @app_commands.command(name="activate", description="Activate one of your fighters (two actions, one ability).")
    @app_commands.autocomplete(fighter=completer("skirmish activate", "fighter"))
    @app_commands.describe(fighter=FIGHTER, player=PLAYER)
    async def activate(self, interaction: discord.Interaction, fighter: str, player: discord.Member | None = None):
        await respond(interaction, "skirmish activate", fighter=fighter, player=player)

    @app_commands.command(name="move", description="Move the activating fighter up to its Move in hexes.")
    @app_commands.describe(to="The hex to move to, q,r", player=PLAYER)
    async def move(self, interaction: discord.Interaction, to: str, player: discord.Member | None = None):
        await respond(interaction, "skirmish move", to=to, player=player)

    @app_commands.command(name="attack", description="Attack an enemy within range.")
    @app_commands.autocomplete(target=completer("skirmish attack", "target"))
    @app_commands.describe(target="The enemy: its id (b1), name or hex", player=PLAYER)
    async def attack(self, interaction: discord.Interaction, target: str, player: discord.Member | None = None):
        await respond(interaction, "skirmish attack", target=target, player=player)

    @app_commands.command(name="retreat", description="Retreat from an enemy within 1 hex: up to 3 hexes, ending clear of enemies.")
    @app_commands.describe(to="The hex to retreat to, q,r", player=PLAYER)
    async def retreat(self, interaction: discord.Interaction, to: str, player: discord.Member | None = None):
        await respond(interaction, "skirmish retreat", to=to, player=player)

    @app_commands.command(name="wait", description="Wait: first action, activate again later; last action, end the activation.")
    @app_commands.describe(player=PLAYER)
    async def wait(self, interaction: discord.Interaction, player: discord.Member | None = None):
        await respond(interaction, "skirmish wait", player=player)

    @app_commands.command(name="channel", description="Channel Magic (Wizard): new double of 3, upgrade or raise a die; then a calamity roll.")
    @app_commands.describe(mode="new, upgrade (double→triple→quad) or raise (+3, at most 6)",
                           die="For upgrade or raise: the ability die's number", player=PLAYER)
    async def channel(self, interaction: discord.Interaction, mode: Literal["new", "upgrade", "raise"] | None = None,
                      die: app_commands.Range[int, 1, 12] | None = None, player: discord.Member | None = None):
        await respond(interaction, "skirmish channel", mode=mode, die=die, player=player)

    @app_commands.command(name="ability", description="Use an ability, paid with one of your ability dice (one per activation).")
    @app_commands.autocomplete(name=completer("skirmish ability", "name"), target=completer("skirmish ability", "target"))
    @app_commands.describe(name="The ability, e.g. surge (see /skirmish fighters)",
                           die="The ability die's number (as on the map)",
                           target="For a bolt: the enemy (id, name or hex)", to="For a dash: the hex to move to, q,r",
                           player=PLAYER)
    async def ability(self, interaction: discord.Interaction, name: str, die: app_commands.Range[int, 1, 12],
                      target: str | None = None, to: str | None = None, player: discord.Member | None = None):
        await respond(interaction, "skirmish ability", name=name, die=die, target=target, to=to, player=player)

    @app_commands.command(name="end", description="End the activation now (unused actions are lost).")
    @app_commands.describe(player=PLAYER)
    async def end(self, interaction: discord.Interaction, player: discord.Member | None = None):
        await respond(interaction, "skirmish end", player=player)

    @app_commands.command(name="map", description="Show the battlefield.")
    async def map(self, interaction: discord.Interaction):
        await respond(interaction, "skirmish map")

    @app_commands.command(name="status", description="Warbands, fighters, wounds, ability dice and whose turn it is.")
    async def status(self, interaction: discord.Interaction):
        await respond(interaction, "skirmish status")


async def setup(bot: commands.Bot):
    await bot.add_cog(SkirmishCog(bot))
