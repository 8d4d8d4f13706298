"""Social checks (p.42).

1. Gather and roll dice: each adventurer with available dice of the check's lines (usually Speech) may roll
   any of them; each die adds the number on its face to the party's total (p.61: rolled as in an engage, with
   no fatigue, target or battle form; a face without a number adds nothing).  From rules revision 4 as in an
   engage's gather step (p.59): no more dice of a stat's lines than the adventurer's Stamina or Magicka.
2. Spend tenacity: after seeing the dice, each adventurer commits any amount of their own tenacity.
3. Resolve: dice and tenacity together against the difficulty: equal or more succeeds.  Every skill die rolled
   is exhausted either way.  Each check is attempted once.

A defeated adventurer takes no part (they cannot roll or spend: docs/rules-notes.md).
"""
from __future__ import annotations

from engine.core import RuleError
from engine.text import slug
from rulesets.tes.battle import track
from rulesets.tes.day_state import Check, Encounter
from rulesets.tes.outcomes.asks import answered, close, open_ask
from rulesets.tes.outcomes.context import DayCtx


def check_dice(c: DayCtx, owner: str, lines: list[str]) -> list[str]:
    """The adventurer's available dice of the check's lines (die ids, in row order)."""
    adv = c.adv(owner)
    if adv.hp <= 0:
        return []
    free = set(adv.available_dice())
    out = []
    for row in adv.rows:
        for sq in row.squares:
            d = sq.get("die") if sq else None
            if d and d in free and adv.dice[d]["line"] in lines:
                out.append(d)
    return out


def all_dice(c: DayCtx, owner: str, lines: list[str]) -> list[str]:
    """``dice:all``: the available dice of the check's lines; from rules revision 4 as many of each stat as the
    adventurer's Stamina or Magicka allows, in row order (p.61: the roll follows the engage action's gather and
    roll step, p.59)."""
    mine = check_dice(c, owner, lines)
    if c.state.rules < 4:
        return mine
    adv = c.adv(owner)
    used: dict[str, int] = {}
    out = []
    for d in mine:
        stat = _stat(c, adv, d)
        if used.get(stat, 0) < adv.stat(stat):
            used[stat] = used.get(stat, 0) + 1
            out.append(d)
    return out


def _stat(c: DayCtx, adv, die_id: str) -> str:
    line = c.pack.lines.get(adv.dice[die_id]["line"])
    return line.stat if line is not None else "stamina"


def _available_words(c: DayCtx, owner: str, lines: list[str]) -> str:
    """What a refusal ends with: the dice this adventurer may roll now, as ``dice:`` takes them."""
    adv = c.adv(owner)
    mine = check_dice(c, owner, lines)
    if not mine:
        return f" {adv.name} has no available dice for this check: `dice:none`."
    words = f" Name your dice from those available now: `dice:{', '.join(_die_name(c, adv, d) for d in mine)}`"
    if c.state.rules >= 4:
        stats = sorted({_stat(c, adv, d) for d in mine})
        words += " (" + "; ".join(st.title() + f" lines: at most your {st.title()}, {adv.stat(st)}"
                                  for st in stats) + ")"
    return words + ", `dice:all` or `dice:none`."


def start(c: DayCtx, enc: Encounter, check_def) -> None:
    """Begin the check: its difficulty by the party size, then ask who rolls which dice."""
    size = len(c.party())
    value = check_def.value(size)
    enc.check = Check(value, list(check_def.lines))
    names = ", ".join(c.pack.lines[ln].name for ln in check_def.lines if ln in c.pack.lines)
    c.say("check", f"🗣️ Social check: difficulty {check_def.words()} = {value} (party of {size}). First, "
                   f"adventurers with {names} dice may roll them; then each may spend tenacity.",
          difficulty=value)
    ask_dice(c, enc)


def ask_dice(c: DayCtx, enc: Encounter) -> None:
    owners = [o for o in c.party() if all_dice(c, o, enc.check.lines)]
    if not owners:
        c.say("check", "Nobody has dice of those lines available: on to the tenacity.")
        ask_tenacity(c, enc)
        return
    open_ask(c, "check-dice", owners)


