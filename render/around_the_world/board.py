"""The around-the-world board: the static layer plus what changes (header, pawns, chits,
detective, action display, decks, time track, player panel)."""

from __future__ import annotations

import json
import math
from collections.abc import Hashable
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from render import budget
from render.around_the_world.geometry import (
    ARRIVALS_AT,
    CHIT_R,
    DISPLAY_H,
    DISPLAY_TOP,
    GREY_EVENTS,
    HEADER_H,
    HILITE,
    LATE,
    LOCATIONS,
    PANEL_BG,
    PANEL_HEAD_H,
    PANEL_TOP,
    ROUTE,
    ROUTE_GLOW,
    ROW_H,
    SOFT,
    TRACK_LINE_Y,
    TRACK_MAX,
    TRACK_ROWS,
    WHITE,
    W,
    _badge_point,
    _dashed,
    _leg_key,
    _leg_segments,
    _legs_of,
    _place,
    _track_x,
    node_point,
)
from render.around_the_world.sprites import (
    _badge,
    _card_label,
    _chit_sprite,
    _die,
    _paste,
    _token_sprite,
    board_sprites,
    icon,
    travel_card_sprite,
)
from render.around_the_world.static import StaticTexts, _plate_geometry, _static_board, static_texts, stored_palette
from render.around_the_world.texts import (
    PHASES,
    Translator,
    _fit,
    _fit_font,
    _fit_name,
    _int,
    _name,
    _t,
    city_name,
    event_card_text,
)
from render.common import INK, PAPER, Draw, advance, draw_text, font, text_length
from render.png import Box, StaticLayer


def _seat_index(view: dict) -> dict[str, int]:
    return {seat: i for i, seat in enumerate(view.get("seats") or [])}


def _travelled_legs(events: list[dict] | None, locations: list[str]) -> list[tuple[str, str, str | None]]:
    """(from, to, seat) of every journey in `events`, read from common field names."""
    out: list[tuple[str, str, str | None]] = []
    for ev in events or []:
        if not isinstance(ev, dict):
            continue
        frm, to = ev.get("from"), ev.get("to")
        if isinstance(frm, str) and isinstance(to, str) and frm in locations and to in locations:
            seat = ev.get("seat")
            out.append((frm, to, seat if isinstance(seat, str) else None))
    return out


def _draw_header(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: dict[str, str], t: Translator,
                 index: dict[str, int]) -> None:
    d.text((24, HEADER_H / 2), _t(t, "title"), font=font(34, "bold"), fill=WHITE, anchor="lm")
    f = font(30, "semibold")
    x: float = W - 24
    if view.get("over"):
        result = view.get("result") or {}
        winners = [s for s in result.get("winners", []) if isinstance(s, str)]
        text = _t(t, "winner", names=", ".join(_fit(_name(names, s), f, 300) for s in winners)) if winners else _t(
            t, "no_winner")
        text = f"{_t(t, 'over')} · {text}"
        draw_text(d, (x, HEADER_H / 2), text, font=f, fill=HILITE, anchor="rm", max_width=900)
        return
    current = view.get("current")
    if not isinstance(current, str):
        to_act = view.get("to_act") or []
        current = to_act[0] if to_act else None
    parts = []
    rnd = view.get("round")
    if isinstance(rnd, int):
        parts.append(_t(t, "round", n=rnd))
    left_text = " · ".join(parts)
    if current is not None:
        phase = view.get("phase")
        phase_text = _t(t, f"phase.{phase}") if phase in PHASES else ""
        turn = _fit_name(t, "turn", _name(names, current), f, 560)
        tw = text_length(turn, f)
        if phase_text:
            pf = font(24, "regular")
            d.text((x, HEADER_H / 2 + 2), f"({phase_text})", font=pf, fill=(200, 210, 225), anchor="rm")
            x -= advance(pf, f"({phase_text})") + 12
        draw_text(d, (x, HEADER_H / 2), turn, font=f, fill=HILITE, anchor="rm")
        x -= tw + 30
        _paste(img, _token_sprite(index.get(current, 0), 18), (x, HEADER_H / 2))
        x -= 40
    if left_text:
        d.text((x, HEADER_H / 2), left_text, font=f, fill=WHITE, anchor="rm")


