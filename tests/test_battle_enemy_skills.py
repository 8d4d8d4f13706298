"""Every enemy skill of the starter pack, played with forced dice: what the players see (HP, dice, where a unit
stands, the words) is what the skill's text says.  A skill of the pack without a test here fails.

Campaigns begun on the kept pack version OLD (where Dodge, Reassemble, Pack Hunter and Mend Allies are text
only and the bot applied them by their ids) keep playing them exactly as before.
"""
from __future__ import annotations

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts

from commands.core import Table
from commands.local import LocalTable
from engine.service import CampaignService
from engine.store import Store
from rulesets.tes.battle import enemy, harm, track
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle.effects import describe
from rulesets.tes.battle.model import short_label
from rulesets.tes.battle_state import EngageRecord, Unit
from rulesets.tes.content import load_pack
from rulesets.tes.present.battle import map_view

PACK = load_pack("starter")
OLD = "82fc84b4cf862aa3"  # the kept pack version: these skills are text only there


def battle(old: bool = False, players: int = 2):
    """A Jailbreak: Shannon (S, 5 HP) on -2,2 and Ryan (R, 4 HP) on -2,1; e1 on 1,2 and e2 on 4,1."""
    s = party()
    if old:
        s.pack_version = OLD
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    return s


def become(s, uid: str, enemy_id: str, at: tuple[int, int] | None = None) -> Unit:
    """Turn unit ``uid`` into a full-HP ``enemy_id`` (optionally standing on ``at``)."""
    e = load_pack("starter", version=s.pack_version).enemies[enemy_id]
    u = s.battle.units[uid]
    u.enemy, u.name, u.level, u.hp, u.max_hp = enemy_id, e.name, e.level, e.health, e.health
    u.short = f"{short_label(e.name)}{uid[1:]}"
    if at:
        u.q, u.r = at
    return u


def off_map(s, uid: str) -> None:
    """Take a unit off the map (not defeated by anyone: the defeated enemy stack is untouched)."""
    u = s.battle.units[uid]
    u.defeated, u.q, u.r = True, None, None


def extra_enemy(s, uid: str, enemy_id: str, at: tuple[int, int], slot: int) -> Unit:
    s.battle.units[uid] = Unit(id=uid, side="enemy", slot=slot)
    return become(s, uid, enemy_id, at)


def enemy_phase(s, forced):
    """Both adventurers end their turns; the enemies act with the forced dice.  Returns (state, words)."""
    s, _ = run(s, "battle.endturn", "S")
    s, ev = run(s, "battle.endturn", "R", forced=list(forced))
    return s, texts(ev), ev


def rolls(ev, uid: str) -> list[int]:
    """The d6 faces the unit rolled in its engage (as the roll post shows them)."""
    return [d["roll"] for e in ev if e.kind == "enemy-roll" and e.data.get("unit") == uid for d in e.data["dice"]]


# ------------------------------------------------------------------- dodge --
def _engage_the_bandit(s, forced):
    """Shannon steps next to the High Elf Bandit (1,2) and engages it with 2 Shield Discipline and 1 Combat die."""
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "2 shield-discipline, combat"}, forced=forced)
    s, ev = run(s, "battle.resolve", "S", {})
    return s, texts(ev)


def test_dodge_prevents_one_damage_for_each_die_that_dealt_none():
    # Shield Discipline: 2 damage and a blank; Combat: tenacity -> 2 damage dealt, 2 dice dealt none
    s, said = _engage_the_bandit(battle(), [3, 6, 5])
    assert "High Elf Bandit is dealt 2 damage (Dodge prevents 2), takes 0 → 3/3 HP." in said
    assert s.battle.units["e1"].hp == 3
    # 1 + 1 damage and tenacity: one idle die, 1 prevented (the rulebook's Adventurer Turn Example)
    s, said = _engage_the_bandit(battle(), [1, 2, 5])
    assert "Dodge prevents 1" in said and s.battle.units["e1"].hp == 2


def test_dodge_works_once_per_engage():
    s = battle()
    c = ctx(s)
    engage = EngageRecord(attacker="a:S", idle_dice=2)
    harm.damage_enemy(c, "e1", 2, engage=engage, by="S", label="Test")
    harm.damage_enemy(c, "e1", 2, engage=engage, by="S", label="Test")
    assert c.unit("e1").hp == 1  # the first 2 are dodged, the second 2 are not
    assert texts(c.events).count("Dodge prevents") == 1


