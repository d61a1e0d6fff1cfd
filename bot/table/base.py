"""`TableBase`: what every part of the table service stands on — the store, channel locks,
translators, rendering off the event loop, loading a game, and turning a `Refusal` into
a private reply in one place (`refusing`, `guarded`)."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from bot import games
from bot.gameui import GameUI
from bot.i18n import Translator, normalise_language
from bot.render_cache import RenderCache
from bot.render_pool import RenderJob, RenderPool, RenderUnavailable, draw, poolable
from bot.replies import Reply, User, Where
from bot.settings import Settings
from bot.store import GameRecord, Store, VersionConflict
from bot.table.shared import ASK_LIMIT, ASK_WINDOW, RENDER_CACHE_SIZE, Loaded, Refusal
from engine import IllegalAction

log = logging.getLogger("passepartout.service")

P = ParamSpec("P")
Base = TypeVar("Base", bound="TableBase")


def refusing(handler: Callable[Concatenate[Base, User, P], Coroutine[Any, Any, list[Reply]]]
             ) -> Callable[Concatenate[Base, User, P], Coroutine[Any, Any, list[Reply]]]:
    """A handler `(self, user, ...)` whose `Refusal` becomes the user's private reply, so
    handlers just raise (direct callers such as the tests get replies, not exceptions)."""
    @functools.wraps(handler)
    async def wrapper(self: Base, user: User, *args: P.args, **kw: P.kwargs) -> list[Reply]:
        try:
            return await handler(self, user, *args, **kw)
        except Refusal as r:
            return self.refused(user, r)

    return wrapper


class TableBase:
    """The shared state and helpers of the table service."""

    def __init__(self, store: Store, settings: Settings | None = None, *,
                 clock: Callable[[], float] = time.time,
                 render_in_thread: bool = True, render_pool: RenderPool | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.render_in_thread = render_in_thread
        #: render processes (started and closed by the adapter that made them); None: threads
        self.render_pool = render_pool
        # a channel's lock lives while someone holds or waits for it: no table of every channel ever seen
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.render_cache = RenderCache(RENDER_CACHE_SIZE)
        # renders someone asked to look at (status, hand) queue here, one at a time, so they
        # never crowd out the renders of moves
        self._side_renders = asyncio.Semaphore(1)
        self._asked: dict[int, list[float]] = {}

    # -- helpers --------------------------------------------------------------
    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _too_often(self, user: User) -> bool:
        """Whether `user` asked for a status/hand image more than ASK_LIMIT times in
        ASK_WINDOW seconds (real time; then they are asked to wait)."""
        now = time.monotonic()
        if len(self._asked) > 10_000:  # forget people who stopped asking
            self._asked = {u: ts for u, ts in self._asked.items() if ts and ts[-1] > now - ASK_WINDOW}
        recent = [t for t in self._asked.get(user.id, []) if t > now - ASK_WINDOW]
        if len(recent) >= ASK_LIMIT:
            self._asked[user.id] = recent
            return True
        self._asked[user.id] = recent + [now]
        return False

    async def _image(self, loaded: Loaded, job: RenderJob, t: Translator,
                     key: tuple[Any, ...] | None = None) -> bytes | None:
        """The PNG for `job`, or None when no image can be had (the message goes without it:
        a move is committed by then). `key`: someone asked to see it (status, hand), so it is
        shared through the cache and queued behind the renders of moves."""
        try:
            if key is None:
                return await self._draw(loaded, job, t, urgent=True)
            return await self._side_render(key, loaded, job, t)
        except RenderUnavailable:
            log.warning("%s %s sent without its image", loaded.record.game_id, job.image, exc_info=True)
            return None

    async def _side_render(self, key: tuple[Any, ...], loaded: Loaded, job: RenderJob, t: Translator) -> bytes:
        """A render someone asked to see: cached by `key`, and queued behind other such renders."""
        async def make() -> bytes:
            async with self._side_renders:
                return await self._draw(loaded, job, t, urgent=False)

        return await self.render_cache.get(key, make)

    async def _draw(self, loaded: Loaded, job: RenderJob, t: Translator, *, urgent: bool) -> bytes:
        """In the render pool when it has this game's own renderer (its workers look it up
        themselves), else here in a thread with the spec in hand (a test's swapped renderer)."""
        pool = self.render_pool
        if pool is not None and pool.usable and poolable(loaded.spec):
            return await pool.render(job, urgent=urgent)
        return await self._render(draw, job, loaded.spec, t)

    def t(self, lang: str | None, ui: GameUI | None = None) -> Translator:
        lang = normalise_language(lang)
        return ui.translator(lang) if ui else Translator(lang)

    def user_t(self, user: User, ui: GameUI | None = None) -> Translator:
        return self.t(user.locale, ui)

    def game_t(self, record: GameRecord, ui: GameUI | None = None) -> Translator:
        return self.t(record.settings.get("language"), ui)

    def private(self, user: User, text: str, **kw: Any) -> Reply:
        return Reply("ephemeral", text, user_id=user.id, **kw)

    def refuse(self, user: User, key: str, ui: GameUI | None = None, **params: Any) -> list[Reply]:
        return [self.private(user, "⚠️ " + self.user_t(user, ui)(key, **params))]

    def refused(self, user: User, refusal: Refusal) -> list[Reply]:
        """The private reply for a `Refusal` (with its buttons, if it brought any)."""
        replies = self.refuse(user, refusal.key, refusal.ui, **refusal.params)
        if refusal.rows is not None:
            replies[0].rows = refusal.rows
        return replies

    async def _render(self, fn: Callable[..., bytes], *args: Any, **kw: Any) -> bytes:
        if self.render_in_thread:
            return await asyncio.to_thread(fn, *args, **kw)
        return fn(*args, **kw)

    def _load(self, record: GameRecord) -> Loaded:
        spec = games.get(record.game_id)
        return Loaded(record, spec, spec.rules.load(record.state) if record.state else None)

    async def _active(self, where: Where, status: str) -> GameRecord:
        """The channel's game, which must be in `status` ("lobby" or "running")."""
        record = await self.store.active_game(where.channel_id)
        if record is None:
            raise Refusal("error.no_game")
        if record.status != status:
            raise Refusal("error.not_started" if status == "running" else "error.already_started")
        return record

    async def _running(self, user: User, where: Where) -> Loaded:
        return self._load(await self._active(where, "running"))

    def _deadlines(self, record: GameRecord) -> tuple[float | None, float | None]:
        now = self.clock()
        remind_h = float(record.settings.get("reminder_hours", self.settings.reminder_hours))
        timeout_h = float(record.settings.get("timeout_hours", self.settings.timeout_hours))
        remind = now + remind_h * 3600 if remind_h > 0 else None
        timeout = now + timeout_h * 3600 if timeout_h > 0 else None
        return remind, timeout

    async def _save_lobby(self, record: GameRecord) -> None:
        """Save a lobby (or a seating change) if nobody changed it meanwhile; else refuse."""
        try:
            await self.store.save_lobby(record, expected_version=record.version)
        except VersionConflict:
            raise Refusal("error.conflict") from None

    def _lobby_expiry(self) -> float | None:
        """When a lobby nobody touches closes by itself (None: never)."""
        hours = self.settings.lobby_idle_hours
        return self.clock() + hours * 3600 if hours > 0 else None

    def _illegal_text(self, exc: IllegalAction, ui: GameUI | None, user: User) -> str:
        t = self.user_t(user, ui)
        if ui is not None:
            return ui.illegal_text(exc.code, exc.message, exc.params, t)
        key = f"illegal.{exc.code}"
        return t(key, **exc.params) if t.has(key) else exc.message

    # -- safety net ---------------------------------------------------------------
    async def guarded(self, user: User, call: Awaitable[list[Reply]]) -> list[Reply]:
        """Run a handler; any unexpected error becomes a private apology, never a traceback."""
        try:
            return await call
        except Refusal as r:
            return self.refused(user, r)
        except Exception:
            log.exception("handler failed")
            return self.refuse(user, "error.internal")

