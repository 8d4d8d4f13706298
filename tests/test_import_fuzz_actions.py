"""Fuzzing imported logs action by action: every action type of every ruleset, with plausible, largest and
hostile options, by the right and the wrong people, inserted into real campaigns' logs.

Bases: an Elder Scrolls campaign between battles (a guided draft open, items held), the same in a battle (a roll
to resolve, a cache on the map), a session of days (in town, at the route's vote, at an overland card's choice,
in a Reward Phase), a skirmish in muster and in battle, a duel between fights and in one (placing cards), an
engage game mustering and in battle.  Every action type of every ruleset is tried on a base of its game at least
once, then a fixed-seed generator picks more: an action type of the base's ruleset (lockpick, items, abilities,
the guide, update, rest, adjust, prompts' time-outs, the day's, the town's and the Reward Phase's actions, every
/skirmish, /duel and /mini action, the party's actions), options for it from its declared bounds (engine.bounds)
and from the campaign (its units, fighters, items, classes, cards, hexes), an actor (the leader, a member, someone
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

FILES = 900
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


def day_bases() -> list[Played]:
    """A session of days on the current rules: in town on day 1, the route's vote, an overland card's choice,
    the Reward Phase after it."""
    from day_helpers import BRINEHOLD_SHOP, DECK_STACK, LANDMARK_HEX
    from rulesets.tes.content import load_pack
    from rulesets.tes.state import RULES

    town = Played()
    for a in (Action("campaign.new", LEAD, {"name": "Outer Watch", "difficulty": "adept", "pack": "starter",
                                            "channel_id": "80", "guild_id": "1", "seed": 14, "rules": RULES,
                                            "pack_version": load_pack("starter").content_hash}),
              Action("adventurer.create", LEAD, {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff",
                                                 "klass": "sorcerer", "health": "1L", "stamina": "2L",
                                                 "combat": "2R", "magicka": "3L", "skill": "4L"}),
              Action("campaign.join", SIL),
              Action("adventurer.create", SIL, {"name": "Shannon", "race": "argonian",
                                                "line": "one-hand-and-shield", "klass": "acrobat", "health": "1L",
                                                "stamina": "2L", "combat": "3L", "magicka": "4L", "skill": "4R"}),
              Action("day.start", LEAD, {"province": "saltmire",
                                         "stack": ["mages-guild", "fighters-guild", "thieves-guild"] + DECK_STACK
                                         + BRINEHOLD_SHOP + ["sm-p01"]}),
              Action("quest.guild", LEAD, {"pick": "Mages Guild"})):  # the guild draw (its quest starts in Brinehold)
        assert town.do(a), town.why
    vote = copy.deepcopy(town)
    for a in (Action("town.done", LEAD), Action("town.done", SIL), Action("day.rest", LEAD), Action("day.rest", SIL),
              Action("day.stack", LEAD, {"cards": ["sm-p01"]}),
              Action("day.route", LEAD, {"to": LANDMARK_HEX["peaceful"]})):
        assert vote.do(a), vote.why
    card = copy.deepcopy(vote)
    assert card.do(Action("day.vote", SIL)), card.why
    reward = copy.deepcopy(card)
    assert reward.do(Action("day.choose", LEAD, {"choice": 1})), reward.why
    asked = [b.state.days.ask.kind for b in (town, vote, card, reward)]
    assert asked == ["town", "vote", "card", "reward"], asked
    return [town, vote, card, reward]


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


def duel_bases() -> list[Played]:
    """Two characters between fights, and in a fight against the Marsh Wisp (placing cards)."""
    from engine.prompts import open_prompt

    calm = Played()
    for a in (Action("campaign.new", LEAD, {"name": "Yard", "ruleset": "duel", "channel_id": "78", "guild_id": "1",
                                            "seed": 12, "pack": "duel"}),
              Action("duel.character", LEAD, {"hero": "sellsword", "name": "Brann"}),
              Action("campaign.join", SIL),
              Action("duel.character", SIL, {"hero": "pilgrim", "name": "Oda"})):
        assert calm.do(a), calm.why
    fight = copy.deepcopy(calm)
    assert fight.do(Action("duel.fight", LEAD, {"monster": "marsh-wisp"})), fight.why
    while (p := open_prompt(fight.state)) is not None and p.kind == "join":
        choice = next(o.value for o in p.options if o.value != "out")
        assert fight.do(Action("duel.join", p.owner, {"choice": choice})), fight.why
    assert open_prompt(fight.state).kind == "place"
    return [calm, fight]


def engage_bases() -> list[Played]:
    """Two sides fielded, and the battle begun."""
    muster = Played()
    for a in (Action("campaign.new", LEAD, {"name": "Marsh", "ruleset": "engage", "channel_id": "79",
                                            "guild_id": "1", "seed": 13, "pack": "engage"}),
              Action("mini.field", LEAD, {"unit": "reed-spear"}),
              Action("mini.field", LEAD, {"unit": "hedge-witch"}),
              Action("campaign.join", SIL),
              Action("mini.field", SIL, {"unit": "reed-spear"}),
              Action("mini.field", SIL, {"unit": "bog-strider"})):
        assert muster.do(a), muster.why
    battle = copy.deepcopy(muster)
    assert battle.do(Action("mini.start", LEAD)), battle.why
    return [muster, battle]


def words(state) -> list:
    """Texts and hexes the campaign itself offers: its units, fighters, items, classes, places."""
    out = ["race", "all", "none", "auto", "ask", "stay", "light", "over", "bane", "-daze", "jailbreak", "wardens",
           "reavers", "surge", "spark", "new", "upgrade", "raise", "ready", "pack", "leave", "start", "pick",
           "create", "cancel", "restart", "argonian", "bow", "nord", "sorcerer", "ab12cd34", "1,2", "-1,5", "3,4",
           # the day's, the duel's and the engage game's words
           "saltmire", "brinehold", "shop", "trainer", "inn", "alchemy", "square", "sm-p01", "ge-p02", "stat:stamina",
           "die:purge", "cooldown", "tenacity", "1", "2", "4L", "sellsword", "pilgrim", "marsh-wisp", "cave-troll",
           "lure", "focus", "base-attack", "attack", "token", "in", "b", "in.chain-coat", "chain-coat", "reed-spear",
           "bog-strider", "mire-grip", "mend-flesh", "a1", "b2", "m:marsh-wisp", f"c:{LEAD}", "f1.a3", "icp1"]
    for adv in getattr(state, "adventurers", {}).values():
        out += [adv.name, adv.race, adv.battle_form] + list(adv.ready) + list(adv.pack)
    battle = getattr(state, "battle", None)
    if battle:
        for u in battle.units.values():
            out += [u.name, u.short, u.id, [u.q, u.r]]
    for f in getattr(state, "fighters", {}).values():
        out += [f.id, f.name] + ([list(f.hex)] if f.hex else [])
    if state.ruleset == "duel":
        for f in (state.fight.fighters.values() if state.fight is not None else ()):
            out += [f.id, f.name] + list(f.hand)[:3]
        for ch in state.characters.values():
            out += [ch.name, ch.hero] + list(ch.cards)[:2] + list(ch.gear)
    if state.ruleset == "engage":
        for u in state.units.values():
            out += [u.id, u.name, f"{u.hex[0]},{u.hex[1]}"]
    days = getattr(state, "days", None)
    if days is not None and days.town is not None:
        out += list(days.town.shop)[:3] + list(days.town.trainer)[:2]
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
    if isinstance(bound, B.Words):
        return [w for w in rng.sample(words(state), 3) if isinstance(w, str)][:rng.randint(0, 3)]
    if isinstance(bound, B.OneOf):
        return value_for(rng, rng.choice(bound.forms), state)
    return rng.choice(words(state))


def fuzz_file(rng: random.Random, base: Played, kind: str | None = None) -> tuple[str, bytes]:
    game = rulesets.named(base.state.ruleset)
    kind = kind or rng.choice(sorted(game.actions.handlers))
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
    by_game = {"tes": tes_bases() + day_bases(), "skirmish": skirmish_bases(), "duel": duel_bases(),
               "engage": engage_bases()}
    bases = [b for group in by_game.values() for b in group]
    # every action type of every game once, on a base of its game; then random types on random bases
    every = sorted((name, kind) for name in by_game for kind in rulesets.named(name).actions.handlers)
    rng.shuffle(every)
    schedule = [(rng.choice(by_game[name]), kind) for name, kind in every]
    schedule += [(rng.choice(bases), None) for _ in range(FILES - len(schedule))]
    con = sqlite3.connect(store.path)
    count = lambda: con.execute("SELECT COUNT(*), (SELECT COUNT(*) FROM action_log) FROM campaigns").fetchone()  # noqa: E731
    seen: dict[str, list[int]] = {}
    slowest, slowest_kind, peak = 0.0, "", 0
    started = time.perf_counter()
    for n, (base, kind) in enumerate(schedule):
        kind, data = fuzz_file(rng, base, kind)
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
    types = {k for name in by_game for k in rulesets.named(name).actions.handlers}
    assert set(seen) == types, sorted(types - set(seen))  # every action type of every ruleset was tried
    assert sum(v[0] for v in seen.values()) >= 10 and sum(v[1] for v in seen.values()) > FILES // 3  # both sides
    print(f"\n[fuzz actions] {FILES} files over {len(seen)} action types (seed {SEED}) in {took:.1f} s: "
          f"{sum(v[0] for v in seen.values())} imported equal to their replay, "
          f"{sum(v[1] for v in seen.values())} refused plainly; worst {slowest * 1000:.0f} ms ({slowest_kind}), "
          f"tracemalloc peak (1 in 30) {peak / 2**20:.1f} MB")
    print("  imported/refused by type: " + ", ".join(f"{k} {a}/{r}" for k, (a, r) in sorted(seen.items())))
