"""A game played by a level against the normal AI's answers, for the levels' tests."""

from __future__ import annotations

from engine import registry
from engine.ai import policy


def moves_unlike_normal(game_id: str, seats: list[str], seed: int, level: str = "easy") -> tuple[int, int]:
    """A seeded game played by `level` at every seat: (its legal moves that differ from what
    normal would play, the decisions with a choice). Fails on an illegal move."""
    rules = registry.get(game_id)
    player, normal = policy(game_id, level), policy(game_id, "normal")
    state = rules.new_game(seats, seed)
    differ = choices = 0
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        view = rules.view(state, seat)
        action = player(view, seat, legal)
        assert action in legal
        if len(legal) > 1:
            choices += 1
            differ += action != normal(view, seat, legal)
        rules.apply(state, seat, action)
    return differ, choices
