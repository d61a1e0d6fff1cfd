"""Hints: a table option (off by default) the host sets in the lobby with `/game hints`;
then a seated player may ask `/game hint` for a private suggestion from the hard AI, given
only their own view. A game played with hints on says so in its log and lobby, and is not
rated."""

from __future__ import annotations

from bot import games
from bot.ai.pool import AIPool
from bot.i18n import Translator
from bot.replies import Reply, User, Where
from bot.store import GameRecord
from bot.table.hooks import Hooks
from bot.table.lobby import is_host
from bot.table.shared import RateLimiter, Refusal
from bot.table.tables import Tables
from bot.table.talk import Talk

#: hints a user may ask for per minute (each is a search of up to a quarter of a second)
HINT_LIMIT, HINT_WINDOW = 6, 60.0


def hints_on(record: GameRecord) -> bool:
    return bool(record.settings.get("hints"))


class Hints:
    def __init__(self, tables: Tables, talk: Talk, ai: AIPool) -> None:
        self.tables = tables
        self.talk = talk
        self.ai = ai
        self.asks = RateLimiter(HINT_LIMIT, HINT_WINDOW)

    def install(self, hooks: Hooks) -> None:
        hooks.lobby_notes.append(self.lobby_note)
        hooks.log_notes.append(self.log_note)

    async def set(self, user: User, where: Where, on: bool) -> list[Reply]:
        """The host turns hints on or off, in the lobby (a game's rating depends on it)."""
        async with self.tables.lock(where.channel_id):
            record = await self.tables.active(where, "lobby")
            if not is_host(record, user, where):
                raise Refusal("error.host_only")
            record.settings["hints"] = bool(on)
            await self.tables.store.save_settings(record)
        t = self.talk.user_t(user, games.get(record.game_id).ui)
        return [self.talk.done(user, "✅ " + t("hints.on" if on else "hints.off"))]

    async def hint(self, user: User, where: Where) -> list[Reply]:
        """A private suggestion for the asker's move, from the hard AI on the asker's own view."""
        loaded = await self.tables.running(where)
        if not hints_on(loaded.record):
            raise Refusal("hints.disabled")
        seat = loaded.record.seat_of_user(user.id)
        if seat is None or seat.seat is None:
            raise Refusal("error.not_seated")
        rules = loaded.rules
        if seat.seat not in rules.to_act(loaded.state):
            raise Refusal("hints.not_now")
        if self.asks.too_often(user.id):
            raise Refusal("error.slow_down")
        view = rules.view(loaded.state, seat.seat)
        legal = rules.legal_actions(loaded.state, seat.seat)
        action = await self.ai.choose(loaded.spec, view, seat.seat, legal, level="hard")
        t = self.talk.user_t(user, loaded.ui)
        label = loaded.ui.action_label(action, view, t)
        return [self.talk.private(user, t("hints.suggest", action=label, count=len(legal)))]

    @staticmethod
    def lobby_note(record: GameRecord, t: Translator) -> str | None:
        return t("hints.lobby") if hints_on(record) else None

    @staticmethod
    def log_note(record: GameRecord, t: Translator) -> str | None:
        return t("hints.log") if hints_on(record) else None
