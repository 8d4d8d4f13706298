"""Delve and dungeon maps (``render_delve_map``) and the picture of a revealed tile's placements
(``render_placements``).

A delve grows tile by tile, so its whole map soon outgrows a picture a phone shows 400 px wide.  The map is drawn
as the battle map draws it (render.battlemap: the same tiles, hex labels, chips, HP pills, badges, moves and
engages), with hexes never smaller than the battle map's smallest (every hex label 10 px tall on such a screen),
and the picture shows the part of the map around the action (the acting unit, the hex being explored or where the
party asked to look).  When the whole map does not fit, a small overview of every placed tile sits over the shown
part's top-right corner, the shown part framed in it.

The static layer (the battle map's tiles, outlines and labels, with the delve's door hexes and a dungeon's star
hexes) is drawn once per map version, i.e. when a tile is placed, and cached; every picture crops it and draws the
rest on top: caches, explorable doors, each tile's number with the card beside it, a dungeon's numbered and
lettered hexes, moves, units (a dungeon's caged units behind bars) and engages.  Under the map, as on the battle
map: the cards in play and the skyshard tally, what just happened, who is who and the key.

View model: the battle map's (``render.battlemap.render_map``, ``result`` included: the battle's end) plus
``delve``: ``kind`` ("delve"/"dungeon"), ``doors`` [{"q", "r", "state": explorable|explored|closed}], ``tiles``
[{"tile", "no", "name", "hexes"}], ``cards`` [{"tile", "no", "name", "code", "parts": [{"kind":
skyshard|trap|environment, "active", "text"}]}], ``skyshards`` {"gained", "required", "drawn"}, a dungeon's
``letters`` [{"q", "r", "label"}] and ``stars`` [[q, r]]; and ``focus`` [q, r]: the hex to show (else the hex a
player may choose, the acting unit, the newest tile).
"""
from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import OrderedDict
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.hexes import POINTY, Point
from engine.hexes import Layout as HexLayout
from render import battlemap as bm
from render.common import (BG, GOLD, INK, INK_SOFT, WHITE, build_palette, colour_counts, draw_text, ellipsize,
                           encode_png, fit_font, font, min_text, mix, printable_view, rounded, text_width)

PHONE_W = 400
PHONE_LABEL_PX = 10.0  # a hex label's font, in px, once the picture is shown 400 px wide
W = bm.TARGET_W  # as wide as the battle map: the same type sizes
U = min_text(W)  # the smallest type of the picture (10 px on a phone)
M = bm.M
MAP_H = 700  # the most of the map's height one picture shows (phones scroll down; only the width is scaled)
OVERVIEW_W, OVERVIEW_H = 330, 260  # the inset with the whole map, over the shown part's top-right corner
DOOR = (96, 64, 30)
DOOR_OPEN = (176, 122, 44)
DOOR_SHUT = (150, 140, 128)
DOOR_DARK = (40, 28, 16)
TRAP = bm.ENGAGE_COLOUR
SKY = bm.PATH_COLOUR
ENV = bm.SIDE_COLOURS["companion"]
NEUTRAL = (72, 66, 60)
CAGE = (110, 110, 110)
CAGE_BARS = (40, 40, 40)
OVERVIEW_BG = (236, 230, 216)
PANEL_ROWS = 3  # the cards' lines under the map at most (then "and N more: /battle status")

_cache: "OrderedDict[str, _Static]" = OrderedDict()
_lock = threading.Lock()
_CACHE_MAX = 8
_stats = {"hits": 0, "misses": 0}
_palettes: dict = {}
_specimens: dict = {}
_legends: dict = {}


def label_px() -> int:
    """The smallest hex label's font size, in px of the picture (the battle map's type inside its hexes)."""
    return max(U, int(round(bm.MIN_SIZE * bm.COORD_SCALE)))


def label_size() -> float:
    """The smallest hex size (centre to corner) drawn: the battle map's smallest, whose labels are 10 px tall on a
    400 px wide screen."""
    return float(bm.MIN_SIZE)


def cache_info() -> dict[str, int]:
    with _lock:
        return {"hits": _stats["hits"], "misses": _stats["misses"], "size": len(_cache)}


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _palettes.clear()
        _specimens.clear()
        _legends.clear()
        _stats["hits"] = _stats["misses"] = 0


def _qr(obj):
    return bm._qr(obj)


class _Shift:
    """The battle map's layout moved by (dx, dy): the cropped part of the static layer, as battlemap's drawing
    functions use it (``s`` the hex size, ``f`` the type inside the hexes, ``u`` the smallest type)."""

    def __init__(self, lay: bm._Layout, dx: float, dy: float):
        self.lay, self.dx, self.dy = lay, dx, dy
        self.s, self.f, self.u = lay.s, lay.f, lay.u
        self.width = W

    def centre(self, q: int, r: int) -> tuple[float, float]:
        x, y = self.lay.centre(q, r)
        return x + self.dx, y + self.dy

    def corners(self, cx: float, cy: float, scale: float = 1.0) -> list[tuple[float, float]]:
        return self.lay.corners(cx, cy, scale)


