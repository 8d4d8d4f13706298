"""The campaign's content format (docs/content-format.md, "The campaign"): guild cards, keywords, side quests,
the Saltmire's guild quests and its endgame load, and every problem is named with its file, entry and field."""
from __future__ import annotations


import pytest
from pack_helpers import copy_starter, load_errors

from rulesets.tes.content import load_pack
from rulesets.tes.content.quests import Epilogue, Step



def test_the_sample_campaign_loads():
    camp = load_pack("starter").campaign
    assert len(camp.guilds) == 9 and all(g.kiosk.text for g in camp.guilds.values())
    chime = camp.quests["sm-sunken-chime"]
    assert chime.guild == "mages-guild" and chime.province == "saltmire" and chime.start == "brinehold"
    assert 4 <= len(chime.steps) <= 6 and [s.letter for s in chime.steps] == ["A", "B", "C", "D", "E"]
    assert [s.code for s in chime.steps] == ["A01", "B14", "C15", "D16", "E17"]
    assert chime.steps[-1].final and isinstance(chime.epilogue, Epilogue)
    assert chime.epilogue.keyword == "chime-bearer" and camp.keywords["chime-bearer"].kind == "major"
    assert chime.steps[2].trigger.linked and chime.steps[1].trigger.token == "chime"
    assert chime.steps[1].ongoing[0].toward == "compass" and chime.steps[3].ongoing[0].timing == "new-day"
    assert len(camp.side_quests) >= 3 and camp.side_quests["sq-greedy-conjurer"].battle_first
    assert camp.side_quests["sq-marsh-patrol"].trigger.tally == "conflict"
    end = camp.endgames["saltmire"]
    assert end.days >= 4 and [d.day for d in end.encounters] == list(range(1, end.days + 1))
    assert end.encounters[-1].final and not end.province_effect
    # every step, side quest and endgame day is a card the day can read
    assert isinstance(camp.cards["sm-chime-b"], Step) and camp.cards["sm-end-4"].label == "Endgame, day 4"
    assert camp.quest_of("mages-guild", "saltmire") is chime and camp.quest_of("psijic-order", "saltmire") is None


_copy, _errors = copy_starter, load_errors


QUESTS = "provinces/saltmire/quests.toml"


