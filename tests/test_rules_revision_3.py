"""Rules revision 3 (and the skirmish's revision 2): choices are never lost in silence, two rule faults fixed.

Each behaviour is checked on the new revision and, where a campaign on an older revision must replay as it
played, on that revision too.  The local-table tests play the commands as a group would.
"""
from __future__ import annotations

import pytest
from battle_helpers import jailbreak, party, run, texts

from engine.core import Confirm, RuleError
from rulesets.tes.battle import pool, track
from rulesets.tes.content import load_pack
from helpers.table import play


def _on(rules):
    s = party()
    s.rules = rules
    return s


# ------------------------------------------------------------------ item 2: an engage with no dice --
@pytest.mark.parametrize("args", [{}, {"dice": [["combat", 0]]}, {"dice": "0 shield-discipline"}])
def test_an_engage_with_no_dice_asks_and_goes_ahead_only_on_yes(args):
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    before = s.to_dict()
    with pytest.raises(Confirm, match="Engage with no dice\\? It rolls nothing and counts as your engage") as asked:
        run(s, "battle.engage", "S", args)
    assert "confirm:yes" in asked.value.message and asked.value.label == "Engage with no dice"
    assert s.to_dict() == before  # asking changes nothing
    s, ev = run(s, "battle.engage", "S", args | {"confirm": True})
    assert s.battle.turn.engages == 1 and s.battle.pending is None
    assert "Shannon engages in Light Weapon form with no target, rolling no dice." in texts(ev)
    # it was the turn's engage: the next one is an extra engage, and its question says so first
    with pytest.raises(Confirm, match="another engage this turn \\(1 light fatigue\\)"):
        run(s, "battle.engage", "S", {})
    light = track.count(s.adventurers["S"], fatigue="light")
    s, ev = run(s, "battle.engage", "S", {"dice": "combat"}, forced=[1])
    assert "engages again this turn and gains 1 light fatigue" in texts(ev)
    assert track.count(s.adventurers["S"], fatigue="light") == light + 1


def test_an_engage_with_dice_or_a_weapon_is_not_asked_about():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, ev = run(s, "battle.engage", "S", {"dice": "combat"}, forced=[1])
    assert s.battle.pending is not None


def test_older_revisions_engage_with_no_dice_as_they_did():
    """Logs written before revision 3 replay as they played: revisions 0 and 1 took a bare engage (the first
    releases did), revision 2 refused it and took dice:"0 ..." silently."""
    for rules in (0, 1):
        s, _ = jailbreak(_on(rules), {"S": "-2,2", "R": "-2,1"})
        s, ev = run(s, "battle.engage", "S", {})
        assert s.battle.turn.engages == 1 and "rolling no dice" in texts(ev)
    s, _ = jailbreak(_on(2), {"S": "-2,2", "R": "-2,1"})
    with pytest.raises(RuleError, match="Say what to roll"):
        run(s, "battle.engage", "S", {})
    s, ev = run(s, "battle.engage", "S", {"dice": "0 shield-discipline"})
    assert s.battle.turn.engages == 1


SOLO = """
/campaign new name:"Jail" difficulty:adept
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
/force 2
/battle start encounter:jailbreak deploy:-2,2
"""


async def test_at_the_local_table_a_bare_engage_is_asked_about_and_the_button_says_yes(tmp_path):
    from engine.store import Store

    store = await Store.open(tmp_path / "t.db")
    try:
        errors, text, local = await play(store, tmp_path, "jail", SOLO + "/engage")
        assert errors == 0, text
        asked = local.last
        assert asked.ephemeral and "Engage with no dice? It rolls nothing and counts as your engage" in asked.content
        yes = next(b for b in asked.buttons if b.label == "Engage with no dice")
        state = await local.table.service.campaign("jail")
        assert state.battle.turn.engages == 0
        errors, text, local = await play(store, tmp_path, "jail", f"/click {yes.custom_id}\n/click {yes.custom_id}")
        assert errors == 1 and "rolling no dice" in text and "out of date" in text, text  # the second is stale
        state = await local.table.service.campaign("jail")
        assert state.battle.turn.engages == 1
        errors, text, _ = await play(store, tmp_path, "jail", '/engage dice:"0 shield-discipline" confirm:yes')
        assert errors == 0 and "gains 1 light fatigue" in text, text
    finally:
        await store.close()


# ---------------------------------------------------------- item 3: choices never lost in silence --
@pytest.mark.parametrize("order", [[], "none", "0"])
def test_resolving_none_of_a_roll_says_what_was_given_up(order):
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "2 shield-discipline"}, forced=[3, 4])
    s, ev = run(s, "battle.resolve", "S", {"order": order})
    said = texts(ev)
    assert ("Shannon resolves none of the roll: 1. Shield Discipline (2 damage), 2. Shield Discipline (2 damage) go "
            "unresolved (a skill die is exhausted to the cooldown track).") in said
    assert said.splitlines()[0] in s.battle.log[-1] or any("resolves none" in x for x in s.battle.log)
    assert s.battle.units["e1"].hp == s.battle.units["e1"].max_hp


