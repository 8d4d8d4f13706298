"""Turn reminders: scheduled with the turn, durable, sent once, cancelled when the turn moves on."""
from __future__ import annotations

import asyncio

import discord
import pytest

from rulesets.tes import rules
from engine.core import Action
from engine.reminders import reminder_text, run_due
from engine.service import CampaignService
from engine.store import Store

LEAD, ANN, BO = "1001", "1002", "1003"
T0 = 1_700_000_000.0
HOUR = 3600


def newest_member_moves(state):
    """Test turn order: the table waits for whoever joined last (each join is a new turn)."""
    if len(state.members) > 1:
        return state.members[-1], f"turn-{len(state.members)}-{state.members[-1]}"
    return None


@pytest.fixture
def turn_hook():
    rules.TURN_HOOKS.insert(0, newest_member_moves)
    yield newest_member_moves
    rules.TURN_HOOKS.remove(newest_member_moves)


class Clock:
    def __init__(self, now=T0):
        self.now = now

    def __call__(self):
        return self.now


async def open_campaign(service, channel="100", hours=2):
    await service.execute(channel, Action("campaign.new", LEAD, {"name": "Night Watch", "channel_id": channel,
                                                                 "guild_id": "1", "seed": 1}))
    await service.execute(channel, Action("campaign.settings", LEAD, {"reminder_hours": hours}))


class Sent(list):
    async def __call__(self, reminder):
        await asyncio.sleep(0)  # let a second loop interleave
        self.append(reminder)


async def test_reminder_is_scheduled_when_the_turn_changes_and_survives_a_restart(tmp_path, turn_hook):
    path = tmp_path / "r.db"
    store = await Store.open(path)
    clock = Clock()
    service = CampaignService(store, clock=clock)
    await open_campaign(service)
    cid = await service.campaign_id("100")
    assert await store.pending_reminders(cid) == []  # nobody to wait for yet
    clock.now = T0 + 60
    await service.execute("100", Action("campaign.join", ANN))
    [r] = await store.pending_reminders(cid)
    assert (r.user_id, r.channel_id, r.due_at) == (ANN, "100", T0 + 60 + 2 * HOUR)
    assert await run_due(store, Sent(), T0 + HOUR) == 0  # not due yet
    await store.close()

    store = await Store.open(path)  # the bot restarted
    assert [x.turn_key for x in await store.pending_reminders(cid)] == [r.turn_key]
    sent = Sent()
    assert await run_due(store, sent, T0 + 3 * HOUR) == 1
    assert [(x.user_id, x.turn_key) for x in sent] == [(ANN, r.turn_key)]
    assert await run_due(store, sent, T0 + 4 * HOUR) == 0  # never twice
    assert await reminder_text(store, r) == f"<@{ANN}>, it's your move in **Night Watch**."
    await store.close()


async def test_two_loops_at_once_send_each_reminder_once(tmp_path, turn_hook):
    path = tmp_path / "r.db"
    a, b = await Store.open(path), await Store.open(path)  # two processes' connections
    service = CampaignService(a, clock=Clock())
    channels = [str(200 + i) for i in range(20)]
    for ch in channels:
        await open_campaign(service, ch, hours=1)
        await service.execute(ch, Action("campaign.join", ANN))
    sent_a, sent_b = Sent(), Sent()
    counts = await asyncio.gather(run_due(a, sent_a, T0 + 2 * HOUR), run_due(b, sent_b, T0 + 2 * HOUR),
                                  run_due(a, sent_a, T0 + 2 * HOUR))
    sent = [r.channel_id for r in sent_a + sent_b]
    print(f"reminders: {len(sent)} sent by 3 loops for {len(channels)} due (a={len(sent_a)}, b={len(sent_b)})")
    assert sum(counts) == len(channels)
    assert sorted(sent) == sorted(channels)
    await a.close()
    await b.close()


