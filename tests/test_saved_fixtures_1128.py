"""Saved campaigns of the 2026-11-28 release (``57ec4dc``) open, replay and play on.

``tests/fixtures/2026-11-28-release/`` (see its README.md) holds one database with eight channels, each stopped in
a state a table is often in when a new version arrives, and the export of each as its leader downloaded it: a
session mid-day (``midday``), a battle a day's card launched, mid-round (``clash``), a delve with a placement
waiting (``delve``), a session finished (``session``), an endgame day (``endgame``), a skirmish mid-activation
(``fen``), a duel between fights (``duel``) and an engage phase with an intercept question open (``engage``).
Each channel equals the replay of its log, and the player the table waits for (the leader when it waits for
nobody's turn) takes the next sensible step; each export imports into a fresh channel and plays on the same way.
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

FOLDER = Path(__file__).parent / "fixtures" / "2026-11-28-release"

# channel -> (ruleset, its rules revision, who acts next, what they do, what the table then says, who acts after)
STATES = {
    "midday": ("tes", 3, "ryan", "/town done\n@shannon /town done",
               ["Shannon is done in town", "☼ Reward Phase.", "End of Day Phase (day 3)",
                "The Adventurers Rest (Adept)"], "ryan"),
    "clash": ("tes", 3, "shannon", "/force 1 1 1 1\n/endturn",
              ["Shannon ends the turn.", "Argonian Marauder engages Ryan", "Round 2 begins",
               "Round 2: Ryan's turn"], "ryan"),
    "delve": ("tes", 3, "sam", "/explore place:1",
              ["The Great Cistern (tile 2) connects to hex 3,-2: placement 1 of 6",
               "Shannon may still move 1 hex of it"], "sam"),
    "session": ("tes", 3, "ryan", "/quest next pick:1\n/day start",
                ["The Sunken Chime", "Session 2 of the campaign", "Day 1 — New Day Phase"], "ryan"),
    "endgame": ("tes", 3, "ryan", "/day choose choice:2",
                ["The party chooses **Wade through the choir**.", "Ryan is dealt 2 damage (2/4 HP)",
                 "The endgame's day 3 encounter is completed."], "ryan"),
    "fen": ("skirmish", 2, "bob", "/skirmish end",
            ["Ember Runner's activation ends.", "Now: @lena activates a fighter"], "lena"),
    "duel": ("duel", 1, "lena", "/duel fight monster:cave-troll",
             ["A fight against the Cave Troll (Rank 3, 14 Grit) is called.", "does Brann join the fight?"],
             "lena"),
    "engage": ("engage", 1, "lena", "/force 2\n/mini intercept unit:a4",
               ["@lena intercepts: Bog Strider (a4) moves 1 in to 1,6", "the engage is intercepted",
                "d20 **2** against Morale 10, it holds its nerve"], "bob"),
}


def actor(state) -> str:
    """The player the table waits for, or the leader when it waits for nobody's turn (between fights, sessions)."""
    found = rulesets.of_state(state.to_dict()).whose_move(state)
    return found[0] if found else state.leader


async def plays_on(store, tmp_path, channel: str, kind: str, state) -> None:
    """The player whose move it is takes the next step; the table says so; the campaign still equals its replay."""
    ruleset, rules, who, then, words, next_who = STATES[kind]
    assert state.ruleset == ruleset and state.rules == rules
    assert actor(state) == who
    errors, text, _ = await play(store, tmp_path, channel, f"/as {who}\n{then}")
    assert errors == 0, text
    for said in words:
        assert said in text, text
    after = await store.load_active(channel)
    moved = rulesets.load(after.state)
    assert actor(moved) == next_who
    assert replay(await store.log(after.id)).to_dict() == moved.to_dict()


def test_the_folder_holds_a_script_and_an_export_for_every_state():
    assert {p.stem for p in FOLDER.glob("*.txt")} == set(STATES)
    assert {p.stem.removeprefix("export-") for p in FOLDER.glob("export-*.json")} == set(STATES)
    assert not list(FOLDER.glob("*.png"))


@pytest.mark.parametrize("channel", list(STATES))
async def test_a_channel_of_the_release_database_equals_its_replay_and_plays_on(tmp_path, channel):
    db = tmp_path / "old.db"
    shutil.copy(FOLDER / "hexpost.db", db)
    store = await Store.open(db)
    try:
        stored = await store.load_active(channel)
        assert stored is not None
        if STATES[channel][0] == "tes":
            assert stored.state["schema"] == 5  # as the release wrote it, before any upgrade on load
        state = rulesets.load(stored.state)
        assert replay(await store.log(stored.id)).to_dict() == state.to_dict()
        await plays_on(store, tmp_path, channel, channel, state)
        assert (await store.load_active(channel)).version > stored.version  # the step was saved
    finally:
        await store.close()


@pytest.mark.parametrize("channel", list(STATES))
async def test_an_export_of_the_release_imports_and_plays_on(tmp_path, channel):
    path = FOLDER / f"export-{channel}.json"
    doc = json.loads(path.read_text())
    store = await Store.open(tmp_path / "new.db")
    try:
        errors, text, _ = await play(store, tmp_path, "imported",
                                     f'/as {doc["exported_by"]}\n/campaign import file:"{path}"')
        assert errors == 0 and "imported from channel" in text, text
        state = await CampaignService(store).campaign("imported")
        assert state.name == doc["campaign"]["name"] and state.leader == doc["exported_by"]
        await plays_on(store, tmp_path, "imported", channel, state)
        stored = await store.load_active("imported")
        assert (await store.log(stored.id))[-1].type != "campaign.import"  # the step was saved after the import
    finally:
        await store.close()
