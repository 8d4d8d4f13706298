"""The intercept question as buttons and a menu (a click on them is answered in ``present.commands``).

The question is the game's open prompt (``engine.prompts.Prompt``, built by ``rules.battle.open_prompt``): owned
by the player who did not engage, with a deadline the service commits with the engage (the bot's deadline loop
answers "no intercept" when it passes, ``mini.intercept-timeout``).  Its post shows **No intercept** (the
default), a menu of the units that can intercept and where, and when the time-out falls.  A click runs
``mini.intercept`` through the service like ``/mini intercept``; ``engine.prompts.answer`` checks under the
channel's lock that the question is still the open one and that the clicker owns it (or leads the party).

Ids: ``hx:mii:<channel>:c<campaign>.<question id>.<verb>`` (verb ``none`` or ``pick``).
"""
from __future__ import annotations

import logging
import re

from engine.commands import Invocation
from engine.components import make_id
from engine.prompts import open_prompt
from engine.reply import Button, Reply, Select, clip
from engine.text import count

log = logging.getLogger("hexpost.prompts")
CLICK = "mii"
ARG = re.compile(r"^c(\d{1,12})\.([A-Za-z0-9_.-]{1,48})\.(none|pick)$")
STALE = ("This intercept question is out of date: it was already answered (or the time-out answered it). "
         "Nothing was changed; see /mini status.")
OLD = "This button comes from an older version of the bot. Use /mini intercept instead."


async def attach(inv: Invocation, out, reply: Reply) -> None:
    """Add the intercept question's buttons, menu and deadline to a reply (when one is open).  The action is
    already committed: a failure here is logged and the reply goes out without them (/mini intercept works)."""
    try:
        state = out.state
        prompt = open_prompt(state)
        if prompt is None or prompt.kind != "intercept":
            return
        cid = out.campaign_id or await inv.service.campaign_id(inv.channel_id)
        if cid is None:
            return
        show(inv, prompt, cid, reply, state)
    except Exception:  # noqa: BLE001
        log.exception("intercept prompt in %s could not be attached", inv.channel_id)


def show(inv: Invocation, prompt, cid: int, reply: Reply, state) -> None:
    reply.buttons.append(Button(make_id(CLICK, inv.channel_id, f"c{cid}.{prompt.id}.none"), "No intercept",
                                "secondary"))
    options = [(clip(o.label, 100), o.value, "") for o in prompt.options][:25]
    reply.selects.append(Select(make_id(CLICK, inv.channel_id, f"c{cid}.{prompt.id}.pick"),
                                "Intercept with…", options, 1, 1))
    minutes = (state.pending or {}).get("minutes")
    if prompt.deadline is not None:
        line = (f"⏳ Without an answer within {count(minutes, 'minute')} (<t:{int(prompt.deadline)}:R>), no unit intercepts "
                "and the engage goes on.")
    else:
        line = "(No time-out is set: the engage waits for the answer.)"
    reply.content = clip(f"{reply.content}\n{line}", 1990)


def _not_yours(prompt, state) -> str:
    return "This intercept question is for the player who did not engage; only they (or the party leader) answer it."
