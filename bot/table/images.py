"""`Images`: the pictures of the table, drawn off the event loop — in the render pool when
there is one and it has the game's own renderer, else in a thread — with a small cache for
the boards and hands people ask to see."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bot.games import GameSpec
from bot.i18n import Translator
from bot.images.cache import RenderCache
from bot.images.pool import RenderJob, RenderPool, RenderUnavailable, draw, poolable
from bot.table.shared import RENDER_CACHE_BYTES, Loaded

log = logging.getLogger("passepartout.service")


class Images:
    def __init__(self, *, render_in_thread: bool = True, render_pool: RenderPool | None = None) -> None:
        self.render_in_thread = render_in_thread
        #: render processes (started and closed by the adapter that made them); None: threads
        self.render_pool = render_pool
        self.cache = RenderCache(RENDER_CACHE_BYTES)
        # renders someone asked to look at (status, hand) queue here, one at a time, so they
        # never crowd out the renders of moves
        self.side_renders = asyncio.Semaphore(1)

    async def image(self, loaded: Loaded, job: RenderJob, t: Translator,
                    key: tuple[Any, ...] | None = None) -> bytes | None:
        """The PNG for `job`, or None when no image can be had (the message goes without it:
        a move is committed by then). `key`: someone asked to see it (status, hand), so it is
        shared through the cache and queued behind the renders of moves."""
        try:
            if key is None:
                return await self.draw(loaded.spec, job, t, urgent=True)
            return await self._side_render(key, loaded.spec, job, t)
        except RenderUnavailable:
            log.warning("%s %s sent without its image", loaded.record.game_id, job.image, exc_info=True)
            return None

    async def _side_render(self, key: tuple[Any, ...], spec: GameSpec, job: RenderJob, t: Translator) -> bytes:
        async def make() -> bytes:
            async with self.side_renders:
                return await self.draw(spec, job, t, urgent=False)

        return await self.cache.get(key, make)

    async def draw(self, spec: GameSpec, job: RenderJob, t: Translator, *, urgent: bool) -> bytes:
        """In the render pool when it has this game's own renderer (its workers look it up
        themselves), else here in a thread with the spec in hand (a test's swapped renderer)."""
        pool = self.render_pool
        if pool is not None and pool.usable and poolable(spec):
            return await pool.render(job, urgent=urgent)
        return await self.run(draw, job, spec, t)

    async def run(self, fn: Callable[..., bytes], *args: Any, **kw: Any) -> bytes:
        """`fn(*args)` off the event loop (inline when the table renders in place: the tests)."""
        if self.render_in_thread:
            return await asyncio.to_thread(fn, *args, **kw)
        return fn(*args, **kw)
