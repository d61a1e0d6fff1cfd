"""The scheduler's work, across all games: finish AI moves a crash interrupted, remind
players, play one turn for absent ones whose time ran out, and close idle lobbies. The
deadlines and markers live in the database, so this survives restarts."""

from __future__ import annotations

import logging

from bot import games
from bot.i18n import Translator
from bot.replies import Reply
from bot.store import VersionConflict
from bot.table.play import PlayMixin
from bot.table.shared import Loaded, _fmt_hours

log = logging.getLogger("passepartout.service")


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
        for record in await self.store.due_games(now):
            try:
                async with self._lock(record.channel_id):
                    replies += await self._tick_game(record.id, now)
            except Exception:  # one broken game must not stop the others' reminders
                log.exception("scheduler: game %s failed", record.id)
        replies += await self._close_idle_lobbies(now)
        return replies

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
            await self.store.set_deadlines(fresh.id, remind_at=now + remind_h * 3600 if remind_h > 0 else None,
                                           timeout_at=fresh.timeout_at)
            return [Reply("channel", t("reminder", who=who, hours=_fmt_hours(hours)), channel_id=fresh.channel_id,
                          mentions=ids, rows=self._turn_rows(loaded, t))]
        await self.store.set_deadlines(
            fresh.id, remind_at=None if fresh.remind_at and fresh.remind_at <= now else fresh.remind_at,
            timeout_at=None if fresh.timeout_at and fresh.timeout_at <= now else fresh.timeout_at)
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
            await self.store.set_ai_pending(loaded.record.id, False)
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

