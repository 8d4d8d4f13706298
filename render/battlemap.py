"""The battle map picture: ``render_map(view) -> PNG bytes``.

Pointy-top hexes in axial coordinates (q, r).  The static layer (header band, tiles, hex outlines,
coordinate labels, impassable / entrance / escape hexes, enemy slots and the legend) depends only on
the hexes list, so it is drawn once per map version and kept in a small LRU cache together with the
PNG palette for that map; the header text, units, caches, the move path, the engage arrow and the
log are drawn on a copy each time, and the frame is only mapped onto the cached palette.

The palette is computed once from the static layer plus a specimen of everything the per-turn
layer can draw (tokens of every side, HP pills of every colour, every status badge, the glow, the
arrows, the header and log text), with every flat colour, and explicitly every colour in
_dynamic_colours(), kept exactly.
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
    BG, GOLD, INK, INK_FAINT, INK_SOFT, STATUS_COLOURS, WHITE, arrow, build_palette, colour_counts, draw_text,
    encode_png, fit_font, font, mix, printable_view, status_colour, status_letter, text_on, text_width, wrap,
)

_UNIT = HexLayout(POINTY, Point(1.0, 1.0), Point(0.0, 0.0))  # one-unit hexes, for the bounding box
TARGET_W = 1100
M = 20
MIN_SIZE = 40           # hex "radius" (centre to corner) in pixels, clamped so hexes stay readable
MAX_SIZE = 80
MAX_MAP_H = 1000
HEADER_H = 70
HEADER_BG = (44, 40, 52)
LEGEND_H = 40 * 5 + 10     # room for the legend; its strip is cropped to what it uses
LEGEND_FONT = 21
LOG_FONT = 23
LOG_ROW = 30
LOG_LINES = 6
COORD_SCALE = 0.38      # hex label font size / hex size: 7+ px tall digits when the map is shown 400 px wide
COORD_Y = 0.48          # the label's baseline, above the hex centre, in hex sizes
TOKEN_DY = 0.03         # a token's centre sits this far above its hex centre, in hex sizes
HP_SCALE = 0.34         # HP number font size / hex size
ROSTER_FONT = 25
ROSTER_ROW = 40

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


def _static_key(view: dict) -> str:
    hexes = view.get("hexes") or []
    blob = json.dumps(hexes, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha1(f"{view.get('version')}|{blob}".encode()).hexdigest()


class _Layout:
    """Hex size and pixel placement computed from the hexes' bounding box (geometry: engine.hexes)."""

    def __init__(self, hexes: list[dict]):
        coords = [c for c in (_qr(h) for h in hexes) if c is not None] or [(0, 0)]
        centres = [_UNIT.hex_to_pixel(Hex(q, r)) for q, r in coords]
        half_w = max(abs(_UNIT.corner_offset(i).x) for i in range(6))
        half_h = max(abs(_UNIT.corner_offset(i).y) for i in range(6))
        self.min_x, self.max_x = min(p.x for p in centres) - half_w, max(p.x for p in centres) + half_w
        self.min_y, self.max_y = min(p.y for p in centres) - half_h, max(p.y for p in centres) + half_h
        wu, hu = self.max_x - self.min_x, self.max_y - self.min_y
        size = min((TARGET_W - 2 * M) / wu, MAX_MAP_H / hu)
        self.s = max(MIN_SIZE, min(MAX_SIZE, size))
        self.map_w = int(math.ceil(wu * self.s))
        self.map_h = int(math.ceil(hu * self.s))
        self.width = max(TARGET_W, self.map_w + 2 * M)
        self.ox = (self.width - self.map_w) / 2 - self.min_x * self.s   # offset inside the static layer
        self.oy = 10 - self.min_y * self.s
        self.layer_h = self.map_h + 20
        self.hex = HexLayout(POINTY, Point(self.s, self.s), Point(self.ox, self.oy))
        # corners clockwise from the upper-right one, so that edge i (corner i to i+1) faces EDGE_NEIGHBOURS[i]
        self._corners = [self.hex.corner_offset((i + 5) % 6) for i in range(6)]

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return tuple(self.hex.hex_to_pixel(Hex(q, r)))

    def corners(self, cx: float, cy: float, scale: float = 1.0) -> list[tuple[float, float]]:
        return [(cx + o.x * scale, cy + o.y * scale) for o in self._corners]


