"""The combat phase: activate a fighter, then its actions (move, attack, Retreat, Wait, Channel Magic)
and one ability paid with an ability die, before or after an action.

Every handler refuses in ``apply`` before it changes anything: a refusal
leaves the campaign untouched (the engine works on a copy).
"""
from __future__ import annotations

from engine.bounds import OneHex, Int, Text
from engine.core import Event, RuleError
from engine.hexes import Hex, distance
from engine.text import echo, slug
from rulesets.skirmish.rules.table import Handler, action, subject
from rulesets.skirmish.rules import engine as E
from rulesets.skirmish.rules.muster import find_fighter
from rulesets.skirmish.state import AbilityDie

KINDS = E.KINDS
DIE = Int(1, 12)  # an ability die by its number (a warband holds at most a dozen)


def _battle(state):
    if state.phase == "muster":
        raise RuleError("The battle has not begun. The leader starts it with /skirmish start.")
    if state.phase == "over":
        raise RuleError("This skirmish is over. See /skirmish status for the result.")


def _active(state, action, ctx):
    """The open activation of the acting player, and its fighter."""
    _battle(state)
    who = subject(state, action)
    act = state.fight.active
    if act is None:
        if state.fight.turn == who:
            raise RuleError("Activate a fighter first: use /skirmish activate.")
        raise RuleError("It is {@turn}'s turn to activate; wait for yours.", turn=state.fight.turn)
    if act.player != who:
        raise RuleError("{@turn} is activating " + state.fighters[act.fighter].name + "; wait for your turn.",
                        turn=act.player)
    return act, state.fighters[act.fighter]


def _action(state, action, ctx):
    act, f = _active(state, action, ctx)
    if act.actions_left <= 0:
        raise RuleError(f"{f.name} has used its actions. Use an ability with /skirmish ability, "
                        "or end the activation with /skirmish end.")
    return act, f


def _spend(state, act, ctx, events) -> list[Event]:
    act.actions_left -= 1
    act.actions_done += 1
    pack = ctx.pack_for(state)
    if not E.check_victory(state, events):
        E.after_action(state, pack, ctx.dice, events)
    return events


def _hex(text, what="to") -> Hex:
    try:
        return Hex.parse(str(text or ""))
    except ValueError as exc:
        raise RuleError(f"{what}: {exc} Write it like 3,4.") from None


def _die(state, who, number, f):
    pool = state.fight.dice.get(who, [])
    if not pool:
        raise RuleError("Your warband has no ability dice left this round.")
    if number is None:
        raise RuleError("Name the ability die by its number with die: (1 to " + str(len(pool)) + ", as on the map).")
    try:
        n = int(number)
    except (TypeError, ValueError):
        raise RuleError("Give die: as the ability die's number, 1 to " + str(len(pool)) + ".") from None
    if not 1 <= n <= len(pool):
        raise RuleError(f"Your warband has {E.plural(len(pool), 'ability die', 'ability dice')}: die: must be "
                        + ("1." if len(pool) == 1 else f"1 to {len(pool)}."))
    d = pool[n - 1]
    if d.channelled and d.wizard != f.id:
        raise RuleError(f"Die {n} was channelled by another Wizard: only that Wizard's activation can use it.")
    return d


@action
class Activate(Handler):
    type = "skirmish.activate"
    args = {"fighter": Text()}
    summary = "Activate one of your fighters."

    def apply(self, state, action, ctx):
        _battle(state)
        who = subject(state, action)
        fight = state.fight
        if fight.active is not None:
            f = state.fighters[fight.active.fighter]
            if fight.active.player == who:
                raise RuleError(f"{f.name} is still activating. Finish its actions, or use /skirmish end first.")
            raise RuleError("{@turn} is activating " + f.name + "; wait for your turn.", turn=fight.active.player)
        if fight.turn != who:
            raise RuleError("It is {@turn}'s turn to activate; wait for yours.", turn=fight.turn)
        f = find_fighter(state, action.args.get("fighter"), who)
        if f.out:
            raise RuleError(f"{f.name} is out of action. Choose another fighter.")
        if not f.ready:
            left = ", ".join(x.name for x in state.fighters_of(who) if x.ready)
            raise RuleError(f"{f.name} has already activated this round. Fighters still to activate: {left}.")
        fight.trail = []
        events: list[Event] = []
        E.start_activation(state, f, events)
        return state, events


