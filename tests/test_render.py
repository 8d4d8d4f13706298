"""Pictures: mats, battle maps and dice rolls render to legible, deterministic, reasonably small PNGs."""
from __future__ import annotations

import copy
import io
import os

import pytest
from PIL import Image, ImageChops, ImageStat

import render
from render import battlemap, common, dice, mat
from render.samples import battle_mat_view, example_map_view, example_mat_view, example_roll_view, write_examples

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SIZE_BUDGET = 400 * 1024
DOCS_IMAGES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "images")


def _open(data: bytes) -> Image.Image:
    assert data[:8] == PNG_SIGNATURE
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _close(a, b, tol: int = 40) -> bool:
    return all(abs(int(x) - int(y)) <= tol for x, y in zip(a, b))


def _region_differs(a: Image.Image, b: Image.Image, box, tol: int = 32) -> bool:
    """True when some pixel in ``box`` changed by more than ``tol`` in a channel.

    The tolerance absorbs the small palette shifts of the 256-colour encoding; a real change of what
    is drawn (a number, a token, a colour) moves pixels far more than that.
    """
    diff = ImageChops.difference(a.crop(box), b.crop(box))
    return max(hi for lo, hi in diff.getextrema()) > tol


def _pixels(img: Image.Image):
    flat = getattr(img, "get_flattened_data", None)
    return list(flat()) if flat else list(img.getdata())


def _check_png(data: bytes, min_w: int, max_w: int, min_h: int, max_h: int) -> Image.Image:
    img = _open(data)
    w, h = img.size
    assert min_w <= w <= max_w, img.size
    assert min_h <= h <= max_h, img.size
    assert len(data) < SIZE_BUDGET, len(data)
    return img


# --- mat ---------------------------------------------------------------------------------------

def test_mat_renders_a_midbattle_mat():
    view = battle_mat_view()
    data = mat.render_mat(view)
    img = _check_png(data, 800, 1000, 1200, 3200)
    assert mat.render_mat(copy.deepcopy(view)) == data  # deterministic
    assert render.render("mat", view) == data
    # the header's HP block is health-red
    w = img.size[0]
    hp_box = img.crop((w - 360, 30, w - 20, 100))
    reds = [p for p in _pixels(hp_box) if _close(p, common.STAT_COLOURS["health"], 30)]
    assert len(reds) > 500


def test_mat_hp_change_changes_the_hp_block_only():
    a = example_mat_view()
    b = copy.deepcopy(a)
    b["hp"] = 2
    ia, ib = _open(mat.render_mat(a)), _open(mat.render_mat(b))
    assert ia.size == ib.size
    w = ia.size[0]
    assert _region_differs(ia, ib, (w - 300, 0, w, 104))        # HP block in the header
    assert not _region_differs(ia, ib, (0, 110, w, ia.size[1]))  # nothing below the header moved


def test_mat_sections_are_drawn_once_and_reused():
    """The mat's static layer: a section whose content did not change is pasted from the cache."""
    mat.clear_cache()
    a = battle_mat_view()
    first = mat.render_mat(a)
    drawn = mat.cache_info()["misses"]
    b = copy.deepcopy(a)
    b["hp"], b["tenacity"] = 1, 4                     # the header and the active slots' panel change
    mat.render_mat(b)
    info = mat.cache_info()
    assert info["misses"] == drawn + 2 and info["hits"] >= len(mat.sections(a)) - 2
    assert mat.render_mat(a) == first
    c = copy.deepcopy(a)
    c["rows"][3]["squares"][1]["where"] = "cooldown"  # a die leaves row 4: that row alone is drawn again
    before = mat.cache_info()["misses"]
    mat.render_mat(c)
    assert mat.cache_info()["misses"] == before + 1


def test_mat_die_leaving_its_row_is_drawn_hollow():
    a = example_mat_view()
    b = copy.deepcopy(a)
    b["rows"][3]["squares"][0]["where"] = "cooldown"
    b["cooldown"]["dice"] = [{"kind": "skill", "label": "Force Shock", "short": "FS", "line": "destruction-staff",
                              "constellation": "mage", "level": 1}]
    ia, ib = _open(mat.render_mat(a)), _open(mat.render_mat(b))
    rows_y, rows = next((y, img) for name, y, img in mat.sections(a) if name == "row-3")
    x, y, _size = rows.info["squares"][(3, 0)]
    px = (int(x + 12), int(rows_y + y + 12))  # near the square's top-left corner, clear of the label
    mage = common.constellation_colour("mage")
    assert _close(ia.getpixel(px), mage, 30)              # solid die in its row
    assert not _close(ib.getpixel(px), mage, 60)          # hollow (light) once it is on the cooldown track
    assert _region_differs(ia, ib, (0, 0, ia.size[0], ia.size[1]))


