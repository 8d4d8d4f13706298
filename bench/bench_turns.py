"""Whole-turn benchmark: many battle turns in many channels against a real SQLite file.

Every channel opens a campaign, creates 2-4 adventurers and starts a clash from the
starter pack (the encounters in turn); then the adventurer whose turn it is moves
toward an enemy, engages when one is in reach, resolves the roll and ends the turn,
all through ``commands.core.Table.run`` as that player, exactly like the bot.  When a
battle ends the leader starts the next one (class rewards are chosen first); when
nobody can fight any more (someone at 0 HP) the campaign is ended and a new one opened.

Per turn it measures (time.perf_counter, nothing in the engine is edited; the bench
wraps ``engine.actions.ActionTable.execute`` and the store's methods for the duration of the run):

  engine          ActionTable.execute alone (check + apply on a copy of the state)
  store commit    Store.commit: the one write transaction (incl. waiting for the write lock)
  store reads     Store.load_active + Store.next_seq
  service         CampaignService.execute as a whole
  command layer   Table.run: the service plus the reply's view models (map, rolls, mat)
  map render      asyncio.to_thread(render.render, "map", view), as the bot draws it
  whole turn      Table.run + the map render: what a player waits for

Every question the bot can put to a player is answered as a player would (``engine.prompts.open_prompt``):
a roll is resolved, a prevention or guard question (one player of each party plays in ``ask`` mode) gets the
automatic choice, a free move an interrupt offers goes to the menu's first hex, a cache in reach is moved onto
and its lock picked.

``--days [N]`` plays a session of days in the Saltmire instead (bench/day_players.py answers the day's
questions; a card's battle is played as above), with the overland map of each reply drawn as the bot draws it.

Usage:
  python bench/bench_turns.py [--channels 20] [--turns 30] [--concurrency 4] [--seed 1]
                              [--think-ms 0] [--all-pictures] [--tracemalloc] [--profile [N]]
                              [--compare REV] [--json FILE] [--delve] [--days [N]]

``--compare REV`` plays the same players against the code of git revision REV as well (checked out in a
temporary git worktree, run in a child process) and prints its figures beside this code's.

See bench/README.md for how to read the figures.
"""
from __future__ import annotations

import argparse
import asyncio
import contextvars
import cProfile
import io
import os
import platform
import pstats
import random
import re
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _code_root(argv: list[str]) -> Path:
    """The tree whose code the bench runs: this one, or ``--code-root`` (the child of ``--compare``)."""
    for i, a in enumerate(argv):
        if a == "--code-root" and i + 1 < len(argv):
            return Path(argv[i + 1]).resolve()
        if a.startswith("--code-root="):
            return Path(a.split("=", 1)[1]).resolve()
    return ROOT


CODE = _code_root(sys.argv[1:])
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT] if CODE != ROOT else sys.path
sys.path.insert(0, str(CODE))

import commands.campaign as _handlers  # noqa: E402
import render  # noqa: E402
from commands.core import Table  # noqa: E402
from rulesets.tes.battle.model import map_info, names_of, on_map  # noqa: E402
from rulesets.tes.content import COMBAT_FORMS, load_pack  # noqa: E402
from engine.hexes import Hex, in_sight, route_distance, toward  # noqa: E402
from engine.prompts import open_prompt  # noqa: E402
from engine.service import CampaignService  # noqa: E402
from engine.store import Store  # noqa: E402
from render import battlemap  # noqa: E402

if not Path(render.__file__).resolve().is_relative_to(CODE):
    raise SystemExit(f"the bench meant to run the code in {CODE} but imported {render.__file__}")

GOAL_MS = 50.0
GOAL_LINE = "Goal on a 2-core machine: whole turn with map render under 50 ms at p99"
DAYS_GOAL_LINE = "Goal on a 2-core machine: whole action of a day with its pictures under 50 ms at p99"
# starting lines whose form can target an enemy: light, heavy, ranged, magic
LINES = ("one-hand-and-shield", "two-handed", "bow", "destruction-staff")
NAMES = ("Shannon", "Ryan", "Ilsa", "Doran", "Mirel", "Tavi", "Quill", "Brann")
TURN_KINDS = ("battle start", "move", "engage", "resolve", "endturn", "battle prevent", "battle stay", "explore",
              "battle choose", "lockpick")
DELVE = "brinehollow-caves"  # --delve: the delve every channel plays (grown past 8 tiles: see Bench.__init__)
GROWN = 8  # a delve with this many tiles or more counts as grown
MAX_REFUSED_IN_A_ROW = 6
DAYS = 6  # --days without a number: the days each channel plays
PROVINCE = "saltmire"  # --days: the province of every campaign's first session
#: --days: the commands of a session of days, in the report's order (the battle's own are TURN_KINDS)
DAY_KINDS = ("day start", "quest guild", "day route", "day agree", "day choose", "day pick", "day check",
             "town visit", "town done", "quest accept", "quest discard", "reward done", "adventurer rest",
             "quest next", "quest assist")
PICTURES = ("map", "delvemap", "overland")  # drawn for each reply (the others too with --all-pictures)
FREE_MOVE_CLASSES = ("acrobat", "rogue")  # Backflip, Slip Away: a free move offered during an enemy's turn


# ------------------------------------------------------------- measuring --
@dataclass
class TurnRec:
    kind: str
    engine: float = 0.0
    commit: float = 0.0
    reads: float = 0.0
    service: float = 0.0
    run: float = 0.0
    render_map: float = 0.0
    render_overland: float = 0.0
    render_other: float = 0.0
    total: float = 0.0
    ok: bool = True
    error: str = ""
    answered: str = ""  # the kind of question this command answered ("roll", "prevent", "move", "lockpick")
    tiles: int = -1  # a delve's placed tiles after the turn (-1: not a delve)
    day: tuple | None = None  # --days: the day the command belongs to (campaign, session, day)


_turn: contextvars.ContextVar[TurnRec | None] = contextvars.ContextVar("bench_turn", default=None)
_campaign_rng: contextvars.ContextVar[random.Random | None] = contextvars.ContextVar("bench_rng", default=None)


def _add(attr: str, seconds: float) -> None:
    rec = _turn.get()
    if rec is not None:
        setattr(rec, attr, getattr(rec, attr) + seconds)


class BenchStore(Store):
    """The real store, with its calls timed into the current turn."""

    async def commit(self, **kwargs):
        t = time.perf_counter()
        try:
            return await super().commit(**kwargs)
        finally:
            _add("commit", time.perf_counter() - t)

    async def load_active(self, channel_id):
        t = time.perf_counter()
        try:
            return await super().load_active(channel_id)
        finally:
            _add("reads", time.perf_counter() - t)

    async def next_seq(self, campaign_id):
        t = time.perf_counter()
        try:
            return await super().next_seq(campaign_id)
        finally:
            _add("reads", time.perf_counter() - t)


