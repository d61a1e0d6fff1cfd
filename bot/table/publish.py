"""`Publisher`: the one way a change to a game becomes messages. Every change goes through
`publish`, which runs the after-change steps in the order `bot.table.wiring` installed them
(the turn message, the Undo offer, memories, ratings, followers' copies …)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar

from bot.replies import Reply
from bot.table.change import Change, Published
from bot.table.hooks import Hooks

#: where the adapter handling this request takes a confirmation at once (before the board is
#: drawn); unset: the confirmation goes out with the other replies
early_replies: ContextVar[Callable[[Reply], Awaitable[None]] | None] = ContextVar("early_replies", default=None)


class Publisher:
    def __init__(self, hooks: Hooks) -> None:
        self.hooks = hooks

    async def publish(self, change: Change) -> list[Reply]:
        out = Published(ack=change.ack)
        for _name, step in self.hooks.after_change:
            out = await step(change, out)
        return out.replies()

    @staticmethod
    async def ack_first(change: Change, out: Published) -> Published:
        """The after-change step that sends the actor's confirmation right away, when the
        adapter can take it (the board is drawn after)."""
        send = early_replies.get()
        if send is None or out.ack is None:
            return out
        await send(out.ack)
        return out.with_(ack=None)
