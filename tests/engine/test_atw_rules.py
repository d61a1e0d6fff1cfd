"""Around the World in 80 Days: the rulebooks' worked examples and the rules that are easy
to get wrong (shared/rules/around-the-world.md), on small hand-built positions."""

from __future__ import annotations

import pytest

from engine import IllegalAction, registry
from engine.games.around_the_world import data as D
from engine.games.around_the_world.rules import State, leg_days
from engine.rng import Rng

R = registry.get("around-the-world")
LOC = D.LOCATIONS.index


def die_state(*rolls: int) -> int:
    """An Rng state whose next dice are `rolls`."""
    for s in range(200000):
        r = Rng(s)
        if [r.die() for _ in rolls] == list(rolls):
            return s
    raise AssertionError("no such state")


def fresh(n: int = 3, seed: int = 1, **options) -> State:
    return R.new_game([f"p{k + 1}" for k in range(n)], seed, options)


def cur(st: State) -> int:
    return st.order[st.turn]


def seat(st: State) -> str:
    return st.seats[cur(st)]


def at_travel(st: State, hand: list[str], progress: int, *, events: list[str] | None = None,
              gold: int | None = None, balloon: bool = False, chits: bool = False) -> int:
    """Put the current player in the travel phase with this hand at this location
    (bonus chits removed unless `chits`, so that examples count only their own days)."""
    i = cur(st)
    if not chits:
        st.chits = [[None, None] for _ in st.chits]
    st.hand[i] = sorted(hand)
    st.events[i] = sorted(events or [])
    st.progress[i] = progress
    st.phase = "travel"
    st.taken = "gold"
    st.balloon = balloon
    st.travels = 0
    st.extra = False
    st.armed = []
    st.pending = None
    st.roll = None
    if gold is not None:
        st.gold[i] = gold
    st.detective = 8 if progress not in (7, 8) else 2
    return i


def travel(st: State, cards: list[str], **extra) -> list[dict]:
    legal = R.legal_actions(st, seat(st))
    matches = [a for a in legal if a["type"] == "travel" and sorted(a["cards"]) == sorted(cards)
               and a.get("balloon") == extra.get("balloon")]
    assert matches, (cards, legal)
    return R.apply(st, seat(st), matches[0])


def act(st: State, action: dict) -> list[dict]:
    return R.apply(st, seat(st), action)


def keep(st: State) -> list[dict]:
    return act(st, {"type": "keep", "roll": st.last_roll[-1]})


def stay(st: State) -> list[dict]:
    return act(st, {"type": "stay", "location": D.LOCATIONS[st.progress[cur(st)] % 10]})


def take(st: State, slot: int) -> list[dict]:
    return act(st, {"type": "take", "slot": slot, "card": st.display[slot]})


def use(st: State) -> list[dict]:
    return act(st, {"type": "use_action", "action": st.pending})


def skip(st: State) -> list[dict]:
    return act(st, {"type": "skip_action", "action": st.pending})


# ---------------------------------------------------------------- the board and the cards
def test_components_match_the_rulebook():
    deck = D.travel_deck()
    assert len(deck) == 60
    assert sum(c.startswith("train") for c in deck) == 30
    assert deck.count("train:2") == 5 and deck.count("train:6") == 4
    assert deck.count("ship:4") == 4 and deck.count("ship:7") == 8 and deck.count("ship:8") == 5
    assert len(D.event_deck(4)) == 15 and len(D.event_deck(2)) == 14
    assert "connections" not in D.event_deck(2)
    assert len(D.CHIT_SET) == 9
    st = fresh(4)
    assert st.gold_supply == 24 - 4 and st.gold == [1, 1, 1, 1]
    assert all(len(h) == 3 for h in st.hand)
    assert st.detective == LOC("brindisi")
    assert len(st.travel_deck) == 60 - 12 - 5 - len(st.travel_discard)
    assert sorted(c for pair in st.chits for c in pair) == sorted(D.CHIT_SET * 2)


def test_public_view_has_agreed_shape():
    st = fresh(4)
    v = R.view(st, None)
    for key in ("game", "seats", "to_act", "over", "phase", "round", "first_player", "current", "player_count",
                "locations", "legs", "positions", "arrived", "arrival_order", "days", "gold", "gold_supply",
                "detective", "chits", "display", "travel_deck", "travel_discard", "travel_discard_top",
                "event_deck", "event_discard_top", "hands", "last_roll", "result"):
        assert key in v, key
    assert "private" not in v
    assert v["legs"][4] == {"from": "bombay", "to": "calcutta", "options": [], "days": 12}
    assert v["legs"][6]["options"] == [["ship", "ship"], ["train", "ship"]]
    assert [d["action"] for d in v["display"]] == ["gold", "balloon", "event", "detective", "first_player"]
    assert v["hands"]["p1"] == {"travel": 3, "event": 0}
    mine = R.view(st, "p2")
    assert mine["private"]["travel"] == st.hand[1]


