"""Content packs: races, skill lines, classes, enemies, items, tiles, encounters, quests.

A pack is a folder of TOML files (see docs/content-format.md).  ``load_pack``
reads one, checks every entry and every cross-reference, and returns a
read-only :class:`Pack`.  All problems found are reported together in one
:class:`ContentError`, each naming the file, the entry and what is wrong.

This module knows nothing about Discord or pictures.

Command line::

    python -m rulesets.tes.content validate <pack-id-or-folder>
    python -m rulesets.tes.content list
"""
from __future__ import annotations

import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

CONTENT_DIR: Path = Path(__file__).resolve().parents[2] / "content"
DEFAULT_PACK = "starter"

# --------------------------------------------------------------------------
# Fixed vocabularies
# --------------------------------------------------------------------------

#: Battle forms: id -> (display name, symbol, range rule).
BATTLE_FORMS: dict[str, str] = {
    "light": "adjacent only (light weapon)",
    "heavy": "adjacent only (heavy weapon)",
    "defensive": "no range",
    "ranged": "not adjacent, up to your Stamina",
    "magic": "up to your Magicka; Combat dice cannot be rolled",
}
BATTLE_FORM_NAMES: dict[str, str] = {
    "light": "Light Weapon",
    "heavy": "Heavy Weapon",
    "defensive": "Defensive",
    "ranged": "Ranged Weapon",
    "magic": "Magic",
}
BATTLE_FORM_SYMBOLS: dict[str, str] = {
    "light": "🗡️",
    "heavy": "🪓",
    "defensive": "🛡️",
    "ranged": "🏹",
    "magic": "⚡",
}
#: form -> (display name, symbol), for menus and messages.
BATTLE_FORM_DISPLAY: dict[str, tuple[str, str]] = {f: (BATTLE_FORM_NAMES[f], BATTLE_FORM_SYMBOLS[f]) for f in BATTLE_FORMS}
#: Forms in which Combat dice may be rolled.
COMBAT_FORMS: tuple[str, ...] = ("light", "heavy", "defensive", "ranged")

CONSTELLATIONS = ("mage", "thief", "warrior")
STATS = ("stamina", "magicka")

#: Resolving Skill Abilities codes.
ABILITY_CODES: dict[str, str] = {
    "A": "Active slot: the die goes to an active slot and works from there",
    "C": "Cooldown track: the die is exhausted and works while it sits in the cooldown track",
    "D": "Drained: resolve now, then the die is drained until the battle ends",
    "I": "Instant: resolve now, then exhaust the die",
    "S": "Status effect: the die is placed on a unit or hex and works from there",
}

#: Status effects (short reminders; the battle engine owns the rules).
STATUS_EFFECTS: dict[str, str] = {
    "bane": "takes 1 true damage at the start of each of its turns",
    "blind": "treats every unit as an opponent and may only target the strongest adjacent unit",
    "daze": "cannot both move and roll dice in one turn; removed at the end of its turn",
    "fear": "its non-Combat skills do nothing (dice already placed keep working)",
    "maim": "damage rolled on its Combat dice is halved, rounded down (not true damage)",
    "stealth": "only units adjacent to it at the start of the turn may target it; removed after it deals damage",
}

ITEM_SUBTYPES = ("armor", "weapon", "enchantment", "consumable", "potion", "clothing", "misc", "pet")
ITEM_RARITIES = ("common", "legendary")
ITEM_KEYWORDS = ("expend", "overtax")
ENEMY_TYPES = ("humanoid", "beast", "daedra")
ENEMY_PRIORITIES = ("strongest", "weakest")
ENEMY_LEVELS = (1, 5, 10, 20)
BAG_OF_LEVEL = {1: "1/5", 5: "1/5", 10: "10/20", 20: "10/20"}
CLASS_KEYWORDS = ("enduring", "interrupt")
TILE_KINDS = ("clash", "entrance", "delve", "dungeon", "obstacle")
ENCOUNTER_MODES = ("clash",)
OBJECTIVES = ("conquer", "eliminate", "escape-or-eliminate-all", "survive")
TRIGGER_TIMINGS = ("before battle", "start of battle", "start of round", "end of round", "end of battle")

TIMINGS: tuple[str, ...] = (
    "any time",
    "your turn",
    "start of your turn",
    "end of your turn",
    "after you engage",
    "when you engage",
    "when an enemy engages you",
    "after an enemy engages you",
    "when you are dealt damage",
    "when you defeat an enemy",
    "when an ally is dealt damage",
    "when an ally within 2 hexes is defeated",
    "before battle",
    "start of battle",
    "start of round",
    "end of round",
    "end of battle",
    "outside battle",
    "reward phase",
    # enemy skills
    "start of its turn",
    "end of its turn",
    "when it engages",
    "after it engages",
    "when it is dealt damage",
    "after it is engaged",
    "when it is defeated",
    "always",
)

# Effect vocabulary --------------------------------------------------------

AMOUNT_WORDS = ("value", "previous")
TARGETS = ("target", "near-target", "self", "ally", "allies-in-range", "adjacent-enemies", "all-in-range", "attacker")


#: Icons every skill line has without declaring them.
STANDARD_ICONS = ("tenacity",)

# --------------------------------------------------------------------------
# Data classes
# --------------------------------------------------------------------------

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
class ClassDef:
    id: str
    name: str
    description: str
    promotion: str
    novice: ClassSide
    master: ClassSide
    expansion_only: bool = False


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
class BattleMap:
    """An encounter's tiles put together, in map (axial) coordinates."""

    hexes: dict[Hex, str]  # hex -> tile id
    impassable: frozenset[Hex]
    enemy_slots: dict[int, Hex]
    caches: dict[Hex, str]
    escape: frozenset[Hex]
    entrance: frozenset[Hex]
    labels: dict[str, Hex]


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

    def battle_map(self, encounter_id: str) -> BattleMap:
        enc = self.encounters[encounter_id]
        return assemble_map(self.tiles, enc.tiles)


SEARCH_KINDS = ("races", "lines", "classes", "enemies", "items", "encounters", "tiles", "quests", "dice")

# --------------------------------------------------------------------------
# Hex helpers (axial q, r; pointy-top)
# --------------------------------------------------------------------------

AXIAL_DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def rotate_hex(h: Hex, steps: int) -> Hex:
    """Rotate an axial hex about the origin by ``steps`` x 60 degrees clockwise."""
    q, r = h
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def place_hex(h: Hex, placement: TilePlacement) -> Hex:
    q, r = rotate_hex(h, placement.rotation)
    return (q + placement.offset[0], r + placement.offset[1])


def hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbors(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in AXIAL_DIRECTIONS]


