"""What the Discord adapter reads from an interaction and passes on: the permissions the bot
lacks where it was asked (`Where.missing_permissions`, from `app_permissions`), and what it
delivers with an image (its alt text)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.replies import Attachment, Reply
from tests.support.discord_harness import (
    ALICE,
    ATTACH_FILES,
    BOT_PERMISSIONS,
    CHANNEL_ID,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Harness,
    open_table,
)

THREAD_ID = 1_290_000_000_000_000_301  # a thread of the game's channel, not in the bot's cache
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


def wheres(h: Harness, monkeypatch: pytest.MonkeyPatch, method: str) -> list[Any]:
    """The `Where` of every call to one service method (which then answers privately)."""
    seen: list[Any] = []

    async def recorder(user: Any, where: Any, *args: Any, **kwargs: Any) -> list[Reply]:
        seen.append(where)
        return [Reply("ephemeral", "ok", user_id=user.id)]

    monkeypatch.setattr(h.bot.service, method, recorder)
    return seen


@pytest.mark.parametrize(("granted", "missing"), [
    (BOT_PERMISSIONS, ()),
    (BOT_PERMISSIONS & ~ATTACH_FILES, ("attach_files",)),
    (BOT_PERMISSIONS & ~SEND_MESSAGES, ("send_messages",)),
    (BOT_PERMISSIONS & ~(VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES), ("view_channel", "send_messages",
                                                                       "attach_files")),
])
async def test_a_command_carries_the_permissions_the_bot_lacks(h: Harness, monkeypatch: pytest.MonkeyPatch,
                                                               granted: int, missing: tuple[str, ...]) -> None:
    seen = wheres(h, monkeypatch, "status")
    await h.run(h.slash(ALICE, "game status", app_permissions=granted))
    assert [w.missing_permissions for w in seen] == [missing]


async def test_in_a_thread_sending_in_threads_is_needed_too(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = wheres(h, monkeypatch, "status")
    await h.run(h.slash(ALICE, "game status", channel_id=THREAD_ID, channel_type=PUBLIC_THREAD),
                h.slash(ALICE, "game status", channel_id=THREAD_ID, channel_type=PUBLIC_THREAD,
                        app_permissions=BOT_PERMISSIONS | SEND_MESSAGES_IN_THREADS))
    assert [w.missing_permissions for w in seen] == [("send_messages_in_threads",), ()]


async def test_a_button_carries_them_too(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.support.discord_harness import BOB

    turn = await open_table(h, ALICE, [BOB])
    seen: list[Any] = []

    async def component(user: Any, where: Any, custom_id: str, values: Any) -> list[Reply]:
        seen.append(where)
        return [Reply("ephemeral", "ok", user_id=user.id)]

    monkeypatch.setattr(h.bot.service, "component", component)
    await h.run(h.click(ALICE, turn, turn.buttons[0].custom_id or "", app_permissions=BOT_PERMISSIONS & ~ATTACH_FILES))
    assert [w.missing_permissions for w in seen] == [("attach_files",)]


async def test_a_board_and_its_close_up_are_stacked_full_width_not_side_by_side(h: Harness) -> None:
    """Two plain attachments sit side by side on a phone, each half the column: the board and
    its close-up go each into an embed of its own, stacked, in the order given."""
    mark = h.mark()
    await h.bot.delivery.send([Reply("channel", "Alice moved", channel_id=CHANNEL_ID, files=[
        Attachment("board.png", PNG, description="The board"), Attachment("focus.png", PNG, description="Close-up")])])
    [sent] = h.channel_messages(since=mark)
    assert [e.get("image", {}).get("url") for e in sent.payload["embeds"]] == [
        "attachment://board.png", "attachment://focus.png"]
    assert [a["filename"] for a in sent.attachments] == ["board.png", "focus.png"]
    mark = h.mark()
    await h.bot.delivery.send([Reply("channel", "one image", channel_id=CHANNEL_ID,
                                     files=[Attachment("board.png", PNG)])])
    [single] = h.channel_messages(since=mark)
    assert not single.payload.get("embeds"), "one image stays a plain attachment, as wide as it gets"


async def test_an_image_goes_with_its_alt_text(h: Harness) -> None:
    mark = h.mark()
    await h.bot.delivery.send([Reply("channel", "the board", channel_id=CHANNEL_ID, files=[
        Attachment("board.png", PNG, description="The board after Alice's move"), Attachment("plain.png", PNG)])])
    [sent] = h.channel_messages(since=mark)
    assert [(a["filename"], a.get("description")) for a in sent.attachments] == [
        ("board.png", "The board after Alice's move"), ("plain.png", None)]
