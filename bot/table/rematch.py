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
from typing import Any

from bot import games
from bot.replies import Button, Reply, User, Where
from bot.store import ChannelBusy, GameRecord, SeatRecord, VersionConflict
from bot.table.base import refusing
from bot.table.ids import custom_id, parse_custom_id
from bot.table.shared import AI_USER_BASE, Loaded, Refusal
from bot.table.undo import UndoMixin
from bot.text import clean, md

#: resigned seats are played by the AI under ids below this (see PlayMixin.resign); they do not
#: come along to a rematch
_RESIGNED_BELOW = AI_USER_BASE - 99


class RematchMixin(UndoMixin):
    """The Rematch button and command, confirming invitations, and their deadline."""

    # -- the button on the final message -------------------------------------------------
    async def _board_reply(self, loaded: Loaded, t: Any, events: list[dict[str, Any]], **kw: Any) -> Reply:
        reply = await super()._board_reply(loaded, t, events, **kw)
        if loaded.rules.is_over(loaded.state):
            reply.rows = [[Button(t("button.rematch"), custom_id(loaded.record.id, 0, "rematch"), "success", "🔁")]]
        return reply

    async def component(self, user: User, where: Where, value: str, values: list[str] | None = None) -> list[Reply]:
        """Undo and Rematch presses; everything else as `PlayMixin.component`."""
        parsed = parse_custom_id(value)
        if parsed is not None and parsed[2] == "rematch":
            return await self.rematch(user, where, game_pk=parsed[0])
        if parsed is not None and parsed[2] == "undo":
            record = await self.store.get_game(parsed[0])
            if record is not None and record.channel_id != where.channel_id:
                where = Where(channel_id=record.channel_id, guild_id=record.guild_id, guild_locale=where.guild_locale)
            return await self.undo(user, where, game_pk=parsed[0], version=parsed[1])
        return await super().component(user, where, value, values)

    # -- asking for a rematch --------------------------------------------------------------
    @refusing
    async def rematch(self, user: User, where: Where, *, game_pk: int | None = None) -> list[Reply]:
        """A rematch of `game_pk` (a button) or of the channel's last game (`/game rematch`)."""
        async with self._lock(where.channel_id):
            last = await self.store.last_game(where.channel_id)
            if game_pk is None and last is not None and last.active and "rematch" in last.settings:
                return await self._confirm(user, last)  # `/game rematch` while the invitation is open
            if game_pk is None and last is not None and last.active:
                raise Refusal("rematch.busy")
            old = await self.store.get_game(game_pk) if game_pk is not None else last
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
            return await self._open_rematch(user, where, old)

    async def _open_rematch(self, user: User, where: Where, old: GameRecord) -> list[Reply]:
        spec = games.get(old.game_id)
        settings = {k: v for k, v in old.settings.items() if k != "rematch"}
        until = self.clock() + self.settings.rematch_minutes * 60
        dm = await self.store.user_dm(user.id)
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
            record = await self.store.create_game(
                channel_id=old.channel_id, guild_id=old.guild_id, game_id=old.game_id, host=host,
                options=dict(old.options), settings=settings, expires_at=until,
                seed=random.SystemRandom().randrange(1, 2**31))
        except ChannelBusy:
            raise Refusal("rematch.busy") from None
        record.seats = seats
        await self._save_lobby(record)
        t = self.game_t(record, spec.ui)
        if not invited:
            return await self._start_as_host(record, where)
        note = t("rematch.opened", name=md(clean(user.name)), title=t("title"),
                 who=", ".join(f"<@{i}>" for i in invited), minutes=self.settings.rematch_minutes)
        reply = self._lobby_message(record, note)
        reply.mentions = list(invited)
        return [reply]

    async def _confirm(self, user: User, record: GameRecord) -> list[Reply]:
        """An invited player says yes (caller holds the channel lock); the last yes starts the game."""
        invite = record.settings.get("rematch", {})
        pending = list(invite.get("pending", []))
        if user.id not in pending:
            if record.seat_of_user(user.id) is not None:
                raise Refusal("rematch.already")
            raise Refusal("rematch.not_invited")
        if record.status != "lobby":
            raise Refusal("rematch.busy")
        pending.remove(user.id)
        record.settings["rematch"] = {**invite, "pending": pending}
        await self._save_lobby(record)
        where = Where(channel_id=record.channel_id, guild_id=record.guild_id)
        if not pending:
            return await self._start_as_host(record, where)
        t = self.game_t(record, games.get(record.game_id).ui)
        return [self._lobby_message(record, t("lobby.joined", name=md(clean(user.name))))]

    async def _start_as_host(self, record: GameRecord, where: Where) -> list[Reply]:
        """Start the rematch as its host would (caller holds the channel lock)."""
        self._drop_unconfirmed(record)
        record.settings.pop("rematch", None)
        await self._save_lobby(record)
        rules = games.get(record.game_id).rules
        if not rules.min_players <= len(record.seats) <= rules.max_players:
            return [self._lobby_message(record)]
        return await self._start_locked(record)

    @staticmethod
    def _drop_unconfirmed(record: GameRecord) -> list[SeatRecord]:
        pending = set(record.settings.get("rematch", {}).get("pending", []))
        dropped = [s for s in record.seats if not s.is_bot and s.user_id in pending]
        record.seats = [s for s in record.seats if s not in dropped]
        if pending:
            record.settings["rematch"] = {**record.settings["rematch"], "pending": []}
        return dropped

    # -- lobby hooks -------------------------------------------------------------------------
    def _lobby_message(self, record: GameRecord, note: str | None = None) -> Reply:
        pending = record.settings.get("rematch", {}).get("pending", []) if record.status == "lobby" else []
        if pending:
            t = self.game_t(record, games.get(record.game_id).ui)
            names = ", ".join(md(s.name) for s in record.seats if s.user_id in pending and not s.is_bot)
            line = t("rematch.waiting", names=names, until=f"<t:{int(record.settings['rematch']['until'])}:R>")
            note = f"{note}\n{line}" if note else line
        return super()._lobby_message(record, note)

    async def _save_lobby(self, record: GameRecord) -> None:
        """As `TableBase._save_lobby`, keeping an open invitation's deadline as the lobby's
        `timeout_at` (lobby edits reset it to the idle deadline)."""
        invite = record.settings.get("rematch", {})
        if record.status == "lobby" and invite.get("pending"):
            record.timeout_at = float(invite["until"])
        await super()._save_lobby(record)

    async def join(self, user: User, where: Where) -> list[Reply]:
        """Join, or confirm an invitation to a rematch."""
        async with self._lock(where.channel_id):
            record = await self.store.active_game(where.channel_id)
            if record is not None and user.id in record.settings.get("rematch", {}).get("pending", []):
                try:
                    return await self._confirm(user, record)
                except Refusal as r:
                    return self.refused(user, r)
        return await super().join(user, where)

    async def start(self, user: User, where: Where) -> list[Reply]:
        """Start; in a rematch whose invitations are still open, the unconfirmed seats go first."""
        async with self._lock(where.channel_id):
            record = await self.store.active_game(where.channel_id)
            if record is not None and record.status == "lobby" and record.settings.get("rematch", {}).get("pending") \
                    and self._is_host(record, user, where):
                self._drop_unconfirmed(record)
                record.settings.pop("rematch", None)
                record.timeout_at = self._lobby_expiry()
                try:
                    await self._save_lobby(record)
                except Refusal as r:
                    return self.refused(user, r)
        return await super().start(user, where)

    # -- the deadline ------------------------------------------------------------------------
    async def tick(self) -> list[Reply]:
        """Close the invitations whose time ran out, then the scheduler's usual work."""
        now = self.clock()
        replies: list[Reply] = []
        for lobby in await self.store.idle_lobbies(now):
            if not lobby.settings.get("rematch", {}).get("pending"):
                continue
            async with self._lock(lobby.channel_id):
                fresh = await self.store.get_game(lobby.id)
                if fresh is None or fresh.status != "lobby" or not fresh.settings.get("rematch", {}).get("pending"):
                    continue
                try:
                    replies += await self._invitation_over(fresh)
                except (Refusal, VersionConflict):
                    continue  # someone used the lobby just now; the next tick looks again
        return replies + await super().tick()

    async def _invitation_over(self, record: GameRecord) -> list[Reply]:
        t = self.game_t(record, games.get(record.game_id).ui)
        dropped = self._drop_unconfirmed(record)
        record.settings.pop("rematch", None)
        record.timeout_at = self._lobby_expiry()
        humans = [s for s in record.seats if not s.is_bot]
        if not humans:
            record.status = "cancelled"
        elif record.host_id not in {s.user_id for s in humans}:
            record.host_id = humans[0].user_id
        await self._save_lobby(record)
        if record.status == "cancelled":
            return [Reply("channel", t("lobby.closed"), channel_id=record.channel_id)]
        note = t("rematch.dropped", names=", ".join(md(s.name) for s in dropped)) if dropped else None
        rules = games.get(record.game_id).rules
        if rules.min_players <= len(record.seats) <= rules.max_players:
            started = await self._start_locked(record)
            if note and started:
                started[0].text = note + "\n" + started[0].text
            return started
        return [self._lobby_message(record, note)]
