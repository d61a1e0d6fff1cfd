"""The game store: what the table service keeps between turns, in SQLite (the default) or
PostgreSQL (several bot processes on one database).

    records.py     the records handed out and taken in, and the store's errors
    api.py         `Store` (and its `SocialStore` half): what every backend does
    migrations/    the schema, numbered, SQLite and PostgreSQL side by side
    sqlite/        `SQLiteStore`: connection and thread, games, social, WAL checkpoints
    postgres/      `PostgresStore`: pool, games, social
    rows.py        what both backends write alike (JSON columns, whole-table order)
    factory.py     `store_from_url`: the backend a database URL names

Code outside the store imports from here only.
"""

from bot.store.api import SocialStore, Store
from bot.store.factory import store_from_url
from bot.store.migrations import COPY_TABLES, split_sql
from bot.store.migrations.postgres import PG_MIGRATIONS
from bot.store.migrations.sqlite import MIGRATIONS
from bot.store.postgres import DUE as PG_DUE
from bot.store.postgres import PostgresStore, pg_placeholders
from bot.store.records import (
    ACTIVE_STATUSES,
    ActionRecord,
    BestResult,
    ChannelBusy,
    Follow,
    GameRecord,
    GameResult,
    PlayerStats,
    RateFn,
    Rating,
    RatingRow,
    ResultEntry,
    SeatRecord,
    StoreError,
    VersionConflict,
)
from bot.store.sqlite import CHECKPOINT_EVERY, WAL_BACKSTOP_PAGES, SQLiteStore, WalCheckpointer

__all__ = [
    "ACTIVE_STATUSES", "CHECKPOINT_EVERY", "COPY_TABLES", "MIGRATIONS", "PG_DUE", "PG_MIGRATIONS",
    "WAL_BACKSTOP_PAGES", "ActionRecord", "BestResult", "ChannelBusy", "Follow", "GameRecord", "GameResult",
    "PlayerStats", "PostgresStore", "RateFn", "Rating", "RatingRow", "ResultEntry", "SQLiteStore", "SeatRecord",
    "SocialStore", "Store", "StoreError", "VersionConflict", "WalCheckpointer", "pg_placeholders", "split_sql",
    "store_from_url",
]
