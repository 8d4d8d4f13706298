"""Damage, prevention, healing and defeat.

Damage to an adventurer: prevention first (unless true damage), then bonus HP,
then HP.  Automatic prevention spends, in this order (docs/rules-notes.md):

1. cooldown-track dice that prevent and stay (e.g. Resolve) — they cost nothing;
2. the plain ability of ready armor items, when an enemy engage deals the damage;
3. active dice that prevent, choosing each time the smallest die that covers what
   is left, else the largest, so as few dice as possible are spent.
"""
from __future__ import annotations

from typing import Any

from rulesets.tes.battle import track
from rulesets.tes.battle.model import Ctx, class_sheet, pos, prevent_timeout_minutes, prevention_mode, stats_of
from rulesets.tes.battle_state import EngageRecord, Hit, Offer, Unit
from engine.hexes import distance
from rulesets.tes.battle.effects import Use, run_effects
from rulesets.tes.battle.inventory import after_prevention
from rulesets.tes.battle.abilities import enduring_reduction, enemy_defeated, race_when_damaged
from rulesets.tes.battle.status import clear
from rulesets.tes.battle.enemy_skills import dodge, survive
from rulesets.tes.battle.companion import defeated
from rulesets.tes.battle.objectives import objective_met
from rulesets.tes.battle import promotion
from rulesets.tes.state import counted_words, encounter_rules


def ability_of(pack, line_id: str, icon: str):
    line = pack.lines.get(line_id)
    return line.abilities.get(icon) if line else None


def _prevent_effect(pack, line_id: str, icon: str, where: str, form: str | None = None) -> dict | None:
    ab = ability_of(pack, line_id, icon)
    if ab is None:
        return None
    for eff in ab.effects:
        if eff.get("type") == "prevent" and eff.get("while") == where:
            if form and eff.get("forms") and form not in eff["forms"]:
                continue
            return eff
    return None


def prevention_sources(c: Ctx, owner: str, *, enemy_engage: bool) -> list[dict[str, Any]]:
    """What can prevent damage dealt to this adventurer now, in the automatic order."""
    adv = c.adv(owner)
    out: list[dict[str, Any]] = []
    for i, e in enumerate(adv.cooldown):
        if "die" in e and e.get("icon"):
            d = adv.dice.get(e["die"], {})
            eff = _prevent_effect(c.pack, d.get("line", ""), e["icon"], "cooldown")
            if eff and e.get("value"):
                out.append({"kind": "cooldown", "index": i, "value": int(e["value"]), "spend": eff.get("spend", "stay"),
                            "label": f"{track.die_label(c.pack, adv, e['die'])} {e['value']} (cooldown track)",
                            "key": f"track:{e['die']}"})
    if enemy_engage:
        for item_id in adv.ready:
            it = c.pack.items.get(item_id)
            if it and it.subtype == "armor":
                amount = sum(int(eff.get("amount", 0)) for eff in it.effects
                             if eff.get("type") == "prevent" and isinstance(eff.get("amount"), int))
                if amount:
                    out.append({"kind": "item", "item": item_id, "value": amount, "spend": "stay",
                                "label": f"{it.name} (armor)", "key": f"item:{item_id}"})
    for item_id in adv.ready:  # pets: "when you are dealt damage", any damage
        it = c.pack.items.get(item_id)
        if it and it.subtype == "pet":
            amount = sum(int(e.get("amount", 0)) for e in it.effects
                         if e.get("type") == "prevent" and isinstance(e.get("amount"), int))
            if amount:
                out.append({"kind": "item", "item": item_id, "value": amount, "spend": "stay",
                            "label": f"{it.name} (pet)", "key": f"item:{item_id}"})
    if enemy_engage:
        out.extend(interrupt_sources(c, owner))
    actives = []
    for i, e in enumerate(adv.active):
        if e.get("prevent"):
            actives.append({"kind": "active", "index": i, "value": int(e.get("value") or 0),
                            "spend": e.get("spend", "remove"), "label": f"{e.get('label', 'die')} {e.get('value')} (active)",
                            "key": f"active:{e['die']}"})
    return out + [a for a in actives if a["value"] > 0]


#: Class ability timings that let an interrupt answer an enemy's engage before its damage.
INTERRUPT_TIMINGS = ("when an enemy engages you",)


