"""Timing of the picture renderers against their PNG encoding floor.

For each picture: the render as the bot calls it (cold: every cache empty; warm: the map's static layer or
the mat's unchanged panels cached, as between two turns of one battle), and its floor: encoding the
finished picture alone (``render.common.encode_png`` with the same palette), which no render can beat.
The ratio warm / floor is the figure the goals name (map within 2.5 times, mat within 3 times).

Usage: python bench/bench_render.py [N]     (default N = 30 runs of each)
"""
from __future__ import annotations

import copy
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import render  # noqa: E402
from render import battlemap, dice, lockpick, mat, overland, skirmish  # noqa: E402
from render.common import encode_png  # noqa: E402
from render.samples import (  # noqa: E402
    battle_mat_view, enemy_phase_map_view, example_map_view, example_roll_view, lockpick_view, result_map_view,
    skirmish_map_view, example_overland_view, journal_example_view,
)

from render import delve as delve_pictures  # noqa: E402

GOALS = {"map": 2.5, "mat": 3.0}


def _ms(times: list[float]) -> tuple[float, float, float]:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return statistics.fmean(ms), statistics.median(ms), p95


def _time(fn, items, setup=None) -> tuple[list[float], int]:
    times, size = [], 0
    for item in items:
        if setup:
            setup()
        t = time.perf_counter()
        data = fn(item)
        times.append(time.perf_counter() - t)
        size = len(data)
    return times, size


def _line(name: str, times: list[float], size: int | None = None, floor: float | None = None) -> str:
    mean, p50, p95 = _ms(times)
    text = f"{name:<30} mean {mean:7.1f} ms  p50 {p50:7.1f} ms  p95 {p95:7.1f} ms"
    if size is not None:
        text += f"  png {size / 1024:6.1f} KiB"
    if floor:
        text += f"  {p50 / floor:4.1f}x floor"
    return text


def _paired(render_fn, draw, views) -> tuple[list[float], list[float], int]:
    """The render of each view, then (untimed: drawn again) the encoding of its finished picture alone, one
    after the other, so that both see the same load on a shared machine; returns both lists of times."""
    renders, floors, size = [], [], 0
    for v in views:
        t = time.perf_counter()
        data = render_fn(v)
        renders.append(time.perf_counter() - t)
        size = len(data)
        img, pal = draw(v)
        t = time.perf_counter()
        encode_png(img, palette_image=pal)
        floors.append(time.perf_counter() - t)
    return renders, floors, size


def map_views(n: int) -> list[dict]:
    """Turns of one battle: a unit moves, HP and the log change, the static layer stays."""
    base = example_map_view()
    out = []
    for i in range(n):
        v = copy.deepcopy(base)
        v["units"][1]["q"], v["units"][1]["r"] = (i % 2, 0) if i % 4 < 2 else (0, 2)
        v["units"][5]["hp"] = 1 + i % 5
        v["log"] = v["log"][-3:] + [f"Turn {i}: Shannon moves 1 hex and readies Shield Discipline."]
        out.append(v)
    return out


