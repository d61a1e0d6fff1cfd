"""Board and hand images for `rails-and-sails` (world map with trains, ships and harbors).

The board is an equirectangular world map drawn from real coastlines (GSHHS, shipped
simplified in ``render/data/coastlines.json``; see ``render/data/build_coastlines.py``)
with the map's east–west edge in the Pacific, so routes flagged ``wraps`` leave one edge
and enter the other. Everything that never changes during a game (sea, land, unclaimed
routes, cities, labels) is drawn once per language, supersampled for smooth edges, and
cached; a turn only pastes the claimed routes (cached sprites per route and player),
the harbors built, the last-move highlight and the panels.

Colour is never the only cue: every route colour also has a symbol on each space
(red ×, yellow dot, green triangle, purple diamond, black bar, white ring, grey none),
and every player has a letter and a shape (`render.common.player_style`).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MUTED,
    PLAYER_COLOURS,
    draw_text,
    draw_token,
    encode_png,
    fit_text,
    font,
    player_style,
    text_length,
)

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

# ---------------------------------------------------------------------------
# Texts
# ---------------------------------------------------------------------------
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "turn": "Turn {n}", "to_play": "{name} to play", "second_card": "taking a second card", "final": "Final round",
        "setup_tickets": "Setup: everyone keeps at least 3 of 5 tickets",
        "setup_pieces": "Setup: everyone secretly picks 60 pieces", "over": "Game over", "winner": "Winner: {names}",
        "score": "Pts", "trains": "Trains", "ships": "Ships", "harbors": "Harbors", "cards": "Cards",
        "tickets": "Tickets", "face_up": "Face-up cards", "train_deck": "Train deck", "ship_deck": "Ship deck",
        "discard": "discard", "ticket_deck": "Tickets", "secret": "secret", "last": "Last move", "wild": "WILD",
        "chosen": "ready", "choosing": "choosing", "last.claim": "{name} claimed {route}",
        "last.harbor": "{name} built a harbor in {city}", "last.draw": "{name} took",
        "last.tickets": "{name} kept {n} tickets", "last.exchange": "{name} exchanged {n} pieces for {what}",
        "last.other": "{name}: {type}", "last.mix": "{name} chose a mix of pieces", "last.pass": "{name} passed",
        "hand": "{name}'s hand", "train_cards": "Train cards", "ship_cards": "Ship cards", "your_tickets": "Tickets",
        "pending": "Choose tickets to keep", "harbors_left": "Harbors left", "no_cards": "none",
        "no_tickets": "no tickets yet", "done": "done", "open": "open", "in_order": "done in order",
        "any_order": "done, any order", "route_ticket": "route ticket",
        "in_box": "in the box: {t} trains · {s} ships", "final.total": "Total",
        "final.routes": "Routes", "final.tickets": "Tickets", "final.harbors": "Harbors", "final.completed": "Done",
        "legend.train": "train route", "legend.ship": "ship route", "legend.rough": "rough: 2 cards a space",
        "legend.harbor_city": "harbor city", "legend.harbor": "harbor built", "legend.wrap": "continues opposite",
        "colour.grey": "grey: any one colour", "colour.purple": "purple", "colour.yellow": "yellow",
        "colour.green": "green", "colour.red": "red", "colour.black": "black", "colour.white": "white",
    },
    "de": {
        "turn": "Spielzug {n}", "to_play": "{name} ist dran", "second_card": "nimmt eine zweite Karte",
        "final": "Letzte Runde",
        "setup_tickets": "Vorbereitung: alle behalten mindestens 3 von 5 Zielkarten",
        "setup_pieces": "Vorbereitung: alle wählen geheim 60 Figuren", "over": "Spielende", "winner": "Sieg: {names}",
        "score": "Pkt", "trains": "Züge", "ships": "Schiffe", "harbors": "Häfen", "cards": "Karten",
        "tickets": "Ziele", "face_up": "Offene Karten", "train_deck": "Wagenstapel", "ship_deck": "Schiffsstapel",
        "discard": "Ablage", "ticket_deck": "Zielkarten", "secret": "geheim", "last": "Letzter Zug", "wild": "JOKER",
        "chosen": "bereit", "choosing": "wählt", "last.claim": "{name} hat {route} gebaut",
        "last.harbor": "{name} hat in {city} einen Hafen gebaut", "last.draw": "{name} nahm",
        "last.tickets": "{name} behielt {n} Zielkarten", "last.exchange": "{name} tauschte {n} Figuren gegen {what}",
        "last.other": "{name}: {type}", "last.mix": "{name} hat Figuren gewählt", "last.pass": "{name} hat gepasst",
        "hand": "Hand von {name}", "train_cards": "Wagenkarten", "ship_cards": "Schiffskarten",
        "your_tickets": "Zielkarten", "pending": "Zielkarten zum Behalten wählen", "harbors_left": "Häfen übrig",
        "no_cards": "keine", "no_tickets": "noch keine Zielkarten", "done": "erfüllt", "open": "offen",
        "in_order": "erfüllt, in Reihenfolge", "any_order": "erfüllt, andere Reihenfolge",
        "route_ticket": "Routenkarte", "in_box": "in der Schachtel: {t} Züge · {s} Schiffe",
        "final.total": "Gesamt", "final.routes": "Strecken", "final.tickets": "Ziele", "final.harbors": "Häfen",
        "final.completed": "Erfüllt", "legend.train": "Zugstrecke", "legend.ship": "Schiffsstrecke",
        "legend.rough": "Gelände: 2 Karten/Feld", "legend.harbor_city": "Hafenstadt", "legend.harbor": "Hafen gebaut",
        "legend.wrap": "weiter gegenüber", "colour.grey": "grau: beliebige Farbe", "colour.purple": "lila",
        "colour.yellow": "gelb", "colour.green": "grün", "colour.red": "rot", "colour.black": "schwarz",
        "colour.white": "weiß",
    },
    "fr": {
        "turn": "Tour {n}", "to_play": "À {name} de jouer", "second_card": "prend une deuxième carte",
        "final": "Dernier tour",
        "setup_tickets": "Mise en place : chacun garde au moins 3 destinations sur 5",
        "setup_pieces": "Mise en place : chacun choisit en secret 60 pions", "over": "Partie terminée",
        "winner": "Victoire : {names}", "score": "Pts", "trains": "Trains", "ships": "Bateaux", "harbors": "Ports",
        "cards": "Cartes", "tickets": "Destin.", "face_up": "Cartes visibles", "train_deck": "Pioche wagons",
        "ship_deck": "Pioche bateaux", "discard": "défausse", "ticket_deck": "Destinations", "secret": "secret",
        "last": "Dernier coup", "wild": "JOKER", "chosen": "prêt", "choosing": "choisit",
        "last.claim": "{name} a pris {route}", "last.harbor": "{name} a construit un port à {city}",
        "last.draw": "{name} a pris", "last.tickets": "{name} a gardé {n} destinations",
        "last.exchange": "{name} a échangé {n} pions contre des {what}", "last.other": "{name} : {type}",
        "last.mix": "{name} a choisi ses pions", "last.pass": "{name} a passé", "hand": "Main de {name}",
        "train_cards": "Cartes wagon", "ship_cards": "Cartes bateau", "your_tickets": "Destinations",
        "pending": "Destinations à garder", "harbors_left": "Ports restants", "no_cards": "aucune",
        "no_tickets": "pas encore de destination", "done": "réussie", "open": "en cours",
        "in_order": "réussie dans l'ordre", "any_order": "réussie, désordre", "route_ticket": "itinéraire",
        "in_box": "dans la boîte : {t} trains · {s} bateaux", "final.total": "Total",
        "final.routes": "Trajets", "final.tickets": "Destin.", "final.harbors": "Ports",
        "final.completed": "Réussies", "legend.train": "voie ferrée", "legend.ship": "voie maritime",
        "legend.rough": "terrain : 2 cartes par case", "legend.harbor_city": "ville portuaire",
        "legend.harbor": "port construit", "legend.wrap": "suite en face",
        "colour.grey": "gris : une couleur au choix", "colour.purple": "violet", "colour.yellow": "jaune",
        "colour.green": "vert", "colour.red": "rouge", "colour.black": "noir", "colour.white": "blanc",
    },
}

def _t(lang: str, key: str, **fields: Any) -> str:
    table = TEXTS.get(lang, TEXTS["en"])
    text = table.get(key, TEXTS["en"].get(key, key))
    return text.format(**fields) if fields else text


def _mapdata() -> Any:
    from engine.games.rails_and_sails import mapdata

    return mapdata


#: what the board says per city: (city id, name) in the map data's order (hashable: the key of
#: the cached static layer and label sprites)
Labels = tuple[tuple[str, str], ...]
#: `translator(key, **params) -> str`: the game's catalog in the image's language
Translator = Callable[..., str]


def city_name(city_id: str, translator: Translator | None = None) -> str:
    """The name the board draws for a city: the catalog's `city.<id>` through `translator`
    (the game's catalogs are the one source of city names per language), else the map data's
    name (a renderer called without a translator, e.g. in tests)."""
    if translator is not None:
        key = f"city.{city_id}"
        text = translator(key)
        if text and text != key:
            return text
    city = _mapdata().CITIES.get(city_id)
    return city.name if city is not None else city_id.replace("_", " ").title()


def city_labels(translator: Translator | None = None) -> Labels:
    """Every city's name as the board draws it (see `city_name`)."""
    return tuple((cid, city_name(cid, translator)) for cid in _mapdata().CITIES)


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
    found = set()
    for i, (x, y, k) in enumerate(pts):
        for j in range(i + 1, len(pts)):
            x2, y2, k2 = pts[j]
            if x2 - x > min_gap:
                break
            if k2 != k and math.hypot(x2 - x, y2 - y) < min_gap:
                found.add(tuple(sorted((k, k2))))
    return sorted(found)


# ---------------------------------------------------------------------------
# Primitives (all take a scale so the same code draws supersampled and 1:1)
# ---------------------------------------------------------------------------
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


def _draw_symbol(draw: ImageDraw.ImageDraw, cx: float, cy: float, colour: str, r: float,
                 ink: tuple[int, int, int] | None = None) -> None:
    """The shape cue of a route/card colour, upright, radius r."""
    shape = SYMBOLS.get(colour, "")
    ink = ink or SYMBOL_INK.get(colour, INK)
    w = max(1, round(r * 0.45))
    if shape == "dot":
        draw.ellipse((cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), fill=ink)
    elif shape == "ring":
        draw.ellipse((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), outline=ink, width=w)
    elif shape == "triangle":
        draw.polygon([(cx, cy - r), (cx + r * 0.95, cy + r * 0.75), (cx - r * 0.95, cy + r * 0.75)], fill=ink)
    elif shape == "diamond":
        draw.polygon([(cx, cy - r), (cx + r * 0.85, cy), (cx, cy + r), (cx - r * 0.85, cy)], fill=ink)
    elif shape == "cross":
        d = r * 0.75
        draw.line((cx - d, cy - d, cx + d, cy + d), fill=ink, width=w)
        draw.line((cx - d, cy + d, cx + d, cy - d), fill=ink, width=w)
    elif shape == "bar":
        draw.rectangle((cx - r * 0.9, cy - r * 0.3, cx + r * 0.9, cy + r * 0.3), fill=ink)


ROUGH_INK = (110, 62, 20)
#: how far the rough-terrain mountain sits from a space's centre line (px), and its half width
ROUGH_MARK_OFF = TRAIN_W / 2 + 8
ROUGH_MARK_R = 7.0


def _draw_rough_mark(draw: ImageDraw.ImageDraw, s: Space, shift: float, scale: float) -> None:
    """The rough-terrain mark of one space: a little mountain beside it, on its left-hand side
    (drawn with the free route and again over a claimed one, so it always shows)."""
    nx, ny = math.sin(s.angle), -math.cos(s.angle)
    mx, my = (s.x + shift + nx * ROUGH_MARK_OFF) * scale, (s.y + ny * ROUGH_MARK_OFF) * scale
    m = ROUGH_MARK_R * scale
    draw.polygon([(mx - m, my + m * 0.6), (mx, my - m * 0.8), (mx + m, my + m * 0.6)], fill=ROUGH_INK,
                 outline=(255, 250, 240), width=max(1, round(scale)))


def _draw_space(draw: ImageDraw.ImageDraw, s: Space, kind: str, colour: str, shift: float, scale: float,
                fill: tuple[int, int, int] | None = None, symbol: bool = True) -> None:
    outline = ROUGH_INK if s.rough else (40, 40, 40)
    poly = _space_outline(s, kind, shift, scale)
    draw.polygon(poly, fill=fill or ROUTE_COLOURS.get(colour, (168, 168, 168)), outline=outline,
                 width=max(1, round(scale * (2.2 if s.rough else 1.2))))
    if s.rough:
        _draw_rough_mark(draw, s, shift, scale)
    if symbol and SYMBOLS.get(colour):
        _draw_symbol(draw, (s.x + shift) * scale, s.y * scale, colour, 3.6 * scale)


def _draw_anchor(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple[int, int, int],
                 badge: tuple[int, int, int] | None = HARBOR_BLUE) -> None:
    """The harbor symbol: an anchor, optionally on a round badge."""
    if badge is not None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=badge, outline=(255, 255, 255), width=max(1, round(r / 6)))
    w = max(1, round(r / 5))
    top, bottom = cy - r * 0.55, cy + r * 0.55
    draw.line((cx, top + r * 0.2, cx, bottom), fill=ink, width=w)
    draw.line((cx - r * 0.35, cy - r * 0.15, cx + r * 0.35, cy - r * 0.15), fill=ink, width=w)
    ring = r * 0.17
    draw.ellipse((cx - ring, top - ring + r * 0.05, cx + ring, top + ring + r * 0.05), outline=ink, width=w)
    draw.arc((cx - r * 0.55, bottom - r * 0.75, cx + r * 0.55, bottom + r * 0.1), 20, 160, fill=ink, width=w)


