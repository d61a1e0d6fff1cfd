"""Rails & Sails through the table service (the local table): commands, buttons, a whole game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.local_driver import play_game, run_lines


async def test_setup_and_first_moves_with_commands(tmp_path: Path) -> None:
    replies = await run_lines(tmp_path, [
        "alice /game new game:rails-and-sails", "bob /game join", "alice /game start",
        "alice !press Your move", "alice !choose 1", "bob !press Your move", "bob !choose 2",
        "alice /rails mix trains:9", "alice /rails mix trains:22", "bob /rails mix trains:20",
        "alice /rails claim route:nowhere",
        "alice /rails draw source:train_deck", "alice /rails draw source:ship_deck",
        "bob /rails exchange trains:99", "bob /rails exchange trains:-2", "alice /game hand",
    ])
    alice = [str(r["text"]) for r in replies if r["user"] == "alice"]
    bob = [str(r["text"]) for r in replies if r["user"] == "bob"]
    channel = "\n".join(str(r["text"]) for r in replies if r["to"] == "channel")
    assert "alice keeps 5 tickets and returns 0." in channel
    assert "bob keeps 4 tickets and returns 1." in channel
    assert "alice starts with 22 trains and 38 ships." in channel and "bob starts with 20 trains" in channel
    assert any("10–25 trains" in t for t in alice)  # the refusal of 9 trains
    assert any(t.startswith("⚠️") for t in alice)  # no such route
    assert "alice draws a card from the train deck." in channel
    assert "bob swaps 2 trains for ships and loses 2 points." in channel
    assert any("swap that many" in t for t in bob)
    hand = [r for r in replies if r["user"] == "alice" and r["files"] and "**Cards:**" in str(r["text"])]
    assert hand and "🎫" in str(hand[-1]["text"])
    files = [Path(f) for r in replies for f in r["files"]]
    assert files and all(f.read_bytes().startswith(b"\x89PNG") for f in files)


@pytest.mark.wholegame
async def test_a_whole_game_through_buttons_and_menus(tmp_path: Path) -> None:
    final, store, presses = await play_game("rails-and-sails", 2, 1, seed=3, db=tmp_path / "g.sqlite3")
    game = await store.last_game(1)
    await store.close()
    assert game.status == "finished"
    assert "The game is over" in str(final.text) and presses > 50


async def test_board_and_hand_images_name_cities_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service hands the renderer the game's Translator in the image's language, so the
    board draws the catalog's city names: the table's language on the board, the player's on
    the hand."""
    import dataclasses

    from PIL import Image

    from bot import games
    from render import rails_and_sails as board
    from render.common import encode_png

    png = encode_png(Image.new("RGB", (1, 1)))
    seen: list[tuple[str, str, str]] = []

    class Recorder:
        def render_board(self, view: dict[str, Any], **kw: Any) -> bytes:
            seen.append(("board", kw["lang"], board.city_name("al_qahira", kw["translator"])))
            return png

        def render_hand(self, view: dict[str, Any], seat: str, **kw: Any) -> bytes:
            seen.append(("hand", kw["lang"], board.city_name("al_qahira", kw["translator"])))
            return png

    monkeypatch.setitem(games.RUNTIME, "rails-and-sails",
                        dataclasses.replace(games.get("rails-and-sails"), renderer=Recorder()))
    await run_lines(tmp_path, [
        "alice /game new game:rails-and-sails language:de", "bob /game join", "alice /game start",
        "alice !locale fr", "alice /game hand",
    ])
    assert ("board", "de", "Kairo") in seen
    assert ("hand", "fr", "Le Caire") in seen
    assert all(name in ("Kairo", "Le Caire") for _, _, name in seen)
