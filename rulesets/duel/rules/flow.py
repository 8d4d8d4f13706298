"""The fight's driver: joining, rounds of placed cards, the reveal, the monster's procedure, the Priority track,
Fame rerolls after every roll, and the round's end.

``proceed`` moves the fight on until it needs a player: a question (join, place, declare) or a Fame reroll
chain's current character.  Every answer runs one action that changes the fight and calls ``proceed``
again, so a crash or a restart finds the fight exactly where it waited.
"""
from __future__ import annotations

from typing import Any

from engine.core import RuleError
from rulesets.duel.content import Attack
from rulesets.duel.rules import dice as D
from rulesets.duel.rules.harm import (
    AILMENT_WORDS,
    Use,
    accuracy_threshold,
    award_token,
    blocks,
    damage_mods,
    effect_words,
    injure,
    priority_of,
    roll_mods,
    run_effects,
    track_order_key,
)
from rulesets.duel.rules.model import F, listing, plural
from rulesets.duel.state import AILMENTS, Chain, Fight, Fighter, Placed, Question, Roll, Token

MAX_STEPS = 500  # a guard: no single action moves the fight on more than this many steps


# ------------------------------------------------------------------- begin --
def start_fight(c: F, kind: str, starter: str, *, rival: str = "", monster: str = "", zone: str = "",
                runner: str = "") -> Fight:
    """A fight called (in ``zone`` from rules revision 2: only the characters standing there are asked to join;
    ``runner``: the player who runs the monster and rolls its dice, "" the bot)."""
    state = c.state
    state.fights += 1
    fight = Fight(no=state.fights, kind=kind, starter=starter, rival=rival, monster=monster, zone=zone, runner=runner)
    state.fight = fight
    fight.queue = [o for o in state.seats if o in state.characters and o in state.members
                   and (not zone or c.zone_of(o) == zone)]
    where = f" at {c.zone_name(zone)}" if zone else ""
    there = " with a character there" if zone else ""
    if kind == "monster":
        m = c.pack.monsters[monster]
        fight.fighters[f"m:{m.id}"] = Fighter(id=f"m:{m.id}", kind="monster", owner="", ref=m.id, name=m.name,
                                              side=1, grit=m.grit, max_grit=m.grit, skills=dict(m.skills),
                                              rank=m.rank)
        c.say("fight-called", f"A fight against the {m.name} (Rank {m.rank}, {m.grit} Grit) is called{where}. "
                              f"Each player{there}, in turn order, chooses whether to join.", starter=starter)
        if runner:
            c.say("runner", f"{{@runner}} runs the {m.name}: the fight waits for them to roll its dice.",
                  runner=runner)
    else:
        a, b = state.characters[starter], state.characters[rival]
        c.say("fight-called", f"{a.name} challenges {b.name} to a fight{where}. {{@rival}} chooses whether to accept; "
                              f"the others{' there' if zone else ''}, in turn order, whether to join a side.",
              starter=starter, rival=rival)
        gear = a.gear
        if len(gear) <= 1:  # the challenger is in; asked only which worn gear applies
            _enter(c, starter, 0, gear[0] if gear else "")
            fight.queue.remove(starter)
    proceed(c)
    return fight


def join_options(c: F, owner: str) -> list[tuple[str, str]]:
    """(answer, words) a player may give when asked to join."""
    fight, ch = c.fight, c.state.characters[owner]
    wear = [(f".{g}", f" wearing {c.pack.gear[g].name}") for g in ch.gear] if len(ch.gear) > 1 else [("", "")]
    if fight.kind == "monster":
        return [(f"in{v}", f"Join the fight{w}") for v, w in wear] + [("out", "Stay out")]
    starter, rival = c.state.characters[fight.starter], c.state.characters[fight.rival]
    if owner == fight.starter:
        return [(f"in{v}", f"Fight{w}") for v, w in wear] + [("out", "Call the fight off")]
    if owner == fight.rival:
        return [(f"in{v}", f"Accept the challenge{w}") for v, w in wear] + [("out", "Decline")]
    return ([(f"a{v}", f"Join {starter.name}'s side{w}") for v, w in wear]
            + [(f"b{v}", f"Join {rival.name}'s side{w}") for v, w in wear] + [("out", "Stay out")])


