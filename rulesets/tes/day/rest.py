"""The End of Day's Adventurers Rest (p.45, difficulty p.13, full party defeat p.67) and trading.

Each player rests their own adventurer (``/adventurer rest``): it heals by difficulty (Apprentice 2 HP, Adept
and Expert 1; a defeated adventurer healed above 0 is revived) and removes the cooldown dice its player
chooses, in any position (Apprentice 2, otherwise 1; this is not a Recovery step).  On Expert an adventurer
must discard an item to rest (a consumable discarded this way may resolve its effects); after a full party
defeat an Expert adventurer heals 1 HP even without discarding, but must discard to remove a die.
From rules revision 4 a resting adventurer also recovers every drained die (p.23), and a rest in which nobody
has anything to choose is taken at once for everyone (``choosers``).
Until the last adventurer has rested, adventurers may trade items (``/day trade``) and move their own items
between pack and ready slots (``/item ready``, ``/item stow``).  A party that skips the rest cannot trade.
"""
from __future__ import annotations

from engine.core import RuleError
from engine.text import a_or_an, count, slug
from rulesets.tes.battle import items
from rulesets.tes.battle.inventory import find, lose
from rulesets.tes.outcomes.asks import answered, close, open_ask
from rulesets.tes.outcomes.context import DayCtx

REST = {"apprentice": (2, 2), "adept": (1, 1), "expert": (1, 1)}  # difficulty -> (cooldown dice removed, HP)


def amounts(state) -> tuple[int, int]:
    return REST.get(state.difficulty, (1, 1))


def choosers(c: DayCtx) -> list[str]:
    """Who has something to choose in the rest: which dice (a track holding more than the rest removes), an
    item to trade, move, or discard on Expert, or the leader's guild assist."""
    from rulesets.tes.session import assist

    n_dice, _hp = amounts(c.state)
    out = [o for o in c.party() if len(c.adv(o).cooldown) > n_dice or c.adv(o).ready or c.adv(o).pack]
    if c.state.leader in c.party() and c.state.leader not in out and assist.why_not(c) is None:
        out.append(c.state.leader)
    return out


def ask(c: DayCtx) -> None:
    dice, hp = amounts(c.state)
    if c.state.rules >= 4 and not choosers(c):  # nothing to wait for: everyone rests at once
        c.say("rest", f"🛏️ The Adventurers Rest ({c.state.difficulty.title()}): each adventurer heals {hp} HP and "
                      f"removes {dice} {'die' if dice == 1 else 'dice'}; nobody has anything to choose (no cooldown "
                      "dice to pick from, no item to trade, move or discard), so everyone rests at once.")
        for o in c.party():
            take(c, o)
        return
    expert = " On Expert, each adventurer discards an item to rest (`item:`)." if c.state.difficulty == "expert" else ""
    c.say("rest", f"🛏️ The Adventurers Rest ({c.state.difficulty.title()}): each adventurer heals {hp} HP and "
                  f"removes {dice} {'die' if dice == 1 else 'dice'} of their choice from their cooldown track "
                  f"(`/adventurer rest dice:`).{expert} Trade items first with `/day trade` if you like.")
    open_ask(c, "rest", c.party())


def take(c: DayCtx, owner: str, positions=None, item=None, use=False, skip=False) -> None:
    """One adventurer's rest: ``positions`` are 1-based places on the cooldown track (default: the leftmost)."""
    s = c.s
    adv = c.adv(owner)
    n_dice, hp = amounts(c.state)
    expert = c.state.difficulty == "expert"
    defeated_party = bool(s.encounter and s.encounter.defeated)
    discarded = None
    if skip:
        if expert and defeated_party:
            healed = _heal(adv, 1)
            c.say("rest", f"{adv.name} does not rest, but after the party's defeat heals {healed} HP "
                          f"({adv.hp}/{adv.max_hp}).", player=owner)
        else:
            c.say("rest", f"{adv.name} does not rest tonight.", player=owner)
        _done(c, owner)
        return
    if expert:
        held = list(adv.ready) + list(adv.pack)
        if not item:
            if not held:
                if defeated_party:
                    healed = _heal(adv, 1)
                    c.say("rest", f"{adv.name} has no item to discard, so cannot rest; after the party's defeat "
                                  f"they heal {healed} HP ({adv.hp}/{adv.max_hp}).", player=owner)
                else:
                    c.say("rest", f"{adv.name} has no item to discard, so cannot rest tonight (Expert).",
                          player=owner)
                _done(c, owner)
                return
            raise RuleError(f"On Expert {adv.name} must discard an item to rest: name it with `item:` ("
                            + ", ".join(c.pack.items[i].name for i in held) + "), or `skip:yes` to not rest.")
        discarded = find(c, owner, item)
    chosen = _positions(adv, positions, n_dice, c)
    if discarded is not None:
        it = c.pack.items[discarded]
        if use and it.subtype == "consumable":
            c.say("rest", f"{adv.name} discards {it.name} to rest and resolves it.", player=owner, item=discarded)
            items.use(c, owner, discarded)
            if discarded in adv.ready + adv.pack:
                lose(c, owner, discarded)
        else:
            if use:
                raise RuleError(f"Only a consumable resolves when it is discarded to rest; {it.name} is "
                                f"{a_or_an(it.subtype)}. Leave `use:` out.")
            lose(c, owner, discarded)
            c.say("rest", f"{adv.name} discards {it.name} to rest.", player=owner, item=discarded)
    removed = [adv.cooldown[i] for i in chosen]  # a skill die is recovered; fatigue and status go back
    for i in sorted(chosen, reverse=True):
        adv.cooldown.pop(i)
    drained = []
    if c.state.rules >= 4 and adv.drained:  # p.23: drained dice come back in the Adventurers Rest
        drained, adv.drained = list(adv.drained), []
    was_down = adv.hp <= 0
    healed = _heal(adv, hp)
    revived = " and is revived" if was_down and adv.hp > 0 else ""
    what = ", ".join(_entry(c, adv, e) for e in removed) or "nothing (the track is empty)"
    back = ("; recovers the drained " + ", ".join(_entry(c, adv, {"die": d}).replace(" (recovered)", "")
                                                  for d in drained)) if drained else ""
    c.say("rest", f"🛏️ {adv.name} rests: heals {healed} HP ({adv.hp}/{adv.max_hp}){revived}; removes {what}{back}.",
          player=owner, healed=healed, removed=len(removed))
    _done(c, owner)


