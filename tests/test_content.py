"""Content packs: the starter pack loads and holds what the rules need; broken packs fail clearly."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesets.tes import content
from rulesets.tes.battle.effects import REGISTRY
from rulesets.tes.content import (
    BATTLE_FORMS,
    encounter_map,
    ContentError,
    DEFAULT_PACK,
    hex_distance,
    list_packs,
    load_pack,
    parse_face,
)


@pytest.fixture(scope="module")
def pack():
    return load_pack(DEFAULT_PACK)


@pytest.fixture
def copy_pack(tmp_path):
    dst = tmp_path / "mypack"
    shutil.copytree(content.CONTENT_DIR / "starter", dst)
    return dst


def _errors(folder: Path) -> list[str]:
    content.clear_cache()
    with pytest.raises(ContentError) as exc:
        load_pack(str(folder))
    assert exc.value.errors, "ContentError must list its problems"
    assert str(exc.value) == "\n".join(exc.value.errors)
    return exc.value.errors


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


# ---------------------------------------------------------------- the starter pack

def test_starter_is_listed_and_loads(pack):
    assert "starter" in list_packs()
    assert pack.id == "starter"
    assert load_pack("starter") is pack  # cached


def test_starter_counts(pack):
    assert len(pack.races) >= 8
    assert "combat" in pack.lines
    ordinary = [line for line in pack.lines.values() if line.id != "combat"]
    assert len(ordinary) >= 8
    assert {line.constellation for line in ordinary} == {"mage", "thief", "warrior"}
    for needed in ("bow", "destruction-staff", "one-hand-and-shield", "two-handed", "restoring-light",
                   "acrobatics", "heavy-armor", "shadow"):
        assert needed in pack.lines
    assert len(pack.classes) == 15
    assert len(pack.items) >= 12
    assert len(pack.quests) >= 1
    clash_encounters = [e for e in pack.encounters.values() if e.mode == "clash"]
    assert len(clash_encounters) >= 3
    assert len(pack.enemies_in_bag("1/5")) >= 10
    assert len(pack.enemies_in_bag("10/20")) >= 6


def test_rulebook_race_values(pack):
    de = pack.races["dark-elf"]
    assert (de.health, de.stamina, de.magicka, de.combat, de.cooldown) == (4, 2, 3, 2, 2)
    kinds = [e["type"] for e in de.ability.effects]
    assert kinds == ["recover", "fatigue"]
    assert de.ability.effects[0]["amount"] == 4 and de.ability.effects[1]["kind"] == "light"
    ar = pack.races["argonian"]
    assert (ar.health, ar.stamina, ar.magicka, ar.combat, ar.cooldown) == (5, 3, 2, 1, 2)


def test_every_die_has_six_faces_with_defined_icons(pack):
    for line in pack.lines.values():
        assert line.dice
        for die in line.dice:
            assert die.line == line.id
            assert len(die.faces) == 6, die.id
            for face in die.faces:
                for result in face.results:
                    assert result.icon in line.abilities, (die.id, result.icon)
        if line.id == "combat":
            assert len(line.dice) == 1 and line.dice[0].level == 1 and line.form is None
        else:
            assert {d.level for d in line.dice} == {1, 2, 3, 4}
    assert len(pack.enemy_combat_die) == 6


def test_combat_line_behaviour(pack):
    combat = pack.lines["combat"]
    dmg = combat.abilities["damage"]
    assert dmg.code_in("light") == "I" and dmg.code_in("defensive") == "A"
    assert "magic" not in content.COMBAT_FORMS and set(content.COMBAT_FORMS) < set(BATTLE_FORMS)


def test_named_dice_and_stats(pack):
    assert pack.die("force-shock").line == "destruction-staff" and pack.die("force-shock").level == 1
    assert pack.die("shield-discipline").line == "one-hand-and-shield" and pack.die("shield-discipline").level == 1
    assert pack.die("wrecking-blow").line == "two-handed" and pack.die("wrecking-blow").level == 1
    assert pack.die("breath-of-life").line == "restoring-light" and pack.die("breath-of-life").level == 2
    assert pack.lines["one-hand-and-shield"].stat == "stamina"
    assert pack.lines["destruction-staff"].stat == "magicka" and pack.lines["destruction-staff"].form == "magic"
    assert pack.lines["bow"].form == "ranged"
    with pytest.raises(KeyError):
        pack.die("no-such-die")


def test_shield_discipline_supports_the_turn_examples(pack):
    # Two results that each deal 1 damage, then sit in active slots to prevent damage later.
    sd = pack.die("shield-discipline")
    values = [r.value for f in sd.faces for r in f.results if r.icon == "damage"]
    assert values.count(1) >= 1 and 2 in values
    ab = pack.lines["one-hand-and-shield"].abilities["damage"]
    assert ab.code == "A"
    assert [e["type"] for e in ab.effects] == ["damage", "prevent"]
    # Resolve stays in the cooldown track after preventing.
    res = pack.lines["heavy-armor"].abilities["resolve"]
    assert res.code == "C" and res.effects[0]["while"] == "cooldown" and res.effects[0]["spend"] == "stay"


def test_jailbreak_enemies_and_argonian_bandit(pack):
    jb = pack.encounters["jailbreak"]
    assert jb.enemy_rule == "bag" and jb.per_adventurer == 1 and jb.xp_dial == 1
    assert len(jb.bag) == 5
    for eid in jb.bag:
        enemy = pack.enemies[eid]
        assert enemy.level == 1
        sides = pack.enemies_in_bag("1/5")[enemy.chip]
        assert [s.level for s in sides] == [1, 5]
    bandit = pack.enemies["argonian-bandit"]
    assert bandit.targets == 2 and bandit.range == 3 and bandit.priority == "strongest" and bandit.combat == 1
    enfeeble = next(s for s in bandit.skills if s.id == "enfeeble")
    assert enfeeble.value == 1 and enfeeble.effects[0]["type"] == "fatigue"
    assert any(s.id == "dodge" for s in pack.enemies["high-elf-bandit"].skills)


def test_jailbreak_rewards_and_map(pack):
    jb = pack.encounters["jailbreak"]
    assert jb.objective == "escape-or-eliminate-all"
    ach = [a.id for a in jb.achievements]
    assert len(ach) == 11 and set(jb.class_rewards) == set(ach)
    rewarded = {r.class_id for rs in jb.class_rewards.values() for r in rs if r.class_id}
    assert rewarded == set(pack.classes)
    expansion = sorted(r.name for rs in jb.class_rewards.values() for r in rs if r.expansion_only)
    assert expansion == ["Arcanist", "Burglar", "Ranger"]
    bm = encounter_map(pack, "jailbreak")
    assert bm.escape and bm.entrance and set(bm.caches.values()) == {"common"}
    assert sorted(bm.enemy_slots)[:4] == [1, 2, 3, 4]
    assert not bm.impassable & set(bm.enemy_slots.values())
    # escape hexes lie at the far end: farther from the entrance than any enemy hex
    entry = min(bm.entrance)
    far = min(hex_distance(entry, h) for h in bm.escape)
    assert far > max(hex_distance(entry, h) for h in bm.enemy_slots.values()) - 2


def test_classes_have_two_sides(pack):
    for cls in pack.classes.values():
        assert cls.promotion and cls.novice.innate.text and cls.master.innate.text
        assert 3 <= len(cls.novice.abilities) <= 5
        assert [a.id for a in cls.master.abilities] == [a.id for a in cls.novice.abilities]
        assert any(a.improved for a in cls.master.abilities)
        for a in cls.novice.abilities:
            assert 1 <= a.cost <= 5


def test_all_effects_use_the_vocabulary(pack):
    def walk(effects):
        for e in effects:
            assert e["type"] in REGISTRY and set(e) <= {"type", *REGISTRY.allowed(e["type"])}

    for r in pack.races.values():
        walk(r.ability.effects)
    for line in pack.lines.values():
        for ab in line.abilities.values():
            walk(ab.effects)
    for it in pack.items.values():
        walk(it.effects)
        walk(it.overtax_effects)
        if it.subtype == "armor":
            assert it.traits
        assert len(it.difficulty_code) >= 3 and it.lockpick_attempts >= 1
    for cls in pack.classes.values():
        for side in (cls.novice, cls.master):
            walk(side.innate.effects)
            for a in side.abilities:
                walk(a.effects)
                assert a.effects or a.manual


def test_mat_spec(pack):
    mat = pack.mat
    assert mat.rows == 5 and mat.squares_per_row == 6
    assert len(mat.left_costs) == len(mat.right_costs) == 6
    assert mat.cooldown_track_size == 13 and mat.tenacity_max == 5 and mat.saved_xp_max == 3
    assert all(mat.cooldown_stat_costs[v] == v for v in mat.cooldown_stat_costs)


def test_search(pack):
    ids = [i for i, _ in pack.search("races", "elf")]
    assert {"dark-elf", "high-elf", "wood-elf"} <= set(ids)
    assert pack.search("races", "DARK")[0] == ("dark-elf", "Dark Elf")
    assert ("destruction-staff", "Destruction Staff") in pack.search("lines", "staff")
    assert pack.search("enemies", "zzzz") == []
    assert pack.search("classes", "")  # empty text lists everything
    assert pack.search("encounters", "jail")[0][0] == "jailbreak"
    with pytest.raises(ValueError):
        pack.search("spells", "x")


# ---------------------------------------------------------------- face notation

def test_parse_face():
    f = parse_face("1 damage + tenacity", ["damage", "tenacity"])
    assert [(r.icon, r.value) for r in f.results] == [("damage", 1), ("tenacity", None)]
    assert parse_face("blank", ["damage"]).blank
    with pytest.raises(ValueError, match="fireball"):
        parse_face("2 fireball", ["damage"])
    with pytest.raises(ValueError):
        parse_face("two damage", ["damage"])


# ---------------------------------------------------------------- packs by path and broken packs

def test_pack_by_path_loads(copy_pack):
    _edit(copy_pack / "pack.toml", 'id = "starter"', 'id = "mypack"')
    content.clear_cache()
    p = load_pack(str(copy_pack))
    assert p.id == "mypack" and p.path == copy_pack.resolve()


def test_cache_notices_changes(copy_pack):
    content.clear_cache()
    first = load_pack(str(copy_pack))
    assert load_pack(str(copy_pack)) is first
    import os, time
    path = copy_pack / "races.toml"
    _edit(path, 'name = "Nord"', 'name = "Snow Nord"')
    t = time.time() + 5
    os.utime(path, (t, t))
    second = load_pack(str(copy_pack))
    assert second is not first and second.races["nord"].name == "Snow Nord"


def test_unknown_pack_name():
    with pytest.raises(ContentError, match="no content pack"):
        load_pack("no-such-pack-here")


def test_bad_number(copy_pack):
    _edit(copy_pack / "races.toml", "health = 4\nstamina = 2", 'health = "four"\nstamina = 2')
    errs = _errors(copy_pack)
    assert any(e.startswith('races.toml, race "dark-elf": health must be a whole number from 1 to 10, got "four"')
               for e in errs), errs


def test_unknown_icon_on_a_face(copy_pack):
    _edit(copy_pack / "skill_lines" / "bow.toml", '"1 damage", "2 damage", "2 damage", "1 pierce"',
          '"1 damage", "2 fireball", "2 damage", "1 pierce"')
    errs = _errors(copy_pack)
    msg = next(e for e in errs if "fireball" in e)
    assert msg.startswith('skill_lines/bow.toml, line "bow", die "snipe": face 2')
    assert "does not define" in msg


def test_wrong_face_count(copy_pack):
    _edit(copy_pack / "skill_lines" / "bow.toml", '"1 damage", "2 damage", "2 damage", "1 pierce", "tenacity", "blank"',
          '"1 damage", "2 damage"')
    errs = _errors(copy_pack)
    assert any('die "snipe": faces must list exactly 6 faces, got 2' in e for e in errs), errs


def test_missing_field(copy_pack):
    _edit(copy_pack / "races.toml", "magicka = 3\ncombat = 2", "combat = 2")
    errs = _errors(copy_pack)
    assert any(e == 'races.toml, race "dark-elf": is missing the field "magicka"' for e in errs), errs


def test_bad_cross_references(copy_pack):
    _edit(copy_pack / "encounters.toml", 'bag = ["high-elf-bandit",', 'bag = ["high-elf-bandet",')
    _edit(copy_pack / "encounters.toml", 'first-turn = { classes = ["dragonknight"] }',
          'first-turn = { classes = ["dragon-knight"] }')
    _edit(copy_pack / "encounters.toml", '{ tile = "riverside-ford"', '{ tile = "riverside-fjord"')
    errs = _errors(copy_pack)
    joined = "\n".join(errs)
    assert 'encounters.toml, encounter "jailbreak", enemies: bag names enemy "high-elf-bandet"' in joined
    assert 'encounter "jailbreak", rewards "first-turn": names class "dragon-knight"' in joined
    assert 'encounter "bandit-ambush", tiles #1: names tile "riverside-fjord"' in joined


def test_unknown_enemy_skill_and_effect_type(copy_pack):
    _edit(copy_pack / "enemies.toml", 'skills = ["enfeeble 1"]', 'skills = ["enfeble 1"]')
    _edit(copy_pack / "races.toml", '{ type = "bonus-hp", amount = 3 }', '{ type = "shield", amount = 3 }')
    errs = _errors(copy_pack)
    assert any(e.startswith('enemies.toml, enemy "argonian-bandit": skills names "enfeble 1"') for e in errs), errs
    assert any(e.startswith('races.toml, race "breton", ability: effects #1 has type "shield"') for e in errs), errs


def test_duplicate_ids(copy_pack):
    text = (copy_pack / "items.toml").read_text(encoding="utf-8")
    (copy_pack / "items.toml").write_text(text + '\n[[item]]\nid = "iron-sword"\nname = "Copy"\nrarity = "common"\n'
                                          'subtype = "misc"\ntext = "x"\nmanual = true\nlockpick = "3: 1-2-3"\n',
                                          encoding="utf-8")
    errs = _errors(copy_pack)
    assert any(e.startswith('items.toml, item "iron-sword": duplicate id') for e in errs), errs


def test_toml_syntax_error_names_line(copy_pack):
    _edit(copy_pack / "items.toml", 'name = "Iron Sword"', 'name = "Iron Sword')
    errs = _errors(copy_pack)
    msg = next(e for e in errs if e.startswith("items.toml"))
    assert "not valid TOML" in msg and "line" in msg


def test_many_errors_are_collected(copy_pack):
    _edit(copy_pack / "races.toml", "cooldown = 2", "cooldown = 0")
    _edit(copy_pack / "enemies.toml", 'priority = "weakest"', 'priority = "closest"')
    _edit(copy_pack / "pack.toml", "left_costs = [1, 1, 2, 2, 3, 4]", "left_costs = [1, 2]")
    errs = _errors(copy_pack)
    files = {e.split(",")[0].split(":")[0] for e in errs}
    assert {"races.toml", "enemies.toml", "pack.toml"} <= files


def test_cli_validate(copy_pack, capsys):
    assert content.main(["validate", "starter"]) == 0
    assert capsys.readouterr().out.startswith("OK")
    _edit(copy_pack / "races.toml", "health = 5", "health = 50")
    content.clear_cache()
    assert content.main(["validate", str(copy_pack)]) == 1
    out = capsys.readouterr().out
    assert "health must be a whole number" in out


def test_companions_load_and_are_brought_by_an_encounter_and_an_item(pack):
    assert {"hired-sellsword", "war-hound"} <= set(pack.companions)
    sword = pack.companions["hired-sellsword"]
    assert sword.movement == 2 and [s.label for s in sword.skills] == ["Riposte 1"]
    assert pack.encounters["sellsword-contract"].companions == ("hired-sellsword",)
    lead = pack.items["war-hound-lead"]
    assert lead.timing == "start of battle" and lead.effects[0] == {"type": "companion", "companion": "war-hound"}


def test_bad_companion_references(copy_pack):
    _edit(copy_pack / "encounters.toml", 'companions = ["hired-sellsword"]', 'companions = ["hired-sellswerd"]')
    _edit(copy_pack / "items.toml", 'companion = "war-hound"', 'companion = "war-hund"')
    _edit(copy_pack / "companions.toml", 'skills = ["hamstring"]', 'skills = ["hamstrung"]')
    errs = _errors(copy_pack)
    joined = "\n".join(errs)
    assert 'encounter "sellsword-contract": names companion "hired-sellswerd"' in joined
    assert 'item "war-hound-lead": names companion "war-hund"' in joined
    assert 'companions.toml, companion "war-hound": skills names "hamstrung"' in joined


def test_cli_validate_as_a_module_from_the_shell():
    """`python -m rulesets.tes.content validate starter`, exactly as docs/content-format.md tells a pack author."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-m", "rulesets.tes.content", "validate", "starter"], cwd=root,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("OK: ") and "15 classes" in proc.stdout
    assert "RuntimeWarning" not in proc.stderr


