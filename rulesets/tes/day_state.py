"""The session's typed records (``Campaign.days``): province, decks, bags, dials, party token, phase, what waits.

Plain dataclasses with ``to_dict`` / ``from_dict`` like the rest of the campaign state.  A campaign saved
before sessions existed has ``days = None`` and plays battles as before.  The rules live above (the
packages ``overland``, ``cards``, ``town``, ``reward`` and ``day``); this module only holds what they keep.

Decks are kept as a pool of cards drawn at random (a shuffled deck's top card is any of its cards, so a
draw is one recorded die roll: forced dice and ``Session.stacked`` cards replay exactly) plus the cards
cycled to the bottom, which come out in order once the pool is empty.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PHASES = ("setup", "new-day", "overland", "encounter", "reward", "end-of-day", "over")
PHASE_NAMES = {"setup": "Set-up", "new-day": "New Day", "overland": "Overland", "encounter": "Encounter",
               "reward": "Reward", "end-of-day": "End of Day", "over": "Session over"}
DAY_LIMIT = 12  # no quest extends beyond 12 days (p.34, p.46)


def _hex(v: Any) -> list[int] | None:
    return [int(v[0]), int(v[1])] if isinstance(v, (list, tuple)) and len(v) == 2 else None


@dataclass
class Deck:
    pool: list[str] = field(default_factory=list)  # drawn at random
    bottom: list[str] = field(default_factory=list)  # cycled to the bottom: drawn in order once the pool is empty
    discard: list[str] = field(default_factory=list)

    def size(self) -> int:
        return len(self.pool) + len(self.bottom)

    def to_dict(self) -> dict[str, Any]:
        return {"pool": list(self.pool), "bottom": list(self.bottom), "discard": list(self.discard)}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Deck":
        d = d or {}
        return cls([str(x) for x in d.get("pool") or []], [str(x) for x in d.get("bottom") or []],
                   [str(x) for x in d.get("discard") or []])


@dataclass
class Token:
    """An overland token: an NPC or an objective (p.35)."""

    id: str
    kind: str  # npc | objective
    name: str
    q: int
    r: int
    path: list[list[int]] = field(default_factory=list)  # its last move, drawn on the map

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "name": self.name, "q": self.q, "r": self.r,
                "path": [list(p) for p in self.path]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Token":
        return cls(str(d["id"]), str(d.get("kind") or "npc"), str(d.get("name") or d["id"]), int(d["q"]),
                   int(d["r"]), [_hex(p) for p in d.get("path") or [] if _hex(p)])


@dataclass
class Ask:
    """What the day waits for: one prompt (engine.prompts) with the players who may answer it.

    ``kind``: route (the leader proposes), vote (the others agree or object), card (the leader picks a choice),
    chosen (the leader picks an adventurer), either (each adventurer picks an option), check-dice and
    check-tenacity (a social check), town-effect (the leader picks), town (town actions), reward (XP),
    rest (the Adventurers Rest).  ``owners``: who still has to answer, in turn order.  ``serial`` numbers
    the asks of a session, so a click on an older one is refused.
    """

    kind: str
    owners: list[str]
    serial: int
    deadline: float | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "owners": list(self.owners), "serial": self.serial, "deadline": self.deadline,
                "data": _plain(self.data)}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Ask | None":
        if not d:
            return None
        return cls(str(d["kind"]), [str(o) for o in d.get("owners") or []], int(d.get("serial") or 0),
                   d.get("deadline"), dict(d.get("data") or {}))


@dataclass
class Proposal:
    """The leader's route for the day: it stands at the deadline unless a player objects."""

    path: list[list[int]]
    agreed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"path": [list(p) for p in self.path], "agreed": list(self.agreed)}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Proposal | None":
        if not d:
            return None
        return cls([_hex(p) for p in d.get("path") or [] if _hex(p)], [str(x) for x in d.get("agreed") or []])


@dataclass
class Check:
    """A social check under way (p.42): dice rolled by whom, tenacity spent by whom, the result."""

    difficulty: int
    lines: list[str]
    rolls: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # owner -> [{die, name, face, value}]
    spent: dict[str, int] = field(default_factory=dict)
    total: int = 0
    result: str = ""  # "" while under way | success | failure

    def to_dict(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "lines": list(self.lines), "rolls": _plain(self.rolls),
                "spent": dict(self.spent), "total": self.total, "result": self.result}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Check | None":
        if not d:
            return None
        return cls(int(d["difficulty"]), [str(x) for x in d.get("lines") or []],
                   {str(k): list(v) for k, v in (d.get("rolls") or {}).items()},
                   {str(k): int(v) for k, v in (d.get("spent") or {}).items()}, int(d.get("total") or 0),
                   str(d.get("result") or ""))


