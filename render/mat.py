"""The adventurer's mat and sheet: ``render_mat(view)`` and ``render_sheet(view)`` -> PNG bytes.

Drawn for a phone (Discord shows a picture about 400 px wide): every text is at least ``min_text(W)``
pixels, so the mat is two pictures, one per concern.

* The **mat** is the board a battle changes: the header with HP, the stat chips, the battle form and the
  race ability's state, the five attribute rows (each with its slots' names above it), the cooldown
  track, the active slots, tenacity, saved XP and drained dice.
* The **sheet** is what the adventurer can do: the race ability, the class with its innate and
  abilities, the ready items and the pack, their texts in full.

Both are built from sections (a panel each).  A section is drawn once per distinct content and kept in
a small LRU cache (the mat's static layer: a turn that changes the HP and the cooldown track redraws
those two panels and pastes the others); every picture is mapped onto one palette computed once.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any, Callable

from PIL import Image, ImageDraw

from render.common import (
    rounded,
    BG, GOLD, INK, INK_FAINT, INK_SOFT, LINE, PANEL, PANEL_DARK, STAT_COLOURS, STATUS_COLOURS, WHITE,
    build_palette, colour_counts, constellation_colour, draw_icon, draw_text, ellipsize, encode_png, fit_font, font,
    min_text, mix, pips, printable_view, status_colour, text_on, text_width, triangle, wrap,
)
from engine.text import count

W = 900
U = min_text(W)             # 23: the smallest type on the mat and the sheet
M = 14                      # outer margin
CW = W - 2 * M              # content width
PAD = 14                    # inner panel padding
GAP = 12                    # between panels
ROW = 1.3                   # line height / font size
TITLE = U + 1               # panel titles
BODY = U + 1                # running text
HEADER_BG = (44, 40, 52)

# the header's tag for an adventurer's place in the battle (optional view key "battle_status")
BATTLE_TAGS = {"in battle": ("IN BATTLE", (200, 60, 40)), "escaped": ("ESCAPED", (40, 130, 60)),
               "defeated": ("DEFEATED", (110, 30, 30)), "retreated": ("RETREATED", (110, 110, 110))}
WHERE_TAGS = {"cooldown": "COOL", "active": "ACTIVE", "drained": "DRAIN"}
FORM_TAGS = {"light": "Light", "heavy": "Heavy", "defensive": "Defensive", "ranged": "Ranged", "magic": "Magic"}
ACTIVE_COLOUR = (52, 110, 120)
KEYWORD_COLOUR = (150, 80, 30)
FATIGUE = (150, 120, 90)
OVERFATIGUE = (60, 30, 30)
DRAINED = (120, 90, 150)


def _initials(label: str) -> str:
    words = [w for w in str(label or "").replace("-", " ").split() if w]
    if len(words) >= 2:
        return "".join(w[0] for w in words[:3]).upper()
    return (words[0][:3] if words else "?").upper()


def _int(v, default: int = 0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


# ------------------------------------------------------------------------------------ the caches --
_CACHE_PIXELS = 12_000_000   # the panels kept: about 36 MB of pictures (a few dozen adventurers' mats)
_sections: "OrderedDict[str, Image.Image]" = OrderedDict()
_lock = threading.Lock()
_stats = {"hits": 0, "misses": 0, "pixels": 0}
_palette: dict = {}


def cache_info() -> dict[str, int]:
    with _lock:
        return {"hits": _stats["hits"], "misses": _stats["misses"], "size": len(_sections),
                "pixels": _stats["pixels"]}


def clear_cache(palette: bool = True) -> None:
    """Forget the drawn panels (and the palette, unless ``palette=False``)."""
    with _lock:
        _sections.clear()
        if palette:
            _palette.clear()
        _stats["hits"] = _stats["misses"] = _stats["pixels"] = 0


def _section(name: str, data: Any, draw: Callable[[Any], Image.Image]) -> Image.Image:
    """The panel ``name`` drawn from ``data``: from the cache when this content was drawn before."""
    key = name + ":" + hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()
    with _lock:
        hit = _sections.get(key)
        if hit is not None:
            _sections.move_to_end(key)
            _stats["hits"] += 1
            return hit
        _stats["misses"] += 1
    img = draw(data)
    with _lock:
        if key not in _sections:
            _sections[key] = img
            _stats["pixels"] += img.width * img.height
        while _stats["pixels"] > _CACHE_PIXELS and len(_sections) > 1:
            _k, old = _sections.popitem(last=False)
            _stats["pixels"] -= old.width * old.height
    return img


def _exact_colours() -> list[tuple[int, int, int]]:
    cols = [BG, PANEL, PANEL_DARK, INK, INK_SOFT, INK_FAINT, LINE, WHITE, GOLD, HEADER_BG, (220, 214, 228),
            (200, 190, 172), (226, 218, 202), ACTIVE_COLOUR, mix(ACTIVE_COLOUR, WHITE, 0.85), KEYWORD_COLOUR,
            FATIGUE, (90, 70, 50), OVERFATIGUE, (180, 40, 40), (255, 180, 180), DRAINED, (230, 226, 236),
            (70, 40, 100), (250, 240, 220), (120, 100, 70), (225, 225, 225), (150, 150, 150), (90, 160, 90),
            (150, 60, 50), (110, 110, 110), (120, 120, 120)]
    for col in list(STAT_COLOURS.values()) + [constellation_colour(c) for c in ("mage", "thief", "warrior", None)]:
        cols += [col, mix(col, (0, 0, 0), 0.45), mix(col, (0, 0, 0), 0.4), mix(col, (0, 0, 0), 0.3),
                 mix(col, WHITE, 0.82), mix(col, WHITE, 0.5)]
    for col in list(STATUS_COLOURS.values()) + [status_colour("")]:
        cols += [col, mix(col, (0, 0, 0), 0.45)]
    cols += [c for _t, c in BATTLE_TAGS.values()]
    return list(dict.fromkeys(cols))


def _the_palette() -> Image.Image:
    """One palette for every mat and sheet: the exact colours, plus the blends of a specimen of each."""
    with _lock:
        hit = _palette.get("p")
    if hit is not None:
        return hit
    from render.samples import battle_mat_view

    counts: dict = {}
    spec = battle_mat_view()
    spec["battle_status"] = "in battle"
    for img in (_draw_mat(spec), _draw_sheet(spec)):
        for c, n in (colour_counts(img) or {}).items():
            counts[c] = counts.get(c, 0) + n
    pal = build_palette(exact=_exact_colours(), counts=counts)
    with _lock:
        _palette["p"] = pal
    return pal


# ----------------------------------------------------------------------------------- drawing kit --
class _Panel:
    """A section being drawn: a rounded panel the picture's width, as tall as what is drawn in it; or one part
    of a panel drawn in several sections ("top", "middle", "bottom"), whose frame the parts continue."""

    def __init__(self, height: int, title: str = "", note: str = "", part: str = "whole"):
        self.img = Image.new("RGB", (W, height), PANEL)
        self.d = ImageDraw.Draw(self.img)
        self.title, self.note, self.part = title, note, part
        top = part in ("whole", "top")
        self.y = (PAD if top else 0) + (int(TITLE * 1.5) if title else 0)

    def finish(self, bottom: float) -> Image.Image:
        """The panel cut to what was drawn: its frame, the title and its note."""
        closes = self.part in ("whole", "bottom")
        h = int(bottom + (PAD if closes else 0))
        size = (W, h + (GAP if closes else 0))
        # the frame, as a rounded box reaching past the part's open edges
        y0 = 0 if self.part in ("whole", "top") else -40
        y1 = h if closes else h + 40
        img = Image.new("RGB", size, BG)
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).rounded_rectangle([M, y0, W - M, y1], radius=12, fill=255)
        img.paste(self.img.crop((0, 0) + size), (0, 0), mask)
        d = ImageDraw.Draw(img)
        d.rounded_rectangle([M, y0, W - M, y1], radius=12, outline=LINE, width=2)
        if self.title:
            ft = font(TITLE, True)
            draw_text(d, (M + PAD, PAD - 2), self.title, ft, INK_SOFT, "la")
            if self.note:
                fn = font(U)
                room = W - 2 * M - 3 * PAD - text_width(self.title, ft)
                draw_text(d, (M + PAD + text_width(self.title, ft) + 12, PAD), ellipsize(self.note, fn, room), fn,
                          INK_FAINT, "la")
        return img


def _panel(height: int, title: str = "", note: str = "", part: str = "whole") -> _Panel:
    return _Panel(height, title, note, part)


def _tag(d, x, y, text, fill, size=U, fg=None) -> float:
    """A pill label whose top-left is (x, y); returns its right edge."""
    f = font(size, True)
    w = text_width(text, f) + size * 0.7
    h = size * 1.3
    rounded(d, [x, y, x + w, y + h], radius=h / 2, fill=fill)
    draw_text(d, (x + w / 2, y + h / 2 + 0.5), text, f, fg or text_on(fill), "mm")
    return x + w


def _lines(d, x, y, text, width, size=BODY, bold=False, fill=INK, max_lines=None) -> float:
    """Wrapped text from (x, y); returns the y under it."""
    f = font(size, bold)
    for line in wrap(text, f, width, max_lines):
        draw_text(d, (x, y), line, f, fill, "la")
        y += size * ROW
    return y


def _die_face(d, die: dict, x0, y0, size, tag=True) -> None:
    """A skill die in a square: solid in its row, hollow with where it went (COOL, ACTIVE, DRAIN) when not."""
    col = constellation_colour(die.get("constellation"))
    where = die.get("where") or "row"
    short = str(die.get("short") or _initials(die.get("label") or ""))
    level = _int(die.get("level"), 1)
    box = (x0 + 3, y0 + 3, x0 + size - 3, y0 + size - 3)
    cx = x0 + size / 2
    big = max(U, int(size * 0.34))
    if where in ("row", "skill"):
        rounded(d, box, radius=12, fill=col, outline=mix(col, (0, 0, 0), 0.45), width=3)
        fg = text_on(col)
        draw_text(d, (cx, y0 + size * 0.4), short, fit_font(short, size - 14, big, True, U), fg, "mm")
        pips(d, cx, y0 + size * 0.76, level, size / 20, fg)
        return
    light, dark = mix(col, WHITE, 0.82), mix(col, (0, 0, 0), 0.3)
    rounded(d, box, radius=12, fill=light, outline=dark, width=3)
    draw_text(d, (cx, y0 + size * 0.3), short, fit_font(short, size - 14, big, True, U), dark, "mm")
    pips(d, cx, y0 + size * 0.53, level, size / 24, dark)
    if tag:
        t = WHERE_TAGS.get(where, str(where).upper()[:6])
        ft = font(U, "condensed")
        tw = min(size - 8, text_width(t, ft) + 10)
        rounded(d, [cx - tw / 2, y0 + size - 8 - U * 1.15, cx + tw / 2, y0 + size - 8], radius=6,
                            fill=HEADER_BG)
        draw_text(d, (cx, y0 + size - 8 - U * 0.575), t, ft, WHITE, "mm")


# -------------------------------------------------------------------------------------- the mat --
def _header(data: dict) -> Image.Image:
    name, sub, hp, mx, bonus, status = (data[k] for k in ("name", "sub", "hp", "max_hp", "bonus", "status"))
    hp_txt = f"{hp}/{mx}"
    fbig = font(44, True)
    bw = text_width(hp_txt, fbig) + 80
    fb = font(30, True)
    bbw = (max(text_width(f"+{bonus}", fb), text_width("bonus", font(U, True))) + 20) if bonus else 0
    room = W - M - bw - (bbw + 8 if bonus else 0) - M - 16
    # the name shrinks to fit beside the HP block, else takes two lines: never cut
    fname = fit_font(name, room, 42, True, min_size=U + 4)
    lines = [name] if text_width(name, fname) <= room else wrap(name, fname, room, max_lines=2)
    h = 108 + (len(lines) - 1) * int(fname.size * 1.15)
    img = Image.new("RGB", (W, h + GAP), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, h], fill=HEADER_BG)
    x1 = W - M
    if bonus:
        rounded(d, [x1 - bbw, 8, x1, 98], radius=12, fill=GOLD)
        draw_text(d, (x1 - bbw / 2, 36), f"+{bonus}", fb, INK, "mm")
        draw_text(d, (x1 - bbw / 2, 78), "bonus", font(U, True), INK, "mm")
        x1 -= bbw + 8
    bx0 = x1 - bw
    rounded(d, [bx0, 8, bx0 + bw, 98], radius=14, fill=STAT_COLOURS["health"])
    draw_text(d, (bx0 + 14, 53), "HP", font(U + 5, True), WHITE, "lm")
    draw_text(d, (bx0 + bw - 14, 53), hp_txt, fbig, WHITE, "rm")
    y = 34
    for line in lines:
        draw_text(d, (M, y), line, fname, WHITE, "lm")
        y += fname.size * 1.15
    player = data.get("player") or ""
    fp = font(U + 1)
    px = M + text_width(lines[-1], fname) + 14
    if player and px + text_width(f"· {player}", fp) <= bx0 - 16:
        draw_text(d, (px, y - fname.size * 1.15 + 4), f"· {player}", fp, (220, 214, 228), "lm")
    y2 = h - 26
    x2 = M
    if status:
        label, colour = BATTLE_TAGS.get(status, (status.upper(), (110, 110, 110)))
        x2 = _tag(d, M, y2 - U * 0.65, label, colour, U) + 10
    f2 = font(U + 1)
    draw_text(d, (x2, y2), ellipsize(sub, f2, (bx0 if len(lines) == 1 else W - M) - x2 - 16), f2, (220, 214, 228),
              "lm")
    return img


def _stat_chips(stats: dict) -> Image.Image:
    items = [("health", "Health", STAT_COLOURS["health"]), ("stamina", "Stamina", STAT_COLOURS["stamina"]),
             ("magicka", "Magicka", STAT_COLOURS["magicka"]), ("cooldown", "Cooldown", STAT_COLOURS["cooldown"]),
             ("combat", "Combat", constellation_colour(None))]
    h = 54
    img = Image.new("RGB", (W, h + GAP), BG)
    d = ImageDraw.Draw(img)
    gap = 8
    cw = (CW - gap * 4) / 5
    for i, (key, label, col) in enumerate(items):
        x0 = M + i * (cw + gap)
        rounded(d, [x0, 0, x0 + cw, h], radius=10, fill=col)
        val = str(stats.get(key, "–"))
        fv = font(30, True)
        vw = text_width(val, fv)
        draw_text(d, (x0 + 10, h / 2), label, fit_font(label, cw - vw - 26, U + 1, "condensed", U), WHITE, "lm")
        draw_text(d, (x0 + cw - 10, h / 2), val, fv, WHITE, "rm")
    return img


def _form_and_race(data: dict) -> Image.Image:
    """The battle form (the current one highlighted) and the race ability's name, ready or used."""
    p = _panel(400)
    d = p.d
    y = PAD
    ft = font(TITLE, True)
    draw_text(d, (M + PAD, y + U * 0.65), "FORM", ft, INK_SOFT, "lm")
    x = M + PAD + text_width("FORM", ft) + 14
    f = font(U, True)
    for key, label in data["forms"]:
        label = FORM_TAGS.get(key, label)
        on = key == data["form"]
        w = text_width(str(label), f) + U * 0.9
        if x + w > W - M - PAD:
            x, y = M + PAD + text_width("FORM", ft) + 14, y + U * 1.6
        if on:
            rounded(d, [x, y, x + w, y + U * 1.35], radius=U * 0.6, fill=HEADER_BG)
        else:
            rounded(d, [x, y, x + w, y + U * 1.35], radius=U * 0.6, outline=(200, 190, 172), width=2)
        draw_text(d, (x + w / 2, y + U * 0.675), str(label), f, WHITE if on else INK_SOFT, "mm")
        x += w + 8
    y += U * 1.35 + 12
    race = data["race"]
    if race.get("ability_name"):
        draw_text(d, (M + PAD, y + U * 0.65), "RACE", ft, INK_SOFT, "lm")
        x = M + PAD + text_width("RACE", ft) + 14
        name = str(race.get("ability_name"))
        fn = font(U + 1, True)
        tag = ("USED THIS BATTLE", (150, 60, 50)) if race.get("used") else ("READY", (40, 130, 60))
        room = W - M - PAD - x - text_width(tag[0], font(U, True)) - U * 0.7 - 12
        draw_text(d, (x, y + U * 0.65), ellipsize(name, fn, room), fn, INK, "lm")
        _tag(d, x + min(room, text_width(name, fn)) + 12, y, tag[0], tag[1], U)
        y += U * 1.35
    return p.finish(y)


