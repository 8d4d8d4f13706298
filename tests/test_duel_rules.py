"""The duel's rules with forced dice: every sentence of the rule text (file 002), in its order.

Unless a test says otherwise: Ann plays a Sellsword (Might 3, Finesse 2, Wit 1, Resolve 2; Grit 10; Chain Coat)
and Bob a Hedge Witch (Might 1, Finesse 2, Wit 3, Resolve 2; Grit 7; Warded Cloak) or a Pilgrim; both at Fame 0,
against the Cave Troll (Rank 3, Grit 14; Might 3, Finesse 1, Wit 1, Resolve 2), which therefore holds the
Priority token: turn order Troll, Ann, Bob; Bob places and reveals first.  The Troll's procedure: 1-4 Boulder
Toss (Priority 4, at the least Grit), 5-9 Crushing Swing (Priority 7, at the most Fame), 10-12 Stony Hide
(Priority 11, Block 2 this round).
"""
from __future__ import annotations

import pytest

from duel_helpers import Table, fight
from rulesets.duel.state import Effect

WITCH = {"ann": "sellsword", "bob": "hedge-witch"}
PILGRIM = {"ann": "sellsword", "bob": "pilgrim"}
ZERO = {"ann": 0, "bob": 0}


def troll(heroes=WITCH, **kw):
    kw.setdefault("fame", ZERO)
    return fight(heroes, **kw)


# ---------------------------------------------------------------- the fight --
def test_fights_pit_characters_against_monsters_and_each_other():
    t = troll()
    assert t.fight.kind == "monster" and t.fight.step == "place"
    assert [f.name for f in t.fight.fighters.values()] == ["Cave Troll", "Ann", "Bob"]
    r = fight({"ann": "sellsword", "bob": "duelist"}, monster=None, rival="bob")
    assert r.fight.kind == "rivals" and r.f("ann").side == 0 and r.f("bob").side == 1
    assert "Ann challenges Bob to a fight" in r.text()


def test_players_not_in_the_fight_cannot_affect_it():
    t = Table()
    t.character("ann", "sellsword")
    t.character("bob", "hedge-witch")
    t.character("cy", "pilgrim")
    for who in ("ann", "bob", "cy"):
        t.state.characters[who].fame = 4 if who == "cy" else 0
    t.run("ann", "duel.fight", monster="cave-troll")
    t.run("ann", "duel.join", choice="in.chain-coat")
    t.run("bob", "duel.join", choice="in")
    t.run("cy", "duel.join", choice="out")
    assert "Cy stays out of the fight." in t.text()
    assert "c:cy" not in t.fight.fighters
    # Cy is never asked to place, and can't place or reroll; Cy's Fame (4) is not offered after any roll
    assert t.prompt.owner == "bob"
    assert "players outside a fight can't affect it" in t.refused("cy", "duel.place", cards=["lure"])
    t.place("bob", "firebolt")
    t.force(10, 9, 9, 9)  # Stony Hide; Bob's Firebolt 9 9 9
    t.run("ann", "duel.pass")
    assert t.prompt is None or t.prompt.owner != "cy"
    assert all(line.find("Cy") < 0 for line in t.lines[-12:])


def test_anyone_may_roll_for_the_monster_the_bot_does_it_and_fame_rerolls_apply():
    t = troll(fame={"ann": 2, "bob": 0})  # the troll (Rank 3) still holds the token
    t.place("bob")
    t.force(5, 9, 9, 2)  # procedure: Crushing Swing at the most Fame (Ann); its attack roll 9 9 2
    t.place("ann")
    assert t.fight.roll.by == "m:cave-troll" and t.fight.roll.dice == [9, 9, 2]
    assert t.prompt.kind == "fame" and t.prompt.owner == "ann"  # after the roller: Ann
    t.force(1)
    t.run("ann", "duel.reroll", die=1)
    assert t.fight.roll.dice == [1, 9, 2] and t.state.characters["ann"].fame == 0
    assert "Ann spends 2 Fame (now 0) to reroll die 1" in t.text()


def test_a_fight_lasts_until_every_participant_of_a_side_is_below_1_grit():
    t = troll()
    t.f("bob").grit = 1
    t.place("bob")
    t.force(1, 9, 9, 9)  # Boulder Toss at the least Grit (Bob): hit
    t.place("ann")
    assert t.f("bob").recalled and "Bob is at 0 Grit: Recalled, Bob leaves the fight." in t.text()
    assert not t.fight.over and t.fight.step == "place" and t.prompt.owner == "ann"  # Ann fights on alone
    t.f("ann").grit = 2
    t.force(1, 9, 9, 9)
    t.place("ann")
    assert t.fight.over and t.f("ann").recalled
    assert "The fight is over: the Cave Troll has defeated every character." in t.text()


# ------------------------------------------------------------------- dice --
def test_twelve_sided_dice_as_many_as_the_tier():
    t = troll()
    t.place("bob", "firebolt")
    t.force(10, 12, 1, 1)  # Stony Hide; Bob's Wit is Tier 3: three dice
    t.place("ann")
    assert t.fight.roll.dice == [12, 1, 1] and t.fight.roll.skill == "wit"
    t2 = troll()
    t2.place("bob", "firebolt")
    t2.force(10, 13, 1, 1)
    assert "does not fit a die with 12 sides" in t2.refused("ann", "duel.place", cards=[])