# ---------------------------------------------------------------- travel: the worked examples
def test_london_paris_ship7_train3_is_10_days():
    st = fresh()
    i = at_travel(st, ["ship:7", "train:3", "train:6"], 0)
    travel(st, ["ship:7", "train:3"])
    assert st.days[i] == 10 and st.progress[i] == 1
    assert st.hand[i] == ["train:6"]


def test_suez_bombay_pair_of_8_ships_is_8_and_5_plus_4_is_9():
    st = fresh()
    i = at_travel(st, ["ship:8", "ship:8"], LOC("suez"))
    travel(st, ["ship:8", "ship:8"])
    assert st.days[i] == 8
    st2 = fresh()
    j = at_travel(st2, ["ship:5", "ship:4"], LOC("suez"))
    travel(st2, ["ship:4", "ship:5"])
    assert st2.days[j] == 9


def test_ship4_and_train4_do_not_merge():
    assert leg_days(["ship:4", "train:4"]) == 8
    st = fresh()
    i = at_travel(st, ["ship:4", "train:4"], LOC("hong_kong"))
    travel(st, ["ship:4", "train:4"])
    assert st.days[i] == 8


def test_new_york_london_identical_ships_count_once_and_the_train_is_added():
    st = fresh()
    i = at_travel(st, ["ship:6", "ship:6", "train:3"], LOC("new_york"))
    travel(st, ["ship:6", "ship:6", "train:3"])
    assert st.days[i] == 9 and st.progress[i] == D.HOME
    assert leg_days(["ship:5", "ship:6", "train:3"]) == 14


def test_identical_trains_on_san_francisco_new_york():
    st = fresh()
    i = at_travel(st, ["train:5", "train:5"], LOC("san_francisco"))
    travel(st, ["train:5", "train:5"])
    assert st.days[i] == 5


def test_hong_kong_yokohama_offers_both_arrows():
    st = fresh()
    at_travel(st, ["ship:5", "ship:5", "train:2"], LOC("hong_kong"))
    sets = {tuple(a["cards"]) for a in R.legal_actions(st, seat(st)) if a["type"] == "travel"}
    assert sets == {("ship:5", "ship:5"), ("ship:5", "train:2")}
    opts = {tuple(a["cards"]): a["days"] for a in R.legal_actions(st, seat(st)) if a["type"] == "travel"}
    assert opts[("ship:5", "ship:5")] == 5 and opts[("ship:5", "train:2")] == 7


def test_wrong_cards_for_a_leg_are_refused_and_nothing_changes():
    st = fresh()
    at_travel(st, ["train:3", "train:4"], LOC("brindisi"))
    before = R.dump(st)
    with pytest.raises(IllegalAction) as exc:
        act(st, {"type": "travel", "cards": ["train:3"], "days": 3, "to": "suez"})
    assert exc.value.code == "bad_cards"
    assert R.dump(st) == before
    with pytest.raises(IllegalAction) as exc:
        act(st, {"type": "travel", "cards": ["ship:4"], "days": 4, "to": "suez"})
    assert R.dump(st) == before


def test_legal_card_sets_are_deduplicated():
    st = fresh()
    at_travel(st, ["ship:7", "ship:7", "ship:7", "ship:5", "ship:5"], LOC("suez"))
    sets = [tuple(a["cards"]) for a in R.legal_actions(st, seat(st)) if a["type"] == "travel"]
    assert sorted(sets) == [("ship:5", "ship:5"), ("ship:5", "ship:7"), ("ship:7", "ship:7")]


# ---------------------------------------------------------------- balloon
def test_balloon_example_hong_kong_yokohama_rerolls_5_6_2_pay_2_gold_6_days():
    st = fresh()
    i = at_travel(st, ["train:4", "ship:7"], LOC("hong_kong"), gold=3, balloon=True)
    st.rng = die_state(5, 6, 2)
    travel(st, ["ship:7", "train:4"], balloon="ship:7")
    assert st.phase == "roll" and st.last_roll == [5]
    assert R.view(st, None)["last_roll"] == [5]
    act(st, {"type": "reroll"})
    act(st, {"type": "reroll"})
    assert st.last_roll == [5, 6, 2]
    supply = st.gold_supply
    keep(st)
    assert st.days[i] == 6
    assert st.gold[i] == 1 and st.gold_supply == supply
    assert st.progress[i] == LOC("yokohama")


def test_balloon_on_suez_bombay_5_and_8_replaced_by_5_is_10_not_5():
    st = fresh()
    i = at_travel(st, ["ship:5", "ship:8"], LOC("suez"), balloon=True)
    st.rng = die_state(5)
    travel(st, ["ship:5", "ship:8"], balloon="ship:8")
    keep(st)
    assert st.days[i] == 10


