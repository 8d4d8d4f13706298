"""Issue 26: words a player reads in the days, the Reward Phase and the campaign, as they should be (rules
revision 4 keeps the words a campaign's session log stores; older campaigns keep their old words there)."""
from __future__ import annotations

from day_helpers import RYAN, SHANNON, day_two, examples_party, run, said, stack
from test_battle_prompts import game  # noqa: F401 - the fixture: a campaign played through the command layer

from engine.core import Dice
from rulesets.tes.content import load_pack
from rulesets.tes.outcomes import mat
from rulesets.tes.outcomes.context import DayCtx

PACK = load_pack("starter")


# ---- /reward options lists what /reward buy and /reward untrain accept
def test_untrain_and_buy_accept_the_words_reward_options_lists():
    from rulesets.tes.present.day import _advancement_key, _untrain_key

    s = examples_party()
    ryan = s.adventurers[RYAN]
    labels = [o.label for o in mat.untrainables(ryan, PACK)]
    assert "One Combat die" in labels
    assert _untrain_key(s, RYAN, "One Combat die") == "die:combat"
    assert _untrain_key(s, RYAN, "combat") == "die:combat"  # Combat's line token cannot go: its die is meant
    assert _untrain_key(s, RYAN, "One Stamina square") == "square:stamina"
    assert _untrain_key(s, RYAN, "The Destruction Staff skill line and all its dice") == "line:destruction-staff"
    buys = {o.key: o.label for o in mat.purchases(s, ryan, PACK)}
    assert _advancement_key(s, RYAN, buys["tenacity"]) == "tenacity"  # "Tenacity +1 — 1 XP", as listed
    assert _advancement_key(s, RYAN, buys["stat:stamina"].split(" — ")[0]) == "stat:stamina"
    words = mat.untrain(ryan, PACK, _untrain_key(s, RYAN, "One Combat die"))
    assert "Combat" in words


# ---- the guild draw counts its cards right
def test_one_guild_drawn_is_worded_as_one(monkeypatch):
    camp = PACK.campaign
    real = type(camp).quest_of

    def only_mages(self, guild, province):
        return real(self, guild, province) if guild == "mages-guild" else None

    monkeypatch.setattr(type(camp), "quest_of", only_mages)
    s, ev = run(examples_party(), "day.start", RYAN, {"province": "saltmire"}, guild=None)
    text = said(ev)
    assert "The guild deck: 1 guild card is drawn (the only guild with a quest in The Saltmire)." in text
    assert "1 guild cards" not in text and "1 guilds" not in text


# ---- an empty day says once that nothing happens
def test_an_empty_day_says_the_encounter_phase_is_skipped_once():
    s = day_two()
    s = stack(s, "sm-p01")
    s, ev = run(s, "day.route", RYAN, {"to": [3, 5]})
    s, ev2 = run(s, "day.vote", SHANNON)
    text = said(ev + ev2)
    assert "Nothing happens at hex 3,5." in text
    assert "The party triggered no encounter, so it skips this phase." in text
    assert "the Encounter Phase is skipped" not in text
    assert "Nothing happens at hex 3,5." in s.days.log  # the session's log keeps the new words


def test_revision_3_keeps_its_old_words_in_the_session_log():
    s = day_two()
    s.rules = 3
    s = stack(s, "sm-p01")
    s, ev = run(s, "day.route", RYAN, {"to": [3, 5]})
    s, ev2 = run(s, "day.vote", SHANNON)
    assert "Nothing happens at hex 3,5: the Encounter Phase is skipped." in s.days.log


# ---- fatigue movement names who gains nothing
def test_fatigue_movement_says_a_defeated_adventurer_gains_none():
    s = day_two()
    s.adventurers[SHANNON].hp = 0
    s = stack(s, "sm-p01")
    s, ev1 = run(s, "day.route", RYAN, {"to": [3, 2]})  # Reedwick, 4 hexes: 1 with fatigue
    s, ev = run(s, "day.vote", SHANNON, {})
    ev = ev1 + ev
    assert "Fatigue movement to 3,2: each standing adventurer gains 1 light fatigue; Shannon is defeated and " \
           "gains none." in said(ev)
    assert {"fatigue": "light"} not in s.adventurers[SHANNON].cooldown