def _enter(c: F, owner: str, side: int, gear: str) -> None:
    ch = c.state.characters[owner]
    c.fight.fighters[f"c:{owner}"] = Fighter(
        id=f"c:{owner}", kind="character", owner=owner, ref=ch.hero, name=ch.name, side=side, grit=ch.grit,
        max_grit=ch.grit, skills=dict(ch.skills), base=dict(ch.base), gear=gear)
    worn = f", wearing {c.pack.gear[gear].name}" if gear and len(ch.gear) > 1 else ""
    c.say("joined", f"{ch.name} joins the fight{worn}.", player=owner)


def answer_join(c: F, owner: str, choice: str) -> None:
    fight = c.fight
    q = fight.question
    if q is None or q.kind != "join" or q.owner != owner:
        raise RuleError("You are not being asked to join a fight now.")
    options = dict(join_options(c, owner))
    if choice not in options:
        raise RuleError("Answer with one of: " + "; ".join(f"{v} ({w})" for v, w in options.items()) + ".")
    ch = c.state.characters[owner]
    fight.question = None
    fight.at += 1
    head, _, gear = choice.partition(".")
    gear = gear or (ch.gear[0] if ch.gear else "")
    if head == "out":
        if fight.kind == "rivals" and owner in (fight.starter, fight.rival):
            why = "declines the challenge" if owner == fight.rival else "calls the fight off"
            c.say("stays-out", f"{ch.name} {why}.", player=owner)
            call_off(c, f"{ch.name} {why}")
            return
        c.say("stays-out", f"{ch.name} stays out of the fight.", player=owner)
    else:
        side = 1 if head == "b" or (head == "in" and owner == fight.rival) else 0
        _enter(c, owner, side, gear)
    proceed(c)


def call_off(c: F, why: str) -> None:
    fight = c.fight
    fight.step = "over"
    fight.result = f"called off: {why}"
    fight.question = None
    c.say("fight-off", f"The fight is called off ({why}).")
    c.state.history.append({"no": fight.no, "kind": fight.kind, "rounds": 0, "result": fight.result})


def begin_fight(c: F) -> None:
    fight = c.fight
    joined = [o for o in c.state.seats if f"c:{o}" in fight.fighters]
    sides = {fight.fighters[f"c:{o}"].side for o in joined}
    if fight.kind == "monster" and not joined:
        call_off(c, "no character joined")
        return
    if fight.kind == "rivals" and sides != {0, 1}:
        call_off(c, "one side has nobody")
        return
    fight.order = [f"c:{o}" for o in joined] + [i for i in fight.fighters if i.startswith("m:")]
    for o in joined:
        f = fight.fighters[f"c:{o}"]
        obtained = [x for x in c.state.characters[o].cards if x in c.pack.cards and c.pack.cards[x].in_hand]
        f.hand = list(c.pack.hand) + obtained
    monster = next((f for f in c.seated() if f.monster), None)
    if monster is not None:
        c.say("fight-begins", f"The fight begins: {listing([fight.fighters[f'c:{o}'].name for o in joined])} "
                              f"against the {monster.name}.")
    else:
        c.say("fight-begins", "The fight begins: " + " against ".join(
            listing([f.name for f in c.seated() if f.side == s]) for s in (0, 1)) + ".")
    award_token(c, "the fight begins")
    begin_round(c)
    if not fight.over:
        snapshot(c, "The fight begins" + (": the Priority token was rolled off." if c.rolloff else "."))


# ------------------------------------------------------------------ rounds --
def begin_round(c: F) -> None:
    fight = c.fight
    fight.round += 1
    fight.done, fight.lure, fight.track = [], "", []
    for f in c.seated():
        f.damaging, f.focus = 0, False
    c.say("round", f"Round {fight.round} begins.", round=fight.round)
    for f in c.turn_order():
        if f.ailments.get("burn"):
            injure(c, f, 1, f"Burn {f.ailments['burn']}")
            if fight.over:
                return
    fight.step = "place"
    fight.queue = [f.id for f in reversed(c.characters())]
    fight.at = 0
    if c.characters() and not any(f.hand for f in c.characters()):
        # The rules are silent on hands that have all run out; with no card left anywhere a fight could never
        # end, so every character then takes its discard pile back (see docs/rules-notes.md, "Duel").
        for f in c.characters():
            f.hand, f.discard = f.hand + f.discard, []
        c.say("hands-empty", "Nobody has a card left in hand: every character takes its discard pile back.")


