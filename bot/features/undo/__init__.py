"""Undo: a player takes back their own last move(s) while nobody else has acted since and the
move revealed nothing (each game says which moves qualify: `Rules.undoable`).

An undo is logged like a move (action ``{"type": "undo"}`` by the undoing seat), so the log
stays append-only; the state before the move is rebuilt by replaying the log from the seed
without the moves taken back (`bot.replay`). The turn's reminder and timeout start afresh, as
after any move: the player is at the table. An undo is published like every change, so the
channel, DMs and followers all see it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.i18n import Translator
from bot.replay import UNDO, effective_actions, is_undo, replay_state
from bot.replies import Announcement, Button, Reply, User, Where
from bot.store import ActionRecord, VersionConflict
from bot.table.change import Change, Published
from bot.table.hooks import Hooks
from bot.table.ids import Press, custom_id
from bot.table.play import game_channel
from bot.table.publish import Publisher
from bot.table.shared import Loaded, Refusal
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.table.turns import Turns
from bot.text import md


class Undo:
    def __init__(self, tables: Tables, talk: Talk, turns: Turns, publisher: Publisher) -> None:
        self.tables = tables
        self.talk = talk
        self.turns = turns
        self.publisher = publisher

    def install(self, hooks: Hooks) -> None:
        hooks.component("undo", self.press)
        hooks.event_line("undone", self.event_line)

    async def press(self, user: User, where: Where, press: Press) -> list[Reply]:
        """The Undo button on a move's confirmation: it names the game and its version then."""
        record = await self.tables.store.get_game(press.game_pk)
        if record is not None:
            where = game_channel(record, where)
        return await self.undo(user, where, game_pk=press.game_pk, version=press.version)

    async def undo(self, user: User, where: Where, *, game_pk: int | None = None,
                   version: int | None = None) -> list[Reply]:
        """Take back the user's last move. From a button, `game_pk`/`version` name the state the
        button was made for: a press after the game moved on changes nothing."""
        store = self.tables.store
        async with self.tables.lock(where.channel_id):
            record = await store.active_game(where.channel_id)
            if record is None or (game_pk is not None and record.id != game_pk):
                last = await store.get_game(game_pk) if game_pk is not None else \
                    await store.last_game(where.channel_id)
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
            loaded = self.tables.load(record)
            seat = seat_rec.seat
            log = await store.actions(record.id)
            before, target = self._target(loaded, seat, log)
            return await self._commit(loaded, user, seat, before, target, log)

    @staticmethod
    def _target(loaded: Loaded, seat: str, log: list[ActionRecord]) -> tuple[Any, ActionRecord]:
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

    async def _commit(self, loaded: Loaded, user: User, seat: str, before: Any, target: ActionRecord,
                      log: list[ActionRecord]) -> list[Reply]:
        rules = loaded.rules
        waiting_before = frozenset(rules.to_act(loaded.state))
        t_user = self.talk.user_t(user, loaded.ui)
        label = loaded.ui.action_label(target.action, rules.view(before, seat), t_user)
        events: list[dict[str, Any]] = [{"type": "undone", "seat": seat}]
        loaded.state = before
        try:
            await self.turns.commit(loaded, seat, dict(UNDO), events, actor="human")
        except VersionConflict:
            raise Refusal("undo.stale") from None
        ack = self.talk.done(user, "↩️ " + t_user("undo.done", action=label))
        if _more_to_undo(loaded, seat, effective_actions(log)[:-1], log, before):
            ack = replace(ack, rows=[[self.button(loaded, t_user)]], buttons_until=self.until(loaded))
        return await self.publisher.publish(Change(
            loaded, "undo", tuple(events), already_pinged=waiting_before | {seat}, ack=ack, user=user, seat=seat,
            board_image=True))

    @staticmethod
    def button(loaded: Loaded, t: Translator) -> Button:
        return Button(t("button.undo"), custom_id(loaded.record.id, loaded.record.version, "undo"), "secondary", "↩️")

    @staticmethod
    def until(loaded: Loaded) -> Announcement:
        """An Undo works only at the version it was offered at: past it, the adapter removes it."""
        return Announcement(loaded.record.id, loaded.record.version)

    # -- the Undo offer on a move's confirmation -----------------------------------------------
    async def offer(self, change: Change, out: Published) -> Published:
        """A move the game lets its player take back gets an Undo button on its confirmation
        (not when AI seats moved after it: that is no longer the last move)."""
        loaded, ack = change.loaded, out.ack
        if change.kind != "move" or change.before is None or ack is None or ack.outcome != "ok" \
                or change.user is None or change.seat is None or change.action is None \
                or loaded.record.version != change.own_version:
            return out
        last = await self.tables.store.last_action(loaded.record.id)
        if last is None or last.seat != change.seat or is_undo(last) or \
                not loaded.rules.undoable(change.before, loaded.state, change.seat, change.action, last.events):
            return out
        button = self.button(loaded, self.talk.user_t(change.user, loaded.ui))
        return out.with_(ack=replace(ack, rows=[[button]], buttons_until=self.until(loaded)))

    @staticmethod
    def event_line(loaded: Loaded, event: dict[str, Any], t: Translator) -> str | None:
        seat = str(event.get("seat"))
        return t("event.undone", name=loaded.names.get(seat, md(seat)))


def _more_to_undo(loaded: Loaded, seat: str, standing: list[ActionRecord], log: list[ActionRecord],
                  state: Any) -> bool:
    """Whether another Undo would work (a button that only answers "that move cannot be taken
    back" is never shown): the newest standing move is the seat's own, by its player, nobody
    else acted since, and the game lets that move be taken back."""
    if not standing or standing[-1].seat != seat or standing[-1].actor != "human":
        return False
    target = standing[-1]
    if any(e.seat != seat for e in log if e.seq > target.seq):
        return False
    earlier = replay_state(loaded.record, standing[:-1])
    return loaded.rules.undoable(earlier, state, seat, target.action, target.events)
