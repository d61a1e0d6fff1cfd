"""The store's schema: numbered migrations (PRAGMA user_version on SQLite, a schema_version
table on PostgreSQL, the same numbers and the same tables, columns and indexes read back from
both catalogs), and store_from_url."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.store import (
    MIGRATIONS,
    PG_DUE,
    PG_MIGRATIONS,
    PostgresStore,
    SeatRecord,
    SQLiteStore,
    StoreError,
    split_sql,
    store_from_url,
)
from tests.support.pg import drop_pg_database, fresh_pg_dsn

CORE_TABLES = {"games", "seats", "actions", "user_prefs", "meta"}


def migration_tables() -> set[str]:
    """Every table some migration creates (the latest schema's tables)."""
    return {m.group(1) for sql in MIGRATIONS for m in re.finditer(r"CREATE TABLE (\w+)", sql)}


def schema(path: Path) -> tuple[int, list[tuple[str, str, str]]]:
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        objects = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        ).fetchall()
    conn.close()
    return version, objects


def tables(path: Path) -> set[str]:
    return {name for kind, name, _ in schema(path)[1] if kind == "table"}


async def open_store(path: Path, **kw) -> SQLiteStore:  # type: ignore[no-untyped-def]
    s = SQLiteStore(path, **kw)
    try:
        await s.open()
    except BaseException:
        await s.close()
        raise
    return s


HOST = SeatRecord(position=0, user_id=1, name="Alice")


# -- migrations ------------------------------------------------------------------------------
async def test_new_file_ends_at_latest_version_with_expected_tables(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "new.sqlite3"  # parent folders are created
    s = await open_store(path)
    try:
        assert await s.schema_version() == len(MIGRATIONS)
        [mode] = await s.raw("PRAGMA journal_mode")
        assert mode[0] == "wal"
        [fks] = await s.raw("PRAGMA foreign_keys")
        assert fks[0] == 1
    finally:
        await s.close()
    version, objects = schema(path)
    assert version == len(MIGRATIONS) >= 3
    names = {name for kind, name, _ in objects if kind == "table"}
    assert names >= CORE_TABLES
    assert names == migration_tables()
    indexes = {name for kind, name, _ in objects if kind == "index"}
    assert {"games_one_active_per_channel", "games_remind_due", "games_timeout_due", "games_ai_due",
            "games_by_channel", "games_idle_lobbies"} <= indexes


async def test_columns_of_the_core_tables(tmp_path: Path) -> None:
    path = tmp_path / "cols.sqlite3"
    await (await open_store(path)).close()
    with sqlite3.connect(path) as conn:
        def cols(table: str) -> set[str]:
            return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}

        assert {"id", "channel_id", "guild_id", "game_id", "status", "version", "state", "options", "settings",
                "seed", "host_id", "created_at", "updated_at", "remind_at", "timeout_at"} <= cols("games")
        assert {"game", "position", "seat", "user_id", "name", "is_bot", "dm", "lang"} <= cols("seats")
        assert {"game", "seq", "seat", "action", "events", "actor", "at"} <= cols("actions")
    conn.close()


