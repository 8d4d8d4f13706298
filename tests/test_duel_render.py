"""The duel picture: drawn from every moment of a fight, readable on a phone (every needed label at least 10 px
tall when the picture is shown 400 px wide), and holding nothing a player keeps secret.

``python tests/test_duel_render.py`` writes docs/images/duel-fight.png (a moment of the example fight)."""
from __future__ import annotations

import io
import json

from PIL import Image

from duel_helpers import fight
from render import render
from render.duel import MIN_LABEL, W, render_duel
from rulesets.duel.content import load_pack
from rulesets.duel.present.view import picture_view
from rulesets.duel.rules.flow import frame_now
from rulesets.duel.state import Effect

PHONE_W = 400
MIN_PHONE_PX = 10


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


def busy_fight():
    """A fight in the middle of round 1: every Ailment, ongoing effects, the token, a reroll, Accuracy dice."""
    t = fight({"ann": "sellsword", "bob": "hedge-witch"}, fame={"ann": 4, "bob": 0})
    t.f("cave-troll").ailments = {"burn": 2, "dazzle": 1, "slow": 1, "weak": 2}
    t.f("bob").effects.append(Effect("block", 1, None, "Stoneskin"))
    t.f("ann").effects.append(Effect("bonus", 1, 1, "Blessing"))
    t.place("bob", "firebolt", "lure")
    t.force(5, 2, 9, 8)  # Crushing Swing; Ann's Shield Bash 2 9 8 (+1 Blessing): Ann may reroll
    t.place("ann", "shield-bash")
    return t


def view_of(t, frame=None):
    state = t.state
    return picture_view(state, frame or frame_now(state, load_pack()), lambda uid: {"ann": "Lena", "bob": "Bob"}.get(
        uid, uid))


def test_every_moment_of_a_fight_is_drawn():
    t = busy_fight()
    assert t.prompt.kind == "fame"
    for frame in t.fight.frames + [frame_now(t.state, load_pack())]:
        img = _open(render("duel", view_of(t, frame)))
        assert img.width == W and 400 < img.height < 3000
    view = view_of(t)
    # Lure acted; Shield Bash is acting (its roll waits for Ann's Fame reroll); Firebolt and the Troll's
    # Crushing Swing (Slow: 7 - 6 = 1) wait
    assert [(x["label"], x["state"]) for x in view["track"]] == [
        ("Lure", "last"), ("Shield Bash", "now"), ("Firebolt", "pending"), ("Crushing Swing", "pending")]
    assert view["roll"]["dice"][0]["face"] == 2
    tokens = {f["name"]: f["token"] for f in view["fighters"]}
    assert tokens == {"Ann": True, "Bob": False, "Cave Troll": False}
    _open(render_duel({}))  # an empty view still draws


def test_labels_are_readable_on_a_phone():
    assert MIN_LABEL * PHONE_W / W >= MIN_PHONE_PX
    t = busy_fight()
    t.force(3)
    t.run("ann", "duel.reroll", die=1)  # a rerolled die, marked
    view = view_of(t)
    assert any(d["rerolled"] for d in view["roll"]["dice"]) and any(d["accuracy"] for d in view["roll"]["dice"])
    img = _open(render_duel(view))
    scale = PHONE_W / img.width
    # the Grit numbers: white digits on the Grit bar of each fighter
    bars = [(x, y) for y in range(img.height) for x in (40,) if img.getpixel((x, y)) in ((60, 170, 80), (70, 62, 58))]
    assert bars
    top = bars[0][1]
    height = _ink_rows(img, (20, top, 320, top + 30), lambda p: min(p) > 235)
    assert height * scale >= 7, height * scale  # digit height (the font's 22 px size is 12 px on the phone)


def test_the_picture_holds_no_secret_card():
    t = fight({"ann": "sellsword", "bob": "hedge-witch"}, fame={"ann": 0, "bob": 0})
    t.place("bob", "firebolt", "stoneskin")
    view = json.dumps(view_of(t))
    assert "Firebolt" not in view and "Stoneskin" not in view and "firebolt" not in view
    bob = next(f for f in view_of(t)["fighters"] if f["name"] == "Bob")
    assert bob["facedown"] == 2 and bob["hand"] == 6  # counted, never named
    for frame in t.fight.frames:
        assert "firebolt" not in json.dumps(frame).lower()


def example_view():
    """Round 2 of the example: the Wisp's Bog Fire on Brann, Blocked twice, after Shield Bash missed."""
    t = fight({"ann": "sellsword", "bob": "pilgrim"}, monster="marsh-wisp", gear={"ann": "chain-coat"},
              roll_off=(9, 4, 9, 9, 2))
    t.state.name = "Hollow Road"
    t.state.characters["ann"].name = "Brann"
    t.state.characters["bob"].name = "Oda"
    for f, name in ((t.f("ann"), "Brann"), (t.f("bob"), "Oda")):
        f.name = name
    t.place("bob", "blessing", "frost-snare", ally="c:ann")
    t.force(2, 8, 3)
    t.place("ann", "lure", "base-attack", base=["attack"])
    t.force(4, 12, 6)
    t.run("ann", "duel.reroll")
    t.force(5, 9, 5, 11, 5, 3)
    t.run("ann", "duel.reroll", die=2)
    t.place("bob", "purifying-light", "focus")
    t.force(6, 3, 2, 2, 9, 2, 8, 8, 1)
    t.place("ann", "shield-bash", "base-attack", base=["token"])
    frame = next(f for f in t.fight.frames if f["caption"].startswith("Marsh Wisp: Bog Fire"))
    return view_of(t, frame)


def test_the_example_picture():
    view = example_view()
    assert view["caption"] == "Marsh Wisp: Bog Fire (hit: 1 Injury)"
    brann = view["fighters"][0]
    assert brann["name"] == "Brann" and brann["ailments"] == [{"name": "burn", "amount": 2}]
    assert any("Block 1" in e for e in brann["effects"])
    img = _open(render_duel(view))
    assert img.width == W


if __name__ == "__main__":  # refresh docs/images/duel-fight.png
    import sys

    with open(sys.argv[1] if len(sys.argv) > 1 else "docs/images/duel-fight.png", "wb") as fh:
        fh.write(render_duel(example_view()))
