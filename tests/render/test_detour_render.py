"""detour: board and hand images (size, weight, determinism, nothing secret drawn)."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image

from engine import registry
from render import detour as R
from tests.support.render_support import translator


def TR(lang: str):  # noqa: N802
    return translator("detour", lang)


EN = TR("en")

RULES = registry.get("detour")
NAMES = {"p1": "Alice", "p2": "Bob", "p3": "Chloé", "p4": "Dieter"}


def _midgame(players: int, steps: int, seed: int = 3):
    seats = [f"p{i + 1}" for i in range(players)]
    state = RULES.new_game(seats, seed)
    events: list[dict] = []
    n = 0
    while not RULES.is_over(state) and n < steps:
        seat = RULES.to_act(state)[0]
        events = RULES.apply(state, seat, RULES.ai_action(state, seat))
        n += 1
    return state, events


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_board_size_and_weight(players: int, lang: str) -> None:
    state, events = _midgame(players, 25)
    data = R.render_board(RULES.view(state, None), names=NAMES, translator=TR(lang), events=events)
    img = _png(data)
    assert img.width >= 1200 and 600 <= img.height <= 1200
    assert len(data) < 500_000


def test_board_is_deterministic_and_depends_on_the_view() -> None:
    state, events = _midgame(4, 30)
    view = RULES.view(state, None)
    a = R.render_board(view, names=NAMES, events=events, translator=EN)
    b = R.render_board(copy.deepcopy(view), names=NAMES, events=events, translator=EN)
    assert a == b
    moved = copy.deepcopy(view)
    moved["pawns"][0]["space"] = 15 if moved["pawns"][0]["space"] != 15 else 14
    assert R.render_board(moved, names=NAMES, events=events, translator=EN) != a
    assert R.render_board(view, names=NAMES, translator=TR("de"), events=events) != a


def test_board_never_shows_a_secret_choice() -> None:
    """Two games differing only in a card chosen secretly draw the same board."""
    s1 = RULES.new_game(["p1", "p2", "p3"], 4)
    s2 = copy.deepcopy(s1)
    RULES.apply(s1, "p1", {"type": "choose", "card": 10})
    RULES.apply(s2, "p1", {"type": "choose", "card": 5})
    v1, v2 = RULES.view(s1, None), RULES.view(s2, None)
    assert "private" not in v1
    assert R.render_board(v1, names=NAMES, translator=EN) == R.render_board(v2, names=NAMES, translator=EN)


def test_board_shows_who_has_chosen() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 4)
    before = R.render_board(RULES.view(s, None), names=NAMES, translator=EN)
    RULES.apply(s, "p2", {"type": "choose", "card": 6})
    assert R.render_board(RULES.view(s, None), names=NAMES, translator=EN) != before


def test_finished_game_board() -> None:
    state, events = _midgame(3, 10_000)
    assert RULES.is_over(state)
    data = R.render_board(RULES.view(state, None), names=NAMES, events=events, translator=EN)
    assert _png(data).width >= 1200


@pytest.mark.parametrize("players", [2, 4])
def test_hand_image(players: int) -> None:
    state, _ = _midgame(players, 5)
    view = RULES.view(state, "p1")
    data = R.render_hand(view, "p1", names=NAMES, translator=TR("fr"))
    img = _png(data)
    assert img.width == 1200
    assert len(data) < 500_000
    assert R.render_hand(view, "p1", names=NAMES, translator=TR("fr")) == data
    if players == 2:
        assert img.height > 800  # two colours, two rows of cards


def test_hand_marks_the_secret_choice_only_for_its_owner() -> None:
    s = RULES.new_game(["p1", "p2", "p3"], 4)
    plain = R.render_hand(RULES.view(s, "p1"), "p1", names=NAMES, translator=EN)
    RULES.apply(s, "p1", {"type": "choose", "card": 8})
    assert R.render_hand(RULES.view(s, "p1"), "p1", names=NAMES, translator=EN) != plain
    # p2's hand image does not change because of p1's secret choice
    s2 = RULES.new_game(["p1", "p2", "p3"], 4)
    assert R.render_hand(RULES.view(s, "p2"), "p2", names=NAMES, translator=EN) == R.render_hand(
        RULES.view(s2, "p2"), "p2", names=NAMES, translator=EN)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_palette_keeps_the_player_colours(players: int) -> None:
    """The fixed palette keeps every pawn's colour (to within a shade) and the paper."""
    from render.common import PAPER, PLAYER_COLOURS

    state, events = _midgame(players, 12)
    img = _png(R.render_board(RULES.view(state, None), names=NAMES, events=events, translator=EN)).convert("RGB")
    colours = [c for _, c in img.getcolors(maxcolors=1 << 16)]

    def present(want: tuple[int, int, int]) -> bool:
        return any(max(abs(a - b) for a, b in zip(c, want, strict=True)) <= 3 for c in colours)

    pawns = 4 if players == 2 else players
    assert all(present(PLAYER_COLOURS[i]) for i in range(pawns))
    assert present(PAPER)
    assert not present((255, 0, 255))  # and it does not invent colours


