"""The skirmish commands (/skirmish ...) and how their answers look.

Every answer after a battle action carries the map picture (warbands, the
moves and retreats drawn, who is waiting, wounds, each player's ability dice
with channelled dice marked), the initiative picture when a round began, and
names whoever must activate next, pinging them.
"""
from __future__ import annotations

from typing import Any

from engine.commands import Invocation, Opt, command
from engine.components import make_id, on_click
from engine.core import RuleError
from engine.reply import COLOR_BATTLE, COLOR_INFO, Button, Embed, Picture, Reply, clip, split_text
from engine.present import say
from engine.text import count
from rulesets.skirmish.board import ZONE_NAMES
from rulesets.skirmish.content import pack_of
from rulesets.skirmish.present.view import initiative_view, map_view, player_name
from rulesets.skirmish.rules import TABLE
from rulesets.skirmish.rules.battle import DIE
from rulesets.skirmish.state import BOT, NAME

SETTING = TABLE.handlers["campaign.settings"].args  # the bounds of this game's settings (engine.party)

PLAYER = Opt("player", str, "Act for this player (party leader only)", user=True)


async def _state(inv: Invocation):
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError("This channel has no campaign yet. Start a skirmish with /campaign new ruleset:skirmish.")
    if getattr(state, "ruleset", None) != NAME:
        raise RuleError("This channel's campaign is not a skirmish. See /help for its commands.")
    return state


def turn_line(state, inv: Invocation) -> tuple[str, str | None]:
    """Who must act now, worded with a mention, and the id to ping (never the bot)."""
    if state.phase == "muster":
        return "", None
    if state.phase == "over":
        res = state.result or {}
        win = res.get("winner")
        band = state.warbands.get(win) if win else None
        if not win:
            who = "nobody (a draw)"
        elif band is None:  # the winner has left the campaign since, their warband with them
            who = "the bot's warband" if win == BOT else f"<@{win}>'s warband (they have left the campaign since)"
        else:
            who = band.name + (", the bot's warband" if win == BOT else f" of <@{win}>")
        return f"The skirmish is over: the winner is {who}.", None
    fight = state.fight
    act = fight.active
    if act is not None:
        f = state.fighters[act.fighter]
        left = f"{count(act.actions_left, 'action')} left"
        extra = "" if act.ability_used else ", an ability may follow"
        return f"Now: <@{act.player}> is activating {f.name} ({left}{extra}; /skirmish end when done).", act.player
    ready = [f.name + (" (waiting)" if f.waiting else "") for f in state.fighters_of(fight.turn) if f.ready]
    return (f"Round {fight.round}. Now: <@{fight.turn}> activates a fighter with /skirmish activate "
            f"({', '.join(ready)}).", fight.turn)


def pictures(state, inv: Invocation, out=None) -> list[Picture]:
    pack = pack_of(state)
    seq = f"-{out.seq}" if out is not None else ""
    events = out.events if out is not None else []
    pics = [Picture("skirmish", map_view(state, pack, inv.name_of, events=events), f"skirmish-map{seq}.png")]
    if out is not None and state.fight and any(e.kind == "initiative" for e in out.events):
        # the round that began last (an action may end one round and begin the next)
        last = max(i for i, e in enumerate(events) if e.kind == "initiative")
        first = min(i for i, e in enumerate(events) if e.kind == "initiative"
                    and e.data.get("round") == events[last].data.get("round"))
        pics.append(Picture("skirmish", initiative_view(state, inv.name_of, events[first:]),
                            f"skirmish-initiative{seq}-round{state.fight.round}.png"))
    return pics


def battle_reply(inv: Invocation, out) -> Reply:
    state = out.state
    text = "\n".join(say(e) for e in out.events)
    turn, ping = turn_line(state, inv)
    body, *more = split_text(text)  # a long post's words in parts, none lost, split at a line's end
    content = body + (f"\n\n{turn}" if turn else "")
    followups = [Reply(content=part) for part in more]
    pics = pictures(state, inv, out) if state.fight is not None else []
    return Reply(content=content, pictures=pics, ping=ping, followups=followups)


