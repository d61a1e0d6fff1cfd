"""The table service: every behaviour of the bot, independent of Discord.

A command comes in as (who, where, what) and goes out as a list of `Reply` values. The
Discord adapter and the local table are thin translators around `TableService`, so tests of
the service test what Discord users get. `TableService` is only the facade: the parts it
delegates to (`bot/table/`) and the features (`bot/features/`) are put together in
`bot.wiring`. A `Refusal` raised anywhere below becomes the asker's private reply here, in
one place; nothing was written when one is raised.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

from bot import games, wiring
from bot.ai.pool import AIPool
from bot.commands import GAME_COMMANDS
from bot.gameui import GameUI
from bot.i18n import LANGUAGES, Translator
from bot.images.pool import RenderPool
from bot.replies import Reply, ThreadTarget, User, Where
from bot.settings import Settings
from bot.store import GameRecord, Store
from bot.table.answers import rules_embeds
from bot.table.ids import PREFIX, action_hash, custom_id, menu_payload, parse_custom_id, parse_press
from bot.table.publish import early_replies
from bot.table.shared import (
    AI_NAMES,
    AI_USER_BASE,
    ASK_LIMIT,
    ASK_WINDOW,
    MAX_AI_STEPS,
    RENDER_CACHE_BYTES,
    STAND_IN_MAX_ACTIONS,
    Loaded,
    Refusal,
    parse_options,
)

log = logging.getLogger("passepartout.service")

#: presses answered privately, whatever the bot may post in the channel (a hand, the move menu,
#: following by DM)
PRIVATE_PRESSES = frozenset({"hand", "menu", "follow"})


class TableService:
    """The one facade the adapters and tests call."""

    def __init__(self, store: Store, settings: Settings | None = None, *,
                 clock: Callable[[], float] = time.time,
                 render_in_thread: bool = True, render_pool: RenderPool | None = None,
                 ai_pool: AIPool | None = None, reports_delivery: bool = False) -> None:
        self.parts = wiring.build(store, settings or Settings(), clock, render_in_thread=render_in_thread,
                                  render_pool=render_pool, ai_pool=ai_pool)
        #: the adapter reports each channel message Discord accepted or not (`delivered`,
        #: `undelivered`); an adapter that shows replies as it gets them (the local table, the
        #: tests) does not, and its replies count as delivered once returned
        self.reports_delivery = reports_delivery

    # -- what the adapters read -------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.parts.tables.store

    @property
    def settings(self) -> Settings:
        return self.parts.tables.settings

    @property
    def clock(self) -> Callable[[], float]:
        return self.parts.tables.clock

    @property
    def render_pool(self) -> RenderPool | None:
        return self.parts.images.render_pool

    @property
    def memories(self) -> bool:
        """Whether a game's summary and timelapse are made when it ends."""
        return self.parts.memories.enabled

    @memories.setter
    def memories(self, on: bool) -> None:
        self.parts.memories.enabled = on

    @property
    def memories_waiting(self) -> bool:
        return self.parts.memories.waiting

    def t(self, lang: str | None, ui: GameUI | None = None) -> Translator:
        return self.parts.talk.t(lang, ui)

    def user_t(self, user: User, ui: GameUI | None = None) -> Translator:
        return self.parts.talk.user_t(user, ui)

    def game_t(self, record: GameRecord, ui: GameUI | None = None) -> Translator:
        return self.parts.talk.game_t(record, ui)

    def refuse(self, user: User, key: str, ui: GameUI | None = None, **params: Any) -> list[Reply]:
        return self.parts.talk.refuse(user, key, ui, **params)

    def load(self, record: GameRecord) -> Loaded:
        return self.parts.tables.load(record)

    async def _answer(self, user: User, call: Coroutine[Any, Any, list[Reply]], *,
                      posts_in: Where | None = None) -> list[Reply]:
        """Run a handler; a `Refusal` becomes the user's private reply. `posts_in`: the handler
        may write a game that the channel then shows, so the bot's permissions there are
        checked first (nothing is written when one is missing)."""
        if posts_in is not None and posts_in.missing_permissions:
            call.close()
            return self._missing_permissions(user, posts_in.missing_permissions)
        try:
            return await self._settled(await call)
        except Refusal as refusal:
            return self.parts.talk.refused(user, refusal)

    async def _settled(self, replies: list[Reply]) -> list[Reply]:
        """Replies of an adapter that does not report delivery count as delivered now."""
        if not self.reports_delivery:
            for reply in replies:
                if reply.announces is not None:
                    await self.parts.announcements.delivered(reply)
        return replies

    def _missing_permissions(self, user: User, missing: tuple[str, ...]) -> list[Reply]:
        t = self.user_t(user)
        names = [t(f"perm.{name}") if t.has(f"perm.{name}") else name for name in missing]
        listed = ", ".join(names[:-1]) + t("perm.and") + names[-1] if len(names) > 1 else names[0]
        return self.refuse(user, "error.bot_permissions", permissions=listed)

    async def guarded(self, user: User, call: Awaitable[list[Reply]]) -> list[Reply]:
        """Run a handler; any unexpected error becomes a private apology, never a traceback."""
        try:
            return await call
        except Refusal as refusal:
            return self.parts.talk.refused(user, refusal)
        except Exception:
            log.exception("handler failed")
            return self.refuse(user, "error.internal")

    # -- the lobby ----------------------------------------------------------------------
    async def new_game(self, user: User, where: Where, game_id: str, *, options: str | dict[str, Any] | None = None,
                       language: str | None = None, seed: int | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.lobby.new_game(user, where, game_id, options=options,
                                                                  language=language, seed=seed),
                                  posts_in=where)

    async def join(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.lobby.join(user, where), posts_in=where)

    async def leave(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.lobby.leave(user, where), posts_in=where)

    async def addbot(self, user: User, where: Where, count: int = 1, level: str | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.lobby.addbot(user, where, count, level), posts_in=where)

    async def start(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.lobby.start(user, where), posts_in=where)

    async def cancel(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.lobby.cancel(user, where), posts_in=where)

    async def settings_cmd(self, user: User, where: Where, *, dm: bool | None = None, language: str | None = None,
                           reminder_hours: float | None = None, timeout_hours: float | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.lobby.settings(
            user, where, dm=dm, language=language, reminder_hours=reminder_hours, timeout_hours=timeout_hours))

    # -- looking -----------------------------------------------------------------------
    async def games_list(self, user: User) -> list[Reply]:
        return await self._answer(user, self.parts.answers.games_list(user))

    async def status(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.answers.status(user, where))

    async def hand(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.answers.hand(user, where))

    async def log_(self, user: User, where: Where, count: int = 15) -> list[Reply]:
        return await self._answer(user, self.parts.answers.log(user, where, count))

    async def rules_help(self, user: User, where: Where, game_id: str | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.answers.rules(user, where, game_id))

    async def help_(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.answers.help(user, where, [c.name for c in GAME_COMMANDS
                                                                                if c.discord]))

    async def unknown_command(self, user: User, where: Where, typed: str, group: str | None = "game") -> list[Reply]:
        """A command line no command matches (the local table; Discord offers only real ones):
        `/game` alone is help; otherwise the closest commands of that group (`typed` is the
        subcommand), or of all groups when `group` is None (`typed` is the group)."""
        if group == "game" and not typed.strip():
            return await self.help_(user, where)
        if group is None:
            groups = ["game"] + sorted(spec.ui.group for spec in games.specs().values())
            return self.parts.answers.unknown_command(user, typed, {g: g for g in groups})
        spec = games.by_group(group) if group != "game" else None
        if spec is not None:
            return self.parts.answers.unknown_command(user, typed, {c.name: c.name for c in spec.ui.commands},
                                                      prefix=f"/{group} ")
        # /game's subcommands by their names in the user's language (as help lists them), found
        # by what they typed in any of ours
        t = self.user_t(user)
        known: dict[str, str] = {}
        for lang in LANGUAGES:
            tl = self.t(lang)
            known.update({tl(c.name_key): t(c.name_key) for c in GAME_COMMANDS if tl.has(c.name_key)})
        known.update({c.name: t(c.name_key) if t.has(c.name_key) else c.name for c in GAME_COMMANDS})
        return self.parts.answers.unknown_command(user, typed, known, prefix=f"/{t('name.game')} ")

    # -- playing -----------------------------------------------------------------------
    async def command(self, user: User, where: Where, group: str, name: str, values: dict[str, Any]) -> list[Reply]:
        return await self._answer(user, self.parts.play.command(user, where, group, name, values),
                                  posts_in=where)

    async def component(self, user: User, where: Where, value: str, values: list[str] | None = None) -> list[Reply]:
        press = parse_press(value, values)
        private = press is not None and press.kind in PRIVATE_PRESSES
        return await self._answer(user, self.parts.play.component(user, where, value, values),
                                  posts_in=None if private else where)

    async def menu(self, user: User, where: Where, payload: str = "", *, stale: bool = False) -> list[Reply]:
        return await self._answer(user, self.parts.play.menu(user, where, payload, stale=stale))

    async def autocomplete(self, user: User, where: Where, group: str, name: str, param: str,
                           current: str) -> list[tuple[str, str]]:
        return await self.parts.play.autocomplete(user, where, group, name, param, current)

    async def resign(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.play.resign(user, where), posts_in=where)

    async def undo(self, user: User, where: Where, *, game_pk: int | None = None,
                   version: int | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.undo.undo(user, where, game_pk=game_pk, version=version),
                                  posts_in=where)

    async def rematch(self, user: User, where: Where, *, game_pk: int | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.rematch.rematch(user, where, game_pk=game_pk), posts_in=where)

    async def hint(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.hints.hint(user, where))

    async def hints(self, user: User, where: Where, on: bool = True) -> list[Reply]:
        return await self._answer(user, self.parts.hints.set(user, where, on))

    # -- followers, ratings, replays ---------------------------------------------------------
    async def follow(self, user: User, where: Where, thread: ThreadTarget | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.following.follow(user, where, thread))

    async def unfollow(self, user: User, where: Where) -> list[Reply]:
        return await self._answer(user, self.parts.following.unfollow(user, where))

    async def drop_follow(self, game_pk: int, user_id: int) -> None:
        await self.parts.following.drop(game_pk, user_id)

    async def stats(self, user: User, where: Where, player: User | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.ratings.stats(user, where, player))

    async def leaderboard(self, user: User, where: Where, game_id: str | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.ratings.leaderboard(user, where, game_id))

    async def replay(self, user: User, where: Where, game: str | None = None) -> list[Reply]:
        return await self._answer(user, self.parts.memories.replay(user, where, game))

    async def replay_choices(self, user: User, where: Where, current: str) -> list[tuple[str, str]]:
        return await self.parts.memories.replay_choices(user, where, current)

    # -- delivery: what the adapters report ------------------------------------------------
    async def delivered(self, reply: Reply) -> None:
        """Discord accepted this channel message."""
        await self.parts.announcements.delivered(reply)

    async def undelivered(self, reply: Reply) -> None:
        """Discord did not take this channel message (it is posted again later)."""
        await self.parts.announcements.undelivered(reply)

    async def channel_gone(self, channel_id: int) -> list[Reply]:
        """A channel (or thread) was deleted: its game pauses; its players hear it by DM."""
        return await self.parts.announcements.channel_gone(channel_id)

    async def guild_gone(self, guild_id: int) -> list[Reply]:
        """The bot was removed from a server: its games pause."""
        return await self.parts.announcements.guild_gone(guild_id)

    async def channels_back(self, guild_id: int, channel_ids: list[int]) -> list[Reply]:
        """The bot sees these channels again: their paused games go on."""
        return await self.parts.announcements.channels_back(guild_id, channel_ids)

    # -- time ---------------------------------------------------------------------------
    async def tick(self) -> list[Reply]:
        """The scheduler's work across all games (the adapters call it every minute and once at start)."""
        return await self._settled(await self.parts.scheduler.tick())

    def post_game_memories(self) -> AsyncIterator[Reply]:
        """The summary and timelapse of every game that ended since the last call."""
        return self.parts.memories.post()


__all__ = [
    "AI_NAMES", "AI_USER_BASE", "ASK_LIMIT", "ASK_WINDOW", "MAX_AI_STEPS", "PREFIX", "RENDER_CACHE_BYTES",
    "STAND_IN_MAX_ACTIONS", "Loaded", "Refusal", "TableService", "action_hash", "custom_id", "menu_payload",
    "early_replies", "parse_custom_id", "parse_options", "rules_embeds",
]
