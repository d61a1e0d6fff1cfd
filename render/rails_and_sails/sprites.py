"""Drawing primitives of the rails-and-sails images (each takes a scale, so the same code
draws the supersampled static layer and the per-turn sprites), the cached sprites of claimed
and blocked routes, and the train and ship cards."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render.common import INK, Draw, font, player_style
from render.packed import Sprites
from render.rails_and_sails.geometry import (
    COLOUR_ORDER,
    HARBOR_BLUE,
    MAX_SPACE,
    ROUTE_COLOURS,
    SS,
    SYMBOL_INK,
    SYMBOLS,
    TRAIN_W,
    WIDTH,
    Space,
    _shifts,
    _space_outline,
    geometry,
)
from render.rails_and_sails.texts import Translator, _t


# ---------------------------------------------------------------------------
# Primitives (all take a scale so the same code draws supersampled and 1:1)
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# Per-turn drawing: claimed routes (cached sprites), harbors, highlight, panels
# ---------------------------------------------------------------------------
#: (route, player) -> its claimed sprite (deflated: `render.packed`)
_SPRITES: Sprites[tuple[str, int]] = Sprites("rails.claimed")


#: width of the bar joining a claimed route's spaces: a claimed route is one unbroken chain, an
#: unclaimed one a row of separate spaces, whatever the colours (the bluish-green player's routes
#: read as unclaimed green ones, the orange player's as yellow ones, when both were separate spaces)
LINK_W = 5.0


def _links(spaces: list[Space], dx: float, dy: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The bars between consecutive spaces of a route, in supersampled sprite coordinates
    (`dx`, `dy` move map coordinates onto the sprite); none across the map's edge."""
    out = []
    for a, b in zip(spaces, spaces[1:], strict=False):
        if math.hypot(b.x - a.x, b.y - a.y) <= 2 * MAX_SPACE:
            out.append((((a.x + dx) * SS, (a.y + dy) * SS), ((b.x + dx) * SS, (b.y + dy) * SS)))
    return out


def _claimed_sprite(route_id: str, player: int) -> list[tuple[int, int, Image.Image]]:
    """The route's spaces in the player's colour with the player's letter, as RGBA pieces
    (one per side of the map for routes that wrap). Kept: 130 routes x 5 players at most."""
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
        draw = Draw(big)
        links = _links(g.spaces, shift - x0, -y0)
        for a, b in links:
            draw.line((a, b), fill=(20, 20, 20, 255), width=round((LINK_W + 4.4) * SS))
        for sp in g.spaces:
            local = Space(sp.x + shift - x0, sp.y - y0, sp.angle, sp.length, sp.rough)
            poly = _space_outline(local, g.kind, 0, SS, widen=2.2)
            draw.polygon(poly, fill=(20, 20, 20, 255))
            poly = _space_outline(local, g.kind, 0, SS, widen=-0.3)
            draw.polygon(poly, fill=colour + (255,), outline=(255, 255, 255, 255), width=round(1.2 * SS))
            if sp.rough:
                _draw_rough_mark(draw, local, 0, SS)
        for a, b in links:
            draw.line((a, b), fill=colour + (255,), width=round(LINK_W * SS))
        img = big.resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
        d1 = Draw(img)
        f = font(14, "bold")
        for sp in g.spaces:
            cx, cy = sp.x + shift - x0, sp.y - y0
            d1.text((cx, cy), letter, font=f, fill=(255, 255, 255, 255), anchor="mm", stroke_width=2,
                    stroke_fill=(20, 20, 20, 255))
        pieces.append((x0, y0, img))
    return _SPRITES.put(key, pieces)


#: route -> the veil over it as a blocked twin (deflated: `render.packed`)
_BLOCKED: Sprites[str] = Sprites("rails.blocked")


def draw_veil(draw: ImageDraw.ImageDraw, sp: Space, kind: str, fill: tuple[int, ...]) -> None:
    """One space of a closed twin route: veiled and crossed out (the map and its legend)."""
    draw.polygon(_space_outline(sp, kind, 0, 1.0, widen=1.0), fill=fill)
    d = min(sp.length, TRAIN_W) / 2 - 1
    cx, cy = sp.x, sp.y
    draw.line((cx - d, cy - d, cx + d, cy + d), fill=(90, 90, 90, 255), width=2)
    draw.line((cx - d, cy + d, cx + d, cy - d), fill=(90, 90, 90, 255), width=2)


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
        draw = Draw(img)
        for sp in g.spaces:
            local = Space(sp.x + shift - x0, sp.y - y0, sp.angle, sp.length, sp.rough)
            draw_veil(draw, local, g.kind, (235, 232, 225, 215))
        pieces.append((x0, y0, img))
    return _BLOCKED.put(route_id, pieces)


def _draw_card_back(img: Image.Image, x: float, y: float, kind: str, w: int, h: int) -> None:
    draw = Draw(img)
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


CARD_W, CARD_H = 76, 104


def draw_card(img: Image.Image, x: float, y: float, card: str | None, t: Translator, w: int = CARD_W,
              h: int = CARD_H) -> None:
    """One transport card: its colour, its shape cue, a train or ship icon, the harbor
    symbol where it has one, ×2 on double ships, WILD on wilds."""
    draw = Draw(img)
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
        draw.text((x + w / 2, y + h / 2), _t(t, "wild"), font=f, fill=(255, 255, 255), anchor="mm",
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


def paste_card(img: Image.Image, x: float, y: float, card: str | None, t: Translator, w: int = CARD_W,
               h: int = CARD_H, back: bool = False) -> None:
    """`draw_card` (or `_draw_card_back` with `back`, `card` then the deck's kind) from a sprite
    drawn once per card, size and wording: the market and the last move show the same few
    cards turn after turn. Every pixel a card draws is opaque but its texts, which lie on the
    card's own fill, so the sprite pasted through its alpha gives the very pixels drawing
    gives (`tests/test_rails_render.py`). Where `x` or `y` is not whole, drawn as before."""
    if x != int(x) or y != int(y):
        if back:
            _draw_card_back(img, x, y, card or "train", w, h)
        else:
            draw_card(img, x, y, card, t, w, h)
        return
    wording = _t(t, "wild") if card and card.endswith("wild") else ""
    key = (card, w, h, back, wording)
    sprite = _CARD_SPRITES.get(key)
    if sprite is None:
        sprite = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
        if back:
            _draw_card_back(sprite, 0, 0, card or "train", w, h)
        else:
            draw_card(sprite, 0, 0, card, t, w, h)
        _CARD_SPRITES[key] = sprite
    img.paste(sprite, (int(x), int(y)), sprite)


#: (card, width, height, a back?, the wild's word) -> the card drawn on a transparent image
_CARD_SPRITES: dict[tuple[str | None, int, int, bool, str], Image.Image] = {}
