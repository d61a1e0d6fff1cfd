"""Hints: the host allows them in the lobby; a seated player to move gets a private suggestion
from the hard AI on their own view; the lobby and the log say so; such a game is not rated."""

from __future__ import annotations

from bot.replies import User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, Clock

HERE = Where(channel_id=901, guild_id=9, guild_locale="en")


async def test_a_hint_only_when_the_host_allowed_them(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    await service.new_game(ALICE, HERE, "detour", seed=7)
    await service.join(BOB, HERE)
    refused = await service.hints(BOB, HERE, True)  # not the host
    assert refused[0].refusal == "error.host_only"
    said = await service.hints(ALICE, HERE, True)
    assert said[0].outcome == "ok"
    lobby = await service.status(BOB, HERE)
    assert "💡" in lobby[0].text
    await service.start(ALICE, HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    seat = loaded.rules.to_act(loaded.state)[0]
    asker = ALICE if record.seat_record(seat).user_id == ALICE.id else BOB  # type: ignore[union-attr]
    hint = await service.hint(User(asker.id, asker.name, "en"), HERE)
    assert hint[0].to == "ephemeral" and hint[0].user_id == asker.id and "💡" in hint[0].text
    assert (await service.hints(ALICE, HERE, False))[0].refusal == "error.already_started"  # only in the lobby
    async with service.parts.tables.lock(HERE.channel_id):  # one move, so the log has lines
        await service.parts.turns.act(loaded, User(asker.id, asker.name, "en"), seat,
                                      loaded.rules.legal_actions(loaded.state, seat)[0])
    log = await service.log_(ALICE, HERE)
    assert "💡" in log[0].text.splitlines()[1]


async def test_no_hint_where_they_are_off(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    await service.new_game(ALICE, HERE, "detour", seed=8)
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    said = await service.hint(ALICE, HERE)
    assert said[0].outcome == "refused" and said[0].refusal == "hints.disabled"


async def test_a_game_with_hints_is_not_rated(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    where = Where(channel_id=902, guild_id=9, guild_locale="en")
    await service.new_game(ALICE, where, "detour", seed=9)
    await service.addbot(ALICE, where, 1)
    await service.hints(ALICE, where, True)
    await service.start(ALICE, where)
    for _ in range(300):
        record = await store.active_game(where.channel_id)
        if record is None:
            break
        loaded = service.load(record)
        seat = loaded.rules.to_act(loaded.state)[0]
        action = loaded.rules.legal_actions(loaded.state, seat)[0]
        async with service.parts.tables.lock(where.channel_id):
            await service.parts.turns.act(loaded, User(ALICE.id, ALICE.name, "en"), seat, action)
    assert (await store.last_game(where.channel_id)).status == "finished"  # type: ignore[union-attr]
    assert await store.raw("SELECT COUNT(*) FROM ratings") == [(0,)]
