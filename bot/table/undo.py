"""Undo: a player takes back their own last move(s) while nobody else has acted since and the
move revealed nothing (each game says which moves qualify: `Rules.undoable`).

An undo is logged like a move (action ``{"type": "undo"}`` by the undoing seat), so the log
stays append-only; the state before the move is rebuilt by replaying the log from the seed
without the moves taken back (`bot.replay`). The turn's reminder and timeout start afresh, as
after any move: the player is at the table."""

from __future__ import annotations

from typing import Any

from bot.replay import UNDO, effective_actions, is_undo, replay_state
from bot.replies import Button, Reply, User, Where
from bot.store import ActionRecord, VersionConflict
from bot.table.base import refusing
from bot.table.ids import custom_id
from bot.table.scheduler import SchedulerMixin
from bot.table.shared import Loaded, Refusal
from bot.text import md


class UndoMixin(SchedulerMixin):
    """`/game undo`, the Undo button on a move's private confirmation, and the undo event."""

    @refusing
    async def undo(self, user: User, where: Where, *, game_pk: int | None = None,
                   version: int | None = None) -> list[Reply]:
        """Take back the user's last move. From a button, `game_pk`/`version` name the state the
        button was made for: a press after the game moved on changes nothing."""
        async with self._lock(where.channel_id):
            record = await self.store.active_game(where.channel_id)
            if record is None or (game_pk is not None and record.id != game_pk):
                last = await self.store.get_game(game_pk) if game_pk is not None else \
                    await self.store.last_game(where.channel_id)
                if last is not None and last.status == "finished":
                    raise Refusal("undo.game_over")
                raise Refusal("error.no_game" if game_pk is None else "undo.stale")
            if record.status != "running":
                raise Refusal("error.not_started")
            seat_rec = record.seat_of_user(user.id)
            if seat_rec is None or seat_rec.seat is None:
                raise Refusal("error.not_seated")
            if version is not None and version != record.version:
                raise Refusal("undo.stale")
            loaded = self._load(record)
            seat = seat_rec.seat
            log = await self.store.actions(record.id)
            before, target = self._undo_target(loaded, seat, log)
            return await self._commit_undo(loaded, user, seat, before, target, log)

    def _undo_target(self, loaded: Loaded, seat: str, log: list[ActionRecord]) -> tuple[Any, ActionRecord]:
        """The state before the seat's last standing move, and that move; or the reason why it
        cannot be taken back (a Refusal)."""
        standing = effective_actions(log)
        mine = [e for e in standing if e.seat == seat]
        if not mine:
            raise Refusal("undo.nothing")
        target = mine[-1]
        if standing[-1] is not target or any(e.seat != seat for e in log if e.seq > target.seq):
            raise Refusal("undo.others_moved")
        if target.actor != "human":
            raise Refusal("undo.stand_in")
        before = replay_state(loaded.record, standing[:-1])
        if not loaded.rules.undoable(before, loaded.state, seat, target.action, target.events):
            raise Refusal("undo.final")
        return before, target

    async def _commit_undo(self, loaded: Loaded, user: User, seat: str, before: Any, target: ActionRecord,
                           log: list[ActionRecord]) -> list[Reply]:
        record, rules = loaded.record, loaded.rules
        waiting_before = set(rules.to_act(loaded.state))
        t_user = self.user_t(user, loaded.ui)
        label = loaded.ui.action_label(target.action, rules.view(before, seat), t_user)
        events: list[dict[str, Any]] = [{"type": "undone", "seat": seat}]
        loaded.state = before
        remind, timeout = self._deadlines(record)
        try:
            await self.store.commit_action(record, expected_version=record.version, seat=seat, action=dict(UNDO),
                                           events=events, state=rules.dump(before), status="running",
                                           actor="human", remind_at=remind, timeout_at=timeout,
                                           ai_pending=self._ai_must_move(loaded))
        except VersionConflict:
            raise Refusal("undo.stale") from None
        ack = self.private(user, "↩️ " + t_user("undo.done", action=label))
        if self._more_to_undo(seat, effective_actions(log)[:-1]):
            ack.rows = [[self._undo_button(loaded, t_user)]]
        t = self.game_t(record, loaded.ui)
        board = await self._board_reply(loaded, t, events, image=True, quiet=waiting_before | {seat})
        return [ack, board]

    @staticmethod
    def _more_to_undo(seat: str, standing: list[ActionRecord]) -> bool:
        """Whether an Undo button is worth offering again: the newest standing move is the seat's
        own (the press checks everything)."""
        return bool(standing) and standing[-1].seat == seat and standing[-1].actor == "human"

    def _undo_button(self, loaded: Loaded, t: Any) -> Button:
        return Button(t("button.undo"), custom_id(loaded.record.id, loaded.record.version, "undo"), "secondary", "↩️")

    async def _act(self, loaded: Loaded, user: User, seat: str, action: dict[str, Any]) -> list[Reply]:
        """A move, as `PlayMixin._act`, whose private confirmation carries an Undo button when
        the move may be taken back (checked only for the move types a game declares)."""
        rules = loaded.rules
        may_undo = isinstance(action, dict) and action.get("type") in rules.undoable_moves
        before = rules.load(rules.dump(loaded.state)) if may_undo else None
        version = loaded.record.version
        replies = await super()._act(loaded, user, seat, action)
        made = bool(replies) and replies[0].text.startswith("✅")
        if before is None or not made or loaded.record.version != version + 1:
            return replies  # refused, or an AI seat moved after it: nothing to offer
        last = await self.store.last_action(loaded.record.id)
        if last is not None and last.seat == seat and not is_undo(last) and \
                rules.undoable(before, loaded.state, seat, action, last.events):
            replies[0].rows = [[self._undo_button(loaded, self.user_t(user, loaded.ui))]]
        return replies

    def _event_line(self, loaded: Loaded, event: dict[str, Any], t: Any) -> str | None:
        if event.get("type") == "undone":
            seat = str(event.get("seat"))
            return t("event.undone", name=loaded.names.get(seat, md(seat)))
        return super()._event_line(loaded, event, t)
