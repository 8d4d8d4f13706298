"""Every option of every action is bounded inside the rules (engine.bounds), so a replayed log is held to what
a command may do: the largest values a command can send still play, the most hostile ones are refused at once
with the option's name, and nothing changes."""
from __future__ import annotations

import time

import pytest

from battle_helpers import jailbreak, party
from engine import bounds as B
from engine import rulesets
from engine.actions import dice_for
from commands.core import load_commands
from engine.commands import COMMANDS
from engine.core import Action, RuleError

HOSTILE = [2**62, -(2**62), 10**30, "x" * 10_000, [7] * 100_000, [[2**62, 2**62]] * 3, {"a": {"b": [1] * 50_000}},
           [[[[[[[[[[1]]]]]]]]]] * 1_000, 1e300, True]


def tables():
    return [(name, r.actions) for name, r in sorted(rulesets.REGISTRY.items())]


def every_option():
    for name, table in tables():
        for kind, handler in sorted(table.handlers.items()):
            for option, bound in sorted((handler.args or {}).items()):
                yield name, kind, option, bound


def test_every_action_of_every_ruleset_declares_its_options():
    undeclared = [f"{name}: {kind}" for name, table in tables() for kind, h in sorted(table.handlers.items())
                  if h.args is None]
    assert undeclared == [], "declare `args` on these handlers (engine.bounds): " + ", ".join(undeclared)


def largest(bound):
    """The largest value of a bound (what the longest command can send)."""
    if isinstance(bound, B.Int):
        return bound.hi
    if isinstance(bound, B.Text):
        return "W" * bound.max
    if isinstance(bound, B.Flag):
        return True
    if isinstance(bound, B.OneHex):
        return [B.HEX_LIMIT, -B.HEX_LIMIT]
    if isinstance(bound, B.Hexes):
        return [[B.HEX_LIMIT, B.HEX_LIMIT - i] for i in range(bound.max)]
    if isinstance(bound, B.Numbers):
        return [bound.hi] * bound.max
    if isinstance(bound, B.Pairs):
        return [["w" * 60, bound.hi]] * bound.max
    if isinstance(bound, B.Player):
        return "9" * 20
    if isinstance(bound, B.Players):
        return [str(10**19 + i) for i in range(bound.max)]
    if isinstance(bound, B.Mapping):
        return {str(10**19 + i): largest(bound.value) for i in range(bound.max)}
    if isinstance(bound, B.OneOf):
        return largest(bound.forms[-1])
    if isinstance(bound, B.Data):
        return {"d": [1] * 1000}
    raise AssertionError(f"no largest value for {bound!r}")


