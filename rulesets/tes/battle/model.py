"""The battle's map, units and the context object every battle step works with.

``state.battle`` is a :class:`rulesets.tes.battle_state.Battle` (typed records; see that
module for every field).  The map is part of the battle: ``Battle.tiles`` are its tile
placements and ``Battle.map_version`` counts changes to them; :func:`place_tile` adds a
tile mid-battle.  Range, sight and path questions are cached per map version.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.core import Dice, Event, RuleError, word
from engine.present import bold, mention
from engine.hexes import Hex, adjacent_tiles, reachable, route_distance
from engine.text import count, plural
from rulesets.tes.battle_state import Battle, TileSpot, Unit
from rulesets.tes.state import Adventurer, Campaign, counted_words, encounter_rules

LOG_KEEP = 40
#: The side of a dungeon's caged unit: deployed without HP chips, it takes no turn and nobody may target it; it only
#: fills its hex until an adventurer frees it (rulesets.tes.battle.dungeon).
CAPTIVE = "captive"


@dataclass(frozen=True)
class MapInfo:
    tile_of: dict[Hex, str]
    passable: frozenset[Hex]
    impassable: frozenset[Hex]
    entrance: tuple[Hex, ...]
    escape: frozenset[Hex]
    caches: dict[Hex, str]
    slots: dict[int, Hex]
    key: int = 0  # one number per (pack, map version, placements): cached answers about the map are keyed by it
    labels: dict[str, Hex] = field(default_factory=dict)  # lettered hexes (A, B, ...) the encounter text uses
    doors: frozenset[Hex] = frozenset()  # delve tiles' connection hexes (rulesets.tes.battle.delve_map)
    cache_spots: frozenset[Hex] = frozenset()  # delve tiles' cache hexes
    enemy_spots: frozenset[Hex] = frozenset()  # delve tiles' enemy hexes
    stars: frozenset[Hex] = frozenset()  # a dungeon diagram's star hexes


_MAPS: dict[tuple, tuple[Any, MapInfo]] = {}
_MAPS_MAX = 512
_SERIAL = 0
# Range ignores units, so it depends on the map alone: one breadth-first distance field per
# (map key, hex) serves every later question about that hex.
_FIELDS: dict[tuple, dict[Hex, int]] = {}
_TILE_ADJ: dict[tuple, dict[Any, set[Any]]] = {}
_FIELDS_MAX = 20000


def map_range(info: MapInfo, a: Hex, b: Hex) -> int | None:
    """The rulebook's range from ``a`` to ``b`` (route around impassable hexes), cached per map version."""
    if a == b:
        return 0
    if b not in info.passable:
        return None
    if a not in info.passable:  # a unit never stands off the map; measure directly just in case
        return route_distance(a, b, info.passable)
    key = (info.key, b)
    field_ = _FIELDS.get(key)
    if field_ is None:
        if len(_FIELDS) > _FIELDS_MAX:
            _FIELDS.clear()
        field_ = _FIELDS[key] = reachable(b, 10_000, info.passable)
    return field_.get(a)


def map_sight(info: MapInfo, a: Hex, b: Hex) -> bool:
    """Sight by tiles (same tile or adjacent tiles), with the tile adjacency computed once per map version."""
    if a == b:
        return True
    ta, tb = info.tile_of.get(a), info.tile_of.get(b)
    if ta is None or tb is None:
        return False
    if ta == tb:
        return True
    adj = _TILE_ADJ.get(info.key)
    if adj is None:
        if len(_TILE_ADJ) > _MAPS_MAX:
            _TILE_ADJ.clear()
        adj = _TILE_ADJ[info.key] = adjacent_tiles(info.tile_of)
    return tb in adj.get(ta, ())


def placements(pack, battle: Battle) -> tuple:
    """The battle's tile placements (the encounter's layout for a battle saved before they were recorded)."""
    from rulesets.tes.content import TilePlacement

    if battle.tiles:
        return tuple(TilePlacement(t.tile, (int(t.offset[0]), int(t.offset[1])), int(t.rotation) % 6)
                     for t in battle.tiles)
    return tuple(pack.encounters[battle.encounter].tiles)


