"""SQLite WAL checkpoints run in the background, from the store's second connection, so no
commit pays for one (they were the slowest 1 % of commits); a failing one changes nothing."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import CHECKPOINT_EVERY, WAL_BACKSTOP_PAGES, SQLiteStore
from bot.store.sqlite import wal
from tests.support.store_games import commit, new_game, start


async def settled(store: SQLiteStore) -> None:
    """Wait for the background checkpoint in flight, if any."""
    while store.checkpoints.running:
        await asyncio.sleep(0.01)


async def play(store: SQLiteStore, commits: int) -> int:
    """A running game with `commits` actions committed; its id."""
    game = await start(store, await new_game(store))
    for n in range(commits):
        await commit(store, game, n)
    return game.id


async def test_commits_leave_checkpoints_to_the_background_and_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = SQLiteStore(path)
    await store.open()
    try:
        [row] = await store.raw("PRAGMA wal_autocheckpoint")
        assert row is not None and row[0] == WAL_BACKSTOP_PAGES  # a commit checkpoints only as a backstop
        game = await start(store, await new_game(store))
        for batch in range(3):  # a checkpoint every CHECKPOINT_EVERY commits, each let finish
            for n in range(CHECKPOINT_EVERY):
                await commit(store, game, batch * CHECKPOINT_EVERY + n)
            await settled(store)  # on a loaded machine a checkpoint may outlast the next commits
        game_id = game.id
        assert store.checkpoints.done >= 2
        # the background checkpoints copied the log into the database file: after one more
        # checkpoint nothing is left to copy (log frames == checkpointed frames)
        with closing(sqlite3.connect(path)) as other:
            busy, logged, copied = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and logged == copied
    finally:
        await store.close()
    assert not store.checkpoints.connected
    assert not Path(f"{path}-wal").exists()  # the last connection closed cleanly
    reopened = SQLiteStore(path)
    await reopened.open()
    try:
        assert len(await reopened.actions(game_id)) == 3 * CHECKPOINT_EVERY
    finally:
        await reopened.close()


async def test_close_waits_for_a_checkpoint_in_flight(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "games.sqlite3")
    await store.open()
    await play(store, CHECKPOINT_EVERY)
    assert store.checkpoints.running  # the commit that reached CHECKPOINT_EVERY started one
    await store.close()
    assert not store.checkpoints.running and not store.checkpoints.connected and store.checkpoints.done == 1


async def test_a_failing_checkpoint_is_logged_changes_nothing_and_is_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    real_connect = sqlite3.connect
    failures = 0

    def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
        nonlocal failures
        if store._conn is not None and failures < 1:  # the checkpointer's connection, once
            failures += 1
            raise sqlite3.OperationalError("disk I/O error")
        return real_connect(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(wal.sqlite3, "connect", connect)
    store = SQLiteStore(tmp_path / "games.sqlite3")
    await store.open()
    try:
        with caplog.at_level(logging.WARNING, logger="bot.store.sqlite.wal"):
            game_id = await play(store, CHECKPOINT_EVERY)
            await settled(store)
        assert failures == 1 and store.checkpoints.done == 0
        assert "background WAL checkpoint" in caplog.text and "disk I/O error" in caplog.text
        assert len(await store.actions(game_id)) == CHECKPOINT_EVERY  # every commit went through
        game = await store.get_game(game_id)
        assert game is not None
        for n in range(CHECKPOINT_EVERY):
            await commit(store, game, CHECKPOINT_EVERY + n)
        await settled(store)
        assert store.checkpoints.done == 1  # the next one, CHECKPOINT_EVERY commits later, worked
    finally:
        await store.close()


async def test_a_store_in_memory_never_checkpoints() -> None:
    store = SQLiteStore(":memory:")
    await store.open()
    try:
        await play(store, 2 * CHECKPOINT_EVERY)
        assert not store.checkpoints.running and store.checkpoints.done == 0
    finally:
        await store.close()
