"""The Ironpine Highlands' guild quests of the Mages Guild (The Singing Ice) and the Fighters Guild (The Grey
Mother), played from the guild draw through every step to their epilogues with forced draws and dice.

* The Singing Ice: Stonemere; step A at Tarnwick; step B's Singing Lights placed on Glasswater Tarn and drawn
  toward the party each End of Day, its clash (a lost one is tried again) or its gated social check (the keyword
  Tarn-Tuned); the linked step C, whose choice decides step D (Hightor Keep or Frostgate, each pushing the
  Snowline to Snow in the Passes at each New Day); step E's final battle with Corvane on the Cairn of the Nine,
  its keyword-gated second choice; the epilogue, its major keyword, the next quests and its lore in session 2.
* The Grey Mother: Cinderhollow; step A at Frostgate and its bonus social check; step B's Grey Pack placed in the
  snowfields and hunting toward Cinderhollow each End of Day, its clash won (the linked step C13) or lost (the
  alternative step C14 at Cinderhollow); step D's final battle in the Old Cinder Shaft; the epilogue.
* The final battle of each lost: the session and the campaign are lost.
* No step's words are posted before the step is reached (tests/test_session_script.py, check_no_spoilers).

The battles are won as examples/session.txt wins them: the leader's `battle.adjust` takes every enemy's HP (the
battle is played at the table), then the adventurers end their turns.  Until the province's own cards are in the
pack the Ironpine decks hold general cards only, so the party travels between towns and plain hexes; each End of
Day's Snowline card is stacked (Hermit's Garden, no icon: the Snowline holds; or Wayside Camp, a sun: Snow on
the Peaks).
"""
from __future__ import annotations

import re

import pytest

from day_helpers import RYAN, SHANNON, examples_party, refused, run, said
from rulesets.tes.battle.pool import session_pool
from rulesets.tes.content import load_pack
from test_session_script import check_no_spoilers

PACK = load_pack("starter")
CAMP = PACK.campaign
PROV = PACK.provinces["ironpine"]
ICE, GREY = CAMP.quests["ip-singing-ice"], CAMP.quests["ip-grey-mother"]
# the general cards taken into the decks at set-up; the peaceful deck holds the End of Day's Snowline cards
DECKS = ["ge-p01", "ge-p02", "ge-p03", "ge-p05", "ge-c01", "ge-c02", "ge-c03", "ge-c04"]
CALM, SUN = "ge-p05", "ge-p01"  # no icon: the Snowline holds; a sun: Snow on the Peaks
PARTY = (RYAN, SHANNON)


