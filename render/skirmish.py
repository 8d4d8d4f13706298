"""Skirmish pictures: ``render_skirmish(view) -> PNG bytes``.

``view["mode"]`` is "map" (the battlefield: deployment zones, fighters with their
wounds, who is waiting or activating, the last moves, retreats and attacks, and
each warband's ability dice with channelled dice marked) or "initiative" (each
player's six initiative dice, singles and the ability dice they make).
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render.common import (
    BG,
    INK,
    INK_SOFT,
    PANEL,
    WHITE,
    ellipsize,
    encode_png,
    fit_font,
    font,
    mix,
)
from engine.text import count

HEX = 30  # hex size (centre to corner) in pixels
M = 18
TITLE_H = 54
SQ3 = math.sqrt(3)
WAIT = (236, 170, 20)
ACTIVE = (255, 214, 0)
CHANNEL = (128, 60, 190)
TRAIL = {"move": (30, 30, 30), "retreat": (220, 110, 20), "attack": (200, 30, 30), "bolt": CHANNEL}
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
KIND_MARK = {"double": "x2", "triple": "x3", "quad": "x4"}


def rgb(text, default=(120, 120, 120)) -> tuple[int, int, int]:
    try:
        t = str(text).lstrip("#")
        return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)
    except (ValueError, IndexError, TypeError):
        return default


def _title(d: ImageDraw.ImageDraw, width: int, text: str) -> None:
    d.rectangle([0, 0, width, TITLE_H - 8], fill=(44, 40, 52))
    f = font(28, True)
    d.text((M, (TITLE_H - 8) / 2), ellipsize(text, f, width - 2 * M), font=f, fill=WHITE, anchor="lm")


def _die(d: ImageDraw.ImageDraw, x: float, y: float, size: float, value: int, fill, *, edge=INK, pip=INK) -> None:
    d.rounded_rectangle([x, y, x + size, y + size], radius=size * 0.18, fill=fill, outline=edge, width=3)
    cx, cy, step, r = x + size / 2, y + size / 2, size * 0.26, max(3, size * 0.085)
    for px, py in PIPS.get(int(value), []):
        d.ellipse([cx + px * step - r, cy + py * step - r, cx + px * step + r, cy + py * step + r], fill=pip)


def _ability_die(d: ImageDraw.ImageDraw, x: float, y: float, die: dict, colour) -> float:
    """One ability die: its value's pips, "n: kind value" under it; channelled ones ringed. Returns its width."""
    size = 50
    ch = bool(die.get("channelled"))
    f = font(15, True)
    label = (f"{die.get('n')}: " if die.get("n") else "") + f"{die.get('kind', '')} {die.get('value', '')}"
    lw = f.getlength(label)
    cell = max(size, lw)
    dx = x + (cell - size) / 2
    if ch:
        d.rounded_rectangle([dx - 5, y - 5, dx + size + 5, y + size + 5], radius=12, outline=CHANNEL, width=4)
    _die(d, dx, y, size, int(die.get("value") or 0), mix(colour, WHITE, 0.75))
    d.text((x + cell / 2, y + size + 8), label, font=f, fill=INK, anchor="ma")
    if ch:
        d.text((x + cell / 2, y + size + 26), "channelled", font=font(13, True), fill=CHANNEL, anchor="ma")
    return cell + 18


def _centre(q: int, r: int, ox: float, oy: float) -> tuple[float, float]:
    return ox + HEX * SQ3 * (q + r / 2), oy + HEX * 1.5 * r


def _corners(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    return [(cx + s * math.cos(math.radians(60 * i + 30)), cy + s * math.sin(math.radians(60 * i + 30)))
            for i in range(6)]


def _arrow(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], colour, dashed: bool = False) -> None:
    if len(pts) < 2:
        return
    for a, b in zip(pts, pts[1:]):
        if dashed:
            n = 6
            for i in range(0, n, 2):
                t0, t1 = i / n, (i + 1) / n
                d.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                        (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=colour, width=5)
        else:
            d.line([a, b], fill=colour, width=5)
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    tip = (x1 - math.cos(ang) * 20, y1 - math.sin(ang) * 20)
    left = (tip[0] - math.cos(ang - 0.5) * 16, tip[1] - math.sin(ang - 0.5) * 16)
    right = (tip[0] - math.cos(ang + 0.5) * 16, tip[1] - math.sin(ang + 0.5) * 16)
    d.polygon([tip, left, right], fill=colour)


