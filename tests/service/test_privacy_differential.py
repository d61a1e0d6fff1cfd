"""Public messages are a function of the public view only, checked by difference.

For every game and several mid-game states (fewest and most players, different phases), the
state is written into a fresh store as the game's current state, once as played and once per
`Rules.resample_hidden` re-deal (same public view, other hands, decks and secret choices).
Then the table service builds every public message from the store: the turn message after
the move that led there (text, board image bytes, buttons with labels and custom ids), the
reminder (`tick`), and the `/game status` reply to someone who is not playing. They must be
byte-identical: anything that differs leaks a secret (as the around-the-world "Travel
(cheapest cards)" button once did, its custom id naming the cards in the hand).

A re-deal must change the secret choices too, not only the cards: the choices a seat has made
and the table has not seen yet (`SECRET_CHOICES`) are compared, and the cases include the
set-up drafts of every game that has one: the eighty-days adventure and assistant drafts (a
kept Jean once showed in the public suitcase), the detour card chosen for the first round,
the rails-and-sails tickets kept and the piece mix chosen. Around-the-world deals its hands
and has no secret choice.
"""

from __future__ import annotations

import pkgutil
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine.games
from bot.replies import Button, Reply, Select, User, Where
from bot.service import TableService, action_hash, parse_custom_id
from bot.settings import Settings
from bot.store import SQLiteStore
from engine import Rules, registry
from tests.conftest import Clock

HERE = Where(channel_id=4242, guild_id=7, guild_locale="en-US")
PLAYERS = [User(100 + k, name, loc) for k, (name, loc) in enumerate(
    [("Alice", "en-US"), ("Bob", "de"), ("Carol", "fr"), ("Dan", "en-GB"), ("Erin", "de"), ("Finn", "fr")])]
ONLOOKER = User(999, "Eve", "en-US")
VARIANTS = (1, 2, 3, 4)
MAX_STEPS = 5000

Want = Callable[[Rules, Any], bool]


def atw_can_travel_with_cards(rules: Rules, state: Any) -> bool:
    """The actor is in the travel phase and holds cards for the next leg."""
    [seat] = rules.to_act(state) or [None]
    return seat is not None and state.phase == "travel" and any(
        a["type"] == "travel" and a["cards"] for a in rules.legal_actions(state, seat))


def phase(name: str) -> Want:
    return lambda rules, state: not rules.is_over(state) and state.phase == name


def detour_secret_chosen(rules: Rules, state: Any) -> bool:
    """A card is chosen, not yet revealed, from a hand of more than one card."""
    return state.phase == "choose" and any(c and bin(state.hand[p]).count("1") > 1 for p, c in enumerate(state.chosen))


def rails_second_draw(rules: Rules, state: Any) -> bool:
    return state.phase == "play" and state.drawn == 1


def rails_mix_secret(rules: Rules, state: Any) -> bool:
    return state.phase == "setup_pieces" and any(m is not None for m in state.mix)


def days_turn_or_draft(rules: Rules, state: Any) -> bool:
    """A period under way, or a secret adventure draft open (the held cards differ per re-deal)."""
    return state.phase == "play" and (any(state.pending) or not state.acted)


def days_assistant_kept_in_secret(rules: Rules, state: Any) -> bool:
    """The setup drafts with the assistants module: a seat has kept its assistant while
    another is still choosing (the kept one shows only when all have chosen)."""
    return state.phase == "setup" and any(state.assistant) and any(
        e["kind"] == "assistant" for queue in state.pending for e in queue)


def no_secret_choices(state: Any) -> dict[str, Any]:
    """Around-the-world: hands are dealt, nothing is chosen in secret."""
    return {}


def detour_secret_choices(state: Any) -> dict[str, Any]:
    """The card each pawn has chosen before the reveal."""
    return {f"chosen {p}": c for p, c in enumerate(state.chosen) if c}


def rails_secret_choices(state: Any) -> dict[str, Any]:
    """The tickets each seat kept (at the setup and later) and, before the reveal, its piece mix."""
    kept = {f"tickets {j}": sorted(t) for j, t in enumerate(state.tickets) if t}
    if state.phase == "setup_pieces":
        kept |= {f"mix {j}": m for j, m in enumerate(state.mix) if m is not None}
    return kept


def days_secret_choices(state: Any) -> dict[str, Any]:
    """The adventure each seat kept from a draft and, during the setup, its kept assistant."""
    kept = {f"adventure {i}": c for i, c in enumerate(state.adventure) if c}
    if state.phase == "setup":
        kept |= {f"assistant {i}": a for i, a in enumerate(state.assistant) if a}
    return kept