def test_content_hash_changes_with_any_file_and_only_then(copy_pack):
    import os

    base = content.content_hash(copy_pack)
    assert len(base) == 16 and base == content.content_hash(copy_pack)
    files = content.pack_files(copy_pack)
    assert {f.relative_to(copy_pack).as_posix() for f in files} >= {"pack.toml", "races.toml", "skill_lines/combat.toml"}
    seen = {base}
    for f in files:
        before = f.read_bytes()
        f.write_bytes(before + b"\n# an author's note\n")
        changed = content.content_hash(copy_pack)
        assert changed not in seen, f"editing {f.name} did not change the hash"
        seen.add(changed)
        f.write_bytes(before)  # the same bytes again: the same hash, whatever the file's time says
        os.utime(f, (1, 1))
        assert content.content_hash(copy_pack) == base
    # renaming, adding and removing a file change it; a hidden file (an editor's) does not
    (copy_pack / "notes.txt").write_text("ideas")
    added = content.content_hash(copy_pack)
    assert added != base
    (copy_pack / "notes.txt").rename(copy_pack / "notes2.txt")
    assert content.content_hash(copy_pack) not in (base, added)
    (copy_pack / "notes2.txt").unlink()
    (copy_pack / ".notes.swp").write_text("x")
    assert content.content_hash(copy_pack) == base
    # the whole pack moved elsewhere keeps its hash
    moved = copy_pack.parent / "moved"
    copy_pack.rename(moved)
    assert content.content_hash(moved) == base


