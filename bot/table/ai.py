"""AI seats and stand-ins: they play through the game's `GameSpec.ai` policy, which is given
only the seat's view and legal actions, and every move is committed like a human's."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any

from bot.store import VersionConflict
from bot.table.memories import MemoriesMixin
from bot.table.shared import MAX_AI_STEPS, STAND_IN_MAX_ACTIONS, Loaded

log = logging.getLogger("passepartout.service")


class AISeatsMixin(MemoriesMixin):
    """Moves for the seats nobody is at: AI players, and absent players whose time ran out."""

    def _ai_must_move(self, loaded: Loaded, stand_ins: Collection[str] = ()) -> bool:
        """Whether the next move belongs to an AI seat (or a stand-in still playing a turn)."""
        if loaded.rules.is_over(loaded.state):
            return False
        bots = {s.seat for s in loaded.record.seats if s.is_bot and s.seat}
        return any(s in bots or s in stand_ins for s in loaded.rules.to_act(loaded.state))

    async def _run_ai(self, loaded: Loaded, *, stand_in: set[str] | None = None,
                      started: set[str] | None = None) -> list[dict[str, Any]]:
        """Let AI seats act until a human must decide.

        Seats in `stand_in` are absent humans whose deadline passed: the AI plays *one turn*
        for each — it acts for the seat while the seat stays to act, and stops once the seat
        is no longer to act after it moved (or after STAND_IN_MAX_ACTIONS moves), so the next
        time it is that player's turn the game waits for them again. `started` lists stand-in
        seats that already moved in this turn (a turn resumed after a restart). Every commit
        records whether the AI still has to move, so a crash between moves is finished by the
        scheduler."""
        record, rules = loaded.record, loaded.rules
        bots = {s.seat for s in record.seats if s.is_bot and s.seat}
        pending = set(stand_in or ())
        moved: dict[str, int] = {seat: 1 for seat in (started or ())}
        events: list[dict[str, Any]] = []
        def turn_over(seat: str) -> bool:
            return seat in moved and (seat not in rules.to_act(loaded.state) or moved[seat] >= STAND_IN_MAX_ACTIONS)

        pending -= {seat for seat in pending if turn_over(seat)}
        for _ in range(MAX_AI_STEPS):
            if rules.is_over(loaded.state):
                break
            ready = [s for s in rules.to_act(loaded.state) if s in bots or s in pending]
            if not ready:
                break
            seat = ready[0]
            # the policy sees what the seat may see, nothing more
            action = loaded.spec.ai(rules.view(loaded.state, seat), seat, rules.legal_actions(loaded.state, seat))
            new_events = rules.push(loaded.state, seat, action)  # the policy picked it from `legal`
            if seat in pending:
                moved[seat] = moved.get(seat, 0) + 1
            pending -= {s for s in pending if turn_over(s)}  # before the commit records what is left
            status = "finished" if rules.is_over(loaded.state) else "running"
            remind, timeout = (None, None) if status == "finished" else self._deadlines(record)
            await self.store.commit_action(record, expected_version=record.version, seat=seat, action=action,
                                           events=new_events, state=rules.dump(loaded.state), status=status,
                                           actor="ai" if seat in bots else "timeout",
                                           remind_at=remind, timeout_at=timeout,
                                           ai_pending=self._ai_must_move(loaded, pending))
            if status == "finished":
                self._memories_due(record)
            events.extend(new_events)
        return events

    async def _run_ai_safely(self, loaded: Loaded) -> list[dict[str, Any]]:
        """The AI's moves after a human's: a failure is logged, not shown to the human whose
        move is already stored; the game keeps its `ai_pending` marker and the scheduler
        retries."""
        try:
            return await self._run_ai(loaded)
        except VersionConflict:
            # another process (or its scheduler) moved this game on: show the game as stored
            log.info("AI seats of game %s: the game moved on elsewhere", loaded.record.id)
            fresh = await self.store.get_game(loaded.record.id)
            if fresh is not None and fresh.state is not None:
                loaded.record, loaded.state = fresh, loaded.rules.load(fresh.state)
            return []
        except Exception:
            log.exception("AI seats of game %s could not move; the scheduler will retry", loaded.record.id)
            return []
