"""eighty-days content: counts per the rulebook, a connected map, completable cards,
suitcases that hold roughly 4-7 items."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games.eighty_days import content as C
from engine.games.eighty_days.packing import SIZES, suitcase


def test_rulebook_counts() -> None:
    assert dict(zip(C.ITEMS, C.ITEM_COUNTS, strict=True)) == {
        "shoes": 12, "revolver": 8, "hat": 8, "umbrella": 8, "coat": 8}
    assert len(C.NEWSPAPERS) == 9 and C.NEWSPAPERS_PER_GAME == 5
    assert len(C.ASSISTANTS) == 10 and len(set(C.ASSISTANTS)) == 10
    assert len(C.PASS_TILES) == 6 and C.START_TILE in C.PASS_TILES
    assert len(C.LINE_TILES) == 16 and len(C.TILE_SPACES) == 16
    assert len(C.ADVENTURES) == 30 and len(C.LONDON_ADVENTURES) == 8
    assert len(C.ARRIVAL_CARDS) == 3 and list(C.ARRIVAL_CARDS) == sorted(C.ARRIVAL_CARDS, reverse=True)
    assert len(C.SUITCASES) == 4
    assert C.JUGGLER == (2, 1, 1)
    assert C.FIX_COINS[2] and len(C.FIX_COINS[3]) == 2 and C.FIX_COINS[4] == ()


def test_map_every_city_reaches_london_and_has_a_market() -> None:
    between = [c for c in C.CITIES if c not in (C.START, C.ARRIVAL)]
    assert 18 <= len(between) <= 24
    assert set(C.DISTANCE) == set(C.CITIES)  # every city is connected to the arrival
    assert all(C.CITIES[c][0] in (C.BOUTIQUE, C.BAZAAR, C.BOTH) for c in C.CITIES)
    assert {C.CITIES[c][0] for c in between} == {C.BOUTIQUE, C.BAZAAR, C.BOTH}


def test_lines_kinds_and_costs() -> None:
    kinds = Counter(line[2] for line in C.LINES.values())
    assert set(kinds) == {C.SHIP, C.TRAIN, C.SPECIAL}
    costed = sum(1 for line in C.LINES.values() if line[3] is not None)
    assert 0.25 <= costed / len(C.LINES) <= 0.42  # about a third of the lines (side A)
    for a, b, _kind, cost, _space in C.LINES.values():
        assert a in C.CITIES and b in C.CITIES and a != b
        assert cost is None or cost[0] == "coins" and 1 <= cost[1] <= 3 or cost[0] == "item" and cost[1] in C.ITEMS
    # between two neighbouring cities at most 3 lines, of different kinds
    pairs = Counter(frozenset(line[:2]) for line in C.LINES.values())
    assert max(pairs.values()) <= 3
    for pair in pairs:
        kinds_here = [line[2] for line in C.LINES.values() if frozenset(line[:2]) == pair]
        assert len(kinds_here) == len(set(kinds_here))


def test_adventures_are_completable_somewhere() -> None:
    markets = {m for m, _x, _y in C.CITIES.values()}
    for cid, (market, items, coins, _points, bonus) in C.ALL_ADVENTURES.items():
        assert any(C.market_allows(m, market) for m in markets), cid
        counts = tuple(items.get(name, 0) for name in C.ITEMS)
        assert all(n <= C.ITEM_COUNTS[k] for k, n in enumerate(counts))
        # the items fit in every suitcase (a player can hold them all at once)
        assert all(suitcase(ch, False).fits(counts) for ch in C.CHARACTERS), cid
        assert items or coins
        assert bonus is None or bonus[0] in ("roll", "item", "coins", "travel")
    assert all(1 <= C.ADVENTURES[c][3] <= 6 for c in C.ADVENTURES)
    assert min(C.LONDON_ADVENTURES[c][3] for c in C.LONDON_ADVENTURES) >= 4
    assert sum(1 for c in C.ADVENTURES.values() if c[4]) >= 10  # at least a third with a bonus
    assert all(c[4] is None or c[4][0] != "travel" for c in C.LONDON_ADVENTURES.values())


@pytest.mark.parametrize("character", C.CHARACTERS)
def test_suitcases_hold_four_to_seven_items(character: str) -> None:
    case = suitcase(character, False)
    mixed = (2, 1, 1, 1, 1)  # two shoes and one of every other item
    assert case.fits(mixed)
    assert not case.fits((0, 0, 0, 0, 5))  # five coats never
    assert case.fits((7, 0, 0, 0, 0)) and case.capacity < 8 * SIZES[0] + 6
    bigger = suitcase(character, True)
    assert bigger.capacity == case.capacity + 6 and bigger.fits((5, 1, 1, 1, 1))


def test_amelie_table() -> None:
    assert [C.amelie_points(n) for n in range(0, 10)] == [0, 0, 0, 1, 2, 4, 6, 9, 12, 16]
