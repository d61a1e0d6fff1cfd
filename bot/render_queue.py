"""The render pool's bookkeeping on the bot's side: a job and its outcome, the lines of jobs
waiting for a worker (by priority and home slot), and reading answers off a worker's pipe.

Kept apart from `bot.render_pool` (the processes, and what a worker does) to keep each short.
"""

from __future__ import annotations

import asyncio
import pickle
import struct
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.render_pool import MemoryRender, RenderJob

#: the priority of a job: turn messages, images someone asked for, game memories
URGENT, SIDE, MEMORY = 0, 1, 2


@dataclass(eq=False)
class Job:
    """A render handed to the pool. `home`: the slot of the worker that drew this table last
    (its caches hold the table's layers and bands), None for any. `done` is set to ("ok",
    bytes), ("error", text), or ("died" | "timeout" | "closed", None)."""

    job: RenderJob | MemoryRender
    level: int
    home: int | None
    timeout: float
    done: asyncio.Future[tuple[str, Any]]
    deaths: int = 0
    sent: bool = False


def first(queue: deque[Job]) -> Job | None:
    """The oldest job of `queue` whose caller still waits (given-up ones are dropped)."""
    while queue:
        item = queue.popleft()
        if not item.done.done():
            return item
    return None


@dataclass
class Waiters:
    """Jobs not sent yet: turn messages and asked-for images in a line per home slot (the last
    line: jobs with no home), game memories in one line."""

    urgent: list[deque[Job]]
    side: list[deque[Job]]
    memories: deque[Job] = field(default_factory=deque)

    @classmethod
    def of(cls, slots: int) -> Waiters:
        return cls([deque() for _ in range(slots + 1)], [deque() for _ in range(slots + 1)])

    def add(self, item: Job, *, front: bool = False) -> None:
        if item.level == MEMORY:
            queue = self.memories
        else:
            queue = (self.urgent if item.level == URGENT else self.side)[-1 if item.home is None else item.home]
        (queue.appendleft if front else queue.append)(item)

    def for_idle(self, slot: int, memory: bool) -> Job | None:
        """The next job for an idle worker: turns first, then asked-for images, each from its
        own line, else one without a home, else stolen from the longest other line (the worker
        would idle otherwise); then a memory if `memory` (a memory slot is free)."""
        for lines in (self.urgent, self.side):
            item = first(lines[slot]) or first(lines[-1])
            while item is None:
                others = [line for i, line in enumerate(lines[:-1]) if i != slot and line]
                if not others:
                    break
                item = first(max(others, key=len))
            if item is not None:
                return item
        return first(self.memories) if memory else None

    def drain(self) -> list[Job]:
        """Every job still waiting, removed."""
        items = [i for line in (*self.urgent, *self.side, self.memories) for i in line]
        for line in (*self.urgent, *self.side, self.memories):
            line.clear()
        return items


def settle(item: Job, outcome: tuple[str, Any]) -> None:
    if not item.done.done():
        item.done.set_result(outcome)


def frames(buffer: bytearray) -> list[Any]:
    """The whole messages at the start of `buffer`, taken out of it (a partial one stays).
    The framing is that of `multiprocessing.connection.Connection.send`, which the workers
    use: a signed 4-byte big-endian length, or -1 and an 8-byte length, then the pickle."""
    out: list[Any] = []
    pos = 0
    while len(buffer) - pos >= 4:
        (size,) = struct.unpack_from("!i", buffer, pos)
        head = 4
        if size == -1:
            if len(buffer) - pos < 12:
                break
            (size,) = struct.unpack_from("!Q", buffer, pos + 4)
            head = 12
        if len(buffer) - pos - head < size:
            break
        out.append(pickle.loads(buffer[pos + head:pos + head + size]))
        pos += head + size
    del buffer[:pos]
    return out


__all__ = ["MEMORY", "SIDE", "URGENT", "Job", "Waiters", "first", "frames", "settle"]
