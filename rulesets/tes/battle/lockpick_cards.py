"""Cards that help during a lockpick check (rulebook pages 68-70): free steps and a die set to any number.

* ``lockpick-free`` (the Rogue's innate Nimble Fingers): when a check starts, up to
  ``amount`` die results may each turn 1 step without gaining fatigue, once per
  check.  ``battle.lockpick``'s ``adjust:`` spends them by itself, first come
  first served, one per die result (a die rolled again is a new result).
* ``lockpick-set`` (the Lockpick Set): ``/lockpick set:3=5`` turns die 3 into a 5
  for no fatigue.  The card must be in a ready slot (in battle only ready items
  can be used) and is discarded afterwards (``discard = false``: once per check).

The check keeps what is left of them (``LockpickCheck.free``, ``free_by``,
``freed`` and ``used``); ``notes`` words it for the check's messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import RuleError
from engine.effects import Field, Primitive, amount, boolean
from engine.text import count
from rulesets.tes.battle import inventory as items
from rulesets.tes.battle.effects import Use, amount_of, register, run_effects
from rulesets.tes.battle.model import Ctx, adv_uid
from rulesets.tes.battle_state import LockpickCheck
from rulesets.tes import args as args_

SET = "lockpick-set"
FREE = "lockpick-free"


def _check_of(use: Use) -> LockpickCheck | None:
    """The check in progress of the adventurer using the effect (None when there is none)."""
    owner = use.source.get("owner")
    b = use.c.state.battle
    lp = b.lockpick if b is not None else None
    return lp if lp is not None and owner and lp.owner == owner else None


def _results(n: int) -> str:
    return "1 die result may turn" if n == 1 else f"{n} die results may each turn"


@register
class LockpickFree(Primitive):
    type = FREE
    summary = "during each lockpick check, that many die results may each turn 1 step without gaining fatigue"
    fields = {"amount": Field(amount, default=1)}

    def apply(self, use: Use, eff: dict) -> int:
        lp = _check_of(use)
        n = amount_of(use, eff)
        if lp is None or n <= 0:
            return 0
        lp.free += n
        lp.free_by = lp.free_by or use.label
        use.c.say("lockpick-free", f"{use.label}: during this check, {_results(n)} 1 step without gaining "
                                   "fatigue (`adjust:` uses this by itself).", unit=use.source.get("id"), amount=n)
        return n

    def describe(self, eff: dict) -> str:
        n = eff.get("amount", 1)
        results = count(n, "die result") if isinstance(n, int) else "that many die results"
        return f"during each lockpick check, change up to {results} by 1 each without gaining fatigue"


@dataclass
class SetUse(Use):
    """A Lockpick Set used in a check: which card, and the (die index, value) pairs asked for."""

    item: str = ""
    setting: list[tuple[int, int]] = field(default_factory=list)


@register
class LockpickSet(Primitive):
    type = SET
    summary = "during a lockpick check, turn that many dice to any number (`/lockpick set:`); then discard the card"
    fields = {"amount": Field(amount, default=1), "discard": Field(boolean, default=True)}

    def apply(self, use: Use, eff: dict) -> int:
        lp = _check_of(use)
        if not isinstance(use, SetUse) or lp is None:
            where = ("during your lockpick check" if lp is not None else
                     "only during a lockpick check (move onto a cache and use `/lockpick`)")
            raise RuleError(f"{use.label} is used {where}: answer with `/lockpick set:3=5` (die 3 becomes a 5).")
        c, owner = use.c, use.source.get("owner")
        adv = c.adv(owner)
        turned = []
        for i, v in use.setting:
            turned.append(f"die {i + 1} from a {lp.dice[i]} to a {v}")
            lp.dice[i] = v
            if i in lp.freed:  # a new result: it may take a free step again
                lp.freed.remove(i)
        c.say("lockpick-set", f"🧰 {adv.name} uses {use.label} to turn " + ", ".join(turned) + " (no fatigue).",
              unit=adv_uid(owner), item=use.item, dice=list(lp.dice))
        lp.used.append(use.item)
        if eff.get("discard", True):
            items.lose(c, owner, use.item)
            c.say("item", f"{use.label} is used up and discarded.", item=use.item)
        return len(use.setting)

    def describe(self, eff: dict) -> str:
        n = eff.get("amount", 1)
        what = "one die" if n == 1 else f"up to {n} dice"
        after = ", then discard this card" if eff.get("discard", True) else " (once per check)"
        return f"during a lockpick check, turn {what} to any number{after}"


# ------------------------------------------------------------------ rules --
def set_cards(c: Ctx, owner: str, where: str = "ready") -> list[tuple[str, dict]]:
    """(item id, lockpick-set effect) of this adventurer's cards in ``where`` that set a lockpick die."""
    adv = c.adv(owner)
    out = []
    for item_id in getattr(adv, where):
        it = c.pack.items.get(item_id)
        eff = next((e for e in it.effects if e.get("type") == SET), None) if it and not it.manual else None
        if eff is not None:
            out.append((item_id, eff))
    return out


