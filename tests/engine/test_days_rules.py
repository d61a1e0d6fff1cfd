"""eighty-days: the rulebook's examples and every newspaper, assistant and pass tile."""

from __future__ import annotations

import pytest

from engine import IllegalAction, registry
from engine.games.eighty_days import content as C
from engine.games.eighty_days.state import DaysState

R = registry.get("eighty-days")
QUIET = ["good_times", "stormy_today", "broken_mirror", "foggy_journal", "independent"]


def seats(n: int) -> list[str]:
    return [f"p{k + 1}" for k in range(n)]


def resolve_pending(s: DaysState) -> None:
    """Answer every waiting decision with its first option."""
    while any(s.pending):
        seat = next(x for x, q in zip(s.seats, s.pending, strict=True) if q)
        R.apply(s, seat, R.legal_actions(s, seat)[0])


def started(n: int = 3, seed: int = 1, papers: list[str] | None = None, **opts: object) -> DaysState:
    s = R.new_game(seats(n), seed, opts)
    s.newspapers = list(papers or QUIET)
    resolve_pending(s)
    assert s.phase == "play" and s.period == 1
    return s


def me(s: DaysState) -> tuple[str, int]:
    return s.seats[s.current], s.current


def refused(s: DaysState, seat: str, action: dict, code: str) -> None:
    before = R.dump(s)
    with pytest.raises(IllegalAction) as exc:
        R.apply(s, seat, action)
    assert exc.value.code == code, exc.value
    assert R.dump(s) == before
    assert not R.is_legal(s, seat, action)


# -- setup -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_fix_coins_starting_coins_and_drafts(n: int) -> None:
    s = R.new_game(seats(n), 7, {})
    assert s.fix == list(C.FIX_COINS[n])
    assert [s.coins[(s.start + k) % n] for k in range(n)] == list(range(n))
    assert s.juggler == [2, 1, 1]
    assert len(s.newspapers) == 5 and len(s.newspaper_box) == 4
    assert R.to_act(s) == seats(n)  # the adventure draft is simultaneous
    assert all(len(q[0]["cards"]) == 2 for q in s.pending)
    public = R.view(s, None)
    assert "private" not in public and all(p["pending"] == [{"kind": "adventure", "count": 2}]
                                           for p in public["players"])
    assert len(R.view(s, "p1")["private"]["draft"]) == 2


@pytest.mark.parametrize(("n", "tiles"), [(2, 4), (3, 5), (4, 6)])
def test_side_b_pass_tiles_and_line_tiles(n: int, tiles: int) -> None:
    s = R.new_game(seats(n), 3, {"side": "B"})
    assert len(s.pass_tiles) == tiles and C.START_TILE in s.pass_tiles
    assert sorted(s.line_tiles) == sorted(C.TILE_SPACES) and sorted(s.line_tiles.values()) == sorted(C.LINE_TILES)
    assert s.juggler == []


def test_assistant_draft_two_keep_one_shown_after_all_chose() -> None:
    s = R.new_game(seats(2), 5, {"assistants": True})
    R.apply(s, "p1", R.legal_actions(s, "p1")[0])
    [keep] = [a for a in R.legal_actions(s, "p1")][:1]
    assert keep["type"] == "keep_assistant"
    R.apply(s, "p1", keep)
    assert R.view(s, None)["players"][0]["assistant"] is None  # secret while p2 chooses
    assert R.view(s, "p1")["private"]["assistant"] == keep["assistant"]
    resolve_pending(s)
    assert R.view(s, None)["players"][0]["assistant"] == keep["assistant"]
    assert len(s.assistant_box) == 10 - 2


def kept_in_secret(assistant: str) -> DaysState:
    """Two seats, assistants: p1 was dealt Jean and Matilda, has kept `assistant` (and an
    adventure) while p2 is still choosing."""
    s = R.new_game(seats(2), 5, {"assistants": True})
    s.pending[0][1]["cards"] = ["jean", "matilda"]
    s.assistant_box = [a for a in C.ASSISTANTS if a not in {c for q in s.pending for c in q[1]["cards"]}]
    R.apply(s, "p1", R.legal_actions(s, "p1")[0])
    R.apply(s, "p1", {"type": "keep_assistant", "assistant": assistant})
    assert s.phase == "setup" and s.pending[1]
    return s


