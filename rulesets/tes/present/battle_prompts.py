"""Buttons and menus for a battle turn, and the prevention time-out.

- After ``/engage``: **Resolve all** (the one-click default), **Resolve none** and a menu to choose which
  dice to resolve, in the order picked.  Discord shows a multi-choice menu's picks in the menu's order but
  reports them in the order they were picked, so when that order differs from the rolled order a second,
  private step asks which of the two orders is meant.  Every choice runs ``battle.resolve``, exactly like
  ``/resolve order:``.
- When an enemy turn stops at a hit on an adventurer in ``ask`` mode: **Use the automatic choice**, **Use no
  prevention** and a menu of the prevention sources, like ``/battle prevent use:``.  The question gets a
  deadline in the database (``deadlines`` table): after the campaign's ``prevent_timeout_minutes`` the bot
  applies the automatic choice (``battle.prevent-timeout``) — see ``run_due_deadlines``.
- After the enemy phase: **Show <name>'s mat** for each adventurer the enemies changed.

Ids: ``hx:roll:<channel>:c<campaign>.<roll key>.<verb>`` and ``hx:prv:<channel>:c<campaign>.<ask key>.<verb>``.
The keys (``rulesets.tes.rules.battle_prompts``) name the exact roll or question, so a click on a prompt that was
already answered, or replaced by a newer one, or belongs to an ended campaign, is refused and changes nothing.
"""
from __future__ import annotations

import logging
import re
from typing import Awaitable, Callable

from kernel.components import make_id, on_click
from kernel.commands import Invocation
from kernel.reply import Button, Reply, Select, clip
from kernel.core import RuleError
from rulesets.tes.rules.battle_prompts import ask_key, prevent_timeout_minutes, roll_key

log = logging.getLogger("hexpost.prompts")

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"  # die or source k (1-based) -> one character of an id
MAX_OPTIONS = 25  # Discord's limit for a menu
ENEMY_UNIT = re.compile(r"^e\d+$")
PREVENT = "prevent"  # the deadlines' kind (and key prefix) for prevention questions
POLL_SECONDS = 60

STALE_ROLL = ("This roll is out of date: it was already resolved, or a newer roll replaced it. "
              "Nothing was changed; see `/battle status`.")
STALE_ASK = ("This prevention question is out of date: it was already answered (or the time-out applied "
             "the automatic choice). Nothing was changed; see `/battle status`.")
OLD_ID = "This button comes from an older version of the bot. Use `/resolve` or `/battle prevent` instead."


# ------------------------------------------------------------ attaching --
async def attach_prompts(inv: Invocation, out, reply: Reply) -> None:
    """Add the turn's buttons and menus to a battle reply (``rulesets.tes.present.battle.battle_reply`` calls this).

    The action is already committed: a failure here is logged and the reply goes out without them
    (the commands still work, and the bot's start-up sweep schedules a missing time-out).
    """
    try:
        await _attach(inv, out, reply)
    except Exception:  # noqa: BLE001
        log.exception("battle prompts for campaign in %s could not be attached", inv.channel_id)


async def _attach(inv: Invocation, out, reply: Reply) -> None:
    state = out.state
    b = state.battle
    cid = out.campaign_id or await inv.service.campaign_id(inv.channel_id)
    if cid is None:
        return
    if b and b.pending:
        _roll_prompt(inv, state, cid, reply)
    due = await ensure_deadline(inv.service.store, cid, inv.channel_id, state, inv.service.clock())
    if b and b.asking:
        _ask_prompt(inv, state, cid, reply, due)
    _mat_buttons(inv, out, reply)


def _cid(kind: str, inv: Invocation, cid: int, key: str, verb: str) -> str:
    return make_id(kind, inv.channel_id, f"c{cid}.{key}.{verb}")


def _roll_prompt(inv: Invocation, state, cid: int, reply: Reply) -> None:
    dice = state.battle.pending.dice
    key = roll_key(state)
    reply.buttons += [Button(_cid("roll", inv, cid, key, "all"), "Resolve all", "success"),
                      Button(_cid("roll", inv, cid, key, "none"), "Resolve none", "secondary")]
    if 2 <= len(dice) <= MAX_OPTIONS:
        options = [(clip(f"{i}. {d['label']}: {d.get('face', '')}", 100), str(i),
                    clip("free die" if d.get("free") else f"rolled {d.get('roll')}", 100))
                   for i, d in enumerate(dice, 1)]
        reply.selects.append(Select(_cid("roll", inv, cid, key, "pick"),
                                    "Or choose dice to resolve, in the order to resolve them",
                                    options, 1, len(options)))


