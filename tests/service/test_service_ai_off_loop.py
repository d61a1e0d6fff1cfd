"""AI seats decide off the event loop: a slow decision at one table delays no other table's
move; in a worker process a registered game's policy answers as it would in the bot's own;
a decision past the per-turn cap, or a dead worker, falls back to the game's policy."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import pytest

from bot import games
from bot.ai.pool import AIPool
from bot.replies import Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from engine import registry
from tests.conftest import ALICE, BOB, Clock
from tests.support import fakegame

pytestmark = pytest.mark.usefixtures("fake_game")
SLOW, QUICK = Where(channel_id=701, guild_id=7), Where(channel_id=702, guild_id=7)


async def test_a_slow_ai_delays_no_other_tables_move(store: SQLiteStore, clock: Clock,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def thinking(view: Any, seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        time.sleep(1.0)  # a searching AI: a second of CPU, blocking whatever runs it
        return fakegame.choose(view, seat, legal)

    monkeypatch.setitem(games.RUNTIME, "countdown", dataclasses.replace(games.get("countdown"), ai=thinking))
    service = TableService(store, Settings(), clock=clock, render_in_thread=True)
    await service.new_game(ALICE, SLOW, "countdown", options="start=20")
    await service.addbot(ALICE, SLOW)
    await service.start(ALICE, SLOW)  # Alice first, then the AI
    await service.new_game(ALICE, QUICK, "countdown", options="start=20")
    await service.join(BOB, QUICK)
    await service.start(ALICE, QUICK)

    slow = asyncio.create_task(service.command(ALICE, SLOW, "countdown", "take", {"n": 1}))
    await asyncio.sleep(0.2)  # the AI is thinking now
    started = time.perf_counter()
    quick = await service.command(ALICE, QUICK, "countdown", "take", {"n": 1})
    took = time.perf_counter() - started
    assert quick[0].outcome == "ok" and not slow.done()
    assert took < 0.5, f"a move elsewhere waited {took:.2f} s for the AI"
    done = await slow
    assert done[0].outcome == "ok" and any(r.to == "channel" for r in done)


@pytest.mark.parametrize("game", ["detour", "around-the-world"])
async def test_a_worker_decides_as_the_game_would(game: str) -> None:
    rules = registry.get(game)
    state = rules.new_game(["p1", "p2", "p3"], 5, {})
    seat = rules.to_act(state)[0]
    view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
    pool = AIPool(1, turn_seconds=60)
    pool.start()
    try:
        chosen = await pool.choose(games.get(game), view, seat, legal)
    finally:
        await asyncio.to_thread(pool.close)
    assert chosen == games.get(game).ai(view, seat, legal) and chosen in legal


async def test_a_decision_past_the_cap_falls_back_to_the_games_policy() -> None:
    rules = registry.get("detour")
    state = rules.new_game(["p1", "p2"], 9, {})
    seat = rules.to_act(state)[0]
    view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
    pool = AIPool(1, turn_seconds=0.001)  # no worker answers that fast (it is still starting)
    pool.start()
    try:
        chosen = await pool.choose(games.get("detour"), view, seat, legal)
    finally:
        await asyncio.to_thread(pool.close)
    assert chosen == games.get("detour").ai(view, seat, legal)
