"""Permissions matrix: who may change what, where, and what everyone else is told.

Roles: the party leader (with an adventurer), an adventurer owner (member with
an adventurer), another party member (no adventurer yet), and a server member
outside the party.  Each runs every state-changing command in the campaign's
channel and in another channel (which has no campaign).  Destructive commands
(ending the campaign, undo, retiring, removing someone) need a confirmation
first, and only the right person's click applies them.
"""
from __future__ import annotations

import json

import pytest

from rulesets.tes.content import load_pack

LEADER, OWNER, MEMBER, OUTSIDER = "1001", "1002", "1003", "1004"
ROLES = {"leader": LEADER, "owner": OWNER, "member": MEMBER, "outsider": OUTSIDER}
HOME, OTHER = "100", "200"
NO_CAMPAIGN = "This channel has no campaign yet"
LEADER_ONLY = "Only the party leader"
OWN_ONLY = "You can only act for your own adventurer"


def a_class(n: int = 0) -> str:
    pack = load_pack("starter")
    return [c for c, v in pack.classes.items() if not getattr(v, "expansion_only", False)][n]


# command, options, {role: None (allowed) | "confirm" (asks, then allowed) | "part of the refusal"}
MATRIX = [
    ("campaign new", {"name": "Second"}, {r: "already has a campaign" for r in ROLES}),
    ("campaign join", {}, {"leader": "already in this party", "owner": "already in this party",
                           "member": "already in this party", "outsider": None}),
    ("campaign leave", {}, {"leader": "can't leave", "owner": "confirm", "member": None,
                            "outsider": "not in this party"}),
    ("campaign leave", {"player": OWNER}, {"leader": "confirm", "owner": "confirm", "member": OWN_ONLY,
                                           "outsider": OWN_ONLY}),
    ("campaign settings", {"reminder_hours": 5}, {"leader": None, "owner": LEADER_ONLY, "member": LEADER_ONLY,
                                                  "outsider": LEADER_ONLY}),
    ("campaign leader", {"player": MEMBER}, {"leader": None, "owner": LEADER_ONLY, "member": LEADER_ONLY,
                                             "outsider": LEADER_ONLY}),
    ("campaign end", {}, {"leader": "confirm", "owner": LEADER_ONLY, "member": LEADER_ONLY,
                          "outsider": LEADER_ONLY}),
    ("campaign export", {}, {"leader": None, "owner": LEADER_ONLY, "member": LEADER_ONLY,
                             "outsider": LEADER_ONLY}),
    ("adventurer create", {"name": "Newcomer", "race": "nord", "line": "bow"},
     {"leader": "already have an adventurer", "owner": "already have an adventurer", "member": None,
      "outsider": None}),
    ("adventurer create", {"name": "Absent", "race": "nord", "line": "bow", "player": MEMBER},
     {"leader": None, "owner": OWN_ONLY, "member": None, "outsider": OWN_ONLY}),
    ("adventurer class", {"class": "@CLASS"}, {"leader": "permanent choice", "owner": None,
                                               "member": "no adventurer yet", "outsider": "not in this party"}),
    ("adventurer class", {"class": "@CLASS", "player": OWNER},
     {"leader": None, "owner": None, "member": OWN_ONLY, "outsider": OWN_ONLY}),
    ("adventurer retire", {}, {"leader": "confirm", "owner": "confirm", "member": "no adventurer to retire",
                               "outsider": "no adventurer to retire"}),
    ("adventurer retire", {"player": OWNER}, {"leader": "confirm", "owner": "confirm",
                                              "member": "only retire your own",
                                              "outsider": "only retire your own"}),
    ("undo", {}, {"leader": "confirm", "owner": LEADER_ONLY, "member": LEADER_ONLY, "outsider": LEADER_ONLY}),
    ("force", {"values": "3 4"}, {"leader": None, "owner": LEADER_ONLY, "member": LEADER_ONLY,
                                  "outsider": LEADER_ONLY}),
]


