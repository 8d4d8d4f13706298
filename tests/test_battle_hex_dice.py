"""Status-code (S) skill dice placed in a hex (rulebook page 60): the Destruction Staff's rune.

Jailbreak: Shannon (S) on -2,2, Ryan (R, Magicka 3) on -2,1; the High Elf Bandit (e1) on 1,2 and the
Argonian Bandit (e2) on 4,1.  Ryan is given an Ember Rune die (face 6: "3 rune").
"""
from __future__ import annotations

import copy
import io

import pytest
from battle_helpers import ctx, jailbreak, party, run, texts
from PIL import Image

import render
from engine.core import RuleError
from engine.hexes import Hex
from render import battlemap
from rulesets.tes.battle import flow, harm, hexdice
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle.model import place_tile
from rulesets.tes.battle_state import Battle, HexDie
from rulesets.tes.present.battle import map_view

RUNE = 6  # Ember Rune's face "3 rune"
BLANK = [1] * 12  # enemy Combat dice: blank


def ryans_turn(move_to=None, dice=("d99",)):
    """Shannon ends her turn; Ryan (with Ember Rune dice) may move first."""
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    for d in dice:
        s.adventurers["R"].dice[d] = {"type": "ember-rune", "line": "destruction-staff", "level": 2}
    s, _ = run(s, "battle.endturn", "S")
    if move_to:
        s, _ = run(s, "battle.move", "R", {"to": list(move_to)})
    return s


def rune(s, resolve=None, target=None, form="magic", faces=(RUNE,), dice="d99"):
    args = {"dice": dice, "form": form} | ({"target": target} if target else {})
    s, _ = run(s, "battle.engage", "R", args, forced=list(faces))
    return run(s, "battle.resolve", "R", resolve or {})


# ------------------------------------------------------------------ placing --
def test_the_die_goes_to_the_named_hex_and_is_unavailable_there():
    s = ryans_turn()
    s, ev = rune(s, {"at": [[0, 1]]})
    ryan = s.adventurers["R"]
    [d] = s.battle.hex_dice
    assert (d.hex, d.owner, d.die, d.value, d.damage, d.label) == ([0, 1], "R", "d99", 3, 3, "Ember Rune")
    assert "Ryan places Ember Rune (3) in hex 0,1" in texts(ev)
    assert "dealt 3 damage" in texts(ev)
    assert "d99" in ryan.placed and "d99" not in ryan.available_dice() and ryan.die_location("d99") == "placed"
    assert not any(e.get("die") == "d99" for e in ryan.cooldown)  # not exhausted while it lies there
    with pytest.raises(RuleError, match="not available"):
        run(s, "battle.engage", "R", {"dice": "d99", "form": "magic"}, forced=[RUNE])


def test_without_a_hex_it_goes_next_to_the_target_else_next_to_you():
    s = ryans_turn(move_to=(0, 1))
    s, ev = rune(s, target="e1")
    # free hexes 1 from the High Elf Bandit (1,2): 0,2 0,3 1,1 2,2; the lowest q, then r, wins
    assert [d.hex for d in s.battle.hex_dice] == [[0, 2]]
    assert "closest to the target" in texts(ev) and "/resolve at:" in texts(ev)
    s = ryans_turn()
    s, ev = rune(s)  # no target: next to Ryan (-2,1); -2,2 is Shannon's
    assert [d.hex for d in s.battle.hex_dice] == [[-1, 1]] and "closest to you" in texts(ev)


def test_two_runes_take_the_named_hexes_in_order_then_the_default():
    s = ryans_turn(dice=("d98", "d99"))
    s, _ = rune(s, {"at": [[0, 1], [0, 2]]}, dice="d98 d99", faces=(RUNE, RUNE))
    assert [(d.die, d.hex) for d in s.battle.hex_dice] == [("d98", [0, 1]), ("d99", [0, 2])]
    s = ryans_turn(dice=("d98", "d99"))
    s, _ = rune(s, {"at": [[0, 1]]}, dice="d98 d99", faces=(RUNE, RUNE))
    assert [(d.die, d.hex) for d in s.battle.hex_dice] == [("d98", [0, 1]), ("d99", [-1, 1])]


