"""The endgames read every major keyword (pp.48-51): each of the pack's major keywords, one from each guild quest's
epilogue, can change both endgames, and each endgame reads minor keywords from the side quests too.

A campaign's sessions 1 and 2 may be played in either province and session 3 is played in session 2's, so any
two major keywords can reach either endgame.  Each keyword rule added for them is played here at its own day, on
twin parties: one whose journal holds the keyword, one whose journal holds none.  Both play the same days before
it (the same choices, the battles won) and are hurt and tired the same way before the keyword section is read; the
difference between the two parties is the rule's effect, and the words each is shown say so.
"""
from __future__ import annotations

import pytest

from day_helpers import DECK_STACK, RYAN, SHANNON, examples_party, run, said
from test_day_cards import win_battle

from rulesets.tes.content import load_pack
from rulesets.tes.quest.common import content
from rulesets.tes.quest_state import Journal, SessionEntry

PACK = load_pack("starter")
CAMP = content(PACK)
NOT_HELD = "Keywords the party does not hold change nothing today: "

# (endgame, day, keyword, its name, the change to each adventurer, what Ryan is shown)
# Before the keyword section each adventurer has 2 HP, 2 tenacity, no bonus XP and a cooldown track holding
# 3 status dice and 3 light fatigue dice (the night's rest takes the leftmost off before days 2 to 4).
CASES = [
    ("saltmire", 1, "ledger-keeper", "Keeper of the Ledger", {"xp": 1}, ["Ryan gains 1 bonus XP (1 unspent)."]),
    ("saltmire", 1, "tithe-keeper", "Tithe-Keeper", {"fatigue": 1}, ["Ryan gains 1 light fatigue."]),
    ("saltmire", 1, "beacon-keeper", "Beacon Keeper", {"fatigue": -1}, ["Ryan recovers 1 fatigue die."]),
    ("saltmire", 2, "wolfbreaker", "Wolfbreaker", {"tenacity": 1, "hp": 1},
     ["Ryan gains 1 tenacity (3/5).", "Ryan heals 1 HP (3/4)."]),
    ("saltmire", 2, "bounty-hunters", "Bounty Hunters", {"hp": -1}, ["Ryan is dealt 1 damage (1/4 HP)."]),
    ("saltmire", 2, "card-sharp-exposed", "Card Sharp Exposed", {"tenacity": -1}, ["Ryan loses 1 tenacity (1 left)."]),
    ("saltmire", 3, "tarn-keeper", "Keeper of the Tarn", {"status": -1}, ["Ryan recovers 1 status die."]),
    ("saltmire", 3, "pilgrims-blessing", "Pilgrim's Blessing", {"hp": 2}, ["Ryan heals 2 HP (4/4)."]),
    ("saltmire", 3, "stone-speakers", "Stone-Speakers", {"xp": 1}, ["Ryan gains 1 bonus XP (1 unspent)."]),
    ("saltmire", 4, "kings-hornblower", "Hornblower", {"tenacity": 2}, ["Ryan gains 2 tenacity (4/5)."]),
    ("saltmire", 4, "deepfrost-dared", "Deepfrost-Dared", {"fatigue": 1, "xp": 1},
     ["Ryan gains 1 light fatigue.", "Ryan gains 1 bonus XP (1 unspent)."]),
    ("ironpine", 1, "tithe-keeper", "Tithe-Keeper", {"fatigue": -1}, ["Ryan recovers 1 fatigue die."]),
    ("ironpine", 1, "ledger-keeper", "Keeper of the Ledger", {"fatigue": 1}, ["Ryan gains 1 light fatigue."]),
    ("ironpine", 1, "wager-won", "Wager Won", {"hp": 1}, ["Ryan heals 1 HP (3/4)."]),
    ("ironpine", 2, "wolfbreaker", "Wolfbreaker", {"tenacity": 1, "hp": 1},
     ["Ryan gains 1 tenacity (3/5).", "Ryan heals 1 HP (3/4)."]),
    ("ironpine", 2, "barrow-sealed", "Barrow Sealed", {"tenacity": 1}, ["Ryan gains 1 tenacity (3/5)."]),
    ("ironpine", 2, "bones-reburied", "Bones Reburied", {"tenacity": -1}, ["Ryan loses 1 tenacity (1 left)."]),
    ("ironpine", 3, "deepfrost-dared", "Deepfrost-Dared", {"xp": 1}, ["Ryan gains 1 bonus XP (1 unspent)."]),
    ("ironpine", 3, "kings-hornblower", "Hornblower", {"hp": -1}, ["Ryan is dealt 1 damage (1/4 HP)."]),
    ("ironpine", 3, "stone-speakers", "Stone-Speakers", {"tenacity": 1}, ["Ryan gains 1 tenacity (3/5)."]),
    ("ironpine", 4, "tarn-keeper", "Keeper of the Tarn", {"tenacity": 2}, ["Ryan gains 2 tenacity (4/5)."]),
    ("ironpine", 4, "beacon-keeper", "Beacon Keeper", {"tenacity": 1}, ["Ryan gains 1 tenacity (3/5)."]),
]
# day 1's choice, then each day's: the first (a battle on days 2 and 4) or the one without a check (day 3)
CHOICE = {"saltmire": {1: 2, 2: 1, 3: 2}, "ironpine": {1: 2, 2: 1, 3: 2}}


