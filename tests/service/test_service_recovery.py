"""Async play: a timeout plays one turn for the absent seat, and a crash between a human's
move and the AI's moves never leaves a game stuck (the scheduler finishes it after restart)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.replay import verify
from bot.replies import Reply, User, Where
from bot.service import STAND_IN_MAX_ACTIONS, TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from engine import registry
from tests.conftest import Clock

ROOT = Path(__file__).resolve().parents[2]
HERE = Where(channel_id=100, guild_id=10, guild_locale="en")
PEOPLE = [User(i, name, "en") for i, name in enumerate(["Alice", "Bob", "Carol", "Dave"], start=1)]


async def table(service: TableService, game: str, humans: int, bots: int, seed: int = 11) -> None:
    await service.new_game(PEOPLE[0], HERE, game, seed=seed)
    for user in PEOPLE[1:humans]:
        await service.join(user, HERE)
    if bots:
        await service.addbot(PEOPLE[0], HERE, bots)
    await service.start(PEOPLE[0], HERE)


async def waiting_humans(service: TableService, store: SQLiteStore) -> list[str]:
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    return service.parts.turns.waiting_humans(loaded)


@pytest.mark.parametrize(("game", "humans", "bots"), [
    ("detour", 3, 0), ("detour", 2, 1),
    ("rails-and-sails", 2, 0), ("rails-and-sails", 2, 1),
    ("around-the-world", 1, 1), ("around-the-world", 3, 0),
])
async def test_a_timeout_plays_one_turn_per_absent_seat(store: SQLiteStore, clock: Clock, game: str,
                                                          humans: int, bots: int) -> None:
    service = TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock,
                           render_in_thread=False)
    await table(service, game, humans, bots)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    for cycle in range(3):
        absent = await waiting_humans(service, store)
        assert absent, "the game waits for a person"
        logged = len(await store.actions(record.id))
        clock.advance(47.9)
        replies = await service.tick()  # only the reminders so far
        assert all(r.files == [] for r in replies)
        assert len(await store.actions(record.id)) == logged
        clock.advance(0.2)
        replies = await service.tick()
        log = (await store.actions(record.id))[logged:]
        stand_ins = [a for a in log if a.actor == "timeout"]
        assert {a.seat for a in stand_ins} == set(absent), f"cycle {cycle}: each absent seat plays, nobody else"
        for seat in absent:
            mine = [i for i, a in enumerate(log) if a.seat == seat and a.actor == "timeout"]
            assert mine == list(range(mine[0], mine[0] + len(mine))) or len(set(absent)) > 1
            assert 1 <= len(mine) <= STAND_IN_MAX_ACTIONS
        assert len(stand_ins) < 40, "one turn each, not the whole game"
        after = await store.active_game(HERE.channel_id)
        assert after is not None and after.status == "running", "one timeout must not finish the game"
        assert any(r.to == "channel" and "took too long" in r.text for r in replies)
        # a second tick at the same moment does nothing more: the cycle starts afresh
        assert await service.tick() == []
        assert len(await store.actions(record.id)) == logged + len(log)
        assert after.timeout_at is not None and after.timeout_at > clock.now + 47 * 3600


async def test_no_timeouts_for_ai_only_progress(service: TableService, store: SQLiteStore, clock: Clock) -> None:
    """Timeouts off: nothing plays for anyone, however long the wait."""
    await table(service, "detour", 2, 0)
    await service.settings_cmd(PEOPLE[0], HERE, timeout_hours=0, reminder_hours=0)
    clock.advance(24 * 30)
    assert await service.tick() == []


def run_until_killed(db: Path, game: str, mode: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "tests.support.crash_ai_proc", str(db), game, mode], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, f"the bot process was meant to be killed: {proc.stdout}{proc.stderr}"
    assert "dying" in proc.stdout and "survived" not in proc.stdout


async def restarted(db: Path, clock: Clock) -> tuple[SQLiteStore, TableService]:
    store = SQLiteStore(db)
    await store.open()
    return store, TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock,
                               render_in_thread=False)


@pytest.mark.usefixtures("fake_game")
@pytest.mark.parametrize("game", ["countdown", "detour", "around-the-world"])
async def test_killed_between_the_human_and_the_ai_moves_resumes_at_start(tmp_path: Path, game: str) -> None:
    db = tmp_path / "crash.sqlite3"
    run_until_killed(db, game, "after-human")
    clock = Clock(1_800_000_000.0)
    store, service = await restarted(db, clock)
    try:
        record = await store.active_game(100)
        assert record is not None and record.ai_pending
        before = await store.actions(record.id)
        assert [a.actor for a in before][-1] == "human"
        loaded = service.load(record)
        bot_seats = {s.seat for s in record.seats if s.is_bot}
        assert set(loaded.rules.to_act(loaded.state)) & bot_seats, "stuck: waiting for the AI"

        replies = await service.tick()  # the adapters run one tick at start
        channel = [r for r in replies if r.to == "channel"]
        assert len(channel) == 1 and "restarted" in channel[0].text
        after = await store.active_game(100)
        assert after is not None and not after.ai_pending
        log = await store.actions(after.id)
        assert len(log) > len(before) and {a.actor for a in log[len(before):]} == {"ai"}
        assert await waiting_humans(service, store) == ["p1"] or after.status == "finished"
        assert await service.tick() == [], "recovery is idempotent"
        assert len(await store.actions(after.id)) == len(log)
        assert verify(after, log).ok
    finally:
        await store.close()


async def test_killed_in_the_middle_of_a_stand_in_turn_finishes_that_turn_only(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    run_until_killed(db, "around-the-world", "mid-stand-in")
    clock = Clock(1_800_000_000.0 + 49 * 3600)
    store, service = await restarted(db, clock)
    try:
        record = await store.active_game(100)
        assert record is not None and record.ai_pending
        before = await store.actions(record.id)
        assert before[-1].actor == "timeout" and before[-1].seat == "p1"
        replies = await service.tick()
        assert any("restarted" in r.text for r in replies if r.to == "channel")
        log = await store.actions(record.id)
        new = log[len(before):]
        # the absent player's turn is finished, then the AI seat plays, then it waits for Alice again
        assert new and new[0].seat == "p1" and new[0].actor == "timeout"
        assert "ai" in {a.actor for a in new}
        first_ai = next(i for i, a in enumerate(new) if a.actor == "ai")
        assert all(a.actor == "ai" for a in new[first_ai:])
        assert await waiting_humans(service, store) == ["p1"]
        assert await service.tick() == []
        fresh = await store.active_game(100)
        assert fresh is not None and verify(fresh, log).ok
    finally:
        await store.close()


def test_every_game_has_turns_shorter_than_the_stand_in_cap() -> None:
    assert {r.id for r in registry.all()} >= {"detour", "around-the-world", "rails-and-sails"}


async def replies_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies)


async def test_a_stand_in_stopped_by_the_cap_is_not_resumed(store: SQLiteStore, clock: Clock,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn longer than the cap ends the stand-in for good: the game waits for the player,
    and the scheduler does not pick the turn up again as an interrupted one."""
    import bot.table.turns as ai_module

    monkeypatch.setattr(ai_module, "STAND_IN_MAX_ACTIONS", 1)
    service = TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock,
                           render_in_thread=False)
    await table(service, "around-the-world", 1, 1)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    clock.advance(49)
    await service.tick()
    log = await store.actions(record.id)
    assert [a.actor for a in log] == ["timeout"], "one move, then the cap"
    after = await store.active_game(HERE.channel_id)
    assert after is not None and not after.ai_pending
    assert await service.tick() == []
    assert len(await store.actions(record.id)) == 1


