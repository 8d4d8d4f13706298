"""The Ironpine Highlands' guild quests of the Thieves Guild (The Tithe Sledge) and the Undaunted (The Deepfrost
Dare), played from the guild draw with the rulebook's Ryan and Shannon: every step to its epilogue, every choice
and ongoing effect by its text, the failed steps (one loses the campaign, one goes on at another step), the
social checks, the alternative steps, the keywords in the journal, and session 2's epilogue leading into the
Ironpine's endgame.  Draws and dice are forced; the battles are won with the leader's adjustments, as
examples/session.txt wins them (the battles themselves are played at the table), and lost by a retreat.

The party's routes end in towns and plain hexes (or on the quest's own tokens, whose encounter comes first), so
no landmark card is drawn; each End of Day draws Wayside Camp (clear sky), so the snowline stays on the peaks and
the party walks 3 hexes a day without fatigue.
"""
from __future__ import annotations

import pytest

from day_helpers import DECK_STACK, RYAN, SHANNON, examples_party, guild_stack, run, said
from rulesets.tes.content import load_pack
from test_session_script import check_no_spoilers

PACK = load_pack("starter")
CAMP = PACK.campaign
PROV = PACK.provinces["ironpine"]
TITHE = CAMP.quests["ip-tithe-sledge"]
DARE = CAMP.quests["ip-deepfrost-dare"]
CLEAR_SKY = "ge-p01"  # Wayside Camp: its sun keeps the snowline on the peaks (base movement 3)


class Table:
    """A campaign at the table: the state, and every word posted."""

    def __init__(self, state):
        self.s = state
        self.words: list[str] = []

    def do(self, type_, actor, args=None, **kw) -> str:
        self.s, ev = run(self.s, type_, actor, args, **kw)
        text = said(ev)
        self.words.append(text)
        return text

    @property
    def transcript(self) -> str:
        return "\n".join(self.words)

    @property
    def step(self) -> str | None:
        return self.s.quests.step

    def token(self, token_id: str):
        return next((t for t in self.s.days.tokens if t.id == token_id), None)

    def at(self, token_id: str) -> tuple[int, int] | None:
        tok = self.token(token_id)
        return None if tok is None else (tok.q, tok.r)

    def adv(self, who: str):
        return self.s.adventurers[who]

    def light(self, who: str) -> int:
        return self.adv(who).cooldown.count({"fatigue": "light"})

    def items(self, who: str) -> list[str]:
        return list(self.adv(who).ready) + list(self.adv(who).pack)


def step_of(quest, code: str):
    return next(st for st in quest.steps if st.code == code)


def begin(guild: str) -> tuple[Table, str]:
    """Session 1 in the Ironpine: the guild draw with ``guild`` on top, taken; day 1 spent in the starting town."""
    other = "undaunted" if guild == "thieves-guild" else "thieves-guild"
    guilds = [guild, other] + [g for g in guild_stack() if g not in (guild, other)]  # both drawn, ``guild`` first
    t = Table(examples_party())
    text = t.do("day.start", RYAN, {"province": "ironpine", "stack": guilds + DECK_STACK}, guild=None)
    assert t.s.days.ask.kind == "guild" and t.s.quests.offer[:2] == [guild, other]
    text += "\n" + t.do("quest.guild", RYAN, {"pick": "1"})
    t.do("day.stack", RYAN, {"cards": [CLEAR_SKY]})
    for who in (RYAN, SHANNON):
        t.do("town.done", who)
    for who in (RYAN, SHANNON):
        t.do("day.rest", who)
    assert t.s.days.ask.kind == "route" and t.s.days.gauge == "peaks"
    return t, text


def travel(t: Table, to) -> str:
    """The leader proposes the route, Shannon agrees: the party moves and its encounter begins."""
    text = t.do("day.route", RYAN, {"to": to})
    text += "\n" + t.do("day.vote", SHANNON, {})
    assert "Fatigue movement" not in text  # every route is walked within the day's base movement
    return text


def choose(t: Table, n: int) -> str:
    """The leader takes choice ``n`` of the step waiting for the party."""
    assert t.s.days.ask is not None and t.s.days.ask.kind == "card", t.s.days.ask
    return t.do("day.choose", RYAN, {"choice": n})


def taken(text: str, title: str) -> str:
    """A step whose one open choice is taken at once (no question is asked): its words."""
    assert f"Only one way is open: **{title}**." in text
    return text


