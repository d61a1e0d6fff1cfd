"""The rails-and-sails board: the static layer plus claimed routes, harbors, the last move,
the header, the players (or the final scores), the market and the legend."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from PIL import Image, ImageChops, ImageDraw

from render import budget
from render.common import INK, MUTED, Draw, advance, draw_text, draw_token, font, text_length
from render.png import Box, StaticLayer, regions
from render.rails_and_sails import claimed, highlight
from render.rails_and_sails.geometry import (
    COLOUR_ORDER,
    HARBOR_BLUE,
    HEIGHT,
    HIGHLIGHT,
    MAP_TOP,
    PANEL_BG,
    PANEL_H,
    PANEL_TOP,
    ROUTE_COLOURS,
    WIDTH,
    Space,
    geometry,
)
from render.rails_and_sails.sprites import (
    CARD_W,
    _draw_anchor,
    _draw_space,
    _draw_symbol,
    _icon_ship,
    _icon_train,
    _wrap_arrow,
    draw_veil,
    paste_card,
)
from render.rails_and_sails.static import _label_sprites, _palette, _static
from render.rails_and_sails.texts import (
    NAME_IN_LINE_W,
    Labels,
    Translator,
    _fit,
    _fit_name,
    _plural,
    _route_label,
    _t,
    city_labels,
)

T = TypeVar("T")


def _seat_index(view: dict[str, Any]) -> dict[str, int]:
    return {s: i for i, s in enumerate(view.get("seats", []))}



def _draw_harbor(draw: ImageDraw.ImageDraw, x: float, y: float, player: int, highlight: bool) -> None:
    if highlight:
        draw.ellipse((x - 21, y - 21, x + 21, y + 21), fill=HIGHLIGHT, outline=(120, 90, 0), width=2)
    draw.ellipse((x - 15, y - 15, x + 15, y + 15), fill=HARBOR_BLUE, outline=(255, 255, 255), width=3)
    draw_token(draw, (x, y), 10, player)


def _draw_header(board: Image.Image, view: dict[str, Any], names: dict[str, str], t: Translator) -> None:
    draw = Draw(board)
    draw.rectangle((0, 0, WIDTH, MAP_TOP - 1), fill=PANEL_BG)
    idx = _seat_index(view)
    phase = view.get("phase")
    big = font(30, "bold")
    mid = font(24, "semibold")
    x: float = 18
    cy = MAP_TOP / 2
    if view.get("over") or phase == "over":
        text = _t(t, "over")
        draw.text((x, cy), text, font=big, fill=INK, anchor="lm")
        x += advance(big, text) + 24
        result = view.get("result") or {}
        winners = result.get("winners") or []
        if winners:
            who = ", ".join(_fit(names.get(w, w), mid, NAME_IN_LINE_W) for w in winners)
            draw_text(draw, (x, cy), _t(t, "winner", names=who), font=mid, fill=INK, anchor="lm",
                      max_width=WIDTH - 16 - x)
        return
    turn = view.get("turn")
    if turn is not None and phase == "play":
        # a round is a turn of every seat, as the status, summary and timelapse count them
        text = _t(t, "round", round=turn // max(1, len(view.get("seats") or ())) + 1)
        draw.text((x, cy), text, font=mid, fill=MUTED, anchor="lm")
        x += advance(mid, text) + 20
    if phase in ("setup_tickets", "setup_pieces"):
        draw.text((x, cy), _t(t, phase), font=big, fill=INK, anchor="lm")
    else:
        current = view.get("current") or (view.get("to_act") or [None])[0]
        if current is not None:
            draw_token(draw, (x + 16, cy), 16, idx.get(current, 0))
            x += 42
            text = _fit_name(t, "to_play", names.get(current, current), big, 700)
            width = draw_text(draw, (x, cy), text, font=big, fill=INK, anchor="lm")
            if view.get("drawn"):
                draw.text((x + width + 16, cy), _t(t, "second_card"), font=mid, fill=MUTED, anchor="lm")
    final = view.get("final_turns_left")
    if final:
        f = font(24, "bold")
        parts = [f"{_fit(names.get(s, s), f, NAME_IN_LINE_W)} {n}" for s, n in final.items()]
        text = _fit(f"{_t(t, 'final_round')}: " + " · ".join(parts), f, 820)
        w = text_length(text, f)
        x1 = WIDTH - 16
        draw.rounded_rectangle((x1 - w - 28, 10, x1, MAP_TOP - 10), radius=10, fill=(200, 40, 30))
        draw_text(draw, (x1 - 14, cy), text, font=f, fill=(255, 255, 255), anchor="rm")


def _count_text(t: Translator, key: str, n: Any, /, **fields: Any) -> str:
    """A counted text: singular or plural by the language's rule, the plural for a missing count."""
    if isinstance(n, int) and not isinstance(n, bool):
        return _plural(t, key, n, n=n, **fields)
    return _t(t, f"{key}.other", n=n, **fields)


