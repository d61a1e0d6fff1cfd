"""Rails & Sails property tests over random legal games (2–5 players), and the AI seat."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, registry
from engine.games.rails_and_sails.state import RSState
from engine.rng import Rng

R = registry.get("rails-and-sails")


def total_cards(s: RSState) -> int:
    return (len(s.train_deck) + len(s.ship_deck) + len(s.train_discard) + len(s.ship_discard)
            + sum(1 for c in s.face_up if c is not None) + sum(sum(h.values()) for h in s.hands))


def frozen(s: RSState) -> str:
    return json.dumps(R.dump(s), sort_keys=True)


def broken_variants(action: dict, s: RSState) -> list[dict]:
    """Illegal neighbours of a legal action."""
    out: list[dict] = [{"type": "nope"}, {**action, "bogus": 1}]
    kind = action["type"]
    if kind == "claim":
        out.append({**action, "cards": action["cards"][:-1]})
        out.append({**action, "cards": action["cards"] + ["t:wild"] * 30})
        taken = next(iter(s.claimed), None)
        if taken:
            out.append({**action, "route": taken})
    elif kind == "draw" and action["source"] == "face_up":
        out.append({**action, "slot": 6})
        out.append({**action, "refill": "both"})
        out.append({**action, "card": "t:nothing"})
    elif kind == "keep_tickets":
        out.append({**action, "ids": []})
        out.append({**action, "ids": ["not-a-ticket"]})
    elif kind == "harbor":
        out.append({**action, "city": "winnipeg"})
        out.append({**action, "cards": ["s:red:2"] * 4})
    elif kind == "exchange":
        out.append({**action, "trains": 99})
    elif kind == "choose_mix":
        out.append({**action, "trains": 61})
    return out


def play_random(n: int, seed: int, checks: bool) -> tuple[RSState, list[tuple[str, dict]]]:  # noqa: C901 - one loop checks every invariant per step
    seats = [f"p{i + 1}" for i in range(n)]
    s = R.new_game(seats, seed)
    rng = Rng.from_seed(seed ^ 0x5EED)
    log: list[tuple[str, dict]] = []
    for step in range(20_000):
        if R.is_over(s):
            break
        to_act = R.to_act(s)
        assert to_act
        for seat in seats:
            legal = R.legal_actions(s, seat)
            assert bool(legal) == (seat in to_act)
        seat = to_act[rng.below(len(to_act))]
        legal = R.legal_actions(s, seat)
        action = legal[rng.below(len(legal))]
        if checks and step % 7 == 0:
            before = frozen(s)
            for bad in broken_variants(action, s):
                try:
                    R.apply(s, seat, bad)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"accepted {bad}")
                assert frozen(s) == before
            others = [x for x in seats if x not in to_act]
            if others:
                try:
                    R.apply(s, others[0], action)
                except IllegalAction as exc:
                    assert exc.code in ("not_your_turn",)
                else:
                    raise AssertionError("a seat not to act moved")
                assert frozen(s) == before
        R.apply(s, seat, action)
        log.append((seat, action))
        if checks:
            assert total_cards(s) == 140
            if step % 11 == 0:
                data = json.loads(json.dumps(R.dump(s)))
                assert R.load(data) == s
                pub = R.view(s, None)
                assert "private" not in pub
                text = json.dumps(pub)
                if not R.is_over(s):
                    for held in s.tickets + s.pending:
                        for tid in held:
                            assert f'"{tid}"' not in text
                assert set(pub["to_act"]) == set(R.to_act(s))
                for x in seats:
                    v = R.view(s, x)
                    assert sum(s.hands[seats.index(x)].values()) == len(v["private"]["hand"])
    else:
        raise AssertionError("game did not end")
    return s, log


@settings(max_examples=25, deadline=None)
@given(n=st.integers(min_value=2, max_value=5), seed=st.integers(min_value=0, max_value=2**31))
def test_random_games_terminate_conserve_cards_and_refuse_illegal(n, seed):
    s, log = play_random(n, seed, checks=True)
    res = R.result(s)
    assert sorted(r["seat"] for r in res["ranking"]) == sorted(s.seats)
    assert res["winners"] and all(r["rank"] == 1 for r in res["ranking"] if r["seat"] in res["winners"])
    ranks = [r["rank"] for r in res["ranking"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert R.to_act(s) == [] and all(R.legal_actions(s, x) == [] for x in s.seats)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(min_value=2, max_value=5), seed=st.integers(min_value=0, max_value=2**31))
def test_replay_is_deterministic(n, seed):
    s, log = play_random(n, seed, checks=False)
    again = R.new_game(list(s.seats), seed)
    for seat, action in log:
        R.apply(again, seat, copy.deepcopy(action))
    assert frozen(again) == frozen(s)
    assert R.dump(R.new_game(list(s.seats), seed)) == R.dump(R.new_game(list(s.seats), seed))


@settings(max_examples=6, deadline=None)
@given(n=st.integers(min_value=2, max_value=5), seed=st.integers(min_value=0, max_value=2**31))
def test_ai_games_finish_with_legal_moves(n, seed):
    seats = [f"p{i + 1}" for i in range(n)]
    s = R.new_game(seats, seed)
    for _ in range(5000):
        if R.is_over(s):
            break
        seat = R.to_act(s)[0]
        action = R.ai_action(s, seat)
        assert action in R.legal_actions(s, seat)
        R.apply(s, seat, action)
    assert R.is_over(s)
    # all-AI games end by running out of pieces, not by the stall rule
    assert s.idle < 10 * n


def test_ai_decides_only_from_its_view():
    s = R.new_game(["p1", "p2", "p3"], 11)
    rng = Rng.from_seed(5)
    for _ in range(120):
        seat = R.to_act(s)[0]
        R.apply(s, seat, R.ai_action(s, seat))
    seat = R.to_act(s)[0]
    i = s.seats.index(seat)
    expected = R.ai_action(s, seat)
    # reshuffle everything the seat cannot see: decks, ticket deck, other hands (same sizes)
    other = copy.deepcopy(s)
    rng.shuffle(other.train_deck)
    rng.shuffle(other.ship_deck)
    rng.shuffle(other.ticket_deck)
    pool = []
    for j, h in enumerate(other.hands):
        if j != i:
            for card, k in h.items():
                pool += [card] * k
    rng.shuffle(pool)
    for j, h in enumerate(other.hands):
        if j != i:
            size = sum(h.values())
            h.clear()
            for card in pool[:size]:
                h[card] = h.get(card, 0) + 1
            del pool[:size]
    other.tickets = [t if j == i else list(reversed(t)) for j, t in enumerate(other.tickets)]
    assert R.ai_action(other, seat) == expected


def test_ai_beats_random_players():
    wins = 0
    games = 6
    for g in range(games):
        n = 2 + g % 3
        seats = [f"p{i + 1}" for i in range(n)]
        ai = seats[g % n]
        s = R.new_game(seats, 1000 + g)
        rng = Rng.from_seed(g)
        while not R.is_over(s):
            seat = R.to_act(s)[0]
            if seat == ai:
                action = R.ai_action(s, seat)
            else:
                legal = R.legal_actions(s, seat)
                action = legal[rng.below(len(legal))]
            R.apply(s, seat, action)
        wins += ai in R.result(s)["winners"]
    assert wins >= games - 1


CARD_POOL = ["t:red", "t:red:h", "t:green", "t:black:h", "t:wild", "s:red", "s:red:2", "s:green", "s:green:2",
             "s:yellow:2"]
PAY_ROUTES = ["winnipeg-los_angeles-train", "lahore-tehran-train", "marseille-casablanca-train",
              "valparaiso-lima-train-1", "tiksi-murmansk-ship", "toamasina-cape_town-ship", "petropavlovsk-tokyo-ship",
              "cambridge_bay-anchorage-ship"]


@settings(max_examples=60, deadline=None)
@given(hand=st.lists(st.sampled_from(CARD_POOL), min_size=0, max_size=9), route=st.sampled_from(PAY_ROUTES))
def test_a_route_is_listed_exactly_when_some_cards_of_the_hand_pay_for_it(hand, route):
    from itertools import combinations

    from engine.games.rails_and_sails.mapdata import ROUTES_BY_ID
    from engine.games.rails_and_sails.payments import check_ship_payment, check_train_payment

    r = ROUTES_BY_ID[route]
    if r.kind == "train":
        sizes = [r.length + r.rough]
        ok = lambda cards: check_train_payment(cards, r.colour, r.length, r.rough)  # noqa: E731
    else:
        sizes = range(1, r.length + 1)
        ok = lambda cards: check_ship_payment(cards, r.colour, r.length)  # noqa: E731
    payable = any(ok(list(c)) for k in sizes for c in combinations(sorted(hand), k))
    s = R.new_game(["p1", "p2"], 1)
    s.phase = "play"
    s.pending = [[], []]
    s.trains = [25, 25]
    s.ships = [50, 50]
    s.hands[0] = {}
    for card in hand:
        s.hands[0][card] = s.hands[0].get(card, 0) + 1
    listed = [a for a in R.legal_actions(s, "p1") if a["type"] == "claim" and a["route"] == route]
    assert bool(listed) == payable
    for a in listed:
        assert ok(a["cards"])


TRAIN_POOL = ["t:red", "t:red:h", "t:green", "t:green:h", "t:black", "t:black:h", "t:purple", "t:white:h",
              "t:yellow", "t:wild"]


@settings(max_examples=80, deadline=None)
@given(hand=st.lists(st.sampled_from(TRAIN_POOL), min_size=0, max_size=12), length=st.integers(1, 4))
def test_rough_payments_are_valid_distinct_and_use_the_fewest_wilds(hand, length):
    """`_rough_payments` (the claim listing's memo, on card counts) against a brute force over
    every sub-multiset of the hand: listed exactly when some cards pay; every listed payment
    pays and is held; none uses more wilds than needed (all wilds aside)."""
    from itertools import combinations

    from engine.games.rails_and_sails.board import TRAIN_HARBOR, TRAIN_PLAIN
    from engine.games.rails_and_sails.mapdata import COLOURS, WILD
    from engine.games.rails_and_sails.payments import ROUGH_OPTIONS, _rough_payments, check_train_payment

    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    key = tuple(counts.get(code, 0) for c in COLOURS for code in (TRAIN_PLAIN[c], TRAIN_HARBOR[c]))
    key += (counts.get(WILD, 0),)
    paying = {c for c in combinations(sorted(hand), 2 * length) if check_train_payment(list(c), "grey", length, length)}
    listed = _rough_payments(length, key)
    assert bool(listed) == bool(paying)
    assert len(set(listed)) == len(listed) <= ROUGH_OPTIONS + 1
    assert set(listed) <= paying
    if paying:
        fewest = min(c.count(WILD) for c in paying)
        assert listed[0].count(WILD) == fewest
        assert all(c.count(WILD) == fewest for c in listed if c != (WILD,) * (2 * length))


@settings(max_examples=40, deadline=None)
@given(hand=st.lists(st.sampled_from(CARD_POOL + ["t:red:h", "s:red"]), min_size=0, max_size=9))
def test_a_harbor_is_listed_exactly_when_four_cards_of_the_hand_pay_for_it(hand):
    from itertools import combinations

    from engine.games.rails_and_sails.payments import check_harbor_payment

    payable = any(check_harbor_payment(list(c)) for c in combinations(sorted(hand), 4))
    s = R.new_game(["p1", "p2"], 1)
    s.phase = "play"
    s.pending = [[], []]
    s.claimed["caracas-lima-train-1"] = 0
    s.hands[0] = {}
    for card in hand:
        s.hands[0][card] = s.hands[0].get(card, 0) + 1
    listed = [a for a in R.legal_actions(s, "p1") if a["type"] == "harbor"]
    assert {a["city"] for a in listed} <= {"lima", "caracas"}
    assert bool(listed) == payable
    assert all(check_harbor_payment(a["cards"]) for a in listed)


AREA = ["al_qahira-casablanca-train", "marseille-casablanca-train", "athina-marseille-ship", "tehran-athina-train",
        "al_qahira-athina-ship", "tehran-al_qahira-train-1", "tehran-al_qahira-train-2", "djibouti-al_qahira-train-1",
        "athina-hamburg-train", "hamburg-marseille-train-1", "moskva-hamburg-train-1", "tehran-moskva-train",
        "lagos-casablanca-train", "mumbai-tehran-train-1", "lahore-tehran-train", "mumbai-lahore-train-1",
        "djibouti-dar_es_salaam-train-1", "mumbai-dar_es_salaam-ship"]
AREA_CITIES = ["casablanca", "al_qahira", "tehran", "athina", "marseille", "hamburg", "moskva", "mumbai", "djibouti"]


def _trail_brute_force(route_ids: list[str], cities: tuple[str, ...]) -> bool:
    from engine.games.rails_and_sails.mapdata import ROUTES_BY_ID

    edges = [(ROUTES_BY_ID[r].a, ROUTES_BY_ID[r].b, r) for r in route_ids]

    def walk(node: str, idx: int, used: frozenset[str]) -> bool:
        if node == cities[idx]:
            idx += 1
            if idx == len(cities):
                return True
        for a, b, rid in edges:
            if rid in used or node not in (a, b):
                continue
            if walk(b if node == a else a, idx, used | {rid}):
                return True
        return False

    return walk(cities[0], 0, frozenset())


@settings(max_examples=80, deadline=None)
@given(routes=st.sets(st.sampled_from(AREA), min_size=3, max_size=12),
       cities=st.lists(st.sampled_from(AREA_CITIES), min_size=3, max_size=4, unique=True))
def test_in_order_matches_a_brute_force_trail_search(routes, cities):
    from engine.games.rails_and_sails.network import in_order, network

    ids = sorted(routes)
    assert in_order(network(ids), tuple(cities)) == _trail_brute_force(ids, tuple(cities))


def test_in_order_on_the_whole_map():
    """Every route could be anyone's: the search must still find the direct trails (a plain
    depth-first search ran out of its budget here before it did)."""
    from engine.games.rails_and_sails.mapdata import ROUTES, TICKETS
    from engine.games.rails_and_sails.network import in_order, network

    adj = network([r.id for r in ROUTES])
    assert all(in_order(adj, t.cities) for t in TICKETS if t.is_route)
