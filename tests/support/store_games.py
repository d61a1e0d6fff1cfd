"""Games in a store, as the store tests (both backends) set them up: a lobby, a started game,
a committed move."""

from __future__ import annotations

from typing import Any

from bot.store import GameRecord, SeatRecord, Store

HOST = SeatRecord(position=0, user_id=11, name="Alice")


async def new_game(s: Store, channel_id: int = 100, **kw: Any) -> GameRecord:
    args: dict[str, Any] = dict(channel_id=channel_id, guild_id=10, game_id="detour", host=HOST,
                                options={"map": "world"}, settings={"language": "en"}, seed=1234)
    args.update(kw)
    return await s.create_game(**args)


async def start(s: Store, game: GameRecord, state: dict[str, Any] | None = None) -> GameRecord:
    """Seat two players and move the game to running (version 1)."""
    game.seats = [SeatRecord(0, HOST.user_id, HOST.name, seat="p1"),
                  SeatRecord(1, 12, "Bob", seat="p2", dm=True, lang="de")]
    game.status = "running"
    game.state = state if state is not None else {"turn": "p1", "n": 0}
    await s.save_lobby(game, expected_version=game.version)
    return game


async def commit(s: Store, game: GameRecord, n: int, *, expected: int | None = None, status: str = "running",
                 remind_at: float | None = None, timeout_at: float | None = None, actor: str = "human") -> int:
    return await s.commit_action(
        game, expected_version=game.version if expected is None else expected, seat=f"p{n % 2 + 1}",
        action={"type": "move", "n": n, "to": "Suez"}, events=[{"type": "moved", "n": n, "text": "→ Suez ✈"}],
        state={"turn": f"p{(n + 1) % 2 + 1}", "n": n}, status=status, actor=actor, remind_at=remind_at,
        timeout_at=timeout_at,
    )