def test_a_bonus_on_each_die_the_rulebook_example():
    """+1 on a roll of 11, 7 and 3 is 12, 8 and 4."""
    t = troll(PILGRIM)
    t.place("bob", "blessing", ally="c:ann")
    t.force(1, 8, 2, 11, 7, 3, 1, 1, 1)  # Boulder Toss; Blessing 8 2; Ann's Base Attack 11 7 3; Boulder 1 1 1
    t.place("ann", "base-attack", base=["attack"])
    assert "Ann has +1 on rolls for the rest of the fight (Blessing)." in t.text()
    line = next(x for x in t.lines if x.startswith("Ann's Base Attack at Cave Troll: Ann rolls"))
    assert line.endswith("11, 7, 3. +1 Blessing on each die: 12, 8, 4")
    # 12 beats the Troll's Finesse defense (3 + 2 x 1 = 5); 12 and 8 grant Accuracy: 2 + 2 damage
    assert "2 damage + 2 Accuracy (dice of 8 or more) = 4" in t.text()
    assert t.f("cave-troll").grit == 10


def test_a_penalty_on_each_die():
    t = troll()
    t.f("cave-troll").ailments["dazzle"] = 2
    t.place("bob")
    t.force(5, 8, 8, 2)  # Crushing Swing at Ann: 8 8 2, each -1 (Dazzle): 7 7 1 against Ann's Finesse defense 7
    t.place("ann")
    assert t.fight.roll.values == [7, 7, 1]
    assert "-1 Dazzle on each die: 7, 7, 1" in t.text()
    # a hit on 7, but a 7 grants no Accuracy: 3 damage, Block 2 (Chain Coat) -> 1 Injury
    assert "Crushing Swing hits Ann (best die 7 against defense 7): 3 damage = 3; Block 2 (Chain Coat) → 1 Injury" \
        in t.text()


def test_a_rerolled_die_can_never_be_rerolled_again_and_a_chain_ends_when_every_die_has_been():
    t = troll(fame={"ann": 9, "bob": 6})  # Ann holds the token: turn order Ann, Bob, Troll
    assert t.fight.token == "c:ann"
    t.place("bob", "firebolt")
    t.force(10, 2, 2, 2)  # Stony Hide (no roll); Bob's Firebolt 2 2 2
    t.place("ann")
    assert (t.prompt.kind, t.prompt.owner) == ("fame", "ann")  # after Bob (the roller): the Troll (no Fame
    t.force(3)                                                 # reroll for monsters), then Ann
    t.run("ann", "duel.reroll", die=1)
    assert t.prompt.owner == "bob"
    assert "already been rerolled and can never be rerolled again" in t.refused("bob", "duel.reroll", die=1)
    assert [o.value for o in t.prompt.options] == ["2", "3"]
    t.force(4)
    t.run("bob", "duel.reroll", die=2)
    t.force(5)
    t.run("ann", "duel.reroll", die=3)
    assert t.fight.roll.dice == [3, 4, 5] and t.fight.roll.rerolled == [True, True, True]
    assert "Every die of the roll has been rerolled: no more Fame rerolls." in t.text()
    assert t.fight.chain is None and (t.prompt is None or t.prompt.kind != "fame")
    assert (t.state.characters["ann"].fame, t.state.characters["bob"].fame) == (5, 4)
    assert "Firebolt misses Cave Troll (best die 5 against defense 7)." in t.text()


def test_only_the_highest_die_hits_and_dice_are_never_added():
    t = troll()
    t.place("bob", "firebolt")
    t.force(10, 5, 5, 6)  # 5 + 5 + 6 would beat 7; the best die, 6, does not
    t.place("ann")
    assert "Firebolt misses Cave Troll (best die 6 against defense 7)." in t.text()


def test_the_monster_procedure_is_one_plain_die_no_card_or_fame_touches_it():
    t = troll(fame={"ann": 6, "bob": 0})
    troll_ = t.f("cave-troll")
    troll_.ailments["dazzle"] = 3
    troll_.effects.append(Effect("bonus", 2, None, "Test bonus"))
    t.place("bob")
    asked_before = t.fight.asks
    t.force(10)  # a plain 10 (with -3 +2 it would be 9: Crushing Swing) picks Stony Hide
    t.place("ann")
    assert "The table rolls 10 for the Cave Troll: Stony Hide." in t.text()
    # Ann (6 Fame) was never asked to reroll the procedure's die: the only question since is round 2's placing
    assert t.fight.asks == asked_before + 1 and t.prompt.kind == "place" and t.fight.round == 2


def test_each_character_after_the_roller_may_reroll_until_all_in_a_row_pass():
    t = Table()
    for who, hero in (("ann", "sellsword"), ("bob", "hedge-witch"), ("cy", "pilgrim")):
        t.character(who, hero)
    t.state.characters["ann"].fame, t.state.characters["bob"].fame, t.state.characters["cy"].fame = 2, 2, 1
    t.run("ann", "duel.fight", monster="cave-troll")
    t.run("ann", "duel.join", choice="in.chain-coat")
    t.run("bob", "duel.join", choice="in")
    t.run("cy", "duel.join", choice="in.warded-cloak")
    # turn order: Troll, Ann, Bob, Cy; Bob's Firebolt: after Bob come Cy (1 Fame: not asked), the Troll, Ann, Bob
    t.place("cy")
    t.place("bob", "firebolt")
    t.force(10, 3, 3, 3)
    t.place("ann")
    assert [t.prompt.owner] == ["ann"]
    t.run("ann", "duel.reroll")
    assert t.prompt.owner == "bob"  # the roller is asked last in the round of asking
    t.run("bob", "duel.reroll")
    assert t.prompt is None or t.prompt.kind != "fame"  # all in sequence chose not to
    assert "Ann spends no Fame on this roll." in t.text() and "Bob spends no Fame on this roll." in t.text()
    assert not any("Cy spends" in line for line in t.lines)