@dataclass
class Encounter:
    """What the Overland Phase triggered and how the Encounter Phase resolves it."""

    kind: str  # town | caravan | card | quest | none
    hex: list[int]
    landmark: str = ""  # peaceful | conflict | unstable (the hex's landmark)
    card: str | None = None
    deck: str | None = None  # peaceful | conflict
    unstable_face: str = ""  # what the unstable die rolled: peaceful | conflict | caravan
    town: str | None = None
    choice: int | None = None  # the card choice taken (1-based)
    tried: list[int] = field(default_factory=list)  # gated choices whose social check failed
    check: Check | None = None
    battle: int | None = None  # the battle number a clash choice started
    result: str = ""  # "" while under way | success | failed
    chosen: dict[str, str] = field(default_factory=dict)  # effect key -> owner the party chose
    picks: dict[str, int] = field(default_factory=dict)  # owner -> option picked for a "choose" effect
    xp: int = 0
    defeated: bool = False  # the whole party was defeated

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "hex": list(self.hex), "landmark": self.landmark, "card": self.card,
                "deck": self.deck, "unstable_face": self.unstable_face, "town": self.town, "choice": self.choice,
                "tried": list(self.tried), "check": self.check.to_dict() if self.check else None,
                "battle": self.battle, "result": self.result, "chosen": dict(self.chosen),
                "picks": dict(self.picks), "xp": self.xp, "defeated": self.defeated}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Encounter | None":
        if not d:
            return None
        return cls(str(d["kind"]), _hex(d.get("hex")) or [0, 0], str(d.get("landmark") or ""), d.get("card"),
                   d.get("deck"), str(d.get("unstable_face") or ""), d.get("town"), d.get("choice"),
                   [int(x) for x in d.get("tried") or []], Check.from_dict(d.get("check")), d.get("battle"),
                   str(d.get("result") or ""), {str(k): str(v) for k, v in (d.get("chosen") or {}).items()},
                   {str(k): int(v) for k, v in (d.get("picks") or {}).items()}, int(d.get("xp") or 0),
                   bool(d.get("defeated")))


@dataclass
class TownVisit:
    """A town encounter under way: the revealed shop and trainer, each adventurer's actions left."""

    town: str
    caravan: bool = False
    shop: list[str] = field(default_factory=list)  # item ids face up
    trainer: list[str] = field(default_factory=list)  # skill line tokens face up
    actions: dict[str, int] = field(default_factory=dict)  # owner -> town actions left
    square: list[str] = field(default_factory=list)  # owners who used the town square
    group: list[str] = field(default_factory=list)  # owners who put an action into the group square
    done: list[str] = field(default_factory=list)  # owners who ended their town actions
    effect_done: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"town": self.town, "caravan": self.caravan, "shop": list(self.shop), "trainer": list(self.trainer),
                "actions": dict(self.actions), "square": list(self.square), "group": list(self.group),
                "done": list(self.done), "effect_done": self.effect_done}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "TownVisit | None":
        if not d:
            return None
        return cls(str(d["town"]), bool(d.get("caravan")), [str(x) for x in d.get("shop") or []],
                   [str(x) for x in d.get("trainer") or []],
                   {str(k): int(v) for k, v in (d.get("actions") or {}).items()},
                   [str(x) for x in d.get("square") or []], [str(x) for x in d.get("group") or []],
                   [str(x) for x in d.get("done") or []], bool(d.get("effect_done")))


