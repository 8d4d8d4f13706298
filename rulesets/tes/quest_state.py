"""The campaign's typed records: the session's quests (``Campaign.quests``) and the campaign journal
(``Campaign.journal``).

Plain dataclasses with ``to_dict`` / ``from_dict`` like the rest of the campaign state.  A campaign saved before
quests existed has neither (``None``): its sessions play without a guild quest.  The rules live above (the
packages ``quest`` and ``session``); this module only holds what they keep.  Nothing here holds a step's words:
the state names the steps the party has reached, never one ahead (the content pack has their text).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SIDE_QUESTS_MAX = 4  # active side quests the party may hold (p.48)
GUILD_ASSIST = "Guild Assist"  # the major keyword a session records when the party used its guild assist (p.51)


@dataclass
class Side:
    """An active side quest: its tally so far, and whether its rewards wait for a town (``ready``)."""

    id: str
    count: int = 0
    ready: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "count": self.count, "ready": self.ready}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Side":
        return cls(str(d["id"]), int(d.get("count") or 0), bool(d.get("ready")))


@dataclass
class QuestRun:
    """The session's quests (pp.46-48): the guild quest and its current step, the side quests, what waits.

    ``quest``: the guild quest (None while the guild is being chosen, and in the endgame); ``step``: the step
    the party works on (revealed); ``done``: steps completed in order.  ``offer``: cards drawn and waiting for
    the party's choice (guild cards at set-up, side quests at a quest board).  ``carry``: XP of linked steps
    completed earlier the same day, gained in that day's Reward Phase.  ``result``: "" while the quest runs,
    "success" or "failed" once it is over (the session then ends).  ``endgame``: the session is the endgame
    (``day``: its last encounter played).  ``assist``: "armed" when the leader called the guild assist during a
    battle (it resolves at the end of the round), "asked" while the party is asked about it after a full party
    defeat (``assist_deadline``).
    """

    quest: str | None = None
    step: str | None = None
    done: list[str] = field(default_factory=list)
    started: int = 0
    count: int = 0
    sides: list[Side] = field(default_factory=list)
    offer: list[str] = field(default_factory=list)
    offered_to: str = ""
    carry: int = 0
    result: str = ""
    endgame: bool = False
    day: int = 0
    assist: str = ""
    assist_round: int = 0
    assist_deadline: float | None = None
    serial: int = 0
    assist_deploy: list[list[int]] = field(default_factory=list)  # hexes the leader named for revived adventurers

    def side(self, side_id: str) -> Side | None:
        return next((x for x in self.sides if x.id == side_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {"quest": self.quest, "step": self.step, "done": list(self.done), "started": self.started,
                "count": self.count, "sides": [x.to_dict() for x in self.sides], "offer": list(self.offer),
                "offered_to": self.offered_to, "carry": self.carry, "result": self.result, "endgame": self.endgame,
                "day": self.day, "assist": self.assist, "assist_round": self.assist_round,
                "assist_deadline": self.assist_deadline, "serial": self.serial,
                "assist_deploy": [list(h) for h in self.assist_deploy]}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "QuestRun | None":
        if not d:
            return None
        return cls(d.get("quest"), d.get("step"), [str(x) for x in d.get("done") or []], int(d.get("started") or 0),
                   int(d.get("count") or 0), [Side.from_dict(x) for x in d.get("sides") or []],
                   [str(x) for x in d.get("offer") or []], str(d.get("offered_to") or ""), int(d.get("carry") or 0),
                   str(d.get("result") or ""), bool(d.get("endgame")), int(d.get("day") or 0),
                   str(d.get("assist") or ""), int(d.get("assist_round") or 0), d.get("assist_deadline"),
                   int(d.get("serial") or 0), [[int(x) for x in h] for h in d.get("assist_deploy") or []])


@dataclass
class SessionEntry:
    """One session in the journal (p.50): its province and quest, how it ended, its major keyword."""

    number: int
    province: str
    difficulty: str
    guild: str | None = None
    quest: str | None = None  # the guild quest (None in the endgame)
    endgame: bool = False
    result: str = ""  # "" while it runs | won | lost
    why: str = ""  # how it ended, in words
    major: str = ""  # the major keyword it gave ("Guild Assist" when the assist was used)
    xp: int = 0  # the XP Dial at its end
    days: int = 0  # days played
    sides_done: list[str] = field(default_factory=list)
    sides_failed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # persistent notes (closed towns...), crossed out at its end

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "province": self.province, "difficulty": self.difficulty,
                "guild": self.guild, "quest": self.quest, "endgame": self.endgame, "result": self.result,
                "why": self.why, "major": self.major, "xp": self.xp, "days": self.days,
                "sides_done": list(self.sides_done), "sides_failed": list(self.sides_failed),
                "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SessionEntry":
        return cls(int(d["number"]), str(d["province"]), str(d.get("difficulty") or "adept"), d.get("guild"),
                   d.get("quest"), bool(d.get("endgame")), str(d.get("result") or ""), str(d.get("why") or ""),
                   str(d.get("major") or ""), int(d.get("xp") or 0), int(d.get("days") or 0),
                   [str(x) for x in d.get("sides_done") or []], [str(x) for x in d.get("sides_failed") or []],
                   [str(x) for x in d.get("notes") or []])


@dataclass
class Journal:
    """The campaign journal (pp.49-51): the party, its guild, each session, keywords, the guild assist.

    ``names``: owner -> {"adventurer", "player"} as the party stood at the latest session.  ``minor``: the minor
    keywords, once for each time gained, with the session.  ``assist``: the session the guild assist was used
    in (0: not yet).  ``options``: the next guild quests the last epilogue offers (session 1), waiting for the
    choice; ``next``: the chosen one.  ``result``: "" while the campaign runs, "won" or "lost".
    """

    guild: str | None = None
    names: dict[str, dict[str, str]] = field(default_factory=dict)
    sessions: list[SessionEntry] = field(default_factory=list)
    minor: list[dict[str, Any]] = field(default_factory=list)
    assist: int = 0
    options: list[dict[str, str]] = field(default_factory=list)
    next: dict[str, str] | None = None
    result: str = ""

    @property
    def current(self) -> SessionEntry | None:
        return self.sessions[-1] if self.sessions else None

    def keywords(self) -> list[str]:
        """Every keyword the party holds: the major ones of its sessions, then the minor ones."""
        majors = [s.major for s in self.sessions if s.major and s.major != GUILD_ASSIST]
        return majors + [str(m["keyword"]) for m in self.minor]

    def to_dict(self) -> dict[str, Any]:
        return {"guild": self.guild, "names": {k: dict(v) for k, v in self.names.items()},
                "sessions": [s.to_dict() for s in self.sessions], "minor": [dict(m) for m in self.minor],
                "assist": self.assist, "options": [dict(o) for o in self.options],
                "next": dict(self.next) if self.next else None, "result": self.result}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "Journal | None":
        if not d:
            return None
        return cls(d.get("guild"), {str(k): {str(a): str(b) for a, b in v.items()}
                                    for k, v in (d.get("names") or {}).items()},
                   [SessionEntry.from_dict(s) for s in d.get("sessions") or []],
                   [{"keyword": str(m["keyword"]), "session": int(m.get("session") or 0)}
                    for m in d.get("minor") or []],
                   int(d.get("assist") or 0), [{str(a): str(b) for a, b in o.items()} for o in d.get("options") or []],
                   {str(a): str(b) for a, b in d["next"].items()} if d.get("next") else None,
                   str(d.get("result") or ""))


__all__ = ["GUILD_ASSIST", "Journal", "QuestRun", "SIDE_QUESTS_MAX", "SessionEntry", "Side"]
