"""The Discord adapter: app commands and components in, `Reply` values delivered as messages."""

from __future__ import annotations

from bot.adapters.discord.client import CatalogTranslator, PassepartoutBot, create_bot

__all__ = ["CatalogTranslator", "PassepartoutBot", "create_bot"]