def test_a_kept_jean_stays_secret_in_the_public_view_until_the_reveal() -> None:
    """The assistants are dealt face down and kept secretly: while p2 still chooses, the
    public view (which every render and every other seat reads) is the same whether p1 kept
    Jean or Matilda; no suitcase of 10 columns betrays Jean's second case."""
    jean, matilda = kept_in_secret("jean"), kept_in_secret("matilda")
    assert R.view(jean, None) == R.view(matilda, None)
    assert R.view(jean, "p2") == R.view(matilda, "p2")
    public = R.view(jean, None)["players"][0]
    assert not public["second_suitcase"] and public["suitcase"]["cols"] < 10
    assert R.view(jean, "p1")["private"]["assistant"] == "jean"
    resolve_pending(jean)  # p2 chooses: the assistants are shown together
    shown = R.view(jean, None)["players"][0]
    assert shown["assistant"] == "jean" and shown["second_suitcase"]
    assert shown["suitcase"]["cols"] > public["suitcase"]["cols"]


# -- travel and buying ---------------------------------------------------------------------
def test_antonias_train_with_stacks_1_2_3_pays_4() -> None:
    s = started(4)
    seat, i = me(s)
    s.stacks["train"] = [1, 2, 3]
    s.coins[i] = 10
    R.apply(s, seat, {"type": "travel", "line": "l01", "area": "train"})
    assert s.stacks["train"] == [1, 2, 3, 4] and s.coins[i] == 6 and s.city[i] == "paris"


def test_fix_coin_makes_the_first_payment_two() -> None:
    s = started(2)
    seat, i = me(s)
    s.coins[i] = 10
    assert R.view(s, None)["areas"]["train"] == {"stacks": [], "fix": True, "next_cost": 2}
    R.apply(s, seat, {"type": "travel", "line": "l01", "area": "train"})
    assert s.coins[i] == 8 and s.stacks["train"] == [2]


def test_line_costs_go_to_the_supply_and_travel_back() -> None:
    s = started(4)
    seat, i = me(s)
    s.city[i], s.coins[i] = "turin", 5
    refused(s, seat, {"type": "travel", "line": "l08", "area": "train"}, "line_item")
    s.items[i][C.REVOLVER] = 1
    s.supply[C.REVOLVER] -= 1
    R.apply(s, seat, {"type": "travel", "line": "l08", "area": "train"})
    assert s.city[i] == "istanbul" and s.items[i][C.REVOLVER] == 0 and s.supply[C.REVOLVER] == 8
    R.apply(s, seat, {"type": "end_turn"})
    # the way back along the same line, coin line cost
    s.current, s.city[i], s.coins[i] = i, "lisbon", 5
    R.apply(s, seat, {"type": "travel", "line": "l03", "area": "ship"})
    assert s.city[i] == "london" and s.coins[i] == 5 - 1 - 1


def test_buy_by_market_symbol_and_black_market_anywhere() -> None:
    s = started(4)
    seat, i = me(s)
    s.city[i] = "paris"  # boutique only
    legal = R.legal_actions(s, seat)
    assert {"type": "buy", "market": "boutique", "item": "hat"} in legal
    assert not any(a["type"] == "buy" and a["market"] == "bazaar" for a in legal)
    refused(s, seat, {"type": "buy", "market": "bazaar", "item": "umbrella"}, "market_closed")
    refused(s, seat, {"type": "buy", "market": "boutique", "item": "umbrella"}, "not_sold")
    assert {"type": "black_market"} in legal
    R.apply(s, seat, {"type": "buy", "market": "boutique", "item": "hat"})
    assert s.items[i][C.HAT] == 1 and s.supply[C.HAT] == 7 and s.stacks["boutique"] == [1]


def test_colors_festival_opens_both_markets_everywhere() -> None:
    s = started(4, colors_festival=True)
    seat, i = me(s)
    s.city[i] = "paris"
    assert {"type": "buy", "market": "bazaar", "item": "umbrella"} in R.legal_actions(s, seat)


