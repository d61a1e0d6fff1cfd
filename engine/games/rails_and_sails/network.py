"""Route networks and destination tickets in Rails & Sails: connected components, the
search for a ticket's cities in order, ticket status and points."""

from __future__ import annotations

from collections.abc import Callable

from .board import ORDER_BUDGET
from .mapdata import (
    ROUTES_BY_ID,
    TICKETS_BY_ID,
)


# -- networks and tickets ----------------------------------------------------------------------------
def network(route_ids: list[str]) -> dict[str, list[tuple[str, str]]]:
    adj: dict[str, list[tuple[str, str]]] = {}
    for rid in route_ids:
        r = ROUTES_BY_ID[rid]
        adj.setdefault(r.a, []).append((r.b, rid))
        adj.setdefault(r.b, []).append((r.a, rid))
    return adj


def components(adj: dict[str, list[tuple[str, str]]]) -> dict[str, int]:
    comp: dict[str, int] = {}
    n = 0
    for start in adj:
        if start in comp:
            continue
        comp[start] = n
        stack = [start]
        while stack:
            node = stack.pop()
            for nb, _ in adj[node]:
                if nb not in comp:
                    comp[nb] = n
                    stack.append(nb)
        n += 1
    return comp


def _distances(adj: dict[str, list[tuple[str, str]]], target: str) -> dict[str, int]:
    """Hops from every node of the network to `target` (BFS)."""
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for node in frontier:
            for nb, _ in adj.get(node, ()):
                if nb not in dist:
                    dist[nb] = dist[node] + 1
                    nxt.append(nb)
        frontier = nxt
    return dist


def _closest_first(dist: dict[str, int], far: int) -> Callable[[tuple[str, str]], int]:
    """Sort key for an edge (neighbour, route): the neighbour's hops to the target; `far`
    (past every reachable node) when it cannot reach the target."""
    return lambda e: dist.get(e[0], far)


def in_order(adj: dict[str, list[tuple[str, str]]], cities: tuple[str, ...]) -> bool:
    """True if a trail (a walk that never reuses a route) through the network visits the cities
    in the printed order: equivalently, route-disjoint paths city1->city2, city2->city3, ...

    Depth-first over simple paths, segment by segment, always trying the neighbour closest to
    the segment's target first (so the direct connections are found at once), after a quick
    necessary check: every middle city needs two routes (in and out), each end one."""
    last = len(cities) - 1
    for k, city in enumerate(cities):
        if len(adj.get(city, ())) < (1 if k in (0, last) else 2):
            return False
    budget = [ORDER_BUDGET]
    used: set[str] = set()
    order: list[dict[str, list[tuple[str, str]]]] = []
    for k in range(last):
        dist = _distances(adj, cities[k + 1])
        far = len(dist) + 1
        key = _closest_first(dist, far)
        order.append({node: sorted(edges, key=key) for node, edges in adj.items()})

    def segment(i: int) -> bool:
        if i == last:
            return True
        dst = cities[i + 1]
        visited = {cities[i]}
        ordered = order[i]

        def dfs(node: str) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if node == dst:
                return segment(i + 1)
            for nb, rid in ordered.get(node, ()):
                if rid in used or nb in visited:
                    continue
                used.add(rid)
                visited.add(nb)
                if dfs(nb):
                    return True
                visited.discard(nb)
                used.discard(rid)
            return False

        return dfs(cities[i])

    return segment(0)


def ticket_status(ticket_id: str, adj: dict[str, list[tuple[str, str]]], comp: dict[str, int]) -> str:
    """"done" (two cities joined), "order"/"any" (route ticket), or "open"."""
    t = TICKETS_BY_ID[ticket_id]
    first = comp.get(t.cities[0])
    connected = first is not None and all(comp.get(c) == first for c in t.cities[1:])
    if not connected:
        return "open"
    if not t.is_route:
        return "done"
    return "order" if in_order(adj, t.cities) else "any"


def ticket_points(ticket_id: str, status: str) -> int:
    t = TICKETS_BY_ID[ticket_id]
    if not t.is_route:
        return t.points[0] if status == "done" else -t.points[0]
    if status == "order":
        return t.points[0]
    if status == "any":
        return t.points[1]
    return -t.points[2]
