"""Before the battle: warbands are picked from the pack within the points limit and deployed."""
from __future__ import annotations

import re

from engine.bounds import OneHex, Text
from engine.core import Event, RuleError
from engine.hexes import Hex, distance
from engine.text import clean_name, echo, slug, count
from rulesets.skirmish.board import MAX_WARBANDS, ZONE_NAMES, field_hexes, zone
from rulesets.skirmish.rules.table import Handler, action, subject
from rulesets.skirmish.rules.engine import bot_turns, start_round
from rulesets.skirmish.state import BOT, Fight, Fighter, Warband

LETTERS = "abcd"


def _muster(state) -> None:
    if state.phase == "over":
        raise RuleError("This skirmish is over. For another battle with the same warbands, the leader starts a "
                        "rematch with /skirmish rematch. See the result with /skirmish status.")
    if state.phase != "muster":
        raise RuleError("The battle has already begun: warbands can't change now. See /skirmish status.")


def find_faction(pack, text) -> str:
    key = slug(text or "")
    for f in pack.factions.values():
        if key in (f.id, slug(f.name)):
            return f.id
    raise RuleError(f"There is no warband called {echo(text)!r}. Choose one of: "
                    + ", ".join(f"{f.id} ({f.name})" for f in pack.factions.values()) + ".")


def find_type(pack, faction: str, text) -> str:
    key = slug(text or "")
    mine = [t for t in pack.fighters.values() if t.faction == faction]
    for t in mine:
        if key in (t.id, slug(t.name)):
            return t.id
    raise RuleError(f"Your warband has no fighter type {echo(text)!r}. Choose one of: "
                    + ", ".join(f"{t.id} ({t.points} pts)" for t in mine) + ".")


FIGHTER_ID = re.compile(r"^[a-z]\d+$")


def find_fighter(state, text, owner: str | None = None):
    """A fighter by id (a1), name (Mossling 2) or hex (3,4); ``owner`` limits it to one warband.

    From rules revision 2 in that order, each its own namespace: an id names its fighter whatever another is
    called (and no name reads like an id or a hex: ``check_fighter_name``).  Revision 1 took the first fighter
    whose id or name matched, in the order the store keeps them (``Skirmish.clone``), as it always played.
    """
    key = slug(text or "")
    pool = [f for f in state.fighters.values() if owner is None or f.owner == owner]
    if state.rules >= 2:
        by_id = [f for f in pool if f.id == key]
        by_name = [f for f in pool if slug(f.name) == key]
        if by_id or len(by_name) == 1:
            return (by_id or by_name)[0]
    else:
        for f in pool:
            if key in (f.id, slug(f.name)):
                return f
    try:
        h = Hex.parse(str(text))
    except ValueError:
        h = None
    if h is not None:
        for f in pool:
            if not f.out and f.hex == (h.q, h.r):
                return f
    names = ", ".join(f"{f.id} {f.name}" for f in pool if not f.out) or "none"
    raise RuleError(f"No fighter {echo(text)!r} here. Name one by id, name or hex: {names}.")


def check_fighter_name(state, name: str) -> None:
    """From rules revision 2: a fighter's own name is its own, never another fighter's id, a hex or a name
    another fighter has (so a command naming a fighter can't be pointed at another)."""
    if state.rules < 2:
        return
    key = slug(name)
    if FIGHTER_ID.match(key.replace("-", "")):
        raise RuleError(f"{name} reads like a fighter's id (a1, b2 ...), which commands use to name fighters. "
                        "Pick a name with a word in it.")
    try:
        Hex.parse(name)
    except ValueError:
        pass
    else:
        raise RuleError(f"{name} reads like a hex (q,r), which commands use to name where a fighter stands. "
                        "Pick a name with a word in it.")
    taken = next((f for f in state.fighters.values() if slug(f.name) == key), None)
    if taken is not None:
        raise RuleError(f"{taken.name} is already a fighter's name here ({taken.id}). Pick another name.")


def points_used(state, pack, owner: str) -> int:
    return sum(pack.fighter(f.type).points for f in state.fighters_of(owner))