def test_balloon_on_a_pair_breaks_the_pair_even_if_the_die_matches():
    st = fresh()
    i = at_travel(st, ["ship:4", "ship:4"], LOC("yokohama"), balloon=True)
    st.rng = die_state(4)
    travel(st, ["ship:4", "ship:4"], balloon="ship:4")
    keep(st)
    assert st.days[i] == 8


def test_reroll_needs_gold_and_the_last_roll_stands():
    st = fresh()
    i = at_travel(st, ["ship:8"], LOC("brindisi"), gold=1, balloon=True)
    st.rng = die_state(2, 6)
    travel(st, ["ship:8"], balloon="ship:8")
    act(st, {"type": "reroll"})
    assert st.gold[i] == 0
    assert R.legal_actions(st, seat(st)) == [{"type": "keep", "roll": 6}]
    with pytest.raises(IllegalAction) as exc:
        act(st, {"type": "reroll"})
    # its own reason, with the numbers: not "there is no die" and not the buying message
    assert exc.value.code == "reroll_gold"
    assert exc.value.params == {"need": 1, "have": 0}
    assert exc.value.message == "You need 1 gold to re-roll; you have 0."
    keep(st)
    assert st.days[i] == 6  # the last roll (6), not the better first one


def test_one_balloon_per_leg_and_not_on_the_elephant_leg():
    st = fresh()
    at_travel(st, ["ship:5", "ship:8"], LOC("suez"), events=["balloon"], balloon=True)
    legal = R.legal_actions(st, seat(st))
    assert {"type": "event", "card": "balloon"} not in legal  # the display balloon is already there
    balloons = [a for a in legal if a.get("balloon")]
    assert {a["balloon"] for a in balloons} == {"ship:5", "ship:8"}
    st2 = fresh()
    at_travel(st2, [], LOC("bombay"), events=["balloon"], balloon=True)
    legal2 = R.legal_actions(st2, seat(st2))
    assert {"type": "event", "card": "balloon"} not in legal2
    walk = {"type": "travel", "cards": [], "days": 12, "to": "calcutta"}
    assert [a for a in legal2 if a["type"] == "travel"] == [walk]


def test_balloon_event_card_gives_a_balloon():
    st = fresh()
    i = at_travel(st, ["train:6"], LOC("paris"), events=["balloon"])
    assert not [a for a in R.legal_actions(st, seat(st)) if a.get("balloon")]
    act(st, {"type": "event", "card": "balloon"})
    st.rng = die_state(1)
    travel(st, ["train:6"], balloon="train:6")
    keep(st)
    assert st.days[i] == 1 and "balloon" in st.event_discard


# ---------------------------------------------------------------- Bombay -> Calcutta
def test_bombay_calcutta_walk_12_days_or_elephant_6_plus_die():
    st = fresh()
    i = at_travel(st, [], LOC("bombay"))
    travel(st, [])
    assert st.days[i] == 12 and st.progress[i] == LOC("calcutta")
    st2 = fresh()
    j = at_travel(st2, ["ship:4"], LOC("bombay"), events=["elephant"], gold=2)
    st2.rng = die_state(6, 3)
    st2.chits[LOC("calcutta") - 1] = [None, None]
    act(st2, {"type": "event", "card": "elephant"})
    assert st2.phase == "roll"
    act(st2, {"type": "reroll"})
    keep(st2)
    assert st2.days[j] == 9 and st2.gold[j] == 1
    assert st2.hand[j] == ["ship:4"]


def test_elephant_can_be_discarded_for_gold_at_any_time_in_the_turn():
    st = fresh()
    i = at_travel(st, [], LOC("paris"), events=["elephant"])
    gold = st.gold[i]
    act(st, {"type": "elephant_gold"})
    assert st.gold[i] == gold + 1 and st.events[i] == []
    st.events[i] = ["elephant"]
    st.gold_supply = 0
    assert {"type": "elephant_gold"} not in R.legal_actions(st, seat(st))


def test_offer_and_connections_not_on_elephant_leg_by_default_but_allowed_by_option():
    st = fresh()
    at_travel(st, [], LOC("bombay"), events=["offer"])
    assert {"type": "event", "card": "offer"} not in R.legal_actions(st, seat(st))
    i = at_travel(st, ["ship:4"], LOC("suez"), events=["connections"])
    st.hand[i] = ["ship:4", "ship:4"]
    travel(st, ["ship:4", "ship:4"])
    assert {"type": "event", "card": "connections"} not in R.legal_actions(st, seat(st))
    st2 = fresh(elephant_leg_events=True)
    j = at_travel(st2, ["ship:4", "ship:4"], LOC("suez"), events=["connections"])
    travel(st2, ["ship:4", "ship:4"])
    act(st2, {"type": "event", "card": "connections"})
    travel(st2, [])
    assert st2.progress[j] == LOC("calcutta") and st2.days[j] == 4 + 12


