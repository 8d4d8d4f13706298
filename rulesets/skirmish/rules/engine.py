"""The shared steps of a skirmish battle.

Battle round: every warband rolls six dice (initiative; singles decide it,
matching faces become ability dice), then the combat phase: warbands take
turns activating one fighter each, the initiative winner first, until every
fighter has activated.  The bot's warband plays its turns as soon as they
come up (``bot_turns``).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.core import Dice, Event, RuleError
from engine.hexes import Hex, distance, reachable, shortest_path, toward
from engine.text import count as plural  # "1 hex", "2 hexes": the one way a count is worded
from rulesets.skirmish.board import field_hexes
from rulesets.skirmish.state import (
    BOT,
    AbilityDie,
    Activation,
    Fighter,
    Skirmish,
)

KINDS = ("double", "triple", "quad")
INITIATIVE_DICE = 6
RETREAT_HEXES = 3
CRIT = 6


# ------------------------------------------------------------------ geometry --

def hx(f: Fighter) -> Hex:
    return Hex(*f.hex)


def board(state: Skirmish, pack) -> frozenset[Hex]:
    return field_hexes(pack.width, pack.height)


def occupied(state: Skirmish, but: Fighter | None = None) -> set[Hex]:
    return {Hex(*f.hex) for f in state.fighters.values() if not f.out and f.hex and f is not but}


def enemies(state: Skirmish, f: Fighter) -> list[Fighter]:
    return [e for e in state.fighters.values() if e.owner != f.owner and not e.out and e.hex]


def near_enemy(state: Skirmish, f: Fighter, at: Hex | None = None) -> list[Fighter]:
    """Enemies within 1 hex (one inch) of ``f`` (or of hex ``at``)."""
    here = at or hx(f)
    return [e for e in enemies(state, f) if distance(here, hx(e)) <= 1]


def path_text(path: Iterable[Hex]) -> str:
    return " ".join(str(h) for h in path)


# ---------------------------------------------------------------- initiative --
def read_roll(values: list[int]) -> tuple[int, list[AbilityDie]]:
    """Singles and ability dice of an initiative roll: 2 alike make a double, 3 a triple, 4 or more a quad."""
    counts = Counter(values)
    singles = sum(1 for n in counts.values() if n == 1)
    dice = [AbilityDie(KINDS[min(n, 4) - 2], face) for face, n in sorted(counts.items()) if n >= 2]
    dice.sort(key=lambda d: (-KINDS.index(d.kind), -d.value))
    return singles, dice


def start_round(state: Skirmish, pack, dice: Dice, events: list[Event], number: int) -> None:
    fight = state.fight
    fight.round = number
    fight.active = None
    fight.dice, fight.rolls = {}, {}
    players = [o for o in state.owners() if state.standing(o)]
    for f in state.fighters.values():
        f.activated = False
        f.waiting = False
    singles: dict[str, int] = {}
    for p in players:
        roll = [dice.roll(6) for _ in range(INITIATIVE_DICE)]
        n, ability = read_roll(roll)
        fight.rolls[p], fight.dice[p], singles[p] = roll, ability, n
        shown = ", ".join(f"{d.kind} of {d.value}s" for d in ability) or "no ability dice"
        events.append(Event("initiative", f"Round {number}: {{@player}} rolls {' '.join(map(str, roll))}: "
                                          f"{plural(n, 'single')}, {shown}.",
                            {"player": p, "roll": roll, "singles": n, "round": number}))
    # most singles first; a tie is settled by a roll-off (each tied player rolls a die, again while equal)
    tiebreak: dict[str, list[int]] = {p: [] for p in players}
    groups: dict[int, list[str]] = {}
    for p in players:
        groups.setdefault(singles[p], []).append(p)
    for tied in groups.values():
        while len(tied) > 1:
            rolls = {p: dice.roll(6) for p in tied}
            for p, v in rolls.items():
                tiebreak[p].append(v)
            events.append(Event("roll-off", "Tied on singles; roll-off: " + ", ".join(
                f"{{@p{i}}} {v}" for i, (p, v) in enumerate(rolls.items())) + ".",
                {f"p{i}": p for i, p in enumerate(rolls)} | {"rolls": [[p, v] for p, v in rolls.items()]}))
            counts = Counter(rolls.values())
            tied = [p for p in tied if counts[rolls[p]] > 1]
            if len(set(rolls.values())) == len(rolls):
                break
    fight.order = sorted(players, key=lambda p: (-singles[p], [-v for v in tiebreak[p]]))
    fight.turn = fight.order[0]
    events.append(Event("order", "{@first} has the initiative and activates first.", {"first": fight.turn}))


# ---------------------------------------------------------------- activations --
def players_ready(state: Skirmish) -> list[str]:
    return [p for p in state.fight.order if any(f.ready for f in state.fighters_of(p))]


def can_afford(state: Skirmish, pack, f: Fighter) -> bool:
    """Whether the fighter could pay for any ability it may use with a die its warband holds."""
    ftype = pack.fighter(f.type)
    pool = [d for d in state.fight.dice.get(f.owner, []) if not d.channelled or d.wizard == f.id]
    return any(a.allowed(ftype) and KINDS.index(d.kind) >= KINDS.index(a.cost)
               and (not d.channelled or a.magical or state.rules < 2)  # channelled dice: magical abilities only
               for a in pack.abilities.values() for d in pool)


def after_action(state: Skirmish, pack, dice: Dice, events: list[Event]) -> None:
    """Close the activation once its actions are spent and no ability can follow; then the next turn."""
    act = state.fight.active if state.fight else None
    if act is None or state.phase != "battle":
        return
    f = state.fighters[act.fighter]
    if f.out:
        end_activation(state, pack, dice, events)
        return
    if act.actions_left <= 0 and (act.ability_used or not can_afford(state, pack, f)):
        end_activation(state, pack, dice, events)


def end_activation(state: Skirmish, pack, dice: Dice, events: list[Event], *, waiting: bool = False) -> None:
    fight = state.fight
    act = fight.active
    f = state.fighters[act.fighter]
    pool = fight.dice.get(act.player, [])
    lost = [d for d in pool if d.channelled and d.wizard == f.id]
    if lost:
        fight.dice[act.player] = [d for d in pool if d not in lost]
        events.append(Event("channel-lost", f"{f.name}'s unused channelled dice fade: "
                                            + ", ".join(f"{d.kind} of {d.value}" for d in lost) + ".",
                            {"fighter": f.id}))
    f.activated = True
    f.waiting = waiting
    fight.active = None
    if not f.out:
        events.append(Event("activation-end", f"{f.name}'s activation ends" +
                            (" (waiting: it activates once more this combat phase)." if waiting else "."),
                            {"fighter": f.id, "waiting": waiting}))
    next_turn(state, pack, dice, events, after=act.player)


def next_turn(state: Skirmish, pack, dice: Dice, events: list[Event], after: str) -> None:
    if state.phase != "battle":
        return
    fight = state.fight
    ready = players_ready(state)
    if not ready:
        end_round(state, pack, dice, events)
        return
    order = fight.order
    start = order.index(after) + 1 if after in order else 0
    for i in range(len(order)):
        p = order[(start + i) % len(order)]
        if p in ready:
            fight.turn = p
            break
    bot_turns(state, pack, dice, events)


def end_round(state: Skirmish, pack, dice: Dice, events: list[Event]) -> None:
    fight = state.fight
    events.append(Event("round-end", f"Every fighter has activated: battle round {fight.round} ends.",
                        {"round": fight.round}))
    if fight.round >= int(state.settings.get("rounds", pack.rounds)):
        finish_on_points(state, pack, events)
        return
    start_round(state, pack, dice, events, fight.round + 1)
    bot_turns(state, pack, dice, events)


def points_left(state: Skirmish, pack, owner: str) -> int:
    return sum(pack.fighter(f.type).points for f in state.standing(owner))


def finish(state: Skirmish, events: list[Event], winner: str | None, reason: str) -> None:
    state.phase = "over"
    state.result = {"winner": winner, "reason": reason, "round": state.fight.round if state.fight else 0}
    if state.fight:
        state.fight.active = None
        state.fight.turn = ""
    if winner:
        events.append(Event("victory", "{@winner} wins the skirmish: " + reason + ".", {"winner": winner}))
    else:
        events.append(Event("draw", "The skirmish is a draw: " + reason + ".", {}))


def finish_on_points(state: Skirmish, pack, events: list[Event]) -> None:
    left = {o: points_left(state, pack, o) for o in state.owners()}
    best = max(left.values())
    top = [o for o, v in left.items() if v == best]
    text = ", ".join(f"{state.warbands[o].name} {v}" for o, v in left.items())
    if len(top) == 1:
        finish(state, events, top[0], f"the last round is over and it keeps the most points on the field ({text})")
    else:
        finish(state, events, None, f"the last round is over with equal points on the field ({text})")


def check_victory(state: Skirmish, events: list[Event]) -> bool:
    if state.phase != "battle":
        return True
    alive = [o for o in state.owners() if state.standing(o)]
    if len(alive) > 1:
        return False
    if alive:
        finish(state, events, alive[0], "no enemy fighter is left on the battlefield")
    else:
        finish(state, events, None, "no fighter is left on the battlefield")
    return True


# ---------------------------------------------------------------- damage --
def hurt(state: Skirmish, pack, f: Fighter, amount: int, events: list[Event], cause: str) -> None:
    wounds = pack.fighter(f.type).wounds
    f.damage = min(wounds, f.damage + amount)
    if f.damage >= wounds:
        take_out(state, f, events, cause)


def take_out(state: Skirmish, f: Fighter, events: list[Event], cause: str) -> None:
    f.out = True
    state.fight.trail.append({"kind": "down", "fighter": f.id, "at": list(f.hex) if f.hex else None})
    f.hex = None
    f.waiting = False
    events.append(Event("out-of-action", f"{f.name} is taken out of action ({cause}).", {"fighter": f.id}))


def attack(state: Skirmish, pack, f: Fighter, target: Fighter, dice: Dice, events: list[Event]) -> None:
    """Roll the attack profile against the target's Toughness (the hit table in docs/rules-notes.md ("Skirmish"))."""
    prof = pack.fighter(f.type).attack
    tough = pack.fighter(target.type).toughness
    need = 3 if prof.strength > tough else 4 if prof.strength == tough else 5
    rolls = [dice.roll(6) for _ in range(prof.attacks)]
    crits = sum(1 for v in rolls if v == CRIT)
    hits = sum(1 for v in rolls if need <= v < CRIT)
    total = hits * prof.damage + crits * prof.critical
    state.fight.trail.append({"kind": "attack", "fighter": f.id, "from": list(f.hex), "to": list(target.hex)})
    events.append(Event("attack", f"{f.name} attacks {target.name} with {prof.name}: rolls "
                                  f"{' '.join(map(str, rolls))} (hits on {need}+, criticals on 6): {plural(hits, 'hit')}, "
                                  f"{plural(crits, 'critical')}, {total} damage.",
                        {"fighter": f.id, "target": target.id, "rolls": rolls, "damage": total}))
    if total:
        hurt(state, pack, target, total, events, f"by {f.name}")


