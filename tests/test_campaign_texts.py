"""The campaign's texts that the session scripts do not reach, played by their words with forced dice and draws.

* The Sunken Chime in a first session (the day tests' guild): step B14's clash lost, the step kept and triggered
  again the next day (its objective: "If the battle is lost, the quest does not fail ... you may try again");
  step C15's first choice, its gated social check (the party size + 2) passed and failed, and the keyword
  Chime-Heard it gives.
* The Saltmire's endgame (content/starter/provinces/saltmire/endgame.toml) after examples/session.txt and
  examples/session-2.txt: day 1's second choice, day 3's first choice (its gated check, 2 x the party size) and the
  keyword rules of Friend of the Wardens and Chime-Heard, held and not held.
* The Vigil of Stendarr's kiosk removing a status die that is on the track.
* The guild assist (pp.48-51): in the Adventurers Rest and at a battle's round end (called in the round, and
  after the whole party fell); refused a second time, in the endgame and at other moments; the session's major
  keyword forfeited (the epilogue gives none, the journal and its picture show the assist).
"""
from __future__ import annotations

import asyncio
import copy
from pathlib import Path

import pytest

from day_helpers import (BRINEHOLD_SHOP, DECK_STACK, RYAN, SHANNON, examples_party, refused, run, said, stack,
                         train)
from helpers.table import play
from test_day_cards import win_battle

from engine.service import CampaignService
from engine.store import Store
from rulesets.tes.content import load_pack
from rulesets.tes.quest_state import GUILD_ASSIST

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PACK = load_pack("starter")


def _hp(s):
    return {o: a.hp for o, a in s.adventurers.items()}


def _tenacity(s):
    return {o: a.tenacity for o, a in s.adventurers.items()}


# ------------------------------------------------- The Sunken Chime, session 1 --
def _chime_day_two_rest():
    """Session 1 with the Mages Guild's The Sunken Chime (from Brinehold): day 2 at the heron-keepers' shrine
    (step A), then the End of Day: the compass die rolls 1 and the Drowned Chime drifts from 5,5 to 6,4; the
    state waits for the Adventurers Rest."""
    s = examples_party()
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP + ["sm-p02"]})
    for who in (RYAN, SHANNON):
        s, _ = run(s, "town.done", who)
    for who in (RYAN, SHANNON):
        s, _ = run(s, "day.rest", who)
    s = stack(s, "sm-p02")
    s, _ = run(s, "day.route", RYAN, {"to": [2, 4]})
    s, _ = run(s, "day.vote", SHANNON, {})
    assert s.quests.step == "sm-chime-b"
    s, _ = run(s, "reward.done", RYAN)
    s = stack(s, "sm-p02")
    s, ev = run(s, "reward.done", SHANNON, forced=[1])
    assert "The Drowned Chime moves 1 hex: 5,5 → 6,4." in said(ev)
    assert s.days.ask.kind == "rest"
    return s


@pytest.fixture(scope="module")
def chime_rest():
    return _chime_day_two_rest()


@pytest.fixture(scope="module")
def chime_battle(chime_rest):
    """Day 3: the party wades onto the Drowned Chime (6,4): step B14's clash, round 1, Ryan's turn."""
    s = copy.deepcopy(chime_rest)
    for who in (RYAN, SHANNON):
        s, _ = run(s, "day.rest", who)
    s, _ = run(s, "day.route", RYAN, {"to": [6, 4]})
    s, ev = run(s, "day.vote", SHANNON, {}, forced=[1, 1, 1, 1])
    text = said(ev)
    assert "The party triggers the quest encounter of step B14" in text and "Battle 1: **Guardians of the Chime**" \
        in text
    assert s.battle is not None and s.battle.round == 1 and s.battle.turn.owner == RYAN
    return s


def _party_falls(s):
    """Both adventurers fall (the leader's adjustment), Ryan ends his turn, the enemies find nobody: the round
    ends with the whole party down."""
    for where in ("-3,3", "-2,1"):
        s, _ = run(s, "battle.adjust", RYAN, {"unit": where, "hp": -30, "reason": "the guardians drag them under"})
    s, ev = run(s, "battle.endturn", RYAN)
    return s, said(ev)


