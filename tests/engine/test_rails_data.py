"""Rails & Sails map, route, ticket and card data."""

from __future__ import annotations

import heapq
from collections import Counter

from engine.games.rails_and_sails.mapdata import (
    CITIES,
    COLOURS,
    ROUTE_POINTS,
    ROUTES,
    ROUTES_BY_ID,
    SHIP_CARDS,
    TICKETS,
    TRAIN_CARDS,
    WAYPOINTS,
)

INLAND = {"beijing", "djibouti", "lahore", "mexico", "moskva", "novosibirsk", "tehran", "winnipeg", "yakutsk"}
ROUGH = {
    frozenset(p)
    for p in [("vancouver", "anchorage"), ("marseille", "casablanca"), ("lahore", "tehran"), ("beijing", "lahore"),
              ("dar_es_salaam", "luanda")]
}
WRAPS = {
    frozenset(p)
    for p in [("anchorage", "vancouver"), ("anchorage", "cambridge_bay"), ("vancouver", "tokyo"),
              ("los_angeles", "tokyo"), ("los_angeles", "honolulu"), ("lima", "honolulu"), ("lima", "sydney"),
              ("valparaiso", "christchurch")]
}


def _adj() -> dict[str, list[tuple[str, int]]]:
    adj: dict[str, list[tuple[str, int]]] = {}
    for r in ROUTES:
        adj.setdefault(r.a, []).append((r.b, r.length))
        adj.setdefault(r.b, []).append((r.a, r.length))
    return adj


def _dist(adj: dict[str, list[tuple[str, int]]], a: str) -> dict[str, int]:
    dist = {a: 0}
    heap = [(0, a)]
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist[node]:
            continue
        for nb, w in adj[node]:
            if d + w < dist.get(nb, 10**9):
                dist[nb] = d + w
                heapq.heappush(heap, (d + w, nb))
    return dist


def test_cities():
    assert len(CITIES) == 47
    assert sum(c.harbor for c in CITIES.values()) == 38
    assert {c.id for c in CITIES.values() if not c.harbor} == INLAND
    for cid, c in CITIES.items():
        assert cid == c.id
        assert -180 <= c.lon <= 180 and -90 <= c.lat <= 90
    # a few real positions (sanity of lon/lat order)
    assert CITIES["sydney"].lat < -30 and CITIES["sydney"].lon > 150
    assert CITIES["reykjavik"].lat > 60 and CITIES["reykjavik"].lon < 0


def test_routes_shape():
    assert len(ROUTES) == 130
    assert len({r.id for r in ROUTES}) == len(ROUTES)
    nodes = set(CITIES) | set(WAYPOINTS)
    for r in ROUTES:
        assert r.a in nodes and r.b in nodes and r.a != r.b
        assert r.kind in ("train", "ship")
        assert r.colour in COLOURS or r.colour == "grey"
        if r.kind == "train":
            assert 1 <= r.length <= 4
        else:
            assert 1 <= r.length <= 8 and r.rough == 0
        assert r.length in ROUTE_POINTS


def test_double_pairs():
    doubles = [r for r in ROUTES if r.double]
    assert len(doubles) == 68  # 34 pairs
    for r in doubles:
        twin = ROUTES_BY_ID[r.double]
        assert twin.double == r.id
        assert {twin.a, twin.b} == {r.a, r.b} and twin.kind == r.kind and twin.length == r.length
    # known colours of a few pairs
    pair = {ROUTES_BY_ID["new_york-los_angeles-train-1"].colour, ROUTES_BY_ID["new_york-los_angeles-train-2"].colour}
    assert pair == {"purple", "black"}
    assert ROUTES_BY_ID["valparaiso-lima-train-1"].colour == ROUTES_BY_ID["valparaiso-lima-train-2"].colour == "grey"
    assert {ROUTES_BY_ID["lima-sydney-ship-1"].colour, ROUTES_BY_ID["lima-sydney-ship-2"].colour} == {"purple", "black"}


