"""``/campaign export`` and ``/campaign import``: a campaign as one JSON file.

The export file::

    {"format": "hexpost-campaign", "format_version": 1, "schema": <state schema>,
     "exported_at": "2025-01-31T18:00:00Z", "exported_by": "<user id>",
     "campaign": {"name", "channel_id", "guild_id", "pack", "version", "actions"},
     "state": {...the campaign state...},
     "log": [{"seq", "at", "actor", "on_behalf", "type", "action", "dice", "events",
              "undoable", "undone_by"}, ...]}

Import checks the file before anything is written: its JSON shape, the format
and state schema versions, that every content pack it names exists here, and
that its log replays (with this bot's rules) to exactly the state it states.
Then one ``campaign.import`` action opens the campaign in this channel; the
file's log goes into that action's ``history`` (see ``rulesets/tes/rules/transfer.py``).

Only the party leader exports (the file holds the dice seed, so whoever has it
could foresee rolls) and only the exported campaign's leader imports.

How the file arrives: in Discord the cog reads the attachment's bytes and hands
them over with ``attach``; the ``file`` option then only names the file.  At
the offline local table ``file:`` is a path on the host's disk.
"""
from __future__ import annotations

import asyncio
import json
import re
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from commands.core import Invocation, Opt, clip_echo, command
from rulesets.tes.present.presenter import events_text
from kernel.reply import COLOR_OK, Embed, FileOut, Reply
from kernel.core import RuleError
from rulesets.tes.state import SCHEMA
from rulesets.tes.rules.transfer import check_pack, check_state

FORMAT = "hexpost-campaign"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 8 * 1024 * 1024  # a campaign of thousands of actions is well under 1 MB
MAX_LOG_ENTRIES = 50_000
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
def export_filename(name: str) -> str:
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "campaign"
    return f"campaign-{stem[:60]}.json"


async def snapshot(inv: Invocation) -> tuple[Any, list]:
    """The stored campaign and its full log, read as one consistent pair.

    The per-channel lock keeps this process's writes out; a write by another
    process in between is noticed by the version (one log entry per version)
    and the read is repeated.
    """
    store = inv.service.store
    async with inv.service.lock(inv.channel_id):
        for _ in range(5):
            stored = await store.load_active(inv.channel_id)
            if stored is None:
                raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
            entries = await store.log(stored.id)
            again = await store.load_active(inv.channel_id)
            if again is not None and again.version == stored.version and len(entries) == stored.version:
                return stored, entries
            await asyncio.sleep(0.05)
    raise RuleError("The campaign kept changing while it was being read; try `/campaign export` again.")


def build_export(stored, entries, exported_by: str, now: float | None = None) -> dict[str, Any]:
    state = stored.state
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema": SCHEMA,
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
        "state": state,
        "log": [e.to_dict() for e in entries],
    }


@command("campaign export", "Download this campaign (state and full log) as a JSON file (party leader).")
async def campaign_export(inv: Invocation) -> Reply:
    state = await inv.service.campaign(inv.channel_id)
    if state is None:
        raise RuleError("This channel has no campaign yet. Start one with `/campaign new`.")
    if inv.user_id != state.leader:
        raise RuleError(
            f"Only the party leader (<@{state.leader}>) can export the campaign: the file holds its dice seed. "
            "Everyone can read the history with `/campaign log`."
        )
    stored, entries = await snapshot(inv)
    doc = build_export(stored, entries, inv.user_id)
    data = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False).encode("utf-8")
    name = stored.state.get("name", "campaign")
    return Reply(
        content=(f"**{name}**: the state and all {len(entries)} actions of its log. Keep the file private (it holds "
                 "the dice seed). Open it in a channel with no campaign with `/campaign import file:`."),
        files=[FileOut(export_filename(name), data)],
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


def _check_entry(raw: Any, position: int) -> dict[str, Any]:
    where = f"Log entry {position}"
    if not isinstance(raw, dict):
        raise _fail(f"{where} in the file is not an object.")
    for key, types in ENTRY_KEYS.items():
        value = raw.get(key)
        if not isinstance(value, types) or isinstance(value, bool):
            raise _fail(f"{where} in the file has a missing or broken `{key}`.")
    if raw["seq"] != position:
        raise _fail(f"The file's log is out of order: entry {position} is numbered #{raw['seq']}.")
    if "on_behalf" not in raw or (raw["on_behalf"] is not None and not isinstance(raw["on_behalf"], str)):
        raise _fail(f"{where} in the file has a broken `on_behalf`.")
    act = raw["action"]
    if not isinstance(act.get("type"), str) or act.get("type") != raw["type"] or not isinstance(act.get("actor"), (str, int)):
        raise _fail(f"{where} in the file has a broken `action`.")
    if not isinstance(act.get("args", {}), dict):
        raise _fail(f"{where} in the file has broken action options.")
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in raw["dice"]):
        raise _fail(f"{where} in the file has broken dice.")
    return raw


