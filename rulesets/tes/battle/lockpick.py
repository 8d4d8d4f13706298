"""Caches and lockpick checks (rulebook pages 68-70); the item decks they draw from are in
rulesets.tes.battle.inventory.

In battle, ``Battle.caches`` maps ``"q,r"`` to ``"common"``/``"legendary"``
for the chips still on the map, and ``Battle.lockpick`` holds a check in
progress (a ``LockpickCheck``: the code and its key digits, the attempts, the
3 dice, the key digits matched in an earlier attempt, the fatigue spent, where
the card goes, and what is left of the move it interrupted).

A check runs attempt by attempt: the first attempt rolls all 3 dice; each
``battle.lockpick`` answer may adjust the dice (1 light fatigue per step of 1),
then the attempt is compared with the code.  On a failed attempt with attempts
left, the dice named in ``keep`` stay (by default those that matched a digit)
and the others are rolled again at once: rolling costs nothing, so the check
goes on until it succeeds, runs out of attempts or the player says ``stop``.

Cards may help (``rulesets.tes.battle.lockpick_cards``): free steps of 1 that
``adjust`` spends first (the Rogue's Nimble Fingers), and ``set`` (a ready
Lockpick Set: one die to any number, then the card is discarded).
"""
from __future__ import annotations

from typing import Any

from rulesets.tes.battle import harm, promotion, track
from rulesets.tes.battle.inventory import DECK_NAME, cycle, gain_item, top_card
from rulesets.tes.battle.model import Ctx, adv_uid, pos
from rulesets.tes import args as args_
from rulesets.tes.battle_state import CacheSpot, LockpickCheck, Unit
from engine.core import RuleError, strong
from engine.text import slug as _slug
from rulesets.tes.battle.abilities import lockpick_innate
from rulesets.tes.battle.lockpick_cards import free_steps, notes, use_set

DICE = 3


# ------------------------------------------------------------------ decks --


def code_text(code: list[int] | tuple[int, ...], keys: list[int] | tuple[int, ...]) -> str:
    return "-".join(f"[{v}]" if i in keys else str(v) for i, v in enumerate(code))


# ---------------------------------------------------------------- matching --
def match(code: list[int], keys: list[int], locked: list[int], dice: list[int]) -> dict[str, Any]:
    """Compare one attempt's dice with the code.

    Unmatched key digits take a matching die first; key digits matched in an
    earlier attempt stay matched.  The other digits count only once every key
    digit is matched, each taking one die of its value.  Returns
    ``{"locked": key positions now matched, "matched": {position: die index},
    "success": bool, "keys_done": bool}``.
    """
    used: dict[int, int] = {}
    free = list(range(len(dice)))
    new_locked = list(locked)
    for k in keys:
        if k in new_locked:
            continue
        d = next((i for i in free if dice[i] == code[k]), None)
        if d is not None:
            free.remove(d)
            used[k] = d
            new_locked.append(k)
    keys_done = all(k in new_locked for k in keys)
    if keys_done:
        for p, v in enumerate(code):
            if p in keys:
                continue
            d = next((i for i in free if dice[i] == v), None)
            if d is not None:
                free.remove(d)
                used[p] = d
    others = [p for p in range(len(code)) if p not in keys]
    success = keys_done and all(p in used for p in others)
    return {"locked": sorted(new_locked), "matched": used, "success": success, "keys_done": keys_done}


def default_keep(code: list[int], keys: list[int], result: dict) -> list[int]:
    """Die indexes kept by default: those matching a non-key digit (none while a key digit is unmatched)."""
    if not result["keys_done"]:
        return []
    return sorted(d for p, d in result["matched"].items() if p not in keys)


# ------------------------------------------------------------------- caches --
def _key(h) -> str:
    return f"{h.q},{h.r}"


def caches_left(c: Ctx) -> dict[str, str]:
    """The cache chips still on the map (``"q,r"`` -> kind); set up from the map the first time."""
    b = c.b
    if b.caches is None:  # a chip is not placed when the supply has none left
        placed = list(c.map.caches.items())[:c.pack.supply.cache_chips]
        b.caches = {_key(h): kind for h, kind in placed}
    return b.caches


