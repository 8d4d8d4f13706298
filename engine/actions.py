"""Actions, checked then applied: the machinery every ruleset's rules share.

A ruleset keeps one ``ActionTable``.  Each action type is a small ``Handler``
class registered with ``table.action``: ``check`` reads the state and raises
``RuleError`` naming the fix; ``apply`` changes the (copied) state and returns
events.  ``ActionTable.execute`` runs both on a copy, so a refused action
never changes the campaign, and records the dice it rolled.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from engine.bounds import UNKNOWN, Bound, problems
from engine.core import Action, Dice, Event, RuleError
from engine.text import display_name


@dataclass
class Ctx:
    """What an action may use besides the state: its dice and the clock.

    Rulesets subclass it to add what their rules need (the content pack, say).
    """

    dice: Dice
    now: float


class Handler:
    """One action type.  Subclasses set the class attributes and the two steps."""

    type: str = ""
    needs_campaign: bool = True  # refuse in a channel with no campaign
    leader_only: bool = False
    undoable: bool = True  # may /undo take it back (only if it rolled no dice as well)
    summary: str = ""  # one line for /help and the log
    # The options this action takes and the bounds of each (engine.bounds): checked before ``check`` and
    # ``apply`` run, for a command and a replayed log alike.  None: not declared yet (every option is held
    # to engine.bounds.LOOSE).
    args: dict[str, Bound] | None = None
    # A player who is not in the party may take this action (it seats them: a join, their own creation).
    joins: bool = False
    # A tool of the bot's host (the local table and tests) that decides what comes next: what it is, in words
    # (``host_only``, for the whole action) or per option (``host_options``: option -> words, when the option is
    # given).  An import from Discord refuses a log that holds one (commands/transfer.py).
    host_only: str = ""
    host_options: dict[str, str] = {}

    def check(self, state: Any, action: Action, ctx: Ctx) -> None:  # pragma: no cover - default
        return None

    def apply(self, state: Any, action: Action, ctx: Ctx) -> tuple[Any, list[Event]]:
        raise NotImplementedError


@dataclass
class Applied:
    state: Any
    events: list[Event]
    undoable: bool
    dice: list[int]


def subject(state: Any, action: Action) -> str:
    """Whose piece the action is for: the actor, or the player the leader acts for."""
    return action.on_behalf or action.actor


def absent_seats(state: Any) -> set[str]:
    """Members the table never pings, reminds or waits on: seated by an import and not yet accepting their seat
    (``unaccepted``), or leaving once the battle they are in is over (``leaving``).  The leader acts for them."""
    if state is None:
        return set()
    return {str(m) for m in (getattr(state, "unaccepted", None) or ())} | {
        str(m) for m in (getattr(state, "leaving", None) or ())}


def stand_in(state: Any, player: str | None) -> str | None:
    """Whom to ping or remind for ``player``: the leader in place of an absent seat (``absent_seats``)."""
    if player is not None and state is not None and str(player) in absent_seats(state):
        return state.leader
    return player


def check_args(handler: Handler, action: Action) -> None:
    """Every option of the action within the handler's declared bounds (``engine.bounds``), or ``RuleError``."""
    found = problems(handler.args, action.args)
    if found is not None:
        option, what = found
        if what == UNKNOWN:
            raise RuleError(f"{action.type} has no option `{option[:40]}`. Nothing was changed.")
        raise RuleError(f"The option `{option[:40]}` of {action.type} {what}. Nothing was changed.")


def host_tool(handler: Handler | None, args: dict[str, Any]) -> str:
    """What host's tool an action of ``handler`` with ``args`` uses (words), or ""."""
    if handler is None:
        return ""
    if handler.host_only:
        return handler.host_only
    for option, words in handler.host_options.items():
        if args.get(option) not in (None, "", [], {}, False):
            return words
    return ""


