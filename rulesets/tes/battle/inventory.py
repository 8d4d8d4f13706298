"""The item decks and an adventurer's inventory (rulebook pages 28-29 and 68-70), below every battle step.

* The item decks live in the campaign (``Campaign.item_decks``: rarity -> ``ItemDeck`` with ``draw`` (item
  ids, top first) and ``discard``).  A deck is shuffled with the campaign dice the first time a card is
  needed, from the pack's items of that rarity that nobody holds; when its draw pile is empty its discard
  pile is shuffled into a new draw pile.
* Cards gained (a cache's lock picked, Pilfer) go to a ready slot, the pack, or the discard pile
  (``gain_item``); cards lost go to their deck's discard pile (``lose``).
* What an item does after it prevented damage: a pet takes an HP chip, an armed armor overtaxes
  (``after_prevention``, read by the prevention step).
"""
from __future__ import annotations

import re
from typing import Any

from engine.core import Dice, RuleError
from engine.text import slug as _slug
from rulesets.tes.battle.effects import Use, run_effects
from rulesets.tes.battle.model import Ctx
from rulesets.tes.battle_state import ItemDeck


RARITIES = ("common", "legendary")


DECK_NAME = {"common": "common item deck", "legendary": "legendary item deck"}


def _shuffle(items: list[str], dice: Dice) -> list[str]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = dice.choice_index(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def held_items(state) -> set[str]:
    return {i for a in state.adventurers.values() for i in list(a.ready) + list(a.pack)}


def deck(state, pack, rarity: str, dice: Dice) -> ItemDeck:
    """The deck of one rarity, shuffled on first use; reshuffled from its discards when empty."""
    decks = state.item_decks
    d = decks.get(rarity)
    if d is None:
        held = held_items(state)
        cards = sorted(k for k, it in pack.items.items() if it.rarity == rarity and k not in held)
        d = decks[rarity] = ItemDeck(draw=_shuffle(cards, dice))
    if not d.draw and d.discard:
        d.draw, d.discard = _shuffle(d.discard, dice), []
    return d


def top_card(state, pack, rarity: str, dice: Dice) -> str | None:
    d = deck(state, pack, rarity, dice)
    return d.draw[0] if d.draw else None


def cycle(state, rarity: str) -> None:
    """The top card goes to the bottom of its deck."""
    d = state.item_decks[rarity]
    if d.draw:
        d.draw.append(d.draw.pop(0))


def discard(state, pack, item_id: str) -> None:
    rarity = pack.items[item_id].rarity
    d = state.item_decks.get(rarity)
    if d is None:  # never shuffled yet: the card joins the deck when it is built (nobody holds it then)
        return
    if item_id in d.draw:
        d.draw.remove(item_id)
    d.discard.append(item_id)


def gain_item(c: Ctx, owner: str, card: str, take: Any = None, swap: Any = None) -> str:
    """Put a gained card in the inventory: "ready", "pack" or "discarded".

    Default: a free ready slot, else the pack, else the card is discarded unless
    ``swap`` names a held item to discard in its place.  ``take`` may be
    "ready", "pack" or "leave" (discard the card).
    """
    adv = c.adv(owner)
    mat = c.pack.mat
    it = c.pack.items[card]
    want = _slug(take or "")
    if want not in ("", "ready", "pack", "leave", "discard"):
        raise RuleError("`take:` is ready, pack or leave.")
    if want in ("leave", "discard"):
        discard(c.state, c.pack, card)
        c.say("item", f"{adv.name} leaves {it.name}; it goes to the discard pile.", item=card)
        return "discarded"
    room_ready = len(adv.ready) < mat.ready_slots
    room_total = len(adv.ready) + len(adv.pack) < mat.inventory_max
    if swap:
        key = _slug(swap)
        held = next((i for i in adv.ready + adv.pack if i == key or _slug(c.pack.items[i].name) == key), None)
        if held is None:
            raise RuleError(f"`{swap}` is not in your inventory. You hold: "
                            + (", ".join(c.pack.items[i].name for i in adv.ready + adv.pack) or "nothing") + ".")
        where = "ready" if held in adv.ready else "pack"
        getattr(adv, where).remove(held)
        discard(c.state, c.pack, held)
        c.say("item", f"{adv.name} discards {c.pack.items[held].name} to make room.", item=held)
        room_total = True
        room_ready = room_ready or where == "ready"
        if not want:
            want = where
    if want == "ready" and not room_ready:
        if room_total:
            raise RuleError(f"{adv.name}'s {mat.ready_slots} ready slots are full: use `take:pack`, or name a ready "
                            "item to discard with `swap:`.")
    if not want:
        want = "ready" if room_ready and room_total else ("pack" if room_total else "")
    if want == "pack" and not room_total:
        want = ""
    if not want or (want == "ready" and not room_total):
        discard(c.state, c.pack, card)
        c.say("item", f"{adv.name}'s inventory is full ({mat.inventory_max} cards), so {it.name} is discarded. "
                      "(Name an item to give up with `swap:` to keep a new card.)", item=card)
        return "discarded"
    getattr(adv, want).append(card)
    c.say("item", f"{adv.name} puts {it.name} in " + ("a ready slot." if want == "ready" else "the pack."), item=card)
    return want


def held(c: Ctx, owner: str) -> list[str]:
    adv = c.adv(owner)
    return list(adv.ready) + list(adv.pack)


def _names(c: Ctx, ids: list[str]) -> str:
    return ", ".join(c.pack.items[i].name for i in ids) or "none"


def find(c: Ctx, owner: str, key: Any, where: tuple[str, ...] = ("ready", "pack")) -> str:
    """An item id of this adventurer by id or name; a clear message otherwise."""
    adv = c.adv(owner)
    want = _slug(str(key or ""))
    if not want:
        raise RuleError("Name an item: `item:` is one of your cards, e.g. `Healing Draught`.")
    pool = [i for w in where if w != "holding" for i in getattr(adv, w)]
    if adv.holding and "holding" in where:
        pool.append(adv.holding)
    hit = next((i for i in pool if i == want or _slug(c.pack.items[i].name) == want), None)
    if hit is None:
        places = " and ".join("ready slots" if w == "ready" else w for w in where if w != "holding")
        raise RuleError(f"`{key}` is not in your {places}. You hold: {_names(c, [i for w in where if w != 'holding' for i in getattr(adv, w)])}.")
    return hit


def lose(c: Ctx, owner: str, item_id: str) -> None:
    """Take a card out of the inventory and put it on its deck's discard pile."""
    adv = c.adv(owner)
    for where in ("ready", "pack"):
        lst = getattr(adv, where)
        if item_id in lst:
            lst.remove(item_id)
    if item_id in adv.expended:
        adv.expended.remove(item_id)
    adv.pet_chips.pop(item_id, None)
    if item_id in adv.armed:
        adv.armed.remove(item_id)
    discard(c.state, c.pack, item_id)


def clothing_cost(text: str) -> int:
    m = re.search(r"[Cc]ost (\d+) tenacity", text)
    return int(m.group(1)) if m else 0


def pet_limit(it) -> int:
    for t in it.traits:
        m = re.fullmatch(r"hp limit (\d+)", t)
        if m:
            return int(m.group(1))
    return 0


def after_prevention(c: Ctx, owner: str, item_id: str, left: int, attacker=None) -> int:
    """An item prevented damage: pets gain a chip; an armed armor overtaxes. Returns damage still left."""
    adv = c.adv(owner)
    it = c.pack.items.get(item_id)
    if it is None:
        return left
    if it.subtype == "pet":
        adv.pet_chips[item_id] = adv.pet_chips.get(item_id, 0) + 1
        limit = pet_limit(it)
        c.say("item", f"{it.name} takes an HP chip ({adv.pet_chips[item_id]}/{limit or '?'}).", item=item_id)
        if limit and adv.pet_chips[item_id] >= limit:
            lose(c, owner, item_id)
            c.say("item", f"{it.name} has reached its HP limit and is discarded.", item=item_id)
        return left
    if it.subtype == "armor" and item_id in adv.armed and attacker is not None and attacker.side == "enemy":
        me = c.unit(f"a:{owner}")
        prevents = [e for e in it.overtax_effects if e.get("type") == "prevent"]
        more = left if any(e.get("all") for e in prevents) else \
            sum(int(e.get("amount", 0)) for e in prevents if isinstance(e.get("amount"), int))
        stop = min(left, more)
        left -= stop
        if stop:
            c.say("item", f"{it.name} (overtax) prevents {stop} more damage.", item=item_id)
        rest = [e for e in it.overtax_effects if e.get("type") != "prevent"]
        if rest or not it.overtax_effects:
            run_effects(Use(c, me, f"{it.name} (overtax)", target=attacker.id), rest, text=it.overtax_text)
        lose(c, owner, item_id)
        c.say("item", f"{it.name} is discarded after its overtax.", item=item_id)
    return left
