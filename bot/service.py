"""The table service: every behaviour of the bot, independent of Discord.

A command comes in as (who, where, what) and goes out as a list of `Reply`
values. The Discord adapter and the local table are thin translators around
`TableService`, so tests of the service test what Discord users get. The work is
split by job into `bot/table/` (lobby, play, messages, AI seats, scheduler); this
module composes them and keeps the names callers import.
"""

from __future__ import annotations

from bot.table.base import refusing
from bot.table.follow import FollowMixin
from bot.table.ids import PREFIX, _menu_payload, action_hash, custom_id, parse_custom_id
from bot.table.messages import rules_embeds
from bot.table.shared import (
    AI_NAMES,
    AI_USER_BASE,
    ASK_LIMIT,
    ASK_WINDOW,
    MAX_AI_STEPS,
    RENDER_CACHE_SIZE,
    STAND_IN_MAX_ACTIONS,
    Loaded,
    Refusal,
    parse_options,
)


class TableService(FollowMixin):
    """The one facade the adapters and tests call: lobby, play, messages, AI seats, the
    scheduler, undo, rematch, ratings and followers (each part in `bot/table/`, built on the ones it uses)."""


__all__ = [
    "AI_NAMES", "AI_USER_BASE", "ASK_LIMIT", "ASK_WINDOW", "MAX_AI_STEPS", "PREFIX", "RENDER_CACHE_SIZE",
    "STAND_IN_MAX_ACTIONS", "Loaded", "Refusal", "TableService", "_menu_payload", "action_hash", "custom_id",
    "parse_custom_id", "parse_options", "refusing", "rules_embeds",
]
