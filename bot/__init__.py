"""The Discord bot, the local table and the table service they share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.adapters.discord import PassepartoutBot
    from bot.settings import Settings
    from bot.store import Store


def create_bot(settings: Settings | None = None, store: Store | None = None, **kwargs: Any) -> PassepartoutBot:
    """Build the whole bot (commands, components, store, scheduler) without connecting."""
    from bot.adapters.discord import create_bot as _create
    from bot.settings import load_settings

    return _create(settings or load_settings(), store, **kwargs)
