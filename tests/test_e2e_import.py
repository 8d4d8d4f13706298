"""Campaign files against the real bot over the fake Discord: hostile, heavy and forged imports.

The real, unmodified bot (``bot.build_bot``) with discord.py, as in tests/test_e2e_discord.py.  Each
test runs a 10 ms ticker task on the event loop and prints the longest gap it saw (how long the loop
was held) and the tracemalloc peak; these figures are printed, never asserted (the machine varies).
"""
from __future__ import annotations

import asyncio
import copy
import json
import logging
import time
import tracemalloc
from typing import Any

import pytest

from bot import build_bot
from fakediscord import EPHEMERAL, FakeDiscord, FakeMember, InteractionResult
from helpers.exports import doc_of, long_campaign, opened, raw


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class World:
    """A guild with a campaign channel, an empty channel and three members, and the real bot."""

    def __init__(self, fake: FakeDiscord, db_path: str) -> None:
        self.fake = fake
        self.db_path = db_path
        self.guild = fake.add_guild("Hexpost Table")
        self.chan = fake.add_channel(self.guild, "campaign")
        self.lobby = fake.add_channel(self.guild, "lobby")
        self.other = fake.add_channel(self.guild, "other")
        self.leader = fake.add_member(self.guild, "lena")
        self.bob = fake.add_member(self.guild, "bob")
        self.cara = fake.add_member(self.guild, "cara")
        self.bot: Any = None
        self.errors = _Errors()

    async def start(self) -> None:
        self.bot = build_bot(self.db_path, guild_ready_timeout=0.05, sync=True)
        await self.fake.start_client(self.bot, token="hexpost-test-token", timeout=10)

    async def stop(self) -> None:
        if self.bot is not None and not self.bot.is_closed():
            await self.fake.stop_client(self.bot)

    async def slash(self, user: FakeMember, command: str, options: dict | None = None, *,
                    channel=None) -> InteractionResult:
        return await self.fake.slash(user, channel or self.chan, command, options or {}, timeout=60)

    async def state(self, channel=None):
        return await self.bot.table.service.campaign(str((channel or self.chan).id))


@pytest.fixture
async def world(tmp_path):
    w_errors = _Errors()
    logging.getLogger("hexpost").addHandler(w_errors)
    try:
        async with FakeDiscord(default_timeout=60) as fake:
            w = World(fake, str(tmp_path / "hexpost.db"))
            w.errors = w_errors
            await w.start()
            yield w
            await w.stop()
            assert fake.unhandled == [], fake.unhandled
            assert fake.errors == [], [r.getMessage() for r in fake.errors]
            for res in fake.interactions:
                assert res.responded, f"{res!r} was never answered"
            assert w.errors.records == [], [r.getMessage()[:300] for r in w.errors.records]
    finally:
        logging.getLogger("hexpost").removeHandler(w_errors)


def answer(res: InteractionResult) -> tuple[str, bool]:
    """(text, ephemeral) of what the user saw as the answer (see tests/test_e2e_discord.py)."""
    if res.callback_type == 5 and ("delete", "@original") in res.log:
        payload = res.followups[-1].history[-1]
        return payload.get("content") or "", bool(int(payload.get("flags") or 0) & EPHEMERAL)
    msg = res.message
    assert msg is not None and not msg.deleted, res
    return (msg.content or "") + json.dumps(msg.embeds, ensure_ascii=False), msg.ephemeral


class Gauge:
    """The longest the event loop was held (a 10 ms ticker's worst gap), and with ``trace`` the tracemalloc
    peak (tracing every allocation slows the work several times over, so a stall is measured without it)."""

    def __init__(self, trace: bool = False) -> None:
        self.trace = trace

    async def __aenter__(self) -> "Gauge":
        self.worst = 0.0
        self._stop = asyncio.Event()
        self._task = asyncio.ensure_future(self._tick())
        if self.trace:
            tracemalloc.start()
        self.started = time.perf_counter()
        return self

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._stop.is_set():
            t = loop.time()
            await asyncio.sleep(0.01)
            self.worst = max(self.worst, loop.time() - t - 0.01)

    async def __aexit__(self, *exc) -> None:
        self.took = time.perf_counter() - self.started
        self.peak = tracemalloc.get_traced_memory()[1] if self.trace else 0
        if self.trace:
            tracemalloc.stop()
        self._stop.set()
        await self._task

    def line(self, what: str) -> str:
        if self.trace:
            return f"[e2e import] {what}: tracemalloc peak {self.peak / 2**20:.0f} MB"
        return f"[e2e import] {what}: {self.took:.2f} s, loop held at most {self.worst * 1000:.0f} ms"


