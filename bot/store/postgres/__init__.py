"""The PostgreSQL backend (asyncpg), for several bot processes on one database: the pool,
migrations and transactions (`connection`), the games part (`games`), the social part
(`social`), both composed in `PostgresStore` (`store`)."""

from bot.store.postgres.connection import pg_placeholders
from bot.store.postgres.games import DUE
from bot.store.postgres.store import PostgresStore

__all__ = ["DUE", "PostgresStore", "pg_placeholders"]
