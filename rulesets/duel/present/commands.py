"""The duel commands (/duel ...) and how their answers look.

Every post after a fight action carries the picture of each resolved action (the Priority track with its
tokens, every fighter's Grit, Ailments and ongoing effects, the dice of the last roll with rerolled dice
marked), the words of what happened, and the question the fight now waits on, pinging only its player.

Hidden information: a hand and the cards placed face-down are shown to their owner alone, in private
(ephemeral) answers: ``/duel hand``, the private menu the **Choose my cards** button opens, and the private
note after placing.  Public posts and the log only ever say how many cards were placed.
"""
from __future__ import annotations

import re
from typing import Any

from engine.commands import Invocation, Opt, command, group
from engine.core import RuleError
from engine.prompts import open_prompt
from engine.reply import COLOR_BATTLE, COLOR_INFO, Embed, Reply, clip
from engine.text import count, echo, slug
from rulesets.duel.content import pack_of
from rulesets.duel.present.prompts import hand_reply, turn_line
from rulesets.duel.present.replies import fight_reply, names_of, pictures, placed_reply, plain_reply
from rulesets.duel.present.view import STEP_WORDS
from rulesets.duel.rules.actions import Reroll
from rulesets.duel.rules.harm import effect_words
from rulesets.duel.rules.table import TABLE
from rulesets.duel.state import AILMENTS, NAME

PLAYER = Opt("player", str, "Act for this player (party leader only)", user=True)
SETTING = TABLE.handlers["campaign.settings"].args  # the bounds of this game's settings (engine.party)
group("duel", "Duels: characters, fights, cards and Fame rerolls")


async def _state(inv: Invocation):
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError("This channel has no campaign yet. Start a duel campaign with /campaign new ruleset:duel.")
    if getattr(state, "ruleset", None) != NAME:
        raise RuleError("This channel's campaign is not a duel campaign. See /help for its commands.")
    return state


def _pack(state):
    return pack_of(state)


# ------------------------------------------------------------------ parsing --
def card_ids(pack, text: str | None, what: str = "cards") -> list[str]:
    """'Lure, base attack' -> ['lure', 'base-attack'] (ids or names, separated by commas)."""
    out = []
    for part in [p for p in re.split(r"[,;]", str(text or "")) if p.strip()]:
        key = slug(part)
        found = next((c.id for c in pack.cards.values() if key in (c.id, slug(c.name))), None)
        if found is None:
            raise RuleError(f"{what}: there is no card {echo(part)!r}. Name cards as in /duel hand, separated by "
                            "commas (e.g. cards:lure,focus).")
        out.append(found)
    return out


def gear_ids(pack, text: str | None) -> list[str]:
    out = []
    for part in [p for p in re.split(r"[,;]", str(text or "")) if p.strip()]:
        key = slug(part)
        found = next((g.id for g in pack.gear.values() if key in (g.id, slug(g.name))), None)
        if found is None:
            raise RuleError(f"gear: there is no worn gear {echo(part)!r}. Gear: {', '.join(pack.gear)}.")
        out.append(found)
    return out


def fighter_id(state, text: str | None, what: str) -> str:
    """A fighter of the fight named by its id, its name, or its player (a mention or a member's id)."""
    if not text:
        return ""
    fight = state.fight
    raw = str(text).strip()
    m = re.fullmatch(r"<@!?(\d{1,20})>|@?([A-Za-z0-9_.-]{1,32})", raw)
    if raw in fight.fighters:
        return raw
    for f in fight.fighters.values():
        if slug(f.name) == slug(raw) or (m and f.owner and f.owner in (m.group(1), m.group(2))):
            return f.id
    names = ", ".join(f.name for f in fight.fighters.values() if f.standing)
    raise RuleError(f"{what}: nobody called {echo(raw)!r} is in this fight ({names}).")


def zone_id(pack, text: str | None) -> str:
    """A zone named by its id or its name ('mill ford' -> 'mill-ford'); unknown words are passed on (the rules
    refuse them, listing the zones)."""
    key = slug(str(text or ""))
    return next((z for z, n in getattr(pack, "zones", {}).items() if key in (z, slug(n))), key)


