"""detour: every rule of the rulebook and every project decision, one test each (or a few)."""

from __future__ import annotations

import json

import pytest

from engine import IllegalAction, registry
from engine.games.detour import mapdata as M
from engine.games.detour.rules import COLOURS, DetourState

RULES = registry.get("detour")

LONDON, PARIS, TURIN, SUEZ, BOMBAY, CALCUTTA, SINGAPORE, HONG_KONG = range(8)
SHANGHAI, YOKOHAMA, MIDWAY, SAN_FRANCISCO, OMAHA, CHICAGO, NEW_YORK, LIVERPOOL = range(8, 16)
GENOA, BRINDISI, RANGOON, SAIGON, ST_LOUIS, WASHINGTON = range(16, 22)
HOME = M.FIN


def new(players: int = 3, *, first: int = 0, pos: list[int] | None = None, seed: int = 1) -> DetourState:
    seats = [f"p{i + 1}" for i in range(players)]
    state = RULES.new_game(seats, seed)
    state.first = first
    if pos is not None:
        state.pos = list(pos)
    return state


def choose(state: DetourState, cards: list[int]) -> list[dict]:
    """Every pawn chooses (pawn order); returns the events of the last choice (the reveal)."""
    events: list[dict] = []
    two = len(state.seats) == 2
    for p, card in enumerate(cards):
        seat = state.seats[state.owner[p]]
        action = {"type": "choose", "card": card, "colour": COLOURS[p]} if two else {"type": "choose", "card": card}
        events = RULES.apply(state, seat, action)
    return events


def act(state: DetourState, action: dict) -> list[dict]:
    (seat,) = RULES.to_act(state)
    return RULES.apply(state, seat, action)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# -- set-up -----------------------------------------------------------------------------------------
def test_registered_with_id_title_and_player_counts() -> None:
    assert RULES.id == "detour"
    assert RULES.title == "Around the Worlds in 80 Days (Detour)"
    assert (RULES.min_players, RULES.max_players) == (2, 4)


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_enforced(players: int) -> None:
    with pytest.raises(IllegalAction) as exc:
        RULES.new_game([f"p{i}" for i in range(players)], 1)
    assert exc.value.code == "player_count"


def test_duplicate_seats_and_unknown_options_refused() -> None:
    with pytest.raises(IllegalAction):
        RULES.new_game(["p1", "p1"], 1)
    with pytest.raises(IllegalAction) as exc:
        RULES.new_game(["p1", "p2"], 1, {"speed": 2})
    assert exc.value.code == "unknown_option"


def test_setup_four_cards_each_everyone_in_london_first_player_from_seed() -> None:
    firsts = set()
    for seed in range(20):
        s = RULES.new_game(["p1", "p2", "p3", "p4"], seed)
        assert s.pos == [LONDON] * 4
        assert all(RULES.view(s, None)["pawns"][p]["hand"] == [10, 8, 6, 5] for p in range(4))
        firsts.add(s.first)
    assert len(firsts) > 1  # the first player is drawn, not always seat 1


def test_two_players_play_two_colours_each_alternating_round_the_table() -> None:
    s = RULES.new_game(["p1", "p2"], 3)
    view = RULES.view(s, None)
    assert [(p["seat"], p["colour"]) for p in view["pawns"]] == [
        ("p1", "blue"), ("p2", "orange"), ("p1", "green"), ("p2", "purple")]
    assert all(p["hand"] == [10, 8, 6, 5] for p in view["pawns"])


# -- choosing --------------------------------------------------------------------------------------------
def test_everyone_chooses_at_once_and_leaves_to_act_after_choosing() -> None:
    s = new(3)
    assert RULES.to_act(s) == ["p1", "p2", "p3"]
    RULES.apply(s, "p2", {"type": "choose", "card": 8})
    assert RULES.to_act(s) == ["p1", "p3"]
    assert RULES.legal_actions(s, "p2") == []
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(s, "p2", {"type": "choose", "card": 6})
    assert exc.value.code == "already_chosen"


