"""`Tables`: the games of the channels — loading them, one lock per channel, saving a lobby,
the deadlines of a turn — and this process's name on the leases and claims it takes."""

from __future__ import annotations

import asyncio
import functools
import os
import socket
import uuid
import weakref
from collections.abc import Callable

from bot import games
from bot.replies import Where
from bot.settings import Settings
from bot.store import GameRecord, Store, VersionConflict
from bot.table.hooks import Hooks
from bot.table.shared import Loaded, Refusal


def dead_here(owner: str, me: str) -> bool:
    """Whether a lease's owner was a process on this host that is gone (a bot restarted after
    a crash takes its leases at once instead of waiting for them to run out; another host's
    dead process is only known by its lease running out, and so is an earlier life of our own
    process id, e.g. pid 1 in a restarted container)."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != me.partition(":")[0] or not pid_text.isdigit() or int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, someone else's
        return False
    return False


class Tables:
    def __init__(self, store: Store, settings: Settings, clock: Callable[[], float], hooks: Hooks) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.hooks = hooks
        # a channel's lock lives while someone holds or waits for it: no table of every channel ever seen
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @functools.cached_property
    def instance(self) -> str:
        """This service's name on the leases and claims it takes: host, process id, instance."""
        return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def gone(self, owner: str) -> bool:
        """Whether the process named `owner` (on a lease or claim) is known to be dead."""
        return dead_here(owner, self.instance)

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def load(self, record: GameRecord) -> Loaded:
        spec = games.get(record.game_id)
        return Loaded(record, spec, spec.rules.load(record.state) if record.state else None)

    async def active(self, where: Where, status: str) -> GameRecord:
        """The channel's game, which must be in `status` ("lobby" or "running")."""
        record = await self.store.active_game(where.channel_id)
        if record is None:
            raise Refusal("error.no_game")
        if record.status != status:
            raise Refusal("error.not_started" if status == "running" else "error.already_started")
        return record

    async def running(self, where: Where) -> Loaded:
        return self.load(await self.active(where, "running"))

    def deadlines(self, record: GameRecord) -> tuple[float | None, float | None]:
        """When to remind the players a turn waits for, and when a stand-in plays for them."""
        now = self.clock()
        remind_h = float(record.settings.get("reminder_hours", self.settings.reminder_hours))
        timeout_h = float(record.settings.get("timeout_hours", self.settings.timeout_hours))
        remind = now + remind_h * 3600 if remind_h > 0 else None
        timeout = now + timeout_h * 3600 if timeout_h > 0 else None
        return remind, timeout

    def lobby_expiry(self) -> float | None:
        """When a lobby nobody touches closes by itself (None: never)."""
        hours = self.settings.lobby_idle_hours
        return self.clock() + hours * 3600 if hours > 0 else None

    def announce_at(self) -> float:
        """When a change's message is posted again unless Discord accepted it before: long
        enough for the ordinary post after the change to be reported (`announce_grace_seconds`)."""
        return self.clock() + self.settings.announce_grace_seconds

    async def save_lobby(self, record: GameRecord) -> None:
        """Save a lobby (or a seating change, a start, a resignation) if nobody changed it
        meanwhile, else refuse; in the same write, the channel is owed the message that shows it."""
        for saving in self.hooks.lobby_saving:
            saving(record)
        record.announce_due = self.announce_at() if record.status in ("lobby", "running", "finished") else None
        try:
            await self.store.save_lobby(record, expected_version=record.version)
        except VersionConflict:
            raise Refusal("error.conflict") from None