class Play:
    """A session at the rules' table: the state and every word posted."""

    def __init__(self, guild: str):
        self.s = examples_party()
        self.words: list[str] = []
        self.last = ""
        self.act("day.start", RYAN, {"province": "ironpine", "stack": list(DECKS)}, guild=guild)

    def act(self, type_, actor, args=None, forced=None, **kw) -> str:
        self.s, ev = run(self.s, type_, actor, args, forced=forced, **kw)
        self.last = said(ev)
        self.words.append(self.last)
        return self.last

    @property
    def text(self) -> str:
        return "\n".join(self.words)

    @property
    def ask(self):
        return self.s.days.ask

    @property
    def step(self) -> str | None:
        return self.s.quests.step if self.s.quests else None

    def adv(self, who):
        return self.s.adventurers[who]

    def token(self, tid):
        return next(((t.q, t.r) for t in self.s.days.tokens if t.id == tid), None)

    def end_day(self, card: str = CALM, forced=None) -> str:
        """Everyone done in town or in the Reward Phase (the End of Day's Snowline card stacked, ``forced`` the
        dice of the End of Day), then everyone rests: the next day's route is asked."""
        self.act("day.stack", RYAN, {"cards": [card]})
        assert self.ask.kind in ("town", "reward"), self.ask
        out = []
        while self.ask is not None and self.ask.kind in ("town", "reward"):
            kind = self.ask.kind
            for i, who in enumerate(PARTY):
                last = kind == "reward" and i == len(PARTY) - 1
                out.append(self.act(f"{kind}.done", who, forced=forced if last else None))
        for who in PARTY:
            if self.ask is not None and self.ask.kind == "rest":
                out.append(self.act("day.rest", who))
        return "\n".join(out)

    def travel(self, to, forced=None) -> str:
        assert self.ask.kind == "route", self.ask
        out = self.act("day.route", RYAN, {"to": to}, forced=forced)
        if self.ask is not None and self.ask.kind == "vote":
            out += "\n" + self.act("day.vote", SHANNON, {}, forced=forced)
        return out

    def choose(self, n: int) -> str:
        return self.act("day.choose", RYAN, {"choice": n})

    def win(self) -> str:
        """The leader's adjustments take every enemy's HP; the adventurers end their turns: a victory."""
        assert self.s.battle is not None
        out = []
        for _ in range(4):  # an enemy that pulls itself together (Reassemble) falls again
            standing = [u for u in self.s.battle.units.values()
                        if u.side == "enemy" and not u.defeated and u.q is not None]
            if not standing:
                break
            for u in standing:
                out.append(self.act("battle.adjust", RYAN, {"unit": [u.q, u.r], "hp": -30,
                                                            "reason": "it falls (played at the table)"}))
        for _ in range(8):
            if self.s.battle is None:
                break
            out.append(self.act("battle.endturn", self.s.battle.turn.owner))
        assert self.s.battle is None and self.s.last_battle.outcome == "victory"
        return "\n".join(out)

    def lose(self) -> str:
        """The leader's adjustments take every adventurer's HP (the battle went badly at the table); the guild
        assist is not called: the battle is lost."""
        out = [self.act("battle.adjust", RYAN, {"unit": who.capitalize(), "hp": -30,
                                                "reason": "the party falls (played at the table)"}) for who in PARTY]
        for _ in range(8):
            if self.s.battle is None:
                break
            if self.s.quests is not None and self.s.quests.assist == "asked":
                assert "💀 The whole party is down" in self.last
                out.append(self.act("quest.assist", RYAN, {"use": False}))
            else:
                out.append(self.act("battle.endturn", self.s.battle.turn.owner))
        assert self.s.battle is None and self.s.last_battle.outcome != "victory"
        return "\n".join(out)

    def xp(self):
        return self.s.xp_dial, self.adv(RYAN).saved_xp, self.adv(SHANNON).saved_xp


def light(adv) -> int:
    return sum(1 for e in adv.cooldown if e.get("fatigue") == "light")


def snapshot(p: Play) -> dict:
    """What each adventurer has, to compare before and after a choice."""
    return {w: {"tenacity": p.adv(w).tenacity, "light": light(p.adv(w)), "xp": p.adv(w).saved_xp,
                "hp": p.adv(w).hp, "items": len(p.adv(w).ready) + len(p.adv(w).pack)} for w in PARTY}


def changed(before: dict, after: dict, key: str) -> list[int]:
    return [after[w][key] - before[w][key] for w in PARTY]


def gained(p: Play, words: str, xp: int) -> None:
    """Today's Reward Phase: the party gains ``xp`` XP on the XP Dial (and each adventurer as much to spend)."""
    m = re.search(r"The party gains (\d+) XP: the XP Dial turns from (\d+) to (\d+), and each adventurer gains "
                  r"(\d+) XP to spend", words)
    assert m, words[-400:]
    n, a, b, each = map(int, m.groups())
    assert n == xp == b - a == each and p.s.xp_dial == b


def check_step(p: Play, step_id: str) -> None:
    """The step reached: its code, story and objective just posted, and the state names it."""
    quest = next(q for q in (ICE, GREY) if q.step(step_id) is not None)
    st = quest.step(step_id)
    assert p.step == step_id
    assert f"📖 Step {st.code} — {quest.name}: {st.story}" in p.last
    assert f"🎯 Objective: {st.objective}" in p.last


def check_epilogue(p: Play, quest, days: int) -> None:
    """The session won: the epilogue read, its major keyword in the journal, the Reward Phase's XP kept."""
    epi = quest.epilogue
    kw = CAMP.keywords[epi.keyword]
    assert f"📖 Epilogue ({epi.code}) — {quest.name}: {epi.story}" in p.last
    assert f"🔑 The party gains the major keyword **{kw.name}**; it is written in the campaign journal." in p.last
    j = p.s.journal
    entry = j.sessions[-1]
    assert (entry.province, entry.quest, entry.result, entry.major, entry.days) == (
        "ironpine", quest.id, "won", epi.keyword, days)
    assert epi.keyword in j.keywords() and kw.kind == "major"
    assert p.s.days.phase == "over" and p.s.quests is None