@action
class Move(Handler):
    type = "skirmish.move"
    args = {"to": OneHex()}
    summary = "Move up to the fighter's Move in hexes."

    def apply(self, state, action, ctx):
        act, f = _action(state, action, ctx)
        pack = ctx.pack_for(state)
        near = E.near_enemy(state, f)
        if near:
            raise RuleError(f"{f.name} is within 1 hex of {near[0].name}: it can only move away with "
                            "/skirmish retreat (or attack, wait, or channel instead).")
        to = _hex(action.args.get("to"))
        path = E.move_path(state, pack, f, to, pack.fighter(f.type).move)
        E.place(state, f, path, "move")
        events = [Event("move", f"{f.name} moves {E.plural(len(path), 'hex')} to {to}.", {"fighter": f.id})]
        return state, _spend(state, act, ctx, events)


@action
class Attack(Handler):
    type = "skirmish.attack"
    args = {"target": Text()}
    summary = "Attack an enemy in range."

    def apply(self, state, action, ctx):
        act, f = _action(state, action, ctx)
        pack = ctx.pack_for(state)
        target = find_fighter(state, action.args.get("target"))
        if target.owner == f.owner:
            raise RuleError(f"{target.name} is on your side. Pick an enemy fighter.")
        if target.out:
            raise RuleError(f"{target.name} is already out of action. Pick another target.")
        rng = pack.fighter(f.type).attack.range
        d = distance(E.hx(f), E.hx(target))
        if d > rng:
            raise RuleError(f"{target.name} is {E.plural(d, 'hex')} away; {f.name} attacks at up to {rng}. "
                            "Move closer first, or pick a nearer target.")
        events: list[Event] = []
        E.attack(state, pack, f, target, ctx.dice, events)
        return state, _spend(state, act, ctx, events)


@action
class Retreat(Handler):
    type = "skirmish.retreat"
    args = {"to": OneHex()}
    summary = "Retreat: move away from an enemy within 1 hex, up to 3 hexes, ending clear of every enemy."

    def apply(self, state, action, ctx):
        act, f = _action(state, action, ctx)
        pack = ctx.pack_for(state)
        if not E.near_enemy(state, f):
            raise RuleError(f"No enemy is within 1 hex of {f.name}: use /skirmish move, not a Retreat.")
        legal = E.retreat_hexes(state, pack, f)
        if not legal:
            raise RuleError(f"{f.name} can't Retreat: no hex within {E.RETREAT_HEXES} hexes is clear of every "
                            "enemy by more than 1 hex. Choose another action (attack, wait or channel).")
        to = _hex(action.args.get("to"))
        if to not in legal:
            why = (f"{to} is within 1 hex of an enemy" if to in E.board(state, pack) and E.near_enemy(state, f, at=to)
                   else f"{f.name} can't reach {to} in {E.RETREAT_HEXES} hexes")
            raise RuleError(f"A Retreat can't end on {to}: {why}. Hexes it can retreat to: "
                            + ", ".join(str(h) for h in legal[:12]) + ("…" if len(legal) > 12 else "") + ".")
        path = E.move_path(state, pack, f, to, E.RETREAT_HEXES)
        E.place(state, f, path, "retreat")
        events = [Event("retreat", f"{f.name} retreats {E.plural(len(path), 'hex')} to {to}.", {"fighter": f.id})]
        return state, _spend(state, act, ctx, events)


@action
class Wait(Handler):
    type = "skirmish.wait"
    args: dict = {}
    summary = "Wait: as the first action the fighter waits and activates once more; as the last it ends."

    def apply(self, state, action, ctx):
        act, f = _action(state, action, ctx)
        pack = ctx.pack_for(state)
        events: list[Event] = []
        if act.actions_done == 0 and not act.second:
            events.append(Event("wait", f"{f.name} waits: it will activate once more later this combat phase "
                                        "with its second action.", {"fighter": f.id}))
            act.actions_left = 0
            E.end_activation(state, pack, ctx.dice, events, waiting=True)
        else:
            events.append(Event("wait", f"{f.name} waits as its last action.", {"fighter": f.id}))
            act.actions_left = 0
            act.actions_done += 1
            E.end_activation(state, pack, ctx.dice, events)
        return state, events