def _draw_map_dynamic(img: Image.Image, view: dict, names: dict[str, str], t: Translator, index: dict[str, int],
                      events: list[dict] | None, boxes: list[Box], chits: list[Chit] | None = None) -> None:
    """What changes on the map; every part adds the box it drew in to `boxes` (outside them
    the map is its static layer, which the PNG writer relies on), the bonus chits theirs to
    `chits` if given (a kept board keeps them mapped)."""
    d = Draw(img)
    locations = [loc for loc in (view.get("locations") or LOCATIONS) if isinstance(loc, str)]
    _draw_travelled(img, d, view, t, events, locations, boxes)
    _draw_chits(img, d, view, t, events, locations, boxes, chits)
    _draw_detective(img, d, view, events, locations, boxes)
    _draw_arrivals(img, d, view, t, index, boxes)
    _draw_pawns(img, view, index, locations, boxes, t)


def _around(points: list[tuple[float, float]], pad: float) -> Box:
    """The box around `points`, `pad` pixels wider on every side (for line widths and outlines)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return int(min(xs) - pad), int(min(ys) - pad), int(max(xs) + pad) + 1, int(max(ys) + pad) + 1


def _draw_travelled(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, t: Translator, events: list[dict] | None,
                    locations: list[str], boxes: list[Box]) -> None:
    """Legs just travelled, highlighted under a fresh copy of their badge."""
    legs = _legs_of(view)
    for frm, to, _seat in _travelled_legs(events, locations):
        for a, b in _leg_segments(frm, to):
            d.line((a, b), fill=ROUTE_GLOW, width=14)
            d.line((a, b), fill=ROUTE, width=6)
            boxes.append(_around([a, b], 9))
        leg = next((lg for lg in legs if lg.get("from") == frm and lg.get("to") == to), None)
        if leg is not None:
            _paste(img, _badge(_leg_key(leg), _t(t, "days_unit")), _badge_point(frm, to), boxes)
        for loc in (frm, to):
            nx, ny = node_point(loc)
            d.ellipse((nx - 10, ny - 10, nx + 10, ny + 10), fill=WHITE, outline=INK, width=4)
            boxes.append(_around([(nx, ny)], 12))


#: a bonus chit as a kept board keeps it: name, region (the ring's box, wider than the chit),
#: what it shows (its kind or None, whether ringed)
Chit = tuple[str, Box, tuple[str | None, bool]]


def _draw_chits(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, t: Translator, events: list[dict] | None,
                locations: list[str], boxes: list[Box], chits_out: list[Chit] | None = None) -> None:
    """Bonus chits in the name plates; the spot of one taken by these events is ringed, and
    empty like any taken spot (drawn once more inside its ring, the chit read as still lying
    there). Their boxes go to `chits_out` if given, else to `boxes`."""
    chits = view.get("chits") or {}
    just_taken = {(ev.get("location"), ev.get("colour")): ev.get("chit") for ev in events or []
                  if isinstance(ev, dict) and ev.get("type") == "chit" and isinstance(ev.get("chit"), str)}
    for loc in locations:
        if loc == "london":
            continue
        spot = chits.get(loc) if isinstance(chits, dict) else None
        spot = spot if isinstance(spot, dict) else {}
        for centre, colour in zip(_plate_geometry(loc, city_name(loc, t))[1], ("red", "blue"), strict=False):
            kind = spot.get(colour)
            taken_now = just_taken.get((loc, colour))
            ringed = kind is None and bool(taken_now)
            if ringed:  # taken by these events: its empty spot ringed
                cx, cy = centre
                d.ellipse((cx - CHIT_R - 6, cy - CHIT_R - 6, cx + CHIT_R + 6, cy + CHIT_R + 6), outline=ROUTE_GLOW,
                          width=5)
                if chits_out is None:
                    boxes.append(_around([centre], CHIT_R + 8))
            shown = kind if isinstance(kind, str) else None
            _paste(img, _chit_sprite(colour, shown, CHIT_R), centre, boxes if chits_out is None else None)
            if chits_out is not None:
                chits_out.append((f"chit:{loc}:{colour}", _around([centre], CHIT_R + 8), (shown, ringed)))


def _draw_detective(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, events: list[dict] | None,
                    locations: list[str], boxes: list[Box]) -> None:
    det = view.get("detective")
    if isinstance(det, str) and det in locations:
        dx, dy = _place(det, "detective")
        nx, ny = node_point(det)
        _dashed(d, (dx, dy), (nx, ny), INK, 3, 6, 5)
        boxes.append(_around([(dx, dy), (nx, ny)], 4))
        if any(isinstance(ev, dict) and ev.get("type") == "detective" for ev in events or []):
            d.ellipse((dx - 36, dy - 36, dx + 36, dy + 36), fill=ROUTE_GLOW, outline=INK, width=2)
            boxes.append(_around([(dx, dy)], 38))
        _paste(img, icon("detective", 56), (dx, dy), boxes)


def _draw_arrivals(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, t: Translator,
                   index: dict[str, int], boxes: list[Box]) -> None:
    """The arrivals in London, in order."""
    order = [s for s in view.get("arrival_order") or [] if isinstance(s, str) and s in index]
    if order:
        f_arr = font(22, "bold")
        label = _t(t, "arrivals")
        bx0, by0 = ARRIVALS_AT
        width = advance(f_arr, label) + 24 + len(order) * 62
        d.rounded_rectangle((bx0, by0, bx0 + width, by0 + 40), 10, fill=(255, 252, 244), outline=INK, width=2)
        boxes.append(_around([(bx0, by0), (bx0 + width, by0 + 40)], 2))
        d.text((bx0 + 12, by0 + 20), label, font=f_arr, fill=INK, anchor="lm")
        x = bx0 + 20 + advance(f_arr, label)
        for k, seat in enumerate(order):
            d.text((x + 6, by0 + 20), f"{k + 1}.", font=f_arr, fill=SOFT, anchor="lm")
            _paste(img, _token_sprite(index[seat], 14), (x + 40, by0 + 20), boxes)
            x += 62


#: how far a pawn's drawing reaches from its centre (the ring of the player to act)
PAWN_REACH = 27
#: where a cluster that would cover a name plate, a leg badge or the detective may move: 16
#: directions, down first (the plates mostly sit above or beside their markers)
_SHIFTS = [(math.sin(k * math.pi / 8), math.cos(k * math.pi / 8)) for k in (0, 1, 15, 2, 14, 3, 13, 4, 12, 5, 11, 6,
                                                                            10, 7, 9, 8)]
#: farthest a cluster moves off its marker
MAX_SHIFT = 160


def _overlaps(a: Box | tuple[float, float, float, float], b: Box | tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _obstacles(view: dict, t: Translator, locations: list[str]) -> list[tuple[float, float, float, float]]:
    """What pawns must not cover: every city's name plate with its chits, every leg's badge
    and the detective."""
    out: list[tuple[float, float, float, float]] = []
    for loc in locations:
        box = _plate_geometry(loc, city_name(loc, t))[0]
        out.append((box[0] - 2, box[1] - 2, box[2] + 4, box[3] + 5))  # with the plate's shadow
    for leg in _legs_of(view):
        frm, to = leg.get("from"), leg.get("to")
        if isinstance(frm, str) and isinstance(to, str) and frm in locations and to in locations:
            sprite = _badge(_leg_key(leg), _t(t, "days_unit"))
            bx, by = _badge_point(frm, to)
            x0, y0 = bx - sprite.width / 2, by - sprite.height / 2
            inside = sprite.getbbox() or (0, 0, sprite.width, sprite.height)
            out.append((x0 + inside[0], y0 + inside[1], x0 + inside[2], y0 + inside[3]))
    det = view.get("detective")
    if isinstance(det, str) and det in locations:
        dx, dy = _place(det, "detective")
        out.append((dx - 28, dy - 28, dx + 28, dy + 28))
    return out


def _cluster(n: int, cols: int) -> list[tuple[float, float]]:
    """Offsets of `n` pawns in rows of `cols`, 40 px apart, centred."""
    rows = math.ceil(n / cols)
    out = []
    for k in range(n):
        row, col = divmod(k, cols)
        in_row = min(cols, n - row * cols)
        out.append(((col - (in_row - 1) / 2) * 40, (row - (rows - 1) / 2) * 40))
    return out


@lru_cache(maxsize=256)
def pawn_spots(loc: str, n: int, obstacles: tuple[tuple[float, float, float, float], ...]) -> list[tuple[float, float]]:
    """Centres of `n` pawns on `loc`: a cluster on the city's marker, moved the least it takes
    (down first, in a block or one row) so that no pawn covers a name plate, badge or the
    detective or leaves the map: pawns piled on Paris's plate hid its name and chits."""
    cx, cy = _place(loc, "pawns")
    layouts = [_cluster(n, 3 if n > 4 else 2 if n > 1 else 1)] + ([_cluster(n, n)] if n > 1 else [])
    r = PAWN_REACH
    for dist in range(0, MAX_SHIFT + 1, 4):
        for ux, uy in _SHIFTS if dist else _SHIFTS[:1]:
            x, y = cx + ux * dist, cy + uy * dist
            for offsets in layouts:
                spots = [(x + ox, y + oy) for ox, oy in offsets]
                if all(r <= px <= W - r and HEADER_H + r <= py <= DISPLAY_TOP - r
                       and not any(_overlaps((px - r, py - r, px + r, py + r), o) for o in obstacles)
                       for px, py in spots):
                    return spots
    return [(cx + ox, cy + oy) for ox, oy in layouts[0]]


