"""Every word a board or hand image shows comes from the game's catalog: render every game's
board and hands (start, middle, end; 2 and the most players; every language) through a
translator that records each key asked for and fails on one its catalog lacks."""

from __future__ import annotations

import pytest

from engine import registry
from render import for_game
from tests.support.render_support import RecordingTranslator

GAMES = ["detour", "around-the-world", "rails-and-sails"]


def _states(game: str):
    rules = registry.get(game)
    for players in (rules.min_players, rules.max_players):
        seats = [f"p{i + 1}" for i in range(players)]
        state = rules.new_game(seats, 9) if game == "detour" else rules.new_game(seats, 9, {})
        events: list = []
        yield rules, state, events
        for step in range(10_000):
            if rules.is_over(state):
                break
            seat = rules.to_act(state)[0]
            events = rules.apply(state, seat, rules.ai_action(state, seat))
            if step == 40:
                yield rules, state, events
        yield rules, state, events


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_every_key_a_renderer_asks_for_is_in_the_catalog(game: str, lang: str) -> None:
    module = for_game(game)
    t = RecordingTranslator(game, lang)
    for rules, state, events in _states(game):
        public = [{k: v for k, v in e.items() if k != "private"} for e in events]
        module.render_board(rules.view(state, None), names={}, translator=t, events=public)
        for seat in rules.view(state, None)["seats"]:
            module.render_hand(rules.view(state, seat), seat, names={}, translator=t)
    assert t.asked, "the renderer asked the translator for nothing"
    image_keys = {k for k in t.catalog if k.startswith("img.")}
    assert {k for k in t.asked if k.startswith("img.")} <= image_keys


@pytest.mark.parametrize("game", GAMES)
def test_a_renderer_needs_no_language_code(game: str) -> None:
    """`lang` is accepted for compatibility and ignored: the translator decides the language."""
    rules = registry.get(game)
    module = for_game(game)
    state = rules.new_game(["p1", "p2"], 3) if game == "detour" else rules.new_game(["p1", "p2"], 3, {})
    view = rules.view(state, None)
    de = RecordingTranslator(game, "de")
    assert module.render_board(view, names={}, translator=de, lang="fr") == module.render_board(
        view, names={}, translator=de)
