"""The typed battle state: saved shapes load and round-trip, old settings move to fields, the map can grow."""
from __future__ import annotations

import json

import pytest
from battle_helpers import ctx, jailbreak, party, run

from engine.core import RuleError
from engine.hexes import Hex
from rulesets.tes.battle.model import map_range, map_sight, place_tile
from rulesets.tes.battle_state import Battle, ItemDeck, Turn, Unit
from rulesets.tes.state import SCHEMA, Campaign


def _started():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    return s


def test_a_battle_round_trips_through_json_unchanged():
    s = _started()
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[3])
    saved = json.loads(json.dumps(s.to_dict()))
    back = Campaign.from_dict(saved)
    assert back.to_dict() == saved
    assert isinstance(back.battle, Battle) and isinstance(back.battle.units["e1"], Unit)
    assert back.battle.pending.owner == "S" and back.battle.turn.owner == "S"
    assert saved["battle"]["await"] is None  # the first release's name for the prevention question


def test_a_first_release_battle_dict_loads_and_plays_on():
    s = _started()
    old = s.to_dict()
    old["schema"] = 2
    b = old["battle"]
    # the first release: a label for map_version, no tiles, an empty turn between turns, keys left out
    b["map_version"] = "jailbreak-1"
    for key in ("tiles", "first_turn_done", "last_turn_owner", "caches", "lockpick"):
        b.pop(key, None)
    for u in b["units"].values():
        for key in ("status_dice", "companion", "controller", "keep", "party", "reassembled"):
            u.pop(key, None)
    b["future_key"] = {"kept": True}  # a key this version does not know is kept, not dropped
    back = Campaign.from_dict(old)
    assert back.battle.map_version == 0 and back.battle.tiles == []
    assert back.to_dict()["battle"]["future_key"] == {"kept": True}
    s2, ev = run(back, "battle.move", "S", {"to": "0,2"})
    assert s2.battle.units["a:S"].q == 0 and "makes a move" in "\n".join(e.text for e in ev)


def test_schema_2_settings_move_to_their_own_fields():
    s = party()
    d = s.to_dict()
    d["schema"] = 2
    for key in ("battle_count", "last_battle", "class_rewards", "companions", "item_decks"):
        d.pop(key, None)
    d["settings"] = {"reminder_hours": 6, "battle_count": 3, "class_rewards": {"S": ["healer", "sorcerer"]},
                     "companions": [{"id": "war-hound", "controller": "R"}],
                     "item_decks": {"common": {"draw": ["iron-sword"], "discard": ["leather-cap"]}},
                     "last_battle": {"no": 3, "encounter": "jailbreak", "name": "Jailbreak", "outcome": "victory",
                                     "rounds": 2, "achievements": {}, "log": []}}
    c = Campaign.from_dict(d)
    assert c.settings == {"reminder_hours": 6}  # settings hold only settings
    assert c.battle_count == 3 and c.class_rewards == {"S": ["healer", "sorcerer"]}
    assert [(x.id, x.controller) for x in c.companions] == [("war-hound", "R")]
    assert c.item_decks == {"common": ItemDeck(draw=["iron-sword"], discard=["leather-cap"])}
    assert c.last_battle.outcome == "victory" and c.last_battle.rounds == 2
    assert c.to_dict()["schema"] == SCHEMA == 5


def test_the_next_battle_is_numbered_from_the_battle_count():
    s = party()
    s.battle_count = 4
    s, ev = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    assert s.battle.no == 5 and s.battle_count == 5
    assert "Battle 5" in "\n".join(e.text for e in ev)


def test_an_empty_turn_between_turns_is_a_turn_record():
    b = Battle.from_dict({"no": 1, "encounter": "jailbreak", "turn": {}})
    assert isinstance(b.turn, Turn) and b.turn.unit is None and b.turn.owner is None


# ------------------------------------------------------------ a growing map --
def test_placing_a_tile_mid_battle_changes_range_and_sight():
    s = _started()
    c = ctx(s)
    before = c.map
    near, far, across = Hex(5, 2), Hex(8, 0), Hex(7, 1)
    assert map_range(before, near, far) is None and not map_sight(before, Hex(6, 1), across)
    assert s.battle.map_version == 0 and s.battle.tiles == []
    after = place_tile(c, "entrance", (7, 0))  # the five-hex entrance, east of the yard
    assert s.battle.map_version == 1
    assert [t.tile for t in s.battle.tiles] == ["jailbreak-clash", "jailbreak-entrance", "entrance"]
    assert c.map is after and far in after.passable
    assert map_range(after, near, far) == 3
    assert map_sight(after, Hex(6, 1), across)  # the new tile is next to the one that hex is on
    assert c.range_to(near, far) == 3 and c.sight(Hex(6, 1), across)
    # the grown map is saved with the battle and comes back with it
    back = Campaign.from_dict(json.loads(json.dumps(s.to_dict())))
    assert back.battle.map_version == 1 and map_range(ctx(back).map, near, far) == 3
    # the old map is still what a battle without the new tile sees
    assert map_range(ctx(_started()).map, near, far) is None


def test_a_tile_may_not_cover_the_map():
    s = _started()
    c = ctx(s)
    with pytest.raises(RuleError, match="already on the map"):
        place_tile(c, "entrance", (5, 0))
    with pytest.raises(RuleError, match="no map tile"):
        place_tile(c, "no-such-tile", (20, 20))
    assert s.battle.map_version == 0 and s.battle.tiles == []
