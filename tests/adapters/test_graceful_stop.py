"""SIGTERM and SIGINT stop the bot and the local table cleanly: the work in flight finishes
(bounded), nothing new starts, the store is closed (no `-wal` file left beside the SQLite
database) and the exit status is 0, within 10 s.

The bot's process is tested against an unreachable gateway (tests/support/unreachable_gateway_proc.py:
its login answered, its shard's connection to 127.0.0.1:1 retried), as one process with every
shard and as a process with some shards (SHARD_IDS); the in-flight handling in process, through
the Discord harness."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest

from bot.adapters.stopping import Stopped, StopRequest
from bot.replies import Reply
from tests.support.discord_harness import ALICE, BOB, Harness

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.not-a-real-token-for-the-stop-test"
STOP_WITHIN = 10.0

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RENDER_PROCESSES": "0", **extra}
    for key in ("SHARD_IDS", "SHARD_COUNT", "DEV_GUILD_ID"):
        if key not in extra:
            env.pop(key, None)
    return env


def _wait_for(stream: IO[str], needle: str, timeout: float = 90.0) -> list[str]:
    """Read lines until one holds `needle` (the lines read so far)."""
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            raise AssertionError(f"the process ended before {needle!r}: {''.join(seen)}")
        seen.append(line)
        if needle in line:
            return seen
    raise AssertionError(f"no {needle!r} within {timeout} s: {''.join(seen)}")


def _stop(proc: subprocess.Popen[str], sig: signal.Signals) -> tuple[float, str]:
    """Send `sig`; the seconds the process took to end and the rest of its stderr."""
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=STOP_WITHIN + 20)
    finally:
        proc.kill()
    return time.monotonic() - sent, err


def _games(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


# -- python -m bot -------------------------------------------------------------------------------


@pytest.mark.parametrize(("sig", "shards"), [
    (signal.SIGTERM, {}),
    (signal.SIGINT, {}),
    (signal.SIGTERM, {"SHARD_COUNT": "2", "SHARD_IDS": "1"}),
])
def test_the_bot_stops_cleanly_while_it_retries_the_gateway(tmp_path: Path, sig: signal.Signals,
                                                            shards: dict[str, str]) -> None:
    db = tmp_path / "bot.sqlite3"
    env = _env(DISCORD_TOKEN=TOKEN, DATABASE_URL=str(db), SYNC_COMMANDS="never", LOG_LEVEL="INFO", **shards)
    proc = subprocess.Popen([sys.executable, "-m", "tests.support.unreachable_gateway_proc"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        _wait_for(proc.stderr, "Retrying")  # logged in, store open, the shard's connection refused
        assert Path(f"{db}-wal").exists()  # the store is open in WAL mode
    except BaseException:
        proc.kill()
        raise
    took, err = _stop(proc, sig)
    assert proc.returncode == 0, err
    assert took < STOP_WITHIN, (took, err)
    assert not Path(f"{db}-wal").exists() and db.exists()
    assert TOKEN not in err


# -- the local table -------------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_interactive_local_table_stops_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    db = tmp_path / "local.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "bot.local", "--no-env", "--db", str(db)], cwd=tmp_path,
                            env=_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        _wait_for(proc.stdout, "local table")
        proc.stdin.write("/game new game:detour\n")
        proc.stdin.flush()
        _wait_for(proc.stdout, "#channel")  # the lobby was posted; the table waits for the next line
        assert Path(f"{db}-wal").exists()
        time.sleep(0.3)
    except BaseException:
        proc.kill()
        raise
    took, err = _stop(proc, sig)
    assert proc.returncode == 0, err
    assert took < STOP_WITHIN and "Traceback" not in err and "Stopped." in err
    assert not Path(f"{db}-wal").exists() and _games(db) == 1  # the game is kept


def test_a_local_script_stops_cleanly_between_lines(tmp_path: Path) -> None:
    db = tmp_path / "script.sqlite3"
    script = tmp_path / "long.txt"
    # a lobby, then more lines than it could run in the time the test waits
    script.write_text("alice /game new game:detour\n" + "alice /game status\n!wait 0\n" * 100_000, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "bot.local", "--no-env", "--db", str(db), "--script", str(script)],
                            cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        _wait_for(proc.stdout, '"to": "channel"')
        _wait_for(proc.stdout, '"to": "ephemeral"')  # the script is under way
    except BaseException:
        proc.kill()
        raise
    took, err = _stop(proc, signal.SIGTERM)
    assert proc.returncode == 0, err
    assert took < STOP_WITHIN and "Stopped." in err and "Traceback" not in err
    assert not Path(f"{db}-wal").exists() and _games(db) == 1


def test_a_stop_at_the_prompt_is_at_once_and_during_work_waits_for_it() -> None:
    """StopRequest, as the local table uses it: a signal while waiting for input ends the wait;
    one during work lets the work finish, and cancels it after the grace period."""
    with StopRequest(grace=0.3) as stop, asyncio.Runner() as runner:
        async def work(seconds: float) -> str:
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.sleep(seconds)
            return "finished"

        assert runner.run(stop.bounded(work(0.05))) == "finished" and stop.requested
        with pytest.raises(Stopped), stop.waiting():
            time.sleep(1)  # not reached: a stop was asked already
        stop.requested = False
        started = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            runner.run(stop.bounded(work(30)))
        assert time.monotonic() - started < 5
        stop.requested = False
        with pytest.raises(Stopped), stop.waiting():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the signal ends the wait
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


# -- the bot's stop, in process --------------------------------------------------------------------


async def _slow_status(h: Harness, monkeypatch: pytest.MonkeyPatch, seconds: float) -> asyncio.Event:
    started = asyncio.Event()

    async def status(user: Any, where: Any) -> list[Reply]:
        started.set()
        await asyncio.sleep(seconds)
        return [Reply("ephemeral", "done", user_id=user.id)]

    monkeypatch.setattr(h.bot.service, "status", status)
    return started


async def test_a_stop_lets_a_command_in_flight_finish_and_starts_no_new_one(
        fake_game: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    h = await Harness.create(tmp_path)
    try:
        started = await _slow_status(h, monkeypatch, 0.3)
        h.feed(h.slash(ALICE, "game status"))
        await started.wait()
        stopping = asyncio.create_task(h.bot.stop(grace=5))
        await asyncio.sleep(0.05)
        late = h.slash(BOB, "game status")  # arrives while the bot stops
        h.feed(late)
        await stopping
        assert [a.content for a in h.ephemeral_for(ALICE)] == ["done"]
        assert h.callbacks_for(late) == [] and h.ephemeral_for(BOB) == []
        assert h.bot.is_closed() and not h.bot.store_opened
    finally:
        h.interactions.clear()  # the late one is unanswered on purpose
        await h.close()


async def test_a_stop_waits_for_a_tick_in_progress_and_not_for_a_handler_past_the_grace(
        fake_game: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    h = await Harness.create(tmp_path)
    try:
        ticked: list[str] = []
        in_tick = asyncio.Event()

        async def tick() -> list[Reply]:
            in_tick.set()
            await asyncio.sleep(0.2)
            ticked.append("done")
            return []

        monkeypatch.setattr(h.bot.service, "tick", tick)
        started = await _slow_status(h, monkeypatch, 60)
        h.bot._scheduler = asyncio.create_task(h.bot._tick_loop())
        h.feed(h.slash(ALICE, "game status"))
        await asyncio.gather(in_tick.wait(), started.wait())
        began = time.monotonic()
        await h.bot.stop(grace=1)
        assert time.monotonic() - began < 3
        assert ticked == ["done"] and h.bot._scheduler.done()
        assert h.bot.is_closed() and not h.bot.store_opened
    finally:
        h.interactions.clear()  # the cancelled one was left thinking on purpose
        await h.close()


# -- python -m bot against the fake Discord --------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_the_connected_bot_answers_the_command_in_flight_and_stops_cleanly(tmp_path: Path,
                                                                                 sig: signal.Signals) -> None:
    """The real process, connected to the fake Discord (tests/support/fakediscord): a command
    arrives, the stop signal follows at once; the command is still answered, the process
    exits with status 0 within 10 s and leaves no -wal file."""
    fakediscord = pytest.importorskip("tests.support.fakediscord")
    fd = fakediscord.FakeDiscord()
    await fd.start()
    bot = fakediscord.BotProcess(fd, tmp_path)
    try:
        await bot.started()
        assert Path(f"{bot.database}-wal").exists()
        payload = fd.slash(ALICE, "game new", game="detour")
        await fd.interact(payload)
        await fd.wait_acked(payload)
        began = time.monotonic()
        bot.send_signal(sig)
        status = await bot.wait_exit(STOP_WITHIN + 5)
        assert status == 0, bot.tail()
        assert time.monotonic() - began < STOP_WITHIN
        assert bot.wal_files() == [] and _games(bot.database) == 1
        assert any(m.buttons for m in fd.channel_messages())  # the lobby was posted before the stop ended
        assert "Traceback" not in bot.log()
    finally:
        await bot.stop()
        await fd.stop()
