"""The Engage phase (file 003 of the rule texts): declaring an engage, its distance, the path, the intercept
offer, and where everyone ends.

An engage runs in the order the rules give:

1. ``declare``: the unit, its target (or several targets) and its Jump Down checks are declared; then the
   distance is found: the Run speed (1.5 x Move) when the unit sees every target, else the d20 out-of-sight
   roll and its table; then the shortest path is measured, with the declared checks.
2. In reach, the other player is asked whether a unit that can move up to 2 inches in a straight line onto the
   path intercepts (``state.pending``, a prompt with a deadline); with no unit able to, the engage goes on.
   Out of reach, the engage fails and the unit moves along the path only its failed-engage distance.
3. ``resolve``: an interceptor moves onto the path and the engager stops in contact with it; otherwise the
   engager ends in contact with its targets, making room on a ledge or a ladder's top when it must, and strikes
   first in this turn's Melee.  Jump Down checks are rolled as the unit moves; Fear is checked when contact is
   made.  ``state.last`` keeps all of it for the picture.
"""
from __future__ import annotations

from typing import Any

from engine.core import Dice, Event, RuleError, strong
from engine.hexes import Hex, neighbours
from rulesets.engage.board import JUMP, Board, Route, measure, search
from rulesets.engage.rules.core import (
    FALL_WOUNDS,
    active,
    advance,
    allies,
    check,
    enemies,
    free,
    hurt,
    hx,
    in_contact,
    inches,
    label,
    morale,
    names,
)
from rulesets.engage.state import Game, Unit

#: the d20 out-of-sight table: (lowest, highest, engage distance, failed-engage move), distances in half Moves
OUT_OF_SIGHT = ((1, 5, 1, 1), (6, 15, 2, 2), (16, 20, 3, 2))
RUN = 3  # the Run speed, 1.5 x Move, in half Moves
FAILED_IN_SIGHT = 2  # a failed engage in sight moves the base Move
FACTOR = {1: "0.5", 2: "1", 3: "1.5"}
DEFAULT_INTERCEPT_MINUTES = 120


def factor(halves: int) -> str:
    return FACTOR[halves] + " x Move"


# ------------------------------------------------------------------ declare --
def goals(state: Game, board: Board, u: Unit, targets: list[Unit]) -> set[Hex]:
    """Free hexes in base contact with every target and with no other enemy."""
    others = [hx(e) for e in enemies(state, u) if e not in targets]
    out = set()
    for n in neighbours(hx(targets[0])):
        if not board.open(n) or not free(state, board, n, but=u):
            continue
        if all(board.contact(n, hx(t)) for t in targets) and not any(board.contact(n, o) for o in others):
            out.add(n)
    return out


def room_spots(state: Game, board: Board, target: Unit) -> list[Hex]:
    """Where a target on a ledge's edge or a ladder's top can be shuffled back to: free hexes on its level."""
    here = hx(target)
    return [n for n in neighbours(here) if board.open(n) and board.height(n) == board.height(here)
            and free(state, board, n)]


def room_hexes(state: Game, board: Board, u: Unit, targets: list[Unit]) -> list[Hex]:
    """The targets' own hexes an engage may end on by making room: a target that can be shuffled back to a free hex
    on its level.  With several targets (from rules revision 2) only a hex from which the engager touches every
    other target and no other enemy; the shuffled target stays in contact, one hex back on its own level."""
    if len(targets) == 1:
        return [hx(targets[0])] if room_spots(state, board, targets[0]) else []
    if state.rules < 2:
        return []
    others = [hx(e) for e in enemies(state, u) if e not in targets]
    out = []
    for t in targets:
        here = hx(t)
        if not room_spots(state, board, t):
            continue
        if all(board.contact(here, hx(x)) for x in targets if x is not t) and \
                not any(board.contact(here, o) for o in others):
            out.append(here)
    return out


def room_target(targets: list[Unit], end: Hex) -> Unit:
    """The target whose hex an engage that makes room ends on."""
    return next((t for t in targets if hx(t) == end), targets[0])


def parse_path(text: str) -> list[Hex]:
    hexes = []
    for tok in str(text).replace(";", " ").split():
        try:
            hexes.append(Hex.parse(tok))
        except ValueError:
            raise RuleError(f"path: {tok[:20]!r} is not a hex. Write the hexes in order, like 3,4 4,4 5,3.") from None
    if not hexes:
        raise RuleError("path: write the hexes in order, like 3,4 4,4 5,3 (or leave it out for the shortest).")
    return hexes


