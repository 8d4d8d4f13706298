"""The example skirmish through the fake Discord with the real, unmodified bot, and every /skirmish command
over the wire.  The local table's /force lines (not a slash command) queue the dice through the service."""
from __future__ import annotations

from pathlib import Path

from commands.core import COMMANDS
from commands.local import parse_line
from engine.core import Action
from test_e2e_discord import World, answer, assert_refused, button, png_files, world  # noqa: F401 - the fixture

EXAMPLE = (Path(__file__).resolve().parent.parent / "examples" / "skirmish.txt").read_text()


def typed(name: str, options: dict[str, str]) -> dict:
    cmd = COMMANDS[name]
    out = {}
    for opt in cmd.options:
        if opt.name in options:
            out[opt.name] = int(options[opt.name]) if opt.type is int else options[opt.name]
    return out


async def play_example(w: World) -> dict[str, str]:
    """Play examples/skirmish.txt over the wire; returns the members' ids by script name."""
    people = {"lena": w.leader, "bob": w.bob}
    user = "lena"
    for raw in EXAMPLE.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        who, name, options = parse_line(line)
        if name == "as":
            user = options["_args"].strip()
            continue
        if name == "force":
            values = [int(v) for v in options["values"].split()] if "values" in options else [
                int(v) for v in options["_args"].split()]
            await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(w.leader.id),
                                                                     {"values": values}))
            continue
        member = people[who or user]
        res = await w.slash(member, name, typed(name, options))
        text, ephemeral = answer(res)
        assert not ephemeral, (line, text)
        if name.split()[1] in ("activate", "move", "attack", "retreat", "wait", "channel", "ability", "end",
                               "start"):
            assert any(n.startswith("skirmish-") for n, _ in png_files(res)), line
            state = await w.state()
            if state.phase == "battle":  # whoever must activate is named and pinged, nobody else
                fight = state.fight
                turn = fight.active.player if fight.active else fight.turn
                assert f"<@{turn}>" in text, (line, text)
                assert [str(u) for u in res.message.history[-1]["allowed_mentions"]["users"]] == [turn]
        if name == "skirmish start":
            assert [n for n, _ in png_files(res)][-1].startswith("skirmish-initiative-")
    return {"lena": str(w.leader.id), "bob": str(w.bob.id)}


async def test_the_example_skirmish_over_discord(world: World) -> None:
    w = world
    ids = await play_example(w)
    state = await w.state()
    assert state.phase == "over" and state.result["winner"] == ids["lena"]
    f = state.fighters
    assert (f["a1"].hex, f["a1"].damage) == ((3, 5), 1) and (f["a2"].hex, f["a2"].damage) == ((6, 4), 10)
    assert f["b1"].out and f["b2"].out
    res = await w.slash(w.bob, "skirmish status")
    text = answer(res)[0] + str(res.embeds)
    assert "over" in text and "Thorn Watch" in text
    res = await w.slash(w.bob, "skirmish map")
    assert [n for n, _ in png_files(res)] == ["skirmish-map.png"]
    res = await w.slash(w.bob, "skirmish activate", {"fighter": "b2"})
    assert_refused(res, "skirmish is over")


