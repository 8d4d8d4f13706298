"""Fuzzing imported logs action by action: every action type of both rulesets, with plausible, largest and
hostile options, by the right and the wrong people, inserted into real campaigns' logs.

Bases: an Elder Scrolls campaign between battles (a guided draft open, items held), the same in a battle (a roll
to resolve, a cache on the map), and a skirmish in muster and in battle.  For each file a fixed-seed generator
picks an action type of the base's ruleset (lockpick, items, abilities, the guide, update, rest, adjust, prompts'
time-outs, every /skirmish action, the party's actions), options for it from its declared bounds (engine.bounds)
and from the campaign (its units, fighters, items, classes, hexes), an actor (the leader, a member, someone
outside the party, acting for someone or not) and a place in the log.  The claimed state is the replay of the
file's log when it replays, else the base's.  Each file goes through ``/campaign import`` as a file from Discord:
it is imported and then equals the replay of its own log, or it is refused in words; a refusal writes nothing,
nothing ends as an internal error.  The count of files, the worst time and the worst memory are printed.
"""
from __future__ import annotations

import copy
import logging
import random
import sqlite3
import time
import tracemalloc

from commands.transfer import attach
from engine import bounds as B
from engine import rulesets
from engine.core import Action
from engine.service import replay
from helpers.exports import LEAD, SIL, THIRD, Played, doc_of, long_campaign, opened, raw

FILES = 600
SEED = 20261125
OUTSIDER = "1009"
HOSTILE = [2**62, -(2**62), "x" * 300, "@everyone [x](http://e.example)", [7] * 5000, {"a": [1] * 300}, None,
           True, 1.5, [], "", [[2**40, 2**40]]]


def tes_bases() -> list[Played]:
    calm = opened()
    assert calm.do(Action("adventurer.draft", THIRD, {"op": "start", "draft": "ab12cd34", "name": "Kaya"}))
    fight = long_campaign(40)
    while fight.state.battle is None:
        fight = long_campaign(len(fight.log) + 5)
    return [calm, fight]


def skirmish_bases() -> list[Played]:
    muster = Played()
    for a in (Action("campaign.new", LEAD, {"name": "Fen", "ruleset": "skirmish", "channel_id": "77", "guild_id": "1",
                                            "seed": 11, "rules": 2, "pack": "skirmish"}),
              Action("skirmish.warband", LEAD, {"faction": "wardens"}),
              Action("skirmish.recruit", LEAD, {"fighter": "thornspeaker"}),
              Action("skirmish.recruit", LEAD, {"fighter": "bramble-guard"}),
              Action("skirmish.deploy", LEAD, {}),
              Action("campaign.join", SIL),
              Action("skirmish.warband", SIL, {"faction": "reavers"}),
              Action("skirmish.recruit", SIL, {"fighter": "ashcaller"}),
              Action("skirmish.deploy", SIL, {})):
        assert muster.do(a), muster.why
    battle = copy.deepcopy(muster)
    assert battle.do(Action("skirmish.start", LEAD, {}))
    return [muster, battle]


def words(state) -> list:
    """Texts and hexes the campaign itself offers: its units, fighters, items, classes, places."""
    out = ["race", "all", "none", "auto", "ask", "stay", "light", "over", "bane", "-daze", "jailbreak", "wardens",
           "reavers", "surge", "spark", "new", "upgrade", "raise", "ready", "pack", "leave", "start", "pick",
           "create", "cancel", "restart", "argonian", "bow", "nord", "sorcerer", "ab12cd34", "1,2", "-1,5", "3,4"]
    for adv in getattr(state, "adventurers", {}).values():
        out += [adv.name, adv.race, adv.battle_form] + list(adv.ready) + list(adv.pack)
    battle = getattr(state, "battle", None)
    if battle:
        for u in battle.units.values():
            out += [u.name, u.short, u.id, [u.q, u.r]]
    for f in getattr(state, "fighters", {}).values():
        out += [f.id, f.name] + ([list(f.hex)] if f.hex else [])
    return out


def value_for(rng: random.Random, bound, state):
    roll = rng.random()
    if roll < 0.12:
        return copy.deepcopy(rng.choice(HOSTILE))
    if isinstance(bound, B.Int):
        return rng.choice([bound.lo, bound.hi, rng.randint(bound.lo, bound.hi), bound.hi + 1])
    if isinstance(bound, B.Flag):
        return rng.choice([True, False])
    if isinstance(bound, (B.Numbers,)):
        return [rng.randint(bound.lo, min(bound.hi, 6)) for _ in range(rng.randint(0, 3))]
    if isinstance(bound, B.Pairs):
        return [[rng.choice(["combat", "d3", "d4", 1, 2]), rng.randint(bound.lo, min(bound.hi, 4))]
                for _ in range(rng.randint(1, 3))]
    if isinstance(bound, (B.OneHex, B.Hexes)):
        here = rng.choice([[0, 2], [1, 2], [-1, 5], [3, 4], [-2, 2], [0, 0]])
        return here if isinstance(bound, B.OneHex) or rng.random() < 0.5 else [here, [here[0] + 1, here[1]]]
    if isinstance(bound, B.Player):
        return rng.choice([LEAD, SIL, THIRD, OUTSIDER])
    if isinstance(bound, B.Players):
        return rng.sample([LEAD, SIL, THIRD], rng.randint(1, 2))
    if isinstance(bound, B.Mapping):
        return {LEAD: [-2, 2]}
    if isinstance(bound, B.Data):
        return {"x": 1}
    if isinstance(bound, B.OneOf):
        return value_for(rng, rng.choice(bound.forms), state)
    return rng.choice(words(state))


