"""The private confirmation of a move names the move made, as the menu labelled it, in every
game (it used to be worded from the state after the move: "Move 0 days")."""

from __future__ import annotations

import random

import pytest

from bot.replies import Button, Reply, Select, User, Where
from bot.service import TableService, parse_custom_id
from bot.store import SQLiteStore

HERE = Where(channel_id=100, guild_id=10, guild_locale="en")
PEOPLE = [User(1, "Alice", "en"), User(2, "Bob", "de"), User(3, "Carol", "fr")]


async def pick_from_menu(service: TableService, user: User, rng: random.Random) -> tuple[str, list[Reply]]:
    """Open the private move menu, follow group buttons, press or choose one move; return the
    label it had in the menu and the replies to pressing it."""
    replies = await service.menu(user, HERE)
    for _ in range(4):
        choices: list[tuple[str, str, list[str] | None]] = []
        for row in replies[0].rows:
            for comp in row:
                if isinstance(comp, Select):
                    choices += [(o.label, comp.custom_id, [o.value]) for o in comp.options]
                elif isinstance(comp, Button) and not comp.disabled:
                    choices.append((comp.label, comp.custom_id, None))
        moves = [c for c in choices if (parse_custom_id(c[1]) or (0, 0, "", ""))[2] != "menu"]
        groups = [c for c in choices if c not in moves and c[0] not in ("Back", "◀", "▶")]
        label, custom_id, values = rng.choice(moves or groups)
        parsed = parse_custom_id(custom_id)
        assert parsed is not None
        replies = await service.component(user, HERE, custom_id, values)
        if parsed[2] != "menu":
            return label, replies
    raise AssertionError("menus nested too deep")


@pytest.mark.parametrize("game", ["detour", "around-the-world", "rails-and-sails"])
async def test_every_confirmation_names_the_move_made(store: SQLiteStore, game: str) -> None:
    service = TableService(store, render_in_thread=False)
    rng = random.Random(game)
    await service.new_game(PEOPLE[0], HERE, game, seed=5)
    for user in PEOPLE[1:3]:
        await service.join(user, HERE)
    await service.start(PEOPLE[0], HERE)
    checked = 0
    for _ in range(60):
        record = await store.active_game(HERE.channel_id)
        if record is None:
            break
        loaded = service.load(record)
        seat = loaded.rules.to_act(loaded.state)[0]
        user = next(p for p in PEOPLE if record.seat_of_user(p.id) and record.seat_of_user(p.id).seat == seat)
        label, replies = await pick_from_menu(service, user, rng)
        ack = [r for r in replies if r.to == "ephemeral" and r.user_id == user.id]
        assert ack and ack[0].outcome == "ok", ack
        assert label.rstrip("…") in ack[0].text, (label, ack[0].text)
        checked += 1
    assert checked >= 30