def note_cache(c: Ctx, u: Unit, moved: int, limit: int) -> None:
    """After a move: if the adventurer ended it on a cache, say they may pick its lock."""
    here = pos(u)
    kind = caches_left(c).get(_key(here))
    turn = c.b.turn
    if kind is None:
        turn.cache = None
        return
    turn.cache = CacheSpot(hex=[here.q, here.r], move_left=max(0, limit - moved))
    c.say("cache", f"📦 {u.name} moves onto a {kind} cache. Pick its lock with `/lockpick` "
                   "before doing anything else, or leave it.", unit=u.id, cache=kind)


def _parse_numbers(text: Any, n: int, what: str) -> list[int]:
    nums = args_.numbers(text, f"Write {what} as die numbers 1 to {n}, e.g. `1,3`, or `none`.")
    for k in nums:
        if not 1 <= k <= n:
            raise RuleError(f"There is no die {k}; the dice are numbered 1 to {n}.")
    if len(set(nums)) != len(nums):
        raise RuleError(f"A die is named twice in {what}; name each once.")
    return [k - 1 for k in nums]


def parse_adjust(text: Any, dice: list[int]) -> list[tuple[int, int]]:
    """``[[3, 2], [1, 5]]`` (or ``"3=2, 1=5"`` from older logs): die 3 becomes a 2, die 1 a 5.

    Returns (index, new value) pairs."""
    out: list[tuple[int, int]] = []
    for i, v in args_.adjustments(text, len(dice)):
        if not 1 <= i <= len(dice):
            raise RuleError(f"There is no die {i}; the dice are numbered 1 to {len(dice)}.")
        if not 1 <= v <= 6:
            raise RuleError("A lockpick die shows 1 to 6 (a 6 cannot turn into a 1).")
        if any(j == i - 1 for j, _ in out):
            raise RuleError(f"Die {i} is adjusted twice; give its final value once.")
        out.append((i - 1, v))
    return out


# ------------------------------------------------------------------- check --
def _dice_text(dice: list[int]) -> str:
    return ", ".join(f"{i}: {strong(v)}" for i, v in enumerate(dice, 1))


def _status_line(lp: LockpickCheck, result: dict) -> str:
    code, keys = lp.code, lp.keys
    parts = []
    for p, v in enumerate(code):
        ok = p in result["matched"] or p in result["locked"]
        parts.append(f"{'✅' if ok else '▫️'}{'[' + str(v) + ']' if p in keys else v}")
    return " ".join(parts)


def _check_take(args: dict) -> None:
    if args.get("take") is not None and _slug(args["take"]) not in ("ready", "pack", "leave", "discard"):
        raise RuleError("`take:` is ready, pack or leave (leave discards the card).")


def start(c: Ctx, owner: str, args: dict) -> None:
    _check_take(args)
    b = c.b
    turn = b.turn
    u = c.unit(adv_uid(owner))
    adv = c.adv(owner)
    here = pos(u)
    kind = caches_left(c).get(_key(here)) if here else None
    spot = turn.cache
    if kind is None:
        where = ", ".join(f"{k} ({v})" for k, v in caches_left(c).items()) or "none are left"
        raise RuleError(f"{adv.name} is not on a cache. Move onto one first; caches on the map: {where}.")
    if not spot or spot.hex != [here.q, here.r]:
        raise RuleError("You may pick a cache's lock only right after moving into its hex during your turn.")
    card = top_card(c.state, c.pack, kind, c.dice)
    if card is None:
        raise RuleError(f"The {DECK_NAME[kind]} is empty, so this cache holds nothing to unlock.")
    it = c.pack.items[card]
    lp = LockpickCheck(owner=owner, hex=[here.q, here.r], deck=kind, item=card, code=list(it.difficulty_code),
                       keys=list(it.key_digits), attempts=it.lockpick_attempts, take=args.get("take"),
                       swap=args.get("swap"), move_left=spot.move_left)
    b.lockpick = lp
    turn.cache = None
    keys = " (a digit in [brackets] is a key digit: match it first)" if lp.keys else ""
    c.say("lockpick", f"🔐 {adv.name} picks the lock of the {kind} cache: the top card of the {DECK_NAME[kind]} "
                      f"shows code {strong(code_text(lp.code, lp.keys))} with {lp.attempts} attempts{keys}.",
          unit=u.id, code=lp.code, keys=lp.keys, attempts=lp.attempts)
    lockpick_innate(c, owner)
    _roll(c, lp, list(range(DICE)))


