"""The render pool: images drawn in worker processes, moves before asked-for images, a dead
worker replaced, a committed move answered without its image when none can be had, the
table answering at once while the pool is busy, and no worker left behind by the bot, the
local table or a bot that was killed."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import games
from bot.features.memories import render_memory
from bot.images.pool import RENDER_TIMEOUT, MemoryRender, RenderJob, RenderPool, RenderUnavailable, draw, memory_timeout
from bot.replies import User, Where
from bot.service import TableService, action_hash, custom_id
from bot.settings import Settings, load_settings
from bot.store import SQLiteStore
from tests.service.test_memories import playout

RAILS = "rails-and-sails"
DETOUR = "detour"
ANN, BEN, EVE = User(1, "Ann", "en"), User(2, "Ben", "en"), User(9, "Eve", "en")
HERE = Where(channel_id=7, guild_id=1, guild_locale="en")
REPO = Path(__file__).resolve().parents[2]


def board_job(game_id: str = DETOUR, seed: int = 3, lang: str = "en") -> RenderJob:
    rules = games.get(game_id).rules
    state = rules.new_game(["p1", "p2"], seed, {})
    return RenderJob(game_id, "board", rules.view(state, None), {"p1": "Ann", "p2": "Ben"}, lang, events=[])


def pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting for its reaper counts as exited)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def wait_gone(pids: list[int], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(gone(p) for p in pids):
            return True
        time.sleep(0.05)
    return all(gone(p) for p in pids)


class Killer:
    """Unpickling this ends the process that does it: a job that kills any worker it reaches."""

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (os._exit, (3,))


class Sleeper:
    """Unpickling this keeps the worker that does it busy for a while (it unpickles as None): a
    job that holds the only worker until every other job is queued, however fast drawing is."""

    def __reduce__(self) -> tuple[Any, tuple[float]]:
        return (time.sleep, (0.5,))


# -- the pool itself -------------------------------------------------------------------------------

async def test_workers_draw_the_same_images_as_the_bot_in_process() -> None:
    pool = RenderPool(1, warm=False)
    try:
        board = board_job(DETOUR, seed=8, lang="de")
        rules = games.get(DETOUR).rules
        state = rules.new_game(["p1", "p2", "p3"], 5, {})
        hand = RenderJob(DETOUR, "hand", rules.view(state, "p2"), {"p1": "A", "p2": "B", "p3": "C"}, "fr", seat="p2")
        for job in (board, hand):
            assert pixels(await pool.render(job)) == pixels(draw(job))
        assert len(pool.pids()) == 1
    finally:
        await pool.close()


async def test_a_worker_that_died_is_replaced_and_the_render_tried_again() -> None:
    pool = RenderPool(1, warm=False)
    try:
        await pool.ready()
        [first] = pool.pids()
        os.kill(first, signal.SIGKILL)
        assert wait_gone([first])
        png = await pool.render(board_job())
        assert png.startswith(b"\x89PNG") and pool.replaced == 1
        assert pool.pids() and first not in pool.pids()
    finally:
        await pool.close()


async def test_a_job_that_kills_every_worker_ends_without_an_image_and_the_pool_goes_on() -> None:
    pool = RenderPool(1, warm=False)
    try:
        job = RenderJob(DETOUR, "board", {"poison": Killer()}, {}, "en")
        with pytest.raises(RenderUnavailable):
            await pool.render(job)
        assert pool.replaced == 2  # the first worker and the one that took the retry
        assert (await pool.render(board_job())).startswith(b"\x89PNG")
    finally:
        await pool.close()


async def test_turn_messages_are_drawn_before_the_images_people_asked_for() -> None:
    pool = RenderPool(1, warm=False)
    try:
        await pool.render(board_job())  # imports done: the timing below is drawing only
        finished: list[str] = []

        async def one(name: str, urgent: bool) -> None:
            job = board_job(seed=len(finished) + 10)
            if name == "status-1":  # holds the only worker while the others queue
                job = dataclasses.replace(job, names={**job.names, "hold": Sleeper()})
            await pool.render(job, urgent=urgent)
            finished.append(name)

        tasks = [asyncio.create_task(one("status-1", False))]
        await asyncio.sleep(0)  # status-1 has the only worker
        tasks += [asyncio.create_task(one(f"status-{i}", False)) for i in (2, 3)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(one("move", True)))
        await asyncio.gather(*tasks)
        assert finished == ["status-1", "move", "status-2", "status-3"]
    finally:
        await pool.close()


async def test_memories_are_drawn_in_the_pool_after_every_other_render() -> None:
    pool = RenderPool(1, warm=False)
    try:
        job = playout(DETOUR)
        summary = await pool.render(MemoryRender(render_memory, "summary", job))
        assert summary == render_memory("summary", job)  # the same picture as in the bot's process
        finished: list[str] = []

        async def one(name: str, job: RenderJob | MemoryRender, urgent: bool = True) -> None:
            await pool.render(job, urgent=urgent)
            finished.append(name)

        tasks = [asyncio.create_task(one("status-1", board_job(seed=21), False))]
        await asyncio.sleep(0)  # status-1 has the only worker
        timelapse = MemoryRender(render_memory, "timelapse", job, len(job.actions) + 1)
        tasks.append(asyncio.create_task(one("timelapse", timelapse)))
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(one("status-2", board_job(seed=22), False)))
        tasks.append(asyncio.create_task(one("move", board_job(seed=23))))
        await asyncio.gather(*tasks)
        assert finished == ["status-1", "move", "status-2", "timelapse"]
    finally:
        await pool.close()


async def test_turns_keep_flowing_while_timelapses_are_drawn() -> None:
    pool = RenderPool(2, warm=False)
    try:
        await asyncio.gather(pool.render(board_job()), pool.render(board_job(seed=4)))  # both workers up
        job = playout("around-the-world")  # a whole game's timelapse: seconds of drawing
        memories = [asyncio.create_task(pool.render(MemoryRender(render_memory, kind, job, len(job.actions) + 1)))
                    for kind in ("timelapse", "summary")]
        await asyncio.sleep(0)
        # one memory at a time per pool of two: the other worker is left to the turns
        assert pool.memory_slots == 1 and pool._memories_running == 1 and len(pool._waiters.memories) == 1
        turns = [await pool.render(board_job(seed=30 + i)) for i in range(12)]  # one after the other
        assert all(png.startswith(b"\x89PNG") for png in turns)
        # a dozen turns were drawn, each when it came, while the first timelapse was still drawing
        assert not any(m.done() for m in memories)
        gifs = await asyncio.gather(*memories)
        assert gifs[0].startswith(b"GIF8") and gifs[1].startswith(b"\x89PNG") and pool._memories_running == 0
    finally:
        await pool.close()


def test_a_memory_may_take_longer_than_a_turn_and_longer_with_more_frames() -> None:
    assert RENDER_TIMEOUT < memory_timeout(1) < memory_timeout(53) < memory_timeout(500)


async def test_close_stops_every_worker_even_mid_render_and_waiting_callers_get_no_image() -> None:
    pool = RenderPool(2, warm=False)
    await pool.ready()
    pids = pool.pids()
    assert len(pids) == 2
    renders = [asyncio.create_task(pool.render(board_job(seed=s))) for s in range(5)]
    await asyncio.sleep(0.05)
    await pool.close()
    results = await asyncio.gather(*renders, return_exceptions=True)
    assert all(isinstance(r, bytes | RenderUnavailable) for r in results)
    assert wait_gone(pids, 5) and not multiprocessing.active_children()
    with pytest.raises(RenderUnavailable):
        await pool.render(board_job())


def test_workers_exit_when_the_bot_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "killed_bot.py"
    script.write_text(textwrap.dedent(f"""
        import asyncio, os, sys
        sys.path.insert(0, {str(REPO)!r})
        from bot.images.pool import RenderPool

        async def main() -> None:
            pool = RenderPool(2, warm=False)
            await pool.ready()
            pids = pool.pids()
            parents = {{int(open(f"/proc/{{pid}}/stat").read().rsplit(")", 1)[1].split()[1]) for pid in pids}}
            print(" ".join(map(str, pids + sorted(parents - {{os.getpid()}}))), flush=True)
            os.kill(os.getpid(), 9)  # no clean-up of any kind

        if __name__ == "__main__":
            asyncio.run(main())
        """), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    pids = [int(p) for p in run.stdout.split()]  # the workers, then the template they were forked from
    forked = "forkserver" in multiprocessing.get_all_start_methods()
    assert run.returncode == -signal.SIGKILL and len(pids) == 2 + forked, run.stderr
    assert wait_gone(pids), "render workers or their template outlived the bot"


def test_workers_are_forked_warm_from_one_template_and_share_its_pages(tmp_path: Path) -> None:
    """In a fresh bot process (the forkserver reads its preload when it starts): both workers,
    and the one that replaces a killed worker, come warm from the template, sharing most of
    their memory, and the replacement is ready at once."""
    script = tmp_path / "warm_bot.py"
    script.write_text(textwrap.dedent(f"""
        import asyncio, json, os, signal, sys, time, types
        sys.path.insert(0, {str(REPO)!r})
        from bot.images.pool import MemoryRender, RenderPool
        from tests.support.render_probe import worker_state

        async def main() -> None:
            pool = RenderPool(2)
            await pool.ready()
            probe = MemoryRender(worker_state, "probe", types.SimpleNamespace(game_id="probe"))
            states = [json.loads(await pool.render(probe)) for _ in range(2)]
            os.kill(pool.pids()[0], signal.SIGKILL)
            started = time.monotonic()
            while pool.replaced == 0 or len(pool.pids()) < 2:
                await pool.render(probe)
            states.append(json.loads(await pool.render(probe)))
            print(json.dumps({{"states": states, "replaced_in": time.monotonic() - started}}), flush=True)
            await pool.close()

        if __name__ == "__main__":
            asyncio.run(main())
        """), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.splitlines()[-1])
    for state in found["states"]:
        assert state["warm"], state
        assert state["shared"] > 0.5 * state["rss"], state
    assert found["replaced_in"] < 10


class _NoForkserver:
    """A forkserver context whose processes cannot start (no socket for the server, say)."""

    def __init__(self) -> None:
        self.real = multiprocessing.get_context("forkserver")

    def get_start_method(self) -> str:
        return "forkserver"

    def Pipe(self) -> Any:  # noqa: N802 - multiprocessing's name
        return self.real.Pipe()

    def Process(self, **kwargs: Any) -> Any:  # noqa: N802 - multiprocessing's name
        process = self.real.Process(**kwargs)

        def start() -> None:
            raise OSError("no forkserver here")

        process.start = start
        return process


async def test_without_a_forkserver_workers_are_spawned() -> None:
    pool = RenderPool(1, warm=False)
    pool._ctx = _NoForkserver()  # type: ignore[assignment]
    try:
        png = await pool.render(board_job())
        assert png.startswith(b"\x89PNG") and pool._ctx.get_start_method() == "spawn" and pool.usable
    finally:
        await pool.close()


def test_render_processes_setting() -> None:
    assert Settings().render_processes == 0  # built in code: threads, as before
    assert load_settings(None, {"RENDER_PROCESSES": "3"}).render_processes == 3
    assert load_settings(None, {"RENDER_PROCESSES": "0"}).render_processes == 0
    cores = len(os.sched_getaffinity(0))
    assert load_settings(None, {}).render_processes == cores
    assert load_settings(None, {"RENDER_PROCESSES": "many"}).render_processes == cores


# -- the table service with a pool ---------------------------------------------------------------

async def running_game(tmp_path: Path, pool: Any, game: str = DETOUR) -> tuple[SQLiteStore, TableService]:
    store = SQLiteStore(tmp_path / "pool.sqlite3")
    await store.open()
    service = TableService(store, Settings(), render_pool=pool)
    await service.new_game(ANN, HERE, game, seed=2)
    await service.join(BEN, HERE)
    await service.start(ANN, HERE)
    return store, service


async def move_button(service: TableService) -> tuple[User, str]:
    """The player to act and the button of the move their AI would choose."""
    record = await service.store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    seat = loaded.rules.to_act(loaded.state)[0]
    user = ANN if record.seat_of_user(ANN.id).seat == seat else BEN  # type: ignore[union-attr]
    action = loaded.rules.ai_action(loaded.state, seat)
    return user, custom_id(record.id, record.version, "act", action_hash(action))


class NoImages:
    """A pool whose workers cannot draw anything (died twice, every time)."""

    usable = True

    async def render(self, job: RenderJob, *, urgent: bool = True) -> bytes:
        raise RenderUnavailable("workers keep dying")


async def test_a_committed_move_is_announced_without_its_image_when_none_can_be_had(tmp_path: Path) -> None:
    store, service = await running_game(tmp_path, NoImages())
    try:
        before = await store.active_game(HERE.channel_id)
        user, button = await move_button(service)
        replies = await service.component(user, HERE, button)
        assert replies[0].outcome == "ok"
        turn = next(r for r in replies if r.to == "channel")
        assert turn.files == [] and turn.text
        after = await store.active_game(HERE.channel_id)
        assert before is not None and after is not None and after.version > before.version
        status = await service.status(EVE, HERE)  # asked-for images also go without
        assert status[0].files == [] and status[0].text
    finally:
        await store.close()


async def test_refusals_are_answered_at_once_while_the_pool_is_saturated(tmp_path: Path) -> None:
    pool = RenderPool(1, warm=False)
    store, service = await running_game(tmp_path, pool, "around-the-world")  # every move redraws
    try:
        await pool.render(board_job())
        # a storm of asked-for images (status, hand): 40 renders queued on the one worker
        backlog = [asyncio.create_task(pool.render(board_job(seed=s), urgent=False)) for s in range(40)]
        await asyncio.sleep(0.01)
        user, button = await move_button(service)
        other = BEN if user is ANN else ANN
        stale = await service.component(user, HERE, "pp:garbage")
        out_of_turn = await service.component(other, HERE, button)
        assert stale[0].outcome == "refused" and out_of_turn[0].outcome == "refused"
        # answered while most of the storm still waits for the one worker, not after it
        assert sum(t.done() for t in backlog) < len(backlog) // 2
        # and a move's image goes before the rest of the storm
        replies = await service.component(user, HERE, button)
        assert replies[0].outcome == "ok" and any(r.files for r in replies)
        assert not all(t.done() for t in backlog)
        await asyncio.gather(*backlog)
    finally:
        await pool.close()
        await store.close()


# -- the adapters start and stop it ----------------------------------------------------------------

async def test_the_discord_bot_renders_in_its_pool_and_stops_it_on_close(tmp_path: Path) -> None:
    from tests.support.discord_harness import ALICE, BOB, Harness, open_table

    settings = Settings(database_url=str(tmp_path / "discord.sqlite3"), sync_commands="auto", tick_seconds=3600,
                        render_processes=1)
    h = await Harness.create(tmp_path, settings=settings)
    try:
        pool = h.bot.render_pool
        assert pool is not None and h.bot.service.render_pool is pool
        await open_table(h, ALICE, [BOB], game=DETOUR)
        boards = [m for m in h.channel_messages() if m.files]
        assert boards and boards[-1].files[0].data.startswith(b"\x89PNG")
        pids = pool.pids()
        assert len(pids) == 1
    finally:
        await h.close()
    assert wait_gone(pids, 10) and not multiprocessing.active_children()
    assert h.error_messages() == []


def test_the_local_table_stops_its_pool_at_the_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import bot.adapters.local

    pools: list[Recording] = []

    def cold_pool(processes: int, cache_mb: float | None = None) -> RenderPool:
        pools.append(Recording(processes, warm=False, cache_mb=cache_mb))
        return pools[-1]

    monkeypatch.setattr(bot.adapters.local, "pool_for", cold_pool)
    monkeypatch.setenv("RENDER_PROCESSES", "1")
    script = tmp_path / "moves.txt"
    script.write_text("alice /game new game:detour\nalice /game addbot\nalice /game addbot\nalice /game start\n",
                      encoding="utf-8")
    assert bot.adapters.local.main(["--script", str(script), "--no-env"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert any(line.get("files") for line in lines), lines
    [pool] = pools
    assert len(pool.seen) == 1, "the local table did not render in its pool"
    assert not pool.usable and wait_gone(sorted(pool.seen), 10) and not multiprocessing.active_children()


class Recording(RenderPool):
    """A pool that remembers the workers that drew for it."""

    seen: set[int]

    async def render(self, job: RenderJob, *, urgent: bool = True) -> bytes:
        png = await super().render(job, urgent=urgent)
        self.seen = getattr(self, "seen", set()) | set(self.pids())
        return png