def _draw_static(view: dict) -> tuple[Image.Image, _Layout]:
    hexes = [h for h in (view.get("hexes") or []) if _qr(h) is not None]
    lay = _Layout(hexes)
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
    # labels
    fcoord = font(max(14, int(s * COORD_SCALE)), "condensed")
    fsmall = font(max(10, int(s * 0.2)), "condensed")
    fslot = font(max(11, int(s * 0.2)), True)
    for h in hexes:
        q, r = _qr(h)
        cx, cy = lay.centre(q, r)
        dark = h.get("impassable") or h.get("escape")
        d.text((cx, cy - s * COORD_Y), f"{q},{r}", font=fcoord,
               fill=(235, 230, 220) if h.get("impassable") else ((20, 60, 20) if dark else INK), anchor="ms")
        if h.get("escape"):
            d.text((cx, cy + s * 0.78), "EXIT", font=fsmall, fill=(15, 60, 15), anchor="mm")
        elif h.get("entrance"):
            d.text((cx, cy + s * 0.78), "ENTRY", font=fsmall, fill=(110, 70, 0), anchor="mm")
        slot = h.get("enemy_slot")
        if slot not in (None, False, ""):
            sx, sy = cx - s * 0.6, cy + s * 0.08
            rr = s * 0.15
            d.ellipse([sx - rr, sy - rr, sx + rr, sy + rr], fill=(250, 236, 230), outline=(160, 30, 30),
                      width=max(2, int(s / 30)))
            d.text((sx, sy), str(slot), font=fslot, fill=(160, 30, 30), anchor="mm")
    return img, lay


class _Static(NamedTuple):
    """One cached map version: everything of the picture that does not change from turn to turn."""
    base: Image.Image       # header band + map layer + legend; the whole picture when there is no log
    layout: _Layout
    palette: Image.Image    # "P" image every frame of this map is quantized against
    legend_end: float       # y below the legend (the log starts 4 px lower)


def _shared_get(key, make):
    hit = _shared.get(key)
    if hit is None:
        hit = make()
        with _cache_lock:
            if len(_shared) >= 32:
                _shared.clear()
            _shared[key] = hit
    return hit


def _legend_strip(W: int) -> tuple[Image.Image, float]:
    """The separator line and the legend, as drawn below the map layer; and the y under the legend."""
    strip = Image.new("RGB", (W, LEGEND_H + 10), BG)
    d = ImageDraw.Draw(strip)
    d.line([(M, 6), (W - M, 6)], fill=(200, 190, 172), width=2)
    end = _legend(d, M, 16, W - 2 * M)
    return strip.crop((0, 0, W, int(end) + 6)), end


def _build_static(view: dict) -> _Static:
    layer, lay = _draw_static(view)
    W = lay.width
    top = HEADER_H + lay.layer_h
    legend, legend_end = _shared_get(("legend", W), lambda: _legend_strip(W))
    base = Image.new("RGB", (W, top + legend.height), BG)
    ImageDraw.Draw(base).rectangle([0, 0, W, HEADER_H - 6], fill=HEADER_BG)
    base.paste(layer, (0, HEADER_H))
    base.paste(legend, (0, top))
    counts = colour_counts(base)
    spec = _shared_get(("specimen", W, lay.s), lambda: colour_counts(_draw_specimen(lay)))
    if counts is None or spec is None:
        palette = build_palette(base, exact=_dynamic_colours())
    else:
        for c, n in spec.items():
            counts[c] = counts.get(c, 0) + n
        palette = build_palette(exact=_dynamic_colours(), counts=counts)
    with _cache_lock:
        _stats["palettes"] += 1
    return _Static(base, lay, palette, top + legend_end)


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


