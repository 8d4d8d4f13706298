"""Class promotion detected in battle (pp.25, 31): "a class is promoted at once whenever its requirement is met".

A class whose requirement has a machine-readable side (``ClassDef.check``, ``[class.promotion_check]`` in
classes.toml) is watched from rules revision 3 (its campaigns begun on a pack version with the checks) and 4: the battle counts what the checks need in
``Battle.promotion`` and, the moment an adventurer's novice requirement is met, the class sheet flips to its master
side with a line that names the requirement.  Campaigns on an older revision, and classes without a check, keep
the confirm path (``/adventurer promote confirm:yes``, rulesets.tes.reward.actions).
"""
from __future__ import annotations

from engine.hexes import Hex, distance
from rulesets.tes.battle.model import Ctx, pos
from rulesets.tes.battle_state import Unit
from rulesets.tes.state import promotions_detected

#: The first rules revision that detects promotion (on revision 3, only the pack versions that brought it:
#: ``rulesets.tes.state.promotions_detected``).
SINCE = 3


def owner_of(unit) -> str | None:
    """The player of an acting unit (a Unit or its dict), None for a unit nobody plays."""
    try:
        return unit["owner"] or None
    except (KeyError, TypeError):
        return None


def _watching(c: Ctx) -> bool:
    return promotions_detected(c.state) and c.state.battle is not None


def _check_of(c: Ctx, owner: str):
    adv = c.state.adventurers.get(owner)
    if adv is None or not adv.class_id or adv.class_side == "master":
        return None
    klass = c.pack.classes.get(adv.class_id)
    return klass.check if klass is not None else None


def _count(c: Ctx, key: str, owner: str, n: int) -> int:
    got = c.b.promotion.setdefault(key, {})
    got[owner] = int(got.get(owner, 0)) + n
    return got[owner]


def promote(c: Ctx, owner: str) -> None:
    """Flip the adventurer's class sheet to its master side at once and say which requirement was met."""
    adv = c.adv(owner)
    klass = c.pack.classes[adv.class_id]
    adv.class_side = "master"
    c.say("promoted", f"🎖️ {adv.name} is promoted: {klass.promotion} The {klass.name} class sheet flips to its "
                      "master side, and its improved abilities count from now on.",
          since=SINCE, player=owner, unit=f"a:{owner}", **{"class": klass.id})


def on_defeat(c: Ctx, enemy: Unit, by: str | None, where: Hex | None) -> None:
    """An enemy was defeated (``by``: the player who defeated it, if any; ``where``: its hex)."""
    if not _watching(c):
        return
    b = c.b
    turn = f"{b.turn.unit or ''}"
    b.promotion.setdefault("defeats", []).append([b.round, turn, by or ""])
    for owner in list(b.order):
        check = _check_of(c, owner)
        if check is None:
            continue
        if check.kind == "defeat-enemy" and by == owner and _defeat_meets(c, check, owner, enemy, where):
            promote(c, owner)
        elif check.kind == "enemies-defeated" and (check.by == "anyone" or by == owner):
            if _defeats_in_scope(c, check, owner) >= check.amount:
                promote(c, owner)


def _defeat_meets(c: Ctx, check, owner: str, enemy: Unit, where: Hex | None) -> bool:
    adv = c.adv(owner)
    if check.min_level and int(enemy.level or 0) < check.min_level:
        return False
    if check.form and adv.battle_form != check.form:
        return False
    me = c.unit(f"a:{owner}")
    if check.stealth and not c.has(me, "stealth"):
        return False
    if check.min_distance:
        here = pos(me)
        if here is None or where is None or distance(here, where) < check.min_distance:
            return False
    return True


def _defeats_in_scope(c: Ctx, check, owner: str) -> int:
    b = c.b
    rows = b.promotion.get("defeats", [])
    if check.by != "anyone":
        rows = [r for r in rows if r[2] == owner]
    if check.scope == "turn":
        rows = [r for r in rows if r[0] == b.round and r[1] == (b.turn.unit or "")]
    elif check.scope == "round":
        rows = [r for r in rows if r[0] == b.round]
    return len(rows)


def on_heal(c: Ctx, healer: str | None, healed: Unit, amount: int) -> None:
    """An adventurer's effect healed a unit ``amount`` HP: heals of allies (other adventurers) count."""
    if not _watching(c) or not healer or amount <= 0 or not healed.owner or healed.owner == healer:
        return
    check = _check_of(c, healer)
    if check is None or check.kind != "heal-allies":
        return
    if _count(c, "healed", healer, amount) >= check.amount:
        promote(c, healer)


def on_prevent(c: Ctx, guard: str, ally: str, amount: int) -> None:
    """An adventurer prevented ``amount`` damage dealt to an ally."""
    if not _watching(c) or amount <= 0 or guard == ally:
        return
    check = _check_of(c, guard)
    if check is None or check.kind != "damage-prevented-for-allies":
        return
    if _count(c, "prevented", guard, amount) >= check.amount:
        promote(c, guard)


