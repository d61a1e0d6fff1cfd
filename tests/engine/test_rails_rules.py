"""Rails & Sails rules: one test (or a few) per rule of the rulebook."""

from __future__ import annotations

import json

import pytest

from engine import IllegalAction, registry
from engine.games.rails_and_sails.mapdata import ROUTES_BY_ID, TICKETS_BY_ID
from engine.games.rails_and_sails.network import components, in_order, network, ticket_status
from engine.games.rails_and_sails.payments import check_harbor_payment, check_ship_payment, check_train_payment
from engine.games.rails_and_sails.state import RSState

R = registry.get("rails-and-sails")


def seats(n: int) -> list[str]:
    return [f"p{i + 1}" for i in range(n)]


def started(n: int = 2, seed: int = 1, trains: int = 20) -> RSState:
    s = R.new_game(seats(n), seed)
    for seat in seats(n):
        R.apply(s, seat, {"type": "keep_tickets", "ids": list(s.pending[seats(n).index(seat)][:3])})
    for seat in seats(n):
        R.apply(s, seat, {"type": "choose_mix", "trains": trains})
    assert s.phase == "play"
    return s


def total_cards(s: RSState) -> int:
    return (len(s.train_deck) + len(s.ship_deck) + len(s.train_discard) + len(s.ship_discard)
            + sum(1 for c in s.face_up if c is not None) + sum(sum(h.values()) for h in s.hands))


def give(s: RSState, i: int, *cards: str) -> None:
    """Move cards into seat i's hand from wherever they are (keeps the 140 cards exact)."""
    for card in cards:
        for pile in (s.train_deck, s.ship_deck, s.train_discard, s.ship_discard):
            if card in pile:
                pile.remove(card)
                break
        else:
            for j, h in enumerate(s.hands):
                if j != i and h.get(card):
                    h[card] -= 1
                    if not h[card]:
                        del h[card]
                    break
            else:
                raise AssertionError(f"no {card} left to give")
        s.hands[i][card] = s.hands[i].get(card, 0) + 1


def to_top(s: RSState, card: str) -> None:
    """Move a card of a deck to the top of that deck."""
    deck = s.train_deck if card[0] == "t" else s.ship_deck
    deck.remove(card)
    deck.append(card)


def place_face_up(s: RSState, slot: int, card: str) -> None:
    """Put a card from its deck on a face-up place; the card there goes under its own deck."""
    deck = s.train_deck if card[0] == "t" else s.ship_deck
    deck.remove(card)
    old = s.face_up[slot]
    if old is not None:
        (s.train_deck if old[0] == "t" else s.ship_deck).insert(0, old)
    s.face_up[slot] = card


def empty_hand(s: RSState, i: int) -> None:
    for card, n in list(s.hands[i].items()):
        (s.train_discard if card[0] == "t" else s.ship_discard).extend([card] * n)
    s.hands[i] = {}


def refused(s: RSState, seat: str, action: dict, code: str) -> None:
    before = json.dumps(R.dump(s), sort_keys=True)
    with pytest.raises(IllegalAction) as exc:
        R.apply(s, seat, action)
    assert exc.value.code == code, exc.value
    assert json.dumps(R.dump(s), sort_keys=True) == before


# -- setup ----------------------------------------------------------------------------------------------------
def test_new_game_deal():
    s = R.new_game(seats(4), 7)
    assert R.id == "rails-and-sails" and R.title == "Rails & Sails" and (R.min_players, R.max_players) == (2, 5)
    for h in s.hands:
        assert sum(n for c, n in h.items() if c[0] == "t") == 3
        assert sum(n for c, n in h.items() if c[0] == "s") == 7
    assert [c[0] for c in s.face_up] == ["t", "t", "t", "s", "s", "s"] or s.face_up.count("t:wild") < 3
    assert total_cards(s) == 140
    assert all(len(p) == 5 for p in s.pending)
    assert len(s.ticket_deck) == 65 - 20
    assert R.to_act(s) == seats(4)
    assert R.view(s, None)["phase"] == "setup_tickets"


def test_player_count_and_options():
    with pytest.raises(IllegalAction):
        R.new_game(["p1"], 1)
    with pytest.raises(IllegalAction):
        R.new_game(seats(6), 1)
    with pytest.raises(IllegalAction):
        R.new_game(seats(2), 1, {"nope": 1})


def test_setup_tickets_keep_at_least_three_and_return_under_deck():
    s = R.new_game(seats(2), 3)
    legal = R.legal_actions(s, "p1")
    assert len(legal) == 16 and all(len(a["ids"]) >= 3 for a in legal)
    offered = list(s.pending[0])
    refused(s, "p1", {"type": "keep_tickets", "ids": offered[:2]}, "keep_more")
    refused(s, "p1", {"type": "keep_tickets", "ids": offered[:2] + ["nowhere"]}, "bad_tickets")
    refused(s, "p1", {"type": "keep_tickets", "ids": [offered[0]] * 3}, "bad_tickets")
    refused(s, "p1", {"type": "draw", "source": "train_deck"}, "wrong_phase")
    R.apply(s, "p1", {"type": "keep_tickets", "ids": offered[:3]})
    assert s.tickets[0] == offered[:3]
    assert s.ticket_deck[:2] == offered[3:]  # under the deck (index 0 is the bottom)
    assert R.to_act(s) == ["p2"]
    assert R.view(s, None)["chosen"] == {"p1": True, "p2": False}
    refused(s, "p1", {"type": "keep_tickets", "ids": offered[:3]}, "not_your_turn")


