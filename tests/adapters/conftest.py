"""Fixtures for tests that run the real bot process against the fake Discord
(tests/support/fakediscord): `fake_discord` (started on 127.0.0.1, stopped at the end),
`bot_process` (not started; stopped at the end), `running_bot` (started and ready), and
`discord_rest`, discord.py's own REST client in the test's process, logged in to the fake."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import discord.http
import pytest

from tests.support.fakediscord import BotProcess, FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fake Discord for one test. At the end it stops (releasing any hang), and the test
    fails if the bot called a route the fake does not know (they are answered 404)."""
    fd = FakeDiscord()
    await fd.start()
    try:
        yield fd
    finally:
        for proc in fd.processes:  # normally stopped already by bot_process, which ends first
            await proc.stop()
        await fd.stop()
    assert not fd.errors, f"the fake Discord failed: {fd.errors}"
    assert not fd.unknown, "the bot called routes the fake Discord does not know: " + ", ".join(
        f"{c.method} {c.path}" for c in fd.unknown)


@pytest.fixture
async def bot_process(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The real `python -m bot` wired to `fake_discord`, with its database in tmp_path; not
    started. At the end it gets SIGTERM (SIGKILL after 10 s); its logs are printed, which
    pytest shows when the test failed."""
    proc = BotProcess(fake_discord, tmp_path)
    try:
        yield proc
    finally:
        await proc.stop()
        for run in range(1, proc.runs + 1):
            print(f"---- {proc.name} run {run} ----\n{proc.log(run)}")


@pytest.fixture
async def running_bot(bot_process: BotProcess) -> BotProcess:
    """`bot_process`, started and ready (READY and GUILD_CREATE processed)."""
    return await bot_process.started()


@pytest.fixture
async def discord_rest(fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
                       ) -> AsyncIterator[discord.http.HTTPClient]:
    """discord.py's HTTPClient in this process, pointed at `fake_discord` (Route.BASE patched
    for this test only) and logged in with its token: for what Discord answers whoever asks
    (a post where the bot may not write, into a deleted channel…), independent of the bot."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"{fake_discord.url}/api/v10")
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    await http.static_login(fake_discord.token)
    try:
        yield http
    finally:
        await http.close()