def interrupt_sources(c: Ctx, owner: str) -> list[dict[str, Any]]:
    """Interrupt class abilities that can answer an enemy engaging this adventurer now."""
    adv = c.adv(owner)
    side = class_sheet(c, owner)
    if side is None:
        return []
    used = c.b.turn.interrupts
    out = []
    for ab in side.abilities:
        if ab.keyword != "interrupt" or ab.timing not in INTERRUPT_TIMINGS or ab.manual:
            continue
        if adv.tenacity < ab.cost or f"{owner}:{ab.id}" in used:
            continue
        if ab.form and ab.form != adv.battle_form:
            continue  # switching form would cost fatigue: never done for you
        stop = sum(int(e.get("amount", 0)) for e in ab.effects if e.get("type") == "prevent"
                   and e.get("target", "self") == "self" and isinstance(e.get("amount"), int))
        shield = sum(int(e.get("amount", 0)) for e in ab.effects if e.get("type") == "bonus-hp"
                     and e.get("target", "self") == "self" and isinstance(e.get("amount"), int))
        if stop + shield <= 0:
            continue
        out.append({"kind": "interrupt", "ability": ab.id, "cost": ab.cost, "value": stop + shield,
                    "prevent": stop, "spend": "tenacity",
                    "label": f"{ab.name} ({ab.cost} tenacity, interrupt)", "key": f"interrupt:{ab.id}"})
    return out


#: Class ability timings of interrupts that guard an ally who is dealt damage (Glacial Shield, Shield Wall).
GUARD_TIMINGS = ("when an ally is dealt damage",)


def guard_sources(c: Ctx, owner: str) -> list[dict[str, Any]]:
    """Allies' interrupts that can prevent damage dealt to this adventurer now, in turn order (rules 2).

    A guard's prevent effect names the ally (``target = "ally"``); ``within`` is how far the ally may be
    (1: adjacent; none: any ally on the map).  Each is used once per turn, like every interrupt.
    """
    if c.state.rules < 2:
        return []
    here = pos(c.unit(f"a:{owner}"))
    if here is None:
        return []
    out: list[dict[str, Any]] = []
    for g in c.b.order:
        gu = c.unit(f"a:{g}")
        side = class_sheet(c, g) if g != owner else None
        if side is None or pos(gu) is None or gu.defeated or gu.escaped:
            continue
        adv = c.adv(g)
        for ab in side.abilities:
            if ab.keyword != "interrupt" or ab.timing not in GUARD_TIMINGS or ab.manual:
                continue
            if adv.tenacity < ab.cost or f"{g}:{ab.id}" in c.b.turn.interrupts:
                continue
            if ab.form and ab.form != adv.battle_form:
                continue  # switching form would cost fatigue: never done for you
            for eff in ab.effects:
                if eff.get("type") != "prevent" or eff.get("target") != "ally" or eff.get("while") != "now":
                    continue
                within = eff.get("within")
                if within is not None:
                    d = c.range_to(pos(gu), here)
                    if d is None or d > int(within):
                        continue
                out.append({"kind": "guard", "owner": g, "ability": ab.id, "cost": ab.cost,
                            "value": int(eff.get("amount", 0)), "spend": "tenacity",
                            "label": f"{adv.name}'s {ab.name} ({ab.cost} tenacity, interrupt)",
                            "key": f"guard:{g}:{ab.id}"})
                break
    return out


def apply_guards(c: Ctx, owner: str, left: int, answers: dict[str, str] | None) -> tuple[int, list[str]]:
    """Allies' guard interrupts on damage still ``left`` after the adventurer's own prevention.

    ``answers``: "owner:ability" -> "use" or "no" (asked players); any other guard is used automatically,
    cheapest first, and only when the damage would still cost HP after the adventurer's bonus HP.
    """
    answers = answers or {}
    cands = guard_sources(c, owner)
    if not cands or left <= 0:
        return left, []
    adv = c.adv(owner)
    used: list[str] = []

    def spend(s: dict) -> None:
        nonlocal left
        g = c.adv(s["owner"])
        side = class_sheet(c, s["owner"])
        ab = side.ability(s["ability"])
        before = g.tenacity
        g.tenacity -= ab.cost
        c.b.turn.interrupts.append(f"{s['owner']}:{ab.id}")
        stop = min(left, s["value"])
        left -= stop
        c.say("interrupt", f"⚡ Interrupt: {g.name} spends {ab.cost} tenacity on {ab.name} to guard {adv.name}.",
              unit=f"a:{s['owner']}", ability=ab.id, player=s["owner"])
        used.append(f"{g.name}'s {ab.name} prevents {stop} (tenacity {before} → {g.tenacity})")
        promotion.on_prevent(c, s["owner"], owner, stop)

    def key(s: dict) -> str:
        return f"{s['owner']}:{s['ability']}"

    for s in [s for s in cands if answers.get(key(s)) == "use"]:
        if left <= 0:
            break
        spend(s)
    auto = [s for s in cands if answers.get(key(s), "auto") == "auto"]
    while auto and left > adv.bonus_hp:
        short = left - adv.bonus_hp
        fits = [s for s in auto if s["value"] >= short]
        pick = min(fits, key=lambda s: (s["cost"], s["value"])) if fits else \
            max(auto, key=lambda s: (s["value"], -s["cost"]))
        auto.remove(pick)
        spend(pick)
    return left, used