def render_map(view: dict) -> bytes:
    width_h, height_h = int(view.get("width") or 14), int(view.get("height") or 10)
    palette = [rgb(c) for c in view.get("palette") or ["#2f7fbf", "#c0482a", "#3c9d5d", "#8e5cb8"]]
    field_w = HEX * SQ3 * (width_h + 0.5)
    field_h = HEX * (1.5 * (height_h - 1) + 2)
    width = int(field_w + 2 * M)
    bands = [b for b in view.get("warbands") or [] if isinstance(b, dict)]
    band_h = 132
    height = int(TITLE_H + field_h + 36 + band_h * max(1, len(bands)) + 8)
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    _title(d, width, str(view.get("title") or "Skirmish"))
    ox = M + HEX * SQ3 / 2
    oy = TITLE_H + HEX
    # the hexes, deployment zones tinted with their warband's colour
    # the labels players type into /skirmish move: as big as a hex allows, in the narrow bold face
    fcoord = font(17, "condensed")
    for h in view.get("hexes") or []:
        q, r = int(h["q"]), int(h["r"])
        cx, cy = _centre(q, r, ox, oy)
        zone = h.get("zone")
        fill = mix(palette[zone % len(palette)], PANEL, 0.8) if zone is not None else PANEL
        d.polygon(_corners(cx, cy, HEX - 1), fill=fill, outline=(175, 165, 150))
        label = f"{q},{r}"
        f = fcoord if fcoord.getlength(label) <= HEX * SQ3 - 6 else font(14, "condensed")
        d.text((cx, cy + 1), label, font=f, fill=(78, 70, 62), anchor="mm")
    # moves, retreats, attacks and bolts under the fighters
    for t in view.get("trail") or []:
        if t.get("kind") in ("move", "retreat") and t.get("path"):
            pts = [_centre(int(p[0]), int(p[1]), ox, oy) for p in t["path"]]
            _arrow(d, pts, TRAIL[t["kind"]], dashed=t["kind"] == "retreat")
        elif t.get("kind") in ("attack", "bolt") and t.get("from") and t.get("to"):
            a = _centre(int(t["from"][0]), int(t["from"][1]), ox, oy)
            b = _centre(int(t["to"][0]), int(t["to"][1]), ox, oy)
            _arrow(d, [a, b], TRAIL[t["kind"]], dashed=t["kind"] == "bolt")
    # fighters
    fl = font(21, True)
    for f in view.get("fighters") or []:
        if f.get("out") or f.get("q") is None:
            continue
        cx, cy = _centre(int(f["q"]), int(f["r"]), ox, oy)
        colour = palette[int(f.get("side") or 0) % len(palette)]
        if f.get("activated"):
            colour = mix(colour, (200, 200, 200), 0.55)
        rad = HEX * 0.8
        if f.get("active"):
            d.ellipse([cx - rad - 6, cy - rad - 6, cx + rad + 6, cy + rad + 6], fill=ACTIVE)
        d.ellipse([cx - rad, cy - rad, cx + rad, cy + rad], fill=colour, outline=INK, width=2)
        d.text((cx, cy - 3), str(f.get("short") or "?"), font=fl, fill=WHITE, anchor="mm")
        wounds, dmg = int(f.get("wounds") or 1), int(f.get("damage") or 0)
        bw = rad * 1.7
        bx, by = cx - bw / 2, cy + rad * 0.45
        d.rectangle([bx, by, bx + bw, by + 7], fill=(60, 60, 60))
        d.rectangle([bx, by, bx + bw * max(0, wounds - dmg) / wounds, by + 7], fill=(60, 190, 80))
        if f.get("wizard"):
            s = 7
            d.polygon([(cx + rad - 2, cy - rad - s), (cx + rad + s - 2, cy - rad), (cx + rad - 2, cy - rad + s),
                       (cx + rad - s - 2, cy - rad)], fill=CHANNEL, outline=WHITE)
        if f.get("waiting"):
            d.ellipse([cx - rad - 2, cy - rad - 12, cx - rad + 20, cy - rad + 10], fill=WAIT, outline=INK)
            d.text((cx - rad + 9, cy - rad - 1), "W", font=font(14, True), fill=INK, anchor="mm")
    # who was attacked (a ring in the attack's colour) and fighters taken out of action, over them
    for t in view.get("trail") or []:
        kind = t.get("kind")
        if kind in ("attack", "bolt") and t.get("to"):
            cx, cy = _centre(int(t["to"][0]), int(t["to"][1]), ox, oy)
            rr = HEX * 0.8 + 5
            d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], outline=TRAIL[kind], width=5)
        elif kind == "down" and t.get("at"):
            cx, cy = _centre(int(t["at"][0]), int(t["at"][1]), ox, oy)
            s = HEX * 0.5
            d.line([(cx - s, cy - s), (cx + s, cy + s)], fill=(160, 20, 20), width=6)
            d.line([(cx - s, cy + s), (cx + s, cy - s)], fill=(160, 20, 20), width=6)
    d.text((M, TITLE_H + field_h + 14), "W waiting, gold ring activating, faded: activated, purple: Wizard or channelled, "
           "dashed: retreat", font=font(15), fill=INK_SOFT, anchor="lm")
    # the warbands: names, fighters' wounds, ability dice
    y = TITLE_H + field_h + 32
    for b in bands:
        colour = rgb(b.get("colour"))
        if b.get("turn"):
            d.rounded_rectangle([M - 8, y - 4, width - M + 8, y + band_h - 10], radius=10, outline=ACTIVE, width=4)
        d.rectangle([M, y + 4, M + 18, y + 22], fill=colour)
        head = f"{b.get('name', '')} ({b.get('player', '')})" + ("  - to act" if b.get("turn") else "")
        d.text((M + 26, y + 13), ellipsize(head, font(20, True), width - 2 * M - 30), font=font(20, True),
               fill=INK, anchor="lm")
        x = M + 14
        dice = [x for x in b.get("dice") or [] if isinstance(x, dict)]
        if not dice:
            d.text((M, y + 50), "no ability dice", font=font(16), fill=INK_SOFT, anchor="lm")
        for die in dice:
            if x > width - 80:
                break
            x += _ability_die(d, x + 5, y + 34, die, colour)
        y += band_h
    return encode_png(img)