def _int(v, default=0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def _chest(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float) -> None:
    h = w * 0.72
    x0, y0 = cx - w / 2, cy - h / 2
    lw = max(2, int(w / 12))
    d.rounded_rectangle([x0, y0, x0 + w, y0 + h], radius=w * 0.12, fill=(140, 88, 40), outline=(60, 36, 14),
                        width=lw)
    d.line([(x0, y0 + h * 0.38), (x0 + w, y0 + h * 0.38)], fill=(60, 36, 14), width=lw)
    k = w * 0.11
    d.rectangle([cx - k, y0 + h * 0.3, cx + k, y0 + h * 0.58], fill=GOLD, outline=(60, 36, 14), width=1)


def _hex_die(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, value, owner: str = "",
             side: str = "adventurer") -> None:
    """A skill die lying in a hex: a square die face, ``w`` pixels wide, with its number, framed in its owner's
    side colour; the owner's short label on a tag under it."""
    col = SIDE_COLOURS.get(side, SIDE_COLOURS["adventurer"])
    lw = max(2, int(w / 7))
    d.rounded_rectangle([cx - w / 2, cy - w / 2, cx + w / 2, cy + w / 2], radius=w * 0.2, fill=WHITE, outline=col,
                        width=lw)
    num = str(value if value not in (None, "") else "?")
    draw_text(d, (cx, cy + 0.5), num, fit_font(num, w * 0.72, int(w * 0.8), True, min_size=9), col, "mm")
    if owner:
        fo = fit_font(owner, w * 1.6, max(9, int(w * 0.36)), True, min_size=9)
        tw = text_width(owner, fo) + fo.size * 0.6
        th = fo.size * 1.15
        ty = cy + w / 2 + th / 2 + lw / 2
        d.rounded_rectangle([cx - tw / 2, ty - th / 2, cx + tw / 2, ty + th / 2], radius=th / 2, fill=col,
                            outline=WHITE, width=1)
        draw_text(d, (cx, ty), owner, fo, text_on(col), "mm")


def _draw_hex_dice(d: ImageDraw.ImageDraw, lay, dice: list, units: list[dict], yoff: float) -> None:
    """Dice placed in hexes: in the middle of an empty hex with whose it is under it; smaller, left of a unit
    standing there (an ally may stand on one) or fallen there."""
    s = lay.s
    taken = {_unit_place(u) for u in units}
    for die in dice or []:
        qr = _qr(die) if isinstance(die, dict) else None
        if qr is None:
            continue
        cx, cy = lay.centre(*qr)
        cy += yoff
        owner = str(die.get("owner") or "")
        if qr in taken:
            _hex_die(d, cx - s * 0.6, cy - s * 0.16, s * 0.4, die.get("value"), "", die.get("side") or "adventurer")
        else:
            _hex_die(d, cx, cy - s * 0.08, s * 0.62, die.get("value"), owner, die.get("side") or "adventurer")


def _draw_choices(d: ImageDraw.ImageDraw, lay, choices: list, yoff: float) -> None:
    """Hexes offered to a player (the menu's free-move destinations): a thick blue rim and the menu's number."""
    s = lay.s
    fnum = font(max(14, int(s * 0.3)), True)
    for ch in choices or []:
        qr = _qr(ch) if isinstance(ch, dict) else None
        if qr is None:
            continue
        cx, cy = lay.centre(*qr)
        cy += yoff
        pts = lay.corners(cx, cy, 0.86)
        d.line(pts + pts[:1], fill=PATH_COLOUR, width=max(4, int(s / 9)), joint="curve")
        n = str(ch.get("n") or "")
        if n:
            r = s * 0.24
            by = cy + s * 0.12
            d.ellipse([cx - r, by - r, cx + r, by + r], fill=PATH_COLOUR, outline=WHITE, width=max(2, int(s / 30)))
            draw_text(d, (cx, by + 0.5), n, fnum, WHITE, "mm")


def _badge(d, x, y, r, status: str) -> None:
    col = status_colour(status)
    letter = status_letter(status)
    d.ellipse([x - r, y - r, x + r, y + r], fill=col, outline=WHITE, width=max(1, int(r / 6)))
    draw_text(d, (x, y + 0.5), letter, fit_font(letter, r * 1.7, int(r * 1.25), True, min_size=8), WHITE, "mm")


def _unit_place(u: dict) -> tuple[int, int] | None:
    """Where a unit is drawn: its hex, or for a defeated unit taken off the map the hex it fell on
    (optional view key ``defeated_at``: [q, r])."""
    qr = _qr(u)
    if qr is None and u.get("defeated"):
        qr = _qr(u.get("defeated_at") or [])
    return qr


def _draw_units(d: ImageDraw.ImageDraw, lay: _Layout, units: list[dict], yoff: float) -> None:
    s = lay.s
    R = s * 0.34
    fname = font(max(12, int(s * 0.19)), True)
    fhp = font(max(13, int(s * HP_SCALE)), "condensed")
    # defeated first so living units draw on top when stacked
    order = sorted(units, key=lambda u: (not u.get("defeated"), bool(u.get("acting"))))
    for u in order:
        qr = _unit_place(u)
        if qr is None:
            continue
        cx, cy = lay.centre(*qr)
        cy += yoff
        ty = cy - s * TOKEN_DY
        side = u.get("side") or "enemy"
        col = SIDE_COLOURS.get(side, (90, 90, 90))
        defeated = bool(u.get("defeated"))
        if defeated:
            col = DEFEATED_COLOUR
        if u.get("acting") and not defeated:
            for i, a in enumerate((0.06, 0.045)):   # kept clear of the hex label above
                g = R + s * a
                d.ellipse([cx - g, ty - g, cx + g, ty + g], fill=mix(GOLD, WHITE, 0.4 - i * 0.3))
            g = R + s * 0.03
            d.ellipse([cx - g, ty - g, cx + g, ty + g], outline=(200, 130, 0), width=max(3, int(s / 16)))
        ring = mix(col, (0, 0, 0), 0.45)
        d.ellipse([cx - R, ty - R, cx + R, ty + R], fill=col, outline=WHITE if not defeated else ring,
                  width=max(2, int(s / 22)))
        if side == "companion" and not defeated:
            ri = R * 0.78
            d.ellipse([cx - ri, ty - ri, cx + ri, ty + ri], outline=mix(col, WHITE, 0.5), width=max(1, int(s / 36)))
        short = str(u.get("short") or str(u.get("label") or "?")[:3].upper())
        if defeated:
            k = R * 0.8
            w = max(3, int(s / 14))
            d.line([(cx - k, ty - k), (cx + k, ty + k)], fill=(120, 20, 20), width=w)
            d.line([(cx - k, ty + k), (cx + k, ty - k)], fill=(120, 20, 20), width=w)
        d.text((cx, ty), short, font=fit_font(short, R * 1.7, int(s * 0.25), True, min_size=9),
               fill=text_on(col) if not defeated else INK, anchor="mm",
               stroke_width=0 if not defeated else 2, stroke_fill=DEFEATED_COLOUR)
        # level badge (enemies), left of the token
        lvl = u.get("level")
        if lvl not in (None, "") and not defeated:
            lr = s * 0.13
            lx, ly = cx - R - lr * 0.35, ty - R * 0.35
            d.rectangle([lx - lr, ly - lr, lx + lr, ly + lr], fill=INK, outline=WHITE, width=1)
            draw_text(d, (lx, ly), str(lvl), font(max(10, int(s * 0.2)), True), WHITE, "mm")
        # statuses to the right of the token
        br = max(9, s * 0.14)
        for i, st in enumerate(list(u.get("statuses") or [])[:4] if not defeated else []):
            bx = cx + R + br * 0.55
            by = ty - R + br * 0.6 + i * (br * 2.05)
            _badge(d, bx, by, br, str(st))
        # HP pill overlapping the token's bottom edge (a defeated unit shows DEFEATED instead)
        hp, mx, bonus = _int(u.get("hp")), _int(u.get("max_hp")), _int(u.get("bonus_hp"))
        hp_txt = (f"{hp}/{mx}" if mx else str(hp)) if not defeated else "DEFEATED"
        fpill = fhp if not defeated else fit_font("DEFEATED", s * 1.5, int(s * 0.24), "condensed", min_size=9)
        pw = text_width(hp_txt, fpill) + fpill.size * 0.45
        ph = fpill.size * 1.08
        py = ty + R
        bonus_w = (text_width(f"+{bonus}", fhp) + fhp.size * 0.35) if bonus and not defeated else 0
        px0 = cx - (pw + bonus_w + (2 if bonus_w else 0)) / 2
        pc = _hp_colour(hp, mx) if not defeated else (120, 20, 20)
        d.rounded_rectangle([px0, py - ph / 2, px0 + pw, py + ph / 2], radius=ph / 2, fill=pc, outline=WHITE,
                            width=max(1, int(s / 40)))
        draw_text(d, (px0 + pw / 2, py), hp_txt, fpill, WHITE, "mm")
        if bonus_w:
            bx0 = px0 + pw + 2
            d.rounded_rectangle([bx0, py - ph / 2, bx0 + bonus_w, py + ph / 2], radius=ph / 2, fill=GOLD,
                                outline=WHITE, width=max(1, int(s / 40)))
            draw_text(d, (bx0 + bonus_w / 2, py), f"+{bonus}", fhp, INK, "mm")
        # full name under it: wrapped onto two lines rather than cut (the roster below has it whole too)
        lines = _name_lines(str(u.get("label") or ""), fname, s * 1.62)
        ny = py + ph / 2 + fname.size * 0.62
        for line in lines:
            nw = text_width(line, fname)
            d.rounded_rectangle([cx - nw / 2 - 4, ny - fname.size * 0.6, cx + nw / 2 + 4, ny + fname.size * 0.6],
                                radius=4, fill=(255, 252, 245) if not defeated else (220, 216, 210))
            draw_text(d, (cx, ny), line, fname, INK if not defeated else INK_SOFT, "mm")
            ny += fname.size * 1.2


def _name_lines(name: str, f, width: float) -> list[str]:
    if not name or text_width(name, f) <= width:
        return [name] if name else []
    return wrap(name, f, width, max_lines=2)


def _draw_moves(d: ImageDraw.ImageDraw, lay: _Layout, path, yoff: float, colour) -> None:
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


def _draw_engage(d: ImageDraw.ImageDraw, lay: _Layout, eng, yoff: float) -> None:
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
    R = s * 0.34
    p0 = (ax + ux * (R + 3), ay + uy * (R + 3))
    p1 = (bx - ux * (R + 2), by - uy * (R + 2))
    lw = max(6, int(s / 7))
    arrow(d, p0, p1, WHITE, lw + 6, s * 0.42)
    arrow(d, p0, p1, ENGAGE_COLOUR, lw, s * 0.34)


def _legend(d: ImageDraw.ImageDraw, x0: float, y: float, width: float) -> float:
    f = font(LEGEND_FONT)
    fb = font(LEGEND_FONT, True)
    x = x0
    d.text((x, y + 14), "STATUS", font=fb, fill=INK_SOFT, anchor="lm")
    x += fb.getlength("STATUS") + 16
    for st in ("bane", "blind", "daze", "fear", "maim", "stealth"):
        _badge(d, x + 13, y + 14, 13, st)
        d.text((x + 32, y + 14), st, font=f, fill=INK, anchor="lm")
        x += 32 + f.getlength(st) + 22
    y += 40
    x = x0
    items = []

    def token(dd, cx, cy, side):
        col = SIDE_COLOURS[side]
        dd.ellipse([cx - 12, cy - 12, cx + 12, cy + 12], fill=col, outline=WHITE, width=2)

    items.append(("adventurer", lambda dd, cx, cy: token(dd, cx, cy, "adventurer")))
    items.append(("companion", lambda dd, cx, cy: token(dd, cx, cy, "companion")))
    items.append(("enemy", lambda dd, cx, cy: token(dd, cx, cy, "enemy")))

    def acting(dd, cx, cy):
        dd.ellipse([cx - 15, cy - 15, cx + 15, cy + 15], fill=mix(GOLD, WHITE, 0.3))
        dd.ellipse([cx - 10, cy - 10, cx + 10, cy + 10], fill=SIDE_COLOURS["adventurer"], outline=WHITE, width=2)

    items.append(("acting", acting))

    def defeated(dd, cx, cy):
        dd.ellipse([cx - 12, cy - 12, cx + 12, cy + 12], fill=(150, 146, 140))
        dd.line([(cx - 9, cy - 9), (cx + 9, cy + 9)], fill=(120, 20, 20), width=3)
        dd.line([(cx - 9, cy + 9), (cx + 9, cy - 9)], fill=(120, 20, 20), width=3)

    items.append(("defeated", defeated))
    items.append(("move", lambda dd, cx, cy: arrow(dd, (cx - 16, cy), (cx + 16, cy), PATH_COLOUR, 5, 12)))
    items.append(("enemy move", lambda dd, cx, cy: arrow(dd, (cx - 16, cy), (cx + 16, cy), ENEMY_PATH_COLOUR, 5, 12)))
    items.append(("engage", lambda dd, cx, cy: arrow(dd, (cx - 16, cy), (cx + 16, cy), ENGAGE_COLOUR, 7, 14)))

    def swatch(col, hatch=False, text=None):
        def draw(dd, cx, cy):
            dd.rectangle([cx - 14, cy - 11, cx + 14, cy + 11], fill=col, outline=(52, 44, 36), width=2)
            if hatch:
                for k in (-8, 0, 8):
                    dd.line([(cx + k - 6, cy + 9), (cx + k + 6, cy - 9)], fill=(112, 104, 96), width=2)
        return draw

    items.append(("entrance", swatch(mix(TILE_PALETTE[0], ENTRANCE_TINT, 0.55))))
    items.append(("escape", swatch(ESCAPE)))
    items.append(("impassable", swatch(IMPASSABLE, hatch=True)))

    def slot(dd, cx, cy):
        dd.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=(250, 236, 230), outline=(160, 30, 30), width=2)
        dd.text((cx, cy), "1", font=font(14, True), fill=(160, 30, 30), anchor="mm")

    items.append(("enemy slot", slot))
    items.append(("cache", lambda dd, cx, cy: _chest(dd, cx, cy, 28)))
    items.append(("die in a hex", lambda dd, cx, cy: _hex_die(dd, cx, cy - 3, 22, 3)))

    def level(dd, cx, cy):
        dd.rectangle([cx - 10, cy - 10, cx + 10, cy + 10], fill=INK, outline=WHITE, width=1)
        dd.text((cx, cy), "1", font=font(14, True), fill=WHITE, anchor="mm")

    items.append(("level", level))
    for label, draw in items:
        w = 36 + f.getlength(label) + 20
        if x + w > x0 + width:
            x = x0
            y += 40
        draw(d, x + 16, y + 14)
        d.text((x + 36, y + 14), label, font=f, fill=INK, anchor="lm")
        x += w
    return y + 40