class BenchService(CampaignService):
    """The real service, timed; remembers each channel's latest state so the bench's
    players can decide their next command without reading the database."""

    def __init__(self, store: Store):
        super().__init__(store)
        self.latest: dict[str, Any] = {}

    async def execute(self, channel_id, action, **kwargs):
        t = time.perf_counter()
        try:
            out = await super().execute(channel_id, action, **kwargs)
        finally:
            _add("service", time.perf_counter() - t)
        self.latest[str(channel_id)] = out.state
        return out


from engine.actions import ActionTable  # noqa: E402

_real_execute = ActionTable.execute  # every ruleset's check + apply, wherever the service runs it


def _timed_execute(*args, **kwargs):
    t = time.perf_counter()
    try:
        return _real_execute(*args, **kwargs)
    finally:
        _add("engine", time.perf_counter() - t)


class _SeededRandom:
    """Stands in for the ``random`` module inside commands.campaign during the run, so each
    campaign's dice seed comes from --seed and a run can be repeated turn for turn."""

    @staticmethod
    def SystemRandom():  # noqa: N802 - mirrors random.SystemRandom
        return _campaign_rng.get() or random.SystemRandom()


class Profiler:
    """cProfile of the event-loop thread plus every render in the worker threads."""

    def __init__(self) -> None:
        self.main = cProfile.Profile()
        self.threads: list[cProfile.Profile] = []

    def render(self, kind: str, view: dict) -> bytes:
        p = cProfile.Profile()
        p.enable()
        try:
            return render.render(kind, view)
        finally:
            p.disable()
            self.threads.append(p)

    def report(self, top: int) -> str:
        out = io.StringIO()
        st = pstats.Stats(self.main, *self.threads, stream=out)
        st.strip_dirs()
        out.write(f"\n--- cProfile, all threads, by own time (top {top}) ---\n")
        st.sort_stats("tottime").print_stats(top)
        out.write(f"\n--- cProfile, all threads, by cumulative time (top {top}) ---\n")
        st.sort_stats("cumulative").print_stats(top)
        return out.getvalue()


# --------------------------------------------------------------- the run --
@dataclass
class Config:
    channels: int = 20
    turns: int = 30
    concurrency: int = 4
    seed: int = 1
    think_ms: float = 0.0
    all_pictures: bool = False
    tracemalloc: bool = False
    profile: int = 0  # top N lines; 0 = off
    compare: str | None = None  # a git revision to measure beside this code
    json: str | None = None  # write the headline figures here
    figures: dict = field(default_factory=dict)  # the headline figures, once the run is over
    delve: bool = False  # play a delve instead of the clashes (with --days: take a card's delve choice)
    days: int = 0  # play a session of days: the days each channel plays (0: the battles alone)


@dataclass
class Results:
    turns: list[TurnRec] = field(default_factory=list)
    refused: Counter = field(default_factory=Counter)
    battles_started: int = 0
    battles_ended: Counter = field(default_factory=Counter)
    campaigns: int = 0
    setup_actions: int = 0
    wall: float = 0.0
    cpu: float = 0.0  # user + system CPU seconds of the process (every thread) over the run
    days: list[tuple[float, int]] = field(default_factory=list)  # --days: each day played (seconds, commands)
    sessions: Counter = field(default_factory=Counter)  # --days: how the sessions ended
    campaign_ends: Counter = field(default_factory=Counter)  # --days: campaigns won or lost (then a new one)
    steps: int = 0  # --days: guild quest steps the parties reached after their first
    stuck: list[str] = field(default_factory=list)  # --days: channels that stopped, with why


