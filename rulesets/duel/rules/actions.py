"""The fight's actions: call a fight, answer the join question, place cards, pass, declare a Base Attack,
reroll with Fame (or not), and the time-out that gives a question's default answer.

Every handler refuses before it changes anything, with a message naming the fix; the engine works on a copy,
so a refusal leaves the campaign untouched.
"""
from __future__ import annotations

from engine.bounds import KEY, Int, Player, Text, Words
from engine.core import RuleError
from engine.prompts import PROMPT_ARG
from engine.text import count
from rulesets.duel.rules import flow
from rulesets.duel.rules.model import F
from rulesets.duel.rules.prompts import DEFAULTS, open_prompt
from rulesets.duel.rules.table import Handler, action, subject

NO_FIGHT = "There is no fight going on. Start one with /duel fight monster: (or rival: to challenge a player)."
STALE = "That question was already answered (or a newer one replaced it). Nothing was changed; see /duel status."


def begin(state, ctx) -> F:
    """The action's view of the fight; the pictures of the last action are cleared (this one makes its own)."""
    c = F(state, ctx.pack_for(state), ctx.dice, ctx.now)
    if state.fight is not None:
        state.fight.frames = []
    return c


def live_fight(state):
    if state.fight is None or state.fight.over:
        raise RuleError(NO_FIGHT)
    return state.fight


def asked(state, action, kind: str, who: str):
    """The open prompt of ``kind`` for ``who``; refused in words when another question waits."""
    fight = live_fight(state)
    p = open_prompt(state)
    given = action.args.get(PROMPT_ARG)
    if given and (p is None or p.id != given):
        raise RuleError(STALE)
    if p is None:
        raise RuleError("The fight is not waiting for anyone right now; see /duel status.")
    if p.kind != kind:
        raise RuleError(f"The fight is waiting for {WAITS[p.kind]} from {{@player}}, not this.", player=p.owner)
    if p.owner != who:
        mine = fight.fighters.get(f"c:{who}")
        if mine is None and kind not in ("join", "monster"):
            raise RuleError("Your character is not in this fight: players outside a fight can't affect it.")
        raise RuleError(f"It is {{@player}}'s turn for {WAITS[kind]}; wait for yours.", player=p.owner)
    return p


WAITS = {"join": "the join question", "place": "placing cards", "declare": "a Base Attack's declaration",
         "fame": "a Fame reroll", "monster": "the monster's dice"}
FIRST_RULES = ("This campaign plays the first duel rules (revision 1), where every character stands in one place and "
               "the bot runs every monster. The party leader can move it onto the newest rules between fights with "
               "/campaign update.")


