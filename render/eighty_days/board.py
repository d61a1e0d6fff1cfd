"""The public board image of `eighty-days`: header (period, newspaper and its effect), the
map with line costs and pawns, the travel and market areas with what the next person pays,
the juggler or pass tiles, arrival cards, supply, and one row per player."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render import budget
from render.common import SpriteDraw, Translator, draw_text, draw_token, font, player_style

from .geometry import GOLD, HEADER_H, INK, ITEM_COLOUR, KIND_COLOUR, MAP_H, MAP_TOP, MUTED, PANEL, PAPER, WIDTH, city_xy
from .static import (
    CITY_R,
    Cities,
    Labels,
    Lines,
    draw_line,
    label_above,
    label_place,
    line_geometry,
    map_keys,
    market_symbol,
    static_layer,
)

ROMAN = ("", "I", "II", "III", "IV", "V")
ITEMS = ("shoes", "revolver", "hat", "umbrella", "coat")
#: item shapes as cells, as the engine's content defines them (drawn, never used for rules)
SHAPE_CELLS = {
    "shoes": ((0, 0), (0, 1)), "revolver": ((0, 0), (1, 0), (1, 1)), "hat": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "umbrella": ((0, 0), (0, 1), (0, 2), (0, 3)), "coat": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
}
PANEL_TOP = MAP_TOP + MAP_H
PANEL_H = 350
ROW_H = 70
#: the supply's items, one every this many pixels (shape, count, and the name under them)
SUPPLY_PITCH = 122
TABLE_HEAD = 56
#: half the side of a box that holds any cost, tile or pawn drawn on the map
DYNAMIC_R = 32


def labels(view: dict[str, Any], t: Translator) -> tuple[tuple[str, str], ...]:
    """City names for the map; the arrival London is plain "London" there (its long name
    does not fit the crowded east edge, and its place on the edge says it is the arrival)."""
    return tuple((c["id"], t("city.london" if c["id"] == "london_arrival" else f"city.{c['id']}"))
                 for c in view["map"]["cities"])


def item_icon(draw: ImageDraw.ImageDraw, x: float, y: float, item: str, cell: float) -> tuple[float, float]:
    """The item's shape in its colour with its top-left at (x, y); returns its size."""
    cells = SHAPE_CELLS[item]
    for r, c in cells:
        draw.rectangle((x + c * cell, y + r * cell, x + (c + 1) * cell - 1, y + (r + 1) * cell - 1),
                       fill=ITEM_COLOUR[item], outline=INK, width=1)
    return (max(c for _, c in cells) + 1) * cell, (max(r for r, _ in cells) + 1) * cell


def coin(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, text: str, size: int = 24) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=INK, width=2)
    draw.text((x, y), text, font=font(size, "bold"), fill=INK, anchor="mm")


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], t: Translator) -> None:
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=(58, 44, 30))
    light = (250, 240, 220)
    draw.text((30, 18), t("title"), font=font(46, "bold"), fill=light)
    if view.get("over"):
        period = t("img.over")
    elif view["phase"] == "setup":
        period = t("img.setup")
    else:
        period = t("img.period", period=ROMAN[view["period"]])
    draw_text(draw, (30, 78), period + "  ·  " + t("img.side", side=view["map"]["side"]), font=font(34, "semibold"),
              fill=GOLD, max_width=640)
    paper = view.get("newspaper")
    x0 = 700
    if paper:
        draw.text((x0, 14), t("img.newspaper"), font=font(24), fill=(210, 195, 170))
        name = t(f"newspaper.{paper['id']}") + "  +" + t.plural("count.coins", paper["coins"])
        draw_text(draw, (x0, 40), name, font=font(38, "bold"), fill=light, max_width=WIDTH - x0 - 30)
        draw_text(draw, (x0, 92), t(f"newspaper_effect.{paper['id']}"), font=font(29), fill=light,
                  max_width=WIDTH - x0 - 30)
    else:
        draw_text(draw, (x0, 50), t("img.newspapers_left", count=view["newspapers_left"]), font=font(32),
                  fill=light)