def assemble_map(tiles: dict[str, Tile], placements: Iterable[TilePlacement]) -> BattleMap:
    hexes: dict[Hex, str] = {}
    impassable: set[Hex] = set()
    slots: dict[int, Hex] = {}
    caches: dict[Hex, str] = {}
    escape: set[Hex] = set()
    entrance: set[Hex] = set()
    labels: dict[str, Hex] = {}
    for p in placements:
        t = tiles[p.tile]
        for h in t.hexes:
            hexes[place_hex(h, p)] = t.id
            if t.kind == "entrance":
                entrance.add(place_hex(h, p))
        impassable.update(place_hex(h, p) for h in t.impassable)
        for n, h in t.enemy_slots.items():
            slots[n] = place_hex(h, p)
        for h, kind in t.caches.items():
            caches[place_hex(h, p)] = kind
        escape.update(place_hex(h, p) for h in t.escape)
        for name, h in t.labels.items():
            labels[name] = place_hex(h, p)
    return BattleMap(hexes, frozenset(impassable), dict(sorted(slots.items())), caches,
                     frozenset(escape), frozenset(entrance), labels)


def parse_hex_map(text: str) -> dict[Hex, str]:
    """Read a tile drawing: one row per line, cells separated by spaces.

    Row ``r`` is the line number (first non-empty line is row 0); within a row,
    cell ``col`` is the token number.  Odd rows are drawn shifted half a hex to
    the right ("odd-r" offset layout), and converted to axial with
    ``q = col - (r - (r & 1)) // 2``.  A cell of ``_`` is not part of the tile.
    """
    lines = [ln.rstrip() for ln in text.splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    cells: dict[Hex, str] = {}
    for r, line in enumerate(lines):
        for col, tok in enumerate(line.split()):
            if tok == "_":
                continue
            q = col - (r - (r & 1)) // 2
            cells[(q, r)] = tok
    return cells


# --------------------------------------------------------------------------
# Face notation
# --------------------------------------------------------------------------

_RESULT_RE = re.compile(r"^(?:(\d+)\s+)?([a-z][a-z0-9-]*)$")


def parse_face(text: str, icons: Iterable[str]) -> Face:
    """Parse "2 damage", "tenacity", "1 damage + tenacity" or "blank".

    Raises ValueError with a readable message on a bad face.
    """
    if not isinstance(text, str):
        raise ValueError(f"a face must be written as text like \"2 damage\" or \"blank\", got {_show(text)}")
    s = " ".join(text.strip().lower().split())
    if s in ("blank", ""):
        if not s:
            raise ValueError('a face cannot be empty; write "blank" for a blank face')
        return Face(())
    known = set(icons)
    results = []
    for part in s.split("+"):
        part = part.strip()
        m = _RESULT_RE.match(part)
        if not m:
            raise ValueError(f'cannot read face "{text}": "{part}" should look like "2 damage" or "tenacity"')
        value = int(m.group(1)) if m.group(1) is not None else None
        icon = m.group(2)
        if icon not in known:
            raise ValueError(
                f'face "{text}" uses icon "{icon}", which this line does not define (known icons: {_quoted(sorted(known))})'
            )
        results.append(FaceResult(icon, value))
    return Face(tuple(results))


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

PACK_FILES = ("pack.toml", "races.toml", "classes.toml", "enemies.toml", "items.toml", "tiles.toml",
              "encounters.toml", "quests.toml")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_MISSING = object()


def _quoted(xs: Iterable[Any]) -> str:
    return ", ".join(f'"{x}"' for x in xs)


def _show(v: Any) -> str:
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, list):
        return "a list"
    return str(v)