def test_after_a_reroll_everyone_is_asked_again():
    t = troll(fame={"ann": 2, "bob": 4})  # Bob's Fame 4 takes the token from the Troll (3): Bob, Troll, Ann
    assert t.fight.token == "c:bob"
    t.place("ann")
    t.force(10, 3, 3, 3)
    t.place("bob", "firebolt")  # after Bob: the Troll, Ann, Bob
    assert t.prompt.owner == "ann"
    t.run("ann", "duel.reroll")
    t.force(9)
    t.run("bob", "duel.reroll", die=1)  # Bob rerolls: Ann, who passed, is asked again
    assert t.prompt.owner == "ann"
    t.run("ann", "duel.reroll")
    t.run("bob", "duel.reroll")
    assert t.fight.chain is None
    assert "Firebolt hits Cave Troll (best die 9 against defense 7)" in t.text()


# ------------------------------------------------------------------ attacks --
def test_three_attack_types_decide_which_effects_apply():
    """Chain Coat blocks base and gear attacks; the Warded Cloak spell attacks; Whetstone adds to gear attacks."""
    r = fight({"ann": "sellsword", "bob": "hedge-witch"}, monster=None, rival="bob", fame=ZERO)
    # Ann (Chain Coat) challenged Bob (Warded Cloak): turn order Ann, Bob; Bob places first
    assert r.fight.token == "c:ann"
    r.place("bob", "firebolt")
    r.force(9, 1, 1, 9, 1, 1)  # Firebolt at Ann: 9 (Ann's Resolve defense 7); Ann's Base Attack at Bob 9 1 1
    r.place("ann", "base-attack", base=["attack"])
    assert "Firebolt hits Ann (best die 9 against defense 7): 2 damage + 1 Accuracy (dice of 8 or more) = 3 → " \
           "3 Injury." in r.text()  # the Chain Coat does not stop a spell
    assert "Base Attack hits Bob (best die 9 against defense 7): 2 damage + 1 Accuracy (dice of 8 or more) = 3 → " \
           "3 Injury." in r.text()  # the Warded Cloak does not stop a base attack


def test_whetstone_adds_damage_to_gear_attacks_only():
    t2 = fight({"ann": "duelist", "bob": "hedge-witch"}, fame=ZERO)
    t2.f("ann").hand.append("whetstone")
    t2.place("bob")
    t2.force(10, 6, 1, 1, 6, 1, 1)  # Stony Hide; Throwing Axe 6 1 1 (Finesse vs Finesse 5); Base Attack 6 1 1
    t2.place("ann", "whetstone", "throwing-axe")
    assert "Ann has +1 damage (gear) for the rest of the fight (Whetstone)." in t2.text()
    assert "Throwing Axe hits Cave Troll (best die 6 against defense 5): 3 damage +1 Whetstone = 4; Block 2 " \
           "(Stony Hide) → 2 Injury." in t2.text()
    t2.place("bob")
    t2.force(1, 6, 1, 1, 1, 1, 1)  # Boulder Toss; Ann's Base Attack 6 1 1 (no Whetstone); Boulder 1 1 1
    t2.place("ann", "base-attack", base=["attack"])
    assert "Base Attack hits Cave Troll (best die 6 against defense 5): 2 damage = 2 → 2 Injury." in t2.text()


def test_defense_is_3_plus_twice_the_tier_and_equal_hits():
    t = troll(PILGRIM)
    t.place("bob", "frost-snare")  # Wit against Finesse: the Troll's Finesse 1 -> defense 5
    t.force(10, 5, 1)
    t.place("ann")
    assert "Frost Snare hits Cave Troll (best die 5 against defense 5)" in t.text()
    t.place("bob", "purifying-light")  # Wit against Resolve 2 -> defense 7
    t.force(10, 6, 6)
    t.place("ann")
    assert "Purifying Light misses Cave Troll (best die 6 against defense 7)." in t.text()


def test_the_attackers_benefit_happens_even_when_the_attack_fails():
    t = troll()
    t.place("bob")
    t.force(10, 8, 8, 8)  # Stony Hide; Shield Bash Might vs Might (Troll's 3: defense 9) 8 8 8: a miss
    t.place("ann", "shield-bash")
    assert "Shield Bash misses Cave Troll (best die 8 against defense 9)." in t.text()
    assert "Ann has Block 1 until the round ends (Shield Bash)." in t.text()
    assert "dazzle" not in t.f("cave-troll").ailments


def test_accuracy_with_a_moved_threshold():
    t = troll({"ann": "sellsword", "bob": "hedge-witch"})
    t.f("bob").hand += ["hawk-sight"]
    t.place("bob", "hawk-sight", "firebolt")  # Hawk Sight: Accuracy on 6 or more this round
    t.force(10, 7, 1, 1, 7, 6, 2)  # Stony Hide; Hawk Sight's Wit 7 1 1; Firebolt 7 6 2
    t.place("ann")
    assert "Bob has Accuracy on 6+ until the round ends (Hawk Sight)." in t.text()
    assert "Firebolt hits Cave Troll (best die 7 against defense 7): 2 damage + 2 Accuracy (dice of 6 or more) = 4; " \
           "Block 2 (Stony Hide) → 2 Injury." in t.text()
    # an effect that raises the difficulty: Accuracy on 9 or more; an 8 grants none
    t.f("ann").effects.append(Effect("accuracy", -1, None, "Heavy Fog"))
    t.place("bob")
    t.force(1, 8, 8, 8, 1, 1, 1)  # Boulder Toss; Ann's Base Attack 8 8 8; Boulder 1 1 1
    t.place("ann", "base-attack", base=["attack"])
    assert "Base Attack hits Cave Troll (best die 8 against defense 5): 2 damage = 2 → 2 Injury." in t.text()


