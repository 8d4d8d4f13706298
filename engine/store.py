"""The only module that talks to SQLite.

A narrow interface: load a channel's active campaign, commit a new state
together with its log entry (and the turn reminder) in one transaction, read
the log, and manage reminders.  Another database could stand behind the same
methods when one machine is not enough.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

import asyncio

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
BIG_JSON = 64 * 1024  # JSON text longer than this is parsed in a worker thread, off the event loop
PIECE = 512 * 1024  # bytes of a long text read or written at once (``Store.export_read``)


# A write that finds the database busy (another process writing, or a read of this connection still open on
# an older snapshot) is tried again with growing pauses for up to this many seconds; then ``Busy``.
BUSY_SECONDS = 10.0


class Busy(Exception):
    """The database stayed busy (another process kept writing) past ``BUSY_SECONDS``; nothing was written."""


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` is the database being busy (locked by another writer), not a fault."""
    if isinstance(exc, Busy):
        return True
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


class StaleWrite(Exception):
    """The campaign changed since it was loaded (another process wrote it)."""


class ChannelTaken(Exception):
    """The channel already has an active campaign."""


@dataclass
class StoredCampaign:
    id: int
    channel_id: str
    version: int
    state: dict[str, Any]
    active: bool
    size: int = 0  # characters of the state's JSON as stored


@dataclass
class LogEntry:
    seq: int
    at: float
    actor: str
    on_behalf: str | None
    type: str
    action: dict[str, Any]
    dice: list[int]
    events: list[dict[str, Any]]
    undoable: bool = False
    undone_by: int | None = None
    state_before: dict[str, Any] | None = None  # a whole state (entries written before undo patches)
    undo_patch: dict[str, Any] | None = None  # how to undo it (engine.service.undo_patch); newest entry only

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at": self.at,
            "actor": self.actor,
            "on_behalf": self.on_behalf,
            "type": self.type,
            "action": self.action,
            "dice": self.dice,
            "events": self.events,
            "undoable": self.undoable,
            "undone_by": self.undone_by,
        }


@dataclass
class Reminder:
    campaign_id: int
    turn_key: str
    user_id: str
    channel_id: str
    due_at: float
    every: float | None = None  # seconds between posts until the player acts (None: once)


@dataclass
class MemberPrefs:
    """A member's nudge settings (``/me``): all of them optional."""

    user_id: str
    timezone: str | None = None  # IANA name; None: UTC
    quiet_start: int | None = None  # local hours [start, end) when nothing reaches them
    quiet_end: int | None = None
    away_until: float | None = None  # unix time they are back


def _migration_files() -> list[tuple[int, Path]]:
    out = []
    for p in sorted(MIGRATIONS_DIR.glob("*.sql")):
        num = p.name.split("_", 1)[0]
        if num.isdigit():
            out.append((int(num), p))
    out.sort()
    numbers = [n for n, _ in out]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError("two migration files share a number in migrations/")
    return out