def test_mat_handles_sparse_and_overlong_views():
    view = {"name": "X" * 80, "race": {"name": "Nord", "ability_text": "word " * 300}, "rows": [],
            "class": {"name": "Knight", "side": "master", "abilities": [
                {"name": "A" * 60, "cost": 1, "keyword": "enduring", "form": "heavy", "text": "long " * 200}] * 12},
            "ready": [{"name": "Thing " * 10, "subtype": "weapon", "text": "t " * 100, "expended": True}] * 6,
            "pack": [{"name": f"Item {i}", "subtype": "misc"} for i in range(12)],
            "cooldown": {"size": 13, "stat": 9, "stat_slots": ["1", "2", "x"], "dice": [{"kind": "fatigue"}] * 15},
            "active": [{"label": "L" * 40, "icon": "weird-icon", "value": 12, "owner": "O" * 30}] * 6,
            "drained": [{"label": f"Die {i}", "short": f"D{i}"} for i in range(12)]}
    img = _check_png(mat.render_mat(view), 800, 1000, 800, 4000)
    assert img.size[0] == mat.W
    _check_png(mat.render_mat({}), 800, 1000, 800, 4000)
    sheet = _check_png(mat.render_sheet(view), 800, 1000, 800, 12000)
    assert sheet.size[0] == mat.W
    _check_png(mat.render_sheet({}), 800, 1000, 200, 4000)


# --- map ---------------------------------------------------------------------------------------

def _unit_token_pixel(view, unit_id):
    """A pixel of the unit's chip above its letters (the chip's own colour)."""
    lay = battlemap._Layout([h for h in view["hexes"]])
    u = next(u for u in view["units"] if u["id"] == unit_id)
    x, y = battlemap.chip_centre(lay, u["q"], u["r"])
    return int(x), int(y - battlemap.chip_height(lay) * 0.38), lay


def test_map_renders_a_full_battle():
    view = example_map_view()
    assert len(view["units"]) == 10 and view["fatigue_round"] and view["path"] and view["engage"]
    data = battlemap.render_map(view)
    img = _check_png(data, 1000, 1400, 700, 2200)
    assert battlemap.render_map(copy.deepcopy(view)) == data
    assert render.render("map", view) == data
    # the FATIGUE ROUND banner is red in the header's right corner
    w = img.size[0]
    banner = img.crop((w - 250, 15, w - 20, 55))
    assert sum(1 for p in _pixels(banner) if _close(p, (210, 40, 30), 30)) > 1000
    # each living unit's token is drawn in its side's colour at its hex
    for u in view["units"]:
        if u["defeated"]:
            continue
        x, y, _ = _unit_token_pixel(view, u["id"])
        assert _close(img.getpixel((x, y)), battlemap.SIDE_COLOURS[u["side"]], 40), (u["id"], img.getpixel((x, y)))


def test_map_moved_unit_changes_both_hexes():
    a = example_map_view()
    b = copy.deepcopy(a)
    unit = next(u for u in b["units"] if u["id"] == "a2")
    old = (unit["q"], unit["r"])
    unit["q"], unit["r"] = 0, 2  # an empty hex
    ia, ib = _open(battlemap.render_map(a)), _open(battlemap.render_map(b))
    x_old, y_old, lay = _unit_token_pixel(a, "a2")
    x_new, y_new, _ = _unit_token_pixel(b, "a2")
    blue = battlemap.SIDE_COLOURS["adventurer"]
    assert _close(ia.getpixel((x_old, y_old)), blue) and not _close(ib.getpixel((x_old, y_old)), blue)
    assert not _close(ia.getpixel((x_new, y_new)), blue) and _close(ib.getpixel((x_new, y_new)), blue)
    assert old != (0, 2)


def test_map_hp_change_recolours_the_hp_pill():
    a = example_map_view()
    b = copy.deepcopy(a)
    next(u for u in b["units"] if u["id"] == "a2")["hp"] = 1
    ia, ib = _open(battlemap.render_map(a)), _open(battlemap.render_map(b))
    x, y, lay = _unit_token_pixel(a, "a2")
    R = lay.s * 0.3
    pill_y = int(lay.centre(1, 0)[1] + battlemap.HEADER_H + lay.s * battlemap.PILL_DY)
    box = (int(x - R), pill_y - 6, int(x + R), pill_y + 6)
    assert _region_differs(ia, ib, box)
    greens = sum(1 for p in _pixels(ia.crop(box)) if _close(p, (40, 140, 60), 30))
    reds = sum(1 for p in _pixels(ib.crop(box)) if _close(p, (190, 30, 30), 30))
    assert greens > 20 and reds > 20


def test_map_static_layer_is_cached_per_version():
    battlemap.clear_cache()
    view = example_map_view()
    battlemap.render_map(view)
    assert battlemap.cache_info()["misses"] == 1 and battlemap.cache_info()["hits"] == 0
    moved = copy.deepcopy(view)
    moved["units"][0]["q"] -= 1
    moved["round"] = 5
    battlemap.render_map(moved)
    assert battlemap.cache_info()["hits"] == 1 and battlemap.cache_info()["misses"] == 1
    other = copy.deepcopy(view)
    other["version"] = "jailbreak-2"
    other["hexes"][0]["impassable"] = True
    battlemap.render_map(other)
    assert battlemap.cache_info()["misses"] == 2


