"""The day's own actions: starting a session, the route and its vote, the rest and trading, picks, the time-out,
the day's setting, and stacking cards (the local table and tests)."""
from __future__ import annotations

from engine.actions import Handler
from engine.bounds import KEY, Flag, Hexes, Int, Numbers, OneHex, OneOf, Text, Words
from engine.core import Event, RuleError
from engine.hexes import Hex
from engine.text import count, echo
from rulesets.tes import args as args_
from rulesets.tes.cards import resolve as cards
from rulesets.tes.cards import social
from rulesets.tes.day import flow, rest, setup
from rulesets.tes.quest import sides
from rulesets.tes.session import end as session_end
from rulesets.tes.session import setup as session_setup
from rulesets.tes.day.prompts import prompt_id
from rulesets.tes.outcomes.asks import MAX_DAY_HOURS, close
from rulesets.tes.outcomes.context import day_ctx
from rulesets.tes.outcomes.handlers import DayHandler, drive
from rulesets.tes.overland.geo import find_place, route_to
from rulesets.tes.town import features as town_features
from rulesets.tes.town import visit as town


def _difficulty(value) -> str | None:
    """A difficulty named at ``/day start`` (p.49: it may change from one session to the next), or None."""
    from rulesets.tes.state import DIFFICULTIES

    if value in (None, ""):
        return None
    d = str(value).strip().lower()
    if d not in DIFFICULTIES:
        raise RuleError(f"`difficulty:` is Apprentice, Adept or Expert (you gave {echo(value)}).")
    return d


class Start(Handler):
    type = "day.start"
    leader_only = True
    undoable = False
    summary = "Leader: start a session of days in a province (set-up, then day 1)."
    args = {"province": Text(), "stack": Words(40), "difficulty": Text()}
    host_options = {"stack": "stacked cards (`/day start stack:`, a local-table and test tool)"}

    def check(self, state, action, ctx):
        _difficulty(action.args.get("difficulty"))
        if state.battle is not None:
            raise RuleError("Finish the battle first: a session starts between battles.")
        if state.days is not None and state.days.phase != "over":
            raise RuleError(f"A session is already under way (day {state.day_dial}). See `/day status`.")
        if not state.adventurers:
            raise RuleError("Nobody has an adventurer yet. Create them with `/adventurer create` first.")
        missing = [m for m in state.members if m not in state.adventurers]
        if missing:
            raise RuleError("Every player needs an adventurer before the session starts: {@player} has none "
                            "(`/adventurer create`).", player=missing[0])
        session_setup.check(state, ctx.pack_for(state), action.args.get("province"))

    def apply(self, state, action, ctx):
        c = day_ctx(state, ctx)
        province = session_setup.check(state, c.pack, action.args.get("province"))
        difficulty = _difficulty(action.args.get("difficulty"))
        if difficulty and difficulty != state.difficulty:  # it may change between sessions (p.49)
            c.say("difficulty", f"The difficulty changes from {state.difficulty.title()} to {difficulty.title()} "
                                "for this session.", difficulty=difficulty)
            state.difficulty = difficulty
        setup.start(c, province, stacked=[str(x) for x in action.args.get("stack") or []])
        session_setup.begin(c)
        drive(c)
        return state, c.events


class Route(DayHandler):
    type = "day.route"
    when = "The leader proposes the route in the Overland Phase."
    kinds = ("route", "vote")
    mine = False
    leader_only = True
    summary = "Leader: propose today's route (a destination or the hexes in order)."
    # to: a hex, or a town's or a landmark's name; path: the hexes in order (a day's route is far shorter)
    args = {"to": OneOf((OneHex(), Text())), "path": Hexes(), "stay": Flag()}

    def step(self, c, owner, args):
        s = c.s
        if s.proposal is not None and s.ask.kind == "vote" and not (args.get("path") or args.get("to")):
            raise RuleError("A route is already proposed; give a new one with `to:` or `path:`.")
        if args.get("stay"):
            path = []
        elif args.get("path"):
            path = [Hex(q, r) for q, r in args_.route(args["path"], "path")]
        elif args.get("to"):
            target = args["to"]
            goal = Hex(int(target[0]), int(target[1])) if isinstance(target, (list, tuple)) else \
                find_place(c.province, str(target))
            path = route_to(c.province, s, goal)
        else:
            raise RuleError("Give the route: `to:` a town, a landmark's name or a hex (q,r), or `path:` the hexes in "
                            "order (\"3,5 3,4 3,3\"); `stay:yes` to stay.")
        if c.state.rules >= 4 and path:
            _finishable(c, path)
        s.proposal = None
        flow.propose(c, path)