def test_every_block_applies_and_damage_never_goes_below_zero():
    t = troll()
    t.place("bob")
    # Ann's Balance (Block 1 this round) acts at 8; the Troll's Crushing Swing at 7: 3 damage + 2 Accuracy = 5,
    # Block 2 (Chain Coat) and Block 1 (Balance): 2 Injury
    t.force(5, 9, 9, 1)
    t.place("ann", "balance")
    assert "Crushing Swing hits Ann (best die 9 against defense 7): 3 damage + 2 Accuracy (dice of 8 or more) = 5; " \
           "Block 2 (Chain Coat), Block 1 (Balance) → 2 Injury." in t.text()
    assert t.f("ann").grit == 8
    t.f("ann").effects.append(Effect("block", 2, None, "Test Ward"))
    t.place("bob")
    t.force(5, 7, 1, 1)  # 3 damage against Block 2 and Block 2: 0 Injury, never less
    t.place("ann")
    assert "3 damage = 3; Block 2 (Chain Coat), Block 2 (Test Ward) → 0 Injury." in t.text()
    assert t.f("ann").grit == 8


# ------------------------------------------------------------------ support --
def test_a_spell_that_does_not_attack_needs_wit_6_or_more():
    t = troll()
    t.place("bob", "stoneskin")
    t.force(1, 5, 5, 4, 1, 1, 1)  # Boulder Toss; Stoneskin's Wit 5 5 4: no effect; Boulder misses
    t.place("ann")
    assert "Stoneskin has no effect (best die 5; 6 or more needed)." in t.text()
    assert not t.f("bob").effects and "stoneskin" in t.f("bob").discard
    t2 = troll()
    t2.place("bob", "stoneskin")
    t2.force(1, 6, 1, 1, 1, 1, 1)
    t2.place("ann")
    assert "Stoneskin works (best die 6, 6 or more needed)." in t2.text()
    assert [(e.kind, e.amount, e.rounds) for e in t2.f("bob").effects] == [("block", 1, None)]
    assert [p.card for p in t2.f("bob").out] == ["stoneskin"]  # face-up beside Bob while it lasts


def test_gear_that_does_not_attack_needs_no_roll():
    t = troll()
    t.f("ann").grit = 5
    t.place("bob")
    t.force(10)  # Stony Hide: the only die of this round
    t.place("ann", "healing-draught")
    assert t.dice[-1:] == [10] and "Ann gets back 3 Grit (8/10)." in t.text()
    assert "healing-draught" in t.f("ann").discard


def test_ongoing_effects_last_one_round_or_the_whole_fight():
    t = troll()
    t.place("bob", "stoneskin")
    t.force(1, 6, 1, 1, 1, 1, 1)
    t.place("ann", "balance")
    # after the round: Balance's Block 1 (1 round) is gone and Balance discarded; Stoneskin stays
    assert [e.label for e in t.f("ann").effects] == [] and "balance" in t.f("ann").discard
    assert "Ann's Block 1 (Balance) ends" in t.text()
    assert [e.label for e in t.f("bob").effects] == ["Stoneskin"] and [p.card for p in t.f("bob").out] == ["stoneskin"]


# ----------------------------------------------------------------- ailments --
def test_ailments_add_up_and_are_removed_as_one_ongoing_effect():
    t = troll(PILGRIM)
    t.f("ann").ailments = {"burn": 2, "dazzle": 1}
    t.f("cave-troll").ailments = {"burn": 2}
    t.place("bob")
    t.force(10)
    t.place("ann", "balance")
    assert "Ann's Ailments are removed (Burn 2 and Dazzle 1) by Balance." in t.text()
    assert t.f("ann").ailments == {}
    # the Troll's Burn 2 went down to 1 at the round's end; another Burn 2 adds to it
    assert t.f("cave-troll").ailments == {"burn": 1}
    t.f("bob").hand.append("firebolt")
    t.place("bob", "firebolt")
    t.force(10, 9, 1)
    t.place("ann")
    assert "Cave Troll suffers Burn 2 (added to 1: now Burn 3) from Firebolt." in t.text()


def test_removing_an_ailment_from_an_ally_works_even_when_the_attack_fails():
    t = troll(PILGRIM)
    t.f("ann").ailments = {"weak": 2}
    t.place("bob", "purifying-light", ally="c:ann")
    t.force(10, 1, 1)  # Stony Hide; Purifying Light (Wit 2 dice) 1 1: a miss
    t.place("ann")
    assert "Purifying Light misses Cave Troll" in t.text()
    assert "Ann's Ailments are removed (Weak 2) by Purifying Light." in t.text() and t.f("ann").ailments == {}


def test_burn_one_injury_at_the_beginning_of_each_round():
    t = troll()
    t.place("bob", "firebolt")
    t.force(10, 9, 1, 1)
    t.place("ann")
    assert "Cave Troll suffers Burn 2 from Firebolt." in t.text()
    # round 2 began: 1 Injury; Burn went 2 -> 1 at the round's end
    assert "Cave Troll suffers 1 Injury (Burn 1): " in t.text()
    grit = t.f("cave-troll").grit
    t.place("bob")
    t.force(10)
    t.place("ann")
    assert t.f("cave-troll").grit == grit  # Burn ran out at the end of round 2: no Injury in round 3
    assert "burn" not in t.f("cave-troll").ailments