def auto_keys(c: Ctx, owner: str, sources: list[dict], amount: int) -> list[str]:
    """The automatic prevention choice for this adventurer, as the campaign's rules make it."""
    if not encounter_rules(c.state):  # before 2026-11-23 09:37: interrupts largest first, bonus HP not counted
        return auto_choice(sources, amount, largest_first=True)
    adv = c.adv(owner)
    return auto_choice(sources, amount, cushion=adv.bonus_hp, tenacity=adv.tenacity)


def auto_choice(sources: list[dict], amount: int, *, cushion: int = 0, tenacity: int | None = None,
                largest_first: bool = False) -> list[str]:
    """Automatic prevention, cheapest first: free sources, then active dice, and an interrupt only if HP
    would still be lost.

    An interrupt ability costs tenacity, so it is used only when the cooldown track,
    armor, every active die and the bonus HP (``cushion``) together would still leave
    HP to lose; then the cheapest interrupt that covers the rest is chosen (or, if none
    does, the one that stops most, and so on), never spending more
    than the adventurer's ``tenacity``.  Interrupts resolve before anything else, so
    they come first in the list.
    """
    chosen: list[str] = []
    left = amount
    for s in sources:
        if left <= 0:
            break
        if s["kind"] not in ("active", "interrupt"):
            chosen.append(s["key"])
            left -= s["value"]
    actives = [s for s in sources if s["kind"] == "active"]
    short = left - sum(s["value"] for s in actives) - max(0, cushion)
    first: list[str] = []
    spare = tenacity
    ints = [s for s in sources if s["kind"] == "interrupt"]
    if largest_first:  # the first releases: the largest interrupts until the rest is covered
        for s in sorted(ints, key=lambda s: (-s["value"], s["cost"])):
            if short <= 0:
                break
            first.append(s["key"])
            short -= s["value"]
            left -= s["value"]
        ints = []
    while short > 0 and ints:
        ints = [s for s in ints if spare is None or s["cost"] <= spare]
        if not ints:
            break
        fits = [s for s in ints if s["value"] >= short]
        pick = min(fits, key=lambda s: (s["cost"], s["value"])) if fits else \
            max(ints, key=lambda s: (s["value"], -s["cost"]))
        ints.remove(pick)
        first.append(pick["key"])
        short -= pick["value"]
        left -= pick["value"]
        if spare is not None:
            spare -= pick["cost"]
    chosen = first + chosen
    while left > 0 and actives:
        fits = sorted((s for s in actives if s["value"] >= left), key=lambda s: s["value"])
        pick = fits[0] if fits else max(actives, key=lambda s: s["value"])
        actives.remove(pick)
        chosen.append(pick["key"])
        left -= pick["value"]
    return chosen


def use_interrupt(c: Ctx, owner: str, ability_id: str, attacker: Unit | None) -> None:
    """Spend the tenacity and resolve an interrupt's other effects (bonus HP, a status on the attacker)."""
    adv = c.adv(owner)
    ab = class_sheet(c, owner).ability(ability_id)
    adv.tenacity -= ab.cost
    c.b.turn.interrupts.append(f"{owner}:{ab.id}")
    me = c.unit(f"a:{owner}")
    c.say("interrupt", f"⚡ Interrupt: {adv.name} spends {ab.cost} tenacity on {ab.name} before the damage lands.",
          unit=me.id, ability=ab.id, player=owner)
    rest = [e for e in ab.effects if e.get("type") != "prevent"]
    moves = [e for e in rest if e.get("type") == "move"]
    if moves and c.state.rules >= 2 and c.b.turn.owner != owner:  # an enemy's turn: the player is asked where
        offer_move(c, owner, sum(int(e.get("amount", 0)) for e in moves), ab.name,
                   through=any(e.get("through") for e in moves))
        rest = [e for e in rest if e.get("type") != "move"]
    elif moves and c.state.rules < 2:
        c.say("note", f"{ab.name}: the free move cannot be made during an enemy's turn here; it is skipped.")
        rest = [e for e in rest if e.get("type") != "move"]
    if rest:
        run_effects(Use(c, me, ab.name, target=attacker.id if attacker else None), rest)


