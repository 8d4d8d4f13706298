"""``/campaign export`` and ``/campaign import``: a campaign as one JSON file.

The export file (JSON, gzip-compressed as ``.json.gz`` once it is large)::

    {"format": "hexpost-campaign", "format_version": 1, "schema": <state schema>,
     "exported_at": "2025-01-31T18:00:00Z", "exported_by": "<user id>",
     "campaign": {"name", "channel_id", "guild_id", "pack", "version", "actions"},
     "state": {...the campaign state...},
     "log": [{"seq", "at", "actor", "on_behalf", "type", "action", "dice", "events",
              "undoable", "undone_by"}, ...]}

Import never trusts the file's state.  Before any heavy work it checks the file's
size, unpacks at most ``MAX_JSON_BYTES``, and walks the JSON once against bounds
no real campaign meets (nesting, list and text lengths, finite numbers in range);
then the shape of every log entry (nested histories of earlier imports included),
that each text is what a command would have accepted, that every content pack is
one installed here, and that a file from Discord holds no entry only the bot's
host may make (forced dice).  Then one ``campaign.import`` action rebuilds the
campaign by replaying the log through the rules and compares it with the file's
state by value (see ``rulesets/tes/rules/transfer.py``).  One import runs at a
time on a bot; the work runs in worker threads, off the event loop.

An export leaves out what decides later rolls and draws (``engine.transfer.public_state``): the dice's seed and
position, and deck orders still to be drawn; the import replays a log without its seed with the dice each entry
recorded, draws a fresh seed and shuffles those decks with it.  Only the party leader exports and only the
campaign's leader imports.

How the file arrives: in Discord the cog reads the attachment's bytes and hands
them over with ``attach``; the ``file`` option then only names the file.  At
the offline local table ``file:`` is a path on the host's disk, and the file is
trusted like the host's own commands (forced dice, a pack folder by path).
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import gzip
import json
import math
import random
import re
import time
import zlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from engine.commands import Invocation, Opt, clip_echo, command
from commands.campaign import events_text
from engine.commands import MAX_OPTION_TEXT
from engine.components import make_id, on_click
from engine.reply import COLOR_OK, Button, Embed, FileOut, Reply
from engine.actions import host_tool
from engine.core import RuleError
from engine.store import dumps
from engine import rulesets
from engine.transfer import PACK_ID, PLAYER_ID, public_entry, public_state
from engine.text import count


def _ruleset_of(state: Any) -> rulesets.Ruleset:
    """The ruleset a file's state plays (a state saved before rulesets were recorded plays the oldest game)."""
    name = state.get("ruleset") if isinstance(state, dict) else None
    if name is not None and not isinstance(name, str):
        raise RuleError("The file's campaign state names its game in a broken way; export it again.")
    return rulesets.named(name)


def check_state(state: Any) -> Any:
    """The file's state as its ruleset reads it (a first look; the log is replayed and compared later)."""
    game = _ruleset_of(state)
    if game.check_state is None:
        raise RuleError(f"Campaigns of {game.title} can't be imported on this bot yet.")
    return game.check_state(state)

FORMAT = "hexpost-campaign"
FORMAT_VERSION = 1

# ---- limits: far above any real campaign, far below what hurts the bot -----------------------------
MAX_IMPORT_BYTES = 8 * 1024 * 1024  # the file as attached (a 10,000-action campaign is about 1 MB gzipped)
MAX_JSON_BYTES = 48 * 1024 * 1024  # its JSON once unpacked
MAX_LOG_ENTRIES = 20_000  # log entries, the histories of earlier imports included
MAX_IMPORT_NESTING = 8  # a campaign imported, exported and imported again ... this many times
MAX_DEPTH = 40  # nesting of JSON objects and lists
MAX_LIST = 20_000  # items in one JSON list or keys in one object
MAX_TEXT = 4_000  # characters in one JSON string (an event line, a battle note)
MAX_NODES = 6_000_000  # values in the whole file
MAX_NUMBER = 2**63  # numbers beyond +-this are refused (and every number must be finite)
# A gzip file unpacks to at most this many times its size (a real export packs 4 to 30 times; a gzip bomb
# about 1,000), and never past MAX_JSON_BYTES; small files may always unpack to UNPACK_FLOOR.
MAX_PACK_RATIO = 200
UNPACK_FLOOR = 2 * 1024 * 1024
# Objects and lists in the JSON, counted in its bytes before it is parsed (a real campaign of 20,000 actions
# holds about 600,000; parsing millions of empty ones costs gigabytes).
MAX_CONTAINERS = 2_000_000
MAX_DICE_PER_ENTRY = 500  # die results one action rolled
ATTACH_LIMIT = 10 * 1024 * 1024  # Discord refuses bigger attachments from a bot
COMPRESS_FROM = 256 * 1024  # exports bigger than this as JSON go out gzipped
# Entries only the bot's host may make (the local table's /force): refused in a file from Discord.
HOST_ONLY = {"dice.force": "forced dice (`/force`, a local-table and test tool)"}
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")

