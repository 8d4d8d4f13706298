"""The Ironpine Highlands (IP), the starter pack's second province, played card by card.

Its map, towns, caravan, province effect (the Snowline and the White Wolf), its 8 peaceful and 8 conflict
cards (every choice, with the checks of tests/test_day_cards.py and the words the party reads), its battles won
and lost, its enemy chips (p.15) and its endgame (The Winter Without End) won and lost.  The Saltmire stays the
pack's default province (``order``).  Its two delves and its delve cards are played in
tests/test_ironpine_delves.py; here a delve choice is won with its skyshards given.

These tests play the province's days without a guild quest (the guild draw is skipped), so that each card is
played alone; the Ironpine's guild quests are played in tests/test_ironpine_quests_1.py and _2.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from pack_helpers import copy_starter, load_errors

import day_helpers
import test_day_cards
from test_saltmire_cards import enemies, lose_by_retreat
from battle_helpers import party, run as battle_run, texts
from day_helpers import (BRINEHOLD_SHOP, DECK_STACK, RYAN, SHANNON, examples_party, refused, run, said, stack,
                         train)
from engine.text import count
from rulesets.tes.content import load_pack
from rulesets.tes.content.tiles import encounter_map
from rulesets.tes.session import setup as session_setup

PACK = load_pack("starter")
PROV = PACK.provinces["ironpine"]
STONEMERE_SHOP = BRINEHOLD_SHOP[:5]  # its 5 commons on day 1 (its legendary is drawn at random)
# from Stonemere (2,5) under Snow on the Peaks (movement 3)
LANDMARK_HEX = {"peaceful": [1, 6], "conflict": [3, 6], "unstable": [3, 5]}
UNSTABLE_DIE = {"conflict": 1, "caravan": 3, "peaceful": 6}
STONEMERE, CINDERHOLLOW, HIGHTOR, TARNWICK, FROSTGATE = (2, 5), (5, 3), (1, 1), (0, 4), (6, 1)
IP_CHIPS_LOW = ("snow-wolf", "pine-reaver", "claim-jumper", "tunnel-skeever", "frostbite-spider", "tusk-boar",
                "barrow-dead", "rime-wisp")
IP_CHIPS_HIGH = ("snow-troll", "hill-giant", "highland-mammoth", "barrow-lord", "frost-drake", "pine-witch",
                 "werebear", "iron-sentinel")


@pytest.fixture(autouse=True)
def no_guild_draw(monkeypatch):
    """Sessions here are played without a guild quest (see the module's docstring)."""
    monkeypatch.setattr(session_setup, "draw_guilds", lambda c: None)


def day_two(setup=None, players=(RYAN, SHANNON)):
    """Day 1 at Stonemere spent (nobody acts in town), Snow on the Peaks kept; the state waits for day 2's route."""
    s = examples_party()
    if setup is not None:
        setup(s)
    s, _ = run(s, "day.start", RYAN, {"province": "ironpine", "stack": DECK_STACK + STONEMERE_SHOP + ["ip-p01"]},
               guild=None)
    for who in players:
        s, _ = run(s, "town.done", who)
    for who in players:
        s, _ = run(s, "day.rest", who)
    assert s.days.ask.kind == "route", s.days.ask
    return s


def at_card(card: str, landmark: str | None = None, with_before: bool = False, setup=None):
    """Day 2 in the Ironpine: the party moves onto a landmark and draws ``card`` (the day_helpers' at_card on the
    Ironpine's day two).  Returns (state, words), and with ``with_before`` the state just before the party set
    out too."""
    return day_helpers.at_card(card, landmark, with_before, day=day_two, hexes=LANDMARK_HEX, setup=setup)


def at_town(hex_, setup=None, start=None, stack_cards=()):
    s = day_two(setup=setup)
    if start is not None:
        s.days.party = list(start)
    if stack_cards:
        s = stack(s, *stack_cards)
    s, ev = run(s, "day.route", RYAN, {"to": list(hex_)})
    s, ev2 = run(s, "day.vote", SHANNON)
    return s, said(ev + ev2)


def finish_day(s, events=None):
    """Everyone done with the reward and the rest (defaults), until the next day's route."""
    for _ in range(8):
        ask = s.days.ask
        if ask is None or ask.kind == "route":
            break
        s, ev = run(s, {"reward": "reward.done", "rest": "day.rest", "town": "town.done"}[ask.kind], ask.owners[0])
        if events is not None:
            events += ev
    return s


def names(s) -> dict[str, str]:
    return {o: a.name for o, a in s.adventurers.items()}


def words_of(card, ch, effects, s, picks=None) -> list[str]:
    """What the party reads for each of a choice's effects (the bot's wording), worked out from the effects."""
    label = f"{card.name}: {ch.title}"
    out = []
    who = names(s)
    for e in effects:
        t = e["type"]
        n = e.get("amount", 1)
        owners = [SHANNON] if e.get("who") == "chosen" else [RYAN, SHANNON]
        if t == "movement":
            out.append(f"{label}: tomorrow the party may move {n} extra {'hex' if n == 1 else 'hexes'}.")
        elif t == "skip-rest":
            out.append(f"{label}: tonight the party skips the Adventurers Rest.")
        elif t == "lose-day":
            out.append(f"{label}: a day is lost; the Day Dial moves on to")
        elif t == "gauge":
            step = PROV.effect.step(e["set"])
            out.append(f"{label}: the Snowline gauge moves to {step.name}. {step.text}")
        elif t == "close-town":
            out.append(f"{label}: {PROV.towns[e['town']].name} is closed; the party cannot enter it.")
        elif t == "open-town":
            pass  # an open town stays open without a word: test_drifts_close_frostgate_and_the_thaw_runners_open_it
        elif t == "choose":
            for o in owners:
                k = (picks or {}).get(o, 1)
                opt = e["options"][k - 1]
                out.append(f"{label}: {who[o]}: {opt['title']}.")
                out += [w for w in words_of(card, ch, opt["effects"], s) if who[o] in w]
        else:
            for o in owners:
                out.append(f"{label}: {who[o]} " + {
                    "damage": f"is dealt {n} damage", "heal": "heals",
                    "fatigue": f"gains {n} {'light fatigue' if e.get('kind') == 'light' else 'overfatigue'}",
                    "tenacity": "gains 1 tenacity" if n == 1 else f"gains {n} tenacity",
                    "lose-tenacity": f"loses {n} tenacity", "recover": "recovers",
                    "bonus-xp": f"gains {n} bonus XP", "draw-item": "draws",
                    "status": f"gains {e.get('status')}",
                }[t])
    return out


def play(card_id: str, number: int, landmark: str | None = None, setup=None):
    """Take one choice of an Ironpine card at its landmark (a check passed, a clash won, Shannon the one the party
    chooses, Ryan picking option 1 and Shannon option 2); the state after the Encounter Phase and every word."""
    card = PACK.overland_cards[card_id]
    ch = card.choices[number - 1]
    s, text = at_card(card_id, landmark=landmark, setup=setup or test_day_cards.prepared)
    words = [text]
    if s.days.ask is not None and s.days.ask.kind == "card":
        s, ev = run(s, "day.choose", RYAN, {"choice": number})
        words.append(said(ev))
    if ch.check is not None and s.days.ask is not None and s.days.ask.kind == "check-dice":
        s, ev = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[3, 3])
        words.append(said(ev))
        for o in list(s.days.ask.owners):
            s, ev = run(s, "day.check", o, {"tenacity": 0})
            words.append(said(ev))
    if ch.outcome == "clash":
        for u in enemies(s):
            u.hp, u.defeated, u.fell_at = 0, True, [u.q, u.r]
            u.q = u.r = None
        while s.battle is not None:
            s, ev = run(s, "battle.endturn", s.battle.turn.owner)
            words.append(said(ev))
    if ch.outcome == "delve":  # its skyshards gained (tests/test_ironpine_delves.py explores them), an Uncover's
        s.battle.delve.gained = s.battle.delve.required  # party retreating with them: a victory
        if PACK.encounters[s.battle.encounter].objective == "uncover":
            s, ev = run(s, "battle.retreat", s.leader)
            words.append(said(ev))
        while s.battle is not None:
            s, ev = run(s, "battle.endturn", s.battle.turn.owner)
            words.append(said(ev))
    for _ in range(6):
        ask = s.days.ask
        if ask is None or ask.kind not in ("chosen", "either"):
            break
        if ask.kind == "chosen":
            s, ev = run(s, "day.pick", RYAN, {"pick": "Shannon"})
            words.append(said(ev))
        else:
            for o in list(ask.owners):
                s, ev = run(s, "day.pick", o, {"pick": {RYAN: 1, SHANNON: 2}[o]})
                words.append(said(ev))
    return s, "\n".join(words)


