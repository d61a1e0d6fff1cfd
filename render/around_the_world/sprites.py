"""The around-the-world pictures: ship, train, coin, detective and friends, drawn large once,
scaled down for smooth edges and cached; the travel cards and the leg requirement badges."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.around_the_world.geometry import (
    BROWN,
    CHIT_BLUE,
    CHIT_R,
    CHIT_RED,
    GOLD,
    GOLD_DARK,
    NAVY,
    ROUTE_GLOW,
    SHIP_BG,
    SOFT,
    TRAIN_BG,
    WHITE,
)
from render.common import INK, Draw, draw_token, font


def _ship(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: tuple[int, int, int]) -> None:
    """A steamer seen from the side, about 2s wide and s tall."""
    hull = [(cx - s, cy + 0.05 * s), (cx + s, cy + 0.05 * s), (cx + 0.72 * s, cy + 0.5 * s),
            (cx - 0.8 * s, cy + 0.5 * s)]
    draw.polygon(hull, fill=colour)
    draw.rectangle((cx - 0.62 * s, cy - 0.25 * s, cx + 0.5 * s, cy + 0.05 * s), fill=colour)
    draw.rectangle((cx - 0.42 * s, cy - 0.62 * s, cx - 0.18 * s, cy - 0.25 * s), fill=colour)
    draw.rectangle((cx + 0.02 * s, cy - 0.62 * s, cx + 0.26 * s, cy - 0.25 * s), fill=colour)
    win = (255, 255, 255)
    for k in range(4):
        wx = cx - 0.5 * s + k * 0.27 * s
        draw.ellipse((wx - 0.06 * s, cy - 0.16 * s, wx + 0.06 * s, cy - 0.04 * s), fill=win)


def _train(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: tuple[int, int, int]) -> None:
    """A steam locomotive seen from the side, about 2s wide and s tall."""
    draw.rectangle((cx - 0.95 * s, cy - 0.12 * s, cx + 0.3 * s, cy + 0.28 * s), fill=colour)  # boiler
    draw.rectangle((cx + 0.25 * s, cy - 0.55 * s, cx + 0.95 * s, cy + 0.28 * s), fill=colour)  # cab
    draw.rectangle((cx + 0.2 * s, cy - 0.66 * s, cx + 1.0 * s, cy - 0.52 * s), fill=colour)  # roof
    draw.polygon([(cx - 0.78 * s, cy - 0.12 * s), (cx - 0.52 * s, cy - 0.12 * s), (cx - 0.45 * s, cy - 0.6 * s),
                  (cx - 0.85 * s, cy - 0.6 * s)], fill=colour)  # chimney
    draw.polygon([(cx - 0.95 * s, cy + 0.2 * s), (cx - 1.12 * s, cy + 0.5 * s), (cx - 0.9 * s, cy + 0.5 * s)],
                 fill=colour)  # cow-catcher
    draw.rectangle((cx + 0.42 * s, cy - 0.42 * s, cx + 0.78 * s, cy - 0.12 * s), fill=(255, 255, 255))  # window
    for wx, wr in ((-0.62, 0.2), (-0.12, 0.2), (0.6, 0.26)):
        x = cx + wx * s
        y = cy + 0.5 * s
        r = wr * s
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=(255, 255, 255), width=max(1, int(s * 0.07)))


def _coin(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=GOLD_DARK, width=max(1, int(r * 0.18)))
    draw.ellipse((cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6), outline=GOLD_DARK,
                 width=max(1, int(r * 0.12)))


def _balloon(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: tuple[int, int, int]) -> None:
    draw.ellipse((cx - 0.62 * s, cy - s, cx + 0.62 * s, cy + 0.3 * s), fill=colour)
    draw.polygon([(cx - 0.5 * s, cy), (cx + 0.5 * s, cy), (cx + 0.2 * s, cy + 0.5 * s), (cx - 0.2 * s, cy + 0.5 * s)],
                 fill=colour)
    draw.line((cx - 0.2 * s, cy + 0.5 * s, cx - 0.16 * s, cy + 0.72 * s), fill=INK, width=max(1, int(s * 0.06)))
    draw.line((cx + 0.2 * s, cy + 0.5 * s, cx + 0.16 * s, cy + 0.72 * s), fill=INK, width=max(1, int(s * 0.06)))
    draw.rectangle((cx - 0.2 * s, cy + 0.72 * s, cx + 0.2 * s, cy + s), fill=BROWN)
    draw.arc((cx - 0.3 * s, cy - s, cx + 0.3 * s, cy + 0.3 * s), 200, 340, fill=(255, 255, 255),
             width=max(1, int(s * 0.08)))


def _card_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: tuple[int, int, int],
               mark: str = "?") -> None:
    draw.rounded_rectangle((cx - 0.55 * s, cy - 0.8 * s, cx + 0.55 * s, cy + 0.8 * s), int(0.18 * s), fill=colour,
                           outline=INK, width=max(1, int(s * 0.08)))
    draw.text((cx, cy), mark, font=font(max(8, int(s)), "bold"), fill=WHITE, anchor="mm")


def _detective(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """A black figure with a bowler hat and a magnifying glass."""
    body = (28, 28, 32)
    draw.polygon([(cx - 0.55 * s, cy + s), (cx + 0.55 * s, cy + s), (cx + 0.35 * s, cy - 0.1 * s),
                  (cx - 0.35 * s, cy - 0.1 * s)], fill=body)
    draw.ellipse((cx - 0.3 * s, cy - 0.62 * s, cx + 0.3 * s, cy - 0.02 * s), fill=body)
    draw.ellipse((cx - 0.5 * s, cy - 0.66 * s, cx + 0.5 * s, cy - 0.5 * s), fill=body)  # brim
    draw.chord((cx - 0.3 * s, cy - 1.0 * s, cx + 0.3 * s, cy - 0.4 * s), 180, 360, fill=body)  # bowler
    gx, gy, gr = cx + 0.62 * s, cy + 0.05 * s, 0.26 * s
    draw.line((cx + 0.3 * s, cy + 0.45 * s, gx, gy), fill=body, width=max(2, int(s * 0.12)))
    draw.ellipse((gx - gr, gy - gr, gx + gr, gy + gr), fill=(210, 230, 240), outline=body,
                 width=max(2, int(s * 0.1)))


def _watch(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The first-player marker: a pocket watch."""
    w = max(1, int(r * 0.16))
    draw.ellipse((cx - 0.22 * r, cy - 1.32 * r, cx + 0.22 * r, cy - 0.9 * r), outline=GOLD_DARK, width=w)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=GOLD_DARK, width=w)
    draw.ellipse((cx - 0.75 * r, cy - 0.75 * r, cx + 0.75 * r, cy + 0.75 * r), fill=(255, 250, 235))
    draw.line((cx, cy, cx, cy - 0.6 * r), fill=INK, width=w)
    draw.line((cx, cy, cx + 0.42 * r, cy + 0.1 * r), fill=INK, width=w)


