"""Renderer for `detour`: the four map cards with the track, pawns, blocks and the players' cards.

Draws only from the view the engine hands out (public view for the board, the seat's own
view for the hand). The static map layer (cards, paths, costs, names, blue area, red lines)
depends only on the language and is cached per language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from engine.games.detour import mapdata as M
from render import budget
from render.common import (
    INK,
    MUTED,
    PAPER,
    Draw,
    Translator,
    advance,
    draw_text,
    draw_token,
    encode_png,
    fit_text,
    font,
    player_style,
    text_length,
)
from render.png import Box, StaticLayer

WIDTH = 1400
MARGIN = 20
HEADER_H = 80
#: the track runs as a loop: map cards 1 and 2 left to right on the top row, then down on the
#: right into map cards 3 and 4 right to left on the bottom row, and up on the left back to London
PER_ROW = M.N_MAIN // 2
CARD_W = (WIDTH - 2 * MARGIN) // 2
STEP = CARD_W // (PER_ROW // 2)
ROW_H = 330
ROW_TOP = (HEADER_H, HEADER_H + ROW_H)
TRACK_DY, SIDE_DY = 130, 252
TRACK_YS = tuple(t + TRACK_DY for t in ROW_TOP)
SIDE_YS = tuple(t + SIDE_DY for t in ROW_TOP)
PANEL_TOP = ROW_TOP[1] + ROW_H + 14
PANEL_ROW_H = 64
#: left edge of the card chips in a player row: the name must end before it
CHIPS_X = 470
SPACE_R = 28
TOKEN_R = 20
#: the HOME box (pawns back in London) sits under London; the last leg climbs to it on the left
HOME_XY = (MARGIN + STEP // 2, ROW_TOP[0] + SIDE_DY + 8)
LAST_LEG_X = MARGIN + 26

RED = (200, 30, 30)
BLUE_AREA = (196, 224, 247)
CARD_BG = [(244, 233, 210), (236, 228, 205), (238, 231, 211), (242, 229, 206)]
GOLD = (240, 190, 40)
LIGHT = (222, 222, 222)
#: the folded corner of a played card (darker than its faded number, so it reads as a mark)
PLAYED_MARK = (128, 128, 128)

ACTION_KEY = {10: "moveonly", 8: "block", 6: "detour", 5: "backward"}


def _t(tr: Translator, key: str, /, **params: Any) -> str:
    """An image text: `img.<key>` from the game's catalog."""
    return tr(f"img.{key}", **params)


def _plural(tr: Translator, key: str, count: int, /, **params: Any) -> str:
    """`img.<key>.one` / `.other`, chosen by the language's plural rule (the translator's `plural`)."""
    return tr.plural(f"img.{key}", count, **params)


def _city(tr: Translator, name: str) -> str:
    """A space's city by the catalog's `city.<id>`, the same name the chat texts use."""
    key = "city." + name.lower().replace(" ", "_").replace(".", "")
    text = tr(key)
    return name if text == key else text


class StaticTexts(NamedTuple):
    """The words of the static layer, resolved from the translator: hashable, so the layer
    (and the palette) is cached per set of texts, one per language."""

    blue_area: str
    cards: tuple[str, ...]
    back: str
    cities: tuple[str, ...]
    home: str
    days_legend: str


def static_texts(tr: Translator) -> StaticTexts:
    return StaticTexts(
        blue_area=_t(tr, "blue_area"), cards=tuple(_t(tr, "card", n=n) for n in range(1, 5)),
        back=_t(tr, "back", n=M.LAST_LEG), cities=tuple(_city(tr, M.NAMES[s]) for s in range(M.N_SPACES)),
        home=_t(tr, "home"), days_legend=_t(tr, "days_legend"))


# -- geometry ----------------------------------------------------------------------------
def _col_x(col: int) -> int:
    """Top row left to right, bottom row right to left."""
    k = col if col < PER_ROW else M.N_MAIN - 1 - col
    return MARGIN + STEP // 2 + k * STEP


def _row(col: int) -> int:
    return 0 if col < PER_ROW else 1


def space_xy(space: int) -> tuple[int, int]:
    """Centre of a space on the board (the goal is the HOME box under London)."""
    if space == M.FIN:
        return HOME_XY
    col = M.COLUMN[space]
    row = _row(col)
    return (_col_x(col), SIDE_YS[row] if M.SIDE_OF[space] >= 0 else TRACK_YS[row])


