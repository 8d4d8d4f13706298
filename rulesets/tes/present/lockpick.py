"""/lockpick: pick the lock of a cache chip you just moved onto (rulebook pages 68-70).

One command covers the whole check: the first call reveals the code and rolls
the three lockpick dice; later calls adjust dice (light fatigue), set one with
a ready Lockpick Set, say which dice to keep for the next attempt, or stop.
"""
from __future__ import annotations

from rulesets.tes.present.battle import PLAYER, battle_reply
from engine.commands import Invocation, Opt, command
from engine.reply import Reply
from rulesets.tes import args as args_


@command("lockpick", "Pick a lock (a cache you moved onto, a trap, a cage): adjust dice, keep dice, or stop.",
         Opt("adjust", str, "Change dice for light fatigue, e.g. 3=2 (die 3 becomes a 2; 1 fatigue per step)"),
         Opt("keep", str, "Dice to keep for the next attempt, e.g. 1,2 (default: the ones that match)"),
         Opt("set", str, "Use a ready Lockpick Set: e.g. 3=5 (die 3 becomes a 5, no fatigue; the card is discarded)",
             arg="set_die"),
         Opt("stop", bool, "Give up the check (the cache chip is discarded)"),
         Opt("take", str, "Where a won item goes: ready, pack or leave (default: ready, else pack)",
             choices=("ready", "pack", "leave")),
         Opt("swap", str, "An item of yours to discard to make room for the new one"),
         PLAYER, renders=True)
async def lockpick(inv: Invocation, adjust=None, keep=None, set_die=None, stop=None, take=None, swap=None,
                   player=None) -> Reply:
    args = {k: v for k, v in {"adjust": args_.adjustments(adjust) if adjust else None,
                              "keep": args_.numbers(keep, args_.keep_error()) if keep not in (None, "") else None,
                              "set": args_.die_setting(set_die) if set_die else None,
                              "stop": stop, "take": take, "swap": swap}.items() if v is not None and v != ""}
    out = await inv.do("battle.lockpick", args, player=player)
    return await battle_reply(inv, out)
