"""Every card text is a promise: each card, monster action, worn gear and hero of the duel pack is played here
with forced dice, and the fight changes as its text says.  The last tests check that nothing in the pack is
left without its test."""
from __future__ import annotations

import pytest

from duel_helpers import fight
from rulesets.duel.content import load_pack
from rulesets.duel.rules.harm import blocks
from rulesets.duel.rules.model import F

PACK = load_pack()
CARDS: set[str] = set()
ACTIONS: set[str] = set()
GEAR: set[str] = set()


def covers(*names: str, kind: set[str] = CARDS):
    def deco(fn):
        kind.update(names)
        return fn
    return deco


def troll(ann: str = "sellsword", bob: str = "hedge-witch", **kw):
    """Ann and Bob (Fame 0) against the Cave Troll (token holder): Bob places first."""
    return fight({"ann": ann, "bob": bob}, fame={"ann": 0, "bob": 0}, **kw)


def ann_plays(t, *cards: str, dice=(), **kw):
    """Bob places nothing; Ann places ``cards`` (added to her hand if she lacks them); the dice are forced."""
    for c in cards:
        if c not in t.f("ann").hand:
            t.f("ann").hand.append(c)
    t.place("bob")
    t.force(*dice)
    t.place("ann", *cards, **kw)
    return t


# ---------------------------------------------------------------- the hand --
@covers("base-attack")
def test_base_attack_attacks_with_the_characters_own_base_attack_or_takes_the_token():
    t = ann_plays(troll(), "base-attack", dice=(1, 9, 1, 1, 1, 1, 1), base=["attack"])
    # Sellsword: Might against Finesse (the Troll's 1: defense 5), 2 damage, 9 grants 1 Accuracy
    assert "Base Attack hits Cave Troll (best die 9 against defense 5): 2 damage + 1 Accuracy (dice of 8 or more) " \
           "= 3 → 3 Injury." in t.text()
    assert t.f("cave-troll").grit == 11
    t = ann_plays(troll(), "base-attack", dice=(10,), base=["token"])
    assert t.fight.token == "c:ann" and "base-attack" in t.f("ann").discard
    assert not any("Ann's Base Attack goes on the Priority track" in x for x in t.lines)


@covers("lure")
def test_lure_draws_the_monsters_attack_and_gains_fame():
    # without the Lure, Boulder Toss would go at the least Grit: Bob (7)
    t = ann_plays(troll(), "lure", dice=(1, 1, 1, 1))
    assert "The table rolls 1 for the Cave Troll: Boulder Toss at Ann." in t.text()
    assert "Ann gains 1 Fame (now 1)." in t.text() and t.state.characters["ann"].fame == 1


@covers("balance")
def test_balance_clears_every_ailment_of_you_or_an_ally_then_block_1_this_round():
    t = troll()
    t.f("bob").ailments = {"burn": 2, "slow": 1}
    t.place("bob")
    t.force(5, 9, 9, 1)  # Crushing Swing (7) at Ann after Balance (8): 3 + 2 Accuracy, Block 2 + 1
    t.place("ann", "balance", ally="c:bob")
    assert "Bob's Ailments are removed (Burn 2 and Slow 1) by Balance." in t.text()
    assert "Ann has Block 1 until the round ends (Balance)." in t.text()
    assert "Block 2 (Chain Coat), Block 1 (Balance) → 2 Injury." in t.text()
    assert t.f("bob").ailments == {} and not t.f("ann").effects


@covers("focus")
def test_focus_takes_the_discard_pile_back_at_the_round_end_itself_too():
    t = ann_plays(troll(), "lure", "focus", dice=(10,))
    assert "Ann's Focus: 2 cards from the discard pile back into the hand." in t.text()
    assert t.f("ann").discard == [] and {"lure", "focus"} <= set(t.f("ann").hand)


