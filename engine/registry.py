"""The game registry: game id -> rules object.

Games register themselves when their package is imported; `get` and `all`
import the known game packages on first use so callers never have to.
"""

from __future__ import annotations

import importlib

from engine.core import Rules

#: game id -> package under engine.games; adding a game adds one line here.
KNOWN_GAMES: dict[str, str] = {
    "detour": "engine.games.detour",
    "around-the-world": "engine.games.around_the_world",
    "rails-and-sails": "engine.games.rails_and_sails",
    "eighty-days": "engine.games.eighty_days",
}

_rules: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Called by each game package at import."""
    _rules[rules.id] = rules
    return rules


def _load(game_id: str) -> None:
    package = KNOWN_GAMES.get(game_id)
    if package is not None and game_id not in _rules:
        try:
            importlib.import_module(package)
        except ModuleNotFoundError as exc:  # a game not built yet is simply absent
            if exc.name is None or not package.startswith(exc.name):
                raise


def get(game_id: str) -> Rules:
    _load(game_id)
    try:
        return _rules[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}") from None


def all() -> list[Rules]:  # noqa: A001 - the contract's name
    for game_id in KNOWN_GAMES:
        _load(game_id)
    return [_rules[g] for g in KNOWN_GAMES if g in _rules]
