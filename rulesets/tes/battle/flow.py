"""Setup, turn order, rounds, the flow between turns, end of battle and cleanup.

``proceed`` drives the battle forward after every action until someone must
act: the current adventurer, or a player asked how to prevent damage.
"""
from __future__ import annotations

from typing import Any

from rulesets.tes.battle import enemy as enemy_ai
from rulesets.tes.battle import companion, harm, objectives, pool, promotion, track
from rulesets.tes.battle import status as status_rules
from rulesets.tes.battle import abilities, delve, dungeon, hexdice, moves
# The effect primitives register themselves on the effect registry as they are imported.
from rulesets.tes.battle import cards, enemy_skills, items, lockpick_cards, primitives  # noqa: F401
from rulesets.tes.battle.effects import Use, run_effects
from rulesets.tes import args as args_
from rulesets.tes.battle.model import (Ctx, adv_uid, on_map, pos, prevent_timeout_minutes, prevention_mode,
                                       short_label)
from rulesets.tes.battle_state import Battle, BattleSummary, EngageRecord, EnemyPhase, PreventionAsk, Turn, Unit
from engine.core import Confirm, Event, RuleError, strong
from engine.hexes import Hex
from rulesets.tes.content import BATTLE_FORMS
from engine.text import count
from rulesets.tes.state import encounter_rules

FATIGUE_AFTER = 5
DELVE_BATTLES = True  # delve and dungeon battles are played (an overland card's delve choice starts one)

#: Hooks at the end of a round, before its triggers and the check for the battle's end (the campaign's guild
#: assist fills it): each returns False when the battle must wait for a player's answer first (``step``
#: "round-wait"); the answer sets ``step`` back to "round-end" and drives the battle on.
ROUND_END: list = []


# ----------------------------------------------------------------- setup --
def setup(c: Ctx, encounter_id: str, order: list[str], hexes: dict[str, Any] | None, ep: int | None,
          session_table: int | None, province: str | None = None) -> None:
    """Set a battle up.  ``province``: the code of the session's province (a battle started by the day);
    the enemy bags then hold only chips without a province code or with this one (p.15)."""
    pack, state = c.pack, c.state
    enc = pack.encounters.get(encounter_id)
    if enc is None:
        names = ", ".join(f"{e.name} (`{k}`)" for k, e in pack.encounters.items())
        raise RuleError(f"There is no encounter `{encounter_id}`. Choose one of: {names}.")
    if enc.mode == "dungeon" and enc.dungeon not in pack.dungeons:
        raise RuleError(f"{enc.name} is set in a dungeon this pack does not have (`{enc.dungeon}`).")
    n_adv = len(order)
    count = state.battle_count + 1
    state.battle_count = count
    xp = enc.xp_dial if enc.xp_dial is not None else state.xp_dial
    if enc.xp_dial is not None:
        state.xp_dial = enc.xp_dial
    state.battle = Battle(
        no=count, encounter=enc.id, name=enc.name, mode=enc.mode,
        objective=enc.objective, objective_units=list(enc.objective_params.get("units", []) or []),
        objective_rounds=enc.objective_params.get("rounds"), order=list(order),
        dungeon=enc.dungeon if enc.mode == "dungeon" else None,
    )  # its map is the encounter's layout until a tile is placed (model.place_tile)
    c.say("battle", f"⚔️ Battle {count}: {strong(enc.name)}. {enc.description}")
    if enc.mode == "delve":
        final = ep is None and bool(session_table)
        if final:  # a quest's final battle as a delve: each tile's enemy pool is the End of Session EP (pp.56, 74)
            ep = pool.session_pool(session_table, state.difficulty, n_adv)
        delve.setup(c, enc, ep, province=province)
        if final:
            c.say("setup", f"A session's final battle: each tile explored draws its enemies from the End of "
                           f"Session enemy pool, {ep} (session {session_table}, {state.difficulty.capitalize()}, "
                           f"{c.count(n_adv, 'adventurer')}), not from the XP Dial.")
    elif enc.mode == "dungeon":
        dungeon.setup(c, enc, ep, session_table)
    else:
        _clash_enemies(c, enc, ep, session_table, xp, province)
    rules_text = battle_rules(pack, enc, n_adv)
    if rules_text:  # posted with the start, not kept in the battle's log (/battle status shows it)
        c.events.append(Event("setup", rules_text, {}))
    _deploy(c, order, hexes)
    companion.setup(c, enc)
    if enc.mode == "dungeon":
        dungeon.allies(c, enc)
    c.say("setup", "Turn order: " + " → ".join(
        f"{state.adventurers[o].name} ({c.unit(adv_uid(o))['q']},{c.unit(adv_uid(o))['r']})" for o in order)
        + ". The round counter is set to 1.")
    encounter_triggers(c, ("before battle", "start of battle"))
    for u in c.units("enemy"):
        enemy_ai.enemy_skills_at(c, u, "start of battle")
    abilities.innates(c, "start of battle")
    abilities.race_start_of_battle(c)
    c.b.step = "adventurer"
    next_adventurer(c)