# --------------------------------------------------------------- obtained --
@covers("shield-bash")
def test_shield_bash():
    t = ann_plays(troll(), "shield-bash", dice=(10, 9, 9, 1))  # Might against Might (defense 9)
    assert "Shield Bash hits Cave Troll (best die 9 against defense 9): 1 damage + 2 Accuracy (dice of 8 or more) " \
           "= 3; Block 2 (Stony Hide) → 1 Injury." in t.text()
    assert "Cave Troll suffers Dazzle 2 from Shield Bash." in t.text()
    assert "Ann has Block 1 until the round ends (Shield Bash)." in t.text()
    assert t.f("cave-troll").ailments == {"dazzle": 1}  # 2, less the round's end


@covers("healing-draught")
def test_healing_draught_gives_an_ally_3_grit_never_above_full():
    t = troll()
    t.f("bob").grit = 2
    t = ann_plays(t, "healing-draught", dice=(10,), ally="c:bob")
    assert "Bob gets back 3 Grit (5/7)." in t.text() and t.f("bob").grit == 5
    t2 = ann_plays(troll(), "healing-draught", dice=(10,))
    assert "Ann is at full Grit (10/10); Healing Draught restores nothing." in t2.text()


@covers("troll-tooth")
def test_troll_tooth_has_no_priority_and_stays_out_of_the_hand():
    t = troll()
    assert "troll-tooth" in t.state.characters["ann"].cards and "troll-tooth" not in t.f("ann").hand
    t.place("bob")
    assert "Troll Tooth is not in your hand" in t.refused("ann", "duel.place", cards=["troll-tooth"])


@covers("throwing-axe")
def test_throwing_axe():
    t = ann_plays(troll("duelist"), "throwing-axe", dice=(10, 5, 1, 1))  # Finesse 3 dice against Finesse (5)
    assert "Throwing Axe hits Cave Troll (best die 5 against defense 5): 3 damage = 3; Block 2 (Stony Hide) → " \
           "1 Injury." in t.text()


@covers("smoke-flask")
def test_smoke_flask_dazzles_every_enemy_without_a_roll():
    t = ann_plays(troll("duelist"), "smoke-flask", dice=(10,))
    assert "Cave Troll suffers Dazzle 2 from Smoke Flask." in t.text()
    assert t.f("cave-troll").ailments == {"dazzle": 1}


@covers("whetstone")
def test_whetstone_gear_attacks_deal_one_more():
    t = ann_plays(troll("duelist"), "whetstone", "throwing-axe", dice=(10, 5, 1, 1))
    assert "3 damage +1 Whetstone = 4; Block 2 (Stony Hide) → 2 Injury." in t.text()
    assert [p.card for p in t.f("ann").out] == ["whetstone"]  # for the rest of the fight


@covers("firebolt", "glare", "withering-word")
@pytest.mark.parametrize("card, ailment, dice", [
    ("firebolt", "burn", (10, 9, 1, 1)),  # Wit against Resolve (7)
    ("glare", "dazzle", (10, 9, 1, 1)),
    ("withering-word", "weak", (10, 9, 1, 1)),
])
def test_spell_attacks_leave_their_ailment(card, ailment, dice):
    t = troll("hedge-witch", "sellsword")
    t.f("ann").hand.append(card)
    t = ann_plays(t, card, dice=dice)
    damage = PACK.cards[card].attack.damage
    assert f"{PACK.cards[card].name} hits Cave Troll (best die 9 against defense 7): {damage} damage + 1 Accuracy " \
           f"(dice of 8 or more) = {damage + 1}; Block 2 (Stony Hide) → {damage - 1} Injury." in t.text()
    assert f"Cave Troll suffers {ailment.capitalize()} 2 from {PACK.cards[card].name}." in t.text()