class _Entry:
    """Field readers for one entry; every problem goes to the shared error list."""

    def __init__(self, errors: list[str], file: str, label: str, data: Any):
        self.errors = errors
        self.file = file
        self.label = label
        self.data = data if isinstance(data, dict) else {}
        self.ok = True
        if not isinstance(data, dict):
            self.err(f"must be a table, got {_show(data)}")

    def err(self, msg: str) -> None:
        self.ok = False
        self.errors.append(f"{self.file}, {self.label}: {msg}")

    def sub(self, key: str, label: str, data: Any = _MISSING) -> "_Entry":
        return _Entry(self.errors, self.file, f"{self.label}, {label}", self.data.get(key) if data is _MISSING else data)

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, default: Any = _MISSING) -> Any:
        if key not in self.data:
            if default is _MISSING:
                self.err(f'is missing the field "{key}"')
                return None
            return default
        return self.data[key]

    def unknown_keys(self, allowed: Iterable[str]) -> None:
        allowed = set(allowed)
        for k in self.data:
            if k not in allowed:
                self.err(f'has an unknown field "{k}" (allowed: {_quoted(sorted(allowed))})')

    def text(self, key: str, default: Any = _MISSING, allow_empty: bool = False) -> str:
        v = self.get(key, default)
        if v is None and default is not _MISSING:
            return default
        if v is None:
            return ""
        if not isinstance(v, str) or (not allow_empty and not v.strip()):
            self.err(f"{key} must be a non-empty text, got {_show(v)}")
            return ""
        return v.strip()

    def opt_text(self, key: str) -> str | None:
        if key not in self.data:
            return None
        return self.text(key)

    def int(self, key: str, lo: int, hi: int, default: Any = _MISSING) -> int:
        v = self.get(key, default)
        if v is None:
            return lo if default is _MISSING else default
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            self.err(f"{key} must be a whole number from {lo} to {hi}, got {_show(v)}")
            return lo
        return v

    def bool(self, key: str, default: bool = False) -> bool:
        v = self.get(key, default)
        if not isinstance(v, bool):
            self.err(f"{key} must be true or false, got {_show(v)}")
            return default
        return v

    def choice(self, key: str, choices: Iterable[Any], default: Any = _MISSING) -> Any:
        choices = tuple(choices)
        v = self.get(key, default)
        if v is None and (default is None or default is _MISSING):
            return None
        if v not in choices or isinstance(v, bool):
            self.err(f"{key} must be one of {_quoted(choices)}, got {_show(v)}")
            return None
        return v

    def str_list(self, key: str, choices: Iterable[str] | None = None, default: Any = ()) -> tuple[str, ...]:
        v = self.get(key, list(default) if default is not _MISSING else _MISSING)
        if v is None:
            return ()
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.err(f"{key} must be a list of texts, got {_show(v)}")
            return ()
        if choices is not None:
            choices = tuple(choices)
            for x in v:
                if x not in choices:
                    self.err(f"{key} contains {_show(x)}, which is not one of {_quoted(choices)}")
        return tuple(v)

    def hex(self, key: str, v: Any = _MISSING) -> Hex | None:
        if v is _MISSING:
            v = self.get(key)
        if (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
            return (v[0], v[1])
        self.err(f"{key} must be a hex written as [q, r], got {_show(v)}")
        return None

    def effects(self, key: str, *, die: bool = False) -> tuple[dict, ...]:
        """A list of effect tables, each checked against the effect registry (a type or a field
        with no behaviour is refused)."""
        from rulesets.tes.battle.effects import REGISTRY

        v = self.get(key, [])
        if isinstance(v, dict):
            v = [v]
        if not isinstance(v, list):
            self.err(f"{key} must be a list of effect tables, got {_show(v)}")
            return ()
        out = []
        for i, eff in enumerate(v, 1):
            full, problems = REGISTRY.validate(eff, defaults={"amount": "value"} if die else None)
            for p in problems:
                self.err(f"{key} #{i} {p}")
            if full is not None:
                out.append(full)
        return tuple(out)

    def ability(self, *, die: bool = False) -> tuple[str, tuple[dict, ...], bool]:
        """text, effects, manual (manual forced on when there are no effects)."""
        text = self.text("text")
        effects = self.effects("effects", die=die)
        manual = self.bool("manual", False)
        if not effects and not manual and self.ok:
            manual = True
        return text, effects, manual


def _read_toml(path: Path, rel: str, errors: list[str], required: bool = True) -> dict | None:
    if not path.exists():
        if required:
            errors.append(f"{rel}: file is missing")
        return None
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        errors.append(f"{rel}: not valid TOML: {e}")
    except UnicodeDecodeError as e:
        errors.append(f"{rel}: not UTF-8 text: {e}")
    except OSError as e:
        errors.append(f"{rel}: cannot be read: {e.strerror}")
    return None


def _entries(doc: dict | None, key: str, rel: str, errors: list[str], what: str) -> list[tuple[str, _Entry]]:
    """The ``[[key]]`` array of a file as (id, entry); checks ids and duplicates."""
    if doc is None:
        return []
    for k in doc:
        if k != key:
            errors.append(f'{rel}: unknown top-level key "{k}" (entries are written as [[{key}]] tables)')
    raw = doc.get(key, [])
    if not isinstance(raw, list):
        errors.append(f"{rel}: {key} must be written as [[{key}]] tables")
        return []
    seen: dict[str, int] = {}
    out = []
    for i, data in enumerate(raw, 1):
        ident = data.get("id") if isinstance(data, dict) else None
        if not isinstance(ident, str) or not ID_RE.match(ident):
            label = f"{what} #{i}"
            if ident is None:
                errors.append(f'{rel}, {label}: is missing the field "id"')
            else:
                errors.append(f"{rel}, {label}: id must be lower-case letters, digits and dashes, got {_show(ident)}")
            continue
        label = f'{what} "{ident}"'
        if ident in seen:
            errors.append(f"{rel}, {label}: duplicate id (entry #{seen[ident]} already uses it)")
            continue
        seen[ident] = i
        out.append((ident, _Entry(errors, rel, label, data)))
    return out


# -- pack.toml -------------------------------------------------------------

def _load_meta(folder: Path, errors: list[str]):
    doc = _read_toml(folder / "pack.toml", "pack.toml", errors)
    if doc is None:
        return None
    e = _Entry(errors, "pack.toml", "pack", doc)
    e.unknown_keys(["id", "name", "version", "description", "mat", "enemy_combat_die"])
    ident = e.text("id")
    if ident and not ID_RE.match(ident):
        e.err(f"id must be lower-case letters, digits and dashes, got {_show(ident)}")
    name = e.text("name")
    version = e.get("version", "1")
    if not isinstance(version, (str, int, float)) or isinstance(version, bool):
        e.err(f"version must be a text like \"1.0\", got {_show(version)}")
    description = e.text("description", "", allow_empty=True)

    m = e.sub("mat", "mat", doc.get("mat", {}))
    m.unknown_keys(["rows", "squares_per_row", "left_costs", "right_costs", "cooldown_track_size",
                    "cooldown_stat_costs", "tenacity_max", "saved_xp_max", "active_slots", "ready_slots",
                    "inventory_max"])
    d = MatSpec()
    rows = m.int("rows", 1, 8, d.rows)
    squares = m.int("squares_per_row", 1, 10, d.squares_per_row)

    def costs(key: str) -> tuple[int, ...]:
        v = m.get(key, list(getattr(d, key)))
        if (not isinstance(v, list) or len(v) != squares
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 50 for x in v)):
            m.err(f"{key} must be a list of {squares} whole numbers from 0 to 50 (XP per square), got {_show(v) if not isinstance(v, list) else v}")
            return tuple(getattr(d, key))
        return tuple(v)

    left = costs("left_costs")
    right = costs("right_costs")
    cd_raw = m.get("cooldown_stat_costs", {str(k): v for k, v in d.cooldown_stat_costs.items()})
    cd: dict[int, int] = {}
    if not isinstance(cd_raw, dict):
        m.err("cooldown_stat_costs must be a table of stat value = XP cost")
    else:
        for k, v in cd_raw.items():
            if not str(k).isdigit() or isinstance(v, bool) or not isinstance(v, int) or v < 0:
                m.err(f'cooldown_stat_costs entry "{k}" must map a stat value to a whole XP cost, got {_show(v)}')
                continue
            cd[int(k)] = v
        if cd and sorted(cd) != list(range(1, max(cd) + 1)):
            m.err(f"cooldown_stat_costs must list every stat value from 1 to {max(cd)}, got {sorted(cd)}")
    mat = MatSpec(
        rows=rows,
        squares_per_row=squares,
        left_costs=left,
        right_costs=right,
        cooldown_track_size=m.int("cooldown_track_size", 1, 30, d.cooldown_track_size),
        cooldown_stat_costs=dict(sorted(cd.items())) or d.cooldown_stat_costs,
        tenacity_max=m.int("tenacity_max", 1, 20, d.tenacity_max),
        saved_xp_max=m.int("saved_xp_max", 0, 20, d.saved_xp_max),
        active_slots=m.int("active_slots", 1, 10, d.active_slots),
        ready_slots=m.int("ready_slots", 0, 10, d.ready_slots),
        inventory_max=m.int("inventory_max", 0, 30, d.inventory_max),
    )
    if mat.ready_slots > mat.inventory_max:
        m.err("ready_slots cannot be more than inventory_max")

    faces_raw = e.get("enemy_combat_die")
    faces: list[Face] = []
    if faces_raw is not None:
        if not isinstance(faces_raw, list) or len(faces_raw) != 6:
            e.err(f"enemy_combat_die must list exactly 6 faces, got {len(faces_raw) if isinstance(faces_raw, list) else _show(faces_raw)}")
        else:
            for i, f in enumerate(faces_raw, 1):
                try:
                    face = parse_face(f, ["damage"])
                    if any(r.value is None for r in face.results):
                        raise ValueError(f'face "{f}" needs a number, like "1 damage"')
                    faces.append(face)
                except ValueError as ex:
                    e.err(f"enemy_combat_die face {i}: {ex}")
    return ident, name, str(version), description, mat, tuple(faces)


# -- races -----------------------------------------------------------------

def _ability(parent: _Entry, key: str, label: str, required: bool = True) -> Ability | None:
    if not parent.has(key):
        if required:
            parent.err(f'is missing the table "{key}"')
        return None
    a = parent.sub(key, label)
    a.unknown_keys(["name", "timing", "text", "effects", "manual"])
    name = a.text("name")
    timing = a.choice("timing", TIMINGS)
    text, effects, manual = a.ability()
    return Ability(name, timing or "", text, effects, manual)


