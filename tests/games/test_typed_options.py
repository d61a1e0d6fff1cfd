"""Options typed as people type them (the local table, and free text in a Discord autocomplete
field): values and labels of `choices` in any case or language, pick labels instead of keys;
what is not understood is refused with a short list of what would be."""

from __future__ import annotations

from pathlib import Path

from bot.replies import User, Where
from tests.support.local_driver import run_lines

RAILS_SETUP = ["alice /game new game:rails-and-sails", "bob /game join", "alice /game start",
               "alice !press Your move", "alice !choose 1", "bob !press Your move", "bob !choose 2",
               "alice /rails mix trains:22", "bob /rails mix trains:20"]


def _texts(replies: list[dict[str, object]], user: str) -> list[str]:
    return [str(r["text"]) for r in replies if r["user"] == user]


async def test_rails_draw_source_accepts_short_and_translated_names(tmp_path: Path) -> None:
    replies = await run_lines(tmp_path, [*RAILS_SETUP, "alice /rails draw source:bogus",
                                         "alice /rails draw source:train", "alice /rails draw source:Ship deck",
                                         "bob !locale de", "bob /rails draw source:Wagenstapel"])
    alice, bob = _texts(replies, "alice"), _texts(replies, "bob")
    refusal = next(t for t in alice if "bogus" in t)
    assert refusal.startswith("⚠️") and "`train_deck`" in refusal and "`face_up`" in refusal
    channel = "\n".join(str(r["text"]) for r in replies if r["to"] == "channel")
    assert "alice draws a card from the train deck." in channel
    assert "alice draws a card from the ship deck." in channel
    assert bob[-1].startswith("✅"), bob[-1]


async def test_rails_claim_by_a_label_and_an_unknown_one_lists_moves(tmp_path: Path) -> None:
    replies = await run_lines(tmp_path, [*RAILS_SETUP, "alice /rails claim route:zzz-nowhere"])
    refusal = _texts(replies, "alice")[-1]
    assert refusal.startswith("⚠️") and "zzz-nowhere" in refusal and "Claim " in refusal
    assert len(refusal) < 1000  # a few choices, trimmed


async def test_a_claim_named_by_its_label_is_played(tmp_path: Path) -> None:
    import io

    from bot.adapters.local import FakeClock, LocalTable
    from bot.service import TableService
    from bot.settings import Settings
    from bot.store import SQLiteStore

    store = SQLiteStore(":memory:")
    await store.open()
    clock = FakeClock()
    table = LocalTable(TableService(store, Settings(), clock=clock, render_in_thread=False), clock,
                       emit=io.StringIO())
    for line in RAILS_SETUP:
        await table.run_line(line)
    labels = [label for label, _ in await table.service.autocomplete(table.user("alice"), table.where, "rails",
                                                                      "claim", "route", "")]
    assert labels
    replies = await table.run_line(f'alice /rails claim route:"{labels[0].upper()}"')  # any case, exact
    assert replies[0].text.startswith("✅"), replies[0].text
    await store.close()


async def test_detour_card_by_name_and_colour_in_any_case(tmp_path: Path) -> None:
    replies = await run_lines(tmp_path, ["alice /game new game:detour", "bob /game join", "alice /game start",
                                         "alice /detour choose card:block colour:Green",
                                         "alice /detour choose card:7 colour:blue"])
    alice = _texts(replies, "alice")
    assert alice[0].startswith("✅") and "8" in alice[0] and "green" in alice[0]
    assert alice[1].startswith("⚠️") and "`10`" in alice[1] and "`8`" in alice[1]


async def test_the_service_resolves_free_text_from_discord_too(tmp_path: Path) -> None:
    """Discord passes what was typed in an autocomplete field unchanged to the service."""
    from bot.service import TableService
    from bot.settings import Settings
    from bot.store import SQLiteStore

    store = SQLiteStore(":memory:")
    await store.open()
    svc = TableService(store, Settings(), render_in_thread=False)
    where = Where(channel_id=5, guild_id=1)
    alice, bob = User(1, "alice"), User(2, "bob")
    await svc.new_game(alice, where, "detour")
    await svc.join(bob, where)
    await svc.start(alice, where)
    replies = await svc.command(alice, where, "detour", "choose", {"card": 10, "colour": "BLUE"})
    assert replies[0].text.startswith("✅")
    replies = await svc.command(alice, where, "detour", "choose", {"card": 10, "colour": "Grün"})
    assert replies[0].text.startswith("✅"), replies[0].text
    await store.close()
