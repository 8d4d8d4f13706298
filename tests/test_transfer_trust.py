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
    # and its reply does not claim that nothing of the file decides what comes next
    text = reply.as_text()
    assert "nothing in the file decides" not in text
    assert "Only the host's tools the file carried still come first: 1 stacked card (`/day stack`)" in text, text


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


# ------------------------------------------------- item 3: an export shows nothing of the rolls and draws to come --
def _keys(value, found=None) -> set:
    found = set() if found is None else found
    if isinstance(value, dict):
        found |= set(value)
        for v in value.values():
            _keys(v, found)
    elif isinstance(value, list):
        for v in value:
            _keys(v, found)
    return found


def exported(p) -> bytes:
    """The file ``/campaign export`` writes for a campaign played in memory."""
    from types import SimpleNamespace

    from commands.transfer import build_export, encode_export
    from engine.store import LogEntry

    stored = SimpleNamespace(state=p.state.to_dict(), channel_id="100", version=len(p.log))
    return encode_export(build_export(stored, [LogEntry(**e) for e in p.log], LEAD))[0]


async def test_an_export_holds_no_seed_or_dice_position_in_any_ruleset_and_still_imports(player, service):
    import json

    from engine.actions import dice_for

    for i, ruleset in enumerate(("tes", "skirmish", "duel", "engage")):
        lead = player("lena", channel=f"c{i}")
        assert not (await lead("campaign new", name="Fen", ruleset=ruleset)).error
        original = await service.campaign(f"c{i}")
        reply = await lead("campaign export")
        assert not reply.error and "dice seed" not in reply.content.replace("no dice seed", ""), reply.content
        data = reply.files[0].data
        doc = json.loads(data)
        assert not {"seed", "dice_counter"} & _keys(doc), ruleset
        assert str(original.seed) not in data.decode(), ruleset
        # what the file could have told: the next d12 of the campaign (now nowhere in the file)
        assert dice_for(original).roll(12) in range(1, 13)
        # it imports (from Discord): the same campaign, its dice from a fresh seed
        inv = lead.table.invocation("lena", f"d{i}", "2", "lena")
        attach(inv, data)
        reply = await lead.table.run(inv, "campaign import", {"file": "campaign.json"})
        assert not reply.error, (ruleset, reply.content)
        assert "nothing in the file decides the rolls or draws to come" in reply.as_text()
        moved = await service.campaign(f"d{i}")
        keep = ("channel_id", "guild_id", "seed", "dice_counter")
        assert {k: v for k, v in moved.to_dict().items() if k not in keep} == \
            {k: v for k, v in original.to_dict().items() if k not in keep}
        assert moved.seed != original.seed


async def test_a_seedless_export_replays_with_each_entrys_recorded_dice(table, service, store):
    import json

    from engine.service import replay
    from helpers.exports import long_campaign

    p = long_campaign(150)  # battles: enemy turns, every die recorded
    data = exported(p)
    doc = json.loads(data)
    assert "seed" not in doc["log"][0]["action"]["args"] and "seed" not in doc["state"]
    assert sum(len(e["dice"]) for e in doc["log"]) > 50
    reply = await run_import(table, data)
    assert not reply.error, reply.content
    moved = await service.campaign(DISCORD_CHANNEL)
    keep = ("channel_id", "guild_id", "seed", "dice_counter", "unaccepted")  # a new server: seats wait to be accepted
    assert {k: v for k, v in moved.to_dict().items() if k not in keep} == \
        {k: v for k, v in p.state.to_dict().items() if k not in keep}
    entries = await store.log(await service.campaign_id(DISCORD_CHANNEL))
    assert replay(entries).to_dict() == moved.to_dict()  # the new channel's log rebuilds it too
    # a recorded die that does not fit its die (a 99 on a d6) is refused, and so is a missing one
    rolled = next(e for e in doc["log"] if e["dice"])
    for forged in ([99] + rolled["dice"][1:], rolled["dice"][:-1]):
        bad = json.loads(data)
        bad["log"][rolled["seq"] - 1]["dice"] = forged
        reply = await run_import(table, json.dumps(bad).encode(), channel="201")
        assert reply.error and "does not replay the same dice" in reply.content, reply.content
    assert await service.campaign("201") is None


async def test_a_delve_deck_is_exported_in_no_readable_order_and_shuffled_afresh_by_the_import(table, service,
                                                                                                 store):
    import json

    from engine.service import replay

    p = opened()
    assert p.do(Action("battle.start", LEAD, {"encounter": "brinehollow-caves"}))
    delve = p.state.battle.delve
    assert len(delve.deck) > 10 and delve.deck != sorted(delve.deck)
    data = exported(p)
    shown = json.loads(data)["state"]["battle"]["delve"]
    assert shown["deck"] == sorted(delve.deck)  # the cards still to be drawn, not their order
    assert all(shown["stacks"][k] == sorted(v) for k, v in delve.stacks.items())
    reply = await run_import(table, data)
    assert not reply.error, reply.content
    assert "the decks still to be drawn (the delve deck, the delve tile stacks) are shuffled with it" in reply.as_text()
    moved = (await service.campaign(DISCORD_CHANNEL)).battle.delve
    assert sorted(moved.deck) == sorted(delve.deck) and moved.deck != delve.deck
    # the new seed decided the order, and the new channel's log rebuilds it exactly
    entries = await store.log(await service.campaign_id(DISCORD_CHANNEL))
    assert replay(entries).battle.delve.deck == moved.deck
    # exported again and imported again: the nested import replays its shuffle from its recorded dice
    reply = await table.run(table.invocation(LEAD, DISCORD_CHANNEL, "2", LEAD), "campaign export", {})
    assert not reply.error, reply.content
    again = reply.files[0].data
    assert not {"seed", "dice_counter"} & _keys(json.loads(again))
    reply = await run_import(table, again, channel="300")
    assert not reply.error, reply.content
    third = (await service.campaign("300")).battle.delve
    assert sorted(third.deck) == sorted(delve.deck) and third.deck != moved.deck


def test_an_item_deck_is_exported_sorted_and_shuffled_afresh_from_its_cards():
    from engine.core import Dice
    from rulesets.tes.battle.inventory import _shuffle
    from rulesets.tes.battle_state import ItemDeck
    from rulesets.tes.rules.transfer import hide_draws, redraw

    camp = opened().state
    order = ["sword", "amulet", "potion", "bow"]
    camp.item_decks = {"common": ItemDeck(draw=list(order), discard=["ring"])}
    shown = hide_draws(camp.to_dict())["item_decks"]["common"]
    assert shown["draw"] == sorted(order) and shown["discard"] == ["ring"]  # the discards are public
    assert camp.item_decks["common"].draw == order  # the campaign itself is not changed by what an export shows
    assert redraw(camp, Dice(seed=7)) == ["the common item deck"]
    assert camp.item_decks["common"].draw == _shuffle(sorted(order), Dice(seed=7))  # from its cards sorted
