"""The local table: script lines in, one JSON object per reply out, images on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.local_driver import run_lines

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


async def test_no_typed_line_stops_the_table(tmp_path: Path) -> None:
    """Each bad line gets one private ⚠️ note and the game goes on (these used to crash the
    table: `!wait abc`, `reminder_hours:abc`; others were silently ignored or pressed a button)."""
    bad = ["!wait abc", "!wait -3", "alice /game settings reminder_hours:abc", "alice /game settings timeout_hours:x",
           "alice !press", "alice !locale xx", "alice", "alice /game addbot count:x", "alice /game log count:x",
           'alice /game new "unterminated', "alice /", "alice hello"]
    lines = await run_lines(tmp_path, ["alice /game new game:countdown", "bob /game join", "alice /game start", *bad,
                                       "alice /countdown take n:1"])
    notes = lines[3:-2]
    assert len(notes) == len(bad), [line["text"] for line in notes]
    assert all(line["to"] == "ephemeral" and str(line["text"]).startswith("⚠️") for line in notes)
    assert "Hours must be between" in str(notes[2]["text"])
    assert str(lines[-2]["text"]).startswith("✅") and lines[-1]["to"] == "channel"


async def test_a_user_who_just_sat_down_sees_the_channel_buttons(tmp_path: Path) -> None:
    lines = await run_lines(tmp_path, ["alice /game new game:countdown", "carol !press Join"])
    assert [line["to"] for line in lines] == ["channel", "channel"]
    assert "carol" in str(lines[1]["text"])


async def test_typed_choice_values_are_matched_and_bad_ones_list_the_allowed(tmp_path: Path) -> None:
    lines = await run_lines(tmp_path, ["alice /game new game:countdown", "bob /game join", "alice /game start",
                                       "alice /countdown take n:seven", "alice /countdown take n:2"])
    assert str(lines[3]["text"]).startswith("⚠️") and "`1`, `2`, `3`" in str(lines[3]["text"])
    assert str(lines[4]["text"]).startswith("✅")