@pytest.mark.parametrize(("game", "humans", "bots"), [
    ("detour", 2, 1),            # the choice of a card for the round, made by all at once
    ("rails-and-sails", 2, 0),   # the tickets kept at the start, then the pieces: phases all play at once
    ("eighty-days", 2, 1),       # the adventure and assistant drafts of the set-up
])
async def test_a_stand_in_move_that_closes_a_round_ends_that_seats_turn(store: SQLiteStore, clock: Clock, game: str,
                                                                         humans: int, bots: int) -> None:
    """The first person plays until the game waits for the second alone; at the timeout the
    stand-in plays the second person's move, which closes the round (or phase) and makes them
    to act at once in the next: that is where their turn ends, one turn per timeout."""
    service = TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock, render_in_thread=False)
    await table(service, game, humans, bots)
    rules = registry.get(game)
    alice = PEOPLE[0]
    for _ in range(200):
        record = await store.active_game(HERE.channel_id)
        assert record is not None and record.state is not None
        state = rules.load(record.state)
        waiting = await waiting_humans(service, store)
        if waiting == ["p2"]:
            break
        assert "p1" in waiting
        async with service.parts.tables.lock(HERE.channel_id):
            await service.parts.turns.act(service.load(record), alice, "p1", rules.ai_action(state, "p1"))
    else:
        pytest.fail("the game never waited for the second person alone")
    logged = len(await store.actions(record.id))
    clock.advance(48.1)
    await service.tick()
    log = (await store.actions(record.id))[logged:]
    replayed = rules.load(record.state)
    played_for_bob = 0
    for entry in log:
        if entry.actor == "timeout":
            assert entry.seat == "p2"
            assert played_for_bob == 0 or "p2" in rules.to_act(replayed), "a second turn for the absent seat"
            before, round_before = rules.to_act(replayed), rules.round_of(replayed)
            events = rules.apply(replayed, entry.seat, entry.action)
            played_for_bob += 1
            closed = rules.round_of(replayed) != round_before or rules.ends_round(replayed, events) or \
                any(s not in before for s in rules.to_act(replayed))
            if closed:
                assert entry is [e for e in log if e.actor == "timeout"][-1], "the stand-in played on after the round"
        else:
            rules.apply(replayed, entry.seat, entry.action)
    assert played_for_bob >= 1
