"""Every guild card's kiosk action (p.13: a guild's town action), played by its text in Brinehold on day 1: Ryan
visits the kiosk of the party's guild with two Restoring Light dice and two fatigue dice on his cooldown track and
2 of 4 HP.  A kiosk is a town action (one of the two), and a party without a guild is refused."""
from __future__ import annotations

import copy

import pytest

from day_helpers import BRINEHOLD_SHOP, DECK_STACK, RYAN, examples_party, refused, run, said, train


@pytest.fixture(scope="module")
def in_town():
    s = examples_party()
    train(s, RYAN, "restoring-light", ["purge", "purge"])
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP})
    adv = s.adventurers[RYAN]
    dice = [d for d, x in adv.dice.items() if x["line"] == "restoring-light"]
    adv.cooldown = [{"die": dice[0]}, {"fatigue": "light"}, {"die": dice[1]}, {"fatigue": "heavy"}]
    adv.hp = 2
    assert s.days.ask.kind == "town"
    return s


def _kiosk(base, guild):
    s = copy.deepcopy(base)
    s.journal.guild = guild
    after, ev = run(s, "town.visit", RYAN, {"feature": "kiosk"})
    return s, after, said(ev)


def test_fighters_guild_sparring_ring_recovers_two_skill_dice(in_town):
    before, s, text = _kiosk(in_town, "fighters-guild")
    assert "Ryan uses the Fighters Guild's kiosk: Sparring Ring" in text and "Ryan recovers 2 skill dice" in text
    assert s.adventurers[RYAN].cooldown == [{"fatigue": "light"}, {"fatigue": "heavy"}]
    assert s.days.town.actions[RYAN] == before.days.town.actions[RYAN] - 1  # one of the two town actions


def test_mages_guild_reading_room_recovers_one_die_and_gives_one_tenacity(in_town):
    _, s, text = _kiosk(in_town, "mages-guild")
    adv = s.adventurers[RYAN]
    assert "Ryan recovers 1 die." in text and len(adv.cooldown) == 3 and adv.tenacity == 1


def test_thieves_guild_fence_refreshes_the_shop(in_town):
    before, s, text = _kiosk(in_town, "thieves-guild")
    assert "the shop's cards are discarded" in text
    assert len(s.days.town.shop) == len(before.days.town.shop) == 6
    assert not set(s.days.town.shop) & set(before.days.town.shop)


def test_undaunted_trophy_shelf_draws_one_common_item(in_town):
    _, s, text = _kiosk(in_town, "undaunted")
    adv = s.adventurers[RYAN]
    (item,) = adv.ready + adv.pack
    assert "Ryan draws" in text
    from rulesets.tes.content import load_pack

    assert load_pack("starter").items[item].rarity == "common"


def test_dark_brotherhood_black_door_one_true_damage_and_one_bonus_xp(in_town):
    _, s, text = _kiosk(in_town, "dark-brotherhood")
    adv = s.adventurers[RYAN]
    assert (adv.hp, adv.saved_xp) == (1, 1) and "1 bonus XP" in text
    assert s.xp_dial == in_town.xp_dial  # bonus XP is not on the XP Dial


def test_psijic_order_still_hour_removes_two_fatigue_dice(in_town):
    _, s, _text = _kiosk(in_town, "psijic-order")
    assert all("die" in e for e in s.adventurers[RYAN].cooldown) and len(s.adventurers[RYAN].cooldown) == 2


def test_vigil_of_stendarr_blessing_heals_two(in_town):
    _, s, text = _kiosk(in_town, "vigil-of-stendarr")
    assert s.adventurers[RYAN].hp == 4 and "Ryan has no status dice to recover" in text


def test_outer_watch_roster_gives_two_tenacity(in_town):
    _, s, text = _kiosk(in_town, "outer-watch")
    assert "Ryan uses The Outer Watch's kiosk" in text and s.adventurers[RYAN].tenacity == 2


def test_chart_society_notes_one_extra_hex_tomorrow(in_town):
    _, s, text = _kiosk(in_town, "chart-society")
    assert "tomorrow the party may move 1 extra hex" in text and s.days.extra_move == 1


def test_every_guild_card_has_its_kiosk_played_here():
    from rulesets.tes.content import load_pack

    tested = {"fighters-guild", "mages-guild", "thieves-guild", "undaunted", "dark-brotherhood", "psijic-order",
              "vigil-of-stendarr", "outer-watch", "chart-society"}
    assert set(load_pack("starter").campaign.guilds) <= tested


def test_no_guild_no_kiosk(in_town):
    s = copy.deepcopy(in_town)
    s.journal.guild = None
    assert "contracted with no guild yet" in refused(s, "town.visit", RYAN, {"feature": "kiosk"})
