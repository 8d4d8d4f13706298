"""The example engage game through the fake Discord with the real, unmodified bot: every /mini command over the
wire, the intercept question answered by its menu, a stranger's click refused, the question's time-out posted by
the deadline loop.  The local table's /force lines (not a slash command) queue the dice through the service."""
from __future__ import annotations

import time
from pathlib import Path

from commands.core import COMMANDS
from commands.local import parse_line
from engine.core import Action
from test_e2e_discord import World, answer, assert_refused, button, png_files, world  # noqa: F401 - the fixture

EXAMPLE = (Path(__file__).resolve().parent.parent / "examples" / "engage.txt").read_text()
BATTLE = ("start", "engage", "intercept", "move", "shoot", "cast", "next", "end")


def typed(name: str, options: dict[str, str]) -> dict:
    cmd = COMMANDS[name]
    out = {}
    for opt in cmd.options:
        if opt.name in options:
            v = options[opt.name]
            out[opt.name] = int(v) if opt.type is int else (v.lower() in ("yes", "true")) if opt.type is bool else v
    return out


async def force(w: World, values: list[int]) -> None:
    await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(w.leader.id), {"values": values}))


async def play(w: World, lines: list[str], *, menu_for_intercept: bool = True) -> None:
    people = {"lena": w.leader, "bob": w.bob}
    user = "lena"
    last = None
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        who, name, options = parse_line(line)
        if name == "as":
            user = options["_args"].strip()
            continue
        if name == "force":
            await force(w, [int(v) for v in (options.get("values") or options["_args"]).split()])
            continue
        member = people[who or user]
        if name == "mini intercept" and menu_for_intercept and last is not None:
            res = await answer_by_menu(w, member, last, options["unit"])
        else:
            res = await w.slash(member, name, typed(name, options))
        text, ephemeral = answer(res)
        assert not ephemeral, (line, text)
        if name.split()[-1] in BATTLE:
            assert any(n.startswith("mini-") for n, _ in png_files(res)), line
            state = await w.state()
            if state.phase == "battle":  # whoever must act is named and pinged, nobody else
                who_now = state.pending["owner"] if state.pending else state.turn.player
                assert f"<@{who_now}>" in text, (line, text)
                assert [str(u) for u in res.message.history[-1]["allowed_mentions"]["users"]] == [who_now]
        last = res


async def answer_by_menu(w: World, member, res, unit: str):
    """Pick the unit in the intercept question's menu (after a stranger's pick is refused)."""
    menu = next(c for c in res.message.iter_components() if c.get("type") == 3)
    value = next(o["value"] for o in menu["options"] if f"({unit})" in o["label"])
    stranger = await w.fake.select(w.cara, res.message, menu["custom_id"], [value], timeout=10)
    assert_refused(stranger, "only they (or the party leader) answer it")
    return await w.fake.select(member, res.message, menu["custom_id"], [value], timeout=10)


async def test_the_example_engage_game_over_discord(world: World) -> None:
    w = world
    await play(w, EXAMPLE.splitlines())
    s = await w.state()
    got = {u.id: (u.hex, u.damage, u.out) for u in s.units.values()}
    assert got == {"a1": (None, 2, True), "a2": ((5, 6), 1, False), "a3": ((2, 5), 0, False),
                   "a4": (None, 2, True), "b1": ((0, 8), 1, False), "b2": ((2, 7), 1, False),
                   "b3": (None, 3, True)}
    assert (s.turn.number, s.turn.player) == (6, str(w.bob.id))
    res = await w.slash(w.cara, "mini map")
    assert [n for n, _ in png_files(res)] == ["mini-map.png"]
    res = await w.slash(w.cara, "campaign status")
    assert png_files(res) and "Bell Night" in str(res.embeds)