@pytest.mark.parametrize("at, says", [
    ([9, 9], "Hex 9,9 is off the map"),
    ([2, 1], "Hex 2,1 is impassable"),
    ([-2, 2], "occupied by Shannon"),
    ([1, 2], "occupied by High Elf Bandit"),
    ([3, 1], "Hex 3,1 is 6 hexes away; in Magic form you reach hexes 1 to 3 away"),
])
def test_a_hex_it_cannot_go_to_is_refused_and_changes_nothing(at, says):
    s = ryans_turn()
    s, _ = run(s, "battle.engage", "R", {"dice": "d99", "form": "magic"}, forced=[RUNE])
    before = s.to_dict()
    with pytest.raises(RuleError) as err:
        run(s, "battle.resolve", "R", {"at": [at]})
    msg = str(err.value)
    assert says in msg and "Ember Rune cannot be placed there" in msg
    assert "Hexes Ember Rune can go to: -1,1 " in msg  # the fix: where it can go, best first
    assert s.to_dict() == before and s.battle.pending is not None


def test_out_of_sight_a_hex_with_a_die_and_too_many_hexes_are_refused():
    s = ryans_turn(dice=("d98", "d99"))
    place_tile(ctx(s), "entrance", (0, -3))  # a tile north of the yard: 0,-1 is 3 hexes away, out of sight
    s, _ = rune(s, {"at": [[0, 1]]}, dice="d98")
    s, _ = run(s, "battle.engage", "R", {"dice": "d99", "form": "magic"}, forced=[RUNE])
    with pytest.raises(RuleError, match="Hex 0,-1 is out of sight"):
        run(s, "battle.resolve", "R", {"at": [[0, -1]]})
    with pytest.raises(RuleError, match="Hex 0,1 already holds Ryan's Ember Rune"):
        run(s, "battle.resolve", "R", {"at": [[0, 1]]})
    with pytest.raises(RuleError, match="`at:` names 2 hexes, but only 1 of the dice you resolve is placed in a hex"):
        run(s, "battle.resolve", "R", {"at": [[0, 2], [0, 3]]})


def test_at_without_a_die_for_a_hex_is_refused():
    s = ryans_turn()
    s, _ = run(s, "battle.engage", "R", {"dice": "d99", "form": "magic"}, forced=[1])  # "2 damage"
    with pytest.raises(RuleError, match="none of the dice you resolve is placed in a hex.*leave `at:` out"):
        run(s, "battle.resolve", "R", {"at": [[0, 1]]})


def test_with_no_hex_free_in_reach_the_die_is_exhausted():
    s = ryans_turn()
    c = ctx(s)
    me = c.unit("a:R")
    assert hexdice.problem(c, me, "defensive", Hex(-1, 1)) == \
        "Defensive form has no range, so the die cannot be placed in a hex."
    assert hexdice.problem(c, me, "light", Hex(0, 1)) == \
        "Hex 0,1 is 2 hexes away; in Light Weapon form you reach only adjacent hexes."
    free = hexdice.choices(c, me, "magic", None)
    assert free and all(c.range_to(Hex(-2, 1), h) <= 3 for h in free)
    s.battle.hex_dice = [HexDie(hex=[h.q, h.r], owner="S", die=f"x{i}", value=1, label="Ember Rune", damage=1)
                         for i, h in enumerate(free)]  # every free hex in reach already holds a die
    s, ev = rune(s)
    ryan = s.adventurers["R"]
    assert len(s.battle.hex_dice) == len(free) and ryan.placed == [] and {"die": "d99"} in ryan.cooldown
    assert "no unoccupied hex in range and sight is free for Ember Rune, so it is not placed" in texts(ev)