@covers("wilting-hex")
def test_wilting_hex_deals_no_damage_so_its_dice_grant_no_accuracy():
    """"All rolls made to attack grant Accuracy to effects that deal damage": a spell attack that only lays an
    Ailment on a hit deals no Injury however high its dice, and is no damaging action (no -2 on the next)."""
    t = troll("hedge-witch", "sellsword")
    # the Troll's Boulder Toss (Priority 4) acts last; Ann's Wit dice 9, 8, 1 would be 2 Accuracy on an attack
    # that deals damage; her Base Attack (Priority 6) after the Hex has no -2 for a second damaging action
    t = ann_plays(t, "wilting-hex", "base-attack", dice=(1, 9, 8, 1, 1, 1, 1, 1, 1, 1), base=["attack"])
    text = t.text()
    assert "Wilting Hex hits Cave Troll (best die 9 against defense 7): it deals no damage, so its dice grant no " \
           "Accuracy." in text
    assert "Cave Troll suffers Weak 3 from Wilting Hex." in text
    assert "Injury (Wilting Hex)" not in text and "second damaging action" not in text
    assert "Ann's Base Attack at Cave Troll: Ann rolls Wit (3 dice) to hit (defense 7): 1, 1, 1." in text
    assert t.f("cave-troll").grit == 14


def test_a_campaign_on_the_first_duel_rules_keeps_accuracy_on_an_attack_without_damage():
    t = troll("hedge-witch", "sellsword")
    t.state.rules = 1
    t = ann_plays(t, "wilting-hex", dice=(1, 9, 8, 1, 1, 1, 1))
    assert "Wilting Hex hits Cave Troll (best die 9 against defense 7): 0 damage + 2 Accuracy (dice of 8 or more) " \
           "= 2 → 2 Injury." in t.text()
    assert t.f("cave-troll").grit == 12


@covers("frost-snare")
def test_frost_snare():
    t = ann_plays(troll("pilgrim"), "frost-snare", dice=(10, 5, 1))  # Wit against Finesse (5)
    assert "Frost Snare hits Cave Troll (best die 5 against defense 5): 1 damage = 1; Block 2" in t.text()
    assert "Cave Troll suffers Slow 2 from Frost Snare." in t.text()


@covers("purifying-light")
def test_purifying_light_hits_and_clears_an_ally():
    t = troll("pilgrim")
    t.f("bob").ailments = {"dazzle": 2}
    # the Troll holds the token: its Boulder Toss (4, at Bob: 1 1 1) acts before Purifying Light (4: 8 1)
    t = ann_plays(t, "purifying-light", dice=(1, 1, 1, 1, 8, 1), ally="c:bob")
    assert "Purifying Light hits Cave Troll (best die 8 against defense 7): 1 damage + 1 Accuracy" in t.text()
    assert "Bob's Ailments are removed (Dazzle 2) by Purifying Light." in t.text()


@covers("stoneskin")
def test_stoneskin_block_1_on_an_ally_for_the_fight():
    t = ann_plays(troll("hedge-witch", "sellsword"), "stoneskin", dice=(10, 6, 1, 1), ally="c:bob")
    assert "Bob has Block 1 for the rest of the fight (Stoneskin)." in t.text()
    assert [(e.kind, e.amount, e.rounds, e.caster) for e in t.f("bob").effects] == [("block", 1, None, "c:ann")]
    assert [p.card for p in t.f("ann").out] == ["stoneskin"]


@covers("blessing")
def test_blessing_plus_one_on_rolls_for_the_fight():
    t = ann_plays(troll("pilgrim"), "blessing", dice=(10, 7, 1))
    assert "Ann has +1 on rolls for the rest of the fight (Blessing)." in t.text()
    t.place("bob")
    t.force(10, 7, 1)  # round 2: Purifying Light 7 1 +1 = 8 2
    t.place("ann", "purifying-light")
    assert "+1 Blessing on each die: 8, 2" in t.text()


@covers("hawk-sight")
def test_hawk_sight_accuracy_on_six_this_round():
    t = troll("hedge-witch")
    t = ann_plays(t, "hawk-sight", "firebolt", dice=(10, 6, 1, 1, 7, 6, 1))
    assert "2 damage + 2 Accuracy (dice of 6 or more)" in t.text()
    assert not t.f("ann").effects  # gone after the round


@covers("quickening")
def test_quickening_three_higher_on_the_track():
    t = ann_plays(troll("hedge-witch"), "quickening", dice=(10, 6, 1, 1))
    assert "Ann has +3 Priority for the rest of the fight (Quickening)." in t.text()
    t.place("bob")
    t.force(10, 1, 1, 1)
    t.place("ann", "firebolt")
    assert "Ann's Firebolt goes on the Priority track at 8 (5 +3 Quickening)." in t.text()


