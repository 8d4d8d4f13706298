"""Kept versions of every ruleset's packs (engine.packs): a campaign plays the version of its pack it began on, so
editing a pack never changes what an old campaign's log replays to."""
from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.packs import VERSIONS, content_hash, keep_folder, main, pack_files
from rulesets.duel import content as duel
from rulesets.engage import content as engage
from rulesets.skirmish import content as skirmish

ROOT = Path(__file__).resolve().parents[1] / "content"


@pytest.fixture
def duel_copy(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(ROOT / "duel", folder, ignore=shutil.ignore_patterns(VERSIONS))
    return folder


def test_a_kept_version_plays_on_after_the_pack_is_edited(duel_copy):
    before = content_hash(duel_copy)
    kept = keep_folder(duel_copy)
    assert kept == duel_copy / VERSIONS / before and content_hash(kept) == before
    assert content_hash(duel_copy) == before  # keeping changes nothing of the pack
    monsters = duel_copy / "monsters.toml"
    monsters.write_text(monsters.read_text().replace("grit = 14", "grit = 19", 1))
    assert content_hash(duel_copy) != before
    now = duel.load_pack(str(duel_copy))
    old = duel.load_pack(str(duel_copy), version=before)
    assert now.monsters["cave-troll"].grit == 19 and old.monsters["cave-troll"].grit == 14
    # a campaign begun on the old version plays it; a new one the pack as it is
    assert duel.pack_of(SimpleNamespace(pack=str(duel_copy), pack_version=before)).monsters["cave-troll"].grit == 14
    assert duel.pack_of(SimpleNamespace(pack=str(duel_copy), pack_version="")).monsters["cave-troll"].grit == 19
    # a version the pack does not keep, or one that is not a version at all, is the pack as it is
    for version in ("0123456789abcdef", "../../duel", before + "/.."):
        assert duel.load_pack(str(duel_copy), version=version).monsters["cave-troll"].grit == 19


def test_kept_versions_are_not_part_of_a_pack(duel_copy):
    keep_folder(duel_copy)
    assert not any(VERSIONS in p.as_posix() for p in pack_files(duel_copy))


@pytest.mark.parametrize("module,name", [(duel, "duel"), (engage, "engage"), (skirmish, "skirmish")])
def test_each_shipped_pack_keeps_the_version_campaigns_began_on(module, name):
    """Every shipped version of the duel, engage and skirmish packs since kept versions exist is in .versions/,
    and loads as the campaign's pack."""
    kept = sorted(p.name for p in (ROOT / name / VERSIONS).iterdir())
    assert kept, name
    for version in kept:
        pack = module.pack_of(SimpleNamespace(pack=name, pack_version=version))
        assert content_hash(ROOT / name / VERSIONS / version) == version
        assert pack is not None


def test_the_command_line_keeps_a_pack(duel_copy, capsys):
    assert main(["keep", str(duel_copy)]) == 0
    assert f"{VERSIONS}/{content_hash(duel_copy)}" in capsys.readouterr().out
    assert main(["keep"]) == 2 and "usage" in capsys.readouterr().out
