"""`python -m bot.admin`: no database created by looking, and a readable games table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import admin
from tests.local_driver import run_lines


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


async def _main_in_thread(argv: list[str]) -> int:
    """admin.main runs its own event loop: call it outside the test's loop."""
    import asyncio

    return await asyncio.to_thread(admin.main, argv)
