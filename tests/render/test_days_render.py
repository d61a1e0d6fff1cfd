"""80 Days images: board and hand for 2 and 4 players, both sides, with and without
assistants, in en/de/fr; small PNGs; the board never takes private data; the hand draws the
engine's packing."""

from __future__ import annotations

import io
import random
import time
from typing import Any

import pytest
from PIL import Image

import render.eighty_days as R
from bot.games import ui_for
from engine import registry
from render import for_game
from render.eighty_days.geometry import ITEM_COLOUR
from render.eighty_days.hand import CELL

RULES = registry.get("eighty-days")
UI = ui_for("eighty-days")
NAMES = {"p1": "Phileas Fogg", "p2": "Passepartout 🎩", "p3": "Аудa", "p4": "Inspector Fix of Scotland Yard"}


def played(players: int, side: str, assistants: bool, steps: int, seed: int = 3) -> Any:
    seats = [f"p{k + 1}" for k in range(players)]
    state = RULES.new_game(seats, seed, {"side": side, "assistants": assistants})
    rnd = random.Random(seed)
    for _ in range(steps):
        if RULES.is_over(state):
            break
        seat = rnd.choice(RULES.to_act(state))
        action = RULES.ai_action(state, seat) if rnd.random() < 0.8 else rnd.choice(RULES.legal_actions(state, seat))
        RULES.apply(state, seat, action)
    return state


def png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG") and len(data) < 500_000
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
@pytest.mark.parametrize(("players", "side", "assistants", "steps"),
                         [(2, "A", False, 0), (4, "B", True, 80), (2, "B", True, 10_000), (4, "A", False, 10_000)])
def test_board_and_hands_render(players: int, side: str, assistants: bool, steps: int, lang: str) -> None:
    state = played(players, side, assistants, steps)
    t = UI.translator(lang)
    board = png(R.render_board(RULES.view(state, None), names=NAMES, translator=t, lang=lang))
    assert board.width == 1800 and board.height < 2000
    for seat in state.seats:
        hand = png(R.render_hand(RULES.view(state, seat), seat, names=NAMES, translator=t, lang=lang))
        assert hand.width == 1500


def test_registered_renderer_is_this_package() -> None:
    assert for_game("eighty-days") is R


def test_board_refuses_a_view_with_private_data() -> None:
    state = played(3, "A", True, 30)
    with pytest.raises(AssertionError):
        R.render_board(RULES.view(state, "p1"), names=NAMES, translator=UI.translator("en"))


def test_every_text_comes_from_the_catalog() -> None:
    """A translator that records its keys: the board asks for the period, the newspaper and
    every city, and nothing it draws is a bare key."""
    state = played(4, "B", True, 60)
    t_en = UI.translator("en")
    asked: list[str] = []

    class Recording:
        lang = "en"

        def __call__(self, key: str, **params: Any) -> str:
            asked.append(key)
            assert t_en.has(key) or t_en.has(key + ".other"), key
            return t_en(key, **params)

        def plural(self, key: str, count: int, **params: Any) -> str:
            asked.append(key)
            return t_en.plural(key, count, **params)

    R.render_board(RULES.view(state, None), names=NAMES, translator=Recording())
    assert "img.period" in asked and "city.bombay" in asked and any(k.startswith("newspaper.") for k in asked)


def test_hand_draws_the_packing_in_item_colours() -> None:
    """Each packed cell is filled with its item's colour where the engine placed it."""
    state = played(2, "A", False, 0)
    seat = state.seats[0]
    state.items[0] = [1, 1, 1, 1, 1]  # shoes, revolver, hat, umbrella, coat: 16 of 20 cells
    view = RULES.view(state, seat)
    packing = next(p for p in view["players"] if p["seat"] == seat)["packing"]
    assert len(packing) == 5
    image = png(R.render_hand(view, seat, names=NAMES, translator=UI.translator("en"))).convert("RGB")
    top = _suitcase_top(image)
    for placed in packing:
        r, c = placed["cells"][-1]
        pixel = image.getpixel((30 + c * CELL + 10, top + r * CELL + 10))
        want = ITEM_COLOUR[placed["item"]]
        assert max(abs(a - b) for a, b in zip(pixel, want, strict=True)) <= 6, (placed, pixel)  # PNG palette


def _suitcase_top(image: Image.Image) -> int:
    """The first row of the suitcase grid: the first non-background pixel below the title at x=33."""
    background = image.getpixel((5, 5))
    for y in range(150, image.height):
        if image.getpixel((33, y)) != background:
            return y - 2
    raise AssertionError("no suitcase drawn")


def test_jean_second_suitcase_is_drawn() -> None:
    state = played(2, "A", True, 0)
    state.assistant[0] = "jean"
    state.phase = "play"
    view = RULES.view(state, state.seats[0])
    me = view["players"][0]
    assert me["second_suitcase"]
    png(R.render_hand(view, state.seats[0], names=NAMES, translator=UI.translator("de")))


def test_board_render_is_fast_once_cached() -> None:
    state = played(4, "A", True, 120)
    view, t = RULES.view(state, None), UI.translator("en")
    R.render_board(view, names=NAMES, translator=t)
    best = min(_timed(lambda: R.render_board(view, names=NAMES, translator=t)) for _ in range(3))
    assert best < 0.25, best  # about 40 ms on an idle core; generous for a shared CI machine


