"""The dashboard post and the pictures' alt text, with the real bot over the fake Discord.

One post per campaign, edited in place after every action (across a restart of the bot: one post, never two),
posted again once when it was deleted, pinned where the bot may pin; every picture the bot posts carries its
description (what it shows, in words).
"""
from __future__ import annotations

import asyncio

import json
import re

from engine.core import Action
from test_e2e_discord import World, answer, party, png_files, start_battle, world  # noqa: F401 - the fixture
from test_skirmish_e2e import play_example

TIMESTAMP = re.compile(r"<t:(\d+):([fR])>")


async def settled(w: World) -> None:
    """Wait until the bot has finished every dashboard update it was asked for.  The request is made just after the
    answer is sent, so the answer can reach the test first: give it a moment (twice) before waiting."""
    for _ in range(2):
        await asyncio.sleep(max(0.05, getattr(w.bot.dashboards, "settle", 0.0)) + 0.05)
        await w.bot.dashboards.idle()


def dashboards(w: World, *, include_deleted: bool = False) -> list:
    """The bot's dashboard posts in the campaign channel (messages it sent itself, not answers)."""
    return [m for m in w.fake.channel_messages(w.chan, include_deleted=include_deleted)
            if m.interaction_metadata is None and m.embeds and "edited after every action" in
            json.dumps(m.embeds[0].get("footer") or {})]


def text_of(msg) -> str:
    return json.dumps(msg.embeds, ensure_ascii=False)


async def test_one_dashboard_edited_in_place_across_a_restart(world: World) -> None:
    w = world
    await party(w)
    await settled(w)
    (post,) = dashboards(w)
    assert post.pinned  # the fake lets the bot pin (it has Manage Messages)
    first = text_of(post)
    assert "Night Watch" in first and "Creating adventurers" in first  # Cara has no adventurer yet
    assert "Whose move: nobody's — still to create: cara" in first
    assert "Ryan the Dark Elf joins the party" in first  # the latest things that happened, in words

    res = await start_battle(w, {"encounter": "jailbreak"})
    assert png_files(res)
    await settled(w)
    (again,) = dashboards(w)
    assert again.id == post.id and post.edits >= 1
    now = text_of(post)
    assert "Battle: Jailbreak Introduction, round 1" in now
    state = await w.state()
    from rulesets.tes import rules

    whose, _key = rules.whose_move(state)
    assert f"Whose move: <@{whose}>" in now
    stamps = TIMESTAMP.findall(now)
    assert {style for _t, style in stamps} == {"f", "R"}  # since when (and the reminder), as Discord timestamps
    (picture,) = post.attachments
    assert picture.filename == "dashboard.png" and picture.data.startswith(b"\x89PNG")
    assert "Battle map: Jailbreak Introduction" in picture.description
    assert "HP" in picture.description and "'s move" in picture.description
    # the answers' pictures carry their alt text too: the mats of the creation, the battle map of the start
    posted = [a for m in w.fake.messages.values() for a in m.attachments if a.filename.endswith(".png")]
    assert len(posted) >= 4 and all(a.description and len(a.description) <= 1024 for a in posted)
    mats = [a.description for a in posted if "mat" in a.filename]
    assert any(d.startswith("Shannon's mat") and "HP 5/5" in d for d in mats), mats
    maps = [a.description for a in posted if a.filename.startswith("map")]
    assert maps and all("Battle map: Jailbreak Introduction" in d for d in maps), maps

    await w.restart()
    edits = post.edits
    res = await w.slash(w.leader, "campaign settings", {"reminder_hours": 0})
    assert not answer(res)[1]
    await settled(w)
    assert [m.id for m in dashboards(w)] == [post.id]  # after the restart: the same post, edited
    assert post.edits == edits + 1
    assert "No deadline" in text_of(post)
    assert len(dashboards(w, include_deleted=True)) == 1


async def test_a_deleted_dashboard_is_posted_again_once(world: World) -> None:
    w = world
    await party(w, adventurers=False)
    await settled(w)
    (post,) = dashboards(w)
    w.fake.delete_message(post)
    res = await w.slash(w.leader, "adventurer create",
                        {"name": "Shannon", "race": "argonian", "line": "one-hand-and-shield"})
    assert png_files(res)
    await settled(w)
    (new,) = dashboards(w)
    assert new.id != post.id and new.pinned and "Shannon the Argonian joins" in text_of(new)
    cid = await w.bot.table.service.campaign_id(str(w.chan.id))
    row = await w.bot.store.dashboard(cid)
    assert row.message_id == str(new.id)  # its new id is kept
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "dark-elf",
                                                     "line": "destruction-staff"})
    await settled(w)
    assert [m.id for m in dashboards(w)] == [new.id] and new.edits == 1  # edited, not posted a third time
    assert len(dashboards(w, include_deleted=True)) == 2


async def test_without_the_pin_permission_the_dashboard_is_posted_unpinned(world: World) -> None:
    w = world
    w.fake.fail("PUT", "/channels/*/messages/pins/*", status=403, code=50013, message="Missing Permissions")
    res = await w.slash(w.leader, "campaign new", {"name": "Night Watch", "difficulty": "adept"})
    assert not answer(res)[1]
    await settled(w)
    (post,) = dashboards(w)
    assert not post.pinned and "Night Watch" in text_of(post)


async def test_two_quick_actions_make_one_edit_of_the_latest(world: World) -> None:
    w = world
    await party(w, adventurers=False)
    await settled(w)
    (post,) = dashboards(w)
    edits = post.edits
    boards = w.bot.dashboards
    boards.pause()  # the dashboard's update is slow: both actions come in before it runs
    try:
        await w.slash(w.leader, "adventurer create", {"name": "Shannon", "race": "argonian",
                                                      "line": "one-hand-and-shield"})
        await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
        assert post.edits == edits  # the replies did not wait for the dashboard
    finally:
        boards.resume()
    await settled(w)
    assert post.edits == edits + 1
    assert "Ryan the Dark Elf joins" in text_of(post) and "Shannon the Argonian joins" in text_of(post)


async def test_a_skirmish_dashboard_and_alt_text_on_its_pictures(world: World) -> None:
    w = world
    await play_example(w)
    await settled(w)
    (post,) = dashboards(w)
    text = text_of(post)
    assert "Skirmish" in text and ("Battle round" in text or "The battle is over" in text)
    (picture,) = post.attachments
    assert picture.description.startswith("Fen Crossing") or "Skirmish map" in picture.description
    posted = [a for m in w.fake.messages.values() for a in m.attachments if a.filename.endswith(".png")]
    assert posted and all(a.description for a in posted)  # every picture the bot posted says what it shows
    assert all(len(a.description) <= 1024 for a in posted)
    maps = [a for a in posted if a.filename.startswith("skirmish-map")]
    assert maps and all("wounds left: " in a.description for a in maps)


async def test_a_time_out_moves_the_dashboard_too(world: World) -> None:
    """A deadline's action (no interaction) edits the dashboard as a command does."""
    w = world
    await party(w)
    await settled(w)
    (post,) = dashboards(w)
    edits = post.edits
    from cogs.deadlines import post_reply
    from engine.reply import Reply

    await w.bot.table.service.execute(str(w.chan.id), Action("campaign.settings", str(w.leader.id),
                                                             {"reminder_hours": 2}))
    await post_reply(w.bot, str(w.chan.id), Reply(content="A time-out's post."))
    await settled(w)
    assert post.edits == edits + 1
