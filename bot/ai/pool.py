"""`AIPool`: where AI seats decide. Plain data in (game id, the seat's view, its legal
actions), an action out; the worker looks the game's policy up in its own registry. A game a
test registered or swapped at run time (workers never see those) decides in a thread of the
bot's process. A decision that takes longer than the per-turn cap, or a worker that died,
falls back to the game's own policy in a thread, so an AI turn always ends."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Awaitable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any

from bot import games
from bot.ai.worker import decide, warm
from bot.games import GameSpec
from engine import Action, View

log = logging.getLogger("passepartout.ai")


def registered(spec: GameSpec) -> bool:
    """Whether a worker would decide with this very spec (not one a test swapped in)."""
    return games.specs().get(spec.id) is spec and spec.id not in games.RUNTIME


class AIPool:
    """`processes` worker processes (0: decisions in threads of this process)."""

    def __init__(self, processes: int = 0, *, turn_seconds: float = 10.0, hard_seconds: float | None = None) -> None:
        self.processes = processes
        #: the longest one decision may take in a worker before the game's own policy answers
        self.turn_seconds = turn_seconds
        #: a hard seat's CPU seconds of search per decision (None: each game's own budget)
        self.hard_seconds = hard_seconds
        self._executor: Executor | None = None

    def start(self) -> None:
        if self.processes > 0 and self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=self.processes, initializer=warm,
                                                 mp_context=multiprocessing.get_context("spawn"))

    async def choose(self, spec: GameSpec, view: View, seat: str, legal: list[Action], *,
                     level: str = "normal") -> Action:
        """The seat's move at `level` (`engine.ai.LEVELS`). A game a test swapped in plays its
        own policy; a decision past the cap, or a dead worker, gets the normal level's move."""
        if not registered(spec):
            return await asyncio.to_thread(spec.ai, view, seat, legal)
        executor = self._executor
        try:
            args = (spec.id, level, view, seat, legal, self.hard_seconds)
            call: Awaitable[Action] = (asyncio.get_running_loop().run_in_executor(executor, decide, *args)
                                       if executor is not None else asyncio.to_thread(decide, *args))
            return await asyncio.wait_for(call, self.turn_seconds)
        except TimeoutError:
            log.warning("an AI decision (%s, %s) took over %s s; the normal level decides", spec.id, level,
                        self.turn_seconds)
        except BrokenExecutor:
            log.warning("an AI worker died; starting new ones", exc_info=True)
            if executor is not None:
                self._restart(executor)
        return await asyncio.to_thread(decide, spec.id, "normal", view, seat, legal)

    def _restart(self, broken: Executor) -> None:
        broken.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        self.start()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def __repr__(self) -> str:
        state: Any = "threads" if self._executor is None else f"{self.processes} processes"
        return f"AIPool({state})"
