"""A class is promoted at once whenever its requirement is met (pp.25, 31; issue 17 item 8): the requirements the
bot detects in battle, each met (the sheet flips at once, the words say which requirement) and just missed."""
from __future__ import annotations

import shutil

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from rulesets.tes.battle import harm
from rulesets.tes import content
from rulesets.tes.content import ContentError, load_pack

PROMOTED = "🎖️"


def _battle(klass, *, who="S", tenacity=0, form=None, rules_revision=None):
    """A Jailbreak with Shannon (S, -2,2) and Ryan (R, -2,1); ``who`` has the class on its novice side."""
    s = party() if rules_revision is None else party(rules_revision=rules_revision)
    adv = s.adventurers[who]
    adv.class_id, adv.class_side, adv.tenacity = klass, "novice", tenacity
    if form:
        adv.battle_form = form
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    return s


def _promoted(s, who, events, klass):
    words = texts(events)
    requirement = load_pack("starter").classes[klass].promotion
    return (s.adventurers[who].class_side == "master"
            and f"{PROMOTED} {s.adventurers[who].name} is promoted: {requirement}" in words)


def _not_promoted(s, who, events):
    return s.adventurers[who].class_side == "novice" and PROMOTED not in texts(events)


def _defeat(s, uid, by, *, at=None, level=None):
    u = s.battle.units[uid]
    if at:
        u.q, u.r = at
    if level is not None:
        u.level = level
    c = ctx(s)
    harm.damage_enemy(c, uid, 50, true=True, by=by, label="Blow")
    return c.events


# ------------------------------------------------------------------ the content --
def test_the_detected_classes_have_a_machine_readable_requirement():
    pack = load_pack("starter")
    checks = {cid: k.check for cid, k in pack.classes.items() if k.check}
    assert set(checks) == {"sorcerer", "nightblade", "archer", "dragonknight", "necromancer", "templar", "healer",
                           "warden", "rogue", "bard", "knight", "acrobat", "scout", "pilgrim", "spellsworn"}
    assert (checks["sorcerer"].kind, checks["sorcerer"].min_level, checks["sorcerer"].form) == \
        ("defeat-enemy", 5, "magic")
    assert (checks["templar"].kind, checks["templar"].amount, checks["templar"].scope) == ("heal-allies", 8, "battle")
    assert (checks["necromancer"].amount, checks["necromancer"].scope, checks["necromancer"].by) == \
        (3, "round", "anyone")


@pytest.mark.parametrize("bad, why", [
    ('kind = "win-the-lottery"', "kind must be one of"),
    ('kind = "heal-allies"\namount = 8\nscope = "session"', "scope must be one of"),
    ('kind = "heal-allies"\nmin_level = 3', 'unknown field "min_level"'),
    ('kind = "defeat-enemy"\nform = "dragon"', "form must be one of"),
])
def test_the_loader_checks_the_promotion_check(tmp_path, bad, why):
    dst = tmp_path / "mypack"
    shutil.copytree(content.CONTENT_DIR / "starter", dst)
    f = dst / "classes.toml"
    text = f.read_text(encoding="utf-8")
    old = 'kind = "heal-allies"\namount = 8\nscope = "battle"'
    assert old in text
    f.write_text(text.replace(old, bad, 1), encoding="utf-8")
    content.clear_cache()
    with pytest.raises(ContentError) as exc:
        load_pack(str(dst))
    assert any("templar" in e and "promotion check" in e and why in e for e in exc.value.errors), exc.value.errors


# ------------------------------------------------------------------ defeats --
def test_sorcerer_is_promoted_defeating_a_level_5_enemy_in_magic_form():
    s = _battle("sorcerer", form="magic")
    ev = _defeat(s, "e1", "S", level=5)
    assert _promoted(s, "S", ev, "sorcerer")
    lines = texts(ev).splitlines()
    assert any("is defeated by Shannon" in x for x in lines)
    assert s.battle.log[-1].startswith(PROMOTED)  # the picture log keeps it
    from rulesets.tes.present.presenter import mat_view

    pack = load_pack("starter")
    view = mat_view(s, s.adventurers["S"], pack)["class"]  # the mat shows the master side
    assert view["side"] == "master" and view["innate"]["text"] == pack.classes["sorcerer"].master.innate.text


