"""The Reward Phase's actions (each player for their own adventurer) and the promotion."""
from __future__ import annotations

from engine.actions import Handler, subject
from engine.bounds import CONFIRM, Text
from engine.core import Event, RuleError
from rulesets.tes.outcomes.asks import close
from rulesets.tes.outcomes.handlers import DayHandler
from rulesets.tes.reward import phase
from rulesets.tes.state import promotions_detected


class Buy(DayHandler):
    type = "reward.buy"
    when = "XP is spent in the Reward Phase, after an encounter."
    kinds = ("reward",)
    mine = False
    summary = "Spend XP on an advancement (a stat square, a skill die, Cooldown, tenacity)."
    args = {"what": Text()}

    def step(self, c, owner, args):
        _adventurer(c, owner)
        phase.buy(c, owner, str(args.get("what") or ""))


class Untrain(DayHandler):
    type = "reward.untrain"
    when = "Untraining is done in the Reward Phase, after an encounter."
    kinds = ("reward",)
    mine = False
    summary = "Untrain a stat square, a skill die, a skill line or the Magicka stat (no XP back)."
    args = {"what": Text()}

    def step(self, c, owner, args):
        _adventurer(c, owner)
        phase.untrain(c, owner, str(args.get("what") or ""))


class Done(DayHandler):
    type = "reward.done"
    when = "This ends your part of a Reward Phase."
    kinds = ("reward",)
    summary = "You are done spending XP this Reward Phase."
    args: dict = {}

    def step(self, c, owner, args):
        if phase.done(c, owner):
            close(c)


def _adventurer(c, owner):
    if owner not in c.state.adventurers:
        raise RuleError("You have no adventurer in this party.")


class Promote(Handler):
    """Promotion (pp.25, 31): at once, when the novice side's requirement is met.  From rules revision 3 the bot
    detects the requirements that have a ``promotion_check`` (rulesets.tes.battle.promotion); the others, and every
    requirement on an older revision, the player says are met (the log keeps it)."""

    type = "adventurer.promote"
    summary = "Flip your class sheet to its master side once its promotion requirement is met."
    args = {"confirm": CONFIRM}

    def apply(self, state, action, ctx):
        owner = subject(state, action)
        adv = state.adventurers.get(owner)
        if adv is None:
            raise RuleError("You have no adventurer yet. Create one with `/adventurer create`.")
        pack = ctx.pack_for(state)
        if not adv.class_id:
            raise RuleError(f"{adv.name} has no class yet, so there is nothing to promote.")
        klass = pack.classes[adv.class_id]
        if adv.class_side == "master":
            raise RuleError(f"{adv.name}'s {klass.name} sheet is already on its master side.")
        if not action.args.get("confirm"):
            seen = (f" The bot promotes the {klass.name} by itself the moment it sees this happen; confirm it here "
                    "only if it was met where the bot could not see it." if klass.check and promotions_detected(state) else "")
            raise RuleError(f"Promotion requirement of the {klass.name}: {klass.promotion}{seen} Confirm it is met "
                            "with `confirm:yes` (the party checks it; the log keeps it).")
        adv.class_side = "master"
        return state, [Event("promoted", f"🎖️ {adv.name} meets the {klass.name}'s promotion requirement "
                                         f"({klass.promotion}) and flips the class sheet to its master side.",
                             {"player": owner, "class": adv.class_id})]


ACTIONS = [Buy, Untrain, Done, Promote]