@pytest.mark.parametrize("value", [5, 6, 8, 10])
def test_a_played_card_keeps_its_number_clear(value: int) -> None:
    """Issue 23: a stroke through a played 5 or 6 read as 8 on a phone. A played card is
    marked by a folded corner that stays off its number's box."""
    from render.common import Draw, font
    from render.detour import LIGHT, PLAYED_MARK, _card_chip

    image = Image.new("RGB", (50, 40), LIGHT)
    _card_chip(Draw(image), 0, 0, value, "played")
    number = Draw(image).textbbox((25, 20), str(value), font=font(24, "bold"), anchor="mm")
    marked = [(x, y) for x in range(50) for y in range(40) if image.getpixel((x, y)) == PLAYED_MARK]
    assert marked, "a played card is marked"
    assert not [(x, y) for x, y in marked if number[0] <= x < number[2] and number[1] <= y < number[3]]


def _red_in_ring(img: Image.Image, centre: tuple[int, int], inner: float, outer: float) -> int:
    """How many pixels of the ring between `inner` and `outer` around `centre` are the red line's red."""
    cx, cy = centre
    n = 0
    for x in range(int(cx - outer), int(cx + outer) + 1):
        for y in range(int(cy - outer), int(cy + outer) + 1):
            if inner <= ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 <= outer and img.getpixel((x, y)) == R.RED:
                n += 1
    return n


def test_only_a_blocked_pawn_is_ringed_red() -> None:
    """A red ring means a blocked pawn: the spaces where a red line starts are ringed in ink like
    the others (ringed red, a pawn standing there read as blocked), the red line under them
    marks them."""
    state, _ = _midgame(4, 6)
    view = copy.deepcopy(RULES.view(state, None))
    red_spaces = [s for s in range(R.M.N_MAIN) if R.M.RED[s] >= 0]
    plain = next(s for s in range(1, R.M.N_MAIN) if R.M.RED[s] < 0 and s not in red_spaces)
    for k, p in enumerate(view["pawns"]):
        p["space"], p["blocked"] = (red_spaces[0], False) if k == 0 else (plain, k == 1)
    img = R.board_image(view, names=NAMES, translator=EN)
    for s in red_spaces:
        assert _red_in_ring(img, R.space_xy(s), R.SPACE_R - 4, R.SPACE_R - 1) == 0, s
    # the blocked pawn's ring is there, and thick enough to see on a phone
    img_one = R.board_image({**view, "pawns": [view["pawns"][1]]}, names=NAMES, translator=EN)
    assert _red_in_ring(img_one, R.space_xy(plain), R.TOKEN_R + 2, R.TOKEN_R + 6) > 200


def test_an_arrow_runs_under_the_day_costs_and_city_names_it_crosses() -> None:
    """Arrows in the lanes below the track crossed the side paths' day costs and city names
    (players misread a "5" with a line through it): they now run under them."""
    from engine.games.detour import mapdata as M

    state = RULES.new_game(["p1", "p2", "p3"], 7)
    view = RULES.view(state, None)
    omaha, liverpool, genoa, suez = (M.NAMES.index(n) for n in ("Omaha", "Liverpool", "Genoa", "Suez"))
    events = [{"type": "move", "colour": "green", "from": genoa, "to": suez},
              {"type": "move", "colour": "orange", "from": omaha, "to": liverpool}]  # the second lane
    with_arrows = R.board_image(view, names=NAMES, translator=EN, events=events)
    without = R.board_image(view, names=NAMES, translator=EN)
    texts = R.static_texts(EN)
    crossed = [box for box in R._label_boxes(texts)
               if with_arrows.crop((box[0] - 12, box[1], box[2] + 12, box[3])).tobytes()
               != without.crop((box[0] - 12, box[1], box[2] + 12, box[3])).tobytes()]
    # the New York - Washington cost and the name Brindisi lie across those two arrows' lanes
    assert len(crossed) >= 2
    for box in crossed:
        assert with_arrows.crop(box).tobytes() == without.crop(box).tobytes(), f"an arrow over the label at {box}"
