"""The local table where a new user trips: paths it cannot write, the README's sample pasted as it is, names typed
in another case, values with spaces, and a Python without the bot's set-up."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import commands.local as local_table
from commands.local import LocalTable, parse_line

ROOT = Path(__file__).resolve().parents[1]


def _bot(tmp_path, *args, stdin: str | None = None, python: list[str] | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEXPOST_")} | {"DISCORD_TOKEN": ""}
    return subprocess.run([*(python or [sys.executable]), str(ROOT / "bot.py"), "--local", *args], cwd=tmp_path,
                          env=env, input=stdin, capture_output=True, text=True, timeout=120)


def readme_sample() -> str:
    text = (ROOT / "README.md").read_text()
    at = text.index("This block works when pasted")
    return text[at:].split("```", 2)[1].strip("\n")


# ------------------------------------------------------------------ the README's sample block, pasted --
def test_the_readme_sample_block_works_when_pasted(tmp_path):
    sample = readme_sample()
    assert "# one line as another player" in sample  # the sample keeps its comments: they must not break it
    proc = _bot(tmp_path, "--script", "-", stdin=sample + "\n")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "failed" not in proc.stderr and "Traceback" not in proc.stderr
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["name"] == "Outer Watch"
    assert state["members"] == ["leader", "shannon"]  # not "shannon # type the next lines as shannon"
    assert state["adventurers"]["shannon"]["name"] == "Sil"
    assert state["forced"] == [6, 2, 3]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["local-table-out", "state.json"]  # no "state.json # ..."
    assert "(now typing as @shannon)" in proc.stdout


def test_trailing_comments_are_stripped_but_a_hash_inside_quotes_or_a_word_stays():
    assert local_table.strip_comment("/campaign join   # as another player") == "/campaign join"
    assert local_table.strip_comment('/campaign new name:"Watch # 2"  # the name keeps its hash') == '/campaign new name:"Watch # 2"'
    assert local_table.strip_comment("/roll dice:3d6#x") == "/roll dice:3d6#x"
    assert parse_line("@shannon /campaign join   # one line as another player") == ("shannon", "campaign join", {})
    assert parse_line("/dump state.json   # write it") == (None, "dump", {"_args": "state.json"})


# ------------------------------------------------------------------ values with spaces, `to: -2,3` --
def test_a_value_with_spaces_gets_a_hint_to_quote_it():
    with pytest.raises(ValueError) as err:
        parse_line("/adventurer create name:Vilya race:Dark Elf line:destruction-staff")
    assert 'race:"Dark Elf"' in str(err.value)
    with pytest.raises(ValueError) as err:
        parse_line("/campaign status oops")
    assert "quotes" in str(err.value) and 'race:"Dark Elf"' in str(err.value)
    with pytest.raises(ValueError) as err:
        parse_line('/campaign new name:"Outer Watch')
    assert "closing quote" in str(err.value)
    assert parse_line('/adventurer create name:Vilya race:"Dark Elf"')[2]["race"] == "Dark Elf"


def test_a_space_after_the_colon_is_read_as_the_value():
    assert parse_line("/move to: -2,3") == (None, "move", {"to": "-2,3"})
    assert parse_line('/campaign new name: "Outer Watch" difficulty:expert')[2] == {
        "name": "Outer Watch", "difficulty": "expert"}
    assert parse_line("/ability name:race to:")[2] == {"name": "race", "to": ""}


# ------------------------------------------------------------------ one member, whatever the case --
async def test_at_shannon_and_at_shannon_are_one_member(table, tmp_path):
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path, echo=out.append, user="ryan")
    assert await local.run_line("/campaign new name:Case") is not None
    join = await local.run_line("@Shannon /campaign join")
    assert not join.error
    again = await local.run_line("@shannon /campaign join")
    assert again.error and "already" in again.content.lower()
    await local.run_line("/as SHANNON")
    assert local.user == "Shannon"
    made = await local.run_line("/adventurer create name:Sil race:argonian line:one-hand-and-shield")
    assert not made.error, made.content
    state = await table.service.campaign("local")
    assert state.members == ["ryan", "Shannon"]
    assert list(state.adventurers) == ["Shannon"]
    # an option naming a member is not case sensitive either
    lead = await local.run_line("@RYAN /campaign leader player:shannon")
    assert not lead.error, lead.content
    assert (await table.service.campaign("local")).leader == "Shannon"


# ------------------------------------------------------------------ /dump and --dump-state --
async def test_dump_with_no_campaign_says_there_is_none_and_writes_nothing(table, tmp_path):
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path / "pics", echo=out.append)
    reply = await local.run_line(f"/dump {tmp_path / 'state.json'}")
    assert reply.error and "no campaign" in reply.content
    assert not (tmp_path / "state.json").exists()
    assert not any("null" in line for line in out)


async def test_dump_to_a_bad_path_is_a_message_not_a_traceback(table, tmp_path):
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path / "pics", echo=out.append)
    await local.run_line("/campaign new name:Dump")
    for bad in (tmp_path / "no-such-folder" / "state.json", tmp_path):
        reply = await local.run_line(f"/dump {bad}")
        assert reply.error and "Could not write the state" in reply.content, reply.content
        assert "folder" in reply.content
    good = await local.run_line(f"/dump {tmp_path / 'state.json'}")
    assert good is None and json.loads((tmp_path / "state.json").read_text())["name"] == "Dump"


def test_dump_state_to_a_bad_path_is_said_before_the_script_runs(tmp_path):
    (tmp_path / "s.txt").write_text("/campaign new name:Ok\n")
    proc = _bot(tmp_path, "--script", "s.txt", "--dump-state", str(tmp_path / "missing" / "state.json"))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "--dump-state" in proc.stderr and "there is no folder" in proc.stderr
    proc = _bot(tmp_path, "--script", "s.txt", "--dump-state", str(tmp_path))
    assert proc.returncode == 1 and "that is a folder" in proc.stderr and "Traceback" not in proc.stderr


def test_dump_state_with_no_campaign_says_so(tmp_path):
    (tmp_path / "s.txt").write_text("/help\n")
    proc = _bot(tmp_path, "--script", "s.txt", "--dump-state", "state.json")
    assert proc.returncode == 1 and "no campaign" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "state.json").exists()


def test_out_to_a_folder_that_cannot_be_made_is_a_message(tmp_path):
    (tmp_path / "taken").write_text("a file where the folder would go")
    (tmp_path / "s.txt").write_text("/campaign new name:Ok\n")
    proc = _bot(tmp_path, "--script", "s.txt", "--out", str(tmp_path / "taken" / "pics"))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "--out" in proc.stderr and "Choose a folder" in proc.stderr


async def test_a_picture_that_cannot_be_written_is_said_and_play_goes_on(table, tmp_path):
    (tmp_path / "taken").write_text("a file where the folder would go")
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path / "taken" / "pics", echo=out.append, user="ryan")
    await local.run_line("/campaign new name:Pics")
    reply = await local.run_line("/adventurer create name:Sil race:argonian line:one-hand-and-shield")
    assert not reply.error
    assert any(line.startswith("! The picture could not be written") for line in out), out
    assert (await table.service.campaign("local")).adventurers["ryan"].name == "Sil"


# ------------------------------------------------------------------ a Python without the set-up --
def test_bot_py_in_a_python_without_the_dependencies_says_to_use_run_sh(tmp_path):
    # -S leaves out site-packages: the bot's dependencies are missing, as in a Python outside .venv/
    proc = _bot(tmp_path, python=[sys.executable, "-S"])
    assert proc.returncode == 1
    assert "bash run.sh" in proc.stderr and "Traceback" not in proc.stderr
    assert re.search(r"\(\w+ is missing\)", proc.stderr)
