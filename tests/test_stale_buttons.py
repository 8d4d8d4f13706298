"""Every kind of button and menu of every game, pressed stale: after its campaign ended and a new one, played the
same way, began in the channel (the new campaign stands at the very same question); and after the question it
asked was answered.  Each press is answered "out of date", privately, and changes nothing: not the state, not
the log.  (A Retreat left unanswered in an ended campaign once called the retreat of the next campaign's battle.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from commands.core import Table
from commands.local import LocalTable
from engine.components import CLICKS
from engine.service import CampaignService

ROOT = Path(__file__).resolve().parent.parent
CH = "local"
#: every kind this file presses; the last test checks no kind is left out
COVERED: set[str] = set()


class Tab:
    """A local table whose every reply's buttons and menus are kept, by kind, in the order they came."""

    def __init__(self, store, tmp_path):
        self.store = store
        self.local = LocalTable(Table(CampaignService(store)), channel=CH, out_dir=tmp_path / "out",
                                echo=lambda _t: None)
        self.ids: dict[str, list[tuple[str, str]]] = {}  # kind -> [(label, id)]

    async def play(self, script: str) -> None:
        for line in script.strip().splitlines():
            reply = await self.local.run_line(line)
            if reply is None:
                continue
            assert not reply.error, (line, reply.content)
            self.keep(reply)

    def keep(self, reply) -> None:
        for r in [reply, *reply.followups]:
            for b in r.buttons:
                self.ids.setdefault(b.custom_id.split(":")[1], []).append((b.label, b.custom_id))
            for s in r.selects:
                self.ids.setdefault(s.custom_id.split(":")[1], []).append((s.placeholder, s.custom_id))

    def id(self, kind: str, label: str = "") -> str:
        found = [i for lbl, i in self.ids.get(kind, []) if lbl.startswith(label)]
        assert found, (kind, label, self.ids.get(kind))
        return found[-1]

    async def click(self, user: str, custom_id: str, values: list[str] | None = None):
        inv = self.local.table.invocation(user, CH, "local-guild", user)
        inv.local = True
        return await self.local.table.click(inv, custom_id, values or [])

    async def snapshot(self):
        service = self.local.table.service
        state = await service.campaign(CH)
        if state is None:
            return None, 0
        return state.to_dict(), await service.log_count(CH)

    async def stale(self, user: str, custom_id: str, values: list[str] | None = None) -> None:
        """Pressed: refused as out of date, and nothing changed."""
        before = await self.snapshot()
        reply = await self.click(user, custom_id, values)
        assert reply.error and "out of date" in reply.content, (custom_id, reply.content)
        assert "went wrong" not in reply.content
        assert await self.snapshot() == before, custom_id
        COVERED.add(custom_id.split(":")[1])

    async def works(self, user: str, custom_id: str, values: list[str] | None = None):
        reply = await self.click(user, custom_id, values)
        assert not reply.error, (custom_id, reply.content)
        return reply


# ------------------------------------------------------------------------------------------------ tes --
TES = """
/as lena
/campaign new name:Jail
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
@bob /campaign join
@kim /campaign join
@kim /adventurer create name:Kim race:nord line:two-handed
/campaign settings reminder_hours:1
/campaign settings reminder_hours:2
/campaign settings reminder_hours:3
/campaign settings reminder_hours:4
/campaign settings reminder_hours:5
/campaign settings reminder_hours:6
/campaign settings reminder_hours:7
/campaign settings reminder_hours:8
/campaign settings reminder_hours:9
/campaign log
/undo
/undo confirm:yes
@bob /adventurer guide name:Bo
/campaign status
/adventurer retire player:kim
/adventurer retire player:kim confirm:yes
/campaign leave player:kim
/campaign leave player:kim confirm:yes
/campaign end
/force 2
/battle start encounter:jailbreak deploy:-2,2
/battle start encounter:jailbreak deploy:-2,2 confirm:yes
/move to:0,2
/engage target:"High Elf Bandit"
/force 1 2 5
/engage target:"High Elf Bandit" dice:"2 shield-discipline, combat"
/resolve
/battle retreat
"""
#: the battle prompts' other kinds share the roll's handler and id form (campaign, prompt, answer)
PROMPT_KINDS = ("prv", "lpk", "mov", "chc", "plc")


