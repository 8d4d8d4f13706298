"""Buttons and menus for the question a fight waits on, and the private place menu.

Each question is the campaign's open prompt (``rulesets.duel.rules.prompts``); its buttons carry the prompt's
id (``hx:duel:<channel>:c<campaign>.<prompt>.<verb>``), and an answer runs the prompt's action through the
service (``engine.prompts.answer``), which checks under the channel's lock that it is still the open question
and that the clicker may answer it.  A click on an answered, replaced or ended question is refused privately
and changes nothing.

- join: one button per answer (join, a side, which worn gear, stay out);
- declare: **Attack** and **Take the Priority token**;
- fame: one **Reroll die N** button per die not yet rerolled, and **Pass**;
- monster: **Roll the monster's ... die** for the player who runs the monster;
- place (a private prompt): the public post has only **Choose my cards**; pressed by the hand's owner it opens
  a private menu of the hand (pick one or two) and **Place no card**; anyone else is refused, and never sees
  the hand.  With several enemies and an attack among the picks, a private second step asks the target.
"""
from __future__ import annotations

import re

from engine.commands import Invocation
from engine.components import make_id
from engine.core import RuleError
from engine.prompts import open_prompt, visible_options
from engine.reply import Button, Reply, Select, clip
from engine.text import count

CLICK = "duel"
ARG = re.compile(r"^c(\d+)\.(f\d+\.a\d+)\.([A-Za-z0-9_.-]+)$")
STALE = ("This question is out of date: it was already answered (or the time-out answered it). Nothing was "
         "changed; see /duel status.")
OLD = "This button comes from an older version of the bot. Use the /duel commands instead."
MAX_BUTTONS = 20


def _id(inv: Invocation, cid: int, prompt_id: str, verb: str) -> str:
    return make_id(CLICK, inv.channel_id, f"c{cid}.{prompt_id}.{verb}")


def attach(inv: Invocation, cid: int, state, reply: Reply) -> None:
    """The question's line, ping, buttons and deadline, added to a public post."""
    turn, ping = turn_line(state)
    if turn:
        reply.content = clip(f"{reply.content}\n\n{turn}" if reply.content else turn, 1950)
    reply.ping = ping
    p = open_prompt(state)
    if p is None or not cid:
        return
    if p.kind == "place":
        reply.buttons.append(Button(_id(inv, cid, p.id, "open"), "Choose my cards (private)", "primary"))
        reply.buttons.append(Button(_id(inv, cid, p.id, "none"), "Place no card", "secondary"))
    elif p.kind == "monster":
        reply.buttons.append(Button(_id(inv, cid, p.id, "roll"), clip(p.options[0].label, 80), "primary"))
    elif p.kind == "fame":
        for o in p.options[:MAX_BUTTONS - 1]:
            reply.buttons.append(Button(_id(inv, cid, p.id, f"d{o.value}"), clip(o.label, 80), "primary"))
        reply.buttons.append(Button(_id(inv, cid, p.id, "pass"), "Pass (no reroll)", "secondary"))
    else:
        for k, o in enumerate(p.options[:MAX_BUTTONS], 1):
            style = "danger" if o.value == "out" else "success" if k == 1 else "primary"
            reply.buttons.append(Button(_id(inv, cid, p.id, f"o{k}"), clip(o.label, 80), style))
    line = deadline_line(state, p)
    if line:
        reply.content = clip(f"{reply.content}\n{line}", 1990)


def turn_line(state) -> tuple[str, str | None]:
    """Who the duel waits for, worded with a mention, and the id to ping."""
    fight = state.fight
    if fight is None:
        return "", None
    p = open_prompt(state)
    if p is None:
        if fight.over:
            return f"Fight {fight.no} is over: {fight.result}.", None
        return "", None
    who = f"<@{p.owner}>"
    name = p.data.get("name") or "your character"
    if p.kind == "join":
        return f"{who}, does {name} join the fight? Choose below (or /duel join).", p.owner
    if p.kind == "place":
        f = fight.fighters.get(f"c:{p.owner}")
        n = len(f.hand) if f else 0
        return (f"{who}, place up to two of {name}'s {count(n, 'card')} face-down: press **Choose my cards** (only you "
                "will see your hand) or use /duel place.", p.owner)
    if p.kind == "declare":
        return (f"{who}, {name}'s Base Attack is face-up: attack with it, or take the Priority token? "
                "(/duel declare)", p.owner)
    if p.kind == "monster":
        what = p.options[0].label if p.options else "Roll the monster's dice"
        return (f"{who}, you run the {p.data.get('monster') or 'monster'}: {what[:1].lower()}{what[1:]} with the "
                "button (or /duel roll).", p.owner)
    roll = fight.roll
    shown = ", ".join(f"{v}{'*' if r else ''}" for v, r in zip(roll.dice, roll.rerolled)) if roll else ""
    need = f" (needs {roll.need})" if roll and roll.need else ""
    return (f"{who}, {roll.label if roll else 'the roll'} shows {shown}{need}. Spend 2 of {name}'s "
            f"{p.data.get('fame', 0)} Fame to reroll one die (* rerolled already), or pass? (/duel reroll)",
            p.owner)


