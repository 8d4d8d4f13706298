"""Unit tests: recovery, the full cooldown track, move legality, engage limits, fatigue rounds, defeat, objectives."""
from __future__ import annotations

import contextlib

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from rulesets.tes.battle import harm, track
from engine.core import Confirm, RuleError
from rulesets.tes.state import Adventurer


def _adv(cooldown, stat=2):
    a = Adventurer(owner="x", name="X", race="argonian", rows=[], hp=5, cooldown_stat=stat, battle_form="light")
    a.dice = {"d1": {"type": "combat", "line": "combat", "level": 1}, "d2": {"type": "combat", "line": "combat", "level": 1}}
    a.cooldown = cooldown
    return a


def test_recovery_takes_leftmost_and_moves_overfatigue_back(pack=None):
    from rulesets.tes.content import load_pack
    a = _adv([{"fatigue": "over"}, {"die": "d1"}, {"fatigue": "light"}, {"status": "bane"}], stat=3)
    out = track.recovery(a, load_pack("starter"))
    assert a.cooldown == [{"status": "bane"}, {"fatigue": "over"}]
    assert "d1" in a.available_dice() and len(out) == 3


def test_full_track_drains_and_turns_rightmost_into_overfatigue():
    a = _adv([{"fatigue": "light"}] * 12 + [{"die": "d1"}])
    track.place(a, {"die": "d2"}, 13)
    assert len(a.cooldown) == 13
    assert "d2" in a.drained and "d1" in a.drained
    assert a.cooldown[-1] == {"fatigue": "over"}
    b = _adv([{"fatigue": "over"}] * 13)
    track.gain_fatigue(b, "light", 1, 13)
    assert b.cooldown == [{"fatigue": "over"}] * 13


def test_status_already_in_track_moves_to_the_end():
    a = _adv([{"status": "daze"}, {"die": "d1"}])
    track.gain_status(a, "daze", 13)
    assert a.cooldown == [{"die": "d1"}, {"status": "daze"}]


def test_move_limits():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    with pytest.raises(RuleError, match="only 3"):
        run(s, "battle.move", "S", {"path": "-1,2 0,2 0,3 0,4"})
    with pytest.raises(RuleError, match="occupied"):
        run(s, "battle.move", "S", {"path": "-2,1"})
    with pytest.raises(RuleError, match="impassable"):
        run(s, "battle.move", "S", {"to": "2,1"})
    with pytest.raises(RuleError, match="not your|turn"):
        run(s, "battle.move", "R", {"to": "-1,1"})
    s, _ = run(s, "battle.move", "S", {"to": "-1,2"})
    with pytest.raises(Confirm, match="A second move gives up your engage"):  # asked first (rules revision 3)
        run(s, "battle.move", "S", {"to": "0,2"})
    s, ev = run(s, "battle.move", "S", {"to": "0,2", "confirm": True})  # a second move without engaging is allowed
    assert "Shannon moved twice this turn, so no engage is left this turn." in texts(ev)
    with pytest.raises(RuleError, match="moved twice"):
        run(s, "battle.engage", "S", {"dice": "combat"})
    with pytest.raises(RuleError, match="twice"):
        run(s, "battle.move", "S", {"to": "0,3"})


def test_engage_limits_and_extra_engage_fatigue():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    with pytest.raises(RuleError, match="adjacent"):
        run(s, "battle.engage", "S", {"target": "High Elf Bandit", "dice": "combat"})
    with pytest.raises(RuleError, match="Magic form"):
        run(s, "battle.engage", "S", {"form": "magic", "dice": "combat"})
    with pytest.raises(RuleError, match="Light Weapon form|need"):
        run(s, "battle.engage", "S", {"form": "defensive", "dice": "shield-discipline"})
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[5])
    with pytest.raises(RuleError, match="Resolve your roll"):
        run(s, "battle.endturn", "S")
    s, _ = run(s, "battle.resolve", "S", {})
    with pytest.raises(RuleError, match="moved after engaging|only once"):
        s2, _ = run(s, "battle.move", "S", {"to": "-1,2"})
        run(s2, "battle.move", "S", {"to": "0,2"})
    s, ev = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "shield-discipline"}, forced=[6])
    assert "gains 1 light fatigue" in texts(ev)
    # Ryan: Magicka 3 allows 3 Force Shock at most, he has 2; Stamina 2 limits Combat dice
    s, _ = run(s, "battle.resolve", "S", {"order": "none"})
    s, _ = run(s, "battle.endturn", "S")
    with pytest.raises(RuleError, match="Stamina"):
        s.adventurers["R"].dice["d99"] = {"type": "combat", "line": "combat", "level": 1}
        run(s, "battle.engage", "R", {"form": "defensive", "dice": "3 combat"})


