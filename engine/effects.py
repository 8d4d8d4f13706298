"""Effect primitives: one small class per primitive, kept in one registry.

A primitive is what a card's text does in machine form ("deal 2 damage", "gain 1
tenacity", "recover 1 skill die").  Each primitive is one class that owns

* its schema: the fields a content pack may write, their checks and defaults;
* its behaviour: ``apply(use, eff)``, which changes the game and returns a number
  (how much it did; the next effect may use it as its "previous" amount);
* its description: ``describe(eff)``, the plain words shown to players.

A ruleset subclasses :class:`Primitive` once per effect type and registers each
class in its own :class:`Registry`.  The content loader validates every effect a
pack writes against that registry, so an effect type or a field that has no
behaviour is refused instead of silently doing nothing.

This module knows no game: ``use`` is whatever the ruleset passes (a battle, a
rest, a town visit...), and nothing here imports a ruleset.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable

Check = Callable[[Any], "str | None"]
_MISSING: Any = object()


def quoted(xs: Iterable[Any]) -> str:
    return ", ".join(f'"{x}"' for x in xs)


def show(v: Any) -> str:
    """A value from a pack, as an error message quotes it."""
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, list):
        return "a list"
    return str(v)


# ------------------------------------------------------------------ checks --
AMOUNT_WORDS = ("value", "previous")


def amount(v: Any) -> str | None:
    """A whole number, "value" (the resolving ability's value) or "previous" (what the last effect did)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return None if v >= 0 else "must not be negative"
    if isinstance(v, str) and v in AMOUNT_WORDS:
        return None
    return "must be a whole number or one of " + quoted(AMOUNT_WORDS)


def boolean(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def one_of(*choices: str) -> Check:
    def check(v: Any) -> str | None:
        return None if isinstance(v, str) and v in choices else "must be one of " + quoted(choices)

    check.choices = choices  # type: ignore[attr-defined]
    return check


def text(v: Any) -> str | None:
    return None if isinstance(v, str) and v.strip() else "must be a non-empty text"


def list_of(what: str, choices: Iterable[str]) -> Check:
    """A list of words from ``choices`` (a single word is read as a list of one)."""
    allowed = tuple(choices)

    def check(v: Any) -> str | None:
        if isinstance(v, str):
            v = [v]
        if isinstance(v, list) and v and all(isinstance(x, str) and x in allowed for x in v):
            return None
        return f"must be a list of {what} from " + quoted(allowed)

    return check


def as_list(v: Any) -> list:
    """A single word written where a list is allowed, read as a list of one."""
    return [v] if isinstance(v, str) else list(v)


@dataclass(frozen=True)
class Field:
    """One field of a primitive: its check, whether it must be written, and its default."""

    check: Check
    required: bool = False
    default: Any = _MISSING
    doc: str = ""
    read: Callable[[Any], Any] | None = None  # turns a good value into its stored form (a word -> a list)

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING


# -------------------------------------------------------------- primitives --
class Primitive:
    """The base of every effect primitive.  Subclasses set ``type`` and ``fields``
    and implement ``apply`` and ``describe``."""

    type: ClassVar[str] = ""
    fields: ClassVar[dict[str, Field]] = {}
    summary: ClassVar[str] = ""  # one line for the pack author's documentation

    def apply(self, use: Any, eff: dict) -> int:
        raise NotImplementedError

    def describe(self, eff: dict) -> str:
        raise NotImplementedError

    def problems(self, eff: dict) -> list[str]:
        """Rules between fields (checked after each field is good); worded like the field checks."""
        return []


class Registry:
    """Effect primitives by type.  ``common`` fields (say, "only in these battle forms")
    may be written on every effect; the code that runs effects honours them."""

    def __init__(self, common: dict[str, Field] | None = None):
        self.common: dict[str, Field] = dict(common or {})
        self._by_type: dict[str, Primitive] = {}

    def register(self, cls: type[Primitive]) -> type[Primitive]:
        """Class decorator.  A primitive without behaviour or words is refused here."""
        if not cls.type:
            raise TypeError(f"{cls.__name__} has no effect type")
        if cls.type in self._by_type:
            raise TypeError(f'effect type "{cls.type}" is registered twice')
        for method in ("apply", "describe"):
            if getattr(cls, method) is getattr(Primitive, method):
                raise TypeError(f'effect type "{cls.type}" has no {method}()')
        self._by_type[cls.type] = cls()
        return cls

    # lookups
    def __contains__(self, kind: object) -> bool:
        return kind in self._by_type

    def __iter__(self):
        return iter(self._by_type)

    def __len__(self) -> int:
        return len(self._by_type)

    def types(self) -> tuple[str, ...]:
        return tuple(self._by_type)

    def get(self, kind: str) -> Primitive | None:
        return self._by_type.get(kind)

    def __getitem__(self, kind: str) -> Primitive:
        return self._by_type[kind]

    def allowed(self, kind: str) -> dict[str, Field]:
        return {**self[kind].fields, **self.common}

    # content
    def validate(self, raw: Any, *, defaults: dict[str, Any] | None = None) -> tuple[dict | None, list[str]]:
        """Check one effect table as written in a pack.

        Returns the full effect (defaults filled in) and no problems, or ``None`` and
        the problems, each worded "<what is wrong>" to follow the effect's place
        ("effects #2").  ``defaults`` overrides field defaults for this context (a
        die's ability: amount = "value"); it only fills fields the primitive has.
        """
        if not isinstance(raw, dict):
            return None, [f'must be a table like {{ type = "{next(iter(self._by_type), "?")}" }}, got {show(raw)}']
        kind = raw.get("type")
        prim = self._by_type.get(kind) if isinstance(kind, str) else None
        if prim is None:
            return None, [f"has type {show(kind)}, which is not one of {quoted(self._by_type)}"]
        allowed = self.allowed(kind)
        problems: list[str] = []
        for name, f in prim.fields.items():
            if f.required and name not in raw:
                problems.append(f'({kind}) is missing "{name}"')
        for key, val in raw.items():
            if key == "type":
                continue
            f = allowed.get(key)
            if f is None:
                problems.append(f'({kind}) has an unknown key "{key}" (allowed: {quoted(sorted(allowed))})')
                continue
            problem = f.check(val)
            if problem:
                problems.append(f"({kind}): {key} {problem}, got {show(val)}")
        if not problems:
            problems = [f"({kind}): {p}" for p in prim.problems(raw)]
        if problems:
            return None, problems
        full = {name: f.default for name, f in prim.fields.items() if f.has_default}
        for name, val in (defaults or {}).items():
            if name in prim.fields:
                full[name] = val
        for key, val in raw.items():
            f = allowed.get(key)
            full[key] = f.read(val) if f is not None and f.read is not None else val
        return full, []

    # play
    def apply(self, use: Any, eff: dict) -> int:
        return self[eff["type"]].apply(use, eff)

    def describe(self, eff: dict) -> str:
        prim = self._by_type.get(eff.get("type", ""))
        return prim.describe(eff) if prim else str(eff.get("text") or eff.get("type") or "?")


__all__ = ["AMOUNT_WORDS", "Check", "Field", "Primitive", "Registry", "amount", "as_list", "boolean", "list_of", "one_of",
           "quoted", "show", "text"]
