"""The Saltmire's Thieves Guild and Undaunted quests, played from the guild draw to the epilogue.

* The Drowned Ledger (Thieves Guild, from Hesk): step A08 at the Heron Pools branches on its choice (a gated
  social check): B09, the quiet way (the boat drifts by the compass die; an item for one adventurer), or B10, the
  loud way (the boat comes for the party; a clash that may be tried again); the linked step C11 the same day (burn
  the Eelwife's book, or keep it: a keyword); D12 in Brinehold, the final battle at End of Session EP (a choice
  open only with that keyword; the crew takes 1 tenacity each New Day); the epilogue E13.
* The Marsh King's Horn (Undaunted, from Ossmere): step A19 at the Weir Stones (Helka's Band moves toward Reedwick
  each End of Day), then at once B20's delve in the barrow, in the session's province (its delve deck and tiles
  stacked: two tiles explored, a skyshard on each): surveyed, it leads to C21 (back to Ossmere: a bonus social
  check; the horn's light fatigue each New Day); lost by a retreat or with the whole party down, to C22 (catch
  Helka's Band, which heads home to Ossmere: a gated wager or a bargain); D23's final battle on the drowned field;
  the epilogue E24.

Every choice and ongoing effect is played by its text (the branches are parametrized), with the quest's step,
tokens, XP, items, tenacity, fatigue and keywords checked, and the words posted.  A final battle lost loses the
campaign, for each quest.  examples/session-thieves.txt plays the first at the local table, and no step's words
appear before the step is revealed (tests/test_session_script.py's no-spoiler check).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.table import play

from day_helpers import DECK_STACK, RYAN, SHANNON, examples_party, run, said
from delve_helpers import on_top, open_hexes, tiles_first
from engine.service import CampaignService
from engine.store import Store
from rulesets.tes.content import ContentError, load_pack
from test_saltmire_cards import lose_by_retreat
from test_session_script import check_no_spoilers, transcript_with_pictures

PACK = load_pack("starter")
CAMP = PACK.campaign
PROV = PACK.provinces["saltmire"]
LEDGER = CAMP.quests["sm-drowned-ledger"]
HORN = CAMP.quests["sm-marsh-kings-horn"]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def step(quest, code: str):
    return next(s for s in quest.steps if s.code == code)


def light(s, who) -> int:
    """The adventurer's light fatigue dice (all in the cooldown track: these adventurers have room there)."""
    return sum(1 for e in s.adventurers[who].cooldown if e and e.get("fatigue") == "light")


class Table:
    """The campaign's state and everything said, one action at a time (forced draws and dice)."""

    def __init__(self):
        self.s = examples_party()
        self.log: list[str] = []

    def do(self, type_: str, actor: str, args=None, forced=None) -> str:
        self.s, ev = run(self.s, type_, actor, args, forced=forced, guild=None)
        words = said(ev)
        self.log.append(words)
        return words

    @property
    def text(self) -> str:
        return "\n".join(self.log)

    @property
    def run(self):
        return self.s.quests

    def tokens(self) -> dict:
        return {t.id: (t.q, t.r) for t in self.s.days.tokens}

    def start(self, guild: str, name: str) -> str:
        """Session 1: the guild draw (this guild first, then two others), and the party takes it."""
        others = [g for g in ("undaunted", "thieves-guild", "mages-guild") if g != guild][:2]
        words = self.do("day.start", RYAN, {"province": "saltmire", "stack": [guild] + others + DECK_STACK})
        assert self.s.quests.offer == [guild] + others
        return words + "\n" + self.do("quest.guild", RYAN, {"pick": name})

    def end_day(self, forced=None) -> str:
        """Everyone done (town, reward, rest) until the next day's route; the End of Day draws Clear Sky (SM 1, the
        tide stays low) and ``forced`` gives the dice of its ongoing effects."""
        self.do("day.stack", RYAN, {"cards": ["sm-p01"]})
        out = []
        for _ in range(10):
            ask = self.s.days.ask
            if ask is None or ask.kind == "route" or self.s.days.phase == "over":
                break
            kind = {"reward": "reward.done", "rest": "day.rest", "town": "town.done"}[ask.kind]
            out.append(self.do(kind, ask.owners[0], forced=forced))
        return "\n".join(out)

    def go(self, to) -> str:
        """The party moves (Shannon agrees) and its encounter begins."""
        words = self.do("day.route", RYAN, {"to": to})
        if self.s.days.ask is not None and self.s.days.ask.kind == "vote":
            words += "\n" + self.do("day.vote", SHANNON, {})
        return words

    def check(self, ryan: int, shannon: int) -> str:
        """Both commit their tenacity to the social check (nobody has Speech dice)."""
        words = ""
        for who, n in ((RYAN, ryan), (SHANNON, shannon)):
            if self.s.days.ask is not None and self.s.days.ask.kind == "check-tenacity" \
                    and who in self.s.days.ask.owners:
                words += self.do("day.check", who, {"tenacity": n}) + "\n"
        return words

    def win(self) -> str:
        """Every enemy falls (as the leader's `/battle adjust` does); in a delve every skyshard is gained (B20's
        own test explores them: ``survey_the_barrow``); the adventurers end their turns until the round ends in a
        victory.  The words said after the battle."""
        for u in self.s.battle.units.values():
            if u.side == "enemy":
                u.hp, u.defeated, u.fell_at = 0, True, [u.q, u.r]
                u.q = u.r = None
        if self.s.battle.delve is not None:
            self.s.battle.delve.gained = self.s.battle.delve.required
        out = []
        for _ in range(6):
            if self.s.battle is None:
                break
            out.append(self.do("battle.endturn", self.s.battle.turn.owner))
        assert self.s.battle is None and self.s.last_battle.outcome == "victory"
        return "\n".join(out)

    def lose(self) -> str:
        self.s, ev = lose_by_retreat(self.s)
        words = said(ev)
        self.log.append(words)
        return words

    def fall(self) -> str:
        """The leader's adjustments take every adventurer's HP (the battle went badly at the table) and the guild
        assist is not called: the whole party is defeated."""
        out = [self.do("battle.adjust", RYAN, {"unit": name, "hp": -30, "reason": "the honour guard"})
               for name in ("Ryan", "Shannon")]
        for _ in range(6):
            if self.s.battle is None:
                break
            if self.run.assist == "asked":
                out.append(self.do("quest.assist", RYAN, {"use": False}))
            else:
                out.append(self.do("battle.endturn", self.s.battle.turn.owner, forced=[1] * 40))
        assert self.s.battle is None and self.s.last_battle.outcome == "defeat"
        return "\n".join(out)