def _dynamic_colours() -> list[tuple[int, int, int]]:
    """Every flat colour the per-turn layer draws; each is kept exactly in the map's palette."""
    cols = [BG, WHITE, INK, INK_SOFT, INK_FAINT, GOLD, HEADER_BG, PATH_COLOUR, ENGAGE_COLOUR, ENEMY_PATH_COLOUR]
    for col in list(SIDE_COLOURS.values()) + [(90, 90, 90), (150, 146, 140)]:
        cols += [col, mix(col, (0, 0, 0), 0.45), mix(col, WHITE, 0.5)]
    cols += [mix(GOLD, WHITE, 0.4), mix(GOLD, WHITE, 0.1), (200, 130, 0)]            # acting glow
    cols += [(40, 140, 60), (200, 130, 20), (190, 30, 30), (110, 110, 110), (120, 116, 110)]  # HP pills
    cols += list(STATUS_COLOURS.values()) + [status_colour("")]                      # badges
    cols += [(90, 86, 80), (120, 20, 20), (255, 252, 245), (220, 216, 210)]          # defeated, name tags
    cols += [(140, 88, 40), (60, 36, 14)]                                            # cache chest
    cols += [(210, 40, 30), (255, 210, 80), (120, 110, 98)]                          # fatigue banner, log box
    return list(dict.fromkeys(cols))


