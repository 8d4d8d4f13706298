"""Dice notation for table talk (``/roll``), by the d20 library, plus a game's named dice.

``3d6+2``, ``2d12``, ``4d6kh3`` (keep highest 3), ``d6``, ``2d20kl1`` ... are read by
d20.  A ruleset may name dice of its own (``named``: word -> faces, e.g. the unstable die
of The Elder Scrolls), rolled by that word in a channel playing it.  These rolls are table
talk: they are not campaign actions and change nothing.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

import d20

from engine.core import RuleError

MAX_DICE = 100
MAX_LENGTH = 80


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


def named_die(notation: str, named: dict[str, dict[int, str]]) -> str | None:
    """The word of the named die ``notation`` asks for (``unstable``, ``u``, ``unstable die``), or None."""
    text = " ".join(str(notation or "").split()).lower()
    return next((w for w in named if text in (w, w[0], f"{w} die")), None)


def roll_notation(text: str, rng: random.Random | None = None, *,
                  named: dict[str, dict[int, str]] | None = None) -> NotationResult:
    """Roll ``text``: dice notation, or a die the channel's game names (``named``: word -> {face: meaning})."""
    named = named or {}
    words = "".join(f", `{w}`" for w in named)
    notation = " ".join(str(text or "").split()).lower()
    if not notation:
        raise RuleError(f"Give dice to roll, e.g. `3d6+2`, `2d12`, `4d6kh3`{words}.")
    if len(notation) > MAX_LENGTH:
        raise RuleError(f"That notation is too long; keep it under {MAX_LENGTH} characters.")
    word = named_die(notation, named)
    if word is not None:
        faces = named[word]
        face = (rng or random.SystemRandom()).randint(1, len(faces))
        return NotationResult(f"{word} die", f"face {face}", faces[face], [face])
    if not re.fullmatch(r"[0-9d+\-*/() khlmiaxeropsa<>=,.]+", notation):
        raise RuleError(f"Use dice notation like `3d6+2`, `2d12`, `4d6kh3` (keep highest 3), `d6`{words}.")
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