def test_secret_mix_revealed_together():
    s = R.new_game(seats(3), 4)
    for seat in seats(3):
        R.apply(s, seat, R.legal_actions(s, seat)[0])
    assert s.phase == "setup_pieces"
    assert [a["trains"] for a in R.legal_actions(s, "p1")] == list(range(10, 26))
    refused(s, "p1", {"type": "choose_mix", "trains": 9}, "bad_mix")
    refused(s, "p1", {"type": "choose_mix", "trains": 26}, "bad_mix")
    R.apply(s, "p1", {"type": "choose_mix", "trains": 25})
    R.apply(s, "p2", {"type": "choose_mix", "trains": 10})
    pub = R.view(s, None)
    assert pub["pieces"] == {"p1": None, "p2": None, "p3": None}
    assert "25" not in json.dumps(pub["pieces"]) and pub["chosen"] == {"p1": True, "p2": True, "p3": False}
    assert R.view(s, "p1")["private"]["mix"] == {"trains": 25, "ships": 35}
    events = R.apply(s, "p3", {"type": "choose_mix", "trains": 20})
    assert [e["trains"] for e in events if e["type"] == "mix_revealed"] == [25, 10, 20]
    pub = R.view(s, None)
    assert pub["pieces"]["p1"] == {"trains": 25, "ships": 35}
    assert pub["box"]["p1"] == {"trains": 0, "ships": 15}
    assert pub["box"]["p2"] == {"trains": 15, "ships": 0}
    assert pub["current"] == "p1" and s.phase == "play"


# -- taking cards ---------------------------------------------------------------------------------------------
def test_take_face_up_refill_from_chosen_deck_then_second_card():
    s = started()
    place_face_up(s, 0, "t:red")
    top_ship = s.ship_deck[-1]
    refused(s, "p1", {"type": "draw", "source": "face_up", "slot": 0, "card": "t:green", "refill": "ship"},
            "card_gone")
    refused(s, "p1", {"type": "draw", "source": "face_up", "slot": 0, "refill": "ship"}, "malformed")
    ev = R.apply(s, "p1", {"type": "draw", "source": "face_up", "slot": 0, "card": "t:red", "refill": "ship"})
    assert s.hands[0]["t:red"] >= 1 and s.face_up[0] == top_ship
    assert ev[0]["type"] == "take_face_up" and ev[0]["new"] == top_ship
    assert R.to_act(s) == ["p1"] and s.drawn == 1
    assert all(a["type"] == "draw" for a in R.legal_actions(s, "p1"))
    refused(s, "p1", {"type": "tickets"}, "finish_drawing")
    R.apply(s, "p1", {"type": "draw", "source": "train_deck"})
    assert R.to_act(s) == ["p2"] and s.drawn == 0


def test_face_up_wild_first_ends_turn_and_never_second():
    s = started()
    place_face_up(s, 0, "t:wild")
    to_top(s, "t:red")
    R.apply(s, "p1", {"type": "draw", "source": "train_deck"})
    assert s.drawn == 1
    assert not any(a.get("slot") == 0 for a in R.legal_actions(s, "p1"))
    refused(s, "p1", {"type": "draw", "source": "face_up", "slot": 0, "card": "t:wild", "refill": "train"},
            "wild_second")
    R.apply(s, "p1", {"type": "draw", "source": "ship_deck"})
    # p2 takes the face-up wild: the turn ends at once
    assert s.face_up[0] == "t:wild"
    R.apply(s, "p2", {"type": "draw", "source": "face_up", "slot": 0, "card": "t:wild", "refill": "ship"})
    assert R.to_act(s) == ["p1"]


def test_blind_wild_allows_second_card():
    s = started()
    to_top(s, "t:wild")
    wild_count = sum(h.get("t:wild", 0) for h in s.hands)
    R.apply(s, "p1", {"type": "draw", "source": "train_deck"})
    assert sum(h.get("t:wild", 0) for h in s.hands) == wild_count + 1
    assert R.to_act(s) == ["p1"] and s.drawn == 1


def test_three_face_up_wilds_reset_display():
    s = started()
    place_face_up(s, 0, "t:wild")
    place_face_up(s, 1, "t:wild")
    place_face_up(s, 2, "t:red")
    for card in ("t:green", "t:black", "t:purple", "t:wild"):  # the refill (a wild), then the new layout
        to_top(s, card)
    assert total_cards(s) == 140
    ev = R.apply(s, "p1", {"type": "draw", "source": "face_up", "slot": 2, "card": "t:red", "refill": "train"})
    assert any(e["type"] == "face_up_reset" for e in ev)
    assert s.face_up[:3] == ["t:purple", "t:black", "t:green"]
    assert s.train_discard.count("t:wild") == 3 and total_cards(s) == 140


def test_face_up_reset_preserves_cards():
    s = started(4, 9)
    # arrange three wilds on the display with real cards
    for slot in range(3):
        card = s.face_up[slot]
        s.train_deck.insert(0, card)
        s.train_deck.remove("t:wild")
        s.face_up[slot] = "t:wild"
    assert total_cards(s) == 140
    events: list = []
    R._check_wilds(s, events)
    assert events and events[-1]["type"] == "face_up_reset"
    assert total_cards(s) == 140 and s.face_up.count("t:wild") < 3


def test_empty_deck_reshuffles_discards():
    s = started()
    # leave one card in the train deck, the rest in its discard pile
    s.train_discard.extend(s.train_deck[:-1])
    del s.train_deck[:-1]
    n_discard = len(s.train_discard)
    ev = R.apply(s, "p1", {"type": "draw", "source": "train_deck"})
    assert any(e["type"] == "reshuffle" and e["deck"] == "train" for e in ev)
    assert len(s.train_deck) == n_discard and s.train_discard == []
    assert total_cards(s) == 140


