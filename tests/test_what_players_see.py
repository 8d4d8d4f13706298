"""What players could not see: statuses, the battle's end, the lockpick check, who is asked "now", the
skirmish's winner, wounds, names after a restart, what just happened and the initiative's roll-off."""
from __future__ import annotations

import io

from PIL import Image

import render
from battle_helpers import ctx, jailbreak, party, run
from commands.core import Table
from commands.local import LocalTable
from engine.core import Action
from engine.service import CampaignService, replay
from engine.store import Store
from picture_views import lockpick_check_view, skirmish_over_view, skirmish_start, skirmish_tie_view
from rulesets.tes.present.battle import _plain, lockpick_view, map_view, result_view

SETUP = """
/campaign new name:Jail difficulty:adept
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
/force 2
/battle start encounter:jailbreak deploy:-2,2
"""


async def _local(tmp_path, script):
    store = await Store.open(tmp_path / "x.db")
    out: list[str] = []
    replies = []
    local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "out", echo=out.append)
    real = local.print_reply

    async def keep(reply):
        replies.append(reply)
        await real(reply)

    local.print_reply = keep
    try:
        errors = await local.run_script(script.strip().splitlines())
        state = await local.table.service.campaign("local")
    finally:
        await store.close()
    return errors, state, "\n".join(out), replies


# ---------------------------------------------------------------------------------------- statuses --
async def test_battle_status_says_every_units_statuses_and_what_they_do(tmp_path):
    errors, state, text, replies = await _local(tmp_path, SETUP + """
/battle adjust unit:Shannon status:blind reason:test
/battle adjust unit:"High Elf Bandit" status:daze reason:test
/battle status
""")
    assert errors == 0, text
    status = str(replies[-1].embeds[0].fields)
    assert "blind" in status and "engages only the strongest adjacent one" in status   # Shannon, in her track
    assert "daze" in status and "ends with its turn" in status                          # the bandit, on its chip


def test_the_map_shows_an_adventurers_statuses_from_the_track_and_the_chip():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    s.adventurers["S"].cooldown.append({"status": "blind"})
    s.battle.units["a:S"].statuses.append("stealth")      # an S die placed on herself (Shadow Cloak)
    view = map_view(s, ctx(s).pack)
    shannon = next(u for u in view["units"] if u["id"] == "a:S")
    assert shannon["statuses"] == ["blind", "stealth"]


# ------------------------------------------------------------------------------- the battle's end --
async def test_a_victory_is_pictured(tmp_path):
    errors, state, text, replies = await _local(tmp_path, SETUP + """
/move to:0,2
/force 3 4 4
/engage target:"High Elf Bandit" dice:"2 shield-discipline, combat"
/resolve
/endturn
""")
    assert errors == 0, text
    assert state.battle is None and state.last_battle.outcome == "victory"
    last = replies[-1]
    kinds = [p.kind for p in last.pictures]
    assert kinds == ["result"]                                # the end itself, the post's one picture
    assert any("mat" in b.label for b in last.buttons)        # the last actor's mat a button away
    view = last.pictures[0].view
    assert view["result"] == "victory" and "victory" in view["title"]
    assert any("Victory" in line for line in view["log"])
    hb = next(u for u in view["units"] if u["label"] == "High Elf Bandit")
    assert hb["defeated"] and hb["defeated_at"] == [1, 2]
    img = Image.open(io.BytesIO(render.render("result", view))).convert("RGB")
    banner = img.crop((img.size[0] - 220, 10, img.size[0] - 10, 60))
    assert sum(1 for p in banner.get_flattened_data() if p == (40, 130, 60)) > 1000   # the green VICTORY badge


def test_a_defeat_is_pictured_with_the_party_as_it_fell():
    from battle_helpers import texts

    s = party(ryan=False)
    s, _ = jailbreak(s, {"S": "-2,2"}, forced=(2,))
    pack = ctx(s).pack
    ev = []
    for _ in range(3):
        s, ev = run(s, "battle.endturn", "S", forced=[5, 1, 1])
        if s.battle is None:
            break
    assert s.battle is None and s.last_battle.outcome == "defeat", texts(ev)
    end = next(e for e in ev if e.kind == "battle-end")
    view = result_view(s, pack, end)
    assert view["result"] == "defeat"
    shannon = next(u for u in view["units"] if u["label"] == "Shannon")
    assert shannon["defeated"] and shannon["hp"] == 0       # as she fell, not as the rest afterwards left her


