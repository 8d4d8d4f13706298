"""The records a loaded pack is made of: read-only dataclasses, and the error listing a pack's problems."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

Hex = tuple[int, int]


class ContentError(Exception):
    """A pack could not be loaded.  ``errors`` lists every problem found."""

    def __init__(self, errors: Iterable[str]):
        self.errors: list[str] = list(errors)
        super().__init__("\n".join(self.errors))

    def __str__(self) -> str:
        return "\n".join(self.errors)


@dataclass(frozen=True)
class Ability:
    """A text ability with machine-readable effects (race innate, class innate...)."""

    name: str
    timing: str
    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False


@dataclass(frozen=True)
class FaceResult:
    icon: str
    value: int | None = None

    def __str__(self) -> str:
        return self.icon if self.value is None else f"{self.value} {self.icon}"


@dataclass(frozen=True)
class Face:
    results: tuple[FaceResult, ...] = ()

    @property
    def blank(self) -> bool:
        return not self.results

    def __str__(self) -> str:
        return " + ".join(str(r) for r in self.results) if self.results else "blank"


@dataclass(frozen=True)
class IconAbility:
    icon: str
    code: str
    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False
    #: battle form -> code used instead of ``code`` in that form (e.g. Combat in defensive form: "A").
    form_codes: dict[str, str] = field(default_factory=dict)

    def code_in(self, form: str | None) -> str:
        return self.form_codes.get(form or "", self.code)


@dataclass(frozen=True)
class DieType:
    id: str
    line: str
    level: int
    name: str
    count: int
    faces: tuple[Face, ...]
    note: str = ""


@dataclass(frozen=True)
class SkillLine:
    id: str
    name: str
    constellation: str | None
    stat: str
    form: str | None
    description: str
    abilities: dict[str, IconAbility]
    dice: tuple[DieType, ...]

    def dice_of_level(self, level: int) -> tuple[DieType, ...]:
        return tuple(d for d in self.dice if d.level == level)


@dataclass(frozen=True)
class Race:
    id: str
    name: str
    health: int
    stamina: int
    magicka: int
    combat: int
    cooldown: int
    ability: Ability
    description: str


@dataclass(frozen=True)
class ClassAbility:
    id: str
    name: str
    cost: int
    timing: str
    keyword: str | None
    form: str | None
    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False
    improved: bool = False  # master side: this ability is better than on the novice side


@dataclass(frozen=True)
class ClassSide:
    innate: Ability
    abilities: tuple[ClassAbility, ...]

    def ability(self, ability_id: str) -> ClassAbility | None:
        return next((a for a in self.abilities if a.id == ability_id), None)


@dataclass(frozen=True)
class PromotionCheck:
    """The machine-readable side of a class's promotion requirement (``[class.promotion_check]``): what the bot
    watches for (rulesets.tes.battle.promotion).  ``amount`` is the count or the HP the requirement names;
    ``scope`` is the stretch it must happen in ("turn", "round", "battle" or "session")."""

    kind: str
    amount: int = 1
    scope: str = "battle"
    by: str = "you"  # enemies-defeated: "you" (your own defeats) or "anyone" (every enemy defeated)
    min_level: int = 0  # defeat-enemy: the enemy's level at least
    form: str | None = None  # defeat-enemy: your battle form when you defeat it
    stealth: bool = False  # defeat-enemy: you have stealth when you defeat it
    min_distance: int = 0  # defeat-enemy: hexes between you and the enemy at least


@dataclass(frozen=True)
class ClassDef:
    id: str
    name: str
    description: str
    promotion: str
    novice: ClassSide
    master: ClassSide
    expansion_only: bool = False
    check: PromotionCheck | None = None  # None: the bot does not detect it; the player confirms it


@dataclass(frozen=True)
class EnemySkill:
    id: str
    name: str
    value: int | None
    timing: str
    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False

    @property
    def label(self) -> str:
        return self.name if self.value is None else f"{self.name} {self.value}"


@dataclass(frozen=True)
class Enemy:
    id: str
    name: str
    level: int
    chip: str
    bag: str
    type: str
    province: str | None
    health: int
    defense: int
    combat: int
    range: int
    targets: int | None  # None = all targets in range
    priority: str
    movement: int
    skills: tuple[EnemySkill, ...]
    traits: tuple[str, ...]
    quest_unit: bool
    xp: int | None
    description: str = ""

    @property
    def all_targets(self) -> bool:
        return self.targets is None


@dataclass(frozen=True)
class Companion:
    """A companion unit's stat block (rulebook page 91): enemy-style stats and enemy skills.

    It always moves up to 2 hexes and its targeting priority is chosen by its
    controller, so it has neither a movement nor a priority of its own.
    """

    id: str
    name: str
    health: int
    defense: int
    combat: int
    range: int
    targets: int | None
    skills: tuple[EnemySkill, ...]
    traits: tuple[str, ...] = ()
    description: str = ""
    movement: int = 2
    priority: str = "weakest"
    quest_unit: bool = False
    level: int = 0


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    rarity: str
    subtype: str
    forms: tuple[str, ...]
    traits: tuple[str, ...]
    keyword: str | None
    text: str
    overtax_text: str
    effects: tuple[dict, ...]
    overtax_effects: tuple[dict, ...]
    manual: bool
    lockpick_attempts: int
    difficulty_code: tuple[int, ...]
    key_digits: tuple[int, ...] = ()  # 0-based positions of key digits in difficulty_code
    timing: str = "your turn"


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    kind: str
    hexes: tuple[Hex, ...]
    impassable: tuple[Hex, ...] = ()
    enemy_slots: dict[int, Hex] = field(default_factory=dict)
    caches: dict[Hex, str] = field(default_factory=dict)  # hex -> "common" | "legendary"
    escape: tuple[Hex, ...] = ()
    labels: dict[str, Hex] = field(default_factory=dict)
    description: str = ""
    # a delve tile's marks (rulebook p.75): connection (door) hexes, cache hexes and enemy hexes
    doors: tuple[Hex, ...] = ()
    cache_spots: tuple[Hex, ...] = ()
    enemy_spots: tuple[Hex, ...] = ()

    @property
    def shape(self) -> int:
        """A delve tile's shape, as delve cards name it: its number of hexes (3, 6, 7 or 19)."""
        return len(self.hexes)


