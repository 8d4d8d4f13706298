"""Shared drawing helpers: fonts, colours, text fitting (memoised per thread), icons, PNG palettes and encoding."""
from __future__ import annotations

import io
import math
import os
import re
import threading
import unicodedata
from functools import lru_cache
from typing import Iterable

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = os.path.join(os.path.dirname(__file__), "fonts")

# A phone shows a posted picture about PHONE_W pixels wide; every label a player needs must then be at
# least PHONE_MIN_PX pixels tall (its font's pixel size, the em).  ``min_text(width)`` is the smallest
# font size a picture ``width`` pixels wide may use; every picture sizes its type from it, and
# tests/test_phone_text.py measures every text each picture kind draws.
PHONE_W = 400
PHONE_MIN_PX = 10


def min_text(width: float) -> int:
    """The smallest font size (pixels) allowed in a picture ``width`` pixels wide."""
    return int(math.ceil(float(width) * PHONE_MIN_PX / PHONE_W))
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf", "condensed": "DejaVuSansCondensed-Bold.ttf"}

# Palette -------------------------------------------------------------------
BG = (246, 241, 230)
PANEL = (255, 252, 245)
PANEL_DARK = (232, 224, 208)
INK = (28, 26, 24)
INK_SOFT = (90, 84, 76)
INK_FAINT = (150, 142, 130)
LINE = (120, 110, 98)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
GOLD = (232, 176, 40)

STAT_COLOURS = {
    "health": (196, 40, 40),
    "stamina": (40, 150, 60),
    "magicka": (40, 96, 200),
    "cooldown": (70, 70, 70),
}
CONSTELLATION_COLOURS = {
    "mage": (44, 98, 196),
    "thief": (226, 178, 20),
    "warrior": (186, 44, 44),
    None: (118, 118, 118),  # Combat line
}
STATUS_COLOURS = {
    "bane": (120, 50, 160),
    "blind": (60, 60, 60),
    "daze": (220, 120, 20),
    "fear": (20, 130, 140),
    "maim": (170, 30, 60),
    "stealth": (70, 90, 110),
}
STATUS_LETTERS = {"bane": "B", "blind": "Bl", "daze": "D", "fear": "F", "maim": "M", "stealth": "S"}


def constellation_colour(name) -> tuple[int, int, int]:
    return CONSTELLATION_COLOURS.get(name, CONSTELLATION_COLOURS[None])


def status_colour(name: str) -> tuple[int, int, int]:
    return STATUS_COLOURS.get(name, (100, 100, 100))


def status_letter(name: str) -> str:
    if name in STATUS_LETTERS:
        return STATUS_LETTERS[name]
    return (name[:1].upper() + name[1:2].lower()) if name else "?"


def text_on(colour) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour[:3]
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(3))


# Fonts ---------------------------------------------------------------------
# The TTF files are read from disk once per process; font objects are cached per thread, because
# renders run in worker threads and a FreeType face should not be shared between threads.
_local = threading.local()


@lru_cache(maxsize=3)
def _font_bytes(bold) -> bytes | None:
    try:
        with open(os.path.join(FONT_DIR, _FONT_FILES[bold]), "rb") as fh:
            return fh.read()
    except OSError:
        return None


def _default_font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType / older than 10.1
        return ImageFont.load_default()


def font(size: int, bold: bool | str = False):
    """A font of ``size`` pixels (DejaVu Sans, shipped in render/fonts), loaded once per thread.

    ``bold="condensed"`` is DejaVu Sans Condensed Bold: the narrow face for the big hex labels and
    HP numbers that must stay readable when a phone shrinks the picture.

    Falls back to Pillow's built-in scalable font when the TTF file is missing.
    """
    cache = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (int(size), bold if bold == "condensed" else bool(bold))
    f = cache.get(key)
    if f is None:
        # by path: FreeType reads the file as it needs it, where a copy of its bytes would be kept in memory
        # by every font object of every thread (a few dozen sizes in each render thread)
        path = os.path.join(FONT_DIR, _FONT_FILES[key[1]])
        try:
            f = ImageFont.truetype(path, key[0])
        except OSError:
            f = _default_font(key[0])
        cache[key] = f
    return f


