"""The question a duel waits on, as the engine's one prompt shape (``engine.prompts.Prompt``).

- ``join``: a player, in turn order, chooses whether (and on which side, wearing which gear) to join the fight;
- ``place``: a player places up to two cards face-down (a *private* prompt: the hand is shown to its owner
  alone, and only the owner answers);
- ``declare``: a revealed Base Attack attacks or takes the Priority token;
- ``fame``: the character whose turn it is in a Fame reroll chain spends 2 Fame to reroll one die, or passes;
- ``monster``: the player who runs the monster (rules revision 2) rolls its procedure die or its attack's dice.

Each prompt's id (``f<fight>.a<question>``) names that one question, so a late or repeated click is refused.
A deadline (the campaign's ``ask_minutes`` or ``place_hours``; 0 = wait) fires ``duel.timeout``, which gives
the prompt's default answer.
"""
from __future__ import annotations

from engine.prompts import Option, Prompt
from rulesets.duel.rules.flow import join_options
from rulesets.duel.rules.model import F
from rulesets.duel.state import Duel

TIMEOUT = "duel.timeout"
DEFAULTS = {"join": "out", "place": "none", "declare": "attack", "fame": "pass", "monster": "roll"}


def _pack(state: Duel):
    from rulesets.duel.content import pack_of

    return pack_of(state)


def prompt_id(state: Duel, ask: int) -> str:
    return f"f{state.fight.no}.a{ask}"


def open_prompt(state: Duel) -> Prompt | None:
    fight = state.fight if state is not None else None
    if fight is None or fight.over:
        return None
    if fight.chain is not None and fight.roll is not None:
        ch, roll = fight.chain, fight.roll
        f = fight.fighters[ch.order[ch.at]]
        fame = state.characters[f.owner].fame if f.owner in state.characters else 0
        options = tuple(Option(str(i), f"Reroll die {i} (showing {face})", "costs 2 Fame")
                        for i, (face, again) in enumerate(zip(roll.dice, roll.rerolled), 1) if not again)
        return Prompt(id=prompt_id(state, ch.ask), kind="fame", owner=f.owner, action="duel.reroll", options=options,
                      default="pass", pick=1, deadline=ch.deadline, timeout_action=TIMEOUT if ch.deadline else None,
                      data={"arg": "die", "fame": fame, "roll": roll.label, "name": f.name})
    q = fight.question
    if q is None:
        return None
    pack = _pack(state)
    base = dict(id=prompt_id(state, q.ask), kind=q.kind, owner=q.owner, deadline=q.deadline,
                timeout_action=TIMEOUT if q.deadline else None)
    who = state.characters[q.owner].name if q.owner in state.characters else "?"
    if q.kind == "monster":
        return Prompt(action="duel.roll", options=(Option("roll", monster_roll_words(state, pack)),), default="roll",
                      pick=1, data={"arg": "", "name": state.names.get(q.owner) or "the runner",
                                    "monster": _monster_name(state), "what": q.what}, **base)
    if q.kind == "join":
        options = tuple(Option(v, w) for v, w in join_options(F(state, pack, None), q.owner))
        default = join_default(state, q.owner, [o.value for o in options])
        return Prompt(action="duel.join", options=options, default=default, pick=1,
                      data={"arg": "choice", "name": who}, **base)
    if q.kind == "place":
        f = fight.fighters.get(f"c:{q.owner}")
        hand = f.hand if f else []
        options = tuple(Option(str(i), f"{pack.cards[c].name} (Priority {pack.cards[c].priority})",
                               pack.cards[c].text[:100]) for i, c in enumerate(hand, 1))
        return Prompt(action="duel.place", options=options, default="none", pick=min(2, len(options)),
                      private=True, data={"arg": "cards", "name": who}, **base)
    if q.kind == "declare":
        options = (Option("attack", "Attack with the base attack"), Option("token", "Take the Priority token"))
        return Prompt(action="duel.declare", options=options, default="attack", pick=1,
                      data={"arg": "use", "name": who}, **base)
    return None


def _monster_name(state: Duel) -> str:
    return next((f.name for f in state.fight.fighters.values() if f.monster), "the monster")


def monster_roll_words(state: Duel, pack) -> str:
    """What the monster's runner rolls now: 'Roll the Cave Troll's procedure die', 'Roll the Cave Troll's 3 Might
    dice (Boulder Toss at Ann)'."""
    fight = state.fight
    name = _monster_name(state)
    t = fight.current
    if fight.question.what != "attack" or t is None:
        return f"Roll the {name}'s procedure die"
    f = fight.fighters[t.fighter]
    profile = pack.monsters[f.ref].actions[t.action].attack
    n = f.skills.get(profile.skill, 1)
    target = fight.fighters.get(t.target)
    return (f"Roll the {name}'s {n} {profile.skill.capitalize()} {'die' if n == 1 else 'dice'} ({t.label}"
            + (f" at {target.name})" if target else ")"))


def join_default(state: Duel, owner: str, values: list[str]) -> str:
    """Without an answer: a challenger who owns several worn gear fights in the first; anyone else stays out."""
    fight = state.fight
    if fight.kind == "rivals" and owner == fight.starter:
        return values[0]
    return "out"


def whose_move(state: Duel) -> tuple[str, str] | None:
    p = open_prompt(state)
    return (p.owner, p.id) if p is not None else None
