"""Engage pictures: ``render_engage(view) -> PNG bytes``.

The battlefield (one hex is one inch): ground shaded by height with the height written in each raised hex,
walls, ledges as thick edges, ladders across their edge, every hex's ``q,r`` label; the units (side colour, id,
a wounds bar, condition badges, a dark ring for Fear); the latest engage (the declared path dashed, the way the
unit went as an arrow from its faded start, its targets ringed, the interceptor's move, a unit making room);
moves, shots and spells of the turn.  Above: whose turn and phase, and the engage in words (the distance found,
the path, how it ended).  Below: a key and one line per unit with its wounds and every state.

Sized for phones: the picture is about 900 px wide and every label a player needs is drawn at 34 px or more, so
it stays at least 10 px tall when Discord shows the picture 400 px wide.
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render.common import BG, INK, INK_SOFT, WHITE, build_palette, ellipsize, encode_png, font, mix, wrap

W = 92.0  # hex width (flat side to flat side), pixels
S = W / math.sqrt(3)  # hex size (centre to corner)
M = 14
LABEL_PX = 34  # hex labels, unit ids, the lines above and the roster: >= 10 px tall at 400 px wide
LINE_H = 44
SIDE = {"a": (47, 111, 184), "b": (192, 72, 42)}
HEIGHT_FILL = [(236, 231, 212), (214, 204, 170), (192, 178, 138), (170, 153, 112), (150, 131, 92)]
WALL = (78, 72, 80)
LEDGE = (70, 48, 28)
LADDER = (150, 92, 36)
PATH = (20, 20, 20)
TARGET = (214, 30, 30)
BADGE = {"stunned": ((126, 52, 170), "S"), "dazed": ((36, 120, 200), "D"), "staggered": ((230, 140, 20), "G")}
TRAIL = {"move": (40, 40, 40), "shot": (200, 30, 30), "spell": (128, 60, 190)}


def rgb(text, default=(120, 120, 120)) -> tuple[int, int, int]:
    try:
        t = str(text).lstrip("#")
        return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)
    except (ValueError, IndexError, TypeError):
        return default


class _Geo:
    def __init__(self, cells, top: float):
        self.top = top
        self.at = {(c["q"], c["r"]): (c["col"], c["row"]) for c in cells}

    def centre(self, q, r) -> tuple[float, float]:
        col, row = self.at.get((int(q), int(r)), (int(q) + int(r) // 2, int(r)))
        return M + W / 2 + W * col + (W / 2 if row % 2 else 0), self.top + S + 1.5 * S * row


def _corners(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    return [(cx + s * math.cos(math.radians(60 * i + 30)), cy + s * math.sin(math.radians(60 * i + 30)))
            for i in range(6)]


def _dashed(d: ImageDraw.ImageDraw, pts, colour, width: int, dash: float = 14) -> None:
    for a, b in zip(pts, pts[1:]):
        length = math.dist(a, b)
        n = max(1, int(length // dash))
        for i in range(0, n, 2):
            t0, t1 = i / n, min(1, (i + 1) / n)
            d.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                    (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=colour, width=width)


def _arrow(d: ImageDraw.ImageDraw, pts, colour, width: int = 7) -> None:
    if len(pts) < 2:
        return
    d.line(pts, fill=colour, width=width, joint="curve")
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    tip = (x1 - math.cos(ang) * S * 0.55, y1 - math.sin(ang) * S * 0.55)
    left = (tip[0] - math.cos(ang - 0.5) * 20, tip[1] - math.sin(ang - 0.5) * 20)
    right = (tip[0] - math.cos(ang + 0.5) * 20, tip[1] - math.sin(ang + 0.5) * 20)
    d.polygon([tip, left, right], fill=colour)


def _ring(d: ImageDraw.ImageDraw, c, r: float, colour, width: int, dashed: bool = False) -> None:
    if not dashed:
        d.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r], outline=colour, width=width)
        return
    for i in range(0, 24, 2):
        d.arc([c[0] - r, c[1] - r, c[0] + r, c[1] + r], i * 15, i * 15 + 15, fill=colour, width=width)


def _edge(a, b) -> tuple[tuple[float, float], tuple[float, float]]:
    """The edge two neighbouring hexes share, from their centres."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1
    px, py = -dy / n * S / 2, dx / n * S / 2
    return (mx - px, my - py), (mx + px, my + py)


