"""Every stored move is announced: the real bot process (`python -m bot`) against the fake
Discord on 127.0.0.1, with each fault Discord really produces injected after a change is
stored. What the channel must get: the game *as it is now*, once, pinging whoever it waits
for, as soon as Discord takes posts again; and the mover is never told "nothing was changed".

The bot runs with short delays (a tick every 0.5 s, a message owed 1 s after its change, a
request failed after 2 s), so each row takes seconds; the defaults are a minute, 20 s, 20 s.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.support.discord_harness import ALICE, BOB, CAROL, CHANNEL_ID, EVE, Sent
from tests.support.fakediscord import BotProcess, FakeDiscord, Fault
from tests.support.fakediscord.table import open_detour, pinged, press, version_of

HERE = rf"/channels/{CHANNEL_ID}/messages"
FAST = {"TICK_SECONDS": "0.5", "ANNOUNCE_GRACE_SECONDS": "1", "ANNOUNCE_RETRY_SECONDS": "0.5",
        "REQUEST_TIMEOUT_SECONDS": "2"}
NOTHING_CHANGED = "nothing was changed"


@pytest.fixture
async def bot(bot_process: BotProcess) -> BotProcess:
    bot_process.extra_env.update(FAST)
    return await bot_process.started()


def first_card(turn: Sent) -> str:
    return next(b.label for b in turn.buttons if b.label and b.label.startswith("Play "))


async def alice_plays(fd: FakeDiscord, turn: Sent) -> int:
    """Alice presses her first card on `turn` and gets her confirmation; returns the mark."""
    mark = await press(fd, ALICE, turn, first_card(turn))
    said = await fd.wait_for(lambda: fd.ephemeral_for(ALICE, mark), what="Alice's confirmation")
    assert said[0].content.startswith("✅"), said[0].content
    return mark


def told_nothing_changed(fd: FakeDiscord, since: int) -> bool:
    return any(NOTHING_CHANGED in m.content for m in fd.ephemeral_for(ALICE, since))


def announced_again(fd: FakeDiscord, since: int) -> list[Sent]:
    return [m for m in fd.channel_messages(since) if "Sent again" in m.content]


async def the_board_again(fd: FakeDiscord, since: int, timeout: float = 20.0) -> Sent:
    """The game re-posted as it is now: the board, waiting for Bob and Carol (pinged)."""
    again = await fd.wait_channel_message(lambda m: "Sent again" in m.content, since=since, timeout=timeout)
    assert again.files and again.buttons and pinged(again) == {BOB.id, CAROL.id}, again.content
    return again


@pytest.mark.parametrize("faults", [
    pytest.param((Fault.error(503),), id="503-once"),
    pytest.param((Fault.error(500),) * 5, id="500-five-times"),
    pytest.param((Fault.drop(),), id="connection-dropped"),
    pytest.param((Fault.reset(),), id="connection-reset"),
])
async def test_a_failed_turn_post_is_posted_again_once_discord_takes_posts(fake_discord: FakeDiscord, bot: BotProcess,
                                                                          faults: tuple[Fault, ...]) -> None:
    fd = fake_discord
    turn = await open_detour(fd)
    rule = fd.inject("POST", HERE, *faults)
    mark = await alice_plays(fd, turn)
    again = await the_board_again(fd, mark)
    assert rule.count == len(faults)
    assert version_of(again) == version_of(turn) + 1
    assert not told_nothing_changed(fd, mark)
    await fd.quiet(1.5)  # the next ticks post nothing more: it was owed once
    assert len([m for m in fd.channel_messages(mark) if m.files]) == 1


async def test_a_hung_post_fails_in_time_and_the_board_comes_again(fake_discord: FakeDiscord, bot: BotProcess) -> None:
    fd = fake_discord
    turn = await open_detour(fd)
    rule = fd.inject("POST", HERE, Fault.hang(None))
    try:
        mark = await alice_plays(fd, turn)  # the confirmation comes before the board is even drawn
        await the_board_again(fd, mark, timeout=15)
        assert not told_nothing_changed(fd, mark)
    finally:
        rule.release()


async def test_missing_permissions_tell_the_mover_and_the_board_comes_once_they_are_back(
        fake_discord: FakeDiscord, bot: BotProcess) -> None:
    fd = fake_discord
    turn = await open_detour(fd)
    rule = fd.inject("POST", HERE, Fault.missing_permissions(), Fault.missing_permissions(),
                     Fault.missing_permissions())
    mark = await alice_plays(fd, turn)
    told = await fd.wait_for(lambda: [m for m in fd.ephemeral_for(ALICE, mark) if "saved" in m.content],
                             what="Alice told why the board did not come")
    assert told and not told_nothing_changed(fd, mark)
    assert not fd.ephemeral_for(BOB, mark) and not fd.ephemeral_for(CAROL, mark)  # only the mover is told
    await the_board_again(fd, mark)  # the permissions are back once the three refusals are served
    assert rule.count == 3


@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
async def test_a_process_stopped_between_commit_and_post_posts_it_after_the_restart(
        fake_discord: FakeDiscord, bot: BotProcess, stop: str) -> None:
    fd = fake_discord
    turn = await open_detour(fd)
    rule = fd.inject("POST", HERE, Fault.hang(None))
    mark = await alice_plays(fd, turn)  # stored; its board is stuck on the way
    if stop == "SIGKILL":
        bot.kill()
    else:
        bot.terminate()
        assert await bot.wait_exit(12) == 0
        assert not bot.wal_files()
    await bot.wait_exit(12)
    rule.release()
    await bot.started()
    again = await the_board_again(fd, mark)
    assert version_of(again) == version_of(turn) + 1


async def test_a_lobby_whose_post_failed_is_posted_again(fake_discord: FakeDiscord, bot: BotProcess) -> None:
    fd = fake_discord
    fd.inject("POST", HERE, Fault.error(503))
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    lobby = await fd.wait_channel_message(lambda m: "Sent again" in m.content, since=mark)
    assert lobby.button("Join") is not None
    mark = await press(fd, BOB, lobby, "Join")  # the re-posted lobby's buttons work
    await fd.wait_channel_message(lambda m: "**Bob**" in m.content, since=mark)


async def test_moves_in_quick_succession_arrive_in_order(fake_discord: FakeDiscord, bot: BotProcess) -> None:
    fd = fake_discord
    turn = await open_detour(fd)
    fd.inject("POST", HERE, Fault.hang(1.0))  # Alice's board is slow to post
    mark = await press(fd, ALICE, turn, first_card(turn))
    await fd.wait_for(lambda: fd.ephemeral_for(ALICE, mark), what="Alice's confirmation")
    menu_mark = await press(fd, BOB, turn, "Your move")  # Bob moves meanwhile, from his private menu
    menu = await fd.wait_for(lambda: [m for m in fd.ephemeral_for(BOB, menu_mark) if m.buttons],
                             what="Bob's menu")
    choice = menu[0].buttons[0]  # a card (Bob reads German: "10 Nur Zug spielen")
    await fd.interact(fd.click(BOB, menu[0], choice.custom_id))  # type: ignore[arg-type]
    await fd.wait_for(lambda: len(fd.channel_messages(mark)) >= 2, what="both boards")
    await fd.quiet(1.5)
    versions = [version_of(m) for m in fd.channel_messages(mark) if m.buttons]
    assert versions == sorted(versions) and versions[-1] == version_of(turn) + 2, versions


def stored(bot: BotProcess, sql: str) -> list[Any]:
    with sqlite3.connect(bot.database) as db:
        return db.execute(sql).fetchall()


@pytest.mark.parametrize("gone", ["channel deleted", "bot removed from the server"])
async def test_a_game_whose_channel_is_gone_pauses_and_its_players_hear_it(fake_discord: FakeDiscord,
                                                                           bot: BotProcess, gone: str) -> None:
    fd = fake_discord
    await open_detour(fd)
    mark = fd.mark()
    if gone == "channel deleted":
        await fd.delete_channel(CHANNEL_ID)
    else:
        await fd.remove_guild()
    for user in (ALICE, BOB, CAROL):
        dm = await fd.wait_for(lambda u=user: fd.dms_for(u, mark), what=f"{user.name}'s DM")  # type: ignore[misc]
        assert dm[0].content.startswith("⏸️")  # in their own language
    [(paused_at,)] = stored(bot, "SELECT paused_at FROM games")
    assert paused_at is not None
    await fd.quiet(1.5)  # no reminders, no stand-ins, no re-posts into the void
    assert not fd.calls("POST", HERE, since=mark)


async def test_a_followers_copy_that_failed_comes_again(fake_discord: FakeDiscord, bot: BotProcess) -> None:
    fd = fake_discord
    turn = await open_detour(fd, followers=(EVE,))
    # the start's copy is sent after the channel's board: the fault is for the next one
    await fd.wait_for(lambda: [m for m in fd.dms_for(EVE) if m.files], what="Eve's copy of the start")
    copies_before = len([m for m in fd.dms_for(EVE) if m.files])
    rule = fd.inject("POST", rf"/channels/(?!{CHANNEL_ID}/)\d+/messages", Fault.error(503))  # Eve's DM only
    mark = await alice_plays(fd, turn)
    copy = await fd.wait_for(lambda: [m for m in fd.dms_for(EVE, mark) if m.files], timeout=40,
                             what="Eve's copy, again")
    assert rule.count == 1 and "Sent again" in copy[0].content
    assert len([m for m in fd.dms_for(EVE) if m.files]) == copies_before + 1  # once, not once per tick
