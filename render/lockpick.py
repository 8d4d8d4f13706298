"""A lockpick check: ``render_lockpick(view) -> PNG bytes``.

The cache's code (key digits framed in gold and marked KEY), a drawn tick under each digit a die matches,
the three lockpick dice with their numbers, and which attempt this is; everything in words or drawn
shapes (no emoji), every text at least ``min_text(width)`` pixels.

View keys: ``title``, ``code`` [digits], ``keys`` [positions of key digits], ``dice`` [three values],
``matched`` {position: die index} (as ``rulesets.tes.battle.lockpick.match`` says), ``attempt``,
``attempts``, ``fatigue`` (light fatigue spent so far), optional ``note`` (one line, e.g. what to type).
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import (
    rounded,
    BG, GOLD, INK, INK_FAINT, INK_SOFT, PANEL, WHITE, draw_text, encode_png, fit_font, font, min_text,
    printable_view, wrap,
)

W = 640
U = min_text(W)          # 16
M = 20
HEADER_BG = (44, 40, 52)
OK = (40, 140, 60)
NOT_YET = (190, 60, 40)
DIE_FILL = (236, 232, 222)
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _int(v, default=0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def tick(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour, width: int) -> None:
    """A drawn check mark."""
    s = size / 2
    d.line([(cx - s, cy), (cx - s * 0.25, cy + s * 0.7), (cx + s, cy - s * 0.75)], fill=colour, width=width,
           joint="curve")


def cross(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour, width: int) -> None:
    """A drawn cross."""
    s = size * 0.4
    d.line([(cx - s, cy - s), (cx + s, cy + s)], fill=colour, width=width)
    d.line([(cx - s, cy + s), (cx + s, cy - s)], fill=colour, width=width)


def _die(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, value: int) -> None:
    h = size / 2
    rounded(d, [cx - h, cy - h, cx + h, cy + h], radius=size * 0.18, fill=WHITE, outline=INK, width=3)
    step, r = size * 0.26, max(3, size * 0.085)
    for px, py in PIPS.get(int(value), []):
        x, y = cx + px * step, cy + py * step
        d.ellipse([x - r, y - r, x + r, y + r], fill=INK)


def render_lockpick(view: dict) -> bytes:
    from render.common import specimen_palette
    from render.samples import lockpick_view

    img = draw_lockpick(view)
    exact = [BG, INK, INK_SOFT, INK_FAINT, PANEL, WHITE, GOLD, HEADER_BG, OK, NOT_YET, (150, 100, 0)]
    return encode_png(img, palette_image=specimen_palette("lockpick", lambda: [draw_lockpick(lockpick_view())],
                                                          exact))


def draw_lockpick(view: dict) -> Image.Image:
    v = printable_view(view or {})
    code = [_int(x) for x in (v.get("code") or [])]
    keys = {_int(x) for x in (v.get("keys") or [])}
    dice = [_int(x) for x in (v.get("dice") or [])]
    matched = {_int(k): _int(x) for k, x in (v.get("matched") or {}).items()}
    used = set(matched.values())
    title = str(v.get("title") or "Lockpick check")
    ftitle = font(26, True)
    tlines = wrap(title, ftitle, W - 2 * M, max_lines=2)
    head_h = 18 + len(tlines) * 34
    cell = 96
    note = str(v.get("note") or "")
    fnote = font(U + 2)
    nlines = wrap(note, fnote, W - 2 * M, max_lines=3) if note else []
    H = head_h + 24 + 34 + cell + 70 + 34 + cell + 56 + 40 + len(nlines) * (U + 8) + 16
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, W, head_h], fill=HEADER_BG)
    ty = 12
    for line in tlines:
        draw_text(d, (M, ty), line, ftitle, WHITE, "la")
        ty += 34
    y = head_h + 20
    flab = font(U + 4, True)
    fsmall = font(U + 2, True)
    # the code
    draw_text(d, (M, y), "CODE", flab, INK_SOFT, "la")
    att = f"attempt {_int(v.get('attempt'), 1)} of {_int(v.get('attempts'), 1)}"
    draw_text(d, (W - M, y), att, flab, INK, "ra")
    y += 34
    n = max(1, len(code))
    gap = 18
    x0 = (W - (n * cell + (n - 1) * gap)) / 2
    fdig = font(52, True)
    for i, digit in enumerate(code):
        cx = x0 + i * (cell + gap) + cell / 2
        key = i in keys
        rounded(d, [cx - cell / 2, y, cx + cell / 2, y + cell], radius=14, fill=PANEL,
                            outline=GOLD if key else INK, width=7 if key else 3)
        draw_text(d, (cx, y + cell / 2), str(digit), fdig, INK, "mm")
        if key:
            draw_text(d, (cx, y + cell - 4), "KEY", font(U, True), (150, 100, 0), "md")
        my = y + cell + 30
        if i in matched:
            tick(d, cx, my, 34, OK, 7)
            draw_text(d, (cx, my + 22), f"die {matched[i] + 1}", fsmall, OK, "ma")
        else:
            cross(d, cx, my, 30, NOT_YET, 6)
            draw_text(d, (cx, my + 22), "to match", fsmall, NOT_YET, "ma")
    y += cell + 70
    # the dice
    draw_text(d, (M, y), "YOUR DICE", flab, INK_SOFT, "la")
    fat = _int(v.get("fatigue"))
    if fat:
        draw_text(d, (W - M, y), f"light fatigue spent: {fat}", fsmall, INK, "ra")
    y += 34
    n = max(1, len(dice))
    x0 = (W - (n * cell + (n - 1) * gap)) / 2
    for i, value in enumerate(dice):
        cx = x0 + i * (cell + gap) + cell / 2
        _die(d, cx, y + cell / 2, cell * 0.86, value)
        label = f"die {i + 1}: {value}"
        colour = OK if i in used else INK
        draw_text(d, (cx, y + cell + 10), label, fit_font(label, cell + gap, U + 4, True, U), colour, "ma")
    y += cell + 56
    ok = len(matched)
    summary = f"{ok} of {len(code)} digits matched" + (" (a key digit comes first)" if keys and not
                                                         keys <= set(matched) else "")
    draw_text(d, (M, y), summary, font(U + 2, True), INK, "la")
    y += 40
    for line in nlines:
        draw_text(d, (M, y), line, fnote, INK_SOFT, "la")
        y += U + 8
    return img


__all__ = ["cross", "draw_lockpick", "render_lockpick", "tick"]
