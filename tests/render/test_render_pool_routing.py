"""Which worker of the render pool draws what: a table's renders go to the worker of its slot
(whose caches hold its last board), a worker with nothing of its own takes another's waiting
jobs rather than idle, a worker drawing a turn has the next turn of its slot in its pipe, the
priorities hold across slots, and answers are read whole however the pipe cuts them.

The scheduling tests drive the pool with stand-in workers (a pipe that records what it was
sent, answers given by hand), so they say exactly who got what and when; the last tests use
real worker processes."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import select
import socket
import struct
import threading
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.images import queue as render_queue
from bot.images.pool import DEPTH, RenderJob, RenderPool, RenderUnavailable, _Worker, draw
from bot.images.queue import Inbox
from tests.render.test_render_pool import EVE, HERE, board_job, move_button, pixels, running_game

RAILS = "rails-and-sails"


class Sent:
    """A worker's pipe that keeps what was sent down it."""

    def __init__(self) -> None:
        self.jobs: list[RenderJob] = []

    def send(self, job: RenderJob) -> None:
        self.jobs.append(job)

    def tables(self) -> list[int | None]:
        return [job.table for job in self.jobs]


class Alive:
    pid = None


def job(table: int) -> RenderJob:
    return RenderJob(RAILS, "board", {"table": table}, {}, "en", table=table)


def stand_ins(processes: int = 2) -> tuple[RenderPool, list[_Worker]]:
    """A pool whose slots hold warm stand-in workers (no process is started)."""
    pool = RenderPool(processes, warm=False)
    pool._started = True
    pool._all_ready = asyncio.Event()
    workers = [_Worker(Alive(), Sent(), slot, ready=True) for slot in range(processes)]  # type: ignore[arg-type]
    pool._slots = list(workers)
    return pool, workers


def sent(worker: _Worker) -> list[int | None]:
    return worker.conn.tables()  # type: ignore[attr-defined]


def answer(pool: RenderPool, worker: _Worker) -> None:
    """The worker answers the job it draws."""
    table = worker.jobs[0].job.table  # type: ignore[attr-defined]
    pool._message(worker, ("ok", f"png of {table}".encode()))


def submit(pool: RenderPool, table: int, *, urgent: bool = True) -> asyncio.Task[bytes]:
    return asyncio.get_running_loop().create_task(pool.render(job(table), urgent=urgent))


def stop(workers: list[_Worker]) -> None:
    for worker in workers:
        if worker.timer is not None:
            worker.timer.cancel()


async def test_a_tables_renders_go_to_the_worker_of_its_slot() -> None:
    pool, (w0, w1) = stand_ins()
    try:
        tasks = [submit(pool, table) for table in (10, 11, 12, 13)]
        await asyncio.sleep(0)
        # even tables to slot 0, odd ones to slot 1; each worker's next turn waits in its pipe
        assert sent(w0) == [10, 12] and sent(w1) == [11, 13]
        assert len(w0.jobs) == len(w1.jobs) == DEPTH
        for worker in (w0, w0, w1, w1):
            answer(pool, worker)
        assert await asyncio.gather(*tasks) == [b"png of 10", b"png of 11", b"png of 12", b"png of 13"]
        # a later turn of table 10 goes to the same worker, though the other is free too
        later = submit(pool, 10)
        await asyncio.sleep(0)
        assert sent(w0) == [10, 12, 10] and sent(w1) == [11, 13]
        answer(pool, w0)
        assert await later == b"png of 10"
    finally:
        stop([w0, w1])


async def test_a_worker_drawing_a_turn_of_its_table_gets_the_next_one_though_another_is_free() -> None:
    pool, (w0, w1) = stand_ins()
    try:
        first = submit(pool, 20)
        await asyncio.sleep(0)
        second = submit(pool, 22)  # w0 draws table 20; w1 idles, yet table 22 is slot 0's
        await asyncio.sleep(0)
        assert sent(w0) == [20, 22] and sent(w1) == []
        answer(pool, w0)
        answer(pool, w0)
        assert await asyncio.gather(first, second) == [b"png of 20", b"png of 22"]
    finally:
        stop([w0, w1])


