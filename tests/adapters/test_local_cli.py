"""The local table as a program: its database file, a restart, a missing script, Ctrl-C."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.adapters import local
from bot.adapters.local import FakeClock, LocalTable
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore

ROOT = Path(__file__).resolve().parents[2]


async def _table(db: Path) -> tuple[LocalTable, io.StringIO]:
    store = SQLiteStore(db)
    await store.open()
    clock = FakeClock()
    out = io.StringIO()
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    return LocalTable(service, clock, out_dir=db.parent / "img", emit=out), out


@pytest.mark.usefixtures("fake_game")
async def test_a_game_survives_a_restart_with_its_buttons(tmp_path: Path) -> None:
    db = tmp_path / "local.sqlite3"
    table, _ = await _table(db)
    for line in ["alice /game new game:countdown", "bob /game join", "alice /game start"]:
        await table.run_line(line)
    await table.service.store.close()

    table, out = await _table(db)  # a new process: nothing in memory
    shown = await table.resume()
    assert len(shown) == 1 and shown[0].to == "channel" and shown[0].rows  # the board and its buttons
    pressed = await table.run_line("alice !press Your move")
    assert pressed[0].to == "ephemeral" and pressed[0].rows and not pressed[0].text.startswith("⚠️")
    status = await table.run_line("bob /game status")
    assert status[0].rows and "@alice" in json.loads(out.getvalue().splitlines()[-1])["text"]
    assert not (await table.run_line("bob !press My hand"))[0].text.startswith("⚠️")
    await table.service.store.close()


@pytest.mark.usefixtures("fake_game")
def test_interactive_keeps_games_in_local_sqlite3_unless_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("/game new game:countdown\n"))
    assert local.main(["--no-env"]) == 0
    assert (tmp_path / "local.sqlite3").exists()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert local.main(["--no-env"]) == 0
    assert "Countdown" in capsys.readouterr().out.split("Ctrl-C quits.")[-1]  # the lobby again, after a restart
    monkeypatch.setattr(sys, "stdin", io.StringIO("/game new game:countdown\n"))
    assert local.main(["--no-env", "--memory"]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("/game new game:countdown\n"))
    assert local.main(["--no-env", "--db", "other.sqlite3"]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.sqlite3")) == ["local.sqlite3", "other.sqlite3"]


def test_a_missing_script_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert local.main(["--no-env", "--script", str(tmp_path / "nope.txt")]) == 2
    err = capsys.readouterr().err
    assert "nope.txt" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_script_that_is_not_utf8_is_one_line_and_status_2(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A decoding error has no strerror: it used to escape as an AttributeError."""
    script = tmp_path / "latin1.txt"
    script.write_bytes("/game new game:détour\n".encode("latin-1"))
    assert local.main(["--no-env", "--script", str(script)]) == 2
    err = capsys.readouterr().err
    assert "latin1.txt" in err and "utf-8" in err and len(err.strip().splitlines()) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_quits_at_once_without_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "bot.local", "--no-env", "--memory"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        assert "local table" in proc.stdout.readline()  # started and waiting for a line
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)  # no Enter needed
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Traceback" not in out


async def test_an_images_alt_text_is_printed_with_it(tmp_path: Path) -> None:
    """The alt text the service gives an image: in the JSON line ("alt", in the order of
    "files") and after the image's path when interactive."""
    from bot.replies import Attachment, Reply

    table, out = await _table(tmp_path / "alt.sqlite3")
    try:
        png = b"\x89PNG\r\n\x1a\n"
        reply = Reply("channel", "a board", files=[Attachment("board.png", png, description="The board, turn 3"),
                                                   Attachment("plain.png", png)])
        await table._deliver([reply, Reply("channel", "no image")])
        with_image, without = (json.loads(line) for line in out.getvalue().splitlines())
        assert with_image["alt"] == ["The board, turn 3", None] and len(with_image["files"]) == 2
        assert "alt" not in without
        table.pretty = True
        await table._deliver([reply])
        assert "board.png — The board, turn 3" in out.getvalue()
    finally:
        await table.service.store.close()
