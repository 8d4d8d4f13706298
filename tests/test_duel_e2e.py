"""The duel through the fake Discord with the real, unmodified bot: the example fight (examples/duel.txt) over
the wire, then every /duel command, button and private menu.  A test reads every message each player can see
(public posts, and the private answers to that player's own interactions) and finds no other player's
unrevealed cards: no face-down card before its reveal, no obtained card before it is played."""
from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from commands.local import parse_line
from engine.core import Action
from test_e2e_discord import World, answer, assert_refused, png_files, world  # noqa: F401 - the fixture
from test_skirmish_e2e import typed

EXAMPLE = (Path(__file__).resolve().parent.parent / "examples" / "duel.txt").read_text()
REVEAL = re.compile(r"^(?P<name>.+?) reveals (?P<cards>.+)\.$", re.M)
PLACED = re.compile(r"You placed (?P<cards>.+?) face-down")


async def quiet(w: World, rounds: int = 12) -> None:
    """Wait until the bot has sent everything (no new message for a few polls)."""
    seen, still = -1, 0
    while still < rounds:
        n = sum(len(m.history) for m in w.fake.messages.values())
        still = still + 1 if n == seen else 0
        seen = n
        await asyncio.sleep(0.05)


def visible(msg, user_id: int) -> bool:
    if msg.deleted:
        return False
    if not msg.ephemeral:
        return True
    who = ((msg.interaction_metadata or {}).get("user") or {}).get("id")
    return str(who) == str(user_id)


CATALOGUE = (": heroes", ": every hand begins with", "Rank ")  # /duel heroes, /duel cards, /duel bestiary


def catalogue(msg) -> bool:
    """The pack's public catalogue (every card by name), not anyone's cards."""
    return any(any(c in (e.get("title") or "") for c in CATALOGUE) for e in msg.embeds)


def words(msg) -> str:
    return "\n".join([msg.content or "", json.dumps(msg.embeds, ensure_ascii=False),
                      json.dumps(msg.components, ensure_ascii=False)])


def split_cards(text: str) -> list[str]:
    return [c.strip() for c in re.split(r",| and ", text) if c.strip()]


def check_no_unrevealed_cards(w: World, state, members) -> int:
    """Walk the conversation in order (each interaction's messages together); whatever a player can see names no
    card another player holds secretly: obtained cards not yet revealed, placed cards before their reveal."""
    from rulesets.duel.content import load_pack

    pack = load_pack(state.pack)
    standard = {pack.cards[c].name for c in pack.hand}
    name_of = {o: ch.name for o, ch in state.characters.items()}
    secret_obtained = {o: {pack.cards[c].name for c in ch.cards if pack.cards[c].in_hand} - standard
                       for o, ch in state.characters.items()}
    revealed: dict[str, set[str]] = {o: set() for o in state.characters}
    face_down: dict[str, set[str]] = {o: set() for o in state.characters}
    groups: dict[int, list] = {}
    for msg in w.fake.channel_messages(w.chan, include_deleted=True):
        meta = msg.interaction_metadata or {}
        groups.setdefault(int(meta.get("id") or 0), []).append(msg)
    checked = 0
    for key in sorted(groups):
        for msg in sorted(groups[key], key=lambda m: m.id):
            if msg.deleted or catalogue(msg):
                continue
            text = words(msg)
            owner_id = str(((msg.interaction_metadata or {}).get("user") or {}).get("id"))
            owner = next((o for o, m in members.items() if str(m.id) == owner_id), None)
            shown_now = {m.group("name"): split_cards(m.group("cards")) for m in REVEAL.finditer(msg.content or "")}
            for o, name in name_of.items():
                if name in shown_now:
                    revealed[o] |= set(shown_now[name])
                    face_down[o] = set()
            for viewer, member in members.items():
                if not visible(msg, member.id):
                    continue
                checked += 1
                for o in state.characters:
                    if o == viewer:
                        continue
                    hidden = (secret_obtained[o] - revealed[o]) | (face_down[o] if name_of[o] not in shown_now
                                                                   else set())
                    leaked = sorted(c for c in hidden if c in text)
                    assert not leaked, (viewer, name_of[o], leaked, msg.content)
            m = PLACED.search(msg.content or "")
            if m and msg.ephemeral and owner is not None:
                face_down[owner] = set(split_cards(m.group("cards")))
    return checked


