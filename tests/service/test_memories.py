"""A game worth remembering: the engine's summary contract per game, the summary image and
the timelapse GIF, and what the table service sends when a game ends and on `/game replay`."""

from __future__ import annotations

import io
import logging
from functools import cache
from itertools import pairwise

import pytest
from PIL import Image

from bot import games
from bot.features import memories
from bot.features.memories import MemoryJob, render_memory, replay_timeline
from bot.i18n import LANGUAGES
from bot.replies import Reply, User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from render.summary import Standing, Summary, render_summary
from render.timelapse import MAX_BYTES, timelapse_gif
from tests.conftest import ALICE, BOB, HERE, Clock

GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
NAMES = ["Alice", "Bob the Builder", "Chloé", "Dmitri 🚂", "Eve", "Fritz"]


@cache
def playout(game_id: str, seed: int = 11) -> MemoryJob:
    """A whole seeded game of AI seats at the most players the game allows."""
    spec = games.get(game_id)
    rules = spec.rules
    seats = tuple(f"p{i + 1}" for i in range(rules.max_players))
    state = rules.new_game(list(seats), seed, {})
    actions = []
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        action = spec.ai(rules.view(state, seat), seat, rules.legal_actions(state, seat))
        rules.apply(state, seat, action)
        actions.append((seat, action))
    return MemoryJob(game_id, seats, dict(zip(seats, NAMES, strict=False)), seed, {}, tuple(actions), "en")


# -- the engine contract --------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_progress_ends_where_the_standing_does(game_id: str) -> None:
    job = playout(game_id)
    timeline = replay_timeline(job)
    rules = games.get(game_id).rules
    result = rules.result(timeline.final)
    assert result is not None
    final = {seat: values[-1] for seat, values in timeline.progress.items()}
    assert set(final) == set(job.seats) and all(isinstance(v, float) for v in final.values())
    rows = {row["seat"]: row for row in result["ranking"]}
    if game_id == "around-the-world":  # days used, the race's own count
        assert final == {seat: float(rows[seat]["days"]) for seat in job.seats}
        assert all(a <= b for values in timeline.progress.values() for a, b in pairwise(values))
    elif game_id == "detour":  # days travelled: a finisher has travelled the whole track
        assert all(final[seat] == rows[seat]["score"] for seat in job.seats)
        assert any(rows[seat]["days_left"] == 0 and final[seat] > 0 for seat in job.seats)
    else:  # points: the final total
        assert final == {seat: float(rows[seat]["score"]) for seat in job.seats}


@pytest.mark.parametrize("game_id", GAMES)
def test_rounds_and_frames(game_id: str) -> None:
    job = playout(game_id)
    timeline = replay_timeline(job)
    rules = games.get(game_id).rules
    assert timeline.rounds >= 5, "a whole game has rounds"
    assert len(timeline.views) == len(timeline.events) == timeline.rounds + 1
    assert all(len(values) == timeline.rounds + 1 for values in timeline.progress.values())
    assert all("private" not in view for view in timeline.views)
    assert all("private" not in event for events in timeline.events for event in events)
    assert timeline.views[-1]["over"] and not timeline.views[0]["over"]
    if game_id in ("detour", "around-the-world"):  # one frame per round of the game itself
        assert timeline.rounds == rules.round_of(timeline.final)


@pytest.mark.parametrize("game_id", GAMES)
def test_score_parts_and_highlights_are_worded_in_every_language(game_id: str) -> None:
    job = playout(game_id)
    timeline = replay_timeline(job)
    rules = games.get(game_id).rules
    ui = games.get(game_id).ui
    parts = rules.score_parts(timeline.final)
    assert set(parts) == set(job.seats)
    found = rules.highlights(timeline.log)
    assert len(found) >= 2
    for lang in LANGUAGES:
        t = ui.translator(lang)
        for entry in parts.values():
            assert all(t.has(f"breakdown.{part}") for part in entry)
        for item in found:
            assert t.has(f"highlight.{item['type']}") or t.has(f"highlight.{item['type']}.other")
        texts = memories.highlight_texts(job, timeline, t)
        assert texts and all("{" not in text for text in texts)
        assert any(name in text for text in texts for name in NAMES)


def test_eighty_days_counts_rounds_of_turns_inside_its_periods() -> None:
    timeline = replay_timeline(playout("eighty-days"))
    assert timeline.rounds > 5 * 2  # five periods, each of several rounds of turns


# -- images ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_timelapse_of_the_longest_game_fits_discord(game_id: str) -> None:
    job = playout(game_id)
    rounds = replay_timeline(job).rounds
    gif = render_memory("timelapse", job)
    assert len(gif) <= MAX_BYTES
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and 700 <= image.width <= 900
    assert image.n_frames == rounds + 1
    image.seek(image.n_frames - 1)
    assert image.info["duration"] > 2000  # the end is held