def _shifts(xmin: float, xmax: float) -> list[float]:
    return [s for s in (-WIDTH, 0.0, WIDTH) if xmax + s >= -40 and xmin + s <= WIDTH + 40]


# ---------------------------------------------------------------------------
# The static layer: map, unclaimed routes, cities, labels (cached per language)
# ---------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _coastlines() -> list[tuple[int, list[float]]]:
    data = json.loads((Path(__file__).parent / "data" / "coastlines.json").read_text())
    return [(level, [v / 100 for v in coords]) for level, coords in data["polygons"]]


def _draw_world(img: Image.Image, cut: float) -> None:
    s = SS
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, img.width, img.height), fill=SEA)
    # graticule every 30°, faint
    for lat in range(-30, 90, 30):
        y = (LAT_TOP - lat) * SY * s
        draw.line((0, y, img.width, y), fill=SEA_DEEP, width=s)
    for lon in range(-180, 180, 30):
        x = ((lon - cut) % 360) * SX * s
        draw.line((x, 0, x, img.height), fill=SEA_DEEP, width=s)
    edge_w = max(1, round(0.9 * s))
    for level, coords in _coastlines():
        lons, lats = coords[0::2], coords[1::2]
        base = [((lon - cut) * SX, (LAT_TOP - lat) * SY) for lon, lat in zip(lons, lats, strict=True)]
        xs = [p[0] for p in base]
        for shift in (-WIDTH, 0.0, WIDTH, 2 * WIDTH):
            if max(xs) + shift < 0 or min(xs) + shift > WIDTH:
                continue
            pts = [((x + shift) * s, y * s) for x, y in base]
            draw.polygon(pts, fill=LAND if level == 1 else LAKE)
            # the outline, without the artificial seam along ±180°
            n = len(pts)
            for i in range(n):
                j = (i + 1) % n
                if abs(lons[i]) > 179.9 and abs(lons[j]) > 179.9:
                    continue
                draw.line((pts[i], pts[j]), fill=LAND_EDGE, width=edge_w)