def _path_points(frm: int, to: int, off: int) -> list[tuple[int, int]]:
    """Points of an arrow for a forward walk frm -> to, drawn `off` pixels beside the track (below
    the rows, right of the link between the rows, inside the last leg), ending with a head that
    points into the destination. Arrows never hide the day costs."""
    raw = [space_xy(frm)]
    at, guard = frm, 0
    while at != to and at != M.FIN and guard < 40:
        at, guard = M.NEXT[at], guard + 1
        raw.append(space_xy(at))
    if at != to:
        raw = [space_xy(frm), space_xy(to)]
    lane_x = LAST_LEG_X + 14 + (off - 40)
    pts: list[tuple[int, int]] = []
    for i, (x, y) in enumerate(raw):
        if (x, y) == HOME_XY:  # round the last leg's bend, inside it, into the HOME box
            py = pts[-1][1] if pts else y
            pts += [(lane_x, py), (lane_x, y + 12), (x - 50, y + 12)]
            return pts
        pts.append((x, y + off))
        nxt = raw[i + 1] if i + 1 < len(raw) else None
        if nxt is not None and nxt[0] == x and nxt != HOME_XY:  # the link from one row to the next
            pts += [(x + off, y + off), (x + off, nxt[1] + off)]
    x, y = raw[-1]
    pts.append((x, y + SPACE_R + 4))
    return pts


def _badge(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, fill=(255, 255, 255),
           outline=INK, size: int = 22, colour=INK) -> None:
    f = font(size, "bold")
    w = advance(f, text)
    x, y = xy
    draw.rounded_rectangle((x - w / 2 - 7, y - size / 2 - 3, x + w / 2 + 7, y + size / 2 + 3), radius=8,
                           fill=fill, outline=outline, width=2)
    draw.text((x, y), text, font=f, fill=colour, anchor="mm")


def _arrow_head(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour, size=14) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    p1 = (b[0] - size * math.cos(ang - 0.45), b[1] - size * math.sin(ang - 0.45))
    p2 = (b[0] - size * math.cos(ang + 0.45), b[1] - size * math.sin(ang + 0.45))
    draw.polygon([b, p1, p2], fill=colour)


#: pawns at most: the tallest board, whose static layer serves every height
MOST_PAWNS = 4


def _tallest() -> int:
    return PANEL_TOP + MOST_PAWNS * PANEL_ROW_H + 20


def _static_board(texts: StaticTexts, height: int) -> Image.Image:
    """Everything that never changes during a game, at least `height` tall (one picture per
    set of texts serves every height: nothing in it depends on the players below the map)."""
    return _tall_board(texts, max(height, _tallest()))


@budget.memoized("layers")
def _tall_board(texts: StaticTexts, height: int) -> Image.Image:
    img = Image.new("RGB", (WIDTH, height), PAPER)
    d = Draw(img)
    _draw_map_cards(d, texts)
    _draw_connections(d, texts)
    _draw_spaces(d, texts)
    return img


def _draw_map_cards(d: ImageDraw.ImageDraw, texts: StaticTexts) -> None:
    """The four map cards, their numbers and the blue middle area."""
    # map cards: 1, 2 on the top row; 4, 3 on the bottom row (the track comes back right to left)
    labels: list[tuple[int, int, int]] = []
    for card in range(4):
        row, k = divmod(card, 2)
        x0 = MARGIN + (k if row == 0 else 1 - k) * CARD_W
        y0 = ROW_TOP[row] + 4
        d.rounded_rectangle((x0 + 3, y0, x0 + CARD_W - 3, y0 + ROW_H - 10), radius=18, fill=CARD_BG[card],
                            outline=(160, 140, 110), width=2)
        labels.append((x0 + CARD_W - 18, y0, card + 1))  # top right: card 4's top left carries the last leg
    # blue middle area: its spaces at the end of the top row and the start of the bottom row
    for row in (0, 1):
        xs = [_col_x(M.COLUMN[s]) for s in M.BLUE if _row(M.COLUMN[s]) == row]
        y = TRACK_YS[row]
        d.rounded_rectangle((min(xs) - 62, y - 84, max(xs) + 62, y + 62), radius=22, fill=BLUE_AREA,
                            outline=(70, 130, 190), width=3)
        if row == 1:
            d.text(((min(xs) + max(xs)) / 2, y + 70), texts.blue_area, font=font(20, "semibold"),
                   fill=(30, 80, 140), anchor="mt")  # under the area, clear of arrows along the track
    for right, y0, number in labels:  # after the blue area, which reaches into cards 2 and 3's corners
        d.text((right, y0 + 6), str(number), font=font(34, "bold"), fill=(150, 120, 80), anchor="ra")
        d.text((right - 30, y0 + 15), texts.cards[number - 1], font=font(20, "semibold"), fill=(150, 120, 80),
               anchor="ra")