def on_revive(c: Ctx, reviver: str | None, ally: str) -> None:
    """An adventurer revived a defeated ally."""
    if not _watching(c) or not reviver or reviver == ally:
        return
    check = _check_of(c, reviver)
    if check is None or check.kind != "revive-ally":
        return
    if _count(c, "revived", reviver, 1) >= check.amount:
        promote(c, reviver)


def on_lockpick(c: Ctx, owner: str) -> None:
    """An adventurer succeeded at a lockpick check (a cache, a trap, a cage).  The count runs over the session of
    days under way (none runs: a battle played on its own counts toward no session)."""
    if not _watching(c) or c.state.days is None:
        return
    check = _check_of(c, owner)
    if check is None or check.kind != "lockpick-successes":
        return
    got = c.state.days.promotion.setdefault("lockpicks", {})
    got[owner] = int(got.get(owner, 0)) + 1
    if got[owner] >= check.amount:
        promote(c, owner)


def on_give_tenacity(c: Ctx, giver: str | None) -> None:
    """An adventurer's effect gave tenacity to one or more allies: one time, however many allies gained it."""
    if not _watching(c) or not giver:
        return
    check = _check_of(c, giver)
    if check is None or check.kind != "tenacity-given-to-allies":
        return
    if _count(c, "gave_tenacity", giver, 1) >= check.amount:
        promote(c, giver)


def on_engaged(c: Ctx, owner: str, enemy: Unit) -> None:
    """An enemy's engage on this adventurer has resolved (its damage dealt)."""
    if not _watching(c) or enemy.side != "enemy":
        return
    b = c.b
    b.promotion.setdefault("engaged", []).append([b.round, owner, enemy.id])
    check = _check_of(c, owner)
    if check is None or check.kind != "engaged-by-enemies":
        return
    me = c.unit(f"a:{owner}")
    if me.defeated or me.escaped:
        return
    rows = [r for r in b.promotion["engaged"] if r[1] == owner and (check.scope != "round" or r[0] == b.round)]
    if len({r[2] for r in rows}) >= check.amount:
        promote(c, owner)


def on_hurt(c: Ctx, owner: str) -> None:
    """The adventurer took damage (bonus HP or HP lost)."""
    if _watching(c):
        _count(c, "hurt", owner, 1)


def on_battle_end(c: Ctx) -> None:
    """The battle ends: the requirements that look back over the whole battle."""
    if not _watching(c):
        return
    b = c.b
    for owner in list(b.order):
        check = _check_of(c, owner)
        if check is None or check.kind != "no-damage-when-engaged":
            continue
        engaged = sum(1 for r in b.promotion.get("engaged", []) if r[1] == owner)
        if engaged >= check.amount and not b.promotion.get("hurt", {}).get(owner):
            promote(c, owner)


def on_engage(c: Ctx, owner: str) -> None:
    """An adventurer engages: the first to engage in a battle of a session of days is counted in the session."""
    if not _watching(c):
        return
    b = c.b
    days = c.state.days
    if days is not None and "first_engage" not in b.promotion:  # the first adventurer to engage in this battle
        b.promotion["first_engage"] = owner
        got = days.promotion.setdefault("first_engage", {})
        got[owner] = int(got.get(owner, 0)) + 1
        check = _check_of(c, owner)
        if check is not None and check.kind == "first-to-engage" and got[owner] >= check.amount:
            promote(c, owner)


def note_defeat(state) -> None:
    """An adventurer was defeated (in a battle or by a day's effect) during a session of days: the session is no
    longer one "without any adventurer being defeated"."""
    if promotions_detected(state) and state.days is not None:
        state.days.promotion["defeated"] = True


def on_session_won(c) -> None:
    """The session ends in success: a class whose requirement is a session without any adventurer defeated is
    promoted now, if none was (``c``: the day's context)."""
    if not promotions_detected(c.state) or c.state.days is None or c.state.days.promotion.get("defeated"):
        return
    for owner in c.party():
        check = _check_of(c, owner)
        if check is not None and check.kind == "session-without-defeat":
            promote(c, owner)


WEAPON_FORMS = ("light", "heavy", "ranged")  # the weapon battle forms (p.61); magic is the other kind counted


def on_skill_dice(c: Ctx, owner: str, lines: list[str]) -> None:
    """An adventurer rolled skill dice (``lines``: each die's skill line) in an engage on their turn: a turn in
    which they rolled dice of a magic skill line and of a weapon skill line (light, heavy or ranged) counts once."""
    if not _watching(c) or not lines:
        return
    check = _check_of(c, owner)
    if check is None or check.kind != "magic-and-weapon-dice":
        return
    kinds = set()
    for lid in lines:
        form = getattr(c.pack.lines.get(lid), "form", None)
        if form == "magic":
            kinds.add("magic")
        elif form in WEAPON_FORMS:
            kinds.add("weapon")
    b = c.b
    seen = b.promotion.setdefault("dice_kinds", {}).setdefault(owner, {})
    key = f"{b.round}:{b.turn.unit or ''}"
    before = set(seen.get(key, []))
    now = before | kinds
    seen[key] = sorted(now)
    both = {"magic", "weapon"}
    if both <= now and not both <= before:
        if sum(1 for v in seen.values() if both <= set(v)) >= check.amount:
            promote(c, owner)
