"""`Lobby`: opening a table, taking and leaving seats, adding AI players, starting or
cancelling the game, and the table's and players' settings. Features may take over a join
or a start (a rematch's invitations) through the hooks, under the same channel lock."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot import games
from bot.i18n import LANGUAGES, Translator, normalise_language
from bot.replies import Reply, User, Where
from bot.store import ChannelBusy, GameRecord, SeatRecord
from bot.table.hooks import Hooks
from bot.table.messages import Messages
from bot.table.shared import AI_NAMES, AI_USER_BASE, Loaded, Refusal, duration_text, language_name, parse_options
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.table.turns import Turns
from bot.text import clean, echo, md
from engine import IllegalAction
from engine.ai import LEVELS


def is_host(record: GameRecord, user: User, where: Where) -> bool:
    return record.host_id == user.id or where.can_manage


def next_position(record: GameRecord) -> int:
    return max((s.position for s in record.seats), default=-1) + 1


class Lobby:
    def __init__(self, tables: Tables, talk: Talk, messages: Messages, turns: Turns, hooks: Hooks) -> None:
        self.tables = tables
        self.talk = talk
        self.messages = messages
        self.turns = turns
        self.hooks = hooks

    async def new_game(self, user: User, where: Where, game_id: str, *,
                       options: str | dict[str, Any] | None = None, language: str | None = None,
                       seed: int | None = None) -> list[Reply]:
        offered = games.specs()
        if game_id not in offered:
            raise Refusal("error.unknown_game", game=echo(game_id, 40), games=", ".join(sorted(offered)))
        spec = offered[game_id]
        opts = parse_options(options) if isinstance(options, str) or options is None else dict(options)
        try:
            opts = spec.rules.validate_options(opts)
        except IllegalAction as exc:
            raise Refusal("error.bad_options", detail=self.talk.illegal_text(exc, spec.ui, user)) from exc
        if language is not None and normalise_language(language) != language.split("-")[0].lower():
            raise Refusal("error.bad_language", languages=", ".join(LANGUAGES))
        settings = self.tables.settings
        lang = normalise_language(language or where.guild_locale or settings.default_language)
        game_settings = {
            "language": lang,
            "reminder_hours": settings.reminder_hours,
            "timeout_hours": settings.timeout_hours,
        }
        store = self.tables.store
        host = SeatRecord(position=0, user_id=user.id, name=clean(user.name), lang=normalise_language(user.locale),
                          dm=await store.user_dm(user.id))
        async with self.tables.lock(where.channel_id):
            try:
                record = await store.create_game(
                    channel_id=where.channel_id, guild_id=where.guild_id, game_id=game_id, host=host,
                    options=opts, settings=game_settings, expires_at=self.tables.lobby_expiry(),
                    announce_at=self.tables.announce_at(),
                    seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
                )
            except ChannelBusy:
                existing = await store.active_game(where.channel_id)
                title = (games.get(existing.game_id).ui.translator(self.talk.user_t(user).lang)("title")
                         if existing else "?")
                raise Refusal("error.channel_busy", title=title) from None
        return [self.messages.lobby(record)]

    async def _edit(self, where: Where, edit: Callable[[GameRecord], None]) -> GameRecord:
        """Read the channel's lobby under its lock, let `edit` change it (or raise Refusal),
        and save it with a version check (else Refusal)."""
        async with self.tables.lock(where.channel_id):
            record = await self.tables.active(where, "lobby")
            edit(record)
            record.timeout_at = self.tables.lobby_expiry()
            await self.tables.save_lobby(record)
        return record

    async def _taken_over(self, takeovers: list[Any], user: User, where: Where) -> list[Reply] | None:
        """A feature's answer to this join/start (caller holds the channel lock), or None."""
        record = await self.tables.store.active_game(where.channel_id)
        if record is None or record.status != "lobby":
            return None
        for takeover in takeovers:
            replies = await takeover(user, where, record)
            if replies is not None:
                return replies
        return None

    async def join(self, user: User, where: Where) -> list[Reply]:
        dm = await self.tables.store.user_dm(user.id)
        async with self.tables.lock(where.channel_id):
            taken = await self._taken_over(self.hooks.on_join, user, where)
            if taken is not None:
                return taken
            record = await self.tables.active(where, "lobby")
            rules = games.get(record.game_id).rules
            if record.seat_of_user(user.id):
                raise Refusal("error.already_joined")
            if len(record.seats) >= rules.max_players:
                raise Refusal("error.table_full", max=rules.max_players)
            record.seats.append(SeatRecord(position=next_position(record), user_id=user.id, name=clean(user.name),
                                           lang=normalise_language(user.locale), dm=dm))
            record.timeout_at = self.tables.lobby_expiry()
            await self.tables.save_lobby(record)
        note = self.talk.game_t(record, games.get(record.game_id).ui)("lobby.joined", name=md(clean(user.name)))
        return [self.messages.lobby(record, note)]

    async def leave(self, user: User, where: Where) -> list[Reply]:
        def edit(record: GameRecord) -> None:
            seat = record.seat_of_user(user.id)
            if seat is None:
                raise Refusal("error.not_seated")
            record.seats.remove(seat)
            humans = [s for s in record.seats if not s.is_bot]
            if not humans:
                record.status = "cancelled"
            elif record.host_id == user.id:
                record.host_id = humans[0].user_id

        record = await self._edit(where, edit)
        t = self.talk.game_t(record, games.get(record.game_id).ui)
        if record.status == "cancelled":
            return [Reply("channel", t("lobby.closed"), channel_id=record.channel_id)]
        return [self.messages.lobby(record, t("lobby.left", name=md(clean(user.name))))]

    async def addbot(self, user: User, where: Where, count: int = 1, level: str | None = None) -> list[Reply]:
        """Add up to `count` AI seats at `level` (normal by default; a level's name in any of
        the bot's languages works too): as many as fit, saying so when fewer than asked."""
        added: list[str] = []
        chosen = _level(level)

        def edit(record: GameRecord) -> None:
            if not (record.seat_of_user(user.id) or where.can_manage):
                raise Refusal("error.not_seated")
            rules = games.get(record.game_id).rules
            room = rules.max_players - len(record.seats)
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise Refusal("error.bad_count")
            if room <= 0:
                raise Refusal("error.table_full", max=rules.max_players)
            used = {s.name for s in record.seats}
            # the level is part of the name players see, in the table's language
            label = self.talk.game_t(record)(f"level.{chosen}")
            levels = dict(record.settings.get("ai_levels", {}))
            for _ in range(min(count, room)):
                n = sum(1 for s in record.seats if s.is_bot)
                base = next((nm for nm in AI_NAMES if not any(u.startswith(nm) for u in used)), f"AI {n + 1}")
                name = base if chosen == "normal" else f"{base} ({label})"
                used.add(name)
                added.append(name)
                record.seats.append(SeatRecord(position=next_position(record), user_id=AI_USER_BASE - n,
                                               name=name, is_bot=True))
                if chosen != "normal":
                    levels[str(AI_USER_BASE - n)] = chosen
            if levels:
                record.settings["ai_levels"] = levels

        record = await self._edit(where, edit)
        t = self.talk.game_t(record, games.get(record.game_id).ui)
        note = t.plural("lobby.bots_added", len(added), names=", ".join(f"**{md(n)}**" for n in added))
        if len(added) < count:
            note += " " + t.plural("lobby.bots_short", len(added), asked=count)
        return [self.messages.lobby(record, note)]

    async def start(self, user: User, where: Where) -> list[Reply]:
        async with self.tables.lock(where.channel_id):
            record = await self.tables.active(where, "lobby")
            if not is_host(record, user, where):
                raise Refusal("error.host_only")
            taken = await self._taken_over(self.hooks.on_start, user, where)
            if taken is not None:
                return taken
            return await self.start_locked(await self.tables.active(where, "lobby"))

    async def start_locked(self, record: GameRecord, *, note: str | None = None) -> list[Reply]:
        """Start the lobby `record`; the caller holds the channel lock and checked who asks
        (a rematch starts itself once everyone is in). `note`: the first line of the message."""
        spec = games.get(record.game_id)
        rules = spec.rules
        if not rules.min_players <= len(record.seats) <= rules.max_players:
            raise Refusal("error.player_count", min=rules.min_players, max=rules.max_players)
        seats: list[str] = []
        for i, seat in enumerate(sorted(record.seats, key=lambda s: s.position)):
            seat.seat = f"p{i + 1}"
            seats.append(seat.seat)
        state = rules.new_game(seats, record.seed, record.options)
        record.state = rules.dump(state)
        record.status = "running"
        record.remind_at, record.timeout_at = self.tables.deadlines(record)
        loaded = Loaded(record, spec, state)
        record.ai_pending = self.turns.ai_must_move(loaded)
        await self.tables.save_lobby(record)
        events = [{"type": "game_started"}]
        ai_events = await self.turns.run_ai_safely(loaded)
        return await self.turns.publish(loaded, "start", events + ai_events, note=note)

    async def cancel(self, user: User, where: Where) -> list[Reply]:
        async with self.tables.lock(where.channel_id):
            record = await self.tables.store.active_game(where.channel_id)
            if record is None:
                raise Refusal("error.no_game")
            if not is_host(record, user, where):
                raise Refusal("error.host_only")
            record.status = "cancelled"
            record.remind_at = record.timeout_at = None
            await self.tables.save_lobby(record)
        t = self.talk.game_t(record, games.get(record.game_id).ui)
        return [Reply("channel", t("game.cancelled", name=md(clean(user.name)), title=t("title")),
                      channel_id=record.channel_id)]

    async def settings(self, user: User, where: Where, *, dm: bool | None = None, language: str | None = None,
                       reminder_hours: float | None = None, timeout_hours: float | None = None) -> list[Reply]:
        """Show or change settings. Everything is checked first; then the user's DM choice and
        the game's settings are written in one transaction (a refusal writes nothing)."""
        t = self.talk.user_t(user)
        game_changes = _game_setting_changes(language, reminder_hours, timeout_hours)
        store = self.tables.store
        async with self.tables.lock(where.channel_id):
            record = await store.active_game(where.channel_id)
            if record is None and game_changes:
                raise Refusal("error.no_game")
            if record is not None and game_changes and not is_host(record, user, where):
                raise Refusal("error.host_only")
            if record is not None and (game_changes or dm is not None):
                for seat in record.seats:
                    if dm is not None and seat.user_id == user.id:
                        seat.dm = dm
                record.settings.update(game_changes)
                if record.status == "running" and game_changes:
                    record.remind_at, record.timeout_at = self.tables.deadlines(record)
                await store.save_settings(record, user_pref=(user.id, dm) if dm is not None else None)
            elif dm is not None:
                await store.set_user_pref(user.id, dm=dm)
        changes = [t("settings.dm_on" if dm else "settings.dm_off")] if dm is not None else []
        for key, value in game_changes.items():
            if key == "language":
                changes.append(t("settings.language", value=language_name(value, t)))
            else:
                changes.append(t(f"settings.{key}.{'on' if value else 'off'}", value=_every(key, value, t)))
        if not changes:
            current = record.settings if record else {}
            dm_now = await store.user_dm(user.id)
            lang = current.get("language")
            return [self.talk.private(user, t(
                "settings.current", language=language_name(lang, t) if lang else "—",
                reminder=_every("reminder_hours", current["reminder_hours"], t) if record else "—",
                timeout=_every("timeout_hours", current["timeout_hours"], t) if record else "—",
                dm=t("settings.yes" if dm_now else "settings.no")))]
        return [self.talk.done(user, "✅ " + "\n".join(changes))]


