"""The ruleset registry: the engine looks a campaign's game up here by name.

A ruleset is a package (``rulesets/<name>/``) that registers one ``Ruleset``
when it is imported.  The engine never imports a ruleset: the front doors
import the installed ones (``rulesets.load_all``), and the service finds the
one a campaign plays by the ``ruleset`` name its state records.

What a ruleset's state must offer the engine (``GameState``): ``channel_id``,
``guild_id``, ``name``, ``leader``, ``members``, ``settings`` (settings only),
``seed``, ``dice_counter``, ``forced``, ``ended``, ``ruleset``, ``pack``,
``pack_version``, ``schema``, ``rules`` (the rules revision it plays by), and ``to_dict`` / ``clone``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from engine.actions import ActionTable, Applied
from engine.core import Action, Dice, RuleError


class GameState(Protocol):
    channel_id: str
    guild_id: str | None
    name: str
    leader: str
    members: list[str]
    settings: dict[str, Any]
    seed: int
    dice_counter: int
    forced: list[int]
    ended: bool

    def to_dict(self) -> dict[str, Any]: ...

    def clone(self) -> "GameState": ...


@dataclass
class Ruleset:
    """One rule system: its name, how its state loads, and its actions.

    ``load(d)`` rebuilds the typed state from a saved dict (upgrading older
    shapes); ``actions`` is its ``ActionTable``; ``check_import(state)`` may
    refuse a state that no play of the rules could reach.
    """

    name: str
    title: str
    load: Callable[[dict[str, Any]], Any]
    actions: ActionTable
    schema: int = 1
    # States saved before campaigns recorded their ruleset were all of one game: that ruleset reads them.
    reads_unlabelled: bool = False
    description: str = ""
    # The ruleset's rules revision: a new campaign records it (``campaign.new``'s ``rules`` argument, set by the
    # command layer like the pack version) and keeps playing by it, so its log always replays the same way.  A
    # ruleset raises it when a change of its rules would make an old log play differently.
    rules: int = 1
    # The ruleset's presenter for the shared commands (see RulesetPresenter); set by its present package.
    present: Any = None
    # Import: a first look at a file's claimed state (the typed state, or RuleError), and whether its pack is here.
    check_state: Callable[[Any], Any] | None = None
    check_pack: Callable[[str], None] = lambda pack_id: None
    # The question the table waits on now (engine.prompts.Prompt), or None; its deadline is kept by the service.
    open_prompt: Callable[[Any], Any] | None = None
    # What the state keeps waiting that only the bot's host may set (the local table's tools that decide what comes
    # next, beyond forced dice: stacked cards), in words, or None.  An import from Discord refuses it.
    host_waiting: Callable[[Any], str | None] = lambda state: None
    # What decides later draws beside the dice (a deck still to be drawn, in order): ``hide_draws(state dict)`` is
    # a copy of it as an export shows it (no readable order), and ``redraw(state, dice)`` shuffles it afresh when an
    # import has drawn its new seed, naming what it shuffled ("the item decks").  None: the game keeps no such order.
    hide_draws: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    redraw: Callable[[Any, Dice], list[str]] | None = None
    # Why the campaign can't be exported now (e.g. the state holds hidden cards a player must not see), or None.
    export_refusal: Callable[[Any], str | None] | None = None
    # What an action revealed, so /undo never takes it back: ``revealed(before, after, events)`` (the typed states
    # before and after the logged action, its events as stored) gives a sentence naming it (a measurement, a card
    # or tile drawn, a hidden choice shown, a quest step read) and why it stays, or None.
    revealed: Callable[[Any, Any, list[dict[str, Any]]], str | None] | None = None
    # The players are opponents: an action is taken back only by the player whose action it was (the party
    # leader too takes back only their own); in a cooperative game the party leader takes back any.
    rivals: bool = False
    # The rules revision from which a replayed log (an import) is held to the same refusals as a live /undo;
    # 0: never (a log written before them replays as it was played).
    undo_checked_from: int = 0
    # The event kinds that name an outcome (damage, a defeat, a card drawn, a step revealed, XP gained), the
    # weightiest first: a log line's summary and a recap name every event of these kinds in that order
    # (engine.recap), so a line cut short still says who fell.
    outcomes: tuple[str, ...] = ()

    def execute(self, state: Any, action: Action, dice: Dice, now: float | None = None) -> Applied:
        return self.actions.execute(state, action, dice, now)

    def whose_move(self, state: Any) -> tuple[str, str] | None:
        return self.actions.whose_move(state)


class RulesetPresenter(Protocol):
    """What the shared campaign commands ask of a ruleset's presenter (every method optional).

    - ``packs() -> list[str]`` installed content packs of this ruleset; ``default_pack: str``
    - ``pack_version(pack_id) -> str`` the pack's content hash, recorded in ``campaign.new``
    - ``new_campaign_next() -> str`` what to do after ``/campaign new`` (a line of help)
    - ``async status(inv, state) -> Reply`` the ``/campaign status`` post
    - ``leave_note(state, who) -> str`` what leaving costs (for the confirmation)
    - ``async after(inv, outcome) -> Reply | None`` the post after an undo (e.g. the battle map again)
    - ``async autocomplete(inv, source, current) -> list[(name, value)]``
    - ``help_lines() -> str`` this ruleset's part of ``/help``
    - ``settings_lines(state) -> list[(name, text)]`` its own settings for ``/campaign settings``
    - ``members_by_name(state) -> dict[name, member]`` the names of the members' characters (adventurers,
      warbands), so a ``player:`` option typed at the local table may name a character instead of its player;
      ``character: str`` what such a character is called ("adventurer")
    - ``difficulties: tuple[str, ...]`` its difficulty levels (none: ``/campaign new difficulty:`` is refused, with
      ``settings_hint() -> str`` saying what sets the game's challenge instead)
    - ``recap_picture(state) -> Picture | None`` the picture a member's recap shows (else the status post's first)
    - ``named_dice() -> dict[word, {face: meaning}]`` dice ``/roll`` rolls by name in its channels (``unstable``)
    - ``dashboard(inv, state) -> engine.dashboard.Scene`` the dashboard's phase in words, its picture, and what the
      table waits for when it is nobody's move
    """


REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    if ruleset.name in REGISTRY and REGISTRY[ruleset.name] is not ruleset:
        raise RuntimeError(f"ruleset {ruleset.name!r} registered twice")
    if ruleset.reads_unlabelled and any(r.reads_unlabelled for r in REGISTRY.values() if r is not ruleset):
        raise RuntimeError("only one ruleset may read states saved before rulesets were recorded")
    REGISTRY[ruleset.name] = ruleset
    return ruleset


def named(name: str | None) -> Ruleset:
    """The ruleset called ``name``; ``None`` means the one that reads unlabelled (oldest) states."""
    if name is None:
        for r in REGISTRY.values():
            if r.reads_unlabelled:
                return r
        raise RuleError("This campaign was saved without a ruleset and no installed ruleset reads it.")
    found = REGISTRY.get(str(name))
    if found is None:
        installed = ", ".join(sorted(REGISTRY)) or "none"
        raise RuleError(f"This bot has no ruleset called {str(name)[:40]!r}. Installed: {installed}.")
    return found


def of_state(d: dict[str, Any] | None) -> Ruleset | None:
    """The ruleset a saved state plays (None for no state)."""
    if d is None:
        return None
    return named(d.get("ruleset"))


def for_action(state_dict: dict[str, Any] | None, action: Action) -> Ruleset:
    """Which ruleset runs ``action``: the campaign's, or for a new campaign the one it names."""
    if state_dict is not None and not state_dict.get("ended"):
        return named(state_dict.get("ruleset"))
    args = action.args or {}
    if action.type == "campaign.import" and isinstance(args.get("state"), dict):
        return named(args["state"].get("ruleset"))
    return named(args.get("ruleset")) if args.get("ruleset") else named(None)


def load(d: dict[str, Any] | None) -> Any:
    ruleset = of_state(d)
    return None if ruleset is None else ruleset.load(d)
