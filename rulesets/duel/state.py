"""Duel campaign state: typed dataclasses that round-trip through JSON.

A duel campaign holds the party's characters (made from the content pack) and at most one fight at a time.
``SCHEMA`` is the version of this shape; ``Duel.from_dict`` is tolerant (missing keys take their defaults),
so a saved duel keeps loading as the shape grows.  ``RULES`` is the duel's rules revision (see
docs/rules-notes.md, "Duel"): a campaign records the one it began on and keeps playing by it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from engine.party import seats_from_dict, seats_to_dict

SCHEMA = 1
NAME = "duel"
# The duel's rules revision.  A change to how an existing action behaves is gated on it, so an old log
# replays exactly as it played.
#   1: the first duel rules.
#   2: an attack that deals no damage gets no Accuracy and is no damaging action; characters stand in zones and
#      only those in the fight's zone are asked to join; a player may run the monster and roll its dice; /undo
#      never takes back a placing that revealed the cards, nor another player's action (a replayed log too).
RULES = 2

AILMENTS = ("burn", "dazzle", "slow", "weak")
STEPS = ("join", "place", "reveal", "resolve", "over")
KINDS = ("monster", "rivals")


def _ints(d: Any) -> dict[str, int]:
    return {str(k): int(v) for k, v in (d or {}).items()}


def _strs(xs: Any) -> list[str]:
    return [str(x) for x in (xs or [])]


@dataclass
class Character:
    """A player's character, made from a hero of the pack (its numbers are copied, so it keeps them)."""

    owner: str
    name: str
    hero: str
    skills: dict[str, int]
    grit: int  # full Grit: every fight begins with it
    fame: int
    base: dict[str, Any]  # the base attack: skill, defense, damage
    cards: list[str] = field(default_factory=list)  # obtained cards (ids)
    gear: list[str] = field(default_factory=list)  # worn gear owned (ids)
    fights: int = 0
    zone: str = ""  # where it stands (rules revision 2; "" = the pack's first zone)

    def to_dict(self) -> dict[str, Any]:
        out = {"owner": self.owner, "name": self.name, "hero": self.hero, "skills": dict(self.skills),
               "grit": self.grit, "fame": self.fame, "base": dict(self.base), "cards": list(self.cards),
               "gear": list(self.gear), "fights": self.fights}
        if self.zone:
            out["zone"] = self.zone
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Character:
        return cls(owner=str(d["owner"]), name=str(d.get("name") or "?"), hero=str(d.get("hero") or ""),
                   skills=_ints(d.get("skills")), grit=int(d.get("grit", 1)), fame=int(d.get("fame", 0)),
                   base=dict(d.get("base") or {}), cards=_strs(d.get("cards")), gear=_strs(d.get("gear")),
                   fights=int(d.get("fights", 0)), zone=str(d.get("zone") or ""))


@dataclass
class Effect:
    """An ongoing effect on a fighter: it lasts ``rounds`` more round ends (None: the whole fight)."""

    kind: str  # block | bonus | accuracy | damage | priority
    amount: int
    rounds: int | None
    label: str  # what made it (a card's or an action's name)
    caster: str = ""  # the fighter whose card it came from
    uid: int = 0  # that card (0: no card, e.g. worn gear or a monster's action)
    versus: list[str] = field(default_factory=list)  # attack types it applies to ([] = every type)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "rounds": self.rounds, "label": self.label,
                "caster": self.caster, "uid": self.uid, "versus": list(self.versus)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Effect:
        rounds = d.get("rounds")
        return cls(kind=str(d["kind"]), amount=int(d.get("amount", 0)), rounds=None if rounds is None else int(rounds),
                   label=str(d.get("label") or ""), caster=str(d.get("caster") or ""), uid=int(d.get("uid", 0)),
                   versus=_strs(d.get("versus")))


@dataclass
class Placed:
    """A card a player placed: face-down until revealed, then on the track, face-up or discarded."""

    uid: int
    card: str
    target: str = ""  # the enemy an attack aims at ("" = the only one)
    ally: str = ""  # who an ally effect helps ("" = the player's own character)
    declare: str = ""  # a Base Attack: "attack", "token", or "" (asked when it is revealed)
    shown: bool = False  # turned face-up (waiting for its Base Attack's declaration)

    def to_dict(self) -> dict[str, Any]:
        return {"uid": self.uid, "card": self.card, "target": self.target, "ally": self.ally, "declare": self.declare,
                "shown": self.shown}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Placed:
        return cls(uid=int(d["uid"]), card=str(d["card"]), target=str(d.get("target") or ""),
                   ally=str(d.get("ally") or ""), declare=str(d.get("declare") or ""), shown=bool(d.get("shown")))


