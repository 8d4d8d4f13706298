"""Characters: made from a hero of the pack (Skills by Tier, Grit, Fame, a base attack, obtained cards, worn
gear), one per player; retired between fights to make another.  The turn order of the players is the order
they made their characters."""
from __future__ import annotations

from engine.bounds import CONFIRM, Text, Words
from engine.core import Event, RuleError
from engine.party import MAX_PARTY
from engine.text import a_or_an, clean_name, echo
from rulesets.duel.rules.table import Handler, action, subject
from rulesets.duel.state import Character


def _fighting(state, who: str) -> bool:
    return state.in_fight and (f"c:{who}" in state.fight.fighters or state.fight.step == "join")


@action
class MakeCharacter(Handler):
    type = "duel.character"
    summary = "Make your character from a hero of the pack."
    # a pack holds at most 12 obtained cards and 6 worn gear (rulesets.duel.content)
    args = {"hero": Text(), "name": Text(), "cards": Words(12), "gear": Words(6)}
    joins = True  # a player's own character seats them

    def apply(self, state, action, ctx):
        who = subject(state, action)
        pack = ctx.pack_for(state)
        if who in state.characters:
            raise RuleError(f"You already play {state.characters[who].name}. Retire them with /duel retire first.")
        if state.in_fight:
            raise RuleError("A fight is going on; make your character once it is over.")
        if who not in state.members and len(state.members) >= MAX_PARTY:
            raise RuleError(f"The party is full ({MAX_PARTY} players).")
        hero_id = str(action.args.get("hero") or "")
        hero = pack.heroes.get(hero_id)
        if hero is None:
            raise RuleError(f"There is no hero {echo(hero_id)!r} in this pack. Heroes: "
                            + ", ".join(sorted(pack.heroes)) + " (see /duel heroes).")
        name = clean_name(action.args.get("name"), "character")
        cards = action.args.get("cards")
        cards = list(hero.cards) if cards is None else [str(x) for x in cards]
        gear = action.args.get("gear")
        gear = list(hero.gear) if gear is None else [str(x) for x in gear]
        for x in cards:
            if x not in pack.cards or x in pack.hand:
                raise RuleError(f"{echo(x)!r} is not a card a character can obtain. Cards: "
                                + ", ".join(c.id for c in pack.obtainable) + ".")
        for x in gear:
            if x not in pack.gear:
                raise RuleError(f"{echo(x)!r} is not worn gear of this pack. Gear: " + ", ".join(pack.gear) + ".")
        if len(cards) > pack.max_cards:
            raise RuleError(f"A character holds at most {pack.max_cards} obtained cards (you named {len(cards)}).")
        if len(gear) > pack.max_gear:
            raise RuleError(f"A character owns at most {pack.max_gear} pieces of worn gear (you named {len(gear)}).")
        if len(set(gear)) != len(gear):
            raise RuleError("Name each piece of worn gear once.")
        events = []
        if who not in state.members:
            state.members.append(who)
            events.append(Event("joined", "{@player} joins the party.", {"player": who}))
        state.characters[who] = Character(owner=who, name=name, hero=hero.id, skills=dict(hero.skills),
                                          grit=hero.grit, fame=hero.fame,
                                          base={"skill": hero.base.skill, "defense": hero.base.defense,
                                                "damage": hero.base.damage}, cards=cards, gear=gear)
        if who not in state.seats:
            state.seats.append(who)
        skills = ", ".join(f"{s.capitalize()} {t}" for s, t in hero.skills.items())
        events.append(Event("character", f"{{@player}} makes {name}, {a_or_an(hero.name)}: {skills}; Grit {hero.grit}, Fame "
                                          f"{hero.fame}; {len(cards)} obtained cards, {len(gear)} worn gear.",
                            {"player": who}))
        return state, events


@action
class Retire(Handler):
    type = "duel.retire"
    summary = "Retire your character (between fights), to make another."
    args = {"confirm": CONFIRM}

    def apply(self, state, action, ctx):
        who = subject(state, action)
        ch = state.characters.get(who)
        if ch is None:
            raise RuleError("You have no character to retire. Make one with /duel character.")
        if _fighting(state, who):
            raise RuleError(f"{ch.name} can't retire during a fight; wait until it is over.")
        if not action.args.get("confirm"):
            raise RuleError("Retiring can't be taken back. Confirm with the button (or confirm:yes).")
        del state.characters[who]
        state.seats = [s for s in state.seats if s != who]
        return state, [Event("retired", f"{ch.name} retires. {{@player}} can make a new character with /duel character.",
                             {"player": who})]


@action
class Travel(Handler):
    type = "duel.travel"
    summary = "Your character goes to another zone (between its fights); fights called there ask it to join."
    args = {"zone": Text()}

    def apply(self, state, action, ctx):
        from rulesets.duel.rules.model import F

        who = subject(state, action)
        ch = state.characters.get(who)
        if ch is None:
            raise RuleError("You have no character to travel with. Make one with /duel character.")
        c = F(state, ctx.pack_for(state), ctx.dice, ctx.now)
        if state.rules < 2:
            raise RuleError("This campaign plays the first duel rules (revision 1), where every character stands in "
                            "one place. The party leader can move it onto the newest rules between fights with "
                            "/campaign update.")
        if not c.zoned:
            raise RuleError("This pack has no zones: every character stands in one place.")
        zone = str(action.args.get("zone") or "")
        zones = ", ".join(f"{z} ({n})" for z, n in c.pack.zones.items())
        if zone not in c.pack.zones:
            raise RuleError(f"There is no zone {echo(zone)[:40]!r}. Zones: {zones}.")
        here = c.zone_of(who)
        if zone == here:
            raise RuleError(f"{ch.name} is already at {c.zone_name(here)}. Zones: {zones}.")
        if _fighting(state, who):
            raise RuleError(f"{ch.name} can't travel during a fight it is in (or is asked to join); wait until it is "
                            "over.")
        ch.zone = zone
        return state, [Event("travel", f"{ch.name} travels from {c.zone_name(here)} to {c.zone_name(zone)}.",
                             {"player": who, "zone": zone})]