@action
class CallFight(Handler):
    type = "duel.fight"
    summary = "Call a fight against a monster of the bestiary, or challenge another player's character."
    args = {"monster": Text(), "rival": Player(), "zone": Text(), "runner": Player()}

    def apply(self, state, action, ctx):
        if state.in_fight:
            raise RuleError("A fight is already going on; finish it first (see /duel status).")
        c = begin(state, ctx)
        who = action.actor
        monster, rival = action.args.get("monster"), action.args.get("rival")
        zone, runner = str(action.args.get("zone") or ""), str(action.args.get("runner") or "")
        if bool(monster) == bool(rival):
            raise RuleError("Name either monster: (from the bestiary, /duel bestiary) or rival: (a player to challenge).")
        if not [o for o in state.seats if o in state.characters]:
            raise RuleError("Nobody has a character yet. Make one with /duel character first.")
        if (zone or runner) and state.rules < 2:
            raise RuleError(FIRST_RULES)
        if zone and not c.zoned:
            raise RuleError("This pack has no zones: every character stands in one place. Leave zone: out.")
        if zone and zone not in c.pack.zones:
            raise RuleError(f"There is no zone {zone[:40]!r}. Zones: " + ", ".join(
                f"{z} ({n})" for z, n in c.pack.zones.items()) + ".")
        if runner and rival:
            raise RuleError("runner: is for a monster fight (someone runs the monster); a challenge has none.")
        if runner and runner not in state.members:
            raise RuleError("{@runner} is not in the party: the monster's runner is a member (or leave runner: out "
                            "and the bot runs it).", runner=runner)
        if monster:
            if monster not in c.pack.monsters:
                raise RuleError(f"There is no monster {monster!r} in the bestiary. See /duel bestiary.")
            if c.zoned:
                zone = zone or (c.zone_of(who) if who in state.characters else next(iter(c.pack.zones)))
                if not any(c.zone_of(o) == zone for o in state.seats if o in state.characters):
                    raise RuleError(f"No character stands at {c.zone_name(zone)}, so nobody could join. "
                                    + where_they_stand(c) + " Name another zone with zone:, or travel there with "
                                    "/duel travel zone:.")
            flow.start_fight(c, "monster", who, monster=monster, zone=zone, runner=runner)
        else:
            if who not in state.characters:
                raise RuleError("You need a character to challenge someone. Make one with /duel character.")
            if rival == who:
                raise RuleError("You can't challenge yourself; name another player's character.")
            if rival not in state.characters:
                raise RuleError("{@rival} has no character to fight with.", rival=str(rival))
            if c.zoned:
                here = c.zone_of(who)
                if zone and zone != here:
                    raise RuleError(f"A challenge is fought where your character stands, {c.zone_name(here)}. "
                                    "Leave zone: out (or travel first with /duel travel zone:).")
                theirs = c.zone_of(str(rival))
                if theirs != here:
                    raise RuleError(f"{state.characters[str(rival)].name} is at {c.zone_name(theirs)} and "
                                    f"{state.characters[who].name} at {c.zone_name(here)}: a challenge is fought in "
                                    f"one zone. Travel there first with /duel travel zone:{theirs}.")
                zone = here
            flow.start_fight(c, "rivals", who, rival=str(rival), zone=zone)
        return state, c.events


def where_they_stand(c: F) -> str:
    """'Brann is at Mill Ford; Oda at Crossroads Inn.'"""
    spots = [f"{ch.name} at {c.zone_name(c.zone_of(o))}" for o in c.state.seats
             if (ch := c.state.characters.get(o)) is not None]
    return ("Characters: " + "; ".join(spots) + ".") if spots else ""


@action
class Join(Handler):
    type = "duel.join"
    summary = "Answer whether to join the fight (and on which side, wearing which gear)."
    args = {"choice": Text(80), PROMPT_ARG: KEY}

    def apply(self, state, action, ctx):
        who = subject(state, action)
        asked(state, action, "join", who)
        c = begin(state, ctx)
        flow.answer_join(c, who, str(action.args.get("choice") or ""))
        return state, c.events


@action
class Place(Handler):
    type = "duel.place"
    summary = "Place up to two cards from your hand face-down."
    # the rules refuse more than two cards in words; a hand never holds more than the bound
    args = {"cards": Words(12), "target": Text(80), "ally": Text(80), "base": Words(4, 20), PROMPT_ARG: KEY}

    def apply(self, state, action, ctx):
        if action.on_behalf and action.on_behalf != action.actor:
            raise RuleError("Only a card's owner can place it: a hand is secret. The party leader can let an absent "
                            "player place no card with /duel pass player:.")
        who = action.actor
        asked(state, action, "place", who)
        c = begin(state, ctx)
        cards = action.args.get("cards") or []
        if not isinstance(cards, list) or not all(isinstance(x, str) for x in cards):
            raise RuleError("Name the cards to place, e.g. cards:lure,focus (see your hand with /duel hand).")
        unknown = [x for x in cards if x not in c.pack.cards]
        if unknown:
            raise RuleError(f"There is no card {unknown[0]!r}; see your hand with /duel hand.")
        base = action.args.get("base") or []
        flow.place_cards(c, who, list(cards), target=str(action.args.get("target") or ""),
                         ally=str(action.args.get("ally") or ""), declare=list(base) if isinstance(base, list) else [])
        return state, c.events


