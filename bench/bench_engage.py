"""Timing of the engage ruleset: an engage declared and resolved by the rules (route search, intercept offer, the
Melee when the turn ends), the route search alone, and the picture posted after every engage.  Prints mean / p50 /
p95 milliseconds over N runs and the PNG size; asserts nothing.

Usage: python bench/bench_engage.py [N]     (default N = 50)
"""
from __future__ import annotations

import os
import statistics
import sys
import time
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from engage_helpers import PACK, BOARD, battle, run  # noqa: E402
from engine.hexes import Hex  # noqa: E402
from render import render  # noqa: E402
from rulesets.engage.board import search  # noqa: E402
from rulesets.engage.present.view import map_view  # noqa: E402


def _stats(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return f"mean {statistics.fmean(ms):7.2f} ms  p50 {statistics.median(ms):7.2f} ms  p95 {p95:7.2f} ms"


def _time(name: str, fn, n: int) -> object:
    out, times = None, []
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    print(f"{name:<40} {_stats(times)}")
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    print(f"{n} runs each")
    crowd = {"a1": ("gallows-wraith", "3,9"), "a2": ("reed-spear", "2,9"), "a3": ("hedge-witch", "1,9"),
             "b1": ("reed-spear", "3,4"), "b2": ("bog-strider", "0,6"), "b3": ("mire-hulk", "4,1"),
             "b4": ("lantern-bow", "5,1")}
    g = battle(crowd, spare=False)
    _time("route search (across the map)", lambda: search(
        BOARD, Hex(3, 9), {Hex(2, 5), Hex(2, 4)}, enemies={Hex(3, 4)}, allies={Hex(2, 9)}, jump=False), n)
    _time("engage declared (out of sight, offer)", lambda: run(g, "mini.engage", {"unit": "a1", "target": "b1"},
                                                               dice=[17]), n)
    pending = run(g, "mini.engage", {"unit": "a1", "target": "b1"}, dice=[17]).state
    _time("intercept answered (Fear check)", lambda: run(pending, "mini.intercept", {"unit": "b2"}, by="bob",
                                                         dice=[4]), n)
    view = map_view(pending, PACK, str)
    render("engage", view)
    data = _time("picture after an engage (render)", lambda: render("engage", view), n)
    print(f"{'picture size':<40} {len(data) / 1024:7.1f} KiB")
    tracemalloc.start()
    run(g, "mini.engage", {"unit": "a1", "target": "b1"}, dice=[17])
    render("engage", view)
    _cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{'peak memory (one engage and its picture)':<40} {peak / 1024 / 1024:7.1f} MiB")


if __name__ == "__main__":
    main()
