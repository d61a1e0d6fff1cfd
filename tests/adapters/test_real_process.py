"""The real bot process (`python -m bot`) against the fake Discord (tests/support/fakediscord),
started by these tests on 127.0.0.1: a game of detour from `/game new` to the second turn,
the game going on after the process is killed, and one small proof per fault primitive that
it reaches the real bot (REST statuses, 429, hangs, dropped and reset connections, gateway
drops and RESUME, CHANNEL_DELETE / THREAD_DELETE / GUILD_DELETE, SIGTERM, SIGKILL).

These prove the harness; the tests of how the bot should behave under each fault build on it.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import discord
import discord.http
import pytest
from discord.webhook.async_ import async_context

from tests.support.discord_harness import (
    ALICE,
    APP_ID,
    BOB,
    CAROL,
    CHANNEL_ID,
    EVE,
    GUILD_ID,
)
from tests.support.fakediscord import BOT_ROLE_ID, THREAD_ID, BotProcess, FakeDiscord, Fault
from tests.support.fakediscord.gateway import DISPATCH, HEARTBEAT, IDENTIFY, RESUME
from tests.support.fakediscord.model import SEND_MESSAGES
from tests.support.fakediscord.process import CHILD
from tests.support.fakediscord.table import open_detour, pinged, play_card, version_of

POSTS = r"/channels/\d+/messages"


# -- the game -----------------------------------------------------------------------------------------


async def test_a_game_of_detour_through_the_real_process(fake_discord: FakeDiscord, running_bot: BotProcess) -> None:
    fd = fake_discord
    [sync] = fd.synced()
    assert sync.path == f"/applications/{APP_ID}/commands" and {c["name"] for c in sync.payload} >= {"game", "detour"}
    ask = fd.autocomplete(ALICE, "game replay", "game", "")
    await fd.interact(ask)
    assert (await fd.wait_acked(ask)).type == 8  # autocomplete result (no finished game to offer yet)

    turn = await open_detour(fd, followers=(EVE,))  # Eve follows by DM: a hello, then a copy of every turn
    [board] = turn.request.files
    assert board.filename == "board.png" and board.is_png
    assert board.description, "the board has alt text"  # type: ignore[attr-defined]  # an Upload
    [attachment] = turn.message["attachments"]
    assert attachment["content_type"] == "image/png" and attachment["size"] == board.size
    assert attachment["width"] > 0 and attachment["height"] > 0
    # everyone chooses a card at once: the turn message pings all three
    assert pinged(turn) == {ALICE.id, BOB.id, CAROL.id}
    assert {int(u["id"]) for u in turn.message["mentions"]} == {ALICE.id, BOB.id, CAROL.id}
    copy = await fd.wait_for(lambda: [m for m in fd.dms_for(EVE) if m.files], what="Eve's copy of the turn")
    assert copy[0].request.files[0].data == board.data

    after = await play_card(fd, ALICE, turn)
    assert "**Bob**" in after.content and "**Carol**" in after.content, after
    assert version_of(after) == version_of(turn) + 1
    await fd.quiet(0.3)
    assert fd.protocol_problems() == [] and fd.limit_violations == []


async def test_the_game_goes_on_after_the_process_is_killed(fake_discord: FakeDiscord,
                                                            running_bot: BotProcess) -> None:
    fd, bot = fake_discord, running_bot
    turn = await open_detour(fd)
    after = await play_card(fd, ALICE, turn)

    bot.kill()
    assert await bot.wait_exit() == -signal.SIGKILL
    await bot.started()
    assert len(fd.synced()) == 1, "the same commands are not synced again"
    assert fd.gateway.received(IDENTIFY, since_conn=bot.connections_at_start)

    after = await play_card(fd, BOB, after)  # a button of a message the killed process posted
    assert "**Carol**" in after.content and "**Bob**" not in after.content
    mark = fd.mark()
    await play_card(fd, CAROL, after)
    # all three chose: the cards are revealed and the next turn comes with the board
    board = await fd.wait_channel_message(lambda m: bool(m.files), since=mark)
    assert board.request.files[0].is_png and board.buttons and pinged(board)
    assert version_of(board) > version_of(after)


async def test_the_bots_permissions_come_from_the_guild_model(fake_discord: FakeDiscord, running_bot: BotProcess,
                                                            discord_rest: discord.http.HTTPClient) -> None:
    """No fault injected: an overwrite denies the bot SEND_MESSAGES in the channel. The bot's
    cache gets it (CHANNEL_UPDATE), interactions say so in app_permissions, REST refuses a
    post with 403 50013 as Discord would, and nothing reaches the channel."""
    fd = fake_discord
    await fd.set_overwrite(CHANNEL_ID, BOT_ROLE_ID, deny=SEND_MESSAGES)
    await fd.gateway.sync()
    payload = fd.slash(ALICE, "game new", game="detour")
    assert not int(payload["app_permissions"]) & SEND_MESSAGES
    assert int(payload["member"]["permissions"]) & SEND_MESSAGES  # Alice still may
    mark = await fd.interact(payload)
    await fd.wait_for(lambda: fd.followups(mark) or fd.calls("DELETE", r"/webhooks/.*", since=mark),
                      what="the bot's answer")
    await fd.quiet(0.3)
    assert not fd.channel_messages(mark)
    assert all(c.status == 403 and c.response["code"] == 50013 for c in fd.calls("POST", POSTS, since=mark))
    with pytest.raises(discord.Forbidden) as refused:
        await discord_rest.send_message(CHANNEL_ID, params=text("hello"))
    assert refused.value.code == 50013

    await fd.set_overwrite(CHANNEL_ID, BOT_ROLE_ID)  # allowed again
    await fd.gateway.sync()
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    await fd.wait_channel_message(since=mark)


async def test_dev_guild_commands_are_synced_to_the_guild(fake_discord: FakeDiscord, bot_process: BotProcess) -> None:
    fd = fake_discord
    bot_process.extra_env["DEV_GUILD_ID"] = str(GUILD_ID)
    await bot_process.started()
    [sync] = fd.synced()
    assert sync.path == f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
    payload = fd.slash(ALICE, "game new", game="detour")
    assert payload["data"]["guild_id"] == str(GUILD_ID)
    mark = await fd.interact(payload)
    await fd.wait_channel_message(since=mark)


async def test_an_upload_keeps_its_bytes_filename_and_description(fake_discord: FakeDiscord,
                                                                   discord_rest: discord.http.HTTPClient) -> None:
    """discord.py's own multipart: the recording keeps each file's bytes, name and alt text."""
    fd = fake_discord
    png = b"\x89PNG\r\n\x1a\n" + b"\0\0\0\rIHDR" + (3).to_bytes(4, "big") + (2).to_bytes(4, "big") + b"\0" * 9
    params = discord.http.handle_message_parameters(content="a board", files=[
        discord.File(io.BytesIO(png), "board.png", description="the board"),
        discord.File(io.BytesIO(b"plain\r\n--text"), "notes.txt")])
    answer = await discord_rest.send_message(CHANNEL_ID, params=params)
    [sent] = fd.channel_messages()
    assert [(f.filename, f.data, f.description) for f in sent.request.files] == [  # type: ignore[attr-defined]
        ("board.png", png, "the board"), ("notes.txt", b"plain\r\n--text", None)]
    first = answer["attachments"][0]
    assert (first["width"], first["height"], first["description"]) == (3, 2, "the board")


def text(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)


async def test_the_interaction_routes_answer_as_discord_does(fake_discord: FakeDiscord,
                                                             discord_rest: discord.http.HTTPClient) -> None:
    """discord.py's own webhook adapter on an interaction's token: one acknowledgement only,
    the first followup fills the deferred "thinking" message, @original can be read, edited
    and deleted."""
    fd = fake_discord
    posted = await discord_rest.send_message(CHANNEL_ID, params=text("a message with a button"))
    payload = fd.click(ALICE, dict(posted), "pp:1:1:menu:")
    fd.track(payload, time.monotonic())  # as interact() does, without a bot to send it to
    iid, token = int(payload["id"]), payload["token"]
    adapter = async_context.get()
    defer = discord.http.MultipartParameters(payload={"type": 5, "data": {"flags": 64}}, multipart=[], files=[])
    async with aiohttp.ClientSession() as session:
        await adapter.create_interaction_response(iid, token, session=session, params=defer)
        with pytest.raises(discord.HTTPException) as again:
            await adapter.create_interaction_response(iid, token, session=session, params=defer)
        assert again.value.code == 40060
        loading = await adapter.get_original_interaction_response(APP_ID, token, session=session)
        filled = await adapter.execute_webhook(APP_ID, token, session=session, payload={"content": "done"}, wait=True)
        assert filled["id"] == loading["id"] and filled["flags"] & 64  # type: ignore[index]
        await adapter.edit_original_interaction_response(APP_ID, token, session=session, payload={"content": "new"})
        assert (await adapter.get_original_interaction_response(APP_ID, token, session=session))["content"] == "new"
        await adapter.delete_original_interaction_response(APP_ID, token, session=session)
        with pytest.raises(discord.NotFound):
            await adapter.get_original_interaction_response(APP_ID, token, session=session)
    assert [c.type for c in fd.callbacks_for(payload)] == [5]  # the refused one is only in the requests
    assert fd.protocol_problems() == [f"interaction {iid} (type 3) got 2 initial responses"]


# -- one proof per REST fault -----------------------------------------------------------------------


@pytest.mark.parametrize(("fault", "retried"), [
    pytest.param(Fault.error(500), True, id="500-retried-by-discord.py"),
    pytest.param(Fault.error(503), False, id="503"),
    pytest.param(Fault.missing_permissions(), False, id="403-50013"),
    pytest.param(Fault.unknown_channel(), False, id="404-10003"),
])
async def test_an_error_status_is_served_to_the_bot(fake_discord: FakeDiscord, running_bot: BotProcess,
                                                    fault: Fault, retried: bool) -> None:
    fd = fake_discord
    here = rf"/channels/{CHANNEL_ID}/messages"
    rule = fd.inject("POST", here, fault)
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    await fd.wait_for(lambda: rule.count == 1, what="the fault")
    await fd.wait_for(lambda: fd.calls("DELETE", r"/webhooks/.*", since=mark) or fd.followups(mark),
                      what="the interaction to be closed")
    [first, *again] = fd.calls("POST", here, since=mark)
    assert first.status == fault.status and first.response == {"code": fault.code, "message": fault.message}
    assert first.fault is fault and rule.served[0].seq == first.seq
    # discord.py itself retries a 500 (after 1 s); the retry finds Discord working again
    assert [c.status for c in again] == ([200] if retried else [])
    assert bool(fd.channel_messages(mark)) == retried


async def test_a_429_makes_the_bot_wait_retry_after(fake_discord: FakeDiscord, running_bot: BotProcess) -> None:
    fd = fake_discord
    rule = fd.inject("POST", POSTS, Fault.rate_limited(0.6))
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    await fd.wait_channel_message(since=mark)
    limited, posted = fd.calls("POST", POSTS, since=mark)
    assert rule.count == 1 and limited.status == 429 and posted.status == 200
    assert limited.response["retry_after"] == 0.6
    assert posted.at - limited.at >= 0.6


async def test_a_hang_holds_the_answer_until_released(fake_discord: FakeDiscord, running_bot: BotProcess) -> None:
    fd = fake_discord
    rule = fd.inject("POST", POSTS, Fault.hang())
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    [held] = await fd.wait_for(lambda: fd.calls("POST", POSTS, since=mark), what="the post")
    await asyncio.sleep(0.5)
    assert held.status == 0 and not fd.channel_messages(mark), "answered while hanging"
    rule.release()
    await fd.wait_channel_message(since=mark)
    assert held.status == 200 and rule.count == 1


@pytest.mark.parametrize("fault", [Fault.drop(), Fault.reset(), Fault.drop(processed=True)],
                         ids=["drop", "reset", "drop-after-posting"])
async def test_a_cut_connection_gives_the_bot_no_answer(fake_discord: FakeDiscord, running_bot: BotProcess,
                                                        fault: Fault) -> None:
    fd = fake_discord
    rule = fd.inject("POST", POSTS, fault)
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    await fd.wait_for(lambda: rule.count == 1, what="the fault")
    await fd.quiet(0.5)
    [cut] = fd.calls("POST", POSTS, since=mark)
    assert cut.status == -1 and cut.fault is fault
    # processed: Discord stored the message though the bot never heard back
    assert len(fd.channel_messages(mark)) == (1 if fault.processed else 0)
    assert running_bot.running
    # the next request goes through on a new connection
    status = fd.slash(BOB, "game status")
    await fd.interact(status)
    await fd.wait_acked(status)


# -- the gateway ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [4000, None], ids=["close-4000", "tcp-abort"])
async def test_a_dropped_gateway_is_resumed_with_the_missed_events(fake_discord: FakeDiscord,
                                                                   running_bot: BotProcess, code: int | None) -> None:
    fd = fake_discord
    first = fd.gateway.live()[0]
    assert await fd.gateway.drop(code) == 1
    # sent while the bot is away: kept in the session, replayed on RESUME
    payload = fd.slash(ALICE, "game new", game="detour")
    mark = await fd.interact(payload)
    number = await fd.wait_ready(first.number)
    [resume] = fd.gateway.received(RESUME, since_conn=first.number)
    assert resume.d["session_id"] == first.session.id  # type: ignore[union-attr]
    assert fd.gateway.connections[number - 1].resumed
    await fd.wait_channel_message(since=mark)
    assert [c.type for c in fd.callbacks_for(payload)] == [5]


async def test_an_invalid_session_makes_the_bot_identify_again(fake_discord: FakeDiscord,
                                                               running_bot: BotProcess) -> None:
    fd = fake_discord
    first = fd.gateway.live()[0].number
    fd.gateway.resumable = False
    await fd.gateway.drop(4000)
    # the RESUME is refused (op 9); discord.py waits 5 s before a fresh IDENTIFY
    await fd.wait_ready(first, timeout=30)
    assert fd.gateway.received(RESUME, since_conn=first) and fd.gateway.received(IDENTIFY, since_conn=first)
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    await fd.wait_channel_message(since=mark)


# -- channels, threads and the guild going away ------------------------------------------------------


@pytest.mark.parametrize(("event", "place", "error", "code"), [
    ("CHANNEL_DELETE", CHANNEL_ID, discord.NotFound, 10003),
    ("THREAD_DELETE", THREAD_ID, discord.NotFound, 10003),
    ("GUILD_DELETE", CHANNEL_ID, discord.Forbidden, 50001),
], ids=["channel", "thread", "guild"])
async def test_a_place_gone_reaches_the_bot_and_rest_agrees(fake_discord: FakeDiscord, running_bot: BotProcess,
                                                            discord_rest: discord.http.HTTPClient, event: str,
                                                            place: int, error: type[discord.HTTPException],
                                                            code: int) -> None:
    """The event is dispatched and the bot's gateway parser has handled it (its heartbeat
    carries the event's sequence number); a post there is then refused as Discord refuses it."""
    fd = fake_discord
    if event == "GUILD_DELETE":
        await fd.remove_guild()
    else:
        await fd.delete_channel(place)
    [frame] = [f for f in fd.gateway.frames if f.op == DISPATCH and f.t == event]
    await fd.gateway.sync()
    beats = [f.d for f in fd.gateway.frames if f.direction == "in" and f.op == HEARTBEAT and f.at > frame.at]
    assert frame.s is not None and max(beats) >= frame.s
    with pytest.raises(error) as refused:
        await discord_rest.send_message(place, params=text("still there?"))
    assert refused.value.code == code
    assert running_bot.running


