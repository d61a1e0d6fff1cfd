"""The part of an around-the-world board below the map, kept between turns of a table.

Below the map a board shows the action display, the decks, the event discard, the time
track and a row per player. Drawing all of it and mapping it onto the palette every turn was
most of a render, yet a turn changes a few of these parts (the row of the player who moved,
the highlighted rows, a deck count). So the board is cut into parts, each drawn only inside
its own region over the static layer and keyed by exactly what it shows; the mapped layer
(static layer plus every part) is kept, keyed by those keys. A turn starts from the kept
layer with the most parts in common (the same table's last board, as a rule), draws only the
parts whose keys differ and maps only their regions over it (`StaticLayer.derive`, which
shares the untouched bands). A part that something on the map drew into (a pawn on a chit) is
drawn afresh and mapped for that board only, the layer keeps what it had there. Layers are
kept per process, the oldest goes first; one keeps only the bands that differ from the
static layer (see `KEEP`).
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass

from PIL import Image

from render import budget
from render.around_the_world.board import (
    DECKS_X,
    PANEL_HEAD_BG,
    Chit,
    Row,
    _draw_decks,
    _draw_events,
    _draw_row,
    _draw_slots,
    _draw_track,
    _panel_rows,
    _row_top,
    _seat_index,
    board_top,
)
from render.around_the_world.geometry import DISPLAY_TOP, TRACK_LINE_Y, TRACK_ROWS, TRACK_TOP, W
from render.around_the_world.texts import Translator, _t, city_name, event_card_text
from render.common import PAPER, Draw
from render.png import Box, StaticLayer

#: layers are kept (one per table in play: a table's new board replaces the layer it started
#: from; 0.3-1.7 MB each, the bands of the chits and below the map) within the
#: `kept.around-the-world` part of the render budget (`render.budget`); a table whose layer
#: went starts afresh, at the cost of a table's first board
BUDGET = "kept.around-the-world"


class _Dirty:
    """The key of a part drawn over by something on the map: equal to no other key."""

    def __eq__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


@dataclass(frozen=True)
class Kept:
    """A kept layer: the static layer with every part of `keys` drawn and mapped."""

    group: Hashable
    keys: dict[str, Hashable]
    layer: StaticLayer


_kept: OrderedDict[int, Kept] = OrderedDict()
#: each kept layer's bytes when kept, the newest's measured again once its board compacted it
_sizes: dict[int, int] = {}
_next = [0]
_lock = threading.Lock()


def touches(a: Box, b: Box) -> bool:
    """Whether boxes `a` and `b` (right and bottom excluded) share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def closest(group: Hashable, keys: dict[str, Hashable]) -> tuple[int, Kept] | None:
    """The kept layer of `group` with the most parts equal to `keys` (ties: the newest)."""
    best: tuple[int, Kept] | None = None
    best_score = -1
    with _lock:
        kept_now = list(_kept.items())
    for number, kept in reversed(kept_now):
        if kept.group != group:
            continue
        score = sum(1 for name, key in keys.items() if kept.keys.get(name) == key)
        if score > best_score:
            best, best_score = (number, kept), score
    return best


def changed(keys: dict[str, Hashable], start: Kept | None, dirty: set[str]) -> list[str]:
    """The parts to draw afresh over `start`: those whose keys differ, and those in `dirty`."""
    old = start.keys if start is not None else {}
    return [name for name, key in keys.items() if name in dirty or name not in old or old[name] != key]


def keep(replaced: int | None, group: Hashable, keys: dict[str, Hashable], dirty: set[str],
         layer: StaticLayer, start: Kept | None) -> None:
    """Keeps `layer` (the parts of `keys`; those in `dirty` it has as in `start`) in
    place of the kept layer numbered `replaced`, the one it was made from."""
    old = start.keys if start is not None else {}
    made = Kept(group, {name: (old.get(name, _Dirty()) if name in dirty else key) for name, key in keys.items()},
                layer)
    with _lock:
        if replaced is not None:
            _kept.pop(replaced, None)
            _sizes.pop(replaced, None)
        if _next[0] in _kept:  # the newest, compacted since it was kept: measured anew
            _sizes[_next[0]] = _kept[_next[0]].layer.own_bytes()
        _next[0] += 1
        _kept[_next[0]] = made
        _sizes[_next[0]] = layer.own_bytes()
        limit = budget.limit(BUDGET)
        while len(_kept) > 1 and sum(_sizes.get(k, 0) for k in _kept) > limit:
            number, _ = _kept.popitem(last=False)
            _sizes.pop(number, None)