# What the shipped font can draw ------------------------------------------------
def _cmap(data: bytes) -> frozenset[int]:
    """The code points a TrueType font maps to a glyph (its 'cmap' table, formats 4 and 12)."""
    import struct

    num = struct.unpack_from(">H", data, 4)[0]
    cmap_at = None
    for i in range(num):
        tag, _, off, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_at = off
    if cmap_at is None:
        return frozenset()
    n_sub = struct.unpack_from(">H", data, cmap_at + 2)[0]
    subs = {}
    for i in range(n_sub):
        pid, eid, off = struct.unpack_from(">HHI", data, cmap_at + 4 + 8 * i)
        subs[(pid, eid)] = cmap_at + off
    points: set[int] = set()
    for key in ((3, 10), (0, 4), (3, 1), (0, 3)):
        at = subs.get(key)
        if at is None:
            continue
        fmt = struct.unpack_from(">H", data, at)[0]
        if fmt == 12:
            groups = struct.unpack_from(">I", data, at + 12)[0]
            for g in range(groups):
                start, end, _ = struct.unpack_from(">III", data, at + 16 + 12 * g)
                points.update(range(start, end + 1))
        elif fmt == 4:
            segx2 = struct.unpack_from(">H", data, at + 6)[0]
            ends = struct.unpack_from(f">{segx2 // 2}H", data, at + 14)
            starts = struct.unpack_from(f">{segx2 // 2}H", data, at + 16 + segx2)
            deltas = struct.unpack_from(f">{segx2 // 2}h", data, at + 16 + 2 * segx2)
            ro_at = at + 16 + 3 * segx2
            ranges = struct.unpack_from(f">{segx2 // 2}H", data, ro_at)
            for k, (st, en) in enumerate(zip(starts, ends)):
                for c in range(st, en + 1):
                    if c == 0xFFFF:
                        continue
                    if ranges[k] == 0:
                        gid = (c + deltas[k]) & 0xFFFF
                    else:
                        gat = ro_at + 2 * k + ranges[k] + 2 * (c - st)
                        gid = struct.unpack_from(">H", data, gat)[0]
                        gid = (gid + deltas[k]) & 0xFFFF if gid else 0
                    if gid:
                        points.add(c)
        if points:
            break
    return frozenset(points)


@lru_cache(maxsize=1)
def drawable_points() -> frozenset[int]:
    """Code points every shipped face can draw (regular, bold and condensed bold)."""
    sets = [_cmap(data) for data in (_font_bytes(k) for k in _FONT_FILES) if data]
    if not sets:
        return frozenset(range(32, 127))
    out = sets[0]
    for s in sets[1:]:
        out = out & s
    return out


def can_draw(ch: str) -> bool:
    return ord(ch) in drawable_points()


# Characters the font lacks but that have a plain stand-in; anything else it lacks is dropped.
_STAND_INS = {
    "⚔": "x",       # crossed swords
    "✅": "ok", "✔": "ok", "❌": "x", "✖": "x",
    "➡": "→", "⬅": "←", "⬆": "↑", "⬇": "↓",
    "⏳": "", "⌛": "",
}
_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")
_MARKDOWN = re.compile(r"(\*\*|__|~~|\|\||`+|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*]))")


@lru_cache(maxsize=8192)
def printable(text) -> str:
    """``text`` as a picture may print it: no Markdown markers (``**``, backticks, ``__``, ``~~``,
    spoilers, single ``*``), no raw Discord mentions, and only characters the shipped font draws
    (emoji and other missing glyphs get a plain stand-in or are dropped, never a box)."""
    text = str(text if text is not None else "")
    if not text:
        return text
    text = _MENTION.sub(lambda m: "someone" if m.group(1).startswith("@") else "a channel", text)
    text = _MARKDOWN.sub("", text)
    pts = drawable_points()
    out = []
    for ch in text:
        o = ord(ch)
        if o in (0xFE0E, 0xFE0F, 0x200D):
            continue
        if o in pts:
            out.append(ch)
        elif ch in _STAND_INS:
            out.append("".join(c for c in _STAND_INS[ch] if ord(c) in pts))
        elif ch in "\t\n\r":
            out.append(" ")
        elif unicodedata.category(ch)[0] in "LN":
            out.append("?")     # a letter of a script the font lacks: shown as missing, never dropped silently
        # else: dropped (emoji, variation selectors, zero-width joiners, symbols the font lacks)
    cleaned = "".join(out)
    cleaned = re.sub(r"[ ]{2,}", " ", cleaned).strip()
    return cleaned