class Bench:
    def __init__(self, cfg: Config, table: Table, service: BenchService, results: Results,
                 profiler: Profiler | None):
        self.cfg = cfg
        self.table = table
        self.service = service
        self.res = results
        self.profiler = profiler
        self.pack = load_pack("starter")
        self.encounters = [k for k, e in self.pack.encounters.items() if e.mode == "clash"]
        if cfg.delve and not cfg.days:
            # the delve keeps growing: more skyshards to find than its tiles hold (the loaded pack, for this run)
            from dataclasses import replace

            self.pack.encounters[DELVE] = replace(self.pack.encounters[DELVE], skyshards=9)
            self.encounters = [DELVE]
        self.races = sorted(self.pack.races)

    # ---- plumbing -----------------------------------------------------
    async def setup_cmd(self, channel: str, user: str, name: str, options: dict | None = None, *,
                        must: bool = True):
        """An untimed command (campaign setup, class choice); by default it must succeed."""
        reply = await self.table.run(self.table.invocation(user, channel, "bench-guild", f"p{user}"), name, options)
        if reply.error and must:
            raise RuntimeError(f"setup command /{name} {options} in channel {channel} failed: {reply.content}")
        self.res.setup_actions += 1
        return reply

    async def turn(self, channel: str, user: str, name: str, options: dict | None = None,
                   answered: str = "") -> TurnRec:
        """One timed turn: the command as the bot runs it, then its map picture."""
        rec = TurnRec(kind=name, answered=answered)
        token = _turn.set(rec)
        try:
            inv = self.table.invocation(user, channel, "bench-guild", f"p{user}")
            t0 = time.perf_counter()
            reply = await self.table.run(inv, name, options)
            t1 = time.perf_counter()
            draw = self.profiler.render if self.profiler else render.render
            for pic in reply.pictures:
                if pic.kind not in PICTURES and not self.cfg.all_pictures:
                    continue
                t = time.perf_counter()
                await asyncio.to_thread(draw, pic.kind, pic.view)
                spent = time.perf_counter() - t
                if pic.kind in ("map", "delvemap"):
                    rec.render_map += spent
                elif pic.kind == "overland":
                    rec.render_overland += spent
                else:
                    rec.render_other += spent
            t2 = time.perf_counter()
        finally:
            _turn.reset(token)
        rec.run, rec.total = t1 - t0, t2 - t0
        rec.ok = not reply.error
        latest = self.service.latest.get(channel)
        if latest is not None and latest.battle is not None and latest.battle.delve is not None:
            rec.tiles = len(latest.battle.delve.numbers)
        if rec.ok:
            self.res.turns.append(rec)
        else:
            rec.error = reply.content.split("\n")[0][:90]
            self.res.refused[f"/{name}: {rec.error}"] += 1
        return rec

    # ---- a channel ----------------------------------------------------
    async def open_party(self, channel: str, users: list[str], rng: random.Random, number: int) -> None:
        await self.setup_cmd(channel, users[0], "campaign new", {"name": f"Bench {channel}-{number}"})
        self.res.campaigns += 1
        names = rng.sample(NAMES, len(users))
        lines = rng.sample(LINES, len(users))  # each starting line's token only once per party
        races = rng.sample(self.races * 2, len(users))  # two sheets of each race
        classes = FREE_MOVE_CLASSES + (None,) * 4
        if self.cfg.days:  # a session of days has no class reward to wait for: every adventurer has a class
            classes = FREE_MOVE_CLASSES + tuple(rng.sample([k for k in sorted(self.pack.classes)
                                                            if k not in FREE_MOVE_CLASSES], 2))
        for user, name, line, race, klass in zip(users, names, lines, races, classes):
            await self.setup_cmd(channel, user, "adventurer create", {"name": name, "race": race, "line": line}
                                 | ({"class": klass} if klass else {}))
        # the second player is asked about prevention (and guards), as a careful player sets it
        await self.setup_cmd(channel, users[1], "battle prevention", {"mode": "ask"})

    async def play_channel(self, index: int) -> None:
        cfg = self.cfg
        rng = random.Random(f"{cfg.seed}:{index}")
        _campaign_rng.set(random.Random(f"{cfg.seed}:{index}:dice"))
        channel = str(900_000 + index)
        users = [str(100_000 + index * 10 + k) for k in range(rng.randint(2, 4))]
        leader = users[0]
        campaigns = 1
        await self.open_party(channel, users, rng, campaigns)
        next_encounter = rng.randrange(len(self.encounters))
        done = refused_in_a_row = 0
        in_battle = False  # a battle this loop started (or saw) is going on
        while done < cfg.turns:
            state = self.service.latest[channel]
            if state.battle is None:
                if in_battle:
                    last = state.last_battle
                    self.res.battles_ended[last.outcome if last else "?"] += 1
                    in_battle = False
                for owner, ids in list(state.class_rewards.items()):
                    adv = state.adventurers.get(owner)
                    if ids and adv is not None and not adv.class_id:
                        # the first reward whose class sheet nobody in the party holds yet; the classes whose
                        # interrupts offer a free move during an enemy's turn first, so those questions come up
                        for klass in sorted(ids, key=lambda k: k not in FREE_MOVE_CLASSES):
                            if not (await self.setup_cmd(channel, owner, "battle class", {"class": klass},
                                                         must=False)).error:
                                break
                state = self.service.latest[channel]
                if any(a.hp <= 0 for a in state.adventurers.values()):
                    # nobody heals between clashes outside the Jailbreak: a new campaign instead
                    await self.setup_cmd(channel, leader, "campaign end", {"confirm": True})
                    campaigns += 1
                    await self.open_party(channel, users, rng, campaigns)
                    continue
                encounter = self.encounters[next_encounter % len(self.encounters)]
                next_encounter += 1
                start = {"encounter": encounter} | ({"ep": 1} if cfg.delve else {})  # a delve: 1 level 1 a tile
                rec = await self.turn(channel, leader, "battle start", start)
                if rec.ok:
                    self.res.battles_started += 1
                    in_battle = True
                    done += 1
                    refused_in_a_row = 0
                else:
                    refused_in_a_row += 1
            else:
                in_battle = True
                user, name, options = decide(state, self.pack)
                asked = open_prompt(state)
                rec = await self.turn(channel, user, name, options, asked.kind if asked else "")
                if rec.ok:
                    done += 1
                    refused_in_a_row = 0
                else:
                    refused_in_a_row += 1
                    if name != "endturn":
                        rec = await self.turn(channel, user, "endturn")
                        done += rec.ok
            if refused_in_a_row >= MAX_REFUSED_IN_A_ROW:
                raise RuntimeError(f"channel {channel} is stuck; last refusal: {rec.error}")
            if cfg.think_ms > 0:
                await asyncio.sleep(rng.uniform(0, 2 * cfg.think_ms) / 1000)

    async def play_days(self, index: int) -> None:
        """--days: the channel's party plays a session of days in the Saltmire, every question answered with the
        command its post names (``day_players.decide_day``), a card's battle with the battle player (``decide``).
        A session won goes on to the next (``/quest next``, ``/day start``); a campaign won or lost is ended and
        a new one opened.  Stops after ``--days`` days (or ``--turns`` commands, when given)."""
        from day_players import decide_day

        cfg = self.cfg
        rng = random.Random(f"{cfg.seed}:{index}")
        _campaign_rng.set(random.Random(f"{cfg.seed}:{index}:dice"))
        channel = str(900_000 + index)
        users = [str(100_000 + index * 10 + k) for k in range(rng.randint(2, 4))]
        leader = users[0]
        campaigns = 1
        await self.open_party(channel, users, rng, campaigns)
        days = timed = refused_in_a_row = 0
        spent: dict[tuple, list] = {}  # the day's commands: [seconds, commands]
        last = ""
        last_ended = None  # the session whose end was counted

        def day_key(state) -> tuple | None:
            s = state.days
            if s is None or s.phase == "over":
                return None
            number = len(state.journal.sessions) if state.journal is not None else 0
            return (campaigns, number, max(1, state.day_dial) if s.phase == "setup" else state.day_dial)

        while days < cfg.days and (not cfg.turns or timed < cfg.turns):
            state = self.service.latest[channel]
            before = day_key(state)
            if before is None and state.days is not None and state.days.ask is not None:
                found = decide_day(state, self.pack, rng, delve=cfg.delve)  # a session won: the next guild quest
                if found is None:
                    self.res.stuck.append(f"channel {channel} (seed {cfg.seed}): the session is over and its "
                                          f"{state.days.ask.kind!r} question has no answer; the last command: {last}")
                    return
                user, name, options, asked = found
            elif before is None:  # no session runs: the next one starts (or, the campaign over, a new campaign)
                j = state.journal
                ended = (campaigns, len(j.sessions) if j is not None else 0)
                if state.days is not None and state.days.phase == "over" and last_ended != ended:
                    last_ended = ended
                    self.res.sessions[state.days.result or "over"] += 1
                if j is not None and j.result in ("won", "lost"):
                    self.res.campaign_ends[j.result] += 1
                    await self.setup_cmd(channel, leader, "campaign end", {"confirm": True})
                    campaigns += 1
                    await self.open_party(channel, users, rng, campaigns)
                    continue
                first = j is None or not j.sessions
                user, name, options, asked = leader, "day start", {"province": PROVINCE} if first else {}, ""
            else:
                try:
                    if state.battle is not None:
                        user, name, options = decide(state, self.pack)
                        prompt = open_prompt(state)
                        found = user, name, options, prompt.kind if prompt else ""
                    else:
                        found = decide_day(state, self.pack, rng, delve=cfg.delve)
                except RuntimeError as exc:  # a question the players cannot answer: the channel stops, said
                    self.res.stuck.append(f"channel {channel} (seed {cfg.seed}): day {state.day_dial}: {exc}; "
                                          f"the last command: {last}")
                    return
                if found is None:
                    self.res.stuck.append(f"channel {channel} (seed {cfg.seed}): day {state.day_dial}, phase "
                                          f"{state.days.phase}, nothing asked and no battle after {last}")
                    return
                user, name, options, asked = found
            step = state.quests.step if state.quests is not None else None
            rec = await self.turn(channel, user, name, options, asked)
            timed += 1
            last = f"/{name} {options}".rstrip(" {}") + (f" (refused: {rec.error})" if not rec.ok else "")
            now = self.service.latest[channel]
            if step and now.quests is not None and now.quests.step not in (None, step):
                self.res.steps += 1
            if state.battle is None and now.battle is not None:
                self.res.battles_started += 1
            elif state.battle is not None and now.battle is None:
                self.res.battles_ended[now.last_battle.outcome if now.last_battle else "?"] += 1
            after = day_key(now)
            rec.day = before or after
            if rec.ok and rec.day is not None:
                day = spent.setdefault(rec.day, [0.0, 0])
                day[0] += rec.total
                day[1] += 1
            if before is not None and after != before:
                days += 1
                self.res.days.append(tuple(spent.pop(before, (0.0, 0))))
            if rec.ok:
                refused_in_a_row = 0
            else:
                refused_in_a_row += 1
                if state.battle is not None and name != "endturn":
                    await self.turn(channel, user, "endturn")
                    timed += 1
            if refused_in_a_row >= MAX_REFUSED_IN_A_ROW:
                self.res.stuck.append(f"channel {channel} (seed {cfg.seed}): day {state.day_dial}, "
                                      f"{MAX_REFUSED_IN_A_ROW} refusals in a row; the last: {last}")
                return
            if cfg.think_ms > 0:
                await asyncio.sleep(rng.uniform(0, 2 * cfg.think_ms) / 1000)

    async def run(self) -> None:
        sem = asyncio.Semaphore(max(1, self.cfg.concurrency))

        async def one(i: int) -> None:
            async with sem:
                await (self.play_days(i) if self.cfg.days else self.play_channel(i))

        t = time.perf_counter()
        c = time.process_time()
        tasks = [asyncio.ensure_future(one(i)) for i in range(self.cfg.channels)]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        self.res.wall = time.perf_counter() - t
        self.res.cpu = time.process_time() - c