def _exchange(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: tuple[int, int, int]) -> None:
    w = max(2, int(s * 0.16))
    draw.arc((cx - 0.7 * s, cy - 0.7 * s, cx + 0.7 * s, cy + 0.7 * s), 200, 340, fill=colour, width=w)
    draw.arc((cx - 0.7 * s, cy - 0.7 * s, cx + 0.7 * s, cy + 0.7 * s), 20, 160, fill=colour, width=w)
    a = 0.32 * s
    for px, py, d in ((cx + 0.66 * s, cy - 0.24 * s, 1), (cx - 0.66 * s, cy + 0.24 * s, -1)):
        draw.polygon([(px - a, py - d * 0.1 * s), (px + a, py - d * 0.1 * s), (px, py + d * a)], fill=colour)


def _clock(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: tuple[int, int, int]) -> None:
    w = max(1, int(r * 0.2))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=w)
    draw.line((cx, cy, cx, cy - 0.65 * r), fill=colour, width=w)
    draw.line((cx, cy, cx + 0.5 * r, cy), fill=colour, width=w)


def _die(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, value: int) -> None:
    draw.rounded_rectangle((x, y, x + s, y + s), int(s * 0.18), fill=WHITE, outline=INK, width=2)
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
            5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    r = s * 0.09
    for gx, gy in pips.get(value, []):
        px = x + s * (0.24 + 0.26 * gx)
        py = y + s * (0.24 + 0.26 * gy)
        draw.ellipse((px - r, py - r, px + r, py + r), fill=INK)


