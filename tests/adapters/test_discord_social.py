"""/game follow, unfollow, stats and leaderboard through real interaction payloads
(tests/discord_harness.py): followers' copies arrive by DM or in a thread, identical to
the channel's turn message; a follower whose DMs are closed is dropped without an error;
stats and the leaderboard are private embeds in the asker's language."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Translator
from tests.support.discord_harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL_ID,
    EVE,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    Harness,
    Request,
    Sent,
    active,
    open_table,
    refusal,
    text,
)

THREAD_ID = 1_290_000_000_000_000_300
SEND_MESSAGES_IN_THREADS = 1 << 38


def thread_data(*, locked: bool = False, user_can_view: bool = True) -> dict[str, Any]:
    """The thread as Discord resolves it for the person who picked it (`permissions`: theirs in it)."""
    return {"id": str(THREAD_ID), "type": 11, "name": "watch-party", "parent_id": str(CHANNEL_ID),
            "guild_id": str(GUILD_ID), "owner_id": str(EVE.id), "flags": 0, "rate_limit_per_user": 0,
            "message_count": 0, "member_count": 1, "last_message_id": None,
            "permissions": str(MEMBER_PERMISSIONS if user_can_view else 0),
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "locked": locked,
                                "archive_timestamp": "2025-01-01T00:00:00+00:00", "invitable": True,
                                "create_timestamp": "2025-01-01T00:00:00+00:00"}}


def add_thread(h: Harness) -> None:
    """The thread as the gateway would have cached it (THREAD_CREATE), in a server whose
    members (and so the bot) may send messages in threads, as Discord's default allows."""
    guild = h.bot.get_guild(GUILD_ID)
    assert guild is not None
    guild.default_role._permissions |= SEND_MESSAGES_IN_THREADS
    guild._add_thread(discord.Thread(guild=guild, state=h.bot._connection, data=thread_data()))  # type: ignore[arg-type]


def follow_in_thread(h: Harness, *, locked: bool = False, user_can_view: bool = True) -> dict[str, Any]:
    payload = h.slash(EVE, "game follow", thread=str(THREAD_ID))
    payload["data"]["resolved"] = {"channels": {str(THREAD_ID): thread_data(locked=locked,
                                                                            user_can_view=user_can_view)}}
    return payload


def stats_of(h: Harness, asker: Any, player: Any) -> dict[str, Any]:
    payload = h.slash(asker, "game stats", player=str(player.id))
    member = {k: v for k, v in player.member().items() if k != "user"}
    payload["data"]["resolved"] = {"users": {str(player.id): player.data()}, "members": {str(player.id): member}}
    return payload


def same_message(copy: Sent, turn: Sent) -> None:
    assert copy.content == turn.content
    assert [(f.filename, f.data) for f in copy.files] == [(f.filename, f.data) for f in turn.files]
    assert copy.components == [] and copy.allowed_mentions is not None and copy.allowed_mentions.get("users") == []


async def test_a_follower_gets_each_turn_by_dm(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    await h.run(h.slash(EVE, "game follow"))
    [ok] = h.ephemeral_for(EVE)
    assert ok.content == "✅ " + text(EVE, "follow.started_dm", title="Countdown", channel=f"<#{CHANNEL_ID}>")
    [hello] = h.dms_for(EVE)
    assert hello.content == text(EVE, "follow.hello", title="Countdown", channel=f"<#{CHANNEL_ID}>")
    mark = h.mark()
    first = await open_table(h, ALICE, [BOB])
    [copy] = h.dms_for(EVE, since=mark)
    same_message(copy, first)
    mark = h.mark()
    await h.run(h.click(ALICE, first, first.button("Take 2").custom_id))  # type: ignore[arg-type]
    [turn] = h.channel_messages(since=mark)
    [copy] = h.dms_for(EVE, since=mark)
    same_message(copy, turn)
    await h.run(h.slash(EVE, "game unfollow"))
    mark = h.mark()
    await h.run(h.slash(BOB, "countdown take", n=1))
    assert h.dms_for(EVE, since=mark) == []


async def test_closed_dms_end_the_follow_quietly(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))

    def closed_dms(req: Request) -> Exception | None:
        if req.template == "/channels/{channel_id}/messages" and req.path != f"/channels/{CHANNEL_ID}/messages":
            return discord.Forbidden(_Resp(), {"code": 50007, "message": "Cannot send messages to this user"})
        return None

    h.failures.append(closed_dms)
    await h.run(h.slash(EVE, "game follow"))
    record = await active(h)
    assert await h.bot.store.follows(record.id) == []  # the hello could not be sent: no follow
    assert [m.content for m in h.ephemeral_for(EVE)] == [
        "✅ " + text(EVE, "follow.started_dm", title="Countdown", channel=f"<#{CHANNEL_ID}>"),
        refusal(EVE, "follow.unreachable")]
    await open_table_from_lobby(h)
    assert h.error_messages() == []


