"""`SQLiteStore`, the default store: its games and social parts on one connection, plus the
deployment's key/value facts and the whole-table copy `python -m bot.admin migrate` uses."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from bot.store.api import Store
from bot.store.rows import every_column
from bot.store.sqlite.connection import fetch_rows
from bot.store.sqlite.games import SQLiteGames
from bot.store.sqlite.social import SQLiteSocial


class SQLiteStore(SQLiteGames, SQLiteSocial, Store):
    """One SQLite file in WAL mode (see `SQLiteConnection` for its thread and durability)."""

    # -- facts about the deployment -------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        rows = await self.raw("SELECT value FROM meta WHERE key=?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.raw(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, value))

    async def swap_meta(self, key: str, expected: str | None, value: str) -> bool:
        def swap(conn: sqlite3.Connection) -> bool:
            if expected is None:
                cursor = conn.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
                                      (key, value))
            else:
                cursor = conn.execute("UPDATE meta SET value=? WHERE key=? AND value=?", (value, key, expected))
            return cursor.rowcount == 1

        return await self.on_thread(swap)

    # -- moving data (python -m bot.admin migrate) ----------------------------------------------
    async def export_rows(self, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every row of `table` (one of COPY_TABLES), the given columns, ordered by all of them."""
        return await self.raw(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {every_column(columns)}")

    async def import_rows(self, tables: Sequence[tuple[str, Sequence[str], list[tuple[Any, ...]]]], *,
                          replace: bool) -> None:
        """Write whole tables in one transaction (after emptying them if `replace`)."""
        def body(conn: sqlite3.Connection) -> None:
            if replace:
                for table, _, _ in reversed(tables):
                    conn.execute(f"DELETE FROM {table}")
            for table, columns, rows in tables:
                marks = ", ".join("?" * len(columns))
                conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

        await self._write(body)

    async def row_counts(self, tables: Sequence[str]) -> dict[str, int]:
        def count(conn: sqlite3.Connection) -> dict[str, int]:
            return {t: int(fetch_rows(conn, f"SELECT COUNT(*) FROM {t}", ())[0][0]) for t in tables}

        return await self.on_thread(count)

    async def columns(self, table: str) -> list[str]:
        return [str(r[1]) for r in await self.raw(f"PRAGMA table_info({table})")]
