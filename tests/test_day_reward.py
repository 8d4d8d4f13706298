"""The Reward Phase (p.43) and advancements (p.31): costs by column and side, prerequisites, the Cooldown stat,
tenacity, what a menu offers, untraining and its limits, the XP cap, and promotion."""
from __future__ import annotations

from day_helpers import RYAN, SHANNON, at_card, examples_party, refused, run, said

from rulesets.tes.content import load_pack
from rulesets.tes.outcomes import mat

PACK = load_pack("starter")


def reward_step(xp=3, setup=None):
    """Day 2 after Read the Carvings (1 XP and 1 bonus XP each): the Reward Phase waits; XP set to ``xp``."""
    s, _ = at_card("ge-p03", setup=setup)
    assert s.days.ask.kind == "reward"
    for adv in s.adventurers.values():
        adv.saved_xp = xp
    return s


def test_costs_follow_the_column_and_the_side_of_the_token():
    s = examples_party()
    ryan, shannon = s.adventurers[RYAN], s.adventurers[SHANNON]
    # Ryan's Stamina on the left of row 2 with 2 squares: the 3rd square from the left costs 2 (white box)
    offers = {o.key: o.cost for o in mat.purchases(s, ryan, PACK)}
    assert offers["stat:stamina"] == 2
    # his Combat on the right of row 2 with 2 dice: the next Combat die is the 3rd from the right: 2 (black box)
    assert offers["die:combat"] == 2
    # Shannon's One Hand and Shield on the right of row 4 (2 dice) faces Magicka on the left (2 squares):
    assert {o.key: o.cost for o in mat.purchases(s, shannon, PACK)}["stat:magicka"] == 2
    assert offers["cooldown"] == 3  # the new value: 2 -> 3 costs 3
    assert offers["tenacity"] == 1


def test_a_die_of_level_2_to_4_needs_one_of_its_level_or_the_level_below():
    s = examples_party()
    ryan = s.adventurers[RYAN]
    keys = {o.key for o in mat.purchases(s, ryan, PACK)}
    assert "die:ember-rune" in keys  # level 2 Destruction Staff: he has level 1 Force Shock
    assert "die:storm-wall" not in keys and "die:tempest" not in keys  # levels 3 and 4 wait
    ryan.saved_xp = 5
    msg = ""
    try:
        mat.buy(s, ryan, PACK, "die:storm-wall")
    except Exception as exc:  # noqa: BLE001
        msg = str(exc)
    assert "level 3 die needs another Destruction Staff die of level 3 or 2" in msg


def test_only_what_a_player_can_afford_is_offered():
    s = examples_party()
    ryan = s.adventurers[RYAN]
    # 1 XP buys the first Health square (cost 1) or tenacity; a third Force Shock goes in a square costing 2
    assert {o.key for o in mat.purchases(s, ryan, PACK, 1)} == {"stat:health", "tenacity"}


def test_buying_in_the_reward_phase_and_refusals():
    s = reward_step(xp=3)
    assert "costs 3 XP" not in refused(s, "reward.buy", RYAN, {"what": "die:tempest"})
    s, ev = run(s, "reward.buy", RYAN, {"what": "stat:health"})
    ryan = s.adventurers[RYAN]
    assert ryan.max_hp == 5 and "adds a Health square" in said(ev)  # the Health stat rises: HP with it
    s, ev = run(s, "reward.buy", RYAN, {"what": "cooldown"}) if ryan.saved_xp >= 3 else (s, [])
    assert "costs 3 XP and Ryan has 2" in refused(s, "reward.buy", RYAN, {"what": "cooldown"})
    s, ev = run(s, "reward.buy", RYAN, {"what": "tenacity"})
    assert s.adventurers[RYAN].tenacity == 1 and s.adventurers[RYAN].saved_xp == 1


