"""The store's side of durable announcements, on SQLite and on a real PostgreSQL server: a
change and the message it owes are written together; a delivery clears what it covers, a
failure owes it again later (only for the version that failed); one process takes a re-post;
games of a channel that is gone pause (no due reminders or timeouts) and resume."""

from __future__ import annotations

import pytest

from bot.store import Store
from tests.conftest import BACKENDS
from tests.support.store_games import commit, new_game, start


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def test_a_change_and_the_message_it_owes_are_one_write(store: Store) -> None:
    game = await new_game(store, announce_at=100.0)
    assert (await store.get_game(game.id)).announce_due == 100.0  # type: ignore[union-attr]
    game.announce_due = 200.0
    await start(store, game)
    assert (await store.get_game(game.id)).announce_due == 200.0  # type: ignore[union-attr]
    await store.commit_action(game, expected_version=game.version, seat="p1", action={"type": "m"}, events=[],
                              state={"n": 1}, status="running", actor="human", remind_at=None, timeout_at=None,
                              announce_at=300.0)
    fresh = await store.get_game(game.id)
    assert fresh is not None and fresh.announce_due == 300.0 and game.announce_due == 300.0
    assert [g.id for g in await store.due_announcements(299.0)] == []
    assert [g.id for g in await store.due_announcements(300.0)] == [game.id]


async def test_delivery_clears_what_it_covers_and_a_failure_owes_it_again(store: Store) -> None:
    game = await new_game(store, announce_at=10.0)
    await start(store, game)  # version 1
    await commit(store, game, 1)  # version 2
    await store.announce_failed(game.id, game.version, 50.0)
    fresh = await store.get_game(game.id)
    assert fresh is not None and fresh.announce_due == 50.0 and fresh.announce_tries == 1
    await store.announce_failed(game.id, game.version - 1, 99.0)  # an older message failed: moot
    assert (await store.get_game(game.id)).announce_due == 50.0  # type: ignore[union-attr]
    await store.announced(game.id, game.version - 1)  # an older one accepted: the newest is still owed
    assert (await store.get_game(game.id)).announce_due == 50.0  # type: ignore[union-attr]
    await store.announced(game.id, game.version)
    fresh = await store.get_game(game.id)
    assert fresh is not None and fresh.announce_due is None and fresh.announced_version == game.version
    assert fresh.announce_tries == 0 and await store.due_announcements(1e12) == []


async def test_one_process_takes_a_re_post(store: Store) -> None:
    game = await new_game(store, announce_at=10.0)
    assert await store.claim_announcement(game.id, 10.0, 70.0)
    assert not await store.claim_announcement(game.id, 10.0, 70.0)  # the other process lost
    assert await store.due_announcements(60.0) == []


async def test_games_of_a_channel_that_is_gone_pause_and_resume(store: Store) -> None:
    here = await new_game(store, channel_id=100)
    await start(store, here)
    await commit(store, here, 1, remind_at=5.0)
    there = await new_game(store, channel_id=200)
    paused = await store.pause_games(at=1.0, channel_id=100)
    assert [g.id for g in paused] == [here.id]
    assert await store.claim_due(10.0, owner="me", lease_seconds=60) == []  # no reminder while paused
    assert [g.id for g in await store.paused_games(2.0)] == [here.id]
    await store.pause_games(at=3.0, guild_id=10)  # the bot removed from the server: the rest pause too
    assert {g.id for g in await store.paused_games(4.0)} == {here.id, there.id}
    resumed = await store.resume_games(10, [100], announce_at=6.0)
    assert [g.id for g in resumed] == [here.id]
    assert [g.id for g in await store.due_announcements(6.0)] == [here.id]  # its message is owed at once
    assert [g.id for g in await store.claim_due(10.0, owner="me", lease_seconds=60)] == [here.id]


async def test_a_followers_copy_is_owed_once_the_channel_got_a_newer_version(store: Store) -> None:
    from bot.store import Follow

    game = await new_game(store)
    await start(store, game)
    await store.set_follow(Follow(game.id, 7, "Eve"), limit=5)
    await store.set_follow(Follow(game.id, 8, "Dan", thread_id=99), limit=5)
    await commit(store, game, 1)
    await store.announced(game.id, game.version, copies_due=50.0)
    await store.copied(game.id, 8, game.version)  # Dan's copy came through
    assert await store.owed_copies(49.0, until=100.0) == []
    owed = await store.owed_copies(50.0, until=100.0)
    assert [(f.user_id, tries) for f, tries in owed] == [(7, 0)]
    assert await store.owed_copies(60.0, until=100.0) == []  # taken until 100
    await store.copy_failed(game.id, 7, 120.0)
    assert [(f.user_id, tries) for f, tries in await store.owed_copies(120.0, until=200.0)] == [(7, 1)]
    await store.copied(game.id, 7, game.version)
    assert await store.owed_copies(1e12, until=1e12 + 60) == []
