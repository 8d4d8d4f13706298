"""Battle turn prompts: resolve buttons, prevention questions with a time-out, changed mats, undo, pings."""
from __future__ import annotations

import json

import asyncio

import pytest

from cogs.common import allowed_mentions
from rulesets.tes.present.battle import map_view
from rulesets.tes.present.answers import changed_by_enemies, run_due_deadlines, sweep
from engine.components import ID_RE
from commands.core import Table
from rulesets.tes import rules
from rulesets.tes.content import load_pack
from engine.service import CampaignService, replay
from engine.store import Store
from test_e2e_discord import answer, assert_refused, labels, party, png_files
from test_e2e_discord import button as wire_button
from test_e2e_discord import world  # noqa: F401  (the fake-Discord fixture)

SHANNON, RYAN, KIM = "1001", "1002", "1003"
CH = "100"
T0 = 1_700_000_000.0


class Clock:
    def __init__(self, now: float = T0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Game:
    """A campaign played through the command layer, with a clock the test moves."""

    def __init__(self, table: Table, clock: Clock, channel: str = CH):
        self.table, self.clock, self.channel = table, clock, channel
        self.replies: list = []  # every reply, in order, for the turn-post checks

    def inv(self, user):
        return self.table.invocation(user, self.channel, "1", user)

    async def run(self, user, command, **options):
        reply = await self.table.run(self.inv(user), command, options)
        self.replies.append((command, reply, await self.state()))
        return reply

    async def ok(self, user, command, **options):
        reply = await self.run(user, command, **options)
        assert not reply.error, reply.content
        return reply

    async def click(self, user, custom_id, values=None):
        reply = await self.table.click(self.inv(user), custom_id, values or [])
        self.replies.append(("click " + custom_id.split(":")[1], reply, await self.state()))
        return reply

    async def state(self):
        return await self.table.service.campaign(self.channel)

    async def log_types(self):
        cid = await self.table.service.campaign_id(self.channel)
        return [e.type for e in await self.table.service.store.log(cid)]


@pytest.fixture
async def game(tmp_path):
    clock = Clock()
    store = await Store.open(tmp_path / "hexpost.db")
    g = Game(Table(CampaignService(store, clock=clock)), clock)
    yield g
    await store.close()


async def shannon_alone(g: Game, *, ask=True) -> None:
    """Shannon (Argonian, One Hand and Shield) against the High Elf Bandit, next to it and ready to engage."""
    await g.ok(SHANNON, "campaign new", name="Jail")
    await g.ok(SHANNON, "adventurer create", name="Shannon", race="argonian", line="one-hand-and-shield")
    await g.ok(SHANNON, "force", values="2")
    await g.ok(SHANNON, "battle start", encounter="jailbreak", deploy="-2,2")
    if ask:
        await g.ok(SHANNON, "battle prevention", mode="ask")
    await g.ok(SHANNON, "move", to="0,2")


async def engage_two_shields(g: Game, user=SHANNON, **extra):
    """Two Shield Discipline "1 damage" results and a tenacity result on the Combat die."""
    await g.ok(SHANNON, "force", values="1 2 5")
    return await g.ok(user, "engage", target="High Elf Bandit", dice="2 shield-discipline, combat", **extra)


async def asked(g: Game):
    """Shannon resolves, ends her turn; the Bandit rolls 2 damage and she is asked about prevention."""
    r = await engage_two_shields(g)
    await g.click(SHANNON, button(r, "Resolve all"))
    await g.ok(SHANNON, "force", values="5")
    reply = await g.ok(SHANNON, "endturn")
    assert (await g.state()).battle["await"]["owner"] == SHANNON
    return reply


def button(reply, label):
    found = [b.custom_id for b in reply.buttons if b.label.startswith(label)]
    assert found, (label, [b.label for b in reply.buttons])
    return found[0]


def menu(reply):
    assert len(reply.selects) == 1, reply.as_text()
    return reply.selects[0]


def all_ids(reply):
    return [b.custom_id for b in reply.buttons] + [s.custom_id for s in reply.selects]


# ------------------------------------------------------------- resolving --
async def test_engage_shows_the_roll_and_resolve_buttons_and_menu(game):
    await shannon_alone(game)
    r = await engage_two_shields(game)
    # the roll in words and its dice a button away (a quiet channel: the map did not change)
    assert "Shield Discipline 🎲1" in r.content and not r.pictures
    assert [b.label for b in r.buttons][:2] == ["Resolve all", "Resolve none"]
    assert any(b.label.startswith("🎲") for b in r.buttons)
    sel = menu(r)
    assert (sel.min_values, sel.max_values) == (1, 3) and [v for _l, v, _d in sel.options] == ["1", "2", "3"]
    assert sel.options[0][0] == "1. Shield Discipline: 1 damage"
    for cid in all_ids(r):
        assert ID_RE.match(cid) and len(cid) <= 100, cid
        if ":rollpics:" in cid or ":bmap:" in cid:  # the pictures on demand: bound to the campaign and the action
            assert cid.split(":")[2] == CH and ".c" not in cid and cid.split(":")[3].startswith("c")
            continue
        assert cid.split(":")[2] == CH and ".b1.r1.t0.e1." in cid  # campaign, battle, round, turn, engage
    assert r.ping == SHANNON


async def test_resolve_all_click_is_the_same_action_as_slash_resolve(tmp_path):
    results = []
    for how in ("slash", "click"):
        store = await Store.open(tmp_path / f"{how}.db")
        g = Game(Table(CampaignService(store, clock=Clock())), Clock())
        await shannon_alone(g)
        r = await engage_two_shields(g)
        done = await (g.ok(SHANNON, "resolve") if how == "slash" else g.click(SHANNON, button(r, "Resolve all")))
        assert not done.error and "High Elf Bandit is dealt 2 damage" in done.content
        assert done.ping == SHANNON and "Now: **Shannon**'s turn" in done.content
        # damage dealt, nobody moved or fell: the words tell it (the map is a button away)
        assert not done.pictures and not done.update and any("Map" in b.label for b in done.buttons)
        cid = await g.table.service.campaign_id(CH)
        last = (await store.log(cid))[-1]
        results.append(((await g.state()).to_dict(), last.type, last.action["args"]))
        await store.close()
    (slash_state, slash_type, slash_args), (click_state, click_type, click_args) = results
    assert slash_type == click_type == "battle.resolve" and slash_args == click_args == {}
    slash_state.pop("seed"), click_state.pop("seed")  # random per campaign; every die here is forced
    for st in (slash_state, click_state):  # each adventurer has an id of its own, drawn at creation
        for adv in st["adventurers"].values():
            adv.pop("id")
    assert slash_state == click_state


async def test_resolve_none(game):
    await shannon_alone(game)
    r = await engage_two_shields(game)
    done = await game.click(SHANNON, button(r, "Resolve none"))
    assert not done.error and "Map" in " ".join(b.label for b in done.buttons)
    s = await game.state()
    assert s.adventurers[SHANNON].active == [] and s.battle["units"]["e1"]["hp"] == 3 and not s.battle["pending"]
    cid = await game.table.service.campaign_id(CH)
    assert (await game.table.service.store.log(cid))[-1].action["args"] == {"order": []}  # none: logged as the empty list


async def test_a_chosen_subset_in_rolled_order_resolves_at_once(game):
    await shannon_alone(game)
    r = await engage_two_shields(game)
    done = await game.click(SHANNON, menu(r).custom_id, ["1", "3"])
    assert not done.error and not done.ephemeral and done.content, done.content
    cid = await game.table.service.campaign_id(CH)
    assert (await game.table.service.store.log(cid))[-1].action["args"] == {"order": [1, 3]}
    assert len((await game.state()).adventurers[SHANNON].active) == 1


async def test_an_order_that_differs_from_the_roll_takes_a_second_private_step(game):
    await shannon_alone(game)
    r = await engage_two_shields(game)
    ask = await game.click(SHANNON, menu(r).custom_id, ["3", "1"])
    assert ask.ephemeral and not ask.error and "You picked 3. Combat → 1. Shield Discipline" in ask.content
    assert [b.label for b in ask.buttons] == ["In the order picked: 3 → 1", "In rolled order: 1 → 3", "Cancel"]
    assert (await game.state()).battle["pending"]  # nothing resolved yet
    done = await game.click(SHANNON, button(ask, "In the order picked"))
    assert not done.error and not done.ephemeral
    cid = await game.table.service.campaign_id(CH)
    assert (await game.table.service.store.log(cid))[-1].action["args"] == {"order": [3, 1]}
    again = await game.click(SHANNON, button(ask, "In rolled order"))
    assert again.error and again.ephemeral and "out of date" in again.content


async def two_players(g: Game, **start) -> None:
    await g.ok(SHANNON, "campaign new", name="Jail")
    await g.ok(SHANNON, "adventurer create", name="Shannon", race="argonian", line="one-hand-and-shield")
    await g.ok(RYAN, "campaign join")
    await g.ok(RYAN, "adventurer create", name="Ryan", race="dark-elf", line="destruction-staff")
    await g.ok(SHANNON, "force", values="2 1")
    await g.ok(SHANNON, "battle start", encounter="jailbreak", deploy="-2,2 -2,1", **start)


async def test_stale_roll_prompts_are_refused_and_change_nothing(game):
    await two_players(game)
    await game.ok(SHANNON, "move", to="0,2")
    first = await engage_two_shields(game)
    await game.ok(SHANNON, "resolve")
    before = await game.log_types()
    twice = await game.click(SHANNON, button(first, "Resolve all"))
    assert twice.error and twice.ephemeral and "already resolved" in twice.content
    await game.ok(SHANNON, "endturn")
    await game.ok(SHANNON, "force", values="1 2")
    second = await game.ok(RYAN, "engage", form="defensive", dice="2 combat")  # a newer roll
    assert ".t1.e1." in button(second, "Resolve all")
    for who, cid in ((SHANNON, button(first, "Resolve all")), (RYAN, button(first, "Resolve none"))):
        old = await game.click(who, cid)
        assert old.error and "out of date" in old.content
    old_pick = await game.click(SHANNON, menu(first).custom_id, ["1"])
    assert old_pick.error and "out of date" in old_pick.content
    s = await game.state()
    assert s.battle["pending"]["owner"] == RYAN
    assert await game.log_types() == before + ["battle.endturn", "dice.force", "battle.engage"]
    # a prompt from an ended campaign (a new one in the same channel) is refused too
    await game.ok(SHANNON, "campaign end", confirm=True)
    await game.ok(SHANNON, "campaign new", name="Again")
    gone = await game.click(RYAN, button(second, "Resolve all"))
    assert gone.error and "out of date" in gone.content
    bad = await game.click(SHANNON, f"hx:roll:{CH}:nonsense")
    assert bad.error and "older version" in bad.content


async def test_only_the_roller_or_the_leader_may_resolve(game):
    await two_players(game, first=RYAN)
    await game.ok(SHANNON, "force", values="1 2")
    r = await game.ok(RYAN, "engage", form="defensive", dice="2 combat")
    refused = await game.click(KIM, button(r, "Resolve all"))
    assert refused.error and "belongs to Ryan" in refused.content
    done = await game.click(SHANNON, button(r, "Resolve all"))  # the leader, for an absent Ryan
    assert not done.error and f"<@{SHANNON}> acts for <@{RYAN}>" in done.content and done.ping == RYAN


# ------------------------------------------------------------ prevention --
async def test_prevention_question_prompt_pings_the_player_and_schedules_a_deadline(game):
    await shannon_alone(game)
    r = await asked(game)
    assert r.ping == SHANNON and f"Now: <@{SHANNON}> chooses how Shannon prevent" in r.content
    assert [b.label for b in r.buttons[:2]] == ["Use the automatic choice", "Use no prevention"]
    sel = menu(r)
    assert [o[0] for o in sel.options] == ["1. Shield Discipline 1 (active)", "2. Shield Discipline 1 (active)"]
    assert sel.max_values == 2
    assert f"within 60 minutes (<t:{int(T0) + 3600}:R>)" in r.content
    cid = await game.table.service.campaign_id(CH)
    (d,) = await game.table.service.store.pending_deadlines(cid)
    assert (d.kind, d.user_id, d.due_at, d.key) == ("prevent", SHANNON, T0 + 3600, "prevent:b1.r1.e1.h0")
    # the same question shown again keeps its deadline
    game.clock.now += 600
    await game.ok(SHANNON, "battle prevention", mode="ask")
    assert [x.due_at for x in await game.table.service.store.pending_deadlines(cid)] == [T0 + 3600]


async def test_prevention_buttons_answer_like_battle_prevent_and_then_go_stale(game):
    await shannon_alone(game)
    r = await asked(game)
    other = await game.click(KIM, button(r, "Use the automatic choice"))
    assert other.error and "belongs to Shannon" in other.content
    done = await game.click(SHANNON, menu(r).custom_id, ["2"])
    assert not done.error, done.content
    cid = await game.table.service.campaign_id(CH)
    last = (await game.table.service.store.log(cid))[-1]
    assert (last.type, last.action["args"]) == ("battle.prevent", {"use": [2]})
    s = await game.state()
    assert s.battle["await"] is None and s.adventurers[SHANNON].hp == 4 and len(s.adventurers[SHANNON].active) == 1
    assert await game.table.service.store.pending_deadlines(cid) == []  # answered: the time-out is dropped
    # the enemies changed Shannon: her mat on request
    assert "Show Shannon's mat" in [b.label for b in done.buttons]
    mat = await game.click(KIM, button(done, "Show Shannon's mat"))
    assert not mat.error and mat.pictures[0].kind == "mat"
    assert any(p.kind == "map" for p in done.pictures) and done.ping == SHANNON  # round 2: her turn again
    stale = await game.click(SHANNON, button(r, "Use the automatic choice"))
    assert stale.error and "already answered" in stale.content


async def test_prevention_order_second_step(game):
    await shannon_alone(game)
    r = await asked(game)
    ask = await game.click(SHANNON, menu(r).custom_id, ["2", "1"])
    assert ask.ephemeral and [b.label for b in ask.buttons][:2] == ["In the order picked: 2 → 1",
                                                                     "In listed order: 1 → 2"]
    done = await game.click(SHANNON, button(ask, "In the order picked"))
    assert not done.error
    cid = await game.table.service.campaign_id(CH)
    assert (await game.table.service.store.log(cid))[-1].action["args"] == {"use": [2, 1]}
    assert (await game.state()).adventurers[SHANNON].hp == 5  # both dice prevent the 2 damage


async def test_the_time_out_applies_the_automatic_choice_exactly_once(tmp_path):
    clock = Clock()
    store = await Store.open(tmp_path / "hexpost.db")
    g = Game(Table(CampaignService(store, clock=clock)), clock)
    await shannon_alone(g)
    await asked(g)
    posts = []

    async def send(channel, reply):
        posts.append((channel, reply))

    assert await run_due_deadlines(g.table, send, now=T0 + 3599) == 0
    assert (await g.state()).battle["await"]
    await store.close()

    # the bot restarts: the deadline is in the database
    store = await Store.open(tmp_path / "hexpost.db")
    g = Game(Table(CampaignService(store, clock=clock)), clock)
    clock.now = T0 + 3601
    # two loops at once (two processes, or a retry): one applies it and posts, the other changes nothing
    counts = await asyncio.gather(run_due_deadlines(g.table, send), run_due_deadlines(g.table, send))
    assert sum(counts) == 1 and len(posts) == 1
    channel, reply = posts[0]
    assert channel == CH and "⏰ Shannon got no prevention choice within 60 minutes" in reply.content
    s = await g.state()
    assert s.battle["await"] is None and s.adventurers[SHANNON].hp == 5  # both Shield dice prevented 2
    assert reply.ping == SHANNON and "Now: **Shannon**'s turn" in reply.content  # round 2 begins
    assert any(p.kind == "map" for p in reply.pictures)
    types = await g.log_types()
    assert types[-1] == "battle.prevent-timeout" and types.count("battle.prevent-timeout") == 1
    cid = await g.table.service.campaign_id(CH)
    entry = (await store.log(cid))[-1]
    assert entry.actor == SHANNON and entry.events[0]["kind"] == "timeout"  # in the leader's name, as a time-out
    assert await run_due_deadlines(g.table, send, now=T0 + 99999) == 0 and len(posts) == 1
    assert await store.pending_deadlines(cid) == []
    # the log still replays to the same campaign
    assert replay(await store.log(cid)).to_dict() == s.to_dict()
    await store.close()


async def test_an_answer_just_before_the_time_out_wins(game):
    await shannon_alone(game)
    r = await asked(game)
    cid = await game.table.service.campaign_id(CH)
    (d,) = await game.table.service.store.pending_deadlines(cid)
    await game.click(SHANNON, button(r, "Use no prevention"))
    # even a deadline row left behind (e.g. written by another process) fires nothing now
    await game.table.service.store.add_deadline(cid, d.key, d.kind, CH, SHANNON, d.due_at)
    posts = []
    assert await run_due_deadlines(game.table, lambda c, rep: posts.append(rep) or asyncio.sleep(0),
                                   now=T0 + 7200) == 0
    assert posts == [] and "battle.prevent-timeout" not in await game.log_types()
    assert (await game.state()).adventurers[SHANNON].hp == 3  # no prevention: 2 damage taken


async def test_the_leader_sets_the_time_out(game):
    await shannon_alone(game)
    shown = await game.ok(SHANNON, "campaign settings")
    assert "prevent_timeout_minutes: 60" in shown.as_text()
    refused = await game.run(SHANNON, "campaign settings", prevent_timeout_minutes=99999)
    assert refused.error
    await game.ok(SHANNON, "campaign settings", prevent_timeout_minutes=5)
    r = await asked(game)
    assert "within 5 minutes" in r.content
    cid = await game.table.service.campaign_id(CH)
    assert [d.due_at for d in await game.table.service.store.pending_deadlines(cid)] == [T0 + 300]
    # 0: the battle waits for the answer; a deadline already scheduled does not fire
    await game.ok(SHANNON, "campaign settings", prevent_timeout_minutes=0)
    assert await run_due_deadlines(game.table, lambda *a: asyncio.sleep(0), now=T0 + 301) == 0
    assert (await game.state()).battle["await"]


async def test_no_time_out_text_when_the_setting_is_zero(game):
    await shannon_alone(game)
    await game.ok(SHANNON, "campaign settings", prevent_timeout_minutes=0)
    r = await asked(game)
    assert "No time-out is set" in r.content
    cid = await game.table.service.campaign_id(CH)
    assert await game.table.service.store.pending_deadlines(cid) == []


async def test_sweep_schedules_a_deadline_the_prompt_never_wrote(game):
    await shannon_alone(game)
    r = await engage_two_shields(game)
    await game.click(SHANNON, button(r, "Resolve all"))
    await game.ok(SHANNON, "force", values="5")
    await game.inv(SHANNON).do("battle.endturn")  # committed, but the bot stopped before its reply
    cid = await game.table.service.campaign_id(CH)
    store = game.table.service.store
    # the deadline was committed with the question, reply or not
    assert [d.due_at for d in await store.pending_deadlines(cid)] == [T0 + 3600]
    assert await sweep(game.table, now=T0 + 10) == 0
    # a campaign saved before deadlines were committed with the state: a question with no time, no row
    import json

    stored = await store.load_active(CH)
    old = dict(stored.state)
    old["battle"]["await"].pop("deadline", None)
    await store._db.execute("UPDATE campaigns SET state = ? WHERE id = ?", (json.dumps(old), cid))
    await store._db.commit()
    await store.cancel_deadlines(cid, "prevent")
    assert await store.pending_deadlines(cid) == []
    assert await sweep(game.table, now=T0 + 10) == 1
    (d,) = await store.pending_deadlines(cid)
    assert d.due_at == T0 + 10 + 3600
    assert await sweep(game.table, now=T0 + 20) == 0


# ---------------------------------------------------------- changed mats --
async def test_mats_of_adventurers_the_enemies_changed(game):
    await shannon_alone(game, ask=False)
    r = await engage_two_shields(game)
    assert changed_by_enemies_labels(r) == []  # her own resolve is not the enemies' doing
    done = await game.click(SHANNON, button(r, "Resolve all"))
    assert changed_by_enemies_labels(done) == []
    await game.ok(SHANNON, "force", values="5")
    end = await game.ok(SHANNON, "endturn")
    assert "Show Shannon's mat" in changed_by_enemies_labels(end)
    assert any(p.kind == "map" for p in end.pictures)
    mat_id = button(end, "Show Shannon's mat")
    shannon = (await game.state()).adventurers[SHANNON]
    assert mat_id.startswith(f"hx:mat:{CH}:c") and mat_id.endswith(f".{SHANNON}.{shannon.ident()}")


def changed_by_enemies_labels(reply):
    return [b.label for b in reply.buttons if b.label.startswith("Show ")]


def test_changed_by_enemies_reads_the_enemy_phase_only():
    from engine.core import Action, Event

    class Out:
        def __init__(self, type_, events):
            self.action = Action(type_, "x")
            self.events = [Event(k, "", {"unit": u} if u else {}) for k, u in events]

    assert changed_by_enemies(Out("battle.resolve", [("damage", "e1"), ("active", "a:S")])) == []
    assert changed_by_enemies(Out("battle.endturn", [("turn-end", "a:S"), ("turn", "a:R"), ("damage", "a:R")])) == []
    assert changed_by_enemies(Out("battle.endturn", [("turn-end", "a:R"), ("enemy-roll", "e1"), ("damage", "a:S"),
                                                     ("status", "a:R"), ("round", None), ("fatigue", "a:K")])) \
        == ["S", "R"]
    assert changed_by_enemies(Out("battle.prevent", [("damage", "a:S"), ("turn", "a:S")])) == ["S"]


# ------------------------------------------------------------------ undo --
async def test_the_leader_undoes_a_move_and_the_map_is_right_again(game):
    await shannon_alone(game)  # ends with Shannon's move -2,2 -> 0,2
    s = await game.state()
    assert (s.battle["units"][f"a:{SHANNON}"]["q"], s.battle["units"][f"a:{SHANNON}"]["r"]) == (0, 2)
    prompt = await game.ok(SHANNON, "undo")
    assert "Undo action" in prompt.content and prompt.ephemeral
    done = await game.click(SHANNON, button(prompt, "Undo it"))
    assert not done.error and not done.update and not done.ephemeral  # the party sees it, with the map
    assert "Undid action" in done.content and done.ping == SHANNON and "Now: **Shannon**'s turn" in done.content
    s = await game.state()
    me = s.battle["units"][f"a:{SHANNON}"]
    assert (me["q"], me["r"]) == (-2, 2) and s.battle["turn"]["moves"] == 0
    pic = next(p for p in done.pictures if p.kind == "map")
    unit = next(u for u in pic.view["units"] if u["id"] == f"a:{SHANNON}")
    assert (unit["q"], unit["r"]) == (-2, 2) and pic.view["path"] == []
    assert pic.view == map_view(s, load_pack(s.pack))
    again = await game.ok(SHANNON, "move", to="0,2")  # and the move can be made again
    assert "-2,2 → -1,2 → 0,2" in again.content


async def test_an_engage_with_dice_cannot_be_undone_nor_the_move_before_it(game):
    await shannon_alone(game)  # moved to 0,2, then engages
    await engage_two_shields(game)
    refused = await game.run(SHANNON, "undo")
    assert refused.error and "can't be undone: it rolled dice" in refused.content
    forced = await game.run(SHANNON, "undo", confirm=True)
    assert forced.error and "rolled dice" in forced.content
    s = await game.state()
    me = s.battle["units"][f"a:{SHANNON}"]
    assert s.battle["pending"] and (me["q"], me["r"]) == (0, 2)  # the move before the engage stays too
    assert (await game.run(RYAN, "undo")).error  # only the leader undoes


async def test_a_move_after_an_engage_can_be_undone_and_the_engage_stays(game):
    await game.ok(SHANNON, "campaign new", name="Jail")
    await game.ok(SHANNON, "adventurer create", name="Shannon", race="argonian", line="one-hand-and-shield")
    await game.ok(SHANNON, "force", values="2")
    await game.ok(SHANNON, "battle start", encounter="jailbreak", deploy="-2,2")
    await game.ok(SHANNON, "force", values="1 2 5")
    r = await game.ok(SHANNON, "engage", dice="2 shield-discipline, combat")  # no target: braces
    await game.click(SHANNON, button(r, "Resolve all"))
    await game.ok(SHANNON, "move", to="0,2")
    done = await game.ok(SHANNON, "undo", confirm=True)
    s = await game.state()
    me = s.battle["units"][f"a:{SHANNON}"]
    assert (me["q"], me["r"]) == (-2, 2) and s.battle["turn"]["engages"] == 1
    assert len(s.adventurers[SHANNON].active) == 2
    unit = next(u for u in next(p for p in done.pictures if p.kind == "map").view["units"]
                if u["id"] == f"a:{SHANNON}")
    assert (unit["q"], unit["r"]) == (-2, 2) and done.ping == SHANNON
    last = await game.run(SHANNON, "undo")  # one step only: the undo itself is the last action now
    assert last.error and "nothing to undo" in last.content


# --------------------------------------------------------------- pings --
TURN_COMMANDS = {"battle start", "move", "engage", "resolve", "ability", "endturn", "battle escape", "battle drop",
                 "battle prevent", "undo", "click roll", "click prv", "click undo", "time-out"}


async def test_every_turn_post_says_whose_move_it_is_and_pings_only_them(game):
    """Play a two-player clash to its end; every post of a turn names and pings exactly the player to move."""
    g = game
    await g.ok(SHANNON, "campaign new", name="Jail")
    await g.ok(SHANNON, "adventurer create", name="Shannon", race="argonian", line="one-hand-and-shield")
    await g.ok(RYAN, "campaign join")
    await g.ok(RYAN, "adventurer create", name="Ryan", race="dark-elf", line="destruction-staff")
    await g.ok(SHANNON, "force", values="2 1")
    await g.ok(SHANNON, "battle start", encounter="jailbreak", deploy="-2,2 -2,1")
    await g.ok(SHANNON, "battle prevention", mode="ask")
    await g.ok(RYAN, "battle prevention", mode="ask")
    await g.ok(SHANNON, "move", to="0,2")
    r = await engage_two_shields(g)
    await g.click(SHANNON, button(r, "Resolve all"))
    await g.ok(SHANNON, "endturn")
    await g.ok(SHANNON, "force", values="1 2")
    r = await g.ok(RYAN, "engage", form="defensive", dice="2 combat")
    await g.click(RYAN, button(r, "Resolve all"))
    posts = []

    async def send(channel, reply):
        posts.append(reply)
        g.replies.append(("time-out", reply, await g.state()))

    await g.ok(SHANNON, "force", values="5 5 5 5 5 5 5 5")
    last = await g.ok(RYAN, "endturn")
    for _ in range(12):  # the enemies hit; Shannon answers by button, Ryan never answers
        s = await g.state()
        if s.battle is None:
            break
        asked = s.battle.get("await")
        if asked and asked["owner"] == SHANNON:
            last = await g.click(SHANNON, button(last, "Use the automatic choice"))
        elif asked:
            g.clock.now += 3 * 3600
            assert await run_due_deadlines(g.table, send) == 1
            last = posts[-1]
        else:
            await g.ok(SHANNON, "force", values="5 5 5 5 5 5")
            last = await g.ok(s.battle["turn"]["owner"], "endturn")
    assert (await g.state()).battle is None
    checked = 0
    for name, reply, state in g.replies:
        if name not in TURN_COMMANDS or reply.error or reply.ephemeral:
            continue
        checked += 1
        found = rules.whose_move(state)
        if found is None:
            assert reply.ping is None, (name, reply.content)
            continue
        assert reply.ping == found[0], (name, reply.content)
        mentions = allowed_mentions(reply)  # what Discord is told: this one user, nobody else
        assert [u.id for u in mentions.users] == [int(found[0])] and not mentions.everyone and not mentions.roles
        assert "Now:" in reply.content and f"<@{found[0]}>" in reply.content.split("Now:")[-1], (name, reply.content)
        for b in reply.buttons + reply.selects:
            assert ID_RE.match(b.custom_id)
    assert checked >= 8
    kinds = {n for n, *_ in g.replies}
    assert {"battle start", "move", "engage", "click roll", "endturn", "click prv", "time-out"} <= kinds


# ------------------------------------------------------- over the wire --
async def test_over_discord_buttons_menu_second_step_and_the_time_out_post(world):
    """The real bot against the fake Discord: resolve by menu and button, a stale click, the time-out post."""
    from cogs.deadlines import post_reply

    w, fake = world, world.fake
    lena, bob = str(w.leader.id), str(w.bob.id)

    async def force(values):
        t = w.bot.table
        assert not (await t.run(t.invocation(lena, str(w.chan.id)), "force", {"values": values})).error

    await party(w)  # Lena plays Shannon, Bob plays Ryan
    await force("2 1")
    res = await w.slash(w.leader, "battle start", {"encounter": "jailbreak", "deploy": "-2,2 -2,1"})
    await w.click(w.leader, res.message, wire_button(res, "Start without them"))  # Cara has no adventurer
    await w.slash(w.leader, "battle prevention", {"mode": "ask"})
    await w.slash(w.leader, "move", {"to": "0,2"})
    await force("1 2 5")
    res = await w.slash(w.leader, "engage", {"target": "High Elf Bandit", "dice": "2 shield-discipline, combat"})
    msg = res.message
    assert labels(msg)[:2] == ["Resolve all", "Resolve none"] and "🎲 Show the roll" in labels(msg)
    (menu_c,) = [c for c in msg.iter_components() if c.get("type") == 3]
    assert (menu_c["min_values"], menu_c["max_values"]) == (1, 3)
    assert_refused(await w.click(w.bob, msg, wire_button(msg, "Resolve all")), "belongs to Shannon")
    step = await fake.select(w.leader, msg, menu_c["custom_id"], ["2", "1"], timeout=10)
    text, ephemeral = answer(step)
    assert ephemeral and "In which order?" in text
    done = await w.click(w.leader, step.message, wire_button(step.message, "In the order picked"))
    text, ephemeral = answer(done)
    assert not ephemeral and "High Elf Bandit is dealt 2 damage" in text
    assert not png_files(done)  # damage dealt, nobody moved or fell: in words, the map a button away
    assert_refused(await w.click(w.leader, msg, wire_button(msg, "Resolve all")), "out of date")

    await w.slash(w.leader, "endturn")
    await force("1 2")
    res = await w.slash(w.bob, "engage", {"form": "defensive", "dice": "2 combat"})
    await w.click(w.bob, res.message, wire_button(res.message, "Resolve all"))
    await force("5 5 5 5 5 5 5 5")
    res = await w.slash(w.bob, "endturn")
    text, _ = answer(res)
    assert f"Now: <@{lena}> chooses" in text and "Use the automatic choice" in labels(res.message)
    assert [str(u) for u in res.message.history[-1]["allowed_mentions"]["users"]] == [lena]

    # nobody answers: the loop's round, an hour and more later, posts the time-out in the channel
    before = len(fake.channel_messages(w.chan))
    state = await w.state()
    cid = await w.bot.table.service.campaign_id(str(w.chan.id))
    (deadline,) = await w.bot.table.service.store.pending_deadlines(cid)
    posted = await run_due_deadlines(w.bot.table, lambda ch, reply: post_reply(w.bot, ch, reply),
                                     now=deadline.due_at + 1)
    assert posted == 1 and state.battle["await"]
    new = [m for m in fake.channel_messages(w.chan)[before:]  # the dashboard post may land here too: not an answer
           if "edited after every action" not in json.dumps(m.embeds)]
    assert new and "⏰ Shannon got no prevention choice" in new[0].content
    who = rules.whose_move(await w.state())
    if who:
        assert [str(u) for u in new[0].history[-1]["allowed_mentions"]["users"]] == [who[0]]
    stale = await w.click(w.leader, res.message, wire_button(res.message, "Use the automatic choice"))
    assert_refused(stale, "already answered")


# -------------------------------------------------------------- lockpick --
async def test_a_lockpick_check_is_a_prompt_with_buttons(game):
    await game.ok(SHANNON, "campaign new", name="Jail")
    await game.ok(SHANNON, "adventurer create", name="Shannon", race="argonian", line="one-hand-and-shield")
    await game.ok(SHANNON, "force", values="2")
    await game.ok(SHANNON, "battle start", encounter="jailbreak", deploy="-2,2")
    await game.ok(SHANNON, "move", path="-1,2 -1,3 0,3")
    r = await game.ok(SHANNON, "lockpick")
    assert [b.label for b in r.buttons[:2]] == ["Try this attempt", "Stop"]
    dice = (await game.state()).battle.lockpick.dice
    assert [o[0] for o in menu(r).options] == [f"Keep die {i} ({v})" for i, v in enumerate(dice, 1)]
    other = await game.click(KIM, button(r, "Stop"))
    assert other.error
    done = await game.click(SHANNON, button(r, "Stop"))
    assert not done.error and "gives up on the lock" in done.content
    cid = await game.table.service.campaign_id(CH)
    last = (await game.table.service.store.log(cid))[-1]
    assert (last.type, last.action["args"]) == ("battle.lockpick", {"stop": True})
    assert (await game.state()).battle["lockpick"] is None
    stale = await game.click(SHANNON, button(r, "Try this attempt"))
    assert stale.error and "out of date" in stale.content


# ---------------------------------------------------- parsed at the edge --
async def test_the_log_stores_parsed_values_not_player_text(game):
    await shannon_alone(game)
    await game.ok(SHANNON, "force", values="1 2 5")
    await game.ok(SHANNON, "engage", target="1,2", dice="2 shield-discipline, combat")
    await game.ok(SHANNON, "resolve", order="3 1")
    cid = await game.table.service.campaign_id(CH)
    log = await game.table.service.store.log(cid)
    args = {e.type: e.action["args"] for e in log}
    assert args["battle.move"] == {"to": [0, 2]}
    assert args["battle.start"] == {"encounter": "jailbreak", "deploy": [[-2, 2]]}
    assert args["battle.engage"] == {"target": [1, 2], "dice": [["shield-discipline", 2], ["combat", 1]]}
    assert args["battle.resolve"] == {"order": [3, 1]}
    # text that does not parse is refused at once, naming the fix
    bad = await game.run(SHANNON, "move", path="1,2 here")
    assert bad.error and "Write hexes as `q,r`" in bad.content
    # the log replays to the same campaign (logs of player text, as older versions wrote them, do too)
    assert replay(log).to_dict() == (await game.state()).to_dict()


# ------------------------------------------------------- the prompt object --
def test_deadline_sync_follows_the_open_prompt():
    from engine.prompts import Prompt, deadline_sync

    class S:
        ended = False

        def __init__(self, prompt):
            self.prompt = prompt

        def open_prompt(self):
            return self.prompt

    ask = Prompt(id="b1.r1.e1.h0", kind="prevent", owner="S", action="battle.prevent", default="auto",
                 deadline=T0 + 60, timeout_action="battle.prevent-timeout")
    roll = Prompt(id="b1.r1.t0.e1", kind="roll", owner="S", action="battle.resolve", default="all")
    legacy = Prompt(id="b1.r1.e1.h0", kind="prevent", owner="S", action="battle.prevent",
                    timeout_action="battle.prevent-timeout")  # saved before deadlines were recorded
    assert deadline_sync(S(None), S(ask)) == ("prevent:b1.r1.e1.h0", "prevent", "S", T0 + 60)
    assert deadline_sync(S(ask), S(ask)) is False  # nothing about the prompt changed
    assert deadline_sync(S(ask), S(None)) is None  # answered: unfired deadlines go
    assert deadline_sync(S(ask), S(roll)) is None  # a roll waits without a deadline
    assert deadline_sync(S(legacy), S(legacy)) is False  # whatever was scheduled for it stays
    with pytest.raises(ValueError):
        Prompt(id="has spaces", kind="roll", owner="S", action="battle.resolve")


async def test_a_refused_commit_writes_no_deadline(tmp_path):
    from engine.store import StaleWrite

    clock = Clock()
    store = await Store.open(tmp_path / "hexpost.db")
    g = Game(Table(CampaignService(store, clock=clock)), clock)
    await shannon_alone(g)
    r = await engage_two_shields(g)
    await g.click(SHANNON, button(r, "Resolve all"))
    await g.ok(SHANNON, "force", values="5")
    real = store.commit

    async def stale(**kw):  # another process wrote the campaign meanwhile
        raise StaleWrite("100")

    store.commit = stale
    refused = await g.run(SHANNON, "endturn")
    assert refused.error and "try again" in refused.content
    store.commit = real
    cid = await g.table.service.campaign_id(CH)
    assert await store.pending_deadlines(cid) == [] and (await g.state()).battle["await"] is None
    await g.ok(SHANNON, "endturn")
    assert [d.due_at for d in await store.pending_deadlines(cid)] == [T0 + 3600]
    await store.close()


async def backflip_offered(g: Game):
    """Shannon, an Acrobat with 3 tenacity next to the High Elf Bandit, ends her turn; it deals 2: Poise takes 1,
    Backflip the other, and the free move it gives waits for her answer."""
    await g.ok(SHANNON, "campaign new", name="Jail")
    await g.ok(SHANNON, "adventurer create", name="Shannon", race="argonian", line="one-hand-and-shield",
               **{"class": "acrobat"})
    await g.ok(SHANNON, "force", values="2")
    await g.ok(SHANNON, "battle start", encounter="jailbreak", deploy="-2,2")
    await g.ok(SHANNON, "move", to="0,2")
    await g.ok(SHANNON, "force", values="5 5 5")
    r = await g.ok(SHANNON, "engage", dice="2 shield-discipline, combat")
    await g.click(SHANNON, button(r, "Resolve all"))
    assert (await g.state()).adventurers[SHANNON].tenacity == 3
    await g.ok(SHANNON, "force", values="5")
    reply = await g.ok(SHANNON, "endturn")
    assert (await g.state()).battle.offers[0].owner == SHANNON
    return reply


async def test_a_free_move_offer_is_a_prompt_with_a_menu_a_stay_button_and_a_time_out(game):
    reply = await backflip_offered(game)
    assert "Backflip lets Shannon move up to 1 hex for free now" in reply.content
    assert reply.ping == SHANNON and "Stay where you are" in [b.label for b in reply.buttons]
    assert "Shannon stays put" in reply.content  # what the time-out does, and when
    pick = menu(reply)
    assert pick.options and all(o[0].split(". ", 1)[1].startswith("Move to ") for o in pick.options)
    moved = await game.click(SHANNON, pick.custom_id, [pick.options[0][1]])
    assert not moved.error and "makes a free move (Backflip)" in moved.content
    stale = await game.click(SHANNON, button(reply, "Stay where you are"))
    assert stale.error and "out of date" in stale.content


async def test_an_unanswered_free_move_times_out_once_and_the_enemies_go_on(game):
    await backflip_offered(game)
    posts = []

    async def send(channel, reply):
        posts.append(reply)

    assert await run_due_deadlines(game.table, send, now=T0 + 3599) == 0
    game.clock.now = T0 + 3601
    counts = await asyncio.gather(run_due_deadlines(game.table, send), run_due_deadlines(game.table, send))
    assert sum(counts) == 1 and len(posts) == 1
    assert "⏰ Shannon made no move within 60 minutes, so they stay where they are" in posts[0].content
    s = await game.state()
    assert not s.battle.offers and (s.battle.units[f"a:{SHANNON}"].q, s.battle.units[f"a:{SHANNON}"].r) == (0, 2)
    assert (await game.log_types())[-1] == "battle.offer-timeout"
