"""Bad input through the table service: each gets a clear private answer and changes nothing."""

from __future__ import annotations

import pytest

from bot.replies import Reply
from bot.service import TableService, parse_custom_id, parse_options
from bot.store import SQLiteStore
from tests.conftest import ALICE, HERE, Where

pytestmark = pytest.mark.usefixtures("fake_game")


def refusal(replies: list[Reply]) -> str:
    assert len(replies) == 1 and replies[0].to == "ephemeral" and replies[0].outcome == "refused", replies
    assert "went wrong" not in replies[0].text
    return replies[0].text


@pytest.mark.parametrize(("game", "options", "expected"), [
    ("countdown", "x=²", "Options of this game: start"),
    ("countdown", "start=²", "whole number from 5 to 40"),
    ("countdown", "start=" + "9" * 5000, "whole number from 5 to 40"),
    ("countdown", "start=٣", "whole number from 5 to 40"),
    ("countdown", "start=41", "whole number from 5 to 40"),
    ("countdown", "a=1 b=2", "Unknown option `a`"),
    ("countdown", "start", "key=value"),
    ("around-the-world", "two_player_end=german", "must be one of: french, english"),
    ("around-the-world", "elephant_leg_events=maybe", "must be one of: false, true"),
    ("around-the-world", "elephant_leg_events=1", "must be one of: false, true"),
    ("detour", "speed=3", "Options of this game: —"),
])
async def test_bad_options_name_what_is_allowed(service: TableService, store: SQLiteStore, game: str,
                                                options: str, expected: str) -> None:
    text = refusal(await service.new_game(ALICE, HERE, game, options=options))
    assert expected in text
    assert await store.active_game(HERE.channel_id) is None


async def test_options_that_work_unquoted_or_with_commas(service: TableService, store: SQLiteStore) -> None:
    replies = await service.new_game(ALICE, HERE, "around-the-world",
                                     options="two_player_end=english, elephant_leg_events=true")
    assert replies[0].to == "channel"
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.options == {"two_player_end": "english", "elephant_leg_events": True}


def test_option_numbers_are_ascii_and_short() -> None:
    assert parse_options("start=12") == {"start": 12}
    assert parse_options("start=-3") == {"start": -3}
    assert parse_options("start=²") == {"start": "²"}
    assert parse_options("start=" + "1" * 40) == {"start": "1" * 40}


@pytest.mark.parametrize("value", ["pp:²:1:act:x", "pp:1:1:act:" + "x" * 200, "pp:" + "1" * 16 + ":1:act:",
                                   "", "pp:1:1:a-b:x", None, 12])
def test_custom_id_parsing_is_total(value: object) -> None:
    assert parse_custom_id(value) is None


