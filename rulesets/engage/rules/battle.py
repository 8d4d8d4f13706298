"""A player's turn: Engage (rules.engage), the intercept answer and its time-out, Move, Shoot, Cast, ending a
phase and ending the turn.  Every handler refuses in ``apply`` before it changes anything (the engine works on a
copy, so a refusal leaves the game untouched)."""
from __future__ import annotations

from engine.bounds import KEY, Flag, OneHex, Text, Words
from engine.core import Event, RuleError, strong
from engine.hexes import Hex, distance
from engine.prompts import Option, Prompt
from engine.text import count, echo, slug
from rulesets.engage.board import search
from rulesets.engage.rules import core as C
from rulesets.engage.rules import engage as E
from rulesets.engage.rules.muster import find_unit
from rulesets.engage.rules.table import Handler, action, subject

PHASE_NAMES = C.PHASE_NAMES


def _battle(state) -> None:
    if state.phase == "muster":
        raise RuleError("The battle has not begun. The leader starts it with /mini start.")
    if state.phase == "over":
        raise RuleError("This game is over. See /mini status for the result.")


def _waiting(state) -> None:
    if state.pending is not None:
        raise RuleError("The engage waits for {@owner} to answer whether a unit intercepts (or for the time-out).",
                        owner=state.pending["owner"])


def _my_turn(state, action) -> str:
    """The acting player, whose turn it must be.  The picture's record of what just happened starts afresh with
    each of their actions (an intercept answer goes on with the engage it answers)."""
    _battle(state)
    _waiting(state)
    who = subject(state, action)
    if state.turn.player != who:
        if who not in state.sides:
            raise RuleError("You field no units in this game.")
        raise RuleError("It is {@turn}'s turn; wait for yours.", turn=state.turn.player)
    state.trail = []
    state.last = None
    return who


def _acting(state, action, ctx):
    """The player whose turn it is, the pack, the board, the action's events so far and the unit they act with
    (one of theirs still in the fight)."""
    who = _my_turn(state, action)
    u = find_unit(state, action.args.get("unit"), who)
    if not u.on_field:
        raise RuleError(f"{C.label(u)} is out of the fight. Choose another unit.")
    return who, ctx.pack_for(state), ctx.board_for(state), [], u


def _hex(text, what: str) -> Hex:
    try:
        return Hex.parse(str(text or ""))
    except ValueError as exc:
        raise RuleError(f"{what}: {exc} Write it like 3,4.") from None


def _after(state, ctx, events) -> None:
    pack, board = ctx.pack_for(state), ctx.board_for(state)
    if not C.check_victory(state, pack, events):
        C.advance(state, pack, board, ctx.dice, events)


@action
class Engage(Handler):
    type = "mini.engage"
    summary = "Engage: declare a unit, its targets and its Jump Down checks; then distance, path, intercept."
    args = {"unit": Text(), "target": Text(), "jump": Flag(), "path": Text()}  # a path of at most ~50 hexes

    def apply(self, state, action, ctx):
        who, pack, board, events, u = _acting(state, action, ctx)
        if state.turn.first:
            raise RuleError("There is no Engage phase in the first player's first turn of the game. Move, shoot "
                            "and cast this turn; engage from your next turn.")
        C.in_phase(state, pack, board, "engage", ctx.dice, events)
        why = C.may_engage(state, board, u)
        if why:
            raise RuleError(f"{why}, so it can't attempt an Engage.")
        targets = []
        for t in _targets(state, str(action.args.get("target") or "")):
            if t.owner == who:
                raise RuleError(f"{C.label(t)} is on your side. Engage an enemy unit.")
            if not t.on_field:
                raise RuleError(f"{C.label(t)} is out of the fight. Pick another target.")
            if t not in targets:
                targets.append(t)
        E.declare(state, pack, board, ctx.dice, ctx.now, u, targets, bool(action.args.get("jump")),
                  action.args.get("path"), events)
        return state, events


