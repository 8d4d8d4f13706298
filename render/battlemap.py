"""The battle map picture: ``render_map(view) -> PNG bytes``; and the battle's end: ``render_result(view)``.

Drawn for a phone (Discord shows it about 400 px wide): every text is at least ``min_text(width)`` pixels
(10 px at 400 px wide).  Top to bottom: the header (the battle, the round, a fatigue round), the map,
what just happened (the newest log entries), who is who (each token's letters, the unit's whole name,
its player, hex, HP and statuses in words) and the legend.

On the map each hex shows its ``q,r`` label (what ``/move`` takes); a unit is a chip with its short
letters, its HP pill under it and its status letters (and an enemy's level) as badges beside them.

Pointy-top hexes in axial coordinates (q, r).  The static layer (the header band, tiles, hex outlines,
coordinate labels, impassable / entrance / escape hexes and enemy slots) depends only on the hexes list,
so it is drawn once per map version and kept in a small LRU cache together with the PNG palette for that
map; the legend is drawn once per picture width.  The header text, units, caches, moves, the engage
arrow, what happened and who is who are drawn on each frame, which is only mapped onto the cached
palette.  The palette is computed once from the static layer plus a specimen of everything a frame can
draw, with every flat colour, and explicitly every colour in _dynamic_colours(), kept exactly.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import zlib
from collections import OrderedDict
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.hexes import POINTY, Hex, Point
from engine.hexes import Layout as HexLayout
from render.common import (
    rounded,
    BG, GOLD, INK, INK_FAINT, INK_SOFT, STATUS_COLOURS, WHITE, arrow, build_palette, colour_counts, draw_text,
    encode_png, fit_font, font, min_text, mix, printable_view, status_colour, status_letter, text_on, text_width,
    wrap,
)

_UNIT = HexLayout(POINTY, Point(1.0, 1.0), Point(0.0, 0.0))  # one-unit hexes, for the bounding box
TARGET_W = 1000
U = min_text(TARGET_W)  # 25: the smallest type of a picture TARGET_W wide
M = 12
MIN_SIZE = 62           # hex "radius" (centre to corner) in pixels: the labels, chips and pills need this much
MAX_SIZE = 90
HEADER_H = 72
HEADER_BG = (44, 40, 52)
CAPTION_LINES = 4       # at most this many lines of what just happened
CAPTION_ENTRIES = 3     # ... from the newest log entries
ROW = 1.36              # line height / font size of the text blocks
COORD_SCALE = 0.4       # hex label font size / hex size
COORD_Y = 0.46          # the label's baseline, above the hex centre, in hex sizes
TOKEN_DY = 0.08         # a chip's centre sits this far above its hex centre, in hex sizes
PILL_DY = 0.45          # the HP pill's centre, below the hex centre, in hex sizes

SIDE_COLOURS = {
    "adventurer": (38, 96, 200),
    "companion": (30, 140, 120),
    "enemy": (185, 36, 36),
}
PATH_COLOUR = (25, 80, 190)
ENEMY_PATH_COLOUR = (214, 96, 0)
DEFEATED_COLOUR = (150, 146, 140)
ENGAGE_COLOUR = (215, 25, 25)
TILE_PALETTE = [
    (214, 201, 170), (190, 200, 170), (200, 186, 168), (176, 192, 196), (206, 190, 150),
    (188, 178, 196), (170, 190, 160), (214, 184, 160), (196, 196, 184), (180, 170, 150),
]
IMPASSABLE = (62, 56, 52)
ESCAPE = (96, 184, 96)
ENTRANCE_TINT = (240, 196, 80)
BOX = (255, 252, 245)
BOX_LINE = (120, 110, 98)
RESULT_COLOURS = {"victory": (40, 130, 60), "defeat": (150, 30, 30), "retreat": (110, 110, 110)}
RESULT_WORDS = {"victory": "VICTORY", "defeat": "DEFEAT", "retreat": "RETREAT"}
# neighbour across edge i (between corners i and i+1), corners at -30°, 30°, 90°, ... (y grows downwards)
EDGE_NEIGHBOURS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]

_CACHE_MAX = 8
_cache: "OrderedDict[str, _Static]" = OrderedDict()
_cache_lock = threading.Lock()
_stats = {"hits": 0, "misses": 0, "palettes": 0}
# parts that depend only on the picture's width / hex size, shared by every map of that size: the
# legend strip (by width) and the specimen's colour counts (by width and hex size)
_shared: dict = {}


def cache_info() -> dict[str, int]:
    """Static-layer cache counters: hits, misses, palettes computed and current size."""
    with _cache_lock:
        return {"hits": _stats["hits"], "misses": _stats["misses"], "palettes": _stats["palettes"],
                "size": len(_cache)}


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()
        _shared.clear()
        _stats["hits"] = _stats["misses"] = _stats["palettes"] = 0


def tile_colour(tile: str | None) -> tuple[int, int, int]:
    if not tile:
        return TILE_PALETTE[0]
    return TILE_PALETTE[zlib.crc32(str(tile).encode()) % len(TILE_PALETTE)]


def _qr(obj) -> tuple[int, int] | None:
    try:
        if isinstance(obj, dict):
            return int(obj["q"]), int(obj["r"])
        return int(obj[0]), int(obj[1])
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def _int(v, default=0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def _static_key(view: dict) -> str:
    hexes = view.get("hexes") or []
    blob = json.dumps(hexes, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha1(f"{view.get('version')}|{blob}".encode()).hexdigest()


class _Layout:
    """Hex size and pixel placement computed from the hexes' bounding box (geometry: engine.hexes).

    The hexes fill the picture's width (at most MAX_SIZE); a map too wide for MIN_SIZE hexes makes the
    picture wider.  ``u`` is the smallest type the picture may use; ``f`` the type inside the hexes.
    ``size`` fixes the hex size, and ``text_w`` the width of the picture the layer is shown in when that is
    not the layer's own (render.delve shows a part of a wider layer)."""

    def __init__(self, hexes: list[dict], size: float | None = None, text_w: int | None = None):
        coords = [c for c in (_qr(h) for h in hexes) if c is not None] or [(0, 0)]
        centres = [_UNIT.hex_to_pixel(Hex(q, r)) for q, r in coords]
        half_w = max(abs(_UNIT.corner_offset(i).x) for i in range(6))
        half_h = max(abs(_UNIT.corner_offset(i).y) for i in range(6))
        self.min_x, self.max_x = min(p.x for p in centres) - half_w, max(p.x for p in centres) + half_w
        self.min_y, self.max_y = min(p.y for p in centres) - half_h, max(p.y for p in centres) + half_h
        wu, hu = self.max_x - self.min_x, self.max_y - self.min_y
        self.s = size or max(MIN_SIZE, min(MAX_SIZE, (TARGET_W - 2 * M) / wu))
        self.map_w = int(math.ceil(wu * self.s))
        self.map_h = int(math.ceil(hu * self.s))
        self.width = max(text_w or TARGET_W, self.map_w + 2 * M)
        self.u = min_text(text_w or self.width)
        self.f = max(self.u, int(round(self.s * COORD_SCALE)))
        self.ox = (self.width - self.map_w) / 2 - self.min_x * self.s   # offset inside the static layer
        self.oy = 8 - self.min_y * self.s
        self.layer_h = self.map_h + 16
        self.hex = HexLayout(POINTY, Point(self.s, self.s), Point(self.ox, self.oy))
        # corners clockwise from the upper-right one, so that edge i (corner i to i+1) faces EDGE_NEIGHBOURS[i]
        self._corners = [self.hex.corner_offset((i + 5) % 6) for i in range(6)]

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return tuple(self.hex.hex_to_pixel(Hex(q, r)))

    def corners(self, cx: float, cy: float, scale: float = 1.0) -> list[tuple[float, float]]:
        return [(cx + o.x * scale, cy + o.y * scale) for o in self._corners]


