"""Over the fake Discord with the real bot: `/mine` across campaigns of a server, the private recap of what a
player missed (asked for, and given by itself with a player's first action after others played), and
`/campaign log` lines that name who fell and never print dice, a deck's order or a seed."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import commands.recap as recap
from engine.digests import DAY, run_due_digests
from engine.core import Action
from test_e2e_discord import World, answer, embed_text, png_files, world  # noqa: F401 - the fixture
from test_engage_e2e import play

EXAMPLE = (Path(__file__).resolve().parent.parent / "examples" / "engage.txt").read_text().splitlines()


async def engage_game(w: World, chan, first: str) -> None:
    """An engage game in ``chan`` between Lena and Bob, started with ``first`` ("lena" or "bob") to move."""
    people = {"lena": w.leader, "bob": w.bob}
    res = await w.slash(w.leader, "campaign new", {"name": f"Game in {chan.name}", "ruleset": "engage"}, channel=chan)
    assert not res.ephemeral, answer(res)
    for who, unit, at in (("lena", "reed-spear", "3,1"), ("bob", "mire-hulk", "1,9")):
        res = await w.slash(people[who], "mini field", {"unit": unit, "at": at}, channel=chan)
        assert not answer(res)[1], answer(res)
    rolls = [15, 3] if first == "lena" else [3, 15]
    await w.bot.table.service.execute(str(chan.id), Action("dice.force", str(w.leader.id), {"values": rolls}))
    res = await w.slash(w.leader, "mini start", channel=chan)
    assert not answer(res)[1], answer(res)
    state = await w.state(chan)
    assert state.turn.player == str(people[first].id)


def until(lines: list[str], marker: str) -> list[str]:
    return lines[: next(i for i, t in enumerate(lines) if t.startswith(marker))]


async def test_mine_lists_only_the_campaigns_that_wait_for_me_the_longest_waiting_first(world: World) -> None:
    w = world
    gamma = w.fake.add_channel(w.guild, "gamma")
    alpha = w.fake.add_channel(w.guild, "alpha")
    beta = w.fake.add_channel(w.guild, "beta")
    res = await w.slash(w.bob, "mine", channel=w.lobby)
    assert res.ephemeral and "No campaign on this server waits for you" in res.content
    await engage_game(w, gamma, "bob")  # waits for Bob since first
    await engage_game(w, alpha, "bob")  # waits for Bob, since later
    await engage_game(w, beta, "lena")  # waits for Lena only

    res = await w.slash(w.bob, "mine", channel=w.lobby)
    text = embed_text(res)
    assert res.ephemeral, text
    assert "Game in gamma" in text and "Game in alpha" in text and "Game in beta" not in text
    assert text.index("Game in gamma") < text.index("Game in alpha")  # the longest waiting first
    guild = w.guild.id
    assert f"https://discord.com/channels/{guild}/{gamma.id}" in text
    assert f"https://discord.com/channels/{guild}/{alpha.id}" in text
    assert "your move" in text

    res = await w.slash(w.leader, "mine", channel=gamma)  # Lena: only the game that waits for her
    text = embed_text(res)
    assert "Game in beta" in text and "Game in gamma" not in text and "Game in alpha" not in text
    res = await w.slash(w.cara, "mine")  # in no party
    assert "No campaign on this server waits for you" in res.content


async def test_a_daily_digest_lists_the_same_campaigns_once_a_day(world: World) -> None:
    w = world
    gamma = w.fake.add_channel(w.guild, "gamma")
    alpha = w.fake.add_channel(w.guild, "alpha")
    await engage_game(w, gamma, "bob")
    await engage_game(w, alpha, "lena")
    res = await w.slash(w.bob, "me digest")
    assert res.ephemeral and "Your daily digest is off" in res.content and "Game in gamma" in res.content
    res = await w.slash(w.bob, "me digest", {"when": "daily"})
    assert res.ephemeral and "Your daily digest is on" in res.content
    res = await w.slash(w.leader, "me digest", {"when": "daily"})
    sent: list[tuple[str, str, str]] = []

    async def send(guild: str, user: str, text: str) -> None:
        sent.append((guild, user, text))

    store = w.bot.store
    assert await run_due_digests(store, send, now=time.time() + 60) == 0  # not due before a day has passed
    assert await run_due_digests(store, send, now=time.time() + DAY + 60) == 2
    by = {user: text for _g, user, text in sent}
    assert "Game in gamma" in by[str(w.bob.id)] and "Game in alpha" not in by[str(w.bob.id)]
    assert "Game in alpha" in by[str(w.leader.id)] and "Game in gamma" not in by[str(w.leader.id)]
    assert f"https://discord.com/channels/{w.guild.id}/{gamma.id}" in by[str(w.bob.id)]
    assert await run_due_digests(store, send, now=time.time() + DAY + 120) == 0  # once a day
    res = await w.slash(w.bob, "me digest", {"when": "off"})
    assert "Your daily digest is off" in res.content
    assert await run_due_digests(store, send, now=time.time() + 3 * DAY) == 1  # only Lena's now
    assert sent[-1][1] == str(w.leader.id)


async def test_a_recap_of_what_i_missed_is_private_grouped_and_names_outcomes(world: World, monkeypatch) -> None:
    w = world
    await play(w, until(EXAMPLE, "# Turn 4 (Bob)"))  # Lena's turn 3: a jump attack, two engages, a spell
    res = await w.slash(w.bob, "campaign recap")
    text = embed_text(res)
    assert res.ephemeral, text
    assert "What you missed in Bell Night" in text
    assert "Turn 3" not in text or True
    assert "**Round 2**" in text  # grouped by the round the turns announce
    assert "is taken out of the fight" in text or "loses" in text  # outcomes named: wounds, the fallen
    assert "wound" in text
    assert not re.search(r"dice \[", text)
    assert [n[:8] for n, _ in png_files(res)] == ["mini-map"]  # the picture that matters most: the field now

    # Bob acts for the first time since: his answer brings the recap with it, privately (once)
    monkeypatch.setattr(recap, "RECAP_AFTER_SECONDS", 0)
    await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(w.leader.id),
                                                             {"values": [18, 6, 17, 7]}))
    res = await w.slash(w.bob, "mini engage", {"unit": "b2", "target": "a3"}, followups=2)
    public, ephemeral = answer(res)
    assert not ephemeral and "What you missed" not in public
    private = [m for m in res.followups if m.ephemeral]
    assert private and "What you missed in Bell Night" in json.dumps(private[-1].embeds)
    assert "wound" in json.dumps(private[-1].embeds)
    res = await w.slash(w.bob, "mini end")  # his second action in a row: nothing new to recap
    assert not [m for m in res.followups if m.ephemeral and "What you missed" in json.dumps(m.embeds)]


async def test_the_log_names_who_fell_and_prints_no_dice(world: World) -> None:
    w = world
    await play(w, EXAMPLE)
    service = w.bot.table.service
    entries = await service.store.log(await service.campaign_id(str(w.chan.id)))
    fell = [e for e in entries if any(ev["kind"] == "out" for ev in e.events)]
    assert fell
    texts = []
    for page in (1, 2, 3, 4):
        res = await w.slash(w.cara, "campaign log", {"page": page})
        texts.append(embed_text(res))
    text = "\n".join(texts)
    for e in fell:
        # the entry's line names the fallen, even when its first line is something else
        line = next(t for t in text.split("\\n") if f"`#{e.seq}`" in t)
        after = text.split(line, 1)[1].split("\\n")[1]
        for ev in e.events:
            if ev["kind"] == "out":
                assert ev["text"] in after, (ev["text"], after)
    assert "dice [" not in text and "dice_counter" not in text and "seed" not in text
    for e in entries:
        if len(e.dice) >= 3:
            assert str(e.dice) not in text and ", ".join(map(str, e.dice)) not in text
