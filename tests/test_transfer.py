"""/campaign export and /campaign import: one JSON file, checked before anything is written."""
from __future__ import annotations

import copy
import json

import pytest

from commands.local import LocalTable
from commands.transfer import FORMAT_VERSION, attach, parse_export
from engine.core import RuleError
from engine.service import replay
from rulesets.tes.state import SCHEMA

RYAN, SHANNON, OUTSIDER = "1001", "1002", "1003"


async def campaign_with_history(player, channel="100"):
    ryan, shannon = player(RYAN, channel), player(SHANNON, channel)
    assert not (await ryan("campaign new", name="Outer Watch", difficulty="expert")).error
    assert not (await ryan("adventurer create", name="Vilya", race="dark-elf", line="destruction-staff")).error
    assert not (await shannon("adventurer create", name="Sil", race="argonian", line="one-hand-and-shield")).error
    assert not (await ryan("campaign settings", reminder_hours=6)).error
    ask = await ryan("undo")
    assert not (await ryan.click(ask.buttons[0].custom_id)).error  # an undo in the history too
    assert not (await ryan("campaign settings", reminder_hours=9)).error
    return ryan, shannon


async def export_bytes(ryan) -> bytes:
    reply = await ryan("campaign export")
    assert not reply.error, reply.content
    assert len(reply.files) == 1
    return reply.files[0].data


async def import_reply(table, user, channel, data: bytes, filename="campaign-outer-watch.json", local=False):
    inv = table.invocation(user, channel, "2", user)
    inv.local = local  # the host at the local table (trusted) or a member in Discord
    attach(inv, data)  # what the Discord cog does with the attachment's bytes
    return await table.run(inv, "campaign import", {"file": filename})


async def test_export_is_a_json_file_with_the_state_and_the_full_log(player, service, store):
    ryan, _ = await campaign_with_history(player)
    reply = await ryan("campaign export")
    assert reply.ephemeral and not reply.error
    f = reply.files[0]
    assert f.filename == "campaign-outer-watch.json"
    doc = json.loads(f.data)
    assert doc["format"] == "hexpost-campaign" and doc["format_version"] == FORMAT_VERSION
    assert doc["schema"] == SCHEMA
    state = await service.campaign("100")
    # everything but the dice's seed and position (from which the rolls to come could be computed)
    assert doc["state"] == {k: v for k, v in state.to_dict().items() if k not in ("seed", "dice_counter")}
    cid = await service.campaign_id("100")
    stored = [e.to_dict() for e in await store.log(cid)]
    assert "seed" in stored[0]["action"]["args"] and "seed" not in doc["log"][0]["action"]["args"]
    stored[0]["action"]["args"].pop("seed")
    assert doc["log"] == stored
    assert [e["seq"] for e in doc["log"]] == list(range(1, 7))
    assert doc["campaign"]["actions"] == 6 == doc["campaign"]["version"]
    rebuilt = replay(doc["log"]).to_dict()  # without a seed: with the dice each entry recorded
    assert {k: v for k, v in rebuilt.items() if k not in ("seed", "dice_counter")} == doc["state"]


async def test_only_the_leader_exports(player):
    await campaign_with_history(player)
    for who, channel in ((SHANNON, "100"), (OUTSIDER, "100")):
        reply = await player(who, channel)("campaign export")
        assert reply.error and "Only the party leader" in reply.content and not reply.files
    reply = await player(RYAN, "999")("campaign export")
    assert reply.error and "no campaign" in reply.content