def roll(c: DayCtx, enc: Encounter, owner: str, picks) -> None:
    """An adventurer rolls the dice they picked (none is an answer too)."""
    ch = enc.check
    if owner in ch.rolls:
        raise RuleError("You have already answered for this social check's dice.")
    mine = check_dice(c, owner, ch.lines)
    adv = c.adv(owner)
    chosen: list[str] = []
    for p in picks or []:
        key = slug(str(p))
        hit = next((d for d in mine if d not in chosen and (d == str(p).strip().lower()
                    or slug(_die_name(c, adv, d)) == key)), None)
        if hit is None:
            names = ", ".join(f"{_die_name(c, adv, d)} ({d})" for d in mine) or "none"
            raise RuleError(f"`{p}` is not one of {adv.name}'s available dice for this check: {names}."
                            + _available_words(c, owner, ch.lines))
        chosen.append(hit)
    if c.state.rules >= 4:  # p.61: rolled as in an engage, whose gather step limits dice by Stamina and Magicka
        for stat in ("stamina", "magicka"):
            n = sum(1 for d in chosen if _stat(c, adv, d) == stat)
            if n > adv.stat(stat):
                raise RuleError(f"{adv.name} may roll dice of " + stat.title() + " lines in a check up to their "
                                f"{stat.title()}, {adv.stat(stat)} (its roll follows the engage's gather step), "
                                f"not {n}. Leave some out."
                                + _available_words(c, owner, ch.lines))
    results = []
    for d in chosen:
        die = c.pack.die(adv.dice[d]["type"])
        face = die.faces[c.dice.roll(6) - 1]
        value = sum(r.value or 0 for r in face.results)
        results.append({"die": d, "name": die.name, "face": str(face), "value": value})
        track.exhaust(adv, d, c.track_size)
    ch.rolls[owner] = results
    if results:
        c.say("check-roll", f"🎲 {adv.name} rolls " + ", ".join(f"{r['name']}: {r['face']} (+{r['value']})"
                                                             for r in results)
              + f"; the dice are exhausted. Dice total so far: {dice_total(ch)}.", player=owner,
              dice=[dict(r) for r in results])
    else:
        c.say("check-roll", f"{adv.name} rolls no dice.", player=owner)
    if answered(c, owner):
        close(c)
        ask_tenacity(c, enc)


def dice_total(ch: Check) -> int:
    return sum(r["value"] for rs in ch.rolls.values() for r in rs)


def ask_tenacity(c: DayCtx, enc: Encounter) -> None:
    owners = [o for o in c.party() if c.adv(o).tenacity > 0 and c.adv(o).hp > 0]
    if not owners:
        c.say("check", "Nobody has tenacity to spend.")
        resolve(c, enc)
        return
    open_ask(c, "check-tenacity", owners)


def spend(c: DayCtx, enc: Encounter, owner: str, amount) -> None:
    ch = enc.check
    adv = c.adv(owner)
    try:
        n = int(amount or 0)
    except (TypeError, ValueError):
        raise RuleError("Spend a whole number of tenacity, from 0.") from None
    if n < 0 or n > adv.tenacity:
        raise RuleError(f"{adv.name} can spend from 0 to {adv.tenacity} tenacity.")
    adv.tenacity -= n
    ch.spent[owner] = n
    c.say("check-spend", f"{adv.name} commits {n} tenacity ({adv.tenacity} left).", player=owner, amount=n)
    if answered(c, owner):
        close(c)
        resolve(c, enc)


def resolve(c: DayCtx, enc: Encounter) -> None:
    ch = enc.check
    dice = dice_total(ch)
    spent = sum(ch.spent.values())
    ch.total = dice + spent
    ch.result = "success" if ch.total >= ch.difficulty else "failure"
    word = "succeeds" if ch.result == "success" else "fails"
    c.say("check-result", f"🗣️ The social check {word}: dice {dice} + tenacity {spent} = {ch.total} against "
                          f"{ch.difficulty}.", total=ch.total, difficulty=ch.difficulty, result=ch.result)


def _die_name(c: DayCtx, adv, die_id: str) -> str:
    try:
        return c.pack.die(adv.dice[die_id]["type"]).name
    except KeyError:
        return die_id