# ---------------------------------------------------------- the players --
def decide(state, pack) -> tuple[str, str, dict]:
    """The command the table waits for: (user, command name, options).

    First the question the battle waits on, answered as a player would with the command the post names
    (``engine.prompts.open_prompt``: a roll to resolve, a prevention or guard question, a free move on
    offer, a lockpick check), then the turn's own play."""
    b = state.battle
    prompt = open_prompt(state)
    if prompt is not None:
        return answer(prompt)
    if b.delve is not None:
        found = decide_delve(state, pack)
        if found is not None:
            return found
    return decide_clash(state, pack)


def decide_clash(state, pack) -> tuple[str, str, dict]:
    """A turn's own play in a clash (or a delve's fight): move toward the enemies, engage, end the turn."""
    b = state.battle
    turn = b.turn
    owner = turn.owner
    if b.step != "adventurer" or not owner:
        raise RuntimeError(f"nobody to act and no question open: step {b.step}, turn {turn}")
    if turn.cache is not None:  # just moved onto a cache chip: pick its lock
        return owner, "lockpick", {}
    adv = state.adventurers[owner]
    me = b.units[f"a:{owner}"]
    if not on_map(me):  # fell during their own turn (a delve's trap on the move): the player ends the turn
        return owner, "endturn", {}
    here = Hex(me.q, me.r)
    m = map_info(pack, b)
    statuses = set(names_of(state, me))
    foes = [u for u in b.units.values() if u.side == "enemy" and on_map(u)]
    if not foes:
        return owner, "endturn", {}
    form = adv.battle_form
    if (turn.engages == 0 and turn.moves < 2 and "blind" not in statuses
            and not ("daze" in statuses and turn.moved)):
        dice = usable_dice(adv, pack, form)
        target = pick_target(here, foes, form, adv, m) if dice else None
        if target is not None:
            return owner, "engage", {"target": f"{target.q},{target.r}", "dice": ", ".join(dice)}
    if turn.engages == 0 and turn.moves < 2 and not ("daze" in statuses and turn.rolled):
        dest = cache_in_reach(state, b, here, adv, m, me.id) if turn.moves == 0 else None
        dest = dest or step_toward(here, foes, adv, m, b, me.id)
        if dest is not None:
            return owner, "move", {"to": f"{dest.q},{dest.r}"} | ({"confirm": True} if turn.moves else {})
    return owner, "endturn", {}


_MOVE_TO = re.compile(r"Move to (-?\d+),(-?\d+)")


def answer(prompt) -> tuple[str, str, dict]:
    """A player's answer to the open question, with the command its post offers."""
    if prompt.kind == "prevent":      # prevention, or an ally's guard: the automatic choice
        return prompt.owner, "battle prevent", {"use": "auto"}
    if prompt.kind == "roll":         # resolve every die in rolled order
        return prompt.owner, "resolve", {}
    if prompt.kind == "move":         # a free move on offer: the menu's first hex, else stay
        spot = next((_MOVE_TO.search(o.label) for o in prompt.options if _MOVE_TO.search(o.label)), None)
        if spot is not None:
            return prompt.owner, "move", {"to": f"{spot.group(1)},{spot.group(2)}"}
        return prompt.owner, "battle stay", {}
    if prompt.kind == "lockpick":     # try the attempt, keeping the dice that match
        return prompt.owner, "lockpick", {}
    if prompt.kind == "choice":       # a delve card's choice: its first option
        return prompt.owner, "battle choose", {"option": 1}
    if prompt.kind == "place":        # a revealed tile: where the bot suggests
        return prompt.owner, "explore", {"place": int(prompt.default) if str(prompt.default).isdigit() else 1}
    if prompt.kind == "quest-assist":  # --days: the whole party fell; the guild assist (once a campaign) is called
        return prompt.owner, "quest assist", {"use": "yes"}
    raise RuntimeError(f"the bench does not know how to answer a {prompt.kind!r} question")


def cache_in_reach(state, b, here: Hex, adv, m, my_uid: str) -> Hex | None:
    """A cache chip still on the map that a move this turn reaches (players go for the loot)."""
    left = b.caches if b.caches is not None else {f"{h.q},{h.r}": k for h, k in m.caches.items()}
    blocked = {Hex(u.q, u.r) for u in b.units.values() if on_map(u) and u.id != my_uid}
    best = None
    for key in sorted(left):
        q, r = (int(v) for v in key.split(","))
        spot = Hex(q, r)
        if spot in blocked or spot == here:
            continue
        d = route_distance(here, spot, m.passable)
        if d is not None and d <= adv.stat("stamina") and (best is None or d < best[0]):
            path = toward(here, spot, adv.stat("stamina"), m.passable, blocked)
            if path and path[-1] == spot:
                best = (d, spot)
    return best[1] if best else None


