"""Where things go on the around-the-world board: sizes, colours, the map projection, the
fixed places of plates, pawns and badges, the route's segments and the time track."""

from __future__ import annotations

import json
import math
from pathlib import Path

from PIL import ImageDraw

GAME_ID = "around-the-world"
ASSETS = Path(__file__).parent.parent / "assets" / "atw"

W = 1600
HEADER_H = 76
MAP_TOP = HEADER_H
MAP_H = 600
DISPLAY_TOP = MAP_TOP + MAP_H
DISPLAY_H = 236
TRACK_TOP = DISPLAY_TOP + DISPLAY_H
TRACK_H = 200
PANEL_TOP = TRACK_TOP + TRACK_H
PANEL_HEAD_H = 44
ROW_H = 60
HAND_W = 1200

# -- colours -------------------------------------------------------------------
SEA = (170, 204, 222)
SEA_LINE = (150, 186, 206)
LAND = (236, 224, 196)
LAND_EDGE = (160, 140, 108)
ROUTE = (176, 38, 38)
ROUTE_GLOW = (255, 196, 0)
NAVY = (22, 58, 110)
BROWN = (110, 62, 28)
SHIP_BG = (214, 232, 246)
TRAIN_BG = (246, 230, 206)
GOLD = (236, 178, 26)
GOLD_DARK = (150, 104, 0)
CHIT_RED = (200, 40, 52)
CHIT_BLUE = (32, 92, 196)
HEADER_BG = (34, 46, 68)
PANEL_BG = (244, 238, 226)
HILITE = (255, 236, 150)
LATE = (200, 40, 40)
SOFT = (104, 100, 92)
WHITE = (255, 255, 255)

GREY_EVENTS = frozenset({"delay", "bad_weather"})

LOCATIONS = ["london", "paris", "brindisi", "suez", "bombay", "calcutta", "hong_kong",
             "yokohama", "san_francisco", "new_york"]

#: (longitude, latitude) of each location
GEO: dict[str, tuple[float, float]] = {
    "london": (-0.13, 51.5), "paris": (2.35, 48.86), "brindisi": (17.94, 40.63), "suez": (32.55, 29.97),
    "bombay": (72.88, 19.08), "calcutta": (88.36, 22.57), "hong_kong": (114.17, 22.32),
    "yokohama": (139.64, 35.44), "san_francisco": (-122.42, 37.77), "new_york": (-74.0, 40.71),
}

#: where a city's marker sits relative to its true place (crowded Europe is spread out);
#: a thin leader joins the two
NUDGE: dict[str, tuple[int, int]] = {"london": (-66, -44), "paris": (4, 51), "bombay": (-16, 8)}

#: absolute board positions (the pawns gather on the city's marker itself):
#: centre of each city's name plate, where the detective stands there, and where the
#: requirement badge of the leg leaving the city sits
PLATE: dict[str, tuple[int, int]] = {
    "london": (628, 160), "paris": (500, 316), "brindisi": (810, 262), "suez": (718, 440),
    "bombay": (975, 585), "calcutta": (1165, 430), "hong_kong": (1342, 550), "yokohama": (1480, 262),
    "san_francisco": (132, 402), "new_york": (240, 262),
}
DETECTIVE_AT: dict[str, tuple[int, int]] = {
    "london": (640, 220), "paris": (612, 352), "brindisi": (690, 372), "suez": (862, 482),
    "bombay": (1050, 640), "calcutta": (1212, 566), "hong_kong": (1290, 420), "yokohama": (1502, 422),
    "san_francisco": (80, 282), "new_york": (292, 382),
}
#: pawn clusters moved off their marker where leg badges crowd it
PAWN_SHIFT: dict[str, tuple[int, int]] = {"yokohama": (-4, -42)}
ARRIVALS_AT = (690, 140)
BADGE_AT: dict[str, tuple[int, int]] = {
    "london": (565, 230), "paris": (669, 303), "brindisi": (785, 367), "suez": (937, 465),
    "bombay": (1137, 560), "calcutta": (1243, 490), "hong_kong": (1404, 413), "yokohama": (1551, 352),
    "san_francisco": (172, 330), "new_york": (421, 228),
}