def test_loaded_pack_carries_its_hash_and_reloads_when_a_file_changes(copy_pack):
    content.clear_cache()
    first = load_pack(str(copy_pack))
    assert first.content_hash == content.content_hash(copy_pack)
    assert load_pack(str(copy_pack)) is first  # cached
    _edit(copy_pack / "races.toml", "health = 5", "health = 6")
    second = load_pack(str(copy_pack))
    assert second.content_hash != first.content_hash and second.content_hash == content.content_hash(copy_pack)


def test_one_slug_and_every_id_resolves_to_itself(pack):
    from engine.text import slug

    assert slug("Dark Elf") == "dark-elf" == slug("  dark_elf ") == slug("DARK-ELF")
    assert slug("Lockpick Set's") == "lockpick-set-s" and slug("Éclair 2") == "eclair-2" and slug("!!") == ""
    tables = [pack.races, pack.lines, pack.classes, pack.enemies, pack.items, pack.encounters, pack.tiles,
              pack.quests, pack.companions, pack.dice()]
    for table in tables:
        for ident, entry in table.items():
            assert slug(ident) == ident
            name = getattr(entry, "name", None)
            if name:  # a name typed by a player finds the entry it found before (one dash per gap)
                import re
                assert slug(name) == re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def test_battle_forms_are_named_once():
    from rulesets.tes.content.schema import FORMS
    from rulesets.tes.present import presenter

    assert presenter.FORM_NAMES is content.BATTLE_FORM_NAMES
    assert list(content.BATTLE_FORMS) == list(FORMS) and content.BATTLE_FORM_NAMES["ranged"] == "Ranged Weapon"


