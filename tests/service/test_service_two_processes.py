"""Two table services on one database, as two bot processes (shards) run them: the channel
lock of one process does not cover the other, so the database's version check decides.
A press that lost the race gets a clear private answer from the game as stored, never a
traceback and never a second move; each due reminder and timeout fires once. On SQLite and
on PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bot.replies import Button, Reply
from bot.service import TableService, parse_custom_id
from bot.settings import Settings
from bot.store import Store, store_from_url
from tests.conftest import ALICE, BACKENDS, BOB, HERE, Clock

pytestmark = pytest.mark.usefixtures("fake_game")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def pair(store_url: str, clock: Clock) -> AsyncIterator[tuple[TableService, TableService]]:
    stores: list[Store] = [store_from_url(store_url), store_from_url(store_url)]
    for s in stores:
        await s.open()
    settings = Settings(reminder_hours=12, timeout_hours=48)
    try:
        yield (TableService(stores[0], settings, clock=clock, render_in_thread=False),
               TableService(stores[1], settings, clock=clock, render_in_thread=False))
    finally:
        for s in stores:
            await s.close()


@pytest.fixture(autouse=True)
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> AsyncIterator[None]:  # type: ignore[misc]
    yield
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def only(replies: list[Reply], to: str) -> list[Reply]:
    return [r for r in replies if r.to == to]


def buttons(reply: Reply) -> list[Button]:
    return [c for row in reply.rows for c in row if isinstance(c, Button)]


async def started(a: TableService, b: TableService) -> Reply:
    """A countdown game of Alice and Bob, made through one process and joined through the other."""
    await a.new_game(ALICE, HERE, "countdown")
    await b.join(BOB, HERE)
    return only(await a.start(ALICE, HERE), "channel")[0]


async def test_a_double_click_reaching_two_processes_moves_once(pair: tuple[TableService, TableService]) -> None:
    a, b = pair
    board = await started(a, b)
    for _round in range(3):
        press = buttons(board)[0].custom_id
        player = ALICE if _round % 2 == 0 else BOB
        first, second = await asyncio.gather(a.component(player, HERE, press), b.component(player, HERE, press))
        winners = [r for r in (first, second) if only(r, "channel")]
        assert len(winners) == 1, (first, second)
        loser = second if winners[0] is first else first
        assert [r.to for r in loser] == ["ephemeral"] and loser[0].user_id == player.id
        t = a.user_t(player)  # the loser's own language
        assert loser[0].text in ("⚠️ " + t("error.already_made"), "⚠️ " + t("error.stale_move"))
        board = only(winners[0], "channel")[0]
    game = await a.store.active_game(HERE.channel_id)
    assert game is not None
    assert [x.seq for x in await b.store.actions(game.id)] == [1, 2, 3]


async def test_a_commit_that_lost_to_the_other_process_is_answered_from_the_stored_game(
        pair: tuple[TableService, TableService]) -> None:
    """Process B loaded the game for Alice's move; meanwhile process A took Alice's and Bob's
    moves. B's commit finds the version changed: nothing is written, and since Alice is to act
    again she gets a menu button for the game as it is now."""
    a, b = pair
    board = await started(a, b)
    record = await b.store.active_game(HERE.channel_id)
    assert record is not None
    stale = b.load(record)
    action = stale.rules.legal_actions(stale.state, "p1")[0]
    after_alice = only(await a.component(ALICE, HERE, buttons(board)[0].custom_id), "channel")[0]
    await a.component(BOB, HERE, buttons(after_alice)[0].custom_id)
    async with b.parts.tables.lock(HERE.channel_id):
        replies = await b.parts.turns.act(stale, ALICE, "p1", action)
    assert [r.to for r in replies] == ["ephemeral"]
    assert replies[0].outcome == "refused" and "moved on" in replies[0].text
    fresh = await a.store.active_game(HERE.channel_id)
    assert fresh is not None and fresh.version == record.version + 2
    menu = buttons(replies[0])
    assert len(menu) == 1 and parse_custom_id(menu[0].custom_id)[1:3] == (fresh.version, "menu")  # type: ignore[index]
    assert len(await a.store.actions(fresh.id)) == 2  # B's move was not written
    # a stale commit for a seat that is no longer to act: "already made"
    stale = b.load(fresh)
    await a.component(ALICE, HERE, buttons((await a.menu(ALICE, HERE))[0])[0].custom_id)
    replies = await b.parts.turns.act(stale, ALICE, "p1", stale.rules.legal_actions(stale.state, "p1")[0])
    assert [r.to for r in replies] == ["ephemeral"] and "already made" in replies[0].text
    assert len(await a.store.actions(fresh.id)) == 3


async def test_both_schedulers_ticking_at_once_remind_and_time_out_once(pair: tuple[TableService, TableService],
                                                                       clock: Clock) -> None:
    a, b = pair
    await started(a, b)
    clock.advance(13)
    ticks = await asyncio.gather(a.tick(), b.tick())
    reminders = [r for replies in ticks for r in only(replies, "channel")]
    assert len(reminders) == 1 and reminders[0].mentions == [ALICE.id]
    assert await asyncio.gather(a.tick(), b.tick()) == [[], []]
    clock.advance(36)
    ticks = await asyncio.gather(a.tick(), b.tick())
    played = [r for replies in ticks for r in only(replies, "channel") if "AI played for them" in r.text]
    assert len(played) == 1
    game = await a.store.active_game(HERE.channel_id)
    assert game is not None
    log = await b.store.actions(game.id)
    assert [(x.actor, x.seat) for x in log] == [("timeout", "p1")]
    assert await a.store.lease_owners(clock()) == set()  # both gave their leases back
