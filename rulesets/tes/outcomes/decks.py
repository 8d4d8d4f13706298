"""The session's decks and bags: drawing (a recorded die roll, or a stacked card first), cycling, discarding.

A deck's pool is drawn at random: the card drawn is ``pool[roll - 1]`` of the pool sorted by id, one die of
the pool's size.  ``Session.stacked`` (``/day stack`` at the local table and in tests) names cards that come
out first from whichever deck or bag holds them.
"""
from __future__ import annotations

from engine.core import Dice
from rulesets.tes.day_state import Deck, Session


def draw(s: Session, deck: Deck, dice: Dice) -> str | None:
    """The top card of ``deck`` (taken out of it), or None when it is empty."""
    for card in list(s.stacked):
        if card in deck.pool or card in deck.bottom:
            s.stacked.remove(card)
            (deck.pool if card in deck.pool else deck.bottom).remove(card)
            return card
    if deck.pool:
        pool = sorted(deck.pool)
        card = pool[dice.roll(len(pool)) - 1] if len(pool) > 1 else pool[0]
        deck.pool.remove(card)
        return card
    if deck.bottom:
        return deck.bottom.pop(0)
    return None


def pick(s: Session, cards: list[str], n: int, dice: Dice) -> list[str]:
    """``n`` cards at random from ``cards`` (a shuffle and a draw of ``n``), stacked ones first."""
    deck = Deck(pool=list(cards))
    out = []
    for _ in range(min(n, len(cards))):
        card = draw(s, deck, dice)
        if card is None:
            break
        out.append(card)
    return out


def cycle(deck: Deck, card: str) -> None:
    """A card goes back to the bottom of its deck."""
    deck.bottom.append(card)


def discard(deck: Deck, card: str) -> None:
    deck.discard.append(card)


def draw_token(s: Session, dice: Dice) -> str | None:
    """A skill line token from the trainer bag (taken out)."""
    bag = Deck(pool=list(s.trainer_bag))
    token = draw(s, bag, dice)
    if token is not None:
        s.trainer_bag.remove(token)
    return token