def plain_reply(out, pictures: list[Picture] | None = None) -> Reply:
    """The post of an action: its words in parts split at a line's end (none lost), the pictures with the first."""
    first, *more = split_text("\n".join(say(e) for e in out.events), 1990)
    return Reply(content=first, pictures=list(pictures or []), followups=[Reply(content=part) for part in more])


# ---------------------------------------------------------------- campaign --
@command("skirmish settings", "The skirmish's points limit and number of battle rounds (leader).",
         Opt("points", int, "Points each warband may spend", **SETTING["points"].range),
         Opt("rounds", int, "Battle rounds before the points on the field decide", **SETTING["rounds"].range),
         ruleset=NAME)
async def skirmish_settings(inv: Invocation, points=None, rounds=None) -> Reply:
    state = await _state(inv)
    args = {k: v for k, v in {"points": points, "rounds": rounds}.items() if v is not None}
    if not args:
        return Reply(content=f"{state.name}: {state.settings.get('points')} points a warband, "
                             f"{state.settings.get('rounds')} battle rounds. Change them with points: or rounds:.",
                     ephemeral=True)
    if "points" in args and state.phase != "muster":
        raise RuleError("The points limit only matters while warbands muster: it can't change after /skirmish start.")
    return plain_reply(await inv.do("campaign.settings", args))


@command("skirmish fighters", "List the warbands, fighter types and abilities of this skirmish's pack.",
         ruleset=NAME)
async def skirmish_fighters(inv: Invocation) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    pack = pack_of(state if state is not None and getattr(state, "ruleset", None) == NAME else None)
    e = Embed(title=f"{pack.title}: warbands", color=COLOR_INFO)
    for fac in pack.factions.values():
        lines = []
        for t in pack.fighters.values():
            if t.faction == fac.id:
                a = t.attack
                lines.append(f"{t.id}: {t.name}{' (Wizard)' if t.wizard else ''}, {t.points} pts, Move {t.move}, "
                             f"Toughness {t.toughness}, Wounds {t.wounds}; {a.name} range {a.range}, "
                             f"{count(a.attacks, 'attack')}, Strength {a.strength}, damage {a.damage}/{a.critical}")
        e.add(f"{fac.id}: {fac.name}", "\n".join(lines))
    e.add("Abilities (paid with an ability die)", "\n".join(
        f"{a.id} [{a.cost}]{' Wizard' if a.wizard else ''}"
        f"{' ' + pack.factions[a.faction].name if a.faction else ''}: {a.text}" for a in pack.abilities.values()))
    return Reply(embeds=[e], ephemeral=True)


# ---------------------------------------------------------------- muster --
@command("skirmish warband", "Pick your warband (and name it); again with name: to rename it.",
         Opt("faction", str, "The warband, e.g. wardens or reavers (see /skirmish fighters)", required=True,
             autocomplete="skirmish-factions"),
         Opt("name", str, "Your warband's name (it keeps the one it has when you leave this out)"),
         Opt("switch", bool, "yes: change the faction of the warband you lead already (it keeps its name)"),
         PLAYER, ruleset=NAME)
async def skirmish_warband(inv: Invocation, faction, name=None, switch=None, player=None) -> Reply:
    state = await _state(inv)
    who = str(player) if player else inv.user_id
    wb = state.warbands.get(who)
    if wb is not None and state.phase == "muster":
        # A warband already led is never switched to another faction or renamed without being asked for.
        from rulesets.skirmish.rules.muster import find_faction

        pack = pack_of(state)
        new = pack.factions[find_faction(pack, faction)]
        old = pack.factions.get(wb.faction)
        own_name = old is None or wb.name != old.name  # a name the player gave it, not just its faction's
        lead = "You lead" if who == inv.user_id else "{@player} leads"
        if new.id != wb.faction and not switch and not wb.fighters:  # (with fighters: the rules say to dismiss them)
            keeps = (f"It would keep its name {wb.name}" + ("" if name else " (give another with name:)")
                     if own_name and not name else f"It would be named {name or new.name}")
            raise RuleError(f"{lead} {wb.name} ({old.name if old else wb.faction}) already. Switching to the "
                            f"{new.name} changes its faction and the fighters it may recruit. {keeps}. To switch, "
                            "repeat the command with switch:yes.", player=who)
        if not name and own_name:
            name = wb.name
        if new.id == wb.faction and (name or new.name) == wb.name:
            raise RuleError(f"{lead} {wb.name} already: nothing changes. Recruit fighters with /skirmish recruit; "
                            "rename the warband with name:.", player=who)
    return plain_reply(await inv.do("skirmish.warband", {"faction": faction, "name": name}, player=player))