def test_resolving_some_dice_names_the_ones_left_out():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "2 shield-discipline"}, forced=[3, 4])
    s, ev = run(s, "battle.resolve", "S", {"order": [2]})
    assert "resolves only some dice: 1. Shield Discipline (2 damage) goes unresolved" in texts(ev)


def test_resolving_none_on_an_older_revision_says_it_without_keeping_it():
    s, _ = jailbreak(_on(2), {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, _ = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "combat"}, forced=[3])
    s, ev = run(s, "battle.resolve", "S", {"order": []})
    assert "resolves none of the roll" in texts(ev)
    assert not any("resolves none" in x for x in s.battle.log)  # its saved battle replays as it was saved


async def test_the_resolve_none_button_posts_what_was_discarded_and_logs_it(tmp_path):
    from engine.store import Store

    store = await Store.open(tmp_path / "t.db")
    try:
        errors, text, local = await play(store, tmp_path, "jail", SOLO + "/move to:0,2\n/force 3 4\n"
                                         '/engage target:"High Elf Bandit" dice:"2 shield-discipline"')
        assert errors == 0, text
        none = next(b for b in local.last.buttons if b.label == "Resolve none")
        errors, text, local = await play(store, tmp_path, "jail", f"/click {none.custom_id}")
        assert errors == 0 and "Shannon resolves none of the roll: 1. Shield Discipline" in local.last.content, text
        entry = (await local.table.service.log("jail", limit=1))[0]
        assert entry.type == "battle.resolve" and any("resolves none" in e["text"] for e in entry.events)
    finally:
        await store.close()


