"""The shared steps of an engage game: who is where, conditions, d20 checks, attacks, and the turn's phases.

A turn is one player's: Upkeep, Engage, Move, Shoot, Cast, Melee (docs/rules-notes.md, "Engage").  The player
acts in the phase it is; ``advance`` moves on by itself past a phase where none of their units can do anything
(saying so), and ``next_phase`` when the player ends a phase.  Melee needs no choices: it is fought as soon as
the Cast phase ends, then the other player's turn begins.
"""
from __future__ import annotations

from engine.core import Dice, Event, RuleError, strong
from engine.hexes import Hex
from engine.text import count
from rulesets.engage.board import Board
from rulesets.engage.content import half_inches
from rulesets.engage.state import TURN_PHASES, Game, Unit

PHASE_NAMES = {"upkeep": "Upkeep", "engage": "Engage", "move": "Move", "shoot": "Shoot", "cast": "Cast",
               "melee": "Melee"}
FALL_WOUNDS = 1


# ------------------------------------------------------------------ places --
def hx(u: Unit) -> Hex:
    return Hex(*u.hex)


def label(u: Unit) -> str:
    """How a unit is named in words: "Mire Hulk (b1)"."""
    return f"{u.name} ({u.id})"


def names(units) -> str:
    units = list(units)
    words = [label(u) for u in units]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def enemies(state: Game, u: Unit) -> list[Unit]:
    return [e for e in state.units.values() if e.owner != u.owner and e.on_field]


def allies(state: Game, u: Unit) -> list[Unit]:
    return [a for a in state.units.values() if a.owner == u.owner and a.on_field and a is not u]


def in_contact(state: Game, board: Board, u: Unit, at: Hex | None = None) -> list[Unit]:
    """The enemies in base contact with ``u`` (or with a unit of ``u``'s side standing on ``at``)."""
    here = at or hx(u)
    return [e for e in enemies(state, u) if board.contact(here, hx(e))]


def free(state: Game, board: Board, h: Hex, but: Unit | None = None) -> bool:
    other = state.at(h.q, h.r)
    return board.open(h) and (other is None or other is but)


# -------------------------------------------------------------- conditions --
def active(u: Unit) -> bool:
    """Neither Stunned nor Dazed."""
    return not u.has("stunned") and not u.has("dazed")


def condition(state: Game, u: Unit, name: str, events: list[Event], why: str) -> None:
    """Give ``u`` a condition.  Staggered lasts to the end of this turn; Stunned and Dazed to the end of its
    player's next turn (the one that begins after this turn, or this very turn's next one for its own)."""
    t = state.turn.number
    until = t if name == "staggered" else (t + 2 if state.turn.player == u.owner else t + 1)
    u.conditions[name] = max(until, u.conditions.get(name, 0))
    how = "for the rest of the turn" if name == "staggered" else "until the end of its player's next turn"
    events.append(Event("condition", f"{label(u)} is {name.title()} {how} ({why}).",
                        {"unit": u.id, "condition": name, "until": u.conditions[name]}))


def expire(state: Game, events: list[Event]) -> None:
    """The end of a turn: conditions whose time is up end."""
    t = state.turn.number
    for u in state.units.values():
        gone = sorted(c for c, until in u.conditions.items() if until <= t)
        for c in gone:
            del u.conditions[c]
        if gone and u.on_field:
            events.append(Event("condition-ends", f"{label(u)} is no longer {' or '.join(g.title() for g in gone)}.",
                                {"unit": u.id, "conditions": gone}))


# ------------------------------------------------------------------ checks --
def d20(dice: Dice, mode: int = 0) -> tuple[int, list[int]]:
    """A d20; with Advantage (mode > 0) two, keeping the lower (better), with Disadvantage (< 0) the higher."""
    if mode == 0:
        v = dice.roll(20)
        return v, [v]
    rolls = [dice.roll(20), dice.roll(20)]
    return (min(rolls) if mode > 0 else max(rolls)), rolls


def rolled(kept: int, rolls: list[int], mode: int) -> str:
    if len(rolls) == 1:
        return f"d20 {strong(kept)}"
    how = "Advantage" if mode > 0 else "Disadvantage"
    return f"d20 {rolls[0]} and {rolls[1]} with {how}: {strong(kept)}"


