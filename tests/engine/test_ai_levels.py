"""AI levels (`engine.ai.policy`): every level plays whole games legally from the seat's view,
answers the same question the same way, and hard keeps to its CPU budget per decision."""

from __future__ import annotations

import time

import pytest

from engine import registry
from engine.ai import LEVELS, hard_config, levels_module, policy

GAMES = ("detour", "around-the-world", "rails-and-sails", "eighty-days")
#: whole games with hard at every seat would take minutes: a small budget keeps the test short
TEST_BUDGET = 0.01


def _play(game_id: str, players: int, level: str, seed: int) -> list[dict]:
    """A whole game, the seats alternating `level` and normal, every choice checked legal
    (through `apply`, which refuses anything else); the actions taken."""
    rules = registry.get(game_id)
    seats = [f"p{i + 1}" for i in range(players)]
    mine = policy(game_id, level, budget=TEST_BUDGET)
    normal = policy(game_id, "normal")
    state = rules.new_game(seats, seed)
    log = []
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        choose = mine if seats.index(seat) % 2 == 0 else normal
        action = choose(rules.view(state, seat), seat, legal)
        assert action in legal
        rules.apply(state, seat, action)
        log.append(action)
        assert len(log) < 5000
    assert rules.result(state) is not None
    return log


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", GAMES)
def test_levels_play_whole_games(game_id: str, level: str) -> None:
    rules = registry.get(game_id)
    for players in sorted({2, rules.max_players}):
        _play(game_id, players, level, seed=3)


@pytest.mark.parametrize("level", ("easy", "normal"))
@pytest.mark.parametrize("game_id", GAMES)
def test_levels_are_deterministic(game_id: str, level: str) -> None:
    assert _play(game_id, 2, level, seed=5) == _play(game_id, 2, level, seed=5)


@pytest.mark.parametrize("game_id", GAMES)
def test_hard_same_view_same_answer_within_budget(game_id: str) -> None:
    """Hard on the first few decisions of a game: each within its budget (generously: CI
    machines are slow and shared), and, given time to finish its rounds, the same answer twice."""
    rules = registry.get(game_id)
    hard = policy(game_id, "hard")
    unhurried = policy(game_id, "hard", budget=60.0)
    normal = policy(game_id, "normal")
    budget = hard_config(game_id, levels_module(rules)).budget
    state = rules.new_game(["p1", "p2"], 11)
    asked = 0
    while not rules.is_over(state) and asked < 4:
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        view = rules.view(state, seat)
        if len(legal) > 1:
            t0 = time.thread_time()
            action = hard(view, seat, legal)
            assert time.thread_time() - t0 < 3 * budget + 0.3
            assert action in legal
            if asked < 2:
                assert unhurried(view, seat, legal) == unhurried(view, seat, legal)
            asked += 1
        else:
            action = normal(view, seat, legal)
        rules.apply(state, seat, action)


def test_unknown_level_or_game_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="level"):
        policy("detour", "expert")
    with pytest.raises(ValueError, match="unknown game"):
        policy("chess", "normal")


def test_normal_stays_available_per_game() -> None:
    """Every game answers every level with a callable, named for the bot's logs."""
    for game_id in GAMES:
        for level in LEVELS:
            assert callable(policy(game_id, level))