IP_CHOICES = [(cid, ch.number) for kind in ("peaceful", "conflict") for cid in PROV.cards[kind]
              for ch in PACK.overland_cards[cid].choices]


# What each choice's text promises, read from the card (not from its effects): "each adventurer" unless said;
# chosen-item: the adventurer the party chooses (Shannon) draws; choose: Ryan takes the first option, Shannon the
# second; nothing: the choice only starts its battle (a delve choice).  tests/test_day_cards.py compares the party with the choice's effects; this compares it with its words.
PROMISES = {
    ("ip-p01", 1): "light 1, tenacity 1", ("ip-p01", 2): "heal 2",
    ("ip-p02", 1): "light 2, move 1", ("ip-p02", 2): "recover-fatigue 2, lose-day",
    ("ip-p03", 1): "tenacity 1, chosen-item 1", ("ip-p03", 2): "recover-skill 2, light 1",
    ("ip-p04", 1): "light 1", ("ip-p04", 2): "gauge frost, over 1",
    ("ip-p05", 1): "light 2, chosen-item 1", ("ip-p05", 2): "choose damage 2 | light 2",
    ("ip-p06", 1): "light 2, gauge peaks", ("ip-p06", 2): "gauge passes, lose-tenacity 1",
    ("ip-p07", 1): "close frostgate, move 1", ("ip-p07", 2): "over 1",
    ("ip-p08", 1): "light 2", ("ip-p08", 2): "move 2, lose-tenacity 1",
    ("ip-c01", 1): "tenacity 1", ("ip-c01", 2): "skip-rest",
    ("ip-c02", 1): "chosen-item 1", ("ip-c02", 2): "lose-tenacity 1",
    ("ip-c03", 1): "chosen-item 1", ("ip-c03", 2): "nothing", ("ip-c03", 3): "light 2",
    ("ip-c04", 1): "move 1", ("ip-c04", 2): "damage 2",
    ("ip-c05", 1): "heal 2", ("ip-c05", 2): "damage 1, light 1",
    ("ip-c06", 1): "chosen-item 1, tenacity 1", ("ip-c06", 2): "lose-tenacity 1", ("ip-c06", 3): "close tarnwick",
    ("ip-c07", 1): "bonus-xp 1", ("ip-c07", 2): "nothing", ("ip-c07", 3): "light 2",
    ("ip-c08", 1): "chosen-item 1", ("ip-c08", 2): "tenacity 1", ("ip-c08", 3): "lose-tenacity 1",
}


def promised(spec: str) -> tuple[list[dict], dict]:
    """The effects a promise reads as (in the effects' vocabulary, for test_day_cards.expect), and what it says of
    the gauge and the towns."""
    effects, party_ = [], {"gauge": None, "closed": []}
    for part in (p.strip() for p in spec.split(",")):
        word, _, rest = part.partition(" ")
        if word == "choose":
            options = []
            for opt in rest.split("|"):
                sub, _ = promised(opt.strip())
                options.append({"title": opt.strip(), "effects": sub})
            effects.append({"type": "choose", "options": options})
        elif word == "gauge":
            party_["gauge"] = rest
        elif word == "close":
            party_["closed"].append(rest)
        elif word in ("skip-rest", "lose-day"):
            effects.append({"type": word})
        elif word == "nothing":
            pass
        else:
            n = int(rest)
            effects.append({"light": {"type": "fatigue", "kind": "light", "amount": n},
                            "over": {"type": "fatigue", "kind": "over", "amount": n},
                            "recover-skill": {"type": "recover", "what": "skill", "amount": n},
                            "recover-fatigue": {"type": "recover", "what": "fatigue", "amount": n},
                            "chosen-item": {"type": "draw-item", "amount": n, "who": "chosen"},
                            "move": {"type": "movement", "amount": n},
                            }.get(word, {"type": word, "amount": n}))
    return effects, party_


# ------------------------------------------------------------------ loading --
def test_the_province_loads_with_its_map_towns_caravan_and_effect():
    assert (PROV.id, PROV.name, PROV.code, PROV.start, PROV.order) == (
        "ironpine", "The Ironpine Highlands", "IP", "stonemere", 2)
    assert len(PROV.hexes) == 62 and set(PROV.hexes.values()) == set(PROV.terrain) == set("fkpslqh")
    kinds = [f[0] for f in PROV.features.values()]
    assert (kinds.count("town"), kinds.count("peaceful"), kinds.count("conflict"), kinds.count("unstable")) == \
        (5, 9, 9, 4)
    assert {t.mark: t.name for t in PROV.towns.values()} == {1: "Stonemere", 2: "Cinderhollow", 3: "Hightor Keep",
                                                            4: "Tarnwick", 5: "Frostgate"}
    for tid, h in (("stonemere", STONEMERE), ("cinderhollow", CINDERHOLLOW), ("hightor", HIGHTOR),
                   ("tarnwick", TARNWICK), ("frostgate", FROSTGATE)):
        assert PROV.hex_of_town(tid) == h, tid
    named = {f[1]: h for h, f in PROV.features.items() if f[0] != "town" and f[1]}
    assert named == {"The Rimefall Pass": (5, 1), "The Old Cinder Shaft": (6, 3), "Glasswater Tarn": (3, 2),
                     "The Widow Pines": (-1, 6), "The Cairn of the Nine": (4, 0), "The Frozen Stair": (3, 5)}
    assert PROV.caravan.name == "The Ore Sledges" and PROV.caravan.caravan
    eff = PROV.effect
    assert eff.name == "The Snowline" and eff.start == "peaks"
    assert [(st.id, st.movement) for st in eff.steps] == [("peaks", 3), ("passes", 2), ("whiteout", 1), ("frost", 4)]
    assert {i: (a.set or a.token) for i, a in eff.icons.items()} == {"sun": "peaks", "rain": "passes",
                                                                       "storm": "whiteout", "moon": "white-wolf"}
    assert [(t.id, t.name, t.hex) for t in PROV.tokens] == [("white-wolf", "White Wolf", (1, 0))]


