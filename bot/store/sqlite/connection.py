"""The SQLite backend's one connection, its migrations and its write transactions.

The connection is made, used and closed on the store's own thread (`StoreThread`). Every
read and every write transaction is one function of the connection sent there whole, so it
costs one hop there and back (a queue put, a thread wake-up, a callback into the loop: more
than the statements themselves), not one per statement, fetch, BEGIN and COMMIT. The one
thread also keeps calls apart without a lock on the loop's side: a read never runs in the
middle of another caller's transaction.
"""
from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bot.store.migrations import split_sql
from bot.store.migrations.sqlite import MIGRATIONS
from bot.store.records import StoreError
from bot.store.sqlite.thread import StoreThread
from bot.store.sqlite.wal import WalCheckpointer

T = TypeVar("T")


def transaction(conn: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """BEGIN IMMEDIATE, body(conn), COMMIT (ROLLBACK if body fails), on the store's thread.
    IMMEDIATE takes the write lock at once: a transaction that reads and then writes never
    fails half way because another process wrote in between (it waits, up to busy_timeout)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _migrate(conn: sqlite3.Connection) -> None:
    """Apply the migrations the file lacks. The version is read inside the write transaction:
    another process may have migrated the file between our connect and our BEGIN IMMEDIATE."""
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    for number, sql in enumerate(MIGRATIONS, start=1):
        if number > current:
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version={number}")


class SQLiteConnection:
    """One SQLite file in WAL mode, its connection on the store's thread, and the write
    transactions on it (what the games and social parts of `SQLiteStore` build on).

    `synchronous=NORMAL` in WAL mode survives a crash of the bot process (an acknowledged
    commit is in the WAL file); `durable=True` (FULL) survives power loss too, at some cost
    per commit.
    """

    def __init__(self, path: str | Path, *, durable: bool = False) -> None:
        self.path = str(path)
        self.durable = durable
        self.checkpoints = WalCheckpointer(self.path, durable=durable)  # off the commit path
        self._conn: sqlite3.Connection | None = None  # used on `_thread` only
        self._thread: StoreThread | None = None

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._thread = StoreThread("store-sqlite")
        try:
            self._conn = await self._thread.call(self._connect)
            await self._write(_migrate)
        except BaseException:
            await self.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        """The connection, made on the store's thread (sqlite3 then checks that it stays there)."""
        conn = sqlite3.connect(self.path, isolation_level=None)  # autocommit: transactions are explicit
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=5000")
            self.checkpoints.configure(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    async def close(self) -> None:
        await self.checkpoints.close()
        if self._thread is None:
            return
        thread, self._thread = self._thread, None
        if self._conn is not None:
            conn, self._conn = self._conn, None
            # the last connection to close checkpoints the rest (the checkpointer's is closed)
            await thread.call(conn.close)
        thread.stop()

    async def on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(connection, *args) on the store's thread, in one hop. Every read and write goes
        through here (tests count the hops of a turn, and may run a statement of their own)."""
        if self._conn is None or self._thread is None:
            raise StoreError("store is not open")
        return await self._thread.call(fn, self._conn, *args)

    async def _write(self, body: Callable[[sqlite3.Connection], T],
                     done: Callable[[T], None] | None = None) -> T:
        """One write transaction, in one hop: body(conn) runs inside BEGIN IMMEDIATE … COMMIT on
        the store's thread. Shielded: a cancelled caller cannot stop it between BEGIN and
        COMMIT/ROLLBACK, and `done(result)` (the caller's records following the commit) still
        runs; the caller sees CancelledError."""
        async def run() -> T:
            result = await self.on_thread(transaction, body)
            self.checkpoints.committed()
            if done is not None:
                done(result)
            return result

        return await asyncio.shield(run())

    async def schema_version(self) -> int:
        return int((await self.raw("PRAGMA user_version"))[0][0])

    async def raw(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one statement on the store's connection (tests and admin read through it)."""
        return await self.on_thread(fetch_rows, sql, tuple(params))


def fetch_rows(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Every row of one statement, as plain tuples (on the store's thread)."""
    return [tuple(r) for r in conn.execute(sql, params).fetchall()]
