"""The skirmish rules with forced dice: initiative and ability dice, alternating activations, Channel Magic
and the Magical Calamity, Retreat, Wait, attacks, abilities, the bot's warband and the end of the battle."""
from __future__ import annotations

import pytest

import rulesets.skirmish  # noqa: F401 - registers the ruleset
from engine.actions import dice_for
from engine.core import Action, RuleError
from rulesets.skirmish.rules import TABLE
from rulesets.skirmish.rules.engine import read_roll
from rulesets.skirmish.state import BOT, Skirmish

L, B = "lena", "bob"
# initiative rolls that give Lena the initiative (4 singles against 2) and their ability dice
LENA_FIRST = [1, 2, 3, 4, 5, 5, 1, 1, 2, 2, 3, 6]  # Lena: double of 5; Bob: double of 1, double of 2


class Game:
    """A skirmish driven action by action, like the service does (state saved between actions)."""

    def __init__(self):
        self.state = None
        self.events = []

    def do(self, actor, type_, forced=None, **args):
        state = self.state
        dice = dice_for(state, (list(state.forced) if state else []) + list(forced or []))
        applied = TABLE.execute(state, Action(type_, actor, {k: v for k, v in args.items() if v is not None}), dice)
        self.state = Skirmish.from_dict(applied.state.to_dict())  # stored and loaded again
        self.events = applied.events
        return applied

    def refused(self, actor, type_, **args) -> str:
        before = self.state.to_dict()
        with pytest.raises(RuleError) as err:
            self.do(actor, type_, **args)
        assert self.state.to_dict() == before  # a refusal changes nothing
        return err.value.message

    def text(self) -> str:
        return "\n".join(e.words(lambda p: "@" + p) for e in self.events)

    def f(self, fid):
        return self.state.fighters[fid]

    def put(self, fid, q, r):
        self.state.fighters[fid].hex = (q, r)

    def dice(self, who):
        return [(d.kind, d.value, d.channelled) for d in self.state.fight.dice.get(who, [])]


def setup(lena=("thornspeaker", "bramble-guard"), bob=("ashcaller", "ember-runner"), initiative=LENA_FIRST,
          bot=False) -> Game:
    g = Game()
    g.do(L, "campaign.new", name="Test", ruleset="skirmish", channel_id="c1", guild_id="g1", seed=7)
    g.do(L, "skirmish.warband", faction="wardens")
    for t in lena:
        g.do(L, "skirmish.recruit", fighter=t)
    g.do(L, "skirmish.deploy")
    if bot:
        g.do(L, "skirmish.bot", faction="reavers")
    else:
        g.do(B, "skirmish.warband", faction="reavers")
        for t in bob:
            g.do(B, "skirmish.recruit", fighter=t)
        g.do(B, "skirmish.deploy")
    g.do(L, "skirmish.start", forced=initiative)
    return g


# ---------------------------------------------------------------- initiative --
def test_singles_doubles_triples_quads_from_six_dice():
    assert read_roll([1, 2, 3, 4, 5, 6])[0] == 6 and read_roll([1, 2, 3, 4, 5, 6])[1] == []
    singles, dice = read_roll([4, 4, 4, 2, 2, 6])
    assert singles == 1 and [(d.kind, d.value) for d in dice] == [("triple", 4), ("double", 2)]
    singles, dice = read_roll([3, 3, 3, 3, 1, 5])
    assert singles == 2 and [(d.kind, d.value) for d in dice] == [("quad", 3)]
    singles, dice = read_roll([6, 6, 6, 6, 6, 2])  # five alike count as a quad
    assert singles == 1 and [(d.kind, d.value) for d in dice] == [("quad", 6)]


def test_most_singles_take_the_initiative_and_matching_faces_become_ability_dice():
    g = setup()
    assert g.state.fight.order == [L, B] and g.state.fight.turn == L
    assert g.dice(L) == [("double", 5, False)]
    assert g.dice(B) == [("double", 2, False), ("double", 1, False)]
    assert "@lena has the initiative" in g.text()
    assert g.state.fight.rolls == {L: [1, 2, 3, 4, 5, 5], B: [1, 1, 2, 2, 3, 6]}


def test_a_tie_on_singles_is_settled_by_a_roll_off():
    # both roll 4 singles; roll-off 3 v 3 (again), then 2 v 5: Bob activates first
    g = setup(initiative=[1, 2, 3, 4, 5, 5, 1, 2, 3, 4, 6, 6, 3, 3, 2, 5])
    assert g.state.fight.order == [B, L]
    assert g.text().count("roll-off") == 2