def decide_delve(state, pack) -> tuple[str, str, dict] | None:
    """In a delve: answer a card's choice (its first option), place a tile where it suggests, let a trap's check
    go, explore whenever the rules allow, and walk toward an explorable hex when no enemy is near."""
    from rulesets.tes.battle.delve_map import explorable
    from rulesets.tes.battle.model import Ctx

    b = state.battle
    if b.asking:
        return None
    if b.choices:
        return b.choices[0].owner, "battle choose", {"option": 1}
    ex = b.delve.exploring
    if ex is not None and ex.stage == "place":
        return ex.owner, "explore", {"place": ex.default}
    if b.lockpick is not None:
        return b.lockpick.owner, "lockpick", {"stop": True}
    turn = b.turn
    owner = turn.owner
    if b.step != "adventurer" or not owner or b.pending:
        return None
    if turn.explore_here:
        return owner, "explore", {}
    c = Ctx(state, pack, None)
    me = b.units[f"a:{owner}"]
    if not on_map(me):
        return None
    here = Hex(me.q, me.r)
    open_ = explorable(c)
    stamina = state.adventurers[owner].stat("stamina")
    if open_ and not turn.explored and not turn.moves and not turn.engages:
        for h in open_:
            if c.sight(here, h) and (c.range_to(here, h) or 99) <= stamina:
                return owner, "explore", {"at": f"{h.q},{h.r}"}
    if turn.explored:  # no move action after the explore action: engage if an enemy is in reach, else end
        found = decide_clash(state, pack)
        return found if found[1] != "move" else (owner, "endturn", {})
    if open_ and turn.moves < 2 and not turn.engages:
        blocked = {Hex(u.q, u.r) for u in b.units.values() if on_map(u) and u.id != me.id}
        goal = min(open_, key=lambda h: (c.range_to(here, h) or 99, h.q, h.r))
        path = toward(here, goal, stamina, c.map.passable, blocked)
        if path:  # a second move says yes to giving up the engage (the bot asks first)
            return owner, "move", {"to": f"{path[-1].q},{path[-1].r}"} | ({"confirm": True} if turn.moves else {})
    return None


def usable_dice(adv, pack, form: str) -> list[str]:
    per_stat: Counter = Counter()
    out = []
    for d in adv.available_dice():
        line = pack.lines[adv.dice[d]["line"]]
        ok = form in COMBAT_FORMS if line.id == "combat" else (not line.form or line.form == form)
        if ok and per_stat[line.stat] < adv.stat(line.stat):
            per_stat[line.stat] += 1
            out.append(d)
    return out


def pick_target(here: Hex, foes: list, form: str, adv, m):
    fits = []
    for u in foes:
        th = Hex(u.q, u.r)
        if "stealth" in (u.statuses or []) or not in_sight(here, th, m.tile_of):
            continue
        rng = route_distance(here, th, m.passable)
        if rng is None:
            continue
        if (form in ("light", "heavy") and rng == 1) or (form == "ranged" and 2 <= rng <= adv.stat("stamina")) \
                or (form == "magic" and rng <= adv.stat("magicka")):
            fits.append((u.hp, u.id, u))
    return min(fits, key=lambda x: x[:2])[2] if fits else None


def step_toward(here: Hex, foes: list, adv, m, b, my_uid: str) -> Hex | None:
    blocked = {Hex(u.q, u.r) for u in b.units.values() if on_map(u) and u.id != my_uid}
    best = None
    for u in foes:
        th = Hex(u.q, u.r)
        d = route_distance(here, th, m.passable)
        if d is not None and (best is None or (d, u.id) < best[:2]):
            best = (d, u.id, th)
    if best is None or best[0] <= 1:
        return None
    path = toward(here, best[2], adv.stat("stamina"), m.passable, blocked)
    return path[-1] if path else None


# ------------------------------------------------------------- reporting --
def pct(sorted_ms: list[float], p: float) -> float:
    """Percentile with linear interpolation between closest ranks (like numpy's default)."""
    if not sorted_ms:
        return float("nan")
    k = (len(sorted_ms) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(sorted_ms) - 1)
    return sorted_ms[lo] + (sorted_ms[hi] - sorted_ms[lo]) * (k - lo)