class _Grid:
    """Stands in for _Layout when drawing the specimen: unit i of a row sits in column q, row r."""

    def __init__(self, s: float):
        self.s = s

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return self.s * 1.3 + q * self.s * 2.6, self.s * 1.1 + r * self.s * 2.5


_SPECIMEN_LOG = ["Round 12 begins: fatigue round, every adventurer gains 1 fatigue die.",
                 "Skeleton Archer engages Shannon with Bone Arrow: 2 damage, Shannon is at 3/5.",
                 "Vilya moves 3 hexes to -2,4 and engages Jailer: 4 damage (0123456789)."]


def _draw_specimen(lay: _Layout) -> Image.Image:
    """Everything the per-turn layer can draw, at this map's scale: the palette's sample of its colours
    and of the anti-aliasing blends of its text (white on every token, pill and badge colour, ink on
    the name tags, the header and the log)."""
    s, W = lay.s, lay.width
    statuses = list(STATUS_COLOURS) + ["other"]
    units = [
        {"side": "adventurer", "label": "Vilya the Long-Named", "short": "VIL", "hp": 5, "max_hp": 5,
         "bonus_hp": 2, "statuses": statuses[:4], "acting": True},
        {"side": "companion", "label": "Lyris", "short": "LYR", "hp": 3, "max_hp": 5, "statuses": statuses[4:]},
        {"side": "enemy", "label": "Skeleton Archer", "short": "SKA", "hp": 1, "max_hp": 5, "level": 2,
         "statuses": statuses[:2]},
        {"side": "other", "label": "Wardstone", "short": "W?", "hp": 2, "max_hp": 0, "level": 10},
        {"side": "enemy", "label": "Rat", "short": "RAT", "hp": 0, "max_hp": 3, "level": 1, "defeated": True},
        {"side": "adventurer", "label": "Marcus", "short": "MAR", "hp": 1, "max_hp": 4, "player": "Theo"},
    ]
    cols = max(1, int((W - s * 0.4) // (s * 2.6)))
    for i, u in enumerate(units):
        u["q"], u["r"] = i % cols, i // cols
    rows = (len(units) + cols - 1) // cols
    flog = font(LOG_FONT)
    log_y = HEADER_H + rows * s * 2.5 + s * 0.8
    H = int(log_y + _log_height(_SPECIMEN_LOG) + 10)
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, HEADER_H - 6], fill=HEADER_BG)
    _draw_header(d, W, "Specimen of the Jailbreak Introduction", 12, True)
    grid = _Grid(s)
    _draw_units(d, grid, units, HEADER_H)
    y = log_y - s * 0.5
    _chest(d, M + s * 0.3, y, s * 0.34)
    _hex_die(d, M + s * 10, y - s * 0.2, s * 0.62, 3, "RYA")
    _hex_die(d, M + s * 11, y - s * 0.2, s * 0.4, 4)
    arrow(d, (M + s, y), (M + s * 3, y), PATH_COLOUR, max(4, int(s / 11)), s * 0.3)
    arrow(d, (M + s * 7, y), (M + s * 9, y), ENEMY_PATH_COLOUR, max(4, int(s / 11)), s * 0.3)
    arrow(d, (M + s * 4, y), (M + s * 6, y), WHITE, max(6, int(s / 7)) + 6, s * 0.42)
    arrow(d, (M + s * 4, y), (M + s * 6, y), ENGAGE_COLOUR, max(6, int(s / 7)), s * 0.34)
    _draw_log(d, W, log_y, _SPECIMEN_LOG, flog)
    roster, roster_h = _roster_layout(units, W)
    out = Image.new("RGB", (W, H + roster_h + 4), BG)
    out.paste(img, (0, 0))
    _draw_roster(ImageDraw.Draw(out), W, H, roster, roster_h)
    return out


