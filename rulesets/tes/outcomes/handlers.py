"""The base of every action of the day, whichever package owns it (day, cards, town, reward).

``DayHandler.apply`` runs the action's ``step`` on a day context and then lets the day's driver move on by
itself until it waits for a player again.  The driver registers itself in ``DRIVER`` from above
(``rulesets.tes.day.flow``), so the packages below it never import it.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.actions import Handler, subject
from engine.core import RuleError
from rulesets.tes.outcomes.context import DayCtx, day_ctx

#: the day's driver (``rulesets.tes.day.flow.advance``), registered when that module is imported
DRIVER: list[Callable[[DayCtx], None]] = []
#: what runs after an action ended a battle outside the battle actions (the guild assist's answer): the rules
#: layer's hand-over of a card's battle to the day (``rulesets.tes.rules.days.after_battle``)
AFTER_BATTLE: list[Callable] = []


def drive(c: DayCtx) -> None:
    for fn in DRIVER:
        fn(c)


class DayHandler(Handler):
    """An action during a session.  ``kinds``: the questions it answers (the open one must be among them);
    ``mine``: the subject must be among the question's players (the leader may act for them)."""

    kinds: tuple[str, ...] = ()
    mine: bool = True
    when = ""  # when this action is taken, for the refusal at any other moment
    no_session = "No session is running. The party leader starts one with `/day start`."

    def apply(self, state, action, ctx):
        c = day_ctx(state, ctx)
        if state.days is None or state.days.phase == "over":
            raise RuleError(self.no_session if state.days is None else
                            "The session is over. The party leader starts a new one with `/day start`.")
        s = c.s
        if state.battle is not None:
            raise RuleError("The party is in a battle; the day goes on when it ends. See `/battle status`.")
        owner = subject(state, action)
        if self.kinds:
            ask = s.ask
            if ask is None or ask.kind not in self.kinds:
                raise RuleError(self.not_now(c))
            if self.mine and owner not in ask.owners:
                if owner not in state.adventurers:
                    raise RuleError("You have no adventurer in this party. Create one with `/adventurer create`.")
                raise RuleError(self.not_yours(c, owner))
        self.step(c, owner, action.args)
        drive(c)
        return state, c.events

    def step(self, c: DayCtx, owner: str, args: dict[str, Any]) -> None:
        raise NotImplementedError

    def not_now(self, c: DayCtx) -> str:
        if self.when:
            return f"{self.when} The day is not waiting for that now: see `/day status`."
        return "The day is not waiting for that now. See `/day status` for what it waits for."

    def not_yours(self, c: DayCtx, owner: str) -> str:
        ask = c.s.ask
        names = ", ".join(c.adv(o).name for o in ask.owners if o in c.state.adventurers)
        return f"The day is waiting for {names or 'the party leader'}, not you."