def test_map_second_render_reuses_the_cached_palette(monkeypatch):
    battlemap.clear_cache()
    built = []
    real = battlemap.build_palette
    monkeypatch.setattr(battlemap, "build_palette", lambda *a, **kw: built.append(1) or real(*a, **kw))
    view = example_map_view()
    first = battlemap.render_map(view)
    pal = battlemap._static_layer(view).palette
    moved = copy.deepcopy(view)
    moved["units"][1]["q"], moved["units"][1]["r"] = 0, 2
    moved["units"][5]["statuses"] = ["maim", "stealth"]
    moved["log"].append("Shannon moves 2 hexes.")
    second = battlemap.render_map(moved)
    assert len(built) == 1 and battlemap.cache_info()["palettes"] == 1
    assert battlemap._static_layer(moved).palette is pal
    assert first != second
    pa, pb = Image.open(io.BytesIO(first)), Image.open(io.BytesIO(second))
    assert pa.mode == pb.mode == "P" and pa.getpalette() == pb.getpalette() == pal.getpalette()
    other = copy.deepcopy(view)
    other["version"] = "jailbreak-2"
    battlemap.render_map(other)
    assert len(built) == 2 and battlemap.cache_info()["palettes"] == 2


def test_map_unit_and_badge_colours_are_exact():
    battlemap.clear_cache()
    view = example_map_view()
    img = _open(battlemap.render_map(view))
    # every colour the per-turn layer draws maps to itself through the cached palette
    want = battlemap._dynamic_colours()
    strip = Image.frombytes("RGB", (len(want), 1), b"".join(bytes(c) for c in want))
    got = strip.quantize(palette=battlemap._static_layer(view).palette, dither=Image.Dither.NONE).convert("RGB")
    assert _pixels(got) == want
    for u in view["units"]:
        if u["defeated"]:
            continue
        x, y, lay = _unit_token_pixel(view, u["id"])
        assert img.getpixel((x, y)) == battlemap.SIDE_COLOURS[u["side"]], u["id"]
        # each status's badge: a pill of its colour beside the chip or the HP pill, in the unit's hex
        cx, cy = lay.centre(u["q"], u["r"])
        cy += battlemap.HEADER_H
        box = (int(cx - lay.s), int(cy - lay.s * 0.6), int(cx + lay.s), int(cy + lay.s * 0.8))
        for st in u["statuses"]:
            exact = _count(img, common.status_colour(st), box)
            assert exact > lay.f * lay.f * 0.25, (u["id"], st, exact)  # the rest: letters, outline, an arrow


def test_map_palette_keeps_the_picture(monkeypatch):
    """The PNG differs from the drawn RGB picture only by small anti-aliasing steps."""
    battlemap.clear_cache()
    drawn = {}
    real = battlemap.encode_png

    def keep(img, **kw):
        drawn["rgb"] = img.copy()
        return real(img, **kw)

    monkeypatch.setattr(battlemap, "encode_png", keep)
    view = example_map_view()
    for v in (view, dict(view, log=[], round=12)):
        png = _open(battlemap.render_map(v))
        diff = ImageChops.difference(png, drawn["rgb"])
        mean = sum(ImageStat.Stat(diff).mean) / 3
        assert mean < 0.2, mean
        assert max(hi for lo, hi in diff.getextrema()) < 64


def test_text_measures_are_memoised_safely():
    f = common.font(19)
    assert common.text_width("Round 4 begins", f) == f.getlength("Round 4 begins")
    lines = common.wrap("one two three four five six seven", f, 80)
    lines.append("mutated")
    assert common.wrap("one two three four five six seven", f, 80) == lines[:-1]
    assert common.fit_font("WWWWWW", 40, 30, True) is common.fit_font("WWWWWW", 40, 30, True)


def test_map_fits_any_extent():
    small = {"title": "Tiny", "hexes": [{"q": 0, "r": 0, "tile": "a"}], "units": []}
    img = _check_png(battlemap.render_map(small), 1000, 1400, 200, 2000)
    assert img.size[0] == battlemap.TARGET_W
    big_hexes = [{"q": q, "r": r, "tile": "t"} for q in range(-12, 13) for r in range(-8, 9)]
    big = {"title": "Huge", "round": 1, "hexes": big_hexes,
           "units": [{"id": "x", "label": "Far", "short": "FAR", "side": "enemy", "q": 12, "r": 8, "hp": 1,
                      "max_hp": 1}]}
    data = battlemap.render_map(big)
    img = _open(data)
    lay = battlemap._Layout(big_hexes)
    assert lay.s >= battlemap.MIN_SIZE
    cx, cy = lay.centre(12, 8)
    assert 0 < cx < img.size[0] and 0 < cy + battlemap.HEADER_H < img.size[1]
    assert len(data) < 1024 * 1024
    _check_png(battlemap.render_map({}), 1000, 1400, 100, 2000)


# --- roll --------------------------------------------------------------------------------------

def _roll_header_h(view) -> int:
    w = max(dice.MIN_W, 3 * dice.CELL_W + 2 * dice.M)
    lines, f = dice._title_lines(view["title"], w - 2 * dice.M)
    return max(dice.HEADER_H, int(len(lines) * (f.size + 6) + 22))


