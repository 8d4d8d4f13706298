"""Every overland card's every choice, played at its landmark: the state changes as its text says.

Each choice is taken through the actions (a social check passed with forced dice, the adventurer the party
chooses is Shannon, each adventurer's option picked, a clash won), and the party is compared with what the
choice's effects say, worked out here independently: HP, fatigue and status dice, tenacity, XP, items, the
next day's movement, the rest skipped, the Day Dial.  A delve choice starts the card's delve (``delve =`` on the
card) in the session's province, and its result feeds the card like a clash's; a choice marked manual shows its
text.  Cards added to the pack are covered as they come.
"""
from __future__ import annotations

import copy

import pytest

from day_helpers import RYAN, SHANNON, at_card, run, said, train
from rulesets.tes.content import load_pack

PACK = load_pack("starter")
# the Saltmire's and the general cards (at_card plays them in the Saltmire); tests/test_ironpine.py plays the
# Ironpine Highlands' cards with these same checks, in their own province
CHOICES = [(cid, ch.number) for cid, card in sorted(PACK.overland_cards.items()) if card.code in ("GE", "SM")
           for ch in card.choices]


def prepared(state):
    """Something for every effect to change: HP below the top, tenacity, dice on the tracks, Speech, Shadow,
    and a weapon in Shannon's pack (for a choice that needs one)."""
    train(state, SHANNON, "speech", ["stern-presence", "stern-presence"])
    train(state, SHANNON, "shadow", [], slot=(4, "R"))
    state.adventurers[SHANNON].pack.append("iron-sword")
    for adv in state.adventurers.values():
        adv.hp = adv.max_hp - 2
        adv.tenacity = 2
        first = next(iter(adv.dice))
        adv.cooldown = [{"fatigue": "light"}, {"fatigue": "light"}, {"status": "daze"}, {"die": first},
                        {"fatigue": "over"}]


def snapshot(state) -> dict:
    out = {}
    for o, a in state.adventurers.items():
        out[o] = {"hp": a.hp, "max": a.max_hp, "tenacity": a.tenacity, "xp": a.saved_xp,
                  "light": sum(1 for e in a.cooldown if e.get("fatigue") == "light"),
                  "over": sum(1 for e in a.cooldown if e.get("fatigue") == "over"),
                  "status": sorted(e["status"] for e in a.cooldown if "status" in e),
                  "dice": sum(1 for e in a.cooldown if "die" in e),
                  "items": len(a.ready) + len(a.pack) + (1 if a.holding else 0)}
    s = state.days
    out["party"] = {"extra_move": s.extra_move, "skip_rest": s.skip_rest, "day": state.day_dial,
                    "xp_dial": state.xp_dial, "closed": sorted(s.closed), "gauge": s.gauge}
    return out


