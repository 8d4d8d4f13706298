"""Crash safety: a bot process killed (SIGKILL) at random moments loses nothing it acknowledged.

The child (tests/helpers/worker.py crash) applies a stream of random actions to
a few channels through CampaignService and prints "ACK <seq> <campaign>" after
each committed one.  After every kill the database is reopened and checked:
every campaign opens, its stored state equals the replay of its log, the log
is contiguous (one entry per version), and every acknowledged seq is there.
"""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.service import apply_undo, replay
from rulesets.tes.state import Campaign
from engine.store import Store

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "tests" / "helpers" / "worker.py"
KILLS = 30
TIME_BUDGET = 50.0  # seconds for the whole test; stop killing early on a slow machine
CHECKED = {"checkpoints": 0, "states": 0, "battles": 0}


def run_and_kill(db: Path, seed: int, delay: float, *, after_ready: bool = False) -> tuple[dict[int, int], int]:
    """Start the worker, SIGKILL it ``delay`` seconds after it started (or, ``after_ready``, after it said READY:
    on a busy machine starting alone can take longer than the delay); (last acked seq per campaign, acks)."""
    proc = subprocess.Popen([sys.executable, str(WORKER), "crash", str(db), str(seed)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            lines.append(line)
            if line == "READY":
                ready.set()
        ready.set()

    reader = threading.Thread(target=read)
    reader.start()
    if after_ready:
        ready.wait(60)
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    reader.join()
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    assert "Traceback" not in err, err
    acked: dict[int, int] = {}
    count = 0
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "ACK" and parts[1].isdigit() and parts[2].isdigit():
            seq, cid = int(parts[1]), int(parts[2])
            assert seq > acked.get(cid, 0), f"campaign {cid} acknowledged seq {seq} twice or out of order"
            acked[cid] = seq
            count += 1
    return acked, count


async def check_database(db: Path, acked: dict[int, int]) -> tuple[int, int]:
    """Every campaign consistent and every acknowledged action present; (campaigns, log entries)."""
    store = await Store.open(db)  # opening runs recovery of the WAL, like a restarted bot
    try:
        con = sqlite3.connect(db)
        rows = con.execute("SELECT id, channel_id, state, version, active FROM campaigns").fetchall()
        con.close()
        entries_total = 0
        active_per_channel: dict[str, int] = {}
        for cid, channel, state_json, version, active in rows:
            if active:
                assert channel not in active_per_channel, f"two active campaigns in {channel}"
                active_per_channel[channel] = cid
                loaded = await store.load_active(channel)
                assert loaded is not None and loaded.id == cid
            entries = await store.log(cid)
            entries_total += len(entries)
            assert [e.seq for e in entries] == list(range(1, len(entries) + 1)), f"campaign {cid} log has gaps"
            assert len(entries) == version, f"campaign {cid}: version {version} but {len(entries)} log entries"
            stored = Campaign.from_dict(json.loads(state_json)).to_dict()
            rebuilt = replay(entries).to_dict()
            # by value: the same data whatever order its mappings were written in
            assert rebuilt == stored, f"campaign {cid}: state differs from the replay of its log"
            assert json.dumps(rebuilt, sort_keys=True) == json.dumps(stored, sort_keys=True), cid
            CHECKED["states"] += 1
            CHECKED["battles"] += bool(stored.get("battle")) or bool(stored["settings"].get("last_battle"))
            # undo data: the newest entry alone keeps it, and it gives back a state that loads
            with_undo = [e for e in await store.log(cid, with_state=True) if e.undo_patch or e.state_before]
            assert all(e.seq == len(entries) for e in with_undo), f"campaign {cid}: stale undo data kept"
            for e in with_undo:
                if e.undo_patch is not None:
                    Campaign.from_dict(apply_undo(json.loads(state_json), e.undo_patch))
            assert acked.get(cid, 0) <= len(entries), (
                f"campaign {cid}: seq {acked[cid]} was acknowledged but the log ends at {len(entries)}")
        for cid in acked:
            assert cid in {r[0] for r in rows}, f"acknowledged campaign {cid} is missing"
        return len(rows), entries_total
    finally:
        await store.close()


async def test_killed_process_loses_no_acknowledged_action(tmp_path):
    db = tmp_path / "crash.db"
    rng = random.Random(20240611)
    started = time.monotonic()
    acked_all: dict[int, int] = {}
    kills = acks = 0
    campaigns = entries = 0
    while kills < KILLS and time.monotonic() - started < TIME_BUDGET:
        # some kills land while the process starts or migrates, most while it writes
        delay = rng.choice([rng.uniform(0.0, 0.3), rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0)])
        acked, n = run_and_kill(db, rng.randrange(10**9), delay, after_ready=delay >= 0.3)
        kills += 1
        acks += n
        for cid, seq in acked.items():
            acked_all[cid] = max(acked_all.get(cid, 0), seq)
        campaigns, entries = await check_database(db, acked_all)
        CHECKED["checkpoints"] += 1
    print(f"crash: {kills} kills, {acks} acknowledged actions, {entries} log entries in {campaigns} campaigns, "
          f"all consistent ({time.monotonic() - started:.1f} s); {CHECKED['checkpoints']} checkpoints, "
          f"{CHECKED['states']} stored states equal to their log's replay by value "
          f"({CHECKED['battles']} of them in or after a battle)")
    assert kills >= 10 and acks > 0