def check_next(p: Play, quest) -> None:
    """Session 1's epilogue offers the quests its `next` names; the leader's choice goes in the journal."""
    names = [f"{CAMP.quests[n.quest].name} ({PACK.provinces[n.province].name}, "
             f"{CAMP.guilds[CAMP.quests[n.quest].guild].name})" for n in quest.epilogue.next]
    assert "The epilogue names the guild quests for session 2: " + "; ".join(
        f"{i}. {t}" for i, t in enumerate(names, 1)) in p.last
    assert p.s.journal.options == [{"province": n.province, "quest": n.quest} for n in quest.epilogue.next]
    assert p.ask.kind == "next-quest" and p.ask.owners == [RYAN]
    first = quest.epilogue.next[0]
    p.act("quest.next", RYAN, {"pick": "1"})
    assert p.s.journal.next == {"province": first.province, "quest": first.quest}
    assert f"📕 The journal records session 2's quest: **{CAMP.quests[first.quest].name}**" in p.last


# ------------------------------------------------------------------------------------ The Singing Ice
# Each path: step A's choice, step B's way (the clash or the social check), step C's choice (1: the notebooks, to
# D04 at Hightor Keep; 2: the reading glass, to D05 at Frostgate), step D's choice, step E's choice.
ICE_PATHS = {
    "notebooks-rooms": dict(a=1, b="clash", c=1, d=1, e=1),
    "glass-furs": dict(a=2, b="song", c=2, d=1, e=2),
    "notebooks-escort": dict(a=1, b="song", c=1, d=2, e=1),
    "glass-push-on": dict(a=2, b="clash", c=2, d=2, e=1),
}


def start_ice() -> Play:
    p = Play("mages-guild")
    assert "🛡️ The party contracts with the **Mages Guild**" in p.text
    assert p.s.journal.guild == "mages-guild" and p.s.journal.sessions[0].quest == ICE.id
    assert "Starting location: Stonemere — the party token is placed there (2,5)." in p.text
    assert tuple(p.s.days.party) == PROV.hex_of_town("stonemere") == (2, 5)
    check_step(p, "ip-ice-a")
    assert ICE.steps[1].story not in p.text
    return p


def ice_to_b(p: Play, a: int) -> None:
    """Day 2: Tarnwick, step A and its choice; step B's lights placed on Glasswater Tarn and drawn toward the
    party at the End of Day."""
    p.end_day()
    words = p.travel("Tarnwick")
    assert "📜 The party triggers the quest encounter of step A01, **The Singing Ice**." in words
    assert p.ask.kind == "card" and p.ask.data["card"] == "ip-ice-a"
    before = snapshot(p)
    words = p.choose(a)
    after = snapshot(p)
    if a == 1:
        assert "Share the sawpit fire: Ryan gains 1 tenacity" in words and changed(before, after, "tenacity") == [1, 1]
    else:
        assert "Hire the woodcutter's sledge: tomorrow the party may move 1 extra hex." in words
        assert "Hire the woodcutter's sledge: Shannon gains 1 light fatigue." in words
        assert changed(before, after, "light") == [1, 1]
    assert "✅ Step A01 of **The Singing Ice** is completed." in words
    check_step(p, "ip-ice-b")
    assert "📍 Step B02: the Singing Lights is placed at 3,2." in words and p.token("lights") == (3, 2)
    assert "⏳ Ongoing, at each End of Day (Activate Province Effect): The lights are drawn to warm bodies" in words
    gained(p, words, 1)
    words = p.end_day()
    assert "⏳ Step B02 (ongoing): The lights are drawn to warm bodies" in words
    assert "The Singing Lights moves 1 hex: 3,2 → 2,2." in words and p.token("lights") == (2, 2)
    assert f"Today the party moves up to {4 if a == 2 else 3} hexes" in words


