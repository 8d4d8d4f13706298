"""Builds a campaign's dashboard (``engine.dashboard.Board``) for either front door.

Whose move it is and since when, the deadline, the phase, the last three things that happened and the current
picture, from what every ruleset already offers: its turn hooks, its open prompt, the log, and its presenter's
``dashboard(inv, state) -> engine.dashboard.Scene``.  Since when a move began is kept in the database
(``Store.save_dashboard``): the time of the action after which the move became that player's.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from engine import rulesets
from engine.commands import Invocation
from engine.core import word
from engine.dashboard import RECENT, Board, Scene
from engine.service import entry_line
from engine.reply import clip
from engine.store import BIG_JSON

LINE = 300  # characters of one of the latest actions' lines on the dashboard
QUIET = frozenset({"dice.force"})  # actions of the table, not of the game: not among the latest things


@dataclass
class Built:
    campaign_id: int
    channel_id: str
    board: Board
    inv: Invocation  # names people as the campaign knows them
    message_id: str | None  # the dashboard's post so far (None: not posted yet)
    shows: str = ""  # what the picture is, in words (its alt text's start)


async def build(table: Any, channel_id: str, campaign_id: int | None = None) -> Built | None:
    """The dashboard of the channel's campaign (or of ``campaign_id``, active or ended); None without one."""
    store = table.service.store
    stored = await store.load_campaign(campaign_id) if campaign_id is not None else \
        await store.load_active(str(channel_id))
    if stored is None:
        return None
    state = (await asyncio.to_thread(rulesets.load, stored.state)) if stored.size > BIG_JSON else \
        rulesets.load(stored.state)
    game = rulesets.named(getattr(state, "ruleset", None))
    inv = table.invocation(str(state.leader), stored.channel_id, getattr(state, "guild_id", None))
    kept = getattr(state, "names", None)
    if isinstance(kept, dict):
        inv.known = dict(kept)
    inv.campaign_id = stored.id
    inv.ruleset = getattr(state, "ruleset", None)

    entries = await store.log(stored.id, limit=RECENT + 6, light=True)
    shown = [e for e in entries if e.type not in QUIET][-RECENT:]
    recent = []
    for entry in shown:
        text, data = entry_line(entry, game)
        recent.append(clip(word(text, data, inv.name_of), LINE))
    found = None if state.ended else game.whose_move(state)
    key = f"{found[0]}|{found[1]}" if found else None
    row = await store.dashboard(stored.id)
    if row is not None and row.turn_key == key and row.since is not None:
        since = row.since
    else:  # the move changed with the latest action (or the dashboard is new): since that action
        since = entries[-1].at if entries else time.time()
        await store.save_dashboard(stored.id, stored.channel_id, turn_key=key, since=since)
    prompt = game.open_prompt(state) if game.open_prompt is not None and not state.ended else None
    deadline = getattr(prompt, "deadline", None)
    reminder = None
    if found and deadline is None:
        due = [r.due_at for r in await store.pending_reminders(stored.id) if str(r.user_id) == str(found[0])]
        reminder = min(due) if due else None
    scene = Scene()
    present = game.present
    if present is not None and hasattr(present, "dashboard"):
        scene = present.dashboard(inv, state) or Scene()
    board = Board(campaign=str(state.name), game=game.title, whose=found[0] if found else None,
                  waiting=scene.waiting, since=since if found else None, deadline=deadline, reminder=reminder,
                  phase=scene.phase, recent=recent, picture=scene.picture if not state.ended else None,
                  ended=bool(state.ended))
    return Built(stored.id, stored.channel_id, board, inv, row.message_id if row else None, scene.shows)


async def local_block(table: Any, channel_id: str, campaign_id: int | None = None) -> list[str]:
    """The dashboard as the local table prints it (no lines without a campaign)."""
    built = await build(table, channel_id, campaign_id)
    if built is None:
        return []
    return built.board.lines(built.inv.name_of)