def _clash_enemies(c: Ctx, enc, ep: int | None, session_table: int | None, xp: int, province: str | None) -> None:
    """Clash Setup step 3 (p.71): the enemy pool fills the numbered hexes; named units take the lettered ones."""
    pack, state = c.pack, c.state
    m = c.map
    n_adv = len(c.b.order)
    if enc.enemy_rule == "bag":
        per = enc.per_adventurer or 1
        levels = [1] * min(len(m.slots), per * n_adv)
        ep_txt = f"{c.count(per, 'level 1 enemy', 'level 1 enemies', old='level 1 enemy')} per adventurer"
        drawn = pool.draw(pack, levels, c.dice, bag_only=enc.bag)
        named: list[str] = []
    else:
        if ep is None:
            ep = pool.session_pool(session_table, state.difficulty, n_adv) if session_table else \
                pool.enemy_pool(xp, n_adv)
        named = list(enc.named_enemies)
        lettered = len(m.labels) if encounter_rules(state) else 0  # before: named enemies in hexes 1, 2, ...
        levels = pool.plan_levels(ep, len(m.slots) - max(0, len(named) - lettered))
        ep_txt = f"enemy pool {ep} → levels {', '.join(map(str, levels)) or 'none'}"
        # from rules revision 3 the named enemies' chips are out of the bag (before, a second Warden could come)
        drawn = pool.draw(pack, levels, c.dice, required=enc.required_enemies,
                          on_map=tuple(named) if state.rules >= 3 else (), province=province)
        if not encounter_rules(state):
            drawn, named = named + drawn, []
    # named and quest units take the lettered hexes (A, B, ...) and cost no enemy pool points;
    # the pool fills the numbered hexes from 1 (a map without letters gives its last numbered hexes)
    spots: list[tuple[str, Any, str]] = []
    letters = sorted(m.labels.items())
    numbered = sorted(m.slots.items())
    for eid in named:
        if letters:
            label, h = letters.pop(0)
            spots.append((eid, h, label))
        elif numbered:
            n, h = numbered.pop()
            spots.append((eid, h, str(n)))
    spots += [(eid, h, str(n)) for eid, (n, h) in zip(drawn, numbered)]
    for i, (eid, h, where) in enumerate(spots, 1):
        e = pack.enemies[eid]
        uid = f"e{i}"
        c.b.units[uid] = Unit(id=uid, side="enemy", name=e.name, short=f"{short_label(e.name)}{i}", enemy=eid,
                              level=e.level, q=h.q, r=h.r, hp=e.health, max_hp=e.health, quest=e.quest_unit,
                              slot=int(where) if where.isdigit() else None)
    c.say("setup", f"Enemies ({ep_txt}): " + ", ".join(
        f"{pack.enemies[eid].name} (level {pack.enemies[eid].level}) in hex "
        + (f"{where} ({h.q},{h.r}), free of the pool" if not where.isdigit() else f"{h.q},{h.r}")
        for eid, h, where in spots) + ".")


def _deploy(c: Ctx, order: list[str], hexes: dict[str, Any] | None) -> None:
    """Deploy Adventurers (battle setup step 4): on the entrance tile, in turn order."""
    state = c.state
    m = c.map
    free = [h for h in m.entrance]
    hexes = hexes or {}
    for owner in order:
        adv = state.adventurers[owner]
        want = hexes.get(owner)
        if want:
            try:
                h = Hex.parse(want) if isinstance(want, str) else Hex(*(int(x) for x in want))
            except (ValueError, TypeError):
                raise RuleError(f"{adv.name}'s deploy hex is not a hex: write each as q,r, e.g. -2,2.") from None
            if h not in free:
                raise RuleError(f"{adv.name} must deploy to a free hex of the entrance tile: "
                                f"{', '.join(str(x) for x in free)}.")
        else:
            if not free:
                raise RuleError("The entrance tile has no free hex left for everyone.")
            h = free[0]
        free.remove(h)
        uid = adv_uid(owner)
        c.b.units[uid] = Unit(id=uid, side="adventurer", name=adv.name, short=short_label(adv.name), owner=owner,
                              q=h.q, r=h.r)
        adv.race_ability_used = False
        if (adv.tenacity or adv.ready or adv.pack) and encounter_rules(state):  # nothing recorded: brought nothing
            c.b.brought[owner] = {"tenacity": adv.tenacity, "items": list(adv.ready) + list(adv.pack)}


# ------------------------------------------------------------ the driver --
def proceed(c: Ctx) -> None:
    """Run enemy turns and round changes until an adventurer (or a prevention choice) is awaited."""
    for _ in range(1000):
        b = c.b
        if b is None or b.step in ("over", "round-wait"):
            return
        if not settle(c):
            return
        if b.step == "adventurer":
            owner = b.turn.owner
            if owner and c.state.rules >= 3 and c.unit(adv_uid(owner)).defeated:
                # a defeated adventurer cannot take turns (p.67): one who fell on their own turn gives it up
                # (before revision 3 the player ended it with /endturn)
                c.say("turn-end", f"{c.adv(owner).name} is defeated, so the turn passes on.", unit=adv_uid(owner))
                next_adventurer(c)
                continue
            return
        if b.step == "enemies":
            if not run_enemies(c):
                return
            b.step = "round-end"
        if b.step == "round-end":
            end_round(c)
            if c.state.battle is None:
                return


