"""The table as composed parts: every change reaches everyone through one `publish`, replies
say their outcome, and the defects the mixin tower had stay fixed (followers saw no undo, the
expired rematch note missed the followers' copies, `/game replay game:<n>` matched digits in
labels, `/game follow thread:` took a thread its user cannot see)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from bot.replies import Reply, ThreadTarget, Where
from bot.service import TableService
from bot.store import SQLiteStore
from tests.conftest import ALICE, BOB, CAROL, EVE, HERE, Clock
from tests.support.countdown import finished, make_take_undoable, started, take

pytestmark = pytest.mark.usefixtures("fake_game")
ROOT = Path(__file__).resolve().parents[2]


def copies(replies: list[Reply]) -> list[Reply]:
    return [r for r in replies if r.follow is not None]


async def test_followers_see_an_undo_like_any_change(service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    make_take_undoable(monkeypatch)
    await started(service)
    await service.follow(EVE, HERE)
    await take(service, ALICE, 1)
    undone = await service.undo(ALICE, HERE)
    [board] = [r for r in undone if r.to == "channel"]
    [copy] = copies(undone)
    assert copy.user_id == EVE.id and copy.text == board.text
    assert [f.data for f in copy.files] == [f.data for f in board.files]


async def test_an_expired_rematch_invitation_tells_followers_too(service: TableService, clock: Clock) -> None:
    await finished(service, bots=1, carol=True)
    await service.rematch(ALICE, HERE)
    await service.rematch(BOB, HERE)
    await service.follow(EVE, HERE)
    clock.advance(16 / 60)  # Carol never answered
    replies = await service.tick()
    [board] = [r for r in replies if r.to == "channel"]
    [copy] = copies(replies)
    assert "Carol" in board.text.splitlines()[0]
    assert copy.text == board.text


async def test_a_game_number_names_a_game_of_this_channel_or_nothing(service: TableService,
                                                                   store: SQLiteStore) -> None:
    await finished(service)
    elsewhere = Where(channel_id=HERE.channel_id + 1, guild_id=HERE.guild_id)
    await service.new_game(ALICE, elsewhere, "countdown", options="start=5")
    await service.join(BOB, elsewhere)
    await service.start(ALICE, elsewhere)
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        await service.command(user, elsewhere, "countdown", "take", {"n": 1})
    [mine] = await store.finished_games(elsewhere.channel_id, limit=5)
    [other] = await store.finished_games(HERE.channel_id, limit=5)
    # the other channel's game id, and digits that appear in every label (dates, "1"…)
    for typed in (str(other.id), "#" + str(other.id), "1", "2026"):
        if typed.lstrip("#") == str(mine.id):
            continue
        said = await service.replay(ALICE, elsewhere, typed)
        assert said[0].outcome == "refused" and said[0].refusal == "error.replay_unknown", (typed, said[0].text)
    shown = await service.replay(ALICE, elsewhere, str(mine.id))
    assert [r.outcome for r in shown] == ["info", "info"] and shown[0].files


async def test_a_thread_the_user_cannot_see_is_refused(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown")
    hidden = ThreadTarget(id=777, guild_id=HERE.guild_id, name="mods-only", can_post=True, user_can_view=False)
    said = await service.follow(EVE, HERE, hidden)
    assert said[0].outcome == "refused" and said[0].refusal == "follow.thread_hidden"
    record = await store.active_game(HERE.channel_id)
    assert record is not None and await store.follows(record.id) == []


async def test_replies_say_their_outcome(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown", options="start=9")
    assert (await service.join(ALICE, HERE))[0].outcome == "refused"
    assert (await service.join(BOB, HERE))[0].outcome == "info"  # the lobby message
    await service.start(ALICE, HERE)
    moved = await take(service, ALICE, 1)
    assert moved[0].outcome == "ok" and moved[0].to == "ephemeral"
    refused = await take(service, ALICE, 1)
    assert refused[0].outcome == "refused" and refused[0].refusal == "error.not_your_turn"
    typo = await take(service, BOB, 7)
    assert typo[0].outcome == "refused" and typo[0].refusal == "error.bad_choice_list"


async def test_the_rematch_join_takes_the_channel_lock_once(service: TableService) -> None:
    await finished(service, carol=True)
    await service.rematch(ALICE, HERE)
    taken: list[int] = []
    tables = service.parts.tables
    real = tables.lock

    def counting(channel_id: int) -> Any:
        taken.append(channel_id)
        return real(channel_id)

    tables.lock = counting  # type: ignore[method-assign]
    said = await service.join(BOB, HERE)
    assert said and said[0].outcome == "info" and taken == [HERE.channel_id]
    taken.clear()
    said = await service.start(ALICE, HERE)  # drops Carol, then starts: one lock
    assert said and taken == [HERE.channel_id]


def test_no_feature_or_part_inherits_another() -> None:
    """Parts and features are composed: their classes derive from nothing of the project."""
    for folder in ("bot/table", "bot/features"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    bases = [ast.unparse(b) for b in node.bases]
                    assert all(b in {"Exception", "TypedDict"} for b in bases), (path.name, node.name, bases)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super":
                    assert path.name == "shared.py", f"super() in {path.name}"  # only Refusal's __init__
    assert TableService.__bases__ == (object,)


def test_every_change_kind_is_published_through_one_pipeline() -> None:
    """No part builds a turn message by hand: only the publisher runs the after-change steps."""
    callers = [p.relative_to(ROOT).as_posix() for folder in ("bot/table", "bot/features", "bot")
               for p in (ROOT / folder).glob("*.py") if "turn_message(" in p.read_text(encoding="utf-8")]
    assert callers == ["bot/table/messages.py"]  # defined there, called only through the wiring's steps
    wiring = (ROOT / "bot" / "wiring.py").read_text(encoding="utf-8")
    assert "messages.turn_message" in wiring


@pytest.mark.parametrize("user", [CAROL])
async def test_a_stale_component_is_refused_with_its_key(service: TableService, user: Any) -> None:
    said = await service.component(user, HERE, "pp:999:1:act:abc")
    assert said[0].outcome == "refused" and said[0].refusal == "error.stale_game"


async def test_every_image_has_alt_text_in_the_games_language(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown", options="start=5", language="de")
    await service.join(BOB, HERE)
    started = await service.start(ALICE, HERE)
    hand = await service.hand(BOB, HERE)
    for reply in started + hand:
        for file in reply.files:
            assert file.description, file.filename
            assert "**" not in file.description and len(file.description) <= 1024
    [board] = [f for r in started for f in r.files if f.filename == "board.png"]
    assert board.description is not None and board.description.startswith("Das Brett von ")


async def test_a_finished_games_board_comes_without_a_focus_view(store: SQLiteStore, clock: Clock) -> None:
    """The close-up shows scores during play; at the end the board and the result text give the
    final standing, which a close-up of the last move would contradict."""
    from bot.replies import User
    from bot.service import TableService
    from bot.settings import Settings
    from engine import ai

    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    service.memories = False
    where = Where(channel_id=990, guild_id=9, guild_locale="en")
    await service.new_game(ALICE, where, "eighty-days", seed=3)
    await service.addbot(ALICE, where, 1)
    replies = await service.start(ALICE, where)
    seen_focus = False
    for _ in range(2000):
        record = await store.active_game(where.channel_id)
        if record is None:
            break
        loaded = service.load(record)
        seat = loaded.rules.to_act(loaded.state)[0]
        action = ai.policy("eighty-days", "normal")(loaded.rules.view(loaded.state, seat), seat,
                                                   loaded.rules.legal_actions(loaded.state, seat))
        async with service.parts.tables.lock(where.channel_id):
            replies = await service.parts.turns.act(loaded, User(ALICE.id, ALICE.name, "en"), seat, action)
        seen_focus = seen_focus or any(f.filename == "focus.png" for r in replies for f in r.files)
    [final] = [r for r in replies if r.to == "channel"]
    assert seen_focus and [f.filename for f in final.files] == ["board.png"]


async def _play_eighty_days(store: SQLiteStore, clock: Clock, draw: Any, moves: int) -> list[list[Reply]]:
    """`moves` AI moves of a 2-seat eighty-days table whose images come from `draw` (the
    `Images.draw` signature); the replies of each move."""
    from bot.replies import User
    from bot.settings import Settings
    from engine import ai

    service = TableService(store, Settings(), clock=clock, render_in_thread=False)
    service.memories = False
    service.parts.images.draw = draw  # type: ignore[method-assign]
    where = Where(channel_id=991, guild_id=9, guild_locale="en")
    await service.new_game(ALICE, where, "eighty-days", seed=5)
    await service.addbot(ALICE, where, 1)
    await service.start(ALICE, where)
    out = []
    for _ in range(moves):
        record = await store.active_game(where.channel_id)
        assert record is not None
        loaded = service.load(record)
        seat = loaded.rules.to_act(loaded.state)[0]
        action = ai.policy("eighty-days", "normal")(loaded.rules.view(loaded.state, seat), seat,
                                                   loaded.rules.legal_actions(loaded.state, seat))
        async with service.parts.tables.lock(where.channel_id):
            out.append(await service.parts.turns.act(loaded, User(ALICE.id, ALICE.name, "en"), seat, action))
    return out


async def test_a_close_up_is_asked_for_with_its_board_not_after_it(store: SQLiteStore, clock: Clock) -> None:
    """Both images queue together: asked for once the board was back, a close-up waited behind
    every board the render workers drew meanwhile (under a burst, all of them)."""
    import asyncio

    log: list[str] = []

    async def draw(spec: Any, job: Any, t: Any, *, urgent: bool) -> bytes:
        log.append(f"{job.image} asked")
        await asyncio.sleep(0.001)
        log.append(f"{job.image} back")
        return b"\x89PNG"

    replies = await _play_eighty_days(store, clock, draw, 12)
    assert any(f.filename == "focus.png" for rs in replies for r in rs for f in r.files)
    for i, entry in enumerate(log):
        if entry == "focus asked":
            assert log[i - 1] == "board asked", log[max(0, i - 3):i + 1]


async def test_a_close_up_never_goes_without_its_board(store: SQLiteStore, clock: Clock) -> None:
    from bot.images.pool import RenderUnavailable

    async def draw(spec: Any, job: Any, t: Any, *, urgent: bool) -> bytes:
        if job.image == "board":
            raise RenderUnavailable("no board this time")
        return b"\x89PNG"

    replies = await _play_eighty_days(store, clock, draw, 12)
    assert all(not r.files for rs in replies for r in rs if r.to == "channel")
