"""An adventurer's actions: move, engage (gather and roll) and resolve the roll, escape, abilities."""
from __future__ import annotations

from typing import Any

from rulesets.tes.battle import harm, promotion, track
from rulesets.tes import args as args_
from rulesets.tes.battle.effects import Use, run_effects
from rulesets.tes.battle.checks import check_target, my_turn, no_pending
from rulesets.tes.battle.moves import cut, entered, route, stepped
from rulesets.tes.battle.model import Ctx, find_unit, on_map, pos
from rulesets.tes.battle_state import EngageRecord, PendingRoll, Reroll, RolledDie, Unit
from rulesets.tes.content import BATTLE_FORMS, BATTLE_FORM_NAMES, COMBAT_FORMS
from engine.core import Confirm, RuleError, strong
from engine.hexes import Hex, distance
from engine.text import slug as _slug
from rulesets.tes.battle.lockpick import note_cache
from rulesets.tes.battle.abilities import innate
from rulesets.tes.battle.enemy import enemy_skills_at
from rulesets.tes.battle.status import remove
from engine.text import count

#: Where a die goes when a face has several codes: the first of these that applies.
CODE_PRECEDENCE = ("D", "S", "A", "C", "I")


# ------------------------------------------------------------------ turn --


def adv_stamina(c: Ctx, owner: str) -> int:
    return c.adv(owner).stat("stamina")


# ------------------------------------------------------------------ move --


def plan_move(c: Ctx, owner: str, args: dict) -> tuple[list[Hex], bool]:
    turn = my_turn(c, owner)
    no_pending(c)
    u = c.unit(f"a:{owner}")
    adv = c.adv(owner)
    free = bool(args.get("free"))
    if free:
        limit = int(turn.free_move)
        if limit <= 0:
            raise RuleError("You have no free movement to use. Move normally without `free:` (`/move to:q,r`).")
    else:
        if turn.moves >= 2:
            raise RuleError("You already moved twice this turn. Engage is not possible either now; `/endturn`.")
        if turn.explored:  # a delve: the explore action and a move action exclude each other (rulebook p.61)
            raise RuleError("You took the explore action this turn, so you cannot take a move action; free "
                            "movement from an ability or an interrupted move still works (`/move ... free:yes`).")
        if turn.engages and turn.moves >= 1:
            raise RuleError("After engaging you may move only once per turn. End your turn with `/endturn`.")
        if c.has(u, "daze") and turn.rolled:
            raise RuleError("You are dazed and already rolled dice this turn, so you cannot move. `/endturn`.")
        limit = adv.stat("stamina")
    path = route(c, u, args, limit, through=free and bool(turn.more.get("free_through")))  # "through units"
    if not free and turn.moves == 1 and not turn.engages and c.state.rules >= 3 and not args.get("confirm"):
        # two moves and no engage, or one move and engages (p.59): the second move gives up this turn's engages
        raise Confirm("A second move gives up your engage: after moving twice you cannot engage this turn. "
                      "Move anyway? Press the button or add `confirm:yes` (`/endturn` ends the turn instead).",
                      label="Move a second time", args={"path": [[h.q, h.r] for h in path]})
    return path, free


def do_move(c: Ctx, owner: str, args: dict) -> None:
    path, free = plan_move(c, owner, args)
    turn = c.b.turn
    u = c.unit(f"a:{owner}")
    start = pos(u)
    planned = len(path)
    path, stopped = cut(c, u, path)  # a delve's trap stops the move in the hex that triggers it
    end = path[-1]
    u.q, u.r = end.q, end.r
    turn.acted = True
    turn.path = [[start.q, start.r]] + [[h.q, h.r] for h in path]
    if free:
        turn.free_move -= planned if not stopped else len(path)
    else:
        turn.moves += 1
        turn.moved = True
        turn.last = "move"
    kind = "free move" if free else ("second move" if turn.moves == 2 else "move")
    c.say("move", f"🚶 {u.name} makes a {kind}: {start} → " + " → ".join(str(h) for h in path) + ".",
          unit=u.id, path=turn.path)
    if not free and turn.moves == 2 and not turn.engages:
        c.say("move", f"{u.name} moved twice this turn, so no engage is left this turn.", since=3, unit=u.id)
    stepped(c, u, path)
    limit = 0 if free else adv_stamina(c, owner)
    if on_map(u) and not stopped:
        note_cache(c, u, len(path), limit)
    if on_map(u):
        entered(c, u, start, path, stopped, max(0, limit - len(path)))  # free movement left stays banked


