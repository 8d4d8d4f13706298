"""What an action's options may be: declared once on its ``Handler``, checked by the engine before the rules run.

A command checks what a player types (``engine.commands.Opt``), but the log stores the action, and a replayed
log (an imported file) reaches the rules without any command.  So every option of every action is bounded
here, in the rules' own terms, and ``ActionTable.execute`` holds every action to it, however it arrived::

    @action
    class Adjust(Handler):
        type = "battle.adjust"
        args = {"unit": UNIT, "hp": Int(-99, 99), "fatigue": Int(1, 13), "reason": Text()}

A command takes its numeric ranges from the same declaration (``Opt("hp", int, ..., **Adjust.args["hp"].range)``),
so the two can never disagree.  The bounds are loose enough for every value the rules ever accepted (an
honest log from an earlier version always passes), and tight enough that no option can make an action's work
grow without bound: numbers in range, texts and lists short.  ``None`` stands for an option left out.

An option the declaration does not name is refused; a handler that declares nothing (``args = None``) gets
``LOOSE`` for every option (short texts, small numbers, small lists), and a test lists it as undeclared.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.text import count

MAX_TEXT = 200  # what a command accepts in one text option (engine.commands.MAX_OPTION_TEXT)
HEX_LIMIT = 1000  # a coordinate of a hex: far beyond any map
ID_TEXT = 48  # ids the bot makes (prompt keys, draft ids, player ids)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:29] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


WHOLE = re.compile(r"[+-]?[0-9]{1,20}")  # a whole number as typed: ASCII digits only (no full-width digits, superscripts or words)


def whole(text: Any) -> int | None:
    """The whole number a short text spells in ASCII digits (``" 12"``, ``"-3"``), or None."""
    if not isinstance(text, str):
        return None
    m = WHOLE.fullmatch(text.strip())
    return int(m.group(0)) if m else None


class Bound:
    """One option's bound: ``problem(value)`` is None when the value is within it, else what is wrong."""

    def problem(self, value: Any) -> str | None:  # pragma: no cover - every bound overrides it
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Bound):
    """A whole number from ``lo`` to ``hi`` (a short numeric text too: a value typed at the local table)."""

    lo: int
    hi: int

    @property
    def range(self) -> dict[str, int]:
        """``min``/``max`` for the command's ``Opt``: one declaration for both."""
        return {"min": self.lo, "max": self.hi}

    def problem(self, value):
        if isinstance(value, str):
            value = whole(value)  # a text form: ASCII digits only (a full-width digit or a word is refused)
        if not _is_int(value) or not self.lo <= value <= self.hi:
            return f"must be a whole number from {self.lo} to {self.hi}"
        return None

    def describe(self):
        return f"a whole number from {self.lo} to {self.hi}"


@dataclass(frozen=True)
class Text(Bound):
    """A text of at most ``max`` characters (what a command's text option holds)."""

    max: int = MAX_TEXT

    def problem(self, value):
        if not isinstance(value, str):
            return "must be a text"
        if len(value) > self.max:
            return f"must be a text of at most {count(self.max, 'character')}"
        return None

    def describe(self):
        return f"a text of at most {count(self.max, 'character')}"


@dataclass(frozen=True)
class Flag(Bound):
    """Yes or no (``True``/``False``; ``1``/``0`` and a short word from older logs)."""

    def problem(self, value):
        if isinstance(value, bool) or value in (0, 1):
            return None
        if isinstance(value, str) and len(value) <= 5:
            return None
        return "must be yes or no"

    def describe(self):
        return "yes or no"


def _coordinate(value: Any) -> bool:
    return _is_int(value) and -HEX_LIMIT <= value <= HEX_LIMIT


def _hex_problem(value: Any) -> str | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(_coordinate(v) for v in value):
        return None
    return f"must be a hex q,r (each from -{HEX_LIMIT} to {HEX_LIMIT})"


@dataclass(frozen=True)
class OneHex(Bound):
    """A hex: ``[q, r]`` as the commands hand it over, or its text (``"2,1"``) as older logs kept it."""

    def problem(self, value):
        if isinstance(value, str):
            return Text(40).problem(value)
        return _hex_problem(value)

    def describe(self):
        return "a hex q,r"