def test_b14_lost_battle_the_step_stays_and_triggers_again(chime_battle):
    s, text = _party_falls(copy.deepcopy(chime_battle))
    assert "The whole party is down: the battle ends after this round unless <@ryan> calls the guild assist" in text
    xp = s.xp_dial
    s, ev = run(s, "quest.assist", RYAN, {"use": False})
    text = said(ev)
    assert "The guild assist is not called: the battle ends." in text
    assert "The Sunken Chime, step B is failed." in text
    # the text: the quest does not fail, the party may try again
    assert "The encounter of step B14 is failed, but this step allows another try: it stays the party's step and " \
           "triggers again." in text
    assert "guild quest" not in text.split("step B14 is failed")[1].split("\n")[0]  # no "fails the guild quest"
    assert "The encounter was failed: no rewards." in text
    assert s.quests.step == "sm-chime-b" and s.quests.done == ["sm-chime-a"] and s.quests.result == ""
    assert s.journal.result == "" and s.journal.current.result == "" and s.days.phase == "reward"
    assert "💀 Step B14 is failed" not in text and "campaign" not in text
    assert s.days.party == [6, 3]  # the defeated party wakes in Hesk, the closest town
    assert "Step C15" not in text  # the next step is not read
    # the chime drifts on (the step's ongoing effect goes on): the compass die rolls 4, SW
    s, _ = run(s, "reward.done", RYAN)
    s = stack(s, "sm-p02")
    s, ev = run(s, "reward.done", SHANNON, forced=[4])
    assert s.xp_dial == xp
    assert "Step B14 (ongoing): The chime drifts" in said(ev) and "The Drowned Chime moves 1 hex: 6,4 → 5,5." \
        in said(ev)
    for who in (RYAN, SHANNON):
        s, _ = run(s, "day.rest", who)
    assert s.day_dial == 4
    # day 4: the party goes back to the chime: the same step triggers again, its clash is fought again and won
    s, _ = run(s, "day.route", RYAN, {"to": [5, 5]})
    s, ev = run(s, "day.vote", SHANNON, {}, forced=[1, 1, 1, 1])
    text = said(ev)
    assert "📜 The party triggers the quest encounter of step B14, **The Sunken Chime**." in text
    assert "Battle 2: **Guardians of the Chime**" in text
    s, _ = win_battle(s)
    assert s.quests.done == ["sm-chime-a", "sm-chime-b"] and s.quests.step == "sm-chime-c"
    assert s.days.ask.kind == "card" and s.days.ask.data["card"] == "sm-chime-c"  # C15 follows at once


# ------------------------------------------------------------------ step C15 --
@pytest.fixture(scope="module")
def at_c15(chime_battle):
    """Step B14's clash won on day 3: the linked step C15 asks for the party's choice."""
    s, _ = win_battle(copy.deepcopy(chime_battle))
    assert s.days.ask.kind == "card" and s.days.ask.data["card"] == "sm-chime-c"
    return s


def _listen(base, ryan: int, shannon: int):
    """C15's first choice, Listen to its voice: nobody has Speech dice; Ryan and Shannon spend their tenacity."""
    s = copy.deepcopy(base)
    s.adventurers[RYAN].tenacity, s.adventurers[SHANNON].tenacity = ryan, shannon
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    text = said(ev)
    assert "The party chooses **Listen to its voice**." in text
    assert "Social check: difficulty the party size + 2 = 4 (party of 2)" in text
    assert s.days.ask.kind == "check-tenacity"
    s, ev1 = run(s, "day.check", RYAN, {"tenacity": ryan})
    s, ev2 = run(s, "day.check", SHANNON, {"tenacity": shannon})
    return s, said(ev1 + ev2)


def test_c15_listen_succeeds_and_the_party_gains_chime_heard(at_c15):
    xp = at_c15.xp_dial
    s, text = _listen(at_c15, 3, 1)
    assert "The social check succeeds: dice 0 + tenacity 4 = 4 against 4." in text
    assert "🔑 The Sunken Chime, step C: Listen to its voice: the party gains the keyword **Chime-Heard**; it is " \
           "written in the campaign journal." in text
    assert s.journal.minor == [{"keyword": "chime-heard", "session": 1}] and "chime-heard" in s.journal.keywords()
    assert _tenacity(s) == {RYAN: 0, SHANNON: 0}
    assert all(a.cooldown == [] for a in s.adventurers.values())  # not the other choice's fatigue
    # 1 XP for C15 and B14's 2 XP carried to this Reward Phase
    assert "✅ Step C15 of **The Sunken Chime** is completed." in text and "Step D16 — " in text
    assert "The party gains 3 XP" in text and s.xp_dial == xp + 3
    # the journal shows the keyword
    from rulesets.tes.present.quest import journal_text, journal_view

    view = journal_view(s, PACK)
    assert view["minor"] == ["Chime-Heard"] and "Keywords: Chime-Heard" in journal_text(view)


