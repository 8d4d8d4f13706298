"""What the map picture shows of a delve or a dungeon, and the picture of a revealed tile's placements.

``delve_view`` is the map view's ``delve`` part (``render.delve`` draws it over the battle map): the tiles'
numbers and door hexes (explorable or explored), the cards beside their tiles (skyshards, traps,
environments), a dungeon's lettered and star hexes, and the skyshard tally.  ``placements_view`` is the picture
of every legal placement of a revealed tile, numbered as the prompt's menu numbers them.
"""
from __future__ import annotations

from typing import Any

from engine.text import count


def _hx(h) -> list[int]:
    return [h.q, h.r]


def delve_view(state, pack, m, battle=None) -> dict[str, Any] | None:
    """The delve or dungeon part of the map view (None for a clash): of the battle going on, or of ``battle``
    (one that has ended: nothing is explorable any more)."""
    b = battle or state.battle
    d = b.delve
    if d is None and not b.dungeon:
        return None
    from rulesets.tes.battle.delve_map import explored

    out: dict[str, Any] = {"kind": "delve" if d is not None else "dungeon"}
    if d is not None:
        from rulesets.tes.battle.delve_map import explorable_on

        open_ = set(explorable_on(d, m)) if battle is None else set()
        out["doors"] = [{"q": h.q, "r": h.r, "state": "explorable" if h in open_ else
                         ("explored" if explored(h, m.tile_of, m.doors) else "closed")}
                        for h in sorted(m.doors, key=lambda h: (h.r, h.q))]
        tiles: dict[str, list] = {}
        for h, t in m.tile_of.items():
            tiles.setdefault(t, []).append(h)
        out["tiles"] = []
        for tid, no in sorted(d.numbers.items(), key=lambda kv: kv[1]):
            hexes = tiles.get(tid) or []
            if not hexes:
                continue
            out["tiles"].append({"tile": tid, "no": no, "name": pack.tiles[tid].name,
                                 "hexes": [_hx(h) for h in sorted(hexes, key=lambda h: (h.r, h.q))]})
        out["cards"] = []
        for tid, spot in d.cards.items():
            card = pack.delve_cards[spot.card]
            parts = []
            if card.skyshards:
                parts.append({"kind": "skyshard", "active": spot.shards > 0,
                              "text": f"{card.skyshards} skyshard{'s' if card.skyshards > 1 else ''}"
                                      + (" to gain (move onto the tile)" if spot.shards > 0 else " gained")})
            if card.trap:
                from rulesets.tes.battle.lockpick import code_text

                parts.append({"kind": "trap", "active": spot.trap,
                              "text": f"{card.trap.name} {code_text(card.trap.code, card.trap.keys)} "
                                      f"({card.trap.attempts} attempts): {card.trap.part.text}"})
            if card.environment:
                parts.append({"kind": "environment", "active": spot.environment,
                              "text": card.environment.text})
            out["cards"].append({"tile": tid, "no": d.numbers.get(tid), "name": card.name, "code": card.code,
                                 "parts": parts})
        out["skyshards"] = {"gained": d.gained, "required": d.required, "drawn": d.drawn}
    if b.dungeon:
        out["letters"] = [{"q": h.q, "r": h.r, "label": k} for k, h in sorted(m.labels.items())]
        out["stars"] = [_hx(h) for h in sorted(m.stars, key=lambda h: (h.r, h.q))]
    return out


#: Placements drawn on one picture (and listed in one menu): more would make a picture too tall for a phone.
PLACEMENT_PAGE = 8