def test_choice_is_secret_until_the_reveal() -> None:
    s = new(3)
    RULES.apply(s, "p2", {"type": "choose", "card": 8})
    public = RULES.view(s, None)
    assert "private" not in public
    assert [p["chosen"] for p in public["pawns"]] == [False, True, False]
    assert all(p["card"] is None for p in public["pawns"])
    assert public["pawns"][1]["hand"] == [10, 8, 6, 5]  # the chosen card is not yet out of the hand
    assert "8" not in json.dumps(RULES.view(s, "p1")["private"])
    assert RULES.view(s, "p2")["private"]["chosen"] == {"orange": 8}


def test_legal_choices_are_the_cards_in_hand() -> None:
    s = new(2 + 1)
    assert RULES.legal_actions(s, "p1") == [{"type": "choose", "card": c} for c in (10, 8, 6, 5)]
    s.hand[0] = 0b1010  # 8 and 5 left
    assert RULES.legal_actions(s, "p1") == [{"type": "choose", "card": 8}, {"type": "choose", "card": 5}]
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(s, "p1", {"type": "choose", "card": 10})
    assert exc.value.code == "card_played"


# -- reveal and order -----------------------------------------------------------------------------------
def test_cards_resolve_from_highest_to_lowest() -> None:
    s = new(3, pos=[LONDON, LONDON, LONDON])
    events = choose(s, [5, 10, 8])
    reveal = next(e for e in events if e["type"] == "reveal")
    assert [(c["seat"], c["card"]) for c in reveal["cards"]] == [("p2", 10), ("p3", 8), ("p1", 5)]
    # the 10 moved by itself (one possible use); p3's 8 waits for its owner
    assert RULES.to_act(s) == ["p3"]


def test_equal_cards_resolve_from_the_first_player_clockwise() -> None:
    s = new(4, first=2)
    events = choose(s, [10, 10, 10, 10])
    reveal = next(e for e in events if e["type"] == "reveal")
    assert [c["seat"] for c in reveal["cards"]] == ["p3", "p4", "p1", "p2"]


def test_revealed_cards_are_public_during_resolution() -> None:
    s = new(3)
    choose(s, [8, 6, 5])
    public = RULES.view(s, None)
    assert [p["card"] for p in public["pawns"]] == [8, 6, 5]
    assert public["resolving"] == {"seat": "p1", "colour": "blue", "card": 8}


# -- moving ---------------------------------------------------------------------------------------------
def test_move_whole_connections_only_leftover_days_lost() -> None:
    s = new(3)
    events = choose(s, [10, 5, 5])  # p1: London-Paris 2, Paris-Turin 4, Turin-Suez 3 = 9; Suez-Bombay 4 > 1 left
    move = next(e for e in events if e["type"] == "move" and e["seat"] == "p1")
    assert (move["from"], move["to"], move["used"], move["days"]) == (LONDON, SUEZ, 9, 10)
    assert s.pos[0] == SUEZ


def test_move_several_connections_and_stop_before_a_too_long_one() -> None:
    assert M.DEST[LONDON][6] == TURIN  # 2 + 4
    assert M.DEST[LONDON][5] == PARIS  # 2, the next costs 4
    assert M.DEST[LONDON][1] == LONDON
    assert M.DEST[YOKOHAMA][5] == MIDWAY  # one 5-day connection
    assert M.DEST[YOKOHAMA][4] == YOKOHAMA  # cannot do part of it


def test_the_last_leg_costs_8_days_back_to_london() -> None:
    assert M.COST[LIVERPOOL] == 8 and M.NEXT[LIVERPOOL] == HOME
    for days in (5, 6):
        assert M.DEST[LIVERPOOL][days] == LIVERPOOL
    assert M.DEST[LIVERPOOL][8] == HOME and M.DEST[LIVERPOOL][10] == HOME