def _draw_static(view: dict, lay: _Layout | None = None) -> tuple[Image.Image, _Layout]:
    """The map layer: tiles, hatching, outlines, tile borders and the hexes' labels (on ``lay``, else on the
    layout the hexes give)."""
    hexes = [h for h in (view.get("hexes") or []) if _qr(h) is not None]
    lay = lay or _Layout(hexes)
    s = lay.s
    img = Image.new("RGB", (lay.width, lay.layer_h), BG)
    d = ImageDraw.Draw(img)
    tiles = {_qr(h): h for h in hexes}
    hatched: list[list[tuple[float, float]]] = []
    # fills
    for h in hexes:
        q, r = _qr(h)
        cx, cy = lay.centre(q, r)
        pts = lay.corners(cx, cy)
        col = tile_colour(h.get("tile"))
        if h.get("impassable"):
            col = IMPASSABLE
            hatched.append(pts)
        elif h.get("escape"):
            col = ESCAPE
        elif h.get("entrance"):
            col = mix(col, ENTRANCE_TINT, 0.55)
        d.polygon(pts, fill=col)
    if hatched:
        _hatch(img, lay, hatched)
    # thin outlines, then thick borders between tiles and along the map's edge
    thin = max(1, int(s / 40))
    thick = max(3, int(s / 14))
    for h in hexes:
        q, r = _qr(h)
        cx, cy = lay.centre(q, r)
        pts = lay.corners(cx, cy)
        d.line(pts + [pts[0]], fill=(120, 108, 92), width=thin)
    for h in hexes:
        q, r = _qr(h)
        cx, cy = lay.centre(q, r)
        pts = lay.corners(cx, cy)
        for i, (dq, dr) in enumerate(EDGE_NEIGHBOURS):
            nb = tiles.get((q + dq, r + dr))
            if nb is None or nb.get("tile") != h.get("tile"):
                d.line([pts[i], pts[(i + 1) % 6]], fill=(52, 44, 36), width=thick)
    # labels: the hex's q,r (what /move takes), and an enemy slot's number
    fcoord = font(lay.f, "condensed")
    for h in hexes:
        q, r = _qr(h)
        cx, cy = lay.centre(q, r)
        label = f"{q},{r}"
        f = fit_font(label, s * 1.2, lay.f, "condensed", min_size=lay.u) if text_width(label, fcoord) > s * 1.2 \
            else fcoord
        colour = (235, 230, 220) if h.get("impassable") else ((20, 60, 20) if h.get("escape") else INK)
        draw_text(d, (cx, cy - s * COORD_Y), label, f, colour, "ms")
    return img, lay


def _draw_slots(d: ImageDraw.ImageDraw, lay, hexes: list, units: list[dict], yoff: float) -> None:
    """The enemy slots' numbers, in the hexes no unit stands on (under a unit they would read as its HP)."""
    taken = {_unit_place(u) for u in units}
    for h in hexes:
        slot = h.get("enemy_slot") if isinstance(h, dict) else None
        qr = _qr(h) if slot not in (None, False, "") else None
        if qr is None or qr in taken:
            continue
        cx, cy = lay.centre(*qr)
        _slot(d, cx - lay.s * 0.48, cy + yoff + lay.s * 0.42, lay.f * 0.72, str(slot), lay.f)


def _slot(d, cx, cy, r, text, size) -> None:
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(250, 236, 230), outline=(160, 30, 30), width=max(2, int(r / 7)))
    draw_text(d, (cx, cy), text, font(size, True), (160, 30, 30), "mm")


class _Static(NamedTuple):
    """One cached map version: everything of the picture that does not change from turn to turn."""
    base: Image.Image       # header band + map layer
    layout: _Layout
    palette: Image.Image    # "P" image every frame of this map is quantized against
    legend: Image.Image     # the legend strip (shared by every map as wide)


def _shared_get(key, make):
    hit = _shared.get(key)
    if hit is None:
        hit = make()
        with _cache_lock:
            if len(_shared) >= 32:
                _shared.clear()
            _shared[key] = hit
    return hit


def _legend_strip(W: int, s: float, f: int) -> Image.Image:
    """The legend: a separator line, then every mark of the map and what it means."""
    strip = Image.new("RGB", (W, 1200), BG)
    d = ImageDraw.Draw(strip)
    d.line([(M, 6), (W - M, 6)], fill=(200, 190, 172), width=2)
    end = _legend(d, M, 14, W - 2 * M, f)
    return strip.crop((0, 0, W, int(end) + 8))


def _build_static(view: dict) -> _Static:
    layer, lay = _draw_static(view)
    W = lay.width
    base = Image.new("RGB", (W, HEADER_H + lay.layer_h), BG)
    ImageDraw.Draw(base).rectangle([0, 0, W, HEADER_H - 6], fill=HEADER_BG)
    base.paste(layer, (0, HEADER_H))
    legend = _shared_get(("legend", W, lay.f), lambda: _legend_strip(W, lay.s, lay.u))
    counts = colour_counts(base)
    spec = _shared_get(("specimen", W, lay.s), lambda: colour_counts(_draw_specimen(lay)))
    if counts is None or spec is None:
        palette = build_palette(base, exact=_dynamic_colours())
    else:
        for part in (spec, colour_counts(legend) or {}):
            for c, n in part.items():
                counts[c] = counts.get(c, 0) + n
        palette = build_palette(exact=_dynamic_colours(), counts=counts)
    with _cache_lock:
        _stats["palettes"] += 1
    return _Static(base, lay, palette, legend)