def test_dazzle_minus_one_on_rolls():
    t = troll()
    t.place("bob", "glare")
    t.force(10, 9, 1, 1)  # Glare hits: Dazzle 2
    t.place("ann")
    t.place("bob")
    t.force(5, 8, 8, 8)  # Crushing Swing at Ann: 8 8 8 -1 = 7 7 7: a hit (defense 7) without Accuracy
    t.place("ann")
    assert "-1 Dazzle on each die: 7, 7, 7" in t.text()
    assert "Crushing Swing hits Ann (best die 7 against defense 7): 3 damage = 3" in t.text()


def test_slow_minus_six_priority():
    t = troll(PILGRIM)
    t.place("bob", "frost-snare")
    t.force(10, 9, 1)
    t.place("ann")
    assert t.f("cave-troll").ailments == {"slow": 1}
    t.place("bob")
    t.force(5, 1, 1, 1)  # Crushing Swing: Priority 7 - 6 = 1
    t.place("ann")
    assert "Cave Troll's Crushing Swing goes on the Priority track at 1 (7 -6 Slow)." in t.text()


def test_weak_minus_one_damage():
    t = troll()
    t.f("cave-troll").ailments = {"weak": 1}
    t.place("bob")
    t.force(5, 9, 1, 1)  # Crushing Swing: 3 damage + 1 Accuracy - 1 (Weak) = 3, Block 2 -> 1
    t.place("ann")
    assert "3 damage + 1 Accuracy (dice of 8 or more) -1 Weak = 3; Block 2 (Chain Coat) → 1 Injury." in t.text()


# ----------------------------------------------------------------- joining --
def test_players_choose_in_turn_order_to_join_and_pick_one_worn_gear():
    t = Table()
    t.character("ann", "pilgrim")  # Warded Cloak and Chain Coat
    t.character("bob", "duelist")
    t.run("bob", "duel.fight", monster="cave-troll")
    assert t.prompt.owner == "ann" and [o.value for o in t.prompt.options] == [
        "in.warded-cloak", "in.chain-coat", "out"]
    assert "It is @ann's turn for the join question" in t.refused("bob", "duel.join", choice="in")
    t.run("ann", "duel.join", choice="in.chain-coat")
    assert t.prompt.owner == "bob" and [o.value for o in t.prompt.options] == ["in", "out"]
    t.run("bob", "duel.join", choice="in")
    assert t.f("ann").gear == "chain-coat"
    # the Warded Cloak has no effect in this fight: a spell attack on Ann is not Blocked
    t.state.fight.fighters["m:cave-troll"].effects.clear()
    from rulesets.duel.rules.harm import blocks
    from rulesets.duel.rules.model import F
    from rulesets.duel.content import load_pack

    c = F(t.state, load_pack(), None)
    assert blocks(c, t.f("ann"), "spell") == [] and blocks(c, t.f("ann"), "base") == [("Chain Coat", 2)]


def test_a_fight_nobody_joins_is_called_off():
    t = Table()
    t.character("ann", "duelist")
    t.run("ann", "duel.fight", monster="marsh-wisp")
    t.run("ann", "duel.join", choice="out")
    assert t.fight.over and t.fight.result == "called off: no character joined"
    assert t.state.in_fight is False


def test_the_starting_hand():
    t = troll()
    hand = t.f("ann").hand
    assert sorted(hand) == sorted(["base-attack", "base-attack", "lure", "balance", "focus", "shield-bash",
                                   "healing-draught"])
    assert "troll-tooth" in t.state.characters["ann"].cards and "troll-tooth" not in hand  # no Priority


# ------------------------------------------------------------ the Priority token --
def test_the_highest_fame_gains_the_token_and_a_monster_s_fame_is_its_rank():
    assert troll().fight.token == "m:cave-troll"
    assert troll(fame={"ann": 4, "bob": 0}).fight.token == "c:ann"


def test_a_priority_tie_is_rolled_off_on_finesse_second_dice_breaking_it():
    t = troll(fame={"ann": 3, "bob": 0}, roll_off=(9, 4, 9))  # Ann Finesse 2: 9 4; the Troll Finesse 1: 9
    assert "Ann and Cave Troll tie at 3 Fame: they roll Finesse for the Priority token." in t.text()
    assert "Finesse: Ann 9 4; Cave Troll 9. Ann wins the roll-off." in t.text()
    assert t.fight.token == "c:ann"


def test_a_full_tie_is_rolled_again():
    t = fight({"ann": "sellsword"}, monster="ashen-knight", fame={"ann": 4}, roll_off=(8, 3, 8, 3, 2, 2, 7, 1))
    assert "Finesse: Ann 8 3; Ashen Knight 8 3. Still tied: Ann and Ashen Knight roll again." in t.text()
    assert "Finesse: Ann 2 2; Ashen Knight 7 1. Ashen Knight wins the roll-off." in t.text()
    assert t.fight.token == "m:ashen-knight"


def test_fame_changes_move_the_token_and_the_holder_acts_first_on_ties():
    t = troll(fame={"ann": 3, "bob": 0}, roll_off=(1, 1, 9))  # the Troll wins the roll-off
    assert t.fight.token == "m:cave-troll"
    t.place("bob")
    t.force(5, 1, 1, 1, 1, 1, 1)  # Crushing Swing (7) ties Ann's Shield Bash (7); the Troll holds the token
    t.place("ann", "lure", "shield-bash")
    # Lure (9) acts first: Ann's Fame 4 is the highest: she gains the token before the two 7s, so hers acts first
    assert "Ann gains 1 Fame (now 4)." in t.text()
    assert "Ann gains the Priority token (the highest Fame, 4; Fame changed)." in t.text()
    assert t.passes() == 2  # Ann (4 Fame) may reroll each roll: she passes
    at = t.text().index
    assert at("Ann's Shield Bash at Cave Troll") < at("Cave Troll's Crushing Swing at Ann")


