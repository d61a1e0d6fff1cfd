"""Buttons sent before a restart still work after it: custom ids carry game and version,
and a fresh bot on the same database dispatches them through its DynamicItem."""

from __future__ import annotations

from pathlib import Path

from tests.support.discord_harness import ALICE, BOB, Harness, open_table


async def test_turn_buttons_work_after_a_restart(fake_game: None, tmp_path: Path) -> None:
    first = await Harness.create(tmp_path)
    try:
        turn = await open_table(first, ALICE, [BOB])
    finally:
        await first.close()

    second = await Harness.create(tmp_path)  # same database file, new process state
    try:
        record = await second.bot.store.active_game(turn.channel_id)  # type: ignore[attr-defined]
        version = record.version
        await second.run(second.click(ALICE, turn, turn.button("Take 2").custom_id))  # type: ignore[arg-type]
        record = await second.bot.store.active_game(turn.channel_id)  # type: ignore[attr-defined]
        assert record.version == version + 1 and record.state["counter"] == 13
        [public] = second.channel_messages()
        assert "took 2" in public.content and public.files
        # the same old button is now stale, and says so privately
        await second.run(second.click(ALICE, turn, turn.button("Take 1").custom_id))  # type: ignore[arg-type]
        assert second.ephemeral_for(ALICE)[-1].content.startswith("⚠️")
        assert len(second.channel_messages()) == 1
        assert second.error_messages() == [] and second.protocol_problems() == []
    finally:
        await second.close()