def _hatch(img: Image.Image, lay: _Layout, polys: list) -> None:
    """Diagonal hatching over the impassable hexes: one pattern for the whole layer (lines from
    (x, layer_h) to (x + layer_h, 0) every ``step`` px), drawn only inside the hexes' bounding box
    (integer offsets, so the pixels are those of a whole-layer pattern)."""
    s = lay.s
    lw = max(2, int(s / 18))
    xs = [x for pts in polys for x, _ in pts]
    ys = [y for pts in polys for _, y in pts]
    bx0, by0 = max(0, int(math.floor(min(xs))) - 2), max(0, int(math.floor(min(ys))) - 2)
    bx1, by1 = min(img.width, int(math.ceil(max(xs))) + 3), min(img.height, int(math.ceil(max(ys))) + 3)
    if bx1 <= bx0 or by1 <= by0:
        return
    mask = Image.new("L", (bx1 - bx0, by1 - by0), 0)
    md = ImageDraw.Draw(mask)
    for pts in polys:
        md.polygon([(x - bx0, y - by0) for x, y in pts], fill=255)
    hatch = Image.new("RGB", mask.size, IMPASSABLE)
    hd = ImageDraw.Draw(hatch)
    step = max(10, int(s / 4))
    H = lay.layer_h
    for x in range(-H, lay.width, step):
        # the line crosses x' = x + H - y; skip it when that band misses the box
        if x + H - by1 > bx1 + lw or x + H - by0 < bx0 - lw:
            continue
        hd.line([(x - bx0, H - by0), (x + H - bx0, -by0)], fill=(112, 104, 96), width=lw)
    img.paste(hatch, (bx0, by0), mask)


def _static_layer(view: dict) -> _Static:
    key = _static_key(view)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            _stats["hits"] += 1
            return hit
        _stats["misses"] += 1
    built = _build_static(view)
    with _cache_lock:
        _cache[key] = built
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_MAX:
            _cache.popitem(last=False)
    return built


def _hp_colour(hp: int, mx: int) -> tuple[int, int, int]:
    if mx <= 0:
        return (110, 110, 110)
    frac = hp / mx
    if frac >= 0.99:
        return (40, 140, 60)
    if frac > 0.34:
        return (200, 130, 20)
    return (190, 30, 30)


def _chest(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float) -> None:
    h = w * 0.72
    x0, y0 = cx - w / 2, cy - h / 2
    lw = max(2, int(w / 12))
    rounded(d, [x0, y0, x0 + w, y0 + h], radius=w * 0.12, fill=(140, 88, 40), outline=(60, 36, 14),
                        width=lw)
    d.line([(x0, y0 + h * 0.38), (x0 + w, y0 + h * 0.38)], fill=(60, 36, 14), width=lw)
    k = w * 0.11
    d.rectangle([cx - k, y0 + h * 0.3, cx + k, y0 + h * 0.58], fill=GOLD, outline=(60, 36, 14), width=1)


def _pill(d: ImageDraw.ImageDraw, cx: float, cy: float, text: str, f, fill, fg=WHITE, outline=WHITE,
          min_w: float = 0) -> float:
    """A rounded label centred on (cx, cy); returns its width."""
    h = f.size * 1.15
    w = max(min_w, h, text_width(text, f) + f.size * 0.45)
    rounded(d, [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], radius=h / 2, fill=fill, outline=outline,
                        width=2)
    draw_text(d, (cx, cy + 0.5), text, f, fg, "mm")
    return w


def _hex_die(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, value, f, owner: str = "",
             side: str = "adventurer") -> None:
    """A skill die lying in a hex: a square die face ``w`` pixels wide with its number, framed in its owner's
    side colour; the owner's short letters on a tag to its right."""
    col = SIDE_COLOURS.get(side, SIDE_COLOURS["adventurer"])
    lw = max(2, int(w / 8))
    rounded(d, [cx - w / 2, cy - w / 2, cx + w / 2, cy + w / 2], radius=w * 0.2, fill=WHITE, outline=col,
                        width=lw)
    num = str(value if value not in (None, "") else "?")
    draw_text(d, (cx, cy + 0.5), num, f if text_width(num, f) <= w * 0.8 else font(f.size, "condensed"), col, "mm")
    if owner:
        fo = font(f.size, "condensed")
        tw = text_width(owner, fo) + fo.size * 0.45
        _pill(d, cx + w / 2 + 2 + tw / 2, cy, owner, fo, col)


def _draw_hex_dice(d: ImageDraw.ImageDraw, lay, dice: list, units: list[dict], yoff: float) -> None:
    """Dice placed in hexes: in an empty hex, the die with whose it is beside it; smaller and left of the
    HP pill where a unit stands (an ally may stand on one) or fell."""
    s = lay.s
    taken = {_unit_place(u) for u in units}
    f = font(lay.f, True)
    for die in dice or []:
        qr = _qr(die) if isinstance(die, dict) else None
        if qr is None:
            continue
        cx, cy = lay.centre(*qr)
        cy += yoff
        owner = str(die.get("owner") or "")
        side = die.get("side") or "adventurer"
        x, y, w = hex_die_box(lay, qr, owner, qr in taken, yoff)
        _hex_die(d, x, y, w, die.get("value"), f, "" if qr in taken else owner, side)


def hex_die_box(lay, qr, owner: str = "", under_a_unit: bool = False, yoff: float = HEADER_H):
    """(x, y, width) of a die lying in hex ``qr``: centred with its owner's tag beside it in an empty hex;
    smaller, left of the HP pill, where a unit stands or fell."""
    s = lay.s
    cx, cy = lay.centre(*qr)
    cy += yoff
    if under_a_unit:
        return cx - s * 0.66, cy + s * PILL_DY, lay.f * 1.2
    tag = (text_width(owner, font(lay.f, "condensed")) + lay.f * 0.45 + 2) if owner else 0
    return cx - tag / 2, cy + s * 0.12, lay.f * 1.45


def _draw_choices(d: ImageDraw.ImageDraw, lay, choices: list, yoff: float) -> None:
    """Hexes offered to a player (the menu's free-move destinations): a thick blue rim and the menu's number."""
    s = lay.s
    fnum = font(lay.f, True)
    for ch in choices or []:
        qr = _qr(ch) if isinstance(ch, dict) else None
        if qr is None:
            continue
        cx, cy = lay.centre(*qr)
        cy += yoff
        _rim(d, lay.corners(cx, cy, 0.86), max(4, int(s / 9)))
        n = str(ch.get("n") or "")
        if n:
            r = lay.f * 0.75
            by = cy + s * 0.12
            d.ellipse([cx - r, by - r, cx + r, by + r], fill=PATH_COLOUR, outline=WHITE, width=2)
            draw_text(d, (cx, by + 0.5), n, fnum, WHITE, "mm")


