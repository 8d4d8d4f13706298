"""Battle actions (rulebook pages 54-73 and 86-94): start, move, engage, resolve, end turn and more.

The rules live in ``rulesets.tes.battle``; these handlers check who may act and call it.
Each handler works on the service's copy of the state, so a refused action
changes nothing even when the refusal comes late.
"""
from __future__ import annotations

from rulesets.tes.battle import checks
from rulesets.tes.battle import engage as eng
from rulesets.tes.battle import flow
from rulesets.tes.battle.model import Ctx, require_battle
from engine.bounds import CONFIRM, Flag, OneHex, Hexes, Int, Mapping, Pairs, Player, Players, Text
from engine.core import RuleError
from engine.text import a_or_an
from rulesets.tes.outcomes.handlers import AFTER_BATTLE
from rulesets.tes.rules.table import PICKS, TURN_HOOKS, UNIT, Handler, action, subject
from rulesets.tes.rules.adventurer import Create


def after_battle(c: Ctx) -> None:
    """What follows an action that may have ended a battle: the day takes back a battle a card started
    (``rulesets.tes.rules.days`` registers the hand-over in ``AFTER_BATTLE``)."""
    for hand_back in AFTER_BATTLE:
        hand_back(c)


def _ctx(state, ctx) -> Ctx:
    return Ctx(state, ctx.pack_for(state), ctx.dice, now=ctx.now)


def _in_battle(state, action) -> str:
    require_battle(state)
    owner = subject(state, action)
    if owner not in state.battle.order:
        raise RuleError("Your adventurer is not in this battle.")
    return owner


class TurnAction(Handler):
    """An adventurer's battle action: find them in the battle, then run ``step`` on a battle context.

    While the battle waits for a player (a prevention question, a free move offered) only the actions that
    answer it (``answers``) are taken; after every action the battle deals any damage that waited for an answer.
    """

    answers = False

    def apply(self, state, action, ctx):
        owner = _in_battle(state, action)
        c = _ctx(state, ctx)
        why = checks.waiting_for(c)
        if why and not self.answers:
            raise RuleError(why)
        self.step(c, owner, action.args)
        flow.proceed(c)
        after_battle(c)  # a battle a card started hands its result back to the day
        return state, c.events

    def step(self, c: Ctx, owner: str, args: dict) -> None:
        raise NotImplementedError


@action
class Start(Handler):
    type = "battle.start"
    leader_only = True
    args = {"encounter": Text(), "first": Player(), "deploy": Hexes(8), "ep": Int(0, 400), "session": Int(1, 3),
            "order": Players(), "hexes": Mapping(Player(), OneHex())}
    summary = "Set up a battle (a clash, a delve or a dungeon): map, enemies, deployment, round 1."

    def check(self, state, action, ctx):
        if state.battle:
            raise RuleError(f"A battle is already going on ({state.battle.name}, round "
                            f"{state.battle.round}). See `/battle status`.")
        if state.days is not None and state.days.phase != "over":
            raise RuleError("A session of days is under way: its battles come from the day's encounters. "
                            "See `/day status`.")
        if not state.adventurers:
            raise RuleError("Nobody has an adventurer yet. Create them with `/adventurer create` first.")

    def apply(self, state, action, ctx):
        a = action.args
        order = [str(o) for o in (a.get("order") or [])]
        members = [m for m in state.members if m in state.adventurers]
        if not order:
            first = str(a["first"]) if a.get("first") else (state.leader if state.leader in members else members[0])
            if first not in members:
                raise RuleError("The first player must have an adventurer in this party.")
            i = members.index(first)
            order = members[i:] + members[:i]
        missing = [m for m in members if m not in order]
        if missing or len(set(order)) != len(order) or any(o not in state.adventurers for o in order):
            raise RuleError("The turn order must list every adventurer's player once.")
        hexes = a.get("hexes")
        if a.get("deploy"):  # entrance hexes in turn order
            if len(a["deploy"]) > len(order):
                raise RuleError(f"Give at most one hex per adventurer ({len(order)}).")
            hexes = dict(zip(order, a["deploy"]))
        for o in order:
            adv = state.adventurers[o]
            if adv.hp <= 0:
                if state.rules >= 3:
                    raise RuleError(f"{adv.name} has no HP left and cannot fight. The Adventurers Rest at the End "
                                    "of Day heals them: start a session of days with /day start.")
                raise RuleError(f"{adv.name} has no HP left and cannot fight. The party leader rests the party "
                                "with /adventurer rest (heals by difficulty), then starts the battle.")
        c = _ctx(state, ctx)
        flow.setup(c, str(a.get("encounter") or ""), order, hexes, a.get("ep"), a.get("session"))
        flow.proceed(c)
        return state, c.events


