"""Beyond the table in all four games, at the local table (`bot.local`): two people and an AI
seat play, a follower watches by DM, a move is taken back with the Undo button of its private
confirmation and a move that may not be taken back is refused; at the end the summary and the
timelapse are written, the ratings move as openskill says (`/game stats`, `/game leaderboard`),
`/game replay` sends the pictures again and Rematch opens the same table again.

Two people, not one: with a single person every undoable move of Rails & Sails hands the turn
to the AI, which moves at once, so nothing would ever stand to be taken back."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from PIL import Image

from bot.adapters.local import FakeClock
from bot.features.ratings import Ratings
from bot.games import ui_for
from bot.i18n import Translator
from bot.replies import Button, Reply
from bot.service import TableService
from bot.settings import Settings
from bot.store import RatingRow, SQLiteStore
from engine import registry
from tests.support.local_driver import Driver, RecordingTable

GAMES = [
    pytest.param("detour", id="detour"),  # a short game: played to the end in the normal suite
    pytest.param("around-the-world", id="around-the-world", marks=pytest.mark.wholegame),
    pytest.param("rails-and-sails", id="rails-and-sails", marks=pytest.mark.wholegame),
    pytest.param("eighty-days", id="eighty-days", marks=pytest.mark.wholegame),
]
EARLY = ["detour", "around-the-world", "rails-and-sails", "eighty-days"]
T = Translator("en")
HUMANS = ("alice", "bob")


class Beyond:
    """One local table with memories on, a follower, and the checks made along the way."""

    def __init__(self, tmp_path: Path, game: str, seed: int) -> None:
        self.game = game
        self.rules = registry.get(game)
        self.out = tmp_path / "img"
        self.emitted = io.StringIO()
        self.store = SQLiteStore(tmp_path / "local.sqlite3")
        self.seed = seed
        self.undone = False
        self.refused = False
        self.delivered: list[Reply] = []

    async def open(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The table: alice hosts, bob joins, one AI seat, eve follows by DM, alice starts."""
        monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(self.seed))
        await self.store.open()
        clock = FakeClock()
        service = TableService(self.store, Settings(leaderboard_min_games=1), clock=clock, render_in_thread=False)
        table = RecordingTable(service, clock, out_dir=self.out, emit=self.emitted)
        table.service.memories = True
        self.table = table
        self.driver = Driver(table, random.Random(self.seed), self.game, ai_share=1.0)
        await self.say(f"alice /game new game:{self.game}")
        await self.say("bob /game join")
        await self.say("alice /game addbot count:1")
        follow = await self.say("eve /game follow")
        assert follow[0].outcome == "ok", follow[0].text
        await self.say("alice /game start")

    async def say(self, line: str) -> list[Reply]:
        return await self.table.run_line(line)

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.emitted.getvalue().splitlines()]

    async def record(self) -> Any:
        return await self.store.active_game(self.table.where.channel_id)

    async def step(self) -> bool:
        """One human move (the AI seats answer by themselves); False once the game is over.
        The first undoable move found is taken back; after that, the first move the rules
        call final is made and `/game undo` must refuse it."""
        record = await self.record()
        if record is None:
            return False
        state = self.rules.load(record.state)
        seats = {s.seat: s for s in record.seats}
        [seat, *_] = [s for s in self.rules.to_act(state) if not seats[s].is_bot]
        name = seats[seat].name
        if not self.undone:
            candidate = self._undoable(state, seat, {s for s, r in seats.items() if r.is_bot})
            if candidate is not None:
                await self._move_and_undo(record, name, candidate)
                return True
        action = self.rules.ai_action(state, seat)
        after = self.rules.load(self.rules.dump(state))
        events = self.rules.apply(after, seat, action)
        await self.driver.move(name, action)
        if self.undone and not self.refused and not self.rules.undoable(state, after, seat, action, events):
            await self._refused_undo(name)
        return True

    def _undoable(self, state: Any, seat: str, bots: set[str]) -> dict[str, Any] | None:
        """A legal move of `seat` the game lets them take back and after which no AI seat moves
        (an AI's move would stand in between)."""
        for action in self.rules.legal_actions(state, seat):
            if action.get("type") not in self.rules.undoable_moves:
                continue
            after = self.rules.load(self.rules.dump(state))
            events = self.rules.apply(after, seat, action)
            if self.rules.undoable(state, after, seat, action, events) and not bots & set(self.rules.to_act(after)):
                return action
        return None

    async def _move_and_undo(self, record: Any, name: str, action: dict[str, Any]) -> None:
        before = record.state
        await self.driver.move(name, action)
        ack = next(r for r in reversed(self.table.visible[name]) if r.to == "ephemeral" and r.outcome == "ok")
        assert [c.label for row in ack.rows for c in row if isinstance(c, Button)] == [T("button.undo")], ack
        undone = await self.say(f"{name} !press {T('button.undo')}")
        assert undone[0].to == "ephemeral" and undone[0].text.startswith("↩️"), undone[0].text
        assert any(T("event.undone", name=name) in r.text for r in undone if r.to == "channel")
        now = await self.record()
        assert now.state == before and now.version == record.version + 2  # the move and its undo
        self.undone = True

    async def _refused_undo(self, name: str) -> None:
        version = (await self.record()).version
        [answer] = await self.say(f"{name} /game undo")
        assert answer.to == "ephemeral" and answer.text in {
            "⚠️ " + T(key) for key in ("undo.final", "undo.others_moved")}, answer.text
        assert (await self.record()).version == version  # nothing changed
        self.refused = True

    def check_follower(self, *, ended: bool) -> None:
        """Eve's copies: direct messages, each the text and images of a channel message, no
        buttons, nothing private."""
        lines = self.lines()
        copies = [x for x in lines if x.get("follower") == "eve"]
        channel = [x["text"] for x in lines if x["to"] == "channel" and "follower" not in x]
        assert len(copies) >= 3 and {x["to"] for x in copies} == {"dm"}
        # the local table prints a channel in words, not as <#id>
        assert copies[0]["text"] == T("follow.hello", title=self.title(), channel="#channel")
        assert all(x["text"] in channel for x in copies[1:]), [x["text"] for x in copies if x["text"] not in channel]
        assert all(not x.get("components") for x in copies)
        private = {x["text"] for x in lines if x["to"] == "ephemeral"}
        assert not private & {x["text"] for x in copies}
        if ended:
            assert "🏁" in copies[-1]["text"]

    def title(self) -> str:
        return ui_for(self.game).translator("en")("title")


