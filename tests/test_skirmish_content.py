"""The skirmish content pack: the standard pack is complete and original-sized; a broken pack names every problem."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesets.skirmish.content import ContentError, list_packs, load_pack, parse_pack

ROOT = Path(__file__).resolve().parent.parent


def test_the_standard_pack():
    pack = load_pack("skirmish")
    assert "skirmish" in list_packs()
    assert len(pack.fighters) >= 6 and len(pack.factions) >= 2
    for faction in pack.factions.values():
        mine = [t for t in pack.fighters.values() if t.faction == faction.id]
        assert any(t.wizard for t in mine), faction.id
        assert sum(pack.fighter(t).points for t in faction.bot_roster) <= pack.points
    for t in pack.fighters.values():
        assert t.move > 0 and t.toughness > 0 and t.wounds > 0 and t.attack.range >= 1 and t.attack.attacks >= 1
    kinds = {a.cost for a in pack.abilities.values()}
    assert kinds == {"double", "triple", "quad"}
    assert any(a.wizard for a in pack.abilities.values())


def test_a_broken_pack_lists_every_problem_with_its_file(tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(ROOT / "content" / "skirmish", folder)
    text = (folder / "fighters.toml").read_text()
    text = text.replace("wizard = true\n", "", 1).replace("toughness = 4", "toughness = 99", 1)
    (folder / "fighters.toml").write_text(text)
    (folder / "abilities.toml").write_text((folder / "abilities.toml").read_text().replace(
        'cost = "quad"', 'cost = "pair"'))
    with pytest.raises(ContentError) as err:
        parse_pack(folder)
    errors = "\n".join(err.value.errors)
    assert "fighters.toml bramble-guard: `toughness` must be a whole number from 1 to 10" in errors
    assert "factions.toml wardens: the warband has no Wizard" in errors
    assert "abilities.toml wildfire: `cost` must be one of double, triple, quad" in errors
    with pytest.raises(FileNotFoundError):
        load_pack("no-such-pack")
    with pytest.raises(FileNotFoundError):
        load_pack("bad\x00name")