def revealed(text: str, st) -> bool:
    return f"📖 Step {st.code} — {st.title}: {st.story}" in text and f"🎯 Objective: {st.objective}" in text


def hidden(text: str, *steps) -> bool:
    return all(st.story not in text and st.objective not in text for st in steps)


# ------------------------------------------------------------------------------------- The Drowned Ledger --
def ledger_to_day_two(t: Table) -> None:
    words = t.start("thieves-guild", "Thieves Guild")
    assert "1. **Thieves Guild** — " in words and f"Quest: **{LEDGER.name}**, complexity 2: {LEDGER.snapshot} " \
        "Starting location: Hesk." in words
    assert "The party contracts with the **Thieves Guild**" in words
    assert t.s.journal.guild == "thieves-guild" and t.s.journal.sessions[0].quest == "sm-drowned-ledger"
    assert "Starting location: Hesk — the party token is placed there (6,3)" in words
    a = step(LEDGER, "A08")
    assert revealed(words, a) and "☼ Rewards: 1 XP." in words and t.run.step == "sm-ledger-a"
    assert hidden(t.text, *LEDGER.steps[1:])
    assert "🏰 Town encounter: Hesk." in words  # day 1 in the starting town
    t.end_day()
    assert t.s.day_dial == 2 and tuple(t.s.days.party) == (6, 3)


def play_ledger(way: str, book: str, final: str = "board") -> Table:
    """The Drowned Ledger to its epilogue: ``way`` quiet (A08's check succeeds: B09) or loud (it fails: B10);
    ``book`` burn or keep (C11); ``final`` board or call (D12's choices)."""
    t = Table()
    ledger_to_day_two(t)
    a, b09, b10, c, d = (step(LEDGER, x) for x in ("A08", "B09", "B10", "C11", "D12"))
    # ---- day 2: the Heron Pools, the lookout (A08)
    if way == "quiet":
        t.s.adventurers[RYAN].tenacity, t.s.adventurers[SHANNON].tenacity = 2, 1
    else:
        t.s.adventurers[RYAN].tenacity, t.s.adventurers[SHANNON].tenacity = 0, 0
    words = t.go([4, 3])
    assert "📜 The party triggers the quest encounter of step A08, **The Drowned Ledger**." in words
    assert all(ch.text in words for ch in a.choices)
    words = t.do("day.choose", RYAN, {"choice": 1})
    assert "🗣️ Social check: difficulty the party size + 1 = 3 (party of 2)." in words
    if way == "quiet":
        words += t.check(2, 1)
        assert "🗣️ The social check succeeds: dice 0 + tenacity 3 = 3 against 3." in words
        assert "the party gains the keyword **The Eelwife's Mooring**; it is written in the campaign journal" in words
        assert [m["keyword"] for m in t.s.journal.minor] == ["eelwife-mooring"]
        assert light(t.s, RYAN) == light(t.s, SHANNON) == 0
        nxt, other = b09, b10
    else:
        assert "🗣️ The social check fails: dice 0 + tenacity 0 = 0 against 3." in words
        assert "Loosen his tongue cannot be chosen after the failed check" in words
        assert "The party chooses **Follow him into the reeds**." in words  # the only way left
        assert "Follow him into the reeds: Ryan gains 1 light fatigue." in words
        assert light(t.s, RYAN) == light(t.s, SHANNON) == 1 and t.s.journal.minor == []
        nxt, other = b10, b09
    assert "✅ Step A08 of **The Drowned Ledger** is completed." in words
    assert revealed(words, nxt) and t.run.step == nxt.id and hidden(t.text, other, c, d)
    assert f"📍 Step {nxt.code}: the Eelwife's Boat is placed at 4,5." in words and t.tokens()["eel-boat"] == (4, 5)
    assert f"⏳ Ongoing, at each End of Day (Activate Province Effect): {nxt.ongoing[0].text}" in words
    assert "The party gains 1 XP: the XP Dial turns from 2 to 3" in words
    assert t.s.xp_dial == 3 and t.s.adventurers[RYAN].saved_xp == t.s.adventurers[SHANNON].saved_xp == 1
    words = t.end_day(forced=[5])
    assert f"⏳ Step {nxt.code} (ongoing): {nxt.ongoing[0].text}" in words
    if way == "quiet":  # the compass die rolls 5: west
        assert "The compass die rolls 5: W." in words and "The Eelwife's Boat moves 1 hex: 4,5 → 3,5." in words
        boat = (3, 5)
    else:  # toward the party at the Heron Pools
        assert "The Eelwife's Boat moves 1 hex: 4,5 → 4,4." in words
        boat = (4, 4)
    assert t.tokens()["eel-boat"] == boat
    # ---- day 3: the boat (B09 or B10), and C11 at once
    if way == "quiet":
        t.do("day.stack", RYAN, {"cards": ["spiced-mead"]})
    words = t.go(list(boat))
    assert f"📜 The party triggers the quest encounter of step {nxt.code}" in words
    if way == "quiet":  # its only choice is taken at once
        assert "The party chooses **Slip aboard while they sleep**." in words
        assert t.s.days.ask.kind == "chosen" and t.s.days.ask.data["what"] == "draw 1 common item"
        words += t.do("day.pick", RYAN, {"pick": "Shannon"})
        assert "spiced-mead" in (t.s.adventurers[SHANNON].ready + t.s.adventurers[SHANNON].pack)
        assert "spiced-mead" not in (t.s.adventurers[RYAN].ready + t.s.adventurers[RYAN].pack)
    else:  # its only choice, the clash, is taken at once
        assert "The party chooses **Board her boat**." in words
        assert t.s.battle is not None and t.s.battle.encounter == "sm-q-eelwife-crew"
        assert "salt-smuggler" in [u.enemy for u in t.s.battle.units.values() if u.side == "enemy"]
        words += t.win()
    text = words
    assert f"✅ Step {nxt.code} of **The Drowned Ledger** is completed." in text
    assert revealed(text, c) and "🔗 Step C11 is linked to the one before" in text and hidden(text, d)
    assert t.s.days.ask.kind == "card" and t.s.days.ask.data["card"] == "sm-ledger-c"
    before = {w: t.s.adventurers[w].tenacity for w in (RYAN, SHANNON)}
    words = t.do("day.choose", RYAN, {"choice": 1 if book == "burn" else 2})
    if book == "burn":
        assert "Burn the Eelwife's book: Ryan gains 1 tenacity" in words
        assert {w: t.s.adventurers[w].tenacity for w in (RYAN, SHANNON)} == {w: before[w] + 1 for w in before}
    else:
        assert "the party gains the keyword **The Buyers' List**" in words
        assert t.s.journal.minor[-1]["keyword"] == "buyers-list"
    assert "✅ Step C11 of **The Drowned Ledger** is completed." in words and revealed(words, d)
    assert "Set-up: Remove the Eelwife's Boat from the map." in words and "eel-boat" not in t.tokens()
    assert t.run.step == "sm-ledger-d"
    assert "The party gains 3 XP: the XP Dial turns from 3 to 6" in words  # B's 2 and C's 1, one Reward Phase
    assert t.s.adventurers[RYAN].saved_xp == 4
    # ---- day 4: Brinehold: the crew takes 1 tenacity at New Day, then the final battle
    words = t.end_day()
    assert f"⏳ Step D12 (ongoing): {d.ongoing[0].text}" in words
    for who, name in ((RYAN, "Ryan"), (SHANNON, "Shannon")):  # 1 XP over 3 became 1 tenacity at the reward
        kept = int(re.search(rf"{name} keeps 3 XP: 1 more becomes 1 tenacity \((\d)\)", words).group(1))
        assert f"Step D12 (ongoing): {name} loses 1 tenacity ({kept - 1} left)." in words
        assert t.s.adventurers[who].tenacity == kept - 1
    words = t.go([3, 6])
    assert "📜 The party triggers the quest encounter of step D12" in words
    if final == "call":
        assert book == "keep"
        words = t.do("day.choose", RYAN, {"choice": 2})
    elif book == "burn":  # the other choice is closed: the only one open is taken at once
        assert "not open: needs the keyword The Buyers' List" in words
        assert "The party chooses **Board the sloop**." in words
    else:
        words = t.do("day.choose", RYAN, {"choice": 1})
    assert t.s.battle is not None and t.s.battle.encounter == "sm-q-quill-sloop"
    assert "Smuggler Captain (level 5) in hex A (5,2), free of the pool" in words  # Captain Quill
    # the End of Session EP of session 1 (Adept, 2 adventurers), not the XP Dial's 6 x 2
    assert "Enemies (enemy pool 32 → " in words and t.s.xp_dial == 6
    return t


