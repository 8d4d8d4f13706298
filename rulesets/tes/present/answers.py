"""Answering the battle's prompts: the roll, prevention and lockpick buttons and menus, and the time-outs.

The prompts are drawn by ``battle_prompts.attach_prompts`` (called by ``battle.battle_reply``); their answers come
here and go through the service like commands, then the party gets the battle reply again.
"""
from __future__ import annotations

import logging

from engine.commands import Invocation
from engine.components import on_click
from engine.core import RuleError
from engine.prompts import answer
from engine.reply import Reply
from rulesets.tes.present.battle import battle_reply
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
            if look.get("one") and len(chosen) > 1:  # (a menu posted before it took one pick only)
                raise RuleError(f"Only one pick counts here, and you picked {len(chosen)}. " + PICK_ONE[kind])
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
                                                               not_yours=_not_yours(look["what"])), campaign=cid)
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


@on_click("roll", ruleset="tes")
async def _roll_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("roll", inv, arg, values)


@on_click("prv", ruleset="tes")
async def _prevent_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("prv", inv, arg, values)


@on_click("lpk", ruleset="tes")
async def _lockpick_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("lpk", inv, arg, values)


@on_click("mov", ruleset="tes")
async def _move_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("mov", inv, arg, values)


@on_click("chc", ruleset="tes")
async def _choice_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("chc", inv, arg, values)


@on_click("plc", ruleset="tes")
async def _place_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    return await _answer_click("plc", inv, arg, values)


# ------------------------------------------------------------ deadlines --
# The time-outs run through the engine's deadline runner, shared by every ruleset (engine/deadlines.py); this
# game's presenter gives the post (``TesPresenter.timeout_reply``) and the minutes for a prompt saved without a
# deadline (``TesPresenter.prompt_minutes``).
from engine.deadlines import fire_deadline, run_due_deadlines, sweep  # noqa: E402

__all__ = ["changed_by_enemies", "sweep", "fire_deadline", "run_due_deadlines", "POLL_SECONDS"]
