"""The fight as the rules see it while an action runs: the state, the pack, the dice, the clock and the
events said so far (``F``), with the lookups every step needs: fighters, sides, turn order, Fame.

Turn order: the fight's seats are the characters in the order their players made them (the campaign's
``seats``) with the monster last; turn order starts at the holder of the Priority token and goes round the
seats, skipping whoever has left the fight.
"""
from __future__ import annotations

from typing import Any

from engine.core import Dice, Event, RuleError
from rulesets.duel.state import Duel, Fight, Fighter

# this game's own settings: name -> (lowest, highest, default)
SETTINGS = {
    "ask_minutes": (0, 7 * 24 * 60, 60),  # joining, declaring and Fame questions: minutes before the default (0 = wait)
    "place_hours": (0, 14 * 24, 24),  # placing cards: hours before "places none" (0 = wait)
}


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def listing(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class F:
    """One action's view of the fight."""

    def __init__(self, state: Duel, pack: Any, dice: Dice, now: float = 0.0):
        self.state = state
        self.pack = pack
        self.dice = dice
        self.now = now
        self.events: list[Event] = []
        self.fame_changed = False
        self.rolloff: list[dict[str, Any]] = []  # the last Priority roll-off's dice (for the picture)
        self.bot_rolls = False  # the monster's runner timed out: the bot rolls its dice for them

    @property
    def fight(self) -> Fight:
        if self.state.fight is None:
            raise RuleError("There is no fight going on. Start one with /duel fight.")
        return self.state.fight

    def say(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data))

    # ------------------------------------------------------------ fighters --
    def fighter(self, fid: str) -> Fighter:
        return self.fight.fighters[fid]

    def seated(self) -> list[Fighter]:
        return [self.fight.fighters[i] for i in self.fight.order if i in self.fight.fighters]

    def turn_order(self) -> list[Fighter]:
        """Standing fighters in turn order: the Priority token's holder first, then round the seats."""
        seats = self.fight.order
        start = seats.index(self.fight.token) if self.fight.token in seats else 0
        ring = seats[start:] + seats[:start]
        return [self.fight.fighters[i] for i in ring if self.fight.fighters[i].standing]

    def rank_in_order(self, fid: str) -> int:
        ids = [f.id for f in self.turn_order()]
        return ids.index(fid) if fid in ids else len(ids)

    def characters(self) -> list[Fighter]:
        return [f for f in self.turn_order() if not f.monster]

    def enemies(self, f: Fighter) -> list[Fighter]:
        return [e for e in self.turn_order() if e.side != f.side]

    def allies(self, f: Fighter) -> list[Fighter]:
        """``f`` and the standing fighters on its side."""
        return [a for a in self.turn_order() if a.side == f.side]

    def fighter_of(self, owner: str) -> Fighter | None:
        return self.fight.fighters.get(f"c:{owner}")

    def fame(self, f: Fighter) -> int:
        """A character's Fame (its record's), a monster's Rank."""
        if f.monster:
            return f.rank
        ch = self.state.characters.get(f.owner)
        return ch.fame if ch else 0

    # ---------------------------------------------------------------- zones --
    @property
    def zoned(self) -> bool:
        """Characters stand in the pack's zones (rules revision 2, a pack with zones); else in one place."""
        return self.state.rules >= 2 and bool(getattr(self.pack, "zones", None))

    def zone_of(self, owner: str) -> str:
        """Where a player's character stands: its zone, or the pack's first ("" when there are no zones)."""
        if not self.zoned:
            return ""
        ch = self.state.characters.get(owner)
        first = next(iter(self.pack.zones))
        return ch.zone if ch is not None and ch.zone in self.pack.zones else first

    def zone_name(self, zone: str) -> str:
        return self.pack.zones.get(zone, zone) if self.zoned else ""

    def next_ask(self) -> int:
        self.fight.asks += 1
        return self.fight.asks

    # ------------------------------------------------------------ deadlines --
    def ask_deadline(self) -> float | None:
        minutes = int(self.state.settings.get("ask_minutes", SETTINGS["ask_minutes"][2]) or 0)
        return self.now + minutes * 60 if minutes > 0 else None

    def place_deadline(self) -> float | None:
        hours = int(self.state.settings.get("place_hours", SETTINGS["place_hours"][2]) or 0)
        return self.now + hours * 3600 if hours > 0 else None


def fid_of(owner: str) -> str:
    return f"c:{owner}"