def test_a_pawn_that_cannot_move_stays() -> None:
    s = new(3, pos=[LIVERPOOL, LONDON, LONDON])
    s.hand = [0b1000, 0b1000, 0b1000]  # only the 5s left
    events = choose(s, [5, 5, 5])
    # p1's 5 can move (0 days) or send back p2/p3? They stand in London: no target. One use: auto.
    stuck = [e for e in events if e["type"] == "move" and e["seat"] == "p1"]
    assert stuck and stuck[0]["from"] == stuck[0]["to"] == LIVERPOOL


# -- Detour ---------------------------------------------------------------------------------------------------
def test_detour_sends_a_pawn_at_a_red_line_onto_the_side_path() -> None:
    s = new(3, pos=[LONDON, PARIS, TURIN])
    choose(s, [6, 5, 5])
    legal = RULES.legal_actions(s, "p1")
    assert legal == [{"type": "move"}, {"type": "detour", "target": "p2"}]  # Turin has no red line
    events = act(s, {"type": "detour", "target": "p2"})
    assert s.pos[1] == GENOA
    assert s.pos[0] == LONDON  # not on the blue area: the owner does not move
    ev = next(e for e in events if e["type"] == "detour")
    assert (ev["target"], ev["from"], ev["to"], ev["blue"]) == ("p2", PARIS, GENOA, False)


def test_detour_not_offered_without_a_pawn_at_a_red_line() -> None:
    s = new(3, pos=[LONDON, TURIN, SUEZ])
    events = choose(s, [6, 5, 5])
    # p1's 6 resolves first and had one use (move): it resolved by itself, nobody was asked
    assert s.pos[0] == M.DEST[LONDON][6]
    assert [e["type"] for e in events if e.get("seat") == "p1"][:2] == ["auto", "move"]
    assert RULES.to_act(s) == ["p2"]


def test_a_pawn_on_a_side_path_cannot_be_detoured_again() -> None:
    s = new(3, pos=[LONDON, GENOA, CALCUTTA])
    choose(s, [6, 5, 5])
    assert RULES.legal_actions(s, "p1") == [{"type": "move"}, {"type": "detour", "target": "p3"}]


def test_detour_on_the_blue_area_uses_move_and_action() -> None:
    assert M.IS_BLUE[SINGAPORE]
    s = new(3, pos=[SINGAPORE, CALCUTTA, LONDON])
    choose(s, [6, 5, 5])
    events = act(s, {"type": "detour", "target": "p2"})
    assert s.pos[1] == RANGOON
    assert s.pos[0] == M.DEST[SINGAPORE][6] == SHANGHAI  # 1 + 2, the next costs 4
    assert types(events)[:2] == ["detour", "move"]


def test_detour_on_the_blue_area_while_blocked_does_not_move() -> None:
    s = new(3, pos=[SINGAPORE, CALCUTTA, LONDON])
    s.blocked[0] = True
    choose(s, [6, 5, 5])
    # blocked: no Move, so Detour p2 is the only use and it resolved by itself, without the blue-area move
    assert s.pos[1] == RANGOON and s.pos[0] == SINGAPORE and not s.blocked[0]


def test_side_path_is_travelled_normally_until_it_rejoins() -> None:
    assert M.NEXT[GENOA] == BRINDISI and M.NEXT[BRINDISI] == SUEZ
    assert M.DEST[GENOA][10] == SUEZ  # 5 + 5
    assert M.DEST[BRINDISI][10] == BOMBAY  # 5 + 4, then Bombay-Calcutta 2 > 1


# -- Backward -------------------------------------------------------------------------------------------------
def test_backward_one_segment_whatever_its_cost_and_owner_moves_5() -> None:
    s = new(3, pos=[LONDON, MIDWAY, LONDON])
    s.hand = [0b1000, 0b1000, 0b1000]  # everyone has only the 5 left
    choose(s, [5, 5, 5])  # p1 resolves first (first player)
    legal = RULES.legal_actions(s, "p1")
    assert legal == [{"type": "move"}, {"type": "backward", "target": "p2"}]  # p3 in London: no segment behind
    events = act(s, {"type": "backward", "target": "p2"})
    assert s.pos[1] == YOKOHAMA  # back over the 5-day connection Yokohama-Midway
    assert s.pos[0] == M.DEST[LONDON][5] == PARIS
    assert types(events)[:2] == ["backward", "move"]
    ev = events[0]
    assert (ev["seat"], ev["target"], ev["from"], ev["to"]) == ("p1", "p2", MIDWAY, YOKOHAMA)


