"""Skirmish pictures: ``render_skirmish(view) -> PNG bytes``.

``view["mode"]`` is "map" (the battlefield: deployment zones, fighters with their wounds as numbers, who is
waiting or activating, the last moves, retreats and attacks, what just happened, and each warband's points
and ability dice with channelled dice marked; when the battle is over, the winner) or "initiative" (each
player's six initiative dice, singles and the ability dice they make, a key for the dice's colours and the
roll-off of a tie).  Every text is at least ``min_text(width)`` pixels (10 px at 400 px wide).
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict

from PIL import Image, ImageDraw

from render.common import (
    build_palette, colour_counts,
    rounded,
    BG, INK, INK_SOFT, PANEL, WHITE, draw_text, ellipsize, encode_png, fit_font, font, min_text, mix,
    printable_view, text_width, wrap,
)
from engine.text import count

MAP_W = 900
M = 12
SQ3 = math.sqrt(3)
HEADER_BG = (44, 40, 52)
WAIT = (236, 170, 20)
ACTIVE = (255, 214, 0)
CHANNEL = (128, 60, 190)
WIN = (40, 130, 60)
TRAIL = {"move": (30, 30, 30), "retreat": (220, 110, 20), "attack": (200, 30, 30), "bolt": CHANNEL}
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
GROUP_COLOURS = [(250, 200, 70), (120, 190, 240), (240, 140, 160), (150, 220, 140)]
ROW = 1.35


def rgb(text, default=(120, 120, 120)) -> tuple[int, int, int]:
    try:
        t = str(text).lstrip("#")
        return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)
    except (ValueError, IndexError, TypeError):
        return default


def _title(d: ImageDraw.ImageDraw, width: int, text: str, height: int, tag: tuple[str, tuple] | None = None) -> None:
    d.rectangle([0, 0, width, height - 8], fill=HEADER_BG)
    f = font(max(28, min_text(width) + 4), True)
    right = width - M
    if tag:
        ft = font(max(24, min_text(width) + 1), True)
        w = text_width(tag[0], ft) + 24
        rounded(d, [right - w, 10, right, height - 18], radius=10, fill=tag[1], outline=(255, 210, 80),
                            width=3)
        draw_text(d, (right - w / 2, (height - 8) / 2), tag[0], ft, WHITE, "mm")
        right -= w + 10
    draw_text(d, (M, (height - 8) / 2), ellipsize(text, f, right - M - 6), f, WHITE, "lm")


def _die(d: ImageDraw.ImageDraw, x: float, y: float, size: float, value: int, fill, *, edge=INK, pip=INK) -> None:
    rounded(d, [x, y, x + size, y + size], radius=size * 0.18, fill=fill, outline=edge, width=3)
    cx, cy, step, r = x + size / 2, y + size / 2, size * 0.26, max(3, size * 0.085)
    for px, py in PIPS.get(int(value), []):
        d.ellipse([cx + px * step - r, cy + py * step - r, cx + px * step + r, cy + py * step + r], fill=pip)


def _arrow(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], colour, dashed: bool = False, width: int = 5,
           head: float = 18) -> None:
    if len(pts) < 2:
        return
    for a, b in zip(pts, pts[1:]):
        if dashed:
            n = 6
            for i in range(0, n, 2):
                t0, t1 = i / n, (i + 1) / n
                d.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                        (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=colour, width=width)
        else:
            d.line([a, b], fill=colour, width=width)
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    tip = (x1 - math.cos(ang) * head, y1 - math.sin(ang) * head)
    left = (tip[0] - math.cos(ang - 0.5) * head * 0.85, tip[1] - math.sin(ang - 0.5) * head * 0.85)
    right = (tip[0] - math.cos(ang + 0.5) * head * 0.85, tip[1] - math.sin(ang + 0.5) * head * 0.85)
    d.polygon([tip, left, right], fill=colour)


def _wounds_colour(left: int, wounds: int) -> tuple[int, int, int]:
    if left >= wounds:
        return (40, 140, 60)
    return (200, 130, 20) if left * 3 > wounds else (190, 30, 30)


def _pill(d, cx, cy, text, f, fill, fg=WHITE) -> float:
    h = f.size * 1.15
    w = max(h, text_width(text, f) + f.size * 0.45)
    rounded(d, [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], radius=h / 2, fill=fill, outline=WHITE,
                        width=2)
    draw_text(d, (cx, cy + 0.5), text, f, fg, "mm")
    return w


def _ability_die(d: ImageDraw.ImageDraw, x: float, y: float, die: dict, colour, u: int) -> float:
    """One ability die: its value's pips, "n: kind value" under it; channelled ones ringed. Returns its width."""
    size = u * 2
    ch = bool(die.get("channelled"))
    f = font(u, "condensed")
    label = (f"{die.get('n')}: " if die.get("n") else "") + f"{die.get('kind', '')} {die.get('value', '')}"
    cell = max(size, text_width(label, f))
    dx = x + (cell - size) / 2
    if ch:
        rounded(d, [dx - 5, y - 5, dx + size + 5, y + size + 5], radius=12, outline=CHANNEL, width=4)
    _die(d, dx, y, size, int(die.get("value") or 0), mix(colour, WHITE, 0.75))
    draw_text(d, (x + cell / 2, y + size + 8), label, f, INK, "ma")
    if ch:
        draw_text(d, (x + cell / 2, y + size + 8 + u * 1.2), "channelled", font(u, True), CHANNEL, "ma")
    return cell + u


