"""The Reward Phase's steps (p.43).

1. Gain rewards: for a successful encounter the XP Dial goes up by its XP and each adventurer gains that much
   unspent XP (more than 3 is kept until the end of the phase).  An Uncover delve's skyshards are worth 1 XP each,
   gained the same way, even when the encounter failed (not after a full party defeat).  At an unstable landmark, after a peaceful or
   conflict card or a traveling caravan, each adventurer gains 2 tenacity whether it succeeded or not; from rules
   revision 4 not after a full party defeat, which has carried the party to the closest town (p.67).
2. Untrain (free, no XP back; Health, Stamina and Combat stay) and 3. gain advancements with XP: each player
   answers for their own adventurer (``/reward untrain``, ``/reward buy``, ``/reward done``).  Untraining comes
   before buying: once an adventurer has bought an advancement this phase, untraining waits for the next.
   The players who have XP to spend are waited for; the others may untrain while the step is open.
   At the end, each unspent XP above 3 becomes 1 tenacity (up to its maximum) or is lost.
4. Track quests (``TRACK_HOOKS``: the quests fill it).
"""
from __future__ import annotations

from typing import Callable

from engine.core import RuleError
from engine.text import count
from rulesets.tes.day_state import Encounter
from rulesets.tes.outcomes import mat
from rulesets.tes.outcomes.asks import close, open_ask
from rulesets.tes.outcomes.context import DayCtx

UNSTABLE_TENACITY = 2

#: Step 4: track quest progress from the encounter (the quests fill it).
TRACK_HOOKS: list[Callable[[DayCtx, Encounter | None], None]] = []


def _grant(c: DayCtx, xp: int, why: str = "") -> None:
    """The party gains ``xp``: on the XP Dial and as each adventurer's XP to spend."""
    state = c.state
    before = state.xp_dial
    state.xp_dial += xp
    for o in c.party():
        c.adv(o).saved_xp += xp
    c.say("xp", f"{why}The party gains {xp} XP: the XP Dial turns from {before} to {state.xp_dial}, and each "
                f"adventurer gains {xp} XP to spend ("
                + ", ".join(f"{c.adv(o).name} {c.adv(o).saved_xp}" for o in c.party()) + ").", amount=xp)


def skyshard_xp(c: DayCtx, enc: Encounter | None) -> int:
    """The XP of the skyshards the encounter's Uncover delve gained (p.43: even when it failed, unless the whole
    party was defeated; the battle's summary keeps it)."""
    last = c.state.last_battle
    if enc is None or enc.battle is None or last is None or last.no != enc.battle:
        return 0
    return int(getattr(last, "skyshard_xp", None) or 0)


def gain(c: DayCtx, enc: Encounter | None) -> None:
    """Step 1."""
    c.say("phase", "☼ Reward Phase.")
    shards = skyshard_xp(c, enc)
    if enc is not None and enc.result == "success" and enc.xp:
        _grant(c, enc.xp)
    elif enc is not None and enc.result == "failed":
        c.say("xp", "The encounter was failed: no rewards" + (" for it, but an Uncover delve's skyshards count."
                                                               if shards else "."))
    elif enc is None or enc.kind == "none":
        c.say("xp", "No encounter today: no rewards.")
    if shards:
        _grant(c, shards, f"{count(shards, 'skyshard')} gained in the Uncover delve, 1 XP each. ")
    if enc is not None and enc.landmark == "unstable" and enc.kind in ("card", "caravan") and enc.defeated \
            and c.state.rules >= 4:
        # p.67: a full party defeat carries the party to the closest town before the Reward Phase, so it is no
        # longer at the unstable landmark when the tenacity would be gained (p.43); before revision 4 it was given
        c.say("tenacity", "⚡ The party was defeated and woke in the closest town: the unstable landmark's "
                          "2 tenacity is not gained.")
    elif enc is not None and enc.landmark == "unstable" and enc.kind in ("card", "caravan"):
        cap = c.pack.mat.tenacity_max
        bits = []
        for o in c.party():
            adv = c.adv(o)
            got = min(UNSTABLE_TENACITY, cap - adv.tenacity)
            adv.tenacity += got
            bits.append(f"{adv.name} +{got} ({adv.tenacity})")
        c.say("tenacity", "⚡ The encounter was at an unstable landmark: each adventurer gains 2 tenacity ("
                          + ", ".join(bits) + ").")


