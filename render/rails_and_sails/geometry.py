"""Where things go on the rails-and-sails board: layout and colours, the map projection, the
routes' geometry (computed once from the map data), the checks that no two routes cross and
none runs through a city, and the placement of the city labels."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from render.common import font

# ---------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------
WIDTH = 1800
HEADER = 64
LAT_TOP = 78.0
LAT_BOTTOM = -57.0
SX = WIDTH / 360.0           # px per degree of longitude
SY = SX * 1.12               # px per degree of latitude (equirectangular, standard parallel ~27°)
MAP_H = round((LAT_TOP - LAT_BOTTOM) * SY)
MAP_TOP = HEADER
PANEL_TOP = MAP_TOP + MAP_H
PANEL_H = 280
HEIGHT = PANEL_TOP + PANEL_H
SS = 2                        # supersampling of the static layer and the sprites

SEA = (190, 216, 232)
SEA_DEEP = (172, 203, 224)
LAND = (238, 232, 212)
LAND_EDGE = (150, 160, 150)
LAKE = (190, 216, 232)
HARBOR_BLUE = (24, 92, 170)
PANEL_BG = (250, 246, 238)
HIGHLIGHT = (255, 214, 0)

ROUTE_COLOURS: dict[str, tuple[int, int, int]] = {
    "purple": (139, 84, 178),
    "yellow": (247, 205, 52),
    "green": (52, 150, 72),
    "red": (214, 48, 42),
    "black": (45, 45, 48),
    "white": (252, 252, 250),
    "grey": (168, 168, 168),
}
#: ink for the symbol on a space of that colour
SYMBOL_INK: dict[str, tuple[int, int, int]] = {
    "purple": (255, 255, 255), "yellow": (60, 50, 0), "green": (255, 255, 255), "red": (255, 255, 255),
    "black": (255, 255, 255), "white": (40, 40, 40), "grey": (40, 40, 40),
}
#: the second cue of each colour (shape drawn on every space and card)
SYMBOLS: dict[str, str] = {
    "purple": "diamond", "yellow": "dot", "green": "triangle", "red": "cross",
    "black": "bar", "white": "ring", "grey": "",
}
COLOUR_ORDER = ["purple", "yellow", "green", "red", "black", "white", "grey"]

TRAIN_W = 12.0   # across the route
SHIP_W = 13.0
MAX_SPACE = 30.0
DOUBLE_GAP = 8.5  # half the distance between the centre lines of a double pair
CITY_R = 7.0

#: Bends (px, perpendicular to a→b at the middle of the route) that keep routes from
#: crossing or touching other cities. Keyed by the pair of nodes ("a|b", sorted), so both
#: routes of a double pair bend together.
BENDS: dict[str, float] = {
    "buenos_aires|cape_town": 90.0, "buenos_aires|lima": 18.0, "cape_town|dar_es_salaam": -12.0,
    "caracas|mexico": -6.0, "edinburgh|new_york": -45.0, "honolulu|los_angeles": 12.0, "lahore|tehran": 12.0,
    "los_angeles|mexico": 6.0, "los_angeles|new_york": 6.0, "luanda|rio_de_janeiro": 18.0,
    "petropavlovsk|yakutsk": -6.0, "tokyo|vancouver": -45.0,
}
#: Extra room (px) before the first space at one end of a route, where two routes leave a
#: city almost side by side: keyed by (pair key, city).
START_GAP: dict[tuple[str, str], float] = {
    ("los_angeles|tokyo", "tokyo"): 14.0, ("novosibirsk|tiksi", "novosibirsk"): 14.0,
}

#: what the board says per city: (city id, name) in the map data's order (hashable: the key of
#: the cached static layer and label sprites)
Labels = tuple[tuple[str, str], ...]


def _mapdata() -> Any:
    from engine.games.rails_and_sails import mapdata

    return mapdata


#: what the board says per city: (city id, name) in the map data's order (hashable: the key of
# ---------------------------------------------------------------------------
# Geometry (computed once from the map data)
# ---------------------------------------------------------------------------
Point = tuple[float, float]


class Space:
    __slots__ = ("x", "y", "angle", "length", "rough")

    def __init__(self, x: float, y: float, angle: float, length: float, rough: bool) -> None:
        self.x, self.y, self.angle, self.length, self.rough = x, y, angle, length, rough


class RouteGeom:
    """One route on the image, in unwrapped pixel coordinates (x may leave [0, WIDTH))."""

    __slots__ = ("id", "kind", "colour", "length", "centre", "path", "spaces", "wraps", "pair_key")

    def __init__(self, rid: str, kind: str, colour: str, length: int, centre: list[Point], path: list[Point],
                 spaces: list[Space], wraps: bool, pair_key: str) -> None:
        self.id, self.kind, self.colour, self.length = rid, kind, colour, length
        self.centre, self.path, self.spaces, self.wraps, self.pair_key = centre, path, spaces, wraps, pair_key


class Geometry:
    def __init__(self, cut: float, nodes: dict[str, Point], routes: dict[str, RouteGeom]) -> None:
        self.cut, self.nodes, self.routes = cut, nodes, routes


def _choose_cut(md: Any) -> float:
    """The longitude of the map's left edge: the data's own seam (`SEAM_LON`) when it puts
    exactly the routes flagged `wraps` across the edge, else the middle of the widest gap
    that does."""
    lons = {**{c.id: c.lon for c in md.CITIES.values()}, **{k: v[0] for k, v in md.WAYPOINTS.items()}}

    def consistent(cut: float) -> bool:
        for r in md.ROUTES:
            xa, xb = (lons[r.a] - cut) % 360, (lons[r.b] - cut) % 360
            if (abs(xa - xb) > 180) != bool(r.wraps):
                return False
        return True

    seam = getattr(md, "SEAM_LON", None)
    if isinstance(seam, (int, float)) and consistent(float(seam)):
        return float(seam)
    feasible = [consistent(cut10 / 10) for cut10 in range(-1800, 1800, 5)]
    best, best_len, start = -138.0, -1, None
    n = len(feasible)
    for i in range(n + 1):
        if i < n and feasible[i]:
            if start is None:
                start = i
        elif start is not None:
            if i - start > best_len:
                best_len = i - start
                best = (-1800 + 5 * (start + i - 1) / 2) / 10
            start = None
    return best


def _project(lon: float, lat: float, cut: float) -> Point:
    return ((lon - cut) % 360.0) * SX, MAP_TOP + (LAT_TOP - lat) * SY


def _bezier(a: Point, c: Point, b: Point, steps: int) -> list[Point]:
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append((u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]))
    return out


def _offset(points: list[Point], d: float) -> list[Point]:
    """The polyline moved sideways by d px (left of the direction of travel)."""
    if d == 0:
        return list(points)
    out = []
    n = len(points)
    for i in range(n):
        x0, y0 = points[max(0, i - 1)]
        x1, y1 = points[min(n - 1, i + 1)]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        out.append((points[i][0] - dy / length * d, points[i][1] + dx / length * d))
    return out


def _cumulative(points: list[Point]) -> list[float]:
    acc = [0.0]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        acc.append(acc[-1] + math.hypot(x1 - x0, y1 - y0))
    return acc


def _at(points: list[Point], acc: list[float], s: float) -> tuple[float, float, float]:
    """Point and direction (radians) at arc length s."""
    s = max(0.0, min(acc[-1], s))
    for i in range(1, len(acc)):
        if acc[i] >= s or i == len(acc) - 1:
            seg = acc[i] - acc[i - 1] or 1.0
            t = (s - acc[i - 1]) / seg
            (x0, y0), (x1, y1) = points[i - 1], points[i]
            return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, math.atan2(y1 - y0, x1 - x0)
    x, y = points[-1]
    return x, y, 0.0


def pair_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def build_geometry(md: Any, bends: dict[str, float] | None = None,
                   start_gap: dict[tuple[str, str], float] | None = None) -> Geometry:
    bends = BENDS if bends is None else bends
    gaps = START_GAP if start_gap is None else start_gap
    cut = _choose_cut(md)
    nodes: dict[str, Point] = {c.id: _project(c.lon, c.lat, cut) for c in md.CITIES.values()}
    for wid, (lon, lat) in md.WAYPOINTS.items():
        nodes[wid] = _project(lon, lat, cut)
    routes: dict[str, RouteGeom] = {}
    for r in md.ROUTES:
        a_id, b_id = sorted((r.a, r.b))
        a, b = nodes[a_id], nodes[b_id]
        if r.wraps:
            b = (b[0] - WIDTH, b[1]) if a[0] < b[0] else (b[0] + WIDTH, b[1])
        dx, dy = b[0] - a[0], b[1] - a[1]
        dist = math.hypot(dx, dy) or 1.0
        key = pair_key(r.a, r.b)
        bend = bends.get(key, 0.0)
        mid = ((a[0] + b[0]) / 2 - dy / dist * bend * 2, (a[1] + b[1]) / 2 + dx / dist * bend * 2)
        centre = _bezier(a, mid, b, 32)
        side = 0.0
        if r.double:
            side = -DOUBLE_GAP if r.id < r.double else DOUBLE_GAP
        path = _offset(centre, side)
        acc = _cumulative(path)
        margin_a = ((CITY_R + 5) if a_id in md.CITIES else 3.0) + gaps.get((key, a_id), 0.0)
        margin_b = ((CITY_R + 5) if b_id in md.CITIES else 3.0) + gaps.get((key, b_id), 0.0)
        usable = acc[-1] - margin_a - margin_b
        pitch = usable / r.length
        length = max(6.0, min(MAX_SPACE, pitch - 3.0))
        spaces = []
        rough = int(getattr(r, "rough", 0) or 0)
        first_rough = (r.length - rough) // 2
        for i in range(r.length):
            x, y, ang = _at(path, acc, margin_a + pitch * (i + 0.5))
            spaces.append(Space(x, y, ang, length, first_rough <= i < first_rough + rough))
        routes[r.id] = RouteGeom(r.id, r.kind, r.colour, r.length, centre, path, spaces, bool(r.wraps), key)
    return Geometry(cut, nodes, routes)


@lru_cache(maxsize=1)
def _twins() -> dict[str, str]:
    return {r.id: r.double for r in _mapdata().ROUTES if r.double}


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    return build_geometry(_mapdata())


# ---------------------------------------------------------------------------
# Crossing check (also used by the tests)
# ---------------------------------------------------------------------------
def _segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0 and d3 != 0 and d4 != 0


def _trimmed(points: list[Point], trim: float) -> list[Point]:
    acc = _cumulative(points)
    total = acc[-1]
    out = [p for p, s in zip(points, acc, strict=True) if trim <= s <= total - trim]
    return out if len(out) >= 2 else [points[0], points[-1]]


def route_crossings(geom: Geometry | None = None) -> list[tuple[str, str]]:
    """Pairs of routes (one per double pair) whose drawn centre lines cross on the image,
    away from the cities they end at. The map wraps, so each pair is also compared shifted
    by one map width."""
    geom = geom or geometry()
    seen: dict[str, RouteGeom] = {}
    for g in geom.routes.values():
        seen.setdefault(g.pair_key, g)
    items = [(k, _trimmed(g.centre, CITY_R + 6)) for k, g in sorted(seen.items())]
    boxes = []
    for _, pts in items:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    found = []
    for i in range(len(items)):
        ki, pi = items[i]
        bi = boxes[i]
        for j in range(i + 1, len(items)):
            kj, pj = items[j]
            bj = boxes[j]
            for shift in (-WIDTH, 0.0, WIDTH):
                if bi[0] > bj[2] + shift or bj[0] + shift > bi[2] or bi[1] > bj[3] or bj[1] > bi[3]:
                    continue
                qj = [(x + shift, y) for x, y in pj]
                if any(_segments_cross(a, b, c, d) for a, b in zip(pi, pi[1:], strict=False)
                       for c, d in zip(qj, qj[1:], strict=False)):
                    found.append((ki, kj))
                    break
    return found


def routes_through_cities(geom: Geometry | None = None, clearance: float = CITY_R + 4) -> list[tuple[str, str]]:
    """(route pair key, city) where a route's spaces pass over a city it does not end at."""
    geom = geom or geometry()
    md = _mapdata()
    found = []
    for g in geom.routes.values():
        ends = set(g.pair_key.split("|"))
        for cid, (cx, cy) in geom.nodes.items():
            if cid in ends or cid not in md.CITIES:
                continue
            for s in g.spaces:
                for shift in (-WIDTH, 0.0, WIDTH):
                    if math.hypot(s.x + shift - cx, s.y - cy) < clearance + s.length / 2:
                        found.append((g.pair_key, cid))
                        break
                else:
                    continue
                break
    return sorted(set(found))


