"""Battle commands: /battle start|map|status|retreat|escape|prevention|prevent|class|drop and the
top-level turn commands /move /engage /resolve /ability /endturn, plus the map and roll view models.

After every adventurer action the reply carries the map picture, the rolls (text and a
picture), whose turn it is with a ping, and the acting adventurer's mat when a turn ends.
"""
from __future__ import annotations

import re
from typing import Any

from engine.commands import Invocation, Opt, command, group
from engine.components import confirm_buttons, on_click
from rulesets.tes.present import confirm as confirming
from rulesets.tes.present.battle_prompts import attach_prompts
from rulesets.tes.present.delve_view import delve_status, delve_view, placements_view
from rulesets.tes.present.common import PLAYER, _pack, _state
from rulesets.tes.present.presenter import mat_view, short
from engine.reply import COLOR_BATTLE, Embed, Picture, Reply, clip, split_text
from engine.core import RuleError
from rulesets.tes.battle_state import Battle
from rulesets.tes.rules.adjust import Adjust
from rulesets.tes.rules.battle import Drop, Start
from rulesets.tes import args as args_
from engine.text import a_or_an, count, slug
from engine.present import line, say

LOG_LINES = 6


# ------------------------------------------------------------ view models --
def map_view(state, pack, battle: Battle | None = None, vitals: dict | None = None, *,
             acts: bool = True) -> dict[str, Any]:
    """The view model ``render.render("map", ...)`` draws: the battle going on, or ``battle`` (the one that
    just ended, with ``vitals``: each adventurer's HP, bonus HP and statuses as it ended)."""
    from rulesets.tes.battle.model import map_info, names_of, on_map
    from rulesets.tes import rules

    b: Battle = battle or state.battle
    m = map_info(pack, b)
    slots = {(h.q, h.r): n for n, h in m.slots.items()}
    hexes = [{"q": h.q, "r": h.r, "tile": t, "impassable": h in m.impassable, "entrance": h in m.entrance,
              "escape": h in m.escape, "enemy_slot": slots.get((h.q, h.r))}
             for h, t in sorted(m.tile_of.items(), key=lambda kv: (kv[0].r, kv[0].q))]
    turn = b.turn
    # "now" marks the unit whose player the table waits for (a free move or a prevention question during
    # an enemy's turn waits for that player), else the unit acting
    found = rules.whose_move(state) if battle is None else None
    acting = f"a:{found[0]}" if found and f"a:{found[0]}" in b.units else (turn.unit if battle is None else None)
    units = []
    for u in b.units.values():
        adv = state.adventurers.get(u.owner) if u.owner else None
        if adv is not None:
            hp, max_hp, bonus = adv.hp, adv.max_hp, adv.bonus_hp
            statuses = names_of(state, u)
            if vitals and u.owner in vitals:
                hp, max_hp, bonus, statuses = (vitals[u.owner].get(k) for k in ("hp", "max_hp", "bonus_hp",
                                                                                  "statuses"))
        else:
            statuses, hp, max_hp, bonus = list(u.statuses), u.hp, u.max_hp, 0
        if u.side == "captive":  # a dungeon's caged unit: no HP chips until it is freed
            hp = 0
        unit = {"id": u.id, "label": u.name + (" (caged)" if u.side == "captive" else ""), "short": u.short,
                "side": u.side,
                "q": u.q, "r": u.r, "hp": hp, "max_hp": max_hp, "bonus_hp": bonus,
                "statuses": list(statuses or []), "acting": acting == u.id,
                "defeated": u.defeated or (not on_map(u) and not u.escaped), "level": u.level}
        who = u.owner or u.controller
        if who and state.names.get(who):
            unit["player"] = state.names[who]
        if u.defeated and u.fell_at:
            unit["defeated_at"] = list(u.fell_at)
        if u.escaped:
            unit["escaped"] = True
        units.append(unit)
    mover = b.units.get(turn.unit) if turn.unit else None
    side = mover.side if mover is not None else "adventurer"
    line = turn.engage_line
    engage = {"from": line[0], "to": line[1]} if len(line) == 2 else None
    left = b.caches  # None: not set up yet (every chip of the map is there)
    caches = [{"q": h.q, "r": h.r, "opened": left is not None and f"{h.q},{h.r}" not in left} for h in m.caches]
    if b.delve is not None and left:  # a delve's chips come with its cards, not with the tiles' marks
        caches += [{"q": int(k.split(",")[0]), "r": int(k.split(",")[1]), "opened": False} for k in left
                   if tuple(map(int, k.split(","))) not in {(h.q, h.r) for h in m.caches}]
    view = {"title": f"{b.name} — round {b.round}", "round": b.round,
            "fatigue_round": b.fatigue_round, "version": f"{b.encounter}-{b.no}-v{b.map_version}",
            "hexes": hexes, "caches": caches,
            "units": units, "path": turn.path, "path_side": side, "engage": engage,
            "log": [_plain(x, state) for x in b.log[-LOG_LINES:]]}
    if b.hex_dice:  # skill dice placed in hexes, marked with whose they are
        view["dice"] = [{"q": d.hex[0], "r": d.hex[1], "value": d.value, "label": d.label, "side": "adventurer",
                         "owner": b.units[f"a:{d.owner}"].short if f"a:{d.owner}" in b.units else "",
                         "player": state.names.get(d.owner) or ""} for d in b.hex_dice]
    if b.offers and battle is None:  # a free move waits for its player: the hexes of the menu, numbered alike
        from rulesets.tes.battle.flow import offer_destinations
        from rulesets.tes.battle.model import Ctx

        o = b.offers[0]
        spots = offer_destinations(Ctx(state, pack, None), o.owner, o.amount, o.through)
        view["choices"] = [{"q": h.q, "r": h.r, "n": i} for i, h in enumerate(spots, 1)]
    delve = delve_view(state, pack, m, battle)  # a delve's doors, tile numbers and cards; a dungeon's special hexes
    if delve is not None:
        view["delve"] = delve
    if acts and b.enemy_acts and ((not turn.acted and not turn.path) or side != "adventurer"):
        # the enemy phase just ended, or is under way (a player's answer waits): show what they did; the
        # moving unit's own path is among those moves
        view["moves"] = [dict(x) for x in b.enemy_acts.get("moves") or []]
        view["engages"] = [dict(x) for x in b.enemy_acts.get("engages") or []]
        if side != "adventurer":
            view["path"] = []
    return view