def test_backward_not_from_the_first_space_of_a_side_path_nor_from_the_start() -> None:
    s = new(3, pos=[PARIS, GENOA, LONDON])
    s.hand = [0b1000] * 3
    choose(s, [5, 5, 5])
    # p1's 5 had no target (Genoa = first side space, London = start): it simply moved
    assert s.pos[1] == GENOA and s.pos[0] == M.DEST[PARIS][5]
    assert RULES.to_act(s) == ["p2"]  # p2 can send p1 back


def test_backward_from_the_second_side_space_and_from_a_rejoin_space() -> None:
    assert M.PREV[BRINDISI] == GENOA
    assert M.PREV[GENOA] == -1
    assert M.PREV[SUEZ] == TURIN  # the rejoin space goes back along the main path
    assert M.PREV[LONDON] == -1


# -- Block ----------------------------------------------------------------------------------------------------
def test_block_stops_the_next_move_and_owner_moves_3() -> None:
    s = new(3, pos=[TURIN, LONDON, LONDON])
    choose(s, [8, 6, 5])
    events = act(s, {"type": "block", "target": "p2"})
    assert s.pos[0] == M.DEST[TURIN][3] == SUEZ
    assert "block" in types(events)
    # p2's 6 resolves later this same round: blocked, it cannot move; it has no target -> no effect
    assert s.pos[1] == LONDON
    assert any(e["type"] == "no_effect" and e["seat"] == "p2" and e["blocked"] for e in events)
    assert not s.blocked[1]  # lasted until that card only


def test_blocked_pawn_may_still_use_its_action_including_the_bonus_move() -> None:
    s = new(3, pos=[LONDON, LONDON, TURIN])
    choose(s, [8, 5, 10])
    # p3's 10 moved first (Turin -> Bombay area); now p1 blocks p2, whose 5 resolves later
    act(s, {"type": "block", "target": "p2"})
    assert RULES.legal_actions(s, "p2") == [{"type": "backward", "target": "p1"}, {"type": "backward", "target": "p3"}]
    act(s, {"type": "backward", "target": "p3"})
    assert s.pos[1] == M.DEST[LONDON][5]  # the Backward's own 5 days are part of the action
    assert not s.blocked[1]


def test_blocked_move_only_card_does_nothing() -> None:
    s = new(3, pos=[LONDON, LONDON, LONDON])
    s.blocked[1] = True
    events = choose(s, [5, 10, 5])
    assert s.pos[1] == LONDON
    assert any(e["type"] == "no_effect" and e["seat"] == "p2" and e["blocked"] for e in events)
    assert not s.blocked[1]


def test_block_lasts_until_the_targets_next_resolved_card_in_a_later_round() -> None:
    s = new(3, pos=[LONDON, LONDON, LONDON])
    choose(s, [8, 10, 5])  # p2's 10 resolves before p1's 8
    assert s.pos[1] == M.DEST[LONDON][10]
    act(s, {"type": "block", "target": "p2"})
    assert s.blocked[1]
    _finish_round(s)
    assert s.round == 2 and s.blocked[1]
    assert RULES.view(s, None)["pawns"][1]["blocked"] is True
    before = s.pos[1]
    choose(s, [10, 8, 10])  # p2 plays its 8: Block only (no Move); p1 and p3 10s resolve first
    assert RULES.to_act(s) == ["p2"]
    assert {"type": "move"} not in RULES.legal_actions(s, "p2")
    act(s, {"type": "block", "target": "p1"})
    assert s.pos[1] == M.DEST[before][3]  # only the Block's own 3 days
    assert not s.blocked[1] and s.blocked[0]


def test_an_already_blocked_pawn_is_not_offered_as_a_block_target() -> None:
    s = new(3)
    s.blocked[2] = True
    choose(s, [8, 10, 5])
    assert RULES.legal_actions(s, "p1") == [{"type": "move"}, {"type": "block", "target": "p2"}]