def test_nothing_to_take_is_not_offered():
    s = started()
    for pile in (s.train_deck, s.ship_deck, s.train_discard, s.ship_discard):
        for card in pile:
            s.hands[1][card] = s.hands[1].get(card, 0) + 1
        pile.clear()
    for slot, card in enumerate(s.face_up):
        s.hands[1][card] = s.hands[1].get(card, 0) + 1
        s.face_up[slot] = None
    assert total_cards(s) == 140
    assert not [a for a in R.legal_actions(s, "p1") if a["type"] == "draw"]
    refused(s, "p1", {"type": "draw", "source": "train_deck"}, "no_cards_to_take")
    refused(s, "p1", {"type": "draw", "source": "face_up", "slot": 0, "card": "t:red", "refill": "train"},
            "no_cards_to_take")


def test_no_cards_can_be_taken_when_both_decks_and_both_discards_are_empty():
    """Rulebook: "Sollte der seltene Fall eintreten, dass sowohl die Nachzieh- als auch die
    Ablagestapel leer sind [...], können keine Transportkarten genommen werden" -- not even
    the face-up ones."""
    s = started()
    for pile in (s.train_deck, s.ship_deck, s.train_discard, s.ship_discard):
        for card in pile:
            s.hands[1][card] = s.hands[1].get(card, 0) + 1
        pile.clear()
    assert all(card is not None for card in s.face_up)
    legal = R.legal_actions(s, "p1")
    assert legal and not [a for a in legal if a["type"] == "draw"]
    slot = next(k for k, c in enumerate(s.face_up) if c != "t:wild")
    for refill in ("train", "ship", "none"):
        refused(s, "p1", {"type": "draw", "source": "face_up", "slot": slot, "card": s.face_up[slot],
                          "refill": refill}, "no_cards_to_take")
    for source in ("train_deck", "ship_deck"):
        refused(s, "p1", {"type": "draw", "source": source}, "no_cards_to_take")
    assert total_cards(s) == 140


def test_taking_the_last_card_of_the_decks_ends_the_turn():
    """The first card empties the last deck (no discards): no second card can be taken, even
    with face-up cards on display."""
    s = started()
    keep = next(c for c in reversed(s.train_deck) if c != "t:wild")
    for pile in (s.train_deck, s.ship_deck, s.train_discard, s.ship_discard):
        for card in pile:
            s.hands[1][card] = s.hands[1].get(card, 0) + 1
        pile.clear()
    s.hands[1][keep] -= 1
    s.train_deck.append(keep)
    assert [a["source"] for a in R.legal_actions(s, "p1") if a["type"] == "draw" and a["source"] != "face_up"] == [
        "train_deck"]
    R.apply(s, "p1", {"type": "draw", "source": "train_deck"})
    assert s.hands[0][keep] >= 1 and not s.train_deck
    assert R.to_act(s) == ["p2"] and s.drawn == 0
    assert total_cards(s) == 140


# -- claiming routes ------------------------------------------------------------------------------------------
def test_claim_train_route_and_score():
    s = started()
    empty_hand(s, 0)
    give(s, 0, "t:red", "t:red", "t:red:h")
    route = "winnipeg-los_angeles-train"  # red, 3
    assert ROUTES_BY_ID[route].colour == "red"
    refused(s, "p1", {"type": "claim", "route": route, "cards": ["t:red", "t:red"]}, "bad_payment")
    refused(s, "p1", {"type": "claim", "route": route, "cards": ["t:red"] * 4}, "missing_cards")
    legal = [a for a in R.legal_actions(s, "p1") if a["type"] == "claim" and a["route"] == route]
    assert legal == [{"type": "claim", "route": route, "cards": ["t:red", "t:red", "t:red:h"]}]
    ev = R.apply(s, "p1", legal[0])
    assert s.claimed[route] == 0 and s.scores[0] == 4 and s.trains[0] == 17
    assert ev[0]["points"] == 4 and s.hands[0] == {}
    assert total_cards(s) == 140
    refused(s, "p2", {"type": "claim", "route": route, "cards": ["t:red"] * 3}, "route_taken")


def test_route_points_table():
    from engine.games.rails_and_sails.mapdata import ROUTE_POINTS

    assert ROUTE_POINTS == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}


def test_wild_replaces_any_card_and_wrong_kind_refused():
    assert check_train_payment(["t:wild", "t:wild", "t:red"], "red", 3, 0)
    assert check_train_payment(["t:wild"] * 3, "red", 3, 0)
    assert not check_train_payment(["s:red", "t:red", "t:red"], "red", 3, 0)
    assert check_ship_payment(["s:red", "t:wild"], "red", 2)
    assert not check_ship_payment(["t:red", "s:red"], "red", 2)


def test_ship_route_doubles_and_excess():
    # 5 spaces: 2 doubles + 1 single, or 3 doubles (one ship lost)
    assert check_ship_payment(["s:red:2", "s:red:2", "s:red"], "red", 5)
    assert check_ship_payment(["s:red:2", "s:red:2", "s:red:2"], "red", 5)
    assert not check_ship_payment(["s:red:2", "s:red:2", "s:red:2", "s:red"], "red", 5)  # a card too many
    assert not check_ship_payment(["s:red:2", "s:red:2", "s:red", "s:red"], "red", 5)
    assert not check_ship_payment(["s:red:2", "s:red:2"], "red", 5)
    # 4 spaces: 2 doubles, 4 singles, 2 singles + 1 double (the rulebook's white example)
    assert check_ship_payment(["s:white:2", "s:white:2"], "white", 4)
    assert check_ship_payment(["s:white"] * 4, "white", 4)
    assert check_ship_payment(["s:white", "s:white", "s:white:2"], "white", 4)
    assert not check_ship_payment(["s:white", "s:white:2", "s:white:2"], "white", 4)
    assert not check_ship_payment(["s:white", "s:red", "s:white:2"], "white", 4)
    assert not check_ship_payment(["s:red:2", "s:red:2"], "white", 4)


