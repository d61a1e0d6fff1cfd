"""A game worth remembering at the local table: the summary and the timelapse are written
to the image folder after the final message (their paths printed), and `/game replay`
writes them again; the same through `python -m bot.local --script`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.support.local_driver import run_lines

SCRIPT = """
alice /game new game:countdown options:"start=5"
bob /game join
alice /game start
alice /countdown take n:1
bob /countdown take n:1
alice /countdown take n:1
bob /countdown take n:1
alice /countdown take n:1
bob /game replay
carol /game replay game:nothing-like-this
"""


@pytest.mark.usefixtures("fake_game")
async def test_the_end_and_replay_write_the_pictures(tmp_path: Path) -> None:
    lines = await run_lines(tmp_path, SCRIPT.strip().splitlines(), memories=True)
    files = [(line["to"], line["user"], f) for line in lines for f in line["files"]]  # type: ignore[union-attr]
    memories = [(to, user, Path(f)) for to, user, f in files if f.endswith(("summary.png", "timelapse.gif"))]
    assert [(to, user, p.name.split("-", 1)[1]) for to, user, p in memories] == [
        ("channel", None, "summary.png"), ("channel", None, "timelapse.gif"),
        ("ephemeral", "bob", "summary.png"), ("ephemeral", "bob", "timelapse.gif")]
    assert all(p.exists() and p.parent == tmp_path / "img" for _, _, p in memories)
    assert Image.open(memories[1][2]).format == "GIF"
    final = next(i for i, line in enumerate(lines) if "over" in str(line["text"]).lower())
    first_picture = next(i for i, line in enumerate(lines) if any("summary.png" in f for f in line["files"]))
    assert final < first_picture
    assert "nothing-like-this" in str(lines[-1]["text"]) and lines[-1]["user"] == "carol"


def test_the_script_front_end_writes_them_too(tmp_path: Path) -> None:
    """`python -m bot.local --script` with a real game played by AI seats to its end."""
    script = tmp_path / "game.txt"
    # alice never moves: after each hour the AI plays her turn for her, until the game ends
    script.write_text("alice /game new game:detour\nalice /game addbot count:3\nalice /game start\n"
                      "alice /game settings timeout_hours:1\n" + "!wait 2\n" * 80 + "alice /game replay\n",
                      encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bot.local", "--script", str(script), "--out", str(tmp_path / "o"),
                           "--no-env"], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    written = sorted(p.name.split("-", 1)[1] for p in (tmp_path / "o").iterdir())
    assert written.count("summary.png") == 2 and written.count("timelapse.gif") == 2  # at the end, on replay
