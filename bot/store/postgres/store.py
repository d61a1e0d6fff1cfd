"""`PostgresStore`, for deployments that run several bot processes on one database: its games
and social parts on one pool, plus the deployment's key/value facts and the whole-table copy
`python -m bot.admin migrate` uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.api import Store
from bot.store.postgres.connection import Conn
from bot.store.postgres.games import PostgresGames
from bot.store.postgres.social import PostgresSocial
from bot.store.rows import every_column


class PostgresStore(PostgresGames, PostgresSocial, Store):
    """Games in PostgreSQL, for N bot processes sharing one database (same interface and the
    same numbered migrations as `SQLiteStore`)."""

    # -- facts about the deployment -------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        value = await self.pool.fetchval("SELECT value FROM meta WHERE key=$1", key)
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        await self.pool.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
            key, value)

    async def swap_meta(self, key: str, expected: str | None, value: str) -> bool:
        if expected is None:
            status = await self.pool.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", key, value)
        else:
            status = await self.pool.execute("UPDATE meta SET value=$1 WHERE key=$2 AND value=$3",
                                             value, key, expected)
        return str(status).endswith(" 1")  # "INSERT 0 1" / "UPDATE 1": one row changed

    # -- moving data (python -m bot.admin migrate) ----------------------------------------------
    async def export_rows(self, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every row of `table` (one of COPY_TABLES), the given columns, ordered by all of them."""
        sql = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {every_column(columns)}"
        return [tuple(r) for r in await self.pool.fetch(sql)]

    async def import_rows(self, tables: Sequence[tuple[str, Sequence[str], list[tuple[Any, ...]]]], *,
                          replace: bool) -> None:
        """Write whole tables in one transaction (after emptying them if `replace`); the
        game id sequence then continues after the highest copied id."""
        async def body(conn: Conn) -> None:
            if replace:
                await conn.execute(f"TRUNCATE {', '.join(t for t, _, _ in tables)} CASCADE")
            for table, columns, rows in tables:
                marks = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
                await conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
            await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'),"
                               " COALESCE((SELECT MAX(id) FROM games), 0) + 1, false)")

        await self._write(body)

    async def row_counts(self, tables: Sequence[str]) -> dict[str, int]:
        return {t: int(await self.pool.fetchval(f"SELECT COUNT(*) FROM {t}")) for t in tables}

    async def columns(self, table: str) -> list[str]:
        rows = await self.pool.fetch("SELECT column_name FROM information_schema.columns WHERE table_schema ="
                                     " current_schema() AND table_name=$1 ORDER BY ordinal_position", table)
        return [r["column_name"] for r in rows]