async def open_campaign(w: World) -> None:
    res = await w.slash(w.leader, "campaign new", {"name": "Night Watch"})
    assert "Night Watch" in answer(res)[0]


def forced_dice_bomb() -> bytes:
    """The issue's file: one campaign.new, one forced-dice entry of 400,000 values, then 35,000 more."""
    p = opened()
    force = lambda seq, n: {"seq": seq, "at": 1.0, "actor": "1001", "on_behalf": None,  # noqa: E731
                            "type": "dice.force", "action": {"type": "dice.force", "actor": "1001",
                                                             "on_behalf": None, "args": {"values": [3] * n}},
                            "dice": [], "events": [], "undoable": False, "undone_by": None}
    log = p.log[:1] + [force(2, 400_000)] + [force(i, 1) for i in range(3, 35_003)]
    return raw(doc_of(log, p.state.to_dict()))


# ---------------------------------------------------------------------------------------- fault 1 --
async def test_a_hostile_file_is_refused_at_bounded_cost_while_other_channels_play(world: World) -> None:
    w = world
    await open_campaign(w)
    data = forced_dice_bomb()
    async with Gauge() as g:
        imp = asyncio.ensure_future(w.slash(w.bob, "campaign import", {"file": ("bomb.json", data)},
                                            channel=w.lobby))
        await asyncio.sleep(0.05)
        roll = await w.slash(w.cara, "roll", {"dice": "2d6"}, channel=w.other)
        res = await imp
    text, ephemeral = answer(res)
    assert ephemeral and "the most a campaign keeps" in text, text
    assert await w.state(w.lobby) is None
    assert "2d6" in answer(roll)[0]
    print("\n" + g.line(f"{len(data) / 2**20:.1f} MB forced-dice file refused")
          + f"; a /roll elsewhere answered in {roll.latency * 1000:.0f} ms")
    async with Gauge(trace=True) as g:
        res = await w.slash(w.bob, "campaign import", {"file": ("bomb.json", data)}, channel=w.lobby)
    assert "the most a campaign keeps" in answer(res)[0]
    print(g.line("the same file again"))
    # a file with forced dice at all is refused from Discord, naming why
    p = opened()
    force = {"seq": 5, "at": 2.0, "actor": "1001", "on_behalf": None, "type": "dice.force",
             "action": {"type": "dice.force", "actor": "1001", "on_behalf": None, "args": {"values": [3]}},
             "dice": [], "events": [], "undoable": False, "undone_by": None}
    res = await w.slash(w.leader, "campaign import", {"file": ("f.json", raw(doc_of(p.log + [force],
                                                                                     p.state.to_dict())))},
                        channel=w.lobby)
    text, ephemeral = answer(res)
    assert ephemeral and "only the bot's host" in text, text


# ---------------------------------------------------------------------------------------- fault 2 --
async def test_a_long_campaign_imports_off_the_loop_and_plays_on_lightly(world: World) -> None:
    w = world
    await open_campaign(w)
    p = long_campaign(600)
    leader = str(w.leader.id)
    # the file's players are this server's members
    ids = {"1001": leader, "1002": str(w.bob.id)}
    text = json.dumps(doc_of(p.log, p.state.to_dict()))
    for old, new in ids.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    doc = json.loads(text)
    from engine.service import replay

    doc["state"] = replay(doc["log"]).to_dict()
    data = raw(doc)
    async with Gauge() as g:
        imp = asyncio.ensure_future(w.slash(w.leader, "campaign import", {"file": ("long.json", data)},
                                            channel=w.lobby))
        await asyncio.sleep(0.05)
        rolls = []
        while not imp.done():
            rolls.append(await w.slash(w.cara, "roll", {"dice": "d20"}, channel=w.other))
            await asyncio.sleep(0.2)
        res = await imp
    text, ephemeral = answer(res)
    assert not ephemeral and "imported" in text, text
    worst_roll = max(r.latency for r in rolls) if rolls else 0.0
    print("\n" + g.line(f"{len(p.log)}-action campaign imported ({len(data) / 2**20:.1f} MB)")
          + f"; {len(rolls)} /roll elsewhere meanwhile, slowest answered in {worst_roll * 1000:.0f} ms")
    async with Gauge(trace=True) as g:  # the same work outside Discord, for its memory
        from commands.transfer import parse_export
        from rulesets.tes.rules.transfer import rebuild

        rebuild(parse_export(data)[1])
    print(g.line("its parse and replay"))
    state = await w.state(w.lobby)
    # the same campaign; the importer's display name is now known to it as well
    imported = state.to_dict()
    assert set(imported.pop("names").items()) >= set((doc["state"].get("names") or {}).items())
    assert imported == {k: v for k, v in doc["state"].items() if k != "names"} | {
        "channel_id": str(w.lobby.id), "guild_id": str(w.guild.id), "seed": state.seed, "dice_counter": 0,
        # the other member never played on this server: their seat waits to be accepted
        "unaccepted": [m for m in doc["state"]["members"] if m != doc["state"]["leader"]]}

    store = w.bot.table.service.store
    cid = await w.bot.table.service.campaign_id(str(w.lobby.id))
    import sqlite3

    def undo_bytes() -> tuple[int, int]:
        con = sqlite3.connect(w.db_path)
        try:
            return con.execute("SELECT COALESCE(SUM(LENGTH(COALESCE(state_before, '')) + "
                               "LENGTH(COALESCE(undo_patch, ''))), 0), COUNT(*) FROM action_log "
                               "WHERE campaign_id = ?", (cid,)).fetchone()
        finally:
            con.close()

    async with Gauge() as g:
        for hours in (5, 6, 7, 8, 9):
            res = await w.slash(w.leader, "campaign settings", {"reminder_hours": hours}, channel=w.lobby)
            assert "reminder_hours = " in answer(res)[0]
    undo, rows = undo_bytes()
    print(g.line("5 actions on the imported campaign") + f"; undo data now {undo} B in {rows} log rows")
    assert rows == 6 and undo < 2000  # a settings change keeps a patch, not a copy of the state
    async with Gauge() as g:
        res = await w.slash(w.leader, "campaign export", channel=w.lobby)
    (name, exported), = res.files
    print(g.line(f"export ({len(exported) / 1024:.0f} KB, {name})"))
    async with Gauge(trace=True) as g:
        await w.slash(w.leader, "campaign export", channel=w.lobby)
    print(g.line("the export again"))
    assert name.endswith((".json", ".json.gz"))
    assert (await store.log_count(cid)) == 6


