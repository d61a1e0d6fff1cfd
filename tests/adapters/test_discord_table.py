"""The Discord adapter end to end with the fake game: real interaction payloads through
discord.py's parsing, command tree and dynamic items; REST calls recorded by a fake API."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from tests.support import fakegame
from tests.support.discord_harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL_ID,
    CUSTOM_ID,
    EPHEMERAL,
    EVE,
    MANAGE_CHANNELS,
    MEMBER_PERMISSIONS,
    OTHER_CHANNEL_ID,
    FakeUser,
    Harness,
    Request,
    Sent,
    active,
    kind_of,
    open_table,
    refusal,
    text,
)


def assert_turn_message(msg: Sent, next_user: int) -> None:
    """A public turn message: the board as PNG, the next player pinged (and only them), buttons."""
    assert not msg.ephemeral
    assert [f.filename for f in msg.files] == ["board.png"]
    assert msg.files[0].is_png and msg.files[0].size > 50
    assert [a["filename"] for a in msg.attachments] == ["board.png"]
    assert f"<@{next_user}>" in msg.content
    assert pings(msg) == [next_user]
    labels = [b.label for b in msg.buttons]
    assert "Your move" in labels and "My hand" in labels
    for b in msg.buttons:
        assert CUSTOM_ID.fullmatch(b.custom_id or ""), b.custom_id


def pings(msg: Sent) -> list[int]:
    """Who the message may ping, checking that it can ping no role, @everyone or @here."""
    am = msg.allowed_mentions
    assert am is not None, "allowed_mentions must always be sent"
    assert am.get("parse") == []  # no @everyone / @here, no roles, no users parsed from the text
    assert not am.get("roles") and not am.get("replied_user")
    return [int(u) for u in am.get("users", [])]


# -- /game new -----------------------------------------------------------------------------------


async def test_game_new_defers_ephemerally_then_posts_the_lobby(h: Harness) -> None:
    at_callback: list[object] = []

    async def watch(req: Request) -> None:
        if req.template.endswith("/callback"):
            at_callback.append(await active(h))

    h.hooks.append(watch)
    cmd = h.slash(ALICE, "game new", game="countdown")
    await h.run(cmd)

    reqs = h.requests_for(cmd)
    callbacks = h.callbacks_for(cmd)
    assert len(callbacks) == 1
    assert callbacks[0].type == 5 and callbacks[0].flags == EPHEMERAL  # deferred, "thinking", ephemeral
    assert h.requests[0] is callbacks[0].request  # the very first thing the bot did
    assert at_callback == [None]  # the game did not exist yet when the defer went out
    lobby = h.channel_messages()
    assert len(lobby) == 1
    msg = lobby[0]
    assert msg.channel_id == CHANNEL_ID and not msg.ephemeral
    assert "Countdown" in msg.content and "Alice" in msg.content
    assert [b.label for b in msg.buttons] == ["Join", "Leave", "Add AI", "Start", "Follow"]
    assert msg.button("Start").disabled  # one player is not enough
    assert not msg.button("Join").disabled
    assert {kind_of(b.custom_id) for b in msg.buttons} == {"join", "leave", "addbot", "start", "follow"}
    assert pings(msg) == []
    # nothing to say privately: the "thinking…" placeholder is deleted
    assert [(r.method, r.path.rsplit("/", 2)[-2:]) for r in reqs[1:]] == [("DELETE", ["messages", "@original"])]
    assert (await active(h)).status == "lobby"


async def test_second_game_new_in_the_same_channel_is_refused_privately(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    before = h.mark()
    again = h.slash(BOB, "game new", game="countdown", options="start=9")
    await h.run(again)
    assert h.channel_messages(since=before) == []
    answers = h.ephemeral_for(BOB, since=before)
    assert len(answers) == 1
    assert answers[0].content == refusal(BOB, "error.channel_busy", title="Countdown")
    assert answers[0].flags == EPHEMERAL
    assert [c.type for c in h.callbacks_for(again)] == [5]
    # nothing else went out: no delete of the placeholder (it was answered), no DM
    assert [r.method for r in h.requests[before:]] == ["POST", "POST"]
    record = await active(h)
    assert record.options == {"start": 15} and len(record.seats) == 1


async def test_unknown_game_and_bad_options_are_refused(h: Harness) -> None:
    mark = h.mark()
    await h.run(h.slash(ALICE, "game new", game="countdown", options="start=1000"))
    await h.run(h.slash(ALICE, "game new", game="countdown", options="nonsense"))
    answers = h.ephemeral_for(ALICE, since=mark)
    assert len(answers) == 2
    assert all(a.content.startswith("⚠️") for a in answers)
    assert "key=value" in answers[1].content
    assert h.channel_messages(since=mark) == []
    assert await active(h) is None


# -- joining, starting, moving ------------------------------------------------------------------------


async def test_join_and_start_by_button_then_play_by_slash_quick_button_and_menu(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    lobby = h.channel_messages()[-1]
    join = h.click(BOB, lobby, lobby.button("Join").custom_id)  # type: ignore[arg-type]
    await h.run(join)
    assert [c.type for c in h.callbacks_for(join)] == [6]  # deferred update, nothing private to say
    lobby2 = h.channel_messages()[-1]
    assert "Bob" in lobby2.content and not lobby2.button("Start").disabled
    record = await active(h)
    assert [s.name for s in record.seats] == ["Alice", "Bob"]

    turn = await open_table_start(h, lobby2)
    record = await active(h)
    assert record.status == "running"
    seats = {s.user_id: s.seat for s in record.seats}
    assert seats == {ALICE.id: "p1", BOB.id: "p2"}
    assert_turn_message(turn, ALICE.id)
    assert [b.label for b in turn.buttons] == ["Take 1", "Take 2", "Take 3", "Your move", "My hand"]
    assert "15" in turn.content

    # 1. Alice by slash command
    version = record.version
    cmd = h.slash(ALICE, "countdown take", n=2)
    mark = h.mark()
    await h.run(cmd)
    assert h.callbacks_for(cmd)[0].type == 5 and h.callbacks_for(cmd)[0].ephemeral
    ack = h.ephemeral_for(ALICE, since=mark)
    assert [a.content for a in ack] == ["✅ Take 2"]
    turn = h.channel_messages(since=mark)[-1]
    assert_turn_message(turn, BOB.id)
    assert "Alice took 2; 13 left." in turn.content
    record = await active(h)
    assert record.version == version + 1 and record.state["counter"] == 13
    assert len(await h.bot.store.actions(record.id)) == 1

    # 2. Bob by the quick button on the public message
    mark = h.mark()
    await h.run(h.click(BOB, turn, turn.button("Take 3").custom_id))  # type: ignore[arg-type]
    assert [a.content for a in h.ephemeral_for(BOB, since=mark)] == ["✅ Take 3"]
    turn = h.channel_messages(since=mark)[-1]
    assert_turn_message(turn, ALICE.id)
    assert "Bob took 3; 10 left." in turn.content

    # 3. Alice through the "Your move" menu: an ephemeral list of her moves, then one of them
    mark = h.mark()
    await h.run(h.click(ALICE, turn, turn.button("Your move").custom_id))  # type: ignore[arg-type]
    menus = h.ephemeral_for(ALICE, since=mark)
    assert len(menus) == 1 and h.channel_messages(since=mark) == []
    menu = menus[0]
    assert "Your move" in menu.content
    assert [b.label for b in menu.buttons] == ["Take 1", "Take 2", "Take 3"]
    assert menu.message["flags"] == EPHEMERAL
    mark = h.mark()
    await h.run(h.click(ALICE, menu, menu.button("Take 1").custom_id))  # type: ignore[arg-type]
    turn = h.channel_messages(since=mark)[-1]
    assert_turn_message(turn, BOB.id)
    assert "Alice took 1; 9 left." in turn.content
    record = await active(h)
    log = await h.bot.store.actions(record.id)
    assert [(e.seat, e.action) for e in log] == [("p1", {"type": "take", "n": 2}), ("p2", {"type": "take", "n": 3}),
                                                 ("p1", {"type": "take", "n": 1})]


async def open_table_start(h: Harness, lobby: Sent) -> Sent:
    await h.run(h.click(ALICE, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]
    return h.channel_messages()[-1]


async def test_a_non_host_cannot_start_and_eve_cannot_leave_a_table_she_is_not_at(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    lobby = h.channel_messages()[-1]
    await h.run(h.click(BOB, lobby, lobby.button("Join").custom_id))  # type: ignore[arg-type]
    lobby = h.channel_messages()[-1]
    mark = h.mark()
    await h.run(h.click(BOB, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]
    await h.run(h.click(EVE, lobby, lobby.button("Leave").custom_id))  # type: ignore[arg-type]
    assert h.channel_messages(since=mark) == []
    assert [a.content for a in h.ephemeral_for(BOB, since=mark)] == [refusal(BOB, "error.host_only")]
    assert [a.content for a in h.ephemeral_for(EVE, since=mark)] == [refusal(EVE, "error.not_seated")]
    assert (await active(h)).status == "lobby"


# -- refusals --------------------------------------------------------------------------------------


async def test_players_not_seated_or_not_to_act_are_refused_and_nothing_changes(h: Harness) -> None:
    turn = await open_table(h, ALICE, [BOB])
    before = await active(h)
    mark = h.mark()
    await h.run(h.click(EVE, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]
    await h.run(h.click(BOB, turn, turn.button("Take 2").custom_id))  # type: ignore[arg-type]
    await h.run(h.slash(BOB, "countdown take", n=3))
    await h.run(h.slash(EVE, "countdown take", n=1))
    await h.run(h.click(EVE, turn, turn.button("Your move").custom_id))  # type: ignore[arg-type]
    assert h.channel_messages(since=mark) == []
    eve = [a.content for a in h.ephemeral_for(EVE, since=mark)]
    bob = [a.content for a in h.ephemeral_for(BOB, since=mark)]
    assert eve == [refusal(EVE, "error.not_seated")] * 3
    assert bob == [refusal(BOB, "error.not_your_turn", waiting="Alice")] * 2
    after = await active(h)
    assert after.version == before.version and after.state == before.state
    assert await h.bot.store.actions(after.id) == []
    # every refusal is private and pings nobody
    for sent in h.followups(since=mark):
        assert sent.flags == EPHEMERAL
        assert pings(sent) == []


async def test_illegal_slash_value_is_refused(h: Harness) -> None:
    await open_table(h, ALICE, [BOB], options="start=5")
    await h.run(h.slash(ALICE, "countdown take", n=3))
    mark = h.mark()
    await h.run(h.slash(BOB, "countdown take", n=3))
    locales = Path(fakegame.__file__).parent / "locales"
    assert [a.content for a in h.ephemeral_for(BOB, since=mark)] == [refusal(BOB, "illegal.too_many", locales)]
    assert h.channel_messages(since=mark) == []
    assert (await active(h)).state["counter"] == 2


async def test_a_stale_button_says_the_game_moved_on(h: Harness) -> None:
    old = await open_table(h, ALICE, [BOB])
    await h.run(h.click(ALICE, old, old.button("Take 1").custom_id))  # type: ignore[arg-type]
    before = await active(h)
    mark = h.mark()
    # Bob (now to act) presses a button of the previous turn message
    await h.run(h.click(BOB, old, old.button("Take 2").custom_id))  # type: ignore[arg-type]
    answers = h.ephemeral_for(BOB, since=mark)
    assert len(answers) == 1
    assert answers[0].content == refusal(BOB, "error.stale_move")
    # ...with a fresh "Your move" button for the current version
    [button] = answers[0].buttons
    assert kind_of(button.custom_id) == "menu"
    assert int(CUSTOM_ID.fullmatch(button.custom_id or "")["version"]) == before.version  # type: ignore[index]
    assert h.channel_messages(since=mark) == []
    after = await active(h)
    assert after.version == before.version and after.state == before.state
    # the stale "Your move" button still opens the current menu, with a note
    mark = h.mark()
    await h.run(h.click(BOB, old, old.button("Your move").custom_id))  # type: ignore[arg-type]
    [menu] = h.ephemeral_for(BOB, since=mark)
    assert text(BOB, "menu.moved_on") in menu.content
    assert [b.label for b in menu.buttons] == ["Take 1", "Take 2", "Take 3"]


@pytest.mark.parametrize("template", [
    "pp:{game}:{version}:act:not-a-hash",
    "pp:{game}:{version}:frobnicate:x",
    "pp:{game}:{version}:sel:0",
    "pp:{game}:99999999999999999999:act:0123456789",
    "pp:424242:{version}:act:0123456789",
    "pp:{game}:{version}:menu:g=;p=99999999999999999999",
    "pp:{game}:{version}:join:",
])
async def test_garbage_custom_ids_matching_the_template_get_a_clear_answer(h: Harness, template: str) -> None:
    await open_table(h, ALICE, [BOB])
    record = await active(h)
    custom_id = template.format(game=record.id, version=record.version)
    mark = h.mark()
    click = h.click(ALICE, h.message_with(custom_id), custom_id)
    await h.run(click)
    assert [c.type for c in h.callbacks_for(click)] == [6]  # acknowledged in time
    answers = h.ephemeral_for(ALICE, since=mark)
    assert len(answers) == 1 and answers[0].content
    assert "went wrong" not in answers[0].content  # a clear answer, not the internal-error apology
    assert h.channel_messages(since=mark) == []
    assert (await active(h)).version == record.version
    # (the fixture checks that nothing was logged at ERROR: no traceback)


async def test_a_garbage_select_value_is_refused(h: Harness) -> None:
    await open_table(h, ALICE, [BOB])
    record = await active(h)
    custom_id = f"pp:{record.id}:{record.version}:sel:0"
    message = h.message_with(custom_id)
    message["components"][0]["components"] = [{"type": 3, "custom_id": custom_id, "placeholder": "Take",
                                               "options": [{"label": "x", "value": "nonsense"}],
                                               "min_values": 1, "max_values": 1}]
    mark = h.mark()
    await h.run(h.choose(ALICE, message, custom_id, ["nonsense"]))
    [answer] = h.ephemeral_for(ALICE, since=mark)
    assert answer.content == refusal(ALICE, "error.not_now")
    assert (await active(h)).version == record.version


# -- races ----------------------------------------------------------------------------------------


async def test_a_double_click_applies_once(h: Harness) -> None:
    turn = await open_table(h, ALICE, [BOB])
    record = await active(h)
    mark = h.mark()
    first = h.click(ALICE, turn, turn.button("Take 2").custom_id)  # type: ignore[arg-type]
    second = h.click(ALICE, turn, turn.button("Take 2").custom_id)  # type: ignore[arg-type]
    await h.run(first, second)  # parsed back to back, nothing awaited in between
    log = await h.bot.store.actions(record.id)
    assert len(log) == 1
    after = await active(h)
    assert after.state["counter"] == 13 and after.version == record.version + 1
    assert len(h.channel_messages(since=mark)) == 1
    answers = [a.content for a in h.ephemeral_for(ALICE, since=mark)]
    assert len(answers) == 2
    assert "✅ Take 2" in answers
    other = next(a for a in answers if a != "✅ Take 2")
    assert other in (refusal(ALICE, "error.stale_move"), refusal(ALICE, "error.already_made"))


async def test_two_players_racing_on_the_same_turn_message(h: Harness) -> None:
    turn = await open_table(h, ALICE, [BOB])
    record = await active(h)
    mark = h.mark()
    await h.run(h.click(ALICE, turn, turn.button("Take 1").custom_id),  # type: ignore[arg-type]
                h.click(BOB, turn, turn.button("Take 3").custom_id),  # type: ignore[arg-type]
                h.click(ALICE, turn, turn.button("Take 3").custom_id))  # type: ignore[arg-type]
    log = await h.bot.store.actions(record.id)
    assert [(e.seat, e.action["n"]) for e in log] == [("p1", 1)]
    assert len(h.channel_messages(since=mark)) == 1
    assert len(h.ephemeral_for(BOB, since=mark)) == 1
    assert len(h.ephemeral_for(ALICE, since=mark)) == 2


# -- information ---------------------------------------------------------------------------------


async def test_status_and_log_are_ephemeral(h: Harness) -> None:
    turn = await open_table(h, ALICE, [BOB])
    await h.run(h.click(ALICE, turn, turn.button("Take 2").custom_id))  # type: ignore[arg-type]
    mark = h.mark()
    await h.run(h.slash(EVE, "game status"), h.slash(BOB, "game log"))
    assert h.channel_messages(since=mark) == []
    [status] = h.ephemeral_for(EVE, since=mark)
    assert status.files and status.files[0].is_png and "13" in status.content
    [log] = h.ephemeral_for(BOB, since=mark)
    assert "Alice took 2; 13 left." in log.content


# -- where and who --------------------------------------------------------------------------------


async def test_the_guild_locale_sets_the_game_language(h: Harness) -> None:
    h.guild_locale = "fr"
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    [lobby] = h.channel_messages()
    french = text(FakeUser(1, "x", "fr"), "button.join")
    assert french != "Join" and lobby.buttons[0].label == french
    assert (await active(h)).settings["language"] == "fr"
    # an explicit language wins over the guild's
    await h.run(h.slash(ALICE, "game cancel"))
    await h.run(h.slash(ALICE, "game new", game="countdown", language="de"))
    assert (await active(h)).settings["language"] == "de"
    assert h.channel_messages()[-1].buttons[0].label == text(BOB, "button.join")


async def test_manage_channels_permission_lets_a_moderator_start_and_cancel(h: Harness) -> None:
    mod = FakeUser(1_300_000_000_000_000_077, "Mod", permissions=MEMBER_PERMISSIONS | MANAGE_CHANNELS)
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    lobby = h.channel_messages()[-1]
    await h.run(h.click(BOB, lobby, lobby.button("Join").custom_id))  # type: ignore[arg-type]
    lobby = h.channel_messages()[-1]
    await h.run(h.click(mod, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]
    assert (await active(h)).status == "running"
    mark = h.mark()
    await h.run(h.slash(BOB, "game cancel"))
    assert [a.content for a in h.ephemeral_for(BOB, since=mark)] == [refusal(BOB, "error.host_only")]
    await h.run(h.slash(mod, "game cancel"))
    assert await active(h) is None
    assert "Mod" in h.channel_messages()[-1].content


async def test_a_channel_missing_from_the_cache_still_gets_the_public_messages(h: Harness) -> None:
    new_channel = 1_290_000_000_000_000_555
    assert h.bot.get_channel(new_channel) is None
    await h.run(h.slash(ALICE, "game new", game="countdown", channel_id=new_channel))
    [lobby] = h.channel_messages(channel_id=new_channel)
    assert h.channel_messages() == []
    await h.run(h.click(BOB, lobby, lobby.button("Join").custom_id, channel_id=new_channel))  # type: ignore[arg-type]
    assert len(h.channel_messages(channel_id=new_channel)) == 2
    assert await active(h) is None  # the game lives in the new channel, not ours


async def test_another_channel_has_its_own_table(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    await h.run(h.slash(BOB, "game new", game="countdown", channel_id=OTHER_CHANNEL_ID))
    assert len(h.channel_messages(channel_id=OTHER_CHANNEL_ID)) == 1
    mark = h.mark()
    await h.run(h.slash(CAROL, "countdown take", n=1, channel_id=OTHER_CHANNEL_ID))
    assert [a.content for a in h.ephemeral_for(CAROL, since=mark)] == [refusal(CAROL, "error.not_started")]


async def test_an_option_out_of_range_gets_an_answer(h: Harness) -> None:
    """Discord enforces min/max in the client; a payload that bypasses it is still answered."""
    turn = await open_table(h, ALICE, [BOB], options="start=40")
    for _ in range(12):
        await h.run(h.click(ALICE if _ % 2 == 0 else BOB, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]  # noqa: E501
        turn = h.channel_messages()[-1]
    mark = h.mark()
    await h.run(h.slash(ALICE, "game log", count=500), h.slash(BOB, "game addbot", count=99))
    [log] = h.ephemeral_for(ALICE, since=mark)
    assert log.content == refusal(ALICE, "error.bad_input")
    [addbot] = h.ephemeral_for(BOB, since=mark)
    assert addbot.content == refusal(BOB, "error.bad_input")
    await h.run(h.slash(ALICE, "game log", count=50))
    [log] = h.ephemeral_for(ALICE, since=mark)[1:]
    assert log.content.count("took 1;") == 12 and len(log.content) <= 2000
    assert h.channel_messages(since=mark) == []


async def test_when_the_channel_refuses_the_bot_the_interaction_is_still_closed(h: Harness) -> None:
    def forbid(req: Request) -> Exception | None:
        if req.method == "POST" and req.template == "/channels/{channel_id}/messages":
            return discord.Forbidden(_Resp(403), {"code": 50013, "message": "Missing Permissions"})
        return None

    h.failures.append(forbid)
    cmd = h.slash(ALICE, "game new", game="countdown")
    await h.run(cmd)
    kinds = [(r.method, r.template) for r in h.requests_for(cmd)]
    assert kinds[0][1].endswith("/callback")
    assert len(kinds) >= 2, "the deferred 'thinking…' must not be left hanging"
    lobby = await active(h)
    assert lobby.announce_due is not None and lobby.announce_tries == 1  # owed: posted again later
    h.errors.records.clear()


async def test_when_the_channel_refuses_the_bot_the_user_is_told(h: Harness) -> None:
    h.failures.append(lambda req: discord.Forbidden(_Resp(403), {"code": 50013, "message": "Missing Permissions"})
                      if req.template == "/channels/{channel_id}/messages" else None)
    try:
        await h.run(h.slash(ALICE, "game new", game="countdown"))
        assert [a.content for a in h.ephemeral_for(ALICE)] == [refusal(ALICE, "error.cannot_post")]
        # a click is answered the same way, in the clicker's language
        record = await active(h)
        join = f"pp:{record.id}:{record.version}:join:"
        await h.run(h.click(BOB, h.message_with(join), join))
        assert [a.content for a in h.ephemeral_for(BOB)] == [refusal(BOB, "error.cannot_post")]
        assert "saved" in refusal(ALICE, "error.cannot_post")
    finally:
        h.errors.records.clear()


class _Resp:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Forbidden"


async def test_two_game_new_at_once_open_one_table(h: Harness) -> None:
    first, second = h.slash(ALICE, "game new", game="countdown"), h.slash(BOB, "game new", game="countdown")
    await h.run(first, second)
    assert len(h.channel_messages()) == 1
    refused = h.ephemeral_for(ALICE) + h.ephemeral_for(BOB)
    assert len(refused) == 1 and refused[0].content.startswith("⚠️")
    assert len((await active(h)).seats) == 1


async def test_joins_at_once_all_get_a_seat(h: Harness) -> None:
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    lobby = h.channel_messages()[-1]
    join = lobby.button("Join").custom_id
    await h.run(h.click(BOB, lobby, join), h.click(CAROL, lobby, join), h.click(BOB, lobby, join))  # type: ignore[arg-type]  # noqa: E501
    record = await active(h)
    assert sorted(s.name for s in record.seats) == ["Alice", "Bob", "Carol"]
    assert [a.content for a in h.ephemeral_for(BOB)] == [refusal(BOB, "error.already_joined")]


# -- the bot's own start-up and scheduler ---------------------------------------------------------------


async def test_setup_hook_syncs_and_starts_the_scheduler(h: Harness) -> None:
    await h.bot.setup_hook()
    try:
        assert len(h.synced()) == 1
        assert h.bot._scheduler is not None and not h.bot._scheduler.done()
    finally:
        h.bot._scheduler.cancel()  # type: ignore[union-attr]


async def test_the_scheduler_posts_reminders_and_plays_for_absent_players(fake_game: None, tmp_path: Path) -> None:
    import asyncio
    import time

    from bot.settings import Settings

    settings = Settings(database_url=str(tmp_path / "t.sqlite3"), tick_seconds=0.02, reminder_hours=12,
                        timeout_hours=48)
    h = await Harness.create(tmp_path, settings=settings, db_name="t.sqlite3")
    try:
        await open_table(h, ALICE, [BOB])
        record = await active(h)
        await h.bot.store.set_deadlines(record.id, remind_at=time.time() - 1, timeout_at=time.time() + 3600)
        mark = h.mark()
        loop = asyncio.create_task(h.bot._tick_loop())
        try:
            for _ in range(500):
                if h.channel_messages(since=mark):
                    break
                await asyncio.sleep(0.01)
            [reminder] = h.channel_messages(since=mark)
            assert f"<@{ALICE.id}>" in reminder.content and pings(reminder) == [ALICE.id]
            assert any(kind_of(b.custom_id) == "menu" for b in reminder.buttons)
            # now Alice times out: the AI plays for her, and the turn passes to Bob
            await h.bot.store.set_deadlines(record.id, remind_at=None, timeout_at=time.time() - 1)
            mark = h.mark()
            for _ in range(500):
                if h.channel_messages(since=mark):
                    break
                await asyncio.sleep(0.01)
            [played] = h.channel_messages(since=mark)
            assert pings(played) == [BOB.id] and played.files[0].is_png
            log = await h.bot.store.actions(record.id)
            assert [(e.seat, e.actor) for e in log] == [("p1", "timeout")]
        finally:
            loop.cancel()
        assert h.error_messages() == []
    finally:
        await h.close()


# -- mid-game commands ----------------------------------------------------------------------------------


async def test_resign_hands_the_seat_to_the_ai_and_the_game_goes_on(h: Harness) -> None:
    await open_table(h, ALICE, [BOB], options="start=20")
    mark = h.mark()
    await h.run(h.slash(ALICE, "game resign"))
    record = await active(h)
    alice = next(s for s in record.seats if s.seat == "p1")
    assert alice.is_bot and alice.user_id < 0
    [msg] = h.channel_messages(since=mark)
    assert "Alice" in msg.content and pings(msg) == [BOB.id]  # the AI moved at once; Bob is next
    log = await h.bot.store.actions(record.id)
    assert [(e.seat, e.actor) for e in log] == [("p1", "ai")]
    # Alice is no longer playing
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown take", n=1))
    assert [a.content for a in h.ephemeral_for(ALICE, since=mark)] == [refusal(ALICE, "error.not_seated")]
    # Bob plays on against the AI until the end
    for _ in range(20):
        record = await active(h)
        if record is None:
            break
        await h.run(h.slash(BOB, "countdown take", n=1))
    assert await active(h) is None
    assert text(ALICE, "result.header") in h.channel_messages()[-1].content


async def test_the_host_switches_the_game_language_mid_game(h: Harness) -> None:
    turn = await open_table(h, ALICE, [BOB])
    mark = h.mark()
    await h.run(h.slash(BOB, "game settings", language="fr"))
    assert [a.content for a in h.ephemeral_for(BOB, since=mark)] == [refusal(BOB, "error.host_only")]
    await h.run(h.slash(ALICE, "game settings", language="fr"))
    mark = h.mark()
    await h.run(h.click(ALICE, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]
    [msg] = h.channel_messages(since=mark)
    french = FakeUser(1, "x", "fr")
    assert msg.button(text(french, "button.play")).label != "Your move"
    assert text(french, "turn.waiting", who=f"<@{BOB.id}>") in msg.content


async def test_moves_are_acknowledged_before_they_are_made(h: Harness) -> None:
    """The defer goes out before the move is applied and the board rendered (3 s deadline)."""
    turn = await open_table(h, ALICE, [BOB])
    start = (await active(h)).version
    seen: list[int] = []

    async def watch(req: Request) -> None:
        if req.template.endswith("/callback"):
            seen.append((await active(h)).version)

    h.hooks.append(watch)
    await h.run(h.click(ALICE, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]
    await h.run(h.slash(BOB, "countdown take", n=1))
    turn = h.channel_messages()[-1]
    await h.run(h.click(ALICE, turn, turn.button("Your move").custom_id))  # type: ignore[arg-type]
    assert seen == [start, start + 1, start + 2]
    assert (await active(h)).version == start + 2


@pytest.mark.parametrize("custom_id", [
    "pp:²:1:act:x",
    "pp:1:²:act:x",
    "pp:" + "9" * 30 + ":1:act:0123456789",
    "pp:1:" + "9" * 30 + ":menu:",
    "pp:-1:0:act:x",
    "pp:١٢:0:act:x",  # Arabic-Indic digits: \\d would take them, int() too
    "not-ours",
    "pp",
    "pp:1:1:ACT:x",
    "\u202epp:1:1:act:x",
])
async def test_forged_custom_ids_get_a_private_not_valid(h: Harness, custom_id: str) -> None:
    """A client can send any custom id: each gets a private "not valid", nothing changes, and
    nothing is logged as an error (the fixture checks that)."""
    await open_table(h, ALICE, [BOB])
    record = await active(h)
    mark = h.mark()
    click = h.click(ALICE, h.message_with(custom_id), custom_id)
    await h.run(click)
    assert [c.type for c in h.callbacks_for(click)] == [6]
    answers = h.ephemeral_for(ALICE, since=mark)
    assert [a.content for a in answers] == [refusal(ALICE, "error.bad_button")]
    assert h.channel_messages(since=mark) == []
    assert (await active(h)).version == record.version


async def test_a_slash_command_with_a_forged_option_type_is_refused_clearly(h: Harness) -> None:
    """An integer option sent as text, or a subcommand Discord does not know: a clear private
    answer about the input, not "Something went wrong"."""
    await h.run(h.slash(ALICE, "game new", game="countdown"))
    for value in ("lots", 99, -3, 1.5, None):
        mark = h.mark()
        forged = h.slash(ALICE, "game addbot", count=1)
        forged["data"]["options"][0]["options"][0]["value"] = value
        await h.run(forged)
        answers = h.ephemeral_for(ALICE, since=mark)
        assert [a.content for a in answers] == [refusal(ALICE, "error.bad_input")], value
        record = await active(h)
        assert len(record.seats) == 1
    mark = h.mark()
    unknown = h.slash(ALICE, "game addbot", count=1)
    unknown["data"]["options"][0]["name"] = "frobnicate"
    await h.run(unknown)
    assert [a.content for a in h.ephemeral_for(ALICE, since=mark)] == [refusal(ALICE, "error.bad_input")]
