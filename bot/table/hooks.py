"""The one registry features plug into. A feature is a plain object whose `install(hooks)`
adds its components, after-change steps, lobby extras, event lines and tick jobs here; the
parts of the table call what is registered, in the order `bot.table.wiring` installed it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import Translator
from bot.replies import Button, Reply, User, Where
from bot.store import GameRecord
from bot.table.change import Change, Published
from bot.table.ids import Press
from bot.table.shared import Loaded

#: an after-change step: the change and what earlier steps made -> what it makes of it
Step = Callable[[Change, Published], Awaitable[Published]]
#: a button or select press of a kind a feature owns
ComponentHandler = Callable[[User, Where, Press], Awaitable[list[Reply]]]
#: a line of the lobby's note (None: nothing to say)
LobbyNote = Callable[[GameRecord, Translator], str | None]
LobbyButton = Callable[[GameRecord, Translator], Button | None]
#: changes a lobby just before it is saved (e.g. keeps an invitation's deadline)
LobbySaving = Callable[[GameRecord], None]
#: answers a join or start press in the lobby instead of the usual one (None: not mine); runs
#: under the channel lock
LobbyTakeover = Callable[[User, Where, GameRecord], Awaitable[list[Reply] | None]]
#: a board reply as a feature wants it (e.g. the Rematch button on a finished game's board)
BoardDecorator = Callable[[Loaded, Translator, Reply], Reply]
EventLine = Callable[[Loaded, dict[str, Any], Translator], str | None]
TickJob = Callable[[], Awaitable[list[Reply]]]


@dataclass
class Hooks:
    components: dict[str, ComponentHandler] = field(default_factory=dict)
    after_change: list[tuple[str, Step]] = field(default_factory=list)
    lobby_notes: list[LobbyNote] = field(default_factory=list)
    lobby_buttons: list[LobbyButton] = field(default_factory=list)
    lobby_saving: list[LobbySaving] = field(default_factory=list)
    on_join: list[LobbyTakeover] = field(default_factory=list)
    on_start: list[LobbyTakeover] = field(default_factory=list)
    board: list[BoardDecorator] = field(default_factory=list)
    event_lines: dict[str, EventLine] = field(default_factory=dict)
    #: lines on top of `/game log` (e.g. "played with hints")
    log_notes: list[LobbyNote] = field(default_factory=list)
    tick_jobs: list[tuple[str, TickJob]] = field(default_factory=list)

    def component(self, kind: str, handler: ComponentHandler) -> None:
        if kind in self.components:
            raise ValueError(f"two handlers for the component kind {kind!r}")
        self.components[kind] = handler

    def step(self, name: str, step: Step) -> None:
        self.after_change.append((name, step))

    def tick(self, name: str, job: TickJob) -> None:
        self.tick_jobs.append((name, job))

    def event_line(self, event_type: str, line: EventLine) -> None:
        self.event_lines[event_type] = line
