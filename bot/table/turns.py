"""`Turns`: every way a running game moves on — a player's move, AI seats, an absent
player's stand-in — each committed like a human's move and published as one `Change`."""

from __future__ import annotations

import logging
from collections.abc import Collection

from bot.ai.pool import AIPool
from bot.replies import Button, Reply, User
from bot.store import GameRecord, VersionConflict
from bot.table.change import Change, ChangeKind
from bot.table.ids import custom_id
from bot.table.publish import Publisher
from bot.table.shared import MAX_AI_STEPS, STAND_IN_MAX_ACTIONS, Loaded, Refusal
from bot.table.tables import Tables
from bot.table.talk import Talk
from engine import Action, Event, IllegalAction

log = logging.getLogger("passepartout.service")


def ai_level(record: GameRecord, seat: str) -> str:
    """An AI seat's level (chosen when it was added; `normal` by default)."""
    rec = record.seat_record(seat)
    levels: dict[str, str] = record.settings.get("ai_levels", {})
    return levels.get(str(rec.user_id), "normal") if rec is not None else "normal"


class Turns:
    def __init__(self, tables: Tables, talk: Talk, publisher: Publisher, ai: AIPool) -> None:
        self.tables = tables
        self.talk = talk
        self.publisher = publisher
        #: where AI seats decide: never on the event loop
        self.ai = ai

    # -- a player's move ------------------------------------------------------------------
    async def act(self, loaded: Loaded, user: User, seat: str, action: Action) -> list[Reply]:
        """Apply, commit, let AI seats move, and tell everyone. Caller holds the channel lock."""
        record, rules = loaded.record, loaded.rules
        waiting_before = frozenset(rules.to_act(loaded.state))
        t_user = self.talk.user_t(user, loaded.ui)
        # the confirmation describes the move made, so it is worded from the state before it
        view_before = rules.view(loaded.state, seat)
        label = loaded.ui.action_label(action, view_before, t_user)
        # the state before a move the game may let its player take back (for the Undo offer)
        before = rules.load(rules.dump(loaded.state)) if action.get("type") in rules.undoable_moves else None
        try:
            events = rules.apply(loaded.state, seat, action)
        except IllegalAction as exc:
            return self.talk.illegal(user, exc, loaded.ui)
        # what the move showed its maker (a drawn card), read before AI seats move on
        news = loaded.ui.news_text(action, events, view_before, rules.view(loaded.state, seat), t_user)
        try:
            await self.commit(loaded, seat, action, events, actor="human")
        except VersionConflict:
            return await self.lost_race(user, record.id, seat)
        own_version = record.version
        events = list(events) + await self.run_ai_safely(loaded)
        ack = self.talk.done(user, "✅ " + t_user("ack", action=label) + (f"\n{news}" if news else ""))
        return await self.publisher.publish(Change(
            loaded, "move", tuple(events), already_pinged=waiting_before, ack=ack, user=user, seat=seat,
            action=action, own_version=own_version, before=before))

    async def commit(self, loaded: Loaded, seat: str, action: Action, events: list[Event], *, actor: str,
                     stand_ins: Collection[str] = ()) -> None:
        """Store a move just applied to `loaded.state`, with the turn's new deadlines and
        whether AI seats (or stand-ins in `stand_ins`) still have to move."""
        record, rules = loaded.record, loaded.rules
        status = "finished" if rules.is_over(loaded.state) else "running"
        remind, timeout = (None, None) if status == "finished" else self.tables.deadlines(record)
        await self.tables.store.commit_action(
            record, expected_version=record.version, seat=seat, action=action, events=events,
            state=rules.dump(loaded.state), status=status, actor=actor, remind_at=remind, timeout_at=timeout,
            ai_pending=self.ai_must_move(loaded, stand_ins), announce_at=self.tables.announce_at())

    async def lost_race(self, user: User, game_pk: int, seat: str) -> list[Reply]:
        """The commit found the game changed (a double click, or a move handled by another bot
        process: the channel lock is per process, the version check is the database's). Nothing
        was written; the answer comes from the game as stored now: a fresh menu button if the
        seat is still to act, else "already made"."""
        fresh = await self.tables.store.get_game(game_pk)
        if fresh is None or fresh.status != "running" or fresh.state is None:
            return self.talk.refuse(user, "error.already_made")
        loaded = self.tables.load(fresh)
        if seat not in loaded.rules.to_act(loaded.state):
            return self.talk.refuse(user, "error.already_made")
        return self.talk.refused(user, Refusal("error.stale_move", rows=[[Button(
            self.talk.user_t(user)("button.play"), custom_id(fresh.id, fresh.version, "menu"), "success", "🎲")]]))

    async def publish(self, loaded: Loaded, kind: ChangeKind, events: list[Event], *,
                      note: str | None = None) -> list[Reply]:
        """Tell everyone about a change nobody pressed a button for (start, AI, stand-in …)."""
        return await self.publisher.publish(Change(loaded, kind, tuple(events), note=note))

    # -- AI seats and stand-ins --------------------------------------------------------------
    @staticmethod
    def ai_must_move(loaded: Loaded, stand_ins: Collection[str] = ()) -> bool:
        """Whether the next move belongs to an AI seat (or a stand-in still playing a turn)."""
        if loaded.rules.is_over(loaded.state):
            return False
        bots = {s.seat for s in loaded.record.seats if s.is_bot and s.seat}
        return any(s in bots or s in stand_ins for s in loaded.rules.to_act(loaded.state))

    async def run_ai(self, loaded: Loaded, *, stand_in: set[str] | None = None,
                     started: set[str] | None = None) -> list[Event]:
        """Let AI seats act until a human must decide.

        Seats in `stand_in` are absent humans whose deadline passed: the AI plays *one turn*
        for each — it acts for the seat while its turn lasts and stops once the turn is over:
        the seat is no longer to act, or its move closed a round or phase (the round changed,
        the game says it ended one, or seats that were not to act now are: in a simultaneous
        phase the same seat is at once to act in the next one), or after STAND_IN_MAX_ACTIONS
        moves. The next time it is that player's turn the game waits for them again.
        `started` lists stand-in seats that already moved in this turn (a turn resumed after a
        restart). Every commit records whether the AI still has to move, so a crash between
        moves is finished by the scheduler."""
        record, rules = loaded.record, loaded.rules
        bots = {s.seat for s in record.seats if s.is_bot and s.seat}
        pending = set(stand_in or ())
        moved: dict[str, int] = {seat: 1 for seat in (started or ())}
        events: list[Event] = []

        def turn_over(seat: str) -> bool:
            return seat in moved and (seat not in rules.to_act(loaded.state) or moved[seat] >= STAND_IN_MAX_ACTIONS)

        pending -= {seat for seat in pending if turn_over(seat)}
        for _ in range(MAX_AI_STEPS):
            if rules.is_over(loaded.state):
                break
            before = rules.to_act(loaded.state)
            ready = [s for s in before if s in bots or s in pending]
            if not ready:
                break
            seat = ready[0]
            round_before = rules.round_of(loaded.state) if seat in pending else 0
            # the policy sees what the seat may see, nothing more, and decides off the event loop; an
            # AI seat plays at its level, a stand-in for an absent player at normal
            action = await self.ai.choose(loaded.spec, rules.view(loaded.state, seat), seat,
                                          rules.legal_actions(loaded.state, seat),
                                          level=ai_level(record, seat) if seat in bots else "normal")
            new_events = rules.push(loaded.state, seat, action)  # the policy picked it from `legal`
            if seat in pending:
                moved[seat] = moved.get(seat, 0) + 1
                after = rules.to_act(loaded.state)
                if rules.round_of(loaded.state) != round_before or rules.ends_round(loaded.state, new_events) \
                        or any(s not in before for s in after):
                    pending.discard(seat)  # its move closed a round or phase: that was its turn
            pending -= {s for s in pending if turn_over(s)}  # before the commit records what is left
            await self.commit(loaded, seat, action, new_events, actor="ai" if seat in bots else "timeout",
                              stand_ins=pending)
            events.extend(new_events)
        return events

    async def run_ai_safely(self, loaded: Loaded) -> list[Event]:
        """The AI's moves after a human's: a failure is logged, not shown to the human whose
        move is already stored; the game keeps its `ai_pending` marker and the scheduler
        retries."""
        try:
            return await self.run_ai(loaded)
        except VersionConflict:
            # another process (or its scheduler) moved this game on: show the game as stored
            log.info("AI seats of game %s: the game moved on elsewhere", loaded.record.id)
            fresh = await self.tables.store.get_game(loaded.record.id)
            if fresh is not None and fresh.state is not None:
                loaded.record, loaded.state = fresh, loaded.rules.load(fresh.state)
            return []
        except Exception:
            log.exception("AI seats of game %s could not move; the scheduler will retry", loaded.record.id)
            return []

    @staticmethod
    def waiting_humans(loaded: Loaded) -> list[str]:
        if loaded.rules.is_over(loaded.state):
            return []
        return [s for s in loaded.rules.to_act(loaded.state)
                if (r := loaded.record.seat_record(s)) is not None and not r.is_bot]