def finish_ledger(t: Table, final: str) -> str:
    text = t.win()
    if final == "call":
        assert "Ryan gains 1 bonus XP" in text and "Shannon gains 1 bonus XP" in text
    assert "✅ Step D12 of **The Drowned Ledger** is completed." in text
    assert "🏁 The guild quest **The Drowned Ledger** is completed" in text
    assert "The party gains 3 XP: the XP Dial turns from 6 to 9" in text
    words = t.end_day()
    epi = LEDGER.epilogue
    assert f"📖 Epilogue (E13) — The Drowned Ledger: {epi.story}" in words
    assert "🔑 The party gains the major keyword **Keeper of the Ledger**" in words
    j = t.s.journal
    assert j.sessions[0].result == "won" and j.sessions[0].major == "ledger-keeper"
    assert "ledger-keeper" in j.keywords()
    assert "The epilogue names the guild quests for session 2: 1. The Marsh King's Horn (The Saltmire, Undaunted); " \
        "2. The Sunken Chime (The Saltmire, Mages Guild); 3. The Salt Road (The Saltmire, Fighters Guild); " \
        "4. The Tithe Sledge (The Ironpine Highlands, Thieves Guild)." in words
    assert j.options == [{"province": "saltmire", "quest": q}
                         for q in ("sm-marsh-kings-horn", "sm-sunken-chime", "sm-salt-road")] + [
        {"province": "ironpine", "quest": "ip-tithe-sledge"}]
    t.do("quest.next", RYAN, {"pick": "3"})
    assert t.s.journal.next == {"province": "saltmire", "quest": "sm-salt-road"} and t.s.journal.options == []
    return words


@pytest.mark.parametrize("way,book,final", [("quiet", "burn", "board"), ("quiet", "keep", "call"),
                                            ("loud", "keep", "board"), ("loud", "burn", "board")])
def test_the_drowned_ledger_from_the_guild_draw_to_its_epilogue(way, book, final):
    t = play_ledger(way, book, final)
    finish_ledger(t, final)