def test_sorcerer_is_not_promoted_by_a_level_4_enemy_or_in_weapon_form():
    s = _battle("sorcerer", form="magic")
    ev = _defeat(s, "e1", "S", level=4)
    assert _not_promoted(s, "S", ev)
    s = _battle("sorcerer", form="weapon")
    ev = _defeat(s, "e1", "S", level=5)
    assert _not_promoted(s, "S", ev)
    s = _battle("sorcerer", form="magic")
    ev = _defeat(s, "e1", "R", level=5)  # Ryan's defeat: not Shannon's
    assert _not_promoted(s, "S", ev)


def test_nightblade_is_promoted_defeating_an_enemy_while_in_stealth_and_not_without():
    s = _battle("nightblade")
    s.battle.units["a:S"].statuses.append("stealth")
    ev = _defeat(s, "e1", "S")
    assert _promoted(s, "S", ev, "nightblade")
    s = _battle("nightblade")
    ev = _defeat(s, "e1", "S")
    assert _not_promoted(s, "S", ev)


def test_archer_is_promoted_defeating_an_enemy_4_hexes_away_and_not_3():
    s = _battle("archer")  # Shannon at -2,2
    ev = _defeat(s, "e1", "S", at=(2, 0))
    assert _promoted(s, "S", ev, "archer")
    s = _battle("archer")
    ev = _defeat(s, "e1", "S", at=(1, 1))
    assert _not_promoted(s, "S", ev)


def test_dragonknight_is_promoted_defeating_two_enemies_in_one_turn():
    s = _battle("dragonknight")
    ev = _defeat(s, "e1", "S")
    assert _not_promoted(s, "S", ev)  # one is not enough
    ev = _defeat(s, "e2", "S")
    assert _promoted(s, "S", ev, "dragonknight")
    assert s.battle.promotion["defeats"] == [[1, "a:S", "S"], [1, "a:S", "S"]]


def test_dragonknight_is_not_promoted_by_defeats_in_two_turns_or_by_an_ally():
    s = _battle("dragonknight")
    ev = _defeat(s, "e1", "S")
    s, ev2 = run(s, "battle.endturn", "S")  # Ryan's turn now
    ev3 = _defeat(s, "e2", "S")
    assert _not_promoted(s, "S", ev + ev2 + ev3)
    s = _battle("dragonknight")
    ev = _defeat(s, "e1", "S") + _defeat(s, "e2", "R")
    assert _not_promoted(s, "S", ev)


def test_necromancer_is_promoted_when_three_enemies_fall_in_one_round_by_anyone():
    s = _battle("necromancer")
    e3 = s.battle.units["e1"].clone()
    e3.id, e3.q, e3.r = "e3", 1, 1
    s.battle.units["e3"] = e3
    ev = _defeat(s, "e1", "S") + _defeat(s, "e2", "R")
    assert _not_promoted(s, "S", ev)
    ev = _defeat(s, "e3", "R")
    assert _promoted(s, "S", ev, "necromancer")


def test_necromancer_is_not_promoted_by_three_enemies_over_two_rounds():
    s = _battle("necromancer")
    e3 = s.battle.units["e1"].clone()
    e3.id, e3.q, e3.r = "e3", 1, 1
    s.battle.units["e3"] = e3
    ev = _defeat(s, "e1", "S") + _defeat(s, "e2", "R")
    s.battle.round += 1
    ev += _defeat(s, "e3", "R")
    assert _not_promoted(s, "S", ev)


# ------------------------------------------------------------------ heals --
def test_templar_is_promoted_healing_allies_for_8_hp_in_one_battle():
    s = _battle("templar", tenacity=10)
    events = []
    for _ in range(4):  # Rite of Dawn: you and each ally in range heal 2 HP; only Ryan's count
        s.adventurers["R"].hp = 1
        s, ev = run(s, "battle.ability", "S", {"name": "rite-of-dawn"})
        assert "Ryan heals 2 HP" in texts(ev)
        events += ev
        s.battle.turn.used.clear()
        s.adventurers["S"].tenacity = 10
        if s.adventurers["S"].class_side == "master":
            break
    assert s.battle.promotion["healed"] == {"S": 8}
    assert _promoted(s, "S", events, "templar")


