"""`python -m bot` / `passepartout`: connect to Discord, or open the local table without a token."""

from __future__ import annotations

import logging
import sys

from bot.settings import load_settings


class _RedactToken(logging.Filter):
    """Belt and braces: no log line ever shows the token."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token:
            message = record.getMessage()
            if self.token in message:
                record.msg = message.replace(self.token, "[token]")
                record.args = ()
        return True


def setup_logging(level: str, token: str | None) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S"))
    handler.addFilter(_RedactToken(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def main(argv: list[str] | None = None) -> int:
    settings = load_settings()
    setup_logging(settings.log_level, settings.discord_token)
    log = logging.getLogger("passepartout")
    if not settings.discord_token:
        print("No DISCORD_TOKEN in the environment or .env: opening the local table instead.\n"
              "(Put your bot token in .env to connect to Discord; see README.)\n", file=sys.stderr)
        from bot.local import main as local_main

        return local_main(argv if argv is not None else [])
    from bot import create_bot

    bot = create_bot(settings)
    log.info("starting with %r", settings)
    bot.run(settings.discord_token, log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