def offer_move(c: Ctx, owner: str, amount: int, source: str, *, through: bool = False, ability: str | None = None,
               cost: int = 0, effects: list[dict] | None = None) -> None:
    """Give a player a free move during another unit's turn: the battle waits until they move or stay.  From
    rules revision 4 a party that called the retreat is not asked (the round ends without waiting)."""
    if c.state.rules >= 4 and c.b.retreat:
        c.say("offer", f"{source} would let {c.adv(owner).name} move for free now, but the party is retreating: "
                       "the round ends without waiting for a move.", unit=f"a:{owner}")
        return
    minutes = prevent_timeout_minutes(c.state)
    n = int(c.b.more.get("offers_made", 0)) + 1
    c.b.more["offers_made"] = n
    c.b.offers.append(Offer(id=n, owner=owner, amount=amount, source=source, through=through, ability=ability,
                            cost=cost, effects=list(effects or []),
                            deadline=c.now + minutes * 60 if minutes > 0 and c.now else None))
    paid = f" for {cost} tenacity" if ability and cost else ""
    c.say("offer", f"🏃 {{@player}}: {source}{paid} lets {c.adv(owner).name} move up to {amount} "
                   f"{'hex' if amount == 1 else 'hexes'} for free now"
                   + (", through hexes that hold units" if through else "")
                   + ". Choose where with `/move to:q,r`, or `/battle stay`.", player=owner, unit=f"a:{owner}")


def apply_prevention(c: Ctx, owner: str, amount: int, keys: list[str], sources: list[dict],
                     attacker: Unit | None = None) -> tuple[int, list[str]]:
    """Spend the chosen sources in order; returns (damage left, what was used)."""
    adv = c.adv(owner)
    plain = not encounter_rules(c.state)  # the first releases named only what each source prevented
    by_key = {s["key"]: s for s in sources}
    used: list[str] = []
    left = amount
    remove_active: list[str] = []
    for key in keys:
        s = by_key.get(key)
        if s is None or left <= 0:
            continue
        if s["kind"] == "interrupt":
            before = adv.tenacity
            use_interrupt(c, owner, s["ability"], attacker)
            stop = min(left, s["prevent"])
            left -= stop
            if plain and stop:
                used.append(f"{s['label']} prevents {stop}")
            elif not plain:
                used.append(f"{s['label']} prevents {stop} (tenacity {before} → {adv.tenacity})")
            continue
        stop = min(left, s["value"])
        left -= stop
        if plain:  # the words of before 2026-11-23 09:37
            used.append(f"{s['label']} prevents {stop}")
        if s["kind"] == "item":
            left = after_prevention(c, owner, s["item"], left, attacker)
        if s["kind"] == "active":
            entry = next(e for e in adv.active if f"active:{e['die']}" == key)
            if s["spend"] == "reduce" and entry["value"] - stop > 0:
                entry["value"] -= stop
                if not plain:
                    used.append(f"{s['label']} prevents {stop} (the die drops to {entry['value']})")
            else:
                remove_active.append(entry["die"])
                if not plain:
                    used.append(f"{s['label']} prevents {stop} (the die is spent)")
        elif s["kind"] == "cooldown" and s["spend"] in ("remove", "reduce"):
            # a die that prevents from the cooldown track once (or until its number is used up): it stays in the
            # track as an exhausted die, its effect gone
            entry = adv.cooldown[s["index"]]
            if s["spend"] == "reduce" and int(entry["value"]) - stop > 0:
                entry["value"] = int(entry["value"]) - stop
                if not plain:
                    used.append(f"{s['label']} prevents {stop} (the die drops to {entry['value']})")
            else:
                entry.pop("icon", None)
                entry.pop("value", None)
                if not plain:
                    used.append(f"{s['label']} prevents {stop} (the die is spent)")
        elif not plain:
            used.append(f"{s['label']} prevents {stop}")
    for die_id in remove_active:
        remove_active_die(c, owner, die_id)
    return left, used