def deadline_line(state, p) -> str:
    name = p.data.get("name") or "the player"
    what = {"join": f"{name} " + ("fights" if p.default != "out" else "stays out"),
            "place": f"{name} places no card this round", "declare": f"{name}'s Base Attack attacks",
            "fame": f"{name} rerolls nothing",
            "monster": f"the bot rolls for the {p.data.get('monster') or 'monster'}"}[p.kind]
    if p.deadline is None:
        return "(No time-out is set: the fight waits for the answer.)"
    span = (count(state.settings.get('place_hours'), 'hour') if p.kind == "place"
            else count(state.settings.get('ask_minutes'), 'minute'))
    return f"⏳ Without an answer within {span} (<t:{int(p.deadline)}:R>), {what}."


def _not_yours(prompt, state) -> str:
    name = prompt.data.get("name") or "another character"
    if prompt.kind == "monster":
        return (f"Only the player who runs the {prompt.data.get('monster') or 'monster'} (or the party leader) rolls "
                "its dice.")
    if prompt.private:
        return f"This is {name}'s hand: only their player can see it and place cards."
    return f"This question is for {name}'s player (or the party leader)."


# ------------------------------------------------------------------ private --
def hand_reply(inv: Invocation, state, cid: int | None) -> Reply:
    """Everything of your own the others can't see: hand, face-down cards; and, if it is your turn to place,
    the menu to place them."""
    from rulesets.duel.content import pack_of

    pack = pack_of(state)
    fight = state.fight
    f = fight.fighters.get(f"c:{inv.user_id}") if fight is not None and not fight.over else None
    if f is None:
        raise RuleError("Your character is not in a fight, so you hold no hand. /duel sheet shows your cards.")
    lines = [f"**{f.name}'s hand** ({count(len(f.hand), 'card')}):"]
    for c in f.hand:
        card = pack.cards[c]
        lines.append(f"- {card.name} (Priority {card.priority}): {card.text}")
    if f.placed:
        lines.append("Face-down: " + ", ".join(pack.cards[p.card].name for p in f.placed))
    if f.out:
        lines.append("Face-up beside you: " + ", ".join(pack.cards[p.card].name for p in f.out))
    lines.append("Discard pile: " + (", ".join(pack.cards[c].name for c in f.discard) or "empty"))
    reply = Reply(content=clip("\n".join(lines), 1990), ephemeral=True)
    p = open_prompt(state)
    if p is not None and p.kind == "place" and p.owner == inv.user_id and cid:
        menu(inv, cid, p, reply)
    return reply


def menu(inv: Invocation, cid: int, p, reply: Reply) -> None:
    options = visible_options(p, inv.user_id)
    if options:
        reply.selects.append(Select(_id(inv, cid, p.id, "pick"), "Pick one or two cards to place face-down",
                                    [(clip(o.label, 100), o.value, clip(o.detail, 100)) for o in options][:25],
                                    1, min(2, len(options))))
    reply.buttons.append(Button(_id(inv, cid, p.id, "none"), "Place no card", "secondary"))


async def _open(inv: Invocation, cid: int, pid: str) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    p = open_prompt(state)
    if p is None or p.id != pid or await inv.service.campaign_id(inv.channel_id) != cid:
        return Reply.fail(STALE)
    if p.owner != inv.user_id:
        return Reply.fail(_not_yours(p, state))
    return hand_reply(inv, state, cid)


class _Ask(Exception):
    """A click that needs one more private step (the target of an attack)."""

    def __init__(self, reply: Reply):
        self.reply = reply


def foes(state, owner: str) -> list:
    fight = state.fight
    me = fight.fighters[f"c:{owner}"]
    seats = [fight.fighters[i] for i in fight.order]
    return [f for f in seats if f.standing and f.side != me.side]


def needs_target(state, owner: str, picks: list[str]) -> bool:
    from rulesets.duel.content import pack_of

    pack = pack_of(state)
    return len(foes(state, owner)) > 1 and any(pack.cards[c].attacks for c in picks)


def target_question(inv: Invocation, cid: int, prompt, state, chosen: list[int]) -> Reply:
    spots = "p" + "-".join(map(str, chosen))
    buttons = [Button(_id(inv, cid, prompt.id, f"t{k}.{spots}"), clip(f"Aim at {f.name}", 80), "primary")
               for k, f in enumerate(foes(state, prompt.owner), 1)]
    return Reply(content="Your attack needs a target: which enemy?", buttons=buttons,
                 ephemeral=True)