JOIN_WORDS = {"in": "in", "join": "in", "yes": "in", "accept": "in", "fight": "in", "out": "out", "no": "out",
              "stay": "out", "decline": "out", "a": "a", "challenger": "a", "b": "b", "rival": "b"}


# ---------------------------------------------------------------- looking --
@command("duel heroes", "The heroes a character can be made from, with their Skills, Grit and Fame.",
         ruleset=NAME, private=True)
async def duel_heroes(inv: Invocation) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    pack = _pack(state if getattr(state, "ruleset", None) == NAME else None)
    e = Embed(title=f"{pack.title}: heroes", color=COLOR_INFO)
    for h in pack.heroes.values():
        skills = ", ".join(f"{s.capitalize()} {t}" for s, t in h.skills.items())
        gear = ", ".join(pack.gear[g].name for g in h.gear) or "none"
        e.add(f"{h.id}: {h.name}", f"{h.blurb}\n{skills}; Grit {h.grit}, Fame {h.fame}. Base attack: "
              f"{h.base.skill.capitalize()} against {h.base.defense.capitalize()}, {h.base.damage} damage. "
              f"Cards: {', '.join(pack.cards[c].name for c in h.cards)}. Worn gear: {gear}.")
    e.footer = "Make yours with /duel character hero: name: (cards: and gear: choose others from /duel cards)."
    return Reply(embeds=[e], ephemeral=True)


@command("duel cards", "Every card of the pack (with its Priority and text) and the worn gear.", ruleset=NAME,
         private=True)
async def duel_cards(inv: Invocation) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    pack = _pack(state if getattr(state, "ruleset", None) == NAME else None)
    hand = Embed(title=f"{pack.title}: every hand begins with", color=COLOR_INFO)
    for cid in dict.fromkeys(pack.hand):
        c = pack.cards[cid]
        hand.add(f"{c.name} ({pack.hand.count(cid)}x, Priority {c.priority})", c.text)
    more = Embed(title="Cards a character can obtain", color=COLOR_INFO)
    for c in pack.obtainable:
        pr = f"Priority {c.priority}" if c.priority is not None else "no Priority"
        more.add(f"{c.id}: {c.name} ({c.type}, {pr})", c.text)
    gear = Embed(title="Worn gear (one applies in a fight)", color=COLOR_INFO)
    for g in pack.gear.values():
        gear.add(f"{g.id}: {g.name}", g.text)
    return Reply(embeds=[hand, more, gear], ephemeral=True)


@command("duel bestiary", "The monsters: Rank, Skills, Grit and the procedure that picks their action.",
         ruleset=NAME, private=True)
async def duel_bestiary(inv: Invocation) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    pack = _pack(state if getattr(state, "ruleset", None) == NAME else None)
    embeds = []
    for m in pack.monsters.values():
        skills = ", ".join(f"{s.capitalize()} {t}" for s, t in m.skills.items())
        e = Embed(title=f"{m.name} ({m.id}): Rank {m.rank}, Grit {m.grit}", color=COLOR_BATTLE,
                  description=f"{skills}. Its Fame is its Rank.\n{m.procedure}")
        for a in m.actions:
            e.add(f"{a.lo}-{a.hi}: {a.name} (Priority {a.priority})", a.text)
        embeds.append(e)
    return Reply(embeds=embeds[:10], ephemeral=True)


@command("duel sheet", "A character's sheet (your own obtained cards are named to you alone).",
         Opt("player", str, "Whose character (default: yours)", user=True), ruleset=NAME, private=True)
