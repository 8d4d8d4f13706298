"""Campaign-level actions of a skirmish: open, join, leave, lead, settings, end, forced dice."""
from __future__ import annotations

from kernel.core import Event, RuleError
from kernel.text import clean_name, echo
from rulesets.skirmish.board import MAX_WARBANDS
from rulesets.skirmish.rules import Handler, action, subject
from rulesets.skirmish.state import Skirmish

SETTING_LIMITS = {"reminder_hours": (0, 24 * 14), "points": (100, 3000), "rounds": (1, 12)}
BEFORE_BATTLE = ("points", "rounds")  # settings that only change while warbands muster


def _pack(pack_id: str):
    from rulesets.skirmish.content import ContentError, load_pack

    try:
        return load_pack(pack_id)
    except ContentError as exc:
        first = "\n".join(f"- {e}" for e in exc.errors[:5])
        raise RuleError(f"The content pack {echo(pack_id)} has problems; choose another:\n{first}") from exc
    except FileNotFoundError as exc:
        raise RuleError(f"There is no skirmish content pack called {echo(pack_id)}. "
                        "Leave the pack option empty for the standard one.") from exc


@action
class NewSkirmish(Handler):
    type = "campaign.new"
    needs_campaign = False
    undoable = False
    summary = "Open a skirmish campaign in this channel."

    def check(self, state, action, ctx):
        if state is not None and not state.ended:
            raise RuleError(f"This channel already has a campaign, {state.name}. Ask its leader to end it "
                            "with /campaign end first, or play in another channel.")
        clean_name(action.args.get("name") or "", "campaign", max_len=60)
        _pack(action.args.get("pack") or "skirmish")

    def apply(self, state, action, ctx):
        a = action.args
        pack = _pack(a.get("pack") or "skirmish")
        camp = Skirmish(channel_id=str(a["channel_id"]), guild_id=str(a["guild_id"]) if a.get("guild_id") else None,
                        name=clean_name(a.get("name"), "campaign", max_len=60), leader=action.actor,
                        members=[action.actor], seed=int(a.get("seed", 0)), pack=a.get("pack") or "skirmish",
                        pack_version=pack.version,
                        settings={"reminder_hours": 24, "points": pack.points, "rounds": pack.rounds})
        return camp, [Event("campaign-opened",
                            f"Skirmish {camp.name} opened with the {pack.title} pack ({pack.points} points a "
                            f"warband, {pack.rounds} battle rounds). {{@leader}} leads.", {"leader": camp.leader})]


@action
class Join(Handler):
    type = "campaign.join"
    summary = "Join the skirmish."

    def check(self, state, action, ctx):
        if action.actor in state.members:
            raise RuleError("You are already in this skirmish. Pick your warband with /skirmish warband.")
        if len(state.members) >= MAX_WARBANDS:
            raise RuleError(f"This skirmish is full ({MAX_WARBANDS} players).")
        if state.phase != "muster":
            raise RuleError("The battle has begun; join the next skirmish.")

    def apply(self, state, action, ctx):
        state.members.append(action.actor)
        return state, [Event("joined", "{@player} joins the skirmish.", {"player": action.actor})]


@action
class Leave(Handler):
    type = "campaign.leave"
    summary = "Leave the skirmish (your warband leaves with you)."

    def check(self, state, action, ctx):
        who = subject(state, action)
        if who not in state.members:
            raise RuleError("You are not in this skirmish: join with /skirmish warband.")
        if who == state.leader:
            raise RuleError("The leader can't leave. Hand the lead over with /campaign leader, "
                            "or end the campaign with /campaign end.")
        if state.phase == "battle":
            raise RuleError("You can't leave in the middle of the battle.")

    def apply(self, state, action, ctx):
        who = subject(state, action)
        state.members.remove(who)
        wb = state.warbands.pop(who, None)
        for fid in (wb.fighters if wb else []):
            state.fighters.pop(fid, None)
        return state, [Event("left", "{@player} leaves the skirmish.", {"player": who})]


@action
class Leader(Handler):
    type = "campaign.leader"
    leader_only = True
    summary = "Hand the lead to another player."

    def check(self, state, action, ctx):
        new = str(action.args.get("player") or "")
        if new not in state.members:
            raise RuleError("The new leader must be in the skirmish (they can /campaign join first).")
        if new == state.leader:
            raise RuleError("They already lead.")

    def apply(self, state, action, ctx):
        state.leader = str(action.args["player"])
        return state, [Event("leader", "{@leader} now leads.", {"leader": state.leader})]


@action
class Settings(Handler):
    type = "campaign.settings"
    leader_only = True
    summary = "Change the skirmish's settings."

    def check(self, state, action, ctx):
        if not action.args:
            raise RuleError("Name a setting to change, e.g. points:500. Settings: " + ", ".join(SETTING_LIMITS) + ".")
        for key, value in action.args.items():
            if key not in SETTING_LIMITS:
                raise RuleError(f"{key} is not a skirmish setting. Settings: {', '.join(SETTING_LIMITS)}.")
            lo, hi = SETTING_LIMITS[key]
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise RuleError(f"{key} must be a whole number from {lo} to {hi}.") from None
            if not lo <= number <= hi:
                raise RuleError(f"{key} must be from {lo} to {hi} (you gave {number}).")
            if key in BEFORE_BATTLE and state.phase != "muster":
                raise RuleError(f"{key} can only change before the battle starts.")

    def apply(self, state, action, ctx):
        parts = []
        for key, value in action.args.items():
            state.settings[key] = int(value)
            parts.append(f"{key} = {int(value)}")
        return state, [Event("settings", "Settings changed: " + ", ".join(parts) + ".", dict(action.args))]


@action
class End(Handler):
    type = "campaign.end"
    leader_only = True
    undoable = False
    summary = "End the skirmish campaign."

    def check(self, state, action, ctx):
        if not action.args.get("confirm"):
            raise RuleError("Ending the campaign can't be taken back. Confirm with the button (or confirm:yes).")

    def apply(self, state, action, ctx):
        state.ended = True
        return state, [Event("campaign-ended", f"Campaign {state.name} has ended. Thanks for playing!", {})]


@action
class Force(Handler):
    type = "dice.force"
    leader_only = True
    undoable = False
    summary = "Force the next die results (replays and tests)."

    def check(self, state, action, ctx):
        values = action.args.get("values")
        if not isinstance(values, list) or not values:
            raise RuleError("Give the results to force, e.g. /force 3 5 1.")
        for v in values:
            if not isinstance(v, int) or not 1 <= v <= 6:
                raise RuleError("Skirmish dice are six-sided: force whole numbers from 1 to 6.")

    def apply(self, state, action, ctx):
        ctx.dice.forced.extend(int(v) for v in action.args["values"])
        return state, [Event("forced", f"The next {len(action.args['values'])} die results are set.", {})]
