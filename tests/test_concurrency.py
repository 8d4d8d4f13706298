"""Concurrency: simultaneous clicks and commands are applied exactly once or refused, never lost or doubled.

Run with ``-s`` to see the counts.
"""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from engine.core import Action, RuleError
from engine.service import CampaignService, replay
from engine.store import Store

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "tests" / "helpers" / "worker.py"
LEAD = "1000"
GENERIC = "Something went wrong"


async def consistent(store: Store, channel: str) -> list:
    """The channel's log is contiguous, one entry per version, and replays to the stored state."""
    stored = await store.load_active(channel)
    entries = await store.log(stored.id)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert stored.version == len(entries)
    assert replay(entries).to_dict() == stored.state
    return entries


def key(type_, actor, args):
    return type_, actor, json.dumps(args, sort_keys=True)


async def test_fifty_simultaneous_actions_on_one_channel(table, store, player):
    assert not (await player(LEAD)("campaign new", name="Rush Hour")).error
    calls = []
    for i in range(20):
        calls.append((LEAD, "campaign settings", {"reminder_hours": i + 1}, key("campaign.settings", LEAD,
                                                                                {"reminder_hours": i + 1})))
    for i in range(20):
        user = str(2000 + i)
        calls.append((user, "campaign join", {}, key("campaign.join", user, {})))
    for _ in range(5):  # the same player clicking Join five more times
        calls.append(("2000", "campaign join", {}, key("campaign.join", "2000", {})))
    for i in range(5):  # a member who is not the leader tries the settings
        calls.append(("2001", "campaign settings", {"reminder_hours": 100 + i}, None))
    assert len(calls) == 50

    replies = await asyncio.gather(*(player(u)(name, **opts) for u, name, opts, _ in calls))
    applied = [c[3] for c, r in zip(calls, replies) if not r.error]
    refused = [r for r in replies if r.error]
    print(f"concurrency: {len(applied)} applied, {len(refused)} refused of {len(calls)} on one channel")
    for r in refused:
        assert r.content and GENERIC not in r.content, r.content
    expected = ("The party is full", "You are already in this party", "Only the party leader")
    assert all(r.content.startswith(expected) for r in refused), [r.content for r in refused]
    entries = await consistent(store, "100")
    logged = [key(e.type, e.actor, e.action["args"]) for e in entries[1:]]
    assert sorted(logged) == sorted(applied)  # each applied action exactly once, nothing else
    assert len(entries) == 1 + len(applied)
    state = await table.service.campaign("100")
    assert len(state.members) == 4 and state.members[0] == LEAD  # MAX_PARTY: 3 joins of 25 got in
    assert sum(1 for a in applied if a[0] == "campaign.join") == 3
    last_setting = [e for e in entries if e.type == "campaign.settings"][-1]
    assert state.settings["reminder_hours"] == last_setting.action["args"]["reminder_hours"]
    assert not any(r.error for (u, name, _, _), r in zip(calls, replies) if name == "campaign settings" and u == LEAD)


async def test_double_clicked_confirmation_applies_once(table, store, player):
    lead = player(LEAD)
    await lead("campaign new", name="Click Click")
    await player("2000")("campaign join")
    ask = await lead("undo")
    button = ask.buttons[0].custom_id
    clicks = await asyncio.gather(*(lead.click(button) for _ in range(10)))
    ok = [c for c in clicks if not c.error]
    print(f"concurrency: undo button clicked 10 times at once: {len(ok)} applied, {len(clicks) - len(ok)} refused")
    assert len(ok) == 1
    assert all(GENERIC not in c.content and c.content for c in clicks)
    entries = await consistent(store, "100")
    assert [e.type for e in entries] == ["campaign.new", "campaign.join", "undo"]

    cid = await table.service.campaign_id("100")
    ask = await lead("campaign end")
    ends = await asyncio.gather(*(lead.click(ask.buttons[0].custom_id) for _ in range(10)))
    assert sum(1 for c in ends if not c.error) == 1
    assert all(c.content and GENERIC not in c.content for c in ends)
    after = await store.log(cid)
    assert [e.type for e in after] == ["campaign.new", "campaign.join", "undo", "campaign.end"]


async def test_a_hundred_channels_in_parallel(table, store, player):
    async def one_channel(n: int):
        ch = str(5000 + n)
        lead = player(LEAD, ch)
        first = await lead("campaign new", name=f"Table {n}")
        assert not first.error, first.content
        users = [str(7000 + n * 10 + i) for i in range(3)]
        replies = await asyncio.gather(
            *(player(u, ch)("campaign join") for u in users),
            player(users[0], ch)("campaign join"),
            lead("campaign settings", reminder_hours=n % 300),
            lead("campaign new", name="Again"),
        )
        return ch, replies

    results = await asyncio.gather(*(one_channel(n) for n in range(100)))
    applied = refused = 0
    for ch, replies in results:
        entries = await consistent(store, ch)
        ok = [r for r in replies if not r.error]
        bad = [r for r in replies if r.error]
        applied += len(ok) + 1
        refused += len(bad)
        assert len(entries) == 1 + len(ok)
        assert all(r.content and GENERIC not in r.content for r in bad)
        state = await table.service.campaign(ch)
        assert len(state.members) == 4 and state.name != "Again"
    print(f"concurrency: 100 channels, {applied} applied, {refused} refused, all consistent")
    assert refused == 200  # per channel: the duplicate join and the second campaign


