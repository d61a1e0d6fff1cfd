"""The SQLite backend, the default: one file in WAL mode, its connection on a thread of its
own (`thread`, `connection`), the games part (`games`), the social part (`social`), both
composed in `SQLiteStore` (`store`), and the background WAL checkpoints (`wal`)."""

from bot.store.sqlite.store import SQLiteStore
from bot.store.sqlite.wal import CHECKPOINT_EVERY, WAL_BACKSTOP_PAGES, WalCheckpointer

__all__ = ["CHECKPOINT_EVERY", "WAL_BACKSTOP_PAGES", "SQLiteStore", "WalCheckpointer"]