def result_view(state, pack, event) -> dict[str, Any] | None:
    """The battle's end pictured: the map as it ended (from the battle-end event), VICTORY, DEFEAT or RETREAT."""
    final = (event.data or {}).get("final") if event is not None else None
    if not isinstance(final, dict) or not isinstance(final.get("battle"), dict):
        return None
    b = Battle.from_dict(final["battle"])
    outcome = str(event.data.get("outcome") or b.outcome or "")
    view = map_view(state, pack, battle=b, vitals=final.get("vitals") or {})
    words = {"victory": "victory", "defeat": "defeat", "retreat": "retreat"}.get(outcome, outcome)
    view.update({"title": f"{b.name}: {words} in round {b.round}", "round": None, "fatigue_round": False,
                 "result": outcome, "path": [], "engage": None, "moves": [], "engages": []})
    view["log"] = view["log"][-(LOG_LINES - 1):] + [_plain(say(event), state)]
    return view


def lockpick_view(state) -> dict[str, Any] | None:
    """The lockpick check waiting for its player: the code, the dice, what matches."""
    from rulesets.tes.battle.inventory import DECK_NAME
    from rulesets.tes.battle.lockpick import match

    b = state.battle
    lp = b.lockpick if b else None
    if lp is None or not lp.dice:
        return None
    adv = state.adventurers.get(lp.owner)
    result = match(list(lp.code), list(lp.keys), list(lp.locked), list(lp.dice))
    who = adv.name if adv else "An adventurer"
    what = {"trap": "a trap's mechanism", "cage": "a cage"}.get(lp.kind) or a_or_an(f"{lp.deck} cache".strip())
    return {"title": f"{who} picks the lock of {what}",
            "code": list(lp.code), "keys": list(lp.keys), "dice": list(lp.dice),
            "matched": {str(k): v for k, v in result["matched"].items()},
            "locked": list(result["locked"]), "attempt": lp.attempt, "attempts": lp.attempts,
            "fatigue": lp.fatigue, "deck": DECK_NAME.get(lp.deck, lp.deck)}


_LOCK_MARK = re.compile(r"(✅|▫️?)(\[\d\]|\d)")
_LOCK_RUN = re.compile(r"(?:(?:✅|▫️?)(?:\[\d\]|\d) ?)+")


def _lock_words(run: re.Match) -> str:
    """``✅[3] ▫️5`` (a lockpick code's digits, matched or not) as words: ``[3] matched, 5 open``."""
    words = [f"{m.group(2)} {'matched' if m.group(1) == '✅' else 'open'}" for m in _LOCK_MARK.finditer(run.group(0))]
    return ", ".join(words) + (" " if run.group(0).endswith(" ") else "")


def map_picture(state, pack, filename: str, focus: list[int] | None = None, *, acts: bool = False) -> Picture:
    """The battle map as a picture request: a delve's or a dungeon's map is drawn around the action (render.delve).
    ``acts``: draw the enemies' and companions' moves and engages (only in the post of the action they happened
    in: a later picture never carries a stale arrow)."""
    view = map_view(state, pack, acts=acts)
    if "delve" not in view:
        return Picture("map", view, filename)
    if focus is not None:
        view["focus"] = list(focus)
    return Picture("delvemap", view, filename)


def _plain(text: str, state) -> str:
    """A log line for the picture: names instead of mentions, no emoji or markdown; a lockpick code's
    marks in words ("[3] matched, 5 open")."""
    def name(m):
        adv = state.adventurers.get(m.group(1))
        return adv.name if adv else "a player"
    text = re.sub(r"<@!?([^>\s]+)>", name, text).replace("**", "")
    if "✅" in text or "▫" in text:
        text = _LOCK_RUN.sub(_lock_words, text)
    return re.sub(r"[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F]\s?", "", text).strip()


def roll_view(title: str, dice: list[dict], pack, resolved: set[int] | None = None) -> dict[str, Any]:
    out = []
    for i, d in enumerate(dice):
        line = pack.lines.get(d.get("line") or "")
        level = None
        try:
            level = pack.die(d["type"]).level if d.get("type") and d["type"] != "enemy" else None
        except KeyError:
            pass
        out.append({"label": d["label"], "short": short(d["label"]),
                    "constellation": getattr(line, "constellation", None) if d.get("type") != "enemy" else None,
                    "level": level, "results": [{"icon": ic, "value": v} for ic, v in d.get("results", [])],
                    "resolved": None if resolved is None else i in resolved})
    return {"title": title, "dice": out}


