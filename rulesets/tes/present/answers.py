"""Answering the battle's prompts: the roll, prevention and lockpick buttons and menus, and the time-outs.

The prompts are drawn by ``battle_prompts.attach_prompts`` (called by ``battle.battle_reply``); their answers come
here and go through the service like commands, then the party gets the battle reply again.
"""
from __future__ import annotations

import logging
from typing import Awaitable, Callable

from engine.commands import Invocation
from engine.components import on_click
from engine.core import Action, RuleError
from engine.present import error_text
from engine.prompts import answer, open_prompt
from engine.reply import Reply
from rulesets.tes.present.battle import battle_reply
from rulesets.tes.rules.battle_prompts import prevent_timeout_minutes
from rulesets.tes.present.battle_prompts import (  # noqa: F401
    KIND_OF_CLICK, MAX_OPTIONS, OLD_ID, POLL_SECONDS, PREVENT, SHOWN, STALE_ASK, STALE_LOCK,
    STALE_ROLL, _Ask, _decode, _encode, _not_yours, _numbers, _order_question, _parse, changed_by_enemies,
)

log = logging.getLogger("hexpost.prompts")


async def _answer_click(click: str, inv: Invocation, arg: str, values: list[str]) -> Reply:
    """A button or menu answer: runs the prompt's action through the service, like its command."""

    parsed = _parse(arg)
    if parsed is None:
        return Reply.fail(OLD_ID)
    cid, key, verb = parsed
    kind = KIND_OF_CLICK[click]
    look = SHOWN[kind]

    def args(prompt) -> dict:
        name, n = prompt.data["arg"], len(prompt.options)
        fixed = {v: dict(a) for v, _label, _style, a in look["buttons"]}
        if verb in fixed:
            return fixed[verb]
        if verb == "pick":
            chosen = _numbers(values, n)
            if not chosen:
                raise RuleError(PICK_ONE[kind])
            if not prompt.ordered:
                chosen = sorted(chosen)
            if chosen != sorted(chosen):
                names = [o.label.split(". ", 1)[-1].split(":")[0] for o in prompt.options]
                raise _Ask(_order_question(click, inv, cid, key, chosen, names, look["natural"]))
            return {name: chosen}
        if verb.startswith("o") and _decode(verb[1:], n):
            return {name: _decode(verb[1:], n)}
        raise RuleError(OLD_ID)

    if await inv.service.campaign_id(inv.channel_id) != cid:
        return Reply.fail(STALE[kind])
    try:
        out = await inv.service.execute(inv.channel_id, answer(key, inv.user_id, args, stale=STALE[kind],
                                                               not_yours=_not_yours(look["what"])))
    except _Ask as ask:
        return ask.reply
    return await battle_reply(inv, out)


PICK_ONE = {"roll": "Choose at least one die from the menu (or press **Resolve none**).",
            "prevent": "Choose at least one source from the menu (or press **Use no prevention**).",
            "lockpick": "Choose at least one die to keep (or press **Try this attempt**).",
            "move": "Choose one hex from the menu (or press **Stay where you are**).",
            "choice": "Choose one option from the menu (or press **Take the default**).",
            "place": "Choose one placement from the menu (or press **Use the suggested placement**)."}
STALE_MOVE = ("This free move is out of date: it was already made or declined (or the time-out kept the "
              "adventurer in place). Nothing was changed; see `/battle status`.")
STALE_CHOICE = ("This choice is out of date: it was already made (or the time-out applied its default). "
                "Nothing was changed; see `/battle status`.")
STALE_PLACE = ("This tile placement is out of date: the tile was already placed. Nothing was changed; "
               "see `/battle map`.")
STALE = {"roll": STALE_ROLL, "prevent": STALE_ASK, "lockpick": STALE_LOCK, "move": STALE_MOVE,
         "choice": STALE_CHOICE, "place": STALE_PLACE}


