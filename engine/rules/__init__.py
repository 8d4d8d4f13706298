"""The rule book in code: every action type, checked then applied.

Each action type is a small class registered with ``@action``.  ``check`` reads
the state and raises ``RuleError`` with a message naming the fix; ``apply``
changes the (copied) state and returns events.  ``execute`` runs both on a
copy, so a refused action never changes the campaign.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from engine.core import Action, Dice, Event, RuleError
from engine.state import Campaign


@dataclass
class Ctx:
    """What an action may use besides the state: its dice, the clock, the content pack."""

    dice: Dice
    now: float
    _pack: Any = None

    def pack_for(self, state: Campaign):
        if self._pack is None:
            from engine.content import load_pack

            self._pack = load_pack(state.pack)
        return self._pack


class Handler:
    """One action type.  Subclasses set the class attributes and the two steps."""

    type: str = ""
    needs_campaign: bool = True  # refuse in a channel with no campaign
    leader_only: bool = False
    undoable: bool = True  # may /undo take it back (only if it rolled no dice as well)
    summary: str = ""  # one line for /help and the log

    def check(self, state: Campaign | None, action: Action, ctx: Ctx) -> None:  # pragma: no cover - default
        return None

    def apply(self, state: Campaign | None, action: Action, ctx: Ctx) -> tuple[Campaign, list[Event]]:
        raise NotImplementedError


HANDLERS: dict[str, Handler] = {}


def action(cls: type[Handler]) -> type[Handler]:
    if not cls.type or cls.type in HANDLERS:
        raise RuntimeError(f"action type {cls.type!r} is empty or registered twice")
    HANDLERS[cls.type] = cls()
    return cls


@dataclass
class Applied:
    state: Campaign
    events: list[Event]
    undoable: bool
    dice: list[int]


def subject(state: Campaign, action: Action) -> str:
    """Whose adventurer the action is for: the actor, or the player the leader acts for."""
    return action.on_behalf or action.actor


def check_permission(handler: Handler, state: Campaign | None, action: Action) -> None:
    if state is None:
        return
    if handler.leader_only and action.actor != state.leader:
        raise RuleError(f"Only the party leader (<@{state.leader}>) can do that.")
    if action.on_behalf and action.on_behalf != action.actor and action.actor != state.leader:
        raise RuleError(
            "You can only act for your own adventurer. The party leader can act for an absent player."
        )


def execute(state: Campaign | None, action: Action, dice: Dice, now: float | None = None) -> Applied:
    """Check and apply one action on a copy of ``state``.

    Raises ``RuleError`` (nothing changed) when the action is not allowed.
    """
    handler = HANDLERS.get(action.type)
    if handler is None:
        raise RuleError(f"Unknown action `{action.type}`.")
    if handler.needs_campaign:
        if state is None:
            raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
        if state.ended:
            raise RuleError("This campaign has ended. Start a new one with `/campaign new`.")
    work = state.clone() if state is not None else None
    ctx = Ctx(dice=dice, now=time.time() if now is None else now)
    check_permission(handler, work, action)
    handler.check(work, action, ctx)
    new_state, events = handler.apply(work, action, ctx)
    new_state.dice_counter = dice.counter
    new_state.forced = list(dice.forced)
    if action.on_behalf and action.on_behalf != action.actor:
        events.insert(0, Event("acted-for", f"<@{action.actor}> acts for <@{action.on_behalf}>.",
                               {"leader": action.actor, "player": action.on_behalf}))
    return Applied(new_state, events, handler.undoable and not dice.rolled, list(dice.rolled))


def dice_for(state: Campaign | None, forced: list[int] | None = None) -> Dice:
    """The campaign's dice, continuing its stored stream and forced queue."""
    if state is None:
        return Dice(0, 0, forced)
    queue = list(state.forced) if forced is None else list(forced)
    return Dice(state.seed, state.dice_counter, queue)


def whose_move(state: Campaign | None) -> tuple[str, str] | None:
    """(player id, turn key) of the player the table waits for, or None.

    Outside battle no single player is waited on.  The battle engine registers
    a hook here so turn reminders follow its turn order.
    """
    if state is None or state.ended:
        return None
    for hook in TURN_HOOKS:
        found = hook(state)
        if found:
            return found
    return None


TURN_HOOKS: list[Callable[[Campaign], tuple[str, str] | None]] = []


# Register the action modules (import for their side effect of registering).
from engine.rules import campaign as _campaign  # noqa: E402,F401
from engine.rules import adventurer as _adventurer  # noqa: E402,F401
from engine.rules import transfer as _transfer  # noqa: E402,F401
from engine.rules import battle as _battle  # noqa: E402,F401
from engine.rules import guide as _guide  # noqa: E402,F401
from engine.rules import lockpick as _lockpick  # noqa: E402,F401
from engine.rules import battle_prompts as _battle_prompts  # noqa: E402,F401
from engine.rules import adjust as _adjust  # noqa: E402,F401