_KEEP_KEYS = frozenset({"version", "id", "tile", "side", "icon", "kind", "stat", "line", "where", "constellation",
                        "form", "status", "subtype_key"})


def printable_view(view):
    """A copy of a view model with every text run through :func:`printable` (ids and keys untouched)."""
    if isinstance(view, dict):
        return {k: (v if k in _KEEP_KEYS and isinstance(v, str) else printable_view(v)) for k, v in view.items()}
    if isinstance(view, list):
        return [printable_view(v) for v in view]
    if isinstance(view, tuple):
        return tuple(printable_view(v) for v in view)
    if isinstance(view, str):
        return printable(view)
    return view


# Text measuring is pure (same font object + text -> same result) but ``getlength`` runs a whole
# layout each call (~25 µs), and the same strings are measured every turn (unit names, HP labels,
# the log). Results are memoised per thread, keyed by the font object itself (fonts are per thread
# too); the table is simply dropped when it grows past _MEMO_MAX entries.
_MEMO_MAX = 20000


def _memo() -> dict:
    m = getattr(_local, "memo", None)
    if m is None or len(m) > _MEMO_MAX:
        m = _local.memo = {}
    return m


def text_width(text: str, f) -> float:
    m = _memo()
    key = ("w", f, text)
    w = m.get(key)
    if w is None:
        w = m[key] = f.getlength(text)
    return w


def ellipsize(text: str, f, width: float) -> str:
    m = _memo()
    key = ("e", f, text, width)
    out = m.get(key)
    if out is None:
        out = m[key] = _ellipsize(text, f, width)
    return out


def _ellipsize(text: str, f, width: float) -> str:
    if text_width(text, f) <= width:
        return text
    ell = "…"
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ell, f) <= width:
            lo = mid
        else:
            hi = mid - 1
    return (text[:lo].rstrip() + ell) if lo else ell


def wrap(text: str, f, width: float, max_lines: int | None = None, first_indent: float = 0) -> list[str]:
    """Greedy word wrap; the last allowed line ends with an ellipsis when text is cut."""
    m = _memo()
    key = ("wrap", f, str(text or ""), width, max_lines, first_indent)
    lines = m.get(key)
    if lines is None:
        lines = m[key] = tuple(_wrap(str(text or ""), f, width, max_lines, first_indent))
    return list(lines)


def _wrap(text: str, f, width: float, max_lines: int | None, first_indent: float) -> list[str]:
    words = str(text or "").split()
    lines: list[str] = []
    cur = ""
    for w in words:
        avail = width - (first_indent if not lines else 0)
        trial = f"{cur} {w}" if cur else w
        if text_width(trial, f) <= avail:
            cur = trial
            continue
        if cur:
            lines.append(cur)
            cur = w
        else:
            cur = w
        # very long single word: hard cut
        avail = width - (first_indent if not lines else 0)
        while text_width(cur, f) > avail and len(cur) > 1:
            cut = len(cur)
            while cut > 1 and text_width(cur[:cut], f) > avail:
                cut -= 1
            lines.append(cur[:cut])
            cur = cur[cut:]
    if cur:
        lines.append(cur)
    if max_lines is not None and len(lines) > max_lines:
        kept = lines[:max_lines]
        kept[-1] = ellipsize(kept[-1] + " " + lines[max_lines], f, width - (first_indent if max_lines == 1 else 0))
        if not kept[-1].endswith("…"):
            kept[-1] = ellipsize(kept[-1] + "…", f, width)
        lines = kept
    return lines


def fit_font(text: str, width: float, size: int, bold: bool | str = False, min_size: int = 10):
    """The largest font not above ``size`` in which ``text`` fits ``width``."""
    m = _memo()
    key = ("fit", text, width, int(size), bold, min_size)
    f = m.get(key)
    if f is None:
        s = size
        while s > min_size and text_width(text, font(s, bold)) > width:
            s -= 1
        f = m[key] = font(s, bold)
    return f


_MASKS_MAX = 1500