def expect(before: dict, effects, picks: dict, chosen: str, xp: int, unstable: bool) -> dict:
    """What the effects' texts say the snapshot becomes."""
    out = copy.deepcopy(before)
    owners = [RYAN, SHANNON]

    def one(o: str, e: dict) -> None:
        a = out[o]
        n = e.get("amount", 1) if isinstance(e.get("amount", 1), int) else 1
        t = e["type"]
        if t == "damage":
            a["hp"] = max(0, a["hp"] - n)
        elif t == "heal":
            a["hp"] = min(a["max"], a["hp"] + n)
        elif t == "fatigue":
            if a["hp"] > 0:
                a["light" if e["kind"] == "light" else "over"] += n
        elif t == "tenacity":
            a["tenacity"] = min(5, a["tenacity"] + n)
        elif t == "lose-tenacity":
            a["tenacity"] = max(0, a["tenacity"] - n)
        elif t == "bonus-xp":
            a["xp"] += n
        elif t == "draw-item":
            a["items"] += n
        elif t == "status":
            if e["status"] not in a["status"]:
                a["status"] = sorted(a["status"] + [e["status"]])
        elif t == "recover":
            what = e["what"]
            keys = {"light-fatigue": ["light"], "overfatigue": ["over"], "fatigue": ["light", "over"],
                    "skill": ["dice"], "status": ["status"]}.get(what, ["light", "over", "dice", "status"])
            left = n
            for k in keys:
                have = len(a[k]) if k == "status" else a[k]
                take = min(left, have)
                if k == "status":
                    a[k] = a[k][take:]
                else:
                    a[k] -= take
                left -= take
        elif t == "choose":
            k = picks.get(o, 1)
            if unstable and e.get("unstable"):
                k = e["unstable"]
            for sub in e["options"][k - 1]["effects"]:
                one(o, sub)
        else:
            raise AssertionError(f"no expectation for effect {t}")

    for e in effects:
        t = e["type"]
        if t == "movement":
            out["party"]["extra_move"] += e.get("amount", 1)
        elif t == "skip-rest":
            out["party"]["skip_rest"] = True
        elif t == "lose-day":
            out["party"]["day"] += 1
        elif t in ("close-town", "open-town", "gauge", "manual"):
            pass
        else:
            for o in ([chosen] if e.get("who") == "chosen" else owners):
                one(o, e)
    out["party"]["xp_dial"] += xp
    for o in owners:
        out[o]["xp"] += xp
    return out


def win_battle(s):
    """Every enemy falls; the adventurers end their turns until the round ends in a victory."""
    for u in s.battle.units.values():
        if u.side == "enemy":
            u.hp, u.defeated, u.fell_at = 0, True, [u.q, u.r]
            u.q = u.r = None
    last = None
    for _ in range(6):
        if s.battle is None:
            break
        last = snapshot(s)
        owner = s.battle.turn.owner
        s, ev = run(s, "battle.endturn", owner)
    assert s.battle is None and s.last_battle.outcome == "victory"
    return s, last


def win_delve(s):
    """The delve's skyshards are gained (the delve's own tests play exploring them), an Uncover delve's party
    retreats with them, and the round ends in a victory."""
    b = s.battle
    b.delve.gained = b.delve.required
    if PACK.encounters[b.encounter].objective == "uncover":
        s, _ = run(s, "battle.retreat", s.leader)
    last = None
    for _ in range(6):
        if s.battle is None:
            break
        last = snapshot(s)
        s, ev = run(s, "battle.endturn", s.battle.turn.owner)
    assert s.battle is None and s.last_battle.outcome == "victory" and s.last_battle.mode == "delve"
    return s, last


def in_its_delve(s, card) -> None:
    """The battle is the card's delve, begun in the session's province: its deck holds the general delve cards and
    that province's."""
    b = s.battle
    assert b is not None and b.encounter == card.delve and b.delve is not None
    assert b.delve.province == s.days.code
    deck = set(b.delve.deck) | set(b.delve.discard) | {spot.card for spot in b.delve.cards.values()}
    assert {PACK.delve_cards[k].province for k in deck} <= {None, s.days.code}
    assert deck >= {k for k, dc in PACK.delve_cards.items() if dc.province in (None, s.days.code)}


