"""The table service: every behaviour of the bot, independent of Discord.

A command comes in as (who, where, what) and goes out as a list of `Reply`
values. The Discord adapter and the local table are thin translators around
this class, so tests of the service test what Discord users get.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import random
import re
import time
import weakref
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from bot.games import available, ui_for
from bot.gameui import Command, GameUI, Param, QuickMenu, action_key
from bot.i18n import LANGUAGES, Translator, normalise_language
from bot.render_cache import RenderCache
from bot.replies import (
    EMBED_DESCRIPTION_LIMIT,
    EMBEDS_PER_MESSAGE,
    EMBEDS_TOTAL_LIMIT,
    Attachment,
    Button,
    Embed,
    Reply,
    Select,
    SelectOption,
    User,
    Where,
)
from bot.settings import Settings
from bot.store import ChannelBusy, GameRecord, SeatRecord, Store, VersionConflict
from bot.text import clean, echo, md
from engine import IllegalAction, Rules, registry
from render import for_game as renderer_for

log = logging.getLogger("passepartout.service")

AI_NAMES = ["Phileas", "Aouda", "Fix", "Proctor", "Stuart", "Ralph"]
AI_USER_BASE = -1000  # AI seats get negative user ids, never a Discord user
MAX_AI_STEPS = 20_000
#: a stand-in plays one turn for an absent player; no turn of any game takes more moves
STAND_IN_MAX_ACTIONS = 25
PREFIX = "pp"
RENDER_CACHE_SIZE = 64  # boards and hands people asked to see (~0.1-0.3 MB each)
ASK_LIMIT, ASK_WINDOW = 6, 30.0  # status/hand images per user per this many seconds


class Refusal(Exception):
    """A polite no: the message id and its parameters, shown privately."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def action_hash(action: dict[str, Any]) -> str:
    """10 hex characters naming an action inside a custom id or select value."""
    return hashlib.blake2s(action_key(action).encode(), digest_size=5).hexdigest()


def custom_id(game_pk: int, version: int, kind: str, payload: str = "") -> str:
    return f"{PREFIX}:{game_pk}:{version}:{kind}:{payload}"


#: pp:<game>:<version>:<kind>:<payload>, ASCII digits within SQLite's integer range
_CUSTOM_ID = re.compile(r"pp:([0-9]{1,15}):([0-9]{1,12}):([a-z]{1,12}):(.{0,80})", re.ASCII | re.DOTALL)


def parse_custom_id(value: object) -> tuple[int, int, str, str] | None:
    """Total: any string a client may send (custom ids are not to be trusted) gives the
    parts, or None."""
    match = _CUSTOM_ID.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    return int(match[1]), int(match[2]), match[3], match[4]


#: a whole number as people type it in options (ASCII digits; long ones stay text and are refused)
_OPTION_INT = re.compile(r"-?[0-9]{1,9}", re.ASCII)


def parse_options(text: str | None) -> dict[str, Any]:
    """`key=value key2=value2` (commas also separate) -> typed values."""
    result: dict[str, Any] = {}
    if not text:
        return result
    for chunk in text.replace(",", " ").split():
        if "=" not in chunk:
            raise Refusal("error.option_syntax", chunk=echo(chunk, 40))
        key, raw = chunk.split("=", 1)
        key = key.strip().lower().replace("-", "_")
        low = raw.strip().lower()
        value: Any
        if low in ("true", "yes", "on"):
            value = True
        elif low in ("false", "no", "off"):
            value = False
        elif _OPTION_INT.fullmatch(low):
            value = int(low)
        else:
            value = raw.strip()
        result[key] = value
    return result


@dataclass
class Loaded:
    """A running game read from the store with its engine state."""

    record: GameRecord
    rules: Rules
    ui: GameUI
    state: Any

    @property
    def names(self) -> dict[str, str]:
        """Seat -> display name, escaped for Markdown text."""
        return {s.seat: md(s.name) for s in self.record.seats if s.seat}

    @property
    def raw_names(self) -> dict[str, str]:
        """Seat -> display name as written, for images."""
        return {s.seat: s.name for s in self.record.seats if s.seat}


