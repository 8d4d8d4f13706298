"""The async campaign service: one action at a time per channel, persisted atomically.

``execute`` loads the channel's campaign, checks and applies one action under
the channel's lock, and commits the new state together with its log entry in
one SQLite transaction.  If anything fails before the commit, nothing is
written; if another process wrote the campaign meanwhile, the stale write is
refused and the player is asked to try again.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from engine import rulesets
from engine.actions import dice_for, stand_in
from engine.components import STALE_CAMPAIGN
from engine.present import as_plain
from engine.core import Action, Dice, Event, RuleError
from engine.prompts import deadline_sync
from engine.store import BIG_JSON, Busy, ChannelTaken, LogEntry, StaleWrite, Store

BUSY = ("The campaign's database is busy right now (another process of the bot is writing to it), so nothing was "
        "changed. Please try again in a moment.")


@dataclass
class Outcome:
    state: Any  # the ruleset's typed campaign state
    events: list[Event]
    seq: int
    action: Action
    dice: list[int] = field(default_factory=list)
    campaign_id: int = 0


def _reminded(state: Any, move: tuple[str, str] | None) -> tuple[str, str] | None:
    """Whom the turn's reminder goes to: the player whose move it is, or the leader in place of a seat an import
    gave that waits to be accepted (``engine.actions.stand_in``)."""
    return (stand_in(state, move[0]), move[1]) if move else None


class CampaignService:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock
        self._locks: dict[str, asyncio.Lock] = {}
        # small cache of (campaign id, version, state dict) per channel; always checked against the db version
        self._cache: OrderedDict[str, tuple[int, int, dict[str, Any]]] = OrderedDict()

    def lock(self, channel_id: str) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def campaign(self, channel_id: str) -> Any:
        """The channel's active campaign as its ruleset's typed state, or None."""
        stored = await self.store.load_active(str(channel_id))
        if stored is None:
            return None
        if stored.size > BIG_JSON:  # copying a big state into its typed form is kept off the event loop
            return await asyncio.to_thread(rulesets.load, stored.state)
        return rulesets.load(stored.state)

    async def campaign_id(self, channel_id: str) -> int | None:
        return await self.store.active_id(str(channel_id))

    async def current(self, channel_id: str) -> tuple[int | None, Any]:
        """(campaign id, typed state) of the channel's active campaign; (None, None) without one."""
        stored = await self.store.load_active(str(channel_id))
        if stored is None:
            return None, None
        if stored.size > BIG_JSON:
            return stored.id, await asyncio.to_thread(rulesets.load, stored.state)
        return stored.id, rulesets.load(stored.state)

    async def execute(self, channel_id: str, action: Action | Callable[[Any], Action], *,
                      campaign: int | None = None) -> Outcome:
        """Run one action.  ``action`` may be a function of the current state that returns it (an answer
        to a prompt, ``engine.prompts.answer``): it runs under the channel's lock, so it sees what the
        action will see; whatever it raises changes nothing.  ``campaign``: run it only while that campaign
        is the channel's (a button of a campaign that ended or was replaced changes nothing)."""
        channel_id = str(channel_id)
        async with self.lock(channel_id):
            stored = await self.store.load_active(channel_id)
            if campaign is not None and (stored.id if stored else None) != campaign:
                raise RuleError(STALE_CAMPAIGN)
            if callable(action):  # an action worked out from the state as it is under the lock
                action = action(rulesets.load(stored.state) if stored else None)
            if action.type == "undo":
                game = rulesets.for_action(stored.state if stored else None, action)
                state = await asyncio.to_thread(game.load, stored.state) if stored else None
                return await self._undo(channel_id, stored, state, action)
            # The rules, the state copies and the JSON run in a worker thread: a big state must not
            # hold up every other channel on the event loop.
            work = await asyncio.to_thread(_apply, stored, action, self.clock())
            applied = work.applied
            seq = await self.store.next_seq(stored.id) if stored else 1
            entry = LogEntry(
                seq=seq, at=work.at, actor=action.actor, on_behalf=action.on_behalf, type=action.type,
                action=action.to_dict(), dice=applied.dice, events=[e.to_dict() for e in applied.events],
                undoable=applied.undoable, undo_patch=work.undo,
            )
            campaign_id = await self._commit(channel_id, stored, work.old, applied.state, entry,
                                             state_json=work.state_json)
            return Outcome(applied.state, applied.events, seq, action, applied.dice, campaign_id)

    async def _commit(self, channel_id: str, stored, old: Any, new: Any, entry: LogEntry,
                      undo_of: int | None = None, state_json: str | None = None) -> int:
        reminder: Any = False
        game = rulesets.named(getattr(new, "ruleset", None))
        before = _reminded(old, game.whose_move(old)) if old is not None else None
        after = _reminded(new, game.whose_move(new))
        hours_changed = old is not None and old.settings.get("reminder_hours") != new.settings.get("reminder_hours")
        if before != after or stored is None or hours_changed:
            hours = int(new.settings.get("reminder_hours", 0) or 0)
            # a seat an import gave that waits to be accepted is never reminded: the leader, who acts for it, is;
            # repeated every ``hours`` until the player acts (engine.reminders.run_due)
            reminder = (after[1], after[0], self.clock() + hours * 3600, hours * 3600.0) if (after and hours > 0) \
                else None
        try:
            campaign_id, _version = await self.store.commit(
                campaign_id=stored.id if stored else None,
                channel_id=channel_id,
                guild_id=new.guild_id,
                expected_version=stored.version if stored else None,
                state=new.to_dict() if state_json is None else None,
                state_json=state_json,
                active=not new.ended,
                entry=entry,
                undo_of=undo_of,
                reminder=reminder,
                deadline=deadline_sync(old, new),  # the open prompt's deadline, in the same transaction
            )
        except StaleWrite:
            raise RuleError(
                "The campaign changed at the same moment (another bot process wrote it). Nothing was changed; "
                "please try again."
            ) from None
        except ChannelTaken:
            raise RuleError("This channel already has a campaign. Use `/campaign status` to see it.") from None
        except Busy:
            raise RuleError(BUSY) from None
        return campaign_id

    async def _undo(self, channel_id: str, stored, state: Any, action: Action) -> Outcome:
        if stored is None or state is None:
            raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
        if not action.args.get("confirm"):
            raise RuleError("Undo takes back the last action. Confirm with the button (or `confirm:yes`).")
        last, restored = await self._undo_target(stored, state, action.actor)
        game = rulesets.named(getattr(state, "ruleset", None))
        seq = last.seq + 1
        text, data = entry_line(last, game)
        events = [Event("undo", f"Undid action #{last.seq}: {text} It stays in the log.",
                        data | {"seq": last.seq, "type": last.type})]
        entry = LogEntry(seq=seq, at=self.clock(), actor=action.actor, on_behalf=None, type="undo",
                         action=action.to_dict() | {"args": {"seq": last.seq, "confirm": True}}, dice=[],
                         events=[e.to_dict() for e in events], undoable=False)
        campaign_id = await self._commit(channel_id, stored, state, restored, entry, undo_of=last.seq)
        return Outcome(restored, events, seq, action, [], campaign_id)

    async def _undo_target(self, stored, state: Any, actor: str) -> tuple[LogEntry, Any]:
        """The newest entry and the state before it, when ``actor`` may take it back now; else ``RuleError``
        naming why (it rolled dice, it revealed something, it is another player's)."""
        game = rulesets.named(getattr(state, "ruleset", None))
        if not game.rivals and actor != state.leader:
            raise RuleError("Only the party leader ({@leader}) can undo.", leader=state.leader)
        last = await self.store.last_entry(stored.id, with_state=True, light=True)
        if last is None or last.type == "undo" or last.undone_by is not None:
            raise RuleError("There is nothing to undo: the last action was already taken back.")
        if not last.undoable or (last.state_before is None and last.undo_patch is None):
            why = "it rolled dice" if last.dice else "it can't be taken back"
            text, data = entry_line(last, game)
            raise RuleError(f"The last action (#{last.seq}: {text}) can't be undone: {why}.", **people(data))
        if game.revealed is not None:  # the light read kept its first event only: the ruleset reads them all
            full = await self.store.log(stored.id, limit=1, with_state=True)
            if full and full[0].seq == last.seq:
                last = full[0]

        def rebuild() -> Any:
            before = last.state_before if last.undo_patch is None else apply_undo(stored.state, last.undo_patch)
            return rulesets.load(before)

        restored = await asyncio.to_thread(rebuild)
        refusal = undo_refusal(game, restored, state, last, actor)
        if refusal is not None:
            raise refusal
        return last, restored

    async def undo_check(self, channel_id: str, actor: str) -> LogEntry:
        """The newest entry, when ``actor`` may take it back with /undo now; else ``RuleError`` naming why.
        Nothing is changed (the confirmation button is offered only for an undo that would go ahead)."""
        stored = await self.store.load_active(str(channel_id))
        if stored is None:
            raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
        state = await asyncio.to_thread(rulesets.load, stored.state)
        last, _before = await self._undo_target(stored, state, actor)
        return last

    async def log(self, channel_id: str, limit: int = 10, before_seq: int | None = None) -> list[LogEntry]:
        """A page of the log for reading (``Store.log(light=True)``: its cost never grows with the log)."""
        cid = await self.store.active_id(str(channel_id))
        if cid is None:
            raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
        return await self.store.log(cid, limit=max(1, min(int(limit), 100)), before_seq=before_seq, light=True)

    async def log_count(self, channel_id: str) -> int:
        cid = await self.store.active_id(str(channel_id))
        if cid is None:
            raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
        return await self.store.log_count(cid)

    async def last_entry(self, channel_id: str) -> LogEntry | None:
        """The newest entry, for reading (light: no action options, its first event line)."""
        cid = await self.store.active_id(str(channel_id))
        return await self.store.last_entry(cid, light=True) if cid is not None else None

    async def acted_in_guild(self, user_ids: list[str], guild_id: str | None) -> set[str]:
        """Which of these players took an action of their own in a campaign of this server (``Store``)."""
        return await self.store.acted_in_guild(user_ids, guild_id)

    async def export_read(self, channel_id: str) -> tuple[Any, list]:
        """The stored campaign and its whole log as stored (``Store.export_read``: one consistent read, off the
        event loop and off the shared connection), for an export."""
        found = await self.store.export_read(str(channel_id))
        if found is None:
            raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
        return found

    async def snapshot(self, channel_id: str) -> tuple[Any, list[LogEntry]]:
        """The stored campaign and its full log, read as one consistent pair.

        The per-channel lock keeps this process's writes out; a write by another
        process in between is noticed by the version (one log entry per version)
        and the read is repeated.
        """
        channel_id = str(channel_id)
        async with self.lock(channel_id):
            for _ in range(5):
                stored = await self.store.load_active(channel_id)
                if stored is None:
                    raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
                entries = await self.store.log(stored.id)
                again = await self.store.load_active(channel_id)
                if again is not None and again.version == stored.version and len(entries) == stored.version:
                    return stored, entries
                await asyncio.sleep(0.05)
        raise RuleError("The campaign kept changing while it was being read; try `/campaign export` again.")

    async def check(self, channel_id: str, action: Action) -> None:
        """Would the rules take ``action`` now?  Raises their ``RuleError``; nothing is run for real or saved
        (a confirmation button is only offered for an action that would be allowed)."""
        stored = await self.store.load_active(str(channel_id))
        game = rulesets.for_action(stored.state if stored else None, action)
        state = game.load(stored.state) if stored else None
        game.execute(state, action, dice_for(state), self.clock())