async def test_every_elder_scrolls_button_of_an_ended_campaign_and_of_an_answered_question_is_out_of_date(
        store, tmp_path):
    old = Tab(store, tmp_path)
    await old.play(TES)
    await old.play("/campaign end confirm:yes")
    new = Tab(store, tmp_path)
    await new.play(TES)  # the same questions, at the same moment, in the channel's next campaign
    state, _ = await new.snapshot()
    assert state["battle"]["retreat"] is False
    for kind, found in old.ids.items():
        for _label, custom_id in found:
            await new.stale("lena", custom_id, ["1"])
    roll = old.id("roll", "Resolve all")
    for kind in PROMPT_KINDS:
        await new.stale("lena", roll.replace(":roll:", f":{kind}:"), ["1"])
    state, _ = await new.snapshot()
    assert state["battle"]["retreat"] is False  # the old Retreat did not fail this battle

    # the questions of this campaign, answered (by command, as its script did, or by pressing them)
    for kind, label in (("undo", "Undo"), ("retire", "Retire"), ("leave", "Remove"), ("bstart", "Start"),
                        ("yes", ""), ("roll", "Resolve all"), ("roll", "Or choose"), ("mat", "Mat: Kim")):
        await new.stale("lena", new.id(kind, label), ["1"])
    for kind in PROMPT_KINDS:
        await new.stale("lena", new.id("roll", "Resolve all").replace(":roll:", f":{kind}:"), ["1"])
    await new.works("lena", new.id("retreat"))
    await new.stale("lena", new.id("retreat"))
    cancel = next(i for lbl, i in new.ids["guide"] if i.endswith(".cancel"))
    await new.works("bob", cancel)
    await new.stale("bob", cancel)
    await new.works("lena", new.id("cancel"))  # a Cancel changes nothing, pressed any number of times
    await new.works("lena", new.id("mat", "Mat: Shannon"))  # a view, not a question: it shows again
    await new.works("lena", new.id("log"))
    await new.works("lena", new.id("end"))
    await new.stale("lena", new.id("end"))


async def test_a_town_left_behind_answers_its_shop_and_trainer_buttons_out_of_date(store, tmp_path):
    """An old town's Trainer or Shop button gave "Something went wrong" (its Inn and Done said "out of date")."""
    script = """
/as lena
/campaign new name:"Reed Road"
/adventurer create name:Ryan race:dark-elf line:destruction-staff
@bob /campaign join
@bob /adventurer create name:Shannon race:argonian line:one-hand-and-shield
/force 1 1 1 1 1 1 1 1 2
/day start
/quest guild pick:"Mages Guild"
"""
    old = Tab(store, tmp_path)
    await old.play(script)
    town = [(lbl, i) for lbl, i in old.ids["day"] if ".f-" in i or i.endswith(".done")]
    labels = {lbl for lbl, _ in town}
    assert {"Shop", "Trainer", "Inn", "Done in town"} <= labels, labels
    await old.play("/campaign end confirm:yes")
    new = Tab(store, tmp_path)
    await new.play(script)
    for _label, custom_id in old.ids["day"]:
        await new.stale("bob", custom_id, ["1"])
    await new.play("/town done\n@bob /town done")  # the visit is over: the town's buttons answered
    for label, custom_id in new.ids["day"]:
        if ".f-" in custom_id or custom_id.endswith(".done"):
            await new.stale("bob", custom_id)


# ------------------------------------------------------------------------------------------ the others --
async def test_a_skirmish_rematch_button_is_bound_to_its_campaign_and_its_moment(store, tmp_path):
    script = (ROOT / "examples" / "skirmish.txt").read_text() + "\n/skirmish start\n"
    old = Tab(store, tmp_path)
    await old.play(script)
    await old.play("/as lena\n/campaign end confirm:yes")
    new = Tab(store, tmp_path)
    await new.play(script)
    await new.stale("lena", old.id("rematch"))
    await new.works("lena", new.id("rematch"))
    await new.stale("lena", new.id("rematch"))  # a second rematch from the same question: out of date


DUEL = """
/as lena
/campaign new name:"Hollow Road" ruleset:duel
/duel character hero:sellsword name:Brann
@bob /duel character hero:pilgrim name:Oda
@bob /duel retire
@bob /duel retire confirm:yes
@bob /duel character hero:pilgrim name:Oda
/duel fight monster:marsh-wisp
/duel join answer:in gear:chain-coat
"""


async def test_a_duels_buttons_are_bound_to_their_campaign_and_their_question(store, tmp_path):
    old = Tab(store, tmp_path)
    await old.play(DUEL)
    await old.play("/campaign end confirm:yes")
    new = Tab(store, tmp_path)
    await new.play(DUEL)
    for kind in ("duel", "duel-retire"):
        for _label, custom_id in old.ids[kind]:
            await new.stale("bob", custom_id)
    # Bob's first Oda retired (by command) and a new Oda was made: the old question never retires her
    await new.stale("bob", new.id("duel-retire"))
    first_join = new.ids["duel"][0][1]  # Lena's join question, answered by /duel join
    await new.stale("lena", first_join)


