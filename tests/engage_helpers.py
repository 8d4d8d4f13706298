"""Helpers for the engage ruleset's tests: a battle set up on the standard map with units where a test wants
them, actions run through the ruleset's table with forced dice (every forced die must be used)."""
from __future__ import annotations

import rulesets
from engine.core import Action, Dice, RuleError
from engine.rulesets import named
from rulesets.engage.board import board_of
from rulesets.engage.content import load_pack
from rulesets.engage.state import Game, Side, Turn, Unit

rulesets.load_all()
LENA, BOB = "lena", "bob"
T0 = 1_700_000_000.0
GAME = named("engage")
PACK = load_pack("engage")
BOARD = board_of(PACK)


SPARES = {"a9": ("drowned-knight", "-5,10"), "b9": ("drowned-knight", "3,10")}


def battle(units: dict[str, tuple[str, str]], *, player: str = LENA, phase: str = "engage", number: int = 3,
           conditions: dict[str, dict[str, int]] | None = None, spare: bool = True, **settings) -> Game:
    """A battle on the standard map.  ``units``: id -> (unit type, "q,r"); ids starting with a are Lena's (side
    A), with b Bob's.  It is ``player``'s turn ``number``, in ``phase``.  With ``spare`` each side also has a
    Drowned Knight in a far corner (a9 on -5,10, b9 on 3,10) that can still move, so a turn does not end by
    itself after the action a test plays."""
    if spare:
        units = dict(units) | {k: v for k, v in SPARES.items() if k not in units}
    g = Game(channel_id="chan", guild_id=None, name="Test", leader=LENA, members=[LENA, BOB],
             settings={"reminder_hours": 0, "points": 200, "rounds": 6, "intercept_minutes": 60} | settings,
             pack="engage", phase="battle")
    g.sides = {LENA: Side(LENA, "a"), BOB: Side(BOB, "b")}
    for uid, (kind, where) in units.items():
        owner = LENA if uid.startswith("a") else BOB
        q, r = (int(x) for x in where.split(","))
        name = PACK.unit(kind).name
        taken = {u.name for u in g.units.values()}
        k = 2
        label = name
        while label in taken:
            label, k = f"{name} {k}", k + 1
        g.units[uid] = Unit(uid, owner, kind, label, (q, r), conditions=dict((conditions or {}).get(uid, {})))
        g.sides[owner].units.append(uid)
    g.order = [LENA, BOB] if number % 2 else [BOB, LENA]
    g.turn = Turn(number=number, player=player, phase=phase, first=number == 1)
    return g


class Run:
    """The outcome of one action: the new state, its events' words, the dice it rolled."""

    def __init__(self, applied):
        self.state = applied.state
        self.events = applied.events
        self.dice = applied.dice
        self.text = "\n".join(e.words() for e in applied.events)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


def run(state: Game, type_: str, args: dict | None = None, *, by: str | None = None, dice: list[int] = (),
        now: float = T0, on_behalf: str | None = None) -> Run:
    """Run one action with these forced dice; every one of them must be rolled, and no other."""
    actor = by or state.turn.player or LENA
    d = Dice(0, 0, list(dice))
    applied = GAME.execute(state, Action(type_, actor, dict(args or {}), on_behalf=on_behalf), d, now)
    assert applied.dice == list(dice), f"rolled {applied.dice}, forced {list(dice)}"
    return Run(applied)


def refused(state: Game, type_: str, args: dict | None = None, *, by: str | None = None, dice: list[int] = (),
            on_behalf: str | None = None) -> str:
    """The refusal's words; the state is unchanged."""
    before = state.to_dict()
    try:
        run(state, type_, args, by=by, dice=list(dice), on_behalf=on_behalf)
    except RuleError as exc:
        assert state.to_dict() == before
        return exc.message
    raise AssertionError(f"{type_} {args} was not refused")


def where(state: Game, uid: str) -> str | None:
    u = state.units[uid]
    return f"{u.hex[0]},{u.hex[1]}" if u.hex else None