@action
class Channel(Handler):
    type = "skirmish.channel"
    args = {"mode": Text(20), "die": DIE}
    summary = "Channel Magic (Wizards): add a double of 3, or upgrade or raise one ability die; then the calamity roll."

    def apply(self, state, action, ctx):
        act, f = _action(state, action, ctx)
        pack = ctx.pack_for(state)
        if not pack.fighter(f.type).wizard:
            raise RuleError(f"{f.name} is not a Wizard: only Wizards Channel Magic. Choose another action.")
        mode = slug(action.args.get("mode") or "new")
        pool = state.fight.dice.setdefault(act.player, [])
        if mode == "new":
            die = AbilityDie("double", 3, channelled=True, wizard=f.id)
            pool.append(die)
            what = f"adds a channelled double of 3 (die {len(pool)})"
        elif mode in ("upgrade", "raise"):
            die = _die(state, act.player, action.args.get("die"), f)
            n = pool.index(die) + 1
            if mode == "upgrade":
                if die.kind == "quad":
                    raise RuleError(f"Die {n} is already a quad: raise its value (mode:raise) or add a new double.")
                before = die.kind
                die.kind = KINDS[KINDS.index(die.kind) + 1]
                what = f"upgrades die {n} from a {before} to a {die.kind} of {die.value}"
            else:
                if die.value >= 6:
                    raise RuleError(f"Die {n} already shows 6, the most it can: upgrade it (mode:upgrade) instead.")
                before = die.value
                die.value = min(6, die.value + 3)
                what = f"raises die {n} from {before} to {die.value}"
            die.channelled, die.wizard = True, f.id
        else:
            raise RuleError("Choose mode: new (add a double of 3), upgrade (double to triple, triple to quad) "
                            "or raise (value +3, at most 6).")
        events = [Event("channel", f"{f.name} channels magic and {what}.", {"fighter": f.id, "die": die.to_dict()})]
        roll = ctx.dice.roll(6)
        x = die.value
        if roll == 1:
            events.append(Event("calamity", f"Magical calamity roll {roll}: calamitous detonation.",
                                {"roll": roll, "band": "detonation"}))
            E.take_out(state, f, events, "a calamitous detonation")
        elif roll <= 3:
            events.append(Event("calamity", f"Magical calamity roll {roll}: barely controlled power, "
                                            f"{x} damage to {f.name} (the channelled die's value).",
                                {"roll": roll, "band": "barely", "damage": x}))
            E.hurt(state, pack, f, x, events, "barely controlled power")
        else:
            events.append(Event("calamity", f"Magical calamity roll {roll}: arcane surge, no ill effect.",
                                {"roll": roll, "band": "surge"}))
        return state, _spend(state, act, ctx, events)


def find_ability(pack, ftype, text):
    key = slug(text or "")
    for a in pack.abilities.values():
        if key in (a.id, slug(a.name)):
            if not a.allowed(ftype):
                who = "Wizards" if a.wizard else f"the {pack.factions[a.faction].name}"
                raise RuleError(f"{a.name} is for {who} only. Pick an ability {ftype.name} may use.")
            return a
    mine = [a for a in pack.abilities.values() if a.allowed(ftype)]
    raise RuleError(f"There is no ability {echo(text)!r} for {ftype.name}. Choose one of: "
                    + ", ".join(f"{a.id} ({a.cost})" for a in mine) + ".")