def test_c15_listen_fails_the_choice_closes_and_the_party_wraps_the_chime(at_c15):
    xp = at_c15.xp_dial
    s, text = _listen(at_c15, 2, 1)
    assert "The social check fails: dice 0 + tenacity 3 = 3 against 4." in text
    assert "Listen to its voice cannot be chosen after the failed check: the party chooses again." in text
    assert "Only one way is open: **Wrap it in salt-cloth**." in text
    assert "Ryan gains 1 light fatigue" in text and "Shannon gains 1 light fatigue" in text
    assert all(a.cooldown == [{"fatigue": "light"}] for a in s.adventurers.values())
    assert s.journal.minor == [] and "chime-heard" not in s.journal.keywords() and "Chime-Heard" not in text
    assert _tenacity(s) == {RYAN: 0, SHANNON: 0}  # the tenacity spent on the check is spent
    assert "✅ Step C15 of **The Sunken Chime** is completed." in text and s.xp_dial == xp + 3


def test_c15_a_speech_die_counts_toward_the_check(at_c15):
    base = copy.deepcopy(at_c15)
    train(base, SHANNON, "speech", ["stern-presence"])
    base.adventurers[RYAN].tenacity, base.adventurers[SHANNON].tenacity = 2, 1
    s, ev = run(base, "day.choose", RYAN, {"choice": 1})
    assert s.days.ask.kind == "check-dice" and s.days.ask.owners == [SHANNON]
    s, ev = run(s, "day.check", SHANNON, {"dice": ["Stern Presence"]}, forced=[1])
    s, ev1 = run(s, "day.check", RYAN, {"tenacity": 2})
    s, ev2 = run(s, "day.check", SHANNON, {"tenacity": 1})
    text = said(ev1 + ev2)
    assert "The social check succeeds: dice 1 + tenacity 3 = 4 against 4." in text
    assert "chime-heard" in s.journal.keywords()


# ------------------------------------------------------------------- the endgame --
async def _after_session_two(tmp_path: Path, script_one: str = "session.txt"):
    store = await Store.open(tmp_path / "campaign.db")
    try:
        for name in (script_one, "session-2.txt"):
            errors, _text, local = await play(store, tmp_path, "marsh", (EXAMPLES / name).read_text())
            assert errors == 0, local.failed
        return await CampaignService(store).campaign("marsh")
    finally:
        await store.close()


@pytest.fixture(scope="module")
def before_endgame(tmp_path_factory):
    """The campaign of examples/session.txt and examples/session-2.txt: session 3, the endgame, is next."""
    s = asyncio.run(_after_session_two(tmp_path_factory.mktemp("endgame")))
    assert s.journal.keywords() == ["salt-road-sworn", "chime-bearer"] and s.session == 2
    return s


def _endgame(base, *, minor=("warden-friend", "chime-heard"), ryan_hp=None):
    """Session 3 begins; the party holds the minor keywords ``minor`` (written in session 2's journal)."""
    s = copy.deepcopy(base)
    s.journal.minor = [{"keyword": k, "session": 2} for k in minor]
    if ryan_hp is not None:
        s.adventurers[RYAN].hp = ryan_hp
    # an item Ryan could trade: each night's Adventurers Rest waits for the players (from rules revision 4 a
    # rest in which nobody has anything to choose is taken at once)
    s.adventurers[RYAN].pack.append("travel-bread")
    s, ev = run(s, "day.start", RYAN, {"stack": DECK_STACK}, guild=None)
    assert s.quests.endgame and s.days.ask.kind == "card"
    return s, said(ev)


def test_endgame_day_one_bar_the_sea_gates(before_endgame):
    s, text = _endgame(before_endgame, ryan_hp=1)
    # the keyword section first: Chime-Bearer heals 2 (Ryan 1 → 3), Salt Road Sworn gives 1 tenacity
    assert "🔑 Keyword Chime-Bearer: the silent chime steadies the townsfolk. Each adventurer heals 2 HP." in text
    assert "Keyword Chime-Bearer: Ryan heals 2 HP (3/4)." in text
    assert "Keyword Salt Road Sworn: Ryan gains 1 tenacity (1/5)." in text
    assert "2. 🕊️ **Bar the sea gates** (☼ 1 XP): Hold the gates shut against the water." in text
    assert _hp(s) == {RYAN: 3, SHANNON: 5}
    xp = s.xp_dial
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    text = said(ev)
    assert "The party chooses **Bar the sea gates**." in text
    assert "Bar the sea gates: Ryan gains 1 light fatigue." in text and "Bar the sea gates: Ryan heals 1 HP (4/4)." \
        in text
    assert "Bar the sea gates: Shannon gains 1 light fatigue." in text
    assert _hp(s) == {RYAN: 4, SHANNON: 5}
    assert all(a.cooldown == [{"fatigue": "light"}] for a in s.adventurers.values())
    assert _tenacity(s) == {RYAN: 1, SHANNON: 1}  # not the first choice's tenacity
    assert "The Flood Bells is resolved: ☼ 1 XP in the Reward Phase." in text
    assert "✅ The endgame's day 1 encounter is completed." in text and s.xp_dial == xp + 1