class _Field:
    def __init__(self, width_h: int, height_h: int, top: float):
        self.w = MAP_W
        self.hex = (self.w - 2 * M) / (SQ3 * (width_h + 0.5))
        self.ox = M + self.hex * SQ3 / 2
        self.oy = top + self.hex
        self.height = self.hex * (1.5 * (height_h - 1) + 2)

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return self.ox + self.hex * SQ3 * (q + r / 2), self.oy + self.hex * 1.5 * r

    def corners(self, cx: float, cy: float, s: float) -> list[tuple[float, float]]:
        return [(cx + s * math.cos(math.radians(60 * i + 30)), cy + s * math.sin(math.radians(60 * i + 30)))
                for i in range(6)]


def _key(d: ImageDraw.ImageDraw, x0: float, y: float, width: float, u: int) -> float:
    """What the marks on the field mean; returns the y under the key."""
    f = font(u)
    fb = font(u, True)
    row = u * 1.7
    r = u * 0.62

    def token(colour, ring=None, faded=False):
        def draw(cx, cy):
            if ring:
                d.ellipse([cx - r - 5, cy - r - 5, cx + r + 5, cy + r + 5], fill=ring)
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=mix(colour, (200, 200, 200), 0.55) if faded else colour,
                      outline=INK, width=2)
        return draw

    def wait(cx, cy):
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=WAIT, outline=INK)
        draw_text(d, (cx, cy + 0.5), "W", fb, INK, "mm")

    def wizard(cx, cy):
        s = r * 0.9
        d.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=CHANNEL, outline=WHITE)

    def line(colour, dashed=False):
        return lambda cx, cy: _arrow(d, [(cx - u * 0.9, cy), (cx + u * 0.9, cy)], colour, dashed, 4, u * 0.6)

    def down(cx, cy):
        s = r * 0.8
        d.line([(cx - s, cy - s), (cx + s, cy + s)], fill=(160, 20, 20), width=5)
        d.line([(cx - s, cy + s), (cx + s, cy - s)], fill=(160, 20, 20), width=5)

    def channelled(cx, cy):
        rounded(d, [cx - r, cy - r, cx + r, cy + r], radius=6, outline=CHANNEL, width=4)

    grey = (120, 120, 120)
    items = [("activating", token(grey, ACTIVE)), ("has activated", token(grey, faded=True)), ("waiting", wait),
             ("Wizard", wizard), ("move", line(TRAIL["move"])), ("retreat", line(TRAIL["retreat"], True)),
             ("attack", line(TRAIL["attack"])), ("bolt", line(TRAIL["bolt"], True)), ("out of action", down),
             ("channelled die", channelled)]
    draw_text(d, (x0, y + row / 2), "KEY", fb, INK_SOFT, "lm")
    left = x0 + text_width("KEY", fb) + u * 0.8
    x = left
    iw = u * 2
    for label, draw in items:
        need = iw + 6 + text_width(label, f) + u
        if x + need > x0 + width and x > left:
            x, y = left, y + row
        draw(x + iw / 2, y + row / 2)
        draw_text(d, (x + iw + 6, y + row / 2), label, f, INK, "lm")
        x += need
    return y + row


