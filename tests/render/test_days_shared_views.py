"""eighty-days shares the map's fixed parts between its views (`engine.games.eighty_days.views`):
whatever reads a view (the AI, the board, the close-up, the hand) must leave it as it was."""

from __future__ import annotations

import copy
import random

from bot.games import ui_for
from engine import registry
from engine.ai import policy
from engine.games.eighty_days import views
from render import eighty_days as R

RULES = registry.get("eighty-days")


def test_reading_views_changes_none_of_the_parts_they_share() -> None:
    cities, lines = copy.deepcopy(views._CITIES), copy.deepcopy(views._LINES_A)
    state = RULES.new_game(["p1", "p2", "p3"], 4, {"side": "A"})
    normal = policy("eighty-days", "normal")
    rng = random.Random(4)
    t = ui_for("eighty-days").translator("en")
    names = {"p1": "Ana", "p2": "Bo", "p3": "Cy"}
    for step in range(120):
        if RULES.is_over(state):
            break
        seat = RULES.to_act(state)[0]
        legal = RULES.legal_actions(state, seat)
        action = normal(RULES.view(state, seat), seat, legal) if step % 2 else rng.choice(legal)
        events = RULES.apply(state, seat, action)
        if step % 20 == 0:
            public = RULES.view(state, None)
            R.render_board(public, names=names, translator=t, events=events)
            R.render_focus(public, names=names, translator=t, events=events)
            R.render_hand(RULES.view(state, seat), seat, names=names, translator=t)
    first, second = RULES.view(state, None), RULES.view(state, "p1")
    assert first["map"]["cities"] is second["map"]["cities"]  # shared, so this test matters
    assert cities == views._CITIES and lines == views._LINES_A
