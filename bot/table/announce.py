"""`Announcements`: what a change owes its channel, until Discord accepted it.

A change and the message it owes are written in one transaction (`announce_due` on the
game). The adapter reports each channel message that carries an `Announcement`: accepted
(`delivered`: nothing is owed up to that version) or not (`undelivered`: owed again after a
backoff). The `owed` tick job re-posts what is due — the game *as it is now*, one message
pinging whoever it waits for, never one per missed version — so an HTTP error, a timeout, a
kill or a deploy between the commit and the post loses nothing players see.

A game whose channel is gone (deleted, or the bot removed from the server) is paused: no
reminders, no stand-ins, no messages; its players are told by DM. It goes on when the
channel is seen again (the bot back in the server), and is cancelled after `PAUSE_DAYS`."""

from __future__ import annotations

import logging

from bot import games
from bot.replies import Reply
from bot.store import GameRecord
from bot.table.messages import Messages
from bot.table.tables import Tables
from bot.table.talk import Talk

log = logging.getLogger("passepartout.service")

#: how long one process has to re-post a message it took (another process may take it after)
CLAIM_SECONDS = 60.0
#: the longest wait between failed attempts (the first is `announce_retry_seconds`, doubling)
BACKOFF_MAX = 600.0
#: a game paused this long (its channel never came back) is cancelled; the players' DM says "a week"
PAUSE_DAYS = 7.0


class Announcements:
    def __init__(self, tables: Tables, talk: Talk, messages: Messages) -> None:
        self.tables = tables
        self.talk = talk
        self.messages = messages

    # -- what the adapter reports --------------------------------------------------------------
    async def delivered(self, reply: Reply) -> None:
        """Discord took the message: the channel's (its followers are owed their copy of it
        from now + the grace, unless theirs is reported first), or a follower's copy."""
        owed, store = reply.announces, self.tables.store
        if owed is None:
            return
        if reply.follow is not None and reply.user_id is not None:
            await store.copied(owed.game_pk, reply.user_id, owed.version)
        else:
            await store.announced(owed.game_pk, owed.version, copies_due=self.tables.announce_at())

    async def undelivered(self, reply: Reply) -> None:
        """Discord did not take the message (an error, a timeout): it is owed again after a
        backoff that grows with each failure."""
        if reply.announces is None:
            return
        if reply.follow is not None and reply.user_id is not None:
            retry = self.tables.clock() + self.tables.settings.announce_retry_seconds
            await self.tables.store.copy_failed(reply.announces.game_pk, reply.user_id, retry)
            return
        record = await self.tables.store.get_game(reply.announces.game_pk)
        tries = record.announce_tries if record is not None else 0
        delay = min(BACKOFF_MAX, self.tables.settings.announce_retry_seconds * 2 ** min(tries, 10))
        await self.tables.store.announce_failed(reply.announces.game_pk, reply.announces.version,
                                                self.tables.clock() + delay)

    # -- the tick job: what is owed and due ------------------------------------------------------
    async def owed(self) -> list[Reply]:
        store, now = self.tables.store, self.tables.clock()
        replies: list[Reply] = []
        for record in await store.due_announcements(now):
            if record.announce_due is None or record.game_id not in games.specs():
                continue
            if not await store.claim_announcement(record.id, record.announce_due, now + CLAIM_SECONDS):
                continue  # another process took it
            try:
                async with self.tables.lock(record.channel_id):
                    fresh = await store.get_game(record.id)
                    if fresh is not None:
                        replies.append(await self._message_now(fresh))
            except Exception:  # one broken game must not keep the others' messages back
                log.exception("announcements: game %s failed", record.id)
        if replies:
            log.info("announcements: posting %d owed message(s) again", len(replies))
        return replies

    async def _message_now(self, record: GameRecord) -> Reply:
        """The game's message as it is now: the lobby, or the board (the result once over)."""
        spec = games.get(record.game_id)
        t = self.talk.game_t(record, spec.ui)
        if record.status == "lobby":
            return self.messages.lobby(record, t("announce.again"))
        loaded = self.tables.load(record)
        return await self.messages.board(loaded, t, [], note=t("announce.again"))

    # -- channels that are gone -------------------------------------------------------------------
    async def channel_gone(self, channel_id: int) -> list[Reply]:
        return await self._pause(await self.tables.store.pause_games(at=self.tables.clock(), channel_id=channel_id))

    async def guild_gone(self, guild_id: int) -> list[Reply]:
        return await self._pause(await self.tables.store.pause_games(at=self.tables.clock(), guild_id=guild_id))

    async def _pause(self, paused: list[GameRecord]) -> list[Reply]:
        """Each player of a paused game hears it by DM, in their language."""
        replies: list[Reply] = []
        for record in paused:
            log.info("game %s paused: its channel %s is gone", record.id, record.channel_id)
            ui = games.get(record.game_id).ui
            for seat in record.seats:
                if seat.is_bot:
                    continue
                t = self.talk.t(seat.lang, ui)
                replies.append(Reply("dm", t("paused.dm", title=t("title"), channel=f"<#{record.channel_id}>"),
                                     user_id=seat.user_id))
        return replies

    async def channels_back(self, guild_id: int, channel_ids: list[int]) -> list[Reply]:
        """The bot sees these channels of a server again: their paused games go on, and their
        message is owed at once (the next tick posts it)."""
        resumed = await self.tables.store.resume_games(guild_id, channel_ids, announce_at=self.tables.clock())
        for record in resumed:
            log.info("game %s resumed: its channel %s is back", record.id, record.channel_id)
        return []

    async def paused_too_long(self) -> list[Reply]:
        """The tick job that cancels games paused for `PAUSE_DAYS` (their channel never came back)."""
        store = self.tables.store
        for record in await store.paused_games(self.tables.clock() - PAUSE_DAYS * 86400):
            async with self.tables.lock(record.channel_id):
                record.status = "cancelled"
                record.remind_at = record.timeout_at = None
                try:
                    await self.tables.save_lobby(record)
                except Exception:
                    log.exception("could not cancel the paused game %s", record.id)
        return []
