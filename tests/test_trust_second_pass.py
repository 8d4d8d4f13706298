"""Trust, second pass: names and ids in one namespace each, a skirmish after its winner left, deadlines of
every ruleset at start-up, another game's buttons, member text in posts.  (The faults seen in Discord are tested
through the real client over the fake Discord in tests/test_e2e_trust.py; the busy database in tests/test_store_busy.py.)"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import rulesets
from engine.actions import dice_for
from engine.core import Action, RuleError
from engine.service import CampaignService, replay
from helpers.exports import Played, doc_of, raw
from helpers.table import play

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "examples" / "skirmish.txt").read_text()


# --- names and ids ------------------------------------------------------------------------------------------
def renamed_and_reused(rules: int) -> Played:
    """A fighter named "A1" (a2), then a1 dismissed and a new a1 recruited after it: the dict holds a2 before
    a1, the store (keys sorted) a1 before a2.  Deploying "a1" must mean the same fighter in play and in replay."""
    p = Played()
    for a in (Action("campaign.new", "lena", {"name": "Fen", "ruleset": "skirmish", "channel_id": "fen",
                                              "guild_id": "g", "seed": 9, "rules": rules, "pack": "skirmish"}),
              Action("skirmish.warband", "lena", {"faction": "wardens"}),
              Action("skirmish.recruit", "lena", {"fighter": "bramble-guard"}),
              Action("skirmish.recruit", "lena", {"fighter": "bramble-guard", "name": "A1"}),
              Action("skirmish.dismiss", "lena", {"fighter": "a1"}),
              Action("skirmish.recruit", "lena", {"fighter": "bramble-guard"}),
              Action("skirmish.deploy", "lena", {"fighter": "a1", "at": "-1,5"})):
        assert p.do(a), (a, p.why)
    return p


async def test_a_fighter_named_like_an_id_no_longer_makes_the_replay_differ_and_its_export_imports(store, tmp_path):
    service = CampaignService(store)
    p = renamed_and_reused(rules=1)  # a skirmish begun before revision 2: its names are kept, as they played
    for i, e in enumerate(p.log):
        await service.execute("fen", Action.from_dict(e["action"]))
    live = (await service.campaign("fen")).to_dict()
    assert live["fighters"]["a1"]["hex"] == [-1, 5] and live["fighters"]["a2"]["hex"] is None
    cid = await service.campaign_id("fen")
    assert replay(await store.log(cid)).to_dict() == live  # the log rebuilds what play made
    errors, text, _ = await play(store, tmp_path, "fen", "/as lena\n/campaign export")
    assert errors == 0, text
    export = next((tmp_path / "out").glob("campaign-*.json*"))
    errors, text, _ = await play(store, tmp_path, "ford", f'/as lena\n/campaign import file:"{export}"')
    assert errors == 0 and "imported" in text, text


@pytest.mark.parametrize("name,why", [("A1", "reads like a fighter's id"), ("b 12", "reads like a fighter's id"),
                                      ("3,4", "reads like a hex"), ("Bramble-guard", "already a fighter's name")])
def test_from_revision_2_a_fighters_name_never_reads_like_an_id_a_hex_or_another_name(name, why):
    game = rulesets.named("skirmish")
    s = None
    for a in (Action("campaign.new", "lena", {"name": "Fen", "channel_id": "c", "guild_id": "g", "seed": 1,
                                              "rules": 2, "pack": "skirmish"}),
              Action("skirmish.warband", "lena", {"faction": "wardens"}),
              Action("skirmish.recruit", "lena", {"fighter": "bramble-guard"})):
        s = game.execute(s, a, dice_for(s), 0.0).state
    with pytest.raises(RuleError, match=why):
        game.execute(s, Action("skirmish.recruit", "lena", {"fighter": "thornspeaker", "name": name}), dice_for(s), 0.0)
    ok = game.execute(s, Action("skirmish.recruit", "lena", {"fighter": "thornspeaker", "name": "Moss Fang"}),
                      dice_for(s), 0.0).state
    assert [f.name for f in ok.fighters.values()] == ["Bramble-guard", "Moss Fang"] or "Moss Fang" in [
        f.name for f in ok.fighters.values()]


def test_from_revision_3_an_adventurer_is_not_named_like_a_hex_or_a_label_and_a_name_matching_two_units_is_refused():
    from battle_helpers import jailbreak, party, run

    s = party()
    assert s.rules >= 3
    for name, why in (("2,1", "reads like a hex"), ("HEB1", "label"), ("E2", "label")):
        with pytest.raises(RuleError, match=why):
            run(s, "adventurer.create", "X", {"name": name, "race": "nord", "line": "bow"})
    run(s, "adventurer.create", "X", {"name": "Heb 1", "race": "nord", "line": "bow"})  # a name with a word
    s, _ = jailbreak(s)
    # the same text for two units (an enemy's label and an adventurer's short label here) names neither
    shannon = s.battle.units["a:S"]
    enemy = next(u for u in s.battle.units.values() if u.side == "enemy")
    shannon.short = enemy.short
    with pytest.raises(RuleError, match="names more than one unit"):
        run(s, "battle.adjust", "S", {"unit": enemy.short, "hp": -1})
    out, _ = run(s, "battle.adjust", "S", {"unit": [enemy.q, enemy.r], "hp": -1})  # its hex names it
    assert out.battle.units[enemy.id].hp == enemy.hp - 1


# --- sweeps, other games, member text -----------------------------------------------------------------------
async def test_after_a_skirmish_ends_and_its_winner_leaves_status_works_for_everyone(store, tmp_path):
    errors, text, _ = await play(store, tmp_path, "fen", EXAMPLE)
    assert errors == 0, text
    state = await CampaignService(store).campaign("fen")
    assert state.phase == "over" and state.result["winner"] == "lena"
    errors, text, _ = await play(store, tmp_path, "fen", "/as lena\n/campaign leader player:bob\n"
                                                         "/campaign leave confirm:yes")
    assert errors == 0, text
    for line in ("@bob /skirmish status", "@bob /campaign status", "@bob /skirmish map", "@cara /campaign status"):
        errors, text, _ = await play(store, tmp_path, "fen", line)
        assert errors == 0 and "went wrong" not in text, (line, text)
    assert "have left the campaign" in text


async def test_every_rulesets_campaigns_survive_the_start_up_sweep(store, tmp_path):
    """A skirmish opened before a tes campaign whose question was saved without its deadline: the sweep looks at
    each with its own rules and schedules the question (it crashed on the skirmish: KeyError 'difficulty')."""
    import json as _json

    from commands.core import Table
    from engine.deadlines import sweep
    from test_battle_prompts import CH, SHANNON, T0, Clock, Game, button, engage_two_shields, shannon_alone

    errors, text, _ = await play(store, tmp_path, "fen", EXAMPLE)  # the older campaign, a skirmish
    assert errors == 0, text
    g = Game(Table(CampaignService(store, clock=Clock())), Clock())
    await shannon_alone(g)
    r = await engage_two_shields(g)
    await g.click(SHANNON, button(r, "Resolve all"))
    await g.ok(SHANNON, "force", values="5")
    await g.inv(SHANNON).do("battle.endturn")  # the enemy's hit asks Shannon: a question waits
    cid = await g.table.service.campaign_id(CH)
    stored = await store.load_active(CH)
    old = dict(stored.state)
    old["battle"]["await"].pop("deadline", None)  # saved before deadlines were committed with the state
    await store._db.execute("UPDATE campaigns SET state = ? WHERE id = ?", (_json.dumps(old), cid))
    await store._db.commit()
    await store.cancel_deadlines(cid, "prevent")
    assert [c for c, _ in await store.active_campaigns()][0] != cid  # the skirmish comes first
    assert await sweep(g.table, now=T0 + 10) == 1
    (d,) = await store.pending_deadlines(cid)
    assert d.due_at == T0 + 10 + 3600


async def test_another_games_buttons_are_answered_clearly_and_change_nothing(table, store):
    lena = lambda: table.invocation("lena", "100", "g", "lena")  # noqa: E731
    assert not (await table.run(lena(), "campaign new", {"name": "Fen", "ruleset": "skirmish"})).error
    cid = await table.service.campaign_id("100")
    before = (await table.service.campaign("100")).to_dict()
    for custom_id in (f"hx:retire:100:c{cid}.lena.x", f"hx:mat:100:c{cid}.lena.x", "hx:roll:100:c1.b1.r1.t0.e0.all",
                      "hx:guide:100:lena.ab12.0.race", "hx:retire:100:lena", "hx:nope:100:x"):
        reply = await table.click(lena(), custom_id)
        assert reply.error and "out of date" in reply.content, (custom_id, reply.content)
        assert "Unknown action" not in reply.content and "went wrong" not in reply.content
    assert (await table.service.campaign("100")).to_dict() == before
    # the action a game lacks is refused in words, never as the raw template "Unknown action {type}."
    with pytest.raises(RuleError) as refused:
        rulesets.named("skirmish").execute(None, Action("adventurer.retire", "lena", {}), dice_for(None), 0.0)
    assert "{type}" not in refused.value.message and "adventurer.retire" in refused.value.message


HOSTILE = "@everyone <@&123> <#55> [free gold](http://evil.example) **loud** `code` ||spoiler|| # heading"


@pytest.mark.parametrize("rules", [2, 3])
async def test_a_reason_and_a_display_name_are_shown_as_plain_text(store, tmp_path, rules, monkeypatch):
    from commands.core import Table
    from rulesets.tes.state import RULES
    import rulesets.tes as tes

    monkeypatch.setattr(tes.RULESET, "rules", rules)  # a campaign begun before revision 3 is covered too
    table = Table(CampaignService(store))
    lena = lambda: table.invocation("1001", "100", "g", HOSTILE)  # noqa: E731 - her display name
    assert not (await table.run(lena(), "campaign new", {"name": "Night Watch"})).error
    reply = await table.run(lena(), "adventurer create", {"name": "Sil", "race": "argonian",
                                                          "line": "one-hand-and-shield"})
    assert not reply.error, reply.content
    shown = reply.as_text()
    assert "everyone" in shown and "@everyone" not in shown and "[free gold]" not in shown  # the mat's footer
    assert (await table.service.campaign("100")).rules == min(rules, RULES)
    assert not (await table.run(lena(), "battle start", {"encounter": "jailbreak"})).error
    reply = await table.run(lena(), "battle adjust", {"unit": "Sil", "bonus_hp": 1, "reason": HOSTILE[:190]})
    assert not reply.error, reply.content
    for text in (reply.as_text(), (await table.run(lena(), "battle status")).as_text(),
                 (await table.run(lena(), "campaign log")).as_text()):
        assert "Adjustment" in text
        for live in ("@everyone", "<@&123>", "<#55>", "[free gold](", "**loud**", "`code`", "||spoiler||"):
            assert live not in text, (live, text)