#: game -> the secret choices made in a state (what a re-deal must choose again)
SECRET_CHOICES: dict[str, Callable[[Any], dict[str, Any]]] = {
    "around-the-world": no_secret_choices, "detour": detour_secret_choices,
    "rails-and-sails": rails_secret_choices, "eighty-days": days_secret_choices,
}

CASES: list[tuple[str, int, int, int, Want, dict[str, Any]]] = [
    # game, players, seed, first step to consider, which state, options
    ("around-the-world", 2, 11, 0, atw_can_travel_with_cards, {}),
    ("around-the-world", 6, 12, 20, atw_can_travel_with_cards, {}),
    ("around-the-world", 6, 13, 5, phase("take"), {}),
    ("around-the-world", 3, 14, 10, phase("action"), {}),
    ("detour", 2, 21, 0, detour_secret_chosen, {}),  # the first round's choice
    ("detour", 4, 22, 6, detour_secret_chosen, {}),
    ("detour", 3, 23, 12, detour_secret_chosen, {}),
    ("rails-and-sails", 2, 31, 0, phase("setup_tickets"), {}),  # one seat's setup tickets kept
    ("rails-and-sails", 5, 32, 0, rails_mix_secret, {}),
    ("rails-and-sails", 2, 33, 20, rails_second_draw, {}),
    ("rails-and-sails", 5, 34, 30, phase("play"), {}),
    ("eighty-days", 2, 41, 0, phase("setup"), {}),  # one seat's setup adventure kept
    ("eighty-days", 3, 59, 0, days_assistant_kept_in_secret, {"assistants": True, "side": "B"}),  # Jean kept
    ("eighty-days", 4, 50, 0, days_assistant_kept_in_secret, {"assistants": True}),  # Jean kept
    ("eighty-days", 4, 42, 10, days_turn_or_draft, {}),
    ("eighty-days", 3, 43, 60, phase("play"), {}),
]


