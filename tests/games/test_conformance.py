"""One conformance suite over every registered game: what the platform relies on, checked
for each game the registry knows, so a new game gets all of it by registering.

Random seeded play (hypothesis picks seeds, player counts and moves) checks at every step:
determinism from the seed, `load(dump(s))` round trip and JSON safety, `to_act` and
`legal_actions` agree, `is_legal` agrees with `legal_actions`, refusals (malformed, out of
turn, mutated moves) leave the state byte-identical, no `"private"` in public views or
public parts of events, `result` is None until the end, games end, and the AI policy picks a
legal action from the seat's view alone. `determinize` rebuilds, from one seat's view (or the
public one), a state with that very view and the seat's legal actions, playable to the end,
dealing hidden parts differently for different seeds. Boards and hands render in every
language for the fewest and the most players.
"""

from __future__ import annotations

import copy
import io
import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games import specs
from bot.i18n import LANGUAGES
from engine import IllegalAction

SPECS = {game_id: spec for game_id, spec in specs().items() if game_id != "countdown"}
GAMES = sorted(SPECS)
MAX_STEPS = 5_000
MALFORMED: list[Any] = [None, "move", 7, [], {}, {"type": None}, {"type": 3}, {"type": "no-such-move"}]


def dumped(rules: Any, state: Any) -> str:
    return json.dumps(rules.dump(state), sort_keys=True)


def mutations(action: dict[str, Any]) -> list[dict[str, Any]]:
    """Moves that look like `action` but differ in one field (usually illegal)."""
    out = []
    for key, value in action.items():
        if key == "type":
            continue
        changed = copy.deepcopy(action)
        if isinstance(value, bool):
            changed[key] = not value
        elif isinstance(value, int):
            changed[key] = value + 97
        elif isinstance(value, str):
            changed[key] = value + "-x"
        elif isinstance(value, list):
            changed[key] = value + value[:1] if value else ["x"]
        else:
            changed[key] = None
        out.append(changed)
    extra = dict(action)
    extra["unexpected"] = 1
    out.append(extra)
    return out


def check_step(spec: Any, state: Any, seats: list[str], rnd: random.Random) -> None:
    rules = spec.rules
    text = dumped(rules, state)
    assert dumped(rules, rules.load(json.loads(text))) == text, "load(dump(s)) round trip"
    public = rules.view(state, None)
    assert "private" not in public and json.loads(json.dumps(public)) == public
    assert rules.result(state) is None, "no result while the game runs"
    to_act = rules.to_act(state)
    assert to_act and set(to_act) <= set(seats)
    for seat in seats:
        legal = rules.legal_actions(state, seat)
        assert bool(legal) == (seat in to_act), (seat, to_act)
        assert all(json.loads(json.dumps(a)) == a and isinstance(a.get("type"), str) for a in legal)
        sample = rnd.sample(legal, min(3, len(legal)))
        assert all(rules.is_legal(state, seat, a) for a in sample)
    seat = rnd.choice(to_act)
    legal = rules.legal_actions(state, seat)
    others = [s for s in seats if s not in to_act]
    candidates: list[tuple[str, Any]] = [(seat, bad) for bad in MALFORMED]
    candidates += [(seat, m) for a in rnd.sample(legal, min(2, len(legal))) for m in mutations(a)]
    if others:
        candidates.append((rnd.choice(others), legal[0]))
    for who, action in candidates:
        allowed = who in to_act and isinstance(action, dict) and action in rules.legal_actions(state, who)
        if isinstance(action, dict) and isinstance(action.get("type"), str):
            says = rules.is_legal(state, who, action)
            if says and not allowed:
                # only where the game lists a sample of the legal variants, and then `apply` agrees
                assert action["type"] in rules.sampled_types, (who, action)
                probe = rules.load(json.loads(text))
                rules.apply(probe, who, action)
                continue
            assert says == allowed, (who, action)
        if allowed:
            continue
        with pytest.raises(IllegalAction):
            rules.apply(state, who, action)
        assert dumped(rules, state) == text, f"a refused {action!r} changed the state"
    policy_choice = spec.ai(rules.view(state, seat), seat, legal)
    assert policy_choice in legal, "the AI policy chose an illegal move"


