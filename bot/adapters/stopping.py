"""SIGTERM and SIGINT as a request to stop cleanly, for the bot and the local table.

A service manager (systemd, Docker, Kubernetes) stops a process with SIGTERM; a person with
Ctrl-C (SIGINT). Either way the work in hand finishes (at most `GRACE_SECONDS`), nothing new
is started, and the store is closed, so SQLite folds its write-ahead log back into the
database and no `-wal` file is left; the exit status is 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

#: what the work in flight gets to finish after a stop was asked (the whole stop stays under 10 s)
GRACE_SECONDS = 6.0
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

T = TypeVar("T")


@contextlib.contextmanager
def stop_on_signals(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> Iterator[None]:
    """Call `callback` on the loop when SIGTERM or SIGINT arrives (instead of dying or raising
    KeyboardInterrupt somewhere in the middle of a handler)."""
    installed = []
    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signals outside the main thread
            loop.add_signal_handler(sig, callback)
            installed.append(sig)
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


class Stopped(Exception):
    """Raised out of a blocking wait for input when a stop was asked."""


class StopRequest:
    """For a program that waits for input in the main thread between pieces of async work (the
    local table): a stop signal at the prompt ends the wait at once (`Stopped`); during work,
    the work finishes first, and is cancelled if it takes longer than `grace` seconds."""

    def __init__(self, grace: float = GRACE_SECONDS) -> None:
        self.grace = grace
        self.requested = False
        self._waiting = False
        self._work: asyncio.Task[Any] | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopRequest:
        for sig in STOP_SIGNALS:
            self._previous[sig] = signal.signal(sig, self._on_signal)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        if self._waiting:
            raise Stopped
        work = self._work
        if work is not None:  # a signal handler may only hand work to the loop thread-safely
            work.get_loop().call_soon_threadsafe(self._cancel_later, work)

    def _cancel_later(self, work: asyncio.Task[Any]) -> None:
        work.get_loop().call_later(self.grace, work.cancel)

    @contextlib.contextmanager
    def waiting(self) -> Iterator[None]:
        """Around a blocking wait (input()): a stop signal there raises `Stopped`."""
        if self.requested:
            raise Stopped
        self._waiting = True
        try:
            yield
        finally:
            self._waiting = False

    async def bounded(self, work: Awaitable[T]) -> T:
        """Run `work`; a stop asked meanwhile lets it finish, within the grace period."""
        self._work = asyncio.current_task()
        try:
            return await work
        finally:
            self._work = None
