"""A game worth remembering: the summary image and the timelapse of a finished game.

Both are made from the stored action log alone: the game is replayed from its seed (the
engine is deterministic) and the public view is kept at the start and after every round.
Everything drawn comes from public views and public events (and the final standing,
public once the game is over), so nothing private can leak into them.

When a change ends a game, the after-change step `due` queues it; the adapters ask for
`post_game_memories` once the final message is out, and post what it yields (summary
first, then the timelapse). Nothing is kept on disk but one mark per game in the store's
`meta` table (`memories.<game>`): a poster's claim before it draws, "posted" after. After a
restart the scheduler's first tick finds the recently finished games without a mark (a
crash came between the final message and the pictures) and queues them again; the claim
keeps two bot processes from both posting. `render_memory` is the one function that
renders, from plain values only, so it can run in a thread or in a render process.
"""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.i18n import Translator
from bot.images.pool import MemoryRender, poolable
from bot.replay import effective_actions
from bot.replies import Attachment, Destination, Reply, User, Where
from bot.store import GameRecord
from bot.table.change import Change, Published
from bot.table.images import Images
from bot.table.messages import alt_text
from bot.table.shared import RateLimiter, Refusal, _match_label, _shortlist, _trim
from bot.table.tables import Tables
from bot.table.talk import Talk
from bot.text import echo
from engine import Event, View
from render.summary import Standing, Summary, render_summary
from render.timelapse import timelapse_gif

log = logging.getLogger("passepartout.service")

#: replays (summary and timelapse) a user may ask for in REPLAY_WINDOW seconds
REPLAY_LIMIT, REPLAY_WINDOW = 3, 600.0
#: finished games of a channel offered by `/game replay`
REPLAY_CHOICES = 25
#: games finished this recently whose pictures a restarted bot still posts (older: /game replay)
RECOVER_WITHIN = 3 * 3600.0
#: a claim this old that never became "posted" is taken over (its poster died drawing)
CLAIM_SECONDS = 900.0
_POSTED = "posted"


def _memory_key(game_pk: int) -> str:
    return f"memories.{game_pk}"


@dataclass(frozen=True)
class MemoryJob:
    """What the renders need, as plain values (picklable, for a render process)."""

    game_id: str
    seats: tuple[str, ...]
    names: dict[str, str]
    seed: int
    options: dict[str, Any]
    actions: tuple[tuple[str, dict[str, Any]], ...]
    lang: str


@dataclass
class Timeline:
    """A finished game replayed: one frame at the start and one after every round."""

    views: list[View] = field(default_factory=list)
    #: the public events of the round each frame closes (none for the start)
    events: list[list[Event]] = field(default_factory=list)
    #: seat -> progress at each frame
    progress: dict[str, list[float | None]] = field(default_factory=dict)
    #: (the game's round number when it happened, public event), over the whole game
    log: list[tuple[int, Event]] = field(default_factory=list)
    final: Any = None

    @property
    def rounds(self) -> int:
        return len(self.views) - 1


def replay_timeline(job: MemoryJob) -> Timeline:
    """Replay the log from the seed, keeping a frame whenever a round ends (and at the end)."""
    rules = games.get(job.game_id).rules
    state = rules.new_game(list(job.seats), job.seed, job.options)
    timeline = Timeline(progress={seat: [] for seat in job.seats})

    def keep(events: list[Event]) -> None:
        timeline.views.append(rules.view(state, None))
        timeline.events.append(events)
        now = rules.progress(state)
        for seat in job.seats:
            timeline.progress[seat].append(now.get(seat))

    keep([])
    pending: list[Event] = []
    for seat, action in job.actions:
        before = rules.round_of(state)
        events = [{k: v for k, v in e.items() if k != "private"} for e in rules.apply(state, seat, action)]
        timeline.log += [(before, e) for e in events]
        pending += events
        if rules.round_of(state) != before or rules.ends_round(state, events):
            keep(pending)
            pending = []
    if pending or len(timeline.views) == 1:
        keep(pending)
    timeline.final = state
    return timeline


def render_memory(kind: str, job: MemoryJob) -> bytes:
    """The one render function of this module: ``"summary"`` (PNG) or ``"timelapse"`` (GIF)."""
    spec = games.get(job.game_id)
    t = spec.ui.translator(job.lang)
    timeline = replay_timeline(job)
    if kind == "summary":
        return render_summary(summary_of(job, timeline, t))
    if kind != "timelapse":
        raise ValueError(f"unknown memory {kind!r}")
    captions = frame_captions(timeline, t)

    def frame(i: int) -> bytes:
        return spec.renderer.render_board(timeline.views[i], names=job.names, lang=job.lang,
                                          events=timeline.events[i], translator=t)

    return timelapse_gif(len(timeline.views), frame, captions)


