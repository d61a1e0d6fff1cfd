"""One bot process for the multi-process test and bench (not a test module).

    DATABASE_URL=... SHARD_COUNT=3 SHARD_IDS=1 python -m tests.support.multiproc_driver [--now T] [--no-render]

It opens the store from DATABASE_URL and drives `bot.service.TableService` the way the
Discord adapter does (settings from the environment, `guarded` calls, the scheduler in every
process), without any network. Commands are JSON lines on stdin, each
with an `id` the answer repeats; every command runs as its own task, so lines sent together
run concurrently, as interactions do. Answers are JSON lines on stdout, written whole:

    {"id": 1, "op": "new", "channel": C, "user": U, "game": "detour", "seed": 7}
    {"id": 2, "op": "join" | "start", "channel": C, "user": U}
    {"id": 3, "op": "addbot", "channel": C, "user": U, "count": 1}
    {"id": 4, "op": "turn", "channel": C}       -> {"game", "status", "to_act": [{"user", "seat", "press"}]}
    {"id": 5, "op": "press", "channel": C, "user": U, "custom_id": X}   -> {"ok": true|false, "text"}
    {"id": 6, "op": "tick", "now": T}           -> {"fired": [{"kind", "channel"}]}
    {"id": 7, "op": "drawing", "on": false}     -> images drawn from now on, or not
    {"id": 8, "op": "quit"}

`turn` gives, for each human to act, the custom id of the private-menu button for the move
the game's AI policy would choose for them (the id carries the seat's own move count, as the
menu's do). `press` is acknowledged when the presser's private answer is the "✅" one. Any
command may carry `now`, which sets this process's clock first (deadlines are set from it).
`--no-render` (or `drawing` off) skips drawing images: the multi-process test checks storage,
not pictures, and the bench sets its tables up without them.
`Process` is the other end, for the test and the bench: it starts one driver and matches
answers to requests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from bot.i18n import Translator
from bot.replies import Reply, User, Where
from bot.service import TableService, action_hash, custom_id
from bot.settings import load_settings
from bot.store import store_from_url

READY = "ready"
ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """This process's clock, set by the commands' `now`."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _prefix(key: str, **params: str) -> str:
    """The English text of `key` up to its first placeholder (how a fired message starts)."""
    return Translator("en")(key, **{k: "\x00" for k in params}).split("\x00")[0]


REMINDER = _prefix("reminder", who="", hours="")
TIMEOUT = _prefix("timeout.played", names="")
RESUMED = Translator("en")("resumed")


def classify(reply: Reply) -> str:
    """What a channel message the scheduler sent is: a reminder, a timeout turn, resumed AI moves."""
    if reply.text.startswith(REMINDER):
        return "reminder"
    if reply.text.startswith(TIMEOUT):
        return "timeout"
    if reply.text.startswith(RESUMED):
        return "resumed"
    return "other"