def test_juggling_and_first_to_pass_takes_the_start_marker() -> None:
    s = started(3)
    seat, i = me(s)
    R.apply(s, seat, {"type": "juggle", "stack": 0})
    assert s.juggler == [0, 1, 1]
    refused(s, seat, {"type": "juggle", "stack": 1}, "already_acted")
    R.apply(s, seat, {"type": "end_turn"})
    seat2, j = me(s)
    refused(s, seat2, {"type": "juggle", "stack": 0}, "bad_stack")
    R.apply(s, seat2, {"type": "pass"})
    assert s.start == j
    while s.period == 1:
        seat3, _ = me(s)
        R.apply(s, seat3, {"type": "pass"})
    assert s.juggler == [2, 1, 1] and s.current == j and s.stacks["boutique"] == []


# -- newspapers ------------------------------------------------------------------------------
@pytest.mark.parametrize(("paper", "area"), [("stormy_today", "ship"), ("broken_mirror", "train"),
                                             ("foggy_journal", "special")])
def test_preset_stacks_make_travel_start_at_three(paper: str, area: str) -> None:
    s = started(2, papers=[paper, *[p for p in QUIET if p != paper]][:5])
    assert s.stacks[area] == [2] and R.view(s, None)["areas"][area]["next_cost"] == 3
    assert all(c == C.NEWSPAPERS[paper] + k for k, c in zip(range(2), [s.coins[(s.start + k) % 2]
                                                                          for k in range(2)], strict=True))


def test_good_times_and_independent() -> None:
    s = started(4, papers=["independent", "good_times", "stormy_today", "broken_mirror", "foggy_journal"])
    seat, i = me(s)
    s.stacks["black"] = [2, 2, 2]
    assert R.view(s, None)["areas"]["black"]["next_cost"] == 2
    R.apply(s, seat, {"type": "black_market"})
    assert s.stacks["black"][-1] == 2


def test_santa_express_everyone_rolls() -> None:
    s = R.new_game(seats(3), 4, {})
    s.newspapers = ["santa_express", *QUIET[:4]]
    events = []
    for seat in seats(3):
        events = R.apply(s, seat, R.legal_actions(s, seat)[0])
    rolls = [e for e in events if e["type"] == "roll"]
    assert [e["seat"] for e in rolls] == seats(3) and all(e["why"] == "newspaper" for e in rolls)
    resolve_pending(s)
    assert sum(map(sum, s.items)) == 3 and all(c >= 11 for c in s.coins)


def test_sunday_express_special_area_for_trains_and_ships() -> None:
    s = started(4, papers=["sunday_express", *QUIET[:4]])
    seat, _ = me(s)
    legal = R.legal_actions(s, seat)
    assert {"type": "travel", "line": "l01", "area": "special"} in legal
    assert {"type": "travel", "line": "l02", "area": "special"} in legal
    R.apply(s, seat, {"type": "travel", "line": "l01", "area": "special"})
    assert s.stacks["special"] == [1] and s.stacks["train"] == []


def test_guardian_revolver_for_trains_and_in_both_markets() -> None:
    s = started(4, papers=["guardian", *QUIET[:4]])
    seat, i = me(s)
    refused(s, seat, {"type": "travel", "line": "l01", "area": "train"}, "need_revolver")
    s.city[i] = "paris"
    assert {"type": "buy", "market": "boutique", "item": "revolver"} in R.legal_actions(s, seat)
    s.city[i] = "london"
    s.matilda[i] = 1  # Matilda's revolver counts as in the suitcase
    R.apply(s, seat, {"type": "travel", "line": "l01", "area": "train"})
    assert s.matilda[i] == 1  # not handed over


def test_observer_choice() -> None:
    s = R.new_game(seats(2), 2, {})
    s.newspapers = ["observer", *QUIET[:4]]
    R.apply(s, "p1", R.legal_actions(s, "p1")[0])
    s.items[0][C.COAT] = 1
    coins = list(s.coins)
    R.apply(s, "p2", R.legal_actions(s, "p2")[0])
    assert R.to_act(s) == ["p1"] and s.coins[1] == coins[1] + 10  # p2 has no item: option b
    assert R.legal_actions(s, "p1") == [{"type": "observer"}, {"type": "observer", "item": "coat"}]
    R.apply(s, "p1", {"type": "observer", "item": "coat"})
    assert s.coins[0] == coins[0] + 13 and s.items[0][C.COAT] == 0


