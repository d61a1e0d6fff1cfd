"""The engine's game registry: game id -> rules object, for engine-only code.

Each package under `engine.games` registers its rules when imported; `get` and
`all` find the packages by discovery (game id `a-b` lives in `engine.games.a_b`),
so adding a game adds no line here. The bot's registry of whole games (rules, AI,
renderer, UI) is `bot.games`.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from engine.core import Rules

_rules: dict[str, Rules] = {}
_GAME_ID = re.compile(r"[a-z][a-z0-9-]{0,40}", re.ASCII)  # anything else names no package


def register(rules: Rules) -> Rules:
    """Called by each game package at import (and by the bot for games it adds at run time)."""
    _rules[rules.id] = rules
    return rules


def unregister(game_id: str) -> None:
    """Forget a game registered at run time (a test's fake game)."""
    _rules.pop(game_id, None)


def _import(package: str) -> None:
    try:
        importlib.import_module(package)
    except ModuleNotFoundError as exc:  # a game not built yet is simply absent
        if exc.name is None or not (package == exc.name or package.startswith(exc.name + ".")):
            raise


def get(game_id: str) -> Rules:
    if game_id not in _rules and _GAME_ID.fullmatch(game_id):
        _import("engine.games." + game_id.replace("-", "_"))
    try:
        return _rules[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}") from None


def all() -> list[Rules]:  # noqa: A001 - the contract's name
    """Every game package under `engine.games`, plus games registered at run time, by id."""
    import engine.games

    for module in pkgutil.iter_modules(engine.games.__path__):
        if module.ispkg:
            _import(f"engine.games.{module.name}")
    return [_rules[g] for g in sorted(_rules)]