def draw_text(d: ImageDraw.ImageDraw, xy, text: str, f, fill, anchor: str = "la") -> None:
    """``d.text`` for one line without stroke, with the glyph mask memoised per thread.

    The same lines come back every turn (names, HP, the log, the footer); their masks are
    rasterised once and only blitted afterwards. The pixels are exactly those of ``d.text``.
    """
    text = str(text)
    if not text or "\n" in text or not isinstance(f, ImageFont.FreeTypeFont):
        d.text(xy, text, font=f, fill=fill, anchor=anchor)
        return
    x, y = float(xy[0]), float(xy[1])
    start = (math.modf(x)[0], math.modf(y)[0])
    masks = getattr(_local, "masks", None)
    if masks is None or len(masks) > _MASKS_MAX:
        masks = _local.masks = {}
    key = (f, text, anchor, start, d.fontmode)
    hit = masks.get(key)
    if hit is None:
        hit = masks[key] = f.getmask2(text, d.fontmode, anchor=anchor, start=start)
    mask, offset = hit
    ink, fill_ink = d._getink(fill)
    d.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink if ink is not None else fill_ink)


def draw_centered(d: ImageDraw.ImageDraw, xy, text: str, f, fill, anchor: str = "mm", **kw) -> None:
    d.text(xy, text, font=f, fill=fill, anchor=anchor, **kw)


# Shapes --------------------------------------------------------------------
def triangle(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, direction: str, fill) -> None:
    """A small solid triangle pointing ``direction`` ('left', 'right', 'up', 'down')."""
    h = size / 2
    if direction == "left":
        pts = [(cx - h, cy), (cx + h, cy - h), (cx + h, cy + h)]
    elif direction == "right":
        pts = [(cx + h, cy), (cx - h, cy - h), (cx - h, cy + h)]
    elif direction == "up":
        pts = [(cx, cy - h), (cx - h, cy + h), (cx + h, cy + h)]
    else:
        pts = [(cx, cy + h), (cx - h, cy - h), (cx + h, cy - h)]
    d.polygon(pts, fill=fill)


def pips(d: ImageDraw.ImageDraw, cx: float, cy: float, n: int, r: float, fill, gap: float | None = None) -> None:
    """``n`` small dots centred on (cx, cy)."""
    n = max(0, min(int(n or 0), 6))
    if not n:
        return
    gap = gap if gap is not None else r * 3
    x0 = cx - gap * (n - 1) / 2
    for i in range(n):
        x = x0 + i * gap
        d.ellipse([x - r, cy - r, x + r, cy + r], fill=fill)


def arrow(d: ImageDraw.ImageDraw, p0, p1, fill, width: int, head: float) -> None:
    """A line from p0 to p1 with an arrowhead at p1."""
    x0, y0 = p0
    x1, y1 = p1
    ang = math.atan2(y1 - y0, x1 - x0)
    bx, by = x1 - head * 0.8 * math.cos(ang), y1 - head * 0.8 * math.sin(ang)
    d.line([(x0, y0), (bx, by)], fill=fill, width=width)
    left = (x1 - head * math.cos(ang - 0.45), y1 - head * math.sin(ang - 0.45))
    right = (x1 - head * math.cos(ang + 0.45), y1 - head * math.sin(ang + 0.45))
    d.polygon([(x1, y1), left, right], fill=fill)


# Icons ---------------------------------------------------------------------
KNOWN_ICONS = ("damage", "prevent", "heal", "tenacity", "status", "move", "blank")


def icon_letters(icon: str, n: int = 2) -> str:
    """The letters drawn for an icon without a picture: initials of its parts, or its first ``n`` letters."""
    icon = str(icon or "")
    parts = [p for p in icon.replace("_", "-").split("-") if p]
    if len(parts) > 1:
        return "".join(p[:1] for p in parts)[:n].upper()
    return icon[:n].title() or "?"


def icon_codes(icons) -> dict[str, str]:
    """Letters for every icon without a picture, long enough that no two of ``icons`` look alike."""
    plain = [i for i in dict.fromkeys(str(x or "") for x in icons) if i and i not in KNOWN_ICONS]
    out: dict[str, str] = {}
    for icon in plain:
        n = 2
        while n < 5 and any(icon_letters(o, n) == icon_letters(icon, n) for o in plain if o != icon):
            n += 1
        out[icon] = icon_letters(icon, n)
    return out