def _heal(adv, n: int) -> int:
    got = max(0, min(n, adv.max_hp - adv.hp))
    adv.hp += got
    return got


def _done(c: DayCtx, owner: str) -> None:
    c.s.rested.append(owner)
    if answered(c, owner):
        close(c)


def _positions(adv, positions, n: int, c: DayCtx | None = None) -> list[int]:
    """0-based places to clear: ``positions`` are 1-based places; none given, or ``"all"``, is the leftmost
    ``n`` (as many as the rest removes); with an empty track any places name nothing and the rest goes on."""
    track = adv.cooldown
    if positions is None or positions == "" or positions == [] or str(positions).strip().lower() == "all":
        return list(range(min(n, len(track))))
    if not track:
        return []  # nothing to remove: the rest heals all the same (before, "choose places 1 to 0")
    raw = positions if isinstance(positions, (list, tuple)) else str(positions).replace(",", " ").split()
    places = _places(c, adv) if c is not None else ""
    try:
        picks = [int(p) for p in raw]
    except (TypeError, ValueError):
        raise RuleError("`dice:` lists places on your cooldown track, counted from the left: e.g. `dice:2` or "
                        "`dice:1,3`." + places) from None
    if len(set(picks)) != len(picks):
        raise RuleError("Name each place on the cooldown track once." + places)
    if len(picks) > n:
        raise RuleError(f"The rest removes {n} {'die' if n == 1 else 'dice'} at this difficulty; you named "
                        f"{len(picks)}." + places)
    bad = [p for p in picks if not 1 <= p <= len(track)]
    if bad:
        raise RuleError(f"{adv.name}'s cooldown track holds {len(track)} "
                        f"{'die' if len(track) == 1 else 'dice'}: choose places 1 to {len(track)}." + places)
    return [p - 1 for p in picks]


def _places(c: DayCtx, adv) -> str:
    """What a refusal ends with: each place on the track and what is in it, as ``dice:`` takes it."""
    if not adv.cooldown:
        return " The track is empty: rest without `dice:`."
    return (" On the track now: " + ", ".join(f"`dice:{i}` {_entry(c, adv, e).replace(' (recovered)', '')}"
                                              for i, e in enumerate(adv.cooldown, 1))
            + "; `dice:all` takes the leftmost.")


def _entry(c: DayCtx, adv, e: dict) -> str:
    if "die" in e:
        d = adv.dice.get(e["die"])
        try:
            return (c.pack.die(d["type"]).name if d else e["die"]) + " (recovered)"
        except KeyError:
            return e["die"]
    if e.get("fatigue") == "light":
        return "1 light fatigue"
    if e.get("fatigue") == "over":
        return "1 overfatigue"
    return f"{e.get('status')} status"


def trade(c: DayCtx, owner: str, item, to) -> None:
    s = c.s
    if s.phase != "end-of-day" or s.ask is None or s.ask.kind != "rest":
        if s.phase == "end-of-day" and s.skip_rest:
            raise RuleError("The party skipped the Adventurers Rest tonight, so it cannot trade items (p.45).")
        raise RuleError("Items are traded during the End of Day's Adventurers Rest, before the last adventurer "
                        "rests. See `/day status`.")
    adv = c.adv(owner)
    card = find(c, owner, item)
    key = slug(str(to or "").lstrip("@"))
    target = next((o for o in c.party() if o == str(to).lstrip("@") or slug(c.adv(o).name) == key), None)
    if target is None or target == owner:
        raise RuleError("Give the item to another adventurer of the party: `to:` is their name ("
                        + ", ".join(c.adv(o).name for o in c.party() if o != owner) + ").")
    other = c.adv(target)
    it = c.pack.items[card]
    if it.subtype == "pet" and card in adv.ready:
        raise RuleError(f"{it.name} is a pet in a ready slot; it stays with {adv.name}.")
    if len(other.ready) + len(other.pack) >= c.pack.mat.inventory_max:
        raise RuleError(f"{other.name}'s inventory is full ({count(c.pack.mat.inventory_max, 'card')}).")
    for where in (adv.ready, adv.pack):
        if card in where:
            where.remove(card)
    expended = card in adv.expended
    if expended:
        adv.expended.remove(card)
        other.expended.append(card)
    other.pack.append(card)
    c.say("trade", f"🤝 {adv.name} gives {it.name} to {other.name} (in the pack).", player=owner, item=card)
