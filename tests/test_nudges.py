"""Nudges that respect sleep: repeated reminders, time zones and quiet hours, snooze, away (with a fake clock)."""
from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import pytest

from engine.core import RuleError
from engine.reminders import (
    away_note, hold_until, parse_quiet, parse_timezone, parse_until, reminder_reply, run_due, snooze_until,
)
from engine.store import MemberPrefs
from tests.test_reminders import ANN, BO, HOUR, LEAD, Clock, Sent, turn_hook  # noqa: F401 - the fixture

T0 = datetime(2030, 1, 7, 20, 0, tzinfo=timezone.utc).timestamp()  # a Monday, 21:00 in Berlin


@pytest.fixture
def clock(table):
    c = Clock(T0)
    table.service.clock = c
    return c


async def party(player, hours=2):
    assert not (await player(LEAD)("campaign new", name="Night Watch")).error
    assert not (await player(LEAD)("campaign settings", reminder_hours=hours)).error
    assert not (await player(ANN)("campaign join")).error  # the test's turn order: the table waits for Ann


def test_bad_settings_are_refused_with_the_format():
    for bad in ("Berlin", "Europe/Atlantis", "../etc/passwd", "", "UTC+2"):
        with pytest.raises(RuleError) as e:
            parse_timezone(bad)
        assert "Europe/Berlin" in str(e.value) and "Nothing was changed" in str(e.value), bad
    assert parse_timezone(" Europe/Berlin ") == "Europe/Berlin"
    for bad in ("10pm", "22-22", "25-07", "22", "22-7-1"):
        with pytest.raises(RuleError) as e:
            parse_quiet(bad)
        assert "22-07" in str(e.value), bad
    assert parse_quiet("22-07") == (22, 7) and parse_quiet("23:00-6:00") == (23, 6) and parse_quiet("off") is None
    prefs = MemberPrefs("1", "Europe/Berlin")
    with pytest.raises(RuleError, match="year-month-day"):
        parse_until("next week", prefs, T0)
    with pytest.raises(RuleError, match="after today"):
        parse_until("2030-01-07", prefs, T0)
    with pytest.raises(RuleError, match="a year ahead"):
        parse_until("2032-01-01", prefs, T0)
    back = parse_until("2030-01-10", prefs, T0)  # from midnight, Berlin time
    assert back == datetime(2030, 1, 9, 23, 0, tzinfo=timezone.utc).timestamp()
    assert parse_until("off", prefs, T0) is None


def test_quiet_hours_away_and_snooze_times_follow_the_members_clock():
    berlin = MemberPrefs("1", "Europe/Berlin", 22, 7)
    assert hold_until(berlin, T0) is None  # 21:00 there
    assert hold_until(berlin, T0 + HOUR) == T0 + 10 * HOUR  # 22:00 there: until 07:00
    assert hold_until(berlin, T0 + 9 * HOUR) == T0 + 10 * HOUR  # 06:00 there
    assert hold_until(berlin, T0 + 10 * HOUR) is None
    day = MemberPrefs("2", None, 9, 17)  # quiet in the daytime, UTC
    assert hold_until(day, T0) is None and hold_until(day, T0 + 14 * HOUR) == T0 + 21 * HOUR
    away = MemberPrefs("3", "Europe/Berlin", 22, 7, away_until=T0 + 3 * HOUR)  # back at 00:00 there, quiet
    assert hold_until(away, T0) == T0 + 10 * HOUR
    assert snooze_until(berlin, "1h", T0) == T0 + HOUR and snooze_until(berlin, "8h", T0) == T0 + 8 * HOUR
    assert snooze_until(berlin, "tomorrow", T0) == T0 + 10 * HOUR  # tomorrow when her quiet hours end
    assert snooze_until(MemberPrefs("4"), "tomorrow", T0) == T0 + 13 * HOUR  # 09:00 UTC without them


async def test_a_reminder_repeats_at_the_interval_until_the_player_acts(player, store, clock, turn_hook):
    await party(player)
    cid = (await store.load_active("100")).id
    sent = Sent()
    assert await run_due(store, sent, T0 + 2 * HOUR) == 1
    assert await run_due(store, sent, T0 + 3 * HOUR) == 0
    assert await run_due(store, sent, T0 + 4 * HOUR) == 1
    assert await run_due(store, sent, T0 + 6 * HOUR) == 1
    assert [r.user_id for r in sent] == [ANN] * 3
    clock.now = T0 + 7 * HOUR
    assert not (await player(BO)("campaign join")).error  # the turn moves on: now the table waits for Bo
    assert await run_due(store, sent, T0 + 8 * HOUR) == 0
    assert await run_due(store, sent, T0 + 9 * HOUR) == 1 and sent[-1].user_id == BO
    [r] = await store.pending_reminders(cid)
    assert r.user_id == BO and r.due_at == T0 + 11 * HOUR