@dataclass
class Fighter:
    """One participant of a fight: a character (``c:<player>``) or the monster (``m:<monster id>``)."""

    id: str
    kind: str  # character | monster
    owner: str  # the player ("" for a monster)
    ref: str  # hero or monster id in the pack
    name: str
    side: int
    grit: int
    max_grit: int
    skills: dict[str, int]
    rank: int = 0  # a monster's Rank (its Fame)
    base: dict[str, Any] = field(default_factory=dict)
    gear: str = ""  # the worn gear that applies in this fight
    hand: list[str] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)  # face-down
    discard: list[str] = field(default_factory=list)
    out: list[Placed] = field(default_factory=list)  # face-up beside the character while their effect lasts
    effects: list[Effect] = field(default_factory=list)
    ailments: dict[str, int] = field(default_factory=dict)
    recalled: bool = False
    damaging: int = 0  # actions dealing damage it used this round
    focus: bool = False  # a Focus acted this round

    @property
    def monster(self) -> bool:
        return self.kind == "monster"

    @property
    def standing(self) -> bool:
        return not self.recalled and self.grit >= 1

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "owner": self.owner, "ref": self.ref, "name": self.name,
                "side": self.side, "grit": self.grit, "max_grit": self.max_grit, "skills": dict(self.skills),
                "rank": self.rank, "base": dict(self.base), "gear": self.gear, "hand": list(self.hand),
                "placed": [p.to_dict() for p in self.placed], "discard": list(self.discard),
                "out": [p.to_dict() for p in self.out], "effects": [e.to_dict() for e in self.effects],
                "ailments": dict(self.ailments), "recalled": self.recalled, "damaging": self.damaging,
                "focus": self.focus}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Fighter:
        return cls(id=str(d["id"]), kind=str(d.get("kind") or "character"), owner=str(d.get("owner") or ""),
                   ref=str(d.get("ref") or ""), name=str(d.get("name") or "?"), side=int(d.get("side", 0)),
                   grit=int(d.get("grit", 0)), max_grit=int(d.get("max_grit", 1)), skills=_ints(d.get("skills")),
                   rank=int(d.get("rank", 0)), base=dict(d.get("base") or {}), gear=str(d.get("gear") or ""),
                   hand=_strs(d.get("hand")), placed=[Placed.from_dict(p) for p in d.get("placed") or []],
                   discard=_strs(d.get("discard")), out=[Placed.from_dict(p) for p in d.get("out") or []],
                   effects=[Effect.from_dict(e) for e in d.get("effects") or []],
                   ailments={k: int(v) for k, v in (d.get("ailments") or {}).items() if k in AILMENTS},
                   recalled=bool(d.get("recalled")), damaging=int(d.get("damaging", 0)), focus=bool(d.get("focus")))


@dataclass
class Token:
    """An action on the Priority track."""

    seq: int  # the order it was placed in (ties of one fighter keep it)
    fighter: str
    priority: int
    label: str  # the card's or the monster action's name
    uid: int = 0  # the card (0: a monster's action)
    card: str = ""
    action: int = -1  # a monster's action: its index in the procedure
    target: str = ""
    ally: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "fighter": self.fighter, "priority": self.priority, "label": self.label,
                "uid": self.uid, "card": self.card, "action": self.action, "target": self.target, "ally": self.ally}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Token | None:
        if not d:
            return None
        return cls(seq=int(d.get("seq", 0)), fighter=str(d["fighter"]), priority=int(d.get("priority", 0)),
                   label=str(d.get("label") or ""), uid=int(d.get("uid", 0)), card=str(d.get("card") or ""),
                   action=int(d.get("action", -1)), target=str(d.get("target") or ""), ally=str(d.get("ally") or ""))


