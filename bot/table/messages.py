"""`Messages`: what the table shows — the lobby message, the board message with its buttons,
a hand, event lines, mentions and the result — built from the game as stored. Public
messages are made from the public view and public events only."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot import games
from bot.gameui import QuickMenu
from bot.i18n import Translator
from bot.images.pool import RenderJob, focus_wanted
from bot.replies import Announcement, Attachment, Button, Component, Destination, Reply, User
from bot.store import GameRecord, SeatRecord
from bot.table.change import Change, Published
from bot.table.hooks import Hooks
from bot.table.ids import action_hash, custom_id
from bot.table.images import Images
from bot.table.shared import Loaded, _clip, _last_lines, _trim, language_name
from bot.table.talk import Talk
from bot.text import md


def alt_text(text: str) -> str:
    """An image's description for screen readers: plain words (no Markdown), within Discord's
    1024 characters."""
    return _trim(" ".join(text.replace("**", "").replace("`", "").split()), 1024)


def option_text(key: str, value: Any, t: Translator) -> str:
    """A game option as people read it, from the game's catalog: "2-player end: French rule",
    "Assistants: no" (never `key=value`)."""
    name = t(f"option_label.{key}") if t.has(f"option_label.{key}") else key.replace("_", " ").capitalize()
    if isinstance(value, bool):
        shown = t("settings.yes" if value else "settings.no")
    else:
        shown = t(f"choice.{key}.{value}") if t.has(f"choice.{key}.{value}") else str(value)
    return t("lobby.option", name=name, value=shown)


class Messages:
    def __init__(self, talk: Talk, images: Images, hooks: Hooks) -> None:
        self.talk = talk
        self.images = images
        self.hooks = hooks

    # -- the lobby --------------------------------------------------------------------
    def lobby(self, record: GameRecord, note: str | None = None) -> Reply:
        spec = games.get(record.game_id)
        t = self.talk.game_t(record, spec.ui)
        rules = spec.rules
        host_mark = " " + t("lobby.host_mark")
        players = "\n".join(
            f"{i + 1}. {'🤖 ' if s.is_bot else ''}{md(s.name)}{host_mark if s.user_id == record.host_id else ''}"
            for i, s in enumerate(record.seats)
        )
        options = " · ".join(option_text(k, v, t) for k, v in record.options.items()) or t("lobby.no_options")
        text = t("lobby.text", title=t("title"), players=players, count=len(record.seats),
                 min=rules.min_players, max=rules.max_players, options=options,
                 language=language_name(record.settings["language"], t))
        notes = [note] if note else []
        notes += [line for extra in self.hooks.lobby_notes if (line := extra(record, t))]
        if notes:
            text = "\n".join(notes) + "\n" + text
        row: list[Component] = [
            Button(t("button.join"), custom_id(record.id, record.version, "join"), "primary", "✋"),
            Button(t("button.leave"), custom_id(record.id, record.version, "leave"), "secondary"),
            Button(t("button.addbot"), custom_id(record.id, record.version, "addbot"), "secondary", "🤖"),
            Button(t("button.start"), custom_id(record.id, record.version, "start"), "success", "▶️",
                   disabled=len(record.seats) < rules.min_players),
        ]
        rows = [row]
        for extra_button in self.hooks.lobby_buttons:
            button = extra_button(record, t)
            if button is None:
                continue
            if len(rows[-1]) < 5:
                rows[-1].append(button)
            else:
                rows.append([button])
        return Reply("channel", text, channel_id=record.channel_id, rows=rows,
                     announces=Announcement(record.id, record.version))

    # -- lines ------------------------------------------------------------------------
    def event_line(self, loaded: Loaded, event: dict[str, Any], t: Translator) -> str | None:
        public = {k: v for k, v in event.items() if k != "private"}
        kind = public.get("type")
        own = self.hooks.event_lines.get(kind) if isinstance(kind, str) else None
        if own is not None:
            return own(loaded, public, t)
        if kind in ("game_started", "resigned"):
            params = dict(public)
            if "seat" in params:
                params["seat"] = loaded.names.get(params["seat"], params["seat"])
                params["name"] = md(params["name"]) if "name" in params else params["seat"]
            return t(f"event.{kind}", **params)
        return loaded.ui.event_text(public, loaded.names, t)

    def mention(self, loaded: Loaded, seats: list[str], quiet: set[str] | frozenset[str] = frozenset()
                ) -> tuple[str, list[int]]:
        """Names of `seats`, pinging the humans except those in `quiet` (already pinged)."""
        ids: list[int] = []
        parts: list[str] = []
        for seat in seats:
            rec = loaded.record.seat_record(seat)
            if rec is None:
                continue
            if rec.is_bot:
                parts.append(f"🤖 {md(rec.name)}")
            elif seat in quiet:
                parts.append(f"**{md(rec.name)}**")
            else:
                parts.append(f"<@{rec.user_id}>")
                ids.append(rec.user_id)
        return ", ".join(parts), ids

    def result_text(self, loaded: Loaded, t: Translator) -> str:
        """The final standings: each score with its unit, shared places and broken ties said so
        (with what broke them), and how the game's end rule chose the winner when it is not
        simply the best score."""
        result = loaded.rules.result(loaded.state)
        assert result is not None  # only called once rules.is_over: a finished game has a result
        ui = loaded.ui
        lines = [t("result.header")]
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        above: dict[str, Any] | None = None
        for entry in result.get("ranking", []):
            rank = int(entry.get("rank", 0))
            name = loaded.names.get(entry["seat"], entry["seat"])
            score = ui.result_score(entry, t)
            line = t("result.line", medal=medals.get(rank, f"{rank}."), name=name,
                     score="" if score is None else f" — {score}")
            if above is not None and int(above.get("rank", 0)) == rank:
                line += t("result.shared")
            elif above is not None and above.get("score") is not None and above.get("score") == entry.get("score"):
                why = ui.tie_break(entry, above, t)
                if why:
                    line += t("result.tie", name=loaded.names.get(above["seat"], above["seat"]), why=why)
            lines.append(line)
            above = entry
        note = ui.result_note(result, loaded.names, t)
        if note:
            lines.append(note)
        winners = [loaded.names.get(s, s) for s in result.get("winners", [])]
        if winners:
            lines.append(t("result.winners", names=", ".join(winners)))
        return "\n".join(lines)

    @staticmethod
    def group_label(group: str, t: Translator) -> str:
        key = f"group.{group}"
        return t(key) if t.has(key) else group.replace("_", " ").capitalize()

    # -- the board and a hand ---------------------------------------------------------
    async def board(self, loaded: Loaded, t: Translator, events: list[dict[str, Any]] | tuple[dict[str, Any], ...],
                    *, to: Destination = "channel", user: User | None = None, note: str | None = None,
                    image: bool = True, quiet: set[str] | frozenset[str] = frozenset(), asked: bool = False) -> Reply:
        """The board message; `asked`: someone asked to see it (`/game status`), so the image
        comes from the shared cache and queues behind other such renders, not before moves."""
        rules, record = loaded.rules, loaded.record
        view = rules.view(loaded.state, None)
        files: list[Attachment] = []
        if image:
            public_events = [{k: v for k, v in e.items() if k != "private"} for e in events]
            job = RenderJob(record.game_id, "board", view, loaded.raw_names, t.lang, events=public_events,
                            table=record.id)
            key = ("board", record.id, record.version, t.lang) if asked and not events else None
            # the close-up of the last move a phone can read, when the move touched the map; not
            # on a finished game's board, whose standing (final scores) the board and result give.
            # Asked for with the board, so both queue together: asked for once the board is back,
            # it queued behind every board drawn meanwhile (under a burst, the whole burst)
            focus: bytes | None = None
            if not rules.is_over(loaded.state) and focus_wanted(loaded.spec, view, public_events):
                png, focus = await asyncio.gather(
                    self.images.image(loaded, job, t, key),
                    self.images.image(loaded, replace(job, image="focus"), t, key and ("focus", *key[1:])))
            else:
                png = await self.images.image(loaded, job, t, key)
            if png is not None:
                files.append(Attachment("board.png", png, alt_text(t("alt.board", title=t("title"), status=(
                    loaded.ui.status_text(view, loaded.raw_names, t) or "")))))
                if focus is not None:  # never a close-up without its board
                    files.append(Attachment("focus.png", focus, alt_text(t("alt.focus", title=t("title")))))
        lines = [line for event in events if (line := self.event_line(loaded, event, t))]
        lines = ([note] if note else []) + _last_lines(lines, 14)  # the note (why this message) always stays
        mentions: list[int] = []
        rows: list[list[Any]] = []
        if rules.is_over(loaded.state):
            lines.append(self.result_text(loaded, t))
        else:
            to_act = rules.to_act(loaded.state)
            who, mentions = self.mention(loaded, to_act, quiet)
            lines.append(t("turn.waiting", who=who))
            status_line = loaded.ui.status_text(view, loaded.names, t)
            if status_line:
                lines.append(status_line)
            rows = self.turn_rows(loaded, t, view)
        if to != "channel":
            mentions = []
        reply = Reply(to, _clip("\n".join(lines)), user_id=user.id if user else None,
                      channel_id=record.channel_id, files=files, rows=rows, mentions=mentions,
                      announces=Announcement(record.id, record.version) if to == "channel" else None)
        for decorate in self.hooks.board:
            reply = decorate(loaded, t, reply)
        return reply

    def turn_rows(self, loaded: Loaded, t: Translator, view: Any = None) -> list[list[Any]]:
        """Buttons on the turn message: quick moves, the full move menu, my hand. Everyone sees
        them (and `/game status` shows them to anyone), so they are built from the public view
        only, never from a seat's legal actions: a button must not reveal a card in a hand, not
        even by being there. A press is checked against the presser's legal moves."""
        record, rules = loaded.record, loaded.rules
        quick: list[Button] = []
        seen: set[str] = set()
        if view is None:  # the public view, unless the caller has it already
            view = rules.view(loaded.state, None)
        for seat in rules.to_act(loaded.state):
            rec = record.seat_record(seat)
            if rec is None or rec.is_bot:
                continue
            for item in loaded.ui.quick_actions(view, seat):
                if isinstance(item, QuickMenu):
                    cid = custom_id(record.id, record.version, "menu", f"g={item.group[:40]};p=0")
                    label = self.group_label(item.group, t) + "…"
                else:
                    cid = custom_id(record.id, record.version, "act", action_hash(item))
                    label = loaded.ui.action_label(item, view, t)
                if cid in seen or len(quick) >= 4:
                    continue
                seen.add(cid)
                quick.append(Button(_trim(label, 80), cid, "primary"))
        fixed = [
            Button(t("button.play"), custom_id(record.id, record.version, "menu"), "success", "🎲"),
            Button(t("button.hand"), custom_id(record.id, record.version, "hand"), "secondary", "🃏"),
        ]
        rows: list[list[Any]] = []
        if quick:
            rows.append(quick)
        rows.append(fixed)
        return rows

    async def hand(self, loaded: Loaded, seat: SeatRecord, to: Destination, t: Translator, *,
                   asked: bool = False) -> Reply:
        assert seat.seat is not None
        view = loaded.rules.view(loaded.state, seat.seat)
        job = RenderJob(loaded.record.game_id, "hand", view, loaded.raw_names, t.lang, seat=seat.seat,
                        table=loaded.record.id)
        key = ("hand", loaded.record.id, loaded.record.version, seat.seat, t.lang) if asked else None
        image = await self.images.image(loaded, job, t, key)
        text = t("hand.header", title=t("title"), channel=f"<#{loaded.record.channel_id}>")
        extra = loaded.ui.hand_text(view, seat.seat, loaded.names, t)
        if extra:
            text += "\n" + extra
        rows: list[list[Component]] = []
        if seat.seat in loaded.rules.to_act(loaded.state):
            rows = [[Button(t("button.play"), custom_id(loaded.record.id, loaded.record.version, "menu"),
                            "primary", "🎲")]]
        files = [Attachment("hand.png", image, alt_text(t("alt.hand", title=t("title"))))] if image is not None else []
        return Reply(to, text, user_id=seat.user_id, files=files, rows=rows)

    # -- the after-change step that makes the turn message ---------------------------------
    async def turn_message(self, change: Change, out: Published) -> Published:
        """The public turn message, plus DMs to opted-in players who must act now. Players
        who were already waiting before this change are named but not pinged again."""
        loaded = change.loaded
        record = loaded.record
        t = self.talk.game_t(record, loaded.ui)
        over = loaded.rules.is_over(loaded.state)
        image = change.board_image or over or loaded.ui.board_changed(list(change.events))
        quiet = change.already_pinged
        board = await self.board(loaded, t, change.events, note=change.note, image=image, quiet=quiet)
        dms: list[Reply] = []
        if not over:
            for seat in loaded.rules.to_act(loaded.state):
                if seat in quiet:
                    continue
                rec = record.seat_record(seat)
                if rec is not None and not rec.is_bot and rec.dm:
                    dms.append(await self.hand(loaded, rec, "dm", self.talk.t(rec.lang, loaded.ui)))
        return replace(out, board=board, dms=out.dms + tuple(dms))