async def open_table_from_lobby(h: Harness) -> None:
    lobby = h.channel_messages()[-1]
    await h.run(h.click(BOB, lobby, lobby.button("Join").custom_id))  # type: ignore[arg-type]
    lobby = h.channel_messages()[-1]
    await h.run(h.click(ALICE, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]


async def test_a_thread_follow_from_the_lobby_button_and_a_thread(h: Harness) -> None:
    add_thread(h)
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    lobby = h.channel_messages()[-1]
    await h.run(h.click(CAROL, lobby, lobby.button("Follow").custom_id))  # type: ignore[arg-type]
    assert [m.content for m in h.dms_for(CAROL)] == [
        text(CAROL, "follow.hello", title="Countdown", channel=f"<#{CHANNEL_ID}>")]
    await h.run(follow_in_thread(h))
    assert [m.content for m in h.ephemeral_for(EVE)] == ["✅ " + text(
        EVE, "follow.started_thread", title="Countdown", channel=f"<#{CHANNEL_ID}>", thread=f"<#{THREAD_ID}>")]
    mark = h.mark()
    await open_table_from_lobby(h)
    turn = h.channel_messages(since=mark)[-1]
    [in_thread] = h.channel_messages(since=mark, channel_id=THREAD_ID)
    same_message(in_thread, turn)
    [by_dm] = h.dms_for(CAROL, since=mark)
    same_message(by_dm, turn)


async def test_a_thread_the_bot_cannot_post_in_is_refused(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    await h.run(follow_in_thread(h))  # this server does not let the bot send in threads
    add_thread(h)
    await h.run(follow_in_thread(h, locked=True))
    assert [m.content for m in h.ephemeral_for(EVE)] == [refusal(EVE, "follow.thread_closed")] * 2
    assert await h.bot.store.follows((await active(h)).id) == []


async def test_a_thread_the_user_cannot_see_is_refused(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    add_thread(h)
    await h.run(follow_in_thread(h, user_can_view=False))  # Eve picked a thread id she cannot open
    assert [m.content for m in h.ephemeral_for(EVE)] == [refusal(EVE, "follow.thread_hidden")]
    assert await h.bot.store.follows((await active(h)).id) == []


async def test_stats_and_leaderboard_are_private_embeds(h: Harness) -> None:
    first = await open_table(h, ALICE, [BOB], options="start=5")
    await h.run(h.click(ALICE, first, first.button("Take 2").custom_id))  # type: ignore[arg-type]
    await h.run(h.slash(BOB, "countdown take", n=3))  # Bob wins
    assert (await h.bot.store.last_game(CHANNEL_ID)).status == "finished"  # type: ignore[union-attr]
    mark = h.mark()
    await h.run(stats_of(h, BOB, ALICE))  # Bob (de) asks about Alice
    [card] = h.ephemeral_for(BOB, since=mark)
    t = Translator(BOB.locale)
    [embed] = card.payload["embeds"]
    assert embed["title"] == t("stats.title", name="Alice")
    assert t("stats.record", games=1, wins=0) in embed["description"]
    mark = h.mark()
    await h.run(h.slash(CAROL, "game leaderboard", game="countdown"))
    [board] = h.ephemeral_for(CAROL, since=mark)
    t = Translator(CAROL.locale)
    assert board.content == t("leaderboard.empty", title="Countdown", min=3)  # the default minimum
    assert h.channel_messages(since=mark) == []


class _Resp:
    status = 403
    reason = "Forbidden"

