"""The endgame lost, the difficulty changed between sessions, and the endgame's own set-up (pp.49 and 51).

examples/endgame-lost.txt follows examples/session.txt and examples/session-2.txt in the same channel: the leader
starts session 3 on Apprentice, the party resolves day 1, then retreats from day 2's battle.
"""
from __future__ import annotations

from pathlib import Path

from day_helpers import RYAN, examples_party, refused, run, said
from helpers.table import play

from engine import rulesets
from engine.service import CampaignService, replay
from engine.store import Store
from rulesets.tes.content import load_pack
from rulesets.tes.present.day_view import overland_view

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


async def test_an_endgame_encounter_failed_loses_the_campaign_on_the_difficulty_chosen_for_it(tmp_path):
    store = await Store.open(tmp_path / "endgame.db")
    try:
        for name in ("session.txt", "session-2.txt"):
            errors, _, local = await play(store, tmp_path, "marsh", (EXAMPLES / name).read_text())
            assert errors == 0, local.failed
        before = await CampaignService(store).campaign("marsh")
        assert before.difficulty == "adept"
        errors, text, local = await play(store, tmp_path, "marsh", (EXAMPLES / "endgame-lost.txt").read_text())
        assert errors == 0, local.failed
        # the difficulty changes for this session (p.49), and the rest heals by it
        assert "The difficulty changes from Adept to Apprentice for this session." in text
        assert "The Adventurers Rest (Apprentice): each adventurer heals 2 HP and removes 2 dice" in text
        # the endgame's set-up (p.51): no overland deck, no party token; the day limit is the endgame's own
        assert "No overland deck is drawn and no party token is placed" in text
        assert "The party token starts in" not in text
        assert "The peaceful deck" not in text and "The conflict deck" not in text
        assert "== Day 1 of 4 — The Saltmire (the endgame) ==" in text
        # the keyword's words are said once, after its name
        assert "🔑 Keyword Chime-Bearer: the silent chime steadies the townsfolk." in text
        assert "Chime-Bearer: Chime-Bearer" not in text
        # the failed encounter: the endgame's defeat, the campaign lost
        assert "💀 The party fails the endgame's day 2 encounter, **Wreckers on the Causeway**." in text
        assert "The flood closes over the causeways" in text and "it is lost (an endgame encounter failed)" in text
        assert "Session 3: The Saltmire, Endgame: The Tide Unbound — failed (an endgame encounter failed); 2 days" \
            in text
        state = await CampaignService(store).campaign("marsh")
        j = state.journal
        assert j.result == "lost" and [s.result for s in j.sessions] == ["won", "won", "lost"]
        assert [s.difficulty for s in j.sessions] == ["adept", "adept", "apprentice"]
        assert state.difficulty == "apprentice"
        view = overland_view(state, load_pack("starter"))
        assert view["party"] is None and view["day_limit"] == 4 and "the endgame" in view["status"]
        stored = await store.load_active("marsh")
        assert replay(await store.log(stored.id)).to_dict() == rulesets.load(stored.state).to_dict()
        errors, _, local = await play(store, tmp_path, "marsh", "/as ryan\n/day start")
        assert errors == 1 and "This campaign is lost: its endgame failed." in local.failed[0][2]
    finally:
        await store.close()


def test_a_session_may_start_on_another_difficulty_and_a_bad_one_changes_nothing():
    s = examples_party()
    why = refused(s, "day.start", RYAN, {"difficulty": "legendary"})
    assert "`difficulty:` is Apprentice, Adept or Expert (you gave legendary)" in why
    assert s.days is None and s.difficulty == "adept"
    s, ev = run(s, "day.start", RYAN, {"difficulty": "Expert"})
    assert "The difficulty changes from Adept to Expert for this session." in said(ev)
    assert s.difficulty == "expert" and s.journal.sessions[0].difficulty == "expert"
    # the same difficulty again says nothing
    t = examples_party()
    t, ev = run(t, "day.start", RYAN, {"difficulty": "adept"})
    assert "difficulty changes" not in said(ev) and t.difficulty == "adept"


def test_a_session_with_a_guild_quest_shows_its_day_limit_of_12():
    s, _ = run(examples_party(), "day.start", RYAN, {})
    view = overland_view(s, load_pack("starter"))
    assert view["day_limit"] == 12 and view["party"] is not None


