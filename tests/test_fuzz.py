"""Fuzz: hostile options at every command and junk at every button never break the bot.

For each input: no unhandled exception, never the generic "Something went wrong
on our side" (every bad input gets a specific message), a refusal changes
nothing (state, version and log count), and the message is non-empty and says
what to do.  Run with ``-s`` to see how many inputs were tried.
"""
from __future__ import annotations

import asyncio
import itertools
import logging

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commands.core import COMMANDS, Table
from engine.core import Action
from engine.service import CampaignService
from engine.store import Store

Table(None)  # registers every command module, as the bot does at start

LEAD, MEMBER, OUTSIDER = "1001", "1002", "1003"
GENERIC = "Something went wrong"
# A refusal names the fix: one of these words (or a command in backticks) must appear.
GUIDANCE = ("`/", "use ", "choose", "give", "try", "must", "keep", "only", "start", "write", "confirm", "pick",
            "ask", "attach", "leave", "wait", "create", "see ", "run ", "can't", "cannot", "is not", "no longer",
            "out of date", "already", "there is no", "from ", "between", "join", "name ", "has no", "does not",
            "is full", "are taken", "is taken", "needs", "one of", "too long", "whole number", "yes or no",
            "is required", "not in this party", "another channel", "at most", "your dice:", "items carried:")

NASTY = [
    "", " ", "9Z", "0L", "6R", "2X", "row 99 left", "-1", "0", "999999999999999999999", "1e9", "NaN", "3.5",
    "@everyone", "@here", "<@123>", "<@!123>", "<@&456>", "<#789>", "**bold**", "`code`", "```x```", "||spoiler||",
    "[link](https://example.com)", "\u200b", "a\u200bb", "\u202eevil", "\x00", "\n\n", "\t", "😀" * 5,
    "Ω" * 40, "x" * 199, "x" * 201, "x" * 5000, "dark-elf", "argonian", "bow", "destruction-staff",
    "one-hand-and-shield", "two-handed", "nightblade", "light", "magic", "yes", "no", "true", "starter",
    "../../etc/passwd", "/etc/hosts", "C:\\Windows", "'; DROP TABLE campaigns; --", "%s%s%n", "{0}", "${x}",
    "d6", "3d6+2", "999d999", "1d0", "((((((((((1))))))))))", "unstable", LEAD, MEMBER, OUTSIDER, "1001 1002",
    "hx:end:100:", "None", "null", "[]", "{}",
]
values = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=150, max_size=260),
    st.integers(min_value=-10**12, max_value=10**12),
    st.booleans(),
)
option_names = sorted({o.name for c in COMMANDS.values() for o in c.options} | {o.key for c in COMMANDS.values()
                                                                               for o in c.options})
names = st.one_of(
    st.sampled_from(sorted(COMMANDS)),
    st.sampled_from(sorted(COMMANDS)),
    st.sampled_from(["", "campaign", "campaign nuke", "adventurer", "ADVENTURER CREATE", "roll ", "@everyone",
                     "x" * 300, "help me", "undo undo"]),
    st.text(max_size=30),
)
users = st.sampled_from([LEAD, MEMBER, OUTSIDER, "0", "<@1001>"])
channels = st.sampled_from(["fuzz", "empty"])  # "fuzz" is replaced by the example's own campaign channel

kinds = ["cancel", "end", "undo", "retire", "leave", "mat", "log", "roll", "prv", "nope", "x" * 30]
click_ids = st.one_of(
    st.text(max_size=120),
    st.builds(lambda k, ch, arg: f"hx:{k}:{ch}:{arg}", st.sampled_from(kinds), st.sampled_from(["CH", "other", ""]),
              st.one_of(st.sampled_from(["", "0", "-1", "1", "99999999999999999999", LEAD, MEMBER, OUTSIDER,
                                         "end", "1,2", "a:b"]),
                        st.text(alphabet="abcxyz0123456789_.:,-", max_size=80))),
)


def says_what_to_do(message: str) -> bool:
    low = message.lower()
    return len(message) >= 12 and any(g in low for g in GUIDANCE)