@dataclass(frozen=True)
class Hexes(Bound):
    """A route or several hexes: ``[[q, r], ...]`` of at most ``max`` hexes, one ``[q, r]``, or their text."""

    max: int = 60

    def problem(self, value):
        if isinstance(value, str):
            return Text().problem(value)
        if not isinstance(value, (list, tuple)):
            return "must be hexes q,r"
        if len(value) == 2 and all(_is_int(v) for v in value):
            return _hex_problem(value)
        if len(value) > self.max:
            return f"must be at most {count(self.max, 'hex')}"
        for h in value:
            bad = _hex_problem(h)
            if bad:
                return bad
        return None

    def describe(self):
        return f"up to {count(self.max, 'hex')} q,r"


@dataclass(frozen=True)
class Numbers(Bound):
    """Numbers as a player counts them (``[2, 1]``): at most ``max`` of them, each from ``lo`` to ``hi``; or
    their text (older logs); ``words`` are single words the option also takes (``"auto"``)."""

    lo: int = 0
    hi: int = 60
    max: int = 60
    words: tuple[str, ...] = ()

    def problem(self, value):
        if isinstance(value, str):
            return Text().problem(value)
        if _is_int(value):
            value = [value]
        if not isinstance(value, (list, tuple)):
            return "must be numbers"
        if len(value) > self.max:
            return f"must be at most {self.max} numbers"
        for v in value:
            if isinstance(v, str) and len(v) <= 3 and whole(v) is not None:
                v = whole(v)
            if not _is_int(v) or not self.lo <= v <= self.hi:
                return f"must be numbers from {self.lo} to {self.hi}"
        return None

    def describe(self):
        return f"up to {self.max} numbers from {self.lo} to {self.hi}"


@dataclass(frozen=True)
class Pairs(Bound):
    """Pairs ``[[a, n], ...]`` (dice to roll as ``[word, count]``, die changes as ``[die, value]``): at most
    ``max`` pairs; the first of each a short word or a number, the second a number from ``lo`` to ``hi``; or
    their text (older logs)."""

    lo: int = 0
    hi: int = 60
    max: int = 30

    def problem(self, value):
        if isinstance(value, str):
            return Text().problem(value)
        if not isinstance(value, (list, tuple)):
            return "must be a list of pairs"
        if len(value) > self.max:
            return f"must be at most {self.max} pairs"
        for pair in value:
            if isinstance(pair, str):  # a plain word in an older log
                if len(pair) > 60:
                    return "must be short words"
                continue
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                return "must be a list of pairs"
            first, n = pair
            if not (isinstance(first, str) and len(first) <= 60) and not (_is_int(first) and
                                                                          self.lo <= first <= self.hi):
                return "must name each part by a short word or a small number"
            if isinstance(n, str) and len(n) <= 3 and whole(n) is not None:
                n = whole(n)
            if not _is_int(n) or not self.lo <= n <= self.hi:
                return f"must count from {self.lo} to {self.hi} in each pair"
        return None

    def describe(self):
        return f"up to {self.max} pairs, numbers from {self.lo} to {self.hi}"


@dataclass(frozen=True)
class Words(Bound):
    """Several short words (card ids, die names, items): at most ``max`` of them, each at most ``length``
    characters; or their text as typed (``"lure, focus"``), which the rules split themselves."""

    max: int = 8
    length: int = 60

    def problem(self, value):
        if isinstance(value, str):
            return Text().problem(value)
        if not isinstance(value, (list, tuple)):
            return "must be a list of words"
        if len(value) > self.max:
            return f"must name at most {self.max}"
        for v in value:
            if not isinstance(v, str) or len(v) > self.length:
                return f"must be words of at most {count(self.length, 'character')}"
        return None

    def describe(self):
        return f"up to {self.max} words"


@dataclass(frozen=True)
class Player(Bound):
    """A player's id: a Discord id, or a short name at the local table."""

    def problem(self, value):
        if _is_int(value) and 0 <= value < 10**20:
            value = str(value)
        if not isinstance(value, str) or not 1 <= len(value) <= 32:
            return "must be a player"
        if not all(ch.isalnum() or ch in "_.-" for ch in value):
            return "must be a player"
        return None

    def describe(self):
        return "a player"


