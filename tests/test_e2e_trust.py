"""A hostile server member against the real bot over the fake Discord: options out of bounds, a chosen seed,
seats nobody took, long reads, stale buttons.

The real, unmodified bot (``bot.build_bot``) and discord.py, as in tests/test_e2e_discord.py, whose fixture
checks after each test that no error was logged, every interaction was answered within Discord's 3 seconds and
no post could ping anyone but the player whose move it is.
"""
from __future__ import annotations

import asyncio
import copy
import json
import time
import tracemalloc

import engine.transfer as transfer
from engine import rulesets
from engine.actions import dice_for
from engine.core import Action
from engine.store import LogEntry
from helpers.exports import LEAD, SIL, Played, doc_of, long_campaign, opened, raw
from test_e2e_discord import World, answer, assert_refused, button, click_stale, png_files, world  # noqa: F401


async def slash(w: World, user, command: str, options: dict | None = None, *, channel=None, timeout: float = 60):
    return await w.fake.slash(user, channel or w.chan, command, options or {}, timeout=timeout)


def as_members(w: World, played: Played, extra: list[dict] | None = None) -> dict:
    """The file of a played campaign, its players turned into this server's members (Lena leads, Bob plays)."""
    text = json.dumps(doc_of(played.log + (extra or []), played.state.to_dict()))
    for old, new in ((LEAD, str(w.leader.id)), (SIL, str(w.bob.id))):
        text = text.replace(f'"{old}"', f'"{new}"')
    doc = json.loads(text)
    try:  # the state the log builds with these ids (a battle keys its units by them too)
        from engine.service import replay

        doc["state"] = replay(doc["log"]).to_dict()
    except Exception:  # noqa: BLE001 - a hostile log: the bot refuses it before any state matters
        pass
    return doc


def said(res) -> str:
    """Everything the user saw as the answer: its text and embeds, after a deferral too."""
    text, _ = answer(res)
    msgs = [res.message] + [f for f in res.followups]
    return text + "".join(json.dumps(m.embeds, ensure_ascii=False) + (m.content or "") for m in msgs if m is not None)


def entry(seq: int, actor: str, kind: str, args: dict, on_behalf: str | None = None, dice=()) -> dict:
    return {"seq": seq, "at": 1_700_000_000.0 + seq, "actor": actor, "on_behalf": on_behalf, "type": kind,
            "action": {"type": kind, "actor": actor, "on_behalf": on_behalf, "args": args}, "dice": list(dice),
            "events": [], "undoable": False, "undone_by": None}


def in_battle() -> Played:
    p = opened()
    assert p.do(Action("battle.start", LEAD, {"encounter": "jailbreak"}))
    return p


# --- bounds of options, the work budget ---------------------------------------------------------------------
async def test_an_option_out_of_bounds_in_a_log_is_refused_at_once_and_the_gate_is_free(world: World,
                                                                                         monkeypatch) -> None:
    w = world
    honest = in_battle()
    for option in ("fatigue", "bonus_hp"):
        bomb = entry(len(honest.log) + 1, LEAD, "battle.adjust", {"unit": "Vilya", option: 2**62})
        doc = as_members(w, honest, [bomb])
        data = raw(doc)
        started = time.perf_counter()
        res = await slash(w, w.leader, "campaign import", {"file": ("adjust.json", data)}, channel=w.lobby)
        took = time.perf_counter() - started
        text = assert_refused(res, f"`{option}` of battle.adjust must be a whole number")
        assert "nothing was changed" in text.lower()
        assert await w.state(w.lobby) is None
        print(f"\n[trust] {len(data) / 1024:.1f} KB file with {option}: 2**62 refused in {took * 1000:.0f} ms")
    # the gate is free: an honest file imports at once
    res = await slash(w, w.leader, "campaign import", {"file": ("good.json", raw(as_members(w, honest)))},
                      channel=w.lobby)
    assert "Campaign imported" in said(res), said(res)
    assert (await w.state(w.lobby)).adventurers[str(w.leader.id)].bonus_hp == 0

    # a file within every bound that would take more work than an import is given: refused, gate freed
    w.other = w.fake.add_channel(w.guild, "other")
    long_one = long_campaign(300)
    monkeypatch.setattr(transfer, "REPLAY_SECONDS", 0.02)
    res = await slash(w, w.leader, "campaign import", {"file": ("long.json", raw(as_members(w, long_one)))},
                      channel=w.other)
    assert_refused(res, "takes more work than this bot gives one import", "nothing was changed")
    assert await w.state(w.other) is None
    monkeypatch.setattr(transfer, "REPLAY_SECONDS", 150.0)
    res = await slash(w, w.leader, "campaign import", {"file": ("long.json", raw(as_members(w, long_one)))},
                      channel=w.other)
    assert "Campaign imported" in said(res), said(res)


