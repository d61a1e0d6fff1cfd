"""Simultaneous choices: one ping per step, no re-pings, no board image for a secret choice."""

from __future__ import annotations

from bot.service import TableService
from tests.conftest import ALICE, BOB, CAROL, HERE


async def test_secret_choices_do_not_re_ping_or_redraw(service: TableService) -> None:
    await service.new_game(ALICE, HERE, "detour")
    await service.join(BOB, HERE)
    await service.join(CAROL, HERE)
    start = [r for r in await service.start(ALICE, HERE) if r.to == "channel"][0]
    assert sorted(start.mentions) == [ALICE.id, BOB.id, CAROL.id] and start.files
    after = [r for r in await service.command(ALICE, HERE, "detour", "choose", {"card": 8}) if r.to == "channel"][0]
    assert after.mentions == [] and not after.files  # bob and carol were pinged already; nothing moved
    assert "**Bob**" in after.text and "**Carol**" in after.text and "8" not in after.text.split("\n")[0]
    await service.command(BOB, HERE, "detour", "choose", {"card": 10})
    reveal = [r for r in await service.command(CAROL, HERE, "detour", "choose", {"card": 5}) if r.to == "channel"]
    assert reveal[0].files  # the reveal moves pawns: a new board