def draw_icon(d: ImageDraw.ImageDraw, icon: str, cx: float, cy: float, size: float, fill, bg=None,
              letters: str | None = None, least: int = 10) -> None:
    """A simple vector glyph for a die face icon, ``size`` pixels across, centred on (cx, cy).

    An icon without a picture is drawn as ``letters`` (default: :func:`icon_letters`), at least ``least``
    pixels tall (the picture's smallest type: they may then reach past ``size``)."""
    s = size / 2
    icon = (icon or "").lower()
    w = max(2, int(size / 9))
    if icon == "damage":
        # an eight-pointed burst
        pts = []
        for i in range(16):
            a = math.pi * i / 8 - math.pi / 2
            rr = s if i % 2 == 0 else s * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=fill)
    elif icon == "prevent":
        pts = [(cx - s * 0.8, cy - s * 0.8), (cx + s * 0.8, cy - s * 0.8), (cx + s * 0.8, cy - s * 0.1),
               (cx, cy + s), (cx - s * 0.8, cy - s * 0.1)]
        d.polygon(pts, fill=fill)
        if bg is not None:
            d.line([(cx, cy - s * 0.6), (cx, cy + s * 0.6)], fill=bg, width=max(1, w // 2))
    elif icon == "heal":
        t = s * 0.34
        d.rectangle([cx - t, cy - s * 0.9, cx + t, cy + s * 0.9], fill=fill)
        d.rectangle([cx - s * 0.9, cy - t, cx + s * 0.9, cy + t], fill=fill)
    elif icon == "tenacity":
        r = s * 0.85
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=fill, width=max(3, int(size / 7)))
    elif icon == "status":
        r = s * 0.8
        d.ellipse([cx - r, cy - r * 1.05, cx + r, cy + r * 0.7], fill=fill)
        d.rectangle([cx - r * 0.5, cy + r * 0.3, cx + r * 0.5, cy + r * 1.05], fill=fill)
        if bg is not None:
            e = r * 0.28
            for ex in (cx - r * 0.38, cx + r * 0.38):
                d.ellipse([ex - e, cy - r * 0.35 - e, ex + e, cy - r * 0.35 + e], fill=bg)
    elif icon == "move":
        arrow(d, (cx - s * 0.9, cy), (cx + s * 0.95, cy), fill, width=max(3, int(size / 6)), head=s * 0.9)
    elif icon == "blank" or icon == "":
        d.line([(cx - s * 0.5, cy), (cx + s * 0.5, cy)], fill=fill, width=w)
    else:
        letters = letters or icon_letters(icon)
        draw_text(d, (cx, cy), letters, fit_font(letters, size, max(least, int(size * 0.8)), bold=True,
                                                  min_size=least), fill, "mm")


# Encoding ------------------------------------------------------------------
def encode_png(img: Image.Image, compress_level: int = 3, palette: bool = True,
               palette_image: Image.Image | None = None) -> bytes:
    """PNG bytes, fast: a 256-colour palette (no dithering) and low zlib effort.

    Flat-colour pictures lose nothing visible in palette mode, which is both quicker to encode and
    less than half the size of an RGB PNG. Never ``optimize=True`` (it is many times slower).

    Without ``palette_image`` the palette is computed for this picture (fast octree, ~10 ms for a
    map). With one (a "P" image from :func:`build_palette`, computed once and reused), every pixel
    is only mapped to its nearest entry, which is several times quicker.
    """
    buf = io.BytesIO()
    if img.mode not in ("RGB", "P", "L"):
        img = img.convert("RGB")
    if palette and img.mode == "RGB":
        if palette_image is not None:
            img = img.quantize(palette=palette_image, dither=Image.Dither.NONE)
        else:
            img = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    img.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()


# Palettes ------------------------------------------------------------------
EXACT_MIN_PIXELS = 48   # a colour covering at least this many pixels of the source gets its own entry
EXACT_MAX = 160         # at most this many such entries; the rest of the 256 go to anti-aliasing blends


def palette_colours(pal: Image.Image) -> list[tuple[int, int, int]]:
    flat = pal.getpalette("RGB") or []
    return [tuple(flat[i:i + 3]) for i in range(0, len(flat) - 2, 3)]


def _palette_image(entries: list) -> Image.Image:
    entries = list(entries)[:256]
    entries += [entries[0]] * (256 - len(entries))   # pad with a real colour, never an unused black
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in entries for v in c])
    pal.load()   # apply the palette now: later quantize() calls from any thread only read it
    return pal


