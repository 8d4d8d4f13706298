"""Delve and dungeon maps (``render_delve_map``) and the picture of a revealed tile's placements
(``render_placements``).

A delve grows tile by tile, so its whole map soon outgrows a picture a phone shows 400 px wide.  Hexes are
therefore drawn at a fixed size at which every hex label stays at least 10 px tall on such a screen, and the
picture shows the part of the map around the action (the acting unit, the hex being explored or where the
party asked to look); when the whole map does not fit, a small overview of every placed tile follows, with the
shown part framed.  The static layer (tiles, hex outlines and labels, door, cache, enemy, star and lettered hexes)
is drawn once per map version, i.e. when a tile is placed, and cached; every picture crops it and draws the rest
on top: units, moves and engages (with the battle map's own drawing, render.battlemap), explorable doors, each
tile's number and the card beside it, cache chips, then a panel with the skyshards and the cards' texts, the
overview, a key, the log and the footer key of who is who.

View model: the battle map's (``render.battlemap.render_map``) plus ``delve``: ``kind`` ("delve"/"dungeon"),
``doors`` [{"q", "r", "state": explorable|explored|closed}], ``tiles`` [{"tile", "no", "name", "hexes"}],
``cards`` [{"tile", "no", "name", "code", "parts": [{"kind": skyshard|trap|environment, "active", "text"}]}],
``skyshards`` {"gained", "required", "drawn"}, a dungeon's ``letters`` [{"q", "r", "label"}] and ``stars``
[[q, r]]; and ``focus`` [q, r]: the hex to show (else the acting unit, the hex explored, the newest tile).
"""
from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import OrderedDict
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.hexes import POINTY, Hex, Point
from engine.hexes import Layout as HexLayout
from render import battlemap as bm
from render.common import (BG, GOLD, INK, INK_SOFT, WHITE, build_palette, colour_counts, draw_text, ellipsize,
                           encode_png, fit_font, font, min_text, mix, printable_view, text_width)

PHONE_W = 400
PHONE_LABEL_PX = 10.0  # a hex label's font, in px, once the picture is shown 400 px wide
W = bm.TARGET_W
M = bm.M
MAP_W = W - 20  # the map part runs almost edge to edge
MAP_H = 700  # the most of the map one picture shows (phones scroll down; only the width is scaled)
PANEL_FONT = 28  # 10 px on a phone
OVERVIEW_W, OVERVIEW_H = 330, 260  # the inset with the whole map, over the shown part's top-right corner
SIZE_MAX = 96
DOOR = (96, 64, 30)
DOOR_OPEN = (176, 122, 44)
TRAP = bm.ENGAGE_COLOUR
SKY = bm.PATH_COLOUR
ENV = bm.SIDE_COLOURS["companion"]
NEUTRAL = (72, 66, 60)
_UNIT = HexLayout(POINTY, Point(1.0, 1.0), Point(0.0, 0.0))

_cache: "OrderedDict[str, _Static]" = OrderedDict()
_lock = threading.Lock()
_CACHE_MAX = 8
_stats = {"hits": 0, "misses": 0}


def label_px() -> int:
    """A hex label's font size, in px of the picture: a little over PHONE_LABEL_PX on a 400 px wide screen, so
    that its digits' ink is at least 7 px there too."""
    return math.ceil(PHONE_LABEL_PX * 1.08 * W / PHONE_W)


def label_size() -> float:
    """The smallest hex size (centre to corner) drawn: the one at which the battle map's own labels would be
    PHONE_LABEL_PX tall on a 400 px screen (a hex is then wide enough for a label of label_px())."""
    return PHONE_LABEL_PX * W / PHONE_W / bm.COORD_SCALE


def cache_info() -> dict[str, int]:
    with _lock:
        return {"hits": _stats["hits"], "misses": _stats["misses"], "size": len(_cache)}


def clear_cache() -> None:
    with _lock:
        _cache.clear()
        _palettes.clear()
        _stats["hits"] = _stats["misses"] = 0


def _qr(obj):
    return bm._qr(obj)