def render_map(view: dict) -> bytes:
    view = printable_view(view or {})
    width_h, height_h = int(view.get("width") or 14), int(view.get("height") or 10)
    palette = [rgb(c) for c in view.get("palette") or ["#2f7fbf", "#c0482a", "#3c9d5d", "#8e5cb8"]]
    W = MAP_W
    u = min_text(W)
    title_h = 72
    field = _Field(width_h, height_h, title_h)
    H0 = title_h + field.height + 12
    bands = [b for b in view.get("warbands") or [] if isinstance(b, dict)]
    log = [str(x) for x in view.get("log") or [] if str(x).strip()]
    result = view.get("result") if isinstance(view.get("result"), dict) else None
    # measure the blocks under the field
    flog = font(u)
    log_lines = [ln for entry in log for ln in wrap(entry, flog, W - 2 * M - 24, max_lines=2)][-5:]
    result_lines: list[str] = []
    if result:
        result_lines = wrap(f"{result.get('winner')} wins: {result.get('reason')}." if result.get("winner")
                            else f"A draw: {result.get('reason')}.", font(u, True), W - 2 * M - 24, max_lines=3)
        log_lines = result_lines + log_lines[-2:]
    log_h = (u * 1.6 + len(log_lines) * u * ROW + 14) if log_lines else 0
    band_layout = [_band_layout(b, W, u) for b in bands]
    static = _static_field(view, palette, width_h, height_h)
    H = int(static.image.height + 10 + log_h + sum(h for h, _ in band_layout) + 14)
    img = Image.new("RGB", (W, H), BG)
    img.paste(static.image, (0, 0))
    d = ImageDraw.Draw(img)
    tag = None
    if result:
        tag = ("WINNER: " + str(result.get("winner")), WIN) if result.get("winner") else ("DRAW", (110, 110, 110))
    _title(d, W, str(view.get("title") or "Skirmish"), title_h, tag)
    s = field.hex
    # moves, retreats, attacks and bolts under the fighters
    for t in view.get("trail") or []:
        if t.get("kind") in ("move", "retreat") and t.get("path"):
            pts = [field.centre(int(p[0]), int(p[1])) for p in t["path"]]
            _arrow(d, pts, TRAIL[t["kind"]], dashed=t["kind"] == "retreat")
        elif t.get("kind") in ("attack", "bolt") and t.get("from") and t.get("to"):
            a = field.centre(int(t["from"][0]), int(t["from"][1]))
            b = field.centre(int(t["to"][0]), int(t["to"][1]))
            _arrow(d, [a, b], TRAIL[t["kind"]], dashed=t["kind"] == "bolt")
    # fighters: a token with its letters, its wounds left as a number under them
    fl = font(u, True)
    fw = font(u, "condensed")
    for f in view.get("fighters") or []:
        if f.get("out") or f.get("q") is None:
            continue
        cx, cy = field.centre(int(f["q"]), int(f["r"]))
        colour = palette[int(f.get("side") or 0) % len(palette)]
        if f.get("activated"):
            colour = mix(colour, (200, 200, 200), 0.55)
        rad = s * 0.8
        ty = cy - s * 0.14
        if f.get("active"):
            d.ellipse([cx - rad - 6, ty - rad - 6, cx + rad + 6, ty + rad + 6], fill=ACTIVE)
        d.ellipse([cx - rad, ty - rad, cx + rad, ty + rad], fill=colour, outline=INK, width=2)
        short = str(f.get("short") or "?")
        draw_text(d, (cx, ty - s * 0.12), short, fit_font(short, rad * 1.7, u + 2, True, u), WHITE, "mm")
        wounds, dmg = max(1, int(f.get("wounds") or 1)), int(f.get("damage") or 0)
        left = max(0, wounds - dmg)
        _pill(d, cx, cy + s * 0.52, f"{left}/{wounds}", fw, _wounds_colour(left, wounds))
        if f.get("wizard"):
            k = s * 0.3
            wx, wy = cx + rad * 0.8, ty - rad * 0.8
            d.polygon([(wx, wy - k), (wx + k, wy), (wx, wy + k), (wx - k, wy)], fill=CHANNEL, outline=WHITE)
        if f.get("waiting"):
            wr = u * 0.62
            wx, wy = cx - rad * 0.8, ty - rad * 0.8
            d.ellipse([wx - wr, wy - wr, wx + wr, wy + wr], fill=WAIT, outline=INK)
            draw_text(d, (wx, wy + 0.5), "W", font(u, True), INK, "mm")
    # who was attacked (a ring in the attack's colour) and fighters taken out of action, over them
    for t in view.get("trail") or []:
        kind = t.get("kind")
        if kind in ("attack", "bolt") and t.get("to"):
            cx, cy = field.centre(int(t["to"][0]), int(t["to"][1]))
            rr = s * 0.8 + 5
            d.ellipse([cx - rr, cy - s * 0.14 - rr, cx + rr, cy - s * 0.14 + rr], outline=TRAIL[kind], width=5)
        elif kind == "down" and t.get("at"):
            cx, cy = field.centre(int(t["at"][0]), int(t["at"][1]))
            k = s * 0.5
            d.line([(cx - k, cy - k), (cx + k, cy + k)], fill=(160, 20, 20), width=6)
            d.line([(cx - k, cy + k), (cx + k, cy - k)], fill=(160, 20, 20), width=6)
    y = static.image.height + 10
    # what just happened
    if log_lines:
        rounded(d, [M, y, W - M, y + log_h - 6], radius=10, fill=PANEL, outline=(120, 110, 98), width=2)
        draw_text(d, (M + 12, y + 6), "WHAT HAPPENED", font(u, True), INK_SOFT, "la")
        ly = y + u * 1.6
        bold = set(range(len(result_lines))) if result else {len(log_lines) - 1}
        for i, line in enumerate(log_lines):
            draw_text(d, (M + 12, ly), line, font(u, True) if i in bold else flog, INK, "la")
            ly += u * ROW
        y += log_h
    # the warbands: names, points, fighters' wounds, ability dice
    for b, (bh, lines) in zip(bands, band_layout):
        _draw_band(d, b, y, bh, lines, W, u)
        y += bh
    if static.palette is None:  # the first frame of this field: its palette, from the field and this frame
        counts = colour_counts(img) or {}
        static.palette = build_palette(exact=_exact(palette), counts=counts)
    return encode_png(img, palette_image=static.palette)