def test_roll_renders_six_dice():
    view = example_roll_view()
    assert len(view["dice"]) == 6
    data = dice.render_roll(view)
    img = _check_png(data, 600, 800, 500, 800)
    assert dice.render_roll(copy.deepcopy(view)) == data
    assert render.render("roll", view) == data
    # two rows of three: a resolved mage die is solid blue; the unresolved mage die (last one) is dimmed
    w = img.size[0]
    x0 = (w - 3 * dice.CELL_W) / 2
    top = _roll_header_h(view) + 10
    row_h = dice.DIE + dice.NAME_H + 24
    first = img.getpixel((int(x0 + dice.CELL_W / 2 - dice.DIE / 2 + 8), top + 24))
    last = img.getpixel((int(x0 + 2 * dice.CELL_W + dice.CELL_W / 2 - dice.DIE / 2 + 8), top + row_h + 24))
    mage = common.constellation_colour("mage")
    assert _close(first, mage, 30)
    assert not _close(last, mage, 30) and sum(last) > sum(first) + 150


def test_roll_face_change_changes_that_die_only():
    a = example_roll_view()
    b = copy.deepcopy(a)
    b["dice"][0]["results"] = [{"icon": "damage", "value": 5}]
    ia, ib = _open(dice.render_roll(a)), _open(dice.render_roll(b))
    x0 = (ia.size[0] - 3 * dice.CELL_W) / 2
    top = _roll_header_h(a)
    row_h = dice.DIE + dice.NAME_H + 24
    first = (int(x0), top, int(x0 + dice.CELL_W), top + row_h)
    rest = (int(x0 + dice.CELL_W), top, ia.size[0], ia.size[1])
    assert _region_differs(ia, ib, first) and not _region_differs(ia, ib, rest)


def test_roll_many_dice_wrap_and_unknown_icons():
    view = {"title": "Big roll", "dice": [{"label": f"Die {i}", "short": f"D{i}", "constellation": "warrior",
                                           "level": 3, "results": [{"icon": "zap-bolt", "value": i},
                                                                   {"icon": "heal", "value": 1},
                                                                   {"icon": "move", "value": None}]}
                                          for i in range(9)]}
    img = _check_png(dice.render_roll(view), 600, 1200, 300, 1200)
    assert img.size[1] > _open(dice.render_roll(example_roll_view())).size[1]
    _check_png(dice.render_roll({"dice": []}), 600, 1200, 100, 400)


def test_dispatch_rejects_unknown_kind():
    with pytest.raises(ValueError):
        render.render("portrait", {})


def test_fonts_are_loaded_once_and_shipped():
    assert common.font(20) is common.font(20)
    assert os.path.exists(os.path.join(common.FONT_DIR, "DejaVuSans.ttf"))
    assert common.font(20).getlength("Health") > 40


# --- sample pictures for the docs ---------------------------------------------------------------

def test_sample_pictures_write_and_the_docs_hold_one_of_each_kind(tmp_path):
    """`python -m render.samples DIR` writes every sample; docs/images holds one picture of every kind
    (`python tests/picture_views.py` writes them), each as wide as the renderer draws it today."""
    from picture_views import DOCS, every_picture

    paths = write_examples(str(tmp_path))
    assert {os.path.basename(p)[:-4] for p in paths} >= {"mat-example", "sheet-example", "map-example",
                                                          "result-victory", "roll-example", "lockpick-example",
                                                          "skirmish-map", "skirmish-initiative"}
    for p in paths:
        with open(p, "rb") as fh:
            data = fh.read()
        assert data[:8] == PNG_SIGNATURE and len(data) < SIZE_BUDGET
    kinds = {name: kind for name, kind, _ in every_picture()}
    assert {kinds[name] for name in DOCS} == set(render.KINDS)
    for name, kind, view in every_picture():
        if name in DOCS:
            shipped = Image.open(os.path.join(DOCS_IMAGES, f"{name}.png"))
            assert shipped.size[0] == _open(render.render(kind, view)).size[0], name


def test_concurrent_renders_match_serial_ones():
    from concurrent.futures import ThreadPoolExecutor

    views = [("mat", battle_mat_view()), ("map", example_map_view()), ("roll", example_roll_view())] * 3
    serial = [render.render(k, v) for k, v in views]
    with ThreadPoolExecutor(max_workers=3) as pool:
        parallel = list(pool.map(lambda kv: render.render(*kv), views))
    assert parallel == serial


def test_default_font_fallback_is_scalable():
    f = common._default_font(24)
    assert f.getlength("Health") > common._default_font(12).getlength("Health")


# --- what a player on a phone notices (the picture shown about 400 px wide) ----------------------

PHONE_W = 400
MIN_PHONE_TEXT_PX = 7.0     # digits at least this tall once the picture is shrunk to the phone's width


def _ink_rows(img: Image.Image, box, is_ink) -> int:
    """Height in pixels of the rows of ``box`` that hold at least one pixel ``is_ink`` accepts."""
    crop = img.crop(box)
    w, h = crop.size
    px = crop.load()
    rows = [y for y in range(h) if any(is_ink(px[x, y]) for x in range(w))]
    return (rows[-1] - rows[0] + 1) if rows else 0