# ------------------------------------------------------------------------------------ the lockpick --
def test_a_lockpick_check_is_its_own_picture_and_the_map_says_it_in_words():
    view = lockpick_check_view()
    assert view["code"] == [5, 2, 2] and view["dice"] == [1, 2, 3] and view["attempt"] == 1
    assert view["matched"] == {"1": 1}                        # the die 2 matches the code's first 2
    png = render.render("lockpick", view)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"

    class S:
        adventurers = {}

    line = "🎲 Attempt 1 of 3: Sil rolls all 3 dice → 1: **1**. Code: ✅[3] ▫️5 ▫️2. Answer with `/lockpick`"
    assert "Code: [3] matched, 5 open, 2 open. Answer" in _plain(line, S)
    assert "▫" not in _plain(line, S) and "✅" not in _plain(line, S)


def test_no_lockpick_picture_without_a_check():
    s = party()
    s, _ = jailbreak(s, {"S": "-2,2", "R": "-2,1"})
    assert lockpick_view(s) is None


# ------------------------------------------------------------------------- who the table waits for --
def test_a_free_move_on_offer_marks_its_player_now_and_draws_the_enemys_move_in_the_enemies_colour():
    from test_battle_reactions import _battle, _bandit_next_to

    s = _battle(ryan="rogue", ryan_tenacity=2)
    _bandit_next_to(s)
    e2 = s.battle.units["e2"]
    e2.defeated, e2.q, e2.r = False, 4, 2
    s.adventurers["R"].hp = 2
    s, _ = run(s, "battle.endturn", "S")
    s, _ = run(s, "battle.endturn", "R", forced=[2])
    assert s.battle.offers and s.battle.turn.unit != "a:R"   # an enemy's turn, Ryan's answer waits
    view = map_view(s, ctx(s).pack)
    now = [u["id"] for u in view["units"] if u["acting"]]
    assert now == ["a:R"]
    assert view["path_side"] == "enemy" and not view["path"]  # the enemy's move is drawn with the enemies'
    assert all(m.get("side", "enemy") != "adventurer" for m in view.get("moves") or [])


# -------------------------------------------------------------------------------------- skirmish --
def test_the_skirmishs_last_map_names_the_winner_and_points_and_shows_no_ability_dice():
    view = skirmish_over_view()
    assert view["result"]["winner"] == "Thorn Watch" and "Thorn Watch wins" in view["title"]
    bands = {b["name"]: b for b in view["warbands"]}
    assert bands["Thorn Watch"]["winner"] and not bands["Cinder Reavers"]["winner"]
    assert bands["Thorn Watch"]["points"] > 0 and bands["Cinder Reavers"]["points"] == 0
    assert all(b["dice"] == [] for b in view["warbands"])
    assert not any(f["waiting"] or f["activated"] for f in view["fighters"])


def test_skirmish_wounds_and_what_happened_are_drawn_in_words(monkeypatch):
    from test_phone_text import measure

    view = skirmish_over_view()
    assert view["log"] and not any("wins the skirmish" in x for x in view["log"])  # the result says it once
    _width, seen = measure("skirmish", view, monkeypatch)
    drawn = {text for _px, _ink, text in seen}
    assert "13/16" in drawn and "12/12" in drawn              # the Bramble Guard's wounds left, as a number
    assert any(t.startswith("Thorn Watch wins") for t in drawn) and "WINNER" in drawn
    assert any("points on the field" in t for t in drawn)


def test_the_initiative_picture_keys_its_colours_and_shows_the_roll_off(monkeypatch):
    from test_phone_text import measure

    view = skirmish_tie_view()
    assert view["rolloffs"] == [[["Lena", 3], ["Bob", 3]], [["Lena", 5], ["Bob", 2]]] and view["first"] == "Lena"
    _width, seen = measure("skirmish", view, monkeypatch)
    drawn = {text for _px, _ink, text in seen}
    assert "double of 5: an ability die" in drawn and "double of 6: an ability die" in drawn
    assert any(t.startswith("singles") for t in drawn)
    assert "Tied on singles: a roll-off" in drawn and "Lena 5" in drawn and "Bob 2" in drawn