async def setup_party(player):
    assert not (await player(LEADER)("campaign new", name="Matrix")).error
    assert not (await player(LEADER)("adventurer create", name="Vilya", race="dark-elf",
                                     line="destruction-staff", **{"class": a_class()})).error
    assert not (await player(OWNER)("adventurer create", name="Sil", race="argonian",
                                    line="one-hand-and-shield")).error
    assert not (await player(MEMBER)("campaign join")).error
    assert not (await player(LEADER)("campaign settings", reminder_hours=3)).error  # something undoable


async def snapshot(store, channel):
    stored = await store.load_active(channel)
    if stored is None:
        return None
    return stored.version, json.dumps(stored.state, sort_keys=True), await store.log_count(stored.id)


def cases():
    for i, (name, opts, expect) in enumerate(MATRIX):
        for role, outcome in expect.items():
            yield pytest.param(name, opts, role, outcome, id=f"{name.replace(' ', '-')}{i}-{role}")


@pytest.mark.parametrize("name,opts,role,outcome", list(cases()))
async def test_in_the_campaigns_channel(player, store, name, opts, role, outcome):
    await setup_party(player)
    opts = {k: (a_class(1) if v == "@CLASS" else v) for k, v in opts.items()}
    before = await snapshot(store, HOME)
    reply = await player(ROLES[role], HOME)(name, **opts)
    if outcome is None:
        assert not reply.error, reply.content
        assert (await snapshot(store, HOME)) != before or name == "campaign export"
    elif outcome == "confirm":
        assert not reply.error and reply.ephemeral, reply.content
        assert [b.style for b in reply.buttons] == ["danger", "secondary"], reply.as_text()
        assert await snapshot(store, HOME) == before  # asking changes nothing
        # somebody else clicking the button changes nothing either
        for other_role, other in ROLES.items():
            if other in (ROLES[role], LEADER):
                continue
            if name in ("adventurer retire", "campaign leave") and other == opts.get("player", ROLES[role]):
                continue  # the owner may confirm retiring (or removing) their own adventurer
            stranger = await player(other, HOME).click(reply.buttons[0].custom_id)
            assert stranger.error and stranger.content, (other_role, stranger.content)
            assert "Something went wrong" not in stranger.content
            assert await snapshot(store, HOME) == before
        # Cancel changes nothing; the confirming click applies it, once
        cancel = await player(ROLES[role], HOME).click(reply.buttons[1].custom_id)
        assert "nothing was changed" in cancel.content and await snapshot(store, HOME) == before
        done = await player(ROLES[role], HOME).click(reply.buttons[0].custom_id)
        assert not done.error, done.content
        after = await snapshot(store, HOME)
        assert after != before
        again = await player(ROLES[role], HOME).click(reply.buttons[0].custom_id)
        assert again.error and "Something went wrong" not in again.content
        assert await snapshot(store, HOME) in (after, None)
    else:
        assert reply.error, f"{role} was allowed to {name} {opts}"
        assert outcome in reply.content, reply.content
        assert await snapshot(store, HOME) == before


STATE_CHANGING_ELSEWHERE = sorted({name for name, _o, _e in MATRIX} - {"campaign new"})


@pytest.mark.parametrize("name", STATE_CHANGING_ELSEWHERE)
@pytest.mark.parametrize("role", list(ROLES))
async def test_in_another_channel_nothing_reaches_the_campaign(player, store, name, role):
    await setup_party(player)
    before = await snapshot(store, HOME)
    opts = next(o for n, o, _e in MATRIX if n == name)
    opts = {k: (a_class(1) if v == "@CLASS" else v) for k, v in opts.items()}
    reply = await player(ROLES[role], OTHER)(name, **opts)
    assert reply.error and NO_CAMPAIGN in reply.content and "/campaign new" in reply.content, reply.content
    assert await snapshot(store, HOME) == before
    assert await snapshot(store, OTHER) is None