def test_hex_labels_are_readable_on_a_phone():
    battlemap.clear_cache()
    view = example_map_view()
    img = _open(battlemap.render_map(view))
    lay = battlemap._Layout(view["hexes"])
    s, scale = lay.s, PHONE_W / img.size[0]
    occupied = {(u["q"], u["r"]) for u in view["units"] if u["q"] is not None}
    checked = 0
    for h in view["hexes"]:
        if h["impassable"] or h["escape"] or (h["q"], h["r"]) in occupied:
            continue
        cx, cy = lay.centre(h["q"], h["r"])
        cy += battlemap.HEADER_H
        base = cy - s * battlemap.COORD_Y
        box = (int(cx - s * 0.5), int(base - s * 0.45), int(cx + s * 0.5), int(base))  # digits sit on the baseline
        height = _ink_rows(img, box, lambda p: sum(p) < 200)
        assert height * scale >= MIN_PHONE_TEXT_PX, ((h["q"], h["r"]), height * scale)
        checked += 1
    assert checked > 20


def test_hp_badges_are_readable_on_a_phone():
    view = example_map_view()
    img = _open(battlemap.render_map(view))
    lay = battlemap._Layout(view["hexes"])
    scale = PHONE_W / img.size[0]
    for uid in ("a2", "a4", "e5"):          # full HP: white digits on a green pill
        x, y, _ = _unit_token_pixel(view, uid)
        R = lay.s * 0.34
        pill_y = y + R * 0.6 + R
        box = (int(x - R * 0.7), int(pill_y - R * 0.8), int(x + R * 0.7), int(pill_y + R * 0.8))
        height = _ink_rows(img, box, lambda p: min(p) > 235)
        assert height * scale >= MIN_PHONE_TEXT_PX, (uid, height * scale)


def test_dice_strip_has_a_key_for_every_face_shown():
    view = example_roll_view()
    key = dict(dice.face_key(view["dice"]))
    assert key == {"damage": "damage", "prevent": "prevent damage", "heal": "heal", "tenacity": "tenacity",
                   "status": "status effect", "move": "move", "shock": "shock"}
    with_key = _open(dice.render_roll(view))
    # the key sits under the dice and is drawn (ink below the last row of dice)
    rows_end = _roll_header_h(view) + 2 * (dice.DIE + dice.NAME_H + 24) + 8
    assert with_key.size[1] > rows_end + 40
    assert _ink_rows(with_key, (0, rows_end, with_key.size[0], with_key.size[1]), lambda p: sum(p) < 200) > 40
    # a roll of only damage faces keys only damage
    one = {"title": "t", "dice": [{"label": "Combat", "results": [{"icon": "damage", "value": 1}]}]}
    assert dice.face_key(one["dice"]) == [("damage", "damage")]


def test_dice_strip_is_shown_large_enough_on_a_phone():
    img = _open(dice.render_roll(example_roll_view()))
    # at most 4 dice side by side: each die is at least 80 px wide on a 400 px screen
    assert dice.DIE * PHONE_W / img.size[0] >= 80


# --- names and titles are never cut so that the meaning is lost ---------------------------------

def test_long_roll_title_wraps_whole():
    title = "Vilya engages Skeleton Archer of the Lower Cells with Force Shock and Iron Sword"
    lines, f = dice._title_lines(title, dice.MIN_W - 2 * dice.M)
    assert len(lines) > 1 and " ".join(lines) == title
    assert all(f.getlength(x) <= dice.MIN_W - 2 * dice.M for x in lines)


def test_long_unit_names_wrap_and_the_footer_key_has_them_whole():
    view = example_map_view()
    long_name = "Captain of the Imperial Prison Guard"
    view["units"][6]["label"] = long_name
    placed, height = battlemap._roster_layout(view["units"], battlemap.TARGET_W, battlemap.U)
    texts = {u["id"]: " ".join(lines) for u, _, lines in placed}
    assert texts["e2"].startswith(long_name) and "…" not in texts["e2"]
    assert texts["a1"].startswith("Vilya (Ryan)")           # adventurer and player
    assert "defeated" in texts["e4"]
    data = battlemap.render_map(view)
    assert len(data) < SIZE_BUDGET


def test_map_footer_names_the_player_as_well_as_the_adventurer():
    a = example_map_view()
    b = copy.deepcopy(a)
    for u in b["units"]:
        u.pop("player", None)
    ia, ib = _open(battlemap.render_map(a)), _open(battlemap.render_map(b))
    assert ia.size == ib.size
    top, bottom = battlemap.draw_map(a)[0].info["parts"]["roster"]
    assert _region_differs(ia, ib, (0, top, ia.size[0], bottom))
    assert not _region_differs(ia, ib, (0, 0, ia.size[0], top))
    assert not _region_differs(ia, ib, (0, bottom, ia.size[0], ia.size[1]))
    u = {"label": "Vilya", "player": "Ryan", "hp": 3, "max_hp": 4, "q": 2, "r": 0, "statuses": ["bane", "daze"]}
    assert battlemap._roster_text(u) == "Vilya (Ryan) · 2,0 · 3/4 HP · bane, daze"


