"""Player text to canonical action arguments, parsed once where the text comes in.

The commands and buttons call these; the log stores what they return (plain JSON
values), so replaying a log never runs a parser.  Canonical forms:

* a hex: ``[q, r]``; a route: ``[[q, r], ...]``
* a list of numbers as the player counts them (from 1): ``[2, 1]``; "none" is ``[]``
* dice to roll: ``[[word, count], ...]`` (a die id or a die type's name or id)
* a unit: ``[q, r]`` when given by its hex, else its name or label as written (trimmed)
* lockpick adjustments: ``[[die, value], ...]``; a die set to any number (a Lockpick Set): the same form

The rules accept these forms and, for logs written before this, the raw text as well
(which they hand to the same parsers).
"""
from __future__ import annotations

import re
from typing import Any

from engine.core import RuleError
from engine.hexes import Hex

NONE_WORDS = ("", "none", "no", "0")


def is_hex(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(x, int) for x in value)


def numbers(text: Any, error: str, *, none_words: tuple[str, ...] = NONE_WORDS) -> list[int]:
    """``"2,1"`` or ``"2 1"`` -> ``[2, 1]``; "none" -> ``[]``; ``error`` when a part is not a number."""
    if isinstance(text, (list, tuple)):
        return [int(x) for x in text]
    t = str(text if text is not None else "").strip().lower()
    if t in none_words:
        return []
    try:
        return [int(x) for x in re.split(r"[\s,]+", t) if x]
    except ValueError:
        raise RuleError(error) from None


def route(text: Any, option: str | None = None) -> list[list[int]]:
    """``"1,2 2,2"`` -> ``[[1, 2], [2, 2]]``; ``option`` names the option in a refusal."""
    if isinstance(text, (list, tuple)) and not is_hex(text):
        return [[int(p[0]), int(p[1])] for p in text]
    if is_hex(text):
        return [[int(text[0]), int(text[1])]]
    parts = [p for p in re.split(r"[\s;]+", str(text or "").strip()) if p]
    try:
        return [[h.q, h.r] for h in (Hex.parse(p) for p in parts)]
    except ValueError as exc:
        where = f"{option}: " if option else ""
        raise RuleError(f"{where}{exc} Write hexes as `q,r` separated by spaces, e.g. `1,2 2,2`.") from None


def one_hex(text: Any, what: str = "Give one destination hex with `to:`, e.g. `to:2,1`, or the whole route "
                                  "with `path:`.") -> list[int]:
    hexes = route(text)
    if len(hexes) != 1:
        raise RuleError(what)
    return hexes[0]


def unit_ref(text: Any) -> Any:
    """A unit named by the player: ``[q, r]`` for a hex, else the trimmed name or label."""
    if is_hex(text):
        return [int(text[0]), int(text[1])]
    t = str(text or "").strip()
    try:
        h = Hex.parse(t)
    except ValueError:
        return t
    return [h.q, h.r]


def dice_spec(text: Any) -> list[list[Any]]:
    """``"2 shield-discipline, combat"`` or ``"d3 d5"`` -> ``[["shield-discipline", 2], ["combat", 1]]``."""
    if not text:
        return []
    if isinstance(text, (list, tuple)):
        if all(isinstance(p, (list, tuple)) and len(p) == 2 for p in text):
            return [[str(w), int(n)] for w, n in text]
        parts = [str(p) for p in text]
    else:
        t = str(text)
        if "," in t:
            parts = t.split(",")
        else:
            parts, count = [], ""
            for tok in t.split():
                if tok.rstrip("x").isdecimal():
                    count = tok.rstrip("x")
                    continue
                parts.append(f"{count} {tok}" if count else tok)
                count = ""
    out: list[list[Any]] = []
    for raw in parts:
        p = raw.strip().lower()
        if not p:
            continue
        m = re.match(r"^(\d+)\s*x?\s+(.+)$", p) or re.match(r"^(\d+)x(.+)$", p)
        out.append([m.group(2).strip(), int(m.group(1))] if m else [p, 1])
    return out


def adjustments(text: Any, n: int = 3) -> list[list[int]]:
    """``"3=2, 1=5"`` -> ``[[3, 2], [1, 5]]`` (die 3 becomes a 2, die 1 a 5)."""
    if isinstance(text, (list, tuple)):
        return [[int(i), int(v)] for i, v in text]
    if text is None or str(text).strip() == "":
        return []
    out = []
    for part in re.split(r"[\s,;]+", str(text).strip()):
        if not part:
            continue
        m = re.match(r"^(\d)\s*(?:=|>|->|to)\s*(\d)$", part)
        if not m:
            raise RuleError("Write adjustments as `die=value`, e.g. `adjust:3=2` (die 3 becomes a 2) "
                            "or `adjust:3=2,1=5`. Each step of 1 costs 1 light fatigue.")
        out.append([int(m.group(1)), int(m.group(2))])
    return out


SET_ERROR = ("Write the die to set as `die=value`, e.g. `set:3=5` (die 3 becomes a 5): a Lockpick Set turns "
             "one die to any number, with no fatigue.")


def die_setting(text: Any) -> list[list[int]]:
    """``"3=5"`` -> ``[[3, 5]]``: die 3 becomes a 5 (a Lockpick Set)."""
    try:
        return adjustments(text)
    except (RuleError, TypeError, ValueError):
        raise RuleError(SET_ERROR) from None


ORDER_ERROR = ("Write the dice to resolve as numbers from the roll, e.g. `order:2,1`, "
               "or `order:none` to resolve none.")
USE_ERROR = ("Write the numbers of the prevention sources in order, e.g. `use:2,1`, or use `use:none` / "
             "`use:auto`.")


def keep_error(n: int = 3) -> str:
    return f"Write keep as die numbers 1 to {n}, e.g. `1,3`, or `none`."


def prevention_use(text: Any) -> Any:
    """``"auto"`` stays a word; a list of sources -> ``[2, 1]``; "none" -> ``[]``."""
    if isinstance(text, (list, tuple)):
        return [int(x) for x in text]
    t = str(text or "auto").strip().lower()
    if t == "auto":
        return "auto"
    return numbers(t, USE_ERROR)
