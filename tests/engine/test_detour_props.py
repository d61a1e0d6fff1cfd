"""detour: property tests over random legal play (2, 3 and 4 players), driven by hypothesis."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, registry

RULES = registry.get("detour")
MAX_STEPS = 400  # a game is ~10-20 rounds of at most 8 decisions

BAD_ACTIONS = [
    None, "move", 7, {}, {"type": None}, {"type": "teleport"}, {"type": "choose"}, {"type": "choose", "card": 9},
    {"type": "choose", "card": 10, "colour": "red"}, {"type": "move", "extra": True},
    {"type": "detour", "target": "nobody"}, {"type": "backward", "target": 3}, {"type": "block"},
    {"type": "block", "target": "p1", "target_colour": "black"},
]


def _check_public_view(state, seat_cards: dict[str, list[int]]) -> None:
    public = RULES.view(state, None)
    assert "private" not in public
    text = json.dumps(public)
    assert json.loads(text) == public
    for key in ("game", "seats", "to_act", "over"):
        assert key in public
    if public["phase"] == "choose":
        # before the reveal nothing tells which card was chosen
        assert all(p["card"] is None for p in public["pawns"])
        assert all(len(p["hand"]) + len(p["played"]) == 4 for p in public["pawns"])


@settings(max_examples=25, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=10_000),
       data=st.data())
def test_random_legal_play(players: int, seed: int, data: st.DataObject) -> None:
    seats = [f"p{i + 1}" for i in range(players)]
    state = RULES.new_game(seats, seed)
    replay = RULES.new_game(seats, seed)
    assert RULES.dump(state) == RULES.dump(replay)
    steps = 0
    while not RULES.is_over(state):
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        to_act = RULES.to_act(state)
        assert to_act
        for seat in seats:
            legal = RULES.legal_actions(state, seat)
            assert bool(legal) == (seat in to_act), (seat, to_act, legal)
            assert all(json.loads(json.dumps(a)) == a for a in legal)
        _check_public_view(state, {})
        seat = data.draw(st.sampled_from(to_act))
        legal = RULES.legal_actions(state, seat)
        # something illegal first: refused, state unchanged
        before = RULES.dump(state)
        bad = data.draw(st.sampled_from(BAD_ACTIONS + [legal[0]]))
        if bad not in legal:
            try:
                RULES.apply(state, seat, bad)
            except IllegalAction as exc:
                assert exc.code and exc.message
            else:
                raise AssertionError(f"accepted an illegal action {bad!r}")
            assert RULES.dump(state) == before
        others = [s for s in seats if s not in to_act]
        if others:
            try:
                RULES.apply(state, others[0], {"type": "move"})
            except IllegalAction:
                pass
            else:
                raise AssertionError("a seat not in to_act acted")
            assert RULES.dump(state) == before
        action = data.draw(st.sampled_from(legal))
        events = RULES.apply(state, seat, action)
        RULES.apply(replay, seat, action)
        assert all(isinstance(e.get("type"), str) for e in events)
        assert json.loads(json.dumps(events)) == events
        dumped = RULES.dump(state)
        assert json.loads(json.dumps(dumped)) == dumped
        assert RULES.load(dumped) == state
        assert RULES.dump(replay) == dumped  # same seed + actions -> same state
    result = RULES.result(state)
    assert result["winners"] and len(result["winners"]) == 1
    assert sorted(r["seat"] for r in result["ranking"]) == sorted(seats)
    assert result["ranking"][0]["rank"] == 1
    assert all(RULES.legal_actions(state, s) == [] for s in seats)
    assert RULES.to_act(state) == []


@settings(max_examples=20, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=10_000),
       data=st.data())
def test_chosen_card_never_leaks_before_the_reveal(players: int, seed: int, data: st.DataObject) -> None:
    seats = [f"p{i + 1}" for i in range(players)]
    state = RULES.new_game(seats, seed)
    empty = json.dumps(RULES.view(state, None), sort_keys=True)
    # every seat but the last chooses something: the public view must not change except for the "chosen" flags
    for seat in seats[:-1]:
        while seat in RULES.to_act(state):
            action = data.draw(st.sampled_from(RULES.legal_actions(state, seat)))
            RULES.apply(state, seat, action)
            for other in seats:
                private = RULES.view(state, other)["private"]
                assert set(private["chosen"]) <= set(private["colours"])  # only its own secrets
    public = RULES.view(state, None)
    for p in public["pawns"]:
        p["chosen"] = False
    public["to_act"] = seats
    baseline = json.loads(empty)
    assert json.dumps(public, sort_keys=True) == json.dumps(baseline, sort_keys=True)