def _draw_pawns(img: Image.Image, view: dict, index: dict[str, int], locations: list[str], boxes: list[Box],
                t: Translator) -> None:
    """Every pawn on its city, clustered when several share one, clear of the plates and badges
    (`pawn_spots`); the player to act ringed."""
    positions = view.get("positions") or {}
    arrived = view.get("arrived") or {}
    current = view.get("current") if not view.get("over") else None
    groups: dict[str, list[str]] = {}
    for seat in view.get("seats") or []:
        pos = _int(positions.get(seat), 0)
        loc = locations[pos] if 0 <= pos < len(locations) else locations[0]
        groups.setdefault(loc, []).append(seat)
    obstacles = tuple(_obstacles(view, t, locations)) if groups else ()
    for loc, seats in groups.items():
        for (x, y), seat in zip(pawn_spots(loc, len(seats), obstacles), seats, strict=True):
            _paste(img, _token_sprite(index.get(seat, 0), 18, seat == current), (x, y), boxes)
            if arrived.get(seat) is True:
                _paste(img, icon("flag", 26), (x + 16, y - 20), boxes)


def _draw_display(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, t: Translator, index: dict[str, int],
                  names: dict[str, str]) -> None:
    """The action display (or the final standing), the decks and supplies, the event discard
    and the last roll: three parts side by side, each drawn only inside its own columns."""
    _draw_slots(img, d, view, t, index, names)
    _draw_decks(img, d, view, t)
    _draw_events(d, view, t)