def end_day(t: Table) -> str:
    """The Reward Phase (everyone done), the End of Day (Wayside Camp: clear sky), the Adventurers Rest."""
    t.do("day.stack", RYAN, {"cards": [CLEAR_SKY]})
    out = []
    while t.s.days is not None and t.s.days.ask is not None and t.s.days.ask.kind == "reward":
        out.append(t.do("reward.done", t.s.days.ask.owners[0]))
    while t.s.days is not None and t.s.days.ask is not None and t.s.days.ask.kind == "rest":
        out.append(t.do("day.rest", t.s.days.ask.owners[0]))
    return "\n".join(out)


def win(t: Table) -> str:
    """Every enemy falls to the leader's adjustments (the battle is played at the table); the turns end."""
    out = []
    for _ in range(4):
        if t.s.battle is None:
            break
        for u in list(t.s.battle.units.values()):
            if u.side == "enemy" and not u.defeated and u.q is not None:
                out.append(t.do("battle.adjust", RYAN, {"unit": f"{u.q},{u.r}", "hp": -30,
                                                        "reason": "it falls (played at the table)"}))
        for _ in range(4):
            if t.s.battle is None:
                break
            out.append(t.do("battle.endturn", t.s.battle.turn.owner, forced=[1] * 40))
    assert t.s.battle is None and t.s.last_battle.outcome == "victory"
    return "\n".join(out)


def lose(t: Table) -> str:
    """The party retreats in round 1 (the enemies roll blanks): the battle is lost."""
    out = [t.do("battle.retreat", t.s.battle.turn.owner)]
    while t.s.battle is not None:
        out.append(t.do("battle.endturn", t.s.battle.turn.owner, forced=[1] * 40))
    assert t.s.last_battle.outcome == "retreat"
    return "\n".join(out)


def today(t: Table) -> str:
    """Everything posted since today's New Day Phase."""
    return t.transcript.rsplit("— New Day Phase", 1)[-1]


def revealed(text: str, quest, code: str) -> None:
    """The step is read now: its code, story and objective."""
    st = step_of(quest, code)
    assert f"📖 Step {code} — {quest.name}: {st.story}" in text
    assert f"🎯 Objective: {st.objective}" in text


# ------------------------------------------------------------------------------------------ the guild draw --
def test_the_guild_draw_offers_both_quests_and_step_a_only():
    t, text = begin("thieves-guild")
    for q, town in ((TITHE, "Stonemere"), (DARE, "Tarnwick")):
        assert f"Quest: **{q.name}**, complexity 2: {q.snapshot} Starting location: {town}." in text
    assert "The party contracts with the **Thieves Guild**" in text
    assert t.s.journal.guild == "thieves-guild" and t.s.journal.sessions[0].quest == "ip-tithe-sledge"
    assert tuple(t.s.days.party) == tuple(PROV.hex_of_town("stonemere"))
    assert t.step == "ip-tithe-a"
    revealed(text, TITHE, "A51")
    for q in (TITHE, DARE):
        for st in q.steps[1:]:
            assert st.story not in t.transcript and st.objective not in t.transcript
    t2, text2 = begin("undaunted")
    assert "The party contracts with the **Undaunted**" in text2 and t2.step == "ip-dare-a"
    assert tuple(t2.s.days.party) == tuple(PROV.hex_of_town("tarnwick"))
    revealed(text2, DARE, "A61")