# ---------------------------------------------------------------- engage --
def in_row_order(adv) -> list[str]:
    """The adventurer's available dice, in the order of their rows (left to right, top to bottom)."""
    free = set(adv.available_dice())
    out = []
    for row in adv.rows:
        for sq in row.squares:
            d = sq.get("die") if sq else None
            if d and d in free and d not in out:
                out.append(d)
    return out + [d for d in adv.available_dice() if d not in out]


def rollable(c: Ctx, owner: str, form: str) -> list[str]:
    """The available dice this adventurer could roll in an engage in ``form`` (row order)."""
    adv = c.adv(owner)
    out = []
    for d in in_row_order(adv):
        line = c.pack.lines.get(adv.dice[d]["line"])
        if line is None:
            continue
        if line.id == "combat" and form not in COMBAT_FORMS:
            continue
        if line.form and line.form != form:
            continue
        out.append(d)
    return out


def dice_words(c: Ctx, owner: str, ids: list[str]) -> str:
    """``ids`` in the syntax ``/engage dice:`` takes: ``2 shield-discipline, combat``."""
    adv = c.adv(owner)
    counts: dict[str, int] = {}
    for d in ids:
        name = _slug(c.pack.die(adv.dice[d]["type"]).name)
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" if n > 1 else name for name, n in counts.items())


def available_now(c: Ctx, owner: str, form: str) -> str:
    """A refusal's last words: the dice available now for an engage in ``form``, as ``dice:`` takes them."""
    adv = c.adv(owner)
    ids = rollable(c, owner, form)
    name = BATTLE_FORM_NAMES.get(form, form)
    if not ids:
        return f"No die of yours can be rolled in {name} form now: choose another form with `form:`, or a weapon."
    return (f"Name your dice from those available now in {name} form: `dice:{dice_words(c, owner, ids)}` (an "
            f"engage rolls at most your Stamina ({adv.stat('stamina')}) in Stamina dice and your Magicka "
            f"({adv.stat('magicka')}) in Magicka dice; `dice:all` rolls as many as that allows).")


def all_dice(c: Ctx, owner: str, form: str, most: int | None = None) -> list[str]:
    """``dice:all``: the dice available for ``form`` in row order, as many of each stat as the stat allows
    (and at most ``most`` in all, for an engage an ability grants)."""
    adv = c.adv(owner)
    used: dict[str, int] = {}
    out = []
    for d in rollable(c, owner, form):
        stat = c.pack.lines[adv.dice[d]["line"]].stat
        if used.get(stat, 0) >= adv.stat(stat) or (most is not None and len(out) >= most):
            continue
        used[stat] = used.get(stat, 0) + 1
        out.append(d)
    return out


