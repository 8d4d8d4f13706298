"""The duel bench plays whole fights end to end and prints its figure lines (no timing asserted)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_duel_prints_its_figures():
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_duel.py"), "--fights", "2", "--seed", "3"],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for label in ("played: 2 fights", "command (rules + store + reply)", "duel picture (render/duel.py)",
                  "whole post (command + pictures)", "pictures per post", "peak RSS", "refused commands: 0"):
        assert label in out, out
