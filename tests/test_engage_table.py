"""An engage game at the local table (examples/engage.txt, five turns with forced dice) checked against the expected
final state; its log replays to the stored state; undo; export and import; refusals are private, name the fix and
change nothing; a picture after every engage; the engage package imports nothing of the other rulesets."""
from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path

from PIL import Image

from commands.core import Table
from commands.local import LocalTable
from engine.service import CampaignService, replay
from engine.store import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "examples" / "engage.txt").read_text()


async def play(tmp_path, lines, *, channel="local", store=None, user="lena"):
    store = store or await Store.open(tmp_path / "x.db")
    out: list[str] = []
    local = LocalTable(Table(CampaignService(store)), channel=channel, out_dir=tmp_path / f"out-{channel}",
                       echo=out.append, user=user)
    errors = await local.run_script(lines)
    return store, local, errors, "\n".join(out)


async def test_the_example_game_ends_in_the_expected_state(tmp_path):
    store, local, errors, text = await play(tmp_path, EXAMPLE.splitlines())
    try:
        assert errors == 0, text
        s = await local.table.service.campaign("local")
        assert s.ruleset == "engage" and s.phase == "battle"
        assert (s.turn.number, s.turn.player, s.turn.phase) == (6, "bob", "engage")
        expected = {  # id: (hex, wounds taken, out of the fight, conditions)
            "a1": (None, 2, True, {}), "a2": ((5, 6), 1, False, {}), "a3": ((2, 5), 0, False, {}),
            "a4": (None, 2, True, {}), "b1": ((0, 8), 1, False, {}), "b2": ((2, 7), 1, False, {}),
            "b3": (None, 3, True, {}),
        }
        got = {u.id: (u.hex, u.damage, u.out, u.conditions) for u in s.units.values()}
        assert got == expected
        assert s.forced == [] and s.pending is None
        # what the players read, sentence by sentence of the rules
        for line in (
            "No Engage phase: this is the first player's first turn of the game.",
            "out-of-sight roll d20 **17** (16-20): engage distance **9 in** (1.5 x Move 6)",
            "@lena may intercept: 1. Bog Strider (a4) moves 1 in to 1,6.",
            "@lena intercepts: Bog Strider (a4) moves 1 in to 1,6, onto the path.",
            "Gallows Wraith (b3) stops at 1,7 in base contact with Bog Strider (a4)",
            "Fear: Bog Strider (a4) makes a Morale check against Gallows Wraith (b3): d20 **2**",
            "out-of-sight roll d20 **3** (1-5): engage distance **2 in** (0.5 x Move 4)",
            "half its base Move after a 1-5 out-of-sight roll, 2 in",
            "Jump Down from 5,5 to 5,6 (2 in): Agility check d20 **6** against 15: it lands well.",
            "Jump Attack: Roof Cutter (a2) landed from its Jump Down straight into base contact with Lantern Bow (b2)",
            "Path: 2,5 1,6 0,7, 3 in, through Bog Strider (a4).",
            "is in base contact with Mire Hulk (b1) and Gallows Wraith (b3) at 0,7 and will strike first",
            "Reed Spear (a1) is Staggered for the rest of the turn",
            "Reed Spear (a1) is no longer Staggered.",
            "Roof Cutter (a2) strikes first at Lantern Bow (b2) (Jump Attack): d20 17 and 9 with Advantage: **9**",
            "Lantern Bow (b2) strikes at Roof Cutter (a2): d20 **1**, needs 8 or less: a critical hit.",
            "Lantern Bow (b2) moves 3 in to 2,7 (it stops short",
            "Turn 6 (round 3): @bob's turn.",
        ):
            assert line in text, line
        # a picture after every engage (and every other battle action), drawn at phone size
        names = [p.name for p in local.images]
        assert sum("-mini-engage-" in n for n in names) == 6  # five engages and the intercept answer
        for p in local.images:
            with Image.open(p) as im:
                assert 850 <= im.size[0] <= 950
        # the log replays to the stored game
        cid = await local.table.service.campaign_id("local")
        assert replay(await store.log(cid)).to_dict() == s.to_dict()
    finally:
        await store.close()


