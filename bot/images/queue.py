"""The render pool's bookkeeping on the bot's side: a job and its outcome, the lines of jobs
waiting for a worker (by priority and home slot), and reading answers off a worker's pipe.

Kept apart from `bot.images.pool` (the processes, and what a worker does) to keep each short.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import struct
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

#: the priority of a job: turn messages, images someone asked for, game memories
URGENT, SIDE, MEMORY = 0, 1, 2


class Drawable(Protocol):
    """What the pool reads of what it draws (`RenderJob`, `MemoryRender` of `bot.images.pool`,
    which imports this module)."""

    @property
    def game_id(self) -> str: ...

    @property
    def image(self) -> str: ...


@dataclass(eq=False)
class Job:
    """A render handed to the pool. `home`: the slot of the worker that drew this table last
    (its caches hold the table's layers and bands), None for any. `done` is set to ("ok",
    bytes), ("error", text), or ("died" | "timeout" | "closed", None)."""

    job: Drawable
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


#: bytes an inbox keeps between messages (a board is about 300 KB); it grows for a bigger one
#: (a memory's GIF) and goes back to this size once empty
INBOX = 1 << 20


class Inbox:
    """A worker's answers as they arrive, read straight into one buffer kept between them
    (no allocation per read) and unpickled from it. The framing is that of
    `multiprocessing.connection.Connection.send`, which the workers use: a signed 4-byte
    big-endian length (or -1, then an 8-byte length), then the pickle."""

    def __init__(self) -> None:
        self.data = bytearray(INBOX)
        self.filled = 0

    def read(self, fd: int) -> int:
        """One read of what the pipe `fd` holds (it is readable: this does not wait); 0 at its end."""
        if self.filled == len(self.data):
            self.data.extend(bytes(len(self.data)))
        with memoryview(self.data) as view, view[self.filled:] as free:
            count = os.readv(fd, [free])
        self.filled += count
        return count

    def messages(self) -> list[Any]:
        """The whole messages read so far, taken out (a partial one stays for the next reads)."""
        out: list[Any] = []
        pos = need = 0
        with memoryview(self.data) as view:
            while self.filled - pos >= 4:
                (size,) = struct.unpack_from("!i", view, pos)
                head = 4
                if size == -1:
                    if self.filled - pos < 12:
                        break
                    (size,) = struct.unpack_from("!Q", view, pos + 4)
                    head = 12
                if self.filled - pos - head < size:
                    need = head + size
                    break
                with view[pos + head:pos + head + size] as payload:
                    out.append(pickle.loads(payload))
                pos += head + size
        if pos:
            rest = self.filled - pos
            self.data[:rest] = self.data[pos:self.filled]
            self.filled = rest
            if not rest and len(self.data) > 4 * INBOX:
                self.data = bytearray(INBOX)
        if need > len(self.data):  # room for the whole of a big one (a memory's GIF)
            self.data.extend(bytes(need - len(self.data)))
        return out


__all__ = ["MEMORY", "SIDE", "URGENT", "Job", "Waiters", "Inbox", "first", "settle"]
