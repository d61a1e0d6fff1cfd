"""The static layer of the board: sea, lines by kind, cities with their market symbols and
names and distances to the arrival London. Cached per map and set of city names (one per
language), so a board render only draws what changes (costs, tiles, pawns, panels)."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import budget
from render.common import Draw, draw_text, fixed_palette, font, ramp

from .geometry import INK, KIND_COLOUR, MAP_H, MAP_TOP, MARKET_COLOUR, MUTED, PAPER, SEA, WIDTH, city_xy, line_offset

Labels = tuple[tuple[str, str], ...]
CITY_R = 17


def line_points(a: tuple[float, float], b: tuple[float, float],
                offset: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """A line from a to b shifted sideways by `offset` pixels."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * offset, dx / length * offset
    return (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)


def line_geometry(map_view: dict[str, Any]) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    """Line id -> its two drawn end points (parallel lines spread apart)."""
    where = {c["id"]: city_xy(c["x"], c["y"]) for c in map_view["cities"]}
    pairs: dict[frozenset[str], list[str]] = {}
    for ln in map_view["lines"]:
        pairs.setdefault(frozenset((ln["a"], ln["b"])), []).append(ln["id"])
    out: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
    for ln in map_view["lines"]:
        group = pairs[frozenset((ln["a"], ln["b"]))]
        out[ln["id"]] = line_points(where[ln["a"]], where[ln["b"]], line_offset(group.index(ln["id"]), len(group)))
    return out


def market_symbol(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, market: str) -> None:
    """Blue triangle = boutique, red square = bazaar, two-coloured circle = both."""
    if market == "boutique":
        draw.polygon([(x, y - r * 1.15), (x - r, y + r * 0.75), (x + r, y + r * 0.75)],
                     fill=MARKET_COLOUR["boutique"], outline=INK, width=3)
    elif market == "bazaar":
        s = r * 0.85
        draw.rectangle((x - s, y - s, x + s, y + s), fill=MARKET_COLOUR["bazaar"], outline=INK, width=3)
    else:
        box = (x - r, y - r, x + r, y + r)
        draw.pieslice(box, 90, 270, fill=MARKET_COLOUR["boutique"])
        draw.pieslice(box, 270, 90, fill=MARKET_COLOUR["bazaar"])
        draw.ellipse(box, outline=INK, width=3)


def _dashed(draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], colour: tuple[int, int, int],
            width: int, dash: float, gap: float) -> None:
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        draw.line([(p[0] + ux * t, p[1] + uy * t), (p[0] + ux * e, p[1] + uy * e)], fill=colour, width=width)
        t = e + gap


def draw_line(draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], kind: str) -> None:
    """Ships dashed blue, trains solid brown with sleepers, special trips dotted purple."""
    colour = KIND_COLOUR[kind]
    if kind == "ship":
        _dashed(draw, p, q, colour, 6, 18, 10)
    elif kind == "train":
        draw.line([p, q], fill=colour, width=7)
        length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        t = 14.0
        while t < length - 10:
            cx, cy = p[0] + ux * t, p[1] + uy * t
            draw.line([(cx - uy * 7, cy + ux * 7), (cx + uy * 7, cy - ux * 7)], fill=colour, width=3)
            t += 22
    else:
        _dashed(draw, p, q, colour, 7, 6, 8)


Cities = tuple[tuple[str, str, int, int, int], ...]
Lines = tuple[tuple[str, str, str, str], ...]


def map_keys(map_view: dict[str, Any]) -> tuple[Cities, Lines]:
    """The unchanging part of the map view in a hashable form (the cache key)."""
    cities = tuple((c["id"], c["market"], c["x"], c["y"], c["distance"]) for c in map_view["cities"])
    lines = tuple((ln["id"], ln["a"], ln["b"], ln["kind"]) for ln in map_view["lines"])
    return cities, lines