def _load_races(folder: Path, errors: list[str]) -> dict[str, Race]:
    doc = _read_toml(folder / "races.toml", "races.toml", errors)
    out: dict[str, Race] = {}
    for rid, e in _entries(doc, "race", "races.toml", errors, "race"):
        e.unknown_keys(["id", "name", "health", "stamina", "magicka", "combat", "cooldown", "ability", "description"])
        race = Race(
            id=rid,
            name=e.text("name"),
            health=e.int("health", 1, 10),
            stamina=e.int("stamina", 0, 6),
            magicka=e.int("magicka", 0, 6),
            combat=e.int("combat", 0, 6),
            cooldown=e.int("cooldown", 1, 6),
            ability=_ability(e, "ability", "ability") or Ability("", "", ""),
            description=e.text("description", "", allow_empty=True),
        )
        if e.ok:
            out[rid] = race
    return out


# -- skill lines -----------------------------------------------------------

def _load_lines(folder: Path, errors: list[str]) -> dict[str, SkillLine]:
    out: dict[str, SkillLine] = {}
    sub = folder / "skill_lines"
    if not sub.is_dir():
        errors.append("skill_lines/: folder is missing (one .toml file per skill line)")
        return out
    die_ids: dict[str, str] = {}
    for path in sorted(sub.glob("*.toml")):
        rel = f"skill_lines/{path.name}"
        doc = _read_toml(path, rel, errors)
        if doc is None:
            continue
        lid = doc.get("id")
        if not isinstance(lid, str) or not ID_RE.match(lid):
            errors.append(f"{rel}: id must be lower-case letters, digits and dashes, got {_show(lid) if lid is not None else 'nothing'}")
            continue
        e = _Entry(errors, rel, f'line "{lid}"', doc)
        if lid in out:
            e.err("duplicate id (another file in skill_lines/ already defines it)")
            continue
        e.unknown_keys(["id", "name", "constellation", "stat", "form", "description", "icons", "die"])
        is_combat = lid == "combat"
        name = e.text("name")
        constellation = e.choice("constellation", CONSTELLATIONS, None)
        if is_combat and constellation:
            e.err("the Combat line has no constellation")
        if not is_combat and constellation is None and "constellation" not in doc:
            e.err(f'is missing the field "constellation" (one of {_quoted(CONSTELLATIONS)})')
        stat = e.choice("stat", STATS)
        form = e.choice("form", BATTLE_FORMS, None)
        description = e.text("description", "", allow_empty=True)

        abilities: dict[str, IconAbility] = {
            "tenacity": IconAbility("tenacity", "I", "Exhaust this die and gain 1 tenacity.",
                                    ({"type": "tenacity", "amount": 1, "target": "self"},), False)
        }
        icons = doc.get("icons", {})
        if not isinstance(icons, dict) or not icons:
            e.err('must define its icons in [icons.<name>] tables')
            icons = {}
        for icon, raw in icons.items():
            ie = _Entry(errors, rel, f'line "{lid}", icon "{icon}"', raw)
            if not ID_RE.match(icon):
                ie.err("icon names must be lower-case letters, digits and dashes")
                continue
            ie.unknown_keys(["code", "text", "effects", "manual", "form_codes"])
            code = ie.choice("code", ABILITY_CODES)
            fc_raw = ie.get("form_codes", {})
            form_codes: dict[str, str] = {}
            if not isinstance(fc_raw, dict):
                ie.err("form_codes must be a table of battle form = code")
            else:
                for f, c in fc_raw.items():
                    if f not in BATTLE_FORMS or c not in ABILITY_CODES:
                        ie.err(f'form_codes entry {f} = {_show(c)} must pair a battle form ({_quoted(BATTLE_FORMS)}) with a code ({_quoted(ABILITY_CODES)})')
                    else:
                        form_codes[f] = c
            text, effects, manual = ie.ability(die=True)
            if ie.ok:
                abilities[icon] = IconAbility(icon, code, text, effects, manual, form_codes)
            else:
                e.ok = False

        dice: list[DieType] = []
        raw_dice = doc.get("die", [])
        if not isinstance(raw_dice, list) or not raw_dice:
            e.err("must define its skill dice as [[die]] tables")
            raw_dice = []
        for i, raw in enumerate(raw_dice, 1):
            did = raw.get("id") if isinstance(raw, dict) else None
            if not isinstance(did, str) or not ID_RE.match(did):
                e.err(f"die #{i}: id must be lower-case letters, digits and dashes, got {_show(did) if did is not None else 'nothing'}")
                continue
            de = _Entry(errors, rel, f'line "{lid}", die "{did}"', raw)
            if did in die_ids:
                de.err(f"duplicate die id (already used in {die_ids[did]})")
                continue
            die_ids[did] = rel
            de.unknown_keys(["id", "name", "level", "count", "faces", "note"])
            level = de.int("level", 1, 1 if is_combat else 4)
            dname = de.text("name")
            count = de.int("count", 1, 50)
            faces_raw = de.get("faces")
            faces: list[Face] = []
            if faces_raw is not None:
                if not isinstance(faces_raw, list) or len(faces_raw) != 6:
                    n = len(faces_raw) if isinstance(faces_raw, list) else _show(faces_raw)
                    de.err(f"faces must list exactly 6 faces, got {n}")
                else:
                    for j, f in enumerate(faces_raw, 1):
                        try:
                            faces.append(parse_face(f, abilities))
                        except ValueError as ex:
                            de.err(f"face {j}: {ex}")
            note = de.text("note", "", allow_empty=True)
            if de.ok:
                dice.append(DieType(did, lid, level, dname, count, tuple(faces), note))
            else:
                e.ok = False
        if is_combat and len(raw_dice) != 1:
            e.err(f"the Combat line must have exactly one die type, got {len(raw_dice)}")
        if not is_combat and dice:
            levels = {d.level for d in dice}
            missing = [lv for lv in (1, 2, 3, 4) if lv not in levels]
            if missing:
                e.err(f"has no die of level {', '.join(map(str, missing))} (each line needs levels 1 to 4)")
        if e.ok:
            out[lid] = SkillLine(lid, name, constellation, stat, form, description, abilities, tuple(dice))
    if "combat" not in out and not any('line "combat"' in x for x in errors):
        errors.append('skill_lines/: the special line "combat" is missing (skill_lines/combat.toml)')
    return out


# -- classes ---------------------------------------------------------------

def _class_ability(e: _Entry, default_id: str | None = None) -> ClassAbility | None:
    e.unknown_keys(["id", "name", "cost", "timing", "keyword", "form", "text", "effects", "manual", "improved"])
    aid = e.get("id", default_id)
    if not isinstance(aid, str) or not ID_RE.match(aid):
        e.err(f"id must be lower-case letters, digits and dashes, got {_show(aid)}")
        return None
    ab = ClassAbility(
        id=aid,
        name=e.text("name"),
        cost=e.int("cost", 1, 5),
        timing=e.choice("timing", TIMINGS) or "",
        keyword=e.choice("keyword", CLASS_KEYWORDS, None),
        form=e.choice("form", BATTLE_FORMS, None),
        text="",
        improved=e.bool("improved", False),
    )
    text, effects, manual = e.ability()
    if not e.ok:
        return None
    return ClassAbility(ab.id, ab.name, ab.cost, ab.timing, ab.keyword, ab.form, text, effects, manual, ab.improved)


