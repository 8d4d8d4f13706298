"""The day's content format (docs/content-format.md): the starter pack's province, gazetteer and overland cards
load, and every problem in them is named with its file, entry and field."""
from __future__ import annotations

import shutil

import pytest
from pack_helpers import copy_starter, load_errors

from rulesets.tes.content import load_pack



def test_the_saltmire_is_complete():
    pack = load_pack("starter")
    prov = pack.provinces["saltmire"]
    assert prov.code == "SM" and prov.movement == 3 and prov.start == "brinehold"
    assert len(prov.hexes) >= 60 and len(prov.towns) >= 4 and prov.caravan is not None
    kinds = {f[0] for f in prov.features.values()}
    assert {"town", "peaceful", "conflict", "unstable"} <= kinds
    assert len(prov.compass_faces) == 6 and prov.effect.steps and prov.effect.icons
    for kind in ("peaceful", "conflict"):
        assert prov.cards[kind] and all(pack.overland_cards[c].code == "SM" for c in prov.cards[kind])
        assert any(c.code == "GE" and c.kind == kind for c in pack.overland_cards.values())
    assert "speech" in pack.lines and pack.lines["speech"].constellation == "thief"


_copy, _errors = copy_starter, load_errors


@pytest.mark.parametrize("path,old,new,message", [
    ("provinces/ironpine/province.toml", 'emoji = "❄️"', 'emoji = "@everyone"',
     'emoji is one emoji (the mark of the effect\'s lines), got'),
    ("provinces/saltmire/province.toml", 'code = "SM"', 'code = "sm"',
     'provinces/saltmire/province.toml, province "saltmire": code must be two capital letters'),
    ("provinces/saltmire/province.toml", "_  s  s  h  hU f  f  _  _", "_  s  s  h  hX f  f  _  _",
     'provinces/saltmire/province.toml, province "saltmire", map: row 1 has an unknown mark "X"'),
    ("provinces/saltmire/province.toml", " _  w  m4 f", " _  w  m7 f",
     "marks town 7, which no town of the gazetteer has as its mark"),
    ("provinces/saltmire/province.toml", 'set = "high"', 'set = "neap"',
     'province "saltmire", effect, icon #2: set names step "neap"'),
    ("provinces/saltmire/province.toml", 'faces = ["ne", "e", "se", "sw", "w", "nw"]', 'faces = ["ne", "up"]',
     'compass: faces contains "up"'),
    ("provinces/saltmire/gazetteer.toml", 'features = ["shop", "trainer", "inn", "square"]',
     'features = ["shop", "trainer", "inn", "pier"]',
     'provinces/saltmire/gazetteer.toml, town "reedwick": features contains "pier"'),
    ("provinces/saltmire/gazetteer.toml", 'trainer = { lines = 3, faded = ["warrior"] }',
     'trainer = { lines = 3, faded = ["warrior", "mage", "thief"] }',
     'town "reedwick", trainer: fades out every constellation'),
    ("provinces/saltmire/peaceful.toml", 'effects = [{ type = "movement", amount = 3 }]',
     'effects = [{ type = "teleport", amount = 3 }]',
     'provinces/saltmire/peaceful.toml, card "sm-p01", choice #1: effects #1 has type "teleport"'),
    ("provinces/saltmire/peaceful.toml", 'icons = ["sun"]', 'icons = ["comet"]',
     'card "sm-p01": icons contains "comet"'),
    ("provinces/saltmire/conflict.toml", 'encounter = "sm-causeway-toll"', 'encounter = "nowhere"',
     'card "sm-c01": names encounter "nowhere"'),
    ("overland/conflict.toml", 'check = { difficulty = 2, party = "add", lines = ["speech"], mode = "gate" }',
     'check = { difficulty = 2, party = "add", lines = ["lute"], mode = "gate" }',
     'overland/conflict.toml, card "ge-c03", choice #2, check: lines names skill line "lute"'),
    ("overland/peaceful.toml", "requires = { tenacity = 2 }", "requires = { gold = 2 }",
     'card "ge-p02", choice #1, requires: has an unknown field "gold"'),
])
def test_every_problem_names_its_file_entry_and_field(tmp_path, path, old, new, message):
    folder = _copy(tmp_path)
    f = folder / path
    text = f.read_text()
    assert old in text, old
    f.write_text(text.replace(old, new, 1))
    assert message in _errors(folder)


def test_a_pack_without_provinces_still_loads(tmp_path):
    folder = _copy(tmp_path)
    shutil.rmtree(folder / "provinces")
    shutil.rmtree(folder / "overland")
    pack = load_pack(str(folder))
    assert pack.provinces == {} and pack.overland_cards == {}