def test_the_saltmire_stays_the_default_province_and_a_session_named_ironpine_plays_there():
    assert list(PACK.provinces) == ["saltmire", "ironpine"]  # by order (1, 2), not by folder name
    assert PACK.provinces["saltmire"].order == 1
    s, ev = run(examples_party(), "day.start", RYAN, {}, guild=None)
    assert s.days.province == "saltmire" and "A session begins in **The Saltmire** (SM)" in said(ev)
    s, ev = run(examples_party(), "day.start", RYAN, {"province": "ironpine"}, guild=None)
    text = said(ev)
    assert s.days.province == "ironpine" and s.days.code == "IP"
    assert "A session begins in **The Ironpine Highlands** (IP)" in text
    assert "The party token starts in Stonemere (2,5); the White Wolf at 1,0." in text
    assert "the token is placed on Snow on the Peaks on the Snowline gauge" in text
    assert s.days.gauge == "peaks" and s.days.party == [2, 5]
    s, ev = run(examples_party(), "day.start", RYAN, {"province": "IP"}, guild=None)  # by its code too
    assert s.days.province == "ironpine"


_copy, _errors = copy_starter, load_errors


def _edit(folder: Path, rel: str, old: str, new: str) -> None:
    f = folder / rel
    text = f.read_text()
    assert old in text, old
    f.write_text(text.replace(old, new, 1))


def test_the_loader_checks_the_order(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "provinces/ironpine/province.toml", "order = 2 ", "order = 1 ")
    assert 'provinces/saltmire/province.toml, province "saltmire": order 1 is used by province "ironpine" too (the ' \
           'first province is the default one)' in _errors(folder)
    _edit(folder, "provinces/ironpine/province.toml", "order = 1 ", 'order = "second" ')
    assert 'province "ironpine": order must be a whole number from 1 to 99, got "second"' in _errors(folder)


def test_a_province_without_an_order_comes_after_the_ordered_ones(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "provinces/saltmire/province.toml", "order = 1 ", "")
    assert list(load_pack(str(folder)).provinces) == ["ironpine", "saltmire"]
    _edit(folder, "provinces/ironpine/province.toml", "order = 2 ", "")
    assert list(load_pack(str(folder)).provinces) == ["ironpine", "saltmire"]  # then by id
    _edit(folder, "provinces/saltmire/province.toml", 'code = "SM"', 'code = "SM"\norder = 7')
    assert list(load_pack(str(folder)).provinces) == ["saltmire", "ironpine"]


# ---------------------------------------------------------------- the decks --
def test_the_decks_hold_8_ironpine_cards_of_each_type_and_a_session_takes_4_general_and_8():
    for kind in ("peaceful", "conflict"):
        own = sorted(PACK.overland_cards[i].number for i in PROV.cards[kind])
        assert own == list(range(1, 9)) and all(PACK.overland_cards[i].code == "IP" for i in PROV.cards[kind])
    s = day_two()
    assert {k: len(d.pool) + len(d.bottom) + len(d.discard) for k, d in s.days.decks.items()
            if k in ("peaceful", "conflict")} == {"peaceful": 12, "conflict": 12}
    assert {c for c in s.days.decks["peaceful"].pool + s.days.decks["peaceful"].bottom
            if c.startswith("sm-")} == set()  # the Saltmire's cards stay in the box


def test_the_peaceful_cards_carry_every_icon_the_snowline_reads_and_some_carry_none():
    peaceful = [PACK.overland_cards[i] for i in PROV.cards["peaceful"]]
    assert {i for c in peaceful for i in c.icons} == set(PROV.effect.icons)
    blank = [c for c in peaceful if not c.icons]
    assert blank and all(any(e["type"] == "gauge" for ch in c.choices for e in ch.effects) for c in blank)


def test_every_conflict_card_has_a_battle_of_its_own_against_ip_or_general_enemies():
    named = [PACK.overland_cards[c].encounter for c in PROV.cards["conflict"]]
    assert len(set(named)) == 8
    for enc_id in named + ["ip-end-barrow-host", "ip-end-hollow-king"]:
        enc = PACK.encounters[enc_id]
        assert enc.mode == "clash" and {PACK.tiles[p.tile].kind for p in enc.tiles} == {"clash", "entrance"}
        assert len(encounter_map(PACK, enc_id).enemy_slots) >= 4
        for eid in (*enc.bag, *enc.named_enemies, *enc.required_enemies):
            assert PACK.enemies[eid].province in (None, "IP"), (enc_id, eid)


# ------------------------------------------------------------ the enemy bags --
def test_the_ironpine_chips_have_two_sides_tagged_ip_at_the_saltmires_scale():
    for chips, levels in ((IP_CHIPS_LOW, [1, 5]), (IP_CHIPS_HIGH, [10, 20])):
        for chip in chips:
            sides = sorted((e for e in PACK.enemies.values() if e.chip == chip), key=lambda e: e.level)
            assert [e.level for e in sides] == levels and all(e.province == "IP" for e in sides), chip
    tagged = {e.chip for e in PACK.enemies.values() if e.province == "IP" and not e.quest_unit}
    assert tagged == set(IP_CHIPS_LOW + IP_CHIPS_HIGH)
    sm = {e.chip for e in PACK.enemies.values() if e.province == "SM" and not e.quest_unit}
    assert len({c for c in sm if PACK.enemies[c].level == 1}) <= len(IP_CHIPS_LOW) + 1  # roughly as many
    assert PACK.enemies["the-hollow-king"].quest_unit and PACK.enemies["the-hollow-king"].province == "IP"


def test_a_session_in_the_ironpine_fills_its_bags_with_general_and_ironpine_chips_only():
    from engine.core import Dice
    from rulesets.tes.battle import pool

    s, ev = run(examples_party(), "day.start", RYAN, {"province": "ironpine"}, guild=None)
    assert "Enemy bags for IP: 18 chips in the level 1/5 bag, 14 in the level 10/20 bag" in said(ev)
    seen: set[str] = set()
    for face in range(1, 14):
        seen |= set(pool.draw(PACK, [1, 1, 1, 1, 10, 10], Dice(0, 0, [face] * 6), province="IP"))
    assert all(PACK.enemies[e].province in (None, "IP") for e in seen)
    assert seen & {"snow-wolf", "pine-reaver", "claim-jumper", "tunnel-skeever"}
    assert not any(PACK.enemies[e].province == "SM" for e in seen)


# ------------------------------------------------------- every card, every choice --
@pytest.mark.parametrize("card_id,number", IP_CHOICES)
def test_every_ironpine_choice_does_what_its_text_says(card_id, number, monkeypatch):
    """tests/test_day_cards.py's check (the party's state against the choice's effects), in the Ironpine."""
    monkeypatch.setattr(test_day_cards, "at_card", at_card)
    test_day_cards.test_every_card_choice_does_what_its_text_says(card_id, number)