def test_templar_is_not_promoted_by_7_hp_of_healing_or_by_healing_itself():
    s = _battle("templar", tenacity=10)
    events = []
    for ryan_hp in (1, 1, 1, None):  # 2 + 2 + 2 + 1 HP healed for Ryan; Shannon's own healing does not count
        s.adventurers["R"].hp = ryan_hp or s.adventurers["R"].max_hp - 1
        s.adventurers["S"].hp = 1
        s, ev = run(s, "battle.ability", "S", {"name": "rite-of-dawn"})
        assert "Shannon heals 2 HP" in texts(ev)
        events += ev
        s.battle.turn.used.clear()
        s.adventurers["S"].tenacity = 10
    assert "Ryan heals 1 HP" in texts(ev)
    assert s.battle.promotion["healed"] == {"S": 7}
    assert _not_promoted(s, "S", events)


# ------------------------------------------------------------------ revives --
def test_healer_is_promoted_reviving_a_defeated_ally():
    s = _battle("healer", tenacity=5)
    harm.defeat_adventurer(ctx(s), "R")
    s, ev = run(s, "battle.ability", "S", {"name": "revive"})
    assert "Ryan is revived with 3 HP" in texts(ev)
    assert _promoted(s, "S", ev, "healer")


def test_healer_is_not_promoted_when_nobody_returns():
    s = _battle("healer", tenacity=5)
    harm.defeat_adventurer(ctx(s), "R")
    c = ctx(s)
    from rulesets.tes.battle.effects import Use, run_effects

    run_effects(Use(c, s.battle.units["a:S"], "Revive"), [{"type": "revive", "amount": 3}])  # no ally named
    assert "nobody returns" in texts(c.events)
    assert _not_promoted(s, "S", c.events) and s.battle.units["a:R"].defeated


# ------------------------------------------------------------------ prevention --
def test_warden_is_promoted_preventing_6_damage_to_allies_in_one_battle():
    s = _battle("warden", tenacity=6)
    bandit = s.battle.units["e1"]
    events = []
    for _ in range(3):  # Glacial Shield: prevent 2 of the damage dealt to an ally, once a turn
        c = ctx(s)
        harm.damage_adventurer(c, "R", 3, source=bandit, label="Bandit")
        events += c.events
        s.battle.turn.interrupts.clear()
    assert s.battle.promotion["prevented"] == {"S": 6}
    assert _promoted(s, "S", events, "warden")


def test_warden_is_not_promoted_by_4_prevented():
    s = _battle("warden", tenacity=6)
    bandit = s.battle.units["e1"]
    events = []
    for _ in range(2):
        c = ctx(s)
        harm.damage_adventurer(c, "R", 3, source=bandit, label="Bandit")
        events += c.events
        s.battle.turn.interrupts.clear()
    assert s.battle.promotion["prevented"] == {"S": 4}
    assert _not_promoted(s, "S", events)


# ------------------------------------------------------------------ tenacity for allies --
def _ballads(s, n):
    """Shannon (a Bard) sings the Ballad of Courage ``n`` times: Ryan, in range, gains 2 tenacity each time."""
    events = []
    for _ in range(n):
        s.adventurers["R"].tenacity = 0
        s.adventurers["S"].tenacity = 5
        s.battle.turn.used.clear()
        s, ev = run(s, "battle.ability", "S", {"name": "ballad-of-courage", "target": "Ryan"})
        assert "Ryan gains 2 tenacity" in texts(ev)
        events += ev
    return s, events


def test_bard_is_promoted_giving_allies_tenacity_5_times_in_one_battle():
    s = _battle("bard")  # the innate at the start of the battle: Ryan gains 1 tenacity (the first time)
    assert s.battle.promotion["gave_tenacity"] == {"S": 1}
    s, ev = _ballads(s, 3)
    assert _not_promoted(s, "S", ev) and s.battle.promotion["gave_tenacity"] == {"S": 4}
    s, ev = _ballads(s, 1)
    assert _promoted(s, "S", ev, "bard")


def test_bard_is_not_promoted_by_4_times_or_by_tenacity_an_ally_cannot_take():
    s = _battle("bard")
    s, ev = _ballads(s, 3)
    cap = load_pack("starter").mat.tenacity_max
    s.adventurers["R"].tenacity = cap
    s.adventurers["S"].tenacity = 5
    s.battle.turn.used.clear()
    s, ev2 = run(s, "battle.ability", "S", {"name": "ballad-of-courage", "target": "Ryan"})
    assert "Ryan gains 0 tenacity" in texts(ev2)
    assert s.battle.promotion["gave_tenacity"] == {"S": 4} and _not_promoted(s, "S", ev + ev2)