async def play_example(w: World) -> dict:
    people = {"lena": w.leader, "bob": w.bob, "cy": w.cara}
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
            values = [int(v) for v in (options.get("values") or options["_args"]).split()]
            await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(w.leader.id),
                                                                     {"values": values}))
            continue
        member = people[who or user]
        res = await w.slash(member, name, typed(name, options))
        text, ephemeral = answer(res)
        if name in ("duel hand", "duel status", "campaign new"):
            continue
        if name == "duel place":  # the private note, then the public post (in several messages if long)
            assert ephemeral and "You placed" in text, (line, text)
            await res.wait_until(lambda r: any(n.startswith("duel-") for m in r.followups for n, _ in m.files), 10)
            posts = [m for m in res.messages if not m.ephemeral]
            assert posts and any(n.startswith("duel-") for m in posts for n, _ in m.files), line
            state = await w.state()
            if not state.fight.over:  # whoever the fight waits for is named and pinged, nobody else
                p = state.fight.question or None
                owner = p.owner if p else None
                if owner:
                    last = posts[-1]
                    assert f"<@{owner}>" in last.content and [str(u) for u in last.history[-1][
                        "allowed_mentions"]["users"]] == [owner], (line, last.content)
        else:
            assert not ephemeral, (line, text)
    await quiet(w)
    return people


async def test_the_example_duel_over_discord_and_nobody_sees_anothers_cards(world: World) -> None:
    w = world
    people = await play_example(w)
    state = await w.state()
    fight = state.fight
    lena, bob = str(w.leader.id), str(w.bob.id)
    assert fight.over and fight.result == "Brann and Oda defeated the Marsh Wisp" and fight.round == 3
    assert (fight.fighters[f"c:{lena}"].grit, fight.fighters[f"c:{bob}"].grit) == (8, 9)
    members = {lena: w.leader, bob: w.bob, str(w.cara.id): w.cara}
    assert check_no_unrevealed_cards(w, state, members) > 40
    # the check sees a leak: a public line naming one of Oda's cards before any reveal
    leak = w.fake._create_message(w.chan.id, w.guild.id, {"content": "Oda holds Purifying Light.",
                                                          "allowed_mentions": {"parse": []}}, {})
    try:
        check_no_unrevealed_cards(w, state, members)
        raise RuntimeError("the leak was not found")
    except AssertionError as exc:
        assert "Purifying Light" in str(exc)
    leak.deleted = True
    # Bob's own hand was shown to Bob alone
    hands = [m for m in w.fake.channel_messages(w.chan) if "Oda's hand" in (m.content or "")]
    assert hands and all(m.ephemeral and visible(m, w.bob.id) and not visible(m, w.leader.id) for m in hands)
    res = await w.slash(w.cara, "duel status")
    assert png_files(res) and "Brann and Oda defeated the Marsh Wisp" in json.dumps(res.embeds)