async def test_a_button_from_the_campaigns_channel_does_nothing_elsewhere(player, store):
    await setup_party(player)
    ask = await player(LEADER)("campaign end")
    before = await snapshot(store, HOME)
    reply = await player(LEADER, OTHER).click(ask.buttons[0].custom_id)
    assert reply.error and "another channel" in reply.content
    assert await snapshot(store, HOME) == before


@pytest.mark.parametrize("role", list(ROLES))
async def test_anyone_may_open_a_campaign_in_another_channel(player, role):
    await setup_party(player)
    reply = await player(ROLES[role], OTHER)("campaign new", name="Elsewhere")
    assert not reply.error, reply.content


async def test_acting_for_someone_is_logged_with_who_did_it(player, store):
    await setup_party(player)
    ask = await player(LEADER)("campaign leave", player=OWNER)
    assert "Remove" in ask.content and "retires for good" in ask.content
    done = await player(LEADER).click(ask.buttons[0].custom_id)
    assert not done.error and f"<@{LEADER}> acts for <@{OWNER}>" in done.content
    last = (await store.log((await store.load_active(HOME)).id))[-1]
    assert (last.type, last.actor, last.on_behalf) == ("campaign.leave", LEADER, OWNER)


def member_options():
    from commands.core import COMMANDS, load_commands

    load_commands()
    for name, cmd in sorted(COMMANDS.items()):
        for opt in cmd.options:
            if opt.user:
                yield pytest.param(name, opt.name, id=f"{name.replace(' ', '-')}-{opt.name}")


@pytest.mark.parametrize("name,option", list(member_options()))
async def test_member_options_name_current_party_members_only(player, store, name, option):
    """Every member option of every command (from the declarations): someone outside the party, or who left it,
    is refused by the command layer with the fix, and nothing changes."""
    from commands.core import COMMANDS

    await setup_party(player)
    assert not (await player(MEMBER)("campaign leave")).error  # a former member
    cmd = COMMANDS[name]
    base = {o.name: (o.choices[0] if o.choices else (o.min or 1) if o.type is int else "x")
            for o in cmd.options if o.required and o.name != option}
    before = await snapshot(store, HOME)
    for who in (OUTSIDER, MEMBER):
        reply = await player(LEADER)(name, **base, **{option: who})
        assert reply.error and "must name a member of this party" in reply.content, reply.content
        assert "/campaign join" in reply.content
        assert await snapshot(store, HOME) == before


async def test_a_reply_never_pings_anyone_outside_the_party(player, table):
    from commands.core import COMMANDS
    from engine.commands import command
    from engine.reply import Reply

    await setup_party(player)

    @command("pingtest", "A reply that asks to ping people.")
    async def pingtest(inv):
        return Reply(content="hi", ping=OUTSIDER, followups=[Reply(content="you", ping=OWNER)])

    try:
        reply = await player(LEADER)("pingtest")
    finally:
        COMMANDS.pop("pingtest", None)
    assert reply.ping is None and reply.followups[0].ping == OWNER


@pytest.mark.parametrize("fault", ["crash", "refusal"])
async def test_a_command_that_fails_after_saving_says_what_was_saved(player, store, caplog, fault):
    """A command whose answer breaks after its action was committed never says "nothing was changed": it names
    the action and its log number, so the player does not repeat it."""
    from commands.core import COMMANDS
    from engine.commands import command
    from engine.core import RuleError

    await setup_party(player)

    @command("savetest", "Saves, then its answer fails.")
    async def savetest(inv):
        await inv.do("campaign.settings", {"reminder_hours": 7})
        if fault == "crash":
            raise RuntimeError("the answer broke")
        raise RuleError("A later step was refused.")

    count = await store.log_count((await store.load_active(HOME)).id)
    try:
        reply = await player(LEADER)("savetest")
    finally:
        COMMANDS.pop("savetest", None)
    assert reply.error and "nothing was changed" not in reply.content, reply.content
    assert f"#{count + 1} (campaign settings)" in reply.content and "do not repeat" in reply.content.lower()
    assert (await store.load_active(HOME)).state["settings"]["reminder_hours"] == 7
    caplog.clear()  # the crash is logged for the host on purpose