def _finishable(c, path) -> None:
    """Rules revision 4: a route the party could not finish (a cooldown track would fill during its fatigue
    movement, a closed town) is refused to the leader when proposed, not to the first player who agrees.  The
    route is walked on a copy of the campaign with dice of its own: nothing of the campaign changes."""
    from engine.core import Dice
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.overland import travel

    trial = DayCtx(c.state.clone(), c.pack, Dice(0, 0, []), now=c.now)
    try:
        travel.move(trial, path)
    except RuleError as exc:
        raise RuleError("That route can't be finished today: " + exc.template
                        + " Propose a shorter one with `/day route`.", **exc.people) from None


class Vote(DayHandler):
    type = "day.vote"
    when = "The party agrees or objects while a proposed route waits."
    kinds = ("vote",)
    summary = "Agree with the proposed route, or object to it."
    args = {"object": Flag(), "reason": Text()}

    def step(self, c, owner, args):
        s = c.s
        adv = c.adv(owner)
        if args.get("object"):
            reason = str(args.get("reason") or "").strip()[:200]
            s.proposal = None
            close(c)
            c.say("route-objection", f"✋ {adv.name} objects to the route" + (f": {reason}" if reason else ".")
                  + " {@leader} proposes another with `/day route`.", player=owner, leader=c.state.leader)
            flow.open_ask(c, "route", [c.state.leader])
            return
        s.ask.owners.remove(owner)
        c.say("route-agree", f"{adv.name} agrees with the route.", player=owner)
        if not s.ask.owners:
            flow.go(c, [Hex(*p) for p in s.proposal.path[1:]])


class Rest(DayHandler):
    type = "day.rest"
    when = "The Adventurers Rest comes in the End of Day Phase."
    kinds = ("rest",)
    no_session = ("The Adventurers Rest comes at a session's End of Day now: the party leader starts a session "
                  "with `/day start`.")
    summary = "The Adventurers Rest: heal and remove the cooldown dice you choose (End of Day)."
    # dice: places on the cooldown track (the rules say which exist); item: Expert's discard
    args = {"dice": Numbers(0, 99, 40), "item": Text(), "use": Flag(), "skip": Flag()}

    def not_yours(self, c, owner):
        if owner in c.s.rested:
            return f"{c.adv(owner).name} has already rested tonight."
        return super().not_yours(c, owner)

    def step(self, c, owner, args):
        rest.take(c, owner, args.get("dice"), args.get("item"), bool(args.get("use")), bool(args.get("skip")))


class Trade(DayHandler):
    type = "day.trade"
    summary = "Give an item to another adventurer during the Adventurers Rest."
    args = {"item": Text(), "to": Text()}

    def step(self, c, owner, args):
        if owner not in c.state.adventurers:
            raise RuleError("You have no adventurer in this party.")
        rest.trade(c, owner, args.get("item"), args.get("to"))


class Pick(DayHandler):
    type = "day.pick"
    when = "A pick answers a card's or a town's question."
    kinds = ("chosen", "either", "town-effect")
    summary = "Answer the day's question: who gains it, your option, or the town effect's choice."
    args = {"pick": OneOf((Int(0, 99), Text()))}  # an option's number, or an adventurer's name or id

    def step(self, c, owner, args):
        kind = c.s.ask.kind
        pick = args.get("pick")
        if kind == "chosen":
            cards.choose_adventurer(c, c.s.encounter, _member(c, pick))
        elif kind == "either":
            cards.pick_option(c, c.s.encounter, owner, pick)
        else:
            town.effect_choice(c, pick)


def _member(c, text) -> str:
    from engine.text import slug

    raw = str(text or "").strip().lstrip("@")
    if raw in c.state.adventurers:
        return raw
    hit = next((o for o, a in c.state.adventurers.items() if slug(a.name) == slug(raw)), None)
    if hit is None:
        raise RuleError("Choose an adventurer of the party: " + ", ".join(a.name for a in c.state.adventurers.values())
                        + ".")
    return hit


