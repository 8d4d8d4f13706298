"""The first session of examples/session.txt through the fake Discord with the real client: every line of the
script is a slash command of its player (Ryan is Lena, Shannon is Bob), the guild card chosen from the day's menu,
the quest's steps, battles, epilogue and journal posted to the channel; it ends where the local table ends
(tests/test_session_script.py).  Draws and dice are forced through the service, as the other end-to-end tests
force them (Discord itself never does)."""
from __future__ import annotations

from pathlib import Path

from test_e2e_discord import World, answer, assert_refused, png_files, world  # noqa: F401

from commands.local import parse_line
from engine.commands import COMMANDS
from engine.core import Action
from engine.service import replay
from rulesets.tes.content import load_pack
from test_day_e2e import select_of
from test_session_script import check_no_spoilers, check_session_one

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "session.txt"


def _typed(name: str, options: dict) -> dict:
    """The options as Discord sends them: whole numbers as numbers, the rest as typed."""
    cmd = COMMANDS[name]
    out = {}
    for opt in cmd.options:
        if opt.name in options:
            value = options[opt.name]
            out[opt.name] = int(value) if opt.type is int else (value.lower() in ("yes", "true")
                                                                  if opt.type is bool else value)
    return out


async def test_the_first_session_through_discord(world: World) -> None:  # noqa: F811
    w = world
    members = {"ryan": w.leader, "shannon": w.bob}
    chan = str(w.chan.id)
    me = "ryan"
    seen: list[str] = []

    async def service(type_: str, args: dict) -> None:
        await w.bot.table.service.execute(chan, Action(type_, str(w.leader.id), args))

    for line in SCRIPT.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        user, name, options = parse_line(line)
        if name == "as":
            me = options["_args"]
            continue
        if name == "force":  # the local table's dice
            await service("dice.force", {"values": [int(x) for x in options["values"].split()]})
            continue
        if name == "day stack":
            await service("day.stack", {"cards": options["cards"].split()})
            continue
        if name == "day start" and "stack" in options:  # a local-only option: the draws fixed through the service
            await service("day.start", {"province": options["province"], "stack": options["stack"].split()})
            continue
        if name == "quest guild":  # the leader answers the guild draw from the day's menu
            res = await w.slash(members[me], "day status")
            menu = select_of(res.message, "The party's guild")
            labels = [o["label"] for o in menu["options"]]
            pick = next(o["value"] for o in menu["options"] if options["pick"] in o["label"])
            res = await w.fake.select(members[me], res.message, menu["custom_id"], [pick], timeout=10)
            text, private = answer(res)
            assert not private and "The party contracts with the **Fighters Guild**" in text, (labels, text)
            seen.append(text)
            continue
        res = await w.slash(members[user or me], name, _typed(name, options))
        text, private = answer(res)
        assert not private or name in ("quest status",), (line, text)
        seen.append(text + "\n" + "\n".join(m.content or "" for m in getattr(res, "followups", [])
                                           if m is not res.message))
        if name == "journal":
            assert png_files(res), "the journal is posted as a picture"
    state = await w.state()
    check_session_one(state)
    stored = await w.bot.table.service.store.load_active(chan)
    assert replay(await w.bot.table.service.store.log(stored.id)).to_dict() == state.to_dict()
    words = "\n".join(seen)
    assert "Epilogue (E07)" in words and "major keyword **Salt Road Sworn**" in words
    # between sessions: the side-quest answers and the guild assist are refused with their reasons
    assert_refused(await w.slash(w.leader, "quest accept", {"pick": "1"}), "session is over")
    assert_refused(await w.slash(w.leader, "quest discard", {"side": "1"}))
    assert_refused(await w.slash(w.leader, "quest assist", {"use": "yes"}), "guild assist")
    assert_refused(await w.slash(w.bob, "quest next", {"pick": "1"}), "party leader")
    pack = load_pack("starter")
    check_no_spoilers(words, [pack.campaign.quests["sm-salt-road"], pack.campaign.quests["sm-sunken-chime"]])
