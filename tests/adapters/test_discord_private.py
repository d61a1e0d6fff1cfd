"""Private answers through the Discord adapter: the hand (ephemeral and by DM) and autocomplete."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator

import discord
import pytest

from bot import games
from bot.gameui import Command, Param
from tests.support import fakegame
from tests.support.discord_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    EPHEMERAL,
    EVE,
    Harness,
    Request,
    Sent,
    active,
    open_table,
    refusal,
    text,
)


def lucky_in(msg: Sent, lucky: int) -> bool:
    return re.search(rf"(?<!\d){lucky}(?!\d)", msg.content) is not None


# -- the hand -------------------------------------------------------------------------------------


async def test_game_hand_is_ephemeral_with_a_png(h: Harness) -> None:
    await open_table(h, ALICE, [BOB])
    secrets = (await active(h)).state["secrets"]
    mark = h.mark()
    cmd = h.slash(BOB, "game hand")
    await h.run(cmd)
    [cb] = h.callbacks_for(cmd)
    assert cb.type == 5 and cb.flags == EPHEMERAL
    assert h.channel_messages(since=mark) == [] and h.dms_for(BOB, since=mark) == []
    [hand] = h.ephemeral_for(BOB, since=mark)
    assert hand.flags == EPHEMERAL and hand.kind == "followup"
    assert [f.filename for f in hand.files] == ["hand.png"] and hand.files[0].is_png
    assert [a["filename"] for a in hand.attachments] == ["hand.png"]
    assert lucky_in(hand, secrets["p2"]) and not lucky_in(hand, secrets["p1"])
    # Bob is not to act: no "Your move" button on his hand
    assert hand.buttons == []
    # Alice (to act) gets her own number and a "Your move" button, from the "My hand" button
    turn = h.channel_messages()[-1]
    mark = h.mark()
    click = h.click(ALICE, turn, turn.button("My hand").custom_id)  # type: ignore[arg-type]
    await h.run(click)
    assert [c.type for c in h.callbacks_for(click)] == [6]
    [mine] = h.ephemeral_for(ALICE, since=mark)
    assert lucky_in(mine, secrets["p1"]) and mine.files[0].is_png
    assert [b.label for b in mine.buttons] == ["Your move"]
    # someone who does not play has no hand
    mark = h.mark()
    await h.run(h.slash(EVE, "game hand"))
    assert [a.content for a in h.ephemeral_for(EVE, since=mark)] == [refusal(EVE, "error.not_seated")]


async def test_dm_setting_sends_the_hand_by_dm_on_that_players_turn(h: Harness) -> None:
    turn = await open_table(h, ALICE, [BOB])
    secrets = (await active(h)).state["secrets"]
    mark = h.mark()
    await h.run(h.slash(BOB, "game settings", dm=True))
    [ok] = h.ephemeral_for(BOB, since=mark)
    assert ok.content == "✅ " + text(BOB, "settings.dm_on")
    assert h.channel_messages(since=mark) == []
    record = await active(h)
    assert next(s for s in record.seats if s.user_id == BOB.id).dm is True

    # Alice moves (by slash command: the settings change made the turn message's buttons stale,
    # see test_a_settings_change_does_not_make_the_turn_buttons_stale): it is Bob's turn, so Bob
    # gets his hand by DM (and Alice gets none)
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown take", n=1))
    dms = h.dms_for(BOB, since=mark)
    assert len(dms) == 1
    dm = dms[0]
    assert dm.files and dm.files[0].filename == "hand.png" and dm.files[0].is_png
    assert lucky_in(dm, secrets["p2"])
    assert [b.label for b in dm.buttons] == [text(BOB, "button.play")]  # in Bob's language
    assert dm.content.startswith(text(BOB, "hand.header", title="Countdown", channel=f"<#{CHANNEL_ID}>"))
    assert h.dms_for(ALICE, since=mark) == []
    opened = [r for r in h.requests[mark:] if r.path == "/users/@me/channels"]
    assert [int(r.payload["recipient_id"]) for r in opened] == [BOB.id]
    # the public message went to the channel and does not carry the number
    public = h.channel_messages(since=mark)
    assert len(public) == 1 and not lucky_in(public[0], secrets["p2"])

    # Bob moves: Alice's turn, no DM for anyone (Alice did not opt in)
    turn = public[0]
    mark = h.mark()
    await h.run(h.click(BOB, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]
    assert h.dms_for(BOB, since=mark) == [] and h.dms_for(ALICE, since=mark) == []

    # and opting out stops it
    await h.run(h.slash(BOB, "countdown take", n=1))
    await h.run(h.slash(BOB, "game settings", dm=False))
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown take", n=1))
    await h.run(h.slash(BOB, "countdown take", n=1))
    assert h.dms_for(BOB, since=mark) == [] and len(h.channel_messages(since=mark)) == 2
    assert (await active(h)).state["counter"] == 11


async def test_the_your_move_button_of_a_dm_hand_works(h: Harness) -> None:
    await h.run(h.slash(BOB, "game settings", dm=True))
    await open_table(h, ALICE, [BOB])
    await h.run(h.slash(ALICE, "countdown take", n=1))
    [dm] = h.dms_for(BOB)
    mark = h.mark()
    click = h.click(BOB, dm, dm.button(text(BOB, "button.play")).custom_id)  # type: ignore[arg-type]
    assert "guild_id" not in click and click["channel"]["type"] == 1  # a real DM interaction
    await h.run(click)
    [menu] = h.ephemeral_for(BOB, since=mark)
    assert [b.label for b in menu.buttons] == ["Take 1", "Take 2", "Take 3"]
    mark = h.mark()
    await h.run(h.click(BOB, menu, menu.button("Take 2").custom_id))  # type: ignore[arg-type]
    assert (await active(h)).state["counter"] == 12
    assert [a.content for a in h.ephemeral_for(BOB, since=mark)] == ["✅ Take 2"]  # answered in the DM
    [public] = h.channel_messages(since=mark)  # the turn message goes to the game's channel
    assert public.channel_id == CHANNEL_ID and "Bob took 2" in public.content


async def test_a_settings_change_does_not_make_the_turn_buttons_stale(h: Harness) -> None:
    turn = await open_table(h, ALICE, [BOB])
    await h.run(h.slash(BOB, "game settings", dm=True))
    mark = h.mark()
    await h.run(h.click(ALICE, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]
    assert [a.content for a in h.ephemeral_for(ALICE, since=mark)] == ["✅ Take 1"]
    assert (await active(h)).state["counter"] == 14


async def test_dm_preference_carries_to_the_next_table(h: Harness) -> None:
    await h.run(h.slash(BOB, "game settings", dm=True))
    turn = await open_table(h, BOB, [ALICE])
    record = await active(h)
    assert next(s for s in record.seats if s.user_id == BOB.id).dm is True
    # Bob is first to act: the start itself sends his hand by DM
    assert len(h.dms_for(BOB)) == 1
    assert turn.files[0].is_png


# -- autocomplete ---------------------------------------------------------------------------------

PICK_UI = dataclasses.replace(
    fakegame.UI,
    commands=fakegame.UI.commands + (Command("grab", (Param("move", "pick", types=("take",)),)),),
)


@pytest.fixture
async def hp(fake_game: None, tmp_path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:  # type: ignore[no-untyped-def]  # noqa: E501
    """The countdown UI with one more subcommand, `/countdown grab move:<autocomplete>`."""
    monkeypatch.setitem(games.RUNTIME, fakegame.GAME_ID, dataclasses.replace(fakegame.spec(), ui=PICK_UI))
    harness = await Harness.create(tmp_path)
    yield harness
    await harness.close()
    assert harness.error_messages() == [], "the bot logged errors"
    assert harness.protocol_problems() == []


async def test_autocomplete_offers_the_legal_moves(hp: Harness) -> None:
    h = hp
    await open_table(h, ALICE, [BOB], options="start=6")
    await h.run(h.slash(ALICE, "countdown take", n=3))  # 3 left; Bob to act

    ask = h.autocomplete(BOB, "countdown grab", "move", "")
    requests = await h.run(ask)
    [cb] = h.callbacks_for(ask)
    assert cb.type == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
    assert cb.choices == [{"name": "Take 1", "value": "take n=1"}, {"name": "Take 2", "value": "take n=2"},
                          {"name": "Take 3", "value": "take n=3"}]
    assert [r.template for r in requests] == ["/interactions/{webhook_id}/{webhook_token}/callback"]  # nothing else
    # typing filters
    ask = h.autocomplete(BOB, "countdown grab", "move", "2")
    await h.run(ask)
    assert h.callbacks_for(ask)[0].choices == [{"name": "Take 2", "value": "take n=2"}]
    # not to act / not seated: no choices
    for user in (ALICE, EVE):
        ask = h.autocomplete(user, "countdown grab", "move", "")
        await h.run(ask)
        [cb] = h.callbacks_for(ask)
        assert cb.type == 8 and cb.choices == []
    # the chosen value, submitted, makes the move
    mark = h.mark()
    await h.run(h.slash(BOB, "countdown grab", move="take n=2"))
    assert [a.content for a in h.ephemeral_for(BOB, since=mark)] == ["✅ Take 2"]
    record = await active(h)
    assert record.state["counter"] == 1
    # and a value that is not a legal move is refused, naming it and the moves there are
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown grab", move="take n=3"))
    assert [a.content for a in h.ephemeral_for(ALICE, since=mark)] == [
        refusal(ALICE, "error.bad_pick_list", value="take n=3", choices="\n1) Take 1")]
    assert (await active(h)).version == record.version
    # free text typed instead of choosing is matched against the labels the autocomplete shows
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown grab", move="take 1"))
    assert [a.content for a in h.ephemeral_for(ALICE, since=mark)] == ["✅ Take 1"]


async def test_autocomplete_without_a_running_game_returns_no_choices(hp: Harness) -> None:
    h = hp
    ask = h.autocomplete(ALICE, "countdown grab", "move", "t")
    await h.run(ask)
    [cb] = h.callbacks_for(ask)
    assert cb.type == 8 and cb.choices == []
    assert h.channel_messages() == []


async def test_a_player_who_blocks_dms_does_not_stop_the_game(h: Harness) -> None:
    await h.run(h.slash(BOB, "game settings", dm=True))
    await open_table(h, ALICE, [BOB])

    def closed_dms(req: Request) -> Exception | None:
        if req.template == "/channels/{channel_id}/messages" and req.path != f"/channels/{CHANNEL_ID}/messages":
            return discord.Forbidden(_Resp(), {"code": 50007, "message": "Cannot send messages to this user"})
        return None

    h.failures.append(closed_dms)
    mark = h.mark()
    await h.run(h.slash(ALICE, "countdown take", n=2))
    assert any(r.path == "/users/@me/channels" for r in h.requests[mark:])  # it tried
    assert h.dms_for(BOB, since=mark) == []
    [turn] = h.channel_messages(since=mark)
    assert f"<@{BOB.id}>" in turn.content
    assert [a.content for a in h.ephemeral_for(ALICE, since=mark)] == ["✅ Take 2"]
    assert (await active(h)).state["counter"] == 13


class _Resp:
    status = 403
    reason = "Forbidden"
