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

from render import battlemap, render_map, render_mat, render_roll  # noqa: E402
from render import delve as delve_pictures  # noqa: E402
from render.samples import battle_mat_view, enemy_phase_map_view, example_map_view, example_roll_view  # noqa: E402


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


def grown_delve_view(tiles: int = 8, seed: int = 1) -> dict:
    """The map view of a delve grown to ``tiles`` tiles (the rules' own exploration, every choice its first option,
    every tile where it is suggested), as the bot posts it."""
    from engine.actions import Ctx as ActionCtx  # noqa: F401
    from engine.core import Action, Dice
    from rulesets.tes import rules
    from rulesets.tes.battle import delve
    from rulesets.tes.battle.model import Ctx
    from rulesets.tes.content import load_pack
    from rulesets.tes.present.battle import map_view
    from rulesets.tes.state import RULES

    pack = load_pack("starter")

    def act(state, kind, actor, args):
        return rules.execute(state, Action(kind, actor, args), rules.dice_for(state)).state

    s = act(None, "campaign.new", "S", {"name": "Bench", "difficulty": "adept", "pack": "starter", "channel_id": "c",
                                         "guild_id": "g", "seed": seed, "pack_version": pack.content_hash,
                                         "rules": RULES})
    s = act(s, "adventurer.create", "S", {"name": "Shannon", "race": "argonian", "line": "one-hand-and-shield"})
    s = act(s, "campaign.join", "R", {})
    s = act(s, "adventurer.create", "R", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
    s.xp_dial = 4
    s = act(s, "battle.start", "S", {"encounter": "brinehollow-caves", "hexes": {"S": "1,0", "R": "1,1"}})
    b = s.battle
    b.delve.required = 9
    c = Ctx(s, pack, Dice(seed=seed))
    for i in range(60):
        open_ = delve.explorable(c)
        if len(b.delve.numbers) >= tiles or not open_:
            break
        at = open_[i % len(open_)]
        if c.occupant(at) is None:
            c.unit("a:S").q, c.unit("a:S").r = at.q, at.r
        delve.start_exploration(c, "S", at, "explores", 0, False)
        while b.choices:
            delve.choose(c, b.choices[0].owner, 1)
        if b.delve.exploring is not None:
            delve.choose_place(c, "S", None)
    b.delve.required = max(3, b.delve.drawn + 1)
    return map_view(s, pack)


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
    print("static-layer cache:", battlemap.cache_info())
    # a delve grown to 8 tiles: cold (a tile placed before each picture) and warm (units move between pictures)
    grown = grown_delve_view()
    print(f"a delve of {len(grown['delve']['tiles'])} tiles ({len(grown['hexes'])} hexes, {len(grown['units'])} units)")
    cold = []
    for i in range(n):
        v = copy.deepcopy(grown)
        v["version"] = f"bench-delve-{i}"
        cold.append(v)
    _run("render_delve_map (cold)", delve_pictures.render_delve_map, cold, setup=delve_pictures.clear_cache)
    warm = []
    for i in range(n):
        v = copy.deepcopy(grown)
        v["units"][0]["q"] += i % 2
        warm.append(v)
    delve_pictures.render_delve_map(warm[0])
    _run("render_delve_map (warm)", delve_pictures.render_delve_map, warm)
    print("delve static-layer cache:", delve_pictures.cache_info())


if __name__ == "__main__":
    main()