# ---------------------------------------------------------------- activations --
def test_activations_alternate_and_the_round_ends_when_every_fighter_has_activated():
    g = setup()
    assert "turn to activate" in g.refused(B, "skirmish.activate", fighter="b1")
    g.do(L, "skirmish.activate", fighter="a2")
    assert g.state.fight.active.actions_left == 2
    assert "activating Bramble Guard" in g.refused(B, "skirmish.activate", fighter="b1")
    g.do(L, "skirmish.wait")  # first action: waiting
    g.put("a2", 3, 5)
    assert g.state.fight.turn == B
    assert "@bob's turn" in g.refused(L, "skirmish.activate", fighter="a1").replace("<@bob>", "@bob")
    g.do(B, "skirmish.activate", fighter="b2")
    g.do(B, "skirmish.end")
    assert g.state.fight.turn == L
    g.do(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.end")
    g.do(B, "skirmish.activate", fighter="b1")
    g.do(B, "skirmish.end")
    # Bob is done; Lena's waiting Bramble Guard still has its second activation: the round goes on
    assert g.state.fight.round == 1 and g.state.fight.turn == L
    assert "already activated" in g.refused(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.activate", fighter="a2", forced=[])
    assert g.state.fight.active.actions_left == 1 and g.state.fight.active.second
    g.do(L, "skirmish.end", forced=[6, 6, 6, 6, 1, 2, 1, 2, 3, 4, 5, 6])
    assert g.state.fight.round == 2
    assert "battle round 1 ends" in g.text() and "Round 2" in g.text()
    # the new round's dice replace the old: Bob now has 6 singles and the initiative
    assert g.state.fight.order == [B, L] and g.dice(L) == [("quad", 6, False)] and g.dice(B) == []
    assert not any(f.activated or f.waiting for f in g.state.fighters.values())


def test_the_table_waits_for_whoever_must_activate():
    g = setup()
    assert TABLE.whose_move(g.state)[0] == L
    g.do(L, "skirmish.activate", fighter="a1")
    assert TABLE.whose_move(g.state)[0] == L
    g.do(L, "skirmish.end")
    assert TABLE.whose_move(g.state)[0] == B


# ---------------------------------------------------------------- channel magic --
def channel_setup():
    g = setup()
    g.do(L, "skirmish.activate", fighter="a1")  # the Thornspeaker, a Wizard
    return g


def test_channel_adds_a_double_of_three_then_an_arcane_surge_does_nothing():
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="new", forced=[4])
    assert g.dice(L) == [("double", 5, False), ("double", 3, True)]
    assert g.f("a1").damage == 0 and "arcane surge" in g.text()
    assert g.state.fight.active.actions_left == 1


@pytest.mark.parametrize("roll", [5, 6])
def test_calamity_four_to_six_no_effect(roll):
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="new", forced=[roll])
    assert g.f("a1").damage == 0 and not g.f("a1").out


@pytest.mark.parametrize("roll", [2, 3])
def test_calamity_two_or_three_deals_the_channelled_die_value_to_the_wizard(roll):
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="new", forced=[roll])
    assert g.f("a1").damage == 3 and "barely controlled power, 3 damage" in g.text()
    g.do(L, "skirmish.channel", mode="raise", die=2, forced=[roll])  # the same die, now 6
    assert g.dice(L)[1] == ("double", 6, True)
    assert g.f("a1").damage == 3 + 6


def test_calamity_one_takes_the_wizard_out_of_action_and_its_channelled_dice_fade():
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="upgrade", die=1, forced=[1])
    assert g.f("a1").out and g.f("a1").hex is None
    assert "calamitous detonation" in g.text() and "taken out of action" in g.text()
    assert g.dice(L) == []  # the upgraded die was channelled: it fades with the activation
    assert g.state.fight.active is None and g.state.fight.turn == B


