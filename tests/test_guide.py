"""/adventurer guide: step-by-step creation with menus, kept in the campaign as a draft."""
from __future__ import annotations


from engine.components import ID_RE
from commands.core import Table
from rulesets.tes.content import load_pack
from engine.service import CampaignService, replay
from engine.store import Store

RYAN, SHANNON, KIM = "1001", "1002", "1003"
RYANS_LAYOUT = "1L Health · 2L Stamina · 2R Combat · 3L Magicka · 4L Destruction Staff"


async def open_campaign(player, leader=RYAN, channel="100"):
    reply = await player(leader, channel)("campaign new", name="Night Watch")
    assert not reply.error, reply.content


def menu(reply):
    assert not reply.error, reply.content
    assert len(reply.selects) == 1, reply.as_text()
    return reply.selects[0]


def button(reply, label):
    found = [b for b in reply.buttons if b.label == label]
    assert found, (label, [b.label for b in reply.buttons])
    return found[0].custom_id


def option(reply, label):
    found = [o for o in menu(reply).options if o[0] == label]
    assert found, (label, [o[0] for o in menu(reply).options])
    return found[0]


async def pick(who, reply, value):
    """Choose ``value`` in the prompt's menu, like a player on a phone."""
    out = await who.click(menu(reply).custom_id, [value])
    return out


async def guide_ryans_elf(player, user=RYAN, name="Ryan's Elf"):
    ryan = player(user)
    reply = await ryan("adventurer guide", name=name)
    assert "race" in reply.embeds[0].title and reply.ephemeral
    reply = await pick(ryan, reply, "dark-elf")
    assert reply.update and "starting skill line" in reply.embeds[0].title
    reply = await pick(ryan, reply, "destruction-staff")
    assert "token placement" in reply.embeds[0].title  # Destruction Staff sets the form: no form step
    label, code, description = option(reply, "Combat opposite Stamina")
    assert description == RYANS_LAYOUT
    reply = await pick(ryan, reply, code)
    assert "class" in reply.embeds[0].title
    reply = await pick(ryan, reply, "sorcerer")
    assert "summary" in reply.embeds[0].title and not reply.selects
    return reply


async def test_guided_flow_builds_the_same_adventurer_as_the_one_command_create(player, service, store):
    await open_campaign(player)
    summary = await guide_ryans_elf(player)
    text = summary.as_text()
    assert "Dark Elf" in text and "Destruction Staff" in text and RYANS_LAYOUT in text and "Sorcerer" in text
    done = await player(RYAN).click(button(summary, "Create"))
    assert not done.error, done.content
    assert "joins the party" in done.content and done.pictures and done.pictures[0].kind == "mat"
    guided = await service.campaign("100")
    assert guided.drafts == {}

    # the same adventurer by the one command, in another channel
    await open_campaign(player, channel="200")
    one = await player(RYAN, "200")("adventurer create", name="Ryan's Elf", race="dark-elf",
                                    line="destruction-staff", klass="sorcerer", health="1L", stamina="2L",
                                    combat="2R", magicka="3L", skill="4L")
    assert not one.error, one.content
    direct = await service.campaign("200")
    made = [{k: v for k, v in c.adventurers[RYAN].to_dict().items() if k != "id"} for c in (guided, direct)]
    assert made[0] == made[1]  # the same adventurer (each has an id of its own)
    assert guided.adventurers[RYAN].id and direct.adventurers[RYAN].id
    assert guided.members == direct.members

    # every step is in the log, and the log alone rebuilds the campaign
    entries = await store.log(await service.campaign_id("100"))
    assert [e.type for e in entries] == ["campaign.new"] + ["adventurer.draft"] * 6
    assert entries[-1].events[-1]["kind"] == "adventurer-created"
    assert replay(entries).to_dict() == guided.to_dict()


async def test_a_line_without_a_form_asks_for_one_and_the_class_can_wait(player, service, store):
    await open_campaign(player)
    ryan = player(RYAN)
    reply = await ryan("adventurer guide", name="Vilya")
    reply = await pick(ryan, reply, "argonian")
    reply = await pick(ryan, reply, "acrobatics")
    assert "battle form" in reply.embeds[0].title and "step 3 of 5" in reply.embeds[0].title
    assert "magic" in [o[1] for o in menu(reply).options]
    bad = await pick(ryan, reply, "sneaky")
    assert bad.error and "not a battle form" in bad.content
    reply = await pick(ryan, reply, "ranged")
    default = menu(reply).options[0]
    assert default[1] == "1L.2L.3L.4L.5L"
    assert default[2] == "1L Health · 2L Stamina · 3L Magicka · 4L Combat · 5L Acrobatics"
    reply = await pick(ryan, reply, default[1])
    assert option(reply, "Decide after the Jailbreak")[1] == "later"
    assert len(menu(reply).options) == 16  # 15 classes and "decide later"
    reply = await pick(ryan, reply, "later")
    assert "decide after the Jailbreak" in reply.as_text()
    done = await ryan.click(button(reply, "Create"))
    assert not done.error, done.content
    adv = (await service.campaign("100")).adventurers[RYAN]
    assert adv.battle_form == "ranged" and adv.class_id is None and adv.race == "argonian"
    state = await service.campaign("100")
    assert replay(await store.log(await service.campaign_id("100"))).to_dict() == state.to_dict()


