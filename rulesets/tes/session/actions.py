"""The session's actions: the party's guild (session 1), its next guild quest (the epilogue's choice), the
guild assist and its question's time-out."""
from __future__ import annotations

from engine.actions import Handler
from engine.bounds import KEY, Flag, Hexes, Int, Text
from engine.core import RuleError
from rulesets.tes.outcomes.context import day_ctx
from rulesets.tes.outcomes.handlers import DayHandler, drive
from rulesets.tes.session import assist, end, setup


class Guild(DayHandler):
    type = "quest.guild"
    when = "The guild is chosen at the first session's set-up, from the 3 guild cards drawn."
    kinds = ("guild",)
    leader_only = True
    mine = False
    args = {"pick": Text(60)}
    summary = "Leader, first session: choose the party's guild from the 3 guild cards drawn (its quest starts)."

    def step(self, c, owner, args):
        setup.choose_guild(c, args.get("pick"))


class Next(Handler):
    type = "quest.next"
    leader_only = True
    args = {"pick": Text(60)}
    summary = "Leader, after session 1: choose the next guild quest from the epilogue's options (session 2)."

    def apply(self, state, action, ctx):
        c = day_ctx(state, ctx)
        s = state.days
        if s is None or s.ask is None or s.ask.kind != "next-quest":
            raise RuleError("There is no next guild quest to choose now: the epilogue of session 1 offers them.")
        end.choose_next(c, action.args.get("pick"))
        return state, c.events


class Assist(Handler):
    type = "quest.assist"
    leader_only = True
    args = {"round": Int(1, 20), "path": Hexes(6), "deploy": Hexes(4), "use": Flag(), "ask": KEY}
    summary = "Leader: call the guild assist, once a campaign (in battle: at the end of the round; or in the rest)."

    def apply(self, state, action, ctx):
        c = day_ctx(state, ctx)
        run = state.quests
        if action.args.get("use") is False or (action.args.get("ask") and "use" not in action.args):
            if run is None or run.assist != "asked" or state.battle is None:
                raise RuleError("No question about the guild assist is waiting.")
            assist.decline(c)
        else:
            assist.call(c, action.args.get("round"), action.args.get("path"), action.args.get("deploy"))
        _after(c)
        return state, c.events


class AssistTimeout(Handler):
    type = "quest.assist-timeout"
    leader_only = True
    undoable = False
    args = {"ask": KEY}
    summary = "Nobody answered the guild assist question in time: the battle ends."

    def apply(self, state, action, ctx):
        c = day_ctx(state, ctx)
        run = state.quests
        if run is None or run.assist != "asked" or state.battle is None:
            raise RuleError("That question was already answered; nothing timed out.")
        c.say("timeout", "⏰ No answer about the guild assist in time: the battle ends.")
        assist.decline(c)
        _after(c)
        return state, c.events


def _after(c) -> None:
    """A battle the assist's answer ended hands its result to the day; the rest goes on by itself."""
    if c.state.battle is None:
        from rulesets.tes.outcomes.handlers import AFTER_BATTLE

        for fn in AFTER_BATTLE:
            fn(c)
    drive(c)


ACTIONS = [Guild, Next, Assist, AssistTimeout]