def _targets(state, raw: str) -> list:
    """The units a target option names: one unit (by id, name or hex), or several ids, names or hexes separated
    by spaces, commas or "and" ("b1 b2", "b1, b2", "3,4 5,4")."""
    if not raw.strip():
        raise RuleError("Name the target: target:b1 (or several at once, target:b1 b2).")
    try:
        return [find_unit(state, raw.strip(), what="target")]
    except RuleError:
        pass
    toks = raw.replace(" and ", " ").split()
    hexes = all("," in t and t.replace(",", "").replace("-", "").isdecimal() for t in toks)
    parts = toks if hexes else [p for p in raw.replace(" and ", ",").replace(",", " ").split() if p]
    if len(parts) == 1:
        return [find_unit(state, parts[0], what="target")]
    if not hexes and "," in raw:  # names with spaces, separated by commas
        named = [p.strip() for p in raw.replace(" and ", ",").split(",") if p.strip()]
        try:
            return [find_unit(state, p, what="target") for p in named]
        except RuleError:
            pass
    return [find_unit(state, p, what="target") for p in parts]


def open_prompt(state) -> Prompt | None:
    """The intercept question the game waits on, if any (``engine.prompts``)."""
    p = getattr(state, "pending", None)
    if not p or state.ended or state.phase != "battle":
        return None
    options = tuple(Option(str(i), E.option_text(state, i, o), "") for i, o in enumerate(p["candidates"], 1))
    return Prompt(id=p["id"], kind="intercept", owner=p["owner"], action="mini.intercept", options=options,
                  default="none", pick=1, deadline=p.get("deadline"), timeout_action="mini.intercept-timeout",
                  data={"arg": "choice", "unit": state.last["unit"] if state.last else None})


def _choice(state, args) -> dict | None:
    """The candidate an answer names: by number (choice:2, 0 for none) or by unit and hex."""
    cands = state.pending["candidates"]
    if args.get("choice") is not None:
        raw = args["choice"]
        raw = raw[0] if isinstance(raw, list) and raw else raw
        if str(raw).strip().lower() in ("none", "no", "0", ""):
            return None
        try:
            n = int(raw)
        except (TypeError, ValueError):
            raise RuleError("Answer with the number of a unit from the list, or none.") from None
        if not 1 <= n <= len(cands):
            raise RuleError(f"Pick 1 to {len(cands)} from the list, or none.")
        return cands[n - 1]
    text = str(args.get("unit") or "").strip()
    if slug(text) in ("", "none", "no", "pass"):
        return None
    u = find_unit(state, text, state.pending["owner"])
    mine = [c for c in cands if c["unit"] == u.id]
    if not mine:
        listed = "; ".join(E.option_text(state, i, o) for i, o in enumerate(cands, 1))
        raise RuleError(f"{C.label(u)} can't intercept this engage (it can't move 2 in in a straight line onto the "
                        f"path). Those that can: {listed}. Or answer unit:none.")
    if args.get("at"):
        h = _hex(args["at"], "at")
        mine = [c for c in mine if tuple(c["to"]) == (h.q, h.r)]
        if not mine:
            raise RuleError(f"{C.label(u)} can't intercept at {h}. It can at: "
                            + ", ".join(f"{c['to'][0]},{c['to'][1]}" for c in cands if c["unit"] == u.id) + ".")
    elif len(mine) > 1:
        raise RuleError(f"{C.label(u)} could intercept at " + " or ".join(f"{c['to'][0]},{c['to'][1]}" for c in mine)
                        + ": say which with at:.")
    return mine[0]


