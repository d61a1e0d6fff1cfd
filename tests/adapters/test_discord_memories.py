"""A game worth remembering through the Discord adapter: the summary and the timelapse follow
the final message of a game, and `/game replay` (with its autocomplete) sends them again."""

from __future__ import annotations

from tests.support.discord_harness import ALICE, BOB, EVE, Harness, open_table, text


async def play_to_the_end(h: Harness) -> None:
    """Countdown from 5, Alice and Bob taking one each: Alice takes the last."""
    h.bot.service.memories = True  # the harness turns them off for tests of other things
    await open_table(h, ALICE, [BOB], options="start=5")
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        await h.run(h.slash(user, "countdown take", n=1))


async def test_the_final_message_is_followed_by_the_summary_and_the_timelapse(h: Harness) -> None:
    mark = h.mark()
    await play_to_the_end(h)
    posted = h.channel_messages(mark)
    files = [f.filename for m in posted for f in m.files]
    assert files[-2:] == ["summary.png", "timelapse.gif"]
    final = next(i for i, m in enumerate(posted) if text(ALICE, "result.header") in m.content)
    summary = next(i for i, m in enumerate(posted) if any(f.filename == "summary.png" for f in m.files))
    assert final < summary  # the pictures come after the final message
    assert posted[summary].files[0].is_png
    gif = posted[-1].files[0]
    assert gif.data.startswith(b"GIF89a") and gif.size <= 8 * 1024 * 1024


async def test_game_replay_sends_them_privately_and_autocompletes_the_finished_games(h: Harness) -> None:
    await play_to_the_end(h)
    record = max(await h.bot.store.games(), key=lambda g: g.id)  # type: ignore[attr-defined]
    ask = h.autocomplete(EVE, "game replay", "game", "count")
    await h.run(ask)
    [cb] = h.callbacks_for(ask)
    assert [c["value"] for c in cb.choices] == [str(record.id)]
    assert "Countdown" in cb.choices[0]["name"]
    mark = h.mark()
    await h.run(h.slash(EVE, "game replay", game=str(record.id)))
    private = h.ephemeral_for(EVE, mark)
    assert [f.filename for m in private for f in m.files] == ["summary.png", "timelapse.gif"]
    assert h.channel_messages(mark) == []  # nobody else is shown anything


async def test_game_replay_without_a_finished_game_is_refused_in_the_users_language(h: Harness) -> None:
    mark = h.mark()
    await h.run(h.slash(BOB, "game replay"))
    [answer] = h.ephemeral_for(BOB, mark)
    assert text(BOB, "error.replay_none") in answer.content and not answer.files
    await play_to_the_end(h)
    mark = h.mark()
    await h.run(h.slash(BOB, "game replay", game="no such game"))
    [answer] = h.ephemeral_for(BOB, mark)
    assert "no such game" in answer.content and not answer.files