def test_an_afraid_dodger_does_not_dodge():
    s = battle()
    status_rules.give(ctx(s), s.battle.units["e1"], "fear", "Test")
    s, said = _engage_the_bandit(s, [3, 6, 5])
    assert "High Elf Bandit is afraid: Dodge does nothing." in said
    assert s.battle.units["e1"].hp == 1  # 2 damage taken


def test_old_pack_dodge_plays_as_before_even_when_afraid():
    s = battle(old=True)
    assert load_pack("starter", version=OLD).enemy_skills["dodge"].manual
    status_rules.give(ctx(s), s.battle.units["e1"], "fear", "Test")
    s, said = _engage_the_bandit(s, [3, 6, 5])
    assert "Dodge prevents 2" in said and "afraid" not in said
    assert s.battle.units["e1"].hp == 3


# -------------------------------------------------------------- reassemble --
def _skeleton_falls(s, forced_at_defeat):
    """The Skeleton (3 HP, defense 1) on 1,2 is dealt 4 damage by Shannon; ``forced_at_defeat`` is its roll."""
    become(s, "e1", "skeleton")
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    # Shield Discipline 2 + 2 -> 4 damage, defense prevents 1
    s, _ = run(s, "battle.engage", "S", {"target": "Skeleton", "dice": "2 shield-discipline"}, forced=[3, 4])
    s, ev = run(s, "battle.resolve", "S", {}, forced=forced_at_defeat)
    return s, texts(ev)


def test_reassemble_on_a_damage_result_stays_with_1_hp_the_first_time_only():
    s, said = _skeleton_falls(battle(), [2])  # the enemy Combat die shows 1 damage
    sk = s.battle.units["e1"]
    assert "Reassemble: Skeleton rolls 1 damage (2) and pulls itself together with 1 HP." in said
    assert (sk.hp, sk.defeated, (sk.q, sk.r)) == (1, False, (1, 2))
    assert s.battle.defeated_stack == [] and "defeat-skeleton" not in s.battle.achievements
    # the second time it falls, nothing is rolled
    c = ctx(s)
    harm.damage_enemy(c, "e1", 1, true=True, by="S")
    assert "Reassemble" not in texts(c.events)
    assert sk.defeated and s.battle.defeated_stack == ["skeleton"]
    assert s.battle.achievements["defeat-skeleton"] == "S"


def test_reassemble_on_a_blank_stays_down():
    s, said = _skeleton_falls(battle(), [1])  # blank
    assert "Reassemble: Skeleton rolls blank (1) and stays down." in said
    assert "Skeleton is defeated by Shannon" in said
    assert s.battle.units["e1"].defeated and s.battle.defeated_stack == ["skeleton"]


def test_an_afraid_skeleton_does_not_reassemble():
    s = battle()
    status_rules.give(ctx(s), become(s, "e1", "skeleton"), "fear", "Test")
    s, said = _skeleton_falls(s, [2])
    assert "Skeleton is afraid: Reassemble does nothing." in said and "rolls 1 damage" not in said
    assert s.battle.units["e1"].defeated


def test_old_pack_reassemble_plays_as_before():
    s = battle(old=True)
    status_rules.give(ctx(s), become(s, "e1", "skeleton"), "fear", "Test")  # fear never stopped it there
    s, said = _skeleton_falls(s, [2])
    assert "Reassemble: Skeleton rolls 1 damage (2) and pulls itself together with 1 HP." in said
    assert s.battle.units["e1"].hp == 1 and not s.battle.units["e1"].defeated


# ------------------------------------------------------------- pack hunter --
def _wolf(old=False, mate_next_to_shannon=True):
    """A Wolf (1 Combat die) next to Shannon; the Argonian Bandit next to her too, or far away."""
    s = battle(old)
    become(s, "e1", "wolf", (-1, 2))
    if mate_next_to_shannon:
        s.battle.units["e2"].q, s.battle.units["e2"].r = -2, 3
    return s


def test_pack_hunter_rolls_one_more_die_when_another_enemy_is_next_to_its_target():
    s, said, ev = enemy_phase(_wolf(), [4, 5, 1])  # the Wolf rolls 1 damage and 2 damage; the Bandit a blank
    assert "Pack Hunter: another enemy is next to Shannon, so Wolf rolls 1 more die." in said
    assert rolls(ev, "e1") == [4, 5]
    assert "Wolf engages Shannon: 🎲4 → {*1 damage*}, 🎲5 → {*2 damage*} = 3 damage each." in said
    assert s.adventurers["S"].hp == 2


