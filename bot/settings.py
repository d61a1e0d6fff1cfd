"""Configuration from the environment (a `.env` file is read at start)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    discord_token: str | None = None
    database_url: str = "passepartout.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    sync_commands: str = "auto"  # "auto": when definitions changed; "always"; "never"
    default_language: str = "en"
    reminder_hours: float = 12.0
    timeout_hours: float = 48.0  # 0 = never play for an absent player
    tick_seconds: float = 60.0
    lobby_idle_hours: float = 24.0  # a lobby nobody touches closes after this (0 = never)
    durable_commits: bool = False
    #: render processes; 0 = render in threads of the bot's process. `load_settings` defaults to
    #: one per core; a `Settings()` built in code (tests, tools) renders in threads
    render_processes: int = 0
    extra: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:  # never print the token
        token = "set" if self.discord_token else "unset"
        return (f"Settings(token={token}, database_url={self.database_url!r}, dev_guild_id={self.dev_guild_id},"
                f" log_level={self.log_level!r}, sync_commands={self.sync_commands!r})")


def _float(value: str | None, default: float) -> float:
    try:
        return float(value) if value not in (None, "") else default
    except ValueError:
        return default


def default_processes() -> int:
    """One render process per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _processes(value: str | None) -> int:
    """RENDER_PROCESSES: a count (0 = none), or unset/empty/`auto`/unreadable = one per core."""
    raw = (value or "").strip().lower()
    if raw.isdigit():
        return min(int(raw), 64)
    return default_processes()


def load_settings(env_file: str | Path | None = ".env", environ: dict[str, str] | None = None) -> Settings:
    """Settings from `environ` (default: the process environment after reading `.env`)."""
    if environ is None:
        if env_file is not None and Path(env_file).exists():
            from dotenv import load_dotenv

            load_dotenv(env_file, override=False)
        environ = dict(os.environ)
    guild = environ.get("DEV_GUILD_ID", "").strip()
    return Settings(
        discord_token=environ.get("DISCORD_TOKEN") or None,
        database_url=environ.get("DATABASE_URL") or environ.get("PASSEPARTOUT_DB") or "passepartout.sqlite3",
        dev_guild_id=int(guild) if guild.isdigit() else None,
        log_level=(environ.get("LOG_LEVEL") or "INFO").upper(),
        sync_commands=(environ.get("SYNC_COMMANDS") or "auto").lower(),
        default_language=environ.get("DEFAULT_LANGUAGE") or "en",
        reminder_hours=_float(environ.get("REMINDER_HOURS"), 12.0),
        timeout_hours=_float(environ.get("TIMEOUT_HOURS"), 48.0),
        tick_seconds=_float(environ.get("TICK_SECONDS"), 60.0),
        lobby_idle_hours=_float(environ.get("LOBBY_IDLE_HOURS"), 24.0),
        durable_commits=(environ.get("DURABLE_COMMITS", "").lower() in ("1", "true", "yes")),
        render_processes=_processes(environ.get("RENDER_PROCESSES")),
    )