def test_a_stopping_bot_cancels_a_replay_running_in_a_worker_thread() -> None:
    import threading

    history = long_campaign(600).log
    found: list = []
    t = threading.Thread(target=lambda: found.append(_rebuild_or_refusal(history)))
    t.start()
    time.sleep(0.3)
    assert transfer.cancel_imports() == 1
    t.join(10)
    assert not t.is_alive() and "The bot is stopping" in found[0]


def _rebuild_or_refusal(history) -> str:
    try:
        transfer.rebuild(history)
    except Exception as exc:  # noqa: BLE001
        return str(exc)
    return "rebuilt"


# --- a fresh seed -------------------------------------------------------------------------------------------
def skirmish_muster(leader: str, seed: int) -> Played:
    p = Played()
    for a in (Action("campaign.new", leader, {"name": "Fen Raid", "ruleset": "skirmish", "channel_id": "77",
                                              "guild_id": "1", "seed": seed, "rules": 2, "pack": "skirmish"}),
              Action("skirmish.warband", leader, {"faction": "wardens"}),
              Action("skirmish.recruit", leader, {"fighter": "bramble-guard"}),
              Action("skirmish.deploy", leader, {}),
              Action("skirmish.bot", leader, {"faction": "reavers"})):
        assert p.do(a), p.why
    return p


def first_initiative(state, leader: str) -> list[int]:
    game = rulesets.named("skirmish")
    out = game.execute(state, Action("skirmish.start", leader, {}), dice_for(state), 0.0)
    return out.state.fight.rolls[leader]


async def test_an_imported_campaign_gets_a_fresh_seed_so_the_file_cannot_choose_the_dice(world: World) -> None:
    w = world
    leader = str(w.leader.id)
    # the attacker searches offline for a seed that gives them a quad of sixes on the first initiative roll
    seed = next(s for s in range(1, 100_000)
                if first_initiative(skirmish_muster(leader, s).state, leader).count(6) >= 4)
    p = skirmish_muster(leader, seed)
    assert first_initiative(p.state, leader).count(6) >= 4
    res = await slash(w, w.leader, "campaign import", {"file": ("fen.json", raw(doc_of(p.log, p.state.to_dict())))},
                      channel=w.lobby)
    text = said(res)
    assert "Campaign imported" in text and "new seed" in text, text
    state = await w.state(w.lobby)
    assert state.seed != seed and state.dice_counter == 0
    res = await slash(w, w.leader, "skirmish start", channel=w.lobby)
    assert not answer(res)[1]
    rolled = (await w.state(w.lobby)).fight.rolls[leader]
    expected = copy.deepcopy(state)
    assert rolled == first_initiative(expected, leader)  # the importing bot's own seed decided them
    print(f"\n[trust] file seed {seed} would roll {first_initiative(skirmish_muster(leader, seed).state, leader)}; "
          f"imported with a fresh seed, the first roll was {rolled}")