def next_adventurer(c: Ctx) -> None:
    """Start the next adventurer's turn, or hand over to the enemies when all have gone."""
    b = c.b
    while True:
        b.turn_index += 1
        if b.turn_index >= len(b.order):
            b.turn = Turn()
            b.enemy_acts = {}  # what the companions and enemies do now is drawn on the next map
            b.step = "companions"
            enemy_ai.run_companion_turns(c)  # companions act right after the adventurers
            b.step = "enemies"
            b.enemy_phase = EnemyPhase(queue=enemy_ai.turn_order(c))
            proceed(c)
            return
        owner = b.order[b.turn_index]
        u = c.unit(adv_uid(owner))
        if not on_map(u):
            continue
        if start_turn(c, owner):
            return


def start_turn(c: Ctx, owner: str) -> bool:
    """Start of turn and Recovery; False if the adventurer fell to bane before acting."""
    adv = c.adv(owner)
    u = c.unit(adv_uid(owner))
    b = c.b
    b.step = "adventurer"
    b.turn = Turn(unit=u.id, owner=owner, start={x.id: [x.q, x.r] for x in c.units()})
    if not b.first_turn_done:
        b.first_turn_done = True
        harm.grant(c, "first-turn", owner)
    b.last_turn_owner = owner
    c.say("turn", f"▶️ Round {b.round}: {adv.name}'s turn ({{@player}}).", unit=u.id, player=owner)
    challenges = b.more.get("challenges")
    if challenges and u.id in challenges.values():  # a challenge lasts until its adventurer's next turn
        b.more["challenges"] = {k: v for k, v in challenges.items() if v != u.id}
    if track.count(adv, status="bane"):
        harm.damage_adventurer(c, owner, 1, true=True, label="Bane")
        if not on_map(u):
            return False
    hexdice.start_of_turn(c, u)  # a die in its hex set against it (blindness)
    if not on_map(u):
        return False
    done = track.recovery(adv, c.pack)
    if done:
        c.say("recovery", f"Recovery ({adv.cooldown_stat}): " + "; ".join(done) + ".", unit=u.id)
    abilities.start_of_turn(c, owner)
    if c.b.delve is not None:  # a delve: the tile's environment; an explorable hex to explore (p.77)
        delve.start_of_turn(c, owner)
        if not on_map(u):
            return False
    here = pos(u)
    if here in c.map.escape and c.b.objective == "escape-or-eliminate-all":
        c.say("escape", f"{adv.name} stands on an escape hex and may escape now: `/battle escape`.", unit=u.id)
    return True


def end_turn(c: Ctx, owner: str) -> None:
    adv = c.adv(owner)
    u = c.unit(adv_uid(owner))
    if c.has(u, "daze"):
        status_rules.remove(c, u, "daze", "End of turn")
    if c.b.delve is not None:
        delve.end_of_turn(c, owner)
    abilities.innate(c, owner, "end of your turn")
    c.say("turn-end", f"{adv.name} ends the turn.", unit=u.id)
    next_adventurer(c)


def run_enemies(c: Ctx) -> bool:
    """Enemy turns one by one; False when the battle waits for a player (a question or a free move)."""
    phase = c.b.enemy_phase
    for _ in range(1000):
        if not settle(c):
            return False
        cur = phase.current
        if cur is None:
            if not phase.queue:
                c.b.enemy_phase = None
                c.b.turn = Turn()
                return True
            uid = phase.queue.pop(0)
            u = c.unit(uid)
            if not on_map(u):
                continue
            cur = enemy_ai.take_turn(c, u)
            if cur is None:
                continue
            phase.current = cur
        for h in cur.hits:
            if h.done:
                continue
            if not ask_about(c, h, cur.uid):
                return False
            enemy_ai.hit(c, cur, h, choice=h.choice, guards=h.guards)
            if c.b.offers:  # an interrupt's free move (Backflip) waits for its player
                return False
        if c.state.rules >= 2 and not cur.reacted:
            cur.reacted = True
            offer_reactions(c, cur)
            if c.b.offers:
                return False
        enemy_ai.finish_turn(c, cur)
        phase.current = None
    return True


# ------------------------------------------------- questions and free moves --
def settle(c: Ctx) -> bool:
    """Deal the damage waiting in ``Battle.harms`` (asking first where a player must answer).

    False while the battle waits for a player: a prevention question or a free move offered.
    """
    b = c.b
    if b.asking or b.offers:
        return False
    while b.harms:
        h = b.harms[0]
        if not ask_about(c, h, h.source):
            return False
        b.harms.pop(0)
        t = c.unit(h.target)
        source = b.units.get(h.source or "")
        if t.owner and on_map(t):
            harm.damage_adventurer(c, t.owner, h.amount, source=source, choice=h.choice, guards=h.guards,
                                   engage=h.engage, label=h.label)
        if b.offers:
            return False
    return True