class _Static:
    """A field drawn once: the hexes, their labels and the key; and the palette its frames are mapped onto."""

    def __init__(self, image: Image.Image):
        self.image = image
        self.palette = None


_fields: "OrderedDict[tuple, _Static]" = OrderedDict()
_fields_lock = threading.Lock()


def clear_cache() -> None:
    with _fields_lock:
        _fields.clear()


def _exact(palette) -> list:
    cols = [BG, PANEL, INK, INK_SOFT, WHITE, HEADER_BG, WAIT, ACTIVE, CHANNEL, WIN, (110, 110, 110), (150, 110, 0),
            (175, 165, 150), (78, 70, 62), (120, 110, 98), (160, 20, 20)] + list(TRAIL.values())
    cols += [(40, 140, 60), (200, 130, 20), (190, 30, 30)]
    for c in palette:
        cols += [c, mix(c, (200, 200, 200), 0.55), mix(c, PANEL, 0.75), mix(c, WHITE, 0.75)]
    return list(dict.fromkeys(cols))


def _static_field(view: dict, palette: list, width_h: int, height_h: int) -> _Static:
    hexes = tuple((int(h["q"]), int(h["r"]), h.get("zone")) for h in view.get("hexes") or [])
    key = (width_h, height_h, tuple(palette), hexes)
    with _fields_lock:
        hit = _fields.get(key)
        if hit is not None:
            _fields.move_to_end(key)
            return hit
    W, u, title_h = MAP_W, min_text(MAP_W), 72
    field = _Field(width_h, height_h, title_h)
    H0 = title_h + field.height + 12
    img = Image.new("RGB", (W, int(H0 + u * 1.7 * 4)), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, title_h - 8], fill=HEADER_BG)
    s = field.hex
    # the hexes, deployment zones tinted with their warband's colour; their labels are what /skirmish move takes
    fcoord = font(u, "condensed")
    for q, r, zone in hexes:
        cx, cy = field.centre(q, r)
        fill = mix(palette[zone % len(palette)], PANEL, 0.75) if zone is not None else PANEL
        d.polygon(field.corners(cx, cy, s - 1), fill=fill, outline=(175, 165, 150))
        label = f"{q},{r}"
        f = fcoord if text_width(label, fcoord) <= s * SQ3 - 4 else fit_font(label, s * SQ3 - 4, u, "condensed", u)
        draw_text(d, (cx, cy + 1), label, f, (78, 70, 62), "mm")
    y = _key(d, M, H0, W - 2 * M, u)
    built = _Static(img.crop((0, 0, W, int(y))))
    with _fields_lock:
        _fields[key] = built
        while len(_fields) > 8:
            _fields.popitem(last=False)
    return built