@action
class Pass(Handler):
    type = "duel.pass"
    summary = "Place no card this round (the party leader may do it for an absent player)."
    args = {PROMPT_ARG: KEY}

    def apply(self, state, action, ctx):
        who = subject(state, action)
        asked(state, action, "place", who)
        c = begin(state, ctx)
        flow.place_cards(c, who, [])
        return state, c.events


@action
class Declare(Handler):
    type = "duel.declare"
    summary = "Declare what a revealed Base Attack does: attack, or take the Priority token."
    args = {"use": Text(20), PROMPT_ARG: KEY}

    def apply(self, state, action, ctx):
        who = subject(state, action)
        asked(state, action, "declare", who)
        c = begin(state, ctx)
        flow.answer_declare(c, who, str(action.args.get("use") or ""))
        return state, c.events


@action
class Reroll(Handler):
    type = "duel.reroll"
    summary = "Spend 2 Fame to reroll one die of the roll (or pass)."
    args = {"die": Int(1, 12), PROMPT_ARG: KEY}  # a roll has at most 5 dice (a Skill's highest Tier)

    def apply(self, state, action, ctx):
        who = subject(state, action)
        asked(state, action, "fame", who)
        c = begin(state, ctx)
        die = action.args.get("die")
        if die in (None, "", "pass", 0):
            flow.decline(c, who)
        else:
            try:
                n = int(die)
            except (TypeError, ValueError):
                raise RuleError("die: is the number of the die to reroll (1, 2, ...), or leave it out to pass.") from None
            flow.reroll(c, who, n)
        return state, c.events


@action
class RollForMonster(Handler):
    type = "duel.roll"
    summary = "The monster's runner rolls its dice: its procedure die, or its attack's dice."
    args = {PROMPT_ARG: KEY}

    def apply(self, state, action, ctx):
        who = subject(state, action)
        asked(state, action, "monster", who)
        c = begin(state, ctx)
        flow.roll_for_monster(c, who)
        return state, c.events


@action
class Timeout(Handler):
    """A question nobody answered in time: the bot gives its default answer in the leader's name (the log shows a
    time-out).  It checks the question itself, so a late or repeated firing changes nothing."""

    type = "duel.timeout"
    leader_only = True
    args = {"ask": KEY, PROMPT_ARG: KEY}
    summary = "Nobody answered in time: the question's default answer applies."

    def apply(self, state, action, ctx):
        live_fight(state)
        p = open_prompt(state)
        key = str(action.args.get("ask") or action.args.get(PROMPT_ARG) or "")
        if p is None or p.id != key:
            raise RuleError("That question was already answered; nothing timed out.")
        if p.deadline is None:
            raise RuleError("That question waits without a time-out (the leader set it to 0).")
        c = begin(state, ctx)
        name = p.data.get("name") or "The player"
        if p.kind == "place":
            hours = int(state.settings.get("place_hours", 0) or 0)
            c.say("timeout", f"⏰ {name} placed no card within {count(hours, 'hour')}, so places none this round.",
                  player=p.owner)
            flow.place_cards(c, p.owner, [])
        elif p.kind == "monster":
            minutes = int(state.settings.get("ask_minutes", 0) or 0)
            c.say("timeout", f"⏰ {{@player}} did not roll for the {p.data.get('monster') or 'monster'} within "
                             f"{count(minutes, 'minute')}, so the bot rolls for them.", player=p.owner)
            flow.roll_for_monster(c, p.owner, timed_out=True)
        else:
            minutes = int(state.settings.get("ask_minutes", 0) or 0)
            words = {"join": "stays out" if p.default == "out" else "fights",
                     "declare": "attacks with the Base Attack", "fame": "rerolls nothing"}[p.kind]
            c.say("timeout", f"⏰ {name} did not answer within {count(minutes, 'minute')}, so {words}.", player=p.owner)
            if p.kind == "join":
                flow.answer_join(c, p.owner, p.default)
            elif p.kind == "declare":
                flow.answer_declare(c, p.owner, DEFAULTS["declare"])
            else:
                flow.decline(c, p.owner)
        return state, c.events

