"""Moving a campaign between channels (or bots): the ``campaign.import`` action every ruleset shares.

An export file (see ``commands/transfer.py``) holds the campaign's state and its
full action log.  Importing it opens the campaign in a channel that has none, as
one action that carries the file's log in ``args["history"]`` (and the state the
file claims in ``args["state"]``).

The state in a file is never taken as it is: the action rebuilds the campaign by
replaying the file's log through the rules from its ``campaign.new`` (a log that
begins with an earlier import replays that import's history first), and refuses
the file unless the result equals the file's state, compared by value.  So an
imported campaign is one the rules could have reached, with the dice its log
rolled.  Replaying the new channel's log re-runs this action and gets the same
campaign again.

A ruleset installs the action on its table with ``install_import_action`` and
gives its own first look at a claimed state (``check_state``).
"""
from __future__ import annotations

import json
import math
import re
import threading
import time
from typing import Any, Callable

from engine import rulesets
from engine.actions import ActionTable, Handler
from engine.bounds import Data, Flag, Int, Player, Players
from engine.core import Event, RuleError
from engine.text import clean_name, count

# A player is named by their Discord id (digits) or, at the local table, a short name.
PLAYER_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}")
PACK_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
MAX_STATE_JSON = 1024 * 1024  # bytes of one campaign state; a long real campaign stays far below
MAX_FORCED = 1000  # forced die results waiting in a state (the local table's /force)
CHECK_EVERY = 100  # entries between two size checks of the state being replayed
# The replay's work budget: seconds of processor time the worker thread may spend replaying one file (the
# largest honest file takes about a minute on a small server), and die results one entry may roll (the file
# check refuses an entry that recorded more, so an entry rolling more is a runaway).
REPLAY_SECONDS = 150.0
DICE_PER_ENTRY = 500


class ReplayStopped(Exception):
    """The replay ran out of its budget or the bot is stopping (not a ``RuleError``: no rule may catch it)."""


class Budget:
    """How much work one import's replay may do.  Consulted after every entry and at every die, so a file
    that would keep the bot busy is refused (and the import gate freed) instead of running on; a bot that
    stops cancels every running budget, so no replay outlives it."""

    def __init__(self, seconds: float | None = None, dice: int | None = None) -> None:
        self.seconds = REPLAY_SECONDS if seconds is None else seconds
        self.dice = DICE_PER_ENTRY if dice is None else dice
        self.started = time.thread_time()
        self.cancelled = False

    def spent(self) -> float:
        return time.thread_time() - self.started

    def check(self, where: str = "") -> None:
        if self.cancelled:
            raise ReplayStopped("The bot is stopping, so the import was not finished; nothing was changed. "
                                "Import the file again once the bot is back.")
        if self.spent() > self.seconds:
            raise ReplayStopped(f"Replaying the file's log{where} takes more work than this bot gives one import "
                                f"({self.seconds:.0f} s of processor time), so it was not imported; nothing was "
                                "changed. A campaign exported by Hexpost replays far faster.")

    def roll(self, rolled: int) -> None:
        if rolled >= self.dice:
            raise ReplayStopped(f"An action of the file's log rolls more than {count(self.dice, 'die')} on replay, which "
                                "no action does, so the file was not imported; nothing was changed.")
        if rolled % 50 == 49:
            self.check()


_ACTIVE = threading.local()  # the budget of the import this thread is replaying (nested imports share it)
_RUNNING: set[Budget] = set()
_RUNNING_LOCK = threading.Lock()


def cancel_imports() -> int:
    """Stop every import replaying now (the bot is closing); returns how many were running."""
    with _RUNNING_LOCK:
        for budget in _RUNNING:
            budget.cancelled = True
        return len(_RUNNING)


def _fail(problem: str) -> RuleError:
    return RuleError(f"{problem} Use the file exactly as `/campaign export` made it.")


def check_party(camp: Any) -> Any:
    """The checks every ruleset's claimed state gets: names as typed in a command, ids, a consistent party."""
    if not isinstance(camp.name, str):
        raise RuleError("The file's campaign state has a broken campaign name; export it again.")
    clean_name(camp.name, "campaign", max_len=60)
    for who in [camp.leader, *camp.members]:
        if not isinstance(who, str) or not PLAYER_ID.fullmatch(who):
            raise RuleError("The file's campaign state names a player by a broken id; export it again.")
    if camp.leader not in camp.members:
        raise RuleError("The file's campaign state is inconsistent: its leader is not in the party.")
    if len(set(camp.members)) != len(camp.members):
        raise RuleError("The file's campaign state is inconsistent: a player is in the party twice.")
    if camp.ended:
        raise RuleError("That campaign has ended; only a running campaign can be imported.")
    return camp