# -- suitcase ----------------------------------------------------------------------------------
def test_packing_fits_does_not_fit_and_needs_rearranging() -> None:
    s = started(4)
    seat, i = me(s)
    assert s.characters[i] in C.SUITCASES
    s.characters[i] = "explorer"  # 4 x 5
    s.items[i] = [0, 0, 4, 0, 0]  # four hats fill 16 of 20 cells...
    view = R.view(s, None)["players"][i]
    assert view["fits"] and len(view["packing"]) == 4
    assert sorted(tuple(c) for p in view["packing"] for c in p["cells"]) == sorted(
        set(tuple(c) for p in view["packing"] for c in p["cells"]))
    # ...a fifth hat does not fit: the purchase asks which item to give back
    s.city[i] = "paris"
    R.apply(s, seat, {"type": "buy", "market": "boutique", "item": "hat"})
    assert s.pending[i] == [{"kind": "overflow"}]
    assert R.legal_actions(s, seat) == [{"type": "give_back", "item": "hat"}]
    refused(s, seat, {"type": "end_turn"}, "decide_first")
    R.apply(s, seat, {"type": "give_back", "item": "hat"})
    assert s.pending[i] == [] and s.items[i][C.HAT] == 4
    # two coats and two umbrellas plus a shoe fill 20 cells only if placed with care
    s.items[i] = [1, 0, 0, 2, 2]
    assert R.view(s, None)["players"][i]["fits"]


def test_give_back_at_any_time_of_the_turn() -> None:
    s = started(4)
    seat, i = me(s)
    s.items[i][C.SHOES] = 1
    s.supply[C.SHOES] -= 1
    R.apply(s, seat, {"type": "give_back", "item": "shoes"})
    assert s.items[i][C.SHOES] == 0 and s.supply[C.SHOES] == 12
    refused(s, seat, {"type": "give_back", "item": "shoes"}, "not_held")


# -- adventures and London ---------------------------------------------------------------------
def test_complete_adventure_bonus_then_diary_then_new_draft() -> None:
    s = started(4)
    seat, i = me(s)
    s.adventure[i] = "adv12"  # blue triangle, a coat and a revolver, roll the die, 3 points
    s.city[i] = "paris"
    s.items[i] = [0, 1, 0, 0, 1]
    R.apply(s, seat, {"type": "complete"})
    assert s.diary[i] == ["adv12"] and s.supply[C.COAT] >= 8 - 1
    assert s.last_roll["why"] == "bonus"
    kinds = [e["kind"] for e in s.pending[i]]
    assert kinds[-1] == "adventure"


def completing_with_a_free_trip(diary: list[str]) -> tuple[DaysState, str, int, list[dict]]:
    """The seat to act stands in New York (a circle city: ship, train and the special trip
    l39 into London) with this diary and completes Storm at Sea (adv17: a coat and an
    umbrella, bonus a free trip of any kind); the events of completing."""
    s = started(4)
    seat, i = me(s)
    s.city[i], s.diary[i] = "new_york", list(diary)
    s.adventure[i], s.items[i] = "adv17", [0, 0, 0, 1, 1]
    return s, seat, i, R.apply(s, seat, {"type": "complete"})


