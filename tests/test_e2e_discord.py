"""End to end: the real, unmodified Hexpost bot (``bot.build_bot``) against the fake Discord.

Every slash command, button and menu the bot offers goes over Discord's protocol here:
gateway login, command sync, INTERACTION_CREATE in, interaction callbacks / webhook
followups / edits out.  After each test the fixture checks, for every interaction and
every message the bot sent, that
  * the bot hit no unknown route and neither discord.py nor Hexpost logged an error,
  * the first response came within Discord's 3 seconds,
  * allowed_mentions parses nothing, and names at most one user (the ping).
"""
from __future__ import annotations

import io
import json
import logging
import time
from typing import Any

import pytest
from PIL import Image

from bot import build_bot
from fakediscord import EPHEMERAL, FakeDiscord, FakeMember, FakeMessage, InteractionResult

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DEADLINE = 3.0
LATENCIES: list[float] = []  # every first-response latency of this module, for the summary line
PUBLISHED: set[str] = set()  # every slash command (leaf) the bot synced
INVOKED: set[str] = set()  # every slash command (leaf) a test ran over the wire


def leaf_paths(cmds: list[dict], prefix: str = "") -> set[str]:
    out: set[str] = set()
    for c in cmds:
        subs = [o for o in c.get("options", []) if o["type"] in (1, 2)]
        out |= leaf_paths(subs, prefix + c["name"] + " ") if subs else {prefix + c["name"]}
    return out


def invoked_path(data: dict) -> str:
    parts, node = [data["name"]], data
    while True:
        sub = next((o for o in node.get("options", []) if o["type"] in (1, 2)), None)
        if sub is None:
            return " ".join(parts)
        parts.append(sub["name"])
        node = sub


# ----------------------------------------------------------------------------- the world
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
        self.leader = fake.add_member(self.guild, "lena")
        self.bob = fake.add_member(self.guild, "bob")
        self.cara = fake.add_member(self.guild, "cara")
        self.bot: Any = None
        self.bots: list[Any] = []

    async def start(self, **kwargs: Any) -> Any:
        kwargs.setdefault("sync", True)
        self.bot = build_bot(self.db_path, guild_ready_timeout=0.05, **kwargs)
        self.bots.append(self.bot)
        await self.fake.start_client(self.bot, token="hexpost-test-token", timeout=10)
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None and not self.bot.is_closed():
            await self.fake.stop_client(self.bot)
        assert self.bot is None or self.bot.store is None  # close() closed the store

    async def restart(self) -> Any:
        await self.stop()
        return await self.start()

    async def slash(self, user: FakeMember, command: str, options: dict | None = None, *, channel=None,
                    followups: int = 0) -> InteractionResult:
        res = await self.fake.slash(user, channel or self.chan, command, options or {}, timeout=10)
        if followups:
            await res.wait(10, followups=followups)
        return res

    async def click(self, user: FakeMember, message: FakeMessage, custom_id: str) -> InteractionResult:
        return await self.fake.click(user, message, custom_id, timeout=10)

    async def state(self, channel=None):
        return await self.bot.table.service.campaign(str((channel or self.chan).id))


@pytest.fixture
async def world(tmp_path):
    hexpost_errors = _Errors()
    logging.getLogger("hexpost").addHandler(hexpost_errors)
    try:
        async with FakeDiscord(default_timeout=10) as fake:
            w = World(fake, str(tmp_path / "hexpost.db"))
            await w.start()
            yield w
            await w.stop()
            check_clean(fake, hexpost_errors)
    finally:
        logging.getLogger("hexpost").removeHandler(hexpost_errors)


def check_clean(fake: FakeDiscord, hexpost_errors: _Errors) -> None:
    """What every test must leave behind (requirements 6, 7 and 9)."""
    assert fake.unhandled == [], fake.unhandled
    assert fake.errors == [], [r.getMessage() for r in fake.errors]
    assert hexpost_errors.records == [], [r.getMessage() for r in hexpost_errors.records]
    lat = []
    PUBLISHED.update(leaf_paths(fake.commands()))
    for res in fake.interactions:
        if res.type == 2:
            INVOKED.add(invoked_path(res.payload["data"]))
        assert res.responded, f"{res!r} was never answered"
        assert res.latency is not None and res.latency <= DEADLINE, (res, res.latency)
        lat.append(res.latency)
    LATENCIES.extend(lat)
    if lat:
        print(f"\n[e2e] {len(lat)} interactions, max first-response latency {max(lat) * 1000:.0f} ms")
    check_mentions(fake)


def check_mentions(fake: FakeDiscord) -> None:
    """Every payload that wrote a bot message parses no mentions and allows only the players it pings (the one
    whose move it is; several when a question of the day waits for several), each named in the content."""
    for msg in fake.messages.values():
        if int(msg.author["id"]) != fake.bot_user.id:
            continue
        for payload in msg.history:
            if not any(k in payload for k in ("content", "embeds", "components", "attachments")):
                continue  # the empty "thinking" message of a defer
            am = payload.get("allowed_mentions")
            assert am is not None, f"message {msg.id} written without allowed_mentions: {payload}"
            assert am.get("parse") == [], am
            assert not am.get("roles"), am
            users = am.get("users") or []
            assert len(users) <= 4, am  # at most the party
            for uid in users:  # the one user allowed is the one the post is about (the ping)
                assert f"<@{uid}>" in (payload.get("content") or ""), (am, payload.get("content"))


# ----------------------------------------------------------------------------- helpers
def embed_text(res_or_msg: Any) -> str:
    embeds = res_or_msg.embeds
    return json.dumps(embeds, ensure_ascii=False)


def answer(res: InteractionResult) -> tuple[str, bool]:
    """(text, ephemeral) of what the user saw as the answer, whichever way the bot answered.

    A command that was slow to answer is deferred (public "thinking"); a rule error then deletes
    that original and sends an ephemeral followup; the fake fills the (deleted) thinking message
    with it, so the followup's own payload flags are what Discord would show.  Usually the bot
    answers within the deferral window and refuses privately at once (callback type 4)."""
    if res.callback_type == 5 and ("delete", "@original") in res.log:
        assert res.followups, res.log
        fu = res.followups[-1]
        i_del = res.log.index(("delete", "@original"))
        i_fu = max(i for i, e in enumerate(res.log) if e[0] == "followup")
        assert i_del < i_fu, res.log
        payload = fu.history[-1]
        return payload.get("content") or "", bool(int(payload.get("flags") or 0) & EPHEMERAL)
    msg = res.message
    assert msg is not None and not msg.deleted, res
    return msg.content, msg.ephemeral


def assert_refused(res: InteractionResult, *needles: str) -> str:
    text, ephemeral = answer(res)
    assert ephemeral, (text, res.log)
    for n in needles:
        assert n.lower() in text.lower(), (n, text)
    return text


def png_files(res: InteractionResult) -> list[tuple[str, bytes]]:
    out = []
    for name, data in res.files:
        assert name.endswith(".png"), name
        assert data.startswith(PNG_SIGNATURE), name
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            assert im.format == "PNG" and im.width > 50 and im.height > 50
        out.append((name, data))
    return out


def button(res_or_msg: Any, label_start: str) -> str:
    msg = res_or_msg.message if isinstance(res_or_msg, InteractionResult) else res_or_msg
    for c in msg.iter_components():
        if c.get("type") == 2 and str(c.get("label", "")).startswith(label_start):
            return c["custom_id"]
    raise AssertionError(f"no button {label_start!r}: {[c.get('label') for c in msg.iter_components()]}")


def labels(msg: FakeMessage) -> list[str]:
    return [c.get("label") for c in msg.iter_components() if c.get("type") == 2]


async def click_stale(w: World, user: FakeMember, msg: FakeMessage, components: list, custom_id: str):
    """Click a button on a copy of the message a client has not refreshed yet (it still shows ``components``)."""
    now = msg.components
    msg.components = components
    try:
        return await w.click(user, msg, custom_id)
    finally:
        msg.components = now