LABEL_H = U * 1.45
_ROW_GAP = 8
_CELL = (CW - 2 * PAD - 7 * _ROW_GAP) / 8
_COLS = [M + PAD + i * (_CELL + _ROW_GAP) for i in range(8)]


def _cost_boxes(d, costs: dict, yy: float) -> None:
    lc, rc = list(costs.get("left") or []), list(costs.get("right") or [])
    fc = font(U, True)
    bw = min(_CELL / 2 - 2, U * 1.5)
    for i in range(6):
        cx = _COLS[i + 1] + _CELL / 2
        if i < len(lc):
            d.rectangle([cx - bw - 1, yy, cx - 1, yy + U * 1.3], fill=WHITE, outline=INK, width=2)
            draw_text(d, (cx - bw / 2 - 1, yy + U * 0.65), str(lc[i]), fc, INK, "mm")
        if i < len(rc):
            d.rectangle([cx + 1, yy, cx + bw + 1, yy + U * 1.3], fill=INK, outline=INK, width=2)
            draw_text(d, (cx + bw / 2 + 1, yy + U * 0.65), str(rc[i]), fc, WHITE, "mm")


def _rows_top(costs: dict) -> Image.Image:
    """The attribute rows' panel opens: its title and the XP costs above the columns (when every row has the
    same)."""
    p = _panel(300, "ATTRIBUTE ROWS", "costs: white from the left, black from the right", part="top")
    y = p.y
    if costs:
        _cost_boxes(p.d, costs, y)
        y += U * 1.3 + 10
    return p.finish(y)


