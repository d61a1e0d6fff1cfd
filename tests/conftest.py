"""Shared fixtures: a fake game for platform tests, a store (a temp SQLite file, or a fresh
database on the test PostgreSQL server where a module sets `backend`), a service."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.replies import User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import Store, store_from_url
from tests.support import fakegame
from tests.support.pg import drop_pg_database, fresh_pg_dsn, stop_pg_server

#: the store backends; a module runs its store tests on both with
#: `backend = pytest.fixture(params=BACKENDS)(lambda request: request.param)`
BACKENDS = ["sqlite", "postgres"]

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
    from tests.support.discord_harness import Harness

    harness = await Harness.create(tmp_path)
    yield harness
    await harness.close()
    assert harness.error_messages() == [], "the bot logged errors"
    assert harness.protocol_problems() == []


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="session", autouse=True)
def _stop_postgres_at_the_end() -> Iterator[None]:
    """The test PostgreSQL server (started by the first test that needs it) stops with the session."""
    yield
    stop_pg_server()


@pytest.fixture
def backend() -> str:
    """Which store the `store` fixture opens: SQLite unless a module overrides this fixture."""
    return "sqlite"


@pytest.fixture
def store_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty store of the `backend`: a temp SQLite file or a fresh PostgreSQL database."""
    if backend == "postgres":
        dsn = fresh_pg_dsn()
        yield dsn
        drop_pg_database(dsn)
    else:
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty database on the test PostgreSQL server, for tests that start processes on it."""
    dsn = fresh_pg_dsn()
    yield dsn
    drop_pg_database(dsn)


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    s = store_from_url(store_url)
    await s.open()
    yield s
    await s.close()


@pytest.fixture
def service(store: Store, clock: Clock) -> TableService:
    return TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock, render_in_thread=False)


ALICE = User(1, "Alice", "en-US")
BOB = User(2, "Bob", "de")
CAROL = User(3, "Carol", "fr")
EVE = User(9, "Eve", "en-US")
HERE = Where(channel_id=100, guild_id=10, guild_locale="en-US")