def declare(state: Game, pack, board: Board, dice: Dice, now: float, u: Unit, targets: list[Unit], jump: bool,
            path: str | None, events: list[Event]) -> None:
    t = pack.unit(u.type)
    if jump and not t.jump_down:
        raise RuleError(f"{label(u)} can't Jump Down, so it can't declare Jump Down checks. Leave jump: out.")
    near = in_contact(state, board, u)
    for target in targets:
        if target in near:
            raise RuleError(f"{label(u)} is already in base contact with {label(target)}: an engage is made "
                            "against another enemy.")
    ends = goals(state, board, u, targets)
    room = room_hexes(state, board, u, targets)
    foes = {hx(e) for e in enemies(state, u)}
    friends = {hx(a) for a in allies(state, u)}
    best = search(board, hx(u), ends, enemies=foes, allies=friends, jump=jump, room=room)
    if best is None:
        if len(targets) > 1 and not _touching_all(board, targets) and not room:
            raise RuleError(f"No hex is in base contact with {names(targets)} at once. Engage them one at a time.")
        hint = ""
        if not jump and t.jump_down and search(board, hx(u), ends, enemies=foes, allies=friends, jump=True,
                                                room=room) is not None:
            hint = " A route with a Jump Down exists: declare it with jump:yes."
        raise RuleError(f"No route leads {label(u)} into base contact with {names(targets)}"
                        f"{' (and no other enemy)' if ends or len(targets) > 1 else ''} from where it stands: walls, "
                        f"ledges without ladders or other units are in the way.{hint}")
    route = best
    if path:
        mine, why = measure(board, hx(u), parse_path(path), enemies=foes, allies=friends, jump=jump, room=room)
        if mine is None:
            raise RuleError(f"That path can't be taken: {why}")
        if not mine.hexes or (mine.end not in ends and not (mine.room and room)):
            raise RuleError(f"That path doesn't end in base contact with {names(targets)} (and no other enemy). "
                            f"The shortest one does: {best.text()}.")
        if mine.inches > best.inches:
            through = (" moving through " + names(a for a in allies(state, u) if hx(a) in best.hexes)
                       if best.allies else "")
            raise RuleError(f"That path is {mine.inches} in, but the shortest is {best.inches} in "
                            f"({best.text()}{through}). An engage takes the shortest path, moving through allies "
                            "when that is shorter.")
        route = mine
    # the unit attempts the engage: from here on it counts, whatever happens
    u.tried = True
    sight = all(board.sees(hx(u), hx(x)) for x in targets)
    roll = None
    if sight:
        reach, fail = RUN * t.move, FAILED_IN_SIGHT * t.move
        band = None
    else:
        roll = dice.roll(20)
        lo, hi, e, f = next(row for row in OUT_OF_SIGHT if row[0] <= roll <= row[1])
        reach, fail = e * t.move, f * t.move
        band = f"{lo}-{hi}"
    checks = "declaring Jump Down checks" if jump else "declaring no Agility checks"
    events.append(Event("engage", "{@player}'s " + f"{label(u)} engages {names(targets)}, {checks}.",
                        {"player": u.owner, "unit": u.id, "targets": [x.id for x in targets], "jump": jump}))
    if sight:
        events.append(Event("distance", f"It can see {'them' if len(targets) > 1 else 'its target'}: the engage "
                                        f"distance is its Run speed, {strong(inches(reach) + ' in')} "
                                        f"(1.5 x Move {t.move}).", {"halves": reach, "sight": True}))
    else:
        events.append(Event("distance", f"It can't see {'them all' if len(targets) > 1 else 'its target'}: "
                                        f"out-of-sight roll d20 {strong(roll)} ({band}): engage distance "
                                        f"{strong(inches(reach) + ' in')} ({factor(reach // t.move)} {t.move}), "
                                        f"failed-engage move {inches(fail)} in ({factor(fail // t.move)} {t.move}).",
                            {"halves": reach, "fail": fail, "roll": roll, "sight": False}))
    jumps = len(route.jumps)
    through = [a for a in allies(state, u) if hx(a) in route.hexes]
    events.append(Event("path", f"Path: {route.text()}, {route.inches} in"
                                + (f", through {names(through)}" if through else "")
                                + (f", {jumps} Jump Down check{'s' if jumps != 1 else ''}" if jumps else "")
                                + (f", onto {room_target(targets, route.end).name}'s place on the edge (it makes "
                                   "room)" if route.room else "")
                                + ".", {"inches": route.inches, "path": [str(h) for h in route.hexes]}))
    state.last = {"unit": u.id, "owner": u.owner, "targets": [x.id for x in targets], "start": list(hx(u)),
                  "path": [list(h) for h in route.hexes], "kinds": list(route.kinds), "costs": list(route.costs),
                  "inches": route.inches, "room": route.room, "sight": sight, "roll": roll, "band": band,
                  "distance": reach, "fail": fail, "jump": jump, "result": "pending", "walked": [],
                  "interceptor": None, "shuffle": None, "end": list(hx(u))}
    if 2 * route.inches > reach:
        failed(state, pack, board, dice, u, events)
        return
    events.append(Event("reach", f"{inches(reach)} in reaches {route.inches} in.", {}))
    options = interceptors(state, board, u, targets, route)
    if not options:
        resolve(state, pack, board, dice, events, None)
        return
    minutes = int(state.settings.get("intercept_minutes", DEFAULT_INTERCEPT_MINUTES))
    state.prompts += 1
    opponent = state.opponent(u.owner)
    state.pending = {"id": f"icp{state.prompts}", "owner": opponent, "candidates": options,
                     "deadline": now + minutes * 60 if minutes > 0 else None, "minutes": minutes}
    listed = "; ".join(option_text(state, i, o) for i, o in enumerate(options, 1))
    events.append(Event("intercept-offer", "{@owner} may intercept: " + listed + ".",
                        {"owner": opponent, "candidates": [o["unit"] for o in options]}))