@on_click("roll")
async def _roll_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("roll", inv, arg, values)


@on_click("prv")
async def _prevent_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("prv", inv, arg, values)


@on_click("lpk")
async def _lockpick_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("lpk", inv, arg, values)


@on_click("mov")
async def _move_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("mov", inv, arg, values)


@on_click("chc")
async def _choice_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("chc", inv, arg, values)


@on_click("plc")
async def _place_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("plc", inv, arg, values)


# ------------------------------------------------------------ deadlines --
async def sweep(table, now: float | None = None) -> int:
    """At start-up: schedule the deadline of any open prompt that has none in the database.

    The commit that opens a prompt writes its deadline, so this only finds prompts saved before
    deadlines were committed with the state (a question without a recorded time gets one from ``now``).
    """
    from rulesets.tes.state import Campaign

    store = table.service.store
    now = table.service.clock() if now is None else now
    added = 0
    for cid, channel in await store.active_campaigns():
        stored = await store.load_active(channel)
        if stored is None or stored.id != cid:
            continue
        prompt = open_prompt(Campaign.from_dict(stored.state))
        if prompt is None or not prompt.timeout_action:
            continue
        if any(d.key == prompt.deadline_key for d in await store.pending_deadlines(cid)):
            continue
        due = prompt.deadline
        if due is None:
            minutes = prevent_timeout_minutes(Campaign.from_dict(stored.state))
            if minutes <= 0:
                continue
            due = now + minutes * 60
        added += await store.add_deadline(cid, prompt.deadline_key, prompt.kind, channel, prompt.owner, due, now)
    return added


async def fire_deadline(table, deadline) -> Reply | None:
    """Apply one due deadline through the service; the post to make, or None when it no longer applies."""

    if await table.service.campaign_id(deadline.channel_id) != deadline.campaign_id:
        return None

    def build(state) -> Action:  # under the channel's lock: only the prompt the deadline was set for
        prompt = open_prompt(state)
        if prompt is None or prompt.deadline_key != deadline.key or not prompt.timeout_action:
            raise RuleError("That question was already answered; nothing timed out.")
        return Action(prompt.timeout_action, state.leader, {"ask": prompt.id})

    inv = table.invocation("", deadline.channel_id)
    try:
        out = await table.service.execute(deadline.channel_id, build)
    except RuleError as exc:  # answered meanwhile, or the time-out was turned off
        log.info("deadline %s of campaign %s: %s", deadline.key, deadline.campaign_id, error_text(exc))
        return None
    inv = table.invocation(out.action.actor, deadline.channel_id)
    return await battle_reply(inv, out)


async def run_due_deadlines(table, send: Callable[[str, Reply], Awaitable[object]],
                            now: float | None = None) -> int:
    """Fire every deadline due at ``now`` and post what it did; returns how many posts were made.

    Exactly once: the time-out action itself refuses unless its question is still the one waiting, so of
    two loops (or a retry after a crash) only one changes the campaign and posts; the row is then marked
    fired.  A post that fails is logged, not retried (the campaign has moved on; `/battle status` shows it).
    """
    store = table.service.store
    now = table.service.clock() if now is None else now
    posted = 0
    for d in await store.due_deadlines(now):
        reply = None
        try:
            reply = await fire_deadline(table, d)
        except Exception:  # noqa: BLE001 - one broken deadline must not stop the others
            log.exception("deadline %s of campaign %s failed", d.key, d.campaign_id)
        finally:
            await store.claim_deadline(d.campaign_id, d.key, now)
        if reply is None:
            continue
        try:
            await send(d.channel_id, reply)
            posted += 1
        except Exception:  # noqa: BLE001
            log.exception("the time-out post for campaign %s could not be sent", d.campaign_id)
    return posted


__all__ = ["changed_by_enemies", "sweep", "fire_deadline", "run_due_deadlines", "POLL_SECONDS"]