# ---------------------------------------------------------------- other event cards
def test_connections_allows_a_second_leg_only_after_a_journey():
    st = fresh()
    i = at_travel(st, ["ship:7", "train:3", "train:2"], 0, events=["connections"])
    assert {"type": "event", "card": "connections"} not in R.legal_actions(st, seat(st))
    travel(st, ["ship:7", "train:3"])
    assert not [a for a in R.legal_actions(st, seat(st)) if a["type"] == "travel"]
    act(st, {"type": "event", "card": "connections"})
    travel(st, ["train:2"])
    assert st.progress[i] == 2 and st.days[i] == 12
    legal = R.legal_actions(st, seat(st))
    assert not [a for a in legal if a["type"] == "travel"] and {"type": "done"} in legal


def test_propeller_train_replaces_one_train_only():
    st = fresh()
    i = at_travel(st, ["train:6", "train:5"], LOC("san_francisco"), events=["propeller_train"])
    act(st, {"type": "event", "card": "propeller_train"})
    travel(st, ["train:5", "train:6"])
    assert st.days[i] == 1 + 5


def test_submarine_replaces_one_ship_only():
    st = fresh()
    i = at_travel(st, ["ship:8", "ship:7", "train:2"], LOC("new_york"), events=["submarine"])
    act(st, {"type": "event", "card": "submarine"})
    opts = [a for a in R.legal_actions(st, seat(st)) if a["type"] == "travel"]
    assert opts[0]["days"] == 2 + 7 + 2
    travel(st, ["ship:7", "ship:8", "train:2"])
    assert st.days[i] == 11


def test_submarine_is_not_spent_where_it_would_not_help():
    st = fresh()
    i = at_travel(st, ["ship:4", "ship:4"], LOC("suez"), events=["submarine"])
    act(st, {"type": "event", "card": "submarine"})
    travel(st, ["ship:4", "ship:4"])
    assert st.days[i] == 4  # pair 4 beats 2 + 4
    assert st.armed == ["submarine"]


def test_offer_waives_exactly_one_card():
    st = fresh()
    i = at_travel(st, ["ship:8", "ship:7", "train:2"], LOC("new_york"), events=["offer"])
    act(st, {"type": "event", "card": "offer"})
    sizes = {len(a["cards"]) for a in R.legal_actions(st, seat(st)) if a["type"] == "travel"}
    assert sizes == {2, 3}
    travel(st, ["ship:7", "train:2"])
    assert st.days[i] == 9 and st.progress[i] == D.HOME
    assert st.travel_discard[0] == "ship:8"  # the unused card went to the bottom on arrival


def test_princess_copies_the_top_of_the_event_discard_pile_when_played():
    st = fresh()
    i = at_travel(st, ["train:6"], LOC("paris"), events=["princess"])
    st.event_discard = ["offer", "balloon"]
    legal = R.legal_actions(st, seat(st))
    assert {"type": "event", "card": "princess", "as": "balloon"} in legal
    events = act(st, {"type": "event", "card": "princess", "as": "balloon"})
    assert events[0]["as"] == "balloon" and st.armed == ["balloon"]
    assert st.event_discard[-1] == "princess"
    st.rng = die_state(2)
    travel(st, ["train:6"], balloon="train:6")
    keep(st)
    assert st.days[i] == 2
    st2 = fresh()
    at_travel(st2, ["train:6"], LOC("paris"), events=["princess"])
    st2.event_discard = []
    assert not [a for a in R.legal_actions(st2, seat(st2)) if a["type"] == "event"]


def test_princess_as_detective_moves_the_detective():
    st = fresh()
    at_travel(st, ["train:6"], LOC("paris"), events=["princess"])
    st.event_discard = ["detective"]
    act(st, {"type": "event", "card": "princess", "as": "detective", "location": "yokohama"})
    assert st.detective == LOC("yokohama")


def test_grey_card_everyone_travelling_loses_days_events_discarded_deck_reshuffled():
    st = fresh(4)
    i = cur(st)
    st.phase = "action"
    st.pending = "event"
    other = (i + 1) % 4
    home = (i + 2) % 4
    st.progress[home] = D.HOME
    st.arrival_order = [home]
    st.arrival_round[home] = 1
    st.events[other] = ["balloon", "offer"]
    st.events[i] = ["submarine"]
    st.event_deck.remove("bad_weather")
    st.event_deck.append("bad_weather")
    st.event_discard = ["detective"]
    days = list(st.days)
    events = use(st)
    assert events[0]["type"] == "grey_event" and events[0]["card"] == "bad_weather"
    assert events[0]["discarded"] == {st.seats[other]: 2, st.seats[i]: 1}  # counts only: hands stay secret
    for k in range(4):
        assert st.days[k] == days[k] + (0 if k == home else 2)
        assert st.events[k] == []
    assert len(st.event_deck) == 15 and st.event_discard == []