def ask_about(c: Ctx, h, enemy: str | None) -> bool:
    """Open the next question about the damage ``h`` (the target's prevention, then allies' guards, for
    players in ask mode); True when nothing is left to ask."""
    t = c.unit(h.target)
    if not t.owner or not on_map(t):
        return True
    rules2 = c.state.rules >= 2
    queued = bool(c.b.harms) and c.b.harms[0] is h
    minutes = prevent_timeout_minutes(c.state)
    deadline = c.now + minutes * 60 if minutes > 0 and c.now else None
    who = c.unit(enemy).name if enemy and enemy in c.b.units else "The damage"
    what = f" ({h.label})" if h.label and h.label != who else ""
    if h.choice is None and prevention_mode(c.state, t.owner) == "ask" and (h.amount > 0 or not rules2):
        sources = harm.prevention_sources(c, t.owner, enemy_engage=h.engage)
        if sources:
            c.b.asking = PreventionAsk(owner=t.owner, amount=h.amount, enemy=enemy or "", sources=sources,
                                       deadline=deadline, queued=queued)
            c.say("ask", f"🛡️ {{@player}}: {who}{what} deals {h.amount} damage "
                         f"to {t.name}. Choose prevention with `/battle prevent` "
                         f"({', '.join(str(i) + '. ' + s['label'] for i, s in enumerate(sources, 1))}).",
                  player=t.owner)
            return False
    if rules2 and h.amount > 0:
        for s in harm.guard_sources(c, t.owner):
            key = f"{s['owner']}:{s['ability']}"
            if key in h.guards or prevention_mode(c.state, s["owner"]) != "ask":
                continue
            c.b.asking = PreventionAsk(owner=s["owner"], amount=h.amount, enemy=enemy or "", sources=[s],
                                       deadline=deadline, target=t.owner, guard=key, queued=queued)
            c.say("ask", f"🛡️ {{@player}}: {who}{what} deals {h.amount} damage to {t.name}. "
                         f"Guard them with {s['label']}? Answer with `/battle prevent` (use:1 or use:none).",
                  player=s["owner"])
            return False
    return True


def current_hit(c: Ctx):
    """The damage the open prevention question is about."""
    aw = c.b.asking
    if aw.queued and c.b.harms:
        return c.b.harms[0]
    cur = c.b.enemy_phase.current
    return next(h for h in cur.hits if not h.done)


def answer_prevention(c: Ctx, owner: str, spec: Any) -> None:
    aw = c.b.asking
    if not aw:
        raise RuleError("Nobody is being asked about prevention right now.")
    if aw.owner != owner:
        raise RuleError(f"The bot is waiting for {c.adv(aw.owner).name} to choose prevention, not you.")
    h = current_hit(c)
    use = args_.prevention_use(spec)  # "auto" or source numbers ([] for none); raw text from older logs
    if aw.guard:
        if use != "auto" and any(not 1 <= k <= len(aw.sources) for k in use):
            raise RuleError(f"Choose source 1 ({aw.sources[0]['label']}), or none.")
        h.guards[aw.guard] = "auto" if use == "auto" else ("use" if use else "no")
    else:
        sources = harm.prevention_sources(c, owner, enemy_engage=h.engage)
        if use == "auto":
            keys = harm.auto_keys(c, owner, sources, aw.amount)
        else:
            keys = []
            for k in use:
                if not 1 <= k <= len(sources):
                    raise RuleError(f"Choose sources numbered 1 to {len(sources)}.")
                keys.append(sources[k - 1]["key"])
        h.choice = keys
    c.b.asking = None
    proceed(c)


def offer_reactions(c: Ctx, cur) -> None:
    """Units react: an engaged adventurer's "after an enemy engages you" interrupt that moves them is
    offered (its tenacity is spent only if the move is made)."""
    for owner in c.b.order:
        uid = adv_uid(owner)
        u = c.unit(uid)
        if uid not in cur.engaged or not on_map(u):
            continue
        side = abilities.sheet(c, owner)
        adv = c.adv(owner)
        for ab in side.abilities if side is not None else ():
            if ab.keyword != "interrupt" or ab.timing != "after an enemy engages you" or ab.manual:
                continue
            if adv.tenacity < ab.cost or f"{owner}:{ab.id}" in c.b.turn.interrupts:
                continue
            if ab.form and ab.form != adv.battle_form:
                continue
            steps = [e for e in ab.effects if e.get("type") == "move"]
            amount, through = sum(int(e.get("amount", 0)) for e in steps), any(e.get("through") for e in steps)
            if not steps or not offer_destinations(c, owner, amount, through):
                continue
            harm.offer_move(c, owner, amount, ab.name, through=through, ability=ab.id, cost=ab.cost,
                            effects=[e for e in ab.effects if e.get("type") != "move"])


MAX_DESTINATIONS = 24


def offer_destinations(c: Ctx, owner: str, amount: int, through: bool) -> list[Hex]:
    """The unoccupied hexes a free move of ``amount`` reaches, nearest first (then by q, r)."""
    from engine.hexes import reachable

    u = c.unit(adv_uid(owner))
    here = pos(u)
    if here is None or amount <= 0:
        return []
    blocked = frozenset() if through else frozenset(c.occupied(u.id))
    reach = reachable(here, amount, c.map.passable, blocked)
    taken = c.occupied(u.id)
    out = sorted((h for h, d in reach.items() if h != here and h not in taken), key=lambda h: (reach[h], h.q, h.r))
    return out[:MAX_DESTINATIONS]