def _class_side(ce: _Entry, side: str, base: ClassSide | None) -> ClassSide | None:
    if not ce.has(side):
        ce.err(f'is missing the table "{side}"')
        return None
    se = ce.sub(side, f"{side} side")
    se.unknown_keys(["innate", "ability"])
    innate = _ability(se, "innate", "innate", required=base is None)
    if innate is None and base is not None:
        innate = base.innate
    raw = se.data.get("ability", [])
    if not isinstance(raw, list):
        se.err("abilities must be written as [[class.<side>.ability]] tables")
        raw = []
    abilities: list[ClassAbility] = []
    seen: set[str] = set()
    for i, a in enumerate(raw, 1):
        aid = a.get("id") if isinstance(a, dict) else None
        ae = se.sub("", f'ability "{aid}"' if isinstance(aid, str) else f"ability #{i}", a)
        ab = _class_ability(ae)
        if ab is None:
            se.ok = False
            continue
        if ab.id in seen:
            ae.err("duplicate ability id on this side")
            continue
        seen.add(ab.id)
        abilities.append(ab)
    if base is not None:
        # The master side lists only what changes; the rest is copied from the novice side.
        merged = []
        by_id = {a.id: a for a in abilities}
        for a in base.abilities:
            merged.append(by_id.pop(a.id, a))
        merged.extend(by_id.values())
        abilities = merged
    elif not 3 <= len(abilities) <= 5:
        se.err(f"must have 3 to 5 tenacity abilities, got {len(abilities)}")
    if not se.ok or innate is None:
        ce.ok = False
        return None
    return ClassSide(innate, tuple(abilities))


def _load_classes(folder: Path, errors: list[str]) -> dict[str, ClassDef]:
    doc = _read_toml(folder / "classes.toml", "classes.toml", errors)
    out: dict[str, ClassDef] = {}
    for cid, e in _entries(doc, "class", "classes.toml", errors, "class"):
        e.unknown_keys(["id", "name", "description", "promotion", "novice", "master", "expansion_only"])
        name = e.text("name")
        description = e.text("description", "", allow_empty=True)
        promotion = e.text("promotion")
        expansion_only = e.bool("expansion_only", False)
        novice = _class_side(e, "novice", None)
        master = _class_side(e, "master", novice) if novice else None
        if e.ok and novice and master:
            out[cid] = ClassDef(cid, name, description, promotion, novice, master, expansion_only)
    return out


# -- enemies ---------------------------------------------------------------

_SKILL_REF_RE = re.compile(r"^([a-z0-9][a-z0-9-]*)(?:\s+(\d+))?$")


def _load_enemies(folder: Path, errors: list[str]) -> tuple[dict[str, Enemy], dict[str, EnemySkill]]:
    rel = "enemies.toml"
    doc = _read_toml(folder / rel, rel, errors)
    skills: dict[str, EnemySkill] = {}
    enemies: dict[str, Enemy] = {}
    if doc is None:
        return enemies, skills
    skill_doc = {"skill": doc.get("skill", [])}
    enemy_doc = {"enemy": doc.get("enemy", [])}
    for k in doc:
        if k not in ("skill", "enemy"):
            errors.append(f'{rel}: unknown top-level key "{k}" (use [[skill]] and [[enemy]] tables)')
    for sid, e in _entries(skill_doc, "skill", rel, errors, "skill"):
        e.unknown_keys(["id", "name", "timing", "text", "effects", "manual", "numbered"])
        name = e.text("name")
        timing = e.choice("timing", TIMINGS) or ""
        numbered = e.bool("numbered", False)
        text, effects, manual = e.ability(die=True)
        if e.ok:
            skills[sid] = EnemySkill(sid, name, 0 if numbered else None, timing, text, effects, manual)
    chips: dict[str, list[tuple[str, int]]] = {}
    for eid, e in _entries(enemy_doc, "enemy", rel, errors, "enemy"):
        e.unknown_keys(["id", "name", "level", "chip", "type", "province", "health", "defense", "combat", "range",
                        "targets", "priority", "movement", "skills", "traits", "quest_unit", "xp", "description"])
        quest_unit = e.bool("quest_unit", False)
        level = 0
        if quest_unit:
            if e.has("level"):
                e.err("a quest unit has no level; remove the level field")
        else:
            level = e.choice("level", ENEMY_LEVELS) or 0
        chip = e.text("chip", eid)
        province = e.opt_text("province")
        if province is not None and not re.match(r"^[A-Z]{2}$", province):
            e.err(f"province must be a two-letter code like \"VW\", got {_show(province)}")
        targets = _targets(e)
        enemy_skills: list[EnemySkill] = []
        for ref in e.str_list("skills"):
            m = _SKILL_REF_RE.match(ref.strip().lower())
            if not m or m.group(1) not in skills:
                if m and not any(f'skill "{m.group(1)}"' in x for x in errors):
                    e.err(f'skills names "{ref}", but enemies.toml defines no skill "{m.group(1)}"')
                elif not m:
                    e.err(f'skills entry "{ref}" should look like "dodge" or "enfeeble 1"')
                continue
            base = skills[m.group(1)]
            value = int(m.group(2)) if m.group(2) else None
            if base.value is not None and value is None:
                e.err(f'skill "{base.id}" needs a number, like "{base.id} 1"')
                continue
            if base.value is None and value is not None:
                e.err(f'skill "{base.id}" takes no number, got "{ref}"')
                continue
            enemy_skills.append(EnemySkill(base.id, base.name, value, base.timing, base.text, base.effects, base.manual))
        enemy = Enemy(
            id=eid,
            name=e.text("name"),
            level=level,
            chip=chip,
            bag="quest" if quest_unit else BAG_OF_LEVEL.get(level, ""),
            type=e.choice("type", ENEMY_TYPES) or "",
            province=province,
            health=e.int("health", 1, 60),
            defense=e.int("defense", 0, 10, 0),
            combat=e.int("combat", 0, 10),
            range=e.int("range", 1, 10),
            targets=targets,
            priority=e.choice("priority", ENEMY_PRIORITIES) or "",
            movement=e.int("movement", 0, 10, 2),
            skills=tuple(enemy_skills),
            traits=e.str_list("traits"),
            quest_unit=quest_unit,
            xp=e.int("xp", 0, 100, None) if e.has("xp") else None,
            description=e.text("description", "", allow_empty=True),
        )
        if e.ok:
            enemies[eid] = enemy
            chips.setdefault(chip, []).append((eid, level))
    for chip, sides in chips.items():
        if any(enemies[s[0]].quest_unit for s in sides):
            if len(sides) > 2:
                errors.append(f'{rel}, chip "{chip}": a chip has at most 2 sides, got {len(sides)}')
            continue
        levels = sorted(lv for _, lv in sides)
        label = f'{rel}, chip "{chip}"'
        if len(sides) != 2:
            errors.append(f"{label}: a chip needs exactly 2 sides (level 1 with 5, or 10 with 20), got "
                          + ", ".join(f'"{s}" (level {lv})' for s, lv in sides))
        elif levels not in ([1, 5], [10, 20]):
            errors.append(f"{label}: its sides must be levels 1 and 5, or 10 and 20, got {levels[0]} and {levels[1]}")
    return enemies, skills