# -- sprites (drawn large once, scaled down for smooth edges, cached) ----------

_SS = 4  # supersampling factor of sprites


def _sprite(size: tuple[int, int], paint: Any) -> Image.Image:
    big = Image.new("RGBA", (size[0] * _SS, size[1] * _SS), (0, 0, 0, 0))
    paint(Draw(big), _SS)
    return big.resize(size, Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def icon(kind: str, size: int) -> Image.Image:
    """A square RGBA icon: ship, train, coin, balloon, event, detective, first_player,
    exchange, clock, travel_card, event_card, gold_chit... (see `_paint_icon`)."""
    return _sprite((size, size), lambda d, k: _paint_icon(d, kind, size * k))


def _paint_icon(d: ImageDraw.ImageDraw, kind: str, n: float) -> None:
    c = n / 2
    if kind == "ship":
        _ship(d, c, c - 0.02 * n, 0.46 * n, NAVY)
    elif kind == "train":
        _train(d, c + 0.02 * n, c - 0.04 * n, 0.44 * n, BROWN)
    elif kind in ("gold", "coin"):
        _coin(d, c, c, 0.42 * n)
    elif kind == "balloon":
        _balloon(d, c, c + 0.02 * n, 0.46 * n, (204, 62, 48))
    elif kind in ("event", "event_card"):
        _card_icon(d, c, c, 0.5 * n, (122, 70, 160), "!")
    elif kind == "travel_card":
        _card_icon(d, c, c, 0.5 * n, (40, 110, 84), "")
        _ship(d, c, c - 0.02 * n, 0.16 * n, WHITE)
    elif kind == "detective":
        _detective(d, c - 0.08 * n, c + 0.04 * n, 0.46 * n)
    elif kind == "first_player":
        _watch(d, c, c + 0.1 * n, 0.36 * n)
    elif kind == "exchange":
        _exchange(d, c, c, 0.55 * n, (40, 120, 90))
    elif kind == "clock":
        _clock(d, c, c, 0.4 * n, INK)
    elif kind == "flag":
        _flag(d, n)


def _flag(d: ImageDraw.ImageDraw, n: float) -> None:
    """A chequered finish flag on its pole, filling an n x n icon."""
    d.line((0.3 * n, 0.1 * n, 0.3 * n, 0.92 * n), fill=INK, width=max(2, int(0.08 * n)))
    for k in range(4):
        for j in range(3):
            colour = INK if (k + j) % 2 == 0 else WHITE
            d.rectangle((0.34 * n + k * 0.13 * n, 0.12 * n + j * 0.13 * n, 0.34 * n + (k + 1) * 0.13 * n,
                         0.12 * n + (j + 1) * 0.13 * n), fill=colour)
    d.rectangle((0.34 * n, 0.12 * n, 0.86 * n, 0.51 * n), outline=INK, width=max(1, int(0.03 * n)))


@lru_cache(maxsize=64)
def _chit_sprite(colour: str, kind: str | None, r: int) -> Image.Image:
    """A bonus chit: red or blue disc with its symbol; `kind` None = taken (faint ring)."""
    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        rr = r * k
        c = rr + k
        fill = CHIT_RED if colour == "red" else CHIT_BLUE
        if kind is None:
            d.ellipse((c - rr, c - rr, c + rr, c + rr), outline=fill + (150,), width=2 * k)
            return
        d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=fill, outline=WHITE, width=2 * k)
        if kind == "gold":
            _coin(d, c, c, rr * 0.62)
        elif kind == "event":
            _card_icon(d, c, c, rr * 0.74, (122, 70, 160), "!")
        elif kind == "travel":
            d.rounded_rectangle((c - 0.42 * rr, c - 0.6 * rr, c + 0.42 * rr, c + 0.6 * rr), int(0.14 * rr), fill=WHITE,
                                outline=INK, width=k)
            _ship(d, c, c - 0.08 * rr, 0.3 * rr, NAVY)
        elif kind == "others_lose_day":
            d.text((c, c + 0.02 * rr), "−1", font=font(int(rr * 1.05), "bold"), fill=WHITE, anchor="mm")
        else:
            d.text((c, c), "?", font=font(int(rr * 1.1), "bold"), fill=WHITE, anchor="mm")
    return _sprite((2 * r + 2, 2 * r + 2), paint)


