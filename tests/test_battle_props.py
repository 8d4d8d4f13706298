"""Property test: random legal-or-refused action sequences keep the battle's invariants."""
from __future__ import annotations

from battle_helpers import jailbreak, party, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.tes.battle.model import on_map, pos
from rulesets.tes.content import encounter_map, load_pack
from engine.core import RuleError

PACK = load_pack("starter")
HEXES = ["-1,2", "0,2", "0,1", "1,1", "-1,1", "0,3", "3,2", "3,3", "2,2", "4,2", "1,0", "0,0"]
TARGETS = ["e1", "e2", "HEB1", "AB2"]
DICE = ["combat", "shield-discipline", "2 shield-discipline", "force-shock", "2 force-shock", "combat, force-shock"]
FORMS = ["light", "defensive", "magic", "ranged", "heavy"]

step = st.one_of(
    st.tuples(st.just("battle.move"), st.sampled_from(HEXES)),
    st.tuples(st.just("battle.engage"), st.tuples(st.sampled_from(FORMS), st.sampled_from(TARGETS + [""]),
                                                 st.sampled_from(DICE))),
    st.tuples(st.just("battle.resolve"), st.sampled_from(["", "none", "1", "2,1"])),
    st.tuples(st.just("battle.endturn"), st.none()),
    st.tuples(st.just("battle.escape"), st.none()),
    st.tuples(st.just("battle.drop"), st.sampled_from([1, 2])),
)


def check(s, dice_total):
    b = s.battle
    if b is None:
        return
    seen = set()
    for u in b["units"].values():
        if on_map(u):
            h = pos(u)
            assert h not in seen, "two units in one hex"
            seen.add(h)
            m = encounter_map(PACK, b["encounter"])
            assert (h.q, h.r) in m.hexes and (h.q, h.r) not in m.impassable
    for owner, a in s.adventurers.items():
        assert 0 <= a.hp <= a.max_hp
        assert len(a.cooldown) <= PACK.mat.cooldown_track_size
        assert len(a.active) <= PACK.mat.active_slots
        assert 0 <= a.tenacity <= PACK.mat.tenacity_max
        held = b.get("pending") or {}
        # die ids are per adventurer ("d1" for everyone): only the roller's pending dice count here
        pending = {d["die"] for d in held.get("dice", []) if d.get("die")} if held.get("owner") == owner else set()
        actives = {e["die"] for x in s.adventurers.values() for e in x.active}
        where = {}
        for d in a.dice:
            places = [d in a.available_dice() and d not in pending, d in pending,
                      sum(1 for e in a.cooldown if e.get("die") == d), d in a.drained, d in a.away,
                      d in a.placed]
            where[d] = sum(int(p) for p in places)
            if d in a.away:
                assert d in actives, "a die marked active sits in no active slot"
            if d in a.placed:
                on_chips = [x for u in b["units"].values() for x in (u.get("status_dice") or {}).values()]
                assert {"owner": owner, "die": d} in on_chips, "a placed die sits on no chip"
        assert len(a.dice) == dice_total[owner]
        for d, n in where.items():
            assert n == 1, f"die {d} is in {n} places"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=40), st.lists(st.integers(1, 6), min_size=60, max_size=60))
def test_random_actions_keep_invariants(steps, rolls):
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.forced = list(rolls)
    totals = {o: len(a.dice) for o, a in s.adventurers.items()}
    for kind, arg in steps:
        if s.battle is None:
            break
        actor = (s.battle.get("await") or {}).get("owner") or (s.battle.get("turn") or {}).get("owner") or "S"
        args = {}
        if kind == "battle.move":
            args = {"to": arg}
        elif kind == "battle.engage":
            form, target, dice = arg
            args = {"form": form, "dice": dice} | ({"target": target} if target else {})
        elif kind == "battle.resolve":
            args = {"order": arg} if arg else {}
        elif kind == "battle.drop":
            args = {"slot": arg}
        try:
            s, _ = run(s, kind, actor, args)
        except RuleError:
            pass
        if s.battle and s.battle.get("await"):
            s, _ = run(s, "battle.prevent", s.battle["await"]["owner"], {"use": "auto"})
        if len(s.forced) < 20:
            s.forced = s.forced + list(rolls)
        check(s, totals)