def test_expert_extra_engage_costs_two_fatigue():
    s = party(difficulty="expert", ryan=False)
    s, _ = jailbreak(s, {"S": "-2,2"}, forced=(2,))
    s, _ = run(s, "battle.engage", "S", {"form": "defensive", "dice": "combat"}, forced=[5])
    s, _ = run(s, "battle.resolve", "S", {})
    s, _ = run(s, "battle.engage", "S", {"form": "light", "dice": "shield-discipline"}, forced=[6])
    assert track.count(s.adventurers["S"], fatigue="light") == 2


def test_fatigue_rounds_overfatigue_then_true_damage():
    s = party(ryan=False)
    s, _ = jailbreak(s, {"S": "-3,3"}, forced=(4,))  # a Skeleton (range 1) far away
    sh = s.adventurers["S"]
    sh.hp = 50  # survive long enough to see the fatigue rounds
    for _ in range(5):
        s, ev = run(s, "battle.endturn", "S", forced=[1, 1])
    assert s.battle["round"] == 6 and s.battle["fatigue_round"]
    assert track.count(s.adventurers["S"], fatigue="over") == 1
    assert "Fatigue: Shannon is dealt 1 true damage" in texts(ev)


def test_defeat_exhausts_active_dice_and_skips_turns():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.engage", "S", {"form": "defensive", "dice": "combat"}, forced=[1])
    s, _ = run(s, "battle.resolve", "S", {})
    c = ctx(s)
    harm.damage_adventurer(c, "S", 99, true=True)
    sh = s.adventurers["S"]
    assert c.unit("a:S")["defeated"] and sh.active == [] and sh.hp == 0
    assert len(sh.cooldown) == 1  # the active Combat die was exhausted
    s.battle["turn"]["owner"] = "S"
    s, ev = run(s, "battle.endturn", "S", forced=[1, 1, 1, 1])
    assert s.battle["turn"]["owner"] == "R"
    s, ev = run(s, "battle.endturn", "R", forced=[1, 1, 1, 1])
    assert "Shannon's turn" not in texts(ev) and s.battle["turn"]["owner"] == "R"


def test_conquer_ends_after_the_round_with_cleanup():
    s = party(ryan=False)
    s, _ = jailbreak(s, {"S": "-2,2"}, forced=(2,))
    s.adventurers["S"].bonus_hp = 3
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "2 shield-discipline, combat"}, forced=[3, 4, 4])
    s, ev = run(s, "battle.resolve", "S", {})
    assert "High Elf Bandit is defeated by Shannon" in texts(ev)
    assert s.battle is not None  # the battle ends only at the end of the round
    s, ev = run(s, "battle.endturn", "S")
    assert s.battle is None
    last = s.last_battle
    assert last.outcome == "victory"
    assert set(last.achievements) >= {"defeat-high-elf-bandit", "first-turn", "last-turn"}
    sh = s.adventurers["S"]
    assert sh.active == [] and sh.bonus_hp == 0 and sh.away == []
    rewards = s.class_rewards["S"]
    assert {"sorcerer", "dragonknight", "healer"} <= set(rewards)
    s, ev = run(s, "battle.class", "S", {"klass": "healer"})
    assert s.adventurers["S"].class_id == "healer"


async def test_deploy_sets_form_and_ready_items_before_the_first_turn_only(tmp_path):
    async with jailbreak_table(tmp_path) as local:
        bad = await local.run_line("@shannon /battle deploy form:sideways")
        assert bad.error and "not a battle form" in bad.content
        ok = await local.run_line("@shannon /battle deploy form:defensive")
        assert not ok.error, ok.content
        state = await local.table.service.campaign("local")
        assert state.adventurers["shannon"].battle_form == "defensive"
        ghost = await local.run_line("@shannon /battle deploy ready:\"Sword of Nowhere\"")
        assert ghost.error and "carries no" in ghost.content
        # Vilya moves: her first turn has begun acting, so she can no longer redeploy
        await local.run_line("/move to:-2,3")
        late = await local.run_line("/battle deploy form:magic")
        assert late.error and "before your first turn" in late.content