@dataclass
class Session:
    """A session of days in one province (setup p.12-14; the day p.34-46)."""

    province: str
    code: str
    phase: str = "new-day"
    step: str = ""  # where the phase is ("" at its start; each phase names its own steps)
    party: list[int] = field(default_factory=lambda: [0, 0])  # the party token's hex
    route: list[list[int]] = field(default_factory=list)  # the route travelled today, from where it started
    decks: dict[str, Deck] = field(default_factory=dict)  # peaceful, conflict, delve, side-quest
    trainer_bag: list[str] = field(default_factory=list)  # skill line tokens (a line id per token)
    gauge: str = ""  # the province gauge's position ("" until day 1 places it)
    tokens: list[Token] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)  # closed towns
    once: list[str] = field(default_factory=list)  # once-per-session effects already used (town ids)
    extra_move: int = 0  # extra hexes the party may move on the next day (a card gave them)
    move_today: int = 0  # extra hexes for today (yesterday's extra_move)
    skip_rest: bool = False
    effect_card: str | None = None  # the peaceful card whose icons the End of Day reads
    effect_drawn: bool = False  # that card was drawn for the province effect (it is cycled, not discarded)
    encounter: Encounter | None = None
    town: TownVisit | None = None
    ask: Ask | None = None
    proposal: Proposal | None = None
    rested: list[str] = field(default_factory=list)  # owners who took the Adventurers Rest today
    rewarded: list[str] = field(default_factory=list)  # owners done with the Reward Phase today
    stacked: list[str] = field(default_factory=list)  # cards to come out next from their decks (tests, scripts)
    serial: int = 0
    log: list[str] = field(default_factory=list)  # the latest lines, for the overland picture
    result: str = ""  # why the session ended ("" while it runs)
    # what the class promotion checks count over the session (rules revision 3; rulesets.tes.battle.promotion):
    # "lockpicks": {player: lockpick checks succeeded}; saved only once something is counted
    promotion: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"province": self.province, "code": self.code, "phase": self.phase, "step": self.step,
                "party": list(self.party),
                "route": [list(p) for p in self.route], "decks": {k: v.to_dict() for k, v in self.decks.items()},
                "trainer_bag": list(self.trainer_bag), "gauge": self.gauge,
                "tokens": [t.to_dict() for t in self.tokens], "closed": list(self.closed), "once": list(self.once),
                "extra_move": self.extra_move, "move_today": self.move_today, "skip_rest": self.skip_rest,
                "effect_card": self.effect_card, "effect_drawn": self.effect_drawn,
                "encounter": self.encounter.to_dict() if self.encounter else None,
                "town": self.town.to_dict() if self.town else None,
                "ask": self.ask.to_dict() if self.ask else None,
                "proposal": self.proposal.to_dict() if self.proposal else None,
                "rested": list(self.rested), "rewarded": list(self.rewarded), "stacked": list(self.stacked),
                "serial": self.serial, "log": list(self.log), "result": self.result,
                **({"promotion": _plain(self.promotion)} if self.promotion else {})}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Session | None":
        if not d:
            return None
        return cls(
            province=str(d["province"]), code=str(d.get("code") or ""), phase=str(d.get("phase") or "new-day"),
            step=str(d.get("step") or ""),
            party=_hex(d.get("party")) or [0, 0], route=[_hex(p) for p in d.get("route") or [] if _hex(p)],
            decks={str(k): Deck.from_dict(v) for k, v in (d.get("decks") or {}).items()},
            trainer_bag=[str(x) for x in d.get("trainer_bag") or []], gauge=str(d.get("gauge") or ""),
            tokens=[Token.from_dict(t) for t in d.get("tokens") or []],
            closed=[str(x) for x in d.get("closed") or []], once=[str(x) for x in d.get("once") or []],
            extra_move=int(d.get("extra_move") or 0), move_today=int(d.get("move_today") or 0),
            skip_rest=bool(d.get("skip_rest")), effect_card=d.get("effect_card"),
            effect_drawn=bool(d.get("effect_drawn")), encounter=Encounter.from_dict(d.get("encounter")),
            town=TownVisit.from_dict(d.get("town")), ask=Ask.from_dict(d.get("ask")),
            proposal=Proposal.from_dict(d.get("proposal")), rested=[str(x) for x in d.get("rested") or []],
            rewarded=[str(x) for x in d.get("rewarded") or []], stacked=[str(x) for x in d.get("stacked") or []],
            serial=int(d.get("serial") or 0), log=[str(x) for x in d.get("log") or []],
            result=str(d.get("result") or ""), promotion=_plain(d.get("promotion") or {}))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


__all__ = ["Ask", "Check", "DAY_LIMIT", "Deck", "Encounter", "PHASES", "PHASE_NAMES", "Proposal", "Session",
           "Token", "TownVisit"]