def _last_text(view: dict[str, Any], names: dict[str, str], t: Translator, cities: dict[str, str]) -> str | None:
    """One line about the last move (the engine's public `last`)."""
    last = view.get("last")
    if not last:
        return None
    seat = last.get("seat")
    name = _fit(names.get(seat, seat or "?"), font(22, "semibold"), NAME_IN_LINE_W)
    kind = last.get("type", "")
    if kind == "claim" and last.get("route"):
        text = _t(t, "last.claim", name=name, route=_route_label(last["route"], cities))
        points = last.get("points")
        return f"{text}  +{points}" if isinstance(points, int) else text
    if kind == "harbor" and last.get("city"):
        return _t(t, "last.harbor", name=name, city=cities.get(last["city"], last["city"]))
    if kind == "draw":
        return _t(t, "last.draw", name=name)
    if kind in ("tickets", "keep_tickets"):
        return _count_text(t, "last.tickets", last.get("count", "?"), name=name)
    if kind == "exchange":
        n = last.get("trains", 0)
        return _count_text(t, "last.exchange", abs(n) if isinstance(n, int) else n, name=name,
                  what=_t(t, "trains" if isinstance(n, int) and n > 0 else "ships"))
    if kind == "choose_mix":
        return _t(t, "last.mix", name=name)
    if kind == "pass":
        return _t(t, "last.pass", name=name)
    return _t(t, "last.other_move", name=name, type=kind.replace("_", " "))


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


def _draw_final(board: Image.Image, view: dict[str, Any], names: dict[str, str], t: Translator) -> None:
    """The final table: rank, total and where the points came from."""
    draw = Draw(board)
    ranking = (view.get("result") or {}).get("ranking") or []
    idx = _seat_index(view)
    top = PANEL_TOP + 10
    head = font(19, "semibold")
    body = font(24, "regular")
    bold = font(24, "bold")
    cols = {"total": 380, "routes": 480, "tickets": 580, "harbors": 680, "completed": 790}
    for key, x in cols.items():
        draw.text((x, top + 12), _t(t, "final." + key), font=head, fill=MUTED, anchor="mm")
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


#: the players' table: where each column's centre is (the harbors' head says "harbors left" and
#: is the longest, so its neighbours stand a little further off)
_PLAYER_COLS = {"score": 360, "trains": 445, "ships": 530, "harbors": 640, "cards": 738, "tickets": 812}
_PLAYER_HEADS = ("score", "trains", "ships", "harbors", "cards", "tickets")


def _draw_player_heads(board: Image.Image, words: tuple[str, ...]) -> None:
    """The players' column heads with small icons (`words`: `_PLAYER_HEADS` translated)."""
    draw = Draw(board)
    top = PANEL_TOP + 10
    head = font(19, "semibold")
    cols = _PLAYER_COLS
    score, trains, ships, harbors, cards, tickets = words
    draw.text((cols["score"], top + 12), score, font=head, fill=MUTED, anchor="mm")
    _icon_train(draw, cols["trains"], top + 4, MUTED)
    draw.text((cols["trains"], top + 22), trains, font=head, fill=MUTED, anchor="mm")
    _icon_ship(draw, cols["ships"], top + 4, MUTED)
    draw.text((cols["ships"], top + 22), ships, font=head, fill=MUTED, anchor="mm")
    draw.text((cols["harbors"], top + 22), harbors, font=head, fill=MUTED, anchor="mm")
    _draw_anchor(draw, cols["harbors"], top + 3, 8, (255, 255, 255))
    draw.text((cols["cards"], top + 12), cards, font=head, fill=MUTED, anchor="mm")
    draw.text((cols["tickets"], top + 12), tickets, font=head, fill=MUTED, anchor="mm")