async def test_every_duel_command_button_and_private_menu(world: World) -> None:
    w = world
    chan = str(w.chan.id)
    lena, bob = str(w.leader.id), str(w.bob.id)
    res = await w.slash(w.leader, "campaign new", {"name": "Yard", "ruleset": "duel"})
    assert "/duel character" in json.dumps(res.embeds)
    for cmd in ("duel heroes", "duel cards", "duel bestiary"):
        res = await w.slash(w.bob, cmd)
        assert res.ephemeral and res.embeds, cmd
    found = await w.fake.autocomplete(w.leader, w.chan, "duel character", focused="hero", value="sell")
    assert [c["value"] for c in found] == ["sellsword"]
    res = await w.slash(w.leader, "duel character", {"hero": "sellsword", "name": "Brann"}, followups=1)
    assert not res.original.ephemeral and res.followups[0].ephemeral and "Shield Bash" in res.followups[0].content
    assert "Shield Bash" not in res.original.content
    res = await w.slash(w.bob, "duel character", {"hero": "hedge-witch", "name": "Mira"}, followups=1)
    res = await w.slash(w.leader, "duel sheet", {"player": w.bob})
    assert res.ephemeral and "3 (secret)" in json.dumps(res.embeds) and "Firebolt" not in json.dumps(res.embeds)
    res = await w.slash(w.bob, "duel sheet")
    assert res.ephemeral and "Firebolt" in json.dumps(res.embeds)
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak"})
    assert_refused(res, "belongs to")
    res = await w.slash(w.leader, "duel fight", {"rival": w.leader})
    assert_refused(res, "can't challenge yourself")
    res = await w.slash(w.leader, "duel fight", {"rival": w.bob})
    text, ephemeral = answer(res)
    assert not ephemeral and f"<@{lena}>" in text  # the challenger owns two worn gear: which one?
    msg = res.message
    res = await w.click(w.bob, msg, next(c for c in msg.custom_ids if c.endswith(".o1")))
    assert_refused(res, "This question is for Brann's player")
    res = await w.click(w.leader, msg, next(c for c in msg.custom_ids if c.endswith(".o1")))
    assert "Brann joins the fight, wearing Chain Coat." in answer(res)[0]
    # Bob accepts; Brann and Mira tie at Fame 2: Finesse 9 1 against 2 2
    await w.bot.table.service.execute(chan, Action("dice.force", lena, {"values": [9, 1, 2, 2]}))
    msg = res.message
    res = await w.click(w.bob, msg, next(c for c in msg.custom_ids if c.endswith(".o1")))
    text = answer(res)[0]
    assert "Brann wins the roll-off" in text and f"<@{bob}>" in text and "Choose my cards" in json.dumps(
        res.message.components)
    post = res.message
    opener = next(c for c in post.custom_ids if c.endswith(".open"))
    res = await w.click(w.leader, post, opener)
    assert_refused(res, "This is Mira's hand")
    res = await w.click(w.bob, post, opener)
    menu = res.message
    assert menu.ephemeral and "Firebolt (Priority 5)" in menu.content
    found = await w.fake.autocomplete(w.bob, w.chan, "duel place", focused="cards", value="")
    assert "Firebolt" in [c["value"] for c in found]
    found = await w.fake.autocomplete(w.leader, w.chan, "duel place", focused="cards", value="")
    assert "Firebolt" not in [c["value"] for c in found]  # only your own hand is offered
    state = await w.state()
    spot = str(state.fight.fighters[f"c:{bob}"].hand.index("firebolt") + 1)
    res = await w.fake.select(w.bob, menu, next(c for c in menu.custom_ids if c.endswith(".pick")), [spot],
                              timeout=10)
    await res.wait(10, followups=1)
    assert res.message.ephemeral and "You placed Firebolt" in res.message.content
    public = res.followups[0]
    assert not public.ephemeral and "Mira places 1 card face-down." in public.content
    assert "Firebolt" not in public.content and f"<@{lena}>" in public.content
    res = await w.slash(w.leader, "campaign export")
    assert_refused(res, "once the fight is over")
    res = await w.slash(w.leader, "duel retire")
    assert_refused(res, "can't retire during a fight")
    res = await w.slash(w.leader, "duel reroll", {"die": 1})
    assert_refused(res, "waiting for placing cards")
    # Brann places a Base Attack without declaring it: asked when it is revealed
    await w.bot.table.service.execute(chan, Action("dice.force", lena, {"values": [3, 3, 3]}))
    res = await w.slash(w.leader, "duel place", {"cards": "base attack"}, followups=1)
    post = res.followups[0]
    assert "Mira reveals Firebolt." in post.content and "Take the Priority token" in json.dumps(post.components)
    res = await w.click(w.leader, post, next(c for c in post.custom_ids if c.endswith(".o1")))  # attack
    text = answer(res)[0]
    # Brann holds the token: his Base Attack (6) acts before Firebolt (5); its roll 3 3 3 is open to Fame
    # rerolls, Mira first (after the roller)
    assert "Brann declares the Base Attack as an attack." in text
    post = res.message
    assert "Reroll die 1 (showing 3)" in json.dumps(post.components) and f"<@{bob}>" in post.content
    await w.bot.table.service.execute(chan, Action("dice.force", lena, {"values": [9]}))
    res = await w.click(w.bob, post, next(c for c in post.custom_ids if c.endswith(".d1")))
    text = answer(res)[0]
    assert "Mira spends 2 Fame (now 0) to reroll die 1 (Brann's Base Attack at Mira): 3 → 9." in text
    post = res.message
    assert f"<@{lena}>" in post.content  # then Brann, the roller
    await w.bot.table.service.execute(chan, Action("dice.force", lena, {"values": [4, 4, 4]}))
    res = await w.click(w.leader, post, next(c for c in post.custom_ids if c.endswith(".pass")))
    text = answer(res)[0]
    assert "Brann spends no Fame on this roll." in text and "Base Attack hits Mira (best die 9 against defense 7)" \
        in text
    stale = await w.click(w.leader, post, next(c for c in post.custom_ids if c.endswith(".pass")))
    assert_refused(stale, "out of date")
    post = res.message  # Mira's Firebolt 4 4 4: Brann may reroll (Mira has no Fame left)
    res = await w.click(w.leader, post, next(c for c in post.custom_ids if c.endswith(".pass")))
    text = answer(res)[0]
    assert "Firebolt misses Brann" in text and "Round 2 begins." in text
    # round 2: Mira passes by command; Brann's Base Attack is declared by command when it is revealed
    res = await w.slash(w.leader, "duel declare", {"use": "token"})
    assert_refused(res, "waiting for placing cards")
    res = await w.slash(w.bob, "duel pass")
    assert "Mira places no card this round." in answer(res)[0]
    await w.bot.table.service.execute(chan, Action("dice.force", lena, {"values": [2, 2, 2]}))
    res = await w.slash(w.leader, "duel place", {"cards": "base-attack"}, followups=1)
    res = await w.slash(w.leader, "duel declare", {"use": "attack"})
    text, ephemeral = answer(res)
    assert not ephemeral and "Brann declares the Base Attack as an attack." in text
    res = await w.slash(w.cara, "duel status")
    assert png_files(res) and "Mira" in json.dumps(res.embeds)
    res = await w.slash(w.bob, "duel hand")
    assert res.ephemeral and "Mira's hand" in res.message.content
    res = await w.slash(w.cara, "duel hand")
    assert_refused(res, "not in a fight")
    res = await w.slash(w.bob, "duel settings", {"ask_minutes": 5})
    assert_refused(res, "Only the party leader")
    res = await w.slash(w.leader, "duel settings", {"ask_minutes": 30, "place_hours": 12})
    assert not answer(res)[1] and "ask_minutes = 30" in answer(res)[0]
    await quiet(w)
    state = await w.state()
    members = {lena: w.leader, bob: w.bob, str(w.cara.id): w.cara}
    assert check_no_unrevealed_cards(w, state, members) > 20