def test_tile_drawings_use_the_kernel_hexes():
    from engine import hexes

    cells = content.parse_hex_map(". .\n . .\n. .")
    assert set(cells) == {hexes.from_odd_r(c, r) for r in range(3) for c in range(2)}
    for h in cells:
        assert hexes.from_odd_r(*hexes.to_odd_r(hexes.Hex(*h))) == h


def test_supply_is_read_from_the_pack_and_checked(copy_pack):
    text = (copy_pack / "pack.toml").read_text()
    (copy_pack / "pack.toml").write_text(text.replace("light_fatigue = 20", "light_fatigue = 25"))
    content.clear_cache()
    assert load_pack(str(copy_pack)).supply.light_fatigue == 25
    (copy_pack / "pack.toml").write_text(text.replace("status_dice = 12", 'status_dice = "many"\nbadges = 3'))
    errs = _errors(copy_pack)
    assert any("supply: status_dice must be a whole number from 0 to 200" in e for e in errs), errs
    assert any('supply: has an unknown field "badges"' in e for e in errs), errs


def test_unstable_die_picks_a_deck_or_a_caravan():
    from rulesets.tes.present.presenter import UNSTABLE_FACES

    assert set(UNSTABLE_FACES) == {1, 2, 3, 4, 5, 6}
    kinds = {face.split(" ")[0] for face in UNSTABLE_FACES.values()}
    assert kinds == {"Peaceful", "Conflict", "Traveling"}
    assert UNSTABLE_FACES[6].startswith("Peaceful")  # the rulebook's overland example rolls a 6: peaceful
    assert not any(w in " ".join(UNSTABLE_FACES.values()) for w in ("Clash", "Delve"))