def test_long_adventurer_name_on_the_mat_shrinks_instead_of_being_cut(monkeypatch):
    name = "Vilya Dren-Arethi of Mournhold X"       # names are at most 32 characters
    assert len(name) == 32
    drawn = []
    real = mat.ellipsize
    monkeypatch.setattr(mat, "ellipsize", lambda t, f, w: drawn.append(real(t, f, w)) or real(t, f, w))
    mat.clear_cache()
    _check_png(mat.render_mat(dict(example_mat_view(), name="W" * 32, player="W" * 32)), 800, 1000, 1200, 3200)
    header = mat.sections(dict(example_mat_view(), name="W" * 32))[0][2]
    assert header.height > mat.sections(example_mat_view())[0][2].height    # two lines, not cut
    assert not any(x.startswith("W") and x.endswith("…") for x in drawn)
    drawn.clear()
    mat.render_mat(dict(example_mat_view(), name=name))
    assert not any(x.endswith("…") for x in drawn if "Vilya" in x)


# --- no missing-glyph boxes, no Markdown -------------------------------------------------------

def _source_chars() -> set[str]:
    import glob
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    chars: set[str] = set()
    for pattern in ("rulesets/**/*.py", "content/**/*.toml", "engine/**/*.py", "commands/**/*.py"):
        for path in glob.glob(os.path.join(root, pattern), recursive=True):
            with open(path, encoding="utf-8") as fh:
                chars.update(ch for ch in fh.read() if ord(ch) > 127)
    return chars


def test_every_character_rules_and_content_can_print_is_drawn_or_dropped():
    """Event texts and card texts carry emoji and arrows; a picture never shows a missing-glyph box."""
    import unicodedata

    chars = _source_chars()
    assert "💀" in chars and "→" in chars          # the scan sees what the rules print
    f = common.font(40, True)
    notdef = bytes(f.getmask("\U0010FFFD"))
    for ch in chars:
        out = common.printable(f"a{ch}b")
        assert all(common.can_draw(c) for c in out), (ch, out)
        for c in out:
            assert bytes(f.getmask(c)) != notdef or c == " ", (ch, c)
        if unicodedata.category(ch)[0] in "LPN" or ch in "→×·":
            assert ch in out, ch                   # letters, punctuation, arrows are kept
    assert common.printable("💀 Marcus is defeated and leaves the map.") == "Marcus is defeated and leaves the map."
    assert common.printable("🏃 Dar-Jee escapes → 4,-3") == "Dar-Jee escapes → 4,-3"


def test_pictures_show_no_markdown_and_no_emoji():
    dirty = "**Vilya** engages `Skeleton`: *2* damage, __ok__"
    assert common.printable(dirty) == "Vilya engages Skeleton: 2 damage, ok"
    assert common.printable("<@1234> moves") == "someone moves"
    assert common.printable("山田 Vilya") == "?? Vilya"          # a script the font lacks: marked, not dropped
    assert common.printable("3 * 2 = 6") == "3 * 2 = 6"
    clean = example_roll_view()
    dirty = copy.deepcopy(clean)
    dirty["title"] = "🎲 **" + clean["title"] + "**"
    dirty["dice"][0]["label"] = "`Force Shock`"
    assert dice.render_roll(dirty) == dice.render_roll(clean)
    m_clean = example_map_view()
    m_dirty = copy.deepcopy(m_clean)
    m_dirty["log"] = ["⚔️ " + x.replace("Vilya", "**Vilya**") for x in m_clean["log"]]
    m_clean["log"] = ["⚔ " + x for x in m_clean["log"]]    # the crossed swords are in the font: kept
    assert battlemap.render_map(m_dirty) == battlemap.render_map(m_clean)
    mat_dirty = example_mat_view()
    mat_dirty["race"]["ability_text"] = "✨ `Once per battle`: **take** dice back."
    mat_clean = example_mat_view()
    mat_clean["race"]["ability_text"] = "Once per battle: take dice back."
    assert mat.render_mat(mat_dirty) == mat.render_mat(mat_clean)


# --- after the enemy phase ----------------------------------------------------------------------

def _count(img: Image.Image, colour, box=None, tol: int = 0) -> int:
    crop = img.crop(box) if box else img
    return sum(1 for p in _pixels(crop) if _close(p, colour, tol))


def test_enemy_phase_moves_and_engages_are_drawn():
    from render.samples import enemy_phase_map_view

    view = enemy_phase_map_view()
    bare = copy.deepcopy(view)
    bare.pop("moves"), bare.pop("engages")
    img, img_bare = _open(battlemap.render_map(view)), _open(battlemap.render_map(bare))
    lay = battlemap._Layout(view["hexes"])
    area = (0, battlemap.HEADER_H, img.size[0], battlemap.HEADER_H + lay.layer_h)   # the map, not the legend
    assert _count(img, battlemap.ENEMY_PATH_COLOUR, area) > 500
    assert _count(img_bare, battlemap.ENEMY_PATH_COLOUR, area) == 0
    # the Guard's move: its colour on the way from 4,0 to 3,-1
    (ax, ay), (bx, by) = lay.centre(4, 0), lay.centre(3, -1)
    mx, my = (ax + bx) / 2, (ay + by) / 2 + battlemap.HEADER_H
    box = (int(mx - 12), int(my - 12), int(mx + 12), int(my + 12))
    assert _count(img, battlemap.ENEMY_PATH_COLOUR, box) > 30
    # each engage: the engage red between attacker and target
    for eng in view["engages"]:
        (ax, ay), (bx, by) = lay.centre(*eng["from"]), lay.centre(*eng["to"])
        mx, my = (ax + bx) / 2, (ay + by) / 2 + battlemap.HEADER_H - lay.s * battlemap.TOKEN_DY
        box = (int(mx - 10), int(my - 10), int(mx + 10), int(my + 10))
        assert _count(img, battlemap.ENGAGE_COLOUR, box) > 20, eng
        assert _count(img_bare, battlemap.ENGAGE_COLOUR, box) < 5, eng