def whose_turn_line(state) -> tuple[str, str | None]:
    from rulesets.tes import rules

    b = state.battle
    if not b:
        last = state.last_battle
        if last:
            return f"The battle is over ({last.outcome}).", None
        return "", None
    run = state.quests
    if run is not None and run.assist == "asked":  # the whole party is down: the battle waits for the leader
        by = f" Without an answer by <t:{int(run.assist_deadline)}:t> (<t:{int(run.assist_deadline)}:R>) the battle " \
             "ends." if run.assist_deadline else ""
        return (f"Now: <@{state.leader}> decides whether to call the guild assist (once a campaign) or let the battle "
                f"end: the buttons, or `/quest assist use:yes` / `use:no`.{by}"), state.leader
    found = rules.whose_move(state)
    if not found:
        return "Waiting for the enemies.", None
    owner = found[0]
    adv = state.adventurers.get(owner)
    if b.asking and b.asking.guard:
        target = state.adventurers.get(b.asking.target or "")
        return (f"Now: <@{owner}> chooses whether {adv.name if adv else 'their adventurer'} guards "
                f"{target.name if target else 'an ally'} (`/battle prevent`)."), owner
    if b.asking:
        return f"Now: <@{owner}> chooses how {adv.name if adv else 'they'} prevents damage (`/battle prevent`).", owner
    if b.choices:
        return (f"Now: <@{owner}> chooses for {adv.name if adv else 'their adventurer'}: {b.choices[0].source} "
                "(`/battle choose option:` or the menu)."), owner
    if b.delve is not None and b.delve.exploring is not None and b.delve.exploring.stage == "place":
        return (f"Now: <@{owner}> chooses where the revealed tile goes (`/explore place:N`, numbered on the "
                "picture, or the menu)."), owner
    if b.offers:
        return (f"Now: <@{owner}> moves {adv.name if adv else 'their adventurer'} up to {b.offers[0].amount} "
                f"{'hex' if b.offers[0].amount == 1 else 'hexes'} for free (`/move to:q,r`) or stays "
                "(`/battle stay`)."), owner
    return f"Now: **{adv.name if adv else owner}**'s turn — <@{owner}>.", owner


async def battle_reply(inv: Invocation, out, *, mat_for: str | None = None, title: str = "") -> Reply:
    """Events as text, one picture (what the action changed), whose turn it is (pinged).

    A quiet channel: the post carries at most one picture, the one this action changed (the tile's placements while
    one waits, the lock while a check waits, else the battle map; after the battle its result).  The dice rolled and
    the acting adventurer's mat are drawn only when a player asks, with the buttons under the post."""
    state = out.state
    pack = _pack(state)
    lines = [say(e) for e in out.events]
    turn_text, ping = whose_turn_line(state)
    if state.battle is not None and any(e.kind == "setup" for e in out.events):  # the battle's first post
        skills = enemy_skill_lines(state, pack)
        if skills:
            lines.append("\n**What each enemy does**\n" + "\n".join(skills))
    text = "\n".join(lines)
    body, *more = split_text(text)  # a long turn's words in parts, none lost
    content = body + (f"\n\n{turn_text}" if turn_text else "")
    picture: Picture | None = None
    followups: list[Reply] = [Reply(content=part) for part in more]
    if state.battle:
        where = placements_view(state, pack)  # a delve's revealed tile: a picture of each legal placement
        lock = lockpick_view(state)
        if where is not None:
            picture = Picture("placements", where, f"placements-{out.seq}.png")
        elif lock is not None:
            picture = Picture("lockpick", lock, f"lockpick-{out.seq}.png")
        elif (quiet := quiet_kinds(out)) is not None and any(e.kind not in quiet for e in out.events):
            picture = map_picture(state, pack, f"map-{out.seq}.png", acts=enemies_acted(out))
    else:
        end = next((e for e in out.events if e.kind == "battle-end"), None)
        view = result_view(state, pack, end)
        if view is not None:  # a delve's or a dungeon's end is drawn around the action like its map
            picture = Picture("delvemap" if "delve" in view else "result", view, f"result-{out.seq}.png")
    reply = Reply(content=content, pictures=[picture] if picture is not None else [], ping=ping,
                  followups=followups)
    await attach_prompts(inv, out, reply)  # resolve / prevention buttons, changed mats, the time-out
    run = state.quests
    if state.battle is not None and run is not None and run.assist == "asked":  # the party is down: ask the leader
        campaign = out.campaign_id or getattr(inv, "campaign_id", None)
        reply.buttons[:0] = assist_buttons(inv, campaign, f"g{run.serial}-down", True)
    _on_demand_buttons(inv, out, reply, mat_for)  # after the question's own buttons
    if state.battle is None and state.days is not None:  # a card's battle ended: the day goes on in this post
        for add in AFTER_BATTLE_IN_A_DAY:
            await add(inv, out, reply)
    return reply


#: What an action may say without changing the battle map (a roll waiting to be resolved, a question, a card's text,
#: a mat's tracks, damage and healing told in words while nobody moves or falls): a post made only of these carries
#: no map (the dashboard and `/battle map` show it at any moment).
UNCHANGED_MAP = frozenset({"damage", "heal", "status", "bonus-hp", "pierce", "engage", "roll", "reroll", "ask", "offer", "choice", "note", "manual", "chose", "setting",
                           "achievement", "objective", "track", "tenacity", "item", "interrupt", "form", "fatigue",
                           "active", "recover", "recovery", "drain", "add-dice", "skill", "innate", "discard",
                           "lockpick-roll", "lockpick-adjust", "lockpick-set", "acted-for"})


def enemies_acted(out) -> bool:
    """Whether the enemies or companions moved or engaged in this action (their phase ran in it)."""
    return any(e.kind in ("enemy-move", "enemy-roll", "companion", "companion-move", "companion-roll")
               for e in out.events)


def quiet_kinds(out) -> frozenset | None:
    """The events this action's post tells in words only: ``UNCHANGED_MAP``, the turn passing on, and a player's own
    move (the next player's post, the dashboard and the 🗺️ button show where they stand; a move that sets off a trap,
    a tile or a fall still draws the map).  None: the whole post is words (the leader's adjustments)."""
    kinds = UNCHANGED_MAP | {"turn", "turn-end"}
    action = getattr(getattr(out, "action", None), "type", "")
    if action == "battle.adjust":  # the leader's bookkeeping: said in words, the map a button away
        return None
    return kinds | {"move"} if action == "battle.move" else kinds


