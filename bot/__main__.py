"""`python -m bot` / `passepartout`: connect to Discord, or open the local table without a token.

Whatever goes wrong at start (a rejected token, no network, an unusable database) ends in one
clear line on stderr and exit status 1, never a traceback, and never shows the token; a setting
that cannot work (SHARD_COUNT, SHARD_IDS) is one line and exit status 2.
"""

from __future__ import annotations

import logging
import sqlite3
import sys

from bot.settings import SettingsError, load_settings

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: discord.py warns on every start that voice needs PyNaCl/davey; this bot uses no voice.
VOICE_WARNINGS = ("PyNaCl is not installed, voice will NOT be supported",
                  "davey is not installed, voice will NOT be supported")


class _RedactToken(logging.Filter):
    """Belt and braces: no log line ever shows the token, neither in its message nor in the
    traceback logged with it (an exception's text, or the text of its cause, may hold it)."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        token = self.token
        if not token:
            return True
        message = record.getMessage()
        if token in message:
            record.msg = message.replace(token, "[token]")
            record.args = ()
        if record.exc_info and not record.exc_text:
            # formatted here, once, as the handler's formatter would (it reuses exc_text)
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and token in record.exc_text:
            record.exc_text = record.exc_text.replace(token, "[token]")
        if record.stack_info and token in record.stack_info:
            record.stack_info = record.stack_info.replace(token, "[token]")
        return True


class _NoVoiceWarnings(logging.Filter):
    """Drops exactly discord.py's two "voice will NOT be supported" warnings."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() not in VOICE_WARNINGS


def setup_logging(level: str, token: str | None) -> str | None:
    """Log to stderr at `level`. An unknown level falls back to INFO (a typo in LOG_LEVEL should
    not keep the bot offline); the returned text says so, for the caller to log."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S"))
    handler.addFilter(_RedactToken(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    problem = None
    if level.upper() not in LOG_LEVELS:
        problem = f"LOG_LEVEL={level!r} is not one of {', '.join(LOG_LEVELS)}; logging at INFO"
        level = "INFO"
    root.setLevel(level.upper())
    # discord.py's own INFO lines (logging in, gateway sessions) only at DEBUG: a start that
    # fails then prints one line, and a good one prints what this bot logs
    logging.getLogger("discord").setLevel(logging.DEBUG if level.upper() == "DEBUG" else logging.WARNING)
    voice = logging.getLogger("discord.client")
    if not any(isinstance(f, _NoVoiceWarnings) for f in voice.filters):
        voice.addFilter(_NoVoiceWarnings())
    return problem


def _fail(text: str, token: str | None) -> int:
    """One line on stderr (the token blanked even if some library put it in a message); status 1."""
    if token:
        text = text.replace(token, "[token]")
    print(f"passepartout: {text}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        # a setting that cannot work (e.g. SHARD_IDS beyond SHARD_COUNT): say which, status 2
        print(f"passepartout: {exc}", file=sys.stderr)
        return 2
    token = settings.discord_token
    problem = setup_logging(settings.log_level, token)
    log = logging.getLogger("passepartout")
    if problem:
        log.warning(problem)
    if not token:
        print("No DISCORD_TOKEN in the environment or .env: opening the local table instead.\n"
              "(Put your bot token in .env to connect to Discord; see README.)\n", file=sys.stderr)
        from bot.adapters.local import main as local_main

        return local_main(argv if argv is not None else [])
    import asyncio

    import aiohttp
    import discord

    from bot import create_bot
    from bot.store import StoreError

    try:
        bot = create_bot(settings)
        log.debug("starting with %r", settings)
        # until Discord ends the connection, or SIGTERM / SIGINT stop the bot cleanly (status 0)
        asyncio.run(bot.serve(token))
    except KeyboardInterrupt:  # Ctrl-C before the bot was listening for it
        return 0
    except discord.LoginFailure:
        return _fail("Discord refused the login: DISCORD_TOKEN is not a valid bot token. Copy it again from the "
                     "developer portal (Bot -> Reset Token) into .env.", token)
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused a privileged intent this bot asked for; see README (Intents).", token)
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        return _fail(f"cannot connect to Discord ({type(exc).__name__}: {exc}). Check the network and try "
                     "again.", token)
    except (StoreError, sqlite3.Error) as exc:
        return _fail(f"cannot use the database {settings.database_url!r}: {exc}", token)
    except discord.DiscordException as exc:
        return _fail(f"Discord stopped the bot ({type(exc).__name__}: {exc}).", token)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