def test_a_fourth_adventures_free_trip_does_not_enter_london() -> None:
    """Rulebook, Completing an adventure: "Then carry out the following steps in order:
    1. Receive the bonus, if applicable. Important: You must always execute the bonus
    immediately! ... 2. Slide the adventure card ... so that your travel diary is created
    here. 3. Then draw 2 new adventure cards"; The arrival in London: "You need at least 4
    completed adventures in your travel diary to be allowed to enter the arrival-city
    London!" With 3 in the diary, the 4th adventure's free trip comes before its card is in
    the diary: London is closed to it."""
    s, seat, i, events = completing_with_a_free_trip(["adv01", "adv02", "adv03"])
    assert [e["type"] for e in events] == ["complete", "draw_adventures"]
    assert s.diary[i][-1] == "adv17" and len(s.diary[i]) == 4  # 2. in the diary ...
    assert [e["kind"] for e in s.pending[i]] == ["free_travel", "adventure"]  # ... after 1., before 3.
    trips = {a["line"] for a in R.legal_actions(s, seat)}
    assert trips == {"l35", "l37", "l38", "l44"}  # every line from New York but l39 into London
    refused(s, seat, {"type": "free_travel", "line": "l39"}, "bad_line")
    R.apply(s, seat, {"type": "free_travel", "line": "l38"})
    assert s.city[i] == "liverpool" and not s.in_london[i]


def test_a_fourth_adventures_train_trip_from_liverpool_has_no_line() -> None:
    """The bonus is carried out at once: from Liverpool the only train line leads into
    London, closed with 3 adventures in the diary, so the free train trip is lost."""
    s = started(4)
    seat, i = me(s)
    s.city[i], s.diary[i] = "liverpool", ["adv01", "adv02", "adv03"]
    s.adventure[i], s.items[i] = "adv10", [0, 1, 0, 1, 0]  # The Night Express: a free train trip
    events = R.apply(s, seat, {"type": "complete"})
    assert [e["type"] for e in events] == ["complete", "no_free_travel", "draw_adventures"]
    assert s.city[i] == "liverpool" and len(s.diary[i]) == 4
    assert [e["kind"] for e in s.pending[i]] == ["adventure"]


def test_a_fifth_adventures_free_trip_may_enter_london() -> None:
    """With 4 adventures already in the diary, London is open to the bonus trip; arriving
    there replaces the regular draft by a London one."""
    s, seat, i, _ = completing_with_a_free_trip(["adv01", "adv02", "adv03", "adv04"])
    assert {"type": "free_travel", "line": "l39"} in R.legal_actions(s, seat)
    R.apply(s, seat, {"type": "free_travel", "line": "l39"})
    assert s.in_london[i] and len(s.diary[i]) == 5
    [draft] = s.pending[i]
    assert all(c in C.LONDON_ADVENTURES for c in draft["cards"])


def test_search_costs_two_and_keeps_one_of_the_new() -> None:
    s = started(4)
    seat, i = me(s)
    old = s.adventure[i]
    s.coins[i] = 5
    events = R.apply(s, seat, {"type": "search"})
    assert s.coins[i] == 3 and s.adventure[i] == "" and s.deck[0] == old
    new = s.pending[i][0]["cards"]
    assert old not in new and "private" in events[0]
    R.apply(s, seat, {"type": "keep_adventure", "card": new[1]})
    assert s.adventure[i] == new[1] and s.deck[0] == new[0]


def test_london_needs_four_adventures_then_arrival_card_and_london_cards() -> None:
    s = started(4)
    seat, i = me(s)
    s.city[i], s.coins[i] = "liverpool", 20
    s.diary[i] = ["adv01", "adv02", "adv03"]
    refused(s, seat, {"type": "travel", "line": "l40", "area": "train"}, "london_closed")
    s.diary[i].append("adv04")
    R.apply(s, seat, {"type": "travel", "line": "l40", "area": "train"})
    assert s.in_london[i] and s.arrival[i] == 8 and s.arrival_cards == [5, 3]
    assert s.adventure[i] == "" and s.pending[i][0]["cards"][0] in C.LONDON_ADVENTURES
    R.apply(s, seat, R.legal_actions(s, seat)[0])
    R.apply(s, seat, {"type": "end_turn"})
    s.current = i
    legal = R.legal_actions(s, seat)
    assert not any(a["type"] == "travel" for a in legal)
    assert {"type": "buy", "market": "bazaar", "item": "umbrella"} in legal
    assert {"type": "buy", "market": "boutique", "item": "coat"} in legal


