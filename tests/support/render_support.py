"""Translators for the renderer tests: the games' real catalogs, and one that records the keys
a renderer asks for and fails on a key the catalog lacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.i18n import Translator, load_catalog

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"detour": "detour", "around-the-world": "around_the_world", "rails-and-sails": "rails_and_sails"}


def locales(game: str) -> Path:
    return ROOT / "bot" / "games" / PACKAGES[game] / "locales"


def translator(game: str, lang: str) -> Translator:
    """The game's catalog in `lang`, as the bot hands it to a renderer."""
    return Translator(lang, locales(game))


class RecordingTranslator:
    """A translator over the game's catalog in one language that remembers every key asked
    for and raises KeyError for a key that catalog does not have (no English fallback)."""

    def __init__(self, game: str, lang: str) -> None:
        self.lang = lang
        self.catalog = load_catalog(str(locales(game)), lang)
        self._real = translator(game, lang)
        self.asked: set[str] = set()

    def __call__(self, key: str, /, **params: Any) -> str:
        self.asked.add(key)
        if key not in self.catalog:
            raise KeyError(f"{key} is not in the {self.lang} catalog")
        return self._real(key, **params)

    def plural(self, key: str, count: int, /, **params: Any) -> str:
        """Both forms must exist (each language picks its own), recorded like any key."""
        for form in ("one", "other"):
            self(f"{key}.{form}")
        return self._real.plural(key, count, **params)