async def start_battle(w: World, args: dict) -> InteractionResult:
    """/battle start: Cara has no adventurer, so the leader is asked first and presses Start without them."""
    res = await w.slash(w.leader, "battle start", args)
    text, ephemeral = answer(res)
    if ephemeral and "Start anyway?" in text:
        res = await w.click(w.leader, res.message, button(res, "Start without them"))
    return res


async def party(w: World, *, adventurers: bool = True) -> None:
    """Lena leads; Bob and Cara join; (optionally) Lena and Bob create adventurers."""
    res = await w.slash(w.leader, "campaign new", {"name": "Night Watch", "difficulty": "adept"})
    assert res.embeds and "Night Watch" in res.embeds[0]["title"], res.content
    for m in (w.bob, w.cara):
        res = await w.slash(m, "campaign join")
        assert not res.ephemeral and "/adventurer create" in res.content
    if adventurers:
        res = await w.slash(w.leader, "adventurer create",
                            {"name": "Shannon", "race": "argonian", "line": "one-hand-and-shield"})
        assert png_files(res), answer(res)
        res = await w.slash(w.bob, "adventurer create",
                            {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
        assert png_files(res), answer(res)


# ============================================================================= 1. login, ready, --sync
EXPECTED = {
    "campaign": {"new", "join", "leave", "status", "end", "log", "settings", "leader"},
    "adventurer": {"create", "show", "class", "retire"},
    "content": {"races", "lines", "classes"},
}
TOP_LEVEL = {"roll", "help", "undo"}


async def test_login_ready_and_sync_publish_every_command(world: World) -> None:
    w, fake = world, world.fake
    bot = w.bot
    assert bot.is_ready() and bot.user.id == fake.bot_user.id
    assert bot.get_guild(w.guild.id) is not None and bot.get_channel(w.chan.id) is not None
    assert fake.identifies[-1]["token"] == "hexpost-test-token"
    # no privileged intent is needed (README): members (1<<1), presences (1<<8), message content (1<<15)
    assert fake.identifies[-1]["intents"] & ((1 << 1) | (1 << 8) | (1 << 15)) == 0
    assert fake.sync_count == 1 and fake.command_names(w.guild) == []

    names = set(fake.command_names())
    assert set(EXPECTED) | TOP_LEVEL <= names, names
    for group, subs in EXPECTED.items():
        top = next(c for c in fake.commands() if c["name"] == group)
        assert top["description"]
        got = {o["name"] for o in top["options"] if o["type"] == 1}
        assert subs <= got, (group, subs - got)
    for cmd in fake.commands():  # every command and option is described, within Discord's limits
        def walk(node, path):
            assert 1 <= len(node.get("description", "")) <= 100, path
            for o in node.get("options", []):
                walk(o, path + [o["name"]])
        walk(cmd, [cmd["name"]])

    new = {o["name"]: o for o in fake.find_command("campaign new")["options"]}
    assert new["name"]["type"] == 3 and new["name"]["required"] is True
    assert new["name"]["description"] == "The campaign's name"
    assert [c["value"] for c in new["difficulty"]["choices"]] == ["apprentice", "adept", "expert"]
    assert not new["difficulty"].get("required") and new["pack"]["autocomplete"] is True
    create = {o["name"]: o for o in fake.find_command("adventurer create")["options"]}
    assert [n for n, o in create.items() if o.get("required")] == ["name", "race", "line"]
    for opt in ("race", "line", "class", "form"):
        assert create[opt]["autocomplete"] is True, opt
    assert create["player"]["type"] == 6 and "2L" in create["health"]["description"]
    assert fake.find_command("adventurer show")["options"][0]["type"] == 6
    assert fake.find_command("adventurer class")["options"][0]["name"] == "class"
    assert {o["name"]: o["type"] for o in fake.find_command("campaign leader")["options"]} == {"player": 6}
    log_page = fake.find_command("campaign log")["options"][0]
    assert log_page["type"] == 4 and log_page["min_value"] == 1
    hours = fake.find_command("campaign settings")["options"][0]
    assert hours["name"] == "reminder_hours" and hours["min_value"] == 0 and hours["max_value"] == 336
    roll = fake.find_command("roll")
    assert roll["options"][0]["name"] == "dice" and roll["options"][0]["required"] is True
    assert fake.find_command("undo")["options"] == [] and fake.find_command("help")["description"]
    # the confirm options of the local table are not published
    assert "confirm" not in {o["name"] for o in fake.find_command("campaign end")["options"]}

    # HEXPOST_SYNC_GUILD: a second start publishes to the guild only, with the same tree
    await w.stop()
    await w.start(sync=True, sync_guild=str(w.guild.id))
    assert fake.sync_count == 2 and fake.command_names(w.guild) == sorted(names)
    # without --sync nothing is published
    await w.stop()
    await w.start(sync=False)
    assert fake.sync_count == 2
    res = await w.slash(w.leader, "help")
    assert res.ephemeral and "Hexpost" in res.embeds[0]["title"]


# ============================================================================= 2. the whole flow
async def test_three_players_create_show_status_and_mat_buttons(world: World) -> None:
    w, fake = world, world.fake
    res = await w.slash(w.leader, "campaign new", {"name": "Night Watch", "difficulty": "expert"})
    assert res.callback_type == 4 and not res.ephemeral
    assert "Campaign opened: Night Watch" in res.embeds[0]["title"]
    assert "/campaign join" in embed_text(res)
    for m in (w.bob, w.cara):
        res = await w.slash(m, "campaign join")
        assert res.callback_type == 4 and not res.ephemeral and "/adventurer create" in res.content

    # autocomplete: pack entries, filtered by what was typed, at most 25
    races = await fake.autocomplete(w.bob, w.chan, "adventurer create", {"name": "Ryan"}, focused="race", value="el")
    assert {c["value"] for c in races} == {"dark-elf", "high-elf", "wood-elf"}, races
    assert all("el" in c["name"].lower() for c in races)
    all_races = await fake.autocomplete(w.bob, w.chan, "adventurer create", focused="race", value="")
    assert 10 <= len(all_races) <= 25 and "argonian" in {c["value"] for c in all_races}
    lines = await fake.autocomplete(w.bob, w.chan, "adventurer create", {"race": "dark-elf"}, focused="line",
                                    value="staff")
    assert [c["value"] for c in lines] == ["destruction-staff"], lines
    every_line = await fake.autocomplete(w.bob, w.chan, "adventurer create", focused="line", value="")
    assert "combat" not in {c["value"] for c in every_line} and len(every_line) <= 25
    classes = await fake.autocomplete(w.bob, w.chan, "adventurer create", focused="class", value="knight")
    assert {c["value"] for c in classes} == {"knight", "dragonknight"}, classes
    all_classes = await fake.autocomplete(w.bob, w.chan, "adventurer class", focused="class", value="")
    assert 1 <= len(all_classes) <= 25
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in races + lines + classes + all_classes)
    assert await fake.autocomplete(w.bob, w.chan, "adventurer create", focused="race", value="zzz") == []
    packs = await fake.autocomplete(w.leader, w.lobby, "campaign new", focused="pack", value="sta")
    assert [c["value"] for c in packs] == ["starter"]

    # /adventurer create: answered first, then deferred while the mat is drawn; the followup carries it
    res = await w.slash(w.bob, "adventurer create", {
        "name": "Ryan", "race": "dark-elf", "line": "destruction-staff", "class": "sorcerer",
        "health": "2L", "stamina": "1L", "magicka": "3R", "combat": "4L", "skill": "5R"})
    assert res.callback_type == 5 and res.log[-1][0] == "followup", res.log
    msg = res.message
    assert not msg.loading and not msg.ephemeral and msg.embeds
    [(filename, data)] = png_files(res)    # the mat in the embed: one picture a post (the sheet: /adventurer show)
    assert filename == "mat-ryan.png"
    assert msg.embeds[0]["image"]["url"] == f"attachment://{filename}"
    assert "Ryan" in embed_text(res) and msg.attachments[0].content_type == "image/png"
    # the attachment is downloadable where Discord says it is
    downloaded = await w.bot.http.get_from_cdn(msg.attachments[0].url)
    assert downloaded == data

    res = await w.slash(w.leader, "adventurer create", {"name": "Shannon", "race": "argonian",
                                                        "line": "one-hand-and-shield"})
    assert png_files(res) and res.message.embeds[0]["image"]["url"] == "attachment://mat-shannon.png"
    res = await w.slash(w.cara, "adventurer create", {"name": "Sil", "race": "wood-elf", "line": "bow"})
    assert png_files(res)
    res = await w.slash(w.cara, "adventurer class", {"class": "archer"})
    assert res.callback_type == 5 and png_files(res) and "Archer" in embed_text(res)

    # /adventurer show player:@bob
    res = await w.slash(w.cara, "adventurer show", {"player": w.bob})
    assert res.callback_type == 5 and not res.ephemeral
    assert png_files(res)[0][0] == "mat-ryan.png"
    assert "Player: bob" in embed_text(res) and "Ryan" in embed_text(res)
    res = await w.slash(w.leader, "adventurer show")
    assert png_files(res)[0][0] == "mat-shannon.png"

    # /campaign status: the party and one "Mat: <name>" button each
    res = await w.slash(w.cara, "campaign status")
    text = embed_text(res)
    for who in ("Ryan", "Shannon", "Sil", "Expert", "(leader)"):
        assert who in text, who
    assert sorted(labels(res.message)) == ["Mat: Ryan", "Mat: Shannon", "Mat: Sil"]
    status_msg = res.message
    click = await w.click(w.cara, status_msg, button(status_msg, "Mat: Shannon"))
    assert click.callback_type == 5 and not click.ephemeral
    assert click.message is not status_msg and png_files(click)[0][0] == "mat-shannon.png"
    assert click.message.embeds[0]["image"]["url"] == "attachment://mat-shannon.png"
    assert status_msg.edits == 0  # the status post is left as it was

    # the browse commands, the log (with its Older button), settings, roll, help
    for sub, needle in (("races", "Argonian"), ("lines", "Destruction Staff"), ("classes", "Sorcerer"),
                        ("items", "Iron Sword"), ("enemies", "High Elf Bandit")):
        res = await w.slash(w.bob, f"content {sub}")
        assert res.ephemeral and needle in embed_text(res), sub
    res = await w.slash(w.bob, "content items", {"name": "iron sword"})
    text, ephemeral = answer(res)
    assert ephemeral and "Iron Sword (common weapon, light form): Add 1 free Combat die" in text
    res = await w.slash(w.bob, "content cards")
    assert_refused(res, "/day start")  # no session yet: no overland card seen
    res = await w.slash(w.bob, "campaign log")
    assert res.ephemeral and "page 1 of" in embed_text(res) and "joins the party" in embed_text(res)
    assert "adventurer.create" not in embed_text(res)  # what each action did, in words, not its internal type
    # 1 new + 2 joins + 3 creates + 1 class = 7 actions: one page, no Older button
    assert labels(res.message) == []
    res = await w.slash(w.leader, "campaign settings")
    assert res.ephemeral and "reminder_hours" in embed_text(res)
    res = await w.slash(w.leader, "campaign settings", {"reminder_hours": 6})
    assert not res.ephemeral and "6" in res.content
    assert (await w.state()).settings["reminder_hours"] == 6
    res = await w.slash(w.cara, "roll", {"dice": "3d6+2"})
    assert res.callback_type == 4 and f"<@{w.cara.id}> rolls" in res.content
    res = await w.slash(w.cara, "help")
    assert res.ephemeral and "/campaign new" in embed_text(res)

    state = await w.state()
    assert sorted(a.name for a in state.adventurers.values()) == ["Ryan", "Shannon", "Sil"]
    assert state.difficulty == "expert" and state.leader == str(w.leader.id)


async def test_log_pages_leader_leave_and_retire(world: World) -> None:
    w = world
    await party(w)
    for i in range(6):  # enough actions for a second log page
        await w.slash(w.leader, "campaign settings", {"reminder_hours": i + 1})
    res = await w.slash(w.bob, "campaign log")
    assert res.ephemeral and "page 1 of 2" in embed_text(res)
    older = await w.click(w.bob, res.message, button(res, "Older"))
    assert older.ephemeral and "page 2 of 2" in embed_text(older) and labels(older.message) == ["Newer"]
    newer = await w.click(w.bob, older.message, button(older, "Newer"))
    assert "page 1 of 2" in embed_text(newer)
    res = await w.slash(w.bob, "campaign log", {"page": 2})
    assert "page 2 of 2" in embed_text(res)
    res = await w.slash(w.bob, "campaign log", {"page": 9})
    assert_refused(res, "choose a page from 1 to 2")

    # /adventurer rest: the End of Day's rest (rules revision 3): refused outside a session, naming /day start
    res = await w.slash(w.bob, "adventurer rest")
    assert_refused(res, "/day start")

    # /adventurer retire: an ephemeral confirm; Cancel changes nothing, the button retires
    res = await w.slash(w.bob, "adventurer retire")
    assert res.ephemeral and "Retire **Ryan**" in res.content
    assert labels(res.message) == ["Retire Ryan", "Cancel"]
    cancel = await w.click(w.bob, res.message, button(res, "Cancel"))
    assert cancel.callback_type == 7 and "nothing was changed" in res.message.content
    assert res.message.components == [] and "Ryan" in [a.name for a in (await w.state()).adventurers.values()]
    res = await w.slash(w.bob, "adventurer retire")
    done = await w.click(w.bob, res.message, button(res, "Retire Ryan"))
    assert done.callback_type == 7 and "Ryan" in res.message.content and res.message.components == []
    assert str(w.bob.id) not in (await w.state()).adventurers

    # the leader hands over the lead, and a member leaves
    res = await w.slash(w.leader, "campaign leader", {"player": w.bob})
    assert not res.ephemeral and (await w.state()).leader == str(w.bob.id)
    res = await w.slash(w.cara, "campaign leave")
    assert not res.ephemeral
    assert str(w.cara.id) not in (await w.state()).members
    res = await w.slash(w.leader, "campaign leader", {"player": w.cara})
    assert_refused(res)
    assert (await w.state()).leader == str(w.bob.id)


async def test_adventurer_guide_menus_and_buttons(world: World) -> None:
    w = world
    await party(w, adventurers=False)
    res = await w.slash(w.cara, "adventurer guide", {"name": "Sil"})
    assert res.callback_type == 4 and res.ephemeral and "step 1 of 5" in embed_text(res)
    prompt = res.message

    def the_select(msg: FakeMessage) -> dict:
        [sel] = [c for c in msg.iter_components() if c.get("type") == 3]
        return sel

    sel = the_select(prompt)
    assert 1 <= len(sel["options"]) <= 25 and "wood-elf" in [o["value"] for o in sel["options"]]
    # someone else's prompt is refused (the leader may act for the player)
    stranger = await w.fake.select(w.bob, prompt, sel["custom_id"], ["wood-elf"], timeout=10)
    assert_refused(stranger, "only they")
    steps = {"race": "wood-elf", "line": "bow"}
    for _ in range(6):
        sel_list = [c for c in prompt.iter_components() if c.get("type") == 3]
        if not sel_list:
            break
        sel = sel_list[0]
        step = sel["custom_id"].rsplit(".", 1)[1]
        value = steps.get(step, sel["options"][0]["value"])
        before = prompt.edits
        res = await w.fake.select(w.cara, prompt, sel["custom_id"], [value], timeout=10)
        assert res.callback_type == 7 and prompt.edits == before + 1, answer(res)
    assert "Create" in labels(prompt) and "Start over" in labels(prompt)
    done = await w.click(w.cara, prompt, button(prompt, "Create"))
    assert done.callback_type == 5 and not done.ephemeral
    assert png_files(done)[0][0] == "mat-sil.png" and "Sil" in embed_text(done)
    assert (await w.state()).adventurers[str(w.cara.id)].race == "wood-elf"

    # a second guide, cancelled by its button
    res = await w.slash(w.bob, "adventurer guide", {"name": "Ryan"})
    cancel = await w.click(w.bob, res.message, button(res, "Cancel"))
    assert cancel.callback_type == 7 and "Nothing was created" in res.message.content
    assert str(w.bob.id) not in (await w.state()).adventurers


async def test_export_and_import_over_discord(world: World) -> None:
    w = world
    await party(w)
    res = await w.slash(w.leader, "campaign export")
    files = res.files
    assert len(files) == 1 and files[0][0].endswith(".json"), answer(res)
    data = json.loads(files[0][1])
    assert "Night Watch" in json.dumps(data)
    res = await w.slash(w.leader, "campaign import", {"file": (files[0][0], files[0][1])}, channel=w.lobby)
    text, ephemeral = answer(res)
    assert res.callback_type == 5 and not ephemeral, text
    state = await w.state(w.lobby)
    assert state is not None and sorted(a.name for a in state.adventurers.values()) == ["Ryan", "Shannon"]
    res = await w.slash(w.leader, "campaign import", {"file": ("notes.json", b"{not json")}, channel=w.lobby)
    assert_refused(res)


# ============================================================================= 3. errors
async def test_errors_are_ephemeral_name_the_fix_and_change_nothing(world: World) -> None:
    w = world
    # a command in a channel with no campaign
    for cmd in ("campaign status", "campaign join", "campaign end", "undo", "adventurer show", "campaign log"):
        res = await w.slash(w.bob, cmd, channel=w.lobby)
        assert_refused(res, "/campaign new")
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "nord", "line": "bow"},
                        channel=w.lobby)
    assert_refused(res, "/campaign new")
    assert await w.state(w.lobby) is None

    await party(w, adventurers=False)
    before = (await w.state()).to_dict()
    log_before = await w.bot.store.log_count(await w.bot.table.service.campaign_id(str(w.chan.id)))

    # a bad race names the choices; a bad slot names the format
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "gnome", "line": "bow"})
    assert_refused(res, "no race called", "Choose one of", "Argonian")
    assert res.callback_type == 4  # refused at once, privately: no public "thinking" message at all
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "nord", "line": "bow",
                                                     "health": "9Z"})
    assert_refused(res, "9Z", "not a circular slot", "2L")
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "nord", "line": "bow",
                                                     "health": "9L"})
    assert_refused(res, "Row 9 does not exist")
    res = await w.slash(w.bob, "adventurer class", {"class": "sorcerer"})
    assert_refused(res, "/adventurer create")
    # a non-leader cannot end or undo
    res = await w.slash(w.bob, "campaign end")
    assert_refused(res, "Only the party leader", f"<@{w.leader.id}>")
    res = await w.slash(w.bob, "undo")
    assert_refused(res, "Only the party leader")
    res = await w.slash(w.cara, "campaign settings", {"reminder_hours": 3})
    assert_refused(res)
    # nonsense dice
    res = await w.slash(w.cara, "roll", {"dice": "banana"})
    text = assert_refused(res)
    assert "3d6" in text or "d6" in text, text
    # joining twice, creating in a full party etc. are refused as well
    res = await w.slash(w.bob, "campaign join")
    assert_refused(res)

    state = await w.state()
    assert state.adventurers == {} and sorted(state.members) == sorted(str(m.id) for m in (w.leader, w.bob, w.cara))
    assert await w.bot.store.log_count(await w.bot.table.service.campaign_id(str(w.chan.id))) == log_before
    assert state.to_dict() == before
    res = await w.slash(w.cara, "campaign status")
    assert "no adventurer yet" in embed_text(res) and labels(res.message) == []