def assist_buttons(inv: Invocation, campaign: int | None, key: str, asked: bool) -> list:
    """The guild assist's buttons, bound to the campaign and to the question they answer (``key``)."""
    from engine.components import make_id
    from engine.reply import Button

    out = [Button(make_id("qassist", inv.channel_id, f"{key}.yes", campaign=campaign), "📯 Call the guild assist",
                  "success")]
    if asked:
        out.append(Button(make_id("qassist", inv.channel_id, f"{key}.no", campaign=campaign),
                          "Let the battle end", "danger"))
    else:
        out.append(Button(make_id("cancel", inv.channel_id, "qassist"), "Cancel", "secondary"))
    return out


def _on_demand_buttons(inv: Invocation, out, reply: Reply, mat_for: str | None) -> None:
    """The pictures a player may want but the channel does not need: this action's dice, the acting mat."""
    from engine.components import make_id
    from engine.reply import Button

    campaign = out.campaign_id or getattr(inv, "campaign_id", None)
    rolls = sum(1 for e in out.events if e.kind in ("roll", "enemy-roll") and e.data.get("dice"))
    try:
        if rolls and out.seq:
            reply.buttons.append(Button(make_id("rollpics", inv.channel_id, str(out.seq), campaign=campaign),
                                        "🎲 Show the dice" if rolls > 1 else "🎲 Show the roll"))
        if out.state.battle is not None and not reply.pictures:
            reply.buttons.append(Button(make_id("bmap", inv.channel_id, str(out.seq), campaign=campaign), "🗺️ Map"))
        adv = out.state.adventurers.get(mat_for) if mat_for else None
        if adv is not None:
            reply.buttons.append(Button(make_id("mat", inv.channel_id, f"{mat_for}.{adv.ident()}",
                                                campaign=campaign), clip(f"Show {adv.name}'s mat", 80)))
    except ValueError:  # an id that cannot go into a button: the post goes out without it
        pass


@on_click("bmap", campaign=True, ruleset="tes")
async def _map_now(inv: Invocation, arg: str, values: list[str]) -> Reply:
    """The battle map as it stands now, for the player who asked."""
    state = await _state(inv)
    if state.battle is None:
        return Reply.fail("The battle is over; `/campaign log` tells how it went.")
    return Reply(content=f"The battle map now (round {state.battle.round}).", ephemeral=True,
                 pictures=[map_picture(state, _pack(state), "map.png")])


@on_click("plpage", campaign=True, ruleset="tes")
async def _placement_page(inv: Invocation, arg: str, values: list[str]) -> Reply:
    """Another page of a revealed tile's placements: its picture and its menu, for the player who asked."""
    from engine.prompts import open_prompt
    from engine.reply import Select
    from rulesets.tes.present.battle_prompts import _cid, placement_page

    key, _, page = arg.rpartition(".")
    state = await _state(inv)
    prompt = open_prompt(state)
    if prompt is None or prompt.kind != "place" or prompt.id != key or not page.isdigit():
        return Reply.fail("This button is out of date: that tile was placed already. Nothing was changed.")
    cid = await inv.service.campaign_id(inv.channel_id)
    view = placements_view(state, _pack(state), int(page))
    reply = Reply(content=f"{view['title']} Answer with the menu or `/explore place:N`.", ephemeral=True,
                  pictures=[Picture("placements", view, f"placements-p{int(page) + 1}.png")])
    listed = placement_page(inv, prompt, cid, reply, state, view["page"])
    reply.selects.append(Select(_cid("plc", inv, cid, prompt.id, "pick"), "Place the tile",
                                [(clip(o.label, 100), o.value, clip(o.detail, 100)) for o in listed], 1, 1))
    return reply


@on_click("rollpics", campaign=True, ruleset="tes")
async def _roll_pictures(inv: Invocation, arg: str, values: list[str]) -> Reply:
    """Draw the dice one logged action rolled, for the player who asked (nobody else's channel fills up)."""
    if not arg.isdigit():
        return Reply.fail("This button no longer does anything. Give the command again.")
    state = await _state(inv)
    cid = await inv.service.campaign_id(inv.channel_id)
    entries = await inv.service.store.log(cid, limit=1, before_seq=int(arg) + 1) if cid is not None else []
    entry = entries[0] if entries and entries[0].seq == int(arg) else None
    if entry is None:
        return Reply.fail("That action is no longer in this campaign's log.")
    pack = _pack(state)
    pictures = []
    for n, e in enumerate(entry.events):
        if e.get("kind") in ("roll", "enemy-roll") and (e.get("data") or {}).get("dice"):
            title_r = line(e).split(":")[0].replace("*", "")[:80]
            pictures.append(Picture("roll", roll_view(title_r, e["data"]["dice"], pack), f"roll-{entry.seq}-{n}.png"))
    if not pictures:
        return Reply.fail("That action rolled no dice.")
    return Reply(content=f"The dice of action #{entry.seq}.", pictures=pictures[:10], ephemeral=True)


# What a post adds when a battle inside a session's day has ended: the day's part (its picture, who acts now, the
# buttons).  The day's present module (rulesets.tes.present.day), which sits above this one, puts it here.
AFTER_BATTLE_IN_A_DAY: list = []


# -------------------------------------------------------------- /battle --
group("battle", "Battles on the hex map: clashes, delves and dungeons")


def deploy_hexes(text: str) -> list:
    """The ``deploy:`` option read once, at the edge: entrance hexes in turn order ("-2,2 -2,1")."""
    from engine.hexes import Hex
    from engine.text import echo

    spots = []
    for part in text.replace(";", " ").split():
        try:
            spots.append(Hex.parse(part))
        except ValueError:
            raise RuleError(f"`deploy` takes hexes written q,r separated by spaces, e.g. `-2,2 -2,1` "
                            f"(`{echo(part, 20)}` is not a hex).") from None
    return spots