def ice_b(p: Play, b: str) -> None:
    """Day 3: the Singing Lights, by the clash or by the social check; the linked step C the same day."""
    words = p.travel([2, 2])
    assert "📜 The party triggers the quest encounter of step B02, **The Singing Ice**." in words
    if b == "clash":
        words = p.choose(1)
        assert re.search(r"⚔️ Battle \d+: \*\*The Singing Lights\*\*\.", words)
        words = p.win()
        assert "tarn-tuned" not in p.s.journal.keywords()
    else:
        p.adv(RYAN).tenacity, p.adv(SHANNON).tenacity = 2, 2
        words = p.choose(2)
        assert "🗣️ Social check: difficulty the party size + 2 = 4 (party of 2)." in words
        p.act("day.check", RYAN, {"tenacity": 2})
        words = p.act("day.check", SHANNON, {"tenacity": 2})
        assert "The social check succeeds: dice 0 + tenacity 4 = 4 against 4" in words
        assert p.s.journal.keywords() == ["tarn-tuned"]
        assert p.s.battle is None and p.s.last_battle is None  # peaceful: no battle
    assert "✅ Step B02 of **The Singing Ice** is completed." in words
    check_step(p, "ip-ice-c")
    assert "🔗 Step C03 is linked to the one before" in words
    assert p.token("lights") is None  # removed by step C's set-up
    assert p.ask.kind == "card" and p.ask.data["card"] == "ip-ice-c"


def ice_c(p: Play, c: int) -> None:
    """Step C's choice decides step D; its reward joins step B's in today's Reward Phase."""
    before = snapshot(p)
    words = p.choose(c)
    if c == 1:
        assert p.ask.kind == "chosen" and p.ask.data["what"] == "draw 1 common item"
        words = p.act("day.pick", RYAN, {"pick": "Shannon"})
        assert "Take her notebooks: Shannon draws " in words
        assert changed(before, snapshot(p), "items") == [0, 1]
        check_step(p, "ip-ice-d1")
    else:
        assert "Look through her reading glass: Ryan gains 1 bonus XP" in words
        assert "Look through her reading glass: Shannon gains 1 light fatigue." in words
        after = snapshot(p)
        # 1 bonus XP, then the 3 XP of today's Reward Phase (steps B and C) to spend
        assert changed(before, after, "xp") == [1 + 3, 1 + 3] and changed(before, after, "light") == [1, 1]
        check_step(p, "ip-ice-d2")
    assert "⏳ Ongoing, at each New Day: Corvane's working chills the heights" in words
    gained(p, words, 3)  # steps B and C together


def ice_d(p: Play, c: int, d: int) -> int:
    """Step D at Hightor Keep (two days, or one) or Frostgate; the Snowline pushed to Snow in the Passes at each
    New Day while it lasts.  Returns the day step E begins on."""
    words = p.end_day()
    code = "D04" if c == 1 else "D05"
    assert f"⏳ Step {code} (ongoing): Corvane's working chills the heights" in words
    assert f"Step {code} (ongoing): the Snowline gauge moves to Snow in the Passes." in words
    assert p.s.days.gauge == "passes" and "Today the party moves up to 2 hexes" in words
    if c == 1:
        words = p.travel("Hightor Keep")
    else:
        p.travel([4, 2])
        assert "Nothing happens at hex 4,2" in p.last
        words = p.end_day()
        assert f"Step {code} (ongoing): the Snowline gauge moves to Snow in the Passes." in words
        words = p.travel("Frostgate")
    assert f"📜 The party triggers the quest encounter of step {code}, **The Singing Ice**." in words
    p.adv(RYAN).hp = 1  # a bad fall on the ice on the way (so that healing shows)
    p.adv(RYAN).tenacity = p.adv(SHANNON).tenacity = 0  # (so that tenacity gained shows)
    before = snapshot(p)
    words = p.choose(d)
    after = snapshot(p)
    if (c, d) == (1, 1):
        assert "Search his old rooms: Ryan gains 1 tenacity" in words and changed(before, after, "tenacity") == [1, 1]
    elif (c, d) == (1, 2):
        assert "Ask the warden-captain for an escort: tomorrow the party may move 1 extra hex." in words
    elif (c, d) == (2, 1):
        assert "Trade for herders' furs: Ryan heals 2 HP" in words
        assert changed(before, after, "hp") == [2, 0] and changed(before, after, "tenacity") == [1, 1]
    else:
        assert "Leave before the lamps are lit: Ryan gains 1 light fatigue." in words
        assert changed(before, after, "light") == [1, 1]
        assert changed(before, after, "xp") == [1 + 1, 1 + 1]  # 1 bonus XP, and step D's 1 XP
    assert f"✅ Step {code} of **The Singing Ice** is completed." in words
    check_step(p, "ip-ice-e")
    assert "📍 Step E06: the Exiled Mage is placed at 4,0." in words and p.token("corvane") == (4, 0)
    words = p.end_day(SUN)
    assert "Corvane's working" not in words  # step D is behind the party: its ongoing effect is over
    assert "The Snowline gauge moves to Snow on the Peaks" in words and p.s.days.gauge == "peaks"
    assert f"Today the party moves up to {4 if (c, d) == (1, 2) else 3} hexes" in words
    return p.s.day_dial