async def test_a_worker_with_nothing_of_its_own_takes_anothers_waiting_job() -> None:
    pool, (w0, w1) = stand_ins()
    try:
        tasks = [submit(pool, table) for table in (30, 32, 34, 36)]  # all slot 0's
        await asyncio.sleep(0)
        # w0 holds two; w1 would idle, so it takes the next waiting one; the last still waits
        assert sent(w0) == [30, 32] and sent(w1) == [34]
        assert [item.job.table for item in pool._waiters.urgent[0]] == [36]  # type: ignore[attr-defined]
        answer(pool, w1)  # w1 free again: it takes the last one too
        assert sent(w1) == [34, 36] and sent(w0) == [30, 32]
        answer(pool, w1)
        answer(pool, w0)
        answer(pool, w0)
        assert await asyncio.gather(*tasks) == [f"png of {t}".encode() for t in (30, 32, 34, 36)]
    finally:
        stop([w0, w1])


async def test_turns_go_first_across_slots_and_never_wait_behind_an_asked_for_image() -> None:
    pool, (w0, w1) = stand_ins()
    try:
        asked = [submit(pool, 40, urgent=False), submit(pool, 41, urgent=False)]
        await asyncio.sleep(0)
        assert sent(w0) == [40] and sent(w1) == [41]
        later_asked = submit(pool, 43, urgent=False)  # slot 1's own, asked for
        turn = submit(pool, 42)  # slot 0's turn: not queued behind w0's asked-for image
        await asyncio.sleep(0)
        assert sent(w0) == [40] and sent(w1) == [41]
        answer(pool, w1)  # w1 is free: another slot's turn goes before its own asked-for image
        assert sent(w1) == [41, 42]
        answer(pool, w1)
        assert sent(w1) == [41, 42, 43]
        answer(pool, w1)
        answer(pool, w0)
        assert await turn == b"png of 42"
        assert await asyncio.gather(*asked, later_asked) == [b"png of 40", b"png of 41", b"png of 43"]
    finally:
        stop([w0, w1])


async def test_a_caller_that_gives_up_before_its_job_is_sent_leaves_nothing_to_draw() -> None:
    pool, [w0] = stand_ins(1)
    try:
        first = submit(pool, 50)
        second = submit(pool, 51)
        third = submit(pool, 52)
        await asyncio.sleep(0)
        assert sent(w0) == [50, 51]
        third.cancel()
        with pytest.raises(asyncio.CancelledError):
            await third
        answer(pool, w0)
        answer(pool, w0)
        assert await asyncio.gather(first, second) == [b"png of 50", b"png of 51"]
        assert sent(w0) == [50, 51] and not w0.jobs
    finally:
        stop([w0])


def test_answers_are_read_whole_however_the_pipe_cuts_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_queue, "INBOX", 1024)  # small: the inbox must grow, and shrink back
    messages: list[Any] = [("ok", os.urandom(300_000)), ("error", "ValueError: no"), ("ok", b""),
                           ("ok", bytes(20_000)), ("ready", 7), ("ok", os.urandom(9_000))]
    a, b = multiprocessing.Pipe()

    def send_all() -> None:
        for message in messages:
            a.send(message)

    writer = threading.Thread(target=send_all)
    writer.start()
    stream = bytearray()
    while len(stream) < sum(len(pickle.dumps(m)) + 4 for m in messages):
        stream += os.read(b.fileno(), 65536)
    writer.join()
    a.close()
    b.close()
    for cut in (1, 3, 4, 5, 4096, 65536):  # each piece is read before the next is sent
        inbox = Inbox()
        got: list[Any] = []
        reader, writer_fd = socket.socketpair()
        try:
            for i in range(0, len(stream), cut):
                writer_fd.sendall(stream[i:i + cut])
                while select.select([reader], [], [], 0)[0]:
                    assert inbox.read(reader.fileno()) > 0
                    got += inbox.messages()
        finally:
            reader.close()
            writer_fd.close()
        assert got == messages and inbox.filled == 0 and len(inbox.data) == 1024
    big = pickle.dumps(("ok", b"x" * 10))  # the long form of the length (-1, then 8 bytes)
    inbox = Inbox()
    inbox.data[:12 + len(big)] = struct.pack("!iQ", -1, len(big)) + big
    inbox.filled = 12 + len(big)
    assert inbox.messages() == [("ok", b"x" * 10)]