@command("battle start", "Set up a battle (clash, delve or dungeon): map, enemies, adventurers on the entrance (leader).",
         Opt("encounter", str, "The encounter: a clash (jailbreak), a delve or a dungeon", required=True,
             autocomplete="encounters"),
         Opt("first", str, "Who takes the first player token (default: the leader)", user=True),
         Opt("deploy", str, "Entrance hexes in turn order, e.g. \"-2,2 -2,1\" (default: the first free ones)"),
         Opt("ep", int, "Use this enemy pool instead of XP dial × adventurers (a delve: for each tile)", **Start.args["ep"].range),
         Opt("session", int, "Use the end-of-session difficulty table of this session (1-3)",
             **Start.args["session"].range),
         Opt("confirm", bool, "yes to start without the button when a member has no adventurer (scripts)",
             local_only=True),
         renders=True)
async def battle_start(inv: Invocation, encounter, first=None, deploy=None, ep=None, session=None,
                       confirm=None) -> Reply:
    args: dict[str, Any] = {"encounter": encounter.strip().lower()}
    if first:
        args["first"] = str(first)
    if deploy:
        args["deploy"] = args_.route(deploy, "deploy")  # in turn order; the rules pair them with the adventurers
    if ep is not None:
        args["ep"] = ep
    if session is not None:
        args["session"] = session
    if not confirm:
        state = await _state(inv)
        left_out = [m for m in state.members if m not in state.adventurers]
        if left_out:  # a member without an adventurer would sit the battle out: asked first
            await inv.service.check(inv.channel_id, inv.action("battle.start", args))
            enc = _pack(state).encounters.get(args["encounter"])
            who = ", ".join(f"<@{m}>" for m in left_out)
            have = "has" if len(left_out) == 1 else "have"
            why = (" The Jailbreak decides the classes its adventurers may take, so they would miss that too."
                   if enc is not None and enc.class_rewards else "")
            arg = ",".join([args["encounter"], args.get("first", ""),
                            "_".join(f"{h[0]}.{h[1]}" for h in args.get("deploy") or []),
                            str(ep if ep is not None else ""), str(session or "")])
            try:  # bound to this campaign and to this question: no battle may have begun since it was asked
                buttons = confirm_buttons("bstart", inv.channel_id, f"n{state.battle_count},{arg}",
                                          "Start without them", campaign=inv.campaign_id)
            except ValueError:
                buttons = []
            title = enc.name if enc else "this battle"
            return Reply(content=f"{who} {have} no adventurer yet and would sit **{title}** out: nobody joins a "
                                 f"battle once it has begun.{why} Start anyway? (They can create one first with "
                                 "`/adventurer create`.)", ephemeral=True, buttons=buttons)
    out = await inv.do("battle.start", args)
    return await battle_reply(inv, out)


STALE_START = ("This question is out of date: a battle has begun since it was asked (or is under way now), so "
               "nothing was started. Give `/battle start` again if you still want another battle.")
STALE_RETREAT = ("This retreat question is out of date: its battle is over, or the retreat is already called. "
                 "Nothing was changed; see `/battle status`.")


@on_click("bstart", campaign=True, ruleset="tes")
async def _start_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    parts = arg.split(",")
    if len(parts) != 6 or not re.fullmatch(r"n\d{1,6}", parts[0]):
        return Reply.fail("This button no longer does anything. Give the command again.")
    asked, encounter, first, deploy, ep, session = parts
    state = await _state(inv)
    if state.battle is not None or f"n{state.battle_count}" != asked:
        return Reply.fail(STALE_START)
    hexes = " ".join(h.replace(".", ",") for h in deploy.split("_")) if deploy else None
    return await battle_start(inv, encounter, first or None, hexes, int(ep) if ep else None,
                              int(session) if session else None, confirm=True)


@command("battle deploy", "Before your first turn: choose your battle form and your ready items.",
         Opt("form", str, "Battle form to deploy in", autocomplete="forms"),
         Opt("ready", str, "Items for the ready slots, comma separated (the rest go to the pack)"),
         PLAYER, renders=True)
async def battle_deploy(inv: Invocation, form=None, ready=None, player=None) -> Reply:
    out = await inv.do("battle.deploy", {k: v for k, v in {"form": form, "ready": ready}.items() if v is not None},
                       player=player)
    return await battle_reply(inv, out, mat_for=str(player) if player else inv.user_id)


@command("battle adjust", "Apply a manual effect by hand (party leader): HP, bonus HP, tenacity, status, fatigue, hex.",
         Opt("unit", str, "The unit: a name, its label or its hex q,r", required=True),
         Opt("hp", int, "Heal (positive) or deal true damage (negative)", **Adjust.args["hp"].range),
         Opt("bonus_hp", int, "Add or remove bonus HP", **Adjust.args["bonus_hp"].range),
         Opt("tenacity", int, "Add or remove tenacity", **Adjust.args["tenacity"].range),
         Opt("status", str, "Give a status (bane, blind, daze, fear, maim, stealth) or remove it with -name"),
         Opt("fatigue", int, "Add this many fatigue dice", **Adjust.args["fatigue"].range),
         Opt("fatigue_kind", str, "light or over (default light)", choices=("light", "over")),
         Opt("to", str, "Move the unit to this hex q,r"),
         Opt("reason", str, "What the adjustment applies, for the log (e.g. the ability's name)"),
         renders=True)
async def battle_adjust(inv: Invocation, unit, hp=None, bonus_hp=None, tenacity=None, status=None, fatigue=None,
                        fatigue_kind=None, to=None, reason=None) -> Reply:
    args = {"unit": args_.unit_ref(unit), "hp": hp, "bonus_hp": bonus_hp, "tenacity": tenacity, "status": status,
            "fatigue": fatigue, "fatigue_kind": fatigue_kind, "to": args_.one_hex(to, "Give one hex with `to:`, "
                                                                                   "e.g. `to:2,1`.") if to else None,
            "reason": reason}
    out = await inv.do("battle.adjust", {k: v for k, v in args.items() if v is not None})
    return await battle_reply(inv, out)


