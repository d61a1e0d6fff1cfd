"""The store's games: create/read round trips, one active game per channel, save_lobby,
commit_action (log, state, version check), deadlines and due games, small preferences.
Every test runs on both backends (SQLite and a real PostgreSQL server)."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import ChannelBusy, SeatRecord, SQLiteStore, Store, VersionConflict, store_from_url
from tests.conftest import BACKENDS
from tests.support.pg import drop_pg_database, fresh_pg_dsn, raw_rows
from tests.support.store_games import HOST, commit, new_game, start


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db(store: Store) -> Store:
    return store


async def raw(s: Store, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Read the database through a separate connection: what another process would see."""
    return await raw_rows(s, sql, params)


# -- create / active / get -------------------------------------------------------------------
async def test_create_active_get_round_trip(db: Store) -> None:
    game = await new_game(db)
    assert game.id > 0
    assert (game.status, game.version, game.state, game.active) == ("lobby", 0, None, True)
    assert game.seats == [HOST]
    active = await db.active_game(100)
    fetched = await db.get_game(game.id)
    assert active == game
    assert fetched == game
    assert await db.active_game(101) is None
    assert await db.get_game(game.id + 1000) is None
    assert await db.last_game(100) == game
    assert fetched is not None and fetched.seat_of_user(HOST.user_id) == HOST


async def test_discord_snowflakes_round_trip(db: Store) -> None:
    channel, guild, user = 1_234_567_890_123_456_789, 987_654_321_098_765_432, 2**63 - 1
    game = await db.create_game(channel_id=channel, guild_id=guild, game_id="detour",
                                host=SeatRecord(0, user, "Snow"), options={}, settings={}, seed=2**62)
    fetched = await db.active_game(channel)
    assert fetched is not None
    assert (fetched.id, fetched.channel_id, fetched.guild_id, fetched.host_id, fetched.seed) == (
        game.id, channel, guild, user, 2**62)
    assert fetched.seat_of_user(user) is not None


async def test_seats_round_trip_in_position_order_through_every_read(db: Store) -> None:
    """Seats come back whole and ordered by position (10 after 2, not before) from every
    read: the one-statement reads and the many-game reads."""
    game = await new_game(db)
    game.seats = [SeatRecord(10, 2**63 - 1, 'Zoë "Z" \\ 🚂', seat=None, lang=None),
                  SeatRecord(2, 13, "Bob", is_bot=True, seat="p2", dm=True, lang="de"),
                  SeatRecord(0, HOST.user_id, HOST.name, seat="p1", lang="fr")]
    await db.save_lobby(game, expected_version=game.version)
    ordered = sorted(game.seats, key=lambda s: s.position)
    for read in (await db.get_game(game.id), await db.active_game(100), await db.last_game(100),
                 *(await db.games())):
        assert read is not None
        assert read.seats == ordered


