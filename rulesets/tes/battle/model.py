"""The battle's shape as plain data, the assembled map, units, and the context object.

``state.battle`` (JSON) holds::

    no, encounter, name, mode, objective, objective_units, round, fatigue_round,
    step ("adventurer" | "enemies" | "over"), order [owner ids], turn_index,
    units {uid: unit}, turn {...}, pending (a rolled engage) | None,
    await (a prevention choice the engine waits for) | None,
    enemy_phase {queue, current}, achievements {id: owner}, defeated_stack [ids],
    escaped [owners], outcome None | "victory" | "defeat" | "retreat", retreat bool,
    log [last lines], map_version, caches {"q,r": kind} (chips left; see ``lockpick``),
    lockpick (a check in progress) | None

A unit: ``{"id", "side", "name", "short", "owner"|None, "enemy"|None, "level",
"q", "r", "hp", "max_hp", "statuses", "defeated", "escaped", "quest", "slot"}`` plus
``"status_dice"`` (S-code dice on the chip, see ``status``).  A companion unit has
side "companion" and ``"companion"``, ``"controller"``, ``"keep"``, ``"party"``.
An adventurer unit's HP lives on the Adventurer (``hp``, ``bonus_hp``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from kernel.core import Dice, Event, RuleError
from kernel.hexes import Hex, adjacent_tiles, reachable, route_distance
from rulesets.tes.state import Adventurer, Campaign

LOG_KEEP = 40


@dataclass(frozen=True)
class MapInfo:
    tile_of: dict[Hex, str]
    passable: frozenset[Hex]
    impassable: frozenset[Hex]
    entrance: tuple[Hex, ...]
    escape: frozenset[Hex]
    caches: dict[Hex, str]
    slots: dict[int, Hex]


_MAPS: dict[tuple[int, str], tuple[Any, MapInfo]] = {}
# Range ignores units, so it depends on the map alone: one breadth-first distance field per
# (map, hex) serves every later question about that hex.  Keyed by the MapInfo's id (MapInfos
# live in _MAPS for the life of the process).
_FIELDS: dict[tuple[int, Hex], dict[Hex, int]] = {}
_TILE_ADJ: dict[int, dict[Any, set[Any]]] = {}
_FIELDS_MAX = 20000


def map_range(info: MapInfo, a: Hex, b: Hex) -> int | None:
    """The rulebook's range from ``a`` to ``b`` (route around impassable hexes), cached per map."""
    if a == b:
        return 0
    if b not in info.passable:
        return None
    if a not in info.passable:  # a unit never stands off the map; measure directly just in case
        return route_distance(a, b, info.passable)
    key = (id(info), b)
    field_ = _FIELDS.get(key)
    if field_ is None:
        if len(_FIELDS) > _FIELDS_MAX:
            _FIELDS.clear()
        field_ = _FIELDS[key] = reachable(b, 10_000, info.passable)
    return field_.get(a)


def map_sight(info: MapInfo, a: Hex, b: Hex) -> bool:
    """Sight by tiles (same tile or adjacent tiles), with the tile adjacency computed once per map."""
    if a == b:
        return True
    ta, tb = info.tile_of.get(a), info.tile_of.get(b)
    if ta is None or tb is None:
        return False
    if ta == tb:
        return True
    adj = _TILE_ADJ.get(id(info))
    if adj is None:
        adj = _TILE_ADJ[id(info)] = adjacent_tiles(info.tile_of)
    return tb in adj.get(ta, ())


def _map_info(encounter: str, pack) -> MapInfo:
    key = (id(pack), encounter)
    hit = _MAPS.get(key)
    if hit is not None and hit[0] is pack:
        return hit[1]
    m = pack.battle_map(encounter)
    tile_of = {Hex(*h): t for h, t in m.hexes.items()}
    imp = frozenset(Hex(*h) for h in m.impassable)
    entrance = tuple(sorted((Hex(*h) for h in m.entrance), key=lambda h: (h.q, h.r)))
    info = MapInfo(tile_of, frozenset(h for h in tile_of if h not in imp), imp, entrance,
                   frozenset(Hex(*h) for h in m.escape), {Hex(*h): k for h, k in m.caches.items()},
                   {n: Hex(*h) for n, h in m.enemy_slots.items()})
    _MAPS[key] = (pack, info)
    return info


def map_info(pack, battle: dict) -> MapInfo:
    return _map_info(battle["encounter"], pack)


def short_label(name: str) -> str:
    words = [w for w in re.split(r"[\s-]+", name) if w]
    return "".join(w[0] for w in words[:3]).upper() if len(words) >= 2 else name[:3].upper()


