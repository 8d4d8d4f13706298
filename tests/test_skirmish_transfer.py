"""A skirmish campaign moves like any other: export, then import in another channel, rebuilt by replay."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

from commands.core import Table
from commands.local import LocalTable
from engine.service import CampaignService, replay
from engine.store import Store

ROOT = Path(__file__).resolve().parents[1]


async def test_a_skirmish_exports_and_imports_equal_to_its_replay(tmp_path):
    store = await Store.open(tmp_path / "x.db")
    out: list[str] = []
    try:
        table = Table(CampaignService(store))
        local = LocalTable(table, channel="fen", out_dir=tmp_path / "out", echo=out.append)
        lines = (ROOT / "examples" / "skirmish.txt").read_text().splitlines()
        middle = [ln for ln in lines if ln.strip()][:20]  # part way through round 1
        assert await local.run_script(middle) == 0, "\n".join(out)
        assert await local.run_script(["/as lena", "/campaign export"]) == 0, "\n".join(out)
        export = next((tmp_path / "out").glob("campaign-*.json*"))
        data = export.read_bytes()
        doc = json.loads(gzip.decompress(data) if export.suffix == ".gz" else data)
        assert doc["ruleset"] == "skirmish" and doc["state"]["ruleset"] == "skirmish"
        other = LocalTable(table, channel="ford", out_dir=tmp_path / "out2", echo=out.append)
        errors = await other.run_script(["/as lena", f'/campaign import file:"{export}"', "/skirmish status"])
        assert errors == 0, "\n".join(out[-10:])
        state = await table.service.campaign("ford")
        original = await table.service.campaign("fen")
        assert state.ruleset == "skirmish"
        mine = ("channel_id", "guild_id", "seed", "dice_counter")  # where it is, and its own fresh dice
        assert {k: v for k, v in state.to_dict().items() if k not in mine} == \
            {k: v for k, v in original.to_dict().items() if k not in mine}
        assert state.seed != original.seed and state.dice_counter == 0
        cid = await table.service.campaign_id("ford")
        assert replay(await store.log(cid)).to_dict() == state.to_dict()
    finally:
        await store.close()
