"""Boards drawn in threads of one process (a bot without render processes, `RENDER_PROCESSES=0`):
the render caches are shared by every thread, so tables drawn at once must give the pictures
they give one at a time, with the caches evicting all along."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.games import get as game_spec
from engine import registry
from render import budget

GAMES = ("rails-and-sails", "around-the-world", "eighty-days", "detour")


def _views(game: str, tables: int) -> list[tuple[dict, dict[str, str]]]:
    """Each table's public view a few moves on from the last, seeded."""
    rules = registry.get(game)
    out = []
    for seed in range(1, tables + 1):
        seats = [f"p{i + 1}" for i in range(2 + seed % 3)]
        state = rules.new_game(seats, seed, {})
        rng = random.Random(seed)
        for step in range(40):
            if rules.is_over(state):
                break
            seat = rules.to_act(state)[0]
            rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
            if step % 8 == 7:
                out.append((json.loads(json.dumps(rules.view(state, None))), {s: f"{s} {seed}" for s in seats}))
    return out


@pytest.fixture
def contended() -> Iterator[None]:
    """A small budget (kept layers and bands evicted all the time) and threads switched every
    microsecond instead of every 5 ms, so that a cache changed under another thread's feet
    shows in a few boards, not once in a burst of thousands."""
    interval = sys.getswitchinterval()
    budget.configure(24)
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)
    budget.configure(budget.DEFAULT_MB)


@pytest.mark.parametrize("game", GAMES)
def test_boards_drawn_in_threads_are_the_boards_drawn_one_at_a_time(game: str, contended: None) -> None:
    spec = game_spec(game)
    t = spec.ui.translator("en")
    views = _views(game, 10)

    def draw(item: tuple[dict, dict[str, str]]) -> bytes:
        view, names = item
        return spec.renderer.render_board(view, names=names, translator=t)

    alone = [draw(item) for item in views]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(4):
            assert list(pool.map(draw, views)) == alone