@pytest.mark.parametrize("name,kind,option,bound", list(every_option()),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_the_most_hostile_values_are_refused_at_once_naming_the_option(name, kind, option, bound):
    if isinstance(bound, B.Data):
        pytest.skip("an import's file is bounded by the import itself (tests/test_transfer*.py)")
    game = rulesets.named(name)
    tried = 0
    for value in HOSTILE:
        if bound.problem(value) is None:  # only where any such value is harmless: an id, a seed, yes or no
            assert isinstance(bound, (B.Flag, B.Player)) or option == "seed", (kind, option, str(value)[:40])
            continue
        tried += 1
        started = time.perf_counter()
        with pytest.raises(RuleError) as refused:
            game.execute(None, Action(kind, "1001", {option: value}), dice_for(None), 0.0)
        assert f"`{option}`" in refused.value.message and "Nothing was changed" in refused.value.message
        assert time.perf_counter() - started < 5  # a refusal never does the action's work (a loose bound)
    assert tried >= 3


def test_an_option_no_command_sends_is_refused():
    game = rulesets.named("tes")
    with pytest.raises(RuleError, match="battle.adjust has no option `tenacity_bomb`"):
        game.execute(None, Action("battle.adjust", "1001", {"tenacity_bomb": 1}), dice_for(None), 0.0)


def test_the_issues_fatigue_and_bonus_hp_bombs_are_refused_and_the_largest_values_play():
    s, _ = jailbreak(party())
    game = rulesets.named("tes")
    for option in ("fatigue", "bonus_hp"):
        with pytest.raises(RuleError, match=f"`{option}` of battle.adjust must be a whole number"):
            game.execute(s, Action("battle.adjust", "S", {"unit": "Shannon", option: 2**62}), dice_for(s), 0.0)
    out = game.execute(s, Action("battle.adjust", "S", {"unit": "Shannon", "fatigue": 13, "bonus_hp": 99}),
                       dice_for(s), 0.0)
    adv = out.state.adventurers["S"]
    assert adv.bonus_hp == 99
    assert "fatigue" in " ".join(e.text for e in out.events)


@pytest.mark.parametrize("name,kind", [(n, k) for n, t in tables() for k in sorted(t.handlers)])
def test_the_largest_values_of_every_option_play_or_are_refused_in_words(name, kind):
    """Every option at once at its largest: the action plays or is refused by the rules, never breaks."""
    game = rulesets.named(name)
    handler = game.actions.handlers[kind]
    args = {option: largest(bound) for option, bound in (handler.args or {}).items()}
    state = _skirmish_in_battle() if name == "skirmish" else jailbreak(party())[0]
    actor = state.leader
    started = time.perf_counter()
    try:
        game.execute(state, Action(kind, actor, args), dice_for(state), 0.0)
    except RuleError:
        pass
    assert time.perf_counter() - started < 10


def _skirmish_in_battle():
    from engine.core import Action as A

    game = rulesets.named("skirmish")
    s = None
    for a in (A("campaign.new", "L", {"name": "Field", "channel_id": "c", "guild_id": "g", "seed": 3,
                                      "ruleset": "skirmish"}),
              A("skirmish.warband", "L", {"faction": "wardens"}),
              A("skirmish.recruit", "L", {"fighter": "bramble-guard"}),
              A("skirmish.deploy", "L", {}),
              A("skirmish.bot", "L", {"faction": "reavers"}),
              A("skirmish.start", "L", {})):
        s = game.execute(s, a, dice_for(s), 0.0).state
    return s


# the command options whose numbers come from the rules' declarations: each pair must agree
OPTION_BOUNDS = [
    ("battle adjust", "hp", "tes", "battle.adjust", "hp"),
    ("battle adjust", "bonus_hp", "tes", "battle.adjust", "bonus_hp"),
    ("battle adjust", "tenacity", "tes", "battle.adjust", "tenacity"),
    ("battle adjust", "fatigue", "tes", "battle.adjust", "fatigue"),
    ("battle start", "ep", "tes", "battle.start", "ep"),
    ("battle start", "session", "tes", "battle.start", "session"),
    ("battle drop", "slot", "tes", "battle.drop", "slot"),
    ("campaign settings", "reminder_hours", "tes", "campaign.settings", "reminder_hours"),
    ("campaign settings", "prevent_timeout_minutes", "tes", "campaign.settings", "prevent_timeout_minutes"),
    ("skirmish settings", "points", "skirmish", "campaign.settings", "points"),
    ("skirmish settings", "rounds", "skirmish", "campaign.settings", "rounds"),
    ("skirmish channel", "die", "skirmish", "skirmish.channel", "die"),
    ("skirmish ability", "die", "skirmish", "skirmish.ability", "die"),
]


@pytest.mark.parametrize("cmd,opt,game,kind,arg", OPTION_BOUNDS)
def test_a_commands_numbers_are_the_rules_bounds(cmd, opt, game, kind, arg):
    load_commands()
    option = next(o for o in COMMANDS[cmd].options if o.name == opt)
    bound = rulesets.named(game).actions.handlers[kind].args[arg]
    assert (option.min, option.max) == (bound.lo, bound.hi)


def test_every_whole_number_option_of_every_command_is_checked_against_the_rules():
    load_commands()
    ints = {(c.name, o.name) for c in COMMANDS.values() for o in c.options if o.type is int}
    local_reads = {("campaign log", "page")}  # a page of a read, not an action's option
    assert ints - local_reads == {(c, o) for c, o, *_ in OPTION_BOUNDS}