def ice_e(p: Play, e: int, tuned: bool) -> None:
    """Step E: the Exiled Mage on the Cairn of the Nine, the final battle at End of Session EP."""
    words = p.travel("4,0")
    assert "📜 The party triggers the quest encounter of step E06, **The Singing Ice**." in words
    if not tuned:
        assert "not open: needs the keyword Tarn-Tuned" in words and "Only one way is open: **Stop the verse**" in words
    else:
        assert p.ask.kind == "card"
        words = p.choose(e)
    assert re.search(r"⚔️ Battle \d+: \*\*Corvane on the Cairn\*\*\.", words)
    assert "Breton Archmage (level 20) in hex A" in words  # Corvane, free of the pool
    assert p.s.battle.encounter == "ip-q-corvane"
    assert f"enemy pool {session_pool(p.s.session, 'adept', 2)} " in words  # End of Session EP (p.56), not the XP Dial
    before = snapshot(p)
    words = p.win()
    if e == 2:
        assert "Sing against him: Ryan gains 1 bonus XP" in words
        assert changed(before, snapshot(p), "xp") == [1 + 3, 1 + 3]  # and step E's 3 XP
    else:
        assert "bonus XP" not in words
    assert "🏁 The guild quest **The Singing Ice** is completed" in words


@pytest.mark.parametrize("path", list(ICE_PATHS))
def test_the_singing_ice_from_the_guild_draw_to_its_epilogue(path):
    way = ICE_PATHS[path]
    p = start_ice()
    ice_to_b(p, way["a"])
    ice_b(p, way["b"])
    ice_c(p, way["c"])
    ice_d(p, way["c"], way["d"])
    ice_e(p, way["e"], tuned=way["b"] == "song")
    days = p.s.day_dial
    p.act("reward.done", RYAN)
    p.act("reward.done", SHANNON)
    check_epilogue(p, ICE, days)
    assert days == (5 if way["c"] == 1 else 6)
    check_next(p, ICE)
    check_no_spoilers(p.text, [ICE])
    others = {"ip-ice-d2"} if way["c"] == 1 else {"ip-ice-d1"}  # the alternative step D never read
    for sid in others:
        assert ICE.step(sid).story not in p.text


# ------------------------------------------------------------------------------------ The Grey Mother
# Each path: step A's choice (1: Hedda, with her social check won or lost; 2: the tracks), step B's battle won (to
# the linked step C13) or lost (to the alternative step C14 at Cinderhollow), and step C's choice.
GREY_PATHS = {
    "hedda-won-collar": dict(a=1, check=True, b="win", c=1),
    "hedda-lost-pelts": dict(a=1, check=False, b="win", c=2),
    "tracks-retreat-swear": dict(a=2, check=False, b="lose", c=1),
    "hedda-retreat-healer": dict(a=1, check=False, b="lose", c=2),
}


def start_grey() -> Play:
    p = Play("fighters-guild")
    assert "🛡️ The party contracts with the **Fighters Guild**" in p.text
    assert "Starting location: Cinderhollow — the party token is placed there (5,3)." in p.text
    assert tuple(p.s.days.party) == PROV.hex_of_town("cinderhollow") == (5, 3)
    check_step(p, "ip-grey-a")
    return p