class Driver:
    def __init__(self, service: TableService, clock: Clock, *, drawing: bool = True) -> None:
        self.service = service
        self.drawing = drawing  # whether board and hand images are drawn
        self.store = service.store
        self.clock = clock
        self.pressing = asyncio.Event()  # cleared by "hold": later presses wait until the process dies
        self.pressing.set()

    @staticmethod
    def _who(cmd: dict[str, Any]) -> tuple[User, Where]:
        user = User(id=int(cmd["user"]), name=f"Player {cmd['user']}", locale="en-US")
        return user, Where(channel_id=int(cmd["channel"]), guild_id=1, guild_locale="en-US", can_manage=False)

    async def run(self, cmd: dict[str, Any]) -> dict[str, Any]:
        if "now" in cmd:
            self.clock.now = float(cmd["now"])
        op = cmd["op"]
        if op == "tick":
            return await self.tick()
        if op == "drawing":
            self.drawing = bool(cmd["on"])
            return {"drawing": self.drawing}
        if op == "turn":
            return await self.turn(int(cmd["channel"]))
        user, where = self._who(cmd)
        svc = self.service
        if op == "new":
            call = svc.new_game(user, where, cmd["game"], options=cmd.get("options"), seed=cmd.get("seed"))
        elif op == "join":
            call = svc.join(user, where)
        elif op == "addbot":
            call = svc.addbot(user, where, int(cmd.get("count", 1)))
        elif op == "start":
            call = svc.start(user, where)
        elif op == "press":
            await self.pressing.wait()
            call = svc.component(user, where, cmd["custom_id"], cmd.get("values"))
        else:
            return {"error": f"unknown op {op!r}"}
        replies = await svc.guarded(user, call)
        mine = [r for r in replies if r.to == "ephemeral" and r.user_id == user.id]
        text = mine[0].text if mine else ""
        ok = not text.startswith("⚠️") if op != "press" else text.startswith("✅")
        return {"ok": ok, "text": text[:200], "channel_messages": sum(r.to == "channel" for r in replies)}

    async def turn(self, channel: int) -> dict[str, Any]:
        record = await self.store.active_game(channel)
        if record is None:
            return {"game": None, "status": None, "to_act": []}
        if record.status != "running":
            return {"game": record.id, "status": record.status, "to_act": []}
        loaded = self.service.load(record)
        rules = loaded.rules
        to_act = []
        for seat in rules.to_act(loaded.state):
            rec = record.seat_record(seat)
            if rec is None or rec.is_bot:
                continue
            action = loaded.spec.ai(rules.view(loaded.state, seat), seat, rules.legal_actions(loaded.state, seat))
            own = await self.store.seat_action_count(record.id, seat)
            to_act.append({"user": rec.user_id, "seat": seat, "own": own, "hash": action_hash(action),
                           "press": custom_id(record.id, own, "pact", action_hash(action))})
        return {"game": record.id, "status": record.status, "version": record.version, "to_act": to_act}

    async def tick(self) -> dict[str, Any]:
        """The scheduler's tick, as the adapter runs it in every process (due games are leased)."""
        replies = await self.service.tick()
        return {"fired": [{"kind": classify(r), "channel": r.channel_id} for r in replies if r.to == "channel"]}


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def serve(args: argparse.Namespace) -> None:
    settings = load_settings(None, dict(os.environ))
    clock = Clock(args.now)
    store = store_from_url(settings.database_url)
    await store.open()
    service = TableService(store, settings, clock=clock, render_in_thread=True)
    driver = Driver(service, clock, drawing=not args.no_render)
    images = service.parts.images
    draw = images.run

    async def render(fn: Any, *a: Any, **kw: Any) -> bytes:
        return await draw(fn, *a, **kw) if driver.drawing else b"\x89PNG"

    images.run = render  # type: ignore[method-assign]  # images only when asked (see --no-render)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: set[asyncio.Task[None]] = set()

    async def answer(cmd: dict[str, Any]) -> None:
        started = time.perf_counter()
        try:
            result = await driver.run(cmd)
        except Exception as exc:  # reported to the test, which fails on it
            result = {"error": f"{type(exc).__name__}: {exc}"}
        _say({"id": cmd.get("id"), "seconds": round(time.perf_counter() - started, 4), **result})

    _say({"id": None, READY: True, "pid": os.getpid(), "primary": settings.primary})
    while line := await reader.readline():
        cmd = json.loads(line)
        if cmd.get("op") == "quit":
            break
        if cmd.get("op") == "hold":  # at once, in order: every press read after it is owed for good
            driver.pressing.clear()
            _say({"id": cmd.get("id"), "holding": True})
            continue
        task = asyncio.create_task(answer(cmd))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)
    await store.close()
    _say({"id": None, "bye": True})


class Lost(Exception):
    """The process was killed before it answered."""


class Process:
    """The other end: one driver process started by a test or bench, and the answers it owes
    by request id (sent lines may be in flight together; answers come in any order)."""

    def __init__(self, url: str, shard: int, count: int, *, env: dict[str, str] | None = None,
                 now: float = 1_800_000_000.0, render: bool = True, timeout: float = 60.0) -> None:
        self.url, self.shard, self.count = url, shard, count
        self.timeout = timeout  # seconds an answer may take
        self.env, self.now, self.render = env or {}, now, render
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.ids = iter(range(1, 10**9))
        self.proc: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task[None] | None = None
        self.answered = 0

    async def start(self) -> None:
        env = {**os.environ, "DATABASE_URL": self.url, "SHARD_COUNT": str(self.count),
               "SHARD_IDS": str(self.shard), "PYTHONPATH": str(ROOT), **self.env}
        flags = [] if self.render else ["--no-render"]
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.support.multiproc_driver", "--now", str(self.now), *flags, cwd=ROOT, env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**22)
        assert self.proc.stdout is not None
        hello = json.loads(await asyncio.wait_for(self.proc.stdout.readline(), 60))
        assert hello["ready"] and hello["primary"] == (self.shard == 0)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            answer = json.loads(line)
            future = self.pending.pop(answer.get("id"), None)
            if future is not None and not future.done():
                self.answered += 1
                future.set_result(answer)
        for future in self.pending.values():  # the process is gone
            if not future.done():
                future.set_exception(Lost())
        self.pending.clear()

    def send(self, **cmd: Any) -> asyncio.Future[dict[str, Any]]:
        assert self.proc is not None and self.proc.stdin is not None
        cmd["id"] = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[cmd["id"]] = future
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        return future

    async def call(self, **cmd: Any) -> dict[str, Any]:
        answer = await asyncio.wait_for(self.send(**cmd), self.timeout)
        assert "error" not in answer, answer
        return answer

    async def kill(self) -> None:
        assert self.proc is not None and self.reader is not None
        self.proc.kill()  # SIGKILL: no clean-up of any kind
        await self.proc.wait()
        await self.reader

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        assert self.proc.stdin is not None
        self.proc.stdin.write(b'{"op": "quit"}\n')
        await self.proc.stdin.drain()
        self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        if self.reader is not None:
            await self.reader


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.support.multiproc_driver")
    parser.add_argument("--now", type=float, default=1_800_000_000.0, help="the clock's start (seconds)")
    parser.add_argument("--no-render", action="store_true", help="skip drawing board and hand images")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