def test_defeated_units_stay_on_the_map_marked_defeated():
    from render.samples import enemy_phase_map_view

    view = enemy_phase_map_view()
    img = _open(battlemap.render_map(view))
    lay = battlemap._Layout(view["hexes"])
    for uid, at in (("a3", (0, 1)), ("e4", (0, -2))):
        u = next(u for u in view["units"] if u["id"] == uid)
        assert u["q"] is None and u["defeated"]
        x, y = battlemap.chip_centre(lay, *at)
        h = battlemap.chip_height(lay)
        token = (int(x - h), int(y - h / 2), int(x + h), int(y + h / 2))
        assert _count(img, battlemap.DEFEATED_COLOUR, token) > 200, uid
        assert _count(img, (120, 20, 20), token) > 60, uid         # crossed out
    # without the optional key a defeated unit off the map is simply not drawn (as before)
    gone = copy.deepcopy(view)
    for u in gone["units"]:
        u.pop("defeated_at", None)
    img2 = _open(battlemap.render_map(gone))
    x, y = battlemap.chip_centre(lay, 0, 1)
    assert _count(img2, battlemap.DEFEATED_COLOUR, (int(x - 10), int(y - 10), int(x + 10), int(y + 10))) == 0


def test_a_unit_standing_where_an_enemy_fell_is_drawn_whole_with_a_mark_of_the_fallen():
    """The defeated enemy's crossed chip is not drawn under the adventurer standing on its hex: the adventurer's
    chip and HP read, and a small crossed mark in the hex's corner says someone fell there."""
    from render.samples import enemy_phase_map_view

    view = enemy_phase_map_view()
    lay = battlemap._Layout(view["hexes"])
    rat = next(u for u in view["units"] if u["id"] == "e4")
    shannon = next(u for u in view["units"] if u["id"] == "a2")
    shannon["q"], shannon["r"] = rat["defeated_at"]
    alone = copy.deepcopy(view)
    alone["units"] = [u for u in alone["units"] if u["id"] != "e4"]
    img, img_alone = _open(battlemap.render_map(view)), _open(battlemap.render_map(alone))
    x, y = battlemap.chip_centre(lay, *rat["defeated_at"])
    h = battlemap.chip_height(lay)
    cx, cy = lay.centre(*rat["defeated_at"])
    cy += battlemap.HEADER_H
    chip = (int(x - lay.s * 0.4), int(y - h / 2), int(x + lay.s * 0.4), int(cy + lay.s * 0.7))  # chip and HP pill
    assert not _region_differs(img, img_alone, chip)
    assert _count(img, battlemap.DEFEATED_COLOUR, chip) == 0
    corner = (int(cx - lay.s * 0.85), int(cy + lay.s * 0.4), int(cx - lay.s * 0.45), int(cy + lay.s * 0.8))
    assert _count(img, battlemap.DEFEATED_COLOUR, corner) > 30 and _count(img_alone, battlemap.DEFEATED_COLOUR,
                                                                         corner) == 0


def test_an_opened_cache_is_not_drawn():
    view = example_map_view()
    lay = battlemap._Layout(view["hexes"])
    cx, cy = lay.centre(-3, 0)
    box = (int(cx), int(cy + battlemap.HEADER_H), int(cx + lay.s), int(cy + battlemap.HEADER_H + lay.s))
    chest = (140, 88, 40)
    assert _count(_open(battlemap.render_map(view)), chest, box) > 100
    view["caches"][0]["opened"] = True
    assert _count(_open(battlemap.render_map(view)), chest, box) == 0


def test_an_escaped_adventurers_mat_does_not_say_in_battle():
    from render.samples import escaped_mat_view

    tag_box = (0, 60, 300, 104)
    in_battle = _open(mat.render_mat(battle_mat_view()))
    escaped = _open(mat.render_mat(escaped_mat_view()))
    red, green = (200, 60, 40), (40, 130, 60)
    assert _count(in_battle, red, tag_box) > 300 and _count(in_battle, green, tag_box) == 0
    assert _count(escaped, green, tag_box) > 300 and _count(escaped, red, tag_box) == 0
    # the rest of the mat is the same
    assert not _region_differs(in_battle, escaped, (0, 110, mat.W, in_battle.size[1]))


def test_long_map_title_wraps_whole_beside_the_round_badges():
    title = "The Imperial Prison Jailbreak Introduction: the enemies' turn"
    width = battlemap.TARGET_W - 2 * battlemap.M - 400      # room left by the Round and FATIGUE ROUND badges
    lines, f = battlemap.title_lines(title, width)
    assert len(lines) == 2 and " ".join(lines) == title
    view = dict(example_map_view(), title=title)
    _check_png(battlemap.render_map(view), 1000, 1400, 700, 2200)