def pick_dice(c: Ctx, owner: str, spec: Any, form: str | None = None) -> list[str]:
    """Die ids from ``[[word, count], ...]`` (``rulesets.tes.args.dice_spec``; raw text from older logs)."""
    adv = c.adv(owner)
    if not spec:
        return []
    form = form or adv.battle_form
    parsed = args_.dice_spec(spec)
    if [w for w, _n in parsed] == ["all"]:
        return all_dice(c, owner, form)
    free = list(adv.available_dice())
    chosen: list[str] = []
    types = {}
    for did, d in adv.dice.items():
        dt = c.pack.die(d["type"])
        types.setdefault(d["type"], dt.name)
    for word, n in parsed:
        if word in adv.dice:
            if word not in free:
                raise RuleError(f"Die `{word}` is not available (it is {adv.die_location(word)}). "
                                + available_now(c, owner, form))
            free.remove(word)
            chosen.append(word)
            continue
        key = _slug(word)
        tid = next((t for t, name in types.items() if t == key or _slug(name) == key), None)
        if tid is None:
            raise RuleError(f"You have no `{word}` dice. " + available_now(c, owner, form))
        mine = [d for d in free if adv.dice[d]["type"] == tid]
        if len(mine) < n:
            raise RuleError(f"You have only {count(len(mine), types[tid] + ' die', types[tid] + ' dice')} available, not {n} "
                            "(dice in your cooldown track, active slots or drained cannot be rolled). "
                            + available_now(c, owner, form))
        for d in mine[:n]:
            free.remove(d)
            chosen.append(d)
    return chosen


def plan_engage(c: Ctx, owner: str, args: dict) -> dict:
    granted = (c.b.turn.more.get("granted") or {}).get(owner) if c.b.step == "adventurer" else None
    turn = c.b.turn if granted and c.b.turn.owner != owner else my_turn(c, owner)
    no_pending(c)
    adv = c.adv(owner)
    me = c.unit(f"a:{owner}")
    if not any(args.get(k) for k in ("dice", "item")) and c.state.rules == 2:  # (before: a bare engage rolled nothing)
        raise RuleError("Say what to roll: `/engage dice:` with your skill dice (e.g. `dice:combat` or "
                        "`dice:2 combat`) and `target:` an enemy, or `item:` a ready weapon. "
                        "`/adventurer show` shows your dice.")
    if granted and turn.owner != owner:
        pass  # an engage an ability gives on another adventurer's turn
    elif turn.moves >= 2:
        raise RuleError("You moved twice this turn, so you cannot engage any more. `/endturn`.")
    if turn.engages and turn.last == "move":
        raise RuleError("You moved after engaging; no more engages this turn. `/endturn`.")
    if c.has(me, "daze") and turn.moved:
        raise RuleError("You are dazed and already moved this turn, so you cannot roll dice. `/endturn`.")
    form = _slug(args.get("form") or adv.battle_form)
    if form not in BATTLE_FORMS:
        raise RuleError(f"`{args.get('form')}` is not a battle form. Choose one of: {', '.join(BATTLE_FORMS)}.")
    target = None
    if args.get("target"):
        target = find_unit(c, args["target"])
        check_target(c, me, target, form, adv)
    dice_ids = pick_dice(c, owner, args.get("dice"), form)
    if granted and granted.get("dice") and [w for w, _n in args_.dice_spec(args.get("dice"))] == ["all"]:
        dice_ids = dice_ids[:granted["dice"]]
    per_stat = {"stamina": 0, "magicka": 0}
    for d in dice_ids:
        line = c.pack.lines[adv.dice[d]["line"]]
        if line.id == "combat" and form not in COMBAT_FORMS:
            raise RuleError("Combat dice cannot be rolled in Magic form. Change form or leave them out. "
                            + available_now(c, owner, form))
        if line.form and line.form != form:
            raise RuleError(f"{line.name} dice need {BATTLE_FORM_NAMES[line.form]} form; you engage in "
                            f"{BATTLE_FORM_NAMES[form]} form. Set `form:{line.form}` or leave them out. "
                            + available_now(c, owner, form))
        per_stat[line.stat] = per_stat.get(line.stat, 0) + 1
    for stat, n in per_stat.items():
        if n > adv.stat(stat):
            raise RuleError(f"You may roll up to {adv.stat(stat)} {stat.title()} dice per engage "
                            f"(your {stat.title()}), not {n}. Leave some out. " + available_now(c, owner, form))
    item = None
    if args.get("item"):
        key = _slug(args["item"])
        item = next((i for i in adv.ready if i == key or _slug(c.pack.items[i].name) == key), None)
        if item is None:
            raise RuleError(f"`{args['item']}` is not in your ready slots. Ready items: "
                            f"{', '.join(c.pack.items[i].name for i in adv.ready) or 'none'}.")
        it = c.pack.items[item]
        if it.subtype != "weapon" or form not in it.forms:
            raise RuleError(f"{it.name} is not a weapon for {BATTLE_FORM_NAMES[form]} form; choose a matching "
                            "weapon or none.")
    if args.get("overtax") and (item is None or c.pack.items[item].keyword != "overtax"):
        raise RuleError("Overtax needs a weapon with the overtax keyword in `item:`.")
    if granted and granted.get("dice") and len(dice_ids) > granted["dice"]:
        raise RuleError(f"{granted['source']} lets you roll up to {granted['dice']} skill dice, not {len(dice_ids)}. "
                        + available_now(c, owner, form))
    if c.state.rules >= 3 and not args.get("confirm") and not dice_ids and not item and not _free_dice(c, owner):
        # p.59 step 4: an engage may gather no dice and still complete its steps; it is an engage all the same
        what = "your engage this turn" if granted or not turn.engages else (
            f"another engage this turn ({2 if c.state.difficulty == 'expert' else 1} light fatigue)")
        raise Confirm(f"Engage with no dice? It rolls nothing and counts as {what}. To roll, name your dice with "
                      "`dice:` (e.g. `dice:combat`; `/adventurer show` shows them). To engage anyway, press the "
                      "button or add `confirm:yes`.", label="Engage with no dice",
                      args={"target": target.id if target else None, "form": form, "item": item,
                            "overtax": bool(args.get("overtax"))})
    return {"form": form, "target": target.id if target else None, "dice": dice_ids, "item": item,
            "overtax": bool(args.get("overtax")), "granted": bool(granted)}


