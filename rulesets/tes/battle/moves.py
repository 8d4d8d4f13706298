"""An adventurer's move on the map: the route it takes (checked hex by hex) and what the hexes it moved into do
to it.  Every adventurer move goes through here: a move action, free movement, an ability's move made at once,
a free move an interrupt offered during an enemy's turn.

A delve's tiles react to the hexes a move enters (rulesets.tes.battle.delve registers them here, from above):
``STOP`` hooks say whether entering a hex interrupts the move there (a trap's lockpick check comes first), so
``cut`` ends the route in that hex; ``ENTERED`` hooks then do what entering the hexes does (skyshards gained,
an environment, the trap's check, the explorable hex the adventurer may explore).  Without a delve both are no-ops.
"""
from __future__ import annotations

from typing import Any

from engine.core import RuleError
from engine.hexes import Hex, path_is_legal, shortest_path
from rulesets.tes import args as args_
from rulesets.tes.battle import hexdice
from rulesets.tes.battle.model import Ctx, pos
from rulesets.tes.battle_state import Unit


def parse_path(route: Any) -> list[Hex]:
    """A route ``[[q, r], ...]`` (or one hex ``[q, r]``; raw text from older logs) as hexes."""
    return [Hex(q, r) for q, r in args_.route(route)]


def route(c: Ctx, u: Unit, args: dict, limit: int, *, through: bool = False) -> list[Hex]:
    """The hexes of a move from ``to`` (the shortest open route) or ``path``, checked: up to ``limit`` hexes,
    passable, and (unless ``through``: "through occupied hexes") free of other units; it ends in an empty hex."""
    blocked = frozenset() if through else c.occupied(u.id)
    start = pos(u)
    if args.get("path"):
        path = parse_path(args["path"])
    elif args.get("to") is not None:
        goal = parse_path([args["to"]] if args_.is_hex(args["to"]) else args["to"])
        if len(goal) != 1:
            raise RuleError("Give one destination hex with `to:`, e.g. `to:2,1`, or the whole route with `path:`.")
        if goal[0] not in c.map.tile_of:
            raise RuleError(f"Hex {goal[0]} is off the map. See `/battle map` for the hexes.")
        if goal[0] in c.map.impassable:
            raise RuleError(f"Hex {goal[0]} is impassable; choose another hex.")
        occ = c.occupant(goal[0])
        if occ and occ.id != u.id:
            raise RuleError(f"Hex {goal[0]} is occupied by {occ.name}; end your move in an empty hex.")
        found = shortest_path(start, goal[0], c.map.passable, blocked)
        if found is None:
            raise RuleError(f"There is no open route to {goal[0]}: other units or impassable hexes block it.")
        path = found
    else:
        raise RuleError("Say where to: `/move to:q,r`, or the exact route with `/move path:\"q,r q,r\"`.")
    if not path:
        raise RuleError("You are already there. Give another hex.")
    ok, why = path_is_legal(start, path, c.map.passable, blocked, limit,
                            occupant_name=lambda h: getattr(c.occupant(h), "name", None), impassable=c.map.impassable)
    if not ok:
        raise RuleError(f"{why} Choose a route of up to {limit} free, passable hexes.")
    occ = c.occupant(path[-1])
    if occ and occ.id != u.id:
        raise RuleError(f"Hex {path[-1]} is occupied by {occ.name}; end your move in an empty hex.")
    return path


#: ``fn(c, u, hex) -> bool``: entering ``hex`` stops the adventurer's move there
STOP: list = []
#: ``fn(c, u, start, path, stopped, left)``: the adventurer moved from ``start`` into the hexes of ``path``
#: (``stopped``: the move was cut short in the last one; ``left``: hexes of movement the move had left)
ENTERED: list = []


def cut(c: Ctx, u: Unit, path: list[Hex]) -> tuple[list[Hex], bool]:
    """The part of a route the adventurer walks before something stops the move (up to and including that hex),
    and whether it was cut short."""
    if STOP:
        for i, h in enumerate(path):
            if any(f(c, u, h) for f in STOP):
                return path[:i + 1], True
    return path, False


def entered(c: Ctx, u: Unit, start: Hex, path: list[Hex], stopped: bool, left: int) -> None:
    """What the hexes of a finished (or cut) move do to the adventurer who entered them."""
    for f in ENTERED:
        f(c, u, start, path, stopped, left)


def stepped(c: Ctx, u: Unit, path: list[Hex]) -> None:
    """After an adventurer's move (any move: a move action, free movement, an ability's or an interrupt's):
    what the hexes it moved into do to it (a die set there against it)."""
    if c.b.hex_dice:
        hexdice.moved(c, u, path)
