"""The delve's and the dungeon's map pictures, as a phone shows them (about 400 px wide): every hex label at least
10 px tall, the part around the action shown with an overview of every placed tile, the cards beside their
tiles, the static layer drawn again only when a tile is placed; the picture of a revealed tile's placements.
``python tests/picture_views.py`` writes docs/images/map-delve.png with the other pictures."""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from delve_helpers import PACK, grown_delve

from render import battlemap as bm
from render import delve as rd
from rulesets.tes.present.battle import map_picture
from rulesets.tes.present.delve_view import placements_view

PHONE_W = 400
MIN_LABEL_INK = 7.0  # the ink of 10 px tall digits on a 400 px wide screen (as tests/test_render.py measures)


def view_of(s, **kw):
    pic = map_picture(s, PACK, "x.png", **kw)
    assert pic.kind == "delvemap"
    return pic.view


def _open(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def _ink_rows(img: Image.Image, box, is_ink) -> int:
    crop = img.crop(box)
    w, h = crop.size
    px = crop.load()
    rows = [y for y in range(h) if any(is_ink(px[x, y]) for x in range(w))]
    return (rows[-1] - rows[0] + 1) if rows else 0


def test_a_grown_delve_keeps_every_hex_label_readable_on_a_phone():
    s = grown_delve(8)
    assert len(s.battle.delve.numbers) >= 8
    rd.clear_cache()
    view = view_of(s)
    img = _open(rd.render_delve_map(view))
    assert img.width == rd.W
    scale = PHONE_W / img.width
    st = rd._static(rd.printable_view(view))
    s_ = st.full.s
    occupied = {(u["q"], u["r"]) for u in view["units"] if u.get("q") is not None}
    shown = rd.shown_hexes(view)
    assert len(shown) >= 20
    checked = 0
    for h in view["hexes"]:
        qr = (h["q"], h["r"])
        if qr not in shown or qr in occupied or h.get("impassable"):
            continue
        at = rd.picture_centre(view, *qr)
        cx, cy = at
        base = cy - s_ * bm.COORD_Y + 1  # the label's baseline (as the battle map draws it)
        box = (int(cx - s_ * 0.5), int(base - s_ * 0.45), int(cx + s_ * 0.5), int(base))
        height = _ink_rows(img, box, lambda p: sum(p) < 200)
        assert height * scale >= MIN_LABEL_INK, (qr, height * scale)
        checked += 1
    assert checked >= 15
    # the font itself is at least 10 px at the phone's width
    assert rd.label_px() * scale >= 10


def test_the_whole_map_is_shown_small_when_it_does_not_fit_and_the_focus_moves_the_window():
    s = grown_delve(10)
    view = view_of(s)
    st = rd._static(rd.printable_view(view))
    if st.overview is None:  # this delve happens to fit one picture
        assert rd.shown_hexes(view) == {(h["q"], h["r"]) for h in view["hexes"]}
        return
    a = rd.window(view, st)
    far = max(view["hexes"], key=lambda h: abs(h["q"] - view["units"][0]["q"]) + abs(h["r"] - view["units"][0]["r"]))
    moved = view_of(s, focus=[far["q"], far["r"]])
    b = rd.window(moved, st)
    cx, cy = st.full.centre(far["q"], far["r"])
    assert a != b and b[0] <= cx <= b[2] and b[1] <= cy <= b[3]
    img = _open(rd.render_delve_map(view))
    assert rd.inset_box(st) is not None and img.height > 1000


def test_the_static_layer_is_drawn_again_only_when_a_tile_is_placed():
    from battle_helpers import ctx
    from rulesets.tes.battle import delve as dv

    s = grown_delve(4)
    rd.clear_cache()
    rd.render_delve_map(view_of(s))
    assert rd.cache_info()["misses"] == 1
    u = s.battle.units["a:R"]
    u.q, u.r = 0, 2  # a unit moves: same map
    rd.render_delve_map(view_of(s))
    s.battle.delve.gained += 1  # a skyshard is gained: same map
    rd.render_delve_map(view_of(s))
    assert rd.cache_info() == {"hits": 2, "misses": 1, "size": 1}
    c = ctx(s)
    s.battle.delve.required = 9
    open_ = dv.explorable(c)
    dv.start_exploration(c, "S", open_[0], "explores", 0, False)
    while s.battle.choices:
        dv.choose(c, s.battle.choices[0].owner, 1)
    if s.battle.delve.exploring is not None:
        dv.choose_place(c, "S", None)
    rd.render_delve_map(view_of(s))
    assert rd.cache_info()["misses"] == 2


def test_cards_beside_their_tiles_and_explorable_doors_are_in_the_view_and_the_picture():
    s = grown_delve(8)
    view = view_of(s)
    dv_ = view["delve"]
    assert dv_["kind"] == "delve" and len(dv_["tiles"]) == len(s.battle.delve.numbers)
    states = {d["state"] for d in dv_["doors"]}
    assert "explored" in states
    kept = s.battle.delve.cards
    assert [c["tile"] for c in dv_["cards"]] == list(kept)
    lines = [t for t, _ in rd._panel_lines(view)]
    assert lines[0].startswith("Skyshards gained:")
    for c in dv_["cards"]:  # traps and environments each have a line; skyshards are counted in the tally
        if any(p["kind"] != "skyshard" for p in c["parts"]):
            assert any(line.startswith(f"T{c['no']} {c['name']}") for line in lines)
    rows, _ = rd._panel(view)  # the picture shows at most PANEL_ROWS of them, then points at /battle status
    assert len(rows) <= rd.PANEL_ROWS
    if len(lines) > rd.PANEL_ROWS:
        assert rows[-1][0][0].startswith("and ") and rows[-1][0][0].endswith("/battle status")


def test_the_placements_picture_numbers_each_legal_placement():
    from battle_helpers import run
    from delve_helpers import delve, on_top

    s, _ = delve(hexes={"S": "1,0", "R": "1,1"})
    on_top(s, "forgotten-storeroom")
    s, _ = run(s, "battle.explore", "S", {})
    n = len(s.battle.delve.exploring.options)
    seen = []
    for page in range(-(-n // 8)):  # pages of at most 8 placements (issue 26 item 11: a phone's picture)
        view = placements_view(s, PACK, page)
        seen += [o["n"] for o in view["options"]]
        assert len(view["options"]) <= 8
        img = _open(rd.render_placements(view))
        k = len(view["options"])
        assert img.width == rd.W and img.height > 80 + (k + 1) // 2 * 300 and img.height <= 80 + 5 * 300 + 400
    assert seen == list(range(1, n + 1))
    default = placements_view(s, PACK)  # the first picture is the page of the suggested placement
    assert sum(o["default"] for o in default["options"]) == 1


def test_a_dungeon_map_shows_its_cages():
    from battle_helpers import party, run

    s = party()
    s, _ = run(s, "battle.start", "S", {"encounter": "gaol-riot", "session": 1})
    view = view_of(s)
    assert view["delve"]["kind"] == "dungeon" and len(view["delve"]["stars"]) == 5
    caged = [u for u in view["units"] if u["side"] == "captive"]
    assert caged and all(u["label"].endswith("(caged)") for u in caged)
    img = _open(rd.render_delve_map(view))
    assert img.width == rd.W


def test_the_picture_follows_the_battle_map_the_delve_under_the_map_then_what_happened_who_is_who_and_the_key():
    s = grown_delve(8)
    view = view_of(s)
    img, _palette = rd.draw_delve_map(view)
    parts = img.info["parts"]
    order = [parts[k] for k in ("map", "panel", "caption", "roster", "legend")]
    assert all(a[1] <= b[0] for a, b in zip(order, order[1:])) and order[-1][1] == img.height
    assert all(hi - lo > 40 for lo, hi in order), parts
    # who is who names every unit with its hex and HP, even those outside the part of the map shown
    placed, _h = bm._roster_layout(view["units"], rd.W, rd.U)
    words = [" ".join(lines) for _u, _y, lines in placed]
    assert len(words) == len(view["units"])
    for u in view["units"]:
        if u.get("q") is not None and not u.get("defeated"):
            assert any(f"{u['q']},{u['r']} · {u['hp']}/{u['max_hp']} HP" in w for w in words), u
    # the key: the battle map's marks and the delve's own
    labels = [label for label, _draw, _w in rd.legend_items(dungeon=False)]
    assert {"adventurer", "enemy", "whose turn", "HP", "cache", "door", "door you may explore", "trap",
            "environment"} <= set(labels) and not {"escape", "enemy slot"} & set(labels)
    dungeon = [label for label, _draw, _w in rd.legend_items(dungeon=True)]
    assert {"star hex", "lettered hex", "caged (no HP yet)", "enemy slot"} <= set(dungeon)


def test_a_delve_that_ended_is_pictured_as_its_map_with_the_result():
    from picture_views import delve_end_view

    view = delve_end_view()
    assert view["result"] == "victory" and view["round"] is None
    assert all(d["state"] != "explorable" for d in view["delve"]["doors"])  # nothing is explorable any more
    lines = [t for t, _ in rd._panel_lines(view)]
    assert lines[0] == f"Skyshards gained: {view['delve']['skyshards']['gained']}/" \
                       f"{view['delve']['skyshards']['required']}"
    img = _open(rd.render_delve_map(view))
    assert img.width == rd.W
    # the header's badge says it: the VICTORY green is in the header band
    band = img.crop((rd.W // 2, 0, rd.W, bm.HEADER_H - 6))
    assert bm.RESULT_COLOURS["victory"] in {c for _n, c in band.getcolors(1 << 16)}


def test_caged_units_are_named_in_who_is_who_without_hp():
    from battle_helpers import party, run

    s = party()
    s, _ = run(s, "battle.start", "S", {"encounter": "gaol-riot", "session": 1})
    view = view_of(s)
    caged = [u for u in view["units"] if u["side"] == "captive"]
    for u in caged:
        text = bm._roster_text(u)
        assert text.endswith(f"{u['q']},{u['r']} · no HP until freed") and " HP ·" not in text, text


if __name__ == "__main__":  # docs/images/map-delve.png is written with every other picture
    raise SystemExit("python tests/picture_views.py writes docs/images (map-delve.png among them)")
