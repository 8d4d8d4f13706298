"""The duel's dice, as plain functions: pools of twelve-sided dice, bonuses and penalties applied to each die,
highest-only or per-die readings, Accuracy, and the roll-off comparison.  Dice are never added together."""
from __future__ import annotations

from engine.core import Dice

SIDES = 12
ACCURACY = 8  # a die of 8 or more grants Accuracy
SPELL_NEEDS = 6  # a spell that does not attack needs a Wit roll of 6 or more
SLOW = 6  # Slow: -6 Priority
SECOND_DAMAGING = -2  # a character's second action dealing damage in a round


def defense(tier: int) -> int:
    """A fighter's defense in a Skill: 3 + double its Tier."""
    return 3 + 2 * int(tier)


def pool(dice: Dice, tier: int) -> list[int]:
    """As many dice as the Tier of the Skill used."""
    return [dice.roll(SIDES) for _ in range(max(0, int(tier)))]


def treated(faces: list[int], mod: int) -> list[int]:
    """Each die treated as its face plus every bonus, minus every penalty (+1 on 11, 7, 3 is 12, 8, 4)."""
    return [int(v) + int(mod) for v in faces]


def highest(values: list[int]) -> int:
    return max(values) if values else 0


def accuracy(values: list[int], threshold: int) -> int:
    """+1 damage for each die at or above the threshold (8, moved by effects)."""
    return sum(1 for v in values if v >= threshold)


def rolloff_key(values: list[int]) -> tuple[int, ...]:
    """Compare roll-offs by the highest die, then the second highest, and so on (a missing die is lowest)."""
    return tuple(sorted(values, reverse=True))
