"""Sharding: the client is auto-sharded with the configured shards, interaction payloads still
work in a process that runs only some shards, command sync (once per deployment) runs only
where shard 0 runs while every process runs the scheduler (due games are leased in the store),
and what a process caches stays right when another process on the same database changed the
game."""

from __future__ import annotations

from pathlib import Path

import discord

from bot import create_bot
from bot.replies import Reply
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, HERE, Clock
from tests.support.discord_harness import ALICE as D_ALICE
from tests.support.discord_harness import BOB as D_BOB
from tests.support.discord_harness import Harness, open_table


def test_create_bot_is_auto_sharded_with_the_configured_shards() -> None:
    bot = create_bot(Settings(database_url=":memory:", shard_count=4, shard_ids=(1, 3)))
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    assert not bot.settings.primary
    every = create_bot(Settings(database_url=":memory:"))
    assert isinstance(every, discord.AutoShardedClient)
    # neither given: all shards, as many as Discord recommends at login
    assert every.shard_count is None and every.shard_ids is None and every.settings.primary
    counted = create_bot(Settings(database_url=":memory:", shard_count=2))
    assert counted.shard_count == 2 and counted.shard_ids is None and counted.settings.primary


async def test_a_process_with_some_shards_plays_through_real_payloads(fake_game: None, tmp_path: Path) -> None:
    settings = Settings(database_url=str(tmp_path / "shard.sqlite3"), sync_commands="always", tick_seconds=3600,
                        shard_count=3, shard_ids=(1, 2))
    h = await Harness.create(tmp_path, settings=settings, db_name="shard.sqlite3")
    try:
        turn = await open_table(h, D_ALICE, [D_BOB])
        mark = len(h.followups())
        await h.run(h.click(D_ALICE, turn, turn.button("Take 2").custom_id))  # type: ignore[arg-type]
        assert [m.content for m in h.followups(mark) if m.ephemeral] == ["✅ Take 2"]
        game = await h.bot.store.active_game(turn.channel_id)
        assert game is not None and len(await h.bot.store.actions(game.id)) == 1
        # not the shard-0 process: it does not sync commands (even with "always"), but it ticks
        assert await h.bot.sync_commands_if_needed() is False and h.synced() == []
        await h.bot.setup_hook()
        assert h.bot._scheduler is not None and not h.bot._scheduler.done()
        assert h.synced() == []
    finally:
        await h.close()
    assert h.error_messages() == [] and h.protocol_problems() == []


async def test_the_shard_zero_process_syncs_and_runs_the_scheduler(fake_game: None, tmp_path: Path) -> None:
    settings = Settings(database_url=str(tmp_path / "zero.sqlite3"), sync_commands="auto", tick_seconds=3600,
                        shard_count=3, shard_ids=(0,))
    h = await Harness.create(tmp_path, settings=settings, db_name="zero.sqlite3")
    try:
        await h.bot.setup_hook()
        assert len(h.synced()) == 1
        assert h.bot._scheduler is not None and not h.bot._scheduler.done()
    finally:
        await h.close()


def _board(replies: list[Reply]) -> bytes:
    [image] = [f.data for r in replies for f in r.files if f.filename == "board.png"]
    return image


async def test_cached_boards_follow_moves_made_by_another_process(fake_game: None, tmp_path: Path) -> None:
    """Two services on one database file, as two processes would be: the board one of them
    cached is not shown again after the other one stored a move (the key holds the version)."""
    path = tmp_path / "two.sqlite3"
    first, second = SQLiteStore(path), SQLiteStore(path)
    await first.open()
    await second.open()
    try:
        clock = Clock()
        one = TableService(first, Settings(), clock=clock, render_in_thread=False)
        two = TableService(second, Settings(), clock=clock, render_in_thread=False)
        await one.new_game(ALICE, HERE, "countdown")
        await two.join(BOB, HERE)
        await one.start(ALICE, HERE)
        before = _board(await one.status(BOB, HERE))
        assert _board(await one.status(BOB, HERE)) == before and one.parts.images.cache.hits == 1
        replies = await two.command(ALICE, HERE, "countdown", "take", {"n": 3})
        assert any(r.text.startswith("✅") for r in replies)
        after = _board(await one.status(BOB, HERE))
        assert after != before and after == _board(await two.status(BOB, HERE))
        assert one.parts.images.cache.misses == 2
    finally:
        await first.close()
        await second.close()


async def test_a_bot_that_never_started_closes_cleanly(tmp_path: Path) -> None:
    bot = create_bot(Settings(database_url=str(tmp_path / "closed.sqlite3"), shard_count=2, shard_ids=(1,)))
    await bot.open_store()
    await bot.close()
    assert bot.is_closed() and not bot.store_opened
