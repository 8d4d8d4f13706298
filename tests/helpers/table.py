"""Playing local-table scripts against a store in the tests (saved campaigns, fixtures)."""
from __future__ import annotations

from commands.core import Table
from commands.local import LocalTable
from engine.service import CampaignService


async def play(store, tmp_path, channel: str, script: str):
    """Run ``script`` (local-table lines) in ``channel``; returns (failed lines, everything echoed, the table)."""
    out: list[str] = []
    local = LocalTable(Table(CampaignService(store)), channel=channel, out_dir=tmp_path / "out", echo=out.append)
    errors = await local.run_script(script.strip().splitlines())
    return errors, "\n".join(out), local
