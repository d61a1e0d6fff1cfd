"""Games on SQLite: games and their seats, the action log, deadlines, the scheduler's leases
and the players' DM preference. Each method is one function of the connection, run on the
store's thread in one hop (a write: one transaction, see `SQLiteConnection._write`)."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

from bot.store.records import ActionRecord, ChannelBusy, Follow, GameRecord, SeatRecord, VersionConflict
from bot.store.rows import dumps
from bot.store.sqlite.connection import SQLiteConnection

_SEATS_SQL = "SELECT position, seat, user_id, name, is_bot, dm, lang FROM seats WHERE game=? ORDER BY position"
_ACTIONS_SQL = "SELECT seq, seat, action, events, actor, at FROM actions WHERE game=? AND seq>? ORDER BY seq"


def games_on(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...], one: bool = False) -> list[GameRecord]:
    """The games `sql` selects (only the first if `one`), each with its seats: a whole read in
    one hop, and in one snapshot (no commit can come between the games and their seats, since
    every commit runs on this same thread)."""
    cursor = conn.execute(sql, params)
    rows = ([row] if (row := cursor.fetchone()) is not None else []) if one else cursor.fetchall()
    return [_record(row, conn.execute(_SEATS_SQL, (row["id"],)).fetchall()) for row in rows]


def _record(row: sqlite3.Row, seats: list[sqlite3.Row]) -> GameRecord:
    return GameRecord.from_row(row, [
        SeatRecord(position=r["position"], seat=r["seat"], user_id=r["user_id"], name=r["name"],
                   is_bot=bool(r["is_bot"]), dm=bool(r["dm"]), lang=r["lang"]) for r in seats])


def _actions(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[ActionRecord]:
    return [ActionRecord(seq=r["seq"], seat=r["seat"], action=json.loads(r["action"]), events=json.loads(r["events"]),
                         actor=r["actor"], at=r["at"])
            for r in conn.execute(sql, params).fetchall()]


def _count(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> int:
    """Rows a write changed."""
    return conn.execute(sql, params).rowcount


def _write_seats(conn: sqlite3.Connection, game: GameRecord) -> None:
    conn.execute("DELETE FROM seats WHERE game=?", (game.id,))
    conn.executemany(
        "INSERT INTO seats (game, position, seat, user_id, name, is_bot, dm, lang) VALUES (?,?,?,?,?,?,?,?)",
        [(game.id, s.position, s.seat, s.user_id, s.name, int(s.is_bot), int(s.dm), s.lang) for s in game.seats])


def _write_user_pref(conn: sqlite3.Connection, user_id: int, dm: bool) -> None:
    conn.execute(
        "INSERT INTO user_prefs (user_id, dm) VALUES (?, ?) ON CONFLICT(user_id) DO UPDATE SET dm=excluded.dm",
        (user_id, int(dm)))


class SQLiteGames(SQLiteConnection):
    """The games part of `SQLiteStore`."""

    #: each branch is answered by one partial index (test_store_schema checks the plan)
    DUE_SQL = (
        "SELECT * FROM games WHERE id IN ("
        "SELECT id FROM games WHERE status='running' AND remind_at IS NOT NULL AND remind_at<=?"
        " UNION SELECT id FROM games WHERE status='running' AND timeout_at IS NOT NULL AND timeout_at<=?"
        " UNION SELECT id FROM games WHERE status='running' AND ai_pending=1) ORDER BY id"
    )
    #: the due games without a live lease, not paused (params: now, now, now, limit)
    CLAIM_SQL = DUE_SQL.replace(
        " ORDER BY id", " AND paused_at IS NULL AND (lease_until IS NULL OR lease_until<=?) ORDER BY id LIMIT ?")

    # -- reading --------------------------------------------------------------------------------
    async def _one_game(self, sql: str, params: tuple[Any, ...]) -> GameRecord | None:
        found = await self.on_thread(games_on, sql, params, True)
        return found[0] if found else None

    async def _many_games(self, sql: str, params: tuple[Any, ...]) -> list[GameRecord]:
        return await self.on_thread(games_on, sql, params)

    async def active_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE channel_id=? AND status IN ('lobby','running')",
                                    (channel_id,))

    async def get_game(self, game_pk: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE id=?", (game_pk,))

    async def last_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game("SELECT * FROM games WHERE channel_id=? ORDER BY id DESC LIMIT 1", (channel_id,))

    async def finished_games(self, channel_id: int, *, limit: int = 25) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE channel_id=? AND status='finished' ORDER BY id DESC LIMIT ?",
            (channel_id, max(0, limit)))

    async def games(self, *, status: str | None = None) -> list[GameRecord]:
        if status is None:
            return await self._many_games("SELECT * FROM games ORDER BY id", ())
        return await self._many_games("SELECT * FROM games WHERE status=? ORDER BY id", (status,))

    async def unrated_games(self, *, within: float = 7 * 86400) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games g WHERE status='finished' AND updated_at>=?"
            " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game=g.id) ORDER BY id",
            (time.time() - within,))

    async def ended_followed_games(self) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE id IN (SELECT DISTINCT game FROM follows)"
            " AND status NOT IN ('lobby','running') ORDER BY id", ())

    async def idle_lobbies(self, now: float) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE status='lobby' AND timeout_at IS NOT NULL AND timeout_at<=? ORDER BY id",
            (now,))

    async def due_games(self, now: float) -> list[GameRecord]:
        return await self._many_games(self.DUE_SQL, (now, now))

    async def actions(self, game_pk: int, *, since: int = 0, newest_only: bool = False) -> list[ActionRecord]:
        sql = _ACTIONS_SQL + " DESC LIMIT 1" if newest_only else _ACTIONS_SQL
        return await self.on_thread(_actions, sql, (game_pk, since))

    async def last_action(self, game_pk: int) -> ActionRecord | None:
        found = await self.actions(game_pk, newest_only=True)
        return found[0] if found else None

    async def seat_action_count(self, game_pk: int, seat: str) -> int:
        rows = await self.raw("SELECT COUNT(*) FROM actions WHERE game=? AND seat=?", (game_pk, seat))
        return int(rows[0][0])  # an aggregate without GROUP BY always yields one row

    async def user_dm(self, user_id: int) -> bool:
        rows = await self.raw("SELECT dm FROM user_prefs WHERE user_id=?", (user_id,))
        return any(bool(r[0]) for r in rows)

    # -- the scheduler's leases -----------------------------------------------------------------
    async def claim_due(self, now: float, *, owner: str, lease_seconds: float, limit: int = 100) -> list[GameRecord]:
        """One write transaction (BEGIN IMMEDIATE): SQLite's single writer already keeps two
        processes' claims apart."""
        def body(conn: sqlite3.Connection) -> list[GameRecord]:
            claimed = games_on(conn, self.CLAIM_SQL, (now, now, now, limit))
            conn.executemany("UPDATE games SET lease_owner=?, lease_until=? WHERE id=?",
                             [(owner, now + lease_seconds, g.id) for g in claimed])
            return claimed

        return await self._write(body)

    async def release_lease(self, game_pk: int, *, owner: str) -> None:
        await self.raw("UPDATE games SET lease_owner=NULL, lease_until=NULL WHERE id=? AND lease_owner=?",
                       (game_pk, owner))

    async def expire_leases(self, owner: str) -> None:
        await self.raw("UPDATE games SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=?", (owner,))

    async def lease_owners(self, now: float) -> set[str]:
        rows = await self.raw("SELECT DISTINCT lease_owner FROM games WHERE lease_owner IS NOT NULL AND lease_until>?",
                              (now,))
        return {str(r[0]) for r in rows}

    # -- writing --------------------------------------------------------------------------------
    async def create_game(self, *, channel_id: int, guild_id: int | None, game_id: str, host: SeatRecord,
                          options: dict[str, Any], settings: dict[str, Any], seed: int,
                          expires_at: float | None = None, announce_at: float | None = None) -> GameRecord:
        now = time.time()
        row = (channel_id, guild_id, game_id, "lobby", dumps(options), dumps(settings), seed, host.user_id, now, now,
               expires_at, announce_at)

        def body(conn: sqlite3.Connection) -> GameRecord:
            cursor = conn.execute(
                "INSERT INTO games (channel_id, guild_id, game_id, status, version, options, settings, seed,"
                " host_id, created_at, updated_at, timeout_at, announce_due) VALUES (?,?,?,?,0,?,?,?,?,?,?,?,?)", row)
            game = GameRecord(id=cursor.lastrowid or 0, channel_id=channel_id, guild_id=guild_id, game_id=game_id,
                              status="lobby", version=0, state=None, options=options, settings=settings, seed=seed,
                              host_id=host.user_id, created_at=now, updated_at=now, timeout_at=expires_at,
                              seats=[host], announce_due=announce_at)
            _write_seats(conn, game)
            return game

        try:
            return await self._write(body)
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy(str(exc)) from exc

    async def save_lobby(self, game: GameRecord, *, expected_version: int) -> int:
        row = (game.status, dumps(game.options), dumps(game.settings),
               dumps(game.state) if game.state is not None else None, time.time(), game.remind_at, game.timeout_at,
               game.host_id, int(game.ai_pending and game.status == "running"), game.announce_due, game.id,
               expected_version)

        def body(conn: sqlite3.Connection) -> None:
            changed = _count(
                conn, "UPDATE games SET status=?, options=?, settings=?, state=?, version=version+1, updated_at=?,"
                " remind_at=?, timeout_at=?, host_id=?, ai_pending=?, announce_due=?, announce_tries=0"
                " WHERE id=? AND version=?", row)
            if changed != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
            _write_seats(conn, game)

        await self._write(body)
        game.version = expected_version + 1
        return game.version

    async def save_settings(self, game: GameRecord, *, user_pref: tuple[int, bool] | None = None) -> None:
        row = (dumps(game.settings), game.remind_at, game.timeout_at, game.id)
        seats = [(int(s.dm), game.id, s.position) for s in game.seats]

        def body(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE games SET settings=?, remind_at=?, timeout_at=? WHERE id=?", row)
            conn.executemany("UPDATE seats SET dm=? WHERE game=? AND position=?", seats)
            if user_pref is not None:
                _write_user_pref(conn, *user_pref)

        await self._write(body)

    async def commit_action(self, game: GameRecord, *, expected_version: int, seat: str, action: dict[str, Any],
                            events: list[dict[str, Any]], state: dict[str, Any], status: str, actor: str,
                            remind_at: float | None, timeout_at: float | None, ai_pending: bool = False,
                            announce_at: float | None = None) -> int:
        now = time.time()
        pending = int(ai_pending and status == "running")
        new_version = expected_version + 1
        game_row = (dumps(state), status, new_version, now, remind_at, timeout_at, pending, announce_at, game.id,
                    expected_version)
        log_row = (game.id, seat, dumps(action), dumps(events), actor, now, game.id)

        def body(conn: sqlite3.Connection) -> None:
            changed = _count(
                conn, "UPDATE games SET state=?, status=?, version=?, updated_at=?, remind_at=?, timeout_at=?,"
                " ai_pending=?, announce_due=?, announce_tries=0 WHERE id=? AND version=?", game_row)
            if changed != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
            conn.execute(
                "INSERT INTO actions (game, seq, seat, action, events, actor, at)"
                " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ? FROM actions WHERE game=?", log_row)

        def committed(_: None) -> None:
            game.follow_commit(new_version, state, status, remind_at, timeout_at, now, bool(pending), announce_at)

        await self._write(body, committed)
        return new_version

    async def set_ai_pending(self, game_pk: int, pending: bool, *, expected_version: int | None = None) -> None:
        changed = await self.on_thread(_count, "UPDATE games SET ai_pending=? WHERE id=? AND (? IS NULL OR version=?)",
                                       (int(pending), game_pk, expected_version, expected_version))
        if expected_version is not None and changed != 1:
            raise VersionConflict(f"game {game_pk} is no longer at version {expected_version}")

    async def set_deadlines(self, game_pk: int, *, remind_at: float | None, timeout_at: float | None,
                            expected_version: int | None = None) -> None:
        changed = await self.on_thread(
            _count, "UPDATE games SET remind_at=?, timeout_at=? WHERE id=? AND (? IS NULL OR version=?)",
            (remind_at, timeout_at, game_pk, expected_version, expected_version))
        if expected_version is not None and changed != 1:
            raise VersionConflict(f"game {game_pk} is no longer at version {expected_version}")

    async def set_user_pref(self, user_id: int, *, dm: bool | None = None) -> None:
        if dm is not None:
            await self._write(lambda conn: _write_user_pref(conn, user_id, dm))

    # -- announcements and paused games -------------------------------------------------------
    async def announced(self, game_pk: int, version: int, *, copies_due: float | None = None) -> None:
        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE games SET announced_version=MAX(announced_version, ?), announce_tries=0,"
                " announce_due=CASE WHEN version<=? THEN NULL ELSE announce_due END WHERE id=?",
                (version, version, game_pk))
            if copies_due is not None:
                conn.execute("UPDATE follows SET copy_due=COALESCE(copy_due, ?) WHERE game=? AND copied_version<?",
                             (copies_due, game_pk, version))

        await self._write(body)

    async def announce_failed(self, game_pk: int, version: int, retry_at: float) -> None:
        await self.raw("UPDATE games SET announce_due=?, announce_tries=announce_tries+1 WHERE id=? AND version=?",
                       (retry_at, game_pk, version))

    async def due_announcements(self, now: float, *, limit: int = 50) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE announce_due IS NOT NULL AND announce_due<=? AND paused_at IS NULL"
            " AND status IN ('lobby','running','finished') ORDER BY announce_due LIMIT ?", (now, limit))

    async def claim_announcement(self, game_pk: int, due: float, until: float) -> bool:
        changed = await self.on_thread(_count, "UPDATE games SET announce_due=? WHERE id=? AND announce_due=?",
                                       (until, game_pk, due))
        return changed == 1

    async def pause_games(self, *, at: float, channel_id: int | None = None,
                          guild_id: int | None = None) -> list[GameRecord]:
        where = "status IN ('lobby','running') AND paused_at IS NULL AND (channel_id=? OR guild_id=?)"

        def body(conn: sqlite3.Connection) -> list[GameRecord]:
            found = games_on(conn, f"SELECT * FROM games WHERE {where} ORDER BY id", (channel_id, guild_id))
            conn.execute(f"UPDATE games SET paused_at=? WHERE {where}", (at, channel_id, guild_id))
            return found

        return await self._write(body)

    async def resume_games(self, guild_id: int, channel_ids: list[int], *, announce_at: float) -> list[GameRecord]:
        if not channel_ids:
            return []
        marks = ",".join("?" * len(channel_ids))
        where = f"paused_at IS NOT NULL AND guild_id=? AND channel_id IN ({marks}) AND status IN ('lobby','running')"

        def body(conn: sqlite3.Connection) -> list[GameRecord]:
            found = games_on(conn, f"SELECT * FROM games WHERE {where} ORDER BY id", (guild_id, *channel_ids))
            conn.execute(f"UPDATE games SET paused_at=NULL, announce_due=? WHERE {where}",
                         (announce_at, guild_id, *channel_ids))
            return found

        return await self._write(body)

    async def paused_games(self, before: float) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE paused_at IS NOT NULL AND paused_at<=? AND status IN ('lobby','running')"
            " ORDER BY id", (before,))

    # -- followers' copies ------------------------------------------------------------------------
    async def copied(self, game_pk: int, user_id: int, version: int) -> None:
        await self.raw("UPDATE follows SET copied_version=MAX(copied_version, ?), copy_tries=0,"
                       " copy_due=NULL WHERE game=? AND user_id=?", (version, game_pk, user_id))

    async def copy_failed(self, game_pk: int, user_id: int, retry_at: float) -> None:
        await self.raw("UPDATE follows SET copy_due=?, copy_tries=copy_tries+1 WHERE game=? AND user_id=?",
                       (retry_at, game_pk, user_id))

    async def owed_copies(self, now: float, *, until: float, limit: int = 50) -> list[tuple[Follow, int]]:
        def body(conn: sqlite3.Connection) -> list[tuple[Follow, int]]:
            rows = conn.execute(
                "SELECT f.game, f.user_id, f.name, f.thread_id, f.copy_tries FROM follows f JOIN games g ON g.id=f.game"
                " WHERE f.copy_due IS NOT NULL AND f.copy_due<=? AND f.copied_version<g.announced_version"
                " AND g.status IN ('running','finished') AND g.paused_at IS NULL ORDER BY f.copy_due LIMIT ?",
                (now, limit)).fetchall()
            conn.executemany("UPDATE follows SET copy_due=? WHERE game=? AND user_id=?",
                             [(until, r["game"], r["user_id"]) for r in rows])
            return [(Follow(r["game"], r["user_id"], r["name"], r["thread_id"]), r["copy_tries"]) for r in rows]

        return await self._write(body)