async def test_at_everyone_is_refused_and_never_echoed_live(world: World) -> None:
    w = world
    for name in ("@everyone", "@here party", "<@&123> raid", f"<@{w.bob.id}>"):
        res = await w.slash(w.leader, "campaign new", {"name": name})
        text = assert_refused(res, "name")
        assert "@everyone" not in text and "@here" not in text and "<@" not in text, text
    assert await w.state() is None
    await w.slash(w.leader, "campaign new", {"name": "Night Watch"})
    res = await w.slash(w.bob, "adventurer create", {"name": "@everyone", "race": "nord", "line": "bow"})
    text = assert_refused(res, "name")
    assert "@everyone" not in text
    # a bad race echoed back still parses no mention (check_mentions) and pings nobody
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "@everyone", "line": "bow"})
    text = assert_refused(res, "race")
    payload = res.followups[-1].history[-1] if res.followups else res.callback_data
    assert payload["allowed_mentions"]["parse"] == [] and not payload["allowed_mentions"].get("users")
    assert (await w.state()).adventurers == {}


# ============================================================================= 4. destructive flows
async def test_campaign_end_confirm_refuse_end_and_out_of_date(world: World) -> None:
    w = world
    await party(w)
    res = await w.slash(w.leader, "campaign end")
    assert res.callback_type == 4 and res.ephemeral and "End **Night Watch** for good?" in res.content
    prompt = res.message
    end_id = button(prompt, "End the campaign")
    cid = await w.bot.table.service.campaign_id(str(w.chan.id))
    assert end_id == f"hx:end:{w.chan.id}:c{cid}." and labels(prompt) == ["End the campaign", "Cancel"]
    assert next(c for c in prompt.iter_components() if c.get("custom_id") == end_id)["style"] == 4  # danger
    shown = list(prompt.components)

    refused = await w.click(w.bob, prompt, end_id)
    assert_refused(refused, "Only the party leader")
    assert prompt.edits == 0 and await w.state() is not None

    ended = await w.click(w.leader, prompt, end_id)
    assert ended.callback_type == 7 and ended.message is prompt
    assert "ended" in prompt.content.lower() and prompt.components == []
    assert await w.state() is None

    again = await click_stale(w, w.leader, prompt, shown, end_id)
    assert_refused(again, "out of date")
    res = await w.slash(w.bob, "campaign status")
    assert_refused(res, "/campaign new")