# ---------------------------------------------------------------- gold and buying
def test_buying_costs_2_gold_any_number_of_times():
    st = fresh()
    i = at_travel(st, ["ship:4"], 0, gold=5)
    supply = st.gold_supply
    act(st, {"type": "buy", "deck": "travel"})
    act(st, {"type": "buy", "deck": "event"})
    assert st.gold[i] == 1 and st.gold_supply == supply + 4
    assert len(st.hand[i]) + len(st.events[i]) >= 2
    assert not [a for a in R.legal_actions(st, seat(st)) if a["type"] == "buy"]
    with pytest.raises(IllegalAction) as exc:
        act(st, {"type": "buy", "deck": "travel"})
    assert exc.value.code == "not_enough_gold"
    assert exc.value.params == {"need": 2, "have": 1}


def test_gold_supply_is_finite():
    st = fresh()
    i = cur(st)
    st.gold_supply = 0
    gold = st.gold[i]
    take(st, 0)
    assert st.gold[i] == gold and st.gold_supply == 0


# ---------------------------------------------------------------- turn structure
def test_turn_order_take_action_travel_detective_discard():
    st = fresh(4)
    st.chits = [[None, None] for _ in st.chits]
    i = cur(st)
    assert st.phase == "take"
    assert {a["type"] for a in R.legal_actions(st, seat(st))} == {"take"}
    take(st, 3)  # the detective action
    assert st.phase == "action" and st.pending == "detective"
    act(st, {"type": "detective", "location": "paris"})
    assert st.phase == "travel"
    st.hand[i] = ["ship:4", "train:2", "train:3", "train:4", "train:5", "train:6", "ship:5", "ship:6"]
    travel(st, ["ship:4", "train:2"])
    assert st.days[i] == 6
    act(st, {"type": "done"})
    assert st.days[i] == 6 + 2  # ended the turn on the detective's location
    assert len(st.hand[i]) == 6 and cur(st) != i and st.phase == "take"  # six cards: no discard


def test_discard_down_to_six_counting_event_cards():
    st = fresh()
    i = at_travel(st, ["ship:4", "ship:5", "ship:6", "ship:7", "train:2", "train:3"], 0, events=["offer"])
    stay(st)
    assert st.phase == "discard" and seat(st) == st.seats[i]
    legal = R.legal_actions(st, seat(st))
    assert {"type": "discard", "card": "offer"} in legal and len(legal) == 7
    act(st, {"type": "discard", "card": "ship:7"})
    assert st.travel_discard[-1] == "ship:7"
    assert cur(st) != i and st.phase == "take"


def test_detective_penalty_when_staying_or_arriving_not_when_leaving_or_moved_onto_you():
    st = fresh()
    i = at_travel(st, ["ship:4"], LOC("brindisi"))
    st.detective = LOC("brindisi")
    travel(st, ["ship:4"])  # leaving: no penalty
    act(st, {"type": "done"})
    assert st.days[i] == 4
    st2 = fresh()
    j = at_travel(st2, [], LOC("paris"))
    st2.detective = LOC("paris")
    stay(st2)
    assert st2.days[j] == 2
    # moved onto another player outside his turn: no penalty for him
    st3 = fresh()
    k = at_travel(st3, [], LOC("paris"), events=["detective"])
    victim = (k + 1) % 3
    st3.progress[victim] = LOC("suez")
    act(st3, {"type": "event", "card": "detective", "location": "suez"})
    stay(st3)
    assert st3.days[victim] == 0


def test_first_player_may_not_take_the_first_player_card():
    st = fresh(4)
    assert st.turn == 0 and cur(st) == st.first
    slots = [a["slot"] for a in R.legal_actions(st, seat(st))]
    assert 4 not in slots and slots == [0, 1, 2, 3]
    with pytest.raises(IllegalAction) as exc:
        take(st, 4)
    assert exc.value.code == "first_player_card"


def test_first_player_action_gives_the_marker_next_round():
    st = fresh(4)
    first = cur(st)
    take(st, 0)
    stay(st)
    second = cur(st)
    assert second == (first + 1) % 4
    take(st, 4)
    use(st)
    assert st.new_first == second
    _finish_round(st)
    assert st.round == 2 and st.first == second and cur(st) == second


