"""The engage commands (/mini ...) and how their answers look.

Every answer after a battle action carries the map picture (the latest engage drawn: its declared path, where the
unit went, the distance found, the interceptor, who made room; every unit's wounds and states), names whoever
must act next and pings them; while an engage waits for the intercept answer, the question's buttons and menu.
"""
from __future__ import annotations

from typing import Any

from engine.commands import Invocation, Opt, command, group
from engine.components import on_click
from engine.core import RuleError
from engine.present import say
from engine.prompts import answer
from engine.reply import COLOR_BATTLE, COLOR_INFO, Embed, Picture, Reply, clip, split_text
from engine.text import count
from rulesets.engage.content import pack_of
from rulesets.engage.present.prompts import ARG, CLICK, OLD, STALE, _not_yours, attach
from rulesets.engage.present.view import map_view, player_name
from rulesets.engage.rules.core import PHASE_NAMES, can_act, label, names
from rulesets.engage.rules.muster import ZONE_NAMES
from rulesets.engage.rules.table import TABLE
from rulesets.engage.board import board_of
from rulesets.engage.state import NAME

PLAYER = Opt("player", str, "Act for this player (party leader only)", user=True)
SETTING = TABLE.handlers["campaign.settings"].args  # the bounds of this game's settings (engine.party)
group("mini", "Miniatures: the engage game (ruleset:engage)")


async def _state(inv: Invocation):
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError("This channel has no campaign yet. Start an engage game with /campaign new ruleset:engage.")
    if getattr(state, "ruleset", None) != NAME:
        raise RuleError("This channel's campaign is not an engage game. See /help for its commands.")
    return state


def turn_line(state, inv: Invocation) -> tuple[str, str | None]:
    """Who must act now, worded with a mention, and the id to ping."""
    if state.phase == "muster":
        return "", None
    if state.phase == "over":
        win = (state.result or {}).get("winner")
        return ("The battle is over: " + (f"<@{win}> wins." if win else "a draw.")), None
    if state.pending:
        owner = state.pending["owner"]
        return (f"Now: <@{owner}>, does a unit intercept? Answer with the menu or the button below, or "
                f"/mini intercept unit: (unit:none for no).", owner)
    t = state.turn
    pack = pack_of(state)
    acting = can_act(state, pack, board_of(pack), t.phase)
    who = f" ({names(acting)} may act)" if acting else ""
    fix = {"engage": "/mini engage", "move": "/mini move", "shoot": "/mini shoot",
           "cast": "/mini cast"}.get(t.phase, "")
    return (f"Turn {t.number}, {PHASE_NAMES[t.phase]} phase{who}. Now: <@{t.player}>: {fix} or /mini next "
            f"(end the phase) or /mini end (end the turn).", t.player)


def pictures(state, inv: Invocation, out=None) -> list[Picture]:
    pack = pack_of(state)
    seq = out.seq if out is not None else 0
    kind = "engage" if state.last and state.last.get("result") else "map"
    return [Picture("engage", map_view(state, pack, inv.name_of), f"mini-{kind}-{seq}.png")]


async def battle_reply(inv: Invocation, out) -> Reply:
    state = out.state
    text = "\n".join(say(e) for e in out.events)
    turn, ping = turn_line(state, inv)
    body, *more = split_text(text)  # a long post's words in parts, none lost, split at a line's end
    content = body + (f"\n\n{turn}" if turn else "")
    followups = [Reply(content=part) for part in more]
    reply = Reply(content=content, pictures=pictures(state, inv, out) if state.phase != "muster" else [],
                  ping=ping, followups=followups)
    await attach(inv, out, reply)
    return reply


def plain_reply(out, pictures: list[Picture] | None = None) -> Reply:
    """The post of an action: its words in parts split at a line's end (none lost), the pictures with the first."""
    first, *more = split_text("\n".join(say(e) for e in out.events), 1990)
    return Reply(content=first, pictures=list(pictures or []), followups=[Reply(content=part) for part in more])