async def test_undo_confirm_cancel_and_out_of_date(world: World) -> None:
    w = world
    await party(w, adventurers=False)
    res = await w.slash(w.leader, "undo")
    assert res.ephemeral and "Undo action #" in res.content and "joins" in res.content.lower()
    first = res.message
    shown = list(first.components)
    cancel = await w.click(w.leader, first, button(first, "Cancel"))
    assert cancel.callback_type == 7 and "nothing was changed" in first.content
    assert str(w.cara.id) in (await w.state()).members
    # a newer undo prompt takes it back; the old one is then out of date
    res = await w.slash(w.leader, "undo")
    done = await w.click(w.leader, res.message, button(res, "Undo it"))
    assert done.callback_type == 7 and res.message.components == []
    assert str(w.cara.id) not in (await w.state()).members
    undo_id = shown[0]["components"][0]["custom_id"]
    assert undo_id.startswith(f"hx:undo:{w.chan.id}:")
    stale = await click_stale(w, w.leader, first, shown, undo_id)
    assert_refused(stale, "out of date")
    assert str(w.bob.id) in (await w.state()).members


# ============================================================================= 5. restart
async def test_buttons_work_after_a_restart_on_the_same_database(world: World) -> None:
    w, fake = world, world.fake
    await party(w)
    res = await w.slash(w.leader, "undo")  # undo Ryan's creation
    undo_prompt = res.message
    assert "Undo action #" in res.content
    res = await w.slash(w.cara, "campaign status")
    status_msg = res.message
    res = await w.slash(w.leader, "campaign end")
    end_prompt = res.message

    old = w.bot
    await w.restart()
    assert old.is_closed() and old.store is None and w.bot is not old and fake.sync_count == 2
    assert len(fake.identifies) == 2

    mat = await w.click(w.cara, status_msg, button(status_msg, "Mat: Ryan"))
    assert png_files(mat)[0][0] == "mat-ryan.png"
    undone = await w.click(w.leader, undo_prompt, button(undo_prompt, "Undo it"))
    assert undone.callback_type == 7 and undo_prompt.components == []
    assert str(w.bob.id) not in (await w.state()).adventurers

    await w.restart()
    ended = await w.click(w.leader, end_prompt, button(end_prompt, "End the campaign"))
    assert ended.callback_type == 7 and "ended" in end_prompt.content.lower()
    assert await w.state() is None


