"""Following a game: copies of each public turn message by DM or in a thread, byte-identical
to the channel's text and board, no buttons, no pings; stored across restarts; ended with
the game (the final board is the last copy); refused clearly when it cannot work."""

from __future__ import annotations

import pytest

from bot.features.follow import MAX_FOLLOWERS
from bot.i18n import Translator
from bot.replies import Reply, ThreadTarget, User
from bot.service import TableService, parse_custom_id
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.conftest import ALICE, BACKENDS, BOB, EVE, HERE, Clock

pytestmark = pytest.mark.usefixtures("fake_game")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Every test here runs on SQLite and on a real PostgreSQL server."""
    return str(request.param)

THREAD = ThreadTarget(id=555, guild_id=HERE.guild_id, name="watch-party")


def copies(replies: list[Reply]) -> list[Reply]:
    return [r for r in replies if r.follow is not None]


def public(replies: list[Reply]) -> Reply:
    [channel] = [r for r in replies if r.to == "channel"]
    return channel


async def lobby(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown", options="start=5")
    await service.join(BOB, HERE)


async def test_follower_copies_are_the_public_turn_message_byte_for_byte(service: TableService) -> None:
    await lobby(service)
    said = await service.follow(EVE, HERE)
    assert said[0].to == "ephemeral" and said[0].outcome == "ok"
    assert [r.to for r in copies(said)] == ["dm"]  # the hello; no board before the start
    started = await service.start(ALICE, HERE)
    moved = await service.command(ALICE, HERE, "countdown", "take", {"n": 2})
    for replies in (started, moved):
        turn = public(replies)
        [copy] = copies(replies)
        assert copy.to == "dm" and copy.user_id == EVE.id and copy.follow is not None
        assert copy.text == turn.text
        assert [(f.filename, f.data) for f in copy.files] == [(f.filename, f.data) for f in turn.files]
        assert copy.rows == [] and copy.mentions == [] and turn.mentions  # a player is pinged, never the follower
    # nothing private: no hand, no other DM to the follower
    assert all(r.user_id != EVE.id or r.follow is not None for r in started + moved)


async def test_a_thread_follow_ends_with_the_game(service: TableService, store: SQLiteStore) -> None:
    await lobby(service)
    await service.start(ALICE, HERE)
    said = await service.follow(BOB, HERE, THREAD)  # a player may follow too: public copies only
    hello, board = copies(said)
    assert hello.to == board.to == "thread" and board.channel_id == THREAD.id
    [status] = await service.status(EVE, HERE)
    assert board.text == status.text and board.files[0].data == status.files[0].data
    await service.command(ALICE, HERE, "countdown", "take", {"n": 2})
    last = await service.command(BOB, HERE, "countdown", "take", {"n": 3})  # Bob wins
    [final] = copies(last)
    assert final.text == public(last).text and Translator("en")("result.header") in final.text
    record = await store.last_game(HERE.channel_id)
    assert record is not None and await store.follows(record.id) == []


async def test_follows_survive_a_restart(store: SQLiteStore, clock: Clock) -> None:
    first = TableService(store, Settings(), clock=clock, render_in_thread=False)
    await lobby(first)
    await first.follow(EVE, HERE)
    await first.start(ALICE, HERE)
    again = TableService(store, Settings(), clock=clock, render_in_thread=False)
    moved = await again.command(ALICE, HERE, "countdown", "take", {"n": 1})
    assert [r.user_id for r in copies(moved)] == [EVE.id]


async def test_unfollow_and_refusals_change_nothing(service: TableService, store: SQLiteStore) -> None:
    t = Translator("en")
    [none] = await service.follow(EVE, HERE)
    assert none.text == "⚠️ " + t("error.no_game")
    await lobby(service)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    elsewhere = ThreadTarget(id=777, guild_id=999, name="other-server")
    [refused] = await service.follow(EVE, HERE, elsewhere)
    assert refused.text == "⚠️ " + t("follow.thread_elsewhere")
    [closed] = await service.follow(EVE, HERE, ThreadTarget(id=778, guild_id=HERE.guild_id, name="x", can_post=False))
    assert closed.text == "⚠️ " + t("follow.thread_closed")
    assert await store.follows(record.id) == []
    [not_following] = await service.unfollow(EVE, HERE)
    assert not_following.text == "⚠️ " + t("follow.not_following")
    await service.follow(EVE, HERE)
    [done] = await service.unfollow(EVE, HERE)
    assert done.text == "✅ " + t("follow.stopped", title="Countdown")
    assert await store.follows(record.id) == []
    started = await service.start(ALICE, HERE)
    assert copies(started) == []


async def test_follow_is_rate_limited_and_bounded(service: TableService, store: SQLiteStore) -> None:
    await lobby(service)
    answers = [(await service.follow(EVE, HERE))[0].text for _ in range(5)]
    assert answers[-1] == "⚠️ " + Translator("en")("error.slow_down")
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    for k in range(MAX_FOLLOWERS - 1):
        await service.follow(User(5000 + k, f"fan{k}"), HERE)
    [full] = await service.follow(User(9000, "one too many"), HERE)
    assert full.text == "⚠️ " + Translator("en")("follow.full", max=MAX_FOLLOWERS)
    assert len(await store.follows(record.id)) == MAX_FOLLOWERS


async def test_the_lobby_has_a_follow_button(service: TableService, store: SQLiteStore) -> None:
    [message] = await service.new_game(ALICE, HERE, "countdown")
    [follow] = [b for row in message.rows for b in row if parse_custom_id(b.custom_id)[2] == "follow"]
    said = await service.component(EVE, HERE, follow.custom_id)
    assert said[0].outcome == "ok" and [r.to for r in copies(said)] == ["dm"]
    record = await store.active_game(HERE.channel_id)
    assert record is not None and [f.user_id for f in await store.follows(record.id)] == [EVE.id]


async def test_a_cancelled_or_crashed_game_tells_its_followers_once(service: TableService, store: SQLiteStore) -> None:
    await lobby(service)
    await service.follow(EVE, HERE)
    await service.cancel(ALICE, HERE)
    [note] = await service.tick()
    assert note.follow is not None and note.user_id == EVE.id
    assert note.text == Translator("en")("follow.ended", title="Countdown", channel=f"<#{HERE.channel_id}>")
    assert await service.tick() == []
