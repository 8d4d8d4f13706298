"""Fake Discord for tests: a local REST + gateway server driven by the real discord.py client.

    from fakediscord import FakeDiscord, fake_discord   # fake_discord is a pytest fixture

See ``server.py`` for what is covered and what is not.
"""

from __future__ import annotations

from typing import AsyncIterator

import pytest_asyncio

from .models import (
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeTimeout,
    FakeUser,
    InteractionResult,
)
from .server import FakeDiscord, RateLimitRule, RecordedRequest

__all__ = [
    'EPHEMERAL',
    'LOADING',
    'FakeAttachment',
    'FakeChannel',
    'FakeDiscord',
    'FakeGuild',
    'FakeMember',
    'FakeMessage',
    'FakeRole',
    'FakeTimeout',
    'FakeUser',
    'InteractionResult',
    'RateLimitRule',
    'RecordedRequest',
    'fake_discord',
]


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running FakeDiscord (URLs patched); clients started through it are stopped at teardown."""
    async with FakeDiscord() as fake:
        yield fake
