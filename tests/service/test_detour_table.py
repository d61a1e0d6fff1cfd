"""detour through the table service (the local table): a whole game with commands and buttons."""

from __future__ import annotations

from pathlib import Path

from tests.support.local_driver import run_lines


async def test_three_players_with_commands_then_buttons_to_the_end(tmp_path: Path) -> None:
    lines = ["alice /game new game:detour", "bob /game join", "alice /game addbot", "alice /game start",
             "alice /detour choose card:10", "alice /game hand", "bob /detour choose card:5"]
    lines += ["alice !press 1", "bob !press 1"] * 60
    lines += ["alice /game log"]
    replies = await run_lines(tmp_path, lines)
    channel = [r for r in replies if r["to"] == "channel"]
    text = "\n".join(str(r["text"]) for r in channel)
    assert "Around the Worlds in 80 Days" in text
    assert "alice has chosen a card." in text
    assert "**Round 1** cards:" in text
    assert "game is over" in text.lower()
    # alice's hand, asked before the reveal, tells her own secret choice (privately)
    hand = [r for r in replies if r["user"] == "alice" and r["to"] == "ephemeral" and r["files"]]
    assert hand and "Chosen this round: 10 Move only" in str(hand[0]["text"])
    files = [Path(f) for r in replies for f in r["files"]]
    assert files and all(f.read_bytes().startswith(b"\x89PNG") for f in files)


async def test_two_players_choose_needs_the_colour(tmp_path: Path) -> None:
    replies = await run_lines(tmp_path, ["alice /game new game:detour", "bob /game join", "alice /game start",
                                    "alice /detour choose card:8", "alice /detour choose card:8 colour:green",
                                    "alice /detour choose card:8 colour:orange"])
    alice = [str(r["text"]) for r in replies if r["user"] == "alice"]
    assert any("say which colour" in t for t in alice)
    assert any(t.startswith("✅") and "green" in t for t in alice)
    channel = "\n".join(str(r["text"]) for r in replies if r["to"] == "channel")
    assert "alice (green) has chosen a card." in channel
    assert "alice (blue) has chosen" not in channel
