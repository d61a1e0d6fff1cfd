"""The game store: SQLite through aiosqlite, WAL, numbered migrations.

One channel holds at most one active game (a partial unique index enforces it).
One action is one transaction: the log row is appended and the new state written
with a version check, so two racing clicks apply once and the loser gets
`VersionConflict`. The service only sees the `Store` interface, so a PostgreSQL
backend can be added for deployments that outgrow one machine.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from bot.store_migrations import COPY_TABLES as COPY_TABLES  # re-exported: admin and tests import it from here
from bot.store_migrations import MIGRATIONS, split_sql
from bot.store_social import SocialStore, SQLiteSocial
from bot.store_wal import WalCheckpointer

ACTIVE_STATUSES = ("lobby", "running")
T = TypeVar("T")


class StoreError(Exception):
    """Base of the store's own errors."""


class ChannelBusy(StoreError):
    """The channel already holds a game in the lobby or running."""


class VersionConflict(StoreError):
    """Someone else changed the game since the caller read it."""


@dataclass
class SeatRecord:
    position: int
    user_id: int
    name: str
    is_bot: bool = False
    dm: bool = False
    seat: str | None = None  # engine seat id, assigned at start ("p1".."pN")
    lang: str | None = None


@dataclass
class GameRecord:
    id: int
    channel_id: int
    guild_id: int | None
    game_id: str
    status: str
    version: int
    state: dict[str, Any] | None
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int
    host_id: int
    created_at: float
    updated_at: float
    remind_at: float | None = None
    timeout_at: float | None = None
    seats: list[SeatRecord] = field(default_factory=list)
    #: an AI seat (or a timed-out human's stand-in) must move next: written in the same
    #: transaction as the state, so a crash before the AI's moves leaves a marker the
    #: scheduler finds and finishes (see TableService.tick)
    ai_pending: bool = False

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    def seat_of_user(self, user_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.is_bot), None)

    def seat_record(self, seat: str) -> SeatRecord | None:
        return next((s for s in self.seats if s.seat == seat), None)

    @classmethod
    def from_row(cls, row: Any, seats: list[SeatRecord]) -> GameRecord:
        """A record from a `games` row, read by column name (an SQLite or a PostgreSQL row)."""
        return cls(
            id=row["id"], channel_id=row["channel_id"], guild_id=row["guild_id"], game_id=row["game_id"],
            status=row["status"], version=row["version"],
            state=json.loads(row["state"]) if row["state"] else None,
            options=json.loads(row["options"]), settings=json.loads(row["settings"]), seed=row["seed"],
            host_id=row["host_id"], created_at=row["created_at"], updated_at=row["updated_at"],
            remind_at=row["remind_at"], timeout_at=row["timeout_at"], seats=seats,
            ai_pending=bool(row["ai_pending"]),
        )

    def follow_commit(self, version: int, state: dict[str, Any], status: str, remind_at: float | None,
                      timeout_at: float | None, updated_at: float, ai_pending: bool) -> None:
        """The record follows the row `commit_action` wrote (even if its caller was cancelled
        after the commit)."""
        self.version = version
        self.state = state
        self.status = status
        self.remind_at, self.timeout_at = remind_at, timeout_at
        self.updated_at = updated_at
        self.ai_pending = ai_pending


@dataclass
class ActionRecord:
    seq: int
    seat: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    actor: str  # "human" | "ai" | "timeout"
    at: float


