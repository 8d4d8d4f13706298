"""A whole duel at the local table (examples/duel.txt) to its end, checked against the expected final state;
its log replays to the stored state; undo; export and import; private refusals that change nothing; the
private place menu; the time-outs; reminders; and the duel package imports nothing of the other games."""
from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path

from PIL import Image

from commands.core import Table
from commands.local import LocalTable
from engine.core import Action
from engine.service import CampaignService, replay
from engine.store import Store
from render.duel import W

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "examples" / "duel.txt").read_text().splitlines()
T0 = 1_700_000_000.0


class Clock:
    def __init__(self, now=T0):
        self.now = now

    def __call__(self):
        return self.now


async def play(tmp_path, lines, channel="local", clock=None, store=None):
    store = store or await Store.open(tmp_path / "x.db")
    out: list[str] = []
    service = CampaignService(store, clock=clock) if clock else CampaignService(store)
    local = LocalTable(Table(service), channel=channel, out_dir=tmp_path / "out", echo=out.append, user="lena")
    errors = await local.run_script(lines)
    return store, local, errors, "\n".join(out)


def upto(text: str) -> list[str]:
    """The example's lines up to (and with) the first line that starts with ``text``."""
    i = next(n for n, line in enumerate(EXAMPLE) if line.startswith(text))
    return EXAMPLE[:i + 1]


async def test_the_example_duel_is_played_to_its_end(tmp_path):
    store, local, errors, text = await play(tmp_path, EXAMPLE)
    try:
        assert errors == 0, text
        state = await local.table.service.campaign("local")
        fight = state.fight
        assert state.ruleset == "duel" and fight.over and fight.round == 3 and fight.winner == 0
        assert fight.result == "Brann and Oda defeated the Marsh Wisp"
        brann, oda, wisp = fight.fighters["c:lena"], fight.fighters["c:bob"], fight.fighters["m:marsh-wisp"]
        assert (brann.grit, oda.grit, wisp.grit) == (8, 9, 0) and wisp.recalled
        assert (state.characters["lena"].fame, state.characters["bob"].fame) == (1, 1)
        assert all(not f.effects and not f.ailments for f in fight.fighters.values())
        assert state.history == [{"no": 1, "kind": "monster", "rounds": 3,
                                  "result": "Brann and Oda defeated the Marsh Wisp"}]
        for line in ("Finesse: Brann 9 4; Marsh Wisp 9 9 2. Marsh Wisp wins the roll-off.",
                     "Brann spends 2 Fame (now 0) to reroll die 2 (Marsh Wisp's Will-o'-Light at Brann): 12 → 5.",
                     "+1 Blessing on each die: 12, 6, 4",
                     "Marsh Wisp's Bog Fire goes on the Priority track at -1 (5 -6 Slow).",
                     "Block 2 (Chain Coat), Block 1 (Shield Bash) → 1 Injury.",
                     "Brann suffers 1 Injury (Burn 1): 8/10 Grit left.",
                     "Brann's Ailments are removed (Burn 1) by Balance.",
                     "-2 second damaging action on each die: 9, 7",
                     "The fight is over: Brann and Oda defeated the Marsh Wisp!"):
            assert line in text, line
        # a picture after every resolved action, phone-sized
        names = [p.name for p in local.images]
        assert len(names) >= 20 and all("duel-" in n for n in names)
        with Image.open(local.images[-1]) as im:
            assert im.format == "PNG" and im.width == W
        # the log alone rebuilds the stored state (dice checked action by action)
        cid = await local.table.service.campaign_id("local")
        assert replay(await store.log(cid)).to_dict() == state.to_dict()
    finally:
        await store.close()


async def test_what_the_other_players_read_never_names_an_unrevealed_card(tmp_path):
    """Every public line of the example, up to each reveal, names no card a player placed face-down."""
    store, local, errors, text = await play(tmp_path, EXAMPLE)
    try:
        public = [line for line in text.splitlines() if not line.startswith("(only you see this)")]
        secret = ("Blessing", "Frost Snare", "Purifying Light", "Shield Bash", "Healing Draught", "Balance")
        # the answer to each placing line (until the next command) is public except its private note
        blocks = "\n".join(public).split("\n> ")
        for block in blocks:
            head = block.splitlines()[0]
            if "/duel place" in head and "reveals" not in block:
                assert not any(name in block for name in secret), block
    finally:
        await store.close()