def test_claim_ship_route_with_double_ship_cards():
    s = started()
    empty_hand(s, 0)
    give(s, 0, "s:yellow:2", "s:yellow:2", "s:yellow:2")
    route = "cambridge_bay-anchorage-ship"  # yellow, 6
    assert ROUTES_BY_ID[route].colour == "yellow" and ROUTES_BY_ID[route].length == 6
    R.apply(s, "p1", {"type": "claim", "route": route, "cards": ["s:yellow:2"] * 3})
    assert s.ships[0] == 40 - 6 and s.scores[0] == 15


def test_grey_route_any_one_colour():
    assert check_train_payment(["t:green", "t:green:h"], "grey", 2, 0)
    assert check_train_payment(["t:white", "t:wild"], "grey", 2, 0)
    assert not check_train_payment(["t:white", "t:green"], "grey", 2, 0)
    s = started()
    empty_hand(s, 0)
    give(s, 0, "t:green", "t:green", "t:white", "t:white", "t:wild", "t:wild")
    options = [a["cards"] for a in R.legal_actions(s, "p1") if a["type"] == "claim"
               and a["route"] == "valparaiso-lima-train-1"]
    assert ["t:green", "t:green"] in options and ["t:white", "t:white"] in options
    assert ["t:wild", "t:wild"] in options


def test_every_space_of_a_rough_route_is_rough():
    """Rulebook: "Die Felder einer solchen Strecke sind mit einem besonderen Symbol markiert"."""
    rough = [r for r in ROUTES_BY_ID.values() if r.rough]
    assert len(rough) == 5
    assert all(r.kind == "train" and r.rough == r.length and r.colour == "grey" for r in rough)


def test_rough_route_of_length_two_takes_four_cards_colours_may_differ_per_space():
    route = "lahore-tehran-train"
    r = ROUTES_BY_ID[route]
    assert (r.length, r.rough) == (2, 2)
    assert check_train_payment(["t:yellow", "t:yellow", "t:yellow", "t:yellow"], r.colour, 2, 2)
    assert check_train_payment(["t:green", "t:green", "t:yellow:h", "t:yellow"], r.colour, 2, 2)  # one colour a space
    assert check_train_payment(["t:green", "t:wild", "t:red", "t:wild"], r.colour, 2, 2)  # wilds as usual
    assert check_train_payment(["t:wild"] * 4, r.colour, 2, 2)
    assert not check_train_payment(["t:green", "t:green", "t:yellow"], r.colour, 2, 2)  # 3 cards
    assert not check_train_payment(["t:green", "t:yellow", "t:red", "t:black"], r.colour, 2, 2)  # no pair
    assert not check_train_payment(["t:green", "t:green", "s:yellow", "s:yellow"], r.colour, 2, 2)  # ship cards
    s = started()
    empty_hand(s, 0)
    give(s, 0, "t:green", "t:green", "t:yellow", "t:yellow", "t:red")
    listed = [a["cards"] for a in R.legal_actions(s, "p1") if a["type"] == "claim" and a["route"] == route]
    assert listed == [["t:green", "t:green", "t:yellow", "t:yellow"]]
    # three cards do not pay for it; nothing changes
    refused(s, "p1", {"type": "claim", "route": route, "cards": ["t:green", "t:green", "t:yellow"]}, "bad_payment")
    refused(s, "p1", {"type": "claim", "route": route, "cards": ["t:green", "t:green", "t:yellow", "t:red"]},
            "bad_payment")
    score = s.scores[0]
    ev = R.apply(s, "p1", {"type": "claim", "route": route, "cards": ["t:green", "t:green", "t:yellow", "t:yellow"]})
    assert s.claimed[route] == 0
    assert s.trains[0] == 20 - 2  # pieces used = length, not cards
    assert s.scores[0] == score + 2 and ev[0]["points"] == 2
    assert s.hands[0] == {"t:red": 1} and total_cards(s) == 140


def test_rough_route_of_length_three_lists_the_fewest_wilds_payments():
    route = "beijing-lahore-train"
    assert (ROUTES_BY_ID[route].length, ROUTES_BY_ID[route].rough) == (3, 3)
    s = started()
    empty_hand(s, 0)
    give(s, 0, "t:red", "t:red", "t:red", "t:black", "t:black", "t:wild", "t:wild")
    listed = [a["cards"] for a in R.legal_actions(s, "p1") if a["type"] == "claim" and a["route"] == route]
    # red pair + black pair + the third red with a wild: one wild is the least
    assert listed == [["t:black", "t:black", "t:red", "t:red", "t:red", "t:wild"]]
    assert all(check_train_payment(cards, "grey", 3, 3) for cards in listed)
    # six cards, two of them wilds, also pay (not listed, still accepted)
    R.apply(s, "p1", {"type": "claim", "route": route,
                      "cards": ["t:black", "t:black", "t:red", "t:red", "t:wild", "t:wild"]})
    assert s.claimed[route] == 0 and s.trains[0] == 17 and s.hands[0] == {"t:red": 1}