# map projection: longitude warped piecewise (Europe widened, oceans narrowed), latitude linear
_LON_KNOTS = [(-140.0, 0.0), (-60.0, 330.0), (-15.0, 470.0), (40.0, 900.0), (165.0, 1600.0)]
_LAT_TOP = 66.0
_LAT_SCALE = 9.5

ACTION_KEYS = ["gold", "balloon", "event", "detective", "first_player", "exchange"]


def _project(lon: float, lat: float) -> tuple[float, float]:
    knots = _LON_KNOTS
    k = 0
    while k < len(knots) - 2 and lon > knots[k + 1][0]:
        k += 1
    (a, xa), (b, xb) = knots[k], knots[k + 1]
    x = xa + (lon - a) * (xb - xa) / (b - a)
    return x, MAP_TOP + (_LAT_TOP - lat) * _LAT_SCALE


def _geo_point(loc: str) -> tuple[float, float]:
    return _project(*GEO.get(loc, (0.0, 0.0)))


def node_point(loc: str) -> tuple[float, float]:
    """Where a location's marker is drawn on the board."""
    x, y = _geo_point(loc)
    dx, dy = NUDGE.get(loc, (0, 0))
    return x + dx, y + dy


def _place(loc: str, what: str) -> tuple[float, float]:
    """Board position of a city's name plate, detective spot or pawn cluster."""
    x, y = node_point(loc)
    if what == "plate":
        return PLATE.get(loc, (x, y - 46))
    if what == "detective":
        return DETECTIVE_AT.get(loc, (x + 44, y + 30))
    dx, dy = PAWN_SHIFT.get(loc, (0, 0))
    return x + dx, y + dy


def _leg_segments(frm: str, to: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Straight segments of a leg; a leg that leaves the map's right edge comes back on the left."""
    a = node_point(frm)
    b = node_point(to)
    if b[0] < a[0] - W / 2:  # across the Pacific
        span = (W - a[0]) + b[0]
        y_edge = a[1] + (b[1] - a[1]) * (W - a[0]) / span
        return [(a, (W + 4, y_edge)), ((-4, y_edge), b)]
    return [(a, b)]


def _badge_point(frm: str, to: str) -> tuple[float, float]:
    i = LOCATIONS.index(frm) if frm in LOCATIONS else -1
    if i >= 0 and LOCATIONS[(i + 1) % len(LOCATIONS)] == to and frm in BADGE_AT:
        return BADGE_AT[frm]
    segs = _leg_segments(frm, to)
    (ax, ay), (bx, by) = max(segs, key=lambda s: math.dist(s[0], s[1]))
    return (ax + bx) / 2, (ay + by) / 2


def _legs_of(view: dict) -> list[dict]:
    legs = view.get("legs")
    if isinstance(legs, list) and legs:
        return legs
    locs = view.get("locations") or LOCATIONS
    return [{"from": locs[i], "to": locs[(i + 1) % len(locs)], "options": []} for i in range(len(locs))]


def _leg_key(leg: dict) -> str:
    return json.dumps({"options": leg.get("options") or [], "days": leg.get("days")}, sort_keys=True)


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: tuple[int, int, int],
            width: int, dash: float, gap: float) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line((a[0] + ux * pos, a[1] + uy * pos, a[0] + ux * end, a[1] + uy * end), fill=colour, width=width)
        pos = end + gap


CITY_FONT = 25
CHIT_R = 17

TRACK_X0 = 60
TRACK_X1 = W - 60
TRACK_MAX = 100
TRACK_ROWS = 3
TRACK_LINE_Y = TRACK_TOP + TRACK_H - 46


def _track_x(days: int) -> float:
    return TRACK_X0 + (TRACK_X1 - TRACK_X0) * min(max(days, 0), TRACK_MAX) / TRACK_MAX

