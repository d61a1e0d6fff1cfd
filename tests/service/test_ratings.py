"""Ratings per server: each finished game updates openskill ratings exactly once (also when
a crash came between the last move and the rating), AI seats are rated, nothing crosses
servers, and `/game stats` and `/game leaderboard` read them back in the asker's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.features.ratings import ai_player, rate, scope_of, user_player
from bot.i18n import Translator
from bot.replies import Reply, User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import Rating, ResultEntry, SQLiteStore
from tests.conftest import ALICE, BACKENDS, BOB, CAROL, EVE, HERE, Clock

pytestmark = pytest.mark.usefixtures("fake_game")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Every test here runs on SQLite and on a real PostgreSQL server."""
    return str(request.param)

SCOPE = scope_of(HERE.guild_id, HERE.channel_id)
MODEL = PlackettLuce()


@pytest.fixture
def service(store: SQLiteStore, clock: Clock) -> TableService:
    return TableService(store, Settings(reminder_hours=12, timeout_hours=48, leaderboard_min_games=1), clock=clock,
                        render_in_thread=False)


async def play(service: TableService, users: list[User], takes: list[int], *, where: Where = HERE,
               ai: int = 0, start: int = 5) -> list[Reply]:
    """A countdown table of `users` (+ `ai` AI seats) in `where`; the humans take `takes` in turn."""
    await service.new_game(users[0], where, "countdown", options=f"start={start}")
    for user in users[1:]:
        await service.join(user, where)
    if ai:
        await service.addbot(users[0], where, ai)
    replies = await service.start(users[0], where)
    for n in takes:
        record = await service.store.active_game(where.channel_id)
        assert record is not None
        [seat] = service.load(record).rules.to_act(service.load(record).state)
        actor = next(u for u in users if record.seat_record(seat).user_id == u.id)  # type: ignore[union-attr]
        replies = await service.command(actor, where, "countdown", "take", {"n": n})
    return replies


async def rating_of(store: SQLiteStore, player: str, scope: str = SCOPE) -> Rating | None:
    stats = await store.player_stats(scope, player)
    row = next((r for r in stats.ratings if r.game_id == "countdown"), None)
    return Rating(row.mu, row.sigma) if row else None


def close(a: Rating | None, mu: float, sigma: float) -> bool:
    return a is not None and abs(a.mu - mu) < 1e-9 and abs(a.sigma - sigma) < 1e-9


async def test_two_player_result_changes_ratings_as_openskill_says(service: TableService, store: SQLiteStore) -> None:
    await play(service, [ALICE, BOB], [2, 3])  # Alice leaves 3, Bob takes them and wins
    [[alice], [bob]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2, 1])
    assert close(await rating_of(store, user_player(ALICE.id)), alice.mu, alice.sigma)
    assert close(await rating_of(store, user_player(BOB.id)), bob.mu, bob.sigma)
    # a second game starts from the first one's ratings
    await play(service, [ALICE, BOB], [1, 1, 3])  # Alice takes the last 3
    [[alice2], [bob2]] = MODEL.rate([[alice], [bob]], ranks=[1, 2])
    assert close(await rating_of(store, user_player(ALICE.id)), alice2.mu, alice2.sigma)
    assert close(await rating_of(store, user_player(BOB.id)), bob2.mu, bob2.sigma)


async def test_four_players_with_a_tie_and_an_ai_seat(service: TableService, store: SQLiteStore) -> None:
    # Alice, Bob, Carol take 1 each (5 -> 2); the AI takes the last 2 and wins; the three humans tie second
    await play(service, [ALICE, BOB, CAROL], [1, 1, 1], ai=1)
    expected = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[2, 2, 2, 1])
    for player, [want] in zip([user_player(u.id) for u in (ALICE, BOB, CAROL)] + [ai_player("countdown")],
                              expected, strict=True):
        assert close(await rating_of(store, player), want.mu, want.sigma), player
    assert expected[0][0].mu == expected[1][0].mu  # the tie: equal updates
    stats = await store.player_stats(SCOPE, ai_player("countdown"))
    assert (stats.games, stats.wins) == (1, 1)


def test_rate_with_ties_is_openskills_update_and_ai_seats_share_one_rating() -> None:
    entries = [ResultEntry("p1", "user:1", "A", 1), ResultEntry("p2", "user:2", "B", 2),
               ResultEntry("p3", "user:3", "C", 2), ResultEntry("p4", "user:4", "D", 4)]
    before = {"user:1": Rating(30.0, 5.0), "user:2": None, "user:3": Rating(20.0, 7.0), "user:4": None}
    got = rate(entries, before)
    want = MODEL.rate([[MODEL.rating(mu=30.0, sigma=5.0)], [MODEL.rating()], [MODEL.rating(mu=20.0, sigma=7.0)],
                       [MODEL.rating()]], ranks=[1, 2, 2, 4])
    for entry, [w] in zip(entries, want, strict=True):
        assert close(got[entry.player], w.mu, w.sigma)
    # two AI seats of one game: one player, the mean of its seats' updates
    two_ai = [ResultEntry("p1", "ai:g", "AI", 1), ResultEntry("p2", "user:1", "A", 2),
              ResultEntry("p3", "ai:g", "AI", 3)]
    got = rate(two_ai, {})
    [[a1], [_], [a3]] = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1, 2, 3])
    assert close(got["ai:g"], (a1.mu + a3.mu) / 2, (a1.sigma + a3.sigma) / 2)