# ---------------------------------------------------------------- the pack --
@command("mini units", "The unit types and spells of this game's pack.", ruleset=NAME)
async def mini_units(inv: Invocation) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    pack = pack_of(state if state is not None and getattr(state, "ruleset", None) == NAME else None)
    e = Embed(title=f"{pack.title}: units ({pack.points} points a side)", color=COLOR_INFO)
    for t in pack.units.values():
        spells = f" Spells: {', '.join(pack.spells[s].name for s in t.spells)}." if t.spells else ""
        e.add(f"{t.id}: {t.name}, {t.points} pts", f"{t.text}{spells}")
    e.add("Spells", "\n".join(f"{s.id}: {s.name}. {s.text}" for s in pack.spells.values()))
    return Reply(embeds=[e], ephemeral=True)


@command("mini settings", "Points a side, rounds and the intercept time-out (leader).",
         Opt("points", int, "Points each side may field", **SETTING["points"].range),
         Opt("rounds", int, "Rounds before the units standing decide", **SETTING["rounds"].range),
         Opt("intercept_minutes", int, "Minutes to answer an intercept question (0: wait)",
             **SETTING["intercept_minutes"].range),
         ruleset=NAME)
async def mini_settings(inv: Invocation, points=None, rounds=None, intercept_minutes=None) -> Reply:
    state = await _state(inv)
    args = {k: v for k, v in {"points": points, "rounds": rounds, "intercept_minutes": intercept_minutes}.items()
            if v is not None}
    if not args:
        s = state.settings
        return Reply(content=f"{state.name}: {count(s.get('points'), 'point')} a side, {count(s.get('rounds'), 'round')}, "
                             f"{count(s.get('intercept_minutes'), 'minute')} to answer an intercept question (0: no time-out). "
                             "Change them with points:, rounds: or intercept_minutes:.", ephemeral=True)
    if "points" in args and state.phase != "muster":
        raise RuleError("The points limit only matters while units are fielded: it can't change after /mini start.")
    return plain_reply(await inv.do("campaign.settings", args))


# ---------------------------------------------------------------- muster --
@command("mini field", "Field a unit in your deployment zone (your first one joins you to the game).",
         Opt("unit", str, "The unit type, e.g. reed-spear (see /mini units)", required=True, autocomplete="mini-types"),
         Opt("at", str, "The hex q,r in your zone (empty: the first free one)"),
         Opt("name", str, "The unit's own name"), PLAYER, ruleset=NAME, renders=True)
async def mini_field(inv: Invocation, unit, at=None, name=None, player=None) -> Reply:
    await _state(inv)
    out = await inv.do("mini.field", {"unit": unit, "at": at, "name": name}, player=player)
    return plain_reply(out, pictures=[
        Picture("engage", map_view(out.state, pack_of(out.state), inv.name_of), f"mini-map-{out.seq}.png")])


@command("mini remove", "Take back a unit you fielded (before the battle).",
         Opt("unit", str, "Your unit: its id (a1), name or hex", required=True, autocomplete="mini-mine"), PLAYER,
         ruleset=NAME)
async def mini_remove(inv: Invocation, unit, player=None) -> Reply:
    await _state(inv)
    return plain_reply(await inv.do("mini.remove", {"unit": unit}, player=player))


@command("mini start", "Begin the battle: a d20 roll-off for the first turn (leader).", ruleset=NAME, renders=True)
async def mini_start(inv: Invocation) -> Reply:
    await _state(inv)
    return await battle_reply(inv, await inv.do("mini.start"))


# ---------------------------------------------------------------- a turn --
async def _battle(inv: Invocation, type_: str, args: dict[str, Any], player) -> Reply:
    await _state(inv)
    return await battle_reply(inv, await inv.do(type_, {k: v for k, v in args.items() if v is not None},
                                                 player=player))


