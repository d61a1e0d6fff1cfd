"""Undo through the table service, with the fake game whose `take` is declared undoable here:
who may take back what, the refusals, the stale button, the log and its replay, deadlines."""

from __future__ import annotations

import pytest

from bot.replay import effective_actions, verify
from bot.replies import Reply
from bot.service import TableService, parse_custom_id
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, EVE, HERE, Clock
from tests.support.countdown import buttons, make_take_undoable, started, take

pytestmark = pytest.mark.usefixtures("fake_game")


@pytest.fixture(autouse=True)
def undoable_take(monkeypatch: pytest.MonkeyPatch) -> None:
    make_take_undoable(monkeypatch)


async def counter(store: SQLiteStore) -> int:
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.state is not None
    return int(record.state["counter"])


def refusal(replies: list[Reply], key: str, service: TableService) -> None:
    assert len(replies) == 1 and replies[0].to == "ephemeral", replies
    # in the presser's language (Alice en, Bob de)
    assert replies[0].text in {"⚠️ " + service.t(lang)(key) for lang in ("en", "de")}, replies[0].text


async def test_undo_takes_the_move_back_and_announces_it(service: TableService, store: SQLiteStore,
                                                         clock: Clock) -> None:
    await started(service)
    moved = await take(service, ALICE, 2)
    undo_buttons = [b for b in buttons(moved[0]) if parse_custom_id(b.custom_id)[2] == "undo"]  # type: ignore[index]
    assert moved[0].to == "ephemeral" and len(undo_buttons) == 1
    assert await counter(store) == 13
    clock.advance(5)
    replies = await service.undo(ALICE, HERE)
    ack, board = replies
    assert ack.to == "ephemeral" and ack.text.startswith("↩️") and ack.user_id == ALICE.id
    assert board.to == "channel" and "**Alice** took back their last move" in board.text
    assert board.files and board.files[0].filename == "board.png"
    assert ALICE.id not in board.mentions  # she is here: no ping
    assert await counter(store) == 15
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    assert record.remind_at == clock.now + 12 * 3600 and record.timeout_at == clock.now + 48 * 3600
    log = await store.actions(record.id)
    assert [e.action for e in log] == [{"type": "take", "n": 2}, {"type": "undo"}]
    assert effective_actions(log) == [] and verify(record, log).ok
    # she moves again, differently; the replay agrees
    await take(service, ALICE, 1)
    record = await store.active_game(HERE.channel_id)
    assert record is not None and verify(record, await store.actions(record.id)).ok


async def test_nothing_to_undo_and_not_your_move(service: TableService, store: SQLiteStore) -> None:
    await started(service)
    refusal(await service.undo(ALICE, HERE), "undo.nothing", service)
    await take(service, ALICE, 1)
    refusal(await service.undo(BOB, HERE), "undo.nothing", service)
    refusal(await service.undo(EVE, HERE), "error.not_seated", service)
    await service.undo(ALICE, HERE)
    refusal(await service.undo(ALICE, HERE), "undo.nothing", service)
    assert await counter(store) == 15


async def test_no_undo_once_another_player_moved(service: TableService, store: SQLiteStore) -> None:
    await started(service)
    await take(service, ALICE, 1)
    await take(service, BOB, 2)
    refusal(await service.undo(ALICE, HERE), "undo.others_moved", service)
    assert await counter(store) == 12
    assert len(await service.undo(BOB, HERE)) == 2  # Bob's own move still may go
    assert await counter(store) == 14
    refusal(await service.undo(ALICE, HERE), "undo.others_moved", service)  # Bob moved (and undid) since


async def test_a_move_that_revealed_something_is_final(service: TableService, store: SQLiteStore) -> None:
    await started(service)
    moved = await take(service, ALICE, 3)
    assert not buttons(moved[0])
    refusal(await service.undo(ALICE, HERE), "undo.final", service)
    assert await counter(store) == 12