def end_round(c: F) -> None:
    fight = c.fight
    notes: list[str] = []
    ended: set[tuple[str, int]] = set()
    for f in c.seated():
        keep = []
        for e in f.effects:
            if e.rounds is not None:
                e.rounds -= 1
                if e.rounds <= 0:
                    notes.append(f"{f.name}'s {effect_words(e)} ({e.label}) ends")
                    ended.add((e.caster, e.uid))
                    continue
            keep.append(e)
        f.effects = keep
        for a in AILMENTS:
            if f.ailments.get(a):
                f.ailments[a] -= 1
                notes.append(f"{f.name}'s {AILMENT_WORDS[a]} " + (f"drops to {f.ailments[a]}" if f.ailments[a]
                                                                  else "ends"))
                if not f.ailments[a]:
                    del f.ailments[a]
    c.say("round-end", f"The track is empty: round {fight.round} ends."
          + (" " + "; ".join(notes) + "." if notes else ""), round=fight.round)
    live = {(e.caster, e.uid) for f in c.seated() for e in f.effects}
    for caster, uid in sorted(ended):
        owner = fight.fighters.get(caster)
        if not uid or owner is None or (caster, uid) in live:
            continue
        card = next((p for p in owner.out if p.uid == uid), None)
        if card is not None:
            owner.out.remove(card)
            owner.discard.append(card.card)
            c.say("discard", f"{owner.name}'s {c.pack.cards[card.card].name} has no effect left: it goes to the "
                             "discard pile.", fighter=owner.id)
    for f in c.turn_order():
        if f.focus:
            back = list(f.discard)
            f.hand += back
            f.discard = []
            f.focus = False
            c.say("focus", f"{f.name}'s Focus: {plural(len(back), 'card')} from the discard pile back into the "
                           "hand.", fighter=f.id)
    begin_round(c)


# ----------------------------------------------------------------- placing --
def place_cards(c: F, owner: str, picks: list[str], *, target: str = "", ally: str = "",
                declare: list[str] | None = None) -> None:
    """``picks`` are card ids from the hand (at most two); they go face-down."""
    fight = c.fight
    q = fight.question
    if q is None or q.kind != "place" or q.owner != owner:
        raise RuleError("It is not your turn to place cards.")
    f = c.fighter_of(owner)
    if len(picks) > 2:
        raise RuleError(f"Place at most two cards (you named {len(picks)}).")
    hand = list(f.hand)
    for p in picks:
        if p not in hand:
            have = ", ".join(sorted({c.pack.cards[x].name for x in f.hand})) or "nothing"
            name = c.pack.cards[p].name if p in c.pack.cards else p
            raise RuleError(f"{name} is not in your hand (it holds {have}). See it with /duel hand.")
        hand.remove(p)
    enemies = c.enemies(f)
    aim = ""
    if target:
        foe = fight.fighters.get(target)
        if foe is None or foe not in enemies:
            raise RuleError(f"target: must be an enemy in this fight ({listing([e.name for e in enemies])}).")
        aim = foe.id
    attacks = [p for p in picks if c.pack.cards[p].attacks]
    if attacks and not aim and len(enemies) > 1:
        raise RuleError("You have more than one enemy: name the one your attack aims at with target: "
                        f"({listing([e.name for e in enemies])}).")
    helps = ""
    if ally:
        friend = fight.fighters.get(ally)
        if friend is None or friend not in c.allies(f):
            raise RuleError(f"ally: must be you or an ally in this fight ({listing([a.name for a in c.allies(f)])}).")
        helps = friend.id
    declare = list(declare or [])
    for word in declare:
        if word not in ("attack", "token"):
            raise RuleError("base: is attack or token (what a Base Attack does when revealed).")
    f.hand = hand
    for p in picks:
        fight.uid += 1
        said = declare.pop(0) if c.pack.cards[p].type == "base" and declare else ""
        f.placed.append(Placed(fight.uid, p, aim if c.pack.cards[p].attacks else "", helps, said))
    fight.question = None
    fight.at += 1
    if picks:
        c.say("placed", f"{f.name} places {plural(len(picks), 'card')} face-down.", player=owner, count=len(picks))
    else:
        c.say("placed", f"{f.name} places no card this round.", player=owner, count=0)
    proceed(c)