# ---------------------------------------------------------------- moves --
def move_path(state: Skirmish, pack, f: Fighter, to: Hex, steps: int) -> list[Hex]:
    """The route of a move of up to ``steps`` hexes to ``to``, or a RuleError naming the fix."""
    field = board(state, pack)
    if to not in field:
        raise RuleError(f"Hex {to} is off the battlefield. Pick a hex shown on /skirmish map.")
    other = state.at(to.q, to.r)
    if other is not None and other is not f:
        raise RuleError(f"Hex {to} is taken by {other.name}. Pick a free hex.")
    blocked = occupied(state, but=f)
    path = shortest_path(hx(f), to, field, blocked)
    if path is None or len(path) > steps:
        near = sorted(reachable(hx(f), steps, field, blocked), key=lambda h: (distance(h, to), h))
        hint = f" The nearest hex it can reach is {near[0]}." if near and near[0] != hx(f) else ""
        raise RuleError(f"{f.name} can't reach {to}: it moves at most {plural(steps, 'hex')} around other fighters.{hint}")
    if not path:
        raise RuleError(f"{f.name} is already on {to}. Name another hex.")
    return path


def retreat_hexes(state: Skirmish, pack, f: Fighter) -> list[Hex]:
    """Where a Retreat may end: up to 3 hexes away, not within 1 hex of an enemy."""
    field = board(state, pack)
    opts = reachable(hx(f), RETREAT_HEXES, field, occupied(state, but=f))
    return sorted(h for h in opts if h != hx(f) and not near_enemy(state, f, at=h))


