"""A strip of rolled dice: ``render_roll(view) -> PNG bytes``.

Each die is a rounded square in its constellation's colour with a white face showing the rolled
results as a vector icon plus value, its short label on top, level pips below and its name under it.
Dice whose result was not resolved are dimmed. A key under the dice names every face shown.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import (
    rounded,
    BG, INK, INK_SOFT, WHITE, constellation_colour, draw_icon, draw_text, encode_png, fit_font, font, icon_codes, min_text, mix,
    pips, printable_view, text_on, wrap,
)

M = 20
CELL_W = 172
DIE = 140
PER_ROW = 4             # at most this many dice side by side, so a phone shows them large enough
MIN_W = 640
HEADER_H = 62
NAME_H = 50


def _int_or_none(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _face(d: ImageDraw.ImageDraw, results: list[dict], x0: float, y0: float, w: float, h: float,
          codes: dict | None = None, least: int = 16) -> None:
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
            fval = font(max(least, int(isz * 0.85)), True)
            vtxt = "" if val is None else str(val)
            vw = fval.getlength(vtxt) if vtxt else 0
            gap = 6 if vtxt else 0
            total = isz + gap + vw
            ix = cx - total / 2 + isz / 2
            draw_icon(d, icon, ix, cy, isz, INK, bg=WHITE, letters=(codes or {}).get(icon), least=least)
            if vtxt:
                draw_text(d, (ix + isz / 2 + gap, cy), vtxt, fval, INK, "lm")


FACE_MEANINGS = {
    "damage": "damage",
    "prevent": "prevent damage",
    "heal": "heal",
    "tenacity": "tenacity",
    "status": "status effect",
    "move": "move",
    "blank": "blank: nothing",
}
KEY_FONT = 22


def face_key(dice: list[dict], meanings: dict | None = None) -> list[tuple[str, str]]:
    """(icon, meaning) for every kind of face shown on these dice, in a fixed order.

    ``meanings`` (the roll view's optional ``key``: {icon: words}) overrides the built-in words."""
    seen: list[str] = []
    for die in dice:
        results = [r for r in (die.get("results") or []) if isinstance(r, dict)] or [{"icon": "blank"}]
        for r in results:
            icon = str(r.get("icon") or "blank").lower()
            if icon not in seen:
                seen.append(icon)
    order = {k: i for i, k in enumerate(FACE_MEANINGS)}
    seen.sort(key=lambda k: (order.get(k, len(order)), k))
    meanings = meanings if isinstance(meanings, dict) else {}
    return [(k, str(meanings.get(k) or FACE_MEANINGS.get(k) or k.replace("-", " ").replace("_", " ")))
            for k in seen]


def _key_layout(entries: list[tuple[str, str]], width: float) -> tuple[list[tuple[float, float, str, list]], float]:
    """Key entries side by side; one whose words are too long for a line gets lines of its own."""
    f = font(KEY_FONT)
    x, y = 0.0, 0.0
    row = KEY_FONT + 14
    placed = []
    text_w = width - KEY_FONT * 1.3 - 8
    for icon, meaning in entries:
        w = KEY_FONT * 1.3 + 8 + f.getlength(meaning) + 26
        if w > width:
            if x:
                x, y = 0.0, y + row
            lines = wrap(meaning, f, text_w, max_lines=4)
            placed.append((0.0, y, icon, lines))
            y += row + (len(lines) - 1) * (KEY_FONT + 4)
            continue
        if x and x + w > width:
            x, y = 0.0, y + row
        placed.append((x, y, icon, [meaning]))
        x += w
    if x:
        y += row
    return placed, y


def _title_lines(title: str, width: float, least: int = 24):
    least = max(24, least)
    f = fit_font(title, width, max(30, least), True, min_size=least)
    if f.getlength(title) <= width:
        return [title], f
    f = font(least, True)
    return wrap(title, f, width, max_lines=3), f


def _palette():
    from render.common import CONSTELLATION_COLOURS, specimen_palette
    from render.samples import example_roll_view

    exact = [BG, INK, INK_SOFT, WHITE, (44, 40, 52), (90, 86, 80), (200, 190, 172)]
    for col in CONSTELLATION_COLOURS.values():
        exact += [col, mix(col, (0, 0, 0), 0.45), text_on(col)]
    return specimen_palette("roll", lambda: [draw_roll(example_roll_view())[0]], exact)


def render_roll(view: dict) -> bytes:
    """Draw a strip of rolled dice faces from its view model; returns PNG bytes.

    Under the dice a key says what each face shown means; the title wraps rather than being cut.
    """
    img, pal = draw_roll(view)
    return encode_png(img, palette_image=pal if pal is not None else _palette())


def draw_roll(view: dict):
    """The finished roll picture (and None: ``render_roll`` maps it onto the rolls' shared palette)."""
    view = printable_view(view or {})
    dice = [x for x in (view.get("dice") or []) if isinstance(x, dict)]
    n = max(1, len(dice))
    nrows = (n + PER_ROW - 1) // PER_ROW
    per_row = (n + nrows - 1) // nrows            # balanced rows: 6 dice are two rows of 3
    width = max(MIN_W, per_row * CELL_W + 2 * M)
    u = min_text(width)
    row_h = DIE + NAME_H + 24
    title = str(view.get("title") or "Roll")
    tlines, tfont = _title_lines(title, width - 2 * M, u + 6)
    line_h = tfont.size + 6
    header_h = max(HEADER_H, int(len(tlines) * line_h + 22))
    entries = face_key(dice, view.get("key"))
    codes = icon_codes(icon for icon, _ in entries)
    if any(_int_or_none(x.get("level")) for x in dice):
        entries.append(("level", "dots: die level"))
    key, key_h = _key_layout(entries, width - 2 * M - 70) if dice else ([], 0)
    height = header_h + nrows * row_h + 8 + (int(key_h) + 22 if key else 0)
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)

    d.rectangle([0, 0, width, header_h - 8], fill=(44, 40, 52))
    ty = (header_h - 8) / 2 - (len(tlines) - 1) * line_h / 2
    for line in tlines:
        draw_text(d, (M, ty), line, tfont, WHITE, "lm")
        ty += line_h
    if not dice:
        draw_text(d, (width / 2, header_h + row_h / 2), "no dice rolled", font(24), INK_SOFT, "mm")
        return img, None

    for i, die in enumerate(dice):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(dice) - row * per_row)
        row_x0 = (width - in_row * CELL_W) / 2
        cx = row_x0 + col * CELL_W + CELL_W / 2
        y0 = header_h + 10 + row * row_h
        x0 = cx - DIE / 2
        colr = constellation_colour(die.get("constellation"))
        edge = mix(colr, (0, 0, 0), 0.45)
        rounded(d, [x0, y0, x0 + DIE, y0 + DIE], radius=20, fill=colr, outline=edge, width=4)
        fg = text_on(colr)
        short = str(die.get("short") or str(die.get("label") or "?")[:3].upper())
        draw_text(d, (cx, y0 + 17), short, fit_font(short, DIE - 30, max(20, u), True, u), fg, "mm")
        lvl = _int_or_none(die.get("level"))
        if lvl:
            pips(d, cx, y0 + DIE - 12, lvl, 4, fg, gap=12)
        fx0, fy0, fx1, fy1 = x0 + 10, y0 + 32, x0 + DIE - 10, y0 + DIE - 24
        rounded(d, [fx0, fy0, fx1, fy1], radius=12, fill=WHITE)
        _face(d, list(die.get("results") or []), fx0 + 4, fy0 + 2, fx1 - fx0 - 8, fy1 - fy0 - 4, codes, u)
        # name under the die
        fname = font(max(18, u), True)
        ny = y0 + DIE + 6
        for line in wrap(str(die.get("label") or ""), fname, CELL_W - 10, max_lines=2):
            draw_text(d, (cx, ny), line, fname, INK, "ma")
            ny += 22
        if die.get("resolved") is False:
            box = (int(cx - CELL_W / 2 + 2), int(y0 - 4), int(cx + CELL_W / 2 - 2), int(y0 + DIE + NAME_H + 4))
            img.paste(BG, box, Image.new("L", (box[2] - box[0], box[3] - box[1]), 150))
            ft = font(max(16, u), True)
            tw = ft.getlength("UNRESOLVED") + 14
            ty = y0 + DIE - 8
            rounded(d, [cx - tw / 2, ty - 13, cx + tw / 2, ty + 13], radius=8, fill=(90, 86, 80))
            draw_text(d, (cx, ty), "UNRESOLVED", ft, WHITE, "mm")
    # the key: what each face means
    ky = header_h + nrows * row_h + 4
    d.line([(M, ky), (width - M, ky)], fill=(200, 190, 172), width=2)
    ky += 12
    draw_text(d, (M, ky + KEY_FONT / 2 + 2), "KEY", font(max(20, u), True), INK_SOFT, "lm")
    f = font(KEY_FONT)
    for x, y, icon, lines in key:
        kx, kyy = M + 70 + x, ky + y
        isz = KEY_FONT * 1.3
        if icon == "level":
            pips(d, kx + isz / 2, kyy + isz / 2, 2, 4, INK, gap=12)
        else:
            draw_icon(d, icon, kx + isz / 2, kyy + isz / 2, isz, INK, bg=BG, letters=codes.get(icon), least=u)
        ly = kyy + isz / 2
        for line in lines:
            draw_text(d, (kx + isz + 8, ly), line, f, INK, "lm")
            ly += KEY_FONT + 4
    return img, None