async def duel_sheet(inv: Invocation, player=None) -> Reply:
    state = await _state(inv)
    pack = _pack(state)
    who = str(player) if player else inv.user_id
    ch = state.characters.get(who)
    if ch is None:
        raise RuleError("That player has no character yet." if player else
                        "You have no character yet. Make one with /duel character (see /duel heroes).")
    hero = pack.heroes.get(ch.hero)
    e = Embed(title=f"{ch.name}, {hero.name if hero else ch.hero}", color=COLOR_INFO)
    e.add("Skills (Tier; defense)", ", ".join(f"{s.capitalize()} {t} ({3 + 2 * t})" for s, t in ch.skills.items()))
    e.add("Grit, Fame", f"Grit {ch.grit}, Fame {ch.fame}; {ch.fights} fights")
    b = ch.base
    e.add("Base attack", f"{str(b.get('skill')).capitalize()} against {str(b.get('defense')).capitalize()}, "
                         f"{b.get('damage')} damage")
    e.add("Worn gear", "\n".join(f"{pack.gear[g].name}: {pack.gear[g].text}" for g in ch.gear) or "none")
    if who == inv.user_id:
        e.add("Obtained cards (only you see them)",
              "\n".join(f"{pack.cards[c].name}: {pack.cards[c].text}" for c in ch.cards) or "none")
    else:
        e.add("Obtained cards", f"{len(ch.cards)} (secret)")
    return Reply(embeds=[e], ephemeral=True)


@command("duel status", "The fight: the Priority track, every fighter's Grit, Fame and Ailments, whose turn it is.",
         ruleset=NAME, renders=True)
async def duel_status(inv: Invocation) -> Reply:
    return status_reply(inv, await _state(inv))


def status_reply(inv: Invocation, state) -> Reply:
    pack = _pack(state)
    fight = state.fight
    name = names_of(state, inv)
    e = Embed(title=f"{state.name}: duel campaign", color=COLOR_BATTLE)
    from rulesets.duel.rules.model import F as _F

    c0 = _F(state, pack, None)
    chars = []
    for o in state.seats:
        ch = state.characters.get(o)
        if ch:
            hero = pack.heroes.get(ch.hero)
            at = f", at {c0.zone_name(c0.zone_of(o))}" if c0.zoned else ""
            chars.append(f"{ch.name} ({name(o)}), {hero.name if hero else ch.hero}: Grit {ch.grit}, Fame {ch.fame}{at}")
    e.add("Characters, in turn order", "\n".join(chars) or "none yet: /duel character")
    reply = Reply(embeds=[e])
    if fight is not None:
        order = [f for f in fight.fighters.values()]
        lines = []
        for f in order:
            ail = ", ".join(f"{a.capitalize()} {f.ailments[a]}" for a in AILMENTS if f.ailments.get(a))
            fame = f.rank if f.kind == "monster" else state.characters.get(f.owner).fame if f.owner in \
                state.characters else 0
            bits = [f"Grit {f.grit}/{f.max_grit}", f"Fame {fame}"]
            if f.id == fight.token:
                bits.append("holds the Priority token")
            if f.recalled:
                bits.append("Recalled" if f.kind == "character" else "fallen")
            if ail:
                bits.append(ail)
            if f.effects:
                bits.append("; ".join(f"{effect_words(e2)} ({e2.label})" for e2 in f.effects))
            if f.kind == "character" and fight.step not in ("join", "over"):
                bits.append(f"{count(len(f.hand), 'card')} in hand" + (f", {sum(1 for p in f.placed if not p.shown)} "
                                                              "face-down" if f.placed else ""))
            lines.append(f"{f.name}: " + ", ".join(bits))
        head = f"Fight {fight.no}, round {fight.round}: {STEP_WORDS.get(fight.step, fight.step)}"
        if fight.zone:
            head += f", at {c0.zone_name(fight.zone)}"
        if fight.runner and state.rules >= 2:
            lines.append(f"{name(fight.runner)} runs the monster and rolls its dice.")
        e.add(head, "\n".join(lines) or "joining")
        if fight.track:
            from rulesets.duel.rules.harm import track_order_key
            from rulesets.duel.rules.model import F

            c = F(state, pack, None)
            e.add("Priority track (highest acts first)", "\n".join(
                f"{t.priority}: {fight.fighters[t.fighter].name}'s {t.label}"
                for t in sorted(fight.track, key=lambda t: track_order_key(c, t))))
        turn, _ping = turn_line(state)
        if turn:
            e.description = turn
        reply.pictures = pictures(inv, state)
    else:
        e.description = ("No fight yet. Make characters with /duel character; then /duel fight monster: (see /duel "
                         "bestiary) or /duel fight rival:.")
    if state.history:
        e.add("Fights so far", "\n".join(f"{h['no']}: {h['result']} ({count(h['rounds'], 'round')})" for h in state.history[-5:]))
    return reply