def _draw_connections(d: ImageDraw.ImageDraw, texts: StaticTexts) -> None:
    """Connections, the last leg to HOME, the red lines and the day cost of every connection."""
    for s in range(M.N_SPACES):
        nxt = M.NEXT[s]
        if nxt == M.FIN:
            continue
        side = M.SIDE_OF[s] >= 0
        d.line([space_xy(s), space_xy(nxt)], fill=(120, 90, 60) if side else INK, width=5 if side else 6)
    # the last leg: from Liverpool round the left edge up to the HOME box, which is London
    lx, ly = space_xy(M.N_MAIN - 1)
    hx, hy = HOME_XY
    d.line([(lx - SPACE_R, ly), (LAST_LEG_X, ly), (LAST_LEG_X, hy), (hx - 56, hy)], fill=INK, width=6,
           joint="curve")
    _arrow_head(d, (hx - 90, hy), (hx - 48, hy), INK, 22)
    d.line([(hx, TRACK_YS[0] + SPACE_R), (hx, hy - 30)], fill=MUTED, width=2)
    mid = (ly + hy) // 2 + 10
    # the label stands clear of the lanes where arrivals are drawn (see _path_points)
    d.text((LAST_LEG_X + 84, mid), texts.back, font=font(20, "bold"), fill=INK, anchor="lm")
    # red lines: from the red-line space down to the first space of its side path
    for s in range(M.N_MAIN):
        first = M.RED[s]
        if first < 0:
            continue
        a, b = space_xy(s), space_xy(first)
        y = a[1] + SPACE_R + 8
        while y < b[1] - SPACE_R - 6:
            d.line([(a[0], y), (a[0], min(y + 10, b[1] - SPACE_R - 6))], fill=RED, width=5)
            y += 18
        d.line([(a[0] - 28, a[1] + SPACE_R + 12), (a[0] + 28, a[1] + SPACE_R + 12)], fill=RED, width=8)
        _arrow_head(d, (b[0], b[1] - 70), (b[0], b[1] - SPACE_R - 2), RED, 18)
    for xy, text in _cost_badges():
        _badge(d, xy, text, size=COST_SIZE)


#: the type size of the day costs on the connections
COST_SIZE = 26


