"""The campaign's day in a pack: overland icons and cards, provinces (map, effect, tokens) and gazetteers.

Files (all optional: a pack without them plays battles only):

* ``overland/icons.toml``      the overland icons printed on peaceful cards
* ``overland/peaceful.toml``, ``overland/conflict.toml``   general overland cards (code GE)
* ``overland/encounters.toml`` the battles those cards name
* ``provinces/<id>/province.toml``   the province: code, base movement, terrain, map, compass, effect, tokens
* ``provinces/<id>/gazetteer.toml``  its towns and its traveling caravan
* ``provinces/<id>/peaceful.toml``, ``conflict.toml``, ``encounters.toml``   its own cards and their battles

Every problem names the file, the entry and the field (docs/content-format.md, "Provinces" and
"Overland cards").  Card outcomes are effect primitives of the day (:data:`DAY_EFFECTS`); their
behaviour is registered from above (``rulesets.tes.outcomes``), like the battle's effects.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import hexes
from engine.effects import Field, Registry, one_of
from engine.text import a_or_an, count
from rulesets.tes.content.reader import ID_RE, _Entry, _entries, _read_toml, _show
from rulesets.tes.content.records import Hex

#: overland deck types and the letters a map marks their landmarks with
DECK_TYPES = ("peaceful", "conflict")
LANDMARKS = {"P": "peaceful", "C": "conflict", "U": "unstable"}
OUTCOMES = ("peaceful", "clash", "delve")
FEATURES = ("shop", "trainer", "inn", "alchemy", "kiosk", "square", "board")
FEATURE_NAMES = {"shop": "Shop", "trainer": "Trainer", "inn": "Inn", "alchemy": "Alchemy station",
                 "kiosk": "Guild kiosk", "square": "Town square", "board": "Quest board"}
DIRECTIONS = ("e", "ne", "nw", "w", "sw", "se")  # engine.hexes' neighbour order (pointy-top)
CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
CONSTELLATIONS = ("mage", "thief", "warrior")
GENERAL = "GE"
WHO = ("each", "chosen")

#: The effect primitives of the day (outside battle): card outcomes, town effects, town squares, the
#: province effect.  ``who`` says which adventurers an effect reaches: each of them (the default) or one
#: the party chooses.  Primitives register here from ``rulesets.tes.outcomes``.
DAY_EFFECTS = Registry({"who": Field(one_of(*WHO))})


# ------------------------------------------------------------------ records --
@dataclass(frozen=True)
class OverlandIcon:
    id: str
    name: str
    symbol: str


@dataclass(frozen=True)
class SocialCheck:
    """A social check (p.42): ``difficulty`` plus (``add``) or times (``times``) the party size, or alone
    (``none``); the dice of ``lines`` may be rolled; ``gate``: the choice can be taken only after a success;
    ``bonus``: the choice is resolved either way and ``effects`` are gained on a success."""

    difficulty: int
    party: str
    lines: tuple[str, ...]
    mode: str
    effects: tuple[dict, ...] = ()
    text: str = ""

    def value(self, party_size: int) -> int:
        if self.party == "add":
            return self.difficulty + party_size
        if self.party == "times":
            return self.difficulty * party_size
        return self.difficulty

    def words(self) -> str:
        if self.party == "add":
            return f"the party size + {self.difficulty}"
        if self.party == "times":
            return f"{self.difficulty} × the party size"
        return str(self.difficulty)


@dataclass(frozen=True)
class CardChoice:
    number: int  # 1-based, in the card's order
    title: str
    outcome: str  # peaceful | clash | delve
    unstable: bool
    xp: int
    text: str
    effects: tuple[dict, ...] = ()
    failed: tuple[dict, ...] = ()  # a battle choice's effects when the battle is lost
    requires: dict[str, Any] = field(default_factory=dict)
    check: SocialCheck | None = None
    manual: bool = False
    next: str | None = None  # a guild quest step's choice: the step it leads to (rulesets.tes.content.quests)


@dataclass(frozen=True)
class OverlandCard:
    id: str
    kind: str  # peaceful | conflict
    code: str  # "GE" or the province code
    number: int
    name: str
    story: str
    icons: tuple[str, ...]
    choices: tuple[CardChoice, ...]
    encounter: str | None = None  # the battle its clash choices start
    delve: str | None = None  # the delve (an encounter of mode "delve") its delve choices start

    @property
    def label(self) -> str:
        return f"{self.code} {self.number}"


@dataclass(frozen=True)
class GaugeStep:
    id: str
    name: str
    movement: int
    text: str


@dataclass(frozen=True)
class IconAction:
    """What an overland icon does when the province effect activates: set the gauge, or move a token."""

    icon: str
    text: str
    set: str | None = None
    token: str | None = None
    move: int = 0
    toward: str = "party"  # party | town:<id> | compass
    reach: tuple[dict, ...] = ()  # effects on each adventurer when the token ends in the party's hex


@dataclass(frozen=True)
class ProvinceEffect:
    name: str
    text: str
    gauge: str
    start: str
    no_icon: str
    steps: tuple[GaugeStep, ...]
    icons: dict[str, IconAction]
    emoji: str = "🌊"  # the mark of the effect's lines in the day's posts

    def step(self, step_id: str) -> GaugeStep | None:
        return next((s for s in self.steps if s.id == step_id), None)


@dataclass(frozen=True)
class TokenDef:
    id: str
    kind: str  # npc | objective
    name: str
    hex: Hex


@dataclass(frozen=True)
class TownEffect:
    name: str
    text: str
    once: bool
    effects: tuple[dict, ...] = ()
    choices: tuple[tuple[str, tuple[dict, ...]], ...] = ()
    manual: bool = False


@dataclass(frozen=True)
class Square:
    name: str
    text: str
    group: bool
    effects: tuple[dict, ...] = ()
    manual: bool = False


@dataclass(frozen=True)
class TownDef:
    id: str
    name: str
    mark: int  # the digit on the map (0 for a caravan)
    text: str
    features: tuple[str, ...]
    shop_common: int = 0
    shop_legendary: int = 0
    shop_takes: int = 1
    shop_note: str = ""
    trainer_lines: int = 0
    faded: tuple[str, ...] = ()  # trainer constellations faded out
    effect: TownEffect | None = None
    square: Square | None = None
    caravan: bool = False


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    code: str
    description: str
    movement: int
    start: str
    terrain: dict[str, tuple[str, str]]  # letter -> (name, colour "#rrggbb")
    hexes: dict[Hex, str]  # hex -> terrain letter
    features: dict[Hex, tuple[str, str]]  # hex -> ("town", town id) | (landmark kind, its name or "")
    compass_corner: str
    compass_faces: tuple[str, ...]  # die face 1..6 -> direction
    effect: ProvinceEffect
    tokens: tuple[TokenDef, ...]
    towns: dict[str, TownDef]
    caravan: TownDef | None
    cards: dict[str, tuple[str, ...]]  # deck type -> this province's card ids
    folder: str = ""
    order: int | None = None  # the pack's provinces go in this order (the first is the default); None: after them

    def town_at(self, h: Hex) -> TownDef | None:
        f = self.features.get(h)
        return self.towns.get(f[1]) if f and f[0] == "town" else None

    def hex_of_town(self, town_id: str) -> Hex | None:
        return next((h for h, f in self.features.items() if f == ("town", town_id)), None)

    def landmark(self, h: Hex) -> tuple[str, str] | None:
        f = self.features.get(h)
        return f if f and f[0] in LANDMARKS.values() else None


# ------------------------------------------------------------------ loading --
def load_overland(folder: Path, errors: list[str], *, lines: dict, items: dict, encounters: dict,
                  load_encounters, kept: bool = False) -> tuple[dict, dict, dict, dict]:
    """(icons, cards by id, provinces by id, the encounters their cards name) of the pack in ``folder``.

    ``load_encounters(rel)`` reads an encounters file of the pack (the loader's own reader) and returns
    its encounters by id; the names must not clash with the pack's other encounters.  ``kept``: a pack version
    kept for old campaigns, written before a card's delve choice named its delve (it played the card's encounter).
    """
    icons = _load_icons(folder, errors)
    cards: dict[str, OverlandCard] = {}
    more: dict[str, Any] = {}

    def add_encounters(rel: str) -> None:
        if not (folder / rel).is_file():
            return
        for xid, enc in load_encounters(rel).items():
            if xid in encounters or xid in more:
                errors.append(f'{rel}, encounter "{xid}": duplicate id (another encounters file already uses it)')
                continue
            more[xid] = enc

    add_encounters("overland/encounters.toml")
    for kind in DECK_TYPES:
        rel = f"overland/{kind}.toml"
        if (folder / rel).is_file():
            _load_cards(folder, rel, kind, GENERAL, errors, cards, icons, lines)
    provinces: dict[str, Province] = {}
    base = folder / "provinces"
    if base.is_dir():
        for sub in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")):
            rel_dir = f"provinces/{sub.name}"
            add_encounters(_in(rel_dir, "encounters.toml"))
            prov = _load_province(folder, rel_dir, errors, icons, cards, lines)
            if prov is not None:
                provinces[prov.id] = prov
    orders: dict[int, str] = {}
    for p in provinces.values():
        if p.order is None:
            continue
        if p.order in orders:
            errors.append(f'{_in("provinces", p.folder, "province.toml")}, province "{p.id}": order {p.order} is '
                          f'used by province "{orders[p.order]}" too (the first province is the default one)')
        orders.setdefault(p.order, p.id)
    # the default province (a session begun with no province named) is the first: by order, then by id
    provinces = dict(sorted(provinces.items(),
                            key=lambda kv: (kv[1].order is None, kv[1].order or 0, kv[0])))
    known = set(encounters) | set(more)
    codes: dict[str, str] = {}
    for p in provinces.values():
        if p.code in codes:
            errors.append(f'{_in("provinces", p.folder, "province.toml")}, province "{p.id}": code "{p.code}" is used by '
                          f'province "{codes[p.code]}" too')
        codes[p.code] = p.id
    for c in cards.values():
        if c.encounter and c.encounter not in known:
            errors.append(f'{_card_file(c, provinces)}, card "{c.id}": names encounter "{c.encounter}", which no '
                          "encounters file defines")
        clash = [ch for ch in c.choices if ch.outcome == "clash"]
        if clash and not c.encounter:
            errors.append(f'{_card_file(c, provinces)}, card "{c.id}": has a clash choice but names no encounter '
                          '(encounter = "<id>")')
        delves = [ch for ch in c.choices if ch.outcome == "delve"]
        if delves and not c.delve and not kept:
            errors.append(f'{_card_file(c, provinces)}, card "{c.id}": has a delve choice but names no delve '
                          '(delve = "<id of an encounter with mode = \"delve\">")')
        elif c.delve:
            found = encounters.get(c.delve) or more.get(c.delve)
            if found is None:
                errors.append(f'{_card_file(c, provinces)}, card "{c.id}": names delve "{c.delve}", which no '
                              "encounters file defines")
            elif getattr(found, "mode", "") != "delve":
                errors.append(f'{_card_file(c, provinces)}, card "{c.id}": delve "{c.delve}" is '
                              f'{a_or_an(getattr(found, "mode", "?") + " encounter")}, not a delve')
    return icons, cards, provinces, more


def _in(*parts: str) -> str:
    """A file of the pack, as messages name it (``provinces/saltmire/province.toml``)."""
    return "/".join(parts)


def _card_file(card: OverlandCard, provinces: dict) -> str:
    if card.code == GENERAL:
        return _in("overland", f"{card.kind}.toml")
    prov = next((p for p in provinces.values() if p.code == card.code), None)
    return _in("provinces", prov.folder if prov else "?", f"{card.kind}.toml")


def _load_icons(folder: Path, errors: list[str]) -> dict[str, OverlandIcon]:
    rel = "overland/icons.toml"
    if not (folder / rel).is_file():
        return {}
    doc = _read_toml(folder / rel, rel, errors)
    out: dict[str, OverlandIcon] = {}
    for iid, e in _entries(doc, "icon", rel, errors, "icon"):
        e.unknown_keys(["id", "name", "symbol"])
        icon = OverlandIcon(iid, e.text("name"), e.text("symbol", "", allow_empty=True))
        if e.ok:
            out[iid] = icon
    return out


def _day_effects(e: _Entry, key: str) -> tuple[dict, ...]:
    v = e.get(key, [])
    if isinstance(v, dict):
        v = [v]
    if not isinstance(v, list):
        e.err(f"{key} must be a list of effect tables, got {_show(v)}")
        return ()
    out = []
    for i, eff in enumerate(v, 1):
        full, problems = DAY_EFFECTS.validate(eff)
        for p in problems:
            e.err(f"{key} #{i} {p}")
        if full is not None:
            out.append(full)
    if sum(1 for x in out if x["type"] == "choose") > 1:
        e.err(f"{key} has more than one choose effect: write one, with every option in it")
    return tuple(out)


def _load_cards(folder: Path, rel: str, kind: str, code: str, errors: list[str], cards: dict, icons: dict,
                lines: dict) -> list[str]:
    doc = _read_toml(folder / rel, rel, errors)
    ids: list[str] = []
    numbers: dict[int, str] = {}
    for cid, e in _entries(doc, "card", rel, errors, "card"):
        allowed = ["id", "number", "name", "story", "choice", "encounter", "delve"] + (
            ["icons"] if kind == "peaceful" else [])
        e.unknown_keys(allowed)
        if cid in cards:
            e.err("duplicate id (another overland card file already uses it)")
            continue
        number = e.int("number", 1, 999)
        if number in numbers:
            e.err(f'number {number} is used by card "{numbers[number]}" too')
        numbers[number] = cid
        card_icons = e.str_list("icons", tuple(icons)) if kind == "peaceful" else ()
        if kind == "peaceful" and "icons" not in e.data:
            e.err('is missing the field "icons" (write icons = [] for a card without icons)')
        raw = e.get("choice", [])
        if not isinstance(raw, list) or not raw:
            e.err("needs at least one [[card.choice]]")
            raw = []
        choices = []
        for i, rc in enumerate(raw, 1):
            ce = e.sub("", f"choice #{i}", rc)
            ch = _choice(ce, i, lines)
            if ch is not None and ce.ok:
                choices.append(ch)
            else:
                e.ok = False
        card = OverlandCard(cid, kind, code, number, e.text("name"), e.text("story"), card_icons, tuple(choices),
                            e.opt_text("encounter"), e.opt_text("delve"))
        if e.ok:
            cards[cid] = card
            ids.append(cid)
    return ids


_REQUIRES = ("tenacity", "hp", "line", "item", "keyword")


def _choice(ce: _Entry, number: int, lines: dict, *, steps: bool = False) -> CardChoice | None:
    """A card's choice; ``steps``: a guild quest step's, which may name the step it leads to (``next``)."""
    ce.unknown_keys(["title", "outcome", "unstable", "xp", "text", "effects", "failed", "requires", "check",
                     "manual"] + (["next"] if steps else []))
    title = ce.text("title")
    outcome = ce.choice("outcome", OUTCOMES, "peaceful")
    unstable = ce.bool("unstable", False)
    xp = ce.int("xp", 0, 20, 0)
    text = ce.text("text")
    effects = _day_effects(ce, "effects")
    failed = _day_effects(ce, "failed")
    if failed and outcome == "peaceful":
        ce.err("failed effects belong to a battle choice (outcome clash or delve)")
    manual = ce.bool("manual", False)
    requires: dict[str, Any] = {}
    if ce.has("requires"):
        re_ = ce.sub("requires", "requires")
        re_.unknown_keys(_REQUIRES)
        if re_.has("tenacity"):
            requires["tenacity"] = re_.int("tenacity", 1, 20)
        if re_.has("hp"):
            requires["hp"] = re_.int("hp", 1, 20)
        if re_.has("line"):
            line = re_.text("line")
            if line and line not in lines:
                re_.err(f'line names skill line "{line}", which the pack does not define')
            requires["line"] = line
        if re_.has("item"):
            from rulesets.tes.content.schema import ITEM_SUBTYPES

            requires["item"] = re_.choice("item", ITEM_SUBTYPES)
        if re_.has("keyword"):
            requires["keyword"] = re_.text("keyword")  # checked against keywords.toml by the quests' loader
        if not requires and re_.ok:
            re_.err(f"names no requirement (use {', '.join(_REQUIRES)})")
        if not re_.ok:
            ce.ok = False
    check = None
    if ce.has("check"):
        ke = ce.sub("check", "check")
        ke.unknown_keys(["difficulty", "party", "lines", "mode", "effects", "text"])
        difficulty = ke.int("difficulty", 0, 40)
        party = ke.choice("party", ("add", "times", "none"), "none")
        check_lines = ke.str_list("lines", default=("speech",))
        for ln in check_lines:
            if ln not in lines:
                ke.err(f'lines names skill line "{ln}", which the pack does not define')
        mode = ke.choice("mode", ("gate", "bonus"))
        bonus = _day_effects(ke, "effects")
        if mode == "gate" and bonus:
            ke.err('a "gate" check opens its choice; its rewards are the choice\'s effects (remove effects here)')
        if mode == "bonus" and not bonus:
            ke.err('a "bonus" check needs effects: what a success adds to the choice')
        if ke.ok:
            check = SocialCheck(difficulty, party or "none", check_lines, mode or "gate", bonus,
                                ke.text("text", "", allow_empty=True))
        else:
            ce.ok = False
    if outcome != "peaceful" and check is not None:
        ce.err("a social check belongs to a peaceful choice")
    if not effects and not manual and outcome == "peaceful" and not text:
        manual = True
    return CardChoice(number, title, outcome or "peaceful", unstable, xp, text, effects, failed, requires, check,
                      manual, ce.opt_text("next") if steps else None)


_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _load_province(folder: Path, rel_dir: str, errors: list[str], icons: dict, cards: dict,
                   lines: dict) -> Province | None:
    rel = _in(rel_dir, "province.toml")
    doc = _read_toml(folder / rel, rel, errors)
    if doc is None:
        return None
    ident = doc.get("id") if isinstance(doc.get("id"), str) else rel_dir.split("/")[-1]
    e = _Entry(errors, rel, f'province "{ident}"', doc)
    e.unknown_keys(["id", "name", "code", "description", "movement", "start", "terrain", "map", "compass",
                    "effect", "token", "order"])
    order = e.int("order", 1, 99) if e.has("order") else None
    if not ID_RE.match(ident or ""):
        e.err(f"id must be lower-case letters, digits and dashes, got {_show(ident)}")
    code = e.text("code")
    if code and not re.fullmatch(r"[A-Z]{2}", code):
        e.err(f'code must be two capital letters like "SM", got {_show(code)}')
    if code == GENERAL or code == "SP":
        e.err(f'code "{code}" is kept for general and special cards; choose another')
    movement = e.int("movement", 1, 6, 3)
    # terrain
    terrain: dict[str, tuple[str, str]] = {}
    te = e.sub("terrain", "terrain")
    for letter, spec in te.data.items():
        se = te.sub("", f'terrain "{letter}"', spec)
        se.unknown_keys(["name", "color"])
        if not re.fullmatch(r"[a-z]", str(letter)):
            se.err("a terrain letter is one lower-case letter")
        colour = se.text("color")
        if colour and not _COLOUR.match(colour):
            se.err(f'color must look like "#7e9a5c", got {_show(colour)}')
        if se.ok:
            terrain[letter] = (se.text("name"), colour)
    if not terrain:
        te.err("lists no terrain (m = { name = \"Marsh\", color = \"#7e9a5c\" })")
    # gazetteer first: the map marks towns by their digit
    towns, caravan = _load_gazetteer(folder, rel_dir, errors, lines)
    by_mark = {t.mark: t for t in towns.values()}
    # map
    me = e.sub("map", "map")
    me.unknown_keys(["rows", "landmark"])
    drawing = me.text("rows")
    cells: dict[Hex, str] = {}
    features: dict[Hex, tuple[str, str]] = {}
    lines_ = [ln.rstrip() for ln in drawing.splitlines()]
    while lines_ and not lines_[0].strip():
        lines_.pop(0)
    for r, line in enumerate(lines_):
        for col, tok in enumerate(line.split()):
            if tok == "_":
                continue
            h = hexes.from_odd_r(col, r)
            hx = (h.q, h.r)
            m = re.fullmatch(r"([a-z])([A-Z1-9]?)", tok)
            if not m:
                me.err(f'row {r + 1} has a cell "{tok}" that is not a terrain letter and a mark '
                       "(like m, mP, hC, sU or m1)")
                continue
            if m.group(1) not in terrain:
                me.err(f'row {r + 1} uses terrain "{m.group(1)}", which [terrain] does not list')
            cells[hx] = m.group(1)
            mark = m.group(2)
            if mark in LANDMARKS:
                features[hx] = (LANDMARKS[mark], "")
            elif mark.isdigit():
                town = by_mark.get(int(mark))
                if town is None:
                    me.err(f"row {r + 1} marks town {mark}, which no town of the gazetteer has as its mark")
                elif any(f == ("town", town.id) for f in features.values()):
                    me.err(f"marks town {mark} ({town.name}) twice")
                else:
                    features[hx] = ("town", town.id)
            elif mark:
                me.err(f'row {r + 1} has an unknown mark "{mark}" (use P, C, U or a town digit 1-9)')
    if drawing and len(cells) < 7:
        me.err(f"draws only {count(len(cells), 'hex')}; an overland map needs more room than that")
    for t in towns.values():
        if not any(f == ("town", t.id) for f in features.values()):
            errors.append(f"{_in(rel_dir, 'gazetteer.toml')}, town \"{t.id}\": its mark {t.mark} is not on the map")
    raw_lm = me.get("landmark", [])
    for i, lm in enumerate(raw_lm if isinstance(raw_lm, list) else [], 1):
        le = me.sub("", f"landmark #{i}", lm)
        le.unknown_keys(["hex", "name"])
        h = le.hex("hex")
        name = le.text("name")
        if h is not None and h in features and features[h][0] != "town" and le.ok:
            features[h] = (features[h][0], name)
        elif h is not None:
            le.err(f"hex {list(h)} holds no landmark on the map")
    # compass
    ce = e.sub("compass", "compass")
    ce.unknown_keys(["corner", "faces"])
    corner = ce.choice("corner", CORNERS, "top-right")
    faces = ce.str_list("faces", DIRECTIONS, default=DIRECTIONS)
    if len(faces) != 6:
        ce.err(f"faces must name 6 directions (die faces 1 to 6), got {len(faces)}")
    # effect
    effect = _effect(e.sub("effect", "effect"), icons)
    start = e.text("start", "")
    if start and start not in towns:
        e.err(f'start names town "{start}", which the gazetteer does not define')
    if not start and towns:
        start = next(iter(towns))
    # tokens
    tokens: list[TokenDef] = []
    raw_tok = e.get("token", [])
    for i, tk in enumerate(raw_tok if isinstance(raw_tok, list) else [], 1):
        ke = e.sub("", f"token #{i}", tk)
        ke.unknown_keys(["id", "kind", "name", "hex"])
        tid = ke.text("id")
        h = ke.hex("hex")
        if h is not None and h not in cells:
            ke.err(f"hex {list(h)} is not on the map")
        if ke.ok:
            tokens.append(TokenDef(tid, ke.choice("kind", ("npc", "objective")) or "npc", ke.text("name"), h))
        else:
            e.ok = False
    if effect is not None:
        for act in effect.icons.values():
            if act.token and not any(t.id == act.token for t in tokens):
                errors.append(f'{rel}, province "{ident}": effect icon "{act.icon}" moves token "{act.token}", '
                              "which no [[token]] places")
            if act.toward.startswith("town:") and act.toward[5:] not in towns:
                errors.append(f'{rel}, province "{ident}": effect icon "{act.icon}" moves toward town '
                              f'"{act.toward[5:]}", which the gazetteer does not define')
    # cards
    deck_ids: dict[str, tuple[str, ...]] = {}
    for kind in DECK_TYPES:
        crel = _in(rel_dir, f"{kind}.toml")
        if (folder / crel).is_file():
            deck_ids[kind] = tuple(_load_cards(folder, crel, kind, code or "??", errors, cards, icons, lines))
        else:
            errors.append(f"{crel}: file is missing (a province has a peaceful and a conflict deck)")
            deck_ids[kind] = ()
    if not e.ok or effect is None:
        return None
    return Province(ident, e.text("name"), code, e.text("description", "", allow_empty=True), movement, start,
                    terrain, cells, features, corner or "top-right", tuple(faces), effect, tuple(tokens), towns,
                    caravan, deck_ids, folder=rel_dir.split("/")[-1], order=order)


def _effect(e: _Entry, icons: dict) -> ProvinceEffect | None:
    if not e.data:
        e.err("is missing (every province has a province effect)")
        return None
    e.unknown_keys(["name", "text", "gauge", "start", "no_icon", "step", "icon", "emoji"])
    steps: list[GaugeStep] = []
    raw = e.get("step", [])
    for i, st in enumerate(raw if isinstance(raw, list) else [], 1):
        se = e.sub("", f"step #{i}", st)
        se.unknown_keys(["id", "name", "movement", "text"])
        sid = se.text("id")
        if sid and not ID_RE.match(sid):
            se.err(f"id must be lower-case letters, digits and dashes, got {_show(sid)}")
        if any(s.id == sid for s in steps):
            se.err(f'duplicate step id "{sid}"')
        step = GaugeStep(sid, se.text("name"), se.int("movement", 0, 6), se.text("text"))
        if se.ok:
            steps.append(step)
        else:
            e.ok = False
    if not steps:
        e.err("needs at least one [[effect.step]] (the gauge's positions)")
    ids = [s.id for s in steps]
    start = e.text("start")
    if start and ids and start not in ids:
        e.err(f'start names step "{start}", which is not one of the gauge\'s steps ({", ".join(ids)})')
    actions: dict[str, IconAction] = {}
    raw = e.get("icon", [])
    for i, ic in enumerate(raw if isinstance(raw, list) else [], 1):
        ie = e.sub("", f"icon #{i}", ic)
        ie.unknown_keys(["icon", "text", "set", "token", "move", "toward", "reach"])
        icon = ie.text("icon")
        if icon and icon not in icons:
            ie.err(f'icon "{icon}" is not one of the pack\'s overland icons (overland/icons.toml)')
        if icon in actions:
            ie.err(f'icon "{icon}" is listed twice')
        to = ie.opt_text("set")
        if to is not None and to not in ids:
            ie.err(f'set names step "{to}", which is not one of the gauge\'s steps')
        token = ie.opt_text("token")
        move = ie.int("move", 0, 12, 0)
        toward = ie.text("toward", "party")
        if toward not in ("party", "compass") and not toward.startswith("town:"):
            ie.err(f'toward must be "party", "compass" or "town:<town id>", got {_show(toward)}')
        reach = _day_effects(ie, "reach")
        if (to is None) == (token is None):
            ie.err('does one thing: either set = "<step>" (the gauge) or token = "<id>" with move (a token)')
        if token and not move:
            ie.err("a token's move must be at least 1")
        act = IconAction(icon, ie.text("text"), to, token, move, toward, reach)
        if ie.ok:
            actions[icon] = act
        else:
            e.ok = False
    if not e.ok:
        return None
    emoji = e.text("emoji", "🌊")
    if len(emoji) > 4 or any(ch.isalnum() or ch in "<@>`*_~|" for ch in emoji):
        e.err(f"emoji is one emoji (the mark of the effect's lines), got {_show(emoji)}")
    return ProvinceEffect(e.text("name"), e.text("text"), e.text("gauge"), start, e.text("no_icon"),
                          tuple(steps), actions, emoji)


def _load_gazetteer(folder: Path, rel_dir: str, errors: list[str], lines: dict) -> tuple[dict, TownDef | None]:
    rel = _in(rel_dir, "gazetteer.toml")
    doc = _read_toml(folder / rel, rel, errors)
    if doc is None:
        return {}, None
    for k in doc:
        if k not in ("town", "caravan"):
            errors.append(f'{rel}: unknown top-level key "{k}" (write [[town]] entries and one [caravan])')
    towns: dict[str, TownDef] = {}
    marks: dict[int, str] = {}
    for tid, e in _entries({"town": doc.get("town", [])}, "town", rel, errors, "town"):
        town = _town(e, tid, False)
        if town is None:
            continue
        if town.mark in marks:
            e.err(f'mark {town.mark} is used by town "{marks[town.mark]}" too')
            continue
        marks[town.mark] = tid
        towns[tid] = town
    if not towns:
        errors.append(f"{rel}: lists no [[town]]")
    caravan = None
    if "caravan" in doc:
        ce = _Entry(errors, rel, "caravan", doc["caravan"])
        caravan = _town(ce, str(ce.data.get("id") or "caravan"), True)
    else:
        errors.append(f"{rel}: has no [caravan] (every province has a traveling caravan)")
    return towns, caravan


def _town(e: _Entry, tid: str, caravan: bool) -> TownDef | None:
    e.unknown_keys(["id", "name", "text", "features", "shop", "trainer", "effect", "square", "shop_note"]
                   + ([] if caravan else ["mark"]))
    if caravan and not ID_RE.match(tid):
        e.err(f"id must be lower-case letters, digits and dashes, got {_show(tid)}")
    mark = 0 if caravan else e.int("mark", 1, 9)
    features = e.str_list("features", FEATURES)
    common = legendary = 0
    takes = 1
    if "shop" in features:
        se = e.sub("shop", "shop")
        se.unknown_keys(["common", "legendary", "takes"])
        common, legendary = se.int("common", 0, 12, 0), se.int("legendary", 0, 6, 0)
        takes = se.int("takes", 1, 4, 1)
        if not common and not legendary:
            se.err("a shop draws at least one card (common or legendary)")
        if not se.ok:
            e.ok = False
    elif e.has("shop"):
        e.err('has a [shop] but "shop" is not among its features')
    trainer_lines, faded = 0, ()
    if "trainer" in features:
        te = e.sub("trainer", "trainer")
        te.unknown_keys(["lines", "faded"])
        trainer_lines = te.int("lines", 1, 12)
        faded = te.str_list("faded", CONSTELLATIONS)
        if len(faded) >= len(CONSTELLATIONS):
            te.err("fades out every constellation: the trainer would have nothing to teach")
        if not te.ok:
            e.ok = False
    elif e.has("trainer"):
        e.err('has a [trainer] but "trainer" is not among its features')
    effect = None
    if e.has("effect"):
        fe = e.sub("effect", "effect")
        fe.unknown_keys(["name", "text", "once", "effects", "choice", "manual"])
        effects = _day_effects(fe, "effects")
        choices: list[tuple[str, tuple[dict, ...]]] = []
        raw = fe.get("choice", [])
        for i, rc in enumerate(raw if isinstance(raw, list) else [], 1):
            che = fe.sub("", f"choice #{i}", rc)
            che.unknown_keys(["title", "effects"])
            title = che.text("title")
            ce_eff = _day_effects(che, "effects")
            if che.ok:
                choices.append((title, ce_eff))
            else:
                fe.ok = False
        if effects and choices:
            fe.err("has effects and choices: write the effects inside each [[...effect.choice]]")
        manual = fe.bool("manual", False) or (not effects and not choices)
        if fe.ok:
            effect = TownEffect(fe.text("name"), fe.text("text"), fe.bool("once", False), effects, tuple(choices),
                                manual)
        else:
            e.ok = False
    square = None
    if "square" in features:
        qe = e.sub("square", "square")
        qe.unknown_keys(["name", "text", "group", "effects", "manual"])
        effects = _day_effects(qe, "effects")
        manual = qe.bool("manual", False) or not effects
        if qe.ok:
            square = Square(qe.text("name"), qe.text("text"), qe.bool("group", False), effects, manual)
        else:
            e.ok = False
    elif e.has("square"):
        e.err('has a [square] but "square" is not among its features')
    town = TownDef(tid, e.text("name"), mark, e.text("text"), features, common, legendary, takes,
                   e.text("shop_note", "", allow_empty=True), trainer_lines, faded, effect, square, caravan)
    return town if e.ok else None


__all__ = ["CORNERS", "DAY_EFFECTS", "DECK_TYPES", "DIRECTIONS", "FEATURES", "FEATURE_NAMES", "GENERAL",
           "LANDMARKS", "OUTCOMES", "CardChoice", "GaugeStep", "IconAction", "OverlandCard", "OverlandIcon",
           "Province", "ProvinceEffect", "SocialCheck", "Square", "TokenDef", "TownDef", "TownEffect", "load_overland"]