def check(dice: Dice, target: int) -> tuple[bool, int]:
    """A d20 check: passed on a roll at or under ``target`` (a 1 always passes, a 20 always fails)."""
    v = dice.roll(20)
    return (v == 1 or (v != 20 and v <= target)), v


def morale(state: Game, pack, u: Unit, cause: list[Unit], dice: Dice, events: list[Event]) -> bool:
    """A Morale check against Fear; a failure leaves the unit Staggered for the rest of the turn."""
    t = pack.unit(u.type)
    ok, v = check(dice, t.morale)
    who = names(cause)
    events.append(Event("fear", f"Fear: {label(u)} makes a Morale check against {who}: "
                                f"d20 {strong(v)} against Morale {t.morale}, "
                                + ("it holds its nerve." if ok else "it fails."),
                        {"unit": u.id, "roll": v, "passed": ok, "cause": [c.id for c in cause]}))
    if not ok:
        condition(state, u, "staggered", events, "it failed its Morale check against Fear")
    return ok


# ----------------------------------------------------------------- harm --
def hurt(state: Game, pack, u: Unit, amount: int, events: list[Event], cause: str) -> None:
    wounds = pack.unit(u.type).wounds
    u.damage = min(wounds, u.damage + amount)
    left = wounds - u.damage
    events.append(Event("wound", f"{label(u)} loses {count(amount, 'wound')} ({cause}): "
                                 f"{left} of {wounds} left.", {"unit": u.id, "amount": amount, "left": left}))
    if u.damage >= wounds:
        take_out(state, u, events)


def take_out(state: Game, u: Unit, events: list[Event]) -> None:
    state.trail.append({"kind": "down", "unit": u.id, "at": list(u.hex) if u.hex else None})
    u.out = True
    u.hex = None
    u.conditions = {}
    events.append(Event("out", f"{label(u)} is taken out of the fight.", {"unit": u.id}))


def attack_mode(u: Unit, target: Unit) -> tuple[int, list[str]]:
    """+1 Advantage, -1 Disadvantage, 0 neither (both cancel out), and why."""
    good, bad = [], []
    if u.jump_attack:
        good.append("Jump Attack")
    if target.has("stunned"):
        good.append(f"{target.name} is Stunned")
    if u.has("staggered"):
        bad.append("Staggered")
    if u.has("dazed"):
        bad.append("Dazed")
    if good and bad:
        return 0, [f"Advantage ({', '.join(good)}) and Disadvantage ({', '.join(bad)}) cancel out"]
    if good:
        return 1, good
    if bad:
        return -1, bad
    return 0, []


def attack_roll(pack, u: Unit, target: Unit, stat: int, dice: Dice, what: str) -> tuple[dict, Event]:
    """Roll one attack: a hit on a d20 at or under ``stat`` minus the target's armour (1 always hits, and is a
    critical that Stuns; 20 always misses).  Returns what to apply and its words (not applied yet)."""
    need = max(1, min(19, stat - pack.unit(target.type).armour))
    mode, why = attack_mode(u, target)
    kept, rolls = d20(dice, mode)
    hit = kept <= need
    crit = kept == 1
    extra = f" ({'; '.join(why)})" if why else ""
    outcome = "a critical hit" if crit else "a hit" if hit else "a miss"
    text = (f"{label(u)} {what} {label(target)}{extra}: {rolled(kept, rolls, mode)}, needs {need} or less: "
            f"{outcome}.")
    return ({"unit": u.id, "target": target.id, "hit": hit, "crit": crit},
            Event("attack", text, {"unit": u.id, "target": target.id, "rolls": rolls, "kept": kept, "need": need,
                                   "hit": hit, "crit": crit, "mode": mode}))


def land(state: Game, pack, blow: dict, events: list[Event], what: str) -> None:
    target = state.units[blow["target"]]
    if not blow["hit"] or target.out:
        return
    hurt(state, pack, target, 1, events, f"{what} by {state.units[blow['unit']].name}")
    if blow["crit"] and not target.out:
        condition(state, target, "stunned", events, "a critical hit")