# --------------------------------------------------------------- revealing --
def reveal_next(c: F) -> None:
    fight = c.fight
    if fight.at >= len(fight.queue):
        m = next((x for x in c.turn_order() if x.monster), None)
        if m is not None and runs(c):
            fight.question = Question("monster", fight.runner, c.next_ask(), c.ask_deadline(), what="procedure")
            return
        all_revealed(c)
        return
    f = fight.fighters[fight.queue[fight.at]]
    if not f.standing or not f.placed:
        fight.at += 1
        return
    fresh = [p for p in f.placed if not p.shown]
    if fresh:  # turned face-up: said once; reveal effects happen now
        c.say("reveal", f"{f.name} reveals {listing([c.pack.cards[p.card].name for p in fresh])}.", fighter=f.id,
              cards=[p.card for p in fresh])
        for p in fresh:
            p.shown = True
            card = c.pack.cards[p.card]
            if card.reveal:
                run_effects(Use(c, f, card.name, uid=p.uid), card.reveal)
    for p in list(f.placed):
        card = c.pack.cards[p.card]
        if card.type == "base" and not p.declare:
            fight.question = Question("declare", f.owner, c.next_ask(), c.ask_deadline(), p.uid)
            return
        f.placed.remove(p)
        if card.type == "base" and p.declare == "token":
            old = fight.token
            fight.token = f.id
            f.discard.append(p.card)
            c.say("take-token", f"{f.name} declares the Base Attack to take the Priority token"
                  + (f" from {fight.fighters[old].name}" if old and old != f.id and old in fight.fighters else "")
                  + ".", fighter=f.id)
            continue
        if card.type == "base":
            c.say("declare", f"{f.name} declares the Base Attack as an attack.", fighter=f.id)
        on_track(c, f, p.card, card.name, card.priority or 0, uid=p.uid, target=p.target, ally=p.ally)
    fight.at += 1


def all_revealed(c: F) -> None:
    """Every card is face-up: the monster chooses its action, and the track is resolved."""
    monster_chooses(c)
    c.fight.step = "resolve"
    snapshot(c, "Every action is on the Priority track.")


def runs(c: F) -> bool:
    """A player runs the monster and rolls its dice (rules revision 2, when the fight named one)."""
    return c.state.rules >= 2 and bool(c.fight.runner)


def roll_for_monster(c: F, owner: str, *, timed_out: bool = False) -> None:
    """The monster's runner rolls the die (or the dice) the fight waits on; the time-out rolls for them."""
    fight = c.fight
    q = fight.question
    if q is None or q.kind != "monster" or q.owner != owner:
        raise RuleError("You are not asked to roll for the monster now.")
    fight.question = None
    c.bot_rolls = timed_out
    if q.what == "procedure":
        all_revealed(c)
    else:
        monster_attack_roll(c, fight.current)
    proceed(c)


def revealed(before: Any, after: Any, events: list[dict[str, Any]]) -> str | None:
    """What a logged action showed, so /undo never takes it back (``engine.rulesets.Ruleset.revealed``): the
    placing (or time-out) that completes a round's placing turns every placed card face-up."""
    shown = [str(e.get("text") or "").rstrip(".") for e in events if e.get("kind") == "reveal"]
    if not shown:
        return None
    return "; ".join(shown) + ": cards turned face-up can't be hidden again."


def answer_declare(c: F, owner: str, choice: str) -> None:
    fight = c.fight
    q = fight.question
    if q is None or q.kind != "declare" or q.owner != owner:
        raise RuleError("You have no Base Attack to declare now.")
    if choice not in ("attack", "token"):
        raise RuleError("Declare attack (use the base attack) or token (take the Priority token).")
    f = c.fighter_of(owner)
    p = next(p for p in f.placed if p.uid == q.uid)
    p.declare = choice
    fight.question = None
    proceed(c)


def on_track(c: F, f: Fighter, card: str, label: str, printed: int, *, uid: int = 0, action: int = -1,
             target: str = "", ally: str = "") -> Token:
    fight = c.fight
    value, why = priority_of(f, printed)
    fight.seq += 1
    t = Token(fight.seq, f.id, value, label, uid, card, action, target, ally)
    fight.track.append(t)
    c.say("track", f"{f.name}'s {label} goes on the Priority track at {value}{why}.", fighter=f.id, priority=value)
    return t


def monster_chooses(c: F) -> None:
    """After the cards are revealed the monster takes the action its procedure's table gives for one plain die,
    rolled by the table (no card, bonus, penalty or Fame reroll touches it)."""
    fight = c.fight
    m = next((f for f in c.turn_order() if f.monster), None)
    if m is None:
        return
    monster = c.pack.monsters[m.ref]
    face = c.dice.roll(D.SIDES)
    index, act = monster.action_for(face)
    fight.roll = Roll(by="", purpose="procedure", label=f"{monster.name}'s procedure", dice=[face],
                      rerolled=[False], was=[0], result=act.name)
    aim = ""
    if act.attack is not None:
        foe = monster_target(c, m, act.target)
        aim = foe.id if foe else ""
    at = f" at {fight.fighters[aim].name}" if aim else ""
    if runs(c) and not c.bot_rolls:
        c.say("procedure", f"{{@runner}} rolls {face} for the {monster.name}: {act.name}{at}.", roll=face,
              action=act.name, runner=fight.runner)
    else:
        c.say("procedure", f"The table rolls {face} for the {monster.name}: {act.name}{at}.", roll=face,
              action=act.name)
    on_track(c, m, "", act.name, act.priority, action=index, target=aim)