def _ask_prompt(inv: Invocation, state, cid: int, reply: Reply, due: float | None) -> None:
    from rulesets.tes.battle import harm

    aw = state.battle.asking
    key = ask_key(state)
    sources = list(aw.sources)
    auto = [s["label"] for s in sources if s["key"] in harm.auto_choice(sources, int(aw.amount or 0))]
    reply.buttons += [Button(_cid("prv", inv, cid, key, "auto"), "Use the automatic choice", "primary"),
                      Button(_cid("prv", inv, cid, key, "none"), "Use no prevention", "danger")]
    if 1 <= len(sources) <= MAX_OPTIONS:
        options = [(clip(f"{i}. {s['label']}", 100), str(i), clip(f"prevents up to {s['value']}", 100))
                   for i, s in enumerate(sources, 1)]
        reply.selects.append(Select(_cid("prv", inv, cid, key, "pick"),
                                    "Or choose sources, in the order to use them", options, 1, len(options)))
    minutes = prevent_timeout_minutes(state)
    auto_text = ", ".join(auto) or "nothing"
    if due is not None:
        line = (f"⏳ Without an answer within {minutes} minutes (<t:{int(due)}:R>), the automatic choice "
                f"applies: {auto_text}.")
    else:
        line = f"(No time-out is set: the battle waits for the answer. The automatic choice would be: {auto_text}.)"
    reply.content = clip(f"{reply.content}\n{line}", 1990)


def changed_by_enemies(out) -> list[str]:
    """Owners of the adventurers the enemy phase in this action's events touched, in order."""
    active = out.action.type in ("battle.prevent", "battle.prevent-timeout")
    owners: list[str] = []
    for e in out.events:
        unit = str(e.data.get("unit") or "")
        if e.kind in ("turn", "round", "battle-end"):
            active = False
        elif e.kind == "turn-end" or (ENEMY_UNIT.match(unit) and e.kind.startswith("enemy")):
            active = True  # the last adventurer's turn ended, or an enemy moves / rolls
        elif active and unit.startswith("a:") and unit[2:] not in owners:
            owners.append(unit[2:])
    return owners


def _mat_buttons(inv: Invocation, out, reply: Reply) -> None:
    for owner in changed_by_enemies(out):
        adv = out.state.adventurers.get(owner)
        if adv is None or len(reply.buttons) >= 20:
            continue
        try:
            reply.buttons.append(Button(make_id("mat", inv.channel_id, owner), clip(f"Show {adv.name}'s mat", 80)))
        except ValueError:  # an owner id that cannot go into a button
            continue


# --------------------------------------------------------------- clicks --
def _parse(arg: str) -> tuple[int, str, str] | None:
    parts = arg.split(".")
    if len(parts) < 3 or not re.fullmatch(r"c\d+", parts[0]):
        return None
    return int(parts[0][1:]), ".".join(parts[1:-1]), parts[-1]


async def _current(inv: Invocation, cid: int):
    from rulesets.tes.state import Campaign

    stored = await inv.service.store.load_active(inv.channel_id)
    if stored is None or stored.id != cid:
        return None
    return Campaign.from_dict(stored.state)


def _numbers(values: list[str], n: int) -> list[int]:
    out: list[int] = []
    for v in values:
        if str(v).isdigit() and 1 <= int(v) <= n and int(v) not in out:
            out.append(int(v))
    return out


def _decode(text: str, n: int) -> list[int] | None:
    out = [DIGITS.find(ch) for ch in text]
    if any(not 1 <= k <= n for k in out) or len(set(out)) != len(out):
        return None
    return out


def _encode(order: list[int]) -> str:
    return "o" + "".join(DIGITS[k] for k in order)


def _allowed(inv: Invocation, state, owner: str, what: str) -> Reply | None:
    if inv.user_id in (owner, state.leader):
        return None
    adv = state.adventurers.get(owner)
    return Reply.fail(f"This {what} belongs to {adv.name if adv else 'another player'}: only their player "
                      "or the party leader can answer it.")


def _order_question(kind: str, inv: Invocation, cid: int, key: str, chosen: list[int], names: list[str],
                    natural: str) -> Reply:
    """The second step: the order picked differs from the listed order; ask which one is meant."""
    listed = sorted(chosen)
    picked = " → ".join(f"{k}. {names[k - 1]}" for k in chosen)
    return Reply(
        content=clip(f"In which order? You picked {picked}.", 1900),
        buttons=[Button(_cid(kind, inv, cid, key, _encode(chosen)),
                        clip("In the order picked: " + " → ".join(map(str, chosen)), 80), "success"),
                 Button(_cid(kind, inv, cid, key, _encode(listed)),
                        clip(f"In {natural} order: " + " → ".join(map(str, listed)), 80), "secondary"),
                 Button(make_id("cancel", inv.channel_id, kind), "Cancel", "secondary")],
        ephemeral=True)


