"""A pool of render processes: boards and hands drawn off the event loop and off the GIL.

Drawing and encoding a board is tens of milliseconds of Python and Pillow work. In threads it
holds the GIL, so when many channels move at once every render queues behind one core and the
event loop (acks, autocomplete, refusals) waits with them. Here each worker is a separate
process fed plain data (`RenderJob`: game id, which image, view, names, language, seat,
events), which looks the renderer up in its own registry and answers PNG bytes.

- Workers are forked from a template (`multiprocessing`'s forkserver, which imports
  `bot.images.template`): a fresh process, never the bot running its event loop and threads,
  that imports every game and warms the caches once. Every worker, a replacement too, starts
  warm and shares the template's static layers, fonts and code copy-on-write instead of
  holding its own copies (where there is no forkserver, workers are spawned and warm up
  themselves).
- Turn messages (`urgent`) are served before images someone asked to look at, and those
  before the memories of a finished game (`MemoryRender`: its summary and timelapse, seconds
  of CPU each), which never hold more than `memory_slots` workers at once so that turns keep
  flowing on the others, and have a time limit that grows with their frames.
- A table's renders go to one worker (its slot: `RenderJob.table` modulo the workers), so the
  per-process caches of its layers and bands serve its next board; a worker with nothing of
  its own to do takes another's waiting jobs. A worker drawing a turn has the next turn of its
  slot waiting in its pipe (`DEPTH`), so it never waits for a busy event loop between turns.
- A worker that dies is replaced and the render tried once more on another; then the caller
  gets `RenderUnavailable` and sends its message without the image (the move is committed).
- A worker reads its jobs from a pipe to the bot: when the bot is gone, the pipe ends and the
  worker exits, so no render process outlives the bot, even one that was killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import multiprocessing
import multiprocessing.context
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Literal

from bot import games, memory
from bot.games import GameSpec
from bot.i18n import LANGUAGES, Translator
from bot.images.queue import MEMORY, SIDE, URGENT, Inbox, Job, Waiters, first, settle
from render import budget

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

#: "focus": the close-up of the last move a phone can read, beside the board of big-map games
#: (`render.focus`; drawn by the renderer's `render_focus`, see `has_focus`)
ImageKind = Literal["board", "hand", "focus"]


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
    #: the game's primary key: its renders go to one worker, whose caches hold its last board
    table: int | None = None


@dataclass(frozen=True)
class MemoryRender:
    """A game-end memory to draw in a worker: `render(kind, job)`, a module-level function
    (pickled by name: `bot.features.memories.render_memory`, which this module does not import),
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
    if spec is None:
        spec = _registered(job.game_id)
        t = translator or _translator(job.game_id, job.lang)
    else:
        t = translator or spec.ui.translator(job.lang)
    if job.image == "hand":
        if job.seat is None:
            raise ValueError("a hand image needs its seat")
        return spec.renderer.render_hand(job.view, job.seat, names=job.names, lang=job.lang, translator=t)
    if job.image == "focus":
        focus: Callable[..., bytes] | None = getattr(spec.renderer, "render_focus", None)
        if focus is None:
            raise ValueError(f"{job.game_id} has no focus view")
        return focus(job.view, names=job.names, lang=job.lang, events=job.events or [], translator=t)
    return spec.renderer.render_board(job.view, names=job.names, lang=job.lang, events=job.events or [],
                                      translator=t)


@functools.cache
def _translator(game_id: str, lang: str) -> Translator:
    """A worker's translator of a game and language, one for the process: the catalogs do not
    change, and renderers keep words looked up per translator (rails: the city names)."""
    return _registered(game_id).ui.translator(lang)


@functools.cache
def _registered(game_id: str) -> GameSpec:
    """A game of the registry, built alone (a worker drawing one game imports only that one)."""
    line = next((line for line in games.GAMES if line.id == game_id), None)
    spec = line.build() if line is not None else None
    if spec is None:
        raise KeyError(f"unknown game {game_id!r}")
    return spec