def test_rough_route_payments_are_capped():
    from engine.games.rails_and_sails.payments import ROUGH_OPTIONS

    s = started()
    empty_hand(s, 0)
    for colour in ("red", "green", "black", "white", "yellow", "purple"):
        give(s, 0, f"t:{colour}", f"t:{colour}")
    give(s, 0, *["t:wild"] * 6)
    listed = [a["cards"] for a in R.legal_actions(s, "p1") if a["type"] == "claim"
              and a["route"] == "beijing-lahore-train"]
    # 20 ways to pick three of the six pairs: the first ROUGH_OPTIONS, then all wilds
    assert len(listed) == ROUGH_OPTIONS + 1 and listed[-1] == ["t:wild"] * 6
    assert len({tuple(c) for c in listed}) == len(listed)
    assert all(c.count("t:wild") == 0 and check_train_payment(c, "grey", 3, 3) for c in listed[:-1])


def test_not_enough_pieces():
    s = started(trains=10)
    s.trains[0] = 2
    empty_hand(s, 0)
    give(s, 0, "t:red", "t:red", "t:red")
    assert not [a for a in R.legal_actions(s, "p1") if a["type"] == "claim" and a["route"].startswith("winnipeg-los")]
    refused(s, "p1", {"type": "claim", "route": "winnipeg-los_angeles-train", "cards": ["t:red"] * 3}, "no_pieces")


def test_double_routes_four_players_not_both_by_one():
    s = started(4)
    empty_hand(s, 0)
    give(s, 0, "t:purple", "t:purple", "t:purple", "t:purple", "t:black", "t:black", "t:black", "t:black")
    R.apply(s, "p1", {"type": "claim", "route": "new_york-los_angeles-train-1", "cards": ["t:purple"] * 4})
    s.current = 0
    refused(s, "p1", {"type": "claim", "route": "new_york-los_angeles-train-2", "cards": ["t:black"] * 4},
            "both_doubles")
    s.current = 1
    empty_hand(s, 1)
    give(s, 1, "t:black", "t:black", "t:black", "t:black")
    R.apply(s, "p2", {"type": "claim", "route": "new_york-los_angeles-train-2", "cards": ["t:black"] * 4})
    assert s.claimed["new_york-los_angeles-train-2"] == 1


@pytest.mark.parametrize("n", [2, 3])
def test_double_routes_two_three_players_only_one(n):
    s = started(n)
    empty_hand(s, 0)
    give(s, 0, "t:purple", "t:purple", "t:purple", "t:purple")
    R.apply(s, "p1", {"type": "claim", "route": "new_york-los_angeles-train-1", "cards": ["t:purple"] * 4})
    empty_hand(s, 1)
    give(s, 1, "t:black", "t:black", "t:black", "t:black")
    assert not [a for a in R.legal_actions(s, "p2") if a.get("route") == "new_york-los_angeles-train-2"]
    refused(s, "p2", {"type": "claim", "route": "new_york-los_angeles-train-2", "cards": ["t:black"] * 4},
            "double_closed")


def test_claim_any_valid_payment_accepted_even_if_not_listed():
    s = started()
    empty_hand(s, 0)
    give(s, 0, "s:red", "s:red", "s:red:2", "s:red:2", "s:red:2", "t:wild")
    route = "tiksi-murmansk-ship"  # red, 7
    listed = [a["cards"] for a in R.legal_actions(s, "p1") if a.get("route") == route]
    other = sorted(["s:red", "s:red", "s:red:2", "s:red:2", "t:wild"])  # 7 with a wild: valid, not the cheapest
    assert listed and other not in listed
    R.apply(s, "p1", {"type": "claim", "route": route, "cards": other})
    assert s.claimed[route] == 0 and s.hands[0] == {"s:red:2": 1}


# -- tickets ------------------------------------------------------------------------------------------------------
def test_draw_tickets_keep_at_least_one():
    s = started()
    n_deck = len(s.ticket_deck)
    R.apply(s, "p1", {"type": "tickets"})
    drawn = list(s.pending[0])
    assert len(drawn) == 4 and len(s.ticket_deck) == n_deck - 4
    assert len(R.legal_actions(s, "p1")) == 15
    refused(s, "p1", {"type": "keep_tickets", "ids": []}, "keep_more")
    refused(s, "p1", {"type": "draw", "source": "train_deck"}, "choose_tickets_first")
    R.apply(s, "p1", {"type": "keep_tickets", "ids": [drawn[2]]})
    assert drawn[2] in s.tickets[0] and s.ticket_deck[:3] == [drawn[0], drawn[1], drawn[3]]
    assert R.to_act(s) == ["p2"]
    assert R.view(s, None)["ticket_counts"]["p1"] == 4


def test_short_ticket_deck_and_empty_ticket_deck():
    s = started()
    s.ticket_deck = s.ticket_deck[-2:]
    R.apply(s, "p1", {"type": "tickets"})
    assert len(s.pending[0]) == 2
    R.apply(s, "p1", {"type": "keep_tickets", "ids": list(s.pending[0])})
    assert s.ticket_deck == []
    assert {"type": "tickets"} not in R.legal_actions(s, "p2")
    refused(s, "p2", {"type": "tickets"}, "no_tickets_left")