# ------------------------------------------------------------ who may act --
def may_engage(state: Game, board: Board, u: Unit) -> str | None:
    """Why ``u`` can't attempt an Engage now (None: it can)."""
    if u.has("stunned"):
        return f"{label(u)} is Stunned"
    if u.has("dazed"):
        return f"{label(u)} is Dazed"
    if u.tried:
        return f"{label(u)} has already made its Engage attempt this turn"
    held = [e for e in in_contact(state, board, u) if active(e)]
    if held:
        return f"{label(u)} is already engaged with {names(held)}, who is neither Stunned nor Dazed"
    if not [e for e in enemies(state, u) if e not in in_contact(state, board, u)]:
        return f"{label(u)} has no other enemy to engage"
    return None


def may_move(state: Game, board: Board, u: Unit) -> str | None:
    if u.tried:
        return f"{label(u)} attempted an Engage this turn, so it can't Move or Shoot (it may still Cast)"
    if u.moved:
        return f"{label(u)} has already moved this turn"
    if u.has("stunned"):
        return f"{label(u)} is Stunned"
    near = in_contact(state, board, u)
    if near:
        return f"{label(u)} is in melee with {names(near)}"
    return None


def shoot_targets(state: Game, pack, board: Board, u: Unit) -> list[Unit]:
    t = pack.unit(u.type)
    return [e for e in enemies(state, u) if board.sees(hx(u), hx(e)) and distance_in(hx(u), hx(e)) <= t.range
            and not in_contact(state, board, e)]


def may_shoot(state: Game, pack, board: Board, u: Unit) -> str | None:
    if not pack.unit(u.type).shoot:
        return f"{label(u)} has no ranged attack"
    if u.tried:
        return f"{label(u)} attempted an Engage this turn, so it can't Move or Shoot (it may still Cast)"
    if u.shot:
        return f"{label(u)} has already shot this turn"
    if u.has("stunned"):
        return f"{label(u)} is Stunned"
    near = in_contact(state, board, u)
    if near:
        return f"{label(u)} is in melee with {names(near)}"
    return None


def may_cast(state: Game, pack, u: Unit) -> str | None:
    if not pack.unit(u.type).spells:
        return f"{label(u)} knows no spells"
    if u.cast:
        return f"{label(u)} has already cast a spell this turn"
    for c in ("stunned", "dazed"):
        if u.has(c):
            return f"{label(u)} is {c.title()}"
    return None


def spell_targets(state: Game, pack, board: Board, u: Unit, spell) -> list[Unit]:
    pool = enemies(state, u) if spell.target == "enemy" else [u] + allies(state, u)
    if spell.effect == "heal":
        pool = [t for t in pool if t.damage]
    elif spell.effect == "steady":
        pool = [t for t in pool if t.has("staggered")]
    return [t for t in pool if distance_in(hx(u), hx(t)) <= spell.range and board.sees(hx(u), hx(t))]


def distance_in(a: Hex, b: Hex) -> int:
    from engine.hexes import distance

    return distance(a, b)


def can_act(state: Game, pack, board: Board, phase: str) -> list[Unit]:
    """The active player's units that could still do something in ``phase``."""
    mine = state.standing(state.turn.player)
    if phase == "engage":
        return [u for u in mine if may_engage(state, board, u) is None]
    if phase == "move":
        return [u for u in mine if may_move(state, board, u) is None]
    if phase == "shoot":
        return [u for u in mine if may_shoot(state, pack, board, u) is None and shoot_targets(state, pack, board, u)]
    if phase == "cast":
        return [u for u in mine if may_cast(state, pack, u) is None and any(
            spell_targets(state, pack, board, u, pack.spells[s]) for s in pack.unit(u.type).spells)]
    return []


# ------------------------------------------------------------ the turn --
def in_phase(state: Game, pack, board: Board, phase: str, dice: Dice, events: list[Event]) -> None:
    """Bring the turn to ``phase`` for an action of that phase, or refuse naming the fix.

    Later phases are reached only when the active player has nothing left to do in the phases between."""
    now = state.turn.phase
    want = TURN_PHASES.index(phase)
    if TURN_PHASES.index(now) > want:
        raise RuleError(f"The {PHASE_NAMES[phase]} phase of this turn is over: it is the {PHASE_NAMES[now]} phase. "
                        f"See /mini status for what each unit may still do.")
    for p in TURN_PHASES[TURN_PHASES.index(now):want]:
        left = can_act(state, pack, board, p)
        if left:
            raise RuleError(f"It is the {PHASE_NAMES[now]} phase and {names(left)} may still act in the "
                            f"{PHASE_NAMES[p]} phase. Do that first, or end the phase with /mini next.")
    while state.turn.phase != phase:
        step_phase(state, pack, board, dice, events, quiet=True)