async def test_undo_takes_back_a_placement_but_not_a_roll(tmp_path):
    store, local, errors, text = await play(tmp_path, upto("@bob /duel place cards:blessing"))
    try:
        assert errors == 0, text
        service = local.table.service
        state = await service.campaign("local")
        assert [p.card for p in state.fight.fighters["c:bob"].placed] == ["blessing", "frost-snare"]
        # the party leader never takes back another player's action (a rival's placing, replayed again and again)
        refused = await local.run_line("/undo confirm:yes")
        assert refused.error and "Only <@bob> can take back their own action" in refused.content, refused.content
        assert [p.card for p in (await service.campaign("local")).fight.fighters["c:bob"].placed] == [
            "blessing", "frost-snare"]
        reply = await local.run_line("@bob /undo confirm:yes")  # the player takes back their own placing
        assert not reply.error and reply.pictures and reply.pictures[0].kind == "duel", reply.content
        back = await service.campaign("local")
        oda = back.fight.fighters["c:bob"]
        assert oda.placed == [] and "blessing" in oda.hand and back.fight.question.owner == "bob"
        assert "Blessing" not in reply.content  # the undo post says nothing of the cards
        # placed again; Brann's placing sets off the reveal and the rolls: it can't be taken back
        again = ["@bob /duel place cards:blessing,frost-snare ally:Brann", "/force 2 8 3",
                 "/duel place cards:lure,base-attack base:attack"]
        assert await local.run_script(again) == 0
        refused = await local.run_line("/undo confirm:yes")
        assert refused.error and "can't be undone: it rolled dice" in refused.content
        cid = await service.campaign_id("local")
        assert replay(await store.log(cid)).to_dict() == (await service.campaign("local")).to_dict()
    finally:
        await store.close()


async def test_refusals_are_private_name_the_fix_and_change_nothing(tmp_path):
    store, local, errors, text = await play(tmp_path, upto("@bob /duel hand"))
    try:
        assert errors == 0, text
        before = (await local.table.service.campaign("local")).to_dict()
        for line, needle in (
                ("/duel place cards:lure", "turn for placing cards; wait for yours"),
                ("@bob /duel place cards:lure,focus,balance", "at most two cards"),
                ("@bob /duel place cards:troll-tooth", "Troll Tooth is not in your hand"),
                ("@bob /duel place cards:dragonfire", "there is no card"),
                ("@bob /duel place cards:lure target:Nobody", "nobody called"),
                ('@bob /duel place cards:lure ally:"Marsh Wisp"', "must be you or an ally"),
                ("@bob /duel place cards:base-attack base:maybe", "base: is attack or token"),
                ("/duel place cards:lure player:bob", "has no option"),
                ("@bob /duel reroll die:1", "waiting for placing cards"),
                ("@bob /duel declare use:token", "waiting for placing cards"),
                ("@cy /duel place cards:lure", "You are not in this party"),  # a member outside: test_duel_rules
                ("/duel fight monster:cave-troll", "already going on"),
                ("@bob /duel character hero:duelist name:Again", "already play Oda"),
                ("/duel retire confirm:yes", "can't retire during a fight"),
                ("@bob /campaign leave confirm:yes", "A fight is going on"),
                ("/campaign export", "Export the campaign once the fight is over"),
                ("/duel join answer:in", "waiting for placing cards"),
                ("@bob /duel join answer:maybe", "answer: is in"),
        ):
            reply = await local.run_line(line)
            assert reply.error and reply.ephemeral and needle in reply.content, (line, reply.content)
        assert (await local.table.service.campaign("local")).to_dict() == before
    finally:
        await store.close()


async def test_the_private_place_menu_shows_the_hand_to_its_owner_alone(tmp_path):
    store, local, errors, text = await play(tmp_path, upto("@bob /duel hand"))
    try:
        table = local.table
        state = await table.service.campaign("local")
        cid = await table.service.campaign_id("local")
        p = state.fight.question
        opener = f"hx:duel:local:c{cid}.f1.a{p.ask}.open"

        async def click(who, custom_id, values=None):
            inv = table.invocation(who, "local", "local-guild", who)
            return await table.click(inv, custom_id, values)

        # the leader (and anyone else) is refused and sees nothing of the hand
        for who in ("lena", "cy"):
            r = await click(who, opener)
            assert r.error and r.ephemeral and "This is Oda's hand" in r.content and "Blessing" not in r.content
        menu = await click("bob", opener)
        assert menu.ephemeral and "Blessing (Priority 11)" in menu.content
        sel = menu.selects[0]
        assert sel.max_values == 2 and [o[0] for o in sel.options][:2] == ["Base Attack (Priority 6)"] * 2
        assert (await click("lena", sel.custom_id, ["6"])).error  # the leader can't answer a private prompt
        picked = await click("bob", sel.custom_id, ["6", "3"])  # Blessing, Lure
        assert picked.ephemeral and "You placed Lure, Blessing face-down" in picked.content
        public = picked.followups[0]
        assert not public.ephemeral and "Oda places 2 cards face-down." in public.content
        assert "Blessing" not in public.content and "Lure" not in public.content and public.ping == "lena"
        state = await table.service.campaign("local")
        assert [x.card for x in state.fight.fighters["c:bob"].placed] == ["lure", "blessing"]
        stale = await click("bob", sel.custom_id, ["1"])
        assert stale.error and "out of date" in stale.content
        log = await table.service.log("local", limit=3)
        assert all("Blessing" not in (e.events[0]["text"] if e.events else "") for e in log)
    finally:
        await store.close()


