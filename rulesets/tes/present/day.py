"""The day's commands and buttons: /day, /town, /reward, and the End of Day's /adventurer rest.

After every action of the day the party reads what happened, the overland picture (after every move, every
new phase, and on `/day status`), who must act now (pinged) and the buttons of the day's question: one post
whose buttons and menus answer it as the commands do.  Where a player's pick concerns only them (a shop card, a
skill line, what to buy with XP, which dice to rest) the button opens a private menu for the clicker.
"""
from __future__ import annotations

import re
from typing import Any

from engine.commands import Invocation, Opt, command, group
from engine.components import STALE_CAMPAIGN, make_id, on_click
from engine.core import Action, RuleError
from engine.present import mention, say
from engine.prompts import open_prompt
from engine.reply import Button, Embed, Picture, Reply, Select, clip, split_text
from rulesets.tes.cards.actions import Check, Choose
from rulesets.tes.day.actions import Settings as DaySettings
from rulesets.tes.present.battle import AFTER_BATTLE_IN_A_DAY, battle_reply
from rulesets.tes.present.common import PLAYER, _pack, _state
from rulesets.tes.present.day_view import overland_view, waiting_line

group("day", "A session's days: set-up, the route, encounters, the rest")
group("town", "Town actions during a town encounter")
group("reward", "The Reward Phase: spend XP, untrain")

# the campaign's questions asked as the day's (rulesets.tes.session, rulesets.tes.quest): the menu's words
QUEST_KINDS = {"guild": "The party's guild (its quest starts)", "next-quest": "The next guild quest (session 2)",
               "side-quest": "Accept a side quest, or neither", "side-discard": "The side quest to discard"}

#: The events that change the overland picture (the party token, an NPC token, a gauge, the province;
#: a proposed route is said in words and drawn by `/day map`): a post draws the map only for them (a quiet channel; `/day map` draws it at any moment).
PICTURE_KINDS = ("session", "move", "gauge", "province", "token")


# ------------------------------------------------------------------ replies --
async def day_reply(inv: Invocation, out, *, picture: bool | None = None, mat_for: str | None = None) -> Reply:
    """What happened, the overland picture, who acts now (pinged) and the question's buttons."""
    state = out.state
    if state.battle is not None:  # a card's clash began: the battle's own post
        return await battle_reply(inv, out)
    text = "\n".join(say(e) for e in out.events)
    if any(e.kind == "town-actions" for e in out.events) and state.days is not None and state.days.town is not None:
        from rulesets.tes.present.catalogue import town_guide

        text += "\n" + town_guide(state, _pack(state))  # before the choice: what each feature does
    reply = Reply()
    await attach_day(inv, out, reply, text=text, picture=picture, mat_for=mat_for)
    return reply


async def attach_day(inv: Invocation, out, reply: Reply, *, text: str = "", picture: bool | None = None,
                     mat_for: str | None = None) -> None:
    """Add the day's part to a reply: the picture, the waiting line with its pings, the buttons."""
    state = out.state
    s = state.days
    if s is None:
        reply.content = clip(text, 1990)
        return
    pack = _pack(state)
    line, owners = waiting_line(state, mention)
    body, *more = split_text(text)  # a long day's words in parts, none lost
    reply.followups.extend(Reply(content=part) for part in more)
    reply.content = (body + (f"\n\n{line}" if line else "")).strip() or line
    if owners:
        reply.ping = owners[0]
        reply.also_ping = owners[1:]
    show = picture if picture is not None else any(e.kind in PICTURE_KINDS for e in out.events)
    if show:
        reply.pictures.append(Picture("overland", overland_view(state, pack), f"overland-{out.seq}.png"))
    if mat_for and mat_for in state.adventurers:
        adv = state.adventurers[mat_for]
        if not reply.pictures:  # the mat is what this action changed: it is the post's one picture
            from rulesets.tes.present.presenter import mat_view
            from engine.text import slug

            reply.pictures.append(Picture("mat", mat_view(state, adv, pack, inv.name_of(mat_for)),
                                          f"mat-{slug(adv.name) or 'adventurer'}-{out.seq}.png"))
        else:  # one picture a post: the mat waits for a player who asks
            from engine.components import make_id
            from engine.reply import Button

            try:
                reply.buttons.append(Button(make_id("mat", inv.channel_id, f"{mat_for}.{adv.ident()}",
                                                    campaign=out.campaign_id or getattr(inv, "campaign_id", None)),
                                            clip(f"Show {adv.name}'s mat", 80)))
            except ValueError:
                pass
    cid = out.campaign_id or await inv.service.campaign_id(inv.channel_id)
    if cid is not None:
        buttons(inv, state, pack, cid, reply)