def _rim(d, pts, width) -> None:
    d.line(pts + pts[:1], fill=PATH_COLOUR, width=width, joint="curve")


def _badge(d, cx, cy, status: str, f) -> float:
    """A status's letters on a pill of its colour; returns its width."""
    text = status_letter(status) if not status.startswith("+") else status
    col = status_colour(status) if not status.startswith("+") else (90, 86, 80)
    return _pill(d, cx, cy, text, f, col)


def _badge_width(status: str, f) -> float:
    text = status_letter(status) if not status.startswith("+") else status
    return max(f.size * 1.15, text_width(text, f) + f.size * 0.45)


def _unit_place(u: dict) -> tuple[int, int] | None:
    """Where a unit is drawn: its hex, or for a defeated unit taken off the map the hex it fell on
    (optional view key ``defeated_at``: [q, r])."""
    qr = _qr(u)
    if qr is None and u.get("defeated"):
        qr = _qr(u.get("defeated_at") or [])
    return qr


def _short(u: dict) -> str:
    return str(u.get("short") or str(u.get("label") or "?")[:3].upper())


def chip_centre(lay, q: int, r: int, yoff: float = HEADER_H) -> tuple[float, float]:
    """Where the chip of a unit standing on q,r is centred in the picture."""
    cx, cy = lay.centre(q, r)
    return cx, cy + yoff - lay.s * TOKEN_DY


def chip_height(lay) -> float:
    return max(lay.s * 0.6, lay.f * 1.4)


def _draw_units(d: ImageDraw.ImageDraw, lay, units: list[dict], yoff: float) -> None:
    """Each unit as a chip with its letters, its HP pill, and its statuses' letters as badges beside them.  A defeated unit is a grey chip crossed out; where a
    living unit stands on the hex it fell on, only a small crossed mark in the hex's corner says so."""
    s = lay.s
    f = lay.f
    fchip = font(f, "condensed")
    fbadge = font(f, "condensed")
    living = {_unit_place(u) for u in units if not u.get("defeated") and _unit_place(u) is not None}
    # defeated first so living units draw on top
    order = sorted(units, key=lambda u: (not u.get("defeated"), bool(u.get("acting"))))
    for u in order:
        qr = _unit_place(u)
        if qr is None:
            continue
        cx, cy = lay.centre(*qr)
        cy += yoff
        defeated = bool(u.get("defeated"))
        if defeated and qr in living:
            _fallen_mark(d, cx - s * 0.64, cy + s * 0.58, f * 0.45)
            continue
        side = u.get("side") or "enemy"
        col = DEFEATED_COLOUR if defeated else SIDE_COLOURS.get(side, (90, 90, 90))
        short = _short(u)
        ty = cy - s * TOKEN_DY
        ch = chip_height(lay)
        fs = fit_font(short, s * 1.5 - f * 0.5, max(f, int(s * 0.42)), "condensed", min_size=f)
        cw = min(max(text_width(short, fs) + f * 0.45, ch * 1.2), s * 1.55)
        x0, y0, x1, y1 = cx - cw / 2, ty - ch / 2, cx + cw / 2, ty + ch / 2
        if u.get("acting") and not defeated:
            g = s * 0.06
            rounded(d, [x0 - g, y0 - g, x1 + g, y1 + g], radius=ch / 2 + g, fill=mix(GOLD, WHITE, 0.4),
                                outline=(200, 130, 0), width=max(3, int(s / 18)))
        ring = mix(col, (0, 0, 0), 0.45)
        rounded(d, [x0, y0, x1, y1], radius=ch * 0.42, fill=col, outline=WHITE if not defeated else ring,
                            width=max(2, int(s / 24)))
        if side == "companion" and not defeated:
            k = max(3, int(s / 16))
            rounded(d, [x0 + k, y0 + k, x1 - k, y1 - k], radius=ch * 0.42 - k, outline=mix(col, WHITE, 0.5),
                                width=max(1, int(s / 36)))
        draw_text(d, (cx, ty + 0.5), short, fs, text_on(col) if not defeated else INK, "mm")
        if defeated:
            k = ch * 0.42
            w = max(3, int(s / 14))
            d.line([(cx - k, ty - k), (cx + k, ty + k)], fill=(120, 20, 20), width=w)
            d.line([(cx - k, ty + k), (cx + k, ty - k)], fill=(120, 20, 20), width=w)
            continue
        # the HP pill under the chip (bonus HP in gold beside it)
        hp, mx, bonus = _int(u.get("hp")), _int(u.get("max_hp")), _int(u.get("bonus_hp"))
        hp_txt = f"{hp}/{mx}" if mx else str(hp)
        py = cy + s * PILL_DY
        pw = max(f * 1.15, text_width(hp_txt, fchip) + f * 0.45)
        bw = (text_width(f"+{bonus}", fchip) + f * 0.4) if bonus else 0
        px0 = cx - (pw + bw) / 2
        ph = f * 1.15
        rounded(d, [px0, py - ph / 2, px0 + pw + bw, py + ph / 2], radius=ph / 2, fill=_hp_colour(hp, mx),
                            outline=WHITE, width=2)
        draw_text(d, (px0 + pw / 2, py + 0.5), hp_txt, fchip, WHITE, "mm")
        if bw:
            rounded(d, [px0 + pw - 2, py - ph / 2, px0 + pw + bw, py + ph / 2], radius=ph / 2, fill=GOLD,
                                outline=WHITE, width=2)
            draw_text(d, (px0 + pw - 1 + bw / 2, py + 0.5), f"+{bonus}", fchip, INK, "mm")
        # badges: the statuses right of the chip and of the pill, then left of them (the level is in who is who)
        spots = [("right", x1, ty), ("right", px0 + pw + bw, py), ("left", x0, ty), ("left", px0, py)]
        statuses = [str(x) for x in (u.get("statuses") or [])]
        if len(statuses) > len(spots):
            statuses = statuses[:len(spots) - 1] + [f"+{len(statuses) - len(spots) + 1}"]
        for st, (side_, ex, ey) in zip(statuses, spots):
            w = _badge_width(st, fbadge)
            bx = ex + w * 0.4 if side_ == "right" else ex - w * 0.4
            _badge(d, bx, ey, st, fbadge)


