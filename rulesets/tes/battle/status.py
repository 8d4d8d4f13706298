"""Status effects on units: where the die sits, no duplicates, and where it goes when removed.

* An adventurer's status from the supply is a die in their cooldown track (``track``).
* An enemy's or companion's status sits on its chip: ``unit.statuses`` lists
  the names, never twice.  Quest units gain none.
* A status-code (S) skill die is the status die itself.  It sits on the chip of
  the unit it was placed on (an enemy, a companion or an adventurer, e.g. Shadow
  Cloak on yourself); ``unit.status_dice[status] = {"owner", "die"}`` says
  whose die it is, and the owner's ``Adventurer.placed`` lists it so it is not
  available.  When the status ends (removed by an effect, daze at the end of the
  turn, stealth after dealing damage, the unit defeated, the battle over) the
  die is exhausted to its owner's cooldown track.
* A supply status die that is removed goes back to the supply.
"""
from __future__ import annotations

from rulesets.tes.battle import track
from rulesets.tes.battle.model import Ctx, names_of  # noqa: F401 - names_of is read from here too
from rulesets.tes.battle_state import HexDie, Unit
from rulesets.tes.battle.abilities import immune_to


def supply_dice_in_use(c: Ctx) -> int:
    """Status dice from the supply now in play: on chips (not S skill dice) and in cooldown tracks."""
    on_chips = sum(1 for u in c.b.units.values() for s in u.statuses if s not in (u.status_dice or {}))
    return on_chips + sum(1 for a in c.state.adventurers.values() for e in a.cooldown if "status" in e)


def give(c: Ctx, u: Unit, status: str, label: str, die: tuple[str, str] | None = None) -> bool:
    """The unit gains a status; ``die`` = (owner, die id) of an S-code skill die placed as that status.

    Returns whether the status was gained (and the die, if any, placed).
    """
    if u.quest:
        c.say("status", f"{label}: {u.name} is a quest unit and gains no status.", unit=u.id)
        return False
    if u.defeated:
        return False
    adv = c.adv_of(u)
    has = status in names_of(c.state, u)
    if adv is not None:
        guard = immune_to(c, u.owner, status)
        if guard:
            c.say("status", f"{label}: {u.name} cannot gain {status} ({guard}).", unit=u.id)
            return False
    if die is not None:
        if has:
            c.say("status", f"{label}: {u.name} already has {status}, so the die is not placed.", unit=u.id)
            return False
        u.statuses.append(status)
        u.status_dice[status] = {"owner": die[0], "die": die[1]}
        holder = c.adv(die[0])
        if die[1] not in holder.placed:
            holder.placed.append(die[1])
        c.say("status", f"{label}: the die is placed on {u.name}, who gains {status}.", unit=u.id,
              status=status, die=die[1])
        return True
    supply_out = supply_dice_in_use(c) >= c.pack.supply.status_dice
    if adv is not None:
        if status in u.statuses:
            c.say("status", f"{label}: {u.name} already has {status} (a die on the chip).", unit=u.id)
            return False
        if supply_out and not has:
            c.say("status", f"{label}: no status dice are left in the supply, so {u['name']} gains no {status}.",
                  unit=u["id"])
            return False
        track.gain_status(adv, status, c.track_size)
    elif has:
        c.say("status", f"{label}: {u.name} already has {status}; a unit never holds two.", unit=u.id)
        return False
    elif supply_out:
        c.say("status", f"{label}: no status dice are left in the supply, so {u['name']} gains no {status}.",
              unit=u["id"])
        return False
    else:
        u.statuses.append(status)
    c.say("status", f"{label}: {u.name} gains {status}.", unit=u.id, status=status)
    return True


def _return_die(c: Ctx, u: Unit, status: str, notes: list[str] | None = None) -> str | None:
    info = u.status_dice.pop(status, None)
    if not info:
        return None
    owner = c.state.adventurers.get(info["owner"])
    if owner is None:
        return None
    if info["die"] in owner.placed:
        owner.placed.remove(info["die"])
    track.exhaust(owner, info["die"], c.track_size, notes)
    return owner.name


def remove(c: Ctx, u: Unit, status: str, label: str = "") -> bool:
    """End one status on a unit; an S die goes to its owner's cooldown track, a supply die to the supply."""
    if status in u.statuses:
        u.statuses.remove(status)
        notes: list[str] = []
        back = _return_die(c, u, status, notes)
        where = f"; the die returns to {back}'s cooldown track" if back else ""
        c.say("status", f"{label + ': ' if label else ''}{u.name} loses {status}{where}.", unit=u.id)
        for n in notes:
            c.say("track", n + ".")
        return True
    adv = c.adv_of(u)
    if adv is not None and track.remove_status(adv, status):
        c.say("status", f"{label + ': ' if label else ''}{u.name} loses {status}.", unit=u.id)
        return True
    return False


def clear(c: Ctx, u: Unit) -> None:
    """Every status die on a chip comes off (defeat, end of battle); S dice are exhausted to their owners.

    A defeated adventurer's S dice in hexes come off too (rulesets.tes.battle.hexdice)."""
    if u.owner and c.b.hex_dice:
        clear_hex_dice(c, u.owner)
    for status in list(u.statuses):
        back = _return_die(c, u, status)
        if back:
            c.say("status", f"{u.name}'s {status} die returns to {back}'s cooldown track.", unit=u.id)
    u.statuses = []
    u.status_dice = {}


def hex_die_back(c: Ctx, d: HexDie) -> str | None:
    """The die leaves its hex and is exhausted to its owner's cooldown track; the owner's name."""
    if d in c.b.hex_dice:
        c.b.hex_dice.remove(d)
    owner = c.state.adventurers.get(d.owner)
    if owner is None:
        return None
    if d.die in owner.placed:
        owner.placed.remove(d.die)
    notes: list[str] = []
    track.exhaust(owner, d.die, c.track_size, notes)
    for n in notes:
        c.say("track", f"{owner.name}: {n}.")
    return owner.name


def clear_hex_dice(c: Ctx, owner: str | None = None) -> None:
    """Dice come off their hexes without going off and are exhausted to their owners' tracks: an owner's
    (they are defeated) or everyone's (the battle ends)."""
    if c.state.battle is None:
        return
    for d in [d for d in c.b.hex_dice if owner is None or d.owner == owner]:
        back = hex_die_back(c, d)
        if back:
            c.say("hex-die", f"{back}'s {d.label} leaves hex {d.hex[0]},{d.hex[1]} and returns to their "
                             "cooldown track.", die=d.die)