def _band_text(b: dict) -> list[str]:
    fighters = []
    for f in b.get("fighters") or []:
        wounds = max(1, int(f.get("wounds") or 1))
        left = max(0, wounds - int(f.get("damage") or 0))
        fighters.append(f"{f.get('short')} {f.get('name')} " + ("out of action" if f.get("out") else f"{left}/{wounds}"))
    return fighters


def _band_layout(b: dict, W: int, u: int) -> tuple[int, list[str]]:
    f = font(u)
    text = " · ".join(_band_text(b))
    lines = wrap(text, f, W - 2 * M - 24, max_lines=3) if text else []
    dice = [x for x in b.get("dice") or [] if isinstance(x, dict)]
    h = u * 1.9 + len(lines) * u * ROW + 12
    if not b.get("winner") and "winner" not in b:
        h += u * 2 + u * 1.5 + (u * 1.2 if any(x.get("channelled") for x in dice) else 0) + 10
    return int(h + 12), lines


def _draw_band(d, b: dict, y: float, bh: int, lines: list[str], W: int, u: int) -> None:
    colour = rgb(b.get("colour"))
    if b.get("turn"):
        rounded(d, [M - 6, y - 2, W - M + 6, y + bh - 8], radius=10, outline=ACTIVE, width=4)
    if b.get("winner"):
        rounded(d, [M - 6, y - 2, W - M + 6, y + bh - 8], radius=10, outline=WIN, width=4)
    fb = font(u + 2, True)
    d.rectangle([M + 4, y + 6, M + 4 + u, y + 6 + u], fill=colour)
    head = f"{b.get('name', '')} ({b.get('player', '')})"
    tags = []
    if "points" in b:
        tags.append((f"{count(b['points'], 'point')} on the field", None))
    if b.get("winner"):
        tags.append(("WINNER", WIN))
    elif b.get("turn"):
        tags.append(("to act", (150, 110, 0)))
    x = M + 12 + u
    room = W - M - x - sum(text_width(t, font(u, True)) + u * 1.2 for t, _ in tags)
    draw_text(d, (x, y + 6 + u / 2), ellipsize(head, fb, max(80, room)), fb, INK, "lm")
    x += min(text_width(head, fb), max(80, room)) + 12
    for t, c in tags:
        ft = font(u, True)
        w = text_width(t, ft) + u * 0.8
        if c is None:
            draw_text(d, (x, y + 6 + u / 2), t, font(u), INK_SOFT, "lm")
            x += text_width(t, font(u)) + 12
            continue
        rounded(d, [x, y + 6 + u / 2 - u * 0.65, x + w, y + 6 + u / 2 + u * 0.65], radius=u * 0.65, fill=c)
        draw_text(d, (x + w / 2, y + 6 + u / 2 + 0.5), t, ft, WHITE, "mm")
        x += w + 10
    ly = y + u * 1.9
    for line in lines:
        draw_text(d, (M + 12, ly), line, font(u), INK, "la")
        ly += u * ROW
    if "winner" in b:
        return
    dice = [x for x in b.get("dice") or [] if isinstance(x, dict)]
    if not dice:
        draw_text(d, (M + 12, ly + 8), "no ability dice", font(u), INK_SOFT, "la")
        return
    x = M + 12
    for die in dice:
        if x > W - M - u * 4:
            break
        x += _ability_die(d, x, ly + 8, die, colour, u)


