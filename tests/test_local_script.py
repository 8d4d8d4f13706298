"""Scripts at the local table, as a new user runs them from the README."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(tmp_path, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEXPOST_")} | {"DISCORD_TOKEN": ""}
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), "--local", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_failing_line_makes_the_run_fail_and_names_the_line(tmp_path):
    (tmp_path / "s.txt").write_text("/campaign new name:Ok\n# a comment\n/move to:9,9\n/campaign status\n")
    proc = _run(tmp_path, "--script", "s.txt")
    assert proc.returncode == 1
    assert "Line 3 failed: /move to:9,9" in proc.stderr
    assert "1 line of s.txt failed" in proc.stderr


def test_a_missing_script_is_a_clear_message(tmp_path):
    proc = _run(tmp_path, "--script", "nope.txt")
    assert proc.returncode == 1
    assert "There is no script file 'nope.txt'" in proc.stderr and "Traceback" not in proc.stderr


def test_the_readme_example_runs_the_same_twice_and_keeps_every_picture(tmp_path):
    example = ROOT / "examples" / "creation.txt"
    first = _run(tmp_path, "--script", str(example))
    second = _run(tmp_path, "--script", str(example))
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert "database:" in first.stdout  # says which database it used (a fresh one for a script)
    runs = sorted(p.name for p in (tmp_path / "local-table-out").iterdir())
    assert runs == ["run-001", "run-002"]
    one = sorted(p.name for p in (tmp_path / "local-table-out" / "run-001").iterdir())
    two = sorted(p.name for p in (tmp_path / "local-table-out" / "run-002").iterdir())
    assert one and one == two  # the same pictures, each run in its own folder


def test_a_run_without_pictures_leaves_no_empty_folder(tmp_path):
    (tmp_path / "s.txt").write_text("/campaign new name:Quiet\n/campaign status\n")
    proc = _run(tmp_path, "--script", "s.txt")
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "local-table-out" / "run-001").exists()
    assert "run-001" in proc.stdout          # where pictures would have gone


def test_every_picture_is_numbered_and_named_for_its_kind(tmp_path):
    from commands.local import picture_name

    assert picture_name(4, "map", "map-12.png") == "004-map-12.png"
    assert picture_name(7, "skirmish", "initiative-3-round1.png") == "007-skirmish-initiative-3-round1.png"
    assert picture_name(12, "mat", "Mat Vilya!.PNG") == "012-mat-vilya.png"
    assert picture_name(13, "roll", "") == "013-roll.png"
    proc = _run(tmp_path, "--script", str(ROOT / "examples" / "skirmish.txt"))
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in (tmp_path / "local-table-out" / "run-001").iterdir())
    assert names and [n[:4] for n in names] == [f"{i:03d}-" for i in range(1, len(names) + 1)]
    assert all(n[4:].startswith(("skirmish-map", "skirmish-initiative")) for n in names), names