class _Static(NamedTuple):
    img: Image.Image  # the whole map at its hex size (the battle map's static layer with the delve's marks)
    full: bm._Layout
    palette: Image.Image
    overview: Image.Image | None  # the whole map, small (only when it does not fit one picture)
    ov_scale: float
    ov_full: bm._Layout | None
    ov_numbers: Image.Image | None  # the tiles' numbers over it (transparent elsewhere), pasted over the units' dots


# ------------------------------------------------------------ static layer --
def _hexes(view: dict) -> list[dict]:
    return [h for h in (view.get("hexes") or []) if isinstance(h, dict) and _qr(h) is not None]


def _size(hexes: list[dict]) -> float:
    """The hex size: the whole map within the picture's width and MAP_H if it fits at the battle map's sizes,
    else the battle map's smallest (and the picture shows a part of the map)."""
    probe = bm._Layout(hexes, size=1.0)
    wu, hu = probe.max_x - probe.min_x, probe.max_y - probe.min_y
    fit = min((W - 2 * M) / max(wu, 1e-6), (MAP_H - 16) / max(hu, 1e-6))
    return max(bm.MIN_SIZE, min(bm.MAX_SIZE, fit))


def _door(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour) -> None:
    """A door (connection) hex: an arched doorway low in the hex."""
    w, h = s * 0.42, s * 0.34
    x0, y1 = cx - w / 2, cy + s * 0.86
    y0 = y1 - h
    d.rectangle([x0, y0 + w / 2, x0 + w, y1], fill=colour)
    d.pieslice([x0, y0, x0 + w, y0 + w], 180, 360, fill=colour)
    d.rectangle([cx - w * 0.18, y0 + w * 0.55, cx + w * 0.18, y1], fill=DOOR_DARK)


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill, outline) -> None:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=outline)


def _star_at(lay, q: int, r: int) -> tuple[float, float, float]:
    """Where a star hex's star is drawn: low on the hex's right, clear of the chip and its HP pill."""
    cx, cy = lay.centre(q, r)
    return cx + lay.s * 0.58, cy + lay.s * 0.36, lay.s * 0.2


def _draw_static(view: dict) -> tuple[Image.Image, bm._Layout]:
    """The battle map's static layer of the whole map, with the doors and star hexes on it."""
    hexes = _hexes(view)
    lay = bm._Layout(hexes, size=_size(hexes), text_w=W)
    img, lay = bm._draw_static({"hexes": hexes}, lay)
    d = ImageDraw.Draw(img)
    s = lay.s
    dv = view.get("delve") or {}
    for x in dv.get("doors") or []:
        qr = _qr(x)
        if qr is not None:
            cx, cy = lay.centre(*qr)
            _door(d, cx, cy, s, DOOR if x.get("state") != "closed" else DOOR_SHUT)
    for st in dv.get("stars") or []:
        qr = _qr(st)
        if qr is not None:
            _star(d, *_star_at(lay, *qr), GOLD, (120, 80, 0))
    return img, lay


def _overview(view: dict, full: bm._Layout) -> tuple[Image.Image, float, bm._Layout, Image.Image]:
    """The whole map, small: tiles and their outlines, and the tiles' numbers on a layer of their own (the units
    and the frame are drawn per picture, under the numbers)."""
    hexes = _hexes(view)
    probe = bm._Layout(hexes, size=1.0)
    wu, hu = probe.max_x - probe.min_x, probe.max_y - probe.min_y
    s = max(5.0, min(OVERVIEW_W / wu, OVERVIEW_H / hu))
    ov = bm._Layout(hexes, size=s, text_w=W)
    # the small map's own box (its layout centres it in a picture-wide layer)
    x0, y0 = ov.ox + ov.min_x * s, ov.oy + ov.min_y * s
    img = Image.new("RGB", (int(math.ceil(wu * s)) + 4, int(math.ceil(hu * s)) + 4), OVERVIEW_BG)
    ov.ox, ov.oy = ov.ox - x0 + 2, ov.oy - y0 + 2
    ov.hex = HexLayout(POINTY, Point(s, s), Point(ov.ox, ov.oy))
    d = ImageDraw.Draw(img)
    tiles = {_qr(h): h for h in hexes}
    for h in hexes:
        pts = ov.corners(*ov.centre(*_qr(h)))
        d.polygon(pts, fill=bm.IMPASSABLE if h.get("impassable") else bm.tile_colour(h.get("tile")))
    for h in hexes:
        q, r = _qr(h)
        pts = ov.corners(*ov.centre(q, r))
        for i, (dq, dr) in enumerate(bm.EDGE_NEIGHBOURS):
            nb = tiles.get((q + dq, r + dr))
            if nb is None or nb.get("tile") != h.get("tile"):
                d.line([pts[i], pts[(i + 1) % 6]], fill=(52, 44, 36), width=max(2, int(s / 6)))
    numbers = Image.new("RGBA", img.size, (0, 0, 0, 0))
    nd = ImageDraw.Draw(numbers)
    fnum = font(U, True)
    for t in (view.get("delve") or {}).get("tiles") or []:
        cells = [tuple(h) for h in t.get("hexes") or []]
        if cells:
            xs = [ov.centre(*h) for h in cells]
            nd.text((sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)), str(t.get("no")), font=fnum,
                    fill=INK, anchor="mm", stroke_width=3, stroke_fill=WHITE)  # readable on a dark hex too
    return img, s / full.s, ov, numbers