def check_permission(handler: Handler, state: Any, action: Action) -> None:
    """Who may take the action: the leader for the leader's actions; a party member for every action but one
    that seats its actor; the leader acting for a member of the party, never for anyone else."""
    if state is None:
        return
    if action.actor in (getattr(state, "leaving", None) or ()):
        raise RuleError("You have left this party: your seat is kept, played by the leader, only until the battle "
                        "you were in is over. Nothing was changed.")
    if handler.leader_only and action.actor != state.leader:
        raise RuleError("Only the party leader ({@leader}) can do that.", leader=state.leader)
    if action.on_behalf and action.on_behalf != action.actor:
        if action.actor != state.leader:
            raise RuleError(
                "You can only act for your own adventurer. The party leader can act for an absent player."
            )
        if action.on_behalf not in state.members:
            raise RuleError("{@player} is not in this party: the leader acts only for its members (they join "
                            "with /campaign join first).", player=action.on_behalf)
    elif handler.needs_campaign and not handler.joins and handler.args is not None and action.actor not in state.members:
        # (an action that declares its options declares who may take it too: ``joins``; one that declares
        # neither yet keeps its own checks until it does)
        raise RuleError("You are not in this party, so you can't do that. Join with /campaign join first.")


def keep_names(state: Any, action: Action) -> None:
    """The campaign keeps its members' display names (states that have a ``names`` mapping), as the action
    carries them: so posts and pictures name players after a restart, and replay rebuilds the same names."""
    names = getattr(state, "names", None)
    if not action.names or not isinstance(names, dict):
        return
    for user_id, name in action.names.items():
        clean = display_name(name)
        if clean and str(user_id) in state.members:
            names[str(user_id)] = clean


class ActionTable:
    """A ruleset's action types, and the one way to run them.

    ``ctx_factory(dice, now)`` builds the context handed to every handler; the
    state must offer ``clone()``, ``ended``, ``leader``, ``dice_counter`` and
    ``forced`` (see ``engine.rulesets.GameState``).
    """

    def __init__(self, ctx_factory: Callable[[Dice, float], Ctx] = Ctx):
        self.handlers: dict[str, Handler] = {}
        self.ctx_factory = ctx_factory
        self.turn_hooks: list[Callable[[Any], tuple[str, str] | None]] = []
        # run after every action's ``apply`` on its new state: (state, action) -> more events (the party's seats)
        self.after_hooks: list[Callable[[Any, Action], list[Event]]] = []

    def action(self, cls: type[Handler]) -> type[Handler]:
        if not cls.type or cls.type in self.handlers:
            raise RuntimeError(f"action type {cls.type!r} is empty or registered twice")
        self.handlers[cls.type] = cls()
        return cls

    def execute(self, state: Any, action: Action, dice: Dice, now: float | None = None) -> Applied:
        """Check and apply one action on a copy of ``state``.

        Raises ``RuleError`` (nothing changed) when the action is not allowed.
        """
        handler = self.handlers.get(action.type)
        if handler is None:
            raise RuleError(f"This campaign's game has no action `{str(action.type)[:40]}`, so nothing was done. "
                            "See /help for its commands.")
        check_args(handler, action)
        if handler.needs_campaign:
            if state is None:
                raise RuleError("This channel has no campaign yet. Start one with /campaign new.")
            if state.ended:
                raise RuleError("This campaign has ended. Start a new one with /campaign new.")
        work = state.clone() if state is not None else None
        ctx = self.ctx_factory(dice, time.time() if now is None else now)
        check_permission(handler, work, action)
        handler.check(work, action, ctx)
        new_state, events = handler.apply(work, action, ctx)
        for hook in self.after_hooks:
            events += hook(new_state, action)
        new_state.dice_counter = dice.counter
        new_state.forced = list(dice.forced)
        keep_names(new_state, action)
        if action.on_behalf and action.on_behalf != action.actor:
            events.insert(0, Event("acted-for", "{@leader} acts for {@player}.",
                                   {"leader": action.actor, "player": action.on_behalf}))
        return Applied(new_state, events, handler.undoable and not dice.rolled, list(dice.rolled))

    def whose_move(self, state: Any) -> tuple[str, str] | None:
        """(player id, turn key) of the player the table waits for, or None."""
        if state is None or state.ended:
            return None
        for hook in self.turn_hooks:
            found = hook(state)
            if found:
                return found
        return None


def dice_for(state: Any, forced: list[int] | None = None) -> Dice:
    """The campaign's dice, continuing its stored stream and forced queue."""
    if state is None:
        return Dice(0, 0, forced)
    queue = list(state.forced) if forced is None else list(forced)
    return Dice(state.seed, state.dice_counter, queue)