# -- harbors ------------------------------------------------------------------------------------------------------
def test_harbor_in_lima_with_wild_yellow_ship_and_two_yellow_trains():
    s = started()
    empty_hand(s, 0)
    give(s, 0, "t:wild", "s:yellow", "t:yellow:h", "t:yellow:h", "t:red", "t:red")
    cards = sorted(["t:wild", "s:yellow", "t:yellow:h", "t:yellow:h"])
    refused(s, "p1", {"type": "harbor", "city": "lima", "cards": cards}, "no_route_to_city")
    s.claimed["caracas-lima-train-1"] = 0  # p1 has a route into Lima
    s.trains[0] -= 2
    assert {"type": "harbor", "city": "lima", "cards": cards} in R.legal_actions(s, "p1")
    R.apply(s, "p1", {"type": "harbor", "city": "lima", "cards": cards})
    assert s.harbors == {"lima": 0} and s.harbors_left[0] == 2 and s.hands[0] == {"t:red": 2}
    assert total_cards(s) == 140
    s.claimed["valparaiso-lima-train-1"] = 1
    give(s, 1, "t:wild", "t:wild", "t:wild", "t:wild")
    refused(s, "p2", {"type": "harbor", "city": "lima", "cards": ["t:wild"] * 4}, "harbor_taken")


def test_harbor_payment_rules():
    assert check_harbor_payment(["s:red", "s:red", "t:red:h", "t:red:h"])
    assert check_harbor_payment(["t:wild"] * 4)
    assert not check_harbor_payment(["s:red", "s:red", "t:red", "t:red:h"])  # no harbor symbol
    assert not check_harbor_payment(["s:red:2", "s:red", "t:red:h", "t:red:h"])  # double ships have none
    assert not check_harbor_payment(["s:red", "s:red", "s:red", "t:red:h"])  # 3 ship cards
    assert not check_harbor_payment(["s:red", "s:red", "t:green:h", "t:green:h"])  # two colours
    assert not check_harbor_payment(["s:red", "s:red", "t:red:h"])


def test_harbor_only_in_harbor_cities_and_at_most_three():
    s = started()
    s.claimed["winnipeg-vancouver-train"] = 0
    give(s, 0, *["t:wild"] * 8)
    refused(s, "p1", {"type": "harbor", "city": "winnipeg", "cards": ["t:wild"] * 4}, "not_harbor_city")
    refused(s, "p1", {"type": "harbor", "city": "atlantis", "cards": ["t:wild"] * 4}, "unknown_city")
    s.harbors_left[0] = 0
    refused(s, "p1", {"type": "harbor", "city": "vancouver", "cards": ["t:wild"] * 4}, "no_harbors_left")
    assert not [a for a in R.legal_actions(s, "p1") if a["type"] == "harbor"]


# -- exchange ------------------------------------------------------------------------------------------------------
def test_exchange_pieces_costs_a_point_each():
    s = started(trains=20)  # box: 5 trains, 10 ships
    opts = sorted(a["trains"] for a in R.legal_actions(s, "p1") if a["type"] == "exchange")
    assert opts == list(range(-10, 0)) + list(range(1, 6))
    refused(s, "p1", {"type": "exchange", "trains": 6}, "exchange_too_many")
    refused(s, "p1", {"type": "exchange", "trains": 0}, "bad_exchange")
    R.apply(s, "p1", {"type": "exchange", "trains": 2})
    assert (s.trains[0], s.ships[0], s.box_trains[0], s.box_ships[0], s.scores[0]) == (22, 38, 3, 12, -2)
    R.apply(s, "p2", {"type": "exchange", "trains": -10})
    assert (s.trains[1], s.ships[1], s.box_trains[1], s.box_ships[1], s.scores[1]) == (10, 50, 15, 0, -10)


# -- end of the game ---------------------------------------------------------------------------------------------
def test_end_trigger_everyone_two_more_turns():
    s = started(3)
    s.trains[0], s.ships[0] = 5, 3
    empty_hand(s, 0)
    give(s, 0, "s:purple", "s:purple")
    events = R.apply(s, "p1", {"type": "claim", "route": "darwin-jakarta-ship", "cards": ["s:purple", "s:purple"]})
    assert any(e["type"] == "final_round" for e in events)
    assert R.view(s, None)["final_turns_left"] == {"p1": 2, "p2": 2, "p3": 2}
    order = []
    while not R.is_over(s):
        seat = R.to_act(s)[0]
        order.append(seat)
        R.apply(s, seat, {"type": "exchange", "trains": -1} if seat != "p1" else {"type": "exchange", "trains": -1})
    assert order == ["p2", "p3", "p1", "p2", "p3", "p1"]
    assert R.to_act(s) == [] and R.legal_actions(s, "p1") == []
    res = R.result(s)
    assert {r["seat"] for r in res["ranking"]} == set(seats(3))
    refused(s, "p1", {"type": "tickets"}, "game_over")


def test_end_trigger_counts_after_the_whole_turn():
    s = started(2)
    s.trains[0], s.ships[0] = 3, 4  # 7 pieces: not yet
    R.apply(s, "p1", {"type": "draw", "source": "train_deck"})
    R.apply(s, "p1", {"type": "draw", "source": "ship_deck"})
    assert s.final_left is None


# -- scoring ------------------------------------------------------------------------------------------------------
JULIA_ROUTES = [
    "buenos_aires-lima-ship", "lima-honolulu-ship", "honolulu-manila-ship",  # Buenos Aires–Manila
    "lima-sydney-ship-1",  # Buenos Aires–Sydney (wraps)
    "athina-hamburg-train", "al_qahira-athina-ship", "djibouti-al_qahira-train-1", "djibouti-dar_es_salaam-train-1",
    "luanda-lagos-train-1", "dar_es_salaam-luanda-train",  # Lagos–Luanda–Dar Es Salaam–Djibouti
]
JULIA_TICKETS = ["buenos_aires-manila", "buenos_aires-sydney", "hamburg-dar_es_salaam",
                 "lagos-luanda-dar_es_salaam-djibouti"]


