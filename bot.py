"""Hexpost: run the Discord bot, or the offline local table when there is no token.

    python bot.py                     # Discord if DISCORD_TOKEN is set, else the local table
    python bot.py --local             # the local table, typed commands
    python bot.py --local --script game.txt --dump-state state.json
    python bot.py --sync              # publish the slash commands to Discord, then run
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

def missing_dependency() -> str | None:
    """The first of the bot's dependencies this Python lacks (None: all there)."""
    import importlib.util

    for module in ("dotenv", "discord", "aiosqlite", "PIL", "d20"):
        if importlib.util.find_spec(module) is None:
            return module
    return None


if (_missing := missing_dependency()) is not None:  # started with a Python that has not had the setup
    sys.exit(f"Hexpost's dependencies are not installed for this Python ({_missing} is missing).\n"
             "Start it with `bash run.sh` (same options, e.g. `bash run.sh --local`): it creates .venv/, installs "
             "what is needed and runs the bot there.")

from dotenv import load_dotenv  # noqa: E402 - after the check above

log = logging.getLogger("hexpost")


def fresh_script_db() -> str:
    import tempfile

    folder = tempfile.mkdtemp(prefix="hexpost-script-")
    return os.path.join(folder, "local-table.db")


def build_bot(db_path: str, *, sync: bool = False, sync_guild: str | None = None, **client_options):
    import discord
    from discord.ext import commands

    from cogs.common import HexButton, HexSelect
    from commands.core import Table
    from engine.service import CampaignService
    from engine.store import Store

    class HexpostBot(commands.Bot):
        table: Table

        def __init__(self):
            super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                             allowed_mentions=discord.AllowedMentions.none(), help_command=None,
                             **client_options)
            self.store: Store | None = None
            self.reminders = None
            self.deadlines = None
            self.dashboards = None

        async def setup_hook(self) -> None:
            self.store = await Store.open(db_path)
            self.table = Table(CampaignService(self.store))
            from cogs.dashboard import Dashboards

            self.dashboards = Dashboards(self)  # each campaign's dashboard post, edited after every action
            await self.load_extension("cogs.slash")  # every slash command, generated from its declaration
            self.add_dynamic_items(HexButton, HexSelect)
            self.tree.on_error = self.on_tree_error
            if sync:
                if sync_guild:
                    guild = discord.Object(int(sync_guild))
                    self.tree.copy_global_to(guild=guild)
                    synced = await self.tree.sync(guild=guild)
                else:
                    synced = await self.tree.sync()
                log.info("published %d slash commands", len(synced))
            from cogs.deadlines import start_deadlines

            self.deadlines = start_deadlines(self)  # prevention time-outs (rulesets/tes/present/battle_prompts.py)
            try:
                from cogs.reminders import start_reminders
            except ImportError:  # reminders arrive with their module
                return
            self.reminders = start_reminders(self)

        async def on_tree_error(self, interaction: discord.Interaction, error: Exception) -> None:
            log.error("slash command failed: %s", error, exc_info=error)
            text = ("Something went wrong on our side. Before you repeat the command, check `/campaign log`: "
                    "it lists every action that was saved.")
            if isinstance(error, discord.app_commands.TransformerError):
                text = f"`{str(error.value)[:40]}` is not a valid choice here; pick one from the list."
            try:
                if interaction.response.is_done():
                    await interaction.followup.send(text, ephemeral=True)
                else:
                    await interaction.response.send_message(text, ephemeral=True)
            except discord.HTTPException:
                pass

        async def on_ready(self) -> None:
            log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))

        async def close(self) -> None:
            from engine.transfer import cancel_imports

            cancel_imports()  # a replay in a worker thread stops at its next step: nothing outlives the bot
            if self.dashboards is not None:
                await self.dashboards.close()  # the last action's dashboard edit is finished, not lost
            if self.reminders is not None:
                self.reminders.cancel()
            if self.deadlines is not None:
                self.deadlines.cancel()
            await super().close()
            if self.store is not None:
                await self.store.close()
                self.store = None

    return HexpostBot()