def _strip(colours: list) -> Image.Image:
    return Image.frombytes("RGB", (len(colours), 1), b"".join(bytes(c) for c in colours))


class _Twins:
    """The kept colours, bucketed by 8-level cells, to ask quickly whether a colour is within
    ``tol`` (per channel, tol < 8) of one of them."""

    def __init__(self, tol: int = 4):
        self.tol = tol
        self.cells: dict[tuple[int, int, int], list] = {}

    def add(self, c) -> None:
        self.cells.setdefault((c[0] >> 3, c[1] >> 3, c[2] >> 3), []).append(c)

    def near(self, c) -> bool:
        t = self.tol
        r, g, b = c
        for kr in {(r - t) >> 3, r >> 3, (r + t) >> 3}:
            for kg in {(g - t) >> 3, g >> 3, (g + t) >> 3}:
                for kb in {(b - t) >> 3, b >> 3, (b + t) >> 3}:
                    for w in self.cells.get((kr, kg, kb), ()):
                        if abs(w[0] - r) <= t and abs(w[1] - g) <= t and abs(w[2] - b) <= t:
                            return True
        return False


def colour_counts(img: Image.Image) -> dict[tuple[int, int, int], int] | None:
    """{colour: pixels} of an RGB image, or None past 65536 distinct colours."""
    got = img.getcolors(1 << 16)
    return None if got is None else {c: n for n, c in got}