@pytest.mark.parametrize("card_id,number", IP_CHOICES)
def test_every_ironpine_choice_says_what_it_does(card_id, number):
    card = PACK.overland_cards[card_id]
    ch = card.choices[number - 1]
    s, text = play(card_id, number)
    assert f"**{card.name}** (IP {card.number}): {card.story}" in text
    assert f"{ch.text}" in text and f"The party chooses **{ch.title}**." in text
    effects = list(ch.effects) + (list(ch.check.effects) if ch.check is not None and ch.check.mode == "bonus"
                                  else [])
    for words in words_of(card, ch, effects, s, {RYAN: 1, SHANNON: 2}):
        assert words in text, (card_id, number, words)
    assert s.days.encounter.result == "success"
    assert f"{card.name} is resolved: ☼ {ch.xp} XP in the Reward Phase." in text
    if ch.outcome == "clash":
        assert f"⚔️ Battle 1: **{PACK.encounters[card.encounter].name}**." in text and "🏆 Victory!" in text
    if ch.outcome == "delve":
        assert f"⚔️ Battle 1: **{PACK.encounters[card.delve].name}**." in text and "🏆 Victory!" in text
        assert "The delve deck holds 11 cards (general and IP)" in text


# ---------------------------------------------------------------- the endgame --
ALL_KEYWORDS = ("chime-bearer", "salt-road-sworn", "chime-heard", "warden-friend", "conjurer-caught")


def endgame(keywords=ALL_KEYWORDS, setup=None):
    """Session 3 of a campaign whose session 2 was played in the Ironpine: its endgame, day 1's encounter read.
    The journal holds the major keywords of sessions 1 and 2 and the minor ones among ``keywords``."""
    from rulesets.tes.quest_state import Journal, SessionEntry

    s = examples_party()
    majors = [k for k in ("chime-bearer", "salt-road-sworn") if k in keywords] + ["", ""]
    s.journal = Journal(guild="mages-guild", sessions=[
        SessionEntry(1, "saltmire", "adept", guild="mages-guild", quest="sm-sunken-chime", result="won",
                     major=majors[0], days=6),
        SessionEntry(2, "ironpine", "adept", guild="mages-guild", result="won", major=majors[1], days=7)],
        minor=[{"keyword": k, "session": 2} for k in ("chime-heard", "warden-friend", "conjurer-caught")
               if k in keywords])
    if setup is not None:
        setup(s)
    s, ev = run(s, "day.start", RYAN, {"stack": DECK_STACK}, guild=None)  # no province named: session 2's
    return s, said(ev)


def next_day(s):
    """The Reward Phase and the rest, to the next endgame encounter; the words said."""
    words = []
    for _ in range(8):
        ask = s.days.ask
        if s.battle is not None or ask is None or ask.kind not in ("reward", "rest"):
            break
        s, ev = run(s, "reward.done" if ask.kind == "reward" else "day.rest", ask.owners[0])
        words.append(said(ev))
    return s, "\n".join(words)


def win(s):
    words = []
    for u in enemies(s):
        u.hp, u.defeated, u.fell_at = 0, True, [u.q, u.r]
        u.q = u.r = None
    while s.battle is not None:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner)
        words.append(said(ev))
    assert s.last_battle.outcome == "victory"
    return s, "\n".join(words)


def test_the_endgame_is_played_in_the_ironpine_after_a_second_session_there():
    eg = __import__("rulesets.tes.quest.common", fromlist=["content"]).content(PACK).endgames["ironpine"]
    assert eg.days == 4 and [d.day for d in eg.encounters] == [1, 2, 3, 4]
    s, text = endgame()
    assert s.days.province == "ironpine" and s.session == 3
    assert "📕 Session 3 of the campaign — the endgame." in text
    assert "The endgame: **The Winter Without End**. The Hollow King has woken" in text
    assert "It lasts 4 days, one encounter each day in order." in text
    assert "📍 The Winter Without End: the Hollow King is placed at 4,0." in text
    assert [(t.id, t.q, t.r) for t in s.days.tokens if t.id == "hollow-king"] == [("hollow-king", 4, 0)]
    assert "⚔️ Endgame, day 1: the party triggers the next encounter, **The Last Harvest of Wood**." in text


def test_the_endgame_won_day_by_day_with_every_keyword():
    def hurt(state):
        for a in state.adventurers.values():
            a.hp = a.max_hp - 3
            a.cooldown = [{"status": "daze"}, {"fatigue": "light"}, {"fatigue": "light"}]
    s, text = endgame(setup=hurt)
    hp = {o: a.hp for o, a in s.adventurers.items()}
    # day 1: Chime-Bearer heals 2, Salt Road Sworn gives 1 tenacity; the choice: fell the pines
    assert "🔑 Keyword Chime-Bearer: the silent chime's calm goes before you" in text
    assert "Keyword Chime-Bearer: Ryan heals 2 HP (3/4)." in text and "Keyword Salt Road Sworn: Shannon gains 1 " \
        "tenacity (1/5)." in text
    assert hp == {RYAN: 3, SHANNON: 4}
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})  # Open the saunas to all
    text = said(ev)
    assert "The Last Harvest of Wood: Open the saunas to all: Ryan recovers 2 fatigue dice." in text
    assert "The Last Harvest of Wood: Open the saunas to all: Ryan heals 1 HP (4/4)." in text
    assert "✅ The endgame's day 1 encounter is completed." in text
    assert all(a.cooldown == [{"status": "daze"}] for a in s.adventurers.values())
    # day 2: Friend of the Wardens gives 2 tenacity; the barrow host is fought at the gate
    s, text = next_day(s)
    assert "⚔️ Endgame, day 2: the party triggers the next encounter, **The Barrow Host**." in text
    assert "Keyword Friend of the Wardens: Ryan gains 2 tenacity (3/5)." in text
    if s.battle is None:
        s, ev = run(s, "day.choose", RYAN, {"choice": 1})
        text += said(ev)
    assert s.battle is not None and s.battle.encounter == "ip-end-barrow-host"
    assert "barrow-dead" in [u.enemy for u in enemies(s)]
    for a in s.adventurers.values():
        a.hp = a.max_hp - 1
    s, text = win(s)
    assert "The Barrow Host: Hold the gate: Ryan heals 1 HP (4/4)." in text
    assert "✅ The endgame's day 2 encounter is completed." in text
    # day 3: Chime-Heard gives 1 tenacity, Conjurer Caught takes a status die back; the social check gate
    for a in s.adventurers.values():  # three status dice: the night's rest removes one, the keyword another
        a.cooldown = [{"status": "daze"}, {"status": "maim"}, {"status": "fear"}]
    s, text = next_day(s)
    assert "**The Whispering Snow**" in text
    assert "Keyword Chime-Heard: Shannon gains 1 tenacity" in text
    assert "Keyword Conjurer Caught: Ryan recovers 1 status die." in text
    assert all(sum(1 for e in a.cooldown if "status" in e) == 1 for a in s.adventurers.values())
    train(s, SHANNON, "speech", ["stern-presence", "stern-presence"])
    xp = {o: a.saved_xp for o, a in s.adventurers.items()}
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})  # Answer the voices: 2 × 2 = 4
    assert "🗣️ Social check: difficulty 2 × the party size = 4 (party of 2)" in said(ev)
    s, ev = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[3, 3])  # 2 + 2 sway
    for o in list(s.days.ask.owners):
        s, more = run(s, "day.check", o, {"tenacity": 0})
        ev += more
    text = said(ev)
    assert "🗣️ The social check succeeds" in text
    assert "The Whispering Snow: Answer the voices: Ryan gains 1 bonus XP" in text
    assert s.adventurers[RYAN].saved_xp == xp[RYAN] + 1 + 2  # the bonus XP and the choice's 2 XP
    # day 4: the Hollow King, the final battle; won: the campaign is won
    s, text = next_day(s)
    assert "**The Hollow King**" in text
    if s.battle is None:
        s, ev = run(s, "day.choose", RYAN, {"choice": 1})
        text += said(ev)
    assert s.battle is not None and s.battle.encounter == "ip-end-hollow-king"
    assert "the-hollow-king" in [u.enemy for u in enemies(s)]
    s, text = win(s)
    assert "🏁 The endgame's last encounter is completed" in text
    s, more = next_day(s)
    text += more
    assert "The Hollow King breaks like lake ice in spring" in text and "The campaign is won." in text
    assert s.journal.result == "won"