def react(c: Ctx, owner: str, args: dict) -> None:
    """Answer a free move offered during an enemy's turn: move (``to``/``path``, or ``pick``: a hex of the
    offer's menu) or ``stay``."""
    b = c.b
    o = b.offers[0] if b.offers else None
    if o is None:
        raise RuleError("No free move is waiting for you. On your own turn, move with `/move to:q,r`.")
    if o.owner != owner:
        raise RuleError(f"The battle waits for {c.adv(o.owner).name} to move or stay, not you.")
    adv = c.adv(owner)
    u = c.unit(adv_uid(owner))
    if args.get("stay"):
        b.offers.pop(0)
        c.say("stay", f"{adv.name} stays in place" + (f" and keeps the tenacity {o.source} would cost."
                                                       if o.ability and o.cost else "."), unit=u.id)
        proceed(c)
        return
    if args.get("pick"):
        picks = args_.numbers(args["pick"], "Pick one hex from the menu.")
        options = offer_destinations(c, owner, o.amount, o.through)
        if len(picks) != 1 or not 1 <= picks[0] <= len(options):
            raise RuleError(f"Pick one hex from the menu (1 to {len(options)}).")
        args = {"to": [options[picks[0] - 1].q, options[picks[0] - 1].r]}
    path = moves.route(c, u, args, o.amount, through=o.through)
    if o.ability:
        if adv.tenacity < o.cost:
            raise RuleError(f"{o.source} costs {o.cost} tenacity and {adv.name} has {adv.tenacity}.")
        adv.tenacity -= o.cost
        b.turn.interrupts.append(f"{owner}:{o.ability}")
        c.say("interrupt", f"⚡ Interrupt: {adv.name} spends {o.cost} tenacity on {o.source}.", unit=u.id,
              ability=o.ability, player=owner)
    start = pos(u)
    path, stopped = moves.cut(c, u, path)  # (a delve's trap stops only a move on the adventurer's own turn)
    u.q, u.r = path[-1].q, path[-1].r
    line = [[start.q, start.r]] + [[h.q, h.r] for h in path]
    b.enemy_acts.setdefault("moves", []).append({"unit": u.id, "path": line, "side": u.side})
    c.say("move", f"🚶 {u.name} makes a free move ({o.source}): {start} → " + " → ".join(str(h) for h in path)
          + ".", unit=u.id, path=line)
    moves.stepped(c, u, path)
    if on_map(u):
        moves.entered(c, u, start, path, stopped, 0)  # a delve: skyshards on the tiles it moved onto
    b.offers.pop(0)
    if o.effects:
        run_effects(Use(c, u, o.source, form=adv.battle_form), o.effects)
    proceed(c)


# ---------------------------------------------------------------- rounds --
def challenge_on(enc, n_adv: int) -> bool:
    """The 3/4-adventurer challenge modifier is in play with 3 or more adventurers."""
    return enc.challenge is not None and n_adv >= 3


def battle_rules(pack, enc, n_adv: int) -> str:
    """The encounter's special rules and its challenge modifier, in the words players read."""
    parts = []
    dungeon_ = pack.dungeons.get(enc.dungeon or "") if enc.mode == "dungeon" else None
    if dungeon_ is not None and dungeon_.special_rules:
        parts.append(f"🏰 {dungeon_.name}: " + " ".join(dungeon_.special_rules.split()))
    if enc.special_rules:
        parts.append("📜 Special rules: " + " ".join(enc.special_rules.split()))
    if enc.challenge is not None:
        state_ = "in play" if challenge_on(enc, n_adv) else f"not in play with {count(n_adv, 'adventurer')}"
        how = "" if not challenge_on(enc, n_adv) else (
            " The party applies it." if enc.challenge.manual or not enc.challenge.effects else " The bot applies it.")
        parts.append(f"⚖️ 3/4-adventurer challenge ({state_}): {enc.challenge.text}{how}")
    return "\n".join(parts)


def encounter_triggers(c: Ctx, timings: tuple[str, ...]) -> None:
    """Run the encounter's triggers (for each adventurer on the map) and, with 3 or 4
    adventurers, its challenge modifier (for each enemy on the map) at these timings."""
    enc = c.pack.encounters[c.b.encounter]
    for t in enc.triggers:
        if t.timing not in timings:
            continue
        users = [c.unit(adv_uid(o)) for o in c.b.order if on_map(c.unit(adv_uid(o)))]
        if t.manual or not t.effects:
            run_effects(Use(c, users[0] if users else {}, enc.name), (), manual=True, text=t.text)
            continue
        for u in users:
            run_effects(Use(c, u, enc.name), t.effects, manual=t.manual, text=t.text)
    ch = enc.challenge
    if ch is not None and ch.timing in timings and challenge_on(enc, len(c.b.order)):
        label = f"{enc.name} (3/4-adventurer challenge)"
        if ch.manual or not ch.effects:
            if ch.timing not in ("before battle", "start of battle"):  # shown with the setup already
                run_effects(Use(c, {}, label), (), manual=True, text=ch.text)
            return
        for u in [x for x in c.units("enemy") if on_map(x)]:
            run_effects(Use(c, u, label), ch.effects)


def end_round(c: Ctx) -> None:
    b = c.b
    for hook in ROUND_END:
        if not hook(c):
            b.step = "round-wait"
            return
    encounter_triggers(c, ("end of round",))
    outcome = objectives.end_check(c)
    if outcome:
        finish(c, outcome)
        return
    b.round += 1
    b.turn_index = -1
    if b.round > FATIGUE_AFTER:
        b.fatigue_round = True
    c.say("round", f"🔔 Round {b.round} begins" + (" — a fatigue round." if b.fatigue_round else "."))
    if b.fatigue_round:
        fatigue_damage(c)
        if objectives.party_defeated(c):
            # nobody can act; enemies still take their turns, then the round ends
            pass
    encounter_triggers(c, ("start of round",))
    if b.delve is not None:
        delve.start_of_round(c)
    b.step = "adventurer"
    next_adventurer(c)