ENGAGE = """
/as lena
/campaign new name:"Bell Night" ruleset:engage
/mini field unit:reed-spear at:3,1
/mini field unit:roof-cutter at:7,1
/mini field unit:hedge-witch at:2,1
/mini field unit:bog-strider at:4,1
@bob /mini field unit:mire-hulk at:1,9
@bob /mini field unit:lantern-bow at:2,9
@bob /mini field unit:gallows-wraith at:3,9
/force 15 3
/mini start
/mini move unit:a2 to:5,5
/mini move unit:a1 to:3,4
/mini move unit:a4 to:0,6
/mini end
@bob /force 17
@bob /mini engage unit:b3 target:a1
"""


async def test_an_engage_intercept_button_is_bound_to_its_campaign_and_its_question(store, tmp_path):
    old = Tab(store, tmp_path)
    await old.play(ENGAGE)
    await old.play("/campaign end confirm:yes")
    new = Tab(store, tmp_path)
    await new.play(ENGAGE)
    for _label, custom_id in old.ids["mii"]:
        await new.stale("lena", custom_id, ["a4"])
    await new.play("/force 2\n/mini intercept unit:a4")
    for _label, custom_id in new.ids["mii"]:
        await new.stale("lena", custom_id, ["a4"])


async def test_an_imports_accept_your_seat_button_is_bound_to_its_campaign_and_its_seat(store, tmp_path):
    from helpers.exports import LEAD, SIL, export_bytes, opened

    path = tmp_path / "campaign.json"
    path.write_bytes(export_bytes(opened()))
    script = f'/as {LEAD}\n/campaign import file:"{path}"'
    old = Tab(store, tmp_path)
    await old.play(script)
    await old.play("/campaign end confirm:yes")
    new = Tab(store, tmp_path)
    await new.play(script)  # the same file again: Sil's seat waits again, in the channel's next campaign
    await new.stale(SIL, old.id("seat"))
    await new.works(SIL, new.id("seat"))
    await new.stale(SIL, new.id("seat"))  # taken: out of date


async def test_the_guild_assist_and_the_placement_pages_are_bound_to_their_campaign_and_question(store, tmp_path):
    """The guild assist's buttons (the party down) and a tile's placement pages, pressed stale."""
    lines = (ROOT / "examples" / "session.txt").read_text().splitlines()
    first_adjust = next(i for i, ln in enumerate(lines) if ln.startswith("/battle adjust"))
    script = "\n".join(lines[:first_adjust]) + """
/battle adjust unit:Shannon hp:-30 reason:"down"
/battle adjust unit:Ryan hp:-30 reason:"down"
/endturn
"""
    old = Tab(store, tmp_path)
    await old.play(script)
    old_cid = await old.local.table.service.campaign_id(CH)
    await old.play("/as ryan\n/campaign end confirm:yes")
    new = Tab(store, tmp_path)
    await new.play(script)
    cid = await new.local.table.service.campaign_id(CH)
    for _label, custom_id in old.ids["qassist"]:
        await new.stale("ryan", custom_id)
    await new.stale("ryan", f"hx:plpage:{CH}:c{old_cid}.x1-place.1")
    await new.stale("ryan", f"hx:plpage:{CH}:c{cid}.x1-place.1")  # no tile waits to be placed
    from engine.reminders import SNOOZES, turn_mark

    choice = next(iter(SNOOZES))
    await new.stale("ryan", f"hx:snooze:{CH}:c{old_cid}.{choice}.{turn_mark('x')}")  # the campaign before
    await new.stale("ryan", f"hx:snooze:{CH}:c{cid}.{choice}.{turn_mark('a turn long past')}")  # another turn
    await new.works("ryan", new.id("qassist", "📯 Call"))
    for _label, custom_id in new.ids["qassist"]:  # answered: both buttons are out of date now
        await new.stale("ryan", custom_id)


def test_every_kind_of_button_and_menu_is_pressed_stale_above():
    if len(COVERED) < 5:
        pytest.skip("runs after the tests above, in the same session")
    assert set(CLICKS) - COVERED == set()


async def test_buttons_posted_before_they_carried_their_campaign_are_out_of_date(store, tmp_path):
    """Ids an earlier version posted (the channel alone, no campaign) are answered out of date, never acted on."""
    new = Tab(store, tmp_path)
    await new.play(TES)
    for custom_id in (f"hx:retreat:{CH}:", f"hx:bstart:{CH}:jailbreak,,-2.2,,",
                      f"hx:yes:{CH}:eng:lena:abcdef:High Elf Bandit,,,", f"hx:cancel:{CH}:retreat",
                      f"hx:rematch:{CH}:", f"hx:duel-retire:{CH}:bob", f"hx:guide:{CH}:bob.ab12cd34.0.race"):
        await new.stale("lena", custom_id.replace(" ", "-"))

