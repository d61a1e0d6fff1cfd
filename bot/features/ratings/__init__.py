"""Ratings and statistics per server: every finished game updates an `openskill`
(Plackett-Luce) rating per (server, game, player), exactly once, and `/game stats` and
`/game leaderboard` read them back.

The update is an after-change step (a change that ends a game rates it), and a tick job
rates any game that finished without one (a crash in between):
the store records a game's result and its rating update in one transaction keyed by the
game, so neither path can rate a game twice."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from bot import games
from bot.i18n import Translator
from bot.replies import Embed, Reply, User, Where
from bot.store import GameResult, Rating, RatingRow, ResultEntry
from bot.table.change import Change, Published
from bot.table.shared import Loaded, RateLimiter, Refusal, _trim
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.table.turns import ai_level
from bot.text import echo, md

log = logging.getLogger("passepartout.service")

#: openskill's Plackett-Luce model with its defaults (mu 25, sigma 25/3): handles any number
#: of seats and ties (seats sharing a rank)
MODEL = PlackettLuce()
LEADERBOARD_SIZE = 10


def scope_of(guild_id: int | None, channel_id: int) -> str:
    """The "server" a rating belongs to: the guild, or the channel outside any guild."""
    return f"guild:{guild_id}" if guild_id is not None else f"channel:{channel_id}"


def ai_player(game_id: str, level: str = "normal") -> str:
    """The one rated player behind every AI seat of a game at one level (so the leaderboard
    shows how strong each level is on this server)."""
    return f"ai:{game_id}:{level}"


def user_player(user_id: int) -> str:
    return f"user:{user_id}"


def game_result(loaded: Loaded, finished_at: float) -> GameResult:
    """The rated placings of a finished game, from the game's own `result()`. A seat whose
    player resigned counts for that player, last (an AI finished it, so it rates no AI);
    other AI seats rate the game's AI."""
    record = loaded.record
    result = loaded.rules.result(loaded.state)
    assert result is not None  # only called once the game is over
    resigned: dict[str, Any] = record.settings.get("resigned", {})
    ranking = result.get("ranking", [])
    last = max((int(e["rank"]) for e in ranking), default=0) + 1
    entries: list[ResultEntry] = []
    for entry in ranking:
        seat = entry["seat"]
        score = entry.get("score")
        score = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None
        rec = record.seat_record(seat)
        if seat in resigned and rec is not None and rec.is_bot:
            user_id, name = resigned[seat]
            entries.append(ResultEntry(seat, user_player(int(user_id)), str(name), last, score))
        elif rec is None or rec.is_bot:
            entries.append(ResultEntry(seat, ai_player(record.game_id, ai_level(record, seat)), "AI",
                                       int(entry["rank"]), score))
        else:
            entries.append(ResultEntry(seat, user_player(rec.user_id), rec.name, int(entry["rank"]), score))
    return GameResult(record.id, scope_of(record.guild_id, record.channel_id), record.game_id, finished_at,
                      tuple(entries))


def rate(entries: Sequence[ResultEntry], before: dict[str, Rating | None]) -> dict[str, Rating]:
    """New ratings after one game: openskill's Plackett-Luce update, each seat one team,
    ties sharing a rank. Several AI seats of one game are one rated player: each seat is
    rated from that player's rating, and the player takes the mean of its seats' results."""
    teams = [[MODEL.rating() if (r := before.get(e.player)) is None else MODEL.rating(mu=r.mu, sigma=r.sigma)]
             for e in entries]
    rated = MODEL.rate(teams, ranks=[float(e.rank) for e in entries])
    seats: dict[str, list[Any]] = {}
    for entry, [after] in zip(entries, rated, strict=True):
        seats.setdefault(entry.player, []).append(after)
    return {player: Rating(sum(a.mu for a in found) / len(found), sum(a.sigma for a in found) / len(found))
            for player, found in seats.items()}


#: how sure a rating is, in words: sigma starts at 25/3 and shrinks with every rated game
SURE_MID, SURE_HIGH = 7.0, 5.0


def conservative(mu: float, sigma: float) -> float:
    """The rating the leaderboard ranks by: mu - 3 sigma (about 99% sure to be at least this)."""
    return mu - 3 * sigma


