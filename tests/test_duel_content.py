"""The duel content pack: the standard pack is complete; a broken pack names every problem with its file, entry
and field; an effect or a field without behaviour is refused."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesets.duel.content import ContentError, list_packs, load_pack, parse_pack
from rulesets.duel.effects import REGISTRY

ROOT = Path(__file__).resolve().parent.parent


def test_the_standard_pack():
    pack = load_pack("duel")
    assert "duel" in list_packs() and pack.title == "Hollow Roads"
    assert {"finesse", "wit"} <= set(pack.skills)
    assert sorted(pack.hand) == ["balance", "base-attack", "base-attack", "focus", "lure"]
    assert {c.type for c in pack.cards.values()} == {"base", "spell", "gear", "action"}
    assert any(c.needs_wit for c in pack.cards.values()) and any(c.attack and c.type == "gear" for c in
                                                                 pack.cards.values())
    assert any(c.priority is None for c in pack.cards.values())  # a card that never enters a hand
    for h in pack.heroes.values():
        assert set(h.skills) == set(pack.skills) and h.grit > 0
    for m in pack.monsters.values():
        assert m.rank >= 1 and m.grit >= 1 and m.procedure
        assert sorted(v for a in m.actions for v in range(a.lo, a.hi + 1)) == list(range(1, 13))
    # every effect type of the duel is used somewhere in the pack
    used = {e["type"] for c in pack.cards.values() for e in c.hit + c.benefit + c.effects + c.reveal}
    used |= {e["type"] for m in pack.monsters.values() for a in m.actions for e in a.hit + a.effects}
    assert used == set(REGISTRY.types())


def test_the_other_games_do_not_list_the_duel_pack():
    from rulesets.skirmish.content import list_packs as skirmish_packs

    assert "duel" not in skirmish_packs()


def test_a_broken_pack_lists_every_problem_with_its_file(tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(ROOT / "content" / "duel", folder)
    cards = (folder / "cards.toml").read_text()
    cards = cards.replace('priority = 5\nattack = { skill = "wit"', 'priority = 15\nattack = { skill = "charm"', 1)
    cards = cards.replace('{ type = "fame", amount = 1 }', '{ type = "glory", amount = 1 }', 1)
    cards = cards.replace('effects = [{ type = "block", amount = 1, who = "ally" }]',
                          'effects = [{ type = "block", amount = 1, who = "ally", colour = "red" }]', 1)
    (folder / "cards.toml").write_text(cards)
    monsters = (folder / "monsters.toml").read_text().replace("from = 10\nto = 12", "from = 11\nto = 12", 1)
    (folder / "monsters.toml").write_text(monsters)
    (folder / "heroes.toml").write_text((folder / "heroes.toml").read_text().replace("wit = 1,", "wit = 9,", 1))
    with pytest.raises(ContentError) as err:
        parse_pack(folder)
    errors = "\n".join(err.value.errors)
    assert "cards.toml firebolt: `priority` must be a whole number from 1 to 12 (found 15)" in errors
    assert "cards.toml firebolt: attack `skill` must be one of might, finesse, wit, resolve (found 'charm')" in errors
    assert 'cards.toml lure effects #1 has type "glory", which is not one of' in errors
    assert 'cards.toml stoneskin effects #1 (block) has an unknown key "colour"' in errors
    assert "monsters.toml cave-troll: the actions' ranges must cover each die result 1 to 12 exactly once" in errors
    assert "heroes.toml sellsword skills: `wit` must be a whole number from 1 to 5 (found 9)" in errors
    with pytest.raises(FileNotFoundError):
        load_pack("no-such-pack")
    with pytest.raises(FileNotFoundError):
        load_pack("skirmish")  # another game's pack is not a duel pack