def test_the_eelwifes_crew_beats_the_party_off_and_step_b10_triggers_again():
    t = Table()
    ledger_to_day_two(t)
    t.go([4, 3])
    t.do("day.choose", RYAN, {"choice": 2})  # follow him: the loud way
    t.end_day()
    t.go([4, 4])
    words = t.lose()
    assert "The encounter of step B10 is failed, but this step allows another try: it stays the party's step and " \
        "triggers again." in words
    assert "The encounter was failed: no rewards." in words and t.s.xp_dial == 3
    assert t.run.step == "sm-ledger-b-loud" and t.run.result == "" and t.s.journal.result == ""
    assert hidden(t.text, step(LEDGER, "C11"))
    words = t.end_day()  # the boat already shares the party's hex
    assert "The Eelwife's Boat has nowhere to move and stays at 4,4." in words and t.tokens()["eel-boat"] == (4, 4)
    words = t.go([4, 4])  # the party stays: the step triggers again
    assert "📜 The party triggers the quest encounter of step B10" in words
    assert t.s.battle is not None and t.s.battle.encounter == "sm-q-eelwife-crew"
    words = t.win()
    assert "✅ Step B10 of **The Drowned Ledger** is completed." in words and t.run.step == "sm-ledger-c"


def test_losing_captain_quills_sloop_loses_the_quest_and_the_campaign():
    t = play_ledger("loud", "burn")
    assert step(LEDGER, "D12").fail == "quest"
    words = t.lose()
    assert "💀 Step D12 is failed, and with it the guild quest **The Drowned Ledger**." in words
    assert "💀 The session ends, and with it the campaign: it is lost (a quest step failed)." in words
    j = t.s.journal
    assert j.result == "lost" and j.sessions[0].result == "lost" and j.sessions[0].major == ""
    assert "ledger-keeper" not in j.keywords() and LEDGER.epilogue.story not in t.text
    with pytest.raises(Exception, match="This campaign is lost"):
        t.do("day.start", RYAN, {})


# ---------------------------------------------------------------------------------- The Marsh King's Horn --
def horn_to_the_barrow(t: Table, opening: str) -> str:
    """Session 1 to day 2's step A19 at the Weir Stones: ``opening`` heave (choice 1) or offering (choice 2).
    Returns what was said from the choice on (step B20's battle has begun)."""
    words = t.start("undaunted", "Undaunted")
    assert "1. **Undaunted** — " in words and f"Quest: **{HORN.name}**, complexity 2: {HORN.snapshot} " \
        "Starting location: Ossmere." in words
    assert "The party contracts with the **Undaunted**" in words
    assert t.s.journal.guild == "undaunted" and t.s.journal.sessions[0].quest == "sm-marsh-kings-horn"
    assert "Starting location: Ossmere — the party token is placed there (0,5)" in words
    a = step(HORN, "A19")
    assert revealed(words, a) and t.run.step == "sm-horn-a" and hidden(t.text, *HORN.steps[1:])
    assert "Set-up: Place an NPC token, the Rival Band, at 1,4: Helka and her friends." in words
    assert "📍 Step A19: the Rival Band is placed at 1,4." in words and t.tokens()["helka"] == (1, 4)
    assert "🏰 Town encounter: Ossmere." in words
    words = t.end_day()
    assert f"⏳ Step A19 (ongoing): {a.ongoing[0].text}" in words
    assert "The Rival Band moves 1 hex: 1,4 → 2,3." in words and t.tokens()["helka"] == (2, 3)  # toward Reedwick
    # ---- day 2: the Weir Stones
    for w in (RYAN, SHANNON):
        t.s.adventurers[w].tenacity = 1
    words = t.go([3, 3])
    assert "📜 The party triggers the quest encounter of step A19, **The Marsh King's Horn**." in words
    assert all(ch.text in words for ch in a.choices)
    words = t.do("day.choose", RYAN, {"choice": 1 if opening == "heave" else 2})
    if opening == "heave":
        assert "Heave the capstone aside: Ryan gains 1 light fatigue." in words
        assert "Heave the capstone aside: Shannon gains 1 light fatigue." in words
        assert light(t.s, SHANNON) == 1  # (Ryan's Recovery discards his at his first turn in the battle)
    else:
        assert "Leave an offering at the stones: Ryan loses 1 tenacity (0 left)." in words
        assert "Leave an offering at the stones: Shannon loses 1 tenacity (0 left)." in words
        assert t.s.adventurers[SHANNON].tenacity == 0 and light(t.s, SHANNON) == 0
    b = step(HORN, "B20")
    assert "✅ Step A19 of **The Marsh King's Horn** is completed." in words and revealed(words, b)
    assert "go down into the barrow in a delve" in b.objective and "clash" not in b.objective
    assert "🔗 Step B20 is linked to the one before" in words and t.run.step == "sm-horn-b"
    # its one choice is a delve, and says so; the party takes it and goes below ground
    choice = b.choices[0]
    assert f"1. 🔦 **{choice.title}** (☼ 2 XP): {choice.text}" in words and "⚔️ **Go down" not in words
    assert "The party chooses **Go down into the barrow**." in words
    battle = t.s.battle
    assert battle is not None and battle.encounter == "sm-q-kings-barrow" and battle.mode == "delve"
    assert "⚔️ Battle 1: **The Marsh King's Barrow**." in words
    assert "🔦 A delve: only the entrance tile is on the map. The delve deck holds 27 cards (general and SM); " \
        "tiles wait in their stacks. Gain 2 skyshards to explore it fully." in words
    # the session's province: its delve cards join the general ones, and its chips the bags
    d = battle.delve
    assert d.province == t.s.days.code == "SM" and d.required == 2 and battle.objective == "survey"
    deck = set(d.deck) | set(d.discard)
    assert deck == {k for k, dc in PACK.delve_cards.items() if dc.province in (None, "SM") and not dc.special}
    assert not [u for u in battle.units.values() if u.side == "enemy"]  # no enemies before a tile is explored
    assert "Turn order: Ryan (1,0) → Shannon (1,1)." in words  # on the entrance's door hexes
    assert hidden(t.text, *HORN.steps[2:])
    return words


