"""/battle ... and the turn commands /move /engage /resolve /ability /endturn (thin: the command layer does the rest)."""
from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import completer, respond

PLAYER = "Act for this player's adventurer (party leader only)"


class BattleCog(commands.GroupCog, group_name="battle", group_description="Clash battles on the hex map"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="start", description="Set up a clash battle: map, enemies, adventurers on the entrance tile (party leader).")
    @app_commands.describe(encounter="The clash encounter, e.g. jailbreak",
                           first="Who takes the first player token (default: the leader)",
                           deploy="Entrance hexes in turn order, e.g. \"-2,2 -2,1\" (default: the first free ones)",
                           ep="Use this enemy pool instead of XP dial × adventurers",
                           session="Use the end-of-session difficulty table of this session (1-3)")
    @app_commands.autocomplete(encounter=completer("battle start", "encounter"))
    async def start(self, interaction: discord.Interaction, encounter: str, first: discord.Member | None = None,
                    deploy: str | None = None, ep: app_commands.Range[int, 0, 400] | None = None,
                    session: app_commands.Range[int, 1, 3] | None = None):
        await respond(interaction, "battle start", encounter=encounter, first=first, deploy=deploy, ep=ep,
                      session=session)

    @app_commands.command(name="deploy", description="Before your first turn: choose your battle form and your ready items.")
    @app_commands.describe(form="Battle form to deploy in",
                           ready="Items for the ready slots, comma separated (the rest go to the pack)",
                           player="Act for this player's adventurer (party leader only)")
    @app_commands.autocomplete(form=completer("battle deploy", "form"))
    async def deploy(self, interaction: discord.Interaction, form: str | None = None, ready: str | None = None,
                     player: discord.Member | None = None):
        await respond(interaction, "battle deploy", form=form, ready=ready, player=player)

    @app_commands.command(name="adjust", description="Apply a manual effect by hand (party leader): HP, bonus HP, tenacity, status, fatigue, hex.")
    @app_commands.describe(unit="The unit: a name, its label or its hex q,r",
                           hp="Heal (positive) or deal true damage (negative)", bonus_hp="Add or remove bonus HP",
                           tenacity="Add or remove tenacity",
                           status="Give a status (bane, blind, daze, fear, maim, stealth) or remove it with -name",
                           fatigue="Add this many fatigue dice", fatigue_kind="light or over (default light)",
                           to="Move the unit to this hex q,r",
                           reason="What the adjustment applies, for the log (e.g. the ability's name)")
    async def adjust(self, interaction: discord.Interaction, unit: str,
                     hp: app_commands.Range[int, -99, 99] | None = None,
                     bonus_hp: app_commands.Range[int, -99, 99] | None = None,
                     tenacity: app_commands.Range[int, -5, 5] | None = None, status: str | None = None,
                     fatigue: app_commands.Range[int, 1, 13] | None = None,
                     fatigue_kind: Literal["light", "over"] | None = None, to: str | None = None,
                     reason: str | None = None):
        await respond(interaction, "battle adjust", unit=unit, hp=hp, bonus_hp=bonus_hp, tenacity=tenacity,
                      status=status, fatigue=fatigue, fatigue_kind=fatigue_kind, to=to, reason=reason)

    @app_commands.command(name="map", description="Show the battle map.")
    async def map(self, interaction: discord.Interaction):
        await respond(interaction, "battle map")

    @app_commands.command(name="status", description="Round, turn order, units and HP, and whose turn it is.")
    async def status(self, interaction: discord.Interaction):
        await respond(interaction, "battle status")

    @app_commands.command(name="retreat", description="Retreat: the battle ends, failed, at the end of this round (party leader).")
    async def retreat(self, interaction: discord.Interaction):
        await respond(interaction, "battle retreat")

    @app_commands.command(name="escape", description="Escape from a green escape hex at the start of your turn.")
    @app_commands.describe(player=PLAYER)
    async def escape(self, interaction: discord.Interaction, player: discord.Member | None = None):
        await respond(interaction, "battle escape", player=player)

    @app_commands.command(name="prevention", description="Damage prevention: automatic (default) or ask me each time.")
    @app_commands.describe(mode="auto or ask", player=PLAYER)
    async def prevention(self, interaction: discord.Interaction, mode: Literal["auto", "ask"],
                         player: discord.Member | None = None):
        await respond(interaction, "battle prevention", mode=mode, player=player)

    @app_commands.command(name="prevent", description="Answer a prevention question: which sources, in order.")
    @app_commands.describe(use="Source numbers in order (e.g. 2,1), or auto, or none", player=PLAYER)
    async def prevent(self, interaction: discord.Interaction, use: str, player: discord.Member | None = None):
        await respond(interaction, "battle prevent", use=use, player=player)

    @app_commands.command(name="class", description="Choose your class from the rewards your Jailbreak achievements earned.")
    @app_commands.describe(klass="One of your class rewards", player=PLAYER)
    @app_commands.rename(klass="class")
    @app_commands.autocomplete(klass=completer("battle class", "klass"))
    async def choose_class(self, interaction: discord.Interaction, klass: str, player: discord.Member | None = None):
        await respond(interaction, "battle class", klass=klass, player=player)

    @app_commands.command(name="drop", description="Remove a die from one of your active slots (it is exhausted).")
    @app_commands.describe(slot="Active slot number, 1-4", player=PLAYER)
    async def drop(self, interaction: discord.Interaction, slot: app_commands.Range[int, 1, 4],
                   player: discord.Member | None = None):
        await respond(interaction, "battle drop", slot=slot, player=player)


