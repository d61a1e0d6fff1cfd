"""The cached static layer of the rails-and-sails board (map, unclaimed routes, cities,
labels; one per set of city names) and the fixed palette every board is mapped onto."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from PIL import Image

from render.common import INK, MUTED, PLAYER_COLOURS, Draw, fixed_palette, font, ramp
from render.rails_and_sails.geometry import (
    CITY_R,
    HARBOR_BLUE,
    HEIGHT,
    HIGHLIGHT,
    LABEL_FONT,
    LAKE,
    LAND,
    LAND_EDGE,
    LAT_TOP,
    MAP_H,
    MAP_TOP,
    PANEL_BG,
    PANEL_TOP,
    ROUTE_COLOURS,
    SEA,
    SEA_DEEP,
    SS,
    SX,
    SY,
    WIDTH,
    _edge_crossings,
    _mapdata,
    _place_labels,
    geometry,
)
from render.rails_and_sails.sprites import _draw_anchor, _draw_space, _shifts, _wrap_arrow
from render.rails_and_sails.texts import Labels, city_labels


# ---------------------------------------------------------------------------
# The static layer: map, unclaimed routes, cities, labels (cached per language)
# ---------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _coastlines() -> list[tuple[int, list[float]]]:
    data = json.loads((Path(__file__).parent.parent / "data" / "coastlines.json").read_text())
    return [(level, [v / 100 for v in coords]) for level, coords in data["polygons"]]


def _draw_world(img: Image.Image, cut: float) -> None:
    s = SS
    draw = Draw(img)
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


@lru_cache(maxsize=4)
def _label_sprites(labels: Labels) -> list[tuple[int, int, Image.Image]]:
    """City names as small RGBA sprites, pasted over the claimed routes every turn."""
    f = font(LABEL_FONT, "semibold")
    out = []
    for _cid, (x, y, text) in sorted(_place_labels(geometry(), labels).items()):
        w = math.ceil(f.getlength(text)) + 12
        h = LABEL_FONT + 14
        img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        Draw(img).text((w / 2, h / 2), text, font=f, fill=INK + (255,), anchor="mm", stroke_width=3,
                                 stroke_fill=(255, 253, 246, 255))
        out.append((round(x - w / 2), round(y - h / 2), img))
    return out


def _static(labels: Labels) -> Image.Image:
    """The map with unclaimed routes, cities and their labels (one per language's names; not
    kept: what is made from it, `board._base` and `_palette`, is)."""
    geom = geometry()
    md = _mapdata()
    s = SS
    big = Image.new("RGB", (WIDTH * s, MAP_H * s), SEA)
    _draw_world(big, geom.cut)
    # routes are drawn in map coordinates; the map image starts at MAP_TOP
    layer = Image.new("RGBA", (WIDTH * s, (MAP_H + MAP_TOP) * s), (0, 0, 0, 0))
    draw = Draw(layer)
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
    bd = Draw(board)
    bd.line((0, MAP_TOP, WIDTH, MAP_TOP), fill=(60, 60, 60), width=2)
    bd.line((0, PANEL_TOP, WIDTH, PANEL_TOP), fill=(60, 60, 60), width=2)
    for x, y, sprite in _label_sprites(labels):
        board.paste(sprite, (x, y), sprite)
    return board



@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed 256-colour palette for every board: the map's own colours plus exact entries
    (and anti-aliasing ramps) for everything drawn per turn. Mapping onto a known palette
    is several times faster than quantizing each board afresh, and keeps colours stable."""
    fixed: list[tuple[int, int, int]] = []
    fixed += PLAYER_COLOURS
    fixed += list(ROUTE_COLOURS.values())
    for a, b in ((INK, PANEL_BG), (INK, (255, 255, 255)), (MUTED, PANEL_BG), (INK, (255, 236, 170)),
                 (HARBOR_BLUE, (255, 255, 255)), ((200, 40, 30), (255, 255, 255)), (INK, HIGHLIGHT)):
        fixed += ramp(a, b, 7)
    for colour in PLAYER_COLOURS:
        fixed += ramp(colour, (20, 20, 20), 4)[1:3]
        fixed += ramp(colour, (255, 255, 255), 4)[1:3]
    fixed += [HIGHLIGHT, (120, 90, 0), (255, 236, 170), (200, 160, 40), (235, 232, 225), (90, 90, 90),
              (70, 80, 100), (230, 230, 230), (200, 40, 30), (245, 240, 220), (0, 140, 90), (210, 140, 0)]
    return fixed_palette(_static(city_labels()), fixed)