def find_state(rules: Rules, players: int, seed: int, start: int, want: Want,
               options: dict[str, Any] | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Random play until a move leads to a wanted state: that state and the move's events."""
    rnd = random.Random(seed)
    state = rules.new_game([f"p{k + 1}" for k in range(players)], seed, options)
    for step in range(MAX_STEPS):
        if rules.is_over(state):
            break
        seat = rnd.choice(rules.to_act(state))
        events = rules.apply(state, seat, rnd.choice(rules.legal_actions(state, seat)))
        if step >= start and not rules.is_over(state) and want(rules, state):
            return state, events
    raise AssertionError("no such state in this random game; pick another seed")


def canonical(reply: Reply) -> tuple[Any, ...]:
    return (reply.to, reply.text, reply.user_id, reply.channel_id,
            [(f.filename, f.data) for f in reply.files], reply.rows, reply.mentions)


async def table_at(path: Path, game: str, players: int, state: Any,
                   options: dict[str, Any] | None = None) -> tuple[TableService, SQLiteStore, Clock]:
    """A fresh store with an all-human table (with these game options) whose game is at
    `state` (written the way a move is committed, with a reminder due). The caller closes the
    store."""
    rules = registry.get(game)
    store = SQLiteStore(path)
    await store.open()
    clock = Clock()
    service = TableService(store, Settings(reminder_hours=12, timeout_hours=48), clock=clock, render_in_thread=False)
    users = PLAYERS[:players]
    await service.new_game(users[0], HERE, game, options=options, language="en", seed=5)
    for user in users[1:]:
        await service.join(user, HERE)
    await service.start(users[0], HERE)
    record = await store.active_game(HERE.channel_id)
    assert record is not None and record.status == "running"
    await store.commit_action(record, expected_version=record.version, seat="p1", action={"type": "injected"},
                              events=[], state=rules.dump(state), status="running", actor="test",
                              remind_at=clock() - 1, timeout_at=None)
    return service, store, clock


async def public_messages(path: Path, game: str, players: int, state: Any, events: list[dict[str, Any]],
                          options: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every public message the service builds for a table (all human) whose game is at `state`."""
    service, store, _ = await table_at(path, game, players, state, options)
    try:
        record = await store.active_game(HERE.channel_id)
        assert record is not None
        turn = await service.parts.turns.publish(service.load(record), "move", events)
        turn = [r for r in turn if r.to == "channel"]
        status = await service.status(ONLOOKER, HERE)
        reminder = await service.tick()
        assert len(turn) == 1 and len(status) == 1 and len(reminder) == 1
        return [canonical(r) for r in turn + status + reminder]
    finally:
        await store.close()


@pytest.mark.parametrize(("game", "players", "seed", "start", "want", "options"), CASES,
                         ids=[f"{c[0]}-{c[1]}p-{getattr(c[4], '__name__', 'phase')}-{c[2]}" for c in CASES])
async def test_public_messages_do_not_depend_on_hidden_information(
        tmp_path: Path, game: str, players: int, seed: int, start: int, want: Want, options: dict[str, Any]) -> None:
    rules = registry.get(game)
    state, events = find_state(rules, players, seed, start, want, options)
    expected = await public_messages(tmp_path / "played.sqlite3", game, players, state, events, options)
    hidden = {k: v for k, v in rules.dump(state).items() if k != "rng"}
    secret = SECRET_CHOICES[game]
    chosen = secret(state)
    redealt = rechosen = 0
    for k in VARIANTS:
        other = rules.resample_hidden(state, k)
        assert rules.view(other, None) == rules.view(state, None), f"the public view shows a secret (re-deal {k})"
        redealt += {k: v for k, v in rules.dump(other).items() if k != "rng"} != hidden
        rechosen += secret(other) != chosen
        got = await public_messages(tmp_path / f"redealt{k}.sqlite3", game, players, other, events, options)
        for mine, theirs, what in zip(got, expected, ("turn message", "/game status", "reminder"), strict=True):
            assert mine == theirs, f"the {what} depends on hidden information (re-deal {k})"
    assert redealt, "no re-deal changed anything hidden: the comparison proves nothing"
    assert rechosen or not chosen, f"no re-deal chose {sorted(chosen)} again: the secret choices went untested"


def test_every_game_names_its_secret_choices() -> None:
    """A game added under engine/games must say what its seats choose in secret."""
    games = {m.name.replace("_", "-") for m in pkgutil.iter_modules(engine.games.__path__) if m.ispkg}
    assert games == set(SECRET_CHOICES)


def test_the_setup_cases_hold_secret_choices() -> None:
    """Every game with secret choices has a case at its start (the setup drafts, detour's first
    round) where one is made and not yet revealed; the eighty-days assistant cases hold a
    kept Jean, whose second suitcase a public view once showed."""
    made: dict[str, list[dict[str, Any]]] = {game: [] for game in SECRET_CHOICES}
    for game, players, seed, start, want, options in CASES:
        if start == 0:
            state, _ = find_state(registry.get(game), players, seed, start, want, options)
            made[game].append(SECRET_CHOICES[game](state))
            if want is days_assistant_kept_in_secret:
                assert "jean" in state.assistant
    assert all(any(m) for game, m in made.items() if SECRET_CHOICES[game] is not no_secret_choices), made


def buttons(reply: Reply) -> list[Button]:
    return [c for row in reply.rows for c in row if isinstance(c, Button)]


async def test_atw_travel_button_opens_the_players_own_travels_or_refuses(tmp_path: Path) -> None:
    """The public "Travel…" button says only that travelling is possible in this phase; pressed,
    it shows the presser their own travels (privately), or privately refuses when they have
    none; it never moves anything by itself."""
    rules = registry.get("around-the-world")
    state, _ = find_state(rules, 2, 11, 0, atw_can_travel_with_cards)
    [actor] = rules.to_act(state)
    user = PLAYERS[int(actor[1:]) - 1]
    other = PLAYERS[2 - int(actor[1:])]
    travels = {action_hash(a) for a in rules.legal_actions(state, actor)
               if a["type"] == "travel" and "balloon" not in a}
    broke = rules.load(rules.dump(state))
    i = broke.seats.index(actor)
    broke.travel_deck += broke.hand[i]
    broke.hand[i] = []  # nothing to travel with (the count changes; the button may not)
    labels = []
    for name, at in (("holds", state), ("broke", broke)):
        service, store, _ = await table_at(tmp_path / f"{name}.sqlite3", "around-the-world", 2, at)
        try:
            [status] = await service.status(ONLOOKER, HERE)
            [travel] = [b for b in buttons(status) if parse_custom_id(b.custom_id)[2:] == ("menu", "g=travel;p=0")]
            labels.append(travel.label)
            version = (await store.active_game(HERE.channel_id)).version
            [refused] = await service.component(other, HERE, travel.custom_id)
            assert refused.to == "ephemeral" and refused.text.startswith("⚠️") and refused.rows == []
            [menu] = await service.component(user, HERE, travel.custom_id)
            assert menu.to == "ephemeral" and menu.user_id == user.id
            if name == "holds":
                offered = {o.value for row in menu.rows for c in row if isinstance(c, Select) for o in c.options}
                assert offered == travels
            else:
                assert menu.text.startswith("⚠️") and menu.rows == []
            assert (await store.active_game(HERE.channel_id)).version == version
        finally:
            await store.close()
    assert labels == ["Travel…", "Travel…"]
