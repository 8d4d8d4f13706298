"""The rulebook's Starting Quest Example (p.15) and Social Check Example (p.42) on our content's analogues, with
forced draws and dice (the adaptations: docs/rules-notes.md, "Quests").

* Starting Quest Example: Ryan and Shannon begin their campaign in the Saltmire; 3 guild cards are drawn (of the
  4 guilds with a quest in the province): the Mages Guild, the Undaunted and the Thieves Guild (for the Psijic
  Order), each read with its quest's snapshot, complexity and starting location; they choose the Undaunted's The
  Marsh King's Horn and the party token goes to its starting town, Ossmere.
* Social Check Example: the party holds the side quest The Greedy Conjurer (our Dark Forces of Greed), taken at
  Brinehold's quest board; it moves into the southernmost conflict landmark, wins the guards' clash, tries to
  swindle the conjurer: difficulty the party size + 3 = 5; Ryan has 3 tenacity and Shannon 1; Shannon rolls her
  Speech die for 1, both spend all their tenacity: 5 against 5 succeeds, her die is exhausted, and the party
  chooses Ryan to gain the Glyph of Stamina.
"""
from __future__ import annotations

from day_helpers import BRINEHOLD_SHOP, DECK_STACK, RYAN, SHANNON, examples_party, run, said, train
from rulesets.tes.content import load_pack
from test_day_cards import win_battle


def _pack():
    return load_pack("starter")


def test_starting_quest_example():
    camp = _pack().campaign
    s = examples_party()
    s, ev = run(s, "day.start", RYAN, {"province": "saltmire",
                                       "stack": ["mages-guild", "undaunted", "thieves-guild"]}, guild=None)
    text = said(ev)
    eligible = sorted(g for g in camp.guilds if camp.quest_of(g, "saltmire") is not None)
    assert eligible == ["fighters-guild", "mages-guild", "thieves-guild", "undaunted"]
    assert s.quests.offer == ["mages-guild", "undaunted", "thieves-guild"]
    assert "🛡️ The guild deck: 3 guild cards are drawn (of the 4 guilds with a quest in The Saltmire)" in text
    # each guild card is read with its quest's snapshot, complexity and starting location
    horn, chime, ledger = (camp.quests[q] for q in ("sm-marsh-kings-horn", "sm-sunken-chime", "sm-drowned-ledger"))
    assert "1. **Mages Guild** — " in text and f"Quest: **{chime.name}**, complexity 1: {chime.snapshot} " \
        "Starting location: Brinehold." in text
    assert "2. **Undaunted** — " in text and f"Quest: **{horn.name}**, complexity 2: {horn.snapshot} " \
        "Starting location: Ossmere." in text
    assert "3. **Thieves Guild** — " in text and f"Quest: **{ledger.name}**, complexity 2: {ledger.snapshot} " \
        "Starting location: Hesk." in text
    assert "Fighters Guild" not in text  # the fourth card stays in the deck
    # nothing of a step is read before the quest is chosen
    for q in camp.quests.values():
        for st in q.steps:
            assert st.story not in text and st.objective not in text
    assert s.days.ask.kind == "guild" and s.days.ask.owners == [RYAN]
    # the party chooses together; the leader answers for it
    s, ev = run(s, "quest.guild", RYAN, {"pick": "Undaunted"})
    text = said(ev)
    assert "The party contracts with the **Undaunted**; Mages Guild, Thieves Guild go back to the box." in text
    assert s.journal.guild == "undaunted" and s.journal.sessions[0].quest == "sm-marsh-kings-horn"
    # the starting location: the party token in Ossmere's hex; step A read, step B not
    prov = _pack().provinces["saltmire"]
    assert tuple(s.days.party) == tuple(prov.hex_of_town("ossmere"))
    assert "Starting location: Ossmere — the party token is placed there" in text
    first, second = horn.steps[0], horn.steps[1]
    assert first.story in text and s.quests.step == first.id
    assert second.story not in text and second.objective not in text
    # day 1 begins with the town encounter in Cairn Tollan
    assert s.days.ask.kind in ("town", "town-effect") and s.days.town is not None


