"""Which store a deployment gets, from its database URL (`DATABASE_URL`)."""

from __future__ import annotations

from bot.store.api import Store
from bot.store.postgres import PostgresStore
from bot.store.records import StoreError
from bot.store.sqlite import SQLiteStore


def store_from_url(url: str | None, *, durable: bool = False, pool_size: int = 10) -> Store:
    """`sqlite:///path`, a plain path, or None for the default file; `postgresql://…` (or
    `postgres://…`) for PostgreSQL with at most `pool_size` connections."""
    if url and url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url, pool_size=pool_size)
    if not url:
        return SQLiteStore("passepartout.sqlite3", durable=durable)
    if url.startswith("sqlite:///"):
        return SQLiteStore(url[len("sqlite:///"):], durable=durable)
    if url.startswith("sqlite://"):
        return SQLiteStore(url[len("sqlite://"):] or ":memory:", durable=durable)
    if "://" in url:
        raise StoreError(f"unsupported database URL scheme in {url.split('://')[0]!r};"
                         " only sqlite and postgresql are built in")
    return SQLiteStore(url, durable=durable)
