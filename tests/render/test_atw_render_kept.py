"""The around-the-world board's kept parts (`render.around_the_world.kept`): a board drawn
over a kept layer is pixel for pixel the whole board, whichever table's layer it starts from,
and a turn maps only the parts that changed."""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image
from PIL.Image import Dither

from engine import registry
from render import around_the_world as R
from render.around_the_world import kept
from render.png import StaticLayer
from tests.support.render_support import translator

NAMES = {"p1": "Phileas", "p2": "Passepartout", "p3": "Aouda", "p4": "Fix", "p5": "Maximilian", "p6": "Ginevra"}


def _boards(players: int, seed: int) -> list[tuple[dict, list[dict]]]:
    """Every board of a seeded random game, with the events that led to it."""
    rules = registry.get("around-the-world")
    state = rules.new_game([f"p{i + 1}" for i in range(players)], seed, {})
    rng = random.Random(seed)
    out = []
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        out.append((copy.deepcopy(rules.view(state, None)), events))
    return out


def _assert_whole(view: dict, events: list[dict], lang: str) -> None:
    t = translator("around-the-world", lang)
    decoded = Image.open(io.BytesIO(R.render_board(view, names=NAMES, translator=t, events=events)))
    whole = R.board_image(view, names=NAMES, translator=t, events=events).quantize(palette=R._palette(),
                                                                                   dither=Dither.NONE)
    assert decoded.tobytes() == whole.tobytes()


@pytest.mark.parametrize("players", [2, 6])
def test_tables_taking_turns_and_an_undo_give_whole_boards(players: int) -> None:
    """Two tables (same names and language: their layers can stand in for each other) render
    turn about, one steps back to an earlier board, to the end of both games: every PNG is the
    whole board mapped onto the palette."""
    kept.clear()
    a, b = _boards(players, 11), _boards(players, 12)
    step = max(1, len(a) // 25)
    for k in range(0, max(len(a), len(b)), step):
        for boards in (a, b):
            view, events = boards[min(k, len(boards) - 1)]
            _assert_whole(view, events, "de")
        if k == 5 * step:
            _assert_whole(*a[step], "de")  # an undo: back to an earlier board
    _assert_whole(*a[-1], "fr")
    _assert_whole(*a[-1], "fr")


def test_part_drawn_over_by_the_map_is_not_kept() -> None:
    """The detective's ring near the map's lower edge and a ringed chit are drawn over the kept
    parts; the next board without them shows those parts as they are."""
    kept.clear()
    view, _events = _boards(4, 5)[10]
    view = copy.deepcopy(view)
    view["detective"] = "bombay"
    ringed = [{"type": "detective"}, {"type": "chit", "location": "paris", "colour": "red", "chit": "gold"}]
    view["chits"]["paris"]["red"] = None
    _assert_whole(view, ringed, "en")
    _assert_whole(view, [], "en")
    _assert_whole(view, ringed, "en")


def test_a_turn_maps_only_what_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same board again maps no part below the map (only chits the pawns stand on); one with
    another deck count maps the decks besides."""
    kept.clear()
    t = translator("around-the-world", "en")
    view, events = _boards(4, 7)[20]
    R.render_board(view, names=NAMES, translator=t, events=events)
    derived: list[list[tuple[int, int, int, int]]] = []
    original = StaticLayer.derive

    def spy(self: StaticLayer, parts: list) -> StaticLayer:
        parts = list(parts)
        derived.append([box for box, _image in parts])
        return original(self, parts)

    monkeypatch.setattr(StaticLayer, "derive", spy)
    R.render_board(view, names=NAMES, translator=t, events=events)
    again = {box for call in derived for box in call}
    assert all(bottom <= R.DISPLAY_TOP for _l, _t, _r, bottom in again)  # only chits a pawn stands on
    derived.clear()
    fewer = copy.deepcopy(view)
    fewer["event_deck"] = int(view.get("event_deck") or 0) + 1
    R.render_board(fewer, names=NAMES, translator=t, events=events)
    new = [box for call in derived for box in call if box not in again]
    assert len(new) == 1
    left, top, right, bottom = new[0]
    assert top >= R.DISPLAY_TOP and bottom <= R.TRACK_TOP and right - left < R.W // 4


@pytest.mark.parametrize("days", [[0] * 6, [81, 81, 81, 95, 120, 3], [10, 12, 14, 16, 18, 20]])
def test_time_track_draws_inside_its_kept_band(days: list[int]) -> None:
    """The time track's part is kept as the band of its markers: crowds, flags, late counts and
    the halo of the player to act stay inside it."""
    from render.around_the_world.board import _draw_track, _seat_index
    from render.common import Draw

    seats = [f"p{i + 1}" for i in range(6)]
    view = {"seats": seats, "days": dict(zip(seats, days, strict=True)), "current": "p1",
            "arrived": {s: True for s in seats}}
    img = Image.new("RGB", (R.W, R.TRACK_TOP + 400), (0, 0, 0))
    _draw_track(img, Draw(img), view, _seat_index(view))
    left, top, right, bottom = img.getbbox() or (0, 0, 0, 0)
    band = kept.TRACK_BAND
    assert band[1] <= top and bottom <= band[3] and right <= band[2]


def test_joined_boxes_cover_exactly_the_parts() -> None:
    """Parts side by side or stacked are mapped as one crop covering the very same pixels;
    others (apart, or not lining up) stay as they are."""
    parts = [(0, 10, 40, 30), (40, 10, 90, 30), (90, 10, 100, 30),  # a display of three parts
             (0, 30, 100, 31), (0, 31, 100, 50), (0, 50, 100, 51),  # rows and their lines
             (5, 60, 20, 70), (20, 61, 30, 70), (50, 0, 60, 5)]     # not lining up, apart
    out = kept.joined(parts)

    def pixels(boxes: list[tuple[int, int, int, int]]) -> set[tuple[int, int]]:
        return {(x, y) for left, top, right, bottom in boxes for x in range(left, right) for y in range(top, bottom)}

    assert pixels(out) == pixels(parts)
    assert sum((b[2] - b[0]) * (b[3] - b[1]) for b in out) == len(pixels(parts))  # no overlap
    assert (0, 10, 100, 51) in out and len(out) == 4


def test_a_first_board_maps_the_parts_below_the_map_in_few_crops(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table's first board draws every part below the map; they reach the layer joined, as
    a few crops, not one per part (rows, lines, display, decks, events)."""
    kept.clear()
    view, events = _boards(6, 3)[8]
    derived: list[list[tuple[int, int, int, int]]] = []
    real = StaticLayer.derive

    def spy(self: StaticLayer, parts: list) -> StaticLayer:
        derived.append([box for box, _image in parts])
        return real(self, parts)

    monkeypatch.setattr(StaticLayer, "derive", spy)
    _assert_whole(view, events, "en")
    rows = [b for b in derived[0] if b[0] == 0 and b[2] == R.W]
    assert len(rows) <= 3  # the display, the track, the player rows with their lines