def place(state: Skirmish, f: Fighter, path: list[Hex], kind: str) -> None:
    state.fight.trail.append({"kind": kind, "fighter": f.id, "path": [list(hx(f))] + [list(h) for h in path]})
    f.hex = (path[-1].q, path[-1].r)


# ---------------------------------------------------------------- the bot --
def bot_turns(state: Skirmish, pack, dice: Dice, events: list[Event]) -> None:
    """While it is the bot warband's turn, it activates a fighter (the plan in docs/rules-notes.md ("Skirmish"))."""
    guard = 0
    while state.phase == "battle" and state.fight.turn == BOT and state.fight.active is None and guard < 200:
        guard += 1
        ready = [f for f in state.fighters_of(BOT) if f.ready]
        if not ready:
            next_turn(state, pack, dice, events, after=BOT)
            return
        f = ready[0]
        start_activation(state, f, events)
        act = state.fight.active
        while act.actions_left > 0 and not f.out and state.phase == "battle":
            foes = sorted(enemies(state, f), key=lambda e: (distance(hx(f), hx(e)), e.id))
            if not foes:
                break
            foe = foes[0]
            prof = pack.fighter(f.type).attack
            if distance(hx(f), hx(foe)) <= prof.range:
                attack(state, pack, f, foe, dice, events)
            elif near_enemy(state, f):
                break  # cannot move normally and nothing in range: it holds
            else:
                path = toward(hx(f), hx(foe), pack.fighter(f.type).move, board(state, pack), occupied(state, but=f))
                if not path:
                    break
                events.append(Event("move", f"{f.name} moves to {path[-1]}.", {"fighter": f.id}))
                place(state, f, path, "move")
            act.actions_left -= 1
            act.actions_done += 1
            if check_victory(state, events):
                return
        if state.phase == "battle" and state.fight.active is not None:
            if act.actions_left > 0 and not f.out:
                events.append(Event("hold", f"{f.name} holds its ground.", {"fighter": f.id}))
            end_activation(state, pack, dice, events)  # the bot never waits as a first action


def start_activation(state: Skirmish, f: Fighter, events: list[Event]) -> None:
    fight = state.fight
    second = f.activated and f.waiting
    fight.active = Activation(fighter=f.id, player=f.owner, actions_left=1 if second else 2, second=second)
    fight.activations += 1
    if second:
        f.waiting = False
    how = (" again (its second activation after waiting: one action, and it may use another ability)." if second
           else " (two actions).")
    events.append(Event("activate", "{@player} activates " + f.name + how,
                        {"player": f.owner, "fighter": f.id, "second": second}))
