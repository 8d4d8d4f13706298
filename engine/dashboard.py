"""The dashboard: one post per campaign that says where the game stands, edited in place after every action.

Ruleset-neutral: whose move it is comes from the ruleset's turn hooks (``Ruleset.whose_move``), the deadline from
its open prompt (``Ruleset.open_prompt``) or the turn reminder, the last things that happened from the log, and
the phase and the picture from the ruleset's presenter (``dashboard(inv, state)``, see ``Scene``).  The front
doors show a ``Board``: Discord as an embed with the picture (``commands/dashboard.py``, ``cogs/dashboard.py``), the
local table as a block of lines.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from engine.reply import COLOR_INFO, Embed, Picture, clip

#: how many of the latest actions the dashboard names
RECENT = 3
#: the picture's file name on the dashboard post (its embed shows it)
FILENAME = "dashboard.png"
#: Discord's limit for an attachment's description (its alt text)
MAX_ALT = 1024


@dataclass
class Scene:
    """What a ruleset's presenter adds to the dashboard: the phase in words (day and phase, or round and turn),
    the picture of the game as it stands (or None), and, when the table waits on nobody, what it waits for."""

    phase: str = ""
    picture: Picture | None = None
    waiting: str = ""
    shows: str = ""  # what the picture is, in a few words ("the battle map")


@dataclass
class Board:
    campaign: str
    game: str  # the ruleset's title
    whose: str | None = None  # the player whose move it is (None: nobody's)
    waiting: str = ""  # words for the move when it is nobody's, or what the player is asked
    since: float | None = None  # when that move began
    deadline: float | None = None  # when the default applies by itself (an open question's time-out)
    reminder: float | None = None  # when the player is reminded (no deadline)
    phase: str = ""
    recent: list[str] = field(default_factory=list)  # the last things that happened, oldest first, in words
    picture: Picture | None = None
    ended: bool = False

    # ---- Discord ---------------------------------------------------------------------------------------------
    def embed(self, mention: Callable[[str], str] = lambda uid: f"<@{uid}>") -> Embed:
        e = Embed(title=clip(f"{self.campaign} · {self.game}", 256), color=COLOR_INFO)
        e.description = clip(self.move_line(mention, stamp), 4096)
        if self.phase:
            e.add("Phase", self.phase)
        e.add("Latest", "\n".join(f"• {line}" for line in self.recent) or "nothing yet")
        if self.picture is not None:
            e.image = FILENAME
        e.footer = "This post is edited after every action."
        return e

    def move_line(self, mention: Callable[[str], str], when: Callable[[float], str]) -> str:
        """Whose move, since when, and the deadline; ``when`` words a moment (a Discord timestamp, or UTC)."""
        if self.ended:
            return "The campaign has ended."
        who = mention(self.whose) if self.whose else "nobody's"
        parts = [f"Whose move: {who}" + (f" — {self.waiting}" if self.waiting else "")]
        if self.since is not None:
            parts.append(f"Since {when(self.since)}")
        if self.deadline is not None:
            parts.append(f"Deadline: {when(self.deadline)}, then the default answer applies")
        elif self.reminder is not None and self.whose:
            parts.append(f"No deadline; a reminder at {when(self.reminder)}")
        elif self.whose:
            parts.append("No deadline")
        return "\n".join(parts)

    # ---- the local table -------------------------------------------------------------------------------------
    def lines(self, name_of: Callable[[str], str]) -> list[str]:
        """The dashboard as the local table prints it when it changes: a short block, the phase and whose move
        (the latest actions are the lines just above it)."""
        head = f"[dashboard] {self.campaign}" + (f" · {self.phase}" if self.phase else "")
        move = self.move_line(lambda uid: "@" + name_of(uid), utc).replace("\n", " · ")
        return [head, f"[dashboard] {move}"]

    # ---- alt text --------------------------------------------------------------------------------------------
    def alt(self, name_of: Callable[[str], str], shows: str = "") -> str:
        """The picture's description in words: what it shows, whose move, what just happened."""
        bits = [f"{self.campaign}: " + (self.phase or self.game) + "."]
        if shows:
            bits.append(shows)
        if self.ended:
            bits.append("The campaign has ended.")
        elif self.whose:
            bits.append(f"{name_of(self.whose)}'s move" + (f": {self.waiting}" if self.waiting else "") + ".")
        if self.recent:
            bits.append("Just happened: " + " ".join(self.recent[-RECENT:]))
        return clip(" ".join(bits), MAX_ALT)


def stamp(when: float) -> str:
    """A moment as Discord timestamps, each reader seeing it in their own time zone: the date and time
    (``<t:UNIX:f>``) and how long ago or how soon (``<t:UNIX:R>``)."""
    return f"<t:{int(when)}:f> (<t:{int(when)}:R>)"


def utc(when: float) -> str:
    """The same moment as the local table prints it."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))
