"""The store's social tables (migration 6): ratings per server and game, each finished
game's placings, and followers of a game. Kept apart from `bot.store` so that module
stays readable; `Store` and `SQLiteStore` take these methods in (`PostgresStore` has its
own, in `bot.store_pg`, on the same tables)."""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import aiosqlite

T = TypeVar("T")

# 6 (it follows migration 5 of another branch when merged): ratings per server and
# game, each finished game's placings (recorded once: the key is the game), and
# followers who get a copy of each public turn message
MIGRATION_6 = """
    CREATE TABLE game_results (
        game         INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        scope        TEXT    NOT NULL,
        game_id      TEXT    NOT NULL,
        players      INTEGER NOT NULL,
        finished_at  REAL    NOT NULL
    );
    CREATE TABLE result_seats (
        game    INTEGER NOT NULL REFERENCES game_results(game) ON DELETE CASCADE,
        seat    TEXT    NOT NULL,
        player  TEXT    NOT NULL,
        name    TEXT    NOT NULL,
        rank    INTEGER NOT NULL,
        score   REAL,
        mu      REAL    NOT NULL,
        sigma   REAL    NOT NULL,
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX result_seats_by_player ON result_seats(player, game);
    CREATE TABLE ratings (
        scope       TEXT    NOT NULL,
        game_id     TEXT    NOT NULL,
        player      TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        games       INTEGER NOT NULL DEFAULT 0,
        wins        INTEGER NOT NULL DEFAULT 0,
        updated_at  REAL    NOT NULL,
        PRIMARY KEY (scope, game_id, player)
    );
    CREATE INDEX ratings_by_player ON ratings(scope, player);
    CREATE INDEX games_finished ON games(updated_at) WHERE status='finished';
    CREATE TABLE follows (
        game        INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id     INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        thread_id   INTEGER,
        created_at  REAL    NOT NULL,
        PRIMARY KEY (game, user_id)
    );
    """


#: migration 6 in PostgreSQL's words (`bot.store_pg.PG_MIGRATIONS[5]`): the same tables,
#: columns and indexes; Discord ids are BIGINT
PG_MIGRATION_6 = """
    CREATE TABLE game_results (
        game         BIGINT  PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        scope        TEXT    NOT NULL,
        game_id      TEXT    NOT NULL,
        players      INTEGER NOT NULL,
        finished_at  DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE result_seats (
        game    BIGINT  NOT NULL REFERENCES game_results(game) ON DELETE CASCADE,
        seat    TEXT    NOT NULL,
        player  TEXT    NOT NULL,
        name    TEXT    NOT NULL,
        rank    INTEGER NOT NULL,
        score   DOUBLE PRECISION,
        mu      DOUBLE PRECISION NOT NULL,
        sigma   DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX result_seats_by_player ON result_seats(player, game);
    CREATE TABLE ratings (
        scope       TEXT    NOT NULL,
        game_id     TEXT    NOT NULL,
        player      TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        mu          DOUBLE PRECISION NOT NULL,
        sigma       DOUBLE PRECISION NOT NULL,
        games       INTEGER NOT NULL DEFAULT 0,
        wins        INTEGER NOT NULL DEFAULT 0,
        updated_at  DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (scope, game_id, player)
    );
    CREATE INDEX ratings_by_player ON ratings(scope, player);
    CREATE INDEX games_finished ON games(updated_at) WHERE status='finished';
    CREATE TABLE follows (
        game        BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id     BIGINT  NOT NULL,
        name        TEXT    NOT NULL,
        thread_id   BIGINT,
        created_at  DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, user_id)
    );
    """

@dataclass(frozen=True)
class ResultEntry:
    """One seat of a finished game as rated: `player` is `user:<id>` or `ai:<game>`."""

    seat: str
    player: str
    name: str
    rank: int
    score: float | None = None


