"""Content packs: races, skill lines, classes, enemies, items, tiles, encounters, quests.

A pack is a folder of TOML files (see docs/content-format.md).  ``load_pack``
reads one, checks every entry and every cross-reference, and returns a
read-only :class:`Pack`.  All problems found are reported together in one
:class:`ContentError`, each naming the file, the entry and what is wrong.

One module per concern:

* ``schema``   the fixed vocabularies (battle forms, codes, statuses, timings)
* ``records``  the dataclasses a loaded pack is made of, and ``ContentError``
* ``reader``   reading TOML entries field by field, with file/entry/field messages; face notation
* ``tiles``    tile drawings, placing tiles, an encounter's map and its entrance check
* ``loader``   reading and checking each file of a pack folder
* ``packs``    finding packs, loading them once, and the pack's content hash
* ``cli``      ``python -m rulesets.tes.content validate <pack>``

Effects are checked against the effect registry (rulesets.tes.battle.effects).
This package knows nothing about Discord or pictures.
"""
from __future__ import annotations

from engine import hexes as _hexes
from rulesets.tes.content.cli import main
from rulesets.tes.content.packs import (
    CONTENT_DIR, DEFAULT_PACK, clear_cache, content_hash, keep_version, list_packs, load_pack, pack_files,
    resolve_pack_path,
)
from rulesets.tes.content.reader import ID_RE, parse_face
from rulesets.tes.content.records import (
    Ability, Achievement, BattleMap, ClassAbility, ClassDef, ClassReward, ClassSide, Companion, ContentError, DieType,
    Encounter, Enemy, EnemySkill, Face, FaceResult, Hex, IconAbility, Item, MatSpec, Pack, Quest, QuestStep, Race,
    SEARCH_KINDS, SkillLine, Supply, Tile, TilePlacement, Trigger, CardText, CardTrap, DelveCard, Dungeon,
)
from rulesets.tes.content.schema import (
    ABILITY_CODES, BAG_OF_LEVEL, BATTLE_FORM_NAMES, BATTLE_FORMS, CLASS_KEYWORDS, COMBAT_FORMS, CONSTELLATIONS,
    ENCOUNTER_MODES, ENEMY_LEVELS, ENEMY_PRIORITIES, ENEMY_TYPES, FORMS, ITEM_KEYWORDS, ITEM_RARITIES, ITEM_SUBTYPES,
    OBJECTIVES, STATS, STATUS_EFFECTS, TARGETS, TILE_KINDS, TIMINGS, TRIGGER_TIMINGS, BattleForm, DELVE_SHAPES,
    ENVIRONMENT_TIMINGS,
)
from rulesets.tes.content.tiles import (assemble_map, dungeon_map, encounter_map, entrance_problem, parse_hex_map,
                                       place_hex)


def hex_distance(a: Hex, b: Hex) -> int:
    """Hexes between two map hexes written as (q, r) (engine.hexes.distance)."""
    return _hexes.distance(_hexes.Hex(*a), _hexes.Hex(*b))


__all__ = [
    "ABILITY_CODES", "BAG_OF_LEVEL", "BATTLE_FORMS", "BATTLE_FORM_NAMES", "CLASS_KEYWORDS", "COMBAT_FORMS",
    "CONSTELLATIONS", "CONTENT_DIR", "DEFAULT_PACK", "ENCOUNTER_MODES", "ENEMY_LEVELS", "ENEMY_PRIORITIES",
    "ENEMY_TYPES", "FORMS", "ID_RE", "ITEM_KEYWORDS", "ITEM_RARITIES", "ITEM_SUBTYPES", "OBJECTIVES", "SEARCH_KINDS",
    "STATS", "STATUS_EFFECTS", "TARGETS", "TILE_KINDS", "TIMINGS", "TRIGGER_TIMINGS",
    "Ability", "Achievement", "BattleForm", "BattleMap", "ClassAbility", "ClassDef", "ClassReward", "ClassSide",
    "Companion", "ContentError", "DieType", "Encounter", "Enemy", "EnemySkill", "Face", "FaceResult", "Hex",
    "IconAbility", "Item", "MatSpec", "Pack", "Quest", "QuestStep", "Race", "SkillLine", "Supply", "Tile", "TilePlacement",
    "Trigger", "CardText", "CardTrap", "DelveCard", "Dungeon", "DELVE_SHAPES", "ENVIRONMENT_TIMINGS", "dungeon_map",
    "assemble_map", "encounter_map", "clear_cache", "content_hash", "keep_version", "entrance_problem", "hex_distance", "list_packs", "load_pack",
    "main", "pack_files", "parse_face", "parse_hex_map", "place_hex", "resolve_pack_path",
]