def test_pack_hunter_alone_rolls_its_one_die():
    s, said, ev = enemy_phase(_wolf(mate_next_to_shannon=False), [5])
    assert "Pack Hunter" not in said and rolls(ev, "e1") == [5]
    assert s.adventurers["S"].hp == 3


def test_an_afraid_pack_hunter_rolls_its_one_die():
    s = _wolf()
    status_rules.give(ctx(s), s.battle.units["e1"], "fear", "Test")
    s, said, ev = enemy_phase(s, [5, 1])
    assert "Wolf is afraid: Pack Hunter does nothing." in said
    assert rolls(ev, "e1") == [5] and s.adventurers["S"].hp == 3


def test_old_pack_pack_hunter_plays_as_before():
    s, said, ev = enemy_phase(_wolf(old=True), [4, 5, 1])
    assert "Pack Hunter: another enemy is next to Shannon, so Wolf rolls 1 more die." in said
    assert rolls(ev, "e1") == [4, 5] and s.adventurers["S"].hp == 2


# ------------------------------------------------------------- mend allies --
def _grove(old=False):
    """An Elder Spriggan (Regenerate 2, Mend Allies 1) 2 hexes from Shannon, hurt by 3; a hurt High Elf Bandit
    next to it and a hurt Skeever Pup 3 hexes away."""
    s = battle(old)
    sp = become(s, "e2", "elder-spriggan", (0, 2))
    sp.hp -= 3
    s.battle.units["e1"].hp = 1  # High Elf Bandit on 1,2, next to the Spriggan
    extra_enemy(s, "e3", "skeever-pup", (3, 2), slot=3).hp = 1
    return s


def test_mend_allies_heals_each_other_enemy_within_2_hexes_at_the_end_of_its_turn():
    # the Spriggan (level 5) acts first and rolls 2 blanks; then the Bandit rolls a blank
    s, said, ev = enemy_phase(_grove(), [1, 1, 1])
    u = s.battle.units
    assert "Mend Allies 1: High Elf Bandit heals 1 HP." in said
    assert u["e1"].hp == 2  # 1 + 1
    assert u["e3"].hp == 1 and "Skeever Pup heals" not in said  # 3 hexes away
    assert u["e2"].hp == 7 - 3 + 2  # Regenerate 2 at the start of its turn; Mend Allies heals the others only
    assert said.index("Regenerate 2: Elder Spriggan heals 2 HP.") < said.index("Mend Allies 1")


def test_an_afraid_spriggan_mends_nobody():
    s = _grove()
    status_rules.give(ctx(s), s.battle.units["e2"], "fear", "Test")
    s, said, ev = enemy_phase(s, [1, 1, 1])
    assert "Elder Spriggan is afraid: Mend Allies 1 does nothing." in said
    assert s.battle.units["e1"].hp == 1


def test_old_pack_mend_allies_plays_as_before():
    s, said, ev = enemy_phase(_grove(old=True), [1, 1, 1])
    assert "Mend Allies 1: High Elf Bandit heals 1 HP." in said
    assert s.battle.units["e1"].hp == 2 and s.battle.units["e3"].hp == 1


# -------------------------------------------------------------- raise dead --
def _necromancer(old=False):
    """Shannon defeats the High Elf Bandit on 1,2; e2 is a High Elf Necromancer (level 10) on 4,1."""
    s = battle(old)
    c = ctx(s)
    harm.damage_enemy(c, "e1", 10, true=True, by="S")
    assert s.battle.defeated_stack == ["high-elf-bandit"] and s.battle.units["e1"].fell_at == [1, 2]
    become(s, "e2", "high-elf-necromancer")
    return s


