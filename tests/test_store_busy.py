"""A busy database is waited for, never shown as a fault: another process holding the write lock for 3.5 s,
while a read of the bot's shared connection is still open (its old snapshot made BEGIN IMMEDIATE fail at once)."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import engine.store as store_module
from commands.core import Table
from engine.service import CampaignService

HOLD = """
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
con.execute("UPDATE campaigns SET updated_at = updated_at + 1")  # a write the bot's open read has not seen
con.execute("BEGIN IMMEDIATE")
con.execute("UPDATE campaigns SET updated_at = updated_at + 1")
print("LOCKED", flush=True)
time.sleep(float(sys.argv[2]))
con.execute("COMMIT")
"""


async def _hold(db: str, seconds: float) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, db, str(seconds)], stdout=subprocess.PIPE)
    line = await asyncio.to_thread(proc.stdout.readline)
    assert line.strip() == b"LOCKED"
    return proc


async def _open_read(store):
    """A read of the shared connection still open (several rows, one fetched): what a long /campaign log or
    export does between its steps while another channel writes."""
    cur = await store._db.execute("SELECT name FROM sqlite_master")
    await cur.fetchone()
    return cur


async def test_a_write_waits_for_another_process_and_an_open_read_instead_of_failing(store):
    table = Table(CampaignService(store))
    lena = lambda: table.invocation("1", "100", "1", "lena")  # noqa: E731
    assert not (await table.run(lena(), "campaign new", {"name": "Busy Night"})).error
    cur = await _open_read(store)
    proc = await _hold(store.path, 3.5)

    async def finish_read():
        await asyncio.sleep(0.5)
        await cur.fetchall()
        await cur.close()

    started = time.perf_counter()
    reply, _ = await asyncio.gather(table.run(lena(), "campaign settings", {"reminder_hours": 5}), finish_read())
    waited = time.perf_counter() - started
    await asyncio.to_thread(proc.wait)
    assert not reply.error, reply.content
    assert "reminder_hours = 5" in reply.content
    assert (await table.service.campaign("100")).settings["reminder_hours"] == 5
    print(f"\n[busy] the write waited {waited:.1f} s for the other process's lock, then went through")


async def test_a_database_busy_past_the_retries_is_said_plainly_and_changes_nothing(store, monkeypatch, caplog):
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.5)
    table = Table(CampaignService(store))
    lena = lambda: table.invocation("1", "100", "1", "lena")  # noqa: E731
    assert not (await table.run(lena(), "campaign new", {"name": "Busy Night"})).error
    before = await table.service.campaign("100")
    cur = await _open_read(store)  # a read that stays open all along: every try finds the database busy
    proc = await _hold(store.path, 2.0)
    reply = await table.run(lena(), "campaign settings", {"reminder_hours": 5})
    await asyncio.to_thread(proc.wait)
    await cur.close()
    assert reply.error and reply.ephemeral
    assert "busy" in reply.content and "nothing was changed" in reply.content
    assert "Something went wrong" not in reply.content
    assert (await table.service.campaign("100")).to_dict() == before.to_dict()
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    # and once the other process is done, the same command works
    assert not (await table.run(lena(), "campaign settings", {"reminder_hours": 5})).error
