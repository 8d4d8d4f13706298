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

- During a lockpick check: **Try this attempt**, **Stop** and a menu of the dice to keep, like ``/lockpick``.

Each of these is the campaign's open prompt (``engine.prompts.Prompt``, built by
``rulesets.tes.rules.battle_prompts.open_prompt``): ``show`` draws any of them; a click runs the prompt's action
through the service (``engine.prompts.answer``), which checks under the channel's lock that the prompt is still
the open one and that the clicker is its player or the party leader.

Ids: ``hx:roll:<channel>:c<campaign>.<roll key>.<verb>``, ``hx:prv:...<ask key>...`` and ``hx:lpk:...``.
The keys name the exact roll, question or attempt, so a click on a prompt that was already answered, or replaced
by a newer one, or belongs to an ended campaign, is refused and changes nothing.
"""
from __future__ import annotations

import logging
import re

from engine.components import make_id
from engine.commands import Invocation
from engine.prompts import open_prompt
from engine.reply import Button, Reply, Select, clip
from engine.text import count
from rulesets.tes.rules.battle_prompts import prevent_timeout_minutes

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
STALE_LOCK = ("This lockpick check is out of date: that attempt was already made, or the check is over. "
              "Nothing was changed; see `/battle status`.")
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
    prompt = open_prompt(state)
    if prompt is not None and prompt.kind in SHOWN:
        cid = out.campaign_id or await inv.service.campaign_id(inv.channel_id)
        if cid is not None:
            show(inv, prompt, cid, reply, state)
    _mat_buttons(inv, out, reply)


def _cid(kind: str, inv: Invocation, cid: int, key: str, verb: str) -> str:
    return make_id(kind, inv.channel_id, f"c{cid}.{key}.{verb}")


#: how each kind of prompt is shown: its click kind (in button ids), its buttons (answer, label, style),
#: the menu's placeholder, and the words for a stale click
SHOWN = {
    "roll": {"click": "roll", "buttons": (("all", "Resolve all", "success", {}),
                                          ("none", "Resolve none", "secondary", {"order": []})),
             "menu": "Or choose dice to resolve, in the order to resolve them", "min_menu": 2, "what": "roll",
             "natural": "rolled"},
    "prevent": {"click": "prv", "buttons": (("auto", "Use the automatic choice", "primary", {"use": "auto"}),
                                            ("none", "Use no prevention", "danger", {"use": []})),
                "menu": "Or choose sources, in the order to use them", "min_menu": 1,
                "what": "prevention question", "natural": "listed"},
    "lockpick": {"click": "lpk", "buttons": (("go", "Try this attempt", "success", {}),
                                             ("stop", "Stop", "danger", {"stop": True})),
                 "menu": "Or keep these dice for the next attempt (the others are rolled again)", "min_menu": 1,
                 "what": "lockpick check", "natural": "listed"},
    "move": {"click": "mov", "buttons": (("stay", "Stay where you are", "secondary", {"stay": True}),),
             "menu": "Move to (or type /move to:q,r)", "min_menu": 1, "what": "free move", "natural": "listed",
             "one": True},  # a free move goes to one hex: the menu takes one pick
    # a delve (rulesets.tes.battle.delve): a card's choice, and where a revealed tile goes
    "choice": {"click": "chc", "buttons": (("default", "Take the default", "secondary", {}),),
               "menu": "Choose (or type /battle choose option:N)", "min_menu": 1, "what": "choice",
               "natural": "listed", "one": True},
    "place": {"click": "plc", "buttons": (("default", "Use the suggested placement", "success", {}),),
              "menu": "Place the tile (numbered on the picture; or /explore place:N)", "min_menu": 1,
              "what": "tile placement", "natural": "listed", "one": True},
}
KIND_OF_CLICK = {v["click"]: k for k, v in SHOWN.items()}


def show(inv: Invocation, prompt, cid: int, reply: Reply, state) -> None:
    """The one way a prompt is shown: its buttons, a menu of its options, and its deadline."""
    look = SHOWN[prompt.kind]
    reply.buttons += [Button(_cid(look["click"], inv, cid, prompt.id, verb), label, style)
                      for verb, label, style, _args in look["buttons"]]
    listed = prompt.options
    if prompt.kind == "place":  # the placements come in pages, the menu lists the page the picture draws
        listed = placement_page(inv, prompt, cid, reply, state, None)
    if prompt.pick and look["min_menu"] <= len(listed) <= MAX_OPTIONS:
        options = [(clip(o.label, 100), o.value, clip(o.detail, 100)) for o in listed]
        reply.selects.append(Select(_cid(look["click"], inv, cid, prompt.id, "pick"), look["menu"], options, 1,
                                    1 if look.get("one") else max(1, min(len(options), prompt.pick))))
    if prompt.timeout_action:
        _deadline_line(prompt, reply, state)


def placement_page(inv: Invocation, prompt, cid: int, reply: Reply, state, page: int | None) -> tuple:
    """The options of one page of placements (the page of the suggested one when ``page`` is None), and buttons
    to the other pages."""
    from rulesets.tes.present.delve_view import PLACEMENT_PAGE, placement_page_of

    here, pages = placement_page_of(state)
    page = here if page is None else page
    for other in range(pages):
        if other != page:
            first, last = other * PLACEMENT_PAGE + 1, min(len(prompt.options), (other + 1) * PLACEMENT_PAGE)
            reply.buttons.append(Button(make_id("plpage", inv.channel_id, f"{prompt.id}.{other}", campaign=cid),
                                        f"Placements {first}-{last}", "secondary"))
    return tuple(prompt.options[page * PLACEMENT_PAGE:(page + 1) * PLACEMENT_PAGE])


def _deadline_line(prompt, reply: Reply, state) -> None:
    from rulesets.tes.battle import harm

    minutes = prevent_timeout_minutes(state)
    if prompt.kind in ("choice", "place"):
        what = "the default applies" if prompt.kind == "choice" else \
            f"placement {prompt.default} (it keeps the most hexes explorable) is used"
        if prompt.deadline is not None and minutes > 0:
            line = f"⏳ Without an answer within {count(minutes, 'minute')} (<t:{int(prompt.deadline)}:R>), {what}."
        else:
            line = f"(No time-out is set: the battle waits for the answer. Without one, {what}.)"
        if prompt.kind == "choice":
            line = line.replace("the default applies", f"the default applies (option {prompt.default})")
        reply.content = clip(f"{reply.content}\n{line}", 1990)
        return
    if prompt.kind == "move":
        adv = state.adventurers.get(prompt.owner)
        who = adv.name if adv else "The adventurer"
        if prompt.deadline is not None and minutes > 0:
            line = f"⏳ Without an answer within {count(minutes, 'minute')} (<t:{int(prompt.deadline)}:R>), {who} stays put."
        else:
            line = f"(No time-out is set: the battle waits until {who}'s player moves or stays.)"
        reply.content = clip(f"{reply.content}\n{line}", 1990)
        return
    aw = state.battle.asking
    sources = list(aw.sources)
    if aw.guard:
        auto_text = (f"{sources[0]['label']} only if the damage would still cost HP" if sources else "nothing")
    else:
        auto = [s["label"] for s in sources
                if s["key"] in harm.auto_choice(sources, int(prompt.data.get("amount") or 0))]
        auto_text = ", ".join(auto) or "nothing"
    if prompt.deadline is not None and minutes > 0:
        line = (f"⏳ Without an answer within {count(minutes, 'minute')} (<t:{int(prompt.deadline)}:R>), the automatic choice "
                f"applies: {auto_text}.")
    else:
        line = f"(No time-out is set: the battle waits for the answer. The automatic choice would be: {auto_text}.)"
    reply.content = clip(f"{reply.content}\n{line}", 1990)


def changed_by_enemies(out) -> list[str]:
    """Owners of the adventurers the enemy phase in this action's events touched, in order."""
    active = out.action.type in ("battle.prevent", "battle.prevent-timeout", "battle.react", "battle.stay",
                                 "battle.offer-timeout", "battle.move")
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
            reply.buttons.append(Button(make_id("mat", inv.channel_id, f"{owner}.{adv.ident()}",
                                                campaign=out.campaign_id or inv.campaign_id),
                                        clip(f"Show {adv.name}'s mat", 80)))
        except ValueError:  # an owner id that cannot go into a button
            continue