def test_the_whispering_snow_walked_through_and_keywords_not_held_change_nothing():
    s, text = endgame(keywords=("chime-bearer",))
    assert "Keywords the party does not hold change nothing today: Salt Road Sworn, Tithe-Keeper, Keeper of the " \
        "Ledger, Wager Won." in text
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    s, text = next_day(s)
    assert "Keywords the party does not hold change nothing today: Friend of the Wardens, Wolfbreaker, Barrow " \
        "Sealed, Bones Reburied." in text
    if s.battle is None:
        s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    s, _ = win(s)
    s, text = next_day(s)
    assert "change nothing today: Chime-Heard, Conjurer Caught, Deepfrost-Dared, Hornblower, Stone-Speakers." in text
    hp = {o: a.hp for o, a in s.adventurers.items()}
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})  # Stop your ears and walk
    assert "The Whispering Snow: Stop your ears and walk: Ryan is dealt 2 damage" in said(ev)
    assert all(a.hp == hp[o] - 2 for o, a in s.adventurers.items())


def test_the_endgame_lost_at_the_gate():
    s, _ = endgame()
    tenacity = {o: a.tenacity for o, a in s.adventurers.items()}
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})  # Fell the town's pines: 2 light fatigue, 1 tenacity
    assert "The Last Harvest of Wood: Fell the town's pines: Shannon gains 2 light fatigue." in said(ev)
    assert all(a.cooldown.count({"fatigue": "light"}) == 2 and a.tenacity == tenacity[o] + 1
               for o, a in s.adventurers.items())
    s, _ = next_day(s)
    if s.battle is None:
        s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    s, ev = lose_by_retreat(s)
    s, more = next_day(s)
    text = said(ev) + more
    assert "💀 The party fails the endgame's day 2 encounter, **The Barrow Host**." in text
    assert "The snow closes over Stonemere's roofs" in text and "The campaign is lost." in text
    assert s.journal.result == "lost"


# ------------------------------------------------------- the province effect --
def allowance(s) -> int:
    from rulesets.tes.outcomes.context import DayCtx
    from rulesets.tes.overland.travel import allowance as base

    return base(DayCtx(s, PACK, None))[0]


def end_of_day(s, forced=None):
    """The Reward Phase done (the last one with ``forced`` dice: the End of Day rolls them), then the rest."""
    words = []
    if s.days.ask is not None and s.days.ask.kind == "chosen":
        s, ev = run(s, "day.pick", RYAN, {"pick": "Shannon"})
        words.append(said(ev))
    while s.days.ask is not None and s.days.ask.kind == "reward":
        last = len(s.days.ask.owners) == 1
        s, ev = run(s, "reward.done", s.days.ask.owners[0], forced=forced if last else None)
        words.append(said(ev))
    s = finish_day(s, events := [])
    return s, "\n".join(words + [said(events)])


@pytest.mark.parametrize("card,before,after,icon", [
    ("ip-p02", "peaks", "passes", "Rain"),  # Sleet on the Switchbacks
    ("ip-p05", "peaks", "whiteout", "Storm"),  # The Slide
    ("ip-p07", "frost", "whiteout", "Storm"),  # Drifts over Frostgate
    ("ip-p01", "whiteout", "peaks", "Clear Sky"),  # The Charcoal Burners
    ("ip-p08", "passes", "peaks", "Clear Sky"),  # The Thaw Runners
])
def test_the_days_peaceful_card_moves_the_snowline_and_the_party_walks_as_far_as_it_says(card, before, after, icon):
    s, _ = at_card(card)
    s.days.gauge = before
    if s.days.ask.kind == "card":  # (Drifts over Frostgate: digging in needs tenacity; going round is taken at once)
        s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    extra = sum(e.get("amount", 1) for e in PACK.overland_cards[card].choices[0].effects if e["type"] == "movement")
    s, text = end_of_day(s)
    name = PACK.overland_cards[card].name
    step = PROV.effect.step(after)
    moved = "stays on" if before == after else "moves to"
    assert f"❄️ The Snowline: {name} shows {icon}. The Snowline gauge {moved} {step.name}. {step.text}" in text
    assert s.days.gauge == after and allowance(s) == step.movement + extra
    assert f"Today the party moves up to {count(step.movement + extra, 'hex')}" in text


def test_hard_frost_lets_the_party_walk_4_hexes_and_a_card_without_icons_leaves_it():
    s, text = at_card("ip-p04", landmark="unstable")  # only the marker poles at an unstable landmark
    assert "Only one way is open: **Follow the marker poles**" in text
    assert "The Frozen Tarn: Follow the marker poles: the Snowline gauge moves to Hard Frost." in text
    assert all(a.cooldown.count({"fatigue": "over"}) == 1 for a in s.adventurers.values())
    s, text = end_of_day(s)
    assert "The Frozen Tarn shows no icon. The weather holds: nothing changes." in text
    assert s.days.gauge == "frost" and allowance(s) == 4
    assert "Today the party moves up to 4 hexes" in text
    s, ev = run(s, "day.route", RYAN, {"to": list(CINDERHOLLOW)})  # (3,5) → (5,3): 2 hexes, well within 4
    assert s.days.ask is not None


def test_the_pass_crew_clears_the_road_or_leaves_the_passes_snowed_in():
    s, _ = at_card("ip-p06")
    s.days.gauge = "whiteout"
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert s.days.gauge == "peaks"
    s, text = end_of_day(s)
    assert "The Pass Crew shows no icon. The weather holds: nothing changes." in text and s.days.gauge == "peaks"
    def tenacious(state):
        for a in state.adventurers.values():
            a.tenacity = 2
    s, text = at_card("ip-p06", landmark="unstable", setup=tenacious)
    assert "Only one way is open: **Leave them to it**" in text
    assert s.days.gauge == "passes" and allowance(s) == 2
    # 2 tenacity, 1 lost to the card, 2 gained at the unstable landmark
    assert all(a.tenacity == 3 for a in s.adventurers.values())


def test_the_moon_sends_the_white_wolf_roaming_by_the_compass_and_it_bites_when_it_reaches_the_party():
    s, _ = at_card("ip-p03")  # The Hermit of Glasswater shows the moon; the party is at (1,6)
    wolf = next(t for t in s.days.tokens if t.id == "white-wolf")
    wolf.q, wolf.r = 3, 6  # two hexes east of the party
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    hp = {o: a.hp for o, a in s.adventurers.items()}
    s, text = end_of_day(s, forced=[4])  # face 4: west
    assert ("The Snowline: The Hermit of Glasswater shows Moon. Moon: the White Wolf roams 2 hexes in the direction "
            "rolled. If it ends in the party's hex, each adventurer is dealt 1 damage driving it off.") in text
    assert "The compass die rolls 4: W." in text
    assert "The White Wolf moves 2 hexes: 3,6 → 2,6 → 1,6." in text and "The White Wolf reaches the party." in text
    assert "The White Wolf: Ryan is dealt 1 damage (3/4 HP)." in text
    assert "The White Wolf: Shannon is dealt 1 damage (4/5 HP)." in text
    wolf = next(t for t in s.days.tokens if t.id == "white-wolf")
    assert (wolf.q, wolf.r) == (1, 6) and hp == {RYAN: 4, SHANNON: 5}