def clear() -> None:
    """Forgets every kept layer (the render budget set anew, tests)."""
    with _lock:
        _kept.clear()
        _sizes.clear()


budget.emptied_by(BUDGET, clear)


def _after_fork() -> None:
    """A forked render worker starts with an unheld lock (another thread may have held it)."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)


def joined(boxes: list[Box]) -> list[Box]:
    """The boxes with those side by side (the same rows, one's right the other's left) or
    stacked (the same columns) joined into one: every part is cropped from the same board,
    so one crop mapped in one go gives the very pixels of its parts mapped one by one, for
    a few conversions instead of one per part (a table's first board maps them all)."""
    out = sorted(set(boxes), key=lambda b: (b[1], b[0]))
    for horizontal in (True, False):
        merged: list[Box] = []
        for box in sorted(out, key=(lambda b: (b[1], b[3], b[0])) if horizontal else (lambda b: (b[0], b[2], b[1]))):
            if merged:
                last = merged[-1]
                if horizontal and (last[1], last[3], last[2]) == (box[1], box[3], box[0]):
                    merged[-1] = (last[0], last[1], box[2], last[3])
                    continue
                if not horizontal and (last[0], last[2], last[3]) == (box[0], box[2], box[1]):
                    merged[-1] = (last[0], last[1], last[2], box[3])
                    continue
            merged.append(box)
        out = merged
    return out


#: where the time track's markers go: rows of pawns (48 px sprites with their halo, a flag
#: above) from the scale's line up, a little spare (the scale itself is static)
TRACK_BAND = (0, TRACK_LINE_Y - 30 - (TRACK_ROWS - 1) * 34 - 24 - 2, W, TRACK_LINE_Y - 6 + 2)


def _sub(view: dict, *keys: str) -> str:
    return json.dumps({key: view.get(key) for key in keys}, sort_keys=True)


def _final(view: dict) -> str | None:
    """What the final standing shows (None while the game goes on)."""
    if not (view.get("over") and isinstance(view.get("result"), dict)):
        return None
    return _sub(view, "result", "days", "arrived", "seats")


def _hint(view: dict) -> str | None:
    """Whose top-card hint shows (six players: the round's last player may take the top card)."""
    order, current = view.get("order"), view.get("current")
    if (len(_seat_index(view)) == 6 and view.get("phase") == "take" and isinstance(order, list) and order
            and current == order[-1] and isinstance(current, str)):
        return current
    return None


def _parts(view: dict, t: Translator, rows: list[Row], height: int) -> dict[str, tuple[Box, Hashable]]:
    """The parts below the map: name -> (region, key of what it shows)."""
    display = [s for s in (view.get("display") or []) if isinstance(s, dict)]
    actions = tuple(_t(t, f"action.{s.get('action')}") for s in display if isinstance(s.get("action"), str))
    ev_top = view.get("event_discard_top")
    parts: dict[str, tuple[Box, Hashable]] = {
        "slots": ((0, DISPLAY_TOP + 2, DECKS_X - 5, TRACK_TOP), (_sub(view, "display"), actions, _final(view),
                                                                  _hint(view))),
        "decks": ((DECKS_X - 5, DISPLAY_TOP + 2, DECKS_X + 282, TRACK_TOP),
                  _sub(view, "travel_deck", "travel_discard", "travel_discard_top", "event_deck", "gold_supply")),
        "events": ((DECKS_X + 282, DISPLAY_TOP + 2, W, TRACK_TOP),
                   (_sub(view, "event_discard_top", "last_roll"),
                    event_card_text(ev_top, t) if isinstance(ev_top, str) else None)),
        "track": (TRACK_BAND, _sub(view, "days", "seats", "current", "over", "arrived")),
    }
    above: tuple[int, int, int] = PANEL_HEAD_BG
    for row in rows:
        y0 = _row_top(row.k)
        bottom = _row_top(row.k + 1) if row.k < len(rows) - 1 else height
        parts[f"row{row.k}"] = ((0, y0 + 1, W, bottom), (row, city_name(row.loc, t)))
        parts[f"line{row.k}"] = ((0, y0, W, y0 + 1), row.fill() or above)
        above = row.fill() or PAPER
    return parts


def kept_layer(img: Image.Image, layer: StaticLayer, view: dict, names: dict[str, str], t: Translator,
               index: dict[str, int], boxes: list[Box], chits: list[Chit], group: Hashable) -> StaticLayer:
    """The layer with the bonus chits (already drawn on `img`) and every part below the map: a
    kept one, with the parts that differ drawn on `img` (over the static layer, in the order
    of a whole board) and mapped over it."""
    rows = _panel_rows(view, index)
    parts = _parts(view, t, rows, img.height)
    parts.update((name, (box, key)) for name, box, key in chits)
    keys = {name: key for name, (_box, key) in parts.items()}
    dirty = {name for name, (box, _key) in parts.items()
             if any(touches((b[0], b[1], b[2] + 1, b[3] + 1), box) for b in boxes)}
    found = closest(group, keys)
    todo = changed(keys, found[1] if found else None, dirty)
    # a part something on the map drew over is boxed for this board only: the layer keeps what it had
    boxes.extend(parts[name][0] for name in todo if name in dirty)
    # the PNG writer may map boxes sharing rows as one wide rectangle, or as whole rows: every
    # part on rows a box reaches is drawn on `img` too
    spans = [(box[1], box[3] + 1) for box in boxes]  # the writer takes a box's bottom row as drawn in
    drawn = set(todo) | {name for name, (box, _key) in parts.items() if any(a < box[3] and box[1] < b
                                                                            for a, b in spans)}
    _draw_parts(img, view, names, t, index, rows, drawn, keys)
    derived = [(box, img.crop(box)) for box in joined([parts[name][0] for name in todo if name not in dirty])]
    start = found[1].layer if found else layer
    made = start.derive(derived) if derived else start
    keep(found[0] if found else None, group, keys, dirty, made, found[1] if found else None)
    return made


def _draw_parts(img: Image.Image, view: dict, names: dict[str, str], t: Translator, index: dict[str, int],
                rows: list[Row], drawn: set[str], keys: dict[str, Hashable]) -> None:
    """Draws the parts below the map named in `drawn` on `img` (where the static layer is)."""
    d = Draw(img)
    if "slots" in drawn:
        _draw_slots(img, d, view, t, index, names)
    if "decks" in drawn:
        _draw_decks(img, d, view, t)
    if "events" in drawn:
        _draw_events(d, view, t)
    if "track" in drawn:
        _draw_track(img, d, view, index)
    for row in rows:
        if f"row{row.k}" in drawn:
            _draw_row(img, d, row, names, t)
    for row in rows:  # a row's first line: its fill, or the one above reaching down (a Pillow
        if f"line{row.k}" in drawn:  # rectangle covers its last line too), or the paper
            y0, colour = _row_top(row.k), keys[f"line{row.k}"]
            assert isinstance(colour, tuple)
            d.rectangle((0, y0, W, y0), fill=colour)


def board_layers(view: dict, *, names: dict[str, str], translator: Translator,
                 events: list[dict] | None = None) -> tuple[Image.Image, StaticLayer, list[Box]]:
    """The board for its PNG: the image (the board inside the boxes), a kept layer with the
    chits and the parts below the map (only the changed ones drawn and mapped afresh), and the
    boxes drawn in beyond it (the header, what changes on the map)."""
    img, layer, boxes, chits, group = board_top(view, names=names, translator=translator, events=events,
                                                whole=False)
    made = kept_layer(img, layer, view, names, translator, _seat_index(view), boxes, chits, group)
    return img, made, boxes
