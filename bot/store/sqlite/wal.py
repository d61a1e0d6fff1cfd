"""Background WAL checkpoints for the SQLite store.

A checkpoint copies the write-ahead log back into the database file and syncs both:
milliseconds of fsync, which SQLite's automatic checkpoint (every 1,000 pages) puts on
whichever commit crosses the line -- they were the slowest 1 % of commits. The store calls
`WalCheckpointer.committed` after each write transaction instead; every `CHECKPOINT_EVERY`
commits it starts a PASSIVE checkpoint on a second connection, on a thread of its own, which
never waits for or blocks the writer. The writer's automatic checkpoint stays only as a
backstop, at `WAL_BACKSTOP_PAGES`, should these fail or the writes never pause.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3

from bot.store.sqlite.thread import StoreThread

log = logging.getLogger(__name__)
CHECKPOINT_EVERY = 64
WAL_BACKSTOP_PAGES = 16_000


class WalCheckpointer:
    """The checkpoints of one SQLite file (none for an in-memory database: it has no WAL)."""

    def __init__(self, path: str, *, durable: bool) -> None:
        self.path = path
        self.durable = durable
        self.enabled = path != ":memory:"  # the store opens no URIs: this is its one in-memory name
        self.done = 0  # background checkpoints done (tests, diagnostics)
        self._since = 0
        self._connection: sqlite3.Connection | None = None  # used on `_thread` only
        self._thread: StoreThread | None = None
        self._running: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._running is not None

    @property
    def connected(self) -> bool:
        return self._connection is not None

    def configure(self, writer: sqlite3.Connection) -> None:
        """Leave the writer's automatic checkpoint as a backstop only (on the writer's thread)."""
        if self.enabled:
            writer.execute(f"PRAGMA wal_autocheckpoint={WAL_BACKSTOP_PAGES}")

    def committed(self) -> None:
        """After each write transaction: every `CHECKPOINT_EVERY` commits, start a background
        checkpoint (one at a time) so that no commit pays for one."""
        self._since += 1
        if self._since >= CHECKPOINT_EVERY and self._running is None and self.enabled:
            self._since = 0
            self._running = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """A PASSIVE checkpoint copies what it can without waiting; the next one copies the
        rest. A failure is logged, never a turn's problem (the backstop still checkpoints)."""
        if self._thread is None:
            self._thread = StoreThread("store-wal")
        try:
            await self._thread.call(self._checkpoint_on_thread)
            self.done += 1
        except (sqlite3.Error, ValueError) as exc:
            log.warning("background WAL checkpoint of %s failed: %s", self.path, exc)
        finally:
            self._running = None

    def _checkpoint_on_thread(self) -> None:
        if self._connection is None:
            self._connection = sqlite3.connect(self.path, isolation_level=None)
            self._connection.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
        self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        """Wait for a checkpoint in flight, then close the second connection (before the
        writer's, whose close, as the last connection, checkpoints the rest)."""
        if self._running is not None:
            await asyncio.shield(self._running)
        if self._thread is None:
            return
        thread, self._thread = self._thread, None
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await thread.call(connection.close)
        thread.stop()
