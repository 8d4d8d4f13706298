"""What an action revealed, so /undo never takes it back (``engine.rulesets.Ruleset.revealed``).

Drawing from a deck that was shuffled earlier rolls no dice, so the dice alone do not show it: the states before
and after the action do.  A card or token drawn (a delve card and the tile it reveals, an item card, an overland
or side quest card, a trainer token) and a quest step read are all seen by the party once posted.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.text import count
from rulesets.tes.state import Campaign

DECK_WORDS = {"peaceful": "the peaceful deck", "conflict": "the conflict deck", "delve": "the delve deck",
              "side-quest": "the side quest deck"}


def _gone(before: list[str], after: list[str]) -> list[str]:
    """The cards of ``before`` that ``after`` no longer holds (each copy counted)."""
    left = Counter(after)
    out = []
    for card in before:
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(card)
    return out


def _pack(state: Campaign) -> Any:
    try:
        from rulesets.tes.content import load_pack

        return load_pack(state.pack, version=state.pack_version)
    except Exception:  # noqa: BLE001 - a pack missing here still refuses the undo, naming the cards by id
        return None


def _named(table: Any, ids: list[str]) -> str:
    names = [getattr((table or {}).get(i), "name", None) or i for i in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def revealed(before: Campaign, after: Campaign, events: list[dict[str, Any]]) -> str | None:
    seen: list[str] = []
    pack = None
    # a quest step read: its words were shown for the first time
    for e in events:
        text = str(e.get("text") or "")
        if e.get("kind") == "quest-step" and text.startswith("📖"):
            seen.append("read the quest's " + text.lstrip("📖 ").split(": ", 1)[0])
    # a delve card drawn (and the tile it reveals)
    d0 = before.battle.delve if before.battle is not None else None
    d1 = after.battle.delve if after.battle is not None else None
    if d0 is not None and d1 is not None:
        drawn = _gone(d0.deck, d1.deck)
        if drawn:
            pack = pack or _pack(after)
            seen.append("drew the delve card " + _named(getattr(pack, "delve_cards", None), drawn)
                        + " (its tile is revealed)")
    # item cards drawn from the top of a shuffled item deck (the shop, a reward, a cache)
    for rarity, deck in sorted(after.item_decks.items()):
        old = before.item_decks.get(rarity)
        drawn = _gone(old.draw, deck.draw) if old is not None else []
        if drawn:
            pack = pack or _pack(after)
            seen.append(f"drew {_named(getattr(pack, 'items', None), drawn)} from the {rarity} item deck")
        elif old is not None and old.draw != deck.draw and Counter(old.draw) == Counter(deck.draw):
            seen.append(f"looked at the top card of the {rarity} item deck")
    # the session's decks and the trainer bag
    s0, s1 = before.days, after.days
    if s0 is not None and s1 is not None:
        for kind, deck in sorted(s1.decks.items()):
            old = s0.decks.get(kind)
            if old is None:
                continue
            drawn = _gone(old.pool + old.bottom, deck.pool + deck.bottom)
            if drawn:
                many = count(len(drawn), "card") if len(drawn) > 1 else "a card"
                seen.append(f"drew {many} from {DECK_WORDS.get(kind, 'the ' + kind + ' deck')}")
        tokens = _gone(s0.trainer_bag, s1.trainer_bag)
        if tokens:
            seen.append(f"drew {count(len(tokens), 'token')} from the trainer bag")
    if not seen:
        return None
    return "It " + "; ".join(seen) + ": what was drawn or read can't be taken back."
