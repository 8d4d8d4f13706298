"""The offline local table: scripts end to end, forced dice, pictures, state dumps."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from commands.local import LocalTable, parse_line

ROOT = Path(__file__).resolve().parent.parent
PNG = b"\x89PNG\r\n\x1a\n"


def test_parse_line_reads_slash_commands_like_discord():
    user, name, opts = parse_line('@shannon /adventurer create name:"Sil Tail" race:argonian class:acrobat')
    assert (user, name) == ("shannon", "adventurer create")
    assert opts == {"name": "Sil Tail", "race": "argonian", "class": "acrobat"}
    assert parse_line("/roll 3d6+2") == (None, "roll", {"dice": "3d6+2"})
    assert parse_line("/force 3 5 1")[2] == {"values": "3 5 1"}
    with pytest.raises(ValueError, match="start with"):
        parse_line("campaign new")
    with pytest.raises(ValueError, match="quotes"):
        parse_line('/campaign new name:"open')


async def test_creation_script_end_to_end_writes_a_mat_picture_and_state(table, tmp_path):
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path / "pics", echo=out.append)
    lines = (ROOT / "examples" / "creation.txt").read_text().splitlines()
    errors = await local.run_script(lines)
    text = "\n".join(out)
    assert errors == 0, text
    assert "Vilya" in text and "Sil-Tail" in text
    assert len(local.images) >= 3  # two creations and one show
    for path in local.images:
        data = path.read_bytes()
        assert data.startswith(PNG) and len(data) > 5000
    dump = tmp_path / "state.json"
    await local.dump_state(dump)
    state = json.loads(dump.read_text())
    assert set(state["adventurers"]) == {"ryan", "shannon"}
    assert state["adventurers"]["ryan"]["race"] == "dark-elf"
    assert state["adventurers"]["shannon"]["battle_form"] == "light"
    # mentions print as @names, not Discord markup
    assert "<@" not in text and "@ryan" in text


async def test_forced_dice_line_queues_results_for_the_campaign(table, tmp_path):
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path, echo=out.append, user="ryan")
    await local.run_script(["/campaign new name:Dice", "/force 6 2 3"])
    state = await table.service.campaign("local")
    assert state.forced == [6, 2, 3]
    bad = await local.run_line("/force six")
    assert bad.error and "whole numbers" in bad.content


async def test_bad_lines_get_messages_not_crashes(table, tmp_path):
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path, echo=out.append)
    for line in ["/nonsense", "/campaign explode", "/adventurer show", 'oops', '/campaign new name:"x',
                 "/campaign new name:Ok difficulty:legendary", "/campaign new nme:typo"]:
        reply = await local.run_line(line)
        assert reply is not None and reply.error, line
        assert reply.content and "went wrong" not in reply.content
    assert await table.service.campaign("local") is None


def test_bot_without_token_starts_the_local_table(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("/campaign new name:Offline\n/campaign status\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEXPOST_")} | {"DISCORD_TOKEN": ""}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--script", str(script), "--db", str(tmp_path / "t.db"),
         "--out", str(tmp_path / "out"), "--dump-state", str(tmp_path / "state.json")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "No DISCORD_TOKEN" in proc.stderr and "local table" in proc.stderr
    assert "Offline" in proc.stdout
    assert json.loads((tmp_path / "state.json").read_text())["name"] == "Offline"