def test_four_cities_from_london_costs_twenty_and_ties() -> None:
    s = started(3)
    four = next(c for c, d in C.DISTANCE.items() if d == 4)
    s.city = [four, C.ARRIVAL, C.ARRIVAL]
    s.in_london = [False, True, True]
    s.arrival = [0, 8, 8]
    s.coins = [0, 3, 3]
    s.phase = "over"
    res = R.result(s)
    row = next(r for r in res["ranking"] if r["seat"] == "p1")
    assert row["penalty"] == -20 and row["score"] == -20
    assert res["winners"] == ["p2", "p3"] and [r["rank"] for r in res["ranking"]] == [1, 1, 3]
    s.coins[2] = 4
    assert R.result(s)["winners"] == ["p3"]


def test_game_ends_after_period_five() -> None:
    s = started(2)
    while not R.is_over(s):
        seat = R.to_act(s)[0]
        legal = R.legal_actions(s, seat)
        R.apply(s, seat, next((a for a in legal if a["type"] == "pass"), legal[0]))
    assert s.period == 5 and R.to_act(s) == [] and R.view(s, None)["result"]["winners"]


# -- assistants ------------------------------------------------------------------------------
def with_assistant(name: str, n: int = 3, **opts: object) -> tuple[DaysState, str, int]:
    s = started(n, **opts)
    seat, i = me(s)
    s.assistant[i] = name
    return s, seat, i


def test_albert_rolls_up_to_three_times() -> None:
    s, seat, i = with_assistant("albert")
    s.coins[i] = 5
    R.apply(s, seat, {"type": "black_market"})
    assert s.pending[i][0]["kind"] == "albert" and s.pending[i][0]["rolls"] == 2
    R.apply(s, seat, {"type": "albert", "keep": False})
    assert s.pending[i][0]["rolls"] == 1
    R.apply(s, seat, {"type": "albert", "keep": False})
    assert not s.pending[i] or s.pending[i][0]["kind"] in ("any_item", "overflow")
    resolve_pending(s)
    assert sum(s.items[i]) == 1


def test_paul_leonard_mary_are_the_action() -> None:
    s, seat, i = with_assistant("paul")
    s.coins[i] = 5
    R.apply(s, seat, {"type": "paul"})
    assert s.items[i][C.HAT] == 1 and s.coins[i] == 3 and s.acted
    s, seat, i = with_assistant("leonard")
    s.coins[i], s.city[i] = 10, "turin"
    s.items[i][C.REVOLVER] = 1
    R.apply(s, seat, {"type": "leonard", "line": "l08"})
    assert s.city[i] == "istanbul" and s.coins[i] == 7 and s.items[i][C.REVOLVER] == 0
    assert s.stacks["train"] == []
    s, seat, i = with_assistant("mary")
    refused(s, seat, {"type": "mary", "line": "l01"}, "line_item")
    s.items[i][C.UMBRELLA] = 1
    R.apply(s, seat, {"type": "mary", "line": "l01"})
    assert s.city[i] == "paris" and s.turned[i] and s.items[i][C.UMBRELLA] == 0


def test_jill_swaps_once_per_period_and_luigi_gives_another_turn() -> None:
    s, seat, i = with_assistant("jill")
    s.items[i][C.SHOES] = 1
    R.apply(s, seat, {"type": "jill", "give": "shoes", "take": "coat"})
    assert s.items[i] == [0, 0, 0, 0, 1] and s.turned[i]
    refused(s, seat, {"type": "jill", "give": "coat", "take": "hat"}, "assistant_used")
    s, seat, i = with_assistant("luigi")
    R.apply(s, seat, {"type": "juggle", "stack": 0})
    R.apply(s, seat, {"type": "luigi"})
    R.apply(s, seat, {"type": "juggle", "stack": 1})
    assert s.coins[i] >= 3 and s.turned[i] and s.current == i
    assert {"type": "luigi"} not in R.legal_actions(s, seat)