class Store(SocialStore, ABC):
    """What the table service needs from persistence."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create_game(self, *, channel_id: int, guild_id: int | None, game_id: str, host: SeatRecord,
                          options: dict[str, Any], settings: dict[str, Any], seed: int,
                          expires_at: float | None = None) -> GameRecord:
        """A new lobby; `expires_at` (kept in `timeout_at`) is when it closes if idle."""

    @abstractmethod
    async def active_game(self, channel_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def get_game(self, game_pk: int) -> GameRecord | None: ...

    @abstractmethod
    async def save_lobby(self, game: GameRecord, *, expected_version: int) -> int:
        """Write seats/options/settings/status of a game (lobby changes, settings, start,
        cancel); bumps the version. Returns the new version."""

    @abstractmethod
    async def save_settings(self, game: GameRecord, *, user_pref: tuple[int, bool] | None = None) -> None:
        """Write only settings, seats' DM choices and deadlines (and, in the same transaction,
        a user's DM preference). The version is not bumped: these change nothing in play, so
        the turn's buttons stay valid."""

    @abstractmethod
    async def commit_action(self, game: GameRecord, *, expected_version: int, seat: str, action: dict[str, Any],
                            events: list[dict[str, Any]], state: dict[str, Any], status: str, actor: str,
                            remind_at: float | None, timeout_at: float | None, ai_pending: bool = False) -> int:
        """Append one action to the log and write the new state, atomically, if the stored
        version is still `expected_version`. Returns the new version."""

    @abstractmethod
    async def actions(self, game_pk: int, *, since: int = 0) -> list[ActionRecord]: ...

    @abstractmethod
    async def last_action(self, game_pk: int) -> ActionRecord | None:
        """The newest entry of the game's log (None before the first move)."""

    @abstractmethod
    async def seat_action_count(self, game_pk: int, seat: str) -> int:
        """How many moves this seat has made (by its player, its AI or a stand-in)."""

    @abstractmethod
    async def set_ai_pending(self, game_pk: int, pending: bool, *, expected_version: int | None = None) -> None:
        """Set the AI marker; with `expected_version`, only if the game is still at it (else
        VersionConflict: a move from elsewhere got there first)."""

    @abstractmethod
    async def idle_lobbies(self, now: float) -> list[GameRecord]:
        """Lobbies whose idle deadline (`timeout_at`) has passed."""

    @abstractmethod
    async def set_deadlines(self, game_pk: int, *, remind_at: float | None, timeout_at: float | None,
                            expected_version: int | None = None) -> None:
        """Set the deadlines (no version bump); with `expected_version`, only if the game is
        still at it (else VersionConflict), so a reminder never overwrites a newer turn's."""

    @abstractmethod
    async def due_games(self, now: float) -> list[GameRecord]:
        """Running games whose reminder or timeout is due, or whose AI must move."""

    @abstractmethod
    async def claim_due(self, now: float, *, owner: str, lease_seconds: float, limit: int = 100) -> list[GameRecord]:
        """`due_games`, less those another scheduler holds a live lease on; the returned
        games are leased to `owner` until now + lease_seconds (a crashed owner's lease just
        runs out). Two processes' schedulers never get the same game at once."""

    @abstractmethod
    async def release_lease(self, game_pk: int, *, owner: str) -> None:
        """Give back `owner`'s lease on a game (done with it before the lease ran out)."""

    @abstractmethod
    async def expire_leases(self, owner: str) -> None:
        """End every lease `owner` holds (its process is known to be dead)."""

    @abstractmethod
    async def lease_owners(self, now: float) -> set[str]:
        """Who holds a live lease (so a restarted process can tell its dead predecessor's)."""

    @abstractmethod
    async def set_user_pref(self, user_id: int, *, dm: bool | None = None) -> None: ...

    @abstractmethod
    async def user_dm(self, user_id: int) -> bool:
        """Whether the user asked for their hand by DM (carried to new tables)."""

    @abstractmethod
    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The channel's most recent game, whatever its status."""

    @abstractmethod
    async def finished_games(self, channel_id: int, *, limit: int = 25) -> list[GameRecord]:
        """The channel's finished games, newest first, at most `limit` (`/game replay`)."""

    @abstractmethod
    async def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    async def swap_meta(self, key: str, expected: str | None, value: str) -> bool:
        """Set `key` to `value` only if it still holds `expected` (None: absent), in one
        statement: of several processes swapping from the same value, exactly one wins."""

    @abstractmethod
    async def games(self, *, status: str | None = None) -> list[GameRecord]: ...

    @abstractmethod
    async def unrated_games(self, *, within: float = 7 * 86400) -> list[GameRecord]:
        """Games finished in the last `within` seconds that have no recorded result (a crash
        came between the last move and the rating)."""

    @abstractmethod
    async def ended_followed_games(self) -> list[GameRecord]:
        """Games no longer in the lobby or running that still have followers."""


