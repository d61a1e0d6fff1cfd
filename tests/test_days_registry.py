"""eighty-days is offered once its UI package is registered; an engine without a UI package
is still skipped cleanly by the platform."""

from __future__ import annotations

import pytest

from bot import games
from engine import registry


def test_engine_registered_and_offered_with_its_ui() -> None:
    assert "eighty-days" in {r.id for r in registry.all()}
    offered = games.available()
    assert {"detour", "around-the-world", "rails-and-sails", "eighty-days"} <= set(offered)
    assert offered["eighty-days"].group == "days"


def test_an_engine_without_a_ui_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    packages = {k: v for k, v in games.PACKAGES.items() if k != "eighty-days"}
    monkeypatch.setattr(games, "PACKAGES", packages)
    offered = games.available()  # used to raise KeyError for an engine missing from PACKAGES
    assert "eighty-days" not in offered
    assert {"detour", "around-the-world", "rails-and-sails"} <= set(offered)
