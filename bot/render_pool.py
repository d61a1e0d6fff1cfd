"""A pool of render processes: boards and hands drawn off the event loop and off the GIL.

Drawing and encoding a board is tens of milliseconds of Python and Pillow work. In threads it
holds the GIL, so when many channels move at once every render queues behind one core and the
event loop (acks, autocomplete, refusals) waits with them. Here each worker is a separate
process fed plain data (`RenderJob`: game id, which image, view, names, language, seat,
events), which looks the renderer up in its own registry and answers PNG bytes.

- Workers are started with `spawn` (no fork of a process running an event loop and threads)
  and warmed (imports and one board per game) before they take work.
- Turn messages (`urgent`) are served before images someone asked to look at, and those
  before the memories of a finished game (`MemoryRender`: its summary and timelapse, seconds
  of CPU each), which never hold more than `memory_slots` workers at once so that turns keep
  flowing on the others, and have a time limit that grows with their frames.
- A worker that dies is replaced and the render tried once more on another; then the caller
  gets `RenderUnavailable` and sends its message without the image (the move is committed).
- A worker reads its jobs from a pipe to the bot: when the bot is gone, the pipe ends and the
  worker exits, so no render process outlives the bot, even one that was killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Literal

from bot import games
from bot.games import GameSpec
from bot.i18n import LANGUAGES, Translator

log = logging.getLogger("passepartout.render")

#: a render taking longer than this is stuck: its worker is killed and replaced
RENDER_TIMEOUT = 30.0
#: a worker must import and warm up within this (a loaded machine is slow, not broken)
WARM_TIMEOUT = 120.0
#: a game-end memory's time limit: this much, plus MEMORY_FRAME_SECONDS per frame it may draw
MEMORY_TIMEOUT = 60.0
MEMORY_FRAME_SECONDS = 0.5
#: one memory render at a time per this many workers (at least one per pool)
WORKERS_PER_MEMORY = 4
#: workers dying before they are ready this many times in a row: the pool gives up
MAX_START_FAILURES = 3

ImageKind = Literal["board", "hand"]


class RenderUnavailable(Exception):
    """No image this time: the workers died (twice) or the render got stuck."""


class RenderFailed(RuntimeError):
    """The renderer itself raised in a worker (a bug, as it would be in-process)."""


@dataclass(frozen=True)
class RenderJob:
    """One image to draw, as plain data a worker process can receive."""

    game_id: str
    image: ImageKind
    view: Any
    names: dict[str, str]
    lang: str
    seat: str | None = None
    events: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class MemoryRender:
    """A game-end memory to draw in a worker: `render(kind, job)`, a module-level function
    (pickled by name: `bot.table.memories.render_memory`, which this module does not import),
    of `job` (plain values). `frames` bounds how many boards it draws, which sets its time
    limit (`memory_timeout`)."""

    render: Callable[[str, Any], bytes]
    kind: str
    job: Any
    frames: int = 1

    @property
    def game_id(self) -> str:
        return str(self.job.game_id)

    @property
    def image(self) -> str:
        return self.kind


def memory_timeout(frames: int) -> float:
    """How long a memory of `frames` boards may take before its worker counts as stuck."""
    return MEMORY_TIMEOUT + MEMORY_FRAME_SECONDS * max(1, frames)


def perform(job: RenderJob | MemoryRender) -> bytes:
    """What a worker does with one job: a board or hand PNG, or a game's memory."""
    if isinstance(job, MemoryRender):
        return job.render(job.kind, job.job)
    return draw(job)


def draw(job: RenderJob, spec: GameSpec | None = None, translator: Translator | None = None) -> bytes:
    """The PNG for `job`. Workers look the game up themselves; in-process callers pass the spec
    and translator they hold (a test's swapped renderer)."""
    spec = spec or _registered(job.game_id)
    t = translator or spec.ui.translator(job.lang)
    if job.image == "hand":
        if job.seat is None:
            raise ValueError("a hand image needs its seat")
        return spec.renderer.render_hand(job.view, job.seat, names=job.names, lang=job.lang, translator=t)
    return spec.renderer.render_board(job.view, names=job.names, lang=job.lang, events=job.events or [],
                                      translator=t)