def _social_party(state):
    """Shannon trains Speech with one Stern Presence die; Ryan has 2 tenacity (his Crackling Focus gives the
    third at his turn in the guards' battle) and Shannon 1."""
    train(state, SHANNON, "speech", ["stern-presence"])
    state.adventurers[RYAN].tenacity = 2
    state.adventurers[SHANNON].tenacity = 1


def test_social_check_example():
    s = examples_party()
    _social_party(s)
    s, _ = run(s, "day.start", RYAN, {"province": "saltmire", "stack": DECK_STACK + BRINEHOLD_SHOP + [
        "sm-p01", "sq-greedy-conjurer", "sq-missing-courier"]})
    # Brinehold's quest board: Shannon draws 2 side quests and takes The Greedy Conjurer for the party
    s, ev = run(s, "town.visit", SHANNON, {"feature": "board"})
    assert "Shannon reads the quest board and draws 2 side quests" in said(ev)
    assert s.days.ask.kind == "side-quest" and s.days.ask.owners == [SHANNON]
    s, ev = run(s, "quest.accept", SHANNON, {"pick": "The Greedy Conjurer"})
    assert "The Missing Courier (SQ 2) is discarded" in said(ev)
    assert [x.id for x in s.quests.sides] == ["sq-greedy-conjurer"]
    for who in (RYAN, SHANNON):
        s, _ = run(s, "town.done", who)
    for who in (RYAN, SHANNON):
        s, _ = run(s, "day.rest", who)
    # day 2: into the southernmost conflict landmark (1,7): the side quest's encounter, its battle first
    s, _ = run(s, "day.route", RYAN, {"to": [1, 7]})
    s, ev = run(s, "day.vote", SHANNON, {})
    text = said(ev)
    assert "The Greedy Conjurer" in text and "First the battle: The Conjurer's Guards" in text
    assert s.battle is not None and s.battle.encounter == "sq-conjurer-guards"
    s, _ = win_battle(s)
    assert s.days.ask.kind == "card" and s.days.ask.data["card"] == "sq-greedy-conjurer"
    assert (s.adventurers[RYAN].tenacity, s.adventurers[SHANNON].tenacity) == (3, 1)
    # 1. swindle the conjurer: the party size + 3 = 5; tenacity alone (4) cannot do it
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "difficulty the party size + 3 = 5 (party of 2)" in said(ev)
    assert s.days.ask.kind == "check-dice" and s.days.ask.owners == [SHANNON]  # Ryan has no Speech dice
    # 2. Shannon rolls her Speech die before anyone spends tenacity: 1
    die = next(d for d, x in s.adventurers[SHANNON].dice.items() if x["type"] == "stern-presence")
    s, ev = run(s, "day.check", SHANNON, {"dice": ["Stern Presence"]}, forced=[1])
    assert "Shannon rolls Stern Presence: 1 sway (+1); the dice are exhausted" in said(ev)
    assert die in [e.get("die") for e in s.adventurers[SHANNON].cooldown]  # exhausted, as the rule says
    # 3. each spends all their tenacity: 4 + 1 = 5, the check succeeds; the party chooses Ryan for the glyph
    s, _ = run(s, "day.check", RYAN, {"tenacity": 3})
    s, ev = run(s, "day.check", SHANNON, {"tenacity": 1})
    assert "The social check succeeds: dice 1 + tenacity 4 = 5 against 5" in said(ev)
    assert (s.adventurers[RYAN].tenacity, s.adventurers[SHANNON].tenacity) == (0, 0)
    assert s.days.ask.kind == "chosen" and s.days.ask.data["what"] == "gain the item Glyph of Stamina"
    s, ev = run(s, "day.pick", RYAN, {"pick": "Ryan"})
    text = said(ev)
    assert "Ryan gains Glyph of Stamina" in text and "glyph-of-stamina" in s.adventurers[RYAN].ready
    assert "The side quest The Greedy Conjurer (SQ 1) is completed" in text
    assert s.quests.sides == []  # completed: off the party's list
    assert "The party gains 2 XP" in text and s.days.phase == "reward"