def onto(t: Table, tile: str, start) -> list[int]:
    """The free hex of ``tile`` nearest to ``start`` (the adventurer walks onto the tile)."""
    from engine.hexes import Hex
    from rulesets.tes.battle.model import Ctx

    c = Ctx(t.s, PACK, None)
    h = min((h for h in c.map.passable if c.map.tile_of[h] == tile and c.occupant(h) is None),
            key=lambda h: (c.range_to(Hex(*start), h), h.q, h.r))
    return [h.q, h.r]


def survey_the_barrow(t: Table) -> str:
    """B20's delve surveyed: the deck stacked with the Skyshard Grotto and the Saltmire's Skyshard Cairn, the tiles
    with the Eel Pool and the Collapsed Alcove.  Round 1: Ryan explores the entrance (the Eel Pool, an Argonian
    Bandit on it) and walks onto it (skyshard 1); Shannon explores the pool's far door from where she stands (the
    Alcove, a Hackwing on it); the enemies roll blanks.  Round 2: the leader's adjustment cuts the Hackwing down
    (played at the table) and Ryan walks onto the Alcove (skyshard 2); the round ends with the Bandit still
    standing, and the Survey is won.  What was said."""
    s = t.s
    on_top(s, "skyshard-grotto", "skyshard-cairn")
    tiles_first(s, 7, "pool-7c")
    tiles_first(s, 3, "alcove-3a")
    out = [t.do("battle.explore", RYAN, {}, forced=[1]), t.do("battle.place", RYAN, {"place": 1}, forced=[1])]
    out.append(t.do("battle.move", RYAN, {"to": onto(t, "pool-7c", (1, 0))}))
    words = "\n".join(out)
    assert "🔦 Ryan explores hex 1,0 and draws **Skyshard Grotto** (GE-02): a 7-hex tile." in words
    assert "🧱 Eel Pool (tile 1) connects to hex 1,0" in words
    assert "👹 Skyshard Grotto (enemy pool 4, scale 1): Argonian Bandit (level 1, up to 1)" in words  # XP Dial 2
    assert "💎 Ryan gains the skyshard of Skyshard Grotto: 1/2 skyshards." in words
    assert t.s.battle.delve.gained == 1
    out.append(t.do("battle.endturn", RYAN))
    door = open_hexes(t.s)[0]
    out.append(t.do("battle.explore", SHANNON, {"at": [door.q, door.r]}, forced=[1]))
    out.append(t.do("battle.place", SHANNON, {"place": 1}, forced=[1]))
    words = "\n".join(out[-2:])
    assert f"🔦 Shannon takes the explore action on hex {door} and draws **Skyshard Cairn** (SM-09): a 3-hex " \
        "tile." in words  # a card of the Saltmire's
    assert "Collapsed Alcove (tile 2) connects" in words and "Hackwing (level 1, up to 1)" in words
    assert "🗺️ Every skyshard of the delve has been drawn (2): no hex is explorable any more." in words
    out.append(t.do("battle.endturn", SHANNON, forced=[1] * 40))
    assert "🔔 Round 2 begins." in out[-1] and t.s.battle.turn.owner == RYAN
    hackwing = next(u for u in t.s.battle.units.values() if u.enemy == "hackwing")
    out.append(t.do("battle.adjust", RYAN, {"unit": hackwing.id, "hp": -30, "reason": "cut down at the table"}))
    ryan = t.s.battle.units["a:ryan"]
    out.append(t.do("battle.move", RYAN, {"to": onto(t, "alcove-3a", (ryan.q, ryan.r))}))
    assert "💎 Ryan gains the skyshard of Skyshard Cairn: 2/2 skyshards." in out[-1]
    out.append(t.do("battle.endturn", RYAN, forced=[1] * 40))
    assert t.s.battle is not None  # the Survey is won at the end of the round
    assert [u.name for u in t.s.battle.units.values() if u.side == "enemy" and not u.defeated] == ["Argonian Bandit"]
    out.append(t.do("battle.endturn", SHANNON, forced=[1] * 40))
    words = out[-1]
    assert "🏆 Victory! The party achieves the objective. The battle ends after round 2." in words
    assert "💎 Skyshards gained: 2/2." in words and "The delve is taken apart" in words
    assert t.s.battle is None and t.s.last_battle.outcome == "victory" and t.s.last_battle.mode == "delve"
    return "\n".join(out)