def _draw_players(board: Image.Image, base: Image.Image, view: dict[str, Any], names: dict[str, str],
                  t: Translator) -> None:
    draw = Draw(board)
    seats = view.get("seats", [])
    top = PANEL_TOP + 10
    head = font(19, "semibold")
    body = font(24, "regular")
    bold = font(24, "bold")
    cols = _PLAYER_COLS
    _paste_fixed(board, base, _draw_player_heads, tuple(_t(t, key) for key in _PLAYER_HEADS))
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
                label = _t(t, "chosen") if chosen.get(seat) else _t(t, "choosing")
            else:
                label = _t(t, "secret")
            draw.text(((cols["trains"] + cols["ships"]) / 2, y), label, font=head, fill=MUTED, anchor="mm")
        else:
            draw.text((cols["trains"], y), str(p.get("trains", 0)), font=body, fill=INK, anchor="mm")
            draw.text((cols["ships"], y), str(p.get("ships", 0)), font=body, fill=INK, anchor="mm")
        for key, col in (("harbors_left", "harbors"), ("hand_sizes", "cards"), ("ticket_counts", "tickets")):
            value = (view.get(key) or {}).get(seat)
            draw.text((cols[col], y), "–" if value is None else str(value), font=body, fill=INK, anchor="mm")




_MARKET_X = 900
#: the market's deck rows, beside the face-up cards
_DECKS_X = _MARKET_X + 6 * (CARD_W + 10) + 30
_MARKET_WORDS = ("face_up", "train_deck", "ship_deck", "ticket_deck")


def _draw_market_words(board: Image.Image, words: tuple[str, ...]) -> None:
    """The market's heading and its decks' icons and names (`words`: `_MARKET_WORDS`
    translated): a deck row's count and discards are drawn after, as they change."""
    draw = Draw(board)
    top = PANEL_TOP + 10
    draw.text((_MARKET_X, top + 12), words[0], font=font(19, "semibold"), fill=MUTED, anchor="lm")
    body = font(22, "regular")
    dx = _DECKS_X
    for i, (kind, label) in enumerate(zip(("train", "ship", "tickets"), words[1:], strict=True)):
        y = top + 40 + i * 42
        if kind == "train":
            _icon_train(draw, dx + 12, y, INK)
        elif kind == "ship":
            _icon_ship(draw, dx + 12, y, INK)
        else:
            draw.rectangle((dx + 2, y - 9, dx + 22, y + 9), fill=(245, 240, 220), outline=INK, width=2)
        draw.text((dx + 34, y), _fit(label, body, 150), font=body, fill=INK, anchor="lm")


def _draw_market(board: Image.Image, base: Image.Image, view: dict[str, Any], t: Translator) -> None:
    draw = Draw(board)
    top = PANEL_TOP + 10
    _paste_fixed(board, base, _draw_market_words, tuple(_t(t, key) for key in _MARKET_WORDS))
    face_up = list(view.get("face_up") or [])
    for k in range(6):
        card = face_up[k] if k < len(face_up) else None
        cx = _MARKET_X + k * (CARD_W + 10)
        paste_card(board, cx, top + 30, card, t)
    decks = view.get("decks") or {}
    bold = font(26, "bold")
    dx = _DECKS_X
    rows = [
        (decks.get("train"), decks.get("train_discard")),
        (decks.get("ship"), decks.get("ship_discard")),
        (decks.get("tickets"), None),
    ]
    for i, (n, discard) in enumerate(rows):
        y = top + 40 + i * 42
        draw.text((dx + 222, y), "–" if n is None else str(n), font=bold, fill=INK, anchor="rm")
        if discard is not None:
            draw.text((dx + 230, y), f"+{discard} {_t(t, 'discard')}", font=font(17), fill=MUTED, anchor="lm")


Piece = tuple[int, int, Image.Image]
#: what `_kept_for` keeps, by the identity of what it was made from and a key
Kept = dict[tuple[int, Hashable], tuple[object, T]]


def _kept_for(store: Kept[T], owner: object, key: Hashable, make: Callable[[], T], limit: int) -> T:
    """`make()`, kept in `store` for `owner` and `key`. `owner` (a base image, a translator)
    is keyed by identity, as comparing it is slow or meaningless, and held in the entry so
    that its id is not reused while the entry stands; the store is cleared when it holds
    `limit` entries (a few per language and base are in use at a time)."""
    found = store.get((id(owner), key))
    if found is None or found[0] is not owner:
        if len(store) >= limit:
            store.clear()
        found = store[id(owner), key] = (owner, make())
    return found[1]


