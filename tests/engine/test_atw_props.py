"""Around the World in 80 Days: property tests over random legal games with 2-6 players."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st_

from engine import IllegalAction, registry
from engine.games.around_the_world import data as D

R = registry.get("around-the-world")
MAX_STEPS = 6000


def seats(n: int) -> list[str]:
    return [f"p{k + 1}" for k in range(n)]


def mutations(action: dict, rnd: random.Random) -> list[dict]:
    """Nearby actions that are probably illegal: wrong values, extra or missing keys."""
    out = [dict(action, extra=1), {"type": action["type"] + "x"}]
    for key, value in action.items():
        if key == "type":
            continue
        bad = dict(action)
        if isinstance(value, int):
            bad[key] = value + rnd.choice([7, -9])
        elif isinstance(value, str):
            bad[key] = value + "!"
        elif isinstance(value, list):
            bad[key] = value + ["ship:9"]
        out.append(bad)
        missing = dict(action)
        del missing[key]
        out.append(missing)
    return out


def play_checked(n: int, seed: int, policy: int, options: dict | None = None, check_every: int = 1):
    st = R.new_game(seats(n), seed, options or {})
    rnd = random.Random(policy)
    log = []
    steps = 0
    while not R.is_over(st):
        acting = R.to_act(st)
        assert len(acting) == 1
        who = acting[0]
        legal = R.legal_actions(st, who)
        assert legal, "the seat to act must have a legal action"
        for other in st.seats:
            if other != who:
                assert R.legal_actions(st, other) == []
        assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal), "duplicate legal actions"
        if steps % check_every == 0:
            dumped = R.dump(st)
            assert json.loads(json.dumps(dumped)) == dumped
            assert R.load(dumped) == st
            pub = R.view(st, None)
            assert "private" not in pub
            assert pub["to_act"] == acting and pub["over"] is False
            json.dumps(pub)
            mine = R.view(st, who)
            assert mine["private"]["travel"] == st.hand[st.seats.index(who)]
            assert R.ai_action(st, who) in legal  # the AI copes with any position, not only its own games
            # illegal actions are refused and change nothing
            before = json.dumps(dumped, sort_keys=True)
            for bad in mutations(rnd.choice(legal), rnd):
                if bad in legal:
                    continue
                try:
                    R.apply(st, who, bad)
                except IllegalAction as exc:
                    assert exc.code and exc.message
                else:
                    raise AssertionError(f"accepted illegal {bad}")
                assert json.dumps(R.dump(st), sort_keys=True) == before
            other = next(s for s in st.seats if s != who)
            try:
                R.apply(st, other, legal[0])
            except IllegalAction as exc:
                assert exc.code == "not_your_turn"
            else:
                raise AssertionError("accepted a move out of turn")
        action = rnd.choice(legal)
        events = R.apply(st, who, action)
        json.dumps(events)
        assert all(isinstance(e.get("type"), str) for e in events)
        log.append((who, action))
        steps += 1
        assert steps < MAX_STEPS, "game did not end"
    assert R.to_act(st) == [] and all(R.legal_actions(st, s) == [] for s in st.seats)
    res = R.result(st)
    assert sorted(r["seat"] for r in res["ranking"]) == sorted(st.seats)
    assert res["winners"] and all(r["rank"] >= 1 for r in res["ranking"])
    assert R.view(st, None)["result"] == res
    return st, log


@settings(max_examples=80, deadline=None)
@given(n=st_.integers(2, 6), seed=st_.integers(0, 10**6), policy=st_.integers(0, 10**6),
       option=st_.booleans(), end=st_.sampled_from(["french", "english"]))
def test_random_games_terminate_and_keep_every_invariant(n, seed, policy, option, end):
    options = {"elephant_leg_events": option, "two_player_end": end}
    st, log = play_checked(n, seed, policy, options, check_every=3)
    # conservation: every travel card is somewhere, gold is finite
    cards = st.travel_deck + st.travel_discard + [c for h in st.hand for c in h]
    assert sorted(cards) == sorted(D.travel_deck())
    assert sum(st.gold) + st.gold_supply == D.GOLD_TOTAL
    # determinism: replaying the log from the seed gives the same state
    again = R.new_game(seats(n), seed, options)
    for who, action in log:
        R.apply(again, who, action)
    assert R.dump(again) == R.dump(st)


@settings(max_examples=50, deadline=None)
@given(n=st_.integers(2, 6), seed=st_.integers(0, 10**6), policy=st_.integers(0, 10**6),
       cut=st_.integers(0, 300))
def test_public_view_reveals_no_hidden_card(n, seed, policy, cut):
    st = R.new_game(seats(n), seed, {})
    rnd = random.Random(policy)
    for _ in range(cut):
        if R.is_over(st):
            break
        who = R.to_act(st)[0]
        R.apply(st, who, rnd.choice(R.legal_actions(st, who)))
    pub = R.view(st, None)
    # scramble everything hidden: the public view must not change
    other = R.load(R.dump(st))
    rng = random.Random(seed)
    pool = other.travel_deck + [c for h in other.hand for c in h]
    rng.shuffle(pool)
    for k in range(n):
        size = len(other.hand[k])
        other.hand[k] = sorted(pool[:size])
        pool = pool[size:]
    other.travel_deck = pool
    epool = other.event_deck + [c for h in other.events for c in h]
    rng.shuffle(epool)
    for k in range(n):
        size = len(other.events[k])
        other.events[k] = sorted(epool[:size])
        epool = epool[size:]
    other.event_deck = epool
    assert R.view(other, None) == pub
    text = json.dumps(pub)
    assert "private" not in text


@settings(max_examples=30, deadline=None)
@given(n=st_.integers(2, 6), seed=st_.integers(0, 10**6))
def test_ai_games_terminate_with_legal_moves(n, seed):
    st = R.new_game(seats(n), seed, {})
    steps = 0
    while not R.is_over(st):
        who = R.to_act(st)[0]
        action = R.ai_action(st, who)
        assert action in R.legal_actions(st, who)
        R.apply(st, who, action)
        steps += 1
        assert steps < MAX_STEPS
    assert R.result(st)["winners"]


def test_new_game_is_deterministic_and_validates():
    a = R.new_game(seats(4), 99, {})
    b = R.new_game(seats(4), 99, {})
    c = R.new_game(seats(4), 100, {})
    assert R.dump(a) == R.dump(b) and R.dump(a) != R.dump(c)
    for bad_seats, code in ((["p1"], "player_count"), (seats(7), "player_count"), (["p1", "p1"], "duplicate_seat")):
        try:
            R.new_game(bad_seats, 1, {})
        except IllegalAction as exc:
            assert exc.code == code
        else:
            raise AssertionError("accepted bad seats")
    for opts in ({"nope": 1}, {"elephant_leg_events": "yes"}):
        try:
            R.new_game(seats(3), 1, opts)
        except IllegalAction as exc:
            assert exc.code in ("unknown_option", "bad_option")
        else:
            raise AssertionError("accepted bad options")


@settings(max_examples=40, deadline=None)
@given(n=st_.integers(2, 6), seed=st_.integers(0, 10**6), policy=st_.integers(0, 10**6))
def test_apply_accepts_exactly_the_listed_travel_and_take_actions(n, seed, policy):
    """`apply` validates travel and take actions without listing them all; it must agree
    with `legal_actions` on random near-miss candidates."""
    st = R.new_game(seats(n), seed, {})
    rnd = random.Random(policy)
    checked = 0
    while not R.is_over(st) and checked < 60:
        who = R.to_act(st)[0]
        legal = R.legal_actions(st, who)
        i = st.seats.index(who)
        if st.phase in ("travel", "take"):
            hand = st.hand[i] + ["ship:4", "train:2"]
            candidates = []
            for _ in range(12):
                cards = sorted(rnd.sample(hand, rnd.randint(0, min(3, len(hand)))))
                if rnd.random() < 0.2:
                    cards.reverse()
                cand = {"type": "travel", "cards": cards,
                        "to": D.LOCATIONS[(st.progress[i] + rnd.choice([1, 1, 1, 2])) % len(D.LOCATIONS)]}
                if rnd.random() < 0.3:
                    cand["balloon"] = rnd.choice(cards or ["ship:4"])
                else:
                    cand["days"] = rnd.randint(0, 20)
                candidates.append(cand)
                slot = rnd.randint(-1, 6)
                shown = st.display[slot] if 0 <= slot < len(st.display) else None
                candidates.append({"type": "take", "slot": slot, "card": shown or rnd.choice(hand)})
            candidates += [a for a in legal if a["type"] in ("travel", "take")]
            for cand in candidates:
                copy = R.load(R.dump(st))
                try:
                    R.apply(copy, who, cand)
                    accepted = True
                except IllegalAction:
                    accepted = False
                    assert R.dump(copy) == R.dump(st)
                assert accepted == (cand in legal), cand
                checked += 1
        R.apply(st, who, rnd.choice(legal))