async def test_import_restores_the_campaign_in_a_new_channel(player, table, service, store):
    ryan, _ = await campaign_with_history(player)
    original = await service.campaign("100")
    data = await export_bytes(ryan)

    reply = await import_reply(table, RYAN, "200", data)
    assert not reply.error, reply.content
    assert "imported" in reply.as_text() and "Outer Watch" in reply.as_text()
    moved = await service.campaign("200")
    expect = original.to_dict() | {"channel_id": "200", "guild_id": "2", "seed": moved.seed, "dice_counter": 0}
    # adventurers, settings, everything but the dice (a fresh seed) and Shannon's seat: she never played on
    # server 2, so it waits for her to accept it
    assert moved.to_dict() == expect | {"unaccepted": [SHANNON]}
    assert moved.seed != original.seed and "new seed" in reply.as_text()
    entries = await store.log(await service.campaign_id("200"))
    assert [e.type for e in entries] == ["campaign.import"]
    assert replay(entries).to_dict() == moved.to_dict()
    history = entries[0].action["args"]["history"]
    assert [h["seq"] for h in history] == list(range(1, 7))  # nothing of the old log is lost
    log_text = (await player(RYAN, "200")("campaign log")).as_text()
    assert "imported from channel" in log_text and "6 earlier actions" in log_text

    # the imported campaign plays on, and its log still rebuilds it
    assert not (await player(RYAN, "200")("campaign settings", reminder_hours=3)).error
    assert not (await player(OUTSIDER, "200")("campaign join")).error
    entries = await store.log(await service.campaign_id("200"))
    assert replay(entries).to_dict() == (await service.campaign("200")).to_dict()
    # the original channel is untouched
    assert (await service.campaign("100")).to_dict() == original.to_dict()


async def test_export_of_an_imported_campaign_imports_again(player, table, service):
    ryan, _ = await campaign_with_history(player)
    assert not (await import_reply(table, RYAN, "200", await export_bytes(ryan))).error
    await player(RYAN, "200")("campaign settings", reminder_hours=1)
    second = await export_bytes(player(RYAN, "200"))
    reply = await import_reply(table, RYAN, "300", second)
    assert not reply.error, reply.content
    third = await service.campaign("300")
    assert third.to_dict() == (await service.campaign("200")).to_dict() | {
        "channel_id": "300", "seed": third.seed, "dice_counter": 0}


async def test_an_import_draws_a_fresh_seed_and_keeps_the_hosts_forced_dice(player, table, service):
    ryan, _ = await campaign_with_history(player)
    await ryan("force", values="4 2")
    before = await service.campaign("100")
    # forced dice are the host's tool: a file from Discord that carries them is refused ...
    refused = await import_reply(table, RYAN, "200", await export_bytes(ryan))
    assert refused.error and "only the bot's host" in refused.content
    assert await service.campaign("200") is None
    # ... and the host imports it at the local table
    assert not (await import_reply(table, RYAN, "200", await export_bytes(ryan), local=True)).error
    after = await service.campaign("200")
    assert after.seed != before.seed and (after.dice_counter, after.forced) == (0, [4, 2])


@pytest.mark.parametrize("who,expect", [(SHANNON, "Only the campaign's party leader"),
                                        (OUTSIDER, "Only the campaign's party leader")])
async def test_only_the_exported_campaigns_leader_imports(player, table, service, who, expect):
    ryan, _ = await campaign_with_history(player)
    reply = await import_reply(table, who, "200", await export_bytes(ryan))
    assert reply.error and expect in reply.content
    assert await service.campaign("200") is None


async def test_import_into_a_channel_with_a_campaign_is_refused(player, table, service, store):
    ryan, _ = await campaign_with_history(player)
    data = await export_bytes(ryan)
    await player(RYAN, "200")("campaign new", name="Here Already")
    cid = await service.campaign_id("200")
    reply = await import_reply(table, RYAN, "200", data)
    assert reply.error and "already has a campaign" in reply.content
    assert await store.log_count(cid) == 1 and (await service.campaign("200")).name == "Here Already"


def _doc(data: bytes) -> dict:
    return json.loads(data)


def _tamper(doc, fn):
    doc = copy.deepcopy(doc)
    fn(doc)
    return json.dumps(doc).encode()