# ---------------------------------------------------------------- characters --
@command("duel character", "Make your character from a hero (see /duel heroes).",
         Opt("hero", str, "The hero, e.g. sellsword", required=True, autocomplete="duel-heroes"),
         Opt("name", str, "Your character's name", required=True),
         Opt("cards", str, "Obtained cards instead of the hero's, separated by commas (see /duel cards)"),
         Opt("gear", str, "Worn gear instead of the hero's, separated by commas"), ruleset=NAME)
async def duel_character(inv: Invocation, hero, name, cards=None, gear=None) -> Reply:
    state = await _state(inv)
    pack = _pack(state)
    key = slug(hero)
    hero_id = next((h.id for h in pack.heroes.values() if key in (h.id, slug(h.name))), key)
    args: dict[str, Any] = {"hero": hero_id, "name": name}
    if cards is not None:
        args["cards"] = [] if cards.strip().lower() in ("none", "-") else card_ids(pack, cards)
    if gear is not None:
        args["gear"] = [] if gear.strip().lower() in ("none", "-") else gear_ids(pack, gear)
    out = await inv.do("duel.character", args)
    ch = out.state.characters[inv.user_id]
    private = Reply(content=clip(f"{ch.name}'s obtained cards, for your eyes: " + (", ".join(
        f"{pack.cards[c].name}" for c in ch.cards) or "none") + ". /duel sheet shows the whole sheet.", 1990),
        ephemeral=True)
    reply = plain_reply(out)
    reply.followups.append(private)
    return reply


STALE_RETIRE = ("This question is out of date: more has happened in the campaign since it was asked (the "
                "character retired already, say). Nothing was changed; give /duel retire again if you still want it.")


async def last_seq(inv: Invocation) -> int:
    """The newest log entry's number: a confirmation button is bound to the moment it was asked."""
    last = await inv.service.last_entry(inv.channel_id)
    return last.seq if last is not None else 0


@command("duel retire", "Retire your character (between fights) to make another.",
         Opt("confirm", bool, "yes to retire without the button (scripts)", local_only=True), PLAYER, ruleset=NAME)
async def duel_retire(inv: Invocation, confirm=None, player=None) -> Reply:
    from engine.components import confirm_buttons

    state = await _state(inv)
    who = str(player) if player else inv.user_id
    if not confirm:
        await inv.service.check(inv.channel_id, inv.action("duel.retire", {"confirm": True}, player=player))
        return Reply(content=f"Retire {state.characters[who].name} for good?", ephemeral=True,
                     buttons=confirm_buttons("duel-retire", inv.channel_id, f"{who}.s{await last_seq(inv)}",
                                             "Retire", campaign=inv.campaign_id))
    return plain_reply(await inv.do("duel.retire", {"confirm": True}, player=player))


# ---------------------------------------------------------------- the fight --
@command("duel fight", "Call a fight: against a monster of the bestiary, or challenge another player's character.",
         Opt("monster", str, "A monster of the bestiary, e.g. cave-troll", autocomplete="duel-monsters"),
         Opt("rival", str, "Or: the player whose character you challenge", user=True),
         Opt("zone", str, "A monster fight: where (default: where your character stands)", autocomplete="duel-zones"),
         Opt("runner", str, "A monster fight: the player who runs the monster and rolls its dice (default: the bot)",
             user=True), ruleset=NAME, renders=True)
