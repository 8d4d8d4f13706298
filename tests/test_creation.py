"""Adventurer creation (rulebook pages 19-27): both worked examples and every rule."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

RYAN, SHANNON, KIM, LEE, MO = "1001", "1002", "1003", "1004", "1005"


async def open_campaign(player, leader=RYAN, **opts):
    reply = await player(leader)("campaign new", name=opts.pop("name", "Night Watch"), **opts)
    assert not reply.error, reply.content
    return reply


def row_view(adv, pack, i):
    """A row as the table would read it: (left token, squares, right token)."""
    row = adv.rows[i]

    def tok(slot):
        if slot is None:
            return None
        return f"{slot.id}:{slot.value}" if slot.id == "health" else slot.id

    squares = []
    for sq in row.squares:
        if sq is None:
            squares.append(None)
        elif "stat" in sq:
            squares.append(sq["stat"])
        else:
            squares.append(pack.die(adv.dice[sq["die"]]["type"]).name)
    return tok(row.left), squares, tok(row.right)


async def test_ryans_dark_elf_matches_the_rulebook_example(player, service):
    await open_campaign(player)
    reply = await player(RYAN)("adventurer create", name="Ryan's Elf", race="dark-elf", line="destruction-staff",
                               klass="sorcerer", health="1L", stamina="2L", combat="2R", magicka="3L", skill="4L")
    assert not reply.error, reply.content
    state = await service.campaign("100")
    adv = state.adventurers[RYAN]
    from rulesets.tes.content import load_pack

    pack = load_pack("starter")
    combat = pack.lines["combat"].dice[0].name
    assert row_view(adv, pack, 0) == ("health:4", [None] * 6, None)
    assert row_view(adv, pack, 1) == ("stamina", ["stamina", "stamina", None, None, combat, combat], "combat")
    assert row_view(adv, pack, 2) == ("magicka", ["magicka"] * 3 + [None] * 3, None)
    assert row_view(adv, pack, 3) == ("destruction-staff", ["Force Shock", "Force Shock"] + [None] * 4, None)
    assert (adv.max_hp, adv.hp, adv.stat("stamina"), adv.stat("magicka")) == (4, 4, 2, 3)
    assert adv.cooldown_stat == 2 and adv.battle_form == "magic"
    assert adv.tenacity == 0 and adv.saved_xp == 0 and adv.class_id == "sorcerer" and adv.class_side == "novice"
    # the reply shows the mat as a picture
    assert reply.pictures and reply.pictures[0].kind == "mat"


async def test_shannons_argonian_matches_the_rulebook_example(player, service):
    await open_campaign(player, leader=SHANNON)
    reply = await player(SHANNON)("adventurer create", name="Shannon's Scale", race="argonian",
                                  line="one-hand-and-shield", klass="acrobat", health="1L", stamina="2L",
                                  combat="3L", magicka="4L", skill="4R")
    assert not reply.error, reply.content
    from rulesets.tes.content import load_pack

    pack = load_pack("starter")
    adv = (await service.campaign("100")).adventurers[SHANNON]
    combat = pack.lines["combat"].dice[0].name
    assert row_view(adv, pack, 0) == ("health:5", [None] * 6, None)
    assert row_view(adv, pack, 1) == ("stamina", ["stamina"] * 3 + [None] * 3, None)
    assert row_view(adv, pack, 2) == ("combat", [combat] + [None] * 5, None)
    assert row_view(adv, pack, 3) == ("magicka", ["magicka", "magicka", None, None,
                                                  "Shield Discipline", "Shield Discipline"], "one-hand-and-shield")
    assert adv.stat("stamina") == 3 and adv.stat("magicka") == 2 and adv.max_hp == 5
    assert adv.cooldown_stat == 2 and adv.battle_form == "light"


async def test_default_placement_and_class_left_for_the_jailbreak(player, service):
    await open_campaign(player)
    reply = await player(RYAN)("adventurer create", name="Vilya", race="dark-elf", line="bow")
    assert not reply.error, reply.content
    adv = (await service.campaign("100")).adventurers[RYAN]
    assert adv.class_id is None and adv.battle_form == "ranged"
    assert adv.find_slot("stat", "health") == (0, "L") and adv.find_slot("line", "bow") == (4, "L")
    reply = await player(RYAN)("adventurer class", klass="Sorcerer")
    assert not reply.error, reply.content
    again = await player(RYAN)("adventurer class", klass="knight")
    assert again.error and "permanent" in again.content


@pytest.mark.parametrize("opts, fragment", [
    ({"race": "wood-orc"}, "no race called"),
    ({"line": "combat"}, "no skill line called"),
    ({"line": "basket-weaving"}, "no skill line called"),
    ({"stamina": "2L", "combat": "2L"}, "each circular slot holds one token"),
    ({"stamina": "9L"}, "Row 9 does not exist"),
    ({"stamina": "middle"}, "is not a circular slot"),
    ({"magicka": "2R", "stamina": "2L", "race": "dark-elf", "combat": "3L"}, None),  # 2 + 3 fits in 6
    ({"klass": "ninja-pirate"}, "no class called"),
    ({"name": "@everyone"}, "can't contain"),
    ({"name": "x" * 40}, "32 or fewer"),
    ({"name": "   "}, "Give the adventurer a name"),
    ({"form": "heavy", "line": "destruction-staff"}, "sets your battle form"),
])
async def test_creation_rules_give_clear_messages_and_change_nothing(player, service, opts, fragment):
    await open_campaign(player)
    before = (await service.campaign("100")).to_dict()
    args = {"name": "Vilya", "race": "dark-elf", "line": "destruction-staff"} | opts
    reply = await player(RYAN)("adventurer create", **args)
    if fragment is None:
        assert not reply.error, reply.content
        return
    assert reply.error and reply.ephemeral
    assert fragment in reply.content, reply.content
    assert (await service.campaign("100")).to_dict() == before


async def test_a_row_has_only_six_squares_with_a_partys_own_pack(tmp_path, service, player):
    """A party's own pack (a folder) with a race whose Stamina and Magicka can't share a row."""
    import shutil

    from engine.core import Action

    pack_dir = tmp_path / "our-pack"
    shutil.copytree(ROOT / "content" / "starter", pack_dir)
    with open(pack_dir / "races.toml", "a") as f:
        f.write('''
[[race]]
id = "giant"
name = "Giant"
health = 3
stamina = 4
magicka = 3
combat = 1
cooldown = 2
description = "Big."
[race.ability]
name = "Stomp"
timing = "your turn"
text = "Once per battle, shake the ground."
manual = true
''')
    await service.execute("100", Action("campaign.new", RYAN, {"name": "Own", "channel_id": "100",
                                                               "pack": str(pack_dir)}))
    crowded = await player(RYAN)("adventurer create", name="Crowded", race="giant", line="bow",
                                 stamina="2L", magicka="2R")
    assert crowded.error and "Row 2 has only 6 square slots: Stamina needs 4 and Magicka needs 3" in crowded.content
    fits = await player(RYAN)("adventurer create", name="Roomy", race="giant", line="bow",
                              stamina="2L", combat="2R", magicka="3L")
    assert not fits.error, fits.content


async def test_a_discord_party_can_only_name_installed_packs(player):
    reply = await player(RYAN)("campaign new", name="X", pack="/etc")
    assert reply.error and "no content pack called" in reply.content


async def test_one_adventurer_per_player_and_four_per_party(player, service):
    await open_campaign(player)
    for i, user in enumerate([RYAN, SHANNON, KIM, LEE]):
        lines = ["bow", "destruction-staff", "two-handed", "one-hand-and-shield"]
        klass = ["sorcerer", "acrobat", "knight", "healer"][i]
        reply = await player(user)("adventurer create", name=f"Hero {i}", race=["dark-elf", "argonian", "nord",
                                   "khajiit"][i], line=lines[i], klass=klass)
        assert not reply.error, reply.content
    again = await player(RYAN)("adventurer create", name="Second", race="dark-elf", line="bow")
    assert again.error and "already have an adventurer" in again.content
    fifth = await player(MO)("adventurer create", name="Fifth", race="argonian", line="bow")
    assert fifth.error and "full" in fifth.content
    state = await service.campaign("100")
    assert len(state.adventurers) == 4 and MO not in state.members


async def test_component_limits_race_sheets_and_class_sheets(player, service):
    await open_campaign(player)
    for user in (SHANNON, KIM):
        await player(user)("campaign join")
    assert not (await player(RYAN)("adventurer create", name="A", race="dark-elf", line="bow", klass="sorcerer")).error
    taken = await player(SHANNON)("adventurer create", name="B", race="dark-elf", line="two-handed", klass="sorcerer")
    assert taken.error and "Sorcerer class sheet" in taken.content
    assert not (await player(SHANNON)("adventurer create", name="B", race="dark-elf", line="two-handed")).error
    third = await player(KIM)("adventurer create", name="C", race="dark-elf", line="destruction-staff")
    assert third.error and "Dark Elf sheets are taken" in third.content


async def test_non_owner_is_refused_and_leader_may_act_for_a_player(player, service, store):
    await open_campaign(player)
    await player(SHANNON)("campaign join")
    await player(KIM)("campaign join")
    # Kim (not leader) tries to create for Shannon
    reply = await player(KIM)("adventurer create", name="Sneaky", race="argonian", line="bow", player=SHANNON)
    assert reply.error and "your own adventurer" in reply.content
    assert SHANNON not in (await service.campaign("100")).adventurers
    # the leader may, and the log says so
    reply = await player(RYAN)("adventurer create", name="Helped", race="argonian", line="bow", player=SHANNON)
    assert not reply.error, reply.content
    state = await service.campaign("100")
    assert state.adventurers[SHANNON].owner == SHANNON
    entry = await store.last_entry(await service.campaign_id("100"))
    assert entry.actor == RYAN and entry.on_behalf == SHANNON
    assert "acts for" in entry.events[0]["text"]


async def test_status_shows_party_dials_and_whose_move(player):
    await open_campaign(player, difficulty="expert")
    await player(RYAN)("adventurer create", name="Vilya", race="dark-elf", line="bow")
    await player(SHANNON)("campaign join")
    reply = await player(SHANNON)("campaign status")
    text = reply.as_text()
    assert "Expert" in text and "XP dial** 2" in text and "Session** 1" in text
    assert "Vilya" in text and "no adventurer yet" in text
    assert f"<@{SHANNON}> still to go" in text


async def test_campaign_lifecycle_join_leave_end_with_confirmation(player, service):
    await open_campaign(player)
    assert (await player(RYAN)("campaign new", name="Again")).error
    await player(SHANNON)("campaign join")
    assert (await player(SHANNON)("campaign join")).error
    assert "can't leave" in (await player(RYAN)("campaign leave")).content
    assert not (await player(SHANNON)("campaign leave")).error
    assert (await player(SHANNON)("campaign end")).error  # not the leader
    ask = await player(RYAN)("campaign end")
    assert not ask.error and ask.buttons and ask.buttons[0].style == "danger"
    assert (await service.campaign("100")) is not None  # nothing ended yet
    done = await player(RYAN).click(ask.buttons[0].custom_id)
    assert not done.error and "has ended" in done.content and done.update
    assert (await service.campaign("100")) is None
    stale = await player(RYAN).click(ask.buttons[0].custom_id)
    assert stale.error and "out of date" in stale.content
    # a fresh campaign can open in the same channel afterwards
    assert not (await player(SHANNON)("campaign new", name="Next")).error
