"""Before the battle: each of the two players fields units from the pack, within the points limit, in their
deployment zone; the leader starts the game with a d20 roll-off for the first turn."""
from __future__ import annotations

from engine.bounds import OneHex, Text
from engine.core import Event, RuleError, strong
from engine.hexes import Hex
from engine.text import clean_name, echo, slug
from rulesets.engage.rules.core import advance, begin_turn, label
from rulesets.engage.rules.table import Handler, action, subject
from rulesets.engage.state import SIDES, Side, Unit

ZONE_NAMES = {"a": "the north edge", "b": "the south edge"}


def _muster(state) -> None:
    if state.phase != "muster":
        raise RuleError("The battle has already begun: units can't be fielded or removed now. See /mini status.")


def find_type(pack, text) -> str:
    key = slug(text or "")
    for t in pack.units.values():
        if key in (t.id, slug(t.name)):
            return t.id
    raise RuleError(f"There is no unit type {echo(text)!r}. Choose one of: "
                    + ", ".join(f"{t.id} ({t.points} pts)" for t in pack.units.values()) + " (see /mini units).")


def find_unit(state, text, owner: str | None = None, what: str = "unit") -> Unit:
    """A unit by id (a1), name (Reed Spear 2) or hex (3,4); ``owner`` limits it to one side."""
    key = slug(text or "")
    pool = [u for u in state.units.values() if owner is None or u.owner == owner]
    for u in pool:
        if key and key in (u.id, slug(u.name)):
            return u
    try:
        h = Hex.parse(str(text))
    except ValueError:
        h = None
    if h is not None:
        for u in pool:
            if u.on_field and u.hex == (h.q, h.r):
                return u
    listed = ", ".join(f"{u.id} {u.name}" for u in pool if not u.out) or "none"
    whose = "of yours " if owner is not None else ""
    raise RuleError(f"No {what} {whose}called {echo(text)!r}. Name it by id, name or hex: {listed}.")


def points_used(state, pack, owner: str) -> int:
    return sum(pack.unit(u.type).points for u in state.units_of(owner))


@action
class Field(Handler):
    type = "mini.field"
    summary = "Field a unit in your deployment zone."
    args = {"unit": Text(), "at": OneHex(), "name": Text()}
    joins = True  # fielding a player's first unit seats them

    # every refusal is raised in apply before anything changes (the engine discards the working copy)
    def apply(self, state, action, ctx):
        _muster(state)
        pack = ctx.pack_for(state)
        board = ctx.board_for(state)
        who = subject(state, action)
        type_id = find_type(pack, action.args.get("unit"))
        name = clean_name(action.args["name"], "unit", max_len=24) if action.args.get("name") else None
        side = state.sides.get(who)
        events: list[Event] = []
        if side is None:
            if len(state.sides) >= len(SIDES):
                raise RuleError("Two players already field units: this game has two sides. Watch, or start "
                                "another game in another channel.")
            if who not in state.members and len(state.members) >= 4:
                raise RuleError("This game is full (4 members).")
            letter = next(x for x in SIDES if x not in {s.letter for s in state.sides.values()})
            side = Side(owner=who, letter=letter)
        limit = int(state.settings.get("points", pack.points))
        used = points_used(state, pack, who)
        t = pack.unit(type_id)
        if used + t.points > limit:
            raise RuleError(f"A {t.name} costs {t.points} points; you have fielded {used} of {limit}. Pick a "
                            "cheaper unit, or take one back with /mini remove.")
        zone = pack.map.zones[side.letter]
        if action.args.get("at"):
            try:
                h = Hex.parse(str(action.args["at"]))
            except ValueError as exc:
                raise RuleError(f"at: {exc} Write it like 3,0.") from None
            if h not in zone:
                where = ("off the battlefield" if not board.on_map(h)
                         else f"outside your deployment zone ({ZONE_NAMES[side.letter]})")
                raise RuleError(f"Hex {h} is {where}. Pick a free hex of your zone, shaded on /mini map.")
            other = state.at(h.q, h.r)
            if other is not None:
                raise RuleError(f"Hex {h} is taken by {label(other)}. Pick a free hex.")
        else:
            spots = sorted((x for x in zone if state.at(x.q, x.r) is None), key=lambda x: (x.r, x.q))
            if not spots:
                raise RuleError(f"Your deployment zone ({ZONE_NAMES[side.letter]}) is full.")
            h = spots[0]
        if who not in state.members:
            state.members.append(who)
            events.append(Event("joined", "{@player} joins the game.", {"player": who}))
        if who not in state.sides:
            state.sides[who] = side
            events.append(Event("side", "{@player} fields side " + side.letter.upper() + f", deploying on "
                                        f"{ZONE_NAMES[side.letter]}.", {"player": who}))
        n = 1
        while f"{side.letter}{n}" in state.units:
            n += 1
        uid = f"{side.letter}{n}"
        base = name or t.name
        taken = {u.name for u in state.units.values()}
        label_, k = base, 2
        while label_ in taken:
            label_, k = f"{base} {k}", k + 1
        unit = Unit(id=uid, owner=who, type=type_id, name=label_, hex=(h.q, h.r))
        state.units[uid] = unit
        side.units.append(uid)
        kind = "" if label_ == t.name else f", a {t.name},"
        events.append(Event("field", "{@player} fields " + f"{label(unit)}{kind} on {h}: "
                                     f"{used + t.points} of {limit} points.", {"player": who, "unit": uid}))
        return state, events


@action
class Remove(Handler):
    type = "mini.remove"
    summary = "Take back a unit you fielded (before the battle)."
    args = {"unit": Text()}

    def apply(self, state, action, ctx):
        _muster(state)
        who = subject(state, action)
        u = find_unit(state, action.args.get("unit"), who)
        del state.units[u.id]
        state.sides[who].units.remove(u.id)
        events = [Event("remove", "{@player} takes back " + label(u) + ".", {"player": who})]
        if not state.sides[who].units:
            del state.sides[who]
        return state, events


@action
class Start(Handler):
    type = "mini.start"
    leader_only = True
    summary = "Begin the battle: a d20 roll-off for the first turn."
    args: dict = {}

    def check(self, state, action, ctx):
        _muster(state)
        if len(state.sides) < 2:
            raise RuleError("The battle needs two sides: each player fields units with /mini field.")

    def apply(self, state, action, ctx):
        pack = ctx.pack_for(state)
        board = ctx.board_for(state)
        players = state.owners()
        events: list[Event] = []
        while True:
            rolls = {p: ctx.dice.roll(20) for p in players}
            events.append(Event("roll-off", "Roll-off for the first turn: " + ", ".join(
                f"{{@p{i}}} d20 {strong(v)}" for i, v in enumerate(rolls.values())) + ".",
                {f"p{i}": p for i, p in enumerate(rolls)}))
            if len(set(rolls.values())) == len(rolls):
                break
        state.order = sorted(players, key=lambda p: -rolls[p])
        state.phase = "battle"
        events.append(Event("first", "{@first} takes the first turn.", {"first": state.order[0]}))
        begin_turn(state, pack, state.order[0], events)
        advance(state, pack, board, ctx.dice, events)
        return state, events