@dataclass
class Roll:
    """A roll of a fighter's dice pool (or a plain die for the monster's procedure).

    ``dice`` are the faces now; ``rerolled[i]`` marks a die rolled again (never again after that) and
    ``was[i]`` its face before.  ``mods`` are the bonuses and penalties, each (why, amount): every one applies
    to each die, and the dice are never added together.
    """

    by: str
    purpose: str  # attack | spell | rolloff | procedure
    label: str
    skill: str = ""
    dice: list[int] = field(default_factory=list)
    rerolled: list[bool] = field(default_factory=list)
    was: list[int] = field(default_factory=list)  # 0 = not rerolled
    mods: list[list[Any]] = field(default_factory=list)
    need: int = 0  # the defense or the 6 a spell needs (0: none)
    threshold: int = 0  # Accuracy's threshold (0: not an attack)
    result: str = ""  # what it did, in words

    @property
    def mod(self) -> int:
        return sum(int(m[1]) for m in self.mods)

    @property
    def values(self) -> list[int]:
        """Each die as treated: its face with every bonus and penalty."""
        return [v + self.mod for v in self.dice]

    def to_dict(self) -> dict[str, Any]:
        return {"by": self.by, "purpose": self.purpose, "label": self.label, "skill": self.skill,
                "dice": list(self.dice), "rerolled": list(self.rerolled), "was": list(self.was),
                "mods": [list(m) for m in self.mods], "need": self.need, "threshold": self.threshold,
                "result": self.result}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Roll | None:
        if not d:
            return None
        dice = [int(v) for v in d.get("dice") or []]
        return cls(by=str(d.get("by") or ""), purpose=str(d.get("purpose") or ""), label=str(d.get("label") or ""),
                   skill=str(d.get("skill") or ""), dice=dice,
                   rerolled=[bool(v) for v in d.get("rerolled") or [False] * len(dice)],
                   was=[int(v) for v in d.get("was") or [0] * len(dice)],
                   mods=[[str(m[0]), int(m[1])] for m in d.get("mods") or []], need=int(d.get("need", 0)),
                   threshold=int(d.get("threshold", 0)), result=str(d.get("result") or ""))


@dataclass
class Chain:
    """Fame rerolls after a roll: who is asked now (``order[at]``), and how many passed in a row."""

    order: list[str]  # the characters (fighter ids) in turn order after the roller, the roller last
    at: int = 0
    passes: int = 0
    deadline: float | None = None
    ask: int = 0  # the question's number (its prompt id)
    spent: bool = False  # someone spent Fame in this chain (the Priority token is settled when it ends)

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), "at": self.at, "passes": self.passes, "deadline": self.deadline,
                "ask": self.ask, "spent": self.spent}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Chain | None:
        if not d:
            return None
        return cls(order=_strs(d.get("order")), at=int(d.get("at", 0)), passes=int(d.get("passes", 0)),
                   deadline=d.get("deadline"), ask=int(d.get("ask", 0)), spent=bool(d.get("spent")))


@dataclass
class Question:
    """A question waiting for one player outside a reroll chain: joining the fight, placing cards, or
    declaring a revealed Base Attack."""

    kind: str  # join | place | declare | monster
    owner: str  # the player who answers
    ask: int  # its number (its prompt id)
    deadline: float | None = None
    uid: int = 0  # declare: the Base Attack card
    what: str = ""  # monster: the roll its runner makes ("procedure" or "attack")

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "owner": self.owner, "ask": self.ask, "deadline": self.deadline, "uid": self.uid}
        if self.what:
            out["what"] = self.what
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Question | None:
        if not d:
            return None
        return cls(kind=str(d["kind"]), owner=str(d["owner"]), ask=int(d.get("ask", 0)), deadline=d.get("deadline"),
                   uid=int(d.get("uid", 0)), what=str(d.get("what") or ""))


