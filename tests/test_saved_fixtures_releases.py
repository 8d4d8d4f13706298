"""Saved campaigns are sacred: databases and exports written by every earlier version open and play on.

``tests/fixtures/<folder>/`` (see its README.md) holds what the bot wrote at one commit of its history: before
the engine split, at state schema 2, the morning of 2026-11-23 (a Jailbreak won with a bare ``/engage`` taken
back, the export that was once refused), the 2026-11-23 and 2026-11-25 releases, and this release; a skirmish
from three of them.  Each database opens, every campaign in it equals the replay of its log, and a few more
actions succeed; each export imports (its log replayed through today's rules and compared with its state) and
plays on.
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

FIX = Path(__file__).parent / "fixtures"

# folder -> {channel: (rules revision, what to play on)}
DATABASES = {
    "2026-11-22": {"local": (0, "/as leader\n/battle status\n/endturn\n@ryan /endturn\n/battle status")},
    "2026-11-22-classes": {"grove": (0, "/as leader\n/battle status\n/endturn\n/battle status"),
                           "sink": (0, "/as leader\n/battle status\n/endturn\n@ryan /endturn")},
    "2026-11-23-schema2": {"local": (0, "/as leader\n/battle status\n/endturn\n@ryan /endturn\n/battle status")},
    "2026-11-23-morning": {
        "jail": (0, "/as leader\n/campaign status\n/adventurer show\n/battle start encounter:bandit-ambush\n"
                    "/endturn\n/battle status"),
        "fen": (1, "/as lena\n/skirmish status\n@bob /skirmish end\n/skirmish status"),
    },
    "2026-11-23-release": {"grove": (1, "/as leader\n@ace /battle prevent use:auto\n/battle status")},
    "2026-11-25-early": {"grove": (2, "/as leader\n@ace /battle stay\n/battle status")},
    "2026-11-25-release": {
        "grove": (2, "/as leader\n@ace /battle stay\n/battle status"),
        "fen": (1, "/as lena\n@bob /skirmish end\n/skirmish status"),
    },
    "rules-3": {
        "grove": (3, "/as leader\n@ace /battle prevent use:auto\n/battle status"),
        "fen": (2, "/as lena\n@bob /skirmish end\n/skirmish status"),
    },
    "days": {"days": (3, "/as ryan\n/force 3\n@shannon /day agree\n/town done\n/day status")},
}
# export file -> (rules revision, what to play on after the import)
EXPORTS = {
    "2026-11-22/export.json": (0, "/battle status\n/endturn\n@ryan /endturn"),
    "2026-11-22-classes/export-grove.json": (0, "/battle status\n/endturn"),
    "2026-11-22-classes/export-sink.json": (0, "/battle status\n/endturn\n@ryan /endturn"),
    "2026-11-23-schema2/export.json": (0, "/battle status\n/endturn\n@ryan /endturn"),
    "2026-11-23-morning/export-jailbreak.json": (0, "/adventurer show\n/battle start encounter:bandit-ambush\n"
                                                    "/endturn"),
    "2026-11-23-morning/export-skirmish.json": (1, "@bob /skirmish end\n/skirmish status"),
    "2026-11-23-encounters/export.json": (0, "/adventurer show\n/battle start encounter:spriggan-grove\n/endturn"),
    "2026-11-23-release/export.json": (1, "@ace /battle prevent use:auto\n/battle status"),
    "2026-11-23-release/export-sink.json": (1, "/battle status\n/endturn\n@ryan /endturn"),
    "2026-11-25-early/export.json": (2, "@ace /battle stay\n/battle status"),
    "2026-11-25-release/export-grove.json": (2, "@ace /battle stay\n/battle status"),
    "2026-11-25-release/export-skirmish.json": (1, "@bob /skirmish end\n/skirmish status"),
    "rules-3/export-grove.json": (3, "@ace /battle prevent use:auto\n/battle status"),
    "rules-3/export-skirmish.json": (2, "@bob /skirmish end\n/skirmish status"),
    "days/export-days.json": (3, "/force 3\n@shannon /day agree\n/town done\n/day status"),
}


async def _copy(tmp_path, folder):
    db = tmp_path / "old.db"
    shutil.copy(FIX / folder / "hexpost.db", db)
    return await Store.open(db)


@pytest.mark.parametrize("folder,channel", [(f, c) for f, chans in DATABASES.items() for c in chans])
async def test_a_database_opens_equals_its_replay_and_plays_on(tmp_path, folder, channel):
    store = await _copy(tmp_path, folder)
    try:
        stored = await store.load_active(channel)
        assert stored is not None
        state = rulesets.load(stored.state)
        rules, then = DATABASES[folder][channel]
        assert state.rules == rules
        assert replay(await store.log(stored.id)).to_dict() == state.to_dict()
        errors, text, _ = await play(store, tmp_path, channel, then)
        assert errors == 0, text
        after = await store.load_active(channel)
        assert after.version > stored.version  # the actions were saved
        assert replay(await store.log(after.id)).to_dict() == rulesets.load(after.state).to_dict()
    finally:
        await store.close()


@pytest.mark.parametrize("name", list(EXPORTS))
async def test_an_export_imports_and_plays_on(tmp_path, name):
    path = FIX / name
    doc = json.loads(path.read_text())
    store = await Store.open(tmp_path / "new.db")
    try:
        errors, text, _ = await play(store, tmp_path, "imported",
                                     f'/as {doc["exported_by"]}\n/campaign import file:"{path}"')
        assert errors == 0 and "imported from channel" in text, text
        state = await CampaignService(store).campaign("imported")
        rules, then = EXPORTS[name]
        assert state.name == doc["campaign"]["name"] and state.rules == rules
        errors, text, _ = await play(store, tmp_path, "imported", f'/as {doc["exported_by"]}\n{then}')
        assert errors == 0, text
        stored = await store.load_active("imported")
        entries = await store.log(stored.id)
        assert entries[-1].type != "campaign.import"  # the plays on were saved after the import
    finally:
        await store.close()


async def test_the_export_once_refused_replays_its_undone_bare_engage(tmp_path):
    """The export of 2026-11-23 that was refused ("Say what to roll"): its log holds a bare /engage, taken back."""
    doc = json.loads((FIX / "2026-11-23-encounters/export.json").read_text())
    kinds = [e["action"]["type"] for e in doc["log"]]
    bare = kinds.index("battle.engage")
    assert doc["log"][bare]["action"]["args"] == {} and kinds[bare + 1] == "undo"
    assert replay(doc["log"]).to_dict() == rulesets.load(doc["state"]).to_dict()


async def test_a_first_release_campaign_updates_to_the_newest_rules_and_plays_by_them(tmp_path):
    from rulesets.tes.state import RULES

    store = await _copy(tmp_path, "2026-11-23-morning")
    try:
        errors, text, _ = await play(store, tmp_path, "jail", "/as leader\n/campaign status\n/campaign update")
        assert errors == 0 and f"rules revision 0 → {RULES}" in text, text
        errors, text, local = await play(store, tmp_path, "jail",
                                         "/battle start encounter:bandit-ambush\n/engage")
        assert errors == 0 and "Engage with no dice?" in local.last.content, text  # revision 3 asks now
        stored = await store.load_active("jail")
        assert replay(await store.log(stored.id)).to_dict() == rulesets.load(stored.state).to_dict()
    finally:
        await store.close()
