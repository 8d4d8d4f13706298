"""Every option of every action is bounded inside the rules (engine.bounds), so a replayed log is held to what
a command may do: the largest values a command can send still play, the most hostile ones are refused at once
with the option's name, and nothing changes."""
from __future__ import annotations

import json
import time

import pytest

from battle_helpers import jailbreak, party
from engine import bounds as B
from engine import rulesets
from engine.actions import dice_for
from commands.core import load_commands
from engine.commands import COMMANDS
from engine.core import Action, RuleError
from engine.transfer import MAX_STATE_JSON

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
    if isinstance(bound, B.Words):
        return ["w" * bound.length] * bound.max
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
    state = states_of(name)[0]  # a campaign of the action's own game, where its actions are played
    before = state.to_dict()
    tried = 0
    for value in HOSTILE:
        if bound.problem(value) is None:  # only where any such value is harmless: an id, a seed, yes or no
            assert isinstance(bound, (B.Flag, B.Player)) or option == "seed", (kind, option, str(value)[:40])
            continue
        tried += 1
        started = time.perf_counter()
        with pytest.raises(RuleError) as refused:
            game.execute(state, Action(kind, state.leader, {option: value}), dice_for(state), 0.0)
        assert f"`{option}`" in refused.value.message and "Nothing was changed" in refused.value.message
        assert time.perf_counter() - started < 5  # a refusal never does the action's work (a loose bound)
        assert state.to_dict() == before
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
    """Every option at once at its largest, in each of the game's own campaigns (between and in its battles,
    the day's session), by each member: the action plays or is refused by the rules, never breaks."""
    game = rulesets.named(name)
    handler = game.actions.handlers[kind]
    declared = handler.args or {}
    args = {option: largest(bound) for option, bound in declared.items()}
    tries = [args] + [args | {option: largest(form)} for option, bound in declared.items()
                      if isinstance(bound, B.OneOf) for form in bound.forms[:-1]]  # each form of a OneOf too
    for state in states_of(name):
        assert state.ruleset == name
        for actor in dict.fromkeys([state.leader, *state.members]):
            for tried in tries:
                started = time.perf_counter()
                try:
                    out = game.execute(state, Action(kind, actor, tried), dice_for(state), 0.0)
                except RuleError:
                    pass
                else:  # accepted: within the bounds a saved campaign keeps
                    assert len(json.dumps(out.state.to_dict())) < MAX_STATE_JSON
                assert time.perf_counter() - started < 10


_STATES: dict[str, list] = {}


def states_of(name: str) -> list:
    """Campaigns of each game where its actions do their work (built once)."""
    if name not in _STATES:
        _STATES[name] = {"tes": _tes, "skirmish": _skirmish, "engage": _engage, "duel": _duel}[name]()
    return _STATES[name]


def _played(ruleset: str, *actions):
    game = rulesets.named(ruleset)
    s = None
    for actor, kind, args in actions:
        s = game.execute(s, Action(kind, actor, args), dice_for(s), 0.0).state
    return s


def _tes():
    from day_helpers import RYAN, day_two, examples_party, run

    in_town, _ = run(examples_party(), "day.start", RYAN, {"province": "saltmire"})
    assert in_town.days.ask.kind == "town"
    return [jailbreak(party())[0], in_town, day_two()]


def _skirmish():
    new = ("L", "campaign.new", {"name": "Field", "channel_id": "c", "guild_id": "g", "seed": 3,
                                 "ruleset": "skirmish"})
    muster = [new, ("L", "skirmish.warband", {"faction": "wardens"}),
              ("L", "skirmish.recruit", {"fighter": "bramble-guard"}),
              ("L", "skirmish.deploy", {}),
              ("L", "skirmish.bot", {"faction": "reavers"})]
    return [_played("skirmish", *muster, ("L", "skirmish.start", {})), _played("skirmish", *muster)]


def _engage():
    from engage_helpers import battle

    muster = _played("engage", ("lena", "campaign.new", {"name": "Marsh", "channel_id": "c", "guild_id": "g",
                                                        "seed": 5, "ruleset": "engage"}),
                     ("lena", "mini.field", {"unit": "reed-spear"}),
                     ("bob", "campaign.join", {}))
    fight = battle({"a1": ("reed-spear", "0,4"), "b1": ("reed-spear", "2,3")})
    return [fight, muster]


