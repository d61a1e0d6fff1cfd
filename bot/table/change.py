"""A change to a game, as the parts that made it report it, and what publishing it produced.

Every change — a move, an undo, AI moves, a stand-in turn, a start, a resignation — is one
frozen `Change` handed to `Publisher.publish`; the after-change steps read it and build the
`Published` replies, each step returning a new value rather than editing the last."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.replies import Reply, User
from bot.table.shared import Loaded
from engine import Action, Event

ChangeKind = Literal["start", "move", "undo", "resign", "timeout", "resume"]


@dataclass(frozen=True)
class Change:
    """What happened to `loaded` (already stored: `loaded.record` is the stored version)."""

    loaded: Loaded
    kind: ChangeKind
    events: tuple[Event, ...] = ()
    #: why this message (a stand-in played, moves resumed after a restart…), its first line
    note: str | None = None
    #: seats that were waiting before the change: named again, not pinged again
    already_pinged: frozenset[str] = frozenset()
    #: the private confirmation for the person who acted
    ack: Reply | None = None
    #: a human's move or undo: who and what
    user: User | None = None
    seat: str | None = None
    action: Action | None = None
    #: the game's version right after the human's own commit (AI moves may follow it)
    own_version: int | None = None
    #: the state before a move the game declares undoable (for the Undo offer)
    before: Any = None
    #: draw the board even if the game's UI says nothing on it changed
    board_image: bool = False


@dataclass(frozen=True)
class Published:
    """The replies a change produced, in the order they go out: the actor's confirmation, the
    channel's turn message, DMs of hands, then copies (followers)."""

    ack: Reply | None = None
    board: Reply | None = None
    dms: tuple[Reply, ...] = ()
    copies: tuple[Reply, ...] = field(default_factory=tuple)

    def with_(self, **changes: Any) -> Published:
        return replace(self, **changes)

    def replies(self) -> list[Reply]:
        head = [r for r in (self.ack, self.board) if r is not None]
        return head + list(self.dms) + list(self.copies)
