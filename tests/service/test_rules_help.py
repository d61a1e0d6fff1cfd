"""`/game rules` sends the whole rules text, in every game and language, within Discord's limits
(it used to be cut at 2,000 characters mid-sentence)."""

from __future__ import annotations

import pytest

from bot.games import available, ui_for
from bot.i18n import LANGUAGES
from bot.replies import User, Where
from bot.service import TableService, rules_embeds
from bot.store import SQLiteStore
from tests.support.discord_harness import ALICE, Harness

HERE = Where(channel_id=100, guild_id=10)
GAMES = sorted(g for g in available() if g != "countdown")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_the_rules_arrive_whole(store: SQLiteStore, game: str, lang: str) -> None:
    service = TableService(store, render_in_thread=False)
    replies = await service.rules_help(User(1, "Ann", lang), HERE, game)
    t = ui_for(game).translator(lang)
    assert all(r.to == "ephemeral" for r in replies)
    embeds = [e for r in replies for e in r.embeds]
    assert embeds[0].title == t("title")
    assert "\n\n".join(e.description for e in embeds) == t("rules")
    for reply in replies:
        assert len(reply.embeds) <= 10
        assert sum(len(e.description) + len(e.title or "") for e in reply.embeds) <= 6000
        assert all(len(e.description) <= 4096 for e in reply.embeds)


def test_long_texts_are_split_between_paragraphs_and_kept_whole() -> None:
    paragraphs = [f"Paragraph {i}: " + "word " * 300 for i in range(30)]  # ~45,000 characters
    messages = rules_embeds("Title", "\n\n".join(paragraphs))
    assert len(messages) > 1
    descriptions = [e.description for m in messages for e in m]
    assert "\n\n".join(descriptions) == "\n\n".join(paragraphs)
    for message in messages:
        assert sum(len(e.description) + len(e.title or "") for e in message) <= 6000
    one_huge = rules_embeds("T", "x " * 5000)
    assert "".join(e.description + " " for m in one_huge for e in m).strip() == ("x " * 5000).strip()


async def test_rules_through_discord_are_embeds_within_limits(h: Harness) -> None:
    from tests.support.discord_harness import discord_limit_problems

    for game in GAMES:
        mark = h.mark()
        await h.run(h.slash(ALICE, "game rules", game=game))
        [answer] = h.ephemeral_for(ALICE, since=mark)
        embeds = answer.payload.get("embeds") or []
        assert embeds and embeds[0]["title"]
        assert discord_limit_problems(answer.payload, answer.files) == []
        text = "\n\n".join(e["description"] for e in embeds)
        assert text == ui_for(game).translator("en")("rules")