def queue_harm(c: Ctx, owner: str, amount: int, source, label: str) -> bool:
    """From rules revision 2: damage an enemy's skill deals to an adventurer waits in ``Battle.harms`` when a
    player must be asked about it first (the adventurer's player, or an ally's guard in ask mode).  True if it
    was queued (the battle deals it once the questions are answered), False: deal it now."""
    if c.state.rules < 2 or c.state.battle is None or amount <= 0:
        return False
    ask = prevention_mode(c.state, owner) == "ask" and prevention_sources(c, owner, enemy_engage=False)
    guards = [s for s in guard_sources(c, owner) if prevention_mode(c.state, s["owner"]) == "ask"]
    if not ask and not guards:
        return False
    n = int(c.b.more.get("harms_made", 0)) + 1
    c.b.more["harms_made"] = n
    c.b.harms.append(Hit(target=f"a:{owner}", amount=amount, source=source.id if source else None, label=label,
                         engage=False, id=n))
    return True


def remove_active_die(c: Ctx, holder: str, die_id: str, notes: list[str] | None = None) -> None:
    """Take a die out of an active slot and exhaust it to its owner's track (fatigue dice go to the holder's)."""
    adv = c.adv(holder)
    entry = next((e for e in adv.active if e["die"] == die_id), None)
    if entry is None:
        return
    adv.active.remove(entry)
    owner = c.state.adventurers.get(entry.get("owner") or holder, adv)
    if entry.get("fatigue"):
        track.place(adv, {"fatigue": entry["fatigue"]}, c.track_size, notes)
        return
    track.exhaust(owner, die_id, c.track_size, notes)


def damage_adventurer(c: Ctx, owner: str, amount: int, *, true: bool = False, source: Unit | None = None,
                      choice: list[str] | None = None, label: str = "", guards: dict[str, str] | None = None,
                      engage: bool | None = None) -> int:
    """Deal damage; returns the damage taken (bonus HP and HP lost).

    ``choice``: the adventurer's own prevention (source keys; None: automatic); ``guards``: answers of the
    allies asked about their guard interrupts (any other is automatic); ``engage``: an enemy's engage deals
    it (armor and interrupts answer; by default, any damage an enemy deals).
    """
    adv = c.adv(owner)
    u = c.unit(f"a:{owner}")
    if u.defeated or u.escaped or amount <= 0:
        return 0
    used: list[str] = []
    left = amount
    if not true:
        cut, why = enduring_reduction(c, owner, left)
        left -= cut
        if why:
            used.append(why)
        by_engage = bool(source and source.side == "enemy") if engage is None else engage
        sources = prevention_sources(c, owner, enemy_engage=by_engage)
        keys = auto_keys(c, owner, sources, left) if choice is None else choice
        left, more_used = apply_prevention(c, owner, left, keys, sources, attacker=source)
        used += more_used
        left, more_used = apply_guards(c, owner, left, guards)
        used += more_used
        cut, why = race_when_damaged(c, owner, left)
        left -= cut
        if why:
            used.append(why)
    taken = left
    bonus_lost = 0
    if not true and adv.bonus_hp and left:
        bonus_lost = min(adv.bonus_hp, left)
        adv.bonus_hp -= bonus_lost
        left -= bonus_lost
    adv.hp = max(0, adv.hp - left)
    parts = [f"{label or 'Damage'}: {adv.name} is dealt {amount}{' true' if true else ''} damage"]
    if used:
        parts.append("; ".join(used))
    if bonus_lost:
        parts.append(f"{bonus_lost} bonus HP lost")
    # "takes" is the HP lost: what the bonus HP soaked up is said before it, so the parts add up to the damage
    # dealt (a campaign on rules revision 2 or earlier keeps the words its battles wrote: "takes" then counted both)
    took = left if counted_words(c.state) else taken
    parts.append(f"takes {took} → {adv.hp}/{adv.max_hp} HP" + (f" (+{adv.bonus_hp})" if adv.bonus_hp else ""))
    c.say("damage", ", ".join(parts) + ".", unit=u.id, dealt=amount, taken=taken)
    if taken:
        promotion.on_hurt(c, owner)
    if taken and source is not None and source.side == "enemy":
        _hurt_achievement(c, owner, source)
    if adv.hp <= 0:
        defeat_adventurer(c, owner)
    return taken


def _hurt_achievement(c: Ctx, owner: str, source: Unit) -> None:
    a, b = pos(source), pos(c.unit(f"a:{owner}"))
    if a is None or b is None:
        return
    key = "first-hit-adjacent" if distance(a, b) <= 1 else "first-hit-at-range"
    grant(c, key, owner)


