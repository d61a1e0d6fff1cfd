"""Whole games through the Discord adapter, played at random from what the bot sent.

Every move is chosen among the buttons, menus and selects the bot posted (or typed as a
slash command), by a random seated player whose turn it is; now and then someone whose
turn it is not tries too. After every step the public messages are checked for secrets.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

from bot.service import action_hash
from engine import registry
from tests.support.discord_harness import (
    ALICE,
    BOB,
    CAROL,
    CUSTOM_ID,
    DAVE,
    FakeUser,
    Harness,
    Sent,
    kind_of,
    open_table,
    text,
)

USERS = [ALICE, BOB, CAROL, DAVE]


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The service seeds new games from SystemRandom; make the game reproducible."""
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(seed))


def payload_of(custom_id: str | None) -> str:
    m = CUSTOM_ID.fullmatch(custom_id or "")
    assert m, custom_id
    return m["payload"]


def latest_public(h: Harness) -> Sent:
    return next(m for m in reversed(h.channel_messages()) if m.buttons)


class Player:
    """Drives one game: picks who moves and how, checks each step."""

    def __init__(self, h: Harness, rng: random.Random, game_id: str,
                 slash: Any = None) -> None:
        self.h = h
        self.rng = rng
        self.rules = registry.get(game_id)
        self.slash = slash  # (user, action, legal) -> awaitable making the move by slash command, or None
        self.users = {u.id: u for u in USERS}
        self.routes: dict[str, int] = {"quick": 0, "menu": 0, "slash": 0, "refused": 0}

    async def record(self) -> Any:
        games = await self.h.bot.store.games()  # type: ignore[attr-defined]
        return max(games, key=lambda g: g.id)

    async def step(self) -> bool:
        """One human move (AI seats follow on their own). False when the game is over."""
        h, rng, rules = self.h, self.rng, self.rules
        record = await self.record()
        if record.status == "finished":
            return False
        assert record.status == "running"
        state = rules.load(record.state)
        humans = {s.seat: self.users[s.user_id] for s in record.seats if not s.is_bot}
        acting = [s for s in rules.to_act(state) if s in humans]
        assert acting, "the game waits for nobody"
        idle = [s for s in humans if s not in acting]
        if idle and rng.random() < 0.15:
            await self.intruder(humans[rng.choice(idle)], record)
        seat = rng.choice(acting)
        user = humans[seat]
        legal = rules.legal_actions(state, seat)
        by_hash = {action_hash(a): a for a in legal}
        before = len(await h.bot.store.actions(record.id))
        public = latest_public(h)
        quick = [b for b in public.buttons if kind_of(b.custom_id) == "act" and payload_of(b.custom_id) in by_hash]
        route = rng.choice(["quick", "menu", "slash"] if quick else ["menu", "slash"])
        if route == "slash" and self.slash is None:
            route = "menu"
        mark = h.mark()
        if route == "quick":
            button = rng.choice(quick)
            chosen = by_hash[payload_of(button.custom_id)]
            await h.run(h.click(user, public, button.custom_id))  # type: ignore[arg-type]
        elif route == "menu":
            chosen = await self.via_menu(user, public, by_hash)
        else:
            chosen = rng.choice(legal)
            await self.slash(self, user, chosen, legal)
        self.routes[route] += 1
        log = await h.bot.store.actions(record.id)
        assert len(log) > before, f"{route}: the move was not made"
        assert (log[before].seat, log[before].action) == (seat, chosen)
        assert any(a.content.startswith("✅") for a in h.ephemeral_for(user, since=mark))
        assert h.channel_messages(since=mark), "no public message after a move"
        return True

    async def via_menu(self, user: FakeUser, public: Sent, by_hash: dict[str, Any]) -> Any:
        h, rng = self.h, self.rng
        [play] = [b for b in public.buttons if kind_of(b.custom_id) == "menu" and not payload_of(b.custom_id)]
        mark = h.mark()
        await h.run(h.click(user, public, play.custom_id))  # type: ignore[arg-type]
        [menu] = h.ephemeral_for(user, since=mark)
        for _ in range(5):
            acts = [b for b in menu.buttons if kind_of(b.custom_id) in ("act", "pact")]
            if acts:
                assert {payload_of(b.custom_id) for b in acts} <= set(by_hash)
                button = rng.choice(acts)
                await h.run(h.click(user, menu, button.custom_id))  # type: ignore[arg-type]
                return by_hash[payload_of(button.custom_id)]
            if menu.selects:
                offered = {o["value"] for s in menu.selects for o in s.options}
                assert offered <= set(by_hash)
                select = rng.choice(menu.selects)
                value = rng.choice(select.options)["value"]
                await h.run(h.choose(user, menu, select.custom_id, [value]))  # type: ignore[arg-type]
                return by_hash[value]
            groups = [b for b in menu.buttons if kind_of(b.custom_id) == "menu" and payload_of(b.custom_id)]
            assert groups, f"a menu with nothing to press: {menu}"
            mark = h.mark()
            await h.run(h.click(user, menu, rng.choice(groups).custom_id))  # type: ignore[arg-type]
            [menu] = h.ephemeral_for(user, since=mark)
        raise AssertionError("the menu never offered a move")

    async def intruder(self, user: FakeUser, record: Any) -> None:
        """Someone whose turn it is not presses a move button: refused, nothing changes."""
        h = self.h
        public = latest_public(h)
        acts = [b for b in public.buttons if kind_of(b.custom_id) in ("act", "pact")]
        if not acts:
            return
        mark = h.mark()
        await h.run(h.click(user, public, self.rng.choice(acts).custom_id))  # type: ignore[arg-type]
        answers = h.ephemeral_for(user, since=mark)
        assert len(answers) == 1 and answers[0].content.startswith("⚠️")
        assert h.channel_messages(since=mark) == []
        assert (await self.record()).version == record.version
        self.routes["refused"] += 1


