"""The party's answers about its quests: accepting a side quest from the quest board, discarding one."""
from __future__ import annotations

from engine.bounds import Text
from engine.core import RuleError
from rulesets.tes.outcomes.handlers import DayHandler
from rulesets.tes.quest import sides


class Accept(DayHandler):
    type = "quest.accept"
    when = "A side quest is accepted after drawing at a quest board."
    kinds = ("side-quest",)
    args = {"pick": Text(60)}
    summary = "Accept one of the side quests you drew at the quest board for the party, or neither."

    def step(self, c, owner, args):
        sides.accept(c, owner, args.get("pick"))


class Discard(DayHandler):
    type = "quest.discard"
    leader_only = True
    args = {"pick": Text(60)}
    summary = "Leader: discard one of the party's side quests (at any time, or when a fifth one comes)."

    def step(self, c, owner, args):
        ask = c.s.ask
        asked = ask is not None and ask.kind == "side-discard"
        if ask is not None and not asked and ask.kind == "side-quest":
            raise RuleError("First the quest board's question: accept a side quest or neither (`/quest accept`).")
        if not args.get("pick"):
            run = c.state.quests
            names = ", ".join(sides.name(c, x.id) for x in run.sides) if run and run.sides else "none"
            raise RuleError(f"Name the side quest to discard with `side:` (the party holds: {names}).")
        sides.discard(c, args.get("pick"), asked=asked)


ACTIONS = [Accept, Discard]
