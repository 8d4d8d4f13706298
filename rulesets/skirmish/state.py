"""Skirmish campaign state: typed dataclasses that round-trip through JSON.

``SCHEMA`` is the version of this shape; ``Skirmish.from_dict`` is tolerant
(missing keys take their defaults) so a saved skirmish keeps loading as the
shape grows.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from engine.party import seats_from_dict, seats_to_dict

SCHEMA = 1

#: The rules revision a new skirmish plays by (``Skirmish.rules``).  A skirmish keeps the revision it began on, so
#: its log replays exactly.
#: 1: every skirmish before revisions were recorded (saved without one).
#: 2: a channelled ability die pays only for a magical ability (the pack's ``magical = true``); before, for any.
#:    The skirmish keeps its members' display names (``names``, from the actions, like a tes campaign), so its
#:    posts and pictures name the players after a restart.
#:    A fighter named in a command is its id first (a1), else its name, else the hex it stands on, and a fighter's
#:    own name may not read like a fighter id or a hex, nor repeat another fighter's name.
#: 3: /undo takes back only the undoing player's own action (the party leader's too); a replayed log is held to
#:    the same.
RULES = 3
NAME = "skirmish"
BOT = "bot"  # the player id of the bot's warband (never pinged, acts by itself)

PHASES = ("muster", "battle", "over")


def rules_revision(value: Any) -> int:
    """The rules revision a saved skirmish or an action names (none or a broken one: 1, the first)."""
    try:
        n = int(value or 1)
    except (TypeError, ValueError):
        return 1
    return max(1, min(RULES, n))


@dataclass
class Fighter:
    """One fighter of a warband on (or off) the map."""

    id: str  # "a1", "b2": the warband's letter and a number
    owner: str
    type: str  # fighter type id in the pack
    name: str
    hex: tuple[int, int] | None = None  # (q, r) once deployed; None when not deployed or out of action
    damage: int = 0
    out: bool = False  # taken out of action
    activated: bool = False  # has activated this battle round (a waiting fighter: its first activation)
    waiting: bool = False  # waited as its first action: activates once more this combat phase

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "type": self.type, "name": self.name,
                "hex": list(self.hex) if self.hex else None, "damage": self.damage, "out": self.out,
                "activated": self.activated, "waiting": self.waiting}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Fighter:
        h = d.get("hex")
        return cls(id=str(d["id"]), owner=str(d["owner"]), type=str(d["type"]), name=str(d.get("name") or d["id"]),
                   hex=(int(h[0]), int(h[1])) if h else None, damage=int(d.get("damage", 0)),
                   out=bool(d.get("out")), activated=bool(d.get("activated")), waiting=bool(d.get("waiting")))

    @property
    def ready(self) -> bool:
        """May still activate this combat phase (for the first time, or again after waiting)."""
        return not self.out and self.hex is not None and (not self.activated or self.waiting)


@dataclass
class Warband:
    owner: str  # player id (BOT for the bot's warband)
    faction: str
    name: str
    side: int  # deployment zone: 0 west, 1 east, 2 north, 3 south
    letter: str  # fighter ids start with it
    fighters: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "faction": self.faction, "name": self.name, "side": self.side,
                "letter": self.letter, "fighters": list(self.fighters)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Warband:
        return cls(owner=str(d["owner"]), faction=str(d["faction"]), name=str(d.get("name") or d["faction"]),
                   side=int(d.get("side", 0)), letter=str(d.get("letter") or "a"),
                   fighters=[str(x) for x in d.get("fighters", [])])


@dataclass
class AbilityDie:
    """A double, triple or quad; ``value`` is its shared face.

    A channelled die belongs to the Wizard whose activation channelled it
    (``wizard``) and is discarded when that activation ends.
    """

    kind: str  # "double" | "triple" | "quad"
    value: int
    channelled: bool = False
    wizard: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": self.value, "channelled": self.channelled, "wizard": self.wizard}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> AbilityDie:
        return cls(kind=str(d["kind"]), value=int(d["value"]), channelled=bool(d.get("channelled")),
                   wizard=d.get("wizard"))


@dataclass
class Activation:
    fighter: str
    player: str
    actions_left: int = 2
    ability_used: bool = False
    second: bool = False  # the second activation of a waiting fighter
    actions_done: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"fighter": self.fighter, "player": self.player, "actions_left": self.actions_left,
                "ability_used": self.ability_used, "second": self.second, "actions_done": self.actions_done}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Activation | None:
        if not d:
            return None
        return cls(fighter=str(d["fighter"]), player=str(d["player"]), actions_left=int(d.get("actions_left", 2)),
                   ability_used=bool(d.get("ability_used")), second=bool(d.get("second")),
                   actions_done=int(d.get("actions_done", 0)))


@dataclass
class Fight:
    """The battle in progress: round, initiative order, ability dice, the open activation."""

    round: int = 1
    order: list[str] = field(default_factory=list)  # players in initiative order this round
    turn: str = ""  # the player who activates next (or is activating)
    dice: dict[str, list[AbilityDie]] = field(default_factory=dict)
    rolls: dict[str, list[int]] = field(default_factory=dict)  # this round's initiative rolls, for the picture
    active: Activation | None = None
    trail: list[dict[str, Any]] = field(default_factory=list)  # the last moves/attacks, drawn on the map
    activations: int = 0  # counts every activation started (the reminder key)

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "order": list(self.order), "turn": self.turn,
                "dice": {p: [d.to_dict() for d in ds] for p, ds in self.dice.items()},
                "rolls": {p: list(r) for p, r in self.rolls.items()},
                "active": self.active.to_dict() if self.active else None,
                "trail": copy.deepcopy(self.trail), "activations": self.activations}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Fight | None:
        if not d:
            return None
        return cls(round=int(d.get("round", 1)), order=[str(x) for x in d.get("order", [])],
                   turn=str(d.get("turn") or ""),
                   dice={str(p): [AbilityDie.from_dict(x) for x in ds] for p, ds in (d.get("dice") or {}).items()},
                   rolls={str(p): [int(v) for v in r] for p, r in (d.get("rolls") or {}).items()},
                   active=Activation.from_dict(d.get("active")), trail=list(d.get("trail") or []),
                   activations=int(d.get("activations", 0)))


@dataclass
class Skirmish:
    """A skirmish campaign in one channel (what the engine's ``GameState`` asks for, and the battle)."""

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
    pack: str = "skirmish"
    pack_version: str = ""
    schema: int = SCHEMA
    phase: str = "muster"
    warbands: dict[str, Warband] = field(default_factory=dict)  # by owner, in the order they mustered
    fighters: dict[str, Fighter] = field(default_factory=dict)
    fight: Fight | None = None
    result: dict[str, Any] = field(default_factory=dict)  # {"winner": owner or None, "reason": ...}
    rules: int = 1  # the rules revision it plays by (RULES when it began; 1 before revisions were recorded)
    # member id -> display name, refreshed when they act (engine.actions.keep_names); None before revision 2
    names: dict[str, str] | None = None
    unaccepted: list[str] = field(default_factory=list)  # seated by an import, not accepting yet (engine.party)
    leaving: list[str] = field(default_factory=list)  # left in a battle: they go when it is over (engine.party)

    def to_dict(self) -> dict[str, Any]:
        return {
            "channel_id": self.channel_id, "guild_id": self.guild_id, "name": self.name, "leader": self.leader,
            "members": list(self.members), "settings": copy.deepcopy(self.settings), "seed": self.seed,
            "dice_counter": self.dice_counter, "forced": list(self.forced), "ended": self.ended,
            "ruleset": self.ruleset, "pack": self.pack, "pack_version": self.pack_version, "schema": self.schema,
            "phase": self.phase, "warbands": {k: w.to_dict() for k, w in self.warbands.items()},
            "fighters": {k: f.to_dict() for k, f in self.fighters.items()},
            "fight": self.fight.to_dict() if self.fight else None, "result": copy.deepcopy(self.result),
        } | ({"rules": self.rules, "names": dict(self.names or {})} if self.rules >= 2 else {}) | seats_to_dict(
            self)  # as revision 1 wrote it (and without seats when nobody's seat waits)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Skirmish:
        phase = d.get("phase") if d.get("phase") in PHASES else "muster"
        rules = rules_revision(d.get("rules"))
        raw = d.get("names") if isinstance(d.get("names"), dict) else {}
        names = {str(k): v[:32] for k, v in raw.items() if isinstance(v, str)}
        return cls(
            channel_id=str(d["channel_id"]), guild_id=str(d["guild_id"]) if d.get("guild_id") else None,
            name=str(d.get("name") or "Skirmish"), leader=str(d["leader"]),
            members=[str(m) for m in d.get("members", [])], settings=dict(d.get("settings") or {}),
            seed=int(d.get("seed", 0)), dice_counter=int(d.get("dice_counter", 0)),
            forced=[int(v) for v in d.get("forced", [])], ended=bool(d.get("ended")), ruleset=NAME,
            pack=str(d.get("pack") or "skirmish"), pack_version=str(d.get("pack_version") or ""), schema=SCHEMA,
            phase=phase, warbands={str(k): Warband.from_dict(w) for k, w in (d.get("warbands") or {}).items()},
            fighters={str(k): Fighter.from_dict(f) for k, f in (d.get("fighters") or {}).items()},
            fight=Fight.from_dict(d.get("fight")), result=dict(d.get("result") or {}),
            rules=rules, names=names if rules >= 2 else None, **seats_from_dict(d),
        )

    def clone(self) -> Skirmish:
        """A copy laid out exactly as the store gives a state back (keys sorted, as it writes them): so a
        replayed log meets every mapping in the order play met it, and rebuilds the same campaign."""
        return Skirmish.from_dict(json.loads(json.dumps(self.to_dict(), sort_keys=True)))

    # ------------------------------------------------------------ helpers --
    def owners(self) -> list[str]:
        """The warbands' owners in a fixed order (by deployment zone; saved dicts do not keep order)."""
        return sorted(self.warbands, key=lambda o: self.warbands[o].side)

    def warband_of(self, owner: str) -> Warband | None:
        return self.warbands.get(owner)

    def fighters_of(self, owner: str) -> list[Fighter]:
        wb = self.warbands.get(owner)
        return [self.fighters[f] for f in wb.fighters if f in self.fighters] if wb else []

    def standing(self, owner: str) -> list[Fighter]:
        """The fighters of ``owner`` still on the battlefield."""
        return [f for f in self.fighters_of(owner) if not f.out and f.hex is not None]

    def at(self, q: int, r: int) -> Fighter | None:
        for f in self.fighters.values():
            if not f.out and f.hex == (q, r):
                return f
        return None