def test_rough_and_wrap_flags():
    rough = {frozenset((r.a, r.b)) for r in ROUTES if r.rough}
    assert rough == ROUGH
    # every space of a rough route is rough; its colour never matters, so it is grey
    assert all(r.kind == "train" and r.rough == r.length and r.colour == "grey" for r in ROUTES if r.rough)
    wraps = {frozenset((r.a, r.b)) for r in ROUTES if r.wraps}
    assert wraps == WRAPS


def test_cape_town_perth_crossing_via_waypoint():
    legs = [r for r in ROUTES if "indian_ocean" in (r.a, r.b)]
    assert len(legs) == 2
    assert {r.a for r in legs} | {r.b for r in legs} == {"cape_town", "perth", "indian_ocean"}
    assert all(r.kind == "ship" and r.length == 5 for r in legs)
    assert "indian_ocean" not in CITIES


def test_cards():
    assert len(TRAIN_CARDS) == 80 and len(SHIP_CARDS) == 60
    t = Counter(TRAIN_CARDS)
    s = Counter(SHIP_CARDS)
    assert t["t:wild"] == 14
    for c in COLOURS:
        assert t[f"t:{c}"] + t[f"t:{c}:h"] == 11 and t[f"t:{c}:h"] == 4
        assert s[f"s:{c}"] == 4 and s[f"s:{c}:2"] == 6
    assert sum(s.values()) == 60 and len(s) == 12


def test_tickets():
    assert len(TICKETS) == 65
    assert len({t.id for t in TICKETS}) == 65
    route_tickets = [t for t in TICKETS if t.is_route]
    assert len(route_tickets) == 8
    for t in TICKETS:
        assert all(c in CITIES for c in t.cities)
        if t.is_route:
            assert len(t.points) == 3 and t.points[0] > t.points[1] > 0 and t.points[2] > t.points[0]
        else:
            assert len(t.cities) == 2 and len(t.points) == 1


def test_every_city_reachable_and_every_ticket_connectable():
    adj = _adj()
    dist = _dist(adj, "hamburg")
    assert set(CITIES) <= set(dist)
    for t in TICKETS:
        for a, b in zip(t.cities, t.cities[1:], strict=False):
            assert b in _dist(adj, a)


def test_ticket_values_track_cheapest_connection():
    adj = _adj()
    pairs = []
    for t in TICKETS:
        if t.is_route:
            continue
        a, b = t.cities
        pairs.append((_dist(adj, a)[b], t.points[0]))
    # rank correlation (Spearman) between shortest length and value is clearly positive
    n = len(pairs)

    def ranks(xs: list[int]) -> list[float]:
        order = sorted(range(n), key=lambda i: xs[i])
        r = [0.0] * n
        for pos, i in enumerate(order):
            r[i] = pos
        return r

    rd = ranks([p[0] for p in pairs])
    rv = ranks([p[1] for p in pairs])
    mean = (n - 1) / 2
    cov = sum((x - mean) * (y - mean) for x, y in zip(rd, rv, strict=True))
    var = sum((x - mean) ** 2 for x in rd)
    assert cov / var > 0.5


def test_colours_balanced_by_length_within_each_kind():
    for kind in ("train", "ship"):
        total = Counter()
        for r in ROUTES:
            if r.kind == kind and r.colour != "grey":
                total[r.colour] += r.length
        assert set(total) == set(COLOURS)
        assert max(total.values()) - min(total.values()) <= 2, (kind, total)


def test_wrap_flags_match_the_seam():
    from engine.games.rails_and_sails.mapdata import SEAM_LON

    def x(node: str) -> float:
        lon = CITIES[node].lon if node in CITIES else WAYPOINTS[node][0]
        return lon if lon >= SEAM_LON else lon + 360

    for r in ROUTES:
        # drawn the short way round on a map from SEAM_LON to SEAM_LON + 360
        assert r.wraps == (abs(x(r.a) - x(r.b)) > 180), r.id