#: (base, what is drawn and its words) -> the piece drawn (None if it changed nothing)
_FIXED: Kept[Piece | None] = {}


def _paste_fixed(board: Image.Image, base: Image.Image, drawing: Callable[[Image.Image, tuple[str, ...]], None],
                 words: tuple[str, ...]) -> None:
    """`drawing(board, words)` for the panel's fixed words (column heads, deck names): the same
    every turn of a language, so drawn once on the base and the rectangle they changed kept,
    then pasted (opaque). The same pixels as drawing them, as nothing is under them but the
    base when they are drawn: the map ends above the panel, and the panel's other things are
    drawn beside them or after them."""

    def make() -> Piece | None:
        drawn = base.copy()
        drawing(drawn, words)
        box = ImageChops.difference(drawn, base).getbbox()
        return (box[0], box[1], drawn.crop(box)) if box else None

    piece = _kept_for(_FIXED, base, (drawing, words), make, 64)
    if piece is not None:
        board.paste(piece[2], piece[:2])


#: the legend's marks, in their order (each has an icon below and a word in `img.legend`)
LEGEND_MARKS = ("train", "ship", "rough", "harbor_city", "harbor", "wrap", "closed")


def _draw_legend(board: Image.Image, t: Translator) -> int:
    """Short rows under the last move: what the marks mean, and each colour's shape.
    Returns how many items did not fit (0 when the legend is complete)."""
    draw = Draw(board)
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
        elif key == "closed":
            space = Space(cx, cy, 0.0, 22, False)
            _draw_space(draw, space, "train", "grey", 0, 1.0, symbol=False)
            draw_veil(draw, space, "train", (235, 232, 225))
        elif key in ROUTE_COLOURS:
            draw.rounded_rectangle((cx - 11, cy - 9, cx + 11, cy + 9), radius=3, fill=ROUTE_COLOURS[key],
                                   outline=(40, 40, 40), width=1)
            _draw_symbol(draw, cx, cy, key, 5)

    items = [(k, _t(t, "legend." + k)) for k in LEGEND_MARKS]
    items += [(c, _t(t, "colour." + c)) for c in COLOUR_ORDER]
    for n, (key, label) in enumerate(items):
        w = 30 + advance(f, label)
        if x + w > x1:
            x, y = x0, y + 28
            if y > HEIGHT - 10:
                return len(items) - n
        icon(key, x + 12, y)
        draw.text((x + 30, y), label, font=f, fill=MUTED, anchor="lm")
        x += w + 13
    return 0


def _around(points: list[tuple[float, float]], pad: float) -> Box:
    """The box around `points`, `pad` pixels wider on every side (for outlines)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return int(min(xs) - pad), int(min(ys) - pad), int(max(xs) + pad) + 1, int(max(ys) + pad) + 1


def _draw_last_move(board: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], text: str,
                    t: Translator) -> None:
    """The last move's box above the players: its text, then the cards it showed."""
    f = font(22, "semibold")
    label = f"{_t(t, 'last_move')}: {text}"
    x0, x1 = 900, WIDTH - 14
    y0 = PANEL_TOP + 176
    draw.rounded_rectangle((x0, y0, x1, y0 + 40), radius=8, fill=(255, 236, 170), outline=(200, 160, 40),
                           width=2)
    shown = _fit(label, f, x1 - x0 - 28)
    cx = x0 + 14 + draw_text(draw, (x0 + 14, y0 + 20), shown, font=f, fill=INK, anchor="lm") + 12
    for card in _last_cards(view):
        if card.startswith("back:"):
            paste_card(board, cx, y0 + 4, card[5:], t, 24, 32, back=True)
        else:
            paste_card(board, cx, y0 + 4, card, t, 24, 32)
        cx += 30


def render_board(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 events: list[dict[str, Any]] | None = None, lang: str | None = None) -> bytes:
    """The public board: map, claimed routes, harbors, last move, scores, cards, decks. Every
    word comes from `translator` (the game's catalog in the image's language); `lang` is
    accepted for compatibility and ignored."""
    del lang
    image, layer, boxes = board_layers(view, names=names, translator=translator, whole=False)
    return layer.encode(image, boxes)