def journal(province: str, keyword: str | None) -> Journal:
    """Sessions 1 and 2 won (session 2 in ``province``); the journal holds ``keyword`` (a major one as session 2's,
    a minor one written in session 2) or no keyword at all."""
    major = keyword if keyword and CAMP.keywords[keyword].kind == "major" else ""
    minor = [{"keyword": keyword, "session": 2}] if keyword and not major else []
    return Journal(guild="mages-guild", sessions=[
        SessionEntry(1, "saltmire", "adept", guild="mages-guild", quest="sm-sunken-chime", result="won", days=6),
        SessionEntry(2, province, "adept", guild="mages-guild", result="won", major=major, days=7)], minor=minor)


def worn(s, hp: int = 2) -> None:
    """Every adventurer hurt and tired the same way: ``hp`` HP, 2 tenacity, no bonus XP, 3 status dice and 3
    light fatigue dice on the cooldown track."""
    for a in s.adventurers.values():
        a.hp, a.tenacity, a.saved_xp = hp, 2, 0
        a.cooldown = [{"status": "daze"}, {"status": "maim"}, {"status": "fear"}] + [{"fatigue": "light"}] * 3


def start(province: str, keyword: str | None, *, hurt: bool = False):
    s = examples_party()
    s.journal = journal(province, keyword)
    # an item Ryan could trade: each night's Adventurers Rest waits for the players (from rules revision 4 a
    # rest in which nobody has anything to choose is taken at once)
    s.adventurers[RYAN].pack.append("travel-bread")
    if hurt:
        worn(s)
    s, ev = run(s, "day.start", RYAN, {"stack": DECK_STACK}, guild=None)  # session 3: session 2's province
    assert s.quests.endgame and s.days.province == province and s.session == 3
    return s, said(ev)


def _before_last_rest(province: str, day: int, keyword: str | None):
    """The endgame of a party holding ``keyword`` (or none), played to the End of Day before ``day``: the rest
    waits."""
    s, _ = start(province, keyword)
    while True:
        if s.battle is None and s.days.ask is not None and s.days.ask.kind == "card":
            s, _ = run(s, "day.choose", RYAN, {"choice": CHOICE[province][s.day_dial]})
        if s.battle is not None:
            s, _ = win_battle(s)
        for who in (RYAN, SHANNON):
            s, _ = run(s, "reward.done", who)
        assert s.days.ask.kind == "rest", s.days.ask
        if s.day_dial == day - 1:
            return s
        s, _ = run(s, "day.rest", RYAN)
        s, _ = run(s, "day.rest", SHANNON, forced=[1] * 6)


def at_day(province: str, day: int, keyword: str | None):
    """The state just after ``day``'s keyword section is read (its encounter triggered), and the words said; the
    party holds ``keyword`` (or none) from the session's start and was worn as ``worn`` says just before it."""
    if day == 1:
        return start(province, keyword, hurt=True)
    s = _before_last_rest(province, day, keyword)
    worn(s, hp=1)  # the night's rest heals 1 HP: 2 HP when the keyword section is read
    s, _ = run(s, "day.rest", RYAN)
    s, ev = run(s, "day.rest", SHANNON, forced=[1] * 6)
    assert s.day_dial == day and s.days.encounter.card == CAMP.endgames[province].on_day(day).id
    return s, said(ev)