@dataclass
class Fight:
    """The fight in progress (or the last one, once over)."""

    no: int
    kind: str  # monster | rivals
    step: str = "join"
    round: int = 0
    starter: str = ""  # the player who began it
    rival: str = ""  # rivals: the player challenged
    monster: str = ""  # monster: its id in the bestiary
    fighters: dict[str, Fighter] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # the seats (turn order from the token's holder)
    token: str = ""  # who holds the Priority token
    queue: list[str] = field(default_factory=list)  # who joins / places / reveals, in order
    at: int = 0
    question: Question | None = None
    track: list[Token] = field(default_factory=list)
    done: list[dict[str, Any]] = field(default_factory=list)  # this round's resolved actions (for the picture)
    current: Token | None = None  # the action waiting for its roll's Fame rerolls
    roll: Roll | None = None  # the last roll
    chain: Chain | None = None
    lure: str = ""  # who lured this round
    uid: int = 0
    seq: int = 0
    asks: int = 0
    frames: list[dict[str, Any]] = field(default_factory=list)  # the moments the last action's post pictures
    winner: int = -1  # the side that won (-1: not over)
    result: str = ""
    zone: str = ""  # where it is fought (rules revision 2; "" = everyone's one place)
    runner: str = ""  # the player who runs the monster and rolls its dice (rules revision 2; "" = the bot)

    def to_dict(self) -> dict[str, Any]:
        return {"no": self.no, "kind": self.kind, "step": self.step, "round": self.round, "starter": self.starter,
                "rival": self.rival, "monster": self.monster,
                "fighters": {k: f.to_dict() for k, f in self.fighters.items()}, "order": list(self.order),
                "token": self.token, "queue": list(self.queue), "at": self.at,
                "question": self.question.to_dict() if self.question else None,
                "track": [t.to_dict() for t in self.track], "done": copy.deepcopy(self.done),
                "current": self.current.to_dict() if self.current else None,
                "roll": self.roll.to_dict() if self.roll else None,
                "chain": self.chain.to_dict() if self.chain else None, "lure": self.lure, "uid": self.uid,
                "seq": self.seq, "asks": self.asks, "frames": copy.deepcopy(self.frames), "winner": self.winner,
                "result": self.result} | ({"zone": self.zone} if self.zone else {}) | (
                    {"runner": self.runner} if self.runner else {})

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Fight | None:
        if not d:
            return None
        return cls(no=int(d.get("no", 1)), kind=str(d.get("kind") or "monster"),
                   step=d.get("step") if d.get("step") in STEPS else "over", round=int(d.get("round", 0)),
                   starter=str(d.get("starter") or ""), rival=str(d.get("rival") or ""),
                   monster=str(d.get("monster") or ""),
                   fighters={str(k): Fighter.from_dict(f) for k, f in (d.get("fighters") or {}).items()},
                   order=_strs(d.get("order")), token=str(d.get("token") or ""), queue=_strs(d.get("queue")),
                   at=int(d.get("at", 0)), question=Question.from_dict(d.get("question")),
                   track=[Token.from_dict(t) for t in d.get("track") or []], done=list(d.get("done") or []),
                   current=Token.from_dict(d.get("current")), roll=Roll.from_dict(d.get("roll")),
                   chain=Chain.from_dict(d.get("chain")), lure=str(d.get("lure") or ""), uid=int(d.get("uid", 0)),
                   seq=int(d.get("seq", 0)), asks=int(d.get("asks", 0)), frames=list(d.get("frames") or []),
                   winner=int(d.get("winner", -1)), result=str(d.get("result") or ""), zone=str(d.get("zone") or ""),
                   runner=str(d.get("runner") or ""))

    @property
    def over(self) -> bool:
        return self.step == "over"


@dataclass
class Duel:
    """A duel campaign in one channel (what the engine's ``GameState`` asks for, the characters, the fight)."""

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
    pack: str = "duel"
    pack_version: str = ""
    schema: int = SCHEMA
    rules: int = RULES
    names: dict[str, str] = field(default_factory=dict)
    characters: dict[str, Character] = field(default_factory=dict)  # by owner
    seats: list[str] = field(default_factory=list)  # the players' turn order (the order characters were made)
    fight: Fight | None = None
    fights: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)  # each finished fight, in a line
    unaccepted: list[str] = field(default_factory=list)  # seated by an import, not accepting yet (engine.party)
    leaving: list[str] = field(default_factory=list)  # left in a fight: they go when it is over (engine.party)

    def to_dict(self) -> dict[str, Any]:
        return {
            "channel_id": self.channel_id, "guild_id": self.guild_id, "name": self.name, "leader": self.leader,
            "members": list(self.members), "settings": copy.deepcopy(self.settings), "seed": self.seed,
            "dice_counter": self.dice_counter, "forced": list(self.forced), "ended": self.ended,
            "ruleset": self.ruleset, "pack": self.pack, "pack_version": self.pack_version, "schema": self.schema,
            "rules": self.rules, "names": dict(self.names),
            "characters": {k: c.to_dict() for k, c in self.characters.items()}, "seats": list(self.seats),
            "fight": self.fight.to_dict() if self.fight else None, "fights": self.fights,
            "history": copy.deepcopy(self.history),
        } | seats_to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Duel:
        return cls(
            channel_id=str(d["channel_id"]), guild_id=str(d["guild_id"]) if d.get("guild_id") else None,
            name=str(d.get("name") or "Duel"), leader=str(d["leader"]), members=_strs(d.get("members")),
            settings=dict(d.get("settings") or {}), seed=int(d.get("seed", 0)),
            dice_counter=int(d.get("dice_counter", 0)), forced=[int(v) for v in d.get("forced", [])],
            ended=bool(d.get("ended")), ruleset=NAME, pack=str(d.get("pack") or "duel"),
            pack_version=str(d.get("pack_version") or ""), schema=SCHEMA, rules=int(d.get("rules", 1)),
            names={str(k): str(v) for k, v in (d.get("names") or {}).items()},
            characters={str(k): Character.from_dict(c) for k, c in (d.get("characters") or {}).items()},
            seats=_strs(d.get("seats")), fight=Fight.from_dict(d.get("fight")), fights=int(d.get("fights", 0)),
            history=list(d.get("history") or []), **seats_from_dict(d),
        )

    def clone(self) -> Duel:
        return Duel.from_dict(copy.deepcopy(self.to_dict()))

    @property
    def in_fight(self) -> bool:
        return self.fight is not None and not self.fight.over