class Timeout(DayHandler):
    type = "day.timeout"
    leader_only = True
    undoable = False
    summary = "Nobody answered the day's question in time: its default applies."
    args = {"ask": KEY, "prompt": KEY}

    def apply(self, state, action, ctx):
        s = state.days
        if s is not None and s.phase == "over" and s.ask is not None and s.ask.kind == "next-quest":
            c = day_ctx(state, ctx)  # the epilogue's question comes after the session's end
            if prompt_id(s) != str(action.args.get("ask") or action.args.get("prompt") or ""):
                raise RuleError("That question was already answered; nothing timed out.")
            c.say("timeout", "⏰ No answer from the party leader in time: the default applies.")
            session_end.choose_next(c, 1)
            return state, c.events
        return super().apply(state, action, ctx)

    def step(self, c, owner, args):
        s = c.s
        key = str(args.get("ask") or args.get("prompt") or "")
        if s.ask is None or prompt_id(s) != key:
            raise RuleError("That question of the day was already answered; nothing timed out.")
        ask = s.ask
        names = ", ".join(c.adv(o).name if o in c.state.adventurers else "the party leader" for o in ask.owners)
        c.say("timeout", f"⏰ No answer from {names} in time: the default applies.")
        kind = ask.kind
        if kind == "route":
            flow.go(c, [])
        elif kind == "vote":
            flow.go(c, [Hex(*p) for p in s.proposal.path[1:]])
        elif kind == "card":
            card = cards.card_of(c, s.encounter)
            open_ = [ch for ch in cards.open_choices(c, s.encounter, card)
                     if ch.outcome != "delve" or cards.delve_ready(c)]
            cards.take(c, s.encounter, open_[0].number)
        elif kind == "chosen":
            lead = c.state.leader if c.state.leader in c.state.adventurers else c.party()[0]
            cards.choose_adventurer(c, s.encounter, lead)
        elif kind == "either":
            for o in list(ask.owners):
                cards.pick_option(c, s.encounter, o, 1)
        elif kind == "check-dice":
            for o in list(ask.owners):
                if s.ask is None or s.ask.kind != "check-dice":
                    break
                social.roll(c, s.encounter, o, [])
        elif kind == "check-tenacity":
            for o in list(ask.owners):
                if s.ask is None or s.ask.kind != "check-tenacity":
                    break
                social.spend(c, s.encounter, o, 0)
        elif kind == "town-effect":
            town.effect_choice(c, 1)
        elif kind == "town":
            for o in list(ask.owners):
                town_features.done(c, o)
            if c.state.rules >= 4 and s.town is not None:  # a group action given up gave actions back: unused too
                for o in town.still_acting(c, s.town):
                    town_features.done(c, o)
            close(c)
        elif kind == "reward":
            close(c)
        elif kind == "rest":
            for o in list(ask.owners):
                expert = c.state.difficulty == "expert"
                rest.take(c, o, None, None, False, skip=expert)
        elif kind == "guild":
            session_setup.choose_guild(c, 1)
        elif kind == "side-quest":
            sides.accept(c, ask.owners[0], ask.data.get("default"))
        elif kind == "side-discard":
            sides.discard(c, ask.data.get("default"), asked=True)


class Settings(Handler):
    type = "day.settings"
    leader_only = True
    summary = "Leader: how many hours a question of the day waits before its default applies."
    args = {"hours": Int(0, MAX_DAY_HOURS)}

    def apply(self, state, action, ctx):
        try:
            hours = int(action.args.get("hours"))
        except (TypeError, ValueError):
            raise RuleError(f"`hours:` is a whole number from 0 (wait) to {MAX_DAY_HOURS}.") from None
        if not 0 <= hours <= MAX_DAY_HOURS:
            raise RuleError(f"`hours:` is a whole number from 0 (wait) to {MAX_DAY_HOURS}.")
        state.settings["day_hours"] = hours
        words = "wait for their answers" if hours == 0 else f"wait {count(hours, 'hour')}, then apply their defaults"
        return state, [Event("setting", f"Questions of the day now {words} (from the next question on).",
                             {"hours": hours})]


class Stack(Handler):
    type = "day.stack"
    leader_only = True
    undoable = False
    summary = "Leader, local table and tests: the next cards drawn from their decks are these."
    args = {"cards": Words(40)}
    host_only = "stacked cards (`/day stack`, a local-table and test tool)"

    def apply(self, state, action, ctx):
        s = state.days
        if s is None:
            raise RuleError("No session is running. The party leader starts one with `/day start`.")
        pack = ctx.pack_for(state)
        cards_ = [str(x) for x in action.args.get("cards") or []]
        if not cards_:
            raise RuleError("Name the cards: overland cards, item cards or skill line tokens, e.g. `sm-p01`.")
        camp = getattr(pack, "campaign", None)
        quest_cards = set(camp.guilds) | set(camp.side_quests) if camp is not None else set()
        for card in cards_:
            if card not in pack.overland_cards and card not in pack.items and card not in pack.lines \
                    and card not in quest_cards:
                raise RuleError(f"`{card}` is not an overland card, an item, a skill line, a guild card or a side "
                                "quest of this pack.")
        s.stacked.extend(cards_)
        return state, [Event("stacked", f"The next cards drawn are set: {', '.join(cards_)}.",
                             {"cards": cards_})]


ACTIONS = [Start, Route, Vote, Rest, Trade, Pick, Timeout, Settings, Stack]