def _to_day(s, day: int, *, before_rest=None):
    """From a day's Reward Phase, through the End of Day to the next day's encounter (a battle is won)."""
    while s.day_dial < day:
        if s.battle is not None:
            s, _ = win_battle(s)
        for who in (RYAN, SHANNON):
            s, _ = run(s, "reward.done", who)
        assert s.days.ask.kind == "rest"
        if before_rest is not None and s.day_dial == day - 1:
            before_rest(s)
        s, _ = run(s, "day.rest", RYAN)
        s, ev = run(s, "day.rest", SHANNON, forced=[1] * 6)
    return s, said(ev)


def test_endgame_friend_of_the_wardens_gives_two_tenacity_before_the_wreckers(before_endgame):
    s, _ = _endgame(before_endgame)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})

    def spent(state):
        for a in state.adventurers.values():
            a.tenacity = 0

    held, text = _to_day(copy.deepcopy(s), 2, before_rest=spent)
    assert "🔑 Keyword Friend of the Wardens: the wardens fight at your side." in text
    assert "Keyword Friend of the Wardens: Ryan gains 2 tenacity (2/5)." in text
    assert "Keyword Friend of the Wardens: Shannon gains 2 tenacity (2/5)." in text
    assert text.index("Keyword Friend of the Wardens") < text.index("Battle ")  # before the encounter
    assert held.battle is not None and held.adventurers[SHANNON].tenacity == 2
    assert held.adventurers[RYAN].tenacity == 3  # and his Crackling Focus at his first turn
    # a party without the keyword: the rule changes nothing, and says so
    s.journal.minor = []
    bare, text = _to_day(s, 2, before_rest=spent)
    assert "Keywords the party does not hold change nothing today: Friend of the Wardens, Wolfbreaker, Bounty " \
        "Hunters, Card Sharp Exposed." in text
    assert "Keyword Friend of the Wardens:" not in text
    assert bare.adventurers[SHANNON].tenacity == 0 and bare.adventurers[RYAN].tenacity == 1


@pytest.fixture(scope="module")
def endgame_day_three(before_endgame):
    """The endgame's days 1 and 2 played (Bar the sea gates, the wreckers beaten), tenacity spent before day 3's
    rest: day 3's encounter, The Drowned Choir, waits for the party's choice."""
    s, _ = _endgame(before_endgame)
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})

    def spent(state):
        for a in state.adventurers.values():
            a.tenacity = 0

    s, text = _to_day(s, 3, before_rest=spent)
    assert s.battle is None and s.days.ask.kind == "card" and s.days.encounter.card == "sm-end-3"
    return s, text


def test_endgame_chime_heard_gives_one_tenacity_before_the_choir(endgame_day_three, before_endgame):
    s, text = endgame_day_three
    assert "🔑 Keyword Chime-Heard: you know the words the chime spoke." in text
    assert "Keyword Chime-Heard: Ryan gains 1 tenacity (1/5)." in text
    assert "Keyword Chime-Heard: Shannon gains 1 tenacity (1/5)." in text
    assert text.index("Keyword Chime-Heard") < text.index("**The Drowned Choir** (Endgame, day 3)")
    assert _tenacity(s) == {RYAN: 1, SHANNON: 1}
    assert "1. 🕊️ **Answer their song** (☼ 2 XP): Social check (2 × the party size)" in text


def test_endgame_chime_heard_not_held_changes_nothing(before_endgame):
    s, _ = _endgame(before_endgame, minor=("warden-friend",))
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})

    def spent(state):
        for a in state.adventurers.values():
            a.tenacity = 0

    s, text = _to_day(s, 3, before_rest=spent)
    assert "Keywords the party does not hold change nothing today: Chime-Heard, Keeper of the Tarn, Pilgrim's " \
        "Blessing, Stone-Speakers." in text
    assert _tenacity(s) == {RYAN: 0, SHANNON: 0}


