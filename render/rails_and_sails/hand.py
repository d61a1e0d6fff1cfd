"""One seat's hand: pieces and harbors left, train and ship cards, tickets with their status."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, Draw, advance, draw_text, draw_token, encode_png, font
from render.rails_and_sails.board import _seat_index
from render.rails_and_sails.geometry import COLOUR_ORDER, HARBOR_BLUE, PANEL_BG
from render.rails_and_sails.sprites import _draw_anchor, _icon_ship, _icon_train, draw_card
from render.rails_and_sails.texts import Translator, _fit, _fit_name, _t, city_labels

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
                      t: Translator, with_status: bool, cities: dict[str, str]) -> float:
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
            label = _t(t, key)
            if status in ("done", "order"):
                label = "✓ " + label
            bw = advance(small, label) + 18
            draw.rounded_rectangle((tx, y + 8, tx + bw, y + row_h - 14), radius=10, fill=colour)
            draw.text((tx + bw / 2, y + (row_h - 6) / 2), label, font=small, fill=(255, 255, 255), anchor="mm")
            tx += bw + 12
        vw = advance(bold, value)
        if is_route:
            tag = _t(t, "route_ticket")
            draw.text((x + width - 14 - vw - 12, y + (row_h - 6) / 2), tag, font=small, fill=MUTED, anchor="rm")
            vw += advance(small, tag) + 12
        room = x + width - 14 - vw - 16 - tx
        draw.text((tx, y + (row_h - 6) / 2), _fit(names, body, room), font=body, fill=INK, anchor="lm")
        draw.text((x + width - 14, y + (row_h - 6) / 2), value, font=bold, fill=INK, anchor="rm")
        y += row_h
    return y


def _draw_card_group(img: Image.Image, cards: list[str], x0: float, y: float, t: Translator) -> float:
    """Cards of one deck, one tile per distinct card with its count, grouped by colour."""
    draw = Draw(img)
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
        draw_card(img, x, y, card, t, HAND_CARD_W, HAND_CARD_H)
        draw.text((x + HAND_CARD_W / 2, y + HAND_CARD_H + 18), f"×{counts[card]}", font=count_font, fill=INK,
                  anchor="mm")
        x += HAND_CARD_W + 8
        prev_colour = colour
    return y + HAND_CARD_H + 40


def hand_image(view: dict[str, Any], seat: str, *, names: dict[str, str], translator: Translator,
               lang: str | None = None) -> Image.Image:
    """One seat's hand as a Pillow image (see `render_hand`)."""
    # long: one pass over the image, top to bottom: splitting it would scatter the running y offset
    del lang
    t = translator
    cities = dict(city_labels(t))
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
    draw = Draw(img)
    idx = _seat_index(view).get(seat, 0)
    draw_token(draw, (34, 40), 18, idx)
    title = font(32, "bold")
    draw_text(draw, (64, 40), _fit_name(t, "hand", names.get(seat, seat), title, 560), font=title, fill=INK,
              anchor="lm")
    # pieces and harbors left, top right
    pieces = (view.get("pieces") or {}).get(seat) or private.get("mix") or {}
    body = font(24, "semibold")
    small = font(18, "regular")
    x: float = HAND_W - 20
    harbors_left = (view.get("harbors_left") or {}).get(seat)
    def shown(value: Any) -> str:
        return "–" if value is None else str(value)

    items = [("harbor", shown(harbors_left), _t(t, "harbors_left")),
             ("ship", shown(pieces.get("ships")), _t(t, "ships")),
             ("train", shown(pieces.get("trains")), _t(t, "trains"))]
    for kind, value, label in items:
        w = max(advance(body, value) + 34, advance(small, label))
        cx = x - w / 2
        if kind == "train":
            _icon_train(draw, cx - advance(body, value) / 2 - 4, 30, INK)
        elif kind == "ship":
            _icon_ship(draw, cx - advance(body, value) / 2 - 4, 30, INK)
        else:
            _draw_anchor(draw, cx - advance(body, value) / 2 - 4, 30, 11, (255, 255, 255))
        draw.text((cx + 12, 30), value, font=body, fill=INK, anchor="mm")
        draw.text((cx, 60), label, font=small, fill=MUTED, anchor="mm")
        x -= w + 26
    box = (view.get("box") or {}).get(seat)
    if isinstance(box, dict) and box.get("trains") is not None:
        trains_box, ships_box = box.get("trains"), box.get("ships")
        text = _t(t, "in_box", t=trains_box, s=ships_box)
        draw.text((HAND_W - 20, 96), text, font=small, fill=MUTED, anchor="rt")
    draw.line((20, 82, HAND_W - 20, 82), fill=(200, 190, 170), width=2)
    head = font(24, "bold")
    y: float = 96
    for label, cards in ((_t(t, "train_cards"), trains), (_t(t, "ship_cards"), ships)):
        draw.text((20, y), f"{label} ({len(cards)})", font=head, fill=INK, anchor="lt")
        y += 38
        if cards:
            y = _draw_card_group(img, cards, 20, y, t) + 10
        else:
            draw.text((20, y + 10), _t(t, "no_cards"), font=body, fill=MUTED, anchor="lt")
            y += HAND_CARD_H + 44
    if pending:
        draw.text((20, y), _t(t, "pending"), font=head, fill=(200, 40, 30), anchor="lt")
        y = _draw_ticket_rows(draw, pending, 20, y + 40, HAND_W - 40, t, with_status=False, cities=cities) + 14
    draw.text((20, y), f"{_t(t, 'your_tickets')} ({len(tickets)})", font=head, fill=INK, anchor="lt")
    y += 40
    if tickets:
        _draw_ticket_rows(draw, tickets, 20, y, HAND_W - 40, t, with_status=True, cities=cities)
    else:
        draw.text((20, y + 6), _t(t, "no_tickets"), font=body, fill=MUTED, anchor="lt")
    return img


def render_hand(view: dict[str, Any], seat: str, *, names: dict[str, str], translator: Translator,
                lang: str | None = None) -> bytes:
    """One player's hand from that seat's own view: cards by colour with counts, tickets
    with their status, pieces and harbors left (`translator`, `lang`: see `render_board`)."""
    del lang
    return encode_png(hand_image(view, seat, names=names, translator=translator))