# ---- the last day says what fails at its end
def test_day_12_warns_that_the_quest_fails_at_the_end_of_that_day():
    from rulesets.tes.day import flow

    s = day_two()
    s.day_dial = 11
    c = DayCtx(s, PACK, Dice(0, 0, []))
    flow.new_day(c)
    text = said(c.events)
    quest = PACK.campaign.quests[s.quests.quest].name
    assert f"⏳ Day 12: no quest can go beyond day 12; this is the last day of the session. If **{quest}** is not " \
           "completed by the end of this day, it fails, and the campaign is lost with it (p.34)." in text


# ---- after the epilogue: what comes next, in /quest status and in the journal
def _after_epilogue():
    from rulesets.tes.session import end

    s = day_two()
    c = DayCtx(s, PACK, Dice(0, 0, []))
    end.won(c)
    return s


def test_quest_status_after_the_epilogue_says_what_comes_next():
    from rulesets.tes.present.quest import _no_quest_words

    s = _after_epilogue()
    assert s.quests is None
    words = _no_quest_words(s, PACK)
    assert words.startswith("Session 1 is over, its guild quest completed. Its epilogue names the next guild "
                            "quests: the party leader chooses one with `/quest next`")
    s, _ = run(s, "quest.next", RYAN, {"pick": "1"})
    q = PACK.campaign.quests[s.journal.next["quest"]]
    prov = PACK.provinces[q.province].name
    guild = PACK.campaign.guilds[q.guild].name
    assert _no_quest_words(s, PACK) == (f"Session 1 is over, its guild quest completed. Next: Session 2: {q.name} "
                                        f"for the {guild}, in {prov}. The party leader starts it with `/day start`.")


def test_the_journal_notes_the_quest_chosen_for_the_next_session():
    from rulesets.tes.present.quest import journal_text, journal_view
    from render.journal import draw_journal

    s = _after_epilogue()
    view = journal_view(s, PACK)
    assert "the guild quest is not chosen yet" in view["next"]
    s, _ = run(s, "quest.next", RYAN, {"pick": "1"})
    view = journal_view(s, PACK)
    q = PACK.campaign.quests[s.journal.next["quest"]]
    assert view["next"].startswith(f"Session 2: {q.name} for the ")
    assert f"Next: Session 2: {q.name} for the " in journal_text(view)
    with_next = draw_journal(view)
    view["next"] = ""
    assert with_next.height > draw_journal(view).height  # the picture has its "next session" panel


# ---- issue 26, item 5: towns are chosen knowing what each feature does, and the pack can be read
def _all_text(reply) -> str:
    parts = [reply.as_text()]
    for more in reply.followups:
        parts.append(_all_text(more))
    return "\n".join(parts)


async def _town_on_day_one(game):
    from test_day_prompts import start, two

    await two(game)
    return await start(game)


async def test_the_town_post_says_what_each_feature_does_and_shows_the_shop_cards_in_full(game):
    from test_day_prompts import LENA

    reply = await _town_on_day_one(game)
    text = _all_text(reply)
    state = await game.state()
    assert "What each feature of Brinehold does:" in text
    assert "• Inn: heals you to your maximum HP, removes every fatigue and status die from your cooldown track and " \
           "recovers your exhausted and drained skill dice." in text
    assert "• Alchemy station: refreshes 1 of your expended potions." in text
    assert "• Guild kiosk: the Mages Guild's Reading Room: A quiet chair and a borrowed text" in text
    assert "• Quest board: draws 2 side quests; you may accept 1 of them for the party." in text
    assert "• Shop: take 2 cards of those on offer per action:" in text
    for card in state.days.town.shop:
        item = PACK.items[card]
        assert f"– {item.name} ({item.rarity} {item.subtype}" in text and item.text in text
    shop = next(b.custom_id for b in reply.buttons if b.label == "Shop")
    menu = await game.click(LENA, shop)
    assert menu.ephemeral and "Ryan: Take 2 cards from the shop." in menu.content
    for card in state.days.town.shop:
        assert f"• {PACK.items[card].name} (" in menu.content and PACK.items[card].text in menu.content
    status = _all_text(await game.ok(LENA, "day status"))
    assert "What each feature of Brinehold does:" in status