def space_clashes(geom: Geometry | None = None, min_gap: float = 9.0) -> list[tuple[str, str]]:
    """Pairs of routes (different pairs) with spaces whose centres lie closer than min_gap px."""
    geom = geom or geometry()
    pts: list[tuple[float, float, str]] = []
    for g in geom.routes.values():
        for s in g.spaces:
            x = s.x % WIDTH
            pts.append((x, s.y, g.pair_key))
    pts.sort()
    found: set[tuple[str, str]] = set()
    for i, (x, y, k) in enumerate(pts):
        for j in range(i + 1, len(pts)):
            x2, y2, k2 = pts[j]
            if x2 - x > min_gap:
                break
            if k2 != k and math.hypot(x2 - x, y2 - y) < min_gap:
                found.add((k, k2) if k < k2 else (k2, k))
    return sorted(found)


def _edge_crossings(g: RouteGeom) -> list[tuple[float, float, int]]:
    """(x, y, direction) at each map edge where the route's centre line leaves or enters."""
    out = []
    pts = g.centre
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        for edge in (0.0, float(WIDTH)):
            if (x0 - edge) * (x1 - edge) < 0:
                t = (edge - x0) / (x1 - x0)
                y = y0 + (y1 - y0) * t
                # arrows sit at both edges at this height, pointing off the map
                out.append((WIDTH - 2.0, y, 1))
                out.append((2.0, y, -1))
    return out