@lru_cache(maxsize=96)
def _token_sprite(index: int, radius: int, ring: bool = False) -> Image.Image:
    """A player's pawn via `draw_token`, supersampled; `ring` adds a bright halo for the active player."""
    pad = 10
    size = 2 * (radius + pad)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        c = size * k / 2
        if ring:
            rr = (radius + 8) * k
            d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=ROUTE_GLOW + (235,), outline=INK, width=2 * k)
        draw_token(d, (c, c), radius * k, index)
    return _sprite((size, size), paint)


def _paste(canvas: Image.Image, sprite: Image.Image, centre: tuple[float, float],
           boxes: list[tuple[int, int, int, int]] | None = None) -> None:
    """Pastes `sprite` centred on `centre` (and adds where to `boxes`, for the PNG writer)."""
    x = int(round(centre[0] - sprite.width / 2))
    y = int(round(centre[1] - sprite.height / 2))
    canvas.paste(sprite, (x, y), sprite)
    if boxes is not None:
        boxes.append((x, y, x + sprite.width, y + sprite.height))


def _card_label(card: str | None) -> tuple[str, int] | None:
    if not card or ":" not in card:
        return None
    kind, _, days = card.partition(":")
    try:
        return kind, int(days)
    except ValueError:
        return None


@lru_cache(maxsize=128)
def travel_card_sprite(card: str, w: int, h: int, unit: str) -> Image.Image:
    """A travel card face: ship or train, its days in big figures over `unit` (the word for days)."""
    parsed = _card_label(card)
    kind, days = parsed if parsed else ("ship", 0)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        bg = SHIP_BG if kind == "ship" else TRAIN_BG
        ink = NAVY if kind == "ship" else BROWN
        ww, hh = w * k, h * k
        d.rounded_rectangle((k, k, ww - k, hh - k), int(0.12 * w * k), fill=bg, outline=ink, width=3 * k)
        d.rounded_rectangle((5 * k, 5 * k, ww - 5 * k, hh - 5 * k), int(0.1 * w * k), outline=ink + (90,),
                            width=k)
        s = min(w * 0.3, h * 0.2) * k
        if kind == "ship":
            _ship(d, ww / 2, hh * 0.28, s, ink)
        else:
            _train(d, ww / 2 + 0.03 * ww, hh * 0.27, s * 0.95, ink)
        d.text((ww / 2, hh * 0.66), str(days), font=font(int(h * 0.4 * k), "bold"), fill=ink, anchor="mm")
        d.text((ww / 2, hh * 0.88), unit, font=font(int(h * 0.12 * k), "semibold"), fill=ink,
               anchor="mm")
    return _sprite((w, h), paint)


