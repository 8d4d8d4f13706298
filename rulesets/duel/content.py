"""The duel content pack: its schema and loader.

A pack is a folder ``content/<id>/`` holding ``duel.toml`` (title, version, the Skills, the starting hand,
limits), ``heroes.toml`` (the characters players make), ``cards.toml`` (action cards with a Priority:
Base Attack, the maneuvers, spells and gear), ``gear.toml`` (worn gear) and ``monsters.toml`` (the bestiary:
Rank, Skills, Grit and a written action procedure with its table of die results).  ``load_pack`` reads and
checks it; every problem is reported at once, as ``<file> <entry>: <field> ...``, in a ``ContentError``.
Effects are checked against the duel's effect registry (``rulesets.duel.effects``), so an effect or a field
without behaviour is refused.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.packs import ContentError, Packs
from engine.text import a_or_an, count
from rulesets.duel.effects import ONGOING, REGISTRY, REVEAL_ONLY

DEFAULT_PACK = "duel"
META = "duel.toml"
CARD_TYPES = ("base", "spell", "gear", "action")
ATTACK_TYPES = ("base", "spell", "gear")
TARGETS = ("least-grit", "most-grit", "most-fame", "token")
DIE = 12  # every die of the duel has twelve sides
MAX_TIER = 5


@dataclass(frozen=True)
class Attack:
    skill: str
    defense: str
    damage: int


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    type: str  # base | spell | gear | action
    priority: int | None
    text: str
    attack: Attack | None = None  # base cards use the character's own base attack instead
    hit: tuple[dict, ...] = ()
    benefit: tuple[dict, ...] = ()
    effects: tuple[dict, ...] = ()
    reveal: tuple[dict, ...] = ()

    @property
    def attacks(self) -> bool:
        return self.type == "base" or self.attack is not None

    @property
    def ongoing(self) -> bool:
        """Its effects last (the card stays face-up beside its player while they do)."""
        return any(e["type"] in ONGOING for e in self.effects + self.benefit)

    @property
    def needs_wit(self) -> bool:
        """A spell that does not attack: roll Wit, 6 or more or it does nothing."""
        return self.type == "spell" and self.attack is None

    @property
    def in_hand(self) -> bool:
        return self.priority is not None


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    blurb: str
    grit: int
    fame: int
    skills: dict[str, int]
    base: Attack
    cards: tuple[str, ...]
    gear: tuple[str, ...]


@dataclass(frozen=True)
class Gear:
    id: str
    name: str
    block: int
    versus: tuple[str, ...]  # attack types it protects against (every type when empty)
    text: str


@dataclass(frozen=True)
class MonsterAction:
    lo: int
    hi: int
    name: str
    priority: int
    text: str
    attack: Attack | None = None
    target: str = ""
    hit: tuple[dict, ...] = ()
    effects: tuple[dict, ...] = ()


@dataclass(frozen=True)
class Monster:
    id: str
    name: str
    rank: int
    grit: int
    skills: dict[str, int]
    procedure: str
    actions: tuple[MonsterAction, ...]

    def action_for(self, roll: int) -> tuple[int, MonsterAction]:
        for i, a in enumerate(self.actions):
            if a.lo <= roll <= a.hi:
                return i, a
        raise ValueError(f"{self.id}: no action for a roll of {roll}")


@dataclass
class Pack:
    id: str
    title: str
    version: str
    skills: tuple[str, ...]
    hand: tuple[str, ...]
    max_cards: int
    max_gear: int
    heroes: dict[str, Hero] = field(default_factory=dict)
    cards: dict[str, Card] = field(default_factory=dict)
    gear: dict[str, Gear] = field(default_factory=dict)
    monsters: dict[str, Monster] = field(default_factory=dict)
    zones: dict[str, str] = field(default_factory=dict)  # id -> name, in order (none: one place for everyone)

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    @property
    def obtainable(self) -> list[Card]:
        """Cards a character can obtain (every card but the ones each hand holds anyway)."""
        return [c for c in self.cards.values() if c.id not in self.hand]


# ------------------------------------------------------------------ reading --
def _read(path: Path, errors: list[str]) -> dict[str, Any]:
    if not path.exists():
        errors.append(f"{path.name}: the file is missing")
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        errors.append(f"{path.name}: not valid TOML ({exc})")
        return {}


def _int(d: dict, key: str, where: str, errors: list[str], lo: int, hi: int, default: int | None = None) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        errors.append(f"{where}: `{key}` must be a whole number from {lo} to {hi} (found {v!r})")
        return lo
    return v


def _text(d: dict, key: str, where: str, errors: list[str]) -> str:
    v = d.get(key)
    if not isinstance(v, str) or not v.strip():
        errors.append(f"{where}: `{key}` must be a non-empty text")
        return ""
    return v.strip()


def _skills(d: Any, skills: tuple[str, ...], where: str, errors: list[str]) -> dict[str, int]:
    if not isinstance(d, dict):
        errors.append(f"{where}: `skills` must be a table of Tiers, e.g. {{ {skills[0] if skills else 'might'} = 2 }}")
        return {}
    out = {}
    for s in skills:
        out[s] = _int(d, s, f"{where} skills", errors, 1, MAX_TIER)
    for extra in sorted(set(d) - set(skills)):
        errors.append(f"{where}: skills names {extra!r}, which is not one of the pack's Skills ({', '.join(skills)})")
    return out


def _attack(d: Any, skills: tuple[str, ...], where: str, errors: list[str]) -> Attack | None:
    if d is None:
        return None
    if not isinstance(d, dict):
        errors.append(f"{where}: `attack` must be a table {{ skill, defense, damage }}")
        return None
    for key in ("skill", "defense"):
        if d.get(key) not in skills:
            errors.append(f"{where}: attack `{key}` must be one of {', '.join(skills)} (found {d.get(key)!r})")
    return Attack(str(d.get("skill")), str(d.get("defense")), _int(d, "damage", f"{where} attack", errors, 0, 10))


def _effects(raw: Any, where: str, errors: list[str], *, who: tuple[str, ...], default_who: str | None = None,
             allow_reveal: bool = False) -> tuple[dict, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        errors.append(f"{where}: must be a list of effect tables")
        return ()
    out = []
    for n, item in enumerate(raw, 1):
        defaults = {"who": default_who} if default_who else None
        eff, problems = REGISTRY.validate(item, defaults=defaults)
        for p in problems:
            errors.append(f"{where} #{n} {p}")
        if eff is None:
            continue
        if "who" in eff and eff["who"] not in who:
            errors.append(f"{where} #{n} ({eff['type']}): who must be one of {', '.join(who)} here "
                          f"(found {eff['who']!r})")
        if (eff["type"] in REVEAL_ONLY) != allow_reveal:
            errors.append(f"{where} #{n} ({eff['type']}): " + (
                "only `reveal` effects happen as a card is turned face-up" if allow_reveal
                else "happens as the card is revealed: put it under `reveal`"))
        out.append(eff)
    return tuple(out)


def _card(c: dict, skills: tuple[str, ...], errors: list[str]) -> Card | None:
    cid = str(c.get("id") or "")
    where = f"cards.toml {cid or '?'}"
    ctype = c.get("type")
    if ctype not in CARD_TYPES:
        errors.append(f"{where}: `type` must be one of {', '.join(CARD_TYPES)} (found {ctype!r})")
        return None
    priority = None if "priority" not in c else _int(c, "priority", where, errors, 1, 12)
    attack = _attack(c.get("attack"), skills, where, errors)
    if ctype == "base" and attack is not None:
        errors.append(f"{where}: a base card uses each character's own base attack; leave `attack` out")
    if ctype == "action" and attack is not None:
        errors.append(f"{where}: an action card does not attack; make it a spell or gear to attack")
    attacks = ctype == "base" or attack is not None
    card = Card(
        id=cid, name=_text(c, "name", where, errors), type=ctype, priority=priority, text=_text(c, "text", where, errors),
        attack=attack,
        hit=_effects(c.get("hit"), f"{where} hit", errors, who=("target", "enemies"), default_who="target"),
        benefit=_effects(c.get("benefit"), f"{where} benefit", errors, who=("self", "ally")),
        effects=_effects(c.get("effects"), f"{where} effects", errors, who=("self", "ally", "enemies")),
        reveal=_effects(c.get("reveal"), f"{where} reveal", errors, who=("self",), allow_reveal=True),
    )
    if not attacks and (card.hit or card.benefit):
        errors.append(f"{where}: `hit` and `benefit` belong to attacks; use `effects`")
    if attacks and card.effects:
        errors.append(f"{where}: an attack's effects are its `hit` (on the target) and `benefit` (the attacker's)")
    if card.needs_wit and not any(e["type"] in ONGOING for e in card.effects):
        errors.append(f"{where}: a spell that does not attack creates an ongoing effect "
                      f"({', '.join(ONGOING)})")
    if priority is None and (attacks or card.effects or card.reveal):
        errors.append(f"{where}: a card without a Priority never enters a fight hand, so it can't have effects")
    if ctype in ("base", "action") and priority is None:
        errors.append(f"{where}: {a_or_an(ctype + ' card')} needs a `priority`")
    return card


def parse_pack(folder: Path) -> Pack:
    errors: list[str] = []
    if not folder.is_dir():
        raise FileNotFoundError(str(folder.name))
    meta = _read(folder / META, errors)
    skills = tuple(str(s) for s in meta.get("skills") or ())
    if not skills or any(not re.fullmatch(r"[a-z]+", s) for s in skills) or len(set(skills)) != len(skills):
        errors.append(f"{META}: `skills` must be a list of distinct lower-case words")
    for needed in ("finesse", "wit"):
        if needed not in skills:
            errors.append(f"{META}: `skills` must include {needed} (the Priority roll-off and spells use it)")
    pack = Pack(id=str(meta.get("id") or folder.name), title=str(meta.get("title") or folder.name),
                version=str(meta.get("version") or "1"), skills=skills, hand=tuple(str(h) for h in meta.get("hand") or ()),
                max_cards=_int(meta, "max_cards", META, errors, 0, 12, 5),
                max_gear=_int(meta, "max_gear", META, errors, 0, 6, 3))
    raw_zones = meta.get("zones") or []
    if not isinstance(raw_zones, list):
        errors.append(f"{META}: `zones` must be a list of {{ id, name }} tables")
        raw_zones = []
    for n, z in enumerate(raw_zones, 1):
        zid = str(z.get("id") or "") if isinstance(z, dict) else ""
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", zid) or zid in pack.zones:
            errors.append(f"{META}: zone #{n}: the id {zid!r} is empty, repeated or not lower-case words with dashes")
            continue
        pack.zones[zid] = _text(z, "name", f"{META} zone {zid}", errors)
    for c in _read(folder / "cards.toml", errors).get("card", []):
        cid = str(c.get("id") or "")
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", cid) or cid in pack.cards:
            errors.append(f"cards.toml: card id {cid!r} is empty, repeated or not lower-case words with dashes")
            continue
        card = _card(c, skills, errors)
        if card is not None:
            pack.cards[cid] = card
    if not pack.hand:
        errors.append(f"{META}: `hand` must list the cards every hand starts with")
    for h in pack.hand:
        if h not in pack.cards or pack.cards[h].priority is None:
            errors.append(f"{META}: hand names {h!r}, which is not a card with a Priority in cards.toml")
    if not any(pack.cards[h].type == "base" for h in pack.hand if h in pack.cards):
        errors.append(f"{META}: the starting hand needs a base card (the Base Attack)")
    for g in _read(folder / "gear.toml", errors).get("gear", []):
        gid = str(g.get("id") or "")
        where = f"gear.toml {gid or '?'}"
        if not gid or gid in pack.gear:
            errors.append(f"{where}: the id is empty or repeated")
            continue
        versus = tuple(str(v) for v in g.get("versus") or ())
        if any(v not in ATTACK_TYPES for v in versus):
            errors.append(f"{where}: `versus` must list attack types from {', '.join(ATTACK_TYPES)}")
        pack.gear[gid] = Gear(gid, _text(g, "name", where, errors), _int(g, "block", where, errors, 1, 6), versus,
                              _text(g, "text", where, errors))
    for h in _read(folder / "heroes.toml", errors).get("hero", []):
        hid = str(h.get("id") or "")
        where = f"heroes.toml {hid or '?'}"
        if not hid or hid in pack.heroes:
            errors.append(f"{where}: the id is empty or repeated")
            continue
        base = _attack(h.get("base"), skills, where + " base", errors) or Attack("", "", 0)
        cards = tuple(str(x) for x in h.get("cards") or ())
        gear = tuple(str(x) for x in h.get("gear") or ())
        for x in cards:
            if x not in pack.cards or x in pack.hand:
                errors.append(f"{where}: cards names {x!r}, which is not a card a character can obtain")
        for x in gear:
            if x not in pack.gear:
                errors.append(f"{where}: gear names {x!r}, which is not in gear.toml")
        if len(cards) > pack.max_cards or len(gear) > pack.max_gear:
            errors.append(f"{where}: at most {count(pack.max_cards, 'card')} and {pack.max_gear} pieces of gear")
        pack.heroes[hid] = Hero(hid, _text(h, "name", where, errors), str(h.get("blurb") or ""),
                                _int(h, "grit", where, errors, 1, 30), _int(h, "fame", where, errors, 0, 20),
                                _skills(h.get("skills"), skills, where, errors), base, cards, gear)
    for m in _read(folder / "monsters.toml", errors).get("monster", []):
        mid = str(m.get("id") or "")
        where = f"monsters.toml {mid or '?'}"
        if not mid or mid in pack.monsters:
            errors.append(f"{where}: the id is empty or repeated")
            continue
        actions = []
        covered: list[int] = []
        for n, a in enumerate(m.get("action") or [], 1):
            aw = f"{where} action #{n}"
            lo, hi = _int(a, "from", aw, errors, 1, DIE), _int(a, "to", aw, errors, 1, DIE)
            covered += list(range(lo, hi + 1))
            attack = _attack(a.get("attack"), skills, aw, errors)
            target = str(a.get("target") or "")
            if attack is not None and target not in TARGETS:
                errors.append(f"{aw}: an attack needs `target`, one of {', '.join(TARGETS)}")
            act = MonsterAction(
                lo, hi, _text(a, "name", aw, errors), _int(a, "priority", aw, errors, 1, 12), _text(a, "text", aw, errors),
                attack, target,
                _effects(a.get("hit"), f"{aw} hit", errors, who=("target",), default_who="target"),
                _effects(a.get("effects"), f"{aw} effects", errors, who=("self",)))
            if attack is None and not act.effects:
                errors.append(f"{aw}: the action needs an `attack` or `effects`")
            actions.append(act)
        if sorted(covered) != list(range(1, DIE + 1)):
            errors.append(f"{where}: the actions' ranges must cover each die result 1 to {DIE} exactly once")
        pack.monsters[mid] = Monster(mid, _text(m, "name", where, errors), _int(m, "rank", where, errors, 1, 10),
                                     _int(m, "grit", where, errors, 1, 60),
                                     _skills(m.get("skills"), skills, where, errors),
                                     _text(m, "procedure", where, errors), tuple(actions))
    if not pack.heroes:
        errors.append("heroes.toml: a pack needs at least one hero")
    if not pack.monsters:
        errors.append("monsters.toml: a pack needs at least one monster")
    if errors:
        raise ContentError(errors)
    return pack


PACKS = Packs(parse_pack, DEFAULT_PACK, (META,), required=(META,))
pack_dir = PACKS.dir
load_pack = PACKS.load  # the pack called ``pack_id``, checked; cached until its files change
pack_of = PACKS.of  # the pack a campaign plays: the version it began on when the pack keeps it (engine.packs)
list_packs = PACKS.list