async def test_each_step_refuses_bad_values_clearly_and_changes_nothing(player, service):
    await open_campaign(player)
    for user in (SHANNON, KIM):
        await player(user)("campaign join")
    # Shannon and Kim take both Dark Elf sheets, the Sorcerer class and both Bow tokens
    assert not (await player(SHANNON)("adventurer create", name="A", race="dark-elf", line="bow",
                                      klass="sorcerer")).error
    assert not (await player(KIM)("adventurer create", name="B", race="dark-elf", line="bow")).error
    ryan = player(RYAN)
    reply = await ryan("adventurer guide", name="Vilya")
    assert "dark-elf" not in [o[1] for o in menu(reply).options]
    assert "Dark Elf (both sheets taken)" in reply.content

    async def refused(value, fragment):
        before = (await service.campaign("100")).to_dict()
        out = await pick(ryan, reply, value)
        assert out.error and out.ephemeral and fragment in out.content, out.content
        assert (await service.campaign("100")).to_dict() == before

    await refused("dark-elf", "Both Dark Elf sheets are taken")
    await refused("ninja", "There is no race called `ninja`")
    reply = await pick(ryan, reply, "nord")
    assert "bow" not in [o[1] for o in menu(reply).options]
    await refused("bow", "Every Bow token is taken")
    await refused("combat", "no skill line called")
    reply = await pick(ryan, reply, "two-handed")
    await refused("1L.1L.3L.4L.5L", "both placed in row 1 left")
    await refused("1L.2L.3L.4L", "is not a token placement")
    await refused("1L.2L.2R.9L.4L", "Row 9 does not exist")
    reply = await pick(ryan, reply, "1L.2L.3L.4L.5L")
    assert "sorcerer" not in [o[1] for o in menu(reply).options]
    await refused("sorcerer", "A already has the Sorcerer class sheet")
    await refused("ninja-pirate", "no class called")
    reply = await pick(ryan, reply, "knight")
    # the summary has no menu; a stray pick is out of date
    assert not reply.selects


async def test_stale_prompts_are_refused(player, service):
    await open_campaign(player)
    ryan = player(RYAN)
    first = await ryan("adventurer guide", name="Vilya")
    second = await ryan("adventurer guide", name="Vilya Two")
    replaced = await pick(ryan, first, "nord")
    assert replaced.error and "out of date" in replaced.content and "replaced" in replaced.content
    moved = await pick(ryan, second, "nord")
    assert not moved.error
    again = await pick(ryan, second, "orc")  # the race menu of a prompt that has moved on
    assert again.error and "out of date" in again.content
    assert (await service.campaign("100")).drafts[RYAN]["race"] == "nord"
    # start over, then the old line menu is stale too
    restarted = await ryan.click(button(moved, "Start over"))
    assert restarted.update and "race" in restarted.embeds[0].title
    assert (await pick(ryan, moved, "bow")).error
    # cancel: the draft is gone, its prompt is stale
    cancelled = await ryan.click(button(restarted, "Cancel"))
    assert not cancelled.error and cancelled.update and "Nothing was created" in cancelled.content
    assert (await service.campaign("100")).drafts == {}
    gone = await pick(ryan, restarted, "orc")
    assert gone.error and "out of date" in gone.content
    # finished: the Create button of a created adventurer is stale
    summary = await guide_ryans_elf(player)
    assert not (await ryan.click(button(summary, "Create"))).error
    twice = await ryan.click(button(summary, "Create"))
    assert twice.error and "out of date" in twice.content and "created already" in twice.content
    assert len((await service.campaign("100")).adventurers) == 1
    # a guide for a player who has an adventurer is refused at once
    assert "already have an adventurer" in (await ryan("adventurer guide", name="Other")).content


async def test_only_the_owner_or_the_leader_may_use_a_prompt(player, service, store):
    await open_campaign(player)
    for user in (SHANNON, KIM):
        await player(user)("campaign join")
    reply = await player(SHANNON)("adventurer guide", name="Sil")
    sneaky = await pick(player(KIM), reply, "argonian")
    assert sneaky.error and "belongs to" in sneaky.content
    assert (await service.campaign("100")).drafts[SHANNON]["race"] is None
    # the leader may act for an absent player, and the log says so
    helped = await pick(player(RYAN), reply, "argonian")
    assert not helped.error, helped.content
    assert (await service.campaign("100")).drafts[SHANNON]["race"] == "argonian"
    entry = await store.last_entry(await service.campaign_id("100"))
    assert entry.actor == RYAN and entry.on_behalf == SHANNON
    # the leader may also start a draft for someone
    lee_prompt = await player(RYAN)("adventurer guide", name="Lee's Orc", player=KIM)
    assert not lee_prompt.error and KIM in (await service.campaign("100")).drafts