ENTRY_KEYS: dict[str, tuple[type, ...]] = {
    "seq": (int,),
    "at": (int, float),
    "actor": (str,),
    "type": (str,),
    "action": (dict,),
    "dice": (list,),
    "events": (list,),
}


# ------------------------------------------------------------------ export --
def export_filename(name: str, compressed: bool = False) -> str:
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "campaign"
    return f"campaign-{stem[:60]}.json" + (".gz" if compressed else "")


async def snapshot(inv: Invocation) -> tuple[Any, list]:
    """The stored campaign and its full log, read as one consistent pair (``CampaignService.snapshot``)."""
    return await inv.service.snapshot(inv.channel_id)


def build_export(stored, entries, exported_by: str, now: float | None = None) -> dict[str, Any]:
    state = stored.state
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema": state.get("schema"),
        "ruleset": state.get("ruleset"),
        "exported_at": datetime.fromtimestamp(time.time() if now is None else now, timezone.utc)
        .strftime("%Y-%m-%dT%H:%M:%SZ"),
        "exported_by": exported_by,
        "campaign": {
            "name": state.get("name"),
            "channel_id": stored.channel_id,
            "guild_id": state.get("guild_id"),
            "pack": state.get("pack"),
            "version": stored.version,
            "actions": len(entries),
        },
        "state": public_state(state),  # no seed, no dice position, no deck order still to be drawn
        "log": [public_entry(e.to_dict()) if i == 0 else e.to_dict() for i, e in enumerate(entries)],
    }


def encode_export(doc: dict[str, Any]) -> tuple[bytes, bool]:
    """The file's bytes (compact JSON, gzipped when large) and whether they are gzipped."""
    data = dumps(doc, sort_keys=True).encode("utf-8")
    if len(data) <= COMPRESS_FROM:
        return data, False
    return gzip.compress(data, compresslevel=6, mtime=0), True


def _opening_action(pieces: list) -> list:
    """The log's first action as an export writes it (``public_entry``: no seed; an import's claimed state and
    earlier log opened the same way), as pieces again.  Only this entry is parsed: no other holds a seed."""
    text = "".join(p.decode("utf-8") if isinstance(p, bytes) else p for p in pieces)
    action = json.loads(text)
    shown = public_entry({"action": action})["action"]
    if shown == action:
        return pieces
    out = dumps(shown)
    return [out.encode("utf-8")] if len(out) > 4096 else [out]


def _row_json(r: tuple, first: bool = False) -> list[str]:
    """One stored log row (``Store.export_read``) as an export's log entry, in pieces: its JSON columns written out
    as stored (the action as the store's pieces of it; the first entry's without its seed)."""
    seq, at, actor, on_behalf, kind, action, dice, events, undoable, undone_by = r
    if first:
        action = _opening_action(action)
    return [f'{{"seq":{int(seq)},"at":{json.dumps(at)},"actor":{json.dumps(actor)},'
            f'"on_behalf":{json.dumps(on_behalf)},"type":{json.dumps(kind)},"action":', *action,
            f',"dice":{dice},"events":{events},"undoable":{"true" if undoable else "false"},'
            f'"undone_by":{json.dumps(undone_by)}}}']  # the action: bytes as stored, the rest text