# ------------------------------------------------------------------- rounds --
def test_cards_are_placed_face_down_in_reverse_turn_order_at_most_two():
    t = troll()
    assert t.prompt.owner == "bob" and t.prompt.private
    assert "It is @bob's turn for placing cards" in t.refused("ann", "duel.place", cards=["lure"])
    assert "at most two cards" in t.refused("bob", "duel.place", cards=["lure", "focus", "balance"])
    assert "Shield Bash is not in your hand" in t.refused("bob", "duel.place", cards=["shield-bash"])
    said = t.place("bob", "firebolt", "lure")
    assert said == ["Bob places 2 cards face-down."]
    assert [p.card for p in t.f("bob").placed] == ["firebolt", "lure"] and not t.fight.track
    assert t.prompt.owner == "ann"


def test_cards_are_revealed_in_reverse_turn_order_and_taking_the_token_is_at_once():
    t = troll()
    t.place("bob", "base-attack", base=["token"])
    t.force(10)
    t.place("ann", "base-attack")  # Ann did not declare: she is asked when it is revealed
    at = t.text().index
    assert at("Bob reveals Base Attack.") < at("Bob declares the Base Attack to take the Priority token from Cave "
                                               "Troll.") < at("Ann reveals Base Attack.")
    assert t.fight.token == "c:bob" and "base-attack" in t.f("bob").discard
    assert (t.prompt.kind, t.prompt.owner) == ("declare", "ann")
    assert "The table rolls" not in t.text()  # the monster chooses after every card is revealed
    t.force(1, 1, 1, 1, 1, 1)
    t.run("ann", "duel.declare", use="attack")
    at = t.text().index
    assert at("Ann declares the Base Attack as an attack.") < at("The table rolls 10 for the Cave Troll")


def test_the_track_goes_from_the_highest_priority_down_ties_in_turn_order():
    t = troll()
    t.place("bob", "lure", "firebolt")  # 9, 5
    t.force(1, 9, 1, 1, 1, 1, 1)  # Boulder Toss (4)... lured to Bob; Firebolt 9 1 1; Ann's Shield Bash 1 1 1
    t.place("ann", "shield-bash", "focus")  # 7, 2
    text = t.text()
    labels = ["Bob uses Lure", "Ann's Shield Bash at", "Bob's Firebolt at", "Cave Troll's Boulder Toss at Bob",
              "Ann uses Focus"]
    positions = [text.index(x) for x in labels]
    assert positions == sorted(positions)


def test_a_characters_second_damaging_action_in_a_round_has_minus_two():
    t = troll()
    t.place("bob")
    t.force(10, 9, 9, 1, 9, 9, 1)  # Stony Hide; Shield Bash (7) 9 9 1; Base Attack (6) 9 9 1 -2 = 7 7 -1
    t.place("ann", "shield-bash", "base-attack", base=["attack"])
    assert "Ann rolls Might (3 dice) to hit (defense 9): 9, 9, 1." in t.text()  # Shield Bash: no penalty
    assert "9, 9, 1. -2 second damaging action on each die: 7, 7, -1" in t.text()
    assert "Base Attack hits Cave Troll (best die 7 against defense 5)" in t.text()


def test_ongoing_cards_stay_face_up_others_go_to_the_discard_pile_and_focus_returns_them():
    t = troll()
    t.place("bob", "stoneskin", "focus")
    t.force(10, 6, 1, 1)
    t.place("ann", "lure")
    bob = t.f("bob")
    # Stoneskin stays face-up (whole fight); Focus acted: Bob's discard pile (Focus itself) came back
    assert [p.card for p in bob.out] == ["stoneskin"]
    assert "Bob's Focus: 1 card from the discard pile back into the hand." in t.text()
    assert "focus" in bob.hand and bob.discard == []
    assert "lure" in t.f("ann").discard


def test_the_round_end_lowers_durations_discards_expired_cards_and_begins_the_next_round():
    t = troll()
    t.f("cave-troll").ailments = {"slow": 2, "weak": 1}
    t.place("bob")
    t.force(10, 1, 1, 1)
    t.place("ann", "shield-bash")
    assert "The track is empty: round 1 ends." in t.text()
    assert t.f("cave-troll").ailments == {"slow": 1}
    assert "Cave Troll's Slow drops to 1" in t.text() and "Cave Troll's Weak ends" in t.text()
    assert "Ann's Shield Bash has no effect left: it goes to the discard pile." in t.text()
    assert t.fight.round == 2 and t.fight.step == "place" and "Round 2 begins." in t.text()


# --------------------------------------------------------------------- end --
def test_zero_grit_recalls_a_character():
    t = troll()
    t.f("ann").grit = 2
    t.place("bob", "firebolt")
    t.force(5, 9, 9, 9, 1, 1, 1)  # Crushing Swing (7) at Ann: 3 + 3 Accuracy - 2 = 4 > 2
    t.place("ann")
    assert t.f("ann").grit == 0 and t.f("ann").recalled
    assert "Ann is at 0 Grit: Recalled, Ann leaves the fight." in t.text()
    assert t.prompt.owner == "bob"  # Ann places no more