async def test_bad_files_get_clear_errors_and_change_nothing(player, table, service, store):
    ryan, _ = await campaign_with_history(player)
    good = _doc(await export_bytes(ryan))

    def set_state(key, value):
        return lambda d: d["state"].__setitem__(key, value)

    cases = [
        (b"\xff\xfe\x00garbage", "not text"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2, 3]", "not a Hexpost campaign export"),
        (b"[" * 100000, "not valid JSON"),
        (json.dumps({"format": "something-else"}).encode(), "not a Hexpost campaign export"),
        (_tamper(good, lambda d: d.__setitem__("format_version", FORMAT_VERSION + 1)), "newer Hexpost"),
        (_tamper(good, lambda d: d.__setitem__("format_version", "1")), "no export format version"),
        (_tamper(good, lambda d: d.pop("state")), "not a campaign"),
        (_tamper(good, set_state("schema", SCHEMA + 1)), "newer Hexpost"),
        (_tamper(good, lambda d: d["state"].pop("leader")), "has no `leader`"),
        (_tamper(good, set_state("members", "everyone")), "broken `members`"),
        (_tamper(good, set_state("name", "@everyone")), "can't contain"),
        (_tamper(good, set_state("ended", True)), "has ended"),
        (_tamper(good, set_state("xp_dial", 99)), "does not match its log"),
        (_tamper(good, set_state("pack", "no-such-pack")), "no content pack `no-such-pack`"),
        (_tamper(good, set_state("pack", "../../etc")), "no content pack"),
        (_tamper(good, lambda d: d.__setitem__("log", [])), "no action log"),
        (_tamper(good, lambda d: d["log"].pop(2)), "out of order"),
        (_tamper(good, lambda d: d["log"][1].__setitem__("dice", [7])), "does not replay"),
        (_tamper(good, lambda d: d["log"][0].__setitem__("type", "campaign.join")), "broken `action`"),
        (_tamper(good, lambda d: d["log"][2]["action"]["args"].__setitem__("race", "dragon")), "does not replay"),
        (_tamper(good, lambda d: d["log"][0]["action"]["args"].pop("channel_id")), "does not replay"),
        (_tamper(good, lambda d: d["log"][3].__setitem__("actor", 5)), "broken `actor`"),
        (_tamper(good, lambda d: d["log"].insert(0, d["log"][3])), "out of order"),
        (b"x" * (9 * 1024 * 1024), "at most 8 MB"),
    ]
    for data, expect in cases:
        reply = await import_reply(table, RYAN, "200", data)
        assert reply.error, expect
        assert expect in reply.content, (expect, reply.content)
        assert "Something went wrong" not in reply.content
        assert await service.campaign("200") is None
    print(f"transfer: {len(cases)} broken files refused")


async def test_discord_import_without_the_file_says_to_attach_it(player, table):
    reply = await player(RYAN, "200")("campaign import", file="campaign.json")
    assert reply.error and "Attach the `.json` file" in reply.content


async def test_the_local_table_exports_and_imports_by_path(table, tmp_path, service):
    out: list[str] = []
    local = LocalTable(table, channel="room-a", out_dir=tmp_path / "out", user="ann", echo=out.append)
    errors = await local.run_script([
        '/campaign new name:"Local Run"',
        "@bo /campaign join",
        "/campaign export",
    ])
    assert errors == 0, "\n".join(out)
    path = tmp_path / "out" / "campaign-local-run.json"
    assert path.is_file()
    other = LocalTable(table, channel="room-b", out_dir=tmp_path / "out", user="ann", echo=out.append)
    assert await other.run_script([f"/campaign import file:{path}"]) == 0, "\n".join(out)
    assert (await service.campaign("room-b")).members == ["ann", "bo"]
    third = LocalTable(table, channel="room-c", out_dir=tmp_path / "out", user="ann", echo=out.append)
    assert await third.run_script([f"/campaign import file:{tmp_path / 'missing.json'}"]) == 1
    assert "Could not read" in out[-1]


def test_parse_export_accepts_a_path_pack_only_at_the_local_table():
    doc = {"format": "hexpost-campaign", "format_version": 1, "state": {}, "log": []}
    with pytest.raises(RuleError, match="has no `channel_id`"):
        parse_export(json.dumps(doc).encode())
