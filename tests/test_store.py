"""Storage: migrations, durability across reopen, the log, undo and replay."""
from __future__ import annotations

import json
import sqlite3

from commands.core import Table
from engine.core import Action
from engine.service import CampaignService, replay
from engine.store import Store

RYAN, SHANNON = "1001", "1002"


async def test_migrations_apply_once_and_only_once(tmp_path):
    path = tmp_path / "m.db"
    s = await Store.open(path)
    first = await s.schema_versions()
    await s.close()
    assert first and first == sorted(first)
    s = await Store.open(path)
    assert await s.migrate() == []  # nothing applied the second time
    assert await s.schema_versions() == first
    await s.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    rows = con.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0]
    assert rows == len(first)
    con.close()


async def test_campaign_survives_closing_and_reopening_unchanged(tmp_path):
    path = tmp_path / "c.db"
    store = await Store.open(path)
    table = Table(CampaignService(store))
    inv = lambda u: table.invocation(u, "100", "1", u)  # noqa: E731
    assert not (await table.run(inv(RYAN), "campaign new", {"name": "Keep"})).error
    assert not (await table.run(inv(RYAN), "adventurer create",
                                {"name": "Vilya", "race": "dark-elf", "line": "destruction-staff"})).error
    assert not (await table.run(inv(SHANNON), "adventurer create",
                                {"name": "Sil", "race": "argonian", "line": "one-hand-and-shield"})).error
    before = (await table.service.campaign("100")).to_dict()
    log_before = [e.to_dict() for e in await store.log(await table.service.campaign_id("100"))]
    await store.close()

    store = await Store.open(path)
    service = CampaignService(store)
    after = (await service.campaign("100")).to_dict()
    log_after = [e.to_dict() for e in await store.log(await service.campaign_id("100"))]
    assert after == before
    assert log_after == log_before
    assert json.dumps(after, sort_keys=True) == json.dumps(before, sort_keys=True)
    # and the log alone rebuilds the same campaign
    assert replay(await store.log(await service.campaign_id("100"))).to_dict() == after
    await store.close()


async def test_refused_action_writes_nothing(service, store):
    await service.execute("100", Action("campaign.new", RYAN, {"name": "A", "channel_id": "100", "seed": 5}))
    cid = await service.campaign_id("100")
    count = await store.log_count(cid)
    before = await store.load_active("100")
    out = None
    try:
        out = await service.execute("100", Action("campaign.join", RYAN))
    except Exception as exc:  # RuleError
        assert "already in this party" in str(exc)
    assert out is None
    assert await store.log_count(cid) == count
    assert (await store.load_active("100")).version == before.version


async def test_undo_restores_state_and_keeps_the_log(table, service, store, player):
    ryan = player(RYAN)
    await ryan("campaign new", name="Undo")
    await player(SHANNON)("campaign join")
    ask = await ryan("undo")
    assert ask.buttons, ask.content
    done = await ryan.click(ask.buttons[0].custom_id)
    assert not done.error and "Undid" in done.content
    state = await service.campaign("100")
    assert SHANNON not in state.members
    entries = await store.log(await service.campaign_id("100"))
    assert [e.type for e in entries] == ["campaign.new", "campaign.join", "undo"]
    assert entries[1].undone_by == 3
    # nothing more to undo, and the old prompt is stale
    assert (await ryan("undo")).error
    assert (await ryan.click(ask.buttons[0].custom_id)).error
    assert replay(entries).to_dict() == state.to_dict()


async def test_only_the_leader_can_undo(player, service):
    await player(RYAN)("campaign new", name="Undo")
    await player(SHANNON)("campaign join")
    reply = await player(SHANNON)("undo", confirm=True)
    assert reply.error and "party leader" in reply.content
    assert SHANNON in (await service.campaign("100")).members


async def test_log_command_pages_the_history(player):
    ryan = player(RYAN)
    await ryan("campaign new", name="Log")
    for i in range(12):
        await ryan("campaign settings", reminder_hours=i + 1)
    page1 = await ryan("campaign log")
    text = page1.as_text()
    assert "page 1 of 2" in text and "`#13`" in text and "`#4`" in text and "`#3`" not in text
    assert page1.buttons and page1.buttons[0].label == "Older"
    page2 = await ryan.click(page1.buttons[0].custom_id)
    assert "`#1`" in page2.as_text() and "Campaign Log opened" in page2.as_text()
    assert "campaign.new" not in page2.as_text()  # an action in words, not its internal type
    assert (await ryan("campaign log", page=9)).error