# ------------------------------------------------------------------------------- The Tithe Sledge (Thieves) --
def tithe_to_b(a: int) -> Table:
    """Day 2: Cinderhollow, step A51 with choice ``a``; the Tithe Sledge is placed and moves at the End of Day."""
    t, _ = begin("thieves-guild")
    text = travel(t, "Cinderhollow")
    assert "📜 The party triggers the quest encounter of step A51, **The Tithe Sledge**." in text
    assert "Town encounter: Cinderhollow" not in text  # the quest encounter replaces the town's
    light, xp = t.light(RYAN), t.adv(RYAN).saved_xp
    text = choose(t, a)
    if a == 1:  # Work a shift with the loaders: 1 light fatigue and 1 bonus XP each
        for name in ("Ryan", "Shannon"):
            assert f"{name} gains 1 light fatigue" in text and f"{name} gains 1 bonus XP" in text
        # 1 bonus XP, and the step's 1 XP in the Reward Phase that follows at once
        assert t.light(RYAN) == light + 1 and t.adv(RYAN).saved_xp == xp + 2
        assert t.light(SHANNON) == 1
        assert "tally-read" not in t.s.journal.keywords()
    else:  # Read the tally-clerk's ledger: the keyword Tally-Read in the journal
        assert ("Read the tally-clerk's ledger: the party gains the keyword **Tally-Read**; it is written in the "
                "campaign journal.") in text
        assert t.s.journal.keywords() == ["tally-read"] and t.light(RYAN) == light
    assert "✅ Step A51 of **The Tithe Sledge** is completed." in text
    revealed(text, TITHE, "B52")
    assert "📍 Step B52: the Tithe Sledge is placed at 4,2." in text
    assert t.step == "ip-tithe-b" and t.at("sledge") == (4, 2)
    assert "⏳ Ongoing, at each End of Day (Activate Province Effect): The oxen plod on" in text
    assert "The party gains 1 XP: the XP Dial turns from 2 to 3" in today(t)
    text = end_day(t)
    # the ongoing effect: the sledge moves 1 hex toward Hightor Keep
    assert "⏳ Step B52 (ongoing): The oxen plod on" in text and "The Tithe Sledge moves 1 hex: 4,2 → 4,1." in text
    assert t.at("sledge") == (4, 1)
    return t


def tithe_b(t: Table, way: str, c: int) -> None:
    """Day 3: the party reaches the sledge: step B52 fought (C53 follows, choice ``c``) or talked (C54)."""
    dial = t.s.xp_dial
    text = travel(t, list(t.at("sledge")))
    assert "📜 The party triggers the quest encounter of step B52, **The Tithe Sledge**." in text
    if way == "fight":
        text = choose(t, 1)
        assert "⚔️ Battle " in text and "**The Rimecoats' Ambush**" in text
        text = win(t)
        assert "✅ Step B52 of **The Tithe Sledge** is completed." in text
        revealed(text, TITHE, "C53")
        assert "🔗 Step C53 is linked to the one before" in text and t.step == "ip-tithe-c"
        tenacity = (t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity)
        items = t.items(SHANNON)
        text = choose(t, c)
        if c == 1:  # Let him run into the snow: 1 tenacity each
            assert "Ryan gains 1 tenacity" in text and "Shannon gains 1 tenacity" in text
            assert (t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity) == (tenacity[0] + 1, tenacity[1] + 1)
        else:  # Empty his pockets first: the party chooses Shannon, who draws 1 common item
            assert t.s.days.ask.kind == "chosen"
            text = t.do("day.pick", RYAN, {"pick": "Shannon"})
            (new,) = [i for i in t.items(SHANNON) if i not in items]
            assert PACK.items[new].rarity == "common" and f"Shannon draws {PACK.items[new].name}" in text
        assert "✅ Step C53 of **The Tithe Sledge** is completed." in text
    else:
        t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity = 2, 2  # the party's tenacity from earlier in the campaign
        text = choose(t, 2)
        assert "difficulty the party size + 2 = 4 (party of 2)" in text
        t.do("day.check", RYAN, {"tenacity": 2})
        text = t.do("day.check", SHANNON, {"tenacity": 2})
        assert "The social check succeeds" in text and t.s.battle is None
        assert "✅ Step B52 of **The Tithe Sledge** is completed." in text
        # the choice's next: the alternative step C54, not C53
        revealed(text, TITHE, "C54")
        assert step_of(TITHE, "C53").story not in t.transcript
        taken(text, "See them safely to the tree line")  # 1 light fatigue and 1 tenacity each
        for name in ("Ryan", "Shannon"):
            assert f"{name} gains 1 light fatigue" in text and f"{name} gains 1 tenacity" in text
        assert (t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity) == (1, 1)
        assert "✅ Step C54 of **The Tithe Sledge** is completed." in text
    revealed(text, TITHE, "D55")
    assert "Step D55: the Tithe Sledge leaves the map." in text and t.token("sledge") is None
    assert t.step == "ip-tithe-d"
    assert f"The party gains 3 XP: the XP Dial turns from {dial} to {dial + 3}" in today(t)
    text = end_day(t)
    assert "(ongoing)" not in text  # D55 has no ongoing effect: the sledge no longer moves