def _build(pack, key: int, spots: tuple, dungeon: str | None = None) -> MapInfo:
    from rulesets.tes.content import assemble_map, dungeon_map

    if dungeon and dungeon in pack.dungeons:  # a dungeon's diagram marks its map, not the tiles' own icons
        m = dungeon_map(pack.tiles, pack.dungeons[dungeon])
    else:
        m = assemble_map(pack.tiles, spots)
    tile_of = {Hex(*h): t for h, t in m.hexes.items()}
    imp = frozenset(Hex(*h) for h in m.impassable)
    doors = frozenset(Hex(*h) for h in m.doors)
    # a delve's party deploys on the entrance's door hexes first (they may explore at the start of their first turn)
    entrance = tuple(sorted((Hex(*h) for h in m.entrance), key=lambda h: (h not in doors, h.q, h.r)))
    return MapInfo(tile_of, frozenset(h for h in tile_of if h not in imp), imp, entrance,
                   frozenset(Hex(*h) for h in m.escape), {Hex(*h): k for h, k in m.caches.items()},
                   {n: Hex(*h) for n, h in m.enemy_slots.items()}, key,
                   {k: Hex(*h) for k, h in sorted(m.labels.items())}, doors,
                   frozenset(Hex(*h) for h in m.cache_spots), frozenset(Hex(*h) for h in m.enemy_spots),
                   frozenset(Hex(*h) for h in m.stars))


def map_info(pack, battle: Battle) -> MapInfo:
    """The battle's assembled map, built once per (pack, map version, placements)."""
    mine = battle.__dict__.get("_map")  # the map this battle object last asked for, if still current
    if mine is not None and mine[0] is pack and mine[1] == battle.map_version:
        return mine[2]
    spots = placements(pack, battle)
    key = (id(pack), battle.map_version, spots, battle.dungeon)
    hit = _MAPS.get(key)
    if hit is None or hit[0] is not pack:
        if len(_MAPS) > _MAPS_MAX:
            _MAPS.clear()
        global _SERIAL
        _SERIAL += 1
        hit = _MAPS[key] = (pack, _build(pack, _SERIAL, spots, battle.dungeon))
    battle.__dict__["_map"] = (pack, battle.map_version, hit[1])
    return hit[1]


def place_tile(c: "Ctx", tile: str, offset: tuple[int, int], rotation: int = 0) -> MapInfo:
    """Put a new tile on the map mid-battle (a delve grows its map); the map version goes up by one.

    The tile may not overlap a hex already on the map.  Its cache chips join the ones left.
    """
    b = c.b
    t = c.pack.tiles.get(tile)
    if t is None:
        raise RuleError(f"There is no map tile `{tile}` in this pack.")
    before = c.map
    new = TileSpot(tile, [int(offset[0]), int(offset[1])], int(rotation) % 6)
    from rulesets.tes.content import TilePlacement, place_hex

    spot = TilePlacement(new.tile, (new.offset[0], new.offset[1]), new.rotation)
    hexes = [Hex(*place_hex(h, spot)) for h in t.hexes]
    overlap = [h for h in hexes if h in before.tile_of]
    if overlap:
        raise RuleError(f"Tile {t.name} would cover hex {overlap[0]}, which is already on the map.")
    if not b.tiles:  # a battle saved before placements were recorded: write its layout down first
        b.tiles = [TileSpot(p.tile, [p.offset[0], p.offset[1]], p.rotation) for p in placements(c.pack, b)]
    b.tiles.append(new)
    b.map_version += 1
    after = c.map
    if b.caches is not None:
        for h, kind in after.caches.items():
            if h not in before.caches:
                b.caches[f"{h.q},{h.r}"] = kind
    return after


def short_label(name: str) -> str:
    words = [w for w in re.split(r"[\s-]+", name) if w]
    return "".join(w[0] for w in words[:3]).upper() if len(words) >= 2 else name[:3].upper()


def adv_uid(owner: str) -> str:
    return f"a:{owner}"


def pos(u: Unit) -> Hex | None:
    return None if u.q is None else Hex(u.q, u.r)


def on_map(u: Unit) -> bool:
    return u.q is not None and not u.defeated and not u.escaped