def play_horn(opening: str, barrow: str, way: str) -> Table:
    """The Marsh King's Horn to its final battle: ``barrow`` win (the delve surveyed: C21), retreat or down (the
    delve lost: C22); ``way`` C's choice: boast (succeeding), bluster (boasting, the check failing), horn, wager or
    bargain."""
    t = Table()
    horn_to_the_barrow(t, opening)
    c21, c22, d = (step(HORN, x) for x in ("C21", "C22", "D23"))
    if barrow == "win":
        words = survey_the_barrow(t)
        assert "The Marsh King's Horn, step B is resolved: ☼ 2 XP in the Reward Phase." in words
        assert "✅ Step B20 of **The Marsh King's Horn** is completed." in words and revealed(words, c21)
        assert "The party gains 3 XP: the XP Dial turns from 2 to 5" in words  # A's 1 and B's 2
        assert t.run.step == "sm-horn-c-won" and hidden(t.text, c22, d)
        words = t.end_day()
        assert "🌅 Day 3" in words and f"⏳ Step C21 (ongoing): {c21.ongoing[0].text}" in words
        assert "Step C21 (ongoing): Ryan gains 1 light fatigue." in words
        assert "Step C21 (ongoing): Shannon gains 1 light fatigue." in words
        assert light(t.s, RYAN) >= 1 and light(t.s, SHANNON) >= 1
        assert t.tokens()["helka"] == (2, 3)  # A19's ongoing effect is over
        # ---- day 3: Ossmere
        t.s.adventurers[RYAN].tenacity, t.s.adventurers[SHANNON].tenacity = (2, 2) if way == "boast" else (0, 0)
        words = t.go([0, 5])
        assert "📜 The party triggers the quest encounter of step C21" in words and "Town encounter" not in words
        xp = {w: t.s.adventurers[w].saved_xp for w in (RYAN, SHANNON)}
        if way in ("boast", "bluster"):
            words = t.do("day.choose", RYAN, {"choice": 1})
            assert "🗣️ Social check: difficulty the party size + 2 = 4 (party of 2)." in words
            if way == "boast":
                words += t.check(2, 2)
                assert "🗣️ The social check succeeds: dice 0 + tenacity 4 = 4 against 4." in words
                assert "Ryan gains 1 bonus XP" in words and "Shannon gains 1 bonus XP" in words
            else:
                assert "🗣️ The social check fails" in words and "bonus XP" not in words
            bonus = way == "boast"
            assert all(t.s.adventurers[w].saved_xp == xp[w] + 1 + bonus for w in xp)  # the step's 1 XP too
        else:
            tenacity = {w: t.s.adventurers[w].tenacity for w in (RYAN, SHANNON)}
            words = t.do("day.choose", RYAN, {"choice": 2})
            assert "Let the horn speak for you: Ryan gains 1 tenacity" in words
            assert "Let the horn speak for you: Shannon gains 1 tenacity" in words
            assert t.s.adventurers[SHANNON].tenacity >= tenacity[SHANNON] + 1
        done = "C21"
    else:
        if barrow == "retreat":
            words = t.lose()
            assert "💎 Skyshards gained: 0/2." in words and t.s.last_battle.mode == "delve"
        else:
            words = t.fall()
            assert "💀 The whole party is defeated. The encounter is failed." in words
            assert "the party wakes in Reedwick (3,2), the closest town" in words
        assert "The Marsh King's Horn, step B is failed." in words
        assert "The encounter of step B20 is failed: the quest goes on at step C22." in words
        assert revealed(words, c22) and t.run.step == "sm-horn-c-lost" and hidden(t.text, c21, d)
        assert "The 1 XP of the step completed earlier today are lost with this failure." in words
        assert "The encounter was failed: no rewards." in words and t.s.xp_dial == 2
        assert f"⏳ Step C22 (ongoing): {c22.ongoing[0].text}" in t.text
        assert "The Rival Band moves 1 hex: 2,3 → 1,4." in t.text and t.tokens()["helka"] == (1, 4)  # toward Ossmere
        t.end_day()
        assert t.s.day_dial == 3 and t.s.journal.result == ""
        # ---- day 3: catch the Rival Band
        t.s.adventurers[RYAN].tenacity, t.s.adventurers[SHANNON].tenacity = 2, 1
        words = t.go([1, 4])
        assert "📜 The party triggers the quest encounter of step C22" in words
        assert all(ch.text in words for ch in c22.choices)
        fatigue = {w: light(t.s, w) for w in (RYAN, SHANNON)}
        if way == "wager":
            words = t.do("day.choose", RYAN, {"choice": 1})
            assert "🗣️ Social check: difficulty the party size + 1 = 3 (party of 2)." in words
            words += t.check(2, 1)
            assert "🗣️ The social check succeeds" in words
            assert "Challenge Helka to a drinking wager: Ryan gains 1 tenacity (1/5)." in words
            assert "Challenge Helka to a drinking wager: Shannon gains 1 tenacity (1/5)." in words
        else:
            words = t.do("day.choose", RYAN, {"choice": 2})
            assert "Buy the horn from her: Ryan gains 1 light fatigue." in words
            assert all(light(t.s, w) == fatigue[w] + 1 for w in fatigue)
        assert "The party gains 2 XP: the XP Dial turns from 2 to 4" in words
        done = "C22"
    assert f"✅ Step {done} of **The Marsh King's Horn** is completed." in words and revealed(words, d)
    assert "Set-up: Remove the Rival Band from the map: Helka's friends have gone home to drink." in words
    assert "helka" not in t.tokens() and t.run.step == "sm-horn-d"
    # ---- day 4: the drowned field, the final battle
    words = t.end_day()
    assert "⏳ Step C21" not in words  # the horn's hum ended with its step
    words = t.go([1, 6])
    assert "📜 The party triggers the quest encounter of step D23" in words
    assert "The party chooses **Face the hag-wife**." in words  # its only choice
    assert t.s.battle is not None and t.s.battle.encounter == "sm-q-hag-wife"
    assert "hagraven" in [u.enemy for u in t.s.battle.units.values() if u.side == "enemy"]
    assert "Hagraven (level 10) in hex A" in words and "Enemies (enemy pool 32 → " in words  # End of Session EP
    return t


@pytest.mark.parametrize("opening,barrow,way", [("heave", "win", "boast"), ("offering", "win", "bluster"),
                                                ("heave", "win", "horn"), ("offering", "retreat", "wager"),
                                                ("heave", "down", "bargain")])
