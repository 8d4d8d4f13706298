"""A whole skirmish at the local table (examples/skirmish.txt) to a winner; its log replays to the stored
state; undo; refusals name the fix and change nothing; the skirmish package imports nothing of the other game."""
from __future__ import annotations

import ast
from pathlib import Path

from PIL import Image

from commands.core import Table
from commands.local import LocalTable
from engine.core import Action
from engine.service import CampaignService, replay
from engine.store import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "examples" / "skirmish.txt").read_text()


async def play(tmp_path, lines, user="lena"):
    store = await Store.open(tmp_path / "x.db")
    out: list[str] = []
    local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "out", echo=out.append, user=user)
    errors = await local.run_script(lines)
    return store, local, errors, "\n".join(out)


async def test_the_example_skirmish_is_played_to_a_winner(tmp_path):
    store, local, errors, text = await play(tmp_path, EXAMPLE.splitlines())
    try:
        assert errors == 0, text
        state = await local.table.service.campaign("local")
        assert state.ruleset == "skirmish" and state.phase == "over"
        assert state.result == {"winner": "lena", "reason": "no enemy fighter is left on the battlefield", "round": 2}
        f = state.fighters
        assert (f["a1"].hex, f["a1"].damage, f["a1"].out) == ((3, 5), 1, False)  # 3 calamity damage, 2 mended
        assert (f["a2"].hex, f["a2"].damage, f["a2"].out) == ((6, 4), 10, False)  # 3 + 7 from the Ember Runner
        assert f["b1"].out and f["b1"].damage == 0  # the calamitous detonation
        assert f["b2"].out and f["b2"].damage == 9  # 6 + 2 + 5, capped at its 9 wounds
        assert state.fight.round == 2 and state.fight.dice["lena"] == [] and state.fight.dice["bob"] == []
        # what the players read
        for line in ("Magical calamity roll 3: barely controlled power, 3 damage to Thornspeaker",
                     "Magical calamity roll 5: arcane surge", "Magical calamity roll 1: calamitous detonation",
                     "Ashcaller's unused channelled dice fade", "Ember Runner retreats 3 hexes to 7,4",
                     "Bramble Guard waits as its last action", "activates Thornspeaker again",
                     "@lena wins the skirmish", "Round 2: @bob rolls 1 2 3 4 5 6: 6 singles"):
            assert line in text, line
        # a picture after every battle action, and the initiative dice of both rounds
        names = [p.name for p in local.images]
        assert sum("initiative" in n for n in names) == 2
        assert sum(n.split("-", 1)[1].startswith("skirmish-") for n in names) >= 30
        with Image.open(local.images[-1]) as im:
            assert im.format == "PNG" and 600 <= im.width <= 900
        # the log alone rebuilds the stored state (dice checked action by action)
        cid = await local.table.service.campaign_id("local")
        entries = await store.log(cid)
        assert replay(entries).to_dict() == state.to_dict()
    finally:
        await store.close()


async def test_undo_takes_back_a_move_but_not_a_roll(tmp_path):
    lines = EXAMPLE.splitlines()
    upto = lines.index("/skirmish move to:3,4") + 1
    store, local, errors, text = await play(tmp_path, lines[:upto])
    try:
        assert errors == 0, text
        service = local.table.service
        state = await service.campaign("local")
        assert state.fighters["a2"].hex == (3, 4)
        reply = await local.run_line("/undo confirm:yes")  # the shared command: the map is posted again
        assert not reply.error and reply.pictures and reply.pictures[0].kind == "skirmish", reply.content
        out_state = await service.campaign("local")
        assert out_state.fighters["a2"].hex == (-1, 4) and out_state.fight.active.actions_left == 2
        # an attack rolled dice: it can't be taken back
        await local.run_script(["/skirmish move to:3,4", "/skirmish wait", "@bob /skirmish activate fighter:b2",
                                "@bob /skirmish move to:4,4", "/force 1 1 1 1", "@bob /skirmish attack target:a2"])
        try:
            await service.execute("local", Action("undo", "lena", {"confirm": True}))
            raise AssertionError("undo of a roll was accepted")
        except Exception as exc:  # noqa: BLE001
            assert "rolled dice" in str(exc)
        cid = await service.campaign_id("local")
        assert replay(await store.log(cid)).to_dict() == (await service.campaign("local")).to_dict()
    finally:
        await store.close()


async def test_refusals_are_private_name_the_fix_and_change_nothing(tmp_path):
    lines = EXAMPLE.splitlines()
    upto = lines.index("/skirmish start") + 1
    store, local, errors, text = await play(tmp_path, lines[:upto])
    try:
        before = (await local.table.service.campaign("local")).to_dict()
        for line, needle in (("@bob /skirmish activate fighter:b1", "turn to activate"),
                             ("/skirmish move to:3,4", "Activate a fighter first"),
                             ("/skirmish activate fighter:zz", "Name one by id, name or hex"),
                             ("/skirmish channel mode:sideways", "must be one of"),
                             ("@bob /skirmish recruit fighter:slag-brute", "battle has already begun")):
            reply = await local.run_line(line)
            assert reply.error and reply.ephemeral and needle in reply.content, (line, reply.content)
        assert (await local.table.service.campaign("local")).to_dict() == before
    finally:
        await store.close()


def test_the_skirmish_package_imports_nothing_of_the_other_game():
    for path in (ROOT / "rulesets" / "skirmish").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith("rulesets.tes"), (path, name)
                assert not name.startswith(("discord", "PIL", "commands", "cogs", "render")), (path, name)


async def test_the_reminder_follows_whoever_must_activate(tmp_path):
    lines = EXAMPLE.splitlines()
    upto = lines.index("/skirmish start") + 1
    store, local, errors, text = await play(tmp_path, lines[:upto])
    try:
        cid = await local.table.service.campaign_id("local")
        assert [r.user_id for r in await store.pending_reminders(cid)] == ["lena"]
        await local.run_script(["/skirmish activate fighter:a2", "/skirmish move to:3,4"])
        assert [r.user_id for r in await store.pending_reminders(cid)] == ["lena"]
        await local.run_script(["/skirmish wait"])
        assert [r.user_id for r in await store.pending_reminders(cid)] == ["bob"]
    finally:
        await store.close()