def fuzz_file(rng: random.Random, base: Played) -> tuple[str, bytes]:
    game = rulesets.named(base.state.ruleset)
    kind = rng.choice(sorted(game.actions.handlers))
    handler = game.actions.handlers[kind]
    args = {k: value_for(rng, b, base.state) for k, b in (handler.args or {}).items() if rng.random() < 0.5}
    turn = game.whose_move(base.state)
    actor = turn[0] if turn and rng.random() < 0.5 else rng.choice([base.state.leader, LEAD, SIL, THIRD, OUTSIDER])
    on_behalf = rng.choice([None] * 5 + [SIL, THIRD, OUTSIDER])
    log = copy.deepcopy(base.log)
    at = rng.randint(2, len(log) + 1) if rng.random() < 0.3 else len(log) + 1
    entry = {"seq": at, "at": 1_700_000_000.0 + at, "actor": actor, "on_behalf": on_behalf, "type": kind,
             "action": {"type": kind, "actor": actor, "on_behalf": on_behalf, "args": args},
             "dice": [rng.randint(1, 6) for _ in range(rng.choice((0, 0, 2, 6)))], "events": [], "undoable": False,
             "undone_by": None}
    log.insert(at - 1, entry)
    log = log[:at]  # what came after no longer follows it
    for i, e in enumerate(log, start=1):
        e["seq"] = i
    state = base.state.to_dict()
    try:  # the state its log builds, when it builds one: the file is then honest about itself
        played = Played()
        for e in log:
            ok = played.do(Action.from_dict(e["action"]))
            if not ok:
                raise ValueError
            e["dice"] = played.log[-1]["dice"]
        state = played.state.to_dict()
    except Exception:  # noqa: BLE001 - refused somewhere: the claimed state stays the base's
        pass
    return kind, raw(doc_of(log, state))


async def test_imported_logs_of_every_action_type_import_exactly_or_are_refused_plainly(table, service, store,
                                                                                        caplog):
    caplog.set_level(logging.ERROR, logger="hexpost")
    rng = random.Random(SEED)
    bases = tes_bases() + skirmish_bases()
    con = sqlite3.connect(store.path)
    count = lambda: con.execute("SELECT COUNT(*), (SELECT COUNT(*) FROM action_log) FROM campaigns").fetchone()  # noqa: E731
    seen: dict[str, list[int]] = {}
    slowest, slowest_kind, peak = 0.0, "", 0
    started = time.perf_counter()
    for n in range(FILES):
        kind, data = fuzz_file(rng, rng.choice(bases))
        channel = f"fz-{n}"
        before = count()
        inv = table.invocation(LEAD, channel, "1", LEAD)
        attach(inv, data)
        traced = n % 30 == 0
        if traced:
            tracemalloc.start()
        t = time.perf_counter()
        reply = await table.run(inv, "campaign import", {"file": "f.json"})
        took = time.perf_counter() - t
        if took > slowest:
            slowest, slowest_kind = took, kind
        if traced:
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        assert "went wrong" not in reply.content, (n, kind, reply.content)
        tally = seen.setdefault(kind, [0, 0])
        if reply.error:
            tally[1] += 1
            assert reply.content.strip() and len(reply.content) < 1200, (n, reply.content)
            assert await service.campaign(channel) is None and count() == before, (n, kind)
            continue
        tally[0] += 1
        state = (await service.campaign(channel)).to_dict()
        assert replay(await store.log(await service.campaign_id(channel))).to_dict() == state, (n, kind)
    con.close()
    took = time.perf_counter() - started
    assert caplog.records == [], [r.getMessage()[:300] for r in caplog.records]
    every = {k for name in ("tes", "skirmish") for k in rulesets.named(name).actions.handlers}
    assert set(seen) == every, sorted(every - set(seen))  # every action type of both rulesets was tried
    assert sum(v[0] for v in seen.values()) >= 10 and sum(v[1] for v in seen.values()) > FILES // 3  # both sides
    print(f"\n[fuzz actions] {FILES} files over {len(seen)} action types (seed {SEED}) in {took:.1f} s: "
          f"{sum(v[0] for v in seen.values())} imported equal to their replay, "
          f"{sum(v[1] for v in seen.values())} refused plainly; worst {slowest * 1000:.0f} ms ({slowest_kind}), "
          f"tracemalloc peak (1 in 30) {peak / 2**20:.1f} MB")
    print("  imported/refused by type: " + ", ".join(f"{k} {a}/{r}" for k, (a, r) in sorted(seen.items())))