def _free_dice(c: Ctx, owner: str) -> int:
    """Free dice an ability added to this adventurer's next engage (rolled even with no skill dice named)."""
    return int((c.b.turn.more.get("extra_dice") or {}).get(owner, 0))


def roll_die(c: Ctx, faces, label: str, line: str, die_id: str | None, type_id: str, free: bool = False) -> RolledDie:
    n = c.dice.roll(6)
    face = faces[n - 1]
    return {"die": die_id, "type": type_id, "line": line, "label": label, "roll": n, "free": free,
            "results": [[r.icon, r.value] for r in face.results], "face": str(face)}


def do_engage(c: Ctx, owner: str, args: dict) -> None:
    plan = plan_engage(c, owner, args)
    turn = c.b.turn
    adv = c.adv(owner)
    me = c.unit(f"a:{owner}")
    granted = (turn.more.get("granted") or {}).pop(owner, None) if plan.get("granted") else None
    if granted:
        c.say("engage", f"{adv.name} engages with {granted['source']}: no fatigue for this engage.", unit=me.id)
    elif turn.engages >= 1:
        n = 2 if c.state.difficulty == "expert" else 1
        track.gain_fatigue(adv, "light", n, c.track_size, party=c.state.adventurers.values(), supply=c.pack.supply)
        c.say("fatigue", f"{adv.name} engages again this turn and gains {n} light fatigue.", unit=me.id)
    if plan["form"] != adv.battle_form:
        adv.battle_form = plan["form"]
        c.say("form", f"{adv.name} switches to {BATTLE_FORM_NAMES[plan['form']]} form.", unit=me.id)
    if turn.owner == owner:
        turn.engages += 0 if granted else 1
        turn.acted = True
        turn.rolled = turn.rolled or bool(plan["dice"])
        turn.last = "engage"
    rolled = []
    for d in plan["dice"]:
        info = adv.dice[d]
        dt = c.pack.die(info["type"])
        rolled.append(roll_die(c, dt.faces, dt.name, info["line"], d, dt.id))
    if any(c.pack.lines[adv.dice[d]["line"]].stat == "magicka" for d in plan["dice"]):
        seen = turn.more.setdefault("rolled_magicka", [])  # read by effects that say "if you rolled Magicka"
        if owner not in seen:
            seen.append(owner)
    engage = EngageRecord(attacker=me.id)
    engage.pierce += int((turn.more.get("marked") or {}).get(plan["target"] or "", 0))  # e.g. Mark Target
    if plan["item"]:
        it = c.pack.items[plan["item"]]
        effs = list(it.effects) + (list(it.overtax_effects) if plan["overtax"] else [])
        extra = min(sum(int(e.get("amount", 1)) for e in effs if e.get("type") == "add-dice"),
                    c.pack.supply.enemy_combat_dice)
        for _ in range(extra):
            rolled.append(roll_die(c, c.pack.enemy_combat_die, "Enemy Combat (free)", "combat", None, "enemy",
                                   free=True))
    extra = (turn.more.get("extra_dice") or {}).pop(owner, 0)  # free dice an ability added
    for _ in range(min(extra, c.pack.supply.enemy_combat_dice)):
        rolled.append(roll_die(c, c.pack.enemy_combat_die, "Enemy Combat (free)", "combat", None, "enemy", free=True))
    target = c.unit(plan["target"]) if plan["target"] else None
    turn.engage_line = [list(map(int, (me.q, me.r)))] + ([[target.q, target.r]] if target else [])
    c.b.pending = PendingRoll(owner=owner, form=plan["form"], target=plan["target"], item=plan["item"],
                              overtax=plan["overtax"], dice=rolled, engage=engage)
    dice_txt = ", ".join(f"{i}. {r['label']} 🎲{r['roll']} → {strong(r['face'])}" for i, r in enumerate(rolled, 1))
    tgt = f" targeting {target.name}" if target else " with no target"
    c.say("roll", f"⚔️ {adv.name} engages in {BATTLE_FORM_NAMES[plan['form']]} form{tgt}"
                  + (f" with {c.pack.items[plan['item']].name}" + (" (overtaxed)" if plan["overtax"] else "")
                     if plan["item"] else "")
                  + (f": {dice_txt}." if rolled else ", rolling no dice."),
          unit=me.id, dice=rolled, target=plan["target"], form=plan["form"])
    promotion.on_engage(c, owner)
    if turn.owner == owner:
        promotion.on_skill_dice(c, owner, [adv.dice[d]["line"] for d in plan["dice"]])
    if plan["item"] and rolled:
        it = c.pack.items[plan["item"]]
        effs = list(it.effects) + (list(it.overtax_effects) if plan["overtax"] else [])
        rr = [e for e in effs if e.get("type") == "reroll" and (not e.get("forms") or plan["form"] in e["forms"])]
        if rr:
            run_effects(Use(c, me, it.name, form=plan["form"]), rr)
    if rolled:
        innate(c, owner, "after you engage", target=plan["target"], engage=engage)
    if not rolled:
        resolve(c, owner, {"order": []})


