"""Following, stats and the leaderboard at the local table: follower copies are printed
with who they are for ("follower", and a thread's name), stats as private embeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import Translator
from tests.support.local_driver import run_lines

pytestmark = pytest.mark.usefixtures("fake_game")

SCRIPT = """
alice /game new game:countdown options:"start=5"
eve /game follow
dave /game follow thread:watch-party
bob /game join
alice !press Start
alice /countdown take n:2
bob /countdown take n:3
alice /game stats player:bob
bob /game leaderboard game:countdown
eve /game unfollow
"""


async def test_followers_stats_and_leaderboard_at_the_local_table(tmp_path: Path) -> None:
    lines = await run_lines(tmp_path, SCRIPT.splitlines())
    channel = [line for line in lines if line["to"] == "channel" and "follower" not in line]
    turns = [line for line in channel if line["files"]]
    by_dm = [line for line in lines if line.get("follower") == "eve"]
    in_thread = [line for line in lines if line.get("follower") == "dave"]
    assert [line["to"] for line in by_dm] == ["dm"] * 4  # hello, start, two moves
    assert {line.get("thread") for line in in_thread} == {"watch-party"} and len(in_thread) == 4
    assert [line["text"] for line in by_dm[1:]] == [line["text"] for line in turns]
    assert "🏁" in str(by_dm[-1]["text"])  # the final board ends the follow
    t = Translator("en")
    stats = next(line for line in lines if line["user"] == "alice" and line.get("embeds"))
    assert stats["to"] == "ephemeral" and stats["embeds"][0]["title"] == t("stats.title", name="bob")
    assert any(line["user"] == "bob" and line["to"] == "ephemeral"
               and line["text"] == t("leaderboard.empty", title="Countdown", min=3) for line in lines)
    assert lines[-1]["text"] == "⚠️ " + t("follow.not_following")  # the game is over: nothing to unfollow