async def test_after_a_restart_the_skirmish_names_players_by_their_display_names(tmp_path):
    store = await Store.open(tmp_path / "s.db")
    try:
        table = Table(CampaignService(store))
        lena, bob = table.invocation("1001", "c", "g", "Lena"), table.invocation("1002", "c", "g", "Bob")
        for inv, name, opts in [(lena, "campaign new", {"name": "Fen", "ruleset": "skirmish"}),
                                (bob, "campaign join", {}),
                                (lena, "skirmish warband", {"faction": "wardens", "name": "Thorn Watch"}),
                                (bob, "skirmish warband", {"faction": "reavers"})]:
            reply = await table.run(inv, name, opts)
            assert not reply.error, reply.content
        restarted = Table(CampaignService(store))                   # a new process: no names in memory
        reply = await restarted.run(restarted.invocation("1002", "c", "g"), "skirmish status", {})
        fields = str(reply.embeds[0].fields)
        assert "Lena" in fields and "Bob" in fields and "player 1001" not in fields
        view = reply.pictures[0].view
        assert [b["player"] for b in view["warbands"]] == ["Lena", "Bob"]
        state = await restarted.service.campaign("c")
        assert state.rules >= 2 and state.names == {"1001": "Lena", "1002": "Bob"}
    finally:
        await store.close()


def test_an_old_skirmish_log_replays_exactly_and_keeps_no_names():
    """A skirmish begun before revision 2 (no ``rules`` in its campaign.new) plays on as it was: no names."""
    from rulesets.skirmish import rules

    state, entries = None, []
    for seq, (actor, type_, args) in enumerate([
            ("1001", "campaign.new", {"name": "Old", "ruleset": "skirmish", "channel_id": "c", "seed": 1}),
            ("1002", "campaign.join", {}),
            ("1001", "skirmish.warband", {"faction": "wardens"})], 1):
        action = Action(type_, actor, args, names={actor: "Someone"})
        applied = rules.TABLE.execute(state, action, rules.dice_for(state), 1.0)
        state = applied.state
        entries.append({"seq": seq, "at": 1.0, "actor": actor, "on_behalf": None, "type": type_,
                        "action": action.to_dict(), "dice": applied.dice, "events": []})
    assert state.rules == 1 and state.names is None
    saved = state.to_dict()
    assert "names" not in saved and "rules" not in saved      # the shape the earlier version wrote
    assert replay(entries).to_dict() == saved


def test_the_initiative_view_of_a_round_without_a_tie_has_no_roll_off():
    from rulesets.skirmish.present.view import initiative_view
    from picture_views import names_of

    s, ev = skirmish_start()
    view = initiative_view(s, names_of(None), ev)
    assert view["rolloffs"] == [] and view["first"] == "Lena"


def test_the_lockpick_picture_names_what_is_picked_a_cache_a_trap_or_a_cage():
    """A trap's or a cage's check has no item deck: its title names what it opens, never "a  cache"."""
    from battle_helpers import run
    from test_battle_lockpick import _at_cache

    s, _ = _at_cache()
    s, _ = run(s, "battle.lockpick", "S", {}, forced=[1, 2, 3])
    assert lockpick_view(s)["title"] == "Shannon picks the lock of a common cache"
    for kind, words in (("trap", "Shannon picks the lock of a trap's mechanism"), ("cage", "Shannon picks the lock of a cage")):
        s.battle.lockpick.kind, s.battle.lockpick.deck = kind, ""
        assert lockpick_view(s)["title"] == words


def test_a_long_post_is_split_in_parts_at_line_ends_and_nothing_is_lost():
    from engine.reply import MORE, split_text

    lines = [f"Line {i}: " + "word " * (i % 40) for i in range(300)]
    text = "\n".join(lines)
    parts = split_text(text, 1700, 1990)
    assert len(parts) > 2 and len(parts[0]) <= 1700 and all(len(p) <= 1990 for p in parts[1:])
    assert all(p.endswith("\n" + MORE) for p in parts[:-1]) and not parts[-1].endswith(MORE)
    # every line whole, in order, once
    got = "\n".join(p.removesuffix("\n" + MORE) for p in parts).split("\n")
    assert [x.rstrip() for x in got] == [x.rstrip() for x in lines]
    assert split_text("short") == ["short"]
    long_line = "x" * 5000  # a line longer than a part is cut, not lost
    assert "".join(p.removesuffix("\n" + MORE) for p in split_text(long_line)) == long_line
