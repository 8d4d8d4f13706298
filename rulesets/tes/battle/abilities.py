"""Class innates and enduring abilities, at the moment their card names.

``innate(c, owner, timing)`` is called by the battle at each moment (start of
battle, start and end of a turn, after an engage, when an enemy is defeated,
when an enemy engages you) and runs the adventurer's innate when its timing is
that moment.  ``enduring_reduction`` is read when damage is dealt.
"""
from __future__ import annotations

from engine.hexes import distance
from engine.text import count
from rulesets.tes.battle.effects import Use, amount_of, applies, run_effects
from rulesets.tes.battle.checks import check_target
from rulesets.tes.battle.model import Ctx, adv_uid, class_sheet, find_unit, on_map, pos

#: The innate's condition that packs written before effect conditions (``if``) could not say, by class.
ADJACENT_ENEMY = ("dragonknight",)


sheet = class_sheet


def at_their_moment(c: Ctx) -> bool:
    """Whether class innates, enduring abilities and race abilities work by themselves at their moment: from
    2026-11-23 09:40 (rules revision 1).  Campaigns begun before (revision 0) used them only with /ability."""
    return c.state.rules >= 1


def _ally_for(c: Ctx, u, text: str) -> str | None:
    """The ally an innate reaches: the one in range (2 hexes) with the lowest HP; "you or" includes you."""
    here = pos(u)
    cands = [x for x in c.units("adventurer") if on_map(x) and here and distance(pos(x), here) <= 2
             and (x.id != u.id or "you or" in text.lower())]
    if not cands:
        return None
    return min(cands, key=lambda x: (c.adv_of(x).hp, x.id != u.id)).id


def innate(c: Ctx, owner: str, timing: str, *, target: str | None = None, engage=None) -> bool:
    """Run the innate of this adventurer's class sheet if its timing is ``timing``."""
    side = sheet(c, owner) if at_their_moment(c) else None
    ab = side.innate if side is not None else None
    if ab is None or ab.timing != timing:
        return False
    adv = c.adv(owner)
    u = c.unit(adv_uid(owner))
    if not on_map(u):
        return False
    if adv.class_id in ADJACENT_ENEMY and timing == "start of your turn" and not ab.manual \
            and not any(e.get("if") or e.get("per") for e in ab.effects):  # a pack written before conditions
        if not any(c.opposing(u, x) and on_map(x) and distance(pos(x), pos(u)) == 1 for x in c.units()):
            return False
    forms = [f for e in ab.effects for f in (e.get("forms") or [])]
    if forms and adv.battle_form not in forms and not ab.manual:
        return False
    probe = Use(c, u, ab.name, target=target, engage=engage, form=adv.battle_form)
    def works(e) -> bool:
        if not applies(probe, e) or (e.get("per") and not amount_of(probe, e)):
            return False
        aimed = e.get("type") in ("damage", "status") and e.get("target", "target") in ENEMY_TARGETS
        return not aimed or bool(target and on_map(c.unit(target)))

    if ab.effects and not ab.manual and not any(works(e) for e in ab.effects):
        return False  # its condition does not hold now (e.g. no adjacent enemy, no target)
    ally = None
    if any(e.get("target") == "ally" for e in ab.effects):
        ally = _ally_for(c, u, ab.text)
        if ally is None:
            return False
    c.say("innate", f"✨ {adv.name}'s innate {ab.name} ({timing}).", unit=u.id)
    stop = sum(int(e.get("amount", 0)) for e in ab.effects if e.get("type") == "prevent"
               and e.get("while") == "now" and isinstance(e.get("amount"), int))
    if stop and not ab.manual:  # prevents part of the damage about to be dealt (read by enduring_reduction)
        nxt = c.b.more.setdefault("prevent_next", {})
        nxt[owner] = nxt.get(owner, 0) + stop
    run_effects(Use(c, u, f"{adv.name}'s {ab.name}", target=target, engage=engage, form=adv.battle_form,
                    ally=ally), ab.effects, manual=ab.manual, text=ab.text)
    return True


def innates(c: Ctx, timing: str) -> None:
    """Every adventurer's innate with this timing (start of battle)."""
    for owner in list(c.b.order):
        innate(c, owner, timing)