@budget.memoized("layers")
def static_layer(labels: Labels, cities: Cities, lines: Lines) -> Image.Image:
    """The board without anything that changes during a game."""
    map_view: dict[str, list[dict[str, Any]]] = {
        "cities": [{"id": c[0], "market": c[1], "x": c[2], "y": c[3], "distance": c[4]} for c in cities],
        "lines": [{"id": ln[0], "a": ln[1], "b": ln[2], "kind": ln[3]} for ln in lines]}
    names = dict(labels)
    image = Image.new("RGB", (WIDTH, MAP_TOP + MAP_H), PAPER)
    draw = Draw(image)
    draw.rounded_rectangle((20, MAP_TOP + 8, WIDTH - 20, MAP_TOP + MAP_H - 8), radius=24, fill=SEA,
                           outline=(170, 190, 200), width=3)
    geo = line_geometry(map_view)
    for ln in map_view["lines"]:
        p, q = geo[ln["id"]]
        draw_line(draw, p, q, ln["kind"])
    f_city = font(30, "semibold")
    f_dist = font(20, "bold")
    for c in map_view["cities"]:
        x, y = city_xy(c["x"], c["y"])
        market_symbol(draw, x, y, CITY_R, c["market"])
        name = names.get(c["id"], c["id"])
        dx, dy, anchor = label_place(c["id"])
        draw_text(draw, (x + dx, y + dy), name, font=f_city, fill=INK, anchor=anchor, stroke_width=4,
                  stroke_fill=SEA)
        if c["distance"]:
            bx, by = x + CITY_R + 2, y - CITY_R - 2
            draw.ellipse((bx - 13, by - 13, bx + 13, by + 13), fill=(255, 255, 255), outline=MUTED, width=2)
            draw.text((bx, by), str(c["distance"]), font=f_dist, fill=MUTED, anchor="mm")
    return image


#: cities whose name sits above the symbol (the lines leave them downwards)
_LABEL_ABOVE = frozenset({"paris", "istanbul", "tehran", "delhi", "shanghai", "yokohama", "chicago", "liverpool",
                          "san_francisco", "hong_kong", "calcutta"})
#: cities whose name sits left of the symbol (crowded corners of the map)
_LABEL_LEFT = frozenset({"turin", "salt_lake_city", "bangkok"})


def label_place(city: str) -> tuple[float, float, str]:
    """(dx, dy, anchor) of a city's name relative to its symbol."""
    if city == "london":
        return -CITY_R, -CITY_R - 8, "ld"
    if city == "london_arrival":
        return CITY_R, -CITY_R - 8, "rd"
    if city in _LABEL_LEFT:
        return -CITY_R - 8, 0, "rm"
    if city in _LABEL_ABOVE:
        return 0, -CITY_R - 6, "md"
    return 0, CITY_R + 4, "ma"


def label_above(city: str) -> bool:
    """Whether the name is above (pawns then stand below the symbol)."""
    return city in _LABEL_ABOVE or city in ("london", "london_arrival")



@lru_cache(maxsize=8)
def palette(labels: Labels, cities: Cities, lines: Lines) -> Image.Image:
    """A fixed 256-colour palette per static layer: exact entries and anti-aliasing ramps for
    what is drawn per turn, the rest from the static layer's own colours. Mapping a board
    onto a known palette is several times faster than quantizing it afresh."""
    from render.common import PLAYER_COLOURS

    from .geometry import GOLD, ITEM_COLOUR, PANEL

    header, light = (58, 44, 30), (250, 240, 220)
    white, highlight = (255, 255, 255), (255, 244, 200)
    fixed: list[tuple[int, int, int]] = list(PLAYER_COLOURS)
    fixed += list(ITEM_COLOUR.values()) + list(KIND_COLOUR.values()) + list(MARKET_COLOUR.values())
    for a, b in ((INK, PAPER), (INK, PANEL), (INK, white), (INK, GOLD), (INK, highlight), (MUTED, PAPER),
                 (MUTED, PANEL), (light, header), (GOLD, header), (white, INK), ((190, 30, 30), PAPER)):
        fixed += ramp(a, b, 6)
    for colour in PLAYER_COLOURS:
        fixed += ramp(colour, PANEL, 4)[1:3]
    fixed += [(210, 195, 170), (235, 225, 205), (170, 150, 120), (190, 175, 150), (200, 200, 200)]
    return fixed_palette(static_layer(labels, cities, lines), fixed)