async def test_forged_custom_ids_through_the_service(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    for value in ("pp:²:0:join:", "garbage", "pp:1:0:join:" + "x" * 90):
        assert "not valid" in refusal(await service.component(ALICE, HERE, value))
    assert "game that is over" in refusal(await service.component(ALICE, HERE, "pp:" + "9" * 15 + ":0:join:"))
    record = await store.active_game(HERE.channel_id)
    assert record is not None and len(record.seats) == 1


async def test_a_bad_language_names_the_languages(service: TableService, store: SQLiteStore) -> None:
    assert "en, de, fr" in refusal(await service.new_game(ALICE, HERE, "countdown", language="xx"))
    assert await store.active_game(HERE.channel_id) is None
    other = Where(channel_id=HERE.channel_id + 1, guild_id=HERE.guild_id)
    assert (await service.new_game(ALICE, other, "countdown", language="de"))[0].to == "channel"


async def test_a_refused_settings_change_writes_nothing(service: TableService, store: SQLiteStore) -> None:
    from tests.conftest import BOB

    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    assert await store.user_dm(BOB.id) is False
    # Bob is not the host: asking for DMs *and* a game setting is refused as a whole
    assert refusal(await service.settings_cmd(BOB, HERE, dm=True, reminder_hours=3))
    assert await store.user_dm(BOB.id) is False
    record = await store.active_game(HERE.channel_id)
    assert record is not None and not record.seat_of_user(BOB.id).dm
    assert record.settings["reminder_hours"] == 12
    # bad values are refused before anything is written, for the host too
    for kwargs in ({"reminder_hours": -1}, {"timeout_hours": 10_000}, {"language": "xx"},
                   {"reminder_hours": "abc"}, {"timeout_hours": float("nan")}):
        assert refusal(await service.settings_cmd(ALICE, HERE, dm=True, **kwargs))  # type: ignore[arg-type]
        assert await store.user_dm(ALICE.id) is False
    # a DM choice alone is the user's own business
    replies = await service.settings_cmd(BOB, HERE, dm=True)
    assert replies[0].outcome == "ok"
    record = await store.active_game(HERE.channel_id)
    assert await store.user_dm(BOB.id) is True and record is not None and record.seat_of_user(BOB.id).dm


async def test_a_host_who_resigned_is_no_longer_the_host(service: TableService, store: SQLiteStore) -> None:
    from tests.conftest import BOB, CAROL

    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    await service.join(CAROL, HERE)
    await service.start(ALICE, HERE)
    await service.resign(ALICE, HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.host_id == BOB.id
    assert refusal(await service.settings_cmd(ALICE, HERE, reminder_hours=1))
    assert refusal(await service.cancel(ALICE, HERE))
    assert (await service.settings_cmd(BOB, HERE, reminder_hours=1))[0].outcome == "ok"
    # the new host resigns too: host passes on to Carol; a moderator can always manage
    await service.resign(BOB, HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.host_id == CAROL.id
    moderator = Where(channel_id=HERE.channel_id, guild_id=HERE.guild_id, can_manage=True)
    assert (await service.settings_cmd(ALICE, moderator, reminder_hours=2))[0].outcome == "ok"


async def test_a_lobby_host_who_leaves_hands_over_and_it_is_stored(service: TableService, store: SQLiteStore) -> None:
    from tests.conftest import BOB

    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    await service.leave(ALICE, HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.host_id == BOB.id
    assert (await service.start(BOB, HERE))[0].to == "ephemeral"  # too few players, but Bob may try


async def test_the_log_of_a_lobby_talks_about_the_lobby(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    replies = await service.log_(ALICE, HERE)
    assert replies[0].to == "ephemeral" and "not started yet" in replies[0].text and "Alice" in replies[0].text


async def test_the_confirmation_describes_the_move_made(service: TableService) -> None:
    from tests.conftest import BOB

    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    replies = await service.command(ALICE, HERE, "countdown", "take", {"n": 3})
    ack = [r for r in replies if r.to == "ephemeral"][0]
    assert ack.outcome == "ok" and "3" in ack.text


async def test_addbot_adds_what_fits_and_says_how_many(service: TableService, store: SQLiteStore) -> None:
    from tests.conftest import BOB

    await service.new_game(ALICE, HERE, "countdown")  # 2-4 players
    await service.join(BOB, HERE)
    replies = await service.addbot(ALICE, HERE, 9)
    assert replies[0].to == "channel"
    assert "Phileas" in replies[0].text and "Aouda" in replies[0].text
    assert "Only 2 seats were free, so 2 AI players joined instead of 9." in replies[0].text
    record = await store.active_game(HERE.channel_id)
    assert record is not None and len(record.seats) == 4
    assert "full" in refusal(await service.addbot(ALICE, HERE, 1))
    assert refusal(await service.addbot(ALICE, HERE, 0))


async def test_names_are_shown_as_written_and_cannot_format_or_flip_text(service: TableService,
                                                                         store: SQLiteStore) -> None:
    from bot.replies import User

    mallory = User(66, "**Boss**\u202e<@1>_x_", "en")
    await service.new_game(ALICE, HERE, "countdown")
    replies = await service.join(mallory, HERE)
    text = replies[0].text
    assert "\u202e" not in text
    assert "\\*\\*Boss\\*\\*\\<\\@1\\>\\_x\\_" in text
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.seats[1].name == "**Boss**<@1>_x_"  # stored clean, unescaped
    await service.start(ALICE, HERE)
    await service.command(ALICE, HERE, "countdown", "take", {"n": 1})
    status = await service.status(ALICE, HERE)
    assert "**Boss**" not in status[0].text.replace("\\*\\*Boss\\*\\*", "")
    echoed = refusal(await service.new_game(ALICE, Where(channel_id=5, guild_id=1), "`x\u202e`"))
    assert "\u202e" not in echoed and "`x" not in echoed


async def test_a_resigned_player_keeps_their_name(service: TableService, store: SQLiteStore) -> None:
    from tests.conftest import BOB, CAROL

    await service.new_game(ALICE, HERE, "countdown")
    await service.join(BOB, HERE)
    await service.join(CAROL, HERE)
    await service.start(ALICE, HERE)
    replies = await service.resign(BOB, HERE)
    channel = [r for r in replies if r.to == "channel"][0].text
    assert "**Bob** resigned" in channel and "(AI)" not in channel


async def test_the_lobby_shows_options_as_people_read_them(service: TableService) -> None:
    replies = await service.new_game(ALICE, HERE, "eighty-days", options="side=B assistants=true")
    assert "Board side: B · Assistants: yes · Festival of colours: no" in replies[0].text