@command("skirmish recruit", "Add a fighter to your warband (within the points limit).",
         Opt("fighter", str, "The fighter type, e.g. mossling (see /skirmish fighters)", required=True,
             autocomplete="skirmish-types"),
         Opt("name", str, "The fighter's own name"), PLAYER, ruleset=NAME)
async def skirmish_recruit(inv: Invocation, fighter, name=None, player=None) -> Reply:
    await _state(inv)
    return plain_reply(await inv.do("skirmish.recruit", {"fighter": fighter, "name": name}, player=player))


@command("skirmish dismiss", "Remove a fighter from your warband before the battle.",
         Opt("fighter", str, "The fighter: its id (a1), name or hex", required=True), PLAYER, ruleset=NAME)
async def skirmish_dismiss(inv: Invocation, fighter, player=None) -> Reply:
    await _state(inv)
    return plain_reply(await inv.do("skirmish.dismiss", {"fighter": fighter}, player=player))


@command("skirmish bot", "Field the bot's warband against the players (leader).",
         Opt("faction", str, "The bot's warband, e.g. reavers", required=True, autocomplete="skirmish-factions"), ruleset=NAME)
async def skirmish_bot(inv: Invocation, faction) -> Reply:
    state = await _state(inv)
    out = await inv.do("skirmish.bot", {"faction": faction})
    return plain_reply(out, pictures=[
        Picture("skirmish", map_view(out.state, pack_of(state), inv.name_of, events=out.events),
                f"skirmish-map-{out.seq}.png")])


@command("skirmish deploy", "Place a fighter in your deployment zone (no fighter: place all the rest).",
         Opt("fighter", str, "The fighter: its id (a1) or name"),
         Opt("at", str, "The hex q,r in your zone, e.g. 0,4"), PLAYER, ruleset=NAME)
async def skirmish_deploy(inv: Invocation, fighter=None, at=None, player=None) -> Reply:
    state = await _state(inv)
    out = await inv.do("skirmish.deploy", {"fighter": fighter, "at": at}, player=player)
    return plain_reply(out, pictures=[
        Picture("skirmish", map_view(out.state, pack_of(state), inv.name_of, events=out.events),
                f"skirmish-map-{out.seq}.png")])


@command("skirmish start", "Begin the battle: the first initiative roll (leader).", ruleset=NAME, renders=True)
async def skirmish_start(inv: Invocation) -> Reply:
    state = await _state(inv)
    if state.phase == "over":  # a battle was fought to its end: say so, and offer another with the same warbands
        turn, _ping = turn_line(state, inv)
        return Reply(content=f"{turn} The same warbands can fight again: a rematch makes every fighter whole and "
                             "deploys them in their zones again (the leader starts it with /skirmish rematch or "
                             "the button).",
                     buttons=[Button(make_id("rematch", inv.channel_id, f"s{await _last_seq(inv)}",
                                             campaign=inv.campaign_id),
                                     "Rematch with the same warbands", "primary")], ephemeral=True)
    return battle_reply(inv, await inv.do("skirmish.start"))


@command("skirmish rematch", "After a skirmish is over: fight again with the same warbands (leader).",
         ruleset=NAME, renders=True)
async def skirmish_rematch(inv: Invocation) -> Reply:
    state = await _state(inv)
    out = await inv.do("skirmish.rematch")
    return plain_reply(out, pictures=[
        Picture("skirmish", map_view(out.state, pack_of(state), inv.name_of), f"skirmish-{out.seq}.png")])


STALE_REMATCH = ("This rematch question is out of date: more has happened in the campaign since it was asked (a "
                 "rematch already began, say). Nothing was changed; see /skirmish status.")