def grey_to_b(p: Play, a: int, check: bool) -> None:
    """Day 2: Frostgate, step A (Hedda's social check, or the tracks read by hand); the Grey Pack placed in the
    snowfields, then roaming by the compass die at the End of Day."""
    p.end_day()
    words = p.travel("Frostgate")
    assert "📜 The party triggers the quest encounter of step A11, **The Grey Mother**." in words
    before = snapshot(p)
    if a == 1:
        if check:
            p.adv(RYAN).tenacity, p.adv(SHANNON).tenacity = 2, 1
        words = p.choose(1)
        assert "🗣️ Social check: difficulty the party size + 1 = 3 (party of 2)." in words
        if check:
            p.act("day.check", RYAN, {"tenacity": 2})
            words = p.act("day.check", SHANNON, {"tenacity": 1})
            assert "The social check succeeds: dice 0 + tenacity 3 = 3 against 3" in words
            assert "Hire old Hedda: Ryan gains 1 tenacity (1/5)" in words
            assert [p.adv(w).tenacity for w in PARTY] == [1, 1]  # 3 spent on the check, then 1 each from Hedda
        else:
            assert "🗣️ The social check fails: dice 0 + tenacity 0 = 0 against 3." in words
            assert "gains 1 tenacity" not in words and changed(before, snapshot(p), "tenacity") == [0, 0]
        assert "Hire old Hedda: tomorrow the party may move 1 extra hex." in words
    else:
        words = p.choose(2)
        assert "Read the tracks yourselves: Ryan gains 1 light fatigue." in words
        assert "Read the tracks yourselves: Shannon gains 1 bonus XP" in words
        after = snapshot(p)
        assert changed(before, after, "light") == [1, 1]
        assert changed(before, after, "xp") == [1 + 1, 1 + 1]  # 1 bonus XP, and step A's 1 XP
    assert "✅ Step A11 of **The Grey Mother** is completed." in words
    check_step(p, "ip-grey-b")
    assert "📍 Step B12: the Grey Pack is placed at 4,1." in words and p.token("pack") == (4, 1)
    assert "⏳ Ongoing, at each End of Day (Activate Province Effect): The pack roams after the herds" in words
    words = p.end_day(forced=[2])  # the compass die: 2, south-east
    assert "⏳ Step B12 (ongoing): The pack roams after the herds" in words
    assert "The compass die rolls 2: SE." in words
    assert "The Grey Pack moves 1 hex: 4,1 → 4,2." in words and p.token("pack") == (4, 2)
    assert f"Today the party moves up to {4 if a == 1 else 3} hexes" in words


def grey_b(p: Play, b: str) -> None:
    """Day 3: the Grey Pack's clash; won, the linked step C13; lost, the quest goes on at step C14."""
    words = p.travel([4, 2])
    assert "📜 The party triggers the quest encounter of step B12, **The Grey Mother**." in words
    assert "The party chooses **Meet them in the snow**." in words  # its one choice
    assert re.search(r"⚔️ Battle \d+: \*\*The Grey Pack\*\*\.", words) and "Wolf (level 1)" in words
    assert p.s.battle.encounter == "ip-q-grey-pack"
    if b == "win":
        words = p.win()
        assert "✅ Step B12 of **The Grey Mother** is completed." in words
        check_step(p, "ip-grey-c1")
        assert "🔗 Step C13 is linked to the one before" in words
        assert p.ask.kind == "card" and p.ask.data["card"] == "ip-grey-c1"
    else:
        words = p.lose()
        assert "The encounter of step B12 is failed: the quest goes on at step C14." in words
        assert p.s.journal.result == "" and p.s.quests.result == ""  # the campaign goes on
        check_step(p, "ip-grey-c2")
        assert "The encounter was failed: no rewards." in words and p.s.xp_dial == 3
    assert p.token("pack") is None  # removed by step C's set-up