@dataclass(frozen=True)
class Players(Bound):
    """Several players' ids, at most ``max``."""

    max: int = 8

    def problem(self, value):
        if not isinstance(value, (list, tuple)):
            return "must be a list of players"
        if len(value) > self.max:
            return f"must name at most {count(self.max, 'player')}"
        for v in value:
            if Player().problem(v):
                return "must be a list of players"
        return None

    def describe(self):
        return f"up to {count(self.max, 'player')}"


@dataclass(frozen=True)
class Mapping(Bound):
    """An object of at most ``max`` entries: keys as ``key`` allows, values as ``value`` allows."""

    key: Bound
    value: Bound
    max: int = 8

    def problem(self, value):
        if not isinstance(value, dict):
            return "must be an object"
        if len(value) > self.max:
            return f"must have at most {count(self.max, 'entry')}"
        for k, v in value.items():
            if self.key.problem(k) or (v is not None and self.value.problem(v)):
                return f"must map {self.key.describe()} to {self.value.describe()}"
        return None

    def describe(self):
        return f"at most {count(self.max, 'entry')}"


@dataclass(frozen=True)
class OneOf(Bound):
    """Any of several forms (a text or a list of numbers, say)."""

    forms: tuple[Bound, ...]

    def problem(self, value):
        if any(form.problem(value) is None for form in self.forms):
            return None
        return f"must be {self.describe()}"

    def describe(self):
        return " or ".join(f.describe() for f in self.forms)


@dataclass(frozen=True)
class Data(Bound):
    """Nested data the action checks itself (an import's file): here only its size, at most ``nodes`` values."""

    nodes: int = 6_000_000

    def problem(self, value):
        stack, seen = [value], 0
        while stack:
            v = stack.pop()
            seen += 1
            if seen > self.nodes:
                return f"must hold at most {self.nodes:,} values"
            if isinstance(v, dict):
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
        return None

    def describe(self):
        return f"data of at most {self.nodes:,} values"


@dataclass(frozen=True)
class Loose(Bound):
    """What every option of an action that declares none may be: a short text, a small number, yes or no,
    or a small list or object of those."""

    nodes: int = 200
    number: int = 10_000

    def problem(self, value):
        stack, seen = [value], 0
        while stack:
            v = stack.pop()
            seen += 1
            if seen > self.nodes:
                return f"must hold at most {self.nodes} values"
            if isinstance(v, str):
                if len(v) > MAX_TEXT:
                    return f"must be a text of at most {MAX_TEXT} characters"
            elif isinstance(v, bool) or v is None:
                continue
            elif _is_int(v):
                if not -self.number <= v <= self.number:
                    return f"must be a number from -{self.number} to {self.number}"
            elif isinstance(v, float):
                if not -self.number <= v <= self.number:
                    return f"must be a number from -{self.number} to {self.number}"
            elif isinstance(v, dict):
                stack.extend(v.keys())
                stack.extend(v.values())
            elif isinstance(v, (list, tuple)):
                stack.extend(v)
            else:
                return "must be plain data"
        return None

    def describe(self):
        return "a short text, a small number or a small list"


LOOSE = Loose()
#: common options
NAME = Text(MAX_TEXT)
CONFIRM = Flag()
KEY = Text(ID_TEXT)  # an id the bot made (a prompt's key, a draft's id)
UNKNOWN = "is not an option of this action"
#: the options of every ruleset's ``campaign.new``: what /campaign new sends (a handler copies it)
NEW_CAMPAIGN: dict[str, Bound] = {
    "name": Text(), "ruleset": Text(40), "difficulty": Text(40), "pack": Text(), "pack_version": Text(40),
    "rules": Int(0, 1000), "channel_id": Player(), "guild_id": Player(), "seed": Int(0, 2**63)}


def problems(declared: dict[str, Bound] | None, args: dict[str, Any]) -> tuple[str, str] | None:
    """The first option of ``args`` outside ``declared``: (option, what is wrong), or None."""
    if not isinstance(args, dict):
        return "options", "must be an object"
    for key, value in args.items():
        if not isinstance(key, str) or len(key) > 40:
            return "options", "must be named by short words"
        if value is None:
            continue
        if declared is None:
            bad = LOOSE.problem(value)
        elif key not in declared:
            return key, UNKNOWN
        else:
            bad = declared[key].problem(value)
        if bad:
            return key, f"{bad} (it was {_shown(value)})"
    return None
