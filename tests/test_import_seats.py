"""Seated by a file: an import seats the members its log names, but one who has never acted on the importing server
is not pinged, reminded or waited for until they accept their seat (the button on the import's post, or any
action of their own); until then the leader acts for them, logged; and they may leave at any moment, in a battle
too (their pieces stay in it, played by the leader, and leave with them when it is over)."""
from __future__ import annotations

import json

from commands.core import Table
from commands.local import LocalTable
from engine.core import Action
from engine.service import CampaignService, replay
from helpers.exports import LEAD, SIL, export_bytes, opened

CH = "200"


def in_battle():
    p = opened()
    assert p.do(Action("battle.start", LEAD, {"encounter": "jailbreak"}))
    return p


class Seats:
    def __init__(self, store, tmp_path):
        self.local = LocalTable(Table(CampaignService(store)), channel=CH, out_dir=tmp_path / "out",
                                echo=lambda _t: None, user=LEAD)
        self.store, self.tmp = store, tmp_path
        self.replies: list = []

    async def ok(self, line: str):
        reply = await self.local.run_line(line)
        assert reply is not None and not reply.error, (line, reply and reply.content)
        self.replies.append(reply)
        return reply

    async def refused(self, line: str):
        reply = await self.local.run_line(line)
        assert reply is not None and reply.error, (line, reply and reply.content)
        return reply

    async def state(self):
        return await self.local.table.service.campaign(CH)

    async def imported(self, played):
        path = self.tmp / "campaign.json"
        path.write_bytes(export_bytes(played))
        return await self.ok(f'/campaign import file:"{path}"')

    async def click(self, user: str, custom_id: str):
        inv = self.local.table.invocation(user, CH, "local-guild", user)
        inv.local = True
        return await self.local.table.click(inv, custom_id, [])

    async def replays(self):
        """The new channel's log rebuilds the campaign exactly (the import, the seats, the leaving)."""
        cid = await self.local.table.service.campaign_id(CH)
        log = await self.store.log(cid)
        assert replay(log).to_dict() == (await self.state()).to_dict()


async def test_a_member_seated_by_a_file_who_never_played_here_may_leave_in_a_battle(store, tmp_path):
    """On the bot before, `/campaign leave` in a battle answered "The party is in a battle"."""
    t = Seats(store, tmp_path)
    post = await t.imported(in_battle())
    assert "seat waiting to be accepted" in post.as_text()
    assert (await t.state()).unaccepted == [SIL]
    left = await t.ok(f"@{SIL} /campaign leave confirm:yes")
    assert "leaves the party" in left.content and "played by the leader" in left.content and "battle" in left.content
    s = await t.state()
    assert s.leaving == [SIL] and s.battle is not None and SIL in s.adventurers
    # gone from the party's pings at once; they can no longer act, the leader plays their adventurer to the end
    refused = await t.refused(f"@{SIL} /endturn")
    assert "left this party" in refused.content
    await t.ok("/battle retreat confirm:yes")
    ended = await t.ok("/endturn")
    assert ended.ping != SIL and SIL not in ended.also_ping
    await t.ok(f"/endturn player:{SIL}")  # logged: the leader acts for them
    s = await t.state()
    assert s.battle is None and SIL not in s.members and SIL not in s.adventurers and s.leaving == []
    said = "\n".join(r.content for r in t.replies[-1:])
    assert f"<@{SIL}> leaves the party." in said and "Sil retires" in said
    await t.replays()
    cid = await t.local.table.service.campaign_id(CH)
    acted_for = [e for e in await store.log(cid) if e.on_behalf == SIL]
    assert acted_for and all(e.actor == LEAD for e in acted_for)


