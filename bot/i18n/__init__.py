"""Message catalogs: every user-facing sentence is looked up here by message id.

The platform's catalog lives in `bot/i18n/locales/<lang>.json`, and each feature package
(`bot/features/<feature>/locales/`) carries the texts it owns; each game's command package
carries its own `locales/<lang>.json` too (Red-DiscordBot style).
English is complete and is the fallback for any missing key.

A text that shows a count has two keys, `<key>.one` and `<key>.other`, and is
looked up with `Translator.plural`, which picks the form by the language's
plural rule (`plural_form`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "de", "fr")
DEFAULT_LANGUAGE = "en"
_PLATFORM_DIR = Path(__file__).parent / "locales"
#: the platform's own texts and its features' (found by path: the catalogs import nothing)
PLATFORM_DIRS: tuple[Path, ...] = (_PLATFORM_DIR, *sorted(
    p for p in (Path(__file__).parent.parent / "features").glob("*/locales") if p.is_dir()))


def normalise_language(code: str | None) -> str:
    """Discord locales ('en-US', 'de', 'fr') -> one of LANGUAGES."""
    if not code:
        return DEFAULT_LANGUAGE
    short = str(code).split("-")[0].split("_")[0].lower()
    return short if short in LANGUAGES else DEFAULT_LANGUAGE


@cache
def load_catalog(directory: str, lang: str) -> dict[str, str]:
    path = Path(directory) / f"{lang}.json"
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as handle:
        data = json.load(handle)
    return _flatten(data)


@cache
def _texts(lang: str, dirs: tuple[str, ...]) -> dict[str, str]:
    """Every text a translator finds, merged once: its language's catalogs, the game's before
    the platform's, then English for what they lack (a turn looks up dozens of texts, each
    was up to four catalog lookups)."""
    merged: dict[str, str] = {}
    for language in (DEFAULT_LANGUAGE, lang):
        for directory in reversed(dirs):
            merged.update(load_catalog(directory, language))
    return merged


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, full + "."))
        else:
            flat[full] = str(value)
    return flat


def plural_form(lang: str, count: int) -> str:
    """'one' or 'other' for `count` in `lang`, by the CLDR cardinal rules of our languages.

    English and German use the singular for exactly 1; French also for 0
    ("0 jour", "1 jour", "2 jours"). A table of our three languages is all we
    need, so Babel (a new dependency) would add nothing; CLDR's French "many"
    (for millions) never occurs in a game and falls under "other".
    """
    n = abs(int(count))
    if normalise_language(lang) == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


class _SafeDict(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Translator:
    """`t(key, **params)` in one language, searching the game's catalog first."""

    def __init__(self, lang: str, game_dir: str | Path | None = None) -> None:
        self.lang = normalise_language(lang)
        self._dirs = [str(game_dir)] if game_dir else []
        self._dirs += [str(d) for d in PLATFORM_DIRS]
        self._texts = _texts(self.lang, tuple(self._dirs))

    def has(self, key: str) -> bool:
        return key in self._texts

    def __call__(self, key: str, /, **params: Any) -> str:
        text = self._texts.get(key)
        if text is None:
            return key
        return text.format_map(_SafeDict(params)) if params or "{" in text else text

    def for_game(self, game_dir: str | Path | None) -> Translator:
        return Translator(self.lang, game_dir)

    def plural(self, key: str, count: int, /, **params: Any) -> str:
        """`key.one` / `key.other`, chosen by this language's plural rule for `count`.

        `{count}` is filled with the number; a language whose catalog has only
        `key.other` gets that form.
        """
        form = plural_form(self.lang, count)
        if form == "one" and not self.has(f"{key}.one"):
            form = "other"
        return self(f"{key}.{form}", count=count, **params)