async def test_every_mini_command_and_the_intercept_time_out(world: World) -> None:
    from cogs.deadlines import post_reply
    from engine.deadlines import run_due_deadlines

    w = world
    res = await w.slash(w.leader, "campaign new", {"name": "Marsh Watch", "ruleset": "engage"})
    assert res.embeds and "/mini field" in str(res.embeds)
    res = await w.slash(w.bob, "mini units")
    assert res.ephemeral and "Gallows Wraith" in str(res.embeds) and "causes Fear" in str(res.embeds)
    res = await w.slash(w.bob, "mini settings", {"intercept_minutes": 5})
    assert_refused(res, "Only the party leader")
    res = await w.slash(w.leader, "mini settings", {"intercept_minutes": 5})
    assert not answer(res)[1] and "intercept_minutes = 5" in answer(res)[0]
    res = await w.slash(w.leader, "engage", {"dice": "1"})  # the other game's /engage: refused, naming why
    assert_refused(res, "belongs to")
    found = await w.fake.autocomplete(w.leader, w.chan, "mini field", focused="unit", value="wrai")
    assert [c["value"] for c in found] == ["gallows-wraith"]
    for member, unit, at in ((w.leader, "reed-spear", "3,1"), (w.leader, "bog-strider", "4,1"),
                             (w.leader, "lantern-bow", "5,1"), (w.bob, "gallows-wraith", "3,9")):
        res = await w.slash(member, "mini field", {"unit": unit, "at": at})
        assert not answer(res)[1] and png_files(res), answer(res)
    res = await w.slash(w.bob, "mini field", {"unit": "reed-spear", "at": "4,4"})
    assert_refused(res, "outside your deployment zone")
    res = await w.slash(w.leader, "mini remove", {"unit": "a3"})
    assert not answer(res)[1]
    await force(w, [12, 4])
    res = await w.slash(w.leader, "mini start")
    text, ephemeral = answer(res)
    assert not ephemeral and f"<@{w.leader.id}>" in text
    res = await w.slash(w.bob, "mini end")
    assert_refused(res, "wait for yours")
    res = await w.slash(w.leader, "mini move", {"unit": "a1", "to": "3,4"})
    assert not answer(res)[1], answer(res)
    res = await w.slash(w.leader, "mini next")  # Lena ends her Move phase; nothing to shoot or cast: Bob's turn
    text, ephemeral = answer(res)
    assert not ephemeral and "Nothing more to do in the Shoot and Cast phases" in text and f"<@{w.bob.id}>" in text
    res = await w.slash(w.bob, "mini end")
    assert not answer(res)[1], answer(res)
    res = await w.slash(w.leader, "mini move", {"unit": "a2", "to": "0,6"})
    assert_refused(res, "It is the Engage phase", "/mini next")
    res = await w.slash(w.leader, "mini next")  # Lena's second turn: past the Engage phase to Move
    assert not answer(res)[1], answer(res)
    res = await w.slash(w.leader, "mini move", {"unit": "a2", "to": "0,6"})
    assert not answer(res)[1], answer(res)
    res = await w.slash(w.leader, "mini end")
    assert not answer(res)[1], answer(res)
    # Bob's Wraith engages out of sight (17: 9 in): Lena may intercept with her Bog Strider; five minutes to answer
    await force(w, [17, 10, 15, 15])  # the roll, then (at the time-out) Fear and the Melee: two misses
    res = await w.slash(w.bob, "mini engage", {"unit": "b1", "target": "a1"})
    text, ephemeral = answer(res)
    assert not ephemeral and "may intercept" in text and f"<@{w.leader.id}>" in text, text
    assert "within 5 minutes" in text and "No intercept" in [c.get("label") for c in res.message.iter_components()]
    assert [str(u) for u in res.message.history[-1]["allowed_mentions"]["users"]] == [str(w.leader.id)]
    assert any(n.startswith("mini-engage-") for n, _ in png_files(res))
    res2 = await w.slash(w.bob, "mini move", {"unit": "b1", "to": "3,8"})
    assert_refused(res2, "waits for")
    res2 = await w.click(w.bob, res.message, button(res, "No intercept"))
    assert_refused(res2, "only they (or the party leader) answer it")
    posts = []

    async def send(channel_id, reply):
        posts.append(reply)
        await post_reply(w.bot, channel_id, reply)

    assert await run_due_deadlines(w.bot.table, send, now=time.time() + 60) == 0
    assert await run_due_deadlines(w.bot.table, send, now=time.time() + 301) == 1
    assert "did not answer within 5 minutes: no unit intercepts" in posts[0].content
    assert "The engage succeeds" in posts[0].content and "Fear: Reed Spear (a1)" in posts[0].content
    state = await w.state()
    assert state.pending is None and state.last["result"] == "success" and state.units["b1"].hex == (2, 5)
    assert any(p.kind == "engage" for p in posts[0].pictures)
    posted = [m for m in w.fake.channel_messages(w.chan) if m.content][-1]  # an answer, not the dashboard
    assert "no unit intercepts" in posted.content
    stale = await w.click(w.leader, res.message, button(res, "No intercept"))
    assert_refused(stale, "out of date")
    res = await w.slash(w.cara, "mini status")
    assert png_files(res) and "Marsh Watch" in str(res.embeds)
    assert "Gallows Wraith (b1) strikes first at Reed Spear (a1)" in posts[0].content
    assert state.turn.player == str(w.leader.id) and state.forced == []
    res = await w.slash(w.bob, "mini shoot", {"unit": "b1", "target": "a1"})
    assert_refused(res, "wait for yours")
    res = await w.slash(w.leader, "mini cast", {"unit": "a1", "spell": "mire-grip", "target": "b1"})
    assert_refused(res, "/mini next")