# --- who an import seats ------------------------------------------------------------------------------------
async def test_a_log_that_seats_a_member_who_never_joined_is_refused_with_the_reason(world: World) -> None:
    w = world
    leader, cara = str(w.leader.id), str(w.cara.id)
    p = Played()
    assert p.do(Action("campaign.new", leader, {"name": "Fen Raid", "ruleset": "skirmish", "channel_id": "77",
                                                "guild_id": "1", "seed": 5, "rules": 2, "pack": "skirmish"}))
    assert p.do(Action("skirmish.warband", leader, {"faction": "wardens"}))
    log = p.log + [
        entry(3, leader, "skirmish.warband", {"faction": "reavers"}, on_behalf=cara),  # Cara never ran it
        entry(4, leader, "skirmish.recruit", {"fighter": "bramble-guard"}, on_behalf=cara),
        entry(5, leader, "campaign.leader", {"player": cara}),
    ]
    forged = copy.deepcopy(p.state.to_dict())
    forged["members"].append(cara)
    res = await slash(w, w.leader, "campaign import", {"file": ("seated.json", raw(doc_of(log, forged)))},
                      channel=w.lobby)
    assert_refused(res, "does not replay", "is not in this party", "the leader acts only for its members")
    assert await w.state(w.lobby) is None
    # a tes log where the leader creates an adventurer for someone who never joined, and hands them the lead
    q = opened()
    log = q.log + [entry(len(q.log) + 1, LEAD, "adventurer.create",
                         {"name": "Puppet", "race": "nord", "line": "bow"}, on_behalf="1003"),
                   entry(len(q.log) + 2, LEAD, "campaign.leader", {"player": "1003"})]
    res = await slash(w, w.leader, "campaign import", {"file": ("puppet.json", raw(as_members(w, q, log[len(q.log):])))},
                      channel=w.lobby)
    assert_refused(res, "does not replay", "not in this party")
    # a member seated by their own join is imported, and the reply names who the file seats
    assert p.do(Action("campaign.join", cara))
    assert p.do(Action("skirmish.warband", cara, {"faction": "reavers"}))
    res = await slash(w, w.leader, "campaign import", {"file": ("fair.json", raw(doc_of(p.log, p.state.to_dict())))},
                      channel=w.lobby)
    text = said(res)
    assert "Campaign imported" in text and "Seated" in text and f"<@{cara}>" in text, text
    assert (await w.state(w.lobby)).members == [leader, cara]


# --- light reads --------------------------------------------------------------------------------------------
async def store_imported(w: World, channel: str, actions: int) -> int:
    """A campaign stored as an import leaves it: one entry carrying ``actions`` earlier actions."""
    played = long_campaign(400)
    history = []
    for i in range(actions):
        e = dict(played.log[i % len(played.log)])
        e["seq"] = i + 1
        history.append(e)
    state = dict(played.state.to_dict(), channel_id=channel, guild_id=str(w.guild.id))
    action = {"type": "campaign.import", "actor": LEAD, "on_behalf": None,
              "args": {"history": history, "state": state, "channel_id": channel, "guild_id": state["guild_id"]}}
    text = f"Campaign {state['name']} imported; {actions} earlier actions (#1–#{actions}) are kept with this entry."
    log = LogEntry(seq=1, at=time.time(), actor=LEAD, on_behalf=None, type="campaign.import", action=action,
                   dice=[], events=[{"kind": "campaign-imported", "text": text, "data": {}}], undoable=False)
    cid, _ = await w.bot.table.service.store.commit(campaign_id=None, channel_id=channel, guild_id=state["guild_id"],
                                                    expected_version=None, state=state, active=True, entry=log)
    return cid


async def test_reading_a_long_imported_campaign_stays_light_while_other_channels_play(world: World) -> None:
    w = world
    await store_imported(w, str(w.chan.id), 20_000)
    reads = ([("campaign log", {}), ("campaign log", {"page": 1}), ("campaign status", {})] * 3)[:8]

    async def eight_reads_and_a_roll():
        started = time.perf_counter()
        tasks = [asyncio.ensure_future(slash(w, w.cara, name, opts)) for name, opts in reads]
        await asyncio.sleep(0.05)
        roll = await slash(w, w.bob, "roll", {"dice": "d20"}, channel=w.lobby)
        done = await asyncio.gather(*tasks)
        return done, roll, time.perf_counter() - started

    done, roll, took = await eight_reads_and_a_roll()
    for res in done:  # every one answered in time: never Discord's "did not respond"
        assert res.latency is not None and res.latency <= 3.0, res.latency
    logs = [said(r) for r, (name, _) in zip(done, reads) if name == "campaign log"]
    assert all("20000 earlier actions" in t for t in logs), logs[0][:300]
    assert "d20" in answer(roll)[0]
    print(f"\n[trust] 8 reads of a 20,000-action imported campaign at once: {took:.2f} s, slowest first answer "
          f"{max(r.latency for r in done) * 1000:.0f} ms; a /roll elsewhere answered in {roll.latency * 1000:.0f} ms")
    tracemalloc.start()  # the same again for its memory (tracing every allocation slows it: no time is read)
    try:
        await eight_reads_and_a_roll()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    print(f"[trust] the same 8 reads: tracemalloc peak {peak / 2**20:.1f} MB")
    assert peak < 40 * 2**20  # no read parses the imported history (over 20 MB of JSON)