class _Full:
    """Every hex of the map at hex size ``s``: pixel places in the (uncropped) static image."""

    def __init__(self, coords: list[tuple[int, int]], s: float):
        coords = coords or [(0, 0)]
        centres = [_UNIT.hex_to_pixel(Hex(q, r)) for q, r in coords]
        hw = max(abs(_UNIT.corner_offset(i).x) for i in range(6))
        hh = max(abs(_UNIT.corner_offset(i).y) for i in range(6))
        self.min_x, self.max_x = min(p.x for p in centres) - hw, max(p.x for p in centres) + hw
        self.min_y, self.max_y = min(p.y for p in centres) - hh, max(p.y for p in centres) + hh
        self.s = s
        pad = 4
        self.width = int(math.ceil((self.max_x - self.min_x) * s)) + 2 * pad
        self.height = int(math.ceil((self.max_y - self.min_y) * s)) + 2 * pad
        self.hex = HexLayout(POINTY, Point(s, s), Point(pad - self.min_x * s, pad - self.min_y * s))
        self._corners = [self.hex.corner_offset((i + 5) % 6) for i in range(6)]

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return tuple(self.hex.hex_to_pixel(Hex(q, r)))

    def corners(self, cx: float, cy: float, scale: float = 1.0) -> list[tuple[float, float]]:
        return [(cx + o.x * scale, cy + o.y * scale) for o in self._corners]


class _Shift:
    """A layout moved by (dx, dy): the cropped part of the static image, as battlemap's drawing functions use it."""

    def __init__(self, full: _Full, dx: float, dy: float):
        self.full, self.dx, self.dy, self.s = full, dx, dy, full.s
        self.width = W
        self.u = min_text(W)  # the smallest type the picture may use (10 px on a phone)
        self.f = max(self.u, int(round(self.s * bm.COORD_SCALE)))  # the type inside the hexes

    def centre(self, q: int, r: int) -> tuple[float, float]:
        x, y = self.full.centre(q, r)
        return x + self.dx, y + self.dy

    def corners(self, cx: float, cy: float, scale: float = 1.0) -> list[tuple[float, float]]:
        return self.full.corners(cx, cy, scale)


class _Static(NamedTuple):
    img: Image.Image  # the whole map at its size
    full: _Full
    palette: Image.Image
    overview: Image.Image | None  # the whole map, small (only when it does not fit one picture)
    ov_scale: float
    ov_full: _Full | None


# ------------------------------------------------------------ static layer --
def _size(coords) -> float:
    probe = _Full(coords, 1.0)
    wu, hu = probe.max_x - probe.min_x, probe.max_y - probe.min_y
    fit = min(MAP_W / max(wu, 1e-6), MAP_H / max(hu, 1e-6))
    return max(label_size(), min(SIZE_MAX, fit))


def _door(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour) -> None:
    """A door (connection) hex: an arched doorway low in the hex."""
    w, h = s * 0.42, s * 0.34
    x0, y1 = cx - w / 2, cy + s * 0.86
    y0 = y1 - h
    d.rectangle([x0, y0 + w / 2, x0 + w, y1], fill=colour)
    d.pieslice([x0, y0, x0 + w, y0 + w], 180, 360, fill=colour)
    d.rectangle([cx - w * 0.18, y0 + w * 0.55, cx + w * 0.18, y1], fill=(40, 28, 16))


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill, outline) -> None:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=outline)