# -- companions ------------------------------------------------------------

def _load_companions(folder: Path, errors: list[str], skills: dict[str, EnemySkill]) -> dict[str, Companion]:
    """companions.toml is optional: [[companion]] stat blocks using the enemy skills of enemies.toml."""
    rel = "companions.toml"
    doc = _read_toml(folder / rel, rel, errors, required=False)
    out: dict[str, Companion] = {}
    if doc is None:
        return out
    for cid, e in _entries(doc, "companion", rel, errors, "companion"):
        e.unknown_keys(["id", "name", "health", "defense", "combat", "range", "targets", "skills", "traits",
                        "description"])
        targets = _targets(e)
        own: list[EnemySkill] = []
        for ref in e.str_list("skills"):
            m = _SKILL_REF_RE.match(ref.strip().lower())
            base = skills.get(m.group(1)) if m else None
            if base is None:
                e.err(f'skills names "{ref}", but enemies.toml defines no such skill (write "dodge" or "enfeeble 1")')
                continue
            value = int(m.group(2)) if m.group(2) else None
            if (base.value is not None) != (value is not None):
                e.err(f'skill "{base.id}" ' + ("needs a number" if value is None else "takes no number"))
                continue
            own.append(EnemySkill(base.id, base.name, value, base.timing, base.text, base.effects, base.manual))
        comp = Companion(cid, e.text("name"), e.int("health", 1, 60), e.int("defense", 0, 10, 0),
                         e.int("combat", 0, 10), e.int("range", 1, 10), targets, tuple(own), e.str_list("traits"),
                         e.text("description", "", allow_empty=True))
        if e.ok:
            out[cid] = comp
    return out


def _check_companion_refs(errors: list[str], companions: dict[str, Companion], items: dict[str, Item],
                          encounters: dict[str, Encounter]) -> None:
    def refs(effects) -> list[str]:
        return [e.get("companion") for e in effects if e.get("type") == "companion"]

    for it in items.values():
        for cid in refs(it.effects) + refs(it.overtax_effects):
            if cid not in companions:
                errors.append(f'items.toml, item "{it.id}": names companion "{cid}", which companions.toml '
                              "does not define")
    for enc in encounters.values():
        named = list(enc.companions) + [x for t in enc.triggers for x in refs(t.effects)]
        for cid in named:
            if cid not in companions:
                errors.append(f'encounters.toml, encounter "{enc.id}": names companion "{cid}", which '
                              "companions.toml does not define")


# -- items -----------------------------------------------------------------

def _load_items(folder: Path, errors: list[str]) -> dict[str, Item]:
    rel = "items.toml"
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Item] = {}
    for iid, e in _entries(doc, "item", rel, errors, "item"):
        e.unknown_keys(["id", "name", "rarity", "subtype", "forms", "traits", "keyword", "text", "effects",
                        "manual", "overtax_text", "overtax_effects", "lockpick", "timing"])
        rarity = e.choice("rarity", ITEM_RARITIES)
        subtype = e.choice("subtype", ITEM_SUBTYPES)
        forms = e.str_list("forms", BATTLE_FORMS)
        traits = e.str_list("traits")
        keyword = e.choice("keyword", ITEM_KEYWORDS, None)
        timing = e.choice("timing", TIMINGS, "your turn")
        text, effects, manual = e.ability()
        overtax_text = e.text("overtax_text", "", allow_empty=True)
        overtax_effects = e.effects("overtax_effects")
        if keyword == "overtax" and not overtax_text:
            e.err('has keyword "overtax" but no overtax_text')
        if overtax_text and keyword != "overtax":
            e.err('has overtax_text but its keyword is not "overtax"')
        if subtype == "armor" and len(traits) < 1:
            e.err("armor needs a trait naming its body area (for example \"head\" or \"chest\")")
        if subtype == "weapon" and not forms:
            e.err("a weapon needs at least one battle form in forms")
        if subtype == "potion" and keyword != "expend":
            e.err('a potion must have keyword "expend"')
        lock = e.text("lockpick")
        attempts, code, keys = 0, (), ()
        m = re.match(r"^(\d+)\s*:\s*([1-6]\*?(?:-[1-6]\*?){2,})$", lock.replace(" ", "")) if lock else None
        if lock and not m:
            e.err(f'lockpick must look like "3: 5-2-2" (attempts: digits 1-6, a * after a key digit), got {_show(lock)}')
        elif m:
            attempts = int(m.group(1))
            parts = m.group(2).split("-")
            code = tuple(int(p[0]) for p in parts)
            keys = tuple(i for i, p in enumerate(parts) if p.endswith("*"))
            if not 1 <= attempts <= 9:
                e.err(f"lockpick attempts must be from 1 to 9, got {attempts}")
        if e.ok:
            out[iid] = Item(iid, e.text("name"), rarity, subtype, forms, traits, keyword, text, overtax_text,
                            effects, overtax_effects, manual, attempts, code, keys, timing or "your turn")
    return out


# -- tiles -----------------------------------------------------------------

def _load_tiles(folder: Path, errors: list[str]) -> dict[str, Tile]:
    rel = "tiles.toml"
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Tile] = {}
    for tid, e in _entries(doc, "tile", rel, errors, "tile"):
        e.unknown_keys(["id", "name", "kind", "map", "description"])
        name = e.text("name")
        kind = e.choice("kind", TILE_KINDS)
        drawing = e.text("map")
        cells = parse_hex_map(drawing) if drawing else {}
        if drawing and not cells:
            e.err("map draws no hexes")
        hexes, imp, esc = [], [], []
        slots: dict[int, Hex] = {}
        caches: dict[Hex, str] = {}
        labels: dict[str, Hex] = {}
        for h, tok in cells.items():
            hexes.append(h)
            if tok == ".":
                continue
            if tok == "#":
                imp.append(h)
            elif tok == "c":
                caches[h] = "common"
            elif tok == "l":
                caches[h] = "legendary"
            elif tok == "x":
                esc.append(h)
            elif tok.isdigit():
                n = int(tok)
                if n in slots:
                    e.err(f"map marks enemy hex {n} twice")
                slots[n] = h
            elif re.match(r"^[A-Z]$", tok):
                if tok in labels:
                    e.err(f"map marks hex {tok} twice")
                labels[tok] = h
            else:
                e.err(f'map has an unknown mark "{tok}" in row {h[1] + 1} (use . # c l x _ digits or A-Z)')
        if slots and sorted(slots) != list(range(1, len(slots) + 1)):
            e.err(f"enemy hexes must be numbered 1 to {len(slots)} without gaps, got {sorted(slots)}")
        if kind == "entrance" and (slots or caches):
            e.err("an entrance tile cannot hold enemy hexes or caches")
        if e.ok:
            out[tid] = Tile(tid, name, kind, tuple(sorted(hexes, key=lambda h: (h[1], h[0]))), tuple(sorted(imp)),
                            dict(sorted(slots.items())), caches, tuple(sorted(esc)), labels,
                            e.text("description", "", allow_empty=True))
    return out