def test_a_town_square_is_described_with_its_group_rule():
    from rulesets.tes.present.catalogue import town_guide

    s = day_two()
    s = stack(s, "sm-p01")
    s, _ = run(s, "day.route", RYAN, {"to": [0, 5]})  # Ossmere
    s, _ = run(s, "day.vote", SHANNON)
    guide = town_guide(s, PACK)
    assert "• Town square — The Lantern Vigil: Group action: the whole party keeps the vigil through the night. " \
           "Each adventurer gains 2 tenacity. A group action: every adventurer puts 1 of their own town actions " \
           "into it." in guide


async def test_content_items_enemies_and_the_cards_the_party_has_seen(game):
    from test_day_prompts import BOB, LENA

    await _town_on_day_one(game)
    items = _all_text(await game.ok(LENA, "content items"))
    assert "Items — Hexpost Starter Pack (81)" in items and "Common weapon: " in items and "Iron Sword" in items
    sword = await game.ok(LENA, "content items", name="iron sword")
    assert sword.ephemeral and sword.content == (
        "• Iron Sword (common weapon, light form): Add 1 free Combat die to this engage. Overtax: Add 1 more free "
        "Combat die. Discard this card after the engage.")
    nothing = await game.run(LENA, "content items", name="vorpal blade")
    assert nothing.error and "No item of this pack is called `vorpal blade`" in nothing.content
    enemies = _all_text(await game.ok(LENA, "content enemies"))
    assert "Enemies — Hexpost Starter Pack" in enemies and "The Saltmire: humanoid: " in enemies
    bandit = await game.ok(LENA, "content enemies", name="High Elf Bandit")
    assert bandit.content.startswith("• High Elf Bandit (level 1 humanoid, Health 3, defense 0, Combat 1, range 3, "
                                     "1 target, priority: weakest, movement 2). Dodge (when it is dealt damage):")
    seen = await game.ok(LENA, "content cards")
    assert seen.content == "The party has seen no overland card yet this session."
    await game.ok(LENA, "town done")
    await game.ok(BOB, "town done")  # the End of Day draws a peaceful card for the province effect
    state = await game.state()
    (drawn,) = state.days.decks["peaceful"].bottom  # cycled to the bottom of its deck, seen
    card = PACK.overland_cards[drawn]
    seen = _all_text(await game.ok(LENA, "content cards"))
    assert "Overland cards seen this session (1):" in seen and f"{card.name} ({card.label}, peaceful): " in seen
    assert f"  1. {card.choices[0].title} (" in seen


# ---- issue 26, item 12: at the local table a menu prints its options with labels and ids, and /pick answers it
async def test_the_local_table_prints_a_menu_and_picks_from_it(tmp_path):
    from engine.service import CampaignService
    from engine.store import Store
    from helpers.table import play

    store = await Store.open(tmp_path / "pick.db")
    try:
        script = """
/campaign new name:"Outer Watch"
/adventurer create name:Ryan race:dark-elf line:destruction-staff class:sorcerer
@shannon /campaign join
@shannon /adventurer create name:Shannon race:argonian line:one-hand-and-shield class:acrobat
/force 1 1 1 1 1 1 1 1 2
/day start
/quest guild pick:"Mages Guild"
/click Shop
/pick Ebony Greaves
/pick 1
"""
        errors, text, local = await play(store, tmp_path, "pick", script)
        state = await CampaignService(store).campaign("pick")
        first, second = (PACK.items[i] for i in state.days.town.shop[:2])
        assert "[menu: Take 2 cards from the shop]  (id hx:day:" in text
        assert "; pick 2 options by label or id, comma separated)" in text
        assert f"  - {first.name}  [id {first.id}] — " in text
        assert errors == 2  # a card the shop does not have, and one card where the shop takes 2
        assert "The menu \"Take 2 cards from the shop\" has no option 'Ebony Greaves'. Its options: " \
               f"{first.name}, {second.name}, " in text
        assert "The menu \"Take 2 cards from the shop\" takes 2 of its options; you named 1." in text
        errors, text, local = await play(store, tmp_path, "pick", f"/day status\n/click Shop\n/pick {first.name}, 2")
        assert errors == 0, local.failed
        assert f"Ryan takes {first.name} from the shop." in text and f"Ryan takes {second.name} from the shop." in text
        last = await local.run_line("/pick 1")
        assert last.error and "The last answer has no menu to pick from." in last.content
    finally:
        await store.close()