@command("battle map", "Show the battle map (a delve or dungeon: the part around at:q,r).",
         Opt("at", str, "A delve or dungeon: show the part of the map around this hex q,r"), renders=True)
async def battle_map(inv: Invocation, at=None) -> Reply:
    state = await _state(inv)
    if not state.battle:
        raise RuleError("There is no battle going on. The party leader starts one with `/battle start`.")
    pack = _pack(state)
    focus = args_.one_hex(at, "Give one hex with `at:`, e.g. `at:3,0`.") if at else None
    text, ping = whose_turn_line(state)
    pictures = [map_picture(state, pack, "map.png", focus)]
    where = placements_view(state, pack)
    if where is not None:
        pictures.append(Picture("placements", where, "placements.png"))
    return Reply(content=text, pictures=pictures)


@command("battle status", "Round, turn order, units and HP, and whose turn it is.")
async def battle_status(inv: Invocation) -> Reply:
    state = await _state(inv)
    b = state.battle
    if not b:
        last = state.last_battle
        if not last:
            raise RuleError("There is no battle going on. The party leader starts one with `/battle start`.")
        e = Embed(title=f"Last battle: {last.name}", color=COLOR_BATTLE,
                  description=f"Outcome: **{last.outcome}** after {count(last.rounds, 'round')}.")
        rewards = state.class_rewards
        pack = _pack(state)
        for owner, ids in rewards.items():
            adv = state.adventurers.get(owner)
            e.add(f"Class choices: {adv.name if adv else owner}", ", ".join(pack.classes[k].name for k in ids))
        return Reply(embeds=[e])
    from rulesets.tes.battle.model import names_of, on_map

    e = Embed(title=f"{b.name} — round {b.round}" + (" (fatigue round)" if b.fatigue_round else ""),
              color=COLOR_BATTLE)
    order = []
    for i, owner in enumerate(b.order):
        adv = state.adventurers[owner]
        u = b.units[f"a:{owner}"]
        where = "defeated" if u.defeated else ("escaped" if u.escaped else f"{u.q},{u.r}")
        mark = "▶️ " if b.turn.owner == owner else ""
        order.append(f"{mark}{i + 1}. {u.short} **{adv.name}** HP {adv.hp}/{adv.max_hp}"
                     + (f" (+{adv.bonus_hp})" if adv.bonus_hp else "")
                     + f" · {adv.battle_form} · tenacity {adv.tenacity} · {where}" + _statuses(names_of(state, u)))
    e.add("Adventurers (turn order)", "\n".join(order))
    allies = [f"{u.short} **{u.name}** HP {u.hp}/{u.max_hp} · {u.q},{u.r}" + _statuses(u.statuses)
              for u in b.units.values() if u.side == "companion" and on_map(u)]
    if allies:
        e.add("Companions", "\n".join(allies))
    foes = [f"{u.short} **{u.name}** (L{u.level}) HP {u.hp}/{u.max_hp} · {u.q},{u.r}" + _statuses(u.statuses)
            for u in b.units.values() if u.side == "enemy" and on_map(u)]
    e.add("Enemies", "\n".join(foes) or "none left")
    skills = enemy_skill_lines(state, _pack(state))
    if skills:
        e.add("What each enemy does", clip("\n".join(skills), 1000))
    if b.hex_dice:
        e.add("Dice in hexes", "\n".join(
            f"{d.hex[0]},{d.hex[1]}: **{d.label}** ({d.value}) of "
            f"{state.adventurers[d.owner].name if d.owner in state.adventurers else 'someone'}"
            f" · {d.damage}{' true' if d.true else ''} damage to an enemy that moves in or starts its turn there"
            for d in b.hex_dice))
    e.add("Objective", b.objective)
    delve_lines = delve_status(state, _pack(state))
    if delve_lines:
        e.add("Delve" if b.delve is not None else "Dungeon", clip(delve_lines, 1000))
    from rulesets.tes.battle.flow import battle_rules

    enc = _pack(state).encounters.get(b.encounter)
    rules_text = battle_rules(_pack(state), enc, len(b.order)) if enc else ""
    if rules_text:
        e.add("Encounter rules", clip(rules_text, 1000))
    e.add("Recent", "\n".join(recent_line(ln) for ln in b.log[-5:]) or "—")
    text, ping = whose_turn_line(state)
    e.add("Whose move", text)
    return Reply(embeds=[e])


def enemy_skill_lines(state, pack) -> list[str]:
    """Every enemy kind on the map with its stats and each skill's text, once a kind (promised before they fire)."""
    from rulesets.tes.battle.model import on_map

    b = state.battle
    seen: dict[str, str] = {}
    for u in b.units.values():
        if u.side != "enemy" or not on_map(u) or not u.enemy or u.enemy in seen:
            continue
        en = pack.enemies.get(u.enemy)
        if en is None:
            continue
        reach = "all in range" if en.all_targets else f"{en.targets} target{'s' if en.targets != 1 else ''}"
        head = (f"**{en.name}** (L{en.level}): moves {en.movement}, range {en.range}, {reach}, "
                f"{count(en.combat, 'Combat die', 'Combat dice')}, defense {en.defense}")
        skills = "; ".join(f"*{k.label}*: {' '.join(k.text.split())}" for k in en.skills)
        seen[u.enemy] = head + (f" · {skills}" if skills else " · no skills")
    return list(seen.values())