def test_an_escaped_unit_is_listed_as_escaped_not_defeated():
    u = {"label": "Dar-Jee", "player": "Priya", "defeated": True, "escaped": True, "hp": 4, "max_hp": 4}
    assert battlemap._roster_text(u) == "Dar-Jee (Priya) · escaped"


def test_dice_key_tells_apart_icons_that_share_letters_and_takes_the_packs_words():
    codes = common.icon_codes(["resolve", "refresh", "shock", "damage"])
    assert codes["resolve"] != codes["refresh"] and "damage" not in codes
    view = example_roll_view()
    view["dice"][5]["results"] = [{"icon": "resolve", "value": 1}, {"icon": "refresh", "value": None}]
    words = "Take 1 skill die back from your cooldown track and put it in its row."
    view["key"] = {"refresh": words}
    key = dict(dice.face_key(view["dice"], view["key"]))
    assert key["refresh"] == words and key["resolve"] == "resolve"
    placed, _ = dice._key_layout(list(key.items()), dice.MIN_W - 2 * dice.M - 70)
    lines = next(lines for _, _, icon, lines in placed if icon == "refresh")
    assert len(lines) > 1 and " ".join(lines) == words          # wrapped, not cut
    plain = example_roll_view()
    plain["dice"][5]["results"] = view["dice"][5]["results"]
    assert _open(dice.render_roll(view)).size[1] > _open(dice.render_roll(plain)).size[1]


def test_map_title_does_not_repeat_the_round_badge():
    a = dict(example_map_view(), title="Jailbreak Introduction — round 4")
    b = dict(example_map_view(), title="Jailbreak Introduction")
    assert battlemap.render_map(a) == battlemap.render_map(b)
    c = dict(example_map_view(), title="Jailbreak Introduction — round 3")   # not the badge's round: kept
    assert battlemap.render_map(c) != battlemap.render_map(b)


def test_memoised_text_draws_the_same_pixels_as_pillow():
    from PIL import ImageDraw

    for anchor in ("la", "mm", "lm", "ms"):
        for f in (common.font(19), common.font(25, True), common.font(28, "condensed")):
            a = Image.new("RGB", (320, 80), common.BG)
            ImageDraw.Draw(a).text((60.4, 40.7), "Vilya (Ryan) · 3/4 HP →", font=f, fill=common.INK, anchor=anchor)
            for _ in range(2):   # the second call comes from the memo
                b = Image.new("RGB", (320, 80), common.BG)
                common.draw_text(ImageDraw.Draw(b), (60.4, 40.7), "Vilya (Ryan) · 3/4 HP →", f, common.INK, anchor)
                assert a.tobytes() == b.tobytes(), anchor


def test_every_line_of_the_newest_log_entry_is_bold():
    """A long newest entry wraps onto two lines; both are drawn bold, not only the second."""
    log = ["Short line.", "Ryan: Slip Away for 1 tenacity lets Ryan move up to 2 hexes for free now. "
                          "Choose where with /move to:q,r, or /battle stay."]
    lines = battlemap._caption_lines(log, battlemap.TARGET_W, battlemap.U)
    assert len(lines) == 3 and lines.bold == 2


def test_what_happened_stays_inside_its_box():
    """The newest line is drawn bold, so it is wrapped to the bold font's width."""
    view = example_map_view()
    view["log"] = ["Destruction Staff: rune: Ryan places Ember Rune (3) in hex 0,2, the free hex closest to the "
                   "target (/resolve at: names another); an enemy that moves into it or starts its turn there is "
                   "dealt 3 damage."]
    img = _open(battlemap.render_map(view))
    top, bottom = battlemap.draw_map(view)[0].info["parts"]["caption"]
    w = img.size[0]
    right = (w - battlemap.M + 2, top, w, bottom)  # right of the box's edge
    assert _count(img, common.INK, right, tol=60) == 0


def test_the_map_says_what_just_happened_and_leaves_the_rest_to_the_message():
    view = example_map_view()
    lines = battlemap._caption_lines(view["log"], battlemap.TARGET_W, battlemap.U)
    assert " ".join(lines).endswith("Skeleton is at 2/5.") and len(lines) <= battlemap.CAPTION_LINES
    assert "Round 4 begins" not in " ".join(lines)    # the older entries are in the post's words


def test_hexes_offered_to_a_player_are_rimmed_and_numbered_like_the_menu():
    view = example_map_view()
    free = next(h for h in view["hexes"] if not h.get("impassable")
                and not any((u.get("q"), u.get("r")) == (h["q"], h["r"]) for u in view["units"]))
    plain = _open(battlemap.render_map(view))
    view["choices"] = [{"q": free["q"], "r": free["r"], "n": 1}]
    marked = _open(battlemap.render_map(view))
    lay = battlemap._static_layer(view).layout
    cx, cy = lay.centre(free["q"], free["r"])
    cy += battlemap.HEADER_H
    box = (int(cx - lay.s), int(cy - lay.s), int(cx + lay.s), int(cy + lay.s))
    assert _count(marked, battlemap.PATH_COLOUR, box, tol=30) > _count(plain, battlemap.PATH_COLOUR, box, tol=30) + 200