# ============================================================================= 8. rate limits
async def test_rate_limited_edit_and_followup_are_retried(world: World) -> None:
    w, fake = world, world.fake
    await party(w, adventurers=False)
    post_rule = fake.rate_limit("POST", f"/webhooks/{fake.application_id}/*", times=1, retry_after=0.2)
    started = time.monotonic()
    res = await w.slash(w.leader, "adventurer create", {"name": "Shannon", "race": "argonian",
                                                        "line": "one-hand-and-shield"})
    assert len(post_rule.hits) == 1 and time.monotonic() - started >= 0.2
    assert png_files(res) and res.message.embeds and not res.message.loading
    statuses = [r.status for r in fake.requests if r.method == "POST" and r.path.startswith("/webhooks/")]
    assert statuses[-2:] == [429, 200]

    refuse_rule = fake.rate_limit("POST", "/interactions/*/*/callback", times=1, retry_after=0.1)
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "gnome", "line": "bow"})
    assert len(refuse_rule.hits) == 1
    assert_refused(res, "no race called")

    status = await w.slash(w.bob, "campaign status")
    mat_rule = fake.rate_limit("POST", f"/webhooks/{fake.application_id}/*", times=1, retry_after=0.1)
    click = await w.click(w.bob, status.message, button(status, "Mat: Shannon"))
    assert len(mat_rule.hits) == 1 and png_files(click)

    cb_rule = fake.rate_limit("POST", "/interactions/*/*/callback", times=1, retry_after=0.1)
    res = await w.slash(w.bob, "roll", {"dice": "2d6"})
    assert len(cb_rule.hits) == 1 and "rolls" in res.content


# ============================================================================= battle
async def test_battle_round_through_discord(world: World) -> None:
    w, fake = world, world.fake
    if fake.find_command("battle start") is None:
        pytest.skip("cogs/battle.py does not publish /battle start yet")
    await party(w)
    encounters = await fake.autocomplete(w.leader, w.chan, "battle start", focused="encounter", value="jail")
    assert [c["value"] for c in encounters] == ["jailbreak"]
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak"})
    text, ephemeral = answer(res)  # Cara has no adventurer: the leader is asked first, privately
    assert ephemeral and f"<@{w.cara.id}> has no adventurer yet" in text and "Jailbreak" in text, text
    assert (await w.state()).battle is None
    res = await w.click(w.leader, res.message, button(res, "Start without them"))
    text, ephemeral = answer(res)
    assert not ephemeral, text
    names = [n for n, _ in png_files(res)]
    assert names and names[0].startswith("map-"), names
    assert f"<@{w.leader.id}>" in text  # whose turn it is, pinged ...
    assert [str(u) for u in res.message.history[-1]["allowed_mentions"].get("users")] == [str(w.leader.id)]  # only them

    res = await w.slash(w.bob, "battle status")
    assert "round 1" in embed_text(res) and "Shannon" in embed_text(res)
    res = await w.slash(w.bob, "battle map")
    assert [n for n, _ in png_files(res)] == ["map.png"]
    res = await w.slash(w.bob, "endturn")  # not Bob's turn
    assert_refused(res)
    res = await w.slash(w.leader, "battle prevention", {"mode": "auto"})
    assert res.ephemeral
    state = await w.state()
    order = state.battle["order"]
    for owner in order:  # each adventurer ends their turn; the enemies act after the last
        member = next(m for m in (w.leader, w.bob) if str(m.id) == owner)
        if owner == str(w.leader.id):  # Shannon moves one hex first (the first free neighbour)
            unit = (await w.state()).battle["units"][f"a:{owner}"]
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                moved = await w.slash(member, "move", {"to": f"{unit['q'] + dq},{unit['r'] + dr}"})
                text, ephemeral = answer(moved)
                if not ephemeral:
                    break
            assert not ephemeral and "Shannon makes a move" in text, text
            assert not png_files(moved) and "🗺️ Map" in labels(moved.message)  # in words; the map a button away
            unit2 = (await w.state()).battle["units"][f"a:{owner}"]
            assert (unit2["q"], unit2["r"]) != (unit["q"], unit["r"])
        res = await w.slash(member, "endturn")
        text, ephemeral = answer(res)
        if "prevent" in text and (await w.state()).battle and (await w.state()).battle.get("await"):
            break
        assert not ephemeral, text
        # the mat a button away; a map only when the enemies acted (the turn passing on is told in words)
        assert any("mat" in lbl for lbl in labels(res.message)), text
        assert all(n.startswith("map-") for n, _ in png_files(res)), text
    state = await w.state()
    assert state.battle is None or state.battle["round"] >= 2 or state.battle.get("await"), state.battle
    if state.battle is not None:
        # the rest of the turn commands over the wire: each is answered (done, or refused with the fix)
        whose = state.battle.get("turn", {}).get("owner") or state.battle["order"][0]
        member = next(m for m in (w.leader, w.bob) if str(m.id) == whose)
        forms = await fake.autocomplete(member, w.chan, "engage", focused="form", value="")
        assert forms and len(forms) <= 25
        await fake.autocomplete(member, w.chan, "engage", focused="item", value="")
        await fake.autocomplete(member, w.chan, "ability", {"name": "race"}, focused="form", value="")
        await fake.autocomplete(member, w.chan, "battle class", focused="class", value="")
        for cmd, opts in (("engage", {"target": "99,99"}), ("resolve", {}), ("ability", {"name": "race"}),
                          ("battle escape", {}), ("battle prevent", {"use": "auto"}), ("battle drop", {"slot": 4}),
                          ("battle class", {"class": "knight"}), ("battle prevention", {"mode": "ask"}),
                          ("lockpick", {}), ("battle deploy", {"form": "magic"}),
                          ("battle adjust", {"unit": "99,99", "hp": -1}), ("reroll", {"dice": "1"}),
                          ("item use", {"item": "nothing"}), ("item ready", {"item": "nothing"}),
                          ("item stow", {"item": "nothing"}), ("item drop", {"item": "nothing"}),
                          ("battle stay", {}), ("campaign update", {})):
            res = await w.slash(member, cmd, opts)
            text, ephemeral = answer(res)
            assert text, (cmd, res.log)
        res = await w.slash(w.bob, "battle retreat")  # only the leader retreats
        assert_refused(res)
        res = await w.slash(w.leader, "battle retreat")
        text, ephemeral = answer(res)  # asked first, like /campaign end
        assert ephemeral and "Retreat from" in text and (await w.state()).battle["retreat"] is False, text
        res = await w.click(w.leader, res.message, button(res, "Retreat"))
        text, ephemeral = answer(res)
        assert not ephemeral and f"<@{w.leader.id}> calls the retreat" in text and "party agrees" not in text, text
        assert (await w.state()).battle["retreat"] is True


