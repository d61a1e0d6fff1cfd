"""How the table speaks to one person: translators for a user or a game, private replies,
and refusals worded from their message key. Pure: no store, no state."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.gameui import GameUI
from bot.i18n import Translator, normalise_language
from bot.replies import Reply, User
from bot.store import GameRecord
from bot.table.shared import Refusal
from engine import IllegalAction


class Talk:
    def t(self, lang: str | None, ui: GameUI | None = None) -> Translator:
        lang = normalise_language(lang)
        return ui.translator(lang) if ui else Translator(lang)

    def user_t(self, user: User, ui: GameUI | None = None) -> Translator:
        return self.t(user.locale, ui)

    def game_t(self, record: GameRecord, ui: GameUI | None = None) -> Translator:
        return self.t(record.settings.get("language"), ui)

    def private(self, user: User, text: str, **kw: Any) -> Reply:
        return Reply("ephemeral", text, user_id=user.id, **kw)

    def done(self, user: User, text: str, **kw: Any) -> Reply:
        """The private confirmation that what the user asked for was done."""
        return self.private(user, text, outcome="ok", **kw)

    def refuse(self, user: User, key: str, ui: GameUI | None = None, **params: Any) -> list[Reply]:
        return [self.private(user, "⚠️ " + self.user_t(user, ui)(key, **params), outcome="refused", refusal=key)]

    def refused(self, user: User, refusal: Refusal) -> list[Reply]:
        """The private reply for a `Refusal` (with its buttons, if it brought any)."""
        reply = self.refuse(user, refusal.key, refusal.ui, **refusal.params)[0]
        return [replace(reply, rows=refusal.rows) if refusal.rows is not None else reply]

    def illegal(self, user: User, exc: IllegalAction, ui: GameUI | None) -> list[Reply]:
        """The engine's refusal of a move, in the user's language."""
        return [self.private(user, "⚠️ " + self.illegal_text(exc, ui, user), outcome="refused",
                             refusal=f"illegal.{exc.code}")]

    def illegal_text(self, exc: IllegalAction, ui: GameUI | None, user: User) -> str:
        t = self.user_t(user, ui)
        if ui is not None:
            return ui.illegal_text(exc.code, exc.message, exc.params, t)
        key = f"illegal.{exc.code}"
        return t(key, **exc.params) if t.has(key) else exc.message