def _my_colours() -> list[tuple[int, int, int]]:
    return [DOOR, DOOR_OPEN, DOOR_DARK, DOOR_SHUT, TRAP, SKY, ENV, NEUTRAL, OVERVIEW_BG, CAGE, CAGE_BARS,
            mix(TRAP, WHITE, 0.55), mix(SKY, WHITE, 0.55), mix(ENV, WHITE, 0.55), (120, 80, 0)]


def _palette(img: Image.Image, full: bm._Layout, dungeon: bool) -> Image.Image:
    """The palette pictures of this hex size (and kind: delve or dungeon) are quantized against: built from the first
    static layer of that size (every tile colour and mark is one of a fixed few), the battle map's specimen and the
    key, then kept: a tile placed later does not pay for a new one."""
    key = (round(full.s, 1), dungeon)  # a delve's and a dungeon's keys differ
    hit = _palettes.get(key)
    if hit is None:
        counts = colour_counts(img) or {}
        for part in (_specimen(full), colour_counts(_legend_strip(dungeon)) or {}):
            for c, n in part.items():
                counts[c] = counts.get(c, 0) + n
        for c in bm.TILE_PALETTE:  # every tile colour (and its entrance tint), whatever this map has
            counts[c] = counts.get(c, 0) + 5000
            counts[mix(c, bm.ENTRANCE_TINT, 0.55)] = counts.get(mix(c, bm.ENTRANCE_TINT, 0.55), 0) + 500
        hit = build_palette(exact=bm._dynamic_colours() + _my_colours(), counts=counts)
        with _lock:
            if len(_palettes) > 16:
                _palettes.clear()
            _palettes[key] = hit
    return hit


def _specimen(full: bm._Layout) -> dict:
    """The colours the per-picture layer draws at this hex size (battlemap's specimen), counted once per size."""
    key = round(full.s, 1)
    hit = _specimens.get(key)
    if hit is None:
        hit = colour_counts(bm._draw_specimen(_Shift(full, 0, 0))) or {}
        with _lock:
            if len(_specimens) > 16:
                _specimens.clear()
            _specimens[key] = hit
    return dict(hit)