class TableService:
    def __init__(self, store: Store, settings: Settings | None = None, *,
                 clock: Callable[[], float] = time.time,
                 render_in_thread: bool = True) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.render_in_thread = render_in_thread
        # a channel's lock lives while someone holds or waits for it: no table of every channel ever seen
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.render_cache = RenderCache(RENDER_CACHE_SIZE)
        # renders someone asked to look at (status, hand) queue here, one at a time, so they
        # never crowd out the renders of moves
        self._side_renders = asyncio.Semaphore(1)
        self._asked: dict[int, list[float]] = {}

    # -- helpers --------------------------------------------------------------
    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _too_often(self, user: User) -> bool:
        """Whether `user` asked for a status/hand image more than ASK_LIMIT times in
        ASK_WINDOW seconds (real time; then they are asked to wait)."""
        now = time.monotonic()
        if len(self._asked) > 10_000:  # forget people who stopped asking
            self._asked = {u: ts for u, ts in self._asked.items() if ts and ts[-1] > now - ASK_WINDOW}
        recent = [t for t in self._asked.get(user.id, []) if t > now - ASK_WINDOW]
        if len(recent) >= ASK_LIMIT:
            self._asked[user.id] = recent
            return True
        self._asked[user.id] = recent + [now]
        return False

    async def _side_render(self, key: tuple[Any, ...], fn: Callable[..., bytes], *args: Any, **kw: Any) -> bytes:
        """A render someone asked to see: cached by `key`, and queued behind other such renders."""
        async def make() -> bytes:
            async with self._side_renders:
                return await self._render(fn, *args, **kw)

        return await self.render_cache.get(key, make)

    def t(self, lang: str | None, ui: GameUI | None = None) -> Translator:
        lang = normalise_language(lang)
        return ui.translator(lang) if ui else Translator(lang)

    def user_t(self, user: User, ui: GameUI | None = None) -> Translator:
        return self.t(user.locale, ui)

    def game_t(self, record: GameRecord, ui: GameUI | None = None) -> Translator:
        return self.t(record.settings.get("language"), ui)

    def private(self, user: User, text: str, **kw: Any) -> Reply:
        return Reply("ephemeral", text, user_id=user.id, **kw)

    def refuse(self, user: User, key: str, ui: GameUI | None = None, **params: Any) -> list[Reply]:
        return [self.private(user, "⚠️ " + self.user_t(user, ui)(key, **params))]

    async def _render(self, fn: Callable[..., bytes], *args: Any, **kw: Any) -> bytes:
        if self.render_in_thread:
            return await asyncio.to_thread(fn, *args, **kw)
        return fn(*args, **kw)

    def _load(self, record: GameRecord) -> Loaded:
        rules = registry.get(record.game_id)
        return Loaded(record, rules, ui_for(record.game_id), rules.load(record.state) if record.state else None)

    async def _active(self, where: Where, status: str) -> GameRecord:
        """The channel's game, which must be in `status` ("lobby" or "running")."""
        record = await self.store.active_game(where.channel_id)
        if record is None:
            raise Refusal("error.no_game")
        if record.status != status:
            raise Refusal("error.not_started" if status == "running" else "error.already_started")
        return record

    async def _running(self, user: User, where: Where) -> Loaded:
        return self._load(await self._active(where, "running"))

    def _deadlines(self, record: GameRecord) -> tuple[float | None, float | None]:
        now = self.clock()
        remind_h = float(record.settings.get("reminder_hours", self.settings.reminder_hours))
        timeout_h = float(record.settings.get("timeout_hours", self.settings.timeout_hours))
        remind = now + remind_h * 3600 if remind_h > 0 else None
        timeout = now + timeout_h * 3600 if timeout_h > 0 else None
        return remind, timeout

    def _lobby_expiry(self) -> float | None:
        """When a lobby nobody touches closes by itself (None: never)."""
        hours = self.settings.lobby_idle_hours
        return self.clock() + hours * 3600 if hours > 0 else None

    # -- lobby ----------------------------------------------------------------
    async def games_list(self, user: User) -> list[Reply]:
        t = self.user_t(user)
        lines = [t("games.header")]
        for game_id, ui in available().items():
            rules = registry.get(game_id)
            title = ui.translator(t.lang)("title")
            lines.append(t("games.line", id=game_id, title=title, min=rules.min_players, max=rules.max_players))
        return [self.private(user, "\n".join(lines))]

    async def new_game(self, user: User, where: Where, game_id: str, *, options: str | dict[str, Any] | None = None,
                       language: str | None = None, seed: int | None = None) -> list[Reply]:
        try:
            games = available()
            if game_id not in games:
                raise Refusal("error.unknown_game", game=echo(game_id, 40), games=", ".join(sorted(games)))
            rules = registry.get(game_id)
            opts = parse_options(options) if isinstance(options, str) or options is None else dict(options)
            try:
                opts = rules.validate_options(opts)
            except IllegalAction as exc:
                raise Refusal("error.bad_options", detail=self._illegal_text(exc, games[game_id], user)) from exc
            if language is not None and normalise_language(language) != language.split("-")[0].lower():
                raise Refusal("error.bad_language", languages=", ".join(LANGUAGES))
            lang = normalise_language(language or where.guild_locale or self.settings.default_language)
            settings = {
                "language": lang,
                "reminder_hours": self.settings.reminder_hours,
                "timeout_hours": self.settings.timeout_hours,
            }
            host = SeatRecord(position=0, user_id=user.id, name=clean(user.name), lang=normalise_language(user.locale),
                              dm=await self.store.user_dm(user.id))
            async with self._lock(where.channel_id):
                try:
                    record = await self.store.create_game(
                        channel_id=where.channel_id, guild_id=where.guild_id, game_id=game_id, host=host,
                        options=opts, settings=settings, expires_at=self._lobby_expiry(),
                        seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
                    )
                except ChannelBusy:
                    existing = await self.store.active_game(where.channel_id)
                    title = ui_for(existing.game_id).translator(self.user_t(user).lang)("title") if existing else "?"
                    raise Refusal("error.channel_busy", title=title) from None
        except Refusal as r:
            return self.refuse(user, r.key, **r.params)
        return [self._lobby_message(record)]

    def _lobby_message(self, record: GameRecord, note: str | None = None) -> Reply:
        ui = ui_for(record.game_id)
        t = self.game_t(record, ui)
        rules = registry.get(record.game_id)
        host_mark = " " + t("lobby.host_mark")
        players = "\n".join(
            f"{i + 1}. {'🤖 ' if s.is_bot else ''}{md(s.name)}{host_mark if s.user_id == record.host_id else ''}"
            for i, s in enumerate(record.seats)
        )
        options = ", ".join(f"{k}={v}" for k, v in record.options.items()) or t("lobby.no_options")
        text = t("lobby.text", title=t("title"), players=players, count=len(record.seats),
                 min=rules.min_players, max=rules.max_players, options=options, language=record.settings["language"])
        if note:
            text = note + "\n" + text
        rows = [[
            Button(t("button.join"), custom_id(record.id, record.version, "join"), "primary", "✋"),
            Button(t("button.leave"), custom_id(record.id, record.version, "leave"), "secondary"),
            Button(t("button.addbot"), custom_id(record.id, record.version, "addbot"), "secondary", "🤖"),
            Button(t("button.start"), custom_id(record.id, record.version, "start"), "success", "▶️",
                   disabled=len(record.seats) < rules.min_players),
        ]]
        return Reply("channel", text, channel_id=record.channel_id, rows=rows)

    async def _lobby(self, user: User, where: Where) -> GameRecord:
        return await self._active(where, "lobby")

    async def _edit_lobby(self, user: User, where: Where, edit: Callable[[GameRecord], None]
                          ) -> GameRecord | list[Reply]:
        """Read the channel's lobby under its lock, let `edit` change it (or raise Refusal),
        and save it with a version check. Returns the record, or the refusal to send."""
        async with self._lock(where.channel_id):
            try:
                record = await self._lobby(user, where)
                edit(record)
                record.timeout_at = self._lobby_expiry()
                await self.store.save_lobby(record, expected_version=record.version)
            except Refusal as r:
                return self.refuse(user, r.key, **r.params)
            except VersionConflict:
                return self.refuse(user, "error.conflict")
        return record

    async def join(self, user: User, where: Where) -> list[Reply]:
        dm = await self.store.user_dm(user.id)

        def edit(record: GameRecord) -> None:
            rules = registry.get(record.game_id)
            if record.seat_of_user(user.id):
                raise Refusal("error.already_joined")
            if len(record.seats) >= rules.max_players:
                raise Refusal("error.table_full", max=rules.max_players)
            record.seats.append(SeatRecord(position=self._next_position(record), user_id=user.id, name=clean(user.name),
                                           lang=normalise_language(user.locale), dm=dm))

        record = await self._edit_lobby(user, where, edit)
        if isinstance(record, list):
            return record
        note = self.game_t(record, ui_for(record.game_id))("lobby.joined", name=md(clean(user.name)))
        return [self._lobby_message(record, note)]

    @staticmethod
    def _next_position(record: GameRecord) -> int:
        return max((s.position for s in record.seats), default=-1) + 1

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

        record = await self._edit_lobby(user, where, edit)
        if isinstance(record, list):
            return record
        t = self.game_t(record, ui_for(record.game_id))
        if record.status == "cancelled":
            return [Reply("channel", t("lobby.closed"), channel_id=record.channel_id)]
        return [self._lobby_message(record, t("lobby.left", name=md(clean(user.name))))]

    async def addbot(self, user: User, where: Where, count: int = 1) -> list[Reply]:
        """Add up to `count` AI seats: as many as fit, saying so when fewer than asked."""
        added: list[str] = []

        def edit(record: GameRecord) -> None:
            if not (record.seat_of_user(user.id) or where.can_manage):
                raise Refusal("error.not_seated")
            rules = registry.get(record.game_id)
            room = rules.max_players - len(record.seats)
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise Refusal("error.bad_count")
            if room <= 0:
                raise Refusal("error.table_full", max=rules.max_players)
            used = {s.name for s in record.seats}
            for _ in range(min(count, room)):
                n = sum(1 for s in record.seats if s.is_bot)
                name = next((nm for nm in AI_NAMES if nm not in used), f"AI {n + 1}")
                used.add(name)
                added.append(name)
                record.seats.append(SeatRecord(position=self._next_position(record), user_id=AI_USER_BASE - n,
                                               name=name, is_bot=True))

        record = await self._edit_lobby(user, where, edit)
        if isinstance(record, list):
            return record
        t = self.game_t(record, ui_for(record.game_id))
        note = t.plural("lobby.bots_added", len(added), names=", ".join(f"**{md(n)}**" for n in added))
        if len(added) < count:
            note += " " + t.plural("lobby.bots_short", len(added), asked=count)
        return [self._lobby_message(record, note)]

    def _is_host(self, record: GameRecord, user: User, where: Where) -> bool:
        return record.host_id == user.id or where.can_manage

    async def start(self, user: User, where: Where) -> list[Reply]:
        async with self._lock(where.channel_id):
            try:
                record = await self._lobby(user, where)
                if not self._is_host(record, user, where):
                    raise Refusal("error.host_only")
                rules = registry.get(record.game_id)
                if not rules.min_players <= len(record.seats) <= rules.max_players:
                    raise Refusal("error.player_count", min=rules.min_players, max=rules.max_players)
                for i, seat in enumerate(sorted(record.seats, key=lambda s: s.position)):
                    seat.seat = f"p{i + 1}"
                seats = [s.seat for s in sorted(record.seats, key=lambda s: s.position)]
                state = rules.new_game(seats, record.seed, record.options)
                record.state = rules.dump(state)
                record.status = "running"
                record.remind_at, record.timeout_at = self._deadlines(record)
                loaded = Loaded(record, rules, ui_for(record.game_id), state)
                record.ai_pending = self._ai_must_move(loaded)
                await self.store.save_lobby(record, expected_version=record.version)
            except Refusal as r:
                return self.refuse(user, r.key, **r.params)
            except VersionConflict:
                return self.refuse(user, "error.conflict")
            events = [{"type": "game_started"}]
            ai_events = await self._run_ai_safely(loaded)
            return await self._after_change(loaded, events + ai_events)

    async def cancel(self, user: User, where: Where) -> list[Reply]:
        async with self._lock(where.channel_id):
            record = await self.store.active_game(where.channel_id)
            if record is None:
                return self.refuse(user, "error.no_game")
            if not self._is_host(record, user, where):
                return self.refuse(user, "error.host_only")
            record.status = "cancelled"
            record.remind_at = record.timeout_at = None
            try:
                await self.store.save_lobby(record, expected_version=record.version)
            except VersionConflict:
                return self.refuse(user, "error.conflict")
        t = self.game_t(record, ui_for(record.game_id))
        return [Reply("channel", t("game.cancelled", name=md(clean(user.name)), title=t("title")),
                      channel_id=record.channel_id)]

    # -- information ------------------------------------------------------------
    async def status(self, user: User, where: Where) -> list[Reply]:
        record = await self.store.active_game(where.channel_id)
        if record is None:
            last = await self.store.last_game(where.channel_id)
            if last is None or last.status != "finished":
                return self.refuse(user, "error.no_game")
            record = last
        if record.status == "lobby":
            msg = self._lobby_message(record)
            return [self.private(user, msg.text, rows=msg.rows)]
        if self._too_often(user):
            return self.refuse(user, "error.slow_down")
        loaded = self._load(record)
        t = self.user_t(user, loaded.ui)
        reply = await self._board_reply(loaded, t, [], to="ephemeral", user=user, asked=True)
        return [reply]

    async def hand(self, user: User, where: Where) -> list[Reply]:
        try:
            loaded = await self._running(user, where)
            seat = loaded.record.seat_of_user(user.id)
            if seat is None or seat.seat is None:
                raise Refusal("error.not_seated")
        except Refusal as r:
            return self.refuse(user, r.key, **r.params)
        if self._too_often(user):
            return self.refuse(user, "error.slow_down")
        return [await self._hand_reply(loaded, seat, "ephemeral", self.user_t(user, loaded.ui), asked=True)]

    async def _hand_reply(self, loaded: Loaded, seat: SeatRecord, to: str, t: Translator, *,
                          asked: bool = False) -> Reply:
        assert seat.seat is not None
        view = loaded.rules.view(loaded.state, seat.seat)
        renderer = renderer_for(loaded.record.game_id)
        render = functools.partial(renderer.render_hand, view, seat.seat, names=loaded.raw_names, lang=t.lang,
                                   translator=t)
        if asked:
            key = ("hand", loaded.record.id, loaded.record.version, seat.seat, t.lang)
            image = await self._side_render(key, render)
        else:
            image = await self._render(render)
        text = t("hand.header", title=t("title"), channel=f"<#{loaded.record.channel_id}>")
        extra = loaded.ui.hand_text(view, seat.seat, loaded.names, t)
        if extra:
            text += "\n" + extra
        rows = []
        if seat.seat in loaded.rules.to_act(loaded.state):
            rows = [[Button(t("button.play"), custom_id(loaded.record.id, loaded.record.version, "menu"),
                            "primary", "🎲")]]
        return Reply(to, text, user_id=seat.user_id, files=[Attachment("hand.png", image)], rows=rows)  # type: ignore[arg-type]

    async def log_(self, user: User, where: Where, count: int = 15) -> list[Reply]:
        record = await self.store.active_game(where.channel_id)
        if record is None:
            record = await self.store.last_game(where.channel_id)
        if record is None:
            return self.refuse(user, "error.no_game")
        if record.status == "lobby":
            t = self.user_t(user, ui_for(record.game_id))
            players = ", ".join(md(s.name) for s in record.seats)
            return [self.private(user, t("log.lobby", title=t("title"), players=players))]
        loaded = self._load(record)
        t = self.user_t(user, loaded.ui)
        lines: list[str] = []
        for entry in await self.store.actions(record.id):
            for event in entry.events:
                line = self._event_line(loaded, event, t)
                if line:
                    prefix = "🤖 " if entry.actor != "human" else ""
                    lines.append(f"`{entry.seq:>3}` {prefix}{line}")
        if not lines:
            return [self.private(user, t("log.empty"))]
        shown = lines[-max(1, min(count, 50)):]
        text = t("log.header", count=len(shown), total=len(lines)) + "\n" + "\n".join(shown)
        return [self.private(user, _clip(text))]

    async def rules_help(self, user: User, where: Where, game_id: str | None = None) -> list[Reply]:
        if game_id is None:
            record = await self.store.active_game(where.channel_id)
            game_id = record.game_id if record else None
        if game_id is None:
            return await self.games_list(user)
        if game_id not in available():
            return self.refuse(user, "error.unknown_game", game=echo(game_id, 40),
                               games=", ".join(sorted(available())))
        ui = ui_for(game_id)
        t = self.user_t(user, ui)
        return [self.private(user, "", embeds=chunk) for chunk in rules_embeds(t("title"), t("rules"))]

    async def settings_cmd(self, user: User, where: Where, *, dm: bool | None = None, language: str | None = None,
                           reminder_hours: float | None = None, timeout_hours: float | None = None) -> list[Reply]:
        """Show or change settings. Everything is checked first; then the user's DM choice and
        the game's settings are written in one transaction (a refusal writes nothing)."""
        t = self.user_t(user)
        game_changes: dict[str, Any] = {}
        if language is not None:
            if not isinstance(language, str) or language.strip().lower() not in LANGUAGES:
                return self.refuse(user, "error.bad_language", languages=", ".join(LANGUAGES))
            game_changes["language"] = language.strip().lower()
        for key, value in (("reminder_hours", reminder_hours), ("timeout_hours", timeout_hours)):
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 24 * 30:
                return self.refuse(user, "error.bad_hours")
            game_changes[key] = value
        async with self._lock(where.channel_id):
            record = await self.store.active_game(where.channel_id)
            if record is None and game_changes:
                return self.refuse(user, "error.no_game")
            if record is not None and game_changes and not self._is_host(record, user, where):
                return self.refuse(user, "error.host_only")
            if record is not None and (game_changes or dm is not None):
                for seat in record.seats:
                    if dm is not None and seat.user_id == user.id:
                        seat.dm = dm
                record.settings.update(game_changes)
                if record.status == "running" and game_changes:
                    record.remind_at, record.timeout_at = self._deadlines(record)
                await self.store.save_settings(record, user_pref=(user.id, dm) if dm is not None else None)
            elif dm is not None:
                await self.store.set_user_pref(user.id, dm=dm)
        changes = [t("settings.dm_on" if dm else "settings.dm_off")] if dm is not None else []
        changes += [t(f"settings.{key}", value=_fmt_hours(value) if key != "language" else value)
                    for key, value in game_changes.items()]
        if not changes:
            current = record.settings if record else {}
            dm_now = await self.store.user_dm(user.id)
            return [self.private(user, t("settings.current", language=current.get("language", "—"),
                                         reminder=current.get("reminder_hours", "—"),
                                         timeout=current.get("timeout_hours", "—"),
                                         dm=t("settings.yes" if dm_now else "settings.no")))]
        return [self.private(user, "✅ " + "\n".join(changes))]

    async def resign(self, user: User, where: Where) -> list[Reply]:
        async with self._lock(where.channel_id):
            try:
                loaded = await self._running(user, where)
                seat = loaded.record.seat_of_user(user.id)
                if seat is None:
                    raise Refusal("error.not_seated")
            except Refusal as r:
                return self.refuse(user, r.key, **r.params)
            record = loaded.record
            player_name = seat.name  # the seat keeps the name; 🤖 marks it wherever players are listed
            seat.is_bot = True
            seat.user_id = AI_USER_BASE - 100 - seat.position
            humans = [s for s in record.seats if not s.is_bot]
            if record.host_id == user.id:
                # host rights pass to the next seated human; with none left only moderators manage
                following = sorted(humans, key=lambda s: (s.position <= seat.position, s.position))
                record.host_id = following[0].user_id if following else 0
            t = self.game_t(record, loaded.ui)
            if not humans:
                record.status = "cancelled"
                record.remind_at = record.timeout_at = None
            record.ai_pending = self._ai_must_move(loaded)
            try:
                await self.store.save_lobby(record, expected_version=record.version)
            except VersionConflict:
                return self.refuse(user, "error.conflict")
            if record.status == "cancelled":
                return [Reply("channel", t("game.all_resigned"), channel_id=record.channel_id)]
            events: list[dict[str, Any]] = [{"type": "resigned", "seat": seat.seat, "name": player_name}]
            events += await self._run_ai_safely(loaded)
            return await self._after_change(loaded, events)

    # -- moves ------------------------------------------------------------------
    def _illegal_text(self, exc: IllegalAction, ui: GameUI | None, user: User) -> str:
        t = self.user_t(user, ui)
        if ui is not None:
            return ui.illegal_text(exc.code, exc.message, exc.params, t)
        key = f"illegal.{exc.code}"
        return t(key, **exc.params) if t.has(key) else exc.message

    async def command(self, user: User, where: Where, group: str, name: str, values: dict[str, Any]) -> list[Reply]:
        """A game subcommand, e.g. `/detour choose card:8`."""
        ui = next((u for u in available().values() if u.group == group), None)
        if ui is None:
            return self.refuse(user, "error.unknown_command")
        command = next((c for c in ui.commands if c.name == name), None)
        if command is None:
            return self.refuse(user, "error.unknown_command")
        async with self._lock(where.channel_id):
            try:
                loaded = await self._running(user, where)
                if loaded.record.game_id != ui.game_id:
                    other = loaded.ui.translator(self.user_t(user).lang)("title")
                    raise Refusal("error.wrong_game", title=other, group=loaded.ui.group)
                seat = self._acting_seat(loaded, user)
                legal = loaded.rules.legal_actions(loaded.state, seat)
                action = self._build(command, values, legal, ui, view=loaded.rules.view(loaded.state, seat),
                                     t=self.user_t(user, ui))
                if action is None:
                    key = command.refusal or "error.not_now"
                    raise Refusal(key)
            except Refusal as r:
                return self.refuse(user, r.key, ui, **r.params)
            return await self._act(loaded, user, seat, action)

    def _acting_seat(self, loaded: Loaded, user: User) -> str:
        seat = loaded.record.seat_of_user(user.id)
        if seat is None or seat.seat is None:
            raise Refusal("error.not_seated")
        to_act = loaded.rules.to_act(loaded.state)
        if seat.seat not in to_act:
            waiting = ", ".join(loaded.names.get(s, s) for s in to_act)
            raise Refusal("error.not_your_turn", waiting=waiting)
        return seat.seat

    def _build(self, command: Command, values: dict[str, Any], legal: list[dict[str, Any]], ui: GameUI,
               *, view: Any = None, t: Translator | None = None) -> dict[str, Any] | None:
        """The engine action for typed option values. Values may be what people type, not only
        exact keys: a `pick` value is matched against the labels the autocomplete shows (in the
        user's language, `t`, for the seat's `view`), a `choices` value against its translated
        labels; what matches nothing is refused with a short list of what would."""
        values = {k: v for k, v in values.items() if v is not None}
        t = t or ui.translator("en")
        for param in command.params:
            if param.kind == "pick" and param.name in values:
                offered = [a for a in legal if not param.types or a["type"] in param.types]
                if command.build is not None:
                    offered = [a for a in offered if command.build({param.name: a}, legal) is not None]
                labelled = [(_trim(ui.action_label(a, view, t), 100), a) for a in offered] if view is not None else []
                raw = str(values[param.name])
                found = self._resolve_pick(raw, legal, param.types, labelled)
                if found is None:
                    shortlist = _match_label(raw, labelled)[1] or [label for label, _ in labelled]
                    if not shortlist:
                        raise Refusal("error.bad_pick", value=echo(raw))
                    raise Refusal("error.bad_pick_list", value=echo(raw), choices=_shortlist(shortlist, t))
                values[param.name] = found
            elif param.required and param.name not in values:
                raise Refusal("error.missing_option", option=param.name)
            elif param.choices and param.name in values:
                values[param.name] = self._resolve_choice(param, values[param.name], ui, t)
        if command.build is not None:
            return command.build(values, legal)
        picks = [values[p.name] for p in command.params if p.kind == "pick" and p.name in values]
        if picks:
            return picks[0]
        wanted = {k: v for k, v in values.items()}
        for action in legal:
            if action.get("type") == command.name and all(action.get(k) == v for k, v in wanted.items()):
                return action
        return None

    @staticmethod
    def _resolve_pick(value: str, legal: list[dict[str, Any]], types: tuple[str, ...],
                      labelled: list[tuple[str, dict[str, Any]]] | None = None) -> dict[str, Any] | None:
        """An exact action key (what the autocomplete submits) or hash; else a label from
        `labelled` (label, action): exactly, ignoring case, or as the one label containing it."""
        for action in legal:
            if types and action["type"] not in types:
                continue
            if value in (action_key(action), action_hash(action)):
                return action
        return _match_label(value, labelled or [])[0]

    @staticmethod
    def _resolve_choice(param: Param, value: Any, ui: GameUI, t: Translator) -> Any:
        """One of `param.choices` for a typed value: the value itself (any case), or its label in
        any language (`choice.<param>.<value>`), exactly or as the one label containing it."""
        if value in param.choices and not isinstance(value, bool):
            return value
        labelled: list[tuple[str, Any]] = []
        for choice in param.choices:
            labelled += [(str(choice), choice), (str(choice).replace("_", " "), choice)]
            for lang in LANGUAGES:
                tl = ui.translator(lang)
                key = f"choice.{param.name}.{choice}"
                if tl.has(key):
                    labelled.append((tl(key), choice))
        found, _ = _match_label(str(value), labelled)
        if found is None:
            allowed = [f"`{c}`" + (f" ({t(k)})" if t.has(k := f"choice.{param.name}.{c}") and t(k) != str(c) else "")
                       for c in param.choices]
            raise Refusal("error.bad_choice_list", option=param.name, value=echo(value),
                          choices=_shortlist(allowed, t))
        return found

    async def _act(self, loaded: Loaded, user: User, seat: str, action: dict[str, Any]) -> list[Reply]:
        """Apply, commit, let AI seats move, and tell everyone. Caller holds the channel lock."""
        record = loaded.record
        rules = loaded.rules
        waiting_before = set(rules.to_act(loaded.state))
        t_user = self.user_t(user, loaded.ui)
        # the confirmation describes the move made, so it is worded from the state before it
        label = loaded.ui.action_label(action, rules.view(loaded.state, seat), t_user)
        try:
            events = rules.apply(loaded.state, seat, action)
        except IllegalAction as exc:
            return [self.private(user, "⚠️ " + self._illegal_text(exc, loaded.ui, user))]
        status = "finished" if rules.is_over(loaded.state) else "running"
        remind, timeout = (None, None) if status == "finished" else self._deadlines(record)
        try:
            await self.store.commit_action(record, expected_version=record.version, seat=seat, action=action,
                                           events=events, state=rules.dump(loaded.state), status=status,
                                           actor="human", remind_at=remind, timeout_at=timeout,
                                           ai_pending=self._ai_must_move(loaded))
        except VersionConflict:
            return self.refuse(user, "error.already_made")
        events = list(events) + await self._run_ai_safely(loaded)
        ack = self.private(user, "✅ " + t_user("ack", action=label))
        return [ack] + await self._after_change(loaded, events, already_pinged=waiting_before)

    def _ai_must_move(self, loaded: Loaded, stand_ins: Collection[str] = ()) -> bool:
        """Whether the next move belongs to an AI seat (or a stand-in still playing a turn)."""
        if loaded.rules.is_over(loaded.state):
            return False
        bots = {s.seat for s in loaded.record.seats if s.is_bot and s.seat}
        return any(s in bots or s in stand_ins for s in loaded.rules.to_act(loaded.state))

    async def _run_ai(self, loaded: Loaded, *, stand_in: set[str] | None = None,
                      started: set[str] | None = None) -> list[dict[str, Any]]:
        """Let AI seats act until a human must decide.

        Seats in `stand_in` are absent humans whose deadline passed: the AI plays *one turn*
        for each — it acts for the seat while the seat stays to act, and stops once the seat
        is no longer to act after it moved (or after STAND_IN_MAX_ACTIONS moves), so the next
        time it is that player's turn the game waits for them again. `started` lists stand-in
        seats that already moved in this turn (a turn resumed after a restart). Every commit
        records whether the AI still has to move, so a crash between moves is finished by the
        scheduler."""
        record, rules = loaded.record, loaded.rules
        bots = {s.seat for s in record.seats if s.is_bot and s.seat}
        pending = set(stand_in or ())
        moved: dict[str, int] = {seat: 1 for seat in (started or ())}
        events: list[dict[str, Any]] = []
        for _ in range(MAX_AI_STEPS):
            if rules.is_over(loaded.state):
                break
            to_act = rules.to_act(loaded.state)
            for seat in list(pending):
                if seat in moved and (seat not in to_act or moved[seat] >= STAND_IN_MAX_ACTIONS):
                    pending.discard(seat)
            ready = [s for s in to_act if s in bots or s in pending]
            if not ready:
                break
            seat = ready[0]
            action = rules.ai_action(loaded.state, seat)
            new_events = rules.apply(loaded.state, seat, action)
            if seat in pending:
                moved[seat] = moved.get(seat, 0) + 1
            status = "finished" if rules.is_over(loaded.state) else "running"
            remind, timeout = (None, None) if status == "finished" else self._deadlines(record)
            await self.store.commit_action(record, expected_version=record.version, seat=seat, action=action,
                                           events=new_events, state=rules.dump(loaded.state), status=status,
                                           actor="ai" if seat in bots else "timeout",
                                           remind_at=remind, timeout_at=timeout,
                                           ai_pending=self._ai_must_move(loaded, pending))
            events.extend(new_events)
        return events

    async def _run_ai_safely(self, loaded: Loaded) -> list[dict[str, Any]]:
        """The AI's moves after a human's: a failure is logged, not shown to the human whose
        move is already stored; the game keeps its `ai_pending` marker and the scheduler
        retries."""
        try:
            return await self._run_ai(loaded)
        except Exception:
            log.exception("AI seats of game %s could not move; the scheduler will retry", loaded.record.id)
            return []

    def _event_line(self, loaded: Loaded, event: dict[str, Any], t: Translator) -> str | None:
        public = {k: v for k, v in event.items() if k != "private"}
        kind = public.get("type")
        if kind in ("game_started", "resigned"):
            params = dict(public)
            if "seat" in params:
                params["seat"] = loaded.names.get(params["seat"], params["seat"])
                params["name"] = md(params["name"]) if "name" in params else params["seat"]
            return t(f"event.{kind}", **params)
        return loaded.ui.event_text(public, loaded.names, t)

    def _mention(self, loaded: Loaded, seats: list[str], quiet: set[str] | frozenset[str] = frozenset()
                 ) -> tuple[str, list[int]]:
        """Names of `seats`, pinging the humans except those in `quiet` (already pinged)."""
        ids: list[int] = []
        parts: list[str] = []
        for seat in seats:
            rec = loaded.record.seat_record(seat)
            if rec is None:
                continue
            if rec.is_bot:
                parts.append(f"🤖 {md(rec.name)}")
            elif seat in quiet:
                parts.append(f"**{md(rec.name)}**")
            else:
                parts.append(f"<@{rec.user_id}>")
                ids.append(rec.user_id)
        return ", ".join(parts), ids

    async def _board_reply(self, loaded: Loaded, t: Translator, events: list[dict[str, Any]], *,
                           to: str = "channel", user: User | None = None, note: str | None = None,
                           image: bool = True, quiet: set[str] | frozenset[str] = frozenset(),
                           asked: bool = False) -> Reply:
        """The board message; `asked`: someone asked to see it (`/game status`), so the image
        comes from the shared cache and queues behind other such renders, not before moves."""
        rules, record = loaded.rules, loaded.record
        view = rules.view(loaded.state, None)
        files: list[Attachment] = []
        if image:
            renderer = renderer_for(record.game_id)
            public_events = [{k: v for k, v in e.items() if k != "private"} for e in events]
            render = functools.partial(renderer.render_board, view, names=loaded.raw_names, lang=t.lang,
                                       events=public_events, translator=t)
            if asked and not events:
                png = await self._side_render(("board", record.id, record.version, t.lang), render)
            else:
                png = await self._render(render)
            files.append(Attachment("board.png", png))
        lines = [line for event in events if (line := self._event_line(loaded, event, t))]
        lines = ([note] if note else []) + _last_lines(lines, 14)  # the note (why this message) always stays
        mentions: list[int] = []
        rows: list[list[Any]] = []
        if rules.is_over(loaded.state):
            lines.append(self._result_text(loaded, t))
        else:
            to_act = rules.to_act(loaded.state)
            who, mentions = self._mention(loaded, to_act, quiet)
            lines.append(t("turn.waiting", who=who))
            status_line = loaded.ui.status_text(view, loaded.names, t)
            if status_line:
                lines.append(status_line)
            rows = self._turn_rows(loaded, t)
        if to != "channel":
            mentions = []
        return Reply(to, _clip("\n".join(lines)), user_id=user.id if user else None,  # type: ignore[arg-type]
                     channel_id=record.channel_id, files=files, rows=rows,
                     mentions=mentions)

    def _turn_rows(self, loaded: Loaded, t: Translator) -> list[list[Any]]:
        """Buttons on the turn message: quick moves, the full move menu, my hand. Everyone sees
        them (and `/game status` shows them to anyone), so they are built from the public view
        only, never from a seat's legal actions: a button must not reveal a card in a hand, not
        even by being there. A press is checked against the presser's legal moves."""
        record, rules = loaded.record, loaded.rules
        quick: list[Button] = []
        seen: set[str] = set()
        view = rules.view(loaded.state, None)
        for seat in rules.to_act(loaded.state):
            rec = record.seat_record(seat)
            if rec is None or rec.is_bot:
                continue
            for item in loaded.ui.quick_actions(view, seat):
                if isinstance(item, QuickMenu):
                    cid = custom_id(record.id, record.version, "menu", f"g={item.group[:40]};p=0")
                    label = self._group_label(loaded, item.group, t) + "…"
                else:
                    cid = custom_id(record.id, record.version, "act", action_hash(item))
                    label = loaded.ui.action_label(item, view, t)
                if cid in seen or len(quick) >= 4:
                    continue
                seen.add(cid)
                quick.append(Button(_trim(label, 80), cid, "primary"))
        fixed = [
            Button(t("button.play"), custom_id(record.id, record.version, "menu"), "success", "🎲"),
            Button(t("button.hand"), custom_id(record.id, record.version, "hand"), "secondary", "🃏"),
        ]
        rows: list[list[Any]] = []
        if quick:
            rows.append(quick)
        rows.append(fixed)
        return rows

    def _result_text(self, loaded: Loaded, t: Translator) -> str:
        result = loaded.rules.result(loaded.state)
        lines = [t("result.header")]
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        for entry in result.get("ranking", []):
            rank = int(entry.get("rank", 0))
            name = loaded.names.get(entry["seat"], entry["seat"])
            score = entry.get("score")
            lines.append(t("result.line", medal=medals.get(rank, f"{rank}."), name=name,
                           score="" if score is None else f" — {score}"))
        winners = [loaded.names.get(s, s) for s in result.get("winners", [])]
        if winners:
            lines.append(t("result.winners", names=", ".join(winners)))
        return "\n".join(lines)

    async def _after_change(self, loaded: Loaded, events: list[dict[str, Any]], *,
                            note: str | None = None, already_pinged: set[str] | None = None) -> list[Reply]:
        """The public turn message, plus DMs to opted-in players who must act now. Players
        who were already waiting before this change are named but not pinged again."""
        record = loaded.record
        t = self.game_t(record, loaded.ui)
        image = loaded.rules.is_over(loaded.state) or loaded.ui.board_changed(events)
        quiet = already_pinged or set()
        replies = [await self._board_reply(loaded, t, events, note=note, image=image, quiet=quiet)]
        if not loaded.rules.is_over(loaded.state):
            for seat in loaded.rules.to_act(loaded.state):
                if seat in quiet:
                    continue
                rec = record.seat_record(seat)
                if rec is not None and not rec.is_bot and rec.dm:
                    replies.append(await self._hand_reply(loaded, rec, "dm", self.t(rec.lang, loaded.ui)))
        return replies

    # -- components -------------------------------------------------------------
    async def component(self, user: User, where: Where, value: str, values: list[str] | None = None) -> list[Reply]:
        """A button press or select choice with one of our custom ids."""
        parsed = parse_custom_id(value)
        if parsed is None:
            return self.refuse(user, "error.bad_button")
        game_pk, version, kind, payload = parsed
        record = await self.store.get_game(game_pk)
        if record is None or not record.active:
            return self.refuse(user, "error.stale_game")
        if record.channel_id != where.channel_id:
            # a click in a DM (the hand we sent there) acts on the game's own channel
            where = Where(channel_id=record.channel_id, guild_id=record.guild_id, guild_locale=where.guild_locale)
        if kind in ("join", "leave", "addbot", "start"):
            if record.status != "lobby":
                return self.refuse(user, "error.stale")
            handler = {"join": self.join, "leave": self.leave, "addbot": self.addbot, "start": self.start}[kind]
            return await handler(user, where)
        if kind == "hand":
            return await self.hand(user, where)
        if kind == "menu":
            group = _menu_payload(payload)[0]
            if group is not None:
                # a public "Travel…" button: whether the presser has such a move is their secret
                try:
                    loaded = await self._running(user, where)
                    seat = self._acting_seat(loaded, user)
                except Refusal as r:
                    return self.refuse(user, r.key, **r.params)
                if not any(loaded.ui.menu_group(a)[:40] == group
                           for a in loaded.rules.legal_actions(loaded.state, seat)):
                    return self.refuse(user, "error.not_now")
            return await self.menu(user, where, payload, stale=version != record.version)
        if kind in ("act", "sel", "pact", "psel"):
            chosen = (values or [""])[0] if kind.endswith("sel") else payload
            async with self._lock(where.channel_id):
                try:
                    loaded = await self._running(user, where)
                    if kind in ("act", "sel") and version != loaded.record.version:
                        raise Refusal("error.stale_move")  # a public button: the game moved on
                    seat = self._acting_seat(loaded, user)
                    if kind in ("pact", "psel") and version != await self.store.seat_action_count(game_pk, seat):
                        raise Refusal("error.stale_move")  # a private menu: its owner has moved since
                    legal = loaded.rules.legal_actions(loaded.state, seat)
                    action = next((a for a in legal if action_hash(a) == chosen), None)
                    if action is None:
                        raise Refusal("error.not_now")
                except Refusal as r:
                    replies = self.refuse(user, r.key, **r.params)
                    if r.key == "error.stale_move":
                        replies[0].rows = [[Button(self.user_t(user)("button.play"),
                                                   custom_id(game_pk, record.version, "menu"), "success", "🎲")]]
                    return replies
                return await self._act(loaded, user, seat, action)
        return self.refuse(user, "error.stale")

    async def menu(self, user: User, where: Where, payload: str = "", *, stale: bool = False) -> list[Reply]:
        """The private move menu: every legal action of the user, as buttons or selects."""
        try:
            loaded = await self._running(user, where)
            seat = self._acting_seat(loaded, user)
        except Refusal as r:
            return self.refuse(user, r.key, **r.params)
        t = self.user_t(user, loaded.ui)
        record, rules = loaded.record, loaded.rules
        legal = rules.legal_actions(loaded.state, seat)
        view = rules.view(loaded.state, seat)
        # the menu's moves stay valid until this seat moves (not when others do, e.g. in a
        # simultaneous phase): their ids carry the seat's own move count, not the game version
        own = await self.store.seat_action_count(record.id, seat)
        group_filter, page = _menu_payload(payload)
        groups: dict[str, list[dict[str, Any]]] = {}
        for action in legal:
            groups.setdefault(loaded.ui.menu_group(action), []).append(action)
        text = (t("menu.moved_on") + "\n" if stale else "") + t("menu.header")

        def option(a: dict[str, Any]) -> SelectOption:
            return SelectOption(_trim(loaded.ui.action_label(a, view, t), 100), action_hash(a))

        def select(actions: list[dict[str, Any]], placeholder: str, n: int) -> Select:
            return Select(custom_id(record.id, own, "psel", str(n)), _trim(placeholder, 150),
                          tuple(option(a) for a in actions))

        rows: list[list[Any]] = []
        if group_filter is None and len(legal) <= 10:
            buttons = [Button(_trim(loaded.ui.action_label(a, view, t), 80),
                              custom_id(record.id, own, "pact", action_hash(a)), "primary") for a in legal]
            rows = [buttons[i:i + 5] for i in range(0, len(buttons), 5)]
        elif group_filter is None and len(groups) <= 5 and all(len(v) <= 25 for v in groups.values()):
            rows = [[select(v, self._group_label(loaded, g, t), i)] for i, (g, v) in enumerate(groups.items())]
        elif group_filter is None:
            buttons = [Button(_trim(f"{self._group_label(loaded, g, t)} ({len(v)})", 80),
                              custom_id(record.id, record.version, "menu", f"g={g[:40]};p=0"), "secondary")
                       for g, v in groups.items()][:25]
            rows = [buttons[i:i + 5] for i in range(0, len(buttons), 5)]
        else:
            actions = groups.get(group_filter, [])
            per_page = 100
            pages = max(1, -(-len(actions) // per_page))
            page = min(page, pages - 1)
            chunk = actions[page * per_page:(page + 1) * per_page]
            rows = [[select(chunk[i:i + 25], f"{self._group_label(loaded, group_filter, t)} {i // 25 + 1}", i)]
                    for i in range(0, len(chunk), 25)]
            nav: list[Button] = [Button(t("button.back"), custom_id(record.id, record.version, "menu"), "secondary")]
            if page > 0:
                nav.append(Button("◀", custom_id(record.id, record.version, "menu",
                                                 f"g={group_filter};p={page - 1}"), "secondary"))
            if page < pages - 1:
                nav.append(Button("▶", custom_id(record.id, record.version, "menu",
                                                 f"g={group_filter};p={page + 1}"), "secondary"))
            rows.append(nav)
            text += "\n" + t("menu.page", page=page + 1, pages=pages)
        return [self.private(user, text, rows=rows)]

    @staticmethod
    def _group_label(loaded: Loaded, group: str, t: Translator) -> str:
        key = f"group.{group}"
        return t(key) if t.has(key) else group.replace("_", " ").capitalize()

    async def autocomplete(self, user: User, where: Where, group: str, name: str, param: str,
                           current: str) -> list[tuple[str, str]]:
        """Choices for a "pick" option: the user's legal actions of that kind, filtered."""
        ui = next((u for u in available().values() if u.group == group), None)
        command = next((c for c in ui.commands if c.name == name), None) if ui else None
        spec = next((p for p in command.params if p.name == param), None) if command else None
        if ui is None or spec is None or spec.kind != "pick":
            return []
        record = await self.store.active_game(where.channel_id)
        if record is None or record.status != "running" or record.game_id != ui.game_id:
            return []
        loaded = self._load(record)
        seat = record.seat_of_user(user.id)
        if seat is None or seat.seat not in loaded.rules.to_act(loaded.state):
            return []
        t = self.user_t(user, ui)
        view = loaded.rules.view(loaded.state, seat.seat)
        needle = current.casefold().strip()
        choices: list[tuple[str, str]] = []
        legal = loaded.rules.legal_actions(loaded.state, seat.seat)
        for action in legal:
            if spec.types and action["type"] not in spec.types:
                continue
            if command.build is not None and command.build({spec.name: action}, legal) is None:
                continue  # offer only what this command would accept
            label = _trim(ui.action_label(action, view, t), 100)
            if needle and needle not in label.casefold():
                continue
            key = action_key(action)
            choices.append((label, key if len(key) <= 100 else action_hash(action)))
            if len(choices) == 25:
                break
        return choices

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
            before = set(waiting)
            events = await self._run_ai(loaded, stand_in=set(waiting))
            return await self._after_change(loaded, events, note=t("timeout.played", names=names),
                                            already_pinged=before - set(self._waiting_humans(loaded)))
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
            t = self.game_t(record, ui_for(record.game_id))
            replies.append(Reply("channel", t("lobby.expired", title=t("title"), hours=_fmt_hours(hours)),
                                 channel_id=record.channel_id))
        return replies

    # -- safety net ---------------------------------------------------------------
    async def guarded(self, user: User, call: Awaitable[list[Reply]]) -> list[Reply]:
        """Run a handler; any unexpected error becomes a private apology, never a traceback."""
        try:
            return await call
        except Refusal as r:
            return self.refuse(user, r.key, **r.params)
        except Exception:
            log.exception("handler failed")
            return self.refuse(user, "error.internal")


def rules_embeds(title: str, text: str) -> list[list[Embed]]:
    """A long text, whole, as embeds within Discord's limits, split between paragraphs (or
    lines, or words when a paragraph is too long): a list of messages, each a list of embeds."""
    pieces: list[str] = []
    for paragraph in text.split("\n\n"):
        pieces += _split_to(paragraph, EMBED_DESCRIPTION_LIMIT)
    embeds: list[str] = []
    for piece in pieces:
        if embeds and len(embeds[-1]) + 2 + len(piece) <= EMBED_DESCRIPTION_LIMIT:
            embeds[-1] += "\n\n" + piece
        else:
            embeds.append(piece)
    messages: list[list[Embed]] = [[]]
    used = 0
    for i, description in enumerate(embeds):
        heading = _trim(title, 256) if i == 0 else None
        size = len(description) + len(heading or "")
        if messages[-1] and (used + size > EMBEDS_TOTAL_LIMIT or len(messages[-1]) == EMBEDS_PER_MESSAGE):
            messages.append([])
            used = 0
        messages[-1].append(Embed(description, heading))
        used += size
    return messages


def _split_to(text: str, limit: int) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at line ends, else at spaces."""
    if len(text) <= limit:
        return [text]
    for separator in ("\n", " "):
        cut = text.rfind(separator, 0, limit + 1)
        if cut > 0:
            return [text[:cut]] + _split_to(text[cut + 1:], limit)
    return [text[:limit]] + _split_to(text[limit:], limit)


def _menu_payload(payload: str) -> tuple[str | None, int]:
    group: str | None = None
    page = 0
    for part in payload.split(";"):
        if part.startswith("g="):
            group = part[2:] or None
        elif part.startswith("p=") and part[2:].isdigit():
            page = int(part[2:])
    return group, page


def _match_label(text: str, labelled: list[tuple[str, Any]]) -> tuple[Any | None, list[str]]:
    """What `text` names among (label, target) pairs: an exact label (ignoring case) first, then
    the one target whose labels contain it. Returns (target or None, the labels that contained it)."""
    needle = " ".join(text.split()).casefold()
    if not needle:
        return None, []
    for label, target in labelled:
        if label.casefold() == needle:
            return target, [label]
    hits: list[tuple[str, Any]] = []
    for label, target in labelled:
        if needle in label.casefold() and not any(target == other for _, other in hits):
            hits.append((label, target))
    if len(hits) == 1:
        return hits[0][1], [hits[0][0]]
    return None, [label for label, _ in hits]


def _shortlist(labels: list[str], t: Translator, keep: int = 8) -> str:
    """A few of `labels` for an error message, each trimmed, and how many were left out."""
    shown = ", ".join(_trim(label, 60) for label in labels[:keep])
    return shown + (" " + t("error.more", count=len(labels) - keep) if len(labels) > keep else "")


def _trim(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip(text: str, limit: int = 1990) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _last_lines(lines: list[str], keep: int) -> list[str]:
    if len(lines) <= keep:
        return lines
    return ["…"] + lines[-keep:]


def _fmt_hours(hours: Any) -> str:
    value = float(hours)
    return str(int(value)) if value.is_integer() else f"{value:g}"
