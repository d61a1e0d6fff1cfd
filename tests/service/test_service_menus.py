"""Private move menus stay valid while their owner's own choices are unchanged: in a
simultaneous phase (rails-and-sails set-up, detour card choice) another player's choice
must not make the menu stale; the owner's own move does."""

from __future__ import annotations

import pytest

from bot.replies import Button, Reply, Select, User, Where
from bot.service import TableService
from bot.store import SQLiteStore

HERE = Where(channel_id=100, guild_id=10, guild_locale="en")
ANN, BEN, CAT = User(1, "Ann", "en"), User(2, "Ben", "en"), User(3, "Cat", "en")


def first_move(menu: Reply) -> tuple[str, list[str] | None]:
    for row in menu.rows:
        for comp in row:
            if isinstance(comp, Select):
                return comp.custom_id, [comp.options[0].value]
            if isinstance(comp, Button) and ":pact:" in comp.custom_id:
                return comp.custom_id, None
    raise AssertionError(f"no move in {menu}")


@pytest.mark.parametrize(("game", "players"), [("rails-and-sails", [ANN, BEN]), ("detour", [ANN, BEN, CAT])])
async def test_another_players_choice_keeps_my_menu_valid(store: SQLiteStore, game: str,
                                                          players: list[User]) -> None:
    service = TableService(store, render_in_thread=False)
    await service.new_game(players[0], HERE, game, seed=3)
    for user in players[1:]:
        await service.join(user, HERE)
    await service.start(players[0], HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None
    loaded = service.load(record)
    assert len(loaded.rules.to_act(loaded.state)) == len(players), "a simultaneous phase"

    [ann_menu] = await service.menu(ANN, HERE)
    [ben_menu] = await service.menu(BEN, HERE)
    ben_id, ben_values = first_move(ben_menu)
    ben_done = await service.component(BEN, HERE, ben_id, ben_values)
    assert ben_done[0].outcome == "ok", ben_done[0].text

    ann_id, ann_values = first_move(ann_menu)  # built before Ben moved
    version = (await store.active_game(HERE.channel_id)).version  # type: ignore[union-attr]
    ann_done = await service.component(ANN, HERE, ann_id, ann_values)
    assert ann_done[0].outcome == "ok", ann_done[0].text
    assert (await store.active_game(HERE.channel_id)).version > version  # type: ignore[union-attr]

    # Ann's own move makes her old menu stale: pressing it again changes nothing
    version = (await store.active_game(HERE.channel_id)).version  # type: ignore[union-attr]
    again = await service.component(ANN, HERE, ann_id, ann_values)
    assert again[0].to == "ephemeral" and again[0].outcome == "refused"
    assert (await store.active_game(HERE.channel_id)).version == version  # type: ignore[union-attr]