def _row(data: dict) -> Image.Image:
    """One attribute row: its slots' names above it; circle, six squares, circle."""
    idx, row, costs, last = data["index"], data["row"], data.get("costs"), data["last"]
    p = _panel(400, part="middle")
    d = p.d
    inner = CW - 2 * PAD
    x0 = M + PAD
    y = 0
    if costs:
        _cost_boxes(d, costs, y)
        y += U * 1.3 + 6
    # the slots' names above the row: left slot at the left, right slot at the right
    left, right = row.get("left") or {}, row.get("right") or {}
    fl = font(U, True)
    num = f"{idx + 1}"
    draw_text(d, (x0, y + LABEL_H / 2), num, fl, INK_FAINT, "lm")
    lx = x0 + text_width(num, fl) + 10
    ltxt, rtxt = _slot_words(left), _slot_words(right)
    rw = text_width(rtxt, fl) if rtxt else 0
    if ltxt:
        draw_text(d, (lx, y + LABEL_H / 2), ellipsize(ltxt, fl, inner - rw - 40), fl, INK, "lm")
    if rtxt:
        draw_text(d, (x0 + inner, y + LABEL_H / 2), rtxt, fl, INK, "rm")
    y += LABEL_H
    boxes = {}
    _circle(d, left, _COLS[0], y, _CELL)
    squares = list(row.get("squares") or [])[:6]
    squares += [None] * (6 - len(squares))
    for i, sq in enumerate(squares):
        _square(d, sq, row, _COLS[i + 1], y, _CELL)
        boxes[(idx, i)] = (_COLS[i + 1], y, _CELL)
    _circle(d, right, _COLS[7], y, _CELL)
    y += _CELL + 10
    if not last:
        d.line([(x0, y - 5), (x0 + inner, y - 5)], fill=(226, 218, 202), width=1)
    img = p.finish(y)
    img.info["squares"] = boxes  # (row, column) -> (x, y, size) of each square, in this section
    return img


