"""The focus view (issue 23, item 11): on a phone's 400 px column the names of the cities of
the last move and every player's score are at least 9 px tall, measured on the image scaled to
400 px wide; it is made from the public view and the public events only."""

from __future__ import annotations

import importlib
import io
import json
import random
from typing import Any

import pytest
from PIL import Image

from bot.games import get as game_spec
from bot.images.pool import RenderJob, draw, focus_wanted, has_focus
from engine import registry
from render import focus

PHONE_W = 400
MIN_PX = 9
#: (game, players, seed): seeded random play until a move names cities
GAMES = {"rails-and-sails": (4, 7), "around-the-world": (4, 5), "eighty-days": (3, 11)}
NAMES = ["Maximilian-Alexander Großherzög", "🚂 Zoë 🌍✨", "李小龙", "محمد علي", "Ana"]


def _moved(game: str, skip: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(public view, public events) right after the first move past `skip` steps that names a
    city (a journey, a claimed route, a stay)."""
    players, seed = GAMES[game]
    rules = registry.get(game)
    state = rules.new_game([f"p{i + 1}" for i in range(players)], seed, {})
    rng = random.Random(seed)
    for step in range(2000):
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        public = [{k: v for k, v in e.items() if k != "private"} for e in events]
        if step >= skip and any(isinstance(e.get(k), str) for e in public for k in ("from", "a", "location")):
            return json.loads(json.dumps(rules.view(state, None))), public
        assert not rules.is_over(state)
    raise AssertionError("no move named a city")


def _ink_height(image: Image.Image, box: tuple[float, float, float, float]) -> int:
    """Rows of dark ink (the text colour) inside `box` of `image`."""
    grey = image.crop((round(box[0]), round(box[1]), round(box[2]), round(box[3]))).convert("L")
    ink = grey.point(lambda v: 255 if v < 110 else 0).getbbox()
    return 0 if ink is None else ink[3] - ink[1]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("skip", [0, 40])
def test_city_names_and_scores_read_on_a_phone(game: str, skip: int) -> None:
    view, events = _moved(game, skip)
    spec = game_spec(game)
    names = {s: NAMES[i] for i, s in enumerate(view["seats"])}
    t = spec.ui.translator("en")
    made = importlib.import_module(f"render.{game.replace('-', '_')}.focus").focus_of(
        view, names=names, translator=t, events=events)
    assert made.places, "the move's cities are named"
    drawn = focus.compose(made)
    scale = PHONE_W / drawn.image.width
    phone = drawn.image.resize((PHONE_W, round(drawn.image.height * scale)), Image.Resampling.LANCZOS)
    places = [text for kind, text, _box in drawn.texts if kind == "place"]
    assert places == [p.name for p in made.places]
    assert len([k for k, _t, _b in drawn.texts if k == "score"]) == len(view["seats"])
    for kind, text, box in drawn.texts:
        height = _ink_height(phone, (box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale))
        assert height >= MIN_PX, f"{game}: {kind} {text!r} is {height} px tall at {PHONE_W} px"


def test_whole_board_text_is_too_small_on_a_phone() -> None:
    """Why the focus exists: the same city names on the whole board, scaled to the column."""
    view, events = _moved("rails-and-sails", 0)
    from render.rails_and_sails import board_image

    spec = game_spec("rails-and-sails")
    board = board_image(view, names={s: s for s in view["seats"]}, translator=spec.ui.translator("en"))
    assert 18 * PHONE_W / board.width < MIN_PX  # the board's label font, shown at the column's width


@pytest.mark.parametrize("game", list(GAMES))
def test_focus_job_through_the_pool_protocol(game: str) -> None:
    """A focus is a plain `RenderJob` (image "focus") a worker draws like a board."""
    view, events = _moved(game, 0)
    spec = game_spec(game)
    assert has_focus(spec)
    png = draw(RenderJob(game, "focus", view, {s: s for s in view["seats"]}, "de", events=events))
    image = Image.open(io.BytesIO(png))
    assert image.width == focus.FOCUS_W and image.height < image.width


def test_detour_has_no_focus() -> None:
    """Detour's board is small enough to read whole."""
    assert not has_focus(game_spec("detour"))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_change_off_the_map_gets_no_focus(game: str) -> None:
    """A card drawn, a purchase, a pass: nothing on the map to show closer than the board, so
    no second image (at 400 px it was the whole map again, too small to read, for nothing)."""
    players, seed = GAMES[game]
    rules = registry.get(game)
    spec = game_spec(game)
    state = rules.new_game([f"p{i + 1}" for i in range(players)], seed, {})
    rng = random.Random(seed)
    seen = {True: 0, False: 0}
    for _ in range(400):
        if rules.is_over(state):
            break
        seat = rules.to_act(state)[0]
        events = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        public = [{k: v for k, v in e.items() if k != "private"} for e in events]
        named = any(isinstance(e.get(k), str) for e in public for k in ("from", "a", "location", "city"))
        wanted = focus_wanted(spec, rules.view(state, None), public)
        if not named:
            assert not wanted, public
        seen[wanted] += 1
    assert seen[True] and seen[False]


def test_crop_keeps_places_inside_and_falls_back_to_the_map() -> None:
    map_box = (0, 60, 1800, 800)
    near = [focus.Place("A", 100, 100), focus.Place("B", 300, 150)]
    box = focus.crop_box(near, map_box)
    assert map_box[0] <= box[0] and box[2] <= map_box[2] and map_box[1] <= box[1] and box[3] <= map_box[3]
    assert all(box[0] < p.x < box[2] and box[1] < p.y < box[3] for p in near)
    assert box[2] - box[0] >= focus.MIN_CROP_W
    far = [focus.Place("A", 10, 100), focus.Place("B", 1790, 700)]  # a route across the Pacific edge
    assert focus.crop_box(far, map_box) == map_box
    assert focus.crop_box([], map_box) == map_box


@pytest.mark.parametrize("game", list(GAMES))
def test_the_map_the_focus_crops_is_the_boards_map_pixel_for_pixel(game: str) -> None:
    """The focus draws only the board's map (`map_image`): inside the map box it must be the
    whole board exactly, in every language, early and late in games of every size."""
    module = f"render.{game.replace('-', '_')}"
    board = importlib.import_module(f"{module}.board")
    focus_of = importlib.import_module(f"{module}.focus").focus_of
    spec, rules = game_spec(game), registry.get(game)
    for seed, lang in enumerate(("en", "de", "fr", "en")):
        players = max(rules.min_players, min(rules.max_players, 2 + seed))
        seats = [f"p{i + 1}" for i in range(players)]
        state = rules.new_game(seats, seed, {})
        rng = random.Random(seed)
        for _ in range(30 + 60 * seed):
            if rules.is_over(state):
                break
            seat = rules.to_act(state)[0]
            rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        view = rules.view(state, None)
        names = {s: NAMES[i] for i, s in enumerate(seats)}
        t = spec.ui.translator(lang)
        made = focus_of(view, names=names, translator=t, events=[])
        if game == "eighty-days":
            whole = board.board_image(view, names=names, t=t)
        else:
            whole = board.board_image(view, names=names, translator=t)
        box = made.map_box
        assert made.board.crop(box).tobytes() == whole.crop(box).tobytes(), (game, seed, lang)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_close_up_is_mapped_onto_its_boards_focus_palette(game: str) -> None:
    """The close-up's PNG is on the focus palette made from its board's palette: every colour
    the focus draws itself is an exact entry of it (the red rings, the pills' ink), and the
    rest of the map keeps the board's colours, not an adaptive palette per image."""
    view, events = _moved(game, 40)
    spec = game_spec(game)
    names = {s: NAMES[i] for i, s in enumerate(view["seats"])}
    module = importlib.import_module(f"render.{game.replace('-', '_')}.focus")
    made = module.focus_of(view, names=names, translator=spec.ui.translator("en"), events=events)
    assert made.palette is not None and made.places
    palette = focus.focus_palette(made.palette)
    entries = palette.getpalette() or []
    colours = {tuple(entries[i:i + 3]) for i in range(0, len(entries), 3)}
    assert set(focus.own_colours()) <= colours
    png = Image.open(io.BytesIO(focus.render(made)))
    assert png.mode == "P" and png.getpalette() == entries
    assert focus.HIGHLIGHT in {rgb for _n, rgb in png.convert("RGB").getcolors(1 << 16) or []}  # the rings


def test_a_focus_without_a_board_palette_gets_an_adaptive_one() -> None:
    board = Image.new("RGB", (1200, 800), (90, 140, 200))
    made = focus.Focus(board, (0, 0, 1200, 800), [focus.Place("Here", 600, 400)], [], "Score")
    png = Image.open(io.BytesIO(focus.render(made)))
    assert png.mode == "P" and png.size[0] == focus.FOCUS_W