def finish(s: RSState) -> dict:
    R._finish(s)
    return {r["seat"]: r for r in R.result(s)["ranking"]}


def test_rulebook_example_julia_harbors_score_30_each():
    s = started(2)
    for rid in JULIA_ROUTES:
        s.claimed[rid] = 0
    s.tickets[0] = list(JULIA_TICKETS)
    s.tickets[1] = []
    s.harbors = {"buenos_aires": 0, "dar_es_salaam": 0, "lima": 0}
    s.harbors_left[0] = 0
    rows = finish(s)
    julia = rows["p1"]
    detail = {d["id"]: d["status"] for d in julia["ticket_detail"]}
    assert detail == {"buenos_aires-manila": "done", "buenos_aires-sydney": "done",
                      "hamburg-dar_es_salaam": "done", "lagos-luanda-dar_es_salaam-djibouti": "order"}
    assert julia["tickets"] == 17 + 13 + 8 + 9
    assert julia["harbors"] == 30 + 30 + 0  # Lima names no completed ticket
    assert rows["p2"]["harbors"] == -12


def test_route_ticket_in_order_any_order_failed():
    cities = ("casablanca", "al_qahira", "tehran")
    in_seq = network(["al_qahira-casablanca-train", "tehran-al_qahira-train-1"])
    assert in_order(in_seq, cities)
    assert ticket_status("casablanca-al_qahira-tehran", in_seq, components(in_seq)) == "order"
    # Al-Qahira hangs off Casablanca; Tehran is reached through Marseille and Athina:
    # connected, but the trail Casablanca -> Al-Qahira -> Tehran would reuse Casablanca–Al-Qahira
    star = network(["al_qahira-casablanca-train", "marseille-casablanca-train", "athina-marseille-ship",
                    "tehran-athina-train"])
    assert not in_order(star, cities)
    assert ticket_status("casablanca-al_qahira-tehran", star, components(star)) == "any"
    # a cycle lets the trail come back without reusing a route
    loop = network(["al_qahira-casablanca-train", "marseille-casablanca-train", "athina-marseille-ship",
                    "tehran-athina-train", "al_qahira-athina-ship"])
    assert in_order(loop, cities)
    broken = network(["al_qahira-casablanca-train"])
    assert ticket_status("casablanca-al_qahira-tehran", broken, components(broken)) == "open"
    s = started(2)
    for rid in ["al_qahira-casablanca-train", "marseille-casablanca-train", "athina-marseille-ship",
                "tehran-athina-train"]:
        s.claimed[rid] = 0
    s.tickets[0] = ["casablanca-al_qahira-tehran"]
    s.tickets[1] = ["casablanca-al_qahira-tehran"]
    rows = finish(s)
    assert rows["p1"]["tickets"] == 6 and rows["p2"]["tickets"] == -15
    assert TICKETS_BY_ID["casablanca-al_qahira-tehran"].points == (9, 6, 15)


def test_two_city_ticket_won_and_lost_and_wrap_connectivity():
    s = started(2)
    s.claimed["valparaiso-christchurch-ship"] = 0  # crosses the map edge
    s.claimed["christchurch-sydney-ship-1"] = 0
    s.claimed["valparaiso-lima-train-1"] = 0
    s.claimed["buenos_aires-lima-ship"] = 0
    s.tickets[0] = ["buenos_aires-sydney", "edinburgh-sydney"]
    s.tickets[1] = ["buenos_aires-sydney"]
    rows = finish(s)
    assert rows["p1"]["tickets"] == 13 - 25
    assert rows["p2"]["tickets"] == -13


def test_harbor_counts_and_tie_break_by_completed_tickets():
    s = started(3)
    for rid in ["buenos_aires-lima-ship", "caracas-lima-train-1", "lagos-caracas-ship"]:
        s.claimed[rid] = 0
    s.claimed["caracas-miami-ship"] = 0
    s.tickets[0] = ["miami-buenos_aires", "caracas-athina"]
    s.tickets[1] = s.tickets[2] = []
    s.harbors = {"caracas": 0, "buenos_aires": 0}
    s.harbors_left = [1, 3, 3]
    s.scores = [0, 0, 0]
    rows = finish(s)
    p1 = rows["p1"]
    # caracas-athina fails (-12), miami-buenos_aires completes (+9): Buenos Aires harbor 20, Caracas 0, one unbuilt -4
    assert p1["tickets"] == 9 - 12 and p1["harbors"] == 20 + 0 - 4
    assert rows["p2"]["score"] == rows["p3"]["score"] == -12 and rows["p2"]["rank"] == rows["p3"]["rank"]


def test_harbor_with_three_completed_tickets_scores_40():
    s = started(2)
    for rid in ["athina-marseille-ship", "al_qahira-athina-ship", "marseille-edinburgh-ship-1",
                "edinburgh-new_york-ship-1", "hamburg-marseille-train-1", "moskva-hamburg-train-1",
                "novosibirsk-moskva-train-1", "beijing-novosibirsk-train-1"]:
        s.claimed[rid] = 0
    s.tickets[0] = ["marseille-al_qahira", "new_york-marseille", "marseille-beijing", "marseille-jakarta"]
    s.harbors = {"marseille": 0, "athina": 0}
    s.harbors_left[0] = 1
    rows = finish(s)
    assert rows["p1"]["tickets"] == 5 + 10 + 14 - 18
    assert rows["p1"]["harbors"] == 40 + 0 - 4


