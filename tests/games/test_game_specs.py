"""The one game registry: every registered game is one complete `GameSpec`, the fake game
installs by registering one, and AI seats decide through `spec.ai` from their view only."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.i18n import LANGUAGES
from bot.replies import User, Where
from bot.service import TableService
from engine import registry
from tests.support import fakegame

ROOT = Path(__file__).resolve().parents[2]
REAL = ["detour", "around-the-world", "rails-and-sails", "eighty-days"]


def test_the_registry_offers_the_complete_games_in_listing_order() -> None:
    assert [g for g in games.specs() if g != fakegame.GAME_ID] == REAL
    assert list(games.available()) == list(games.specs())


@pytest.mark.parametrize("game_id", REAL)
def test_each_spec_ties_one_package_per_layer_together(game_id: str) -> None:
    spec = games.get(game_id)
    assert spec.rules is registry.get(game_id) and spec.ui is games.ui_for(game_id)
    assert spec.id == spec.rules.id == spec.ui.game_id
    assert games.by_group(spec.ui.group) is spec
    assert callable(spec.renderer.render_board) and callable(spec.renderer.render_hand)
    assert callable(spec.ai)
    assert {f"{lang}.json" for lang in LANGUAGES} <= {p.name for p in spec.catalogs.iterdir()}
    assert spec.docs is not None and (ROOT / spec.docs).is_file()
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.id = "other"  # type: ignore[misc]


def test_a_line_whose_layers_are_missing_builds_no_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.games.spec as spec_module

    real = spec_module._optional
    # eighty-days as it was while only its engine existed: no renderer and no UI package yet
    monkeypatch.setattr(spec_module, "_optional", lambda m: None if m.endswith(("render.eighty_days",
                                                                                 "bot.games.eighty_days")) else real(m))
    assert games.GameLine("eighty-days", "eighty_days").build() is None
    assert games.GameLine("nothing-here", "nothing_here").build() is None
    with pytest.raises(KeyError):
        games.get("nothing-here")


def test_engine_registry_finds_every_engine_package_without_a_list() -> None:
    assert {"detour", "around-the-world", "rails-and-sails", "eighty-days"} <= {r.id for r in registry.all()}
    assert registry.get("eighty-days").id == "eighty-days"
    for bad in ("", "../x", "Detour", "os.path"):
        with pytest.raises(KeyError):
            registry.get(bad)


def test_the_fake_game_installs_by_registering_one_spec() -> None:
    fakegame.install()
    try:
        assert games.get(fakegame.GAME_ID).rules is fakegame.RULES
        assert registry.get(fakegame.GAME_ID) is fakegame.RULES
    finally:
        fakegame.uninstall()
    assert fakegame.GAME_ID not in games.specs()
    with pytest.raises(KeyError):
        registry.get(fakegame.GAME_ID)


async def test_ai_seats_decide_through_the_spec_from_their_view_only(
        fake_game: None, service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    """The service gives the policy the seat's view and legal actions, and never asks the
    rules object (`ai_action` sees the whole state)."""
    calls: list[tuple[dict[str, Any], str, list[dict[str, Any]]]] = []

    def policy(view: dict[str, Any], seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        calls.append((view, seat, legal))
        return fakegame.choose(view, seat, legal)

    def no_peeking(state: Any, seat: str) -> dict[str, Any]:
        raise AssertionError("the platform asked Rules.ai_action")

    monkeypatch.setattr(fakegame.RULES, "ai_action", no_peeking)
    monkeypatch.setitem(games.RUNTIME, fakegame.GAME_ID, dataclasses.replace(fakegame.spec(), ai=policy))
    alice, here = User(1, "alice"), Where(channel_id=7, guild_id=1)
    await service.new_game(alice, here, fakegame.GAME_ID)
    await service.addbot(alice, here)
    await service.start(alice, here)
    await service.command(alice, here, "countdown", "take", {"n": 1})
    assert calls, "the AI seat never moved"
    record = await service.store.active_game(here.channel_id)
    assert record is not None
    for view, seat, legal in calls:
        assert seat == "p2" and view["private"].keys() == {"lucky"} and legal
        assert {"secrets", "rng"}.isdisjoint(view)