def test_raise_dead_puts_the_top_level_1_enemy_back_with_full_hp_next_to_it():
    s = _necromancer()
    pack = load_pack("starter", version=s.pack_version)
    seen = {u["id"]: u for u in map_view(s, pack)["units"]}
    assert seen["e1"]["defeated"] and seen["e1"]["defeated_at"] == [1, 2]
    s, said, ev = enemy_phase(s, [1, 1, 1, 1])
    # every hex next to 4,1 is 1 away; 3,1 and 3,2 are closest to where the Bandit fell (1,2); 3,1 is first
    assert ("💀 Raise Dead: High Elf Necromancer raises the High Elf Bandit (HEB1) from the defeated enemy stack "
            "into hex 3,1 with full HP (3/3).") in said
    heb = s.battle.units["e1"]
    assert not heb.defeated and heb.fell_at is None and heb.short == "HEB1" and heb.level == 1
    assert heb.hp == heb.max_hp == 3
    assert s.battle.defeated_stack == []
    # it takes its turn this round, after the level 10 Necromancer
    assert "The High Elf Bandit takes its turn later this round" in said
    assert said.index("High Elf Necromancer moves") < said.index("High Elf Bandit moves 3,1")
    seen = {u["id"]: u for u in map_view(s, pack)["units"]}
    assert not seen["e1"]["defeated"] and "defeated_at" not in seen["e1"]
    assert (seen["e1"]["q"], seen["e1"]["r"]) == (heb.q, heb.r)
    # defeated again, it goes back on the stack; its achievement stays with whoever earned it first
    c = ctx(s)
    harm.damage_enemy(c, "e1", 10, true=True, by="R")
    assert s.battle.defeated_stack == ["high-elf-bandit"] and s.battle.achievements["defeat-high-elf-bandit"] == "S"
    assert "🏅" not in texts(c.events) and "High Elf Bandit is defeated by Ryan" in texts(c.events)


def test_raise_dead_takes_the_topmost_level_1_enemy_and_skips_other_levels():
    s = _necromancer()
    extra_enemy(s, "e3", "high-elf-marauder", (4, 3), slot=3)
    extra_enemy(s, "e4", "skeever-pup", (2, 4), slot=4)
    c = ctx(s)
    harm.damage_enemy(c, "e4", 10, true=True, by="S")
    harm.damage_enemy(c, "e3", 10, true=True, by="S")
    assert s.battle.defeated_stack == ["high-elf-bandit", "skeever-pup", "high-elf-marauder"]
    s, said, ev = enemy_phase(s, [1] * 6)
    assert "raises the Skeever Pup (SP4)" in said
    assert s.battle.defeated_stack == ["high-elf-bandit", "high-elf-marauder"]
    assert not s.battle.units["e4"].defeated and s.battle.units["e3"].defeated


def test_raise_dead_with_no_level_1_enemy_on_the_stack_raises_nothing():
    s = battle()
    become(s, "e2", "high-elf-necromancer")
    s, said, ev = enemy_phase(s, [1] * 4)
    assert "Raise Dead: the defeated enemy stack holds no level 1 enemy, so nothing rises." in said
    # an objective unit is set aside, not stacked: it never rises
    s = _necromancer()
    s.battle.objective, s.battle.objective_units = "eliminate", ["high-elf-bandit", "high-elf-necromancer"]
    s, said, ev = enemy_phase(s, [1] * 4)
    assert "nothing rises" in said and s.battle.units["e1"].defeated


def test_an_afraid_necromancer_raises_nothing():
    s = _necromancer()
    status_rules.give(ctx(s), s.battle.units["e2"], "fear", "Test")
    s, said, ev = enemy_phase(s, [1] * 4)
    assert "High Elf Necromancer is afraid: Raise Dead does nothing." in said
    assert s.battle.units["e1"].defeated and s.battle.defeated_stack == ["high-elf-bandit"]


def test_old_pack_raise_dead_is_shown_for_the_party():
    s, said, ev = enemy_phase(_necromancer(old=True), [1] * 4)
    assert "📝 Raise Dead: If the defeated enemy stack holds a level 1 enemy" in said
    assert "apply this yourselves" in said and s.battle.units["e1"].defeated


def test_the_new_effects_say_what_they_do():
    words = {k: describe(PACK.enemy_skills[k].effects[0]) for k in ("dodge", "reassemble", "pack-hunter", "raise-dead")}
    assert words == {
        "dodge": "reduce the damage of an engage by 1 for each die of its roll that dealt no damage",
        "reassemble": "the first time it is defeated in a battle, roll an enemy Combat die: on any damage result it "
                      "stays on the map with 1 HP instead",
        "pack-hunter": "add 1 enemy Combat die to its roll if another enemy is next to its target",
        "raise-dead": "put the topmost level 1 enemy of the defeated enemy stack back on the map with full HP in the "
                      "unoccupied hex closest to it"}
    assert describe(PACK.encounters["bandit-ambush"].challenge.effects[0]) == \
        "raise its Health by 1 for this battle, and its HP with it"


# ------------------------------------------------- Ambush at the Ford (3/4) --
def three(old=False):
    s = party()
    if old:
        s.pack_version = OLD
    s, _ = run(s, "campaign.join", "T")
    s, _ = run(s, "adventurer.create", "T", {"name": "Tova", "race": "nord", "line": "one-hand-and-shield"})
    return s


