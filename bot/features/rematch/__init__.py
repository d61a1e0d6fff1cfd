"""Rematch: the final message's public **Rematch** button (its custom id names only the finished
game) opens a new table in the channel with the same game, options, settings and seats.

The presser is seated and hosts; AI seats come along; the other players of the finished game
keep their seats as *invited* (pinged) and confirm by pressing Rematch or Join within
`Settings.rematch_minutes`. Once everyone invited has confirmed, the game starts by itself. At
the deadline the scheduler drops the seats nobody confirmed and starts the game if enough
players remain; otherwise the table stays an ordinary lobby the host can fill and start. The
host may also press Start earlier: unconfirmed seats are dropped first.

No schema change: the invitation lives in the lobby's settings (``settings["rematch"]``) and
its deadline in the lobby's `timeout_at` (the idle-lobby deadline, so the scheduler's existing
index finds it)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot import games
from bot.i18n import Translator
from bot.replies import Button, Reply, User, Where
from bot.store import ChannelBusy, GameRecord, SeatRecord, VersionConflict
from bot.table.hooks import Hooks
from bot.table.ids import Press, custom_id
from bot.table.lobby import Lobby, is_host
from bot.table.messages import Messages
from bot.table.shared import AI_USER_BASE, Loaded, Refusal, duration_text
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.text import clean, md

#: resigned seats are played by the AI under ids below this (see `Play.resign`); they do not
#: come along to a rematch
_RESIGNED_BELOW = AI_USER_BASE - 99


def _pending(record: GameRecord) -> list[int]:
    return list(record.settings.get("rematch", {}).get("pending", []))


class Rematch:
    def __init__(self, tables: Tables, talk: Talk, messages: Messages, lobby: Lobby) -> None:
        self.tables = tables
        self.talk = talk
        self.messages = messages
        self.lobby = lobby

    def install(self, hooks: Hooks) -> None:
        hooks.component("rematch", self.press)
        hooks.board.append(self.offer)
        hooks.lobby_notes.append(self.waiting_line)
        hooks.lobby_saving.append(self.keep_deadline)
        hooks.on_join.append(self.join)
        hooks.on_start.append(self.start)

    # -- the button on the final message ------------------------------------------------------
    @staticmethod
    def offer(loaded: Loaded, t: Translator, reply: Reply) -> Reply:
        if not loaded.rules.is_over(loaded.state):
            return reply
        return replace(reply, rows=[[Button(t("button.rematch"), custom_id(loaded.record.id, 0, "rematch"),
                                            "success", "🔁")]])

    async def press(self, user: User, where: Where, press: Press) -> list[Reply]:
        return await self.rematch(user, where, game_pk=press.game_pk)

    # -- asking for a rematch ----------------------------------------------------------------
    async def rematch(self, user: User, where: Where, *, game_pk: int | None = None) -> list[Reply]:
        """A rematch of `game_pk` (a button) or of the channel's last game (`/game rematch`)."""
        store = self.tables.store
        async with self.tables.lock(where.channel_id):
            last = await store.last_game(where.channel_id)
            if game_pk is None and last is not None and last.active and "rematch" in last.settings:
                return await self._confirm(user, last)  # `/game rematch` while the invitation is open
            if game_pk is None and last is not None and last.active:
                raise Refusal("rematch.busy")
            old = await store.get_game(game_pk) if game_pk is not None else last
            if old is None or old.channel_id != where.channel_id or last is None:
                raise Refusal("rematch.no_game")
            if last.id != old.id:
                if last.active and last.settings.get("rematch", {}).get("of") == old.id:
                    return await self._confirm(user, last)
                raise Refusal("rematch.busy" if last.active else "rematch.not_last")
            if old.status != "finished":
                raise Refusal("rematch.not_finished")
            if old.seat_of_user(user.id) is None:
                raise Refusal("rematch.not_player")
            return await self._open(user, old)

    async def _open(self, user: User, old: GameRecord) -> list[Reply]:
        spec = games.get(old.game_id)
        settings = {k: v for k, v in old.settings.items() if k != "rematch"}
        minutes = self.tables.settings.rematch_minutes
        until = self.tables.clock() + minutes * 60
        dm = await self.tables.store.user_dm(user.id)
        mine = old.seat_of_user(user.id)
        host = SeatRecord(position=0, user_id=user.id, name=clean(user.name), lang=mine.lang if mine else None, dm=dm)
        invited: list[int] = []
        seats: list[SeatRecord] = []
        for seat in sorted(old.seats, key=lambda s: s.position):
            if seat.user_id == user.id and not seat.is_bot:
                seats.append(host)
            elif seat.is_bot and seat.user_id > _RESIGNED_BELOW:
                seats.append(SeatRecord(position=0, user_id=seat.user_id, name=seat.name, is_bot=True))
            elif not seat.is_bot:
                invited.append(seat.user_id)
                seats.append(SeatRecord(position=0, user_id=seat.user_id, name=seat.name, lang=seat.lang, dm=seat.dm))
        for position, seat in enumerate(seats):
            seat.position = position
        settings["rematch"] = {"of": old.id, "pending": invited, "until": until}
        try:
            record = await self.tables.store.create_game(
                channel_id=old.channel_id, guild_id=old.guild_id, game_id=old.game_id, host=host,
                options=dict(old.options), settings=settings, expires_at=until, announce_at=self.tables.announce_at(),
                seed=random.SystemRandom().randrange(1, 2**31))
        except ChannelBusy:
            raise Refusal("rematch.busy") from None
        record.seats = seats
        await self.tables.save_lobby(record)
        t = self.talk.game_t(record, spec.ui)
        if not invited:
            return await self._start_as_host(record)
        note = t("rematch.opened", name=md(clean(user.name)), title=t("title"),
                 who=", ".join(f"<@{i}>" for i in invited), minutes=duration_text(minutes / 60, t))
        return [replace(self.messages.lobby(record, note), mentions=list(invited))]

    async def _confirm(self, user: User, record: GameRecord) -> list[Reply]:
        """An invited player says yes (caller holds the channel lock); the last yes starts the game."""
        invite = record.settings.get("rematch", {})
        pending = _pending(record)
        if user.id not in pending:
            if record.seat_of_user(user.id) is not None:
                raise Refusal("rematch.already")
            raise Refusal("rematch.not_invited")
        if record.status != "lobby":
            raise Refusal("rematch.busy")
        pending.remove(user.id)
        record.settings["rematch"] = {**invite, "pending": pending}
        await self.tables.save_lobby(record)
        if not pending:
            return await self._start_as_host(record)
        t = self.talk.game_t(record, games.get(record.game_id).ui)
        return [self.messages.lobby(record, t("lobby.joined", name=md(clean(user.name))))]

    async def _start_as_host(self, record: GameRecord, note: str | None = None) -> list[Reply]:
        """Start the rematch as its host would (caller holds the channel lock)."""
        _drop_unconfirmed(record)
        record.settings.pop("rematch", None)
        await self.tables.save_lobby(record)
        rules = games.get(record.game_id).rules
        if not rules.min_players <= len(record.seats) <= rules.max_players:
            return [self.messages.lobby(record, note)]
        return await self.lobby.start_locked(record, note=note)

    # -- lobby hooks ----------------------------------------------------------------------------
    def waiting_line(self, record: GameRecord, t: Translator) -> str | None:
        pending = _pending(record) if record.status == "lobby" else []
        if not pending:
            return None
        names = ", ".join(md(s.name) for s in record.seats if s.user_id in pending and not s.is_bot)
        return t("rematch.waiting", names=names, until=f"<t:{int(record.settings['rematch']['until'])}:R>")

    @staticmethod
    def keep_deadline(record: GameRecord) -> None:
        """An open invitation's deadline stays the lobby's `timeout_at` (lobby edits reset it to
        the idle deadline)."""
        invite = record.settings.get("rematch", {})
        if record.status == "lobby" and invite.get("pending"):
            record.timeout_at = float(invite["until"])

    async def join(self, user: User, where: Where, record: GameRecord) -> list[Reply] | None:
        """Joining a rematch one was invited to confirms the invitation."""
        if user.id not in _pending(record):
            return None
        return await self._confirm(user, record)

    async def start(self, user: User, where: Where, record: GameRecord) -> list[Reply] | None:
        """The host starts before everyone confirmed: the unconfirmed seats go first."""
        if not _pending(record) or not is_host(record, user, where):
            return None
        _drop_unconfirmed(record)
        record.settings.pop("rematch", None)
        record.timeout_at = self.tables.lobby_expiry()
        await self.tables.save_lobby(record)
        return None  # the usual start goes on

    # -- the deadline ---------------------------------------------------------------------------
    async def invitations_over(self) -> list[Reply]:
        """Close the invitations whose time ran out."""
        store = self.tables.store
        replies: list[Reply] = []
        for lobby in await store.idle_lobbies(self.tables.clock()):
            if not _pending(lobby):
                continue
            async with self.tables.lock(lobby.channel_id):
                fresh = await store.get_game(lobby.id)
                if fresh is None or fresh.status != "lobby" or not _pending(fresh):
                    continue
                try:
                    replies += await self._invitation_over(fresh)
                except (Refusal, VersionConflict):
                    continue  # someone used the lobby just now; the next tick looks again
        return replies

    async def _invitation_over(self, record: GameRecord) -> list[Reply]:
        t = self.talk.game_t(record, games.get(record.game_id).ui)
        dropped = _drop_unconfirmed(record)
        record.settings.pop("rematch", None)
        record.timeout_at = self.tables.lobby_expiry()
        humans = [s for s in record.seats if not s.is_bot]
        if not humans:
            record.status = "cancelled"
        elif record.host_id not in {s.user_id for s in humans}:
            record.host_id = humans[0].user_id
        await self.tables.save_lobby(record)
        if record.status == "cancelled":
            return [Reply("channel", t("lobby.closed"), channel_id=record.channel_id)]
        note = t("rematch.dropped", names=", ".join(md(s.name) for s in dropped)) if dropped else None
        rules = games.get(record.game_id).rules
        if rules.min_players <= len(record.seats) <= rules.max_players:
            # the note is part of the change, so followers' copies carry it too
            return await self.lobby.start_locked(record, note=note)
        return [self.messages.lobby(record, note)]


def _drop_unconfirmed(record: GameRecord) -> list[SeatRecord]:
    pending = set(_pending(record))
    dropped = [s for s in record.seats if not s.is_bot and s.user_id in pending]
    record.seats = [s for s in record.seats if s not in dropped]
    if pending:
        record.settings["rematch"] = {**record.settings["rematch"], "pending": []}
    return dropped