async def test_an_absent_player_is_passed_by_the_leader_never_placed_for(tmp_path):
    store, local, errors, text = await play(tmp_path, upto("@bob /duel hand"))
    try:
        reply = await local.run_line("/duel pass player:bob")
        assert not reply.error and "Oda places no card this round." in reply.content
        assert "@lena acts for @bob" in reply.content or "acts for" in reply.content
    finally:
        await store.close()


async def test_time_outs_give_the_default_answer_once(tmp_path):
    from rulesets.tes.present.answers import run_due_deadlines

    clock = Clock()
    store, local, errors, text = await play(tmp_path, upto("@bob /duel hand"), clock=clock)
    try:
        table = local.table
        cid = await table.service.campaign_id("local")
        (d,) = await store.pending_deadlines(cid)
        assert (d.user_id, d.due_at) == ("bob", T0 + 24 * 3600)
        posts = []

        async def send(channel, reply):
            posts.append(reply)

        clock.now = T0 + 24 * 3600 + 1
        assert await run_due_deadlines(table, send, now=clock.now) == 1
        assert await run_due_deadlines(table, send, now=clock.now) == 0
        state = await table.service.campaign("local")
        assert state.fight.question.owner == "lena"
        assert "⏰ Oda placed no card within 24 hours, so places none this round." in posts[0].content
        assert posts[0].ping == "lena"
        # a Fame question times out after ask_minutes: no reroll
        await local.run_script(["/force 2 8 3", "/duel place cards:lure,base-attack base:attack"])
        state = await table.service.campaign("local")
        assert state.fight.chain is not None
        (d,) = await store.pending_deadlines(cid)
        clock.now = d.due_at + 1
        assert await run_due_deadlines(table, send, now=clock.now) == 1
        assert "⏰ Brann did not answer within 60 minutes, so rerolls nothing." in "\n".join(
            r.content for r in posts[1:] for r in [r] + r.followups)
    finally:
        await store.close()


async def test_the_reminder_follows_the_question(tmp_path):
    store, local, errors, text = await play(tmp_path, upto("@bob /duel hand"))
    try:
        cid = await local.table.service.campaign_id("local")
        assert [r.user_id for r in await store.pending_reminders(cid)] == ["bob"]
        await local.run_script(["@bob /duel place cards:blessing,frost-snare ally:Brann"])
        assert [r.user_id for r in await store.pending_reminders(cid)] == ["lena"]
    finally:
        await store.close()


async def test_a_duel_exports_after_the_fight_and_imports_equal_to_its_replay(tmp_path):
    store, local, errors, text = await play(tmp_path, EXAMPLE + ["/campaign export"])
    try:
        assert errors == 0, text
        export = next((tmp_path / "out").glob("campaign-*.json*"))
        data = export.read_bytes()
        doc = json.loads(gzip.decompress(data) if export.suffix == ".gz" else data)
        assert doc["ruleset"] == "duel" and doc["state"]["ruleset"] == "duel"
        other = LocalTable(local.table, channel="ford", out_dir=tmp_path / "out2", echo=lambda *_: None)
        assert await other.run_script(["/as lena", f'/campaign import file:"{export}"', "/duel status"]) == 0
        state = await local.table.service.campaign("ford")
        original = await local.table.service.campaign("local")
        # the same campaign, but for its dice: the importing bot draws a fresh seed (no file decides the rolls)
        keep = ("channel_id", "guild_id", "seed", "dice_counter")
        assert {k: v for k, v in state.to_dict().items() if k not in keep} == \
            {k: v for k, v in original.to_dict().items() if k not in keep}
        assert state.seed != original.seed and state.dice_counter == 0
        cid = await local.table.service.campaign_id("ford")
        assert replay(await store.log(cid)).to_dict() == state.to_dict()
        # the imported campaign plays on: a new fight
        more = await other.run_script(["/duel fight monster:cave-troll", "/duel join answer:in gear:chain-coat"])
        assert more == 0 and (await local.table.service.campaign("ford")).fight.no == 2
    finally:
        await store.close()