def test_repeated_channels_on_the_same_die():
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="upgrade", die=1, forced=[6])
    assert g.dice(L) == [("triple", 5, True)]
    g.do(L, "skirmish.channel", mode="raise", die=1, forced=[6])  # 5 + 3, capped at 6
    assert g.dice(L) == [("triple", 6, True)]
    # the activation stays open: its actions are spent, but the channelled triple may pay for an ability
    assert g.state.fight.active is not None and g.state.fight.active.actions_left == 0
    g.do(L, "skirmish.end")
    g.do(B, "skirmish.activate", fighter="b2")
    g.do(B, "skirmish.end")
    g.do(L, "skirmish.activate", fighter="a2")
    g.do(L, "skirmish.end")
    g.do(B, "skirmish.activate", fighter="b1")  # Bob's Ashcaller: upgrade twice to a quad, then no further
    g.do(B, "skirmish.channel", mode="upgrade", die=1, forced=[5])
    g.do(B, "skirmish.channel", mode="upgrade", die=1, forced=[5])
    assert g.dice(B)[0] == ("quad", 2, True)


def test_channel_refusals_name_the_fix():
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="raise", die=1, forced=[6])
    assert g.dice(L) == [("double", 6, True)]
    assert "already shows 6" in g.refused(L, "skirmish.channel", mode="raise", die=1)
    assert "has 1 ability die: die: must be 1." in g.refused(L, "skirmish.channel", mode="upgrade", die=4)
    g.do(L, "skirmish.end")
    g.do(B, "skirmish.activate", fighter="b2")
    assert "not a Wizard" in g.refused(B, "skirmish.channel", mode="new")


def test_a_quad_can_not_be_upgraded():
    g = setup(initiative=[3, 3, 3, 3, 1, 2, 1, 1, 2, 2, 4, 4])
    g.do(L, "skirmish.activate", fighter="a1")
    assert g.dice(L) == [("quad", 3, False)]
    assert "already a quad" in g.refused(L, "skirmish.channel", mode="upgrade", die=1)


def test_a_channelled_die_unused_is_discarded_at_the_end_of_the_wizards_activation():
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="new", forced=[6])
    g.do(L, "skirmish.wait")  # Wait as the last action: the activation ends
    assert g.dice(L) == [("double", 5, False)]
    assert "unused channelled dice fade: double of 3" in g.text()
    assert g.state.fight.turn == B


def test_a_channelled_die_pays_for_the_wizards_own_ability_in_that_activation():
    g = channel_setup()
    g.put("b1", 3, 5)
    g.do(L, "skirmish.channel", mode="new", forced=[6])
    g.do(L, "skirmish.channel", mode="raise", die=2, forced=[6])
    g.do(L, "skirmish.ability", name="spark", die=2, target="b1")
    assert g.f("b1").damage == 6 and g.dice(L) == [("double", 5, False)]
    assert g.state.fight.active is None  # actions spent and an ability used: the activation ended


def test_a_channelled_die_can_not_pay_for_another_fighter():
    g = channel_setup()
    g.do(L, "skirmish.channel", mode="new", forced=[6])
    fight = g.state.fight
    # even if a channelled die were still in the pool when another fighter acts, it is refused
    g.do(L, "skirmish.wait")
    g.do(B, "skirmish.activate", fighter="b2")
    g.do(B, "skirmish.end")
    g.do(L, "skirmish.activate", fighter="a2")
    from rulesets.skirmish.state import AbilityDie
    g.state.fight.dice[L].append(AbilityDie("double", 4, channelled=True, wizard="a1"))
    assert "channelled by another Wizard" in g.refused(L, "skirmish.ability", name="surge", die=2, to="2,5")
    assert fight is not None


# ---------------------------------------------------------------- retreat --
def retreat_setup():
    g = setup()
    g.put("a2", 5, 4)
    g.put("b2", 6, 4)  # adjacent: within 1 hex
    g.do(L, "skirmish.activate", fighter="a2")
    return g


def test_a_fighter_within_one_hex_of_an_enemy_must_retreat_to_move_away():
    g = retreat_setup()
    msg = g.refused(L, "skirmish.move", to="2,4")
    assert "within 1 hex of Ember Runner" in msg and "/skirmish retreat" in msg
    g.do(L, "skirmish.retreat", to="2,4")  # 3 hexes west, clear of every enemy
    assert g.f("a2").hex == (2, 4) and "retreats 3 hexes" in g.text()
    trail = g.state.fight.trail[-1]
    assert trail["kind"] == "retreat" and trail["path"][0] == [5, 4] and trail["path"][-1] == [2, 4]