# ---------------------------------------------------------------- going off --
def test_an_enemy_walking_into_it_takes_the_damage_and_the_die_goes_back():
    s = ryans_turn(move_to=(0, 1))
    s.battle.units["e2"].hp = s.battle.units["e2"].max_hp = 10  # it survives
    s, _ = rune(s, {"at": [[2, 2]]})  # the Argonian Bandit walks 4,1 -> 3,1 -> 2,2
    s, ev = run(s, "battle.endturn", "R", forced=BLANK)
    said = texts(ev)
    e2, ryan = s.battle.units["e2"], s.adventurers["R"]
    assert "💥 Argonian Bandit moves into hex 2,2: Ryan's Ember Rune goes off." in said
    assert "Ember Rune: Argonian Bandit is dealt 3 damage" in said and e2.hp == 7
    assert s.battle.hex_dice == [] and ryan.placed == [] and {"die": "d99"} in ryan.cooldown
    assert "Ember Rune returns to Ryan's cooldown track" in said
    assert said.index("Argonian Bandit moves 4,1") < said.index("goes off") < said.index("Argonian Bandit engages")


def _rune_on_its_way(s):
    """Ryan's rune, placed by the engine, then moved to 3,1 (as if placed from nearer): the first hex the
    Argonian Bandit's move (4,1 -> 3,1 -> 2,2) goes into."""
    s, _ = rune(s, {"at": [[2, 2]]})
    s.battle.hex_dice[0].hex = [3, 1]
    return s


def test_an_enemy_goes_on_with_its_move_after_the_die_went_off():
    s = ryans_turn(move_to=(0, 1))
    s.battle.units["e2"].hp = s.battle.units["e2"].max_hp = 10
    s = _rune_on_its_way(s)
    s, ev = run(s, "battle.endturn", "R", forced=BLANK)
    e2 = s.battle.units["e2"]
    assert "Argonian Bandit moves into hex 3,1: Ryan's Ember Rune goes off." in texts(ev)
    assert e2.hp == 7 and (e2.q, e2.r) == (2, 2) and "Argonian Bandit engages" in texts(ev)


def test_an_enemy_defeated_on_its_way_falls_in_that_hex():
    s = ryans_turn(move_to=(0, 1))
    s = _rune_on_its_way(s)  # 3 damage: the Argonian Bandit has 3 HP
    s, ev = run(s, "battle.endturn", "R", forced=BLANK)
    e2 = s.battle.units["e2"]
    assert e2.defeated and e2.fell_at == [3, 1]
    assert "Argonian Bandit is defeated by Ryan" in texts(ev)
    assert s.battle.achievements.get("defeat-argonian-bandit") == "R"
    assert "Argonian Bandit engages" not in texts(ev) and "has nobody to engage" not in texts(ev)
    moves = [m for m in s.battle.enemy_acts["moves"] if m["unit"] == "e2"]
    assert moves[0]["path"] == [[4, 1], [3, 1]]  # the map draws the move only as far as it got


def test_an_enemy_starting_its_turn_there_takes_the_damage():
    s = ryans_turn(move_to=(0, 1))
    s, _ = rune(s, {"at": [[0, 2]]})
    e1 = s.battle.units["e1"]
    e1.hp = e1.max_hp = 30
    e1.q, e1.r = 0, 2  # put there (not moved there): nothing goes off yet
    assert len(s.battle.hex_dice) == 1
    s, ev = run(s, "battle.endturn", "R", forced=BLANK)
    assert "High Elf Bandit starts its turn in hex 0,2: Ryan's Ember Rune goes off." in texts(ev)
    assert s.battle.units["e1"].hp == 27 and s.battle.hex_dice == []
    assert {"die": "d99"} in s.adventurers["R"].cooldown


def test_an_ally_walks_over_it_but_a_blind_one_sets_it_off():
    s = ryans_turn(move_to=(0, 1))
    s, _ = rune(s, {"at": [[-1, 1]]})
    s, _ = run(s, "battle.endturn", "R", forced=BLANK)  # round 2: Shannon's turn
    shannon = s.adventurers["S"]
    hp = shannon.hp
    s2, ev = run(s, "battle.move", "S", {"path": [[-1, 1], [0, 0]]})
    assert "goes off" not in texts(ev) and len(s2.battle.hex_dice) == 1 and s2.adventurers["S"].hp == hp
    c = ctx(s)
    status_rules.give(c, c.unit("a:S"), "blind", "Test")  # a blind unit takes every unit for an enemy
    s, ev = run(s, "battle.move", "S", {"path": [[-1, 1], [0, 0]]})
    assert "Shannon moves into hex -1,1: Ryan's Ember Rune goes off." in texts(ev)
    assert s.adventurers["S"].hp == hp - 3 and s.battle.hex_dice == []
    assert (s.battle.units["a:S"].q, s.battle.units["a:S"].r) == (0, 0)