def revealed(before: Game, after: Game, events: list[dict[str, Any]]) -> str | None:
    """What a logged action measured, so /undo never takes it back: an engage declared is measured before it
    moves (its path to the targets), and a measurement can't be unseen (``engine.rulesets.Ruleset.revealed``)."""
    for e in events:
        if e.get("kind") != "path":
            continue
        data = e.get("data") or {}
        ids = next((x.get("data", {}).get("targets") for x in events if x.get("kind") == "engage"), None) or []
        units = [after.units.get(str(i)) or before.units.get(str(i)) for i in ids]
        whom = names(u for u in units if u is not None) or "its target"
        return (f"The engage measured {data.get('inches', '?')} in to {whom}; what was measured can't be taken "
                "back.")
    return None


def _touching_all(board: Board, targets: list[Unit]) -> list[Hex]:
    return [n for n in neighbours(hx(targets[0])) if all(board.contact(n, hx(t)) for t in targets)]


def option_text(state: Game, n: int, o: dict[str, Any]) -> str:
    who = state.units[o["unit"]]
    return f"{n}. {label(who)} moves {len(o['line'])} in to {o['to'][0]},{o['to'][1]}"


def interceptors(state: Game, board: Board, u: Unit, targets: list[Unit], route: Route) -> list[dict[str, Any]]:
    """The other player's units that could move up to 2 inches in a straight line onto the path (not a target,
    not Stunned or Dazed, not in melee), and where; the engager must be able to stop in contact before them."""
    index = {h: i for i, h in enumerate(route.hexes)}
    out = []
    opponent = state.opponent(u.owner)
    for i in sorted(state.standing(opponent), key=lambda x: x.id):
        if i in targets or not active(i) or in_contact(state, board, i):
            continue
        for h, line in board.straight(hx(i), 2):
            k = index.get(h)
            if k is None or not all(free(state, board, x) for x in line):
                continue
            before = route.hexes[k - 1] if k else route.start
            if board.height(before) != board.height(h) or (k and not free(state, board, before, but=u)):
                continue
            out.append({"unit": i.id, "from": list(hx(i)), "to": [h.q, h.r], "line": [list(x) for x in line],
                        "index": k})
    return out


# ------------------------------------------------------------------ moving --
def _route(rec: dict[str, Any]) -> Route:
    return Route(Hex(*rec["start"]), [Hex(*h) for h in rec["path"]], list(rec["kinds"]), int(rec["inches"]),
                 room=bool(rec.get("room")), costs=list(rec.get("costs") or []))


