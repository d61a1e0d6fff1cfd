"""detour: the map data follows the decisions note (cards, costs, side paths, red lines, blue area)."""

from __future__ import annotations

from collections import Counter

from engine.games.detour import mapdata as M


def _walk(start: int, stop: int) -> tuple[list[int], int]:
    """Spaces and total days from `start` forward until `stop`."""
    at, days, seen = start, 0, [start]
    while at != stop:
        days += M.COST[at]
        at = M.NEXT[at]
        seen.append(at)
        assert len(seen) < 100
    return seen, days


def test_four_map_cards_of_four_to_six_main_spaces() -> None:
    per_card = Counter(card for _, card in M.MAIN)
    assert sorted(per_card) == [1, 2, 3, 4]
    assert all(4 <= n <= 6 for n in per_card.values())
    # the main path runs through the cards in order
    cards = [card for _, card in M.MAIN]
    assert cards == sorted(cards)


def test_every_cost_between_1_and_8_and_the_last_leg_is_8() -> None:
    assert all(1 <= c <= 8 for c in M.COST)
    assert M.LAST_LEG == 8 and M.MAIN_COSTS[-1] == 8
    last = M.N_MAIN - 1
    assert M.MAP_CARD[last] == 4 and M.NEXT[last] == M.FIN and M.COST[last] == 8
    assert {M.COST[s] for s in range(M.N_SPACES)} >= {1, 2, 3, 4, 5, 8}  # a real spread of costs


def test_two_or_three_side_paths_each_longer_than_what_it_bypasses_with_a_red_line() -> None:
    assert 2 <= len(M.SIDE_PATHS) <= 3
    for at, spaces, costs, rejoin in M.SIDE_PATHS:
        assert M.SIDE_OF[at] == -1 and at < rejoin < M.N_MAIN
        first = M.RED[at]
        assert first >= M.N_MAIN and M.SIDE_OF[first] >= 0  # red line at its start
        assert len(spaces) == len(costs)
        side, side_days = _walk(first, rejoin)
        main, main_days = _walk(at, rejoin)
        assert side_days > main_days, (M.NAMES[at], side_days, main_days)
        assert len(side) - 1 == len(spaces)  # exactly its spaces, then the rejoin space
    red_lines = [s for s in range(M.N_SPACES) if M.RED[s] >= 0]
    assert len(red_lines) == len(M.SIDE_PATHS)
    assert all(M.SIDE_OF[s] == -1 for s in red_lines)  # only on the main path


def test_blue_middle_area_on_map_cards_2_and_3() -> None:
    assert M.BLUE
    assert {M.MAP_CARD[s] for s in M.BLUE} == {2, 3}
    assert all(M.SIDE_OF[s] == -1 for s in M.BLUE)


def test_every_space_is_reachable_and_every_space_reaches_home() -> None:
    reached = set(_walk(M.START, M.FIN)[0])
    for s in range(M.N_MAIN):
        if M.RED[s] >= 0:
            reached |= set(_walk(M.RED[s], M.FIN)[0])
    assert reached == set(range(M.N_SPACES)) | {M.FIN}
    for s in range(M.N_SPACES):
        assert _walk(s, M.FIN)[1] == M.DIST[s]


def test_backward_links_and_map_positions() -> None:
    for s in range(M.N_SPACES):
        if M.PREV[s] >= 0:
            assert M.NEXT[M.PREV[s]] == s
    assert M.PREV[M.START] == -1
    for at, _, _, rejoin in M.SIDE_PATHS:
        assert M.PREV[M.RED[at]] == -1  # not from the first space of a side path
        assert M.PREV[rejoin] == rejoin - 1  # a rejoin space goes back along the main path
    assert [M.COLUMN[s] for s in range(M.N_MAIN)] == list(range(M.N_MAIN))
    for s in range(M.N_MAIN, M.N_SPACES):
        assert 0 < M.COLUMN[s] < M.N_MAIN


def test_dest_table_matches_a_step_by_step_walk() -> None:
    for s in range(M.N_SPACES):
        for days in range(M.MAX_DAYS + 1):
            at, left = s, days
            while at != M.FIN and M.COST[at] <= left:
                left -= M.COST[at]
                at = M.NEXT[at]
            assert M.DEST[s][days] == at


def test_track_length_fits_the_tuned_game_length() -> None:
    # tuned by AI self-play to 8-14 rounds (docs/games/detour.md); ~7 rounds solo
    assert 40 <= M.TOTAL_DAYS <= 60