async def test_a_free_move_offered_during_the_enemy_turn_is_answered_by_menu_and_button(world: World) -> None:
    """Ryan (a Rogue) is engaged during the enemy phase: Slip Away is offered; the post pings Bob with a menu of
    hexes and a Stay button; a stranger's click is refused privately; Bob's pick moves Ryan and the enemies
    go on; a second offer is declined with /battle stay."""
    w, fake = world, world.fake
    await party(w)
    from engine.core import Action

    res = await w.slash(w.bob, "adventurer class", {"class": "rogue"})
    assert not answer(res)[1], answer(res)

    async def force(*values: int) -> None:  # the test's dice (Discord itself never forces dice)
        await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(w.leader.id),
                                                                 {"values": list(values)}))

    await force(2, 2)  # the draws: a High Elf Bandit and a Skeever Pup (both go for the weakest)
    res = await start_battle(w, {"encounter": "jailbreak"})
    assert not answer(res)[1], answer(res)
    from engine.hexes import Hex, neighbours
    from rulesets.tes.battle.model import map_info
    from rulesets.tes.content import load_pack

    state = await w.state()
    ryan = state.battle.units[f"a:{w.bob.id}"]
    passable = map_info(load_pack(state.pack, version=state.pack_version), state.battle).passable
    for uid in ("e1",):  # a bandit stands next to Ryan (the other hex next to him stays open to move to)
        unit = state.battle.units[uid]
        taken = {(u.q, u.r) for u in state.battle.units.values()}
        spot = next(f"{h.q},{h.r}" for h in neighbours(Hex(ryan.q, ryan.r)) if h in passable and h not in taken)
        res = await w.slash(w.leader, "battle adjust", {"unit": unit.short, "to": spot, "reason": "test setup"})
        assert not answer(res)[1], answer(res)
        state = await w.state()
    res = await w.slash(w.leader, "battle adjust", {"unit": "Ryan", "tenacity": 2, "hp": -1, "reason": "setup"})
    assert not answer(res)[1], answer(res)  # the weakest: the bandits go for Ryan
    res = await w.slash(w.leader, "endturn")
    await force(2, 2)  # each enemy rolls 1 damage
    res = await w.slash(w.bob, "endturn")
    text, ephemeral = answer(res)
    assert not ephemeral and "Slip Away for 1 tenacity lets Ryan move up to 2 hexes" in text, text
    assert f"<@{w.bob.id}>" in text and "Stay where you are" in labels(res.message)
    menu = next(c for c in res.message.iter_components() if c.get("type") == 3)
    assert menu["options"] and menu["options"][0]["label"].startswith("1. Move to ")
    stranger = await fake.select(w.cara, res.message, menu["custom_id"], [menu["options"][0]["value"]], timeout=10)
    assert_refused(stranger, "only their player or the party leader")
    before = (await w.state()).battle.units[f"a:{w.bob.id}"]
    picked = await fake.select(w.bob, res.message, menu["custom_id"], [menu["options"][0]["value"]], timeout=10)
    text, ephemeral = answer(picked)
    assert not ephemeral and "makes a free move (Slip Away)" in text, text
    after = (await w.state()).battle.units[f"a:{w.bob.id}"]
    assert (after.q, after.r) != (before.q, before.r)
    again = await fake.select(w.bob, res.message, menu["custom_id"], [menu["options"][0]["value"]], timeout=10)
    assert_refused(again, "out of date")
    state = await w.state()
    if state.battle.offers:  # the Skeever Pup reached Ryan and engaged him too
        res = await w.slash(w.bob, "battle stay")
        text, ephemeral = answer(res)
        assert not ephemeral and "stays in place and keeps the tenacity" in text, text
    state = await w.state()
    assert not state.battle.offers and state.battle.round == 2


async def test_a_delve_through_discord_explores_answers_a_choice_and_places_a_tile(world: World) -> None:
    """A delve over the wire: /battle start on a delve, /explore draws a card whose choice waits for each player
    (one answers with /battle choose, the other with the menu), then the tile's placements come as a picture with a
    menu and a button; a stranger's click is refused; the explorer's click places the tile; /battle free has no
    cage to open here and says so."""
    w, fake = world, world.fake
    await party(w)
    from engine.core import Action
    from rulesets.tes.content import load_pack

    async def force(*values: int) -> None:  # the test's dice (Discord itself never forces dice)
        await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(w.leader.id),
                                                                 {"values": list(values)}))

    pack = load_pack("starter")
    cards = sorted(k for k, c in pack.delve_cards.items() if c.province in (None, "SM") and not c.special)
    want = ["mildew-hollow"] + [c for c in cards if c != "mildew-hollow"]
    deck, rolls = list(cards), []
    for i in range(len(deck) - 1, 0, -1):  # the shuffle's dice that deal the deck in the order wanted
        j = deck.index(want[i])
        rolls.append(j + 1)
        deck[i], deck[j] = deck[j], deck[i]
    await force(*rolls, 3, 2, 3, 2, 3, 2)  # and the tile stacks left in their printed order
    encounters = await fake.autocomplete(w.leader, w.chan, "battle start", focused="encounter", value="brine")
    assert [c["value"] for c in encounters] == ["brinehollow-caves"]
    res = await start_battle(w, {"encounter": "brinehollow-caves", "deploy": "1,0 1,1"})  # Cara sits it out
    text, ephemeral = answer(res)
    assert not ephemeral and "A delve: only the entrance tile is on the map" in text, text
    assert "Shannon starts the turn in explorable hex 1,0" in text
    assert [n for n, _ in png_files(res)][0].startswith("map-")
    res = await w.slash(w.bob, "explore")  # not Bob's turn
    assert_refused(res, "Shannon's turn")
    res = await w.slash(w.leader, "explore")
    text, ephemeral = answer(res)
    assert not ephemeral and "draws **Mildew Hollow** (SM-01)" in text, text
    assert f"<@{w.leader.id}>" in text and "Take the default" in labels(res.message)
    res = await w.slash(w.leader, "battle choose", {"option": 2})
    text, ephemeral = answer(res)
    assert not ephemeral and "Shannon chooses: Gain bane (Mildew Hollow)" in text, text
    assert f"<@{w.bob.id}>" in text  # now Ryan's player is asked
    menu = next(c for c in res.message.iter_components() if c.get("type") == 3)
    assert [o["label"] for o in menu["options"]] == ["1. Drain a Combat die", "2. Gain bane"]
    picked = await fake.select(w.bob, res.message, menu["custom_id"], ["1"], timeout=10)
    text, ephemeral = answer(picked)
    assert not ephemeral and "Ryan chooses: Drain a Combat die" in text, text
    names = [n for n, _ in png_files(picked)]
    assert names == [names[0]] and names[0].startswith("placements-"), names  # the one picture: what to choose
    assert "Use the suggested placement" in labels(picked.message)
    again = await fake.select(w.bob, res.message, menu["custom_id"], ["1"], timeout=10)
    assert_refused(again, "out of date")
    stranger = await w.click(w.cara, picked.message, button(picked, "Use the suggested placement"))
    assert_refused(stranger, "only their player or the party leader")
    await force(1)  # the tile's enemy: the first level 1 chip of the bag
    placed = await w.click(w.leader, picked.message, button(picked, "Use the suggested placement"))
    text, ephemeral = answer(placed)
    assert not ephemeral and "Collapsed Alcove (tile 1) connects to hex 1,0" in text, text
    state = await w.state()
    assert state.battle.map_version == 1 and state.battle.delve.cards["alcove-3a"].shards == 1
    res = await w.slash(w.bob, "battle map", {"at": "3,0"})
    assert [n for n, _ in png_files(res)] == ["map.png"]
    res = await w.slash(w.leader, "explore", {"at": "9,9"})
    assert_refused(res, "not explorable")
    res = await w.slash(w.leader, "battle free")
    assert_refused(res, "no cages in this battle")
    res = await w.slash(w.leader, "battle status")
    assert "Skyshards" in embed_text(res) and "Mildew Hollow" in embed_text(res)


# ============================================================================= 9. names, privacy, honest failures
def expected_errors(kind: str) -> None:
    """A test that provokes an error on purpose takes those records out of the fixture's clean check."""
    for h in logging.getLogger("hexpost").handlers:
        if isinstance(h, _Errors):
            h.records = [r for r in h.records if kind not in r.getMessage()]