def fatigue_damage(c: Ctx) -> None:
    for owner in c.b.order:
        u = c.unit(adv_uid(owner))
        if not on_map(u):
            continue
        adv = c.adv(owner)
        track.gain_fatigue(adv, "over", 1, c.track_size, party=c.state.adventurers.values(), supply=c.pack.supply)
        n = track.count(adv, fatigue="over")
        c.say("fatigue", f"{adv.name} gains 1 overfatigue.", unit=u.id)
        harm.damage_adventurer(c, owner, n, true=True, label="Fatigue")


# ----------------------------------------------------------- escape etc --
def escape(c: Ctx, owner: str) -> None:
    b = c.b
    turn = b.turn
    adv = c.adv(owner)
    u = c.unit(adv_uid(owner))
    if b.objective != "escape-or-eliminate-all":
        raise RuleError("This battle has no escape hexes to leave by.")
    if turn.owner != owner or b.step != "adventurer":
        raise RuleError("You can escape only at the start of your own turn.")
    if turn.acted or b.pending:
        raise RuleError("You can escape only at the start of your turn, before any other action.")
    start = turn.start.get(u.id)
    if not start or Hex(*start) not in c.map.escape:
        raise RuleError("You must start your turn on a green escape hex to escape. "
                        f"Escape hexes: {', '.join(str(h) for h in sorted(c.map.escape))}.")
    u.escaped = True
    u.q = u.r = None
    b.escaped.append(owner)
    if len(b.escaped) == 1:
        harm.grant(c, "escape-first", owner)
    c.say("escape", f"🏃 {adv.name} escapes the battle and takes no more turns.", unit=u.id)
    next_adventurer(c)


# ---------------------------------------------------------- end of battle --
def finish(c: Ctx, outcome: str) -> None:
    b = c.b
    b.outcome = outcome
    text = {"victory": "🏆 Victory! The party achieves the objective.",
            "defeat": "💀 The whole party is defeated. The encounter is failed.",
            "retreat": "🏳️ The party retreats. The encounter is failed."}[outcome]
    if b.objective == "uncover" and outcome == "victory":
        text = "🏆 Victory! The party retreats with every skyshard: the delve is uncovered."
    c.say("battle-end", f"{text} The battle ends after round {b.round}.", outcome=outcome, final=final_field(c))
    promotion.on_battle_end(c)
    extra = delve.summary(b, outcome)
    if extra:
        xp = extra.get("skyshard_xp")
        c.say("skyshards", f"💎 Skyshards gained: {extra['skyshards']}/{b.delve.required}."
              + ("" if xp is None else f" They are worth {xp} XP in the Reward Phase"
                 + (" (none: the whole party was defeated)." if outcome == "defeat" else ".")),
              **extra)
    if b.last_turn_owner:
        harm.grant(c, "last-turn", b.last_turn_owner)
    cleanup(c)
    enc = c.pack.encounters[b.encounter]
    summary = BattleSummary(no=b.no, encounter=b.encounter, name=b.name, outcome=outcome, rounds=b.round,
                            achievements=dict(b.achievements), log=b.log[-12:], mode=b.mode,
                            skyshards=extra.get("skyshards"), skyshard_xp=extra.get("skyshard_xp"))
    if enc.class_rewards:
        rewards, _earned = objectives.class_rewards(c, outcome, c.dice)
        c.state.class_rewards = rewards
        summary.class_rewards = {k: list(v) for k, v in rewards.items()}
        if encounter_rules(c.state):  # before the encounter rules a battle recorded nothing the party brought
            gains = objectives.gained(c).items()
            summary.gained = {k: v for k, v in gains if k in rewards and (v["tenacity"] or v["items"])} or None
        lines = []
        for owner, ids in rewards.items():
            names = ", ".join(c.pack.classes[k].name for k in ids)
            lines.append(f"{c.adv(owner).name}: {names}")
        if lines:
            c.say("rewards", "🎓 Class choices (pick one with `/battle class`): " + "; ".join(lines) + ". "
                             "Once everyone else has chosen, you may instead pick any class still free, "
                             "giving up the tenacity and items gained in this battle.")
        # the new guild's refuge acts like an inn; the XP dial goes to 2
        for adv in c.state.adventurers.values():
            adv.hp = adv.max_hp
            adv.cooldown = []
        c.state.xp_dial = 2
        c.say("rest", "The party rests at the guild: everyone heals fully and clears their cooldown track. "
                      "The XP dial is set to 2.")
    c.state.last_battle = summary
    c.state.battle = None


def final_field(c: Ctx) -> dict:
    """The field as the battle ends, for the picture of its end (the event's data; the state keeps none of
    it): the battle record, and each adventurer's HP, bonus HP and statuses before cleanup and rest."""
    vitals = {}
    for owner in c.b.order:
        adv, u = c.adv(owner), c.b.units.get(adv_uid(owner))
        vitals[owner] = {"hp": adv.hp, "max_hp": adv.max_hp, "bonus_hp": adv.bonus_hp,
                         "statuses": status_rules.names_of(c.state, u) if u is not None else []}
    return {"battle": c.b.to_dict(), "vitals": vitals}