def walk(state: Game, pack, board: Board, u: Unit, rec: dict[str, Any], start: int, stop: int, dice: Dice,
         events: list[Event]) -> tuple[int, bool, bool]:
    """Move ``u`` along the engage's path through hexes ``start`` .. ``stop - 1``.  A Jump Down rolls its Agility
    check; a failure lands the unit hurt where it jumped to, and its move ends.  Returns (hexes entered so far,
    whether the last step was a successful Jump Down, whether it fell)."""
    route = _route(rec)
    agility = pack.unit(u.type).agility
    entered, jumped = start, False
    for i in range(start, stop):
        h = route.hexes[i]
        prev = route.hexes[i - 1] if i else route.start
        jumped = False
        if route.kinds[i] == JUMP:
            ok, v = check(dice, agility)
            drop = board.height(prev) - board.height(h)
            events.append(Event("jump", f"Jump Down from {prev} to {h}"
                                        + (f" ({drop} in)" if drop else "") + f": Agility check d20 {strong(v)} "
                                        f"against {agility}: " + ("it lands well." if ok else "it falls."),
                                {"unit": u.id, "roll": v, "passed": ok}))
            if not ok:
                entered = i + 1
                u.hex = (h.q, h.r)
                rec["walked"] = [list(x) for x in route.hexes[:entered]]
                hurt(state, pack, u, FALL_WOUNDS, events, "a fall")
                return entered, False, True
            jumped = True
        entered = i + 1
    if entered:
        last = route.hexes[entered - 1]
        u.hex = (last.q, last.r)
    rec["walked"] = [list(x) for x in route.hexes[:entered]]
    return entered, jumped, False


def failed(state: Game, pack, board: Board, dice: Dice, u: Unit, events: list[Event]) -> None:
    """Out of reach: the engage fails; the unit moves along its path only its failed-engage distance, stopping
    on a free hex out of base contact with every enemy."""
    rec = state.last
    t = pack.unit(u.type)
    budget = rec["fail"] // 2
    route = _route(rec)
    stop, spent = 0, 0
    for i, c in enumerate(route.costs):
        if spent + c > budget:
            break
        spent += c
        stop = i + 1
    reach = stop
    while stop > 0 and (not free(state, board, route.hexes[stop - 1], but=u)
                        or in_contact(state, board, u, at=route.hexes[stop - 1])):
        stop -= 1
    half = rec["roll"] is not None and rec["roll"] <= 5
    how = f"half its base Move after a 1-5 out-of-sight roll, {inches(rec['fail'])} in" if half else \
        f"its base Move, {t.move} in"
    events.append(Event("engage-fails", f"{inches(rec['distance'])} in is short of {rec['inches']} in: the engage "
                                        f"fails. {label(u)} moves along its path only as far as {how}.",
                        {"unit": u.id, "result": "failed"}))
    entered, _j, fell = walk(state, pack, board, u, rec, 0, stop, dice, events)
    rec["result"] = "failed"
    rec["end"] = list(u.hex) if u.hex else None
    moved = sum(route.costs[:entered])
    if u.on_field:
        where = f"moves {moved} in to {Hex(*u.hex)}" if entered else "stays where it is"
        short = (" (it stops short: further along its path it would stand on an ally or touch an enemy)"
                 if stop < reach and not fell else "")
        events.append(Event("engage-end", f"{label(u)} {where}" + (" (it fell)" if fell else "") + short +
                            "; it can't Move or Shoot this turn.", {"unit": u.id}))
    state.trail.append({"kind": "engage", "unit": u.id, "path": [rec["start"]] + rec["walked"]})
    finish(state, pack, board, dice, events)