async def test_a_game_is_rated_once_even_after_a_crash_before_the_rating(service: TableService,
                                                                         store: SQLiteStore) -> None:
    await play(service, [ALICE, BOB], [2])  # 3 left, Bob to move
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    loaded.rules.apply(loaded.state, "p2", {"type": "take", "n": 3})
    # the last move is committed, then the bot dies before it builds the turn message (and rates)
    await store.commit_action(record, expected_version=record.version, seat="p2", action={"type": "take", "n": 3},
                              events=[], state=loaded.rules.dump(loaded.state), status="finished", actor="human",
                              remind_at=None, timeout_at=None)
    assert await rating_of(store, user_player(BOB.id)) is None
    restarted = TableService(store, Settings(), clock=Clock(), render_in_thread=False)
    await restarted.tick()
    [[_], [bob]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2, 1])
    assert close(await rating_of(store, user_player(BOB.id)), bob.mu, bob.sigma)
    # again: the tick, the turn message's hook, the store itself: nothing changes
    await restarted.tick()
    await restarted.parts.ratings.rate_safely(restarted.load(await store.get_game(record.id)))  # type: ignore[arg-type]
    assert close(await rating_of(store, user_player(BOB.id)), bob.mu, bob.sigma)
    assert (await store.player_stats(SCOPE, user_player(BOB.id))).games == 1


async def test_a_resigned_player_is_rated_last(service: TableService, store: SQLiteStore) -> None:
    await service.new_game(ALICE, HERE, "countdown", options="start=5")
    for user in (BOB, CAROL):
        await service.join(user, HERE)
    await service.start(ALICE, HERE)
    await service.resign(CAROL, HERE)  # her seat (p3) is now played by the AI
    await service.command(ALICE, HERE, "countdown", "take", {"n": 1})  # 4 left
    await service.command(BOB, HERE, "countdown", "take", {"n": 1})  # 3 left: Carol's seat takes them and wins
    assert (await store.last_game(HERE.channel_id)).status == "finished"  # type: ignore[union-attr]
    carol = await store.player_stats(SCOPE, user_player(CAROL.id))
    assert carol.games == 1 and carol.best is not None and carol.best.rank == 3
    assert await rating_of(store, ai_player("countdown")) is None  # the AI only finished her seat


async def test_nothing_crosses_servers(service: TableService, store: SQLiteStore) -> None:
    elsewhere = Where(channel_id=200, guild_id=11, guild_locale="en-US")
    await play(service, [ALICE, BOB], [1, 1, 3])
    await play(service, [ALICE, BOB], [2, 3], where=elsewhere)
    here = await store.player_stats(SCOPE, user_player(ALICE.id))
    there = await store.player_stats(scope_of(11, 200), user_player(ALICE.id))
    assert (here.games, here.wins) == (1, 1) and (there.games, there.wins) == (1, 0)
    [[fresh_loser], _] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2, 1])
    assert close(await rating_of(store, user_player(ALICE.id), scope_of(11, 200)), fresh_loser.mu, fresh_loser.sigma)
    [text] = await service.stats(ALICE, Where(channel_id=300, guild_id=12))
    assert text.text == Translator("en")("stats.none", name="Alice")


@pytest.mark.parametrize("user", [ALICE, BOB, CAROL], ids=["en", "de", "fr"])
async def test_stats_and_leaderboard_texts(service: TableService, user: User) -> None:
    await play(service, [ALICE, BOB, CAROL], [1, 1, 1], ai=1)
    t = Translator(user.locale)
    [mine] = await service.stats(user, HERE)
    assert mine.to == "ephemeral" and mine.user_id == user.id
    [card] = mine.embeds
    assert card.title == t("stats.title", name=user.name)
    assert t("stats.record", games=1, wins=0) in card.description
    assert t("stats.favourite", title="Countdown", games=1) in card.description
    assert t("stats.best", rank=2, players=4, title="Countdown") in card.description
    [board] = await service.leaderboard(user, HERE, "countdown")
    assert board.to == "ephemeral" and board.text == t("leaderboard.footer", min=1)
    [top] = board.embeds
    lines = top.description.split("\n")
    assert len(lines) == 4 and lines[0].startswith("🥇 **" + t("stats.ai") + " (" + t("level.normal") + ")**")
    # someone else's stats, asked by name
    [other] = await service.stats(user, HERE, EVE)
    assert other.text == t("stats.none", name="Eve")


async def test_leaderboard_needs_the_minimum_of_games_and_a_known_game(store: SQLiteStore, clock: Clock) -> None:
    service = TableService(store, Settings(leaderboard_min_games=2), clock=clock, render_in_thread=False)
    await play(service, [ALICE, BOB], [1, 1, 3])
    [empty] = await service.leaderboard(ALICE, HERE, "countdown")
    assert empty.text == Translator("en")("leaderboard.empty", title="Countdown", min=2) and not empty.embeds
    await play(service, [ALICE, BOB], [1, 1, 3])
    [board] = await service.leaderboard(ALICE, HERE)  # every game: only countdown has players
    assert [e.title for e in board.embeds] == ["🏆 Countdown"]
    assert board.embeds[0].description.startswith("🥇 **Alice**")
    [unknown] = await service.leaderboard(ALICE, HERE, "chess")
    assert unknown.outcome == "refused" and "chess" in unknown.text


async def test_stats_are_rate_limited(service: TableService) -> None:
    answers = [(await service.stats(EVE, HERE))[0].text for _ in range(8)]
    assert answers[-1] == "⚠️ " + Translator("en")("error.slow_down")
    assert answers[0] == Translator("en")("stats.none", name="Eve")


async def test_migration_six_tables_exist(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.sqlite3")
    await store.open()
    try:
        rows = await store.raw("SELECT name FROM sqlite_master WHERE type='table'")
        assert {"game_results", "result_seats", "ratings", "follows"} <= {r[0] for r in rows}
    finally:
        await store.close()
