"""What happened, in words: a log entry's one-line summary and a member's recap of what they missed.

A log entry's summary is its first line (``service.entry_line``) followed by the outcomes its events name:
the kinds a ruleset lists in ``Ruleset.outcomes`` (damage, defeats, cards drawn, steps revealed, XP gained...).
Nothing here prints an action's dice, a deck's order, a seed or a dice counter: only the events' own words.

A recap is every entry since the member's last action, grouped by the day and the round the events announce
(an event whose data names a ``day`` or a ``round`` starts a new group), each entry as its summary.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from engine.present import line, mention

# The outcome kinds every ruleset shares (the engine's own events).
SHARED_OUTCOMES = ("joined", "retired", "campaign-ended", "campaign-imported")


def outcome_kinds(game: Any) -> dict[str, int]:
    """Each outcome kind of ``game`` and its rank (0: the weightiest)."""
    kinds = tuple(getattr(game, "outcomes", None) or ()) + SHARED_OUTCOMES
    return {k: i for i, k in reversed(list(enumerate(kinds)))}


def _lines(events: Iterable[dict[str, Any]], person) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for e in events or []:
        if not isinstance(e, dict) or e.get("kind") == "acted-for":
            continue
        text = line(e, person).strip()
        if text:
            out.append((text, e))
    return out


def _stop(text: str) -> str:
    return text if text[-1:] in ".!?…" else text + "."


def _short(text: str, limit: int = 160) -> str:
    """An outcome's line, at most its first sentence when it is long (a step's story is a `/journal` away)."""
    if len(text) <= limit:
        return text
    cut = text.find(". ", 20, limit)
    return text[: cut + 1] if cut > 0 else text[: limit - 1] + "…"


def summary(events: list[dict[str, Any]], game: Any, person: Callable[[str], str] = mention,
            fallback: str = "", limit: int = 400) -> str:
    """One line for a log entry: what it did (its first event) and every outcome its events name."""
    lines = _lines(events, person)
    kinds = outcome_kinds(game)
    if not lines:
        return _stop(fallback) if fallback else ""
    first = _stop(lines[0][0])
    found = [(kinds[e.get("kind")], i, t) for i, (t, e) in enumerate(lines[1:]) if e.get("kind") in kinds]
    outcomes = [_stop(_short(t)) for _rank, _i, t in sorted(found)]
    text = first if not outcomes else first + " → " + " ".join(outcomes)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Group:
    title: str
    lines: list[str] = field(default_factory=list)


def _marker(e: dict[str, Any]) -> tuple[str, Any] | None:
    data = e.get("data") or {}
    if not isinstance(data, dict):
        return None
    if e.get("kind") in ("phase", "day", "new-day") and isinstance(data.get("day"), int):
        return "day", data["day"]
    if isinstance(data.get("round"), int) and e.get("kind") in ("round", "turn", "initiative"):
        return "round", data["round"]
    return None


def recap_groups(entries: list[Any], game: Any, person: Callable[[str], str] = mention,
                 prelude: list[Any] = ()) -> list[Group]:
    """The entries (oldest first) as groups by day and round, each entry as its summary line; ``prelude``: the
    entries just before them, read only for the day and round the first group is in."""
    groups: list[Group] = []
    day = rnd = None

    def title() -> str:
        parts = ([f"Day {day}"] if day is not None else []) + ([f"Round {rnd}"] if rnd is not None else [])
        return ", ".join(parts) if parts else "Since your last action"

    for entry in [*prelude, *entries]:
        events = list(entry.events or [])
        for e in events:  # a new day or round the entry starts names its group
            found = _marker(e) if isinstance(e, dict) else None
            if found and found[0] == "day" and found[1] != day:
                day, rnd = found[1], None
            elif found and found[0] == "round":
                rnd = found[1]
            elif isinstance(e, dict) and e.get("kind") == "round-end" and isinstance((e.get("data") or {}).get("round"), int):
                rnd = e["data"]["round"] + 1
        if any(entry is p for p in prelude):
            continue
        text = summary(events, game, person, fallback=entry.type.replace(".", " ").replace("-", " "))
        if not text:
            continue
        head = title()
        if not groups or groups[-1].title != head:
            groups.append(Group(head))
        who = person(str(entry.on_behalf or entry.actor))
        groups[-1].lines.append(f"`#{entry.seq}` {who}: {text}")
    return groups


def since_last(entries: list[Any], member: str) -> list[Any]:
    """The entries after ``member``'s last action (all of them if they never acted), oldest first."""
    last = -1
    for i, e in enumerate(entries):
        if str(e.actor) == member or str(e.on_behalf or "") == member:
            last = i
    return list(entries[last + 1:])