def _draw_static(view: dict) -> tuple[Image.Image, _Full]:
    hexes = [h for h in (view.get("hexes") or []) if _qr(h) is not None]
    coords = [_qr(h) for h in hexes]
    full = _Full(coords, _size(coords))
    s = full.s
    img = Image.new("RGB", (full.width, full.height), BG)
    d = ImageDraw.Draw(img)
    tiles = {_qr(h): h for h in hexes}
    hatched = []
    for h in hexes:
        cx, cy = full.centre(*_qr(h))
        pts = full.corners(cx, cy)
        col = bm.tile_colour(h.get("tile"))
        if h.get("impassable"):
            col = bm.IMPASSABLE
            hatched.append(pts)
        elif h.get("entrance"):
            col = mix(col, bm.ENTRANCE_TINT, 0.55)
        d.polygon(pts, fill=col)
    for pts in hatched:  # a few diagonal strokes over an impassable hex
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        for k in range(-2, 3):
            off = k * s * 0.35
            d.line([(min(xs) + s * 0.3 + off, max(ys) - s * 0.3), (max(xs) - s * 0.3 + off, min(ys) + s * 0.3)],
                   fill=(112, 104, 96), width=max(2, int(s / 18)))
    thin, thick = max(1, int(s / 40)), max(3, int(s / 14))
    for h in hexes:
        q, r = _qr(h)
        pts = full.corners(*full.centre(q, r))
        d.line(pts + [pts[0]], fill=(120, 108, 92), width=thin)
    for h in hexes:
        q, r = _qr(h)
        pts = full.corners(*full.centre(q, r))
        for i, (dq, dr) in enumerate(bm.EDGE_NEIGHBOURS):
            nb = tiles.get((q + dq, r + dr))
            if nb is None or nb.get("tile") != h.get("tile"):
                d.line([pts[i], pts[(i + 1) % 6]], fill=(52, 44, 36), width=thick)
    dv = view.get("delve") or {}
    doors = {_qr(x): x.get("state") for x in dv.get("doors") or [] if _qr(x) is not None}
    fcoord = font(max(label_px(), int(s * bm.COORD_SCALE)), "condensed")
    fslot = font(max(14, int(s * 0.26)), True)
    stars = {tuple(x) for x in dv.get("stars") or []}
    letters = {_qr(x): str(x.get("label") or "") for x in dv.get("letters") or [] if _qr(x) is not None}
    for h in hexes:
        q, r = _qr(h)
        cx, cy = full.centre(q, r)
        d.text((cx, cy - s * bm.COORD_Y), f"{q},{r}", font=fcoord,
               fill=(235, 230, 220) if h.get("impassable") else INK, anchor="ms")
        if (q, r) in doors:
            _door(d, cx, cy, s, DOOR if doors[(q, r)] != "closed" else (150, 140, 128))
        elif h.get("entrance"):
            d.text((cx, cy + s * 0.74), "ENTRY", font=font(max(12, int(s * 0.2)), "condensed"), fill=(110, 70, 0),
                   anchor="mm")
        slot = h.get("enemy_slot")
        mark = str(slot) if slot not in (None, False, "") else letters.get((q, r))
        if mark:
            sx, sy, rr = cx - s * 0.6, cy + s * 0.1, s * 0.19
            d.ellipse([sx - rr, sy - rr, sx + rr, sy + rr], fill=(250, 236, 230), outline=(160, 30, 30),
                      width=max(2, int(s / 30)))
            d.text((sx, sy), mark, font=fslot, fill=(160, 30, 30), anchor="mm")
        if (q, r) in stars:
            _star(d, cx - s * 0.6, cy + s * 0.1, s * 0.22, GOLD, (120, 80, 0))
    return img, full


def _overview(view: dict, full: _Full) -> tuple[Image.Image, float, _Full]:
    """The whole map, small: tiles and their outlines only (numbers, units and the frame are drawn per picture)."""
    hexes = [h for h in (view.get("hexes") or []) if _qr(h) is not None]
    coords = [_qr(h) for h in hexes]
    probe = _Full(coords, 1.0)
    wu, hu = probe.max_x - probe.min_x, probe.max_y - probe.min_y
    s = max(5.0, min(OVERVIEW_W / wu, OVERVIEW_H / hu))
    ov = _Full(coords, s)
    img = Image.new("RGB", (ov.width, ov.height), (236, 230, 216))
    d = ImageDraw.Draw(img)
    tiles = {_qr(h): h for h in hexes}
    for h in hexes:
        q, r = _qr(h)
        pts = ov.corners(*ov.centre(q, r))
        col = bm.IMPASSABLE if h.get("impassable") else bm.tile_colour(h.get("tile"))
        d.polygon(pts, fill=col)
    for h in hexes:
        q, r = _qr(h)
        pts = ov.corners(*ov.centre(q, r))
        for i, (dq, dr) in enumerate(bm.EDGE_NEIGHBOURS):
            nb = tiles.get((q + dq, r + dr))
            if nb is None or nb.get("tile") != h.get("tile"):
                d.line([pts[i], pts[(i + 1) % 6]], fill=(52, 44, 36), width=max(2, int(s / 6)))
    return img, s / full.s, ov


