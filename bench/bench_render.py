"""Timing of the picture renderers: mean / p50 / p95 milliseconds over N runs, and PNG sizes.

Usage: python bench/bench_render.py [N]     (default N = 30)
"""
from __future__ import annotations

import copy
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from render import battlemap, overland, render_map, render_mat, render_overland, render_roll  # noqa: E402
from render.samples import (battle_mat_view, enemy_phase_map_view, example_map_view,  # noqa: E402
                            example_overland_view, example_roll_view)


def _stats(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return f"mean {statistics.fmean(ms):7.1f} ms  p50 {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms"


def _run(name: str, fn, views, setup=None) -> None:
    times, size = [], 0
    for v in views:
        if setup:
            setup()
        t = time.perf_counter()
        data = fn(v)
        times.append(time.perf_counter() - t)
        size = len(data)
    print(f"{name:<25} {_stats(times)}  png {size / 1024:6.1f} KiB")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    mat_view, map_view, roll_view = battle_mat_view(), example_map_view(), example_roll_view()
    render_mat(mat_view), render_map(map_view), render_roll(roll_view)  # load fonts once
    print(f"{n} runs each")
    _run("render_mat", render_mat, [mat_view] * n)
    # cold: a new map version every run, so the static layer is drawn each time
    cold = []
    for i in range(n):
        v = copy.deepcopy(map_view)
        v["version"] = f"bench-{i}"
        cold.append(v)
    _run("render_map (cold)", render_map, cold, setup=battlemap.clear_cache)
    # warm: same map version, units move between runs
    warm = []
    for i in range(n):
        v = copy.deepcopy(map_view)
        v["units"][1]["q"] = i % 2
        warm.append(v)
    render_map(warm[0])
    _run("render_map (warm)", render_map, warm)
    enemy = enemy_phase_map_view()
    render_map(enemy)
    _run("render_map (enemy phase)", render_map, [enemy] * n)
    _run("render_roll", render_roll, [roll_view] * n)
    # the overland map: cold (its static layer drawn each run) and warm (the party moves on a cached layer)
    ov = example_overland_view()
    cold_ov = []
    for i in range(n):
        v = copy.deepcopy(ov)
        v["version"] = f"bench-overland-{i}"
        cold_ov.append(v)
    _run("render_overland (cold)", render_overland, cold_ov, setup=overland.clear_cache)
    warm_ov = []
    for i in range(n):
        v = copy.deepcopy(ov)
        v["party"] = {"q": 3, "r": 3 + i % 3}
        warm_ov.append(v)
    render_overland(warm_ov[0])
    _run("render_overland (warm)", render_overland, warm_ov)
    print("static-layer cache:", battlemap.cache_info())


if __name__ == "__main__":
    main()
