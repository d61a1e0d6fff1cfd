"""detour: the AI plays legal moves only, decides from its own view, and clearly beats random play."""

from __future__ import annotations

import copy

import pytest

from engine import Rng, registry
from engine.games.detour import ai

RULES = registry.get("detour")


def _play(players: int, seed: int, ai_seats: set[str]) -> tuple[object, int]:
    seats = [f"p{i + 1}" for i in range(players)]
    state = RULES.new_game(seats, seed)
    rng = Rng.from_seed(seed * 7 + 1)
    steps = 0
    while not RULES.is_over(state):
        for seat in RULES.to_act(state):
            legal = RULES.legal_actions(state, seat)
            if seat in ai_seats:
                action = RULES.ai_action(state, seat)
                assert action in legal
            else:
                action = legal[rng.below(len(legal))]
            RULES.apply(state, seat, action)
            steps += 1
        assert steps < 500
    return state, steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ai_self_play_is_always_legal_and_ends(players: int) -> None:
    for seed in range(6):
        state, _ = _play(players, seed, {f"p{i + 1}" for i in range(players)})
        assert RULES.result(state)["winners"]


def test_ai_is_deterministic() -> None:
    a, _ = _play(3, 5, {"p1", "p2", "p3"})
    b, _ = _play(3, 5, {"p1", "p2", "p3"})
    assert RULES.dump(a) == RULES.dump(b)


def test_ai_decides_from_its_view_only() -> None:
    """Two states that differ only in another seat's secret choice give the same AI decision."""
    s1 = RULES.new_game(["p1", "p2", "p3"], 2)
    s2 = copy.deepcopy(s1)
    RULES.apply(s1, "p2", {"type": "choose", "card": 10})
    RULES.apply(s2, "p2", {"type": "choose", "card": 5})
    assert RULES.view(s1, "p1") == RULES.view(s2, "p1")
    assert RULES.ai_action(s1, "p1") == RULES.ai_action(s2, "p1")


def test_ai_prefers_coming_home_with_the_lowest_card() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 2)
    s.pos[0] = 15  # Liverpool: the 8 or the 10 bring it home
    assert RULES.ai_action(s, "p1") == {"type": "choose", "card": 8}  # keeps the 10 for the tie-break


def test_ai_blocks_a_pawn_about_to_come_home() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 2)
    s.first = 0
    s.pos = [5, 15, 2]  # p2 on Liverpool
    s.hand = [0b0010, 0b1001, 0b0100]  # p1: 8; p2: 10 and 5; p3: 6
    for seat, card in (("p1", 8), ("p2", 5), ("p3", 6)):
        RULES.apply(s, seat, {"type": "choose", "card": card})
    # p1's 8 resolves first; make p2's pending card the 10 that would bring it home this round
    s.hand[1] = 0b0001
    s.chosen[1] = 10
    s.queue = [0, 1, 2]
    assert RULES.ai_action(s, "p1") == {"type": "block", "target": "p2"}  # its pending 10 would bring it home


def test_rounds_table_is_finite_everywhere() -> None:
    for row in ai.ROUNDS:
        assert all(0 <= v < 20 for v in row)


@pytest.mark.parametrize(("players", "minimum"), [(2, 0.8), (3, 0.6), (4, 0.55)])
def test_ai_clearly_beats_random_play(players: int, minimum: float) -> None:
    games = 60
    wins = 0
    for g in range(games):
        seat = f"p{g % players + 1}"
        state, _ = _play(players, 1000 + g, {seat})
        wins += seat in RULES.result(state)["winners"]
    assert wins / games >= minimum, wins / games