def reroll(c: Ctx, owner: str, args: dict) -> None:
    """Step 5a: reroll some dice of the waiting roll, using rerolls an item or ability granted."""
    p = c.b.pending
    if not p or p.owner != owner:
        raise RuleError("There is no roll of yours to reroll. Engage first with `/engage`.")
    p.rerolls = [Reroll.from_dict(r) for r in p.rerolls]
    pool = [r for r in p.rerolls if r.left > 0]
    if not pool:
        raise RuleError("Nothing lets you reroll this roll. Rerolls come from some weapons and abilities; "
                        "resolve it with `/resolve`.")
    left = sum(r.left for r in pool)
    blank_only = all(r.blank_only for r in pool)
    may = [i for i, d in enumerate(p.dice) if not blank_only or not d["results"]]  # dice a reroll may take
    can = (f" Dice you may reroll now: `dice:{','.join(str(i + 1) for i in may)}`"
           f" ({left} of them at most; `dice:all` takes the first {left})." if may else
           " No die of this roll can be rerolled now: resolve it with `/resolve`.")
    spec = args.get("dice")
    if isinstance(spec, str) and spec.strip().lower() == "all":
        picks = may[:left]
        if not picks:
            raise RuleError("Your rerolls work only on blank results, and this roll has none." + can)
    else:
        picks = parse_order(spec, len(p.dice), can)
    if not picks:
        raise RuleError("Name the dice to reroll by their numbers in the roll, e.g. `dice:2` or `dice:1,3`." + can)
    if len(picks) > left:
        raise RuleError(f"You may reroll {left} more {'die' if left == 1 else 'dice'} of this roll, not {len(picks)}."
                        + can)
    lines = []
    for i in picks:
        old = p.dice[i]
        grant = next((r for r in pool if r.left > 0 and (not r.blank_only or not old["results"])), None)
        if grant is None:
            raise RuleError(f"Die {i + 1} is not blank; your reroll works only on blank results." + can)
        faces = c.pack.enemy_combat_die if old["free"] else c.pack.die(old["type"]).faces
        new = roll_die(c, faces, old["label"], old["line"], old["die"], old["type"], old["free"])
        p.dice[i] = new
        grant.left -= 1
        lines.append(f"{i + 1}. {old['label']} {old['face']} → 🎲{new['roll']} {strong(new['face'])}")
    adv = c.adv(owner)
    c.say("roll", f"🎲 {adv.name} rerolls: " + "; ".join(lines) + ".", unit=f"a:{owner}", dice=p.dice)


