"""What a press of a fight's buttons and menus does (their look is ``rulesets.duel.present.prompts``): the answer
runs the open prompt's action through the service (``engine.prompts.answer``), under the channel's lock; a click on
an answered, replaced or ended question is refused privately and changes nothing."""
from __future__ import annotations

from typing import Any

from engine.commands import Invocation
from engine.components import on_click
from engine.core import RuleError
from engine.prompts import answer
from engine.reply import Reply
from rulesets.duel.content import pack_of
from rulesets.duel.present.commands import STALE_RETIRE, duel_retire, last_seq
from rulesets.duel.present.prompts import (ARG, CLICK, OLD, STALE, _Ask, _not_yours, _open, foes, needs_target,
                                           target_question)
from rulesets.duel.present.replies import fight_reply, placed_reply


# ------------------------------------------------------------------ clicks --
@on_click(CLICK, ruleset="duel")
async def _click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    m = ARG.match(arg)
    if m is None:
        return Reply.fail(OLD)
    cid, pid, verb = int(m.group(1)), m.group(2), m.group(3)
    if await inv.service.campaign_id(inv.channel_id) != cid:
        return Reply.fail(STALE)
    if verb == "open":
        return await _open(inv, cid, pid)
    state = await inv.service.campaign(inv.channel_id)
    picked: list[str] = []

    def args(prompt) -> dict[str, Any]:
        a: dict[str, Any] = {"prompt": prompt.id}
        if prompt.kind == "place":
            if verb == "none":
                return a | {"cards": []}
            hand = state.fight.fighters[f"c:{prompt.owner}"].hand
            spots = values if verb == "pick" else verb.split(".")[1][1:].split("-") if verb.startswith("t") else []
            try:
                chosen = sorted({int(v) for v in spots})
            except ValueError:
                raise RuleError(OLD) from None
            if not chosen or any(not 1 <= k <= len(hand) for k in chosen) or len(chosen) > 2:
                raise RuleError("Pick one or two cards from the menu (or press Place no card).")
            picked[:] = [hand[k - 1] for k in chosen]
            a["cards"] = list(picked)
            if verb.startswith("t"):
                a["target"] = foes(state, prompt.owner)[int(verb.split(".")[0][1:]) - 1].id
            elif needs_target(state, prompt.owner, picked):
                raise _Ask(target_question(inv, cid, prompt, state, chosen))
            return a
        if prompt.kind == "fame":
            return a | ({} if verb == "pass" else {"die": int(verb[1:])})
        if prompt.kind == "monster":
            if verb != "roll":
                raise RuleError(OLD)
            return a
        k = int(verb[1:]) if verb[:1] == "o" and verb[1:].isdecimal() else 0
        if not 1 <= k <= len(prompt.options):
            raise RuleError(OLD)
        return a | {prompt.data["arg"]: prompt.options[k - 1].value}

    try:
        out = await inv.service.execute(inv.channel_id, answer(pid, inv.user_id, args, stale=STALE,
                                                               not_yours=_not_yours), campaign=cid)
    except _Ask as ask:
        return ask.reply
    if out.action.type == "duel.place" and out.action.args.get("cards"):
        return placed_reply(inv, out, list(out.action.args["cards"]), pack_of(out.state))
    return fight_reply(inv, out)


@on_click("duel-retire", campaign=True, ruleset="duel")
async def _retire(inv: Invocation, arg: str, values: list[str]) -> Reply:
    who, _, mark = arg.rpartition(".")  # bound to its campaign and to the moment it was asked
    if not who or mark != f"s{await last_seq(inv)}":
        return Reply.fail(STALE_RETIRE)
    reply = await duel_retire(inv, confirm=True, player=who if who != inv.user_id else None)
    reply.update = not reply.error
    return reply


# ------------------------------------------------------------------ time-outs --
async def after_timeout(inv: Invocation, out) -> Reply:
    """The post after a time-out gave a question's default answer (``cogs/deadlines.py`` sends it)."""
    return fight_reply(inv, out)