def entry_line(entry: LogEntry, game: rulesets.Ruleset | None = None) -> tuple[str, dict[str, Any]]:
    """What a logged action did, in words (a template and its data, ending with a full stop): its first event's
    line (the leader's "acts for" line set aside), else its action's summary; never its internal type."""
    for e in entry.events or []:
        if e.get("kind") != "acted-for" and str(e.get("text") or "").strip():
            data = dict(e.get("data") or {})
            text = as_plain(str(e["text"]).strip(), data)  # a member's words (a reason) as plain text
            return (text if text[-1] in ".!?" else text + "."), data
    handler = game.actions.handlers.get(entry.type) if game is not None else None
    text = handler.summary if handler is not None and handler.summary else entry.type.replace(".", " ").replace("-", " ")
    return (text if text.endswith(".") else text + "."), {}


def people(data: dict[str, Any]) -> dict[str, str]:
    """The ``{@key}`` people of an event's data, for a RuleError that quotes its line."""
    return {k: str(v) for k, v in data.items() if isinstance(v, (str, int)) and not isinstance(v, bool)}


def entry_owner(game: rulesets.Ruleset, before: Any, entry: LogEntry) -> str:
    """Whose action a logged entry is: the player it was taken for, else its actor; a time-out (taken in the
    leader's name) is the action of the player whose question timed out."""
    prompt = game.open_prompt(before) if game.open_prompt is not None and before is not None else None
    if prompt is not None and getattr(prompt, "timeout_action", None) == entry.type and getattr(prompt, "owner", None):
        return str(prompt.owner)
    return str(entry.on_behalf or entry.actor)


