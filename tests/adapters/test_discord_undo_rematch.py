"""Undo and Rematch through the Discord layer: real interaction payloads (slash commands and
button presses) through discord.py, with the fake game (its `take` declared undoable here)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import fakegame
from tests.support.discord_harness import ALICE, BOB, EVE, Harness, active, open_table, refusal


@pytest.fixture(autouse=True)
def undoable_take(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fakegame.RULES, "undoable_moves", frozenset({"take"}), raising=False)


def pings(msg: Any) -> list[int]:
    am = msg.allowed_mentions
    assert am is not None and am.get("parse") == []
    return [int(u) for u in am.get("users", [])]


async def test_undo_by_button_and_by_slash_command(h: Harness) -> None:
    await open_table(h, ALICE, [BOB])
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown take", n=2))
    ack = h.ephemeral_for(ALICE, since=mark)[-1]
    assert ack.content == "✅ Take 2" and [b.label for b in ack.buttons] == ["Undo"]
    assert (await active(h)).state["counter"] == 13

    mark = h.mark()
    await h.run(h.click(ALICE, ack, ack.button("Undo").custom_id))  # type: ignore[arg-type]
    undone = h.ephemeral_for(ALICE, since=mark)
    assert undone[-1].content.startswith("↩️ ") and "Take 2" in undone[-1].content
    board = h.channel_messages(since=mark)[-1]
    assert "**Alice** took back their last move." in board.content
    assert [f.filename for f in board.files] == ["board.png"] and board.files[0].is_png
    assert ALICE.id not in pings(board)
    assert (await active(h)).state["counter"] == 15

    # the same button again: the game moved on; nothing changes
    version = (await active(h)).version
    mark = h.mark()
    await h.run(h.click(ALICE, ack, ack.button("Undo").custom_id))  # type: ignore[arg-type]
    assert [m.content for m in h.ephemeral_for(ALICE, since=mark)] == [refusal(ALICE, "undo.stale")]
    assert h.channel_messages(since=mark) == [] and (await active(h)).version == version

    # the slash command: nothing left to take back, then Bob's move is not Alice's to undo
    mark = h.mark()
    await h.run(h.slash(ALICE, "game undo"))
    assert [m.content for m in h.ephemeral_for(ALICE, since=mark)] == [refusal(ALICE, "undo.nothing")]
    await h.run(h.slash(ALICE, "countdown take", n=1))
    await h.run(h.slash(BOB, "countdown take", n=1))
    mark = h.mark()
    await h.run(h.slash(ALICE, "game undo"))
    assert [m.content for m in h.ephemeral_for(ALICE, since=mark)] == [refusal(ALICE, "undo.others_moved")]
    mark = h.mark()
    await h.run(h.slash(BOB, "game undo"))
    assert h.ephemeral_for(BOB, since=mark)[-1].content.startswith("↩️ ")
    assert (await active(h)).state["counter"] == 14


async def test_an_undo_button_is_taken_away_once_the_game_moves_on(h: Harness) -> None:
    """A dead Undo is never shown: when another move reaches the channel, the earlier private
    confirmation is edited to lose its button (Discord allows it for 15 minutes)."""
    import asyncio

    await open_table(h, ALICE, [BOB])
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown take", n=2))
    ack = h.ephemeral_for(ALICE, since=mark)[-1]
    assert [b.label for b in ack.buttons] == ["Undo"]
    assert not [s for s in h.sent if s.kind == "edit" and s.recipient_id == ALICE.id and s.request.seq >= mark]
    mark = h.mark()
    await h.run(h.slash(BOB, "countdown take", n=1))
    for _ in range(100):  # the edit runs in the background, after the channel's board
        edits = [s for s in h.sent if s.kind == "edit" and s.recipient_id == ALICE.id and s.request.seq >= mark]
        if edits:
            break
        await asyncio.sleep(0.02)
    assert len(edits) == 1, "the dead Undo stayed on Alice's confirmation"
    assert edits[0].request.path.endswith(f"/messages/{ack.message['id']}")
    assert edits[0].payload.get("components") == []


async def test_rematch_from_the_final_message(h: Harness) -> None:
    await open_table(h, ALICE, [BOB], options="start=5")
    await h.run(h.slash(ALICE, "countdown take", n=2))
    await h.run(h.slash(BOB, "countdown take", n=3))
    final = h.channel_messages()[-1]
    assert [b.label for b in final.buttons] == ["Rematch"]
    finished = await h.bot.store.last_game(final.channel_id)
    assert finished.status == "finished"
    assert final.button("Rematch").custom_id == f"pp:{finished.id}:0:rematch:"

    mark = h.mark()
    await h.run(h.click(EVE, final, final.button("Rematch").custom_id))  # type: ignore[arg-type]
    assert [m.content for m in h.ephemeral_for(EVE, since=mark)] == [refusal(EVE, "rematch.not_player")]
    assert await active(h) is None

    mark = h.mark()
    await h.run(h.click(BOB, final, final.button("Rematch").custom_id))  # type: ignore[arg-type]
    lobby = h.channel_messages(since=mark)[-1]
    assert pings(lobby) == [ALICE.id] and f"<@{ALICE.id}>" in lobby.content
    assert (await active(h)).status == "lobby"
    mark = h.mark()
    await h.run(h.click(BOB, final, final.button("Rematch").custom_id))  # type: ignore[arg-type]
    assert [m.content for m in h.ephemeral_for(BOB, since=mark)] == [refusal(BOB, "rematch.already")]

    mark = h.mark()
    await h.run(h.slash(ALICE, "game rematch"))
    turn = h.channel_messages(since=mark)[-1]
    assert "🚀" in turn.content  # the game began by itself: everyone accepted
    record = await active(h)
    assert record.status == "running" and record.options == {"start": 5} and record.id != finished.id
    mark = h.mark()
    await h.run(h.click(ALICE, final, final.button("Rematch").custom_id))  # type: ignore[arg-type]
    assert [m.content for m in h.ephemeral_for(ALICE, since=mark)] == [refusal(ALICE, "rematch.busy")]