def export_from_text(stored, rows: list[tuple], exported_by: str, now: float | None = None) -> tuple[bytes, bool]:
    """The export file's bytes from the stored state and the log's rows as text (for a worker thread).

    The log's JSON is never parsed, only written out, piece by piece (no step copies more than about half a
    megabyte at once, so the event loop gets the interpreter between steps): an export's cost is copying, not
    reading, its history."""
    head = build_export(stored, [], exported_by, now)
    head["campaign"]["actions"] = len(rows)
    del head["log"]
    chunks: list[bytes] = [(json.dumps(head, separators=(",", ":"), sort_keys=True)[:-1] + ',"log":[').encode()]
    small: list[str] = []

    def flush() -> None:
        if small:
            chunks.append("".join(small).encode("utf-8"))
            small.clear()

    size = 0
    for i, r in enumerate(rows):
        for piece in ([","] if i else []) + _row_json(r, first=i == 0):
            if isinstance(piece, bytes):  # a piece of an action as stored
                flush()
                chunks.append(piece)
            elif len(piece) > 4096:
                flush()
                chunks.append(piece.encode("utf-8"))
            else:
                small.append(piece)
                size += len(piece)
                if size > 256 * 1024:
                    flush()
                    size = 0
    small.append("]}")
    flush()
    total = sum(len(c) for c in chunks)
    if total <= COMPRESS_FROM:
        return b"".join(chunks), False
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # gzip, as gzip.compress(mtime=0) writes it
    out = [packer.compress(c) for c in chunks]
    chunks.clear()
    out.append(packer.flush())
    return b"".join(out), True


def _encode_and_free(doc: dict[str, Any]) -> tuple[bytes, bool]:
    """``encode_export`` for a worker thread; the document is emptied there (freed off the event loop)."""
    try:
        return encode_export(doc)
    finally:
        doc.clear()


@command("campaign export", "Download this campaign (state and full log) as a JSON file (party leader).")
async def campaign_export(inv: Invocation) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
    if inv.user_id != state.leader:
        raise RuleError(
            "Only the party leader ({@leader}) can export the campaign. "
            "Everyone can read the history with `/campaign log`.", leader=state.leader
        )
    game = rulesets.named(getattr(state, "ruleset", None))
    refusal = game.export_refusal(state) if game.export_refusal is not None else None
    if refusal:  # the file would show something a player must not see yet (hidden cards)
        raise RuleError(refusal)
    stored, rows = await inv.service.export_read(inv.channel_id)
    actions = len(rows)
    data, compressed = await asyncio.to_thread(export_from_text, stored, rows, inv.user_id)
    del rows[:]
    name = stored.state.get("name", "campaign")
    size = f"{len(data) / 2**20:.1f} MB" if len(data) >= 2**20 else f"{max(1, len(data) // 1024)} KB"
    if len(data) > ATTACH_LIMIT:
        raise RuleError(
            f"The export of {name} is {size} ({count(actions, 'action')}), more than Discord lets a bot attach "
            f"({ATTACH_LIMIT // 2**20} MB), so no file was sent and nothing was changed. The bot's host can "
            "export it at the local table (`/campaign export` there writes the file to disk)."
        )
    how = "gzip-compressed JSON; import it as it is" if compressed else "JSON"
    return Reply(
        content=(f"**{name}**: the state and {'the one action' if actions == 1 else f'all {actions} actions'} of its log ({size}, {how}). Keep the file "
                 "private (it holds the whole campaign; no dice seed, so nothing in it foretells a roll or a "
                 "draw). Open it in a channel with no campaign with "
                 "`/campaign import file:`."),
        files=[FileOut(export_filename(name, compressed), data)],
        ephemeral=True,
    )


# ------------------------------------------------------------------ import --
def attach(inv: Invocation, data: bytes) -> None:
    """Hand an uploaded file's bytes to ``/campaign import`` (the Discord cog does this)."""
    inv.__dict__["upload"] = bytes(data)


def uploaded(inv: Invocation) -> bytes | None:
    return inv.__dict__.get("upload")


def _fail(problem: str) -> RuleError:
    return RuleError(f"{problem} Use the file exactly as `/campaign export` made it.")


def _containers(piece: bytes) -> tuple[int, int]:
    """Objects and lists a piece of JSON opens, and the commas between its values (inside texts they count too:
    upper bounds, counted before any parsing)."""
    return piece.count(b"{") + piece.count(b"["), piece.count(b",")


def _count_check(containers: int, commas: int) -> None:
    if containers > MAX_CONTAINERS:
        raise RuleError(f"That file holds more than {MAX_CONTAINERS:,} objects and lists; a campaign export holds "
                        "far fewer. Is it the right file?")
    if containers + commas > MAX_NODES:
        raise _fail(f"The file holds more than {MAX_NODES:,} values; a campaign export holds far fewer.")