@dataclass(frozen=True)
class GameResult:
    """A finished game's placings, rated once per (scope, game, player). `scope` is the
    server (`guild:<id>`, or `channel:<id>` outside any server): nothing crosses it."""

    game_pk: int
    scope: str
    game_id: str
    finished_at: float
    entries: tuple[ResultEntry, ...]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game on one server, with their record there."""

    player: str
    name: str
    game_id: str
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True)
class BestResult:
    game_id: str
    rank: int
    players: int
    score: float | None


@dataclass(frozen=True)
class PlayerStats:
    """What `/game stats` shows: counted over the player's rated games on one server."""

    games: int
    wins: int
    per_game: dict[str, int]  # game id -> games played
    ratings: list[RatingRow]
    best: BestResult | None


@dataclass(frozen=True)
class Follow:
    """Someone who gets a copy of each public turn message: by DM, or in `thread_id`."""

    game_pk: int
    user_id: int
    name: str
    thread_id: int | None = None


#: a function from the players' ratings before a game (None: never rated) to those after it
RateFn = Callable[[dict[str, "Rating | None"]], dict[str, Rating]]


class SocialStore(ABC):
    """Ratings and followers: what the table service needs of them from persistence."""

    @abstractmethod
    async def record_result(self, result: GameResult, rate: RateFn) -> bool:
        """Store a finished game's placings and its rating update in one transaction, once:
        `rate` gets the ratings before (read inside the transaction) and returns those after.
        False (and nothing written) when this game was recorded already."""

    @abstractmethod
    async def player_stats(self, scope: str, player: str) -> PlayerStats: ...

    @abstractmethod
    async def leaderboard(self, scope: str, game_id: str, *, min_games: int, limit: int = 10) -> list[RatingRow]:
        """The best `limit` players of a game on a server by conservative rating (mu - 3 sigma),
        among those with at least `min_games` rated games."""

    # -- followers (migration 6) --------------------------------------------------------
    @abstractmethod
    async def set_follow(self, follow: Follow, *, limit: int) -> bool:
        """Add or retarget a follow; False (nothing written) if the game has `limit` other followers."""

    @abstractmethod
    async def remove_follow(self, game_pk: int, user_id: int) -> bool:
        """End one follow; False when there was none."""

    @abstractmethod
    async def follows(self, game_pk: int) -> list[Follow]: ...

    @abstractmethod
    async def end_follows(self, game_pk: int) -> list[Follow]:
        """End every follow of a game; the follows ended, read and deleted in one transaction:
        when several processes end them at once, one gets them (and tells them), the others
        get nothing."""