def enduring_reduction(c: Ctx, owner: str, amount: int) -> tuple[int, str]:
    """Damage an enduring ability takes off now (the first damage each round while tenacity holds)."""
    side = sheet(c, owner) if at_their_moment(c) else None
    if side is None or amount <= 0:
        return 0, ""
    adv = c.adv(owner)
    nxt = c.b.more.get("prevent_next") or {}
    if nxt.get(owner):
        side_name = side.innate.name if side.innate else "Innate"
        got = min(nxt.pop(owner), amount)
        return got, f"{side_name} prevents {got}"
    for ab in side.abilities:  # defense: every time damage is dealt to you
        if ab.keyword != "enduring" or ab.manual or adv.tenacity < ab.cost:
            continue
        n = sum(int(e.get("amount", 0)) for e in ab.effects if e.get("type") == "defense"
                and isinstance(e.get("amount"), int))
        if n > 0:
            got = min(n, amount)
            return got, f"{ab.name} (enduring, {n} defense) prevents {got}"
    done = c.b.more.get("enduring") or {}  # kept only once an ability used it (before, {} was kept at once)
    for ab in side.abilities:
        if ab.keyword != "enduring" or ab.manual or adv.tenacity < ab.cost:
            continue
        n = sum(int(e.get("amount", 0)) for e in ab.effects if e.get("type") == "prevent"
                and isinstance(e.get("amount"), int))
        key = f"{owner}:{ab.id}"
        if n <= 0 or done.get(key) == c.b.round:
            continue
        done[key] = c.b.round
        c.b.more["enduring"] = done
        got = min(n, amount)
        return got, f"{ab.name} (enduring) reduces it by {got}"
    return 0, ""




def immune_to(c: Ctx, owner: str, status: str) -> str | None:
    """The enduring ability that keeps this adventurer from gaining ``status`` now, by name, or None."""
    side = sheet(c, owner) if at_their_moment(c) else None
    if side is None:
        return None
    adv = c.adv(owner)
    for ab in side.abilities:
        if ab.keyword != "enduring" or ab.manual or adv.tenacity < ab.cost:
            continue
        if any(e.get("type") == "immune" and status in (e.get("statuses") or ()) for e in ab.effects):
            return ab.name
    return None


def start_of_turn(c: Ctx, owner: str) -> None:
    """A free move kept from the start of battle, then the innate of "start of your turn"."""
    first = c.b.more.get("first_free_move") or {}
    n = first.pop(owner, 0)
    if n:
        c.b.turn.free_move += n
    innate(c, owner, "start of your turn")



# ------------------------------------------------------------ aiming --
ENEMY_TARGETS = ("target", "near-target")


def needs_target(ab) -> bool:
    """An ability whose damage or status lands on "the target" (an enemy it names)."""
    return not ab.manual and any((e.get("type") in ("damage", "status") and e.get("target", "target") in ENEMY_TARGETS)
                                 or (e.get("type") == "pierce" and e.get("this_turn")) for e in ab.effects)


def needs_ally(ab) -> bool:
    return not ab.manual and any(e.get("target") == "ally" for e in ab.effects if e.get("type") != "prevent")


def reach_of(ab) -> int | None:
    """Hexes the card's words allow: "adjacent" is 1, "within N hexes" is N, "in range" (None) is the form's."""
    import re

    words = ab.text.lower()
    m = re.search(r"within (\d+) hex", words)
    if m:
        return int(m.group(1))
    if "in range" in words:
        return None
    if "adjacent" in words:
        return 1
    return None


def aim(c: Ctx, owner: str, ab, spec, form: str) -> tuple[str | None, str | None]:
    """Check an ability's target (an enemy) or ally like an engage's; returns (target id, ally id)."""
    from engine.core import RuleError

    adv = c.adv(owner)
    me = c.unit(adv_uid(owner))
    if needs_target(ab):
        if not spec:
            raise RuleError(f"{ab.name} needs a target: add `target:` with an enemy's name, label or hex (`q,r`).")
        t = find_unit(c, spec)
        reach = reach_of(ab)
        if reach is None:
            check_target(c, me, t, form, adv)
            return t.id, None
        if not c.opposing(me, t):
            raise RuleError(f"{t.name} is not an opposing unit; {ab.name} targets an enemy.")
        if not c.sight(pos(me), pos(t)):
            raise RuleError(f"{t.name} is out of sight (sight reaches your tile and the tiles next to it).")
        d = c.range_to(pos(me), pos(t))
        if d is None or d > reach:
            raise RuleError(f"{ab.name} reaches {'adjacent units' if reach == 1 else count(reach, 'hex')}; "
                            f"{t.name} is {count(d, 'hex')} away.")
        return t.id, None
    if any(e.get("type") == "revive" for e in ab.effects) and not ab.manual:
        down = [u for u in c.b.units.values() if u.side == "adventurer" and u.defeated and u.id != me.id]
        if not down:
            raise RuleError(f"{ab.name} brings back a defeated ally, and no ally of {adv.name} is defeated.")
        if not spec:
            if len(down) == 1:
                return None, down[0].id
            raise RuleError(f"{ab.name}: name the ally to revive with `target:` ("
                            + ", ".join(u.name for u in down) + ").")
        key = str(spec).strip().lower()
        hit = next((u for u in down if key in (u.name.lower(), u.short.lower(), u.id.lower())), None)
        if hit is None:
            raise RuleError(f"`{spec}` is not a defeated ally. Defeated: " + ", ".join(u.name for u in down) + ".")
        return None, hit.id
    if needs_ally(ab):
        if not spec:
            return None, me.id
        t = find_unit(c, spec)
        if t.side != "adventurer":
            raise RuleError(f"{ab.name} goes to you or an ally: {t.name} is not an adventurer.")
        if t.id != me.id:
            d = c.range_to(pos(me), pos(t))
            if not c.sight(pos(me), pos(t)) or d is None or d > 2:
                raise RuleError(f"{t.name} is out of range for {ab.name}: an ally must be in sight within "
                                f"2 hexes; {t.name} is {count(d, 'hex')} away.")
        return None, t.id
    if spec:
        raise RuleError(f"{ab.name} names no target; leave `target:` out.")
    return None, None