@action
class Deploy(TurnAction):
    """Deploy Adventurers step: set the battle form and choose the ready items, free of cost.

    In play-by-post each player does this before their first turn of the battle: while it is
    round 1 and their first turn has not begun acting (docs/rules-notes.md).
    """

    type = "battle.deploy"
    args = {"form": Text(), "ready": Text()}
    summary = "Before your first turn: choose your battle form and ready items."

    def step(self, c, owner, args):
        from rulesets.tes.content import BATTLE_FORMS
        from engine.text import echo, slug

        b = c.b
        idx = b.order.index(owner)
        turn = b.turn
        started = idx < b.turn_index or (idx == b.turn_index and (turn.acted or turn.moves
                                                                          or turn.engages))
        if b.round != 1 or started:
            raise RuleError("Battle form and ready items are chosen when you deploy, before your first turn. "
                            "Now change form with `/engage form:` and items only between battles.")
        adv = c.adv(owner)
        form, ready = args.get("form"), args.get("ready")
        if not form and ready is None:
            raise RuleError("Give `form:` (light, heavy, defensive, ranged, magic) and/or `ready:` (item names, "
                            "comma separated; empty to ready nothing).")
        if form:
            f = slug(form)
            if f not in BATTLE_FORMS:
                raise RuleError(f"`{echo(form)}` is not a battle form. Choose one of: {', '.join(BATTLE_FORMS)}.")
            adv.battle_form = f
            c.say("deploy", f"{adv.name} deploys in {f} form.")
        if ready is not None:
            owned = adv.ready + adv.pack
            chosen: list[str] = []
            for part in [p.strip() for p in str(ready).split(",") if p.strip()]:
                key = slug(part)
                hit = next((i for i in owned if i not in chosen and (i == key or slug(c.pack.items[i].name) == key)),
                           None)
                if hit is None:
                    names = ", ".join(c.pack.items[i].name for i in owned) or "none"
                    raise RuleError(f"{adv.name} carries no `{echo(part)}`. Items carried: {names}.")
                chosen.append(hit)
            if len(chosen) > c.pack.mat.ready_slots:
                raise RuleError(f"Only {c.pack.mat.ready_slots} items fit in the ready slots.")
            areas = [t for i in chosen if c.pack.items[i].subtype == "armor" for t in c.pack.items[i].traits[:1]]
            dup = next((a for a in areas if areas.count(a) > 1), None)
            if dup:
                raise RuleError(f"Only one armor item per body area may be ready; two are `{dup}`.")
            pets = [i for i in adv.ready if c.pack.items[i].subtype == "pet" and i not in chosen]
            if pets:
                raise RuleError(f"{c.pack.items[pets[0]].name} is a pet in a ready slot; it can't go back in the pack.")
            adv.pack = [i for i in owned if i not in chosen]
            adv.ready = chosen
            c.say("deploy", f"{adv.name} readies " + (", ".join(c.pack.items[i].name for i in chosen) or "nothing")
                  + ".")


@action
class Move(TurnAction):
    type = "battle.move"
    args = {"to": Hexes(), "path": Hexes(), "free": Flag(), "pick": PICKS, "stay": Flag(), "confirm": CONFIRM}
    summary = "Move up to your Stamina in hexes (or make a free move an interrupt offered you)."
    answers = True

    def step(self, c, owner, args):
        if c.b.offers and c.b.offers[0].owner == owner:
            flow.react(c, owner, args)
            return
        why = checks.waiting_for(c)
        if why:
            raise RuleError(why)
        eng.do_move(c, owner, args)


@action
class React(TurnAction):
    type = "battle.react"
    args = {"pick": PICKS, "stay": Flag()}
    summary = "Answer a free move offered during an enemy's turn: a hex from its menu, or stay."
    answers = True

    def step(self, c, owner, args):
        flow.react(c, owner, args)


@action
class Stay(React):
    type = "battle.stay"
    summary = "Stay where you are instead of the free move an interrupt offered you."

    def step(self, c, owner, args):
        super().step(c, owner, {"stay": True})


@action
class Engage(TurnAction):
    type = "battle.engage"
    args = {"dice": Pairs(0, 60, 30), "target": UNIT, "form": Text(), "item": Text(), "overtax": Flag(),
            "confirm": CONFIRM}
    summary = "Choose form, target and dice, and roll."

    def step(self, c, owner, args):
        eng.do_engage(c, owner, args)