async def test_zones_and_the_monster_runner_over_discord(world: World) -> None:
    """Only the characters in the fight's zone are asked to join (Mira, at Mill Ford, is not), and a player named
    runner: rolls the monster's dice with the button or /duel roll."""
    w = world
    chan = str(w.chan.id)
    lena, cy = str(w.leader.id), str(w.cara.id)
    await w.slash(w.leader, "campaign new", {"name": "Roads", "ruleset": "duel"})
    await w.slash(w.leader, "duel character", {"hero": "sellsword", "name": "Brann"}, followups=1)
    await w.slash(w.bob, "duel character", {"hero": "hedge-witch", "name": "Mira"}, followups=1)
    found = await w.fake.autocomplete(w.bob, w.chan, "duel travel", focused="zone", value="mill")
    assert [c["value"] for c in found] == ["mill-ford"]
    res = await w.slash(w.bob, "duel travel", {"zone": "Mill Ford"})
    assert "Mira travels from Crossroads Inn to Mill Ford." in answer(res)[0]
    res = await w.slash(w.leader, "duel fight", {"rival": w.bob})
    assert_refused(res, "Travel there first with /duel travel zone:mill-ford")
    res = await w.slash(w.leader, "duel fight", {"monster": "cave-troll", "runner": w.cara})
    assert_refused(res, "is not in this party")
    await w.slash(w.cara, "campaign join")
    res = await w.slash(w.leader, "duel fight", {"monster": "cave-troll", "runner": w.cara})
    text = answer(res)[0]
    assert "A fight against the Cave Troll (Rank 3, 14 Grit) is called at Crossroads Inn. Each player with a " \
           "character there" in text and f"<@{cy}> runs the Cave Troll" in text and f"<@{lena}>" in text
    msg = res.message
    res = await w.click(w.leader, msg, next(c for c in msg.custom_ids if c.endswith(".o1")))
    text = answer(res)[0]
    assert "The fight begins: Brann against the Cave Troll." in text  # Mira was never asked
    res = await w.slash(w.leader, "duel pass")
    post = res.message
    assert f"<@{cy}>, you run the Cave Troll: roll the Cave Troll's procedure die" in post.content
    roll = next(c for c in post.custom_ids if c.endswith(".roll"))
    res = await w.click(w.bob, post, roll)
    assert_refused(res, "Only the player who runs the Cave Troll")
    await w.bot.table.service.execute(chan, Action("dice.force", lena, {"values": [1]}))
    res = await w.click(w.cara, post, roll)
    text = answer(res)[0]
    assert f"<@{cy}> rolls 1 for the Cave Troll: Boulder Toss at Brann." in text
    assert "Roll the Cave Troll's 3 Might dice (Boulder Toss at Brann)" in json.dumps(res.message.components)
    await w.bot.table.service.execute(chan, Action("dice.force", lena, {"values": [2, 2, 2]}))
    res = await w.slash(w.cara, "duel roll")
    text = answer(res)[0]
    assert "Cave Troll's Boulder Toss at Brann: Cave Troll rolls Might (3 dice) to hit (defense 7): 2, 2, 2." in text
    res = await w.slash(w.leader, "duel status")
    assert "at Crossroads Inn" in json.dumps(res.embeds) and "Mill Ford" in json.dumps(res.embeds)


def test_zz_every_duel_command_ran_over_the_wire() -> None:
    from test_e2e_discord import INVOKED, PUBLISHED

    duel = {c for c in PUBLISHED if c.startswith("duel ")}
    if not duel:
        import pytest

        pytest.skip("the duel tests above did not run")
    assert duel <= INVOKED, sorted(duel - INVOKED)
