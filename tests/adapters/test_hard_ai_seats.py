"""A hard AI seat through the whole bot: it plays whole games of every game at the local table
and through the Discord layer (its search really runs: every decision of that seat is asked
at the hard level), and while it searches in its AI process another table's move is answered
at once.

The whole games search for `QUICK` CPU seconds a decision (`AI_HARD_SECONDS`): the plumbing is
what these tests are about; the strength of each level is measured by bench/bench_ai_levels.py."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from bot.ai import pool as ai_pool
from bot.games import ui_for
from bot.settings import Settings
from engine import registry
from tests.adapters.test_discord_fullgame import latest_public
from tests.adapters.test_discord_games import via_menu
from tests.support.discord_harness import ALICE, BOB, CAROL, OTHER_CHANNEL_ID, Harness
from tests.support.local_driver import play_game

GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
QUICK = 0.03


@pytest.fixture
def levels_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The level of every AI decision the bot asks for (decisions made in threads here)."""
    asked: list[str] = []
    real = ai_pool.decide

    def decide(game_id: str, level: str, *args: Any) -> Any:
        asked.append(level)
        return real(game_id, level, *args)

    monkeypatch.setattr(ai_pool, "decide", decide)
    return asked


@pytest.mark.wholegame
@pytest.mark.parametrize("game", GAMES)
async def test_a_hard_seat_plays_a_whole_game_at_the_local_table(game: str, levels_asked: list[str]) -> None:
    final, store, _ = await play_game(game, 1, 1, seed=5, level="hard", settings=Settings(ai_hard_seconds=QUICK))
    try:
        record = await store.last_game(1)
        assert record is not None and record.status == "finished", final.text
        [bot_seat] = [s for s in record.seats if s.is_bot]
        assert "hard" in bot_seat.name.lower(), bot_seat.name  # the level shows with the seat's name
        actions = await store.actions(record.id)
        assert sum(a.actor == "ai" for a in actions) >= 5
        assert levels_asked and set(levels_asked) == {"hard"}
    finally:
        await store.close()


async def _play_with_menus(h: Harness, game: str, channel_steps: int = 2000) -> Any:
    """The human moves through "Your move" and the private menu (the game's own AI picks what
    they want) until the game ends; the AI seat answers by itself after each move."""
    rules = registry.get(game)
    ui = ui_for(game)
    rng = random.Random(11)
    for _ in range(channel_steps):
        record = max(await h.bot.store.games(), key=lambda g: g.id)  # type: ignore[attr-defined]
        if record.status == "finished":
            return record
        state = rules.load(record.state)
        [seat] = [s.seat for s in record.seats if not s.is_bot and s.seat in rules.to_act(state)]
        legal = rules.legal_actions(state, seat)
        by_hash = {ui_action_hash(a): a for a in legal}
        await via_menu(h, ALICE, latest_public(h), rules.ai_action(state, seat), ui, rng, by_hash)
    raise AssertionError("the game did not end")


def ui_action_hash(action: dict[str, Any]) -> str:
    from bot.table.ids import action_hash

    return action_hash(action)


