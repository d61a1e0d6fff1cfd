"""Shared fixtures: a fake game for platform tests, a store on a temp file, a service."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.replies import User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from tests import fakegame

# the bot and the local table (also run as subprocesses) render in threads under test unless a
# test asks for render processes: starting and warming a pool per test would cost seconds each
os.environ.setdefault("RENDER_PROCESSES", "0")


class Clock:
    """A clock the tests move by hand (reminders and timeouts)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * 3600


@pytest.fixture
def fake_game() -> Iterator[None]:
    fakegame.install()
    yield
    fakegame.uninstall()


@pytest.fixture
async def h(fake_game: None, tmp_path):  # type: ignore[no-untyped-def]
    """The real bot behind a recording fake HTTP layer (tests/discord_harness.py); every
    test using it also fails if the bot logged an error or broke the interaction protocol."""
    from tests.discord_harness import Harness

    harness = await Harness.create(tmp_path)
    yield harness
    await harness.close()
    assert harness.error_messages() == [], "the bot logged errors"
    assert harness.protocol_problems() == []


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[SQLiteStore]:  # type: ignore[no-untyped-def]
    s = SQLiteStore(tmp_path / "test.sqlite3")
    await s.open()
    yield s
    await s.close()


@pytest.fixture
def service(store: SQLiteStore, clock: Clock) -> TableService:
    return TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock, render_in_thread=False)


ALICE = User(1, "Alice", "en-US")
BOB = User(2, "Bob", "de")
CAROL = User(3, "Carol", "fr")
EVE = User(9, "Eve", "en-US")
HERE = Where(channel_id=100, guild_id=10, guild_locale="en-US")
