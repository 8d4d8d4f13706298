"""How a channel reads: pictures per command line over the shipped scripts, and the dashboard's cost.

    .venv/bin/python bench/bench_channel.py                  # the four scripts of tests/test_quiet_channel.py
    .venv/bin/python bench/bench_channel.py --compare 57ec4dc   # the same scripts on another revision's code too
    .venv/bin/python bench/bench_channel.py --scripts days.txt dungeon.txt --repeat 3

For each script (played at the local table on a fresh database, every die forced or seeded as the script says) it
prints the command lines, the pictures the posts carry, pictures per command line, and the posts without words.
Then, on the last campaign of each script, it builds the dashboard (``commands.dashboard.build``: whose move,
the latest lines, the picture's view) and draws its picture, ``--repeat`` times, and prints the median and the
slowest of each (the dashboard is what every action edits).  ``--compare REV`` checks REV out in a temporary
worktree and prints its pictures per command line beside these (a revision without dashboards prints none).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("days.txt", "session.txt", "dungeon.txt", "delve-survey.txt")
NOT_ACTIONS = ("/as", "/force", "/dump", "/day stack")


def command_lines(lines) -> int:
    n = 0
    for raw in lines:
        line = raw.strip()
        body = line.split(" ", 1)[1] if line.startswith("@") and " " in line else line
        if body.startswith("/") and not body.startswith(NOT_ACTIONS):
            n += 1
    return n


async def play(root: Path, names, repeat: int) -> dict:
    sys.path.insert(0, str(root))
    from commands.core import Table
    from commands.local import LocalTable
    from engine.service import CampaignService
    from engine.store import Store

    build = None
    if (root / "commands" / "dashboard.py").is_file():  # a revision before dashboards has none to time
        from commands.dashboard import build
        from render import render
    out: dict = {"scripts": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            store = await Store.open(Path(tmp) / f"{name}.db")
            posts = []

            class Counting(LocalTable):
                async def print_reply(self, reply):
                    posts.append(reply)

            channel = name.split(".")[0]
            local = Counting(Table(CampaignService(store)), channel=channel, out_dir=Path(tmp) / "out",
                             echo=lambda _l: None)
            lines = (root / "examples" / name).read_text().splitlines()
            errors = await local.run_script(lines)

            def flat(replies):
                for r in replies:
                    yield r
                    yield from flat(r.followups)

            every = list(flat(posts))
            pics = sum(len(p.pictures) for p in every)
            wordless = sum(1 for p in every if not p.ephemeral and not (p.content or p.embeds))
            row = {"lines": command_lines(lines), "pictures": pics, "wordless": wordless, "failed": errors}
            if build is not None:
                builds, draws = [], []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    built = await build(local.table, channel)
                    builds.append((time.perf_counter() - t0) * 1000)
                    if built is not None and built.board.picture is not None:
                        t0 = time.perf_counter()
                        render(built.board.picture.kind, built.board.picture.view)
                        draws.append((time.perf_counter() - t0) * 1000)
                row["dashboard_build_ms"] = builds
                row["dashboard_draw_ms"] = draws
            out["scripts"][name] = row
            await store.close()
    return out


def report(figures: dict, label: str) -> str:
    lines = [f"== {label}"]
    total_l = total_p = 0
    for name, row in figures["scripts"].items():
        total_l += row["lines"]
        total_p += row["pictures"]
        rate = row["pictures"] / max(1, row["lines"])
        text = (f"  {name:<18} {row['lines']:>4} command lines  {row['pictures']:>4} pictures  {rate:5.2f} a line"
                f"  {row['wordless']} posts without words" + (f"  ({row['failed']} lines failed)" if row["failed"]
                                                            else ""))
        if row.get("dashboard_build_ms"):
            b, d = row["dashboard_build_ms"], row.get("dashboard_draw_ms") or [0.0]
            text += (f"\n  {'':<18} dashboard: build p50 {statistics.median(b):.1f} ms (max {max(b):.1f}),"
                     f" picture p50 {statistics.median(d):.1f} ms (max {max(d):.1f})")
        lines.append(text)
    lines.append(f"  all: {total_l} command lines, {total_p} pictures, {total_p / max(1, total_l):.2f} a line")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scripts", nargs="+", default=list(SCRIPTS), help="example scripts (examples/)")
    ap.add_argument("--repeat", type=int, default=5, help="dashboard builds and pictures timed per script")
    ap.add_argument("--compare", metavar="REV", help="the same scripts on git revision REV's code too")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON (used by --compare)")
    ap.add_argument("--code-root", help=argparse.SUPPRESS)
    a = ap.parse_args()
    root = Path(a.code_root) if a.code_root else ROOT
    figures = asyncio.run(play(root, a.scripts, max(1, a.repeat)))
    if a.json:
        print(json.dumps(figures))
        return
    print(report(figures, "this code"), end="")
    if a.compare:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "tree"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), a.compare],
                           check=True, capture_output=True)
            try:
                scripts = [s for s in a.scripts if (tree / "examples" / s).is_file()]
                (tree / "bench").mkdir(exist_ok=True)
                child = tree / "bench" / "bench_channel_compare.py"  # run from the tree: its packages come first
                child.write_text(Path(__file__).read_text())
                res = subprocess.run([sys.executable, str(child), "--json", "--code-root", str(tree),
                                      "--repeat", str(a.repeat), "--scripts", *scripts],
                                     cwd=tree, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                     env={**os.environ, "PYTHONPATH": str(tree)})
                if res.returncode != 0:
                    print(f"== {a.compare}: could not run ({res.stderr.strip().splitlines()[-1:]})")
                else:
                    print(report(json.loads(res.stdout.strip().splitlines()[-1]), a.compare), end="")
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                               capture_output=True)


if __name__ == "__main__":
    main()