@pytest.mark.wholegame
@pytest.mark.parametrize("game", GAMES)
async def test_a_hard_seat_plays_a_whole_game_through_discord(game: str, tmp_path: Path,
                                                             levels_asked: list[str]) -> None:
    db = tmp_path / "discord.sqlite3"
    h = await Harness.create(tmp_path, settings=Settings(database_url=str(db), sync_commands="auto",
                                                         tick_seconds=3600, ai_hard_seconds=QUICK))
    try:
        await h.run(h.slash(ALICE, "game new", game=game))
        await h.run(h.slash(ALICE, "game addbot", level="hard"))
        lobby = h.channel_messages()[-1]
        assert "hard" in lobby.content.lower()
        await h.run(h.click(ALICE, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]
        record = await _play_with_menus(h, game)
        actions = await h.bot.store.actions(record.id)
        assert sum(a.actor == "ai" for a in actions) >= 5
        assert levels_asked and set(levels_asked) == {"hard"}
        assert not h.protocol_problems()
    finally:
        await h.close()


async def test_a_hard_seat_thinking_in_its_process_delays_no_other_tables_move(tmp_path: Path) -> None:
    """The real AI process, a hard seat given two seconds a decision: while it searches, a move
    at another table is acknowledged in well under a second (detour at both tables: every
    seat chooses a card at once, so the hard seat searches as soon as its game starts)."""
    db = tmp_path / "discord.sqlite3"
    h = await Harness.create(tmp_path, settings=Settings(database_url=str(db), sync_commands="auto",
                                                         tick_seconds=3600, ai_processes=1, ai_hard_seconds=2.0,
                                                         ai_turn_seconds=60))
    try:
        h.bot.ai_pool.start()
        decisions: list[list[float]] = []  # [started, ended] of every AI decision
        real_choose = h.bot.ai_pool.choose

        async def choose(*args: Any, **kwargs: Any) -> Any:
            span = [time.perf_counter(), float("inf")]
            decisions.append(span)
            try:
                return await real_choose(*args, **kwargs)
            finally:
                span[1] = time.perf_counter()

        h.bot.ai_pool.choose = choose  # type: ignore[method-assign]
        # table B, the other channel: Bob and Carol
        await h.run(h.slash(BOB, "game new", channel_id=OTHER_CHANNEL_ID, game="detour"))
        lobby = h.channel_messages(channel_id=OTHER_CHANNEL_ID)[-1]
        await h.run(h.click(CAROL, lobby, lobby.button("Join").custom_id, channel_id=OTHER_CHANNEL_ID))
        lobby = h.channel_messages(channel_id=OTHER_CHANNEL_ID)[-1]
        await h.run(h.click(BOB, lobby, lobby.button("Start").custom_id, channel_id=OTHER_CHANNEL_ID))
        # table A: Alice and a hard seat; at the start both choose a card, the hard seat searching
        await h.run(h.slash(ALICE, "game new", game="detour"))
        await h.run(h.slash(ALICE, "game addbot", level="hard"))
        lobby = h.channel_messages()[-1]
        h.feed(h.click(ALICE, lobby, lobby.button("Start").custom_id))  # type: ignore[arg-type]

        # wait for a decision that is still searching after a third of a second
        deadline = time.perf_counter() + 20
        while not any(end == float("inf") and time.perf_counter() - start > 0.3 for start, end in decisions):
            assert time.perf_counter() < deadline, "the hard seat never searched"
            await asyncio.sleep(0.02)

        rules_b = registry.get("detour")
        state_b = rules_b.load((await h.bot.store.active_game(OTHER_CHANNEL_ID)).state)  # type: ignore[union-attr]
        record_b = await h.bot.store.active_game(OTHER_CHANNEL_ID)
        bob_seat = record_b.seat_of_user(BOB.id).seat  # type: ignore[union-attr]
        choice = next(a for a in rules_b.legal_actions(state_b, bob_seat) if a["type"] == "choose")
        mark = h.mark()
        started = time.perf_counter()
        h.feed(h.slash(BOB, "detour choose", channel_id=OTHER_CHANNEL_ID,
                       **{k: v for k, v in choice.items() if k != "type"}))
        while not any(m.content.startswith("✅") for m in h.ephemeral_for(BOB, since=mark)):
            assert time.perf_counter() - started < 10, "no answer to the move at the other table"
            await asyncio.sleep(0.005)
        answered = time.perf_counter()
        assert any(start < started and end > answered for start, end in decisions), \
            "the hard seat was not searching while the other table moved"
        assert answered - started < 1.0, f"a move at another table waited {answered - started:.2f} s"
        await h.settle(120)
    finally:
        await h.close()
