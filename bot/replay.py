"""Rebuild a game from its seed and action log, to verify the stored state.

The engine is deterministic, so replaying the log must give the stored state byte
for byte; a mismatch means corruption or an engine change that broke old games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import games
from bot.store import ActionRecord, GameRecord


@dataclass
class ReplayReport:
    game_pk: int
    game_id: str
    actions: int
    ok: bool
    problem: str | None = None


def replay(record: GameRecord, actions: list[ActionRecord]) -> dict[str, Any]:
    """The state dump obtained by replaying `actions` from the game's seed."""
    rules = games.get(record.game_id).rules
    seats = [s.seat for s in sorted(record.seats, key=lambda s: s.position) if s.seat]
    state = rules.new_game(seats, record.seed, record.options)
    for entry in actions:
        rules.apply(state, entry.seat, entry.action)
    return rules.dump(state)


def verify(record: GameRecord, actions: list[ActionRecord]) -> ReplayReport:
    if record.state is None:
        return ReplayReport(record.id, record.game_id, 0, True, "not started")
    seqs = [a.seq for a in actions]
    if seqs != list(range(1, len(seqs) + 1)):
        return ReplayReport(record.id, record.game_id, len(actions), False, "the action log has gaps")
    try:
        rebuilt = replay(record, actions)
    except Exception as exc:  # an action the engine now refuses
        return ReplayReport(record.id, record.game_id, len(actions), False, f"replay failed: {exc}")
    if rebuilt != record.state:
        return ReplayReport(record.id, record.game_id, len(actions), False, "replayed state differs from stored")
    return ReplayReport(record.id, record.game_id, len(actions), True)
