"""Settings from the environment, and the token never reaching a log line."""

from __future__ import annotations

import io
import logging

import pytest

from bot.__main__ import _RedactToken
from bot.settings import SettingsError, load_settings

TOKEN = "MTIz.secret-token.value"


def test_settings_from_environment_and_repr_hides_the_token() -> None:
    s = load_settings(None, {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "sqlite:///x.db", "DEV_GUILD_ID": "42",
                             "REMINDER_HOURS": "6", "TIMEOUT_HOURS": "0", "SYNC_COMMANDS": "Never"})
    assert s.discord_token == TOKEN and s.dev_guild_id == 42 and s.reminder_hours == 6 and s.timeout_hours == 0
    assert s.sync_commands == "never" and s.database_url == "sqlite:///x.db"
    assert TOKEN not in repr(s) and "token=set" in repr(s)
    defaults = load_settings(None, {"REMINDER_HOURS": "soon", "DEV_GUILD_ID": "abc"})
    assert defaults.discord_token is None and defaults.reminder_hours == 12 and defaults.dev_guild_id is None


def test_env_file_is_read(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    env = tmp_path / ".env"
    env.write_text("PASSEPARTOUT_DB=/tmp/from-env-file.sqlite3\n", encoding="utf-8")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("PASSEPARTOUT_DB", raising=False)
    assert load_settings(env).database_url == "/tmp/from-env-file.sqlite3"


def test_log_lines_never_show_the_token(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("passepartout.test")
    handler = logging.StreamHandler()
    handler.addFilter(_RedactToken(TOKEN))
    record = logger.makeRecord("x", logging.INFO, __file__, 1, "connecting with %s", (TOKEN,), None)
    assert handler.filter(record)
    assert TOKEN not in record.getMessage() and "[token]" in record.getMessage()


def test_a_logged_traceback_never_shows_the_token() -> None:
    """The token in an exception's text and in the text of its cause: the logged traceback
    shows neither (the message filter alone used to let the traceback through)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    handler.addFilter(_RedactToken(TOKEN))
    logger = logging.getLogger("passepartout.test.redact")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            try:
                raise ValueError(f"bad header: Authorization: Bot {TOKEN}")
            except ValueError as cause:
                raise RuntimeError(f"login with {TOKEN} failed") from cause
        except RuntimeError:
            logger.exception("the start failed")
            logger.error("once more, with the stack", exc_info=True, stack_info=True)
    finally:
        logger.removeHandler(handler)
    logged = stream.getvalue()
    assert TOKEN not in logged
    assert "RuntimeError: login with [token] failed" in logged
    assert "ValueError: bad header: Authorization: Bot [token]" in logged
    assert "The above exception was the direct cause" in logged and "Stack (most recent call last)" in logged


@pytest.mark.parametrize(("ids", "count", "expected"), [
    ("0-3", "8", (0, 1, 2, 3)),
    ("0,2,5", "6", (0, 2, 5)),
    ("4", "5", (4,)),
    (" 5, 0-1 ,1 ", "6", (0, 1, 5)),
    ("", "3", None),
    ("", "", None),
])
def test_shard_ids_and_count(ids: str, count: str, expected: tuple[int, ...] | None) -> None:
    s = load_settings(None, {"SHARD_IDS": ids, "SHARD_COUNT": count})
    assert s.shard_ids == expected
    assert s.shard_count == (int(count) if count else None)
    assert s.primary == (expected is None or 0 in expected)
    assert f"shard_ids={expected}" in repr(s)


@pytest.mark.parametrize(("env", "says"), [
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT='two' is not a whole number"),
    ({"SHARD_COUNT": "0"}, "SHARD_COUNT='0'"),
    ({"SHARD_COUNT": "-1"}, "SHARD_COUNT='-1'"),
    ({"SHARD_COUNT": "٣"}, "SHARD_COUNT="),  # not an ASCII number
    ({"SHARD_IDS": "0-3"}, "needs SHARD_COUNT"),
    ({"SHARD_IDS": "0-4", "SHARD_COUNT": "4"}, "shard 4 does not exist with SHARD_COUNT=4"),
    ({"SHARD_IDS": "3-1", "SHARD_COUNT": "4"}, "runs backwards"),
    ({"SHARD_IDS": "a", "SHARD_COUNT": "4"}, "'a' is not a shard id"),
    ({"SHARD_IDS": "1,,2", "SHARD_COUNT": "4"}, "'' is not a shard id"),
    ({"SHARD_IDS": "1-", "SHARD_COUNT": "4"}, "'1-' is not a shard id"),
])
def test_bad_shard_settings_say_which_and_why(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(None, env)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_ai_settings_from_the_environment() -> None:
    s = load_settings(None, {"AI_PROCESSES": "2", "AI_TURN_SECONDS": "5", "AI_HARD_SECONDS": "0.5"})
    assert (s.ai_processes, s.ai_turn_seconds, s.ai_hard_seconds) == (2, 5.0, 0.5)
    defaults = load_settings(None, {"AI_HARD_SECONDS": " "})
    assert (defaults.ai_processes, defaults.ai_hard_seconds) == (1, None)  # each game's own search budget
    assert load_settings(None, {"AI_HARD_SECONDS": "0"}).ai_hard_seconds == 0.01  # never no search at all