def _rows_end(_data=None) -> Image.Image:
    p = _panel(200, part="bottom")
    y = _lines(p.d, M + PAD, 2, "Hollow die: not in its row (COOL on the cooldown track, ACTIVE in an active slot, "
                                "DRAIN drained).", CW - 2 * PAD, U, fill=INK_SOFT)
    return p.finish(y)


def _rows_parts(rows: list) -> list[tuple[str, Any, Callable]]:
    """The attribute rows as sections: the panel's top, one per row (a die moving redraws its row only),
    the panel's end."""
    first = (rows[0].get("costs") or {}) if rows else {}
    same = all((r.get("costs") or {}) == first for r in rows if r)
    parts = [("rows-top", first if same else {}, _rows_top)]
    for i, row in enumerate(rows):
        parts.append((f"row-{i}", {"index": i, "row": row, "last": i == len(rows) - 1,
                                   "costs": None if same else row.get("costs")}, _row))
    parts.append(("rows-end", None, _rows_end))
    return parts


def _slot_words(slot: dict) -> str:
    if not slot:
        return ""
    label = str(slot.get("label") or slot.get("id") or "")
    form = slot.get("form")
    if slot.get("kind") != "stat" and form:
        label += f" ({FORM_TAGS.get(form, str(form).title()).lower()} form)"
    return label