@functools.cache
def _registered(game_id: str) -> GameSpec:
    """A game of the registry, built alone (a worker drawing one game imports only that one)."""
    line = next((line for line in games.GAMES if line.id == game_id), None)
    spec = line.build() if line is not None else None
    if spec is None:
        raise KeyError(f"unknown game {game_id!r}")
    return spec


def poolable(spec: GameSpec) -> bool:
    """Whether a worker would draw with this very spec: a game of the registry, not one a test
    registered or swapped at run time (workers never see those)."""
    return games._built().get(spec.id) is spec


#: seeded moves played before the warm-up's second board of a game: far enough into a game
#: that its per-turn pieces (claimed routes, travel lines, last-move texts) are drawn once
WARM_MOVES = 24


def _warm_views(spec: GameSpec) -> list[tuple[Any, list[dict[str, Any]], Any, str]]:
    """(public view, events, a private view, its seat) of a fresh game and of one a few
    seeded random moves in, for the warm-up."""
    import random

    rules = spec.rules
    seats = [f"p{i + 1}" for i in range(max(rules.min_players, min(4, rules.max_players)))]
    state = rules.new_game(seats, 1, {})
    out: list[tuple[Any, list[dict[str, Any]], Any, str]] = [
        (rules.view(state, None), [], rules.view(state, seats[0]), seats[0])]
    rng = random.Random(1)
    events: list[dict[str, Any]] = []
    for _ in range(WARM_MOVES):
        if rules.is_over(state):
            break
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    seat = seats[0] if rules.is_over(state) else rules.to_act(state)[0]
    out.append((rules.view(state, None), events, rules.view(state, seat), seat))
    return out


def _warm() -> Iterator[None]:
    """Import every game and draw one board of each, so the first real turn is not slow; the
    rest of the warm-up (`_warm_steps`) is returned, for the worker to run while idle."""
    for line in games.GAMES:
        try:
            spec = _registered(line.id)
        except KeyError:
            continue  # not offered yet (a layer missing)
        try:
            rules = spec.rules
            seats = [f"p{i + 1}" for i in range(rules.min_players)]
            state = rules.new_game(seats, 1, {})
            draw(RenderJob(spec.id, "board", rules.view(state, None), {s: s for s in seats}, "en"), spec)
        except Exception:  # a game that cannot draw a fresh board shows it on its first real render
            log.warning("render worker: warming %s failed", line.id, exc_info=True)
    return _warm_steps()


def _warm_steps() -> Iterator[None]:
    """The warm-up in small steps (one picture each): in every language of the catalogs, a
    fresh board, one a few moves in and a hand of every game, and a renderer's own pictures
    where it has a `warm(players)` (rails: every route sprite). Static layers, palettes,
    label and route pictures, text sprites and the band cache are per process and per
    language, and the first board of a game in a language drawn cold was most of the p95 of
    a busy bot (rails 38 ms instead of 20). About 6 s of CPU and 180 MB more than the first
    stage (9.6 s, 395 MB against 3.2 s, 213 MB on the loaded dev machine): so a worker
    says it is ready after the first stage and runs these between jobs (`_worker_main`)."""
    for line in games.GAMES:
        try:
            spec = _registered(line.id)
        except KeyError:
            continue
        try:
            prepare = getattr(spec.renderer, "warm", None)
            if callable(prepare):
                yield from prepare(spec.rules.max_players)
            views = _warm_views(spec)
            for lang in LANGUAGES:
                t = spec.ui.translator(lang)
                for public, events, own, seat in views:
                    names = {s: s for s in public.get("seats", [])} if isinstance(public, dict) else {}
                    draw(RenderJob(spec.id, "board", public, names, lang, events=events), spec, t)
                    yield
                    draw(RenderJob(spec.id, "hand", own, names, lang, seat=seat), spec, t)
                    yield
        except Exception:
            log.warning("render worker: warming %s failed", line.id, exc_info=True)