def test_the_marsh_kings_horn_from_the_guild_draw_to_its_epilogue(opening, barrow, way):
    t = play_horn(opening, barrow, way)
    xp = t.s.xp_dial
    words = t.win()
    assert "✅ Step D23 of **The Marsh King's Horn** is completed." in words
    assert "🏁 The guild quest **The Marsh King's Horn** is completed" in words
    assert f"The party gains 3 XP: the XP Dial turns from {xp} to {xp + 3}" in words
    words = t.end_day()
    epi = HORN.epilogue
    assert f"📖 Epilogue (E24) — The Marsh King's Horn: {epi.story}" in words
    assert "🔑 The party gains the major keyword **Hornblower**" in words
    j = t.s.journal
    assert j.sessions[0].result == "won" and j.sessions[0].major == "kings-hornblower"
    assert j.keywords() == ["kings-hornblower"]
    assert "The epilogue names the guild quests for session 2: 1. The Drowned Ledger (The Saltmire, Thieves Guild); " \
        "2. The Salt Road (The Saltmire, Fighters Guild); 3. The Sunken Chime (The Saltmire, Mages Guild); " \
        "4. The Deepfrost Dare (The Ironpine Highlands, Undaunted)." in words
    t.do("quest.next", RYAN, {"pick": "The Sunken Chime"})
    assert t.s.journal.next == {"province": "saltmire", "quest": "sm-sunken-chime"} and t.s.journal.options == []


def test_losing_to_the_hag_wife_loses_the_quest_and_the_campaign():
    t = play_horn("heave", "win", "horn")
    assert step(HORN, "D23").fail == "quest"
    words = t.lose()
    assert "💀 Step D23 is failed, and with it the guild quest **The Marsh King's Horn**." in words
    assert "💀 The session ends, and with it the campaign: it is lost (a quest step failed)." in words
    j = t.s.journal
    assert j.result == "lost" and j.sessions[0].result == "lost" and "kings-hornblower" not in j.keywords()
    assert HORN.epilogue.story not in t.text


# ----------------------------------------------------------- a step's battle in each mode (a copied pack) --
STARTER = Path(__file__).resolve().parents[1] / "content" / "starter"
B20_CHOICE = 'outcome = "delve"\nxp = 2\ntext = "Wade down'


def copied_horn(tmp_path, encounter: str, outcome: str, final: bool) -> Table:
    """The starter pack copied with step B20's battle replaced (``encounter``, its choice's ``outcome``, and
    ``final``: the session's final battle), loaded, and a party playing it on day 2 at the Weir Stones (B20's
    battle has begun)."""
    import shutil

    folder = tmp_path / "pack"
    shutil.copytree(STARTER, folder, ignore=shutil.ignore_patterns(".versions"))
    quests = folder / "provinces" / "saltmire" / "quests.toml"
    text = quests.read_text()
    for old, new in (('encounter = "sm-q-kings-barrow"\n',
                      f'encounter = "{encounter}"\n' + ("final = true\n" if final else "")),
                     (B20_CHOICE, B20_CHOICE.replace('"delve"', f'"{outcome}"'))):
        assert old in text
        text = text.replace(old, new, 1)
    quests.write_text(text)
    pack = load_pack(str(folder))  # the loader accepts it
    b20 = pack.campaign.step("sm-horn-b")
    assert b20.encounter == encounter and b20.choices[0].outcome == outcome and b20.final == final
    t = Table()
    t.s.pack, t.s.pack_version = str(folder), pack.content_hash
    t.start("undaunted", "Undaunted")
    t.end_day()
    t.go([3, 3])
    t.do("day.choose", RYAN, {"choice": 1})
    assert t.run.step == "sm-horn-b" and t.s.battle is not None and t.s.battle.encounter == encounter
    return t


@pytest.mark.parametrize("final", [False, True])
def test_a_step_whose_battle_is_a_dungeon_starts_it_as_a_dungeon(tmp_path, final):
    """B20 set in the Drowned Gaol (The Gaoler's Keys): its choice reads as a dungeon and the battle is set up as
    one, the named units in the lettered hexes; its enemy pool is the XP Dial's (2 × 2 adventurers), or, as the
    session's final battle, the End of Session EP (session 1, Adept, 2 adventurers: 32)."""
    t = copied_horn(tmp_path, "gaolers-keys", "dungeon", final)
    words = t.log[-1]
    assert "1. 🏯 **Go down into the barrow** (☼ 2 XP)" in words and "1. 🔦" not in words
    b = t.s.battle
    assert b.mode == "dungeon" and b.dungeon == "drowned-gaol" and b.objective == "eliminate"
    assert "⚔️ Battle 1: **The Gaoler's Keys**." in words
    warden = next(u for u in b.units.values() if u.enemy == "gaol-warden")
    assert (warden.q, warden.r) == PACK.dungeons["drowned-gaol"].labels["B"]
    ep = 32 if final else 4
    assert f"Enemy pool {ep} for the numbered hexes" in words
    assert f"A second enemy pool of {ep} for the star hexes" in words
    # the other mode's choice word is refused: the loader asks for the encounter's mode
    with pytest.raises(ContentError, match='outcome clash, but its encounter "gaolers-keys" is a dungeon battle: '
                                        'write outcome = "dungeon"'):
        copied_horn(tmp_path / "again", "gaolers-keys", "clash", final)


def test_a_final_step_delve_draws_each_tile_from_the_end_of_session_pool(tmp_path):
    """B20's delve as the session's final battle: each tile explored is populated from the End of Session EP (32),
    not from the XP Dial (2 × 2 adventurers = 4, as B20 itself draws: test above)."""
    t = copied_horn(tmp_path, "sm-q-kings-barrow", "delve", True)
    words = t.log[-1]
    assert "A session's final battle: each tile explored draws its enemies from the End of Session enemy pool, 32 " \
        "(session 1, Adept, 2 adventurers), not from the XP Dial." in words
    on_top(t.s, "skyshard-grotto")
    tiles_first(t.s, 7, "pool-7c")
    t.do("battle.explore", RYAN, {}, forced=[1])
    words = t.do("battle.place", RYAN, {"place": 1}, forced=[1])
    assert "👹 Skyshard Grotto (enemy pool 32, scale 1):" in words


