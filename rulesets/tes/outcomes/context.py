"""The context every step of the day works with: the battle engine's context (state, pack, dice, events,
the clock) whose ``say`` also keeps the session's latest lines for the overland picture."""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import RuleError, word
from rulesets.tes.battle.model import Ctx
from rulesets.tes.day_state import Session

LOG_KEEP = 12


@dataclass
class DayCtx(Ctx):
    """``Ctx`` for the day: ``s`` is the running session; lines said go to its log too."""

    @property
    def s(self) -> Session:
        if self.state.days is None:
            raise RuleError("No session is running. The party leader starts one with `/day start`.")
        return self.state.days

    def say(self, kind: str, text: str, *, since: int = 0, kept: str | None = None, **data) -> None:
        """Say ``text``; the session's log keeps it too.  A line new in rules revision ``since`` is kept only by
        campaigns on that revision or later; ``kept`` is what older campaigns keep instead (None: nothing)."""
        super().say(kind, text, since=since, kept=kept, **data)
        if self.state.days is not None and self.state.battle is None:
            if self.state.rules < since:
                if not kept:
                    return
                text = kept
            log = self.state.days.log
            log.append(word(text, data, self.who))
            del log[:-LOG_KEEP]

    def who(self, user_id: str) -> str:
        adv = self.state.adventurers.get(str(user_id))
        return adv.name if adv else (self.state.names.get(str(user_id)) or "a player")

    @property
    def province(self):
        p = self.pack.provinces.get(self.s.province)
        if p is None:
            raise RuleError(f"This pack no longer has the province `{self.s.province}`.")
        return p

    def party(self) -> list[str]:
        """The players with adventurers, in the party's order (the leader's join order)."""
        return [m for m in self.state.members if m in self.state.adventurers]

    def standing(self) -> list[str]:
        return [o for o in self.party() if self.state.adventurers[o].hp > 0]


def day_ctx(state, ctx) -> DayCtx:
    """A day context for a rules handler's ``ctx`` (engine.actions.Ctx with the pack)."""
    return DayCtx(state, ctx.pack_for(state), ctx.dice, now=ctx.now)
