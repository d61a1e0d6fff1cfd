"""The social store (migration 6: results, ratings, followers) on both backends, and across
processes: two stores on one database, each in a thread with its own event loop (as two bot
processes are), finishing or recovering games at the same moment. A game is rated exactly
once, two games of one server never rate from the same stale ratings, and a follow limit
holds when the last places are taken at once."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from bot.replies import Reply
from bot.service import TableService
from bot.settings import Settings
from bot.store import Follow, GameRecord, GameResult, Rating, ResultEntry, SeatRecord, Store, store_from_url
from tests.conftest import ALICE, BACKENDS, EVE, HERE, Clock

T = TypeVar("T")
SCOPE = "guild:10"
BIG = 2**62 + 12345  # a Discord snowflake needs 64 bits
HOST = SeatRecord(position=0, user_id=1, name="Alice")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def finished_game(store: Store, channel_id: int) -> GameRecord:
    game = await store.create_game(channel_id=channel_id, guild_id=10, game_id="countdown", host=HOST, options={},
                                   settings={}, seed=1)
    game.status = "finished"
    await store.save_lobby(game, expected_version=game.version)
    return game


def result(game_pk: int) -> GameResult:
    return GameResult(game_pk=game_pk, scope=SCOPE, game_id="countdown", finished_at=1.0,
                      entries=(ResultEntry("p1", "user:1", "Alice", 1, 3.0), ResultEntry("p2", "user:2", "Bob", 2)))


def plus_one(seen: list[dict[str, Rating | None]], pause: float = 0.0) -> Callable[..., dict[str, Rating]]:
    """A rating function that notes what it was given, waits (holding the transaction open),
    and adds 1 to each mu: the final mu counts the updates that built on each other."""
    def rate(before: dict[str, Rating | None]) -> dict[str, Rating]:
        seen.append(dict(before))
        time.sleep(pause)
        return {p: Rating((r.mu if r else 25.0) + 1, 8.0) for p, r in before.items()}

    return rate


async def as_other_processes(url: str, *work: Callable[[Store], Awaitable[T]]) -> list[T]:
    """Each `work(store)` on a store of its own, in a thread with its own event loop, started together."""
    start = threading.Barrier(len(work))

    def run(fn: Callable[[Store], Awaitable[T]]) -> T:
        async def main() -> T:
            store = store_from_url(url)
            await store.open()
            try:
                await asyncio.to_thread(start.wait)
                return await fn(store)
            finally:
                await store.close()

        return asyncio.run(main())

    return list(await asyncio.gather(*(asyncio.to_thread(run, fn) for fn in work)))


async def test_results_ratings_stats_and_leaderboard_round_trip(store: Store) -> None:
    game = await finished_game(store, 100)
    assert [g.id for g in await store.unrated_games(within=10**10)] == [game.id]
    seen: list[dict[str, Rating | None]] = []
    assert await store.record_result(result(game.id), plus_one(seen))
    assert seen == [{"user:1": None, "user:2": None}]
    assert await store.unrated_games(within=10**10) == []
    stats = await store.player_stats(SCOPE, "user:1")
    assert (stats.games, stats.wins, stats.per_game) == (1, 1, {"countdown": 1})
    assert stats.best is not None and (stats.best.rank, stats.best.players, stats.best.score) == (1, 2, 3.0)
    assert (await store.player_stats("guild:11", "user:1")).games == 0  # nothing crosses servers
    board = await store.leaderboard(SCOPE, "countdown", min_games=1)
    assert [(r.player, r.mu, r.games, r.wins) for r in board] == [("user:1", 26.0, 1, 1), ("user:2", 26.0, 1, 0)]
    assert await store.leaderboard(SCOPE, "countdown", min_games=2) == []


async def test_follows_round_trip_snowflakes_and_end_with_the_game(store: Store) -> None:
    game = await finished_game(store, 100)
    assert await store.set_follow(Follow(game.id, BIG, "Eve", thread_id=BIG + 1), limit=2)
    assert await store.set_follow(Follow(game.id, 7, "Dan"), limit=2)
    assert not await store.set_follow(Follow(game.id, 8, "Fay"), limit=2)  # full
    assert await store.set_follow(Follow(game.id, 7, "Dan", thread_id=5), limit=2)  # retargeting is not a new one
    assert await store.follows(game.id) == [Follow(game.id, BIG, "Eve", BIG + 1), Follow(game.id, 7, "Dan", 5)]
    assert [g.id for g in await store.ended_followed_games()] == [game.id]
    assert await store.remove_follow(game.id, 7) and not await store.remove_follow(game.id, 7)
    await store.end_follows(game.id)
    assert await store.follows(game.id) == [] and await store.ended_followed_games() == []


async def test_two_processes_rating_the_same_game_at_once_rate_it_once(store: Store, store_url: str) -> None:
    game = await finished_game(store, 100)
    seen: list[dict[str, Rating | None]] = []
    done = await as_other_processes(store_url, *[lambda s: s.record_result(result(game.id), plus_one(seen, 0.3))] * 2)
    assert sorted(done) == [False, True]
    stats = await store.player_stats(SCOPE, "user:1")
    assert (stats.games, stats.ratings[0].mu) == (1, 26.0)
    rows = await store.raw("SELECT COUNT(*) FROM result_seats WHERE game=?", (game.id,))  # type: ignore[attr-defined]
    assert rows == [(2,)]


async def test_two_games_of_one_server_rated_at_once_build_on_each_other(store: Store, store_url: str) -> None:
    """No lost update: the second rating reads the first one's result, whichever commits first."""
    games = [await finished_game(store, 100 + i) for i in range(2)]
    seen: list[dict[str, Rating | None]] = []
    work: list[Callable[[Store], Awaitable[Any]]] = [
        lambda s, g=g: s.record_result(result(g.id), plus_one(seen, 0.3)) for g in games]
    assert await as_other_processes(store_url, *work) == [True, True]
    assert sorted(seen, key=lambda b: b["user:1"] is not None) == [
        {"user:1": None, "user:2": None}, {"user:1": Rating(26.0, 8.0), "user:2": Rating(26.0, 8.0)}]
    stats = await store.player_stats(SCOPE, "user:1")
    assert (stats.games, stats.wins, stats.ratings[0].mu) == (2, 2, 27.0)