async def _day_after_battle(inv: Invocation, out, reply: Reply) -> None:
    # the battle's result is this post's one picture; the overland map is one `/day map` away
    await attach_day(inv, out, reply, text=reply.content, picture=not reply.pictures)


AFTER_BATTLE_IN_A_DAY.append(_day_after_battle)  # a card's battle ended: the day goes on in the battle's post


def _cid(inv: Invocation, cid: int, pid: str, verb: str, kind: str = "day") -> str:
    return make_id(kind, inv.channel_id, f"c{cid}.{pid}.{verb}")


def buttons(inv: Invocation, state, pack, cid: int, reply: Reply) -> None:
    """The buttons and menu of the day's open question."""
    p = open_prompt(state)
    s = state.days
    if p is None or s is None or s.ask is None or not p.kind.startswith("day-"):
        return
    kind, pid = s.ask.kind, p.id

    def b(verb: str, label: str, style: str = "secondary") -> None:
        reply.buttons.append(Button(_cid(inv, cid, pid, verb), clip(label, 80), style))

    def menu(placeholder: str, options, n: int = 1) -> None:
        if options:
            reply.selects.append(Select(_cid(inv, cid, pid, "pick"), placeholder,
                                        [(clip(o.label, 100), o.value, clip(o.detail, 100)) for o in options[:25]],
                                        1, min(n, len(options[:25]))))

    if kind == "route":
        menu("Where does the party go today?", p.options)
        b("stay", "Stay here")
    elif kind == "vote":
        b("agree", "Agree: set out", "success")
        b("object", "Object", "danger")
    elif kind in ("card", "chosen", "either", "town-effect", "check-tenacity"):
        menu({"card": "Choose how to resolve the card", "chosen": "Who gains it?", "either": "Your option",
              "town-effect": "The party's choice", "check-tenacity": "Tenacity to commit"}[kind], p.options)
        if kind == "check-tenacity":
            b("spend0", "Spend none")
    elif kind in QUEST_KINDS:
        menu(QUEST_KINDS[kind], p.options)
    elif kind == "check-dice":
        b("all", "Roll all my dice", "success")
        b("none", "Roll none")
    elif kind == "town":
        from rulesets.tes.content.overland import FEATURE_NAMES
        from rulesets.tes.town.visit import town_def

        town = town_def(_Ctx(state, pack), s.town)
        for f in town.features:
            b(f"f-{f}", FEATURE_NAMES[f], "primary")
        b("done", "Done in town")
    elif kind == "reward":
        b("buy", "Spend XP", "success")
        b("untrain", "Untrain")
        b("done", "Done")
    elif kind == "rest":
        if state.difficulty == "expert":
            b("restitem", "Rest (discard an item)", "success")
            b("skip", "Do not rest")
        else:
            b("rest", "Rest (leftmost dice)", "success")
            b("dice", "Choose the dice")
    if p.deadline is not None:
        due = int(p.deadline)  # Discord timestamps: each reader sees their own clock
        reply.content = clip(f"{reply.content}\n⏳ Without an answer by <t:{due}:f> (<t:{due}:R>), "
                             f"{p.data.get('default_words', 'the default applies')}.", 1990)


class _Ctx:
    """Enough of a day context to read the town being visited (its definition) outside an action."""

    def __init__(self, state, pack):
        self.state, self.pack = state, pack

    @property
    def province(self):
        return self.pack.provinces[self.state.days.province]


# ---------------------------------------------------------------- commands --
@command("day start", "Leader: start a session of days in a province (set-up, then day 1 in the starting town).",
         Opt("province", str, "The province (default: the pack's first)", autocomplete="provinces"),
         Opt("difficulty", str, "Change the difficulty for this session and on (it may change between sessions)",
             choices=("apprentice", "adept", "expert")),
         Opt("stack", str, "Cards drawn first, by id (local table and tests)", local_only=True),
         renders=True)