# --------------------------------------------------------------- resolve --
def parse_order(spec: Any, n: int, can: str = "") -> list[int]:
    """Die numbers of a roll (1 to ``n``) as 0-based places; ``can`` ends a refusal with what may be named."""
    if spec is None or spec == "" or spec == "all":
        return list(range(n))
    nums = args_.numbers(spec, args_.ORDER_ERROR)
    out = []
    for k in nums:
        if not 1 <= k <= n:
            raise RuleError(f"Die {k} is not in the roll; it has dice 1 to {n}." + can)
        if k - 1 in out:
            raise RuleError(f"Die {k} is listed twice; list each die once." + can)
        out.append(k - 1)
    return out


def resolve(c: Ctx, owner: str, args: dict) -> None:
    p = c.b.pending
    if not p:
        raise RuleError("There is no roll to resolve. Engage first with `/engage`.")
    if p.owner != owner:
        raise RuleError(f"This roll belongs to {c.adv(p.owner).name}; they resolve it.")
    order = parse_order(args.get("order"), len(p.dice))
    adv = c.adv(owner)
    me = c.unit(f"a:{owner}")
    form = p.form
    ally = None
    if args.get("ally"):
        a = find_unit(c, args["ally"], side="adventurer")
        ally = a.id
    feared = c.has(me, "fear")
    engage = p.engage
    dice = p.dice
    # dice that deal no damage (for the Dodge skill): unresolved ones and ones without a damage result
    def deals_damage(r: RolledDie) -> bool:
        for icon, _v in r["results"]:
            ab = harm.ability_of(c.pack, r["line"], icon) if not r["free"] else None
            effs = ab.effects if ab else ([{"type": "damage"}] if icon == "damage" else [])
            if any(e.get("type") == "damage" and (not e.get("forms") or form in e["forms"]) for e in effs):
                return True
        return False
    engage.idle_dice = sum(1 for i, r in enumerate(dice) if i not in order or not deals_damage(r))
    notes: list[str] = []
    # abilities in order of first appearance; a die's tenacity results count separately
    groups: list[dict] = []
    for i in order:
        r = dice[i]
        if feared and r["line"] != "combat":
            c.say("status", f"{adv.name} is afraid: {r['label']}'s result does nothing.", unit=me.id)
            continue
        for icon, value in r["results"]:
            key = ("enemy" if r["free"] else r["line"], icon)
            ab = None if r["free"] else harm.ability_of(c.pack, r["line"], icon)
            if ab is not None and not any(e.get("type") == "damage" for e in ab.effects):
                key = key + (i,)  # only damage is totalled per ability; other results resolve die by die
            g = next((g for g in groups if g["key"] == key), None)
            if g is None:
                g = {"key": key, "value": 0, "dice": []}
                groups.append(g)
            g["value"] += int(value or (1 if icon == "tenacity" else 0))
            g["dice"].append(i)
    use = Use(c, me, "", target=p.target, engage=engage, form=form, ally=ally,
              hexes=args_.route(args["at"], "at") if args.get("at") else [])  # hexes for dice placed in a hex
    named = len(use.hexes)
    placed: set[int] = set()  # dice placed on a unit as status dice (S code)
    if p.item:
        it = c.pack.items[p.item]
        use.label = it.name
        at_resolve = [e for e in it.effects if e.get("type") not in ("add-dice", "reroll")]
        if at_resolve or it.manual:  # add-dice and reroll already worked at the roll
            run_effects(use, at_resolve, manual=it.manual, text=it.text)
        if p.overtax:
            use.label = f"{it.name} (overtax)"
            over = [e for e in it.overtax_effects if e.get("type") not in ("add-dice", "reroll")]
            if over or not it.overtax_effects:
                run_effects(use, over, text=it.overtax_text)
            adv.ready.remove(p.item)
            c.say("item", f"{it.name} is discarded after its overtax.", item=p.item)
    for g in groups:
        line_id, icon = g["key"][:2]
        if line_id == "enemy":
            if icon == "damage":
                use.label, use.value = "Free Combat dice", g["value"]
                run_effects(use, [{"type": "damage", "amount": "value", "target": "target"}])
            continue
        line = c.pack.lines[line_id]
        ab = line.abilities.get(icon)
        if ab is None:
            continue
        value = g["value"]
        if line_id == "combat" and icon == "damage" and c.has(me, "maim") and form != "defensive":
            value //= 2
            c.say("status", f"{adv.name} is maimed: Combat damage halved to {value}.", unit=me.id)
        use.label = f"{line.name}: {icon}"
        use.value = value
        use.status_die, use.status_die_placed = None, False
        if ab.code_in(form) == "S" and len(g["dice"]) == 1 and not dice[g["dice"][0]]["free"]:
            use.status_die = (owner, dice[g["dice"][0]]["die"])
        if any(e.get("type") == "damage" and (not e.get("forms") or form in e["forms"]) for e in ab.effects) \
                and not p.target and not any(e.get("target") not in (None, "target", "near-target")
                                                for e in ab.effects if e.get("type") == "damage"):
            c.say("note", f"{use.label}: no target was declared, so its damage goes nowhere.")
        run_effects(use, ab.effects, manual=ab.manual, text=ab.text)
        if use.status_die_placed:
            placed.add(g["dice"][0])
        use.status_die = None
    if use.hexes:
        used = named - len(use.hexes)
        only = "none of the dice you resolve is" if not used else \
            f"only {used} of the dice you resolve {'is' if used == 1 else 'are'}"
        raise RuleError(f"`at:` names {named} {'hex' if named == 1 else 'hexes'}, but {only} placed in a hex "
                        "(e.g. a rune). Name one hex per such die, in resolve order, or leave `at:` out.")
    left_out = [f"{i + 1}. {r['label']} ({r['face']})" for i, r in enumerate(dice) if i not in order]
    if left_out:  # what was given up is said, never lost in silence (a line of its own from rules revision 3)
        none = not order
        c.say("discard", f"{adv.name} resolves {'none of the roll' if none else 'only some dice'}: "
                         + ", ".join(left_out) + (" goes" if len(left_out) == 1 else " go")
                         + " unresolved (a skill die is exhausted to the cooldown track).", since=3, unit=me.id,
              dice=[i for i in range(len(dice)) if i not in order])
    # place every die
    for i, r in enumerate(dice):
        if r["free"] or i in placed:
            continue
        d = r["die"]
        if i not in order or (feared and r["line"] != "combat"):
            track.exhaust(adv, d, c.track_size, notes)
            continue
        line = c.pack.lines[r["line"]]
        codes = []
        for icon, value in r["results"]:
            ab = line.abilities.get(icon)
            if ab:
                codes.append((ab.code_in(form), icon, value, ab))
        code = next((x for k in CODE_PRECEDENCE for x in codes if x[0] == k), None)
        if code is None or code[0] in ("I", "S"):
            track.exhaust(adv, d, c.track_size, notes)
        elif code[0] == "D":
            adv.drained.append(d)
            c.say("drain", f"{r['label']} is drained until the battle ends.", unit=me.id)
        elif code[0] == "C":
            track.exhaust(adv, d, c.track_size, notes, icon=code[1], value=int(code[2] or 0))
        elif code[0] == "A":
            place_active(c, owner, d, r, code, ally, notes)
    for n in notes:
        c.say("track", f"{adv.name}: {n}.", unit=me.id)
    c.b.pending = None
    after_engage(c, me, p)


