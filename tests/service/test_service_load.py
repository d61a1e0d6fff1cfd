"""Load: status/hand images are rendered once per game version and shared, queued behind
moves, limited per user; the lock table does not grow with every channel; idle lobbies close."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from typing import Any

import pytest

from bot.replies import User, Where
from bot.service import ASK_LIMIT, TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, HERE, Clock
from tests.support import fakegame

pytestmark = pytest.mark.usefixtures("fake_game")


async def started(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)


async def test_thirty_status_calls_at_once_render_the_board_once(store: SQLiteStore, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls: list[int] = []
    real = fakegame.render_board

    def slow_board(*args: Any, **kw: Any) -> bytes:
        calls.append(threading.get_ident())
        time.sleep(0.05)
        return real(*args, **kw)

    monkeypatch.setattr(fakegame, "render_board", slow_board)
    service = TableService(store, render_in_thread=True)
    await started(service)
    calls.clear()
    watchers = [User(100 + i, f"W{i}", "en") for i in range(30)]
    replies = await asyncio.gather(*(service.status(u, HERE) for u in watchers))
    assert len(calls) == 1, "one render for one game version and language"
    images = {r[0].files[0].data for r in replies}
    assert len(images) == 1 and all(r[0].to == "ephemeral" for r in replies)
    # a move makes a new version: the next status renders afresh
    await service.command(ALICE, HERE, "countdown", "take", {"n": 1})
    calls.clear()
    await service.status(watchers[0], HERE)
    assert len(calls) == 1


async def test_status_renders_queue_behind_each_other_not_before_moves(store: SQLiteStore, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """While status images for many versions render, at most one runs at a time; a move's own
    render does not wait for them."""
    running = {"now": 0, "most": 0}
    real = fakegame.render_board

    def tracked(*args: Any, **kw: Any) -> bytes:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        time.sleep(0.02)
        running["now"] -= 1
        return real(*args, **kw)

    monkeypatch.setattr(fakegame, "render_board", tracked)
    service = TableService(store, render_in_thread=True)
    await started(service)
    languages = ["en", "de", "fr"]
    watchers = [User(200 + i, f"W{i}", languages[i % 3]) for i in range(9)]
    await asyncio.gather(*(service.status(u, HERE) for u in watchers))
    assert running["most"] == 1


async def test_a_user_asking_too_often_is_asked_to_wait(service: TableService) -> None:
    await started(service)
    for _ in range(ASK_LIMIT):
        assert (await service.status(ALICE, HERE))[0].files
    slowed = await service.status(ALICE, HERE)
    assert slowed[0].to == "ephemeral" and "wait" in slowed[0].text and not slowed[0].files
    assert (await service.hand(ALICE, HERE))[0].outcome == "refused"
    assert (await service.status(BOB, HERE))[0].files, "others are not limited by Alice"


async def test_the_lock_table_keeps_only_channels_in_use(service: TableService) -> None:
    for channel in range(500):
        await service.status(ALICE, Where(channel_id=10_000 + channel, guild_id=1))
        await service.new_game(ALICE, Where(channel_id=20_000 + channel, guild_id=1), "countdown")
    gc.collect()
    assert len(service.parts.tables._locks) < 10


async def test_an_idle_lobby_closes_and_a_touched_one_waits(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(lobby_idle_hours=24), clock=clock, render_in_thread=False)
    other = Where(channel_id=HERE.channel_id + 1, guild_id=HERE.guild_id)
    await service.new_game(ALICE, HERE, "countdown")
    await service.new_game(ALICE, other, "countdown")
    clock.advance(20)
    await service.join(BOB, other)  # somebody is still gathering players there
    clock.advance(5)
    replies = await service.tick()
    closed = [r for r in replies if r.to == "channel"]
    assert len(closed) == 1 and closed[0].channel_id == HERE.channel_id and "closed" in closed[0].text
    assert await store.active_game(HERE.channel_id) is None
    assert await store.active_game(other.channel_id) is not None
    assert (await service.new_game(BOB, HERE, "countdown"))[0].to == "channel"
    assert await service.tick() == []
    clock.advance(24.1)
    assert len([r for r in await service.tick() if r.to == "channel"]) == 2


async def test_lobbies_never_close_when_switched_off(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(lobby_idle_hours=0), clock=clock, render_in_thread=False)
    await service.new_game(ALICE, HERE, "countdown")
    clock.advance(24 * 365)
    assert await service.tick() == []
    assert await store.active_game(HERE.channel_id) is not None