def _map_dynamic(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                 t: Translator) -> list[tuple[int, int, int, int]]:
    """Costs, tiles and pawns on the map; returns the boxes drawn into (the rest of the map
    is the static layer's pixels, so only these boxes need mapping onto the palette)."""
    boxes: list[tuple[int, int, int, int]] = []
    geo = line_geometry(view["map"])
    side_b = view["map"]["side"] == "B"
    for ln in view["map"]["lines"]:
        p, q = geo[ln["id"]]
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        cost = ln["cost"]
        if (side_b and ln["tile_space"]) or cost is not None:
            boxes.append(_around(mx, my, DYNAMIC_R))
        if side_b and ln["tile_space"]:
            draw.rounded_rectangle((mx - 24, my - 24, mx + 24, my + 24), radius=6, fill=(255, 255, 255),
                                   outline=KIND_COLOUR[ln["kind"]], width=4)
        if cost is None:
            continue
        if cost["kind"] == "coins":
            coin(draw, mx, my, 19, str(cost["coins"]), 26)
        else:
            cells = SHAPE_CELLS[cost["item"]]
            w = (max(c for _, c in cells) + 1) * 9
            h = (max(r for r, _ in cells) + 1) * 9
            if not side_b:
                draw.rounded_rectangle((mx - w / 2 - 6, my - h / 2 - 6, mx + w / 2 + 6, my + h / 2 + 6), radius=5,
                                       fill=(255, 255, 255), outline=INK, width=2)
            item_icon(draw, mx - w / 2, my - h / 2, cost["item"], 9)
    # pawns: each seat's token by its city, clear of every name, symbol and cost
    at: dict[str, list[int]] = {}
    for k, p in enumerate(view["players"]):
        at.setdefault(p["city"], []).append(k)
    obstacles = map_obstacles(view, t) if at else ()
    where = {c["id"]: city_xy(c["x"], c["y"]) for c in view["map"]["cities"]}
    for cid, seats in at.items():
        spots = pawn_spots(view, cid, len(seats), obstacles)
        cx, cy = where[cid]
        near = min(spots, key=lambda s: math.dist(s, (cx, cy)))
        if math.dist(near, (cx, cy)) > LEADER_FROM:  # far from a crowded city: a line says whose pawns
            draw.line((cx, cy, near[0], near[1]), fill=INK, width=3)
            boxes.append((int(min(cx, near[0])) - 3, int(min(cy, near[1])) - 3, int(max(cx, near[0])) + 4,
                          int(max(cy, near[1])) + 4))
            market_symbol(draw, cx, cy, CITY_R, next(c["market"] for c in view["map"]["cities"] if c["id"] == cid))
        for (x, y), k in zip(spots, seats, strict=True):
            draw_token(draw, (x, y), PAWN_R, k)
            boxes.append(_around(x, y, DYNAMIC_R))
    return boxes


#: pawns farther than this from their city (a crowded corner) are joined to it by a line
LEADER_FROM = 90


#: a pawn's radius on the map (17 px was 4 px wide on a phone)
PAWN_R = 22
#: what a pawn's drawing covers around its centre (its outline)
PAWN_REACH = PAWN_R + 2
#: the part of the map panel pawns stay inside (within its rounded frame)
MAP_INNER = (32, MAP_TOP + 20, WIDTH - 32, MAP_TOP + MAP_H - 20)
Rect = tuple[float, float, float, float]


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def map_obstacles(view: dict[str, Any], t: Translator) -> tuple[Rect, ...]:
    """What a pawn must not cover: every city's name, symbol and distance badge, and the cost
    or tile space of every line. The same for every board of a map in a language (`_obstacles`:
    measuring the names was a twentieth of a board)."""
    map_view = view["map"]
    side_b = map_view["side"] == "B"
    marked = tuple(ln["id"] for ln in map_view["lines"]
                   if ln.get("cost") is not None or (side_b and ln.get("tile_space")))
    return _obstacles(labels(view, t), *map_keys(map_view), marked)