# -- with real workers ------------------------------------------------------------------------------

class SlowKiller:
    """Unpickling this ends the process that does it, a moment later (the bot has sent the
    job behind it by then)."""

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (exec, ("import os, time; time.sleep(0.3); os._exit(3)",))


async def test_a_turn_waiting_in_the_pipe_of_a_worker_that_died_is_drawn_by_its_replacement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pipes: list[list[Any]] = []  # what a worker held after each send
    send = RenderPool._send

    def recording(self: RenderPool, worker: _Worker, item: Any) -> None:
        send(self, worker, item)
        pipes.append([held.job for held in worker.jobs])

    monkeypatch.setattr(RenderPool, "_send", recording)
    pool = RenderPool(1, warm=False)
    try:
        await pool.ready()
        good = board_job()
        poison = RenderJob(good.game_id, "board", {"poison": SlowKiller()}, {}, "en", table=4)
        fine = RenderJob(good.game_id, "board", good.view, good.names, "en", events=[], table=4)
        renders = [asyncio.create_task(pool.render(poison)), asyncio.create_task(pool.render(fine))]
        results = await asyncio.gather(*renders, return_exceptions=True)
        assert pipes[:2] == [[poison], [poison, fine]]  # the second waited in the pipe
        # the poison killed two workers and is given up; the turn behind it was never held
        # against it: the third worker drew it
        assert isinstance(results[0], RenderUnavailable) and pool.replaced == 2
        assert isinstance(results[1], bytes) and results[1].startswith(b"\x89PNG")
    finally:
        await pool.close()


async def test_a_burst_of_turns_of_several_tables_is_drawn_right_by_two_workers() -> None:
    pool = RenderPool(2, warm=False)
    try:
        await pool.ready()
        rules = games.get(RAILS).rules
        jobs = []
        for table in range(6):
            state = rules.new_game(["p1", "p2"], table + 1, {})
            jobs.append(RenderJob(RAILS, "board", rules.view(state, None), {"p1": "A", "p2": "B"}, "en",
                                  events=[], table=table))
        pngs = await asyncio.gather(*(pool.render(j) for j in jobs + jobs))
        expected = [pixels(draw(j)) for j in jobs]
        assert [pixels(png) for png in pngs] == expected + expected
        assert pool._memories_running == 0 and not any(w.jobs for w in pool._workers)
    finally:
        await pool.close()


class Jobs:
    """A pool that draws in-process and keeps the jobs the service handed it."""

    usable = True

    def __init__(self) -> None:
        self.jobs: list[RenderJob] = []

    async def render(self, job: RenderJob, *, urgent: bool = True) -> bytes:
        self.jobs.append(job)
        return draw(job)


async def test_the_table_service_names_the_table_of_every_image_it_asks_for(tmp_path: Path) -> None:
    pool = Jobs()
    store, service = await running_game(tmp_path, pool, "around-the-world")  # every move redraws
    try:
        record = await store.active_game(HERE.channel_id)
        assert record is not None
        user, button = await move_button(service)
        replies = await service.component(user, HERE, button)
        assert replies[0].outcome == "ok" and any(r.files for r in replies)
        await service.hand(user, HERE)
        await service.status(EVE, HERE)
        # atw draws a focus view too when the move touched the map
        assert {"board", "hand"} <= {job.image for job in pool.jobs} <= {"board", "focus", "hand"}
        assert [job.table for job in pool.jobs] == [record.id] * len(pool.jobs)
    finally:
        await store.close()
