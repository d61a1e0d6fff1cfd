"""`python -m bot.admin`: no database created by looking, a readable games table, and
`migrate` between SQLite and PostgreSQL (a real server) without losing a row."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters import admin
from tests.support.local_driver import run_lines


@pytest.mark.parametrize("command", ["verify", "games"])
def test_a_missing_database_is_an_error_and_not_created(tmp_path: Path, command: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "typo.sqlite3"
    assert admin.main([command, "--db", str(db)]) == 2
    assert not db.exists() and not list(tmp_path.iterdir())
    err = capsys.readouterr().err
    assert "no database" in err and "typo.sqlite3" in err and "Traceback" not in err


def test_a_missing_database_url_file_is_not_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'nothere.sqlite3'}")
    assert admin.main(["games"]) == 2
    assert not (tmp_path / "nothere.sqlite3").exists()


@pytest.mark.usefixtures("fake_game")
async def test_games_prints_an_aligned_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    await run_lines(tmp_path, ["alice /game new game:countdown", "bob /game join", "alice /game addbot",
                               "alice /game start", "alice /countdown take n:1"])
    capsys.readouterr()
    assert await _main_in_thread(["games", "--db", str(tmp_path / "local.sqlite3")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["#", "game", "status", "players", "moves/version", "channel", "last", "change"]
    assert set(lines[1]) <= {"-", " "}
    row = lines[2]
    assert "countdown" in row and "running" in row and "alice, bob, Phileas (AI)" in row
    assert lines[0].index("game") == row.index("countdown")  # aligned under its header
    assert lines[0].index("status") == row.index("running")
    date = row.split()[-2]
    assert len(date) == 10 and date[4] == "-" and date[7] == "-"  # a date, not a timestamp


@pytest.mark.usefixtures("fake_game")
async def test_games_shows_a_paused_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    await run_lines(tmp_path, ["alice /game new game:countdown", "bob /game join", "alice /game start"])
    from bot.store import SQLiteStore

    store = SQLiteStore(str(tmp_path / "local.sqlite3"))
    await store.open()
    try:
        await store.pause_games(at=1.0, channel_id=1)  # the local table's channel is gone
    finally:
        await store.close()
    capsys.readouterr()
    assert await _main_in_thread(["games", "--db", str(tmp_path / "local.sqlite3")]) == 0
    assert "running (paused)" in capsys.readouterr().out


async def _main_in_thread(argv: list[str]) -> int:
    """admin.main runs its own event loop: call it outside the test's loop."""
    import asyncio

    return await asyncio.to_thread(admin.main, argv)


# -- migrate: SQLite -> PostgreSQL -> SQLite ------------------------------------------------------
GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")


async def _fill(path: Path) -> None:
    """A database as a bot leaves it: each game once finished (and rated) and once running (and
    followed; AI stand-ins play the human's turns), a lobby, preferences and meta rows."""
    from bot.replies import User, Where
    from bot.service import TableService
    from bot.settings import Settings
    from bot.store import Follow, SQLiteStore

    store = SQLiteStore(path)
    await store.open()
    try:
        service = TableService(store, Settings(), render_in_thread=False)
        alice = User(1, "Alice", "en-US")
        channel = 100
        for game in GAMES:
            for finish in (True, False):
                channel += 1
                where = Where(channel_id=channel, guild_id=10, guild_locale="en-US")
                await service.new_game(alice, where, game, seed=channel)
                await service.addbot(alice, where, 1)
                await service.start(alice, where)
                for _turn in range(10_000 if finish else 3):
                    record = await store.active_game(channel)
                    if record is None:
                        break
                    await service.parts.turns.run_ai(service.load(record), stand_in={"p1"})
                last = await store.last_game(channel)
                assert last is not None and last.status == ("finished" if finish else "running")
                if finish:  # rated as the turn message would (the stand-ins' moves skip it)
                    await service.parts.ratings.rate_safely(service.load(last))
                else:  # followed by DM and in a thread
                    await service.follow(User(7, "Eve", "en-US"), where)
                    await store.set_follow(Follow(last.id, 2**62 + 1, "Dan", thread_id=2**62 + 2), limit=20)
        await service.new_game(User(2, "Bob", "de"), Where(channel_id=999, guild_id=10), "detour")
        await store.set_user_pref(1, dm=True)
        await store.set_user_pref(2, dm=False)
        await store.set_meta("commands", "fingerprint-1")
    finally:
        await store.close()


async def _dump(url: str) -> dict[str, list[tuple[object, ...]]]:
    from bot.store import COPY_TABLES, store_from_url

    store = store_from_url(url)
    await store.open()
    try:
        columns = {t: [c for c in await store.columns(t) if not c.startswith("lease_")]  # type: ignore[attr-defined]
                   for t in COPY_TABLES}
        return {t: await store.export_rows(t, columns[t]) for t in COPY_TABLES}  # type: ignore[attr-defined]
    finally:
        await store.close()


@pytest.mark.wholegame
async def test_migrate_round_trips_every_game_through_postgres(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support.pg import drop_pg_database, fresh_pg_dsn

    source, back = tmp_path / "source.sqlite3", tmp_path / "back.sqlite3"
    await _fill(source)
    dsn = fresh_pg_dsn()
    try:
        assert await _main_in_thread(["migrate", "--from", str(source), "--to", dsn]) == 0
        out = capsys.readouterr().out
        assert "copied 9 games" in out and "0 problems" in out and "BAD" not in out
        assert await _main_in_thread(["verify", "--db", dsn]) == 0
        assert "9 games checked, 0 problems" in capsys.readouterr().out
        # a non-empty target is refused (and left alone) unless --force
        assert await _main_in_thread(["migrate", "--from", str(source), "--to", dsn]) == 2
        assert "not empty" in capsys.readouterr().err
        assert await _main_in_thread(["migrate", "--from", str(source), "--to", dsn, "--force"]) == 0
        assert await _main_in_thread(["migrate", "--from", dsn, "--to", f"sqlite:///{back}"]) == 0
        assert "0 problems" in capsys.readouterr().out
        original, copied = await _dump(f"sqlite:///{source}"), await _dump(f"sqlite:///{back}")
        counts = {t: len(rows) for t, rows in original.items()}
        assert counts["games"] == 9
        # four finished games rated (two seats each, a human and the AI), eight follows
        assert (counts["game_results"], counts["result_seats"], counts["follows"]) == (4, 8, 8)
        assert counts["ratings"] == 2 * len(GAMES)  # Alice and the AI, per game
        assert copied == original
        # the copy is a working store: new games continue after the copied ids
        from bot.store import SeatRecord, store_from_url

        pg = store_from_url(dsn)
        await pg.open()
        try:
            made = await pg.create_game(channel_id=5, guild_id=None, game_id="detour", host=SeatRecord(0, 1, "A"),
                                        options={}, settings={}, seed=1)
            assert made.id == max(row[0] for row in original["games"]) + 1  # type: ignore[operator]
        finally:
            await pg.close()
    finally:
        drop_pg_database(dsn)


def test_migrate_refuses_a_missing_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "target.sqlite3"
    assert admin.main(["migrate", "--from", str(tmp_path / "typo.sqlite3"), "--to", str(target)]) == 2
    err = capsys.readouterr().err
    assert "no database" in err and "Traceback" not in err
    assert not target.exists()