@action
class Intercept(Handler):
    type = "mini.intercept"
    summary = "Answer the intercept question: a unit intercepts the engage, or none does."
    # choice: the number on the list ("2", or ["2"] from the menu) or none; else unit (and at) by name
    args = {"choice": Words(1, 20), "unit": Text(), "at": OneHex(), "prompt": KEY}

    def apply(self, state, action, ctx):
        _battle(state)
        p = state.pending
        if p is None:
            raise RuleError("No engage is waiting for an intercept answer.")
        asked = action.args.get("prompt")
        if asked is not None and asked != p["id"]:
            raise RuleError("That intercept question was already answered. See /mini status.")
        who = subject(state, action)
        if who != p["owner"]:
            raise RuleError("The intercept question is {@owner}'s to answer.", owner=p["owner"])
        if action.on_behalf and action.actor == state.last.get("owner"):
            raise RuleError("You are the engaging player: you can't answer the other player's intercept question. "
                            "Without their answer the time-out decides (no intercept).")
        pick = _choice(state, action.args)
        events: list[Event] = []
        if pick is None:
            events.append(Event("no-intercept", "{@owner} does not intercept.", {"owner": p["owner"]}))
        E.resolve(state, ctx.pack_for(state), ctx.board_for(state), ctx.dice, events, pick)
        return state, events


@action
class InterceptTimeout(Handler):
    type = "mini.intercept-timeout"
    undoable = False
    args = {"ask": KEY}
    summary = "The intercept question's time-out: no unit intercepts."

    def apply(self, state, action, ctx):
        _battle(state)
        p = state.pending
        if p is None or action.args.get("ask") != p["id"]:
            raise RuleError("That intercept question was already answered; nothing timed out.")
        events = [Event("timeout", "⏰ {@owner} did not answer within " + f"{count(p.get('minutes'), 'minute')}: no unit "
                                   "intercepts.", {"owner": p["owner"]})]
        E.resolve(state, ctx.pack_for(state), ctx.board_for(state), ctx.dice, events, None)
        return state, events


@action
class Move(Handler):
    type = "mini.move"
    summary = "Move a unit up to its Move in inches."
    args = {"unit": Text(), "to": OneHex(), "jump": Flag()}

    def apply(self, state, action, ctx):
        who, pack, board, events, u = _acting(state, action, ctx)
        C.in_phase(state, pack, board, "move", ctx.dice, events)
        why = C.may_move(state, board, u)
        if why:
            raise RuleError(f"{why}, so it can't move.")
        to = _hex(action.args.get("to"), "to")
        t = pack.unit(u.type)
        jump = bool(action.args.get("jump"))
        if jump and not t.jump_down:
            raise RuleError(f"{C.label(u)} can't Jump Down. Leave jump: out.")
        if not board.open(to):
            raise RuleError(f"Hex {to} is " + ("a wall" if to in board.walls else "off the battlefield")
                            + ". Pick a hex shown on /mini map.")
        other = state.at(to.q, to.r)
        if other is not None and other is not u:
            raise RuleError(f"Hex {to} is taken by {C.label(other)}. Pick a free hex.")
        if to == C.hx(u):
            raise RuleError(f"{C.label(u)} is already on {to}. Name another hex.")
        near = C.in_contact(state, board, u, at=to)
        if near:
            raise RuleError(f"{to} is in base contact with {C.names(near)}: a unit comes into contact only by an "
                            "Engage. Pick another hex.")
        foes = {C.hx(e) for e in C.enemies(state, u)}
        friends = {C.hx(a) for a in C.allies(state, u)}
        route = search(board, C.hx(u), {to}, enemies=foes, allies=friends, jump=jump)
        if route is None or route.inches > t.move:
            hint = ""
            if not jump and t.jump_down:
                alt = search(board, C.hx(u), {to}, enemies=foes, allies=friends, jump=True)
                if alt is not None and alt.inches <= t.move:
                    hint = " With a Jump Down it could: add jump:yes."
            far = f" (the shortest way is {route.inches} in)" if route else " (no way leads there)"
            raise RuleError(f"{C.label(u)} moves at most {t.move} in and can't reach {to}{far}.{hint}")
        rec = {"start": list(C.hx(u)), "path": [list(h) for h in route.hexes], "kinds": route.kinds,
               "inches": route.inches, "costs": route.costs}
        entered, _j, fell = E.walk(state, pack, board, u, rec, 0, len(route.hexes), ctx.dice, events)
        u.moved = True
        state.trail.append({"kind": "move", "unit": u.id, "path": [rec["start"]] + rec["walked"]})
        if u.on_field:
            moved = sum(route.costs[:entered])
            events.insert(0, Event("move", f"{C.label(u)} moves {moved} in to {C.hx(u)}"
                                           + (" (it fell on the way)." if fell else "."), {"unit": u.id}))
        _after(state, ctx, events)
        return state, events