class Store:
    def __init__(self, db: aiosqlite.Connection, path: str):
        self._db = db
        self.path = path
        # One connection: transactions from different channels must not interleave on it.
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=10000")
        store = cls(db, path)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self._db.close()

    # ---- migrations ------------------------------------------------------
    async def migrate(self) -> list[int]:
        """Apply every migration not yet recorded, in order, each in one transaction.

        Returns the numbers applied now (empty when the database was current).
        """
        applied_now: list[int] = []
        async with self._write:
            await self._db.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
            )
            for number, path in _migration_files():
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    cur = await self._db.execute("SELECT 1 FROM schema_version WHERE version = ?", (number,))
                    if await cur.fetchone():
                        await self._db.execute("ROLLBACK")
                        continue
                    for statement in _split_sql(path.read_text()):
                        await self._db.execute(statement)
                    await self._db.execute(
                        "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (number, time.time())
                    )
                    await self._db.execute("COMMIT")
                    applied_now.append(number)
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    raise
        return applied_now

    async def _rows(self, sql: str, params: tuple | list = ()) -> list[Any]:
        """Every row of a read, fetched in one step: no statement of it stays open on the shared connection
        (an open read would keep an old snapshot, and a write of another channel could not begin)."""
        return list(await self._db.execute_fetchall(sql, params))

    async def _retry_busy(self, attempt):
        """Run ``attempt()`` (one write, whole), again after a growing pause while the database is busy."""
        deadline = time.monotonic() + BUSY_SECONDS
        pause = 0.02
        while True:
            try:
                return await attempt()
            except (sqlite3.OperationalError, aiosqlite.OperationalError) as exc:
                if not is_busy(exc):
                    raise
                if time.monotonic() + pause > deadline:
                    raise Busy(str(exc)) from exc
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.5)

    async def schema_versions(self) -> list[int]:
        return [r[0] for r in await self._rows("SELECT version FROM schema_version ORDER BY version")]

    # ---- campaigns -------------------------------------------------------
    async def load_active(self, channel_id: str) -> StoredCampaign | None:
        rows = await self._rows(
            "SELECT id, channel_id, version, state, active FROM campaigns WHERE channel_id = ? AND active = 1",
            (str(channel_id),),
        )
        if not rows:
            return None
        row = rows[0]
        text = row["state"]
        state = json.loads(text) if len(text) < BIG_JSON else await asyncio.to_thread(json.loads, text)
        return StoredCampaign(row["id"], row["channel_id"], row["version"], state, bool(row["active"]), len(text))

    async def active_id(self, channel_id: str) -> int | None:
        """The id of the channel's active campaign (its state is not read)."""
        rows = await self._rows("SELECT id FROM campaigns WHERE channel_id = ? AND active = 1", (str(channel_id),))
        return rows[0][0] if rows else None

    async def active_campaigns(self) -> list[tuple[int, str]]:
        return [(r[0], r[1]) for r in await self._rows("SELECT id, channel_id FROM campaigns WHERE active = 1 ORDER BY id")]

    async def commit(
        self,
        *,
        campaign_id: int | None,
        channel_id: str,
        guild_id: str | None,
        expected_version: int | None,
        state: dict[str, Any] | None,
        active: bool,
        entry: LogEntry,
        state_json: str | None = None,
        undo_of: int | None = None,
        reminder: tuple[str, str, float] | None | bool = False,
        deadline: tuple[str, str, str, float] | None | bool = False,
    ) -> tuple[int, int]:
        """Write the new state and its log entry atomically.

        ``campaign_id`` None creates the campaign.  ``expected_version`` must match
        the stored version or ``StaleWrite`` is raised and nothing is written.
        ``reminder``: False leaves reminders alone; None cancels the campaign's
        unsent reminders; ``(turn_key, user_id, due_at)`` replaces them with one.
        ``deadline`` (the open prompt's, ``engine.prompts.deadline_sync``): False leaves
        deadlines alone; None drops the unfired ones; ``(key, kind, user_id, due_at)``
        keeps only that one (added if new; an existing one keeps its time).
        Returns (campaign_id, new_version).
        """
        now = time.time()
        # the JSON of a big state or log entry is built in a worker thread, never on the event loop
        state_json, row = await asyncio.to_thread(_encode, state, state_json, entry)
        new_id = campaign_id

        async def attempt() -> tuple[int, int]:
            campaign_id = new_id
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                if campaign_id is None:
                    try:
                        cur = await self._db.execute(
                            "INSERT INTO campaigns (channel_id, guild_id, active, state, version, created_at, updated_at)"
                            " VALUES (?, ?, ?, ?, 1, ?, ?)",
                            (str(channel_id), guild_id, int(active), state_json, now, now),
                        )
                    except aiosqlite.IntegrityError as exc:
                        raise ChannelTaken(str(channel_id)) from exc
                    campaign_id = cur.lastrowid
                    version = 1
                else:
                    cur = await self._db.execute(
                        "UPDATE campaigns SET state = ?, version = version + 1, active = ?, updated_at = ?"
                        " WHERE id = ? AND version = ?",
                        (state_json, int(active), now, campaign_id, expected_version),
                    )
                    if cur.rowcount != 1:
                        raise StaleWrite(str(channel_id))
                    version = int(expected_version or 0) + 1
                # An undo only ever takes back the newest entry: undo data of older entries is never used again.
                await self._db.execute(
                    "UPDATE action_log SET state_before = NULL, undo_patch = NULL WHERE campaign_id = ? AND seq < ?"
                    " AND (state_before IS NOT NULL OR undo_patch IS NOT NULL)",
                    (campaign_id, entry.seq),
                )
                await self._db.execute(
                    "INSERT INTO action_log (campaign_id, seq, at, actor, on_behalf, type, action, dice, events,"
                    " state_before, undo_patch, undoable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (campaign_id, *row),
                )
                if undo_of is not None:
                    await self._db.execute(
                        "UPDATE action_log SET undone_by = ?, state_before = NULL, undo_patch = NULL"
                        " WHERE campaign_id = ? AND seq = ?",
                        (entry.seq, campaign_id, undo_of),
                    )
                if reminder is not False:
                    await self._db.execute(
                        "DELETE FROM reminders WHERE campaign_id = ? AND sent_at IS NULL", (campaign_id,)
                    )
                    if reminder:
                        key, user, due, *repeat = reminder
                        await self._db.execute(
                            "INSERT OR IGNORE INTO reminders (campaign_id, turn_key, user_id, channel_id, due_at,"
                            " every) VALUES (?, ?, ?, ?, ?, ?)",
                            (campaign_id, key, user, str(channel_id), due, repeat[0] if repeat else None),
                        )
                if deadline is not False:
                    await self._db.execute(
                        "DELETE FROM deadlines WHERE campaign_id = ? AND fired_at IS NULL AND key != ?",
                        (campaign_id, deadline[0] if deadline else ""),
                    )
                    if deadline:
                        key, kind, user, due = deadline
                        await self._db.execute(
                            "INSERT OR IGNORE INTO deadlines (campaign_id, key, kind, channel_id, user_id, due_at,"
                            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (campaign_id, key, kind, str(channel_id), user, due, now),
                        )
                await self._db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.OperationalError):  # a BEGIN that failed left nothing open
                    await self._db.execute("ROLLBACK")
                raise
            return campaign_id, version

        async with self._write:
            return await self._retry_busy(attempt)

    # ---- the log ---------------------------------------------------------
    async def next_seq(self, campaign_id: int) -> int:
        rows = await self._rows("SELECT COALESCE(MAX(seq), 0) + 1 FROM action_log WHERE campaign_id = ?", (campaign_id,))
        return rows[0][0]

    async def log(self, campaign_id: int, *, limit: int | None = None, before_seq: int | None = None,
                  with_state: bool = False, light: bool = False) -> list[LogEntry]:
        """Log entries, newest last.  ``limit`` keeps the newest ``limit`` of them.

        ``light``: what a reader needs, at a cost that does not grow with the campaign's age: each entry without
        its action's options (``action`` is ``{}``: an import's entry carries the whole earlier log there) and
        with its first event line only (picked out by SQLite, in its own thread)."""
        action = "'{}'" if light else "action"
        events = ("CASE WHEN json_extract(events, '$[0]') IS NULL THEN '[]' "
                  "ELSE json_array(json_extract(events, '$[0]')) END") if light else "events"
        sql = (f"SELECT seq, at, actor, on_behalf, type, {action}, dice, {events}, undoable, undone_by"
               + (", state_before, undo_patch" if with_state else "")
               + " FROM action_log WHERE campaign_id = ?")
        params: list[Any] = [campaign_id]
        if before_seq is not None:
            sql += " AND seq < ?"
            params.append(before_seq)
        sql += " ORDER BY seq DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        rows = [tuple(r) for r in await self._rows(sql, params)]
        if len(rows) > 64 or sum(len(r[5]) for r in rows) > BIG_JSON:  # a long log is parsed off the event loop
            return await asyncio.to_thread(_entries, rows, with_state)
        return _entries(rows, with_state)

    async def log_events(self, campaign_id: int, *, limit: int, before_seq: int | None = None,
                         after_seq: int | None = None) -> list[LogEntry]:
        """The newest ``limit`` entries (between ``after_seq`` and ``before_seq``), oldest first, with all their
        events and without their action's options (a log page's summaries and a recap read them)."""
        sql = ("SELECT seq, at, actor, on_behalf, type, '{}', dice, events, undoable, undone_by"
               " FROM action_log WHERE campaign_id = ?")
        params: list[Any] = [campaign_id]
        if before_seq is not None:
            sql += " AND seq < ?"
            params.append(before_seq)
        if after_seq is not None:
            sql += " AND seq > ?"
            params.append(after_seq)
        sql += " ORDER BY seq DESC LIMIT ?"
        params.append(limit)
        rows = [tuple(r) for r in await self._rows(sql, params)]
        if sum(len(r[7]) for r in rows) > BIG_JSON:
            return await asyncio.to_thread(_entries, rows, False)
        return _entries(rows, False)

    async def last_seq_of(self, campaign_id: int, member: str, before_seq: int | None = None) -> int | None:
        """The seq of ``member``'s newest action (theirs, or the leader's for them) before ``before_seq``."""
        rows = await self._rows(
            "SELECT MAX(seq) FROM action_log WHERE campaign_id = ? AND (actor = ? OR on_behalf = ?) AND seq < ?",
            (campaign_id, str(member), str(member), before_seq if before_seq is not None else 1 << 62))
        return rows[0][0] if rows else None

    async def active_in_guild(self, guild_id: str) -> list[tuple[int, str, float, dict[str, Any]]]:
        """(id, channel id, last change, state) of every active campaign of a guild, least recently changed first."""
        rows = await self._rows(
            "SELECT id, channel_id, updated_at, state FROM campaigns WHERE active = 1 AND guild_id = ?"
            " ORDER BY updated_at, id", (str(guild_id),))
        return [(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    # ---- members' own settings (the daily digest) -----------------------
    async def set_digest(self, guild_id: str, user_id: str, digest: str, next_at: float | None) -> None:
        await self._write_one(
            "INSERT INTO member_settings (guild_id, user_id, digest, next_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET digest = excluded.digest, next_at = excluded.next_at",
            (str(guild_id), str(user_id), digest, next_at))

    async def digest_of(self, guild_id: str, user_id: str) -> tuple[str, float | None]:
        rows = await self._rows("SELECT digest, next_at FROM member_settings WHERE guild_id = ? AND user_id = ?",
                                (str(guild_id), str(user_id)))
        return (rows[0][0], rows[0][1]) if rows else ("off", None)

    async def due_digests(self, now: float) -> list[tuple[str, str, float]]:
        """(guild id, user id, due time) of every daily digest due at ``now``."""
        rows = await self._rows("SELECT guild_id, user_id, next_at FROM member_settings"
                                " WHERE digest = 'daily' AND next_at IS NOT NULL AND next_at <= ? ORDER BY next_at",
                                (now,))
        return [(r[0], r[1], r[2]) for r in rows]

    async def claim_digest(self, guild_id: str, user_id: str, due: float, next_at: float) -> bool:
        """Move a due digest on to ``next_at`` unless someone else did: True when this caller sends it."""
        changed = await self._write_one(
            "UPDATE member_settings SET next_at = ? WHERE guild_id = ? AND user_id = ? AND next_at = ?"
            " AND digest = 'daily'", (next_at, str(guild_id), str(user_id), due))
        return changed == 1

    async def last_entry(self, campaign_id: int, *, with_state: bool = False, light: bool = False) -> LogEntry | None:
        entries = await self.log(campaign_id, limit=1, with_state=with_state, light=light)
        return entries[0] if entries else None

    async def log_count(self, campaign_id: int) -> int:
        rows = await self._rows("SELECT COUNT(*) FROM action_log WHERE campaign_id = ?", (campaign_id,))
        return rows[0][0]

    async def acted_in_guild(self, user_ids: list[str], guild_id: str | None) -> set[str]:
        """Which of ``user_ids`` took an action of their own (not the leader for them) in any campaign of this
        server, ended ones too.  Read once per import: whom an import's seats may trust at once."""
        if not user_ids:
            return set()
        marks = ",".join("?" for _ in user_ids)
        rows = await self._rows(
            f"SELECT DISTINCT l.actor FROM action_log l JOIN campaigns c ON c.id = l.campaign_id "
            f"WHERE l.actor IN ({marks}) AND c.guild_id IS ? AND (l.on_behalf IS NULL OR l.on_behalf = l.actor)",
            (*[str(u) for u in user_ids], guild_id))
        return {str(r[0]) for r in rows}

    async def export_read(self, channel_id: str) -> tuple[StoredCampaign, list[tuple]] | None:
        """The channel's active campaign and its whole log, read as one consistent pair for an export, in a
        worker thread on a connection of its own (the bot's shared connection and the event loop stay free):
        (stored campaign, rows) or None.  Each row is (seq, at, actor, on_behalf, type, action, dice, events,
        undoable, undone_by) with its JSON columns as stored, the action as a list of pieces: its text, or for a
        long one (an import's entry holds a whole earlier log) UTF-8 pieces of at most ``PIECE`` bytes."""
        if self.path == ":memory:":  # no second connection to an in-memory database: read it here
            stored = await self.load_active(channel_id)
            if stored is None:
                return None
            entries = await self.log(stored.id)
            rows = [(e.seq, e.at, e.actor, e.on_behalf, e.type, [dumps(e.action)], json.dumps(e.dice),
                     dumps(e.events), e.undoable, e.undone_by) for e in entries]
            return stored, rows
        return await asyncio.to_thread(_export_read, self.path, str(channel_id))

    # ---- reminders -------------------------------------------------------
    async def due_reminders(self, now: float) -> list[Reminder]:
        rows = await self._rows(
            "SELECT r.campaign_id, r.turn_key, r.user_id, r.channel_id, r.due_at, r.every FROM reminders r"
            " JOIN campaigns c ON c.id = r.campaign_id"
            " WHERE r.sent_at IS NULL AND r.due_at <= ? AND c.active = 1 ORDER BY r.due_at",
            (now,),
        )
        return [Reminder(*tuple(r)) for r in rows]

    async def _write_one(self, sql: str, params: tuple) -> int:
        """One write statement on its own (retried while the database is busy); how many rows it changed."""
        async def attempt() -> int:
            cur = await self._db.execute(sql, params)
            return cur.rowcount

        async with self._write:
            return await self._retry_busy(attempt)

    async def claim_reminder(self, campaign_id: int, turn_key: str, now: float) -> bool:
        """Mark a reminder sent; True only for the one caller that claimed it (never sent twice)."""
        return await self._write_one(
            "UPDATE reminders SET sent_at = ? WHERE campaign_id = ? AND turn_key = ? AND sent_at IS NULL",
            (now, campaign_id, turn_key)) == 1

    async def claim_repeat(self, campaign_id: int, turn_key: str, due_at: float, next_due: float) -> bool:
        """Claim one post of a repeating reminder: move it from ``due_at`` to ``next_due``.  True only for the
        one caller that moved it (a second loop finds the time changed, so each post is made once)."""
        return await self._write_one(
            "UPDATE reminders SET due_at = ?, sends = sends + 1 WHERE campaign_id = ? AND turn_key = ?"
            " AND sent_at IS NULL AND due_at = ?", (next_due, campaign_id, turn_key, due_at)) == 1

    async def postpone_reminder(self, campaign_id: int, turn_key: str, due_at: float, until: float) -> bool:
        """Hold an unsent reminder due at ``due_at`` until ``until`` (quiet hours, away); nothing is sent."""
        return await self._write_one(
            "UPDATE reminders SET due_at = ? WHERE campaign_id = ? AND turn_key = ? AND sent_at IS NULL"
            " AND due_at = ?", (until, campaign_id, turn_key, due_at)) == 1

    async def snooze_reminder(self, campaign_id: int, turn_key: str, user_id: str, until: float) -> bool:
        """Send this turn's reminder (sent already or not) again at ``until``; False when there is none."""
        return await self._write_one(
            "UPDATE reminders SET due_at = ?, sent_at = NULL WHERE campaign_id = ? AND turn_key = ?"
            " AND user_id = ?", (until, campaign_id, turn_key, str(user_id))) == 1

    # ---- member settings (migrations/005_member_prefs.sql) -------------------
    async def member_prefs(self, user_id: str) -> "MemberPrefs":
        rows = await self._rows(
            "SELECT user_id, timezone, quiet_start, quiet_end, away_until FROM member_prefs WHERE user_id = ?",
            (str(user_id),))
        return MemberPrefs(*tuple(rows[0])) if rows else MemberPrefs(str(user_id))

    async def set_member_prefs(self, prefs: "MemberPrefs", now: float) -> None:
        await self._write_one(
            "INSERT INTO member_prefs (user_id, timezone, quiet_start, quiet_end, away_until, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET timezone = excluded.timezone,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
            " away_until = excluded.away_until, updated_at = excluded.updated_at",
            (str(prefs.user_id), prefs.timezone, prefs.quiet_start, prefs.quiet_end, prefs.away_until, now))

    async def pending_reminders(self, campaign_id: int) -> list[Reminder]:
        rows = await self._rows(
            "SELECT campaign_id, turn_key, user_id, channel_id, due_at, every FROM reminders"
            " WHERE campaign_id = ? AND sent_at IS NULL",
            (campaign_id,),
        )
        return [Reminder(*tuple(r)) for r in rows]


    # ---- deadlines (migrations/002_deadlines.sql) --------------------------
    async def add_deadline(self, campaign_id: int, key: str, kind: str, channel_id: str, user_id: str | None,
                           due_at: float, now: float | None = None) -> bool:
        """Schedule a deadline once: True if it is new; an existing one (fired or not) keeps its time."""
        return await self._write_one(
            "INSERT OR IGNORE INTO deadlines (campaign_id, key, kind, channel_id, user_id, due_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (campaign_id, key, kind, str(channel_id), user_id, due_at, time.time() if now is None else now)) == 1

    async def due_deadlines(self, now: float) -> list["Deadline"]:
        """Unfired deadlines due at ``now`` in active campaigns, oldest first."""
        rows = await self._rows(
            "SELECT d.campaign_id, d.key, d.kind, d.channel_id, d.user_id, d.due_at FROM deadlines d"
            " JOIN campaigns c ON c.id = d.campaign_id"
            " WHERE d.fired_at IS NULL AND d.due_at <= ? AND c.active = 1 ORDER BY d.due_at",
            (now,),
        )
        return [Deadline(*tuple(r)) for r in rows]

    async def claim_deadline(self, campaign_id: int, key: str, now: float) -> bool:
        """Mark a deadline fired; True only for the one caller that marked it."""
        return await self._write_one(
            "UPDATE deadlines SET fired_at = ? WHERE campaign_id = ? AND key = ? AND fired_at IS NULL",
            (now, campaign_id, key)) == 1

    async def cancel_deadlines(self, campaign_id: int, kind: str, keep: str | None = None) -> int:
        """Drop the campaign's unfired deadlines of ``kind`` (all but ``keep``); returns how many."""
        return await self._write_one(
            "DELETE FROM deadlines WHERE campaign_id = ? AND kind = ? AND fired_at IS NULL AND key != ?",
            (campaign_id, kind, keep or ""))

    async def pending_deadlines(self, campaign_id: int) -> list["Deadline"]:
        rows = await self._rows(
            "SELECT campaign_id, key, kind, channel_id, user_id, due_at FROM deadlines"
            " WHERE campaign_id = ? AND fired_at IS NULL ORDER BY due_at",
            (campaign_id,),
        )
        return [Deadline(*tuple(r)) for r in rows]


    # ---- dashboards (migrations/004_dashboards.sql) -----------------------
    async def dashboard(self, campaign_id: int) -> "DashboardRow | None":
        """The campaign's dashboard post and whose move it showed, or None before its first one."""
        rows = await self._rows(
            "SELECT campaign_id, channel_id, message_id, turn_key, since FROM dashboards WHERE campaign_id = ?",
            (campaign_id,))
        return DashboardRow(*tuple(rows[0])) if rows else None

    async def save_dashboard(self, campaign_id: int, channel_id: str, *, turn_key: str | None,
                             since: float | None) -> None:
        """Record whose move the dashboard shows (its turn key) and since when that move began."""
        await self._write_one(
            "INSERT INTO dashboards (campaign_id, channel_id, turn_key, since, updated_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(campaign_id) DO UPDATE SET turn_key = excluded.turn_key, since = excluded.since,"
            " updated_at = excluded.updated_at",
            (campaign_id, str(channel_id), turn_key, since, time.time()))

    async def dashboard_posted(self, campaign_id: int, message_id: str) -> None:
        """Keep the id of the campaign's dashboard post (a new one, or one posted again after it was deleted)."""
        await self._write_one("UPDATE dashboards SET message_id = ?, updated_at = ? WHERE campaign_id = ?",
                              (str(message_id), time.time(), campaign_id))

    async def load_campaign(self, campaign_id: int) -> StoredCampaign | None:
        """A campaign by its id, active or ended (the dashboard's last edit shows a campaign that ended)."""
        rows = await self._rows("SELECT id, channel_id, version, state, active FROM campaigns WHERE id = ?",
                                (campaign_id,))
        if not rows:
            return None
        row = rows[0]
        text = row["state"]
        state = json.loads(text) if len(text) < BIG_JSON else await asyncio.to_thread(json.loads, text)
        return StoredCampaign(row["id"], row["channel_id"], row["version"], state, bool(row["active"]), len(text))


@dataclass
class DashboardRow:
    campaign_id: int
    channel_id: str
    message_id: str | None
    turn_key: str | None
    since: float | None

@dataclass
class Deadline:
    campaign_id: int
    key: str
    kind: str
    channel_id: str
    user_id: str | None
    due_at: float


def _entries(rows: list[tuple], with_state: bool) -> list[LogEntry]:
    """Log rows (newest first, columns as ``Store.log`` selects them) as entries, oldest first."""
    out = [
        LogEntry(
            seq=r[0], at=r[1], actor=r[2], on_behalf=r[3], type=r[4],
            action=json.loads(r[5]), dice=json.loads(r[6]), events=json.loads(r[7]),
            undoable=bool(r[8]), undone_by=r[9],
            state_before=(json.loads(r[10]) if with_state and r[10] else None),
            undo_patch=(json.loads(r[11]) if with_state and r[11] else None),
        )
        for r in rows
    ]
    out.reverse()
    return out


def _export_read(path: str, channel_id: str) -> tuple[StoredCampaign, list[tuple]] | None:
    """``Store.export_read`` in a worker thread: one read transaction, so the state and its log match."""
    con = sqlite3.connect(path, timeout=BUSY_SECONDS)
    try:
        con.execute("BEGIN")
        found = con.execute("SELECT id, channel_id, version, state, active FROM campaigns"
                            " WHERE channel_id = ? AND active = 1", (channel_id,)).fetchone()
        if found is None:
            return None
        cid, channel, version, text, active = found
        stored = StoredCampaign(cid, channel, version, json.loads(text), bool(active), len(text))
        rows = []
        query = con.execute(
            "SELECT id, seq, at, actor, on_behalf, type,"
            " CASE WHEN length(CAST(action AS BLOB)) > ? THEN NULL ELSE action END, dice, events, undoable,"
            " undone_by FROM action_log WHERE campaign_id = ? ORDER BY seq", (PIECE, cid))
        for rowid, seq, at, actor, on_behalf, kind, action, dice, events, undoable, undone_by in query.fetchall():
            if action is not None:
                pieces = [action]
            else:
                with con.blobopen("action_log", "action", rowid, readonly=True) as blob:
                    pieces = []
                    while piece := blob.read(PIECE):
                        pieces.append(piece)
            rows.append((seq, at, actor, on_behalf, kind, pieces, dice, events, undoable, undone_by))
        return stored, rows
    finally:
        con.close()


def dumps(value: Any, *, sort_keys: bool = False, _depth: int = 0) -> str:
    """Compact JSON, as ``json.dumps`` writes it, built in pieces.

    One ``json.dumps`` call on a big log holds the interpreter lock until it is done, so the event loop
    stalls even when the call runs in a worker thread; pieces let the loop run in between.
    """
    if _depth < 4 and isinstance(value, (list, tuple)) and len(value) > 16:
        return "[" + ",".join(dumps(v, sort_keys=sort_keys, _depth=_depth + 1) for v in value) + "]"
    if _depth < 4 and isinstance(value, dict) and all(isinstance(k, str) for k in value):
        keys = sorted(value) if sort_keys else list(value)
        return "{" + ",".join(json.dumps(k) + ":" + dumps(value[k], sort_keys=sort_keys, _depth=_depth + 1)
                              for k in keys) + "}"
    return json.dumps(value, separators=(",", ":"), sort_keys=sort_keys)


def _encode(state: dict[str, Any] | None, state_json: str | None, entry: LogEntry) -> tuple[str, tuple]:
    """The JSON text of a commit: the state (unless given) and the log row's values."""
    if state_json is None:
        state_json = json.dumps(state, separators=(",", ":"), sort_keys=True)
    row = (
        entry.seq,
        entry.at,
        entry.actor,
        entry.on_behalf,
        entry.type,
        dumps(entry.action),
        json.dumps(entry.dice),
        dumps(entry.events),
        json.dumps(entry.state_before, separators=(",", ":")) if entry.state_before is not None else None,
        json.dumps(entry.undo_patch, separators=(",", ":")) if entry.undo_patch is not None else None,
        int(entry.undoable),
    )
    return state_json, row


def _split_sql(text: str) -> list[str]:
    """Split a migration file into statements, with SQLite's own notion of a complete statement."""
    statements, buffer = [], ""
    for line in text.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(ln.strip().startswith("--") or not ln.strip() for ln in buffer.splitlines()):
        raise RuntimeError("a migration file ends with an unfinished statement")
    return statements