async def test_a_draft_survives_closing_and_reopening_the_store(tmp_path):
    path = tmp_path / "guide.db"
    store = await Store.open(path)
    table = Table(CampaignService(store))
    inv = lambda: table.invocation(RYAN, "100", "1", RYAN)  # noqa: E731
    assert not (await table.run(inv(), "campaign new", {"name": "Keep"})).error
    reply = await table.run(inv(), "adventurer guide", {"name": "Vilya"})
    reply = await table.click(inv(), reply.selects[0].custom_id, ["dark-elf"])
    assert not reply.error
    await store.close()

    store = await Store.open(path)
    table = Table(CampaignService(store))
    assert (await table.service.campaign("100")).drafts[RYAN]["race"] == "dark-elf"
    reply = await table.click(inv(), reply.selects[0].custom_id, ["destruction-staff"])
    assert not reply.error, reply.content
    reply = await table.click(inv(), reply.selects[0].custom_id, ["1L.2L.3L.2R.4L"])
    reply = await table.click(inv(), reply.selects[0].custom_id, ["sorcerer"])
    done = await table.click(inv(), [b for b in reply.buttons if b.label == "Create"][0].custom_id)
    assert not done.error, done.content
    state = await table.service.campaign("100")
    assert state.adventurers[RYAN].class_id == "sorcerer" and not state.drafts
    assert replay(await store.log(await table.service.campaign_id("100"))).to_dict() == state.to_dict()
    await store.close()


async def test_the_leader_can_undo_a_draft_step(player, service):
    await open_campaign(player)
    ryan = player(RYAN)
    reply = await ryan("adventurer guide", name="Vilya")
    await pick(ryan, reply, "nord")
    ask = await ryan("undo")
    assert not (await ryan.click(ask.buttons[0].custom_id)).error
    draft = (await service.campaign("100")).drafts[RYAN]
    assert draft["race"] is None and draft["rev"] == 0
    assert not (await pick(ryan, reply, "orc")).error  # the first prompt is current again


async def test_every_menu_fits_discords_limits(player):
    await open_campaign(player)
    pack = load_pack("starter")
    from rulesets.tes.rules.guide import layouts

    for race in pack.races:
        for line in pack.lines:
            if line == "combat":
                continue
            found = layouts(pack, race, line)
            assert found and found[0][1] == "1L.2L.3L.4L.5L" and len(found) <= 25
            assert len({code for _l, code, _d in found}) == len(found)
    ryan = player(RYAN)
    reply = await ryan("adventurer guide", name="A Rather Long Adventurer Name")
    seen = 0
    for value in ("khajiit", "shadow", "defensive", None, "later"):
        s = menu(reply)
        assert ID_RE.match(s.custom_id) and len(s.custom_id) <= 100
        assert 1 <= len(s.options) <= 25 and len(s.placeholder) <= 150
        for label, val, desc in s.options:
            assert 1 <= len(label) <= 100 and 1 <= len(val) <= 100 and len(desc) <= 100
        for b in reply.buttons:
            assert ID_RE.match(b.custom_id) and len(b.custom_id) <= 100 and len(b.label) <= 80
        reply = await pick(ryan, reply, value or s.options[-1][1])
        assert not reply.error, reply.content
        seen += 1
    assert seen == 5 and "summary" in reply.embeds[0].title


async def local_click(local, who, custom_id, values):
    """What the local table's `/click <id> values:a,b` line does."""
    inv = local.table.invocation(who, local.channel, "local-guild", who)
    inv.local = True
    reply = await local.table.click(inv, custom_id, values)
    await local.print_reply(reply)
    local.last = reply
    return reply


async def test_the_guide_works_at_the_local_table(table, service, tmp_path):
    """The local table prints each menu's id and values, and its clicks drive the same flow."""
    import re

    from commands.local import LocalTable

    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path, echo=out.append, user="ryan")
    assert await local.run_script(["/campaign new name:Local", "/adventurer guide name:Vilya"]) == 0
    for value in ("dark-elf", "destruction-staff", "1L.2L.3L.2R.4L", "sorcerer"):
        shown = re.search(r"/click (hx:guide:local:\S+) values:", out[-1])
        assert shown, out[-1]
        assert value in out[-1].split("[menu:")[1] or value == "1L.2L.3L.2R.4L"
        reply = await local_click(local, "ryan", shown.group(1), [value])
        assert not reply.error, "\n".join(out)
    create = re.search(r"\[button: Create\]  \(id (hx:guide:local:\S+)\)", out[-1]).group(1)
    done = await local_click(local, "ryan", create, [])
    assert not done.error, "\n".join(out)
    assert local.images  # the mat picture was written
    state = await service.campaign("local")
    assert state.adventurers["ryan"].race == "dark-elf" and not state.drafts


def test_a_click_line_names_the_whole_custom_id():
    from commands.local import parse_line

    _user, name, options = parse_line("/click hx:guide:local:ryan.ab12cd34.0.race values:dark-elf")
    assert name == "click" and options.get("_args") == "hx:guide:local:ryan.ab12cd34.0.race"
    assert options.get("values") == "dark-elf"