def _circle(d, slot, x0, y0, D) -> None:
    cx, cy = x0 + D / 2, y0 + D / 2
    if not slot:
        d.ellipse([x0 + 4, y0 + 4, x0 + D - 4, y0 + D - 4], outline=INK_FAINT, width=2)
        draw_text(d, (cx, cy), "open", font(U), INK_FAINT, "mm")
        return
    if slot.get("kind") == "stat":
        col = STAT_COLOURS.get(slot.get("id"), (90, 90, 90))
        val = slot.get("value", "")
        d.ellipse([x0, y0, x0 + D, y0 + D], fill=col, outline=INK, width=2)
        text = str(val if val not in (None, "") else str(slot.get("label") or "")[:1])
        draw_text(d, (cx, cy), text, font(int(D * 0.42), True), WHITE, "mm")
        return
    col = constellation_colour(slot.get("constellation"))
    d.ellipse([x0, y0, x0 + D, y0 + D], fill=col, outline=INK, width=2)
    d.ellipse([x0 + 7, y0 + 7, x0 + D - 7, y0 + D - 7], outline=mix(col, WHITE, 0.5), width=2)
    ini = "CB" if slot.get("id") == "combat" else _initials(slot.get("label") or "")
    draw_text(d, (cx, cy), ini, fit_font(ini, D - 24, int(D * 0.34), True, U), text_on(col), "mm")


def _square(d, sq, row, x0, y0, S) -> None:
    if not sq:
        rounded(d, [x0 + 3, y0 + 3, x0 + S - 3, y0 + S - 3], radius=8, fill=PANEL_DARK,
                            outline=(200, 190, 172), width=2)
        return
    if sq.get("kind") == "stat":
        stat = sq.get("stat")
        col = STAT_COLOURS.get(stat, (90, 90, 90))
        rounded(d, [x0 + 3, y0 + 3, x0 + S - 3, y0 + S - 3], radius=8, fill=col,
                            outline=mix(col, (0, 0, 0), 0.4), width=3)
        left, right = row.get("left") or {}, row.get("right") or {}
        towards_right = (right.get("kind") == "stat" and right.get("id") == stat
                         and not (left.get("kind") == "stat" and left.get("id") == stat))
        triangle(d, x0 + S / 2, y0 + S / 2, S * 0.38, "right" if towards_right else "left", WHITE)
        return
    _die_face(d, sq, x0, y0, S)


def _cooldown(cd: dict) -> Image.Image:
    size = max(1, _int(cd.get("size"), 13))
    stat = _int(cd.get("stat"), 0)
    dice = list(cd.get("dice") or [])
    note = f"cooldown stat {stat} · {min(len(dice), size)}/{size} filled"
    p = _panel(800, "COOLDOWN TRACK", note)
    d = p.d
    per = 7 if size > 7 else size
    gap = 8
    sw = (CW - 2 * PAD - gap * (per - 1)) / per
    sh = sw * 0.8
    y = p.y + 4
    fnum = font(U)
    for i in range(size):
        r, c = divmod(i, per)
        x0 = M + PAD + c * (sw + gap)
        y0 = y + r * (sh + gap + 4)
        n = i + 1
        entry = dice[i] if i < len(dice) else None
        if entry is None:
            outline = GOLD if n == stat else (200, 190, 172)
            rounded(d, [x0, y0, x0 + sw, y0 + sh], radius=8, fill=PANEL_DARK, outline=outline,
                                width=4 if n == stat else 2)
            draw_text(d, (x0 + sw / 2, y0 + sh / 2), str(n), fnum, INK_FAINT, "mm")
        else:
            _cooldown_entry(d, entry, x0, y0, sw, sh)
        if n == stat:  # the peg: the cooldown stat's position
            triangle(d, x0 + sw / 2, y0 - 2, 16, "down", GOLD)
    rows = (size + per - 1) // per
    y += rows * (sh + gap + 4)
    if len(dice) > size:
        y = _lines(d, M + PAD, y, f"+{len(dice) - size} more past the end of the track", CW, U, True, (180, 40, 40))
    return p.finish(y)


def _cooldown_entry(d, e, x0, y0, w, h) -> None:
    kind = e.get("kind")
    box = (x0, y0, x0 + w, y0 + h)
    cx, cy = x0 + w / 2, y0 + h / 2
    if kind in ("skill", "die"):
        col = constellation_colour(e.get("constellation"))
        rounded(d, box, radius=10, fill=col, outline=mix(col, (0, 0, 0), 0.45), width=3)
        short = str(e.get("short") or _initials(e.get("label") or ""))
        fg = text_on(col)
        draw_text(d, (cx, y0 + h * 0.4), short, fit_font(short, w - 14, int(h * 0.42), True, U), fg, "mm")
        pips(d, cx, y0 + h * 0.78, _int(e.get("level"), 1), h / 18, fg)
    elif kind == "fatigue":
        rounded(d, box, radius=10, fill=FATIGUE, outline=(90, 70, 50), width=3)
        draw_text(d, (cx, cy), "fatigue", fit_font("fatigue", w - 10, U + 2, True, U), WHITE, "mm")
    elif kind == "overfatigue":
        rounded(d, box, radius=10, fill=OVERFATIGUE, outline=(180, 40, 40), width=3)
        draw_text(d, (cx, cy - U * 0.6), "over-", font(U, True), WHITE, "mm")
        draw_text(d, (cx, cy + U * 0.6), "fatigue", fit_font("fatigue", w - 10, U, True, U), (255, 180, 180), "mm")
    else:
        st = str(e.get("status") or "?")
        col = status_colour(st)
        rounded(d, box, radius=10, fill=col, outline=mix(col, (0, 0, 0), 0.45), width=3)
        draw_text(d, (cx, cy), st, fit_font(st, w - 10, U + 2, True, U), WHITE, "mm")