def test_a_monster_that_defeats_every_character_heals_fully():
    t = troll()
    t.f("cave-troll").grit = 3
    t.f("ann").grit, t.f("bob").grit = 1, 1
    t.f("bob").ailments = {"burn": 2}
    assert "Bob suffers 1 Injury (Burn 1)" not in t.text()
    t.place("bob")
    t.force(5, 9, 1, 1)  # Crushing Swing at Ann: Recalled; Bob's Burn recalls him as round 2 begins
    t.place("ann")
    assert t.fight.over and t.f("ann").recalled and t.f("bob").recalled
    assert "The fight is over: the Cave Troll has defeated every character." in t.text()
    assert "Cave Troll heals fully (14/14 Grit) and can be fought again later." in t.text()
    assert t.f("cave-troll").grit == 14
    assert t.state.history[-1]["result"] == "the Cave Troll defeated every character"
    # fought again later: a new fight finds it at its full Grit
    t.run("ann", "duel.fight", monster="cave-troll")
    assert t.fight.no == 2 and t.f("cave-troll").grit == 14


def test_ongoing_effects_and_ailments_end_with_the_fight():
    t = troll()
    t.f("cave-troll").grit = 1
    t.f("ann").ailments = {"burn": 3}
    t.place("bob", "stoneskin")
    t.force(10, 6, 1, 1, 9, 9, 9)  # Stony Hide; Stoneskin works; Ann's Base Attack ends it
    t.place("ann", "base-attack", base=["attack"])
    assert t.fight.over and t.fight.result == "Ann and Bob defeated the Cave Troll"
    assert all(not f.effects and not f.ailments for f in t.fight.fighters.values())
    assert "Every ongoing effect and Ailment ends with the fight (Ann: Burn 3; Bob: Block 1; Cave Troll: Block 2)." in t.text()


@pytest.mark.parametrize("seed", range(12))
def test_random_fights_always_end_and_keep_every_card(seed):
    """Fights played with random answers end, and no card is ever lost or copied."""
    import random

    from rulesets.duel.content import load_pack

    rng = random.Random(seed)
    pack = load_pack()
    heroes = list(pack.heroes)
    kind = "monster" if seed % 2 else "rivals"
    cast = {"ann": rng.choice(heroes), "bob": rng.choice(heroes), "cy": rng.choice(heroes)}
    if kind == "monster":
        t = fight(cast, monster=rng.choice(list(pack.monsters)))
    else:
        t = fight(cast, monster=None, rival="bob")
    start = {o: sorted(f.hand) for o, f in ((f.owner, f) for f in t.fight.fighters.values() if f.owner)}
    for _ in range(3000):
        if t.fight.over:
            break
        p = t.prompt
        if p.kind == "place":
            f = t.f(p.owner)
            cards = rng.sample(f.hand, rng.randint(0, min(2, len(f.hand))))
            foes = [e.id for e in t.fight.fighters.values() if e.side != f.side and e.standing]
            t.place(p.owner, *cards, target=rng.choice(foes), base=[rng.choice(["attack", "token"])])
        elif p.kind == "declare":
            t.run(p.owner, "duel.declare", use=rng.choice(["attack", "token"]))
        elif p.kind == "fame":
            t.run(p.owner, "duel.reroll", **({"die": int(p.options[0].value)} if rng.random() < 0.3 else {}))
        for f in t.fight.fighters.values():
            if f.owner and not t.fight.over:
                held = f.hand + [p.card for p in f.placed] + f.discard + [p.card for p in f.out] + [
                    tk.card for tk in t.fight.track if tk.fighter == f.id] + (
                    [t.fight.current.card] if t.fight.current and t.fight.current.fighter == f.id else [])
                assert sorted(held) == start[f.owner], (seed, f.name)
            assert 0 <= f.grit <= f.max_grit
    assert t.fight.over


# ------------------------------------------------------------- zones (revision 2) --
def three(rules: int | None = None) -> Table:
    """Ann (Sellsword), Bob (Hedge Witch) and Cy (Pilgrim), all made at the first zone, Crossroads Inn."""
    t = Table()
    if rules is not None:
        t.state.rules = rules
    t.character("ann", "sellsword")
    t.character("bob", "hedge-witch")
    t.character("cy", "pilgrim")
    return t


def test_only_the_characters_in_the_fights_zone_are_asked_to_join():
    """"Before beginning the fight, each player with their character in the same zone, in turn order, may choose
    to join the fight." """
    t = three()
    assert t.run("bob", "duel.travel", zone="mill-ford") == ["Bob travels from Crossroads Inn to Mill Ford."]
    t.run("ann", "duel.fight", monster="cave-troll")
    assert "A fight against the Cave Troll (Rank 3, 14 Grit) is called at Crossroads Inn. Each player with a " \
           "character there, in turn order, chooses whether to join." in t.text()
    asked = []
    while t.prompt is not None and t.prompt.kind == "join":
        asked.append(t.prompt.owner)
        t.run(t.prompt.owner, "duel.join", choice=t.prompt.options[0].value)
    assert asked == ["ann", "cy"] and "c:bob" not in t.fight.fighters and t.fight.zone == "crossroads"
    assert "Bob" not in t.text().split("is called at")[1]


def test_a_fight_called_in_another_zone_asks_the_characters_standing_there():
    t = three()
    t.run("bob", "duel.travel", zone="barrow-hill")
    t.run("ann", "duel.fight", monster="marsh-wisp", zone="barrow-hill")
    assert t.prompt.owner == "bob" and "is called at Barrow Hill" in t.text()
    t.run("bob", "duel.join", choice="in")
    assert t.fight.step == "place" and list(t.fight.fighters) == ["m:marsh-wisp", "c:bob"]
    # nobody stands at Mill Ford: the call is refused, naming where everyone is
    t2 = three()
    msg = t2.refused("ann", "duel.fight", monster="cave-troll", zone="mill-ford")
    assert "No character stands at Mill Ford" in msg and "Ann at Crossroads Inn" in msg and "/duel travel" in msg