# --------------------------------------------------------------- clicks --
def _parse(arg: str) -> tuple[int, str, str] | None:
    parts = arg.split(".")
    if len(parts) < 3 or not re.fullmatch(r"c\d+", parts[0]):
        return None
    return int(parts[0][1:]), ".".join(parts[1:-1]), parts[-1]


def _numbers(values: list[str], n: int) -> list[int]:
    out: list[int] = []
    for v in values:
        if str(v).isdecimal() and 1 <= int(v) <= n and int(v) not in out:
            out.append(int(v))
    return out


def _decode(text: str, n: int) -> list[int] | None:
    out = [DIGITS.find(ch) for ch in text]
    if any(not 1 <= k <= n for k in out) or len(set(out)) != len(out):
        return None
    return out


def _encode(order: list[int]) -> str:
    return "o" + "".join(DIGITS[k] for k in order)


def _not_yours(what: str):
    def words(prompt, state) -> str:
        adv = state.adventurers.get(prompt.owner)
        return (f"This {what} belongs to {adv.name if adv else 'another player'}: only their player "
                "or the party leader can answer it.")
    return words


class _Ask(Exception):
    """A click that needs one more step before it is an answer (the order of the picks)."""

    def __init__(self, reply: Reply):
        self.reply = reply


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
                 Button(make_id("cancel", inv.channel_id, kind, campaign=cid), "Cancel", "secondary")],
        ephemeral=True)
