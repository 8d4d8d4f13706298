"""The engage picture as a player on a phone sees it (shown 400 px wide): the hex labels used in commands, the unit
ids, the lines saying what just happened and the roster of wounds and states stay at least 10 px tall; the engage
is drawn (declared path, where the unit went, the interceptor's offer, a unit making room).

``python tests/test_engage_render.py`` writes docs/images/engage-map.png (the README's picture).
"""
from __future__ import annotations

import io
import sys

from PIL import Image

sys.path.insert(0, __import__("os").path.dirname(__file__))

from engage_helpers import PACK, battle, run  # noqa: E402
from render import engage as R  # noqa: E402
from render import render  # noqa: E402
from rulesets.engage.present.view import map_view  # noqa: E402

PHONE_W = 400
MIN_PX = 10.0


def names(uid: str) -> str:
    return {"lena": "Lena", "bob": "Bob"}.get(uid, uid)


def pending_view() -> dict:
    """Bob's Wraith engages out of sight; Lena's Bog Strider may intercept (the question is open)."""
    g = battle({"a1": ("reed-spear", "3,4"), "a2": ("bog-strider", "0,6"), "a3": ("hedge-witch", "2,1"),
                "b1": ("gallows-wraith", "3,9"), "b2": ("mire-hulk", "1,9")}, player="bob", number=4, spare=False,
               conditions={"a3": {"dazed": 5}})
    s = run(g, "mini.engage", {"unit": "b1", "target": "a1"}, dice=[17]).state
    return map_view(s, PACK, names)


def room_view() -> dict:
    """A Roof Cutter jumps from the bell-tower roof onto the walk, where its target makes room: a Jump Attack."""
    g = battle({"a1": ("roof-cutter", "6,4"), "a2": ("reed-spear", "5,4"), "b1": ("reed-spear", "6,3"),
                "b2": ("lantern-bow", "4,9")}, spare=False)
    s = run(g, "mini.engage", {"unit": "a1", "target": "b1", "jump": True}, dice=[4]).state
    return map_view(s, PACK, names)


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _ink_rows(img: Image.Image, box, is_ink) -> int:
    crop = img.crop(tuple(int(v) for v in box))
    w, h = crop.size
    px = crop.load()
    rows = [y for y in range(h) if any(is_ink(px[x, y]) for x in range(w))]
    return (rows[-1] - rows[0] + 1) if rows else 0


def _head(view) -> float:
    width = int(R.W * 9.5 + 2 * R.M) - 2 * R.M
    lines = [w for line in view["lines"] for w in R.wrap(line, R.font(R.LABEL_PX, True), width, 2)]
    return 64 + R.LINE_H * len(lines) + (10 if lines else 0)


def test_hex_labels_and_unit_ids_are_readable_on_a_phone():
    view = pending_view()
    img = _open(render("engage", view))
    scale = PHONE_W / img.size[0]
    assert 850 <= img.size[0] <= 950
    geo = R._Geo(view["cells"], _head(view))
    taken = {(u["q"], u["r"]) for u in view["units"] if u["q"] is not None}
    offers = {tuple(o["to"]) for o in view["offers"]}
    path = {tuple(p) for p in view["engage"]["path"]}
    checked = 0
    for c in view["cells"]:
        key = (c["q"], c["r"])
        if c["wall"] or key in taken or key in offers or key in path:
            continue
        cx, cy = geo.centre(*key)
        base = cy + R.S * 0.42
        box = (cx - R.W * 0.45, base - R.S * 0.62, cx + R.W * 0.45, base)
        height = _ink_rows(img, box, lambda p: sum(p) < 330)
        assert height * scale >= MIN_PX, (key, height * scale)
        checked += 1
    assert checked > 60
    for u in view["units"]:
        if u["q"] is None:
            continue
        cx, cy = geo.centre(u["q"], u["r"])
        box = (cx - R.S * 0.5, cy - R.S * 0.4, cx + R.S * 0.5, cy + R.S * 0.3)
        height = _ink_rows(img, box, lambda p: min(p) > 235)
        assert height * scale >= MIN_PX, (u["id"], height * scale)


def test_the_lines_and_the_roster_are_readable_on_a_phone():
    view = pending_view()
    img = _open(render("engage", view))
    scale = PHONE_W / img.size[0]
    assert view["lines"][0] == "b1 Gallows Wraith engages a1"
    assert view["lines"][-1] == "In reach: the other player may intercept"
    for i in range(len(view["lines"])):
        y = 64 + R.LINE_H * i
        height = _ink_rows(img, (R.M, y + 4, img.size[0] - R.M, y + R.LINE_H - 4), lambda p: sum(p) < 200)
        assert height * scale >= MIN_PX, (i, height * scale)
    # the roster: one line a unit at the bottom, its wounds and every state in words
    states = {u["id"]: u["states"] for u in view["units"]}
    assert states["a3"] == ["Dazed"] and states["b1"] == ["tried to engage"]
    rows = [(u, i) for u in view["units"] for i in range(1)]
    bottom = img.size[1] - 16 - R.LINE_H * len(rows)
    for k in range(len(rows)):
        y = bottom + R.LINE_H * k
        height = _ink_rows(img, (R.M + 36, y + 4, img.size[0] - R.M, y + R.LINE_H - 2), lambda p: sum(p) < 330)
        assert height * scale >= MIN_PX, (k, height * scale)


def test_the_engage_is_drawn():
    view = room_view()
    assert view["engage"]["shuffle"] == {"unit": "b1", "from": [6, 3], "to": [6, 2]}
    assert "b1 makes room: 6,3 to 6,2" in view["lines"] and "Jump Attack: Advantage this turn" in view["lines"]
    with_engage = _open(render("engage", view))
    bare = _open(render("engage", dict(view, engage=None)))
    assert with_engage.size == bare.size
    geo = R._Geo(view["cells"], _head(view))
    # the arrow from the roof (6,4) down to the walk (6,3) differs between the two pictures
    a, b = geo.centre(6, 4), geo.centre(6, 3)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    box = (int(mid[0] - 6), int(mid[1] - 6), int(mid[0] + 6), int(mid[1] + 6))
    assert with_engage.crop(box).tobytes() != bare.crop(box).tobytes()
    # and the pending question's offer is numbered on the map
    pv = pending_view()
    assert pv["offers"] == [{"n": 1, "unit": "a2", "from": [0, 6], "to": [1, 6]}]
    assert len(render("engage", pv)) < 400 * 1024


if __name__ == "__main__":  # refresh docs/images/engage-map.png
    out = sys.argv[1] if len(sys.argv) > 1 else "docs/images/engage-map.png"
    with open(out, "wb") as fh:
        fh.write(render("engage", room_view()))
    print(f"written {out}")
