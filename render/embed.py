"""A drawing of a Discord post with its embed, as the channel shows it (the README's picture of the dashboard).

``render_post(view)`` draws the bot's name, the embed's colour bar, title, description, fields, the picture and
the footer on Discord's dark theme.  ``view``: {"author", "title", "description", "fields": [[name, value]],
"footer", "color": "#rrggbb", "picture": PNG bytes or None}; the text is already worded (mentions and timestamps as
a reader sees them).  Not a picture kind the bot posts: the post itself is Discord's.
"""
from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from render.common import draw_text, encode_png, font, rounded, wrap

BG = (49, 51, 56)
EMBED = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
WHITE = (242, 243, 245)
MENTION = (201, 205, 251)
MENTION_BG = (60, 66, 112)
WIDTH = 760
PAD = 16


def _hex(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def render_post(view: dict[str, Any]) -> bytes:
    inner = WIDTH - 2 * PAD - 72 - 2 * PAD
    title_f, body_f, bold_f, small_f, name_f = font(20, True), font(17), font(17, True), font(14), font(18, True)
    blocks: list[tuple[str, Any, list[str]]] = []
    blocks.append(("title", title_f, wrap(view.get("title", ""), title_f, inner)))
    for para in str(view.get("description", "")).split("\n"):
        blocks.append(("text", body_f, wrap(para, body_f, inner) or [""]))
    for name, value in view.get("fields") or []:
        blocks.append(("field", bold_f, wrap(name, bold_f, inner)))
        for para in str(value).split("\n"):
            blocks.append(("text", body_f, wrap(para, body_f, inner) or [""]))
    picture = None
    if view.get("picture"):
        picture = Image.open(io.BytesIO(view["picture"])).convert("RGB")
        scale = min(1.0, inner / picture.width)
        picture = picture.resize((int(picture.width * scale), int(picture.height * scale)), Image.LANCZOS)
    line_h = {"title": 28, "text": 24, "field": 26}
    height = PAD + 30 + PAD
    for kind, _f, lines in blocks:
        height += line_h[kind] * len(lines) + (8 if kind == "title" else 10 if kind == "field" else 0)
    height += (picture.height + PAD) if picture is not None else 0
    height += 20 + 2 * PAD
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    # the bot's avatar and name
    d.ellipse((PAD, PAD, PAD + 48, PAD + 48), fill=_hex(view.get("color", "#4b6cb7")))
    draw_text(d, (PAD + 24 - 10, PAD + 12), "H", font(22, True), WHITE)
    draw_text(d, (PAD + 64, PAD + 2), view.get("author", "Hexpost"), name_f, WHITE)
    bx = PAD + 64
    draw_text(d, (bx + d.textlength(view.get("author", "Hexpost"), font=name_f) + 8, PAD + 6), "APP", small_f, MENTION)
    top = PAD + 34
    rounded(d, (bx, top, WIDTH - PAD, height - PAD), radius=6, fill=EMBED)
    d.rectangle((bx, top, bx + 4, height - PAD), fill=_hex(view.get("color", "#4b6cb7")))
    x, y = bx + PAD, top + PAD
    for kind, f, lines in blocks:
        y += 10 if kind == "field" else 0
        for line in lines:
            colour = WHITE if kind in ("title", "field") else TEXT
            if kind == "text" and "@" in line:  # a mention's pill, as Discord draws it
                start = line.index("@")
                end = line.find(" ", start)
                end = len(line) if end < 0 else end
                x0 = x + d.textlength(line[:start], font=f)
                x1 = x0 + d.textlength(line[start:end], font=f)
                rounded(d, (x0 - 2, y - 1, x1 + 2, y + 21), radius=3, fill=MENTION_BG)
            draw_text(d, (x, y), line, f, colour)
            y += line_h[kind]
        y += 8 if kind == "title" else 0
    if picture is not None:
        y += 4
        img.paste(picture, (x, y))
        y += picture.height + PAD
    draw_text(d, (x, y), view.get("footer", ""), small_f, MUTED)
    return encode_png(img, compress_level=9)