# ------------------------------------------------------------------ engaged by enemies --
def _third_bandit(s):
    e3 = s.battle.units["e1"].clone()
    e3.id, e3.q, e3.r = "e3", -1, 3
    s.battle.units["e3"] = e3
    return e3


def _engage(s, enemy, target, amount):
    """The enemy's engage on ``target`` resolves: its roll dealt ``amount`` damage (0: it engaged, dealt none)."""
    from rulesets.tes.battle import enemy as enemy_ai
    from rulesets.tes.battle_state import EnemyTurn, Hit

    c = ctx(s)
    enemy_ai.hit(c, EnemyTurn(uid=enemy, engaged=[f"a:{target}"]), Hit(target=f"a:{target}", amount=amount))
    return c.events


def test_knight_is_promoted_engaged_by_three_different_enemies_in_one_round_and_standing():
    s = _battle("knight")
    _third_bandit(s)
    ev = _engage(s, "e1", "S", 0) + _engage(s, "e2", "S", 0)
    assert _not_promoted(s, "S", ev)
    ev = _engage(s, "e3", "S", 1)
    assert "Shannon is dealt 1 damage" in texts(ev)
    assert _promoted(s, "S", ev, "knight")


def test_knight_is_not_promoted_by_the_same_enemy_twice_over_two_rounds_or_when_defeated():
    s = _battle("knight")
    _third_bandit(s)
    ev = _engage(s, "e1", "S", 0) + _engage(s, "e2", "S", 0) + _engage(s, "e2", "S", 0)
    assert _not_promoted(s, "S", ev)  # two different enemies
    s.battle.round += 1
    ev = _engage(s, "e3", "S", 0)
    assert _not_promoted(s, "S", ev)  # the third in the next round
    s = _battle("knight")
    _third_bandit(s)
    ev = _engage(s, "e1", "S", 0) + _engage(s, "e2", "S", 0) + _engage(s, "e3", "S", 50)
    assert "Shannon is defeated" in texts(ev) and _not_promoted(s, "S", ev)


def _end_battle(s):
    from rulesets.tes.battle import flow

    c = ctx(s)
    flow.finish(c, "victory")
    return c.events


def test_acrobat_is_promoted_at_the_end_of_a_battle_engaged_twice_without_taking_damage():
    s = _battle("acrobat")
    ev = _engage(s, "e1", "S", 0) + _engage(s, "e2", "S", 0)
    assert _not_promoted(s, "S", ev)  # only when the battle ends
    ev = _end_battle(s)
    assert _promoted(s, "S", ev, "acrobat")
    words = texts(ev)
    assert words.index("Victory!") < words.index(PROMOTED)


def test_acrobat_is_not_promoted_after_damage_or_engaged_only_once():
    s = _battle("acrobat")
    ev = _engage(s, "e1", "S", 0) + _engage(s, "e2", "S", 1)
    assert "Shannon is dealt 1 damage" in texts(ev)
    ev += _end_battle(s)
    assert _not_promoted(s, "S", ev)
    s = _battle("acrobat")
    ev = _engage(s, "e1", "S", 0) + _end_battle(s)
    assert _not_promoted(s, "S", ev)


# ------------------------------------------------------------------ lockpicks --
COMMON = ["iron-sword", "healing-draught", "leather-cap"]


def _lockpick_in_a_session(days, *, opens=True):
    """A Jailbreak in the session of days ``days``: Shannon (a novice Rogue) walks onto the cache and picks its
    lock (code 5-2-2) with forced dice; ``opens``: the first roll matches, else every attempt fails."""
    from rulesets.tes.battle_state import ItemDeck

    s = _battle("rogue")
    s.days = days
    s.item_decks = {"common": ItemDeck(draw=list(COMMON))}
    s, ev = run(s, "battle.move", "S", {"path": "-1,2 -1,3 0,3"})
    events = list(ev)
    if opens:
        s, ev = run(s, "battle.lockpick", "S", {}, forced=[5, 2, 2])
        events += ev
        s, ev = run(s, "battle.lockpick", "S", {})
        events += ev
        assert "opens the lock" in texts(ev)
    else:
        for _ in range(3):
            s, ev = run(s, "battle.lockpick", "S", {}, forced=[1, 1, 1])
            events += ev
        s, ev = run(s, "battle.lockpick", "S", {})
        events += ev
        assert "lock holds" in texts(ev)
    return s, events


