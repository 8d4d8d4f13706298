"""A whole campaign with its journal carried by /campaign export and /campaign import: from one channel to another,
across a restart of the bot, and played on there (session 2 starts from the journal the file carried)."""
from __future__ import annotations

import json

from helpers.table import play

from commands.core import Table
from engine.service import CampaignService, replay
from engine.transfer import public_state
from engine.store import Store
from test_session_script import _script, check_session_one, check_session_two
from test_transfer import import_reply


async def test_the_campaign_and_its_journal_travel_across_channels_and_a_restart(tmp_path):
    store = await Store.open(tmp_path / "first.db")
    try:
        errors, _text, local = await play(store, tmp_path, "marsh", _script("session.txt"))
        assert errors == 0, [f for f in local.failed]
        table = local.table
        inv = table.invocation("ryan", "marsh", "1", "ryan")
        reply = await table.run(inv, "campaign export", {})
        assert not reply.error, reply.content
        data = reply.files[0].data
        doc = json.loads(data)
        assert doc["state"]["journal"]["guild"] == "fighters-guild"
        assert doc["state"]["journal"]["sessions"][0]["major"] == "salt-road-sworn"
        # without its seed, the log replays with each entry's recorded dice to all the state the export shows
        assert "seed" not in doc["state"] and "seed" not in doc["log"][0]["action"]["args"]
        assert public_state(replay(doc["log"]).to_dict()) == doc["state"]
    finally:
        await store.close()

    # another bot (a fresh database), another channel
    store = await Store.open(tmp_path / "second.db")
    try:
        table = Table(CampaignService(store))
        imported = await import_reply(table, "ryan", "lagoon", data, local=True)
        assert not imported.error, imported.content
    finally:
        await store.close()

    store = await Store.open(tmp_path / "second.db")  # the bot restarts
    try:
        state = await CampaignService(store).campaign("lagoon")
        check_session_one(state)
        errors, text, local = await play(store, tmp_path, "lagoon", "/as ryan\n/journal")
        assert errors == 0 and "Session 1: The Saltmire, The Salt Road — done" in text
        assert any("journal" in p.name for p in local.images)
        errors, text, local = await play(store, tmp_path, "lagoon", _script("session-2.txt"))
        assert errors == 0, [f for f in local.failed]
        state = await CampaignService(store).campaign("lagoon")
        check_session_two(state)
        stored = await store.load_active("lagoon")
        assert replay(await store.log(stored.id)).to_dict() == state.to_dict()
    finally:
        await store.close()