@dataclass(frozen=True)
class TilePlacement:
    tile: str
    offset: Hex = (0, 0)
    rotation: int = 0  # 60-degree clockwise steps, 0-5


@dataclass(frozen=True)
class ClassReward:
    name: str
    class_id: str | None  # None for a class that is not in the pack (expansion only)
    expansion_only: bool = False


@dataclass(frozen=True)
class Achievement:
    id: str
    label: str


@dataclass(frozen=True)
class Trigger:
    timing: str
    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False


@dataclass(frozen=True)
class Encounter:
    id: str
    name: str
    mode: str
    description: str
    tiles: tuple[TilePlacement, ...]
    enemy_rule: str  # "pool" or "bag"
    bag: tuple[str, ...]  # enemy ids for a fixed bag
    per_adventurer: int | None  # fixed-bag encounters: enemies drawn per adventurer
    xp_dial: int | None  # an XP Dial value the encounter sets, if any
    named_enemies: tuple[str, ...]  # added on top of the pool, not subtracted from it
    required_enemies: tuple[str, ...]  # must be drawn (redraw until found)
    challenge: Trigger | None  # 3/4-player challenge modifier
    objective: str
    objective_params: dict[str, Any]
    triggers: tuple[Trigger, ...]
    special_rules: str
    achievements: tuple[Achievement, ...]
    class_rewards: dict[str, tuple[ClassReward, ...]]
    companions: tuple[str, ...] = ()  # companion ids that join the party for this battle
    # delve (rulebook pp.74-80): the skyshards to gain and the province whose delve cards join the general ones
    skyshards: int = 3
    province: str | None = None
    # dungeon (pp.80-85): the dungeon it is set in and its setup instructions
    dungeon: str | None = None
    fill: int | None = None  # free level-1 draws (no pool cost) until this many numbered hexes are occupied
    star_pool: bool = False  # a second enemy pool fills the star hexes, one enemy per area before a second
    allies: tuple[str, ...] = ()  # enemy chips that fight for the party as companions (deployed after it)
    caged: tuple[str, ...] = ()  # named units deployed without HP chips (caged until freed), in a dungeon with cages