@pytest.mark.parametrize("card_id,number", CHOICES)
def test_every_card_choice_does_what_its_text_says(card_id, number):
    card = PACK.overland_cards[card_id]
    ch = card.choices[number - 1]
    s, text, start = at_card(card_id, setup=prepared, with_before=True)
    assert f"**{card.name}** ({card.label}): {card.story}" in text
    assert f"{ch.number}. " in text and ch.text in text  # every choice's text is shown to the party
    before = snapshot(start)  # the party set out from here (a single open choice is taken at once)
    if s.days.ask is not None and s.days.ask.kind == "card":
        s, ev = run(s, "day.choose", RYAN, {"choice": number})
    else:  # the only open choice was taken already
        assert s.days.encounter.choice == number
    effects = list(ch.effects)
    if ch.check is not None:
        assert s.days.ask.kind == "check-dice"
        s, ev = run(s, "day.check", SHANNON, {"all": True, "dice": []}, forced=[3, 3])  # 2 + 2
        before = snapshot(s)  # the check's dice are exhausted, not the choice's doing
        assert s.days.ask.kind == "check-tenacity"
        for o in list(s.days.ask.owners):
            s, ev = run(s, "day.check", o, {"tenacity": 0})
        assert s.days.encounter.check.result == "success"
        if ch.check.mode == "bonus":
            effects += list(ch.check.effects)
    if ch.outcome == "clash":
        assert s.battle is not None and s.battle.encounter == card.encounter
        s, before = win_battle(s)  # what the battle itself changed is not the card's doing
    xp = ch.xp
    if ch.outcome == "delve":
        in_its_delve(s, card)
        s, before = win_delve(s)
        xp += s.last_battle.skyshard_xp or 0  # an Uncover delve's skyshards: 1 XP each in the Reward Phase
    picks = {RYAN: 1, SHANNON: 2}
    for _ in range(6):
        ask = s.days.ask
        if ask is None or ask.kind not in ("chosen", "either"):
            break
        if ask.kind == "chosen":
            s, _ = run(s, "day.pick", RYAN, {"pick": "Shannon"})
        else:
            for o in list(ask.owners):
                s, _ = run(s, "day.pick", o, {"pick": picks[o]})
    enc = s.days.encounter
    assert enc.result == "success", (card_id, number, said([]))
    after = snapshot(s)
    if s.days.phase == "reward":  # the Reward Phase's first step has given the choice's XP
        want = expect(before, effects, picks, SHANNON, xp, False)
    else:  # nobody had XP to spend: the day went on to its end
        want = expect(before, effects, picks, SHANNON, xp, False)
        for o in (RYAN, SHANNON):
            want[o]["xp"] = min(3, want[o]["xp"])
    for o in (RYAN, SHANNON):
        for k in ("hp", "tenacity", "xp", "light", "over", "status", "dice", "items"):
            assert after[o][k] == want[o][k], (card_id, number, o, k, before[o][k], after[o][k], want[o][k])
    for k in ("extra_move", "skip_rest", "day", "xp_dial"):
        assert after["party"][k] == want["party"][k], (card_id, number, k)


def explore_a_skyshard(s):
    """Ryan (on the entrance's door hex 1,0) explores it: the Skyshard Grotto reveals the Eel Pool, placed where
    the party is offered first; he walks onto the pool and gains its skyshard."""
    from delve_helpers import on_top, tiles_first
    from engine.hexes import Hex
    from rulesets.tes.battle.model import Ctx

    assert s.battle.turn.owner == RYAN and (s.battle.units["a:ryan"].q, s.battle.units["a:ryan"].r) == (1, 0)
    on_top(s, "skyshard-grotto")
    tiles_first(s, PACK.tiles["pool-7c"].shape, "pool-7c")
    s, ev = run(s, "battle.explore", RYAN, {}, forced=[1])
    text = said(ev)
    s, ev = run(s, "battle.place", RYAN, {"place": 1}, forced=[1])
    text += "\n" + said(ev)
    c = Ctx(s, PACK, None)
    into = min((h for h in c.map.passable if c.map.tile_of[h] == "pool-7c" and c.occupant(h) is None),
               key=lambda h: (c.range_to(Hex(1, 0), h), h.q, h.r))
    s, ev = run(s, "battle.move", RYAN, {"to": [into.q, into.r]})
    text += "\n" + said(ev)
    assert "Ryan explores hex 1,0 and draws **Skyshard Grotto** (GE-02)" in text
    assert "Eel Pool (tile 1) connects to hex 1,0" in text
    assert "Ryan gains the skyshard of Skyshard Grotto: 1/3 skyshards" in text
    assert s.battle.delve.gained == 1
    return s