def grant(c: Ctx, achievement: str, owner: str) -> None:
    enc = c.pack.encounters.get(c.b.encounter)
    if enc is None or not any(a.id == achievement for a in enc.achievements):
        return
    got = c.b.achievements
    if achievement not in got:
        got[achievement] = owner
        label = next(a.label for a in enc.achievements if a.id == achievement)
        c.say("achievement", f"🏅 {c.adv(owner).name}: {label}.", achievement=achievement, player=owner)


def defeat_adventurer(c: Ctx, owner: str) -> None:
    adv = c.adv(owner)
    u = c.unit(f"a:{owner}")
    notes: list[str] = []
    for e in list(adv.active):
        remove_active_die(c, owner, e["die"], notes)
    u.defeated = True
    if u.q is not None:
        u.fell_at = [u.q, u.r] if encounter_rules(c.state) else None  # (kept from 2026-11-23 09:37)
    u.q = u.r = None
    adv.bonus_hp = 0
    clear(c, u)
    c.say("defeated", f"💀 {adv.name} is defeated and leaves the map.", unit=u.id)
    promotion.note_defeat(c.state)


def damage_enemy(c: Ctx, uid: str, amount: int, *, true: bool = False, engage: EngageRecord | None = None,
                 by: str | None = None, label: str = "") -> int:
    """Deal damage to an enemy; its defense is worn down by damage already dealt this engage."""
    u = c.unit(uid)
    if u.defeated or amount <= 0:
        return 0
    enemy = stats_of(c, u)
    dealt_before = 0
    reduce = 0
    notes = []
    if engage is not None:
        dealt = engage.dealt
        dealt_before = dealt.get(uid, 0)
        dealt[uid] = dealt_before + amount
        if engage.attacker:
            engage.damaged_by[uid] = True
    if not true:
        pierce = engage.pierce if engage else 0
        defense = max(0, enemy.defense - pierce - dealt_before)
        reduce = min(amount, defense)
        if reduce:
            notes.append(f"defense prevents {reduce}")
        if engage is not None:
            n, note = dodge(c, u, amount - reduce, engage)
            if n:
                reduce += n
                notes.append(note)
    taken = amount - reduce
    u.hp = max(0, u.hp - taken)
    c.say("damage", f"{label or 'Damage'}: {u.name} is dealt {amount}{' true' if true else ''} damage"
          + (f" ({', '.join(notes)})" if notes else "") + f", takes {taken} → {u.hp}/{u.max_hp} HP.",
          unit=uid, dealt=amount, taken=taken)
    if u.hp <= 0:
        defeat_enemy(c, uid, by)
    return taken


def defeat_enemy(c: Ctx, uid: str, by: str | None) -> None:
    u = c.unit(uid)
    if survive(c, u):  # e.g. Reassemble: it stays on the map
        return
    met = objective_met(c)
    u.defeated = True
    where = pos(u)
    if u.q is not None:
        u.fell_at = [u.q, u.r] if encounter_rules(c.state) else None  # (kept from 2026-11-23 09:37)
    u.q = u.r = None
    clear(c, u)
    if u.companion or u.side == "companion":  # a companion, or an enemy chip fighting for the party
        defeated(c, u)
        return
    if not u.quest:
        c.b.defeated_stack.append(u.enemy)
    who = f" by {c.adv(by).name}" if by and by in c.state.adventurers else ""
    c.say("defeated", f"☠️ {u.name} is defeated{who}.", unit=uid, by=by)
    if by:
        grant(c, f"defeat-{u.enemy}", by)
        if c.b.turn.owner == by:  # "when you defeat an enemy" abilities may be used this turn
            c.b.turn.more.setdefault("defeated_by", [])
            if by not in c.b.turn.more["defeated_by"]:
                c.b.turn.more["defeated_by"].append(by)
    promotion.on_defeat(c, u, by, where)
    enemy_defeated(c, by, where)
    if not met and objective_met(c) and c.b.step == "adventurer":
        c.say("objective", "🏁 The objective is achieved: the battle ends in victory at the end of this round. "
                           "Whoever has a turn left this round may still take it (a cache, a move) or `/endturn`.",
              since=3)


def heal(c: Ctx, u: Unit, amount: int) -> int:
    adv = c.adv_of(u)
    if adv is not None:
        before = adv.hp
        adv.hp = min(adv.max_hp, adv.hp + max(0, amount))
        return adv.hp - before
    before = u.hp
    u.hp = min(u.max_hp, u.hp + max(0, amount))
    return u.hp - before
