"""The engage ruleset's content pack: its schema and loader.

A pack is a folder ``content/<id>/`` holding ``pack.toml`` (title, version, points limit, rounds, the highest
Jump Down), ``units.toml`` (unit types), ``spells.toml`` and ``map.toml`` (the battlefield: heights, walls,
ladders, deployment rows).  ``load_pack`` reads and checks it; every problem is reported at once as a
``ContentError`` whose lines name the file, the entry and the field.

The rule text the bot shows for a unit type or a spell is written here from its numbers (``UnitType.text``,
``Spell.text``), so a text never promises what the rules do not do.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.packs import ContentError, Packs
from engine.hexes import Hex, from_odd_r
from engine.text import a_or_an, count

DEFAULT_PACK = "engage"
ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")  # an id the pack gives a unit type or a spell
EFFECTS = ("harm", "daze", "stun", "heal", "steady")
TARGETS = ("enemy", "ally")
MIN_UNIT_TYPES = 8


@dataclass(frozen=True)
class Spell:
    id: str
    name: str
    effect: str
    target: str
    range: int
    difficulty: int = 0
    amount: int = 0

    @property
    def text(self) -> str:
        what = {"harm": f"the enemy loses {count(self.amount, 'wound')} (armour does not help)",
                "daze": "the enemy is Dazed until the end of its player's next turn",
                "stun": "the enemy is Stunned until the end of its player's next turn",
                "heal": f"the ally gets back {count(self.amount, 'wound')}",
                "steady": "the ally is no longer Staggered"}[self.effect]
        check = "the cast check" + (f" at -{self.difficulty}" if self.difficulty else "")
        who = "an enemy" if self.target == "enemy" else "an ally (or the caster)"
        return f"Range {self.range} in, {who} in sight. On {check}, {what}."


@dataclass(frozen=True)
class UnitType:
    id: str
    name: str
    points: int
    move: int
    fight: int
    agility: int
    morale: int
    wounds: int
    shoot: int = 0
    range: int = 0
    armour: int = 0
    cast: int = 0
    attacks: int = 1
    fear: bool = False
    jump_down: bool = False
    spells: tuple[str, ...] = ()
    blurb: str = ""

    @property
    def run(self) -> str:
        """The Run speed, 1.5 x Move, in inches (as a player reads it: 7.5)."""
        return half_inches(3 * self.move)

    @property
    def text(self) -> str:
        parts = [f"Move {self.move} in (Run {self.run}), Fight {self.fight}, Armour {self.armour}, "
                 f"Agility {self.agility}, Morale {self.morale}, Wounds {self.wounds}"]
        if self.attacks != 1:
            parts.append(f"{self.attacks} melee attacks")
        if self.shoot:
            parts.append(f"Shoot {self.shoot} at up to {self.range} in")
        if self.cast:
            parts.append(f"Cast {self.cast}")
        if self.fear:
            parts.append("causes Fear")
        if self.jump_down:
            parts.append("can Jump Down")
        return ", ".join(parts) + "."


def half_inches(halves: int) -> str:
    """A distance kept in half inches, as a player reads it: 15 -> "7.5", 10 -> "5"."""
    return str(halves // 2) + (".5" if halves % 2 else "")


@dataclass
class BattleMap:
    name: str
    width: int
    height: int
    heights: dict[Hex, int]  # every hex of the map that is not a wall
    walls: frozenset[Hex]
    ladders: frozenset[frozenset[Hex]]
    zones: dict[str, frozenset[Hex]]
    cells: tuple[tuple[int, int, Hex], ...] = ()  # (column, row, hex) of every hex, walls included

    def on_map(self, h: Hex) -> bool:
        return h in self.heights or h in self.walls


@dataclass
class Pack:
    id: str
    title: str
    version: str
    points: int
    rounds: int
    max_drop: int
    units: dict[str, UnitType] = field(default_factory=dict)
    spells: dict[str, Spell] = field(default_factory=dict)
    map: BattleMap | None = None

    def unit(self, type_id: str) -> UnitType:
        return self.units[type_id]


def _read(path: Path, errors: list[str]) -> dict[str, Any]:
    if not path.exists():
        errors.append(f"{path.name}: the file is missing")
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        errors.append(f"{path.name}: not valid TOML ({exc})")
        return {}


def _int(d: dict, key: str, where: str, errors: list[str], lo: int = 0, hi: int = 10_000, default=None) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        errors.append(f"{where}: `{key}` must be a whole number from {lo} to {hi} (found {v!r})")
        return lo
    return v


def _bool(d: dict, key: str, where: str, errors: list[str]) -> bool:
    v = d.get(key, False)
    if not isinstance(v, bool):
        errors.append(f"{where}: `{key}` must be true or false (found {v!r})")
        return False
    return v


def _spells(folder: Path, pack: Pack, errors: list[str]) -> None:
    for s in _read(folder / "spells.toml", errors).get("spell", []):
        sid = str(s.get("id") or "")
        where = f"spells.toml {sid or '?'}"
        if not ID.fullmatch(sid) or sid in pack.spells:
            errors.append(f"{where}: `id` is empty, repeated or not lower-case letters, digits and dashes")
            continue
        effect, target = s.get("effect"), s.get("target")
        if effect not in EFFECTS:
            errors.append(f"{where}: `effect` must be one of {', '.join(EFFECTS)} (found {effect!r})")
        if target not in TARGETS:
            errors.append(f"{where}: `target` must be one of {', '.join(TARGETS)} (found {target!r})")
        else:
            wants = "enemy" if effect in ("harm", "daze", "stun") else "ally"
            if effect in EFFECTS and target != wants:
                errors.append(f"{where}: {a_or_an(effect + ' spell')} targets an {wants}")
        amount = _int(s, "amount", where, errors, 1, 5) if effect in ("harm", "heal") else 0
        pack.spells[sid] = Spell(sid, str(s.get("name") or sid), str(effect), str(target),
                                 _int(s, "range", where, errors, 1, 30),
                                 _int(s, "difficulty", where, errors, 0, 10, default=0), amount)


def _units(folder: Path, pack: Pack, errors: list[str]) -> None:
    for u in _read(folder / "units.toml", errors).get("unit", []):
        uid = str(u.get("id") or "")
        where = f"units.toml {uid or '?'}"
        if not ID.fullmatch(uid) or uid in pack.units:
            errors.append(f"{where}: `id` is empty, repeated or not lower-case letters, digits and dashes")
            continue
        spells = u.get("spells", [])
        if not isinstance(spells, list) or any(s not in pack.spells for s in spells):
            errors.append(f"{where}: `spells` must list spells of spells.toml (found {spells!r})")
            spells = []
        shoot = _int(u, "shoot", where, errors, 0, 20, default=0)
        rng = _int(u, "range", where, errors, 0, 30, default=0)
        if bool(shoot) != bool(rng):
            errors.append(f"{where}: a unit that shoots needs both `shoot` and `range` (or neither)")
        cast = _int(u, "cast", where, errors, 0, 20, default=0)
        if bool(cast) != bool(spells):
            errors.append(f"{where}: a caster needs both `cast` and `spells` (or neither)")
        blurb = u.get("blurb", "")
        if not isinstance(blurb, str) or len(blurb) > 200:
            errors.append(f"{where}: `blurb` must be text of at most 200 characters")
            blurb = ""
        pack.units[uid] = UnitType(
            uid, str(u.get("name") or uid), _int(u, "points", where, errors, 1, 500),
            _int(u, "move", where, errors, 1, 12), _int(u, "fight", where, errors, 1, 20),
            _int(u, "agility", where, errors, 1, 20), _int(u, "morale", where, errors, 1, 20),
            _int(u, "wounds", where, errors, 1, 20), shoot, rng, _int(u, "armour", where, errors, 0, 10, default=0),
            cast, _int(u, "attacks", where, errors, 1, 4, default=1), _bool(u, "fear", where, errors),
            _bool(u, "jump_down", where, errors), tuple(spells), blurb)
    if len(pack.units) < MIN_UNIT_TYPES:
        errors.append(f"units.toml: a pack needs at least {MIN_UNIT_TYPES} unit types (found {len(pack.units)})")


def _map(folder: Path, pack: Pack, errors: list[str]) -> None:
    data = _read(folder / "map.toml", errors)
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        errors.append("map.toml: `rows` must be a list of text rows, one token a hex")
        return
    grid = [r.split() for r in rows]
    width = len(grid[0])
    if not 4 <= width <= 16 or not 4 <= len(grid) <= 20:
        errors.append(f"map.toml: the map must be 4 to 16 hexes wide and 4 to 20 rows tall "
                      f"(found {width} x {len(grid)})")
    heights: dict[Hex, int] = {}
    walls: set[Hex] = set()
    cells = []
    for row, tokens in enumerate(grid):
        if len(tokens) != width:
            errors.append(f"map.toml: row {row + 1} has {count(len(tokens), 'hex')}; every row needs {width}")
        for col, tok in enumerate(tokens):
            h = from_odd_r(col, row)
            cells.append((col, row, h))
            if tok == "#":
                walls.add(h)
            elif tok.isdigit() and 0 <= int(tok) <= 9:
                heights[h] = int(tok)
            else:
                errors.append(f"map.toml: row {row + 1}, hex {col + 1} is {tok!r}: use a height 0-9 or # for a wall")
    ladders: set[frozenset[Hex]] = set()
    for pair in data.get("ladders", []):
        where = f"map.toml ladder {pair!r}"
        try:
            a, b = (Hex.parse(str(x)) for x in pair)
        except (ValueError, TypeError):
            errors.append(f"{where}: a ladder is two hexes written \"q,r\"")
            continue
        if a not in heights or b not in heights:
            errors.append(f"{where}: both ends must be hexes of the map that are not walls")
        elif sum(abs(x) for x in (a.q - b.q, a.r - b.r, (a.q + a.r) - (b.q + b.r))) != 2:
            errors.append(f"{where}: the two hexes must be neighbours")
        elif heights[a] == heights[b]:
            errors.append(f"{where}: a ladder joins two heights; both hexes are {heights[a]} in high")
        else:
            ladders.add(frozenset((a, b)))
    zones: dict[str, frozenset[Hex]] = {}
    zdata = data.get("zones") or {}
    for side in ("a", "b"):
        zrows = zdata.get(side)
        if not isinstance(zrows, list) or not zrows or not all(isinstance(r, int) and 0 <= r < len(grid)
                                                               for r in zrows):
            errors.append(f"map.toml [zones]: `{side}` must list the rows (0 to {len(grid) - 1}) side {side} "
                          "deploys on")
            zones[side] = frozenset()
            continue
        zones[side] = frozenset(h for c, r, h in cells if r in zrows and h in heights)
    pack.map = BattleMap(str(data.get("name") or pack.title), width, len(grid), heights, frozenset(walls),
                         frozenset(ladders), zones, tuple(cells))


def parse_pack(folder: Path) -> Pack:
    errors: list[str] = []
    if not folder.is_dir():
        raise FileNotFoundError(str(folder.name))
    meta = _read(folder / "pack.toml", errors)
    pack = Pack(id=str(meta.get("id") or folder.name), title=str(meta.get("title") or folder.name),
                version=str(meta.get("version") or "1"), points=_int(meta, "points", "pack.toml", errors, 10, 1000),
                rounds=_int(meta, "rounds", "pack.toml", errors, 1, 20),
                max_drop=_int(meta, "max_drop", "pack.toml", errors, 1, 9, default=4))
    _spells(folder, pack, errors)
    _units(folder, pack, errors)
    _map(folder, pack, errors)
    if errors:
        raise ContentError(errors)
    return pack


PACKS = Packs(parse_pack, DEFAULT_PACK, ("units.toml", "map.toml", "spells.toml"))
pack_dir = PACKS.dir
load_pack = PACKS.load  # the pack called ``pack_id``, checked; cached until its files change
pack_of = PACKS.of  # the pack a campaign plays: the version it began on when the pack keeps it (engine.packs)
list_packs = PACKS.list