@dataclass(frozen=True)
class CardText:
    """One part of a delve card: words and the effects that carry them out (manual: the party applies them)."""

    text: str
    effects: tuple[dict, ...] = ()
    manual: bool = False


@dataclass(frozen=True)
class CardTrap:
    """A trap box (rulebook p.80): a lockpick code and its attempts, and what happens on success or failure."""

    name: str
    code: tuple[int, ...]
    keys: tuple[int, ...]
    attempts: int
    on: str  # "fail" | "success": when the effect resolves
    part: CardText


@dataclass(frozen=True)
class DelveCard:
    """A delve card (rulebook p.76): the shape of the tile it reveals, its challenge scale, caches,
    skyshards and effects (when revealed; and one of a trap, a skyshard effect or an environment)."""

    id: str
    name: str
    province: str | None  # None: a general card; else a province code ("SM")
    number: int
    shape: int  # the revealed tile's hexes: 3, 6, 7 or 19
    scale: dict[int, tuple[int, ...]]  # adventurers (1-4) -> the enemies' highest levels, left to right
    caches: dict[str, int]  # "common"/"legendary" -> chips
    skyshards: int = 0
    special: bool = False  # a province's special card (set aside at session setup)
    revealed: CardText | None = None
    after_populate: bool = False  # the When Revealed effect resolves once the tile is populated
    trap: CardTrap | None = None
    skyshard: dict[int, CardText] = field(default_factory=dict)  # skyshards gained so far -> its effect
    environment: CardText | None = None
    timing: str = ""  # the environment's moment (ENVIRONMENT_TIMINGS)

    @property
    def code(self) -> str:
        return f"{self.province or 'GE'}-{self.number:02d}"

    @property
    def kept(self) -> bool:
        """Whether the card stays beside its tile (it has skyshards, a trap or an environment)."""
        return bool(self.skyshards or self.trap or self.environment)


@dataclass(frozen=True)
class Dungeon:
    """A dungeon's entry (rulebook pp.80-85): its tiles, its setup diagram's marks in map coordinates and its rules."""

    id: str
    name: str
    province: str | None
    description: str
    special_rules: str
    tiles: tuple[TilePlacement, ...]
    slots: dict[int, Hex]  # numbered hexes
    labels: dict[str, Hex]  # lettered hexes
    stars: tuple[Hex, ...]
    caches: dict[Hex, str]
    impassable: frozenset[Hex]
    caged: bool = False  # units deployed in star hexes have no HP chips: they are caged until freed
    lock: tuple[tuple[int, ...], tuple[int, ...], int] | None = None  # a cage's code, key digits, attempts
    diagram: str = ""


@dataclass(frozen=True)
class QuestStep:
    id: str
    text: str
    encounter: str | None = None
    reward: str = ""


@dataclass(frozen=True)
class Quest:
    id: str
    name: str
    text: str
    steps: tuple[QuestStep, ...]


@dataclass(frozen=True)
class MatSpec:
    rows: int = 5
    squares_per_row: int = 6
    left_costs: tuple[int, ...] = (1, 1, 2, 2, 3, 4)
    right_costs: tuple[int, ...] = (1, 1, 2, 2, 3, 4)
    cooldown_track_size: int = 13
    cooldown_stat_costs: dict[int, int] = field(default_factory=lambda: {v: v for v in range(1, 7)})
    tenacity_max: int = 5
    saved_xp_max: int = 3
    active_slots: int = 4
    ready_slots: int = 4
    inventory_max: int = 8

    @property
    def cooldown_max(self) -> int:
        return max(self.cooldown_stat_costs)


@dataclass(frozen=True)
class Supply:
    """Limited components (the rulebook's component list and Component Limits), shared by the whole table.

    When one runs out: light fatigue becomes overfatigue, then nothing; no status die is
    applied; no more enemy Combat dice join an engage; a cache chip is not placed.
    """

    light_fatigue: int = 20
    overfatigue: int = 12
    status_dice: int = 12
    enemy_combat_dice: int = 6
    cache_chips: int = 6


