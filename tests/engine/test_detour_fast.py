"""detour's fast paths (precomputed tables, per-seating lookups, inlined moves) agree with
the plain rules they replace: the reveal order, the targets, push ≡ apply, and states that
stay values (lookups are neither dumped nor compared, listings are fresh lists)."""

from __future__ import annotations

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Rng, registry
from engine.games.detour import mapdata as M
from engine.games.detour import tables as T
from engine.games.detour.rules import DetourState

RULES = registry.get("detour")


def _played_to(seats: list[str], seed: int, steps: int) -> DetourState:
    """A state `steps` random legal moves into a seeded game (or its end)."""
    state = RULES.new_game(seats, seed)
    rng = Rng.from_seed(seed)
    for _ in range(steps):
        if RULES.is_over(state):
            break
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        RULES.push(state, seat, legal[rng.below(len(legal))])
    return state


def test_reveal_order_is_highest_card_first_then_from_the_first_player_on() -> None:
    """The stable reverse sort over the rotation equals the rulebook's key, for every hand."""
    for n in (3, 4):
        for first in range(n):
            for chosen in itertools.product(M.CARDS, repeat=n):
                state = RULES.new_game([f"p{i + 1}" for i in range(n)], 1)
                state.first = first
                state.chosen = list(chosen)
                events: list[dict[str, object]] = []
                RULES._reveal(state, events)
                expected = sorted(range(n), key=lambda q: (-chosen[q], (q - first) % n))
                assert state.queue == expected, (n, first, chosen)
                assert [c["colour"] for c in events[0]["cards"]] == [T.COLOURS[q] for q in expected]


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(0, 5_000), steps=st.integers(0, 120))
def test_a_resolving_card_waits_only_for_a_real_choice(players: int, seed: int, steps: int) -> None:
    """The inlined checks of `_advance` stop exactly at a card with two uses or more, and the
    listed uses are its Move (unless blocked) and its action against each hittable rival."""
    state = _played_to([f"p{i + 1}" for i in range(players)], seed, steps)
    for p in range(len(state.owner)):
        me = state.owner[p]
        for card in (8, 6, 5):
            assert all(state.owner[q] != me for q in RULES._targets(state, p, card))
    if state.phase == "resolve":
        p = state.queue[0]
        targets = RULES._targets(state, p, state.chosen[p])
        listed = RULES._options(state, p)
        assert len(listed) >= 2
        moves = [] if state.blocked[p] else [{"type": "move"}]
        kind = M.CARD_ACTION[state.chosen[p]]
        assert listed == moves + [state.against[kind][q] for q in targets] if kind else listed == moves


@settings(max_examples=30, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(0, 5_000))
def test_push_and_apply_give_the_same_events_and_states(players: int, seed: int) -> None:
    seats = [f"p{i + 1}" for i in range(players)]
    a, b = RULES.new_game(seats, seed), RULES.new_game(seats, seed)
    rng = Rng.from_seed(seed + 1)
    while not RULES.is_over(a):
        acting = RULES.to_act(a)
        seat = acting[rng.below(len(acting))]
        legal = RULES.legal_actions(a, seat)
        action = legal[rng.below(len(legal))]
        assert RULES.push(a, seat, action) == RULES.apply(b, seat, json.loads(json.dumps(action)))
        assert RULES.dump(a) == RULES.dump(b)


def test_listings_are_fresh_lists_of_untouched_shared_actions() -> None:
    """A caller may change the list it got; the next listing and the state are unaffected."""
    for players in (2, 3, 4):
        state = _played_to([f"p{i + 1}" for i in range(players)], 7, 0)
        for _ in range(60):
            if RULES.is_over(state):
                break
            seat = RULES.to_act(state)[0]
            legal = RULES.legal_actions(state, seat)
            snapshot = json.loads(json.dumps(legal))
            acting = RULES.to_act(state)
            acting.clear()
            legal.clear()
            assert RULES.legal_actions(state, seat) == snapshot
            assert RULES.to_act(state)
            RULES.push(state, seat, snapshot[0])


def test_seating_lookups_are_neither_dumped_nor_compared_and_follow_a_load() -> None:
    state = _played_to(["ann", "bob", "cy"], 3, 25)
    dumped = RULES.dump(state)
    assert set(dumped) == {"seats", "owner", "pos", "hand", "blocked", "chosen", "queue", "first", "round",
                           "phase", "arrivals", "rng"}
    other = RULES.load(json.loads(json.dumps(dumped)))
    assert other == state
    assert other.seat_index == {"ann": 0, "bob": 1, "cy": 2}
    assert other.pawn_seat == ("ann", "bob", "cy")
    assert other.rivals == ((1, 2), (0, 2), (0, 1))
    assert other.against["detour"][1] == {"type": "detour", "target": "bob"}
    assert (other.two, other.pawns, other.rotation) == (False, 3, T.ROTATION[3])
    two = RULES.new_game(["ann", "bob"], 1)
    assert two.pawn_seat == ("ann", "bob", "ann", "bob")
    assert two.rivals == ((1, 3), (0, 2), (1, 3), (0, 2))
    assert two.against["block"][2] == {"type": "block", "target": "ann", "target_colour": "green"}
    assert (two.two, two.pawns, two.rotation) == (True, 4, T.ROTATION[4])


def test_prebuilt_events_are_copies_equal_to_the_literal_events() -> None:
    """Events copied from the per-seating templates are fresh dicts: scribbling on every event
    of one game leaves the next game's events as they were, and each move event still says
    what it moved (days, card, used, from, to) as the map gives it."""

    def play(seed: int) -> list[dict[str, object]]:
        state = RULES.new_game(["ann", "bob", "cy", "dee"], seed)
        rng = Rng.from_seed(seed)
        log: list[dict[str, object]] = []
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            legal = RULES.legal_actions(state, seat)
            log += RULES.push(state, seat, legal[rng.below(len(legal))])
        return log

    clean = json.dumps(play(11))
    for event in play(11):
        event["seat"] = "scribbled"
        for card in event.get("cards", []):  # type: ignore[attr-defined]
            card["seat"] = "scribbled"
    assert json.dumps(play(11)) == clean
    moves = [e for e in json.loads(clean) if e["type"] == "move"]
    assert moves
    for e in moves:
        assert e["to"] == M.DEST[e["from"]][e["days"]]
        assert e["used"] == M.DIST[e["from"]] - M.DIST[e["to"]]
        assert e["card"] == T.MOVE_CARD[e["days"]]