def _worker_main(conn: Connection, warm: bool) -> None:
    """A render process: warm up, say ready, then draw jobs until the bot closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the bot, which then stops us
    steps = _warm() if warm else iter(())
    conn.send(("ready", os.getpid()))
    while True:
        try:
            for _ in steps:  # the rest of the warm-up, a step at a time while no job waits
                if conn.poll(0):
                    break
            job = conn.recv()
        except (EOFError, OSError):
            return  # the bot is gone
        except Exception as exc:  # a job that does not unpickle here
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
        if job is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", perform(job))
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(reply)


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection


@dataclass
class _Waiters:
    """Who waits for a free worker: turn messages first, then the images people asked for,
    then game memories (only when `memory` says one may start)."""

    urgent: deque[asyncio.Future[_Worker]] = field(default_factory=deque)
    side: deque[asyncio.Future[_Worker]] = field(default_factory=deque)
    memories: deque[asyncio.Future[_Worker]] = field(default_factory=deque)

    def first(self, memory: bool = True) -> tuple[asyncio.Future[_Worker], bool] | None:
        """The next live waiter, and whether it is a memory's."""
        queues = (self.urgent, self.side, self.memories) if memory else (self.urgent, self.side)
        for queue in queues:
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    return waiter, queue is self.memories
        return None