def _answer(base, ryan: int, shannon: int):
    s = copy.deepcopy(base)
    s.adventurers[RYAN].tenacity, s.adventurers[SHANNON].tenacity = ryan, shannon
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    text = said(ev)
    assert "The party chooses **Answer their song**." in text
    assert "Social check: difficulty 2 × the party size = 4 (party of 2)" in text
    s, ev1 = run(s, "day.check", RYAN, {"tenacity": ryan})
    s, ev2 = run(s, "day.check", SHANNON, {"tenacity": shannon})
    return s, said(ev1 + ev2)


def test_endgame_day_three_answer_their_song_succeeds(endgame_day_three):
    base, _ = endgame_day_three
    hp, xp = _hp(base), base.xp_dial
    s, text = _answer(base, 3, 1)
    assert "The social check succeeds: dice 0 + tenacity 4 = 4 against 4." in text
    assert "The Drowned Choir is resolved: ☼ 2 XP in the Reward Phase." in text
    assert "✅ The endgame's day 3 encounter is completed." in text
    assert _hp(s) == hp and "damage" not in text  # not the other choice's cold
    assert "The party gains 2 XP" in text and s.xp_dial == xp + 2
    assert s.quests.day == 3 and s.quests.result == "" and s.journal.result == ""


def test_endgame_day_three_answer_their_song_fails_and_the_party_wades_through(endgame_day_three):
    base, _ = endgame_day_three
    xp = base.xp_dial
    s, text = _answer(base, 2, 1)
    assert "The social check fails: dice 0 + tenacity 3 = 3 against 4." in text
    assert "Answer their song cannot be chosen after the failed check: the party chooses again." in text
    assert "Only one way is open: **Wade through the choir**." in text
    assert s.adventurers[RYAN].hp == base.adventurers[RYAN].hp - 2
    assert s.adventurers[SHANNON].hp == base.adventurers[SHANNON].hp - 2
    assert "The Drowned Choir is resolved: ☼ 1 XP in the Reward Phase." in text
    assert "✅ The endgame's day 3 encounter is completed." in text and s.xp_dial == xp + 1
    assert s.journal.result == ""  # the failed check is not a failed endgame


def test_no_guild_assist_in_the_endgame(before_endgame):
    s, _ = _endgame(before_endgame)
    assert s.journal.assist == 0
    assert refused(s, "quest.assist", RYAN) == "The guild assist cannot be called in the endgame (session 3)."
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    for who in (RYAN, SHANNON):
        s, _ = run(s, "reward.done", who)
    assert s.days.ask.kind == "rest"  # the Adventurers Rest of session 3 too
    assert "cannot be called in the endgame" in refused(s, "quest.assist", RYAN)


# ------------------------------------------------------- the Vigil's kiosk --
def test_vigil_of_stendarr_kiosk_removes_a_status_die_that_is_there():
    s = examples_party()
    train(s, RYAN, "restoring-light", ["purge"])
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP})
    s.journal.guild = "vigil-of-stendarr"
    adv = s.adventurers[RYAN]
    die = next(d for d, x in adv.dice.items() if x["line"] == "restoring-light")
    adv.cooldown = [{"die": die}, {"status": "bane"}, {"fatigue": "light"}, {"status": "daze"}]
    adv.hp = 1
    s, ev = run(s, "town.visit", RYAN, {"feature": "kiosk"})
    text = said(ev)
    assert "Ryan uses the Vigil of Stendarr's kiosk: Blessing at the Altar." in text
    assert "Ryan heals 2 HP (3/4)" in text and "Ryan recovers 1 status die." in text
    adv = s.adventurers[RYAN]
    assert adv.hp == 3 and adv.cooldown == [{"die": die}, {"fatigue": "light"}, {"status": "daze"}]
    # the second visit takes the other one; a third finds none
    s, ev = run(s, "town.visit", RYAN, {"feature": "kiosk"})
    assert "Ryan recovers 1 status die." in said(ev)
    assert s.adventurers[RYAN].cooldown == [{"die": die}, {"fatigue": "light"}]
    assert s.adventurers[RYAN].hp == 4


# --------------------------------------------------------------- the guild assist --
def _worn(s):
    """Ryan worn down before the rest: 1 HP, a Restoring Light die exhausted and another drained, bane and light
    fatigue and an overfatigue on his track; Shannon at 2 HP with a status die and a drained die."""
    train(s, RYAN, "restoring-light", ["purge", "purge"])
    adv = s.adventurers[RYAN]
    dice = [d for d, x in adv.dice.items() if x["line"] == "restoring-light"]
    adv.hp = 1
    adv.cooldown = [{"die": dice[0]}, {"status": "bane"}, {"fatigue": "light"}, {"fatigue": "over"}]
    adv.drained = [dice[1]]
    sh = s.adventurers[SHANNON]
    sh.hp = 2
    sh.cooldown = [{"status": "daze"}]
    sh.drained = [next(iter(sh.dice))]
    return s