def frame_captions(timeline: Timeline, t: Translator) -> list[str]:
    """Each frame's caption in the game's own units: "After round 3 of 12", or, for a game
    played in periods (its catalog has `memories.frame_period`), "Period II, after round of
    turns 3" — the same counts its board and texts use."""
    views = timeline.views
    if not t.has("memories.frame_period") or not views or "period" not in views[-1]:
        return [frame_caption(i, timeline.rounds, t) for i in range(len(views))]
    captions = [t("memories.frame_start")]
    in_period = 0
    for i in range(1, len(views)):
        period, before = int(views[i]["period"]), int(views[i - 1]["period"])
        if period != before:  # this frame closes a period
            in_period = 0
            caption = t("memories.frame_period_end", period=_roman(before))
        else:
            in_period += 1
            caption = t("memories.frame_period", period=_roman(period), round=in_period)
        captions.append(caption + (t("memories.frame_last") if i == len(views) - 1 else ""))
    return captions


def _roman(n: int) -> str:
    """Periods as the game prints them: I to V."""
    return {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}.get(n, str(n))


def frame_caption(i: int, rounds: int, t: Translator) -> str:
    if i == 0:
        return t("memories.frame_start")
    if i == rounds:
        return t("memories.frame_end", round=i, rounds=rounds)
    return t("memories.frame", round=i, rounds=rounds)


def summary_of(job: MemoryJob, timeline: Timeline, t: Translator) -> Summary:
    """The summary's texts and numbers, worded in `t`'s language."""
    rules = games.get(job.game_id).rules
    result = rules.result(timeline.final) or {"ranking": [], "winners": []}
    parts = rules.score_parts(timeline.final)
    index = {seat: i for i, seat in enumerate(job.seats)}
    standings = []
    for row in result["ranking"]:
        seat = row["seat"]
        score = row.get("score")
        standings.append(Standing(index=index.get(seat, 0), name=job.names.get(seat, seat), rank=int(row["rank"]),
                                  score="—" if score is None else str(score),
                                  parts=_parts_text(parts.get(seat, {}), t)))
    winners = [job.names.get(s, s) for s in result["winners"]]
    last = timeline.views[-1] if timeline.views else {}
    periods = last.get("periods") if t.has("memories.periods.other") else None
    rounds = t.plural("memories.rounds", timeline.rounds)
    subtitle = " · ".join(x for x in (
        t.plural("memories.periods", int(periods), rounds=rounds) if periods else rounds,
        t.plural("memories.winners", len(winners), names=", ".join(winners)) if winners else "",
    ) if x)
    return Summary(
        title=t("memories.title", title=t("title")), subtitle=subtitle, standings=standings,
        series={index[seat]: values for seat, values in timeline.progress.items()},
        headings=(t("memories.standings"), t("memories.progress"), t("memories.highlights")),
        x_label=t("memories.x_label"), y_label=t(f"memories.unit.{rules.progress_unit}"),
        highlights=highlight_texts(job, timeline, t),
    )


def _parts_text(parts: dict[str, Any], t: Translator) -> str:
    shown = [f"{t(f'breakdown.{part}')} {value}" for part, value in parts.items() if value is not None]
    return " · ".join(shown)


def highlight_texts(job: MemoryJob, timeline: Timeline, t: Translator, keep: int = 4) -> list[str]:
    """The game's own highlights (worded by its catalog), then the biggest leap of the chart."""
    rules = games.get(job.game_id).rules
    texts: list[str] = []
    for item in rules.highlights(timeline.log):
        key = f"highlight.{item['type']}"
        if not (t.has(key) or t.has(f"{key}.other")):
            continue
        params = {k: _param(k, v, job, t) for k, v in item.items() if k != "type"}
        if t.has(f"{key}.other") and isinstance(item.get("count"), int):
            texts.append(t.plural(key, params.pop("count"), **params))
        else:
            texts.append(t(key, **params))
    if rules.progress_gains:
        best: tuple[float, int, str] | None = None
        for seat, values in timeline.progress.items():
            for x in range(1, len(values)):
                a, b = values[x - 1], values[x]
                if a is not None and b is not None and (best is None or b - a > best[0]):
                    best = (b - a, x, seat)
        if best is not None and best[0] > 0:
            texts.append(t("memories.leap", name=job.names.get(best[2], best[2]), gain=f"{best[0]:g}",
                           round=best[1]))
    return texts[:keep]


