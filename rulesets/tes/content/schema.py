"""The fixed vocabularies of an Elder Scrolls content pack: battle forms, codes, statuses, timings.

The loader checks a pack's words against these; the rules and presenters read the
same tables (one table of battle forms, named and symbolised once).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BattleForm:
    id: str
    name: str  # as players read it: "Light Weapon"
    symbol: str
    reach: str  # the range rule, in a few words


#: The battle forms, in the order menus list them.  The one table: every other form table derives from it.
FORMS: dict[str, BattleForm] = {f.id: f for f in (
    BattleForm("light", "Light Weapon", "🗡️", "adjacent only (light weapon)"),
    BattleForm("heavy", "Heavy Weapon", "🪓", "adjacent only (heavy weapon)"),
    BattleForm("defensive", "Defensive", "🛡️", "no range"),
    BattleForm("ranged", "Ranged Weapon", "🏹", "not adjacent, up to your Stamina"),
    BattleForm("magic", "Magic", "⚡", "up to your Magicka; Combat dice cannot be rolled"),
)}
#: form id -> its range rule.
BATTLE_FORMS: dict[str, str] = {f.id: f.reach for f in FORMS.values()}
#: form id -> its name.
BATTLE_FORM_NAMES: dict[str, str] = {f.id: f.name for f in FORMS.values()}
#: Forms in which Combat dice may be rolled.
COMBAT_FORMS: tuple[str, ...] = ("light", "heavy", "defensive", "ranged")

CONSTELLATIONS = ("mage", "thief", "warrior")
STATS = ("stamina", "magicka")

#: Resolving Skill Abilities codes.
ABILITY_CODES: dict[str, str] = {
    "A": "Active slot: the die goes to an active slot and works from there",
    "C": "Cooldown track: the die is exhausted and works while it sits in the cooldown track",
    "D": "Drained: resolve now, then the die is drained until the battle ends",
    "I": "Instant: resolve now, then exhaust the die",
    "S": "Status effect: the die is placed on a unit or hex and works from there",
}

#: Status effects (short reminders; the battle engine owns the rules).
STATUS_EFFECTS: dict[str, str] = {
    "bane": "takes 1 true damage at the start of each of its turns",
    "blind": "treats every unit as an opponent and may only target the strongest adjacent unit",
    "daze": "cannot both move and roll dice in one turn; removed at the end of its turn",
    "fear": "its non-Combat skills do nothing (dice already placed keep working)",
    "maim": "damage rolled on its Combat dice is halved, rounded down (not true damage)",
    "stealth": "only units adjacent to it at the start of the turn may target it; removed after it deals damage",
}

ITEM_SUBTYPES = ("armor", "weapon", "enchantment", "consumable", "potion", "clothing", "misc", "pet")
ITEM_RARITIES = ("common", "legendary")
ITEM_KEYWORDS = ("expend", "overtax")
ENEMY_TYPES = ("humanoid", "beast", "daedra")
ENEMY_PRIORITIES = ("strongest", "weakest")
ENEMY_LEVELS = (1, 5, 10, 20)
BAG_OF_LEVEL = {1: "1/5", 5: "1/5", 10: "10/20", 20: "10/20"}
CLASS_KEYWORDS = ("enduring", "interrupt")
TILE_KINDS = ("clash", "entrance", "delve", "dungeon", "obstacle")
ENCOUNTER_MODES = ("clash", "delve", "dungeon")
OBJECTIVES = ("conquer", "eliminate", "escape-or-eliminate-all", "survive", "survey", "uncover")
#: Delve tile shapes (hexes per tile), as delve cards name them (rulebook p.12: the 19-hex tile, three each of 3, 6, 7).
DELVE_SHAPES = (3, 6, 7, 19)
#: When a delve card's environment works (rulesets.tes.battle.delve): for an adventurer who starts or ends their
#: turn on its tile or enters it during their turn, or for every unit on the tile at the start of each round.
ENVIRONMENT_TIMINGS = ("start of your turn", "end of your turn", "enter", "start of round")
#: When a delve card's trap effect resolves: when the lockpick check fails, or when it succeeds.
TRAP_ON = ("fail", "success")
TRIGGER_TIMINGS = ("before battle", "start of battle", "start of round", "end of round", "end of battle")

TIMINGS: tuple[str, ...] = (
    "any time",
    "your turn",
    "start of your turn",
    "end of your turn",
    "after you engage",
    "after your engage is resolved",
    "when you engage",
    "when an enemy engages you",
    "after an enemy engages you",
    "when you are dealt damage",
    "when you defeat an enemy",
    "when an ally is dealt damage",
    "when an ally within 2 hexes is defeated",
    "before battle",
    "start of battle",
    "start of round",
    "end of round",
    "end of battle",
    "outside battle",
    "reward phase",
    # enemy skills
    "start of its turn",
    "end of its turn",
    "when it engages",
    "after it engages",
    "when it is dealt damage",
    "after it is engaged",
    "when it is defeated",
    "always",
)

#: Effect targets (rulesets.tes.battle.effects says which units each one reaches).
TARGETS = ("target", "near-target", "self", "ally", "allies-in-range", "adjacent-enemies", "all-in-range", "attacker",
           "other-allies-in-range", "adventurers", "tile-units", "tile-adventurers", "tile-enemies")


#: Conditions an effect may carry (``if``): it applies only when the condition holds.
CONDITIONS: dict[str, str] = {
    "adjacent-enemy": "an enemy is adjacent to you",
    "rolled-magicka": "you rolled at least one Magicka die this turn",
    "ally-next-to-target": "another unit of your side is next to your target",
}
#: What an effect's amount may be counted by (``per``, with ``most`` as the cap): the amount for each of them.
COUNTS: dict[str, str] = {
    "adjacent-enemy": "adjacent enemy",
}


def _whole(v) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else "must be a whole number from 1"


def _effect_registry():
    from engine.effects import Field, Registry, as_list, list_of, one_of

    return Registry({"forms": Field(list_of("battle forms", BATTLE_FORMS), read=as_list),
                     "if": Field(one_of(*CONDITIONS)), "per": Field(one_of(*COUNTS)), "most": Field(_whole)})


#: The effect primitives a pack may use.  The loader checks effects against it; the battle engine
#: (rulesets.tes.battle.effects) registers each primitive's class here, with its behaviour and words.
EFFECTS = _effect_registry()