def has_focus(spec: GameSpec) -> bool:
    """Whether the game draws a focus view (`render_focus`): the big maps, whose whole board a
    phone shows too small to read."""
    return callable(getattr(spec.renderer, "render_focus", None))


def focus_wanted(spec: GameSpec, view: Any, events: list[dict[str, Any]]) -> bool:
    """Whether this change gets a focus view: the game draws one and the change touched a place
    on the map (a card drawn or a purchase has nothing to show closer than the board does)."""
    places = getattr(spec.renderer, "focus_places", None)
    return has_focus(spec) and callable(places) and bool(places(view, events))


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
    rest of the warm-up (`_warm_steps` in the first language) is returned, for the worker to
    run while idle."""
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
    return _then_forget(_warm_steps(FIRST_LANGUAGES, sprites=True))


#: the module the forkserver imports before it forks a worker: importing it warms the template
TEMPLATE = "bot.images.template"


def prepare_template() -> bool:
    """The whole warm-up (`_warm` and its steps, to the end), run once in the template the
    workers are forked from; then the freed heap is given back and what the template holds is
    frozen out of the cyclic collector (a collection in a worker writes into every object it
    walks, which would copy the shared pages). False if it failed (the workers warm up then)."""
    try:
        for _ in _warm():
            pass
    except Exception:  # a template that cannot warm leaves it to the workers
        log.warning("render template: the warm-up failed", exc_info=True)
        return False
    memory.trim()
    gc.freeze()
    return True


def _template_warm() -> bool:
    """Whether this worker was forked from a template that warmed up (`prepare_template`)."""
    return bool(getattr(sys.modules.get(TEMPLATE), "WARMED", False))


def _context(warm: bool) -> multiprocessing.context.SpawnContext | multiprocessing.context.ForkServerContext:
    """Workers forked from the (warmed, if `warm`) template where the system has a
    forkserver; spawned elsewhere. The forkserver is one per bot process and reads its preload
    when it starts: a later pool's workers warm up themselves if it was started cold."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([TEMPLATE] if warm else [])
    return context


def _then_forget(steps: Iterator[None]) -> Iterator[None]:
    """`steps`, then what their sample tables left in the caches (kept layers, inflated
    bands, sprites pasted last) is dropped: it pays for no real table (`render.budget.forget`)."""
    yield from steps
    budget.forget()


#: the languages a worker warms up in before any job; another language is warmed the first
#: time a job asks for it (its caches cost about 65 MB a worker: only languages in play pay)
FIRST_LANGUAGES = ("en",)


def _warm_steps(languages: tuple[str, ...], *, sprites: bool = False) -> Iterator[None]:
    """The warm-up in small steps (one picture each): in each of `languages`, a fresh board,
    one a few moves in (with its close-up, in the map games) and a hand of every game, and
    (`sprites`) a renderer's own pictures where it has a `warm(players)` (rails: every route
    sprite). Static layers, palettes, label and route pictures, text sprites and the band
    cache are per process and per language, and the first board of a game in a language
    drawn cold was most of the p95 of a busy bot (rails 38 ms instead of 20). Several seconds
    of CPU and tens of MB a language: so a worker says it is ready after the first stage and
    runs these between jobs (`_worker_main`)."""
    for line in games.GAMES:
        try:
            spec = _registered(line.id)
        except KeyError:
            continue
        try:
            prepare = getattr(spec.renderer, "warm", None)
            if sprites and callable(prepare):
                yield from prepare(spec.rules.max_players)
            views = _warm_views(spec)
            for lang in languages:
                t = _translator(line.id, lang)
                for public, events, own, seat in views:
                    names = {s: s for s in public.get("seats", [])} if isinstance(public, dict) else {}
                    draw(RenderJob(spec.id, "board", public, names, lang, events=events), spec, t)
                    yield
                    if has_focus(spec):  # its map and palette (`render.focus.focus_palette`)
                        draw(RenderJob(spec.id, "focus", public, names, lang, events=events), spec, t)
                        yield
                    draw(RenderJob(spec.id, "hand", own, names, lang, seat=seat), spec, t)
                    yield
        except Exception:
            log.warning("render worker: warming %s failed", line.id, exc_info=True)


