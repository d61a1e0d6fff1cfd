"""The bot's permissions in the channel are checked before anything is written: a lobby, a
seat, a move or an undo the channel could not show is refused privately, naming what is
missing, in the asker's language; private answers (a hand, the move menu) still work."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.replies import Reply, Where
from bot.service import TableService
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, HERE

pytestmark = pytest.mark.usefixtures("fake_game")

MUTED = replace(HERE, missing_permissions=("send_messages", "attach_files"))


def refused_for_permissions(replies: list[Reply]) -> str:
    [reply] = replies
    assert reply.to == "ephemeral" and reply.outcome == "refused" and reply.refusal == "error.bot_permissions"
    return reply.text


async def test_no_lobby_is_opened_where_the_bot_cannot_post(service: TableService, store: SQLiteStore) -> None:
    text = refused_for_permissions(await service.new_game(ALICE, MUTED, "countdown"))
    assert "**Send Messages** and **Attach Files**" in text
    assert await store.active_game(HERE.channel_id) is None
    german = replace(BOB, locale="de")
    assert "**Nachrichten senden** und **Dateien anhängen**" in refused_for_permissions(
        await service.new_game(german, MUTED, "countdown"))


async def test_no_seat_move_or_undo_is_written_where_the_bot_cannot_post(service: TableService,
                                                                         store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown", options="start=9")
    lobby = await store.active_game(HERE.channel_id)
    assert lobby is not None
    refused_for_permissions(await service.join(BOB, MUTED))
    refused_for_permissions(await service.addbot(ALICE, MUTED))
    refused_for_permissions(await service.start(ALICE, MUTED))
    same = await store.active_game(HERE.channel_id)
    assert same is not None and same.version == lobby.version and len(same.seats) == 1
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    running = await store.active_game(HERE.channel_id)
    assert running is not None
    refused_for_permissions(await service.command(ALICE, MUTED, "countdown", "take", {"n": 1}))
    refused_for_permissions(await service.resign(ALICE, MUTED))
    refused_for_permissions(await service.undo(ALICE, MUTED))
    refused_for_permissions(await service.cancel(ALICE, MUTED))
    after = await store.active_game(HERE.channel_id)
    assert after is not None and after.version == running.version and await store.actions(after.id) == []
    in_thread = Where(channel_id=HERE.channel_id, guild_id=HERE.guild_id,
                      missing_permissions=("send_messages_in_threads",))
    assert "**Send Messages in Threads**" in refused_for_permissions(
        await service.command(ALICE, in_thread, "countdown", "take", {"n": 1}))


async def test_private_answers_still_work(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    menu = await service.menu(ALICE, MUTED)
    assert menu[0].outcome == "info" and menu[0].rows
    status = await service.status(BOB, MUTED)
    assert status[0].outcome == "info"
