"""Reads of a long campaign while another channel plays: does any read's cost grow with the campaign's age?

A campaign of N actions (default 20,000) is stored as an import leaves it: one ``campaign.import`` log entry that
carries the whole earlier log (the heaviest case: one row holding every earlier action), then a few actions on
top.  Then, for each kind of read, R readers (default 8) run it at once through the real command layer
(``Table.run``) while another channel's player rolls ``/roll d20`` every 20 ms; the bench prints

  reads        how long the R reads took together, and the slowest one
  /roll        the latency of the other channel's rolls meanwhile: p50, p95 and the slowest
  loop held    the longest the event loop went without running (a 5 ms ticker's worst gap)

for ``/campaign log`` (page 1, the page holding the import entry), ``/campaign status``, ``/campaign export``, and,
for comparison, the log page read as it was before reads were made light (every column parsed, the import's
whole earlier log with it).

Usage:
  python bench/bench_reads.py [--actions 20000] [--readers 8] [--real 600] [--tracemalloc]

Setup, not timed: a real campaign of ``--real`` actions is played through the rules (battles, enemy turns,
dice), and its entries are repeated, renumbered, up to ``--actions`` to make the imported history: the sizes are
a real campaign's; the history is not replayed (a read never replays it).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import rulesets  # noqa: E402

rulesets.load_all()
from commands.core import Table  # noqa: E402
from engine.service import CampaignService  # noqa: E402
from engine.store import LogEntry, Store  # noqa: E402

LEAD = "1001"


def history(actions: int, real: int) -> tuple[list[dict], dict]:
    from helpers.exports import long_campaign

    played = long_campaign(real)
    out = []
    for i in range(actions):
        e = dict(played.log[i % len(played.log)])
        e["seq"] = i + 1
        out.append(e)
    return out, played.state.to_dict()


async def setup(db: str, actions: int, real: int) -> tuple[Store, Table, int]:
    hist, state = history(actions, real)
    store = await Store.open(db)
    state = dict(state, channel_id="long", guild_id="1")
    action = {"type": "campaign.import", "actor": LEAD, "on_behalf": None,
              "args": {"history": hist, "state": state, "channel_id": "long", "guild_id": "1"}}
    text = f"Campaign {state['name']} imported; {actions} earlier actions (#1–#{actions}) are kept with this entry."
    entry = LogEntry(seq=1, at=time.time(), actor=LEAD, on_behalf=None, type="campaign.import", action=action,
                     dice=[], events=[{"kind": "campaign-imported", "text": text, "data": {}}], undoable=False)
    cid, _ = await store.commit(campaign_id=None, channel_id="long", guild_id="1", expected_version=None,
                                state=state, active=True, entry=entry)
    table = Table(CampaignService(store))
    for hours in (5, 6, 7):  # a few actions on top, as a campaign plays on after its import
        reply = await table.run(table.invocation(LEAD, "long", "1", LEAD), "campaign settings",
                                {"reminder_hours": hours})
        assert not reply.error, reply.content
    size = sum(len(r[0]) for r in await store._rows("SELECT action FROM action_log WHERE campaign_id = ?", (cid,)))
    import gc

    gc.collect()  # the setup's objects are gone before anything is measured
    for command in ("campaign log", "campaign status"):  # as in a bot that has been up a while
        await table.run(table.invocation(LEAD, "long", "1", LEAD), command, {})
    await table.run(table.invocation("2001", "elsewhere", "1", "cara"), "roll", {"dice": "d20"})  # the dice parser
    print(f"campaign: {actions:,} earlier actions in its import entry ({size / 2**20:.1f} MB of JSON), "
          f"+3 actions; database {os.path.getsize(db) / 2**20:.1f} MB")
    return store, table, cid


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else 0.0


async def scenario(name: str, read, readers: int, table: Table, trace: bool) -> str:
    rolls: list[float] = []
    worst_gap = 0.0
    stop = asyncio.Event()

    async def ticker():
        nonlocal worst_gap
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            t = loop.time()
            await asyncio.sleep(0.005)
            worst_gap = max(worst_gap, loop.time() - t - 0.005)

    async def roller():
        while not stop.is_set():
            t = time.perf_counter()
            reply = await table.run(table.invocation("2001", "elsewhere", "1", "cara"), "roll", {"dice": "d20"})
            assert not reply.error
            rolls.append(time.perf_counter() - t)
            await asyncio.sleep(0.02)

    async def timed():
        t = time.perf_counter()
        await read()
        return time.perf_counter() - t

    if trace:
        tracemalloc.start()
    tasks = [asyncio.ensure_future(ticker()), asyncio.ensure_future(roller())]
    await asyncio.sleep(0.1)
    started = time.perf_counter()
    each = await asyncio.gather(*(timed() for _ in range(readers)))
    took = time.perf_counter() - started
    await asyncio.sleep(0.1)
    stop.set()
    await asyncio.gather(*tasks)
    peak = f"; tracemalloc peak {tracemalloc.get_traced_memory()[1] / 2**20:.0f} MB" if trace else ""
    if trace:
        tracemalloc.stop()
    return (f"{name:<34} {readers} at once: {took * 1000:7.0f} ms, slowest {max(each) * 1000:6.0f} ms | "
            f"/roll elsewhere ({len(rolls)}): p50 {pct(rolls, .5) * 1000:4.0f} ms, p95 {pct(rolls, .95) * 1000:5.0f} ms, "
            f"max {max(rolls) * 1000:5.0f} ms | loop held at most {worst_gap * 1000:4.0f} ms{peak}")


async def main_async(args) -> str:
    with tempfile.TemporaryDirectory() as folder:
        store, table, cid = await setup(os.path.join(folder, "reads.db"), args.actions, args.real)
        try:
            lead = lambda: table.invocation(LEAD, "long", "1", LEAD)  # noqa: E731

            async def run(command, options=None):
                reply = await table.run(lead(), command, options or {})
                assert not reply.error, reply.content

            async def old_log_page():  # every column parsed, as the log page was read before light reads
                total = await store.log_count(cid)
                await store.log(cid, limit=10, before_seq=total + 1)

            lines = [f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"]
            for name, read in (("/campaign log (page 1)", lambda: run("campaign log")),
                               ("/campaign status", lambda: run("campaign status")),
                               ("/campaign export", lambda: run("campaign export")),
                               ("log page, every column parsed (old)", old_log_page)):
                lines.append(await scenario(name, read, args.readers, table, args.tracemalloc))
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            lines.append(f"peak RSS {rss:.0f} MB")
            return "\n".join(lines) + "\n"
        finally:
            await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--real", type=int, default=600, help="actions of the real campaign the history repeats")
    parser.add_argument("--tracemalloc", action="store_true", help="also the tracemalloc peak of each scenario")
    args = parser.parse_args()
    print(asyncio.run(main_async(args)), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