def load_claimed(data: Any, load: Callable[[dict], Any], schema: int) -> Any:
    """A first, cheap look at a file's state: a JSON object of a schema this bot knows, that loads."""
    if not isinstance(data, dict):
        raise RuleError("The file's `state` is not a campaign (it should be a JSON object).")
    version = data.get("schema", 1)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RuleError("The file's campaign state has a broken `schema` number; export the campaign again.")
    if version > schema:
        raise RuleError(
            f"This campaign was saved by a newer Hexpost (state schema {version}; this bot knows up to {schema}). "
            "Ask the bot's host to update it, then import again."
        )
    if version < 1:
        raise RuleError(f"The file's campaign state has schema {version}, which no Hexpost ever wrote.")
    try:
        return load(data)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise RuleError(f"The file's campaign state can't be read ({type(exc).__name__}); export it again.") from None


def _bounded(state: Any, entry: Any) -> None:
    """Stop a replay whose campaign grows past what a real one ever holds, or whose work runs out."""
    budget = getattr(_ACTIVE, "budget", None)
    if budget is not None:
        budget.check(f" (by action #{entry.seq})")
    if state is None:
        return
    if len(state.forced) > MAX_FORCED:
        raise _fail(f"Action #{entry.seq} of the file's log leaves more than {MAX_FORCED} forced die results waiting.")
    if entry.seq % CHECK_EVERY == 0:
        size = len(json.dumps(state.to_dict(), separators=(",", ":")))
        if size > MAX_STATE_JSON:
            raise _fail(f"The file's campaign grows past {MAX_STATE_JSON // 1024} KB by action #{entry.seq}.")


# What an export leaves out of a campaign state: the dice's seed and position, from which every later roll can be
# computed (an import draws a fresh seed anyway).  A ruleset hides what else decides later draws
# (``Ruleset.hide_draws``: a deck still to be drawn, in no readable order).
DICE_KEYS = ("seed", "dice_counter")


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """A campaign state as an export shows it: no seed, no dice position, no deck order still to be drawn."""
    out = {k: v for k, v in state.items() if k not in DICE_KEYS}
    game = rulesets.of_state(state)
    return game.hide_draws(out) if game is not None and game.hide_draws is not None else out