def test_rogue_is_promoted_at_the_third_lockpick_check_it_succeeds_at_in_one_session():
    from rulesets.tes.day_state import Session

    days = Session(province="saltmire", code="T")
    for n in (1, 2):  # three battles of one session, a lock opened in each
        s, ev = _lockpick_in_a_session(days)
        assert _not_promoted(s, "S", ev) and s.days.promotion == {"lockpicks": {"S": n}}
        days = s.days
    s, ev = _lockpick_in_a_session(days)
    assert _promoted(s, "S", ev, "rogue")
    assert Session.from_dict(s.days.to_dict()).promotion == {"lockpicks": {"S": 3}}


def test_rogue_is_not_promoted_by_two_locks_and_a_failed_check_or_without_a_session():
    from rulesets.tes.day_state import Session

    days = Session(province="saltmire", code="T")
    assert "promotion" not in days.to_dict()  # a session saved before it loads with nothing counted
    events = []
    for opens in (True, True, False):
        s, ev = _lockpick_in_a_session(days, opens=opens)
        events += ev
        days = s.days
    assert s.days.promotion == {"lockpicks": {"S": 2}} and _not_promoted(s, "S", events)
    s, ev = _lockpick_in_a_session(None)  # a battle played on its own belongs to no session
    assert _not_promoted(s, "S", ev)


# ------------------------------------------------------------------ first to engage --
def _battle_in_a_session(days, first):
    """A Jailbreak in the session of days ``days``, Shannon a novice Scout; ``first`` ("S" or "R") engages first
    (Ryan's turn comes after Shannon ends hers without engaging)."""
    s = _battle("scout")
    s.days = days
    events = []
    if first == "R":
        s, ev = run(s, "battle.endturn", "S")
        events += ev
    s, ev = run(s, "battle.engage", first, {"dice": "combat", "form": "defensive"}, forced=[1])
    events += ev
    s, ev = run(s, "battle.resolve", first, {})
    events += ev
    assert s.battle.promotion["first_engage"] == first
    return s, events


def test_scout_is_promoted_the_third_battle_of_a_session_it_engages_first_in():
    from rulesets.tes.day_state import Session

    days = Session(province="saltmire", code="T")
    for n in (1, 2):
        s, ev = _battle_in_a_session(days, "S")
        assert _not_promoted(s, "S", ev) and s.days.promotion == {"first_engage": {"S": n}}
        days = s.days
    s, ev = _battle_in_a_session(days, "S")
    assert _promoted(s, "S", ev, "scout")


def test_scout_is_not_promoted_when_an_ally_engaged_first_in_one_of_three_battles():
    from rulesets.tes.day_state import Session

    days = Session(province="saltmire", code="T")
    events = []
    for first in ("S", "R", "S"):
        s, ev = _battle_in_a_session(days, first)
        events += ev
        days = s.days
    assert s.days.promotion == {"first_engage": {"S": 2, "R": 1}} and _not_promoted(s, "S", events)


# ------------------------------------------------------------------ the rules revision --
def test_a_campaign_on_rules_revision_2_keeps_the_confirm_path():
    s = _battle("sorcerer", form="magic", rules_revision=2)
    ev = _defeat(s, "e1", "S", level=5)
    assert _not_promoted(s, "S", ev) and s.battle.promotion == {}
    assert "promotion" not in s.battle.to_dict()
    s, ev = run(s, "adventurer.promote", "S", {"confirm": True})
    assert s.adventurers["S"].class_side == "master"


def test_a_class_the_bot_does_not_detect_keeps_the_confirm_path():
    s = _battle("spellsworn")
    ev = _defeat(s, "e1", "S") + _defeat(s, "e2", "S")
    assert _not_promoted(s, "S", ev)
    s, ev = run(s, "adventurer.promote", "S", {"confirm": True})
    assert s.adventurers["S"].class_side == "master" and "Roll magic and weapon skill dice" in texts(ev)


