"""Games on PostgreSQL: games and their seats, the action log, deadlines, the scheduler's
leases and the players' DM preference. A turn's read is one statement and its commit one
statement; two processes' clicks on one game are kept apart by the version check in a
conditional UPDATE (a concurrent writer blocks on the row, then finds the version changed),
the log's primary key (game, seq) and the partial unique index for one active game per
channel; their schedulers' claims by `FOR UPDATE SKIP LOCKED`."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import asyncpg

from bot.store.postgres.connection import Conn, PostgresConnection
from bot.store.records import ActionRecord, ChannelBusy, Follow, GameRecord, SeatRecord, VersionConflict
from bot.store.rows import dumps

#: a game row with its seats as one JSON array of [position, seat, user_id, name, is_bot, dm, lang]
#: rows (null without seats): a turn's read is one statement, one snapshot, one round trip
_GAME_WITH_SEATS = ("SELECT games.*, (SELECT json_agg(json_build_array(position, seat, user_id, name, is_bot, dm,"
                    " lang)) FROM seats WHERE seats.game=games.id) AS seat_rows FROM games ")

#: the due games' condition ($1: now), as `SQLiteStore.DUE_SQL` says it for SQLite
DUE = ("status='running' AND ((remind_at IS NOT NULL AND remind_at<=$1)"
       " OR (timeout_at IS NOT NULL AND timeout_at<=$1) OR ai_pending=1)")


def _int(value: bool) -> int:
    return 1 if value else 0


class PostgresGames(PostgresConnection):
    """The games part of `PostgresStore`."""

    # -- reading ---------------------------------------------------------------------------------
    async def _games_on(self, conn: Conn, sql: str, *params: Any) -> list[GameRecord]:
        rows = await conn.fetch(sql, *params)
        if not rows:
            return []
        seats: dict[int, list[SeatRecord]] = {r["id"]: [] for r in rows}
        for s in await conn.fetch("SELECT game, position, seat, user_id, name, is_bot, dm, lang FROM seats"
                                  " WHERE game = ANY($1::bigint[]) ORDER BY game, position", list(seats)):
            seats[s["game"]].append(SeatRecord(position=s["position"], seat=s["seat"], user_id=s["user_id"],
                                               name=s["name"], is_bot=bool(s["is_bot"]), dm=bool(s["dm"]),
                                               lang=s["lang"]))
        return [GameRecord.from_row(r, seats[r["id"]]) for r in rows]

    async def _many_games(self, sql: str, *params: Any) -> list[GameRecord]:
        """Games and their seats from one snapshot (a commit between the two reads cannot
        pair a game row with other seats)."""
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return await self._games_on(conn, sql, *params)

    async def _one_game(self, where: str, *params: Any) -> GameRecord | None:
        """The first game `WHERE …` selects, seats included, by one statement (one snapshot)."""
        row = await self.pool.fetchrow(_GAME_WITH_SEATS + where, *params)
        if row is None:
            return None
        seats = sorted(json.loads(row["seat_rows"] or "[]"))
        return GameRecord.from_row(row, [SeatRecord(position=p, seat=seat, user_id=user, name=name, is_bot=bool(bot),
                                             dm=bool(dm), lang=lang)
                                  for p, seat, user, name, bot, dm, lang in seats])

    async def active_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game("WHERE channel_id=$1 AND status IN ('lobby','running')", channel_id)

    async def get_game(self, game_pk: int) -> GameRecord | None:
        return await self._one_game("WHERE id=$1", game_pk)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        return await self._one_game("WHERE channel_id=$1 ORDER BY id DESC LIMIT 1", channel_id)

    async def finished_games(self, channel_id: int, *, limit: int = 25) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE channel_id=$1 AND status='finished' ORDER BY id DESC LIMIT $2",
            channel_id, max(0, limit))

    async def games(self, *, status: str | None = None) -> list[GameRecord]:
        if status is None:
            return await self._many_games("SELECT * FROM games ORDER BY id")
        return await self._many_games("SELECT * FROM games WHERE status=$1 ORDER BY id", status)

    async def actions(self, game_pk: int, *, since: int = 0, newest_only: bool = False) -> list[ActionRecord]:
        sql = "SELECT seq, seat, action, events, actor, at FROM actions WHERE game=$1 AND seq>$2 ORDER BY seq"
        if newest_only:
            sql += " DESC LIMIT 1"
        rows = await self.pool.fetch(sql, game_pk, since)
        return [ActionRecord(seq=r["seq"], seat=r["seat"], action=json.loads(r["action"]),
                             events=json.loads(r["events"]), actor=r["actor"], at=r["at"]) for r in rows]

    async def last_action(self, game_pk: int) -> ActionRecord | None:
        found = await self.actions(game_pk, newest_only=True)
        return found[0] if found else None

    async def seat_action_count(self, game_pk: int, seat: str) -> int:
        return int(await self.pool.fetchval("SELECT COUNT(*) FROM actions WHERE game=$1 AND seat=$2", game_pk, seat))

    async def unrated_games(self, *, within: float = 7 * 86400) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games g WHERE status='finished' AND updated_at>=$1"
            " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game=g.id) ORDER BY id", time.time() - within)

    async def ended_followed_games(self) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE id IN (SELECT DISTINCT game FROM follows)"
            " AND status NOT IN ('lobby','running') ORDER BY id")

    async def due_games(self, now: float) -> list[GameRecord]:
        return await self._many_games(f"SELECT * FROM games WHERE {DUE} ORDER BY id", now)

    async def idle_lobbies(self, now: float) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE status='lobby' AND timeout_at IS NOT NULL AND timeout_at<=$1 ORDER BY id", now)

    async def user_dm(self, user_id: int) -> bool:
        return bool(await self.pool.fetchval("SELECT dm FROM user_prefs WHERE user_id=$1", user_id))

    # -- the scheduler's leases ------------------------------------------------------------------
    async def claim_due(self, now: float, *, owner: str, lease_seconds: float, limit: int = 100) -> list[GameRecord]:
        """Due games nobody holds a live lease on, now leased to `owner` until now +
        lease_seconds. Rows another process is claiming right now are skipped, not waited
        for (FOR UPDATE SKIP LOCKED): each due game goes to exactly one process."""
        async def body(conn: Conn) -> list[GameRecord]:
            ids = await conn.fetch(
                f"UPDATE games SET lease_owner=$2, lease_until=$3 WHERE id IN ("
                f"SELECT id FROM games WHERE {DUE} AND paused_at IS NULL AND (lease_until IS NULL OR lease_until<=$1)"
                f" ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING id",
                now, owner, now + lease_seconds, limit)
            return await self._games_on(conn, "SELECT * FROM games WHERE id = ANY($1::bigint[]) ORDER BY id",
                                        [r["id"] for r in ids])

        return await self._write(body)

    async def release_lease(self, game_pk: int, *, owner: str) -> None:
        await self.pool.execute("UPDATE games SET lease_owner=NULL, lease_until=NULL WHERE id=$1 AND lease_owner=$2",
                                game_pk, owner)

    async def expire_leases(self, owner: str) -> None:
        await self.pool.execute("UPDATE games SET lease_owner=NULL, lease_until=NULL WHERE lease_owner=$1", owner)

    async def lease_owners(self, now: float) -> set[str]:
        rows = await self.pool.fetch(
            "SELECT DISTINCT lease_owner FROM games WHERE lease_owner IS NOT NULL AND lease_until>$1", now)
        return {str(r[0]) for r in rows}

    # -- writing ---------------------------------------------------------------------------------
    @staticmethod
    async def _write_seats(conn: Conn, game: GameRecord) -> None:
        await conn.execute("DELETE FROM seats WHERE game=$1", game.id)
        await conn.executemany(
            "INSERT INTO seats (game, position, seat, user_id, name, is_bot, dm, lang)"
            " VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
            [(game.id, s.position, s.seat, s.user_id, s.name, _int(s.is_bot), _int(s.dm), s.lang)
             for s in game.seats])

    async def create_game(self, *, channel_id: int, guild_id: int | None, game_id: str, host: SeatRecord,
                          options: dict[str, Any], settings: dict[str, Any], seed: int,
                          expires_at: float | None = None, announce_at: float | None = None) -> GameRecord:
        now = time.time()

        async def body(conn: Conn) -> GameRecord:
            game_pk = await conn.fetchval(
                "INSERT INTO games (channel_id, guild_id, game_id, status, version, options, settings, seed,"
                " host_id, created_at, updated_at, timeout_at, announce_due)"
                " VALUES ($1,$2,$3,'lobby',0,$4,$5,$6,$7,$8,$8,$9,$10) RETURNING id",
                channel_id, guild_id, game_id, dumps(options), dumps(settings), seed, host.user_id, now, expires_at,
                announce_at)
            game = GameRecord(id=game_pk, channel_id=channel_id, guild_id=guild_id, game_id=game_id, status="lobby",
                              version=0, state=None, options=options, settings=settings, seed=seed,
                              host_id=host.user_id, created_at=now, updated_at=now, timeout_at=expires_at,
                              seats=[host], announce_due=announce_at)
            await self._write_seats(conn, game)
            return game

        try:
            return await self._write(body)
        except asyncpg.UniqueViolationError as exc:
            raise ChannelBusy(str(exc)) from exc

    async def save_lobby(self, game: GameRecord, *, expected_version: int) -> int:
        async def body(conn: Conn) -> None:
            done = await conn.execute(
                "UPDATE games SET status=$1, options=$2, settings=$3, state=$4, version=version+1, updated_at=$5,"
                " remind_at=$6, timeout_at=$7, host_id=$8, ai_pending=$9, announce_due=$12, announce_tries=0"
                " WHERE id=$10 AND version=$11",
                game.status, dumps(game.options), dumps(game.settings),
                dumps(game.state) if game.state is not None else None, time.time(), game.remind_at,
                game.timeout_at, game.host_id, _int(game.ai_pending and game.status == "running"), game.id,
                expected_version, game.announce_due)
            if done != "UPDATE 1":
                raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
            await self._write_seats(conn, game)

        try:
            await self._write(body)
        except asyncpg.UniqueViolationError as exc:  # a cancelled game brought back while the channel has another
            raise ChannelBusy(str(exc)) from exc
        game.version = expected_version + 1
        return game.version

    async def save_settings(self, game: GameRecord, *, user_pref: tuple[int, bool] | None = None) -> None:
        async def body(conn: Conn) -> None:
            await conn.execute("UPDATE games SET settings=$1, remind_at=$2, timeout_at=$3 WHERE id=$4",
                               dumps(game.settings), game.remind_at, game.timeout_at, game.id)
            await conn.executemany("UPDATE seats SET dm=$1 WHERE game=$2 AND position=$3",
                                   [(_int(s.dm), game.id, s.position) for s in game.seats])
            if user_pref is not None:
                await self._write_user_pref(conn, *user_pref)

        await self._write(body)

    async def commit_action(self, game: GameRecord, *, expected_version: int, seat: str, action: dict[str, Any],
                            events: list[dict[str, Any]], state: dict[str, Any], status: str, actor: str,
                            remind_at: float | None, timeout_at: float | None, ai_pending: bool = False,
                            announce_at: float | None = None) -> int:
        now = time.time()
        pending = _int(ai_pending and status == "running")
        new_version = expected_version + 1
        params = (dumps(state), status, new_version, now, remind_at, timeout_at, pending, game.id, expected_version,
                  seat, dumps(action), dumps(events), actor, announce_at)

        async def run() -> bool:
            # one statement, so one implicit transaction and one round trip: the log row is
            # inserted only if the conditional UPDATE changed the game. A second writer of the
            # same version waits on the row's lock, then finds the version changed and updates
            # (so logs) nothing: exactly one of them commits.
            done = await self.pool.execute(
                "WITH moved AS (UPDATE games SET state=$1, status=$2, version=$3, updated_at=$4, remind_at=$5,"
                " timeout_at=$6, ai_pending=$7, announce_due=$14, announce_tries=0 WHERE id=$8 AND version=$9"
                " RETURNING id)"
                " INSERT INTO actions (game, seq, seat, action, events, actor, at)"
                " SELECT moved.id, COALESCE((SELECT MAX(seq) FROM actions WHERE game=$8), 0) + 1, $10, $11, $12, $13,"
                " $4 FROM moved", *params)
            if done != "INSERT 0 1":
                return False
            game.follow_commit(new_version, state, status, remind_at, timeout_at, now, bool(pending), announce_at)
            return True

        if not await asyncio.shield(run()):
            raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
        return new_version

    async def set_ai_pending(self, game_pk: int, pending: bool, *, expected_version: int | None = None) -> None:
        done = await self.pool.execute(
            "UPDATE games SET ai_pending=$1 WHERE id=$2 AND ($3::bigint IS NULL OR version=$3)",
            _int(pending), game_pk, expected_version)
        if expected_version is not None and done != "UPDATE 1":
            raise VersionConflict(f"game {game_pk} is no longer at version {expected_version}")

    async def set_deadlines(self, game_pk: int, *, remind_at: float | None, timeout_at: float | None,
                            expected_version: int | None = None) -> None:
        done = await self.pool.execute(
            "UPDATE games SET remind_at=$1, timeout_at=$2 WHERE id=$3 AND ($4::bigint IS NULL OR version=$4)",
            remind_at, timeout_at, game_pk, expected_version)
        if expected_version is not None and done != "UPDATE 1":
            raise VersionConflict(f"game {game_pk} is no longer at version {expected_version}")

    async def set_user_pref(self, user_id: int, *, dm: bool | None = None) -> None:
        if dm is None:
            return
        await self._write(lambda conn: self._write_user_pref(conn, user_id, dm))

    @staticmethod
    async def _write_user_pref(conn: Conn, user_id: int, dm: bool) -> None:
        await conn.execute(
            "INSERT INTO user_prefs (user_id, dm) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET dm=excluded.dm",
            user_id, _int(dm))

    # -- announcements and paused games ----------------------------------------------------------
    async def announced(self, game_pk: int, version: int, *, copies_due: float | None = None) -> None:
        async def body(conn: Conn) -> None:
            await conn.execute(
                "UPDATE games SET announced_version=GREATEST(announced_version, $1), announce_tries=0,"
                " announce_due=CASE WHEN version<=$1 THEN NULL ELSE announce_due END WHERE id=$2", version, game_pk)
            if copies_due is not None:
                await conn.execute(
                    "UPDATE follows SET copy_due=COALESCE(copy_due, $1) WHERE game=$2 AND copied_version<$3",
                    copies_due, game_pk, version)

        await self._write(body)

    async def announce_failed(self, game_pk: int, version: int, retry_at: float) -> None:
        await self.pool.execute(
            "UPDATE games SET announce_due=$1, announce_tries=announce_tries+1 WHERE id=$2 AND version=$3",
            retry_at, game_pk, version)

    async def due_announcements(self, now: float, *, limit: int = 50) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE announce_due IS NOT NULL AND announce_due<=$1 AND paused_at IS NULL"
            " AND status IN ('lobby','running','finished') ORDER BY announce_due LIMIT $2", now, limit)

    async def claim_announcement(self, game_pk: int, due: float, until: float) -> bool:
        done = await self.pool.execute("UPDATE games SET announce_due=$1 WHERE id=$2 AND announce_due=$3",
                                       until, game_pk, due)
        return bool(done == "UPDATE 1")

    async def pause_games(self, *, at: float, channel_id: int | None = None,
                          guild_id: int | None = None) -> list[GameRecord]:
        async def body(conn: Conn) -> list[GameRecord]:
            ids = await conn.fetch(
                "UPDATE games SET paused_at=$1 WHERE status IN ('lobby','running') AND paused_at IS NULL"
                " AND (channel_id=$2 OR guild_id=$3) RETURNING id", at, channel_id, guild_id)
            return await self._games_on(conn, "SELECT * FROM games WHERE id = ANY($1::bigint[]) ORDER BY id",
                                        [r["id"] for r in ids])

        return await self._write(body)

    async def resume_games(self, guild_id: int, channel_ids: list[int], *, announce_at: float) -> list[GameRecord]:
        async def body(conn: Conn) -> list[GameRecord]:
            ids = await conn.fetch(
                "UPDATE games SET paused_at=NULL, announce_due=$1 WHERE paused_at IS NOT NULL AND guild_id=$2"
                " AND channel_id = ANY($3::bigint[]) AND status IN ('lobby','running') RETURNING id",
                announce_at, guild_id, list(channel_ids))
            return await self._games_on(conn, "SELECT * FROM games WHERE id = ANY($1::bigint[]) ORDER BY id",
                                        [r["id"] for r in ids])

        return await self._write(body) if channel_ids else []

    async def paused_games(self, before: float) -> list[GameRecord]:
        return await self._many_games(
            "SELECT * FROM games WHERE paused_at IS NOT NULL AND paused_at<=$1 AND status IN ('lobby','running')"
            " ORDER BY id", before)

    # -- followers' copies -------------------------------------------------------------------------
    async def copied(self, game_pk: int, user_id: int, version: int) -> None:
        await self.pool.execute("UPDATE follows SET copied_version=GREATEST(copied_version, $1), copy_tries=0,"
                                " copy_due=NULL WHERE game=$2 AND user_id=$3", version, game_pk, user_id)

    async def copy_failed(self, game_pk: int, user_id: int, retry_at: float) -> None:
        await self.pool.execute("UPDATE follows SET copy_due=$1, copy_tries=copy_tries+1 WHERE game=$2 AND user_id=$3",
                                retry_at, game_pk, user_id)

    async def owed_copies(self, now: float, *, until: float, limit: int = 50) -> list[tuple[Follow, int]]:
        async def body(conn: Conn) -> list[tuple[Follow, int]]:
            rows = await conn.fetch(
                "UPDATE follows SET copy_due=$2 WHERE (game, user_id) IN (SELECT f.game, f.user_id FROM follows f"
                " JOIN games g ON g.id=f.game WHERE f.copy_due IS NOT NULL AND f.copy_due<=$1"
                " AND f.copied_version<g.announced_version AND g.status IN ('running','finished')"
                " AND g.paused_at IS NULL ORDER BY f.copy_due LIMIT $3 FOR UPDATE OF f SKIP LOCKED)"
                " RETURNING game, user_id, name, thread_id, copy_tries", now, until, limit)
            return [(Follow(r["game"], r["user_id"], r["name"], r["thread_id"]), r["copy_tries"]) for r in rows]

        return await self._write(body)