def place_active(c: Ctx, owner: str, die_id: str, r: RolledDie, code: tuple, ally: str | None, notes: list[str]) -> None:
    adv = c.adv(owner)
    icon, value, ab = code[1], code[2], code[3]
    prevent = next((e for e in ab.effects if e.get("type") == "prevent" and e.get("while") == "active"), None)
    holder = owner
    if prevent and prevent.get("target") == "ally" and ally:
        cand = c.unit(ally)
        if cand.owner and distance(pos(cand), pos(c.unit(f"a:{owner}"))) <= 1:
            holder = cand.owner
    hadv = c.adv(holder)
    if len(hadv.active) >= c.pack.mat.active_slots:
        track.exhaust(adv, die_id, c.track_size, notes)
        c.say("active", f"{hadv.name}'s active slots are full, so {r['label']} is exhausted instead. "
                        "(Free a slot first with `/battle drop`.)", unit=f"a:{owner}")
        return
    hadv.active.append({"die": die_id, "owner": owner, "icon": icon, "value": int(value or 0), "label": r["label"],
                        "line": r["line"], "prevent": bool(prevent),
                        "spend": (prevent or {}).get("spend", "remove")})
    if die_id not in adv.away:
        adv.away.append(die_id)
    where = "" if holder == owner else f" in {hadv.name}'s slot"
    c.say("active", f"{r['label']} ({value} {icon}) goes to an active slot{where}.", unit=f"a:{owner}")