# --- stale buttons ------------------------------------------------------------------------------------------
async def test_buttons_of_an_ended_campaign_or_a_retired_adventurer_are_out_of_date(world: World) -> None:
    w = world
    from test_e2e_discord import party

    await party(w)
    end = (await w.slash(w.leader, "campaign end")).message
    remove = (await w.slash(w.leader, "campaign leave", {"player": w.bob})).message
    retire = (await w.slash(w.bob, "adventurer retire")).message
    shown = {m.id: list(m.components) for m in (end, remove, retire)}
    ids = {"end": button(end, "End the campaign"), "remove": button(remove, "Remove them"),
           "retire": button(retire, "Retire Ryan")}
    # the campaign ends (a fresh prompt) and a new one opens in the same channel, with Bob and a new Ryan
    fresh = (await w.slash(w.leader, "campaign end")).message
    await w.click(w.leader, fresh, button(fresh, "End the campaign"))
    assert await w.state() is None
    await w.slash(w.leader, "campaign new", {"name": "Second Watch"})
    await w.slash(w.bob, "campaign join")
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
    assert png_files(res)
    before = (await w.state()).to_dict()
    for msg, key, who in ((end, "end", w.leader), (remove, "remove", w.leader), (retire, "retire", w.bob)):
        res = await click_stale(w, who, msg, shown[msg.id], ids[key])
        assert_refused(res, "out of date", "nothing was changed")
    assert (await w.state()).to_dict() == before  # the newer campaign is untouched
    # within one campaign: the button of a retired adventurer never retires the owner's next one
    old = (await w.slash(w.bob, "adventurer retire")).message
    old_id, old_shown = button(old, "Retire Ryan"), list(old.components)
    now = (await w.slash(w.bob, "adventurer retire")).message
    done = await w.click(w.bob, now, button(now, "Retire Ryan"))
    assert "retires" in answer(done)[0]
    res = await w.slash(w.bob, "adventurer create", {"name": "Ryan", "race": "dark-elf", "line": "destruction-staff"})
    assert png_files(res)
    res = await click_stale(w, w.bob, old, old_shown, old_id)
    assert_refused(res, "out of date")
    assert "Ryan" in [a.name for a in (await w.state()).adventurers.values()]


async def test_buttons_an_earlier_version_posted_and_other_games_buttons_get_a_clear_answer(world: World) -> None:
    w = world
    from test_e2e_discord import party

    await party(w)
    status = await w.slash(w.cara, "campaign status")
    msg = status.message
    before = (await w.state()).to_dict()
    # as the earlier version posted them: no campaign id in the id
    chan = w.chan.id
    for old in (f"hx:end:{chan}:", f"hx:mat:{chan}:{w.bob.id}", f"hx:retire:{chan}:{w.bob.id}",
                f"hx:leave:{chan}:{w.bob.id}", f"hx:gone:{chan}:x", f"hx:end:{chan}:??"):
        msg.components = [{"type": 1, "components": [{"type": 2, "style": 4, "label": "Old", "custom_id": old}]}]
        res = await w.click(w.leader, msg, old)
        text = assert_refused(res, "out of date")
        assert "went wrong" not in text and "Unknown action" not in text
    assert (await w.state()).to_dict() == before
    # the channel now plays a skirmish: the Elder Scrolls buttons answer clearly, and change nothing
    mat_button = list(status.message.history[0].get("components") or [])
    fresh = (await w.slash(w.leader, "campaign end")).message
    await w.click(w.leader, fresh, button(fresh, "End the campaign"))
    await w.slash(w.leader, "campaign new", {"name": "Fen", "ruleset": "skirmish"})
    skirmish = (await w.state()).to_dict()
    msg.components = mat_button
    for c in msg.iter_components():
        if c.get("type") == 2:
            res = await w.click(w.cara, msg, c["custom_id"])
            text = assert_refused(res, "out of date")
            assert "Unknown action" not in text and "went wrong" not in text
    assert (await w.state()).to_dict() == skirmish