@action
class UseAbility(Handler):
    type = "skirmish.ability"
    args = {"name": Text(), "die": DIE, "target": Text(), "to": OneHex()}
    summary = "Use an ability, paid with an ability die (one per activation)."

    def apply(self, state, action, ctx):
        act, f = _active(state, action, ctx)
        pack = ctx.pack_for(state)
        ftype = pack.fighter(f.type)
        if act.ability_used:
            raise RuleError(f"{f.name} has used an ability in this activation: one per activation. "
                            + ("Take its action or use /skirmish end." if act.actions_left else "Use /skirmish end."))
        ab = find_ability(pack, ftype, action.args.get("name"))
        die = _die(state, act.player, action.args.get("die"), f)
        pool = state.fight.dice[act.player]
        n = pool.index(die) + 1
        if KINDS.index(die.kind) < KINDS.index(ab.cost):
            raise RuleError(f"{ab.name} needs a {ab.cost} or better; die {n} is a {die.kind}. Pick another die.")
        if die.channelled and not ab.magical and state.rules >= 2:
            # Channel Magic makes dice "for use in magical abilities" (rules revision 2; before, any ability)
            others = [str(i) for i, d in enumerate(pool, 1)
                      if not d.channelled and KINDS.index(d.kind) >= KINDS.index(ab.cost)]
            magic = [a.name for a in pack.abilities.values() if a.magical and a.allowed(ftype)]
            raise RuleError(f"Die {n} was made by Channel Magic: it pays only for a magical ability"
                            + (f" ({', '.join(magic)})" if magic else "") + f", and {ab.name} is not one. "
                            + (f"Pay with die {' or '.join(others)} instead." if others else
                               "No other die of yours can pay for it now."))
        amount = ab.value(die.value)
        events = [Event("ability", f"{f.name} uses {ab.name}, paying with die {n} (a {die.kind} of {die.value}).",
                        {"fighter": f.id, "ability": ab.id})]
        if ab.effect == "dash":
            near = E.near_enemy(state, f)
            if near:
                raise RuleError(f"{f.name} is within 1 hex of {near[0].name}: {ab.name} moves like a move, "
                                "so it can't. Retreat, attack or use another ability.")
            if not action.args.get("to"):
                raise RuleError(f"{ab.name} moves {f.name} up to {E.plural(amount, 'hex')}: say where with "
                                "to:q,r, e.g. to:3,4.")
            to = _hex(action.args.get("to"))
            path = E.move_path(state, pack, f, to, amount)
            E.place(state, f, path, "move")
            events.append(Event("move", f"{f.name} moves {E.plural(len(path), 'hex')} to {to}.", {"fighter": f.id}))
        elif ab.effect == "mend":
            healed = min(amount, f.damage)
            f.damage -= healed
            events.append(Event("mend", f"{f.name} recovers {healed} damage.", {"fighter": f.id}))
        elif ab.effect == "bolt":
            if not action.args.get("target"):
                raise RuleError(f"{ab.name} needs a target: add target: (an enemy within {E.plural(ab.range, 'hex')}).")
            target = find_fighter(state, action.args.get("target"))
            if target.owner == f.owner or target.out:
                raise RuleError(f"{ab.name} needs an enemy fighter on the field as its target.")
            d = distance(E.hx(f), E.hx(target))
            if d > ab.range:
                raise RuleError(f"{target.name} is {E.plural(d, 'hex')} away; {ab.name} reaches {ab.range}. "
                                "Pick a nearer enemy.")
            state.fight.trail.append({"kind": "bolt", "fighter": f.id, "from": list(f.hex), "to": list(target.hex)})
            events.append(Event("bolt", f"{ab.name} deals {amount} damage to {target.name}.",
                                {"fighter": f.id, "target": target.id, "damage": amount}))
            E.hurt(state, pack, target, amount, events, f"by {ab.name}")
        pool.remove(die)
        act.ability_used = True
        if not E.check_victory(state, events):
            E.after_action(state, pack, ctx.dice, events)
        return state, events


@action
class EndActivation(Handler):
    type = "skirmish.end"
    args: dict = {}
    summary = "End the current activation (unused actions are lost)."

    def apply(self, state, action, ctx):
        act, f = _active(state, action, ctx)
        events: list[Event] = []
        if act.actions_left:
            events.append(Event("skip", f"{f.name} gives up {act.actions_left} unused action"
                                        f"{'s' if act.actions_left > 1 else ''}.", {"fighter": f.id}))
        E.end_activation(state, ctx.pack_for(state), ctx.dice, events)
        return state, events


def whose_move(state):
    """(player, key) the table waits for in battle; the bot is never waited for."""
    if state.phase != "battle" or state.fight is None:
        return None
    fight = state.fight
    who = fight.active.player if fight.active else fight.turn
    if not who or who == "bot":
        return None
    return who, f"skirmish:{fight.round}:{fight.activations}:{'a' if fight.active else 't'}"



