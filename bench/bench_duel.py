"""Duel fights as players get them: command layer → service → SQLite, then the duel pictures of each post.

Plays ``--fights`` whole fights (two or three characters against a monster of the bestiary, or a challenge)
through the real ``Table`` → ``CampaignService`` → ``Store`` in a temporary folder, every question answered at
random by its player (placing through ``/duel place``, Fame rerolls and declarations through their commands), and
prints p50/p95/p99 of:

* the command (rules, store commit, reply built; no drawing),
* one duel picture (``render/duel.py``, as the bot renders it in a worker thread),
* the whole post (the command and all its pictures),

with the pictures per post, the PNG size and the peak RSS.  Nothing is asserted: the figures are read.

Usage: .venv/bin/python bench/bench_duel.py [--fights N] [--seed N]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from commands.core import Table  # noqa: E402
from engine.prompts import open_prompt  # noqa: E402
from engine.service import CampaignService  # noqa: E402
from engine.store import Store  # noqa: E402
from render import render  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else 0.0


def line(name: str, secs: list[float]) -> str:
    ms = [s * 1000 for s in secs]
    return (f"{name:<34} n={len(ms):5d}  p50 {statistics.median(ms):7.1f} ms  p95 {pct(ms, .95):7.1f} ms  "
            f"p99 {pct(ms, .99):7.1f} ms")


async def play(table: Table, channel: str, rng: random.Random, figures: dict[str, list]) -> int:
    players = ["p1", "p2", "p3"][: rng.randint(2, 3)]
    heroes = ["sellsword", "duelist", "hedge-witch", "pilgrim"]

    async def run(who: str, command: str, **options):
        inv = table.invocation(who, channel, "g", who)
        t0 = time.perf_counter()
        reply = await table.run(inv, command, options)
        t1 = time.perf_counter()
        pics = []
        for r in [reply] + reply.followups + [f for x in reply.followups for f in x.followups]:
            pics += r.pictures
        drawn = 0.0
        for pic in pics:
            t = time.perf_counter()
            data = await asyncio.to_thread(render, pic.kind, pic.view)
            figures["picture"].append(time.perf_counter() - t)
            figures["bytes"].append(len(data))
            drawn += figures["picture"][-1]
        figures["command"].append(t1 - t0)
        figures["post"].append(t1 - t0 + drawn)
        figures["pictures"].append(len(pics))
        if reply.error:
            figures["refused"].append(1)
        return reply

    await run(players[0], "campaign new", name=f"Bench {channel}", ruleset="duel")
    for i, who in enumerate(players):
        await run(who, "duel character", hero=rng.choice(heroes), name=f"Hero {i + 1}")
    if rng.random() < 0.7:
        await run(players[0], "duel fight", monster=rng.choice(["cave-troll", "marsh-wisp", "ashen-knight"]))
    else:
        await run(players[0], "duel fight", rival=players[1])
    actions = 0
    for _ in range(5000):
        state = await table.service.campaign(channel)
        if state.fight is None or state.fight.over:
            break
        p = open_prompt(state)
        actions += 1
        if p.kind == "join":
            choice = rng.choice([o.value for o in p.options if o.value != "out"])
            head, _, gear = choice.partition(".")
            await run(p.owner, "duel join", answer={"in": "in", "a": "a", "b": "b"}[head], **(
                {"gear": gear} if gear else {}))
        elif p.kind == "place":
            f = state.fight.fighters[f"c:{p.owner}"]
            cards = rng.sample(f.hand, rng.randint(0, min(2, len(f.hand))))
            foes = [e.name for e in state.fight.fighters.values() if e.side != f.side and e.standing]
            await run(p.owner, "duel place", cards=",".join(cards) or "none", target=rng.choice(foes),
                      base=rng.choice(["attack", "token"]))
        elif p.kind == "declare":
            await run(p.owner, "duel declare", use=rng.choice(["attack", "token"]))
        else:
            await run(p.owner, "duel reroll", **({"die": int(p.options[0].value)} if rng.random() < 0.3 else {}))
    return actions


async def main_async(args) -> None:
    rng = random.Random(args.seed)
    figures: dict[str, list] = {"command": [], "picture": [], "post": [], "pictures": [], "bytes": [], "refused": []}
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(os.path.join(tmp, "bench.db"))
        try:
            table = Table(CampaignService(store))
            render("duel", {})  # fonts loaded once
            played = 0
            t0 = time.perf_counter()
            for n in range(args.fights):
                played += await play(table, f"ch{n}", rng, figures)
            wall = time.perf_counter() - t0
        finally:
            await store.close()
    print(f"played: {args.fights} fights, {played} questions answered, {len(figures['command'])} commands "
          f"in {wall:.1f} s")
    print(line("command (rules + store + reply)", figures["command"]))
    print(line("duel picture (render/duel.py)", figures["picture"]))
    print(line("whole post (command + pictures)", figures["post"]))
    pics = figures["pictures"]
    print(f"pictures per post: mean {statistics.fmean(pics):.2f}, max {max(pics)}; PNG mean "
          f"{statistics.fmean(figures['bytes']) / 1024:.1f} KiB, max {max(figures['bytes']) / 1024:.1f} KiB")
    print(f"refused commands: {len(figures['refused'])}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS: {peak / 1024:.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
