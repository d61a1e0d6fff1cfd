"""Tables of the fake game `countdown` (tests/support/fakegame) through the table service, as
the service tests set them up: started, played to the end, and with `take` made undoable."""

from __future__ import annotations

from typing import Any

import pytest

from bot.replies import Button, Reply
from bot.service import TableService, parse_custom_id
from tests.conftest import ALICE, BOB, CAROL, HERE
from tests.support import fakegame


def make_take_undoable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Countdown declares no undo; undo tests let `take` be taken back (not `take 3`, standing
    in for a move that drew a card)."""
    monkeypatch.setattr(fakegame.RULES, "undoable_moves", frozenset({"take"}), raising=False)

    def undoable(before: Any, after: Any, seat: str, action: dict[str, Any], events: list[Any]) -> bool:
        return action["n"] != 3 and not fakegame.RULES.is_over(after)

    monkeypatch.setattr(fakegame.RULES, "undoable", undoable, raising=False)


def buttons(reply: Reply) -> list[Button]:
    return [c for row in reply.rows for c in row if isinstance(c, Button)]


async def started(service: TableService, *, start: int = 15, bots: int = 0) -> None:
    await service.new_game(ALICE, HERE, "countdown", options=f"start={start}")
    await service.join(BOB, HERE)
    if bots:
        await service.addbot(ALICE, HERE, bots)
    await service.start(ALICE, HERE)


async def take(service: TableService, user: Any, n: int) -> list[Reply]:
    return await service.command(user, HERE, "countdown", "take", {"n": n})


async def finished(service: TableService, *, bots: int = 0, carol: bool = False) -> tuple[int, str]:
    """A finished countdown (start=5, Alice then Bob, Bob wins): its id and Rematch button id."""
    await service.new_game(ALICE, HERE, "countdown", options="start=5")
    await service.join(BOB, HERE)
    if carol:
        await service.join(CAROL, HERE)
    if bots:
        await service.addbot(ALICE, HERE, bots)
    await service.start(ALICE, HERE)
    record = await service.store.active_game(HERE.channel_id)
    assert record is not None
    replies: list[Reply] = []
    while (fresh := await service.store.get_game(record.id)) is not None and fresh.status == "running":
        assert fresh.state is not None
        seat = fresh.seats[[s.seat for s in fresh.seats].index(
            fresh.state["seats"][fresh.state["turn"] % len(fresh.state["seats"])])]
        user = {ALICE.id: ALICE, BOB.id: BOB, CAROL.id: CAROL}[seat.user_id]
        replies = await service.command(user, HERE, "countdown", "take", {"n": min(3, fresh.state["counter"])})
    final = [r for r in replies if r.to == "channel"][-1]
    rematch = [b for b in buttons(final) if (p := parse_custom_id(b.custom_id)) and p[2] == "rematch"]
    assert len(rematch) == 1
    return record.id, rematch[0].custom_id