def tithe_d(t: Table, d: int) -> None:
    """Day 4: Hightor Keep, step D55 (choice ``d``); Captain Vey flees toward Frostgate at the End of Day."""
    dial = t.s.xp_dial
    light, xp = t.light(SHANNON), t.adv(SHANNON).saved_xp
    text = travel(t, "Hightor Keep")
    assert "📜 The party triggers the quest encounter of step D55, **The Tithe Sledge**." in text
    assert "The Wardens' Question" not in text  # the quest encounter replaces the town encounter
    keyword = "tally-read" in t.s.journal.keywords()
    assert ("needs the keyword Tally-Read" in text) != keyword
    if keyword:
        text = choose(t, d)
    else:  # without Tally-Read the ledger choice is closed: the wall is the one way open
        assert d == 1
        taken(text, "Climb the wall by night")
    if d == 1:  # Climb the wall by night: 1 light fatigue each
        assert "Ryan gains 1 light fatigue" in text and t.light(SHANNON) == light + 1
    else:  # Copy the clerk's figures: 1 bonus XP each
        assert "Shannon gains 1 bonus XP" in text and t.adv(SHANNON).saved_xp == xp + 1 + 2  # and the step's 2 XP
    assert "✅ Step D55 of **The Tithe Sledge** is completed." in text
    revealed(text, TITHE, "E56")
    assert "📍 Step E56: the Warden-Captain is placed at 1,1." in text
    assert t.at("vey") == (1, 1) and t.step == "ip-tithe-e"
    assert f"The party gains {d} XP: the XP Dial turns from {dial} to {dial + d}" in today(t)
    text = end_day(t)
    assert "⏳ Step E56 (ongoing): The Warden-Captain runs for the pass" in text
    assert "The Warden-Captain moves 1 hex: 1,1 → 2,1." in text and t.at("vey") == (2, 1)


def tithe_e(t: Table, d: int) -> str:
    """Day 5: the party catches Captain Vey: the final battle at End of Session EP, then the epilogue."""
    text = travel(t, list(t.at("vey")))
    assert "📜 The party triggers the quest encounter of step E56, **The Tithe Sledge**." in text
    taken(text, "Bring the captain down")
    assert "**Captain Vey's Last Stand**" in text and "Imperial Enforcer" in text
    text = win(t)
    assert "🏁 The guild quest **The Tithe Sledge** is completed" in text
    text = end_day(t)
    assert f"📖 Epilogue (F57) — The Tithe Sledge: {TITHE.epilogue.story}" in text
    assert "🔑 The party gains the major keyword **Tithe-Keeper**" in text
    assert "The epilogue names the guild quests for session 2: 1. The Sunken Chime" in text
    j = t.s.journal
    one = j.sessions[0]
    assert (one.province, one.quest, one.result, one.major) == ("ironpine", "ip-tithe-sledge", "won", "tithe-keeper")
    assert one.xp == 2 + 1 + 2 + 1 + d + 3  # the XP Dial: its 2, then every step's XP
    assert j.keywords()[0] == "tithe-keeper"
    offered = [o["quest"] for o in j.options]  # session 2's quests: each in a province with an endgame
    assert offered == ["sm-sunken-chime", "ip-deepfrost-dare", "sm-salt-road"] and TITHE.id not in offered
    assert all(o["province"] in CAMP.endgames for o in j.options)
    return text


@pytest.mark.parametrize("a,way,c,d", [(1, "fight", 1, 1), (2, "fight", 2, 2), (1, "talk", 1, 1)],
                         ids=["shift-mercy-wall", "ledger-pockets-copy", "talk-back-road"])
def test_the_tithe_sledge_through_every_step_to_its_epilogue(a, way, c, d):
    t = tithe_to_b(a)
    tithe_b(t, way, c)
    tithe_d(t, d)
    tithe_e(t, d)
    check_no_spoilers(t.transcript, [TITHE, DARE])
    assert DARE.steps[0].story not in t.transcript
    # the next session's quest: one of the epilogue's, written in the journal
    text = t.do("quest.next", RYAN, {"pick": "2"})
    assert "The journal records session 2's quest: **The Deepfrost Dare** for the Undaunted, in The Ironpine" \
        in text
    assert t.s.journal.next == {"province": "ironpine", "quest": "ip-deepfrost-dare"}


