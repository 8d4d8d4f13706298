"""The day's questions as prompts: their deadline kept in the database with the state, fired exactly once after a
restart, reminders following the players waited for; clicks on an older question refused; pings for everyone."""
from __future__ import annotations

import asyncio

import pytest

from cogs.common import allowed_mentions
from commands.core import Table
from engine.service import CampaignService, replay
from engine.store import Store
from rulesets.tes import rules
from rulesets.tes.present.answers import run_due_deadlines, sweep
from test_battle_prompts import Clock, Game, T0

LENA, BOB = "2001", "2002"
CH = "100"


async def two(g: Game) -> None:
    await g.ok(LENA, "campaign new", name="Reed Road")
    await g.ok(LENA, "adventurer create", name="Ryan", race="dark-elf", line="destruction-staff")
    await g.ok(BOB, "campaign join")
    await g.ok(BOB, "adventurer create", name="Shannon", race="argonian", line="one-hand-and-shield")


async def start(g: Game):
    """``/day start`` and the guild draw answered (the Mages Guild: its quest starts in Brinehold): the reply
    that shows the town encounter of day 1."""
    # the set-up rolls 8 dice for the decks' general cards, then the guild draw's first card: a 2 is the Mages
    # Guild (the 2nd of the 4 guilds questing in the Saltmire, by id)
    await g.ok(LENA, "force", values="1 1 1 1 1 1 1 1 2")
    reply = await g.ok(LENA, "day start")
    assert "guild cards are drawn" in reply.content
    return await g.ok(LENA, "quest guild", pick="Mages Guild")


async def test_a_town_visit_times_out_once_after_a_restart_and_the_day_goes_on(tmp_path):
    clock = Clock()
    store = await Store.open(tmp_path / "hexpost.db")
    g = Game(Table(CampaignService(store, clock=clock)), clock)
    await two(g)
    reply = await start(g)
    assert reply.ping == LENA and reply.also_ping == [BOB]  # both must act: both are pinged
    mentions = allowed_mentions(reply).users
    assert sorted(int(u.id) for u in mentions) == [int(LENA), int(BOB)]
    due = int(T0 + 12 * 3600)  # each reader sees the time on their own clock, and how far off it is
    assert f"by <t:{due}:f> (<t:{due}:R>)" in reply.content
    cid = await g.table.service.campaign_id(CH)
    (d,) = await store.pending_deadlines(cid)
    assert d.due_at == T0 + 12 * 3600 and d.key.startswith("day-town:")
    state = await g.state()
    assert rules.whose_move(state)[0] == LENA  # the reminder follows the first player waited for
    await g.ok(LENA, "town done")
    state = await g.state()
    assert rules.whose_move(state)[0] == BOB
    await store.close()

    store = await Store.open(tmp_path / "hexpost.db")  # the bot restarts
    g = Game(Table(CampaignService(store, clock=clock)), clock)
    assert await sweep(g.table) == 0  # the deadline is already in the database
    posts = []

    async def send(channel, r):
        posts.append(r)

    clock.now = T0 + 12 * 3600 + 1
    counts = await asyncio.gather(run_due_deadlines(g.table, send), run_due_deadlines(g.table, send))
    assert sum(counts) == 1 and len(posts) == 1
    text = posts[0].content
    assert "No answer from Shannon in time" in text and "End of Day Phase" in text
    state = await g.state()
    assert state.days.phase == "end-of-day" and state.days.ask.kind == "rest"
    assert replay(await store.log(cid)).to_dict() == state.to_dict()
    await store.close()


@pytest.fixture
async def game(tmp_path):
    clock = Clock()
    store = await Store.open(tmp_path / "hexpost.db")
    g = Game(Table(CampaignService(store, clock=clock)), clock)
    yield g
    await store.close()


async def test_questions_without_a_deadline_wait(game):
    await two(game)
    await game.ok(LENA, "day settings", hours=0)
    reply = await game.ok(LENA, "day start")
    assert "Without an answer" not in reply.content
    cid = await game.table.service.campaign_id(CH)
    assert await game.table.service.store.pending_deadlines(cid) == []
    assert await sweep(game.table) == 0  # a start-up sweep does not give it one either


async def test_a_click_on_an_older_question_changes_nothing(game):
    await two(game)
    reply = await start(game)
    done = next(b.custom_id for b in reply.buttons if b.label == "Done in town")
    await game.ok(LENA, "town done")
    await game.ok(BOB, "town done")  # the visit is over: now the rest is asked
    stale = await game.click(BOB, done)
    assert stale.error and "out of date" in stale.content
    rest = await game.run(LENA, "day status")
    button = next(b.custom_id for b in rest.buttons if b.label.startswith("Rest"))
    first = await game.click(LENA, button)
    assert not first.error and "Ryan rests" in first.content
    again = await game.click(LENA, button)
    assert again.error and "already rested" in again.content


async def test_the_undo_shows_the_day_again(game):
    await two(game)
    await start(game)
    await game.ok(LENA, "town done")  # (the inn at full HP would give nothing: rules revision 4 refuses it)
    reply = await game.ok(LENA, "undo", confirm="yes")
    assert any(p.kind == "overland" for p in reply.pictures) and "take town actions" in reply.content