def mat_views(n: int) -> list[dict]:
    """Turns of one battle for one adventurer: HP, tenacity and the cooldown track change every run (the
    header and those panels are drawn, the attribute rows and the form are pasted)."""
    base = battle_mat_view()
    cool = base["cooldown"]["dice"]
    out = []
    for i in range(n):
        v = copy.deepcopy(base)
        v["hp"] = 1 + i % 4
        v["bonus_hp"] = (i // 4) % 3
        v["tenacity"] = i % 6
        v["saved_xp"] = (i // 6) % 4
        v["cooldown"]["dice"] = (cool * 4)[: 1 + i % 12]
        out.append(v)
    return out


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
    # fonts and palettes loaded once, as in a bot that has been up for a while
    for kind, view in (("map", example_map_view()), ("mat", battle_mat_view()), ("roll", example_roll_view())):
        render.render(kind, view)
    print(f"{n} runs each; floor = encoding the finished picture alone (same palette); ratio = warm p50 / floor p50")

    # the map: cold (a new map version each run), warm (turns of one battle)
    cold = []
    for i in range(n):
        v = copy.deepcopy(example_map_view())
        v["version"] = f"bench-{i}"
        cold.append(v)
    times, size = _time(render.render_map, cold, setup=battlemap.clear_cache)
    print(_line("map (cold)", times, size))
    warm = map_views(n)
    render.render_map(warm[0])
    times, ft, size = _paired(render.render_map, battlemap.draw_map, warm)
    map_floor = _ms(ft)[1]
    print(_line("map (warm)", times, size, map_floor))
    print(_line("  map floor (encode alone)", ft))
    map_ratio = _ms(times)[1] / map_floor
    enemy = enemy_phase_map_view()
    render.render_map(enemy)
    times, size = _time(render.render_map, [enemy] * n)
    print(_line("map (enemy phase, warm)", times, size))
    result = result_map_view()
    render.render("result", result)
    print(_line("battle's end (warm)", *_time(lambda v: render.render("result", v), [result] * n)))

    # the mat: cold (every panel and the palette), warm (the turn's changed panels drawn, the rest pasted)
    times, size = _time(render.render_mat, [battle_mat_view()] * n, setup=mat.clear_cache)
    print(_line("mat (cold)", times, size))
    views = mat_views(n)
    mat.clear_cache(palette=False)
    render.render_mat(battle_mat_view())
    # each view's changed panels are drawn by its render; the second drawing (for the floor) pastes them
    times, ft, size = _paired(render.render_mat, mat.draw_mat, views)
    mat_floor = _ms(ft)[1]
    print(_line("mat (warm, 3 panels change)", times, size, mat_floor))
    print(_line("  mat floor (encode alone)", ft))
    mat_ratio = _ms(times)[1] / mat_floor
    times, ft, size = _paired(render.render_mat, mat.draw_mat, [views[-1]] * n)
    print(_line("mat (unchanged, all pasted)", times, size, _ms(ft)[1]))
    times, ft, size = _paired(render.render_sheet, mat.draw_sheet, [battle_mat_view()] * n)
    print(_line("sheet (warm)", times, size, _ms(ft)[1]))

    # the others are drawn whole each time
    print(_line("roll", *_time(dice.render_roll, [example_roll_view()] * n)))
    print(_line("lockpick", *_time(lockpick.render_lockpick, [lockpick_view()] * n)))
    print(_line("skirmish map", *_time(skirmish.render_skirmish, [skirmish_map_view()] * n)))
    # the overland map: cold (its static layer drawn each run) and warm (the party moves on a cached layer)
    ov = example_overland_view()
    cold_ov = []
    for i in range(n):
        v = copy.deepcopy(ov)
        v["version"] = f"bench-overland-{i}"
        cold_ov.append(v)
    print(_line("overland map (cold)", *_time(overland.render_overland, cold_ov, setup=overland.clear_cache)))
    warm_ov = []
    for i in range(n):
        v = copy.deepcopy(ov)
        v["party"] = {"q": 3, "r": 3 + i % 3}
        warm_ov.append(v)
    overland.render_overland(warm_ov[0])
    print(_line("overland map (warm)", *_time(overland.render_overland, warm_ov)))
    in_town = []
    for i in range(n):  # the party in a town: its token over the town's name pill
        v = copy.deepcopy(ov)
        v["party"] = [{"q": 3, "r": 6}, {"q": 3, "r": 2}, {"q": 1, "r": 1}][i % 3]
        in_town.append(v)
    print(_line("overland (warm, in a town)", *_time(overland.render_overland, in_town)))
    journal = journal_example_view()
    print(_line("journal", *_time(lambda v: render.render("journal", v), [journal] * n)))
    # a delve grown to 8 tiles: cold (a tile placed before each picture) and warm (units move between pictures)
    grown = grown_delve_view()
    print(f"a delve of {len(grown['delve']['tiles'])} tiles ({len(grown['hexes'])} hexes, {len(grown['units'])} units)")
    cold = []
    for i in range(n):
        v = copy.deepcopy(grown)
        v["version"] = f"bench-delve-{i}"
        cold.append(v)
    print(_line("delve map (cold)", *_time(delve_pictures.render_delve_map, cold, setup=delve_pictures.clear_cache)))
    warm = []
    for i in range(n):
        v = copy.deepcopy(grown)
        v["units"][0]["q"] += i % 2
        warm.append(v)
    delve_pictures.render_delve_map(warm[0])
    times, ft, size = _paired(delve_pictures.render_delve_map, delve_pictures.draw_delve_map, warm)
    print(_line("delve map (warm)", times, size, _ms(ft)[1]))
    print(_line("  delve floor (encode alone)", ft))
    print("caches: map", battlemap.cache_info(), "mat", mat.cache_info(), "delve", delve_pictures.cache_info())
    for name, ratio in (("map", map_ratio), ("mat", mat_ratio)):
        verdict = "PASS" if ratio <= GOALS[name] else "MISS"
        print(f"Goal: warm {name} within {GOALS[name]:g}x its encoding floor: {verdict} ({ratio:.2f}x); "
              "just a report, nothing fails")


if __name__ == "__main__":
    main()
