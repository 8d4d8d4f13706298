"""The party actions every ruleset shares: join, leave, lead, settings, end, forced dice, accepting a seat.

A ruleset installs them on its ``ActionTable`` with ``install_party_actions``
and passes hooks for what is its own (why joining or leaving must wait, what
leaving takes with it, what ending clears, its extra settings).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from engine.actions import ActionTable, Handler
from engine.bounds import CONFIRM, Int, Numbers, Player
from engine.core import Event, RuleError
from engine.packs import ContentError
from engine.text import echo

MAX_PARTY = 4
MAX_FORCE = 1000  # die results one /force may queue (a state never holds more than engine.transfer.MAX_FORCED)

#: Settings every campaign has: name -> (lowest, highest, default).
BASE_SETTINGS: dict[str, tuple[int, int, int]] = {
    # remind the player whose move it is after this many hours; 0 turns reminders off
    "reminder_hours": (0, 24 * 14, 24),
}


def refuse_second_campaign(state) -> None:
    """A channel holds one campaign at a time: opening another waits for ``/campaign end``."""
    if state is not None and not state.ended:
        raise RuleError(f"This channel already has a campaign, {state.name}. Ask its leader to end it "
                        "with /campaign end first, or play in another channel.")


def pack_to_open(load: Callable[[str], Any], game: str, pack_id: str):
    """The content pack a new campaign names (``load`` is the ruleset's ``load_pack``), or why it cannot open."""
    try:
        return load(pack_id)
    except ContentError as exc:
        first = "\n".join(f"- {e}" for e in exc.errors[:5])
        raise RuleError(f"The content pack {echo(pack_id)} has problems; choose another:\n{first}") from exc
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError):
        raise RuleError(f"There is no {game} content pack called {echo(pack_id)}. "
                        "Leave the pack option empty for the standard one.") from None


def pack_on_this_bot(load: Callable[[str], Any], game: str, pack_id: str, what: str = "campaign") -> None:
    """An imported campaign's pack must be on this bot and whole (``what``: how the ruleset calls a campaign)."""
    try:
        load(pack_id)
    except ContentError as exc:
        raise RuleError(f"The {what}'s {game} pack `{pack_id}` has problems on this bot.") from exc
    except (FileNotFoundError, NotADirectoryError, OSError, ValueError):
        raise RuleError(f"This bot has no {game} pack `{pack_id}`, which the {what} uses.") from None


@dataclass
class PartyRules:
    """A ruleset's hooks into the shared party actions."""

    max_party: int = MAX_PARTY
    # why the party cannot change right now (e.g. "The party is in a battle"), or None
    busy: Callable[[Any], str | None] = lambda state: None
    # what leaving takes with it (e.g. the player's adventurer retires); returns events
    on_leave: Callable[[Any, str], list[Event]] = lambda state, who: []
    # what ending the campaign clears (e.g. a running battle)
    on_end: Callable[[Any], None] = lambda state: None
    # the ruleset's own settings, added to BASE_SETTINGS: name -> (lowest, highest, default)
    settings: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    def all_settings(self) -> dict[str, tuple[int, int, int]]:
        return BASE_SETTINGS | self.settings


SEATS = ("unaccepted", "leaving")  # a state's lists of absent seats (engine.actions.absent_seats)


def seats_to_dict(state) -> dict[str, list[str]]:
    """A state's absent seats as it saves them: only the lists that hold someone (a state without any saves as
    before they existed)."""
    return {k: list(v) for k in SEATS if (v := getattr(state, k, None))}


def seats_from_dict(d: dict[str, Any]) -> dict[str, list[str]]:
    """The absent seats a saved state holds, as keyword arguments of its dataclass."""
    return {k: [str(m) for m in (d.get(k) or []) if isinstance(m, (str, int))] for k in SEATS}


def default_settings() -> dict[str, int]:
    """The settings a new campaign starts with (a ruleset's own settings use their defaults until changed)."""
    return {k: v[2] for k, v in BASE_SETTINGS.items()}


ACCEPTED = "{@player} takes their seat in the party: the bot pings, reminds and waits for them from now on."


