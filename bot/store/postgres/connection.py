"""The PostgreSQL backend's connection pool, its migrations and its transactions.

Correctness across processes comes from the database, not from locks in one process: the
games and social parts rely on conditional UPDATEs, primary keys, the partial unique index
and advisory locks, each write being one transaction on one pooled connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.migrations import split_sql
from bot.store.migrations.postgres import PG_MIGRATIONS
from bot.store.records import StoreError

T = TypeVar("T")
#: a pooled connection (all work in the PostgreSQL store runs on connections borrowed from the pool)
Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

#: one advisory lock key for "migrating": processes starting together migrate one at a time
#: (the social part's two-key locks, `bot.store.postgres.social`, use other first keys)
MIGRATION_LOCK = 7_236_001


def pg_placeholders(sql: str) -> str:
    """A statement written with `?` placeholders (as for SQLite) in PostgreSQL's `$n`."""
    parts = sql.split("?")
    return "".join(p + (f"${i}" if i < len(parts) else "") for i, p in enumerate(parts, start=1))


async def _migrate(conn: Conn) -> None:
    """Apply the migrations the database lacks; one process at a time, the others then find
    the version up to date."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    current = await conn.fetchval("SELECT version FROM schema_version")
    if current is None:
        current = 0
        await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
    for number, sql in enumerate(PG_MIGRATIONS, start=1):
        if number > current:
            for statement in split_sql(sql):
                await conn.execute(statement)
            await conn.execute("UPDATE schema_version SET version=$1", number)


class PostgresConnection:
    """A pool of at most `pool_size` connections (DATABASE_POOL_SIZE) to one database, and the
    write transactions on it (what the games and social parts of `PostgresStore` build on)."""

    def __init__(self, dsn: str, *, pool_size: int = 10) -> None:
        self.dsn = dsn
        self.pool_size = max(1, pool_size)
        self._pool: asyncpg.Pool | None = None

    @property
    def path(self) -> str:
        """The DSN without its password, for messages (admin names the store it reads)."""
        head, sep, tail = self.dsn.partition("@")
        if not sep or "://" not in head:
            return self.dsn
        scheme, _, credentials = head.partition("://")
        return f"{scheme}://{credentials.split(':')[0]}@{tail}"

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("store is not open")
        return self._pool

    async def open(self) -> None:
        self._pool = await asyncpg.create_pool(self.dsn, min_size=1, max_size=self.pool_size)
        try:
            await self._write(_migrate)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    async def schema_version(self) -> int:
        return int(await self.pool.fetchval("SELECT version FROM schema_version") or 0)

    async def _write(self, body: Callable[[Conn], Awaitable[T]]) -> T:
        """One transaction: body(conn) then COMMIT, or ROLLBACK if it fails. Shielded, like
        the SQLite store's: the transaction finishes even if the caller is cancelled."""
        async def run() -> T:
            async with self.pool.acquire() as conn, conn.transaction():
                return await body(conn)

        return await asyncio.shield(run())

    async def raw(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one query written with `?` placeholders (tests and admin read through it)."""
        return [tuple(r) for r in await self.pool.fetch(pg_placeholders(sql), *params)]
