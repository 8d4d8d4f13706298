"""Core types shared by every rule module: actions, events, rule errors and dice.

Nothing here knows about Discord, SQLite or pictures.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any


class RuleError(Exception):
    """A player broke a rule or gave a bad option.

    ``message`` is shown to the player as it is (ephemeral in Discord) and must
    say what to do instead.  Raising it changes nothing: the service discards
    the working copy of the state.
    """

    def __init__(self, message: str, **people: str):
        self.template = message
        self.people = {k: str(v) for k, v in people.items()}
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The message in plain words (a person as ``@id``); presenters word it with ``engine.present``."""
        return word(self.template, self.people, plain_person)

    def words(self, person) -> str:
        return word(self.template, self.people, person)


class Confirm(RuleError):
    """The rules take this action only on the player's yes: as asked, it would waste something (a turn's engage,
    an ability, a roll) or cost more than it gives.

    ``message`` asks the question and names the option that says yes (``confirm:yes``); ``label`` is the words
    of a yes button; ``args`` (kept as ``yes_args``) are the action's arguments for the answer that goes ahead
    (the front door adds ``confirm``).  Like any refusal it changes nothing.
    """

    def __init__(self, message: str, *, label: str = "Yes", args: dict[str, Any] | None = None, **people: str):
        super().__init__(message, **people)
        self.label = label
        self.yes_args = dict(args or {})


@dataclass
class Action:
    """One change a player asks for.  Stored in the log exactly like this."""

    type: str
    actor: str  # Discord user id (as text) of whoever issued it
    args: dict[str, Any] = field(default_factory=dict)
    on_behalf: str | None = None  # owner the leader acted for, when not themselves
    # display names the front door knew for the people in this action (user id -> name); the campaign keeps them
    names: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = {"type": self.type, "actor": self.actor, "args": dict(self.args), "on_behalf": self.on_behalf}
        if self.names:
            d["names"] = dict(self.names)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Action":
        names = d.get("names")
        names = {str(k): v for k, v in names.items() if isinstance(v, str)} if isinstance(names, dict) else {}
        return cls(type=d["type"], actor=str(d["actor"]), args=dict(d.get("args") or {}), on_behalf=d.get("on_behalf"),
                   names=names)


PERSON = re.compile(r"\{@(\w+)\}")
#: ``{*words*}`` in a rule text: what the line is about (a die's face, a card's name), emphasised by presenters.
EMPHASIS = re.compile(r"\{\*(.+?)\*\}")


def plain_person(user_id: str) -> str:
    return f"@{user_id}"


def strong(text: Any) -> str:
    """``text`` marked for emphasis in a rule text (each presenter decides how: bold in Discord, plain in a picture)."""
    return f"{{*{text}*}}"


def word(template: str, data: dict[str, Any], person, emphasis=None) -> str:
    """Turn a rule text into words: each ``{@key}`` names the player whose id is ``data[key]``; each ``{*words*}``
    is emphasised by ``emphasis`` (none: plain words).

    Rules never write mention syntax or Markdown; each presenter decides how a
    person is shown (a mention in Discord, @name at the local table, the
    adventurer's name in a picture) and how emphasis looks.
    """
    out = PERSON.sub(lambda m: person(str(data.get(m.group(1), "?"))), template)
    return EMPHASIS.sub(lambda m: emphasis(m.group(1)) if emphasis else m.group(1), out)


@dataclass
class Event:
    """Something that happened, in order: a kind and its fields (data).

    ``text`` is a plain-words template of the line players read; ``{@key}``
    in it refers to the player id in ``data[key]``.  Presenters word it.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": self.data}

    def words(self, person=None) -> str:
        """The line in words; ``person`` words a player id (default: plain ``@id``; presenters use engine.present)."""
        return word(self.text, self.data, person or plain_person)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Event":
        return cls(kind=d["kind"], text=d["text"], data=dict(d.get("data") or {}))


class Dice:
    """The campaign's dice.

    Results come first from ``forced`` (tests, replays, the local table's
    ``/force`` line), then from a deterministic stream derived from
    ``(seed, counter)``.  Every value handed out is recorded in ``rolled`` so the
    action log can store it and a replay can force exactly the same results.
    """

    def __init__(self, seed: int = 0, counter: int = 0, forced: list[int] | None = None):
        self.seed = int(seed)
        self.counter = int(counter)
        self.forced: list[int] = list(forced or [])
        self.rolled: list[int] = []
        # a replay's work budget (engine.transfer.Budget), consulted at every die; None in play
        self.budget: Any = None

    def _stream(self, sides: int) -> int:
        digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big") % sides + 1

    def roll(self, sides: int) -> int:
        """A result from 1 to ``sides``."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        if self.budget is not None:
            self.budget.roll(len(self.rolled))
        if self.forced:
            value = self.forced.pop(0)
            if not 1 <= value <= sides:
                raise RuleError(
                    f"The forced result {value} does not fit a die with {sides} sides; "
                    f"force values from 1 to {sides}."
                )
        else:
            value = self._stream(sides)
        self.rolled.append(value)
        return value

    def choice_index(self, n: int) -> int:
        """A fair pick among ``n`` things (0-based), e.g. drawing from a bag."""
        return self.roll(n) - 1