def test_a_second_move_that_gives_up_the_engage_is_asked_about_and_says_why_after():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.move", "S", {"to": "-1,2"})
    with pytest.raises(Confirm, match="A second move gives up your engage") as asked:
        run(s, "battle.move", "S", {"to": "0,2"})
    assert asked.value.yes_args == {"path": [[0, 2]]}
    s, ev = run(s, "battle.move", "S", {"path": [[0, 2]], "confirm": True})
    assert "Shannon moved twice this turn, so no engage is left this turn." in texts(ev)
    with pytest.raises(RuleError, match="You moved twice this turn"):
        run(s, "battle.engage", "S", {"dice": "combat"})
    # a move after an engage is the turn's one move: nothing to ask
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.engage", "S", {"confirm": True})
    s, _ = run(s, "battle.move", "S", {"to": "-1,2"})
    # revision 2 moved twice without asking, as its logs did
    s, _ = jailbreak(_on(2), {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.move", "S", {"to": "-1,2"})
    s, ev = run(s, "battle.move", "S", {"to": "0,2"})
    assert s.battle.turn.moves == 2 and "moved twice" in texts(ev)
    assert not any("moved twice" in x for x in s.battle.log)


async def test_at_the_local_table_the_second_move_asks_and_its_button_moves(tmp_path):
    from engine.store import Store

    store = await Store.open(tmp_path / "t.db")
    try:
        errors, text, local = await play(store, tmp_path, "jail", SOLO + "/move to:-1,2\n/move to:0,2")
        assert errors == 0 and local.last.ephemeral and "A second move gives up your engage" in local.last.content
        yes = next(b for b in local.last.buttons if b.label == "Move a second time")
        errors, text, local = await play(store, tmp_path, "jail", f"/click {yes.custom_id}")
        assert errors == 0 and "makes a second move: -1,2 → 0,2" in text and "moved twice this turn" in text, text
    finally:
        await store.close()


def test_an_ability_with_nothing_to_recover_is_asked_about():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.endturn", "S")
    ryan = s.adventurers["R"]  # a Dark Elf: Ashen Resolve takes skill dice back from the cooldown track
    assert not track.recoverable(ryan, "skill")
    with pytest.raises(Confirm, match="Ashen Resolve would change nothing now: Ryan has no skill dice on the "
                                      "cooldown track. It works once per battle: use it anyway"):
        run(s, "battle.ability", "R", {"name": "race"})
    s2, ev = run(s, "battle.ability", "R", {"name": "race", "confirm": True})
    assert s2.adventurers["R"].race_ability_used
    # with a skill die on the track it is simply used
    ryan.cooldown.insert(0, {"die": next(iter(ryan.dice))})
    s3, ev = run(s, "battle.ability", "R", {"name": "race"})
    assert "recovers 1 skill die" in texts(ev)


def test_a_class_ability_with_nothing_to_recover_says_what_it_would_cost():
    s = party()
    s.adventurers["R"].class_id, s.adventurers["R"].tenacity = "sorcerer", 2
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s, _ = run(s, "battle.endturn", "S")
    with pytest.raises(Confirm, match="Dark Bargain would change nothing now: Ryan has no skill dice on the "
                                      "cooldown track. It would still cost 1 tenacity"):
        run(s, "battle.ability", "R", {"name": "dark-bargain"})
    s.rules = 2  # revision 2 spent it as asked
    had = s.adventurers["R"].tenacity
    s2, ev = run(s, "battle.ability", "R", {"name": "dark-bargain"})
    assert s2.adventurers["R"].tenacity == had - 1 and "spends 1 tenacity on Dark Bargain" in texts(ev)


def test_a_race_ability_that_would_only_heal_or_give_tenacity_is_asked_about_when_it_cannot():
    s = party()
    s.adventurers["S"].race = "imperial"  # Legion Drill: gain 2 tenacity
    s.adventurers["S"].tenacity = 5
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    with pytest.raises(Confirm, match="Legion Drill would change nothing now: Shannon has the most tenacity \\(5/5\\)"):
        run(s, "battle.ability", "S", {"name": "race"})
    s.adventurers["S"].tenacity = 4
    s, ev = run(s, "battle.ability", "S", {"name": "race"})
    assert "gains 1 tenacity (5/5)" in texts(ev)
    # Scaled Recovery (heal 2, discard a status) at full HP with no status die: asked; hurt: used
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    with pytest.raises(Confirm, match="Scaled Recovery would change nothing now: Shannon has full HP \\(5/5\\) and "
                                      "no status dice on the cooldown track"):
        run(s, "battle.ability", "S", {"name": "race"})
    s.adventurers["S"].hp = 3
    s, ev = run(s, "battle.ability", "S", {"name": "race"})
    assert s.adventurers["S"].hp == 5


LEADER_AND_CARA = """
/campaign new name:"Jail" difficulty:adept
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
@cara /campaign join
/force 2
/battle start encounter:jailbreak deploy:-2,2
"""


async def test_starting_the_jailbreak_while_a_member_has_no_adventurer_warns_and_asks(tmp_path):
    from engine.store import Store

    store = await Store.open(tmp_path / "t.db")
    try:
        errors, text, local = await play(store, tmp_path, "jail", LEADER_AND_CARA)
        assert errors == 0, text
        asked = local.last
        assert asked.ephemeral and "@cara has no adventurer yet and would sit **Jailbreak Introduction** out" in \
            local.show(asked.content) and "decides the classes" in asked.content
        assert (await local.table.service.campaign("jail")).battle is None
        start = next(b for b in asked.buttons if b.label == "Start without them")
        errors, text, local = await play(store, tmp_path, "jail", f"/click {start.custom_id}")
        assert errors == 0 and "Battle 1: **Jailbreak Introduction**" in text, text
        state = await local.table.service.campaign("jail")
        assert state.battle.order == ["leader"]
    finally:
        await store.close()


async def test_a_retreat_is_confirmed_and_names_who_called_it(tmp_path):
    from engine.store import Store

    store = await Store.open(tmp_path / "t.db")
    try:
        errors, text, local = await play(store, tmp_path, "jail", SOLO + "/battle retreat")
        assert errors == 0 and local.last.ephemeral and "Retreat from **Jailbreak Introduction**?" in text, text
        assert (await local.table.service.campaign("jail")).battle.retreat is False
        yes = next(b for b in local.last.buttons if b.label == "Retreat")
        errors, text, local = await play(store, tmp_path, "jail", f"/click {yes.custom_id}\n@cara /battle retreat")
        assert "🏳️ @leader calls the retreat: the battle ends, failed, at the end of this round." in text, text
        assert "party agrees" not in text
        state = await local.table.service.campaign("jail")
        assert state.battle.retreat and any("calls the retreat" in x for x in state.battle.log)
        errors, text, _ = await play(store, tmp_path, "jail", "/battle retreat confirm:yes")
        assert errors == 1 and "already retreating" in text
    finally:
        await store.close()


def test_after_the_last_enemy_falls_the_battle_says_it_ends_with_the_round():
    s, _ = jailbreak(party(), {"S": "-2,2", "R": "-2,1"})
    s.battle.units["e2"].defeated, s.battle.units["e2"].q, s.battle.units["e2"].r = True, None, None
    s, _ = run(s, "battle.move", "S", {"to": "0,2"})
    s, ev = run(s, "battle.engage", "S", {"target": "HEB1", "dice": "2 shield-discipline"}, forced=[4, 4])
    s, ev = run(s, "battle.resolve", "S", {})
    assert ("🏁 The objective is achieved: the battle ends in victory at the end of this round. Whoever has a turn "
            "left this round may still take it (a cache, a move) or `/endturn`.") in texts(ev)
    s, ev = run(s, "battle.endturn", "S")
    assert s.battle is not None and s.battle.turn.owner == "R"
    s, ev = run(s, "battle.endturn", "R")
    assert s.battle is None and "Victory!" in texts(ev)


# ------------------------------------------------------------------ item 6: two rule faults --
def test_the_pool_never_draws_the_chip_of_a_named_enemy_on_the_map():
    """pp.21 and 54: a chip on the map is not in the bag.  The Skeleton Warden is the Skeleton chip's level 5
    side: with the Warden set up first, neither side of that chip is drawn, whatever the dice say.  (The bag of a
    battle outside a session holds the chips without a province code, p.15.)"""
    from engine.core import Dice

    pack = load_pack("starter")
    bag5 = sorted(c for c, e in {e.chip: e for e in pack.enemies.values() if e.level == 5 and not e.province}.items())
    assert len(bag5) >= 4
    for i in range(len(bag5) - 1):  # every pick the bag left allows
        drawn = pool.draw(pack, [5, 1, 1], Dice(seed=1, forced=[i + 1, 1, 1]), on_map=("skeleton-warden",))
        assert not {"skeleton", "skeleton-warden"} & set(drawn), (i, drawn)


def test_a_crypt_battle_on_revision_3_has_one_skeleton_warden():
    for seed in range(40):
        s = party()
        s.seed = seed
        s, _ = run(s, "battle.start", "S", {"encounter": "crypt-of-bones", "ep": 12})
        chips = [load_pack("starter").enemies[u.enemy].chip for u in s.battle.units.values() if u.side == "enemy"]
        assert chips.count("skeleton") == 1, (seed, chips)


def test_on_revision_2_the_crypt_still_draws_as_it_did():
    """A campaign begun on revision 2 draws as its log did (a second Skeleton chip could come)."""
    seen = set()
    for seed in range(40):
        s = _on(2)
        s.seed = seed
        s, _ = run(s, "battle.start", "S", {"encounter": "crypt-of-bones", "ep": 12})
        chips = [load_pack("starter").enemies[u.enemy].chip for u in s.battle.units.values() if u.side == "enemy"]
        seen.add(chips.count("skeleton"))
    assert seen & {2}


# a skirmish: Channel Magic makes dice for magical abilities only (the skirmish's rules revision 2)
def _skirmish(rules):
    from test_skirmish_rules import B, L, LENA_FIRST, Game

    g = Game()
    g.do(L, "campaign.new", name="Test", ruleset="skirmish", channel_id="c1", guild_id="g1", seed=7, rules=rules)
    g.do(L, "skirmish.warband", faction="wardens")
    for t in ("thornspeaker", "bramble-guard"):
        g.do(L, "skirmish.recruit", fighter=t)
    g.do(L, "skirmish.deploy")
    g.do(B, "skirmish.warband", faction="reavers")
    for t in ("ashcaller", "ember-runner"):
        g.do(B, "skirmish.recruit", fighter=t)
    g.do(B, "skirmish.deploy")
    g.do(L, "skirmish.start", forced=LENA_FIRST)
    g.do(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.channel", forced=[5], mode="new")  # die 2: a channelled double of 3
    return g


def test_a_channelled_die_pays_only_for_a_magical_ability():
    from rulesets.skirmish.state import RULES

    g = _skirmish(RULES)
    assert g.state.rules >= 2 and g.dice("lena")[1] == ("double", 3, True)
    why = g.refused("lena", "skirmish.ability", name="surge", die=2, to="1,5")
    assert why == ("Die 2 was made by Channel Magic: it pays only for a magical ability (Spark, Wildfire), and "
                   "Surge is not one. Pay with die 1 instead.")
    g.do("lena", "skirmish.ability", name="surge", die=1, to="1,5")  # the initiative die pays for it
    assert g.f("a1").hex == (1, 5)


def test_a_channelled_die_pays_for_spark():
    g = _skirmish(2)
    g.put("b1", 4, 5)
    g.do("lena", "skirmish.ability", name="spark", die=2, target="b1")
    assert "Thornspeaker uses Spark, paying with die 2" in g.text() and g.f("b1").damage == 3


def test_on_the_first_skirmish_revision_a_channelled_die_still_pays_for_any_ability():
    g = _skirmish(1)
    g.do("lena", "skirmish.ability", name="surge", die=2, to="1,5")
    assert g.f("a1").hex == (1, 5) and "paying with die 2" in g.text()


def test_skirmish_packs_mark_the_magical_abilities():
    from rulesets.skirmish.content import load_pack as skirmish_pack

    pack = skirmish_pack("skirmish")
    assert sorted(a.id for a in pack.abilities.values() if a.magical) == ["spark", "wildfire"]