def step_phase(state: Game, pack, board: Board, dice: Dice, events: list[Event], quiet: bool = False) -> None:
    """End the current phase and begin the next (after Cast: the Melee is fought and the turn ends)."""
    i = TURN_PHASES.index(state.turn.phase)
    nxt = TURN_PHASES[i + 1] if i + 1 < len(TURN_PHASES) else None
    if nxt is None or nxt == "melee":
        state.turn.phase = "melee"
        melee(state, pack, board, dice, events)
        if state.phase == "battle":
            end_turn(state, pack, board, dice, events)
        return
    state.turn.phase = nxt
    if not quiet:
        events.append(Event("phase", f"{PHASE_NAMES[nxt]} phase.", {"phase": nxt}))


def advance(state: Game, pack, board: Board, dice: Dice, events: list[Event]) -> None:
    """Move on past every phase in which the active player has nothing left to do, saying which; name who may
    act when the phase changed."""
    began = (state.turn.number, state.turn.phase)
    skipped: list[str] = []

    def flush() -> None:
        if skipped:
            listed = skipped[0] if len(skipped) == 1 else ", ".join(skipped[:-1]) + " and " + skipped[-1]
            events.append(Event("phase", f"Nothing more to do in the {listed} phase{'s' if len(skipped) > 1 else ''}.",
                                {"skipped": list(skipped)}))
            skipped.clear()

    guard = 0
    while state.phase == "battle" and state.pending is None and guard < 1000:
        guard += 1
        phase = state.turn.phase
        if phase == "upkeep":
            state.turn.phase = "engage"
            if state.turn.first:
                events.append(Event("phase", "No Engage phase: this is the first player's first turn of the game.",
                                    {"phase": "engage", "skipped": True}))
                state.turn.phase = "move"
            continue
        acting = can_act(state, pack, board, phase)
        if acting:
            flush()
            if (state.turn.number, phase) != began:
                events.append(Event("phase", f"{PHASE_NAMES[phase]} phase: {names(acting)} may act.",
                                    {"phase": phase, "units": [u.id for u in acting]}))
            return
        if phase in ("cast", "melee") and state.turn.number != began[0]:
            # a turn that began during this action waits for its player even with nothing to do but the
            # Melee: each player's Melee is fought on their own command, never several turns in one go
            flush()
            state.turn.phase = "engage" if not state.turn.first else "move"
            events.append(Event("phase", "{@player} has nothing to do this turn but the Melee: end the turn with "
                                         "/mini end.", {"player": state.turn.player, "idle": True}))
            return
        skipped.append(PHASE_NAMES[phase])
        if phase in ("cast", "melee"):
            flush()
            step_phase(state, pack, board, dice, events, quiet=True)
            continue
        state.turn.phase = TURN_PHASES[TURN_PHASES.index(phase) + 1]


def begin_turn(state: Game, pack, player: str, events: list[Event]) -> None:
    t = state.turn
    t.number += 1
    t.player = player
    t.phase = "upkeep"
    t.first = t.number == 1
    for u in state.units.values():
        u.tried = u.strike_first = u.jump_attack = u.moved = u.shot = u.cast = False
    rnd = (t.number + 1) // 2
    held = [u for u in state.standing(player) if u.has("stunned") or u.has("dazed")]
    note = ""
    if held:
        held_by = [(u, " and ".join(c.title() for c in sorted(u.conditions) if c != "staggered")) for u in held]
        note = " " + "; ".join(f"{label(u)} is {what}" for u, what in held_by) + "."
    events.append(Event("turn", f"Turn {t.number} (round {rnd}): {{@player}}'s turn. Upkeep.{note}",
                        {"player": player, "turn": t.number, "round": rnd}))


def end_turn(state: Game, pack, board: Board, dice: Dice, events: list[Event]) -> None:
    expire(state, events)
    if check_victory(state, pack, events):
        return
    rounds = int(state.settings.get("rounds", pack.rounds))
    if state.turn.number >= 2 * rounds:
        finish_on_points(state, pack, events, rounds)
        return
    nxt = state.order[state.turn.number % len(state.order)]
    begin_turn(state, pack, nxt, events)