def _param(key: str, value: Any, job: MemoryJob, t: Translator) -> Any:
    """A highlight's parameter as players read it: seat -> name, place/colour/kind ids -> words."""
    if key in ("seat", "target"):
        return job.names.get(value, value)
    for prefix in {"from": ("city",), "to": ("city",), "a": ("city", "waypoint"), "b": ("city", "waypoint"),
                   "colour": ("colour",), "kind": ("kind",)}.get(key, ()):
        if isinstance(value, str) and t.has(f"{prefix}.{value}"):
            return t(f"{prefix}.{value}")
    return value


class Memories:
    def __init__(self, tables: Tables, talk: Talk, images: Images) -> None:
        self.tables = tables
        self.talk = talk
        self.images = images
        #: whether a game's pictures are made when it ends (tables that test something else may
        #: turn this off: the timelapse of a whole game costs seconds of CPU); replay always works
        self.enabled = True
        self._waiting: list[int] = []
        self._recovered = False
        self.asks = RateLimiter(REPLAY_LIMIT, REPLAY_WINDOW)

    async def due(self, change: Change, out: Published) -> Published:
        """The after-change step: a game that just ended gets its summary and timelapse after
        the final message."""
        record = change.loaded.record
        if record.status == "finished" and self.enabled and record.id not in self._waiting:
            self._waiting.append(record.id)
        return out

    async def _claim(self, game_pk: int) -> bool:
        """Take the posting of a game's pictures, unless they were posted or someone alive
        claimed them lately. The claim is a compare-and-set from the value read: of two processes
        claiming at once, exactly one wins (and posts once, but for a crash between drawing and
        the mark, after which the claim goes stale and is taken over)."""
        store, me = self.tables.store, self.tables.instance
        key = _memory_key(game_pk)
        now = time.time()  # wall time: compared across processes and restarts
        held = await store.get_meta(key)
        if held == _POSTED:
            return False
        if held is not None:
            claimant, _, at = held.rpartition(" ")
            try:
                fresh = now - float(at) < CLAIM_SECONDS
            except ValueError:
                fresh = False
            if claimant != me and fresh and not self.tables.gone(claimant):
                return False
        return await store.swap_meta(key, held, f"{me} {now!r}")

    async def recover(self) -> list[Reply]:
        """The tick job, once per service (at the adapters' start tick): queue the pictures of
        recently finished games that never got them (a restart between the final message and
        them); `post` claims each before drawing."""
        if self._recovered or not self.enabled:
            return []
        self._recovered = True
        since = time.time() - RECOVER_WITHIN
        store = self.tables.store
        for record in await store.games(status="finished"):
            if record.updated_at < since or record.id in self._waiting or record.game_id not in games.specs():
                continue
            held = await store.get_meta(_memory_key(record.id))
            if held is None or held != _POSTED:
                log.info("game %s ended without its pictures posted: posting them now", record.id)
                self._waiting.append(record.id)
        return []  # the adapters post what it queued, as after any tick

    @property
    def waiting(self) -> bool:
        """Whether a game ended whose pictures have not been asked for yet."""
        return bool(self._waiting)

    async def post(self) -> AsyncIterator[Reply]:
        """The channel messages with the summary and the timelapse of every game that ended
        since the last call, each as soon as it is drawn. A game whose pictures fail is
        logged and skipped (`/game replay` makes them again). Each game is claimed first and
        marked posted after (see `_claim`), so a restart posts what is missing once."""
        waiting, self._waiting = self._waiting, []
        store = self.tables.store
        for game_pk in waiting:
            claimed = False
            try:
                record = await store.get_game(game_pk)
                if record is None or record.status != "finished":
                    continue
                claimed = await self._claim(game_pk)
                if not claimed:
                    continue  # posted already, or being posted by another process
                t = self.talk.game_t(record, games.get(record.game_id).ui)
                async for reply in self._replies(record, t, "channel"):
                    yield reply
            except Exception:
                log.exception("the summary of game %s could not be made; /game replay can retry", game_pk)
            finally:
                if claimed:  # a failure too: the log says so, and /game replay makes them
                    await store.set_meta(_memory_key(game_pk), _POSTED)

    async def _replies(self, record: GameRecord, t: Translator, to: Destination,
                       user: User | None = None) -> AsyncIterator[Reply]:
        job = await self._job(record, t.lang)
        title = t("title")
        user_id = user.id if user else None
        summary = await self._render("summary", job)
        yield Reply(to, t("memories.summary_text", title=title), user_id=user_id, channel_id=record.channel_id,
                    files=[Attachment("summary.png", summary, alt_text(t("alt.summary", title=title)))])
        gif = await self._render("timelapse", job)
        yield Reply(to, t("memories.timelapse_text", title=title), user_id=user_id, channel_id=record.channel_id,
                    files=[Attachment("timelapse.gif", gif, alt_text(t("alt.timelapse", title=title)))])

    async def _job(self, record: GameRecord, lang: str) -> MemoryJob:
        seats = tuple(s.seat for s in sorted(record.seats, key=lambda s: s.position) if s.seat)
        # undone moves and the undo entries themselves are not part of the game that was played
        actions = tuple((a.seat, a.action) for a in effective_actions(await self.tables.store.actions(record.id)))
        names = {s.seat: s.name for s in record.seats if s.seat}
        return MemoryJob(game_id=record.game_id, seats=seats, names=names, seed=record.seed,
                         options=dict(record.options), actions=actions, lang=lang)

    async def _render(self, kind: str, job: MemoryJob) -> bytes:
        """In the render pool, after every turn and asked-for image and never on every worker
        (a timelapse is seconds of CPU, which in this process would hold the GIL from every
        channel's turns); without a pool (or for a game a test swapped in), in a thread here,
        queued behind the other renders someone asked to see."""
        pool = self.images.render_pool
        if pool is not None and pool.usable and poolable(games.get(job.game_id)):
            # a round has at least one move: the moves bound the timelapse's frames
            frames = len(job.actions) + 1 if kind == "timelapse" else 1
            return await pool.render(MemoryRender(render_memory, kind, job, frames))
        async with self.images.side_renders:
            return await self.images.run(render_memory, kind, job)

    # -- /game replay -----------------------------------------------------------------
    async def replay(self, user: User, where: Where, game: str | None = None) -> list[Reply]:
        """The summary and timelapse of one of the channel's finished games (default: the
        last), privately to the one who asked."""
        finished = [r for r in await self.tables.store.finished_games(where.channel_id, limit=REPLAY_CHOICES)
                    if r.game_id in games.specs()]  # a game no longer offered cannot be drawn
        if not finished:
            raise Refusal("error.replay_none")
        record = finished[0]
        if game is not None and game.strip():
            found = self._pick(user, game, finished)
            if found is None:
                labels = [label for label, _ in self._labels(user, finished)]
                raise Refusal("error.replay_unknown", game=echo(game, 40),
                              choices=_shortlist(labels, self.talk.user_t(user), keep=5))
            record = found
        if self.asks.too_often(user.id):
            raise Refusal("error.replay_slow", minutes=int(REPLAY_WINDOW // 60))
        t = self.talk.user_t(user, games.get(record.game_id).ui)
        return [reply async for reply in self._replies(record, t, "ephemeral", user)]

    def _pick(self, user: User, typed: str, finished: list[GameRecord]) -> GameRecord | None:
        """The game the autocomplete sent — a number names a game of this channel by its id, or
        nothing (digits in dates or titles are no match) — or the one whose label matches."""
        wanted = typed.strip().lstrip("#")
        if wanted.isascii() and wanted.isdigit():
            return next((r for r in finished if str(r.id) == wanted), None)
        found, _ = _match_label(typed, self._labels(user, finished))
        return found if isinstance(found, GameRecord) else None

    def _labels(self, user: User, finished: list[GameRecord]) -> list[tuple[str, GameRecord]]:
        labels = []
        for record in finished:
            spec = games.specs().get(record.game_id)
            if spec is None:
                continue
            t = self.talk.user_t(user, spec.ui)
            winners = _winner_names(record)
            date = datetime.datetime.fromtimestamp(record.updated_at, datetime.UTC).strftime("%Y-%m-%d")
            label = t("replay.choice", number=record.id, title=t("title"), date=date,
                      winners=", ".join(winners) or "—")
            labels.append((_trim(label, 100), record))
        return labels

    async def replay_choices(self, user: User, where: Where, current: str) -> list[tuple[str, str]]:
        """Autocomplete for `/game replay`: the channel's finished games, newest first."""
        finished = await self.tables.store.finished_games(where.channel_id, limit=REPLAY_CHOICES)
        needle = current.casefold().strip().lstrip("#")
        return [(label, str(record.id)) for label, record in self._labels(user, finished)
                if not needle or needle in label.casefold()][:25]


def _winner_names(record: GameRecord) -> list[str]:
    spec = games.specs().get(record.game_id)
    if spec is None or record.state is None:
        return []
    result = spec.rules.result(spec.rules.load(record.state))
    names = {s.seat: s.name for s in record.seats if s.seat}
    return [names.get(s, s) for s in (result["winners"] if result else [])]


__all__ = ["Memories", "MemoryJob", "Timeline", "render_memory", "replay_timeline"]
