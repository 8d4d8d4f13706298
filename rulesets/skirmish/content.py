"""The skirmish content pack: its schema and loader.

A pack is a folder ``content/<id>/`` holding ``pack.toml`` (title, version,
default points limit and rounds, board size), ``factions.toml``,
``fighters.toml`` and ``abilities.toml``.  ``load_pack`` reads and checks it;
every problem is reported at once as a ``ContentError`` listing them.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.packs import ContentError, Packs

DEFAULT_PACK = "skirmish"
KINDS = ("double", "triple", "quad")  # ability dice, weakest first
EFFECTS = ("dash", "mend", "bolt")


@dataclass(frozen=True)
class Attack:
    name: str
    range: int
    attacks: int
    strength: int
    damage: int
    critical: int


@dataclass(frozen=True)
class FighterType:
    id: str
    name: str
    faction: str
    points: int
    move: int
    toughness: int
    wounds: int
    attack: Attack
    wizard: bool = False


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    colour: str
    blurb: str
    bot_roster: tuple[str, ...]


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    cost: str
    effect: str
    amount: int | str
    bonus: int = 0
    range: int = 0
    wizard: bool = False
    faction: str | None = None
    text: str = ""
    magical: bool = False  # a magical ability: a die made by Channel Magic pays only for these (rules revision 2)

    def allowed(self, ftype: FighterType) -> bool:
        return (not self.wizard or ftype.wizard) and (self.faction is None or self.faction == ftype.faction)

    def value(self, die_value: int) -> int:
        base = die_value if self.amount == "value" else int(self.amount)
        return base + self.bonus


@dataclass
class Pack:
    id: str
    title: str
    version: str
    points: int
    rounds: int
    width: int
    height: int
    factions: dict[str, Faction] = field(default_factory=dict)
    fighters: dict[str, FighterType] = field(default_factory=dict)
    abilities: dict[str, Ability] = field(default_factory=dict)

    def fighter(self, type_id: str) -> FighterType:
        return self.fighters[type_id]


def _read(path: Path, errors: list[str]) -> dict[str, Any]:
    if not path.exists():
        errors.append(f"{path.name}: the file is missing")
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        errors.append(f"{path.name}: not valid TOML ({exc})")
        return {}


def _int(d: dict, key: str, where: str, errors: list[str], lo: int = 0, hi: int = 10_000) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        errors.append(f"{where}: `{key}` must be a whole number from {lo} to {hi} (found {v!r})")
        return lo
    return v


def parse_pack(folder: Path) -> Pack:
    errors: list[str] = []
    if not folder.is_dir():
        raise FileNotFoundError(str(folder.name))
    meta = _read(folder / "pack.toml", errors)
    board = meta.get("board") or {}
    pack = Pack(id=str(meta.get("id") or folder.name), title=str(meta.get("title") or folder.name),
                version=str(meta.get("version") or "1"),
                points=_int(meta, "points", "pack.toml", errors, 50, 5000),
                rounds=_int(meta, "rounds", "pack.toml", errors, 1, 12),
                width=_int(board, "width", "pack.toml [board]", errors, 6, 30),
                height=_int(board, "height", "pack.toml [board]", errors, 6, 30))
    for f in _read(folder / "factions.toml", errors).get("faction", []):
        fid = str(f.get("id") or "")
        if not fid or fid in pack.factions:
            errors.append(f"factions.toml: faction id {fid!r} is empty or repeated")
            continue
        pack.factions[fid] = Faction(fid, str(f.get("name") or fid), str(f.get("colour") or "#777777"),
                                     str(f.get("blurb") or ""), tuple(f.get("bot_roster") or ()))
    for f in _read(folder / "fighters.toml", errors).get("fighter", []):
        fid = str(f.get("id") or "")
        where = f"fighters.toml {fid or '?'}"
        if not fid or fid in pack.fighters:
            errors.append(f"{where}: the id is empty or repeated")
            continue
        if f.get("faction") not in pack.factions:
            errors.append(f"{where}: faction {f.get('faction')!r} is not in factions.toml")
        a = f.get("attack") or {}
        attack = Attack(str(a.get("name") or "Attack"), _int(a, "range", where, errors, 1, 30),
                        _int(a, "attacks", where, errors, 1, 12), _int(a, "strength", where, errors, 1, 10),
                        _int(a, "damage", where, errors, 0, 30), _int(a, "critical", where, errors, 0, 30))
        pack.fighters[fid] = FighterType(fid, str(f.get("name") or fid), str(f.get("faction")),
                                         _int(f, "points", where, errors, 1, 1000),
                                         _int(f, "move", where, errors, 1, 12),
                                         _int(f, "toughness", where, errors, 1, 10),
                                         _int(f, "wounds", where, errors, 1, 60), attack, bool(f.get("wizard")))
    for a in _read(folder / "abilities.toml", errors).get("ability", []):
        aid = str(a.get("id") or "")
        where = f"abilities.toml {aid or '?'}"
        if not aid or aid in pack.abilities:
            errors.append(f"{where}: the id is empty or repeated")
            continue
        if a.get("cost") not in KINDS:
            errors.append(f"{where}: `cost` must be one of {', '.join(KINDS)}")
        if a.get("effect") not in EFFECTS:
            errors.append(f"{where}: `effect` must be one of {', '.join(EFFECTS)}")
        amount = a.get("amount", "value")
        if amount != "value" and not (isinstance(amount, int) and 0 <= amount <= 30):
            errors.append(f"{where}: `amount` must be \"value\" or a whole number from 0 to 30")
            amount = 0
        if a.get("faction") is not None and a.get("faction") not in pack.factions:
            errors.append(f"{where}: faction {a.get('faction')!r} is not in factions.toml")
        if not isinstance(a.get("magical", False), bool):
            errors.append(f"{where}: `magical` must be true or false")
        if a.get("effect") == "bolt" and not a.get("range"):
            errors.append(f"{where}: a bolt needs a `range`")
        pack.abilities[aid] = Ability(aid, str(a.get("name") or aid), str(a.get("cost")), str(a.get("effect")),
                                      amount, int(a.get("bonus") or 0), int(a.get("range") or 0),
                                      bool(a.get("wizard")), a.get("faction"), str(a.get("text") or ""),
                                      bool(a.get("magical")))
    for faction in pack.factions.values():
        mine = [t for t in pack.fighters.values() if t.faction == faction.id]
        if not any(t.wizard for t in mine):
            errors.append(f"factions.toml {faction.id}: the warband has no Wizard to choose")
        for t in faction.bot_roster:
            if t not in pack.fighters or pack.fighters[t].faction != faction.id:
                errors.append(f"factions.toml {faction.id}: bot_roster names {t!r}, not one of its fighters")
    if len(pack.fighters) < 6:
        errors.append(f"fighters.toml: a pack needs at least 6 fighter types (found {len(pack.fighters)})")
    if errors:
        raise ContentError(errors)
    return pack


PACKS = Packs(parse_pack, DEFAULT_PACK, ("fighters.toml", "factions.toml"))
pack_dir = PACKS.dir
load_pack = PACKS.load  # the pack called ``pack_id``, checked; cached until its files change
pack_of = PACKS.of  # the pack a campaign plays: the version it began on when the pack keeps it (engine.packs)
list_packs = PACKS.list
