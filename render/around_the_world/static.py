"""The cached static layer of the around-the-world board: map, route, leg badges, city
plates, the chit legend, the section frames and the time-track scale (per set of texts)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.around_the_world.geometry import (
    ASSETS,
    CHIT_BLUE,
    CHIT_R,
    CHIT_RED,
    CITY_FONT,
    DISPLAY_TOP,
    HEADER_BG,
    HEADER_H,
    LAND,
    LAND_EDGE,
    LATE,
    MAP_H,
    MAP_TOP,
    NUDGE,
    PANEL_TOP,
    ROUTE,
    SEA,
    SEA_LINE,
    SOFT,
    TRACK_LINE_Y,
    TRACK_MAX,
    TRACK_TOP,
    WHITE,
    W,
    _badge_point,
    _dashed,
    _geo_point,
    _leg_key,
    _leg_segments,
    _place,
    _project,
    _track_x,
    node_point,
)
from render.around_the_world.sprites import _badge, _chit_sprite, _paste
from render.around_the_world.texts import Translator, _t, city_name
from render.common import INK, PAPER, Draw, advance, font


class StaticTexts(NamedTuple):
    """The words of the static layer, resolved from the translator: hashable, so the layer is
    cached per set of texts (one per language) whoever asks."""

    cities: tuple[tuple[str, str], ...]
    days_unit: str
    chits: str
    chit_labels: tuple[tuple[str, str], ...]
    display: str
    track: str


CHIT_KINDS = ("gold", "event", "travel", "others_lose_day")


def static_texts(t: Translator, locations: list[str]) -> StaticTexts:
    return StaticTexts(
        cities=tuple((loc, city_name(loc, t)) for loc in locations), days_unit=_t(t, "days_unit"),
        chits=_t(t, "chits"), chit_labels=tuple((kind, _t(t, f"chit.{kind}")) for kind in CHIT_KINDS),
        display=_t(t, "display"), track=_t(t, "track"))


def _plate_geometry(loc: str, name: str) -> tuple[tuple[float, float, float, float], list[tuple[float, float]]]:
    """A city's name plate (box, sized for `name`) and the centres of its red and blue chit spots."""
    px, py = _place(loc, "plate")
    tw = advance(font(CITY_FONT, "bold"), name)
    extra = 0 if loc == "london" else 4 * CHIT_R + 14
    width = tw + 20 + extra
    box = (px - width / 2, py - 20, px + width / 2, py + 20)
    right = box[2] - 6 - CHIT_R
    chits = [] if loc == "london" else [(right - 2 * CHIT_R - 4, py), (right, py)]
    return box, chits


@lru_cache(maxsize=1)
def _land() -> dict[str, list[list[float]]]:
    return json.loads((ASSETS / "land.json").read_text())


def _map_base() -> Image.Image:
    """Sea, land and graticule at 2x, scaled down (language independent; not kept: the
    layers made from it, `board._tall_layer`, are)."""
    k = 2
    img = Image.new("RGB", (W * k, MAP_H * k), SEA)
    d = Draw(img)
    for lat in range(0, 90, 15):
        y = (_project(0, lat)[1] - MAP_TOP) * k
        d.line((0, y, W * k, y), fill=SEA_LINE, width=k)
    for lon in range(-135, 180, 30):
        x = _project(lon, 0)[0] * k
        d.line((x, 0, x, MAP_H * k), fill=SEA_LINE, width=k)
    data = _land()
    for key, fill in (("land", LAND), ("lakes", SEA)):
        for flat in data[key]:
            pts = []
            for i in range(0, len(flat), 2):
                x, y = _project(flat[i], flat[i + 1])
                pts.append((x * k, (y - MAP_TOP) * k))
            d.polygon(pts, fill=fill, outline=LAND_EDGE, width=k)
    return img.resize((W, MAP_H), Image.Resampling.LANCZOS)


