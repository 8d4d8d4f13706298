"""Engage campaign state: typed dataclasses that round-trip through JSON.

``SCHEMA`` is the version of this shape; ``Game.from_dict`` is tolerant (missing keys take their defaults) so a
saved game keeps loading as the shape grows.  ``RULES`` is the rules revision a new game records and plays by.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from engine.party import seats_from_dict, seats_to_dict

SCHEMA = 1
NAME = "engage"
# The rules revision (engine.rulesets.Ruleset.rules).  A change that makes an old log play differently raises it
# and is gated on ``Game.rules``; what each revision changed:
#   1: the first rules.
#   2: an engage against several targets may make room: it may end on one target's own hex at a ledge's edge or a
#      ladder's top, shuffling that target back, when that hex touches every target; /undo never takes back an
#      engage (its distance was measured), nor another player's action; a replayed log is held to the same.
RULES = 2

PHASES = ("muster", "battle", "over")
TURN_PHASES = ("upkeep", "engage", "move", "shoot", "cast", "melee")
CONDITIONS = ("stunned", "dazed", "staggered")
SIDES = ("a", "b")


def _hex(v) -> tuple[int, int] | None:
    return (int(v[0]), int(v[1])) if v else None


@dataclass
class Unit:
    """One unit on (or off) the battlefield."""

    id: str  # "a1", "b2": its side's letter and a number
    owner: str
    type: str  # unit type id in the pack
    name: str
    hex: tuple[int, int] | None = None
    damage: int = 0  # wounds taken
    out: bool = False
    # conditions: "stunned" / "dazed" -> the turn number at whose end it ends; "staggered" -> this turn's number
    conditions: dict[str, int] = field(default_factory=dict)
    # this turn (cleared in every Upkeep)
    tried: bool = False  # attempted an Engage
    strike_first: bool = False  # engaged successfully: strikes first in this turn's Melee
    jump_attack: bool = False  # a Jump Attack: its attacks have Advantage this turn
    moved: bool = False
    shot: bool = False
    cast: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "type": self.type, "name": self.name,
                "hex": list(self.hex) if self.hex else None, "damage": self.damage, "out": self.out,
                "conditions": dict(self.conditions), "tried": self.tried, "strike_first": self.strike_first,
                "jump_attack": self.jump_attack, "moved": self.moved, "shot": self.shot, "cast": self.cast}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        return cls(id=str(d["id"]), owner=str(d["owner"]), type=str(d["type"]), name=str(d.get("name") or d["id"]),
                   hex=_hex(d.get("hex")), damage=int(d.get("damage", 0)), out=bool(d.get("out")),
                   conditions={str(k): int(v) for k, v in (d.get("conditions") or {}).items() if k in CONDITIONS},
                   tried=bool(d.get("tried")), strike_first=bool(d.get("strike_first")),
                   jump_attack=bool(d.get("jump_attack")), moved=bool(d.get("moved")), shot=bool(d.get("shot")),
                   cast=bool(d.get("cast")))

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def on_field(self) -> bool:
        return not self.out and self.hex is not None


@dataclass
class Side:
    owner: str
    letter: str  # "a" or "b": unit ids and the deployment zone
    units: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "letter": self.letter, "units": list(self.units)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Side:
        return cls(owner=str(d["owner"]), letter=str(d.get("letter") or "a"),
                   units=[str(x) for x in d.get("units", [])])


@dataclass
class Turn:
    number: int = 0  # counts every player's turn from 1
    player: str = ""
    phase: str = "upkeep"
    first: bool = False  # the first player's first turn of the game (no Engage phase)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "player": self.player, "phase": self.phase, "first": self.first}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Turn:
        d = d or {}
        phase = d.get("phase") if d.get("phase") in TURN_PHASES else "upkeep"
        return cls(number=int(d.get("number", 0)), player=str(d.get("player") or ""), phase=phase,
                   first=bool(d.get("first")))


@dataclass
class Game:
    """An engage game in one channel: what the engine's ``GameState`` asks for, and the battle."""

    channel_id: str
    guild_id: str | None
    name: str
    leader: str
    members: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    dice_counter: int = 0
    forced: list[int] = field(default_factory=list)
    ended: bool = False
    ruleset: str = NAME
    pack: str = "engage"
    pack_version: str = ""
    schema: int = SCHEMA
    rules: int = RULES
    phase: str = "muster"
    sides: dict[str, Side] = field(default_factory=dict)  # by owner
    units: dict[str, Unit] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # the players in turn order (the first player first)
    turn: Turn = field(default_factory=Turn)
    pending: dict[str, Any] | None = None  # an engage waiting for the intercept answer (rules.engage)
    last: dict[str, Any] | None = None  # the latest engage, drawn on the map (rules.engage)
    trail: list[dict[str, Any]] = field(default_factory=list)  # moves, shots, spells and melee, drawn on the map
    prompts: int = 0  # counts intercept questions (their ids)
    result: dict[str, Any] = field(default_factory=dict)  # {"winner": owner or None, "reason": ...}
    unaccepted: list[str] = field(default_factory=list)  # seated by an import, not accepting yet (engine.party)
    leaving: list[str] = field(default_factory=list)  # left in a battle: they go when it is over (engine.party)

    def to_dict(self) -> dict[str, Any]:
        return {
            "channel_id": self.channel_id, "guild_id": self.guild_id, "name": self.name, "leader": self.leader,
            "members": list(self.members), "settings": copy.deepcopy(self.settings), "seed": self.seed,
            "dice_counter": self.dice_counter, "forced": list(self.forced), "ended": self.ended,
            "ruleset": self.ruleset, "pack": self.pack, "pack_version": self.pack_version, "schema": self.schema,
            "rules": self.rules, "phase": self.phase, "sides": {k: s.to_dict() for k, s in self.sides.items()},
            "units": {k: u.to_dict() for k, u in self.units.items()}, "order": list(self.order),
            "turn": self.turn.to_dict(), "pending": copy.deepcopy(self.pending), "last": copy.deepcopy(self.last),
            "trail": copy.deepcopy(self.trail), "prompts": self.prompts, "result": copy.deepcopy(self.result),
        } | seats_to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        phase = d.get("phase") if d.get("phase") in PHASES else "muster"
        return cls(
            channel_id=str(d["channel_id"]), guild_id=str(d["guild_id"]) if d.get("guild_id") else None,
            name=str(d.get("name") or "Engage"), leader=str(d["leader"]),
            members=[str(m) for m in d.get("members", [])], settings=dict(d.get("settings") or {}),
            seed=int(d.get("seed", 0)), dice_counter=int(d.get("dice_counter", 0)),
            forced=[int(v) for v in d.get("forced", [])], ended=bool(d.get("ended")), ruleset=NAME,
            pack=str(d.get("pack") or "engage"), pack_version=str(d.get("pack_version") or ""), schema=SCHEMA,
            rules=int(d.get("rules") or RULES), phase=phase,
            sides={str(k): Side.from_dict(s) for k, s in (d.get("sides") or {}).items()},
            units={str(k): Unit.from_dict(u) for k, u in (d.get("units") or {}).items()},
            order=[str(x) for x in d.get("order", [])], turn=Turn.from_dict(d.get("turn")),
            pending=copy.deepcopy(d.get("pending")) or None, last=copy.deepcopy(d.get("last")) or None,
            trail=list(d.get("trail") or []), prompts=int(d.get("prompts", 0)), result=dict(d.get("result") or {}),
            **seats_from_dict(d),
        )

    def clone(self) -> Game:
        return Game.from_dict(copy.deepcopy(self.to_dict()))

    # ------------------------------------------------------------ helpers --
    def owners(self) -> list[str]:
        """The two sides' players in a fixed order (side a first)."""
        return sorted(self.sides, key=lambda o: self.sides[o].letter)

    def units_of(self, owner: str) -> list[Unit]:
        side = self.sides.get(owner)
        return [self.units[u] for u in side.units if u in self.units] if side else []

    def standing(self, owner: str) -> list[Unit]:
        return [u for u in self.units_of(owner) if u.on_field]

    def opponent(self, owner: str) -> str | None:
        return next((o for o in self.sides if o != owner), None)

    def at(self, q: int, r: int) -> Unit | None:
        for u in self.units.values():
            if u.on_field and u.hex == (q, r):
                return u
        return None