def monster_target(c: F, m: Fighter, rule: str) -> Fighter | None:
    foes = c.enemies(m)
    if not foes:
        return None
    lure = c.fight.fighters.get(c.fight.lure)
    if lure is not None and lure in foes:
        return lure
    if rule == "least-grit":
        return min(foes, key=lambda f: f.grit)
    if rule == "most-grit":
        return max(foes, key=lambda f: f.grit)  # max keeps the first of equals: turn order
    if rule == "most-fame":
        return max(foes, key=lambda f: c.fame(f))
    holder = c.fight.fighters.get(c.fight.token)
    return holder if holder in foes else foes[0]


# --------------------------------------------------------------- resolving --
def resolve_next(c: F) -> None:
    fight = c.fight
    if not fight.track:
        end_round(c)
        return
    fight.track.sort(key=lambda t: track_order_key(c, t))
    t = fight.track.pop(0)
    f = fight.fighters[t.fighter]
    if not f.standing:
        return
    start_action(c, t)


def aim(c: F, f: Fighter, t: Token) -> Fighter | None:
    """The attack's target as it acts: the one named (a monster's: picked by its procedure), turned to a luring
    enemy of the attacker when it aimed at that enemy's ally, or another enemy when it has left the fight."""
    fight = c.fight
    foes = c.enemies(f)
    if not foes:
        return None
    named = fight.fighters.get(t.target) if t.target else None
    lure = fight.fighters.get(fight.lure)
    lured = lure if lure is not None and lure in foes else None
    if named is not None and lured is not None and named.side == lured.side and named.id != lured.id:
        c.say("lured", f"{lured.name}'s Lure turns {f.name}'s {t.label} away from {named.name}.", fighter=f.id)
        return lured
    if named is not None and named in foes:
        return named
    pick = lured or foes[0]
    if named is not None:
        c.say("retarget", f"{named.name} has left the fight: {f.name}'s {t.label} aims at {pick.name}.", fighter=f.id)
    return pick


def start_action(c: F, t: Token) -> None:
    fight = c.fight
    f = fight.fighters[t.fighter]
    if f.monster:
        act = c.pack.monsters[f.ref].actions[t.action]
        if act.attack is None:
            c.say("action", f"{f.name}: {act.name}.", fighter=f.id)
            run_effects(Use(c, f, act.name), act.effects)
            done(c, t, "")
            return
        profile, kind = act.attack, "base"
    else:
        card = c.pack.cards[t.card]
        if card.needs_wit:
            fight.current = t
            begin_roll(c, f, "spell", "wit", f"{f.name}'s {card.name}", need=D.SPELL_NEEDS)
            return
        if not card.attacks:
            c.say("action", f"{f.name} uses {card.name}.", fighter=f.id)
            use = Use(c, f, card.name, ally=t.ally, uid=t.uid)
            run_effects(use, card.effects)
            dispose(c, f, t, use.lasting > 0)
            done(c, t, "")
            return
        kind = card.type
        profile = card.attack if card.attack is not None else _base(f)
    target = aim(c, f, t)
    if target is None:
        c.say("no-target", f"{f.name}'s {t.label} has nobody left to attack.", fighter=f.id)
        dispose(c, f, t, False)
        done(c, t, "no target")
        return
    t.target = target.id
    if f.monster and runs(c):
        fight.current = t
        fight.question = Question("monster", fight.runner, c.next_ask(), c.ask_deadline(), what="attack")
        return
    if f.monster:
        monster_attack_roll(c, t)
        return
    extra = []
    if not f.monster and deals_damage(c, profile):
        if f.damaging >= 1:
            extra.append(["second damaging action", D.SECOND_DAMAGING])
        f.damaging += 1
    fight.current = t
    tier = target.skills.get(profile.defense, 1)
    begin_roll(c, f, "attack", profile.skill, f"{f.name}'s {t.label} at {target.name}", need=D.defense(tier),
               threshold=accuracy_threshold(f) if deals_damage(c, profile) else 0, extra=extra, kind=kind)