def test_three_players_no_first_player_action_marker_passes_left():
    st = fresh(3)
    assert len(st.display) == 4 and "first_player" not in D.DISPLAY_ACTIONS[:4]
    first = st.first
    while st.round == 1:
        legal = R.legal_actions(st, seat(st))
        act(st, next((a for a in legal if a["type"] in ("stay", "skip_action", "discard")), legal[0]))
    assert st.first == (first + 1) % 3


def test_display_sizes_per_player_count_and_after_arrivals():
    assert [len(fresh(n).display) for n in range(2, 7)] == [3, 4, 5, 6, 6]
    assert [D.display_size(k) for k in (2, 3, 4, 5)] == [3, 4, 5, 6]
    st = fresh(5)
    st.progress[1] = D.HOME
    st.arrival_order = [1]
    st.arrival_round[1] = 1
    st.travel_deck += st.display
    R._start_round(st, [])
    assert len(st.display) == 5  # four still travelling
    st2 = fresh(5)
    for k in (1, 2):
        st2.progress[k] = D.HOME
        st2.arrival_order.append(k)
        st2.arrival_round[k] = 1
    st2.travel_deck += st2.display
    R._start_round(st2, [])
    assert len(st2.display) == 4 and 1 not in st2.order and 2 not in st2.order


def test_six_players_last_player_may_take_the_top_travel_card():
    st = fresh(6)
    assert {"type": "take_top"} not in R.legal_actions(st, seat(st))
    while st.turn < 5:
        legal = R.legal_actions(st, seat(st))
        act(st, next((a for a in legal if a["type"] in ("stay", "skip_action", "discard", "take")), legal[0]))
    legal = R.legal_actions(st, seat(st))
    assert {"type": "take_top"} in legal and len([a for a in legal if a["type"] == "take"]) == 1
    i = cur(st)
    n = len(st.hand[i])
    events = act(st, {"type": "take_top"})
    assert events[0]["type"] == "take_top" and len(st.hand[i]) == n + 1 and st.phase == "travel"
    assert st.taken == "top" and st.pending is None


def test_two_player_game_three_cards_no_connections():
    st = fresh(2)
    assert len(st.display) == 3 and len(st.event_deck) == 14 and "connections" not in st.event_deck


def test_exchange_up_to_three_cards():
    st = fresh(5)
    i = cur(st)
    take(st, 5)
    assert st.pending == "exchange"
    st.hand[i] = ["ship:8", "ship:8", "train:6", "train:2"]
    legal = R.legal_actions(st, seat(st))
    assert max(len(a.get("cards", [])) for a in legal) == 3
    assert {"type": "exchange", "cards": ["ship:8", "ship:8", "train:6"]} in legal
    size_before = len(st.travel_deck) + len(st.travel_discard)
    act(st, {"type": "exchange", "cards": ["ship:8", "train:6"]})
    assert len(st.hand[i]) == 4 and st.hand[i].count("ship:8") <= 2
    assert len(st.travel_deck) + len(st.travel_discard) == size_before


# ---------------------------------------------------------------- chits
def test_red_chit_to_the_first_blue_to_the_last_to_arrive():
    st = fresh(3)
    st.chits[0] = ["gold", "others_lose_day"]
    i = at_travel(st, ["ship:4", "train:2"], 0, chits=True)
    gold = st.gold[i]
    events = travel(st, ["ship:4", "train:2"])
    assert any(e["type"] == "chit" and e["colour"] == "red" for e in events)
    assert st.gold[i] == gold + 1 and st.chits[0] == [None, "others_lose_day"]
    # the last to arrive in Paris takes the blue chit; others lose a day, except those in London
    st.progress = [1, 1, 1]
    j = (i + 1) % 3
    home = (i + 2) % 3
    st.progress[home] = D.HOME
    st.progress[j] = 0
    st.order = [j, home, i]
    st.turn = 0
    at_travel(st, ["ship:4", "train:2"], 0, chits=True)
    days = list(st.days)
    events = travel(st, ["ship:4", "train:2"])
    assert any(e["type"] == "chit" and e["colour"] == "blue" for e in events)
    assert st.days[i] == days[i] + 1 and st.days[home] == days[home]


def test_blue_chit_stays_while_someone_has_not_passed():
    st = fresh(3)
    st.chits[0] = [None, "gold"]
    i = at_travel(st, ["ship:4", "train:2"], 0, chits=True)
    st.progress[(i + 1) % 3] = 3
    travel(st, ["ship:4", "train:2"])
    assert st.chits[0] == [None, "gold"]


def test_event_chit_is_optional():
    st = fresh(3)
    st.chits[0] = ["event", "gold"]
    i = at_travel(st, ["ship:4", "train:2"], 0, chits=True)
    travel(st, ["ship:4", "train:2"])
    assert st.phase == "action" and st.pending == "chit_event"
    skip(st)
    assert st.events[i] == [] and st.phase == "travel"


