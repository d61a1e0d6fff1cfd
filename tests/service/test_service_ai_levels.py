"""AI seats at a level: `/game addbot [count] [level]` (normal by default, a level's name in any
of the bot's languages), the level shown with the seat's name, the seat playing at its level
(stand-ins at normal), and AI seats rated per level."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai.pool import AIPool
from bot.replies import User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from engine import ai
from tests.conftest import ALICE, Clock

HERE = Where(channel_id=801, guild_id=8, guild_locale="de")


async def test_addbot_takes_a_level_and_names_it(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    await service.new_game(ALICE, HERE, "detour", seed=3)  # a German table
    said = await service.addbot(ALICE, HERE, 1, "schwer")  # the level's name in German
    assert said[0].outcome == "info"
    await service.addbot(ALICE, HERE, 1)  # normal by default
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    bots = [s for s in record.seats if s.is_bot]
    assert [s.name for s in bots] == ["Phileas (schwer)", "Aouda"]
    assert record.settings["ai_levels"] == {str(bots[0].user_id): "hard"}
    refused = await service.addbot(ALICE, HERE, 1, "grandmaster")
    assert refused[0].outcome == "refused" and refused[0].refusal == "error.bad_level"
    assert len((await store.active_game(HERE.channel_id)).seats) == 3  # type: ignore[union-attr]


async def test_each_ai_seat_plays_at_its_level(store: SQLiteStore, clock: Clock,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, str]] = []
    real = AIPool.choose

    async def recording(self: AIPool, spec: Any, view: Any, seat: str, legal: Any, *, level: str = "normal") -> Any:
        asked.append((seat, level))
        return await real(self, spec, view, seat, legal, level=level)

    monkeypatch.setattr(AIPool, "choose", recording)
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    await service.new_game(ALICE, HERE, "detour", seed=4)
    await service.addbot(ALICE, HERE, 1, "easy")
    await service.addbot(ALICE, HERE, 1, "hard")
    await service.start(ALICE, HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    seats = {s.name: s.seat for s in record.seats}
    levels = dict(asked)
    assert levels[seats["Phileas (leicht)"]] == "easy" and levels[seats["Aouda (schwer)"]] == "hard"
    clock.advance(49)  # Alice away: her stand-in plays at normal
    asked.clear()
    await service.tick()
    assert (seats["Alice"], "normal") in asked


def test_every_level_of_every_game_exists() -> None:
    from bot import games

    for game_id in games.specs():
        for level in ai.LEVELS:
            assert callable(ai.policy(game_id, level))


async def test_ai_seats_are_rated_per_level(store: SQLiteStore, clock: Clock) -> None:
    from bot.features.ratings import ai_player

    assert ai_player("detour", "hard") == "ai:detour:hard"
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    where = Where(channel_id=802, guild_id=8, guild_locale="en")
    await service.new_game(ALICE, where, "detour", seed=5)
    await service.addbot(ALICE, where, 1, "easy")
    await service.start(ALICE, where)
    for _ in range(400):  # Alice plays what normal would, the easy AI answers
        record = await store.active_game(where.channel_id)
        if record is None:
            break
        loaded = service.load(record)
        seat = loaded.rules.to_act(loaded.state)[0]
        action = ai.policy("detour", "normal")(loaded.rules.view(loaded.state, seat), seat,
                                               loaded.rules.legal_actions(loaded.state, seat))
        async with service.parts.tables.lock(where.channel_id):
            await service.parts.turns.act(loaded, User(ALICE.id, ALICE.name, "en"), seat, action)
    rows = await store.raw("SELECT player FROM ratings ORDER BY player")
    assert ("ai:detour:easy",) in rows