def test_every_encounter_entrance_has_five_hexes_and_never_bottles_the_party_up(pack):
    """One adventurer standing on any entrance hex, or on a battlefield hex next to it, never shuts the rest in."""
    from engine import hexes

    for enc in pack.encounters.values():
        if enc.mode == "delve":  # a delve starts with its entrance tile alone (tests/test_delve.py)
            continue
        bm = encounter_map(pack, enc.id)
        assert len(bm.entrance) == 5, enc.id
        open_ = {hexes.Hex(*h) for h in bm.hexes if h not in bm.impassable}
        entrance = {hexes.Hex(*h) for h in bm.entrance}
        doorstep = {n for h in entrance for n in hexes.neighbours(h) if n in open_ and n not in entrance}
        assert len(doorstep) >= 2, enc.id
        beyond = open_ - entrance - doorstep
        for blocker in entrance | doorstep:
            for start in entrance - {blocker}:
                reach = hexes.reachable(start, 99, open_ - {blocker})
                assert beyond & set(reach), f"{enc.id}: a unit on {blocker} shuts {start} in"


def test_an_entrance_that_bottles_the_party_up_is_refused(copy_pack):
    # a row of 2 and a row of 3 at the old place: it touches the yard through one hex
    _edit(copy_pack / "tiles.toml", 'map = """\n. .\n .\n. .\n"""', 'map = """\n_ . .\n . . .\n"""')
    _edit(copy_pack / "encounters.toml", "offset = [-2, 1]", "offset = [-4, 1]")
    errs = _errors(copy_pack)
    assert errs == ['encounters.toml, encounter "jailbreak": one adventurer standing on hex -2,2 shuts the party in: '
                    "from entrance hex -4,2 there is no other way onto the battlefield. Place the entrance so that "
                    "it touches the battlefield through more hexes"], errs


