"""The thread a SQLite connection lives on. sqlite3 blocks, the event loop must not; and a
sqlite3 connection belongs to the thread that made it. So each connection of the SQLite
store (the writer's, the checkpointer's) gets a `StoreThread`, and every use of it is a call
sent there."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, TypeVar

T = TypeVar("T")


class StoreThread:
    """One thread that runs the calls it is sent, in order, and hands each result (or error)
    back to the caller's event loop: what `loop.run_in_executor` does with a one-worker
    executor, without a concurrent future and its locks in between (about 28 instead of 40 µs
    a call here, on a path every turn takes at least twice).

    A daemon: a store that is never closed does not keep the process alive (its connection
    then ends as in a crash, which SQLite's WAL survives)."""

    def __init__(self, name: str) -> None:
        self._calls: SimpleQueue[tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]] | None]
        self._calls = SimpleQueue()
        threading.Thread(target=self._serve, name=name, daemon=True).start()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(*args) on the thread, after every call sent before it. It runs even if the caller
        is cancelled meanwhile (a write must finish its transaction)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._calls.put((future, fn, args))
        return await future

    def stop(self) -> None:
        """End the thread once the calls already sent are done."""
        self._calls.put(None)

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            future, fn, args = call
            try:
                result = fn(*args)
            except BaseException as exc:  # handed to the caller, whatever it is
                _answer(future, _fail, exc)
            else:
                _answer(future, _settle, result)


def _answer(future: asyncio.Future[Any], how: Callable[[asyncio.Future[Any], Any], None], value: Any) -> None:
    """Settle `future` on its own loop (from the store's thread)."""
    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody is waiting any more
        future.get_loop().call_soon_threadsafe(how, future, value)


def _settle(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():  # not cancelled meanwhile
        future.set_result(result)


def _fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)