def cleanup(c: Ctx) -> None:
    """End of Battle Cleanup: bonus and excess HP go, active dice are exhausted, drained dice come back."""
    for u in c.b.units.values():
        if u.status_dice:
            status_rules.clear(c, u)  # status-code dice on chips go to their owners' tracks
    status_rules.clear_hex_dice(c)  # and those in hexes
    for owner in c.b.order:
        adv = c.adv(owner)
        adv.bonus_hp = 0
        adv.hp = min(adv.hp, adv.max_hp)
        for e in list(adv.active):
            harm.remove_active_die(c, owner, e["die"])
        adv.drained = []
        adv.away = [d for d in adv.away if any(d == e["die"] for a in c.state.adventurers.values() for e in a.active)]
        adv.race_ability_used = False
    c.say("cleanup", "Cleanup: bonus HP removed, active dice exhausted, drained dice recovered; "
                     "the cooldown tracks keep their dice.")
    if c.b.delve is not None:
        c.say("cleanup", "The delve is taken apart: enemy chips back in their bags, cache chips to the supply, "
                         "the tiles back in their stacks and the delve cards gathered and shuffled.")


# ------------------------------------------------------------ abilities --
WHAT_RECOVERED = {"skill": "skill dice", "fatigue": "fatigue dice", "light-fatigue": "light fatigue dice",
                  "overfatigue": "overfatigue dice", "status": "status dice", "any": "dice", "drained": "drained dice"}


def idle_ability(c: Ctx, owner: str, ab) -> str | None:
    """Why using ``ab`` now would change nothing but its cost, in words, or None.  Only abilities made of parts
    that act on yourself alone are judged: taking dice back from your cooldown track (or drained ones), healing,
    gaining tenacity, and the fatigue given for what is taken back; anything else may be worth it.  Such an
    ability is idle when no part would do anything: nothing to take back, full HP, the most tenacity."""
    if ab.manual or not ab.effects:
        return None
    adv = c.adv(owner)
    cap = c.pack.mat.tenacity_max
    why: list[str] = []
    for e in ab.effects:
        kind = e.get("type")
        if e.get("target", "self") != "self":
            return None
        if kind == "recover":
            if track.recoverable(adv, e["what"]):
                return None
            where = "" if e["what"] == "drained" else " on the cooldown track"
            why.append(f"no {WHAT_RECOVERED.get(e['what'], 'dice')}{where}")
        elif kind == "heal":
            if adv.hp < adv.max_hp:
                return None
            why.append(f"full HP ({adv.hp}/{adv.max_hp})")
        elif kind == "tenacity":
            if adv.tenacity < cap:
                return None
            why.append(f"the most tenacity ({adv.tenacity}/{cap})")
        elif kind != "fatigue":  # fatigue is a cost, or "previous": as much as was taken back, nothing here
            return None
    if not why:
        return None
    return f"{ab.name} would change nothing now: {adv.name} has {' and '.join(dict.fromkeys(why))}."


def race_ability(c: Ctx, owner: str, confirm: bool = False) -> None:
    adv = c.adv(owner)
    race = c.pack.races[adv.race]
    ab = race.ability
    if adv.race_ability_used:
        raise RuleError(f"{ab.name} works once per battle and {adv.name} already used it.")
    abilities.check_race_timing(c, owner, ab)
    turn = c.b.turn
    if ab.timing in ("your turn", "start of your turn") and turn.owner != owner:
        raise RuleError(f"{ab.name} is used on your own turn.")
    if ab.timing == "start of your turn" and turn.acted:
        raise RuleError(f"{ab.name} is used at the start of your turn, before any other action.")
    idle = idle_ability(c, owner, ab)
    if idle and c.state.rules >= 3 and not confirm:
        raise Confirm(f"{idle} It works once per battle: use it anyway? Press the button or add `confirm:yes`.",
                      label=f"Use {ab.name} anyway", args={"name": "race"})
    adv.race_ability_used = True
    u = c.unit(adv_uid(owner))
    use = Use(c, u, f"{adv.name}'s {ab.name}")
    c.say("ability", f"✨ {adv.name} uses {ab.name}.", unit=u.id)
    run_effects(use, ab.effects, manual=ab.manual, text=ab.text)


def class_ability_named(c: Ctx, owner: str, name: str):
    """The adventurer's class ability called ``name`` (its id or name), or None."""
    side = abilities.sheet(c, owner)
    key = str(name or "").strip().lower()
    return next((a for a in side.abilities if a.id == key or a.name.lower() == key), None) if side else None