def test_a_retreat_is_at_most_three_hexes_and_may_not_end_within_one_hex_of_an_enemy():
    g = retreat_setup()
    msg = g.refused(L, "skirmish.retreat", to="1,4")
    assert "can't reach 1,4 in 3 hexes" in msg and "Hexes it can retreat to" in msg
    msg = g.refused(L, "skirmish.retreat", to="6,3")
    assert "within 1 hex of an enemy" in msg


def test_a_retreat_is_refused_when_no_hex_satisfies_it_and_another_action_is_asked_for():
    g = setup(lena=("mossling",))
    g.put("a1", 0, 0)  # the field's north-west corner: its only neighbours on the field are 1,0 and 0,1
    g.put("b1", 1, 0)
    g.put("b2", 0, 1)
    g.do(L, "skirmish.activate", fighter="a1")
    msg = g.refused(L, "skirmish.retreat", to="2,2")
    assert "can't Retreat" in msg and "Choose another action" in msg
    assert "/skirmish retreat" in g.refused(L, "skirmish.move", to="2,2")
    g.do(L, "skirmish.attack", target="b2", forced=[1, 1, 1])  # another action is allowed
    assert g.state.fight.active.actions_left == 1


def test_retreat_needs_an_enemy_within_one_hex():
    g = setup()
    g.do(L, "skirmish.activate", fighter="a2")
    assert "use /skirmish move" in g.refused(L, "skirmish.retreat", to="1,4")


# ---------------------------------------------------------------- wait --
def test_wait_as_the_last_action_ends_the_activation():
    g = setup()
    g.put("a2", 1, 4)
    g.do(L, "skirmish.activate", fighter="a2")
    g.do(L, "skirmish.move", to="3,4")
    g.do(L, "skirmish.wait")
    assert g.state.fight.active is None and g.state.fight.turn == B
    assert g.f("a2").activated and not g.f("a2").waiting
    assert "waits as its last action" in g.text()


def test_wait_first_then_a_second_activation_with_the_second_action_and_a_second_ability():
    g = setup(initiative=[1, 2, 3, 4, 5, 5, 1, 1, 2, 2, 3, 6])
    g.state.fight.dice[L].append(g.state.fight.dice[L][0].__class__("double", 4))
    g.put("a2", 0, 4)
    g.do(L, "skirmish.activate", fighter="a2")
    g.do(L, "skirmish.ability", name="surge", die=1, to="5,4")  # before the action: move 5
    assert g.f("a2").hex == (5, 4)
    g.do(L, "skirmish.wait")  # first action: waiting, the activation ends
    assert g.f("a2").waiting and g.state.fight.turn == B
    assert "activates once more" in g.text()
    g.do(B, "skirmish.activate", fighter="b2")
    g.do(B, "skirmish.end")
    g.do(L, "skirmish.activate", fighter="a2")  # the second activation: one action
    act = g.state.fight.active
    assert act.second and act.actions_left == 1 and not act.ability_used
    assert "second activation after waiting" in g.text()
    g.do(L, "skirmish.move", to="7,4")  # its second action
    assert g.state.fight.active is not None  # an ability may still follow the action
    g.do(L, "skirmish.ability", name="bark-skin", die=1)  # a second ability in the same combat phase
    assert g.state.fight.active is None and not g.f("a2").waiting
    assert g.state.fight.turn == B


def test_one_ability_per_activation_and_the_die_must_be_good_enough():
    g = setup()
    g.do(L, "skirmish.activate", fighter="a2")
    assert "needs a triple or better" in g.refused(L, "skirmish.ability", name="second-wind", die=1)
    assert "Wizards only" in g.refused(L, "skirmish.ability", name="spark", die=1, target="b1")
    g.do(L, "skirmish.ability", name="bark-skin", die=1)
    g.state.fight.dice[L].append(g.state.fight.dice[B][0])
    assert "one per activation" in g.refused(L, "skirmish.ability", name="surge", die=1, to="2,4")


# ---------------------------------------------------------------- attacks --
@pytest.mark.parametrize("attacker,target,need", [
    ("a2", "b2", 3),  # Strength 4 against Toughness 3: hits on 3+
    ("a1", "b2", 4),  # Strength 3 against Toughness 3: 4+
])
def test_the_hit_table(attacker, target, need):
    g = setup()
    g.put(attacker, 5, 4)
    g.put(target, 6, 4)
    g.do(L, "skirmish.activate", fighter=attacker)
    attacks = 3 if attacker == "a2" else 2
    rolls = [need - 1, need, 6][:attacks] if attacks == 3 else [need - 1, need]
    g.do(L, "skirmish.attack", target=target, forced=rolls)
    prof = {"a2": (2, 4), "a1": (1, 3)}[attacker]
    expect = prof[0] + (prof[1] if 6 in rolls else 0)
    assert g.f(target).damage == expect
    assert f"hits on {need}+" in g.text()


