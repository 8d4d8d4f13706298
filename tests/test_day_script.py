"""The first days of a session played at the local table from a script (examples/days.txt), checked against the
adventurers, the dials and the map at the end; its log replays to the stored campaign."""
from __future__ import annotations

from pathlib import Path

from helpers.table import play

from engine import rulesets
from engine.service import CampaignService, replay
from engine.store import Store

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "days.txt"


def check_days(state) -> None:
    """What examples/days.txt leaves: day 5 begun at High Tide, the party at Smugglers' Steps."""
    s = state.days
    assert state.day_dial == 5 and state.xp_dial == 3  # 2, +1 for Wayside Camp on day 2
    assert s.phase == "overland" and s.ask.kind == "route"
    assert s.party == [4, 5] and s.gauge == "high"  # Pedlar's Cart's rain at the end of day 4
    assert [(t.id, t.q, t.r) for t in s.tokens] == [("lantern", 3, 3)]  # the moon on day 3 moved it 2 hexes
    assert s.decks["peaceful"].discard == ["ge-p01"] and "sm-c01" in s.decks["conflict"].discard
    assert state.last_battle.outcome == "retreat" and state.last_battle.encounter == "sm-causeway-toll"
    ryan = next(a for a in state.adventurers.values() if a.name == "Ryan")
    shannon = next(a for a in state.adventurers.values() if a.name == "Shannon")
    assert (ryan.hp, ryan.tenacity, ryan.saved_xp) == (4, 4, 0)  # 1 (camp) + 2 (caravan) + 1 (Crackling Focus)
    assert (shannon.hp, shannon.tenacity, shannon.saved_xp) == (5, 3, 0)
    assert ryan.rows[3].right.id == "restoring-light"
    assert sorted(d["type"] for d in ryan.dice.values() if d["line"] == "restoring-light") == ["purge"]
    assert ryan.ready == ["hunting-bow", "travel-bread", "ebony-greaves"]
    assert shannon.rows[2].right.id == "shadow" and shannon.rows[0].right.id == "speech"
    assert [d["type"] for d in shannon.dice.values() if d["line"] == "shadow"] == ["shadow-cloak"]
    assert shannon.stat("magicka") == 1  # one Magicka square untrained on day 2
    assert ryan.cooldown == [] and shannon.cooldown == []  # the fatigue of day 2 cleared by the rests


async def test_the_days_script_plays_and_ends_where_it_should(tmp_path):
    store = await Store.open(tmp_path / "days.db")
    try:
        errors, text, local = await play(store, tmp_path, "days", SCRIPT.read_text())
        assert errors == 0, [f for f in local.failed]
        state = await CampaignService(store).campaign("days")
        check_days(state)
        # every phase announced, the pictures posted after the moves
        for words in ("New Day Phase", "Overland Phase", "Encounter Phase", "Reward Phase", "End of Day Phase",
                      "fatigue movement", "a traveling caravan", "Battle 1: **Tollmen of the Causeway**"):
            assert words in text, words
        overland = [p for p in local.images if "overland" in p.name]
        assert len(overland) >= 8
        stored = await store.load_active("days")
        assert replay(await store.log(stored.id)).to_dict() == rulesets.load(stored.state).to_dict()
    finally:
        await store.close()