def _roll(c: Ctx, lp: LockpickCheck, which: list[int]) -> None:
    if not lp.dice:
        lp.dice = [0] * DICE
    for i in which:
        lp.dice[i] = c.dice.roll(6)
        if i in lp.freed:  # a new result: it may take a free step again
            lp.freed.remove(i)
    adv = c.adv(lp.owner)
    result = match(lp.code, lp.keys, lp.locked, lp.dice)
    rolled = "all 3 dice" if len(which) == DICE else ("die " + ", ".join(str(i + 1) for i in which))
    extra = notes(c, lp)
    c.say("lockpick-roll", f"🎲 Attempt {lp.attempt} of {lp.attempts}: {adv.name} rolls {rolled} → "
                           f"{_dice_text(lp.dice)}. Code: {_status_line(lp, result)}. "
                           "Answer with `/lockpick` (adjust:`die=value` for 1 light fatigue per step, "
                           "keep:`1,2` for the next attempt, or stop:yes)." + (f" {extra}" if extra else ""),
          unit=adv_uid(lp.owner), dice=list(lp.dice), attempt=lp.attempt, player=lp.owner)


def answer(c: Ctx, owner: str, args: dict) -> None:
    lp = c.b.lockpick
    if lp.owner != owner:
        raise RuleError(f"{c.adv(lp.owner).name} is picking a lock; only they can answer it.")
    adv = c.adv(owner)
    _check_take(args)
    if args.get("take") is not None:
        lp.take = args["take"]
    if args.get("swap") is not None:
        lp.swap = args["swap"]
    if args.get("stop"):
        c.say("lockpick", f"{adv.name} gives up on the lock.", unit=adv_uid(owner))
        return fail(c, lp)
    changes = parse_adjust(args.get("adjust"), lp.dice)
    keep = None if args.get("keep") is None else _parse_numbers(args["keep"], DICE, "keep")
    if args.get("set") is not None:
        use_set(c, lp, owner, args["set"], changes)
    free = _spend_free(c, lp, changes)
    cost = sum(abs(v - lp.dice[i]) for i, v in changes) - len(free)
    if cost:
        track.gain_fatigue(adv, "light", cost, c.track_size, party=c.state.adventurers.values(), supply=c.pack.supply)
        lp.fatigue += cost
        for i, v in changes:
            lp.dice[i] = v
        c.say("lockpick-adjust", f"{adv.name} gains {cost} light fatigue to turn the dice to "
                                 f"{_dice_text(lp.dice)}.", unit=adv_uid(owner), amount=cost)
    elif free:
        for i, v in changes:
            lp.dice[i] = v
        c.say("lockpick-adjust", f"{adv.name} turns the dice to {_dice_text(lp.dice)} without gaining fatigue.",
              unit=adv_uid(owner), amount=0)
    result = match(lp.code, lp.keys, lp.locked, lp.dice)
    lp.locked = result["locked"]
    if result["success"]:
        return succeed(c, lp)
    if lp.attempt >= lp.attempts:
        c.say("lockpick", f"Attempt {lp.attempt} fails ({_status_line(lp, result)}) and no attempts are left.",
              unit=adv_uid(owner))
        return fail(c, lp)
    if keep is None:
        keep = default_keep(lp.code, lp.keys, result)
    elif keep and not result["keys_done"]:
        raise RuleError("A key digit is still unmatched, so you cannot keep dice yet: leave out `keep:` "
                        "(all 3 dice are rolled again) or adjust a die to the key digit first.")
    kept = ", ".join(f"{i + 1} ({lp.dice[i]})" for i in keep) or "none"
    c.say("lockpick", f"Attempt {lp.attempt} fails ({_status_line(lp, result)}). {adv.name} keeps dice: {kept}.",
          unit=adv_uid(owner))
    lp.attempt += 1
    _roll(c, lp, [i for i in range(DICE) if i not in keep])