def build_palette(source: Image.Image | None = None, exact: Iterable = (),
                  counts: dict[tuple[int, int, int], int] | None = None) -> Image.Image:
    """A 256-entry "P" image to quantize pictures like ``source`` against (``encode_png(palette_image=)``).

    ``counts`` ({colour: pixels}, see colour_counts) may be given instead of ``source``, e.g. summed
    over several images. ``exact`` colours come first and are guaranteed to map to themselves,
    followed by every flat colour (at least EXACT_MIN_PIXELS pixels, most common first, up to
    EXACT_MAX, skipping near twins of colours already kept); the remaining entries are a fast
    octree of the other (anti-aliasing) colours weighted by their pixel count. Pillow maps a pixel
    through a 64-level-per-channel cache whose cells are filled with the entry nearest to the cell's
    corner, so a kept colour can lose its cell to a nearby entry; such an entry is dropped (replaced
    by a copy of the kept colour) until every kept colour maps to itself, the more common winning
    when two kept colours share a cell (the brief ``exact`` list first of all).
    """
    want = list(dict.fromkeys(tuple(int(v) for v in c[:3]) for c in exact))[:256]
    if counts is None and source is not None:
        source = source.convert("RGB") if source.mode != "RGB" else source
        counts = colour_counts(source)
    if counts is None:
        if source is None:
            extra = []
        else:  # photographic source: nothing is flat, let the octree decide
            octree = source.quantize(max(1, 256 - len(want)), method=Image.Quantize.FASTOCTREE,
                                     dither=Image.Dither.NONE)
            extra = palette_colours(octree)[:256 - len(want)]
    else:
        ranked = sorted(((n, c) for c, n in counts.items()), reverse=True)  # most common first; ties by colour
        fixed = set(want)
        twins = _Twins()
        for c in want:
            twins.add(c)
        for n, c in ranked:
            if n < EXACT_MIN_PIXELS or len(want) >= EXACT_MAX:
                break
            # a near twin of a kept colour (an anti-aliasing step next to a fill) would take that
            # colour's cache cell; it is left to the blends
            if c not in fixed and not twins.near(c):
                fixed.add(c)
                twins.add(c)
                want.append(c)
        rest = [(n, c) for n, c in ranked if c not in fixed]
        room = 256 - len(want)
        if len(rest) <= room:
            extra = [c for _, c in rest]
        elif room <= 0:
            extra = []
        else:
            blob = b"".join(bytes(c) * n for n, c in rest)
            blends = Image.frombytes("RGB", (len(blob) // 3, 1), blob)
            octree = blends.quantize(room, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            used = {i for _, i in (octree.getcolors(256) or [])}
            allc = palette_colours(octree)
            extra = [allc[i] for i in sorted(used) if i < len(allc)]
    kept = set(want)
    entries = (want + [c for c in extra if c not in kept])[:256] or [(0, 0, 0)]
    n_exact = len(want)
    pal = _palette_image(entries)
    if n_exact:
        probe = _strip(want)
        given_up: set[int] = set()   # kept colours that lost their cell to an earlier (more common) one
        for _ in range(8):
            got = probe.quantize(palette=pal, dither=Image.Dither.NONE).tobytes()
            cur = palette_colours(pal)
            changed = False
            for i, j in enumerate(got):
                if i in given_up or cur[j] == want[i]:
                    continue
                if j < i:
                    given_up.add(i)        # an earlier entry is nearer the cell: keep that one
                    continue
                cur[j] = want[i]           # a later entry steals the cell: drop that entry
                if j < n_exact:
                    given_up.add(j)
                changed = True
            if not changed:
                break
            pal = _palette_image(cur)
    return pal


_SHAPES_MAX = 600
_SHAPE_AREA = 40_000      # larger boxes are drawn directly (few, and rarely the same twice)


_palettes: dict = {}
_palettes_lock = threading.Lock()


def specimen_palette(key, specimens, exact: Iterable = ()) -> Image.Image:
    """A palette computed once per ``key`` from the pictures ``specimens()`` draws (every flat colour kept,
    the ``exact`` ones first) and then shared: a picture kind whose colours do not depend on its view maps
    every frame onto it instead of computing one per frame."""
    with _palettes_lock:
        hit = _palettes.get(key)
    if hit is not None:
        return hit
    counts: dict = {}
    for img in specimens():
        for c, n in (colour_counts(img.convert("RGB")) or {}).items():
            counts[c] = counts.get(c, 0) + n
    pal = build_palette(exact=list(exact), counts=counts)
    with _palettes_lock:
        if len(_palettes) > 64:
            _palettes.clear()
        _palettes[key] = pal
    return pal


def clear_palettes() -> None:
    with _palettes_lock:
        _palettes.clear()


def rounded(d: ImageDraw.ImageDraw, box, radius: float = 0, fill=None, outline=None, width: int = 1) -> None:
    """``d.rounded_rectangle`` that takes any radius (one reaching half the box, a pill, is kept a pixel short
    of it, where Pillow's corner arithmetic can fail on fractional coordinates), and draws a shape it drew
    before by pasting it: chips, pills and badges come back every turn, and Pillow draws a rounded corner
    slowly.  The shapes are memoised per thread, keyed by size, radius, colours and the box's fraction of a
    pixel, so the pixels are those of ``rounded_rectangle``."""
    x0, y0, x1, y1 = (float(v) for v in box)
    radius = max(0.0, min(float(radius), (x1 - x0) / 2 - 1, (y1 - y0) / 2 - 1))
    im = getattr(d, "_image", None)
    w, h = x1 - x0, y1 - y0
    if im is None or im.mode != "RGB" or w * h > _SHAPE_AREA or w <= 0 or h <= 0:
        d.rounded_rectangle([x0, y0, x1, y1], radius=radius, fill=fill, outline=outline, width=width)
        return
    # a quarter of a pixel is as fine as the memo tells shapes apart (the pixels differ by less than that)
    x0, y0, w, h, radius = (round(v * 4) / 4 for v in (x0, y0, w, h, radius))
    ix, iy = math.floor(x0), math.floor(y0)
    fx, fy = x0 - ix, y0 - iy
    shapes = getattr(_local, "shapes", None)
    if shapes is None or len(shapes) > _SHAPES_MAX:
        shapes = _local.shapes = {}
    key = (fx, fy, w, h, radius, fill, outline, width)
    hit = shapes.get(key)
    if hit is None:
        tile = Image.new("RGBA", (int(math.ceil(fx + w)) + 2, int(math.ceil(fy + h)) + 2), (0, 0, 0, 0))
        ImageDraw.Draw(tile).rounded_rectangle([fx, fy, fx + w, fy + h], radius=radius, fill=fill, outline=outline,
                                               width=width)
        hit = shapes[key] = (tile.convert("RGB"), tile.getchannel("A"))
    im.paste(hit[0], (ix, iy), hit[1])


def as_list(x) -> list:
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    if isinstance(x, Iterable):
        return list(x)
    return [x]
