"""The days of examples/days.txt through the fake Discord with the real client: slash commands, the day's
buttons and menus (public ones answered by the players they wait for; private menus for shop, trainer, XP and
untraining), the overland picture after the moves, pings for everyone a question waits for, a card's clash and
the day going on when it ends.  Draws and dice are forced through the service, as the other end-to-end tests
force dice (Discord itself never does)."""
from __future__ import annotations

from test_e2e_discord import (World, answer, assert_refused, button, embed_text, labels, png_files,  # noqa: F401
                              world)

from engine.core import Action
from test_day_script import check_days

STACK = ["ge-p01", "ge-p02", "ge-p03", "ge-p04", "ge-c01", "ge-c02", "ge-c03", "ge-c04", "iron-sword", "hunting-bow",
         "battle-axe", "travel-bread", "spiced-mead", "leather-cap", "acrobatics", "heavy-armor", "restoring-light",
         "shadow", "speech"]


def select_of(msg, placeholder_start: str = "") -> dict:
    for c in msg.iter_components():
        if c.get("type") == 3 and str(c.get("placeholder", "")).startswith(placeholder_start):
            return c
    raise AssertionError(f"no menu {placeholder_start!r}")


def public(res) -> str:
    """The public answer's words, with its follow-up posts (a long day is posted in two parts)."""
    text, ephemeral = answer(res)
    assert not ephemeral, text
    more = [m.content or "" for m in getattr(res, "followups", []) if m is not res.message]
    return "\n".join([text] + more)