async def duel_fight(inv: Invocation, monster=None, rival=None, zone=None, runner=None) -> Reply:
    state = await _state(inv)
    pack = _pack(state)
    args: dict[str, Any] = {}
    if zone:
        args["zone"] = zone_id(pack, zone)
    if runner:
        args["runner"] = str(runner)
    if monster:
        key = slug(monster)
        args["monster"] = next((m.id for m in pack.monsters.values() if key in (m.id, slug(m.name))), key)
    if rival:
        args["rival"] = str(rival)
    return fight_reply(inv, await inv.do("duel.fight", args))


@command("duel join", "Answer the join question: join the fight (or a side), or stay out.",
         Opt("answer", str, "in (join), out (stay out); in a challenge: a (the challenger's side) or b (the rival's)",
             required=True, autocomplete="duel-answers"),
         Opt("gear", str, "The worn gear that applies, if you own more than one"), PLAYER, ruleset=NAME, renders=True)
async def duel_join(inv: Invocation, answer, gear=None, player=None) -> Reply:
    state = await _state(inv)
    pack = _pack(state)
    raw = str(answer).strip().lower()
    head, _, rest = raw.partition(".")
    word = JOIN_WORDS.get(head)
    if word is None:
        raise RuleError("answer: is in (join), out (stay out), a or b (a side in a challenge).")
    worn = gear_ids(pack, gear or rest) if (gear or rest) else []
    who = str(player) if player else inv.user_id
    ch = state.characters.get(who)
    p = open_prompt(state)
    asked = p is not None and p.kind == "join" and p.owner == who
    if asked and ch is not None and word != "out" and len(ch.gear) > 1:
        if not worn:
            raise RuleError(f"{ch.name} owns more than one worn gear; name the one that applies with gear: ("
                            + ", ".join(ch.gear) + ").")
        word = f"{word}.{worn[0]}"
    return fight_reply(inv, await inv.do("duel.join", {"choice": word}, player=player))


@command("duel travel", "Your character goes to another zone (between its fights).",
         Opt("zone", str, "Where to, e.g. mill-ford", required=True, autocomplete="duel-zones"), PLAYER, ruleset=NAME)
async def duel_travel(inv: Invocation, zone, player=None) -> Reply:
    state = await _state(inv)
    return plain_reply(await inv.do("duel.travel", {"zone": zone_id(_pack(state), zone)}, player=player))


@command("duel roll", "You run the monster: roll the die or dice the fight waits on (its procedure, its attack).",
         PLAYER, ruleset=NAME, renders=True)
async def duel_roll(inv: Invocation, player=None) -> Reply:
    await _state(inv)
    return fight_reply(inv, await inv.do("duel.roll", {}, player=player))


@command("duel hand", "Your hand, face-down cards and discard pile (only you see them).", ruleset=NAME,
         private=True)
async def duel_hand(inv: Invocation) -> Reply:
    state = await _state(inv)
    return hand_reply(inv, state, await inv.service.campaign_id(inv.channel_id))


@command("duel place", "Place up to two cards from your hand face-down (only you see which).",
         Opt("cards", str, "One or two cards, separated by commas, e.g. lure,base attack (none: place no card)",
             required=True, autocomplete="duel-hand"),
         Opt("target", str, "The enemy your attacks aim at (needed when there are several)",
             autocomplete="duel-enemies"),
         Opt("ally", str, "Who your ally effects help (default: you)", autocomplete="duel-allies"),
         Opt("base", str, "What a Base Attack does when revealed: attack or token (default: you are asked then)"),
         ruleset=NAME, renders=True)
async def duel_place(inv: Invocation, cards, target=None, ally=None, base=None) -> Reply:
    state = await _state(inv)
    pack = _pack(state)
    if state.fight is None or state.fight.over:
        raise RuleError("There is no fight going on. Start one with /duel fight.")
    picks = [] if cards.strip().lower() in ("none", "-", "nothing") else card_ids(pack, cards)
    args: dict[str, Any] = {"cards": picks}
    if target:
        args["target"] = fighter_id(state, target, "target")
    if ally:
        args["ally"] = fighter_id(state, ally, "ally")
    if base:
        words = [w.strip().lower() for w in re.split(r"[,;\s]+", base) if w.strip()]
        if any(w not in ("attack", "token") for w in words):
            raise RuleError("base: is attack or token (for two Base Attacks: attack,token).")
        args["base"] = words
    out = await inv.do("duel.place", args)
    return placed_reply(inv, out, picks, pack)