def _wrap_arrow(draw: ImageDraw.ImageDraw, x: float, y: float, direction: int, colour: str | tuple[int, int, int],
                scale: float) -> None:
    """A chevron at the map edge: the route goes on at the other side."""
    s = scale
    tip = x * s
    back = (x - direction * 16) * s
    h = 9 * s
    fill = colour if isinstance(colour, tuple) else ROUTE_COLOURS.get(colour, (168, 168, 168))
    draw.polygon([(tip, y * s), (back, y * s - h), (back + direction * 5 * s, y * s), (back, y * s + h)],
                 fill=fill, outline=(30, 30, 30), width=max(1, round(s * 1.2)))


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
        text = names.get(cid) or city_name(cid)
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


@lru_cache(maxsize=4)
def _label_sprites(labels: Labels) -> list[tuple[int, int, Image.Image]]:
    """City names as small RGBA sprites, pasted over the claimed routes every turn."""
    f = font(LABEL_FONT, "semibold")
    out = []
    for _cid, (x, y, text) in sorted(_place_labels(geometry(), labels).items()):
        w = math.ceil(f.getlength(text)) + 12
        h = LABEL_FONT + 14
        img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        ImageDraw.Draw(img).text((w / 2, h / 2), text, font=f, fill=INK + (255,), anchor="mm", stroke_width=3,
                                 stroke_fill=(255, 253, 246, 255))
        out.append((round(x - w / 2), round(y - h / 2), img))
    return out


