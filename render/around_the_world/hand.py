"""One seat's hand: travel cards grouped by kind and days, the next leg, the event cards."""

from __future__ import annotations

from PIL import Image

from render.around_the_world.board import _int, _name, _seat_index
from render.around_the_world.geometry import (
    GOLD_DARK,
    HAND_W,
    HEADER_BG,
    HILITE,
    LOCATIONS,
    SOFT,
    WHITE,
    _leg_key,
    _legs_of,
)
from render.around_the_world.sprites import _badge, _card_label, _paste, _token_sprite, icon, travel_card_sprite
from render.around_the_world.texts import Translator, _fit, _plural, _t, city_name, event_card_text
from render.common import INK, PAPER, Draw, advance, draw_text, fit_text, font, text_length


def _travel_groups(cards: list[str]) -> list[tuple[str, int, int]]:
    """(kind, days, count) sorted ships first, then by days."""
    counts: dict[tuple[str, int], int] = {}
    for card in cards:
        parsed = _card_label(card)
        if parsed:
            counts[parsed] = counts.get(parsed, 0) + 1
    return sorted(((k, dd, n) for (k, dd), n in counts.items()), key=lambda g: (g[0] != "ship", g[1]))


FAN = 30  # offset between identical cards fanned together


def _hand_layout(groups: list[tuple[str, int, int]], card_w: int, width: int) -> list[tuple[int, int]]:
    """(column x, row) of each group: left to right, a gap between ships and trains, wrapping."""
    out: list[tuple[int, int]] = []
    x, row = 24, 0
    prev_kind = None
    for kind, _days, n in groups:
        w = card_w + (min(n, 3) - 1) * FAN
        if prev_kind is not None and kind != prev_kind:
            x += 30
        if x + w > width - 24 and x > 24:
            x, row = 24, row + 1
        out.append((x, row))
        x += w + 34
        prev_kind = kind
    return out


def hand_image(view: dict, seat: str, *, names: dict[str, str], translator: Translator,
               lang: str | None = None) -> Image.Image:
    """One seat's hand (see `render_hand`; `lang` is ignored: the translator knows)."""
    # long: one pass over the image, top to bottom: splitting it would scatter the running y offset
    del lang
    t = translator
    seat_private = view.get("private")
    private = seat_private if isinstance(seat_private, dict) else {}
    travel = [c for c in private.get("travel") or [] if isinstance(c, str)]
    events = [c for c in private.get("events") or [] if isinstance(c, str)]
    groups = _travel_groups(travel)
    card_w, card_h = 116, 162
    row_h = card_h + 58
    places = _hand_layout(groups, card_w, HAND_W)
    rows = max(1, (places[-1][1] + 1) if places else 1)
    ev_rows = max(1, len(events))
    locations = [loc for loc in (view.get("locations") or LOCATIONS) if isinstance(loc, str)] or LOCATIONS
    pos = _int((view.get("positions") or {}).get(seat))
    arrived = (view.get("arrived") or {}).get(seat) is True
    here = locations[pos] if 0 <= pos < len(locations) else None
    leg = None if arrived else next((lg for lg in _legs_of(view) if lg.get("from") == here), None)
    leg_h = _badge(_leg_key(leg), _t(t, "days_unit")).height + 30 if leg is not None else 0
    height = 104 + leg_h + 44 + rows * row_h + 54 + ev_rows * 78 + 20
    img = Image.new("RGB", (HAND_W, height), PAPER)
    d = Draw(img)
    index = _seat_index(view)
    d.rectangle((0, 0, HAND_W, 84), fill=HEADER_BG)
    _paste(img, _token_sprite(index.get(seat, 0), 22), (42, 42))
    where = _t(t, "in_london") if arrived else city_name(here or "?", t)
    days = _int((view.get("days") or {}).get(seat))
    gold = _int((view.get("gold") or {}).get(seat))
    fg = font(34, "bold")
    gold_text = f"{gold} {_t(t, 'gold')}"
    gw = advance(fg, gold_text)
    d.text((HAND_W - 24, 42), gold_text, font=fg, fill=WHITE, anchor="rm")
    _paste(img, icon("coin", 40), (HAND_W - 24 - gw - 28, 42))
    d = Draw(img)
    fh = font(32, "bold")
    room = HAND_W - 80 - gw - 90
    name_room = room - text_length(_plural(t, "hand_of", days, name="", where=where, days=days), fh)
    head = _plural(t, "hand_of", days, name=fit_text(_name(names, seat), fh, max(name_room, 0)), where=where, days=days)
    draw_text(d, (80, 42), head, font=fh, fill=WHITE, anchor="lm", max_width=room)
    y = 104
    f_sec = font(24, "bold")
    if leg is not None:
        route = f"{city_name(str(leg.get('from')), t)} → {city_name(str(leg.get('to')), t)}"
        text = f"{_t(t, 'next_leg')}: {route}"
        fn = font(28, "semibold")
        badge = _badge(_leg_key(leg), _t(t, "days_unit"))
        d.text((24, y + badge.height / 2), text, font=fn, fill=INK, anchor="lm")
        _paste(img, badge, (24 + advance(fn, text) + 20 + badge.width / 2, y + badge.height / 2))
        d = Draw(img)
        y += badge.height + 30
    d.text((24, y), f"{_t(t, 'travel_cards').upper()} ({len(travel)})", font=f_sec, fill=SOFT)
    y += 44
    if not groups:
        d.text((24, y + 20), _t(t, "no_travel"), font=font(26), fill=SOFT)
    f_pair = font(20, "bold")
    for (kind, dd, n), (x, row) in zip(groups, places, strict=True):
        cy = y + row * row_h
        sprite = travel_card_sprite(f"{kind}:{dd}", card_w, card_h, _t(t, "days_unit"))
        shown = min(n, 3)
        right = x + card_w + (shown - 1) * FAN
        if n > 1:
            d.rounded_rectangle((x - 7, cy - 7, right + 7, cy + card_h + 7), 16, fill=HILITE, outline=GOLD_DARK,
                                width=3)
        for j in range(shown):
            img.paste(sprite, (x + j * FAN, cy), sprite)
        if n > 1:
            d.ellipse((right - 26, cy - 18, right + 18, cy + 26), fill=INK)
            d.text((right - 4, cy + 4), f"×{n}", font=font(24, "bold"), fill=WHITE, anchor="mm")
            label = _t(t, "pair") if n == 2 else f"×{n}"
            d.text(((x + right) / 2, cy + card_h + 24), label, font=f_pair, fill=GOLD_DARK, anchor="mm")
    y += rows * row_h
    d.text((24, y), f"{_t(t, 'event_cards').upper()} ({len(events)})", font=f_sec, fill=SOFT)
    y += 44
    if not events:
        d.text((24, y + 10), _t(t, "no_events"), font=font(26), fill=SOFT)
    for ev in events:
        name, effect = event_card_text(ev, t)
        d.rounded_rectangle((24, y, HAND_W - 24, y + 66), 12, fill=(236, 226, 246), outline=(122, 70, 160), width=3)
        kind = ev if ev in ("balloon", "detective") else "event_card"
        _paste(img, icon(kind, 52), (58, y + 33))
        d = Draw(img)
        fn = font(28, "bold")
        d.text((96, y + 33), name, font=fn, fill=INK, anchor="lm")
        nw = advance(fn, name)
        fe = font(22, "regular")
        d.text((96 + nw + 20, y + 34), _fit(effect, fe, HAND_W - 96 - nw - 70), font=fe, fill=SOFT, anchor="lm")
        y += 78
    return img