def add_fighter(state, pack, owner: str, type_id: str, name: str | None = None) -> Fighter:
    wb = state.warbands[owner]
    n = 1
    while f"{wb.letter}{n}" in state.fighters:
        n += 1
    fid = f"{wb.letter}{n}"
    base = name or pack.fighter(type_id).name
    taken = {f.name for f in state.fighters.values()}
    label, k = base, 2
    while label in taken:
        label, k = f"{base} {k}", k + 1
    f = Fighter(id=fid, owner=owner, type=type_id, name=label)
    state.fighters[fid] = f
    wb.fighters.append(fid)
    return f


def free_side(state) -> int:
    used = {w.side for w in state.warbands.values()}
    return next(i for i in range(MAX_WARBANDS) if i not in used)


def auto_deploy(state, pack, owner: str) -> list[Fighter]:
    """Place a warband's undeployed fighters on the free hexes of its zone nearest the field's middle."""
    wb = state.warbands[owner]
    middle = Hex(pack.width // 2 - pack.height // 4, pack.height // 2)
    hexes = sorted(zone(wb.side, pack.width, pack.height), key=lambda h: (distance(h, middle), h))
    placed = []
    for f in state.fighters_of(owner):
        if f.hex is None and not f.out:
            spot = next((h for h in hexes if state.at(h.q, h.r) is None), None)
            if spot is None:
                raise RuleError(f"No free hex is left in {ZONE_NAMES[wb.side]} for {f.name}.")
            f.hex = (spot.q, spot.r)
            placed.append(f)
    return placed


@action
class ChooseWarband(Handler):
    type = "skirmish.warband"
    summary = "Pick your warband."
    args = {"faction": Text(), "name": Text()}
    joins = True  # picking a warband seats its player

    def check(self, state, action, ctx):
        _muster(state)
        pack = ctx.pack_for(state)
        who = subject(state, action)
        find_faction(pack, action.args.get("faction"))
        if action.args.get("name"):
            clean_name(action.args["name"], "warband", max_len=40)
        wb = state.warbands.get(who)
        if wb is not None and wb.fighters:
            raise RuleError("Your warband already has fighters. Dismiss them with /skirmish dismiss "
                            "before you change warband.")
        if wb is None and len(state.warbands) >= MAX_WARBANDS:
            raise RuleError(f"The field is full: it holds at most {MAX_WARBANDS} warbands.")
        if who not in state.members and len(state.members) >= MAX_WARBANDS:
            raise RuleError(f"This skirmish is full ({MAX_WARBANDS} players).")

    def apply(self, state, action, ctx):
        pack = ctx.pack_for(state)
        who = subject(state, action)
        faction = pack.factions[find_faction(pack, action.args.get("faction"))]
        name = clean_name(action.args["name"], "warband", max_len=40) if action.args.get("name") else faction.name
        events = []
        if who not in state.members:
            state.members.append(who)
            events.append(Event("joined", "{@player} joins the skirmish.", {"player": who}))
        old = state.warbands.get(who)
        if old:
            old.faction, old.name = faction.id, name
        else:
            side = free_side(state)
            state.warbands[who] = Warband(owner=who, faction=faction.id, name=name, side=side,
                                          letter=LETTERS[side])
        wb = state.warbands[who]
        kind = "" if name == faction.name else f" ({faction.name})"
        events.append(Event("warband", f"{{@player}} leads {name}{kind}, deploying on "
                                       f"{ZONE_NAMES[wb.side]}. Recruit with /skirmish recruit "
                                       f"(up to {state.settings.get('points', pack.points)} points).",
                            {"player": who}))
        return state, events


@action
class Recruit(Handler):
    type = "skirmish.recruit"
    summary = "Add a fighter to your warband."
    args = {"fighter": Text(), "name": Text()}

    def check(self, state, action, ctx):
        _muster(state)
        pack = ctx.pack_for(state)
        who = subject(state, action)
        wb = state.warbands.get(who)
        if wb is None:
            raise RuleError("Pick your warband first with /skirmish warband.")
        type_id = find_type(pack, wb.faction, action.args.get("fighter"))
        if action.args.get("name"):
            check_fighter_name(state, clean_name(action.args["name"], "fighter", max_len=24))
        limit = int(state.settings.get("points", pack.points))
        used = points_used(state, pack, who)
        cost = pack.fighter(type_id).points
        if used + cost > limit:
            raise RuleError(f"{pack.fighter(type_id).name} costs {count(cost, 'point')}; your warband has {used} of "
                            f"{limit}. Pick a cheaper fighter or dismiss one with /skirmish dismiss.")

    def apply(self, state, action, ctx):
        pack = ctx.pack_for(state)
        who = subject(state, action)
        wb = state.warbands[who]
        type_id = find_type(pack, wb.faction, action.args.get("fighter"))
        name = clean_name(action.args["name"], "fighter", max_len=24) if action.args.get("name") else None
        f = add_fighter(state, pack, who, type_id, name)
        t = pack.fighter(type_id)
        used = points_used(state, pack, who)
        return state, [Event("recruit", f"{{@player}} recruits {f.name} ({f.id}, {t.name}{', Wizard' if t.wizard else ''}"
                                        f"): {used} of {state.settings.get('points', pack.points)} points used.",
                             {"player": who, "fighter": f.id})]


@action
class Dismiss(Handler):
    type = "skirmish.dismiss"
    summary = "Remove a fighter from your warband."
    args = {"fighter": Text()}

    def check(self, state, action, ctx):
        _muster(state)
        find_fighter(state, action.args.get("fighter"), subject(state, action))

    def apply(self, state, action, ctx):
        who = subject(state, action)
        f = find_fighter(state, action.args.get("fighter"), who)
        state.fighters.pop(f.id)
        state.warbands[who].fighters.remove(f.id)
        return state, [Event("dismiss", f"{{@player}} dismisses {f.name}.", {"player": who})]


@action
class BotWarband(Handler):
    type = "skirmish.bot"
    leader_only = True
    args = {"faction": Text()}
    summary = "Field the bot's warband against the players."

    def check(self, state, action, ctx):
        _muster(state)
        pack = ctx.pack_for(state)
        fid = find_faction(pack, action.args.get("faction"))
        if BOT in state.warbands:
            raise RuleError("The bot already fields a warband in this skirmish.")
        if len(state.warbands) >= MAX_WARBANDS:
            raise RuleError(f"The field is full: it holds at most {MAX_WARBANDS} warbands.")
        cost = sum(pack.fighter(t).points for t in pack.factions[fid].bot_roster)
        limit = int(state.settings.get("points", pack.points))
        if cost > limit:
            raise RuleError(f"The bot's {pack.factions[fid].name} cost {count(cost, 'point')}, over the limit of {limit}. "
                            f"The leader can raise it: use /campaign settings points:{cost}.")

    def apply(self, state, action, ctx):
        pack = ctx.pack_for(state)
        faction = pack.factions[find_faction(pack, action.args.get("faction"))]
        side = free_side(state)
        state.warbands[BOT] = Warband(owner=BOT, faction=faction.id, name=faction.name, side=side,
                                      letter=LETTERS[side])
        for t in faction.bot_roster:
            add_fighter(state, pack, BOT, t)
        auto_deploy(state, pack, BOT)
        names = ", ".join(f.name for f in state.fighters_of(BOT))
        return state, [Event("bot-warband", f"The bot fields {faction.name} on {ZONE_NAMES[side]}: {names}.", {})]


@action
class Deploy(Handler):
    type = "skirmish.deploy"
    summary = "Place a fighter in your deployment zone."
    args = {"fighter": Text(), "at": OneHex()}

    # every refusal is raised in apply before anything changes (the engine discards the working copy)
    def apply(self, state, action, ctx):
        _muster(state)
        pack = ctx.pack_for(state)
        who = subject(state, action)
        wb = state.warbands.get(who)
        if wb is None or not wb.fighters:
            raise RuleError("Pick a warband with /skirmish warband and recruit fighters with /skirmish recruit "
                            "before you deploy.")
        mine = zone(wb.side, pack.width, pack.height)
        if not action.args.get("fighter"):
            placed = auto_deploy(state, pack, who)
            if not placed:
                raise RuleError("All your fighters are already deployed. Move one with fighter: and at:.")
            return state, [Event("deploy", "{@player} deploys " + ", ".join(f"{f.name} on {Hex(*f.hex)}"
                                                                              for f in placed) + ".", {"player": who})]
        f = find_fighter(state, action.args.get("fighter"), who)
        if not action.args.get("at"):
            raise RuleError(f"Give where {f.name} deploys with at:q,r (a hex of {ZONE_NAMES[wb.side]}).")
        try:
            h = Hex.parse(str(action.args["at"]))
        except ValueError as exc:
            raise RuleError(str(exc)) from None
        if h not in field_hexes(pack.width, pack.height):
            raise RuleError(f"Hex {h} is off the battlefield. Pick a hex of {ZONE_NAMES[wb.side]}.")
        if h not in mine:
            raise RuleError(f"Hex {h} is outside your deployment zone ({ZONE_NAMES[wb.side]}, shaded on "
                            "/skirmish map). Pick a hex there.")
        other = state.at(h.q, h.r)
        if other is not None and other is not f:
            raise RuleError(f"Hex {h} is taken by {other.name}. Pick a free hex.")
        f.hex = (h.q, h.r)
        return state, [Event("deploy", f"{{@player}} deploys {f.name} on {h}.", {"player": who})]


@action
class Start(Handler):
    type = "skirmish.start"
    leader_only = True
    args: dict = {}
    summary = "Begin the battle: the first initiative roll."

    def check(self, state, action, ctx):
        _muster(state)
        bands = list(state.warbands.values())
        if len(bands) < 2:
            raise RuleError("A skirmish needs two warbands: another player picks one with /skirmish warband, "
                            "or the leader fields the bot's with /skirmish bot.")
        for wb in sorted(bands, key=lambda w: w.side):
            if not wb.fighters:
                raise RuleError("{@player}'s warband has no fighters yet: they recruit with /skirmish recruit.",
                                player=wb.owner)
            lost = [state.fighters[f].name for f in wb.fighters if state.fighters[f].hex is None]
            if lost:
                raise RuleError(f"{', '.join(lost)} of {{@player}} {'is' if len(lost) == 1 else 'are'} not deployed "
                                "yet: use /skirmish deploy.", player=wb.owner)

    def apply(self, state, action, ctx):
        pack = ctx.pack_for(state)
        state.phase = "battle"
        state.fight = Fight()
        events = [Event("battle", f"The battle begins: {' against '.join(state.warbands[o].name for o in state.owners())}, "
                                  f"{state.settings.get('rounds', pack.rounds)} battle rounds.", {})]
        start_round(state, pack, ctx.dice, events, 1)
        bot_turns(state, pack, ctx.dice, events)
        return state, events


@action
class Rematch(Handler):
    """After a skirmish is over: the same warbands fight again, every fighter whole and back in its zone."""

    type = "skirmish.rematch"
    args: dict = {}
    leader_only = True
    summary = "Fight again with the same warbands."

    def check(self, state, action, ctx):
        if state.phase == "muster":
            raise RuleError("The warbands are mustering for a battle already: the leader begins it with "
                            "/skirmish start.")
        if state.phase != "over":
            raise RuleError("The battle is still being fought: a rematch comes when it is over. "
                            "See /skirmish status.")

    def apply(self, state, action, ctx):
        pack = ctx.pack_for(state)
        before = state.result or {}
        state.phase, state.fight, state.result = "muster", None, {}
        for f in state.fighters.values():
            f.hex, f.damage, f.out, f.activated, f.waiting = None, 0, False, False, False
        for owner in state.owners():
            auto_deploy(state, pack, owner)
        bands = " against ".join(state.warbands[o].name for o in state.owners())
        last = ("after a draw" if not before.get("winner") else
                f"after {state.warbands[before['winner']].name}'s win" if before.get("winner") in state.warbands
                else "")
        return state, [Event("rematch", f"Rematch{' ' + last if last else ''}: {bands}. Every fighter is whole "
                                        "again and back in its deployment zone; move one with /skirmish deploy "
                                        "fighter: at:, and the leader begins with /skirmish start.", {})]
