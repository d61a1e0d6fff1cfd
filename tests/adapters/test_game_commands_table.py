"""`/game` declared once (`bot.commands`): the Discord group is built from the table,
the local table reads and dispatches `/game` lines from it, and both call the service method
the table names with the keywords it names."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.adapters.local import FakeClock, LocalTable, user_id_for
from bot.commands import BY_NAME, GAME_COMMANDS, GameCommand
from bot.replies import Reply, ThreadTarget, User, Where
from bot.service import TableService
from bot.settings import Settings
from bot.store import SQLiteStore
from tests.adapters.test_discord_social import THREAD_ID, add_thread, follow_in_thread, stats_of
from tests.support.discord_harness import ALICE, BOB, EVE, GUILD_ID, Harness

Calls = list[tuple[tuple[Any, ...], dict[str, Any]]]


def record(service: Any, monkeypatch: pytest.MonkeyPatch, method: str) -> Calls:
    """Replace one service method by a recorder that answers privately."""
    calls: Calls = []

    async def recorder(*args: Any, **kwargs: Any) -> list[Reply]:
        calls.append((args, kwargs))
        return [Reply("ephemeral", "recorded", user_id=args[0].id)]

    monkeypatch.setattr(service, method, recorder)
    return calls


def test_every_entry_names_a_service_method_and_its_keywords() -> None:
    user, where = User(1, "a"), Where(channel_id=1)
    for entry in GAME_COMMANDS:
        method = getattr(TableService, entry.method)
        kwargs = {o.keyword: o.default for o in entry.options}
        args = (None, user, where) if entry.where else (None, user)
        inspect.signature(method).bind(*args, **kwargs)  # raises if a name or the shape is wrong


async def test_the_discord_group_is_built_from_the_table(h: Harness) -> None:
    group = h.bot.tree.get_command("game")
    assert group is not None
    on_discord = [e for e in GAME_COMMANDS if e.discord]
    assert [c.name for c in group.commands] == [e.name for e in on_discord]  # type: ignore[union-attr]
    for entry in on_discord:
        command = group.get_command(entry.name)  # type: ignore[union-attr]
        assert isinstance(command, app_commands.Command)
        params = {p.name: p for p in command.parameters}
        assert list(params) == [o.name for o in entry.options]
        for option in entry.options:
            param = params[option.name]
            assert param.required == option.required, (entry.name, option.name)
            assert (param.min_value, param.max_value) == (option.min_value, option.max_value)
            assert bool(param.choices) == (option.choices is not None)
            assert param.autocomplete == (option.autocomplete is not None)
            assert param.description != "…"


# values typed on Discord -> the keywords the service gets (an option left out: its default)
DISCORD_CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "new": ({"game": "countdown", "options": "start=10", "language": "de"},
            {"game_id": "countdown", "options": "start=10", "language": "de"}),
    "addbot": ({"count": 3, "level": "hard"}, {"count": 3, "level": "hard"}),
    "hints": ({"on": False}, {"on": False}),
    "log": ({}, {"count": 15}),
    "rules": ({"game": "countdown"}, {"game_id": "countdown"}),
    "replay": ({"game": "12"}, {"game": "12"}),
    "settings": ({"dm": True, "language": "fr", "reminder_hours": 6},
                 {"dm": True, "language": "fr", "reminder_hours": 6, "timeout_hours": None}),
    "leaderboard": ({}, {"game_id": None}),
    **{name: ({}, {}) for name in ("join", "leave", "start", "status", "hand", "resign", "cancel", "undo", "hint",
                                   "rematch", "unfollow", "help")},
}


def test_every_discord_subcommand_has_a_case() -> None:
    assert set(DISCORD_CASES) | {"follow", "stats"} == {e.name for e in GAME_COMMANDS if e.discord}


@pytest.mark.parametrize("name", sorted(DISCORD_CASES))
async def test_a_discord_subcommand_calls_the_method_the_table_names(h: Harness, monkeypatch: pytest.MonkeyPatch,
                                                                     name: str) -> None:
    entry = BY_NAME[name]
    calls = record(h.bot.service, monkeypatch, entry.method)
    typed, expected = DISCORD_CASES[name]
    await h.run(h.slash(ALICE, f"game {name}", **typed))
    [(args, kwargs)] = calls
    assert kwargs == expected
    user, where = args
    assert user.id == ALICE.id and where.guild_id == GUILD_ID and where.missing_permissions == ()
    assert [a.content for a in h.ephemeral_for(ALICE)] == ["recorded"]


async def test_a_picked_thread_and_member_reach_the_service_as_plain_values(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    add_thread(h)
    follows = record(h.bot.service, monkeypatch, "follow")
    stats = record(h.bot.service, monkeypatch, "stats")
    await h.run(follow_in_thread(h), stats_of(h, ALICE, BOB))
    [(_, follow_kwargs)] = follows
    assert follow_kwargs == {"thread": ThreadTarget(THREAD_ID, GUILD_ID, "watch-party", can_post=True)}
    [(_, stats_kwargs)] = stats
    assert stats_kwargs == {"player": User(id=BOB.id, name=BOB.name)}
    assert len(h.ephemeral_for(EVE)) == len(h.ephemeral_for(ALICE)) == 1


# -- the local table ---------------------------------------------------------------------------


async def _local(tmp_path: Path) -> LocalTable:
    store = SQLiteStore(str(tmp_path / "local.sqlite3"))
    await store.open()
    clock = FakeClock()
    service = TableService(store, Settings(database_url=":memory:"), clock=clock)
    return LocalTable(service, clock, emit=open(tmp_path / "out.jsonl", "w", encoding="utf-8"))  # noqa: SIM115


# a typed local line's options -> the keywords the service gets
LOCAL_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "new": ('game:countdown options:"start=10 x=1" language:de',
            {"game_id": "countdown", "options": "start=10 x=1", "language": "de"}),
    "addbot": ("count:3 level:hard", {"count": 3, "level": "hard"}),
    "hints": ("on:no", {"on": False}),
    "log": ("", {"count": 15}),
    "rules": ("game:", {"game_id": None}),
    "replay": ("game:12", {"game": "12"}),
    "settings": ("dm:yes timeout_hours:0.5", {"dm": True, "language": None, "reminder_hours": None,
                                              "timeout_hours": 0.5}),
    "stats": ("player:bob", {"player": User(user_id_for("bob"), "bob", "en")}),
    "leaderboard": ("game:countdown", {"game_id": "countdown"}),
    "list": ("", {}),
    **{name: ("", {}) for name in ("join", "leave", "start", "status", "hand", "resign", "cancel", "undo", "hint",
                                   "rematch", "unfollow", "help")},
}


def test_every_local_subcommand_has_a_case() -> None:
    assert set(LOCAL_CASES) | {"follow"} == set(BY_NAME)


@pytest.mark.parametrize("name", sorted(LOCAL_CASES))
async def test_a_local_line_calls_the_method_the_table_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             name: str) -> None:
    table = await _local(tmp_path)
    try:
        entry: GameCommand = BY_NAME[name]
        calls = record(table.service, monkeypatch, entry.method)
        typed, expected = LOCAL_CASES[name]
        replies = await table.run_line(f"alice /game {name} {typed}")
        assert [r.text for r in replies] == ["recorded"]
        [(args, kwargs)] = calls
        assert kwargs == expected
        assert args[0].name == "alice" and (args[1] == table.where if entry.where else len(args) == 1)
    finally:
        await table.service.store.close()


async def test_a_local_thread_is_a_name_on_the_tables_server(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    table = await _local(tmp_path)
    try:
        calls = record(table.service, monkeypatch, "follow")
        await table.run_line("eve /game follow thread:watch party")
        await table.run_line("eve /game follow")
        [(_, in_thread), (_, by_dm)] = calls
        thread = ThreadTarget(user_id_for("thread:watch party"), table.where.guild_id, "watch party")
        assert in_thread == {"thread": thread} and by_dm == {"thread": None}
        assert table.threads[thread.id] == "watch party"
    finally:
        await table.service.store.close()
