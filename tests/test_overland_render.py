"""The overland map picture as a phone shows it (about 400 px wide): hex labels, town names, the day, the gauge
and the legend stay readable; the party token, the route and the tokens are drawn.

``python tests/test_overland_render.py`` writes docs/images/overland-example.png (the README shows it).
"""
from __future__ import annotations

import io
import os

from PIL import Image

from day_helpers import RYAN, SHANNON, day_two, run, stack
from render import overland
from render.overland import COORD, LABEL, W

DOCS_IMAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "images",
                          "overland-example.png")
PHONE_W = 400
MIN_DIGITS_PX = 7.0  # the battle map's test: digit ink at least this tall once shrunk to a phone's width


def example_state():
    """Day 2 of the rulebook's example on our province: the route to the Weir Stones just travelled."""
    s = day_two()
    s = stack(s, "sm-p01")
    s, _ = run(s, "day.route", RYAN, {"to": [3, 3]})
    s, _ = run(s, "day.vote", SHANNON, {}, forced=[6])
    s.days.tokens[0].path = [[1, 3], [2, 3]]  # the lantern's last move, to show a token's path
    s.days.tokens[0].q, s.days.tokens[0].r = 2, 3
    return s


def example_view():
    from rulesets.tes.content import load_pack
    from rulesets.tes.present.day_view import overland_view

    s = example_state()
    return overland_view(s, load_pack(s.pack, version=s.pack_version))


def _img(view) -> Image.Image:
    return Image.open(io.BytesIO(overland.render_overland(view))).convert("RGB")


def test_labels_are_drawn_at_least_10_px_on_a_phone():
    assert LABEL * PHONE_W / W >= 10  # hex labels, town names, legend, gauge and log: 28 px of 1100
    img = _img(example_view())
    assert img.size[0] == W and img.size[1] < 2200


def test_hex_labels_are_readable_on_a_phone():
    view = example_view()
    img = _img(view)
    lay = overland._Layout(view["hexes"])
    s, scale = lay.s, PHONE_W / img.size[0]
    checked = 0
    for h in view["hexes"]:
        cx, cy = lay.centre(h["q"], h["r"])
        cy += overland.HEADER_H
        top = cy - s * 0.5
        box = (int(cx - s * 0.45), int(top), int(cx + s * 0.45), int(top + COORD * 0.8))
        crop = img.crop(box)
        bg = tuple(int(x) for x in overland._rgb(h["color"]))
        rows = [y for y in range(crop.size[1])
                if any(sum(abs(a - b) for a, b in zip(crop.getpixel((x, y)), bg)) > 150 for x in range(crop.size[0]))]
        height = (rows[-1] - rows[0] + 1) if rows else 0
        assert height * scale >= MIN_DIGITS_PX, ((h["q"], h["r"]), height * scale)
        checked += 1
    assert checked >= 60


def test_the_party_the_route_and_the_tokens_are_drawn():
    view = example_view()
    img = _img(view)
    lay = overland._Layout(view["hexes"])
    x, y = lay.centre(3, 3)
    party = img.getpixel((int(x - lay.s * 0.36), int(y + overland.HEADER_H + lay.s * 0.24 + lay.s * 0.18)))
    assert _near(party, overland.PARTY)
    mid = [(a + b) / 2 for a, b in zip(lay.centre(3, 5), lay.centre(3, 4))]
    mid[1] += lay.s * 0.22  # routes run below the hex labels
    assert _near(img.getpixel((int(mid[0]), int(mid[1] + overland.HEADER_H))), overland.ROUTE)
    # without a route the same spot is terrain
    quiet = dict(view, route=[])
    assert not _near(_img(quiet).getpixel((int(mid[0]), int(mid[1] + overland.HEADER_H))), overland.ROUTE)


def _near(a, b, tol: int = 6) -> bool:
    return all(abs(int(x) - int(y)) <= tol for x, y in zip(a, b))  # the PNG palette rounds colours a little


def test_the_picture_changes_with_the_gauge_and_the_day():
    view = example_view()
    a = _img(view)
    b = _img(dict(view, gauge=dict(view["gauge"], at="flood"), day=7))
    assert a.tobytes() != b.tobytes()


def test_the_documentation_picture_is_shipped():
    assert os.path.exists(DOCS_IMAGE)


if __name__ == "__main__":  # refresh docs/images/overland-example.png
    import sys

    with open(sys.argv[1] if len(sys.argv) > 1 else DOCS_IMAGE, "wb") as fh:
        fh.write(overland.render_overland(example_view()))