def main(argv: list[str] | None = None) -> int:
    load_dotenv()
    parser = argparse.ArgumentParser(description="Hexpost: play-by-post board game campaigns on Discord.")
    parser.add_argument("--local", action="store_true", help="run the offline local table instead of Discord")
    parser.add_argument("--script", help="local table: read command lines from this file ('-' for stdin)")
    parser.add_argument("--out", default=os.getenv("HEXPOST_LOCAL_OUT", "local-table-out"),
                        help="local table: folder for the pictures")
    parser.add_argument("--dump-state", help="local table: write the campaign state as JSON here at the end")
    parser.add_argument("--db", default=None, help="database file (default: HEXPOST_DB or hexpost.db; "
                                                     "the local table uses local-table.db)")
    parser.add_argument("--user", default="leader", help="local table: the name you type as")
    parser.add_argument("--channel", default="local", help="local table: the channel (one campaign per channel)")
    parser.add_argument("--sync", action="store_true", help="publish the slash commands to Discord at start")
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.getenv("HEXPOST_LOG_LEVEL", "INFO").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    token = os.getenv("DISCORD_TOKEN", "").strip()
    if args.local or not token:
        if not args.local:
            print("No DISCORD_TOKEN is set (see .env.example), so Hexpost starts the offline local table.\n"
                  "Type the same slash commands as in Discord, e.g. /campaign new name:\"Night Watch\".\n",
                  file=sys.stderr)
        from commands.local import main_local

        db = args.db or os.getenv("HEXPOST_LOCAL_DB")
        if not db:
            # A script starts on a fresh database so it runs the same on a new clone and after other play;
            # the interactive table keeps its campaigns in local-table.db.
            db = fresh_script_db() if args.script else "local-table.db"
        errors = asyncio.run(main_local(db, args.script, args.out, args.dump_state, args.user, args.channel))
        return 1 if (args.script and errors) else 0

    db = args.db or os.getenv("HEXPOST_DB", "hexpost.db")
    sync = args.sync or os.getenv("HEXPOST_SYNC", "").strip() in ("1", "true", "yes")
    bot = build_bot(db, sync=sync, sync_guild=os.getenv("HEXPOST_SYNC_GUILD") or None)
    try:
        bot.run(token, log_handler=None)
    except KeyboardInterrupt:
        return 0
    except Exception as exc:  # noqa: BLE001 - a start-up failure is explained, not dumped as a traceback
        problem = startup_problem(exc)
        if problem is None:
            raise
        print(problem, file=sys.stderr)
        log.debug("start-up failure", exc_info=exc)
        return 2
    return 0


def startup_problem(exc: BaseException) -> str | None:
    """Words for a failure to reach or log in to Discord: what failed and how to check it (None: not one)."""
    import aiohttp
    import discord

    if isinstance(exc, discord.LoginFailure):
        return ("Hexpost could not log in to Discord: the token was refused.\n"
                "Check DISCORD_TOKEN in your .env: copy the bot token again from the Discord Developer Portal "
                "(Applications > your app > Bot > Reset Token); it is not the application id or the client secret.")
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return ("Hexpost could not connect: Discord refused an intent the bot asked for.\n"
                "Hexpost needs no privileged intent; check that you run an unchanged bot.py.")
    network = (aiohttp.ClientConnectionError, discord.GatewayNotFound, asyncio.TimeoutError, OSError)
    if isinstance(exc, network) or isinstance(exc, discord.HTTPException) and exc.status >= 500:
        return (f"Hexpost could not reach Discord ({type(exc).__name__}: {str(exc)[:200] or 'no answer'}).\n"
                "Check, in this order:\n"
                "  1. the network: can this machine open https://discord.com (proxy, firewall, DNS)?\n"
                "  2. Discord itself: https://discordstatus.com shows outages;\n"
                "  3. the token: DISCORD_TOKEN in .env is the bot token from the Developer Portal.\n"
                "Without a token Hexpost starts the offline local table instead (python bot.py --local).")
    return None


if __name__ == "__main__":
    sys.exit(main())