def _duel():
    from duel_helpers import Table, fight

    calm = Table("ann")
    calm.character("ann", "sellsword")
    calm.run("bob", "campaign.join")
    calm.character("bob", "pilgrim")
    return [fight({"ann": "sellsword", "bob": "pilgrim"}).state, calm.state]


# the command options whose numbers come from the rules' declarations: each pair must agree
OPTION_BOUNDS = [
    ("battle adjust", "hp", "tes", "battle.adjust", "hp"),
    ("battle adjust", "bonus_hp", "tes", "battle.adjust", "bonus_hp"),
    ("battle adjust", "tenacity", "tes", "battle.adjust", "tenacity"),
    ("battle adjust", "fatigue", "tes", "battle.adjust", "fatigue"),
    ("battle start", "ep", "tes", "battle.start", "ep"),
    ("battle start", "session", "tes", "battle.start", "session"),
    ("battle drop", "slot", "tes", "battle.drop", "slot"),
    ("quest assist", "round", "tes", "quest.assist", "round"),
    ("campaign settings", "reminder_hours", "tes", "campaign.settings", "reminder_hours"),
    ("campaign settings", "prevent_timeout_minutes", "tes", "campaign.settings", "prevent_timeout_minutes"),
    ("skirmish settings", "points", "skirmish", "campaign.settings", "points"),
    ("skirmish settings", "rounds", "skirmish", "campaign.settings", "rounds"),
    ("skirmish channel", "die", "skirmish", "skirmish.channel", "die"),
    ("skirmish ability", "die", "skirmish", "skirmish.ability", "die"),
    ("day choose", "choice", "tes", "day.choose", "choice"),
    ("day check", "tenacity", "tes", "day.check", "tenacity"),
    ("day settings", "hours", "tes", "day.settings", "hours"),
    ("mini settings", "points", "engage", "campaign.settings", "points"),
    ("mini settings", "rounds", "engage", "campaign.settings", "rounds"),
    ("mini settings", "intercept_minutes", "engage", "campaign.settings", "intercept_minutes"),
    ("duel reroll", "die", "duel", "duel.reroll", "die"),
    ("explore", "place", "tes", "battle.place", "place"),
    ("battle choose", "option", "tes", "battle.choose", "option"),
    ("duel settings", "ask_minutes", "duel", "campaign.settings", "ask_minutes"),
    ("duel settings", "place_hours", "duel", "campaign.settings", "place_hours"),
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


def test_words_take_a_short_list_or_the_text_as_typed_and_nothing_larger():
    cards = B.Words(2, 20)
    assert cards.problem(["lure", "focus"]) is None and cards.problem([]) is None
    assert cards.problem("lure, focus") is None  # the rules split the text themselves
    assert cards.problem(["lure", "focus", "balance"]) == "must name at most 2"
    assert cards.problem(["x" * 21]) == "must be words of at most 20 characters"
    assert cards.problem([["lure"]]) == cards.problem([7]) == "must be words of at most 20 characters"
    assert cards.problem({"lure": 1}) == "must be a list of words"
    assert cards.problem("x" * (B.MAX_TEXT + 1)) == f"must be a text of at most {B.MAX_TEXT} characters"


@pytest.mark.parametrize("name", ["tes", "skirmish", "engage", "duel"])
def test_every_ruleset_opens_a_campaign_with_the_same_options(name):
    assert rulesets.named(name).actions.handlers["campaign.new"].args == B.NEW_CAMPAIGN


@pytest.mark.parametrize("name,kind", [("duel", "duel.character"), ("engage", "mini.field")])
def test_an_action_that_seats_its_player_says_so_and_seats_only_them(name, kind):
    """A duel character and an engage game's first unit seat their player (``joins``); the leader still can't
    make one for someone outside the party."""
    game = rulesets.named(name)
    assert game.actions.handlers[kind].joins
    state = states_of(name)[-1]  # between fights, mustering
    args = {"hero": "duelist", "name": "Vex"} if name == "duel" else {"unit": "reed-spear"}
    out = game.execute(state, Action(kind, "newcomer", args), dice_for(state), 0.0)
    assert "newcomer" in out.state.members
    with pytest.raises(RuleError, match="is not in this party"):
        game.execute(state, Action(kind, state.leader, args, on_behalf="stranger"), dice_for(state), 0.0)
    other = "duel.retire" if name == "duel" else "mini.remove"
    with pytest.raises(RuleError, match="You are not in this party"):
        game.execute(state, Action(other, "stranger", {"unit": "a1"} if name == "engage" else {}), dice_for(state),
                     0.0)