def test_own_pawns_are_never_targets_and_arrived_pawns_neither() -> None:
    s = new(2)
    s.pos = [PARIS, PARIS, PARIS, PARIS]
    choose(s, [6, 5, 5, 5])
    legal = RULES.legal_actions(s, "p1")
    assert {a.get("target") for a in legal if a["type"] != "move"} == {"p2"}
    assert {a.get("target_colour") for a in legal if a["type"] != "move"} == {"orange", "purple"}


# -- rounds, marker, hands ---------------------------------------------------------------------------------------
def _finish_round(s: DetourState) -> None:
    """Resolve the rest of the round, always moving when possible."""
    while s.phase == "resolve":
        legal = RULES.legal_actions(s, RULES.to_act(s)[0])
        act(s, {"type": "move"} if {"type": "move"} in legal else legal[0])


def test_first_player_marker_passes_left_each_round() -> None:
    s = new(3, first=0)
    for expected in (1, 2, 0):
        choose(s, [RULES.view(s, None)["pawns"][p]["hand"][0] for p in range(3)])
        _finish_round(s)
        assert s.first == expected
    assert RULES.view(s, None)["first"] == {"seat": "p1", "colour": "blue"}


def test_played_cards_stay_out_until_all_four_are_played_then_come_back() -> None:
    s = new(3)
    seen = []
    for rnd in range(5):
        view = RULES.view(s, None)
        seen.append(view["pawns"][0]["hand"])
        card = view["pawns"][0]["hand"][-1]
        choose(s, [card, view["pawns"][1]["hand"][-1], view["pawns"][2]["hand"][-1]])
        _finish_round(s)
        assert s.round == rnd + 2
    assert seen[:5] == [[10, 8, 6, 5], [10, 8, 6], [10, 8], [10], [10, 8, 6, 5]]


# -- end of the game ------------------------------------------------------------------------------------------
def test_reaching_london_ends_the_game_after_the_round() -> None:
    s = new(3, pos=[LIVERPOOL, LONDON, LONDON])
    events = choose(s, [10, 5, 5])
    assert s.arrivals == [0] and s.pos[0] == HOME
    assert "arrived" in types(events)
    # the round goes on: p2 and p3 still resolve their 5s
    while s.phase == "resolve":
        events = act(s, RULES.legal_actions(s, RULES.to_act(s)[0])[0])
    assert RULES.is_over(s) and RULES.to_act(s) == []
    assert events[-1]["type"] == "game_over"
    assert RULES.result(s)["winners"] == ["p1"]
    assert all(RULES.legal_actions(s, seat) == [] for seat in s.seats)
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(s, "p2", {"type": "choose", "card": 10})
    assert exc.value.code == "game_over"


def test_several_arrive_same_round_most_move_value_left_in_hand_wins() -> None:
    s = new(3, pos=[LIVERPOOL, LIVERPOOL, NEW_YORK])
    s.hand = [0b0011, 0b0011, 0b1111]  # p1, p2: 10 and 8 left; p3 full hand
    choose(s, [10, 8, 5])  # p1 arrives with the 10 (8 left), p2 with the 8 (10 left)
    _finish_round(s)
    res = RULES.result(s)
    assert s.arrivals == [0, 1]
    assert res["winners"] == ["p2"]
    assert [(r["seat"], r["rank"], r["hand_value"]) for r in res["ranking"][:2]] == [("p2", 1, 10), ("p1", 2, 8)]
    assert res["ranking"][2]["rank"] == 3 and not res["ranking"][2]["finished"]


def test_equal_hand_value_then_the_earliest_arrival_wins() -> None:
    s = new(3, pos=[LIVERPOOL, LIVERPOOL, LONDON], first=1)
    s.hand = [0b0001, 0b0001, 0b0001]  # the last card of the cycle: nothing left in hand afterwards
    choose(s, [10, 10, 10])  # p2 first (marker), then p3, then p1
    res = RULES.result(s)
    assert s.arrivals == [1, 0]
    assert res["winners"] == ["p2"]
    assert [r["seat"] for r in res["ranking"]] == ["p2", "p1", "p3"]