def test_tie_broken_by_completed_tickets():
    s = started(2)
    s.claimed["al_qahira-athina-ship"] = 0
    s.claimed["athina-marseille-ship"] = 0
    s.tickets[0] = ["marseille-al_qahira"]  # +5, one completed ticket
    s.tickets[1] = []
    s.scores = [0, 5]
    rows = finish(s)
    assert rows["p1"]["score"] == rows["p2"]["score"]
    assert rows["p1"]["rank"] == 1 and rows["p2"]["rank"] == 2
    assert R.result(s)["winners"] == ["p1"]


# -- views ---------------------------------------------------------------------------------------------------------
def test_views_hide_secrets():
    s = started(3)
    pub = R.view(s, None)
    assert "private" not in pub
    for key in ("game", "seats", "to_act", "over", "phase", "current", "turn", "final_turns_left", "claimed",
                "harbors", "scores", "pieces", "harbors_left", "hand_sizes", "ticket_counts", "face_up", "decks",
                "last", "chosen", "result"):
        assert key in pub
    text = json.dumps(pub)
    for tid in s.tickets[0] + s.tickets[1]:
        assert f'"{tid}"' not in text
    mine = R.view(s, "p1")["private"]
    assert len(mine["hand"]) == 10 and [t["id"] for t in mine["tickets"]] == s.tickets[0]
    assert all(t["status"] == "open" for t in mine["tickets"])
    assert pub["hand_sizes"] == {"p1": 10, "p2": 10, "p3": 10}


def test_malformed_actions_refused():
    s = started()
    refused(s, "p1", {"type": "fly"}, "unknown_action")
    refused(s, "p1", {"type": "draw", "source": "sky"}, "bad_source")
    refused(s, "p1", {"type": "draw", "source": "face_up", "slot": 9, "card": "t:red", "refill": "train"},
            "bad_slot")
    refused(s, "p1", {"type": "draw", "source": "face_up", "slot": 1, "card": s.face_up[1], "refill": "moon"},
            "malformed")
    refused(s, "p1", {"type": "draw", "source": "train_deck", "extra": 1}, "malformed")
    refused(s, "p1", {"type": "claim", "route": "nowhere", "cards": []}, "unknown_route")
    refused(s, "p1", {"type": "claim", "route": "winnipeg-los_angeles-train", "cards": "t:red"}, "malformed")
    refused(s, "p1", {"type": "claim", "route": "winnipeg-los_angeles-train", "cards": ["x"]}, "malformed")
    refused(s, "p1", {"type": "exchange", "trains": True}, "bad_exchange")
    refused(s, "p1", {"type": "pass"}, "cannot_pass")
    refused(s, "p2", {"type": "tickets"}, "not_your_turn")
    refused(s, "p9", {"type": "tickets"}, "not_a_player")
    with pytest.raises(IllegalAction):
        R.apply(s, "p1", ["draw"])  # type: ignore[arg-type]


def test_pass_only_when_nothing_else_possible():
    s = started()
    # no cards anywhere to take, an empty hand, no tickets, no box pieces
    for pile in (s.train_deck, s.ship_deck, s.train_discard, s.ship_discard):
        for card in pile:
            s.hands[1][card] = s.hands[1].get(card, 0) + 1
        pile.clear()
    for slot, card in enumerate(s.face_up):
        s.hands[1][card] = s.hands[1].get(card, 0) + 1
        s.face_up[slot] = None
    for card, n in s.hands[0].items():
        s.hands[1][card] = s.hands[1].get(card, 0) + n
    s.hands[0] = {}
    s.ticket_deck = []
    s.box_trains[0] = s.box_ships[0] = 0
    assert R.legal_actions(s, "p1") == [{"type": "pass"}]
    ev = R.apply(s, "p1", {"type": "pass"})
    assert ev[0]["type"] == "pass" and R.to_act(s) == ["p2"]


def test_empty_face_up_place_refilled_when_discards_return():
    from engine.games.rails_and_sails.payments import train_payment

    s = started()
    for pile in (s.train_deck, s.ship_deck):  # p2 holds every card of both decks
        for card in pile:
            s.hands[1][card] = s.hands[1].get(card, 0) + 1
        pile.clear()
    # a place left empty (as after a new layout with both decks exhausted); p2's turn
    slot = next(k for k, c in enumerate(s.face_up) if c != "t:wild")
    card = s.face_up[slot]
    s.hands[1][card] = s.hands[1].get(card, 0) + 1
    s.face_up[slot] = None
    s.current = 1
    assert R.to_act(s) == ["p2"] and total_cards(s) == 140
    empty = s.face_up.count(None)
    cards = train_payment(s.hands[1], "red", 3, 0)
    assert cards is not None
    ev = R.apply(s, "p2", {"type": "claim", "route": "winnipeg-los_angeles-train", "cards": cards})
    assert any(e["type"] == "reshuffle" for e in ev)
    assert s.face_up.count(None) == max(0, empty - 3) and total_cards(s) == 140


def test_stall_and_no_route_left_trigger_the_final_turns():
    s = started(2)
    s.idle = 40 * 2 - 1
    ev = R.apply(s, "p1", {"type": "exchange", "trains": 1})
    assert any(e["type"] == "final_round_stalled" for e in ev)
    assert s.final_left == [2, 2]
    s = started(2)
    for r in ROUTES_BY_ID.values():
        if r.id != "winnipeg-los_angeles-train" and r.id not in s.claimed and not (
            r.double and r.double in s.claimed
        ):
            s.claimed[r.id] = 1
    empty_hand(s, 0)
    give(s, 0, "t:red", "t:red", "t:red")
    ev = R.apply(s, "p1", {"type": "claim", "route": "winnipeg-los_angeles-train", "cards": ["t:red"] * 3})
    assert any(e["type"] == "final_round_stalled" for e in ev)