def test_ambush_challenge_gives_every_enemy_1_extra_hp_with_three_adventurers():
    s, ev = run(three(), "battle.start", "S", {"encounter": "bandit-ambush", "ep": 3})
    said = texts(ev)
    assert ("⚖️ 3/4-adventurer challenge (in play): With 3 or 4 adventurers: every enemy starts with 1 extra HP. "
            "The bot applies it.") in said
    foes = [u for u in s.battle.units.values() if u.side == "enemy"]
    assert len(foes) == 3
    for u in foes:
        health = PACK.enemies[u.enemy].health
        assert u.hp == u.max_hp == health + 1
        assert f"Ambush at the Ford (3/4-adventurer challenge): {u.name} has 1 extra HP ({health + 1}/{health + 1} HP)." \
            in said


def test_ambush_challenge_not_in_play_with_two_and_kept_pack_leaves_it_to_the_party():
    s, ev = run(party(), "battle.start", "S", {"encounter": "bandit-ambush", "ep": 2})
    assert "challenge (not in play with 2 adventurers)" in texts(ev)
    assert all(u.hp == PACK.enemies[u.enemy].health for u in s.battle.units.values() if u.side == "enemy")
    s, ev = run(three(old=True), "battle.start", "S", {"encounter": "bandit-ambush", "ep": 3})
    assert "every enemy starts with 1 extra HP. The party applies it." in texts(ev)
    assert all(u.hp == PACK.enemies[u.enemy].health for u in s.battle.units.values() if u.side == "enemy")


async def test_battle_status_says_the_ambush_challenge_is_in_play_and_applied(tmp_path):
    script = """
/campaign new name:Ford difficulty:adept
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
/as ryan
/campaign join
/adventurer create name:Ryan race:dark-elf line:destruction-staff
/as tova
/campaign join
/adventurer create name:Tova race:nord line:one-hand-and-shield
/as leader
/battle start encounter:bandit-ambush ep:3
/battle status
"""
    store = await Store.open(tmp_path / "x.db")
    out: list[str] = []
    try:
        local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "out", echo=out.append)
        errors = await local.run_script(script.strip().splitlines())
        state = await local.table.service.campaign("local")
    finally:
        await store.close()
    text = "\n".join(out)
    assert errors == 0, text
    status = text.rsplit("/battle status", 1)[1]
    assert "3/4-adventurer challenge (in play)" in status and "The bot applies it." in status
    for u in state.battle.units.values():
        if u.side == "enemy":
            assert f"HP {u.max_hp}/{u.max_hp}" in status and u.max_hp == PACK.enemies[u.enemy].health + 1


# ------------------------------------------------ the other enemy skills --
#: "after it engages" skills, each on an enemy of the pack that carries it.
AFTER_ENGAGING = {"enfeeble": "argonian-bandit", "venomous": "skeever-pup", "blinding": "scamp", "terrify": "clannfear",
                  "hamstring": "redguard-bandit", "stagger": "orc-bandit"}


@pytest.mark.parametrize("skill", sorted(AFTER_ENGAGING))
def test_after_it_engages_skills_reach_the_units_it_engaged(skill):
    s = battle()
    foe = become(s, "e1", AFTER_ENGAGING[skill], (-1, 2))  # next to Shannon; 2 hexes from Ryan
    off_map(s, "e2")
    carried = next(x for x in PACK.enemies[foe.enemy].skills if x.id == skill)
    eff = carried.effects[0]
    c = ctx(s)  # Shannon's Recovery at the start of round 2 takes these two, not what the skill gives
    track.gain_fatigue(s.adventurers["S"], "light", 2, c.track_size, party=s.adventurers.values(), supply=c.pack.supply)
    s, said, ev = enemy_phase(s, [5] * 4)  # 2 damage on each die
    engaged = next(e.data["targets"] for e in ev if e.kind == "enemy-roll")
    assert engaged and all(t in ("a:S", "a:R") for t in engaged)
    c = ctx(s)
    for t in engaged:
        u = c.unit(t)
        if eff["type"] == "status":
            assert c.has(u, eff["status"]), f"{skill}: {u.name} has no {eff['status']}"
        else:
            assert sum(1 for e in c.adv_of(u).cooldown if e.get("fatigue") == "light") == 1
        assert f"{carried.label}: {u.name} gains" in said


