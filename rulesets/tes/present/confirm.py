"""Questions before a turn action that would waste something (``engine.core.Confirm``).

The rules refuse such an action without the player's yes (an engage with no dice, a second move that gives up
the engage, an ability with nothing to recover).  Here the refusal becomes the question, privately, with a yes
button that runs the same action again with ``confirm``.  Everything the button needs is in its id
(``engine/components.py``): the action, the player it acts for, the turn it was asked in and the action's
canonical arguments, packed in the characters an id allows.  A button from an earlier turn, or from before
another move or engage of the same turn, is refused and changes nothing.
"""
from __future__ import annotations

import hashlib
from typing import Any, Awaitable, Callable

from engine.commands import Invocation
from engine.components import make_id, on_click
from engine.core import Confirm, RuleError
from engine.present import error_text
from engine.reply import Button, Reply

#: code in a button id -> (action type, its arguments in the order they are packed)
ACTIONS = {"eng": ("battle.engage", ("target", "form", "item", "overtax")),
           "mov": ("battle.move", ("path",)),
           "abl": ("battle.ability", ("name", "form"))}
CODE_OF = {action: code for code, (action, _keys) in ACTIONS.items()}
#: action type -> the coroutine that runs it and words the reply (set by the command modules)
RUNNERS: dict[str, Callable[[Invocation, dict, Any], Awaitable[Reply]]] = {}
STALE = ("This question is out of date: the turn went on since it was asked, so nothing was done. "
         "Give the command again if you still want it.")


def turn_mark(state) -> str:
    """A short mark of the turn as it is now: it changes with every move, engage or ability of the turn."""
    b = state.battle
    if b is None:
        return "0"
    t = b.turn
    key = f"{b.no}.{b.round}.{b.turn_index}.{t.moves}.{t.engages}.{len(t.used)}.{int(bool(b.pending))}"
    return hashlib.sha1(key.encode()).hexdigest()[:6]


def _pack_value(v: Any) -> str:
    if v is None or v is False:
        return ""
    if v is True:
        return "1"
    if isinstance(v, (list, tuple)):  # hexes
        return "_".join(f"{int(h[0])}.{int(h[1])}" for h in v)
    return str(v)


def _unpack(code: str, fields: list[str]) -> dict[str, Any]:
    _action, keys = ACTIONS[code]
    out: dict[str, Any] = {}
    for key, text in zip(keys, fields):
        if not text:
            continue
        if key == "path":
            out[key] = [[int(x) for x in h.split(".")] for h in text.split("_")]
        elif key == "overtax":
            out[key] = True
        else:
            out[key] = text
    return out


def question(inv: Invocation, state, action: str, owner: str, exc: Confirm) -> Reply:
    """The refusal as a private question, with a button that says yes when its id can carry the action."""
    buttons = []
    code = CODE_OF.get(action)
    if code:
        keys = ACTIONS[code][1]
        arg = f"{code}:{owner}:{turn_mark(state)}:" + ",".join(_pack_value(exc.yes_args.get(k)) for k in keys)
        try:
            buttons = [Button(make_id("yes", inv.channel_id, arg, campaign=inv.campaign_id), exc.label, "primary"),
                       Button(make_id("cancel", inv.channel_id, code, campaign=inv.campaign_id), "Cancel",
                              "secondary")]
        except ValueError:  # too long for an id: the question still names confirm:yes
            buttons = []
    return Reply(content=error_text(exc), ephemeral=True, buttons=buttons)


async def ask_first(inv: Invocation, action: str, args: dict, player, reply: Callable[[Any], Awaitable[Reply]]):
    """Run ``action``; when the rules ask first, the question instead of the reply."""
    try:
        out = await inv.do(action, args, player=player)
    except Confirm as exc:
        state = await inv.service.campaign(inv.channel_id)
        owner = str(player) if player else inv.user_id
        return question(inv, state, action, owner, exc)
    return await reply(out)


@on_click("yes", campaign=True, ruleset="tes")
async def _yes(inv: Invocation, arg: str, values: list[str]) -> Reply:
    parts = arg.split(":", 3)
    if len(parts) != 4 or parts[0] not in ACTIONS:
        return Reply.fail("This button no longer does anything. Give the command again.")
    code, owner, mark, packed = parts
    state = await inv.service.campaign(inv.channel_id)
    if state is None or state.battle is None or turn_mark(state) != mark:
        return Reply.fail(STALE)
    try:
        args = _unpack(code, packed.split(","))
    except (ValueError, IndexError):
        return Reply.fail("This button no longer does anything. Give the command again.")
    action = ACTIONS[code][0]
    player = owner if owner != inv.user_id else None
    try:
        reply = await RUNNERS[action](inv, args | {"confirm": True}, player)
    except RuleError as exc:
        return Reply.fail(error_text(exc))
    return reply
