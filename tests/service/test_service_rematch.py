"""Rematch through the table service: the final message's public button, the new table with
the same game, options and seats, invitations confirmed or dropped at the deadline, and the
presses that must change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.replies import Reply
from bot.service import TableService
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, CAROL, EVE, HERE, Clock
from tests.support.countdown import buttons, finished

pytestmark = pytest.mark.usefixtures("fake_game")


def is_refusal(replies: list[Reply], key: str, service: TableService) -> None:
    assert len(replies) == 1 and replies[0].to == "ephemeral", replies
    assert replies[0].text in {"⚠️ " + service.t(lang)(key) for lang in ("en", "de", "fr")}, replies[0].text


async def test_the_final_message_carries_a_public_rematch_button(service: TableService) -> None:
    game_pk, cid = await finished(service)
    assert cid == f"pp:{game_pk}:0:rematch:"  # the finished game's id only: a public fact
    status = await service.status(EVE, HERE)  # anyone looking at the final board sees it too
    assert [b.custom_id for b in buttons(status[0])] == [cid]


async def test_rematch_invites_the_players_and_starts_when_all_accept(service: TableService,
                                                                    store: SQLiteStore) -> None:
    game_pk, cid = await finished(service, bots=1)
    old = await store.get_game(game_pk)
    assert old is not None
    opened = await service.component(BOB, HERE, cid)
    assert len(opened) == 1 and opened[0].to == "channel"
    assert opened[0].mentions == [ALICE.id] and f"<@{ALICE.id}>" in opened[0].text
    lobby = await store.active_game(HERE.channel_id)
    assert lobby is not None and lobby.status == "lobby" and lobby.id != game_pk
    assert lobby.game_id == old.game_id and lobby.options == old.options
    assert lobby.host_id == BOB.id
    assert [(s.name, s.is_bot) for s in lobby.seats] == [(s.name, s.is_bot) for s in old.seats]
    is_refusal(await service.component(BOB, HERE, cid), "rematch.already", service)  # a second press
    is_refusal(await service.rematch(EVE, HERE), "rematch.not_invited", service)
    started = await service.component(ALICE, HERE, cid)
    assert started and started[0].to == "channel"
    running = await store.active_game(HERE.channel_id)
    assert running is not None and running.id == lobby.id and running.status == "running"
    assert "rematch" not in running.settings
    is_refusal(await service.component(ALICE, HERE, cid), "rematch.busy", service)  # the rematch runs


async def test_join_confirms_an_invitation_too(service: TableService, store: SQLiteStore) -> None:
    await finished(service, carol=True)
    await service.rematch(ALICE, HERE)
    joined = await service.join(BOB, HERE)
    assert joined[0].to == "channel" and "Bob" in joined[0].text
    lobby = await store.active_game(HERE.channel_id)
    assert lobby is not None and lobby.status == "lobby"
    assert lobby.settings["rematch"]["pending"] == [CAROL.id]
    is_refusal(await service.join(BOB, HERE), "error.already_joined", service)


async def test_seats_not_confirmed_in_time_are_dropped_and_the_game_starts(service: TableService,
                                                                         store: SQLiteStore, clock: Clock) -> None:
    await finished(service, bots=1, carol=True)
    await service.rematch(ALICE, HERE)
    await service.rematch(BOB, HERE)
    clock.advance(10 / 60)
    assert await service.tick() == []  # 15 minutes to answer: not yet
    clock.advance(6 / 60)
    replies = await service.tick()
    assert replies and replies[0].to == "channel" and "Carol" in replies[0].text
    running = await store.active_game(HERE.channel_id)
    assert running is not None and running.status == "running"
    assert sorted(s.name for s in running.seats) == ["Alice", "Bob", "Phileas"]


async def test_too_few_left_at_the_deadline_stays_an_ordinary_lobby(service: TableService, store: SQLiteStore,
                                                                   clock: Clock) -> None:
    await finished(service)
    await service.rematch(BOB, HERE)
    clock.advance(0.5)
    replies = await service.tick()
    assert len(replies) == 1 and "Alice" in replies[0].text
    lobby = await store.active_game(HERE.channel_id)
    assert lobby is not None and lobby.status == "lobby" and [s.name for s in lobby.seats] == ["Bob"]
    assert "rematch" not in lobby.settings and lobby.timeout_at == clock.now + 24 * 3600
    assert buttons(replies[0])[3].disabled  # Start waits for a second player
    await service.join(EVE, HERE)
    started = await service.start(BOB, HERE)
    assert started[0].to == "channel"


async def test_the_host_may_start_before_everyone_answered(service: TableService, store: SQLiteStore) -> None:
    await finished(service, bots=1, carol=True)
    await service.rematch(CAROL, HERE)
    await service.rematch(ALICE, HERE)
    await service.start(CAROL, HERE)
    running = await store.active_game(HERE.channel_id)
    assert running is not None and running.status == "running"
    assert sorted(s.name for s in running.seats) == ["Alice", "Carol", "Phileas"]


async def test_presses_that_change_nothing(service: TableService, store: SQLiteStore) -> None:
    first_pk, first = await finished(service)
    is_refusal(await service.component(EVE, HERE, first), "rematch.not_player", service)
    # another game opens in the channel: the old button no longer opens a table
    await service.new_game(EVE, HERE, "countdown")
    is_refusal(await service.component(ALICE, HERE, first), "rematch.busy", service)
    await service.cancel(EVE, HERE)
    is_refusal(await service.component(ALICE, HERE, first), "rematch.not_last", service)
    lobbies: list[Any] = [g for g in await store.games() if g.status == "lobby"]
    assert lobbies == []
    # a running game is no rematch target either
    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    running = await store.active_game(HERE.channel_id)
    assert running is not None
    is_refusal(await service.component(ALICE, HERE, f"pp:{running.id}:0:rematch:"), "rematch.not_finished",
               service)
    is_refusal(await service.component(ALICE, HERE, "pp:99999:0:rematch:"), "rematch.no_game", service)
