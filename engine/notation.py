"""Dice notation for table talk (``/roll``), by the d20 library, plus the game's unstable die.

``3d6+2``, ``2d12``, ``4d6kh3`` (keep highest 3), ``d6``, ``2d20kl1`` ... are read by
d20.  ``unstable`` rolls the overland unstable die, whose faces are named below.
These rolls are table talk: they are not campaign actions and change nothing.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

import d20

from engine.core import RuleError

MAX_DICE = 100
MAX_LENGTH = 80

# The unstable die's six faces.  Rolled at an unstable landmark, it picks which overland
# card to draw: from the peaceful deck or the conflict deck, or a traveling caravan (a town
# encounter) instead.  The rulebook shows the faces as icons only; two faces each is our
# reading, with face 6 peaceful as in its overland example (see docs/rules-notes.md).
UNSTABLE_FACES = {
    1: "Conflict (draw a conflict overland card)",
    2: "Conflict (draw a conflict overland card)",
    3: "Traveling caravan (a town encounter)",
    4: "Traveling caravan (a town encounter)",
    5: "Peaceful (draw a peaceful overland card)",
    6: "Peaceful (draw a peaceful overland card)",
}


@dataclass
class NotationResult:
    notation: str
    breakdown: str
    total: int | str
    values: list[int]


def _values(node) -> list[int]:
    """Every die's final face, in the order rolled (kept and dropped alike)."""
    if type(node).__name__ == "Dice":
        return [int(die.number) for die in node.values]
    out = []
    for child in getattr(node, "children", []) or []:
        out.extend(_values(child))
    return out


def roll_notation(text: str, rng: random.Random | None = None) -> NotationResult:
    notation = " ".join(str(text or "").split()).lower()
    if not notation:
        raise RuleError("Give dice to roll, e.g. `3d6+2`, `2d12`, `4d6kh3` or `unstable`.")
    if len(notation) > MAX_LENGTH:
        raise RuleError(f"That notation is too long; keep it under {MAX_LENGTH} characters.")
    if notation in ("unstable", "u", "unstable die"):
        face = (rng or random.SystemRandom()).randint(1, 6)
        return NotationResult("unstable die", f"face {face}", UNSTABLE_FACES[face], [face])
    if not re.fullmatch(r"[0-9d+\-*/() khlmiaxeropsa<>=,.]+", notation):
        raise RuleError(
            "Use dice notation like `3d6+2`, `2d12`, `4d6kh3` (keep highest 3), `d6`, or `unstable`."
        )
    try:
        result = d20.Roller(context=d20.RollContext(max_rolls=MAX_DICE)).roll(notation)
        # d20 works some values out only when they are read (a division by zero shows up here)
        breakdown = str(result).rsplit(" = ", 1)[0]
        total = result.total
        values = _values(result.expr)
    except d20.TooManyRolls:
        raise RuleError(f"That is too many dice; roll at most {MAX_DICE} at once.") from None
    except (d20.RollValueError, ZeroDivisionError, OverflowError):
        raise RuleError(
            f"`{notation}` can't be worked out (a division by zero or a number too large). "
            "Try `3d6+2`, `2d12`, `4d6kh3` or `d6`."
        ) from None
    except (d20.RollError, RecursionError, ValueError):
        raise RuleError(
            f"`{notation}` is not dice notation I can read. Try `3d6+2`, `2d12`, `4d6kh3` or `d6`."
        ) from None
    return NotationResult(notation, breakdown, total, values)