async def test_member_names_are_kept_with_the_campaign_across_restarts(world: World, monkeypatch) -> None:
    """After a restart the bot knows no member (no members intent), yet mats name the players; a member who
    changes their name is renamed when they next act; the log replays to the same names."""
    import render as render_pkg
    from engine.service import replay

    w, fake = world, world.fake
    await party(w)
    state = await w.state()
    assert state.names == {str(w.leader.id): "lena", str(w.bob.id): "bob", str(w.cara.id): "cara"}

    await w.restart()
    for guild in w.bot.guilds:  # what Discord sends a bot without the members intent: no member list
        guild._members.clear()
    views = []
    real = render_pkg.render
    monkeypatch.setattr(render_pkg, "render", lambda kind, view: views.append((kind, view)) or real(kind, view))
    res = await w.slash(w.cara, "campaign status")
    mat = await w.click(w.cara, res.message, button(res.message, "Mat: Ryan"))
    assert png_files(mat) and [v["player"] for k, v in views if k == "mat"] == ["bob"]

    w.bob.nick = "Bobby the Bold"
    res = await w.slash(w.bob, "adventurer class", {"class": "knight"})
    text, ephemeral = answer(res)
    assert not ephemeral, text
    state = await w.state()
    assert state.names[str(w.bob.id)] == "Bobby the Bold"
    cid = await w.bot.table.service.campaign_id(str(w.chan.id))
    assert replay(await w.bot.store.log(cid)).to_dict() == state.to_dict()
    # the export carries them (state and log), so an import keeps them too
    res = await w.slash(w.leader, "campaign export")
    (name, data), = res.files
    doc = json.loads(data)
    assert doc["state"]["names"][str(w.bob.id)] == "Bobby the Bold"


async def test_answers_for_the_asker_alone_stay_private_when_slow(world: World, monkeypatch) -> None:
    """A slow answer is deferred first; one meant for the asker alone must not become public."""
    import cogs.common

    w = world
    await party(w)
    monkeypatch.setattr(cogs.common, "DEFER_AFTER", 0.0)  # every command is "slow"
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak"})
    text, ephemeral = answer(res)  # the question about Cara (no adventurer) is for the leader alone
    assert res.callback_type == 5 and ephemeral and "Start anyway?" in text, text
    assert not answer(await w.slash(w.cara, "campaign leave"))[1]  # she sits it out: the battle starts at once
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak"})
    text, ephemeral = answer(res)
    assert res.callback_type == 5 and not ephemeral and png_files(res), text
    res = await w.slash(w.leader, "battle prevention", {"mode": "ask"})
    text, ephemeral = answer(res)
    assert res.callback_type == 5 and ephemeral and "ask" in text.lower(), (text, res.log)
    res = await w.slash(w.bob, "help")  # a private answer of a command that is not always private
    text, ephemeral = answer(res)
    assert ephemeral, (text, res.log)
    res = await w.slash(w.bob, "battle status")  # public answers stay public
    text, ephemeral = answer(res)
    assert not ephemeral


async def test_a_failed_answer_after_a_commit_says_what_was_saved(world: World, monkeypatch) -> None:
    import render as render_pkg

    w = world
    await party(w, adventurers=False)
    cid = await w.bot.table.service.campaign_id(str(w.chan.id))
    before = await w.bot.store.log_count(cid)

    def broken(kind, view):
        raise OSError("the picture could not be drawn")

    monkeypatch.setattr(render_pkg, "render", broken)
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "dark-elf",
                                                      "line": "destruction-staff"})
    await res.wait(10, followups=1)
    texts = [fu.history[-1].get("content") or "" for fu in res.followups]
    said = " ".join(texts)
    assert "nothing was changed" not in said.lower(), said
    assert f"#{before + 1}" in said and "saved" in said.lower() and "do not repeat" in said.lower(), said
    assert str(w.bob.id) in (await w.state()).adventurers
    assert await w.bot.store.log_count(cid) == before + 1
    expected_errors("answering adventurer create")


async def test_a_refused_post_after_a_commit_says_what_was_saved(world: World) -> None:
    """Discord refuses the message with the picture (413): the player is told the action was saved, and its
    number, not that nothing changed."""
    w, fake = world, world.fake
    await party(w, adventurers=False)
    cid = await w.bot.table.service.campaign_id(str(w.chan.id))
    before = await w.bot.store.log_count(cid)
    rule = fake.fail("POST", "/webhooks/*", status=413, times=1)
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "dark-elf",
                                                      "line": "destruction-staff"})
    await res.wait(10, followups=1)
    assert rule.hits == 1
    said = " ".join(fu.history[-1].get("content") or "" for fu in res.followups)
    assert "nothing was changed" not in said.lower(), said
    assert f"#{before + 1} (adventurer create)" in said and "do not repeat" in said.lower(), said
    assert await w.bot.store.log_count(cid) == before + 1
    expected_errors("answering adventurer create")


async def test_player_options_name_party_members_only(world: World) -> None:
    w, fake = world, world.fake
    await party(w)
    dave = fake.add_member(w.guild, "dave")  # on the server, not in the party
    before = (await w.state()).to_dict()
    res = await w.slash(w.leader, "adventurer create", {"name": "Pal", "race": "nord", "line": "bow",
                                                        "player": dave})
    assert_refused(res, "member of this party", "/campaign join")
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak", "first": dave})
    assert_refused(res, "member of this party")
    res = await w.slash(w.leader, "campaign leader", {"player": dave})
    assert_refused(res, "member of this party")
    assert (await w.state()).to_dict() == before
    for res in fake.interactions:  # nobody outside the party was ever allowed a ping
        for payload in (res.message.history if res.message else []):
            users = (payload.get("allowed_mentions") or {}).get("users") or []
            assert str(dave.id) not in [str(u) for u in users]


async def test_a_command_declared_by_another_ruleset_is_published_and_answered(world: World) -> None:
    """A ruleset's new command needs only its declaration: after a restart it is published and runs."""
    from engine.commands import COMMANDS, GROUPS, Opt, command, group
    from engine.reply import Reply

    w, fake = world, world.fake

    @command("drill muster", "Muster a warband for a skirmish.",
             Opt("size", int, "How many models", required=True, min=3, max=12),
             Opt("rival", str, "The opposing player", user=True), ruleset="skirmish")
    async def muster(inv, size, rival=None):
        return Reply(content=f"A warband of {size} musters.")

    group("drill", "Drills for a made-up ruleset")
    try:
        await w.restart()
        cmd = fake.find_command("drill muster")
        assert cmd is not None and [o["name"] for o in cmd["options"]] == ["size", "rival"]
        assert cmd["options"][0]["min_value"] == 3 and cmd["options"][1]["type"] == 6
        res = await w.slash(w.bob, "drill muster", {"size": 5}, channel=w.lobby)
        text, ephemeral = answer(res)
        assert text == "A warband of 5 musters." and not ephemeral
        await party(w, adventurers=False)  # a channel playing another game refuses it, naming why
        res = await w.slash(w.bob, "drill muster", {"size": 5})
        assert_refused(res, "belongs to")
    finally:
        COMMANDS.pop("drill muster", None)
        GROUPS.pop("drill", None)


async def test_a_malformed_deploy_names_the_fix(world: World) -> None:
    """Issue: /battle start with a malformed deploy: answered "Something went wrong on our side"."""
    w = world
    await party(w)
    for bad in ("zz", "1,2,3", ",", "1"):
        res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak", "deploy": bad})
        text = assert_refused(res, "deploy", "q,r")
        assert "went wrong" not in text
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak", "deploy": "99,99"})
    text = assert_refused(res, "entrance")  # a hex off the entrance tile: the refusal lists the free ones
    assert (await w.state()).battle is None
    import re

    free = [h for h in re.findall(r"-?\d+,-?\d+", text) if h != "99,99"]
    res = await start_battle(w, {"encounter": "jailbreak", "deploy": free[-1]})
    text, ephemeral = answer(res)
    assert not ephemeral, text
    unit = (await w.state()).battle["units"][f"a:{w.leader.id}"]
    assert f"{unit['q']},{unit['r']}" == free[-1]