def _active(data: dict) -> Image.Image:
    active = list(data["active"])
    p = _panel(900, "ACTIVE SLOTS", f"{min(len(active), 4)}/4 in use")
    d = p.d
    n = 4
    gap = 10
    bw = (CW - 2 * PAD - gap * (n - 1)) / n
    bh = 58 + 2 * U * ROW + U * 1.3 + 8
    y = p.y
    for i in range(n):
        x0 = M + PAD + i * (bw + gap)
        e = active[i] if i < len(active) else None
        if not e:
            rounded(d, [x0, y, x0 + bw, y + bh], radius=10, fill=PANEL_DARK, outline=(200, 190, 172),
                                width=2)
            draw_text(d, (x0 + bw / 2, y + bh / 2), "empty", font(U), INK_FAINT, "mm")
            continue
        col = ACTIVE_COLOUR
        light = mix(col, WHITE, 0.85)
        rounded(d, [x0, y, x0 + bw, y + bh], radius=10, fill=light, outline=col, width=3)
        icon, val = e.get("icon") or "", e.get("value")
        draw_icon(d, icon, x0 + 28, y + 28, 34, col, bg=light)
        if val is not None:
            draw_text(d, (x0 + 52, y + 28), str(val), font(34, True), INK, "lm")
        short = str(e.get("short") or _initials(e.get("label") or ""))
        fs = fit_font(short, 48, U + 2, True, U)
        sw = max(48, text_width(short, fs) + 12)
        rounded(d, [x0 + bw - sw - 8, y + 8, x0 + bw - 8, y + 48], radius=8, fill=col)
        draw_text(d, (x0 + bw - 8 - sw / 2, y + 28), short, fs, WHITE, "mm")
        yy = _lines(d, x0 + 10, y + 58, str(e.get("label") or ""), bw - 20, U, True, max_lines=2)
        owner = e.get("owner")
        if owner:
            draw_text(d, (x0 + 10, yy), ellipsize(f"from {owner}", font(U), bw - 20), font(U), INK_SOFT, "la")
    y += bh + 14
    y = _track(d, M + PAD, y, "TENACITY", data["tenacity"], data["tenacity_max"], GOLD)
    y = _track(d, M + PAD, y + 8, "SAVED XP", data["saved_xp"], data["saved_xp_max"], (90, 160, 90))
    y = _drained(d, M + PAD, y + 8, data["drained"])
    return p.finish(y)


def _track(d, x, y, title, value, maximum, col) -> float:
    ft = font(TITLE, True)
    r = U * 0.85
    cy = y + r
    draw_text(d, (x, cy), title, ft, INK_SOFT, "lm")
    x += max(text_width("TENACITY", ft), text_width("SAVED XP", ft)) + 18
    for n in range(0, max(0, maximum) + 1):
        cx = x + n * (2 * r + 12) + r
        if n == value:
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=INK, outline=col, width=4)
            draw_text(d, (cx, cy), str(n), font(U, True), WHITE, "mm")
        else:
            d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=INK_FAINT, width=2)
            draw_text(d, (cx, cy), str(n), font(U), INK_FAINT, "mm")
    if value > maximum:
        draw_text(d, (x + (maximum + 1) * (2 * r + 12) + 4, cy), f"({value})", font(U, True), INK, "lm")
    return y + 2 * r


def _drained(d, x0, y, drained: list) -> float:
    ft = font(TITLE, True)
    draw_text(d, (x0, y + U * 0.7), "DRAINED", ft, INK_SOFT, "lm")
    x = x0 + text_width("SAVED XP", ft) + 18
    if not drained:
        draw_text(d, (x, y + U * 0.7), "none", font(U), INK_FAINT, "lm")
        return y + U * 1.4
    f = font(U, True)
    xmax = W - M - PAD
    left = x
    for e in drained:
        short = str(e.get("short") or _initials(e.get("label") or ""))
        txt = f"{short} {e.get('label') or short}"
        w = min(text_width(txt, f) + 18, xmax - left)
        if x + w > xmax and x > left:
            x, y = left, y + U * 1.6
        rounded(d, [x, y, x + w, y + U * 1.4], radius=8, fill=(230, 226, 236), outline=DRAINED, width=2)
        draw_text(d, (x + 9, y + U * 0.7), ellipsize(txt, f, w - 18), f, (70, 40, 100), "lm")
        x += w + 8
    return y + U * 1.4


def _mat_parts(v: dict) -> list[tuple[str, Any, Callable]]:
    race = v.get("race") or {}
    klass = v.get("class") or {}
    sub = " ".join(p for p in [race.get("name") or "", klass.get("name", "") if klass else ""] if p)
    if klass:
        sub += f" ({klass.get('side') or 'novice'})"
    player = str(v.get("player") or "")
    status = str(v.get("battle_status") or ("in battle" if v.get("in_battle") else "")).lower()
    rows = list(v.get("rows") or [])[:5]
    rows += [{}] * (5 - len(rows))
    forms = v.get("forms") or [[k, t] for k, t in FORM_TAGS.items()]
    return [
        ("header", {"name": str(v.get("name") or "Adventurer"), "player": player, "sub": sub, "hp": _int(v.get("hp")),
                    "max_hp": _int(v.get("max_hp")), "bonus": _int(v.get("bonus_hp")), "status": status}, _header),
        ("stats", v.get("stats") or {}, _stat_chips),
        ("form", {"forms": forms, "form": v.get("battle_form"),
                  "race": {"ability_name": race.get("ability_name"), "used": bool(race.get("used"))}},
         _form_and_race),
        *_rows_parts(rows),
        ("cooldown", v.get("cooldown") or {}, _cooldown),
        ("active", {"active": list(v.get("active") or []), "tenacity": _int(v.get("tenacity")),
                    "tenacity_max": _int(v.get("tenacity_max"), 5), "saved_xp": _int(v.get("saved_xp")),
                    "saved_xp_max": _int(v.get("saved_xp_max"), 3), "drained": list(v.get("drained") or [])},
         _active),
    ]