async def test_a_rivals_fight_at_the_table(tmp_path):
    lines = ["/as lena", '/campaign new name:"Yard" ruleset:duel', "/duel character hero:duelist name:Vex",
             "@bob /duel character hero:hedge-witch name:Mira", "@cy /duel character hero:pilgrim name:Oda",
             "/duel fight rival:bob", "@bob /duel join answer:in", "@cy /duel join answer:b gear:chain-coat"]
    store, local, errors, text = await play(tmp_path, lines)
    try:
        assert errors == 0, text
        state = await local.table.service.campaign("local")
        f = state.fight.fighters
        assert (f["c:lena"].side, f["c:bob"].side, f["c:cy"].side) == (0, 1, 1)
        assert state.fight.token == "c:lena"  # Vex's Fame 3 is the highest
        # reverse turn order: Oda, Mira, then Vex, who has two enemies: an attack names its target
        assert await local.run_script(["@cy /duel place cards:frost-snare", "@bob /duel place cards:glare"]) == 0
        reply = await local.run_line("/duel place cards:throwing-axe")
        assert reply.error and "name the one your attack aims at with target: (Mira and Oda)" in reply.content
        # through the private menu: the target is asked in a second private step
        table = local.table
        cid = await table.service.campaign_id("local")
        state = await table.service.campaign("local")
        inv = table.invocation("lena", "local", "local-guild", "lena")
        pid = f"f1.a{state.fight.question.ask}"
        menu = await table.click(inv, f"hx:duel:local:c{cid}.{pid}.open")
        spot = str(state.fight.fighters["c:lena"].hand.index("throwing-axe") + 1)
        ask = await table.click(table.invocation("lena", "local", "local-guild", "lena"), menu.selects[0].custom_id,
                                [spot])
        assert ask.ephemeral and "needs a target" in ask.content
        assert [b.label for b in ask.buttons] == ["Aim at Mira", "Aim at Oda"]
        done = await table.click(table.invocation("lena", "local", "local-guild", "lena"), ask.buttons[1].custom_id)
        assert done.ephemeral and "You placed Throwing Axe face-down" in done.content
        posted = "\n".join(r.content for r in done.followups + [f for d in done.followups for f in d.followups])
        assert "Vex's Throwing Axe goes on the Priority track at 7." in posted
        state = await table.service.campaign("local")
        axe = next(t for t in state.fight.track if t.card == "throwing-axe")
        assert axe.target == "c:cy"  # waiting on the track, aimed at Oda
    finally:
        await store.close()


ROADS = ["/as lena", '/campaign new name:"Crossings" ruleset:duel', "/duel character hero:sellsword name:Brann",
         "@bob /duel character hero:pilgrim name:Oda", "@cy /duel character hero:hedge-witch name:Mira",
         '@cy /duel travel zone:"Mill Ford"', "/duel fight monster:cave-troll runner:cy",
         "/duel join answer:in gear:chain-coat", "@bob /duel join answer:in gear:warded-cloak", "@bob /duel pass",
         "/duel place cards:focus"]


async def test_zones_and_the_monster_runner_at_the_table_replay_and_time_out(tmp_path):
    from rulesets.tes.present.answers import run_due_deadlines

    clock = Clock()
    store, local, errors, text = await play(tmp_path, ROADS + ["/duel status"], clock=clock)
    try:
        assert errors == 0, text
        assert "Mira travels from Crossroads Inn to Mill Ford." in text
        assert "Mira joins" not in text and "does Mira join" not in text  # Mira stands elsewhere: never asked
        assert "@cy, you run the Cave Troll: roll the Cave Troll's procedure die with the button (or /duel roll)." \
            in text
        assert "Without an answer within 60 minutes" in text and "the bot rolls for the Cave Troll." in text
        assert "Mira (cy), Hedge Witch: Grit 7, Fame 2, at Mill Ford" in text
        table = local.table
        cid = await table.service.campaign_id("local")
        (d,) = await store.pending_deadlines(cid)
        assert d.user_id == "cy"
        posts = []

        async def send(channel, reply):
            posts.append(reply)

        await table.service.execute("local", Action("dice.force", "lena", {"values": [11]}))
        clock.now = d.due_at + 1
        assert await run_due_deadlines(table, send, now=clock.now) == 1
        said = "\n".join(r.content for r in posts for r in [r] + r.followups)
        assert "did not roll for the Cave Troll within 60 minutes, so the bot rolls for them." in said
        assert "The table rolls 11 for the Cave Troll: Stony Hide." in said
        state = await table.service.campaign("local")
        assert replay(await store.log(cid)).to_dict() == state.to_dict()
    finally:
        await store.close()


def test_the_duel_package_imports_nothing_of_the_other_games():
    for path in (ROOT / "rulesets" / "duel").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("rulesets.tes", "rulesets.skirmish")), (path, name)
                assert not name.startswith(("discord", "PIL", "commands", "cogs", "render")), (path, name)


async def test_forced_dice_go_through_the_service_like_any_action(tmp_path):
    store, local, errors, text = await play(tmp_path, upto("/duel fight"))
    try:
        await local.table.service.execute("local", Action("dice.force", "lena", {"values": [3]}))
        assert (await local.table.service.campaign("local")).forced == [3]
    finally:
        await store.close()