def test_without_a_network_the_bot_says_what_failed_and_how_to_check(tmp_path) -> None:
    import subprocess
    import sys

    script = (
        "import sys, discord.http\n"
        "discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10'\n"  # nothing listens there: no network
        "import bot\n"
        f"sys.exit(bot.main(['--db', {str(tmp_path / 'x.db')!r}]))\n"
    )
    env = {**__import__("os").environ, "DISCORD_TOKEN": "a.token.value", "HEXPOST_LOG_LEVEL": "ERROR"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env,
                          cwd=str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    assert done.returncode == 2, done.stderr
    assert "could not reach Discord" in done.stderr and "discordstatus.com" in done.stderr
    assert "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr, done.stderr


# ============================================================================= nudges: quiet hours, repeats, snooze, away
class Clock:
    """The bot's clock for a test: reminders and /me read it (``CampaignService.clock``)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_reminders_wait_out_quiet_hours_repeat_snooze_and_skip_the_away(world: World) -> None:
    """Lena sets Berlin time and quiet hours 22-07: her reminder due at 22:00 her time waits until 07:00 and
    comes then, with Snooze buttons; it repeats every reminder_hours until she moves; Bob cannot snooze it, she
    snoozes it 8 hours; when she ends her turn her reminders stop.  Bob is away: his reminder is skipped, the
    status says so, and the leader acts for him, told that he is away."""
    from datetime import datetime, timezone

    from cogs.reminders import remind_round

    w, fake = world, world.fake
    hour = 3600
    t0 = datetime(2030, 1, 7, 20, 0, tzinfo=timezone.utc).timestamp()  # 21:00 in Berlin
    clock = Clock(t0)
    w.bot.table.service.clock = clock
    lena, bob = str(w.leader.id), str(w.bob.id)

    assert_refused(await w.slash(w.leader, "me settings", {"timezone": "Berlin"}), "Europe/Berlin", "nothing")
    assert_refused(await w.slash(w.leader, "me settings", {"quiet": "10pm"}), "22-07")
    res = await w.slash(w.leader, "me settings", {"timezone": "Europe/Berlin", "quiet": "22-07"})
    assert res.ephemeral and "Europe/Berlin" in embed_text(res) and "22:00 to 07:00" in embed_text(res)
    assert "21:00" in embed_text(res)  # her clock now

    await party(w)
    assert not (await w.slash(w.leader, "campaign settings", {"reminder_hours": 1})).ephemeral
    res = await start_battle(w, {"encounter": "jailbreak"})
    assert not answer(res)[1], answer(res)
    assert (await w.state()).battle["order"][0] == lena  # Lena's turn first
    posts = lambda: [m for m in fake.channel_messages(w.chan)  # noqa: E731
                     if m.content.endswith("it's your move in **Night Watch**.")]

    assert await remind_round(w.bot, t0 + hour) == 0  # due at 22:00 her time: held
    cid = (await w.bot.store.load_active(str(w.chan.id))).id
    [held] = await w.bot.store.pending_reminders(cid)
    assert held.due_at == t0 + 10 * hour  # 07:00 in Berlin
    assert await remind_round(w.bot, t0 + 10 * hour - 60) == 0 and posts() == []
    assert await remind_round(w.bot, t0 + 10 * hour) == 1
    [first] = posts()
    assert first.content == f"<@{lena}>, it's your move in **Night Watch**."
    assert labels(first) == ["Snooze: 1 hour", "Snooze: 8 hours", "Snooze: Until tomorrow"]
    assert [str(u) for u in first.history[-1]["allowed_mentions"]["users"]] == [lena]

    assert await remind_round(w.bot, t0 + 10.5 * hour) == 0
    assert await remind_round(w.bot, t0 + 11 * hour) == 1  # again, an hour later: she has not moved
    second = posts()[-1]
    assert len(posts()) == 2 and second.content == first.content

    clock.now = t0 + 11 * hour
    assert_refused(await w.click(w.bob, second, button(second, "Snooze: 8")), "only", f"<@{lena}>")
    res = await w.click(w.leader, second, button(second, "Snooze: 8"))
    text, ephemeral = answer(res)
    assert ephemeral and "Snoozed" in text and f"<t:{int(t0 + 19 * hour)}:f>" in text, text
    assert await remind_round(w.bot, t0 + 12 * hour) == 0  # the hourly repeat is snoozed
    assert await remind_round(w.bot, t0 + 19 * hour) == 1 and len(posts()) == 3

    clock.now = t0 + 20 * hour
    res = await w.slash(w.leader, "endturn")
    assert not answer(res)[1], answer(res)
    assert await remind_round(w.bot, t0 + 21 * hour) == 1  # Bob's move now: his reminder, an hour on
    assert [m.content for m in posts()][-1] == f"<@{bob}>, it's your move in **Night Watch**."
    assert not any(m.content.startswith(f"<@{lena}>") for m in posts()[3:])  # none for Lena any more
    n = len(posts())

    assert_refused(await w.slash(w.bob, "me away", {"until": "someday"}), "2026-12-24")
    assert_refused(await w.slash(w.bob, "me away", {"until": "2030-01-01"}), "after today")
    res = await w.slash(w.bob, "me away", {"until": "2030-01-20"})
    back = datetime(2030, 1, 20, tzinfo=timezone.utc).timestamp()  # Bob keeps UTC
    text, ephemeral = answer(res)
    assert ephemeral and f"<t:{int(back)}:f>" in text, text
    assert await remind_round(w.bot, t0 + 60 * hour) == 0 and len(posts()) == n  # away: skipped
    [waiting] = await w.bot.store.pending_reminders(cid)
    assert waiting.user_id == bob and waiting.due_at == back

    res = await w.slash(w.cara, "campaign status")
    assert f"<@{bob}> is away until <t:{int(back)}:f>" in embed_text(res), embed_text(res)
    res = await w.slash(w.leader, "endturn", {"player": w.bob})
    text, ephemeral = answer(res)
    assert not ephemeral and f"<@{bob}> is away until <t:{int(back)}:f>; you acted for them" in text, text
    [entry] = await w.bot.store.log(cid, limit=1)
    assert (entry.type, entry.on_behalf) == ("battle.endturn", bob)

    res = await w.slash(w.bob, "me away", {"until": "off"})
    assert "Welcome back" in answer(res)[0]
    res = await w.slash(w.bob, "me settings")
    assert res.ephemeral and "UTC (not set)" in embed_text(res) and '"Away", "value": "no"' in embed_text(res)
    res = await w.slash(w.cara, "campaign status")
    assert "is away" not in embed_text(res)


# ============================================================================= 7. the 3-second figure
async def test_mine_and_the_recap_answer_privately(world: World) -> None:
    """/mine and /campaign recap over the wire (tests/test_e2e_recap.py plays them in full)."""
    w = world
    await party(w, adventurers=False)
    res = await w.slash(w.bob, "mine", channel=w.lobby)
    assert res.ephemeral and "No campaign on this server waits for you" in res.content
    res = await w.slash(w.bob, "me digest", {"when": "daily"})
    assert res.ephemeral and "Your daily digest is on" in res.content
    res = await w.slash(w.cara, "campaign recap")  # she joined last
    assert res.ephemeral and "Nothing happened in **Night Watch** since your last action" in res.content
    res = await w.slash(w.leader, "campaign recap")
    assert res.ephemeral and "What you missed in Night Watch" in embed_text(res) and "joins the party" in embed_text(res)


def test_zz_latency_summary() -> None:
    """Runs last in this module: the worst first-response latency over every interaction above."""
    if not LATENCIES:
        pytest.skip("no interaction ran (run the whole module)")
    worst = max(LATENCIES)
    print(f"\n[e2e] {len(LATENCIES)} interactions, max first-response latency {worst * 1000:.0f} ms "
          f"(deadline {DEADLINE:.0f} s)")
    assert worst <= DEADLINE
    # the other rulesets' commands: see test_skirmish_e2e.py, test_engage_e2e.py and test_duel_e2e.py
    missing = {c for c in PUBLISHED - INVOKED if not c.startswith(("skirmish ", "mini ", "duel "))}
    print(f"[e2e] {len(INVOKED & PUBLISHED)}/{len(PUBLISHED)} published slash commands run over the wire")
    if len(LATENCIES) > 100:  # the whole module ran: every published command was exercised
        assert not missing, sorted(missing)
