"""The real bot, `python -m bot`, as a child process talking to the fake Discord.

    bot = BotProcess(fd, tmp_path)          # its database: tmp_path / "bot.sqlite3"
    await bot.start(); await bot.wait_ready()
    bot.kill(); await bot.wait_exit()       # SIGKILL; bot.terminate() sends SIGTERM
    await bot.start(); await bot.wait_ready()   # again, on the same database
    bot.log()                               # what this run wrote to stderr/stdout

Each run's output goes to its own file in the work folder (`bot-1.log`, `bot-2.log`, …). The
child runs in the work folder (so no .env of the repository is read) with a scrubbed
environment: a fake token, the database, FAKE_DISCORD_URL and the test-only sitecustomize
first on PYTHONPATH (child/sitecustomize.py), which points discord.py at the fake Discord.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parents[3]
CHILD = Path(__file__).resolve().parent / "child"
#: what the child must not inherit from whoever runs the tests (besides every key of .env.example)
_SCRUBBED = ("DISCORD_", "DATABASE_", "PASSEPARTOUT_", "DEV_GUILD", "SHARD_", "FAKE_DISCORD", "PYTHONPATH",
             "PYTHONSTARTUP", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "WS_PROXY", "WSS_PROXY")


def _settings_keys() -> tuple[str, ...]:
    """Every setting .env.example lists (a developer's REMINDER_HOURS must not reach the child)."""
    example = ROOT / ".env.example"
    text = example.read_text(encoding="utf-8") if example.exists() else ""
    return tuple(m[1] for m in re.finditer(r"(?m)^([A-Z][A-Z0-9_]*)=", text))


class BotDied(RuntimeError):
    """The bot process ended while a test was waiting for it."""


class BotProcess:
    def __init__(self, fd: FakeDiscord, workdir: Path, *, database: Path | None = None,
                 env: Mapping[str, str] | None = None, name: str = "bot") -> None:
        self.fd = fd
        self.workdir = Path(workdir)
        self.database = database or self.workdir / f"{name}.sqlite3"
        self.extra_env = dict(env or {})
        self.name = name
        self.runs = 0
        self.proc: asyncio.subprocess.Process | None = None
        self.log_path: Path | None = None
        #: the gateway connections that existed when this run started (wait_ready waits for a newer one)
        self.connections_at_start = 0
        self._exit_expected = False
        fd.processes.append(self)

    def environment(self) -> dict[str, str]:
        scrubbed = _SCRUBBED + _settings_keys()
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith(scrubbed)}
        env.update({
            "DISCORD_TOKEN": self.fd.token,
            "DATABASE_URL": str(self.database),
            "FAKE_DISCORD_URL": self.fd.url,
            "PYTHONPATH": os.pathsep.join([str(CHILD), str(ROOT)]),
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "INFO",
            "RENDER_PROCESSES": "0",  # as every test: render in threads, no pool to start
        })
        env.update(self.extra_env)
        return env

    async def start(self) -> None:
        """Start a run (the previous one must have exited); returns once the process exists."""
        if self.running:
            raise RuntimeError(f"{self.name} is still running (pid {self.pid})")
        if not self.fd.url.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"the fake Discord is not listening on 127.0.0.1 ({self.fd.url!r})")
        self.runs += 1
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.workdir / f"{self.name}-{self.runs}.log"
        self.connections_at_start = len(self.fd.gateway.connections)
        self._exit_expected = False
        with self.log_path.open("wb") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=self.workdir, env=self.environment(),
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    async def wait_ready(self, timeout: float = 45.0) -> int:
        """Until this run's gateway connection was answered READY and GUILD_CREATE and the bot
        processed them (command sync, if any, happened before: discord.py syncs in setup_hook,
        before it connects). Returns the connection's number."""
        return await self.fd.wait_ready(self.connections_at_start, timeout)

    async def started(self, timeout: float = 45.0) -> BotProcess:
        await self.start()
        await self.wait_ready(timeout)
        return self

    # -- signals and exit -----------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.proc is not None else None

    def send_signal(self, sig: int) -> None:
        """Signal this run's process (by its own pid, nothing else); its exit is then expected."""
        if self.proc is None or self.proc.returncode is not None:
            raise RuntimeError(f"{self.name} is not running")
        self._exit_expected = True
        self.proc.send_signal(sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait_exit(self, timeout: float = 15.0) -> int:
        """The exit status (negative: killed by that signal), within `timeout` seconds."""
        if self.proc is None:
            raise RuntimeError(f"{self.name} was never started")
        self._exit_expected = True
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def stop(self, grace: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL after `grace` seconds; for teardown (safe to call twice)."""
        if not self.running:
            return self.returncode
        self.terminate()
        try:
            return await self.wait_exit(grace)
        except TimeoutError:
            self.kill()
            return await self.wait_exit(grace)

    def raise_if_died(self) -> None:
        if self.proc is not None and self.proc.returncode is not None and not self._exit_expected:
            self._exit_expected = True  # say it once
            raise BotDied(f"{self.name} exited with status {self.proc.returncode}; its log ends:\n{self.tail()}")

    # -- what it left behind ---------------------------------------------------------------------
    def log(self, run: int | None = None) -> str:
        """What run `run` (default: the latest) wrote on stdout and stderr."""
        path = self.workdir / f"{self.name}-{run or self.runs}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def wal_files(self) -> list[Path]:
        """SQLite's -wal and -shm files beside the database, if any are left."""
        return [p for p in (Path(f"{self.database}-wal"), Path(f"{self.database}-shm")) if p.exists()]