def _fallen_mark(d, cx, cy, r) -> None:
    """A small grey disc crossed out: a defeated unit lies under the one standing here."""
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=DEFEATED_COLOUR, outline=WHITE, width=2)
    k = r * 0.6
    d.line([(cx - k, cy - k), (cx + k, cy + k)], fill=(120, 20, 20), width=3)
    d.line([(cx - k, cy + k), (cx + k, cy - k)], fill=(120, 20, 20), width=3)


def _draw_moves(d: ImageDraw.ImageDraw, lay, path, yoff: float, colour) -> None:
    """One move: a dot where it started, a line through every hex, arrowheads on each step."""
    s = lay.s
    pts = [p for p in (_qr(p) for p in (path or [])) if p is not None]
    if len(pts) < 2:
        return
    pts = [lay.centre(q, r) for q, r in pts]
    pts = [(x, y + yoff) for x, y in pts]
    lw = max(4, int(s / 11))
    d.ellipse([pts[0][0] - lw * 1.3, pts[0][1] - lw * 1.3, pts[0][0] + lw * 1.3, pts[0][1] + lw * 1.3],
              fill=colour)
    for a, b in zip(pts, pts[1:]):
        d.line([a, b], fill=colour, width=lw)
    for a, b in zip(pts, pts[1:]):
        mx_, my_ = a[0] + (b[0] - a[0]) * 0.6, a[1] + (b[1] - a[1]) * 0.6
        sx_, sy_ = a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3
        arrow(d, (sx_, sy_), (mx_, my_), colour, lw, s * 0.3)


def _draw_engage(d: ImageDraw.ImageDraw, lay, eng, yoff: float) -> None:
    if not isinstance(eng, dict):
        return
    s = lay.s
    a, b = _qr(eng.get("from") or []), _qr(eng.get("to") or [])
    if not (a and b and a != b):
        return
    ax, ay = lay.centre(*a)
    bx, by = lay.centre(*b)
    ay += yoff - s * TOKEN_DY
    by += yoff - s * TOKEN_DY
    dist = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / dist, (by - ay) / dist
    R = s * 0.4
    p0 = (ax + ux * (R + 3), ay + uy * (R + 3))
    p1 = (bx - ux * (R + 2), by - uy * (R + 2))
    lw = max(6, int(s / 7))
    arrow(d, p0, p1, WHITE, lw + 6, s * 0.42)
    arrow(d, p0, p1, ENGAGE_COLOUR, lw, s * 0.34)


# ------------------------------------------------------------------------------------------- legend --
def _legend(d: ImageDraw.ImageDraw, x0: float, y: float, width: float, size: int, items: list | None = None) -> float:
    """Every mark of the map and its meaning (``items``, default ``legend_items(size)``), as many to a line as
    fit; returns the y under it."""
    f = font(size)
    fb = font(size, True)
    row = int(size * 1.6)
    if items is None:
        items = [(label, draw, w) for _key, label, draw, w in legend_items(size)]
    draw_text(d, (x0, y + row / 2), "KEY", fb, INK_SOFT, "lm")
    x = x0 + text_width("KEY", fb) + size * 0.8
    left = x
    for label, draw, w in items:
        need = w + 8 + text_width(label, f) + size * 1.1
        if x + need > x0 + width and x > left:
            x = left
            y += row
        draw(d, x + w / 2, y + row / 2)
        draw_text(d, (x + w + 8, y + row / 2), label, f, INK, "lm")
        x += need
    return y + row


def legend_items(size: int) -> list[tuple[str, str, object, float]]:
    """The battle map's key: (key, label, draw(d, cx, cy), icon width) for every mark, drawn at type ``size``
    (render.delve keeps the ones its maps show and adds its own)."""
    fb = font(size, True)
    fc = font(size, "condensed")
    icon_w = size * 1.5
    items = []
    for st in ("bane", "blind", "daze", "fear", "maim", "stealth"):
        w = _badge_width(st, fc)
        items.append((st, st, lambda dd, cx, cy, st=st: _badge(dd, cx, cy, st, fc), w))

    def chip(side, acting=False, defeated=False):
        def draw(dd, cx, cy):
            h = size * 1.1
            w = h * 1.5
            col = DEFEATED_COLOUR if defeated else SIDE_COLOURS[side]
            if acting:
                rounded(dd, [cx - w / 2 - 5, cy - h / 2 - 5, cx + w / 2 + 5, cy + h / 2 + 5], radius=h / 2 + 5,
                                     fill=mix(GOLD, WHITE, 0.4), outline=(200, 130, 0), width=3)
            rounded(dd, [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], radius=h * 0.42, fill=col,
                                 outline=WHITE, width=2)
            if defeated:
                k = h * 0.38
                dd.line([(cx - k, cy - k), (cx + k, cy + k)], fill=(120, 20, 20), width=3)
                dd.line([(cx - k, cy + k), (cx + k, cy - k)], fill=(120, 20, 20), width=3)
        return draw

    chip_w = size * 1.65 + 10
    items += [("adventurer", "adventurer", chip("adventurer"), chip_w),
              ("companion", "companion", chip("companion"), chip_w), ("enemy", "enemy", chip("enemy"), chip_w),
              ("acting", "whose turn", chip("adventurer", acting=True), chip_w),
              ("defeated", "defeated", chip("enemy", defeated=True), chip_w)]

    def hp(dd, cx, cy):
        _pill(dd, cx, cy, "3/4", fc, _hp_colour(3, 4))

    items += [("hp", "HP", hp, text_width("3/4", fc) + size * 0.45)]
    a = size * 0.7
    items += [("move", "move", lambda dd, cx, cy: arrow(dd, (cx - a, cy), (cx + a, cy), PATH_COLOUR, 5, size * 0.5),
               icon_w),
              ("enemy move", "enemy move", lambda dd, cx, cy: arrow(dd, (cx - a, cy), (cx + a, cy), ENEMY_PATH_COLOUR,
                                                                    5, size * 0.5), icon_w),
              ("engage", "engage", lambda dd, cx, cy: arrow(dd, (cx - a, cy), (cx + a, cy), ENGAGE_COLOUR, 7,
                                                            size * 0.55), icon_w)]

    def free(dd, cx, cy):
        r = size * 0.78
        pts = [(cx + r * math.cos(math.radians(60 * i - 30)), cy + r * math.sin(math.radians(60 * i - 30)))
               for i in range(6)]
        _rim(dd, pts, 4)
        rr = size * 0.62
        dd.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=PATH_COLOUR, outline=WHITE, width=2)
        draw_text(dd, (cx, cy), "1", font(size, True), WHITE, "mm")

    items.append(("free move", "free move you may choose", free, icon_w))

    def swatch(col, hatch=False):
        def draw(dd, cx, cy):
            h = size * 0.9
            dd.rectangle([cx - h * 0.7, cy - h / 2, cx + h * 0.7, cy + h / 2], fill=col, outline=(52, 44, 36),
                         width=2)
            if hatch:
                for k in (-h * 0.4, 0, h * 0.4):
                    dd.line([(cx + k - h * 0.3, cy + h * 0.45), (cx + k + h * 0.3, cy - h * 0.45)],
                            fill=(112, 104, 96), width=2)
        return draw

    items += [("entrance", "entrance", swatch(mix(TILE_PALETTE[0], ENTRANCE_TINT, 0.55)), icon_w),
              ("escape", "escape", swatch(ESCAPE), icon_w),
              ("impassable", "impassable", swatch(IMPASSABLE, hatch=True), icon_w),
              ("enemy slot", "enemy slot", lambda dd, cx, cy: _slot(dd, cx, cy, size * 0.72, "1", size), icon_w),
              ("cache", "cache", lambda dd, cx, cy: _chest(dd, cx, cy, size * 1.2), icon_w),
              ("die", "die in a hex", lambda dd, cx, cy: _hex_die(dd, cx, cy, size * 1.15, 3, fb), icon_w)]
    return items


