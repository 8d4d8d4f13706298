"""Messages that send players the wrong way, and their right words: who `first:` names, a missing `to:`, a
skirmish that is over (and its rematch), a warband switched by mistake, every class in a refusal, a pack of the
other game, a difficulty the game has not, the other game's die, plurals and articles, the free-move menu, undo
in words, and damage that adds up."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from battle_helpers import ctx, jailbreak, party, run, texts
from commands.local import LocalTable
from rulesets.tes.battle import harm
from test_battle_prompts import backflip_offered, button, game, menu  # noqa: F401  (game: the fixture)
from test_skirmish_rules import L, setup

ROOT = Path(__file__).resolve().parents[1]


def local(table, tmp_path, user="ryan"):
    out: list[str] = []
    return LocalTable(table, out_dir=tmp_path / "pics", echo=out.append, user=user), out


async def play(lt, *lines):
    replies = [await lt.run_line(line) for line in lines]
    for line, reply in zip(lines, replies):
        assert reply is None or not reply.error, (line, reply.content)
    return replies[-1]


TES_PARTY = ("/campaign new name:Watch",
             "@shannon /campaign join",
             "/adventurer create name:Vilya race:dark-elf line:destruction-staff",
             "@shannon /adventurer create name:Sil race:argonian line:one-hand-and-shield")


# ----------------------------------------------------------------------- first: --
async def test_first_takes_a_player_or_their_adventurers_name(table, tmp_path):
    lt, _ = local(table, tmp_path)
    await play(lt, *TES_PARTY)
    neither = await lt.run_line("/battle start encounter:jailbreak first:Sill")
    assert neither.error
    assert "`Sill` is neither" in neither.content and "adventurer" in neither.content
    assert "@ryan (Vilya), @shannon (Sil)" in lt.show(neither.content)
    assert "is not in this party" not in neither.content  # Sill is nobody, not a player who left
    assert (await table.service.campaign("local")).battle is None
    started = await lt.run_line("/battle start encounter:jailbreak first:Sil")  # the adventurer's name
    assert not started.error, started.content
    assert (await table.service.campaign("local")).battle.order[0] == "shannon"


async def test_first_takes_a_players_name_in_any_case(table, tmp_path):
    lt, _ = local(table, tmp_path)
    await play(lt, *TES_PARTY)
    started = await lt.run_line("/battle start encounter:jailbreak first:SHANNON")
    assert not started.error, started.content
    assert (await table.service.campaign("local")).battle.order[0] == "shannon"


# ----------------------------------------------------------------------- to: --
def test_a_dash_without_to_says_it_needs_one():
    g = setup()
    g.do(L, "skirmish.activate", fighter="a2")
    refused = g.refused(L, "skirmish.ability", name="surge", die=1)
    assert refused == "Surge moves Bramble Guard up to 5 hexes: say where with to:q,r, e.g. to:3,4."
    assert "is not a hex" not in refused


async def test_a_dash_with_an_empty_to_at_the_local_table_says_it_needs_one(table, tmp_path):
    lt, _ = local(table, tmp_path, user="lena")
    await play(lt, *SKIRMISH_MUSTER)
    await play(lt, "/force 1 2 3 4 5 5 1 1 2 2 3 6", "/skirmish start", "/skirmish activate fighter:a2")
    refused = await lt.run_line("/skirmish ability name:surge die:1 to:")
    assert refused.error and "say where with to:q,r" in refused.content and '""' not in refused.content


# ----------------------------------------------------------------------- the skirmish's end and a rematch --
SKIRMISH_MUSTER = ('/campaign new name:Fen ruleset:skirmish',
                   '/skirmish warband faction:wardens name:"Thorn Watch"',
                   "/skirmish recruit fighter:thornspeaker", "/skirmish recruit fighter:bramble-guard",
                   "/skirmish deploy fighter:a1 at:-1,5", "/skirmish deploy fighter:a2 at:-1,4",
                   "@bob /skirmish warband faction:reavers", "@bob /skirmish recruit fighter:ashcaller",
                   "@bob /skirmish recruit fighter:ember-runner",
                   "@bob /skirmish deploy fighter:b1 at:10,5", "@bob /skirmish deploy fighter:b2 at:10,4")


async def test_after_a_skirmish_is_over_start_says_so_and_offers_a_rematch_that_keeps_the_warbands(table, tmp_path):
    lt, _ = local(table, tmp_path, user="lena")
    script = (ROOT / "examples" / "skirmish.txt").read_text().splitlines()
    assert await lt.run_script(script) == 0, lt.failed
    over = await table.service.campaign("local")
    assert over.phase == "over" and over.result["winner"] == "lena"
    start = await lt.run_line("/skirmish start")
    assert "already begun" not in start.content
    assert "The skirmish is over: the winner is Thorn Watch" in start.content and "rematch" in start.content
    rematch = button(start, "Rematch")
    refused = await lt.run_line(f"@bob /click {rematch}")
    assert refused.error and "party leader" in refused.content
    done = await lt.run_line(f"/click {rematch}")
    assert not done.error, done.content
    assert "Rematch after Thorn Watch's win: Thorn Watch against Cinder Reavers" in done.content
    again = await table.service.campaign("local")
    assert again.phase == "muster" and again.fight is None and again.result == {}
    assert {o: (w.name, w.faction, w.fighters) for o, w in again.warbands.items()} == {
        o: (w.name, w.faction, w.fighters) for o, w in over.warbands.items()}
    assert all(f.damage == 0 and not f.out and f.hex is not None for f in again.fighters.values())
    await play(lt, "/force 1 2 3 4 5 5 1 1 2 2 3 6")
    begun = await lt.run_line("/skirmish start")
    assert not begun.error and "The battle begins: Thorn Watch against Cinder Reavers" in begun.content
    busy = await lt.run_line("/skirmish rematch")
    assert busy.error and "still being fought" in busy.content


# ----------------------------------------------------------------------- a warband switched by mistake --
async def test_skirmish_warband_asks_before_switching_faction_and_keeps_the_name(table, tmp_path):
    lt, _ = local(table, tmp_path, user="lena")
    await play(lt, "/campaign new name:Fen ruleset:skirmish", '/skirmish warband faction:wardens name:"Thorn Watch"')
    switch = await lt.run_line("/skirmish warband faction:reavers")
    assert switch.error and "You lead Thorn Watch (Gloamwood Wardens) already" in switch.content
    assert "switch:yes" in switch.content and "keep its name Thorn Watch" in switch.content
    wb = (await table.service.campaign("local")).warbands["lena"]
    assert (wb.faction, wb.name) == ("wardens", "Thorn Watch")
    same = await lt.run_line("/skirmish warband faction:wardens")
    assert same.error and "nothing changes" in same.content
    assert (await table.service.campaign("local")).warbands["lena"].name == "Thorn Watch"
    await play(lt, "/skirmish warband faction:reavers switch:yes")
    wb = (await table.service.campaign("local")).warbands["lena"]
    assert (wb.faction, wb.name) == ("reavers", "Thorn Watch")
    await play(lt, "/skirmish warband faction:reavers name:Ashes")
    assert (await table.service.campaign("local")).warbands["lena"].name == "Ashes"


# ----------------------------------------------------------------------- every class in a refusal --
async def test_a_refusal_that_lists_the_classes_shows_all_15(table, tmp_path):
    from rulesets.tes.content import load_pack

    lt, _ = local(table, tmp_path)
    await play(lt, "/campaign new name:Watch")
    refused = await lt.run_line("/adventurer create name:Vilya race:dark-elf line:destruction-staff class:wizzard")
    assert refused.error
    names = [c.name for c in load_pack("starter").classes.values()]
    assert len(names) == 15 and all(n in refused.content for n in names), refused.content
    assert "one of the 15" in refused.content


# ----------------------------------------------------------------------- the other game's pack, difficulty, die --
async def test_a_pack_of_the_other_game_is_named_as_such(table, tmp_path):
    lt, _ = local(table, tmp_path)
    refused = await lt.run_line("/campaign new name:Fen ruleset:skirmish pack:starter")
    assert refused.error and "problems" not in refused.content and "pack.toml" not in refused.content
    assert "`starter` is a content pack of The Elder Scrolls" in refused.content and "not of Skirmish" in refused.content
    assert "ruleset:tes" in refused.content
    other = await lt.run_line("/campaign new name:Watch pack:skirmish")
    assert other.error and "`skirmish` is a content pack of Skirmish" in other.content
    assert await table.service.campaign("local") is None


async def test_difficulty_for_a_skirmish_is_refused_with_what_sets_it_instead(player, service):
    lena = player("1001")
    refused = await lena("campaign new", name="Fen", ruleset="skirmish", difficulty="expert")
    assert refused.error and "Skirmish has no difficulty levels" in refused.content
    assert "/skirmish settings" in refused.content
    assert await service.campaign("100") is None
    assert not (await lena("campaign new", name="Fen", ruleset="skirmish")).error


async def test_the_unstable_die_rolls_only_where_the_game_has_it(player):
    lena = player("1001", channel="200")
    await lena("campaign new", name="Fen", ruleset="skirmish")
    refused = await lena("roll", dice="unstable")
    assert refused.error and "Peaceful" not in refused.content and "Conflict" not in refused.content
    assert "The unstable die belongs to The Elder Scrolls" in refused.content and "plays Skirmish" in refused.content
    assert not (await lena("roll", dice="2d6")).error
    ryan = player("1002", channel="300")
    await ryan("campaign new", name="Watch")
    rolled = await ryan("roll", dice="unstable")
    assert not rolled.error and "face" in rolled.content
    assert not (await player("1003", channel="400")("roll", dice="unstable")).error  # no campaign: the default game


# ----------------------------------------------------------------------- plurals and articles --
COUNT_NOUNS = {"hex": "hexes", "minute": "minutes", "hour": "hours", "page": "pages", "action": "actions",
               "die": "dice", "point": "points", "round": "rounds", "wound": "wounds", "fighter": "fighters",
               "player": "players", "line": "lines", "step": "steps", "turn": "turns", "square": "squares",
               "token": "tokens", "item": "items", "enemy": "enemies", "second": "seconds",
               "character": "characters", "attack": "attacks", "card": "cards", "time": "times",
               "result": "results", "chip": "chips", "warband": "warbands", "adventurer": "adventurers",
               "member": "members", "day": "days", "source": "sources", "slot": "slots", "level": "levels",
               "reroll": "rerolls", "activation": "activations", "entry": "entries", "ability": "abilities",
               "ally": "allies", "unit": "units", "file": "files", "picture": "pictures", "face": "faces",
               "weapon": "weapons", "potion": "potions", "rune": "runes", "single": "singles", "hit": "hits",
               "critical": "criticals", "problem": "problems", "version": "versions"}
_NOUN = re.compile(r"^ (?:more |other |free |bonus |light |heavy |ability |extra |new |legal |cooldown |HP )?("
                   + "|".join(sorted(set(COUNT_NOUNS) | set(COUNT_NOUNS.values()), key=len, reverse=True))
                   + r")(?![\w-])")  # "face-down" is no count of faces
# A number before a noun that is not a count a player can see at 1, each with why.
NOT_A_COUNT = {
    # a name, a kind or a level before the noun, not a number
    "{word} die", "{w} die", "{f.name} attacks", "{ab.name} rerolls", "{line.name} dice", "{stat.title()} dice",
    "{adv.name} rerolls", "{adv.name} turns", "{how} hex", "{status} die", "{eff.get('rarity', 'common')} item",
    "{eff.get('level', 1)} enemy", "{level} enemy", "{level} die", "{pack.lines[line_id].name} line",
    "{line.name} token", "{first_die.name} dice", "{first.name} dice", "{STEP_NAMES[step]} step",
    "{die.name} dice", "{die.name} die", "{line.name} die", "{name} die", "{die.level} die",
    "{STAT_NAMES[stat]} square", "{STAT_NAMES[stat]} token", "{names} dice", "{rarity} item",
    "{eff.get('what', 'any').replace('-', ' ')} dice",
    # a fighter, an attack or a place in a pack's file named before the noun ("Mara rerolls", "hero x: hit")
    "{name} rerolls", "{t.label} hits", "{kinds} attacks", "{where} attack", "{where} hit", "{where} action",
    "{aw} hit",
    # a count already worded by a condition beside it (n == 1 has its own words)
    "{n} die", "{n} more dice", "{n} enemy", "{n} dice", "{most} dice", "{actions} actions",
    # a fixed number that is never 1 (the party's and the field's sizes, the pack's limits)
    "{MAX_LENGTH} characters", "{party.max_party} players", "{MAX_WARBANDS} warbands", "{MAX_WARBANDS} players",
    "{MAX_PARTY} adventurers", "{MAX_PARTY} players", "{E.RETREAT_HEXES} hexes", "{ENTRANCE_HEXES} hexes",
    "{mat.inventory_max} cards", "{c.pack.mat.ready_slots} items", "{MAX_LOG_ENTRIES} actions",
    "{MAX_IMPORT_NESTING} times", "{MAX_DEPTH} levels",
    "{MAX_TEXT} characters", "{MIN_UNIT_TYPES} unit",
    # a skirmish's points limit (at least 100) and a warband's fighter's wounds as a fraction ("3/4 wounds left")
    "{state.settings.get('points')} points", "{state.settings.get('points', pack.points)} points",
    "{pack.points} points", "{t.wounds} wounds",
    # more than a limit of at least 2 (only said when the limit is passed)
    "{len(text)} characters", "{len(name)} characters", "{len(value)} characters", "{len(value)} items",
    # "2 to N hexes away": a span, plural whatever N is
    "{adv.stat('stamina')} hexes",
}
# "a" before words from a fixed list that all begin with a consonant sound (or numbers 1 to 6 on a die)
A_BEFORE = {"{ab.cost}", "{die.kind}", "{before}", "{kind}", "{enc.mode}", "{lp.dice[i]}", "{v}", "{what}",
            "{STEP_NAMES[step]}", "{STAT_NAMES[stat]}"}  # Health, Stamina, Magicka


def _code_files():
    for top in ("engine", "rulesets", "commands", "cogs", "render"):
        yield from sorted((ROOT / top).rglob("*.py"))
    yield ROOT / "bot.py"


def _hand_built():
    """Every place the code words a number with a noun or an article by hand, as (file:line, what)."""
    for path in _code_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "(s)" in node.value:
                yield where, node.value
            if not isinstance(node, ast.JoinedStr):
                continue
            for a, b in zip(node.values, node.values[1:]):
                if isinstance(a, ast.FormattedValue) and isinstance(b, ast.Constant) and isinstance(b.value, str):
                    m = _NOUN.match(b.value)
                    if m and f"{{{ast.unparse(a.value)}}} {m.group(1)}" not in NOT_A_COUNT:
                        yield where, f"{{{ast.unparse(a.value)}}} {m.group(1)}"
                if (isinstance(a, ast.Constant) and isinstance(a.value, str) and re.search(r"(^|\W)a $", a.value)
                        and isinstance(b, ast.FormattedValue) and f"{{{ast.unparse(b.value)}}}" not in A_BEFORE):
                    yield where, f"a {{{ast.unparse(b.value)}}}"


def test_no_plural_or_article_is_built_by_hand():
    """A count is worded by engine.text.count ("1 hex", "2 hexes"), an article by a_or_an ("an Archer"); a number
    written straight before a noun, "(s)", or "a" before a name is found here and must be worded right."""
    found = sorted(set(_hand_built()))
    assert found == [], "\n".join(f"{w}: {t}" for w, t in found)


def test_count_and_article_words():
    from engine.text import a_or_an, count

    assert [count(n, "hex") for n in (0, 1, 2)] == ["0 hexes", "1 hex", "2 hexes"]
    assert (count(1, "die"), count(3, "die"), count(1, "enemy"), count(2, "enemy")) == (
        "1 die", "3 dice", "1 enemy", "2 enemies")
    assert (count(1, "minute"), count(1, "page"), count(2, "cooldown die", "cooldown dice")) == (
        "1 minute", "1 page", "2 cooldown dice")
    assert (a_or_an("Archer"), a_or_an("Acrobat"), a_or_an("Sorcerer")) == ("an Archer", "an Acrobat", "a Sorcerer")


def test_a_skirmish_fighter_moves_1_hex_not_1_hexes():
    g = setup()
    g.do(L, "skirmish.activate", fighter="a2")
    start = g.f("a2").hex
    g.do(L, "skirmish.move", to=f"{start[0]},{start[1] - 1}")
    assert "Bramble Guard moves 1 hex to" in g.text() and "1 hexes" not in g.text()


async def test_one_undeployed_fighter_is_not_deployed_not_are(player):
    lena, bob = player("lena"), player("bob")
    await lena("campaign new", name="Fen", ruleset="skirmish")
    await lena("skirmish warband", faction="wardens")
    await lena("skirmish recruit", fighter="mossling")
    await lena("skirmish deploy")
    await bob("skirmish warband", faction="reavers")
    await bob("skirmish recruit", fighter="ember-runner")
    refused = await lena("skirmish start")
    assert refused.error and "Ember Runner of <@bob> is not deployed yet" in refused.content


async def test_the_log_has_1_page_and_one_forced_result_is_a_result(table, tmp_path):
    lt, _ = local(table, tmp_path)
    await play(lt, "/campaign new name:Watch")
    refused = await lt.run_line("/campaign log page:5")
    assert refused.error and "page(s)" not in refused.content
    assert "The log has 1 page (1 action); there is only page 1." in refused.content
    forced = await lt.run_line("/force 4")
    assert "The next die result is set." in forced.content


async def test_a_class_chosen_later_is_an_archer_not_a_archer(table, tmp_path):
    lt, _ = local(table, tmp_path)
    await play(lt, "/campaign new name:Watch", "/adventurer create name:Vilya race:dark-elf line:bow")
    chosen = await lt.run_line("/adventurer class class:archer")
    assert not chosen.error and "Vilya becomes an Archer" in chosen.content


# ----------------------------------------------------------------------- the free-move menu --
async def test_the_free_move_menu_takes_one_hex_and_says_1_minute(game):  # noqa: F811 - the fixture
    await game.ok("1001", "campaign new", name="Jail")
    await game.ok("1001", "campaign settings", prevent_timeout_minutes=1)
    state = await game.state()
    reply = await backflip_offered_in(game)
    pick = menu(reply)
    assert (pick.min_values, pick.max_values) == (1, 1) and len(pick.options) >= 2
    assert "within 1 minute (" in reply.content and "1 minutes" not in reply.content
    several = await game.click("1001", pick.custom_id, [pick.options[0][1], pick.options[1][1]])
    assert several.error and "one hex" in several.content  # a menu posted before: said, nothing changes
    assert (await game.state()).battle.offers and state is not None
    moved = await game.click("1001", pick.custom_id, [pick.options[0][1]])
    assert not moved.error and "makes a free move (Backflip)" in moved.content


async def backflip_offered_in(g):
    """``backflip_offered`` in a campaign already opened (to set its time-out first)."""
    async def skip_new(user, command, **options):
        if command == "campaign new":
            return None
        return await real(user, command, **options)

    real, g.ok = g.ok, skip_new
    try:
        return await backflip_offered(g)
    finally:
        g.ok = real


async def test_an_unanswered_free_move_of_1_minute_times_out_in_words(game):  # noqa: F811 - the fixture
    from test_battle_prompts import T0
    from rulesets.tes.present.answers import run_due_deadlines

    await game.ok("1001", "campaign new", name="Jail")
    await game.ok("1001", "campaign settings", prevent_timeout_minutes=1)
    await backflip_offered_in(game)
    posts = []

    async def send(channel, reply):
        posts.append(reply)

    game.clock.now = T0 + 61
    assert await run_due_deadlines(game.table, send) == 1
    assert "made no move within 1 minute, so they stay where they are" in posts[0].content


# ----------------------------------------------------------------------- undo in words --
async def test_undo_names_the_action_in_words_not_its_type(game):  # noqa: F811 - the fixture
    from test_battle_prompts import SHANNON, shannon_alone

    await shannon_alone(game)  # ends with Shannon's move -2,2 -> 0,2
    prompt = await game.ok(SHANNON, "undo")
    assert "Undo action" in prompt.content and "Shannon makes a move" in prompt.content
    done = await game.click(SHANNON, button(prompt, "Undo it"))
    assert not done.error
    line = next(x for x in done.content.splitlines() if x.startswith("Undid action"))
    assert "battle.move" not in line and "(battle" not in line
    assert re.match(r"Undid action #\d+: 🚶 Shannon makes a move: -2,2 → -1,2 → 0,2\. It stays in the log\.", line), line
    log = await game.ok(SHANNON, "campaign log")
    assert "battle.move" not in log.embeds[0].description and "`undo`" not in log.embeds[0].description


async def test_an_action_that_cannot_be_undone_is_named_in_words(game):  # noqa: F811 - the fixture
    from test_battle_prompts import SHANNON, engage_two_shields, shannon_alone

    await shannon_alone(game)
    await engage_two_shields(game)
    refused = await game.run(SHANNON, "undo")
    assert refused.error and "battle.engage" not in refused.content
    assert "Shannon engages" in refused.content and "it rolled dice" in refused.content


# ----------------------------------------------------------------------- damage that adds up --
def _bonus_hit(rules_revision: int):
    s = party()
    s.rules = rules_revision
    s, _ = jailbreak(s)
    s.adventurers["S"].bonus_hp = 1
    c = ctx(s)
    harm.damage_adventurer(c, "S", 2, true=False, choice=[])
    return c, s


def test_damage_soaked_by_bonus_hp_reads_as_a_right_sum():
    c, s = _bonus_hit(3)
    line = next(e.text for e in c.events if e.kind == "damage")
    assert line == "Damage: Shannon is dealt 2 damage, 1 bonus HP lost, takes 1 → 4/5 HP.", line
    assert s.battle.log[-1] == line  # the picture log says the same


def test_a_campaign_on_an_earlier_rules_revision_keeps_its_battles_words():
    c, _ = _bonus_hit(2)
    assert "1 bonus HP lost, takes 2 → 4/5 HP" in texts(c.events)  # as such battles were saved
    s = party()
    s.rules = 2
    s, ev = run(s, "battle.start", "S", {"encounter": "jailbreak"}, forced=[2, 1])
    assert not re.search(r"\b1 hexes\b|\b1 minutes\b", texts(ev))


@pytest.mark.parametrize("rules_revision, words", [(2, "within 1 hexes of"), (3, "within 1 hex of")])
def test_the_challenge_line_counts_by_the_campaigns_rules(rules_revision, words):
    from rulesets.tes.battle.effects import REGISTRY, Use

    s = party()
    s.rules = rules_revision
    s, _ = jailbreak(s)
    c = ctx(s)
    for u in c.units("enemy"):
        u.q, u.r = 5, 5  # every enemy far away
    REGISTRY.get("challenge").apply(Use(c, c.unit("a:S"), "Taunt"), {"type": "challenge", "within": 1})
    assert words in texts(c.events)


def test_a_count_of_one_and_an_article_before_a_vowel_read_right():
    """What the sweep above asks for, as a player reads it: "1 player", "1 wound", "an Archer", never "1 players",
    "1 wounds" or "a Archer"."""
    from engine.bounds import Hexes, Players, Text
    from rulesets.engage.content import Spell

    assert (Players(max=1).describe(), Players(max=1).problem(["1", "2"])) == (
        "up to 1 player", "must name at most 1 player")
    assert (Hexes(max=1).describe(), Text(max=1).problem("ab")) == (
        "up to 1 hex q,r", "must be a text of at most 1 character")
    assert Players(max=3).describe() == "up to 3 players"
    harm = Spell("bolt", "Bolt", "harm", "enemy", 3, amount=1)
    heal = Spell("mend", "Mend", "heal", "ally", 3, amount=2)
    assert "the enemy loses 1 wound " in harm.text and "the ally gets back 2 wounds" in heal.text
