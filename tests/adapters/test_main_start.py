"""`python -m bot` when the start fails: one clear line, exit status 1, never the token;
no voice warnings; a bad LOG_LEVEL said plainly."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot import __main__ as entry

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.this-is-not-a-real-token-0123456789"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _keep_logging() -> Iterator[None]:
    """main() configures the root logger; put it back for the other tests."""
    root, dlog = logging.getLogger(), logging.getLogger("discord")
    handlers, level, dlevel = root.handlers[:], root.level, dlog.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    dlog.setLevel(dlevel)


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    return tmp_path


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert TOKEN not in out + err and "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("error", [
    discord.LoginFailure(f"Improper token has been passed: {TOKEN}"),
    aiohttp.ClientConnectorError(SimpleNamespace(host="discord.com", port=443, ssl=True),
                                 OSError(101, f"Network is unreachable ({TOKEN})")),
    TimeoutError(),
])
def test_a_failed_login_is_one_line_and_status_1(env: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str], error: Exception) -> None:
    async def login(self: discord.Client, token: str) -> None:
        raise error

    monkeypatch.setattr(discord.Client, "login", login)
    assert entry.main([]) == 1
    line = _one_line(capsys)
    assert line.startswith("passepartout: ")
    assert ("not a valid bot token" in line) == isinstance(error, discord.LoginFailure)


def test_no_voice_warnings(env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from discord.voice_client import VoiceClient

    monkeypatch.setattr(VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(VoiceClient, "warn_dave", True, raising=False)

    async def login(self: discord.Client, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "login", login)
    assert entry.main([]) == 1
    assert "voice" not in _one_line(capsys)


def test_a_bad_log_level_is_said_and_falls_back_to_info() -> None:
    problem = entry.setup_logging("LOUD", None)
    assert problem is not None and "LOG_LEVEL='LOUD'" in problem and "INFO" in problem
    assert logging.getLogger().level == logging.INFO
    assert entry.setup_logging("debug", None) is None and logging.getLogger().level == logging.DEBUG


def test_python_m_bot_with_a_bad_token(tmp_path: Path) -> None:
    """The real program: no network here, so it cannot connect; with network Discord refuses
    the token. Either way: one line, status 1."""
    env = {**os.environ, "DISCORD_TOKEN": TOKEN, "DATABASE_URL": str(tmp_path / "bot.sqlite3"),
           "PYTHONPATH": str(ROOT), "LOG_LEVEL": "INFO"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1, done.stderr
    assert TOKEN not in done.stdout + done.stderr and "Traceback" not in done.stderr
    assert "voice" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize(("ids", "count"), [("0-3", ""), ("9", "4"), ("x", "2")])
def test_bad_shard_settings_are_one_line_and_status_2(env: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], ids: str,
                                                      count: str) -> None:
    async def login(self: discord.Client, token: str) -> None:  # must never be reached
        raise AssertionError("logged in despite bad shard settings")

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setenv("SHARD_IDS", ids)
    monkeypatch.setenv("SHARD_COUNT", count)
    assert entry.main([]) == 2
    line = _one_line(capsys)
    assert line.startswith("passepartout: SHARD_")


def test_python_m_bot_with_bad_shard_ids(tmp_path: Path) -> None:
    """The real program with SHARD_IDS beyond SHARD_COUNT: one line naming both, status 2."""
    env = {**os.environ, "DISCORD_TOKEN": TOKEN, "DATABASE_URL": str(tmp_path / "bot.sqlite3"),
           "PYTHONPATH": str(ROOT), "SHARD_COUNT": "2", "SHARD_IDS": "1-2"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("passepartout: SHARD_IDS='1-2': shard 2 does not exist with SHARD_COUNT=2"
                                   " (shards are numbered 0 to 1)")
    assert not (tmp_path / "bot.sqlite3").exists()  # refused before anything was opened


def test_the_local_table_with_bad_shard_ids_says_which_in_one_line(tmp_path: Path) -> None:
    """`python -m bot.local` reads the same .env: a bad SHARD_IDS there is one line, status 2."""
    (tmp_path / ".env").write_text("SHARD_COUNT=2\nSHARD_IDS=1-2\n", encoding="utf-8")
    (tmp_path / "script.txt").write_text("@alice\n/game list\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("SHARD_IDS", None)
    env.pop("SHARD_COUNT", None)
    done = subprocess.run([sys.executable, "-m", "bot.local", "--script", "script.txt"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "python -m bot.local: SHARD_IDS='1-2': shard 2 does not exist with SHARD_COUNT=2 (shards are numbered 0 to 1)"]