def _dynamic_colours() -> list[tuple[int, int, int]]:
    """Every flat colour the per-turn layer draws; each is kept exactly in the map's palette."""
    cols = [BG, WHITE, INK, INK_SOFT, INK_FAINT, GOLD, HEADER_BG, PATH_COLOUR, ENGAGE_COLOUR, ENEMY_PATH_COLOUR,
            BOX, BOX_LINE]
    for col in list(SIDE_COLOURS.values()) + [(90, 90, 90), DEFEATED_COLOUR]:
        cols += [col, mix(col, (0, 0, 0), 0.45), mix(col, WHITE, 0.5)]
    cols += [mix(GOLD, WHITE, 0.4), (200, 130, 0)]                                   # whose turn
    cols += [(40, 140, 60), (200, 130, 20), (190, 30, 30), (110, 110, 110)]           # HP pills
    cols += list(STATUS_COLOURS.values()) + [status_colour(""), (90, 86, 80)]         # badges
    cols += [(120, 20, 20)]                                                           # defeated
    cols += [(250, 236, 230), (160, 30, 30)]                                          # enemy slots
    cols += [(140, 88, 40), (60, 36, 14)]                                             # cache chest
    cols += [(210, 40, 30), (255, 210, 80)]                                           # fatigue banner
    cols += list(RESULT_COLOURS.values())                                             # the battle's end
    return list(dict.fromkeys(cols))


class _Grid:
    """Stands in for _Layout when drawing the specimen: unit i of a row sits in column q, row r."""

    def __init__(self, lay: _Layout):
        self.s, self.f, self.u = lay.s, lay.f, lay.u

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return self.s * 1.3 + q * self.s * 2.6, self.s * 1.1 + r * self.s * 2.2


_SPECIMEN_LOG = ["Round 12 begins: fatigue round, every adventurer gains 1 fatigue die.",
                 "Skeleton Archer engages Shannon with Bone Arrow: 2 damage, Shannon is at 3/5.",
                 "Vilya moves 3 hexes to -2,4 and engages Jailer: 4 damage (0123456789)."]


def _draw_specimen(lay: _Layout) -> Image.Image:
    """Everything the per-turn layer can draw, at this map's scale: the palette's sample of its colours
    and of the anti-aliasing blends of its text (white on every chip, pill and badge colour, ink on
    the boxes, the header and what happened)."""
    s, W = lay.s, lay.width
    statuses = list(STATUS_COLOURS) + ["other"]
    units = [
        {"side": "adventurer", "label": "Vilya the Long-Named", "short": "VIL", "hp": 5, "max_hp": 5,
         "bonus_hp": 2, "statuses": statuses[:3], "acting": True, "player": "Ryan"},
        {"side": "companion", "label": "Lyris", "short": "LYR", "hp": 3, "max_hp": 5, "statuses": statuses[3:6]},
        {"side": "enemy", "label": "Skeleton Archer", "short": "SKA", "hp": 1, "max_hp": 5, "level": 2,
         "statuses": statuses[5:] + statuses[:5]},
        {"side": "other", "label": "Wardstone", "short": "W?", "hp": 2, "max_hp": 0, "level": 10},
        {"side": "enemy", "label": "Rat", "short": "RAT", "hp": 0, "max_hp": 3, "level": 1, "defeated": True},
        {"side": "adventurer", "label": "Marcus", "short": "MAR", "hp": 1, "max_hp": 4, "player": "Theo"},
    ]
    cols = max(1, int((W - s * 0.4) // (s * 2.6)))
    for i, u in enumerate(units):
        u["q"], u["r"] = i % cols, i // cols
    rows = (len(units) + cols - 1) // cols
    grid = _Grid(lay)
    top = HEADER_H + rows * s * 2.2 + s * 1.2
    cap = _caption_lines(_SPECIMEN_LOG, W, lay.u)
    roster = _roster_layout(units, W, lay.u)
    H = int(top + _caption_height(cap, lay.u) + roster[1] + 20)
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, HEADER_H - 6], fill=HEADER_BG)
    _draw_header(d, W, "Specimen of the Jailbreak Introduction", 12, True)
    _draw_units(d, grid, units, HEADER_H)
    y = top - s * 0.6
    _chest(d, M + s * 0.3, y, s * 0.34)
    _hex_die(d, M + s * 10, y - s * 0.2, lay.f * 1.45, 3, font(lay.f, True), "RYA")
    _hex_die(d, M + s * 12, y - s * 0.2, lay.f * 1.2, 4, font(lay.f, True))
    arrow(d, (M + s, y), (M + s * 3, y), PATH_COLOUR, max(4, int(s / 11)), s * 0.3)
    arrow(d, (M + s * 7, y), (M + s * 9, y), ENEMY_PATH_COLOUR, max(4, int(s / 11)), s * 0.3)
    arrow(d, (M + s * 4, y), (M + s * 6, y), WHITE, max(6, int(s / 7)) + 6, s * 0.42)
    arrow(d, (M + s * 4, y), (M + s * 6, y), ENGAGE_COLOUR, max(6, int(s / 7)), s * 0.34)
    yy = top
    yy = _draw_caption(d, W, yy, cap, lay.u)
    _draw_roster(d, W, yy, roster, lay.u)
    return img