def board_image(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                events: list[dict[str, Any]] | None = None, lang: str | None = None) -> Image.Image:
    """The board as a Pillow image (RGB). `events` is accepted for the renderer contract but
    not needed: the view's own `last` says what to highlight."""
    del events, lang
    return board_layers(view, names=names, translator=translator)[0]


def map_image(view: dict[str, Any], *, names: dict[str, str], translator: Translator) -> Image.Image:
    """The board with its map drawn and the header and panels left as the static layer has
    them: the part the focus view crops and shrinks. Inside the map it is the board, pixel
    for pixel."""
    return board_layers(view, names=names, translator=translator, map_only=True)[0]


def _panel_bottom(view: dict[str, Any]) -> int:
    """Where a turn's drawing in the panel ends: under the last move's box (the lowest of the
    market's side), or under the last row of players (or of the final table). Below it the
    legend, drawn once with the static layer, stays as it is."""
    rows = len((view.get("result") or {}).get("ranking") or []) if view.get("over") else 0
    n = max(1, rows or len(view.get("seats", [])))
    row_h = min(40, (PANEL_H - 50) / n)
    return min(HEIGHT, max(PANEL_TOP + 220, math.ceil(PANEL_TOP + 54 + row_h * n) + 4))


#: per thread, the image a board is drawn on when only its PNG is wanted (see `_canvas`)
_canvases = threading.local()


def _forget_drawn() -> None:
    """What boards left behind in this thread and for the bases: the canvas, the parts cut
    from a base, the fixed words drawn (made again by the next board, a few ms)."""
    _canvases.board = None
    _PARTS.clear()
    _FIXED.clear()


budget.emptied_by("kept.rails-and-sails", _forget_drawn)


def _canvas(base: Image.Image, mapped: list[Box]) -> Image.Image:
    """An image the board's size that is `base` inside the rectangles `mapped` (the PNG reads
    the board only there, `render.png.regions`), to draw a board on: elsewhere it holds what
    the thread's earlier boards left, which no PNG reads. One per thread, reused: a fresh copy
    of the whole base (6 MB, new memory every turn) was a twentieth of a board, restoring
    the rectangles a quarter of that."""
    board: Image.Image | None = getattr(_canvases, "board", None)
    if board is None or board.size != base.size or board.mode != base.mode:
        board = _canvases.board = base.copy()
        return board
    for region in mapped:
        board.paste(_base_part(base, region), region[:2])
    return board


#: (base, a rectangle) -> the base's pixels there; see `_base_part`
_PARTS: Kept[Image.Image] = {}


def _base_part(base: Image.Image, region: Box) -> Image.Image:
    """`base.crop(region)`, kept: a board's rectangles are mostly the same ones (the header,
    the panel, a city's harbor, a route's frames), and cutting them anew was a twentieth of
    a board. Bounded (about 2 MB for the header and panel of a base, little for the rest)."""
    return _kept_for(_PARTS, base, region, lambda: base.crop(region), 1024)


