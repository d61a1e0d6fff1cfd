"""`Answers`: what someone asks to see, privately — the list of games, the board now
(`/game status`), their hand, the log and the rules. Reads the store, changes nothing."""

from __future__ import annotations

import difflib
from typing import Any

from bot import games
from bot.replies import EMBED_DESCRIPTION_LIMIT, EMBEDS_PER_MESSAGE, EMBEDS_TOTAL_LIMIT, Embed, Reply, User, Where
from bot.table.messages import Messages
from bot.table.shared import RateLimiter, Refusal, _clip, _trim
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.text import echo, md

#: how the log marks a move nobody pressed a button for: an AI seat's, and a stand-in's for a
#: player whose time ran out (the seat stays theirs: not an AI player)
ACTOR_MARKS = {"ai": "🤖", "timeout": "⌛"}


def actor_mark(actor: str, seat: str | None, event: dict[str, Any]) -> str:
    """The mark of a log line: only on what the acting seat itself did, so what a move caused
    for others (a human's forced or automatic step, a new round) is not put on the AI."""
    mark = ACTOR_MARKS.get(actor)
    return f"{mark} " if mark and event.get("seat") == seat else ""


class Answers:
    def __init__(self, tables: Tables, talk: Talk, messages: Messages) -> None:
        self.tables = tables
        self.talk = talk
        self.messages = messages
        #: status and hand images a user may ask for (each is a render)
        self.asks = RateLimiter()

    async def games_list(self, user: User) -> list[Reply]:
        t = self.talk.user_t(user)
        lines = [t("games.header")]
        for game_id, spec in games.specs().items():
            rules = spec.rules
            title = spec.ui.translator(t.lang)("title")
            lines.append(t("games.line", id=game_id, title=title, min=rules.min_players, max=rules.max_players))
        return [self.talk.private(user, "\n".join(lines))]

    async def status(self, user: User, where: Where) -> list[Reply]:
        store = self.tables.store
        record = await store.active_game(where.channel_id)
        if record is None:
            last = await store.last_game(where.channel_id)
            if last is None or last.status != "finished":
                paused = await self._paused_games_of(user)
                if paused:
                    return [self.talk.private(user, "\n".join(paused))]
                raise Refusal("error.no_game")
            record = last
        if record.status == "lobby":
            msg = self.messages.lobby(record)
            return [self.talk.private(user, msg.text, rows=msg.rows)]
        if self.asks.too_often(user.id):
            raise Refusal("error.slow_down")
        loaded = self.tables.load(record)
        t = self.talk.user_t(user, loaded.ui)
        return [await self.messages.board(loaded, t, [], to="ephemeral", user=user, asked=True)]

    async def _paused_games_of(self, user: User) -> list[str]:
        """A line for each of the user's games that is paused (its channel is gone)."""
        lines = []
        for record in await self.tables.store.paused_games(self.tables.clock()):
            if record.seat_of_user(user.id) is not None and record.game_id in games.specs():
                t = self.talk.user_t(user, games.get(record.game_id).ui)
                lines.append(t("paused.status", title=t("title"), channel=f"<#{record.channel_id}>"))
        return lines

    async def hand(self, user: User, where: Where) -> list[Reply]:
        loaded = await self.tables.running(where)
        seat = loaded.record.seat_of_user(user.id)
        if seat is None or seat.seat is None:
            raise Refusal("error.not_seated")
        if self.asks.too_often(user.id):
            raise Refusal("error.slow_down")
        return [await self.messages.hand(loaded, seat, "ephemeral", self.talk.user_t(user, loaded.ui), asked=True)]

    async def log(self, user: User, where: Where, count: int = 15) -> list[Reply]:
        store = self.tables.store
        record = await store.active_game(where.channel_id)
        if record is None:
            record = await store.last_game(where.channel_id)
        if record is None:
            raise Refusal("error.no_game")
        if record.status == "lobby":
            t = self.talk.user_t(user, games.get(record.game_id).ui)
            players = ", ".join(md(s.name) for s in record.seats)
            return [self.talk.private(user, t("log.lobby", title=t("title"), players=players))]
        loaded = self.tables.load(record)
        t = self.talk.user_t(user, loaded.ui)
        lines: list[str] = []
        for entry in await store.actions(record.id):
            for event in entry.events:
                line = self.messages.event_line(loaded, event, t)
                if line:
                    lines.append(f"`{entry.seq:>3}` {actor_mark(entry.actor, entry.seat, event)}{line}")
        if not lines:
            return [self.talk.private(user, t("log.empty"))]
        shown = lines[-max(1, min(count, 50)):]
        while True:  # the newest lines that fit one message, whole, with the legend of their marks
            marks = [key for key, mark in ACTOR_MARKS.items() if any(f"` {mark}" in line for line in shown)]
            legend = " · ".join(t(f"log.{key}", mark=ACTOR_MARKS[key]) for key in marks)
            head = "\n".join([t("log.header", count=len(shown), total=len(lines))]
                              + [n for note in self.messages.hooks.log_notes if (n := note(record, t))])
            text = "\n".join([head] + shown + ([legend] if legend else []))
            if len(text) <= 1990 or len(shown) == 1:
                return [self.talk.private(user, _clip(text))]
            shown = shown[1:]

    async def help(self, user: User, where: Where, commands: list[str]) -> list[Reply]:
        """`/game help`: every `/game` subcommand (`commands`, by name) with one line each, and
        the commands of the game running here, in the user's language."""
        t = self.talk.user_t(user)
        game = t("name.game")
        lines = [t("help.line", command=f"/{game} {t(f'name.game.{name}')}", what=t(f"cmd.game.{name}"))
                 for name in commands]
        embeds = [Embed("\n".join(lines), t("help.title", command=f"/{game}"))]
        record = await self.tables.store.active_game(where.channel_id)
        if record is not None and record.game_id in games.specs():
            ui = games.get(record.game_id).ui
            gt = self.talk.user_t(user, ui)
            lines = [t("help.line", command=f"/{ui.group} {c.name}", what=gt(f"cmd.{c.name}")) for c in ui.commands]
            embeds.append(Embed("\n".join(lines), t("help.game", title=gt("title"), command=f"/{ui.group}")))
        return [self.talk.private(user, t("help.header"), embeds=embeds)]

    def unknown_command(self, user: User, typed: str, known: dict[str, str], prefix: str = "/") -> list[Reply]:
        """A command nobody declared: the closest of `known` (what may be typed -> the name to
        suggest, each after `prefix`), or where the list is."""
        t = self.talk.user_t(user)
        needle = typed.casefold()
        close = difflib.get_close_matches(needle, list(known), n=6, cutoff=0.5)
        if not close:
            close = [k for k in known if needle and (k.startswith(needle) or needle in k)]
        shown = list(dict.fromkeys(known[k] for k in close))[:3]
        if shown:
            return self.talk.refuse(user, "error.unknown_command_close", command=echo(prefix + typed, 60),
                                    close=", ".join(f"`{prefix}{c}`" for c in shown))
        return self.talk.refuse(user, "error.unknown_command_help", command=echo(prefix + typed, 60),
                                help=f"/{t('name.game')} {t('name.game.help')}")

    async def rules(self, user: User, where: Where, game_id: str | None = None) -> list[Reply]:
        if game_id is None:
            record = await self.tables.store.active_game(where.channel_id)
            game_id = record.game_id if record else None
        if game_id is None:
            return await self.games_list(user)
        offered = games.specs()
        if game_id not in offered:
            raise Refusal("error.unknown_game", game=echo(game_id, 40), games=", ".join(sorted(offered)))
        t = self.talk.user_t(user, offered[game_id].ui)
        return [self.talk.private(user, "", embeds=chunk) for chunk in rules_embeds(t("title"), t("rules"))]


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