def test_result_ranks_the_others_by_days_left_ties_share_a_rank() -> None:
    s = new(4, pos=[LIVERPOOL, PARIS, PARIS, SUEZ])
    s.hand = [0b0001] * 4
    choose(s, [10, 10, 10, 10])
    res = RULES.result(s)
    ranks = {r["seat"]: r["rank"] for r in res["ranking"]}
    assert ranks["p1"] == 1 and ranks["p2"] == ranks["p3"]
    assert ranks["p4"] < ranks["p2"]


# -- two players ------------------------------------------------------------------------------------------------
def test_two_players_choose_one_card_per_colour_never_mixing() -> None:
    s = RULES.new_game(["p1", "p2"], 4)
    assert {a["colour"] for a in RULES.legal_actions(s, "p1")} == {"blue", "green"}
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(s, "p1", {"type": "choose", "card": 10})
    assert exc.value.code == "need_colour"
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(s, "p1", {"type": "choose", "card": 10, "colour": "orange"})
    assert exc.value.code == "not_your_colour"
    RULES.apply(s, "p1", {"type": "choose", "card": 10, "colour": "blue"})
    assert RULES.to_act(s) == ["p1", "p2"]  # green still to choose
    assert {a["colour"] for a in RULES.legal_actions(s, "p1")} == {"green"}
    RULES.apply(s, "p1", {"type": "choose", "card": 10, "colour": "green"})  # same value, other colour's hand
    assert RULES.to_act(s) == ["p2"]
    RULES.apply(s, "p2", {"type": "choose", "card": 5, "colour": "orange"})
    RULES.apply(s, "p2", {"type": "choose", "card": 6, "colour": "purple"})
    view = RULES.view(s, None)
    assert view["pawns"][0]["hand"] == [8, 6, 5] and view["pawns"][2]["hand"] == [8, 6, 5]


def _two_player_end(pos: list[int], ender: int = 0) -> dict:
    """The last card of a round: `ender` travels home with a 10 from Liverpool; everything else stands."""
    s = RULES.new_game(["p1", "p2"], 9)
    s.pos = list(pos)
    s.pos[ender] = LIVERPOOL
    s.phase, s.chosen, s.queue = "resolve", [5, 5, 5, 5], [ender]
    s.chosen[ender] = 10
    act(s, {"type": "move"})
    assert s.arrivals == [ender] and RULES.is_over(s)
    return RULES.result(s)


def test_two_players_example_1_second_colour_farther_behind_loses() -> None:
    # p1 (blue) ends the game; p1's green is behind both of p2's pawns -> p1 loses (rule 2)
    res = _two_player_end([0, YOKOHAMA, SUEZ, MIDWAY])
    assert res["winners"] == ["p2"]
    assert res["ranking"][0]["rule"] == 2


def test_two_players_example_2_second_colour_on_the_last_map_card_wins() -> None:
    # p1's green is on map card 4 although behind p2's pawns (which are farther on card 4)
    res = _two_player_end([0, LIVERPOOL, OMAHA, NEW_YORK])
    assert M.MAP_CARD[OMAHA] == 4
    assert res["winners"] == ["p1"]
    assert res["ranking"][0]["rule"] == 1


def test_two_players_example_3_same_map_position_on_a_detour_counts_as_farther_back() -> None:
    # p1's green on Brindisi (side path, column of Turin) vs p2's purple on Turin: same distance on the map
    assert M.COLUMN[BRINDISI] == M.COLUMN[TURIN]
    res = _two_player_end([0, MIDWAY, BRINDISI, TURIN])
    assert res["winners"] == ["p2"]
    res = _two_player_end([0, MIDWAY, TURIN, BRINDISI])  # and the other way round
    assert res["winners"] == ["p1"]