def _cost_badges() -> list[tuple[tuple[float, float], str]]:
    """Where each day cost stands and what it says: every connection's, and the last leg's."""
    out: list[tuple[tuple[float, float], str]] = []
    for s in range(M.N_SPACES):
        nxt = M.NEXT[s]
        if nxt == M.FIN:
            continue
        (ax, ay), (bx, by) = space_xy(s), space_xy(nxt)
        out.append((((ax + bx) / 2, (ay + by) / 2), str(M.COST[s])))
    ly, hy = space_xy(M.N_MAIN - 1)[1], HOME_XY[1]
    out.append(((LAST_LEG_X, (ly + hy) // 2 + 10), str(M.LAST_LEG)))
    return out


def _city_labels(texts: StaticTexts) -> list[tuple[tuple[float, float], str, tuple[int, int, int], str]]:
    """Every space's name: where, what, its ink and its anchor (side paths' names under the
    space in brown, the track's above it)."""
    out: list[tuple[tuple[float, float], str, tuple[int, int, int], str]] = []
    for s in range(M.N_SPACES):
        x, y = space_xy(s)
        name = texts.cities[s]
        if M.SIDE_OF[s] >= 0:
            out.append(((x, y + SPACE_R + 4), name, (110, 80, 50), "mt"))
        elif M.COLUMN[s] == PER_ROW:  # the link from the top row comes down onto this space
            out.append(((x - 10, y - SPACE_R - 6), name, INK, "rb"))
        else:
            out.append(((x, y - SPACE_R - 6), name, INK, "mb"))
    return out


@lru_cache(maxsize=8)
def _label_boxes(texts: StaticTexts) -> tuple[Box, ...]:
    """The boxes of the day costs and city names: an arrow crossing one is drawn under it."""
    d = Draw(Image.new("RGB", (1, 1)))
    boxes: list[Box] = []
    f = font(COST_SIZE, "bold")
    for (x, y), text in _cost_badges():
        w = advance(f, text)
        boxes.append((math.floor(x - w / 2 - 8), math.floor(y - COST_SIZE / 2 - 4),
                      math.ceil(x + w / 2 + 9), math.ceil(y + COST_SIZE / 2 + 5)))
    fname = font(22, "semibold")
    for xy, name, _ink, anchor in _city_labels(texts):
        x0, y0, x1, y1 = d.textbbox(xy, name, font=fname, anchor=anchor)
        boxes.append((math.floor(x0) - 1, math.floor(y0) - 1, math.ceil(x1) + 2, math.ceil(y1) + 2))
    return tuple(boxes)


def _labels_over_arrows(img: Image.Image, static: Image.Image, texts: StaticTexts, arrows: list[Box]) -> None:
    """Lay the day costs and city names an arrow crosses back on top of it (from the static
    layer): players misread a cost or a name with an arrow's line through it."""
    for box in _label_boxes(texts):
        if any(box[0] < a[2] and a[0] < box[2] and box[1] < a[3] and a[1] < box[3] for a in arrows):
            img.paste(static.crop(box), box[:2])


def _draw_spaces(d: ImageDraw.ImageDraw, texts: StaticTexts) -> None:
    """Spaces with their city names, the start star, the HOME box and the legend."""
    hx, hy = HOME_XY
    fname = font(22, "semibold")
    for s in range(M.N_SPACES):
        x, y = space_xy(s)
        side = M.SIDE_OF[s] >= 0
        fill = (255, 255, 255) if not side else (250, 236, 214)
        # every space ringed in ink: a red ring is a blocked pawn's (a red-line space ringed red
        # read as a block); the red line under it says where a detour starts
        d.ellipse((x - SPACE_R, y - SPACE_R, x + SPACE_R, y + SPACE_R), fill=fill, outline=INK, width=5)
    for xy, name, ink, anchor in _city_labels(texts):
        d.text(xy, name, font=fname, fill=ink, anchor=anchor)
    # start/goal: a star in London, the HOME box below it
    sx, sy = space_xy(M.START)
    star = [(sx + (15 if k % 2 == 0 else 6) * math.cos(-math.pi / 2 + k * math.pi / 5),
             sy + (15 if k % 2 == 0 else 6) * math.sin(-math.pi / 2 + k * math.pi / 5)) for k in range(10)]
    d.polygon(star, fill=GOLD, outline=INK)
    d.rounded_rectangle((hx - 48, hy - 30, hx + 48, hy + 30), radius=12, fill=(255, 236, 170), outline=INK, width=3)
    d.text((hx + 56, hy), texts.home, font=font(20, "bold"), fill=INK, anchor="lm")
    d.text((WIDTH - MARGIN - 14, ROW_TOP[1] + ROW_H - 16), texts.days_legend, font=font(18), fill=MUTED,
           anchor="rb")


def _where(pawn: dict[str, Any], tr: Translator) -> str:
    """'Calcutta · 38 days to go', or HOME."""
    if pawn["finished"]:
        return _t(tr, "home")
    return f"{_city(tr, M.NAMES[pawn['space']])} · {_plural(tr, 'days', pawn['days_left'], n=pawn['days_left'])}"


#: room for one name inside the status line, which may list every player
STATUS_NAME_W = 300


def _label(view: dict[str, Any], pawn: dict[str, Any], names: dict[str, str], tr: Translator,
           f: ImageFont.FreeTypeFont | None = None, room: float | None = None) -> str:
    """The seat's name (with its pawn colour when a player has two), shortened with "…"
    to `room` pixels in `f` when given: the colour always stays readable."""
    name = names.get(pawn["seat"], pawn["seat"])
    suffix = f" ({_t(tr, pawn['colour'])})" if view.get("two_colours") else ""
    if f is not None and room is not None:
        name = fit_text(name, f, room - text_length(suffix, f))
    return name + suffix


def _cluster(n: int) -> list[tuple[int, int]]:
    if n == 1:
        return [(0, 0)]
    if n == 2:
        return [(-16, -7), (16, 7)]
    if n == 3:  # kept low: the space's name is just above
        return [(-20, -5), (20, -5), (0, 15)]
    return [(-18, -14), (18, -14), (-18, 16), (18, 16)]


def _card_chip(d: ImageDraw.ImageDraw, x: int, y: int, value: int, state: str) -> int:
    """A small card: 'hand' (solid), 'played' (faded, its corner folded), 'now' (revealed this
    round). A played card's mark stays off its number: a stroke through it made 5 and 6 read as 8."""
    w, h = 50, 40
    if state == "hand":
        fill, outline, colour = (255, 255, 255), INK, INK
    elif state == "now":
        fill, outline, colour = GOLD, INK, INK
    else:
        fill, outline, colour = LIGHT, (170, 170, 170), (150, 150, 150)
    d.rounded_rectangle((x, y, x + w, y + h), radius=7, fill=fill, outline=outline, width=2)
    d.text((x + w / 2, y + h / 2), str(value), font=font(24, "bold"), fill=colour, anchor="mm")
    if state == "played":
        d.polygon([(x + w - 13, y + 1), (x + w - 1, y + 13), (x + w - 13, y + 13)], fill=PLAYED_MARK)
    return x + w + 6


def _status_line(view: dict[str, Any], names: dict[str, str], tr: Translator) -> str:
    pawns = view["pawns"]
    if view.get("over"):
        result = view.get("result") or {}
        winners = result.get("winners", [])
        f = font(22, "semibold")
        label = ", ".join(fit_text(names.get(s, s), f, STATUS_NAME_W) for s in winners)
        text = _t(tr, "over" if len(winners) == 1 else "over_pl", names=label)
        rule = (result.get("ranking") or [{}])[0].get("rule")
        if rule in (1, 2):  # the 2-player win condition that decided it
            text += " — " + _t(tr, f"rule{rule}")
        return text
    if view.get("phase") == "resolve" and view.get("resolving"):
        r = view["resolving"]
        pawn = next(p for p in pawns if p["colour"] == r["colour"])
        return _t(tr, "resolving", name=_label(view, pawn, names, tr, font(22, "semibold"), STATUS_NAME_W),
                  card=r["card"],
                  action=_t(tr, ACTION_KEY[r["card"]]))
    waiting = [_label(view, p, names, tr, font(22, "semibold"), STATUS_NAME_W) for p in pawns if not p["chosen"]]
    return _t(tr, "choosing", names=", ".join(waiting))


def _draw_events(d: ImageDraw.ImageDraw, view: dict[str, Any], events: list[dict[str, Any]],
                 boxes: list[Box]) -> None:
    colour_index = {p["colour"]: p["index"] for p in view["pawns"]}
    lane = 0  # several moves in one batch of events: one lane each, so none hides another
    for ev in events:
        t = ev.get("type")
        if t not in ("move", "detour", "backward") or ev.get("from") == ev.get("to"):
            continue
        frm, to = ev["from"], ev["to"]
        if t == "move":
            colour = player_style(colour_index.get(ev.get("colour"), 0))[0]
            pts = _path_points(frm, to, 40 + 12 * (lane % 4))
            lane += 1
            d.line(pts, fill=colour, width=7, joint="curve")
            if len(pts) >= 2:
                _arrow_head(d, pts[-2], pts[-1], colour, 20)
            boxes.append(_around(pts, 24))
        else:
            (ax, ay), (bx, by) = space_xy(frm), space_xy(to)
            if ay == by:  # backward along a row: in a lane below it, like the moves
                off = 40 + 12 * (lane % 4)
                lane += 1
                pts = [(ax, ay + off), (bx, by + off), (bx, by + SPACE_R + 4)]
            else:  # detour (beside the red line) or backward between the rows
                pts = [(ax + 36, ay + 10), (bx + 36, by - 10)]
            d.line(pts, fill=RED, width=6, joint="curve")
            _arrow_head(d, pts[-2], pts[-1], RED, 20)
            boxes.append(_around(pts, 24))


def _around(points: Sequence[tuple[float, float]], pad: float) -> Box:
    """The box around `points`, `pad` pixels wider on every side (line widths, arrow heads)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return int(min(xs) - pad), int(min(ys) - pad), int(max(xs) + pad) + 1, int(max(ys) + pad) + 1


def _panel_height(view: dict[str, Any]) -> int:
    return len(view["pawns"]) * PANEL_ROW_H + 20


def render_board(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """PNG of the board from the public view; every word comes from `translator` (the game's
    catalog in the image's language). `lang` is accepted for compatibility and ignored."""
    del lang
    image, boxes = board_layers(view, names=names, translator=translator, events=events)
    # mapping onto a fixed palette is ~6x faster than computing one per image, and the same
    # colours always get the same palette entries (deterministic output); the static layer is
    # mapped once, a turn maps only the boxes it drew in
    return _layer(translator, len(view["pawns"]), image.height).encode(image, boxes)


def _layer(tr: Translator, pawns: int, height: int) -> StaticLayer:
    """The static layer of a board of `height` mapped onto its palette, once per language and
    number of pawns."""
    return _mapped(static_texts(tr), pawns, max(height, _tallest()), tr).top(height)


@budget.memoized("layers", by=lambda texts, pawns, height, tr: (texts, pawns, height))
def _mapped(texts: StaticTexts, pawns: int, height: int, tr: Translator) -> StaticLayer:
    """`_layer` as tall as the tallest board, kept by its static texts (the translator stands
    for them: not in the key)."""
    return StaticLayer(_static_board(texts, height), _board_palette(tr, pawns))


def _sample_pawn(i: int, space: int, **fields: Any) -> dict[str, Any]:
    pawn = {"seat": f"p{i + 1}", "colour": ("blue", "orange", "green", "purple")[i], "index": i, "space": space,
            "finished": space == M.FIN, "blocked": False, "hand": [10, 8], "played": [6, 5], "chosen": i % 2 == 0,
            "card": None, "days_left": M.DIST[space]}
    pawn.update(fields)
    return pawn


#: palettes by (static texts, pawns): the static texts stand for the language (see `_board_palette`)
_PALETTES: dict[tuple[StaticTexts, int], Image.Image] = {}


def _board_palette(tr: Translator, pawns: int) -> Image.Image:
    """A 256-colour palette for boards with this many pawns, computed once per language from two
    sample boards that show every colour the board uses (all tokens, blocks, chips in every
    state, arrows, the HOME box, both phases)."""
    key = (static_texts(tr), pawns)
    if key not in _PALETTES:
        _PALETTES[key] = _sample_palette(tr, pawns)
    return _PALETTES[key]


def _sample_palette(tr: Translator, pawns: int) -> Image.Image:
    spaces = [M.FIN, 5, 17, 9][:pawns]
    names = {f"p{i + 1}": "Sample" for i in range(pawns)}
    choose = {"pawns": [_sample_pawn(i, sp, blocked=i == 1) for i, sp in enumerate(spaces)], "phase": "choose",
              "round": 1, "first": {"colour": "blue"}, "two_colours": pawns == 4, "over": False}
    resolve = {"pawns": [_sample_pawn(i, sp, card=(10, 8, 6, 5)[i], chosen=True) for i, sp in enumerate(spaces)],
               "phase": "resolve", "round": 2, "first": {"colour": "orange"}, "two_colours": False, "over": False,
               "resolving": {"seat": "p2", "colour": "orange", "card": 8},
               "queue": [{"seat": "p2", "colour": "orange", "card": 8}]}
    colours = ("blue", "orange", "green", "purple")[:pawns]
    events = [{"type": "move", "colour": c, "from": 0, "to": 3 + k} for k, c in enumerate(colours)]
    events += [{"type": "backward", "from": 4, "to": 3}, {"type": "detour", "from": 5, "to": 18}]
    a = board_image(choose, names=names, translator=tr, events=events)
    b = board_image(resolve, names=names, translator=tr, events=events[::-1])
    both = Image.new("RGB", (a.width, a.height + b.height))
    both.paste(a, (0, 0))
    both.paste(b, (0, a.height))
    sampled = both.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))  # the colours alone: the sample's pixels are not needed
    palette.putpalette(sampled.getpalette() or [])
    return palette


def board_image(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                events: list[dict[str, Any]] | None = None, lang: str | None = None) -> Image.Image:
    """The board as a Pillow image (see `render_board`)."""
    del lang
    return board_layers(view, names=names, translator=translator, events=events)[0]


def board_layers(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None) -> tuple[Image.Image, list[Box]]:
    """The board, and the boxes it drew in beyond its static layer: the header, the event
    arrows, the pawns and the players' panel (outside them it is the static layer exactly)."""
    tr = translator
    height = PANEL_TOP + _panel_height(view)
    img = _static_board(static_texts(tr), height).crop((0, 0, WIDTH, height))
    boxes: list[Box] = [(0, 0, WIDTH, HEADER_H + 4), (0, PANEL_TOP - 4, WIDTH, height)]
    d = Draw(img)
    # header
    d.text((MARGIN, 14), _t(tr, "title"), font=font(32, "bold"), fill=INK)
    d.text((WIDTH - MARGIN, 14), _t(tr, "round", n=view.get("round", 1)), font=font(32, "bold"), fill=INK,
           anchor="ra")
    draw_text(d, (MARGIN, 50), _status_line(view, names, tr), font=font(22, "semibold"), fill=(60, 60, 60),
              max_width=WIDTH - 2 * MARGIN)
    # last events: arrows, under the costs and names they cross
    if events:
        arrows: list[Box] = []
        _draw_events(d, view, events, arrows)
        _labels_over_arrows(img, _static_board(static_texts(tr), height), static_texts(tr), arrows)
        boxes += arrows
    _draw_pawns(d, view["pawns"], boxes)
    _draw_players(d, view, names, tr)
    return img, boxes


def _draw_pawns(d: ImageDraw.ImageDraw, pawns: list[dict[str, Any]], boxes: list[Box]) -> None:
    """Every pawn on its space (several on one space side by side), blocked ones ringed red."""
    by_space: dict[int, list[dict[str, Any]]] = {}
    for p in pawns:
        by_space.setdefault(p["space"], []).append(p)
    for space, group in by_space.items():
        x, y = space_xy(space)
        for (dx, dy), p in zip(_cluster(len(group)), group, strict=False):
            cx, cy = x + dx, y + dy
            if p["blocked"]:
                d.ellipse((cx - TOKEN_R - 7, cy - TOKEN_R - 7, cx + TOKEN_R + 7, cy + TOKEN_R + 7), outline=RED,
                          width=6)
            draw_token(d, (cx, cy), TOKEN_R, p["index"])
            boxes.append(_around([(cx, cy)], TOKEN_R + 12))


def _card_state(p: dict[str, Any], value: int) -> str:
    """How a player's card `value` shows in their row: chosen "now", still in "hand", or "played"."""
    if p.get("card") == value:
        return "now"
    if value in p["hand"]:
        return "hand"
    return "played"


def _draw_players(d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], tr: Translator) -> None:
    """One row per player under the map: pawn, first-player badge, name, cards, status, place."""
    y = PANEL_TOP
    first = view.get("first") or {}
    queue_cards = {q["colour"] for q in view.get("queue", [])}
    phase = view.get("phase")
    f_name = font(24, "bold")
    f_small = font(20, "semibold")
    for p in view["pawns"]:
        cy = y + PANEL_ROW_H // 2
        d.rounded_rectangle((MARGIN, y + 4, WIDTH - MARGIN, y + PANEL_ROW_H - 4), radius=12, fill=(255, 255, 255),
                            outline=(200, 190, 170), width=2)
        draw_token(d, (MARGIN + 30, cy), 18, p["index"])
        x = MARGIN + 58
        if first.get("colour") == p["colour"]:
            _badge(d, (x + 20, cy), _t(tr, "first"), fill=GOLD, size=20)
        x += 46
        draw_text(d, (x, cy), _label(view, p, names, tr, f_name, CHIPS_X - 14 - x), font=f_name, fill=INK,
                  anchor="lm")
        x = CHIPS_X
        for value in M.CARDS:
            x = _card_chip(d, x, cy - 20, value, _card_state(p, value))
        x += 16
        if phase == "choose" and not view.get("over"):
            text = ("✓ " + _t(tr, "chosen")) if p["chosen"] else _t(tr, "waiting")
            d.text((x, cy), text, font=f_small, fill=(0, 120, 60) if p["chosen"] else MUTED, anchor="lm")
        elif p.get("card"):
            tag = f"{p['card']}: {_t(tr, ACTION_KEY[p['card']])}"
            if view.get("resolving", {}) and view["resolving"].get("colour") == p["colour"]:
                tag = "▶ " + tag
            elif p["colour"] not in queue_cards:
                tag = "✓ " + tag
            d.text((x, cy), tag, font=f_small, fill=INK, anchor="lm")
        x = 1040
        if p["blocked"]:
            _badge(d, (x + 50, cy), _t(tr, "blocked"), fill=(255, 220, 220), outline=RED, colour=RED, size=20)
        d.text((WIDTH - MARGIN - 16, cy), _where(p, tr), font=f_small, fill=INK, anchor="rm")
        y += PANEL_ROW_H


# -- hand -----------------------------------------------------------------------------------
def _icon(d: ImageDraw.ImageDraw, value: int, cx: float, cy: float, colour) -> None:
    if value == 8:  # block: a stop octagon with a bar
        pts = [(cx + 34 * math.cos(math.pi / 8 + k * math.pi / 4), cy + 34 * math.sin(math.pi / 8 + k * math.pi / 4))
               for k in range(8)]
        d.polygon(pts, fill=colour, outline=INK, width=3)
        d.rectangle((cx - 20, cy - 6, cx + 20, cy + 6), fill=(255, 255, 255))
    elif value == 6:  # detour: a forking arrow
        d.line([(cx - 36, cy + 10), (cx + 30, cy + 10)], fill=colour, width=8)
        d.line([(cx - 10, cy + 10), (cx + 6, cy - 22), (cx + 30, cy - 22)], fill=colour, width=8, joint="curve")
        _arrow_head(d, (cx + 10, cy - 22), (cx + 40, cy - 22), colour, 20)
        _arrow_head(d, (cx + 10, cy + 10), (cx + 40, cy + 10), colour, 20)
    elif value == 5:  # backward: an arrow to the left
        d.line([(cx + 36, cy), (cx - 22, cy)], fill=colour, width=10)
        _arrow_head(d, (cx, cy), (cx - 40, cy), colour, 26)
    else:  # move only: an arrow to the right
        d.line([(cx - 36, cy), (cx + 22, cy)], fill=colour, width=10)
        _arrow_head(d, (cx, cy), (cx + 40, cy), colour, 26)


def _big_card(d: ImageDraw.ImageDraw, x: int, y: int, value: int, state: str, tr: Translator) -> None:
    w, h = 250, 300
    played = state == "played"
    fill = (235, 235, 235) if played else ((255, 246, 214) if state == "now" else (255, 255, 255))
    outline = (170, 170, 170) if played else (GOLD if state == "now" else INK)
    ink = (160, 160, 160) if played else INK
    d.rounded_rectangle((x, y, x + w, y + h), radius=20, fill=fill, outline=outline, width=6 if state == "now" else 3)
    # action area (upper)
    action = M.CARD_ACTION[value]
    d.text((x + w / 2, y + 22), _t(tr, ACTION_KEY[value]), font=font(30, "bold"), fill=ink, anchor="mt")
    _icon(d, value, x + w / 2, y + 105, (170, 170, 170) if played else ((200, 40, 40) if action else (40, 110, 60)))
    if value in M.ACTION_BONUS:
        sub = _t(tr, "plus", n=M.ACTION_BONUS[value])
    elif action == "detour":
        sub = _t(tr, "blue_bonus")
    else:
        sub = _t(tr, "no_action")
    d.text((x + w / 2, y + 152), sub, font=font(19, "semibold"), fill=ink, anchor="mt")
    d.line([(x + 16, y + 185), (x + w - 16, y + 185)], fill=outline, width=2)
    # move area (lower)
    d.text((x + w / 2, y + 238), str(value), font=font(72, "bold"), fill=ink, anchor="mm")
    tag = {"played": _t(tr, "played"), "now": _t(tr, "chosen_now"), "hand": _t(tr, "in_hand")}[state]
    _badge(d, (x + w / 2, y + h), tag, size=22, fill=(220, 220, 220) if played else (GOLD if state == "now"
                                                                                 else (210, 240, 215)))


def render_hand(view: dict[str, Any], seat: str, *, names: dict[str, str], translator: Translator,
                lang: str | None = None) -> bytes:
    """PNG of one seat's cards from its own view (`translator`, `lang`: see `render_board`)."""
    del lang
    return encode_png(hand_image(view, seat, names=names, translator=translator))


def hand_image(view: dict[str, Any], seat: str, *, names: dict[str, str], translator: Translator,
               lang: str | None = None) -> Image.Image:
    del lang
    tr = translator
    mine = [p for p in view["pawns"] if p["seat"] == seat]
    private = view.get("private") or {}
    chosen = private.get("chosen", {})
    row_h = 390
    img = Image.new("RGB", (1200, 80 + row_h * max(1, len(mine))), PAPER)
    d = Draw(img)
    round_text = _t(tr, "round", n=view.get("round", 1))
    d.text((1170, 24), round_text, font=font(30, "bold"), fill=INK, anchor="ra")
    f_title = font(34, "bold")
    room = 1170 - 30 - 24 - advance(font(30, "bold"), round_text)
    name = fit_text(names.get(seat, seat), f_title, room - text_length(_t(tr, "hand_title", name=""), f_title))
    draw_text(d, (30, 20), _t(tr, "hand_title", name=name), font=f_title, fill=INK, max_width=room)
    y = 80
    for p in mine:
        draw_token(d, (50, y + 30), 22, p["index"])
        f_line = font(26, "semibold")
        extra = [_t(tr, "blocked")] if p["blocked"] else []
        extra.append(_where(p, tr))
        rest = "  ·  " + "  ·  ".join(extra)
        line = _label(view, p, names, tr, f_line, 1170 - 85 - text_length(rest, f_line))
        draw_text(d, (85, y + 30), line + rest, font=f_line, fill=INK, anchor="lm")
        x = 45
        now = chosen.get(p["colour"]) or p.get("card")
        for value in M.CARDS:
            state = "now" if value == now else ("hand" if value in p["hand"] else "played")
            _big_card(d, x, y + 62, value, state, tr)
            x += 285
        y += row_h
    return img