class Rig:
    """A store, a table and a fresh campaign per example (leader with an adventurer, one member)."""

    def __init__(self, loop, path):
        self.loop = loop
        self.store = loop.run_until_complete(Store.open(path))
        self.table = Table(CampaignService(self.store))
        self.counter = itertools.count()
        self.tried = 0
        self.refused = 0
        self.vague: dict[str, str] = {}  # refusals that do not say what to do -> the input that got one

    def run(self, coro):
        return self.loop.run_until_complete(coro)

    async def fresh_campaign(self) -> str:
        ch = f"fz{next(self.counter)}"
        svc = self.table.service
        await svc.execute(ch, Action("campaign.new", LEAD, {"name": "Fuzz", "channel_id": ch, "guild_id": "1",
                                                          "seed": 7}))
        await svc.execute(ch, Action("campaign.join", MEMBER))
        await svc.execute(ch, Action("adventurer.create", LEAD, {"name": "Vilya", "race": "dark-elf",
                                                                 "line": "destruction-staff"}))
        return ch

    async def snapshot(self, ch: str):
        stored = await self.store.load_active(ch)
        if stored is None:
            return None
        return stored.version, stored.state, await self.store.log_count(stored.id)

    async def check(self, ch: str, call, what: str):
        before = await self.snapshot(ch)
        reply = await call
        self.tried += 1
        text = reply.as_text()
        assert GENERIC not in text, f"{what} -> {text}"
        if reply.error:
            self.refused += 1
            assert reply.content.strip(), what
            if not says_what_to_do(reply.content):
                self.vague.setdefault(reply.content, what)
            assert await self.snapshot(ch) == before, f"{what} was refused but changed the campaign"
        else:
            assert text.strip() or reply.files or reply.pictures, f"{what} -> empty reply"
        return reply


def test_fuzz_every_command_with_hostile_options(tmp_path, caplog):
    loop = asyncio.new_event_loop()
    rig = Rig(loop, tmp_path / "fuzz.db")
    try:
        fuzz_with(rig, caplog)
    finally:
        rig.run(rig.store.close())  # an open aiosqlite thread would keep the test process alive
        loop.close()
    assert not [r for r in caplog.records if r.name == "hexpost.commands"], "a command logged an unexpected error"
    assert not rig.vague, "refusals that do not say what to do:\n" + "\n".join(
        f"{msg!r}  <- {what}" for msg, what in rig.vague.items())
    print(f"fuzz: {rig.tried} inputs tried ({rig.refused} refused with a specific message), "
          f"{len(COMMANDS)} commands")
    assert rig.tried >= 1500