def undo_refusal(game: rulesets.Ruleset, before: Any, after: Any, entry: LogEntry, actor: str) -> RuleError | None:
    """Why ``actor`` may not take back ``entry`` (the newest, from ``before`` to ``after``), or None: what it
    revealed stays revealed (the ruleset's ``revealed``), and where players are opponents only the player whose
    action it was takes it back.  The live /undo asks it, and so does a replayed log from the ruleset's
    ``undo_checked_from`` revision on."""
    text, data = entry_line(entry, game)
    if game.revealed is not None and before is not None:
        why = game.revealed(before, after, list(entry.events or []))
        if why:
            return RuleError(f"The last action (#{entry.seq}: {text}) can't be undone. {why}", **people(data))
    if game.rivals:
        owner = entry_owner(game, before, entry)
        if owner != str(actor):
            return RuleError("Only {@owner} can take back their own action " + f"(#{entry.seq}: {text[:-1]}).",
                             **(people(data) | {"owner": owner}))
    elif str(actor) != str(getattr(after, "leader", actor)):
        return RuleError("Only the party leader ({@leader}) can undo.", leader=after.leader)
    return None


class ReplayMismatch(Exception):
    """The log does not rebuild the stored campaign (a bug, or a tampered file)."""


@dataclass
class _Work:
    old: Any
    applied: Any
    at: float
    state_json: str
    undo: dict[str, Any] | None