def _spend_free(c: Ctx, lp: LockpickCheck, changes: list[tuple[int, int]]) -> list[int]:
    """Free steps of 1 (Nimble Fingers) go to the first changed dice; said, and kept off the fatigue."""
    if lp.free <= 0:
        return []
    free = free_steps(lp, changes)
    if free:
        lp.free -= len(free)
        lp.freed.extend(free)
        dice = " and ".join(f"die {i + 1}" for i in free)
        left = f" ({lp.free} more free this check)" if lp.free else ""
        c.say("lockpick-free", f"✨ {lp.free_by}: {dice} turned 1 step for free{left}.", unit=adv_uid(lp.owner),
              amount=len(free))
    return free


def _end(c: Ctx, lp: LockpickCheck) -> None:
    c.b.lockpick = None
    caches_left(c).pop(f"{lp.hex[0]},{lp.hex[1]}", None)
    left = int(lp.move_left or 0)
    turn = c.b.turn
    if left > 0 and turn.owner == lp.owner:
        turn.free_move = int(turn.free_move) + left
        c.say("move", f"The check interrupted the move: {c.adv(lp.owner).name} may still move "
                      f"{c.count(left, 'hex', old='hex(es)')} of it (`/move ... free:yes`).", unit=adv_uid(lp.owner),
              amount=left)


#: How a check on something other than a cache ends, registered from above: ``kind -> fn(c, lp, success)``
#: (a delve's trap: rulesets.tes.battle.delve; a dungeon's cage: rulesets.tes.battle.dungeon).
ENDINGS: dict = {}


def begin(c: Ctx, lp: LockpickCheck, intro: str) -> None:
    """Start a check that opens something other than a cache (a trap, a cage): say what it is, then roll."""
    c.b.lockpick = lp
    keys = " (a digit in [brackets] is a key digit: match it first)" if lp.keys else ""
    c.say("lockpick", f"🔐 {intro} Code {strong(code_text(lp.code, lp.keys))} with {lp.attempts} "
                      f"attempt{'s' if lp.attempts != 1 else ''}{keys}.",
          unit=adv_uid(lp.owner), code=lp.code, keys=lp.keys, attempts=lp.attempts)
    lockpick_innate(c, lp.owner)
    _roll(c, lp, list(range(DICE)))


def _other(c: Ctx, lp: LockpickCheck, success: bool) -> bool:
    """A check on a trap or a cage ends by its own rules; True when it was one."""
    if lp.kind == "cache" or lp.kind not in ENDINGS:
        return False
    c.b.lockpick = None
    ENDINGS[lp.kind](c, lp, success)
    return True


def fail(c: Ctx, lp: LockpickCheck) -> None:
    if _other(c, lp, False):
        return
    cycle(c.state, lp.deck)
    c.say("lockpick-end", f"🔒 The lock holds. The cache chip is discarded and the top card of the "
                          f"{DECK_NAME[lp.deck]} goes to the bottom.", unit=adv_uid(lp.owner), success=False)
    _end(c, lp)


def succeed(c: Ctx, lp: LockpickCheck) -> None:
    if _other(c, lp, True):
        promotion.on_lockpick(c, lp.owner)
        return
    owner = lp.owner
    adv = c.adv(owner)
    d = c.state.item_decks[lp.deck]
    card = d.draw.pop(0)
    it = c.pack.items[card]
    c.say("lockpick-end", f"🔓 {adv.name} opens the lock! The cache chip is discarded and {adv.name} draws "
                          f"{strong(it.name)} ({it.subtype}).", unit=adv_uid(owner), success=True, item=card)
    harm.grant(c, "cache-lockpick", owner)
    gain_item(c, owner, card, lp.take, lp.swap)
    _end(c, lp)
    promotion.on_lockpick(c, owner)


def cleanup(c: Ctx) -> None:
    """End of battle: a check still open fails."""
    lp = c.b.lockpick
    if lp:
        fail(c, lp)