# ------------------------------------------------------------------------------- header and text --
def _draw_header(d: ImageDraw.ImageDraw, W: int, title: str, rnd, fatigue: bool, result: str = "") -> None:
    """The header's text and badges (its dark band is in the static layer)."""
    size = max(26, min_text(W) + 1)
    right_x = W - M
    mid = (HEADER_H - 6) / 2
    bh = HEADER_H - 22
    badges = []
    if result:
        badges.append((RESULT_WORDS.get(result, result.upper()), RESULT_COLOURS.get(result, (110, 110, 110)),
                       WHITE, (255, 210, 80)))
    if fatigue:
        badges.append(("FATIGUE ROUND", (210, 40, 30), WHITE, (255, 210, 80)))
    if rnd is not None:
        badges.append((f"Round {rnd}", WHITE, INK, None))
    for text, fill, fg, outline in badges:
        fb = font(size, True)
        w = text_width(text, fb) + 24
        rounded(d, [right_x - w, mid - bh / 2, right_x, mid + bh / 2], radius=10, fill=fill,
                            outline=outline, width=3 if outline else 0)
        draw_text(d, (right_x - w / 2, mid), text, fb, fg, "mm")
        right_x -= w + 10
    if rnd is not None:   # the round badge says it already: "Jailbreak — round 4" is drawn "Jailbreak"
        title = re.sub(rf"\s*[—–-]\s*round\s+{re.escape(str(rnd))}\s*$", "", title, flags=re.I) or title
    _draw_title(d, title, M, mid, right_x - M - 6, size)


def title_lines(title: str, width: float, least: int = 26) -> tuple[list[str], object]:
    """The title in one line (shrunk to ``least`` px at the least), else in two lines; cut only past that."""
    f = fit_font(title, width, max(32, least), True, min_size=least)
    if text_width(title, f) <= width:
        return [title], f
    f = font(least, True)
    return wrap(title, f, width, max_lines=2), f


def _draw_title(d: ImageDraw.ImageDraw, title: str, x: float, cy: float, width: float, least: int = 26) -> None:
    lines, f = title_lines(title, width, least)
    if len(lines) == 1:
        draw_text(d, (x, cy), lines[0], f, WHITE, "lm")
        return
    draw_text(d, (x, cy - 15), lines[0], f, WHITE, "lm")
    draw_text(d, (x, cy + 15), lines[1], f, WHITE, "lm")


class _Caption(list):
    """What just happened, as drawn: lines; ``bold`` is how many of the last ones belong to the newest entry."""

    bold = 1


def _caption_lines(log: list, W: int, size: int) -> _Caption:
    entries = [str(x) for x in (log or []) if str(x).strip()][-CAPTION_ENTRIES:]
    width = W - 2 * M - 24
    out = _Caption()
    last = 0
    for i, entry in enumerate(entries):
        newest = i == len(entries) - 1  # drawn bold: wrapped to the bold font's width
        lines = wrap(entry, font(size, True) if newest else font(size), width, max_lines=2 if newest else 1)
        out.extend(lines)
        last = len(lines)
    kept = _Caption(out[-CAPTION_LINES:])
    kept.bold = min(last, len(kept))
    return kept


def _caption_height(lines: list, size: int) -> int:
    return int(size * 1.5 + len(lines) * size * ROW + 16) if lines else 0


def _draw_caption(d: ImageDraw.ImageDraw, W: int, y: float, lines: _Caption, size: int) -> float:
    """The newest log entries (the newest in bold) in a box; returns the y under it."""
    if not lines:
        return y
    h = _caption_height(lines, size)
    rounded(d, [M, y, W - M, y + h - 8], radius=10, fill=BOX, outline=BOX_LINE, width=2)
    draw_text(d, (M + 12, y + 6), "WHAT HAPPENED", font(size, True), INK_SOFT, "la")
    ly = y + size * 1.5 + 4
    newest = len(lines) - lines.bold
    for i, line in enumerate(lines):
        draw_text(d, (M + 12, ly), line, font(size, True) if i >= newest else font(size), INK, "la")
        ly += size * ROW
    return y + h


def _moves_of(view: dict, units: list[dict]) -> list[tuple[list, tuple[int, int, int]]]:
    """Every move to draw: the acting unit's ``path`` (in its side's colour: ``path_side``, default an
    adventurer's), then each of the optional ``moves`` (``[{"unit": id, "path": [[q, r], ...]}]``, e.g. what
    the enemies did in their phase), coloured by the moving unit's side."""
    side_of = {str(u.get("id")): u.get("side") for u in units}
    first = ENEMY_PATH_COLOUR if view.get("path_side") == "enemy" else PATH_COLOUR
    out = [(view.get("path") or [], first)]
    for m in view.get("moves") or []:
        if isinstance(m, dict):
            side = m.get("side") or side_of.get(str(m.get("unit")), "enemy")
            out.append((m.get("path") or [], ENEMY_PATH_COLOUR if side == "enemy" else PATH_COLOUR))
    return out


def _roster_entries(units: list[dict]) -> list[dict]:
    rank = {"adventurer": 0, "companion": 1, "enemy": 2}
    return sorted((u for u in units if isinstance(u, dict)),
                  key=lambda u: (rank.get(u.get("side"), 3), bool(u.get("defeated"))))


def _roster_text(u: dict) -> str:
    """One unit of who is who: name (player), level, hex, HP, statuses; whose turn it is."""
    name = str(u.get("label") or u.get("short") or "?")
    player = str(u.get("player") or "").strip()
    text = f"{name} ({player})" if player and player.lower() != name.lower() else name
    if u.get("level") not in (None, ""):
        text += f", level {u['level']}"
    if u.get("escaped"):          # an escaped unit is off the map too, but not defeated
        return text + " · escaped"
    if u.get("side") == "captive":  # a dungeon's caged unit (render.delve): no HP until it is freed
        qr = _qr(u)
        return text + (f" · {qr[0]},{qr[1]}" if qr else "") + " · no HP until freed"
    if u.get("defeated"):
        fell = _qr(u.get("defeated_at") or []) if _qr(u) is None else _qr(u)
        return text + " · defeated" + (f" on {fell[0]},{fell[1]}" if fell else "")
    qr = _qr(u)
    if qr is not None:
        text += f" · {qr[0]},{qr[1]}"
    hp, mx, bonus = _int(u.get("hp")), _int(u.get("max_hp")), _int(u.get("bonus_hp"))
    text += (f" · {hp}/{mx} HP" if mx else f" · {hp} HP") + (f" +{bonus} bonus" if bonus else "")
    statuses = [str(s) for s in (u.get("statuses") or [])]
    if statuses:
        text += " · " + ", ".join(statuses)
    if u.get("acting"):
        text += " · now"
    return text