def _every(key: str, hours: float, t: Translator) -> str:
    """A reminder period or a timeout as a phrase: "every 12 hours", "after 2 days", or
    "off" / "never" for zero."""
    if not hours:
        return t(f"settings.{key}.zero")
    forms = "time" if key == "reminder_hours" else "time_after"  # "alle 2 Tage", "nach 2 Tagen"
    return t(f"settings.{key}.every", duration=duration_text(hours, t, forms))


def _game_setting_changes(language: str | None, reminder_hours: float | None,
                          timeout_hours: float | None) -> dict[str, Any]:
    """The game settings a settings call changes, all checked before the caller writes
    anything (a Refusal here means nothing is changed)."""
    game_changes: dict[str, Any] = {}
    if language is not None:
        if not isinstance(language, str) or language.strip().lower() not in LANGUAGES:
            raise Refusal("error.bad_language", languages=", ".join(LANGUAGES))
        game_changes["language"] = language.strip().lower()
    for key, value in (("reminder_hours", reminder_hours), ("timeout_hours", timeout_hours)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 24 * 30:
            raise Refusal("error.bad_hours")
        game_changes[key] = value
    return game_changes


def _level(typed: str | None) -> str:
    """An AI level from what someone typed: its id or its name in any of the bot's languages."""
    if typed is None or not typed.strip():
        return "normal"
    wanted = typed.strip().casefold()
    for level in LEVELS:
        if wanted == level or any(wanted == Translator(lang)(f"level.{level}").casefold() for lang in LANGUAGES):
            return level
    raise Refusal("error.bad_level", levels=", ".join(Translator("en")(f"level.{lv}") for lv in LEVELS))