async def test_no_undo_after_the_game_is_over(service: TableService, store: SQLiteStore) -> None:
    await started(service, start=5)
    await take(service, ALICE, 2)
    await take(service, BOB, 3)  # Bob wins
    refusal(await service.undo(BOB, HERE), "undo.game_over", service)


async def test_no_undo_after_an_ai_seat_moved(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    await service.addbot(ALICE, HERE)
    await service.start(ALICE, HERE)
    moved = await take(service, ALICE, 1)
    assert not buttons(moved[0]), "the AI answered at once: nothing to offer"
    before = await counter(store)
    refusal(await service.undo(ALICE, HERE), "undo.others_moved", service)
    assert await counter(store) == before


async def test_a_stand_in_move_cannot_be_undone(service: TableService, store: SQLiteStore, clock: Clock) -> None:
    await started(service)
    clock.advance(49)
    await service.tick()  # Alice's time ran out: the AI played her turn
    assert await counter(store) < 15
    refusal(await service.undo(ALICE, HERE), "undo.stand_in", service)


async def test_the_undo_button_and_its_stale_press(service: TableService, store: SQLiteStore) -> None:
    await started(service)
    moved = await take(service, ALICE, 1)
    undo_id = buttons(moved[0])[0].custom_id
    pressed = await service.component(ALICE, HERE, undo_id)
    assert pressed[0].text.startswith("↩️") and await counter(store) == 15
    # pressed again: the game moved on (the undo itself), so nothing changes
    refusal(await service.component(ALICE, HERE, undo_id), "undo.stale", service)
    moved = await take(service, ALICE, 2)
    old_id = buttons(moved[0])[0].custom_id
    await take(service, BOB, 1)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    version = record.version
    refusal(await service.component(ALICE, HERE, old_id), "undo.stale", service)
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.version == version and await counter(store) == 12


async def test_several_moves_in_a_row_are_undone_one_by_one(service: TableService, store: SQLiteStore) -> None:
    """Move, undo, move, undo, move: the log keeps every entry (append-only) and the replay
    skips the moves taken back."""
    await started(service)
    await take(service, ALICE, 1)
    await service.undo(ALICE, HERE)
    await take(service, ALICE, 2)
    await service.undo(ALICE, HERE)
    await take(service, ALICE, 1)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    log = await store.actions(record.id)
    assert [e.action["type"] for e in log] == ["take", "undo", "take", "undo", "take"]
    assert [e.action for e in effective_actions(log)] == [{"type": "take", "n": 1}]
    assert verify(record, log).ok


async def test_a_restart_replays_and_continues_a_log_with_undos(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock, render_in_thread=False)
    await started(service, bots=1)
    await take(service, ALICE, 1)
    await service.undo(ALICE, HERE)
    restarted = TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock,
                             render_in_thread=False)
    assert await restarted.tick() == []  # nothing was left half done
    await take(restarted, ALICE, 2)
    await take(restarted, BOB, 1)  # then the AI seat moves
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    log = await store.actions(record.id)
    assert {"type": "undo"} in [e.action for e in log] and verify(record, log).ok
    assert record.state is not None and record.state["counter"] < 12


async def test_a_finished_game_with_undos_still_gets_its_summary_and_timelapse(service: TableService,
                                                                               store: SQLiteStore) -> None:
    """The memories replay the game that was played: undone moves and undo entries are left out
    (replaying the raw log would apply `{"type": "undo"}` as a move and fail)."""
    await started(service, start=5)
    await take(service, ALICE, 2)
    assert (await service.undo(ALICE, HERE))[0].text.startswith("↩️")
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        assert (await take(service, user, 1))[0].outcome == "ok"
    record = await store.last_game(HERE.channel_id)
    assert record is not None and record.status == "finished"
    replies = [reply async for reply in service.post_game_memories()]
    assert [f.filename for r in replies for f in r.files] == ["summary.png", "timelapse.gif"]
