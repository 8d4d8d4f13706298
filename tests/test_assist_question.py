"""Issue 26 item 2: the guild assist (once a campaign) is never spent without a question.

The whole party falls in The Salt Road's raid (the leader's adjustments, then the round ends): the post asks the
leader with buttons (call the assist / let the battle end) and says whom the battle waits for; a bare
`/quest assist` asks first and spends nothing; each button does what it says.
"""
from __future__ import annotations

from pathlib import Path

from engine.service import CampaignService
from engine.store import Store
from helpers.table import play

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DOWN = """
/battle adjust unit:Shannon hp:-30 reason:"down"
/battle adjust unit:Ryan hp:-30 reason:"down"
/endturn
"""


def _script() -> str:
    lines = (EXAMPLES / "session.txt").read_text().splitlines()
    first_adjust = next(i for i, ln in enumerate(lines) if ln.startswith("/battle adjust"))
    return "\n".join(lines[:first_adjust]) + DOWN


async def test_the_party_down_post_asks_the_leader_with_buttons_and_a_bare_command_spends_nothing(tmp_path):
    store = await Store.open(tmp_path / "a.db")
    try:
        errors, text, local = await play(store, tmp_path, "marsh", _script())
        assert errors == 0, text
        down = local.last
        labels = [b.label for b in down.buttons]
        assert labels[:2] == ["📯 Call the guild assist", "Let the battle end"]
        assert "Waiting for the enemies" not in down.content
        assert "decides whether to call the guild assist" in down.content and down.ping == "ryan"
        assert "use:no" in down.content
        call = next(b.custom_id for b in down.buttons if b.label == "📯 Call the guild assist")
        errors, text, local = await play(store, tmp_path, "marsh", "/as ryan\n/quest assist")
        assert errors == 0 and local.last.ephemeral and "once a campaign" in local.last.content
        state = await CampaignService(store).campaign("marsh")
        assert state.quests.assist == "asked" and state.journal.assist == 0  # nothing was spent
        errors, text, local = await play(store, tmp_path, "marsh", f"/as ryan\n/click {call}")
        assert errors == 0, text
        state = await CampaignService(store).campaign("marsh")
        assert state.journal.assist == 1 and state.battle is not None
        assert all(a.hp == a.max_hp for a in state.adventurers.values())
    finally:
        await store.close()


async def test_letting_the_battle_end_by_its_button(tmp_path):
    store = await Store.open(tmp_path / "b.db")
    try:
        errors, text, _ = await play(store, tmp_path, "marsh", _script() + '\n/click "Let the battle end"')
        assert errors == 0, text
        state = await CampaignService(store).campaign("marsh")
        assert state.battle is None and state.journal.assist == 0
        assert state.last_battle.outcome == "defeat"
    finally:
        await store.close()


async def test_a_stale_assist_button_changes_nothing(tmp_path):
    store = await Store.open(tmp_path / "c.db")
    try:
        errors, text, local = await play(store, tmp_path, "marsh", _script())
        stale = next(b.custom_id for b in local.last.buttons if b.label == "Let the battle end")
        call = next(b.custom_id for b in local.last.buttons if b.label == "📯 Call the guild assist")
        errors, text, local = await play(store, tmp_path, "marsh", f"/as ryan\n/click {call}")
        assert errors == 0, text
        errors, text, local = await play(store, tmp_path, "marsh", f"/as ryan\n/click {stale}")
        assert errors == 1 and "Nothing was changed" in text
        state = await CampaignService(store).campaign("marsh")
        assert state.battle is not None and state.journal.assist == 1
    finally:
        await store.close()
