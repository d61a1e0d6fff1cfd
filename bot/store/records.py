"""What the store hands out and takes in: plain records of games, seats, moves, results,
ratings and followers, and the store's own errors. Both backends build the same records, so
nothing above the store knows which database it runs on."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ACTIVE_STATUSES = ("lobby", "running")


class StoreError(Exception):
    """Base of the store's own errors."""


class ChannelBusy(StoreError):
    """The channel already holds a game in the lobby or running."""


class VersionConflict(StoreError):
    """Someone else changed the game since the caller read it."""


# -- games -----------------------------------------------------------------------------------
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
    #: when the message this game owes its channel is (re)posted unless Discord accepted it
    #: before (None: nothing owed); written in the same transaction as the change that owes it
    announce_due: float | None = None
    #: the newest version of the game whose message Discord accepted
    announced_version: int = 0
    #: failed attempts at the owed message since the last one accepted (the backoff grows)
    announce_tries: int = 0
    #: when the game's channel (or the bot's place in the server) was found gone: no
    #: reminders, stand-ins or messages until it is back
    paused_at: float | None = None

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
            ai_pending=bool(row["ai_pending"]), announce_due=row["announce_due"],
            announced_version=row["announced_version"], announce_tries=row["announce_tries"],
            paused_at=row["paused_at"],
        )

    def follow_commit(self, version: int, state: dict[str, Any], status: str, remind_at: float | None,
                      timeout_at: float | None, updated_at: float, ai_pending: bool,
                      announce_due: float | None = None) -> None:
        """The record follows the row `commit_action` wrote (even if its caller was cancelled
        after the commit)."""
        self.announce_due, self.announce_tries = announce_due, 0
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


# -- results, ratings, followers ---------------------------------------------------------------
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


#: a function from the players' ratings before a game (None: never rated) to those after it;
#: pure, since a backend may call it on its own thread inside the rating's transaction
RateFn = Callable[[dict[str, "Rating | None"]], dict[str, Rating]]
