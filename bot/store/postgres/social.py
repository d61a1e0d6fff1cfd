"""Ratings, results and followers on PostgreSQL (`SocialStore`).

Several bot processes may finish, recover or rate the same game at once, and two games of
one server may end together. SQLite's single writer (BEGIN IMMEDIATE) keeps such
transactions apart by itself; here the database's locks do: the result row's primary key
makes a game's rating happen once (a second inserter waits for the first to commit, then
inserts nothing), and a transaction-level advisory lock per (server, game) makes two games'
rating updates run one after the other, so neither reads ratings the other is about to
replace. A follow's limit is checked under an advisory lock per game for the same reason.
"""

from __future__ import annotations

import time

import asyncpg

from bot.store.postgres.connection import Conn, PostgresConnection
from bot.store.records import BestResult, Follow, GameResult, PlayerStats, RateFn, Rating, RatingRow

#: first keys of the two-key advisory locks (the second is the scope's hash or the game id):
#: apart from `connection.MIGRATION_LOCK`, which uses the one-key form
RATING_LOCK = 7_236_002
FOLLOW_LOCK = 7_236_003


class PostgresSocial(PostgresConnection):
    """The social part of `PostgresStore`."""

    async def record_result(self, result: GameResult, rate: RateFn) -> bool:
        players = list(dict.fromkeys(e.player for e in result.entries))
        now = time.time()

        async def body(conn: Conn) -> bool:
            # one rating update per (server, game) at a time; taken before the result row, so
            # the lock order is the same in every transaction
            await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", RATING_LOCK,
                               f"{result.scope}\n{result.game_id}")
            inserted = await conn.fetchval(
                "INSERT INTO game_results (game, scope, game_id, players, finished_at) VALUES ($1,$2,$3,$4,$5)"
                " ON CONFLICT (game) DO NOTHING RETURNING game",
                result.game_pk, result.scope, result.game_id, len(result.entries), result.finished_at)
            if inserted is None:
                return False  # rated before (maybe by another process just now): the game is the key
            rows = await conn.fetch(
                "SELECT player, mu, sigma FROM ratings WHERE scope=$1 AND game_id=$2 AND player = ANY($3::text[])",
                result.scope, result.game_id, players)
            found = {r["player"]: Rating(r["mu"], r["sigma"]) for r in rows}
            after = rate({p: found.get(p) for p in players})
            for player in players:
                mine = [e for e in result.entries if e.player == player]
                await conn.execute(
                    "INSERT INTO ratings (scope, game_id, player, name, mu, sigma, games, wins, updated_at)"
                    " VALUES ($1,$2,$3,$4,$5,$6,1,$7,$8) ON CONFLICT (scope, game_id, player) DO UPDATE SET"
                    " name=excluded.name, mu=excluded.mu, sigma=excluded.sigma, games=ratings.games+1,"
                    " wins=ratings.wins+excluded.wins, updated_at=excluded.updated_at",
                    result.scope, result.game_id, player, mine[0].name, after[player].mu, after[player].sigma,
                    1 if any(e.rank == 1 for e in mine) else 0, now)
            await conn.executemany(
                "INSERT INTO result_seats (game, seat, player, name, rank, score, mu, sigma)"
                " VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
                [(result.game_pk, e.seat, e.player, e.name, e.rank, e.score, after[e.player].mu,
                  after[e.player].sigma) for e in result.entries])
            return True

        return await self._write(body)

    @staticmethod
    def _rating_row(r: asyncpg.Record) -> RatingRow:
        return RatingRow(player=r["player"], name=r["name"], game_id=r["game_id"], mu=r["mu"], sigma=r["sigma"],
                         games=r["games"], wins=r["wins"])

    async def player_stats(self, scope: str, player: str) -> PlayerStats:
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            rows = await conn.fetch("SELECT * FROM ratings WHERE scope=$1 AND player=$2 ORDER BY games DESC, game_id",
                                    scope, player)
            best = await conn.fetchrow(
                "SELECT g.game_id, s.rank, g.players, s.score FROM result_seats s JOIN game_results g ON g.game=s.game"
                " WHERE s.player=$1 AND g.scope=$2 ORDER BY s.rank, g.players DESC, g.finished_at DESC LIMIT 1",
                player, scope)
        ratings = [self._rating_row(r) for r in rows]
        return PlayerStats(
            games=sum(r.games for r in ratings), wins=sum(r.wins for r in ratings),
            per_game={r.game_id: r.games for r in ratings}, ratings=ratings,
            best=BestResult(best["game_id"], best["rank"], best["players"], best["score"]) if best else None)

    async def leaderboard(self, scope: str, game_id: str, *, min_games: int, limit: int = 10) -> list[RatingRow]:
        rows = await self.pool.fetch(
            "SELECT * FROM ratings WHERE scope=$1 AND game_id=$2 AND games>=$3"
            " ORDER BY mu - 3 * sigma DESC, games DESC, name LIMIT $4", scope, game_id, min_games, limit)
        return [self._rating_row(r) for r in rows]

    # -- followers -------------------------------------------------------------------------------
    async def set_follow(self, follow: Follow, *, limit: int) -> bool:
        async def body(conn: Conn) -> bool:
            # two processes adding the last allowed follower at once: one counts after the other
            await conn.execute("SELECT pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::integer)",
                               FOLLOW_LOCK, follow.game_pk)
            others = await conn.fetchval("SELECT COUNT(*) FROM follows WHERE game=$1 AND user_id<>$2",
                                         follow.game_pk, follow.user_id)
            if others >= limit:
                return False
            await conn.execute(
                "INSERT INTO follows (game, user_id, name, thread_id, created_at) VALUES ($1,$2,$3,$4,$5)"
                " ON CONFLICT (game, user_id) DO UPDATE SET name=excluded.name, thread_id=excluded.thread_id",
                follow.game_pk, follow.user_id, follow.name, follow.thread_id, time.time())
            return True

        return await self._write(body)

    async def remove_follow(self, game_pk: int, user_id: int) -> bool:
        done = await self.pool.execute("DELETE FROM follows WHERE game=$1 AND user_id=$2", game_pk, user_id)
        return done != "DELETE 0"

    async def follows(self, game_pk: int) -> list[Follow]:
        rows = await self.pool.fetch(
            "SELECT game, user_id, name, thread_id FROM follows WHERE game=$1 ORDER BY created_at, user_id", game_pk)
        return [Follow(r["game"], r["user_id"], r["name"], r["thread_id"]) for r in rows]

    async def end_follows(self, game_pk: int) -> list[Follow]:
        # rows another process deletes at the same time are its own: DELETE … RETURNING
        # waits for it and then returns none of them
        rows = await self.pool.fetch("DELETE FROM follows WHERE game=$1 RETURNING game, user_id, name, thread_id,"
                                     " created_at", game_pk)
        ordered = sorted(rows, key=lambda r: (r["created_at"], r["user_id"]))
        return [Follow(r["game"], r["user_id"], r["name"], r["thread_id"]) for r in ordered]