def resolve(state: Game, pack, board: Board, dice: Dice, events: list[Event], pick: dict[str, Any] | None) -> None:
    """The engage goes on after the intercept question: with the interceptor ``pick``, or none."""
    rec = state.last
    u = state.units[rec["unit"]]
    targets = [state.units[t] for t in rec["targets"]]
    state.pending = None
    route = _route(rec)
    if pick is not None:
        i = state.units[pick["unit"]]
        to = Hex(*pick["to"])
        rec["interceptor"] = {"unit": i.id, "from": list(hx(i)), "to": pick["to"], "line": pick["line"]}
        i.hex = (to.q, to.r)
        state.trail.append({"kind": "intercept", "unit": i.id, "path": [pick["from"]] + pick["line"]})
        events.append(Event("intercept", "{@owner} intercepts: " + f"{label(i)} moves {len(pick['line'])} in "
                                         f"to {to}, onto the path.", {"owner": i.owner, "unit": i.id}))
        entered, jumped, fell = walk(state, pack, board, u, rec, 0, int(pick["index"]), dice, events)
        rec["result"] = "intercepted"
        rec["end"] = list(u.hex) if u.hex else None
        state.trail.append({"kind": "engage", "unit": u.id, "path": [rec["start"]] + rec["walked"]})
        if u.on_field and board.contact(hx(u), hx(i)):
            events.append(Event("engage-end", f"{label(u)} stops at {hx(u)} in base contact with {label(i)}: the "
                                              f"engage is intercepted, so it does not strike first.",
                                {"unit": u.id, "result": "intercepted"}))
            fear(state, pack, dice, u, [i], events)
            if jumped:
                jump_attack(u, [i], events)
                rec["jump_attack"] = True
        elif u.on_field:
            events.append(Event("engage-end", f"{label(u)} stops at {hx(u)}, short of {label(i)}.",
                                {"unit": u.id, "result": "intercepted"}))
        finish(state, pack, board, dice, events)
        return
    n = len(route.hexes)
    last = n - 1 if route.room else n
    entered, jumped, fell = walk(state, pack, board, u, rec, 0, last, dice, events)
    if route.room and not fell and u.on_field:
        target = room_target(targets, route.hexes[-1])
        spots = room_spots(state, board, target)
        came = route.hexes[-2] if n > 1 else route.start
        spot = max(spots, key=lambda h: (_dist(h, came), -spots.index(h)))
        rec["shuffle"] = {"unit": target.id, "from": list(hx(target)), "to": list(spot)}
        events.append(Event("make-room", f"No room next to {label(target)}: it is shuffled back from "
                                         f"{hx(target)} to {spot} to make room.", {"unit": target.id}))
        target.hex = (spot.q, spot.r)
        entered, jumped, fell = walk(state, pack, board, u, rec, n - 1, n, dice, events)
    rec["end"] = list(u.hex) if u.hex else None
    state.trail.append({"kind": "engage", "unit": u.id, "path": [rec["start"]] + rec["walked"]})
    if not u.on_field:
        rec["result"] = "fell"
        finish(state, pack, board, dice, events)
        return
    touching = all(board.contact(hx(u), hx(t)) for t in targets)
    if not touching:
        rec["result"] = "fell"
        events.append(Event("engage-end", f"{label(u)} fell at {hx(u)}, short of {names(targets)}: the engage "
                                          "fails.", {"unit": u.id, "result": "fell"}))
        finish(state, pack, board, dice, events)
        return
    rec["result"] = "success"
    u.strike_first = True
    events.append(Event("engage-end", f"The engage succeeds: {label(u)} is in base contact with {names(targets)} at "
                                      f"{hx(u)} and will strike first in this turn's Melee.",
                        {"unit": u.id, "result": "success"}))
    fear(state, pack, dice, u, targets, events)
    if jumped:
        jump_attack(u, targets, events)
        rec["jump_attack"] = True
    finish(state, pack, board, dice, events)


def _dist(a: Hex, b: Hex) -> int:
    from engine.hexes import distance

    return distance(a, b)


def jump_attack(u: Unit, foes: list[Unit], events: list[Event]) -> None:
    u.jump_attack = True
    events.append(Event("jump-attack", f"Jump Attack: {label(u)} landed from its Jump Down straight into base contact "
                                       f"with {names(foes)}, so it rolls its attacks with Advantage this turn.",
                        {"unit": u.id}))


def fear(state: Game, pack, dice: Dice, u: Unit, foes: list[Unit], events: list[Event]) -> None:
    """Fear when contact is made: a unit that engages, or is engaged by, a unit causing Fear (and causes none itself)
    makes a Morale check; when both cause Fear, neither does."""
    mine = pack.unit(u.type).fear
    scary = [f for f in foes if pack.unit(f.type).fear]
    both = scary if mine else []
    if both:
        events.append(Event("fear-negated", f"{label(u)} and {names(both)} both cause Fear: it cancels out, and "
                                            "neither makes a Morale check.", {"unit": u.id}))
    if scary and not mine:
        morale(state, pack, u, scary, dice, events)
    if mine:
        for f in foes:
            if not pack.unit(f.type).fear:
                morale(state, pack, f, [u], dice, events)


def finish(state: Game, pack, board: Board, dice: Dice, events: list[Event]) -> None:
    from rulesets.engage.rules.core import check_victory

    if not check_victory(state, pack, events):
        advance(state, pack, board, dice, events)
