"""A delve played at the local table to a Survey victory (examples/delve-survey.txt), another to an Uncover retreat
(examples/delve-uncover.txt) and a dungeon battle to its end (examples/dungeon.txt): each checked against its
expected final state, every die forced (none from the campaign's random stream), and the log replaying to it."""
from __future__ import annotations

from pathlib import Path

from PIL import Image

from commands.core import Table
from render import delve as delve_pictures
from commands.local import LocalTable
from engine.service import CampaignService, replay
from engine.store import Store

ROOT = Path(__file__).resolve().parent.parent


async def play(tmp_path, name: str):
    store = await Store.open(tmp_path / "x.db")
    out: list[str] = []
    local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "out", echo=out.append, user="sam")
    errors = await local.run_script((ROOT / "examples" / name).read_text().splitlines())
    state = await local.table.service.campaign("local")
    cid = await local.table.service.campaign_id("local")
    return store, local, errors, "\n".join(out), state, await store.log(cid)


async def test_a_delve_played_to_a_survey_victory(tmp_path):
    store, local, errors, text, state, log = await play(tmp_path, "delve-survey.txt")
    try:
        assert errors == 0, text
        assert state.forced == [] and state.dice_counter == 0  # every die was forced: the same game every run
        last = state.last_battle
        assert (last.outcome, last.rounds, last.mode, last.skyshards, last.skyshard_xp) == \
            ("victory", 4, "delve", 3, None)
        assert state.battle is None
        sam, ryan = state.adventurers["sam"], state.adventurers["ryan"]
        assert (sam.hp, sam.tenacity, sam.bonus_hp) == (5, 2, 0)  # Cracked Seal's third skyshard: 2 tenacity
        assert (ryan.hp, ryan.drained) == (4, [])  # the Collapsed Well's drained Combat die came back at cleanup
        for line in ("Shannon explores hex 1,0 and draws **Abandoned Camp** (GE-06)",
                     "The Great Cistern (tile 2) connects to hex 3,-2",
                     "Shannon gains the skyshard of Bog Lantern Hall: 1/3 skyshards",
                     "Ryan chooses: Drain a Combat die (Collapsed Well)",
                     "Brine Pool: Thick brine clings to you",
                     "Ryan gains the skyshard of Collapsed Well: 2/3 skyshards",
                     "Every skyshard of the delve has been drawn (3): no hex is explorable any more",
                     "Shannon gains the skyshard of Cracked Seal: 3/3 skyshards",
                     "🏆 Victory! The party achieves the objective. The battle ends after round 4.",
                     "The delve is taken apart"):
            assert line in text, line
        names = [p.name for p in local.images]
        assert sum("placements" in n for n in names) == 6  # one picture of the choices for each tile placed
        maps = [p for p in local.images if "-map-" in p.name]
        with Image.open(maps[-1]) as im:
            assert im.format == "PNG" and im.width == delve_pictures.W  # as wide as the battle map
        assert replay(log).to_dict() == state.to_dict()
    finally:
        await store.close()


async def test_a_delve_played_to_an_uncover_retreat(tmp_path):
    store, local, errors, text, state, log = await play(tmp_path, "delve-uncover.txt")
    try:
        assert errors == 0, text
        assert state.forced == [] and state.dice_counter == 0
        last = state.last_battle
        assert (last.outcome, last.rounds, last.mode, last.skyshards, last.skyshard_xp) == \
            ("retreat", 1, "delve", 1, 1)
        assert "The party retreats. The encounter is failed." in text
        assert "Skyshards gained: 1/3. They are worth 1 XP in the Reward Phase." in text
        assert "Argonian Bandit (level 1, up to 1)" in text  # each tile's enemies came with it
        assert replay(log).to_dict() == state.to_dict()
    finally:
        await store.close()


async def test_a_dungeon_battle_played_to_its_end(tmp_path):
    store, local, errors, text, state, log = await play(tmp_path, "dungeon.txt")
    try:
        assert errors == 0, text
        assert state.forced == [] and state.dice_counter == 0
        last = state.last_battle
        assert (last.outcome, last.rounds, last.mode) == ("victory", 6, "dungeon")
        for line in ("Saltmire Informant (a quest unit) in hex A (0,-3), caged: no HP chips",
                     "Gaol Warden (level 10) in hex B (2,0)",
                     "Free level 1 draws until 6 numbered hexes are filled",
                     "🏰 The Drowned Gaol:", "Gaol Warden is defeated by Ryan",
                     "🏆 Victory! The party achieves the objective. The battle ends after round 6."):
            assert line in text, line
        sam, ryan = state.adventurers["sam"], state.adventurers["ryan"]
        assert (sam.hp, ryan.hp) == (4, 3)  # the first fatigue round (6) took 1 from each
        ends = [p for p in local.images if "-result-" in p.name]  # the end drawn as the dungeon's map
        assert len(ends) == 1 and "delvemap" in ends[0].name
        assert replay(log).to_dict() == state.to_dict()
    finally:
        await store.close()