def row(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    if not ms:
        return f"{label:<34} {0:>6}" + "       -" * 6
    return (f"{label:<34} {len(ms):>6} {statistics.fmean(ms):7.2f} {pct(ms, 50):7.2f} {pct(ms, 95):7.2f} "
            f"{pct(ms, 99):7.2f} {ms[-1]:7.2f}")


def rss_mib() -> float:
    """The process's peak RSS.  On Linux from /proc (VmHWM): ``ru_maxrss`` survives exec, so the child of
    ``--compare`` would report its parent's peak when that was higher."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    ru = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return ru / (1024 * 1024) if sys.platform == "darwin" else ru / 1024


def cache_counts(cfg: Config) -> dict[str, int]:
    """The map pictures' static-layer cache counters (a delve's own cache too, with --delve)."""
    out = dict(battlemap.cache_info())
    if cfg.delve:
        from render import delve as delve_pictures

        d = delve_pictures.cache_info()
        out["delve_hits"], out["delve_misses"] = d["hits"], d["misses"]
    return out


def _tail_rows(w, db: Path, cache, mat_cache, growth, rss_before: float, trace_peak, map_name: str,
               days: int = 0) -> float:
    """The memory, database and growth lines both reports print; the peak RSS read."""
    rss_after = rss_mib()
    w(f"memory: peak RSS {rss_after:.1f} MiB (after imports and warm-up {rss_before:.1f} MiB)"
      + (f"; tracemalloc peak {trace_peak / 2**20:.1f} MiB" if trace_peak is not None
         else "; tracemalloc off (--tracemalloc)"))
    size = sum(p.stat().st_size for p in db.parent.glob(db.name + "*") if p.exists())
    w(f"database: {size / 2**20:.2f} MiB (with WAL); {map_name} static-layer cache: {cache['hits']} hits, "
      f"{cache['misses']} misses" + (f"; mat panels: {mat_cache['hits']} pasted, {mat_cache['misses']} drawn"
                                     if mat_cache else "")
      + (f"; delve maps: {cache['delve_hits']} hits, {cache['delve_misses']} misses" if "delve_hits" in cache else ""))
    g = growth
    if g and g["entries"]:
        w(f"database growth per action: {size / g['entries'] / 1024:.2f} KiB of file "
          f"({g['entries']} log entries); log rows {g['log_bytes'] / g['entries']:.0f} B an action, of which "
          f"undo data {g['undo_bytes'] / g['entries']:.0f} B ({g['undo_rows']} rows hold undo data now)"
          + (f"; {size / days / 1024:.1f} KiB a day played" if days else ""))
    return rss_after


def _common_rows(w, res, t, cfg, per: str, stuck=()) -> None:
    """The CPU line, the refusals (and the stuck channels) and the service's rows both reports print."""
    w(f"CPU {res.cpu:.2f} s of the process (every thread, setup included): {res.cpu * 1000 / max(1, len(t)):.1f} ms "
      f"{per} (steadier than the wall clock on a shared machine)")
    for msg, n in res.refused.most_common(5):
        w(f"  refused x{n}: {msg}")
    for why in stuck:
        w(f"  STUCK: {why}")
    if cfg.tracemalloc or cfg.profile:
        w("NOTE: " + " and ".join(x for x, on in (("tracemalloc", cfg.tracemalloc), ("cProfile", cfg.profile)) if on)
          + " on: every time below is inflated; use a plain run for the figures.")
    w()
    w(f"{'figure (ms)':<34} {'n':>6} {'mean':>7} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    w(row("engine per action (rules check+apply)", [r.engine for r in t]))
    w(row("store commit per action", [r.commit for r in t]))
    w(row("store reads per action", [r.reads for r in t]))
    w(row("service per action (execute)", [r.service for r in t]))
    w(row("  service rest (state copy, locks)", [r.service - r.engine - r.commit - r.reads for r in t]))
    w(row("command layer (Table.run)", [r.run for r in t]))
    w(row("  views (Table.run - service)", [r.run - r.service for r in t]))


def report(cfg: Config, res: Results, db: Path, rss_before: float, trace_peak: int | None,
           cache: dict, growth: dict | None = None, mat_cache: dict | None = None) -> str:
    t = res.turns
    out = io.StringIO()
    w = lambda s="": out.write(s + "\n")  # noqa: E731
    kinds = Counter(r.kind for r in t)
    w(f"Hexpost turn bench{' (a delve)' if cfg.delve else ''}: {cfg.channels} channels x {cfg.turns} turns, "
      f"concurrency {cfg.concurrency}, "
      f"seed {cfg.seed}, think {cfg.think_ms:g} ms" + (", all pictures" if cfg.all_pictures else ""))
    w(f"machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, SQLite file (WAL) in a temp dir")
    w(f"played: {len(t)} turns (" + ", ".join(f"{k} {kinds[k]}" for k in TURN_KINDS if kinds[k]) + f"); "
      f"{res.battles_started} battles started, ended: "
      + (", ".join(f"{k} {v}" for k, v in sorted(res.battles_ended.items())) or "none")
      + f"; {res.campaigns} campaigns, {res.setup_actions} untimed setup actions")
    asked = Counter(r.answered for r in t if r.answered)
    w("questions answered: " + (", ".join(f"{k} {v}" for k, v in sorted(asked.items())) or "none"))
    w(f"wall {res.wall:.2f} s, {len(t) / res.wall if res.wall else 0:.1f} turns/s; "
      f"refused turns: {sum(res.refused.values())} (not in the figures)")
    _common_rows(w, res, t, cfg, "a turn")
    w(row("map render (to_thread)", [r.render_map for r in t if r.render_map]))
    if cfg.all_pictures:
        w(row("other pictures (rolls, mat)", [r.render_other for r in t if r.render_other]))
    w(row("whole turn (run + map render)" if not cfg.all_pictures else "whole turn (run + all pictures)",
          [r.total for r in t]))
    grown = [r for r in t if r.tiles >= GROWN]
    if cfg.delve:
        w(row(f"map render, delve of {GROWN}+ tiles", [r.render_map for r in grown if r.render_map]))
        w(row(f"whole turn, delve of {GROWN}+ tiles", [r.total for r in grown]))
        w(f"  (delve tiles placed at the end of the run: "
          f"{', '.join(str(n) for n in sorted({r.tiles for r in t if r.tiles >= 0})) or 'none'})")
    w()
    w("whole turn by command:")
    for k in TURN_KINDS:
        if kinds[k]:
            w(row(f"  /{k}", [r.total for r in t if r.kind == k]))
    w("engine by command:")
    for k in TURN_KINDS:
        if kinds[k]:
            w(row(f"  /{k}", [r.engine for r in t if r.kind == k]))
    w()
    rss_after = _tail_rows(w, db, cache, mat_cache, growth, rss_before, trace_peak, "map")
    w()
    whole = sorted(r.total * 1000 for r in t)
    p99 = pct(whole, 99)
    verdict = "PASS" if p99 < GOAL_MS else "MISS"
    w(GOAL_LINE)
    w(f"  {verdict}: whole turn p99 {p99:.1f} ms here ({os.cpu_count()} CPUs, concurrency {cfg.concurrency}); "
      "just a report, nothing fails")
    return out.getvalue()


def report_days(cfg: Config, res: Results, db: Path, rss_before: float, trace_peak: int | None,
                cache: dict, growth: dict | None = None, mat_cache: dict | None = None) -> str:
    """--days: the figures of every command of the days (battle turns among them), then of a whole day."""
    t = res.turns
    out = io.StringIO()
    w = lambda s="": out.write(s + "\n")  # noqa: E731
    kinds = Counter(r.kind for r in t)
    order = DAY_KINDS + TURN_KINDS
    w(f"Hexpost day bench{' (delve choices first)' if cfg.delve else ''}: {cfg.channels} channels x {cfg.days} days"
      f" in {PROVINCE}" + (f" (at most {cfg.turns} commands a channel)" if cfg.turns else "")
      + f", concurrency {cfg.concurrency}, seed {cfg.seed}, think {cfg.think_ms:g} ms"
      + (", all pictures" if cfg.all_pictures else ""))
    w(f"machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, SQLite file (WAL) in a temp dir")
    battle = sum(kinds[k] for k in TURN_KINDS)
    w(f"played: {len(t)} commands (" + ", ".join(f"{k} {kinds[k]}" for k in order if kinds[k]) + "); "
      f"{len(res.days)} days, {battle} of the commands in the days' battles ({res.battles_started} battles started, "
      "ended: " + (", ".join(f"{k} {v}" for k, v in sorted(res.battles_ended.items())) or "none") + "); "
      f"{res.steps} quest steps reached after the first; sessions ended: "
      + (", ".join(f"{k} {v}" for k, v in sorted(res.sessions.items())) or "none")
      + f"; {res.campaigns} campaigns (" + (", ".join(f"{v} {k}" for k, v in sorted(res.campaign_ends.items()))
                                           or "none ended") + f"), {res.setup_actions} untimed setup actions")
    asked = Counter(r.answered for r in t if r.answered)
    w("questions answered: " + (", ".join(f"{k} {v}" for k, v in sorted(asked.items())) or "none"))
    w(f"wall {res.wall:.2f} s, {len(t) / res.wall if res.wall else 0:.1f} commands/s (turns/s); "
      f"refused commands: {sum(res.refused.values())} (not in the figures)")
    _common_rows(w, res, t, cfg, "an action", stuck=res.stuck)
    w(row("overland render (to_thread)", [r.render_overland for r in t if r.render_overland]))
    w(row("map render, battles (to_thread)", [r.render_map for r in t if r.render_map]))
    if cfg.all_pictures:
        w(row("other pictures (mat, rolls, journal)", [r.render_other for r in t if r.render_other]))
    w(row("whole action (run + pictures)", [r.total for r in t]))
    day = [r for r in t if r.kind in DAY_KINDS]
    w(row("  the day's commands (no battle)", [r.total for r in day]))
    w(row("  the battles' turns", [r.total for r in t if r.kind in TURN_KINDS]))
    w()
    w("whole action by command:")
    for k in order:
        if kinds[k]:
            w(row(f"  /{k}", [r.total for r in t if r.kind == k]))
    w("engine by command:")
    for k in order:
        if kinds[k]:
            w(row(f"  /{k}", [r.engine for r in t if r.kind == k]))
    w()
    if res.days:
        n = [c for _s, c in res.days]
        w("a whole day, its commands one after another (think time left out):")
        w(row("  whole day (sum of its actions)", [s for s, _c in res.days]))
        w(f"  commands a day: mean {statistics.fmean(n):.1f}, max {max(n)}")
        w()
    rss_after = _tail_rows(w, db, cache, mat_cache, growth, rss_before, trace_peak, "battle map",
                           days=len(res.days))
    w()
    whole = sorted(r.total * 1000 for r in t)
    p99 = pct(whole, 99)
    verdict = "PASS" if p99 < GOAL_MS else "MISS"
    w(DAYS_GOAL_LINE)
    w(f"  {verdict}: whole action p99 {p99:.1f} ms here ({os.cpu_count()} CPUs, concurrency {cfg.concurrency}); "
      "just a report, nothing fails")
    return out.getvalue()


def figures(cfg: Config, res: Results) -> dict[str, Any]:
    """The headline figures, for ``--json`` and ``--compare``."""
    t = res.turns

    def ms(xs):
        xs = sorted(x * 1000 for x in xs)
        return {"n": len(xs), "p50": pct(xs, 50), "p95": pct(xs, 95), "p99": pct(xs, 99),
                "mean": statistics.fmean(xs) if xs else float("nan")}

    kinds = Counter(r.kind for r in t)
    days = {}
    if cfg.days:
        days = {"days": len(res.days), "whole_day": ms([s for s, _c in res.days]),
                "overland_render": ms([r.render_overland for r in t if r.render_overland]),
                "sessions": dict(res.sessions), "stuck": list(res.stuck), "days_per_channel": cfg.days}
    return days | {
            "turns": len(t), "turns_per_s": len(t) / res.wall if res.wall else 0.0, "wall_s": res.wall,
            "cpu_ms_per_turn": res.cpu * 1000 / max(1, len(t)),
            "refused": sum(res.refused.values()), "battles": res.battles_started,
            "played": {k: kinds[k] for k in (DAY_KINDS if cfg.days else ()) + TURN_KINDS if kinds[k]},
            "answered": dict(Counter(r.answered for r in t if r.answered)),
            "whole_turn": ms([r.total for r in t]), "engine": ms([r.engine for r in t]),
            "map_render": ms([r.render_map for r in t if r.render_map]), "peak_rss_mib": rss_mib(),
            "concurrency": cfg.concurrency, "channels": cfg.channels, "turns_per_channel": cfg.turns}


def compare_text(rev: str, mine: dict, theirs: dict | None, error: str = "") -> str:
    """This code's headline figures beside those of revision ``rev``, measured in the same run."""
    out = io.StringIO()
    w = lambda s="": out.write(s + "\n")  # noqa: E731
    w()
    w(f"Compared with {rev} (the same players and seed, run right after in a child process)")
    if theirs is None:
        w(f"  {rev} could not be measured: {error}")
        return out.getvalue()
    days = "days" in mine  # --days: commands of a session of days (battle turns among them)
    w(f"{'figure':<34} {'this code':>12} {rev[:12]:>12}")
    w(f"{'commands/s' if days else 'turns/s':<34} {mine['turns_per_s']:>12.1f} {theirs['turns_per_s']:>12.1f}")
    if "cpu_ms_per_turn" in mine and "cpu_ms_per_turn" in theirs:
        label = "CPU per action (ms, all threads)" if days else "CPU per turn (ms, all threads)"
        w(f"{label:<34} {mine['cpu_ms_per_turn']:>12.1f} {theirs['cpu_ms_per_turn']:>12.1f}")
    rows = (("whole_turn", "whole action" if days else "whole turn"), ("map_render", "map render"),
            ("engine", "engine"))
    if days:
        rows += (("overland_render", "overland render"), ("whole_day", "whole day"))
    for key, label in rows:
        if key not in mine or key not in theirs:
            continue
        for p in ("p50", "p99"):
            w(f"{label + ' ' + p + ' (ms)':<34} {mine[key][p]:>12.2f} {theirs[key][p]:>12.2f}")
    if "peak_rss_mib" in mine and "peak_rss_mib" in theirs:
        w(f"{'peak RSS (MiB)':<34} {mine['peak_rss_mib']:>12.1f} {theirs['peak_rss_mib']:>12.1f}")
    w(f"{'commands timed (refused)' if days else 'turns timed (refused)':<34} {mine['turns']:>8} ({mine['refused']}) "
      f"{theirs['turns']:>8} ({theirs['refused']})")
    if days and "days" in theirs:
        w(f"{'days played':<34} {mine['days']:>12} {theirs['days']:>12}")
    if mine["played"] != theirs["played"]:
        w("  the two played different games (the rules or their answers differ): compare throughput and "
          "render figures, not turn for turn")
    return out.getvalue()


def run_compare(rev: str, argv: list[str]) -> tuple[dict | None, str]:
    """Check ``rev`` out in a temporary git worktree and run this bench against its code there."""
    import json
    import shutil
    import subprocess

    tmp = Path(tempfile.mkdtemp(prefix="hexpost-bench-compare-"))
    tree = tmp / "code"
    try:
        made = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                              capture_output=True, text=True)
        if made.returncode != 0:
            return None, made.stderr.strip().splitlines()[-1] if made.stderr.strip() else "git worktree failed"
        out = tmp / "figures.json"
        child = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--code-root", str(tree),
                                "--json", str(out)], capture_output=True, text=True)
        if child.returncode != 0 or not out.exists():
            last = (child.stderr.strip() or child.stdout.strip()).splitlines()[-1:] or ["no output"]
            return None, last[0]
        return json.loads(out.read_text()), ""
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


