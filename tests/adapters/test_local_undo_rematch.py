"""Undo and Rematch at the local table (script lines through `bot.local`): a real game's move
taken back by button and by command, and a rematch of a finished game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.local_driver import run_lines


async def test_undo_a_detour_choice_by_button_and_by_command(tmp_path: Path) -> None:
    lines = await run_lines(tmp_path, [
        "alice /game new game:detour",
        "bob /game join",
        "alice /game start",
        "alice /detour choose card:10 colour:blue",
        "alice !press Undo",
        "alice /detour choose card:8 colour:blue",
        "alice /detour choose card:block colour:green",
        "alice /game undo",
        "alice /game undo",
        "alice /game undo",
        "bob /game undo",
    ])
    mine = [line for line in lines if line["to"] == "ephemeral" and line["user"] == "alice"]
    acks = [str(line["text"]) for line in mine]
    assert acks[0].startswith("✅")
    assert [c["label"] for c in mine[0]["components"]] == ["Undo"]  # type: ignore[index, union-attr]
    undone = [a for a in acks if a.startswith("↩️")]
    assert len(undone) == 3, acks
    assert acks[-1].startswith("⚠️") and "nothing to take back" in acks[-1]
    channel = [str(line["text"]) for line in lines if line["to"] == "channel"]
    assert sum("took back their last move" in c for c in channel) == 3
    bob = [str(line["text"]) for line in lines if line["user"] == "bob" and line["to"] == "ephemeral"]
    assert bob and bob[-1].startswith("⚠️")


@pytest.mark.usefixtures("fake_game")
async def test_rematch_at_the_local_table(tmp_path: Path) -> None:
    lines = await run_lines(tmp_path, [
        "alice /game new game:countdown options:start=5",
        "bob /game join",
        "alice /game start",
        "alice /countdown take n:2",
        "bob /countdown take n:3",
        "bob !press Rematch",
        "bob !press Rematch",
        "alice /game rematch",
    ])
    channel = [str(line["text"]) for line in lines if line["to"] == "channel"]
    assert any("wants a rematch" in c and "@alice" in c for c in channel)
    assert "🚀" in channel[-1] or "begins" in channel[-1]
    bob = [str(line["text"]) for line in lines if line["user"] == "bob" and line["to"] == "ephemeral"]
    assert bob and "already seated" in bob[-1]
