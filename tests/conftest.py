"""Shared fixtures: a real SQLite file per test, the service, the command layer."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from commands.core import Table  # noqa: E402
from engine.service import CampaignService  # noqa: E402
from engine.store import Store  # noqa: E402


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "hexpost.db")
    yield s
    await s.close()


@pytest.fixture
async def service(store):
    return CampaignService(store)


@pytest.fixture
async def table(service):
    return Table(service)


class Player:
    """Runs commands as one user in one channel, like a person at the table."""

    def __init__(self, table: Table, user: str, channel: str = "100"):
        self.table = table
        self.user = user
        self.channel = channel

    async def __call__(self, command: str, /, **options):
        inv = self.table.invocation(self.user, self.channel, "1", self.user)
        return await self.table.run(inv, command, options)

    async def click(self, custom_id: str, values=None):
        inv = self.table.invocation(self.user, self.channel, "1", self.user)
        return await self.table.click(inv, custom_id, values)


@pytest.fixture
def player(table):
    def make(user: str, channel: str = "100") -> Player:
        return Player(table, user, channel)

    return make


# Property tests: a fixed example sequence in CI (a red build must mean a real change broke
# something); a fresh random sequence on a developer's machine, to keep finding new cases.
import os  # noqa: E402

from hypothesis import settings as _hsettings  # noqa: E402

_hsettings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    _hsettings.load_profile("ci")


import rulesets as _rulesets  # noqa: E402

_rulesets.load_all()  # every installed ruleset registers with the engine, as the front doors do
