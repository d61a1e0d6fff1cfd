"""One presentation package per game: its command group, catalogs and labels."""

from __future__ import annotations

import importlib

from bot.gameui import GameUI

#: game id -> package under bot.games (adding a game adds one line here)
PACKAGES: dict[str, str] = {
    "detour": "bot.games.detour",
    "around-the-world": "bot.games.around_the_world",
    "rails-and-sails": "bot.games.rails_and_sails",
    "eighty-days": "bot.games.eighty_days",
}


def ui_for(game_id: str) -> GameUI:
    return importlib.import_module(PACKAGES[game_id]).UI


def available() -> dict[str, GameUI]:
    """Games whose engine and UI packages are both importable."""
    from engine import registry

    found: dict[str, GameUI] = {}
    for rules in registry.all():
        if rules.id not in PACKAGES:  # an engine whose UI is not built yet
            continue
        try:
            found[rules.id] = ui_for(rules.id)
        except ModuleNotFoundError:
            continue
    return found
