"""The engines behave exactly as the recorded, unoptimised code did (tests/equivalence.py).

Each seeded game's digest covers to_act, legal actions (in order), actions, events, dumped
states, views, resampled twins, mutated-action legality and refusal codes. The first games of
each id run in the normal suite; all recorded games run with the whole-game tests.
"""

from __future__ import annotations

import pytest

from engine import registry
from tests.equivalence import GAMES, RECORDED_GAMES, load_recorded, play

QUICK_GAMES = 30
RECORDED = load_recorded()


def test_recording_covers_every_game_with_enough_games() -> None:
    assert set(RECORDED) == set(GAMES)
    assert all(len(rows) >= RECORDED_GAMES for rows in RECORDED.values())


def test_a_changed_step_changes_the_digest() -> None:
    """The digest notices behaviour: a game played with a different seed does not match."""
    rules = registry.get("detour")
    assert list(play(rules, 1)) != RECORDED["detour"][0]
    assert list(play(rules, 0)) == RECORDED["detour"][0]


def _compare(game_id: str, indices: range) -> None:
    rules = registry.get(game_id)
    bad = [i for i in indices if list(play(rules, i)) != RECORDED[game_id][i]]
    assert not bad, f"{game_id}: games {bad} differ from the recorded run"


@pytest.mark.parametrize("game_id", GAMES)
def test_first_games_match_the_recording(game_id: str) -> None:
    _compare(game_id, range(QUICK_GAMES))


@pytest.mark.wholegame
@pytest.mark.parametrize("game_id", GAMES)
def test_all_recorded_games_match(game_id: str) -> None:
    _compare(game_id, range(QUICK_GAMES, len(RECORDED[game_id])))
