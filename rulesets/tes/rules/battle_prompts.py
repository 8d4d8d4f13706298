"""What battle prompts need from the rules: which roll or question a prompt is about, and the time-out.

A prompt's buttons carry a *key* naming the exact roll (``roll_key``) or
prevention question (``ask_key``) they answer; a click whose key no longer
matches the campaign is refused as out of date.  ``battle.prevent-timeout`` is
what the bot does when a player in ``ask`` mode does not answer within the
campaign's ``prevent_timeout_minutes``: the automatic choice applies.  It checks
the key itself, so it can only ever answer the question it was scheduled for
(a late or repeated firing changes nothing).
"""
from __future__ import annotations

import re

from rulesets.tes.battle import flow
from rulesets.tes.battle.model import Ctx, prevent_timeout_minutes, require_battle  # noqa: F401
from engine.bounds import KEY, Int
from engine.core import RuleError
from engine.prompts import Option, Prompt
from rulesets.tes.rules.table import Handler, action

#: minutes a player in ``ask`` mode has to choose prevention (``/campaign settings prevent_timeout_minutes:``)
from rulesets.tes.battle.model import DEFAULT_PREVENT_TIMEOUT_MINUTES  # noqa: E402,F401
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def roll_key(state) -> str | None:
    """The rolled engage waiting to be resolved, e.g. ``b1.r2.t0.e1`` (battle, round, turn, engage)."""
    b = state.battle if state is not None else None
    if not b or not b.pending:
        return None
    return f"b{b.no}.r{b.round}.t{b.turn_index}.e{b.turn.engages}"


def ask_key(state) -> str | None:
    """The prevention question waiting for an answer, e.g. ``b1.r2.e1.h0`` (battle, round, enemy, its hit);
    ``b1.r2.q3`` for damage that waited in the queue; a guard question ends with ``.g`` and the guard."""
    b = state.battle if state is not None else None
    aw = b.asking if b else None
    if not aw:
        return None
    if aw.queued and b.harms:
        key = f"b{b.no}.r{b.round}.q{b.harms[0].id}"
    else:
        cur = b.enemy_phase.current if b.enemy_phase else None
        hit = next((i for i, h in enumerate(cur.hits if cur else []) if not h.done), 0)
        key = f"b{b.no}.r{b.round}.{_UNSAFE.sub('_', str(aw.enemy))}.h{hit}"
    if aw.guard:
        key += f".g{_UNSAFE.sub('_', aw.guard)}"
    return key[:48]


def offer_key(state) -> str | None:
    """The free move waiting for its player, e.g. ``b1.r2.m3`` (battle, round, offer)."""
    b = state.battle if state is not None else None
    if not b or not b.offers:
        return None
    return f"b{b.no}.r{b.round}.m{b.offers[0].id}"


def lockpick_key(state) -> str | None:
    """The lockpick check waiting for an answer, e.g. ``b1.r2.lp1.a2`` (battle, round, check, attempt)."""
    b = state.battle if state is not None else None
    lp = b.lockpick if b else None
    if not lp:
        return None
    kind = "" if lp.kind == "cache" else f".{lp.kind[:1]}"  # a trap's or a cage's check keys apart from a cache's
    return f"b{b.no}.r{b.round}.lp{b.turn_index}{kind}.a{lp.attempt}"


def choice_key(state) -> str | None:
    """A card's choice waiting for its player, e.g. ``b1.r2.ch3`` (battle, round, choice)."""
    b = state.battle if state is not None else None
    if not b or not b.choices:
        return None
    return f"b{b.no}.r{b.round}.ch{b.choices[0].id}"


def place_key(state) -> str | None:
    """A delve's revealed tile waiting for where it goes, e.g. ``b1.r2.x4`` (battle, round, exploration)."""
    b = state.battle if state is not None else None
    ex = b.delve.exploring if b and b.delve else None
    if ex is None or ex.stage != "place":
        return None
    return f"b{b.no}.r{b.round}.x{b.delve.explorations}"