async def test_the_last_follow_place_taken_from_two_processes_goes_to_one(store: Store, store_url: str) -> None:
    game = await finished_game(store, 100)
    work: list[Callable[[Store], Awaitable[bool]]] = [
        lambda s, u=u: s.set_follow(Follow(game.id, u, f"User {u}"), limit=1) for u in range(BIG, BIG + 6)]
    assert sum(await as_other_processes(store_url, *work)) == 1
    assert len(await store.follows(game.id)) == 1


async def test_ending_follows_from_two_processes_at_once_tells_them_once(store: Store, store_url: str) -> None:
    """A game ends while another process's tick ends its follows too: one of them gets the
    followers (and sends the last copy), the other gets none."""
    game = await finished_game(store, 100)
    for user in (7, BIG):
        assert await store.set_follow(Follow(game.id, user, f"User {user}"), limit=5)
    ended = await as_other_processes(store_url, *[lambda s: s.end_follows(game.id)] * 4)
    assert sorted(len(e) for e in ended) == [0, 0, 0, 2]
    assert [f.user_id for e in ended for f in e] == [7, BIG]
    assert await store.follows(game.id) == [] and await store.end_follows(game.id) == []


async def test_two_processes_ticking_tell_a_cancelled_games_followers_once(fake_game: None, store: Store,
                                                                          store_url: str) -> None:
    """Through TableService: every process runs the scheduler, and each follower of a game
    that ended without a last copy gets the note once, not once per process."""
    first = TableService(store, Settings(), clock=Clock(), render_in_thread=False)
    await first.new_game(ALICE, HERE, "countdown", options="start=5")
    await first.follow(EVE, HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    record.status = "cancelled"
    await store.save_lobby(record, expected_version=record.version)

    async def tick(s: Store) -> list[Reply]:
        return await TableService(s, Settings(), clock=Clock(), render_in_thread=False).tick()

    told = [r for replies in await as_other_processes(store_url, *[tick] * 3) for r in replies
            if r.follow is not None]
    assert [(r.to, r.user_id) for r in told] == [("dm", EVE.id)]
