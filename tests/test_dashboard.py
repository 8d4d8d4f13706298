"""The dashboard of every ruleset (tes days and battles, skirmish, duel, engage), built from what each presenter
knows: whose move since when, the deadline, the phase, the last three things that happened, the current picture;
the local table prints it as a short block when it changes; every picture kind has its alt text."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from commands.dashboard import build
from commands.local import LocalTable
from engine.dashboard import FILENAME
from render.alt import DESCRIBE, MAX_ALT, describe

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


async def script(table, tmp_path, name: str, upto: str | None = None) -> tuple[LocalTable, list[str]]:
    """Play examples/<name> at the local table (up to the line starting with ``upto``)."""
    out: list[str] = []
    lt = LocalTable(table, out_dir=tmp_path / "pics", echo=out.append)
    for line in (EXAMPLES / name).read_text().splitlines():
        if upto is not None and line.startswith(upto):
            break
        reply = await lt.run_line(line)
        assert reply is None or not reply.error, (line, reply.content)
    return lt, out


def blocks(out: list[str]) -> list[str]:
    return [text for text in out if text.startswith("[dashboard]")]


async def test_a_session_of_days_shows_the_day_its_phase_and_the_overland_map(table, tmp_path):
    lt, out = await script(table, tmp_path, "days.txt", upto="# ---- day 2")
    built = await build(table, lt.channel)
    board = built.board
    assert board.phase == "Day 2 of 12 in The Saltmire, Overland Phase"  # day 1 is over: day 2 has begun
    assert board.whose == "ryan" and "proposes" in board.waiting
    assert board.picture is not None and board.picture.kind == "overland" and board.picture.filename == FILENAME
    assert len(board.recent) == 3 and all(line.strip() for line in board.recent)
    assert not any("<@" in line or "{@" in line for line in board.recent)  # names, not mention syntax
    shown = blocks(out)
    assert "[dashboard] Outer Watch · Day 1 of 12 in The Saltmire, Encounter Phase" in "\n".join(shown)
    # printed only when it changed: never the same block twice in a row
    texts = [t for t in out if t.startswith("[dashboard]")]
    assert all(a != b for a, b in zip(texts, texts[1:]))
    alt = board.alt(built.inv.name_of, describe("overland", board.picture.view))
    assert "Overland map: The Saltmire" in alt and len(alt) <= MAX_ALT


async def test_a_battle_names_the_adventurer_whose_turn_it_is_since_when_and_the_map(table, tmp_path):
    lt, out = await script(table, tmp_path, "creation.txt")
    for line in ("/battle start encounter:jailbreak",):
        reply = await lt.run_line(line)
        assert not reply.error, reply.content
    built = await build(table, lt.channel)
    board = built.board
    from rulesets.tes import rules

    state = await table.service.campaign(lt.channel)
    whose, _key = rules.whose_move(state)
    assert board.whose == whose and board.since is not None
    assert board.phase == "Battle: Jailbreak Introduction, round 1"
    assert board.picture.kind == "map"
    embed = board.embed()
    assert f"<@{whose}>" in embed.description and f"<t:{int(board.since)}:f>" in embed.description
    assert f"<t:{int(board.since)}:R>" in embed.description and embed.image == FILENAME
    since = board.since
    # a line that does not change whose move it is keeps "since"
    await lt.run_line("/campaign settings reminder_hours:0")
    again = (await build(table, lt.channel)).board
    assert again.since == since and again.reminder is None and "No deadline" in again.embed().description
    assert blocks(out)[-1].endswith("No deadline")  # the reminder is gone from the printed block too


async def test_a_skirmish_an_engage_game_and_a_duel_each_have_their_dashboard(table, tmp_path):
    for name, channel, kind, phase in (("skirmish.txt", "sk", "skirmish", "Battle round"),
                                       ("engage.txt", "en", "engage", "Turn "),
                                       ("duel.txt", "du", "duel", "Fight 1")):
        out: list[str] = []
        lt = LocalTable(table, channel=channel, out_dir=tmp_path / channel, echo=out.append)
        lines = (EXAMPLES / name).read_text().splitlines()
        for line in lines[: len(lines) * 2 // 3]:  # in the middle of the battle
            reply = await lt.run_line(line)
            assert reply is None or not reply.error, (name, line, reply.content)
        board = (await build(table, channel)).board
        assert board.phase.startswith(phase), (name, board.phase)
        assert board.picture is not None and board.picture.kind == kind, name
        assert board.recent and blocks(out), name
        assert describe(kind, board.picture.view)


async def test_a_campaign_that_ended_says_so(table, tmp_path):
    lt, _out = await script(table, tmp_path, "creation.txt")
    cid = await table.service.campaign_id(lt.channel)
    await lt.run_line("/campaign end confirm:yes")
    board = (await build(table, lt.channel, cid)).board
    assert board.ended and board.picture is None and board.embed().description == "The campaign has ended."


def test_every_picture_kind_has_its_alt_text():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from picture_views import every_picture
    from render import KINDS

    assert set(DESCRIBE) == set(KINDS)
    seen = set()
    for name, kind, view in every_picture():
        text = describe(kind, view)
        seen.add(kind)
        assert text and len(text) <= MAX_ALT, name
        assert "{'" not in text and "`" not in text and "**" not in text, (name, text)
    assert seen == set(KINDS)
    assert "Vilya at 2,0 3/4 HP" in describe("map", __import__("render.samples").samples.example_map_view())


@pytest.mark.parametrize("size", [10, 400])
def test_alt_text_is_cut_to_discords_limit(size):
    units = [{"label": f"Unit {i}", "q": i, "r": 0, "hp": 1, "max_hp": 2, "side": "enemy"} for i in range(size)]
    assert len(describe("map", {"title": "Big", "units": units})) <= MAX_ALT


async def test_a_database_of_the_first_release_gets_its_dashboards_and_keeps_since_across_a_restart(tmp_path):
    import shutil

    from commands.core import Table
    from engine.service import CampaignService
    from engine.store import Store

    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent / "fixtures" / "v1" / "hexpost-v1.db", db)
    store = await Store.open(db)
    try:
        assert 4 in await store.schema_versions()
        table = Table(CampaignService(store))
        built = await build(table, "mid")
        assert built.board.phase.startswith("Battle: ") and built.board.whose and built.message_id is None
        since = built.board.since
        assert built.board.picture.kind == "map" and len(built.board.recent) == 3
    finally:
        await store.close()
    store = await Store.open(db)  # the bot restarts: since when the move began is kept
    try:
        again = await build(Table(CampaignService(store)), "mid")
        assert again.board.since == since and again.board.whose == built.board.whose
    finally:
        await store.close()
