"""Enemy turns: start of turn, movement, targets by priority, one roll against each target, skills.

Where the rules let "the party decide" (ties), the engine picks and says so:
equal-level enemies act in deployment order (lower hex number first); ties in
priority go to the adventurer earlier in turn order; equal destination hexes go
to the one closest to the priority unit, then the first by (q, r).
"""
from __future__ import annotations

from engine.core import strong

from rulesets.tes.battle import companion, harm, hexdice, promotion
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle.effects import Use, run_effects
from rulesets.tes.battle.enemy_skills import extra_dice, legacy
from rulesets.tes.battle.model import Ctx, on_map, pos, stats_of, turn_key
from rulesets.tes.battle_state import EngageRecord, EnemyTurn, Hit, RolledDie, Turn, Unit
from engine.hexes import Hex, distance, reachable, shortest_path, toward
from rulesets.tes.battle.abilities import innate
from rulesets.tes.state import counted_words

DEFAULT_MOVE = 2
#: Enemy skills whose "after it engages" effects reach only the units it dealt damage to.
DAMAGED_ONLY = ("venomous", "hamstring")


def order_index(c: Ctx, u: Unit) -> int:
    order = c.b.order
    if u.owner in order:
        return order.index(u.owner)
    return 100 + int(u.slot or 0)


def by_priority(c: Ctx, units: list[Unit], priority: str) -> list[Unit]:
    sign = -1 if priority == "strongest" else 1
    return sorted(units, key=lambda t: (sign * c.hp(t), order_index(c, t)))


def turn_order(c: Ctx) -> list[str]:
    enemies = c.units("enemy")
    return [u.id for u in sorted(enemies, key=turn_key)]


def targetable_from(c: Ctx, u: Unit, here: Hex) -> list[Unit]:
    enemy = stats_of(c, u)
    start = c.b.turn.start
    out = []
    if c.has(u, "blind"):
        adj = [t for t in c.units() if t.id != u.id and distance(pos(t), here) == 1]
        return by_priority(c, adj, "strongest")[:1]
    for t in c.units():
        if not c.opposing(u, t):
            continue
        th = pos(t)
        if not c.sight(here, th):
            continue
        rng = c.range_to(here, th)
        if rng is None or rng > enemy.range:
            continue
        if c.has(t, "stealth"):
            sa, sb = start.get(u.id), start.get(t.id)
            if not sa or not sb or distance(Hex(*sa), Hex(*sb)) != 1:
                continue
        out.append(t)
    return out


def walk(c: Ctx, u: Unit, path: list[Hex], kind: str) -> bool:
    """Move a unit the bot plays along ``path`` (drawn on the map); True if it moved."""
    if not path:
        return False
    start = pos(u)
    u.q, u.r = path[-1].q, path[-1].r
    c.b.turn.path = [[start.q, start.r]] + [[h.q, h.r] for h in path]
    c.enemy_act("moves", {"unit": u.id, "path": list(c.b.turn.path), "side": u.side})
    c.say(kind, f"{u.name} moves {start} → " + " → ".join(str(h) for h in path) + ".",
          unit=u.id, path=c.b.turn.path)
    hexdice.moved(c, u, path)  # dice in the hexes it moved into go off
    return True


def plan_move(c: Ctx, u: Unit) -> list[Hex]:
    enemy = stats_of(c, u)
    here = pos(u)
    if targetable_from(c, u, here):
        return []
    steps = enemy.movement or DEFAULT_MOVE
    blocked = c.occupied(u.id)
    passable = c.map.passable
    reach = reachable(here, 10_000, passable, blocked)
    dests = [h for h, cost in reach.items() if h != here and targetable_from(c, u, h)]
    path: list[Hex] | None = None
    if dests:
        best = min(reach[h] for h in dests)
        closest = sorted(h for h in dests if reach[h] == best)
        if len(closest) == 1:
            path = shortest_path(here, closest[0], passable, blocked)
        else:
            prio = priority_unit(c, u)
            if prio is not None:
                closest.sort(key=lambda h: (c.range_to(h, pos(prio)) or 10_000, h.q, h.r))
            path = shortest_path(here, closest[0], passable, blocked)
    if path is None:
        prio = priority_unit(c, u)
        if prio is None:
            return []
        path = toward(here, pos(prio), steps, passable, blocked)
    out = []
    for h in path[:steps]:
        out.append(h)
        if targetable_from(c, u, h):
            break
    return out


def priority_unit(c: Ctx, u: Unit) -> Unit | None:
    """The closest opposing unit (by route); ties by the enemy's priority, then turn order."""
    enemy = stats_of(c, u)
    here = pos(u)
    opp = [t for t in c.units() if c.opposing(u, t)]
    if not opp:
        return None
    blocked = c.occupied(u.id)
    reach = reachable(here, 10_000, c.map.passable, blocked - {pos(t) for t in opp})
    dist = {t.id: reach.get(pos(t), 10_000 + distance(here, pos(t))) for t in opp}
    best = min(dist.values())
    tied = [t for t in opp if dist[t.id] == best]
    return by_priority(c, tied, enemy.priority)[0]