def _static_key(view: dict) -> str:
    dv = view.get("delve") or {}
    blob = json.dumps([view.get("hexes") or [], [(x.get("q"), x.get("r"), x.get("state") != "closed")
                                                  for x in dv.get("doors") or []],
                       dv.get("stars") or []], sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha1(f"{view.get('version')}|{blob}".encode()).hexdigest()


def _fits(lay: bm._Layout) -> bool:
    return lay.width <= W and lay.layer_h <= MAP_H


def _static(view: dict) -> _Static:
    key = _static_key(view)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            _stats["hits"] += 1
            return hit
        _stats["misses"] += 1
    img, full = _draw_static(view)
    ov, scale, ov_full, numbers = (None, 0.0, None, None) if _fits(full) else _overview(view, full)
    palette = _palette(img, full, (view.get("delve") or {}).get("kind") == "dungeon")
    built = _Static(img, full, palette, ov, scale, ov_full, numbers)
    with _lock:
        _cache[key] = built
        while len(_cache) > _CACHE_MAX:
            _cache.popitem(last=False)
    return built


# ------------------------------------------------------------- the window --
def _focus(view: dict, full: bm._Layout) -> tuple[float, float]:
    dv = view.get("delve") or {}
    units = [u for u in view.get("units") or [] if isinstance(u, dict)]
    want = _qr(view.get("focus") or [])
    if want is None:
        acting = next((u for u in units if u.get("acting") and _qr(u) is not None), None)
        choices = view.get("choices") or []
        if choices:
            want = _qr(choices[0])
        elif acting is not None:
            want = _qr(acting)
        elif dv.get("tiles") and not view.get("result"):
            hexes = dv["tiles"][-1].get("hexes") or []
            want = _qr(hexes[len(hexes) // 2]) if hexes else None
    if want is None:
        xs = [full.centre(*_qr(u)) for u in units if _qr(u) is not None and u.get("side") == "adventurer"
              and not u.get("defeated")]
        if xs:
            return sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
        return full.width / 2, full.layer_h / 2
    return full.centre(*want)


def window(view: dict, st: _Static) -> tuple[int, int, int, int]:
    """The part of the static layer the picture shows: all of it if the map fits, else a W × MAP_H box around the
    focus (kept inside the map)."""
    full = st.full
    if st.overview is None:
        return 0, 0, W, full.layer_h
    fx, fy = _focus(view, full)
    w, h = W, min(MAP_H, full.layer_h)
    x0 = int(min(max(0, fx - w / 2), full.width - w))
    y0 = int(min(max(0, fy - h / 2), full.layer_h - h))
    return x0, y0, x0 + w, y0 + h


def shown_hexes(view: dict) -> set[tuple[int, int]]:
    """The hexes the picture shows whole (for tests and for saying what is off the picture)."""
    st = _static(printable_view(view))
    x0, y0, x1, y1 = window(view, st)
    out = set()
    s = st.full.s
    for h in view.get("hexes") or []:
        qr = _qr(h)
        if qr is None:
            continue
        cx, cy = st.full.centre(*qr)
        if x0 <= cx - s * 0.8 and cx + s * 0.8 <= x1 and y0 <= cy - s and cy + s <= y1 \
                and picture_centre(view, *qr) is not None:
            out.add(qr)
    return out


def picture_centre(view: dict, q: int, r: int) -> tuple[float, float] | None:
    """Where hex q,r's centre is in the picture ``render_delve_map(view)`` draws (None: not in the shown part)."""
    st = _static(printable_view(view))
    x0, y0, x1, y1 = window(view, st)
    cx, cy = st.full.centre(q, r)
    if not (x0 <= cx <= x1 and y0 <= cy <= y1):
        return None
    px, py = cx - x0, cy - y0 + bm.HEADER_H
    inset = inset_box(st)
    s = st.full.s
    if inset is not None and px + s > inset[0] and py - s < inset[3]:
        return None  # under the overview
    return px, py


# ---------------------------------------------------------- dynamic parts --
def _tag(d: ImageDraw.ImageDraw, cx: float, cy: float, text: str, f, fill, within: float) -> None:
    """A tile's tag (its number and the live parts of its card), kept inside the picture."""
    tw = text_width(text, f) + f.size * 0.8
    cx = min(max(cx, tw / 2 + 4), within - tw / 2 - 4)
    bm._pill(d, cx, cy, text, f, fill)


def _card_colour(parts: list[dict]) -> tuple:
    for p in parts:
        if p.get("active"):
            return {"trap": TRAP, "skyshard": SKY, "environment": ENV}.get(p.get("kind"), NEUTRAL)
    return NEUTRAL


def _pill_text(no, parts: list[dict]) -> str:
    words = {"trap": "TRAP", "skyshard": "SKY", "environment": "ENV"}
    live = [words.get(p.get("kind"), "") for p in parts if p.get("active")]
    return f"T{no}" + (" " + " ".join(live) if live else "")


def _anchor(tile: dict, occupied: set, marks: set, blocked: set) -> tuple[int, int] | None:
    """Where a tile's number goes: a hex of the tile without a unit or a mark, nearest its middle."""
    hexes = [tuple(h) for h in tile.get("hexes") or [] if tuple(h) not in blocked] or \
        [tuple(h) for h in tile.get("hexes") or []]
    if not hexes:
        return None
    mq = sum(q for q, _ in hexes) / len(hexes)
    mr = sum(r for _, r in hexes) / len(hexes)
    return min(hexes, key=lambda h: ((h in occupied) * 10 + (h in marks) * 5
                                      + abs(h[0] - mq) + abs(h[1] - mr) + abs(h[0] + h[1] - mq - mr), h))


def _draw_doors(d: ImageDraw.ImageDraw, lay, view: dict) -> None:
    """The explorable door hexes: a gold rim and an open door."""
    s = lay.s
    for x in (view.get("delve") or {}).get("doors") or []:
        qr = _qr(x)
        if qr is None or x.get("state") != "explorable":
            continue
        cx, cy = lay.centre(*qr)
        pts = lay.corners(cx, cy, 0.9)
        d.line(pts + pts[:1], fill=GOLD, width=max(5, int(s / 8)), joint="curve")
        _door(d, cx, cy, s, DOOR_OPEN)


def _draw_tags(d: ImageDraw.ImageDraw, lay, view: dict, width: float) -> None:
    """Each tile's number with the live parts of the card beside it (SKY, TRAP, ENV), low in a free hex."""
    dv = view.get("delve") or {}
    s = lay.s
    occupied = {_qr(u) for u in view.get("units") or [] if isinstance(u, dict) and _qr(u) is not None}
    marks = {_qr(x) for x in dv.get("doors") or []} | {_qr(c) for c in view.get("caches") or []}
    marks |= {_qr(h) for h in view.get("hexes") or [] if isinstance(h, dict) and h.get("enemy_slot") not in
              (None, False, "")}
    cards = {c.get("tile"): c for c in dv.get("cards") or []}
    blocked = {_qr(h) for h in view.get("hexes") or [] if isinstance(h, dict) and h.get("impassable")}
    f = font(lay.f, "condensed")
    for t in dv.get("tiles") or []:
        at = _anchor(t, occupied, marks, blocked)
        if at is None:
            continue
        cx, cy = lay.centre(*at)
        card = cards.get(t.get("tile"))
        parts = (card.get("parts") if card else None) or []
        _tag(d, cx, cy + s * 0.42, _pill_text(t.get("no"), parts), f, _card_colour(parts), width)


def _slot_hexes(view: dict) -> list[dict]:
    """The hexes whose mark the battle map draws like an enemy slot: a dungeon's numbered and lettered hexes."""
    out = [h for h in view.get("hexes") or [] if isinstance(h, dict)]
    for x in (view.get("delve") or {}).get("letters") or []:
        qr = _qr(x)
        if qr is not None and x.get("label"):
            out.append({"q": qr[0], "r": qr[1], "enemy_slot": str(x["label"])})
    return out


def _draw_caged(d: ImageDraw.ImageDraw, lay, units: list[dict]) -> None:
    """A dungeon's caged units: a grey chip behind bars, CAGED where the HP would be (they have no HP chips yet)."""
    s = lay.s
    fchip = font(lay.f, "condensed")
    for u in units:
        qr = _qr(u)
        if qr is None:
            continue
        cx, ty = bm.chip_centre(lay, *qr, yoff=0)
        ch = bm.chip_height(lay)
        short = bm._short(u)
        fs = fit_font(short, s * 1.5 - lay.f * 0.5, max(lay.f, int(s * 0.42)), "condensed", min_size=lay.f)
        cw = min(max(text_width(short, fs) + lay.f * 0.45, ch * 1.2), s * 1.55)
        rounded(d, [cx - cw / 2, ty - ch / 2, cx + cw / 2, ty + ch / 2], radius=ch * 0.42, fill=CAGE,
                outline=WHITE, width=max(2, int(s / 24)))
        for k in (-0.34, 0, 0.34):  # the cage's bars, under the letters
            x = cx + k * cw
            d.line([(x, ty - ch * 0.62), (x, ty + ch * 0.62)], fill=CAGE_BARS, width=max(3, int(s / 20)))
        draw_text(d, (cx, ty + 0.5), short, fs, WHITE, "mm")
        cy = lay.centre(*qr)[1]
        bm._pill(d, cx, cy + s * bm.PILL_DY, "CAGED", fchip, CAGE_BARS)


def _panel_lines(view: dict) -> list[tuple[str, tuple]]:
    dv = view.get("delve") or {}
    out: list[tuple[str, tuple]] = []
    sk = dv.get("skyshards")
    if sk:
        done = sk.get("drawn", 0) >= sk.get("required", 3)
        hint = "" if view.get("result") else (" (all drawn: nothing left to explore)" if done else
                                              " · gold-rimmed doors may be explored")
        out.append((f"Skyshards gained: {sk.get('gained', 0)}/{sk.get('required', 3)}{hint}", SKY))
    for c in dv.get("cards") or []:
        for p in c.get("parts") or []:
            if p.get("kind") == "skyshard":  # its tile's tag says SKY; the tally above counts them
                continue
            kind = {"trap": "TRAP", "environment": "ENVIRONMENT"}.get(p.get("kind"), "")
            state = "" if p.get("active") else " (done)"
            col = _card_colour([p]) if p.get("active") else NEUTRAL
            out.append((f"T{c.get('no')} {c.get('name')}: {kind} {p.get('text')}{state}", col))
    return out


def _panel(view: dict) -> tuple[list[tuple[list[str], tuple]], int]:
    """The skyshard tally and the cards in play, one line each (their whole texts: /battle status)."""
    f = font(U, True)
    rows = []
    entries = _panel_lines(view)
    if len(entries) > PANEL_ROWS:
        entries = entries[:PANEL_ROWS - 1] + [(f"and {len(entries) - PANEL_ROWS + 1} more: /battle status", NEUTRAL)]
    for text, col in entries:
        rows.append(([ellipsize(text, f, W - 2 * M - 24 - U)], col))
    h = len(rows) * U * bm.ROW
    return rows, (int(U * 1.5 + h + 16) if rows else 0)


def _draw_panel(d: ImageDraw.ImageDraw, y: float, rows, height: int) -> float:
    """The delve's box under the map, as the battle map's boxes: a title, then one line per row with its colour."""
    if not rows:
        return y
    rounded(d, [M, y, W - M, y + height - 8], radius=10, fill=bm.BOX, outline=bm.BOX_LINE, width=2)
    draw_text(d, (M + 12, y + 6), "THE DELVE", font(U, True), INK_SOFT, "la")
    f = font(U, True)
    yy = y + U * 1.5 + 4
    for lines, col in rows:
        d.rectangle([M + 12, yy + U * 0.15, M + 12 + U * 0.5, yy + U * 0.95], fill=col)
        for line in lines:
            draw_text(d, (M + 24 + U * 0.5, yy), line, f, INK, "la")
            yy += U * bm.ROW
    return y + height


# ------------------------------------------------------------------ key --
def legend_items(dungeon: bool) -> list[tuple[str, object, float]]:
    """The key under a delve's or a dungeon's map: the battle map's marks that such a map shows, and its own."""
    size = U
    drop = {"escape"} | ({"enemy slot"} if not dungeon else set())  # a delve's enemies come with their card
    items = [(label, draw, w) for key, label, draw, w in bm.legend_items(size) if key not in drop]
    icon_w = size * 1.5
    fc = font(size, "condensed")

    def tag(text, col):
        return (lambda dd, cx, cy: bm._pill(dd, cx, cy, text, fc, col)), text_width(text, fc) + size * 0.45

    if dungeon:
        items += [("star hex", lambda dd, cx, cy: _star(dd, cx, cy, size * 0.7, GOLD, (120, 80, 0)), icon_w),
                  ("lettered hex", lambda dd, cx, cy: bm._slot(dd, cx, cy, size * 0.72, "A", size), icon_w)]

        def caged(dd, cx, cy):
            h = size * 1.1
            w = h * 1.5
            rounded(dd, [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], radius=h * 0.42, fill=CAGE, outline=WHITE,
                    width=2)
            for k in (-0.34, 0, 0.34):
                dd.line([(cx + k * w, cy - h * 0.62), (cx + k * w, cy + h * 0.62)], fill=CAGE_BARS, width=3)

        items.append(("caged (no HP yet)", caged, size * 1.65 + 10))
    else:
        items += [("door", lambda dd, cx, cy: _door(dd, cx, cy - size * 1.2, size * 1.45, DOOR), icon_w)]

        def explorable(dd, cx, cy):
            r = size * 0.78
            pts = [(cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30)))
                   for i in range(6)]
            dd.line(pts + pts[:1], fill=GOLD, width=5, joint="curve")
            _door(dd, cx, cy - size * 0.95, size * 1.15, DOOR_OPEN)

        items.append(("door you may explore", explorable, icon_w))
        for text, col, label in (("T1 SKY", SKY, "tile 1, skyshard to gain"), ("TRAP", TRAP, "trap"),
                                 ("ENV", ENV, "environment")):
            draw, w = tag(text, col)
            items.append((label, draw, w))
    return items


def _legend_strip(dungeon: bool) -> Image.Image:
    """The key under the map, drawn once (per kind of map) and pasted into every picture."""
    hit = _legends.get(dungeon)
    if hit is None:
        strip = Image.new("RGB", (W, 1200), BG)
        d = ImageDraw.Draw(strip)
        d.line([(M, 6), (W - M, 6)], fill=(200, 190, 172), width=2)
        end = bm._legend(d, M, 14, W - 2 * M, U, legend_items(dungeon))
        hit = strip.crop((0, 0, W, int(end) + 8))
        with _lock:
            _legends[dungeon] = hit
    return hit


# ------------------------------------------------------------- the overview --
def inset_box(st: _Static) -> tuple[int, int, int, int] | None:
    """Where the overview of the whole map sits in the picture (over the shown part's top-right corner)."""
    if st.overview is None:
        return None
    pad = 8
    x = W - st.overview.width - pad * 2 - 6
    y = bm.HEADER_H + 6
    return x, y, x + st.overview.width + 2 * pad, y + st.overview.height + 2 * pad + U + 6


def _draw_overview(img: Image.Image, st: _Static, view: dict, box) -> None:
    """The whole map, small, over the top-right corner of the shown part: the shown part framed, the tiles'
    numbers and the units as dots."""
    d = ImageDraw.Draw(img)
    ov = st.ov_full
    pad = 8
    x, y, x1, y1 = inset_box(st)
    rounded(d, [x, y, x1, y1], radius=10, fill=bm.BOX, outline=INK_SOFT, width=3)
    draw_text(d, (x + pad, y + pad - 2), "WHOLE MAP", font(U, True), INK_SOFT, "la")
    ox, oy = x + pad, y + pad + U + 4
    img.paste(st.overview, (int(ox), int(oy)))
    k = st.ov_scale
    bx0, by0, bx1, by1 = box
    # the shown part, in the small map's pixels (its layout has the whole map's offsets scaled by k)
    fx, fy = st.full.ox, st.full.oy
    sx = lambda px: ov.ox + (px - fx) * k  # noqa: E731
    sy = lambda py: ov.oy + (py - fy) * k  # noqa: E731
    d.rectangle([ox + max(0, sx(bx0)), oy + max(0, sy(by0)), ox + min(st.overview.width - 1, sx(bx1)),
                 oy + min(st.overview.height - 1, sy(by1))], outline=SKY, width=3)
    for u in view.get("units") or []:
        qr = _qr(u) if isinstance(u, dict) else None
        if qr is None or u.get("defeated"):
            continue
        cx, cy = ov.centre(*qr)
        r = max(3, ov.s * 0.45)
        col = bm.SIDE_COLOURS.get(u.get("side"), (90, 90, 90))
        d.ellipse([ox + cx - r, oy + cy - r, ox + cx + r, oy + cy + r], fill=col)
    img.paste(st.ov_numbers, (int(ox), int(oy)), st.ov_numbers)


# --------------------------------------------------------------- pictures --
def draw_delve_map(view: dict) -> tuple[Image.Image, Image.Image]:
    """The finished delve or dungeon map and the palette it is encoded with (``render_delve_map`` encodes them)."""
    view = view or {}
    hexes = view.get("hexes")  # coordinates, tile ids and flags: nothing there is printed as it is
    view = printable_view({k: v for k, v in view.items() if k != "hexes"}) | {"hexes": hexes}
    st = _static(view)
    box = window(view, st)
    x0, y0, x1, y1 = box
    part = st.img.crop(box)
    lay = _Shift(st.full, -x0, -y0)
    pd = ImageDraw.Draw(part)
    s = lay.s
    units = [u for u in (view.get("units") or []) if isinstance(u, dict)]
    free = [u for u in units if u.get("side") != "captive"]
    for c in view.get("caches") or []:
        qr = _qr(c)
        if qr is None or (isinstance(c, dict) and c.get("opened")):
            continue
        cx, cy = lay.centre(*qr)
        bm._chest(pd, cx + s * 0.5, cy + s * 0.62, s * 0.34)
    _draw_doors(pd, lay, view)
    _draw_tags(pd, lay, view, part.width)
    for path, colour in bm._moves_of(view, units):
        bm._draw_moves(pd, lay, path, 0, colour)
    bm._draw_slots(pd, lay, _slot_hexes(view), units, 0)
    bm._draw_choices(pd, lay, view.get("choices") or [], 0)
    bm._draw_hex_dice(pd, lay, view.get("dice") or [], units, 0)
    _draw_caged(pd, lay, [u for u in units if u.get("side") == "captive"])
    bm._draw_units(pd, lay, free, 0)
    bm._draw_engage(pd, lay, view.get("engage"), 0)
    for eng in view.get("engages") or []:
        bm._draw_engage(pd, lay, eng, 0)

    dungeon = (view.get("delve") or {}).get("kind") == "dungeon"
    legend = _legend_strip(dungeon)
    rows, panel_h = _panel(view)
    cap = bm._caption_lines(list(view.get("log") or []), W, U)
    cap_h = bm._caption_height(cap, U)
    roster = bm._roster_layout(units, W, U)
    top = bm.HEADER_H + part.height
    H = top + 6 + panel_h + cap_h + roster[1] + legend.height
    img = Image.new("RGB", (W, int(H)), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, bm.HEADER_H - 6], fill=bm.HEADER_BG)
    bm._draw_header(d, W, str(view.get("title") or ("Dungeon" if dungeon else "Delve")), view.get("round"),
                    bool(view.get("fatigue_round")), str(view.get("result") or ""))
    img.paste(part, (0, bm.HEADER_H))
    if st.overview is not None:
        _draw_overview(img, st, view, box)
    y = _draw_panel(d, top + 6, rows, panel_h)
    y2 = bm._draw_caption(d, W, y, cap, U)
    end = bm._draw_roster(d, W, y2, roster, U)
    img.paste(legend, (0, int(H - legend.height)))
    img.info["parts"] = {"map": (bm.HEADER_H, top), "panel": (top + 6, y), "caption": (y, y2), "roster": (y2, end),
                         "legend": (H - legend.height, H)}
    return img, st.palette


