"""Delve and dungeon commands: /explore (explore a hex, or place the revealed tile), /battle choose (a card's
choice) and /battle free (a dungeon's cage).  The rules are in rulesets.tes.battle.delve and .dungeon."""
from __future__ import annotations

from engine.commands import Invocation, Opt, command
from engine.reply import Reply
from rulesets.tes import args as args_
from rulesets.tes.present.battle import PLAYER, battle_reply


@command("explore", "Delve: explore the hex you stand in, or one in sight within your Stamina; or place a revealed tile.",
         Opt("at", str, "The explorable hex q,r to explore (default: the one you stand in)"),
         Opt("place", int, "Where the revealed tile goes: a placement number from its picture", min=1, max=99),
         PLAYER, renders=True)
async def explore(inv: Invocation, at=None, place=None, player=None) -> Reply:
    if place is not None:
        out = await inv.do("battle.place", {"place": place}, player=player)
    else:
        args = {"at": args_.one_hex(at, "Give the hex to explore with `at:`, e.g. `at:3,0`.")} if at else {}
        out = await inv.do("battle.explore", args, player=player)
    return await battle_reply(inv, out)


@command("battle choose", "Answer a card's choice (e.g. drain a Combat die or gain bane).",
         Opt("option", int, "The option's number", required=True, min=1, max=9), PLAYER, renders=True)
async def battle_choose(inv: Invocation, option, player=None) -> Reply:
    out = await inv.do("battle.choose", {"option": option}, player=player)
    return await battle_reply(inv, out)


@command("battle free", "Dungeon: pick the lock of a caged unit's cage next to you (once per turn).",
         Opt("unit", str, "The caged unit: its name, label or hex q,r (default: the one next to you)"),
         PLAYER, renders=True)
async def battle_free(inv: Invocation, unit=None, player=None) -> Reply:
    out = await inv.do("battle.free", {"unit": args_.unit_ref(unit)} if unit else {}, player=player)
    return await battle_reply(inv, out)
