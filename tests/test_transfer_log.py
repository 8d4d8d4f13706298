"""The action log: replay equals the store by value, undo data stays small, odd dice notation is refused."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from engine.service import apply_undo, replay, undo_patch
from rulesets.tes.state import Campaign

FIX = Path(__file__).parent / "fixtures" / "v1"
RYAN, SHANNON = "1001", "1002"


# ------------------------------------------------------------- fault 10 --
async def test_roll_dividing_by_zero_is_refused_plainly(player):
    for notation in ("1/0", "d6/0", "2d6/(1-1)"):
        reply = await player(RYAN)("roll", dice=notation)
        assert reply.error, notation
        assert "can't be worked out" in reply.content and "Something went wrong" not in reply.content
    assert not (await player(RYAN)("roll", dice="10/3")).error


# -------------------------------------------------------------- fault 4 --
def test_a_won_campaign_replays_to_its_saved_state_by_value():
    doc = json.loads((FIX / "export-v1-won.json").read_text())
    rebuilt = replay(doc["log"]).to_dict()
    saved = Campaign.from_dict(doc["state"]).to_dict()
    assert rebuilt == saved
    # the offered classes are kept as offered, whatever was picked from them since
    assert rebuilt["last_battle"]["class_rewards"] == {"shannon": ["sorcerer", "dragonknight", "healer"]}


def test_rules_see_mappings_in_saved_order_and_nothing_shared():
    doc = json.loads((FIX / "export-v1-won.json").read_text())
    camp = Campaign.from_dict(doc["state"])
    shared = ["a"]
    camp.settings = {"z": 1, "b": {"y": shared, "x": shared}}
    copy = camp.clone()
    assert list(copy.settings) == ["b", "z"] and list(copy.settings["b"]) == ["x", "y"]
    copy.settings["b"]["x"].append("b")
    assert copy.settings["b"]["y"] == ["a"]  # as after a save and load: two lists, not one


# ------------------------------------------------------------- undo data --
def test_undo_patch_rebuilds_the_old_state():
    old = {"a": 1, "b": {"c": [1, 2], "d": "x", "gone": {"k": 1}}, "log": ["one"], "n": None}
    new = {"a": 1, "b": {"c": [2], "d": "y", "new": True}, "log": ["one", "two", "three"], "n": 5}
    patch = undo_patch(old, new)
    assert apply_undo(new, patch) == old
    assert patch["d"]["log"] == {"n": 1}  # an appended list stores its old length, not a copy
    assert "a" not in patch["d"]
    assert apply_undo(old, undo_patch(old, old)) == old


async def test_only_the_newest_entry_keeps_undo_data_and_undo_still_works(player, service, store):
    ryan, shannon = player(RYAN), player(SHANNON)
    assert not (await ryan("campaign new", name="Outer Watch")).error
    assert not (await ryan("adventurer create", name="Vilya", race="dark-elf", line="destruction-staff")).error
    assert not (await shannon("campaign join")).error
    before = (await service.campaign("100")).to_dict()
    for hours in (3, 4, 5):
        assert not (await ryan("campaign settings", reminder_hours=hours)).error
    cid = await service.campaign_id("100")
    con = sqlite3.connect(store.path)
    rows = con.execute("SELECT seq, state_before, undo_patch FROM action_log WHERE campaign_id = ? ORDER BY seq",
                       (cid,)).fetchall()
    con.close()
    assert all(sb is None for _, sb, _ in rows)
    kept = [(seq, len(p)) for seq, _, p in rows if p is not None]
    assert [seq for seq, _ in kept] == [rows[-1][0]]
    state_size = len(json.dumps(before))
    assert kept[0][1] < state_size / 10, (kept, state_size)  # a settings change stores a few bytes
    ask = await ryan("undo")
    assert not (await ryan.click(ask.buttons[0].custom_id)).error
    assert (await service.campaign("100")).settings["reminder_hours"] == 4
    entries = await store.log(cid)
    assert replay(entries).to_dict() == (await service.campaign("100")).to_dict()
    # after an undo there is nothing more to take back
    ask = await ryan("undo")
    assert ask.error and "nothing to undo" in ask.content