@command("duel pass", "Place no card this round (the leader may do it for an absent player).", PLAYER,
         ruleset=NAME, renders=True)
async def duel_pass(inv: Invocation, player=None) -> Reply:
    await _state(inv)
    return fight_reply(inv, await inv.do("duel.pass", {}, player=player))


@command("duel declare", "Your revealed Base Attack: attack, or take the Priority token.",
         Opt("use", str, "attack or token", required=True, choices=("attack", "token")), PLAYER, ruleset=NAME,
         renders=True)
async def duel_declare(inv: Invocation, use, player=None) -> Reply:
    await _state(inv)
    return fight_reply(inv, await inv.do("duel.declare", {"use": use}, player=player))


@command("duel reroll", "Spend 2 Fame to reroll one die of the roll (leave die out to pass).",
         Opt("die", int, "The die to reroll (1 = the first)", **Reroll.args["die"].range), PLAYER, ruleset=NAME,
         renders=True)
async def duel_reroll(inv: Invocation, die=None, player=None) -> Reply:
    await _state(inv)
    return fight_reply(inv, await inv.do("duel.reroll", {"die": die} if die else {}, player=player))


@command("duel settings", "How long a question waits before its default answer (leader).",
         Opt("ask_minutes", int, "Joining, declaring and Fame rerolls: minutes (0 = wait)",
             **SETTING["ask_minutes"].range),
         Opt("place_hours", int, "Placing cards: hours before the player places none (0 = wait)",
             **SETTING["place_hours"].range), ruleset=NAME)
async def duel_settings(inv: Invocation, ask_minutes=None, place_hours=None) -> Reply:
    state = await _state(inv)
    args = {k: v for k, v in {"ask_minutes": ask_minutes, "place_hours": place_hours}.items() if v is not None}
    if not args:
        return Reply(content=f"{state.name}: questions wait {count(state.settings.get('ask_minutes'), 'minute')}, placing "
                             f"cards {count(state.settings.get('place_hours'), 'hour')} (0 = wait). Change them with "
                             "ask_minutes: or place_hours:.", ephemeral=True)
    return plain_reply(await inv.do("campaign.settings", args))


# ------------------------------------------------------------ autocomplete --
def choices(inv: Invocation, state, source: str, current: str) -> list[tuple[str, str]]:
    pack = _pack(state)
    cur = (current or "").lower()
    out: list[tuple[str, str]] = []
    fight = state.fight if state is not None else None
    if source == "duel-zones":
        out = [(f"{n} ({z})", z) for z, n in getattr(pack, "zones", {}).items()]
    elif source == "duel-heroes":
        out = [(f"{h.name} ({h.id})", h.id) for h in pack.heroes.values()]
    elif source == "duel-monsters":
        out = [(f"{m.name}, Rank {m.rank}, Grit {m.grit}", m.id) for m in pack.monsters.values()]
    elif fight is None or fight.over:
        return []
    elif source == "duel-hand":
        f = fight.fighters.get(f"c:{inv.user_id}")  # the asker's own hand only
        if f is not None:
            seen = dict.fromkeys(f.hand)
            out = [(f"{pack.cards[c].name} (Priority {pack.cards[c].priority})", pack.cards[c].name) for c in seen]
    elif source in ("duel-enemies", "duel-allies"):
        me = fight.fighters.get(f"c:{inv.user_id}")
        for f in fight.fighters.values():
            if me is None or not f.standing or (f.side == me.side) != (source == "duel-allies"):
                continue
            out.append((f.name, f.name))
    elif source == "duel-answers":
        p = open_prompt(state)
        if p is not None and p.kind == "join":
            out = [(o.label, o.value) for o in p.options]
    return [(clip(label, 100), value) for label, value in out if cur in label.lower() or cur in value.lower()][:25]