def enemy_skills_at(c: Ctx, u: Unit, timing: str, *, attacker: Unit | None = None, engage: EngageRecord | None = None,
                    engaged: list[str] | None = None, damaged: list[str] | None = None) -> None:
    enemy = stats_of(c, u)
    for s in enemy.skills:
        if s.timing != timing or not on_map(u):
            continue
        if c.has(u, "fear"):
            c.say("status", f"{u.name} is afraid: {s.label} does nothing.", unit=u.id)
            continue
        use = Use(c, u, s.label, value=s.value or 0)
        if s.id == "riposte":
            if attacker is None or not on_map(attacker) or distance(pos(attacker), pos(u)) != 1:
                continue
            if engage is None or not engage.damaged_by.get(u.id):
                continue
            use.target = attacker.id
        elif legacy(s):  # an old pack's text-only skill, applied by its id as the bot always did
            if s.id == "mend-allies":
                for o in c.units("enemy"):
                    if o.id != u.id and distance(pos(o), pos(u)) <= 2:
                        h = harm.heal(c, o, use.value)
                        if h:
                            c.say("heal", f"{s.label}: {o.name} heals {h} HP.", unit=o.id)
            continue  # Dodge, Pack Hunter and Reassemble are read by damage, the roll and defeat
        if timing == "after it engages":
            use.engaged = list(damaged or []) if s.id in DAMAGED_ONLY else list(engaged or [])
            if not use.engaged and s.id in DAMAGED_ONLY:
                continue
        run_effects(use, s.effects, manual=s.manual, text=s.text)


def roll_combat(c: Ctx, u: Unit, first_target: Unit | None) -> tuple[int, list[RolledDie]]:
    enemy = stats_of(c, u)
    n = enemy.combat
    if first_target is not None:
        n += extra_dice(c, u, first_target)  # e.g. Pack Hunter
    if n > c.pack.supply.enemy_combat_dice:
        n = c.pack.supply.enemy_combat_dice
        only = c.count(n, "enemy Combat die", "enemy Combat dice") + (" is" if n == 1 and counted_words(c.state) else " are")
        c.say("note", f"Only {only} in the supply, so {u.name} rolls {n}.", unit=u.id)
    rolled = []
    total = 0
    for _ in range(n):
        r = c.dice.roll(6)
        face = c.pack.enemy_combat_die[r - 1]
        dmg = sum(int(x.value or 0) for x in face.results if x.icon == "damage")
        total += dmg
        rolled.append({"label": "Enemy Combat", "roll": r, "face": str(face),
                       "results": [[x.icon, x.value] for x in face.results]})
    if c.has(u, "maim"):
        total //= 2
    return total, rolled


def start_turn(c: Ctx, u: Unit) -> None:
    c.b.turn = Turn(unit=u.id, start={x.id: [x.q, x.r] for x in c.units()})
    if c.has(u, "bane"):
        harm.damage_enemy(c, u.id, 1, true=True, label="Bane")
    hexdice.start_of_turn(c, u)
    if on_map(u):
        enemy_skills_at(c, u, "start of its turn")


def challenged(c: Ctx, u: Unit, targets: list[Unit]) -> list[Unit]:
    """A challenge (the Knight's) puts its adventurer first among the targets, if the enemy can target them."""
    who = (c.b.more.get("challenges") or {}).get(u.id)
    first = next((t for t in targets if t.id == who), None)
    if first is None:
        return targets
    if targets[0].id != who:
        c.say("challenge", f"{u.name} is challenged by {first.name} and must target them.", unit=u.id)
    return [first] + [t for t in targets if t.id != who]


def take_turn(c: Ctx, u: Unit) -> EnemyTurn | None:
    """Move and roll; returns the pending hits (resolved one by one so a player may be asked)."""
    start_turn(c, u)
    if not on_map(u):
        return None
    enemy = stats_of(c, u)
    moved = walk(c, u, plan_move(c, u), "enemy-move")
    if not on_map(u):  # defeated on its way (a die in a hex)
        return EnemyTurn(uid=u.id)
    if moved and c.has(u, "daze"):
        c.say("status", f"{u.name} is dazed and moved, so it cannot roll this turn.", unit=u.id)
        return EnemyTurn(uid=u.id)
    targets = targetable_from(c, u, pos(u))
    if not targets:
        c.say("enemy", f"{u.name} has nobody to engage.", unit=u.id)
        return EnemyTurn(uid=u.id)
    targets = challenged(c, u, by_priority(c, targets, enemy.priority))
    if enemy.targets is not None:
        targets = targets[:enemy.targets]
    total, rolled = roll_combat(c, u, targets[0])
    dice_txt = ", ".join(f"🎲{r['roll']} → {strong(r['face'])}" for r in rolled) or "no dice"
    names = " and ".join(t.name for t in targets)
    tie = ""
    if len(targets) > 1 and len({c.hp(t) for t in targets}) < len(targets):
        tie = " (tied targets: the one earlier in turn order first)"
    c.say("enemy-roll", f"👹 {u.name} engages {names}{tie}: {dice_txt} = {total} damage each.",
          unit=u.id, dice=rolled, targets=[t.id for t in targets], total=total)
    c.b.turn.engage_line = [[u.q, u.r]] + [[targets[0].q, targets[0].r]]
    c.enemy_act("engages", *({"unit": u.id, "from": [u.q, u.r], "to": [t.q, t.r]} for t in targets))
    return EnemyTurn(uid=u.id, hits=[Hit(target=t.id, amount=total) for t in targets],
                     engaged=[t.id for t in targets], rolled=rolled)


