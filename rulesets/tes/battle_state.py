"""The battle's state as typed records that round-trip through JSON.

``Campaign.battle`` is a :class:`Battle` (or ``None``).  Every record has
``to_dict`` / ``from_dict``; ``from_dict`` is tolerant: a missing key takes its
default and an unknown key is kept as it was (in ``more``) and written back, so
a battle saved by an older or newer bot loads, plays on and saves without loss.

The saved (dict) shape of each record is its field names, except that
:attr:`Battle.asking` is saved under ``"await"`` (its name in the first
release).  Battles saved before schema 3 had a few keys only some of the time;
they load into the same records (absent keys take their defaults).

Records also answer ``record["key"]``, ``record.get("key")`` and
``record["key"] = value`` with the saved names, for callers written against the
saved shape (effect primitives); rule code uses the attributes.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypedDict


class RolledDie(TypedDict, total=False):
    """One die of a roll, as rolled: kept as plain data (it is also an event's data)."""

    die: str | None  # the adventurer's die id (None for a free die)
    type: str  # die type id ("enemy" for a free Combat die)
    line: str
    label: str
    roll: int  # the d6 face number
    free: bool
    results: list[list[Any]]  # [[icon, value], ...]
    face: str


class Record:
    """Typed record base: generic ``to_dict``/``from_dict`` and item access by saved key."""

    #: field name -> (shape, record class): shape is "one", "list" or "dict"
    NESTED: ClassVar[dict[str, tuple[str, type]]] = {}
    #: saved key -> field name, where they differ
    ALIASES: ClassVar[dict[str, str]] = {}
    #: field names written only when they differ from their default
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    _names: ClassVar[tuple[str, ...]]
    _nameset: ClassVar[frozenset[str]]
    _defaults: ClassVar[dict[str, Any]]
    _keys: ClassVar[dict[str, str]]  # field name -> saved key

    more: dict[str, Any]

    @classmethod
    def _spec(cls) -> None:
        if "_names" in cls.__dict__:
            return
        names, defaults = [], {}
        for f in fields(cls):
            if f.name == "more":
                continue
            names.append(f.name)
            if f.default is not MISSING:
                defaults[f.name] = f.default
            elif f.default_factory is not MISSING:  # type: ignore[misc]
                defaults[f.name] = f.default_factory  # called when needed
        cls._names = tuple(names)
        cls._nameset = frozenset(names)
        cls._defaults = defaults
        back = {v: k for k, v in cls.ALIASES.items()}
        cls._keys = {n: back.get(n, n) for n in names}

    # ---- JSON ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        cls = type(self)
        cls._spec()
        out: dict[str, Any] = {}
        optional, keys, attrs = cls.OPTIONAL, cls._keys, self.__dict__
        for name in cls._names:
            v = attrs[name]
            if optional and name in optional and _is_default(cls, name, v):
                continue
            out[keys[name]] = v if type(v) in _ATOMS else _plain(v)
        for k, v in self.more.items():
            out.setdefault(k, _plain(v))
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None):
        """The record a saved dict describes.  It takes the dict's values as they are (callers pass a copy
        they own: ``Campaign.from_dict`` copies the whole saved state once)."""
        if d is None:
            return None
        if isinstance(d, cls):
            return d
        cls._spec()
        kw: dict[str, Any] = {}
        more: dict[str, Any] = {}
        names, nested, aliases = cls._nameset, cls.NESTED, cls.ALIASES
        for key, v in d.items():
            name = aliases.get(key, key) if aliases else key
            if name not in names:
                more[key] = v
                continue
            nest = nested.get(name)
            if nest is None or v is None:
                kw[name] = v
            elif nest[0] == "one":
                kw[name] = nest[1].from_dict(v) if v != {} or nest[1].EMPTY_OK else None
            elif nest[0] == "list":
                kw[name] = [nest[1].from_dict(x) for x in v]
            else:
                kw[name] = {str(k): nest[1].from_dict(x) for k, x in v.items()}
        obj = cls(**kw)
        obj.more = more
        return obj

    EMPTY_OK: ClassVar[bool] = False  # whether {} loads as a record (True) or as None

    def clone(self):
        return type(self).from_dict(self.to_dict())

    # ---- item access by saved key ------------------------------------------
    def _name(self, key: str) -> str | None:
        type(self)._spec()
        name = self.ALIASES.get(key, key)
        return name if name in self._names else None

    def __getitem__(self, key: str) -> Any:
        name = self._name(key)
        if name is not None:
            return getattr(self, name)
        return self.more[key]

    def __setitem__(self, key: str, value: Any) -> None:
        name = self._name(key)
        if name is not None:
            setattr(self, name, value)
        else:
            self.more[key] = value

    def __contains__(self, key: str) -> bool:
        name = self._name(key)
        if name is not None:
            return getattr(self, name) is not None
        return key in self.more

    def get(self, key: str, default: Any = None) -> Any:
        name = self._name(key)
        if name is not None:
            v = getattr(self, name)
            return default if v is None else v
        return self.more.get(key, default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        v = self.get(key)
        if v is None:
            self[key] = default
            return default
        return v

    def update(self, other: dict[str, Any] | None = None, **kw: Any) -> None:
        for k, v in {**(other or {}), **kw}.items():
            self[k] = v

    def pop(self, key: str, default: Any = None) -> Any:
        name = self._name(key)
        if name is None:
            return self.more.pop(key, default)
        v = getattr(self, name)
        d = type(self)._defaults.get(name)
        setattr(self, name, d() if callable(d) else d)
        return default if v is None else v


def _is_default(cls, name: str, v: Any) -> bool:
    d = cls._defaults.get(name, MISSING)
    if d is MISSING:
        return False
    return v == (d() if callable(d) else d)


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _plain(v: Any) -> Any:
    """A JSON-ready copy: records as their saved dicts, containers copied, plain values as they are."""
    t = type(v)
    if t in _ATOMS:
        return v
    if t is list or t is tuple:
        return [x if type(x) in _ATOMS else _plain(x) for x in v]
    if t is dict:
        return {k: (x if type(x) in _ATOMS else _plain(x)) for k, x in v.items()}
    if isinstance(v, Record):
        return v.to_dict()
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


# ------------------------------------------------------------------ units --
@dataclass
class Unit(Record):
    """A unit on the battle map: an adventurer, an enemy or a companion.

    An adventurer's HP lives on its Adventurer; ``hp``/``max_hp`` serve enemies and companions.
    ``q``/``r`` are ``None`` once it is off the map (defeated, escaped, not deployed yet).
    """

    OPTIONAL = frozenset({"status_dice", "companion", "controller", "keep", "party", "reassembled", "fell_at"})

    id: str = ""
    side: str = "enemy"  # "adventurer" | "enemy" | "companion"
    name: str = ""
    short: str = ""
    owner: str | None = None  # the player, for an adventurer
    enemy: str | None = None  # the enemy stat block id
    level: int | None = None
    q: int | None = None
    r: int | None = None
    hp: int | None = None
    max_hp: int | None = None
    statuses: list[str] = field(default_factory=list)
    defeated: bool = False
    escaped: bool = False
    quest: bool = False
    slot: int | None = None  # the enemy slot number it was deployed to
    # status-code dice on its chip: status -> {"owner", "die"} (rulesets.tes.battle.status)
    status_dice: dict[str, dict[str, str]] = field(default_factory=dict)
    companion: str | None = None  # the companion stat block id
    controller: str | None = None  # the player who decides for a companion
    keep: bool = False  # a companion that stays with the party after the battle
    party: bool = False  # a companion controlled by the party (its leader decides)
    reassembled: bool = False  # an enemy that already used Reassemble
    fell_at: list[int] | None = None  # [q, r] where it was defeated (the map marks it there)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# ------------------------------------------------------------------- turn --
@dataclass
class CacheSpot(Record):
    """A cache the acting adventurer just moved onto (they may pick its lock before anything else)."""

    hex: list[int] = field(default_factory=list)
    move_left: int = 0
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class Turn(Record):
    """The unit acting now (``unit is None`` between turns) and what it did this turn."""

    EMPTY_OK = True
    NESTED = {"cache": ("one", CacheSpot)}
    OPTIONAL = frozenset({"path", "engage_line", "cache", "interrupts", "explored", "explore_here", "explore_left"})

    unit: str | None = None
    owner: str | None = None  # the player, on an adventurer's turn
    moves: int = 0
    engages: int = 0
    last: str | None = None  # "move" | "engage"
    acted: bool = False
    moved: bool = False
    rolled: bool = False
    free_move: int = 0
    used: list[str] = field(default_factory=list)  # class abilities used this turn
    start: dict[str, list[int]] = field(default_factory=dict)  # unit id -> [q, r] at the start of the turn
    path: list[list[int]] = field(default_factory=list)  # the last move, drawn on the map
    engage_line: list[list[int]] = field(default_factory=list)  # the last engage, drawn on the map
    cache: CacheSpot | None = None
    interrupts: list[str] = field(default_factory=list)  # "owner:ability" interrupts used this turn
    # a delve (rulesets.tes.battle.delve): the explore action was taken this turn; the explorable hex the acting
    # adventurer may explore by occupying it (moved or placed into it, or began the turn there), and the hexes
    # left of the move that brought them (they become free movement after the exploration)
    explored: bool = False
    explore_here: list[int] | None = None
    explore_left: int = 0
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# ----------------------------------------------------------- the engage --
@dataclass
class EngageRecord(Record):
    """What one engage did so far: damage dealt per unit, pierce, dice that dealt none."""

    OPTIONAL = frozenset({"attacker", "idle_dice", "damaged_by", "dealt", "pierce", "dodged"})

    attacker: str | None = None
    dealt: dict[str, int] = field(default_factory=dict)
    pierce: int = 0
    idle_dice: int = 0
    damaged_by: dict[str, bool] = field(default_factory=dict)
    dodged: dict[str, bool] = field(default_factory=dict)  # enemies whose Dodge already worked this engage
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class Reroll(Record):
    """A reroll an item or ability granted for the waiting roll."""

    source: str = ""  # what granted it
    left: int = 1
    blank_only: bool = False
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class PendingRoll(Record):
    """An adventurer's rolled engage, waiting for ``/resolve``."""

    NESTED = {"engage": ("one", EngageRecord), "rerolls": ("list", Reroll)}
    OPTIONAL = frozenset({"rerolls"})

    owner: str = ""
    form: str = ""
    target: str | None = None
    item: str | None = None
    overtax: bool = False
    dice: list[RolledDie] = field(default_factory=list)
    engage: EngageRecord = field(default_factory=EngageRecord)
    rerolls: list[Reroll] = field(default_factory=list)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# ---------------------------------------------------------- enemy phase --
@dataclass
class Hit(Record):
    """Damage about to be dealt to one unit, waiting until every question about it is answered.

    An enemy's engage hits (``EnemyTurn.hits``) and, from rules revision 2, other damage to an adventurer
    that a player must be asked about (``Battle.harms``: an enemy skill's damage, on any turn).
    ``choice`` is the target's own prevention (source keys, once its player answered; None: automatic),
    ``guards`` the answers of allies' guard interrupts ("owner:ability" -> "use", "no" or "auto").
    """

    OPTIONAL = frozenset({"source", "label", "choice", "guards", "engage", "id"})

    target: str = ""
    amount: int = 0
    done: bool = False
    source: str | None = None  # the unit dealing it (an enemy hit: the enemy whose turn it is)
    label: str = ""  # what deals it, as the damage line names it ("Riposte 1")
    choice: list[str] | None = None
    guards: dict[str, str] = field(default_factory=dict)
    engage: bool = True  # dealt by an enemy's engage (armor and "when an enemy engages you" answer it)
    id: int = 0  # a queued harm's number in the battle (its question's key)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class EnemyTurn(Record):
    """The turn of a unit the bot plays: its hits are dealt one by one (a player may be asked first)."""

    NESTED = {"hits": ("list", Hit)}
    OPTIONAL = frozenset({"rolled", "reacted"})

    uid: str = ""
    hits: list[Hit] = field(default_factory=list)
    engaged: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    rolled: list[RolledDie] = field(default_factory=list)
    reacted: bool = False  # the units it engaged were offered their "after an enemy engages you" interrupts
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class EnemyPhase(Record):
    NESTED = {"current": ("one", EnemyTurn)}

    queue: list[str] = field(default_factory=list)
    current: EnemyTurn | None = None
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class PreventionAsk(Record):
    """A player in ``ask`` mode is asked how to prevent an enemy's damage."""

    OPTIONAL = frozenset({"deadline", "target", "guard", "queued"})  # saved before these: an enemy hit on you

    owner: str = ""
    amount: int = 0
    enemy: str = ""
    sources: list[dict[str, Any]] = field(default_factory=list)  # harm.prevention_sources, numbered from 1
    deadline: float | None = None  # when the automatic choice applies by itself (None: it waits)
    target: str | None = None  # the adventurer the damage is for, when it is not ``owner`` (a guard question)
    guard: str | None = None  # "owner:ability": the ally's guard interrupt this question offers
    queued: bool = False  # the damage is ``Battle.harms[0]`` (not the enemy turn's current hit)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class Offer(Record):
    """A free move an interrupt gives a player during an enemy's turn: the battle waits for them to move or stay.

    ``ability`` and ``cost``: an interrupt not paid yet ("after an enemy engages you": its tenacity is spent
    when the move is made); ``through``: the move may pass hexes that hold units.
    """

    OPTIONAL = frozenset({"ability", "cost", "through", "deadline", "effects"})

    id: int = 0  # its number in the battle (its prompt's key)
    owner: str = ""
    amount: int = 0
    source: str = ""  # what gives the move, as players read it ("Backflip")
    through: bool = False
    ability: str | None = None
    cost: int = 0
    effects: list[dict[str, Any]] = field(default_factory=list)  # the ability's other effects, run when used
    deadline: float | None = None  # when the player stays by themselves (None: it waits)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# ---------------------------------------------------------------- lockpick --
@dataclass
class LockpickCheck(Record):
    """A lockpick check in progress (rulesets.tes.battle.lockpick)."""

    OPTIONAL = frozenset({"free", "free_by", "freed", "used", "kind", "ref"})

    owner: str = ""
    hex: list[int] = field(default_factory=list)
    kind: str = "cache"  # what the check opens: "cache", "trap" (a delve card's trap) or "cage" (a dungeon's cell)
    ref: str = ""  # a trap: the tile whose card it is; a cage: the caged unit's id
    deck: str = "common"
    item: str = ""
    code: list[int] = field(default_factory=list)
    keys: list[int] = field(default_factory=list)
    attempts: int = 1
    attempt: int = 1
    dice: list[int] = field(default_factory=list)
    locked: list[int] = field(default_factory=list)
    fatigue: int = 0
    take: str | None = None
    swap: str | None = None
    move_left: int = 0
    free: int = 0  # die results that may still turn 1 step without fatigue (the Rogue's Nimble Fingers)
    free_by: str = ""  # what gives those free steps ("Nimble Fingers")
    freed: list[int] = field(default_factory=list)  # dice whose current result already took a free step
    used: list[str] = field(default_factory=list)  # item cards used up during this check (a Lockpick Set)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# -------------------------------------------------------------- hex dice --
@dataclass
class HexDie(Record):
    """A status-code (S) skill die placed in a hex (rulesets.tes.battle.hexdice): whose die, its number and
    what it does to a unit that moves into the hex or starts its turn there."""

    hex: list[int] = field(default_factory=list)  # [q, r]
    owner: str = ""  # the player whose die it is
    die: str = ""  # the owner's die id
    value: int = 0  # the number it was placed with
    label: str = ""  # the die's name, e.g. "Ember Rune"
    damage: int = 0  # damage dealt when it goes off
    true: bool = False  # true damage
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# ------------------------------------------------------------------ delve --
@dataclass
class CardSpot(Record):
    """A delve card kept beside the tile it revealed (rulesets.tes.battle.delve): what of it is still in play."""

    OPTIONAL = frozenset({"trap", "shards", "environment"})

    card: str = ""
    tile: str = ""
    trap: bool = False  # its trap is still active
    shards: int = 0  # skyshards on it not gained yet
    environment: bool = False  # its environment works on the tile
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class Choice(Record):
    """A choice a card gives one adventurer ("drain a Combat die or gain bane"): the battle waits for its player."""

    OPTIONAL = frozenset({"tile", "deadline"})

    id: int = 0  # its number in the battle (its prompt's key)
    owner: str = ""
    source: str = ""  # what asks it, as players read it (the card's name)
    options: list[dict[str, Any]] = field(default_factory=list)  # [{"label", "effects"}], numbered from 1
    default: int = 1
    tile: str | None = None  # the card's tile (for effects on "this tile")
    deadline: float | None = None
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class Exploration(Record):
    """An exploration in progress: the card drawn and its tile, waiting for choices or for where the tile goes."""

    OPTIONAL = frozenset({"options", "deadline", "left", "action"})

    owner: str = ""
    hex: list[int] = field(default_factory=list)  # the explored hex
    card: str = ""
    tile: str = ""
    stage: str = "revealed"  # "revealed": its When Revealed choices are open; "place": where the tile goes
    options: list[list[int]] = field(default_factory=list)  # legal placements: [offset q, offset r, rotation]
    default: int = 1  # the placement used when nobody answers (numbered from 1)
    deadline: float | None = None
    left: int = 0  # hexes left of the move that brought the adventurer there
    action: bool = False  # started by the explore action (not by occupying the hex)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class Delve(Record):
    """A delve battle's state (rulebook pp.74-80): its deck, tile stacks, the cards beside their tiles, the
    skyshards, and an exploration waiting for the party."""

    NESTED = {"cards": ("dict", CardSpot), "exploring": ("one", Exploration)}
    OPTIONAL = frozenset({"facedown", "discard", "exploring", "numbers", "province"})

    province: str | None = None  # its province: the delve cards and the enemy chips coded for it join in
    required: int = 3  # skyshards needed to explore it fully
    gained: int = 0  # skyshards gained (at most ``required``)
    drawn: int = 0  # skyshard icons drawn so far (on cards placed faceup and cards turned facedown)
    facedown: list[str] = field(default_factory=list)  # cards counted as skyshards (no tile of their shape left)
    deck: list[str] = field(default_factory=list)  # the delve deck, top first
    discard: list[str] = field(default_factory=list)
    stacks: dict[str, list[str]] = field(default_factory=dict)  # shape ("3", "6", "7", "19") -> tile ids, top first
    numbers: dict[str, int] = field(default_factory=dict)  # placed tile id -> its number on the map (1, 2, ...)
    cards: dict[str, CardSpot] = field(default_factory=dict)  # tile id -> the card kept beside it
    exploring: Exploration | None = None
    explorations: int = 0  # explorations so far (numbers their placement prompts)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# -------------------------------------------------------------------- map --
@dataclass
class TileSpot(Record):
    """One map tile placed in the battle: which tile, where (axial offset) and turned how (60° steps)."""

    tile: str = ""
    offset: list[int] = field(default_factory=lambda: [0, 0])
    rotation: int = 0
    more: dict[str, Any] = field(default_factory=dict, repr=False)


# ------------------------------------------------------------------ battle --
@dataclass
class Battle(Record):
    """A battle in progress.

    ``step`` is "setup", "adventurer", "companions", "enemies", "round-end" or "over".
    ``tiles`` are the map's tile placements and ``map_version`` counts changes to them
    (every cached question about the map is keyed by it).  ``tiles == []`` means the
    encounter's own layout, unchanged (every battle until a tile is placed mid-battle,
    and every battle saved before placements were recorded); placing a tile writes
    the whole layout down first (``model.place_tile``).
    """

    NESTED = {"units": ("dict", Unit), "turn": ("one", Turn), "pending": ("one", PendingRoll),
              "asking": ("one", PreventionAsk), "enemy_phase": ("one", EnemyPhase),
              "lockpick": ("one", LockpickCheck), "tiles": ("list", TileSpot), "harms": ("list", Hit),
              "offers": ("list", Offer), "hex_dice": ("list", HexDie), "delve": ("one", Delve),
              "choices": ("list", Choice)}
    ALIASES = {"await": "asking"}
    OPTIONAL = frozenset({"brought", "enemy_acts", "harms", "offers", "hex_dice", "delve", "dungeon", "choices",
                          "asks", "promotion"})

    no: int = 0
    encounter: str = ""
    name: str = ""
    mode: str = "clash"
    objective: str = "conquer"
    objective_units: list[str] = field(default_factory=list)
    objective_rounds: int | None = None
    round: int = 1
    fatigue_round: bool = False
    step: str = "setup"
    order: list[str] = field(default_factory=list)  # players, in turn order
    turn_index: int = -1
    units: dict[str, Unit] = field(default_factory=dict)
    turn: Turn = field(default_factory=Turn)
    pending: PendingRoll | None = None
    asking: PreventionAsk | None = None
    enemy_phase: EnemyPhase | None = None
    achievements: dict[str, str] = field(default_factory=dict)  # achievement id -> player
    defeated_stack: list[str] = field(default_factory=list)
    escaped: list[str] = field(default_factory=list)
    outcome: str | None = None
    retreat: bool = False
    log: list[str] = field(default_factory=list)
    tiles: list[TileSpot] = field(default_factory=list)
    map_version: int = 0
    caches: dict[str, str] | None = None  # "q,r" -> kind of the cache chips left (None: not set up yet)
    lockpick: LockpickCheck | None = None
    first_turn_done: bool = False
    last_turn_owner: str | None = None
    # player -> {"tenacity": n, "items": [ids]}: what each adventurer brought into the battle
    brought: dict[str, dict[str, Any]] = field(default_factory=dict)
    # what the enemies did in the last enemy phase, for the map: {"moves": [...], "engages": [...]}
    enemy_acts: dict[str, list] = field(default_factory=dict)
    # damage waiting for a player's answer before it is dealt (rules revision 2; see Hit)
    harms: list[Hit] = field(default_factory=list)
    # free moves interrupts gave during an enemy's turn, the first one waiting for its player (see Offer)
    offers: list[Offer] = field(default_factory=list)
    hex_dice: list[HexDie] = field(default_factory=list)  # S skill dice placed in hexes (rulesets.tes.battle.hexdice)
    delve: Delve | None = None  # a delve battle's deck, tiles, cards and skyshards (rulesets.tes.battle.delve)
    choices: list[Choice] = field(default_factory=list)  # card choices waiting for players, the first one asked now
    asks: int = 0  # choices asked so far in this battle (numbers them)
    dungeon: str | None = None  # a dungeon battle's dungeon: its diagram marks the map (rulesets.tes.battle.dungeon)
    # what the class promotion checks count in this battle (rules revision 3; rulesets.tes.battle.promotion):
    # "defeats": [[round, turn unit, player or ""]], "healed" / "prevented" / "revived" / "gave_tenacity":
    # {player: n}
    promotion: dict[str, Any] = field(default_factory=dict)
    more: dict[str, Any] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if out.get("enduring") == {}:  # battles saved from 2026-11-23 09:40 kept it empty from the first damage
            del out["enduring"]
        return out

    @classmethod
    def from_dict(cls, d):
        if d is None or isinstance(d, Battle):
            return d
        d = dict(d)
        mv = d.get("map_version")
        if not isinstance(mv, int):  # the first release saved a label ("jailbreak-1"): no change made yet
            d["map_version"] = 0
        if d.get("turn") is None:
            d["turn"] = {}
        return super().from_dict(d)

    @property
    def turn_owner(self) -> str | None:
        return self.turn.owner


@dataclass
class ItemDeck(Record):
    """An item deck: the draw pile (top first) and the discard pile."""

    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class CompanionEntry(Record):
    """A companion that stays with the party between battles."""

    id: str = ""
    controller: str | None = None
    more: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass
class BattleSummary(Record):
    """What is kept of the last battle once it is over."""

    OPTIONAL = frozenset({"class_rewards", "gained", "mode", "skyshards", "skyshard_xp"})

    no: int = 0
    encounter: str = ""
    name: str = ""
    outcome: str = ""
    rounds: int = 0
    achievements: dict[str, str] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    class_rewards: dict[str, list[str]] | None = None
    # Jailbreak: player with class rewards -> {"tenacity": n, "items": [ids]} gained in the battle (gainers only)
    gained: dict[str, dict[str, Any]] | None = None
    mode: str = "clash"
    skyshards: int | None = None  # a delve: skyshards gained
    skyshard_xp: int | None = None  # an Uncover delve: XP the Reward Phase grants for them (0 after a full defeat)
    more: dict[str, Any] = field(default_factory=dict, repr=False)