async def test_two_processes_stale_write_is_refused_and_nothing_is_overwritten(tmp_path):
    path = tmp_path / "two.db"
    a_store, b_store = await Store.open(path), await Store.open(path)
    a, b = CampaignService(a_store), CampaignService(b_store)
    await a.execute("100", Action("campaign.new", LEAD, {"name": "Race", "channel_id": "100", "seed": 3}))

    # B loads the campaign, then A writes, then B tries to write what it loaded: refused.
    loaded, go = asyncio.Event(), asyncio.Event()
    real_load = b_store.load_active

    async def slow_load(channel):
        stored = await real_load(channel)
        loaded.set()
        await go.wait()
        return stored

    b_store.load_active = slow_load
    b_task = asyncio.create_task(b.execute("100", Action("campaign.settings", LEAD, {"reminder_hours": 7})))
    await loaded.wait()
    await a.execute("100", Action("campaign.join", "2000"))
    go.set()
    try:
        await b_task
        raise AssertionError("the stale write was accepted")
    except RuleError as exc:
        assert "changed at the same moment" in exc.message and "try again" in exc.message
    b_store.load_active = real_load
    entries = await consistent(a_store, "100")
    assert [e.type for e in entries] == ["campaign.new", "campaign.join"]
    state = await b.campaign("100")
    assert "2000" in state.members and state.settings["reminder_hours"] == 24  # A's write kept, B's not applied
    # and B succeeds when it tries again
    await b.execute("100", Action("campaign.settings", LEAD, {"reminder_hours": 7}))
    assert (await a.campaign("100")).settings["reminder_hours"] == 7

    # Now free-running: both services hammer the same channel at once.
    applied = refused = 0
    for i in range(40):
        results = await asyncio.gather(
            a.execute("100", Action("campaign.settings", LEAD, {"reminder_hours": 100 + i})),
            b.execute("100", Action("campaign.settings", LEAD, {"reminder_hours": 200 + i})),
            return_exceptions=True)
        for r in results:
            if isinstance(r, RuleError):
                refused += 1
                assert "changed at the same moment" in r.message
            else:
                assert not isinstance(r, BaseException), r
                applied += 1
    entries = await consistent(b_store, "100")
    print(f"concurrency: two services on one file: {applied} applied, {refused} stale writes refused of 80")
    assert len(entries) == 3 + applied  # new, join, B's retry, then every applied write

    # Two processes opening a campaign in the same empty channel at once: one wins.
    both = await asyncio.gather(
        a.execute("300", Action("campaign.new", LEAD, {"name": "First", "channel_id": "300"})),
        b.execute("300", Action("campaign.new", "2000", {"name": "Second", "channel_id": "300"})),
        return_exceptions=True)
    won = [r for r in both if not isinstance(r, BaseException)]
    lost = [r for r in both if isinstance(r, BaseException)]
    assert len(won) == 1 and len(lost) == 1 and isinstance(lost[0], RuleError), both
    assert "already has a campaign" in lost[0].message
    assert len(await consistent(a_store, "300")) == 1
    await a_store.close()
    await b_store.close()


async def test_a_real_second_os_process_on_the_same_file(tmp_path):
    path = tmp_path / "os.db"
    store = await Store.open(path)
    service = CampaignService(store)
    await service.execute("100", Action("campaign.new", LEAD, {"name": "Two Bots", "channel_id": "100", "seed": 9}))
    n = 60
    proc = subprocess.Popen([sys.executable, str(WORKER), "hammer", str(path), "100", str(n), "100"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    ready = await asyncio.to_thread(proc.stdout.readline)
    assert ready.strip() == b"READY", ready + proc.stderr.read()
    proc.stdin.write(b"GO\n")
    proc.stdin.flush()
    mine, refused_here = [], 0
    for i in range(n):
        try:
            await service.execute("100", Action("campaign.settings", LEAD, {"reminder_hours": 200 + i}))
            mine.append(200 + i)
        except RuleError as exc:
            assert "changed at the same moment" in exc.message
            refused_here += 1
        await asyncio.sleep(0)
    out, err = await asyncio.to_thread(proc.communicate)
    assert proc.returncode == 0, err.decode()
    result = json.loads(out.decode().split("RESULT ", 1)[1])
    theirs = result["applied"]
    for message in result["messages"]:
        assert "changed at the same moment" in message
    entries = await consistent(store, "100")
    logged = [e.action["args"]["reminder_hours"] for e in entries[1:]]
    assert sorted(logged) == sorted(mine + theirs)  # every acknowledged write is there, once
    assert [x for x in logged if x >= 200] == mine and [x for x in logged if x < 200] == theirs  # in order
    state = await service.campaign("100")
    assert state.settings["reminder_hours"] == logged[-1]
    print(f"concurrency: two OS processes: {len(mine) + len(theirs)} applied "
          f"({len(mine)} here, {len(theirs)} there), {refused_here + result['refused']} stale writes refused "
          f"of {2 * n}")
    await store.close()