# ------------------------------------------------------- race abilities --
def _race(c: Ctx, owner: str):
    adv = c.adv(owner)
    race = c.pack.races.get(adv.race)
    return race.ability if race is not None else None


def check_race_timing(c: Ctx, owner: str, ab) -> None:
    """Refuse a race ability asked for outside its moment (before it is marked used)."""
    from engine.core import RuleError

    if not at_their_moment(c):
        return
    if ab.timing == "start of battle":
        raise RuleError(f"{ab.name} works by itself at the start of battle, and only then.")
    if ab.timing == "when you are dealt damage":
        raise RuleError(f"{ab.name} works by itself the first time damage would cost you HP in a battle.")
    if any(e.get("type") == "reroll" for e in ab.effects):
        p = c.b.pending
        if not p or p.owner != owner:
            raise RuleError(f"{ab.name} rerolls dice of your engage: use it after `/engage`, while the roll "
                            "waits, before `/resolve`.")


def race_start_of_battle(c: Ctx) -> None:
    """Race abilities whose moment is the start of battle work by themselves (the Breton's)."""
    if not at_their_moment(c):
        return
    for owner in list(c.b.order):
        ab = _race(c, owner)
        adv = c.adv(owner)
        if ab is None or ab.timing != "start of battle" or adv.race_ability_used:
            continue
        adv.race_ability_used = True
        u = c.unit(adv_uid(owner))
        c.say("ability", f"✨ {adv.name}'s {ab.name} (start of battle).", unit=u.id)
        run_effects(Use(c, u, f"{adv.name}'s {ab.name}"), ab.effects, manual=ab.manual, text=ab.text)


def race_when_damaged(c: Ctx, owner: str, left: int) -> tuple[int, str]:
    """A once-per-battle race ability that prevents damage (the Nord's), used when HP would be lost."""
    ab = _race(c, owner) if at_their_moment(c) else None
    adv = c.adv(owner)
    if ab is None or left <= 0 or adv.race_ability_used or ab.timing != "when you are dealt damage":
        return 0, ""
    if left <= adv.bonus_hp:
        return 0, ""  # bonus HP takes it: the ability waits for a blow that would cost HP
    n = sum(int(e.get("amount", 0)) for e in ab.effects if e.get("type") == "prevent"
            and isinstance(e.get("amount"), int))
    if n <= 0:
        return 0, ""
    adv.race_ability_used = True
    got = min(n, left)
    return got, f"{ab.name} prevents {got}"



def enemy_defeated(c: Ctx, by: str | None, where) -> None:
    """Innates of "when you defeat an enemy": the one who defeated it, and any whose card reaches
    "within N hexes of you" of where it fell (the Necromancer's)."""
    import re

    for owner in list(c.b.order) if at_their_moment(c) else []:
        side = sheet(c, owner)
        ab = side.innate if side is not None else None
        if ab is None or ab.timing != "when you defeat an enemy":
            continue
        m = re.search(r"within (\d+) hex", ab.text.lower())
        if m:
            here = pos(c.unit(adv_uid(owner)))
            if where is None or here is None or distance(where, here) > int(m.group(1)):
                continue
        elif owner != by:
            continue
        innate(c, owner, "when you defeat an enemy")



def lockpick_innate(c: Ctx, owner: str) -> bool:
    """An innate that works during lockpick checks (the Rogue's): shown when a check starts."""
    side = sheet(c, owner) if at_their_moment(c) else None
    ab = side.innate if side is not None else None
    if ab is None or "lockpick" not in ab.text.lower():
        return False
    adv = c.adv(owner)
    c.say("innate", f"✨ {adv.name}'s innate {ab.name} (lockpick check).", unit=adv_uid(owner))
    run_effects(Use(c, c.unit(adv_uid(owner)), f"{adv.name}'s {ab.name}"), ab.effects, manual=ab.manual,
                text=ab.text)
    return True


__all__ = ["immune_to", "lockpick_innate", "enemy_defeated", "innate", "innates", "enduring_reduction", "sheet", "start_of_turn", "aim", "needs_target",
           "needs_ally", "check_race_timing", "race_start_of_battle", "race_when_damaged"]