async def test_a_turn_reads_and_commits_in_one_round_trip_each(db: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-turn path: loading the game and committing a move each cost one trip to the
    database (one hop to SQLite's connection thread, one PostgreSQL statement), not one per
    statement, fetch, BEGIN and COMMIT."""
    game = await start(db, await new_game(db))
    trips: list[str] = []
    if isinstance(db, SQLiteStore):
        hop = db.on_thread

        async def counted_hop(fn: Any, *args: Any) -> Any:
            trips.append(getattr(fn, "__name__", "?"))
            return await hop(fn, *args)

        monkeypatch.setattr(db, "on_thread", counted_hop)
    else:
        statements = {"execute", "executemany", "fetch", "fetchrow", "fetchval", "transaction"}

        class Counting:
            """The store's pool (or a connection taken from it), counting each statement,
            transaction and connection taken."""

            def __init__(self, inner: Any) -> None:
                self.inner = inner

            def __getattr__(self, name: str) -> Any:
                found = getattr(self.inner, name)
                if name == "acquire":
                    return lambda *args, **kwargs: CountingAcquire(found(*args, **kwargs))
                if name not in statements:
                    return found

                def counted(*args: Any, **kwargs: Any) -> Any:
                    trips.append(name)
                    return found(*args, **kwargs)

                return counted

        class CountingAcquire:
            def __init__(self, inner: Any) -> None:
                self.inner = inner

            async def __aenter__(self) -> Counting:
                trips.append("acquire")
                return Counting(await self.inner.__aenter__())

            async def __aexit__(self, *exc: Any) -> Any:
                return await self.inner.__aexit__(*exc)

        monkeypatch.setattr(db, "_pool", Counting(db._pool))  # type: ignore[attr-defined]
    loaded = await db.get_game(game.id)
    assert loaded is not None and len(trips) == 1, trips
    await commit(db, loaded, 1)
    assert len(trips) == 2, trips
    with pytest.raises(VersionConflict):
        await commit(db, loaded, 2, expected=loaded.version - 1)
    assert len(trips) == 3, trips
    monkeypatch.undo()
    assert [a.seq for a in await db.actions(game.id)] == [1]


async def test_save_lobby_round_trips_seats_options_settings_state(db: Store) -> None:
    game = await new_game(db)
    game.seats = [SeatRecord(0, 11, "Alice", seat="p1", lang="fr"),
                  SeatRecord(1, 12, "Bøb 🚂", seat="p2", dm=True),
                  SeatRecord(2, 0, "Passepartout (AI)", is_bot=True, seat="p3")]
    game.options = {"map": "europe", "rounds": 3}
    game.settings = {"language": "de", "timer_h": 24}
    game.status = "running"
    game.state = {"turn": "p1", "deck": list(range(30)), "names": ["Zürich", "東京"]}
    game.remind_at, game.timeout_at = 50.0, 90.0
    assert await db.save_lobby(game, expected_version=0) == 1
    assert game.version == 1
    fetched = await db.get_game(game.id)
    assert fetched is not None
    assert fetched.seats == game.seats
    assert (fetched.options, fetched.settings, fetched.state) == (game.options, game.settings, game.state)
    assert (fetched.status, fetched.version, fetched.remind_at, fetched.timeout_at) == ("running", 1, 50.0, 90.0)
    assert fetched.seat_record("p3") is not None and fetched.seat_record("p3").is_bot  # type: ignore[union-attr]
    assert fetched.seat_of_user(0) is None  # the AI seat is not a user's seat
    # fewer seats later: the removed seat is gone
    game.seats = game.seats[:1]
    await db.save_lobby(game, expected_version=1)
    assert [s.name for s in (await db.get_game(game.id)).seats] == ["Alice"]  # type: ignore[union-attr]


async def test_save_lobby_with_a_stale_version_writes_nothing(db: Store) -> None:
    game = await new_game(db)
    stale = copy.deepcopy(game)
    await start(db, game)
    before = await db.get_game(game.id)
    stale.status = "cancelled"
    stale.seats = []
    stale.options = {"changed": True}
    with pytest.raises(VersionConflict):
        await db.save_lobby(stale, expected_version=0)
    fetched = await db.get_game(game.id)
    assert fetched == before
    assert fetched is not None and len(fetched.seats) == 2 and fetched.status == "running"


# -- one active game per channel -------------------------------------------------------------
async def test_one_active_game_per_channel(db: Store) -> None:
    game = await new_game(db)
    with pytest.raises(ChannelBusy):
        await new_game(db, game_id="other")
    await start(db, game)
    game = await db.get_game(game.id)
    with pytest.raises(ChannelBusy):
        await new_game(db, game_id="other")
    # the refused creates left nothing behind
    assert await raw(db, "SELECT COUNT(*) FROM games") == [(1,)]
    assert await raw(db, "SELECT COUNT(*) FROM seats") == [(2,)]
    # another channel is independent
    elsewhere = await new_game(db, channel_id=200)
    assert (await db.active_game(200)) == elsewhere
    assert (await db.active_game(100)) == game


@pytest.mark.parametrize("final", ["finished", "cancelled"])
async def test_channel_is_free_again_after_finished_or_cancelled(db: Store, final: str) -> None:
    first = await new_game(db)
    await start(db, first)
    first.status = final
    await db.save_lobby(first, expected_version=first.version)
    assert await db.active_game(100) is None
    second = await new_game(db, game_id="rails")
    assert second.id != first.id
    assert await db.active_game(100) == second
    assert await db.last_game(100) == second
    assert (await db.get_game(first.id)).status == final  # type: ignore[union-attr]
    with pytest.raises(ChannelBusy):
        await new_game(db)
    assert [g.id for g in await db.games(status=final)] == [first.id]
    assert [g.id for g in await db.games(status="lobby")] == [second.id]
    assert [g.id for g in await db.games()] == [first.id, second.id]


async def test_a_lobby_cancelled_before_start_frees_the_channel(db: Store) -> None:
    game = await new_game(db)
    game.status = "cancelled"
    await db.save_lobby(game, expected_version=0)
    assert await db.active_game(100) is None
    await new_game(db)


async def test_finishing_commit_frees_the_channel(db: Store) -> None:
    game = await start(db, await new_game(db))
    await commit(db, game, 1, status="finished")
    assert await db.active_game(100) is None
    assert (await new_game(db)).status == "lobby"


# -- commit_action ----------------------------------------------------------------------------
async def test_commit_action_appends_log_and_writes_state(db: Store) -> None:
    game = await start(db, await new_game(db))
    base = game.version
    for n in range(1, 8):
        before = game.updated_at
        version = await commit(db, game, n, remind_at=100.0 + n, timeout_at=200.0 + n,
                               actor="ai" if n % 3 == 0 else "human")
        assert version == base + n == game.version
        assert game.state == {"turn": f"p{(n + 1) % 2 + 1}", "n": n}
        assert game.updated_at >= before
        stored = await db.get_game(game.id)
        assert stored is not None
        assert (stored.version, stored.state, stored.status) == (base + n, game.state, "running")
        assert (stored.remind_at, stored.timeout_at) == (100.0 + n, 200.0 + n)
    log = await db.actions(game.id)
    assert [a.seq for a in log] == list(range(1, 8))
    assert [a.action["n"] for a in log] == list(range(1, 8))
    assert [a.seat for a in log] == [f"p{n % 2 + 1}" for n in range(1, 8)]
    assert [a.actor for a in log] == ["ai" if n % 3 == 0 else "human" for n in range(1, 8)]
    assert log[0].events == [{"type": "moved", "n": 1, "text": "→ Suez ✈"}]
    assert all(a.at <= b.at for a, b in zip(log, log[1:], strict=False))
    assert [a.seq for a in await db.actions(game.id, since=5)] == [6, 7]
    assert await db.actions(game.id, since=7) == []
    # another connection sees the same committed rows
    assert await raw(db, "SELECT MAX(seq), COUNT(*) FROM actions WHERE game=?", (game.id,)) == [(7, 7)]
    assert await raw(db, "SELECT version FROM games WHERE id=?", (game.id,)) == [(base + 7,)]


async def test_stored_json_is_compact_and_keeps_unicode(db: Store) -> None:
    """The state and the log are stored as compact JSON with characters as they are (what
    admin tools, exports and the replay check read), whichever encoder writes them."""
    game = await start(db, await new_game(db))
    state = {"turn": "p2", "names": ["Zoë", "→ Suez ✈"], "n": [1, 2.5, None, True]}
    await db.commit_action(game, expected_version=game.version, seat="p1", action={"type": "go", "to": "Zürich"},
                           events=[{"type": "moved", "text": "→ ✈"}], state=state, status="running",
                           actor="human", remind_at=None, timeout_at=None)
    assert await raw(db, "SELECT state FROM games WHERE id=?", (game.id,)) == [
        ('{"turn":"p2","names":["Zoë","→ Suez ✈"],"n":[1,2.5,null,true]}',)]
    assert await raw(db, "SELECT action, events FROM actions WHERE game=?", (game.id,)) == [
        ('{"type":"go","to":"Zürich"}', '[{"type":"moved","text":"→ ✈"}]')]


async def test_commit_action_status_and_deadline_clearing(db: Store) -> None:
    game = await start(db, await new_game(db))
    await commit(db, game, 1, remind_at=5.0, timeout_at=6.0)
    await commit(db, game, 2, status="finished", remind_at=None, timeout_at=None)
    stored = await db.get_game(game.id)
    assert stored is not None
    assert (stored.status, stored.remind_at, stored.timeout_at, stored.active) == ("finished", None, None, False)


async def test_logs_are_per_game(db: Store) -> None:
    a = await start(db, await new_game(db, channel_id=1))
    b = await start(db, await new_game(db, channel_id=2))
    for n in range(1, 4):
        await commit(db, a, n)
    await commit(db, b, 1)
    assert [x.seq for x in await db.actions(a.id)] == [1, 2, 3]
    assert [x.seq for x in await db.actions(b.id)] == [1]


@pytest.mark.parametrize("offset", [-1, -2, 1, 5])
async def test_stale_expected_version_conflicts_and_writes_nothing(db: Store, offset: int) -> None:
    game = await start(db, await new_game(db))
    await commit(db, game, 1, remind_at=10.0, timeout_at=20.0)
    await commit(db, game, 2, remind_at=11.0, timeout_at=21.0)
    before_record = await db.get_game(game.id)
    before_log = await db.actions(game.id)
    before_rows = await raw(db, "SELECT * FROM games"), await raw(db, "SELECT * FROM actions")
    held = copy.deepcopy(game)
    with pytest.raises(VersionConflict):
        await db.commit_action(held, expected_version=game.version + offset, seat="p1", action={"type": "late"},
                               events=[{"type": "late"}], state={"late": True}, status="finished", actor="human",
                               remind_at=999.0, timeout_at=999.0)
    assert held == game  # the caller's record is untouched
    assert await db.get_game(game.id) == before_record
    assert await db.actions(game.id) == before_log
    assert (await raw(db, "SELECT * FROM games"), await raw(db, "SELECT * FROM actions")) == before_rows
    # and the right version still works afterwards
    assert await commit(db, game, 3) == before_record.version + 1  # type: ignore[union-attr]


async def test_commit_on_unknown_game_conflicts(db: Store) -> None:
    game = await start(db, await new_game(db))
    ghost = copy.deepcopy(game)
    ghost.id = game.id + 99
    with pytest.raises(VersionConflict):
        await commit(db, ghost, 1)
    assert await raw(db, "SELECT COUNT(*) FROM actions") == [(0,)]


async def test_version_is_shared_by_lobby_saves_and_commits(db: Store) -> None:
    """A lobby save bumps the version, so a commit prepared before it is refused."""
    game = await start(db, await new_game(db))
    prepared = game.version
    game.options = {"map": "asia"}
    await db.save_lobby(game, expected_version=game.version)
    with pytest.raises(VersionConflict):
        await commit(db, game, 1, expected=prepared)
    assert await db.actions(game.id) == []


# -- deadlines ----------------------------------------------------------------------------------
async def test_due_games_selects_running_games_with_a_due_deadline(db: Store) -> None:
    now = 1_000_000.0
    made: dict[str, int] = {}

    async def running(name: str, channel: int, remind: float | None, timeout: float | None,
                      status: str = "running") -> None:
        g = await new_game(db, channel_id=channel)
        g.status = "running"
        g.state = {"n": 0}
        await db.save_lobby(g, expected_version=0)
        await commit(db, g, 1, remind_at=remind, timeout_at=timeout, status=status)
        made[name] = g.id

    await running("remind_due", 1, now - 10, now + 3600)
    await running("timeout_due", 2, None, now - 1)
    await running("both_due", 3, now - 100, now - 50)
    await running("remind_exactly_now", 4, now, None)
    await running("timeout_exactly_now", 5, now + 10, now)
    await running("future", 6, now + 1, now + 2)
    await running("no_deadlines", 7, None, None)
    await running("finished_past", 8, now - 10, now - 10, status="finished")
    lobby = await new_game(db, channel_id=9)
    lobby.remind_at, lobby.timeout_at = now - 10, now - 10
    await db.save_lobby(lobby, expected_version=0)  # a lobby with past deadlines is never due

    due = await db.due_games(now)
    assert [g.id for g in due] == [made[k] for k in ("remind_due", "timeout_due", "both_due", "remind_exactly_now",
                                                     "timeout_exactly_now")]
    assert all(g.status == "running" for g in due)
    assert all(g.seats for g in due)  # full records, seats included
    assert [g.id for g in await db.due_games(now - 1_000_000)] == []
    later = {g.id for g in await db.due_games(now + 2)}
    assert made["future"] in later and made["no_deadlines"] not in later and made["finished_past"] not in later


async def test_set_deadlines_changes_selection_without_bumping_the_version(db: Store) -> None:
    now = 500.0
    game = await start(db, await new_game(db))
    await commit(db, game, 1, remind_at=now - 5, timeout_at=None)
    version = game.version
    assert [g.id for g in await db.due_games(now)] == [game.id]

    await db.set_deadlines(game.id, remind_at=None, timeout_at=now + 100)
    assert await db.due_games(now) == []
    stored = await db.get_game(game.id)
    assert stored is not None
    assert (stored.remind_at, stored.timeout_at, stored.version) == (None, now + 100, version)
    assert [g.id for g in await db.due_games(now + 100)] == [game.id]

    await db.set_deadlines(game.id, remind_at=now - 1, timeout_at=None)
    assert [g.id for g in await db.due_games(now)] == [game.id]
    await db.set_deadlines(game.id, remind_at=None, timeout_at=None)
    assert await db.due_games(now + 10**9) == []
    # a turn's buttons (built at `version`) still commit after deadline changes
    assert await commit(db, game, 2) == version + 1


async def test_save_settings_keeps_the_version(db: Store) -> None:
    game = await start(db, await new_game(db))
    version = game.version
    game.settings = {"language": "fr", "timer_h": 6}
    game.seats[0].dm = True
    game.remind_at, game.timeout_at = 77.0, 88.0
    await db.save_settings(game)
    stored = await db.get_game(game.id)
    assert stored is not None
    assert stored.version == version
    assert stored.settings == {"language": "fr", "timer_h": 6}
    assert [s.dm for s in stored.seats] == [True, True]
    assert (stored.remind_at, stored.timeout_at) == (77.0, 88.0)
    assert [g.id for g in await db.due_games(80.0)] == [game.id]


async def test_user_prefs_and_meta(db: Store) -> None:
    assert await db.user_dm(5) is False
    await db.set_user_pref(5, dm=True)
    assert await db.user_dm(5) is True
    await db.set_user_pref(5, dm=None)  # no change asked
    assert await db.user_dm(5) is True
    await db.set_user_pref(5, dm=False)
    assert await db.user_dm(5) is False
    assert await db.get_meta("commands") is None
    await db.set_meta("commands", "abc")
    await db.set_meta("commands", "def")
    assert await db.get_meta("commands") == "def"


# -- model-based: random operation sequences against a tiny model ---------------------------------
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("commit"), st.sampled_from([0, 0, 0, -1, 1, -3])),
        st.tuples(st.just("lobby"), st.sampled_from([0, 0, -1])),
        st.tuples(st.just("deadlines"), st.sampled_from([None, 10.0, 30.0])),
    ),
    min_size=1, max_size=25,
)


async def _run_model(ops: list[tuple[str, Any]], url: str = "sqlite://") -> None:
    s = store_from_url(url)
    await s.open()
    try:
        if not isinstance(s, SQLiteStore):  # one PostgreSQL database for all examples: start empty
            await s.raw("TRUNCATE games CASCADE")  # type: ignore[attr-defined]
        game = await start(s, await new_game(s))
        version, state, log, remind = game.version, dict(game.state or {}), [], None
        for i, (op, arg) in enumerate(ops):
            if op == "commit":
                expected = version + arg
                try:
                    new = await s.commit_action(
                        copy.deepcopy(game), expected_version=expected, seat="p1", action={"i": i}, events=[],
                        state={"i": i}, status="running", actor="human", remind_at=float(i), timeout_at=None)
                except VersionConflict:
                    assert arg != 0
                else:
                    assert arg == 0 and new == version + 1
                    version, state, remind = new, {"i": i}, float(i)
                    log.append(i)
            elif op == "lobby":
                record = await s.get_game(game.id)
                assert record is not None
                record.settings = {"i": i}
                try:
                    await s.save_lobby(record, expected_version=version + arg)
                except VersionConflict:
                    assert arg != 0
                else:
                    assert arg == 0
                    version += 1
            else:
                await s.set_deadlines(game.id, remind_at=arg, timeout_at=None)
                remind = arg
            stored = await s.get_game(game.id)
            assert stored is not None
            assert (stored.version, stored.state, stored.remind_at) == (version, state, remind)
            actions = await s.actions(game.id)
            assert [a.seq for a in actions] == list(range(1, len(log) + 1))
            assert [a.action["i"] for a in actions] == log
            due = [g.id for g in await s.due_games(20.0)]
            assert due == ([game.id] if remind is not None and remind <= 20.0 else [])
    finally:
        await s.close()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_random_operation_sequences_match_the_model(ops: list[tuple[str, Any]]) -> None:
    asyncio.run(_run_model(ops))


@pytest.fixture(scope="module")
def model_dsn() -> Any:
    dsn = fresh_pg_dsn()
    yield dsn
    drop_pg_database(dsn)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_random_operation_sequences_match_the_model_on_postgres(model_dsn: str, ops: list[tuple[str, Any]]) -> None:
    asyncio.run(_run_model(ops, model_dsn))


async def test_finished_games_of_a_channel_newest_first_and_limited(db: Store) -> None:
    """`/game replay` offers a channel's finished games: only finished ones, only that channel's,
    newest first, at most `limit` (both backends answer alike)."""
    finished = []
    for _ in range(3):
        game = await start(db, await new_game(db))
        await commit(db, game, 0, status="finished")
        finished.append(game.id)
    running = await start(db, await new_game(db))  # the channel's open game is not offered
    other = await start(db, await new_game(db, channel_id=200))
    await commit(db, other, 0, status="finished")
    assert [g.id for g in await db.finished_games(100)] == finished[::-1]
    assert [g.id for g in await db.finished_games(100, limit=2)] == finished[:0:-1]
    assert await db.finished_games(100, limit=0) == []
    assert running.id not in [g.id for g in await db.finished_games(100)]
    assert [g.id for g in await db.finished_games(200)] == [other.id]
    assert all(g.seats and g.status == "finished" for g in await db.finished_games(100))


async def test_swap_meta_is_a_compare_and_set_one_process_wins(db: Store, store_url: str) -> None:
    """Claims (e.g. posting a finished game's pictures) go to exactly one of several processes
    swapping from the same value; a swap from a value no longer held changes nothing."""
    others = [store_from_url(store_url) for _ in range(3)]
    for other in others:
        await other.open()
    try:
        won = await asyncio.gather(*(s.swap_meta("claim", None, f"p{i}") for i, s in enumerate([db, *others])))
        assert sorted(won) == [False, False, False, True]
        holder = f"p{won.index(True)}"
        assert await db.get_meta("claim") == holder
        won = await asyncio.gather(*(s.swap_meta("claim", holder, f"q{i}") for i, s in enumerate([db, *others])))
        assert sorted(won) == [False, False, False, True]
        assert not await db.swap_meta("claim", holder, "late")  # no longer held: nothing changes
        assert await db.get_meta("claim") == f"q{won.index(True)}"
    finally:
        for other in others:
            await other.close()