async def test_the_days_through_discord(world: World) -> None:  # noqa: F811
    w, fake = world, world.fake
    lena, bob = w.leader, w.bob
    chan = str(w.chan.id)

    async def service(type_: str, args: dict, who=None) -> None:
        await w.bot.table.service.execute(chan, Action(type_, str((who or lena).id), args))

    async def force(*values: int) -> None:
        await service("dice.force", {"values": list(values)})

    async def stack(*cards: str) -> None:
        await service("day.stack", {"cards": list(cards)})

    res = await w.slash(lena, "campaign new", {"name": "Outer Watch", "difficulty": "adept"})
    res = await w.slash(bob, "campaign join")
    res = await w.slash(lena, "adventurer create", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff",
                                                    "class": "sorcerer", "health": "1L", "stamina": "2L",
                                                    "combat": "2R", "magicka": "3L", "skill": "4L"})
    res = await w.slash(bob, "adventurer create", {"name": "Shannon", "race": "argonian",
                                                   "line": "one-hand-and-shield", "class": "acrobat", "health": "1L",
                                                   "stamina": "2L", "combat": "3L", "magicka": "4L", "skill": "4R"})
    assert not answer(res)[1]
    res = await w.slash(bob, "day start")
    assert_refused(res, "party leader")
    # the day-1 draws fixed (the guild draw too)
    await service("day.start", {"province": "saltmire",
                                "stack": ["mages-guild", "fighters-guild", "thieves-guild"] + STACK})
    # the guild draw: the leader takes the Mages Guild (its quest starts in Brinehold) from the day's menu
    res = await w.slash(bob, "day status")
    guilds = select_of(res.message, "The party's guild")
    assert [o["label"] for o in guilds["options"]] == ["1. Mages Guild", "2. Fighters Guild", "3. Thieves Guild"]
    bad = await fake.select(bob, res.message, guilds["custom_id"], ["2"], timeout=10)
    assert_refused(bad)  # the leader chooses
    picked = await fake.select(lena, res.message, guilds["custom_id"], ["1"], timeout=10)
    assert "The party contracts with the **Mages Guild**" in public(picked)
    res = await w.slash(bob, "day status")
    text = public(res)
    assert "Town encounter" not in text  # the status post shows what waits now
    assert png_files(res) and "take town actions" in text
    assert f"<@{lena.id}>" in text and f"<@{bob.id}>" in text  # both players are waited for
    assert {"Shop", "Trainer", "Inn", "Alchemy station", "Done in town"} <= set(labels(res.message))
    status = res.message

    # ---- day 1: Brinehold.  Bob trains Shadow from the Trainer button's private menu
    click = await w.click(bob, status, button(status, "Trainer"))
    text, ephemeral = answer(click)
    assert ephemeral and "Train a skill line" in text
    menu = select_of(click.message)
    assert "shadow" in [o["value"] for o in menu["options"]]
    # a stranger cannot use another player's town action
    stranger = await w.click(w.cara, status, button(status, "Inn"))
    assert_refused(stranger)
    res = await w.slash(bob, "town visit", {"feature": "trainer", "line": "shadow", "slot": "3R"})
    assert "Shannon trains Shadow (slot 3R)" in public(res) and png_files(res)  # the mat shows it
    res = await w.slash(lena, "town visit", {"feature": "trainer", "line": "restoring-light", "slot": "4R"})
    res = await w.slash(lena, "town visit", {"feature": "shop", "item": "Hunting Bow, Travel Bread"})
    assert "Ryan takes Travel Bread" in public(res)
    await stack("sm-p02")
    res = await w.slash(bob, "town done")
    text = public(res)
    assert "End of Day Phase" in text and "High Tide" in text and png_files(res)
    rest = await w.click(lena, res.message, button(res, "Rest (leftmost dice)"))
    assert "Ryan rests" in public(rest)
    rest = await w.click(bob, res.message, button(res, "Rest (leftmost dice)"))
    text = public(rest)
    assert "Day 2 — New Day Phase" in text and f"<@{lena.id}> proposes today's route" in text

    # ---- day 2: the Heron Pools, picked from the route menu; Bob agrees with the button
    await stack("ge-p01")
    route = select_of(rest.message, "Where does the party go")
    assert "4,3" in [o["value"] for o in route["options"]]
    bad = await fake.select(bob, rest.message, route["custom_id"], ["4,3"], timeout=10)
    assert_refused(bad, "party leader")
    picked = await fake.select(lena, rest.message, route["custom_id"], ["4,3"], timeout=10)
    text = public(picked)
    assert "proposes: 3,6 → 4,5 → 4,4 → 4,3" in text and not png_files(picked)  # in words: a quiet channel
    agree = await w.click(bob, picked.message, button(picked, "Agree"))
    text = public(agree)
    assert "Fatigue movement to 4,3" in text and "**Wayside Camp**" in text
    card = select_of(agree.message, "Choose how to resolve")
    chose = await fake.select(lena, agree.message, card["custom_id"], ["2"], timeout=10)
    text = public(chose)
    assert "Share the fire with strangers" in text and "Reward Phase" in text
    untrain = await w.click(bob, chose.message, button(chose, "Untrain"))
    menu = select_of(untrain.message)
    done = await fake.select(bob, untrain.message, menu["custom_id"], ["square:magicka"], timeout=10)
    assert "untrains a Magicka square" in public(done)
    spend = await w.click(bob, chose.message, button(chose, "Spend XP"))
    menu = select_of(spend.message)
    assert all("XP" in o["label"] for o in menu["options"])  # only what Shannon can afford
    bought = await fake.select(bob, spend.message, menu["custom_id"], ["die:shadow-cloak"], timeout=10)
    assert "adds a Shadow Cloak die" in public(bought) and png_files(bought)
    res = await w.slash(bob, "reward done")
    res = await w.slash(lena, "reward buy", {"what": "Purge"})
    res = await w.slash(lena, "reward done")
    assert "End of Day Phase (day 2)" in public(res)
    res = await w.slash(lena, "adventurer rest")
    res = await w.slash(bob, "adventurer rest", {"dice": "1"})
    assert "Day 3 — New Day Phase" in public(res)

    # ---- day 3: Gullet Crossing's unstable die shows the caravan
    await stack("chainmail-shirt", "stamina-tonic", "lockpick-set", "ebony-greaves", "bow", "speech",
                "ge-p03")  # the caravan's draws, and The Old Milestone (moon, sun) for the End of Day
    res = await w.slash(lena, "day route", {"to": "Gullet Crossing"})
    await force(3)
    res = await w.slash(bob, "day agree")
    text = public(res)
    assert "a traveling caravan" in text and "The Salt Wagons" in text
    shop = await w.click(lena, res.message, button(res, "Shop"))
    menu = select_of(shop.message)
    took = await fake.select(lena, shop.message, menu["custom_id"], ["ebony-greaves"], timeout=10)
    assert "Ryan takes Ebony Greaves" in public(took)
    res = await w.slash(lena, "town done")
    res = await w.slash(bob, "town visit", {"feature": "trainer", "line": "speech"})
    res = await w.slash(bob, "town done")
    state = await w.state()  # the caravan at an unstable landmark: 2 tenacity each; the moon moved the lantern
    assert all(a.tenacity == 3 for a in state.adventurers.values())
    assert (state.days.tokens[0].q, state.days.tokens[0].r) == (3, 3) and state.days.ask.kind == "rest"
    res = await w.slash(lena, "adventurer rest")
    res = await w.slash(bob, "adventurer rest")

    # ---- day 4: Smugglers' Steps: the Tollmen's clash, then the day goes on
    await stack("sm-c01", "ge-p02")  # the Tollmen, and Pedlar's Cart (rain) for the End of Day
    res = await w.slash(lena, "day route", {"to": "4,5"})
    res = await w.slash(bob, "day agree")
    await force(1, 1, 1, 1)
    await stack("ge-p02")  # the End of Day's peaceful card: the Pedlar's Cart's rain
    res = await w.slash(lena, "day choose", {"choice": 1})
    text = public(res)
    assert "Battle 1: **Tollmen of the Causeway**" in text
    assert any("map" in name for name, _ in png_files(res))
    res = await w.slash(lena, "battle retreat")  # asked first, like /campaign end
    res = await w.click(lena, res.message, button(res, "Retreat"))
    res = await w.slash(lena, "endturn")
    res = await w.slash(bob, "endturn")
    text = public(res)
    assert "Tollmen of the Causeway is failed" in text
    # the battle's end is the post's one picture; the day goes on in its words and buttons
    assert [name for name, _ in png_files(res)][:1] and "Rest (leftmost dice)" in labels(res.message)
    assert not any("overland" in name for name, _ in png_files(res))
    res = await w.slash(lena, "adventurer rest")
    res = await w.slash(bob, "adventurer rest")
    assert "Day 5 — New Day Phase" in public(res)
    check_days(await w.state())


