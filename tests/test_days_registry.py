"""eighty-days is registered as an engine before it has a UI: the platform skips it cleanly."""

from __future__ import annotations

from bot import games
from engine import registry


def test_engine_registered_but_not_offered_without_a_ui() -> None:
    assert "eighty-days" in {r.id for r in registry.all()}
    offered = games.available()  # used to raise KeyError for an engine missing from PACKAGES
    assert "eighty-days" not in offered
    assert {"detour", "around-the-world", "rails-and-sails"} <= set(offered)