def _static_board(texts: StaticTexts, legs_key: str, locations_key: str) -> Image.Image:
    """The map with its legs, cities and names (not kept: the layers made from it are)."""
    legs = json.loads(legs_key)
    locations = json.loads(locations_key)
    names = dict(texts.cities)
    img = Image.new("RGB", (W, PANEL_TOP), PAPER)
    img.paste(_map_base(), (0, MAP_TOP))
    d: ImageDraw.ImageDraw = Draw(img)
    # route
    for leg in legs:
        for a, b in _leg_segments(leg["from"], leg["to"]):
            d.line((a, b), fill=(255, 250, 240), width=9)
            _dashed(d, a, b, ROUTE, 5, 16, 8)
    # leaders from nudged markers to the true places
    for loc in locations:
        if loc in NUDGE:
            gx, gy = _geo_point(loc)
            nx, ny = node_point(loc)
            d.line((gx, gy, nx, ny), fill=INK, width=2)
            d.ellipse((gx - 4, gy - 4, gx + 4, gy + 4), fill=INK)
    for leg in legs:
        _paste(img, _badge(_leg_key(leg), texts.days_unit), _badge_point(leg["from"], leg["to"]))
    d = Draw(img)
    f_city = font(CITY_FONT, "bold")
    for loc in locations:
        nx, ny = node_point(loc)
        r = 13 if loc == "london" else 10
        d.ellipse((nx - r, ny - r, nx + r, ny + r), fill=WHITE, outline=INK, width=4)
        if loc == "london":
            d.ellipse((nx - 5, ny - 5, nx + 5, ny + 5), fill=ROUTE)
        name = names.get(loc, loc)
        box, _chits = _plate_geometry(loc, name)
        d.rounded_rectangle((box[0] + 2, box[1] + 3, box[2] + 2, box[3] + 3), 10, fill=(120, 110, 96))
        d.rounded_rectangle(box, 10, fill=(255, 252, 244), outline=INK, width=2)
        d.text((box[0] + 10, (box[1] + box[3]) / 2), name, font=f_city, fill=INK, anchor="lm")
    d = _draw_chit_legend(img, d, texts)
    # section frames
    d.rectangle((0, 0, W, HEADER_H), fill=HEADER_BG)
    d.line((0, MAP_TOP + MAP_H, W, MAP_TOP + MAP_H), fill=INK, width=3)
    d.line((0, TRACK_TOP, W, TRACK_TOP), fill=(200, 190, 170), width=2)
    f_head = font(24, "bold")
    d.text((24, DISPLAY_TOP + 12), texts.display.upper(), font=f_head, fill=SOFT)
    d.text((24, TRACK_TOP + 10), texts.track.upper(), font=f_head, fill=SOFT)
    _draw_track_scale(d)
    return img


def _draw_chit_legend(img: Image.Image, d: ImageDraw.ImageDraw, texts: StaticTexts) -> ImageDraw.ImageDraw:
    """The bonus chit legend in the map's lower-left corner (returns the drawing context to go on with)."""
    f_small = font(20, "semibold")
    line1 = texts.chits
    items = list(texts.chit_labels)
    width2 = sum(advance(f_small, label) + 52 for _kind, label in items)
    box_w = max(advance(f_small, line1) + 80, width2 + 14)
    y1, y2 = MAP_TOP + MAP_H - 68, MAP_TOP + MAP_H - 28
    d.rounded_rectangle((8, y1 - 22, 8 + box_w, y2 + 20), 10, fill=(255, 252, 244), outline=INK, width=2)
    _paste(img, _chit_sprite("red", None, 12), (32, y1))
    _paste(img, _chit_sprite("blue", None, 12), (60, y1))
    d = Draw(img)
    d.ellipse((20, y1 - 12, 44, y1 + 12), fill=CHIT_RED)
    d.ellipse((48, y1 - 12, 72, y1 + 12), fill=CHIT_BLUE)
    d.text((84, y1), line1, font=f_small, fill=INK, anchor="lm")
    x = 20.0
    for kind, label in items:
        _paste(img, _chit_sprite("red", kind, 14), (x + 14, y2))
        d = Draw(img)
        d.text((x + 34, y2), label, font=f_small, fill=INK, anchor="lm")
        x += advance(f_small, label) + 52
    return d


def _draw_track_scale(d: ImageDraw.ImageDraw) -> None:
    y = TRACK_LINE_Y
    d.rectangle((_track_x(80), y - 10, _track_x(TRACK_MAX), y + 10), fill=(246, 204, 198))
    d.rectangle((_track_x(0), y - 10, _track_x(80), y + 10), fill=(226, 236, 222))
    d.rectangle((_track_x(0), y - 10, _track_x(TRACK_MAX), y + 10), outline=INK, width=2)
    f = font(22, "semibold")
    for day in range(0, TRACK_MAX + 1):
        x = _track_x(day)
        if day % 10 == 0:
            d.line((x, y - 10, x, y + 16), fill=INK, width=2)
            label = f"{day}+" if day == TRACK_MAX else str(day)
            d.text((x, y + 18), label, font=f, fill=LATE if day > 80 else INK, anchor="mt")
        elif day % 5 == 0:
            d.line((x, y - 10, x, y + 6), fill=INK, width=1)
        else:
            d.line((x, y + 4, x, y + 10), fill=(140, 140, 140), width=1)
    x80 = _track_x(80)
    d.line((x80, y - 14, x80, y + 14), fill=LATE, width=4)


PALETTE_FILE = ASSETS / "palette.bin"


@lru_cache(maxsize=1)
def stored_palette() -> Image.Image:
    """The fixed palette of every around-the-world image (`palette.calibrate_palette` made it)."""
    pal = Image.new("P", (1, 1))
    pal.putpalette(PALETTE_FILE.read_bytes())
    return pal