def test_guild_assist_in_the_adventurers_rest(chime_rest):
    s = _worn(copy.deepcopy(chime_rest))
    assert s.days.party == [2, 4] and s.journal.assist == 0
    s, ev = run(s, "quest.assist", RYAN, {"path": [[3, 4], [4, 4], [5, 4], [6, 4]]})
    text = said(ev)
    assert "📯 The guild answers (End of Day): every adventurer heals to full" in text
    assert "Ryan heals to 4/4 HP, discards 3 fatigue and status dice and recovers 2 skill dice." in text
    assert "Shannon heals to 5/5 HP, discards 1 fatigue or status die and recovers 1 skill die." in text
    for o, adv in s.adventurers.items():
        assert adv.hp == adv.max_hp and adv.cooldown == [] and adv.drained == []
        items = adv.ready + adv.pack
        assert sorted(PACK.items[i].rarity for i in items) == ["common", "legendary"], (o, items)
        for i in items:
            assert f"{adv.name} draws {PACK.items[i].name} ({PACK.items[i].rarity})." in text
    # the End of Day's benefit: the party token moves up to 6 hexes, no fatigue, nothing triggered
    assert "🧭 The guild's guides lead the party 4 hexes: 2,4 → 3,4 → 4,4 → 5,4 → 6,4 (no fatigue, nothing " \
           "triggered)." in text
    assert s.days.party == [6, 4] and s.battle is None and "triggers" not in text
    # the session's major keyword is the assist
    assert "The journal records **Guild Assist** as session 1's major keyword: the guild quest's keyword is not " \
           "gained this session." in text
    assert s.journal.assist == 1 and s.journal.current.major == GUILD_ASSIST and s.journal.keywords() == []
    # the rest goes on; the assist is spent for the campaign
    assert s.days.ask.kind == "rest"
    assert refused(s, "quest.assist", RYAN) == "The party already used its guild assist, in session 1: once a " \
                                               "campaign."
    # the guides left the party on the Drowned Chime: the next day it stays there and meets its guardians
    for who in (RYAN, SHANNON):
        s, _ = run(s, "day.rest", who)
    s, ev = run(s, "day.route", RYAN, {"stay": True})
    text = said(ev)
    assert "🧭 The party stays at hex 6,4." in text and "The party triggers the quest encounter of step B14" in text
    assert s.battle is not None and s.battle.encounter == "sm-q-chime-guard"


def test_guild_assist_in_the_rest_moves_six_hexes_at_most_and_sets_no_round(chime_rest):
    s = copy.deepcopy(chime_rest)
    seven = [[3, 4], [4, 4], [5, 4], [6, 4], [6, 3], [5, 3], [4, 3]]
    assert "must be at most 6 hexes" in refused(s, "quest.assist", RYAN, {"path": seven})
    assert refused(s, "quest.assist", RYAN, {"path": [[3, 4], [5, 4]]}) == "Hex 5,4 is not next to 3,4."
    assert "`round:` belongs to a battle" in refused(s, "quest.assist", RYAN, {"round": 2})
    assert "Only the party leader" in refused(s, "quest.assist", SHANNON)
    assert s.journal.assist == 0  # refused: nothing spent


def test_guild_assist_refused_outside_its_moments(chime_rest):
    moment = ("The guild assist is called during a battle (it comes at the end of the round) or in the End of "
              "Day's Adventurers Rest step.")
    s = examples_party()
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP})
    assert s.days.ask.kind == "town" and refused(s, "quest.assist", RYAN) == moment  # in town
    s = copy.deepcopy(chime_rest)
    s, _ = run(s, "day.rest", RYAN)
    s, _ = run(s, "day.rest", SHANNON)
    assert s.days.ask.kind == "route" and refused(s, "quest.assist", RYAN) == moment  # at the route
    s = copy.deepcopy(chime_rest)
    s.journal.assist = 0
    s.session = 4
    assert refused(s, "quest.assist", RYAN) == "The guild assist can be called only in sessions 1 and 2."


