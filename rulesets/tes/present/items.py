"""/item: use a card, move it between the pack and a ready slot, or drop it."""
from __future__ import annotations

from engine.commands import Invocation, Opt, command, group
from engine.reply import Reply
from rulesets.tes.present.battle import battle_reply
from rulesets.tes.present.handlers import PLAYER

group("item", "Your item cards: use, ready, stow, drop")

ITEM = Opt("item", str, "One of your item cards, by name", required=True, autocomplete="items")


async def _run(inv: Invocation, kind: str, args: dict, player) -> Reply:
    out = await inv.do(kind, {k: v for k, v in args.items() if v not in (None, "")}, player=player)
    if out.state.battle:
        return await battle_reply(inv, out)
    return Reply(content="\n".join(e.words() for e in out.events))


@command("item use", "Use a ready item: potion, consumable, clothing, enchantment, misc; armor arms its overtax.",
         ITEM, Opt("target", str, "An ally to receive it (adventurer name, label or hex q,r)"),
         PLAYER, renders=True, ruleset="tes")
async def item_use(inv: Invocation, item=None, target=None, player=None) -> Reply:
    return await _run(inv, "item.use", {"item": item, "target": target}, player)


@command("item ready", "Move an item from your pack to a ready slot (in the day's rest, between battles, when deployed).",
         ITEM, Opt("swap", str, "A ready item to move to the pack to make room"), PLAYER, renders=True, ruleset="tes")
async def item_ready(inv: Invocation, item=None, swap=None, player=None) -> Reply:
    return await _run(inv, "item.ready", {"item": item, "swap": swap}, player)


@command("item stow", "Move a ready item to your pack (in the End of Day rest, between battles, or when deployed).", ITEM, PLAYER,
         renders=True, ruleset="tes")
async def item_stow(inv: Invocation, item=None, player=None) -> Reply:
    return await _run(inv, "item.stow", {"item": item}, player)


@command("item drop", "Discard an item card; with a new card waiting for room, drop it or one of yours.", ITEM,
         PLAYER, renders=True, ruleset="tes")
async def item_drop(inv: Invocation, item=None, player=None) -> Reply:
    return await _run(inv, "item.drop", {"item": item}, player)