@lru_cache(maxsize=4)
def _static(labels: Labels) -> Image.Image:
    """The map with unclaimed routes, cities and their labels (one per language's names)."""
    geom = geometry()
    md = _mapdata()
    s = SS
    big = Image.new("RGB", (WIDTH * s, MAP_H * s), SEA)
    _draw_world(big, geom.cut)
    # routes are drawn in map coordinates; the map image starts at MAP_TOP
    layer = Image.new("RGBA", (WIDTH * s, (MAP_H + MAP_TOP) * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for g in geom.routes.values():
        xs = [sp.x for sp in g.spaces]
        for shift in _shifts(min(xs), max(xs)):
            for sp in g.spaces:
                _draw_space(draw, sp, g.kind, g.colour, shift, s)
        if g.wraps:
            for x, y, direction in _edge_crossings(g):
                _wrap_arrow(draw, x, y, direction, g.colour, s)
    # cities
    for cid, c in md.CITIES.items():
        x, y = geom.nodes[cid]
        r = CITY_R * s
        fill = HARBOR_BLUE if c.harbor else (60, 60, 60)
        draw.ellipse((x * s - r, y * s - r, x * s + r, y * s + r), fill=fill, outline=(255, 255, 255), width=2 * s)
        if c.harbor:
            _draw_anchor(draw, x * s, y * s, r * 0.95, (255, 255, 255), badge=None)
    for wid in md.WAYPOINTS:
        x, y = geom.nodes[wid]
        r = 4 * s
        draw.ellipse((x * s - r, y * s - r, x * s + r, y * s + r), fill=SEA, outline=(40, 40, 40), width=s)
    big_rgba = big.convert("RGBA")
    big_rgba.alpha_composite(layer.crop((0, MAP_TOP * s, WIDTH * s, (MAP_TOP + MAP_H) * s)))
    map_img = big_rgba.convert("RGB").resize((WIDTH, MAP_H), Image.Resampling.LANCZOS)
    board = Image.new("RGB", (WIDTH, HEIGHT), PANEL_BG)
    board.paste(map_img, (0, MAP_TOP))
    bd = ImageDraw.Draw(board)
    bd.line((0, MAP_TOP, WIDTH, MAP_TOP), fill=(60, 60, 60), width=2)
    bd.line((0, PANEL_TOP, WIDTH, PANEL_TOP), fill=(60, 60, 60), width=2)
    for x, y, sprite in _label_sprites(labels):
        board.paste(sprite, (x, y), sprite)
    return board


# ---------------------------------------------------------------------------
# Per-turn drawing: claimed routes (cached sprites), harbors, highlight, panels
# ---------------------------------------------------------------------------
_SPRITES: dict[tuple[str, int], list[tuple[int, int, Image.Image]]] = {}


def _claimed_sprite(route_id: str, player: int) -> list[tuple[int, int, Image.Image]]:
    """The route's spaces in the player's colour with the player's letter, as RGBA pieces
    (one per side of the map for routes that wrap). Cached: 130 routes x 5 players at most."""
    key = (route_id, player)
    cached = _SPRITES.get(key)
    if cached is not None:
        return cached
    g = geometry().routes[route_id]
    colour, letter, _shape = player_style(player)
    pieces = []
    xs = [sp.x for sp in g.spaces]
    ys = [sp.y for sp in g.spaces]
    pad = MAX_SPACE / 2 + 4
    if any(sp.rough for sp in g.spaces):
        pad = max(pad, ROUGH_MARK_OFF + ROUGH_MARK_R + 3)
    for shift in _shifts(min(xs), max(xs)):
        x0 = max(0, math.floor(min(xs) + shift - pad))
        x1 = min(WIDTH, math.ceil(max(xs) + shift + pad))
        y0, y1 = math.floor(min(ys) - pad), math.ceil(max(ys) + pad)
        if x1 <= x0:
            continue
        big = Image.new("RGBA", ((x1 - x0) * SS, (y1 - y0) * SS), (0, 0, 0, 0))
        draw = ImageDraw.Draw(big)
        for sp in g.spaces:
            local = Space(sp.x + shift - x0, sp.y - y0, sp.angle, sp.length, sp.rough)
            poly = _space_outline(local, g.kind, 0, SS, widen=2.2)
            draw.polygon(poly, fill=(20, 20, 20, 255))
            poly = _space_outline(local, g.kind, 0, SS, widen=-0.3)
            draw.polygon(poly, fill=colour + (255,), outline=(255, 255, 255, 255), width=round(1.2 * SS))
            if sp.rough:
                _draw_rough_mark(draw, local, 0, SS)
        img = big.resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
        d1 = ImageDraw.Draw(img)
        f = font(14, "bold")
        for sp in g.spaces:
            cx, cy = sp.x + shift - x0, sp.y - y0
            d1.text((cx, cy), letter, font=f, fill=(255, 255, 255, 255), anchor="mm", stroke_width=2,
                    stroke_fill=(20, 20, 20, 255))
        pieces.append((x0, y0, img))
    _SPRITES[key] = pieces
    return pieces


_BLOCKED: dict[str, list[tuple[int, int, Image.Image]]] = {}


def _blocked_sprite(route_id: str) -> list[tuple[int, int, Image.Image]]:
    """A veil over a double route's twin that can no longer be used (2–3 players)."""
    cached = _BLOCKED.get(route_id)
    if cached is not None:
        return cached
    g = geometry().routes[route_id]
    xs = [sp.x for sp in g.spaces]
    ys = [sp.y for sp in g.spaces]
    pad = MAX_SPACE / 2 + 4
    pieces = []
    for shift in _shifts(min(xs), max(xs)):
        x0 = max(0, math.floor(min(xs) + shift - pad))
        x1 = min(WIDTH, math.ceil(max(xs) + shift + pad))
        y0, y1 = math.floor(min(ys) - pad), math.ceil(max(ys) + pad)
        if x1 <= x0:
            continue
        img = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
        draw = ImageDraw.Draw(img)
        for sp in g.spaces:
            local = Space(sp.x + shift - x0, sp.y - y0, sp.angle, sp.length, sp.rough)
            draw.polygon(_space_outline(local, g.kind, 0, 1.0, widen=1.0), fill=(235, 232, 225, 215))
            d = min(sp.length, TRAIN_W) / 2 - 1
            cx, cy = local.x, local.y
            draw.line((cx - d, cy - d, cx + d, cy + d), fill=(90, 90, 90, 255), width=2)
            draw.line((cx - d, cy + d, cx + d, cy - d), fill=(90, 90, 90, 255), width=2)
        pieces.append((x0, y0, img))
    _BLOCKED[route_id] = pieces
    return pieces


def _seat_index(view: dict[str, Any]) -> dict[str, int]:
    return {s: i for i, s in enumerate(view.get("seats", []))}


def _route_label(route_id: str, cities: dict[str, str]) -> str:
    md = _mapdata()
    r = getattr(md, "ROUTES_BY_ID", None)
    route = r.get(route_id) if r else next((x for x in md.ROUTES if x.id == route_id), None)
    if route is None:
        return route_id
    a = cities.get(route.a, "·")
    b = cities.get(route.b, "·")
    return f"{a}–{b} ({route.length})"


def _fit(text: str, f: Any, width: float) -> str:
    return fit_text(text, f, width)


#: room for one name in a line that may list several players
NAME_IN_LINE_W = 260


def _fit_name(lang: str, key: str, name: str, f: Any, width: float, **fields: Any) -> str:
    """The text `key` with `name` shortened so that the whole text fits `width`: the
    words around a long name stay readable."""
    room = width - text_length(_t(lang, key, name="", **fields), f)
    return _t(lang, key, name=fit_text(name, f, max(room, 0)), **fields)


def _highlight_route(board: Image.Image, route_id: str, player: int) -> None:
    """The last claimed route: a bright frame around each of its spaces."""
    g = geometry().routes.get(route_id)
    if g is None:
        return
    draw = ImageDraw.Draw(board)
    xs = [p[0] for p in g.path]
    for shift in _shifts(min(xs), max(xs)):
        for sp in g.spaces:
            poly = _space_outline(sp, g.kind, shift, 1.0, widen=6.0)
            draw.polygon(poly, outline=HIGHLIGHT, width=4)
            poly = _space_outline(sp, g.kind, shift, 1.0, widen=8.0)
            draw.polygon(poly, outline=(120, 90, 0), width=2)


def _draw_harbor(draw: ImageDraw.ImageDraw, x: float, y: float, player: int, highlight: bool) -> None:
    if highlight:
        draw.ellipse((x - 21, y - 21, x + 21, y + 21), fill=HIGHLIGHT, outline=(120, 90, 0), width=2)
    draw.ellipse((x - 15, y - 15, x + 15, y + 15), fill=HARBOR_BLUE, outline=(255, 255, 255), width=3)
    draw_token(draw, (x, y), 10, player)


def _draw_header(board: Image.Image, view: dict[str, Any], names: dict[str, str], lang: str) -> None:
    draw = ImageDraw.Draw(board)
    draw.rectangle((0, 0, WIDTH, MAP_TOP - 1), fill=PANEL_BG)
    idx = _seat_index(view)
    phase = view.get("phase")
    big = font(30, "bold")
    mid = font(24, "semibold")
    x = 18
    cy = MAP_TOP / 2
    if view.get("over") or phase == "over":
        text = _t(lang, "over")
        draw.text((x, cy), text, font=big, fill=INK, anchor="lm")
        x += big.getlength(text) + 24
        result = view.get("result") or {}
        winners = result.get("winners") or []
        if winners:
            who = ", ".join(_fit(names.get(w, w), mid, NAME_IN_LINE_W) for w in winners)
            draw_text(draw, (x, cy), _t(lang, "winner", names=who), font=mid, fill=INK, anchor="lm",
                      max_width=WIDTH - 16 - x)
        return
    turn = view.get("turn")
    if turn is not None and phase == "play":
        text = _t(lang, "turn", n=turn)
        draw.text((x, cy), text, font=mid, fill=MUTED, anchor="lm")
        x += mid.getlength(text) + 20
    if phase in ("setup_tickets", "setup_pieces"):
        draw.text((x, cy), _t(lang, phase), font=big, fill=INK, anchor="lm")
    else:
        current = view.get("current") or (view.get("to_act") or [None])[0]
        if current is not None:
            draw_token(draw, (x + 16, cy), 16, idx.get(current, 0))
            x += 42
            text = _fit_name(lang, "to_play", names.get(current, current), big, 700)
            width = draw_text(draw, (x, cy), text, font=big, fill=INK, anchor="lm")
            if view.get("drawn"):
                draw.text((x + width + 16, cy), _t(lang, "second_card"), font=mid, fill=MUTED, anchor="lm")
    final = view.get("final_turns_left")
    if final:
        f = font(24, "bold")
        parts = [f"{_fit(names.get(s, s), f, NAME_IN_LINE_W)} {n}" for s, n in final.items()]
        text = _fit(f"{_t(lang, 'final')}: " + " · ".join(parts), f, 820)
        w = text_length(text, f)
        x1 = WIDTH - 16
        draw.rounded_rectangle((x1 - w - 28, 10, x1, MAP_TOP - 10), radius=10, fill=(200, 40, 30))
        draw_text(draw, (x1 - 14, cy), text, font=f, fill=(255, 255, 255), anchor="rm")


def _last_text(view: dict[str, Any], names: dict[str, str], lang: str, cities: dict[str, str]) -> str | None:
    """One line about the last move (the engine's public `last`)."""
    last = view.get("last")
    if not last:
        return None
    seat = last.get("seat")
    name = _fit(names.get(seat, seat or "?"), font(22, "semibold"), NAME_IN_LINE_W)
    kind = last.get("type", "")
    if kind == "claim" and last.get("route"):
        text = _t(lang, "last.claim", name=name, route=_route_label(last["route"], cities))
        points = last.get("points")
        return f"{text}  +{points}" if isinstance(points, int) else text
    if kind == "harbor" and last.get("city"):
        return _t(lang, "last.harbor", name=name, city=cities.get(last["city"], last["city"]))
    if kind == "draw":
        return _t(lang, "last.draw", name=name)
    if kind in ("tickets", "keep_tickets"):
        return _t(lang, "last.tickets", name=name, n=last.get("count", "?"))
    if kind == "exchange":
        n = last.get("trains", 0)
        return _t(lang, "last.exchange", name=name, n=abs(n) if isinstance(n, int) else n,
                  what=_t(lang, "trains" if isinstance(n, int) and n > 0 else "ships"))
    if kind == "choose_mix":
        return _t(lang, "last.mix", name=name)
    if kind == "pass":
        return _t(lang, "last.pass", name=name)
    return _t(lang, "last.other", name=name, type=kind.replace("_", " "))


def _last_cards(view: dict[str, Any]) -> list[str]:
    """Cards shown with the last move: the face-up cards taken (blind draws as card backs)."""
    last = view.get("last") or {}
    if last.get("type") != "draw":
        return []
    out = []
    for item in last.get("cards") or []:
        if isinstance(item, dict) and isinstance(item.get("face_up"), str):
            out.append(item["face_up"])
        elif isinstance(item, dict) and item.get("blind") in ("train", "ship"):
            out.append("back:" + item["blind"])
    return out


def _draw_card_back(img: Image.Image, x: float, y: float, kind: str, w: int, h: int) -> None:
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=5, fill=(70, 80, 100), outline=INK, width=2)
    cx, cy = x + w / 2, y + h / 2
    if kind == "train":
        draw.rectangle((cx - w * 0.3, cy - h * 0.12, cx + w * 0.3, cy + h * 0.12), fill=(230, 230, 230))
    else:
        draw.ellipse((cx - w * 0.32, cy - h * 0.12, cx + w * 0.32, cy + h * 0.12), fill=(230, 230, 230))


def _icon_train(draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int] = INK) -> None:
    draw.rectangle((x - 11, y - 6, x + 11, y + 6), fill=colour)