async def test_against_the_bot_and_every_skirmish_command(world: World) -> None:
    w = world
    res = await w.slash(w.leader, "campaign new", {"name": "Bog Raid", "ruleset": "skirmish"})
    assert res.embeds and "Bog Raid" in res.embeds[0]["title"] and "/skirmish warband" in str(res.embeds)
    res = await w.slash(w.bob, "skirmish settings", {"points": 500})
    assert_refused(res, "Only the party leader")
    res = await w.slash(w.leader, "skirmish settings", {"points": 400, "rounds": 3})
    assert not answer(res)[1] and "rounds = 3" in answer(res)[0]
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak"})
    assert_refused(res, "belongs to")
    res = await w.slash(w.bob, "skirmish fighters")
    assert res.ephemeral and "Thornspeaker" in str(res.embeds)
    found = await w.fake.autocomplete(w.leader, w.chan, "skirmish warband", focused="faction", value="ward")
    assert [c["value"] for c in found] == ["wardens"]
    res = await w.slash(w.leader, "skirmish warband", {"faction": "wardens"})
    assert not answer(res)[1]
    found = await w.fake.autocomplete(w.leader, w.chan, "skirmish recruit", focused="fighter", value="")
    assert {c["value"] for c in found} == {"thornspeaker", "bramble-guard", "fenhunter", "mossling"}
    for t in ("fenhunter", "fenhunter", "mossling"):
        res = await w.slash(w.leader, "skirmish recruit", {"fighter": t})
        assert not answer(res)[1], answer(res)
    res = await w.slash(w.leader, "skirmish recruit", {"fighter": "bramble-guard"})
    assert_refused(res, "costs 140 points", "/skirmish dismiss")
    res = await w.slash(w.leader, "skirmish dismiss", {"fighter": "a3"})
    assert not answer(res)[1]
    res = await w.slash(w.bob, "skirmish bot", {"faction": "reavers"})  # the leader's to do
    assert_refused(res, "Only the party leader")
    res = await w.slash(w.leader, "skirmish bot", {"faction": "reavers"})
    assert not answer(res)[1] and png_files(res)
    res = await w.slash(w.leader, "skirmish start")
    assert_refused(res, "not deployed yet", "/skirmish deploy")
    res = await w.slash(w.leader, "skirmish deploy", {"fighter": "a1", "at": "5,5"})
    assert_refused(res, "outside your deployment zone")
    res = await w.slash(w.leader, "skirmish deploy")
    assert not answer(res)[1] and png_files(res)
    await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(w.leader.id), {
        "values": [1, 2, 3, 4, 5, 5, 1, 1, 2, 2, 3, 6]}))
    res = await w.slash(w.leader, "skirmish start")
    text, ephemeral = answer(res)
    assert not ephemeral and f"<@{w.leader.id}>" in text
    found = await w.fake.autocomplete(w.leader, w.chan, "skirmish activate", focused="fighter", value="")
    assert [c["value"] for c in found] == ["a1", "a2"]
    res = await w.slash(w.leader, "skirmish activate", {"fighter": "a1"})
    found = await w.fake.autocomplete(w.leader, w.chan, "skirmish attack", focused="target", value="ash")
    assert [c["value"] for c in found] == ["b1"]
    found = await w.fake.autocomplete(w.leader, w.chan, "skirmish ability", {"die": 1}, focused="name", value="")
    assert "surge" in [c["value"] for c in found] and "spark" not in [c["value"] for c in found]
    res = await w.slash(w.leader, "skirmish channel", {"mode": "new"})
    assert_refused(res, "not a Wizard")
    res = await w.slash(w.leader, "skirmish retreat", {"to": "1,4"})
    assert_refused(res, "/skirmish move")
    res = await w.slash(w.leader, "skirmish attack", {"target": "b1"})
    assert_refused(res, "Move closer")
    res = await w.slash(w.leader, "skirmish ability", {"name": "surge", "die": 1, "to": "2,4"})
    text, ephemeral = answer(res)
    assert not ephemeral and "Surge" in text, text
    res = await w.slash(w.leader, "skirmish move", {"to": "5,4"})
    assert not answer(res)[1], answer(res)
    res = await w.slash(w.leader, "skirmish wait")
    text, ephemeral = answer(res)
    assert not ephemeral and "waits as its last action" in text
    # the bot's warband takes its turn at once; it is Lena's turn again (or a new round began)
    state = await w.state()
    assert state.phase != "battle" or state.fight.turn == str(w.leader.id)
    assert "Ashcaller" in text
    res = await w.slash(w.leader, "skirmish activate", {"fighter": "a2"})
    res = await w.slash(w.leader, "skirmish end")
    assert not answer(res)[1]
    res = await w.slash(w.cara, "skirmish status")
    assert png_files(res) and "Bog Raid" in str(res.embeds)
    res = await w.slash(w.cara, "campaign status")
    assert png_files(res) and "Bog Raid" in str(res.embeds)
    res = await w.slash(w.leader, "skirmish settings", {"points": 600})
    assert_refused(res, "can't change after")


async def test_after_the_end_start_offers_a_rematch_button_that_works_over_discord(world: World) -> None:
    w = world
    await play_example(w)
    res = await w.slash(w.leader, "skirmish start")
    text, ephemeral = answer(res)
    assert ephemeral and "The skirmish is over" in text and "already begun" not in text
    rematch = button(res, "Rematch with the same warbands")
    done = await w.click(w.leader, res.message, rematch)
    text, ephemeral = answer(done)
    assert not ephemeral and "Rematch after Thorn Watch's win" in text, text
    assert any(n.startswith("skirmish-") for n, _ in png_files(done))
    state = await w.state()
    assert state.phase == "muster" and all(f.damage == 0 and not f.out for f in state.fighters.values())


async def test_a_warband_switch_is_asked_for_over_discord(world: World) -> None:
    w = world
    await w.slash(w.leader, "campaign new", {"name": "Bog Raid", "ruleset": "skirmish"})
    await w.slash(w.leader, "skirmish warband", {"faction": "wardens", "name": "Thorn Watch"})
    res = await w.slash(w.leader, "skirmish warband", {"faction": "reavers"})
    assert_refused(res, "already", "switch:yes")
    res = await w.slash(w.leader, "skirmish warband", {"faction": "reavers", "switch": True})
    assert not answer(res)[1] and "Thorn Watch (Cinder Reavers)" in answer(res)[0]