@budget.memoized("layers")
def _obstacles(names: Labels, cities: Cities, lines: Lines, marked: tuple[str, ...]) -> tuple[Rect, ...]:
    """`map_obstacles` of a map (its `map_keys`), its names and the lines whose cost or tile
    space shows (`marked`)."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    f_city = font(30, "semibold")
    name_of = dict(names)
    out: list[Rect] = []
    for cid, _market, cx, cy, distance in cities:
        x, y = city_xy(cx, cy)
        out.append((x - CITY_R - 2, y - CITY_R - 2, x + CITY_R + 2, y + CITY_R + 2))
        if distance:
            bx, by = x + CITY_R + 2, y - CITY_R - 2
            out.append((bx - 14, by - 14, bx + 14, by + 14))
        dx, dy, anchor = label_place(cid)
        out.append(probe.textbbox((x + dx, y + dy), name_of.get(cid, cid), font=f_city, anchor=anchor,
                                  stroke_width=4))
    geo = line_geometry({"cities": [{"id": c[0], "x": c[2], "y": c[3]} for c in cities],
                         "lines": [{"id": ln[0], "a": ln[1], "b": ln[2]} for ln in lines]})
    shown = set(marked)
    for ln in lines:
        if ln[0] in shown:
            p, q = geo[ln[0]]
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            out.append((mx - 26, my - 26, mx + 26, my + 26))
    return tuple(out)


def _rows(n: int) -> list[list[tuple[float, float]]]:
    """Offsets of `n` pawns side by side: in one row, (three or four) in two rows, or in a column."""
    step = 2 * PAWN_REACH + 2
    layouts = [[((j - (n - 1) / 2) * step, 0.0) for j in range(n)]]
    if n > 1:
        layouts.append([(0.0, (j - (n - 1) / 2) * step) for j in range(n)])
    if n > 2:
        top = (n + 1) // 2
        layouts.append([((j - (top - 1) / 2) * step, -step / 2) for j in range(top)]
                       + [((j - (n - top - 1) / 2) * step, step / 2) for j in range(n - top)])
    return layouts


#: directions a group of pawns may stand in from its city, after straight away from the name
_DIRECTIONS = [(math.sin(k * math.pi / 8), math.cos(k * math.pi / 8)) for k in range(16)]


def pawn_spots(view: dict[str, Any], cid: str, n: int, obstacles: tuple[Rect, ...]) -> list[tuple[float, float]]:
    """Centres of the `n` pawns in city `cid`: the nearest place, straight away from the city's
    name first, where none covers a name, symbol or cost and all stay inside the map (pawns
    had run off the map's edge at London and sat on Turin's name from Paris)."""
    city = next(c for c in view["map"]["cities"] if c["id"] == cid)
    return _spots(city_xy(city["x"], city["y"]), 1 if label_above(cid) else -1, n, obstacles)


@lru_cache(maxsize=512)
def _spots(centre: tuple[float, float], away: int, n: int, obstacles: tuple[Rect, ...]) -> list[tuple[float, float]]:
    x, y = centre
    r = PAWN_REACH
    directions = [(0.0, float(away))] + [d for d in _DIRECTIONS if d != (0.0, float(away))]
    layouts = _rows(n)
    fallback = [(x + ox, y + away * (CITY_R + r + 4) + oy) for ox, oy in layouts[0]]
    for dist in range(CITY_R + r + 4, 300, 4):
        for ux, uy in directions:
            for offsets in layouts:
                spots = [(x + ux * dist + ox, y + uy * dist + oy) for ox, oy in offsets]
                if all(MAP_INNER[0] + r <= px <= MAP_INNER[2] - r and MAP_INNER[1] + r <= py <= MAP_INNER[3] - r
                       and not any(_overlaps((px - r, py - r, px + r, py + r), o) for o in obstacles)
                       for px, py in spots):
                    return spots
    return fallback


def _around(x: float, y: float, r: int) -> tuple[int, int, int, int]:
    """The whole-pixel box (left, top, right, bottom exclusive) r pixels around (x, y)."""
    return int(x) - r, int(y) - r, int(x) + r + 1, int(y) + r + 1


def _stacks(draw: ImageDraw.ImageDraw, x: float, y: float, area: dict[str, Any], t: Translator, width: float) -> None:
    """The coin stacks of an area (oldest first) and what the next person pays."""
    stacks = area["stacks"]
    cx = x
    for n in stacks[-5:]:
        coin(draw, cx + 16, y + 16, 16, str(n), 20)
        cx += 36
    if area["fix"]:
        draw.rounded_rectangle((cx, y + 2, cx + 30, y + 30), radius=6, fill=(200, 200, 200), outline=INK, width=2)
        draw.text((cx + 15, y + 16), "F", font=font(20, "bold"), fill=INK, anchor="mm")
    text = t("img.next", cost=t.plural("count.coins", area["next_cost"]))
    draw_text(draw, (x, y + 40), text, font=font(30, "bold"), fill=INK, max_width=width)


BOXES = ((20, 560), (590, 1130), (1160, 1780))
TRAVEL_KINDS = ("ship", "train", "special")
MARKETS = ("boutique", "bazaar", "black")
COLUMNS = ((30, "img.player"), (560, "img.where"), (900, "img.coins"), (1030, "img.items"),
           (1160, "img.adventures"), (1300, "img.diary"), (1420, "img.score"))
ChromeTexts = tuple[str, ...]


def _chrome_texts(t: Translator) -> ChromeTexts:
    """Every word of the panels' unchanging part, in the image's language (its cache key)."""
    return (t("img.travel"), *(t(f"kind_cap.{kind}") for kind in TRAVEL_KINDS), t("img.markets"),
            *(t(f"market.{market}").capitalize() for market in MARKETS), *(t(key) for _x, key in COLUMNS))


@budget.memoized("layers")
def _panel_chrome(texts: ChromeTexts) -> Image.Image:
    """The panels and the table head without anything that changes during a game: boxes,
    titles, the travel kinds and the markets. Drawn once per language where the board has
    them, then cut out, so pasting it gives the very pixels drawing it would."""
    travel, kinds, markets, market_names, heads = texts[0], texts[1:4], texts[4], texts[5:8], texts[8:]
    image = Image.new("RGB", (WIDTH, PANEL_TOP + PANEL_H + TABLE_HEAD), PAPER)
    draw = SpriteDraw(image)
    top = PANEL_TOP + 10
    draw.rectangle((0, PANEL_TOP, WIDTH, PANEL_TOP + PANEL_H), fill=PAPER)
    for x0, x1 in BOXES:
        draw.rounded_rectangle((x0, top, x1, top + PANEL_H - 20), radius=16, fill=PANEL, outline=(190, 175, 150),
                               width=3)
    f_title = font(30, "bold")
    f_label = font(27, "semibold")
    x0 = BOXES[0][0] + 18
    draw.text((x0, top + 10), travel, font=f_title, fill=INK)
    for j, kind in enumerate(TRAVEL_KINDS):
        y = top + 56 + j * 92
        draw_line(draw, (x0, y + 18), (x0 + 60, y + 18), kind)
        draw_text(draw, (x0 + 72, y + 2), kinds[j], font=f_label, fill=KIND_COLOUR[kind], max_width=180)
    x0 = BOXES[1][0] + 18
    draw.text((x0, top + 10), markets, font=f_title, fill=INK)
    for j, market in enumerate(MARKETS):
        y = top + 56 + j * 92
        if market == "black":
            draw.rectangle((x0 + 4, y + 4, x0 + 36, y + 36), fill=INK)
            draw.ellipse((x0 + 12, y + 12, x0 + 20, y + 20), fill=(255, 255, 255))
            draw.ellipse((x0 + 22, y + 22, x0 + 30, y + 30), fill=(255, 255, 255))
        else:
            market_symbol(draw, x0 + 20, y + 20, 16, market)
        draw_text(draw, (x0 + 50, y + 2), market_names[j], font=f_label, fill=INK, max_width=200)
    table_top = PANEL_TOP + PANEL_H
    f_head = font(26, "semibold")
    for (x, _key), head in zip(COLUMNS, heads, strict=True):
        draw_text(draw, (x, table_top + 14), head, font=f_head, fill=MUTED, max_width=130 if x > 600 else 330)
    return image.crop((0, PANEL_TOP, WIDTH, PANEL_TOP + PANEL_H + TABLE_HEAD))


def _panels(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], t: Translator) -> None:
    """The panels' chrome from the cache, then what the next person pays in each area."""
    top = PANEL_TOP + 10
    image.paste(_panel_chrome(_chrome_texts(t)), (0, PANEL_TOP))
    for j, kind in enumerate(TRAVEL_KINDS):
        _stacks(draw, BOXES[0][0] + 18 + 270, top + 56 + j * 92 - 8, view["areas"][kind], t, 260)
    for j, market in enumerate(MARKETS):
        _stacks(draw, BOXES[1][0] + 18 + 270, top + 56 + j * 92 - 8, view["areas"][market], t, 250)
    _status_box(draw, view, t, BOXES[2][0] + 18, top)


