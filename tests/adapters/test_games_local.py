"""Every game, start to finish, through the local table, by the buttons and menus people use;
the stored log replays to the stored state and the winner is the engine's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.replay import verify
from engine import registry
from tests.support.local_driver import play_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("game", "humans", "bots", "lang"), [
    ("detour", 3, 1, "en"),
    ("detour", 2, 0, "fr"),
    ("around-the-world", 2, 1, "en"),
    ("rails-and-sails", 1, 1, "en"),
    ("around-the-world", 2, 0, "de"),
    ("eighty-days", 2, 1, "en"),
    ("eighty-days", 2, 0, "fr"),
])
@pytest.mark.wholegame
async def test_whole_game_by_buttons(tmp_path: Path, game: str, humans: int, bots: int, lang: str) -> None:
    await whole_game(tmp_path, game, humans, bots, lang)


@pytest.mark.parametrize(("humans", "bots", "options", "lang"), [
    (1, 1, "side=A", "en"),
    (2, 0, "side=B assistants=true", "de"),
    (2, 1, "side=A assistants=true", "fr"),
    (1, 2, "side=B", "en"),
    (3, 1, "side=A colors_festival=true", "de"),
    (2, 2, "side=B assistants=true", "en"),
])
@pytest.mark.wholegame
async def test_eighty_days_every_size_side_and_module(tmp_path: Path, humans: int, bots: int, options: str,
                                                      lang: str) -> None:
    """80 Days with 2, 3 and 4 players, both board sides, with and without assistants and the
    designer variant, people and AI mixed: played to the end by the buttons and menus."""
    await whole_game(tmp_path, "eighty-days", humans, bots, lang, options=options)


async def whole_game(tmp_path: Path, game: str, humans: int, bots: int, lang: str, *,
                     options: str | None = None) -> None:
    final, store, presses = await play_game(game, humans, bots, seed=7, out=tmp_path / "img", lang=lang,
                                            options=options)
    try:
        record = await store.last_game(1)
        assert record.status == "finished"
        assert sum(not s.is_bot for s in record.seats) == humans and len(record.seats) == humans + bots
        if options:
            assert all(record.options[k] == (v if v in ("A", "B") else v == "true")
                       for k, v in (o.split("=") for o in options.split()))
        actions = await store.actions(record.id)
        assert verify(record, actions).ok
        rules = registry.get(game)
        result = rules.result(rules.load(record.state))
        names = {s.seat: s.name for s in record.seats}
        winners = [names[s] for s in result["winners"]]
        assert "🏁" in final.text and all(w in final.text.split("🎉")[-1] for w in winners)
        assert presses >= sum(a.actor == "human" for a in actions) > 0
        assert final.files and final.files[0].data.startswith(b"\x89PNG")
        assert len(list((tmp_path / "img").glob("*.png"))) > 3
    finally:
        await store.close()


def test_the_script_command_line(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text("\n".join([
        "alice /game new game:detour",
        "bob /game join",
        "carol /game join",
        "alice /game addbot",
        "alice /game start",
        "alice /detour choose card:8",
        "bob !press Play 10",
        "carol /detour choose card:5",
        "dave /detour choose card:10",
        "alice /game hand",
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "bot.local", "--script", str(script), "--out", str(out), "--no-env"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(set(line) >= {"to", "user", "text", "files"} for line in lines)
    assert any(line["to"] == "channel" and line["files"] for line in lines)
    dave = [line for line in lines if line["user"] == "dave"]
    assert dave and dave[0]["to"] == "ephemeral"  # not seated
    hand = [line for line in lines if line["user"] == "alice" and line["to"] == "ephemeral" and line["files"]]
    assert hand and Path(hand[-1]["files"][0]).read_bytes().startswith(b"\x89PNG")
    # after the three humans chose, the cards were revealed publicly
    assert any("8" in line["text"] and line["to"] == "channel" for line in lines[-6:])


async def test_admin_verify_command_line(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    _, store, _ = await play_game("detour", 2, 1, seed=3, db=db)
    await store.close()
    proc = subprocess.run([sys.executable, "-m", "bot.admin", "verify", "--db", str(db)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ok  #1 detour (finished" in proc.stdout and "1 games checked, 0 problems" in proc.stdout
    # a tampered state is caught
    import sqlite3

    with sqlite3.connect(db) as conn:
        state = json.loads(conn.execute("SELECT state FROM games WHERE id=1").fetchone()[0])
        state["round"] = state.get("round", 0) + 5
        conn.execute("UPDATE games SET state=? WHERE id=1", (json.dumps(state),))
    proc = subprocess.run([sys.executable, "-m", "bot.admin", "verify", "--db", str(db)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "BAD #1" in proc.stdout
