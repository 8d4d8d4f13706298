"""The overland map picture: ``render_overland(view) -> PNG bytes``.

Pointy-top hexes in axial coordinates (q, r), as the battle map.  The static layer (terrain, hex labels,
towns, landmarks by kind, the compass and the legend) depends only on the province and its closed towns, so it
is drawn once per ``version`` and kept in a small cache; the header (day, phase, who acts), the party token,
the route just travelled (or the one proposed), NPC and objective tokens, the province gauge and the latest
lines are drawn on a copy each time.

Every label a player needs (hex labels used in commands, town names, the day, the gauge, the legend) is drawn
at least 28 px tall on a 1100 px wide picture: 10 px once a phone shows it 400 px wide.
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict

from PIL import Image, ImageDraw

from engine.hexes import POINTY, Hex, Point
from engine.hexes import Layout as HexLayout
from render.common import (BG, GOLD, INK, INK_SOFT, WHITE, arrow, build_palette, draw_text, encode_png, fit_font,
                           font, mix, printable, printable_view, text_on, text_width, wrap)

W = 1100
M = 16
HEADER_H = 112
MIN_SIZE = 44
MAX_SIZE = 78
LABEL = 28          # px: town names, legend, gauge and log (10 px at 400 px wide)
COORD = 36          # px: the hex labels used in commands (their digits at least 7 px tall at 400 px wide)
SMALL = 28
SEA = (150, 190, 206)
SEA_DARK = (110, 154, 176)
HEADER_BG = (38, 52, 60)
PARTY = (30, 86, 200)
ROUTE = (30, 86, 200)
PROPOSED = (226, 110, 20)
NPC = (236, 196, 40)
OBJECTIVE = (200, 40, 160)
KIND_COLOURS = {"peaceful": (46, 150, 80), "conflict": (196, 40, 40), "unstable": (128, 60, 190)}
KIND_NAMES = {"peaceful": "Peaceful landmark", "conflict": "Conflict landmark", "unstable": "Unstable landmark"}
DIR_ANGLES = {"e": 0, "ne": -60, "nw": -120, "w": 180, "sw": 120, "se": 60}  # degrees, y down

_UNIT = HexLayout(POINTY, Point(1.0, 1.0), Point(0.0, 0.0))
_cache: "OrderedDict[str, tuple]" = OrderedDict()
_lock = threading.Lock()
_CACHE_MAX = 6


def clear_cache() -> None:
    with _lock:
        _cache.clear()


def _rgb(colour, default=(200, 200, 200)) -> tuple[int, int, int]:
    if isinstance(colour, (list, tuple)) and len(colour) == 3:
        return tuple(int(x) for x in colour)
    text = str(colour or "")
    if len(text) == 7 and text.startswith("#"):
        try:
            return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
        except ValueError:
            return default
    return default


class _Layout:
    def __init__(self, hexes: list[dict]):
        pts = [_UNIT.hex_to_pixel(Hex(h["q"], h["r"])) for h in hexes] or [Point(0, 0)]
        xs, ys = [p.x for p in pts], [p.y for p in pts]
        half_w = math.sqrt(3) / 2
        span_w = (max(xs) - min(xs)) + 2 * half_w
        size = (W - 2 * M) / span_w
        self.s = max(MIN_SIZE, min(MAX_SIZE, size))
        self.x0 = M + (W - 2 * M - span_w * self.s) / 2 + (half_w - min(xs)) * self.s
        self.y0 = M + (1.0 - min(ys)) * self.s
        self.h = int((max(ys) - min(ys) + 2) * self.s + 2 * M)

    def centre(self, q: int, r: int) -> tuple[float, float]:
        p = _UNIT.hex_to_pixel(Hex(q, r))
        return self.x0 + p.x * self.s, self.y0 + p.y * self.s

    def corners(self, q: int, r: int, shrink: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(q, r)
        out = []
        for i in range(6):
            ang = math.radians(60 * i - 30)
            out.append((cx + self.s * shrink * math.cos(ang), cy + self.s * shrink * math.sin(ang)))
        return out


# ------------------------------------------------------------------ icons --
def _town(d, cx, cy, s, closed: bool) -> None:
    w, h = s * 0.62, s * 0.42
    x0, y0 = cx - w / 2, cy - h / 2 + s * 0.08
    body = (236, 226, 204) if not closed else (170, 162, 150)
    d.rectangle([x0, y0, x0 + w, y0 + h], fill=body, outline=INK, width=3)
    merlon = w / 5
    for i in (0, 2, 4):
        d.rectangle([x0 + i * merlon, y0 - merlon * 0.9, x0 + (i + 1) * merlon, y0], fill=body, outline=INK, width=3)
    d.rectangle([cx - merlon * 0.45, y0 + h * 0.45, cx + merlon * 0.45, y0 + h], fill=INK)
    if closed:
        d.line([(x0 - 6, y0 - merlon), (x0 + w + 6, y0 + h + 4)], fill=(180, 20, 20), width=7)
        d.line([(x0 - 6, y0 + h + 4), (x0 + w + 6, y0 - merlon)], fill=(180, 20, 20), width=7)


def _landmark(d, kind: str, cx, cy, s) -> None:
    col = KIND_COLOURS.get(kind, INK)
    r = s * 0.3
    if kind == "peaceful":
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=col, outline=WHITE, width=3)
        # a leaf
        d.ellipse([cx - r * 0.5, cy - r * 0.28, cx + r * 0.5, cy + r * 0.28], fill=WHITE)
    elif kind == "conflict":
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=col, outline=WHITE, width=3)
        k = r * 0.55
        d.line([(cx - k, cy - k), (cx + k, cy + k)], fill=WHITE, width=max(3, int(s * 0.07)))
        d.line([(cx - k, cy + k), (cx + k, cy - k)], fill=WHITE, width=max(3, int(s * 0.07)))
    else:
        pts = []
        for i in range(10):
            rad = r * 1.15 if i % 2 == 0 else r * 0.5
            ang = math.radians(-90 + 36 * i)
            pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
        d.polygon(pts, fill=col, outline=WHITE)


def _pill(d, cx, top, text, f, closed: bool = False, fill=(255, 252, 240), ink=INK) -> None:
    """A town's name with its castle at the left, on a light pill."""
    icon = f.size * 1.1
    w = text_width(text, f) + 20 + icon
    h = f.size + 12
    x0 = cx - w / 2
    d.rounded_rectangle([x0, top, x0 + w, top + h], radius=8, fill=fill, outline=INK, width=2)
    _town(d, x0 + 8 + icon / 2, top + h / 2 + 2, icon * 1.25, closed)
    draw_text(d, (x0 + 12 + icon + (w - 20 - icon) / 2, top + h / 2), text, f, ink, anchor="mm")