def adv_uid(owner: str) -> str:
    return f"a:{owner}"


def pos(u: dict) -> Hex | None:
    return None if u.get("q") is None else Hex(u["q"], u["r"])


def on_map(u: dict) -> bool:
    return u.get("q") is not None and not u.get("defeated") and not u.get("escaped")


@dataclass
class Ctx:
    """Everything a battle step works with; ``say`` records an event and a log line."""

    state: Campaign
    pack: Any
    dice: Dice
    events: list[Event] = field(default_factory=list)

    @property
    def b(self) -> dict:
        return self.state.battle

    @property
    def map(self) -> MapInfo:
        return map_info(self.pack, self.b)

    @property
    def track_size(self) -> int:
        return self.pack.mat.cooldown_track_size

    def say(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data))
        if self.state.battle is None:
            return
        log = self.b.setdefault("log", [])
        log.append(text)
        del log[:-LOG_KEEP]

    # ---- units -----------------------------------------------------------
    def unit(self, uid: str) -> dict:
        return self.b["units"][uid]

    def units(self, side: str | None = None, *, alive: bool = True) -> list[dict]:
        out = []
        for u in self.b["units"].values():
            if side and u["side"] != side:
                continue
            if alive and not on_map(u):
                continue
            out.append(u)
        return out

    def adv(self, owner: str) -> Adventurer:
        return self.state.adventurers[owner]

    def adv_of(self, u: dict) -> Adventurer | None:
        return self.state.adventurers.get(u["owner"]) if u.get("owner") else None

    def hp(self, u: dict) -> int:
        a = self.adv_of(u)
        return a.hp if a else u["hp"]

    def occupied(self, except_uid: str | None = None) -> set[Hex]:
        return {pos(u) for u in self.units() if u["id"] != except_uid}

    def occupant(self, h: Hex) -> dict | None:
        for u in self.units():
            if pos(u) == h:
                return u
        return None

    def range_to(self, a: Hex, b: Hex) -> int | None:
        return map_range(self.map, a, b)

    def sight(self, a: Hex, b: Hex) -> bool:
        return map_sight(self.map, a, b)

    def statuses(self, u: dict) -> list[str]:
        from rulesets.tes.battle.status import names_of

        return names_of(self.state, u)

    def has(self, u: dict, status: str) -> bool:
        return status in self.statuses(u)

    def name(self, u: dict) -> str:
        return u["name"]

    def opposing(self, a: dict, b: dict) -> bool:
        if a["id"] == b["id"]:
            return False
        if self.has(a, "blind"):
            return True
        return (a["side"] == "enemy") != (b["side"] == "enemy")

    def current_uid(self) -> str | None:
        t = self.b.get("turn") or {}
        return t.get("unit")


def stats_of(c: "Ctx", u: dict):
    """The stat block of a non-adventurer unit: its companion entry, else its enemy entry."""
    if u.get("companion"):
        return c.pack.companions[u["companion"]]
    return c.pack.enemies[u["enemy"]]


def find_unit(c: Ctx, text: str, *, side: str | None = None) -> dict:
    """A unit by id, name, short label or hex ("q,r"); a clear message otherwise."""
    t = str(text or "").strip()
    if not t:
        raise RuleError("Name a target: an enemy's name (e.g. `High Elf Bandit`), its label or its hex (`q,r`).")
    cands = [u for u in c.units() if side is None or u["side"] == side]
    try:
        h = Hex.parse(t)
    except ValueError:
        h = None
    if h is not None:
        found = [u for u in cands if pos(u) == h]
        if found:
            return found[0]
        raise RuleError(f"No unit stands in hex {h}. See `/battle map` for where everyone is.")
    low = t.lower()
    for key in ("id", "short", "name"):
        found = [u for u in cands if str(u.get(key, "")).lower() == low]
        if len(found) == 1:
            return found[0]
    found = [u for u in cands if u["name"].lower().startswith(low)]
    if len(found) == 1:
        return found[0]
    names = ", ".join(f"{u['name']} ({u['short']}, {u['q']},{u['r']})" for u in cands)
    if len(found) > 1:
        raise RuleError(f"`{t}` matches more than one unit; use its label or hex. On the map: {names}.")
    raise RuleError(f"There is no unit `{t}` on the map. On the map: {names or 'nobody'}.")


def require_battle(state: Campaign) -> dict:
    if not state.battle:
        raise RuleError("There is no battle going on. The party leader starts one with `/battle start`.")
    return state.battle