UNPACK_STEP = 1024 * 1024  # bytes unpacked at a time, each counted before the next


def _unpack(data: bytes) -> bytes:
    """The JSON bytes of a file: as they are, or gunzipped, bounded while unpacking: never more than
    ``MAX_JSON_BYTES``, nor ``MAX_PACK_RATIO`` times the file, nor ``MAX_CONTAINERS`` objects and lists, so a
    gzip bomb stops after a few megabytes and is never parsed."""
    if data[:2] != b"\x1f\x8b":
        _count_check(*_containers(data))
        return data
    limit = min(MAX_JSON_BYTES, max(UNPACK_FLOOR, MAX_PACK_RATIO * len(data)))
    out = bytearray()
    opened = commas = 0
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        chunk = data
        while not d.eof:
            piece = d.decompress(chunk, min(UNPACK_STEP, limit + 1 - len(out)))
            out += piece
            more = _containers(piece)
            opened, commas = opened + more[0], commas + more[1]
            if len(out) > limit:
                if limit == MAX_JSON_BYTES:
                    raise RuleError(f"That file unpacks to more than {MAX_JSON_BYTES // 2**20} MB; a campaign "
                                    "export is far smaller. Is it the right file?")
                raise RuleError(f"That file unpacks to more than {count(MAX_PACK_RATIO, 'time')} its size; a campaign "
                                "export packs far less tightly. Is it the right file?")
            _count_check(opened, commas)
            chunk = d.unconsumed_tail
            if not piece and not chunk:
                break  # no more input and nothing more unpacked: cut short
        if not d.eof:
            raise zlib.error("truncated")
    except zlib.error:
        raise RuleError("That `.gz` file is damaged (it does not unpack). Attach the file `/campaign export` "
                        "made, unchanged.") from None
    return bytes(out)


def _same(value: Any) -> Any:
    return value