def end_round(s):
    texts = []
    no = s.battle.round
    while s.battle is not None and s.battle.round == no:
        s, ev = run(s, "battle.endturn", s.battle.turn.owner)
        texts.append(said(ev))
    return s, "\n".join(texts)


def test_a_delve_choice_plays_the_cards_delve_and_its_victory_resolves_the_card():
    """Tomb Robbers' "Follow them down" goes below ground: the Brinehollow Caves (Survey), begun in the session's
    province.  Ryan explores a skyshard; once every skyshard is gained the delve is won at the end of the round, and
    the card is resolved: its 3 XP in the Reward Phase."""
    card = PACK.overland_cards["ge-c04"]
    s, _text = at_card("ge-c04")
    xp_dial = s.xp_dial
    s, ev = run(s, "day.choose", RYAN, {"choice": 1})
    assert "The delve deck holds 27 cards (general and SM)" in said(ev)
    in_its_delve(s, card)
    s = explore_a_skyshard(s)
    s.battle.delve.gained = 3  # the other two skyshards (the delve's own tests play finding them)
    s, text = end_round(s)
    assert "🏆 Victory!" in text and "The delve is taken apart" in text
    assert s.battle is None and s.last_battle.mode == "delve" and s.last_battle.outcome == "victory"
    enc = s.days.encounter
    assert enc.result == "success" and enc.xp == 3
    assert "Tomb Robbers is resolved: ☼ 3 XP in the Reward Phase." in text
    assert f"The party gains 3 XP: the XP Dial turns from {xp_dial} to {xp_dial + 3}" in text
    assert "skyshard" not in text.split("☼ Reward Phase.")[1]  # a Survey's skyshards are not worth XP


def test_an_uncover_delve_left_early_fails_the_card_and_its_skyshards_still_give_xp():
    """The Salt Wraith's "Follow it home": the Sunken Vaults (Uncover).  With one skyshard of three the party
    retreats: the card is failed (no 4 XP), but the skyshard is worth 1 XP in the Reward Phase (pp.43, 86)."""
    card = PACK.overland_cards["sm-c03"]
    s, _text = at_card("sm-c03")
    xp_dial = s.xp_dial
    saved = {o: s.adventurers[o].saved_xp for o in (RYAN, SHANNON)}
    s, _ = run(s, "day.choose", RYAN, {"choice": 2})
    in_its_delve(s, card)
    s = explore_a_skyshard(s)
    s, _ = run(s, "battle.retreat", RYAN)
    s, text = end_round(s)
    assert s.last_battle.outcome == "retreat" and s.last_battle.skyshard_xp == 1
    assert "Skyshards gained: 1/3. They are worth 1 XP in the Reward Phase." in text
    enc = s.days.encounter
    assert enc.result == "failed" and enc.xp == 0
    assert "The Salt Wraith is failed." in text
    reward = text.split("☼ Reward Phase.")[1]
    assert "The encounter was failed: no rewards for it, but an Uncover delve's skyshards count." in reward
    assert f"1 skyshard gained in the Uncover delve, 1 XP each. The party gains 1 XP: the XP Dial turns from " \
           f"{xp_dial} to {xp_dial + 1}" in reward
    assert s.xp_dial == xp_dial + 1
    assert s.days.phase == "reward" and all(s.adventurers[o].saved_xp == saved[o] + 1 for o in (RYAN, SHANNON))
    assert "Untrain and spend XP: Ryan has 1 XP, Shannon has 1 XP." in reward


def test_every_card_names_what_exists_and_the_decks_are_complete():
    prov = PACK.provinces["saltmire"]
    for kind in ("peaceful", "conflict"):
        assert prov.cards[kind], kind
        assert any(c.code == "GE" and c.kind == kind for c in PACK.overland_cards.values())
    for card in PACK.overland_cards.values():
        if card.kind == "peaceful":
            assert all(i in PACK.overland_icons for i in card.icons)
        if any(ch.outcome == "clash" for ch in card.choices):
            assert card.encounter in PACK.encounters