@command("mini engage", "Engage: your unit runs at an enemy (or several) to fight it in melee.",
         Opt("unit", str, "Your unit: its id (a1), name or hex", required=True, autocomplete="mini-mine"),
         Opt("target", str, "The enemy (b1), or several in one go (b1 b2)", required=True,
             autocomplete="mini-enemies"),
         Opt("jump", bool, "Declare Jump Down checks (Agility) for drops on the way"),
         Opt("path", str, "The exact path, hex by hex (3,4 4,4 ...); empty: the shortest"),
         PLAYER, ruleset=NAME, renders=True)
async def mini_engage(inv: Invocation, unit, target, jump=None, path=None, player=None) -> Reply:
    return await _battle(inv, "mini.engage", {"unit": unit, "target": target, "jump": bool(jump), "path": path},
                         player)


@command("mini intercept", "Answer the intercept question: which of your units intercepts (none: no).",
         Opt("unit", str, "Your unit that intercepts, or none", required=True, autocomplete="mini-intercept"),
         Opt("at", str, "Where it moves, q,r (when it could go to more than one hex)"),
         PLAYER, ruleset=NAME, renders=True)
async def mini_intercept(inv: Invocation, unit, at=None, player=None) -> Reply:
    return await _battle(inv, "mini.intercept", {"unit": unit, "at": at}, player)


@command("mini move", "Move a unit up to its Move (inches = hexes; ladders cost the height climbed).",
         Opt("unit", str, "Your unit: its id (a1), name or hex", required=True, autocomplete="mini-mine"),
         Opt("to", str, "The hex to move to, q,r", required=True),
         Opt("jump", bool, "Declare Jump Down checks for drops on the way"), PLAYER, ruleset=NAME, renders=True)
async def mini_move(inv: Invocation, unit, to, jump=None, player=None) -> Reply:
    return await _battle(inv, "mini.move", {"unit": unit, "to": to, "jump": bool(jump)}, player)


@command("mini shoot", "Shoot at an enemy in sight and range that is not in melee.",
         Opt("unit", str, "Your unit that shoots", required=True, autocomplete="mini-mine"),
         Opt("target", str, "The enemy: its id (b1), name or hex", required=True, autocomplete="mini-enemies"),
         PLAYER, ruleset=NAME, renders=True)
async def mini_shoot(inv: Invocation, unit, target, player=None) -> Reply:
    return await _battle(inv, "mini.shoot", {"unit": unit, "target": target}, player)


@command("mini cast", "Cast a spell your unit knows (see /mini units).",
         Opt("unit", str, "Your caster", required=True, autocomplete="mini-mine"),
         Opt("spell", str, "The spell, e.g. mire-grip", required=True, autocomplete="mini-spells"),
         Opt("target", str, "The unit it is cast on (an ally spell: empty for the caster)", autocomplete="mini-all"),
         PLAYER, ruleset=NAME, renders=True)
async def mini_cast(inv: Invocation, unit, spell, target=None, player=None) -> Reply:
    return await _battle(inv, "mini.cast", {"unit": unit, "spell": spell, "target": target}, player)


@command("mini next", "End the current phase (after Cast, the Melee is fought and the turn passes).", PLAYER,
         ruleset=NAME, renders=True)
async def mini_next(inv: Invocation, player=None) -> Reply:
    return await _battle(inv, "mini.next", {}, player)


@command("mini end", "End your turn: the phases left are skipped, the Melee is fought.", PLAYER, ruleset=NAME,
         renders=True)
async def mini_end(inv: Invocation, player=None) -> Reply:
    return await _battle(inv, "mini.end", {}, player)


# ---------------------------------------------------------------- looking --
@command("mini map", "Show the battlefield.", ruleset=NAME, renders=True)
async def mini_map(inv: Invocation) -> Reply:
    state = await _state(inv)
    return Reply(pictures=[Picture("engage", map_view(state, pack_of(state), inv.name_of), "mini-map.png")])


@command("mini status", "Sides, units, wounds, states, and whose turn and phase it is.", ruleset=NAME, renders=True)
async def mini_status(inv: Invocation) -> Reply:
    return status_reply(inv, await _state(inv))