def rating_line(finished: Any, name: str, t: Translator, title: str) -> str:
    """The `/game stats` line `name` should see after one game: openskill's Plackett-Luce update
    of fresh players (each seat a team), ranked as the game's own result says."""
    rules = registry.get(finished.game_id)
    ranking = rules.result(rules.load(finished.state))["ranking"]
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in ranking], ranks=[float(e["rank"]) for e in ranking])
    seat = next(s.seat for s in finished.seats if s.name == name)
    place = next(i for i, e in enumerate(ranking) if e["seat"] == seat)
    after = rated[place][0]
    row = RatingRow(player="", name=name, game_id=finished.game_id, mu=after.mu, sigma=after.sigma, games=1,
                    wins=int(ranking[place]["rank"] == 1))
    return t("stats.rating", title=title, games=1, wins=row.wins, **Ratings._skill(row, t))


@pytest.mark.parametrize("game", EARLY)
async def test_follow_undo_and_a_refused_undo_early_in_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  game: str) -> None:
    beyond = Beyond(tmp_path, game, seed=7)
    await beyond.open(monkeypatch)
    try:
        for _ in range(400):
            if beyond.refused:
                break
            assert await beyond.step(), "the game ended before an undo and a refusal"
        assert beyond.undone and beyond.refused
        beyond.check_follower(ended=False)
    finally:
        await beyond.store.close()


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_beyond_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    beyond = Beyond(tmp_path, game, seed=11)
    await beyond.open(monkeypatch)
    try:
        for _ in range(1500):
            if not await beyond.step():
                break
        await beyond.table.post_memories()  # the last move was a button press: the pictures follow
        assert beyond.undone and beyond.refused
        beyond.check_follower(ended=True)
        await _check_the_end(beyond)
    finally:
        await beyond.store.close()