def _statuses(names) -> str:
    """A unit's statuses for /battle status, each with what it does (the rulebook's status effects)."""
    names = list(dict.fromkeys(names or []))
    if not names:
        return ""
    return " · " + ", ".join(f"**{n}** ({STATUS_WORDS[n]})" if n in STATUS_WORDS else f"**{n}**" for n in names)


#: what each status does, in a few words (rulebook, status effects)
STATUS_WORDS = {"bane": "1 true damage at the start of each of its turns",
                "blind": "every unit is an opponent; engages only the strongest adjacent one",
                "daze": "no rolling on a turn it moves, no moving on a turn it rolls; ends with its turn",
                "fear": "its non-Combat skills do nothing",
                "maim": "damage of its Combat dice halved, rounded down",
                "stealth": "targeted only by opponents adjacent at the start of the turn; ends when it deals damage"}


ADJUSTED = "✋ Adjustment by the leader: "  # rulesets/tes/rules/adjust.py


def recent_line(text: str) -> str:
    """A line of the battle's picture log as a post shows it: the bot's own mentions and bold kept, anything a
    member's words could have brought into a line before rules revision 3 (a masked link, @everyone, a role or
    channel mention, code or spoilers) shown as plain text."""
    from engine.text import ZWSP, plain

    if text.startswith(ADJUSTED):  # the one line that repeats a member's words (its reason): all of it plain
        return ADJUSTED + plain(text[len(ADJUSTED):])
    for token in ("[", "]", "`", "||"):
        text = text.replace(token, "\\" + token if token != "||" else "\\|\\|")
    text = re.sub(r"@(everyone|here)", "@" + ZWSP + r"\1", text)
    return re.sub(r"<(@&|#|/)", "‹\\1", text)


@command("battle retreat", "Retreat: the battle ends, failed, at the end of this round (party leader; asks first).",
         Opt("confirm", bool, "yes to retreat without the button (scripts)", local_only=True))
async def battle_retreat(inv: Invocation, confirm=None) -> Reply:
    if not confirm:  # the encounter is failed: asked first, like /campaign end, and only when it would be taken
        await inv.service.check(inv.channel_id, inv.action("battle.retreat"))
        state = await _state(inv)
        return Reply(content=f"Retreat from **{state.battle.name}**? The battle ends at the end of this round and "
                             "the encounter is failed. Only you, the party leader, can call it: talk it over with "
                             "the party first.", ephemeral=True,
                     buttons=confirm_buttons("retreat", inv.channel_id, f"b{state.battle.no}", "Retreat",
                                             campaign=inv.campaign_id))
    out = await inv.do("battle.retreat")
    return Reply(content="\n".join(say(e) for e in out.events))


@on_click("retreat", campaign=True, ruleset="tes")
async def _retreat_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    # bound to its campaign (checked before this runs, and again under the channel's lock) and to its battle
    state = await _state(inv)
    if state.battle is None or f"b{state.battle.no}" != arg or state.battle.retreat:
        return Reply.fail(STALE_RETREAT)
    return await battle_retreat(inv, confirm=True)  # posted for the whole party to read


@command("battle escape", "Escape from a green escape hex at the start of your turn.", PLAYER, renders=True)
async def battle_escape(inv: Invocation, player=None) -> Reply:
    out = await inv.do("battle.escape", player=player)
    return await battle_reply(inv, out, mat_for=str(player) if player else inv.user_id)


@command("battle prevention", "Damage prevention: automatic (default) or ask me each time.",
         Opt("mode", str, "auto or ask", required=True, choices=("auto", "ask")), PLAYER, private=True)
async def battle_prevention(inv: Invocation, mode, player=None) -> Reply:
    out = await inv.do("battle.prevention", {"mode": mode}, player=player)
    return Reply(content="\n".join(say(e) for e in out.events), ephemeral=True)


@command("battle prevent", "Answer a prevention question: which sources, in order.",
         Opt("use", str, "Source numbers in order (e.g. 2,1), or auto, or none", required=True), PLAYER,
         renders=True)
async def battle_prevent(inv: Invocation, use, player=None) -> Reply:
    out = await inv.do("battle.prevent", {"use": args_.prevention_use(use)}, player=player)
    return await battle_reply(inv, out)


@command("battle class", "Choose your class from the rewards your Jailbreak achievements earned.",
         Opt("class", str, "One of your class rewards", required=True, autocomplete="classes", arg="klass"), PLAYER)
async def battle_class(inv: Invocation, klass, player=None) -> Reply:
    out = await inv.do("battle.class", {"klass": klass}, player=player)
    return Reply(content="\n".join(say(e) for e in out.events))


@command("battle drop", "Remove a die from one of your active slots (it is exhausted).",
         Opt("slot", int, "Active slot number, 1-4", required=True, **Drop.args["slot"].range), PLAYER,
         renders=True)
async def battle_drop(inv: Invocation, slot, player=None) -> Reply:
    out = await inv.do("battle.drop", {"slot": slot}, player=player)
    return await battle_reply(inv, out)


@command("battle stay", "Stay where you are instead of a free move an interrupt offered you during an enemy's turn.",
         PLAYER, renders=True)
async def battle_stay(inv: Invocation, player=None) -> Reply:
    out = await inv.do("battle.stay", {}, player=player)
    return await battle_reply(inv, out)


# ------------------------------------------------------- turn commands --
CONFIRM = Opt("confirm", bool, "yes: go ahead when the bot would ask first (it wastes a move, an engage, an ability)")


@command("move", "Move up to your Stamina in hexes (battle), or make a free move an interrupt offered you.",
         Opt("to", str, "Destination hex q,r — the bot finds the shortest route"),
         Opt("path", str, "The exact route, hexes separated by spaces: \"1,2 2,2\""),
         Opt("free", bool, "Use free movement from an ability instead of a move action"), CONFIRM, PLAYER,
         renders=True)