def status_reply(inv: Invocation, state) -> Reply:
    from rulesets.engage.present.view import unit_states

    pack = pack_of(state)
    phase = {"muster": "fielding units", "over": "over"}.get(state.phase) or (
        f"turn {state.turn.number}, round {(state.turn.number + 1) // 2}, {PHASE_NAMES[state.turn.phase]} phase")
    e = Embed(title=f"{state.name}: {phase}", color=COLOR_BATTLE)
    limit = state.settings.get("points", pack.points)
    for o in state.owners():
        s = state.sides[o]
        lines = []
        for u in state.units_of(o):
            t = pack.unit(u.type)
            where = "out of the fight" if u.out else f"on {u.hex[0]},{u.hex[1]}"
            states = unit_states(state, pack, u) if not u.out else []
            kind = "" if u.name == t.name else f", {t.name}"
            lines.append(f"{label(u)}{kind}: {t.wounds - u.damage}/{t.wounds} wounds, {where}"
                         + (f"; {', '.join(states)}" if states else ""))
        pts = sum(pack.unit(state.units[x].type).points for x in s.units)
        e.add(f"Side {s.letter.upper()}: {player_name(o, inv.name_of)} ({ZONE_NAMES[s.letter]}, {pts}/{limit} pts)",
              "\n".join(lines) or "no units")
    turn, _ping = turn_line(state, inv)
    if turn:
        e.description = turn
    elif state.phase == "muster":
        e.description = "Each player fields units with /mini field; the leader begins with /mini start."
    return Reply(embeds=[e], pictures=pictures(state, inv))


# ------------------------------------------------------------ autocomplete --
def choices(inv: Invocation, state, source: str, current: str) -> list[tuple[str, str]]:
    pack = pack_of(state)
    cur = (current or "").lower()
    out: list[tuple[str, str]] = []
    if source == "mini-types":
        out = [(f"{t.name}, {t.points} pts: {t.text}", t.id) for t in pack.units.values()]
    elif state is None:
        return []
    elif source in ("mini-mine", "mini-enemies", "mini-all"):
        for u in state.units.values():
            if u.out or u.hex is None:
                continue
            if source == "mini-mine" and u.owner != inv.user_id or source == "mini-enemies" and u.owner == inv.user_id:
                continue
            out.append((f"{u.id} {u.name} on {u.hex[0]},{u.hex[1]}", u.id))
    elif source == "mini-intercept":
        if state.pending:
            from rulesets.engage.rules.engage import option_text

            out = [(option_text(state, i, o), o["unit"]) for i, o in enumerate(state.pending["candidates"], 1)]
        out.append(("none: no unit intercepts", "none"))
    elif source == "mini-spells":
        known = {s for u in state.units.values() if u.owner == inv.user_id for s in pack.unit(u.type).spells}
        out = [(f"{s.name}: {s.text}", s.id) for s in pack.spells.values() if not known or s.id in known]
    seen, uniq = set(), []
    for label_, value in out:
        if cur in label_.lower() and (label_, value) not in seen:
            seen.add((label_, value))
            uniq.append((clip(label_, 100), value))
    return uniq[:25]


# ------------------------------------------------------------ the intercept question's buttons --
@on_click(CLICK, ruleset="engage")
async def _click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    m = ARG.match(arg or "")
    if m is None:
        return Reply.fail(OLD)
    cid, key, verb = int(m.group(1)), m.group(2), m.group(3)
    if await inv.service.campaign_id(inv.channel_id) != cid:
        return Reply.fail(STALE)

    def args(prompt) -> dict:
        if verb == "none":
            return {"prompt": prompt.id, "choice": "none"}
        if not values:
            raise RuleError("Choose a unit from the menu (or press No intercept).")
        return {"prompt": prompt.id, "choice": str(values[0])}

    out = await inv.service.execute(inv.channel_id, answer(key, inv.user_id, args, stale=STALE,
                                                           not_yours=_not_yours), campaign=cid)
    inv.done.append(out)
    return await battle_reply(inv, out)