def _card_for(c: Ctx, lp: LockpickCheck, owner: str) -> tuple[str, dict]:
    adv = c.adv(owner)
    usable = [(i, e) for i, e in set_cards(c, owner) if i not in lp.used]
    if usable:
        return usable[0]
    names = sorted({it.name for it in c.pack.items.values() if not it.manual
                    and any(e.get("type") == SET for e in it.effects)})
    if not names:
        raise RuleError("No card in this campaign's content sets a lockpick die by itself, so `set:` cannot be "
                        "used here. Use `adjust:` (1 light fatigue per step).")
    if lp.used:
        used = ", ".join(c.pack.items[i].name for i in lp.used)
        raise RuleError(f"{adv.name} already used {used} in this check. Use `adjust:` (1 light fatigue per step).")
    packed = set_cards(c, owner, "pack")
    if packed:
        raise RuleError(f"{c.pack.items[packed[0][0]].name} is in {adv.name}'s pack: during a battle only "
                        "items in ready slots can be used (items move to ready slots only when deployed, "
                        "in round 1). Use `adjust:` (1 light fatigue per step).")
    raise RuleError(f"{adv.name} has no {' or '.join(names)} in a ready slot, so `set:` cannot be used. "
                    "Use `adjust:` (1 light fatigue per step).")


def use_set(c: Ctx, lp: LockpickCheck, owner: str, text: Any, adjusted: list[tuple[int, int]]) -> None:
    """``/lockpick set:3=5``: a ready card that sets a lockpick die turns die 3 into a 5."""
    item_id, eff = _card_for(c, lp, owner)
    it = c.pack.items[item_id]
    pairs = args_.die_setting(text)
    most = int(eff.get("amount", 1)) if isinstance(eff.get("amount", 1), int) else 1
    if not pairs:
        raise RuleError(args_.SET_ERROR)
    if len(pairs) > most:
        raise RuleError(f"{it.name} sets {'one die' if most == 1 else f'up to {most} dice'}: write "
                        f"{'one' if most == 1 else f'at most {most}'} `die=value`, e.g. `set:3=5`.")
    setting: list[tuple[int, int]] = []
    for d, v in pairs:
        if not 1 <= d <= len(lp.dice):
            raise RuleError(f"There is no die {d}; the dice are numbered 1 to {len(lp.dice)}. "
                            "Write `set:3=5` (die 3 becomes a 5).")
        if not 1 <= v <= 6:
            raise RuleError(f"A lockpick die shows 1 to 6, not {v}. Write `set:3=5` (die 3 becomes a 5).")
        if any(i == d - 1 for i, _ in setting):
            raise RuleError(f"Die {d} is set twice; name it once.")
        if lp.dice[d - 1] == v:
            raise RuleError(f"Die {d} already shows a {v}; {it.name} would be wasted. Set another die, or "
                            "leave out `set:`.")
        if any(i == d - 1 for i, _ in adjusted):
            raise RuleError(f"Die {d} is both set and adjusted; {it.name} sets it to any number, so leave it "
                            "out of `adjust:`.")
        setting.append((d - 1, v))
    me = c.unit(adv_uid(owner))
    run_effects(SetUse(c, me, it.name, item=item_id, setting=setting), it.effects, manual=it.manual, text=it.text)


def free_steps(lp: LockpickCheck, changes: list[tuple[int, int]]) -> list[int]:
    """The dice of ``changes`` that turn 1 step for free: changed, not freed since their roll, while any is left."""
    out: list[int] = []
    for i, v in changes:
        if len(out) >= lp.free:
            break
        if v != lp.dice[i] and i not in lp.freed and i not in out:
            out.append(i)
    return out


def notes(c: Ctx, lp: LockpickCheck) -> str:
    """What the adventurer may still do without fatigue in this check, for the check's messages."""
    out = []
    if lp.free > 0:
        out.append(f"✨ {lp.free_by or 'Free steps'}: {_results(lp.free).replace(' may', ' may still')} "
                   "1 step for free (with `adjust:`).")
    for item_id, eff in set_cards(c, lp.owner):
        if item_id in lp.used:
            continue
        name = c.pack.items[item_id].name
        then = ", then it is discarded" if eff.get("discard", True) else ""
        out.append(f"🧰 {name} (ready): `set:3=5` turns one die to any number for no fatigue{then}.")
    return " ".join(out)


__all__ = ["LockpickFree", "LockpickSet", "SetUse", "set_cards", "use_set", "free_steps", "notes"]