async def test_an_unaccepted_seat_is_neither_pinged_nor_reminded_until_it_is_accepted(store, tmp_path):
    t = Seats(store, tmp_path)
    post = await t.imported(in_battle())
    seat = next(b.custom_id for b in post.buttons if b.label == "Accept your seat")
    turn = await t.ok("/endturn")  # Vilya's turn ends: it is Sil's
    assert "Sil's turn" in turn.content and turn.ping == LEAD  # the leader, who acts for Sil, is pinged
    assert f"<@{LEAD}> acts for <@{SIL}>, whose seat waits to be accepted." in turn.content
    cid = await t.local.table.service.campaign_id(CH)
    (reminder,) = await store.pending_reminders(cid)
    assert reminder.user_id == LEAD
    # someone else pressing the button takes nobody's seat
    other = await t.click(LEAD, seat)
    assert other.error and "Nothing was changed" in other.content
    taken = await t.click(SIL, seat)
    assert not taken.error and "takes their seat" in taken.content
    assert (await t.state()).unaccepted == []
    again = await t.click(SIL, seat)
    assert again.error and "out of date" in again.content
    status = await t.ok("/battle status")
    assert SIL in status.as_text() or "Sil" in status.as_text()
    await t.ok(f"/undo confirm:yes")  # the accept rolled no dice: it can be taken back, and given again
    assert (await t.state()).unaccepted == [SIL]
    acted = await t.ok(f"@{SIL} /endturn")  # their first action of their own accepts the seat too
    assert "takes their seat" in acted.content and (await t.state()).unaccepted == []
    await t.replays()


async def test_a_member_who_already_played_on_this_server_is_seated_at_once(store, tmp_path):
    t = Seats(store, tmp_path)
    other = LocalTable(Table(CampaignService(store)), channel="300", out_dir=tmp_path / "o", echo=lambda _t: None,
                       user=SIL)
    assert not (await other.run_line("/campaign new name:Elsewhere")).error  # Sil has acted on this server
    post = await t.imported(in_battle())
    assert (await t.state()).unaccepted == [] and not post.buttons
    assert "Seated as the file's log shows" in post.as_text()
    turn = await t.ok("/endturn")
    assert turn.ping == SIL


async def test_an_imported_campaign_with_waiting_seats_exports_and_imports_again(store, tmp_path):
    t = Seats(store, tmp_path)
    await t.imported(in_battle())
    await t.ok("/campaign export")
    export = next((tmp_path / "out").glob("campaign-*.json*"))
    doc = json.loads(export.read_bytes()) if export.suffix == ".json" else None
    assert doc is None or doc["state"]["unaccepted"] == [SIL]
    await t.ok("/campaign end confirm:yes")
    again = await t.ok(f'/campaign import file:"{export}"')
    assert "seat waiting to be accepted" in again.as_text() and (await t.state()).unaccepted == [SIL]
    await t.replays()


async def test_a_waiting_seat_may_leave_while_the_day_waits_on_it(store, tmp_path):
    """The day's town visit waits on every adventurer: the member leaves the party at once (never pinged, unable to
    act), while their adventurer stays, played by the leader, as long as the day's questions wait on it."""
    from day_helpers import guild_stack
    from helpers.exports import Played
    from rulesets.tes.content import load_pack
    from rulesets.tes.state import RULES

    p = Played()
    assert p.do(Action("campaign.new", LEAD, {"name": "Reed Road", "channel_id": "100", "guild_id": "1", "seed": 7,
                                              "pack_version": load_pack("starter").content_hash, "rules": RULES}))
    assert p.do(Action("adventurer.create", LEAD, {"name": "Vilya", "race": "dark-elf", "line": "destruction-staff"}))
    assert p.do(Action("campaign.join", SIL))
    assert p.do(Action("adventurer.create", SIL, {"name": "Sil", "race": "argonian", "line": "one-hand-and-shield"}))
    assert p.do(Action("day.start", LEAD, {"stack": guild_stack("mages-guild")}))
    assert p.do(Action("quest.guild", LEAD, {"pick": "1"}))
    assert p.state.days.ask.kind == "town" and SIL in p.state.days.ask.owners
    t = Seats(store, tmp_path)
    await t.imported(p)
    left = await t.ok(f"@{SIL} /campaign leave confirm:yes")
    assert "played by the leader" in left.content and (await t.state()).leaving == [SIL]
    refused = await t.refused(f"@{SIL} /town done")
    assert "left this party" in refused.content
    await t.ok("/town done")
    done = await t.ok(f"/town done player:{SIL}")  # the leader answers for them, logged
    assert done.ping != SIL and SIL not in done.also_ping
    s = await t.state()
    assert s.leaving == [SIL] and SIL in s.days.ask.owners  # the rest waits on Sil's adventurer too: it stays
    await t.replays()