def class_ability(c: Ctx, owner: str, name: str, form: str | None = None, target: Any = None,
                  to: Any = None, confirm: bool = False) -> None:
    adv = c.adv(owner)
    ab = class_ability_named(c, owner, name)
    if ab is None:
        if not adv.class_id:
            raise RuleError(f"{adv.name} has no class yet, so there are no class abilities to use.")
        side = abilities.sheet(c, owner)
        raise RuleError(f"{c.pack.classes[adv.class_id].name} has no ability `{name}`. Its abilities: "
                        + ", ".join(f"{a.name} ({a.cost})" for a in side.abilities) + ".")
    turn = c.b.turn
    if ab.keyword == "enduring":
        raise RuleError(f"{ab.name} is enduring: it works by itself while your tenacity is {ab.cost} or more.")
    if c.state.rules >= 2 and ab.keyword == "interrupt":
        raise RuleError(f"{ab.name} is an interrupt: it works {ab.timing}, and the bot offers it to you then "
                        "(automatically, or asked in `/battle prevention mode:ask`).")
    if c.state.rules >= 2 and ab.timing == "when you defeat an enemy" and \
            owner not in (turn.more.get("defeated_by") or []):
        raise RuleError(f"{ab.name} is used when you defeat an enemy: use it on the turn you do.")
    if ab.timing in ("your turn", "start of your turn", "end of your turn", "when you defeat an enemy") \
            and turn.owner != owner and (c.state.rules >= 2 or ab.timing != "when you defeat an enemy"):
        raise RuleError(f"{ab.name} is used on your own turn.")
    if ab.id in turn.used and turn.owner == owner:
        raise RuleError(f"{ab.name} can be used once per turn.")
    if adv.tenacity < ab.cost:
        raise RuleError(f"{ab.name} costs {ab.cost} tenacity and {adv.name} has {adv.tenacity}.")
    idle = idle_ability(c, owner, ab)
    if idle and c.state.rules >= 3 and not confirm:
        raise Confirm(f"{idle} It would still cost {ab.cost} tenacity: use it anyway? Press the button or add "
                      "`confirm:yes`.", label=f"Use {ab.name} anyway", args={"name": ab.id, "form": form})
    if c.state.rules < 1:
        _first_class_ability(c, owner, ab, form)
        return
    aimed, ally = abilities.aim(c, owner, ab, target, ab.form or adv.battle_form)
    new_form = None
    if any(e.get("type") == "form" for e in ab.effects) and not ab.manual:  # a change of form is the ability
        new_form = str(form or "").strip().lower()
        if new_form not in BATTLE_FORMS:
            raise RuleError(f"{ab.name} changes your battle form: name the new one with `form:` "
                            f"({', '.join(f for f in BATTLE_FORMS if f != adv.battle_form)}).")
        if new_form == adv.battle_form:
            raise RuleError(f"{adv.name} is already in {new_form} form; name another form with `form:`.")
        form = None
    moves = [i for i, e in enumerate(ab.effects) if e.get("type") == "move"]
    if to is not None and not moves:
        raise RuleError(f"{ab.name} moves nobody; leave `to:` out.")
    if moves and to is None and moves[0] < len(ab.effects) - 1 and not ab.manual:
        raise RuleError(f"{ab.name} moves you, then does more: name where you land with `to:q,r` "
                        "(your own hex to stay).")
    if not ab.timing.startswith(("your turn", "start of your turn")) and to is not None:
        raise RuleError(f"{ab.name} is not used on your turn, so `to:` does not apply.")
    if ab.form and ab.form != adv.battle_form:
        if form != ab.form:
            raise RuleError(f"{ab.name} needs {ab.form} form: add `form:{ab.form}` to switch (1 light fatigue).")
        track.gain_fatigue(adv, "light", 1, c.track_size, party=c.state.adventurers.values(), supply=c.pack.supply)
        adv.battle_form = ab.form
        c.say("form", f"{adv.name} gains 1 light fatigue and switches to {ab.form} form.")
    adv.tenacity -= ab.cost
    if turn.owner == owner:
        turn.used.append(ab.id)
        turn.acted = True
    u = c.unit(adv_uid(owner))
    c.say("ability", f"✨ {adv.name} spends {ab.cost} tenacity on {ab.name}.", unit=u.id)
    run_effects(Use(c, u, ab.name, target=aimed, ally=ally, form=adv.battle_form, to=to, new_form=new_form,
                    engage=EngageRecord(attacker=u.id)), ab.effects, manual=ab.manual, text=ab.text)


def _first_class_ability(c: Ctx, owner: str, ab, form: str | None) -> None:
    """A class ability as rules revision 0 used it: no target, no move of its own, its effects as they come."""
    adv = c.adv(owner)
    turn = c.b.turn
    if ab.form and ab.form != adv.battle_form:
        if form != ab.form:
            raise RuleError(f"{ab.name} needs {ab.form} form: add `form:{ab.form}` to switch (1 light fatigue).")
        track.gain_fatigue(adv, "light", 1, c.track_size, party=c.state.adventurers.values(), supply=c.pack.supply)
        adv.battle_form = ab.form
        c.say("form", f"{adv.name} gains 1 light fatigue and switches to {ab.form} form.")
    adv.tenacity -= ab.cost
    if turn.owner == owner:
        turn.used.append(ab.id)
        turn.acted = True
    u = c.unit(adv_uid(owner))
    c.say("ability", f"✨ {adv.name} spends {ab.cost} tenacity on {ab.name}.", unit=u.id)
    run_effects(Use(c, u, ab.name, target=None), ab.effects, manual=ab.manual, text=ab.text)


__all__ = ["setup", "proceed", "next_adventurer", "end_turn", "escape", "finish", "answer_prevention",
           "race_ability", "class_ability"]
