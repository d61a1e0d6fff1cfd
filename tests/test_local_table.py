"""The local table: script lines in, one JSON object per reply out, images on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.local_driver import run_lines

pytestmark = pytest.mark.usefixtures("fake_game")

SCRIPT = """
# a whole game of countdown: two people and an AI
alice /game new game:countdown options:"start=10"
bob /game join
alice !press Add AI
alice !press Start
alice /countdown take n:1
bob !press Take 2
carol /countdown take n:1
bob !locale de
bob /countdown take n:3
alice /game log
!wait 13
"""


async def run_script(tmp_path: Path, script: str) -> list[dict[str, object]]:
    return await run_lines(tmp_path, script.splitlines())


async def test_script_plays_through_the_service(tmp_path: Path) -> None:
    lines = await run_script(tmp_path, SCRIPT)
    assert all(set(line) >= {"to", "user", "text", "files"} for line in lines)
    channel = [line for line in lines if line["to"] == "channel"]
    assert "Countdown" in str(channel[0]["text"])
    assert any("Phileas" in str(line["text"]) for line in channel)  # the AI joined
    # images were written and are PNGs
    files = [Path(f) for line in lines for f in line["files"]]  # type: ignore[union-attr]
    assert files and all(f.read_bytes().startswith(b"\x89PNG") for f in files)
    # carol is not seated: a private refusal to carol, nothing public
    carol = [line for line in lines if line["user"] == "carol"]
    assert carol and carol[0]["to"] == "ephemeral" and str(carol[0]["text"]).startswith("⚠️")
    # mentions are shown as @name
    assert any("@bob" in str(line["text"]) for line in channel)
    # the log is private to alice
    log = [line for line in lines if line["user"] == "alice" and "📜" in str(line["text"])]
    assert log and log[0]["to"] == "ephemeral"


async def test_unknown_buttons_and_commands_are_explained(tmp_path: Path) -> None:
    lines = await run_script(tmp_path, "alice !press Start\nalice /nosuch thing\nalice /game new game:countdown\n"
                                       "alice !press Nope\n")
    assert [line["to"] for line in lines] == ["ephemeral", "ephemeral", "channel", "ephemeral"]
    assert "you can use" in str(lines[-1]["text"])


async def test_localised_command_names_work_at_the_local_table(tmp_path: Path) -> None:
    lines = await run_lines(tmp_path, ["anna /spiel neu game:countdown", "ben /partie rejoindre",
                                       "anna /spiel starten"])
    assert [line["to"] for line in lines] == ["channel", "channel", "channel"]
    assert "ben" in str(lines[1]["text"])