def test_the_tithe_sledge_talk_failed_the_party_fights_instead():
    """A failed social check closes the back road: the only way left is the Rimecoats' battle, then C53."""
    t = tithe_to_b(1)
    travel(t, list(t.at("sledge")))
    t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity = 1, 1
    choose(t, 2)
    t.do("day.check", RYAN, {"tenacity": 1})
    text = t.do("day.check", SHANNON, {"tenacity": 1})
    assert "The social check fails: dice 0 + tenacity 2 = 2 against 4" in text
    assert "⚔️ Battle " in text and "**The Rimecoats' Ambush**" in text
    text = win(t)
    revealed(text, TITHE, "C53")
    assert step_of(TITHE, "C54").story not in t.transcript


def test_the_tithe_sledge_runs_on_toward_hightor_while_the_party_dawdles():
    """The ongoing effect each End of Day: 1 hex nearer Hightor Keep, until the sledge stands in it."""
    from engine.hexes import Hex, distance

    t = tithe_to_b(1)
    keep = Hex(*PROV.hex_of_town("hightor"))
    for town in ("Stonemere", "Tarnwick", "Stonemere"):
        before = Hex(*t.at("sledge"))
        travel(t, town)  # the party goes the other way: a town encounter, the sledge unreached
        for who in (RYAN, SHANNON):
            t.do("town.done", who)
        text = end_day(t)
        assert "The Tithe Sledge moves 1 hex" in text
        assert distance(Hex(*t.at("sledge")), keep) == distance(before, keep) - 1
    assert t.step == "ip-tithe-b"


def test_the_rimecoats_win_and_the_campaign_is_lost():
    """Step B52's fail rule: the battle lost, the quest, the session and the campaign are lost."""
    t = tithe_to_b(2)
    travel(t, list(t.at("sledge")))
    choose(t, 1)
    text = lose(t)
    assert "💀 Step B52 is failed, and with it the guild quest **The Tithe Sledge**." in text
    j = t.s.journal
    assert j.result == "lost" and j.sessions[0].result == "lost"
    assert step_of(TITHE, "C53").story not in t.transcript and TITHE.epilogue.story not in t.transcript
    check_no_spoilers(t.transcript, [TITHE])
    with pytest.raises(Exception) as refused:
        t.do("day.start", RYAN, {}, guild=None)
    assert "This campaign is lost" in str(refused.value)


# ----------------------------------------------------------------------------- The Deepfrost Dare (Undaunted) --
def dare_to_c(a: str, b: int) -> Table:
    """Day 2: Hallvard's hut (2,3), step A61 (choice ``a``), then the linked step B62 (way ``b``)."""
    t, _ = begin("undaunted")
    text = travel(t, [2, 3])
    assert "📜 The party triggers the quest encounter of step A61, **The Deepfrost Dare**." in text
    if a in ("cups-won", "cups-lost"):  # Match him cup for cup: the social check's bonus, 1 tenacity each
        t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity = 2, 1
        text = choose(t, 1)
        assert "difficulty the party size + 1 = 3 (party of 2)" in text
        spend = (2, 1) if a == "cups-won" else (0, 0)
        t.do("day.check", RYAN, {"tenacity": spend[0]})
        text = t.do("day.check", SHANNON, {"tenacity": spend[1]})
        if a == "cups-won":
            assert "The social check succeeds: dice 0 + tenacity 3 = 3 against 3" in text
            assert "Ryan gains 1 tenacity" in text and "Shannon gains 1 tenacity" in text
            assert (t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity) == (1, 1)
        else:  # the choice is resolved all the same, without the bonus
            assert "The social check fails" in text and "gains 1 tenacity" not in text
            assert (t.adv(RYAN).tenacity, t.adv(SHANNON).tenacity) == (2, 1)
    else:  # Chop a winter's worth of firewood: 1 light fatigue and 1 bonus XP each
        text = choose(t, 2)
        for name in ("Ryan", "Shannon"):
            assert f"{name} gains 1 light fatigue" in text and f"{name} gains 1 bonus XP" in text
        assert t.light(RYAN) == 1 and t.adv(SHANNON).saved_xp == 1
    assert "✅ Step A61 of **The Deepfrost Dare** is completed." in text
    revealed(text, DARE, "B62")
    assert "🔗 Step B62 is linked to the one before" in text and t.step == "ip-dare-b"
    light = t.light(SHANNON)
    text = choose(t, b)
    assert "✅ Step B62 of **The Deepfrost Dare** is completed." in text
    if b == 1:  # The Frozen Stair: 1 light fatigue each; step C63 next
        assert "Shannon gains 1 light fatigue" in text and t.light(SHANNON) == light + 1
        revealed(text, DARE, "C63")
        assert t.step == "ip-dare-c" and step_of(DARE, "C64").story not in t.transcript
    else:  # The miners' road: 1 extra hex tomorrow; step C64 next
        assert "tomorrow the party may move 1 extra" in text and t.light(SHANNON) == light
        revealed(text, DARE, "C64")
        assert t.step == "ip-dare-c2" and step_of(DARE, "C63").story not in t.transcript
    assert "The party gains 2 XP: the XP Dial turns from 2 to 4" in today(t)
    text = end_day(t)
    return t