def test_alex_draws_three_amelie_scores_jean_and_matilda() -> None:
    s, seat, i = with_assistant("alex")
    s.coins[i] = 4
    R.apply(s, seat, {"type": "search"})
    assert len(s.pending[i][0]["cards"]) == 3
    s, seat, i = with_assistant("amelie")
    s.diary[i] = ["adv01", "adv02", "adv03", "adv04", "adv05"]
    assert R.view(s, None)["players"][i]["score"]["amelie"] == 4
    s, seat, i = with_assistant("jean")
    s.characters[i] = "explorer"  # four hats in the trunk, a fifth in Jean's case
    s.items[i] = [0, 0, 5, 0, 0]
    assert R.view(s, None)["players"][i]["fits"] and R.view(s, None)["players"][i]["second_suitcase"]
    s, seat, i = with_assistant("matilda")
    s.matilda[i] = 2
    s.adventure[i], s.city[i] = "adv18", "lisbon"  # two revolvers, bazaar
    R.apply(s, seat, {"type": "complete"})
    assert s.matilda[i] == 0 and s.assistant[i] == ""  # Matilda leaves the game


def test_matilda_takes_her_revolvers_when_assistants_are_revealed() -> None:
    s = R.new_game(seats(2), 5, {"assistants": True})
    for q in s.pending:
        q[1]["cards"][0] = "matilda" if q is s.pending[0] else "paul"
    s.assistant_box = [a for a in C.ASSISTANTS if a not in {c for q in s.pending for c in q[1]["cards"]}]
    resolve_pending(s)
    assert s.assistant[0] == "matilda" and s.matilda[0] == 2 and s.supply[C.REVOLVER] == 6


# -- pass tiles (side B) -----------------------------------------------------------------------
@pytest.mark.parametrize("tile", C.PASS_TILES)
def test_pass_tiles(tile: str) -> None:
    s = started(4, side="B")
    seat, i = me(s)
    s.pass_coins[tile] = 1 if tile in s.pass_tiles else 0
    if tile not in s.pass_tiles:
        s.pass_tiles.append(tile)
        s.pass_coins[tile] = 1
    s.items[i][C.SHOES] = 1
    s.city[i] = "paris"  # a special trip leaves Paris
    coins = s.coins[i]
    R.apply(s, seat, {"type": "pass", "tile": tile})
    assert s.taken_tile[i] == tile and tile not in s.pass_tiles
    if tile == "me_first":
        assert s.start == i
    elif tile == "give_me_the_money":
        assert s.coins[i] == coins + 1 + 2
    elif tile == "new_adventures":
        assert len(s.pending[i][0]["cards"]) == 3 and s.adventure[i] == ""
    elif tile == "and_bye":
        assert s.pending[i][0] == {"kind": "free_travel", "travel": "special", "why": "pass_tile"}
        assert R.legal_actions(s, seat) == [{"type": "free_travel", "line": "l05"}]
    elif tile == "on_offer":
        assert s.last_roll["why"] == "pass_tile"
    else:
        assert R.legal_actions(s, seat)[0] == {"type": "swap"}
    resolve_pending(s)
    assert s.coins[i] >= coins + 1


def test_pass_tiles_collect_a_coin_and_none_in_period_five() -> None:
    s = started(2, side="B")
    while s.period == 1:
        seat, _ = me(s)
        passes = [a for a in R.legal_actions(s, seat) if a["type"] == "pass"]
        R.apply(s, seat, passes[-1])
        resolve_pending(s)
    assert sorted(s.pass_coins.values()) == [0, 0, 1, 1] and len(s.pass_tiles) == 4
    s.period = 5
    seat, _ = me(s)
    assert {"type": "pass"} in R.legal_actions(s, seat)


def test_refusals_are_clear() -> None:
    s = started(3)
    seat, i = me(s)
    other = s.seats[(i + 1) % 3]
    refused(s, other, {"type": "pass"}, "not_your_turn")
    refused(s, seat, {"type": "fly"}, "unknown_action")
    refused(s, seat, {"type": "keep_adventure", "card": "adv01"}, "nothing_to_decide")
    refused(s, seat, {"type": "travel", "line": "l99", "area": "ship"}, "bad_line")
    refused(s, seat, {"type": "travel", "line": "l01", "area": "ship"}, "bad_area")
    refused(s, seat, {"type": "end_turn"}, "action_first")
    refused(s, seat, {"type": "pass", "tile": "me_first"}, "malformed")
    refused(s, "nobody", {"type": "pass"}, "not_a_player")
