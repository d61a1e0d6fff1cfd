"""eighty-days is offered once its UI package exists (an engine without one is skipped:
tests/test_game_specs.py::test_a_line_whose_layers_are_missing_builds_no_spec)."""

from __future__ import annotations

from bot import games
from engine import registry


def test_engine_registered_and_offered_with_its_ui() -> None:
    assert "eighty-days" in {r.id for r in registry.all()}
    offered = games.available()
    assert {"detour", "around-the-world", "rails-and-sails", "eighty-days"} <= set(offered)
    assert offered["eighty-days"].group == "days"
