"""Every picture kind read on a phone: Discord shows a picture about 400 px wide, and every label a player
needs must then be at least 10 px tall.

The measurement is taken from what is really drawn: while a picture renders, every text Pillow rasterises
(``FreeTypeFont.getmask2``, which ``ImageDraw.text`` and the renderers' memoised ``draw_text`` both call) is
recorded with its font's pixel size and the height of its ink; the PNG's width gives the scale.  Each
picture is rendered cold (empty caches, a fresh worker thread), so the static layers' labels are drawn and
measured too.
"""
from __future__ import annotations

import io
import threading

import pytest
from PIL import Image, ImageFont

import render
from render import common
from picture_views import every_picture

PHONE_W = 400
MIN_PX = 10


def measure(kind: str, view: dict, monkeypatch) -> tuple[int, list[tuple[float, float, str]]]:
    """Render ``kind`` cold; returns the picture's width and (font px, ink px, text) of every text drawn."""
    seen: list[tuple[float, float, str]] = []
    real = ImageFont.FreeTypeFont.getmask2

    def spy(self, text, *args, **kwargs):
        out = real(self, text, *args, **kwargs)
        mask = out[0]
        seen.append((float(self.size), float(mask.size[1]), str(text)))
        return out

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", spy)
    render.clear_caches()
    box: dict = {}

    def work():  # a fresh thread: its memoised text masks start empty
        box["png"] = render.render(kind, view)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    monkeypatch.undo()
    img = Image.open(io.BytesIO(box["png"]))
    return img.size[0], seen


PICTURES = every_picture()


def test_every_picture_kind_is_measured():
    assert {kind for _name, kind, _view in PICTURES} == set(render.KINDS)


@pytest.mark.parametrize("name,kind,view", PICTURES, ids=[p[0] for p in PICTURES])
def test_no_text_is_smaller_than_a_phone_reads(name, kind, view, monkeypatch):
    width, seen = measure(kind, view, monkeypatch)
    drawn = [(px, ink, text) for px, ink, text in seen if text.strip()]
    assert drawn, f"{name}: no text measured"
    scale = PHONE_W / width
    smallest = min(drawn)
    too_small = sorted({(round(px * scale, 1), text) for px, _ink, text in drawn if px * scale < MIN_PX})
    assert not too_small, f"{name} ({width} px wide): text under {MIN_PX} px at {PHONE_W} px wide: {too_small[:12]}"
    # the ink agrees: a line with a capital or a digit stands at least 7 px tall (the cap height of 10 px type)
    tall = [(ink * scale, text) for px, ink, text in drawn if any(c.isupper() or c.isdigit() for c in text)]
    assert min(tall)[0] >= 7, (name, min(tall))
    print(f"{name}: {width} px wide, smallest text {smallest[0] * scale:.1f} px at {PHONE_W} px ({smallest[2]!r})")


def test_the_measurement_catches_small_text(monkeypatch):
    """A text drawn too small is seen: the check is not vacuous."""
    from PIL import ImageDraw

    def tiny(view):
        img = Image.new("RGB", (1000, 200), "white")
        ImageDraw.Draw(img).text((10, 10), "2,-1", font=common.font(14), fill="black")
        return common.encode_png(img)

    monkeypatch.setitem(render.KINDS, "tiny", tiny)
    width, seen = measure("tiny", {}, monkeypatch)
    assert width == 1000 and [(px, text) for px, _, text in seen] == [(14.0, "2,-1")]
    assert 14 * PHONE_W / width < MIN_PX
