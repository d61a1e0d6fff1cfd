"""Undo in the engine: each game declares which moves a player may take back
(`Rules.undoable_moves`, `Rules.revealing_events`, `Rules.undoable`). A move that draws, rolls,
uses the random generator or reveals a secret is never undoable; these tests play seeded
random games and check the declarations move by move, with cases that may and may not be
undone in every game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import Rng, registry
from engine.core import Action, Event, Rules

GAMES = ["detour", "around-the-world", "rails-and-sails", "eighty-days"]


def _moves(rules: Rules, players: int, seed: int, steps: int) -> Iterator[tuple[Any, Any, str, Action, list[Event]]]:
    """(before, after, seat, action, events) of a seeded random game's first `steps` moves."""
    seats = [f"p{i + 1}" for i in range(players)]
    state = rules.new_game(seats, seed)
    rng = Rng.from_seed(seed + 99)
    for _ in range(steps):
        if rules.is_over(state):
            return
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        action = legal[rng.below(len(legal))]
        before = rules.load(rules.dump(state))
        events = rules.apply(state, seat, action)
        yield before, rules.load(rules.dump(state)), seat, action, events


def _seen(game_id: str, seeds: int = 6, steps: int = 160) -> dict[str, set[bool]]:
    """Action type -> the undoable answers seen for it."""
    rules = registry.get(game_id)
    seen: dict[str, set[bool]] = {}
    for seed in range(seeds):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        for before, after, seat, action, events in _moves(rules, players, seed, steps):
            ok = rules.undoable(before, after, seat, action, events)
            seen.setdefault(action["type"], set()).add(ok)
            if ok:  # the contract's guarantees, whatever the game declared
                assert action["type"] in rules.undoable_moves
                assert not any(e.get("type") in rules.revealing_events for e in events)
                assert getattr(before, "rng", None) == getattr(after, "rng", None)
                assert not rules.is_over(after)
    return seen


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_declares_undoable_moves_among_its_moves(game_id: str) -> None:
    rules = registry.get(game_id)
    assert rules.undoable_moves, "a registered game should let players take back something"
    assert rules.undoable_moves <= set(rules.moves)


def test_the_default_is_no_undo() -> None:
    """A game that declares nothing gets no undo (the safe default), even for a move the
    declaring game lets players take back."""
    rules = registry.get("detour")
    plain = type("Plain", (type(rules),), {"undoable_moves": frozenset(), "revealing_events": frozenset()})()
    state = rules.new_game(["p1", "p2", "p3"], 1)
    before = rules.load(rules.dump(state))
    action = rules.legal_actions(state, "p1")[0]
    events = rules.apply(state, "p1", action)
    assert rules.undoable(before, state, "p1", action, events)
    assert not plain.undoable(before, state, "p1", action, events)


def test_detour_choice_undoable_until_the_reveal() -> None:
    rules = registry.get("detour")
    state = rules.new_game(["p1", "p2", "p3"], 4)
    seen: list[bool] = []
    for seat in ["p1", "p2", "p3"]:
        before = rules.load(rules.dump(state))
        action = next(a for a in rules.legal_actions(state, seat) if a["type"] == "choose")
        events = rules.apply(state, seat, action)
        seen.append(rules.undoable(before, state, seat, action, events))
    assert seen == [True, True, False]  # the third choice revealed every card


def test_detour_by_random_play() -> None:
    seen = _seen("detour")
    assert seen["choose"] == {True, False}


def test_around_the_world_by_random_play() -> None:
    seen = _seen("around-the-world")
    assert True in seen["take"]  # an open card from the display
    for drawn in ("take_top", "buy", "exchange", "reroll", "use_action"):
        assert True not in seen.get(drawn, set()), drawn


def test_rails_and_sails_by_random_play() -> None:
    seen = _seen("rails-and-sails", seeds=4, steps=400)
    assert True in seen["keep_tickets"] and True in seen["claim"]
    assert seen["choose_mix"] == {True, False}  # the last choice reveals every mix
    for drawn in ("draw", "tickets"):
        assert seen[drawn] == {False}, drawn


def test_eighty_days_by_random_play() -> None:
    seen = _seen("eighty-days")
    assert True in seen["travel"] or True in seen["buy"]
    for drawn in ("black_market", "search", "complete", "albert"):
        assert True not in seen.get(drawn, set()), drawn