@action
class Shoot(Handler):
    type = "mini.shoot"
    summary = "Shoot at an enemy in sight and range, not in melee."
    args = {"unit": Text(), "target": Text()}

    def apply(self, state, action, ctx):
        who, pack, board, events, u = _acting(state, action, ctx)
        C.in_phase(state, pack, board, "shoot", ctx.dice, events)
        why = C.may_shoot(state, pack, board, u)
        if why:
            raise RuleError(f"{why}, so it can't shoot.")
        target = find_unit(state, action.args.get("target"), what="target")
        if target.owner == who or not target.on_field:
            raise RuleError(f"{C.label(target)} is not an enemy on the battlefield. Pick an enemy to shoot.")
        t = pack.unit(u.type)
        d = distance(C.hx(u), C.hx(target))
        if d > t.range:
            raise RuleError(f"{C.label(target)} is {d} in away; {C.label(u)} shoots up to {t.range} in.")
        if not board.sees(C.hx(u), C.hx(target)):
            raise RuleError(f"{C.label(u)} can't see {C.label(target)}: a wall or higher ground is in the way.")
        if C.in_contact(state, board, target):
            raise RuleError(f"{C.label(target)} is in melee: nobody shoots into a melee. Pick another target.")
        u.shot = True
        blow, ev = C.attack_roll(pack, u, target, t.shoot, ctx.dice, "shoots at")
        events.append(ev)
        state.trail.append({"kind": "shot", "unit": u.id, "from": list(u.hex), "to": list(target.hex)})
        C.land(state, pack, blow, events, "a shot")
        _after(state, ctx, events)
        return state, events


@action
class Cast(Handler):
    type = "mini.cast"
    summary = "Cast a spell the unit knows (a cast check, then its effect)."
    args = {"unit": Text(), "spell": Text(), "target": Text()}

    def apply(self, state, action, ctx):
        who, pack, board, events, u = _acting(state, action, ctx)
        C.in_phase(state, pack, board, "cast", ctx.dice, events)
        why = C.may_cast(state, pack, u)
        if why:
            raise RuleError(f"{why}, so it can't cast.")
        t = pack.unit(u.type)
        key = slug(action.args.get("spell") or "")
        spell = next((pack.spells[s] for s in t.spells if key in (s, slug(pack.spells[s].name))), None)
        if spell is None:
            raise RuleError(f"{C.label(u)} knows no spell {echo(action.args.get('spell'))!r}. It knows: "
                            + ", ".join(f"{s} ({pack.spells[s].name})" for s in t.spells) + ".")
        target = find_unit(state, action.args.get("target") or (u.id if spell.target == "ally" else ""),
                           what="target")
        if not target.on_field:
            raise RuleError(f"{C.label(target)} is out of the fight. Pick another target.")
        if (target.owner == who) != (spell.target == "ally"):
            on = "an ally (or the caster)" if spell.target == "ally" else "an enemy"
            raise RuleError(f"{spell.name} is cast on {on}. Pick another target.")
        d = distance(C.hx(u), C.hx(target))
        if d > spell.range:
            raise RuleError(f"{C.label(target)} is {d} in away; {spell.name} reaches {spell.range} in.")
        if not board.sees(C.hx(u), C.hx(target)):
            raise RuleError(f"{C.label(u)} can't see {C.label(target)}: a wall or higher ground is in the way.")
        if spell.effect == "heal" and target.damage == 0:
            raise RuleError(f"{C.label(target)} has lost no wounds: {spell.name} would do nothing. "
                            "Pick another target.")
        if spell.effect == "steady" and not target.has("staggered"):
            raise RuleError(f"{C.label(target)} is not Staggered: {spell.name} would do nothing. Pick another target.")
        u.cast = True
        need = t.cast - spell.difficulty
        ok, v = C.check(ctx.dice, need)
        state.trail.append({"kind": "spell", "unit": u.id, "from": list(u.hex), "to": list(target.hex)})
        events.append(Event("cast", f"{C.label(u)} casts {spell.name} on {C.label(target)}: d20 {strong(v)}, needs "
                                    f"{need} or less: " + ("it works." if ok else "it fizzles."),
                            {"unit": u.id, "spell": spell.id, "roll": v, "passed": ok}))
        if ok:
            if spell.effect == "harm":
                C.hurt(state, pack, target, spell.amount, events, spell.name)
            elif spell.effect in ("daze", "stun"):
                C.condition(state, target, "dazed" if spell.effect == "daze" else "stunned", events, spell.name)
            elif spell.effect == "heal":
                back = min(spell.amount, target.damage)
                target.damage -= back
                left = pack.unit(target.type).wounds - target.damage
                events.append(Event("heal", f"{C.label(target)} gets back {count(back, 'wound')}: "
                                            f"{left} of {pack.unit(target.type).wounds}.", {"unit": target.id}))
            elif spell.effect == "steady":
                del target.conditions["staggered"]
                events.append(Event("steady", f"{C.label(target)} is no longer Staggered.", {"unit": target.id}))
        _after(state, ctx, events)
        return state, events