class TurnCog(commands.Cog):
    """The turn commands players type most, kept short at the top level."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="move", description="Move up to your Stamina in hexes (battle).")
    @app_commands.describe(to="Destination hex q,r — the bot finds the shortest route",
                           path="The exact route, hexes separated by spaces: \"1,2 2,2\"",
                           free="Use free movement from an ability instead of a move action", player=PLAYER)
    async def move(self, interaction: discord.Interaction, to: str | None = None, path: str | None = None,
                   free: bool | None = None, player: discord.Member | None = None):
        await respond(interaction, "move", to=to, path=path, free=free, player=player)

    @app_commands.command(name="engage", description="Engage: battle form, target, dice to roll, weapon (battle).")
    @app_commands.describe(dice="Dice to roll, e.g. \"2 shield-discipline, combat\" or \"d3 d5\"",
                           target="Enemy name, label or hex q,r",
                           form="Battle form for this engage (default: your current form)",
                           item="A ready weapon matching your form",
                           overtax="Also use the weapon's overtax ability (discards it)", player=PLAYER)
    @app_commands.autocomplete(form=completer("engage", "form"), item=completer("engage", "item"))
    async def engage(self, interaction: discord.Interaction, dice: str | None = None, target: str | None = None,
                     form: str | None = None, item: str | None = None, overtax: bool | None = None,
                     player: discord.Member | None = None):
        await respond(interaction, "engage", dice=dice, target=target, form=form, item=item, overtax=overtax,
                      player=player)

    @app_commands.command(name="resolve", description="Resolve your roll: which dice, in what order (default: all in rolled order).")
    @app_commands.describe(order="Die numbers from the roll, e.g. 2,1 — or none",
                           ally="The adventurer an ally ability goes to (default: you)", player=PLAYER)
    async def resolve(self, interaction: discord.Interaction, order: str | None = None, ally: str | None = None,
                      player: discord.Member | None = None):
        await respond(interaction, "resolve", order=order, ally=ally, player=player)

    @app_commands.command(name="reroll", description="Reroll dice of your waiting roll, with a reroll a weapon or ability gave you (battle).")
    @app_commands.describe(dice="Die numbers from the roll, e.g. 2 or 1,3", player=PLAYER)
    async def reroll(self, interaction: discord.Interaction, dice: str, player: discord.Member | None = None):
        await respond(interaction, "reroll", dice=dice, player=player)

    @app_commands.command(name="ability", description="Use your race ability (name: race) or a class ability.")
    @app_commands.describe(name="race, or the class ability's name",
                           form="Switch to this form first (1 light fatigue) if the ability needs it", player=PLAYER)
    @app_commands.autocomplete(form=completer("ability", "form"))
    async def ability(self, interaction: discord.Interaction, name: str, form: str | None = None,
                      player: discord.Member | None = None):
        await respond(interaction, "ability", name=name, form=form, player=player)

    @app_commands.command(name="endturn", description="End your turn; enemies act after the last adventurer.")
    @app_commands.describe(player=PLAYER)
    async def endturn(self, interaction: discord.Interaction, player: discord.Member | None = None):
        await respond(interaction, "endturn", player=player)


async def setup(bot: commands.Bot):
    await bot.add_cog(BattleCog(bot))
    await bot.add_cog(TurnCog(bot))