def test_an_entrance_tile_has_five_hexes(copy_pack):
    _edit(copy_pack / "tiles.toml", 'map = """\n. .\n .\n. .\n"""', 'map = """\n. .\n . .\n. .\n"""')
    errs = _errors(copy_pack)
    assert any('tile "jailbreak-entrance": an entrance tile has 5 hexes (the rulebook\'s entrance tile), got 6' in e
               for e in errs), errs


def test_campaigns_saved_before_versions_keep_their_pack_and_new_ones_pin_theirs(copy_pack):
    now = load_pack(DEFAULT_PACK)
    before = load_pack(DEFAULT_PACK, version="")  # a campaign saved before it recorded its pack's version
    assert len(before.tiles["jailbreak-entrance"].hexes) == 7 and before.supply.light_fatigue == 30
    assert len(now.tiles["jailbreak-entrance"].hexes) == 5 and now.supply.light_fatigue == 20
    assert load_pack(DEFAULT_PACK, version=now.content_hash) is now
    assert load_pack(DEFAULT_PACK, version="0123456789abcdef") is now  # not kept: the pack as it is
    # kept versions are not part of the pack's content, and a copied pack is its own pack
    assert (content.CONTENT_DIR / "starter" / ".versions" / "unversioned" / "pack.toml").is_file()
    assert not any(".versions" in str(p) for p in content.pack_files(content.CONTENT_DIR / "starter"))
    content.clear_cache()
    assert len(load_pack(str(copy_pack), version="").tiles["jailbreak-entrance"].hexes) == 5


async def test_a_new_campaign_records_its_pack_version(tmp_path):
    from commands.core import Table
    from commands.local import LocalTable
    from engine.service import CampaignService
    from engine.store import Store

    store = await Store.open(tmp_path / "t.db")
    try:
        local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "o", echo=lambda *_: None, user="ryan")
        reply = await local.run_line("/campaign new name:Pinned")
        assert not reply.error, reply.content
        state = await local.table.service.campaign("local")
        assert state.pack_version == load_pack(DEFAULT_PACK).content_hash
    finally:
        await store.close()


def test_keeping_a_version_lets_its_campaigns_play_on_after_an_edit(copy_pack, capsys):
    content.clear_cache()
    before = load_pack(str(copy_pack))
    assert content.main(["keep", str(copy_pack)]) == 0
    assert f".versions/{before.content_hash}" in capsys.readouterr().out.replace("\\", "/")
    assert content.content_hash(copy_pack) == before.content_hash  # keeping changes nothing of the pack
    _edit(copy_pack / "races.toml", "health = 5", "health = 6")
    now = load_pack(str(copy_pack))
    pinned = load_pack(str(copy_pack), version=before.content_hash)
    assert now.content_hash != before.content_hash and pinned.content_hash == before.content_hash
    first = next(r for r in before.races.values() if r.health == 5)
    assert pinned.races[first.id].health == 5 and now.races[first.id].health == 6
