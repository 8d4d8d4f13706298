"""Fuzzing /campaign import: thousands of mutated export files, each imported exactly or refused plainly.

From a few valid exports (a fresh party, a party some way into a battle, a campaign that was already
imported once) a fixed-seed generator makes mutants: a value anywhere in the JSON replaced by an odd
one, a key or entry dropped or doubled, entries swapped, bytes cut or flipped, gzip or not.  Every
mutant goes through the command as a file from Discord would.  Each must either be imported, and
then equal the replay of its own log, or be refused with a clear message; a refusal changes nothing,
and nothing ends in an internal error.  Time and memory per file are printed.
"""
from __future__ import annotations

import copy
import gzip
import json
import logging
import random
import sqlite3
import time
import tracemalloc

from commands.transfer import attach
from helpers.exports import LEAD, doc_of, long_campaign, opened, raw
from engine.service import replay
from rulesets.tes.rules.transfer import rebuild

MUTANTS = 2000
SEED = 20261123
ODD = [None, True, False, 0, -1, 1, 7, 2**70, -(2**63), 1e308, 3.5, "", " ", "x" * 5000, "y" * 250,
       "@everyone", "# Heading", "[link](https://example.com)", "<@123>", "1001", "1002", "starter", "../etc",
       "/etc", "dice.force", "campaign.new", "campaign.import", "undo", "battle.endturn", [], {}, [1, 2, 3],
       {"values": [1]}, [None], {"": ""}]


def paths(value, prefix=()):
    """Every place in a JSON document, as key/index tuples."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


class Base:
    def __init__(self, doc: dict) -> None:
        self.text = json.dumps(doc)
        self.paths = paths(doc)[1:]


def mutate(rng: random.Random, base: Base) -> bytes:
    doc = json.loads(base.text)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        where = rng.choice(base.paths)
        parent = doc
        try:
            for key in where[:-1]:
                parent = parent[key]
            parent[where[-1]]
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation moved it
        if not isinstance(parent, (dict, list)):
            continue  # an earlier mutation put a text where a list was
        last = where[-1]
        how = rng.random()
        if how < 0.55:
            parent[last] = copy.deepcopy(rng.choice(ODD))
        elif how < 0.7:
            del parent[last]
        elif how < 0.8 and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif how < 0.9 and isinstance(doc.get("log"), list) and len(doc["log"]) > 1:
            i, j = rng.sample(range(len(doc["log"])), 2)
            doc["log"][i], doc["log"][j] = doc["log"][j], doc["log"][i]
        elif isinstance(parent[last], int) and not isinstance(parent[last], bool):
            parent[last] += rng.choice((-1, 1, 100))
    data = raw(doc)
    roll = rng.random()
    if roll < 0.08:
        data = data[: rng.randrange(len(data))]
    elif roll < 0.16:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
    if rng.random() < 0.3:
        data = gzip.compress(data)
        if rng.random() < 0.1:
            data = data[:-rng.randrange(1, 30)]
    return data


async def bases(table) -> list[dict]:
    fresh = opened()
    battle = long_campaign(10)
    docs = [doc_of(fresh.log, fresh.state.to_dict()), doc_of(battle.log, battle.state.to_dict())]
    inv = table.invocation(LEAD, "base", "1", LEAD)
    attach(inv, raw(docs[0]))
    assert not (await table.run(inv, "campaign import", {"file": "f.json"})).error
    exported = await table.run(table.invocation(LEAD, "base", "1", LEAD), "campaign export")
    docs.append(json.loads(exported.files[0].data))  # a log that opens with an earlier import
    return [Base(d) for d in docs]


async def test_mutated_exports_import_exactly_or_are_refused_plainly(table, service, store, caplog):
    caplog.set_level(logging.ERROR, logger="hexpost")
    rng = random.Random(SEED)
    docs = await bases(table)
    con = sqlite3.connect(store.path)
    count = lambda: con.execute("SELECT COUNT(*), (SELECT COUNT(*) FROM action_log) FROM campaigns").fetchone()  # noqa: E731
    imported = refused = 0
    slowest = 0.0
    peak = 0
    messages: dict[str, int] = {}
    started = time.perf_counter()
    for n in range(MUTANTS):
        doc = rng.choice(docs)
        data = mutate(rng, doc)
        channel = f"fuzz-{n}"
        before = count()
        inv = table.invocation(LEAD, channel, "1", LEAD)
        attach(inv, data)
        traced = n % 40 == 0
        if traced:
            tracemalloc.start()
        t = time.perf_counter()
        reply = await table.run(inv, "campaign import", {"file": "mutant.json"})
        slowest = max(slowest, time.perf_counter() - t)
        if traced:
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        assert "Something went wrong" not in reply.content, (n, reply.content)
        if reply.error:
            refused += 1
            assert reply.content.strip() and len(reply.content) < 1000, (n, reply.content)
            assert await service.campaign(channel) is None and count() == before, n
            first = reply.content.split(":")[0].split("(")[0][:50]
            messages[first] = messages.get(first, 0) + 1
            continue
        imported += 1
        assert count() == (before[0] + 1, before[1] + 1), n
        state = (await service.campaign(channel)).to_dict()
        if imported % 8 == 1:  # the new channel's own log rebuilds it too (a sample: each replay costs)
            entries = await store.log(await service.campaign_id(channel))
            assert replay(entries).to_dict() == state, n
        mutant = json.loads(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
        # the seats of members who never acted on this server wait to be accepted (only theirs, never the leader's)
        waiting = {"unaccepted": state["unaccepted"]} if "unaccepted" in state else {}
        assert set(waiting.get("unaccepted", [])) <= set(state["members"]) - {state["leader"]}, n
        assert rebuild(mutant["log"]).to_dict() | {"channel_id": channel, "guild_id": "1", "seed": state["seed"],
                                                    "dice_counter": 0} | waiting == state, n
    con.close()
    took = time.perf_counter() - started
    assert caplog.records == [], [r.getMessage()[:300] for r in caplog.records]
    assert refused > MUTANTS // 2 and imported > 20  # both sides of the wall are reached
    print(f"\n[fuzz] {MUTANTS} mutated exports (seed {SEED}): {imported} imported equal to their replay, "
          f"{refused} refused plainly, in {took:.1f} s; slowest {slowest * 1000:.0f} ms, "
          f"tracemalloc peak (1 in 40) {peak / 2**20:.1f} MB")
    for text, n in sorted(messages.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  x{n}: {text}")