def test_untraining_limits_and_untraining_comes_first():
    s = reward_step(xp=3)
    assert "cannot untrain the Health stat" in refused(s, "reward.untrain", RYAN, {"what": "line:health"})
    assert "cannot untrain the Stamina stat" in refused(s, "reward.untrain", RYAN, {"what": "line:stamina"})
    assert "cannot untrain the Combat skill line" in refused(s, "reward.untrain", RYAN, {"what": "line:combat"})
    s, ev = run(s, "reward.untrain", RYAN, {"what": "square:stamina"})  # its squares can be untrained
    assert s.adventurers[RYAN].stat("stamina") == 1
    s, ev = run(s, "reward.untrain", RYAN, {"what": "die:combat"})  # and Combat's dice
    assert sum(1 for d in s.adventurers[RYAN].dice.values() if d["type"] == "combat") == 1
    assert "no XP back" in said(ev) and s.adventurers[RYAN].saved_xp == 3
    s, ev = run(s, "reward.untrain", RYAN, {"what": "line:magicka"})  # Magicka can go
    assert s.adventurers[RYAN].find_slot("stat", "magicka") is None
    s, _ = run(s, "reward.buy", SHANNON, {"what": "tenacity"})
    assert "untraining comes first" in refused(s, "reward.untrain", SHANNON, {"what": "square:stamina"})


def test_untraining_a_line_takes_its_dice_and_the_rest_slide_to_the_token():
    s = reward_step(xp=3)
    ryan = s.adventurers[RYAN]
    # Destruction Staff on row 4 left with 2 Force Shock: untrain one, the other stays next to the token
    first = next(i for i, sq in enumerate(ryan.rows[3].squares) if sq)
    ryan.cooldown.append({"die": ryan.rows[3].squares[first]["die"]})  # an exhausted one goes first
    s, _ = run(s, "reward.untrain", RYAN, {"what": "die:force-shock"})
    ryan = s.adventurers[RYAN]
    assert ryan.rows[3].squares[0] is not None and ryan.rows[3].squares[1] is None
    assert not any("die" in e for e in ryan.cooldown)
    s, ev = run(s, "reward.untrain", RYAN, {"what": "line:destruction-staff"})
    ryan = s.adventurers[RYAN]
    assert "destruction-staff" not in ryan.lines() and not any(d["line"] == "destruction-staff"
                                                               for d in ryan.dice.values())


def test_unspent_xp_above_3_becomes_tenacity_or_is_lost():
    s = reward_step(xp=3)
    s.adventurers[RYAN].saved_xp = 6
    s.adventurers[RYAN].tenacity = 4
    s.adventurers[SHANNON].saved_xp = 5
    s, _ = run(s, "reward.done", RYAN)
    s, ev = run(s, "reward.done", SHANNON)
    text = said(ev)
    assert s.adventurers[RYAN].saved_xp == 3 and s.adventurers[RYAN].tenacity == 5
    assert "Ryan keeps 3 XP: 3 more become 1 tenacity (5) and 2 are lost" in text
    assert s.adventurers[SHANNON].saved_xp == 3 and s.adventurers[SHANNON].tenacity == 2


def test_xp_is_spent_only_in_the_reward_phase():
    s = examples_party()
    s, _ = run(s, "day.start", RYAN, {})
    assert "not waiting" in refused(s, "reward.buy", RYAN, {"what": "tenacity"})


def test_a_class_is_promoted_when_its_requirement_is_met():
    s = examples_party()
    msg = refused(s, "adventurer.promote", RYAN)
    assert "Defeat a level 5 or higher enemy with magic form dice" in msg and "confirm" in msg
    s, ev = run(s, "adventurer.promote", RYAN, {"confirm": True})
    assert s.adventurers[RYAN].class_side == "master" and "master side" in said(ev)
    assert "already on its master side" in refused(s, "adventurer.promote", RYAN, {"confirm": True})


def test_component_limits_hold_for_dice():
    s = examples_party()
    ryan = s.adventurers[RYAN]
    ryan.saved_xp = 20
    mat.buy(s, ryan, PACK, "die:ember-rune")
    mat.buy(s, ryan, PACK, "die:ember-rune")
    assert "die:ember-rune" not in {o.key for o in mat.purchases(s, ryan, PACK)}  # count 2, both in use
