"""What the table says: the lobby and turn messages, board and hand replies with their
images and buttons, event lines, mentions, results, and the status/hand/log/rules answers."""

from __future__ import annotations

from typing import Any

from bot import games
from bot.gameui import QuickMenu
from bot.i18n import Translator
from bot.render_pool import RenderJob
from bot.replies import (
    EMBED_DESCRIPTION_LIMIT,
    EMBEDS_PER_MESSAGE,
    EMBEDS_TOTAL_LIMIT,
    Attachment,
    Button,
    Component,
    Destination,
    Embed,
    Reply,
    User,
    Where,
)
from bot.store import GameRecord, SeatRecord
from bot.table.base import TableBase, refusing
from bot.table.ids import action_hash, custom_id
from bot.table.shared import Loaded, Refusal, _clip, _last_lines, _trim
from bot.text import echo, md


class MessagesMixin(TableBase):
    """Builds every reply that shows the game; reads the store, never changes a game."""

    # -- information ------------------------------------------------------------
    async def games_list(self, user: User) -> list[Reply]:
        t = self.user_t(user)
        lines = [t("games.header")]
        for game_id, spec in games.specs().items():
            rules = spec.rules
            title = spec.ui.translator(t.lang)("title")
            lines.append(t("games.line", id=game_id, title=title, min=rules.min_players, max=rules.max_players))
        return [self.private(user, "\n".join(lines))]

    def _lobby_message(self, record: GameRecord, note: str | None = None) -> Reply:
        spec = games.get(record.game_id)
        t = self.game_t(record, spec.ui)
        rules = spec.rules
        host_mark = " " + t("lobby.host_mark")
        players = "\n".join(
            f"{i + 1}. {'🤖 ' if s.is_bot else ''}{md(s.name)}{host_mark if s.user_id == record.host_id else ''}"
            for i, s in enumerate(record.seats)
        )
        # written as players type them (`assistants=false`, not Python's `False`)
        options = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                            for k, v in record.options.items()) or t("lobby.no_options")
        text = t("lobby.text", title=t("title"), players=players, count=len(record.seats),
                 min=rules.min_players, max=rules.max_players, options=options, language=record.settings["language"])
        if note:
            text = note + "\n" + text
        rows: list[list[Component]] = [[
            Button(t("button.join"), custom_id(record.id, record.version, "join"), "primary", "✋"),
            Button(t("button.leave"), custom_id(record.id, record.version, "leave"), "secondary"),
            Button(t("button.addbot"), custom_id(record.id, record.version, "addbot"), "secondary", "🤖"),
            Button(t("button.start"), custom_id(record.id, record.version, "start"), "success", "▶️",
                   disabled=len(record.seats) < rules.min_players),
        ]]
        return Reply("channel", text, channel_id=record.channel_id, rows=rows)

    async def status(self, user: User, where: Where) -> list[Reply]:
        record = await self.store.active_game(where.channel_id)
        if record is None:
            last = await self.store.last_game(where.channel_id)
            if last is None or last.status != "finished":
                return self.refuse(user, "error.no_game")
            record = last
        if record.status == "lobby":
            msg = self._lobby_message(record)
            return [self.private(user, msg.text, rows=msg.rows)]
        if self._too_often(user):
            return self.refuse(user, "error.slow_down")
        loaded = self._load(record)
        t = self.user_t(user, loaded.ui)
        reply = await self._board_reply(loaded, t, [], to="ephemeral", user=user, asked=True)
        return [reply]

    @refusing
    async def hand(self, user: User, where: Where) -> list[Reply]:
        loaded = await self._running(user, where)
        seat = loaded.record.seat_of_user(user.id)
        if seat is None or seat.seat is None:
            raise Refusal("error.not_seated")
        if self._too_often(user):
            return self.refuse(user, "error.slow_down")
        return [await self._hand_reply(loaded, seat, "ephemeral", self.user_t(user, loaded.ui), asked=True)]

    async def _hand_reply(self, loaded: Loaded, seat: SeatRecord, to: Destination, t: Translator, *,
                          asked: bool = False) -> Reply:
        assert seat.seat is not None
        view = loaded.rules.view(loaded.state, seat.seat)
        job = RenderJob(loaded.record.game_id, "hand", view, loaded.raw_names, t.lang, seat=seat.seat,
                        table=loaded.record.id)
        key = ("hand", loaded.record.id, loaded.record.version, seat.seat, t.lang) if asked else None
        image = await self._image(loaded, job, t, key)
        text = t("hand.header", title=t("title"), channel=f"<#{loaded.record.channel_id}>")
        extra = loaded.ui.hand_text(view, seat.seat, loaded.names, t)
        if extra:
            text += "\n" + extra
        rows: list[list[Component]] = []
        if seat.seat in loaded.rules.to_act(loaded.state):
            rows = [[Button(t("button.play"), custom_id(loaded.record.id, loaded.record.version, "menu"),
                            "primary", "🎲")]]
        files = [Attachment("hand.png", image)] if image is not None else []
        return Reply(to, text, user_id=seat.user_id, files=files, rows=rows)

    async def log_(self, user: User, where: Where, count: int = 15) -> list[Reply]:
        record = await self.store.active_game(where.channel_id)
        if record is None:
            record = await self.store.last_game(where.channel_id)
        if record is None:
            return self.refuse(user, "error.no_game")
        if record.status == "lobby":
            t = self.user_t(user, games.get(record.game_id).ui)
            players = ", ".join(md(s.name) for s in record.seats)
            return [self.private(user, t("log.lobby", title=t("title"), players=players))]
        loaded = self._load(record)
        t = self.user_t(user, loaded.ui)
        lines: list[str] = []
        for entry in await self.store.actions(record.id):
            for event in entry.events:
                line = self._event_line(loaded, event, t)
                if line:
                    prefix = "🤖 " if entry.actor != "human" else ""
                    lines.append(f"`{entry.seq:>3}` {prefix}{line}")
        if not lines:
            return [self.private(user, t("log.empty"))]
        shown = lines[-max(1, min(count, 50)):]
        text = t("log.header", count=len(shown), total=len(lines)) + "\n" + "\n".join(shown)
        return [self.private(user, _clip(text))]

    async def rules_help(self, user: User, where: Where, game_id: str | None = None) -> list[Reply]:
        if game_id is None:
            record = await self.store.active_game(where.channel_id)
            game_id = record.game_id if record else None
        if game_id is None:
            return await self.games_list(user)
        offered = games.specs()
        if game_id not in offered:
            return self.refuse(user, "error.unknown_game", game=echo(game_id, 40), games=", ".join(sorted(offered)))
        t = self.user_t(user, offered[game_id].ui)
        return [self.private(user, "", embeds=chunk) for chunk in rules_embeds(t("title"), t("rules"))]

    # -- turn messages ------------------------------------------------------------
    def _event_line(self, loaded: Loaded, event: dict[str, Any], t: Translator) -> str | None:
        public = {k: v for k, v in event.items() if k != "private"}
        kind = public.get("type")
        if kind in ("game_started", "resigned"):
            params = dict(public)
            if "seat" in params:
                params["seat"] = loaded.names.get(params["seat"], params["seat"])
                params["name"] = md(params["name"]) if "name" in params else params["seat"]
            return t(f"event.{kind}", **params)
        return loaded.ui.event_text(public, loaded.names, t)

    def _mention(self, loaded: Loaded, seats: list[str], quiet: set[str] | frozenset[str] = frozenset()
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

    async def _board_reply(self, loaded: Loaded, t: Translator, events: list[dict[str, Any]], *,
                           to: Destination = "channel", user: User | None = None, note: str | None = None,
                           image: bool = True, quiet: set[str] | frozenset[str] = frozenset(),
                           asked: bool = False) -> Reply:
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
            png = await self._image(loaded, job, t, key)
            if png is not None:
                files.append(Attachment("board.png", png))
        lines = [line for event in events if (line := self._event_line(loaded, event, t))]
        lines = ([note] if note else []) + _last_lines(lines, 14)  # the note (why this message) always stays
        mentions: list[int] = []
        rows: list[list[Any]] = []
        if rules.is_over(loaded.state):
            lines.append(self._result_text(loaded, t))
        else:
            to_act = rules.to_act(loaded.state)
            who, mentions = self._mention(loaded, to_act, quiet)
            lines.append(t("turn.waiting", who=who))
            status_line = loaded.ui.status_text(view, loaded.names, t)
            if status_line:
                lines.append(status_line)
            rows = self._turn_rows(loaded, t, view)
        if to != "channel":
            mentions = []
        return Reply(to, _clip("\n".join(lines)), user_id=user.id if user else None,
                     channel_id=record.channel_id, files=files, rows=rows,
                     mentions=mentions)

    def _turn_rows(self, loaded: Loaded, t: Translator, view: Any = None) -> list[list[Any]]:
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
                    label = self._group_label(loaded, item.group, t) + "…"
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

    def _result_text(self, loaded: Loaded, t: Translator) -> str:
        result = loaded.rules.result(loaded.state)
        assert result is not None  # only called once rules.is_over: a finished game has a result
        lines = [t("result.header")]
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        for entry in result.get("ranking", []):
            rank = int(entry.get("rank", 0))
            name = loaded.names.get(entry["seat"], entry["seat"])
            score = entry.get("score")
            lines.append(t("result.line", medal=medals.get(rank, f"{rank}."), name=name,
                           score="" if score is None else f" — {score}"))
        winners = [loaded.names.get(s, s) for s in result.get("winners", [])]
        if winners:
            lines.append(t("result.winners", names=", ".join(winners)))
        return "\n".join(lines)

    async def _after_change(self, loaded: Loaded, events: list[dict[str, Any]], *,
                            note: str | None = None, already_pinged: set[str] | None = None) -> list[Reply]:
        """The public turn message, plus DMs to opted-in players who must act now. Players
        who were already waiting before this change are named but not pinged again."""
        record = loaded.record
        t = self.game_t(record, loaded.ui)
        image = loaded.rules.is_over(loaded.state) or loaded.ui.board_changed(events)
        quiet = already_pinged or set()
        replies = [await self._board_reply(loaded, t, events, note=note, image=image, quiet=quiet)]
        if not loaded.rules.is_over(loaded.state):
            for seat in loaded.rules.to_act(loaded.state):
                if seat in quiet:
                    continue
                rec = record.seat_record(seat)
                if rec is not None and not rec.is_bot and rec.dm:
                    replies.append(await self._hand_reply(loaded, rec, "dm", self.t(rec.lang, loaded.ui)))
        return replies

    @staticmethod
    def _group_label(loaded: Loaded, group: str, t: Translator) -> str:
        key = f"group.{group}"
        return t(key) if t.has(key) else group.replace("_", " ").capitalize()


def rules_embeds(title: str, text: str) -> list[list[Embed]]:
    """A long text, whole, as embeds within Discord's limits, split between paragraphs (or
    lines, or words when a paragraph is too long): a list of messages, each a list of embeds."""
    pieces: list[str] = []
    for paragraph in text.split("\n\n"):
        pieces += _split_to(paragraph, EMBED_DESCRIPTION_LIMIT)
    embeds: list[str] = []
    for piece in pieces:
        if embeds and len(embeds[-1]) + 2 + len(piece) <= EMBED_DESCRIPTION_LIMIT:
            embeds[-1] += "\n\n" + piece
        else:
            embeds.append(piece)
    messages: list[list[Embed]] = [[]]
    used = 0
    for i, description in enumerate(embeds):
        heading = _trim(title, 256) if i == 0 else None
        size = len(description) + len(heading or "")
        if messages[-1] and (used + size > EMBEDS_TOTAL_LIMIT or len(messages[-1]) == EMBEDS_PER_MESSAGE):
            messages.append([])
            used = 0
        messages[-1].append(Embed(description, heading))
        used += size
    return messages


def _split_to(text: str, limit: int) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at line ends, else at spaces."""
    if len(text) <= limit:
        return [text]
    for separator in ("\n", " "):
        cut = text.rfind(separator, 0, limit + 1)
        if cut > 0:
            return [text[:cut]] + _split_to(text[cut + 1:], limit)
    return [text[:limit]] + _split_to(text[limit:], limit)