def _icon_ship(draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int] = INK) -> None:
    draw.ellipse((x - 12, y - 6, x + 12, y + 6), fill=colour)


def _draw_final(board: Image.Image, view: dict[str, Any], names: dict[str, str], lang: str) -> None:
    """The final table: rank, total and where the points came from."""
    draw = ImageDraw.Draw(board)
    ranking = (view.get("result") or {}).get("ranking") or []
    idx = _seat_index(view)
    top = PANEL_TOP + 10
    head = font(19, "semibold")
    body = font(24, "regular")
    bold = font(24, "bold")
    cols = {"total": 380, "routes": 480, "tickets": 580, "harbors": 680, "completed": 790}
    for key, x in cols.items():
        draw.text((x, top + 12), _t(lang, "final." + key), font=head, fill=MUTED, anchor="mm")
    n = max(1, len(ranking))
    row_h = min(40, (PANEL_H - 50) / n)
    for i, row in enumerate(ranking):
        seat = row.get("seat")
        y = top + 44 + row_h * i + row_h / 2
        if row.get("rank") == 1:
            draw.rounded_rectangle((8, y - row_h / 2 + 2, 850, y + row_h / 2 - 2), radius=8, fill=(255, 236, 170),
                                   outline=(200, 160, 40), width=2)
        draw.text((22, y), f"{row.get('rank', '?')}.", font=bold, fill=INK, anchor="mm")
        draw_token(draw, (56, y), min(15, row_h / 2 - 3), idx.get(seat, 0))
        draw_text(draw, (80, y), names.get(seat, str(seat)), font=body, fill=INK, anchor="lm", max_width=230)
        draw.text((cols["total"], y), str(row.get("score", "–")), font=bold, fill=INK, anchor="mm")
        for key in ("routes", "tickets", "harbors"):
            value = row.get(key)
            text = "–" if value is None else (f"+{value}" if isinstance(value, int) and value > 0 else str(value))
            draw.text((cols[key], y), text, font=body, fill=INK, anchor="mm")
        detail = row.get("ticket_detail")
        done = row.get("completed")
        if done is not None:
            total = len(detail) if isinstance(detail, list) else None
            draw.text((cols["completed"], y), f"{done}/{total}" if total is not None else str(done), font=body,
                      fill=INK, anchor="mm")


def _draw_players(board: Image.Image, view: dict[str, Any], names: dict[str, str], lang: str) -> None:
    draw = ImageDraw.Draw(board)
    seats = view.get("seats", [])
    top = PANEL_TOP + 10
    head = font(19, "semibold")
    body = font(24, "regular")
    bold = font(24, "bold")
    cols = {"score": 360, "trains": 450, "ships": 540, "harbors": 630, "cards": 720, "tickets": 810}
    # column heads with small icons
    draw.text((cols["score"], top + 12), _t(lang, "score"), font=head, fill=MUTED, anchor="mm")
    _icon_train(draw, cols["trains"], top + 4, MUTED)
    draw.text((cols["trains"], top + 22), _t(lang, "trains"), font=head, fill=MUTED, anchor="mm")
    _icon_ship(draw, cols["ships"], top + 4, MUTED)
    draw.text((cols["ships"], top + 22), _t(lang, "ships"), font=head, fill=MUTED, anchor="mm")
    draw.text((cols["harbors"], top + 22), _t(lang, "harbors"), font=head, fill=MUTED, anchor="mm")
    _draw_anchor(draw, cols["harbors"], top + 3, 8, (255, 255, 255))
    draw.text((cols["cards"], top + 12), _t(lang, "cards"), font=head, fill=MUTED, anchor="mm")
    draw.text((cols["tickets"], top + 12), _t(lang, "tickets"), font=head, fill=MUTED, anchor="mm")
    n = max(1, len(seats))
    row_h = min(40, (PANEL_H - 50) / n)
    current = view.get("current")
    to_act = set(view.get("to_act") or [])
    pieces = view.get("pieces") or {}
    chosen = view.get("chosen") or {}
    for i, seat in enumerate(seats):
        y = top + 44 + row_h * i + row_h / 2
        if seat == current or (current is None and seat in to_act):
            draw.rounded_rectangle((8, y - row_h / 2 + 2, 850, y + row_h / 2 - 2), radius=8, fill=(255, 236, 170),
                                   outline=(200, 160, 40), width=2)
        draw_token(draw, (30, y), min(15, row_h / 2 - 3), i)
        draw_text(draw, (54, y), names.get(seat, seat), font=bold if seat == current else body, fill=INK,
                  anchor="lm", max_width=250)
        draw.text((cols["score"], y), str((view.get("scores") or {}).get(seat, 0)), font=bold, fill=INK, anchor="mm")
        p = pieces.get(seat)
        if p is None:
            if chosen:
                label = _t(lang, "chosen") if chosen.get(seat) else _t(lang, "choosing")
            else:
                label = _t(lang, "secret")
            draw.text(((cols["trains"] + cols["ships"]) / 2, y), label, font=head, fill=MUTED, anchor="mm")
        else:
            draw.text((cols["trains"], y), str(p.get("trains", 0)), font=body, fill=INK, anchor="mm")
            draw.text((cols["ships"], y), str(p.get("ships", 0)), font=body, fill=INK, anchor="mm")
        for key, col in (("harbors_left", "harbors"), ("hand_sizes", "cards"), ("ticket_counts", "tickets")):
            value = (view.get(key) or {}).get(seat)
            draw.text((cols[col], y), "–" if value is None else str(value), font=body, fill=INK, anchor="mm")


CARD_W, CARD_H = 76, 104