@action
class Resolve(TurnAction):
    type = "battle.resolve"
    args = {"order": PICKS, "ally": UNIT, "at": Hexes()}
    summary = "Resolve your rolled dice (which ones, in what order)."

    def step(self, c, owner, args):
        if not (c.b.pending and c.b.pending.owner == owner):  # an ally may resolve an engage given to them
            checks.my_turn(c, owner)
        eng.resolve(c, owner, args)


@action
class Reroll(TurnAction):
    type = "battle.reroll"
    args = {"dice": PICKS}
    summary = "Reroll dice of your waiting roll with a reroll an item or ability gave you."

    def step(self, c, owner, args):
        if not (c.b.pending and c.b.pending.owner == owner):
            checks.my_turn(c, owner)
        eng.reroll(c, owner, args)


@action
class Drop(TurnAction):
    type = "battle.drop"
    args = {"slot": Int(1, 4)}
    summary = "Remove a die from one of your active slots (it is exhausted)."

    def step(self, c, owner, args):
        checks.no_pending(c)
        eng.drop_active(c, owner, args.get("slot"))


@action
class EndTurn(TurnAction):
    type = "battle.endturn"
    args: dict = {}
    summary = "End your turn; enemies act when every adventurer is done."

    def step(self, c, owner, args):
        checks.my_turn(c, owner)
        checks.no_pending(c)
        flow.end_turn(c, owner)


@action
class Escape(TurnAction):
    type = "battle.escape"
    args: dict = {}
    summary = "Leave the map from an escape hex at the start of your turn."

    def step(self, c, owner, args):
        flow.escape(c, owner)


@action
class Ability(TurnAction):
    type = "battle.ability"
    args = {"name": Text(), "form": Text(), "target": UNIT, "to": Hexes(), "confirm": CONFIRM}
    summary = "Use your race ability or a class ability."

    def step(self, c, owner, args):
        name = str(args.get("name") or "").strip()
        adv = c.adv(owner)
        race = c.pack.races[adv.race]
        if not name:
            raise RuleError(f"Name the ability: `race` for {race.ability.name}, or a class ability.")
        is_race = name.lower() in ("race", race.ability.name.lower())
        ab = race.ability if is_race else flow.class_ability_named(c, owner, name)
        if not (ab is not None and not ab.manual and any(e.get("type") == "reroll" for e in ab.effects)
                and c.b.pending and c.b.pending.owner == owner):
            checks.no_pending(c)  # an ability that rerolls is used while its roll waits
        if is_race:
            flow.race_ability(c, owner, bool(args.get("confirm")))
        else:
            flow.class_ability(c, owner, name, args.get("form"), args.get("target"), args.get("to"),
                               bool(args.get("confirm")))


@action
class Retreat(Handler):
    type = "battle.retreat"
    leader_only = True
    args: dict = {}
    summary = "Retreat: the battle ends (failed) at the end of this round."

    def apply(self, state, action, ctx):
        b = require_battle(state)
        c = _ctx(state, ctx)
        if b.retreat:
            raise RuleError("The party is already retreating; the battle ends at the end of this round.")
        b.retreat = True
        c.say("retreat", "🏳️ {@leader} calls the retreat: the battle ends, failed, at the end of this round.",
              since=3, kept="🏳️ The party agrees to retreat: the battle ends at the end of this round.",
              leader=action.actor)
        if state.rules >= 4 and b.offers:  # a free move waiting for its player: the retreat does not wait for it
            for o in b.offers:
                c.say("stay", f"{state.adventurers[o.owner].name} stays in place: the party is retreating"
                              + (f" (no tenacity spent on {o.source})." if o.ability and o.cost else "."),
                      unit=f"a:{o.owner}")
            b.offers = []
            flow.proceed(c)
            after_battle(c)  # the round may have ended, and the battle with it
        return state, c.events


@action
class PreventionMode(Handler):
    type = "battle.prevention"
    args = {"mode": Text(20)}
    summary = "Choose automatic prevention or to be asked."

    def apply(self, state, action, ctx):
        owner = subject(state, action)
        mode = str(action.args.get("mode") or "").lower()
        if mode not in ("auto", "ask"):
            raise RuleError("Choose `mode:auto` (the bot spends prevention for you) or `mode:ask`.")
        if owner not in state.adventurers:
            raise RuleError("You have no adventurer yet. Create one with `/adventurer create`.")
        state.settings.setdefault("prevention", {})[owner] = mode
        from engine.core import Event
        name = state.adventurers[owner].name
        return state, [Event("setting", f"{name}'s damage prevention: {mode}.", {"player": owner, "mode": mode})]