def after_engage(c: Ctx, me: Unit, p: PendingRoll) -> None:
    """Units react: enemies' "after it is engaged" skills; stealth ends once its owner dealt damage."""
    p = PendingRoll.from_dict(p)  # a record, or its saved shape
    engage = p.engage
    if me.owner:  # your own reaction first: an innate "after your engage is resolved" (the Spellblade's)
        innate(c, me.owner, "after your engage is resolved", target=p.target, engage=engage)
    if p.target:
        t = c.unit(p.target)
        if t.side == "enemy" and on_map(t):
            enemy_skills_at(c, t, "after it is engaged", attacker=me, engage=engage)
    if any(engage.dealt.values()) and c.has(me, "stealth"):
        remove(c, me, "stealth", f"{me.name} dealt damage")


def drop_active(c: Ctx, owner: str, which: Any) -> None:
    my_turn(c, owner)
    adv = c.adv(owner)
    if not adv.active:
        raise RuleError("Your active slots are empty, so there is no die to drop.")
    try:
        k = int(str(which).strip())
    except (TypeError, ValueError):
        raise RuleError(f"Name the active slot by number, 1 to {len(adv.active)}.") from None
    if not 1 <= k <= len(adv.active):
        raise RuleError(f"Active slot {k} is empty; use 1 to {len(adv.active)}.")
    e = adv.active[k - 1]
    harm.remove_active_die(c, owner, e["die"])
    c.say("active", f"{adv.name} removes {e.get('label', 'a die')} from an active slot; it is exhausted.")