def ask(c: DayCtx) -> bool:
    """Steps 2-3: open the question for the players with XP to spend; False when nobody has any."""
    spenders = [o for o in c.party() if c.adv(o).saved_xp > 0]
    if c.state.rules >= 4:  # nobody is waited for who can buy nothing with their XP
        short = [o for o in spenders if not mat.purchases(c.state, c.adv(o), c.pack, xp=c.adv(o).saved_xp)]
        spenders = [o for o in spenders if o not in short]
        if short:
            many = len(short) > 1
            c.say("reward", ", ".join(f"{c.adv(o).name} ({c.adv(o).saved_xp} XP)" for o in short)
                  + f" can buy nothing with {'their' if many else 'that'} XP now and "
                  + ("keep" if many else "keeps") + " it for a later Reward Phase.")
    if not spenders:
        c.say("reward", "Nobody has XP to spend." if c.state.rules < 4 else
              "Nobody has XP to spend on anything: the Reward Phase moves on.")
        return False
    c.say("reward", "Untrain and spend XP: " + ", ".join(f"{c.adv(o).name} has {c.adv(o).saved_xp} XP"
                                                      for o in spenders)
          + ". `/reward buy`, `/reward untrain`, then `/reward done` (or the buttons).")
    open_ask(c, "reward", spenders, bought=[])
    return True


def _in_step(c: DayCtx) -> None:
    s = c.state.days
    if s is None or s.phase != "reward" or s.ask is None or s.ask.kind != "reward":
        raise RuleError("XP is spent in the Reward Phase, after an encounter. See `/day status`.")


def buy(c: DayCtx, owner: str, key: str) -> None:
    _in_step(c)
    adv = c.adv(owner)
    spent, words = mat.buy(c.state, adv, c.pack, key)
    bought = c.s.ask.data.setdefault("bought", [])
    if owner not in bought:
        bought.append(owner)
    c.say("advance", f"⬆️ {adv.name} spends {spent} XP and {words} ({adv.saved_xp} XP left).", player=owner,
          key=key, cost=spent)


def untrain(c: DayCtx, owner: str, key: str) -> None:
    _in_step(c)
    adv = c.adv(owner)
    if owner in (c.s.ask.data.get("bought") or []):
        raise RuleError(f"{adv.name} has already gained an advancement this Reward Phase: untraining comes "
                        "first (p.43). Untrain in a later Reward Phase.")
    words = mat.untrain(adv, c.pack, key)
    c.say("untrain", f"⬇️ {adv.name} {words} (no XP back).", player=owner, key=key)


def done(c: DayCtx, owner: str) -> bool:
    """A player is done spending; True when nobody is left."""
    _in_step(c)
    ask = c.s.ask
    if owner not in ask.owners:
        raise RuleError(f"{c.adv(owner).name} is not waited for in this Reward Phase.")
    ask.owners.remove(owner)
    c.say("reward-done", f"{c.adv(owner).name} is done with the Reward Phase ({c.adv(owner).saved_xp} XP unspent).",
          player=owner)
    return not ask.owners


def finish(c: DayCtx, enc: Encounter | None) -> None:
    """End of the phase: XP above the cap becomes tenacity, then quests are tracked."""
    close(c)
    cap_xp, cap_t = c.pack.mat.saved_xp_max, c.pack.mat.tenacity_max
    for o in c.party():
        adv = c.adv(o)
        extra = adv.saved_xp - cap_xp
        if extra <= 0:
            continue
        adv.saved_xp = cap_xp
        got = min(extra, cap_t - adv.tenacity)
        adv.tenacity += got
        lost = extra - got
        if got:
            rest = f"{'becomes' if extra == 1 else 'become'} {got} tenacity ({adv.tenacity})" + (f" and {lost} {'is' if lost == 1 else 'are'} lost"
                                                                 if lost else "")
        else:  # the tenacity is full: every XP above the cap is lost
            rest = f"{'is' if extra == 1 else 'are'} lost (tenacity full)"
        c.say("xp-cap", f"{adv.name} keeps {cap_xp} XP: {extra} more {rest}.", player=o)
    for hook in TRACK_HOOKS:
        hook(c, enc)