def test_a_battle_saved_before_the_promotion_records_loads_with_none():
    from rulesets.tes.battle_state import Battle

    s = _battle("sorcerer")
    d = s.battle.to_dict()
    d.pop("promotion", None)
    assert Battle.from_dict(d).promotion == {}


# ------------------------------------------------------- the Pilgrim: a session without a defeat --
def _pilgrim_session(defeat: bool):
    """Session 1 under way (The Sunken Chime), Shannon a Pilgrim; the session is won (its epilogue)."""
    from day_helpers import SHANNON, day_two
    from engine.core import Dice
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.session import end

    s = day_two()
    shannon = s.adventurers[SHANNON]
    shannon.class_id, shannon.class_side = "pilgrim", "novice"
    if defeat:  # a day's card deals Ryan a defeat before the quest is won
        from rulesets.tes.battle import promotion

        promotion.note_defeat(s)
    c = DayCtx(s, load_pack("starter"), Dice(0, 0, []))
    end.won(c)
    return s, "\n".join(e.text for e in c.events)


def test_the_pilgrim_is_promoted_when_a_session_ends_without_a_defeat():
    s, text = _pilgrim_session(defeat=False)
    assert "🎖️ Shannon is promoted: Finish a session without any adventurer being defeated." in text
    assert s.adventurers["shannon"].class_side == "master"
    assert text.index("is promoted") < text.index("The adventurers are put away")


def test_the_pilgrim_is_not_promoted_after_a_session_with_a_defeat():
    s, text = _pilgrim_session(defeat=True)
    assert "is promoted" not in text and s.adventurers["shannon"].class_side == "novice"


def test_a_defeat_in_a_days_battle_or_by_a_days_card_marks_the_session():
    from day_helpers import RYAN, day_two

    s = day_two()
    assert not s.days.promotion.get("defeated")
    from engine.core import Dice
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.outcomes.effects import run as run_effects

    c = DayCtx(s, load_pack("starter"), Dice(0, 0, []))
    run_effects(c, [{"type": "damage", "amount": 30, "who": "each"}], "A rockfall")
    assert s.adventurers[RYAN].hp == 0 and s.days.promotion.get("defeated") is True


# ---------------------------------------------- the Spellsworn: magic and weapon skill dice in one turn --
def _dice_turn(s, who, lines, rnd):
    from rulesets.tes.battle import promotion

    s.battle.round = rnd
    c = ctx(s)
    promotion.on_skill_dice(c, who, lines)
    return c.events


def test_the_spellsworn_is_promoted_on_the_third_turn_with_magic_and_weapon_dice():
    s = _battle("spellsworn", who="R")
    s.battle.turn.unit = "a:R"
    ev = _dice_turn(s, "R", ["destruction-staff", "one-hand-and-shield"], 1)
    ev += _dice_turn(s, "R", ["destruction-staff"], 2)  # the same turn, two engages: one kind, then the other
    ev += _dice_turn(s, "R", ["two-handed"], 2)
    assert _not_promoted(s, "R", ev)
    ev = _dice_turn(s, "R", ["bow", "destruction-staff"], 3)
    assert _promoted(s, "R", ev, "spellsworn")


def test_the_spellsworn_counts_no_turn_with_one_kind_only():
    s = _battle("spellsworn", who="R")
    s.battle.turn.unit = "a:R"
    ev = []
    for rnd in range(1, 6):
        ev += _dice_turn(s, "R", ["destruction-staff"], rnd)
        ev += _dice_turn(s, "R", ["combat"], rnd)  # Combat dice are not a weapon skill line's
    assert _not_promoted(s, "R", ev)


def test_an_engage_on_your_turn_counts_its_skill_dice():
    """Shannon engages with her One Hand and Shield die: her turn holds weapon skill dice (no magic yet)."""
    s = _battle("spellsworn", who="S")
    s.battle.units["e1"].q, s.battle.units["e1"].r = -1, 2
    assert s.battle.turn.owner == "S"
    s, ev = run(s, "battle.engage", "S", {"target": "-1,2", "dice": "shield-discipline"}, forced=[4])
    assert "Shannon engages" in texts(ev)
    assert s.battle.promotion["dice_kinds"]["S"] == {f"{s.battle.round}:a:S": ["weapon"]}
    assert _not_promoted(s, "S", ev)
