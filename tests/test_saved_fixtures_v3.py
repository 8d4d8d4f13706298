"""Saved campaigns are sacred: a database and exports written by the release with state schema 3 open and play on.

``tests/fixtures/v3/`` was written by the bot at state schema 3 (one engine, the Elder Scrolls ruleset and the
skirmish), before campaigns recorded the rules revision they play by.  The scripts beside the files are what was
typed at the local table (the campaigns' own seeds drew the rest):

* ``hexpost-v3.db``: channel ``crypt``, a Crypt of Bones battle with three classed adventurers, stopped at a
  prevention question for Acer (ask mode, Backflip on offer); channel ``ford``, a party between battles after
  retreating from the Ambush at the Ford.
* ``export-v3-ask.json``: the crypt campaign at that question; ``export-v3-round3.json``: the same campaign
  after the question was answered (Backflip's move skipped, as that release did), into round 3;
  ``export-v3-ford.json``: the ford campaign.

Their logs replay on today's bot exactly: a campaign keeps the rules revision and the pack version it began on.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine import rulesets
from engine.service import CampaignService, replay
from engine.store import Store

FIX = Path(__file__).parent / "fixtures" / "v3"


async def _open(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(FIX / "hexpost-v3.db", db)
    return await Store.open(db)


@pytest.fixture
async def store(tmp_path):
    """A copy of the database written at schema 3, opened by today's bot (in this module, ``store`` is it)."""
    s = await _open(tmp_path)
    yield s
    await s.close()


from helpers.table import play as _play  # noqa: E402


async def test_v3_database_answers_the_open_question_and_plays_on(store, tmp_path):
    service = CampaignService(store)
    state = await service.campaign("crypt")
    assert state.battle is not None and state.battle.asking is not None
    ask = state.battle.asking
    assert (ask.owner, ask.enemy, ask.amount) == ("ace", "e2", 3)
    errors, text, _ = await _play(store, tmp_path, "crypt", """
/as ace
/battle status
/battle prevent use:auto
""")
    assert errors == 0, text
    # the rules revision the campaign began on: Backflip's free move is skipped during an enemy's turn
    assert "Backflip (1 tenacity, interrupt) prevents 1" in text and "it is skipped" in text
    state = await service.campaign("crypt")
    assert state.adventurers["ace"].tenacity == 1
    assert state.battle.asking.enemy == "e3"  # the next enemy's hit asks in its turn


async def test_v3_database_between_battles_opens(store, tmp_path):
    service = CampaignService(store)
    ford = await service.campaign("ford")
    assert ford.battle is None and ford.last_battle.outcome == "retreat"
    assert ford.adventurers["rog"].class_id == "rogue"
    errors, text, _ = await _play(store, tmp_path, "ford", "/campaign status\n/adventurer show\n/adventurer rest")
    assert errors == 0, text
    assert "Drakka" in text


@pytest.mark.parametrize("channel", ["crypt", "ford"])
async def test_v3_logs_replay_to_the_stored_state(store, tmp_path, channel):
    stored = await store.load_active(channel)
    entries = await store.log(stored.id)
    assert replay(entries).to_dict() == rulesets.load(stored.state).to_dict()


@pytest.mark.parametrize("name,then", [
    ("ask", "/as ace\n/battle prevent use:auto\n/battle status"),
    ("round3", "/as leader\n/endturn\n/battle status"),
    ("ford", "/as leader\n/adventurer rest\n/campaign status"),
])
async def test_v3_exports_import_and_play_on(tmp_path, name, then):
    store = await Store.open(tmp_path / "new.db")
    try:
        path = FIX / f"export-v3-{name}.json"
        doc = json.loads(path.read_text())
        who = doc["exported_by"]
        errors, text, _ = await _play(store, tmp_path, f"imp-{name}",
                                      f'/as {who}\n/campaign import file:"{path}"\n/campaign status')
        assert errors == 0, text
        state = await CampaignService(store).campaign(f"imp-{name}")
        assert state.name == doc["campaign"]["name"]
        assert state.to_dict()["adventurers"] == json.loads(json.dumps(doc["state"]["adventurers"]))
        errors, text, _ = await _play(store, tmp_path, f"imp-{name}", then)
        assert errors == 0, text
    finally:
        await store.close()


async def test_v3_campaign_is_offered_the_update_and_plays_by_the_new_rules_after_it(store, tmp_path):
    service = CampaignService(store)
    errors, text, _ = await _play(store, tmp_path, "ford", "/campaign status")
    assert errors == 0 and "/campaign update" in text, text
    errors, text, _ = await _play(store, tmp_path, "ford", "@rog /campaign update")
    assert errors == 1 and "party leader" in text, text
    before = await service.campaign("ford")
    assert (before.rules, before.pack_version) == (1, "82fc84b4cf862aa3")
    errors, text, _ = await _play(store, tmp_path, "ford", "/campaign update")
    from rulesets.tes.content import load_pack
    from rulesets.tes.state import RULES
    assert errors == 0 and f"rules revision 1 → {RULES}" in text, text
    after = await service.campaign("ford")
    assert after.rules == RULES and after.pack_version == load_pack("starter").content_hash
    errors, text, _ = await _play(store, tmp_path, "ford", "/campaign update\n/campaign status")
    assert errors == 1 and "already plays the newest" in text and "/campaign update`" not in text.split(
        "already plays")[1], text
    errors, text, _ = await _play(store, tmp_path, "crypt", "/as leader\n/campaign update")
    assert errors == 1 and "Finish the battle first" in text, text
    stored = await store.load_active("ford")
    assert replay(await store.log(stored.id)).to_dict() == after.to_dict()