def test_timelapse_shrinks_until_it_fits() -> None:
    def noisy(i: int) -> bytes:
        image = Image.effect_noise((1200, 800), 60 + i).convert("RGB")
        out = io.BytesIO()
        image.save(out, "PNG")
        return out.getvalue()

    roomy = timelapse_gif(3, noisy, ["a", "b", "c"])
    tight = timelapse_gif(3, noisy, ["a", "b", "c"], max_bytes=len(roomy) // 2)
    assert len(tight) <= len(roomy) // 2
    assert Image.open(io.BytesIO(tight)).width < Image.open(io.BytesIO(roomy)).width == 900


def test_timelapse_needs_a_caption_per_frame() -> None:
    with pytest.raises(ValueError):
        timelapse_gif(2, lambda i: b"", ["only one"])


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_summary_image(game_id: str, lang: str) -> None:
    job = playout(game_id)
    job = MemoryJob(job.game_id, job.seats, job.names, job.seed, job.options, job.actions, lang)
    png = render_memory("summary", job)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 900 and 900 < image.height < 2000
    summary = memories.summary_of(job, replay_timeline(job), games.get(game_id).ui.translator(lang))
    assert [s.rank for s in summary.standings] == sorted(s.rank for s in summary.standings)
    assert all(s.parts for s in summary.standings)
    assert summary.y_label != f"memories.unit.{games.get(game_id).rules.progress_unit}"


def test_summary_grows_with_its_highlights_and_survives_long_names() -> None:
    base = Summary("T", "s", [Standing(0, "🚂" * 32, 1, "12", "Parts 1 · More 2"), Standing(1, "B", 2, "—")],
                   series={0: [0, 1, 5], 1: [None, 2, 2]})
    plain = Image.open(io.BytesIO(render_summary(base)))
    more = Summary(base.title, base.subtitle, base.standings, base.series,
                   highlights=["word " * 60, "short"])
    taller = Image.open(io.BytesIO(render_summary(more)))
    assert taller.height > plain.height and taller.width == plain.width == 900


# -- the table service ------------------------------------------------------------------------
async def finish_countdown(service: TableService, where: Where = HERE) -> None:
    """Alice and Bob play countdown from 5 to the end."""
    await service.new_game(ALICE, where, "countdown", options="start=5")
    await service.join(BOB, where)
    await service.start(ALICE, where)
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        record = await service.store.active_game(where.channel_id)
        if record is None:
            return
        await service.command(user, where, "countdown", "take", {"n": 1})


async def collected(service: TableService) -> list[Reply]:
    return [reply async for reply in service.post_game_memories()]


@pytest.mark.usefixtures("fake_game")
async def test_the_end_of_a_game_brings_its_summary_and_timelapse(service: TableService) -> None:
    assert not service.memories_waiting
    await finish_countdown(service)
    assert service.memories_waiting
    replies = await collected(service)
    assert [r.to for r in replies] == ["channel", "channel"]
    assert all(r.channel_id == HERE.channel_id for r in replies)
    assert [f.filename for r in replies for f in r.files] == ["summary.png", "timelapse.gif"]
    assert Image.open(io.BytesIO(replies[0].files[0].data)).format == "PNG"
    gif = Image.open(io.BytesIO(replies[1].files[0].data))
    assert gif.format == "GIF" and gif.n_frames == 2  # countdown has no rounds: the start and the end
    assert "Countdown" in replies[0].text
    assert not service.memories_waiting and await collected(service) == []


@pytest.mark.usefixtures("fake_game")
async def test_an_ai_seat_ending_the_game_brings_them_too(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "countdown", options="start=5")
    await service.addbot(ALICE, HERE, 1)
    await service.start(ALICE, HERE)
    await service.command(ALICE, HERE, "countdown", "take", {"n": 1})  # the AI leaves 0 mod 4, then wins
    while (record := await service.store.active_game(HERE.channel_id)) is not None:
        await service.command(ALICE, HERE, "countdown", "take", {"n": 1})
    assert record is None and service.memories_waiting
    assert len(await collected(service)) == 2


@pytest.mark.usefixtures("fake_game")
async def test_a_failing_render_breaks_nothing_and_replay_makes_them_again(
        service: TableService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(kind: str, job: MemoryJob) -> bytes:
        raise RuntimeError("out of ink")

    monkeypatch.setattr(memories, "render_memory", broken)
    await finish_countdown(service)
    with caplog.at_level(logging.ERROR):
        assert await collected(service) == []
    assert "summary of game" in caplog.text
    monkeypatch.undo()
    replies = await service.replay(ALICE, HERE)
    assert [f.filename for r in replies for f in r.files] == ["summary.png", "timelapse.gif"]


@pytest.mark.usefixtures("fake_game")
async def test_replay_choices_and_refusals(service: TableService, store: SQLiteStore) -> None:
    t = service.user_t(ALICE)
    none = await service.replay(ALICE, HERE)
    assert none[0].to == "ephemeral" and t("error.replay_none") in none[0].text
    await finish_countdown(service)
    await finish_countdown(service)
    await collected(service)
    finished = await store.finished_games(HERE.channel_id)
    assert len(finished) == 2 and finished[0].id > finished[1].id  # newest first
    choices = await service.replay_choices(ALICE, HERE, "")
    assert [value for _, value in choices] == [str(r.id) for r in finished]
    assert all("Countdown" in label and "Alice" in label for label, _ in choices)  # Alice won both
    older = await service.replay(ALICE, HERE, str(finished[1].id))
    assert [r.to for r in older] == ["ephemeral", "ephemeral"] and all(r.user_id == ALICE.id for r in older)
    unknown = await service.replay(BOB, HERE, "nonsense")
    assert unknown[0].to == "ephemeral" and "nonsense" in unknown[0].text
    assert f"#{finished[0].id}" in unknown[0].text  # it lists what there is
    other_channel = await service.replay(ALICE, Where(channel_id=555, guild_id=10), str(finished[0].id))
    assert service.user_t(ALICE)("error.replay_none") in other_channel[0].text


@pytest.mark.usefixtures("fake_game")
async def test_replay_is_rate_limited_per_user(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, clock=clock, render_in_thread=False)
    await finish_countdown(service)
    for _ in range(memories.REPLAY_LIMIT):
        assert len(await service.replay(ALICE, HERE)) == 2
    slow = await service.replay(ALICE, HERE)
    assert len(slow) == 1 and service.user_t(ALICE)("error.replay_slow") in slow[0].text
    assert len(await service.replay(User(77, "Zoe", "fr"), HERE)) == 2  # others are not held up


async def test_finished_games_are_per_channel_and_limited(store: SQLiteStore) -> None:
    assert await store.finished_games(1) == []
    assert await store.finished_games(HERE.channel_id, limit=0) == []


def test_render_memory_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError):
        render_memory("poster", playout("detour"))


# -- a restart between the final message and the pictures -------------------------------------
def restarted(store: SQLiteStore, clock: Clock) -> TableService:
    """A new service on the same store: the bot after a restart."""
    return TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock, render_in_thread=False)