def test_riposte_deals_damage_to_the_adjacent_unit_that_damaged_it():
    s = battle()
    become(s, "e1", "imperial-bandit", (-1, 2))  # Riposte 1, defense 1
    s, _ = run(s, "battle.engage", "S", {"target": "Imperial Bandit", "dice": "combat"}, forced=[4])
    s, ev = run(s, "battle.resolve", "S", {})
    said = texts(ev)
    assert s.battle.units["e1"].hp == 2  # 2 damage, defense 1
    assert "Riposte 1: Shannon is dealt 1 damage" in said and s.adventurers["S"].hp == 4


def test_regenerate_heals_at_the_start_of_its_turn():
    s = battle()
    become(s, "e1", "spriggan").hp = 1  # Regenerate 1
    off_map(s, "e2")
    s, said, ev = enemy_phase(s, [1] * 2)
    assert "Regenerate 1: Spriggan heals 1 HP." in said and s.battle.units["e1"].hp == 2


def test_lurk_gives_stealth_at_the_start_of_battle():
    s = battle()
    u = become(s, "e1", "wood-elf-bandit")
    c = ctx(s)
    enemy.enemy_skills_at(c, u, "start of battle")
    assert c.has(u, "stealth") and "Wood Elf Bandit gains stealth" in texts(c.events)


def test_trample_deals_damage_to_each_adjacent_unit_it_did_not_engage():
    s = battle()
    foe = become(s, "e1", "argonian-behemoth", (-1, 1))  # Trample 1; next to both adventurers
    c = ctx(s)
    enemy.enemy_skills_at(c, foe, "after it engages", engaged=["a:S"], damaged=["a:S"])
    assert s.adventurers["R"].hp == 3 and s.adventurers["S"].hp == 5
    assert "Trample 1: Ryan is dealt 1 damage" in texts(c.events)


#: Every enemy skill of the pack and the test that plays it.
PLAYED = {
    "dodge": "test_dodge_prevents_one_damage_for_each_die_that_dealt_none",
    "reassemble": "test_reassemble_on_a_damage_result_stays_with_1_hp_the_first_time_only",
    "pack-hunter": "test_pack_hunter_rolls_one_more_die_when_another_enemy_is_next_to_its_target",
    "mend-allies": "test_mend_allies_heals_each_other_enemy_within_2_hexes_at_the_end_of_its_turn",
    "raise-dead": "test_raise_dead_puts_the_top_level_1_enemy_back_with_full_hp_next_to_it",
    "riposte": "test_riposte_deals_damage_to_the_adjacent_unit_that_damaged_it",
    "regenerate": "test_regenerate_heals_at_the_start_of_its_turn",
    "lurk": "test_lurk_gives_stealth_at_the_start_of_battle",
    "trample": "test_trample_deals_damage_to_each_adjacent_unit_it_did_not_engage",
    **{k: "test_after_it_engages_skills_reach_the_units_it_engaged" for k in AFTER_ENGAGING},
}


def test_every_enemy_skill_of_the_pack_is_played():
    missing = [f"{s.name} ({s.id})" for s in PACK.enemy_skills.values() if PLAYED.get(s.id) not in globals()]
    assert not missing, "enemy skills without a test: " + ", ".join(missing)


@pytest.mark.parametrize("revision", [3, 2])
def test_an_adventurer_who_falls_on_their_own_turn_gives_up_the_turn(revision):
    """p.67: a defeated adventurer cannot take turns.  Shannon (1 HP) engages an Imperial Bandit whose Riposte deals
    her 1 damage: she falls during her own turn, and from revision 3 the turn passes on by itself (Ryan's turn
    starts); before, she ended it with /endturn."""
    s = party(rules_revision=revision)
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    become(s, "e1", "imperial-bandit", (-1, 2))
    s.adventurers["S"].hp = 1
    assert s.battle.turn.owner == "S"
    s, _ = run(s, "battle.engage", "S", {"target": "Imperial Bandit", "dice": "combat"}, forced=[4])
    s, ev = run(s, "battle.resolve", "S", {})
    said = texts(ev)
    assert "Riposte 1: Shannon is dealt 1 damage" in said and "Shannon is defeated and leaves the map" in said
    if revision >= 3:
        assert "Shannon is defeated, so the turn passes on." in said
        assert s.battle.turn.owner == "R" and "Ryan's turn" in said
    else:
        assert s.battle.turn.owner == "S" and "turn passes on" not in said
        s, ev = run(s, "battle.endturn", "S", {})
        assert s.battle.turn.owner == "R"
