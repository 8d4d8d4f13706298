"""The overland map as hexes (engine.hexes): what the party can enter, routes, and the closest town (p.58).

Every hex of the map can be entered except a closed town's (p.38).  Tokens may share a hex (p.58).
"""
from __future__ import annotations

from engine.core import RuleError
from engine.hexes import Hex, closest, shortest_path
from engine.text import echo, slug


def cells(prov) -> frozenset[Hex]:
    return frozenset(Hex(*h) for h in prov.hexes)


def enterable(prov, s) -> frozenset[Hex]:
    """The hexes the party token may enter: the map without closed towns."""
    shut = {prov.hex_of_town(t) for t in s.closed}
    return frozenset(Hex(*h) for h in prov.hexes if h not in shut)


def here(s) -> Hex:
    return Hex(*s.party)


def place_name(prov, h: Hex) -> str:
    """A hex in words: its town or landmark (with its name), else its coordinates."""
    f = prov.features.get((h.q, h.r))
    if f is None:
        return f"hex {h}"
    if f[0] == "town":
        return f"{prov.towns[f[1]].name} ({h})"
    name = f" {f[1]}" if f[1] else ""
    return f"the {f[0]} landmark{name} ({h})"


def find_place(prov, text: str) -> Hex:
    """A hex named by the player: ``q,r``, a town's name or a named landmark."""
    raw = str(text or "").strip()
    try:
        h = Hex.parse(raw)
    except ValueError:
        h = None
    if h is not None:
        if (h.q, h.r) not in prov.hexes:
            raise RuleError(f"Hex {h} is not on the map of {prov.name}.")
        return h
    key = slug(raw)
    for tid, town in prov.towns.items():
        if key in (tid, slug(town.name)):
            return Hex(*prov.hex_of_town(tid))
    for hx, f in prov.features.items():
        if f[0] != "town" and f[1] and slug(f[1]) == key:
            return Hex(*hx)
    # a part of a name ("heron" for The Heron Pools): taken when it names one place only
    named = {town.name: Hex(*prov.hex_of_town(tid)) for tid, town in prov.towns.items()}
    named.update({f[1]: Hex(*hx) for hx, f in prov.features.items() if f[0] != "town" and f[1]})
    found = {name: h for name, h in named.items() if key and key in slug(name)} if len(key) >= 3 else {}
    if len(found) == 1:
        return next(iter(found.values()))
    if len(found) > 1:
        raise RuleError(f"`{echo(raw)}` names more than one place of {prov.name}: "
                        + ", ".join(sorted(found)) + ". Name one of them in full.")
    raise RuleError(f"`{echo(raw)}` is not a hex (q,r), a town or a named landmark of {prov.name}. "
                    "Towns: " + ", ".join(t.name for t in prov.towns.values()) + ".")


def route_to(prov, s, goal: Hex) -> list[Hex]:
    """The default shortest route from the party's hex to ``goal`` (engine.hexes tie order)."""
    town = prov.town_at((goal.q, goal.r))
    if town is not None and town.id in s.closed:
        raise RuleError(f"{town.name} is closed: the party cannot enter its hex {goal}.")
    path = shortest_path(here(s), goal, enterable(prov, s))
    if path is None:
        closed = [prov.towns[t].name for t in sorted(s.closed) if t in prov.towns]
        why = (f": {', '.join(closed)} {'is' if len(closed) == 1 else 'are'} closed and the way through "
               f"{'it' if len(closed) == 1 else 'them'} is barred" if closed else "")
        raise RuleError(f"The party cannot reach {place_name(prov, goal)}{why}.")
    return path


def closest_town(prov, s, origin: Hex) -> str | None:
    """The open town with the fewest hexes of route from ``origin`` (ties: the lowest q, then r)."""
    towns = {Hex(*prov.hex_of_town(t)): t for t in prov.towns if t not in s.closed and prov.hex_of_town(t)}
    best = closest(origin, towns, cells(prov))
    return towns[best[0]] if best else None