class Ratings:
    def __init__(self, tables: Tables, talk: Talk) -> None:
        self.tables = tables
        self.talk = talk
        self.asks = RateLimiter()

    async def rate_finished(self, change: Change, out: Published) -> Published:
        """The after-change step: a game that just ended is rated."""
        loaded = change.loaded
        if loaded.record.status == "finished" and loaded.rules.is_over(loaded.state):
            await self.rate_safely(loaded)
        return out

    async def rate_safely(self, loaded: Loaded) -> None:
        """Rate a finished game once; a failure is logged and `tick` tries again. A game played
        with hints is not rated."""
        if loaded.record.settings.get("hints"):
            return
        try:
            result = game_result(loaded, loaded.record.updated_at)
            if await self.tables.store.record_result(result, lambda before: rate(result.entries, before)):
                log.info("rated game %s (%s, %s)", loaded.record.id, result.game_id, result.scope)
        except Exception:
            log.exception("could not rate game %s; the scheduler will retry", loaded.record.id)

    async def rate_unrated(self) -> list[Reply]:
        """Games that finished without a rating (a crash in between)."""
        for record in await self.tables.store.unrated_games():
            async with self.tables.lock(record.channel_id):
                await self.rate_safely(self.tables.load(record))
        return []

    # -- /game stats and /game leaderboard --------------------------------------------
    @staticmethod
    def _title(game_id: str, t: Translator) -> str:
        spec = games.specs().get(game_id)
        return spec.ui.translator(t.lang)("title") if spec else game_id

    async def stats(self, user: User, where: Where, player: User | None = None) -> list[Reply]:
        """A player's record on this server (only the asker sees it)."""
        if self.asks.too_often(user.id):
            raise Refusal("error.slow_down")
        target = player or user
        t = self.talk.user_t(user)
        found = await self.tables.store.player_stats(scope_of(where.guild_id, where.channel_id),
                                                     user_player(target.id))
        name = md(_trim(target.name, 80))
        if found.games == 0:
            return [self.talk.private(user, t("stats.none", name=name))]
        favourite = max(found.per_game.items(), key=lambda kv: (kv[1], kv[0]))[0]
        lines = [t("stats.record", games=found.games, wins=found.wins),
                 t("stats.favourite", title=self._title(favourite, t), games=found.per_game[favourite])]
        if found.best is not None:
            best = found.best
            lines.append(t("stats.best", rank=best.rank, players=best.players, title=self._title(best.game_id, t)))
        lines.append("")
        lines += [self._rating_line(r, t) for r in found.ratings]
        lines += ["", t("stats.explain")]
        return [self.talk.private(user, "", embeds=[Embed("\n".join(lines), _trim(t("stats.title", name=name), 256))])]

    @staticmethod
    def _skill(row: RatingRow, t: Translator) -> dict[str, Any]:
        """A rating as people read it: the skill (mu, rounded: everyone starts at 25), give or
        take about two sigmas, and in words how sure that is. Never mu - 3 sigma, which is
        negative after a first game and reads as a punishment."""
        margin = 2 * row.sigma
        sure = "low" if row.sigma > SURE_MID else "mid" if row.sigma > SURE_HIGH else "high"
        return {"skill": round(row.mu), "margin": round(margin), "sure": t(f"stats.sure.{sure}")}

    def _rating_line(self, row: RatingRow, t: Translator) -> str:
        return t("stats.rating", title=self._title(row.game_id, t), games=row.games, wins=row.wins,
                 **self._skill(row, t))

    async def leaderboard(self, user: User, where: Where, game_id: str | None = None) -> list[Reply]:
        """The top players of this server by conservative rating, one card per game."""
        offered = games.specs()
        if game_id is not None and game_id not in offered:
            raise Refusal("error.unknown_game", game=echo(game_id, 40), games=", ".join(sorted(offered)))
        if self.asks.too_often(user.id):
            raise Refusal("error.slow_down")
        t = self.talk.user_t(user)
        least = self.tables.settings.leaderboard_min_games
        scope = scope_of(where.guild_id, where.channel_id)
        embeds: list[Embed] = []
        for gid in [game_id] if game_id else sorted(offered):
            rows = await self.tables.store.leaderboard(scope, gid, min_games=least, limit=LEADERBOARD_SIZE)
            if rows:
                embeds.append(Embed("\n".join(self._board_line(i, r, t) for i, r in enumerate(rows, 1)),
                                    _trim(t("leaderboard.title", title=self._title(gid, t)), 256)))
        if not embeds:
            title = self._title(game_id, t) if game_id else t("leaderboard.all_games")
            return [self.talk.private(user, t("leaderboard.empty", title=title, min=least))]
        return [self.talk.private(user, t("leaderboard.footer", min=least), embeds=embeds)]

    def _board_line(self, place: int, row: RatingRow, t: Translator) -> str:
        medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(place, f"{place}.")
        name = _ai_name(row.player, t) if row.player.startswith("ai:") else md(_trim(row.name, 60))
        return t("leaderboard.line", medal=medal, name=name, games=row.games, wins=row.wins, **self._skill(row, t))


def _ai_name(player: str, t: Translator) -> str:
    """An AI's line on the leaderboard: the AI and its level (`ai:<game>:<level>`)."""
    level = player.split(":")[2] if player.count(":") >= 2 else "normal"
    key = f"level.{level}"
    return f"{t('stats.ai')} ({t(key)})" if t.has(key) else t("stats.ai")