Box = tuple[float, float, float, float]


def _label_boxes(geom: Geometry) -> tuple[list[Box], list[Box]]:
    """What a label should not cover: every space (its rotated outline's box), every city."""
    md = _mapdata()
    boxes = []
    for g in geom.routes.values():
        for sp in g.spaces:
            for shift in _shifts(sp.x, sp.x):
                poly = _space_outline(sp, g.kind, shift, 1.0, widen=1.0)
                xs, ys = [p[0] for p in poly], [p[1] for p in poly]
                boxes.append((min(xs), min(ys), max(xs), max(ys)))
    cities = []
    for cid, (x, y) in geom.nodes.items():
        r = 16.0 if cid in md.CITIES and md.CITIES[cid].harbor else CITY_R + 2
        cities.append((x - r, y - r, x + r, y + r))
    return boxes, cities


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


LABEL_FONT = 21


def _place_labels(geom: Geometry, labels: Labels) -> dict[str, tuple[float, float, str]]:
    """Greedy label placement: each city tries spots around it at three distances and keeps
    the one that covers the fewest spaces, cities and labels already placed."""
    md = _mapdata()
    f = font(LABEL_FONT, "semibold")
    obstacles, cities = _label_boxes(geom)
    placed: list[tuple[float, float, float, float]] = []
    result: dict[str, tuple[float, float, str]] = {}
    names = dict(labels)

    def crowd(cid: str) -> int:
        x, y = geom.nodes[cid]
        return -sum(1 for b in obstacles if abs((b[0] + b[2]) / 2 - x) < 70 and abs((b[1] + b[3]) / 2 - y) < 45)

    for cid in sorted(md.CITIES, key=lambda c: (crowd(c), c)):
        x, y = geom.nodes[cid]
        text = names.get(cid) or md.CITIES[cid].name
        w = f.getlength(text) + 4
        h = LABEL_FONT + 2
        best = None
        for step, extra in enumerate((0.0, 7.0, 14.0)):
            d = CITY_R + 3 + extra
            candidates = [
                (x + d, y - h / 2, 0.0), (x - d - w, y - h / 2, 1.0),
                (x - w / 2, y - d - h, 0.5), (x - w / 2, y + d, 0.5),
                (x + d * 0.7, y - d * 0.7 - h, 1.5), (x + d * 0.7, y + d * 0.7, 1.5),
                (x - d * 0.7 - w, y - d * 0.7 - h, 2.0), (x - d * 0.7 - w, y + d * 0.7, 2.0),
            ]
            for lx, ly, pref in candidates:
                box = (lx, ly, lx + w, ly + h)
                cost = pref * 30 + step * 150
                if box[0] < 2 or box[2] > WIDTH - 2 or box[1] < MAP_TOP + 2 or box[3] > PANEL_TOP - 2:
                    cost += 1e6
                cost += sum(_overlap(box, o) for o in obstacles) * 0.6
                cost += sum(_overlap(box, o) for o in cities) * 6.0
                cost += sum(_overlap(box, p) for p in placed) * 8.0
                if best is None or cost < best[0]:
                    best = (cost, box)
        assert best is not None
        box = best[1]
        placed.append(box)
        result[cid] = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, text)
    return result


def _space_outline(s: Space, kind: str, shift: float, scale: float, widen: float = 0.0) -> list[Point]:
    """Polygon of one space: a rotated rectangle (train) or an oval (ship)."""
    cx, cy = (s.x + shift) * scale, (s.y - 0) * scale
    half_l = (s.length / 2 + widen) * scale
    half_w = ((TRAIN_W if kind == "train" else SHIP_W) / 2 + widen) * scale
    ca, sa = math.cos(s.angle), math.sin(s.angle)
    if kind == "train":
        corners = [(-half_l, -half_w), (half_l, -half_w), (half_l, half_w), (-half_l, half_w)]
    else:
        corners = [(half_l * math.cos(t), half_w * math.sin(t)) for t in (2 * math.pi * k / 20 for k in range(20))]
    return [(cx + u * ca - v * sa, cy + u * sa + v * ca) for u, v in corners]


def _shifts(xmin: float, xmax: float) -> list[float]:
    return [s for s in (-WIDTH, 0.0, WIDTH) if xmax + s >= -40 and xmin + s <= WIDTH + 40]