@lru_cache(maxsize=32)
def _badge(options_key: str, unit: str) -> Image.Image:
    """The requirement of one leg: rows of ship/train icons (one row per option) or a day count
    followed by `unit` (the word for days)."""
    options = json.loads(options_key)
    days = options.get("days")
    rows: list[list[str]] = options.get("options") or []
    icon_w, icon_h, gap = 38, 30, 3
    if not rows:
        w, h = int(font(26, "bold").getlength(str(days)) + font(18, "semibold").getlength(unit) + 30), 42
    else:
        w = max(len(r) for r in rows) * (icon_w + gap) + 14
        h = len(rows) * (icon_h + 6) + 10 + 12 * (len(rows) - 1)

    def paint(d: ImageDraw.ImageDraw, k: int) -> None:
        d.rounded_rectangle((k, k, (w - 1) * k, (h - 1) * k), 9 * k, fill=(255, 253, 246), outline=INK, width=2 * k)
        if not rows:
            d.text((12 * k, h * k / 2), f"{days if days is not None else '?'}", font=font(26 * k, "bold"), fill=INK,
                   anchor="lm")
            d.text(((w - 10) * k, h * k / 2 + 2 * k), unit, font=font(18 * k, "semibold"), fill=SOFT, anchor="rm")
            return
        y = 8 * k
        for i, row in enumerate(rows):
            if i:
                d.line((10 * k, y + 3 * k, (w - 10) * k, y + 3 * k), fill=(150, 150, 150), width=2 * k)
                y += 12 * k
            x = (w - len(row) * (icon_w + gap) + gap) / 2 * k
            for kind in row:
                cx, cy = x + icon_w * k / 2, y + icon_h * k / 2
                if kind == "ship":
                    _ship(d, cx, cy, 0.42 * icon_w * k, NAVY)
                else:
                    _train(d, cx + 1.5 * k, cy - 1 * k, 0.4 * icon_w * k, BROWN)
                x += (icon_w + gap) * k
            y += (icon_h + 6) * k
    return _sprite((w, h), paint)



#: the travel cards of the deck (engine data, spelled out: renderers never import the engine)
BOARD_CARDS = tuple(f"train:{v}" for v in (2, 3, 4, 5, 6)) + tuple(f"ship:{v}" for v in (4, 5, 6, 7, 8))
#: icons the board pastes, by size (display actions and supplies 36, panel, track, map)
BOARD_ICONS = (("detective", 56), ("flag", 26), ("flag", 20), ("flag", 30), ("first_player", 40), ("coin", 30),
               ("travel_card", 34), ("event_card", 34), ("travel_card", 36), ("event_card", 36), ("coin", 36),
               ("gold", 36), ("balloon", 36), ("event", 36), ("detective", 36), ("first_player", 36),
               ("exchange", 36))


@lru_cache(maxsize=8)
def board_sprites(unit: str) -> None:
    """Makes every sprite a board may paste (`unit`: the word for days of its language), once
    per language with its static layer: each is drawn 4x and scaled down (2-5 ms), and a few
    first met mid-game were most of the slowest boards (around-the-world p95 28 against p50 21 ms)."""
    for card in BOARD_CARDS:
        travel_card_sprite(card, 92, 128, unit)
        travel_card_sprite(card, 34, 46, unit)
    for kind, size in BOARD_ICONS:
        icon(kind, size)
    for colour in ("red", "blue"):
        for chit in (None, "gold", "event", "travel", "others_lose_day"):
            _chit_sprite(colour, chit, CHIT_R)
    for index in range(6):  # as the board calls them (the cache tells `f(i, r)` from `f(i, r, False)`)
        for radius in (18, 14, 17):
            _token_sprite(index, radius)
        for radius in (18, 14, 16):
            _token_sprite(index, radius, False)
            _token_sprite(index, radius, True)
