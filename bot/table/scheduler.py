"""The scheduler's work, across all games: finish AI moves a crash interrupted, remind
players, play one turn for absent ones whose time ran out, and close idle lobbies. The
deadlines and markers live in the database, so this survives restarts. Several bot processes
may share one database: each claims due games with a lease (`Store.claim_due`), so every
reminder and timeout is handled by one process, and a crashed process's lease runs out."""

from __future__ import annotations

import functools
import logging
import os
import socket
import uuid

from bot import games
from bot.i18n import Translator
from bot.replies import Reply
from bot.store import VersionConflict
from bot.table.play import PlayMixin
from bot.table.shared import Loaded, _fmt_hours

log = logging.getLogger("passepartout.service")

#: how long a claimed due game is this process's; far longer than handling one game takes,
#: short enough that a crashed process's reminders come at most this late
LEASE_SECONDS = 300.0


def _dead_here(owner: str, me: str) -> bool:
    """Whether a lease's owner was a process on this host that is gone (a bot restarted after
    a crash takes its leases at once instead of waiting LEASE_SECONDS; another host's dead
    process is only known by its lease running out, and so is an earlier life of our own
    process id, e.g. pid 1 in a restarted container: this process may run several services)."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != me.partition(":")[0] or not pid_text.isdigit() or int(pid_text) == os.getpid():
        return False
    pid = int(pid_text)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, someone else's
        return False
    return False


class SchedulerMixin(PlayMixin):
    """Time-driven work; `tick` is called by the adapters every minute and once at start."""

    # -- time -----------------------------------------------------------------------
    async def tick(self) -> list[Reply]:
        """The scheduler's work, across all games (the deadlines and markers are in the
        database, so this survives restarts; the adapters also run it once at start):
        finish AI moves a crash interrupted, remind, play one turn for absent players whose
        timeout passed, and close lobbies nobody touched for a long time."""
        now = self.clock()
        replies: list[Reply] = []
        for owner in await self.store.lease_owners(now):
            if _dead_here(owner, self.lease_owner):
                await self.store.expire_leases(owner)
        for record in await self.store.claim_due(now, owner=self.lease_owner, lease_seconds=LEASE_SECONDS):
            try:
                async with self._lock(record.channel_id):
                    replies += await self._tick_game(record.id, now)
            except VersionConflict:  # a move (maybe in another process) got there first: nothing is due now
                log.info("scheduler: game %s moved on while it was handled; the next tick looks again", record.id)
            except Exception:  # one broken game must not stop the others' reminders
                log.exception("scheduler: game %s failed", record.id)
            finally:
                await self.store.release_lease(record.id, owner=self.lease_owner)
        replies += await self._close_idle_lobbies(now)
        await self._recover_memories()  # the adapters post what it queued, as after any tick
        return replies

    @functools.cached_property
    def lease_owner(self) -> str:
        """This service's name on the leases it takes: host, process id, instance."""
        return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def _claimant_gone(self, claimant: str) -> bool:
        """A claim on a game's pictures by a process of this host that died (a restart posts
        them at once, not CLAIM_SECONDS later)."""
        return _dead_here(claimant, self.lease_owner)

    async def _tick_game(self, game_pk: int, now: float) -> list[Reply]:
        """One due game, under its channel lock. Idempotent: it re-reads the game and acts
        only on what is still due."""
        fresh = await self.store.get_game(game_pk)
        if fresh is None or fresh.status != "running":
            return []
        loaded = self._load(fresh)
        t = self.game_t(fresh, loaded.ui)
        if fresh.ai_pending:
            replies = await self._resume_ai(loaded, t)
            if replies:
                return replies
        waiting = [s for s in loaded.rules.to_act(loaded.state)
                   if (r := fresh.seat_record(s)) is not None and not r.is_bot]
        if fresh.timeout_at is not None and fresh.timeout_at <= now and waiting:
            names = ", ".join(loaded.names[s] for s in waiting)
            events = await self._run_ai(loaded, stand_in=set(waiting))
            return await self._after_change(loaded, events, note=t("timeout.played", names=names))
        if fresh.remind_at is not None and fresh.remind_at <= now and waiting:
            who, ids = self._mention(loaded, waiting)
            hours = fresh.settings.get("reminder_hours", self.settings.reminder_hours)
            remind_h = float(hours)
            # only if no move came meanwhile (else VersionConflict: the new turn has its own deadlines)
            await self.store.set_deadlines(fresh.id, remind_at=now + remind_h * 3600 if remind_h > 0 else None,
                                           timeout_at=fresh.timeout_at, expected_version=fresh.version)
            return [Reply("channel", t("reminder", who=who, hours=_fmt_hours(hours)), channel_id=fresh.channel_id,
                          mentions=ids, rows=self._turn_rows(loaded, t))]
        await self.store.set_deadlines(
            fresh.id, remind_at=None if fresh.remind_at and fresh.remind_at <= now else fresh.remind_at,
            timeout_at=None if fresh.timeout_at and fresh.timeout_at <= now else fresh.timeout_at,
            expected_version=fresh.version)
        return []

    def _waiting_humans(self, loaded: Loaded) -> list[str]:
        if loaded.rules.is_over(loaded.state):
            return []
        return [s for s in loaded.rules.to_act(loaded.state)
                if (r := loaded.record.seat_record(s)) is not None and not r.is_bot]

    async def _resume_ai(self, loaded: Loaded, t: Translator) -> list[Reply]:
        """AI moves that a crash interrupted: an AI seat to move, or an absent player's
        stand-in turn that had begun (its last logged move was a timeout move and the seat
        is still to act). Announced like any turn; clears the marker when nothing is left."""
        last = await self.store.last_action(loaded.record.id)
        to_act = loaded.rules.to_act(loaded.state)
        resumed = {last.seat} if last is not None and last.actor == "timeout" and last.seat in to_act else set()
        events = await self._run_ai(loaded, stand_in=resumed, started=resumed)
        if not events:
            await self.store.set_ai_pending(loaded.record.id, False, expected_version=loaded.record.version)
            return []
        log.info("scheduler: resumed the AI moves of game %s (%d events)", loaded.record.id, len(events))
        return await self._after_change(loaded, events, note=t("resumed"))

    async def _close_idle_lobbies(self, now: float) -> list[Reply]:
        hours = self.settings.lobby_idle_hours
        replies: list[Reply] = []
        for record in await self.store.idle_lobbies(now):
            async with self._lock(record.channel_id):
                record.status = "cancelled"
                record.timeout_at = None
                try:
                    await self.store.save_lobby(record, expected_version=record.version)
                except VersionConflict:
                    continue  # someone used the lobby just now: it is not idle
            t = self.game_t(record, games.get(record.game_id).ui)
            replies.append(Reply("channel", t("lobby.expired", title=t("title"), hours=_fmt_hours(hours)),
                                 channel_id=record.channel_id))
        return replies