def test_guild_assist_called_in_battle_comes_at_the_round_end(chime_battle):
    s = copy.deepcopy(chime_battle)
    s, _ = run(s, "battle.adjust", RYAN, {"unit": "-3,3", "hp": -30, "reason": "pulled under"})
    assert "The 6-hex move is the End of Day's assist" in refused(s, "quest.assist", RYAN, {"path": [[1, 1]]})
    s, ev = run(s, "quest.assist", RYAN, {"round": 3})
    assert "📯 <@ryan> calls the party's guild assist: it comes at the end of round 1." in said(ev)
    assert s.journal.assist == 0 and s.adventurers[RYAN].hp == 0  # not yet: at the end of the round
    assert refused(s, "quest.assist", RYAN) == "The guild assist is already called: it comes at the end of this " \
                                               "round."
    text = ""
    for _ in range(4):
        if s.battle.round != 1:
            break
        s, ev = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 10)
        text += said(ev) + "\n"
    assert "📯 The guild answers (end of round 1)" in text
    assert "Ryan heals to 4/4 HP and is revived" in text and "Ryan is revived and deployed at -3,3." in text
    assert "The party sets the Round Counter: the next round is round 3." in text
    assert "▶️ Round 3: Ryan's turn" in text and s.battle.round == 3
    ryan = s.battle.units["a:ryan"]
    assert not ryan.defeated and (ryan.q, ryan.r) == (-3, 3)
    for adv in s.adventurers.values():
        assert adv.hp == adv.max_hp and adv.cooldown == []
        assert sorted(PACK.items[i].rarity for i in adv.ready + adv.pack) == ["common", "legendary"]
    assert s.journal.assist == 1 and s.journal.current.major == GUILD_ASSIST
    assert refused(s, "quest.assist", RYAN) == "The party already used its guild assist, in session 1: once a " \
                                               "campaign."


def test_guild_assist_after_the_whole_party_falls(chime_battle):
    s, text = _party_falls(copy.deepcopy(chime_battle))
    from rulesets.tes.session.prompts import open_prompt

    prompt = open_prompt(s)
    assert prompt is not None and prompt.owner == RYAN and [o.label for o in prompt.options] == [
        "Call the guild assist", "Let the battle end"]
    s, ev = run(s, "quest.assist", RYAN, {"use": True})
    text = said(ev)
    assert "Ryan is revived and deployed at -3,3." in text and "Shannon is revived and deployed at -2,1." in text
    assert "▶️ Round 2: Ryan's turn" in text  # the battle goes on
    assert s.battle is not None and not any(u.defeated for u in s.battle.units.values())
    assert _hp(s) == {RYAN: 4, SHANNON: 5} and s.journal.assist == 1
    assert open_prompt(s) is None
    s, _ = win_battle(s)
    assert s.quests.step == "sm-chime-c"  # the clash won with the guild's help: step B is done


async def test_guild_assist_forfeits_the_sessions_major_keyword(tmp_path, monkeypatch):
    """examples/session.txt with the guild assist called in day 3's Adventurers Rest: The Salt Road is won, but
    its epilogue's keyword Salt Road Sworn is not gained; the journal (its words and its picture) shows the
    assist."""
    import render

    drawn: list[tuple[str, dict]] = []
    real = render.render

    def spy(kind, view):
        drawn.append((kind, view))
        return real(kind, view)

    monkeypatch.setattr(render, "render", spy)
    script = (EXAMPLES / "session.txt").read_text()
    day_3_rest = "/adventurer rest\n@shannon /adventurer rest\n\n# ---- day 4"
    assert script.count(day_3_rest) == 1
    script = script.replace(day_3_rest, "/quest assist use:yes\n" + day_3_rest)  # a bare command only asks
    store = await Store.open(tmp_path / "assist.db")
    try:
        errors, text, local = await play(store, tmp_path, "marsh", script)
        assert errors == 0, local.failed
        state = await CampaignService(store).campaign("marsh")
    finally:
        await store.close()
    assert "📯 The guild answers (End of Day)" in text
    epilogue = text[text.index("Epilogue (E07)"):]
    assert "The party used its guild assist this session: the journal's major keyword for it is **Guild Assist**, " \
           "and the quest's keyword Salt Road Sworn is not gained." in epilogue
    assert "The party gains the major keyword" not in text
    j = state.journal
    assert j.sessions[0].result == "won" and j.sessions[0].major == GUILD_ASSIST and j.assist == 1
    assert j.keywords() == []  # no keyword for the endgame from this session
    assert "Session 1: The Saltmire, The Salt Road — done (The Salt Road completed); major keyword Guild Assist" \
        in text
    assert "Keywords: none yet" in text and "Guild assist: used in session 1" in text
    journals = [view for kind, view in drawn if kind == "journal"]
    assert journals and any(p.name.endswith("journal.png") for p in local.images)
    view = journals[-1]
    assert view["sessions"][0]["major"] == GUILD_ASSIST and view["keywords"] == []
    assert view["assist"] == "used in session 1"
    # session 2 (The Sunken Chime, from Brinehold): its first Adventurers Rest cannot call it again
    s, _ = run(state, "day.start", RYAN, {"stack": DECK_STACK}, guild=None)
    assert s.session == 2 and s.quests.quest == "sm-sunken-chime"
    for kind, action in (("town", "town.done"), ("reward", "reward.done")):
        for who in (RYAN, SHANNON):
            if s.days.ask is not None and s.days.ask.kind == kind:
                s, _ = run(s, action, who)
    assert s.days.ask.kind == "rest" and s.session == 2
    assert refused(s, "quest.assist", RYAN) == "The party already used its guild assist, in session 1: once a " \
                                               "campaign."