def public_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log's opening entry as an export shows it: ``campaign.new`` without its seed; ``campaign.import`` without
    the seed its bot drew, its claimed state shown as ``public_state`` and its earlier log opened the same way."""
    action = entry.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("args"), dict):
        return entry
    args = {k: v for k, v in action["args"].items() if k != "seed"}
    if action.get("type") == "campaign.import":
        if isinstance(args.get("state"), dict):
            args["state"] = public_state(args["state"])
        history = args.get("history")
        if isinstance(history, list) and history and isinstance(history[0], dict):
            args["history"] = [public_entry(history[0]), *history[1:]]
    return dict(entry, action=dict(action, args=args))


def rebuild(history: Any) -> Any:
    """The campaign a file's log builds, replayed through the rules; ``RuleError`` if it does not replay.  A log
    exported without its seed replays with the dice each entry recorded."""
    from engine.service import ReplayMismatch, replay, seedless

    if not isinstance(history, list) or not history:
        raise _fail("The file has no action log.")
    outer = getattr(_ACTIVE, "budget", None)
    budget = outer or Budget()
    if outer is None:
        _ACTIVE.budget = budget
        with _RUNNING_LOCK:
            _RUNNING.add(budget)
    try:
        camp = replay(history, check=_bounded, budget=budget, recorded=seedless(history))
    except ReplayStopped as exc:
        if outer is not None:
            raise  # an earlier import's history inside the file: the outermost import answers
        raise RuleError(str(exc)) from None
    except ReplayMismatch as exc:
        raise _fail(f"The file's log does not replay the same dice on this bot ({exc}).") from None
    except RuleError as exc:
        raise RuleError(f"The file's log does not replay on this bot: {exc.template} "
                        "Use the file exactly as `/campaign export` made it.", **exc.people) from None
    except RecursionError:
        raise _fail("The file's log nests too deeply to replay.") from None
    except Exception as exc:  # noqa: BLE001 - a hand-made file can break an action in any way
        raise _fail(f"The file's log does not replay on this bot ({type(exc).__name__}).") from None
    finally:
        if outer is None:
            _ACTIVE.budget = None
            with _RUNNING_LOCK:
                _RUNNING.discard(budget)
    if camp is None:
        raise _fail("The file's log does not open a campaign.")
    if not math.isfinite(float(camp.dice_counter)):
        raise _fail("The file's log leaves the dice broken.")
    return camp



def _seating(camp, others: list[str]) -> list[Event]:
    """Whom an import seats (``unproven`` recorded): those already playing on this server, and those whose seats
    wait to be accepted."""
    events = []
    waiting = [m for m in others if m in camp.unaccepted]
    playing = [m for m in others if m not in camp.unaccepted]
    if playing:
        who = ", ".join(f"{{@p{i}}}" for i in range(len(playing)))
        events.append(Event("seated", f"Seated as the file's log shows each joining by their own command: {who}.",
                            {f"p{i}": m for i, m in enumerate(playing)}))
    if waiting:
        who = ", ".join(f"{{@w{i}}}" for i in range(len(waiting)))
        events.append(Event("seat-waiting", f"Seated as the file's log shows, each seat waiting to be accepted: {who} "
                                            "(they have never played on this server). Until each accepts (the "
                                            "button below, or any action of their own) the bot does not ping or "
                                            "remind them, and the leader acts for them; each may leave at any "
                                            "moment with /campaign leave, in a battle too.",
                            {f"w{i}": m for i, m in enumerate(waiting)}))
    return events


def _same_campaign(claimed: dict[str, Any], loaded: Any, camp: Any, comparable=None) -> bool:
    """Whether the file's state is the rebuilt campaign, compared by value: all of it, or for a file exported
    without its seed (``public_state``) all that the export shows.  ``comparable`` (the ruleset's) may take out of
    both what the file's own version never wrote (a field a later schema added, which the replay fills in)."""
    if "seed" in claimed:
        mine, theirs = loaded.to_dict(), camp.to_dict()
    else:
        mine, theirs = public_state(loaded.to_dict()), public_state(camp.to_dict())
    if comparable is not None and mine != theirs:
        mine, theirs = comparable(mine, theirs, claimed)
    return mine == theirs


def _fresh_words(camp: Any, shuffled: list[str]) -> str:
    """What an import says of the dice and draws to come (nothing of the file decides them but the host's tools)."""
    text = "The dice start afresh with a new seed drawn by this bot"
    if shuffled:
        text += f", and the decks still to be drawn ({', '.join(shuffled)}) are shuffled with it"
    kept = [count(len(camp.forced), "forced die result")] if camp.forced else []
    game = rulesets.named(camp.ruleset)
    waiting = game.host_waiting(camp)
    if waiting:
        kept.append(waiting)
    if not kept:
        return text + ": nothing in the file decides the rolls or draws to come."
    return (text + f". Only the host's tools the file carried still come first: {' and '.join(kept)} (the local "
            "table imports them; a file from Discord can't carry them).")


def install_import_action(table: ActionTable, check_state: Callable[[Any], Any],
                          comparable: Callable[[dict, dict, Any], tuple[dict, dict]] | None = None) -> None:
    """Register ``campaign.import`` on a ruleset's table; ``check_state`` is its first look at a claimed state.

    ``comparable(claimed, replayed, raw)`` may take out of both dicts what the file's own version never wrote (a
    field a later schema added, which the replay fills in): the rest must be equal for the import to go ahead.
    """

    @table.action
    class Import(Handler):
        type = "campaign.import"
        needs_campaign = False
        undoable = False
        # the file's state and log are checked by the import itself (commands/transfer.py, then the replay)
        # redraw: the decks still to be drawn are shuffled afresh with the new seed (imports from 2026-11-28 on)
        args = {"channel_id": Player(), "guild_id": Player(), "state": Data(), "history": Data(),
                "source": Data(100), "seed": Int(0, 2**63), "redraw": Flag(),
                # the members the file seats who had never acted on the importing server (recorded by the command
                # layer): their seats wait to be accepted (engine.party); imports before it seated everyone at once
                "unproven": Players()}
        summary = "Open a campaign from an export file (its leader, in a channel with no campaign)."

        def check(self, state, action, ctx):
            if state is not None and not state.ended:
                raise RuleError(
                    f"This channel already has a campaign, {state.name}. Import into a channel without one "
                    "(or ask its leader to `/campaign end` it first)."
                )
            if not action.args.get("channel_id"):
                raise RuleError("The import names no channel to open the campaign in.")
            claimed = action.args.get("state")
            if claimed is not None:
                camp = check_state(claimed)
                if action.actor != camp.leader:  # a first look; the rebuilt campaign's leader decides
                    raise RuleError("Only the campaign's party leader ({@leader}) can import it. "
                                    "Ask them to run `/campaign import` with the file.", leader=camp.leader)

        def apply(self, state, action, ctx):
            a = action.args
            camp = rebuild(a.get("history"))
            if camp.ended:
                raise RuleError("That campaign has ended; only a running campaign can be imported.")
            if a.get("state") is not None and not _same_campaign(a["state"], check_state(a["state"]), camp,
                                                                 comparable):
                raise RuleError("The file's state does not match its log (the file was changed or damaged), so it was "
                                "not imported. Export the campaign again and import that file unchanged.")
            if action.actor != camp.leader:
                raise RuleError("Only the campaign's party leader ({@leader}) can import it. "
                                "Ask them to run `/campaign import` with the file.", leader=camp.leader)
            old_channel = camp.channel_id
            camp.channel_id = str(a["channel_id"])
            camp.guild_id = str(a["guild_id"]) if a.get("guild_id") else None
            reseeded = a.get("seed") is not None
            if reseeded:
                # A fresh seed the importing bot drew (recorded here, so this entry replays the same): the file
                # chose its own seed, and whoever wrote it could have picked one that rolls what they want.
                camp.seed, camp.dice_counter = int(a["seed"]), 0
            # ``execute`` stores ctx.dice's position as the campaign's: its seed, stream and forced queue
            ctx.dice.seed = camp.seed
            ctx.dice.counter = camp.dice_counter
            redraw = bool(a.get("redraw"))
            shuffled: list[str] = []
            if redraw:
                # the decks still to be drawn are shuffled with the new seed (the file's order, readable in its log,
                # decides nothing); the host's forced dice wait for the game, not for this shuffle
                ctx.dice.forced[:] = []
                game = rulesets.named(camp.ruleset)
                shuffled = game.redraw(camp, ctx.dice) if game.redraw is not None else []
            ctx.dice.forced[:] = list(camp.forced)
            history = a["history"]
            source = a.get("source") if isinstance(a.get("source"), dict) else {}
            first, last = history[0].get("seq"), history[-1].get("seq")
            earlier = f"{len(history)} earlier actions (#{first}–#{last}) are kept with this entry"
            exported = f", exported {source['exported_at']}" if source.get("exported_at") else ""
            text = (f"Campaign {camp.name} imported from channel {old_channel}{exported}; {earlier}. "
                    "{@leader} leads the party.")
            events = [Event("campaign-imported", text, {"from_channel": old_channel, "earlier_actions": len(history),
                                                        "leader": camp.leader})]
            others = [m for m in camp.members if m != camp.leader]
            if "unproven" in a:  # every seat an import gives to someone new on this server waits to be accepted
                unproven = {str(m) for m in a.get("unproven") or ()}
                gone = set(camp.leaving)  # left in the file's battle: their seat goes when it is over
                camp.unaccepted = [m for m in others if m in unproven and m not in gone]
                events += _seating(camp, [m for m in others if m not in gone])
            elif others:
                who = ", ".join(f"{{@p{i}}}" for i in range(len(others)))
                events.append(Event("seated", f"Seated as the file's log shows each joining by their own command: "
                                              f"{who}. Anyone who never played it leaves with /campaign leave.",
                                    {f"p{i}": m for i, m in enumerate(others)}))
            if reseeded and redraw:
                events.append(Event("reseeded", _fresh_words(camp, shuffled), {"shuffled": shuffled}))
            elif reseeded:
                events.append(Event("reseeded", "The dice start afresh with a new seed drawn by this bot: no file "
                                                "decides the rolls to come.", {}))
            return camp, events
