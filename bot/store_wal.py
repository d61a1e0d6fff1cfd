"""Background WAL checkpoints for the SQLite store.

A checkpoint copies the write-ahead log back into the database file and syncs both:
milliseconds of fsync, which SQLite's automatic checkpoint (every 1,000 pages) puts on
whichever commit crosses the line -- they were the slowest 1 % of commits. The store calls
`WalCheckpointer.committed` after each write transaction instead; every `CHECKPOINT_EVERY`
commits it starts a PASSIVE checkpoint on a second connection (its own thread), which never
waits for or blocks the writer. The writer's automatic checkpoint stays only as a backstop,
at `WAL_BACKSTOP_PAGES`, should these fail or the writes never pause.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import aiosqlite

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
        self._connection: aiosqlite.Connection | None = None
        self._running: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._running is not None

    @property
    def connected(self) -> bool:
        return self._connection is not None

    async def configure(self, writer: aiosqlite.Connection) -> None:
        """Leave the writer's automatic checkpoint as a backstop only."""
        if self.enabled:
            await writer.execute(f"PRAGMA wal_autocheckpoint={WAL_BACKSTOP_PAGES}")

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
        try:
            if self._connection is None:
                self._connection = await aiosqlite.connect(self.path, isolation_level=None)
                await self._connection.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
            await self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self.done += 1
        except (sqlite3.Error, ValueError) as exc:
            log.warning("background WAL checkpoint of %s failed: %s", self.path, exc)
        finally:
            self._running = None

    async def close(self) -> None:
        """Wait for a checkpoint in flight, then close the second connection (before the
        writer's, whose close, as the last connection, checkpoints the rest)."""
        if self._running is not None:
            await asyncio.shield(self._running)
        if self._connection is not None:
            await self._connection.close()
            self._connection = None