def sections(view: dict, sheet: bool = False) -> list[tuple[str, int, Image.Image]]:
    """(name, y where it starts, its image) of each section of the mat (or the sheet), as drawn."""
    v = printable_view(view or {})
    out, y = [], 0
    for name, data, draw in (_sheet_parts(v) if sheet else _mat_parts(v)):
        img = _section(name, data, draw)
        out.append((name, y, img))
        y += img.height
    return out


def _stack(parts: list[Image.Image]) -> Image.Image:
    h = sum(p.height for p in parts) + M - GAP
    img = Image.new("RGB", (W, h), BG)
    y = 0
    for p in parts:
        img.paste(p, (0, y))
        y += p.height
    return img


def _draw_mat(view: dict) -> Image.Image:
    v = printable_view(view or {})
    return _stack([_section(name, data, draw) for name, data, draw in _mat_parts(v)])


def draw_mat(view: dict) -> tuple[Image.Image, Image.Image]:
    """The finished mat picture and the palette it is encoded with."""
    return _draw_mat(view), _the_palette()


def render_mat(view: dict) -> bytes:
    """Draw an adventurer's mat from its view model; returns PNG bytes."""
    img, pal = draw_mat(view)
    return encode_png(img, palette_image=pal)


# ------------------------------------------------------------------------------------ the sheet --
def _sheet_header(data: dict) -> Image.Image:
    h = 100
    img = Image.new("RGB", (W, h + GAP), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, h], fill=HEADER_BG)
    f = fit_font(data["name"], CW, 40, True, U + 6)
    draw_text(d, (M, 34), ellipsize(data["name"], f, CW), f, WHITE, "lm")
    f2 = font(U + 1)
    draw_text(d, (M, 80), ellipsize(data["sub"], f2, CW), f2, (220, 214, 228), "lm")
    return img


def _race_sheet(race: dict) -> Image.Image:
    p = _panel(900, "RACE", str(race.get("name") or ""))
    d = p.d
    y = p.y
    x = M + PAD
    inner = CW - 2 * PAD
    fn = font(U + 3, True)
    name = str(race.get("ability_name") or "Race ability")
    draw_text(d, (x, y + U * 0.65), name, fn, INK, "lm")
    if race.get("used"):
        _tag(d, x + text_width(name, fn) + 12, y, "USED THIS BATTLE", (150, 60, 50))
    y += U * 1.6
    y = _lines(d, x, y, str(race.get("ability_text") or ""), inner, BODY,
               fill=INK if not race.get("used") else INK_SOFT)
    return p.finish(y)


def _class_sheet(data: dict) -> Image.Image:
    klass = data.get("class")
    x = M + PAD
    inner = CW - 2 * PAD
    if not klass:
        p = _panel(500, "CLASS", "not chosen yet")
        y = _lines(p.d, x, p.y, data.get("note") or "Choose one with /adventurer class.", inner, BODY,
                   fill=INK_SOFT)
        return p.finish(y)
    side = str(klass.get("side") or "novice").upper()
    p = _panel(3000, "CLASS", f"{klass.get('name') or ''} ({side.lower()} side)")
    d = p.d
    y = p.y
    promo = klass.get("promotion") or ""
    if promo:
        y = _lines(d, x, y, "Promotion: " + promo, inner, U, fill=INK_SOFT) + 6
    innate = klass.get("innate") or {}
    if innate.get("name") or innate.get("text"):
        right = _tag(d, x, y, "INNATE", HEADER_BG)
        draw_text(d, (right + 10, y + U * 0.65), ellipsize(str(innate.get("name") or ""), font(U + 2, True),
                                                          inner - (right - x) - 10), font(U + 2, True), INK, "lm")
        y = _lines(d, x, y + U * 1.6, str(innate.get("text") or ""), inner, BODY) + 8
    for ab in list(klass.get("abilities") or []):
        used = bool(ab.get("used_this_turn"))
        d.line([(x, y), (x + inner, y)], fill=(226, 218, 202), width=1)
        y += 8
        xx = x
        cost = ab.get("cost")
        if cost is not None:
            cw = U * 2.6
            rounded(d, [xx, y, xx + cw, y + U * 1.3], radius=8, fill=HEADER_BG)
            draw_icon(d, "tenacity", xx + U * 0.7, y + U * 0.65, U * 0.8, GOLD)
            draw_text(d, (xx + cw - U * 0.7, y + U * 0.65), str(cost), font(U, True), WHITE, "mm")
            xx += cw + 10
        tags = []
        if ab.get("keyword"):
            tags.append((str(ab["keyword"]).upper(), KEYWORD_COLOUR))
        if ab.get("form"):
            tags.append((FORM_TAGS.get(ab["form"], str(ab["form"]).title()).upper() + " FORM", ACTIVE_COLOUR))
        if used:
            tags.append(("USED THIS TURN", (120, 120, 120)))
        fn = font(U + 2, True)
        name = str(ab.get("name") or "")
        draw_text(d, (xx, y + U * 0.65), name, fn, INK_FAINT if used else INK, "lm")
        xx += text_width(name, fn) + 12
        for t, c in tags:
            w = text_width(t, font(U, True)) + U * 0.7
            if xx + w > x + inner:
                xx, y = x, y + U * 1.5
            xx = _tag(d, xx, y, t, c) + 8
        y = _lines(d, x, y + U * 1.6, str(ab.get("text") or ""), inner, BODY, fill=INK_SOFT if used else INK) + 6
    return p.finish(y)