async def day_start(inv: Invocation, province=None, difficulty=None, stack=None) -> Reply:
    args: dict[str, Any] = {}
    if province:
        args["province"] = province.strip().lower()
    if difficulty:
        args["difficulty"] = difficulty.strip().lower()
    if stack:
        args["stack"] = _words(stack)
    out = await inv.do("day.start", args)
    return await day_reply(inv, out, picture=True)


@command("day status", "The overland map, the day and its phase, and who must act now.", renders=True)
async def day_status(inv: Invocation) -> Reply:
    state = await _state(inv)
    s = state.days
    if s is None:
        raise RuleError("No session is running. The party leader starts one with `/day start`.")
    pack = _pack(state)
    from rulesets.tes.quest.endgame import day_limit, in_endgame

    e = Embed(title=f"Day {state.day_dial or '—'} of {day_limit(state, pack)} — {pack.provinces[s.province].name}"
                    + (" (the endgame)" if in_endgame(state) else ""))
    from rulesets.tes.day_state import PHASE_NAMES

    e.add("Phase", PHASE_NAMES.get(s.phase, s.phase), True)
    e.add("XP Dial", str(state.xp_dial), True)
    eff = pack.provinces[s.province].effect
    step = eff.step(s.gauge)
    e.add(eff.gauge, f"{step.name} (move {step.movement})" if step else "not placed yet", True)
    if s.encounter is not None and s.encounter.card and s.encounter.card in pack.overland_cards:
        card = pack.overland_cards[s.encounter.card]
        e.add(f"Card: {card.name} ({card.label})", clip(card.story, 400) + "\n" + "\n".join(
            f"{ch.number}. {ch.title} ({ch.outcome}, {ch.xp} XP): {ch.text}" for ch in card.choices)[:600])
    if s.town is not None:
        town_bits = []
        if s.town.shop:
            town_bits.append("Shop: " + ", ".join(pack.items[i].name for i in s.town.shop))
        if s.town.trainer:
            town_bits.append("Trainer: " + ", ".join(pack.lines[t].name for t in s.town.trainer))
        town_bits.append("Actions left: " + ", ".join(f"{state.adventurers[o].name} {n}"
                                                      for o, n in s.town.actions.items() if o in state.adventurers))
        e.add("Town", "\n".join(town_bits))
        from rulesets.tes.present.catalogue import town_guide

        e.description = clip(town_guide(state, pack), 3000)
    e.add("Adventurers", "\n".join(
        f"{a.name}: {a.hp}/{a.max_hp} HP, {a.tenacity} tenacity, {a.saved_xp} XP, {len(a.cooldown)} "
        f"{'die' if len(a.cooldown) == 1 else 'dice'} in the cooldown track" for a in state.adventurers.values()))
    reply = Reply(embeds=[e])

    class _Out:
        pass

    out = _Out()
    out.state, out.events, out.seq, out.campaign_id = state, [], 0, await inv.service.campaign_id(inv.channel_id)
    await attach_day(inv, out, reply, picture=True)
    return reply


@command("day map", "The overland map as a picture.", renders=True)
async def day_map(inv: Invocation) -> Reply:
    state = await _state(inv)
    if state.days is None:
        raise RuleError("No session is running. The party leader starts one with `/day start`.")
    line, _owners = waiting_line(state, lambda o: state.adventurers[o].name if o in state.adventurers else "the leader")
    return Reply(content=line, pictures=[Picture("overland", overland_view(state, _pack(state)), "overland.png")])


@command("day route", "Leader: propose today's route: a destination (town, landmark or q,r) or the hexes in order.",
         Opt("to", str, "Where the party goes: a town, a named landmark or a hex q,r"),
         Opt("path", str, "The hexes in order, e.g. \"3,5 3,4 3,3\""),
         Opt("stay", bool, "Stay where the party is today"), renders=True)
async def day_route(inv: Invocation, to=None, path=None, stay=None) -> Reply:
    from rulesets.tes import args as args_

    args: dict[str, Any] = {}
    if stay:
        args["stay"] = True
    elif path:
        args["path"] = args_.route(path, "path")
    elif to:
        m = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*", to)
        args["to"] = [int(m.group(1)), int(m.group(2))] if m else to.strip()[:60]
    out = await inv.do("day.route", args)
    return await day_reply(inv, out)  # the route in words; drawn on the dashboard's map and by `/day map`