def _draw_slots(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, t: Translator, index: dict[str, int],
                names: dict[str, str]) -> None:
    """The six display slots, or the final standing; the top-card hint of six players."""
    display = [s for s in (view.get("display") or []) if isinstance(s, dict)]
    slot_w = 168
    x0 = 24
    top = DISPLAY_TOP + 48
    if view.get("over") and isinstance(view.get("result"), dict):
        _draw_final(img, d, view, t, index, names)
        display = []
    order = view.get("order")
    current = view.get("current")
    if (len(index) == 6 and view.get("phase") == "take" and isinstance(order, list) and order
            and current == order[-1] and isinstance(current, str)):
        # 6 players: the round's last player may take the top travel card instead
        hx = 24 + advance(font(24, "bold"), _t(t, "display").upper()) + 18
        f_hint = font(21, "semibold")
        hint = _fit_name(t, "top_card", _name(names, current), f_hint, 1010 - hx)
        draw_text(d, (hx, DISPLAY_TOP + 25), hint, font=f_hint, fill=INK, anchor="lm", max_width=1010 - hx)
    for i, slot in enumerate(display):
        x = x0 + i * slot_w
        action = slot.get("action")
        cx = x + slot_w / 2 - 6
        d.rounded_rectangle((x, top, x + slot_w - 12, DISPLAY_TOP + DISPLAY_H - 12), 12, fill=PANEL_BG,
                            outline=(190, 180, 160), width=2)
        if isinstance(action, str):
            _draw_action_label(img, d, action, _t(t, f"action.{action}"), x, top, slot_w - 12)
        card = slot.get("card")
        if isinstance(card, str) and _card_label(card):
            _paste(img, travel_card_sprite(card, 92, 128, _t(t, "days_unit")), (cx, top + 48 + 64))
        else:
            d.rounded_rectangle((cx - 46, top + 48, cx + 46, top + 176), 10, outline=(190, 180, 160), width=2)
            ft = _fit_font(_t(t, "taken"), 82, (20, 18, 16), "regular")
            d.text((cx, top + 112), _fit(_t(t, "taken"), ft, 84), font=ft, fill=SOFT, anchor="mm")


def _draw_decks(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, t: Translator) -> None:
    """Decks and supplies, right of the display slots."""
    x = DECKS_X
    fb = font(30, "bold")
    rows = [
        ("travel_card", _t(t, "travel_deck"), _int(view.get("travel_deck")), None),
        ("travel_card", _t(t, "discard"), _int(view.get("travel_discard")), view.get("travel_discard_top")),
        ("event_card", _t(t, "event_deck"), _int(view.get("event_deck")), None),
        ("coin", _t(t, "gold_supply"), _int(view.get("gold_supply")), None),
    ]
    y = DISPLAY_TOP + 16
    for kind, label, value, top_card in rows:
        cy = y + 24
        _paste(img, icon(kind, 36), (x + 18, cy))
        fl = _fit_font(label, 176, (22, 20, 18))
        d.text((x + 42, cy), _fit(label, fl, 176), font=fl, fill=INK, anchor="lm")
        d.text((x + 268, cy), str(value), font=fb, fill=INK, anchor="rm")
        if isinstance(top_card, str) and _card_label(top_card):
            _paste(img, travel_card_sprite(top_card, 34, 46, _t(t, "days_unit")), (x + 206, cy))
        y += 52