def test_a_blind_owners_rune_goes_off_for_a_companion_too():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    from rulesets.tes.battle import companion

    companion.join(ctx(s), "war-hound", "S")  # on -3,3; on its turn it walks -2,3 -> -1,3
    s.adventurers["R"].dice["d99"] = {"type": "ember-rune", "line": "destruction-staff", "level": 2}
    s, _ = run(s, "battle.endturn", "S")
    c = ctx(s)
    status_rules.give(c, c.unit("a:R"), "blind", "Test")  # Ryan takes every unit for an enemy
    s, _ = rune(s, {"at": [[-2, 3]]})
    s, ev = run(s, "battle.endturn", "R", forced=BLANK)
    hound = s.battle.units["c1"]
    assert "War Hound moves into hex -2,3: Ryan's Ember Rune goes off." in texts(ev)
    assert hound.defeated and hound.fell_at == [-2, 3] and "War Hound falls" in texts(ev)
    assert "War Hound has nobody to engage" not in texts(ev)
    assert {"die": "d99"} in s.adventurers["R"].cooldown


# ----------------------------------------------------------------- removal --
def test_the_end_of_the_battle_returns_it():
    s = ryans_turn()
    s, _ = rune(s, {"at": [[0, 1]]})
    c = ctx(s)
    flow.cleanup(c)
    ryan = s.adventurers["R"]
    assert s.battle.hex_dice == [] and ryan.placed == [] and {"die": "d99"} in ryan.cooldown
    assert "Ryan's Ember Rune leaves hex 0,1 and returns to their cooldown track" in texts(c.events)


def test_its_owner_defeated_returns_it():
    s = ryans_turn()
    s, _ = rune(s, {"at": [[0, 1]]})
    c = ctx(s)
    harm.damage_adventurer(c, "R", 99, true=True)
    ryan = s.adventurers["R"]
    assert s.battle.units["a:R"].defeated
    assert s.battle.hex_dice == [] and ryan.placed == [] and {"die": "d99"} in ryan.cooldown


# ----------------------------------------------------------- saved and seen --
def test_saved_with_the_battle_and_absent_from_battles_without():
    s = ryans_turn()
    plain = s.battle.to_dict()
    assert "hex_dice" not in plain and Battle.from_dict(copy.deepcopy(plain)).to_dict() == plain
    s, _ = rune(s, {"at": [[0, 1]]})
    saved = s.battle.to_dict()
    assert saved["hex_dice"] == [{"hex": [0, 1], "owner": "R", "die": "d99", "value": 3, "label": "Ember Rune",
                                  "damage": 3, "true": False}]
    assert Battle.from_dict(copy.deepcopy(saved)).to_dict() == saved


def test_battle_status_lists_it(monkeypatch):
    import asyncio

    from rulesets.tes.present import battle as present

    s = ryans_turn()
    s, _ = rune(s, {"at": [[0, 1]]})

    async def fake_state(inv):
        return s

    monkeypatch.setattr(present, "_state", fake_state)
    reply = asyncio.run(present.battle_status(None))
    fields = {name: value for name, value, _ in reply.embeds[0].fields}
    assert fields["Dice in hexes"] == ("0,1: **Ember Rune** (3) of Ryan · 3 damage to an enemy that moves in or "
                                      "starts its turn there")


def test_the_engage_reply_tells_how_to_name_the_hex():
    from rulesets.tes.present.battle import _places_in_a_hex

    s = ryans_turn()
    s, _ = run(s, "battle.engage", "R", {"dice": "d99", "form": "magic"}, forced=[RUNE])
    assert _places_in_a_hex(s.battle.pending, ctx(s).pack)
    s = ryans_turn()
    s, _ = run(s, "battle.engage", "R", {"dice": "d99", "form": "magic"}, forced=[4])  # "1 damage + burn"
    assert not _places_in_a_hex(s.battle.pending, ctx(s).pack)