@command("day agree", "Agree with the route the leader proposed (the party sets out when everyone agrees).",
         renders=True)
async def day_agree(inv: Invocation) -> Reply:
    out = await inv.do("day.vote", {})
    return await day_reply(inv, out)


@command("day object", "Object to the proposed route: the leader proposes another.",
         Opt("reason", str, "Why (shown to the party)"), renders=True)
async def day_object(inv: Invocation, reason=None) -> Reply:
    out = await inv.do("day.vote", {"object": True, "reason": (reason or "")[:200]})
    return await day_reply(inv, out)


@command("day choose", "Leader: take one of the overland card's choices (by its number).",
         Opt("choice", int, "The choice's number on the card", required=True, **Choose.args["choice"].range),
         renders=True)
async def day_choose(inv: Invocation, choice) -> Reply:
    out = await inv.do("day.choose", {"choice": choice})
    return await day_reply(inv, out)


@command("day check", "A social check: first roll your dice of its line, then commit tenacity.",
         Opt("dice", str, "Your dice to roll, by name or id, comma separated; all or none"),
         Opt("tenacity", int, "Tenacity you commit", **Check.args["tenacity"].range), PLAYER, renders=True)
async def day_check(inv: Invocation, dice=None, tenacity=None, player=None) -> Reply:
    args: dict[str, Any] = {}
    if dice is not None:
        word = dice.strip().lower()
        if word == "all":
            args["all"] = True
            args["dice"] = []
        else:
            args["dice"] = [] if word in ("", "none", "no") else [d.strip() for d in dice.split(",") if d.strip()]
    if tenacity is not None:
        args["tenacity"] = tenacity
    if not args:
        raise RuleError("Give `dice:` (names, all or none) while the dice are rolled, then `tenacity:`.")
    out = await inv.do("day.check", args, player=player)
    return await day_reply(inv, out)


@command("day pick", "Answer the day's question: which adventurer gains it, your option, or the town effect's choice.",
         Opt("option", str, "The option's number, or the adventurer's name", required=True), PLAYER, renders=True)
async def day_pick(inv: Invocation, option, player=None) -> Reply:
    out = await inv.do("day.pick", {"pick": option.strip()[:60]}, player=player)
    return await day_reply(inv, out)


@command("day trade", "During the Adventurers Rest: give one of your items to another adventurer.",
         Opt("item", str, "Your item", required=True), Opt("to", str, "The adventurer who gets it", required=True),
         PLAYER, renders=True)
async def day_trade(inv: Invocation, item, to, player=None) -> Reply:
    out = await inv.do("day.trade", {"item": item[:60], "to": to[:40]}, player=player)
    return await day_reply(inv, out)


@command("day settings", "Leader: hours a question of the day waits before its default applies (0 = wait).",
         Opt("hours", int, "Hours (0 to 168)", required=True, **DaySettings.args["hours"].range))
async def day_settings(inv: Invocation, hours) -> Reply:
    out = await inv.do("day.settings", {"hours": hours})
    return Reply(content="\n".join(say(e) for e in out.events))


@command("day stack", "Leader: the next cards drawn from their decks (local table and tests).",
         Opt("cards", str, "Card, item or skill line ids, in order", required=True), local_only=True)
async def day_stack(inv: Invocation, cards) -> Reply:
    out = await inv.do("day.stack", {"cards": _words(cards)})
    return Reply(content="\n".join(say(e) for e in out.events))


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,]+", str(text or "").strip().lower()) if w][:40]


@command("town visit", "Use one of your 2 town actions: shop, trainer, inn, alchemy or square.",
         Opt("feature", str, "shop, trainer, inn, alchemy, square (kiosk and board come with quests)", required=True,
             choices=("shop", "trainer", "inn", "alchemy", "square", "kiosk", "board")),
         Opt("item", str, "Shop: the cards to take, comma separated; alchemy: the potion to refresh"),
         Opt("line", str, "Trainer: the skill line (or magicka)"),
         Opt("slot", str, "Trainer: the circular slot, e.g. 4R (default: the first open one)"),
         PLAYER, renders=True)