def _draw_events(d: ImageDraw.ImageDraw, view: dict, t: Translator) -> None:
    """The top of the event discard and the last die roll, at the right edge."""
    ex = DECKS_X + 286
    ev_top = view.get("event_discard_top")
    d.text((ex, DISPLAY_TOP + 14), _t(t, "event_discard"), font=font(19, "semibold"), fill=SOFT)
    box = (ex, DISPLAY_TOP + 40, W - 16, DISPLAY_TOP + 146)
    if isinstance(ev_top, str):
        grey = ev_top in GREY_EVENTS
        d.rounded_rectangle(box, 10, fill=(214, 214, 214) if grey else (236, 226, 246),
                            outline=(90, 90, 90) if grey else (122, 70, 160), width=3)
        name, effect = event_card_text(ev_top, t)
        fn = font(25, "bold")
        d.text((ex + 12, box[1] + 20), _fit(name, fn, box[2] - box[0] - 24), font=fn, fill=INK, anchor="lm")
        _wrap(d, effect, font(18, "regular"), ex + 12, box[1] + 38, box[2] - box[0] - 22, 3, SOFT)
    else:
        d.rounded_rectangle(box, 10, outline=(190, 180, 160), width=2)
        d.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), _t(t, "empty"), font=font(20), fill=SOFT,
               anchor="mm")
    roll = view.get("last_roll")
    if isinstance(roll, list) and roll:
        values = [v for v in roll if isinstance(v, int)][-5:]
        ry = DISPLAY_TOP + 158
        d.text((ex, ry), _t(t, "last_roll"), font=font(19, "semibold"), fill=SOFT)
        for k, value in enumerate(values):
            last = k == len(values) - 1
            _die(d, ex + k * 46, ry + 26, 40 if last else 34, value)


#: left edge of the decks and supplies (right of the six display slots of 168 px)
DECKS_X = 24 + 6 * 168 + 4


def _draw_action_label(img: Image.Image, d: ImageDraw.ImageDraw, action: str, label: str, x: float, top: float,
                       width: float) -> None:
    """Icon and name of a display action on one line, or two lines when the name is long."""
    room = width - 52
    lines = [label]
    f = font(21, "semibold")
    for size in (21, 19, 17):
        f = font(size, "semibold")
        if advance(f, label) <= room:
            break
    else:
        words = label.split()
        f = font(18 if len(words) > 1 else 16, "semibold")
        if len(words) > 1:
            cut = max(range(1, len(words)), key=lambda k: -abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
            lines = [" ".join(words[:cut]), " ".join(words[cut:])]
        lines = [_fit(line, f, room) for line in lines]
    text_w = max(advance(f, line) for line in lines)
    left = x + (width - 42 - text_w) / 2
    _paste(img, icon(action, 36), (left + 16, top + 24))
    for k, line in enumerate(lines):
        dy = (k - (len(lines) - 1) / 2) * (f.size + 1)
        d.text((left + 40, top + 24 + dy), line, font=f, fill=INK, anchor="lm")


def _draw_final(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, t: Translator, index: dict[str, int],
                names: dict[str, str]) -> None:
    """The final standing where the action display was."""
    result = view["result"]
    ranking = [e for e in result.get("ranking") or [] if isinstance(e, dict) and isinstance(e.get("seat"), str)]
    winners = {s for s in result.get("winners") or [] if isinstance(s, str)}
    days = view.get("days") or {}
    arrived = view.get("arrived") or {}
    box = (24, DISPLAY_TOP + 48, 1024, DISPLAY_TOP + DISPLAY_H - 12)
    d.rounded_rectangle(box, 12, fill=(232, 244, 214), outline=(60, 120, 60), width=3)
    f_name = font(26, "bold")
    f_days = font(24, "semibold")
    col_w = (box[2] - box[0] - 20) / 2
    for k, entry in enumerate(ranking[:6]):
        seat = entry["seat"]
        col, row = divmod(k, 3)
        x = box[0] + 14 + col * col_w
        y = box[1] + 30 + row * 56
        rank = _int(entry.get("rank"))
        colour = (40, 110, 40) if seat in winners else INK
        d.text((x + 28, y), f"{rank}.", font=font(28, "bold"), fill=colour, anchor="rm")
        _paste(img, _token_sprite(index.get(seat, 0), 16, seat in winners), (x + 56, y))
        d = Draw(img)
        dv = _int(entry.get("days"), _int(days.get(seat)))
        note = f"{dv} {_t(t, 'days_unit')}"
        if arrived.get(seat) is not True:
            note += f" · {_t(t, 'not_arrived')}"
        nw = advance(f_days, note)
        draw_text(d, (x + 86, y), _name(names, seat), font=f_name, fill=colour, anchor="lm",
                  max_width=col_w - 110 - nw)
        d.text((x + col_w - 14, y), note, font=f_days, fill=LATE if dv > 80 else SOFT, anchor="rm")


def _wrap(d: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, x: float, y: float, width: float,
          max_lines: int, fill: tuple[int, int, int]) -> None:
    words = text.split()
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}".strip()
        if advance(f, trial) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = _fit(lines[-1] + "…", f, width)
    for k, ln in enumerate(lines):
        d.text((x, y + k * (f.size + 3)), ln, font=f, fill=fill)


