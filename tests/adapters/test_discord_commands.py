"""The command tree as Discord receives it: translations and when it is synced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot import games
from bot.adapters.discord import CatalogTranslator
from bot.adapters.discord import client as discord_client
from bot.i18n import Translator
from bot.settings import Settings
from tests.support import fakegame
from tests.support.discord_harness import APP_ID, GUILD_ID, Harness


def _walk(node: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    here = f"{path} {node['name']}".strip()
    out = [(here, node)]
    for opt in node.get("options") or []:
        out += _walk(opt, here)
    return out


async def _payloads(h: Harness) -> dict[str, dict[str, Any]]:
    translator = CatalogTranslator()
    await h.bot.tree.set_translator(translator)
    payloads = [await cmd.get_translated_payload(h.bot.tree, translator) for cmd in h.bot.tree.get_commands()]
    return {path: node for p in payloads for path, node in _walk(p)}


async def test_the_game_group_is_described_in_german_and_french(h: Harness) -> None:
    nodes = await _payloads(h)
    for path in ("game", "game new", "game new game", "game join", "game hand", "game settings dm",
                 "game log count"):
        node = nodes[path]
        loc = node.get("description_localizations") or {}
        assert set(loc) >= {"de", "fr"}, (path, loc)
        assert loc["de"] != node["description"] and loc["fr"] != node["description"], path
        assert loc["de"] != loc["fr"]
        assert all(0 < len(v) <= 100 for v in loc.values())
    assert nodes["game new"]["description_localizations"]["de"] == Translator("de")("cmd.game.new")
    assert nodes["game new"]["description_localizations"]["fr"] == Translator("fr")("cmd.game.new")
    # option names that are localised follow Discord's rules
    for node in nodes.values():
        for name in (node.get("name_localizations") or {}).values():
            assert name == name.lower() and 1 <= len(name) <= 32 and " " not in name
    # the language choices are self-named and not translated
    choices = {c["value"]: c for c in nodes["game new language"]["choices"]}
    assert choices["de"]["name"] == "Deutsch" and "name_localizations" not in choices["de"]


async def test_every_command_and_option_has_a_description_within_discord_limits(h: Harness) -> None:
    nodes = await _payloads(h)
    assert {"game", "countdown", "countdown take", "countdown take n"} <= set(nodes)
    for path, node in nodes.items():
        assert 1 <= len(node["description"]) <= 100, path
        assert node["description"] != "…", f"{path} has no description in the catalog"


async def test_a_game_group_is_translated_from_its_own_catalog(h: Harness) -> None:
    pytest.importorskip("bot.games.detour")
    nodes = await _payloads(h)
    if "detour" not in nodes:
        pytest.skip("detour is not available")
    game_dir = Path(__import__("bot.games.detour", fromlist=["UI"]).UI.package_dir) / "locales"
    choose = nodes["detour choose"]
    assert choose["description_localizations"]["de"] == Translator("de", game_dir)("cmd.choose")
    assert choose["description_localizations"]["fr"] == Translator("fr", game_dir)("cmd.choose")
    game_choices = {c["value"]: c for c in nodes["game new game"]["choices"]}
    assert set(game_choices["detour"].get("name_localizations", {})) >= {"de", "fr"}


# -- sync --------------------------------------------------------------------------------------


async def test_sync_only_when_the_definitions_changed(fake_game: None, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "sync.sqlite3"
    settings = Settings(database_url=str(db), sync_commands="auto")
    h = await Harness.create(tmp_path, settings=settings, db_name="sync.sqlite3")
    try:
        assert await h.bot.sync_commands_if_needed() is True
        [put] = h.synced()
        assert put.method == "PUT" and put.path == f"/applications/{APP_ID}/commands"
        names = {c["name"] for c in put.payload}
        assert {"game", "countdown"} <= names
        game = next(c for c in put.payload if c["name"] == "game")
        assert set(game["description_localizations"]) >= {"de", "fr"}  # sent translated
        # servers only, declared as contexts (0: a server's channels) and installs (0: a server install)
        assert all(c["contexts"] == [0] and c["integration_types"] == [0] for c in put.payload)
        # unchanged: no second sync
        assert await h.bot.sync_commands_if_needed() is False
        assert len(h.synced()) == 1
    finally:
        await h.close()

    # a restart with the same definitions does not sync either (the fingerprint is in the store)
    h = await Harness.create(tmp_path, settings=settings, db_name="sync.sqlite3")
    try:
        assert await h.bot.sync_commands_if_needed() is False
        assert h.synced() == []
    finally:
        await h.close()

    # "always" syncs regardless
    always = Settings(database_url=str(db), sync_commands="always")
    h = await Harness.create(tmp_path, settings=always, db_name="sync.sqlite3")
    try:
        assert await h.bot.sync_commands_if_needed() is True
        assert await h.bot.sync_commands_if_needed() is True
        assert len(h.synced()) == 2
    finally:
        await h.close()

    # "never" never does
    never = Settings(database_url=str(db), sync_commands="never")
    h = await Harness.create(tmp_path, settings=never, db_name="sync.sqlite3")
    try:
        assert await h.bot.sync_commands_if_needed() is False
        assert h.synced() == []
    finally:
        await h.close()

    # changed definitions (a game gains a subcommand) sync again
    import dataclasses

    from bot.gameui import Command

    ui = dataclasses.replace(fakegame.UI, commands=fakegame.UI.commands + (Command("pass"),))
    monkeypatch.setitem(games.RUNTIME, fakegame.GAME_ID, dataclasses.replace(fakegame.spec(), ui=ui))
    h = await Harness.create(tmp_path, settings=settings, db_name="sync.sqlite3")
    try:
        assert await h.bot.sync_commands_if_needed() is True
        [put] = h.synced()
        countdown = next(c for c in put.payload if c["name"] == "countdown")
        assert [o["name"] for o in countdown["options"]] == ["take", "pass"]
    finally:
        await h.close()


async def test_sync_goes_to_the_dev_guild_when_set(fake_game: None, tmp_path: Path) -> None:
    settings = Settings(database_url=str(tmp_path / "g.sqlite3"), dev_guild_id=GUILD_ID, sync_commands="auto")
    h = await Harness.create(tmp_path, settings=settings, db_name="g.sqlite3")
    try:
        assert await h.bot.sync_commands_if_needed() is True
        [put] = h.synced()
        assert put.path == f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
        assert {"game", "countdown"} <= {c["name"] for c in put.payload}
        assert await h.bot.sync_commands_if_needed() is False
        # the global scope has its own fingerprint: a global sync is still pending
        assert await h.bot.store.get_meta("commands:global") is None  # type: ignore[attr-defined]
    finally:
        await h.close()


async def test_guild_synced_commands_are_dispatched(fake_game: None, tmp_path: Path) -> None:
    from tests.support.discord_harness import ALICE

    settings = Settings(database_url=str(tmp_path / "g.sqlite3"), dev_guild_id=GUILD_ID)
    h = await Harness.create(tmp_path, settings=settings, db_name="g.sqlite3")
    try:
        await h.bot.sync_commands_if_needed()
        assert h.bot.tree.get_command("game", guild=discord.Object(id=GUILD_ID)) is not None
        await h.run(h.slash(ALICE, "game new", game="countdown", guild_command=True))
        [lobby] = h.channel_messages()
        assert [b.label for b in lobby.buttons][:1] == ["Join"]
        assert h.protocol_problems() == [] and h.error_messages() == []
    finally:
        await h.close()


async def test_an_unexpected_error_in_a_command_is_apologised_for_privately(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside the service's own safety net (here: reading the interaction), the tree's error
    handler answers the user instead of leaving the command "thinking…"."""
    from tests.support.discord_harness import ALICE, refusal

    def broken(interaction: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(discord_client, "where_of", broken)
    cmd = h.slash(ALICE, "game status")
    await h.run(cmd)
    assert [a.content for a in h.ephemeral_for(ALICE)] == [refusal(ALICE, "error.internal")]
    assert [c.type for c in h.callbacks_for(cmd)] == [5]
    assert any("command error" in m for m in h.error_messages())
    h.errors.records.clear()


async def test_an_unexpected_error_in_a_button_is_apologised_for_privately(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.support.discord_harness import ALICE, BOB, open_table, refusal

    turn = await open_table(h, ALICE, [BOB])

    def broken(interaction: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(discord_client, "where_of", broken)
    mark = h.mark()
    try:
        await h.run(h.click(ALICE, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]
        assert [a.content for a in h.ephemeral_for(ALICE, since=mark)] == [refusal(ALICE, "error.internal")]
    finally:
        h.errors.records.clear()