def test_a_session_won_puts_the_adventurers_away_as_p49_says():
    """Expended items, pets with HP chips and active enchantments are discarded; other items are kept; full HP,
    no tenacity, no dice in the track; a closed town is crossed out in the journal; side quests are discarded."""
    from day_helpers import SHANNON, day_two

    from engine.core import Dice
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.session import end

    pack = load_pack("starter")
    s = day_two()
    ryan, shannon = s.adventurers[RYAN], s.adventurers[SHANNON]
    ryan.ready = ["healing-draught", "iron-sword"]
    ryan.expended = ["healing-draught"]
    ryan.enchants = ["rune-of-warding"]
    shannon.ready = ["loyal-hound", "hunting-bow"]
    shannon.pet_chips = {"loyal-hound": 2}
    ryan.hp, ryan.tenacity, shannon.tenacity = 1, 3, 2
    ryan.cooldown = ["light"]
    s.days.closed = ["reedwick"]
    assert s.quests.quest == "sm-sunken-chime"
    c = DayCtx(s, pack, Dice(0, 0, []))
    end.won(c)
    text = said(c.events)
    assert "The adventurers are put away" in text
    assert "Ryan (4/4 HP, 0 XP kept; discards Healing Draught, Rune of Warding)" in text
    assert "Shannon (5/5 HP, 0 XP kept; discards Loyal Hound)" in text
    assert ryan.ready == ["iron-sword"] and ryan.enchants == [] and ryan.expended == []
    assert shannon.ready == ["hunting-bow"] and shannon.pet_chips == {}
    assert (ryan.hp, ryan.tenacity, ryan.cooldown, shannon.tenacity) == (4, 0, [], 0)
    assert "Persistent effects are crossed out in the journal: Reedwick closed." in text
    entry = s.journal.sessions[0]
    assert entry.result == "won" and entry.notes == ["Reedwick closed"] and entry.major == "chime-bearer"
    assert s.days.phase == "over" and s.quests is None


async def test_session_two_in_the_other_province_from_session_ones_epilogue(tmp_path):
    """The Salt Road's epilogue offers The Sunken Chime (the Saltmire) and The Grey Mother (the Ironpine): the
    party takes the Ironpine's, so session 2 is played there (p.49: the journal names the province)."""
    store = await Store.open(tmp_path / "cross.db")
    try:
        lines = (EXAMPLES / "session.txt").read_text().strip().splitlines()
        assert lines[-2:] == ["/quest next pick:1", "/journal"]
        errors, text, local = await play(store, tmp_path, "marsh", "\n".join(lines[:-2]))
        assert errors == 0, local.failed
        assert "1. The Sunken Chime (The Saltmire, Mages Guild); 2. The Grey Mother (The Ironpine Highlands, " \
               "Fighters Guild)" in text
        script = "\n".join(["/as ryan", "/quest next pick:2", "/day start province:saltmire", "/day start",
                            "/journal"])
        errors, text, local = await play(store, tmp_path, "marsh", script)
        assert errors == 1 and "Session 2 is played in The Ironpine Highlands" in local.failed[0][2]
        assert "The journal records session 2's quest: **The Grey Mother** for the Fighters Guild, in The " \
               "Ironpine Highlands." in text
        assert "A session begins in **The Ironpine Highlands** (IP)" in text and "📕 Session 2 of the campaign." in text
        pack = load_pack("starter")
        grey = pack.campaign.quests["ip-grey-mother"]
        start = pack.provinces["ironpine"].towns[grey.start]
        assert f"Starting location: {start.name}" in text
        state = await CampaignService(store).campaign("marsh")
        assert [(s.number, s.province) for s in state.journal.sessions] == [(1, "saltmire"), (2, "ironpine")]
        assert state.quests.quest == "ip-grey-mother" and state.days.code == "IP"
        assert "Session 2: The Ironpine Highlands, The Grey Mother — under way" in text
        stored = await store.load_active("marsh")
        assert replay(await store.log(stored.id)).to_dict() == rulesets.load(stored.state).to_dict()
    finally:
        await store.close()