# -- the process -----------------------------------------------------------------------------------------


async def test_sigterm_ends_the_process(fake_discord: FakeDiscord, running_bot: BotProcess) -> None:
    fd, bot = fake_discord, running_bot
    mark = await fd.interact(fd.slash(ALICE, "game new", game="detour"))
    await fd.wait_channel_message(since=mark)
    bot.terminate()
    status = await bot.wait_exit(timeout=15)
    assert status in (0, -signal.SIGTERM)
    assert bot.database.exists()
    print(f"SIGTERM: exit status {status}, left behind: {[p.name for p in bot.wal_files()]}")


def test_the_child_reaches_nothing_but_loopback(tmp_path: Path) -> None:
    """The test-only sitecustomize: discord.py points at the fake URL, and any other address
    or name is refused in the child; a non-loopback FAKE_DISCORD_URL stops it at once."""
    probe = (
        "import json, socket, discord.http, discord.gateway\n"
        "out = {'base': discord.http.Route.BASE, 'gateway': str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)}\n"
        "for name, call in [('connect', lambda: socket.socket().connect(('192.0.2.1', 443))),\n"
        "                   ('lookup', lambda: socket.getaddrinfo('discord.com', 443))]:\n"
        "    try:\n"
        "        call(); out[name] = 'allowed'\n"
        "    except OSError as exc:\n"
        "        out[name] = type(exc).__name__\n"
        "print(json.dumps(out))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAKE_DISCORD", "PYTHONPATH"))}
    env["PYTHONPATH"] = str(CHILD)

    def run(url: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", probe], env={**env, "FAKE_DISCORD_URL": url}, cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)

    ok = run("http://127.0.0.1:5999")
    assert json.loads(ok.stdout) == {"base": "http://127.0.0.1:5999/api/v10", "gateway": "ws://127.0.0.1:5999/gateway",
                                     "connect": "PermissionError", "lookup": "gaierror"}, ok.stderr
    refused = run("http://discord.com:80")
    assert refused.returncode != 0 and "not http://<loopback address>" in refused.stderr