# ---------------------------------------------------------------- London, time pressure, end
def test_arrival_discards_hand_to_bottom_and_london_players_are_immune():
    st = fresh(3)
    i = at_travel(st, ["ship:6", "ship:6", "train:3", "train:5"], LOC("new_york"), events=["offer"])
    st.travel_discard = ["ship:8"]
    st.event_discard = ["balloon"]
    events = travel(st, ["ship:6", "ship:6", "train:3"])
    assert events[-2]["type"] == "arrive" or any(e["type"] == "arrive" for e in events)
    assert st.hand[i] == [] and st.events[i] == []
    assert st.travel_discard[0] == "train:5" and st.event_discard == ["offer", "balloon"]
    assert st.arrival_order == [i] and cur(st) != i
    assert R.view(st, None)["positions"][st.seats[i]] == 0 and R.view(st, None)["arrived"][st.seats[i]]


def test_time_pressure_one_day_per_round_after_the_first_arrival():
    st = fresh(4)
    st.progress[0] = D.HOME
    st.progress[1] = D.HOME
    st.arrival_order = [0, 1]
    st.arrival_round[0] = st.arrival_round[1] = 1
    st.round = 2
    st.first = 2
    days = list(st.days)
    st.travel_deck += st.display
    R._start_round(st, [])
    assert st.days == [days[0], days[1], days[2] + 1, days[3] + 1]
    # not in the round of the first arrival itself
    st2 = fresh(4)
    st2.progress[0] = D.HOME
    st2.arrival_order = [0]
    st2.arrival_round[0] = 1
    days2 = list(st2.days)
    R._start_round(st2, [])
    assert st2.days == days2


def _finish_round(st: State) -> None:
    r = st.round
    while st.round == r and not R.is_over(st):
        legal = R.legal_actions(st, seat(st))
        act(st, next((a for a in legal if a["type"] in ("stay", "skip_action", "discard")), legal[0]))


def _arrive(st: State, k: int, days: int) -> None:
    """Seat k reached London this round; the round restarts with the players still travelling."""
    st.progress[k] = D.HOME
    st.days[k] = days
    st.arrival_order.append(k)
    st.arrival_round[k] = st.round
    st.hand[k] = []
    st.events[k] = []
    st.travel_deck += [c for c in st.display if c]
    while st.progress[st.first] >= D.HOME and any(p < D.HOME for p in st.progress):
        st.first = (st.first + 1) % len(st.seats)
    if any(p < D.HOME for p in st.progress):
        R._start_round(st, [])
    else:  # everybody home: the round ends at once
        R._finish(st, [])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_three_to_five_end_after_next_to_last_arrives(n):
    st = fresh(n)
    for k in range(n - 2):
        _arrive(st, k, 70 + k)
    _finish_round(st)
    assert not R.is_over(st)
    last_two = [k for k in range(n) if st.progress[k] < D.HOME]
    _arrive(st, last_two[0], 60)
    st.days[last_two[1]] = 10
    _finish_round(st)
    assert R.is_over(st)
    res = R.result(st)
    assert res["winners"] == [st.seats[last_two[0]]]
    loser = next(r for r in res["ranking"] if r["seat"] == st.seats[last_two[1]])
    assert loser["rank"] == n and not loser["arrived"]


def test_six_players_end_after_the_fourth_arrival():
    st = fresh(6)
    for k in range(3):
        _arrive(st, k, 75)
    _finish_round(st)
    assert not R.is_over(st)
    _arrive(st, 3, 75)
    _finish_round(st)
    assert R.is_over(st)


def test_winner_fewest_days_within_80_ties_to_earlier_arrival():
    st = fresh(4)
    _arrive(st, 2, 78)
    _arrive(st, 0, 78)
    _arrive(st, 1, 79)
    _finish_round(st)
    res = R.result(st)
    assert res["winners"] == ["p3"]
    assert [r["seat"] for r in res["ranking"][:3]] == ["p3", "p1", "p2"]


def test_nobody_within_80_first_arrival_wins():
    st = fresh(3)
    _arrive(st, 1, 95)
    _arrive(st, 0, 85)
    _finish_round(st)
    assert R.result(st)["winners"] == ["p2"]


def test_last_player_counts_only_if_he_arrives_in_the_final_round():
    st = fresh(3)
    _arrive(st, 0, 79)
    _finish_round(st)
    _arrive(st, 1, 78)
    _arrive(st, 2, 70)
    _finish_round(st)
    assert R.result(st)["winners"] == ["p3"]


def test_two_players_first_arrival_within_80_wins_even_if_other_would_be_faster():
    st = fresh(2)
    _arrive(st, 0, 80)
    st.days[1] = 30
    _finish_round(st)
    assert R.is_over(st)
    assert R.result(st)["winners"] == ["p1"]