def test_guild_assist_question_unanswered_lets_the_battle_end(chime_battle):
    s, _ = _party_falls(copy.deepcopy(chime_battle))
    s, ev = run(s, "quest.assist-timeout", RYAN, {})
    text = said(ev)
    assert "⏰ No answer about the guild assist in time: the battle ends." in text
    assert "The encounter of step B14 is failed, but this step allows another try" in text
    assert s.battle is None and s.journal.assist == 0 and s.quests.step == "sm-chime-b"
    assert refused(s, "quest.assist-timeout", RYAN, {}) == "That question was already answered; nothing timed out."
    # with no question waiting, "no" answers nothing
    assert refused(s, "quest.assist", RYAN, {"use": False}) == "No question about the guild assist is waiting."


def _free_hexes(s, n):
    """n passable, unoccupied hexes of the battle map, away from the entrance."""
    from rulesets.tes.outcomes.context import DayCtx

    c = DayCtx(s, PACK, None)
    taken = c.occupied()
    free = sorted((h for h in c.map.passable if h not in taken and h not in c.map.entrance), key=lambda h: (h.q, h.r))
    return free[:n], next(iter(taken))


def test_guild_assist_in_battle_deploys_the_revived_where_the_leader_says(chime_battle):
    s = copy.deepcopy(chime_battle)
    s, _ = run(s, "battle.adjust", RYAN, {"unit": "-3,3", "hp": -30, "reason": "pulled under"})
    (spot, other), taken = _free_hexes(s, 2)
    assert "is not a hex of the battle map" in refused(s, "quest.assist", RYAN, {"deploy": [[40, 40]]})
    assert "a different hex for each" in refused(s, "quest.assist", RYAN, {"deploy": [[spot.q, spot.r]] * 2})
    s, ev = run(s, "quest.assist", RYAN, {"round": 2, "deploy": [[spot.q, spot.r]]})
    assert s.quests.assist_deploy == [[spot.q, spot.r]]
    text = ""
    for _ in range(4):
        if s.battle.round != 1:
            break
        s, ev = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 10)
        text += said(ev) + "\n"
    ryan = s.battle.units["a:ryan"]
    if f"Hex {spot}, named for Ryan, is taken by now" in text:  # an enemy moved there during the round
        assert (ryan.q, ryan.r) != (spot.q, spot.r)
    else:
        assert f"Ryan is revived and deployed at {spot}." in text and (ryan.q, ryan.r) == (spot.q, spot.r)
    assert not ryan.defeated and s.quests.assist_deploy == []


def test_guild_assist_after_the_party_falls_deploys_each_where_named(chime_battle):
    s, _ = _party_falls(copy.deepcopy(chime_battle))
    (a, b), taken = _free_hexes(s, 2)
    assert f"Hex {taken} is taken" in refused(s, "quest.assist", RYAN, {"use": True, "deploy": [[taken.q, taken.r]]})
    s, ev = run(s, "quest.assist", RYAN, {"use": True, "deploy": [[a.q, a.r], [b.q, b.r]]})
    text = said(ev)
    assert f"Ryan is revived and deployed at {a}." in text and f"Shannon is revived and deployed at {b}." in text
    units = s.battle.units
    assert (units["a:ryan"].q, units["a:ryan"].r) == (a.q, a.r)
    assert (units["a:shannon"].q, units["a:shannon"].r) == (b.q, b.r)


def test_guild_assist_deploy_belongs_to_a_battle(chime_rest):
    s = copy.deepcopy(chime_rest)
    assert "`deploy:` belongs to a battle" in refused(s, "quest.assist", RYAN, {"deploy": [[1, 1]]})
    assert "`round:` belongs to a battle" in refused(s, "quest.assist", RYAN, {"round": 2})
