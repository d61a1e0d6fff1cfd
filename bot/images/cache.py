"""Rendered images shared between requests: one render per key, however many ask at once.

`/game status` and `/game hand` can be called by anyone at any time; without this, 30
status calls render the same board 30 times and delay real moves. A key names what the
image depends on (game, version, language, seat), so an entry never goes stale: a new
version is a new key, and old ones fall out of the bounded LRU.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable


class RenderCache:
    """Images by key, holding at most `max_bytes` of PNG bytes (0: none kept, only shared
    while being made)."""

    def __init__(self, max_bytes: int = 16 << 20) -> None:
        self.max_bytes = max_bytes
        self._bytes = 0
        self._done: OrderedDict[Hashable, bytes] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[bytes]] = {}
        self.hits = 0
        self.misses = 0

    async def get(self, key: Hashable, make: Callable[[], Awaitable[bytes]]) -> bytes:
        """The cached image for `key`; else one call of `make()`, shared by concurrent callers."""
        if key in self._done:
            self.hits += 1
            self._done.move_to_end(key)
            return self._done[key]
        pending = self._pending.get(key)
        if pending is not None:
            self.hits += 1
            return await asyncio.shield(pending)
        self.misses += 1
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            data = await make()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters (if any) raise it, nobody else must
            raise
        finally:
            self._pending.pop(key, None)
        future.set_result(data)
        if len(data) <= self.max_bytes and key not in self._done:
            self._done[key] = data
            self._bytes += len(data)
            while self._bytes > self.max_bytes:
                self._bytes -= len(self._done.popitem(last=False)[1])
        return data
