"""One bot process for the multi-process test and bench (not a test module).

    DATABASE_URL=... SHARD_COUNT=3 SHARD_IDS=1 python -m tests.multiproc_driver [--now T] [--no-render]

It opens the store from DATABASE_URL and drives `bot.service.TableService` the way the
Discord adapter does (settings from the environment, `guarded` calls, the scheduler only in
the process running shard 0), without any network. Commands are JSON lines on stdin, each
with an `id` the answer repeats; every command runs as its own task, so lines sent together
run concurrently, as interactions do. Answers are JSON lines on stdout, written whole:

    {"id": 1, "op": "new", "channel": C, "user": U, "game": "detour", "seed": 7}
    {"id": 2, "op": "join" | "start", "channel": C, "user": U}
    {"id": 3, "op": "addbot", "channel": C, "user": U, "count": 1}
    {"id": 4, "op": "turn", "channel": C}       -> {"game", "status", "to_act": [{"user", "seat", "press"}]}
    {"id": 5, "op": "press", "channel": C, "user": U, "custom_id": X}   -> {"ok": true|false, "text"}
    {"id": 6, "op": "tick", "now": T}           -> {"skipped": true} or {"fired": [{"kind", "channel"}]}
    {"id": 7, "op": "quit"}

`turn` gives, for each human to act, the custom id of the private-menu button for the move
the game's AI policy would choose for them (the id carries the seat's own move count, as the
menu's do). `press` is acknowledged when the presser's private answer is the "✅" one. Any
command may carry `now`, which sets this process's clock first (deadlines are set from it).
`--no-render` skips drawing images (the multi-process test checks storage, not pictures).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from typing import Any

from bot.i18n import Translator
from bot.replies import Reply, User, Where
from bot.service import TableService, action_hash, custom_id
from bot.settings import load_settings
from bot.store import store_from_url

READY = "ready"


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
    def __init__(self, service: TableService, clock: Clock) -> None:
        self.service = service
        self.store = service.store
        self.clock = clock

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
        loaded = self.service._load(record)
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
        if not self.service.settings.primary:
            return {"skipped": True}  # as the adapter: only the process running shard 0 ticks
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
    service = TableService(store, settings, clock=clock, render_in_thread=not args.no_render)
    if args.no_render:
        async def no_image(fn: Any, *a: Any, **kw: Any) -> bytes:
            return b"\x89PNG"

        service._render = no_image  # type: ignore[method-assign]  # the test checks storage, not pictures
    driver = Driver(service, clock)
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
        task = asyncio.create_task(answer(cmd))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)
    await store.close()
    _say({"id": None, "bye": True})


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.multiproc_driver")
    parser.add_argument("--now", type=float, default=1_800_000_000.0, help="the clock's start (seconds)")
    parser.add_argument("--no-render", action="store_true", help="skip drawing board and hand images")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
