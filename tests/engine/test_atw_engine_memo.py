"""Around the World's fast paths give the answers of the plain rules: the memoised travel
listings (keyed on the cards that matter for a leg), the shared action dicts, the inlined
deck shuffle and the direct `push`."""

from __future__ import annotations

import itertools

import pytest

from engine import IllegalAction, registry
from engine.games.around_the_world import data as D
from engine.games.around_the_world.cards import best_modified, leg_days
from engine.games.around_the_world.flow import shuffle
from engine.games.around_the_world.rules import State
from engine.rng import Rng

R = registry.get("around-the-world")
CARDS = sorted(D.CARD_INFO)


def _distinct(cards: list[str], k: int) -> list[tuple[str, ...]]:
    """The distinct k-card subsets of the sorted `cards`, in order (by brute force)."""
    return list(dict.fromkeys(itertools.combinations(cards, k)))


def reference_travel(p: int, hand: list[str], armed: list[str], display_balloon: bool) -> list[dict]:
    """The travel actions of leg `p`, built from the rules' text without any memo or shortcut."""
    to = D.LOCATIONS[(p + 1) % 10]
    if p == D.ELEPHANT_LEG:
        return [{"type": "travel", "cards": [], "days": D.WALK_DAYS, "to": to}]
    wanted = list(D.LEG_REQS[p])
    if "offer" in armed:
        for s, t in D.LEG_REQS[p]:
            for fewer in ((s - 1, t) if s else None, (s, t - 1) if t else None):
                if fewer is not None and fewer not in wanted:
                    wanted.append(fewer)
    ships = [c for c in hand if c.startswith("ship")]
    trains = [c for c in hand if c.startswith("train")]
    modified = "propeller_train" in armed or "submarine" in armed
    out: list[dict] = []
    for s, t in wanted:
        for sc in _distinct(ships, s):
            for tc in _distinct(trains, t):
                combo = sc + tc
                days = best_modified(combo, None, armed)[0] if modified else leg_days(combo)
                out.append({"type": "travel", "cards": list(combo), "days": days, "to": to})
                if display_balloon or "balloon" in armed:
                    out.extend({"type": "travel", "cards": list(combo), "balloon": card, "to": to}
                               for card in dict.fromkeys(combo))
    return out


def travel_state(p: int, hand: list[str], armed: list[str], balloon: bool) -> State:
    st: State = R.new_game(["p1", "p2", "p3", "p4"], 5)
    i = st.order[st.turn]
    st.phase, st.taken, st.progress[i] = "travel", "gold", p
    st.hand[i] = sorted(hand)
    st.events[i] = []
    st.armed, st.balloon = list(armed), balloon
    return st


def test_memoised_travel_listings_match_the_plain_listing_whatever_was_listed_before() -> None:
    """Random hands, legs and armed events one after the other (the memo stays warm, so many
    listings come from other hands with the same cards that matter): each equals the plain one."""
    rng = Rng.from_seed(42)
    shared = 0
    seen: dict[tuple[int, ...], tuple[str, ...]] = {}
    for _ in range(3000):
        p = rng.below(10)
        hand = sorted(CARDS[rng.below(len(CARDS))] for _ in range(rng.below(9)))
        armed = [m for m in ("offer", "balloon", "propeller_train", "submarine") if rng.below(4) == 0]
        balloon = rng.below(3) == 0
        st = travel_state(p, hand, armed, balloon)
        legal = R.legal_actions(st, st.seats[st.order[st.turn]])
        listed = [a for a in legal if a["type"] == "travel"]
        assert listed == reference_travel(p, hand, armed, balloon), (p, hand, armed, balloon)
        ids = tuple(id(a) for a in listed)  # the same objects: one memo entry
        if listed and seen.setdefault(ids, tuple(hand)) != tuple(hand):
            shared += 1
    assert shared > 100, "the memo was never shared between different hands"


def test_a_listing_is_a_fresh_list_each_time() -> None:
    """Actions are shared between listings, the lists are not: a caller may reorder or empty one."""
    st = travel_state(6, ["ship:4", "ship:4", "ship:7", "train:3"], [], True)
    seat = st.seats[st.order[st.turn]]
    first = R.legal_actions(st, seat)
    expected = list(first)
    first.clear()
    assert R.legal_actions(st, seat) == expected
    assert R.legal_actions(st, seat) is not R.legal_actions(st, seat)


@pytest.mark.parametrize("seed", range(40))
def test_inlined_shuffle_draws_as_the_generator(seed: int) -> None:
    cards = D.travel_deck()[: seed * 2]
    plain = list(cards)
    rng = Rng.from_seed(seed)
    state = rng.state
    rng.shuffle(plain)
    assert shuffle(state, cards) == rng.state
    assert cards == plain


def test_push_of_an_unknown_type_is_refused_like_apply() -> None:
    st = R.new_game(["p1", "p2", "p3"], 1)
    before = R.dump(st)
    with pytest.raises(IllegalAction) as exc:
        R.push(st, st.seats[st.order[st.turn]], {"type": "teleport"})
    assert exc.value.code == "unknown_action"
    assert R.dump(st) == before