def _ladder(d: ImageDraw.ImageDraw, a, b) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1
    ux, uy = dx / n, dy / n
    px, py = -uy * 10, ux * 10
    p0 = (a[0] + dx * 0.3, a[1] + dy * 0.3)
    p1 = (a[0] + dx * 0.7, a[1] + dy * 0.7)
    for s in (-1, 1):
        d.line([(p0[0] + px * s, p0[1] + py * s), (p1[0] + px * s, p1[1] + py * s)], fill=LADDER, width=5)
    for t in (0.1, 0.37, 0.63, 0.9):
        x, y = p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t
        d.line([(x - px, y - py), (x + px, y + py)], fill=LADDER, width=4)


_GROUNDS: dict = {}  # the static layer (ground, walls, labels, ledges, ladders) and its palette, per map
_GROUNDS_MAX = 8
DYNAMIC = [BG, INK, INK_SOFT, WHITE, PATH, TARGET, LADDER, LEDGE, (40, 12, 12), (50, 50, 50), (70, 200, 90),
           (160, 20, 20), (44, 40, 52)] + list(SIDE.values()) + [c for c, _l in BADGE.values()] + list(TRAIL.values())


def _ground(cells, ladder_pairs, width: int, map_h: float):
    """The map without units, drawn once per map (cached), and a palette for pictures drawn on it."""
    key = (tuple((c["q"], c["r"], c["col"], c["row"], int(c.get("height") or 0), bool(c.get("wall")), c.get("zone"))
                 for c in cells), tuple(tuple(map(tuple, p)) for p in ladder_pairs if len(p) == 2), width)
    hit = _GROUNDS.get(key)
    if hit is not None:
        return hit
    img = Image.new("RGB", (width, int(math.ceil(map_h))), BG)
    d = ImageDraw.Draw(img)
    geo = _Geo(cells, 0)
    f_hex = font(LABEL_PX + 1, "condensed")
    f_small = font(24, True)  # at least 10 px when the picture is shown 400 px wide
    heights = {(c["q"], c["r"]): (int(c.get("height") or 0), bool(c.get("wall"))) for c in cells}
    for c in cells:
        cx, cy = geo.centre(c["q"], c["r"])
        h, wall = heights[(c["q"], c["r"])]
        fill = WALL if wall else HEIGHT_FILL[min(h, len(HEIGHT_FILL) - 1)]
        if c.get("zone") in SIDE and not wall:
            fill = mix(fill, SIDE[c["zone"]], 0.28)
        d.polygon(_corners(cx, cy, S - 1), fill=fill, outline=(160, 150, 130))
        if wall:
            continue
        text = f"{c['q']},{c['r']}"
        f = f_hex if f_hex.getlength(text) <= W - 6 else font(LABEL_PX, "condensed")
        d.text((cx, cy + S * 0.42), text, font=f, fill=(70, 62, 54), anchor="ms")
        if h:
            d.text((cx, cy - S * 0.5), f"↑{h}", font=f_small, fill=(60, 40, 20), anchor="mm")
    ladders = {frozenset((tuple(p[0]), tuple(p[1]))) for p in ladder_pairs if len(p) == 2}
    for (q, r), (h, wall) in heights.items():
        if wall:
            continue
        for dq, dr in ((1, 0), (1, -1), (0, -1)):
            other = heights.get((q + dq, r + dr))
            if other is None or other[1] or other[0] == h:
                continue
            if frozenset(((q, r), (q + dq, r + dr))) not in ladders:
                d.line(_edge(geo.centre(q, r), geo.centre(q + dq, r + dr)), fill=LEDGE, width=7)
    for pair in ladders:
        (q1, r1), (q2, r2) = tuple(pair)
        _ladder(d, geo.centre(q1, r1), geo.centre(q2, r2))
    palette = build_palette(img, exact=DYNAMIC)
    if len(_GROUNDS) >= _GROUNDS_MAX:
        _GROUNDS.pop(next(iter(_GROUNDS)))
    _GROUNDS[key] = (img, palette)
    return img, palette