def open_prompt(state) -> Prompt | None:
    """The question the battle waits on: a prevention question, a free move, a card's choice, where a delve's
    tile goes, a rolled engage or a lockpick check."""
    b = state.battle if state is not None else None
    if not b:
        return None
    found = _delve_prompt(state, b)
    if found is not None:
        return found
    if b.asking:
        aw = b.asking
        sources = list(aw.sources)
        return Prompt(
            id=ask_key(state), kind="prevent", owner=aw.owner, action="battle.prevent",
            options=tuple(Option(str(i), f"{i}. {s['label']}", f"prevents up to {s['value']}")
                          for i, s in enumerate(sources, 1)),
            default="auto", pick=len(sources), ordered=True, deadline=aw.deadline,
            timeout_action="battle.prevent-timeout", data={"arg": "use", "amount": aw.amount})
    if b.offers:
        from rulesets.tes.battle.flow import offer_destinations

        o = b.offers[0]
        spots = offer_destinations(Ctx(state, _pack(state), None), o.owner, o.amount, o.through)
        return Prompt(
            id=offer_key(state), kind="move", owner=o.owner, action="battle.react",
            options=tuple(Option(str(i), f"{i}. Move to {h}", "") for i, h in enumerate(spots, 1)),
            default="stay", pick=1 if spots else 0, deadline=o.deadline, timeout_action="battle.offer-timeout",
            data={"arg": "pick", "source": o.source})
    if b.pending:
        p = b.pending
        return Prompt(
            id=roll_key(state), kind="roll", owner=p.owner, action="battle.resolve",
            options=tuple(Option(str(i), f"{i}. {d['label']}: {d.get('face', '')}",
                                 "free die" if d.get("free") else f"rolled {d.get('roll')}")
                          for i, d in enumerate(p.dice, 1)),
            default="all", pick=len(p.dice), ordered=True, data={"arg": "order"})
    if b.lockpick:
        lp = b.lockpick
        return Prompt(
            id=lockpick_key(state), kind="lockpick", owner=lp.owner, action="battle.lockpick",
            options=tuple(Option(str(i), f"Keep die {i} ({v})") for i, v in enumerate(lp.dice, 1)),
            default="", pick=len(lp.dice), data={"arg": "keep"})
    return None




def _delve_prompt(state, b) -> Prompt | None:
    """A card's choice or a tile's placement (after a prevention question and a free move: those come first)."""
    if b.asking or b.offers:
        return None
    if b.choices:
        ch = b.choices[0]
        return Prompt(
            id=choice_key(state), kind="choice", owner=ch.owner, action="battle.choose",
            options=tuple(Option(str(i), f"{i}. {o['label']}", ch.source) for i, o in enumerate(ch.options, 1)),
            default=str(ch.default), pick=1, deadline=ch.deadline, timeout_action="battle.choose-timeout",
            data={"arg": "option", "source": ch.source})
    ex = b.delve.exploring if b.delve else None
    if ex is not None and ex.stage == "place":
        return Prompt(
            id=place_key(state), kind="place", owner=ex.owner, action="battle.place",
            options=tuple(Option(str(i), f"{i}. Placement {i}" + (" (keeps the most explorable)" if
                                                                  i == ex.default else ""), "")
                          for i in range(1, len(ex.options) + 1)),
            default=str(ex.default), pick=1, deadline=ex.deadline, timeout_action="battle.place-timeout",
            data={"arg": "place", "tile": ex.tile})
    return None


def _pack(state):
    from rulesets.tes.content import load_pack

    return load_pack(state.pack, version=state.pack_version)


class _Timeout(Handler):
    """A question nobody answered in time: the bot fires it in the leader's name (the log shows a time-out).

    It checks the key itself, so it only ever answers the question it was scheduled for: a late or repeated
    firing changes nothing."""

    leader_only = True
    args = {"ask": KEY, "prompt": KEY, "minutes": Int(0, 7 * 24 * 60)}
    stale = ""  # the refusal when the question was answered meanwhile
    off = ""  # the refusal when the leader turned the time-out off

    def key(self, state) -> str | None:
        raise NotImplementedError

    def fire(self, c: Ctx, minutes: int, key: str) -> None:
        raise NotImplementedError

    def apply(self, state, action, ctx):
        require_battle(state)
        key = str(action.args.get("ask") or action.args.get("prompt") or "")
        if self.key(state) != key:
            raise RuleError(self.stale)
        if "minutes" not in action.args and prevent_timeout_minutes(state) <= 0:
            raise RuleError(self.off)
        c = Ctx(state, ctx.pack_for(state), ctx.dice, now=ctx.now)
        self.fire(c, int(action.args.get("minutes") or prevent_timeout_minutes(state)), key)
        from rulesets.tes.rules.days import after_battle

        after_battle(c)  # a battle a card started hands its result back to the day
        return state, c.events


@action
class OfferTimeout(_Timeout):
    type = "battle.offer-timeout"
    summary = "Nobody made the free move offered in time: the adventurer stays."
    stale = "That free move was already made or declined; nothing timed out."
    off = "The party leader turned the time-out off; the offer waits."

    def key(self, state):
        return offer_key(state)

    def fire(self, c, minutes, key):
        owner = c.b.offers[0].owner
        c.say("timeout", f"⏰ {c.adv(owner).name} made no move within {c.count(minutes, 'minute')}, so they stay where "
                         "they are.", player=owner)
        flow.react(c, owner, {"stay": True})


@action
class PreventTimeout(_Timeout):
    type = "battle.prevent-timeout"
    summary = "Nobody chose prevention in time: the automatic choice applies."
    stale = "That prevention question was already answered; nothing timed out."
    off = "The party leader turned the prevention time-out off; the question waits."

    def key(self, state):
        return ask_key(state)

    def fire(self, c, minutes, key):
        owner = c.b.asking.owner
        adv = c.state.adventurers.get(owner)
        c.say("timeout", f"⏰ {adv.name if adv else 'The adventurer'} got no prevention choice within "
                         f"{c.count(minutes, 'minute')}, so the automatic choice applies.", player=owner, ask=key)
        flow.answer_prevention(c, owner, "auto")
