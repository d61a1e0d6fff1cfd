"""Crash safety: a writer process is SIGKILLed in the middle of a burst of commits.

The writer (tests/store_writer_proc.py) prints each version right after commit_action
returns. After the kill the database is reopened (a SQLite file, or a PostgreSQL database
whose server outlives its killed client): every acknowledged action is in the log,
at most one more (committed, killed before printing), the log has no gaps, and the stored
state and version are exactly the last logged action's.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import CHECKPOINT_EVERY, SeatRecord, SQLiteStore, store_from_url
from tests.conftest import BACKENDS
from tests.support.store_writer_proc import make_state

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def run_and_kill(url: str, game_pk: int, kill_after: int, tag: str, jitter: float,
                 durable: bool = False) -> list[tuple[int, str]]:
    """Start a burst writer, SIGKILL it once it has acknowledged `kill_after` commits (plus a
    little jitter so the kill lands at different points of a commit); return every
    acknowledged (version, token), including lines printed between our read and the kill."""
    args = [sys.executable, "-m", "tests.support.store_writer_proc", "burst", url, str(game_pk), "1000000", tag]
    if durable:
        args.append("--durable")
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 20
        while len(lines) < kill_after and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break  # the writer died on its own
            lines.append(line)
        if jitter:
            time.sleep(jitter)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        lines += proc.stdout.read().splitlines(keepends=True)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL, f"the writer ended by itself: {err}"
    assert len(lines) >= kill_after, f"the writer acknowledged only {len(lines)} commits: {err}"
    acked = []
    for line in lines:
        assert line.endswith("\n"), f"torn line {line!r}"
        word, version, token = line.split()
        assert word == "ack"
        acked.append((int(version), token))
    return acked


async def test_sigkill_mid_burst_loses_no_acknowledged_commit(store_url: str) -> None:
    s = store_from_url(store_url)
    await s.open()
    try:
        game = await s.create_game(channel_id=1, guild_id=None, game_id="detour",
                                   host=SeatRecord(0, 1, "Alice"), options={}, settings={}, seed=1)
        game.status = "running"
        game.state = make_state(0, "start")
        await s.save_lobby(game, expected_version=0)
        base = game.version
    finally:
        await s.close()

    rng = random.Random(20261121)
    acked: list[tuple[int, str]] = []
    logged = 0  # log length before the current run
    # 65: killed one commit after the 64th started a background WAL checkpoint (SQLite), most
    # likely while that checkpoint is still copying
    runs = [(1, False), (6, False), (40, False), (CHECKPOINT_EVERY + 1, False), (150, False), (25, True)]
    for run, (kill_after, durable) in enumerate(runs):
        new = run_and_kill(store_url, game.id, kill_after, f"run{run}", jitter=rng.choice([0, 0.0003, 0.001, 0.002]),
                           durable=durable)
        assert [v for v, _ in new] == list(range(new[0][0], new[0][0] + len(new))), "acks out of order"
        acked += new

        if isinstance(s, SQLiteStore):
            with sqlite3.connect(s.path) as conn:  # recovery from the WAL left by the killed writer
                assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            conn.close()

        s = store_from_url(store_url)
        await s.open()
        try:
            log = await s.actions(game.id)
            stored = await s.get_game(game.id)
        finally:
            await s.close()
        assert stored is not None
        assert [a.seq for a in log] == list(range(1, len(log) + 1)), "gap or duplicate in the log"
        for version, token in acked:
            assert version - base <= len(log), f"acknowledged version {version} is lost"
            assert log[version - base - 1].action["token"] == token
        # killed between COMMIT and the print: at most one committed action per run was never acknowledged
        assert logged + len(new) <= len(log) <= logged + len(new) + 1
        logged = len(log)
        last = log[-1].action
        assert last["n"] == base + len(log)
        assert stored.version == base + len(log)
        assert stored.state == make_state(last["n"], last["token"]), "the state is not the last action's"
        assert (stored.remind_at, stored.timeout_at) == (1_000.0 + last["n"], 2_000.0 + last["n"])
        assert stored.status == "running"
    assert len(acked) >= sum(k for k, _ in runs)
