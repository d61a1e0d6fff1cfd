"""The cheap paths of Rails & Sails `push` (and `Rng.shuffle`) give exactly what the checked
ones give: the same random sequence, the same state changes and the same events."""

from __future__ import annotations

import copy

import pytest

from engine import Rng, registry
from engine.games.rails_and_sails.mapdata import ROUTES, WILD
from engine.games.rails_and_sails.state import RSState

R = registry.get("rails-and-sails")


def _shuffled_through_below(state: int, items: list[int]) -> tuple[list[int], int]:
    """Fisher–Yates as `Rng.shuffle` used to be written: one `below` per swap."""
    rng = Rng(state)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out, rng.state


@pytest.mark.parametrize("seed", [0, 1, 7, 2**63 + 5, 2**64 - 1])
@pytest.mark.parametrize("size", [0, 1, 2, 3, 10, 77])
def test_shuffle_draws_the_same_sequence_as_below(seed: int, size: int) -> None:
    items = list(range(size))
    expected, expected_state = _shuffled_through_below(Rng.from_seed(seed).state, items)
    rng = Rng.from_seed(seed)
    rng.shuffle(items)
    assert items == expected
    assert rng.state == expected_state


def _random_game(seed: int, players: int) -> list[tuple[RSState, str, dict]]:
    """Every (state before, seat, action) of a random game, the states deep-copied."""
    rng = Rng.from_seed(seed)
    seats = [f"p{k + 1}" for k in range(players)]
    state = R.new_game(seats, seed)
    steps: list[tuple[RSState, str, dict]] = []
    while not R.is_over(state) and len(steps) < 900:
        seat = R.to_act(state)[0]
        action = rng.choice(R.legal_actions(state, seat))
        steps.append((copy.deepcopy(state), seat, action))
        R.push(state, seat, action)
    return steps


@pytest.mark.parametrize(("seed", "players"), [(3, 4), (11, 3), (5, 2)])
def test_push_matches_apply(seed: int, players: int) -> None:
    """`push` skips the checks only: `apply` on a copy gives the same events and state."""
    for before, seat, action in _random_game(seed, players):
        pushed = copy.deepcopy(before)
        applied = copy.deepcopy(before)
        assert R.push(pushed, seat, action) == R.apply(applied, seat, action)
        assert R.dump(pushed) == R.dump(applied)


def _open_by_walking(state: RSState) -> bool:
    """The rule spelled out: some route is unclaimed and not closed by the double-route rule."""
    few = len(state.seats) <= 3
    return any(
        r.id not in state.claimed and not (few and r.double is not None and r.double in state.claimed)
        for r in ROUTES
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_any_route_open_agrees_with_the_rule(players: int) -> None:
    """All routes but one claimed, then that one (and its twin) too: open until nothing is left."""
    state = R.new_game([f"p{k + 1}" for k in range(players)], 1)
    for last in ROUTES:
        claims = {r.id: 0 for r in ROUTES if r.id not in (last.id, last.double)}
        claims["not-a-route"] = 1  # hand-made states may hold strangers; they close nothing
        for extra in ({}, {last.double: 1} if last.double else {}, {last.id: 1}):
            state.claimed = {**claims, **extra}
            assert R._any_route_open(state) == _open_by_walking(state)
    state.claimed = {r.id: 0 for r in ROUTES}
    assert not R._any_route_open(state)


def test_face_up_wild_ends_the_turn_and_refills_the_place() -> None:
    """Taking a face-up wild ends the turn and refills the slot; the hand gains the card."""
    state = R.new_game(["p1", "p2"], 4)
    for seat in ("p1", "p2"):
        R.apply(state, seat, {"type": "keep_tickets", "ids": list(state.pending[state.seats.index(seat)][:3])})
    for seat in ("p1", "p2"):
        R.apply(state, seat, {"type": "choose_mix", "trains": 20})
    state.train_deck.remove(WILD)
    state.face_up[2] = WILD
    twin = copy.deepcopy(state)
    action = {"type": "draw", "source": "face_up", "slot": 2, "card": WILD, "refill": "train"}
    before = state.hands[0].get(WILD, 0)
    events = R.push(state, "p1", action)
    assert state.hands[0][WILD] == before + 1
    assert events[0] == {"type": "take_face_up", "seat": "p1", "card": WILD, "slot": 2, "new": state.face_up[2]}
    assert events[-1] == {"type": "turn", "seat": "p2"}
    assert R.apply(twin, "p1", action) == events
    assert R.dump(twin) == R.dump(state)
