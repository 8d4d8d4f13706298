"""/campaign ... slash commands (thin: options in, the command layer does the rest)."""
from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import completer, respond

Difficulty = Literal["apprentice", "adept", "expert"]


class CampaignCog(commands.GroupCog, group_name="campaign", group_description="Open, join and run a campaign"):
    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @app_commands.command(name="new", description="Open a campaign in this channel; you become the party leader.")
    @app_commands.describe(name="The campaign's name",
                           ruleset="Which game: tes (The Elder Scrolls, the default) or another installed ruleset",
                           difficulty="Apprentice, Adept or Expert (default Adept; The Elder Scrolls)",
                           pack="Content pack (default: the ruleset's starter pack)")
    @app_commands.autocomplete(pack=completer("campaign new", "pack"), ruleset=completer("campaign new", "ruleset"))
    async def new(self, interaction: discord.Interaction, name: str, ruleset: str | None = None,
                  difficulty: Difficulty | None = None, pack: str | None = None):
        await respond(interaction, "campaign new", name=name, ruleset=ruleset, difficulty=difficulty, pack=pack)

    @app_commands.command(name="join", description="Join the party in this channel.")
    async def join(self, interaction: discord.Interaction):
        await respond(interaction, "campaign join")

    @app_commands.command(name="leave", description="Leave the party (your adventurer retires).")
    @app_commands.describe(player="Act for this player (party leader only)")
    async def leave(self, interaction: discord.Interaction, player: discord.Member | None = None):
        await respond(interaction, "campaign leave", player=player)

    @app_commands.command(name="status", description="Show the party, dials, session and whose move it is.")
    async def status(self, interaction: discord.Interaction):
        await respond(interaction, "campaign status")

    @app_commands.command(name="end", description="End this campaign (party leader; asks for confirmation).")
    async def end(self, interaction: discord.Interaction):
        await respond(interaction, "campaign end")

    @app_commands.command(name="log", description="Show the campaign's latest actions.")
    @app_commands.describe(page="1 = the newest actions, 2 = the ones before, ...")
    async def log(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] | None = None):
        await respond(interaction, "campaign log", page=page)

    @app_commands.command(name="settings", description="Change campaign settings (party leader).")
    @app_commands.describe(reminder_hours="Remind the player whose move it is after this many hours (0 = off)",
                           prevent_timeout_minutes="Minutes to answer a prevention question before the automatic "
                                                   "choice applies (0 = wait; The Elder Scrolls)")
    async def settings(self, interaction: discord.Interaction,
                       reminder_hours: app_commands.Range[int, 0, 336] | None = None,
                       prevent_timeout_minutes: app_commands.Range[int, 0, 10080] | None = None):
        await respond(interaction, "campaign settings", reminder_hours=reminder_hours,
                      prevent_timeout_minutes=prevent_timeout_minutes)

    @app_commands.command(name="leader", description="Hand the party lead to another member (party leader).")
    @app_commands.describe(player="The new leader")
    async def leader(self, interaction: discord.Interaction, player: discord.Member):
        await respond(interaction, "campaign leader", player=player)

    @app_commands.command(name="export", description="Download this campaign (state and full log) as a JSON file.")
    async def export(self, interaction: discord.Interaction):
        await respond(interaction, "campaign export")

    @app_commands.command(name="import", description="Open a campaign from a /campaign export file in this channel.")
    @app_commands.describe(file="The .json file /campaign export made")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment):
        await respond_import(interaction, file)


async def respond_import(interaction: discord.Interaction, file: discord.Attachment) -> None:
    """Like ``respond``, but the attachment's bytes go to the command layer (see commands/transfer.py)."""
    from cogs.common import invocation, message_kwargs, table_of
    from kernel.reply import MAX_CONTENT, clip
    from commands.transfer import MAX_IMPORT_BYTES, attach

    if interaction.guild_id is None:
        await interaction.response.send_message("Hexpost campaigns live in server channels; use it there.",
                                                ephemeral=True)
        return
    if file.size > MAX_IMPORT_BYTES:
        await interaction.response.send_message(
            f"That file is {file.size // 1024} KB; a campaign export is at most {MAX_IMPORT_BYTES // 2**20} MB.",
            ephemeral=True)
        return
    await interaction.response.defer(thinking=True)
    inv = invocation(interaction)
    attach(inv, await file.read())
    reply = await table_of(interaction.client).run(inv, "campaign import", {"file": file.filename[:100]})
    if reply.error:
        await interaction.delete_original_response()
        await interaction.followup.send(clip(reply.content, MAX_CONTENT), ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())
        return
    await interaction.edit_original_response(**{k: v for k, v in message_kwargs(reply).items() if k != "files"})


async def setup(bot: commands.Bot):
    await bot.add_cog(CampaignCog(bot))