def monster_attack_roll(c: F, t: Token) -> None:
    """The monster's attack rolls its dice (by the table, or by its runner's command)."""
    fight = c.fight
    f, target = fight.fighters[t.fighter], fight.fighters[t.target]
    profile = c.pack.monsters[f.ref].actions[t.action].attack
    if runs(c) and not c.bot_rolls:
        c.say("runner-rolls", f"{{@runner}} rolls the {f.name}'s dice.", runner=fight.runner)
    fight.current = t
    tier = target.skills.get(profile.defense, 1)
    begin_roll(c, f, "attack", profile.skill, f"{f.name}'s {t.label} at {target.name}", need=D.defense(tier),
               threshold=accuracy_threshold(f) if deals_damage(c, profile) else 0, kind="base")


def deals_damage(c: F, profile: Attack) -> bool:
    """An attack that deals damage: Accuracy is granted only to it, and only it counts as a damaging action.
    From rules revision 2 an attack printed with no damage (one that only lays an effect on a hit) is not one;
    before, every attack was."""
    return c.state.rules < 2 or profile.damage > 0


def _base(f: Fighter) -> Attack:
    """A character's own base attack (the Base Attack card uses it)."""
    b = f.base
    return Attack(str(b.get("skill") or "might"), str(b.get("defense") or "finesse"), int(b.get("damage") or 0))


def begin_roll(c: F, f: Fighter, purpose: str, skill: str, label: str, *, need: int = 0, threshold: int = 0,
               extra: list[list[Any]] | None = None, kind: str = "") -> None:
    """``f`` rolls as many dice as its Tier in ``skill``; then the Fame reroll chain."""
    fight = c.fight
    faces = D.pool(c.dice, f.skills.get(skill, 1))
    mods = roll_mods(c, f) + list(extra or [])
    roll = Roll(by=f.id, purpose=purpose, label=label, skill=skill, dice=faces, rerolled=[False] * len(faces),
                was=[0] * len(faces), mods=mods, need=need, threshold=threshold if purpose == "attack" else 0)
    fight.roll = roll
    what = "to hit (defense " + str(need) + ")" if purpose == "attack" else f"and needs {need} or more"
    mod_words = ""
    if mods:
        mod_words = " " + ", ".join(f"{int(m[1]):+d} {m[0]}" for m in mods) + " on each die: " + ", ".join(
            map(str, roll.values))
    c.say("roll", f"{label}: {f.name} rolls {skill.capitalize()} ({plural(len(faces), 'die', 'dice')}) {what}: "
                  f"{', '.join(map(str, faces))}.{mod_words}", fighter=f.id, dice=faces, attack=kind)
    open_chain(c, f)


def finish_action(c: F) -> None:
    """The roll of the action waiting for Fame rerolls is final: the action takes effect."""
    fight = c.fight
    t, roll = fight.current, fight.roll
    fight.current = None
    f = fight.fighters[t.fighter]
    values = roll.values
    best = D.highest(values)
    if roll.purpose == "spell":
        card = c.pack.cards[t.card]
        if best >= roll.need:
            roll.result = f"works (best die {best})"
            c.say("spell", f"{card.name} works (best die {best}, 6 or more needed).", fighter=f.id)
            use = Use(c, f, card.name, ally=t.ally, uid=t.uid)
            run_effects(use, card.effects)
            dispose(c, f, t, use.lasting > 0)
        else:
            roll.result = f"no effect (best die {best})"
            c.say("spell", f"{card.name} has no effect (best die {best}; 6 or more needed).", fighter=f.id)
            dispose(c, f, t, False)
        done(c, t, roll.result)
        return
    target = fight.fighters[t.target]
    if f.monster:
        act = c.pack.monsters[f.ref].actions[t.action]
        profile, kind, hit_effects, benefit = act.attack, "base", act.hit, ()
    else:
        card = c.pack.cards[t.card]
        profile = card.attack if card.attack is not None else _base(f)
        kind, hit_effects, benefit = card.type, card.hit, card.benefit
    lasting = 0
    if best >= roll.need and target.standing and not deals_damage(c, profile):
        roll.result = "hit: no damage"
        c.say("hit", f"{t.label} hits {target.name} (best die {best} against defense {roll.need}): it deals no "
                     "damage, so its dice grant no Accuracy.", fighter=f.id, target=target.id, injury=0)
        if hit_effects and not fight.over:
            run_effects(Use(c, f, t.label, target=target, uid=t.uid), hit_effects)
    elif best >= roll.need and target.standing:
        acc = D.accuracy(values, roll.threshold)
        mods = damage_mods(f, kind)
        total = max(0, profile.damage + acc + sum(a for _w, a in mods))
        blk = blocks(c, target, kind)
        injury = max(0, total - sum(b for _w, b in blk))
        sums = f"{profile.damage} damage" + (f" + {acc} Accuracy (dice of {roll.threshold} or more)" if acc else "")
        sums += "".join(f" {a:+d} {w}" for w, a in mods)
        blocked = "; " + ", ".join(f"Block {b} ({w})" for w, b in blk) if blk else ""
        roll.result = f"hit: {injury} Injury"
        c.say("hit", f"{t.label} hits {target.name} (best die {best} against defense {roll.need}): "
                     f"{sums} = {total}{blocked} → {injury} Injury.", fighter=f.id, target=target.id, injury=injury)
        injure(c, target, injury, t.label)
        if hit_effects and not fight.over:
            run_effects(Use(c, f, t.label, target=target, uid=t.uid), hit_effects)
    else:
        roll.result = "miss"
        c.say("miss", f"{t.label} misses {target.name} (best die {best} against defense {roll.need}).",
              fighter=f.id, target=target.id)
    if benefit and not fight.over:
        use = Use(c, f, t.label, ally=t.ally, uid=t.uid)
        run_effects(use, benefit)
        lasting = use.lasting
    dispose(c, f, t, lasting > 0)
    done(c, t, roll.result)