async def test_reminder_is_cancelled_when_the_turn_moves_on(store, turn_hook):
    clock = Clock()
    service = CampaignService(store, clock=clock)
    await open_campaign(service)
    cid = await service.campaign_id("100")
    await service.execute("100", Action("campaign.join", ANN))
    [first] = await store.pending_reminders(cid)
    clock.now = T0 + HOUR
    await service.execute("100", Action("campaign.join", BO))  # now the table waits for Bo
    [second] = await store.pending_reminders(cid)
    assert second.user_id == BO and second.turn_key != first.turn_key
    sent = Sent()
    assert await run_due(store, sent, T0 + 2 * HOUR + 1) == 0  # Ann's reminder is gone
    assert await run_due(store, sent, T0 + 3 * HOUR + 1) == 1 and sent[0].user_id == BO
    # a claimed reminder whose turn has passed posts nothing
    await service.execute("100", Action("campaign.leave", BO))
    assert await reminder_text(store, second) is None


async def test_an_action_that_keeps_the_turn_keeps_the_reminder(store, turn_hook):
    service = CampaignService(store, clock=Clock())
    await open_campaign(service)
    cid = await service.campaign_id("100")
    await service.execute("100", Action("campaign.join", ANN))
    before = await store.pending_reminders(cid)
    await service.execute("100", Action("dice.force", LEAD, {"values": [3]}))
    assert await store.pending_reminders(cid) == before


async def test_reminder_hours_setting_reschedules_and_zero_turns_reminders_off(player, store, turn_hook):
    lead = player(LEAD)
    assert not (await lead("campaign new", name="Night Watch")).error
    assert not (await player(ANN)("campaign join")).error
    cid = await store.load_active("100")
    [r] = await store.pending_reminders(cid.id)
    default = (await lead("campaign settings")).as_text()
    assert "reminder_hours: 24" in default
    assert not (await lead("campaign settings", reminder_hours=1)).error
    [r1] = await store.pending_reminders(cid.id)
    assert r1.due_at < r.due_at  # 1 hour from now instead of 24
    assert not (await lead("campaign settings", reminder_hours=0)).error
    assert await store.pending_reminders(cid.id) == []
    reply = await lead("campaign settings", reminder_hours=400)
    assert reply.error and "reminder_hours" in reply.content


async def test_ending_the_campaign_cancels_its_reminder(player, store, turn_hook):
    lead = player(LEAD)
    await lead("campaign new", name="Night Watch")
    await player(ANN)("campaign join")
    cid = (await store.load_active("100")).id
    assert await store.pending_reminders(cid)
    assert not (await lead("campaign end", confirm=True)).error
    assert await store.pending_reminders(cid) == []
    assert await run_due(store, Sent(), T0 * 2) == 0


class FakeChannel:
    def __init__(self):
        self.posts = []

    async def send(self, content, **kwargs):
        self.posts.append((content, kwargs))


class FakeBot:
    def __init__(self, store):
        self.store = store
        self.channel = FakeChannel()
        self.closed = False

    def get_channel(self, channel_id):
        return self.channel

    async def wait_until_ready(self):
        return None

    def is_closed(self):
        return self.closed


async def test_the_discord_loop_posts_once_and_pings_only_that_player(store, turn_hook):
    from cogs.reminders import post_reminder, start_reminders

    service = CampaignService(store, clock=Clock(0.0))  # due long ago
    await open_campaign(service, hours=1)
    await service.execute("100", Action("campaign.join", ANN))
    bot = FakeBot(store)
    task = start_reminders(bot, interval=0.01)
    for _ in range(100):
        await asyncio.sleep(0.01)
        if bot.channel.posts:
            break
    await asyncio.sleep(0.05)  # more rounds: still one post
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [(content, kwargs)] = bot.channel.posts
    assert content == f"<@{ANN}>, it's your move in **Night Watch**."
    am = kwargs["allowed_mentions"]
    assert am.everyone is False and am.roles is False
    assert [u.id for u in am.users] == [int(ANN)]
    assert isinstance(am, discord.AllowedMentions)
    # a reminder for a local-table campaign (names, not Discord ids) is skipped quietly
    from engine.store import Reminder

    await post_reminder(bot, Reminder(1, "k", "ann", "local", 0.0))
    assert len(bot.channel.posts) == 1