def _packs_named(entries: list[dict[str, Any]]) -> set[str]:
    packs = set()
    for e in entries:
        args = e["action"].get("args") or {}
        if e["type"] == "campaign.new":
            packs.add(str(args.get("pack") or "starter"))
        elif e["type"] == "campaign.import" and isinstance(args.get("state"), dict):
            packs.add(str(args["state"].get("pack")))
    return packs


def parse_export(data: bytes, *, local: bool = False) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Check an export file; (state, log entries, header) or ``RuleError`` naming the problem.

    ``local``: the offline local table, where a campaign may use a pack folder by path.
    """
    from rulesets.tes.content import list_packs
    from kernel.service import ReplayMismatch, replay

    if len(data) > MAX_IMPORT_BYTES:
        raise RuleError(f"That file is {len(data) // 1024} KB; a campaign export is at most "
                        f"{MAX_IMPORT_BYTES // (1024 * 1024)} MB. Is it the right file?")
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise RuleError("That file is not text. Attach the `.json` file that `/campaign export` made.") from None
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
    state = doc.get("state")
    camp = check_state(state)
    log = doc.get("log")
    if not isinstance(log, list) or not log:
        raise _fail("The file has no action log.")
    if len(log) > MAX_LOG_ENTRIES:
        raise RuleError(f"The file's log has {len(log)} actions; this bot imports at most {MAX_LOG_ENTRIES}.")
    entries = [_check_entry(raw, i) for i, raw in enumerate(log, start=1)]
    if entries[0]["type"] not in ("campaign.new", "campaign.import"):
        raise _fail("The file's log does not start by opening the campaign.")
    packs = _packs_named(entries) | {camp.pack}
    if not local:
        known = set(list_packs())
        missing = sorted(p for p in packs if p not in known)
        if missing:
            raise RuleError(f"This bot has no content pack `{clip_echo(missing[0])}`, which the campaign uses. "
                            f"Packs here: {', '.join(sorted(known)) or 'none'}. The bot's host adds a pack by "
                            "putting its folder in `content/`.")
    check_pack(camp.pack)
    try:
        rebuilt = replay(entries)
    except ReplayMismatch as exc:
        raise _fail(f"The file's log does not replay the same dice on this bot ({exc}).") from None
    except RuleError as exc:
        raise _fail(f"The file's log does not replay on this bot: {exc.message}") from None
    except Exception as exc:  # noqa: BLE001 - a hand-edited file can break an action in any way
        raise _fail(f"The file's log does not replay on this bot ({type(exc).__name__}).") from None
    if rebuilt is None or rebuilt.to_dict() != camp.to_dict():
        raise RuleError("The file's state does not match its log (the file was changed or damaged), so it was "
                        "not imported. Export the campaign again and import that file unchanged.")
    return state, entries, doc


@command("campaign import", "Open a campaign from a /campaign export file in this channel (its party leader).",
         Opt("file", str, "The .json file /campaign export made (at the local table: its path)", required=True,
             attachment=True, max=MAX_IMPORT_BYTES))
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
            data = await asyncio.to_thread(path.read_bytes)
        except OSError as exc:
            raise RuleError(f"Could not read `{clip_echo(path)}` ({exc.strerror or type(exc).__name__}). "
                            "Give the path of the file `/campaign export` wrote.") from None
    state, entries, doc = await asyncio.to_thread(parse_export, data, local=inv.local)
    source = {"exported_at": str(doc.get("exported_at") or "")[:40], "actions": len(entries),
              "version": (doc.get("campaign") or {}).get("version") if isinstance(doc.get("campaign"), dict) else None}
    out = await inv.do("campaign.import", {
        "state": state, "history": entries, "source": source,
        "channel_id": inv.channel_id, "guild_id": inv.guild_id,
    })
    e = Embed(title=f"Campaign imported: {out.state.name}", color=COLOR_OK, description=events_text(out.events))
    e.add("Next", "See the party with `/campaign status`; the earlier history stays in the export file and in "
                  "this import's log entry (`/campaign log`).")
    return Reply(embeds=[e])