async def move(inv: Invocation, to=None, path=None, free=None, confirm=None, player=None) -> Reply:
    args = {k: v for k, v in {"to": args_.one_hex(to) if to else None, "path": args_.route(path) if path else None,
                              "free": free, "confirm": confirm}.items() if v}
    return await _move(inv, args, player)


async def _move(inv: Invocation, args: dict, player) -> Reply:
    return await confirming.ask_first(inv, "battle.move", args, player, lambda out: battle_reply(inv, out))


@command("engage", "Engage: battle form, target, dice to roll, weapon (battle).",
         Opt("dice", str, "Dice to roll, e.g. \"2 shield-discipline, combat\", \"d3 d5\" or all"),
         Opt("target", str, "Enemy name, label or hex q,r"),
         Opt("form", str, "Battle form for this engage (default: your current form)", autocomplete="forms"),
         Opt("item", str, "A ready weapon matching your form", autocomplete="items"),
         Opt("overtax", bool, "Also use the weapon's overtax ability (discards it)"), CONFIRM, PLAYER, renders=True)
async def engage(inv: Invocation, dice=None, target=None, form=None, item=None, overtax=None, confirm=None,
                 player=None) -> Reply:
    args = {k: v for k, v in {"dice": args_.dice_spec(dice), "target": args_.unit_ref(target) if target else None,
                              "form": form, "item": item, "overtax": overtax, "confirm": confirm}.items() if v}
    return await _engage(inv, args, player)


async def _engage(inv: Invocation, args: dict, player) -> Reply:
    return await confirming.ask_first(inv, "battle.engage", args, player, lambda out: _engaged(inv, out))


async def _engaged(inv: Invocation, out) -> Reply:
    reply = await battle_reply(inv, out)
    if out.state.battle and out.state.battle.pending:
        reply.content += ("\nResolve with the buttons below, `/resolve` (all, in rolled order) or "
                          "`/resolve order:2,1` (only those, in that order).")
        if _places_in_a_hex(out.state.battle.pending, _pack(out.state)):
            reply.content += (" A die placed in a hex goes to the free hex nearest your target; to choose it, "
                              "add `at:q,r` to `/resolve`.")
    return reply


def _places_in_a_hex(pending, pack) -> bool:
    """Whether a die of this roll shows a result that places the die in a hex (e.g. a rune)."""
    for d in pending.dice:
        line = None if d.get("free") else pack.lines.get(d.get("line") or "")
        for icon, _v in d.get("results") or []:
            ab = line.abilities.get(icon) if line else None
            if ab and any(e.get("type") == "hex-die" for e in ab.effects):
                return True
    return False


@command("resolve", "Resolve your roll: which dice, in what order (default: all in rolled order).",
         Opt("order", str, "Die numbers from the roll, e.g. 2,1 — or none"),
         Opt("ally", str, "The adventurer an ally ability goes to (default: you)"),
         Opt("at", str, "Hex q,r for a die placed in a hex, e.g. a rune (several: \"1,2 2,2\", in resolve order)"),
         PLAYER, renders=True)
async def resolve(inv: Invocation, order=None, ally=None, at=None, player=None) -> Reply:
    args = {k: v for k, v in {"order": _order(order), "ally": args_.unit_ref(ally) if ally else None,
                              "at": (args_.route(at, "at") or None) if at else None}.items() if v is not None}
    out = await inv.do("battle.resolve", args, player=player)
    return await battle_reply(inv, out)


REROLL_ERROR = ("Name the dice to reroll by their numbers in the roll, e.g. `dice:2` or `dice:1,3`, or `dice:all`.")


def _order(text):
    """``/resolve order:``: empty or "all" is every die in rolled order (no argument); else the numbers."""
    if text is None or str(text).strip().lower() in ("", "all"):
        return None
    return args_.numbers(text, args_.ORDER_ERROR)


@command("reroll", "Reroll dice of your waiting roll, with a reroll a weapon or ability gave you (battle).",
         Opt("dice", str, "Die numbers from the roll, e.g. 2 or 1,3, or all", required=True), PLAYER, renders=True)
async def reroll(inv: Invocation, dice, player=None) -> Reply:
    spec = "all" if str(dice).strip().lower() == "all" else args_.numbers(dice, REROLL_ERROR)
    out = await inv.do("battle.reroll", {"dice": spec}, player=player)
    return await battle_reply(inv, out)


@command("ability", "Use your race ability (name: race) or a class ability.",
         Opt("name", str, "race, or the class ability's name", required=True),
         Opt("form", str, "Switch to this form first (1 light fatigue) if the ability needs it; Form Shift: the new form",
             autocomplete="forms"),
         Opt("target", str, "The enemy (name, label or hex q,r) or the ally the ability names"),
         Opt("to", str, "An ability that moves you: the hex q,r to move to now (required when it does more after)"),
         CONFIRM, PLAYER, renders=True)
async def ability(inv: Invocation, name, form=None, target=None, to=None, confirm=None, player=None) -> Reply:
    args = {"name": name} | ({"form": form} if form else {}) | ({"target": target} if target else {}) \
        | ({"to": args_.one_hex(to, "Give the hex to move to with `to:`, e.g. `to:2,1`.")} if to else {}) \
        | ({"confirm": True} if confirm else {})
    return await _ability(inv, args, player)


async def _ability(inv: Invocation, args: dict, player) -> Reply:
    return await confirming.ask_first(inv, "battle.ability", args, player, lambda out: battle_reply(inv, out))


confirming.RUNNERS.update({"battle.move": _move, "battle.engage": _engage, "battle.ability": _ability})


@command("endturn", "End your turn; enemies act after the last adventurer.", PLAYER, renders=True)
async def endturn(inv: Invocation, player=None) -> Reply:
    out = await inv.do("battle.endturn", player=player)
    return await battle_reply(inv, out, mat_for=str(player) if player else inv.user_id)
