"""`GameSpec`: everything the platform needs to host one game, in one frozen value.

A game is four packages that never import each other sideways: the rules
(`engine.games.<pkg>`), the AI policy (a function of the seat's view only), the
renderer (`render.<pkg>`) and the presentation (`bot.games.<pkg>`: command group,
labels, catalogs). The spec ties them together under the game id, so the table
service, the adapters, the admin tools and the tests look a game up in one place.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.gameui import GameUI
from engine import Action, View
from engine.core import Rules

#: an AI policy: decides from the seat's view and its legal actions only, never the state
Policy = Callable[[View, str, list[Action]], Action]


class Renderer(Protocol):
    """What the platform calls on a game's renderer module (see `render/__init__.py`)."""

    def render_board(self, view: View, *, names: dict[str, str], **kw: Any) -> bytes: ...

    def render_hand(self, view: View, seat: str, *, names: dict[str, str], **kw: Any) -> bytes: ...


@dataclass(frozen=True)
class GameSpec:
    """One registered game. `docs` is the repository path of its page (None for a test game)."""

    id: str
    rules: Rules
    ai: Policy
    renderer: Renderer
    ui: GameUI
    catalogs: Path
    docs: str | None

    def __post_init__(self) -> None:
        # the pieces must agree on the id: a mix-up would show one game's texts over another's board
        if self.rules.id != self.id or self.ui.game_id != self.id:
            raise ValueError(f"game spec {self.id!r}: rules say {self.rules.id!r}, UI says {self.ui.game_id!r}")


@dataclass(frozen=True)
class GameLine:
    """One line of the registry: the game id and its package name in each layer.

    `ai` names the policy as "module:function"; by default the engine package's `choose`.
    """

    id: str
    package: str
    ai: str | None = None

    def build(self) -> GameSpec | None:
        """The complete spec, or None while a layer's package does not exist yet (an engine
        written before its renderer and UI is simply not offered to players)."""
        engine_pkg = _optional(f"engine.games.{self.package}")
        renderer = _optional(f"render.{self.package}")
        ui_pkg = _optional(f"bot.games.{self.package}")
        if engine_pkg is None or renderer is None or ui_pkg is None or not hasattr(ui_pkg, "UI"):
            return None
        module_name, _, function = (self.ai or f"engine.games.{self.package}:choose").partition(":")
        policy = getattr(importlib.import_module(module_name), function, None)
        if policy is None:
            return None
        ui: GameUI = ui_pkg.UI
        return GameSpec(id=self.id, rules=engine_pkg.RULES, ai=policy, renderer=renderer, ui=ui,
                        catalogs=ui.package_dir / "locales", docs=f"docs/games/{self.id}.md")


def _optional(module: str) -> Any:
    """The module, or None when it (or its parent package) does not exist; any other import
    error is a bug in an existing package and is raised."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module == exc.name or module.startswith(exc.name + ".")):
            return None
        raise
