"""Saved campaigns are sacred: a database and exports written by the release before the campaign's days (state
schema 3, rules revision 2) open and play on.

``tests/fixtures/v3r2/`` was written by that release at the local table (the scripts beside the files):
* ``hexpost-v3r2.db``: channel ``marsh``, a party between battles after retreating from the Ambush at the Ford
  and resting; channel ``fight``, a Jailbreak battle in round 2.
* ``export-v3r2-marsh.json``, ``export-v3r2-fight.json``: the same two campaigns as exports.

They load with no session running (state schema 4: ``days`` is None), keep their rules revision (the leader's
rest between battles still works for them), replay exactly, and after ``/campaign update`` play a session.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine import rulesets
from engine.service import CampaignService, replay
from engine.store import Store
from helpers.table import play
from rulesets.tes.state import RULES, SCHEMA

FIX = Path(__file__).parent / "fixtures" / "v3r2"


@pytest.fixture
async def store(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(FIX / "hexpost-v3r2.db", db)
    s = await Store.open(db)
    yield s
    await s.close()


async def test_the_old_database_opens_with_no_session_and_its_rules(store):
    service = CampaignService(store)
    marsh = await service.campaign("marsh")
    assert marsh.days is None and marsh.rules == 2 and marsh.to_dict()["schema"] == SCHEMA == 5
    assert marsh.last_battle.outcome == "retreat"
    fight = await service.campaign("fight")
    assert fight.battle is not None and fight.days is None


@pytest.mark.parametrize("channel", ["marsh", "fight"])
async def test_the_old_logs_replay_to_the_stored_state(store, channel):
    stored = await store.load_active(channel)
    assert replay(await store.log(stored.id)).to_dict() == rulesets.load(stored.state).to_dict()


async def test_between_battles_the_old_rest_still_works_then_the_update_brings_the_days(store, tmp_path):
    errors, text, _ = await play(store, tmp_path, "marsh", """
/campaign status
/adventurer rest
/battle start encounter:spriggan-grove
/battle retreat confirm:yes
/endturn
@sil /endturn
/adventurer rest
""")
    assert errors == 0, text
    assert "The party takes the Adventurers Rest" in text  # rules revision 2: the leader rests the party
    errors, text, _ = await play(store, tmp_path, "marsh", "/day start")
    assert errors == 1 and "/campaign update" in text, text  # its pack version has no province yet
    errors, text, _ = await play(store, tmp_path, "marsh",
                                 '/campaign update\n/day start\n/quest guild pick:1')
    assert errors == 0, text
    service = CampaignService(store)
    state = await service.campaign("marsh")
    assert state.days is not None and state.days.ask.kind == "town"
    stored = await store.load_active("marsh")
    assert replay(await store.log(stored.id)).to_dict() == state.to_dict()


async def test_the_update_moves_an_old_campaign_onto_the_end_of_day_rest(store, tmp_path):
    errors, text, _ = await play(store, tmp_path, "marsh", "/campaign update\n/adventurer rest")
    assert errors == 1 and f"rules revision 2 → {RULES}" in text and "comes at a session's End of Day" in text, text


async def test_mid_battle_the_old_campaign_fights_on(store, tmp_path):
    errors, text, _ = await play(store, tmp_path, "fight", "/battle status\n/endturn\n@wen /endturn\n/battle status")
    assert errors == 0, text
    state = await CampaignService(store).campaign("fight")
    assert state.battle is not None or state.last_battle is not None


@pytest.mark.parametrize("name,then", [
    ("marsh", "/as leader\n/adventurer rest\n/campaign status\n/campaign update\n/day start"),
    ("fight", "/as leader\n/endturn\n/battle status"),
])
async def test_the_old_exports_import_and_play_on(tmp_path, name, then):
    store = await Store.open(tmp_path / "new.db")
    try:
        path = FIX / f"export-v3r2-{name}.json"
        doc = json.loads(path.read_text())
        who = doc["exported_by"]
        errors, text, _ = await play(store, tmp_path, f"imp-{name}",
                                     f'/as {who}\n/campaign import file:"{path}"\n/campaign status')
        assert errors == 0, text
        state = await CampaignService(store).campaign(f"imp-{name}")
        assert state.days is None and state.rules == 2
        errors, text, _ = await play(store, tmp_path, f"imp-{name}", then)
        assert errors == 0, text
    finally:
        await store.close()