def _roster_layout(units: list[dict], W: int, size: int) -> tuple[list[tuple[dict, float, list[str]]], int]:
    """Who is who: each chip's letters and the unit in words, one to a line (wrapped when long)."""
    entries = _roster_entries(units)
    if not entries:
        return [], 0
    f = font(size, True)
    chip_w = size * 3.1
    placed = []
    y = size * 1.5 + 10
    for u in entries:
        lines = wrap(_roster_text(u), f, W - 2 * M - 24 - chip_w - 12, max_lines=3)
        placed.append((u, y, lines))
        y += max(size * 1.5, len(lines) * size * ROW) + 6
    return placed, int(y + 10)


def _draw_roster(d: ImageDraw.ImageDraw, W: int, y0: float, layout, size: int) -> float:
    placed, height = layout
    if not placed:
        return y0
    rounded(d, [M, y0, W - M, y0 + height - 6], radius=10, fill=BOX, outline=BOX_LINE, width=2)
    draw_text(d, (M + 12, y0 + 6), "WHO IS WHO", font(size, True), INK_SOFT, "la")
    f = font(size, True)
    fc = font(size, "condensed")
    chip_w = size * 3.1
    for u, y, lines in placed:
        x = M + 12
        col = SIDE_COLOURS.get(u.get("side") or "enemy", (90, 90, 90)) if not u.get("defeated") else DEFEATED_COLOUR
        yy = y0 + y
        ch = size * 1.35
        rounded(d, [x, yy, x + chip_w, yy + ch], radius=ch * 0.42, fill=col,
                            outline=(200, 130, 0) if u.get("acting") else WHITE, width=3 if u.get("acting") else 1)
        short = _short(u)
        draw_text(d, (x + chip_w / 2, yy + ch / 2 + 0.5), short, fit_font(short, chip_w - 10, size, "condensed", size)
                  if text_width(short, fc) > chip_w - 10 else fc, text_on(col), "mm")
        ty = yy + ch / 2
        for line in lines:
            draw_text(d, (x + chip_w + 12, ty), line, f, INK if not u.get("defeated") else INK_SOFT, "lm")
            ty += size * ROW
    return y0 + height


# ------------------------------------------------------------------------------------------ frame --
def draw_map(view: dict) -> tuple[Image.Image, Image.Image]:
    """The finished map picture and the palette it is encoded with (``render_map`` encodes the two)."""
    view = view or {}
    hexes = view.get("hexes")  # coordinates, tile ids and flags: nothing there is printed as it is
    view = printable_view({k: v for k, v in view.items() if k != "hexes"}) | {"hexes": hexes}
    st = _static_layer(view)
    lay = st.layout
    W, u = lay.width, lay.u
    units = [x for x in (view.get("units") or []) if isinstance(x, dict)]
    cap = _caption_lines(list(view.get("log") or []), W, u)
    cap_h = _caption_height(cap, u)
    roster = _roster_layout(units, W, u)
    top = st.base.height
    H = top + 6 + cap_h + roster[1] + st.legend.height
    img = Image.new("RGB", (W, H), BG)
    img.paste(st.base, (0, 0))
    img.paste(st.legend, (0, H - st.legend.height))
    d = ImageDraw.Draw(img)

    _draw_header(d, W, str(view.get("title") or "Battle"), view.get("round"), bool(view.get("fatigue_round")),
                 str(view.get("result") or ""))
    yoff = HEADER_H
    s = lay.s
    # caches (an opened one is gone from the map)
    for c in view.get("caches") or []:
        qr = _qr(c)
        if qr is None or (isinstance(c, dict) and c.get("opened")):
            continue
        cx, cy = lay.centre(*qr)
        _chest(d, cx + s * 0.5, cy + yoff + s * 0.62, s * 0.34)
    # moves: the acting unit's path and any others the view lists
    for path, colour in _moves_of(view, units):
        _draw_moves(d, lay, path, yoff, colour)
    # enemy slots, hexes a player may choose now (a free move offered), dice placed in hexes, then the units
    _draw_slots(d, lay, view.get("hexes") or [], units, yoff)
    _draw_choices(d, lay, view.get("choices") or [], yoff)
    _draw_hex_dice(d, lay, view.get("dice") or [], units, yoff)
    _draw_units(d, lay, units, yoff)
    # engage arrows on top
    _draw_engage(d, lay, view.get("engage"), yoff)
    for eng in view.get("engages") or []:
        _draw_engage(d, lay, eng, yoff)
    # what just happened, then who is who (the legend is pasted at the bottom)
    y = _draw_caption(d, W, top + 6, cap, u)
    end = _draw_roster(d, W, y, roster, u)
    img.info["parts"] = {"map": (HEADER_H, top), "caption": (top + 6, y), "roster": (y, end),
                         "legend": (H - st.legend.height, H)}
    return img, st.palette


def render_map(view: dict) -> bytes:
    """Draw a battle map from its view model; returns PNG bytes.

    Keys: ``title``, ``round``, ``fatigue_round``, ``version``, ``hexes`` [{"q", "r", "tile", "impassable",
    "entrance", "escape", "enemy_slot"}], ``units`` [{"id", "label", "short", "side", "q", "r", "hp", "max_hp",
    "bonus_hp", "statuses", "acting", "defeated", "level"}], ``caches``, ``path``, ``engage``, ``log``.
    Optional: ``path_side`` (the side of the unit whose ``path`` it is: "enemy" draws it in the enemies'
    colour); ``moves`` [{"unit": id, "path": [[q, r], ...]}] and ``engages`` [{"unit": id, "from": [q, r],
    "to": [q, r]}] (what units did, e.g. the enemy phase); a unit's ``player`` (display name, shown in who is
    who), ``escaped`` and ``defeated_at`` [q, r] (where a defeated unit taken off the map fell); a cache's
    ``opened`` (opened caches are not drawn); ``dice`` [{"q", "r", "value", "owner", "side"}]: skill dice
    placed in hexes (``owner``: the short letters of whose die it is; ``side``: its colour, "adventurer");
    ``choices`` [{"q", "r", "n"}]: hexes a player may choose now, numbered as the post's menu numbers them;
    ``result`` ("victory", "defeat" or "retreat"): the battle is over, said in the header.
    """
    img, palette = draw_map(view)
    return encode_png(img, palette_image=palette)


def render_result(view: dict) -> bytes:
    """The battle's end: the map as the battle ended, its header saying VICTORY, DEFEAT or RETREAT."""
    v = dict(view or {})
    v.setdefault("result", "victory")
    return render_map(v)
