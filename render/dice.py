"""A strip of rolled dice: ``render_roll(view) -> PNG bytes``.

Each die is a rounded square in its constellation's colour with a white face showing the rolled
result(s) as a vector icon plus value, its short label on top, level pips below and its name under it.
Dice whose result was not resolved are dimmed.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import (
    BG, INK, INK_SOFT, WHITE, constellation_colour, draw_icon, ellipsize, encode_png, fit_font, font, mix,
    pips, text_on, wrap,
)

M = 20
CELL_W = 172
DIE = 140
PER_ROW = 6
HEADER_H = 62
NAME_H = 50


def _int_or_none(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _face(d: ImageDraw.ImageDraw, results: list[dict], x0: float, y0: float, w: float, h: float) -> None:
    """Icons and values inside the white face box."""
    results = [r for r in results if isinstance(r, dict)] or [{"icon": "blank", "value": None}]
    n = len(results)
    if n == 1:
        rows = [results]
    elif n == 2:
        rows = [[results[0]], [results[1]]]
    else:
        half = (n + 1) // 2
        rows = [results[:half], results[half:]]
    rh = h / len(rows)
    for ri, row in enumerate(rows):
        cy = y0 + rh * (ri + 0.5)
        cw = w / len(row)
        for ci, res in enumerate(row):
            cx = x0 + cw * (ci + 0.5)
            icon = str(res.get("icon") or "blank")
            val = res.get("value")
            isz = min(rh * 0.8, cw * 0.5, 58)
            fval = font(max(16, int(isz * 0.85)), True)
            vtxt = "" if val is None else str(val)
            vw = fval.getlength(vtxt) if vtxt else 0
            gap = 6 if vtxt else 0
            total = isz + gap + vw
            ix = cx - total / 2 + isz / 2
            draw_icon(d, icon, ix, cy, isz, INK, bg=WHITE)
            if vtxt:
                d.text((ix + isz / 2 + gap, cy), vtxt, font=fval, fill=INK, anchor="lm")


def render_roll(view: dict) -> bytes:
    """Draw a strip of rolled dice faces from its view model; returns PNG bytes."""
    view = view or {}
    dice = [x for x in (view.get("dice") or []) if isinstance(x, dict)]
    n = max(1, len(dice))
    per_row = min(PER_ROW, n)
    nrows = (len(dice) + PER_ROW - 1) // PER_ROW if dice else 1
    width = max(640, per_row * CELL_W + 2 * M)
    row_h = DIE + NAME_H + 24
    height = HEADER_H + nrows * row_h + 8
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)

    d.rectangle([0, 0, width, HEADER_H - 8], fill=(44, 40, 52))
    title = str(view.get("title") or "Roll")
    d.text((M, (HEADER_H - 8) / 2), ellipsize(title, font(30, True), width - 2 * M), font=font(30, True),
           fill=WHITE, anchor="lm")
    if not dice:
        d.text((width / 2, HEADER_H + row_h / 2), "no dice rolled", font=font(24), fill=INK_SOFT, anchor="mm")
        return encode_png(img)

    for i, die in enumerate(dice):
        row, col = divmod(i, PER_ROW)
        in_row = min(PER_ROW, len(dice) - row * PER_ROW)
        row_x0 = (width - in_row * CELL_W) / 2
        cx = row_x0 + col * CELL_W + CELL_W / 2
        y0 = HEADER_H + 10 + row * row_h
        x0 = cx - DIE / 2
        colr = constellation_colour(die.get("constellation"))
        edge = mix(colr, (0, 0, 0), 0.45)
        d.rounded_rectangle([x0, y0, x0 + DIE, y0 + DIE], radius=20, fill=colr, outline=edge, width=4)
        fg = text_on(colr)
        short = str(die.get("short") or str(die.get("label") or "?")[:3].upper())
        d.text((cx, y0 + 17), short, font=fit_font(short, DIE - 30, 20, True), fill=fg, anchor="mm")
        lvl = _int_or_none(die.get("level"))
        if lvl:
            pips(d, cx, y0 + DIE - 12, lvl, 4, fg, gap=12)
        fx0, fy0, fx1, fy1 = x0 + 10, y0 + 32, x0 + DIE - 10, y0 + DIE - 24
        d.rounded_rectangle([fx0, fy0, fx1, fy1], radius=12, fill=WHITE)
        _face(d, list(die.get("results") or []), fx0 + 4, fy0 + 2, fx1 - fx0 - 8, fy1 - fy0 - 4)
        # name under the die
        fname = font(18, True)
        ny = y0 + DIE + 6
        for line in wrap(str(die.get("label") or ""), fname, CELL_W - 10, max_lines=2):
            d.text((cx, ny), line, font=fname, fill=INK, anchor="ma")
            ny += 22
        if die.get("resolved") is False:
            box = (int(cx - CELL_W / 2 + 2), int(y0 - 4), int(cx + CELL_W / 2 - 2), int(y0 + DIE + NAME_H + 4))
            img.paste(BG, box, Image.new("L", (box[2] - box[0], box[3] - box[1]), 150))
            ft = font(15, True)
            tw = ft.getlength("UNRESOLVED") + 14
            ty = y0 + DIE - 8
            d.rounded_rectangle([cx - tw / 2, ty - 13, cx + tw / 2, ty + 13], radius=8, fill=(90, 86, 80))
            d.text((cx, ty), "UNRESOLVED", font=ft, fill=WHITE, anchor="mm")
    return encode_png(img)