def measure(s) -> dict[str, dict[str, int]]:
    return {o: {"hp": a.hp, "tenacity": a.tenacity, "xp": a.saved_xp,
                "fatigue": sum(1 for e in a.cooldown if e.get("fatigue") == "light"),
                "status": sum(1 for e in a.cooldown if "status" in e)} for o, a in s.adventurers.items()}


def not_held(text: str) -> list[str]:
    lines = [ln for ln in text.splitlines() if ln.startswith(NOT_HELD)]
    assert len(lines) == 1, lines
    return lines[0][len(NOT_HELD):].rstrip(".").split(", ")


@pytest.mark.parametrize("province,day,keyword,name,change,ryan", CASES,
                         ids=[f"{c[0]}-day{c[1]}-{c[2]}" for c in CASES])
def test_a_keyword_held_changes_its_endgame_day_as_its_text_says(province, day, keyword, name, change, ryan):
    rule = next(r for r in CAMP.endgames[province].on_day(day).keywords if r.keyword == keyword)
    assert not rule.manual and not rule.text.startswith(name)
    held, text = at_day(province, day, keyword)
    bare, bare_text = at_day(province, day, None)
    # the party holding it reads the rule, and what it does to each adventurer, before the day's encounter
    assert f"🔑 Keyword {name}: {rule.text}" in text
    for words in ryan:
        assert f"Keyword {name}: {words}" in text
        assert f"Keyword {name}: {words.replace('Ryan', 'Shannon', 1).split(' (')[0]}" in text
    assert text.index(f"🔑 Keyword {name}") < text.index(f"(Endgame, day {day}):")  # before the encounter
    if NOT_HELD in text:  # the day's other keywords, which the party does not hold
        assert name not in not_held(text)
    # the party without it is told the keyword changes nothing today, and nothing changes
    assert name in not_held(bare_text)
    assert f"Keyword {name}:" not in bare_text
    # the difference between the two parties is the rule's effect, for each adventurer
    after, before = measure(held), measure(bare)
    for owner in (RYAN, SHANNON):
        diff = {k: after[owner][k] - before[owner][k] for k in after[owner]}
        assert diff == {k: change.get(k, 0) for k in diff}, (owner, diff)


SIDE_QUEST_KEYWORDS = {
    "saltmire": {"warden-friend", "beacon-keeper", "bounty-hunters", "card-sharp-exposed", "pilgrims-blessing",
                 "stone-speakers"},
    "ironpine": {"warden-friend", "conjurer-caught", "wager-won", "barrow-sealed", "bones-reburied", "stone-speakers",
                 "beacon-keeper"}}


@pytest.mark.parametrize("province", ["saltmire", "ironpine"])
def test_every_major_keyword_is_read_by_each_endgame_and_side_quest_keywords_too(province):
    read = {r.keyword for d in CAMP.endgames[province].encounters for r in d.keywords}
    majors = {k for k, v in CAMP.keywords.items() if v.kind == "major"}
    assert len(majors) == 8 and majors <= read
    from_side_quests = {e["keyword"] for q in CAMP.side_quests.values() for part in [q, *q.choices]
                        for e in _effects(part) if e.get("type") == "keyword"}
    assert read & from_side_quests == SIDE_QUEST_KEYWORDS[province]
    # every day reads a major keyword
    assert all(any(CAMP.keywords[r.keyword].kind == "major" for r in d.keywords)
               for d in CAMP.endgames[province].encounters)
    # the words after "Keyword <name>:" never repeat the name
    for d in CAMP.endgames[province].encounters:
        for r in d.keywords:
            assert not r.text.startswith(CAMP.keywords[r.keyword].name), (d.day, r.keyword)


def _effects(part) -> list[dict]:
    effects = list(getattr(part, "effects", None) or [])
    check = getattr(part, "check", None)
    return effects + list(getattr(check, "effects", None) or [])
