"""The turn bench runs end to end with tiny numbers and prints its figure lines (no timing asserted)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_turns_prints_its_figures():
    # a subprocess: the bench patches module attributes for its run and clears the map cache
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_turns.py"), "--channels", "2", "--turns", "6",
         "--concurrency", "2", "--seed", "7"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for label in ("engine per action (rules check+apply)", "store commit per action", "map render (to_thread)",
                  "whole turn (run + map render)", "peak RSS",
                  "Goal on a 2-core machine: whole turn with map render under 50 ms at p99"):
        assert label in out, out
    assert ("PASS:" in out) != ("MISS:" in out)
    assert "played: 12 turns" in out
    assert "refused turns: 0" in out, out


def test_bench_turns_plays_a_delve_and_reports_the_grown_delve_rows():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_turns.py"), "--delve", "--channels", "1", "--turns", "12",
         "--concurrency", "1", "--seed", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Hexpost turn bench (a delve)" in out and "/explore" in out
    for label in ("map render, delve of 8+ tiles", "whole turn, delve of 8+ tiles", "delve tiles placed"):
        assert label in out, out
    assert "refused turns: 0" in out, out