def _draw_header(d: ImageDraw.ImageDraw, W: int, title: str, rnd, fatigue: bool) -> None:
    """The header's text and badges (its dark band is in the static layer)."""
    right_x = W - M
    if fatigue:
        ft = font(24, True)
        fw = text_width("FATIGUE ROUND", ft) + 28
        d.rounded_rectangle([right_x - fw, 10, right_x, HEADER_H - 16], radius=10, fill=(210, 40, 30),
                            outline=(255, 210, 80), width=3)
        draw_text(d, (right_x - fw / 2, (HEADER_H - 6) / 2), "FATIGUE ROUND", ft, WHITE, "mm")
        right_x -= fw + 12
    if rnd is not None:
        fr = font(26, True)
        rt = f"Round {rnd}"
        rw = text_width(rt, fr) + 24
        d.rounded_rectangle([right_x - rw, 10, right_x, HEADER_H - 16], radius=10, fill=WHITE)
        draw_text(d, (right_x - rw / 2, (HEADER_H - 6) / 2), rt, fr, INK, "mm")
        right_x -= rw + 12
    if rnd is not None:   # the round badge says it already: "Jailbreak — round 4" is drawn "Jailbreak"
        title = re.sub(rf"\s*[—–-]\s*round\s+{re.escape(str(rnd))}\s*$", "", title, flags=re.I) or title
    _draw_title(d, title, M, (HEADER_H - 6) / 2, right_x - M - 10)