def test_the_white_wolf_roaming_elsewhere_leaves_the_party_alone_and_stops_at_the_maps_edge():
    s, _ = at_card("ip-p03")
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, text = end_of_day(s, forced=[5])  # face 5: north-west, from 1,0 off the map at once
    assert "The compass die rolls 5: NW." in text
    assert "The White Wolf has nowhere to move and stays at 1,0." in text
    assert "reaches the party" not in text and "The White Wolf:" not in text
    s, _ = at_card("ip-p03")
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    s, text = end_of_day(s, forced=[2])  # face 2: south-east, 2 hexes and far from the party
    assert "The compass die rolls 2: SE." in text and "The White Wolf moves 2 hexes: 1,0 → 1,1 → 1,2." in text
    assert "reaches the party" not in text


# ---------------------------------------------------------- closed towns --
def test_drifts_close_frostgate_and_the_thaw_runners_open_it():
    s, text = at_card("ip-p07")  # the party has no tenacity: it cannot dig a way in
    assert "not open: needs 2 tenacity in the party (it has 0)" in text
    assert "Only one way is open: **Go round it**" in text
    assert "Drifts over Frostgate: Go round it: Frostgate is closed; the party cannot enter it." in text
    assert s.days.closed == ["frostgate"] and s.days.extra_move == 1
    s = finish_day(s)
    s.days.party = [6, 2]  # next to it
    assert "Frostgate is closed" in refused(s, "day.route", RYAN, {"to": list(FROSTGATE)})
    s, _ = at_card("ip-p08")
    s.days.closed = ["frostgate"]
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "The Thaw Runners: Help them break the road: Frostgate is open again." in said(ev)
    assert s.days.closed == []


def test_digging_into_frostgate_keeps_it_open():
    def tenacious(state):
        state.adventurers[RYAN].tenacity = 2
    s, _ = at_card("ip-p07", setup=tenacious)
    s, ev = run(s, "day.choose", RYAN, {"choice": 2})
    assert "Drifts over Frostgate: Dig a way in: Ryan gains 1 overfatigue." in said(ev)
    assert s.days.closed == []


def test_fire_in_the_sawpits_lost_or_left_alone_closes_tarnwick():
    s, _ = at_card("ip-c06")
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "Reaver Chief (level 5) in hex 3,4" in said(ev)  # the last numbered hex
    assert s.battle.objective == "eliminate" and s.battle.objective_units == ["reaver-chief"]
    s, ev = lose_by_retreat(s)
    assert "Fire in the Sawpits: Defend Tarnwick: Tarnwick is closed; the party cannot enter it." in said(ev)
    assert s.days.encounter.result == "failed" and s.days.closed == ["tarnwick"]
    s, _ = at_card("ip-c06")
    s, _ = run(s, "day.choose", RYAN, {"choice": 3})  # Stay out of it
    s = finish_day(s)
    assert "Tarnwick is closed" in refused(s, "day.route", RYAN, {"to": list(TARNWICK)})


# ---------------------------------------------------------- battles lost --
@pytest.mark.parametrize("card,check", [
    ("ip-c03", "fear"),  # The Barrow Opens
    ("ip-c05", "over"),  # The Troll Under the Bridge
    ("ip-c07", "over"),  # Something in the Deep Shaft
    ("ip-c08", "bane"),  # The Witch of the Widow Pines
])
def test_a_lost_ironpine_battle_does_what_its_text_says_about_losing(card, check):
    s, _ = at_card(card)
    s, _ = run(s, "day.choose", RYAN, {"choice": 1})
    over = {o: a.cooldown.count({"fatigue": "over"}) for o, a in s.adventurers.items()}
    s, ev = lose_by_retreat(s)
    text = said(ev)
    name = PACK.overland_cards[card].name
    title = PACK.overland_cards[card].choices[0].title
    assert s.days.encounter.result == "failed" and "no rewards" in text
    for o, a in s.adventurers.items():
        if check == "over":
            assert a.cooldown.count({"fatigue": "over"}) == over[o] + 1, o
            assert f"{name}: {title}: {a.name} gains 1 overfatigue." in text
        else:
            assert {"status": check} in a.cooldown, o
            assert f"{name}: {title}: {a.name} gains {check}." in text


def test_the_card_battles_deploy_their_named_enemies_and_bags():
    s, ev = run(at_card("ip-c03")[0], "day.choose", RYAN, {"choice": 1})
    assert "Barrow Thane (level 5) in hex A (5,2), free of the pool" in said(ev)
    assert s.battle.objective_units == ["barrow-thane"]
    s, ev = run(at_card("ip-c05")[0], "day.choose", RYAN, {"choice": 1})
    troll = next(u for u in enemies(s) if u.enemy == "snow-troll")
    assert troll.slot == 6 and s.battle.objective_units == ["snow-troll"]  # the last numbered hex
    s, ev = run(at_card("ip-c07")[0], "day.choose", RYAN, {"choice": 1})
    assert "1 level 1 enemy per adventurer" in said(ev) and len(enemies(s)) == 2
    assert all(u.enemy in PACK.encounters["ip-deep-shaft"].bag for u in enemies(s))
    s, ev = run(at_card("ip-c01")[0], "day.choose", RYAN, {"choice": 1})
    assert "snow-wolf" in [u.enemy for u in enemies(s)]
    assert all(PACK.enemies[u.enemy].province in (None, "IP") for u in enemies(s))


def test_the_deep_shaft_and_the_rimefall_cost_fatigue_as_their_rules_say():
    s, ev = run(at_card("ip-c04")[0], "day.choose", RYAN, {"choice": 1})
    assert "Ambush at the Rimefall: Ryan gains 1 light fatigue." in said(ev)  # the cold bites at the start
    s, _ = run(at_card("ip-c07")[0], "day.choose", RYAN, {"choice": 1})
    no = s.battle.round
    words = []
    while s.battle is not None and s.battle.round == no:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
        words.append(said(ev))
    assert "Something in the Deep Shaft: Ryan gains 1 light fatigue" in "\n".join(words)  # stone dust, round 2


@pytest.mark.parametrize("enc,extra_hp,hidden", [
    ("ip-wolf-ridge", 1, False), ("ip-widow-pines", 1, False), ("ip-sawpit-raid", 0, True),
])
def test_the_challenge_modifiers_with_three_adventurers(enc, extra_hp, hidden):
    s = party()
    s, _ = battle_run(s, "campaign.join", "T")
    s, _ = battle_run(s, "adventurer.create", "T", {"name": "Tova", "race": "nord", "line": "one-hand-and-shield"})
    s, ev = battle_run(s, "battle.start", "S", {"encounter": enc, "ep": 3})
    assert "3/4-adventurer challenge (in play)" in texts(ev)
    for u in [x for x in s.battle.units.values() if x.side == "enemy"]:
        assert u.max_hp == PACK.enemies[u.enemy].health + extra_hp, (enc, u.enemy)
        assert ("stealth" in u.statuses) == (hidden or "lurk" in [k.id for k in PACK.enemies[u.enemy].skills])


