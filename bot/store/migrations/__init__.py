"""The schema, side by side for both backends: `sqlite.MIGRATIONS` and
`postgres.PG_MIGRATIONS` build the same tables, columns and indexes under the same numbers
(tests/store/test_store_schema.py reads both catalogs back and compares them). Here, what
both use: how a migration is cut into statements, and the tables `python -m bot.admin
migrate` copies."""

from __future__ import annotations

#: the tables `python -m bot.admin migrate` copies, parents first
COPY_TABLES = ("games", "seats", "actions", "user_prefs", "meta", "game_results", "result_seats", "ratings",
               "follows")


def split_sql(script: str) -> list[str]:
    """The migrations' statements, one by one (no semicolons inside statements)."""
    return [part.strip() for part in script.split(";") if part.strip()]
