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


def for_game(game_id: str) -> ModuleType:
    """The renderer of `game_id` (`render.<pkg>`, the id with `-` as `_`). The bot finds
    renderers through its game registry (`bot.games`); this stays for render-only code."""
    return importlib.import_module(f"{__name__}.{game_id.replace('-', '_')}")