def render_initiative(view: dict) -> bytes:
    view = printable_view(view or {})
    rows = [r for r in view.get("rows") or [] if isinstance(r, dict)]
    W = 600
    u = min_text(W)
    size, gap = 62, 12
    title_h = 62
    f = font(u + 2)
    fb = font(u + 6, True)
    rolloffs = list(view.get("rolloffs") or [])
    row_h = fb.size * 1.6 + size + 14 + 2 * (u + 2) * ROW + 20
    H = int(title_h + row_h * max(1, len(rows)) + (len(rolloffs) * (u + 6 + size + 30)) + 70)
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    _title(d, W, str(view.get("title") or "Initiative"), title_h)
    y = title_h + 10
    for row in rows:
        colour = rgb(row.get("colour"))
        d.rectangle([M, y + 6, M + u + 4, y + 10 + u], fill=colour)
        n = int(row.get("singles") or 0)
        head = f"{row.get('player', '')}: {count(n, 'single')}"
        draw_text(d, (M + u + 14, y + 8 + u / 2), ellipsize(head, fb, W - 2 * M - u - 14), fb, INK, "lm")
        y += fb.size * 1.6
        roll = [int(v) for v in row.get("roll") or []]
        matched = sorted({v for v in roll if roll.count(v) > 1})
        x = M
        for v in sorted(roll, key=lambda v: (roll.count(v) == 1, v)):
            fill = GROUP_COLOURS[matched.index(v) % 4] if v in matched else WHITE
            _die(d, x, y, size, v, fill)
            x += size + gap
        y += size + 14
        # the key: each colour, what those dice make
        kinds = {a["value"]: a["kind"] for a in row.get("dice") or [] if isinstance(a, dict)}
        parts = [(GROUP_COLOURS[i % 4], f"{kinds.get(v, 'group')} of {v}: an ability die") for i, v in enumerate(matched)]
        parts.append((WHITE, f"single{'s' if n != 1 else ''}: count{'' if n != 1 else 's'} for initiative"))
        x = M
        ky = y
        for col, text in parts:
            w = u + 8 + text_width(text, f) + 18
            if x + w > W - M and x > M:
                x, ky = M, ky + (u + 2) * ROW
            rounded(d, [x, ky + 2, x + u, ky + 2 + u], radius=4, fill=col, outline=INK, width=2)
            draw_text(d, (x + u + 8, ky + 2 + u / 2), text, f, INK_SOFT, "lm")
            x += w
        y = ky + (u + 2) * ROW + 20
    for ro in rolloffs:
        draw_text(d, (M, y), "Tied on singles: a roll-off", font(u + 4, True), INK, "la")
        y += u + 10
        if isinstance(ro, list):
            x = M
            for who, value in ro:
                _die(d, x, y, size * 0.8, int(value), WHITE)
                label = f"{who} {value}"
                draw_text(d, (x + size * 0.8 + 8, y + size * 0.4), label, font(u + 2, True), INK, "lm")
                x += size * 0.8 + 24 + text_width(label, font(u + 2, True))
            y += size * 0.8 + 20
        else:
            for line in wrap(str(ro), f, W - 2 * M, max_lines=2):
                draw_text(d, (M, y), line, f, INK, "la")
                y += (u + 2) * ROW
            y += 10
    first = str(view.get("first") or "")
    if first:
        draw_text(d, (M, y + 10), ellipsize(f"{first} activates first.", font(u + 6, True), W - 2 * M),
                  font(u + 6, True), INK, "la")
        y += u + 30
    return encode_png(img.crop((0, 0, W, int(min(H, y + 10)))))


def render_skirmish(view: dict) -> bytes:
    view = view or {}
    if view.get("mode") == "initiative":
        return render_initiative(view)
    return render_map(view)


__all__ = ["clear_cache", "render_skirmish"]