def render_delve_map(view: dict) -> bytes:
    """Draw a delve's or a dungeon's map picture (or its end, with ``result``); returns PNG bytes."""
    img, palette = draw_delve_map(view)
    return encode_png(img, palette_image=palette)


def render_placements(view: dict) -> bytes:
    """A revealed tile's legal placements, one numbered panel each (two side by side), around the explored hex."""
    view = printable_view(view or {})
    options = [o for o in view.get("options") or [] if isinstance(o, dict)]
    hexes = [h for h in view.get("hexes") or [] if _qr(h) is not None]
    at = _qr(view.get("explored") or []) or (0, 0)
    near = []
    for o in options:
        near += [tuple(h) for h in o.get("hexes") or []]
    near.append(at)
    # each panel shows the explored hex, the candidate tiles and the map hexes near them
    cq = [q for q, _ in near]
    cr = [r for _, r in near]
    around = [h for h in hexes if min(cq) - 3 <= _qr(h)[0] <= max(cq) + 3 and min(cr) - 2 <= _qr(h)[1] <= max(cr) + 2]
    cols = 2 if len(options) > 1 else 1
    pw = (W - M * (cols + 1)) // cols
    coords = [{"q": q, "r": r} for q, r in [_qr(h) for h in around] + near]
    probe = bm._Layout(coords, size=1.0)
    wu, hu = probe.max_x - probe.min_x, probe.max_y - probe.min_y
    s = max(14.0, min((pw - 16) / wu, 520 / hu, 60))
    full = bm._Layout(coords, size=s, text_w=W)
    map_x0, map_y0 = full.ox + full.min_x * s, full.oy + full.min_y * s
    map_w, map_h = full.map_w, full.map_h
    head = U * 2.6
    ph = map_h + head + 16
    rows = (len(options) + cols - 1) // cols
    title_h = bm.HEADER_H
    key = _placements_key()
    H = title_h + 10 + rows * (ph + M) + key.height
    img = Image.new("RGB", (W, int(H)), BG)
    img.paste(key, (0, int(H - key.height)))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, bm.HEADER_H - 6], fill=bm.HEADER_BG)
    bm._draw_title(d, str(view.get("title") or "Where does the tile go?"), M, (bm.HEADER_H - 6) / 2, W - 2 * M,
                   max(26, U + 1))
    fnum = font(int(U * 1.8), True)
    fsmall = font(U, True)
    occupied = {(u.get("q"), u.get("r")): u for u in view.get("units") or [] if isinstance(u, dict)}
    doors = {tuple(h) for h in view.get("doors") or []}
    for i, o in enumerate(options):
        px = M + (i % cols) * (pw + M)
        py = title_h + 10 + (i // cols) * (ph + M)
        default = bool(o.get("default"))
        rounded(d, [px, py, px + pw, py + ph], radius=12, fill=bm.BOX,
                outline=GOLD if default else bm.BOX_LINE, width=6 if default else 2)
        ox = px + (pw - map_w) / 2 - map_x0
        oy = py + head - map_y0
        for h in around:
            qr = _qr(h)
            cx, cy = full.centre(*qr)
            pts = [(x + ox, y + oy) for x, y in full.corners(cx, cy)]
            col = bm.IMPASSABLE if h.get("impassable") else mix(bm.tile_colour(h.get("tile")), WHITE, 0.35)
            d.polygon(pts, fill=col, outline=DOOR_SHUT)
            if qr in doors:
                _door(d, cx + ox, cy + oy, s, (150, 120, 90))
            if qr in occupied:
                _chip(d, cx + ox, cy + oy - s * 0.1, occupied[qr], s)
        new = [tuple(h) for h in o.get("hexes") or []]
        for qr in new:
            cx, cy = full.centre(*qr)
            pts = [(x + ox, y + oy) for x, y in full.corners(cx, cy)]
            d.polygon(pts, fill=mix(SKY, WHITE, 0.55), outline=SKY)
        for qr in [tuple(h) for h in o.get("impassable") or []]:
            cx, cy = full.centre(*qr)
            d.polygon([(x + ox, y + oy) for x, y in full.corners(cx, cy, 0.7)], fill=bm.IMPASSABLE)
        for qr in [tuple(h) for h in o.get("doors") or []]:
            cx, cy = full.centre(*qr)
            _door(d, cx + ox, cy + oy, s, DOOR)
        for qr in [tuple(h) for h in o.get("enemies") or []]:
            cx, cy = full.centre(*qr)
            r = s * 0.22
            d.ellipse([cx + ox - r - s * 0.3, cy + oy - r, cx + ox + r - s * 0.3, cy + oy + r], fill=TRAP)
        for qr in [tuple(h) for h in o.get("caches") or []]:
            cx, cy = full.centre(*qr)
            bm._chest(d, cx + ox + s * 0.3, cy + oy, s * 0.45)
        cx, cy = full.centre(*at)
        d.regular_polygon((cx + ox, cy + oy, s * 0.92), 6, rotation=30, outline=GOLD, width=max(4, int(s / 6)))
        nw = bm._pill(d, px + 16 + fnum.size * 0.7, py + head / 2, str(o.get("n")), fnum, SKY if not default else GOLD,
                      fg=WHITE if not default else INK)
        if default:
            draw_text(d, (px + 16 + fnum.size * 0.7 + nw / 2 + 12, py + head / 2), "suggested", fsmall, INK_SOFT, "lm")
    return encode_png(img)


def _chip(d: ImageDraw.ImageDraw, cx: float, cy: float, u: dict, s: float) -> None:
    """A unit on a placement's picture: its chip with its letters where the hexes are large enough for them at the
    picture's smallest type, else a disc of its side's colour."""
    col = bm.SIDE_COLOURS.get(u.get("side"), (90, 90, 90))
    short = str(u.get("short") or "")
    f = font(U, "condensed")
    if not short or s < U * 1.6:
        r = s * 0.42
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=col, outline=WHITE, width=2)
        return
    h = U * 1.3
    w = min(max(text_width(short, f) + U * 0.45, h * 1.2), s * 1.6)
    rounded(d, [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], radius=h * 0.42, fill=col, outline=WHITE, width=2)
    draw_text(d, (cx, cy + 0.5), short, fit_font(short, w - 6, U, "condensed", min_size=U), WHITE, "mm")