def render_initiative(view: dict) -> bytes:
    rows = [r for r in view.get("rows") or [] if isinstance(r, dict)]
    size, gap = 58, 12
    width = max(560, int(M * 2 + 6 * (size + gap)))
    row_h = 36 + size + 52
    height = TITLE_H + row_h * max(1, len(rows)) + 40
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    _title(d, width, str(view.get("title") or "Initiative"))
    y = TITLE_H + 8
    group_colours = [(250, 200, 70), (120, 190, 240), (240, 140, 160), (150, 220, 140)]
    for row in rows:
        colour = rgb(row.get("colour"))
        d.rectangle([M, y + 6, M + 18, y + 24], fill=colour)
        n = int(row.get("singles") or 0)
        head = f"{row.get('player', '')}: {count(n, 'single')}"
        d.text((M + 26, y + 15), ellipsize(head, font(22, True), width - 2 * M - 30), font=font(22, True),
               fill=INK, anchor="lm")
        roll = [int(v) for v in row.get("roll") or []]
        matched = sorted({v for v in roll if roll.count(v) > 1})
        x = M
        for v in sorted(roll, key=lambda v: (roll.count(v) == 1, v)):
            fill = group_colours[matched.index(v) % 4] if v in matched else WHITE
            _die(d, x, y + 36, size, v, fill)
            x += size + gap
        text = ", ".join(f"{a['kind']} of {a['value']}" for a in row.get("dice") or [])
        text = f"Ability dice: {text}" if text else "No ability dice"
        d.text((M, y + 36 + size + 22), ellipsize(text, font(18), width - 2 * M), font=font(18),
               fill=INK_SOFT, anchor="lm")
        y += row_h
    first = str(view.get("first") or "")
    if first:
        d.text((M, y + 12), ellipsize(f"{first} activates first.", font(20, True), width - 2 * M),
               font=font(20, True), fill=INK, anchor="lm")
    return encode_png(img)


def render_skirmish(view: dict) -> bytes:
    view = view or {}
    if view.get("mode") == "initiative":
        return render_initiative(view)
    return render_map(view)


__all__ = ["fit_font", "render_skirmish"]
