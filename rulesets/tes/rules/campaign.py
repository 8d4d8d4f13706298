"""Campaign-level actions: open, join, leave, settings, leadership, end, forced dice."""
from __future__ import annotations

from kernel.core import Event, RuleError
from rulesets.tes.rules import Handler, action
from rulesets.tes.state import DIFFICULTIES, Campaign
from kernel.text import clean_name, slug

MAX_PARTY = 4
DEFAULT_SETTINGS = {
    "reminder_hours": 24,  # remind the player whose move it is after this long; 0 turns reminders off
}
SETTING_LIMITS = {"reminder_hours": (0, 24 * 14),
                  # minutes a player in prevention ask mode has to answer (0 = no time-out); default 60
                  "prevent_timeout_minutes": (0, 7 * 24 * 60)}


def _difficulty(value) -> str:
    d = slug(value or "adept")
    if d not in DIFFICULTIES:
        raise RuleError(f"Difficulty must be one of: {', '.join(x.title() for x in DIFFICULTIES)} (you gave {value!r}).")
    return d


@action
class NewCampaign(Handler):
    type = "campaign.new"
    needs_campaign = False
    undoable = False
    summary = "Open a campaign in this channel."

    def check(self, state, action, ctx):
        if state is not None and not state.ended:
            raise RuleError(
                f"This channel already has a campaign, **{state.name}**. "
                "Use `/campaign status` to see it, or ask its leader to `/campaign end` it first."
            )
        clean_name(action.args.get("name") or "", "campaign", max_len=60)
        _difficulty(action.args.get("difficulty"))
        pack_id = action.args.get("pack") or "starter"
        from rulesets.tes.content import ContentError, load_pack

        try:
            load_pack(pack_id)
        except ContentError as exc:
            first = "\n".join(f"- {e}" for e in exc.errors[:5])
            raise RuleError(f"The content pack `{pack_id}` has problems:\n{first}") from exc
        except FileNotFoundError as exc:
            raise RuleError(
                f"There is no content pack called `{pack_id}`. Leave the option empty for the starter pack."
            ) from exc

    def apply(self, state, action, ctx):
        a = action.args
        camp = Campaign(
            channel_id=str(a["channel_id"]),
            guild_id=str(a["guild_id"]) if a.get("guild_id") else None,
            name=clean_name(a.get("name"), "campaign", max_len=60),
            pack=a.get("pack") or "starter",
            difficulty=_difficulty(a.get("difficulty")),
            leader=action.actor,
            members=[action.actor],
            seed=int(a.get("seed", 0)),
            settings=dict(DEFAULT_SETTINGS),
            pack_version=str(a.get("pack_version") or ""),  # recorded at the edge; "" = the pack's unversioned copy
        )
        return camp, [
            Event(
                "campaign-opened",
                f"Campaign **{camp.name}** opened on {camp.difficulty.title()} with the `{camp.pack}` pack. "
                f"<@{camp.leader}> leads the party.",
                {"leader": camp.leader},
            )
        ]


@action
class Join(Handler):
    type = "campaign.join"
    summary = "Join the party."

    def check(self, state, action, ctx):
        if action.actor in state.members:
            raise RuleError("You are already in this party. Create your adventurer with `/adventurer create`.")
        if len(state.members) >= MAX_PARTY:
            raise RuleError(f"The party is full ({MAX_PARTY} players).")
        if state.battle:
            raise RuleError("The party is in a battle; join once it is over.")

    def apply(self, state, action, ctx):
        state.members.append(action.actor)
        return state, [Event("joined", f"<@{action.actor}> joins the party.", {"player": action.actor})]


@action
class Leave(Handler):
    type = "campaign.leave"
    summary = "Leave the party (your adventurer retires)."

    def check(self, state, action, ctx):
        who = action.on_behalf or action.actor
        if who not in state.members:
            raise RuleError("You are not in this party.")
        if who == state.leader:
            raise RuleError(
                "The party leader can't leave. Hand the lead to someone with `/campaign leader`, "
                "or end the campaign with `/campaign end`."
            )
        if state.battle:
            raise RuleError("You can't leave in the middle of a battle.")

    def apply(self, state, action, ctx):
        who = action.on_behalf or action.actor
        state.members.remove(who)
        events = [Event("left", f"<@{who}> leaves the party.", {"player": who})]
        adv = state.adventurers.pop(who, None)
        if adv:
            events.append(Event("retired", f"{adv.name} retires from the party.", {"player": who}))
        return state, events


@action
class Leader(Handler):
    type = "campaign.leader"
    leader_only = True
    summary = "Hand the party lead to another member."

    def check(self, state, action, ctx):
        new = str(action.args.get("player") or "")
        if new not in state.members:
            raise RuleError("The new leader must be a member of the party (they can `/campaign join` first).")
        if new == state.leader:
            raise RuleError("They already lead the party.")

    def apply(self, state, action, ctx):
        new = str(action.args["player"])
        state.leader = new
        return state, [Event("leader", f"<@{new}> now leads the party.", {"leader": new})]


@action
class Settings(Handler):
    type = "campaign.settings"
    leader_only = True
    summary = "Change the campaign's settings."

    def check(self, state, action, ctx):
        if not action.args:
            raise RuleError("Name a setting to change, e.g. `reminder_hours:12`.")
        for key, value in action.args.items():
            if key not in SETTING_LIMITS:
                raise RuleError(f"`{key}` is not a setting. Settings: {', '.join(SETTING_LIMITS)}.")
            lo, hi = SETTING_LIMITS[key]
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise RuleError(f"`{key}` must be a whole number from {lo} to {hi}.") from None
            if not lo <= number <= hi:
                raise RuleError(f"`{key}` must be from {lo} to {hi} (you gave {number}).")

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
    summary = "End the campaign (leader, with confirmation)."

    def check(self, state, action, ctx):
        if not action.args.get("confirm"):
            raise RuleError("Ending the campaign can't be taken back. Confirm with the button (or `confirm:yes`).")

    def apply(self, state, action, ctx):
        state.ended = True
        state.battle = None
        return state, [Event("campaign-ended", f"Campaign **{state.name}** has ended. Thanks for playing!", {})]


@action
class Force(Handler):
    """Queue the next die results (local table and tests; the leader only)."""

    type = "dice.force"
    leader_only = True
    undoable = False
    summary = "Force the next die results (replays and tests)."

    def check(self, state, action, ctx):
        values = action.args.get("values")
        if not isinstance(values, list) or not values:
            raise RuleError("Give the results to force, e.g. `/force 3 5 1`.")
        for v in values:
            if not isinstance(v, int) or not 1 <= v <= 100:
                raise RuleError("Forced results are whole numbers from 1 to 100.")

    def apply(self, state, action, ctx):
        ctx.dice.forced.extend(int(v) for v in action.args["values"])
        return state, [Event("forced", f"The next {len(action.args['values'])} die results are set.", {})]