def fuzz_with(rig, caplog):
    caplog.set_level(logging.ERROR, logger="hexpost.commands")

    @settings(max_examples=1200, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(name=names, user=users, channel=channels, local=st.booleans(), data=st.data())
    def one(name, user, channel, local, data):
        cmd = COMMANDS.get(name)
        own = sorted({o.name for o in cmd.options}) if cmd and cmd.options else []
        if own and data.draw(st.integers(0, 4)):  # mostly the command's own options, with hostile values
            keys = st.sampled_from(own)
        else:
            keys = st.one_of(st.sampled_from(option_names), st.text(max_size=12))
        opts = data.draw(st.dictionaries(keys, values, max_size=6))

        async def go():
            ch = await rig.fresh_campaign() if channel == "fuzz" else "empty"
            inv = rig.table.invocation(user, ch, "1", user)
            inv.local = local
            cmd = COMMANDS.get(name)
            if cmd is not None and cmd.name in ("campaign import",) and local:
                opts.pop("file", None)  # never read arbitrary host paths from the fuzzer
            return await rig.check(ch, rig.table.run(inv, name, dict(opts)), f"/{name} {opts!r} by {user} in {ch}")

        rig.run(go())

    one()

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(custom_id=click_ids, user=users, values=st.lists(st.text(max_size=20), max_size=3))
    def click(custom_id, user, values):
        async def go():
            ch = await rig.fresh_campaign()
            cid = custom_id.replace(":CH:", f":{ch}:")
            inv = rig.table.invocation(user, ch, "1", user)
            return await rig.check(ch, rig.table.click(inv, cid, values), f"click {cid!r} by {user}")

        rig.run(go())

    click()


# ------------------------------------------------------------------ every option of every command --
# Generated from the declarations: a command declared later is swept with no change here.
HOSTILE = {
    "str": ["", " ", "zz", "1", "1,2,3", ",", "-", "=", "3=", "=2", "9=9", "0", "-1", "99,99", "1,2 1,2",
            "1;2", "auto,none", "none none", "2 2 2 2 2 2", "1,1,1,1,1,1,1,1,1,1,1,1", "d0", "1d0", "0d6",
            "999d999", "1/0", "@everyone", "<@&456>", "**bold**", "`code`", "[x](https://example.com)",
            "\u202eevil", "\x00", "😀" * 5, "x" * 199, "x" * 201, "../../etc/passwd", "{0}", "%s", "NaN",
            "inf", "-inf", "1e999", "None", "[]", "{}", "race", "magic", "ready", "unstable", LEAD, OUTSIDER],
    "int": ["", "x", "1.5", "NaN", "1e3", "-0", "99999999999999999999999", -10**12, -1, 0, 1, 3, 4, 5, 13, 99,
            400, 401, 10**12],
    "bool": ["", "maybe", "2", "-1", "yes", "no", True, False],
    "user": ["", "0", OUTSIDER, "<@123>", "<@!1003>", "<@&456>", "@everyone", "x" * 40, "a b", MEMBER, LEAD],
}


def kind(opt) -> str:
    return "user" if opt.user else ("str" if opt.attachment else opt.type.__name__)


def filler(opt):
    """A plain value for the options not under test (required ones must be there)."""
    if opt.choices:
        return opt.choices[0]
    if opt.user:
        return LEAD
    if opt.type is int:
        return opt.min if opt.min is not None else 1
    if opt.type is bool:
        return True
    return "1"


class Sweep(Rig):
    """One campaign per context, made again only after an input was accepted (it may have changed it)."""

    def __init__(self, loop, path):
        super().__init__(loop, path)
        self.channels: dict[str, str] = {}

    async def context(self, battle: bool) -> str:
        key = "battle" if battle else "camp"
        if key not in self.channels:
            ch = await self.fresh_campaign()
            svc = self.table.service
            await svc.execute(ch, Action("adventurer.create", MEMBER, {"name": "Ryan", "race": "nord",
                                                                      "line": "destruction-staff"}))
            if battle:
                await svc.execute(ch, Action("battle.start", LEAD, {"encounter": "jailbreak"}))
            self.channels[key] = ch
        return self.channels[key]

    async def fillers(self, cmd, battle: bool) -> dict:
        """Plain values for the required options; an option with suggestions takes the first one offered."""
        ch = await self.context(battle)
        out = {}
        for o in cmd.options:
            if o.required:
                out[o.name] = filler(o)
                if o.autocomplete:
                    inv = self.table.invocation(LEAD, ch, "1", LEAD)
                    offered = await self.table.autocomplete(inv, cmd.name, o.name, "")
                    out[o.name] = offered[0][1] if offered else out[o.name]
        return out

    async def one(self, cmd, opts: dict, user: str, battle: bool, what: str) -> None:
        ch = await self.context(battle)
        inv = self.table.invocation(user, ch, "1", user)
        if any(o.attachment for o in cmd.options):
            inv.attach("file", b'{"format": "hexpost-campaign", "log": [1, 2]}')
        before = await self.snapshot(ch)
        await self.check(ch, self.table.run(inv, cmd.name, dict(opts)), what)
        if await self.snapshot(ch) != before:
            self.channels.pop("battle" if battle else "camp")


def test_every_option_of_every_command_refuses_malformed_values_clearly(tmp_path, caplog):
    """Each option of each declared command gets every hostile value of its type (the others plain), as the
    party leader (who may do most), outside and inside a battle: no generic error, a refusal names the fix and changes
    nothing."""
    caplog.set_level(logging.ERROR, logger="hexpost.commands")
    loop = asyncio.new_event_loop()
    rig = Sweep(loop, tmp_path / "sweep.db")
    covered: set[tuple[str, str]] = set()
    try:
        for name, cmd in sorted(COMMANDS.items()):
            base = {b: rig.run(rig.fillers(cmd, b)) for b in (False, True)}
            for opt in cmd.options:
                for value in HOSTILE[kind(opt)]:
                    for battle in (False, True):
                        user = LEAD
                        opts = base[battle] | {opt.name: value}
                        rig.run(rig.one(cmd, opts, user, battle, f"/{name} {opts!r} by {user} battle={battle}"))
                covered.add((name, opt.name))
            if not cmd.options:
                for battle in (False, True):
                    rig.run(rig.one(cmd, {}, LEAD, battle, f"/{name} battle={battle}"))
    finally:
        rig.run(rig.store.close())
        loop.close()
    assert covered == {(n, o.name) for n, c in COMMANDS.items() for o in c.options}
    assert not [r for r in caplog.records if r.name == "hexpost.commands"], [
        r.getMessage()[:400] for r in caplog.records if r.name == "hexpost.commands"]
    assert not rig.vague, "refusals that do not say what to do:\n" + "\n".join(
        f"{msg!r}  <- {what}" for msg, what in rig.vague.items())
    print(f"sweep: {rig.tried} inputs over {len(covered)} options of {len(COMMANDS)} commands "
          f"({rig.refused} refused)")