def test_strength_below_toughness_hits_on_five_and_criticals_on_six():
    g = setup(bob=("slag-brute",))
    g.put("a1", 5, 4)
    g.put("b1", 6, 4)
    g.do(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.attack", target="b1", forced=[4, 5])  # Strength 3 against Toughness 5
    assert g.f("b1").damage == 1
    g.do(L, "skirmish.attack", target="b1", forced=[6, 6])
    assert g.f("b1").damage == 1 + 3 + 3


def test_attack_refusals():
    g = setup()
    g.do(L, "skirmish.activate", fighter="a2")
    assert "attacks at up to 1" in g.refused(L, "skirmish.attack", target="b1")
    assert "on your side" in g.refused(L, "skirmish.attack", target="a1")
    assert "No fighter" in g.refused(L, "skirmish.attack", target="nobody")


# ---------------------------------------------------------------- the end --
def test_the_last_warband_standing_wins():
    g = setup(lena=("bramble-guard",), bob=("ember-runner",))
    g.put("a1", 5, 4)
    g.put("b1", 6, 4)
    g.state.fighters["b1"].damage = 8
    g.do(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.attack", target="b1", forced=[3, 1, 1])
    assert g.state.phase == "over" and g.state.result["winner"] == L
    assert "@lena wins the skirmish" in g.text()
    assert "over" in g.refused(B, "skirmish.activate", fighter="b1")


def test_after_the_last_round_the_most_points_on_the_field_win():
    g = setup(lena=("thornspeaker",), bob=("ember-runner",))
    g.do(L, "campaign.settings", rounds=1)  # the last round is this one
    g.do(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.end")
    g.do(B, "skirmish.activate", fighter="b1")
    g.do(B, "skirmish.end")
    assert g.state.phase == "over" and g.state.result["winner"] == L  # 120 points against 80
    assert "keeps the most points" in g.text()


def test_points_limit_and_muster_refusals():
    g = Game()
    g.do(L, "campaign.new", name="Test", ruleset="skirmish", channel_id="c1", seed=1)
    assert "Pick your warband first" in g.refused(L, "skirmish.recruit", fighter="mossling")
    assert "no warband called" in g.refused(L, "skirmish.warband", faction="pirates")
    g.do(L, "skirmish.warband", faction="reavers")
    assert "no fighter type" in g.refused(L, "skirmish.recruit", fighter="mossling")
    g.do(L, "skirmish.recruit", fighter="slag-brute")
    g.do(L, "skirmish.recruit", fighter="slag-brute")
    assert "costs 170 points" in g.refused(L, "skirmish.recruit", fighter="slag-brute")
    assert "outside your deployment zone" in g.refused(L, "skirmish.deploy", fighter="a1", at="0,4")
    assert "two warbands" in g.refused(L, "skirmish.start")
    g.do(L, "skirmish.bot", faction="wardens")
    assert "not deployed yet" in g.refused(L, "skirmish.start")
    g.do(L, "skirmish.deploy", fighter="a1", at="-2,4")
    assert g.f("a1").hex == (-2, 4)
    assert "taken by" in g.refused(L, "skirmish.deploy", fighter="a2", at="-2,4")


# ---------------------------------------------------------------- the bot --
def test_the_bot_moves_toward_the_nearest_enemy_and_attacks_in_range():
    from engine.hexes import Hex, distance

    g = setup(lena=("bramble-guard",), bot=True, initiative=[1, 2, 3, 4, 5, 5, 1, 1, 2, 2, 3, 6])
    assert [f.name for f in g.state.fighters_of(BOT)] == ["Ashcaller", "Slag Brute", "Ember Runner"]
    assert all(f.hex for f in g.state.fighters_of(BOT)) and TABLE.whose_move(g.state)[0] == L
    g.put("a1", 5, 4)
    g.put("b1", 9, 4)  # the Ashcaller: 4 hexes away, within its range of 5
    brute_before = distance(Hex(5, 4), Hex(*g.f("b2").hex))
    g.do(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.end", forced=[1, 1, 1, 1])  # the Ashcaller's two attacks miss
    text = g.text()
    first = text.split("Round 2")[0]
    assert first.count("Ashcaller attacks Bramble Guard") == 2 and "Ashcaller moves" not in first
    # Lena has nobody left to activate: the bot activates the rest of its warband, then round 2 begins
    brute = g.f("b2")
    assert "Slag Brute moves" in first and distance(Hex(5, 4), Hex(*brute.hex)) < brute_before
    assert "Ember Runner moves" in first and "Ember Runner attacks Bramble Guard" in first
    assert g.state.fight.round == 2 and "Round 2" in text
    assert TABLE.whose_move(g.state) is None or TABLE.whose_move(g.state)[0] == L


def test_leaving_takes_the_warband_and_nobody_joins_or_leaves_in_battle():
    g = Game()
    g.do(L, "campaign.new", name="Test", ruleset="skirmish", channel_id="c1", seed=1)
    g.do(B, "skirmish.warband", faction="reavers")
    g.do(B, "skirmish.recruit", fighter="ember-runner")
    g.do(B, "campaign.leave")
    assert B not in g.state.members and B not in g.state.warbands and g.state.fighters == {}
    g2 = setup()
    assert "battle has begun" in g2.refused("cara", "campaign.join")
    assert "can't leave" in g2.refused(B, "campaign.leave")


def test_a_waiting_wizard_channels_in_its_second_activation_and_spends_the_die_before_its_action():
    g = setup()
    g.put("a1", 4, 5)
    g.put("b1", 8, 5)
    g.do(L, "skirmish.activate", fighter="a1")
    g.do(L, "skirmish.wait")  # first action: waiting
    g.do(B, "skirmish.activate", fighter="b2")
    g.do(B, "skirmish.end")
    g.do(L, "skirmish.activate", fighter="a2")
    g.do(L, "skirmish.end")
    g.do(B, "skirmish.activate", fighter="b1")
    g.do(B, "skirmish.end")
    g.do(L, "skirmish.activate", fighter="a1")  # its second activation: an ability before its one action
    g.do(L, "skirmish.ability", name="spark", die=1, target="b1")
    assert g.f("b1").damage == 5 and g.state.fight.active.actions_left == 1
    g.do(L, "skirmish.channel", mode="new", forced=[6])  # its action: a channelled double of 3 ...
    # ... this activation is its current one: the die fades when it ends, though no ability may follow now
    text = g.text()
    assert "unused channelled dice fade: double of 3" in text
    assert text.index("fade") < text.index("battle round 1 ends")  # gone before the round ended


# ---------------------------------------------------------------- state --
def test_state_round_trips_and_loads_tolerantly():
    g = setup()
    d = g.state.to_dict()
    assert Skirmish.from_dict(d).to_dict() == d
    old = Skirmish.from_dict({"channel_id": "1", "leader": "x"})
    assert old.phase == "muster" and old.ruleset == "skirmish" and old.fight is None


def test_three_warbands_take_turns_in_initiative_order():
    g = Game()
    g.do(L, "campaign.new", name="Three", ruleset="skirmish", channel_id="c1", seed=3)
    for who, faction, types in ((L, "wardens", ("mossling",)), (B, "reavers", ("ember-runner", "ember-runner")),
                                ("cara", "wardens", ("fenhunter",))):
        g.do(who, "skirmish.warband", faction=faction)
        for t in types:
            g.do(who, "skirmish.recruit", fighter=t)
        g.do(who, "skirmish.deploy")
    assert [g.state.warbands[o].side for o in (L, B, "cara")] == [0, 1, 2]
    # Cara 6 singles, Bob 4, Lena 2: Cara, Bob, Lena
    g.do(L, "skirmish.start", forced=[1, 1, 2, 2, 3, 4, 1, 2, 3, 4, 5, 5, 1, 2, 3, 4, 5, 6])
    assert g.state.fight.order == ["cara", B, L]
    seen = []
    for _ in range(4):
        who = g.state.fight.turn
        fid = next(f.id for f in g.state.fighters_of(who) if f.ready)
        seen.append(who)
        g.do(who, "skirmish.activate", fighter=fid)
        g.do(who, "skirmish.end", forced=[1, 2, 3, 4, 5, 6] * 3)
    # Bob's second runner activates after the others are done
    assert seen == ["cara", B, L, B] and g.state.fight.round == 2
