"""Issue 26 item 1: a final battle far above the party's XP Dial is announced with its numbers, when its step is
read (the party may still gather XP on its way) and again when the party reaches it (rules revision 4)."""
from __future__ import annotations

from pathlib import Path

from engine.service import CampaignService
from engine.store import Store
from helpers.table import play

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


async def test_the_salt_roads_final_battle_is_announced_with_its_numbers(tmp_path):
    store = await Store.open(tmp_path / "s.db")
    try:
        errors, text, _ = await play(store, tmp_path, "marsh", (EXAMPLES / "session.txt").read_text())
        assert errors == 0
        state = await CampaignService(store).campaign("marsh")
        assert state.rules >= 4
    finally:
        await store.close()
    read, reached = [ln for ln in text.splitlines() if ln.startswith("⚠️ Step D")]
    for line in (read, reached):
        assert "End of Session pool, 32 (an XP goal of 16 × 2 adventurers, Adept)" in line
    assert "XP Dial stands at 3, a pool of 6" in read and "gather XP on its way" in read
    assert "XP Dial stands at 6, a pool of 12" in reached and "The battle begins now." in reached
    assert text.index(reached) < text.index("Battle 2:") or "Battle" in text[text.index(reached):]


async def test_a_party_near_the_goal_gets_no_warning(tmp_path):
    from rulesets.tes.quest import guild
    from rulesets.tes.quest.common import content

    store = await Store.open(tmp_path / "n.db")
    try:
        script = (EXAMPLES / "session.txt").read_text()
        errors, _text, _ = await play(store, tmp_path, "marsh", script)
        state = await CampaignService(store).campaign("marsh")
    finally:
        await store.close()
    from rulesets.tes.content import load_pack
    from rulesets.tes.outcomes.context import DayCtx

    pack = load_pack(state.pack, state.pack_version)
    final = next(s for s in content(pack).cards.values() if getattr(s, "kind", "") == "step" and s.final)
    for dial, rules, warned in ((16, 4, False), (9, 4, False), (8, 4, True), (3, 3, False)):  # 32 vs 2 x dial
        state.xp_dial, state.rules = dial, rules
        c = DayCtx(state, pack, None)
        said = []
        c.say = lambda kind, text, **data: said.append(text)  # noqa: B023
        guild.final_warning(c, final)
        assert bool(said) == warned, (dial, rules, said)