def _apply(stored, action: Action, now: float) -> _Work:
    """One action on the stored campaign (runs in a worker thread): new state, its JSON, its undo data."""
    game = rulesets.for_action(stored.state if stored else None, action)
    old = game.load(stored.state) if stored else None
    applied = game.execute(old, action, dice_for(old), now)
    state_json = json.dumps(applied.state.to_dict(), separators=(",", ":"), sort_keys=True)
    undo = None
    if stored is not None and applied.undoable:
        undo = undo_patch(stored.state, json.loads(state_json))
    return _Work(old, applied, now, state_json, undo)


# ---------------------------------------------------------------- undo data --
# An undoable action stores how to turn the state it made back into the state before it: only the
# parts that changed (an undo only ever takes back the last action, so only the newest entry keeps
# this; the store drops it from the entry before).  A patch of a mapping is
#   {"d": {key: patch of that value}, "x": [keys the action added]}
# a list the action only appended to is {"n": its old length}; anything else is {"v": old value}.

def undo_patch(old: Any, new: Any) -> dict[str, Any]:
    """How to get ``old`` back from ``new`` (both plain JSON data)."""
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {k: undo_patch(v, new[k]) if k in new else {"v": v}
                   for k, v in old.items() if k not in new or new[k] != v}
        added = [k for k in new if k not in old]
        out: dict[str, Any] = {"d": changed}
        if added:
            out["x"] = added
        return out
    if isinstance(old, list) and isinstance(new, list) and len(new) >= len(old) and new[:len(old)] == old:
        return {"n": len(old)}
    return {"v": old}


def apply_undo(new: Any, patch: dict[str, Any]) -> Any:
    """The value ``undo_patch(old, new)`` was made from."""
    if "v" in patch:
        return patch["v"]
    if "n" in patch:
        return list(new[: patch["n"]])
    out = {k: v for k, v in new.items() if k not in set(patch.get("x") or ())}
    for k, sub in patch["d"].items():
        out[k] = apply_undo(new.get(k), sub)
    return out