def grey_c(p: Play, b: str, c: int) -> None:
    p.adv(RYAN).tenacity = p.adv(SHANNON).tenacity = 0  # (so that tenacity gained shows)
    before = snapshot(p)
    if b == "win":
        words = p.choose(c)
        if c == 1:
            assert "Keep the brass collar as proof: Ryan gains 1 tenacity" in words
            assert changed(before, snapshot(p), "tenacity") == [1, 1]
        else:
            assert p.ask.kind == "chosen" and p.ask.data["what"] == "draw 1 common item"
            words = p.act("day.pick", RYAN, {"pick": "Ryan"})
            assert "Skin the pelts for the herders: Ryan draws " in words
            assert changed(before, snapshot(p), "items") == [1, 0]
        gained(p, words, 3)  # steps B and C together
        code = "C13"
    else:
        p.end_day()
        words = p.travel("Cinderhollow")
        assert "📜 The party triggers the quest encounter of step C14, **The Grey Mother**." in words
        assert "Town encounter" not in words  # the quest encounter replaces the town's
        p.adv(RYAN).hp, p.adv(SHANNON).hp = 1, 2  # still hurt from the lost battle
        p.adv(RYAN).tenacity = p.adv(SHANNON).tenacity = 0
        before = snapshot(p)
        words = p.choose(c)
        if c == 1:
            assert "Swear to finish the hunt: Shannon gains 1 tenacity" in words
            assert changed(before, snapshot(p), "tenacity") == [1, 1]
        else:
            assert "Let the miners' healer see to you: Ryan heals 2 HP" in words
            assert changed(before, snapshot(p), "hp") == [2, 2]
        gained(p, words, 1)
        code = "C14"
    assert f"✅ Step {code} of **The Grey Mother** is completed." in words
    check_step(p, "ip-grey-d")


def grey_d(p: Play) -> None:
    """Step D: the Old Cinder Shaft, the final battle at End of Session EP."""
    p.end_day()
    words = p.travel([6, 3])
    assert "to the conflict landmark The Old Cinder Shaft (6,3)" in words
    assert "📜 The party triggers the quest encounter of step D15, **The Grey Mother**." in words
    assert "⚔️ Battle" in words and "**The Grey Mother's Den**." in words
    assert "Dire Wolf (level 5) in hex A" in words  # the Grey Mother, free of the pool
    assert f"enemy pool {session_pool(p.s.session, 'adept', 2)} " in words
    words = p.win()
    assert "🏁 The guild quest **The Grey Mother** is completed" in words


@pytest.mark.parametrize("path", list(GREY_PATHS))
def test_the_grey_mother_from_the_guild_draw_to_its_epilogue(path):
    way = GREY_PATHS[path]
    p = start_grey()
    grey_to_b(p, way["a"], way["check"])
    grey_b(p, way["b"])
    grey_c(p, way["b"], way["c"])
    grey_d(p)
    days = p.s.day_dial
    p.act("reward.done", RYAN)
    p.act("reward.done", SHANNON)
    check_epilogue(p, GREY, days)
    assert days == (4 if way["b"] == "win" else 5)
    check_next(p, GREY)
    check_no_spoilers(p.text, [GREY])
    other = "ip-grey-c2" if way["b"] == "win" else "ip-grey-c1"  # the alternative step C never read
    assert GREY.step(other).story not in p.text


# ------------------------------------------------------------------- a check failed, a step tried again
def test_the_singing_lights_closed_choice_and_a_lost_clash_tried_again():
    """Step B: a failed social check closes its choice (the clash is left); the lost clash does not fail the
    quest: the step stays, the lights keep to the party, and the next day's encounter is tried again."""
    p = start_ice()
    ice_to_b(p, 1)
    p.travel([2, 2])
    p.adv(RYAN).tenacity, p.adv(SHANNON).tenacity = 1, 0
    words = p.choose(2)
    assert p.ask.kind == "check-tenacity" and p.ask.owners == [RYAN]  # Shannon has nothing to spend
    words = p.act("day.check", RYAN, {"tenacity": 1})
    assert "🗣️ The social check fails: dice 0 + tenacity 1 = 1 against 4." in words
    assert "Hum their tune back cannot be chosen after the failed check: the party chooses again." in words
    assert "The party chooses **Break their circle**." in words and p.s.battle is not None
    words = p.lose()
    assert "The encounter of step B02 is failed, but this step allows another try: it stays the party's step and " \
           "triggers again." in words
    assert p.step == "ip-ice-b" and p.s.quests.result == "" and p.s.journal.result == ""
    assert "The encounter was failed: no rewards." in words and p.s.xp_dial == 3
    assert "the party wakes in Tarnwick (0,4), the closest town" in words and tuple(p.s.days.party) == (0, 4)
    assert p.s.journal.keywords() == []
    words = p.end_day()
    assert "⏳ Step B02 (ongoing): The lights are drawn to warm bodies" in words
    assert "The Singing Lights moves 1 hex: 2,2 → 1,3." in words and p.token("lights") == (1, 3)  # after the party
    words = p.travel([1, 3])
    assert "📜 The party triggers the quest encounter of step B02, **The Singing Ice**." in words
    p.choose(1)
    words = p.win()
    assert "✅ Step B02 of **The Singing Ice** is completed." in words
    check_step(p, "ip-ice-c")
    check_no_spoilers(p.text, [ICE])