def _drop(state, attr: str, who: str) -> None:
    seats = getattr(state, attr, None)
    if seats and who in seats:
        seats.remove(who)


def install_party_actions(table: ActionTable, party: PartyRules) -> None:
    """Register campaign.join / leave / leader / settings / end / accept and dice.force on ``table``.

    Seats an import gave (``state.unaccepted``: members the file's log names who had never acted on the importing
    server) wait to be accepted: by ``campaign.accept`` (the button on the import's post) or by the member's
    first action of their own.  Until then the table pings and reminds the leader in their place
    (``engine.actions.stand_in``), and they may leave at any moment: in a battle their pieces stay in it, played
    by the leader, and leave with them when it is over (``state.leaving``)."""

    def _held(state, who: str) -> bool:
        """Whether the game still needs ``who``'s pieces (its leave hook refuses for now: a question waits on them)."""
        try:
            party.on_leave(state.clone(), who)
        except RuleError:
            return True
        return False

    def seats_after(state, action) -> list[Event]:
        events: list[Event] = []
        who = action.actor
        if who in (getattr(state, "unaccepted", None) or ()) and action.type not in ("campaign.accept",
                                                                                    "campaign.leave"):
            _drop(state, "unaccepted", who)
            if who in state.members:  # their first action of their own accepts the seat
                events.append(Event("seat-accepted", ACCEPTED, {"player": who}))
        for attr in ("unaccepted", "leaving"):  # nobody outside the party keeps a seat
            seats = getattr(state, attr, None)
            if seats:
                seats[:] = [m for m in seats if m in state.members]
        leaving = list(getattr(state, "leaving", None) or ())
        if leaving and not state.ended and not party.busy(state):  # the battle is over: they leave now
            for gone in leaving:
                try:
                    more = party.on_leave(state, gone)
                except RuleError:  # the game waits on their piece once more: they leave after the next action
                    continue
                _drop(state, "leaving", gone)
                state.members.remove(gone)
                events += [Event("left", "{@player} leaves the party.", {"player": gone}), *more]
        return events

    table.after_hooks.append(seats_after)

    @table.action
    class Join(Handler):
        type = "campaign.join"
        summary = "Join the party."
        args: dict = {}
        joins = True

        def check(self, state, action, ctx):
            if action.actor in state.members:
                raise RuleError("You are already in this party.")
            if len(state.members) >= party.max_party:
                raise RuleError(f"The party is full ({party.max_party} players).")
            why = party.busy(state)
            if why:
                raise RuleError(f"{why}; join once it is over.")

        def apply(self, state, action, ctx):
            state.members.append(action.actor)
            return state, [Event("joined", "{@player} joins the party.", {"player": action.actor})]

    @table.action
    class Leave(Handler):
        type = "campaign.leave"
        summary = "Leave the party."
        args = {"confirm": CONFIRM}

        def check(self, state, action, ctx):
            who = action.on_behalf or action.actor
            if who not in state.members:
                raise RuleError("You are not in this party.")
            if who == state.leader:
                raise RuleError(
                    "The party leader can't leave. Hand the lead to someone with /campaign leader, "
                    "or end the campaign with /campaign end."
                )
            if who in (getattr(state, "leaving", None) or ()):
                raise RuleError("{@player} has left the party already: their pieces leave when the battle is over.",
                                player=who)
            why = party.busy(state)
            if why and who not in (getattr(state, "unaccepted", None) or ()):  # a seat an import gave: any time
                raise RuleError(f"{why}: you can't leave in the middle of it.")

        def apply(self, state, action, ctx):
            who = action.on_behalf or action.actor
            if who in (getattr(state, "unaccepted", None) or ()) and (party.busy(state) or _held(state, who)):
                # a seat an import gave, left while the game needs its pieces: the leader plays them until then
                _drop(state, "unaccepted", who)
                state.leaving.append(who)
                return state, [Event("leaving", "{@player} leaves the party. Their pieces stay, played by the leader, "
                                                "while the game still needs them (this battle, or a question that "
                                                "waits on them), and leave as soon as it no longer does; nobody "
                                                "pings them meanwhile.", {"player": who})]
            state.members.remove(who)
            events = [Event("left", "{@player} leaves the party.", {"player": who})]
            events += party.on_leave(state, who)
            return state, events

    @table.action
    class Accept(Handler):
        type = "campaign.accept"
        summary = "Take the seat an import gave you in the party."
        args: dict = {}

        def check(self, state, action, ctx):
            if action.on_behalf and action.on_behalf != action.actor:
                raise RuleError("Only the member the seat is for can take it; the leader acts for them meanwhile.")
            if action.actor not in (getattr(state, "unaccepted", None) or ()):
                raise RuleError("You have no seat waiting to be taken in this party: you play in it already.")

        def apply(self, state, action, ctx):
            _drop(state, "unaccepted", action.actor)
            return state, [Event("seat-accepted", ACCEPTED, {"player": action.actor})]

    @table.action
    class Leader(Handler):
        type = "campaign.leader"
        leader_only = True
        summary = "Hand the party lead to another member."
        args = {"player": Player()}

        def check(self, state, action, ctx):
            new = str(action.args.get("player") or "")
            if new not in state.members:
                raise RuleError("The new leader must be a member of the party (they can /campaign join first).")
            if new == state.leader:
                raise RuleError("They already lead the party.")

        def apply(self, state, action, ctx):
            new = str(action.args["player"])
            state.leader = new
            return state, [Event("leader", "{@leader} now leads the party.", {"leader": new})]

    @table.action
    class Settings(Handler):
        type = "campaign.settings"
        leader_only = True
        summary = "Change the campaign's settings."
        args = {name: Int(lo, hi) for name, (lo, hi, _default) in party.all_settings().items()}

        def check(self, state, action, ctx):
            limits = party.all_settings()
            if not action.args:
                raise RuleError("Name a setting to change, e.g. reminder_hours:12.")
            for key, value in action.args.items():
                if key not in limits:
                    raise RuleError(f"{key} is not a setting of this campaign. Settings: {', '.join(limits)}.")
                lo, hi, _ = limits[key]
                try:
                    number = int(value)
                except (TypeError, ValueError):
                    raise RuleError(f"{key} must be a whole number from {lo} to {hi}.") from None
                if not lo <= number <= hi:
                    raise RuleError(f"{key} must be from {lo} to {hi} (you gave {number}).")

        def apply(self, state, action, ctx):
            parts = []
            for key, value in action.args.items():
                state.settings[key] = int(value)
                parts.append(f"{key} = {int(value)}")
            return state, [Event("settings", "Settings changed: " + ", ".join(parts) + ".", dict(action.args))]

    @table.action
    class End(Handler):
        type = "campaign.end"
        leader_only = True
        undoable = False
        summary = "End the campaign (leader, with confirmation)."
        args = {"confirm": CONFIRM}

        def check(self, state, action, ctx):
            if not action.args.get("confirm"):
                raise RuleError("Ending the campaign can't be taken back. Confirm with the button (or confirm:yes).")

        def apply(self, state, action, ctx):
            state.ended = True
            party.on_end(state)
            return state, [Event("campaign-ended", f"Campaign {state.name} has ended. Thanks for playing!",
                                 {"name": state.name})]

    @table.action
    class Force(Handler):
        """Queue the next die results (local table and tests; the leader only)."""

        type = "dice.force"
        leader_only = True
        undoable = False
        summary = "Force the next die results (replays and tests)."
        host_only = "forced dice (`/force`, a local-table and test tool)"
        args = {"values": Numbers(1, 100, MAX_FORCE)}

        def check(self, state, action, ctx):
            values = action.args.get("values")
            if not isinstance(values, list) or not values:
                raise RuleError("Give the results to force, e.g. /force 3 5 1.")
            for v in values:
                if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 100:
                    raise RuleError("Forced results are whole numbers from 1 to 100.")

        def apply(self, state, action, ctx):
            ctx.dice.forced.extend(int(v) for v in action.args["values"])
            n = len(action.args["values"])
            return state, [Event("forced", "The next die result is set." if n == 1 else f"The next {n} die results are set.",
                                 {"count": len(action.args["values"])})]