# ------------------------------------------------------------------ static --
def _static(view: dict) -> tuple:
    key = str(view.get("version") or "") + "|" + ",".join(sorted(view.get("closed") or []))
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    hexes = view.get("hexes") or []
    lay = _Layout(hexes)
    img = Image.new("RGB", (W, lay.h), SEA)
    d = ImageDraw.Draw(img)
    # a faint wave pattern on the sea
    for y in range(20, lay.h, 46):
        for x in range((y // 46) % 2 * 40, W, 80):
            d.arc([x, y, x + 36, y + 18], 200, 340, fill=SEA_DARK, width=2)
    closed = set(view.get("closed") or [])
    for h in hexes:
        col = _rgb(h.get("color"))
        d.polygon(lay.corners(h["q"], h["r"]), fill=col, outline=mix(col, INK, 0.55))
    for h in hexes:
        d.line(lay.corners(h["q"], h["r"]) + [lay.corners(h["q"], h["r"])[0]], fill=mix(_rgb(h.get("color")), INK, 0.6),
               width=2)
    s = lay.s
    coord = font(COORD, "condensed")
    for h in hexes:
        cx, cy = lay.centre(h["q"], h["r"])
        col = _rgb(h.get("color"))
        draw_text(d, (cx, cy - s * 0.5), f"{h['q']},{h['r']}", coord, text_on(col), anchor="ma")
        kind = h.get("feature")
        if kind in KIND_COLOURS:
            _landmark(d, kind, cx + s * 0.26, cy + s * 0.34, s * 0.85)
    # town names across the bottom edge of their hexes (clear of the labels of the hexes below)
    name_font = font(LABEL, "condensed")
    for h in hexes:
        if h.get("feature") == "town" and h.get("name"):
            cx, cy = lay.centre(h["q"], h["r"])
            shut = h.get("town") in closed
            label = h["name"] + (" (closed)" if shut else "")
            _pill(d, cx, cy + s * 0.08, label, name_font, shut)
    spot = _compass_spot(lay, view.get("compass") or {}, hexes)
    if spot is not None:
        _compass(d, spot, view.get("compass") or {})
    result = (img, lay, {})  # the dict keeps this map's PNG palette once a full picture has been drawn
    with _lock:
        _cache[key] = result
        while len(_cache) > _CACHE_MAX:
            _cache.popitem(last=False)
    return result


COMPASS_R = 62


def _compass_spot(lay, compass: dict, hexes: list[dict]) -> tuple[float, float] | None:
    """Where the compass goes on the map: its corner, if no hex is under it (else it goes in the panel)."""
    if len(compass.get("faces") or []) != 6:
        return None
    corner = compass.get("corner") or "top-right"
    r = COMPASS_R + 18
    cx = W - M - r if "right" in corner else M + r
    cy = M + r if "top" in corner else lay.h - M - r
    for h in hexes:
        hx, hy = lay.centre(h["q"], h["r"])
        if math.hypot(hx - cx, hy - cy) < r + lay.s * 0.95:
            return None
    return cx, cy


def _compass(d, at, compass: dict) -> None:
    faces = compass.get("faces") or []
    if len(faces) != 6:
        return
    cx, cy = at
    r = COMPASS_R
    d.ellipse([cx - r - 18, cy - r - 18, cx + r + 18, cy + r + 18], fill=(244, 238, 222), outline=INK, width=3)
    f = font(LABEL, "condensed")
    for face, name in enumerate(faces, 1):
        ang = math.radians(DIR_ANGLES.get(name, 0))
        tip = (cx + r * 0.62 * math.cos(ang), cy + r * 0.62 * math.sin(ang))
        arrow(d, (cx, cy), tip, INK_SOFT, 4, 14)
        lx, ly = cx + r * 0.92 * math.cos(ang), cy + r * 0.92 * math.sin(ang)
        draw_text(d, (lx, ly), str(face), f, INK, anchor="mm")
    draw_text(d, (cx, cy - r - 2), "N", font(LABEL, True), (180, 30, 30), anchor="md")


# ----------------------------------------------------------------- dynamic --
def render_overland(view: dict) -> bytes:
    view = printable_view(view or {})
    base, lay, kept = _static(view)
    in_panel = _compass_spot(lay, view.get("compass") or {}, view.get("hexes") or []) is None and \
        len((view.get("compass") or {}).get("faces") or []) == 6
    panel_h = _panel_height(view, in_panel)
    img = Image.new("RGB", (W, HEADER_H + lay.h + panel_h), BG)
    img.paste(base, (0, HEADER_H))
    d = ImageDraw.Draw(img)
    _header(d, view)
    s = lay.s

    def at(q, r):
        x, y = lay.centre(q, r)
        return x, y + HEADER_H

    def low(q, r):  # where routes run: below the hex labels
        x, y = at(q, r)
        return x, y + s * 0.22

    for key, colour, dashed in (("proposal", PROPOSED, True), ("route", ROUTE, False)):
        path = [p for p in (view.get(key) or []) if isinstance(p, (list, tuple)) and len(p) == 2]
        if len(path) < 2:
            continue
        pts = [low(*p) for p in path]
        for a, b in zip(pts, pts[1:]):
            if dashed:
                _dashed(d, a, b, colour, 9)
            else:
                d.line([a, b], fill=colour, width=10)
        arrow(d, pts[-2], pts[-1], colour, 10 if not dashed else 8, 30)
        for p in pts[:-1]:
            d.ellipse([p[0] - 9, p[1] - 9, p[0] + 9, p[1] + 9], fill=colour)
    for t in view.get("tokens") or []:
        if t.get("path") and len(t["path"]) > 1:
            pts = [low(*p) for p in t["path"]]
            for a, b in zip(pts, pts[1:]):
                _dashed(d, a, b, NPC if t.get("kind") == "npc" else OBJECTIVE, 6)
    _relabel(d, view, lay, at)
    for t in view.get("tokens") or []:
        x, y = at(t["q"], t["r"])
        x -= s * 0.3
        y += s * 0.5
        r = s * 0.22
        if t.get("kind") == "objective":
            d.ellipse([x - r, y - r, x + r, y + r], fill=OBJECTIVE, outline=WHITE, width=3)
        else:
            d.polygon([(x, y - r * 1.2), (x + r, y), (x, y + r * 1.2), (x - r, y)], fill=NPC, outline=INK)
        letter = (t.get("name") or "?").split()[-1][:1].upper()
        draw_text(d, (x, y), letter, font(LABEL, True), INK if t.get("kind") != "objective" else WHITE, anchor="mm")
    party = view.get("party")
    if party:
        x, y = at(party["q"], party["r"])
        town = next((h for h in view.get("hexes") or () if h.get("feature") == "town" and h.get("name")
                     and (h["q"], h["r"]) == (party["q"], party["r"])), None)
        r = s * 0.27
        if town is not None:  # over the castle of the town's name pill: the name stays whole
            f = font(LABEL, "condensed")
            label = town["name"] + (" (closed)" if town.get("town") in (view.get("closed") or ()) else "")
            icon = f.size * 1.1
            w = text_width(label, f) + 20 + icon
            x = x - w / 2 + 8 + icon / 2
            y = y + s * 0.08 + (f.size + 12) / 2
            r = min(r, (f.size + 12) / 2 + 2)
        else:
            x -= s * 0.36
            y += s * 0.24
        d.ellipse([x - r - 4, y - r - 4, x + r + 4, y + r + 4], fill=WHITE)
        d.ellipse([x - r, y - r, x + r, y + r], fill=PARTY)
        draw_text(d, (x, y), "P", font(30, True), WHITE, anchor="mm")
    _panel(d, view, HEADER_H + lay.h, in_panel)
    palette = kept.get("palette")
    if palette is None:  # computed once per map from its first full picture; later pictures only map onto it
        palette = kept["palette"] = build_palette(img, exact=_DYNAMIC)
    return encode_png(img, palette_image=palette)


#: colours the changing parts draw (kept exact in the map's palette)
_DYNAMIC = (PARTY, ROUTE, PROPOSED, NPC, OBJECTIVE, WHITE, INK, INK_SOFT, GOLD, HEADER_BG, BG, (236, 230, 216),
            (220, 226, 230), (200, 190, 170), (255, 252, 240), (180, 20, 20))


def _relabel(d, view: dict, lay, at) -> None:
    """The labels of the hexes a route crosses, drawn again over it (with a halo), so they stay readable."""
    touched = set()
    paths = [view.get("route") or [], view.get("proposal") or []] + [t.get("path") or []
                                                                      for t in view.get("tokens") or []]
    for path in paths:
        for p in path:
            if isinstance(p, (list, tuple)) and len(p) == 2:
                touched.add((int(p[0]), int(p[1])))
    if not touched:
        return
    colours = {(h["q"], h["r"]): _rgb(h.get("color")) for h in view.get("hexes") or []}
    f = font(COORD, "condensed")
    for q, r in touched:
        if (q, r) not in colours:
            continue
        x, y = at(q, r)
        col = colours[(q, r)]
        d.text((x, y - lay.s * 0.5), f"{q},{r}", font=f, fill=text_on(col), anchor="ma", stroke_width=3,
               stroke_fill=col)


def _dashed(d, a, b, colour, width: int) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(1, int(math.hypot(dx, dy) // 22))
    for i in range(n):
        if i % 2:
            continue
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        d.line([(a[0] + dx * t0, a[1] + dy * t0), (a[0] + dx * t1, a[1] + dy * t1)], fill=colour, width=width)


def _header(d, view: dict) -> None:
    d.rectangle([0, 0, W, HEADER_H], fill=HEADER_BG)
    title = view.get("title") or "Overland"
    day, limit = view.get("day"), view.get("day_limit") or 12
    right = f"Day {day} of {limit}" if day else "Day —"
    f_right = font(36, True)
    rw = text_width(right, f_right)
    draw_text(d, (W - M, 14), right, f_right, GOLD, anchor="ra")
    draw_text(d, (M, 14), title, fit_font(title, W - 3 * M - rw, 36, True, min_size=28), WHITE)
    line = view.get("status") or ""
    draw_text(d, (M, 62), line, fit_font(line, W - 2 * M, 30, False, min_size=28), (220, 226, 230))


def _legend_items(view: dict) -> list[tuple[str, str, object]]:
    items = [("town", "Town", None)] + [(k, KIND_NAMES[k], None) for k in ("peaceful", "conflict", "unstable")]
    if view.get("party"):  # the endgame has no party token on the map (p.51)
        items += [("party", "Party", None), ("route", "Route today", None)]
    if view.get("proposal"):
        items.append(("proposal", "Route proposed", None))
    for t in view.get("tokens") or []:
        kind = "objective" if t.get("kind") == "objective" else "npc"
        items.append((kind, f"{t.get('name', '?')} ({'objective' if kind == 'objective' else 'NPC'})", None))
    for t in view.get("terrain") or []:
        items.append(("terrain", t.get("name", "?"), _rgb(t.get("color"))))
    return items


COLS = 3
ROW = 44


def _panel_height(view: dict, compass: bool = False) -> int:
    gauge = view.get("gauge") or {}
    n_legend = len(_legend_items(view))
    legend_rows = (n_legend + COLS - 1) // COLS
    log = view.get("log") or []
    log_lines = sum(len(wrap(printable(x), font(SMALL), W - 2 * M, 2)) for x in log[-4:])
    top = max(2 * ROW + 12 if gauge.get("steps") else 0, 2 * COMPASS_R + 60 if compass else 0)
    return 20 + top + 16 + legend_rows * ROW + 16 + log_lines * 36 + 24


def _panel(d, view: dict, top: int, compass: bool = False) -> None:
    y = top + 14
    gauge = view.get("gauge") or {}
    steps = gauge.get("steps") or []
    right = W - M
    if compass:
        right = W - M - 2 * COMPASS_R - 50
        _compass(d, (W - M - COMPASS_R - 20, y + COMPASS_R + 26), view.get("compass") or {})
    start = y
    if steps:
        f = font(LABEL, True)
        draw_text(d, (M, y), f"{gauge.get('name', 'Gauge')}:", f, INK)
        y += ROW
        x = M
        fs = font(LABEL, "condensed")
        for st in steps:
            label = f"{st.get('name')} · move {st.get('movement')}"
            w = text_width(label, fs) + 22
            on = st.get("id") == gauge.get("at")
            if x + w > right:
                x = M
                y += ROW
            d.rounded_rectangle([x, y - 4, x + w, y + ROW - 8], radius=10,
                                fill=(30, 86, 200) if on else (236, 230, 216), outline=INK, width=3 if on else 1)
            draw_text(d, (x + w / 2, y + (ROW - 12) / 2), label, fs, WHITE if on else INK_SOFT, anchor="mm")
            x += w + 10
        y += ROW + 12
    if compass:
        y = max(y, start + 2 * COMPASS_R + 60)
    d.line([(M, y), (W - M, y)], fill=(200, 190, 170), width=2)
    y += 12
    items = _legend_items(view)
    col_w = (W - 2 * M) / COLS
    fl = font(LABEL, "condensed")
    for i, (kind, label, colour) in enumerate(items):
        cx = M + (i % COLS) * col_w
        cy = y + (i // COLS) * ROW + ROW / 2 - 4
        ix = cx + 20
        if kind == "terrain":
            d.rectangle([ix - 16, cy - 14, ix + 16, cy + 14], fill=colour, outline=INK)
        elif kind == "town":
            _town(d, ix, cy - 4, 48, False)
        elif kind in KIND_COLOURS:
            _landmark(d, kind, ix, cy, 60)
        elif kind == "party":
            d.ellipse([ix - 18, cy - 18, ix + 18, cy + 18], fill=PARTY)
            draw_text(d, (ix, cy), "P", font(LABEL, True), WHITE, anchor="mm")
        elif kind == "route":
            d.line([(ix - 18, cy), (ix + 18, cy)], fill=ROUTE, width=8)
        elif kind == "proposal":
            _dashed(d, (ix - 20, cy), (ix + 20, cy), PROPOSED, 7)
        elif kind == "npc":
            d.polygon([(ix, cy - 18), (ix + 15, cy), (ix, cy + 18), (ix - 15, cy)], fill=NPC, outline=INK)
        elif kind == "objective":
            d.ellipse([ix - 15, cy - 15, ix + 15, cy + 15], fill=OBJECTIVE)
        draw_text(d, (ix + 30, cy), label, fl, INK, anchor="lm")
    y += ((len(items) + COLS - 1) // COLS) * ROW + 8
    d.line([(M, y), (W - M, y)], fill=(200, 190, 170), width=2)
    y += 12
    for line in (view.get("log") or [])[-4:]:
        for part in wrap(printable(line), font(SMALL), W - 2 * M, 2):
            draw_text(d, (M, y), part, font(SMALL), INK)
            y += 36


__all__ = ["clear_cache", "render_overland"]