@action
class NextPhase(Handler):
    type = "mini.next"
    summary = "End the current phase (after the Cast phase the Melee is fought and the turn passes)."
    args: dict = {}

    def apply(self, state, action, ctx):
        _my_turn(state, action)
        pack, board = ctx.pack_for(state), ctx.board_for(state)
        left = C.can_act(state, pack, board, state.turn.phase)
        phase = PHASE_NAMES[state.turn.phase]
        events = [Event("phase-end", "{@player} ends the " + phase + " phase"
                        + (f" ({C.names(left)} did not act in it)." if left else "."), {"player": state.turn.player})]
        number = state.turn.number
        C.step_phase(state, pack, board, ctx.dice, events, quiet=True)
        if state.phase == "battle" and state.turn.number == number and state.turn.phase != "melee":
            if not C.can_act(state, pack, board, state.turn.phase):
                C.advance(state, pack, board, ctx.dice, events)
            else:
                events.append(Event("phase", f"{PHASE_NAMES[state.turn.phase]} phase: "
                                             f"{C.names(C.can_act(state, pack, board, state.turn.phase))} may act.",
                                    {"phase": state.turn.phase}))
        elif state.phase == "battle":
            C.advance(state, pack, board, ctx.dice, events)
        return state, events


@action
class EndTurn(Handler):
    type = "mini.end"
    summary = "End the turn: the phases left are skipped, the Melee is fought, the other player's turn begins."
    args: dict = {}

    def apply(self, state, action, ctx):
        _my_turn(state, action)
        pack, board = ctx.pack_for(state), ctx.board_for(state)
        from rulesets.engage.state import TURN_PHASES

        left = []
        for p in TURN_PHASES[TURN_PHASES.index(state.turn.phase):TURN_PHASES.index("melee")]:
            for u in C.can_act(state, pack, board, p):
                left.append(f"{C.label(u)} ({PHASE_NAMES[p]})")
        unused = ": not used: " + ", ".join(left) + "." if left else "."
        events = [Event("turn-end", "{@player} ends the turn" + unused, {"player": state.turn.player})]
        state.turn.phase = "cast"
        C.step_phase(state, pack, board, ctx.dice, events)
        if state.phase == "battle":
            C.advance(state, pack, board, ctx.dice, events)
        return state, events


def whose_move(state):
    """(player, key) the table waits for: the intercept question's owner, or the player whose turn it is."""
    if state.phase != "battle":
        return None
    if state.pending:
        return state.pending["owner"], f"mini:{state.pending['id']}"
    if not state.turn.player:
        return None
    return state.turn.player, f"mini:turn{state.turn.number}"