def _items_sheet(data: dict) -> Image.Image:
    ready, pack = data["ready"], data["pack"]
    p = _panel(3000, "READY ITEMS", f"{min(len(ready), 4)}/4 ready · {len(ready) + len(pack)}/8 carried")
    d = p.d
    x = M + PAD
    inner = CW - 2 * PAD
    gap = 10
    bw = (inner - gap) / 2
    y = p.y
    for row in range(2):
        cards = []
        for c in range(2):
            i = row * 2 + c
            cards.append(ready[i] if i < len(ready) else None)
        # measure the row: every card as tall as the tallest
        heights = []
        for it in cards:
            if not it:
                heights.append(U * 3)
                continue
            n = len(wrap(str(it.get("name") or ""), font(U + 1, True), bw - 20, 2))
            t = len(wrap(str(it.get("text") or ""), font(U), bw - 20))
            heights.append(12 + n * (U + 1) * ROW + U * 1.3 + t * U * ROW + 12)
        bh = max(heights)
        for c, it in enumerate(cards):
            x0 = x + c * (bw + gap)
            if not it:
                rounded(d, [x0, y, x0 + bw, y + bh], radius=10, fill=PANEL_DARK, outline=(200, 190, 172),
                                    width=2)
                draw_text(d, (x0 + bw / 2, y + bh / 2), "empty", font(U), INK_FAINT, "mm")
                continue
            exp = bool(it.get("expended"))
            col = (120, 100, 70) if not exp else (150, 150, 150)
            rounded(d, [x0, y, x0 + bw, y + bh], radius=10, fill=(250, 240, 220) if not exp else
                                (225, 225, 225), outline=col, width=3)
            yy = _lines(d, x0 + 10, y + 10, str(it.get("name") or ""), bw - 20, U + 1, True,
                        INK if not exp else INK_SOFT, 2)
            sub = str(it.get("subtype") or "").upper()
            if exp:
                sub = (sub + " · " if sub else "") + "EXPENDED"
            if sub:
                draw_text(d, (x0 + 10, yy), ellipsize(sub, font(U, True), bw - 20), font(U, True), col, "la")
            yy += U * 1.3
            _lines(d, x0 + 10, yy, str(it.get("text") or ""), bw - 20, U, fill=INK_SOFT)
        y += bh + gap
    y += 6
    ft = font(TITLE, True)
    draw_text(d, (x, y), "PACK", ft, INK_SOFT, "la")
    draw_text(d, (x + text_width("PACK", ft) + 12, y + 1), count(len(pack), "item"),
              font(U), INK_FAINT, "la")
    y += TITLE * 1.5
    if not pack:
        draw_text(d, (x, y), "empty", font(U), INK_FAINT, "la")
        return p.finish(y + U * 1.3)
    f = font(U, True)
    xx = x
    for it in pack:
        name = str(it.get("name") or "")
        sub = str(it.get("subtype") or "")
        txt = ellipsize(name + (f" · {sub}" if sub else ""), f, inner - 20)
        w = text_width(txt, f) + 20
        if xx + w > x + inner and xx > x:
            xx, y = x, y + U * 1.8
        rounded(d, [xx, y, xx + w, y + U * 1.5], radius=8, fill=(250, 240, 220), outline=(120, 100, 70),
                            width=2)
        draw_text(d, (xx + 10, y + U * 0.75), txt, f, INK, "lm")
        xx += w + 8
    return p.finish(y + U * 1.5)


def _sheet_parts(v: dict) -> list[tuple[str, Any, Callable]]:
    race = v.get("race") or {}
    klass = v.get("class") or None
    sub = " · ".join(p for p in [race.get("name") or "", (klass or {}).get("name") or "",
                                 f"player {v.get('player')}" if v.get("player") else ""] if p)
    return [
        ("sheet-header", {"name": str(v.get("name") or "Adventurer"), "sub": sub}, _sheet_header),
        ("race", race, _race_sheet),
        ("class", {"class": klass, "note": v.get("class_note") or ""}, _class_sheet),
        ("items", {"ready": list(v.get("ready") or [])[:4], "pack": list(v.get("pack") or [])}, _items_sheet),
    ]


def _draw_sheet(view: dict) -> Image.Image:
    v = printable_view(view or {})
    return _stack([_section(name, data, draw) for name, data, draw in _sheet_parts(v)])


def draw_sheet(view: dict) -> tuple[Image.Image, Image.Image]:
    return _draw_sheet(view), _the_palette()


def render_sheet(view: dict) -> bytes:
    """Draw an adventurer's sheet (race ability, class, items) from the mat's view model; returns PNG bytes."""
    img, pal = draw_sheet(view)
    return encode_png(img, palette_image=pal)