def test_two_players_last_position_is_map_position_not_days_to_go() -> None:
    # Genoa (side, column 1) vs Paris (main, column 1): by days, Genoa is farther from home
    # (46 - ... ) but by map position they tie and the side path loses; against London (column 0) Genoa is ahead.
    res = _two_player_end([0, SUEZ, GENOA, LONDON])
    assert M.DIST[GENOA] > M.DIST[PARIS]
    assert res["winners"] == ["p1"]  # p2's purple in London is the last one


def test_two_players_actions_stay_with_their_colour() -> None:
    s = RULES.new_game(["p1", "p2"], 4)
    s.first = 0
    s.pos = [LONDON, PARIS, LONDON, LONDON]
    choose(s, [6, 5, 5, 5])  # blue 6 resolves first: detour orange (at Paris) or move
    assert RULES.to_act(s) == ["p1"]
    assert RULES.view(s, None)["resolving"]["colour"] == "blue"
    events = act(s, {"type": "move"})
    assert next(e for e in events if e["type"] == "move")["colour"] == "blue"
    assert s.pos[0] == M.DEST[LONDON][6] and s.pos[2] == LONDON  # green did not move with blue's card


# -- refusals ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("action", "code"), [
    ("nonsense", "malformed"),
    ({"card": 10}, "malformed"),
    ({"type": "fly"}, "unknown_action"),
    ({"type": "move"}, "not_resolving"),
    ({"type": "choose", "card": 7}, "bad_card"),
    ({"type": "choose", "card": "10"}, "bad_card"),
    ({"type": "choose", "card": True}, "bad_card"),
    ({"type": "choose", "card": 10, "extra": 1}, "bad_card"),
])
def test_malformed_actions_refused_with_state_unchanged(action, code: str) -> None:
    s = new(3)
    before = RULES.dump(s)
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(s, "p1", action)
    assert exc.value.code == code
    assert RULES.dump(s) == before


def test_wrong_seat_wrong_phase_and_bad_targets_refused_with_state_unchanged() -> None:
    s = new(3, pos=[LONDON, PARIS, LONDON])
    choose(s, [6, 5, 5])
    before = RULES.dump(s)
    for seat, action, code in [
        ("p2", {"type": "move"}, "not_your_turn"),
        ("p9", {"type": "move"}, "not_a_player"),
        ("p1", {"type": "choose", "card": 10}, "already_revealed"),
        ("p1", {"type": "detour", "target": "p3"}, "bad_target"),
        ("p1", {"type": "detour", "target": "p1"}, "bad_target"),
        ("p1", {"type": "block", "target": "p2"}, "wrong_card"),
        ("p1", {"type": "detour"}, "bad_target"),
        ("p1", {"type": "move", "days": 99}, "malformed"),
    ]:
        with pytest.raises(IllegalAction) as exc:
            RULES.apply(s, seat, action)
        assert exc.value.code == code, (seat, action)
        assert RULES.dump(s) == before


def test_blocked_move_refused() -> None:
    s = new(3, pos=[LONDON, PARIS, LONDON])
    s.blocked[0] = True
    choose(s, [8, 5, 5])
    before = RULES.dump(s)
    with pytest.raises(IllegalAction) as exc:
        RULES.apply(s, "p1", {"type": "move"})
    assert exc.value.code == "blocked"
    assert RULES.dump(s) == before


def test_dump_load_round_trip_mid_game() -> None:
    s = new(4, pos=[PARIS, CALCUTTA, GENOA, LONDON])
    RULES.apply(s, "p3", {"type": "choose", "card": 6})
    data = json.loads(json.dumps(RULES.dump(s)))
    assert RULES.load(data) == s


def test_two_players_game_over_event_names_the_deciding_rule() -> None:
    s = RULES.new_game(["p1", "p2"], 9)
    s.pos = [LIVERPOOL, YOKOHAMA, OMAHA, MIDWAY]
    s.phase, s.chosen, s.queue = "resolve", [10, 5, 5, 5], [0]
    events = act(s, {"type": "move"})
    over = events[-1]
    assert over["type"] == "game_over" and over["rule"] == 1 and over["winner"] == "p1"