async def _last_seq(inv: Invocation) -> int:
    last = await inv.service.last_entry(inv.channel_id)
    return last.seq if last is not None else 0


@on_click("rematch", campaign=True, ruleset=NAME)
async def _rematch(inv: Invocation, arg, values) -> Reply:
    # bound to its campaign and to the moment it was asked: the newest log entry then
    if arg != f"s{await _last_seq(inv)}":
        return Reply.fail(STALE_REMATCH)
    return await skirmish_rematch(inv)


# ---------------------------------------------------------------- combat --
async def _battle(inv: Invocation, type_: str, args: dict[str, Any], player) -> Reply:
    await _state(inv)
    return battle_reply(inv, await inv.do(type_, {k: v for k, v in args.items() if v is not None}, player=player))


@command("skirmish activate", "Activate one of your fighters (two actions, one ability).",
         Opt("fighter", str, "The fighter: its id (a1), name or hex", required=True, autocomplete="skirmish-mine"),
         PLAYER, ruleset=NAME, renders=True)
async def skirmish_activate(inv: Invocation, fighter, player=None) -> Reply:
    return await _battle(inv, "skirmish.activate", {"fighter": fighter}, player)


@command("skirmish move", "Move the activating fighter up to its Move in hexes.",
         Opt("to", str, "The hex to move to, q,r", required=True), PLAYER, ruleset=NAME, renders=True)
async def skirmish_move(inv: Invocation, to, player=None) -> Reply:
    return await _battle(inv, "skirmish.move", {"to": to}, player)


@command("skirmish attack", "Attack an enemy within range.",
         Opt("target", str, "The enemy: its id (b1), name or hex", required=True, autocomplete="skirmish-enemies"),
         PLAYER,
         ruleset=NAME, renders=True)
async def skirmish_attack(inv: Invocation, target, player=None) -> Reply:
    return await _battle(inv, "skirmish.attack", {"target": target}, player)


@command("skirmish retreat", "Retreat from an enemy within 1 hex: up to 3 hexes, ending clear of enemies.",
         Opt("to", str, "The hex to retreat to, q,r", required=True), PLAYER, ruleset=NAME, renders=True)
async def skirmish_retreat(inv: Invocation, to, player=None) -> Reply:
    return await _battle(inv, "skirmish.retreat", {"to": to}, player)


@command("skirmish wait", "Wait: first action, activate again later; last action, end the activation.",
         PLAYER, ruleset=NAME, renders=True)
async def skirmish_wait(inv: Invocation, player=None) -> Reply:
    return await _battle(inv, "skirmish.wait", {}, player)


@command("skirmish channel", "Channel Magic (Wizard): new double of 3, upgrade or raise a die; then a calamity roll.",
         Opt("mode", str, "new, upgrade (double→triple→quad) or raise (+3, at most 6)",
             choices=("new", "upgrade", "raise")),
         Opt("die", int, "For upgrade or raise: the ability die's number", **DIE.range), PLAYER,
         ruleset=NAME, renders=True)
async def skirmish_channel(inv: Invocation, mode=None, die=None, player=None) -> Reply:
    return await _battle(inv, "skirmish.channel", {"mode": mode or "new", "die": die}, player)


@command("skirmish ability", "Use an ability, paid with one of your ability dice (one per activation).",
         Opt("name", str, "The ability, e.g. surge (see /skirmish fighters)", required=True,
             autocomplete="skirmish-abilities"),
         Opt("die", int, "The ability die's number (as on the map)", required=True, **DIE.range),
         Opt("target", str, "For a bolt: the enemy (id, name or hex)", autocomplete="skirmish-enemies"),
         Opt("to", str, "For a dash: the hex to move to, q,r"), PLAYER, ruleset=NAME, renders=True)
async def skirmish_ability(inv: Invocation, name, die, target=None, to=None, player=None) -> Reply:
    return await _battle(inv, "skirmish.ability", {"name": name, "die": die, "target": target, "to": to}, player)


