"""The table service with the fake game: lobby, moves, refusals, AI seats, buttons, time."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.replay import verify
from bot.replies import Button, Reply, Select, User, Where
from bot.service import TableService, action_hash, parse_custom_id, parse_options
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, CAROL, EVE, HERE, Clock

pytestmark = pytest.mark.usefixtures("fake_game")


def only(replies: list[Reply], to: str) -> list[Reply]:
    return [r for r in replies if r.to == to]


def buttons(reply: Reply) -> list[Button]:
    return [c for row in reply.rows for c in row if isinstance(c, Button)]


async def started(service: TableService, *users: User, options: str | None = None) -> None:
    await service.new_game(users[0], HERE, "countdown", options=options)
    for user in users[1:]:
        await service.join(user, HERE)
    await service.start(users[0], HERE)


async def test_lobby_flow_and_one_game_per_channel(service: TableService) -> None:
    replies = await service.new_game(ALICE, HERE, "countdown")
    assert [r.to for r in replies] == ["channel"]
    assert "Alice" in replies[0].text
    labels = [b.label for b in buttons(replies[0])]
    assert labels == ["Join", "Leave", "Add AI", "Start", "Follow"]
    assert buttons(replies[0])[3].disabled  # one player is not enough

    again = await service.new_game(BOB, HERE, "countdown")
    assert [r.to for r in again] == ["ephemeral"] and again[0].user_id == BOB.id
    assert "already has a game" in service.t("en")("error.channel_busy", title="x").replace("x", "")

    elsewhere = await service.new_game(BOB, Where(channel_id=101, guild_id=10), "countdown")
    assert elsewhere[0].to == "channel"

    joined = await service.join(BOB, HERE)
    assert "Bob" in joined[0].text and not buttons(joined[0])[3].disabled
    twice = await service.join(BOB, HERE)
    assert twice[0].to == "ephemeral"


async def test_start_is_for_the_host(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    refused = await service.start(BOB, HERE)
    assert refused[0].to == "ephemeral" and refused[0].user_id == BOB.id
    assert (await store.active_game(HERE.channel_id)).status == "lobby"
    manager = Where(channel_id=HERE.channel_id, guild_id=10, can_manage=True)
    ok = await service.start(BOB, manager)
    assert ok[0].to == "channel"
    assert (await store.active_game(HERE.channel_id)).status == "running"


async def test_bad_options_and_unknown_game_change_nothing(service: TableService, store: SQLiteStore) -> None:
    for options in ("start=99", "nonsense=1", "start"):
        replies = await service.new_game(ALICE, HERE, "countdown", options=options)
        assert [r.to for r in replies] == ["ephemeral"], options
    replies = await service.new_game(ALICE, HERE, "no-such-game")
    assert replies[0].to == "ephemeral" and "countdown" in replies[0].text
    assert await store.active_game(HERE.channel_id) is None
    ok = await service.new_game(ALICE, HERE, "countdown", options="start=7")
    assert "Options: Start: 7 ·" in ok[0].text  # as people read it, not key=value


def test_parse_options_types() -> None:
    assert parse_options("a=1 b=true, c=off d=x") == {"a": 1, "b": True, "c": False, "d": "x"}
    assert parse_options(None) == {}


async def test_turn_message_mentions_only_the_player_to_act(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    replies = await service.start(ALICE, HERE)
    board = only(replies, "channel")[0]
    assert board.files and board.files[0].data.startswith(b"\x89PNG")
    assert board.mentions == [ALICE.id] and f"<@{ALICE.id}>" in board.text
    assert [b.label for b in buttons(board)] == ["Take 1", "Take 2", "Take 3", "Your move", "My hand"]


async def test_moves_refusals_and_state_unchanged(service: TableService, store: SQLiteStore) -> None:
    await started(service, ALICE, BOB)
    version = (await store.active_game(HERE.channel_id)).version
    for user in (BOB, EVE):  # not to act; not seated
        replies = await service.command(user, HERE, "countdown", "take", {"n": 1})
        assert [r.to for r in replies] == ["ephemeral"] and replies[0].user_id == user.id
    bad = await service.command(ALICE, HERE, "countdown", "take", {"n": 7})
    assert bad[0].to == "ephemeral"
    assert (await store.active_game(HERE.channel_id)).version == version

    replies = await service.command(ALICE, HERE, "countdown", "take", {"n": 2})
    assert [r.to for r in replies] == ["ephemeral", "channel"]
    assert "Alice took 2; 13 left." in replies[1].text
    assert replies[1].mentions == [BOB.id]
    assert (await store.active_game(HERE.channel_id)).version == version + 1


async def test_buttons_menu_and_stale_buttons(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    board = only(await service.start(ALICE, HERE), "channel")[0]
    take1 = buttons(board)[0]
    # Bob cannot press Alice's button
    assert (await service.component(BOB, HERE, take1.custom_id))[0].to == "ephemeral"
    replies = await service.component(ALICE, HERE, take1.custom_id)
    assert only(replies, "channel")
    # the old message's button is now stale for Alice too
    stale = await service.component(ALICE, HERE, take1.custom_id)
    assert stale[0].to == "ephemeral" and "moved on" in stale[0].text
    # Bob's menu lists his three moves as buttons and works
    menu = await service.menu(BOB, HERE)
    assert [b.label for b in buttons(menu[0])] == ["Take 1", "Take 2", "Take 3"]
    done = await service.component(BOB, HERE, buttons(menu[0])[2].custom_id)
    assert "Bob took 3; 11 left." in only(done, "channel")[0].text
    # garbage custom ids are answered, never raised
    for value in ("pp:x:y:act:z", "pp:999:1:act:abc", "nonsense", f"pp:1:{10**9}:act:zzz"):
        assert (await service.component(ALICE, HERE, value))[0].to == "ephemeral"


async def test_racing_clicks_apply_once(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    board = only(await service.start(ALICE, HERE), "channel")[0]
    press = buttons(board)[1].custom_id
    first, second = await asyncio.gather(service.component(ALICE, HERE, press),
                                         service.component(ALICE, HERE, press))
    game = await store.active_game(HERE.channel_id)
    assert len(await store.actions(game.id)) == 1
    assert sorted(len(only(r, "channel")) for r in (first, second)) == [0, 1]


async def test_ai_seat_plays_and_game_ends_with_result(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown", options="start=9")
    await service.addbot(ALICE, HERE)
    replies = await service.start(ALICE, HERE)
    while True:
        board = only(replies, "channel")[-1]
        if "game is over" in board.text:
            break
        replies = await service.command(ALICE, HERE, "countdown", "take", {"n": 1})
    assert "🥇" in board.text and "Phileas" in board.text  # the AI plays 9 % 4 perfectly
    game = await store.last_game(HERE.channel_id)
    assert game.status == "finished"
    actors = {a.actor for a in await store.actions(game.id)}
    assert actors == {"human", "ai"}
    assert verify(game, await store.actions(game.id)).ok
    # the channel is free again
    assert (await service.new_game(ALICE, HERE, "countdown"))[0].to == "channel"


async def test_hand_is_private_and_dm_opt_in(service: TableService, store: SQLiteStore) -> None:
    await started(service, ALICE, BOB)
    game = await store.active_game(HERE.channel_id)
    secrets = json.dumps(game.state["secrets"])
    hand = await service.hand(BOB, HERE)
    assert hand[0].to == "ephemeral" and hand[0].user_id == BOB.id and hand[0].files
    assert str(game.state["secrets"]["p2"]) in hand[0].text
    assert (await service.hand(EVE, HERE))[0].outcome == "refused"
    await service.settings_cmd(BOB, HERE, dm=True)
    replies = await service.command(ALICE, HERE, "countdown", "take", {"n": 1})
    dms = only(replies, "dm")
    assert len(dms) == 1 and dms[0].user_id == BOB.id and dms[0].files
    for reply in only(replies, "channel"):
        for value in game.state["secrets"].values():
            assert str(value) not in reply.text, secrets


async def test_languages_channel_in_game_language_ephemeral_in_user_language(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown", language="fr")
    await service.join(BOB, HERE)
    replies = await service.start(ALICE, HERE)
    assert "La partie commence" in only(replies, "channel")[0].text or "commence" in only(replies, "channel")[0].text
    refusal = await service.command(BOB, HERE, "countdown", "take", {"n": 1})
    assert "nicht am Zug" in refusal[0].text


async def test_reminders_and_timeouts_survive_restart(store: SQLiteStore, clock: Clock, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(reminder_hours=12, timeout_hours=48)
    service = TableService(store, settings, clock=clock, render_in_thread=False)
    await started(service, ALICE, BOB)
    clock.advance(11)
    assert await service.tick() == []
    clock.advance(2)
    reminders = await service.tick()
    assert len(reminders) == 1 and reminders[0].mentions == [ALICE.id] and reminders[0].to == "channel"
    assert await service.tick() == []  # not twice for the same period

    # the bot restarts: a new store connection and service on the same file see the deadline
    path = store.path
    await store.close()
    reopened = SQLiteStore(path)
    await reopened.open()
    try:
        restarted = TableService(reopened, settings, clock=clock, render_in_thread=False)
        clock.advance(36)
        replies = await restarted.tick()
        channel = only(replies, "channel")
        assert any("AI played for them" in r.text for r in channel)
        game = await reopened.active_game(HERE.channel_id)
        log = await reopened.actions(game.id)
        assert log[-1].actor == "timeout" and log[-1].seat == "p1"
        assert game.state["turn"] == 1  # now Bob's turn
    finally:
        await reopened.close()
        await store.open()


async def test_timeouts_can_be_switched_off(service: TableService, clock: Clock, store: SQLiteStore) -> None:
    await started(service, ALICE, BOB)
    assert (await service.settings_cmd(BOB, HERE, timeout_hours=0))[0].outcome == "refused"  # host only
    await service.settings_cmd(ALICE, HERE, timeout_hours=0, reminder_hours=0)
    clock.advance(24 * 10)
    assert await service.tick() == []
    game = await store.active_game(HERE.channel_id)
    assert await store.actions(game.id) == []


async def test_resign_hands_the_seat_to_the_ai_and_cancel(service: TableService, store: SQLiteStore) -> None:
    await started(service, ALICE, BOB, CAROL)
    replies = await service.resign(BOB, HERE)
    assert any("resigned" in r.text for r in only(replies, "channel"))
    game = await store.active_game(HERE.channel_id)
    assert next(s for s in game.seats if s.seat == "p2").is_bot
    assert (await service.cancel(CAROL, HERE))[0].to == "ephemeral"  # not the host
    assert (await service.cancel(ALICE, HERE))[0].to == "channel"
    assert await store.active_game(HERE.channel_id) is None


async def test_log_status_rules(service: TableService) -> None:
    await started(service, ALICE, BOB)
    await service.command(ALICE, HERE, "countdown", "take", {"n": 3})
    log = await service.log_(EVE, HERE)
    assert log[0].to == "ephemeral" and "Alice took 3; 12 left." in log[0].text
    status = await service.status(EVE, HERE)
    assert status[0].to == "ephemeral" and status[0].files and status[0].mentions == []
    rules = await service.rules_help(EVE, HERE)
    assert "last one wins" in rules[0].embeds[0].description


async def test_menu_groups_large_action_sets() -> None:
    from bot.service import menu_payload

    assert menu_payload("g=claim;p=2") == ("claim", 2)
    assert menu_payload("") == (None, 0)


def test_custom_ids_fit_discord_limits() -> None:
    cid = "pp:123456789:987654:act:" + action_hash({"type": "claim", "route": "x" * 300})
    assert len(cid) <= 100
    assert parse_custom_id(cid) == (123456789, 987654, "act", cid.rsplit(":", 1)[1])
    assert parse_custom_id("pp:1:2:menu:g=a;p=1") == (1, 2, "menu", "g=a;p=1")


def test_reply_components_are_serialisable() -> None:
    reply = Reply("channel", "x", rows=[[Button("A", "pp:1:1:act:a")], [Select("pp:1:1:sel:0", "p", ())]])
    data = reply.as_json()
    assert data["components"][0] == {"label": "A", "id": "pp:1:1:act:a"}