#: one encoder for every write (`json.dumps` with non-default arguments builds a new one per
#: call); no circular-reference bookkeeping per list and dict: states, actions and events are
#: trees of JSON values (a cycle would still fail, by RecursionError instead of ValueError)
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def _dumps(value: Any) -> str:
    return _ENCODER.encode(value)


_SEATS_SQL = "SELECT position, seat, user_id, name, is_bot, dm, lang FROM seats WHERE game=? ORDER BY position"


def _games_on(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...], one: bool = False) -> list[GameRecord]:
    """The games `sql` selects (only the first if `one`), each with its seats; runs on the
    connection's thread, so a whole read is one hop there and back."""
    cursor = conn.execute(sql, params)
    rows = ([row] if (row := cursor.fetchone()) is not None else []) if one else cursor.fetchall()
    return [_record(row, conn.execute(_SEATS_SQL, (row["id"],)).fetchall()) for row in rows]


def _record(row: sqlite3.Row, seats: list[sqlite3.Row]) -> GameRecord:
    return GameRecord.from_row(row, [
        SeatRecord(position=r["position"], seat=r["seat"], user_id=r["user_id"], name=r["name"],
                   is_bot=bool(r["is_bot"]), dm=bool(r["dm"]), lang=r["lang"]) for r in seats])