def placement_page_of(state) -> tuple[int, int]:
    """(the page holding the suggested placement, how many pages) of the revealed tile waiting to be placed."""
    ex = state.battle.delve.exploring
    pages = max(1, -(-len(ex.options) // PLACEMENT_PAGE))
    return min(pages - 1, max(0, (int(ex.default or 1) - 1) // PLACEMENT_PAGE)), pages


def placements_view(state, pack, page: int | None = None) -> dict[str, Any] | None:
    """The legal placements of the revealed tile waiting to be placed, each as its hexes and marks: one page of
    at most ``PLACEMENT_PAGE`` (``page``: from 0; None: the page of the suggested placement)."""
    b = state.battle
    ex = b.delve.exploring if b and b.delve else None
    if ex is None or ex.stage != "place":
        return None
    here, pages = placement_page_of(state)
    page = here if page is None else max(0, min(int(page), pages - 1))
    first, last = page * PLACEMENT_PAGE + 1, min(len(ex.options), (page + 1) * PLACEMENT_PAGE)
    from engine.hexes import Hex
    from rulesets.tes.battle.delve_map import tile_hexes
    from rulesets.tes.battle.model import map_info

    m = map_info(pack, b)
    tile = pack.tiles[ex.tile]
    hexes = [{"q": h.q, "r": h.r, "tile": t, "impassable": h in m.impassable}
             for h, t in sorted(m.tile_of.items(), key=lambda kv: (kv[0].r, kv[0].q))]
    options = []
    for i, (q, r, rot) in enumerate(ex.options, 1):
        if not first <= i <= last:
            continue
        placed = tile_hexes(tile, Hex(q, r), rot)
        options.append({"n": i, "default": i == ex.default,
                        **{k: [_hx(h) for h in v] for k, v in placed.items()}})
    occupied = [{"q": u.q, "r": u.r, "side": u.side, "short": u.short} for u in b.units.values()
                if u.q is not None and not u.defeated]
    title = f"Where does {tile.name} go?" + (f" ({first}-{last} of {len(ex.options)})" if pages > 1 else "")
    return {"title": title, "tile": ex.tile, "page": page, "pages": pages, "explored": list(ex.hex), "hexes": hexes,
            "doors": [_hx(h) for h in m.doors], "units": occupied, "options": options}


def delve_status(state, pack) -> str:
    """``/battle status`` lines: skyshards, explorable hexes, the cards beside their tiles (with their texts),
    the caged units of a dungeon."""
    b = state.battle
    lines: list[str] = []
    d = b.delve
    if d is not None:
        from rulesets.tes.battle.delve_map import explorable
        from rulesets.tes.battle.model import Ctx

        open_ = explorable(Ctx(state, pack, None))
        lines.append(f"Skyshards: **{d.gained}/{d.required}** gained ({d.drawn} drawn). Explorable: "
                     + (", ".join(str(h) for h in open_) or ("none: fully explored" if d.drawn >= d.required
                                                               else "none")) + ".")
        for tid, spot in sorted(d.cards.items(), key=lambda kv: d.numbers.get(kv[0], 0)):
            card = pack.delve_cards[spot.card]
            bits = []
            if card.skyshards:
                bits.append(count(card.skyshards, "skyshard") + (" gained" if not spot.shards else " to gain"))
            if card.trap:
                from rulesets.tes.battle.lockpick import code_text

                bits.append(f"trap {card.trap.name} {code_text(card.trap.code, card.trap.keys)} "
                            f"({card.trap.attempts} attempts, {'fail' if card.trap.on == 'fail' else 'success'}: "
                            f"{card.trap.part.text})" + ("" if spot.trap else " — done"))
            if card.environment:
                bits.append(f"environment ({card.timing}): {card.environment.text}")
            lines.append(f"Tile {d.numbers.get(tid, '?')} ({pack.tiles[tid].name}), {card.name} {card.code}: "
                         + "; ".join(bits))
    caged = [u for u in b.units.values() if u.side == "captive" and u.q is not None]
    if caged:
        lines.append("Caged (no HP chips; `/battle free` next to one): "
                     + ", ".join(f"{u.name} ({u.q},{u.r})" for u in caged))
    return "\n".join(lines)


__all__ = ["delve_status", "delve_view", "placements_view"]