async def test_reopening_is_a_no_op(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "again.sqlite3"
    s = await open_store(path)
    game = await s.create_game(channel_id=5, guild_id=None, game_id="g", host=HOST, options={"a": 1}, settings={},
                               seed=3)
    await s.close()
    before = schema(path)

    # Every migration is already applied, so none of them may run again: make them all
    # invalid SQL and the reopen must still succeed.
    monkeypatch.setattr("bot.store.sqlite.connection.MIGRATIONS", ["THIS IS NOT SQL"] * len(MIGRATIONS))
    s = await open_store(path)
    try:
        assert await s.schema_version() == len(MIGRATIONS)
        again = await s.get_game(game.id)
        assert again is not None and again.options == {"a": 1} and again.seats == [HOST]
    finally:
        await s.close()
    assert schema(path) == before


def _make_old_file(path: Path, version: int) -> None:
    """A file as an older release left it: the first `version` migrations and one game."""
    conn = sqlite3.connect(path)
    for sql in MIGRATIONS[:version]:
        conn.executescript(sql)
    conn.execute(f"PRAGMA user_version={version}")
    conn.execute(
        "INSERT INTO games (channel_id, guild_id, game_id, status, version, state, options, settings, seed,"
        " host_id, created_at, updated_at) VALUES (7, 1, 'old', 'running', 4, '{\"x\":1}', '{}', '{}', 9, 42, 1.0,"
        " 2.0)"
    )
    conn.execute("INSERT INTO seats (game, position, seat, user_id, name) VALUES (1, 0, 'p1', 42, 'Old')")
    conn.execute("INSERT INTO actions (game, seq, seat, action, events, at) VALUES (1, 1, 'p1', '{}', '[]', 1.5)")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("start", [1, 2])
async def test_old_file_is_migrated_to_latest_and_keeps_its_data(tmp_path: Path, start: int) -> None:
    path = tmp_path / f"v{start}.sqlite3"
    _make_old_file(path, start)
    assert schema(path)[0] == start
    assert "user_prefs" not in tables(path) or start >= 2
    assert "meta" not in tables(path)

    s = await open_store(path)
    try:
        assert await s.schema_version() == len(MIGRATIONS)
        game = await s.get_game(1)
        assert game is not None
        assert (game.game_id, game.status, game.version, game.state, game.host_id) == ("old", "running", 4,
                                                                                        {"x": 1}, 42)
        assert [seat.name for seat in game.seats] == ["Old"]
        assert [a.seq for a in await s.actions(1)] == [1]
        # the new tables work
        await s.set_user_pref(42, dm=True)
        assert await s.user_dm(42) is True
        await s.set_meta("k", "v")
        assert await s.get_meta("k") == "v"
    finally:
        await s.close()
    assert tables(path) == migration_tables()


async def test_a_failing_migration_is_rolled_back_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "broken.sqlite3"
    await (await open_store(path)).close()
    latest = len(MIGRATIONS)
    monkeypatch.setattr("bot.store.sqlite.connection.MIGRATIONS",
                        [*MIGRATIONS, "CREATE TABLE half_done (x INTEGER); CREATE TABLE broken ("])
    with pytest.raises(sqlite3.OperationalError):
        await open_store(path)
    version, _ = schema(path)
    assert version == latest
    assert "half_done" not in tables(path)
    monkeypatch.undo()
    s = await open_store(path)  # the file is still usable
    try:
        assert await s.schema_version() == latest
    finally:
        await s.close()


async def test_two_stores_open_an_existing_file_together(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    await (await open_store(path)).close()
    a, b = SQLiteStore(path), SQLiteStore(path)
    try:
        await asyncio.gather(a.open(), b.open())
        assert await a.schema_version() == await b.schema_version() == len(MIGRATIONS)
    finally:
        await a.close()
        await b.close()


async def test_opening_a_fresh_file_while_another_process_migrates_it(tmp_path: Path) -> None:
    """Two bot processes (or the bot and `bot.admin`) starting on a new file at once.

    `other` stands for a second process: it holds the write lock while this store opens,
    then applies the migrations and commits. This store has read user_version=0 by then;
    it must re-check the version once it holds the write lock instead of re-creating the
    tables ("table games already exists")."""
    path = tmp_path / "fresh.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("BEGIN IMMEDIATE")
    s = SQLiteStore(path)
    opening = asyncio.create_task(s.open())
    try:
        await asyncio.sleep(0.5)  # it reads user_version (0), then waits on the write lock
        assert not opening.done()
        for sql in MIGRATIONS:
            for statement in split_sql(sql):
                other.execute(statement)
        other.execute(f"PRAGMA user_version={len(MIGRATIONS)}")
        other.execute("COMMIT")
        await opening
        assert await s.schema_version() == len(MIGRATIONS)
    finally:
        if not opening.done():
            opening.cancel()
        other.close()
        await s.close()


# -- store_from_url ------------------------------------------------------------------------
@pytest.mark.parametrize(("url", "path"), [
    (None, "passepartout.sqlite3"),
    ("", "passepartout.sqlite3"),
    ("sqlite:///games.sqlite3", "games.sqlite3"),
    ("sqlite:///data/games.sqlite3", "data/games.sqlite3"),
    ("sqlite:////var/lib/passepartout/games.sqlite3", "/var/lib/passepartout/games.sqlite3"),
    ("sqlite://", ":memory:"),
    ("sqlite:///:memory:", ":memory:"),
    ("games.sqlite3", "games.sqlite3"),
    ("/srv/bot/games.sqlite3", "/srv/bot/games.sqlite3"),
    ("./rel/games.db", "./rel/games.db"),
])
def test_store_from_url_parses_sqlite_urls_and_paths(url: str | None, path: str) -> None:
    s = store_from_url(url)
    assert isinstance(s, SQLiteStore)
    assert s.path == path
    assert s.durable is False
    assert store_from_url(url, durable=True).durable is True


@pytest.mark.parametrize("url", [
    "mysql://root@localhost/games",
    "redis://localhost:6379/0",
    "file:///tmp/games.sqlite3",
])
def test_store_from_url_rejects_other_schemes(url: str) -> None:
    with pytest.raises(StoreError, match="unsupported database URL scheme"):
        store_from_url(url)


async def test_store_from_url_opens_the_file_it_names(tmp_path: Path) -> None:
    target = tmp_path / "from_url.sqlite3"
    s = store_from_url(f"sqlite:///{target}")  # an absolute path after the three slashes
    assert s.path == str(target)
    await s.open()
    try:
        await s.create_game(channel_id=1, guild_id=None, game_id="g", host=HOST, options={}, settings={}, seed=1)
    finally:
        await s.close()
    assert target.exists()
    assert schema(target)[0] == len(MIGRATIONS)


async def test_memory_store_works(tmp_path: Path) -> None:
    s = store_from_url("sqlite://")
    await s.open()
    try:
        game = await s.create_game(channel_id=1, guild_id=None, game_id="g", host=HOST, options={}, settings={},
                                   seed=1)
        assert (await s.get_game(game.id)) is not None
        assert await s.schema_version() == len(MIGRATIONS)
    finally:
        await s.close()


async def test_closed_store_refuses_work(tmp_path: Path) -> None:
    s = SQLiteStore(tmp_path / "x.sqlite3")
    with pytest.raises(StoreError, match="not open"):
        await s.get_game(1)
    await s.open()
    await s.close()
    with pytest.raises(StoreError, match="not open"):
        await s.active_game(1)


@pytest.mark.parametrize(("durable", "level"), [(False, 1), (True, 2)])  # NORMAL, FULL
async def test_durable_selects_the_synchronous_level(tmp_path: Path, durable: bool, level: int) -> None:
    s = await open_store(tmp_path / "sync.sqlite3", durable=durable)
    try:
        [row] = await s.raw("PRAGMA synchronous")
        assert row[0] == level
        [timeout] = await s.raw("PRAGMA busy_timeout")
        assert timeout[0] >= 1000  # concurrent writers wait instead of failing at once
    finally:
        await s.close()


@pytest.mark.parametrize("query", ["due", "last", "active", "lobbies", "seat_count"])
async def test_scheduler_and_channel_lookups_use_an_index_not_a_scan(tmp_path: Path, query: str) -> None:
    """The tick and the per-channel lookups read only what they need: SQLite's plan searches an
    index (a scan of the partial index of AI-pending games is that set itself)."""
    s = await open_store(tmp_path / "plan.sqlite3")
    sql, params = {
        "due": (s.DUE_SQL, (1.0, 1.0)),
        "last": ("SELECT * FROM games WHERE channel_id=? ORDER BY id DESC LIMIT 1", (1,)),
        "active": ("SELECT * FROM games WHERE channel_id=? AND status IN ('lobby','running')", (1,)),
        "lobbies": ("SELECT * FROM games WHERE status='lobby' AND timeout_at IS NOT NULL AND timeout_at<=?"
                    " ORDER BY id", (1.0,)),
        "seat_count": ("SELECT COUNT(*) FROM actions WHERE game=? AND seat=?", (1, "p1")),
    }[query]
    try:
        plan = [row[3] for row in await s.raw("EXPLAIN QUERY PLAN " + sql, params)]
    finally:
        await s.close()
    scans = [step for step in plan if step.startswith("SCAN") and "games_ai_due" not in step]
    assert not scans, plan


async def test_running_games_from_before_the_ai_marker_are_checked_once(tmp_path: Path) -> None:
    """Migration 4 marks every running game of an older database, so the first tick looks at
    each (a crash before the upgrade may have left one waiting for its AI)."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        for sql in MIGRATIONS[:3]:
            conn.executescript(sql)
        conn.execute("PRAGMA user_version=3")
        conn.execute("INSERT INTO games (channel_id, game_id, status, seed, host_id, created_at, updated_at)"
                     " VALUES (1, 'detour', 'running', 1, 1, 0, 0), (2, 'detour', 'finished', 1, 1, 0, 0)")
    conn.close()
    s = await open_store(path)
    try:
        assert [(g.channel_id, g.ai_pending) for g in await s.games()] == [(1, True), (2, False)]
        assert [g.channel_id for g in await s.due_games(0.0)] == [1]
    finally:
        await s.close()


# -- PostgreSQL: the same migrations, numbered alike ----------------------------------------------
@pytest.mark.parametrize("url", ["postgresql://bot:secret@db.example/passepartout", "postgres://localhost/x"])
def test_store_from_url_makes_a_postgres_store(url: str) -> None:
    s = store_from_url(url, pool_size=3)
    assert isinstance(s, PostgresStore)
    assert (s.dsn, s.pool_size) == (url, 3)
    assert "secret" not in s.path  # what messages show


@pytest.fixture
def pg_dsn() -> Iterator[str]:
    dsn = fresh_pg_dsn()
    yield dsn
    drop_pg_database(dsn)


async def pg_catalog(dsn: str) -> tuple[int, dict[str, set[str]], set[str]]:
    """Schema version, {table: columns} and index names (not the primary keys') of a PostgreSQL database."""
    conn = await asyncpg.connect(dsn)
    try:
        version = await conn.fetchval("SELECT version FROM schema_version")
        columns: dict[str, set[str]] = {}
        for r in await conn.fetch("SELECT table_name, column_name FROM information_schema.columns"
                                  " WHERE table_schema='public' AND table_name <> 'schema_version'"):
            columns.setdefault(r["table_name"], set()).add(r["column_name"])
        indexes = {r["indexname"] for r in await conn.fetch("SELECT indexname FROM pg_indexes WHERE"
                                                           " schemaname='public' AND indexname NOT LIKE '%_pkey'")}
    finally:
        await conn.close()
    return int(version), columns, indexes


def sqlite_catalog(path: Path) -> tuple[int, dict[str, set[str]], set[str]]:
    version, objects = schema(path)
    with sqlite3.connect(path) as conn:
        columns = {name: {r[1] for r in conn.execute(f"PRAGMA table_info({name})")}
                   for kind, name, _ in objects if kind == "table"}
    conn.close()
    return version, columns, {name for kind, name, _ in objects if kind == "index"}


async def test_both_backends_have_the_same_migrations_tables_columns_and_indexes(tmp_path: Path,
                                                                                 pg_dsn: str) -> None:
    """The two migration lists stay in step: same count, and what they build reads back alike
    (a migration added to one list only fails here)."""
    assert len(PG_MIGRATIONS) == len(MIGRATIONS)
    await (await open_store(tmp_path / "same.sqlite3")).close()
    s = PostgresStore(pg_dsn)
    await s.open()
    try:
        assert await s.schema_version() == len(PG_MIGRATIONS)
    finally:
        await s.close()
    lite, pg = sqlite_catalog(tmp_path / "same.sqlite3"), await pg_catalog(pg_dsn)
    assert lite[0] == pg[0] == len(MIGRATIONS)
    assert lite[1] == pg[1]
    assert lite[2] == pg[2]
    assert {"lease_owner", "lease_until"} <= pg[1]["games"]


async def test_postgres_reopening_and_concurrent_opening_migrate_once(pg_dsn: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Three processes starting at once on an empty database: one migrates, the others wait
    for it (an advisory lock) and find the schema up to date; later opens run nothing."""
    stores = [PostgresStore(pg_dsn, pool_size=2) for _ in range(3)]
    try:
        await asyncio.gather(*(s.open() for s in stores))
        assert [await s.schema_version() for s in stores] == [len(PG_MIGRATIONS)] * 3
        await stores[0].create_game(channel_id=5, guild_id=None, game_id="g", host=HOST, options={"a": 1},
                                    settings={}, seed=3)
    finally:
        for s in stores:
            await s.close()
    monkeypatch.setattr("bot.store.postgres.connection.PG_MIGRATIONS", ["THIS IS NOT SQL"] * len(PG_MIGRATIONS))
    again = PostgresStore(pg_dsn)
    await again.open()
    try:
        game = await again.active_game(5)
        assert game is not None and game.options == {"a": 1} and game.seats == [HOST]
    finally:
        await again.close()


async def test_a_failing_postgres_migration_is_rolled_back_whole(pg_dsn: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    s = PostgresStore(pg_dsn)
    await s.open()
    await s.close()
    monkeypatch.setattr("bot.store.postgres.connection.PG_MIGRATIONS",
                        [*PG_MIGRATIONS, "CREATE TABLE half_done (x INTEGER); CREATE TABLE broken ("])
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await PostgresStore(pg_dsn).open()
    version, columns, _ = await pg_catalog(pg_dsn)
    assert version == len(PG_MIGRATIONS) and "half_done" not in columns


async def test_a_closed_postgres_store_refuses_work(pg_dsn: str) -> None:
    s = PostgresStore(pg_dsn)
    with pytest.raises(StoreError, match="not open"):
        await s.get_game(1)
    await s.open()
    await s.close()
    with pytest.raises(StoreError, match="not open"):
        await s.active_game(1)


async def test_postgres_scheduler_lookups_use_an_index(pg_dsn: str) -> None:
    """With sequential scans priced out, the planner answers the tick's and the channel
    lookups from indexes: the indexes exist and fit the queries."""
    s = PostgresStore(pg_dsn)
    await s.open()
    await s.close()
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute("SET enable_seqscan = off")
        for sql, params in [
            (f"SELECT * FROM games WHERE {PG_DUE} ORDER BY id", (1.0,)),
            ("SELECT * FROM games WHERE channel_id=$1 AND status IN ('lobby','running')", (1,)),
            ("SELECT * FROM games WHERE channel_id=$1 ORDER BY id DESC LIMIT 1", (1,)),
            ("SELECT COUNT(*) FROM actions WHERE game=$1 AND seat=$2", (1, "p1")),
        ]:
            plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + sql, *params))
            assert "Seq Scan" not in plan, plan
    finally:
        await conn.close()
