"""The one game registry: one `GameSpec` per game, one line per game in `GAMES`.

The platform (table service, Discord adapter, local table, admin tools) and the tests
find games only here. Adding a game = its package in each layer (`engine/games/<pkg>`,
`render/<pkg>`, `bot/games/<pkg>`) plus one line below. A line whose packages are not
all there yet is skipped, so an engine written first is not offered to players.
"""

from __future__ import annotations

from bot.games.spec import GameLine, GameSpec, Policy, Renderer
from bot.gameui import GameUI
from engine import registry

#: the games, in the order players see them listed
GAMES: tuple[GameLine, ...] = (
    GameLine("detour", "detour"),
    GameLine("around-the-world", "around_the_world"),
    GameLine("rails-and-sails", "rails_and_sails"),
    GameLine("eighty-days", "eighty_days"),
)

_specs: dict[str, GameSpec] | None = None  # built on first use: importing a game loads fonts and data
#: games registered at run time (the tests' fake game); a test may swap an entry with
#: `monkeypatch.setitem(RUNTIME, id, dataclasses.replace(spec, ...))`, which wins over `GAMES`
RUNTIME: dict[str, GameSpec] = {}


def _built() -> dict[str, GameSpec]:
    global _specs
    if _specs is None:
        _specs = {spec.id: spec for line in GAMES if (spec := line.build()) is not None}
    return _specs


def specs() -> dict[str, GameSpec]:
    """Every complete game, by id, in listing order."""
    return {**_built(), **RUNTIME}


def get(game_id: str) -> GameSpec:
    try:
        return specs()[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}") from None


def by_group(group: str) -> GameSpec | None:
    """The game whose slash command group is `group`."""
    return next((s for s in specs().values() if s.ui.group == group), None)


def register(spec: GameSpec) -> GameSpec:
    """Add a game at run time (its rules also become visible to engine-only code)."""
    registry.register(spec.rules)
    RUNTIME[spec.id] = spec
    return spec


def unregister(game_id: str) -> None:
    RUNTIME.pop(game_id, None)
    registry.unregister(game_id)


# -- thin views kept for existing callers ------------------------------------------
def ui_for(game_id: str) -> GameUI:
    return get(game_id).ui


def available() -> dict[str, GameUI]:
    """The games offered to players: id -> UI."""
    return {game_id: spec.ui for game_id, spec in specs().items()}


__all__ = ["GAMES", "RUNTIME", "GameLine", "GameSpec", "Policy", "Renderer", "available", "by_group", "get", "register",
           "specs", "ui_for", "unregister"]