def title_lines(title: str, width: float) -> tuple[list[str], object]:
    """The title in one line (shrunk to 24 px at the least), else in two lines; cut only past that."""
    f = fit_font(title, width, 32, True, min_size=24)
    if text_width(title, f) <= width:
        return [title], f
    f = font(24, True)
    return wrap(title, f, width, max_lines=2), f


def _draw_title(d: ImageDraw.ImageDraw, title: str, x: float, cy: float, width: float) -> None:
    lines, f = title_lines(title, width)
    if len(lines) == 1:
        draw_text(d, (x, cy), lines[0], f, WHITE, "lm")
        return
    draw_text(d, (x, cy - 14), lines[0], f, WHITE, "lm")
    draw_text(d, (x, cy + 15), lines[1], f, WHITE, "lm")


class _LogLines(list):
    """The log's lines as drawn; ``bold`` is how many of the last ones belong to the newest entry."""

    bold = 1


def _log_lines(view: dict, W: int, flog) -> list[str]:
    lines = _LogLines()
    last = 1
    entries = list(view.get("log") or [])[-LOG_LINES:]
    for i, entry in enumerate(entries):
        newest = i == len(entries) - 1  # drawn bold: wrapped to the bold font's width
        wrapped = wrap(str(entry), font(LOG_FONT, True) if newest else flog, W - 2 * M - 24, max_lines=2)
        lines.extend(wrapped)
        last = len(wrapped)
    out = _LogLines(lines[-(LOG_LINES + 2):])
    out.bold = last
    return out


def _log_height(lines: list[str]) -> int:
    return (38 + len(lines) * LOG_ROW + 12) if lines else 0


def _draw_log(d: ImageDraw.ImageDraw, W: int, y: float, lines: list[str], flog) -> None:
    d.rounded_rectangle([M, y, W - M, y + _log_height(lines) - 6], radius=10, fill=(255, 252, 245),
                        outline=(120, 110, 98), width=2)
    draw_text(d, (M + 12, y + 8), "LOG", font(20, True), INK_SOFT, "la")
    ly = y + 38
    newest = len(lines) - getattr(lines, "bold", 1)  # every line of the newest entry is bold
    for i, line in enumerate(lines):
        last = i >= newest  # the newest entry is bold (_log_lines wrapped it to the bold font's width)
        draw_text(d, (M + 12, ly), line, font(LOG_FONT, True) if last else flog, INK, "la")
        ly += LOG_ROW


def _moves_of(view: dict, units: list[dict]) -> list[tuple[list, tuple[int, int, int]]]:
    """Every move to draw: the acting unit's ``path``, then each of the optional ``moves``
    (``[{"unit": id, "path": [[q, r], ...]}]``, e.g. what the enemies did in their phase), coloured
    by the moving unit's side."""
    side_of = {str(u.get("id")): u.get("side") for u in units}
    out = [(view.get("path") or [], PATH_COLOUR)]
    for m in view.get("moves") or []:
        if isinstance(m, dict):
            side = m.get("side") or side_of.get(str(m.get("unit")), "enemy")
            out.append((m.get("path") or [], ENEMY_PATH_COLOUR if side == "enemy" else PATH_COLOUR))
    return out


def _roster_entries(units: list[dict]) -> list[dict]:
    rank = {"adventurer": 0, "companion": 1, "enemy": 2}
    return sorted((u for u in units if isinstance(u, dict)),
                  key=lambda u: (rank.get(u.get("side"), 3), bool(u.get("defeated"))))


def _roster_layout(units: list[dict], W: int) -> tuple[list[tuple[dict, float, float, list[str]]], int]:
    """The footer key: each token's letters, the unit's whole name, its player, its HP; two columns."""
    entries = _roster_entries(units)
    if not entries:
        return [], 0
    f = font(ROSTER_FONT, True)
    colw = (W - 2 * M - 24) / 2
    chip_w = ROSTER_FONT * 2.9
    placed = []
    y = 44.0
    col_y = [y, y]
    for i, u in enumerate(entries):
        c = 0 if col_y[0] <= col_y[1] else 1
        text = _roster_text(u)
        lines = wrap(text, f, colw - chip_w - 16, max_lines=3)
        placed.append((u, c, col_y[c], lines))
        col_y[c] += max(ROSTER_ROW, 8 + len(lines) * (ROSTER_FONT + 6))
    return placed, int(max(col_y) + 10)