# -- encounters ------------------------------------------------------------

def _trigger(e: _Entry, default_timing: str | None = None) -> Trigger | None:
    e.unknown_keys(["timing", "text", "effects", "manual"])
    timing = e.choice("timing", TRIGGER_TIMINGS, default_timing) if default_timing else e.choice("timing", TRIGGER_TIMINGS)
    text, effects, manual = e.ability()
    return Trigger(timing or "", text, effects, manual) if e.ok else None


def _load_encounters(folder: Path, errors: list[str], tiles: dict[str, Tile], enemies: dict[str, Enemy],
                     classes: dict[str, ClassDef], tiles_ok: bool, enemies_ok: bool, classes_ok: bool) -> dict[str, Encounter]:
    rel = "encounters.toml"
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Encounter] = {}
    for xid, e in _entries(doc, "encounter", rel, errors, "encounter"):
        e.unknown_keys(["id", "name", "mode", "description", "tiles", "enemies", "objective", "challenge",
                        "triggers", "special_rules", "achievements", "rewards", "xp_dial", "companions"])
        name = e.text("name")
        mode = e.choice("mode", ENCOUNTER_MODES)
        description = e.text("description", "", allow_empty=True)
        xp_dial = e.int("xp_dial", 1, 99, None) if e.has("xp_dial") else None
        # tiles
        placements: list[TilePlacement] = []
        raw_tiles = e.get("tiles")
        if raw_tiles is not None and (not isinstance(raw_tiles, list) or not raw_tiles):
            e.err("tiles must be a list of { tile = ..., offset = [q, r], rotation = 0-5 }")
            raw_tiles = []
        for i, rt in enumerate(raw_tiles or [], 1):
            te = e.sub("", f"tiles #{i}", rt)
            te.unknown_keys(["tile", "offset", "rotation"])
            tid = te.text("tile")
            off = te.hex("offset", te.get("offset", [0, 0]))
            rot = te.int("rotation", 0, 5, 0)
            if tid and tid not in tiles:
                if tiles_ok:
                    te.err(f'names tile "{tid}", which tiles.toml does not define')
                else:
                    te.ok = False
            if te.ok and off is not None:
                placements.append(TilePlacement(tid, off, rot))
            else:
                e.ok = False
        if e.ok and placements:
            seen: dict[Hex, str] = {}
            for p in placements:
                for h in tiles[p.tile].hexes:
                    w = place_hex(h, p)
                    if w in seen:
                        e.err(f'tiles "{seen[w]}" and "{p.tile}" overlap at hex {list(w)}')
                        break
                    seen[w] = p.tile
            kinds = [tiles[p.tile].kind for p in placements]
            if mode == "clash" and ("clash" not in kinds or "entrance" not in kinds):
                e.err("a clash needs one clash tile and one entrance tile")
            if e.ok:
                bm = assemble_map(tiles, placements)
                if bm.entrance and not any(n in bm.hexes and n not in bm.entrance for h in bm.entrance for n in neighbors(h)):
                    e.err("the entrance tile does not touch the other tiles; check offset and rotation")
        # enemies
        ee = e.sub("enemies", "enemies")
        ee.unknown_keys(["rule", "bag", "per_adventurer", "named", "required"])
        rule = ee.choice("rule", ("pool", "bag"))
        bag = ee.str_list("bag")
        per_adv = ee.int("per_adventurer", 1, 6, None) if ee.has("per_adventurer") else None
        named = ee.str_list("named")
        required = ee.str_list("required")
        if rule == "bag" and not bag:
            ee.err('rule "bag" needs a bag list of enemy ids')
        if rule == "pool" and bag:
            ee.err('rule "pool" draws from the whole bag; remove the bag list or use rule = "bag"')
        for field_name, ids in (("bag", bag), ("named", named), ("required", required)):
            for x in ids:
                if x not in enemies and enemies_ok:
                    ee.err(f'{field_name} names enemy "{x}", which enemies.toml does not define')
        if not ee.ok:
            e.ok = False
        # objective
        oe = e.sub("objective", "objective")
        otype = oe.choice("type", OBJECTIVES)
        oparams = {k: v for k, v in oe.data.items() if k != "type"}
        if otype == "eliminate":
            units = oparams.get("units")
            if not isinstance(units, list) or not units:
                oe.err('"eliminate" needs units = [enemy ids]')
            else:
                for u in units:
                    if u not in enemies and enemies_ok:
                        oe.err(f'units names enemy "{u}", which enemies.toml does not define')
        for k in oparams:
            if k not in ("units", "text", "escape_at"):
                oe.err(f'has an unknown field "{k}" (allowed: "type", "units", "text", "escape_at")')
        if otype == "escape-or-eliminate-all" and e.ok and placements:
            if not assemble_map(tiles, placements).escape:
                oe.err("an escape objective needs escape hexes (x) on a tile")
        if not oe.ok:
            e.ok = False
        challenge = _trigger(e.sub("challenge", "challenge"), "start of battle") if e.has("challenge") else None
        triggers = []
        raw_tr = e.get("triggers", [])
        for i, tr in enumerate(raw_tr if isinstance(raw_tr, list) else [], 1):
            t = _trigger(e.sub("", f"triggers #{i}", tr))
            if t:
                triggers.append(t)
            else:
                e.ok = False
        special = e.text("special_rules", "", allow_empty=True)
        # achievements and class rewards
        achievements: list[Achievement] = []
        raw_ach = e.get("achievements", [])
        ach_ids: set[str] = set()
        for i, a in enumerate(raw_ach if isinstance(raw_ach, list) else [], 1):
            ae = e.sub("", f"achievements #{i}", a)
            ae.unknown_keys(["id", "label"])
            aid, label = ae.text("id"), ae.text("label")
            if aid in ach_ids:
                ae.err(f'duplicate achievement id "{aid}"')
            ach_ids.add(aid)
            if ae.ok:
                achievements.append(Achievement(aid, label))
            else:
                e.ok = False
        rewards: dict[str, tuple[ClassReward, ...]] = {}
        raw_rw = e.get("rewards", {})
        if not isinstance(raw_rw, dict):
            e.err("rewards must be a table of achievement id = { classes = [...], expansion = [...] }")
            raw_rw = {}
        for aid, rw in raw_rw.items():
            re_ = e.sub("", f'rewards "{aid}"', rw)
            re_.unknown_keys(["classes", "expansion"])
            if aid not in ach_ids:
                re_.err("is not one of this encounter's achievements")
            cls = re_.str_list("classes")
            exp = re_.str_list("expansion")
            lst: list[ClassReward] = []
            for c in cls:
                if c not in classes:
                    if classes_ok:
                        re_.err(f'names class "{c}", which classes.toml does not define')
                    else:
                        re_.ok = False
                else:
                    lst.append(ClassReward(classes[c].name, c, classes[c].expansion_only))
            lst.extend(ClassReward(n, None, True) for n in exp)
            if re_.ok:
                rewards[aid] = tuple(lst)
            else:
                e.ok = False
        if e.ok:
            companions = e.str_list("companions")
            out[xid] = Encounter(xid, name, mode, description, tuple(placements), rule or "pool", bag, per_adv,
                                 xp_dial, named, required, challenge, otype or "conquer", oparams, tuple(triggers),
                                 special, tuple(achievements), rewards, companions)
    return out