@on_click("roll")
async def _roll_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    from rulesets.tes.present.battle import battle_reply

    parsed = _parse(arg)
    if parsed is None:
        return Reply.fail(OLD_ID)
    cid, key, verb = parsed
    state = await _current(inv, cid)
    if state is None or roll_key(state) != key:
        return Reply.fail(STALE_ROLL)
    p = state.battle.pending
    refused = _allowed(inv, state, p.owner, "roll")
    if refused:
        return refused
    n = len(p.dice)
    if verb == "all":
        args: dict = {}
    elif verb == "none":
        args = {"order": "none"}
    elif verb == "pick":
        chosen = _numbers(values, n)
        if not chosen:
            return Reply.fail("Choose at least one die from the menu (or press **Resolve none**).")
        if chosen != sorted(chosen):
            return _order_question("roll", inv, cid, key, chosen, [d["label"] for d in p.dice], "rolled")
        args = {"order": ",".join(map(str, chosen))}
    elif verb.startswith("o") and _decode(verb[1:], n):
        args = {"order": ",".join(map(str, _decode(verb[1:], n)))}
    else:
        return Reply.fail(OLD_ID)
    out = await inv.do("battle.resolve", args, player=p.owner)
    return await battle_reply(inv, out)


@on_click("prv")
async def _prevent_click(inv: Invocation, arg: str, values: list[str]) -> Reply:
    from rulesets.tes.present.battle import battle_reply

    parsed = _parse(arg)
    if parsed is None:
        return Reply.fail(OLD_ID)
    cid, key, verb = parsed
    state = await _current(inv, cid)
    if state is None or ask_key(state) != key:
        return Reply.fail(STALE_ASK)
    aw = state.battle.asking
    refused = _allowed(inv, state, aw.owner, "prevention question")
    if refused:
        return refused
    sources = list(aw.sources)
    if verb in ("auto", "none"):
        use = verb
    elif verb == "pick":
        chosen = _numbers(values, len(sources))
        if not chosen:
            return Reply.fail("Choose at least one source from the menu (or press **Use no prevention**).")
        if chosen != sorted(chosen):
            return _order_question("prv", inv, cid, key, chosen, [s["label"] for s in sources], "listed")
        use = ",".join(map(str, chosen))
    elif verb.startswith("o") and _decode(verb[1:], len(sources)):
        use = ",".join(map(str, _decode(verb[1:], len(sources))))
    else:
        return Reply.fail(OLD_ID)
    out = await inv.do("battle.prevent", {"use": use}, player=aw.owner)
    return await battle_reply(inv, out)


# ------------------------------------------------------------ deadlines --
async def ensure_deadline(store, campaign_id: int, channel_id: str, state, now: float) -> float | None:
    """Keep the campaign's prevention deadline in step with its question; returns when it is due.

    The first call for a question schedules it (``prevent_timeout_minutes`` from ``now``); later calls
    keep that time.  Deadlines of questions no longer asked are dropped.
    """
    key = ask_key(state) if state is not None and not state.ended else None
    if key is None:
        await store.cancel_deadlines(campaign_id, PREVENT)
        return None
    dkey = f"{PREVENT}:{key}"
    await store.cancel_deadlines(campaign_id, PREVENT, keep=dkey)
    minutes = prevent_timeout_minutes(state)
    if minutes <= 0:
        return None
    await store.add_deadline(campaign_id, dkey, PREVENT, str(channel_id), state.battle.asking.owner,
                             now + minutes * 60, now)
    return next((d.due_at for d in await store.pending_deadlines(campaign_id) if d.key == dkey), None)


async def sweep(table, now: float | None = None) -> int:
    """Schedule any missing deadline (e.g. the bot stopped between a commit and its prompt); at start-up."""
    from rulesets.tes.state import Campaign

    store = table.service.store
    now = table.service.clock() if now is None else now
    added = 0
    for cid, channel in await store.active_campaigns():
        stored = await store.load_active(channel)
        if stored is None or stored.id != cid:
            continue
        state = Campaign.from_dict(stored.state)
        if ask_key(state) and not any(d.kind == PREVENT for d in await store.pending_deadlines(cid)):
            added += await ensure_deadline(store, cid, channel, state, now) is not None
    return added


async def fire_deadline(table, deadline) -> Reply | None:
    """Apply one due deadline; the post to make, or None when it no longer applies."""
    from rulesets.tes.present.battle import battle_reply
    from rulesets.tes.state import Campaign

    if deadline.kind != PREVENT:
        return None
    stored = await table.service.store.load_active(deadline.channel_id)
    if stored is None or stored.id != deadline.campaign_id:
        return None
    state = Campaign.from_dict(stored.state)
    key = deadline.key.split(":", 1)[1]
    minutes = prevent_timeout_minutes(state)
    if ask_key(state) != key or minutes <= 0:
        return None
    inv = table.invocation(state.leader, deadline.channel_id)
    try:
        out = await inv.do("battle.prevent-timeout", {"ask": key, "minutes": minutes})
    except RuleError as exc:  # answered meanwhile: the action checks the question itself
        log.info("deadline %s of campaign %s: %s", deadline.key, deadline.campaign_id, exc.message)
        return None
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


__all__ = ["attach_prompts", "changed_by_enemies", "ensure_deadline", "sweep", "fire_deadline",
           "run_due_deadlines", "POLL_SECONDS"]