def test_the_barrow_dead_heal_at_the_start_of_each_round_with_three_adventurers():
    s = party()
    s, _ = battle_run(s, "campaign.join", "T")
    s, _ = battle_run(s, "adventurer.create", "T", {"name": "Tova", "race": "nord", "line": "one-hand-and-shield"})
    s, _ = battle_run(s, "battle.start", "S", {"encounter": "ip-barrow-open", "ep": 3})
    foe = next(u for u in s.battle.units.values() if u.side == "enemy"
               and not any(k.id == "regenerate" for k in PACK.enemies[u.enemy].skills))
    foe.hp = foe.max_hp - 2
    no = s.battle.round
    while s.battle is not None and s.battle.round == no:
        s, ev = battle_run(s, "battle.endturn", s.battle.turn.owner, forced=[1] * 40)
    assert s.battle.units[foe.id].hp == foe.max_hp - 1
    assert f"(3/4-adventurer challenge): {foe.name} heals 1 HP" in texts(ev)


# ------------------------------------------------ requirements and unstable landmarks --
def test_choices_the_party_does_not_meet_cannot_be_chosen():
    s, text = at_card("ip-c08")  # nobody is trained in Speech
    assert "not open: needs an adventurer trained in Speech" in text
    s, text = at_card("ip-c06")
    assert "needs 3 tenacity in the party (it has 0)" in refused(s, "day.choose", RYAN, {"choice": 2})
    def worn(state):
        state.adventurers[RYAN].hp = 2
    s, text = at_card("ip-c03", setup=worn)  # 2 HP, 1 back from the rest: 3 is enough
    s.adventurers[RYAN].hp = 2
    assert "needs every adventurer to have at least 3 HP" in refused(s, "day.choose", RYAN, {"choice": 3})


def test_the_slide_at_an_unstable_landmark_buries_each_unless_it_would_defeat_them():
    def low(state):
        state.adventurers[RYAN].hp = 1
    s = day_two(setup=low)
    s.adventurers[RYAN].hp = 1  # after the night's rest
    s = stack(s, "ip-p05")
    s, ev = run(s, "day.route", RYAN, {"to": LANDMARK_HEX["unstable"]})
    s, more = run(s, "day.vote", SHANNON, {}, forced=[UNSTABLE_DIE["peaceful"]])
    text = said(ev + more)
    assert "Only one way is open: **Outrun the slide**" in text
    assert "The Slide: Outrun the slide: Ryan: Gain 2 light fatigue." in text  # 2 damage would defeat him
    assert "The Slide: Outrun the slide: Shannon: Take 2 damage." in text
    assert s.adventurers[RYAN].hp == 1 and s.adventurers[RYAN].cooldown.count({"fatigue": "light"}) == 2
    assert s.adventurers[SHANNON].hp == 3


def test_ambush_at_the_rimefall_at_an_unstable_landmark_must_be_fought():
    s, text = at_card("ip-c04", landmark="unstable")
    assert "rolls the unstable die: 1" in text
    assert "Only one way is open: **Charge the trees**" in text
    assert s.battle is not None and s.battle.encounter == "ip-pass-ambush"


# -------------------------------------------------------------- the towns --
def test_stonemere_has_every_feature_and_its_cold_plunge_recovers_2_light_fatigue():
    s = day_two()
    s = stack(s, "ip-p01")
    for a in s.adventurers.values():
        a.cooldown = [{"fatigue": "light"}, {"fatigue": "over"}, {"fatigue": "light"}, {"fatigue": "light"}]
    s, ev = run(s, "day.route", RYAN, {"stay": True})
    text = said(ev)
    assert "🏰 Town encounter: Stonemere. A lake town of grey stone" in text
    assert "Each adventurer has 2 town actions (shop, trainer, inn, alchemy, kiosk, square, board)." in text
    assert "🛒 The shop reveals 6 cards" in text and "🎓 The trainer offers: " in text
    s, ev = run(s, "town.visit", RYAN, {"feature": "square"})
    assert "The Cold Plunge" in said(ev) and "Ryan recovers 2 light fatigue" in said(ev)
    assert s.adventurers[RYAN].cooldown == [{"fatigue": "over"}, {"fatigue": "light"}]
    assert "once per visit" in refused(s, "town.visit", RYAN, {"feature": "square"})


def test_cinderhollow_puts_strangers_to_work_once_and_sells_in_lots():
    s, text = at_town(CINDERHOLLOW, stack_cards=["iron-sword", "travel-bread", "leather-cap", "spiced-mead"])
    assert "Town effect — A Shift at the Face: The foremen are short of hands" in text
    assert "A Shift at the Face: Ryan gains 1 light fatigue." in text
    assert "A Shift at the Face: Shannon gains 1 bonus XP (1 unspent)." in text
    assert all(a.saved_xp == 1 and a.cooldown.count({"fatigue": "light"}) == 1 for a in s.adventurers.values())
    assert "cinderhollow" in s.days.once
    assert "Ore Market: the miners sell in lots, so a shop action takes 2 of the drawn cards instead of 1." in text
    assert "is a faded constellation here: it is set aside" in text  # Mage is faded out
    assert "Each adventurer has 2 town actions (shop, trainer, inn, alchemy)." in text
    s, ev = run(s, "town.visit", RYAN, {"feature": "shop", "item": "Iron Sword, Travel Bread"})
    assert sorted(s.adventurers[RYAN].ready + s.adventurers[RYAN].pack) == ["iron-sword", "travel-bread"]
    assert "Cinderhollow has no guild kiosk" in refused(s, "town.visit", SHANNON, {"feature": "kiosk"})


def test_the_shift_at_the_face_is_worked_once_a_session():
    s, _ = at_town(CINDERHOLLOW)
    for o in (RYAN, SHANNON):
        s, _ = run(s, "town.done", o)
    s = finish_day(s)
    s, ev = run(s, "day.route", RYAN, {"stay": True})
    text = said(ev)
    assert "🏰 Town encounter: Cinderhollow." in text and "A Shift at the Face" not in text


@pytest.mark.parametrize("pick,light,tenacity", [("1", 1, 3), ("2", 0, 1)])
def test_hightor_keeps_wardens_ask_the_partys_business(pick, light, tenacity):
    def lucky(state):
        for a in state.adventurers.values():
            a.tenacity = 2
    s, text = at_town(HIGHTOR, start=(1, 2), setup=lucky)
    assert "Town effect — The Wardens' Question: The gate wardens want to know your business" in text
    assert s.days.ask.kind == "town-effect"
    s, ev = run(s, "day.pick", RYAN, {"pick": pick})
    assert f"The party chooses: {['Stand a watch', 'Give a false name'][int(pick) - 1]}" in said(ev)
    for a in s.adventurers.values():
        assert a.cooldown.count({"fatigue": "light"}) == light and a.tenacity == tenacity
    assert "hightor" in s.days.once and s.days.ask.kind == "town"
    assert "Hightor Keep has no alchemy station" in refused(s, "town.visit", RYAN, {"feature": "alchemy"})