@pytest.mark.parametrize("path,old,new,message", [
    ("guilds.toml", 'effects = [{ type = "tenacity", amount = 2 }]', 'effects = [{ type = "fame", amount = 2 }]',
     'guilds.toml, guild "outer-watch", kiosk: effects #1 has type "fame"'),
    ("keywords.toml", 'kind = "major"\ntext = "The party carried', 'kind = "huge"\ntext = "The party carried',
     'keywords.toml, keyword "chime-bearer": kind must be one of "major", "minor"'),
    (QUESTS, 'guild = "mages-guild"', 'guild = "mage-guild"',
     f'{QUESTS}, quest "sm-sunken-chime": guild "mage-guild" is not a guild card'),
    (QUESTS, 'code = "B14"', 'code = "B1"',
     f'{QUESTS}, quest "sm-sunken-chime", step "sm-chime-b": code must be a capital letter and two digits'),
    (QUESTS, 'code = "C15"', 'code = "D15"', 'its steps skip from letter B to D'),
    (QUESTS, 'code = "A03"', 'code = "A01"', 'code A01 has the number 01 of A01 too'),
    (QUESTS, 'trigger = { town = "reedwick" }', 'trigger = { town = "reedwic" }',
     'step "sm-road-a": trigger names town "reedwic", which the gazetteer of The Saltmire does not define'),
    (QUESTS, 'trigger = { hex = [2, 4] }', 'trigger = { hex = [20, 4] }',
     'step "sm-chime-a": trigger hex [20, 4] is not on the map of The Saltmire'),
    (QUESTS, 'trigger = { token = "chime" }', 'trigger = { token = "chime", town = "hesk" }',
     'step "sm-chime-b", trigger: names exactly one of town, hex, token, landmark, linked or tally, got town, token'),
    (QUESTS, 'trigger = { token = "chime" }', 'trigger = { token = "bell" }',
     'step B14: trigger names token "bell", which no earlier step places'),
    (QUESTS, 'final = true\nrewards = "3 XP."\n\n[[quest.step.choice]]\ntitle = "Silence',
     'rewards = "3 XP."\n\n[[quest.step.choice]]\ntitle = "Silence',
     'quest "sm-sunken-chime": no step has final = true'),
    (QUESTS, 'fail = "retry"', 'fail = "sm-chime-z"', 'step B14: fail names step "sm-chime-z"'),
    (QUESTS, 'keyword = "chime-bearer"', 'keyword = "chime-heard"',
     'epilogue: keyword "chime-heard" is not a major keyword'),
    (QUESTS, 'next = [{ province = "saltmire", quest = "sm-salt-road" }, ',
     'next = [{ province = "saltmire", quest = "sm-salt-way" }, ',
     'epilogue: next names quest "sm-salt-way", which is not a guild quest of The Saltmire'),
    (QUESTS, 'requires = { keyword = "chime-heard" }', 'requires = { keyword = "chime-hurd" }',
     'choice 2: requires keyword "chime-hurd", which is not in keywords.toml'),
    (QUESTS, 'outcome = "clash"\nxp = 2\ntext = "Fight the guardians',
     'outcome = "delve"\nxp = 2\ntext = "Fight the guardians',
     'step B14, choice 1: outcome delve, but its encounter "sm-q-chime-guard" is a clash battle: write outcome = '
     '"clash"'),
    (QUESTS, 'outcome = "delve"\nxp = 2\ntext = "Wade down', 'outcome = "clash"\nxp = 2\ntext = "Wade down',
     'step B20, choice 1: outcome clash, but its encounter "sm-q-kings-barrow" is a delve battle: write outcome = '
     '"delve"'),
    (QUESTS, 'outcome = "delve"\nxp = 2\ntext = "Wade down', 'outcome = "brawl"\nxp = 2\ntext = "Wade down',
     'step "sm-horn-b", choice #1: outcome must be one of "peaceful", "clash", "delve", "dungeon", got "brawl"'),
    (QUESTS, 'encounter = "sm-q-kings-barrow"', 'encounter = "sm-q-kings-barow"',
     'step B20: names encounter "sm-q-kings-barow", which no encounters file defines'),
    (QUESTS, 'toward = "compass"', 'toward = "north"',
     'ongoing #1: toward must be "party", "compass" or "town:<town id>"'),
    ("side_quests.toml", 'trigger = { landmark = "conflict", where = "south" }',
     'trigger = { landmark = "conflict", where = "down" }',
     'side quest "sq-greedy-conjurer", trigger: where must be one of "north", "south", "east", "west"'),
    ("side_quests.toml", 'encounter = "sq-conjurer-guards"', 'encounter = "gaolers-keys"',
     'side quest "sq-greedy-conjurer": encounter "gaolers-keys" is a dungeon battle; a dungeon is in one '
     "province's gazetteer and a side quest is not tied to one province"),
    ("side_quests.toml", 'trigger = { landmark = "peaceful" }', 'trigger = { hex = [3, 3] }',
     'side quest "sq-missing-courier", trigger: a side quest is not tied to one province'),
    ("side_quests.toml", 'effects = [{ type = "keyword", keyword = "conjurer-caught" }]',
     'effects = [{ type = "keyword", keyword = "chime-bearer" }]',
     'keyword "chime-bearer" is a major keyword; major keywords come only from a guild quest\'s epilogue'),
    ("side_quests.toml", 'item = "glyph-of-stamina"', 'item = "glyph-of-speed"',
     'item "glyph-of-speed" is not in items.toml'),
    ("side_quests.toml", 'effects = [{ type = "tenacity", amount = 1 }, { type = "keyword", keyword = "warden-friend" }]',
     'effects = [{ type = "heal", amount = 1, who = "chosen" }, { type = "keyword", keyword = "warden-friend" }]',
     'side quest "sq-marsh-patrol": a tally side quest\'s rewards come at a town encounter, where nobody is asked'),
    ("provinces/saltmire/endgame.toml", 'days = 4', 'days = 5', 'needs one [[day]] for each day from 1 to 5'),
    ("provinces/saltmire/endgame.toml", 'keyword = "warden-friend"', 'keyword = "warden-foe"',
     'endgame.toml, day 2: keyword "warden-foe" is not in keywords.toml'),
])
def test_problems_name_the_file_the_entry_and_the_field(tmp_path, path, old, new, message):
    folder = _copy(tmp_path)
    f = folder / path
    text = f.read_text()
    assert old in text, old
    f.write_text(text.replace(old, new, 1))
    assert message in _errors(folder)


def test_a_side_quest_may_fight_a_delve_and_an_endgame_day_a_dungeon(tmp_path):
    """Quest battles in every mode: a side quest's battle-first delve (played in the session's province) and the
    endgame's final day in a dungeon, its choice naming the mode."""
    folder = _copy(tmp_path)
    for path, old, new in (
            ("side_quests.toml", 'encounter = "sq-granary-skeevers"', 'encounter = "brinehollow-caves"'),
            ("provinces/saltmire/endgame.toml", 'encounter = "sm-end-tidecaller"', 'encounter = "gaolers-keys"'),
            ("provinces/saltmire/endgame.toml", 'outcome = "clash"\nxp = 3', 'outcome = "dungeon"\nxp = 3')):
        f = folder / path
        text = f.read_text()
        assert old in text, old
        f.write_text(text.replace(old, new, 1))
    camp = load_pack(str(folder)).campaign
    sq = camp.side_quests["sq-granary-skeevers"]
    assert sq.encounter == "brinehollow-caves" and sq.battle_first
    day = camp.endgames["saltmire"].on_day(4)
    assert day.encounter == "gaolers-keys" and day.final and [ch.outcome for ch in day.choices] == ["dungeon"]
