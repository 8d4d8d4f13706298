"""What an import trusts and what an export shows: host tools refused from Discord, no seed or deck order in
an export, and numbers refused at the door with the option's name (issue 24, items 2, 3 and 7)."""
from __future__ import annotations

from commands.transfer import attach
from day_helpers import guild_stack
from engine.core import Action
from helpers.exports import LEAD, SIL, Played, doc_of, raw
from rulesets.tes.content import load_pack
from rulesets.tes.state import RULES

DISCORD_CHANNEL = "200"


async def run_import(table, data: bytes, *, user=LEAD, channel=DISCORD_CHANNEL, local=False):
    inv = table.invocation(user, channel, "2", user)
    inv.local = local
    attach(inv, data)
    return await table.run(inv, "campaign import", {"file": "campaign.json"})


def opened(rules: int = RULES, seed: int = 4242) -> Played:
    """Two adventurers in a campaign of this bot's rules revision and pack version."""
    p = Played()
    assert p.do(Action("campaign.new", LEAD, {"name": "Long Road", "channel_id": "100", "guild_id": "1",
                                              "seed": seed, "difficulty": "adept", "pack": "starter",
                                              "pack_version": load_pack("starter").content_hash, "rules": rules}))
    assert p.do(Action("adventurer.create", LEAD, {"name": "Vilya", "race": "dark-elf", "line": "destruction-staff"}))
    assert p.do(Action("campaign.join", SIL))
    assert p.do(Action("adventurer.create", SIL, {"name": "Sil", "race": "argonian", "line": "one-hand-and-shield"}))
    return p


def in_session(stack: list[str] | None):
    """A campaign whose first session started with ``stack`` cards stacked (None: nothing stacked at all), the
    guild draw answered."""
    p = opened()
    args = {"province": "saltmire"} | ({"stack": guild_stack() + stack} if stack is not None else {})
    assert p.do(Action("day.start", LEAD, args))
    if p.state.days.ask is not None and p.state.days.ask.kind == "guild":
        assert p.do(Action("quest.guild", LEAD, {"pick": "1"}))
    return p


# ------------------------------------------------------------ item 2: stacked cards are the host's tool --
async def test_stacked_cards_waiting_in_a_file_from_discord_are_refused_like_forced_dice(table, service):
    p = in_session(["destruction-staff", "restoration-staff", "one-hand-and-shield"])
    assert p.state.days.stacked == ["restoration-staff"]  # the set-up's trainer drew the two others
    data = raw(doc_of(p.log, p.state.to_dict()))
    reply = await run_import(table, data)
    assert reply.error, reply.content
    assert "1 stacked card (`/day stack`)" in reply.content and "only the bot's host" in reply.content, reply.content
    assert "local table" in reply.content
    assert await service.campaign(DISCORD_CHANNEL) is None
    # the host imports the same file at the local table, which trusts its typist
    reply = await run_import(table, data, channel="300", local=True)
    assert not reply.error, reply.content
    assert (await service.campaign("300")).days.stacked == p.state.days.stacked


async def test_a_log_that_stacked_cards_is_refused_from_discord_even_when_none_wait(table, service):
    # the guild cards stacked at the start were all drawn by the guild draw: nothing waits, the log still holds them
    p = in_session([])
    assert p.state.days.stacked == []
    reply = await run_import(table, raw(doc_of(p.log, p.state.to_dict())))
    assert reply.error and "Log entry 5 of the file is stacked cards (`/day start stack:`" in reply.content, \
        reply.content
    # a `/day stack` entry in the log
    p = in_session(None)
    assert p.do(Action("day.stack", LEAD, {"cards": ["destruction-staff"]}))
    reply = await run_import(table, raw(doc_of(p.log, p.state.to_dict())))
    assert reply.error and "stacked card" in reply.content and "only the bot's host" in reply.content, reply.content
    assert await service.campaign(DISCORD_CHANNEL) is None


# ------------------------------------------------------------- item 7: bounded unpacking, numbers at the edge --
async def test_a_small_gzip_bomb_is_refused_while_unpacking_before_any_parse(table, service):
    import gzip
    import tracemalloc

    import commands.transfer as transfer

    body = (b'{"format":"hexpost-campaign","format_version":1,"log":[' + b"[]," * (15 * 2**20) + b"[]]}")
    bomb = gzip.compress(body, 9)
    assert len(bomb) < 80 * 1024 and len(body) < transfer.MAX_JSON_BYTES  # 45 MB of empty lists in 46 KB
    tracemalloc.start()
    reply = await run_import(table, bomb)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert reply.error and "objects and lists" in reply.content, reply.content
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MB"  # parsing it would take more than a gigabyte
    # a file that packs far tighter than an export: refused by its ratio while unpacking
    spaces = gzip.compress(b"{" + b" " * (30 * 2**20) + b"}", 9)
    reply = await run_import(table, spaces)
    assert reply.error and "more than 200 times its size" in reply.content, reply.content
    assert await service.campaign(DISCORD_CHANNEL) is None


async def test_a_full_width_digit_or_a_word_in_a_files_number_is_refused_naming_the_option(table, service):
    for bad in ("１", "twelve", "²"):
        p = opened()
        assert p.do(Action("battle.start", LEAD, {"encounter": "jailbreak"}))
        p.log[-1]["action"]["args"]["ep"] = bad
        reply = await run_import(table, raw(doc_of(p.log, p.state.to_dict())))
        assert reply.error, reply.content
        assert "The option `ep` of battle.start must be a whole number from 0 to 400" in reply.content, reply.content
        assert "TypeError" not in reply.content and "ValueError" not in reply.content
    assert await service.campaign(DISCORD_CHANNEL) is None


async def test_typed_numbers_take_ascii_digits_only_in_every_ruleset(player):
    cases = {  # ruleset -> (a command with a number option, the option)
        "tes": ("battle start", {"encounter": "jailbreak"}, "ep"),
        "skirmish": ("skirmish settings", {}, "points"),
        "duel": ("duel settings", {}, "ask_minutes"),
        "engage": ("mini settings", {}, "points"),
    }
    for i, (ruleset, (command, options, option)) in enumerate(cases.items()):
        lead = player("lena", channel=f"c{i}")
        out = await lead("campaign new", name="Fen", ruleset=ruleset)
        assert not out.error, out.content
        for bad in ("１２", "twelve", "1.5", "²"):
            out = await lead(command, **options, **{option: bad})
            assert out.error, (ruleset, bad, out.content)
            assert out.content.startswith(f"`{option}:` takes a whole number, like"), out.content
            assert f"(you gave `{bad}`)" in out.content
    # the campaign-wide settings too
    out = await player("lena", channel="c0")("campaign settings", reminder_hours="２")
    assert out.error and "`reminder_hours:` takes a whole number, like 12" in out.content, out.content