def dare_c(t: Table, b: int) -> None:
    """Day 3: the Frozen Stair's foot (C63) or Cinderhollow (C64); the Cairn Wolves are placed and hunt."""
    if b == 1:
        tenacity = t.adv(RYAN).tenacity
        text = travel(t, [3, 4])
        assert "📜 The party triggers the quest encounter of step C63, **The Deepfrost Dare**." in text
        taken(text, "Cut steps into the ice")  # 1 tenacity each
        assert "Ryan gains 1 tenacity" in text and t.adv(RYAN).tenacity == tenacity + 1
    else:
        assert "moves up to 4 hexes" in t.transcript.split("Day 3")[-1]  # 3, and 1 extra from the miners' road
        items = t.items(RYAN)
        text = travel(t, "Cinderhollow")
        assert "📜 The party triggers the quest encounter of step C64, **The Deepfrost Dare**." in text
        taken(text, "Borrow their lamps")  # the party chooses Ryan, who draws 1 common item
        assert t.s.days.ask.kind == "chosen"
        text = t.do("day.pick", RYAN, {"pick": "Ryan"})
        (new,) = [i for i in t.items(RYAN) if i not in items]
        assert PACK.items[new].rarity == "common" and f"Ryan draws {PACK.items[new].name}" in text
    code = "C63" if b == 1 else "C64"
    assert f"✅ Step {code} of **The Deepfrost Dare** is completed." in text
    revealed(text, DARE, "D65")
    assert t.at("cairn-pack") == (4, 0) and t.step == "ip-dare-d"
    from engine.hexes import Hex, distance

    party = Hex(*t.s.days.party)
    before = distance(Hex(4, 0), party)
    assert "The party gains 2 XP: the XP Dial turns from 4 to 6" in today(t)
    text = end_day(t)
    assert "⏳ Step D65 (ongoing): The pack hunts you" in text and "The Cairn Pack moves 2 hexes" in text
    assert distance(Hex(*t.at("cairn-pack")), party) == before - 2


def dare_d(t: Table, won: bool) -> None:
    """Day 4: the party meets the Cairn Wolves: won, step E67 follows; lost, step D66 (Frostgate) first."""
    text = travel(t, list(t.at("cairn-pack")))
    assert "📜 The party triggers the quest encounter of step D65, **The Deepfrost Dare**." in text
    taken(text, "Stand and fight")
    assert "⚔️ Battle " in text and "**The Wolves of the Nine Cairns**" in text and "Dire Wolf" in text
    if won:
        text = win(t)
        assert "✅ Step D65 of **The Deepfrost Dare** is completed." in text
        revealed(text, DARE, "E67")
        assert "Step E67: the Cairn Pack leaves the map." in text and t.token("cairn-pack") is None
        assert step_of(DARE, "D66").story not in t.transcript
        assert "The party gains 2 XP: the XP Dial turns from 6 to 8" in today(t)
        end_day(t)
        return
    text = lose(t)
    assert "The encounter of step D65 is failed: the quest goes on at step D66." in text
    assert "💀" not in text and t.s.journal.result == ""
    revealed(text, DARE, "D66")
    assert t.token("cairn-pack") is None and t.step == "ip-dare-d2"
    end_day(t)
    assert t.s.xp_dial == 6  # the lost battle gives no XP
    tenacity = t.adv(SHANNON).tenacity
    text = travel(t, "Frostgate")
    assert "📜 The party triggers the quest encounter of step D66, **The Deepfrost Dare**." in text
    taken(text, "Listen to the herders' advice")  # 1 tenacity each
    assert "Shannon gains 1 tenacity" in text and t.adv(SHANNON).tenacity == tenacity + 1
    assert "✅ Step D66 of **The Deepfrost Dare** is completed." in text
    revealed(text, DARE, "E67")
    assert "The party gains 1 XP: the XP Dial turns from 6 to 7" in today(t)
    end_day(t)


