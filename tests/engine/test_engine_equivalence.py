"""The engines behave exactly as the recorded, unoptimised code did (tests/equivalence.py).

Each seeded game's digest covers to_act, legal actions (in order), actions, events, dumped
states, views, resampled twins, mutated-action legality and refusal codes. The first games of
each id run in the normal suite; all recorded games run with the whole-game tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from engine import Rng, registry
from engine.core import dump_state, load_state, load_typed
from tests.support.equivalence import GAMES, RECORDED_GAMES, load_recorded, play, setup

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


def containers(value: Any) -> set[int]:
    """The ids of every list and dict inside `value` (itself included)."""
    found: set[int] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list | tuple):
            if isinstance(v, list):
                found.add(id(v))
            stack.extend(v)
        elif isinstance(v, dict):
            found.add(id(v))
            stack.extend(v.values())
    return found


def test_the_sharing_check_sees_a_shallow_copy() -> None:
    @dataclass
    class Wrong:
        rows: list[str]  # annotated flat, but holds lists: a shallow copy would share them

    state = Wrong(rows=[["a"], ["b"]])  # type: ignore[list-item]
    shallow = {"rows": list(state.rows)}
    assert containers(shallow) & containers(state.__dict__)
    assert not containers(dump_state(state)) & containers(state.__dict__)


@pytest.mark.parametrize("game_id", GAMES)
def test_typed_dumps_equal_the_generic_ones_and_share_nothing(game_id: str) -> None:
    """The fast `dump`/`load` give exactly `dump_state`/`load_state`'s data, and neither the dump
    nor the loaded state shares a list or dict with where it came from (states stay values)."""
    rules = registry.get(game_id)
    cls = rules.state_class
    assert cls is not None
    for index in range(8):
        seats, options = setup(rules, index)
        state = rules.new_game(seats, 50 + index, options)
        rng = Rng.from_seed(index)
        while True:
            dumped = rules.dump(state)
            assert json.dumps(dumped, sort_keys=True) == json.dumps(dump_state(state), sort_keys=True)
            assert not containers(dumped) & containers(state.__dict__)
            loaded = rules.load(dumped)
            assert loaded == load_state(cls, dumped) == load_typed(cls, dumped) == state
            assert not containers(loaded.__dict__) & containers(dumped)
            if rules.is_over(state):
                break
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            rules.apply(state, seat, legal[rng.below(len(legal))])