def _worker_main(conn: Connection, warm: bool, cache_mb: float | None = None) -> None:
    """A render process: its caches bounded (`cache_mb`, `render.budget`), warm up, say ready,
    then draw jobs until the bot closes the pipe; idle a moment after drawing, it gives the
    freed memory back to the system (`bot.memory`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the bot, which then stops us
    if cache_mb is not None:
        budget.configure(cache_mb)
    pending: deque[Iterator[None]] = deque([_warm()] if warm and not _template_warm() else [])
    warmed = set(FIRST_LANGUAGES)
    conn.send(("ready", os.getpid()))
    drawn = True  # the first-stage warm-up
    while True:
        try:
            while pending and not conn.poll(0):  # the warm-ups, a step at a time while no job waits
                drawn = True
                if next(pending[0], _DONE) is _DONE:
                    pending.popleft()
            if drawn and not conn.poll(IDLE_BEFORE_TRIM):
                memory.trim()
                drawn = False
            job = conn.recv()
        except (EOFError, OSError):
            return  # the bot is gone
        except Exception as exc:  # a job that does not unpickle here
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
        if job is None:
            return
        lang = getattr(job, "lang", None)
        if warm and lang in LANGUAGES and lang not in warmed:  # a language in play: warm it too
            warmed.add(lang)
            pending.append(_warm_steps((lang,)))
        drawn = True
        try:
            reply: tuple[str, Any] = ("ok", perform(job))
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(reply)


_DONE = object()

#: a worker idle this long after drawing gives its freed memory back (a job arriving meanwhile
#: is taken at once; under a steady stream of jobs the trim waits for a pause)
IDLE_BEFORE_TRIM = 0.2

#: jobs a worker holds at once: the one it draws and, behind a turn, the next turn already in
#: its pipe, so it starts that one the moment it answers instead of waiting for the event loop
#: (busy with other channels under load) to read the answer and send more
DEPTH = 2


@dataclass(eq=False)
class _Worker:
    """A render process in slot `slot`; `jobs` were sent to it and are answered in order."""

    process: BaseProcess
    conn: Connection
    slot: int
    ready: bool = False
    jobs: deque[Job] = field(default_factory=deque)
    inbox: Inbox = field(default_factory=Inbox)
    timer: asyncio.TimerHandle | None = None


class RenderPool:
    """`processes` render workers, each in a fixed slot, behind per-slot queues of three
    priorities. A table's renders (`RenderJob.table`) go to the worker of its slot, whose
    per-process caches (rails: the claimed-routes layers, every board's deflated bands) hold
    its last board: drawn on whichever worker was free, every table was drawn cold on every
    worker. A worker with nothing of its own takes another's waiting work rather than idle;
    a worker drawing a turn gets the next turn of its slot in its pipe (`DEPTH`). See also
    the module's docstring."""

    def __init__(self, processes: int, *, timeout: float = RENDER_TIMEOUT, warm: bool = True,
                 cache_mb: float | None = None) -> None:
        if processes < 1:
            raise ValueError("a render pool needs at least one process")
        self.processes = processes
        self.cache_mb = cache_mb  # each worker's picture caches (`render.budget`); None: the default
        self.timeout = timeout
        self.warm = warm
        self._ctx = _context(warm)
        self._slots: list[_Worker | None] = [None] * processes
        self._waiters = Waiters.of(processes)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._started = False
        self._closed = False
        self._pumping = False
        self._again = False
        self._start_failures = 0
        self._warmed = 0  # workers that said they are ready (replacements included)
        self._all_ready: asyncio.Event | None = None
        #: memory renders on a worker now, and how many may be at once
        self._memories_running = 0
        self.memory_slots = max(1, processes // WORKERS_PER_MEMORY)
        self.replaced = 0  # workers that died or got stuck and were replaced

    @property
    def usable(self) -> bool:
        """False once closed, or when workers keep dying before they are ready (then the
        service renders in-process, as without a pool)."""
        return not self._closed and self._start_failures < MAX_START_FAILURES

    @property
    def _workers(self) -> list[_Worker]:
        return [w for w in self._slots if w is not None]

    def pids(self) -> list[int]:
        """The worker processes now running (tests check none is left behind)."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def start(self) -> None:
        """Start every worker; they warm up in the background (see `ready`)."""
        if self._started or self._closed:
            return
        self._started = True
        self._all_ready = asyncio.Event()
        for slot in range(self.processes):
            self._spawn(slot)

    async def ready(self) -> None:
        """Wait until every worker is warm (benchmarks time warm workers only)."""
        await self.start()
        assert self._all_ready is not None
        if self.usable:
            await self._all_ready.wait()

    def home(self, table: int | None) -> int | None:
        """The slot whose worker draws `table` (None: any)."""
        return None if table is None else table % self.processes

    async def render(self, job: RenderJob | MemoryRender, *, urgent: bool = True) -> bytes:
        """PNG bytes for `job` from a worker; `urgent` (a turn message) goes before the rest.
        A `MemoryRender` (PNG or GIF bytes) goes after everything else, `urgent` or not.
        Raises `RenderUnavailable` when no image can be had, `RenderFailed` when the renderer
        raised."""
        await self.start()
        if not self.usable:
            raise RenderUnavailable("the render pool is closed")
        done: asyncio.Future[tuple[str, Any]] = asyncio.get_running_loop().create_future()
        if isinstance(job, MemoryRender):
            item = Job(job, MEMORY, None, memory_timeout(job.frames), done)
        else:
            item = Job(job, URGENT if urgent else SIDE, self.home(job.table), self.timeout, done)
        self._waiters.add(item)
        self._pump()
        try:
            # a caller that gives up leaves a job already sent to finish (its worker goes on)
            status, payload = await asyncio.shield(done)
        except asyncio.CancelledError:
            if not item.sent:
                done.cancel()  # still waiting: dropped from its line
            raise
        if status == "ok":
            data: bytes = payload
            return data
        if status == "error":
            raise RenderFailed(payload)
        raise RenderUnavailable(f"no {job.image} image for {job.game_id} ({status})")

    async def close(self) -> None:
        """Stop every worker and wait for them to exit; waiting callers get `RenderUnavailable`."""
        if self._closed:
            return
        self._closed = True
        for item in self._waiters.drain():
            settle(item, ("closed", None))
        workers = self._workers
        idle = [w for w in workers if w.ready and not w.jobs]
        busy = [w for w in workers if w not in idle]  # drawing or warming up: stopped at once
        for worker in workers:
            self._unwatch(worker)
            for item in worker.jobs:
                settle(item, ("closed", None))
        self._slots = [None] * self.processes
        if self._all_ready is not None:
            self._all_ready.set()
        if workers:
            await asyncio.to_thread(_stop, idle, busy)
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for worker in workers:
            worker.conn.close()

    # -- handing out jobs --------------------------------------------------------------
    def _pump(self) -> None:
        """Send waiting jobs to the workers that may take them (`_next`). Re-entered (a send
        found its worker dead, which re-queues its jobs), it goes round once more instead."""
        if self._pumping:
            self._again = True
            return
        self._pumping = True
        try:
            self._again = True
            while self._again and not self._closed:
                self._again = False
                for slot in range(self.processes):
                    worker = self._slots[slot]
                    while worker is not None and worker is self._slots[slot] and (item := self._next(worker)):
                        self._send(worker, item)
        finally:
            self._pumping = False

    def _next(self, worker: _Worker) -> Job | None:
        """What `worker` takes now: anything by priority when idle (`Waiters.for_idle`);
        behind a turn it draws, the next turn of its own slot; else nothing (an urgent job
        never waits behind a long one, and waits behind at most one turn)."""
        if not worker.ready:
            return None
        if not worker.jobs:
            return self._waiters.for_idle(worker.slot, self._memories_running < self.memory_slots)
        if len(worker.jobs) >= DEPTH or worker.jobs[-1].level != URGENT:
            return None
        return first(self._waiters.urgent[worker.slot])

    def _send(self, worker: _Worker, item: Job) -> None:
        try:
            worker.conn.send(item.job)  # a view is a few KB: the pipe takes it at once
        except (EOFError, OSError):
            self._waiters.add(item, front=True)  # never started: not counted against it
            self._lost(worker)
            return
        except Exception as exc:  # the job did not pickle: nothing was sent
            settle(item, ("error", f"{type(exc).__name__}: {exc}"))
            return
        item.sent = True
        worker.jobs.append(item)
        self._memories_running += item.level == MEMORY
        if len(worker.jobs) == 1:
            self._arm(worker)

    def _arm(self, worker: _Worker) -> None:
        """The time limit of the job `worker` draws now (its first), counted from now."""
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        if worker.jobs:
            worker.timer = asyncio.get_running_loop().call_later(worker.jobs[0].timeout, self._stuck, worker)

    # -- workers ----------------------------------------------------------------------
    def _spawn(self, slot: int) -> None:
        """Start the worker of `slot` in the background (it takes jobs once it says it is
        ready): a start waits for the template to warm up the first time, or after the
        template died, which must not hold the event loop."""
        self._keep(asyncio.create_task(self._start_worker(slot)))

    async def _start_worker(self, slot: int) -> None:
        """The start itself; a system that cannot start processes (out of memory or file
        descriptors, a template that died) counts as a start failure."""
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(target=_worker_main, args=(child, self.warm, self.cache_mb), daemon=True,
                                    name="passepartout-render")
        try:
            await asyncio.to_thread(process.start)
        except Exception:
            parent.close()
            self._start_failures += 1
            log.exception("cannot start a render worker (%d in a row)", self._start_failures)
            if self._ctx.get_start_method() != "spawn":  # no template here (no socket in a temp dir...)
                self._ctx = multiprocessing.get_context("spawn")
            if self._closed:
                return
            if self.usable:
                self._spawn(slot)
            else:
                self._give_up()
            return
        finally:
            child.close()  # ours closes with the worker's end: a dead worker reads as end of file
        if self._closed:  # closed while it started: it never takes work
            parent.close()
            await asyncio.to_thread(_stop, [], [_Worker(process, parent, slot)])
            return
        worker = _Worker(process, parent, slot)
        self._slots[slot] = worker
        loop = asyncio.get_running_loop()
        # answers are read as they come, without a thread and without blocking on a part
        loop.add_reader(parent.fileno(), self._readable, worker)
        worker.timer = loop.call_later(WARM_TIMEOUT, self._stuck, worker)

    def _readable(self, worker: _Worker) -> None:
        """Whatever the worker's pipe holds now; each whole message is handled."""
        if self._slots[worker.slot] is not worker:
            return
        try:
            count = worker.inbox.read(worker.conn.fileno())
        except BlockingIOError:
            return
        except OSError:
            count = 0
        if not count:
            self._lost(worker)
            return
        for message in worker.inbox.messages():
            if self._slots[worker.slot] is not worker:
                return
            self._message(worker, message)

    def _message(self, worker: _Worker, message: Any) -> None:
        """A worker says it is warm, or answers its first job."""
        if not worker.ready:
            worker.ready = True
            self._start_failures = 0
            self._warmed += 1
            self._arm(worker)
            if self._all_ready is not None and self._warmed >= self.processes:
                self._all_ready.set()
        elif worker.jobs:
            item = worker.jobs.popleft()
            self._memories_running -= item.level == MEMORY
            settle(item, message)
            self._arm(worker)
        self._pump()

    def _lost(self, worker: _Worker) -> None:
        """The worker's pipe ended: it died. Replaced; the job it drew is tried once more, the
        jobs behind it (never started) go back to the front of their lines."""
        if self._closed or self._slots[worker.slot] is not worker:
            return
        if not worker.ready:
            self._start_failed(worker)
            return
        if worker.jobs:
            job = worker.jobs[0].job
            log.warning("a render worker died drawing %s %s: replacing it", job.game_id, job.image)
        else:
            log.warning("a render worker died: replacing it")
        self._replace(worker, "died")

    def _stuck(self, worker: _Worker) -> None:
        """A worker took too long: to warm up (a start failure), or to draw its job (which
        ends without an image: tried again it would likely stick again)."""
        if self._closed or self._slots[worker.slot] is not worker:
            return
        if not worker.ready:
            self._start_failed(worker)
            return
        job = worker.jobs[0]
        log.error("a render of %s %s took over %.0f s: its worker is replaced", job.job.game_id, job.job.image,
                  job.timeout)
        self._replace(worker, "timeout")

    def _replace(self, worker: _Worker, verdict: str) -> None:
        jobs = list(worker.jobs)
        worker.jobs.clear()
        self._retire(worker)
        self.replaced += 1
        self._spawn(worker.slot)
        for i, item in enumerate(jobs):
            self._memories_running -= item.level == MEMORY
            item.sent = False
            if i == 0:
                item.deaths += 1
                if verdict != "died" or item.deaths >= 2:
                    settle(item, (verdict, None))
        for item in reversed(jobs):
            if not item.done.done():
                self._waiters.add(item, front=True)
        self._pump()

    def _start_failed(self, worker: _Worker) -> None:
        self._start_failures += 1
        log.error("a render worker failed to start (%d in a row)", self._start_failures)
        self._retire(worker)
        if self.usable:
            self._spawn(worker.slot)
        else:
            self._give_up()

    def _give_up(self) -> None:
        """Workers cannot start: every waiting caller gets `RenderUnavailable` (the service
        renders in-process)."""
        for item in self._waiters.drain():
            settle(item, ("unavailable", None))
        if self._all_ready is not None:
            self._all_ready.set()

    def _unwatch(self, worker: _Worker) -> None:
        """No more reading or timing of `worker` (before its pipe closes: the number is reused)."""
        with contextlib.suppress(RuntimeError, ValueError, OSError):  # the loop or pipe already closed
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None

    def _retire(self, worker: _Worker) -> None:
        self._unwatch(worker)
        if self._slots[worker.slot] is worker:
            self._slots[worker.slot] = None
        worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        self._keep(asyncio.create_task(asyncio.to_thread(worker.process.join, 5)))

    def _keep(self, task: asyncio.Task[Any]) -> None:
        """Hold a reference to a background task until it ends."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


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


def pool_for(processes: int, cache_mb: float | None = None) -> RenderPool | None:
    """The pool a `RENDER_PROCESSES` setting asks for (0: none, render in threads, whose
    caches `RENDER_CACHE_MB` bounds in the bot's own process), each worker's caches bounded
    by `cache_mb`."""
    if processes > 0:
        return RenderPool(processes, cache_mb=cache_mb)
    if cache_mb is not None:
        budget.configure(cache_mb)
    return None


__all__ = ["MemoryRender", "RenderFailed", "RenderJob", "RenderPool", "RenderUnavailable", "draw", "focus_wanted",
           "has_focus", "memory_timeout", "perform", "pool_for", "poolable"]