# --------------------------------------------------------------- monsters --
@covers("cave-troll:Boulder Toss", kind=ACTIONS)
def test_boulder_toss_at_the_least_grit():
    t = ann_plays(troll(), dice=(3, 5, 1, 1))  # Bob (7 Grit): Might against Finesse (7); 5 misses
    assert "The table rolls 3 for the Cave Troll: Boulder Toss at Bob." in t.text()
    t = ann_plays(troll(), dice=(4, 9, 1, 1))
    # a monster's attack counts as a base attack: Bob's Warded Cloak (spells only) does not block it
    assert "Boulder Toss hits Bob (best die 9 against defense 7): 2 damage + 1 Accuracy (dice of 8 or more) = 3 → " \
           "3 Injury." in t.text() and t.f("bob").grit == 4


@covers("cave-troll:Crushing Swing", kind=ACTIONS)
def test_crushing_swing_at_the_most_fame():
    t = troll()
    t.state.characters["bob"].fame = 1
    t = ann_plays(t, dice=(9, 7, 1, 1))
    assert "The table rolls 9 for the Cave Troll: Crushing Swing at Bob." in t.text()
    assert "Crushing Swing hits Bob (best die 7 against defense 7): 3 damage = 3 → 3 Injury." in t.text()


@covers("cave-troll:Stony Hide", kind=ACTIONS)
def test_stony_hide_block_2_this_round():
    t = ann_plays(troll(), "base-attack", dice=(12, 9, 1, 1), base=["attack"])
    assert "Cave Troll has Block 2 until the round ends (Stony Hide)." in t.text()
    assert "= 3; Block 2 (Stony Hide) → 1 Injury." in t.text() and not t.f("cave-troll").effects


def wisp(**kw):
    return fight({"ann": "sellsword", "bob": "hedge-witch"}, monster="marsh-wisp", fame={"ann": 0, "bob": 0}, **kw)


@covers("marsh-wisp:Will-o'-Light", kind=ACTIONS)
def test_will_o_light_at_the_token_holder():
    t = wisp()  # the Wisp (Rank 2) holds the token: the first character in turn order, Ann
    t = ann_plays(t, dice=(2, 9, 1, 1))
    assert "The table rolls 2 for the Marsh Wisp: Will-o'-Light at Ann." in t.text()
    assert "Ann suffers Dazzle 2 from Will-o'-Light." in t.text()
    t2 = fight({"ann": "sellsword", "bob": "duelist"}, monster="marsh-wisp", fame={"ann": 0, "bob": 3})
    t2.place("ann")  # Bob (Fame 3) holds the token: Ann places first
    t2.force(1, 1, 1, 1)
    t2.place("bob")
    assert "The table rolls 1 for the Marsh Wisp: Will-o'-Light at Bob." in t2.text()


@covers("marsh-wisp:Bog Fire", kind=ACTIONS)
def test_bog_fire_at_the_most_grit():
    t = ann_plays(wisp(), dice=(4, 9, 1, 1))  # Ann has the most Grit (10)
    assert "The table rolls 4 for the Marsh Wisp: Bog Fire at Ann." in t.text()
    assert "Ann suffers Burn 2 from Bog Fire." in t.text()


@covers("marsh-wisp:Clinging Mire", kind=ACTIONS)
def test_clinging_mire_at_the_least_grit():
    t = ann_plays(wisp(), dice=(8, 9, 1, 1))
    assert "The table rolls 8 for the Marsh Wisp: Clinging Mire at Bob." in t.text()
    assert "Bob suffers Slow 2 from Clinging Mire." in t.text()


@covers("marsh-wisp:Sap Strength", kind=ACTIONS)
def test_sap_strength_at_the_most_fame():
    t = wisp()
    t.state.characters["bob"].fame = 1
    t = ann_plays(t, dice=(12, 9, 1, 1))
    assert "The table rolls 12 for the Marsh Wisp: Sap Strength at Bob." in t.text()
    assert "Bob suffers Weak 2 from Sap Strength." in t.text()