def _whole(text: str) -> int:
    if len(text) > 20:
        raise ValueError("a number too long for a campaign")
    return int(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a campaign holds")


def _check_bounds(doc: Any) -> None:
    """One walk over the parsed file: nesting, sizes and numbers within the limits, or ``RuleError``."""
    stack: list[tuple[Any, int]] = [(doc, 0)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise _fail(f"The file holds more than {MAX_NODES:,} values; a campaign export holds far fewer.")
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise _fail(f"The file holds a text of {len(value):,} characters; the longest a campaign keeps "
                            f"is {MAX_TEXT:,}.")
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not -MAX_NUMBER <= value <= MAX_NUMBER:
                raise _fail("The file holds a number out of range.")
        elif isinstance(value, float):
            if not math.isfinite(value) or abs(value) > MAX_NUMBER:
                raise _fail("The file holds a number out of range.")
        elif isinstance(value, (list, dict)):
            if depth >= MAX_DEPTH:
                raise _fail(f"The file nests deeper than {MAX_DEPTH} levels.")
            if len(value) > MAX_LIST:
                raise _fail(f"The file holds a list of {len(value):,} items; the most a campaign keeps is "
                            f"{MAX_LIST:,}.")
            if isinstance(value, dict):
                for k in value:
                    if len(k) > MAX_TEXT:
                        raise _fail("The file holds an over-long key.")
                stack.extend((v, depth + 1) for v in value.values())
            else:
                stack.extend((v, depth + 1) for v in value)


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and PLAYER_ID.fullmatch(value) is not None


def _check_args(args: dict[str, Any], where: str) -> None:
    """An action's options: each text within what a command accepts (the rules check the rest)."""
    stack = [args]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if len(value) > MAX_OPTION_TEXT:
                raise _fail(f"{where} has an option of {len(value):,} characters; a command takes at most "
                            f"{MAX_OPTION_TEXT}.")
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def _check_entry(raw: Any, position: int, *, local: bool, nesting: int, count: list[int],
                 game: rulesets.Ruleset | None = None) -> dict[str, Any]:
    where = f"Log entry {position}"
    if not isinstance(raw, dict):
        raise _fail(f"{where} in the file is not an object.")
    for key, types in ENTRY_KEYS.items():
        value = raw.get(key)
        if not isinstance(value, types) or isinstance(value, bool):
            raise _fail(f"{where} in the file has a missing or broken `{key}`.")
    if raw["seq"] != position:
        raise _fail(f"The file's log is out of order: entry {position} is numbered #{raw['seq']}.")
    if not 0 <= raw["at"] < 10**11:
        raise _fail(f"{where} in the file has a broken time.")
    if "on_behalf" not in raw or (raw["on_behalf"] is not None and not _is_id(raw["on_behalf"])):
        raise _fail(f"{where} in the file has a broken `on_behalf`.")
    if not _is_id(raw["actor"]):
        raise _fail(f"{where} in the file names its player by a broken id.")
    act = raw["action"]
    if (not isinstance(act.get("type"), str) or act.get("type") != raw["type"] or str(act.get("actor")) != raw["actor"]
            or act.get("on_behalf") != raw["on_behalf"]):
        raise _fail(f"{where} in the file has a broken `action`.")
    args = act.get("args", {})
    if not isinstance(args, dict):
        raise _fail(f"{where} in the file has broken action options.")
    if len(raw["dice"]) > MAX_DICE_PER_ENTRY or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 100 for d in raw["dice"]):
        raise _fail(f"{where} in the file has broken dice.")
    kind = raw["type"]
    tool = HOST_ONLY.get(kind) or (host_tool(game.actions.handlers.get(kind), args) if game is not None else "")
    if tool and not local:
        raise RuleError(f"{where} of the file is {tool}, which only the bot's host may use; a file "
                        "from Discord can't carry it, so it was not imported. The host can import it at the "
                        "local table.")
    if kind == "campaign.new":
        if position != 1:
            raise _fail(f"{where} in the file opens a second campaign.")
        for key in ("channel_id", "guild_id"):
            if args.get(key) is not None and not _is_id(str(args[key])):
                raise _fail(f"{where} in the file names a broken channel or server id.")
        pack = args.get("pack")
        if pack is not None and not local and not (isinstance(pack, str) and PACK_ID.fullmatch(pack)):
            raise _fail(f"{where} in the file names its content pack in a broken way.")
    if kind == "campaign.import":
        if position != 1:
            raise _fail(f"{where} in the file opens a second campaign.")
        if nesting >= MAX_IMPORT_NESTING:
            raise _fail(f"The file's campaign was imported more than {MAX_IMPORT_NESTING} times over.")
        for key in ("channel_id", "guild_id"):
            if args.get(key) is not None and not _is_id(str(args[key])):
                raise _fail(f"{where} in the file names a broken channel or server id.")
        if args.get("state") is not None:
            check_state(args["state"])
        _check_log(args.get("history"), local=local, nesting=nesting + 1, count=count, game=game)
    else:
        _check_args(args, where)
    return raw


def _check_log(log: Any, *, local: bool, nesting: int = 0, count: list[int] | None = None,
               game: rulesets.Ruleset | None = None) -> list[dict[str, Any]]:
    count = count if count is not None else [0]
    if not isinstance(log, list) or not log:
        raise _fail("The file has no action log.")
    count[0] += len(log)
    if count[0] > MAX_LOG_ENTRIES:
        raise RuleError(f"The file's log has more than {MAX_LOG_ENTRIES:,} actions (earlier imports included); "
                        f"this bot imports at most {MAX_LOG_ENTRIES:,}.")
    entries = [_check_entry(raw, i, local=local, nesting=nesting, count=count, game=game)
               for i, raw in enumerate(log, start=1)]
    if entries[0]["type"] not in ("campaign.new", "campaign.import"):
        raise _fail("The file's log does not start by opening the campaign.")
    return entries


def _packs_named(entries: list[dict[str, Any]]) -> set[Any]:
    packs: set[Any] = set()
    for e in entries:
        args = e["action"].get("args") or {}
        if e["type"] == "campaign.new":
            packs.add(args.get("pack") or "starter")
        elif e["type"] == "campaign.import":
            if isinstance(args.get("state"), dict):
                packs.add(args["state"].get("pack"))
            if isinstance(args.get("history"), list):
                packs |= _packs_named(args["history"])
    return packs


def parse_export(data: bytes, *, local: bool = False) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Check an export file; (state, log entries, header) or ``RuleError`` naming the problem.

    Every check here is cheap next to the replay, and runs first.  ``local``: the
    offline local table, whose host may force dice and name a pack folder by path.
    """
    if len(data) > MAX_IMPORT_BYTES:
        raise RuleError(f"That file is {len(data) // 1024} KB; a campaign export is at most "
                        f"{MAX_IMPORT_BYTES // (1024 * 1024)} MB. Is it the right file?")
    data = _unpack(data)
    if len(data) > MAX_JSON_BYTES:
        raise RuleError(f"That file is {len(data) // 2**20} MB of JSON; a campaign export is at most "
                        f"{MAX_JSON_BYTES // 2**20} MB. Is it the right file?")
    try:
        # the Python-level hooks let the parsing thread hand the interpreter lock to the event loop
        doc = json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant, object_hook=_same,
                         parse_int=_whole)
    except UnicodeDecodeError:
        raise RuleError("That file is not text. Attach the `.json` (or `.json.gz`) file that `/campaign export` "
                        "made.") from None
    except (ValueError, RecursionError) as exc:
        raise RuleError(f"That file is not valid JSON ({clip_echo(exc)}). "
                        "Attach the `.json` file that `/campaign export` made, unchanged.") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RuleError("That is not a Hexpost campaign export. Attach the `.json` file that `/campaign export` made.")
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _fail("The file has no export format version.")
    if version > FORMAT_VERSION:
        raise RuleError(f"That file was exported by a newer Hexpost (format {version}; this bot reads format "
                        f"{FORMAT_VERSION}). Ask the bot's host to update it, then import again.")
    if version != FORMAT_VERSION:
        raise _fail(f"The file's export format {version} is unknown.")
    _check_bounds(doc)
    state = doc.get("state")
    camp = check_state(state)
    if camp.forced and not local:
        raise RuleError("The file's campaign has forced dice waiting, which only the bot's host may set; a file "
                        "from Discord can't carry them. The host can import it at the local table.")
    game = _ruleset_of(state)
    waiting = game.host_waiting(camp)
    if waiting and not local:
        raise RuleError(f"The file's campaign has {waiting} waiting, which only the bot's host may set; a file "
                        "from Discord can't carry them. The host can import it at the local table.")
    entries = _check_log(doc.get("log"), local=local, game=game)
    if not local:
        present = _ruleset_of(state).present
        known = set(present.packs() if hasattr(present, "packs") else [])
        missing = sorted(str(p) for p in _packs_named(entries) | {camp.pack} if p not in known)
        if missing:
            raise RuleError(f"This bot has no content pack `{clip_echo(missing[0])}`, which the campaign uses. "
                            f"Packs here: {', '.join(sorted(known)) or 'none'}. The bot's host adds a pack by "
                            "putting its folder in `content/`.")
    _ruleset_of(state).check_pack(camp.pack)
    return state, entries, doc


def _parse_in_thread(data: bytes, local: bool) -> dict[str, Any]:
    """``parse_export`` for a worker thread: the import's arguments, or a ``RuleError`` that holds
    nothing of the file (its parsed data is freed here, not on the event loop)."""
    try:
        state, entries, doc = parse_export(data, local=local)
    except RuleError as exc:
        problem = (exc.template, exc.people)
    else:
        stamp = doc.get("exported_at")
        camp_info = doc.get("campaign") if isinstance(doc.get("campaign"), dict) else {}
        version = camp_info.get("version")
        source = {"exported_at": stamp if isinstance(stamp, str) and STAMP.fullmatch(stamp) else "",
                  "actions": len(entries),
                  "version": version if isinstance(version, int) and not isinstance(version, bool) else None}
        return {"state": state, "history": entries, "source": source}
    raise RuleError(problem[0], **problem[1])


@contextlib.contextmanager
def _collector_paused():
    """No cyclic garbage collection while an import parses and replays.

    A file's parsed JSON is millions of objects; each full collection walks them all while holding
    the interpreter lock, which stalls the event loop even though the work runs in a worker thread.
    The file's data has no reference cycles (it is freed by reference counting all the same).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextlib.asynccontextmanager
async def _collector_paused_async():
    with _collector_paused():
        yield


def _import_gate(inv: Invocation) -> asyncio.Lock:
    """One import at a time on this bot (they are the heaviest thing it does)."""
    service = inv.service
    gate = service.__dict__.get("_import_gate")
    if gate is None:
        gate = service.__dict__["_import_gate"] = asyncio.Lock()
    return gate


@command("campaign import", "Open a campaign from a /campaign export file in this channel (its party leader).",
         Opt("file", str, "The .json or .json.gz file /campaign export made (at the local table: its path)",
             required=True, attachment=True, max=MAX_IMPORT_BYTES))
async def campaign_import(inv: Invocation, file) -> Reply:
    existing = await inv.service.campaign(inv.channel_id)
    if existing is not None:
        raise RuleError(f"This channel already has a campaign, **{existing.name}**. Import into a channel without "
                        "one (or ask its leader to `/campaign end` it first).")
    data = uploaded(inv)
    if data is None:
        if not inv.local:
            raise RuleError("Attach the `.json` file that `/campaign export` made as the `file` option.")
        path = Path(str(file)).expanduser()
        try:
            size = await asyncio.to_thread(lambda: path.stat().st_size)
            if size > MAX_IMPORT_BYTES:
                raise RuleError(f"That file is {size // 1024} KB; a campaign export is at most "
                                f"{MAX_IMPORT_BYTES // (1024 * 1024)} MB. Is it the right file?")
            data = await asyncio.to_thread(path.read_bytes)
        except OSError as exc:
            raise RuleError(f"Could not read `{clip_echo(path)}` ({exc.strerror or type(exc).__name__}). "
                            "Give the path of the file `/campaign export` wrote.") from None
    gate = _import_gate(inv)
    if gate.locked():
        raise RuleError("Another campaign is being imported on this bot right now. Try again in a minute; "
                        "nothing was changed.")
    async with gate, _collector_paused_async():
        args = await asyncio.to_thread(_parse_in_thread, data, inv.local)
        # a fresh seed for the imported campaign's dice: the file's own seed is never kept
        # (and the decks still to be drawn are shuffled with it: ``redraw``)
        args.update(channel_id=inv.channel_id, guild_id=inv.guild_id, seed=random.SystemRandom().randrange(1, 2**53),
                    redraw=True)
        args["unproven"] = await _unproven(inv, args.get("state"))
        try:
            out = await inv.do("campaign.import", args)
            name, events = out.state.name, out.events
            waiting = list(getattr(out.state, "unaccepted", None) or [])
        finally:
            # the file's parsed data is freed in a worker thread too (millions of objects)
            await asyncio.to_thread(args.clear)
    e = Embed(title=f"Campaign imported: {name}", color=COLOR_OK, description=events_text(events))
    e.add("Next", "See the party with `/campaign status`; the earlier history stays in the export file and in "
                  "this import's log entry (`/campaign log`).")
    buttons = [Button(make_id("seat", inv.channel_id, campaign=out.campaign_id), "Accept your seat", "success")] \
        if waiting else []
    return Reply(embeds=[e], buttons=buttons)


# ------------------------------------------------------------------------------------- whom an import seats --
async def _unproven(inv: Invocation, claimed: Any) -> list[str]:
    """The members the file's state seats (besides the one importing) who never took an action of their own on
    this server: their seats wait to be accepted.  Recorded in the import's action, so its replay seats the same."""
    members = claimed.get("members") if isinstance(claimed, dict) else None
    others = [str(m) for m in (members if isinstance(members, list) else [])
              if isinstance(m, (str, int)) and str(m) != inv.user_id and PLAYER_ID.fullmatch(str(m))]
    others = list(dict.fromkeys(others))[:8]
    acted = await inv.service.acted_in_guild(others, inv.guild_id)
    return [m for m in others if m not in acted]


@on_click("seat", campaign=True)
async def _accept_seat(inv: Invocation, arg: str, values: list[str]) -> Reply:
    """The import's "Accept your seat": the member whose seat waits takes it (anyone else is told why not)."""
    state = await inv.service.campaign(inv.channel_id)
    if state is None or inv.user_id not in (getattr(state, "unaccepted", None) or ()):
        if state is not None and inv.user_id in state.members:
            return Reply.fail("This button is out of date for you: you have taken your seat already (or never "
                              "needed to). Nothing was changed.")
        return Reply.fail("This button is for the members the import seated whose seats wait to be accepted; "
                          "you are not one of them. Nothing was changed; join with `/campaign join`.")
    out = await inv.do("campaign.accept")
    return Reply(content=events_text(out.events))