async def town_visit(inv: Invocation, feature, item=None, line=None, slot=None, player=None) -> Reply:
    args = {k: v for k, v in {"feature": feature, "item": item, "line": line, "slot": slot}.items() if v}
    out = await inv.do("town.visit", args, player=player)
    owner = str(player) if player else inv.user_id
    return await day_reply(inv, out, mat_for=owner if feature == "trainer" else None)


@command("town done", "End your town actions (the ones left are not used).", PLAYER, renders=True)
async def town_done(inv: Invocation, player=None) -> Reply:
    out = await inv.do("town.done", {}, player=player)
    return await day_reply(inv, out)


@command("reward buy", "Spend XP on an advancement: a stat (stamina), a skill die by name, cooldown or tenacity.",
         Opt("what", str, "stamina, health, magicka, a skill die's name, cooldown or tenacity", required=True,
             autocomplete="advancements"), PLAYER, renders=True)
async def reward_buy(inv: Invocation, what, player=None) -> Reply:
    state = await _state(inv)
    owner = str(player) if player else inv.user_id
    out = await inv.do("reward.buy", {"what": _advancement_key(state, owner, what)}, player=player)
    return await day_reply(inv, out, mat_for=owner)


@command("reward untrain", "Untrain a stat square, a skill die, a skill line or the Magicka stat (no XP back).",
         Opt("what", str, "e.g. a die's name, \"stamina square\", a skill line, magicka", required=True,
             autocomplete="untrain"), PLAYER, renders=True)
async def reward_untrain(inv: Invocation, what, player=None) -> Reply:
    state = await _state(inv)
    owner = str(player) if player else inv.user_id
    out = await inv.do("reward.untrain", {"what": _untrain_key(state, owner, what)}, player=player)
    return await day_reply(inv, out, mat_for=owner)


@command("reward done", "You are done with this Reward Phase (XP above 3 becomes tenacity at its end).", PLAYER,
         renders=True)
async def reward_done(inv: Invocation, player=None) -> Reply:
    out = await inv.do("reward.done", {}, player=player)
    return await day_reply(inv, out)


@command("reward options", "What your XP can buy now, and what you could untrain.", PLAYER, private=True)
async def reward_options(inv: Invocation, player=None) -> Reply:
    from rulesets.tes.outcomes import mat

    state = await _state(inv)
    owner = str(player) if player else inv.user_id
    adv = state.adventurers.get(owner)
    if adv is None:
        raise RuleError("You have no adventurer yet. Create one with `/adventurer create`.")
    pack = _pack(state)
    e = Embed(title=f"{adv.name}: {adv.saved_xp} XP to spend")
    e.add("You can buy", "\n".join(o.label for o in mat.purchases(state, adv, pack, adv.saved_xp)) or "nothing now")
    e.add("You could untrain", "\n".join(o.label for o in mat.untrainables(adv, pack)) or "nothing")
    return Reply(embeds=[e], ephemeral=True)


def _offer_key(offers, text: str) -> str | None:
    """The key of the offer whose label (whole, or before its cost) is ``text``, as `/reward options` lists it."""
    from engine.text import slug

    want = slug(text)
    if not want:
        return None
    for o in offers:
        if want in (slug(o.label), slug(o.label.split(" — ")[0])):
            return o.key
    return None


def _advancement_key(state, owner: str, text: str) -> str:
    """A player's words for an advancement, as the rules' key (stat:stamina, die:purge, cooldown, tenacity)."""
    from engine.text import slug
    from rulesets.tes.outcomes import mat

    adv = state.adventurers.get(owner)
    if adv is not None and ":" not in text:
        listed = _offer_key(mat.purchases(state, adv, _pack(state)), text)
        if listed:
            return listed
    key = slug(text)
    if key.startswith(("stat-", "die-")):
        key = key.replace("-", ":", 1)
    if ":" in text:
        return text.strip().lower()
    if key in ("health", "stamina", "magicka"):
        return f"stat:{key}"
    if key in ("cooldown", "tenacity"):
        return key
    pack = _pack(state)
    for die in pack.dice().values():
        if key in (die.id, slug(die.name)):
            return f"die:{die.id}"
    return key