def knight():
    return fight({"ann": "sellsword", "bob": "hedge-witch"}, monster="ashen-knight", fame={"ann": 0, "bob": 0})


@covers("ashen-knight:Black Blade", kind=ACTIONS)
def test_black_blade_at_the_most_grit():
    t = ann_plays(knight(), dice=(5, 9, 1, 1))
    assert "The table rolls 5 for the Ashen Knight: Black Blade at Ann." in t.text()
    assert "Black Blade hits Ann (best die 9 against defense 7): 3 damage + 1 Accuracy (dice of 8 or more) = 4; " \
           "Block 2 (Chain Coat) → 2 Injury." in t.text()


@covers("ashen-knight:Ember Oath", kind=ACTIONS)
def test_ember_oath_plus_one_on_rolls_for_the_fight():
    t = ann_plays(knight(), dice=(6,))
    assert "Ashen Knight has +1 on rolls for the rest of the fight (Ember Oath)." in t.text()
    t = ann_plays(t, dice=(1, 8, 1, 1))  # round 2: Black Blade 8 1 1, +1 each
    assert "+1 Ember Oath on each die: 9, 2, 2" in t.text()


@covers("ashen-knight:Grave Shout", kind=ACTIONS)
def test_grave_shout_resolve_against_resolve_weak_2():
    t = knight()
    t.state.characters["bob"].fame = 1
    t = ann_plays(t, dice=(9, 7, 1, 1))
    assert "The table rolls 9 for the Ashen Knight: Grave Shout at Bob." in t.text()
    assert "Ashen Knight rolls Resolve (3 dice) to hit (defense 7)" in t.text()
    assert "Bob suffers Weak 2 from Grave Shout." in t.text()


# ------------------------------------------------------------------ gear --
@covers("chain-coat", "padded-jerkin", "warded-cloak", kind=GEAR)
def test_worn_gear_blocks_the_attack_types_it_names():
    t = troll("duelist", "pilgrim", gear={"bob": "chain-coat"})
    c = F(t.state, PACK, None)
    ann, bob = t.f("ann"), t.f("bob")  # Padded Jerkin; Chain Coat (the Warded Cloak has no effect)
    assert [blocks(c, ann, k) for k in ("base", "spell", "gear")] == [[("Padded Jerkin", 1)]] * 3
    assert [blocks(c, bob, k) for k in ("base", "spell", "gear")] == [[("Chain Coat", 2)], [], [("Chain Coat", 2)]]
    t2 = fight({"ann": "hedge-witch"}, monster="marsh-wisp", fame={"ann": 0})
    assert blocks(F(t2.state, PACK, None), t2.f("ann"), "spell") == [("Warded Cloak", 2)]


# ----------------------------------------------------------------- heroes --
@pytest.mark.parametrize("hero", sorted(PACK.heroes))
def test_each_hero_makes_its_character_and_its_base_attack(hero):
    h = PACK.heroes[hero]
    t = fight({"ann": hero}, monster="cave-troll", fame={"ann": 0})
    ch = t.state.characters["ann"]
    assert (ch.skills, ch.grit, ch.fame == 0, ch.cards, ch.gear) == (h.skills, h.grit, True, list(h.cards),
                                                                      list(h.gear))
    t.force(10, *([12] * h.skills[h.base.skill]))
    t.place("ann", "base-attack", base=["attack"])
    tier = PACK.monsters["cave-troll"].skills[h.base.defense]
    assert f"Ann rolls {h.base.skill.capitalize()} ({h.skills[h.base.skill]} di" in t.text()
    assert f"against defense {3 + 2 * tier}): {h.base.damage} damage" in t.text()


# ----------------------------------------------------------- nothing left out --
def test_every_card_monster_action_and_gear_has_its_test():
    assert CARDS == set(PACK.cards), set(PACK.cards) ^ CARDS
    assert ACTIONS == {f"{m.id}:{a.name}" for m in PACK.monsters.values() for a in m.actions}
    assert GEAR == set(PACK.gear)
