"""/game and its subcommands carry German and French names through the Translator."""

from __future__ import annotations

from bot import create_bot
from bot.adapters.discord import CatalogTranslator
from bot.settings import Settings


async def test_game_command_names_are_localised() -> None:
    bot = create_bot(Settings(database_url=":memory:"))
    await bot.tree.set_translator(CatalogTranslator())
    game = next(c for c in bot.tree.get_commands() if c.name == "game")
    payload = await game.get_translated_payload(bot.tree, bot.tree.translator)
    assert payload["name_localizations"] == {"de": "spiel", "fr": "partie"}
    options = {o["name"]: o for o in payload["options"]}
    assert options["new"]["name_localizations"] == {"de": "neu", "fr": "nouvelle"}
    assert options["rules"]["name_localizations"]["fr"] == "règles"
    # a name equal to the English one is not sent (Discord falls back to it)
    assert "de" not in options["hand"].get("name_localizations", {})
    await bot.close()