def _untrain_key(state, owner: str, text: str) -> str:
    from engine.text import slug
    from rulesets.tes.outcomes import mat

    if ":" in text:
        return text.strip().lower()
    adv = state.adventurers.get(owner)
    offers = mat.untrainables(adv, _pack(state)) if adv is not None else []
    listed = _offer_key(offers, text)
    if listed:
        return listed
    key = slug(text)
    # a bare die name that is also a line that cannot be untrained (Combat) means one of its dice
    if key in ("combat", "combat-die") and any(o.key == "die:combat" for o in offers):
        return "die:combat"
    for stat in ("health", "stamina", "magicka"):
        if key in (f"{stat}-square", f"{stat}-token", f"one-{stat}-square"):
            return f"square:{stat}"
    if key in ("magicka", "magicka-stat"):
        return "line:magicka"
    pack = _pack(state)
    if key in pack.lines or any(slug(ln.name) == key for ln in pack.lines.values()):
        line = key if key in pack.lines else next(k for k, ln in pack.lines.items() if slug(ln.name) == key)
        return f"line:{line}"
    for die in pack.dice().values():
        if key in (die.id, slug(die.name)):
            return f"die:{die.id}"
    if key in ("health", "stamina", "combat"):
        return f"line:{key}"
    return key


# ----------------------------------------------------------------- clicks --
STALE = "This question of the day is out of date: it was already answered. Nothing was changed; see `/day status`."


def _parse(arg: str):
    parts = arg.split(".")
    if len(parts) < 3 or not re.fullmatch(r"c\d+", parts[0]):
        return None
    return int(parts[0][1:]), ".".join(parts[1:-1]), parts[-1]


async def _act(inv: Invocation, cid: int, pid: str, type_: str, args: dict) -> Any:
    """Run an action for the clicker, only while the question ``pid`` is still the open one."""
    if await inv.service.campaign_id(inv.channel_id) != cid:
        raise RuleError(STALE)

    def build(state) -> Action:
        p = open_prompt(state)
        if p is None or p.id != pid:
            raise RuleError(STALE)
        return inv.action(type_, args)

    out = await inv.service.execute(inv.channel_id, build)
    inv.done.append(out)
    return out


@on_click("day", ruleset="tes")
async def _day_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    parsed = _parse(arg)
    if parsed is None:
        return Reply.fail("This button comes from an older version of the bot. Use the /day commands instead.")
    cid, pid, verb = parsed
    if await inv.service.campaign_id(inv.channel_id) != cid:
        return Reply.fail(STALE_CAMPAIGN)
    state = await _state(inv)
    p = open_prompt(state)
    if p is None or p.id != pid:  # answered, timed out or replaced: no menu, no action (a town left behind)
        return Reply.fail(STALE)
    s = state.days
    kind = s.ask.kind if s is not None and s.ask is not None else ""
    me = inv.user_id
    mat_for = None
    if verb == "pick":
        value = values[0] if values else ""
        if kind == "route":
            type_, args = "day.route", {"to": [int(x) for x in value.split(",")]} if "," in value else {}
        elif kind == "card":
            type_, args = "day.choose", {"choice": value}
        elif kind == "check-tenacity":
            type_, args = "day.check", {"tenacity": int(value or 0)}
        elif kind == "check-dice":
            type_, args = "day.check", {"dice": list(values)}
        elif kind in QUEST_KINDS:
            from rulesets.tes.day.prompts import ACTIONS as ASKED

            type_, args = ASKED[kind][0], {"pick": value}
        else:
            type_, args = "day.pick", {"pick": value}
    elif verb in ("stay", "agree", "object", "all", "none", "spend0", "done", "rest", "skip"):
        type_, args = {
            "stay": ("day.route", {"stay": True}), "agree": ("day.vote", {}),
            "object": ("day.vote", {"object": True}), "all": ("day.check", {"all": True, "dice": []}),
            "none": ("day.check", {"dice": []}), "spend0": ("day.check", {"tenacity": 0}),
            "done": ("town.done" if kind == "town" else "reward.done", {}), "rest": ("day.rest", {}),
            "skip": ("day.rest", {"skip": True}),
        }[verb]
    elif verb.startswith("f-"):
        feature = verb[2:]
        if feature in ("shop", "trainer"):
            return _private_menu(inv, state, cid, pid, feature)
        type_, args = "town.visit", {"feature": feature}
    elif verb in ("buy", "untrain", "dice", "restitem"):
        return _private_menu(inv, state, cid, pid, verb)
    elif verb.startswith("x"):  # a pick from a private menu: x<what>
        what = verb[1:]
        type_, args, mat_for = _private_answer(state, me, what, values)
    else:
        return Reply.fail("This button no longer does anything. See `/day status`.")
    out = await _act(inv, cid, pid, type_, args)
    reply = await day_reply(inv, out, mat_for=mat_for)
    return reply