def names_of(state, u: Unit) -> list[str]:
    """Every status a unit has: an adventurer's track dice and dice on its chip; a chip's dice otherwise."""
    owner = u.owner
    adv = state.adventurers.get(owner) if owner else None
    on_chip = list(u.statuses)
    if adv is None:
        return on_chip
    return [e["status"] for e in adv.cooldown if "status" in e] + [s for s in on_chip]



@dataclass
class Ctx:
    """Everything a battle step works with; ``say`` records an event and a log line."""

    state: Campaign
    pack: Any
    dice: Dice
    events: list[Event] = field(default_factory=list)
    now: float = 0.0  # the action's time (deadlines of prompts it opens are counted from it)

    @property
    def b(self) -> Battle:
        return self.state.battle

    @property
    def map(self) -> MapInfo:
        return map_info(self.pack, self.b)

    @property
    def track_size(self) -> int:
        return self.pack.mat.cooldown_track_size

    def count(self, n: int, one: str, many: str | None = None, *, old: str | None = None) -> str:
        """A count worded right ("1 hex", "2 hexes"): the picture log keeps it, so a campaign on rules revision
        2 or earlier keeps the words its battles always wrote (``old``, the plural after every number)."""
        if not counted_words(self.state):
            return f"{n} {old or many or plural(one)}"
        return count(n, one, many)

    def enemy_act(self, kind: str, *acts: dict) -> None:
        """Keep what a unit the bot plays did ("moves", "engages") for the next map (not kept before the encounter
        rules of 2026-11-23 09:37)."""
        if encounter_rules(self.state):
            self.b.enemy_acts.setdefault(kind, []).extend(acts)

    def say(self, kind: str, text: str, *, since: int = 0, kept: str | None = None, **data: Any) -> None:
        """Say ``text`` (an event) and keep it in the battle's picture log.  A line new in rules revision
        ``since`` is kept only by campaigns on that revision or later (older ones say it without keeping it, so
        their logs replay to the same state); ``kept`` is what those older campaigns keep instead, when they
        kept other words."""
        self.events.append(Event(kind, text, data))
        if self.state.battle is None:
            return
        if self.state.rules < since:
            if not kept:
                return
            text = kept
        log = self.b.log
        # The picture log keeps each line as the battle wrote it then (a saved battle must replay to the
        # same state): people as the front doors write them; the picture names them (render.printable).
        log.append(word(text, data, mention, bold))
        del log[:-LOG_KEEP]

    # ---- units -----------------------------------------------------------
    def unit(self, uid: str) -> Unit:
        return self.b.units[uid]

    def units(self, side: str | None = None, *, alive: bool = True) -> list[Unit]:
        """Units on the map (``alive``), of one side or of every side that takes part: a dungeon's caged units
        (side "captive", rulesets.tes.battle.dungeon) only block their hex, so they are listed only when asked for."""
        out = []
        for u in self.b.units.values():
            if side and u.side != side:
                continue
            if u.side == CAPTIVE and side != CAPTIVE:
                continue
            if alive and not on_map(u):
                continue
            out.append(u)
        return out

    def adv(self, owner: str) -> Adventurer:
        return self.state.adventurers[owner]

    def adv_of(self, u: Unit) -> Adventurer | None:
        return self.state.adventurers.get(u.owner) if u.owner else None

    def hp(self, u: Unit) -> int:
        a = self.adv_of(u)
        return a.hp if a else u.hp

    def occupied(self, except_uid: str | None = None) -> set[Hex]:
        return {pos(u) for u in self.b.units.values() if on_map(u) and u.id != except_uid}

    def occupant(self, h: Hex) -> Unit | None:
        for u in self.b.units.values():
            if on_map(u) and pos(u) == h:
                return u
        return None

    def range_to(self, a: Hex, b: Hex) -> int | None:
        return map_range(self.map, a, b)

    def sight(self, a: Hex, b: Hex) -> bool:
        return map_sight(self.map, a, b)

    def statuses(self, u: Unit) -> list[str]:
        return names_of(self.state, u)

    def has(self, u: Unit, status: str) -> bool:
        return status in self.statuses(u)

    def name(self, u: Unit) -> str:
        return u.name

    def opposing(self, a: Unit, b: Unit) -> bool:
        if a.id == b.id or a.side == CAPTIVE or b.side == CAPTIVE:
            return False
        if self.has(a, "blind"):
            return True
        return (a.side == "enemy") != (b.side == "enemy")

    def current_uid(self) -> str | None:
        return self.b.turn.unit