# ---------------------------------------------------------------------------------------- fault 3 --
async def test_a_forged_state_is_refused_and_changes_nothing(world: World) -> None:
    w = world
    await open_campaign(w)
    p = opened()
    bob = str(w.bob.id)
    text = json.dumps(doc_of(p.log, p.state.to_dict())).replace('"1001"', f'"{bob}"')
    good = json.loads(text)
    def forge(**changes) -> dict:
        """The old way in: a log that opens with an import entry carrying a hand-written state."""
        state = copy.deepcopy(good["state"])
        state["adventurers"][bob].update(hp=999, tenacity=99, saved_xp=99)
        state.update(changes)
        entry = {"seq": 1, "at": 1.0, "actor": bob, "on_behalf": None, "type": "campaign.import",
                 "action": {"type": "campaign.import", "actor": bob, "on_behalf": None,
                            "args": {"state": state, "history": good["log"], "channel_id": "9"}},
                 "dice": [], "events": [], "undoable": False, "undone_by": None}
        return dict(good, state=state, log=[entry])

    for doc, expect in ((forge(members=good["state"]["members"] + ["1003", "1004", "1004"]), "in the party twice"),
                        (forge(forced=[0, 0]), "only the bot's host"),
                        (forge(), "does not match its log"),
                        (dict(good, state=dict(good["state"], xp_dial=9)), "does not match its log")):
        async with Gauge() as g:
            res = await w.slash(w.bob, "campaign import", {"file": ("forged.json", raw(doc))}, channel=w.lobby)
        text, ephemeral = answer(res)
        assert ephemeral and expect in text, (expect, text)
        assert await w.state(w.lobby) is None
    print("\n" + g.line("forged state refused"))
    # the same member's honest file imports, and is exactly the replay of its log
    res = await w.slash(w.bob, "campaign import", {"file": ("good.json", raw(good))}, channel=w.lobby)
    assert "imported" in answer(res)[0]
    assert (await w.state(w.lobby)).adventurers[bob].hp == good["state"]["adventurers"][bob]["hp"]


# ---------------------------------------------------------------------------------------- fault 6 --
async def test_a_failed_answer_after_a_save_says_what_was_saved(world: World, monkeypatch) -> None:
    import commands.campaign as handlers

    w = world
    await open_campaign(w)

    def broken(*_a, **_k):
        raise RuntimeError("the answer could not be drawn")

    monkeypatch.setattr(handlers, "events_text", broken)
    async with Gauge() as g:
        res = await w.slash(w.leader, "campaign settings", {"reminder_hours": 7})
    text, ephemeral = answer(res)
    print("\n" + g.line("answer failed after the save") + f": {text[:90]}")
    assert ephemeral and "was saved" in text and "do not repeat it" in text.lower(), text
    assert "nothing was changed" not in text.lower()
    assert (await w.state()).settings["reminder_hours"] == 7
    assert [r.getMessage().split("\n")[0] for r in w.errors.records]  # the host's log has the details
    w.errors.records.clear()