def test_two_players_first_arrival_over_80_loses_to_the_other():
    st = fresh(2)
    _arrive(st, 0, 81)
    _finish_round(st)
    assert R.result(st)["winners"] == ["p2"]


def test_two_players_english_option_first_home_wins_whatever_his_days():
    st = fresh(2, two_player_end="english")
    _arrive(st, 0, 95)
    _finish_round(st)
    assert R.result(st)["winners"] == ["p1"]


def test_two_players_both_arrive_same_round_fewer_days_then_more_gold():
    st = fresh(2)
    _arrive(st, 0, 79)
    _arrive(st, 1, 75)
    _finish_round(st)
    assert R.result(st)["winners"] == ["p2"]
    st2 = fresh(2)
    st2.gold = [1, 3]
    _arrive(st2, 0, 79)
    _arrive(st2, 1, 79)
    _finish_round(st2)
    assert R.result(st2)["winners"] == ["p2"]
    st3 = fresh(2)
    st3.gold = [2, 2]
    _arrive(st3, 0, 79)
    _arrive(st3, 1, 79)
    _finish_round(st3)
    assert R.result(st3)["winners"] == ["p1", "p2"]
    assert [r["rank"] for r in R.result(st3)["ranking"]] == [1, 1]


def test_travel_deck_reshuffles_discard_when_empty():
    st = fresh()
    i = at_travel(st, ["ship:4"], 0, gold=2)
    st.travel_discard = st.travel_deck[1:]
    st.travel_deck = st.travel_deck[:1]
    act(st, {"type": "buy", "deck": "travel"})
    assert len(st.hand[i]) == 2 and st.travel_discard == [] and len(st.travel_deck) > 0


# ---------------------------------------------------------------- refusals
def test_refusals_have_codes_and_leave_the_state_alone():
    st = fresh()
    before = R.dump(st)
    other = next(s for s in st.seats if s != seat(st))
    cases = [
        (other, {"type": "take", "slot": 0, "card": st.display[0]}, "not_your_turn"),
        (seat(st), {"type": "fly"}, "unknown_action"),
        (seat(st), {"type": "stay", "location": "london"}, "wrong_phase"),
        (seat(st), {"slot": 1}, "malformed"),
        (seat(st), {"type": "take", "slot": 9, "card": "ship:4"}, "bad_slot"),
        (seat(st), {"type": "take", "slot": "0", "card": st.display[0]}, "bad_slot"),
        (seat(st), {"type": "take", "slot": True, "card": st.display[1]}, "bad_slot"),
        (seat(st), {"type": "take", "slot": 0, "card": "ship:9"}, "wrong_card"),
    ]
    for who, action, code in cases:
        with pytest.raises(IllegalAction) as exc:
            R.apply(st, who, action)
        assert exc.value.code == code, (action, exc.value.code)
        assert R.dump(st) == before


def test_with_two_travellers_left_only_the_event_card_moves_the_detective():
    st = fresh(4)
    _arrive(st, 0, 70)
    _arrive(st, 1, 72)
    assert len(st.display) == 3
    assert {D.DISPLAY_ACTIONS[a["slot"]] for a in R.legal_actions(st, seat(st))} <= {"gold", "balloon", "event"}


def test_several_event_cards_in_one_turn():
    st = fresh()
    i = at_travel(st, ["ship:8", "ship:7"], LOC("yokohama"), events=["balloon", "submarine", "detective"])
    act(st, {"type": "event", "card": "submarine"})
    act(st, {"type": "event", "card": "balloon"})
    act(st, {"type": "event", "card": "detective", "location": "paris"})
    st.rng = die_state(1)
    travel(st, ["ship:7", "ship:8"], balloon="ship:8")
    keep(st)
    assert st.days[i] == 2 + 1  # the submarine on the 7, the balloon on the 8
    assert st.detective == LOC("paris") and st.events[i] == []


def test_six_players_every_display_card_can_be_taken():
    st = fresh(6)
    while st.turn < 5:
        legal = R.legal_actions(st, seat(st))
        act(st, next((a for a in legal if a["type"] in ("stay", "skip_action", "discard", "take")), legal[0]))
    assert sum(c is not None for c in st.display) == 1
    take(st, next(j for j, c in enumerate(st.display) if c is not None))
    assert all(c is None for c in st.display)


def test_buying_is_possible_while_the_display_action_waits():
    st = fresh(4)
    i = cur(st)
    st.gold[i] = 2
    take(st, 3)  # the detective action waits for a decision
    legal = R.legal_actions(st, seat(st))
    assert {"type": "buy", "deck": "travel"} in legal
    act(st, {"type": "buy", "deck": "travel"})
    assert st.phase == "action" and st.pending == "detective" and st.gold[i] == 0
