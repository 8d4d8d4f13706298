"""Whole Jailbreak clashes played through the local table from scripts with forced dice."""
from __future__ import annotations

from commands.core import Table
from commands.local import LocalTable
from engine.service import CampaignService
from engine.store import Store

SETUP = """
/campaign new name:Jail difficulty:adept
/adventurer create name:Shannon race:argonian line:one-hand-and-shield
/force 2
/battle start encounter:jailbreak deploy:-2,2
"""

VICTORY = SETUP + """
/move to:0,2
/force 3 4 4
/engage target:"High Elf Bandit" dice:"2 shield-discipline, combat"
/resolve
/endturn
/battle class class:sorcerer
"""

# Shannon waits on the entrance tile; the High Elf Bandit (range 3) deals 2 damage a round.
DEFEAT = SETUP + """
/force 5
/endturn
/force 5
/endturn
/force 5 1 1
/endturn
"""


async def play(tmp_path, script):
    store = await Store.open(tmp_path / "x.db")
    out: list[str] = []
    try:
        local = LocalTable(Table(CampaignService(store)), out_dir=tmp_path / "out", echo=out.append)
        errors = await local.run_script(script.strip().splitlines())
        state = await local.table.service.campaign("local")
        return errors, state, "\n".join(out), local
    finally:
        await store.close()


async def test_jailbreak_victory(tmp_path):
    errors, state, text, local = await play(tmp_path, VICTORY)
    assert errors == 0, text
    assert state.battle is None
    last = state.last_battle
    assert last.outcome == "victory" and last.rounds == 1
    assert last.achievements == {"first-turn": "leader", "defeat-high-elf-bandit": "leader", "last-turn": "leader"}
    sh = state.adventurers["leader"]
    assert sh.class_id == "sorcerer"
    assert sh.hp == sh.max_hp == 5 and sh.cooldown == [] and sh.active == [] and sh.tenacity == 0
    assert state.xp_dial == 2
    assert "High Elf Bandit is dealt 4 damage" in text and "Victory" in text
    assert any(p.name.endswith(".png") and "map" in p.name for p in local.images)
    # a quiet channel: the rolls and mats are buttons under the posts, drawn for whoever asks
    assert not any("roll" in p.name for p in local.images)


async def test_jailbreak_full_party_defeat(tmp_path):
    errors, state, text, local = await play(tmp_path, DEFEAT)
    assert errors == 0, text
    assert state.battle is None
    last = state.last_battle
    assert last.outcome == "defeat" and last.rounds == 3
    assert "first-hit-at-range" in last.achievements
    rewards = state.class_rewards["leader"]
    assert len(rewards) == 2  # everyone defeated: two random classes
    sh = state.adventurers["leader"]
    assert sh.hp == sh.max_hp  # the guild's refuge heals everyone after the Jailbreak
    assert "whole party is defeated" in text