@action
class Prevent(TurnAction):
    type = "battle.prevent"
    args = {"use": PICKS}
    summary = "Answer a prevention question (your damage, or an ally's guard)."
    answers = True

    def step(self, c, owner, args):
        flow.answer_prevention(c, owner, args.get("use"))


@action
class ChooseRewardClass(Handler):
    type = "battle.class"
    args = {"klass": Text()}
    summary = "Choose your class from the Jailbreak rewards."

    def apply(self, state, action, ctx):
        from engine.core import Event
        owner = subject(state, action)
        rewards = state.class_rewards.get(owner)
        adv = state.adventurers.get(owner)
        if adv is None or not rewards:
            raise RuleError("You have no class rewards waiting. Without them choose with `/adventurer class`.")
        if adv.class_id:
            raise RuleError(f"{adv.name} already has a class.")
        pack = ctx.pack_for(state)
        key = str(action.args.get("klass") or "").strip().lower()
        offered = ", ".join(pack.classes[k].name for k in rewards)
        pick = next((k for k in rewards if k == key or pack.classes[k].name.lower() == key), None)
        events = []
        if pick is None:
            # a class the achievements did not earn: from those left once everyone else has chosen,
            # giving up the tenacity and items gained in the battle (Jailbreak, Choosing a Non-Achievement Class)
            pick = next((k for k, v in pack.classes.items() if k == key or v.name.lower() == key), None)
            if pick is None or pack.classes[pick].expansion_only:
                raise RuleError(f"Choose one of your rewards: {offered}. Or, once everyone else has chosen, "
                                "any class still free (you give up the tenacity and items gained in the battle).")
            waiting = [state.adventurers[o].name for o in state.class_rewards if o != owner and o in state.adventurers]
            if waiting:
                raise RuleError(f"{pack.classes[pick].name} is not among your rewards ({offered}). A class your "
                                f"achievements did not earn can be picked only after {', '.join(waiting)} "
                                f"{'has' if len(waiting) == 1 else 'have'} chosen.")
            Create.check_class(state, pack, pick, owner)
            last = state.last_battle
            got = ((last.gained or {}).get(owner) if last else None) or {}
            lost_t = min(adv.tenacity, int(got.get("tenacity") or 0))
            adv.tenacity -= lost_t
            lost_items = []
            for item in got.get("items") or []:
                for where in (adv.ready, adv.pack):
                    if item in where:
                        where.remove(item)
                        lost_items.append(item)
                        if item in pack.items:
                            from rulesets.tes.battle.inventory import discard
                            discard(state, pack, item)
                        break
            gave = [f"{lost_t} tenacity"] + [pack.items[i].name if i in pack.items else i for i in lost_items]
            events.append(Event("class-cost", f"{adv.name} picks a class the achievements did not earn and "
                                              f"gives up what the battle gave: {', '.join(gave)}.",
                                {"player": owner, "tenacity": lost_t, "items": lost_items}))
        Create.check_class(state, pack, pick, owner)
        adv.class_id = pick
        del state.class_rewards[owner]  # the last battle's summary keeps what was offered, as saved campaigns do
        return state, events + [Event("class-chosen", f"{adv.name} becomes {a_or_an(pack.classes[pick].name)} (novice side).",
                                      {"player": owner, "class": pick})]


def whose_turn(state):
    b = state.battle
    if not b:
        return None
    if b.asking:
        return b.asking.owner, f"b{b.no}-r{b.round}-ask-{len(b.log)}"
    if b.offers:
        return b.offers[0].owner, f"b{b.no}-r{b.round}-offer-{len(b.log)}"
    if b.choices:  # a card's choice (a delve)
        return b.choices[0].owner, f"b{b.no}-r{b.round}-choice-{b.choices[0].id}"
    if b.delve is not None and b.delve.exploring is not None and b.delve.exploring.stage == "place":
        return b.delve.exploring.owner, f"b{b.no}-r{b.round}-place-{b.delve.explorations}"
    if b.step == "adventurer" and b.turn.owner:
        t = b.turn
        return t.owner, f"b{b.no}-r{b.round}-{t.unit}"
    return None


TURN_HOOKS.append(whose_turn)