def _roster_text(u: dict) -> str:
    name = str(u.get("label") or u.get("short") or "?")
    player = str(u.get("player") or "").strip()
    text = f"{name} ({player})" if player and player.lower() != name.lower() else name
    if u.get("escaped"):          # an escaped unit is off the map too, but not defeated
        return text + " · escaped"
    if u.get("defeated"):
        return text + " · defeated"
    hp, mx = _int(u.get("hp")), _int(u.get("max_hp"))
    text += f" · {hp}/{mx} HP" if mx else f" · {hp} HP"
    if u.get("acting"):
        text += " · now"
    return text


def _draw_roster(d: ImageDraw.ImageDraw, W: int, y0: float, placed, height: int) -> None:
    d.rounded_rectangle([M, y0, W - M, y0 + height - 6], radius=10, fill=(255, 252, 245),
                        outline=(120, 110, 98), width=2)
    draw_text(d, (M + 12, y0 + 8), "WHO IS WHO", font(22, True), INK_SOFT, "la")
    f = font(ROSTER_FONT, True)
    colw = (W - 2 * M - 24) / 2
    chip_w = ROSTER_FONT * 2.9
    for u, c, y, lines in placed:
        x = M + 12 + c * colw
        side = u.get("side") or "enemy"
        col = SIDE_COLOURS.get(side, (90, 90, 90)) if not u.get("defeated") else DEFEATED_COLOUR
        yy = y0 + y
        ch = ROSTER_FONT + 8
        d.rounded_rectangle([x, yy, x + chip_w, yy + ch], radius=ch / 2, fill=col,
                            outline=(200, 130, 0) if u.get("acting") else WHITE, width=3 if u.get("acting") else 1)
        short = str(u.get("short") or str(u.get("label") or "?")[:3].upper())
        draw_text(d, (x + chip_w / 2, yy + ch / 2), short, fit_font(short, chip_w - 12, ROSTER_FONT, True, 10),
                  text_on(col), "mm")
        ty = yy + ch / 2
        for line in lines:
            draw_text(d, (x + chip_w + 10, ty), line, f, INK if not u.get("defeated") else INK_SOFT, "lm")
            ty += ROSTER_FONT + 6


def render_map(view: dict) -> bytes:
    """Draw a battle map from its view model; returns PNG bytes.

    Optional keys beyond the basic ones (absent: drawn as before):
    ``moves`` [{"unit": id, "path": [[q, r], ...]}] and ``engages`` [{"unit": id, "from": [q, r],
    "to": [q, r]}] (what units did, e.g. the enemy phase); a unit's ``player`` (display name, shown in
    the footer key) and ``defeated_at`` [q, r] (where a defeated unit taken off the map fell); a
    cache's ``opened`` (opened caches are not drawn); ``dice`` [{"q", "r", "value", "owner", "side"}]: skill
    dice placed in hexes (``owner``: the short label of whose die it is; ``side``: its colour, "adventurer");
    ``choices`` [{"q", "r", "n"}]: hexes a player may choose now, numbered as the post's menu numbers them.
    """
    view = printable_view(view or {})
    st = _static_layer(view)
    lay = st.layout
    W = lay.width
    flog = font(LOG_FONT)
    units = [u for u in (view.get("units") or []) if isinstance(u, dict)]
    log_lines = _log_lines(view, W, flog)
    log_h = _log_height(log_lines)
    roster, roster_h = _roster_layout(units, W)
    extra = log_h + (roster_h + 4 if roster_h else 0)
    if extra:
        img = Image.new("RGB", (W, st.base.height + extra), BG)
        img.paste(st.base, (0, 0))
    else:
        img = st.base.copy()
    d = ImageDraw.Draw(img)

    # header
    _draw_header(d, W, str(view.get("title") or "Battle"), view.get("round"), bool(view.get("fatigue_round")))

    yoff = HEADER_H
    s = lay.s
    # caches (an opened one is gone from the map)
    for c in view.get("caches") or []:
        qr = _qr(c)
        if qr is None or (isinstance(c, dict) and c.get("opened")):
            continue
        cx, cy = lay.centre(*qr)
        _chest(d, cx + s * 0.5, cy + yoff - s * 0.12, s * 0.34)
    # moves: the acting unit's path and any others the view lists
    for path, colour in _moves_of(view, units):
        _draw_moves(d, lay, path, yoff, colour)
    # hexes a player may choose now (a free move offered), dice placed in hexes, then the units
    _draw_choices(d, lay, view.get("choices") or [], yoff)
    _draw_hex_dice(d, lay, view.get("dice") or [], units, yoff)
    _draw_units(d, lay, units, yoff)
    # engage arrows on top
    _draw_engage(d, lay, view.get("engage"), yoff)
    for eng in view.get("engages") or []:
        _draw_engage(d, lay, eng, yoff)

    # log (the legend above it is in the static layer), then the footer key
    y = st.legend_end + 4
    if log_lines:
        _draw_log(d, W, y, log_lines, flog)
        y += log_h
    if roster:
        _draw_roster(d, W, y, roster, roster_h)
    return encode_png(img, palette_image=st.palette)