async def test_resolve_at_at_the_table(tmp_path):
    from test_battle_table import SETUP, play

    script = SETUP + """
/move to:0,2
/force 3 4 4
/engage target:"High Elf Bandit" dice:"2 shield-discipline, combat"
/resolve at:zz
/resolve at:1,1
/resolve
"""
    errors, state, text, _ = await play(tmp_path, script)
    assert errors == 2, text
    assert "at: " in text and "Write hexes as `q,r`" in text
    assert "`at:` names 1 hex, but none of the dice you resolve is placed in a hex" in text
    assert state.battle.pending is None and "High Elf Bandit is dealt 4 damage" in text  # plain /resolve works


def _pixels(img: Image.Image):
    flat = getattr(img, "get_flattened_data", None)
    return list(flat()) if flat else list(img.getdata())


def _render(view) -> Image.Image:
    return Image.open(io.BytesIO(render.render("map", view))).convert("RGB")


def test_the_map_shows_the_die_in_its_hex():
    s = ryans_turn()
    s, _ = rune(s, {"at": [[0, 1]]})
    view = map_view(s, ctx(s).pack)
    assert view["dice"] == [{"q": 0, "r": 1, "value": 3, "label": "Ember Rune", "side": "adventurer",
                             "owner": "RYA", "player": ""}]
    bare = copy.deepcopy(view)
    bare.pop("dice")
    img, img_bare = _render(view), _render(bare)
    lay = battlemap._Layout(view["hexes"])
    cx, cy, w = battlemap.hex_die_box(lay, (0, 1), "RYA")
    box = (int(cx - w / 2), int(cy - w / 2), int(cx + w / 2), int(cy + w / 2))
    blue = battlemap.SIDE_COLOURS["adventurer"]

    def count(im, colour):
        return sum(1 for p in _pixels(im.crop(box)) if all(abs(a - b) <= 30 for a, b in zip(p, colour)))

    assert count(img, blue) > w * 6 and count(img_bare, blue) == 0  # the die's frame and number
    assert count(img, (255, 255, 255)) > w * w * 0.2  # its white face
    # the number (inside the frame) is readable on a phone: the picture shown 400 px wide
    inner = int(w / 7) + 3
    digit = [y for y in range(box[1] + inner, box[3] - inner)
             if any(all(abs(a - b) <= 30 for a, b in zip(img.getpixel((x, y)), blue))
                    for x in range(box[0] + inner, box[2] - inner))]
    assert digit and (digit[-1] - digit[0] + 1) * 400 / img.size[0] >= 7   # the digit's ink, 10 px type


def test_the_picture_in_the_docs_renders():
    """docs/images/map-rune.png: Ryan's rune next to the High Elf Bandit, Shannon standing on her own."""
    import os

    view = rune_picture_view()
    assert [(d["q"], d["r"], d["owner"]) for d in view["dice"]] == [(0, 2, "RYA"), (-1, 2, "SHA")]
    assert _render(view).size[0] == battlemap.TARGET_W
    shipped = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "images",
                           "map-rune.png")
    assert Image.open(shipped).size[0] == battlemap.TARGET_W  # tests/picture_views.py writes it


def rune_picture_view() -> dict:
    """The battle drawn in docs/images/map-rune.png (``python tests/picture_views.py`` writes it)."""
    s = ryans_turn(move_to=(0, 1))
    s.adventurers["S"].dice["d98"] = {"type": "ember-rune", "line": "destruction-staff", "level": 2}
    s, _ = rune(s, target="e1")  # next to the High Elf Bandit: 0,2
    s, _ = run(s, "battle.endturn", "R", forced=BLANK)
    s, _ = run(s, "battle.engage", "S", {"dice": "d98", "form": "magic"}, forced=[RUNE])
    s, _ = run(s, "battle.resolve", "S", {"at": [[-1, 2]]})
    s, _ = run(s, "battle.move", "S", {"to": [-1, 2]})  # onto her own die: it does not go off for her
    return map_view(s, ctx(s).pack)