@dataclass(frozen=True)
class BattleMap:
    """An encounter's tiles put together, in map (axial) coordinates."""

    hexes: dict[Hex, str]  # hex -> tile id
    impassable: frozenset[Hex]
    enemy_slots: dict[int, Hex]
    caches: dict[Hex, str]
    escape: frozenset[Hex]
    entrance: frozenset[Hex]
    labels: dict[str, Hex]
    doors: frozenset[Hex] = frozenset()  # delve tiles' connection hexes
    cache_spots: frozenset[Hex] = frozenset()  # delve tiles' cache hexes (chips come from the delve cards)
    enemy_spots: frozenset[Hex] = frozenset()  # delve tiles' enemy hexes
    stars: frozenset[Hex] = frozenset()  # a dungeon diagram's star hexes


@dataclass(frozen=True)
class Pack:
    id: str
    name: str
    version: str
    description: str
    path: Path
    races: dict[str, Race]
    lines: dict[str, SkillLine]
    classes: dict[str, ClassDef]
    enemies: dict[str, Enemy]
    items: dict[str, Item]
    tiles: dict[str, Tile]
    encounters: dict[str, Encounter]
    quests: dict[str, Quest]
    mat: MatSpec
    enemy_combat_die: tuple[Face, ...]
    enemy_skills: dict[str, EnemySkill] = field(default_factory=dict)
    companions: dict[str, Companion] = field(default_factory=dict)
    supply: Supply = field(default_factory=Supply)
    content_hash: str = ""  # the pack's version: a hash of its files (rulesets.tes.content.packs.content_hash)
    # the campaign's day (rulesets.tes.content.overland): overland icons, overland cards (general and every
    # province's, by id) and provinces (map, effect, gazetteer) by id
    overland_icons: dict[str, Any] = field(default_factory=dict)
    overland_cards: dict[str, Any] = field(default_factory=dict)
    provinces: dict[str, Any] = field(default_factory=dict)
    delve_cards: dict[str, DelveCard] = field(default_factory=dict)
    dungeons: dict[str, Dungeon] = field(default_factory=dict)
    # the campaign (rulesets.tes.content.quests.Campaign): guild cards, keywords, side quests, guild quests and
    # endgames; a pack without them plays sessions without quests
    campaign: Any = None

    def die(self, die_id: str) -> DieType:
        for line in self.lines.values():
            for d in line.dice:
                if d.id == die_id:
                    return d
        raise KeyError(f'pack "{self.id}" has no skill die "{die_id}"')

    def dice(self) -> dict[str, DieType]:
        return {d.id: d for line in self.lines.values() for d in line.dice}

    def search(self, kind: str, text: str, limit: int = 25) -> list[tuple[str, str]]:
        """Autocomplete: (id, name) pairs whose id or name contains ``text``.

        Prefix matches come first, then other substring matches; case does not matter.
        ``kind`` is one of races, lines, classes, enemies, items, encounters, tiles, quests, dice.
        """
        if kind == "dice":
            table: dict[str, Any] = self.dice()
        else:
            table = getattr(self, kind, None)
            if kind not in SEARCH_KINDS or not isinstance(table, dict):
                raise ValueError(f"cannot search {kind!r}; use one of {', '.join(SEARCH_KINDS)}")
        needle = (text or "").strip().lower()
        first: list[tuple[str, str]] = []
        rest: list[tuple[str, str]] = []
        for key, obj in table.items():
            name = getattr(obj, "name", key)
            hay = (key.lower(), name.lower())
            if not needle or any(h.startswith(needle) for h in hay) or any(
                w.startswith(needle) for w in name.lower().split()
            ):
                first.append((key, name))
            elif any(needle in h for h in hay):
                rest.append((key, name))
        first.sort(key=lambda p: p[1].lower())
        rest.sort(key=lambda p: p[1].lower())
        return (first + rest)[:limit]

    def enemies_in_bag(self, bag: str, include_quest_units: bool = False) -> dict[str, list[Enemy]]:
        """Chips of one bag: chip id -> its sides (lower level first)."""
        chips: dict[str, list[Enemy]] = {}
        for e in self.enemies.values():
            if e.bag == bag and (include_quest_units or not e.quest_unit):
                chips.setdefault(e.chip, []).append(e)
        for sides in chips.values():
            sides.sort(key=lambda e: e.level)
        return chips



SEARCH_KINDS = ("races", "lines", "classes", "enemies", "items", "encounters", "tiles", "quests", "dice")
