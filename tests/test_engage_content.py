"""The engage pack: it loads; it has what the rules need (8+ unit types, some causing Fear, some able to Jump Down;
a map with walls that block sight, ledges and ladders); every rule text the bot shows is written from the numbers the
rules use; a broken pack is refused with the file, the entry and the field."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.hexes import neighbours
from rulesets.engage.board import Board
from rulesets.engage.content import ContentError, list_packs, load_pack, parse_pack

PACK = load_pack("engage")


def test_the_standard_pack_loads_with_what_the_rules_need():
    assert "engage" in list_packs()
    units = PACK.units.values()
    assert len(PACK.units) >= 8
    assert sum(u.fear for u in units) >= 2 and sum(u.jump_down for u in units) >= 2
    assert any(u.fear and u.jump_down for u in units) and any(u.shoot for u in units) and any(u.cast for u in units)
    m = PACK.map
    board = Board(m, PACK.max_drop)
    assert len(m.walls) >= 6 and len(m.ladders) >= 3
    ledges = {frozenset((a, b)) for a in m.heights for b in neighbours(a)
              if b in m.heights and m.heights[a] != m.heights[b]}
    assert len(ledges - m.ladders) >= 10
    blocked_by_walls = [(a, b) for a in m.heights for b in m.heights if not board.sees(a, b)]
    assert blocked_by_walls
    assert len(m.zones["a"]) >= 10 and len(m.zones["b"]) >= 10 and not m.zones["a"] & m.zones["b"]


def test_rule_texts_are_written_from_the_numbers():
    wraith = PACK.unit("gallows-wraith")
    assert wraith.text == ("Move 6 in (Run 9), Fight 11, Armour 1, Agility 13, Morale 15, Wounds 3, causes Fear, "
                           "can Jump Down.")
    assert PACK.unit("mire-hulk").text.startswith("Move 4 in (Run 6), Fight 13, Armour 2")
    assert "2 melee attacks" in PACK.unit("mire-hulk").text
    assert "Shoot 12 at up to 12 in" in PACK.unit("lantern-bow").text
    assert PACK.spells["thunder-peal"].text == ("Range 6 in, an enemy in sight. On the cast check at -3, the enemy "
                                                "is Stunned until the end of its player's next turn.")
    assert PACK.spells["mend-flesh"].text.endswith("the ally gets back 1 wound.")
    for u in PACK.units.values():  # the flavour never states a rule number
        assert not any(ch.isdigit() for ch in u.blurb), u.id


def broken(tmp_path, name: str, old: str, new: str) -> Path:
    dst = tmp_path / "pack"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "engage", dst)
    p = dst / name
    text = p.read_text()
    assert old in text, old
    p.write_text(text.replace(old, new, 1))
    return dst


@pytest.mark.parametrize("name,old,new,needle", [
    ("units.toml", "move = 4\n", "move = 40\n", "units.toml mire-hulk: `move` must be a whole number from 1 to 12"),
    ("units.toml", 'spells = ["mire-grip"', 'spells = ["fireball"', "units.toml hedge-witch: `spells` must list"),
    ("units.toml", "fear = true\n", "fear = 3\n", "units.toml mire-hulk: `fear` must be true or false"),
    ("spells.toml", 'effect = "daze"', 'effect = "explode"', "spells.toml mire-grip: `effect` must be one of"),
    ("spells.toml", 'effect = "heal"\namount = 1\ntarget = "ally"', 'effect = "heal"\namount = 1\ntarget = "enemy"',
     "spells.toml mend-flesh: a heal spell targets an ally"),
    ("map.toml", '["7,1", "6,2"]', '["7,1", "7,2"]', "map.toml ladder ['7,1', '7,2']: a ladder joins two heights"),
    ("map.toml", '["2,5", "3,5"]', '["2,5", "5,5"]', "the two hexes must be neighbours"),
    ("map.toml", '"0 # # # 0 0 0 2 4"', '"0 # # X 0 0 0 2 4"', "map.toml: row 4, hex 4 is 'X'"),
    ("map.toml", "a = [0, 1]", "a = [0, 99]", "map.toml [zones]: `a` must list the rows"),
    ("pack.toml", "points = 50", "points = 5", "pack.toml: `points` must be a whole number from 10 to 1000"),
])
def test_a_broken_pack_names_file_entry_and_field(tmp_path, name, old, new, needle):
    with pytest.raises(ContentError) as err:
        parse_pack(broken(tmp_path, name, old, new))
    assert any(needle in e for e in err.value.errors), err.value.errors


def test_a_pack_needs_eight_unit_types(tmp_path):
    dst = broken(tmp_path, "units.toml", "[[unit]]\nid = \"bell-chanter\"", "[[skip]]\nid = \"bell-chanter\"")
    text = (dst / "units.toml").read_text()
    (dst / "units.toml").write_text(text.replace('[[unit]]\nid = "drowned-knight"', '[[skip]]\nid = "drowned-knight"'))
    with pytest.raises(ContentError) as err:
        parse_pack(dst)
    assert "units.toml: a pack needs at least 8 unit types (found 7)" in err.value.errors
