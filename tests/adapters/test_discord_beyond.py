"""Beyond the table in all four games through the Discord layer (real interaction payloads,
tests/discord_harness.py), each game in one language (en, de, fr all appear): a follower's
DM copies, the Undo button on a move's private confirmation, the Rematch button on the final
message, `/game replay` and `/game stats` after a whole game played through the menus."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import ui_for
from bot.i18n import Translator
from bot.service import action_hash
from engine import registry
from tests.adapters.test_discord_fullgame import fixed_seed, latest_public
from tests.adapters.test_discord_games import via_menu
from tests.adapters.test_discord_social import same_message, stats_of
from tests.service.test_beyond_games import rating_line
from tests.support.discord_harness import ALICE, BOB, CAROL, CHANNEL_ID, EVE, FakeUser, Harness, active, text

# (game, the table's language, its host, the other person); the host speaks the table's language
GAMES = [
    pytest.param("detour", "en", ALICE, BOB, id="detour-en"),
    pytest.param("around-the-world", "de", BOB, ALICE, id="atw-de", marks=pytest.mark.wholegame),
    pytest.param("rails-and-sails", "fr", CAROL, ALICE, id="rails-fr", marks=pytest.mark.wholegame),
    pytest.param("eighty-days", "de", BOB, CAROL, id="days-de", marks=pytest.mark.wholegame),
]


def undoable(rules: Any, state: Any, seat: str, bots: set[str]) -> dict[str, Any] | None:
    """A legal move the seat may take back, after which no AI seat moves (see test_beyond_games)."""
    for action in rules.legal_actions(state, seat):
        if action.get("type") not in rules.undoable_moves:
            continue
        after = rules.load(rules.dump(state))
        events = rules.apply(after, seat, action)
        if rules.undoable(state, after, seat, action, events) and not bots & set(rules.to_act(after)):
            return action
    return None


async def take_back(h: Harness, user: FakeUser, record: Any) -> None:
    """Press Undo on the newest private confirmation: the state is as before the move."""
    ack = next(m for m in reversed(h.ephemeral_for(user)) if m.content.startswith("✅"))
    label = text(user, "button.undo")
    assert [b.label for b in ack.buttons] == [label], ack
    mark = h.mark()
    await h.run(h.click(user, ack, ack.button(label).custom_id))  # type: ignore[arg-type]
    assert h.ephemeral_for(user, since=mark)[-1].content.startswith("↩️ ")
    after = await active(h)
    assert after.state == record.state and after.version == record.version + 2
    assert any(m.files for m in h.channel_messages(since=mark))  # the board as it was, again


@pytest.mark.parametrize(("game", "lang", "host", "other"), GAMES)
async def test_beyond_the_table_through_discord(h: Harness, monkeypatch: pytest.MonkeyPatch, game: str, lang: str,
                                                host: FakeUser, other: FakeUser) -> None:
    h.bot.service.memories = True
    # the real boards and the memories are drawn: on a busy machine a Rails & Sails start (its
    # AI seats' moves and the big board) can take longer than the harness's usual 20 s
    patient = Harness.run
    monkeypatch.setattr(h, "run", lambda *payloads, timeout=180.0: patient(h, *payloads, timeout=timeout))
    fixed_seed(monkeypatch, 5)
    rng = random.Random(5)
    rules = registry.get(game)
    ui = ui_for(game)
    public = Translator(lang)  # the channel's messages and their buttons speak the table's language
    await h.run(h.slash(host, "game new", game=game, language=lang))
    await h.run(h.slash(EVE, "game follow"))
    lobby = h.channel_messages()[-1]
    await h.run(h.click(other, lobby, lobby.button(public("button.join")).custom_id))  # type: ignore[arg-type]
    await h.run(h.slash(host, "game addbot"))
    lobby = h.channel_messages()[-1]
    mark = h.mark()
    await h.run(h.click(host, lobby, lobby.button(public("button.start")).custom_id))  # type: ignore[arg-type]
    first = h.channel_messages(since=mark)[-1]
    [hello, copy, *_] = h.dms_for(EVE)
    title = ui_for(game).translator(EVE.locale)("title")
    assert hello.content == text(EVE, "follow.hello", title=title, channel=f"<#{CHANNEL_ID}>")
    same_message(copy, first)

    users = {host.id: host, other.id: other}
    undone = False
    for _ in range(1500):
        record = await active(h)
        if record is None or record.status != "running":
            break
        state = rules.load(record.state)
        seats = {s.seat: s for s in record.seats}
        seat = next(s for s in rules.to_act(state) if not seats[s].is_bot)
        user = users[seats[seat].user_id]
        wanted = None if undone else undoable(rules, state, seat, {s for s, r in seats.items() if r.is_bot})
        legal = rules.legal_actions(state, seat)
        made = await via_menu(h, user, latest_public(h), wanted or rules.ai_action(state, seat), ui, rng,
                              {action_hash(a): a for a in legal})
        if wanted is not None and made == wanted:
            await take_back(h, user, record)
            undone = True
    assert undone, "no move was ever taken back"
    finished = await h.bot.store.last_game(first.channel_id)
    assert finished.status == "finished"
    final = next(m for m in reversed(h.channel_messages()) if m.buttons)
    rematch = public("button.rematch")
    assert [b.label for b in final.buttons] == [rematch]
    assert [f.filename for m in h.channel_messages()[-2:] for f in m.files] == ["summary.png", "timelapse.gif"]
    same_message(next(m for m in h.dms_for(EVE) if m.content == final.content), final)

    mark = h.mark()
    await h.run(h.slash(other, "game replay"))
    assert [f.filename for m in h.ephemeral_for(other, mark) for f in m.files] == ["summary.png", "timelapse.gif"]
    mark = h.mark()
    await h.run(stats_of(h, EVE, host))
    [stats] = h.ephemeral_for(EVE, mark)
    [embed] = stats.payload["embeds"]
    assert embed["title"] == text(EVE, "stats.title", name=host.name)
    line = rating_line(finished, host.name, Translator(EVE.locale), ui.translator(EVE.locale)("title"))
    assert line in embed["description"], (line, embed)

    mark = h.mark()
    await h.run(h.click(host, final, final.button(rematch).custom_id))  # type: ignore[arg-type]
    assert (await active(h)).status == "lobby"
    await h.run(h.click(other, final, final.button(rematch).custom_id))  # type: ignore[arg-type]
    again = await active(h)
    assert again.status == "running" and again.id != finished.id and again.game_id == game
    assert sorted(s.is_bot for s in again.seats) == [False, False, True]
    assert h.limit_violations == []

