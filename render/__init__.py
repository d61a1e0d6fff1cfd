"""Pillow renderers: a view (dict) -> PNG bytes. One module per game.

Every game module exposes:
    render_board(view: dict, *, names: dict[str, str], lang: str = "en",
                 events: list[dict] | None = None,
                 translator: Callable[..., str] | None = None) -> bytes
    render_hand(view: dict, seat: str, *, names: dict[str, str], lang: str = "en",
                translator: Callable[..., str] | None = None) -> bytes
`view` is the engine's public view for the board and the seat's own view for
the hand; nothing else reaches a renderer. `translator(key, **params) -> str` is
the game's catalog in `lang` (the bot passes its Translator; renderers never
import bot/), e.g. for city names; without it a renderer uses its own texts.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_MODULES = {
    "detour": "render.detour",
    "around-the-world": "render.around_the_world",
    "rails-and-sails": "render.rails_and_sails",
    "eighty-days": "render.eighty_days",
}


def for_game(game_id: str) -> ModuleType:
    return importlib.import_module(_MODULES[game_id])