def draw_card(img: Image.Image, x: float, y: float, card: str | None, lang: str, w: int = CARD_W,
              h: int = CARD_H) -> None:
    """One transport card: its colour, its shape cue, a train or ship icon, the harbor
    symbol where it has one, ×2 on double ships, WILD on wilds."""
    draw = ImageDraw.Draw(img)
    if card is None:
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, outline=(170, 170, 170), width=2)
        return
    parts = card.split(":")
    kind = "ship" if parts[0] == "s" else "train"
    colour = parts[1] if len(parts) > 1 else "grey"
    harbor = kind == "ship" and "2" not in parts[2:] or "h" in parts[2:]
    double = "2" in parts[2:]
    if colour == "wild":
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=(255, 255, 255), outline=INK, width=2)
        band = (h - 8) / 6
        for k, c in enumerate(COLOUR_ORDER[:6]):
            draw.rectangle((x + 4, y + 4 + k * band, x + w - 4, y + 4 + (k + 1) * band), fill=ROUTE_COLOURS[c])
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, outline=INK, width=2)
        if w < 40:
            return
        f = font(max(12, int(w * 0.24)), "bold")
        draw.text((x + w / 2, y + h / 2), _t(lang, "wild"), font=f, fill=(255, 255, 255), anchor="mm",
                  stroke_width=3, stroke_fill=INK)
        return
    fill = ROUTE_COLOURS.get(colour, (168, 168, 168))
    ink = SYMBOL_INK.get(colour, INK)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=8 if w >= 40 else 4, fill=fill, outline=INK, width=2)
    if w < 40:  # a miniature: colour, shape cue, and a dot for ship cards
        _draw_symbol(draw, x + w / 2, y + h * 0.35, colour, w * 0.2)
        if kind == "ship":
            draw.ellipse((x + w * 0.2, y + h * 0.62, x + w * 0.8, y + h * 0.82), fill=ink)
        else:
            draw.rectangle((x + w * 0.2, y + h * 0.62, x + w * 0.8, y + h * 0.82), fill=ink)
        return
    # shape cue in two corners
    r = w * 0.1
    _draw_symbol(draw, x + r + 6, y + r + 6, colour, r)
    _draw_symbol(draw, x + w - r - 6, y + r + 6, colour, r)
    cx, cy = x + w / 2, y + h * 0.5
    u = w / 76
    if kind == "train":
        # a little wagon: body, roof and two wheels
        draw.rectangle((cx - 22 * u, cy - 12 * u, cx + 22 * u, cy + 8 * u), outline=ink, width=max(2, round(3 * u)))
        draw.line((cx - 26 * u, cy - 14 * u, cx + 26 * u, cy - 14 * u), fill=ink, width=max(2, round(3 * u)))
        for dx in (-12, 12):
            draw.ellipse((cx + (dx - 6) * u, cy + 6 * u, cx + (dx + 6) * u, cy + 18 * u), fill=ink)
    else:
        hulls = (-9, 9) if double else (0,)
        for dy in hulls:
            yy = cy + dy * u
            draw.polygon([(cx - 26 * u, yy - 2 * u), (cx + 26 * u, yy - 2 * u), (cx + 18 * u, yy + 8 * u),
                          (cx - 18 * u, yy + 8 * u)], fill=ink)
            draw.polygon([(cx - 2 * u, yy - 4 * u), (cx - 2 * u, yy - 18 * u), (cx + 12 * u, yy - 4 * u)], fill=ink)
    if double:
        f = font(max(12, int(22 * u)), "bold")
        draw.text((x + w - 6 * u, y + h - 5 * u), "×2", font=f, fill=ink, anchor="rd")
    if harbor:
        _draw_anchor(draw, x + 16 * u, y + h - 16 * u, 11 * u, (255, 255, 255))


def _draw_market(board: Image.Image, view: dict[str, Any], lang: str) -> None:
    draw = ImageDraw.Draw(board)
    x0 = 900
    top = PANEL_TOP + 10
    head = font(19, "semibold")
    draw.text((x0, top + 12), _t(lang, "face_up"), font=head, fill=MUTED, anchor="lm")
    face_up = list(view.get("face_up") or [])
    for k in range(6):
        card = face_up[k] if k < len(face_up) else None
        cx = x0 + k * (CARD_W + 10)
        draw_card(board, cx, top + 30, card, lang)
    decks = view.get("decks") or {}
    body = font(22, "regular")
    bold = font(26, "bold")
    dx = x0 + 6 * (CARD_W + 10) + 30
    rows = [
        ("train", _t(lang, "train_deck"), decks.get("train"), decks.get("train_discard")),
        ("ship", _t(lang, "ship_deck"), decks.get("ship"), decks.get("ship_discard")),
        ("tickets", _t(lang, "ticket_deck"), decks.get("tickets"), None),
    ]
    for i, (kind, label, n, discard) in enumerate(rows):
        y = top + 40 + i * 42
        if kind == "train":
            _icon_train(draw, dx + 12, y, INK)
        elif kind == "ship":
            _icon_ship(draw, dx + 12, y, INK)
        else:
            draw.rectangle((dx + 2, y - 9, dx + 22, y + 9), fill=(245, 240, 220), outline=INK, width=2)
        draw.text((dx + 34, y), _fit(label, body, 150), font=body, fill=INK, anchor="lm")
        draw.text((dx + 222, y), "–" if n is None else str(n), font=bold, fill=INK, anchor="rm")
        if discard is not None:
            draw.text((dx + 230, y), f"+{discard} {_t(lang, 'discard')}", font=font(17), fill=MUTED, anchor="lm")


def _draw_legend(board: Image.Image, lang: str) -> int:
    """Short rows under the last move: what the marks mean, and each colour's shape.
    Returns how many items did not fit (0 when the legend is complete)."""
    draw = ImageDraw.Draw(board)
    f = font(17, "regular")
    x0, x1 = 906.0, WIDTH - 14.0
    x, y = x0, PANEL_TOP + 234.0

    def icon(key: str, cx: float, cy: float) -> None:
        if key in ("train", "ship"):
            _draw_space(draw, Space(cx, cy, 0.0, 22, False), key, "grey", 0, 1.0, symbol=False)
        elif key == "rough":
            _draw_space(draw, Space(cx, cy + 3, 0.0, 22, True), "train", "grey", 0, 1.0, symbol=False)
        elif key == "harbor_city":
            draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=HARBOR_BLUE, outline=(255, 255, 255), width=2)
            _draw_anchor(draw, cx, cy, 6.5, (255, 255, 255), badge=None)
        elif key == "harbor":
            draw.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=HARBOR_BLUE, outline=(255, 255, 255), width=2)
            draw_token(draw, (cx, cy), 7, 0)
        elif key == "wrap":
            _wrap_arrow(draw, cx + 8, cy, 1, "grey", 1.0)
        elif key in ROUTE_COLOURS:
            draw.rounded_rectangle((cx - 11, cy - 9, cx + 11, cy + 9), radius=3, fill=ROUTE_COLOURS[key],
                                   outline=(40, 40, 40), width=1)
            _draw_symbol(draw, cx, cy, key, 5)

    items = [(k, _t(lang, "legend." + k)) for k in ("train", "ship", "rough", "harbor_city", "harbor", "wrap")]
    items += [(c, _t(lang, "colour." + c)) for c in COLOUR_ORDER]
    for n, (key, label) in enumerate(items):
        w = 30 + f.getlength(label)
        if x + w > x1:
            x, y = x0, y + 28
            if y > HEIGHT - 10:
                return len(items) - n
        icon(key, x + 12, y)
        draw.text((x + 30, y), label, font=f, fill=MUTED, anchor="lm")
        x += w + 13
    return 0