def _placements_key() -> Image.Image:
    """The key under the placements: what each panel's marks mean (drawn once)."""
    hit = _legends.get("placements")
    if hit is None:
        size = U
        icon_w = size * 1.5

        def hexagon(fill, outline, width):
            def draw(dd, cx, cy):
                dd.regular_polygon((cx, cy, size * 0.8), 6, rotation=30, fill=fill, outline=outline, width=width)
            return draw

        items = [("the hex explored", hexagon(None, GOLD, 4), icon_w),
                 ("where the tile goes", hexagon(mix(SKY, WHITE, 0.55), SKY, 2), icon_w),
                 ("door", lambda dd, cx, cy: _door(dd, cx, cy - size * 1.2, size * 1.45, DOOR), icon_w),
                 ("enemy hex", lambda dd, cx, cy: dd.ellipse([cx - size * 0.35, cy - size * 0.35, cx + size * 0.35,
                                                             cy + size * 0.35], fill=TRAP), icon_w),
                 ("cache", lambda dd, cx, cy: bm._chest(dd, cx, cy, size * 1.2), icon_w),
                 ("impassable", lambda dd, cx, cy: dd.regular_polygon((cx, cy, size * 0.6), 6, rotation=30,
                                                                      fill=bm.IMPASSABLE), icon_w)]
        strip = Image.new("RGB", (W, 600), BG)
        d = ImageDraw.Draw(strip)
        d.line([(M, 6), (W - M, 6)], fill=(200, 190, 172), width=2)
        end = bm._legend(d, M, 14, W - 2 * M, size, items)
        hit = strip.crop((0, 0, W, int(end) + 8))
        with _lock:
            _legends["placements"] = hit
    return hit


__all__ = ["draw_delve_map", "render_delve_map", "render_placements", "label_px", "label_size", "window",
           "shown_hexes", "picture_centre", "inset_box", "legend_items", "cache_info", "clear_cache"]