async def test_every_day_command_answers_over_the_wire(world: World) -> None:  # noqa: F811
    """The day's other commands, each run over Discord: what they show, or why they are refused (privately)."""
    w = world
    lena, bob = w.leader, w.bob
    res = await w.slash(lena, "campaign new", {"name": "Outer Watch", "difficulty": "adept"})
    res = await w.slash(bob, "campaign join")
    res = await w.slash(lena, "adventurer create", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff",
                                                    "class": "sorcerer"})
    res = await w.slash(bob, "adventurer create", {"name": "Shannon", "race": "argonian",
                                                   "line": "one-hand-and-shield", "class": "acrobat"})
    res = await w.slash(lena, "day map")
    assert_refused(res, "/day start")
    res = await w.slash(bob, "day settings", {"hours": 6})
    assert_refused(res, "party leader")
    res = await w.slash(lena, "day settings", {"hours": 6})
    assert "wait 6 hours" in public(res)
    # the set-up's dice forced: 1 for each of the 8 general cards taken into the decks (the first four of each
    # type), then 2 of 4 for the guild draw (4 guilds have a quest in the Saltmire): the Mages Guild first
    await w.bot.table.service.execute(str(w.chan.id), Action("dice.force", str(lena.id), {"values": [1] * 8 + [2]}))
    res = await w.slash(lena, "day start", {"province": "saltmire"})
    text = public(res)
    assert "A session begins in **The Saltmire**" in text and png_files(res)
    assert "guild cards are drawn" in text and "1. **Mages Guild** — " in text
    res = await w.slash(bob, "quest guild", {"pick": "Mages Guild"})
    assert_refused(res, "party leader")
    res = await w.slash(lena, "quest guild", {"pick": "Mages Guild"})
    assert "The party contracts with the **Mages Guild**" in public(res)
    res = await w.slash(bob, "day map")
    assert png_files(res) and not answer(res)[1]
    res = await w.slash(bob, "day check", {"dice": "none"})
    assert_refused(res, "not waiting")
    res = await w.slash(bob, "day pick", {"option": "1"})
    assert_refused(res, "not waiting")
    res = await w.slash(bob, "day object")
    assert_refused(res, "not waiting")
    res = await w.slash(bob, "day trade", {"item": "Hunting Bow", "to": "Ryan"})
    assert_refused(res, "during the End of Day")
    res = await w.slash(bob, "reward options")
    text, ephemeral = answer(res)
    assert ephemeral and "XP to spend" in embed_text(res)
    res = await w.slash(bob, "reward untrain", {"what": "stamina square"})
    assert_refused(res, "Reward Phase")
    res = await w.slash(bob, "adventurer promote")
    assert_refused(res, "Promotion requirement of the Acrobat")
    res = await w.slash(bob, "adventurer promote", {"confirm": True})
    assert "master side" in public(res) and png_files(res)
    # the End of Day's peaceful card, drawn from the campaign's own dice otherwise: High Tide (movement 2), so
    # Reedwick, 4 hexes away, is in reach on day 2 (with the Flood's movement 1 the route would be refused)
    await w.bot.table.service.execute(str(w.chan.id), Action("day.stack", str(lena.id), {"cards": ["sm-p02"]}))
    res = await w.slash(lena, "town done")
    res = await w.slash(bob, "town done")
    assert "High Tide" in public(res)
    res = await w.slash(bob, "day trade", {"item": "Iron Sword", "to": "Ryan"})
    assert_refused(res, "not in your")  # Shannon carries nothing
    res = await w.slash(lena, "adventurer rest")
    res = await w.slash(bob, "adventurer rest")
    res = await w.slash(lena, "day route", {"to": "Reedwick"})
    assert "proposes" in public(res) and not png_files(res)  # the route in words (the dashboard draws it)
    res = await w.slash(bob, "day object", {"reason": "too far"})
    assert "Shannon objects to the route: too far" in public(res)