async def test_undo_takes_back_a_diceless_action_only(tmp_path):
    lines = EXAMPLE.splitlines()
    upto = lines.index("/mini move unit:a1 to:3,4") + 1
    store, local, errors, text = await play(tmp_path, lines[:upto])
    try:
        assert errors == 0, text
        before = (await local.table.service.campaign("local")).units["a1"].hex
        assert before == (3, 4)
        errors = await local.run_script(["/undo confirm:yes"])
        assert errors == 0
        s = await local.table.service.campaign("local")
        assert s.units["a1"].hex == (3, 1) and not s.units["a1"].moved
        # an action that rolled dice (the roll-off) can't be taken back
        await local.run_script(["/mini move unit:a1 to:3,4", "/mini end", "@bob /force 3",
                                "@bob /mini engage unit:b1 target:a1", "/undo confirm:yes"])
        assert "can't be undone: it rolled dice" in local.last.as_text()
        cid = await local.table.service.campaign_id("local")
        assert replay(await store.log(cid)).to_dict() == (await local.table.service.campaign("local")).to_dict()
    finally:
        await store.close()


async def test_refusals_are_private_name_the_fix_and_change_nothing(tmp_path):
    lines = EXAMPLE.splitlines()
    upto = lines.index("/mini start") + 1
    store, local, errors, text = await play(tmp_path, lines[:upto])
    try:
        assert errors == 0, text
        before = (await local.table.service.campaign("local")).to_dict()
        cases = {
            "/mini engage unit:a1 target:b1": "no Engage phase in the first player's first turn",
            "@bob /mini move unit:b1 to:1,8": "It is <@lena>'s turn; wait for yours.",
            "/mini move unit:a1 to:99,99": "off the battlefield",
            "/mini move unit:a1 to:zz": "to:",
            "/mini move unit:a1 to:0,3": "a wall",
            "/mini move unit:zz to:3,2": "No unit of yours called 'zz'",
            "/mini shoot unit:a1 target:b1": "It is the Move phase and",
            "/mini intercept unit:a1": "No engage is waiting for an intercept answer.",
            "@cara /mini next": "You are not in this party",  # a member who fields none: test_engage_rules
            "/mini field unit:reed-spear": "already begun",
            "/mini engage unit:a1 target:@everyone": "no Engage phase",
            "/battle status": "belongs to The Elder Scrolls",
            "/skirmish status": "belongs to Skirmish",
        }
        for line, needle in cases.items():
            reply = await local.run_line(line)
            assert reply is not None and reply.error and reply.ephemeral, line
            assert needle in reply.content, (line, reply.content)
            assert "@everyone" not in reply.content.replace("@\u200beveryone", "")
        assert (await local.table.service.campaign("local")).to_dict() == before
    finally:
        await store.close()


async def test_an_engage_game_exports_and_imports_equal_to_its_replay(tmp_path):
    lines = EXAMPLE.splitlines()
    upto = lines.index("/mini intercept unit:a4")  # stop while the intercept question is open
    store, local, errors, text = await play(tmp_path, lines[:upto], channel="marsh")
    try:
        assert errors == 0, text
        original = await local.table.service.campaign("marsh")
        assert original.pending is not None
        assert await local.run_script(["/as lena", "/campaign export"]) == 0
        export = next((tmp_path / "out-marsh").glob("campaign-*.json*"))
        data = export.read_bytes()
        doc = json.loads(gzip.decompress(data) if export.suffix == ".gz" else data)
        assert doc["ruleset"] == "engage" and doc["state"]["ruleset"] == "engage"
        other = LocalTable(local.table, channel="fen", out_dir=tmp_path / "out-fen", echo=lambda *_: None)
        assert await other.run_script(["/as lena", f'/campaign import file:"{export}"', "/mini status"]) == 0
        state = await local.table.service.campaign("fen")
        # the same game, but for its dice: the importing bot draws a fresh seed (no file decides the rolls)
        keep = ("channel_id", "guild_id", "seed", "dice_counter")
        assert {k: v for k, v in state.to_dict().items() if k not in keep} == \
            {k: v for k, v in original.to_dict().items() if k not in keep}
        assert state.seed != original.seed and state.dice_counter == 0
        cid = await local.table.service.campaign_id("fen")
        assert replay(await store.log(cid)).to_dict() == state.to_dict()
        # the imported game plays on: Lena answers the intercept question there
        assert await other.run_script(["/force 2", "/mini intercept unit:a4"]) == 0
        assert (await local.table.service.campaign("fen")).units["a4"].hex == (1, 6)
    finally:
        await store.close()


def test_the_engage_package_imports_no_other_ruleset():
    found = set()
    for path in (ROOT / "rulesets" / "engage").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
    ours = {m for m in found if m.startswith("rulesets")}
    assert ours and all(m.startswith("rulesets.engage") for m in ours), sorted(ours)
    assert not {m for m in found if m.split(".")[0] in ("discord", "PIL", "commands", "cogs", "render")}