# ------------------------------------------------------------------------------- the script at the table --
async def test_session_thieves_plays_the_drowned_ledger_at_the_local_table(tmp_path):
    from engine import rulesets
    from engine.service import replay

    store = await Store.open(tmp_path / "thieves.db")
    try:
        errors, text, local = await play(store, tmp_path, "eels", (EXAMPLES / "session-thieves.txt").read_text())
        assert errors == 0, [f for f in local.failed]
        state = await CampaignService(store).campaign("eels")
        j = state.journal
        assert j.guild == "thieves-guild" and j.result == ""
        (one,) = j.sessions
        assert (one.quest, one.result, one.major, one.days, one.xp) == (
            "sm-drowned-ledger", "won", "ledger-keeper", 4, 9)
        assert j.keywords() == ["ledger-keeper", "buyers-list"]
        assert j.next == {"province": "saltmire", "quest": "sm-salt-road"}
        for words in ("1. **Thieves Guild** — ", "The party contracts with the **Thieves Guild**",
                      "🗣️ The social check fails: dice 0 + tenacity 0 = 0 against 3.",
                      "Follow him into the reeds: Shannon gains 1 light fatigue.",
                      "The Eelwife's Boat moves 1 hex: 4,5 → 4,4.", "⚔️ Battle 1: **The Eelwife's Crew**",
                      "🔗 Step C11 is linked to the one before", "the party gains the keyword **The Buyers' List**",
                      "Step D12 (ongoing): Ryan loses 1 tenacity", "⚔️ Battle 2: **Captain Quill's Sloop**",
                      "Enemies (enemy pool 32 → ", "Call in her buyers' debts first: Shannon gains 1 bonus XP",
                      "Epilogue (E13)", "major keyword **Keeper of the Ledger**", "The adventurers are put away",
                      "Session 1: The Saltmire, The Drowned Ledger — done"):
            assert words in text, words
        assert any("journal" in p.name for p in local.images)
        check_no_spoilers(text, [LEDGER])
        assert step(LEDGER, "B09").story not in text  # the quiet way was never taken
        stored = await store.load_active("eels")
        assert replay(await store.log(stored.id)).to_dict() == rulesets.load(stored.state).to_dict()
    finally:
        await store.close()


async def test_no_step_of_the_drowned_ledger_shows_before_its_time_in_words_buttons_or_pictures(tmp_path, monkeypatch):
    """The script's whole transcript with the text of every picture's view in its place: no step's story or
    objective before the line that reveals the step."""
    out = await transcript_with_pictures(tmp_path, monkeypatch, "eels", ["session-thieves.txt"])
    assert any(p.startswith("[picture overland]") for p in out) and any(p.startswith("[picture map]") for p in out)
    transcript = "\n".join(out)
    check_no_spoilers(transcript, list(CAMP.quests.values()))
    assert "[menu: The party's guild" in transcript


# ------------------------------------------------------------------------------ as the quest of session 2 --
def target(t: Table, st) -> list[int]:
    """Where the step's encounter triggers: its town, its hex or its token's hex."""
    if st.trigger.town:
        return list(PROV.hex_of_town(st.trigger.town))
    if st.trigger.hex:
        return list(st.trigger.hex)
    return list(t.tokens()[st.trigger.token])


def rush(t: Table) -> str:
    """Play the current guild quest to its epilogue the plainest way: each day to the step's trigger, the first
    choice open (checks answered with no tenacity, items to Ryan), battles won.  What was said."""
    out = []
    for _ in range(12):
        if t.s.days.phase == "over":
            break
        out.append(t.go(target(t, CAMP.step(t.run.step))))
        while t.s.days.ask is not None and t.s.days.ask.kind in ("card", "check-tenacity", "chosen") \
                or t.s.battle is not None:
            if t.s.battle is not None:
                out.append(t.win())
            elif t.s.days.ask.kind == "card":
                out.append(t.do("day.choose", RYAN, {"choice": 1}))
            elif t.s.days.ask.kind == "check-tenacity":
                out.append(t.do("day.check", t.s.days.ask.owners[0], {"tenacity": 0}))
            else:
                out.append(t.do("day.pick", RYAN, {"pick": "Ryan"}))
        out.append(t.end_day())
    assert t.s.days.phase == "over"
    return "\n".join(out)


@pytest.mark.parametrize("first,second", [("thieves-guild", "sm-marsh-kings-horn"),
                                          ("undaunted", "sm-drowned-ledger")])
def test_each_quest_as_the_quest_of_session_two_leads_into_the_endgame_with_its_lore(first, second):
    t = Table()
    t.start(first, CAMP.guilds[first].name)
    t.end_day()
    rush(t)  # session 1
    j = t.s.journal
    options = [o["quest"] for o in j.options]
    assert second in options
    t.do("quest.next", RYAN, {"pick": str(options.index(second) + 1)})
    quest = CAMP.quests[second]
    # session 2: no guild draw; the party takes up the next quest's guild card
    words = t.do("day.start", RYAN, {"stack": DECK_STACK})
    guild = CAMP.guilds[quest.guild].name
    assert "📕 Session 2 of the campaign." in words and f"The party takes up the {guild}'s card" in words
    assert "guild cards are drawn" not in words and t.s.journal.guild == quest.guild
    start = PROV.towns[quest.start]
    assert f"Starting location: {start.name} — the party token is placed there" in words
    assert revealed(words, quest.steps[0]) and hidden(t.text, *quest.steps[1:])
    t.end_day()
    words = rush(t)
    epi = quest.epilogue
    assert f"📖 Epilogue ({epi.code}) — {quest.name}: {epi.story}" in words
    assert epi.lore in words and "Session 3 is the endgame, in The Saltmire" in words
    j = t.s.journal
    assert [s.result for s in j.sessions] == ["won", "won"] and j.next is None and j.options == []
    one = CAMP.quest_of(first, "saltmire")
    assert [s.major for s in j.sessions] == [one.epilogue.keyword, epi.keyword]
    assert j.keywords()[:2] == [one.epilogue.keyword, epi.keyword]