async def _check_the_end(beyond: Beyond) -> None:
    """Final message with Rematch, pictures, ratings, replay, then the rematch itself."""
    table = beyond.table
    finished = await beyond.store.last_game(table.where.channel_id)
    assert finished.status == "finished"
    final = next(r for r in reversed(table.channel_log) if "🏁" in r.text)
    assert [c.label for row in final.rows for c in row] == [T("button.rematch")]
    pictures = sorted(p.name.split("-", 1)[1] for p in beyond.out.iterdir()
                      if p.name.endswith(("summary.png", "timelapse.gif")))
    assert pictures == ["summary.png", "timelapse.gif"]
    summary = next(beyond.out.glob("*-summary.png"))
    gif = Image.open(next(beyond.out.glob("*-timelapse.gif")))
    assert Image.open(summary).format == "PNG" and gif.format == "GIF" and getattr(gif, "n_frames", 1) > 2

    for name in HUMANS:
        line = rating_line(finished, name, T, beyond.title())
        [stats] = await beyond.say(f"eve /game stats player:{name}")
        assert stats.to == "ephemeral" and line in stats.embeds[0].description, (line, stats.embeds)
    [board] = await beyond.say(f"bob /game leaderboard game:{beyond.game}")
    assert board.embeds and board.embeds[0].title == T("leaderboard.title", title=beyond.title())
    assert len(board.embeds[0].description.splitlines()) == 3  # alice, bob and the AI

    replay = await beyond.say("bob /game replay")
    assert [(r.to, [f.filename for f in r.files]) for r in replay] == [
        ("ephemeral", ["summary.png"]), ("ephemeral", ["timelapse.gif"])]

    # Rematch on the final message: alice opens, bob confirms, the game starts by itself
    opened = await beyond.say(f"alice !press {T('button.rematch')}")
    assert (await beyond.record()).status == "lobby" and "@bob" in opened[-1].text.replace(
        f"<@{table.user('bob').id}>", "@bob"), opened
    started = await beyond.say("bob /game rematch")
    again = await beyond.record()
    assert again is not None and again.id != finished.id and again.status == "running", started
    assert (again.game_id, again.options) == (finished.game_id, finished.options)
    assert sorted((s.name, s.is_bot) for s in again.seats) == sorted((s.name, s.is_bot) for s in finished.seats)


TIE_BREAK = {"en": "(tie-break)", "de": "(bei Gleichstand)", "fr": "(départage)"}


@pytest.mark.parametrize("lang", sorted(TIE_BREAK))
def test_the_summary_says_which_parts_only_break_ties(lang: str) -> None:
    """80 Days' coins and Detour's move left in hand are in the summary's breakdown but not in
    the score: a reader who adds the parts up must see that they only break ties."""
    days = registry.get("eighty-days")
    state = days.new_game(["a", "b", "c"], 3, None)
    while not days.is_over(state):
        seat = days.to_act(state)[0]
        days.apply(state, seat, days.ai_action(state, seat))
    ranking = {row["seat"]: row for row in days.result(state)["ranking"]}
    for seat, parts in days.score_parts(state).items():
        counted = sum(int(v) for k, v in parts.items() if k != "coins" and isinstance(v, int))
        assert counted == ranking[seat]["score"] and "coins" in parts
    for game, part in (("eighty-days", "coins"), ("detour", "hand_value")):
        assert ui_for(game).translator(lang)(f"breakdown.{part}").endswith(TIE_BREAK[lang])