def _draw_track(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, index: dict[str, int]) -> None:
    days = view.get("days") or {}
    entries = sorted((_int(days.get(s)), index[s], s) for s in view.get("seats") or [] if s in index)
    rows_last: list[float] = []
    current = view.get("current") if not view.get("over") else None
    arrived = view.get("arrived") or {}
    f = font(18, "bold")
    gap = 34
    placed: list[tuple[float, float, float, int, int, str]] = []
    for value, i, seat in entries:
        true_x = _track_x(value)
        row = next((r for r, last in enumerate(rows_last) if true_x - last >= gap), None)
        if row is None and len(rows_last) < TRACK_ROWS:
            row = len(rows_last)
            rows_last.append(-1e9)
        x = true_x
        if row is None:  # all rows taken here: move along the lowest free spot, joined to the scale
            row = min(range(len(rows_last)), key=lambda r: rows_last[r])
            x = rows_last[row] + gap
        rows_last[row] = x
        placed.append((x, TRACK_LINE_Y - 30 - row * gap, true_x, value, i, seat))
    for x, y, true_x, _value, _i, _seat in placed:  # leaders first, under every token
        if y != TRACK_LINE_Y - 30 or x != true_x:
            d.line((x, y, true_x, TRACK_LINE_Y - 10), fill=INK, width=1)
    for x, y, _true_x, value, i, seat in placed:
        _paste(img, _token_sprite(i, 14, seat == current), (x, y))
        if arrived.get(seat) is True:
            _paste(img, icon("flag", 20), (x + 14, y - 14))
        if value > TRACK_MAX:
            d.text((x + 20, y), f"{value}", font=f, fill=LATE, anchor="lm")


def _panel_columns() -> dict[str, int]:
    return {"token": 40, "name": 72, "where": 520, "days": 900, "gold": 1040, "cards": 1180, "events": 1320,
            "mark": 1460}


class Row(NamedTuple):
    """Everything one player's panel row shows (hashable: a kept board is keyed by it)."""

    k: int
    seat: str
    token: int
    current: bool
    winner: bool
    first: bool
    arrived: bool
    arrival: int
    loc: str
    days: int
    gold: int
    travel: int
    event: int
    rank: int | None

    def fill(self) -> tuple[int, int, int] | None:
        """The row's background, or None on the paper."""
        if self.current:
            return HILITE
        if self.winner:
            return WINNER_BG
        return ROW_ALT if self.k % 2 else None


WINNER_BG = (232, 244, 214)
ROW_ALT = (248, 243, 233)
PANEL_HEAD_BG = (226, 216, 196)


def _panel_rows(view: dict, index: dict[str, int]) -> list[Row]:
    """The panel rows of `view`, top to bottom."""
    seats = [s for s in view.get("seats") or [] if isinstance(s, str)]
    positions = view.get("positions") or {}
    arrived = view.get("arrived") or {}
    order = [s for s in view.get("arrival_order") or [] if isinstance(s, str)]
    days = view.get("days") or {}
    gold = view.get("gold") or {}
    hands = view.get("hands") or {}
    locations = [loc for loc in (view.get("locations") or LOCATIONS) if isinstance(loc, str)]
    current = view.get("current") if not view.get("over") else None
    first = view.get("first_player")
    ranks: dict[str, int] = {}
    result = view.get("result")
    if isinstance(result, dict):
        for entry in result.get("ranking") or []:
            if isinstance(entry, dict) and isinstance(entry.get("seat"), str):
                ranks[entry["seat"]] = _int(entry.get("rank"))
    winners = set(result.get("winners") or []) if isinstance(result, dict) else set()
    rows = []
    for k, seat in enumerate(seats):
        pos = _int(positions.get(seat))
        seat_hand = hands.get(seat)
        hand = seat_hand if isinstance(seat_hand, dict) else {}
        rows.append(Row(
            k, seat, index.get(seat, 0), seat == current, seat in winners, seat == first, arrived.get(seat) is True,
            order.index(seat) + 1 if seat in order else 0, locations[pos] if 0 <= pos < len(locations) else "?",
            _int(days.get(seat)), _int(gold.get(seat)), _int(hand.get("travel")), _int(hand.get("event")),
            ranks.get(seat)))
    return rows


