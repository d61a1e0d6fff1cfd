"""The local table as one person at a terminal reads it (issue 23, items 13 and 14): Discord
markup in words, images of an earlier run kept, `@bob` shows Bob's buttons, a follower's
notice at once in the follower's language, and no render processes unless asked for."""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from pathlib import Path

import pytest

from bot.adapters import local
from bot.adapters.local import FakeClock, LocalTable
from bot.i18n import Translator
from bot.replies import Button
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.support.local_driver import run_lines

pytestmark = pytest.mark.usefixtures("fake_game")

RAW = re.compile(r"<(@|#|t:)[^>]*>")


async def _table(tmp_path: Path, out: io.StringIO, *, pretty: bool = False) -> LocalTable:
    store = SQLiteStore(":memory:")
    await store.open()
    clock = FakeClock()
    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    return LocalTable(service, clock, out_dir=tmp_path / "img", emit=out, pretty=pretty)


async def test_markup_is_shown_in_words(tmp_path: Path) -> None:
    """Channels, threads, mentions and timestamps (a rematch's deadline) never print raw."""
    lines = await run_lines(tmp_path, [
        "alice /game new game:countdown options:start=5", "bob /game join", "carol /game follow",
        "dave /game follow thread:talk", "alice /game start", "alice /countdown take n:2",
        "bob /countdown take n:3", "alice !press Rematch"])
    texts = [str(line["text"]) for line in lines]
    assert not [t for t in texts if RAW.search(t)], [t for t in texts if RAW.search(t)]
    assert any("#channel" in t for t in texts) and any("#talk" in t for t in texts)
    assert any(re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d \(in \d+ (min|h|d)\)", t) for t in texts)  # the rematch's <t:…:R>


async def test_plain_reads_every_timestamp_style(tmp_path: Path) -> None:
    table = await _table(tmp_path, io.StringIO())
    now = int(table.clock())
    assert table.plain(f"<t:{now + 7200}:R>").endswith("(in 2 h)")
    assert table.plain(f"<t:{now - 300}:R>").endswith("(5 min ago)")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", table.plain(f"<t:{now}:f>"))
    assert table.plain("<#1> <#99>") == "#channel #channel-99"
    await table.service.store.close()


async def test_a_second_run_does_not_overwrite_the_first_runs_images(tmp_path: Path) -> None:
    script = ["alice /game new game:countdown", "bob /game join", "alice /game start", "alice /game status"]
    first = await run_lines(tmp_path, script)
    written = {f: Path(f).read_bytes() for line in first for f in line["files"]}
    assert written
    second = await run_lines(tmp_path, script)
    again = [f for line in second for f in line["files"]]
    assert again and not set(again) & set(written)
    assert all(Path(f).read_bytes() == data for f, data in written.items())


async def test_switching_to_bob_shows_the_buttons_bob_sees(tmp_path: Path) -> None:
    table = await _table(tmp_path, io.StringIO())
    for line in ("alice /game new game:countdown", "bob /game join", "alice /game start"):
        await table.run_line(line)
    shown = table.buttons_seen("bob")
    assert shown.startswith("── bob sees ──")
    newest = next(r for r in reversed(table.visible["bob"]) if r.rows)
    labels = [c.label for row in newest.rows for c in row if isinstance(c, Button) and not c.disabled]
    assert labels and all(f"] {label}" in shown for label in labels)
    assert table.buttons_seen("nobody-here") == ""
    await table.service.store.close()


async def test_a_follower_notice_comes_at_once_in_their_language_with_their_name(tmp_path: Path) -> None:
    out = io.StringIO()
    table = await _table(tmp_path, out, pretty=True)
    await table.run_line("alice /game new game:countdown")
    await table.run_line("carol !locale de")
    shown = await table.run_line("carol !press Follow")
    notice = [r for r in shown if r.follow is not None]
    assert notice and notice[0].to == "dm"
    printed = out.getvalue()
    assert "DM to carol (to follower carol)" in printed
    german = Translator("de")("follow.hello", title="\0", channel="\0").split("\0")[0]
    assert german and german in printed
    await table.service.store.close()


def test_the_local_table_draws_in_a_thread_unless_render_processes_is_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One person at a terminal: no render processes of ~400 MB each, unless asked for."""
    args = argparse.Namespace(no_env=True, out=None, script="x", lang="en", json=False)
    monkeypatch.delenv("RENDER_PROCESSES", raising=False)
    table = asyncio.run(_opened(args, tmp_path))
    assert table.service.render_pool is None
    monkeypatch.setenv("RENDER_PROCESSES", "1")
    assert local._wants_pool()


async def _opened(args: argparse.Namespace, tmp_path: Path) -> LocalTable:
    table = await local._open_table(args, str(tmp_path / "t.sqlite3"))
    await table.service.store.close()
    return table