def test_tarnwicks_resin_fire_heals_2_and_gives_1_tenacity():
    def hurt(state):
        state.adventurers[SHANNON].hp = 1
    s, text = at_town(TARNWICK, setup=hurt)
    assert "Each adventurer has 2 town actions (shop, trainer, inn, square)." in text
    s, ev = run(s, "town.visit", SHANNON, {"feature": "square"})
    assert "The Resin Fire" in said(ev)
    assert s.adventurers[SHANNON].hp == 4 and s.adventurers[SHANNON].tenacity == 1  # 1, 1 from the rest, 2


def test_frostgates_hearth_is_a_group_action_and_recovers_2_fatigue_each():
    s, text = at_town(FROSTGATE, start=(6, 2))
    assert "Each adventurer has 2 town actions (inn, trainer, square)." in text and "🛒" not in text
    for a in s.adventurers.values():
        a.cooldown = [{"fatigue": "over"}, {"fatigue": "light"}, {"status": "daze"}]
    s, ev = run(s, "town.visit", RYAN, {"feature": "square"})
    assert "waiting for Shannon" in said(ev) and len(s.adventurers[RYAN].cooldown) == 3
    s, ev = run(s, "town.visit", SHANNON, {"feature": "square"})
    assert "The Herders' Hearth" in said(ev)
    assert all(a.cooldown == [{"status": "daze"}] for a in s.adventurers.values())


def test_the_ore_sledges_at_an_unstable_landmark_are_a_town_encounter():
    s = day_two()
    s = stack(s, "iron-sword", "travel-bread", "ebony-greaves", "bow", "speech", "shadow")
    s, _ = run(s, "day.route", RYAN, {"to": LANDMARK_HEX["unstable"]})
    s, ev = run(s, "day.vote", SHANNON, forced=[UNSTABLE_DIE["caravan"]])
    text = said(ev)
    assert "rolls the unstable die: 3, a traveling caravan" in text
    assert "🐂 A traveling caravan: The Ore Sledges — a town encounter." in text
    assert "🏰 Town encounter: The Ore Sledges. A train of sledges drawn by shaggy highland oxen" in text
    assert "The shop reveals 3 cards: Iron Sword, Travel Bread, Ebony Greaves" in text
    assert "The trainer offers: Bow, Speech, Shadow." in text
    assert "Each adventurer has 2 town actions (shop, trainer, alchemy)." in text
    s, ev = run(s, "town.visit", SHANNON, {"feature": "trainer", "line": "Speech"})
    assert "Shannon trains Speech" in said(ev)
    s, _ = run(s, "town.done", RYAN)
    s, ev = run(s, "town.done", SHANNON)
    assert "each adventurer gains 2 tenacity" in said(ev)


# ---------------------------------------------------------------- the map --
def ironpine_view():
    """Day 2 in the Ironpine: the party has walked from Stonemere to the Frozen Stair (the route drawn), and the
    White Wolf's last roam is shown."""
    from rulesets.tes.present.day_view import overland_view

    s = day_two()
    s = stack(s, "ip-p04")
    s, _ = run(s, "day.route", RYAN, {"to": [4, 4]})
    s, _ = run(s, "day.vote", SHANNON)
    wolf = next(t for t in s.days.tokens if t.id == "white-wolf")
    wolf.path, wolf.q, wolf.r = [[1, 0], [1, 1], [1, 2]], 1, 2
    return overland_view(s, PACK)


def test_a_session_in_the_ironpine_shows_its_map_readable_on_a_phone(monkeypatch):
    import io

    from PIL import Image

    from render import overland
    from test_phone_text import MIN_PX, PHONE_W, measure

    view = ironpine_view()
    assert view["title"] == "The Ironpine Highlands (IP)" and len(view["hexes"]) == 62
    assert [h["name"] for h in view["hexes"] if h.get("feature") == "town"] == [
        "Hightor Keep", "Frostgate", "Cinderhollow", "Tarnwick", "Stonemere"]
    assert [st["name"] for st in view["gauge"]["steps"]] == ["Snow on the Peaks", "Snow in the Passes", "Whiteout",
                                                              "Hard Frost"]
    width, seen = measure("overland", view, monkeypatch)
    drawn = {text for _px, _ink, text in seen}
    for words in ("The Ironpine Highlands (IP)", "Stonemere", "Cinderhollow", "Hightor Keep", "Tarnwick", "Frostgate",
                  "Snowline:", "Hard Frost · move 4", "White Wolf (NPC)", "Pine forest", "Mine workings", "2,5",
                  "-2,6"):
        assert words in drawn, words
    scale = PHONE_W / width
    small = sorted({(round(px * scale, 1), text) for px, _ink, text in seen if text.strip() and px * scale < MIN_PX})
    assert not small, small
    img = Image.open(io.BytesIO(overland.render_overland(view))).convert("RGB")
    lay = overland._Layout(view["hexes"])
    x, y = lay.centre(4, 4)  # the party token, left of the hex centre and below it (as the renderer draws it)
    x, y = int(x - lay.s * 0.36), int(y + overland.HEADER_H + lay.s * 0.24)
    assert img.getpixel((x, y + 12)) == overland.PARTY


def test_every_choice_has_a_promise():
    assert set(PROMISES) == set(IP_CHOICES)


@pytest.mark.parametrize("card_id,number", IP_CHOICES)
def test_every_ironpine_choice_keeps_the_promise_its_words_make(card_id, number):
    card = PACK.overland_cards[card_id]
    ch = card.choices[number - 1]
    s, _text, start = at_card(card_id, setup=test_day_cards.prepared, with_before=True)
    before = test_day_cards.snapshot(start)
    if s.days.ask is not None and s.days.ask.kind == "card":
        s, _ = run(s, "day.choose", RYAN, {"choice": number})
    if ch.check is not None:
        s, _ = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[3, 3])
        before = test_day_cards.snapshot(s)
        for o in list(s.days.ask.owners):
            s, _ = run(s, "day.check", o, {"tenacity": 0})
    xp = ch.xp
    if ch.outcome == "clash":
        s, before = test_day_cards.win_battle(s)
    if ch.outcome == "delve":
        s, before = test_day_cards.win_delve(s)
        xp += s.last_battle.skyshard_xp or 0  # an Uncover delve's skyshards: 1 XP each in the Reward Phase
    for _ in range(6):
        ask = s.days.ask
        if ask is None or ask.kind not in ("chosen", "either"):
            break
        if ask.kind == "chosen":
            s, _ = run(s, "day.pick", RYAN, {"pick": "Shannon"})
        else:
            for o in list(ask.owners):
                s, _ = run(s, "day.pick", o, {"pick": {RYAN: 1, SHANNON: 2}[o]})
    effects, party_ = promised(PROMISES[(card_id, number)])
    want = test_day_cards.expect(before, effects, {RYAN: 1, SHANNON: 2}, SHANNON, xp, False)
    after = test_day_cards.snapshot(s)
    if s.days.phase != "reward":  # nobody had XP to spend: the day went on to its end
        for o in (RYAN, SHANNON):
            want[o]["xp"] = min(3, want[o]["xp"])
    for o in (RYAN, SHANNON):
        for k in ("hp", "tenacity", "xp", "light", "over", "status", "dice", "items"):
            assert after[o][k] == want[o][k], (card_id, number, o, k, before[o][k], after[o][k], want[o][k])
    for k in ("extra_move", "skip_rest", "day", "xp_dial"):
        assert after["party"][k] == want["party"][k], (card_id, number, k)
    assert after["party"]["closed"] == sorted(party_["closed"])
    if party_["gauge"] is not None:
        assert after["party"]["gauge"] == party_["gauge"]