def _draw_panel_head(img: Image.Image, head: tuple[str, ...]) -> None:
    """The panel's column headings (`head` starts with their words, see `_head_texts`), and
    above the column of the first player's watch what it means: the same on every board of a
    language, so part of the static layer too."""
    d = Draw(img)
    cols = _panel_columns()
    top = PANEL_TOP
    cy = top + PANEL_HEAD_H / 2
    d.rectangle((0, top, W, top + PANEL_HEAD_H), fill=PANEL_HEAD_BG)
    fh = font(22, "bold")
    d.text((cols["token"] - 16, cy), head[0].upper(), font=fh, fill=SOFT, anchor="lm")
    for key, label in zip(("where", "days", "gold", "cards", "events"), head[1:6], strict=True):
        d.text((cols[key], cy), label, font=fh, fill=SOFT, anchor="lm")
    _paste(img, icon("first_player", 36), (cols["where"] - 34, cy))
    d.text((cols["where"] - 56, cy), head[-1], font=font(22, "regular"), fill=SOFT, anchor="rm")


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: dict[str, str], t: Translator,
                index: dict[str, int]) -> None:
    _draw_panel_head(img, _head_texts(t))
    for row in _panel_rows(view, index):
        _draw_row(img, d, row, names, t)


def _row_top(k: int) -> int:
    return PANEL_TOP + PANEL_HEAD_H + k * ROW_H


def _draw_row_fill(d: ImageDraw.ImageDraw, row: Row) -> None:
    """The row's background; like every Pillow rectangle it covers its last line too, the
    first line of the row below (a kept board keeps that line as a part of its own)."""
    fill = row.fill()
    if fill is not None:
        y0 = _row_top(row.k)
        d.rectangle((0, y0, W, y0 + ROW_H), fill=fill)


def _draw_row(img: Image.Image, d: ImageDraw.ImageDraw, row: Row, names: dict[str, str], t: Translator) -> None:
    """One player's row of the panel."""
    cols = _panel_columns()
    cy = _row_top(row.k) + ROW_H / 2
    _draw_row_fill(d, row)
    if row.current:
        d.polygon([(4, cy - 12), (20, cy), (4, cy + 12)], fill=INK)
    _paste(img, _token_sprite(row.token, 17), (cols["token"], cy))
    draw_text(d, (cols["name"], cy), _name(names, row.seat), font=font(30, "bold"), fill=INK, anchor="lm",
              max_width=cols["where"] - cols["name"] - 70)
    if row.first:
        _paste(img, icon("first_player", 40), (cols["where"] - 34, cy))
    f_where = font(26, "regular")
    f_val = font(30, "semibold")
    if row.arrived:
        where = _t(t, "arrived", n=row.arrival) if row.arrival else city_name("london", t)
        _paste(img, icon("flag", 30), (cols["where"] + 14, cy))
        d.text((cols["where"] + 36, cy), where, font=f_where, fill=INK, anchor="lm")
    else:
        d.text((cols["where"], cy), city_name(row.loc, t), font=f_where, fill=INK, anchor="lm")
    d.text((cols["days"], cy), str(row.days), font=font(32, "bold"), fill=LATE if row.days > 80 else INK, anchor="lm")
    _paste(img, icon("coin", 30), (cols["gold"] + 14, cy))
    d.text((cols["gold"] + 36, cy), str(row.gold), font=f_val, fill=INK, anchor="lm")
    _paste(img, icon("travel_card", 34), (cols["cards"] + 14, cy))
    d.text((cols["cards"] + 36, cy), str(row.travel), font=f_val, fill=INK, anchor="lm")
    _paste(img, icon("event_card", 34), (cols["events"] + 14, cy))
    d.text((cols["events"] + 36, cy), str(row.event), font=f_val, fill=INK, anchor="lm")
    if row.rank is not None:
        d.text((W - 24, cy), _t(t, "rank", n=row.rank), font=font(30, "bold"),
               fill=(40, 120, 40) if row.winner else INK, anchor="rm")


def board_image(view: dict, *, names: dict[str, str], translator: Translator, events: list[dict] | None = None,
                lang: str | None = None) -> Image.Image:
    """The board as a Pillow image (see `render_board`; `lang` is ignored: the translator knows)."""
    del lang
    return board_layers(view, names=names, translator=translator, events=events)[0]