def render_map(view: dict) -> bytes:
    cells = [c for c in view.get("cells") or [] if isinstance(c, dict)]
    cols = max([int(c["col"]) for c in cells], default=8) + 1
    rows = max([int(c["row"]) for c in cells], default=10) + 1
    width = int(W * (cols + 0.5) + 2 * M)
    f_title = font(34, True)
    f_line = font(LABEL_PX, True)
    f_roster = font(LABEL_PX, "condensed")
    lines = [str(x) for x in view.get("lines") or []]
    wrapped = [w for line in lines for w in wrap(line, f_line, width - 2 * M, 2)]
    head = 64 + LINE_H * len(wrapped) + (10 if wrapped else 0)
    map_h = S * (1.5 * (rows - 1) + 2)
    units = [u for u in view.get("units") or [] if isinstance(u, dict)]
    roster = []
    for u in units:
        states = ", ".join(str(s) for s in u.get("states") or [])
        traits = " · ".join(t for t, on in (("Fear", u.get("fear")), ("Jump Down", u.get("jump"))) if on)
        text = f"{u['id']} {u.get('name', '')} {u.get('left', 0)}/{u.get('wounds', 0)}"
        if traits:
            text += f" · {traits}"
        if states:
            text += f" · {states}"
        for i, part in enumerate(wrap(text, f_roster, width - 2 * M - 40, 3)):
            roster.append((u, part, i == 0))
    key_lines = wrap("Thick edge: ledge. Brown: ladder (1 in + height). Dark: wall. Numbers ↑: height in inches. "
                     "S Stunned, D Dazed, G Staggered; dark ring: Fear. Dashed: declared path; "
                     "a numbered circle: where a unit would intercept.",
                     font(26), width - 2 * M, 4)
    height = int(head + map_h + 16 + 32 * len(key_lines) + 14 + LINE_H * len(roster) + 16)
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    # title and the engage in words
    d.rectangle([0, 0, width, 56], fill=(44, 40, 52))
    d.text((M, 28), ellipsize(str(view.get("title") or "Engage"), f_title, width - 2 * M), font=f_title, fill=WHITE,
           anchor="lm")
    y = 64
    for line in wrapped:
        d.text((M, y + LINE_H / 2), line, font=f_line, fill=INK, anchor="lm")
        y += LINE_H
    geo = _Geo(cells, head)
    ground, palette = _ground(cells, view.get("ladders") or [], width, map_h)
    img.paste(ground, (0, int(head)))
    # the turn's moves, shots and spells, under the units
    for t in view.get("trail") or []:
        kind = t.get("kind")
        if kind == "move" and t.get("path"):
            _arrow(d, [geo.centre(*p) for p in t["path"]], TRAIL["move"], 6)
        elif kind in ("shot", "spell") and t.get("from") and t.get("to"):
            a, b = geo.centre(*t["from"]), geo.centre(*t["to"])
            _dashed(d, [a, b], TRAIL[kind], 5)
            _ring(d, b, S * 0.82, TRAIL[kind], 5)
    # the latest engage
    eng = view.get("engage") or None
    owner_side = {u["id"]: u.get("side", "a") for u in units}
    if eng and eng.get("start"):
        start = geo.centre(*eng["start"])
        colour = SIDE.get(owner_side.get(eng.get("unit")), PATH)
        full = [start] + [geo.centre(*p) for p in eng.get("path") or []]
        _dashed(d, full, PATH, 4)
        walked = [start] + [geo.centre(*p) for p in eng.get("walked") or []]
        if len(walked) > 1:
            _ring(d, start, S * 0.62, colour, 4, dashed=True)
            _arrow(d, walked, colour, 8)
        icp = eng.get("interceptor")
        if icp and icp.get("from") and icp.get("to"):
            ic = SIDE.get(owner_side.get(icp.get("unit")), PATH)
            a = geo.centre(*icp["from"])
            _ring(d, a, S * 0.62, ic, 4, dashed=True)
            _arrow(d, [a] + [geo.centre(*p) for p in icp.get("line") or [icp["to"]]], ic, 8)
        sh = eng.get("shuffle")
        if sh and sh.get("from") and sh.get("to"):
            sc = SIDE.get(owner_side.get(sh.get("unit")), PATH)
            _arrow(d, [geo.centre(*sh["from"]), geo.centre(*sh["to"])], sc, 6)
    # where each unit that may intercept would go, numbered as the question's menu numbers them
    f_offer = font(LABEL_PX, True)
    for o in view.get("offers") or []:
        if not o.get("to") or not o.get("from"):
            continue
        oc = SIDE.get(owner_side.get(o.get("unit")), PATH)
        a, b = geo.centre(*o["from"]), geo.centre(*o["to"])
        _dashed(d, [a, b], oc, 5)
        r = S * 0.45
        d.ellipse([b[0] - r, b[1] - r, b[0] + r, b[1] + r], fill=WHITE, outline=oc, width=5)
        d.text(b, str(o.get("n", "?")), font=f_offer, fill=oc, anchor="mm")
    # units
    f_id = font(LABEL_PX, True)
    f_badge = font(24, True)
    targets = set((eng or {}).get("targets") or [])
    for u in units:
        if u.get("out") or u.get("q") is None:
            continue
        cx, cy = geo.centre(u["q"], u["r"])
        colour = SIDE.get(u.get("side"), (120, 120, 120))
        rad = S * 0.66
        if u.get("fear"):
            d.ellipse([cx - rad - 6, cy - rad - 6, cx + rad + 6, cy + rad + 6], fill=(40, 12, 12))
        d.ellipse([cx - rad, cy - rad, cx + rad, cy + rad], fill=colour, outline=INK, width=2)
        d.text((cx, cy - 4), str(u["id"]), font=f_id, fill=WHITE, anchor="mm")
        wounds, left = max(1, int(u.get("wounds") or 1)), max(0, int(u.get("left") or 0))
        bw = rad * 1.5
        bx, by = cx - bw / 2, cy + rad * 0.5
        d.rectangle([bx, by, bx + bw, by + 8], fill=(50, 50, 50))
        d.rectangle([bx, by, bx + bw * left / wounds, by + 8], fill=(70, 200, 90))
        for i, c in enumerate(c for c in ("stunned", "dazed", "staggered") if c in (u.get("conditions") or [])):
            bcol, letter = BADGE[c]
            bxc, byc = cx + rad * 0.78 - i * 26, cy - rad * 0.8
            d.ellipse([bxc - 14, byc - 14, bxc + 14, byc + 14], fill=bcol, outline=WHITE, width=2)
            d.text((bxc, byc), letter, font=f_badge, fill=WHITE, anchor="mm")
        if u["id"] in targets:
            _ring(d, (cx, cy), rad + 9, TARGET, 5)
    for t in view.get("trail") or []:
        if t.get("kind") == "down" and t.get("at"):
            cx, cy = geo.centre(*t["at"])
            s = S * 0.45
            d.line([(cx - s, cy - s), (cx + s, cy + s)], fill=(160, 20, 20), width=7)
            d.line([(cx - s, cy + s), (cx + s, cy - s)], fill=(160, 20, 20), width=7)
    # key and roster
    y = head + map_h + 12
    for line in key_lines:
        d.text((M, y + 15), line, font=font(26), fill=INK_SOFT, anchor="lm")
        y += 32
    y += 10
    for u, part, first in roster:
        colour = SIDE.get(u.get("side"), (120, 120, 120))
        if first:
            d.ellipse([M, y + LINE_H / 2 - 12, M + 24, y + LINE_H / 2 + 12], fill=colour)
        ink = INK_SOFT if u.get("out") else INK
        d.text((M + 36, y + LINE_H / 2), part, font=f_roster, fill=ink, anchor="lm")
        y += LINE_H
    return encode_png(img, palette_image=palette)


def render_engage(view: dict) -> bytes:
    return render_map(view or {})


__all__ = ["render_engage"]