def _ramp(a: tuple[int, int, int], b: tuple[int, int, int], steps: int) -> list[tuple[int, int, int]]:
    return [tuple(round(a[k] + (b[k] - a[k]) * i / (steps - 1)) for k in range(3)) for i in range(steps)]  # type: ignore[misc]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed 256-colour palette for every board: the map's own colours plus exact entries
    (and anti-aliasing ramps) for everything drawn per turn. Mapping onto a known palette
    is several times faster than quantizing each board afresh, and keeps colours stable."""
    fixed: list[tuple[int, int, int]] = []
    fixed += [tuple(c) for c in PLAYER_COLOURS]  # type: ignore[misc]
    fixed += list(ROUTE_COLOURS.values())
    for a, b in ((INK, PANEL_BG), (INK, (255, 255, 255)), (MUTED, PANEL_BG), (INK, (255, 236, 170)),
                 (HARBOR_BLUE, (255, 255, 255)), ((200, 40, 30), (255, 255, 255)), (INK, HIGHLIGHT)):
        fixed += _ramp(a, b, 7)
    for colour in PLAYER_COLOURS:
        fixed += _ramp(tuple(colour), (20, 20, 20), 4)[1:3]  # type: ignore[arg-type]
        fixed += _ramp(tuple(colour), (255, 255, 255), 4)[1:3]  # type: ignore[arg-type]
    fixed += [HIGHLIGHT, (120, 90, 0), (255, 236, 170), (200, 160, 40), (235, 232, 225), (90, 90, 90),
              (70, 80, 100), (230, 230, 230), (200, 40, 30), (245, 240, 220), (0, 140, 90), (210, 140, 0)]
    unique = list(dict.fromkeys(fixed))
    base = _static(city_labels()).quantize(colors=256 - len(unique), method=Image.Quantize.FASTOCTREE,
                                  dither=Image.Dither.NONE)
    raw = base.getpalette() or []
    colours = [tuple(raw[i:i + 3]) for i in range(0, (256 - len(unique)) * 3, 3)]
    flat = [v for c in unique + colours for v in c]
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat[:768])
    return pal


def render_board(view: dict[str, Any], *, names: dict[str, str], lang: str = "en",
                 events: list[dict[str, Any]] | None = None, translator: Translator | None = None) -> bytes:
    """The public board: map, claimed routes, harbors, last move, scores, cards, decks. City
    names come from `translator` (the game's catalog in `lang`), see `city_name`."""
    image = board_image(view, names=names, lang=lang, events=events, translator=translator)
    return encode_png(image.quantize(palette=_palette(), dither=Image.Dither.NONE))


def board_image(view: dict[str, Any], *, names: dict[str, str], lang: str = "en",
                events: list[dict[str, Any]] | None = None, translator: Translator | None = None) -> Image.Image:
    """The board as a Pillow image (RGB). `events` is accepted for the renderer contract but
    not needed: the view's own `last` says what to highlight."""
    del events
    lang = lang if lang in TEXTS else "en"
    labels = city_labels(translator)
    board = _static(labels).copy()
    geom = geometry()
    idx = _seat_index(view)
    last = view.get("last") or {}
    claimed = view.get("claimed") or {}
    if len(view.get("seats", [])) <= 3:
        twins = _twins()
        for route_id in sorted(claimed):
            twin = twins.get(route_id)
            if twin and twin not in claimed and twin in geom.routes:
                for x0, y0, sprite in _blocked_sprite(twin):
                    board.paste(sprite, (x0, y0), sprite)
    for route_id, seat in sorted(claimed.items()):
        if route_id not in geom.routes:
            continue
        for x0, y0, sprite in _claimed_sprite(route_id, idx.get(seat, 0)):
            board.paste(sprite, (x0, y0), sprite)
        g = geom.routes[route_id]
        if g.wraps:
            arrows = ImageDraw.Draw(board)
            for x, y, direction in _edge_crossings(g):
                _wrap_arrow(arrows, x, y, direction, player_style(idx.get(seat, 0))[0], 1.0)
    if last.get("type") == "claim" and last.get("route") in geom.routes:
        _highlight_route(board, last["route"], idx.get(last.get("seat"), 0))
    draw = ImageDraw.Draw(board)
    last_city = last.get("city") if last.get("type") in ("harbor", "build_harbor") else None
    for city_id, seat in sorted((view.get("harbors") or {}).items()):
        if city_id in geom.nodes:
            x, y = geom.nodes[city_id]
            _draw_harbor(draw, x, y, idx.get(seat, 0), city_id == last_city)
    for x, y, sprite in _label_sprites(labels):
        board.paste(sprite, (x, y), sprite)
    _draw_header(board, view, names, lang)
    text = _last_text(view, names, lang, dict(labels))
    if text:
        f = font(22, "semibold")
        label = f"{_t(lang, 'last')}: {text}"
        x0, x1 = 900, WIDTH - 14
        y0 = PANEL_TOP + 176
        draw.rounded_rectangle((x0, y0, x1, y0 + 40), radius=8, fill=(255, 236, 170), outline=(200, 160, 40),
                               width=2)
        shown = _fit(label, f, x1 - x0 - 28)
        cx = x0 + 14 + draw_text(draw, (x0 + 14, y0 + 20), shown, font=f, fill=INK, anchor="lm") + 12
        for card in _last_cards(view):
            if card.startswith("back:"):
                _draw_card_back(board, cx, y0 + 4, card[5:], 24, 32)
            else:
                draw_card(board, cx, y0 + 4, card, lang, 24, 32)
            cx += 30
    if view.get("over") and (view.get("result") or {}).get("ranking"):
        _draw_final(board, view, names, lang)
    else:
        _draw_players(board, view, names, lang)
    _draw_market(board, view, lang)
    _draw_legend(board, lang)
    return board


# ---------------------------------------------------------------------------
# The hand
# ---------------------------------------------------------------------------
HAND_W = 1200
HAND_CARD_W, HAND_CARD_H = 70, 96


def _card_sort_key(card: str) -> tuple[int, int, int, str]:
    parts = card.split(":")
    colour = parts[1] if len(parts) > 1 else ""
    kind = 0 if parts[0] == "t" else 1
    order = COLOUR_ORDER.index(colour) if colour in COLOUR_ORDER else len(COLOUR_ORDER)
    return kind, order, len(parts), card


def _ticket_text(ticket: dict[str, Any], cities_named: dict[str, str]) -> tuple[str, str]:
    cities = list(ticket.get("cities") or [])
    points = list(ticket.get("points") or [])
    if len(cities) > 2:
        names = " → ".join(cities_named.get(c, c) for c in cities)
        if len(points) >= 3:
            value = f"{points[0]} / {points[1]} / −{abs(points[2])}"
        else:
            value = " / ".join(str(p) for p in points)
    else:
        names = " – ".join(cities_named.get(c, c) for c in cities)
        value = str(points[0]) if points else ""
    return names, value


_STATUS_STYLE = {
    "done": ((0, 140, 90), "done"), "order": ((0, 140, 90), "in_order"), "any": ((210, 140, 0), "any_order"),
    "open": ((150, 150, 150), "open"),
}


def _draw_ticket_rows(draw: ImageDraw.ImageDraw, tickets: list[dict[str, Any]], x: float, y: float, width: float,
                      lang: str, with_status: bool, cities: dict[str, str]) -> float:
    body = font(24, "semibold")
    small = font(18, "regular")
    bold = font(26, "bold")
    for ticket in tickets:
        names, value = _ticket_text(ticket, cities)
        is_route = len(ticket.get("cities") or []) > 2
        status = ticket.get("status", "open") if with_status else None
        colour, key = _STATUS_STYLE.get(status or "open", _STATUS_STYLE["open"])
        row_h = 46
        draw.rounded_rectangle((x, y, x + width, y + row_h - 6), radius=8, fill=(255, 252, 240),
                               outline=(190, 180, 150), width=2)
        draw.rounded_rectangle((x, y, x + 10, y + row_h - 6), radius=4, fill=colour if with_status else HARBOR_BLUE)
        tx = x + 22
        if with_status:
            label = _t(lang, key)
            if status in ("done", "order"):
                label = "✓ " + label
            bw = small.getlength(label) + 18
            draw.rounded_rectangle((tx, y + 8, tx + bw, y + row_h - 14), radius=10, fill=colour)
            draw.text((tx + bw / 2, y + (row_h - 6) / 2), label, font=small, fill=(255, 255, 255), anchor="mm")
            tx += bw + 12
        vw = bold.getlength(value)
        if is_route:
            tag = _t(lang, "route_ticket")
            draw.text((x + width - 14 - vw - 12, y + (row_h - 6) / 2), tag, font=small, fill=MUTED, anchor="rm")
            vw += small.getlength(tag) + 12
        room = x + width - 14 - vw - 16 - tx
        draw.text((tx, y + (row_h - 6) / 2), _fit(names, body, room), font=body, fill=INK, anchor="lm")
        draw.text((x + width - 14, y + (row_h - 6) / 2), value, font=bold, fill=INK, anchor="rm")
        y += row_h
    return y


def _draw_card_group(img: Image.Image, cards: list[str], x0: float, y: float, lang: str) -> float:
    """Cards of one deck, one tile per distinct card with its count, grouped by colour."""
    draw = ImageDraw.Draw(img)
    counts = Counter(cards)
    x = x0
    prev_colour = None
    count_font = font(26, "bold")
    for card in sorted(counts, key=_card_sort_key):
        colour = card.split(":")[1] if ":" in card else ""
        if prev_colour is not None and colour != prev_colour:
            x += 16
        if x + HAND_CARD_W > HAND_W - 20:
            x = x0
            y += HAND_CARD_H + 44
        draw_card(img, x, y, card, lang, HAND_CARD_W, HAND_CARD_H)
        draw.text((x + HAND_CARD_W / 2, y + HAND_CARD_H + 18), f"×{counts[card]}", font=count_font, fill=INK,
                  anchor="mm")
        x += HAND_CARD_W + 8
        prev_colour = colour
    return y + HAND_CARD_H + 40


def hand_image(view: dict[str, Any], seat: str, *, names: dict[str, str], lang: str = "en",
               translator: Translator | None = None) -> Image.Image:
    lang = lang if lang in TEXTS else "en"
    cities = dict(city_labels(translator))
    private = view.get("private") or {}
    hand = [c for c in private.get("hand") or [] if isinstance(c, str)]
    tickets = list(private.get("tickets") or [])
    pending = list(private.get("pending_tickets") or [])
    trains = [c for c in hand if c.startswith("t:")]
    ships = [c for c in hand if c.startswith("s:")]

    def rows_for(cards: list[str]) -> int:
        distinct = len(set(cards))
        return max(1, math.ceil(distinct / 13))

    height = 90
    height += 54 + rows_for(trains) * (HAND_CARD_H + 44)
    height += 54 + rows_for(ships) * (HAND_CARD_H + 44)
    height += 50 + max(1, len(tickets)) * 46
    if pending:
        height += 60 + len(pending) * 46
    height += 20
    img = Image.new("RGB", (HAND_W, height), PANEL_BG)
    draw = ImageDraw.Draw(img)
    idx = _seat_index(view).get(seat, 0)
    draw_token(draw, (34, 40), 18, idx)
    title = font(32, "bold")
    draw_text(draw, (64, 40), _fit_name(lang, "hand", names.get(seat, seat), title, 560), font=title, fill=INK,
              anchor="lm")
    # pieces and harbors left, top right
    pieces = (view.get("pieces") or {}).get(seat) or private.get("mix") or {}
    body = font(24, "semibold")
    small = font(18, "regular")
    x = HAND_W - 20
    harbors_left = (view.get("harbors_left") or {}).get(seat)
    def shown(value: Any) -> str:
        return "–" if value is None else str(value)

    items = [("harbor", shown(harbors_left), _t(lang, "harbors_left")),
             ("ship", shown(pieces.get("ships")), _t(lang, "ships")),
             ("train", shown(pieces.get("trains")), _t(lang, "trains"))]
    for kind, value, label in items:
        w = max(body.getlength(value) + 34, small.getlength(label))
        cx = x - w / 2
        if kind == "train":
            _icon_train(draw, cx - body.getlength(value) / 2 - 4, 30, INK)
        elif kind == "ship":
            _icon_ship(draw, cx - body.getlength(value) / 2 - 4, 30, INK)
        else:
            _draw_anchor(draw, cx - body.getlength(value) / 2 - 4, 30, 11, (255, 255, 255))
        draw.text((cx + 12, 30), value, font=body, fill=INK, anchor="mm")
        draw.text((cx, 60), label, font=small, fill=MUTED, anchor="mm")
        x -= w + 26
    box = (view.get("box") or {}).get(seat)
    if isinstance(box, dict) and box.get("trains") is not None:
        trains_box, ships_box = box.get("trains"), box.get("ships")
        text = _t(lang, "in_box", t=trains_box, s=ships_box)
        draw.text((HAND_W - 20, 96), text, font=small, fill=MUTED, anchor="rt")
    draw.line((20, 82, HAND_W - 20, 82), fill=(200, 190, 170), width=2)
    head = font(24, "bold")
    y = 96
    for label, cards in ((_t(lang, "train_cards"), trains), (_t(lang, "ship_cards"), ships)):
        draw.text((20, y), f"{label} ({len(cards)})", font=head, fill=INK, anchor="lt")
        y += 38
        if cards:
            y = _draw_card_group(img, cards, 20, y, lang) + 10
        else:
            draw.text((20, y + 10), _t(lang, "no_cards"), font=body, fill=MUTED, anchor="lt")
            y += HAND_CARD_H + 44
    if pending:
        draw.text((20, y), _t(lang, "pending"), font=head, fill=(200, 40, 30), anchor="lt")
        y = _draw_ticket_rows(draw, pending, 20, y + 40, HAND_W - 40, lang, with_status=False, cities=cities) + 14
    draw.text((20, y), f"{_t(lang, 'your_tickets')} ({len(tickets)})", font=head, fill=INK, anchor="lt")
    y += 40
    if tickets:
        _draw_ticket_rows(draw, tickets, 20, y, HAND_W - 40, lang, with_status=True, cities=cities)
    else:
        draw.text((20, y + 6), _t(lang, "no_tickets"), font=body, fill=MUTED, anchor="lt")
    return img


def render_hand(view: dict[str, Any], seat: str, *, names: dict[str, str], lang: str = "en",
                translator: Translator | None = None) -> bytes:
    """One player's hand from that seat's own view: cards by colour with counts, tickets
    with their status, pieces and harbors left. City names come from `translator`."""
    return encode_png(hand_image(view, seat, names=names, lang=lang, translator=translator))