# -- quests ----------------------------------------------------------------

def _load_quests(folder: Path, errors: list[str], encounters: dict[str, Encounter], enc_ok: bool) -> dict[str, Quest]:
    rel = "quests.toml"
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, Quest] = {}
    for qid, e in _entries(doc, "quest", rel, errors, "quest"):
        e.unknown_keys(["id", "name", "text", "step"])
        name, text = e.text("name"), e.text("text")
        steps: list[QuestStep] = []
        raw = e.get("step", [])
        if not isinstance(raw, list) or not raw:
            e.err("needs at least one [[quest.step]]")
            raw = []
        for i, s in enumerate(raw, 1):
            se = e.sub("", f"step #{i}", s)
            se.unknown_keys(["id", "text", "encounter", "reward"])
            sid = se.text("id", f"step-{i}")
            enc = se.opt_text("encounter")
            if enc and enc not in encounters and enc_ok:
                se.err(f'names encounter "{enc}", which encounters.toml does not define')
            steps.append(QuestStep(sid, se.text("text"), enc, se.text("reward", "", allow_empty=True)))
            if not se.ok:
                e.ok = False
        if e.ok:
            out[qid] = Quest(qid, name, text, tuple(steps))
    return out


# -- the whole pack --------------------------------------------------------

def _count_errors(errors: list[str], prefix: str, start: int) -> bool:
    return not any(x.startswith(prefix) for x in errors[start:])


def _load_folder(folder: Path) -> Pack:
    errors: list[str] = []
    if not folder.is_dir():
        raise ContentError([f"{folder.name}: not a folder"])
    meta = _load_meta(folder, errors)
    races = _load_races(folder, errors)
    lines = _load_lines(folder, errors)
    n = len(errors)
    classes = _load_classes(folder, errors)
    classes_ok = _count_errors(errors, "classes.toml", n)
    n = len(errors)
    enemies, enemy_skills = _load_enemies(folder, errors)
    enemies_ok = _count_errors(errors, "enemies.toml", n)
    companions = _load_companions(folder, errors, enemy_skills)
    items = _load_items(folder, errors)
    n = len(errors)
    tiles = _load_tiles(folder, errors)
    tiles_ok = _count_errors(errors, "tiles.toml", n)
    n = len(errors)
    encounters = _load_encounters(folder, errors, tiles, enemies, classes, tiles_ok, enemies_ok, classes_ok)
    enc_ok = _count_errors(errors, "encounters.toml", n)
    quests = _load_quests(folder, errors, encounters, enc_ok)
    _check_companion_refs(errors, companions, items, encounters)
    if meta is not None and not meta[5] and not any(x.startswith("pack.toml") for x in errors):
        errors.append('pack.toml, pack: is missing the field "enemy_combat_die"')
    if errors or meta is None:
        raise ContentError(errors or ["pack.toml: could not be read"])
    ident, name, version, description, mat, enemy_die = meta
    return Pack(ident, name, version, description, folder, races, lines, classes, enemies, items, tiles,
                encounters, quests, mat, enemy_die, enemy_skills, companions)


_CACHE: dict[Path, tuple[float, Pack]] = {}


def _stamp(folder: Path) -> float:
    stamp = 0.0
    try:
        stamp = folder.stat().st_mtime
        for root, _dirs, files in os.walk(folder):
            stamp = max(stamp, os.stat(root).st_mtime)
            for f in files:
                if f.endswith(".toml"):
                    stamp = max(stamp, os.stat(os.path.join(root, f)).st_mtime)
    except OSError:
        pass
    return stamp


def resolve_pack_path(name_or_path: str) -> Path:
    """A shipped pack id (folder under content/) or a path to a pack folder."""
    s = str(name_or_path or DEFAULT_PACK).strip()
    if ID_RE.match(s) and (CONTENT_DIR / s).is_dir():
        return (CONTENT_DIR / s).resolve()
    p = Path(s).expanduser()
    if p.is_dir():
        return p.resolve()
    if p.is_file() and p.name == "pack.toml":
        return p.parent.resolve()
    shipped = list_packs()
    raise ContentError([f'no content pack "{s}": not a shipped pack ({_quoted(shipped) or "none"}) and not a folder'])


def load_pack(name_or_path: str = DEFAULT_PACK) -> Pack:
    """Load and check a pack; raises :class:`ContentError` listing every problem.

    Results are cached by folder and modification time, so calling this often is cheap.
    """
    folder = resolve_pack_path(name_or_path)
    stamp = _stamp(folder)
    hit = _CACHE.get(folder)
    if hit and hit[0] == stamp:
        return hit[1]
    pack = _load_folder(folder)
    _CACHE[folder] = (stamp, pack)
    return pack


def list_packs() -> list[str]:
    """Ids of the packs shipped in content/ (folders holding a pack.toml)."""
    if not CONTENT_DIR.is_dir():
        return []
    return sorted(p.name for p in CONTENT_DIR.iterdir() if (p / "pack.toml").is_file())


def clear_cache() -> None:
    _CACHE.clear()


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: python -m rulesets.tes.content validate <pack-id-or-folder>\n       python -m rulesets.tes.content list"
    if not argv or argv[0] in ("-h", "--help"):
        print(usage)
        return 0 if argv else 2
    cmd = argv[0]
    if cmd == "list":
        for pid in list_packs():
            print(pid)
        return 0
    if cmd == "validate":
        target = argv[1] if len(argv) > 1 else DEFAULT_PACK
        try:
            pack = load_pack(target)
        except ContentError as e:
            print(f"{target}: {len(e.errors)} problem(s)")
            for line in e.errors:
                print(f"  - {line}")
            return 1
        n_dice = sum(len(line.dice) for line in pack.lines.values())
        print(f"OK: {pack.name} ({pack.id} {pack.version}): {len(pack.races)} races, {len(pack.lines)} skill lines, "
              f"{n_dice} die types, {len(pack.classes)} classes, {len(pack.enemies)} enemies, {len(pack.items)} items, "
              f"{len(pack.tiles)} tiles, {len(pack.encounters)} encounters, {len(pack.quests)} quests")
        return 0
    print(usage)
    return 2



def _targets(e) -> int | None:
    """An enemy's or companion's ``targets``: 1 to 6, or "all" (None)."""
    raw = e.get("targets", 1)
    if raw == "all":
        return None
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 6:
        return raw
    e.err(f'targets must be a whole number from 1 to 6 or "all", got {_show(raw)}')
    return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

