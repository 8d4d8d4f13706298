"""Advancements on the adventurer mat (p.31) and untraining (p.43): what XP buys, what it costs, and the mat
changes themselves.  Used by the Reward Phase (XP) and the town's trainer (new skill lines, the Magicka stat).

Squares fill from the side of their row's circular token: the next one is the open square nearest that token.
Its cost is the number above its column: the white box (``left_costs``, counted from the left circle) for a
token on the left, the black box (``right_costs``, counted from the right circle) for one on the right.  Dice
keep their squares while exhausted or drained, so the cost of a new die is always that of the square it goes
in "as if all of that line's dice were available" (p.31).
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import RuleError
from engine.text import a_or_an
from rulesets.tes.state import Adventurer, Slot

LINE_TOKENS = 2  # circular tokens of each skill line (docs/rules-notes.md, component limits)
STAT_NAMES = {"health": "Health", "stamina": "Stamina", "magicka": "Magicka"}


@dataclass(frozen=True)
class Offer:
    """One advancement or untrain choice: ``key`` goes into the action, ``label`` is what a menu shows."""

    key: str
    label: str
    cost: int = 0


def _owns(adv: Adventurer, square: dict | None, kind: str, ident: str) -> bool:
    if not square:
        return False
    if kind == "stat":
        return square.get("stat") == ident
    die = adv.dice.get(square.get("die", ""))
    return bool(die) and die["line"] == ident


def _order(n: int, side: str) -> list[int]:
    return list(range(n)) if side == "L" else list(range(n - 1, -1, -1))


def next_square(adv: Adventurer, kind: str, ident: str) -> tuple[int, int, str] | None:
    """(row, square index, side) where the next token or die of this attribute goes, or None (row full)."""
    where = adv.find_slot(kind, ident)
    if where is None:
        return None
    row_i, side = where
    row = adv.rows[row_i]
    for i in _order(len(row.squares), side):
        sq = row.squares[i]
        if sq is None:
            return row_i, i, side
        if not _owns(adv, sq, kind, ident):
            return None  # the opposite attribute's squares reach this far
    return None


def square_cost(pack, side: str, index: int, squares: int) -> int:
    mat = pack.mat
    return mat.left_costs[index] if side == "L" else mat.right_costs[squares - 1 - index]


def dice_in_use(state, die_type: str) -> int:
    return sum(1 for a in state.adventurers.values() for d in a.dice.values() if d["type"] == die_type)


def line_tokens_in_use(state, line_id: str) -> int:
    return sum(1 for a in state.adventurers.values() if line_id in a.lines())


def open_slots(adv: Adventurer) -> list[tuple[int, str]]:
    """Open circular slots (row, side), row by row, left before right."""
    out = []
    for i, row in enumerate(adv.rows):
        for side in ("L", "R"):
            if row.slot(side) is None:
                out.append((i, side))
    return out


def slot_label(row: int, side: str) -> str:
    return f"{row + 1}{side}"


# ------------------------------------------------------------- XP buys --
def purchases(state, adv: Adventurer, pack, xp: int | None = None) -> list[Offer]:
    """Every advancement XP can buy now, with its cost (``xp``: only those affordable with it)."""
    out: list[Offer] = []
    n = pack.mat.squares_per_row
    for stat in ("health", "stamina", "magicka"):
        spot = next_square(adv, "stat", stat)
        if spot is not None:
            cost = square_cost(pack, spot[2], spot[1], n)
            out.append(Offer(f"stat:{stat}", f"{STAT_NAMES[stat]} +1 (row {spot[0] + 1}) — {cost} XP", cost))
    for line_id in adv.lines():
        line = pack.lines.get(line_id)
        if line is None:
            continue
        spot = next_square(adv, "line", line_id)
        if spot is None:
            continue
        cost = square_cost(pack, spot[2], spot[1], n)
        levels = {d["level"] for d in adv.dice.values() if d["line"] == line_id}
        for die in line.dice:
            if die.level > 1 and not ({die.level, die.level - 1} & levels):
                continue
            if dice_in_use(state, die.id) >= die.count:
                continue
            out.append(Offer(f"die:{die.id}", f"{die.name} (level {die.level} {line.name}) — {cost} XP", cost))
    costs = pack.mat.cooldown_stat_costs
    if adv.cooldown_stat + 1 in costs:
        new = adv.cooldown_stat + 1
        out.append(Offer("cooldown", f"Cooldown stat {adv.cooldown_stat} → {new} — {costs[new]} XP", costs[new]))
    if adv.tenacity < pack.mat.tenacity_max:
        out.append(Offer("tenacity", "Tenacity +1 — 1 XP", 1))
    if xp is not None:
        out = [o for o in out if o.cost <= xp]
    return out


def buy(state, adv: Adventurer, pack, key: str) -> tuple[int, str]:
    """Spend XP on one advancement; returns (XP spent, words).  Refused when it is not on offer."""
    offer = next((o for o in purchases(state, adv, pack) if o.key == key), None)
    if offer is None:
        raise RuleError(_why_not(state, adv, pack, key))
    if offer.cost > adv.saved_xp:
        raise RuleError(f"{offer.label.split(' — ')[0]} costs {offer.cost} XP and {adv.name} has {adv.saved_xp}.")
    adv.saved_xp -= offer.cost
    if key.startswith("stat:"):
        stat = key[5:]
        row_i, idx, _side = next_square(adv, "stat", stat)
        adv.rows[row_i].squares[idx] = {"stat": stat}
        if stat == "health":
            adv.hp += 1  # the Health stat rises: the adventurer gains the difference (p.20)
        words = f"adds a {STAT_NAMES[stat]} square (row {row_i + 1}): {STAT_NAMES[stat]} {adv.stat(stat)}"
    elif key.startswith("die:"):
        die = pack.die(key[4:])
        row_i, idx, _side = next_square(adv, "line", die.line)
        die_id = f"d{adv.next_die}"
        adv.next_die += 1
        adv.dice[die_id] = {"type": die.id, "line": die.line, "level": die.level}
        adv.rows[row_i].squares[idx] = {"die": die_id}
        words = f"adds {a_or_an(die.name + ' die')} (level {die.level}) to {pack.lines[die.line].name}"
    elif key == "cooldown":
        adv.cooldown_stat += 1
        words = f"raises the Cooldown stat to {adv.cooldown_stat}"
    else:  # tenacity
        adv.tenacity += 1
        words = f"gains 1 tenacity ({adv.tenacity}/{pack.mat.tenacity_max})"
    return offer.cost, words


def _why_not(state, adv: Adventurer, pack, key: str) -> str:
    if key.startswith("die:"):
        try:
            die = pack.die(key[4:])
        except KeyError:
            return f"There is no skill die `{key[4:]}` in this pack."
        line = pack.lines[die.line]
        if die.line not in adv.lines():
            return f"{adv.name} has not trained {line.name}: a trainer in town teaches new skill lines."
        if next_square(adv, "line", die.line) is None:
            return f"{line.name}'s row has no open square left; untrain something first."
        if dice_in_use(state, die.id) >= die.count:
            return f"All {die.count} {die.name} dice are in use (a component limit)."
        return (f"A level {die.level} die needs another {line.name} die of level {die.level} or "
                f"{die.level - 1} on the mat first.")
    if key.startswith("stat:"):
        stat = key[5:]
        if stat not in STAT_NAMES:
            return f"`{stat}` is not a stat (health, stamina or magicka)."
        if adv.find_slot("stat", stat) is None:
            return f"{adv.name} has no {STAT_NAMES[stat]} token (a trainer adds the Magicka stat back)."
        return f"{STAT_NAMES[stat]}'s row has no open square left."
    if key == "cooldown":
        return f"{adv.name}'s Cooldown stat is already at its highest."
    if key == "tenacity":
        return f"{adv.name}'s tenacity is already at its maximum ({pack.mat.tenacity_max})."
    return ("Choose an advancement: a stat (`stamina`), a skill die by name, `cooldown` or `tenacity` "
            "(the menu lists what you can buy).")


# -------------------------------------------------------------- untrain --
def untrainables(adv: Adventurer, pack) -> list[Offer]:
    """What may be untrained (p.43): square tokens and dice; skill lines (not Combat); the Magicka stat."""
    out: list[Offer] = []
    for stat in ("health", "stamina", "magicka"):
        if any(sq and sq.get("stat") == stat for row in adv.rows for sq in row.squares):
            out.append(Offer(f"square:{stat}", f"One {STAT_NAMES[stat]} square"))
    seen: set[str] = set()
    for die_id, d in adv.dice.items():
        if d["type"] in seen:
            continue
        seen.add(d["type"])
        try:
            name = pack.die(d["type"]).name
        except KeyError:
            name = d["type"]
        out.append(Offer(f"die:{d['type']}", f"One {name} die"))
    for line_id in adv.lines():
        if line_id == "combat":
            continue
        line = pack.lines.get(line_id)
        out.append(Offer(f"line:{line_id}", f"The {line.name if line else line_id} skill line and all its dice"))
    if adv.find_slot("stat", "magicka") is not None:
        out.append(Offer("line:magicka", "The Magicka stat (token and squares)"))
    return out


def untrain(adv: Adventurer, pack, key: str) -> str:
    """Take one thing off the mat (no XP back); returns the words.  Health, Stamina and Combat stay (p.43)."""
    if key in ("line:health", "line:stamina", "line:combat"):
        what = {"line:health": "the Health stat", "line:stamina": "the Stamina stat",
                "line:combat": "the Combat skill line"}[key]
        raise RuleError(f"{adv.name} cannot untrain {what}; its squares or dice can be untrained.")
    offer = next((o for o in untrainables(adv, pack) if o.key == key), None)
    if offer is None:
        raise RuleError("That is not on the mat. Untrain one of: "
                        + ", ".join(o.label for o in untrainables(adv, pack)) + ".")
    if key.startswith("square:"):
        stat = key[7:]
        row_i, side = adv.find_slot("stat", stat)
        row = adv.rows[row_i]
        idx = next(i for i in reversed(_order(len(row.squares), side)) if row.squares[i]
                   and row.squares[i].get("stat") == stat)
        row.squares[idx] = None
        _slide(adv, "stat", stat)
        if stat == "health":
            adv.hp = min(adv.hp, adv.max_hp)
        return f"untrains a {STAT_NAMES[stat]} square ({STAT_NAMES[stat]} {adv.stat(stat)})"
    if key.startswith("die:"):
        die_type = key[4:]
        ids = [i for i, d in adv.dice.items() if d["type"] == die_type]
        out_of_row = {e["die"] for e in adv.cooldown if "die" in e} | set(adv.drained)
        die_id = next((i for i in reversed(ids) if i in out_of_row), ids[-1])  # an exhausted one first
        line = adv.dice[die_id]["line"]
        _remove_die(adv, die_id)
        _slide(adv, "line", line)
        return f"untrains {a_or_an(offer.label[4:])}"
    # a skill line (or the Magicka stat) with all its squares
    ident = key[5:]
    kind = "stat" if ident == "magicka" else "line"
    row_i, side = adv.find_slot(kind, ident)
    row = adv.rows[row_i]
    for i, sq in enumerate(row.squares):
        if _owns(adv, sq, kind, ident):
            if sq.get("die"):
                _remove_die(adv, sq["die"])
            row.squares[i] = None
    if side == "L":
        row.left = None
    else:
        row.right = None
    if kind == "stat":
        return "untrains the Magicka stat"
    return f"untrains the {pack.lines[ident].name if ident in pack.lines else ident} skill line and its dice"


def _remove_die(adv: Adventurer, die_id: str) -> None:
    for row in adv.rows:
        for i, sq in enumerate(row.squares):
            if sq and sq.get("die") == die_id:
                row.squares[i] = None
    adv.dice.pop(die_id, None)
    adv.cooldown = [e for e in adv.cooldown if e.get("die") != die_id]
    for lst in (adv.drained, adv.away, adv.placed):
        while die_id in lst:
            lst.remove(die_id)


def _slide(adv: Adventurer, kind: str, ident: str) -> None:
    """Close the gaps: an attribute's squares sit next to its token, with no empty square between (p.43)."""
    where = adv.find_slot(kind, ident)
    if where is None:
        return
    row = adv.rows[where[0]]
    order = _order(len(row.squares), where[1])
    mine = [row.squares[i] for i in order if _owns(adv, row.squares[i], kind, ident)]
    for i in order:
        if _owns(adv, row.squares[i], kind, ident):
            row.squares[i] = None
    free = [i for i in order if row.squares[i] is None]
    for sq, i in zip(mine, free):
        row.squares[i] = sq


# -------------------------------------------------------------- trainer --
def add_line(adv: Adventurer, line_id: str, slot: tuple[int, str]) -> None:
    """Place a skill line token (or the Magicka stat) in an open circular slot."""
    row_i, side = slot
    row = adv.rows[row_i]
    if row.slot(side) is not None:
        raise RuleError(f"Slot {slot_label(row_i, side)} is taken; choose an open circular slot: "
                        + ", ".join(slot_label(*s) for s in open_slots(adv)) + ".")
    token = Slot("stat", "magicka") if line_id == "magicka" else Slot("line", line_id)
    if side == "L":
        row.left = token
    else:
        row.right = token