# ------------------------------------------------------------------ main --
def parse_args(argv: list[str] | None) -> Config:
    ap = argparse.ArgumentParser(description="Hexpost whole-turn benchmark (see bench/README.md).")
    ap.add_argument("--channels", type=int, default=20, help="channels (campaigns) to play (default 20)")
    ap.add_argument("--turns", type=int, default=None,
                    help="timed battle turns per channel (default 30; with --delve 80, so that delves grow past "
                         f"{GROWN} tiles before their parties fall)")
    ap.add_argument("--concurrency", type=int, default=4,
                    help="channels played at the same time with asyncio.gather (default 4)")
    ap.add_argument("--seed", type=int, default=1, help="seed for parties, encounters and campaign dice (default 1)")
    ap.add_argument("--think-ms", type=float, default=0.0,
                    help="mean pause between a channel's turns, uniform 0..2x (default 0: back to back)")
    ap.add_argument("--all-pictures", action="store_true",
                    help="also render the roll and mat pictures of each reply (the bot sends them too)")
    ap.add_argument("--tracemalloc", action="store_true", help="report the tracemalloc peak (slows everything)")
    ap.add_argument("--profile", type=int, nargs="?", const=25, default=0, metavar="N",
                    help="cProfile the run (event loop and render threads) and print the top N (default 25)")
    ap.add_argument("--compare", metavar="REV",
                    help="also run the same players against git revision REV's code (a temporary worktree) and "
                         "print its figures beside these")
    ap.add_argument("--json", metavar="FILE", help="also write the headline figures to FILE as JSON")
    ap.add_argument("--code-root", help=argparse.SUPPRESS)  # the tree whose code runs (read before the imports)
    ap.add_argument("--delve", action="store_true",
                    help=f"every channel plays a delve ({DELVE}) that grows past {GROWN} tiles instead of the clashes "
                         "(with --days: the players take a card's choice that goes down into a delve)")
    ap.add_argument("--days", type=int, nargs="?", const=DAYS, default=0, metavar="N",
                    help=f"every channel plays a session of days in the Saltmire instead of the clashes: N days each "
                         f"(default {DAYS}); --turns then caps the commands a channel sends")
    a = ap.parse_args(argv)
    if a.turns is None:
        a.turns = 0 if a.days else 80 if a.delve else 30
    elif a.turns < 1:
        ap.error("--turns must be at least 1")
    if a.channels < 1 or a.concurrency < 1 or a.days < 0:
        ap.error("--channels and --concurrency must be at least 1, --days at least 0")
    return Config(a.channels, a.turns, a.concurrency, a.seed, a.think_ms, a.all_pictures, a.tracemalloc, a.profile,
                  a.compare, a.json, delve=a.delve, days=a.days)