def dare_e(t: Table) -> str:
    """The old workings at 6,2: the final battle at End of Session EP, won; the epilogue."""
    text = travel(t, [6, 2])
    assert "📜 The party triggers the quest encounter of step E67, **The Deepfrost Dare**." in text
    taken(text, "Go through the door")
    assert "**The Deepfrost Delving**" in text and "Cave Troll" in text
    text = win(t)
    assert "🏁 The guild quest **The Deepfrost Dare** is completed" in text
    return end_day(t)


@pytest.mark.parametrize("a,b,won", [("cups-won", 1, True), ("cups-lost", 2, True), ("firewood", 1, False)],
                         ids=["cups-won-stair", "cups-lost-road", "firewood-stair-wolves-win"])
def test_the_deepfrost_dare_through_every_step_to_its_epilogue(a, b, won):
    t = dare_to_c(a, b)
    dare_c(t, b)
    dare_d(t, won)
    text = dare_e(t)
    assert f"📖 Epilogue (F68) — The Deepfrost Dare: {DARE.epilogue.story}" in text
    assert "🔑 The party gains the major keyword **Deepfrost-Dared**" in text
    assert "The epilogue names the guild quests for session 2: 1. The Sunken Chime" in text
    one = t.s.journal.sessions[0]
    assert (one.quest, one.result, one.major) == ("ip-deepfrost-dare", "won", "deepfrost-dared")
    assert one.xp == (11 if won else 10)  # 2, then 1 + 1 + 2 + (2, or 0 and 1) + 3
    check_no_spoilers(t.transcript, [TITHE, DARE])


def test_the_deepfrost_delving_lost_loses_the_campaign():
    """Step E67's fail rule (the final battle): lost, the quest, the session and the campaign are lost."""
    t = dare_to_c("firewood", 1)
    dare_c(t, 1)
    dare_d(t, True)
    taken(travel(t, [6, 2]), "Go through the door")
    text = lose(t)
    assert "💀 Step E67 is failed, and with it the guild quest **The Deepfrost Dare**." in text
    assert t.s.journal.result == "lost" and DARE.epilogue.story not in t.transcript


# ------------------------------------------------------------------------------------ session 2: the lore --
def test_as_session_two_each_epilogue_leads_into_the_ironpine_endgame():
    """Session 1 is The Deepfrost Dare; session 2 The Tithe Sledge, whose epilogue reads its lore.

    An epilogue may offer only quests of provinces with an endgame: until the Ironpine Highlands has its own, the
    journal's options are written here as the epilogue's offer of The Tithe Sledge would write them."""
    t = dare_to_c("firewood", 1)
    dare_c(t, 1)
    dare_d(t, True)
    dare_e(t)
    j = t.s.journal
    if "ironpine" not in CAMP.endgames:
        j.options = [{"province": "ironpine", "quest": "ip-tithe-sledge"}]
    text = t.do("quest.next", RYAN, {"pick": "The Tithe Sledge"})
    assert "session 2's quest: **The Tithe Sledge** for the Thieves Guild, in The Ironpine Highlands" in text
    text = t.do("day.start", RYAN, {"stack": DECK_STACK}, guild=None)
    assert "📕 Session 2 of the campaign." in text and "The party takes up the Thieves Guild's card" in text
    revealed(text, TITHE, "A51")
    assert tuple(t.s.days.party) == tuple(PROV.hex_of_town("stonemere"))
    for who in (RYAN, SHANNON):
        t.do("town.done", who)
    end_day(t)  # the saved XP of session 1 may be spent in day 1's Reward Phase
    travel(t, "Cinderhollow")
    choose(t, 2)
    end_day(t)
    tithe_b(t, "fight", 1)
    tithe_d(t, 2)
    taken(travel(t, list(t.at("vey"))), "Bring the captain down")
    win(t)
    text = end_day(t)
    assert f"📖 Epilogue (F57) — The Tithe Sledge: {TITHE.epilogue.story}" in text
    assert f"📖 {TITHE.epilogue.lore}" in text
    assert "Session 3 is the endgame, in The Ironpine Highlands." in text
    assert "The epilogue names the guild quests" not in text
    assert t.s.journal.keywords()[:2] == ["deepfrost-dared", "tithe-keeper"]
    # The Deepfrost Dare's lore, read the same way when it is session 2's quest
    assert "Session 3 is the endgame, here in the Ironpine Highlands." in DARE.epilogue.lore