async def test_two_loops_post_each_repeat_once(player, store, clock, turn_hook):
    await party(player, hours=1)
    a, b = Sent(), Sent()
    for step in range(1, 6):
        now = T0 + step * HOUR
        counts = await asyncio.gather(run_due(store, a, now), run_due(store, b, now), run_due(store, a, now))
        assert sum(counts) == 1, (step, counts)
    assert len(a) + len(b) == 5


async def test_a_reminder_scheduled_by_an_earlier_version_is_sent_once(player, store, clock, turn_hook):
    await party(player)
    await store._write_one("UPDATE reminders SET every = NULL", ())  # as rows written before repeats were
    sent = Sent()
    assert await run_due(store, sent, T0 + 2 * HOUR) == 1
    assert await run_due(store, sent, T0 + 9 * HOUR) == 0


async def test_quiet_hours_hold_a_reminder_and_it_comes_after(player, store, clock, turn_hook):
    reply = await player(ANN)("me settings", timezone="Europe/Berlin", quiet="22-07")
    assert reply.ephemeral and not reply.error
    await party(player, hours=1)  # due at 22:00 Ann's time
    sent = Sent()
    assert await run_due(store, sent, T0 + HOUR) == 0
    assert await run_due(store, sent, T0 + 9 * HOUR + 59 * 60) == 0
    assert await run_due(store, sent, T0 + 10 * HOUR) == 1  # 07:00 in Berlin
    assert await run_due(store, sent, T0 + 11 * HOUR) == 1  # then hourly, as the leader set
    # a refused setting changes nothing
    assert "Europe/Berlin" in (await player(ANN)("me settings", timezone="Mars/Olympus")).content
    shown = (await player(ANN)("me settings")).as_text()
    assert "Europe/Berlin" in shown and "22:00 to 07:00" in shown


async def test_snooze_buttons_move_the_reminder_and_only_its_player_may(player, store, clock, turn_hook):
    await party(player)
    cid = (await store.load_active("100")).id
    [r] = await store.pending_reminders(cid)
    reply = await reminder_reply(store, r)
    assert [b.label for b in reply.buttons] == ["Snooze: 1 hour", "Snooze: 8 hours", "Snooze: Until tomorrow"]
    one_hour = reply.buttons[0].custom_id
    refused = await player(LEAD).click(one_hour)  # the table waits for Ann
    assert refused.error and f"Only <@{ANN}>" in refused.content
    assert not (await player(BO)("campaign join")).error  # now it waits for Bo: Ann's snooze is refused
    refused = await player(ANN).click(one_hour)  # her reminder's button: that turn has passed
    assert refused.error and "out of date" in refused.content
    refused = await player(BO).click(one_hour)  # nor does it snooze Bo's turn: it is bound to Ann's
    assert refused.error and "out of date" in refused.content
    clock.now = T0 + 3 * HOUR
    sent = Sent()
    assert await run_due(store, sent, T0 + 3 * HOUR) == 1  # Bo's, due 2 hours after he joined at T0
    [r] = await store.pending_reminders(cid)
    bos = (await reminder_reply(store, r)).buttons[0].custom_id
    refused = await player(ANN).click(bos)
    assert refused.error and f"Only <@{BO}>" in refused.content
    ok = await player(BO).click(bos)
    assert not ok.error and ok.ephemeral and f"<t:{int(T0 + 4 * HOUR)}:f>" in ok.content
    assert await run_due(store, sent, T0 + 3.5 * HOUR) == 0
    assert await run_due(store, sent, T0 + 4 * HOUR) == 1 and sent[-1].user_id == BO


async def test_away_members_get_no_reminders_and_the_status_and_the_leader_are_told(player, store, clock,
                                                                                     turn_hook):
    await party(player)
    reply = await player(ANN)("me away", until="2030-01-20")
    assert reply.ephemeral and "skips your reminders" in reply.content
    back = datetime(2030, 1, 20, tzinfo=timezone.utc).timestamp()
    sent = Sent()
    assert await run_due(store, sent, T0 + 2 * HOUR) == 0
    assert await run_due(store, sent, T0 + 100 * HOUR) == 0
    note = await away_note(store, ANN, T0)
    assert note.startswith(f"<@{ANN}> is away until <t:{int(back)}:f>")
    assert await away_note(store, LEAD, T0) is None
    status = (await player(BO)("campaign status")).as_text()
    assert f"<@{ANN}> is away until" in status
    assert await run_due(store, sent, back) == 1  # back: the reminder comes
    assert "Welcome back" in (await player(ANN)("me away", until="off")).content
    assert "is away" not in (await player(BO)("campaign status")).as_text()