def assert_final(h: Harness, msg: Sent) -> None:
    assert text(ALICE, "result.header") in msg.content
    assert msg.files and msg.files[0].is_png
    assert [b.label for b in msg.buttons] == ["Rematch"]  # the only button left on a finished game


# -- countdown -----------------------------------------------------------------------------------


async def countdown_slash(player: Player, user: FakeUser, action: dict[str, Any], legal: Any) -> None:
    await player.h.run(player.h.slash(user, "countdown take", n=action["n"]))


@pytest.mark.wholegame
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_random_game_of_countdown_leaks_no_lucky_number(h: Harness, seed: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_seed(monkeypatch, 1000 + seed)
    rng = random.Random(seed)
    players = USERS[: 2 + seed % 3]
    await open_table(h, players[0], players[1:], options=f"start={rng.randint(12, 30)}")
    player = Player(h, rng, "countdown", countdown_slash)
    secrets = (await player.record()).state["secrets"]
    lucky = [re.compile(rf"(?<!\d){n}(?!\d)") for n in secrets.values()]
    # every public message, the lobby included, is checked for the numbers
    checked = 0
    steps = 0
    while await player.step():
        steps += 1
        assert steps < 100
        record = await player.record()
        for msg in h.channel_messages()[checked:]:
            visible = " ".join([msg.content] + [b.label or "" for b in msg.buttons])
            assert not any(p.search(visible) for p in lucky), msg.content
            assert "private" not in msg.content
        latest = h.channel_messages()[-1]
        if record.status == "running":
            # the turn message: the board, the buttons, who is next (pinged, and only them)
            assert latest.files and latest.files[0].is_png
            assert {kind_of(b.custom_id) for b in latest.buttons} >= {"act", "menu", "hand"}
            [next_seat] = player.rules.to_act(player.rules.load(record.state))
            next_user = next(s.user_id for s in record.seats if s.seat == next_seat)
            assert re.findall(r"<@(\d+)>", latest.content) == [str(next_user)]
            am = latest.allowed_mentions
            assert am is not None and am["parse"] == [] and am["users"] == [next_user]
        checked = len(h.channel_messages())
    final = h.channel_messages()[-1]
    assert_final(h, final)
    record = await player.record()
    assert record.status == "finished" and record.state["counter"] == 0
    winner = next(s for s in record.seats if s.seat == record.state["winner"])
    assert winner.name in final.content
    assert player.routes["menu"] + player.routes["quick"] + player.routes["slash"] == steps
    # the game is over: a button of it now says so
    mark = h.mark()
    first_turn = next(m for m in h.channel_messages() if m.files)
    await h.run(h.click(players[0], first_turn, first_turn.buttons[0].custom_id))  # type: ignore[arg-type]
    [answer] = h.ephemeral_for(players[0], since=mark)
    assert answer.content.startswith("⚠️")


# -- detour ------------------------------------------------------------------------------------


async def detour_slash(player: Player, user: FakeUser, action: dict[str, Any], legal: list[dict[str, Any]]) -> None:
    h = player.h
    kind = action["type"]
    if kind == "choose":
        values: dict[str, Any] = {"card": action["card"]}
        if "colour" in action:
            values["colour"] = action["colour"]
        await h.run(h.slash(user, "detour choose", **values))
    elif kind == "move":
        await h.run(h.slash(user, "detour move"))
    else:
        # a targeted card: ask the autocomplete, then submit the value it offered for this action
        ask = h.autocomplete(user, f"detour {kind}", "target", "")
        await h.run(ask)
        [cb] = h.callbacks_for(ask)
        assert cb.type == 8
        offered = {c["value"]: c["name"] for c in cb.choices}
        wanted = {action_hash(a) for a in legal if a["type"] == kind}
        from bot.gameui import action_key

        keys = {action_key(a): action_hash(a) for a in legal if a["type"] == kind}
        assert {keys.get(v, v) for v in offered} == wanted, "autocomplete must offer exactly the legal targets"
        value = next(v for v in offered if keys.get(v, v) == action_hash(action))
        await h.run(h.slash(user, f"detour {kind}", target=value))


def _assert_public_pings(new: list[Sent], human_ids: set[int]) -> None:
    """Channel messages: nothing private, and they ping exactly the humans they name."""
    for msg in new:
        assert "private" not in msg.content
        am = msg.allowed_mentions
        assert am is not None and am["parse"] == [] and not am.get("roles")
        mentioned = {int(x) for x in re.findall(r"<@(\d+)>", msg.content)}
        assert {int(u) for u in am["users"]} == mentioned <= human_ids  # pings exactly who is named
        if any(kind_of(b.custom_id) == "menu" for b in msg.buttons):
            # a turn message names who must act; those already pinged for this step are named
            # in bold instead of being pinged again
            assert mentioned or re.search(r"\*\*[^*]+\*\*", msg.content), "a turn message names who must act"


def _assert_chosen_cards_hidden(rules: Any, state: Any, public: dict[str, Any]) -> None:
    """A card chosen but not yet revealed cannot be told from the public view: swapping it
    for any other card still in that hand gives the same view."""
    for p, card in enumerate(state.chosen):
        if not card:
            continue
        for other in (10, 8, 6, 5):
            if other == card or not state.hand[p] & {10: 1, 8: 2, 6: 4, 5: 8}[other]:
                continue
            twin = copy.deepcopy(state)
            twin.chosen[p] = other
            assert rules.view(twin, None) == public


@pytest.mark.wholegame
@pytest.mark.parametrize(("humans", "ai"), [(3, 1), (2, 0)])
async def test_a_random_game_of_detour_keeps_chosen_cards_secret(
        h: Harness, monkeypatch: pytest.MonkeyPatch, humans: int, ai: int) -> None:
    pytest.importorskip("bot.games.detour")
    pytest.importorskip("render.detour")
    fixed_seed(monkeypatch, 4242 + humans)
    import render.detour

    rendered: list[dict[str, Any]] = []
    real_render = render.detour.render_board

    def spy(view: dict[str, Any], **kw: Any) -> bytes:
        rendered.append(copy.deepcopy(view))
        return real_render(view, **kw)

    monkeypatch.setattr(render.detour, "render_board", spy)
    rng = random.Random(7 + humans)
    await open_table(h, ALICE, USERS[1:humans], game="detour", ai=ai)
    player = Player(h, rng, "detour", detour_slash)
    rules = player.rules
    record = await player.record()
    assert sum(s.is_bot for s in record.seats) == ai and len(record.seats) == humans + ai
    human_ids = {s.user_id for s in record.seats if not s.is_bot}
    checked = 0
    steps = 0
    while True:
        record = await player.record()
        state = rules.load(record.state)
        public = rules.view(state, None)
        assert "private" not in public
        _assert_public_pings(h.channel_messages()[checked:], human_ids)
        if state.phase == "choose":
            _assert_chosen_cards_hidden(rules, state, public)
        checked = len(h.channel_messages())
        if not await player.step():
            break
        steps += 1
        assert steps < 400
    final = h.channel_messages()[-1]
    assert_final(h, final)
    # secret choices never appear in the log's public events before the reveal
    log = await h.bot.store.actions(record.id)
    for entry in log:
        if entry.action["type"] == "choose" and not any(e["type"] == "reveal" for e in entry.events):
            assert all("card" not in e for e in entry.events), entry.events
    assert any(e.actor == "ai" for e in log) == (ai > 0)
    assert player.routes["menu"] > 0 and player.routes["slash"] > 0
    # what the renderer was given: the public view only, no chosen card before the reveal
    assert len(rendered) >= 5
    for view in rendered:
        assert "private" not in view
        if view["phase"] == "choose":
            assert all(p["card"] is None for p in view["pawns"])


# -- rails-and-sails: big menus ----------------------------------------------------------------------


@pytest.mark.wholegame
async def test_rails_and_sails_moves_through_the_paged_menus(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first turns of a real game with many legal moves: grouped menus, selects, pages;
    every message within Discord's limits (the fake API rejects the rest)."""
    pytest.importorskip("bot.games.rails_and_sails")
    pytest.importorskip("render.rails_and_sails")
    fixed_seed(monkeypatch, 99)
    rng = random.Random(99)
    await open_table(h, ALICE, [BOB, CAROL], game="rails-and-sails")
    player = Player(h, rng, "rails-and-sails")
    for _ in range(14):
        if not await player.step():
            break
    assert h.limit_violations == []
    assert player.routes["menu"] >= 5
    kinds = {kind_of(c.custom_id) for s in h.followups() for c in s.components}
    assert "psel" in kinds, "no select menu was ever offered"
    # the claim autocomplete answers the player to act with legal routes only
    record = await player.record()
    state = player.rules.load(record.state)
    seat = player.rules.to_act(state)[0]
    user = next(u for u in USERS if u.id == next(s.user_id for s in record.seats if s.seat == seat))
    ask = h.autocomplete(user, "rails claim", "route", "")
    await h.run(ask)
    [cb] = h.callbacks_for(ask)
    assert cb.type == 8 and len(cb.choices) <= 25
    legal = {action_hash(a) for a in player.rules.legal_actions(state, seat)}
    from bot.gameui import action_key

    keys = {action_key(a): action_hash(a) for a in player.rules.legal_actions(state, seat)}
    assert all(keys.get(c["value"], c["value"]) in legal for c in cb.choices)
    assert all(1 <= len(c["name"]) <= 100 and 1 <= len(c["value"]) <= 100 for c in cb.choices)