def melee(state: Game, pack, board: Board, dice: Dice, events: list[Event]) -> None:
    """The Melee phase: every unit in base contact with an enemy fights.  Units that engaged successfully this
    turn (and are not Staggered) strike first; then everyone else in melee strikes at once."""
    fighting = [u for u in state.units.values() if u.on_field and in_contact(state, board, u)]
    if not fighting:
        events.append(Event("melee", "Melee phase: no unit is in base contact with an enemy.", {"phase": "melee"}))
        return
    events.append(Event("melee", "Melee phase.", {"phase": "melee"}))
    player = state.turn.player

    def order(units):
        return sorted(units, key=lambda u: (u.owner != player, u.id))

    first = [u for u in order(fighting) if u.owner == player and u.strike_first]
    for u in first:
        if u.has("staggered"):
            events.append(Event("strike-first-lost", f"{label(u)} is Staggered: it does not strike first.",
                                {"unit": u.id}))
    first = [u for u in first if not u.has("staggered")]
    done = set()
    for u in first:
        if not u.on_field or u.has("stunned"):
            continue
        done.add(u.id)
        for _ in range(pack.unit(u.type).attacks):
            foes = in_contact(state, board, u)
            if not foes:
                break
            target = pick(pack, foes)
            blow, ev = attack_roll(pack, u, target, pack.unit(u.type).fight, dice, "strikes first at")
            events.append(ev)
            land(state, pack, blow, events, "a melee hit")
    # everyone else in melee at the same time: all roll, then every blow lands
    blows = []
    for u in order(fighting):
        if u.id in done or not u.on_field:
            continue
        if u.has("stunned"):
            events.append(Event("stunned", f"{label(u)} is Stunned and does not strike.", {"unit": u.id}))
            continue
        for _ in range(pack.unit(u.type).attacks):
            foes = in_contact(state, board, u)
            if not foes:
                break
            target = pick(pack, foes)
            blow, ev = attack_roll(pack, u, target, pack.unit(u.type).fight, dice, "strikes at")
            events.append(ev)
            blows.append(blow)
    for blow in blows:
        land(state, pack, blow, events, "a melee hit")
    for u in state.units.values():
        if u.on_field and in_contact(state, board, u):
            state.trail.append({"kind": "melee", "unit": u.id, "at": list(u.hex)})
    check_victory(state, pack, events)


def pick(pack, foes: list[Unit]) -> Unit:
    """Whom a unit in melee attacks: the enemy in contact with the fewest wounds left (ties: the lowest id)."""
    return min(foes, key=lambda e: (pack.unit(e.type).wounds - e.damage, e.id))


# ------------------------------------------------------------ the end --
def points_left(state: Game, pack, owner: str) -> int:
    return sum(pack.unit(u.type).points for u in state.standing(owner))


def finish(state: Game, events: list[Event], winner: str | None, reason: str) -> None:
    state.phase = "over"
    state.pending = None
    state.result = {"winner": winner, "reason": reason, "turn": state.turn.number}
    if winner:
        events.append(Event("victory", "{@winner} wins: " + reason + ".", {"winner": winner}))
    else:
        events.append(Event("draw", "The game is a draw: " + reason + ".", {}))


def check_victory(state: Game, pack, events: list[Event]) -> bool:
    if state.phase != "battle":
        return True
    alive = [o for o in state.owners() if state.standing(o)]
    if len(alive) > 1:
        return False
    if alive:
        finish(state, events, alive[0], "no enemy unit is left on the battlefield")
    else:
        finish(state, events, None, "no unit is left on the battlefield")
    return True


def finish_on_points(state: Game, pack, events: list[Event], rounds: int) -> None:
    left = {o: points_left(state, pack, o) for o in state.owners()}
    best = max(left.values())
    top = [o for o, v in left.items() if v == best]
    text = ", ".join(f"{{@p{i}}} {v}" for i, v in enumerate(left.values()))
    data = {f"p{i}": o for i, o in enumerate(left)}
    reason = f"after {count(rounds, 'round')} it keeps the most points of units standing ({text})"
    if len(top) == 1:
        finish(state, events, top[0], reason)
        events[-1].data.update(data)
    else:
        finish(state, events, None, f"after {count(rounds, 'round')} both keep the same points of units standing ({text})")
        events[-1].data.update(data)


def inches(halves: int) -> str:
    return half_inches(halves)