def _my_colours() -> list[tuple[int, int, int]]:
    return [DOOR, DOOR_OPEN, (40, 28, 16), (150, 140, 128), TRAP, SKY, ENV, NEUTRAL, (236, 230, 216),
            mix(TRAP, WHITE, 0.55), mix(SKY, WHITE, 0.55), mix(ENV, WHITE, 0.55), (200, 194, 184)]


_palettes: dict = {}


def _palette(img: Image.Image, full: _Full) -> Image.Image:
    """The palette pictures of this hex size are quantized against: built from the first static layer of that size
    (every tile colour and mark is one of a fixed few) and the specimen, then kept: a tile placed later does not
    pay for a new one."""
    key = round(full.s, 1)
    hit = _palettes.get(key)
    if hit is None:
        counts = colour_counts(img) or {}
        for c, n in _specimen(full).items():
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


_specimens: dict = {}


def _specimen(full: _Full) -> dict:
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
                       dv.get("stars") or [], dv.get("letters") or []], sort_keys=True, default=str,
                      separators=(",", ":"))
    return hashlib.sha1(f"{view.get('version')}|{blob}".encode()).hexdigest()


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
    fits = img.width <= MAP_W + 8 and img.height <= MAP_H + 8
    ov, scale, ov_full = (None, 0.0, None) if fits else _overview(view, full)
    palette = _palette(img, full)
    built = _Static(img, full, palette, ov, scale, ov_full)
    with _lock:
        _cache[key] = built
        while len(_cache) > _CACHE_MAX:
            _cache.popitem(last=False)
    return built