def db_growth(db: Path) -> dict:
    """What the action log holds: entries, bytes of its rows, and bytes of undo data among them."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        cols = {r[1] for r in con.execute("PRAGMA table_info(action_log)")}
        undo = " + ".join(f"COALESCE(LENGTH({c}), 0)" for c in ("state_before", "undo_patch") if c in cols)
        entries, log_bytes, undo_bytes, undo_rows = con.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(action) + LENGTH(dice) + LENGTH(events) + " + undo + "), 0),"
            " COALESCE(SUM(" + undo + "), 0), COALESCE(SUM((" + undo + ") > 0), 0) FROM action_log").fetchone()
    finally:
        con.close()
    return {"entries": entries, "log_bytes": log_bytes, "undo_bytes": undo_bytes, "undo_rows": undo_rows}


def warm_up() -> None:
    """Pay the one-off costs a running bot has already paid: the pack and the fonts."""
    from render.samples import battle_mat_view, example_map_view, example_roll_view

    load_pack("starter")
    render.render("map", example_map_view())
    if (CODE / "render" / "overland.py").exists():  # the overland map (a revision before the days has none)
        from render import overland
        from render.samples import example_overland_view

        render.render("overland", example_overland_view())
        overland.clear_cache()
    render.render("mat", battle_mat_view())
    render.render("roll", example_roll_view())
    battlemap.clear_cache()
    clear = getattr(getattr(render, "mat", None), "clear_cache", None)
    if clear is not None and "palette" in clear.__code__.co_varnames:
        clear(palette=False)  # the mat's panels too, so that their misses are real (its palette stays, like fonts)
    if (CODE / "render" / "delve.py").exists():  # a revision before the delve pictures has none to clear
        from render import delve as delve_pictures

        delve_pictures.clear_cache()


async def run_bench(cfg: Config) -> str:
    warm_up()
    rss_before = rss_mib()
    res = Results()
    profiler = Profiler() if cfg.profile else None
    with tempfile.TemporaryDirectory(prefix="hexpost-bench-") as tmp:
        db = Path(tmp) / "bench.db"
        store = await BenchStore.open(db)
        saved_random = _handlers.random
        ActionTable.execute = _timed_execute
        _handlers.random = _SeededRandom
        trace_peak = None
        try:
            service = BenchService(store)
            bench = Bench(cfg, Table(service), service, res, profiler)
            if cfg.tracemalloc:
                tracemalloc.start()
            if profiler:
                profiler.main.enable()
            try:
                await bench.run()
            finally:
                if profiler:
                    profiler.main.disable()
                if cfg.tracemalloc:
                    trace_peak = tracemalloc.get_traced_memory()[1]
                    tracemalloc.stop()
            growth = db_growth(db)
            mat_info = getattr(getattr(render, "mat", None), "cache_info", None)  # the mat's panels (not before)
            text = (report_days if cfg.days else report)(cfg, res, db, rss_before, trace_peak, cache_counts(cfg),
                                                         growth, mat_info() if mat_info else None)
            cfg.figures = figures(cfg, res)
        finally:
            ActionTable.execute = _real_execute
            _handlers.random = saved_random
            await store.close()
    if profiler:
        text += profiler.report(cfg.profile)
    return text


def main(argv: list[str] | None = None) -> int:
    import json

    argv = list(sys.argv[1:] if argv is None else argv)
    cfg = parse_args(argv)
    print(asyncio.run(run_bench(cfg)), end="", flush=True)
    if cfg.json:
        Path(cfg.json).write_text(json.dumps(cfg.figures, indent=1))
    if cfg.compare:
        rest, skip = [], False
        for a in argv:  # the same options, without the comparison itself
            if skip:
                skip = False
                continue
            if a in ("--compare", "--json", "--code-root"):
                skip = True
                continue
            if not a.startswith(("--compare=", "--json=", "--code-root=")):
                rest.append(a)
        theirs, error = run_compare(cfg.compare, rest)
        print(compare_text(cfg.compare, cfg.figures, theirs, error), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
