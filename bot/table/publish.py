"""`Publisher`: the one way a change to a game becomes messages. Every change goes through
`publish`, which runs the after-change steps in the order `bot.table.wiring` installed them
(the turn message, the Undo offer, memories, ratings, followers' copies …)."""

from __future__ import annotations

from bot.replies import Reply
from bot.table.change import Change, Published
from bot.table.hooks import Hooks


class Publisher:
    def __init__(self, hooks: Hooks) -> None:
        self.hooks = hooks

    async def publish(self, change: Change) -> list[Reply]:
        out = Published(ack=change.ack)
        for _name, step in self.hooks.after_change:
            out = await step(change, out)
        return out.replies()
