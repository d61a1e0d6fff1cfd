"""`Scheduler`: the table's time-driven work. `tick` (called by the adapters every minute
and once at start) runs the tick jobs in the order the wiring installed them; the
scheduler's own jobs finish AI moves a crash interrupted, remind players, play one turn for
absent ones whose time ran out, and close idle lobbies. The deadlines and markers live in
the database, so this survives restarts. Several bot processes may share one database: each
claims due games with a lease (`Store.claim_due`), so every reminder and timeout is handled
by one process, and a crashed process's lease runs out."""

from __future__ import annotations

import logging

from bot import games
from bot.i18n import Translator
from bot.replies import Announcement, Reply
from bot.store import VersionConflict
from bot.table.hooks import Hooks
from bot.table.messages import Messages
from bot.table.shared import Loaded, duration_text
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.table.turns import Turns

log = logging.getLogger("passepartout.service")

#: how long a claimed due game is this process's; far longer than handling one game takes,
#: short enough that a crashed process's reminders come at most this late
LEASE_SECONDS = 300.0


class Scheduler:
    def __init__(self, tables: Tables, talk: Talk, messages: Messages, turns: Turns, hooks: Hooks) -> None:
        self.tables = tables
        self.talk = talk
        self.messages = messages
        self.turns = turns
        self.hooks = hooks

    async def tick(self) -> list[Reply]:
        replies: list[Reply] = []
        for _name, job in self.hooks.tick_jobs:
            replies += await job()
        return replies

    async def due_games(self) -> list[Reply]:
        """Reminders, timeouts and interrupted AI moves of the games that are due now."""
        store, now = self.tables.store, self.tables.clock()
        replies: list[Reply] = []
        for owner in await store.lease_owners(now):
            if self.tables.gone(owner):
                await store.expire_leases(owner)
        for record in await store.claim_due(now, owner=self.tables.instance, lease_seconds=LEASE_SECONDS):
            try:
                async with self.tables.lock(record.channel_id):
                    replies += await self._tick_game(record.id, now)
            except VersionConflict:  # a move (maybe in another process) got there first: nothing is due now
                log.info("scheduler: game %s moved on while it was handled; the next tick looks again", record.id)
            except Exception:  # one broken game must not stop the others' reminders
                log.exception("scheduler: game %s failed", record.id)
            finally:
                await store.release_lease(record.id, owner=self.tables.instance)
        return replies

    async def _tick_game(self, game_pk: int, now: float) -> list[Reply]:
        """One due game, under its channel lock. Idempotent: it re-reads the game and acts
        only on what is still due."""
        store = self.tables.store
        fresh = await store.get_game(game_pk)
        if fresh is None or fresh.status != "running":
            return []
        loaded = self.tables.load(fresh)
        t = self.talk.game_t(fresh, loaded.ui)
        if fresh.ai_pending:
            replies = await self._resume_ai(loaded, t)
            if replies:
                return replies
        waiting = self.turns.waiting_humans(loaded)
        if fresh.timeout_at is not None and fresh.timeout_at <= now and waiting:
            names = ", ".join(loaded.names[s] for s in waiting)
            events = await self.turns.run_ai(loaded, stand_in=set(waiting))
            return await self.turns.publish(loaded, "timeout", events, note=t("timeout.played", names=names))
        if fresh.remind_at is not None and fresh.remind_at <= now and waiting:
            who, ids = self.messages.mention(loaded, waiting)
            hours = fresh.settings.get("reminder_hours", self.tables.settings.reminder_hours)
            remind_h = float(hours)
            # only if no move came meanwhile (else VersionConflict: the new turn has its own deadlines)
            await store.set_deadlines(fresh.id, remind_at=now + remind_h * 3600 if remind_h > 0 else None,
                                      timeout_at=fresh.timeout_at, expected_version=fresh.version)
            return [Reply("channel", t("reminder", who=who, hours=duration_text(hours, t)), channel_id=fresh.channel_id,
                          mentions=ids, rows=self.messages.turn_rows(loaded, t),
                          announces=Announcement(fresh.id, fresh.version))]
        await store.set_deadlines(
            fresh.id, remind_at=None if fresh.remind_at and fresh.remind_at <= now else fresh.remind_at,
            timeout_at=None if fresh.timeout_at and fresh.timeout_at <= now else fresh.timeout_at,
            expected_version=fresh.version)
        return []

    async def _resume_ai(self, loaded: Loaded, t: Translator) -> list[Reply]:
        """AI moves that a crash interrupted: an AI seat to move, or an absent player's
        stand-in turn that had begun (its last logged move was a timeout move and the seat
        is still to act). Announced like any turn; clears the marker when nothing is left."""
        store = self.tables.store
        last = await store.last_action(loaded.record.id)
        to_act = loaded.rules.to_act(loaded.state)
        resumed = {last.seat} if last is not None and last.actor == "timeout" and last.seat in to_act else set()
        events = await self.turns.run_ai(loaded, stand_in=resumed, started=resumed)
        if not events:
            await store.set_ai_pending(loaded.record.id, False, expected_version=loaded.record.version)
            return []
        log.info("scheduler: resumed the AI moves of game %s (%d events)", loaded.record.id, len(events))
        return await self.turns.publish(loaded, "resume", events, note=t("resumed"))

    async def idle_lobbies(self) -> list[Reply]:
        """Close the lobbies nobody touched for `lobby_idle_hours`."""
        hours = self.tables.settings.lobby_idle_hours
        replies: list[Reply] = []
        for record in await self.tables.store.idle_lobbies(self.tables.clock()):
            async with self.tables.lock(record.channel_id):
                record.status = "cancelled"
                record.timeout_at = None
                try:
                    await self.tables.store.save_lobby(record, expected_version=record.version)
                except VersionConflict:
                    continue  # someone used the lobby just now: it is not idle
            t = self.talk.game_t(record, games.get(record.game_id).ui)
            replies.append(Reply("channel", t("lobby.expired", title=t("title"), hours=duration_text(hours, t)),
                                 channel_id=record.channel_id))
        return replies
