"""Configuration from the environment (a `.env` file is read at start)."""

from __future__ import annotations

import os
import re
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
    rematch_minutes: float = 15.0  # how long the players of a finished game have to accept a rematch
    durable_commits: bool = False
    leaderboard_min_games: int = 3  # rated games before a player shows on /game leaderboard
    #: SHARD_COUNT: how many shards the whole bot has (None: Discord's recommendation)
    shard_count: int | None = None
    #: SHARD_IDS: the shards this process runs (None: all of them)
    shard_ids: tuple[int, ...] | None = None
    database_pool_size: int = 10  # PostgreSQL: connections per bot process at most
    #: render processes; 0 = render in threads of the bot's process. `load_settings` defaults to
    #: one per core; a `Settings()` built in code (tests, tools) renders in threads
    render_processes: int = 0
    #: RENDER_CACHE_MB: the picture caches one drawing process (each render worker, or the bot
    #: when it draws in threads) may hold, in MB (`render.budget`: static layers of about 27 MB a
    #: language in play, tables' kept layers, PNG bands, sprites); None: the default (170)
    render_cache_mb: float | None = None
    #: processes AI seats decide in (0 = threads of the bot's process); `load_settings` defaults
    #: to one; `AI_TURN_SECONDS` caps one decision there (the game's own policy answers after it)
    ai_processes: int = 0
    ai_turn_seconds: float = 10.0
    #: AI_HARD_SECONDS: CPU seconds a hard seat searches per decision (None: each game's own,
    #: at most 0.25); more plays stronger, and costs that much CPU in an AI process per move
    ai_hard_seconds: float | None = None
    #: seconds after a change before the scheduler posts its message again if Discord did not
    #: accept it meanwhile, and the first wait after a failed post (it doubles, up to 10 min)
    announce_grace_seconds: float = 20.0
    announce_retry_seconds: float = 15.0
    #: the longest one request to Discord may take before it counts as failed
    request_timeout_seconds: float = 20.0
    extra: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:  # never print the token
        token = "set" if self.discord_token else "unset"
        return (f"Settings(token={token}, database_url={self.database_url!r}, dev_guild_id={self.dev_guild_id},"
                f" log_level={self.log_level!r}, sync_commands={self.sync_commands!r},"
                f" shard_count={self.shard_count}, shard_ids={self.shard_ids})")

    @property
    def primary(self) -> bool:
        """Whether this process does the once-per-deployment work (syncing slash commands,
        the reminder/timeout scheduler): the one running shard 0, or a process running all."""
        return self.shard_ids is None or 0 in self.shard_ids


class SettingsError(ValueError):
    """A setting that cannot be used; the message names it and says what is allowed."""


def _float(value: str | None, default: float) -> float:
    try:
        return float(value) if value not in (None, "") else default
    except ValueError:
        return default


def _megabytes(value: str | None) -> float | None:
    """RENDER_CACHE_MB: a size in MB (at least 1), or None (unset or unreadable: the default)."""
    number = _float(value, -1.0)
    return max(1.0, number) if number >= 0 else None


_DIGITS = re.compile(r"[0-9]{1,6}")


def _shard_count(value: str | None) -> int | None:
    text = (value or "").strip()
    if not text:
        return None
    if not _DIGITS.fullmatch(text) or not 1 <= int(text) <= 100_000:
        raise SettingsError(f"SHARD_COUNT={text!r} is not a whole number of shards (1 or more)")
    return int(text)


def _shard_ids(value: str | None, count: int | None) -> tuple[int, ...] | None:
    """`0-3`, `0,2,5`, `4` (ranges and single ids, comma-separated) -> sorted shard ids."""
    text = (value or "").strip()
    if not text:
        return None
    if count is None:
        raise SettingsError(f"SHARD_IDS={text!r} needs SHARD_COUNT (the total number of shards of the bot)")
    ids: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not _DIGITS.fullmatch(low.strip()) or (dash and not _DIGITS.fullmatch(high.strip())):
            raise SettingsError(f"SHARD_IDS={text!r}: {part.strip()!r} is not a shard id (e.g. 4) or a range"
                                " (e.g. 0-3)")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise SettingsError(f"SHARD_IDS={text!r}: the range {part.strip()!r} runs backwards")
        if last >= count:
            raise SettingsError(f"SHARD_IDS={text!r}: shard {last} does not exist with SHARD_COUNT={count}"
                                f" (shards are numbered 0 to {count - 1})")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))
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
    """Settings from `environ` (default: the process environment after reading `.env`).
    Raises `SettingsError` for shard settings that cannot work (a typo there would make
    processes run the wrong shards, so it stops the start rather than being guessed)."""
    if environ is None:
        if env_file is not None and Path(env_file).exists():
            from dotenv import load_dotenv

            load_dotenv(env_file, override=False)
        environ = dict(os.environ)
    guild = environ.get("DEV_GUILD_ID", "").strip()
    shard_count = _shard_count(environ.get("SHARD_COUNT"))
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
        rematch_minutes=_float(environ.get("REMATCH_MINUTES"), 15.0),
        durable_commits=(environ.get("DURABLE_COMMITS", "").lower() in ("1", "true", "yes")),
        leaderboard_min_games=max(1, int(_float(environ.get("LEADERBOARD_MIN_GAMES"), 3))),
        shard_count=shard_count,
        shard_ids=_shard_ids(environ.get("SHARD_IDS"), shard_count),
        database_pool_size=max(1, int(_float(environ.get("DATABASE_POOL_SIZE"), 10.0))),
        render_processes=_processes(environ.get("RENDER_PROCESSES")),
        render_cache_mb=_megabytes(environ.get("RENDER_CACHE_MB")),
        ai_processes=max(0, int(_float(environ.get("AI_PROCESSES"), 1.0))),
        ai_turn_seconds=max(0.1, _float(environ.get("AI_TURN_SECONDS"), 10.0)),
        ai_hard_seconds=(max(0.01, _float(environ.get("AI_HARD_SECONDS"), 0.25))
                         if environ.get("AI_HARD_SECONDS", "").strip() else None),
        announce_grace_seconds=max(0.0, _float(environ.get("ANNOUNCE_GRACE_SECONDS"), 20.0)),
        announce_retry_seconds=max(0.1, _float(environ.get("ANNOUNCE_RETRY_SECONDS"), 15.0)),
        request_timeout_seconds=max(0.5, _float(environ.get("REQUEST_TIMEOUT_SECONDS"), 20.0)),
    )