def _private_menu(inv: Invocation, state, cid: int, pid: str, what: str) -> Reply:
    """A menu only the clicker sees: their shop cards, skill lines, purchases, untrains, dice or items."""
    from rulesets.tes.outcomes import mat

    pack = _pack(state)
    s = state.days
    adv = state.adventurers.get(inv.user_id)
    if adv is None:
        raise RuleError("You have no adventurer in this party.")
    options: list[tuple[str, str, str]] = []
    n = 1
    title = ""
    texts = ""
    if what == "shop":
        from rulesets.tes.town.visit import town_def

        town = town_def(_Ctx(state, pack), s.town)
        from rulesets.tes.present.catalogue import item_words

        options = [(pack.items[i].name, i, clip(pack.items[i].text, 100) or pack.items[i].subtype)
                   for i in s.town.shop]
        n = min(town.shop_takes, len(options))
        title = f"Take {n} {'card' if n == 1 else 'cards'} from the shop"
        texts = "\n".join(f"• {item_words(pack.items[i])}" for i in s.town.shop)
    elif what == "trainer":
        options = [(pack.lines[t].name, t, (pack.lines[t].constellation or "").title()) for t in s.town.trainer
                   if t not in adv.lines()]
        if adv.find_slot("stat", "magicka") is None:
            options.append(("Magicka (the stat)", "magicka", "untrained: take it back"))
        title = "Train a skill line (it goes in your first open circular slot)"
    elif what == "buy":
        options = [(o.label, o.key, "") for o in mat.purchases(state, adv, pack, adv.saved_xp)]
        title = f"Spend XP ({adv.saved_xp} left)"
    elif what == "untrain":
        options = [(o.label, o.key, "no XP back") for o in mat.untrainables(adv, pack)]
        title = "Untrain (no XP back)"
    elif what == "dice":
        from rulesets.tes.day.rest import amounts, _entry
        from rulesets.tes.outcomes.context import DayCtx

        c = DayCtx(state, pack, None)
        options = [(f"{i}. {_entry(c, adv, e)}", str(i), "") for i, e in enumerate(adv.cooldown, 1)]
        n = min(amounts(state)[0], len(options))
        title = f"Remove {n} {'die' if n == 1 else 'dice'} from your cooldown track"
    elif what == "restitem":
        options = [(pack.items[i].name, i, pack.items[i].subtype) for i in adv.ready + adv.pack]
        title = "Discard an item to rest (your leftmost dice are removed)"
    if not options:
        raise RuleError({"shop": "The shop has no cards left.", "trainer": "The trainer has nothing new for you.",
                         "buy": f"{adv.name}'s {adv.saved_xp} XP buys nothing now.",
                         "untrain": "There is nothing to untrain.",
                         "dice": "Your cooldown track is empty: rest with the Rest button.",
                         "restitem": "You have no item to discard: press Do not rest."}[what])
    sel = Select(_cid(inv, cid, pid, f"x{what}"), title[:100],
                 [(clip(label, 100), value, clip(detail, 100)) for label, value, detail in options[:25]],
                 n, n)
    text = f"{adv.name}: {title}." + (f"\n{texts}" if texts else "")
    return Reply(content=clip(text, 1990), selects=[sel], ephemeral=True)


def _private_answer(state, owner: str, what: str, values: list[str]):
    if what == "shop":
        return "town.visit", {"feature": "shop", "item": list(values)}, None
    if what == "trainer":
        return "town.visit", {"feature": "trainer", "line": values[0] if values else ""}, owner
    if what == "buy":
        return "reward.buy", {"what": values[0] if values else ""}, owner
    if what == "untrain":
        return "reward.untrain", {"what": values[0] if values else ""}, owner
    if what == "dice":
        return "day.rest", {"dice": [int(v) for v in values if str(v).isdecimal()]}, None
    if what == "restitem":
        return "day.rest", {"item": values[0] if values else ""}, None
    raise RuleError("This menu no longer does anything. See `/day status`.")


__all__ = ["attach_day", "day_reply"]
