"""The map after the enemy phase shows what the enemies did; defeated units stay marked where they fell;
opened caches are gone; mats say where each adventurer stands."""
from __future__ import annotations

from battle_helpers import ctx, jailbreak, party, run

from rulesets.tes.battle import harm
from rulesets.tes.content import load_pack
from rulesets.tes.present.battle import map_view
from rulesets.tes.present.presenter import mat_view


def _after_enemy_phase():
    s = party()
    s.names = {"S": "Theo", "R": "Priya"}
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R", forced=[6, 6, 6, 6, 6, 6])
    return s, ev


def test_enemy_moves_and_engages_are_in_the_map_view():
    s, ev = _after_enemy_phase()
    pack = load_pack("starter")
    v = map_view(s, pack)
    moved = [e for e in ev if e.kind == "enemy-move"]
    engaged = [e for e in ev if e.kind == "enemy-roll"]
    assert moved and engaged
    assert [m["unit"] for m in v["moves"]] == [e.data["unit"] for e in moved]
    assert all(m["side"] == "enemy" and len(m["path"]) >= 2 for m in v["moves"])
    # each move ends where the enemy stands now (none was defeated in this phase)
    for m in v["moves"]:
        u = s.battle.units[m["unit"]]
        assert m["path"][-1] == [u.q, u.r]
    assert {(x["unit"]) for x in v["engages"]} == {e.data["unit"] for e in engaged}
    players = {u["label"]: u.get("player") for u in v["units"] if u["side"] == "adventurer"}
    assert players == {"Shannon": "Theo", "Ryan": "Priya"}
    # once the next adventurer acts, the map shows their move instead
    owner = s.battle.turn.owner
    here = s.battle.units[f"a:{owner}"]
    s.battle.turn.acted = True
    assert "moves" not in map_view(s, pack)
    assert here is not None


def test_defeated_enemy_marked_where_it_fell_and_opened_cache_gone():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    c = ctx(s)
    foe = c.unit("e1")
    at = [foe.q, foe.r]
    harm.damage_enemy(c, "e1", 10, true=True)
    pack = load_pack("starter")
    v = map_view(s, pack)
    e1 = next(u for u in v["units"] if u["id"] == "e1")
    assert e1["defeated"] and e1["defeated_at"] == at
    spot = v["caches"][0]
    assert spot["opened"] is False
    s.battle.caches = {}
    assert all(x["opened"] for x in map_view(s, pack)["caches"])


def test_escaped_mat_is_not_in_battle():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    pack = load_pack("starter")
    assert mat_view(s, s.adventurers["S"], pack)["battle_status"] == "in battle"
    u = s.battle.units["a:S"]
    u.escaped, u.q, u.r = True, None, None
    assert mat_view(s, s.adventurers["S"], pack)["battle_status"] == "escaped"
    v = map_view(s, pack)
    me = next(x for x in v["units"] if x["id"] == "a:S")
    assert me["escaped"] and not me["defeated"]
    u.escaped, u.defeated = False, True
    assert mat_view(s, s.adventurers["S"], pack)["battle_status"] == "defeated"