def test_fatigue_dice_run_out_into_overfatigue_then_nothing():
    from rulesets.tes.battle import track
    from rulesets.tes.state import Adventurer

    a, b = (Adventurer(owner=o, name=o, race="nord", rows=[], hp=5, cooldown_stat=2, battle_form="light")
            for o in ("A", "B"))
    b.cooldown = [{"fatigue": "light"}] * (track.LIGHT_FATIGUE_DICE - 1)
    notes: list[str] = []
    track.gain_fatigue(a, "light", 2, 13, notes, party=[a, b])
    assert a.cooldown == [{"fatigue": "light"}, {"fatigue": "over"}]
    assert "overfatigue is gained instead" in notes[0]
    b.cooldown += [{"fatigue": "over"}] * (track.OVERFATIGUE_DICE - 1)
    track.gain_fatigue(a, "light", 1, 13, notes, party=[a, b])
    assert len(a.cooldown) == 2 and "none is placed" in notes[-1]


async def test_leader_adjusts_a_manual_effect_and_it_is_logged(tmp_path):
    async with jailbreak_table(tmp_path) as local:
        refused = await local.run_line('@shannon /battle adjust unit:Vilya hp:-1')
        assert refused.error and "party leader" in refused.content
        ok = await local.run_line('/battle adjust unit:Sil hp:-2 tenacity:1 status:bane reason:"Raise Dead"')
        assert not ok.error, ok.content
        state = await local.table.service.campaign("local")
        sil = state.adventurers["shannon"]
        assert sil.hp == sil.max_hp - 2 and sil.tenacity == 1 and {"status": "bane"} in sil.cooldown
        assert "Adjustment by the leader" in ok.content and "Raise Dead" in ok.content
        bad = await local.run_line("/battle adjust unit:Sil status:sleepy")
        assert bad.error and "not a status" in bad.content
        nothing = await local.run_line("/battle adjust unit:Sil")
        assert nothing.error and "Say what to adjust" in nothing.content


def test_a_weapon_reroll_rerolls_before_resolving_and_only_as_often_as_granted():
    from battle_helpers import jailbreak, party, run

    from engine.core import RuleError

    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.adventurers["S"].ready = ["battle-axe"]
    s, ev = run(s, "battle.engage", "S", {"form": "heavy", "dice": "combat", "item": "battle-axe"}, forced=[1])
    p = s.battle["pending"]
    assert p["dice"][0]["roll"] == 1 and p["rerolls"][0]["left"] == 1
    assert any("reroll up to 1" in e.text for e in ev)
    s, ev = run(s, "battle.reroll", "S", {"dice": "1"}, forced=[5])
    assert s.battle["pending"]["dice"][0]["roll"] == 5
    assert any("rerolls: 1. Combat" in e.text for e in ev)
    try:
        run(s, "battle.reroll", "S", {"dice": "1"}, forced=[2])
        raise AssertionError("a second reroll was allowed")
    except RuleError as err:
        assert "Nothing lets you reroll" in err.message
    s, ev = run(s, "battle.resolve", "S", {})
    assert s.battle["pending"] is None
    assert not any("apply this yourselves" in e.text and "Reroll" in e.text for e in ev)



@contextlib.asynccontextmanager
async def jailbreak_table(tmp_path):
    """A local table with Vilya (ryan, leading) and Sil (shannon) in a freshly started Jailbreak."""
    from commands.core import Table
    from commands.local import LocalTable
    from engine.service import CampaignService
    from engine.store import Store

    store = await Store.open(tmp_path / "table.db")
    try:
        out: list[str] = []
        local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "o", echo=out.append, user="ryan")
        await local.run_script([
            "/campaign new name:Table",
            "/adventurer create name:Vilya race:dark-elf line:destruction-staff",
            "@shannon /adventurer create name:Sil race:argonian line:one-hand-and-shield",
            "/battle start encounter:jailbreak",
        ])
        yield local
    finally:
        await store.close()