class RenderPool:
    """`processes` render workers behind a three-level queue (see the module's docstring)."""

    def __init__(self, processes: int, *, timeout: float = RENDER_TIMEOUT, warm: bool = True) -> None:
        if processes < 1:
            raise ValueError("a render pool needs at least one process")
        self.processes = processes
        self.timeout = timeout
        self.warm = warm
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: set[_Worker] = set()
        self._idle: list[_Worker] = []
        self._waiters = _Waiters()
        self._tasks: set[asyncio.Task[None]] = set()
        self._started = False
        self._closed = False
        self._start_failures = 0
        self._warmed = 0  # workers that said they are ready (replacements included)
        self._all_ready: asyncio.Event | None = None
        #: memory renders holding a worker now, and how many may at once
        self._memories_running = 0
        self.memory_slots = max(1, processes // WORKERS_PER_MEMORY)
        self.replaced = 0  # workers that died or got stuck and were replaced

    @property
    def usable(self) -> bool:
        """False once closed, or when workers keep dying before they are ready (then the
        service renders in-process, as without a pool)."""
        return not self._closed and self._start_failures < MAX_START_FAILURES

    def pids(self) -> list[int]:
        """The worker processes now running (tests check none is left behind)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def start(self) -> None:
        """Start every worker; they warm up in the background (see `ready`)."""
        if self._started or self._closed:
            return
        self._started = True
        self._all_ready = asyncio.Event()
        for _ in range(self.processes):
            self._spawn()

    async def ready(self) -> None:
        """Wait until every worker is warm (benchmarks time warm workers only)."""
        await self.start()
        assert self._all_ready is not None
        if self.usable:
            await self._all_ready.wait()

    async def render(self, job: RenderJob | MemoryRender, *, urgent: bool = True) -> bytes:
        """PNG bytes for `job` from a worker; `urgent` (a turn message) goes before the rest.
        A `MemoryRender` (PNG or GIF bytes) goes after everything else, `urgent` or not.
        Raises `RenderUnavailable` when no image can be had, `RenderFailed` when the renderer
        raised."""
        await self.start()
        memory = isinstance(job, MemoryRender)
        timeout = memory_timeout(job.frames) if isinstance(job, MemoryRender) else self.timeout
        for _ in range(2):  # a worker that died gets one retry on another
            worker = await (self._take_for_memory() if memory else self._take(urgent))
            exchange = asyncio.create_task(self._exchange(worker, job, timeout))
            if memory:
                exchange.add_done_callback(lambda _: self._memory_done())
            self._keep(exchange)
            # a caller that gives up leaves the exchange to finish and free its worker
            status, payload = await asyncio.shield(exchange)
            if status == "ok":
                data: bytes = payload
                return data
            if status == "error":
                raise RenderFailed(payload)
            if status == "timeout":
                break
        raise RenderUnavailable(f"no {job.image} image for {job.game_id}")

    async def _take_for_memory(self) -> _Worker:
        """A worker for a memory: an idle one if a memory slot is free, else wait behind
        every other render (`_give` hands it one when both a worker and a slot are free)."""
        if self._idle and self._memories_running < self.memory_slots:
            self._memories_running += 1
            return self._idle.pop()
        if not self.usable:
            raise RenderUnavailable("the render pool is closed")
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiters.memories.append(waiter)
        try:
            return await waiter  # `_give` counted it in `_memories_running`
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._memory_done()
                self._give(waiter.result())
            raise

    def _memory_done(self) -> None:
        """A memory render ended (its worker freed or replaced): another may start on an
        idle worker (idle workers mean nobody else is waiting)."""
        self._memories_running -= 1
        if self._idle and not self._closed:
            found = self._waiters.first(memory=self._memories_running < self.memory_slots)
            if found is not None:
                waiter, memory = found
                self._memories_running += memory
                waiter.set_result(self._idle.pop())

    async def close(self) -> None:
        """Stop every worker and wait for them to exit; waiting callers get `RenderUnavailable`."""
        if self._closed:
            return
        self._closed = True
        while (found := self._waiters.first()) is not None:
            found[0].set_exception(RenderUnavailable("the render pool is closed"))
        idle = list(self._idle)
        busy = [w for w in self._workers if w not in idle]  # drawing or warming up: stopped at once
        self._workers.clear()
        self._idle.clear()
        if self._all_ready is not None:
            self._all_ready.set()
        if idle or busy:
            await asyncio.to_thread(_stop, idle, busy)
        # answers still awaited end now (their workers are gone), as do their tasks
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for worker in idle + busy:
            worker.conn.close()

    # -- workers ----------------------------------------------------------------------
    def _spawn(self) -> None:
        """Start one worker (it joins the idle list once warm); a system that cannot start
        processes (out of memory or file descriptors) counts as a start failure."""
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(target=_worker_main, args=(child, self.warm), daemon=True,
                                    name="passepartout-render")
        try:
            process.start()
        except OSError:
            parent.close()
            child.close()
            self._start_failures += 1
            log.exception("cannot start a render worker (%d in a row)", self._start_failures)
            if not self.usable:
                self._give_up()
            return
        child.close()  # ours closes with the worker's end: a dead worker reads as end of file
        worker = _Worker(process, parent)
        self._workers.add(worker)
        self._keep(asyncio.create_task(self._welcome(worker)))

    async def _welcome(self, worker: _Worker) -> None:
        """Hand a new worker out once it says it is warm; replace one that dies first."""
        try:
            await _answer(worker, WARM_TIMEOUT)
        except (EOFError, OSError):  # TimeoutError included: it is an OSError
            if self._closed:
                return
            self._start_failures += 1
            log.error("a render worker failed to start (%d in a row)", self._start_failures)
            self._retire(worker)
            if self.usable:
                self._spawn()
            else:
                self._give_up()
            return
        self._start_failures = 0
        self._warmed += 1
        self._give(worker)
        if self._all_ready is not None and self._warmed >= self.processes:
            self._all_ready.set()

    def _give_up(self) -> None:
        """Workers cannot start: wake everyone waiting (the service renders in-process)."""
        while (found := self._waiters.first()) is not None:
            found[0].set_exception(RenderUnavailable("render workers cannot start"))
        if self._all_ready is not None:
            self._all_ready.set()

    async def _take(self, urgent: bool) -> _Worker:
        if self._idle:
            return self._idle.pop()
        if not self.usable:
            raise RenderUnavailable("the render pool is closed")
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        (self._waiters.urgent if urgent else self._waiters.side).append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._give(waiter.result())  # handed to us just as we gave up: pass it on
            raise

    def _give(self, worker: _Worker) -> None:
        """A free worker goes to the first waiter (urgent ones first), else back to the idle list."""
        if self._closed or worker not in self._workers:
            return
        found = self._waiters.first(memory=self._memories_running < self.memory_slots)
        if found is not None:
            waiter, memory = found
            self._memories_running += memory
            waiter.set_result(worker)
        else:
            self._idle.append(worker)

    async def _exchange(self, worker: _Worker, job: RenderJob | MemoryRender, timeout: float) -> tuple[str, Any]:
        """One job on one worker; the worker is freed, or replaced if it died or got stuck."""
        try:
            worker.conn.send(job)  # a view is a few KB: the idle worker's pipe takes it at once
        except (EOFError, OSError):
            if not self._closed:
                log.warning("a render worker died: replacing it")
                self._replace(worker)
            return ("died", None)
        except Exception as exc:  # the job did not pickle: nothing was sent
            self._give(worker)
            return ("error", f"{type(exc).__name__}: {exc}")
        try:
            reply: tuple[str, Any] = await _answer(worker, timeout)
        except (EOFError, OSError) as exc:  # TimeoutError is an OSError too
            if self._closed:
                return ("died", None)  # stopped by `close`
            if isinstance(exc, TimeoutError):
                log.error("a render of %s %s took over %.0f s: its worker is replaced", job.game_id, job.image,
                          timeout)
                self._replace(worker)
                return ("timeout", None)
            log.warning("a render worker died drawing %s %s: replacing it", job.game_id, job.image)
            self._replace(worker)
            return ("died", None)
        self._give(worker)
        return reply

    def _replace(self, worker: _Worker) -> None:
        self._retire(worker)
        self.replaced += 1
        if not self._closed:
            self._spawn()

    def _retire(self, worker: _Worker) -> None:
        self._workers.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        self._keep(asyncio.create_task(asyncio.to_thread(worker.process.join, 5)))

    def _keep(self, task: asyncio.Task[Any]) -> None:
        """Hold a reference to a background task until it ends."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _answer(worker: _Worker, timeout: float) -> Any:
    """The worker's next message, read on the event loop when its pipe turns readable (no
    thread, so no GIL hand-offs per render); EOFError if it died, TimeoutError if it is stuck."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Any] = loop.create_future()
    fd = worker.conn.fileno()

    def readable() -> None:
        if answer.done():
            return
        try:  # the worker writes a whole message at once: the rest follows straight away
            answer.set_result(worker.conn.recv())
        except Exception as exc:
            answer.set_exception(exc)

    loop.add_reader(fd, readable)
    try:
        return await asyncio.wait_for(answer, timeout)
    finally:
        loop.remove_reader(fd)


def _stop(idle: list[_Worker], busy: list[_Worker]) -> None:
    """Ask idle workers to exit and terminate busy ones (a render has no side effects), then
    make sure each is gone (blocking: run in a thread)."""
    for worker in idle:
        with contextlib.suppress(OSError):  # already gone
            worker.conn.send(None)
    for worker in busy:
        worker.process.terminate()
    for worker in idle + busy:
        worker.process.join(5)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(5)


def pool_for(processes: int) -> RenderPool | None:
    """The pool a `RENDER_PROCESSES` setting asks for (0: none, render in threads)."""
    return RenderPool(processes) if processes > 0 else None


__all__ = ["MemoryRender", "RenderFailed", "RenderJob", "RenderPool", "RenderUnavailable", "draw",
           "memory_timeout", "perform", "pool_for", "poolable"]