def test_a_challenge_is_fought_in_one_zone():
    t = three()
    t.run("bob", "duel.travel", zone="mill-ford")
    assert "Bob is at Mill Ford and Ann at Crossroads Inn: a challenge is fought in one zone. Travel there first " \
           "with /duel travel zone:mill-ford." in t.refused("ann", "duel.fight", rival="bob")
    t.run("ann", "duel.travel", zone="mill-ford")
    t.run("ann", "duel.fight", rival="bob")
    assert "Ann challenges Bob to a fight at Mill Ford" in t.text() and t.prompt.owner == "ann"  # which gear
    t.run("ann", "duel.join", choice="in.chain-coat")
    assert t.prompt.owner == "bob"
    t.run("bob", "duel.join", choice="in")  # Cy, at Crossroads Inn, is not asked
    assert t.fight.step == "place" and "c:cy" not in t.fight.fighters


def test_travelling_is_refused_with_the_fix():
    t = three()
    assert "There is no zone 'moon'. Zones: crossroads (Crossroads Inn), mill-ford (Mill Ford), barrow-hill " \
           "(Barrow Hill)." in t.refused("ann", "duel.travel", zone="moon")
    assert "Ann is already at Crossroads Inn" in t.refused("ann", "duel.travel", zone="crossroads")
    t.run("dee", "campaign.join")
    assert "Make one with /duel character" in t.refused("dee", "duel.travel", zone="mill-ford")
    t.run("ann", "duel.fight", monster="cave-troll")
    assert "can't travel during a fight" in t.refused("cy", "duel.travel", zone="mill-ford")


def test_a_campaign_on_the_first_duel_rules_asks_everyone_and_has_no_zones():
    t = three(rules=1)
    assert "first duel rules (revision 1)" in t.refused("bob", "duel.travel", zone="mill-ford")
    assert "/campaign update" in t.refused("ann", "duel.fight", monster="cave-troll", zone="mill-ford")
    assert "/campaign update" in t.refused("ann", "duel.fight", monster="cave-troll", runner="bob")
    t.run("ann", "duel.fight", monster="cave-troll")
    assert "is called. Each player, in turn order, chooses whether to join." in t.text()
    asked = []
    while t.prompt is not None and t.prompt.kind == "join":
        asked.append(t.prompt.owner)
        t.run(t.prompt.owner, "duel.join", choice="out")
    assert asked == ["ann", "bob", "cy"]


# ------------------------------------------------------- the monster's runner --
def runner_fight(**kw) -> Table:
    """Ann and Bob against the Cave Troll, run by Cy (who stays out): round 1, Bob places first."""
    t = three()
    for who in ("ann", "bob"):
        t.state.characters[who].fame = 0
    t.run("ann", "duel.fight", monster="cave-troll", runner="cy", **kw)
    t.run("ann", "duel.join", choice="in.chain-coat")
    t.run("bob", "duel.join", choice="in")
    t.run("cy", "duel.join", choice="out")
    return t


def test_the_player_running_the_monster_rolls_its_procedure_and_its_attack():
    """"As monsters cannot roll dice for themselves, anyone may roll dice for the monster when needed": the player
    named runner: rolls them, the bot only when nobody was named."""
    t = runner_fight()
    assert "@cy runs the Cave Troll: the fight waits for them to roll its dice." in t.text()
    t.place("bob")
    t.place("ann")
    # every card is revealed: the fight waits for Cy's procedure die, and rolled none yet
    assert t.prompt.kind == "monster" and t.prompt.owner == "cy" and t.dice == []
    assert t.prompt.options[0].label == "Roll the Cave Troll's procedure die"
    assert "It is @cy's turn for the monster's dice" in t.refused("bob", "duel.roll")
    t.force(3)
    assert t.run("cy", "duel.roll")[:1] == ["@cy rolls 3 for the Cave Troll: Boulder Toss at Bob."]
    # its attack waits for Cy too
    assert t.prompt.kind == "monster" and t.prompt.options[0].label == \
        "Roll the Cave Troll's 3 Might dice (Boulder Toss at Bob)"
    t.force(9, 2, 2)
    said = t.run("cy", "duel.roll")
    assert said[0] == "@cy rolls the Cave Troll's dice."
    assert "Cave Troll's Boulder Toss at Bob: Cave Troll rolls Might (3 dice) to hit (defense 7): 9, 2, 2." in said
    assert t.dice == [3, 9, 2, 2]


def test_the_runner_who_does_not_roll_in_time_has_the_bot_roll_for_them():
    t = runner_fight()
    t.place("bob")
    t.place("ann")
    p = t.prompt
    assert p.deadline == t.now + 60 * 60 and p.timeout_action == "duel.timeout"
    t.force(10)
    said = t.run(t.leader, "duel.timeout", ask=p.id)
    assert said[0] == "⏰ @cy did not roll for the Cave Troll within 60 minutes, so the bot rolls for them."
    assert "The table rolls 10 for the Cave Troll: Stony Hide." in said


def test_the_runner_must_be_a_player_and_only_runs_a_monster():
    t = three()
    assert "runner: is for a monster fight" in t.refused("ann", "duel.fight", rival="bob", runner="cy")