def hit(c: Ctx, cur: EnemyTurn, h: Hit, choice: list[str] | None = None,
        guards: dict[str, str] | None = None) -> None:
    """Resolve the roll against one target: "when an enemy engages you" abilities, then the damage."""
    u = c.unit(cur.uid)
    t = c.unit(h.target)
    h.done = True
    engaged_anyway = c.state.rules >= 2  # an engage that rolls no damage still engages (rules revision 2)
    if not on_map(t) or (h.amount <= 0 and not engaged_anyway):
        return
    if t.owner:
        innate(c, t.owner, "when an enemy engages you", target=u.id)
        if h.amount > 0:
            harm.damage_adventurer(c, t.owner, h.amount, source=u, choice=choice, label=u.name, guards=guards)
        promotion.on_engaged(c, t.owner, u)
    elif h.amount > 0:
        harm.damage_enemy(c, t.id, h.amount, label=u.name)
    if h.amount > 0:
        cur.damaged.append(t.id)


def finish_turn(c: Ctx, cur: EnemyTurn) -> None:
    u = c.unit(cur.uid)
    for tid in cur.engaged:  # companions it engaged react (e.g. Riposte)
        t = c.unit(tid)
        if t.side == "companion" and on_map(t) and on_map(u):
            enemy_skills_at(c, t, "after it is engaged", attacker=u,
                            engage=EngageRecord(damaged_by={tid: tid in cur.damaged}))
    if on_map(u) and cur.engaged:
        enemy_skills_at(c, u, "after it engages", engaged=cur.engaged, damaged=cur.damaged)
        if cur.damaged and "stealth" in u.statuses:
            status_rules.remove(c, u, "stealth", f"{u.name} dealt damage")
    if on_map(u):
        enemy_skills_at(c, u, "end of its turn")
        if "daze" in u.statuses:
            status_rules.remove(c, u, "daze", "End of turn")


# -------------------------------------------------------------- companions --
def run_companion_turns(c: Ctx) -> None:
    """Every companion's turn, after the adventurers' (rulesets.tes.battle.companion: the plan they follow)."""
    for u in companion.companions(c):
        if c.b.outcome:
            return
        if not on_map(u):
            where = companion.deploy(c, u)
            if where is None:
                continue
            c.say("companion", f"{u.name} enters the map at hex {where}.", unit=u.id)
        companion_turn(c, u)
    c.b.turn = Turn()


def companion_turn(c: Ctx, u: Unit) -> None:
    c.say("turn", f"▶️ {u.name}'s turn (companion of {companion.controller_name(c, u.get('controller'))}).",
          unit=u.id)
    start_turn(c, u)
    if not on_map(u):
        return
    comp = stats_of(c, u)  # a companion's stat block, or an enemy chip's when it fights for the party
    moved = walk(c, u, plan_move(c, u), "companion-move")
    if not on_map(u):  # defeated on its way (a die in a hex)
        return
    cur = EnemyTurn(uid=u.id)
    targets = targetable_from(c, u, pos(u))
    if moved and c.has(u, "daze"):
        c.say("status", f"{u.name} is dazed and moved, so it cannot roll this turn.", unit=u.id)
        targets = []
    if targets:
        targets = by_priority(c, targets, "weakest")
        if comp.targets is not None:
            targets = targets[:comp.targets]
        total, rolled = roll_combat(c, u, targets[0])
        idle = sum(1 for r in rolled if not any(ic == "damage" and v for ic, v in r["results"]))
        dice_txt = ", ".join(f"🎲{r['roll']} → {strong(r['face'])}" for r in rolled) or "no dice"
        c.say("enemy-roll", f"🐾 {u.name} engages " + " and ".join(t.name for t in targets)
              + f": {dice_txt} = {total} damage each.", unit=u.id, dice=rolled,
              targets=[t.id for t in targets], total=total)
        c.b.turn.engage_line = [[u.q, u.r], [targets[0].q, targets[0].r]]
        engage = EngageRecord(attacker=u.id, idle_dice=idle)
        for t in targets:
            cur.engaged.append(t.id)
            if not on_map(t) or total <= 0:
                continue
            if t.owner:  # a blind companion may strike a party member
                harm.damage_adventurer(c, t.owner, total, source=u, label=u.name)
            else:
                harm.damage_enemy(c, t.id, total, engage=engage, label=u.name)
            cur.damaged.append(t.id)
        for t in targets:
            if t.side == "enemy" and on_map(t):
                enemy_skills_at(c, t, "after it is engaged", attacker=u, engage=engage)
    elif not moved or not c.has(u, "daze"):
        c.say("companion", f"{u.name} has nobody to engage.", unit=u.id)
    finish_turn(c, cur)
