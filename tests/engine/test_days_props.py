"""eighty-days: property tests over random legal play (2-4 players, every option)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, registry
from engine.games.eighty_days import content as C

RULES = registry.get("eighty-days")
MAX_STEPS = 5000

OPTIONS = st.fixed_dictionaries({"side": st.sampled_from(["A", "B"]), "assistants": st.booleans(),
                                 "colors_festival": st.booleans()})


def variants(action: dict) -> list[object]:
    """Near misses of a legal action: other values, missing and extra keys."""
    out: list[object] = [None, "pass", {}, {"type": 3}, {**action, "extra": 1}, {"type": "teleport"},
                         {"type": "keep_adventure", "card": "adv99"}, {"type": "take_item", "item": "hat"},
                         {"type": "travel", "line": "l01", "area": "train"}, {"type": "pass", "tile": "swap"},
                         {"type": "albert", "keep": 1}, {"type": "juggle", "stack": True}, {"type": "end_turn"}]
    for key in action:
        if key != "type":
            out.append({k: v for k, v in action.items() if k != key})
            for other in ("l05", "hat", "coat", "bazaar", "special", 0, 2, "me_first", "adv01", "paul", [1]):
                out.append({**action, key: other})
    return out


def check_view(state, events) -> None:
    public = RULES.view(state, None)
    assert "private" not in public
    assert json.loads(json.dumps(public)) == public
    assert all(isinstance(e["type"], str) for e in events)
    assert json.loads(json.dumps(events)) == events
    text = json.dumps([{k: v for k, v in e.items() if k != "private"} for e in events])
    # held cards never appear in public events
    for card in state.adventure:
        if card:
            assert f'"{card}"' not in text or card in {c for d in state.diary for c in d}


@settings(max_examples=15, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=10_000),
       options=OPTIONS, data=st.data())
def test_random_legal_play(players: int, seed: int, options: dict, data: st.DataObject) -> None:
    seats = [f"p{i + 1}" for i in range(players)]
    state = RULES.new_game(seats, seed, options)
    replay = RULES.new_game(seats, seed, options)
    rnd = random.Random(data.draw(st.integers(0, 1000)))
    steps = 0
    while not RULES.is_over(state):
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        to_act = RULES.to_act(state)
        assert to_act
        for seat in seats:
            legal = RULES.legal_actions(state, seat)
            assert bool(legal) == (seat in to_act), (seat, to_act, legal)
        seat = rnd.choice(to_act)
        legal = RULES.legal_actions(state, seat)
        action = rnd.choice(legal)
        assert RULES.is_legal(state, seat, action)
        before = RULES.dump(state)
        if steps % 5 == 0:
            for bad in variants(action):
                if bad in legal:
                    assert RULES.is_legal(state, seat, bad)
                    continue
                assert not RULES.is_legal(state, seat, bad), bad
                try:
                    RULES.apply(state, seat, bad)
                except IllegalAction as exc:
                    assert exc.code and exc.message
                else:
                    raise AssertionError(f"accepted an illegal action {bad!r}")
                assert RULES.dump(state) == before
        if steps % 7 == 0:
            ai = RULES.ai_action(state, seat)
            assert ai in legal
        events = RULES.apply(state, seat, action)
        RULES.apply(replay, seat, action)
        check_view(state, events)
        dumped = RULES.dump(state)
        assert json.loads(json.dumps(dumped)) == dumped
        assert RULES.load(dumped) == state
        assert RULES.dump(replay) == dumped
    result = RULES.result(state)
    assert result["winners"] and sorted(r["seat"] for r in result["ranking"]) == sorted(seats)
    assert result["ranking"][0]["rank"] == 1
    assert all(RULES.legal_actions(state, s) == [] for s in seats) and RULES.to_act(state) == []
    # item conservation: suitcases + Matilda + supply = the box
    for k in range(5):
        total = state.supply[k] + sum(items[k] for items in state.items)
        total += sum(state.matilda) if k == C.REVOLVER else 0
        assert total == C.ITEM_COUNTS[k]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=10_000),
       options=OPTIONS)
def test_ai_games_end_and_play_legally(players: int, seed: int, options: dict) -> None:
    seats = [f"p{i + 1}" for i in range(players)]
    state = RULES.new_game(seats, seed, options)
    steps = 0
    while not RULES.is_over(state):
        steps += 1
        assert steps < MAX_STEPS
        seat = RULES.to_act(state)[0]
        action = RULES.ai_action(state, seat)
        assert action in RULES.legal_actions(state, seat)
        RULES.apply(state, seat, action)
    assert RULES.result(state)["winners"]


def test_options_are_validated() -> None:
    for bad in ({"side": "C"}, {"assistants": "yes"}, {"colors": True}):
        try:
            RULES.new_game(["a", "b"], 1, bad)
        except IllegalAction as exc:
            assert exc.code in ("bad_option", "unknown_option")
        else:
            raise AssertionError(bad)
