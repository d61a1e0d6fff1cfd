"""Ratings, results and followers on SQLite (`SocialStore`). SQLite's single writer (BEGIN
IMMEDIATE) keeps two processes' rating updates and follow limits apart by itself: each is one
transaction, read and write together."""

from __future__ import annotations

import sqlite3
import time

from bot.store.records import BestResult, Follow, GameResult, PlayerStats, RateFn, Rating, RatingRow
from bot.store.sqlite.connection import SQLiteConnection

_FOLLOWS_SQL = "SELECT game, user_id, name, thread_id FROM follows WHERE game=? ORDER BY created_at, user_id"


def _rating_row(r: sqlite3.Row) -> RatingRow:
    return RatingRow(player=r["player"], name=r["name"], game_id=r["game_id"], mu=r["mu"], sigma=r["sigma"],
                     games=r["games"], wins=r["wins"])


def _follows(conn: sqlite3.Connection, game_pk: int) -> list[Follow]:
    return [Follow(r["game"], r["user_id"], r["name"], r["thread_id"])
            for r in conn.execute(_FOLLOWS_SQL, (game_pk,)).fetchall()]


def _player_stats(conn: sqlite3.Connection, scope: str, player: str) -> PlayerStats:
    ratings = [_rating_row(r) for r in conn.execute(
        "SELECT * FROM ratings WHERE scope=? AND player=? ORDER BY games DESC, game_id", (scope, player)).fetchall()]
    best = conn.execute(
        "SELECT g.game_id, s.rank, g.players, s.score FROM result_seats s JOIN game_results g ON g.game=s.game"
        " WHERE s.player=? AND g.scope=? ORDER BY s.rank, g.players DESC, g.finished_at DESC LIMIT 1",
        (player, scope)).fetchone()
    return PlayerStats(
        games=sum(r.games for r in ratings), wins=sum(r.wins for r in ratings),
        per_game={r.game_id: r.games for r in ratings}, ratings=ratings,
        best=BestResult(best["game_id"], best["rank"], best["players"], best["score"]) if best else None)


def _leaderboard(conn: sqlite3.Connection, scope: str, game_id: str, min_games: int, limit: int) -> list[RatingRow]:
    return [_rating_row(r) for r in conn.execute(
        "SELECT * FROM ratings WHERE scope=? AND game_id=? AND games>=? ORDER BY mu - 3 * sigma DESC, games DESC,"
        " name LIMIT ?", (scope, game_id, min_games, limit)).fetchall()]


class SQLiteSocial(SQLiteConnection):
    """The social part of `SQLiteStore`."""

    async def record_result(self, result: GameResult, rate: RateFn) -> bool:
        players = list(dict.fromkeys(e.player for e in result.entries))
        now = time.time()

        def body(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "INSERT OR IGNORE INTO game_results (game, scope, game_id, players, finished_at) VALUES (?,?,?,?,?)",
                (result.game_pk, result.scope, result.game_id, len(result.entries), result.finished_at))
            if cursor.rowcount != 1:
                return False  # rated before: the game is the key
            marks = ",".join("?" * len(players))
            rows = conn.execute(
                f"SELECT player, mu, sigma FROM ratings WHERE scope=? AND game_id=? AND player IN ({marks})",
                (result.scope, result.game_id, *players)).fetchall()
            found = {r["player"]: Rating(r["mu"], r["sigma"]) for r in rows}
            after = rate({p: found.get(p) for p in players})
            for player in players:
                mine = [e for e in result.entries if e.player == player]
                conn.execute(
                    "INSERT INTO ratings (scope, game_id, player, name, mu, sigma, games, wins, updated_at)"
                    " VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT(scope, game_id, player) DO UPDATE SET"
                    " name=excluded.name, mu=excluded.mu, sigma=excluded.sigma, games=games+1,"
                    " wins=wins+excluded.wins, updated_at=excluded.updated_at",
                    (result.scope, result.game_id, player, mine[0].name, after[player].mu, after[player].sigma,
                     int(any(e.rank == 1 for e in mine)), now))
            conn.executemany(
                "INSERT INTO result_seats (game, seat, player, name, rank, score, mu, sigma) VALUES (?,?,?,?,?,?,?,?)",
                [(result.game_pk, e.seat, e.player, e.name, e.rank, e.score, after[e.player].mu,
                  after[e.player].sigma) for e in result.entries])
            return True

        return await self._write(body)

    async def player_stats(self, scope: str, player: str) -> PlayerStats:
        return await self.on_thread(_player_stats, scope, player)

    async def leaderboard(self, scope: str, game_id: str, *, min_games: int, limit: int = 10) -> list[RatingRow]:
        return await self.on_thread(_leaderboard, scope, game_id, min_games, limit)

    # -- followers ------------------------------------------------------------------------------
    async def set_follow(self, follow: Follow, *, limit: int) -> bool:
        def body(conn: sqlite3.Connection) -> bool:
            others = conn.execute("SELECT COUNT(*) FROM follows WHERE game=? AND user_id<>?",
                                  (follow.game_pk, follow.user_id)).fetchone()[0]
            if others >= limit:
                return False
            conn.execute(
                "INSERT INTO follows (game, user_id, name, thread_id, created_at) VALUES (?,?,?,?,?)"
                " ON CONFLICT(game, user_id) DO UPDATE SET name=excluded.name, thread_id=excluded.thread_id",
                (follow.game_pk, follow.user_id, follow.name, follow.thread_id, time.time()))
            return True

        return await self._write(body)

    async def remove_follow(self, game_pk: int, user_id: int) -> bool:
        def body(conn: sqlite3.Connection) -> bool:
            return conn.execute("DELETE FROM follows WHERE game=? AND user_id=?", (game_pk, user_id)).rowcount > 0

        return await self._write(body)

    async def follows(self, game_pk: int) -> list[Follow]:
        return await self.on_thread(_follows, game_pk)

    async def end_follows(self, game_pk: int) -> list[Follow]:
        def body(conn: sqlite3.Connection) -> list[Follow]:
            ended = _follows(conn, game_pk)
            conn.execute("DELETE FROM follows WHERE game=?", (game_pk,))
            return ended

        return await self._write(body)
