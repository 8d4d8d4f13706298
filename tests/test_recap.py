"""The recap and the log line in words, at the local table with The Elder Scrolls (a session's battle)."""
from __future__ import annotations

from pathlib import Path

from commands.local import LocalTable

ROOT = Path(__file__).resolve().parent.parent


async def test_a_recap_in_a_battle_names_the_fallen_by_day_with_the_battle_map(table, tmp_path):
    out: list[str] = []
    local = LocalTable(table, out_dir=tmp_path / "pics", echo=out.append)
    lines = (ROOT / "examples" / "session.txt").read_text().splitlines()
    upto = next(i for i, t in enumerate(lines) if t.startswith("@shannon /endturn"))  # Ryan fights, Shannon waits
    assert await local.run_script(lines[:upto]) == 0, "\n".join(out)
    out.clear()
    assert await local.run_script(["@shannon /campaign recap"]) == 0, "\n".join(out)
    text = "\n".join(out)
    assert "(only you see this)" in text and "What you missed in Outer Watch" in text
    assert "**Day 3**" in text
    assert "☠️ Argonian Marauder is defeated." in text and "☠️ Hackwing is defeated." in text
    assert "Ryan ends the turn." in text
    assert any(p.name.endswith("map-recap.png") for p in local.images)
    out.clear()
    assert await local.run_script(["@shannon /campaign log"]) == 0
    log = "\n".join(out)
    assert "→ ☠️ Hackwing is defeated." in log and "dice [" not in log