# ------------------------------------------------------------------------ the final battle lost
def _lost(p: Play, quest, code: str) -> None:
    words = p.lose()
    assert f"💀 Step {code} is failed, and with it the guild quest **{quest.name}**." in words
    assert "The session ends, and with it the campaign: it is lost" in words
    j = p.s.journal
    assert j.result == "lost" and j.sessions[0].result == "lost" and j.sessions[0].major == ""
    assert quest.epilogue.story not in p.text and quest.epilogue.keyword not in j.keywords()
    assert "This campaign is lost" in refused(p.s, "day.start", RYAN, {"province": "ironpine"})
    check_no_spoilers(p.text, [quest])


def test_the_singing_ice_final_battle_lost_loses_the_campaign():
    way = ICE_PATHS["notebooks-rooms"]
    p = start_ice()
    ice_to_b(p, way["a"])
    ice_b(p, way["b"])
    ice_c(p, way["c"])
    ice_d(p, way["c"], way["d"])
    p.travel("4,0")
    assert p.s.battle is not None and p.s.battle.encounter == "ip-q-corvane"
    _lost(p, ICE, "E06")


def test_the_grey_mother_final_battle_lost_loses_the_campaign():
    p = start_grey()
    grey_to_b(p, 2, False)
    grey_b(p, "win")
    grey_c(p, "win", 1)
    p.end_day()
    p.travel([6, 3])
    assert p.s.battle is not None and p.s.battle.encounter == "ip-q-grey-mother"
    _lost(p, GREY, "D15")


# ------------------------------------------------------------------ session 2: the lore into the endgame
PLAY = {
    ICE.id: lambda p: (ice_to_b(p, 1), ice_b(p, "clash"), ice_c(p, 1), ice_d(p, 1, 1), ice_e(p, 1, False)),
    GREY.id: lambda p: (grey_to_b(p, 2, False), grey_b(p, "win"), grey_c(p, "win", 1), grey_d(p)),
}


@pytest.mark.parametrize("first,second", [(GREY.id, ICE.id), (ICE.id, GREY.id)])
def test_session_two_ends_with_the_lore_that_leads_into_the_ironpine_endgame(first, second):
    """Session 1 plays one quest; session 2 the other (the journal's next quest), from its own starting town;
    its epilogue's lore leads into session 3, the endgame in the Ironpine Highlands."""
    quest, other = CAMP.quests[first], CAMP.quests[second]
    p = start_ice() if first == ICE.id else start_grey()
    PLAY[first](p)
    p.act("reward.done", RYAN)
    p.act("reward.done", SHANNON)
    offered = [o["quest"] for o in p.s.journal.options]
    assert second in offered  # the epilogue offers the other Ironpine quest
    p.act("quest.next", RYAN, {"pick": str(offered.index(second) + 1)})
    words = p.act("day.start", RYAN, {"stack": list(DECKS)}, guild=None)
    assert "📕 Session 2 of the campaign." in words
    assert f"The party takes up the {CAMP.guilds[other.guild].name}'s card for this quest." in words
    start = PROV.towns[other.start]
    assert f"Starting location: {start.name} — the party token is placed there" in words
    check_step(p, other.steps[0].id)
    PLAY[second](p)
    p.act("reward.done", RYAN)
    words = p.act("reward.done", SHANNON)
    check_epilogue(p, other, p.s.journal.sessions[-1].days)
    assert f"📖 {other.epilogue.lore}" in words
    assert "Session 3 is the endgame, in The Ironpine Highlands." in words
    assert "The epilogue names the guild quests for session 2" not in words and p.ask is None
    j = p.s.journal
    assert [s.quest for s in j.sessions] == [first, second] and j.next is None and j.options == []
    assert j.keywords() == [quest.epilogue.keyword, other.epilogue.keyword]
    assert quest.epilogue.lore not in p.text  # the first session's lore is never read