def _timed(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


@pytest.mark.parametrize(("players", "side", "steps", "lang"),
                         [(2, "A", 0, "de"), (4, "B", 40, "fr"), (4, "A", 10_000, "en")])
def test_board_png_has_the_pixels_of_the_whole_board_on_its_palette(players: int, side: str, steps: int,
                                                                     lang: str) -> None:
    """The fast path (static map mapped once, only the drawn regions mapped per turn, row
    bands deflated apart and reused) decodes to exactly the whole drawn board mapped onto
    the palette: nothing drawn outside those regions is lost."""
    from render.eighty_days.board import labels
    from render.eighty_days.static import map_keys, palette

    view = RULES.view(played(players, side, side == "B", steps), None)
    t = UI.translator(lang)
    whole = R.board_image(view, names=NAMES, t=t).quantize(palette=palette(labels(view, t), *map_keys(view["map"])),
                                                            dither=Image.Dither.NONE)
    for _ in range(2):  # the second time every band comes from the cache
        fast = png(R.render_board(view, names=NAMES, translator=t))
        fast.load()
        assert fast.size == whole.size and fast.tobytes() == whole.tobytes()
        assert fast.getpalette() == whole.getpalette()


@pytest.mark.parametrize(("players", "side", "lang"), [(4, "A", "en"), (3, "B", "de")])
def test_board_png_has_the_pixels_of_the_whole_board_turn_after_turn(players: int, side: str, lang: str) -> None:
    """Over a whole game of random moves (whoever is to act, a game's end), every board decodes
    to the whole drawn board mapped onto its palette: the boxes mapped per turn miss nothing."""
    from render.eighty_days.board import labels
    from render.eighty_days.static import map_keys, palette

    seats = [f"p{k + 1}" for k in range(players)]
    state = RULES.new_game(seats, 11, {"side": side, "assistants": side == "B"})
    rnd = random.Random(11)
    t = UI.translator(lang)
    step = 0
    while not RULES.is_over(state):
        seat = rnd.choice(RULES.to_act(state))
        RULES.apply(state, seat, rnd.choice(RULES.legal_actions(state, seat)))
        step += 1
        if step % 9 and not RULES.is_over(state):
            continue
        view = RULES.view(state, None)
        whole = R.board_image(view, names=NAMES, t=t).quantize(
            palette=palette(labels(view, t), *map_keys(view["map"])), dither=Image.Dither.NONE)
        fast = png(R.render_board(view, names=NAMES, translator=t))
        fast.load()
        assert fast.tobytes() == whole.tobytes(), (step, view.get("to_act"))


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
@pytest.mark.parametrize("side", ["A", "B"])
def test_pawns_stay_on_the_map_and_off_names_symbols_and_costs(lang: str, side: str) -> None:
    """Four pawns in London stay inside the map's frame (they ran off its left edge), and in
    any city one to four pawns cover no city's name, symbol or distance and no line's cost
    (pawns from Paris sat on Turin's name), each at least 44 px wide (17 px was tiny)."""
    from render.eighty_days import board as B
    from render.eighty_days.board import labels
    from render.eighty_days.geometry import MAP_H, MAP_TOP
    from render.eighty_days.static import map_keys, static_layer

    t = UI.translator(lang)
    state = RULES.new_game(["p1", "p2", "p3", "p4"], 3, {"side": side})
    view = RULES.view(state, None)
    board = B.board_image(view, names=NAMES, t=t).convert("RGB")
    static = static_layer(labels(view, t), *map_keys(view["map"])).convert("RGB")
    edge = (0, MAP_TOP + 8, 30, MAP_TOP + MAP_H)  # the map's left frame, beside London
    assert board.crop(edge).tobytes() == static.crop(edge).tobytes()
    assert B.PAWN_R * 2 >= 44
    obstacles = B.map_obstacles(view, t)
    r = B.PAWN_R
    for city in view["map"]["cities"]:
        for n in range(1, 5):
            for x, y in B.pawn_spots(view, city["id"], n, obstacles):
                pawn = (x - r, y - r, x + r, y + r)
                assert B.MAP_INNER[0] <= pawn[0] and pawn[2] <= B.MAP_INNER[2], (city["id"], n)
                assert B.MAP_INNER[1] <= pawn[1] and pawn[3] <= B.MAP_INNER[3], (city["id"], n)
                assert not any(B._overlaps(pawn, o) for o in obstacles), (city["id"], n)


class _Spy:
    """The game's translator, noting every key and its fields (what the board says)."""

    def __init__(self, lang: str) -> None:
        self.real = UI.translator(lang)
        self.asked: dict[str, dict[str, Any]] = {}

    def __call__(self, key: str, **fields: Any) -> str:
        self.asked[key] = fields
        return self.real(key, **fields)

    def plural(self, key: str, count: int, /, **fields: Any) -> str:
        self.asked[key] = {"count": count, **fields}
        return self.real.plural(key, count, **fields)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_items_are_named_and_the_london_penalty_explained(lang: str) -> None:
    """Players saw five item shapes with no names, and "−50 now" beside a score of −46 with no
    word of what it was: the supply names every item under its shape, and a player away from
    London reads how many lines away and what that costs (the score already counts it)."""
    state = played(3, "A", False, 90, seed=7)
    view = RULES.view(state, None)
    spy = _Spy(lang)
    R.board_image(view, names=NAMES, t=spy)
    for item in R.board.ITEMS:
        assert f"item_name.{item}" in spy.asked
    away = [p for p in view["players"] if p["distance"]]
    assert away, "the seeded game has a player away from London"
    said = spy.asked["img.distance"]
    assert said["count"] == away[-1]["distance"] and said["penalty"] == 5 * away[-1]["distance"]
    text = spy.real.plural("img.distance", said["count"], penalty=said["penalty"])
    assert "London" in text or "Londres" in text