def dispose(c: F, f: Fighter, t: Token, lasting: bool) -> None:
    """An ongoing card goes face-up beside its character while its effect lasts; any other to the discard."""
    if not t.card or f.monster:
        return
    if lasting and f.standing and not c.fight.over:
        f.out.append(Placed(t.uid, t.card))
        c.say("face-up", f"{c.pack.cards[t.card].name} stays face-up beside {f.name} while its effect lasts.",
              fighter=f.id)
    else:
        f.discard.append(t.card)


def done(c: F, t: Token, outcome: str) -> None:
    fight = c.fight
    fight.done.append({"fighter": t.fighter, "label": t.label, "priority": t.priority, "outcome": outcome})
    if c.fame_changed and not fight.over:
        c.fame_changed = False
        award_token(c, "Fame changed")
    snapshot(c, f"{fight.fighters[t.fighter].name}: {t.label}" + (f" ({outcome})" if outcome and outcome != t.label
                                                                      else ""))


# ------------------------------------------------------------ Fame rerolls --
def open_chain(c: F, roller: Fighter) -> None:
    """After a roll each character, beginning with the one after the roller in turn order, may spend 2 Fame to
    reroll one die; round and round until all in a row decline or every die has been rerolled."""
    ids = [f.id for f in c.turn_order()]
    if roller.id in ids:
        i = ids.index(roller.id)
        ids = ids[i + 1:] + ids[:i + 1]
    c.fight.chain = Chain(order=[i for i in ids if not c.fight.fighters[i].monster])
    advance_chain(c)


def can_reroll(c: F, f: Fighter) -> bool:
    return f.standing and not f.monster and c.fame(f) >= 2


def advance_chain(c: F) -> bool:
    """Ask the next character who can pay; True while a question waits, False once the chain is over."""
    fight = c.fight
    ch, roll = fight.chain, fight.roll
    while ch is not None:
        if roll.dice and all(roll.rerolled):
            c.say("chain-end", "Every die of the roll has been rerolled: no more Fame rerolls.")
            break
        if not ch.order or ch.passes >= len(ch.order):
            break
        f = fight.fighters[ch.order[ch.at]]
        if not can_reroll(c, f):
            ch.passes += 1
            ch.at = (ch.at + 1) % len(ch.order)
            continue
        ch.ask = c.next_ask()
        ch.deadline = c.ask_deadline()
        return True
    spent = bool(ch and ch.spent)
    fight.chain = None
    if spent:
        award_token(c, "Fame was spent")
    return False


def reroll(c: F, owner: str, die: int) -> None:
    fight = c.fight
    ch, roll = fight.chain, fight.roll
    f = fight.fighters[ch.order[ch.at]]
    if f.owner != owner:
        raise RuleError("It is {@player}'s choice to reroll now; wait for yours.", player=f.owner)
    n = len(roll.dice)
    if not 1 <= die <= n:
        raise RuleError(f"die: must be 1 to {n} (the roll has {plural(n, 'die', 'dice')}).")
    if roll.rerolled[die - 1]:
        open_dice = [str(i) for i, r in enumerate(roll.rerolled, 1) if not r]
        raise RuleError(f"Die {die} has already been rerolled and can never be rerolled again. "
                        f"Dice you may reroll: {', '.join(open_dice)}.")
    record = c.state.characters[owner]
    if record.fame < 2:
        raise RuleError(f"A reroll costs 2 Fame and {f.name} has {record.fame}.")
    record.fame -= 2
    old = roll.dice[die - 1]
    new = c.dice.roll(D.SIDES)
    roll.dice[die - 1], roll.rerolled[die - 1], roll.was[die - 1] = new, True, old
    ch.spent = True
    ch.passes = 0
    ch.at = (ch.at + 1) % len(ch.order)
    c.say("reroll", f"{f.name} spends 2 Fame (now {record.fame}) to reroll die {die} ({roll.label}): {old} → {new}.",
          player=owner, die=die, old=old, new=new)
    if not advance_chain(c):
        proceed(c)


