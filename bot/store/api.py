"""The store as the table service sees it: what each backend (`bot.store.sqlite`,
`bot.store.postgres`) must do, whatever the database. One action is one transaction that
appends to the log and writes the new state with a version check, so two racing clicks apply
once and the loser gets `VersionConflict`; one channel holds at most one active game."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from bot.store.records import (
    ActionRecord,
    Follow,
    GameRecord,
    GameResult,
    PlayerStats,
    RateFn,
    RatingRow,
    SeatRecord,
)


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

    # -- followers ---------------------------------------------------------------------------------
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


class Store(SocialStore, ABC):
    """What the table service needs from persistence."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create_game(self, *, channel_id: int, guild_id: int | None, game_id: str, host: SeatRecord,
                          options: dict[str, Any], settings: dict[str, Any], seed: int,
                          expires_at: float | None = None, announce_at: float | None = None) -> GameRecord:
        """A new lobby; `expires_at` (kept in `timeout_at`) is when it closes if idle;
        `announce_at`: when its message is posted again unless Discord accepted it before."""

    @abstractmethod
    async def active_game(self, channel_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def get_game(self, game_pk: int) -> GameRecord | None: ...

    @abstractmethod
    async def save_lobby(self, game: GameRecord, *, expected_version: int) -> int:
        """Write seats/options/settings/status of a game (lobby changes, settings, start,
        cancel) and the message it owes (`game.announce_due`); bumps the version. Returns the
        new version."""

    @abstractmethod
    async def save_settings(self, game: GameRecord, *, user_pref: tuple[int, bool] | None = None) -> None:
        """Write only settings, seats' DM choices and deadlines (and, in the same transaction,
        a user's DM preference). The version is not bumped: these change nothing in play, so
        the turn's buttons stay valid."""

    @abstractmethod
    async def commit_action(self, game: GameRecord, *, expected_version: int, seat: str, action: dict[str, Any],
                            events: list[dict[str, Any]], state: dict[str, Any], status: str, actor: str,
                            remind_at: float | None, timeout_at: float | None, ai_pending: bool = False,
                            announce_at: float | None = None) -> int:
        """Append one action to the log and write the new state, atomically, if the stored
        version is still `expected_version`; `announce_at`: the new state owes its channel a
        message, posted again then unless Discord accepted it before. Returns the new version."""

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

    # -- announcements: what a change owes its channel, until Discord accepted it --------------
    @abstractmethod
    async def announced(self, game_pk: int, version: int, *, copies_due: float | None = None) -> None:
        """Discord accepted the game's message of `version`: nothing is owed up to it. With
        `copies_due`: the followers who have no copy of that version yet are owed one then (unless
        their copy is reported sooner)."""

    @abstractmethod
    async def announce_failed(self, game_pk: int, version: int, retry_at: float) -> None:
        """The message of `version` was not delivered: it is owed again at `retry_at` (if the
        game is still at that version; a newer one owes its own)."""

    @abstractmethod
    async def due_announcements(self, now: float, *, limit: int = 50) -> list[GameRecord]:
        """Games (not paused) whose owed message is due now."""

    @abstractmethod
    async def claim_announcement(self, game_pk: int, due: float, until: float) -> bool:
        """Take the re-post of a game's message (its `announce_due` still `due`) until `until`:
        of two processes only one wins."""

    # -- games whose channel is gone -------------------------------------------------------------
    @abstractmethod
    async def pause_games(self, *, at: float, channel_id: int | None = None,
                          guild_id: int | None = None) -> list[GameRecord]:
        """Pause the active games of a channel (or of every channel of a server); returns them."""

    @abstractmethod
    async def resume_games(self, guild_id: int, channel_ids: list[int], *, announce_at: float) -> list[GameRecord]:
        """Resume the paused games of these channels of a server (their message is owed at once)."""

    @abstractmethod
    async def paused_games(self, before: float) -> list[GameRecord]:
        """Active games paused since before `before`."""

    # -- followers' copies, owed like the channel's messages ----------------------------------------
    @abstractmethod
    async def copied(self, game_pk: int, user_id: int, version: int) -> None:
        """The follower got their copy of `version`."""

    @abstractmethod
    async def copy_failed(self, game_pk: int, user_id: int, retry_at: float) -> None:
        """The follower's copy did not get through: owed again at `retry_at`."""

    @abstractmethod
    async def owed_copies(self, now: float, *, until: float, limit: int = 50) -> list[tuple[Follow, int]]:
        """Follows owed a copy now (the channel got a newer version than they did), each taken
        until `until` (another process skips them), with their failed attempts so far."""