@command("skirmish end", "End the activation now (unused actions are lost).", PLAYER, ruleset=NAME, renders=True)
async def skirmish_end(inv: Invocation, player=None) -> Reply:
    return await _battle(inv, "skirmish.end", {}, player)


# ---------------------------------------------------------------- looking --
@command("skirmish map", "Show the battlefield.", ruleset=NAME, renders=True)
async def skirmish_map(inv: Invocation) -> Reply:
    state = await _state(inv)
    return Reply(pictures=[Picture("skirmish", map_view(state, pack_of(state), inv.name_of),
                                   "skirmish-map.png")])


@command("skirmish status", "Warbands, fighters, wounds, ability dice and whose turn it is.", ruleset=NAME,
         renders=True)
async def skirmish_status(inv: Invocation) -> Reply:
    return status_reply(inv, await _state(inv))


def status_reply(inv: Invocation, state) -> Reply:
    pack = pack_of(state)
    phase = {"muster": "mustering warbands", "battle": f"battle round {state.fight.round if state.fight else 1}",
             "over": "over"}[state.phase]
    e = Embed(title=f"{state.name}: {phase}", color=COLOR_BATTLE)
    limit = state.settings.get("points", pack.points)
    for o in state.owners():
        w = state.warbands[o]
        lines = []
        for f in state.fighters_of(o):
            t = pack.fighter(f.type)
            where = "out of action" if f.out else (f"on {f.hex[0]},{f.hex[1]}" if f.hex else "not deployed")
            flags = " (waiting)" if f.waiting else " (activated)" if f.activated else ""
            lines.append(f"{f.id} {f.name}: {t.wounds - f.damage}/{t.wounds} wounds left, {where}{flags}")
        if state.fight and state.fight.dice.get(o):
            lines.append("Ability dice: " + ", ".join(
                f"{n}: {d.kind} of {d.value}{' (channelled)' if d.channelled else ''}"
                for n, d in enumerate(state.fight.dice[o], 1)))
        who = player_name(o, inv.name_of)
        pts = sum(pack.fighter(state.fighters[f].type).points for f in w.fighters)
        e.add(f"{w.name} ({who}, {ZONE_NAMES[w.side]}, {pts}/{limit} pts)", "\n".join(lines) or "no fighters yet")
    turn, _ping = turn_line(state, inv)
    if turn:
        e.description = turn
    elif state.phase == "muster":
        e.description = "Pick a warband with /skirmish warband, recruit, deploy; the leader begins with /skirmish start."
    return Reply(embeds=[e], pictures=pictures(state, inv))


# ------------------------------------------------------------ autocomplete --
def choices(inv: Invocation, state, source: str, current: str) -> list[tuple[str, str]]:
    """Autocomplete: factions, fighter types of your warband, your fighters, enemies, abilities."""
    pack = pack_of(state)
    cur = (current or "").lower()
    out: list[tuple[str, str]] = []
    if source == "skirmish-factions":
        out = [(f"{f.name} ({f.id})", f.id) for f in pack.factions.values()]
    elif state is None:
        return []
    elif source == "skirmish-types":
        wb = state.warbands.get(inv.user_id)
        out = [(f"{t.name}{' (Wizard)' if t.wizard else ''}, {t.points} pts", t.id) for t in pack.fighters.values()
               if wb is None or t.faction == wb.faction]
    elif source in ("skirmish-mine", "skirmish-enemies"):
        mine = source == "skirmish-mine"
        for f in state.fighters.values():
            if f.out or (f.owner == inv.user_id) != mine:
                continue
            where = f" on {f.hex[0]},{f.hex[1]}" if f.hex else ""
            flag = " (waiting)" if f.waiting else " (activated)" if f.activated else ""
            out.append((f"{f.id} {f.name}{where}{flag}", f.id))
    elif source == "skirmish-abilities":
        act = state.fight.active if state.fight else None
        ftype = pack.fighter(state.fighters[act.fighter].type) if act else None
        out = [(f"{a.name} [{a.cost}]: {a.text}", a.id) for a in pack.abilities.values()
               if ftype is None or a.allowed(ftype)]
    return [(clip(label, 100), value) for label, value in out if cur in label.lower()][:25]