async def test_a_retreat_left_unanswered_in_an_ended_campaign_never_calls_the_next_campaigns_retreat(
        world: World) -> None:
    """The Retreat button of an ended campaign, pressed after a restart in the next campaign's battle, called that
    battle's retreat (its id named only the channel).  Now it is bound to its campaign and its battle."""
    from test_e2e_discord import party, start_battle

    w = world

    async def to_battle() -> None:
        await party(w)
        await start_battle(w, {"encounter": "jailbreak"})
        assert (await w.state()).battle is not None

    await to_battle()
    old = (await w.slash(w.leader, "battle retreat")).message
    old_id, old_shown = button(old, "Retreat"), list(old.components)
    fresh = (await w.slash(w.leader, "campaign end")).message
    await w.click(w.leader, fresh, button(fresh, "End the campaign"))
    await to_battle()  # the next campaign, in the same channel, at the same battle
    await w.restart()
    before = (await w.state()).to_dict()
    res = await click_stale(w, w.leader, old, old_shown, old_id)
    assert_refused(res, "out of date", "nothing was changed")
    assert (await w.state()).to_dict() == before and not (await w.state()).battle.retreat
    # this campaign's own Retreat acts once; pressed again, the question is answered: out of date
    now = (await w.slash(w.leader, "battle retreat")).message
    shown, retreat = list(now.components), button(now, "Retreat")
    done = await w.click(w.leader, now, retreat)
    assert "calls the retreat" in said(done)
    res = await click_stale(w, w.leader, now, shown, retreat)
    assert_refused(res, "out of date")


async def test_a_seat_a_file_gives_a_stranger_waits_and_they_can_leave_in_the_battle(world: World) -> None:
    """Bob never played on this server: the import seats him with a seat waiting to be accepted; the post for his
    turn pings the leader (allowed mentions: the leader alone); in the battle he may leave; pressed by Cara, the
    post's button takes nobody's seat."""
    w = world
    leader, bob = str(w.leader.id), str(w.bob.id)
    res = await slash(w, w.leader, "campaign import", {"file": ("battle.json", raw(as_members(w, in_battle())))},
                      channel=w.lobby)
    text = said(res)
    assert "seat waiting to be accepted" in text and f"<@{bob}>" in text, text
    assert (await w.state(w.lobby)).unaccepted == [bob]
    seat = button(res, "Accept your seat")
    shown = list(res.message.components)
    nobody = await click_stale(w, w.cara, res.message, shown, seat)
    assert_refused(nobody, "not one of them", "Nothing was changed")
    turn = await slash(w, w.leader, "endturn", channel=w.lobby)  # Vilya's turn ends: Sil's (Bob's) begins
    assert "Sil" in said(turn)
    pinged = [str(u) for m in [turn.message, *turn.followups] if m is not None
              for u in (m.history[-1].get("allowed_mentions") or {}).get("users") or []]
    assert leader in pinged and bob not in pinged, pinged  # the leader, who acts for him, is pinged
    left = await slash(w, w.bob, "campaign leave", channel=w.lobby)
    if "Leave the party?" in answer(left)[0]:  # his adventurer retires with him: asked first
        left = await w.click(w.bob, left.message, button(left, "Leave the party"))
    assert "played by the leader" in said(left), said(left)
    state = await w.state(w.lobby)
    assert state.leaving == [bob] and state.battle is not None
