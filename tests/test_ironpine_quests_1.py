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
Day's Snowline card is stacked (Travelling Minstrels, no icon: the snowline holds; or a sun: Snow on the Peaks).
"""
from __future__ import annotations

import pytest

from day_helpers import RYAN, SHANNON, examples_party, run, said
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
        """The party retreats: the battle is lost."""
        out = [self.act("battle.retreat", RYAN, {})]
        for _ in range(8):
            if self.s.battle is None:
                break
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
    assert "The party gains 1 XP: the XP Dial turns from 2 to 3" in words and p.s.xp_dial == 3
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
        assert "⚔️ Battle 1: **The Singing Lights**." in words
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
    assert "The party gains 3 XP: the XP Dial turns from 3 to 6" in words and p.s.xp_dial == 6


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
        assert changed(before, after, "light") == [1, 1] and changed(before, after, "xp") == [1 + 1, 1 + 1]  # and step D's 1 XP
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
    assert f"⚔️ Battle {1 if tuned else 2}: **Corvane on the Cairn**." in words and "Breton Archmage (level 20) in hex A" in words
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
