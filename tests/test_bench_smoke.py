"""The benches run end to end with tiny numbers and print their figure lines (no timing asserted)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench(*args, script="bench_turns.py", timeout=240):
    # a subprocess: the bench patches module attributes for its run and clears the map cache
    return subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def test_bench_turns_prints_its_figures():
    proc = _bench("--channels", "2", "--turns", "6", "--concurrency", "2", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for label in ("engine per action (rules check+apply)", "store commit per action", "map render (to_thread)",
                  "whole turn (run + map render)", "peak RSS", "questions answered:",
                  "Goal on a 2-core machine: whole turn with map render under 50 ms at p99"):
        assert label in out, out
    assert ("PASS:" in out) != ("MISS:" in out)
    assert "played: 12 turns" in out
    assert "refused turns: 0" in out, out


def test_bench_turns_answers_every_question_the_bot_asks_with_its_defaults_at_concurrency_1(tmp_path):
    """One turn at a time with the default players: a free move on offer, a prevention question, a roll and a
    lockpick check all come up and are answered (the run used to stop at the first free move)."""
    import json

    out = tmp_path / "figures.json"
    proc = _bench("--concurrency", "1", "--channels", "6", "--json", str(out), timeout=600)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(out.read_text())
    assert figures["refused"] == 0 and figures["turns"] == 6 * 30
    assert set(figures["answered"]) == {"move", "prevent", "roll", "lockpick"}, figures["answered"]


def test_a_comparison_that_cannot_run_says_why():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_turns
    finally:
        sys.path.pop(0)
    theirs, error = bench_turns.run_compare("no-such-revision-xyz", [])
    assert theirs is None and error
    text = bench_turns.compare_text("no-such-revision-xyz", {}, None, error)
    assert "could not be measured" in text
    mine = {"turns_per_s": 30.0, "turns": 10, "refused": 0, "played": {"move": 10},
            "whole_turn": {"p50": 20.0, "p99": 40.0}, "map_render": {"p50": 10.0, "p99": 20.0},
            "engine": {"p50": 1.0, "p99": 3.0}}
    table = bench_turns.compare_text("abc123", mine, dict(mine, turns_per_s=25.0))
    assert "turns/s" in table and "30.0" in table and "25.0" in table


def test_bench_render_reports_the_encoding_floor():
    proc = _bench("3", script="bench_render.py")
    assert proc.returncode == 0, proc.stderr
    assert "map (warm)" in proc.stdout and "x floor" in proc.stdout
    assert "Goal: warm map within 2.5x" in proc.stdout and "Goal: warm mat within 3x" in proc.stdout


def test_bench_reads_prints_its_figures():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_reads.py"), "--actions", "1500", "--readers", "2", "--real", "60"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for label in ("campaign: 1,500 earlier actions", "/campaign log (page 1)", "/campaign status", "/campaign export",
                  "log page, every column parsed (old)", "/roll elsewhere", "loop held at most", "peak RSS"):
        assert label in out, out


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


def test_bench_turns_plays_a_session_of_days_and_prints_its_figures(tmp_path):
    """--days: the parties play days in the Saltmire (the guild draw, routes and votes, towns, rewards, rests),
    every command timed with the overland map drawn for its reply, and a whole day's figure."""
    import json

    out = tmp_path / "days.json"
    proc = _bench("--days", "2", "--channels", "2", "--concurrency", "2", "--seed", "3", "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Hexpost day bench: 2 channels x 2 days in saltmire" in text, text
    for label in ("overland render (to_thread)", "whole action (run + pictures)", "whole action by command:",
                  "  /day start", "  /quest guild", "  /day route", "  /adventurer rest",
                  "whole day (sum of its actions)", "peak RSS", "database growth per action",
                  "Goal on a 2-core machine: whole action of a day with its pictures under 50 ms at p99"):
        assert label in text, label
    assert ("PASS:" in text) != ("MISS:" in text)
    assert "refused commands: 0" in text and "STUCK" not in text, text
    figures = json.loads(out.read_text())
    assert figures["days"] == 2 * 2 and figures["whole_day"]["n"] == 4 and not figures["stuck"]
    assert figures["overland_render"]["n"] > 0
    assert {"guild", "route", "vote", "town", "rest"} <= set(figures["answered"]), figures["answered"]


def test_bench_days_caps_the_commands_with_turns():
    proc = _bench("--days", "5", "--turns", "9", "--channels", "1", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert "played: 9 commands" in proc.stdout, proc.stdout


def test_bench_channel_prints_its_figures():
    proc = _bench("--scripts", "dungeon.txt", "--repeat", "1", script="bench_channel.py")
    assert proc.returncode == 0, proc.stderr
    assert "dungeon.txt" in proc.stdout and "a line" in proc.stdout and "dashboard: build p50" in proc.stdout