def map_image(view: dict, *, names: dict[str, str], translator: Translator,
              events: list[dict] | None = None) -> Image.Image:
    """The board with its header and map drawn and what lies below the map (display, track,
    panel) left as the static layer has it: the part the focus view crops and shrinks, in
    half a board's time. Inside the map it is the board, pixel for pixel."""
    return board_top(view, names=names, translator=translator, events=events, whole=True)[0]


def board_layers(view: dict, *, names: dict[str, str], translator: Translator,
                 events: list[dict] | None = None) -> tuple[Image.Image, StaticLayer, list[Box]]:
    """The whole board, its static layer (mapped onto the palette) and the boxes drawn in
    beyond it: the header, what changes on the map and everything below the map."""
    img, layer, boxes, _chits, _group = board_top(view, names=names, translator=translator, events=events,
                                                   whole=True)
    d = Draw(img)
    _draw_display(img, d, view, translator, _seat_index(view), names)
    _draw_track(img, d, view, _seat_index(view))
    _draw_panel(img, d, view, names, translator, _seat_index(view))
    return img, layer, [*boxes, (0, DISPLAY_TOP - 4, W, img.height)]


def board_top(view: dict, *, names: dict[str, str], translator: Translator, events: list[dict] | None,
              whole: bool) -> tuple[Image.Image, StaticLayer, list[Box], list[Chit], Hashable]:
    """The static layer with the header and the map's changing things drawn: the image, the
    static layer, the boxes drawn in, the bonus chits (kept apart unless `whole`, for
    `kept`), and the key of the static layer and names (what a kept layer is made on)."""
    t = translator
    locations = [loc for loc in (view.get("locations") or LOCATIONS) if isinstance(loc, str)] or LOCATIONS
    legs = _legs_of(view)
    legs_key = json.dumps([{"from": lg.get("from"), "to": lg.get("to"), "options": lg.get("options") or [],
                            "days": lg.get("days")} for lg in legs], sort_keys=True)
    seats = [s for s in view.get("seats") or [] if isinstance(s, str)]
    height = PANEL_TOP + PANEL_HEAD_H + ROW_H * len(seats) + 14
    texts = static_texts(t, locations)
    group = (texts, legs_key, json.dumps(locations), height, _head_texts(t))
    layer, base = _layer(*group)
    board_sprites(texts.days_unit)
    img = base.crop((0, 0, W, height))
    index = _seat_index(view)
    boxes: list[Box] = [(0, 0, W, HEADER_H + 4)]
    d = Draw(img)
    _draw_header(img, d, view, names, t, index)
    chits: list[Chit] = []
    _draw_map_dynamic(img, view, names, t, index, events, boxes, None if whole else chits)
    return img, layer, boxes, chits, (group, tuple(sorted(names.items())))


def _head_texts(t: Translator) -> tuple[str, ...]:
    """The panel headings and the fixed words of the parts below the map (a kept layer's
    parts are keyed by these too: two translators with the same words draw the same)."""
    return tuple(_t(t, key) for key in (
        "players", "col_where", "col_days", "col_gold", "col_cards", "col_events", "taken", "travel_deck", "discard",
        "event_deck", "gold_supply", "event_discard", "empty", "last_roll", "days_unit", "not_arrived", "display")) + (
        _t(t, "arrived", n=1), _t(t, "rank", n=1), _t(t, "top_card", name="\0"), _t(t, "first_mark"))


def _layer(texts: StaticTexts, legs_key: str, locations_key: str, height: int,
           head: tuple[str, ...]) -> tuple[StaticLayer, Image.Image]:
    """The static layer on a board of `height` (it grows with the players), with the panel
    headings (`head`, the words they show), and mapped onto the fixed palette once: a turn
    maps only the boxes it drew in. One layer as tall as the most players' board serves
    every height (`StaticLayer.top`; the image is cut by the caller)."""
    layer, img = _tall_layer(texts, legs_key, locations_key, max(height, TALLEST), head)
    return layer.top(height), img


#: the height of the board with the most players (6): a layer is made this tall
TALLEST = PANEL_TOP + PANEL_HEAD_H + ROW_H * 6 + 14


@budget.memoized("layers")
def _tall_layer(texts: StaticTexts, legs_key: str, locations_key: str, height: int,
                head: tuple[str, ...]) -> tuple[StaticLayer, Image.Image]:
    img = Image.new("RGB", (W, height), PAPER)
    img.paste(_static_board(texts, legs_key, locations_key), (0, 0))
    _draw_panel_head(img, head)
    return StaticLayer(img, stored_palette()), img