# ------------------------------------------------------------- the window --
def _focus(view: dict, full: _Full) -> tuple[float, float]:
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
        elif dv.get("tiles"):
            hexes = dv["tiles"][-1].get("hexes") or []
            want = _qr(hexes[len(hexes) // 2]) if hexes else None
    if want is None:
        xs = [full.centre(*_qr(u)) for u in units if _qr(u) is not None and u.get("side") == "adventurer"]
        if xs:
            return sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
        return full.width / 2, full.height / 2
    return full.centre(*want)


def window(view: dict, st: _Static) -> tuple[int, int, int, int]:
    """The part of the static image the picture shows: the whole map if it fits, else a MAP_W × MAP_H box around
    the focus (kept inside the map)."""
    full = st.full
    if st.overview is None:
        return 0, 0, full.width, full.height
    fx, fy = _focus(view, full)
    w, h = min(MAP_W, full.width), min(MAP_H, full.height)
    x0 = int(min(max(0, fx - w / 2), full.width - w))
    y0 = int(min(max(0, fy - h / 2), full.height - h))
    return x0, y0, x0 + w, y0 + h


def shown_hexes(view: dict) -> set[tuple[int, int]]:
    """The hexes whose centre the picture shows (for tests and for saying what is off the picture)."""
    st = _static(printable_view(view))
    x0, y0, x1, y1 = window(view, st)
    out = set()
    for h in view.get("hexes") or []:
        qr = _qr(h)
        if qr is None:
            continue
        cx, cy = st.full.centre(*qr)
        s = st.full.s
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
    px, py = cx - x0 + int((W - (x1 - x0)) / 2), cy - y0 + bm.HEADER_H
    inset = inset_box(st)
    s = st.full.s
    if inset is not None and px + s > inset[0] and py - s < inset[3]:
        return None  # under the overview
    return px, py


# ---------------------------------------------------------- dynamic parts --
def _pill(d: ImageDraw.ImageDraw, cx: float, cy: float, text: str, f, fill, fg=WHITE, outline=WHITE,
          within: float | None = None) -> float:
    tw = text_width(text, f) + f.size * 0.8
    th = f.size * 1.3
    if within is not None:  # kept inside the picture
        cx = min(max(cx, tw / 2 + 4), within - tw / 2 - 4)
    d.rounded_rectangle([cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2], radius=th / 2, fill=fill,
                        outline=outline, width=2)
    draw_text(d, (cx, cy), text, f, fg, "mm")
    return tw


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


def _draw_delve(d: ImageDraw.ImageDraw, lay, view: dict, width: float) -> None:
    """Explorable doors, tile numbers with their cards, on the cropped map."""
    dv = view.get("delve") or {}
    s = lay.s
    for x in dv.get("doors") or []:
        qr = _qr(x)
        if qr is None or x.get("state") != "explorable":
            continue
        cx, cy = lay.centre(*qr)
        pts = lay.corners(cx, cy, 0.9)
        d.line(pts + pts[:1], fill=GOLD, width=max(5, int(s / 8)), joint="curve")
        _door(d, cx, cy, s, DOOR_OPEN)
    occupied = {_qr(u) for u in view.get("units") or [] if isinstance(u, dict) and _qr(u) is not None}
    marks = {_qr(x) for x in dv.get("doors") or []} | {_qr(c) for c in view.get("caches") or []}
    cards = {c.get("tile"): c for c in dv.get("cards") or []}
    blocked = {_qr(h) for h in view.get("hexes") or [] if isinstance(h, dict) and h.get("impassable")}
    f = font(max(18, int(s * 0.3)), True)
    for t in dv.get("tiles") or []:
        at = _anchor(t, occupied, marks, blocked)
        if at is None:
            continue
        cx, cy = lay.centre(*at)
        card = cards.get(t.get("tile"))
        parts = card.get("parts") if card else []
        _pill(d, cx, cy + s * 0.6, _pill_text(t.get("no"), parts or []), f, _card_colour(parts or []),
              within=width)


def _draw_caged(d: ImageDraw.ImageDraw, lay, units: list[dict]) -> None:
    """A dungeon's caged units: a grey token behind bars, CAGED instead of HP (they have no HP chips yet)."""
    s = lay.s
    R = s * 0.34
    f = font(max(13, int(s * 0.22)), "condensed")
    for u in units:
        qr = _qr(u)
        if qr is None:
            continue
        cx, cy = lay.centre(*qr)
        ty = cy - s * bm.TOKEN_DY
        d.ellipse([cx - R, ty - R, cx + R, ty + R], fill=(110, 110, 110), outline=WHITE, width=max(2, int(s / 22)))
        short = str(u.get("short") or "?")
        draw_text(d, (cx, ty), short, fit_font(short, R * 1.7, int(s * 0.25), True, min_size=9), WHITE, "mm")
        for k in (-0.55, 0, 0.55):  # the cage's bars
            d.line([(cx + k * R, ty - R * 1.05), (cx + k * R, ty + R * 1.05)], fill=(40, 40, 40), width=max(3, int(s / 20)))
        _pill(d, cx, ty + R + f.size * 0.5, "CAGED", f, (40, 40, 40))


def _panel_lines(view: dict) -> list[tuple[str, tuple]]:
    dv = view.get("delve") or {}
    out: list[tuple[str, tuple]] = []
    sk = dv.get("skyshards")
    if sk:
        full = sk.get("drawn", 0) >= sk.get("required", 3)
        out.append((f"Skyshards gained: {sk.get('gained', 0)}/{sk.get('required', 3)}"
                    + (" (all drawn: nothing left to explore)" if full else
                       " · doors you may explore are rimmed in gold"), SKY))
    for c in dv.get("cards") or []:
        for p in c.get("parts") or []:
            if p.get("kind") == "skyshard":  # its tile's tag says SKY; the tally above counts them
                continue
            kind = {"trap": "TRAP", "skyshard": "SKYSHARD", "environment": "ENVIRONMENT"}.get(p.get("kind"), "")
            state = "" if p.get("active") or p.get("kind") == "skyshard" else " (done)"
            col = _card_colour([p]) if p.get("active") else NEUTRAL
            out.append((f"T{c.get('no')} {c.get('name')}: {kind} {p.get('text')}{state}", col))
    return out


PANEL_ROWS = 3
LOG_ENTRIES = 5  # the newest entries of the log drawn under a delve's map (the post has them all)


def _panel(view: dict) -> tuple[list[tuple[list[str], tuple]], int]:
    """The skyshard tally and the cards in play, one line each (their whole texts: /battle status)."""
    f = font(PANEL_FONT, True)
    rows = []
    entries = _panel_lines(view)
    if len(entries) > PANEL_ROWS:
        entries = entries[:PANEL_ROWS - 1] + [(f"and {len(entries) - PANEL_ROWS + 1} more: /battle status", NEUTRAL)]
    for text, col in entries:
        rows.append(([ellipsize(text, f, W - 2 * M - 44)], col))
    h = len(rows) * (PANEL_FONT + 10)
    return rows, (h + 16 if rows else 0)


def _draw_panel(d: ImageDraw.ImageDraw, y: float, rows, height: int) -> None:
    d.rounded_rectangle([M, y, W - M, y + height - 6], radius=10, fill=(255, 252, 245), outline=(120, 110, 98),
                        width=2)
    f = font(PANEL_FONT, True)
    yy = y + 8
    for lines, col in rows:
        d.rectangle([M + 10, yy + 4, M + 22, yy + PANEL_FONT], fill=col)
        for line in lines:
            draw_text(d, (M + 32, yy), line, f, INK, "la")
            yy += PANEL_FONT + 10


_legends: dict = {}


def _legend_strip(dungeon: bool) -> Image.Image:
    """The key under the map, drawn once (per kind of map) and pasted into every picture."""
    hit = _legends.get(dungeon)
    if hit is None:
        strip = Image.new("RGB", (W, 140), BG)
        d = ImageDraw.Draw(strip)
        d.line([(M, 4), (W - M, 4)], fill=(200, 190, 172), width=2)
        end = _legend(d, 12, dungeon)
        hit = _legends[dungeon] = strip.crop((0, 0, W, int(end)))
    return hit


def _legend(d: ImageDraw.ImageDraw, y: float, dungeon: bool) -> float:
    f = font(26)
    x = M
    items = []

    def tok(side):
        return lambda dd, cx, cy: dd.ellipse([cx - 13, cy - 13, cx + 13, cy + 13], fill=bm.SIDE_COLOURS[side],
                                             outline=WHITE, width=2)

    items += [("adventurer", tok("adventurer")), ("companion", tok("companion")), ("enemy", tok("enemy"))]
    if not dungeon:
        items.append(("door", lambda dd, cx, cy: _door(dd, cx, cy - 36, 46, DOOR)))
        items.append(("explorable", lambda dd, cx, cy: dd.regular_polygon((cx, cy, 15), 6, rotation=30,
                                                                            outline=GOLD, width=5)))
        items += [("skyshard", lambda dd, cx, cy: dd.rounded_rectangle([cx - 14, cy - 10, cx + 14, cy + 10], 8,
                                                                        fill=SKY)),
                  ("trap", lambda dd, cx, cy: dd.rounded_rectangle([cx - 14, cy - 10, cx + 14, cy + 10], 8,
                                                                    fill=TRAP)),
                  ("environment", lambda dd, cx, cy: dd.rounded_rectangle([cx - 14, cy - 10, cx + 14, cy + 10], 8,
                                                                           fill=ENV))]
    else:
        items.append(("star hex", lambda dd, cx, cy: _star(dd, cx, cy, 15, GOLD, (120, 80, 0))))
    items.append(("cache", lambda dd, cx, cy: bm._chest(dd, cx, cy, 30)))
    for label, draw in items:
        w = 40 + f.getlength(label) + 22
        if x + w > W - M:
            x = M
            y += 42
        draw(d, x + 16, y + 16)
        d.text((x + 38, y + 16), label, font=f, fill=INK, anchor="lm")
        x += w
    return y + 44


def inset_box(st: _Static) -> tuple[int, int, int, int] | None:
    """Where the overview of the whole map sits in the picture (over the shown part's top-right corner)."""
    if st.overview is None:
        return None
    pad = 8
    x = W - st.overview.width - pad * 2 - 6
    y = bm.HEADER_H + 6
    return x, y, x + st.overview.width + 2 * pad, y + st.overview.height + 2 * pad + PANEL_FONT + 6


def _draw_overview(img: Image.Image, top: int, st: _Static, view: dict, box) -> None:
    """The whole map, small, over the top-right corner of the shown part: the shown part framed, the tiles'
    numbers and the units as dots."""
    d = ImageDraw.Draw(img)
    ov = st.ov_full
    pad = 8
    x, y, x1, y1 = inset_box(st)
    d.rounded_rectangle([x, y, x1, y1], radius=10, fill=(255, 252, 245), outline=INK_SOFT, width=3)
    draw_text(d, (x + pad, y + pad - 2), "WHOLE MAP", font(PANEL_FONT - 4, True), INK_SOFT, "la")
    ox, oy = x + pad, y + pad + PANEL_FONT + 4
    img.paste(st.overview, (int(ox), int(oy)))
    k = st.ov_scale
    x0, y0, x1, y1 = box
    d.rectangle([ox + x0 * k, oy + y0 * k, ox + x1 * k, oy + y1 * k], outline=SKY, width=3)
    fnum = font(max(20, int(ov.s * 1.3)), True)
    for t in (view.get("delve") or {}).get("tiles") or []:
        hexes = [tuple(h) for h in t.get("hexes") or []]
        if not hexes:
            continue
        xs = [ov.centre(*h) for h in hexes]
        cx, cy = sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)
        draw_text(d, (ox + cx, oy + cy), str(t.get("no")), fnum, INK, "mm")
    for u in view.get("units") or []:
        qr = _qr(u) if isinstance(u, dict) else None
        if qr is None or u.get("defeated"):
            continue
        cx, cy = ov.centre(*qr)
        r = max(3, ov.s * 0.45)
        col = bm.SIDE_COLOURS.get(u.get("side"), (90, 90, 90))
        d.ellipse([ox + cx - r, oy + cy - r, ox + cx + r, oy + cy + r], fill=col)


# --------------------------------------------------------------- pictures --
def render_delve_map(view: dict) -> bytes:
    """Draw a delve's or a dungeon's map picture; returns PNG bytes."""
    view = printable_view(view or {})
    st = _static(view)
    box = window(view, st)
    x0, y0, x1, y1 = box
    part = st.img.crop(box)
    lay = _Shift(st.full, -x0, -y0)
    pd = ImageDraw.Draw(part)
    s = lay.s
    units = [u for u in (view.get("units") or []) if isinstance(u, dict)]
    for c in view.get("caches") or []:
        qr = _qr(c)
        if qr is None or (isinstance(c, dict) and c.get("opened")):
            continue
        cx, cy = lay.centre(*qr)
        bm._chest(pd, cx + s * 0.5, cy - s * 0.12, s * 0.34)
    _draw_delve(pd, lay, view, part.width)
    for path, colour in bm._moves_of(view, units):
        bm._draw_moves(pd, lay, path, 0, colour)
    bm._draw_choices(pd, lay, view.get("choices") or [], 0)
    bm._draw_hex_dice(pd, lay, view.get("dice") or [], units, 0)
    _draw_caged(pd, lay, [u for u in units if u.get("side") == "captive"])
    bm._draw_units(pd, lay, [u for u in units if u.get("side") != "captive"], 0)
    bm._draw_engage(pd, lay, view.get("engage"), 0)
    for eng in view.get("engages") or []:
        bm._draw_engage(pd, lay, eng, 0)
    flog = font(bm.LOG_FONT)
    log_lines = bm._log_lines({"log": list(view.get("log") or [])[-LOG_ENTRIES:]}, W, flog)
    log_h = bm._log_height(log_lines)
    roster, roster_h = bm._roster_layout(units, W)
    rows, panel_h = _panel(view)
    ov_h = 0
    dungeon = (view.get("delve") or {}).get("kind") == "dungeon"
    legend = _legend_strip(dungeon) if dungeon or not rows else None  # a delve's panel says what its marks mean
    H = bm.HEADER_H + part.height + 12 + panel_h + ov_h + (legend.height if legend else 0) + log_h + (roster_h + 4 if roster_h else 0) + 6
    img = Image.new("RGB", (W, int(H)), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, bm.HEADER_H - 6], fill=bm.HEADER_BG)
    bm._draw_header(d, W, str(view.get("title") or "Delve"), view.get("round"), bool(view.get("fatigue_round")))
    img.paste(part, (int((W - part.width) / 2), bm.HEADER_H))
    if st.overview is not None:
        _draw_overview(img, bm.HEADER_H, st, view, box)
    y = bm.HEADER_H + part.height + 12
    if panel_h:
        _draw_panel(d, y, rows, panel_h)
        y += panel_h
    if legend is not None:
        img.paste(legend, (0, int(y)))
        y += legend.height
    if log_lines:
        bm._draw_log(d, W, y, log_lines, flog)
        y += log_h
    if roster:
        bm._draw_roster(d, W, y, roster, roster_h)
    return encode_png(img, palette_image=st.palette)


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
    coords = [_qr(h) for h in around] + near
    probe = _Full(coords, 1.0)
    wu, hu = probe.max_x - probe.min_x, probe.max_y - probe.min_y
    s = max(14.0, min((pw - 16) / wu, 520 / hu, 60))
    full = _Full(coords, s)
    ph = full.height + 70
    rows = (len(options) + cols - 1) // cols
    H = 80 + rows * (ph + M) + M
    img = Image.new("RGB", (W, int(H)), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, 68], fill=bm.HEADER_BG)
    title = str(view.get("title") or "Where does the tile go?")
    draw_text(d, (M, 34), title, fit_font(title, W - 2 * M, 34, True, min_size=24), WHITE, "lm")
    fnum = font(54, True)
    fsmall = font(26, True)
    occupied = {(u.get("q"), u.get("r")): u for u in view.get("units") or [] if isinstance(u, dict)}
    doors = {tuple(h) for h in view.get("doors") or []}
    for i, o in enumerate(options):
        px = M + (i % cols) * (pw + M)
        py = 80 + (i // cols) * (ph + M)
        default = bool(o.get("default"))
        d.rounded_rectangle([px, py, px + pw, py + ph], radius=12, fill=(255, 252, 245),
                            outline=GOLD if default else (120, 110, 98), width=6 if default else 2)
        ox = px + (pw - full.width) / 2
        oy = py + 62
        for h in around:
            qr = _qr(h)
            cx, cy = full.centre(*qr)
            pts = [(x + ox, y + oy) for x, y in full.corners(cx, cy)]
            col = bm.IMPASSABLE if h.get("impassable") else mix(bm.tile_colour(h.get("tile")), WHITE, 0.35)
            d.polygon(pts, fill=col, outline=(150, 140, 128))
            if qr in doors:
                _door(d, cx + ox, cy + oy, s, (150, 120, 90))
            if qr in occupied:
                u = occupied[qr]
                r = s * 0.42
                d.ellipse([cx + ox - r, cy + oy - r, cx + ox + r, cy + oy + r],
                          fill=bm.SIDE_COLOURS.get(u.get("side"), (90, 90, 90)), outline=WHITE, width=2)
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
        _pill(d, px + 48, py + 34, str(o.get("n")), fnum, SKY if not default else GOLD,
              fg=WHITE if not default else INK)
        if default:
            draw_text(d, (px + 96, py + 34), "suggested", fsmall, INK_SOFT, "lm")
    return encode_png(img)


__all__ = ["render_delve_map", "render_placements", "label_size", "window", "shown_hexes", "picture_centre",
           "cache_info", "clear_cache"]