def _status_box(draw: ImageDraw.ImageDraw, view: dict[str, Any], t: Translator, x0: int, top: int) -> None:
    """The right-hand panel: juggler or pass tiles, arrival cards, supply, last roll."""
    f_title = font(30, "bold")
    f_label = font(27, "semibold")
    if view.get("juggler") is not None:
        draw.text((x0, top + 10), t("img.juggler"), font=f_title, fill=INK)
        for k, n in enumerate(view["juggler"]):
            cx: float = x0 + 220 + k * 64
            if n:
                coin(draw, cx, top + 30, 24, str(n), 26)
            else:
                draw.ellipse((cx - 24, top + 6, cx + 24, top + 54), outline=MUTED, width=2)
        y = top + 70
    else:
        draw.text((x0, top + 10), t("img.pass_tiles"), font=f_title, fill=INK)
        y = top + 50
        tiles = view.get("pass_tiles") or []
        for k, tile in enumerate(tiles):
            cx = x0 + (k % 2) * 300
            cy = y + (k // 2) * 40
            coin(draw, cx + 14, cy + 16, 14, str(tile["coins"]), 18)
            draw_text(draw, (cx + 34, cy), t(f"pass_tile.{tile['id']}"), font=font(25), fill=INK, max_width=260)
        y += ((len(tiles) + 1) // 2) * 40 + 6
    cards = view["arrival_cards"]
    draw_text(draw, (x0, y), t("img.arrival_cards") + ":", font=f_label, fill=INK, max_width=300)
    cx = x0 + 310
    for n in cards:
        draw.rounded_rectangle((cx, y - 2, cx + 44, y + 38), radius=6, fill=(255, 255, 255), outline=INK, width=2)
        draw.text((cx + 22, y + 18), str(n), font=font(26, "bold"), fill=INK, anchor="mm")
        cx += 54
    if not cards:
        draw_text(draw, (cx, y), t("img.none_left"), font=font(26), fill=MUTED)
    y += 52
    draw.text((x0, y), t("img.supply") + ":", font=f_label, fill=INK)
    y += 38
    # each item's shape, how many are left, and its name under it: the shapes on the map's
    # lines are otherwise anonymous
    for k, name in enumerate(ITEMS):
        cx = x0 + k * SUPPLY_PITCH
        w, h = item_icon(draw, cx, y, name, 12)
        draw.text((cx + w + 6, y + 2), str(view["supply"][name]), font=font(28, "bold"), fill=INK)
        draw_text(draw, (cx, y + 36), t(f"item_name.{name}"), font=font(21), fill=MUTED,
                  max_width=SUPPLY_PITCH - 8)
    roll = view.get("last_roll")
    if roll and y + 100 < top + PANEL_H - 30:
        face = t(f"face.{roll['face']}")
        draw_text(draw, (x0, y + 70), t("img.last_roll", face=face), font=font(25), fill=MUTED, max_width=590)


def _players(draw: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], t: Translator, top: int) -> None:
    f = font(32, "semibold")
    to_act = set(view.get("to_act") or [])
    winners = set((view.get("result") or {}).get("winners", []))
    for k, p in enumerate(view["players"]):
        y = top + TABLE_HEAD + k * ROW_H
        colour, _letter, _shape = player_style(k)
        if p["seat"] in to_act and not view.get("over"):
            draw.rounded_rectangle((14, y - 4, WIDTH - 14, y + ROW_H - 8), radius=12, fill=(255, 244, 200),
                                   outline=GOLD, width=3)
        draw_token(draw, (56, y + 29), 22, k)
        name = names.get(p["seat"], p["seat"])
        draw_text(draw, (92, y + 10), name, font=f, fill=colour, max_width=260)
        tags = []
        if view.get("start") == p["seat"]:
            tags.append(t("img.start"))
        if p["passed"] and not view.get("over"):
            tags.append(t("img.passed"))
        elif p["seat"] in to_act and not view.get("over"):
            tags.append(t("img.turn"))
        if p["seat"] in winners:
            tags.append("🏆 " + t("img.winner"))
        if tags:
            draw_text(draw, (362, y + 18), " · ".join(tags), font=font(22, "semibold"), fill=MUTED, max_width=192)
        where = t("status.in_london") if p["in_london"] else t(f"city.{p['city']}")
        draw_text(draw, (560, y + 10), where, font=f, fill=INK, max_width=360)
        coin(draw, 915, y + 29, 16, "")
        draw.text((940, y + 10), str(p["coins"]), font=f, fill=INK)
        draw.text((1030, y + 10), str(p["item_count"]), font=f, fill=INK)
        draw.text((1160, y + 10), str(p["adventures"]), font=f, fill=INK)
        draw.text((1300, y + 10), str(p["score"]["diary"]), font=f, fill=INK)
        score = p["score"]["score"]
        draw.text((1420, y + 10), str(score).replace("-", "−"), font=font(34, "bold"), fill=INK)
        extra = []
        if p["assistant"]:
            extra.append(t(f"assistant.{p['assistant']}"))
        if p["distance"]:
            # the score above already counts it: say what the penalty is, not just a number
            extra.append(t.plural("img.distance", p["distance"], penalty=-p["score"]["penalty"]))
        for line, text in enumerate(extra):
            top_y = y + 16 if len(extra) == 1 else y + 2 + 30 * line
            draw_text(draw, (1510, top_y), text, font=font(22), fill=MUTED, max_width=WIDTH - 1530)


def board_image(view: dict[str, Any], *, names: dict[str, str], t: Translator) -> Image.Image:
    return board_layers(view, names=names, t=t)[0]


def board_layers(view: dict[str, Any], *, names: dict[str, str],
                 t: Translator) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """The board and the boxes on the map drawn per turn: outside them and above
    `PANEL_TOP`, apart from the header, the image is the cached static layer."""
    image, draw, boxes = _top(view, t)
    table_top = PANEL_TOP + PANEL_H
    image.paste(PAPER, (0, table_top + TABLE_HEAD, WIDTH, image.height))
    _panels(image, draw, view, t)
    _players(draw, view, names, t, table_top)
    return image, boxes


def map_image(view: dict[str, Any], *, t: Translator) -> Image.Image:
    """The board with its header and map drawn and the panels and players below left
    undrawn: the part the focus view crops and shrinks. Inside the map it is the board,
    pixel for pixel."""
    return _top(view, t)[0]


def _top(view: dict[str, Any], t: Translator) -> tuple[Image.Image, SpriteDraw, list[tuple[int, int, int, int]]]:
    """A board-sized image with the static layer, the header and the map's changing things
    drawn, its drawer, and the boxes drawn in on the map."""
    assert "private" not in view, "the board is drawn from the public view only"
    n = len(view["players"])
    height = PANEL_TOP + PANEL_H + TABLE_HEAD + n * ROW_H + 14
    # no fill first: the board sets every pixel (static layer, panel chrome, paper under the rows);
    # `map_image` leaves the rows below the map unset, and the focus view never reads them
    image = Image.new("RGB", (WIDTH, height), None)
    image.paste(static_layer(labels(view, t), *map_keys(view["map"])), (0, 0))
    draw = SpriteDraw(image)
    _header(draw, view, t)
    return image, draw, _map_dynamic(image, draw, view, t)
