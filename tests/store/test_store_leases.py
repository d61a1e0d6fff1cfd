"""The scheduler's leases (`Store.claim_due`), on SQLite and on PostgreSQL: a due game goes to
one claimer at a time; a lease runs out by itself (a crashed process) or is given back;
leases change neither the version nor what is due."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest

from bot.store import GameRecord, SeatRecord, Store, store_from_url
from bot.table.tables import dead_here as _dead_here
from tests.conftest import BACKENDS

HOST = SeatRecord(position=0, user_id=1, name="Alice")
NOW = 1_000_000.0


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def other(store_url: str) -> AsyncIterator[Store]:
    """A second store on the same database: another bot process."""
    s = store_from_url(store_url)
    await s.open()
    yield s
    await s.close()


async def due_game(s: Store, channel: int, *, remind_at: float | None = NOW - 1) -> GameRecord:
    game = await s.create_game(channel_id=channel, guild_id=None, game_id="detour", host=HOST, options={},
                               settings={}, seed=1)
    game.status, game.state, game.remind_at = "running", {"n": 0}, remind_at
    await s.save_lobby(game, expected_version=0)
    return game


async def test_a_claimed_game_is_nobody_elses_until_its_lease_ends(store: Store, other: Store) -> None:
    game = await due_game(store, 1)
    await due_game(store, 2, remind_at=NOW + 100)  # not due
    claimed = await store.claim_due(NOW, owner="a", lease_seconds=60)
    assert [g.id for g in claimed] == [game.id] and claimed[0].seats == [HOST]
    assert await other.claim_due(NOW, owner="b", lease_seconds=60) == []
    assert await store.claim_due(NOW + 59, owner="a", lease_seconds=60) == []  # not twice for its owner either
    assert await store.lease_owners(NOW) == {"a"}
    # the lease runs out (its process died): another claims the game
    assert [g.id for g in await other.claim_due(NOW + 60, owner="b", lease_seconds=60)] == [game.id]
    assert await store.lease_owners(NOW + 61) == {"b"}
    # given back: claimable at once; a lease someone else holds is not given back by a stranger
    await other.release_lease(game.id, owner="a")
    assert await store.claim_due(NOW + 61, owner="a", lease_seconds=60) == []
    await other.release_lease(game.id, owner="b")
    assert [g.id for g in await store.claim_due(NOW + 61, owner="a", lease_seconds=60)] == [game.id]
    await other.expire_leases("a")
    assert await store.lease_owners(NOW + 61) == set()
    # leases bump no version and leave the game due
    stored = await store.get_game(game.id)
    assert stored is not None and stored.version == game.version
    assert [g.id for g in await store.due_games(NOW)] == [game.id]


async def test_racing_claims_share_the_due_games_without_overlap(store: Store, other: Store) -> None:
    games = [await due_game(store, channel) for channel in range(1, 31)]
    rounds = await asyncio.gather(*(s.claim_due(NOW, owner=f"o{i}", lease_seconds=60, limit=7)
                                    for i, s in enumerate([store, other] * 3)))
    ids = [g.id for claimed in rounds for g in claimed]
    assert len(ids) == len(set(ids)), "a game was claimed twice"
    left = await store.claim_due(NOW, owner="late", lease_seconds=60)
    assert sorted(ids + [g.id for g in left]) == [g.id for g in games]


async def test_a_commit_does_not_wait_for_or_clear_a_lease(store: Store) -> None:
    game = await due_game(store, 1)
    await store.claim_due(NOW, owner="a", lease_seconds=60)
    await store.commit_action(game, expected_version=game.version, seat="p1", action={"t": 1}, events=[],
                              state={"n": 1}, status="running", actor="human", remind_at=NOW + 500, timeout_at=None)
    assert await store.lease_owners(NOW) == {"a"}
    assert await store.due_games(NOW) == []


def test_only_a_gone_process_on_this_host_counts_as_dead() -> None:
    me = f"{os.uname().nodename}:{os.getpid()}:abc"
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    host = me.split(":")[0]
    assert _dead_here(f"{host}:{proc.pid}:x", me)
    assert not _dead_here(f"{host}:{os.getppid()}:x", me)  # alive
    assert not _dead_here(f"{host}:{os.getpid()}:other", me)  # this process: perhaps another service in it
    assert not _dead_here(f"elsewhere:{proc.pid}:x", me)  # another host: only its lease running out tells
    assert not _dead_here("garbage", me)