def _transaction(conn: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """BEGIN IMMEDIATE, body(conn), COMMIT (ROLLBACK if body fails), all on the connection's
    thread: one hop for the whole transaction instead of one per statement."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


class SQLiteStore(SQLiteSocial, Store):
    """The default store: one SQLite file in WAL mode.

    `synchronous=NORMAL` in WAL mode survives a crash of the bot process (an
    acknowledged commit is in the WAL file); set `durable=True` (FULL) to survive
    power loss too, at some cost per commit.
    """

    def __init__(self, path: str | Path, *, durable: bool = False) -> None:
        self.path = str(path)
        self.durable = durable
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()  # one transaction at a time on the shared connection
        self.checkpoints = WalCheckpointer(self.path, durable=durable)  # off the commit path

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("store is not open")
        return self._db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await self.checkpoints.configure(self._db)
        await self._migrate()

    async def close(self) -> None:
        await self.checkpoints.close()
        if self._db is not None:
            await self._db.close()  # the last connection to close checkpoints the rest
            self._db = None

    async def _migrate(self) -> None:
        async def body() -> None:
            # Read the version inside the write transaction: another process may have
            # migrated the file between our connect and our BEGIN IMMEDIATE.
            row = await (await self.db.execute("PRAGMA user_version")).fetchone()
            assert row is not None  # PRAGMA user_version always yields one row
            for number, sql in enumerate(MIGRATIONS, start=1):
                if number > row[0]:
                    for statement in split_sql(sql):
                        await self.db.execute(statement)
                    await self.db.execute(f"PRAGMA user_version={number}")

        await self._write(body)

    async def _write(self, body: Callable[[], Awaitable[T]]) -> T:
        """One write transaction on the shared connection: BEGIN IMMEDIATE, body(), COMMIT,
        or ROLLBACK if body() fails. Shielded, so a cancelled caller cannot stop it between
        BEGIN and COMMIT/ROLLBACK (the transaction still finishes; the caller sees
        CancelledError)."""
        async def run() -> T:
            async with self._lock:
                await self.db.execute("BEGIN IMMEDIATE")
                try:
                    result = await body()
                    await self.db.execute("COMMIT")
                except BaseException:
                    if self.db.in_transaction:
                        await self.db.execute("ROLLBACK")
                    raise
                self.checkpoints.committed()
                return result

        return await asyncio.shield(run())

    async def _on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(sqlite3 connection, *args) on aiosqlite's connection thread, in one queue hop.
        Every `await db.execute`/`fetch…` is such a hop (a queue put, a thread wake-up, a
        callback back into the loop) and they cost more than the statements themselves, so the
        per-turn reads and writes run whole there. Caller holds `_lock`. `_execute` and
        `_conn` are aiosqlite's own (unchanged since 0.13; this project needs >= 0.20)."""
        db = self.db
        return cast(T, await db._execute(fn, db._conn, *args))

    async def _write_now(self, body: Callable[[sqlite3.Connection], T],
                         done: Callable[[T], None] | None = None) -> T:
        """`_write` in one hop: body(conn) runs synchronously inside BEGIN IMMEDIATE … COMMIT
        on the connection's thread. `done(result)` follows the commit even if the caller is
        cancelled meanwhile (shielded, like `_write`)."""
        async def run() -> T:
            async with self._lock:
                result = await self._on_thread(_transaction, body)
                self.checkpoints.committed()
            if done is not None:
                done(result)
            return result

        return await asyncio.shield(run())

    async def schema_version(self) -> int:
        async with self._lock:
            row = await (await self.db.execute("PRAGMA user_version")).fetchone()
        assert row is not None  # PRAGMA user_version always yields one row
        return int(row[0])

    # -- reading --------------------------------------------------------------
    async def _one_game(self, sql: str, params: tuple[Any, ...]) -> GameRecord | None:
        """The first game `sql` selects, with its seats: one hop to the connection's thread."""
        async with self._lock:
            found = await self._on_thread(_games_on, sql, params, True)
        return found[0] if found else None

    async def _many_games(self, sql: str, params: tuple[Any, ...]) -> list[GameRecord]:
        async with self._lock:
            return await self._on_thread(_games_on, sql, params)

    async def active_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE channel_id=? AND status IN ('lobby','running')",
                                    (channel_id,))

    async def get_game(self, game_pk: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE id=?", (game_pk,))

    async def last_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE channel_id=? ORDER BY id DESC LIMIT 1", (channel_id,))

    async def unrated_games(self, *, within: float = 7 * 86400) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games g WHERE status='finished' AND updated_at>=?"
            " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game=g.id) ORDER BY id",
            (time.time() - within,))

    async def ended_followed_games(self) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE id IN (SELECT DISTINCT game FROM follows)"
            " AND status NOT IN ('lobby','running') ORDER BY id", ())

    async def finished_games(self, channel_id: int, *, limit: int = 25) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE channel_id=? AND status='finished' ORDER BY id DESC LIMIT ?",
            (channel_id, max(0, limit)))

    async def games(self, *, status: str | None = None) -> list[GameRecord]:
        if status is None:
            return await self._many_games("SELECT * FROM games ORDER BY id", ())
        return await self._many_games("SELECT * FROM games WHERE status=? ORDER BY id", (status,))

    async def actions(self, game_pk: int, *, since: int = 0, newest_only: bool = False) -> list[ActionRecord]:
        sql = "SELECT seq, seat, action, events, actor, at FROM actions WHERE game=? AND seq>? ORDER BY seq"
        if newest_only:
            sql += " DESC LIMIT 1"
        async with self._lock:
            rows = await self.db.execute_fetchall(sql, (game_pk, since))
        return [
            ActionRecord(seq=r["seq"], seat=r["seat"], action=json.loads(r["action"]),
                         events=json.loads(r["events"]), actor=r["actor"], at=r["at"])
            for r in rows
        ]

    #: each branch is answered by one partial index (test_store_schema checks the plan)
    DUE_SQL = (
        "SELECT * FROM games WHERE id IN ("
        "SELECT id FROM games WHERE status='running' AND remind_at IS NOT NULL AND remind_at<=?"
        " UNION SELECT id FROM games WHERE status='running' AND timeout_at IS NOT NULL AND timeout_at<=?"
        " UNION SELECT id FROM games WHERE status='running' AND ai_pending=1) ORDER BY id"
    )
    #: the due games without a live lease (params: now, now, now, limit)
    CLAIM_SQL = DUE_SQL.replace(" ORDER BY id", " AND (lease_until IS NULL OR lease_until<=?) ORDER BY id LIMIT ?")

    async def due_games(self, now: float) -> list[GameRecord]:
        return await self._many_games(self.DUE_SQL, (now, now))

    async def claim_due(self, now: float, *, owner: str, lease_seconds: float, limit: int = 100) -> list[GameRecord]:
        """One write transaction (BEGIN IMMEDIATE): SQLite's single writer already keeps two
        processes' claims apart."""
        def body(conn: sqlite3.Connection) -> list[GameRecord]:
            claimed = _games_on(conn, self.CLAIM_SQL, (now, now, now, limit))
            conn.executemany("UPDATE games SET lease_owner=?, lease_until=? WHERE id=?",
                             [(owner, now + lease_seconds, g.id) for g in claimed])
            return claimed

        return await self._write_now(body)

    async def release_lease(self, game_pk: int, *, owner: str) -> None:
        async with self._lock:
            await self.db.execute("UPDATE games SET lease_owner=NULL, lease_until=NULL WHERE id=? AND lease_owner=?",
                                  (game_pk, owner))

    async def expire_leases(self, owner: str) -> None:
        async with self._lock:
            await self.db.execute("UPDATE games SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=?", (owner,))

    async def lease_owners(self, now: float) -> set[str]:
        async with self._lock:
            rows = await (await self.db.execute(
                "SELECT DISTINCT lease_owner FROM games WHERE lease_owner IS NOT NULL AND lease_until>?",
                (now,))).fetchall()
        return {str(r[0]) for r in rows}

    async def idle_lobbies(self, now: float) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE status='lobby' AND timeout_at IS NOT NULL AND timeout_at<=? ORDER BY id",
            (now,))

    async def last_action(self, game_pk: int) -> ActionRecord | None:
        found = await self.actions(game_pk, newest_only=True)
        return found[0] if found else None

    async def seat_action_count(self, game_pk: int, seat: str) -> int:
        async with self._lock:
            rows = await self.db.execute_fetchall("SELECT COUNT(*) FROM actions WHERE game=? AND seat=?",
                                                  (game_pk, seat))
        return int(next(iter(rows))[0])  # an aggregate without GROUP BY always yields one row

    async def set_ai_pending(self, game_pk: int, pending: bool, *, expected_version: int | None = None) -> None:
        async with self._lock:
            cursor = await self.db.execute("UPDATE games SET ai_pending=? WHERE id=? AND (? IS NULL OR version=?)",
                                           (int(pending), game_pk, expected_version, expected_version))
        if expected_version is not None and cursor.rowcount != 1:
            raise VersionConflict(f"game {game_pk} is no longer at version {expected_version}")

    async def user_dm(self, user_id: int) -> bool:
        async with self._lock:
            rows = await self.db.execute_fetchall("SELECT dm FROM user_prefs WHERE user_id=?", (user_id,))
        return any(bool(r["dm"]) for r in rows)

    # -- writing --------------------------------------------------------------
    async def _write_seats(self, game: GameRecord) -> None:
        await self.db.execute("DELETE FROM seats WHERE game=?", (game.id,))
        await self.db.executemany(
            "INSERT INTO seats (game, position, seat, user_id, name, is_bot, dm, lang) VALUES (?,?,?,?,?,?,?,?)",
            [(game.id, s.position, s.seat, s.user_id, s.name, int(s.is_bot), int(s.dm), s.lang) for s in game.seats],
        )

    async def create_game(self, *, channel_id: int, guild_id: int | None, game_id: str, host: SeatRecord,
                          options: dict[str, Any], settings: dict[str, Any], seed: int,
                          expires_at: float | None = None) -> GameRecord:
        now = time.time()

        async def body() -> GameRecord:
            try:
                cursor = await self.db.execute(
                    "INSERT INTO games (channel_id, guild_id, game_id, status, version, options, settings, seed,"
                    " host_id, created_at, updated_at, timeout_at) VALUES (?,?,?,?,0,?,?,?,?,?,?,?)",
                    (channel_id, guild_id, game_id, "lobby", _dumps(options), _dumps(settings), seed, host.user_id,
                     now, now, expires_at),
                )
                game = GameRecord(id=cursor.lastrowid or 0, channel_id=channel_id, guild_id=guild_id,
                                  game_id=game_id, status="lobby", version=0, state=None, options=options,
                                  settings=settings, seed=seed, host_id=host.user_id, created_at=now,
                                  updated_at=now, timeout_at=expires_at, seats=[host])
                await self._write_seats(game)
            except aiosqlite.IntegrityError as exc:
                raise ChannelBusy(str(exc)) from exc
            return game

        return await self._write(body)

    async def save_lobby(self, game: GameRecord, *, expected_version: int) -> int:
        async def body() -> None:
            cursor = await self.db.execute(
                "UPDATE games SET status=?, options=?, settings=?, state=?, version=version+1, updated_at=?,"
                " remind_at=?, timeout_at=?, host_id=?, ai_pending=? WHERE id=? AND version=?",
                (game.status, _dumps(game.options), _dumps(game.settings),
                 _dumps(game.state) if game.state is not None else None, time.time(), game.remind_at,
                 game.timeout_at, game.host_id, int(game.ai_pending and game.status == "running"), game.id,
                 expected_version),
            )
            if cursor.rowcount != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
            await self._write_seats(game)

        await self._write(body)
        game.version = expected_version + 1
        return game.version

    async def save_settings(self, game: GameRecord, *, user_pref: tuple[int, bool] | None = None) -> None:
        async def body() -> None:
            await self.db.execute("UPDATE games SET settings=?, remind_at=?, timeout_at=? WHERE id=?",
                                  (_dumps(game.settings), game.remind_at, game.timeout_at, game.id))
            await self.db.executemany("UPDATE seats SET dm=? WHERE game=? AND position=?",
                                      [(int(s.dm), game.id, s.position) for s in game.seats])
            if user_pref is not None:
                await self._write_user_pref(*user_pref)

        await self._write(body)

    async def commit_action(self, game: GameRecord, *, expected_version: int, seat: str, action: dict[str, Any],
                            events: list[dict[str, Any]], state: dict[str, Any], status: str, actor: str,
                            remind_at: float | None, timeout_at: float | None, ai_pending: bool = False) -> int:
        now = time.time()
        pending = int(ai_pending and status == "running")
        new_version = expected_version + 1
        game_row = (_dumps(state), status, new_version, now, remind_at, timeout_at, pending, game.id,
                    expected_version)
        log_row = (game.id, seat, _dumps(action), _dumps(events), actor, now, game.id)

        def body(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE games SET state=?, status=?, version=?, updated_at=?, remind_at=?, timeout_at=?, ai_pending=?"
                " WHERE id=? AND version=?", game_row)
            if cursor.rowcount != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
            conn.execute(
                "INSERT INTO actions (game, seq, seat, action, events, actor, at)"
                " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ? FROM actions WHERE game=?", log_row)

        def committed(_: None) -> None:
            game.follow_commit(new_version, state, status, remind_at, timeout_at, now, bool(pending))

        await self._write_now(body, committed)
        return new_version

    async def set_deadlines(self, game_pk: int, *, remind_at: float | None, timeout_at: float | None,
                            expected_version: int | None = None) -> None:
        async with self._lock:
            cursor = await self.db.execute(
                "UPDATE games SET remind_at=?, timeout_at=? WHERE id=? AND (? IS NULL OR version=?)",
                (remind_at, timeout_at, game_pk, expected_version, expected_version))
        if expected_version is not None and cursor.rowcount != 1:
            raise VersionConflict(f"game {game_pk} is no longer at version {expected_version}")

    async def get_meta(self, key: str) -> str | None:
        async with self._lock:
            rows = await self.db.execute_fetchall("SELECT value FROM meta WHERE key=?", (key,))
        return next((str(r["value"]) for r in rows), None)

    async def set_meta(self, key: str, value: str) -> None:
        async with self._lock:
            await self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, value),
            )

    async def swap_meta(self, key: str, expected: str | None, value: str) -> bool:
        async with self._lock:
            if expected is None:
                cursor = await self.db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", (key, value))
            else:
                cursor = await self.db.execute("UPDATE meta SET value=? WHERE key=? AND value=?",
                                               (value, key, expected))
            return cursor.rowcount == 1

    async def set_user_pref(self, user_id: int, *, dm: bool | None = None) -> None:
        if dm is None:
            return
        await self._write(lambda: self._write_user_pref(user_id, dm))

    async def _write_user_pref(self, user_id: int, dm: bool) -> None:
        await self.db.execute(
            "INSERT INTO user_prefs (user_id, dm) VALUES (?, ?) ON CONFLICT(user_id) DO UPDATE SET dm=excluded.dm",
            (user_id, int(dm)),
        )

    # -- moving data (python -m bot.admin migrate) ----------------------------------
    async def export_rows(self, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every row of `table` (one of COPY_TABLES), the given columns, ordered by all of them."""
        return await self.raw(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {_every(columns)}")

    async def import_rows(self, tables: Sequence[tuple[str, Sequence[str], list[tuple[Any, ...]]]], *,
                          replace: bool) -> None:
        """Write whole tables in one transaction (after emptying them if `replace`)."""
        async def body() -> None:
            if replace:
                for table, _, _ in reversed(tables):
                    await self.db.execute(f"DELETE FROM {table}")
            for table, columns, rows in tables:
                marks = ", ".join("?" * len(columns))
                await self.db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

        await self._write(body)

    async def row_counts(self, tables: Sequence[str]) -> dict[str, int]:
        return {t: int((await self.raw(f"SELECT COUNT(*) FROM {t}"))[0][0]) for t in tables}

    async def columns(self, table: str) -> list[str]:
        return [str(r[1]) for r in await self.raw(f"PRAGMA table_info({table})")]

    async def raw(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one query on the store's connection (tests and admin read through it)."""
        async with self._lock:
            return [tuple(r) for r in await (await self.db.execute(sql, tuple(params))).fetchall()]


def _every(columns: Sequence[str]) -> str:
    """`1, 2, …, n`: an ORDER BY over every selected column (a total order for any table)."""
    return ", ".join(str(n) for n in range(1, len(columns) + 1))


def store_from_url(url: str | None, *, durable: bool = False, pool_size: int = 10) -> Store:
    """`sqlite:///path`, a plain path, or None for the default file; `postgresql://…` (or
    `postgres://…`) for PostgreSQL with at most `pool_size` connections."""
    if url and url.startswith(("postgresql://", "postgres://")):
        # loaded by name: bot.store_pg builds on this module (no import circle), and only
        # deployments that use PostgreSQL load asyncpg
        backend: type[Any] = importlib.import_module("bot.store_pg").PostgresStore
        store: Store = backend(url, pool_size=pool_size)
        return store
    if not url:
        return SQLiteStore("passepartout.sqlite3", durable=durable)
    if url.startswith("sqlite:///"):
        return SQLiteStore(url[len("sqlite:///"):], durable=durable)
    if url.startswith("sqlite://"):
        return SQLiteStore(url[len("sqlite://"):] or ":memory:", durable=durable)
    if "://" in url:
        raise StoreError(f"unsupported database URL scheme in {url.split('://')[0]!r};"
                         " only sqlite and postgresql are built in")
    return SQLiteStore(url, durable=durable)