def play(spec: Any, players: int, seed: int, rnd: random.Random, *, checks: int) -> None:
    rules = spec.rules
    seats = [f"p{i + 1}" for i in range(players)]
    state = rules.new_game(seats, seed, {})
    twin = rules.new_game(seats, seed, {})
    assert dumped(rules, state) == dumped(rules, twin), "new_game is deterministic"
    check_every = max(1, 400 // checks)
    for step in range(MAX_STEPS):
        if rules.is_over(state):
            break
        if step % check_every == 0:
            check_step(spec, state, seats, rnd)
        seat = rnd.choice(rules.to_act(state))
        legal = rules.legal_actions(state, seat)
        action = rnd.choice(legal) if rnd.random() < 0.7 else spec.ai(rules.view(state, seat), seat, legal)
        events = rules.apply(state, seat, action)
        twin_events = rules.push(twin, seat, action)
        assert events == twin_events and dumped(rules, state) == dumped(rules, twin), "replay is exact, push ≡ apply"
        for event in events:
            assert "private" not in {k: v for k, v in event.items() if k != "private"}
            json.dumps(event)
    else:
        raise AssertionError(f"{spec.id} with {players} players did not end in {MAX_STEPS} moves")
    result = rules.result(state)
    assert result is not None and result["winners"] and set(result["winners"]) <= set(seats)
    ranks = [entry["rank"] for entry in result["ranking"]]
    assert sorted(e["seat"] for e in result["ranking"]) == sorted(seats) and min(ranks) == 1
    assert rules.to_act(state) == [] and all(rules.legal_actions(state, s) == [] for s in seats)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_play_keeps_every_promise(game: str, data: st.DataObject) -> None:
    spec = SPECS[game]
    players = data.draw(st.integers(spec.rules.min_players, spec.rules.max_players), label="players")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    play(spec, players, seed, random.Random(seed), checks=25)


DETERMINIZE_SEEDS = (11, 12, 13)
DETERMINIZE_POINTS = 4


def option_sets(rules: Any) -> list[dict[str, Any]]:
    """Every combination of the game's listed option values (one empty set for a game without)."""
    keys = sorted(k for k, v in rules.option_choices.items() if isinstance(v, list))
    combos = itertools.product(*(rules.option_choices[k] for k in keys))
    return [dict(zip(keys, combo, strict=True)) for combo in combos]


def random_points(rules: Any, seats: list[str], seed: int, count: int, options: dict[str, Any]) -> list[Any]:
    """Copies of the states met in one seeded random game: its start, `count` random decision
    points and its end."""
    rnd = random.Random(seed)
    state = rules.new_game(seats, seed, options)
    states = []
    while not rules.is_over(state):
        states.append(rules.load(rules.dump(state)))
        seat = rnd.choice(rules.to_act(state))
        rules.apply(state, seat, rnd.choice(rules.legal_actions(state, seat)))
    return [states[0], *rnd.sample(states[1:], min(count, len(states) - 1)), state]


def hidden_parts(rules: Any, state: Any) -> str:
    """The dumped state without the generator: what a different deal must change."""
    return json.dumps({k: v for k, v in rules.dump(state).items() if k != "rng"}, sort_keys=True)


def play_out(rules: Any, state: Any, rnd: random.Random) -> None:
    """Random legal moves to the end: every one accepted, the state round-trips on the way."""
    for step in range(MAX_STEPS):
        if rules.is_over(state):
            return
        seat = rnd.choice(rules.to_act(state))
        rules.apply(state, seat, rnd.choice(rules.legal_actions(state, seat)))
        if step % 25 == 0:
            assert rules.load(json.loads(dumped(rules, state))) == state, "load(dump(s)) round trip"
    raise AssertionError(f"{rules.id}: a determinized game did not end in {MAX_STEPS} moves")


@pytest.mark.parametrize("game", GAMES)
def test_determinize_rebuilds_what_a_seat_knows(game: str) -> None:
    """At the start, the end and random decision points (several seeds and option sets, the fewest
    and the most players), for every seat and the public view: the rebuilt state shows that very
    view, gives the seat the same legal actions and whose turn it is, is deterministic in its
    seed, leaves the view alone, and plays to the end; another seed deals the hidden parts
    differently at least sometimes."""
    rules = SPECS[game].rules
    options = option_sets(rules)
    points = dealt_apart = 0
    for j, players in enumerate(sorted({rules.min_players, rules.max_players})):
        seats = [f"p{i + 1}" for i in range(players)]
        for i, seed in enumerate(DETERMINIZE_SEEDS):
            rnd = random.Random(seed)
            chosen = options[(i * 2 + j) * 3 % len(options)]  # a spread of the option sets
            for k, state in enumerate(random_points(rules, seats, seed, DETERMINIZE_POINTS, chosen)):
                player = rnd.choice(seats)
                for seat in [*seats, None]:
                    view = rules.view(state, seat)
                    given = json.loads(json.dumps(view))
                    rebuilt = rules.determinize(given, seat, k)
                    assert given == view, "determinize changed the view it was given"
                    assert rules.view(rebuilt, seat) == view, (seat, "the rebuilt state shows another view")
                    assert rules.to_act(rebuilt) == rules.to_act(state)
                    if seat is not None:
                        assert rules.legal_actions(rebuilt, seat) == rules.legal_actions(state, seat), seat
                    assert dumped(rules, rules.determinize(given, seat, k)) == dumped(rules, rebuilt), \
                        "determinize is not deterministic in its seed"
                    other = rules.determinize(given, seat, k + 1000)
                    points += 1
                    dealt_apart += hidden_parts(rules, other) != hidden_parts(rules, rebuilt)
                    if seat == player:
                        play_out(rules, rebuilt, random.Random(seed + k))
                        assert given == view, "the rebuilt state shares data with the view"
    assert dealt_apart, f"{game}: no two seeds ever dealt the hidden parts differently ({points} views)"


def png_size(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.size


@pytest.mark.parametrize("game", GAMES)
def test_board_and_hand_render_in_every_language(game: str) -> None:
    spec = SPECS[game]
    rules = spec.rules
    for players in sorted({rules.min_players, rules.max_players}):
        seats = [f"p{i + 1}" for i in range(players)]
        state = rules.new_game(seats, 1234 + players, {})
        rnd = random.Random(players)
        for _ in range(30):
            if rules.is_over(state):
                break
            seat = rnd.choice(rules.to_act(state))
            rules.apply(state, seat, rnd.choice(rules.legal_actions(state, seat)))
        names = {s: f"Player {s}" for s in seats}
        for lang in LANGUAGES:
            t = spec.ui.translator(lang)
            board = spec.renderer.render_board(rules.view(state, None), names=names, translator=t, lang=lang)
            assert len(board) < 500_000 and min(png_size(board)) > 200
            hand = spec.renderer.render_hand(rules.view(state, seats[0]), seats[0], names=names, translator=t,
                                             lang=lang)
            assert len(hand) < 500_000 and min(png_size(hand)) > 100