def board_layers(view: dict[str, Any], *, names: dict[str, str], translator: Translator,
                 whole: bool = True, map_only: bool = False) -> tuple[Image.Image, StaticLayer, list[Box]]:
    """The board, the layer it starts from (the static layer with this game's claimed routes,
    `render.rails_and_sails.claimed`), and the boxes it drew in beyond that layer: the header,
    the panels, and on the map the highlight and the harbors. Outside them the board is the
    layer exactly, which `render.png` relies on. Without `whole`, only the rectangles the PNG
    maps (`render.png.regions` of the boxes) are sure: the routes are pasted only there, the
    city names only where they share rows with a box. The PNG takes the rest from the layer;
    the image is then the thread's canvas (`_canvas`), good until the thread's next board.
    With `map_only`, the header and the panels are left as the static layer has them (see
    `map_image`)."""
    t = translator
    labels, legend = _words(t)
    base, base_layer = _base(labels, legend)
    boxes: list[Box] = [(0, 0, WIDTH, MAP_TOP + 4), (0, PANEL_TOP - 4, WIDTH, _panel_bottom(view))]
    geom = geometry()
    idx = _seat_index(view)
    last = view.get("last") or {}
    label_sprites = _label_sprites(labels)
    drawn = claimed.items(view.get("claimed") or {}, idx, len(view.get("seats", [])) <= 3)
    # the layer object names its words: hashing and comparing them for every kept layer was slow
    kept, drawn_whole = claimed.layer(base_layer, base, base_layer, drawn, label_sprites)
    route = last.get("route") if last.get("type") == "claim" else None
    route = route if isinstance(route, str) else ""
    outlines = highlight.outlines(route) if route else ()
    boxes += [_around(poly, 4) for poly in outlines[1::2]]
    last_city = last.get("city") if last.get("type") in ("harbor", "build_harbor") else None
    harbors = [(geom.nodes[city_id], seat, city_id == last_city)
               for city_id, seat in sorted((view.get("harbors") or {}).items()) if city_id in geom.nodes]
    boxes += [_around([xy], 23) for xy, _seat, _last in harbors]
    if drawn_whole is not None:  # a new picture with every route: the board starts from it
        board = drawn_whole
    elif whole:
        board = base.copy()
        claimed.draw_items(board, drawn)
    else:  # the routes only where the PNG takes the board's pixels (see `claimed`)
        mapped = regions(boxes, WIDTH, HEIGHT)
        board = _canvas(base, mapped)
        claimed.paste_into(board, mapped, drawn)
    if outlines:  # the frames' pieces: the pixels drawing them gives, pasted (`highlight`)
        highlight.paste(board, route)
    draw = Draw(board)
    for (x, y), seat, lit in harbors:
        _draw_harbor(draw, x, y, idx.get(seat, 0), lit)
    for x, y, sprite in label_sprites:  # `render.png` maps boxes sharing rows as one: rows decide
        if whole or any(y < bottom and top < y + sprite.height for _l, top, _r, bottom in boxes):
            board.paste(sprite, (x, y), sprite)
    if map_only:
        return board, kept.layer, boxes
    _draw_header(board, view, names, t)
    text = _last_text(view, names, t, dict(labels))
    if text:
        _draw_last_move(board, draw, view, text, t)
    if view.get("over") and (view.get("result") or {}).get("ranking"):
        _draw_final(board, view, names, t)
    else:
        _draw_players(board, base, view, names, t)
    _draw_market(board, base, view, t)
    return board, kept.layer, boxes


_LEGEND_KEYS = tuple(f"img.legend.{k}" for k in LEGEND_MARKS) + tuple(
    f"img.colour.{c}" for c in COLOUR_ORDER)


def _legend_texts(t: Translator) -> tuple[tuple[str, str], ...]:
    """The legend's words in the image's language (they key its cached drawing)."""
    return tuple((key, t(key)) for key in _LEGEND_KEYS)


#: translator -> its city names and legend words; see `_words`
_WORDS: Kept[tuple[Labels, tuple[tuple[str, str], ...]]] = {}


def _words(t: Translator) -> tuple[Labels, tuple[tuple[str, str], ...]]:
    """The city names and legend words of `t` (`city_labels`, `_legend_texts`), kept per
    translator: a render worker draws with one per language (`bot.render_pool.draw`), and
    looking the 60-odd words up was a fiftieth of a board. Translators made per board (tests,
    in-process callers) only fill the store until it is cleared."""
    return _kept_for(_WORDS, t, None, lambda: (city_labels(t), _legend_texts(t)), 32)


class _Words:
    """A translator over fixed words, to draw the cached legend without the real one."""

    def __init__(self, words: tuple[tuple[str, str], ...]) -> None:
        self.words = dict(words)

    def __call__(self, key: str, /, **params: Any) -> str:
        return self.words[key]

    def plural(self, key: str, count: int, /, **params: Any) -> str:
        return self.words[key]


@budget.memoized("layers")
def _base(labels: Labels, legend: tuple[tuple[str, str], ...]) -> tuple[Image.Image, StaticLayer]:
    """What every board of a language starts from, and what it is outside the boxes a turn
    draws in, mapped onto the palette once: the static layer with the legend (its words do
    not change during a game, and nothing else is drawn where it stands), and the latter
    with the city names pasted a second time, as every board pastes them again over the
    claimed routes."""
    board = _static(labels).copy()
    _draw_legend(board, _Words(legend))
    final = board.copy()
    for x, y, sprite in _label_sprites(labels):
        final.paste(sprite, (x, y), sprite)
    return board, StaticLayer(final, _palette())


