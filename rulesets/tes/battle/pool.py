"""The enemy pool (EP): points, the end-of-session tables, and drawing enemies highest level first."""
from __future__ import annotations

from engine.core import Dice, RuleError

LEVELS_DESC = (20, 10, 5, 1)

#: End-of-session difficulty EP: session -> difficulty -> EP for 1..4 adventurers.
SESSION_EP: dict[int, dict[str, tuple[int, int, int, int]]] = {
    1: {"apprentice": (13, 26, 42, 56), "adept": (16, 32, 48, 64), "expert": (18, 36, 54, 72)},
    2: {"apprentice": (27, 52, 90, 120), "adept": (29, 58, 96, 128), "expert": (33, 64, 102, 132)},
    3: {"apprentice": (32, 62, 96, 128), "adept": (34, 68, 102, 136), "expert": (37, 74, 111, 152)},
}


def enemy_pool(xp_dial: int, adventurers: int) -> int:
    return max(0, int(xp_dial)) * max(0, int(adventurers))


def session_pool(session: int, difficulty: str, adventurers: int) -> int:
    if session not in SESSION_EP:
        raise RuleError(f"There is no end-of-session table for session {session}; sessions 1 to 3 have one.")
    if not 1 <= adventurers <= 4:
        raise RuleError("The end-of-session tables cover parties of 1 to 4 adventurers.")
    return SESSION_EP[session][difficulty][adventurers - 1]


def plan_levels(ep: int, slots: int) -> list[int]:
    """The levels to draw, highest possible first, until EP or the numbered hexes run out."""
    out: list[int] = []
    while len(out) < slots:
        level = next((lv for lv in LEVELS_DESC if lv <= ep), None)
        if level is None:
            break
        out.append(level)
        ep -= level
    return out


def draw(pack, levels: list[int], dice: Dice, *, bag_only: tuple[str, ...] = (),
         required: tuple[str, ...] = (), on_map: tuple[str, ...] = (),
         taken: frozenset[str] | set[str] = frozenset(), province: str | None = None) -> list[str]:
    """Draw one chip per level from its bag (chips come back to the bag only after battle).

    ``bag_only``: the bag holds only these enemy ids (the Jailbreak's five).  ``required``:
    enemy ids that must be among the draws (drawn first at their level when the plan has one).
    ``on_map``: enemy ids already on the map (a named enemy set up first): their chips are not in the bag
    (pp.21, 54), so neither side of them is drawn.  ``taken``: chips already out of their bags in this battle (a
    delve draws tile by tile).  ``province``: the battle's province code; a chip coded for a province joins the
    bags only there (pp.12, 15): a battle outside a session draws only chips without a province code.
    """
    chips: dict[str, dict[int, str]] = {}
    # the chips an encounter names (its own bag, its required enemies) are in its bags whatever their province
    named = {pack.enemies[i].chip for i in (*bag_only, *required) if i in pack.enemies}
    for e in pack.enemies.values():
        if e.quest_unit or (e.province is not None and e.province != province and e.chip not in named):
            continue
        chips.setdefault(e.chip, {})[e.level] = e.id
    if bag_only:
        allowed = {pack.enemies[i].chip for i in bag_only}
        chips = {c: sides for c, sides in chips.items() if c in allowed}
    used: set[str] = set(taken) | {pack.enemies[i].chip for i in on_map if i in pack.enemies}
    out: list[str] = []
    want = [r for r in required if r in pack.enemies]
    for level in levels:
        pick = None
        for r in list(want):
            e = pack.enemies[r]
            if e.level == level and e.chip in chips and e.chip not in used:
                pick = e.chip
                want.remove(r)
                break
        if pick is None:
            bag = sorted(c for c, sides in chips.items() if level in sides and c not in used)
            if not bag:
                continue
            pick = bag[dice.choice_index(len(bag))]
        used.add(pick)
        out.append(chips[pick][level])
    return out


def chips_out(pack, battle) -> set[str]:
    """The chips of the battle's units (on the map, defeated or fighting for the party): out of their bags."""
    out = set()
    for u in battle.units.values():
        e = pack.enemies.get(u.enemy or "")
        if e is not None:
            out.add(e.chip)
    return out


def highest_level(ep: int, most: int = 20) -> int | None:
    """The highest enemy level within ``ep`` points and at most ``most`` (None when no level fits)."""
    return next((lv for lv in LEVELS_DESC if lv <= ep and lv <= most), None)