def decline(c: F, owner: str) -> None:
    fight = c.fight
    ch = fight.chain
    f = fight.fighters[ch.order[ch.at]]
    if f.owner != owner:
        raise RuleError("It is {@player}'s choice to reroll now; wait for yours.", player=f.owner)
    ch.passes += 1
    ch.at = (ch.at + 1) % len(ch.order)
    c.say("no-reroll", f"{f.name} spends no Fame on this roll.", player=owner)
    if not advance_chain(c):
        proceed(c)


# ------------------------------------------------------------------- drive --
def proceed(c: F) -> None:
    """Move the fight on until it waits for a player (or is over)."""
    fight = c.fight
    for _ in range(MAX_STEPS):
        if fight.over or fight.question is not None or fight.chain is not None:
            return
        if fight.current is not None:
            finish_action(c)
            continue
        if fight.step == "join":
            if fight.at >= len(fight.queue):
                begin_fight(c)
                continue
            owner = fight.queue[fight.at]
            fight.question = Question("join", owner, c.next_ask(), c.ask_deadline())
            return
        if fight.step == "place":
            if fight.at >= len(fight.queue):
                fight.step, fight.queue, fight.at = "reveal", [f.id for f in reversed(c.characters())], 0
                continue
            f = fight.fighters[fight.queue[fight.at]]
            if not f.standing:
                fight.at += 1
                continue
            if not f.hand:
                c.say("placed", f"{f.name} has no card in hand and places none.", player=f.owner, count=0)
                fight.at += 1
                continue
            fight.question = Question("place", f.owner, c.next_ask(), c.place_deadline())
            return
        if fight.step == "reveal":
            reveal_next(c)
            continue
        if fight.step == "resolve":
            resolve_next(c)
            continue
    raise RuleError("The fight could not move on (a fault on our side); nothing was changed.")


# --------------------------------------------------------------- pictures --
def snapshot(c: F, caption: str) -> None:
    """Keep this moment for the post's pictures (one after every resolved action)."""
    c.fight.frames.append(frame(c, caption))
    c.rolloff = []


def frame(c: F, caption: str = "") -> dict[str, Any]:
    """What a picture of the fight shows now: public information only (hands and face-down cards are counted,
    never named)."""
    fight = c.fight
    roll = fight.roll
    fighters = []
    for f in c.seated() or list(fight.fighters.values()):
        fighters.append({
            "id": f.id, "name": f.name, "kind": f.kind, "owner": f.owner, "side": f.side, "grit": f.grit,
            "max": f.max_grit, "fame": c.fame(f), "token": f.id == fight.token, "recalled": f.recalled,
            "gear": c.pack.gear[f.gear].name if f.gear in c.pack.gear else "",
            "ailments": {a: f.ailments[a] for a in AILMENTS if f.ailments.get(a)},
            "effects": [{"text": effect_words(e), "label": e.label, "rounds": e.rounds} for e in f.effects],
            "hand": len(f.hand), "facedown": sum(1 for p in f.placed if not p.shown),
            "lure": f.id == fight.lure,
        })
    pending = sorted(fight.track, key=lambda t: track_order_key(c, t))
    return {
        "caption": caption, "round": fight.round, "step": fight.step, "no": fight.no, "result": fight.result,
        "track": [{"fighter": t.fighter, "label": t.label, "priority": t.priority} for t in pending],
        "current": ({"fighter": fight.current.fighter, "label": fight.current.label,
                     "priority": fight.current.priority} if fight.current else None),
        "done": [dict(d) for d in fight.done], "fighters": fighters,
        "roll": roll.to_dict() if roll else None, "rolloff": list(c.rolloff),
    }


def frame_now(state, pack) -> dict[str, Any]:
    """The picture of the fight as it stands (no action of its own)."""
    return frame(F(state, pack, None))


__all__ = ["proceed", "start_fight", "snapshot", "frame_now"]