@pytest.mark.usefixtures("fake_game")
async def test_a_restart_before_the_pictures_posts_them_once(store: SQLiteStore, service: TableService,
                                                             clock: Clock) -> None:
    await finish_countdown(service)
    assert service.memories_waiting  # the final message is out; the bot stops before the pictures
    again = restarted(store, clock)
    assert await collected(again) == []  # nothing known before its start tick
    await again.tick()
    replies = await collected(again)
    assert [f.filename for r in replies for f in r.files] == ["summary.png", "timelapse.gif"]
    assert all(r.to == "channel" and r.channel_id == HERE.channel_id for r in replies)
    await again.tick()
    assert not again.memories_waiting and await collected(again) == []
    third = restarted(store, clock)  # marked posted in the store: another restart posts nothing
    await third.tick()
    assert await collected(third) == []
    assert await collected(service) == []  # nor does the old one, were it still around


@pytest.mark.usefixtures("fake_game")
async def test_two_processes_recovering_the_same_game_post_it_once(store: SQLiteStore, service: TableService,
                                                                   clock: Clock) -> None:
    await finish_countdown(service)
    one, two = restarted(store, clock), restarted(store, clock)
    await one.tick()
    await two.tick()
    assert one.memories_waiting and two.memories_waiting
    posting = one.post_game_memories()
    first = await anext(posting)  # one claimed the game and drew its summary
    assert await collected(two) == []  # two sees a live claim
    rest = [reply async for reply in posting]
    assert [f.filename for r in [first, *rest] for f in r.files] == ["summary.png", "timelapse.gif"]


@pytest.mark.usefixtures("fake_game")
async def test_games_that_ended_long_ago_are_left_to_replay(store: SQLiteStore, service: TableService,
                                                            clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    await finish_countdown(service)
    monkeypatch.setattr(memories, "RECOVER_WITHIN", -60.0)  # the game ended "before" the window
    again = restarted(store, clock)
    await again.tick()
    assert not again.memories_waiting and await collected(again) == []