# ------------------------------------------------------------------ replay --
class RecordedDice(Dice):
    """A replay's dice for a log exported without its seed: a result not forced is the one the entry recorded, and
    must fit the die the rules roll; the position in the stream is counted as in play."""

    def __init__(self, state: Any, recorded: list[int]):
        base = dice_for(state)
        super().__init__(base.seed, base.counter, base.forced)
        self.recorded = list(recorded)

    def _stream(self, sides: int) -> int:
        i = len(self.rolled)
        if i >= len(self.recorded):
            raise ReplayMismatch(f"an action rolls more dice on replay than the {len(self.recorded)} its entry records")
        value = self.recorded[i]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
            raise ReplayMismatch(f"an entry records {value!r} for a die of {sides} sides")
        self.counter += 1
        return value


def seedless(entries: list[Any]) -> bool:
    """Whether a log opens without its dice seed (an export leaves it out): it replays with the dice each entry
    recorded (``RecordedDice``)."""
    first = entries[0] if entries else None
    action = first.action if isinstance(first, LogEntry) else (first or {}).get("action")
    args = action.get("args") if isinstance(action, dict) else None
    return isinstance(args, dict) and "seed" not in args


def replay(entries: Iterable[LogEntry | dict[str, Any]], *, check: Callable[[Any, Any], None] | None = None,
           budget: Any = None, recorded: bool | None = None) -> Any:
    """Rebuild a campaign from its log alone.

    The state carries its dice seed, stream position and forced queue, so
    re-running each action from the rebuilt state reproduces its dice exactly;
    each action's recorded dice are checked against the re-run.  The crash and
    import tests compare the result with the stored state.

    Only two states are held at a time: the current one and the one before the
    last entry (all an undo can return to: it only ever takes back the entry
    just before it).  ``check(state, entry)``, if given, sees every state as it
    is built and may raise to stop (an import's bounds); ``budget`` (``engine.transfer.Budget``) is consulted
    at every die rolled and may stop the replay too.  ``recorded``: the log was exported without its seed, so
    each entry's dice are the ones it recorded (each within its die), not the seed's stream (None: so when the
    log opens without a seed, ``seedless``).
    """
    if recorded is None:
        entries = list(entries)
        recorded = seedless(entries)
    state: Any = None
    before_last: Any = None
    previous: LogEntry | None = None
    for raw in entries:
        fields = ("seq", "at", "actor", "on_behalf", "type", "action", "dice", "events")
        e = raw if isinstance(raw, LogEntry) else LogEntry(**dict((k, raw[k]) for k in fields))
        action = Action.from_dict(e.action)
        if e.type == "undo":
            target = int(action.args["seq"])
            if target != e.seq - 1 or before_last is None or previous is None:
                raise ReplayMismatch(f"undo #{e.seq} takes back #{target}, which is not the entry before it")
            game = rulesets.named(getattr(state, "ruleset", None))
            if game.undo_checked_from and int(getattr(state, "rules", 0) or 0) >= game.undo_checked_from:
                # a log of these rules never holds an undo they refuse (a roll, an action that can't be taken back,
                # what was revealed, another player's action)
                handler = game.actions.handlers.get(previous.type)
                if previous.dice or handler is None or not handler.undoable:
                    text, data = entry_line(previous, game)
                    why = "it rolled dice" if previous.dice else "it can't be taken back"
                    raise RuleError(f"The last action (#{previous.seq}: {text}) can't be undone: {why}.",
                                    **people(data))
                refusal = undo_refusal(game, before_last, state, previous, e.actor)
                if refusal is not None:
                    raise refusal
            state, before_last = before_last, None
        else:
            game = rulesets.for_action({"ruleset": state.ruleset} if state is not None else None, action)
            dice = RecordedDice(state, e.dice) if recorded else dice_for(state)
            dice.budget = budget
            applied = game.execute(state, action, dice, e.at)
            if applied.dice != list(e.dice):
                raise ReplayMismatch(f"action #{e.seq} rolled {applied.dice} on replay, the log says {e.dice}")
            before_last, state = state, applied.state
        previous = e
        if check is not None:
            check(state, e)
    return state