def class_sheet(c: "Ctx", owner: str):
    """The side of the adventurer's class sheet in play (novice or master), or None without a class."""
    adv = c.adv(owner)
    klass = c.pack.classes.get(adv.class_id) if adv.class_id else None
    if klass is None:
        return None
    return klass.master if adv.class_side == "master" else klass.novice


def stats_of(c: "Ctx", u: Unit):
    """The stat block of a non-adventurer unit: its companion entry, else its enemy entry."""
    if u.companion:
        return c.pack.companions[u.companion]
    return c.pack.enemies[u.enemy]


def find_unit(c: Ctx, text: Any, *, side: str | None = None) -> Unit:
    """A unit by id, name, short label or hex (``[q, r]``, or "q,r"); a clear message otherwise."""
    if isinstance(text, (list, tuple)) and len(text) == 2:  # a hex, as the commands hand it over
        t, h = f"{text[0]},{text[1]}", Hex(int(text[0]), int(text[1]))
    else:
        t = str(text or "").strip()
        try:
            h = Hex.parse(t)
        except ValueError:
            h = None
    if not t:
        raise RuleError("Name a target: an enemy's name (e.g. `High Elf Bandit`), its label or its hex (`q,r`).")
    cands = c.units(side) if side else c.units()
    if side != CAPTIVE:  # a dungeon's caged unit is in its hex, but nobody may act on it until it is freed
        caged = [u for u in c.units(CAPTIVE) if (h is not None and pos(u) == h) or u.name.lower() == t.lower()
                 or u.short.lower() == t.lower()]
        if caged:
            raise RuleError(f"{caged[0].name} is caged: it has no HP chips and nobody may target it until its cage "
                            "is opened (`/battle free` from a hex next to it).")
    if h is not None:
        found = [u for u in cands if pos(u) == h]
        if found:
            return found[0]
        raise RuleError(f"No unit stands in hex {h}. See `/battle map` for where everyone is.")
    low = t.lower()
    if c.state.rules >= 3:  # one namespace at a time is not enough: a text naming two units names neither
        found = [u for u in cands if low in (str(u.id).lower(), str(u.short or "").lower(), u.name.lower())]
        if len(found) > 1:
            names = ", ".join(f"{u.name} ({u.short}, {u.q},{u.r})" for u in found)
            raise RuleError(f"`{t}` names more than one unit ({names}); use its hex q,r.")
        if found:
            return found[0]
    for key in ("id", "short", "name"):
        found = [u for u in cands if str(getattr(u, key) or "").lower() == low]
        if len(found) == 1:
            return found[0]
    found = [u for u in cands if u.name.lower().startswith(low)]
    if len(found) == 1:
        return found[0]
    names = ", ".join(f"{u.name} ({u.short}, {u.q},{u.r})" for u in cands)
    if len(found) > 1:
        raise RuleError(f"`{t}` matches more than one unit; use its label or hex. On the map: {names}.")
    raise RuleError(f"There is no unit `{t}` on the map. On the map: {names or 'nobody'}.")


def require_battle(state: Campaign) -> Battle:
    if not state.battle:
        raise RuleError("There is no battle going on. The party leader starts one with `/battle start`.")
    return state.battle


DEFAULT_PREVENT_TIMEOUT_MINUTES = 60


def prevention_mode(state, owner: str) -> str:
    """A player's prevention setting: "auto" (the bot chooses) or "ask"."""
    return (state.settings.get("prevention") or {}).get(owner, "auto")


def prevent_timeout_minutes(state) -> int:
    """Minutes a player in prevention ask mode has to answer; 0 means: wait without a time-out."""
    return int(state.settings.get("prevent_timeout_minutes", DEFAULT_PREVENT_TIMEOUT_MINUTES) or 0)


def turn_key(u: Unit) -> tuple:
    """A unit's place in the enemy turn order: quest units first, then highest level, then lower hex number."""
    return (0 if u.quest else 1, -int(u.level or 0), int(u.slot or 0), u.id)
