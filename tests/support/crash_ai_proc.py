"""A bot process that is SIGKILLed between two commits of one turn (tests/test_service_recovery.py).

    python -m tests.support.crash_ai_proc <db> <game> <mode>

mode "after-human": a human moves, and the process dies just before the AI seats' first
commit. mode "mid-stand-in": the human's timeout passes, the AI starts playing that turn
for them, and the process dies before the stand-in's second commit.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Any

from bot.replies import User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.support import fakegame

HUMAN = User(1, "Alice", "en")
HERE = Where(channel_id=100, guild_id=10, guild_locale="en")
NOW = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def die_at(store: SQLiteStore, actor: str, nth: int) -> None:
    """SIGKILL this process when the `nth` commit by `actor` is about to be written."""
    real = store.commit_action
    seen = {"n": 0}

    async def commit(*args: Any, **kw: Any) -> int:
        if kw["actor"] == actor:
            seen["n"] += 1
            if seen["n"] == nth:
                print("dying", flush=True)
                os.kill(os.getpid(), signal.SIGKILL)
        return await real(*args, **kw)

    store.commit_action = commit  # type: ignore[method-assign]


async def main(path: str, game: str, mode: str) -> None:
    fakegame.install()
    store = SQLiteStore(path)
    await store.open()
    clock = Clock()
    service = TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock,
                           render_in_thread=False)
    await service.new_game(HUMAN, HERE, game, seed=7)
    await service.addbot(HUMAN, HERE, 1)
    await service.start(HUMAN, HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    if mode == "after-human":
        die_at(store, "ai", 1)
        for _ in range(500):  # the human moves until the AI must answer; we die right then
            record = await store.active_game(HERE.channel_id)
            assert record is not None
            loaded = service.load(record)
            seat = record.seat_of_user(HUMAN.id)
            assert seat is not None and seat.seat is not None
            action = loaded.rules.legal_actions(loaded.state, seat.seat)[0]
            async with service.parts.tables.lock(HERE.channel_id):
                await service.parts.turns.act(loaded, HUMAN, seat.seat, action)
    else:
        die_at(store, "timeout", 2)
        clock.now += 49 * 3600
        await service.tick()
    print("survived", flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