class SQLiteSocial:
    """`SocialStore` on SQLite, part of `SQLiteStore` (which gives the connection and lock)."""

    if TYPE_CHECKING:
        _lock: asyncio.Lock

        @property
        def db(self) -> aiosqlite.Connection: ...

        async def _write(self, body: Callable[[], Awaitable[T]]) -> T: ...

    async def record_result(self, result: GameResult, rate: RateFn) -> bool:
        players = list(dict.fromkeys(e.player for e in result.entries))
        now = time.time()

        async def body() -> bool:
            cursor = await self.db.execute(
                "INSERT OR IGNORE INTO game_results (game, scope, game_id, players, finished_at) VALUES (?,?,?,?,?)",
                (result.game_pk, result.scope, result.game_id, len(result.entries), result.finished_at))
            if cursor.rowcount != 1:
                return False  # rated before: the game is the key
            marks = ",".join("?" * len(players))
            rows = await (await self.db.execute(
                f"SELECT player, mu, sigma FROM ratings WHERE scope=? AND game_id=? AND player IN ({marks})",
                (result.scope, result.game_id, *players))).fetchall()
            found = {r["player"]: Rating(r["mu"], r["sigma"]) for r in rows}
            after = rate({p: found.get(p) for p in players})
            for player in players:
                mine = [e for e in result.entries if e.player == player]
                await self.db.execute(
                    "INSERT INTO ratings (scope, game_id, player, name, mu, sigma, games, wins, updated_at)"
                    " VALUES (?,?,?,?,?,?,1,?,?) ON CONFLICT(scope, game_id, player) DO UPDATE SET"
                    " name=excluded.name, mu=excluded.mu, sigma=excluded.sigma, games=games+1,"
                    " wins=wins+excluded.wins, updated_at=excluded.updated_at",
                    (result.scope, result.game_id, player, mine[0].name, after[player].mu, after[player].sigma,
                     int(any(e.rank == 1 for e in mine)), now))
            await self.db.executemany(
                "INSERT INTO result_seats (game, seat, player, name, rank, score, mu, sigma) VALUES (?,?,?,?,?,?,?,?)",
                [(result.game_pk, e.seat, e.player, e.name, e.rank, e.score, after[e.player].mu,
                  after[e.player].sigma) for e in result.entries])
            return True

        return await self._write(body)

    @staticmethod
    def _rating_row(r: aiosqlite.Row) -> RatingRow:
        return RatingRow(player=r["player"], name=r["name"], game_id=r["game_id"], mu=r["mu"], sigma=r["sigma"],
                         games=r["games"], wins=r["wins"])

    async def player_stats(self, scope: str, player: str) -> PlayerStats:
        async with self._lock:
            rows = await (await self.db.execute(
                "SELECT * FROM ratings WHERE scope=? AND player=? ORDER BY games DESC, game_id",
                (scope, player))).fetchall()
            best = await (await self.db.execute(
                "SELECT g.game_id, s.rank, g.players, s.score FROM result_seats s JOIN game_results g ON g.game=s.game"
                " WHERE s.player=? AND g.scope=? ORDER BY s.rank, g.players DESC, g.finished_at DESC LIMIT 1",
                (player, scope))).fetchone()
        ratings = [self._rating_row(r) for r in rows]
        return PlayerStats(
            games=sum(r.games for r in ratings), wins=sum(r.wins for r in ratings),
            per_game={r.game_id: r.games for r in ratings}, ratings=ratings,
            best=BestResult(best["game_id"], best["rank"], best["players"], best["score"]) if best else None)

    async def leaderboard(self, scope: str, game_id: str, *, min_games: int, limit: int = 10) -> list[RatingRow]:
        async with self._lock:
            rows = await (await self.db.execute(
                "SELECT * FROM ratings WHERE scope=? AND game_id=? AND games>=?"
                " ORDER BY mu - 3 * sigma DESC, games DESC, name LIMIT ?",
                (scope, game_id, min_games, limit))).fetchall()
        return [self._rating_row(r) for r in rows]

    # -- followers ----------------------------------------------------------------------
    async def set_follow(self, follow: Follow, *, limit: int) -> bool:
        async def body() -> bool:
            row = await (await self.db.execute("SELECT COUNT(*) FROM follows WHERE game=? AND user_id<>?",
                                               (follow.game_pk, follow.user_id))).fetchone()
            if row is not None and row[0] >= limit:
                return False
            await self.db.execute(
                "INSERT INTO follows (game, user_id, name, thread_id, created_at) VALUES (?,?,?,?,?)"
                " ON CONFLICT(game, user_id) DO UPDATE SET name=excluded.name, thread_id=excluded.thread_id",
                (follow.game_pk, follow.user_id, follow.name, follow.thread_id, time.time()))
            return True

        return await self._write(body)

    async def remove_follow(self, game_pk: int, user_id: int) -> bool:
        async def body() -> bool:
            cursor = await self.db.execute("DELETE FROM follows WHERE game=? AND user_id=?", (game_pk, user_id))
            return cursor.rowcount > 0

        return await self._write(body)

    async def follows(self, game_pk: int) -> list[Follow]:
        async with self._lock:
            return await self._follows(game_pk)

    async def _follows(self, game_pk: int) -> list[Follow]:
        rows = await (await self.db.execute(
            "SELECT game, user_id, name, thread_id FROM follows WHERE game=? ORDER BY created_at, user_id",
            (game_pk,))).fetchall()
        return [Follow(r["game"], r["user_id"], r["name"], r["thread_id"]) for r in rows]

    async def end_follows(self, game_pk: int) -> list[Follow]:
        async def body() -> list[Follow]:
            ended = await self._follows(game_pk)
            await self.db.execute("DELETE FROM follows WHERE game=?", (game_pk,))
            return ended

        return await self._write(body)
